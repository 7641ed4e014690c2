/* Line reader: stdio for the bytes, zlib / liblzma / libzstd streaming decoders chosen by magic
 * bytes, and a line splitter that hands out lines in place when they lie inside one chunk. */
#include "base/lineio.h"

#include "base/fileio.h"

#include <errno.h>
#include <lzma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <zlib.h>
#include <zstd.h>

enum { CHUNK = 1 << 17 };

struct ws_lines {
    FILE *f;
    char *path;
    long lineno;
    bool failed;
    bool in_eof;     /* fread returned short: no more compressed bytes */
    bool stream_end; /* the decoder saw the end of the (last) compressed stream */
    enum ws_comp comp;
    z_stream z;
    lzma_stream x;
    ZSTD_DStream *zs;
    size_t zs_last; /* last ZSTD_decompressStream result: 0 at a frame boundary */
    unsigned char *in;
    size_t in_len, in_pos;
    char *out;
    size_t out_len, out_pos;
    char *line; /* a line that spans two chunks, assembled here */
    size_t line_cap;
};

const char *ws_comp_name(enum ws_comp c) {
    static const char *const names[] = {"plain", "gzip", "xz", "zstd"};
    return (unsigned)c < 4 ? names[c] : "?";
}

static int fail(struct ws_lines *l, struct ws_err *e, const char *what) {
    l->failed = true;
    return ws_fail(e, "%s:%ld: %s", l->path, l->lineno + 1, what);
}

/* Tops up the compressed input buffer when it is empty. */
static void refill_in(struct ws_lines *l) {
    if (l->in_pos < l->in_len || l->in_eof) return;
    l->in_len = fread(l->in, 1, CHUNK, l->f);
    l->in_pos = 0;
    if (l->in_len < CHUNK) l->in_eof = true;
}

static const unsigned char magic_gz[] = {0x1f, 0x8b};
static const unsigned char magic_xz[] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
static const unsigned char magic_zst[] = {0x28, 0xb5, 0x2f, 0xfd};

static bool starts(const struct ws_lines *l, const unsigned char *m, size_t n) {
    return l->in_len - l->in_pos >= n && memcmp(l->in + l->in_pos, m, n) == 0;
}

struct ws_lines *ws_lines_open(const char *path, struct ws_err *e) {
    FILE *f = ws_open_input(path, e);
    if (!f) return NULL;
    struct ws_lines *l = calloc(1, sizeof *l);
    if (!l || !(l->path = strdup(path)) || !(l->in = malloc(CHUNK)) || !(l->out = malloc(CHUNK))) {
        if (l) free(l->path), free(l->in), free(l);
        fclose(f);
        ws_fail(e, "%s: out of memory", path);
        return NULL;
    }
    l->f = f;
    refill_in(l);
    if (ferror(f)) {
        ws_fail(e, "%s: cannot read: %s", path, strerror(errno ? errno : EIO));
        ws_lines_close(l);
        return NULL;
    }
    int ok = 1;
    if (starts(l, magic_gz, sizeof magic_gz)) {
        l->comp = WS_COMP_GZIP;
        ok = inflateInit2(&l->z, 15 + 16) == Z_OK; /* gzip wrapper only */
    } else if (starts(l, magic_xz, sizeof magic_xz)) {
        l->comp = WS_COMP_XZ;
        lzma_stream init = LZMA_STREAM_INIT;
        l->x = init;
        ok = lzma_stream_decoder(&l->x, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
    } else if (starts(l, magic_zst, sizeof magic_zst)) {
        l->comp = WS_COMP_ZSTD;
        ok = (l->zs = ZSTD_createDStream()) != NULL && !ZSTD_isError(ZSTD_initDStream(l->zs));
    }
    if (!ok) {
        ws_fail(e, "%s: cannot start the %s decoder", path, ws_comp_name(l->comp));
        ws_lines_close(l);
        return NULL;
    }
    return l;
}

/* Decompresses the next bytes into out[]. Returns the number of bytes (> 0), 0 at the end of the
 * data, -1 on error. */
static ssize_t fill_gz(struct ws_lines *l, struct ws_err *e) {
    for (;;) {
        refill_in(l);
        if (l->stream_end) {
            /* Another gzip member may follow (gzip a b > c): start over on it. */
            if (l->in_pos == l->in_len) return 0;
            if (!starts(l, magic_gz, sizeof magic_gz)) {
                /* zeros (block padding) may follow, as gzip(1) accepts; anything else is damage
                 * or another file appended, which gzip(1) also flags */
                for (;;) {
                    for (; l->in_pos < l->in_len; l->in_pos++)
                        if (l->in[l->in_pos])
                            return fail(l, e,
                                        "bytes after the end of the gzip data that are not "
                                        "gzip (a damaged or appended file?)");
                    if (l->in_eof) return 0;
                    refill_in(l);
                }
            }
            inflateReset(&l->z);
            l->stream_end = false;
        }
        bool dry = l->in_pos == l->in_len && l->in_eof;
        l->z.next_in = l->in + l->in_pos;
        l->z.avail_in = (uInt)(l->in_len - l->in_pos);
        l->z.next_out = (Bytef *)l->out;
        l->z.avail_out = CHUNK;
        int r = inflate(&l->z, Z_NO_FLUSH);
        l->in_pos = l->in_len - l->z.avail_in;
        if (r == Z_STREAM_END) {
            l->stream_end = true;
        } else if (r != Z_OK && r != Z_BUF_ERROR) {
            char msg[160];
            snprintf(msg, sizeof msg, "gzip data is corrupt: %s", l->z.msg ? l->z.msg : "?");
            return fail(l, e, msg);
        }
        size_t n = CHUNK - l->z.avail_out;
        if (n) return (ssize_t)n;
        if (dry && !l->stream_end)
            return fail(l, e, "unexpected end of gzip data (truncated file?)");
    }
}

static ssize_t fill_xz(struct ws_lines *l, struct ws_err *e) {
    for (;;) {
        if (l->stream_end) return 0;
        refill_in(l);
        l->x.next_in = l->in + l->in_pos;
        l->x.avail_in = l->in_len - l->in_pos;
        l->x.next_out = (uint8_t *)l->out;
        l->x.avail_out = CHUNK;
        bool last = l->in_eof;
        lzma_ret r = lzma_code(&l->x, last ? LZMA_FINISH : LZMA_RUN);
        l->in_pos = l->in_len - l->x.avail_in;
        size_t n = CHUNK - l->x.avail_out;
        if (r == LZMA_STREAM_END) {
            l->stream_end = true;
        } else if (r != LZMA_OK) {
            if (r == LZMA_BUF_ERROR && last)
                return n ? (ssize_t)n : fail(l, e, "unexpected end of xz data (truncated file?)");
            char msg[80];
            snprintf(msg, sizeof msg, "xz data is corrupt (liblzma error %d)", (int)r);
            return fail(l, e, msg);
        }
        if (n) return (ssize_t)n;
    }
}

static ssize_t fill_zst(struct ws_lines *l, struct ws_err *e) {
    for (;;) {
        refill_in(l);
        bool dry = l->in_pos == l->in_len && l->in_eof;
        if (dry && l->zs_last == 0) return 0; /* ended on a frame boundary */
        ZSTD_inBuffer ib = {l->in, l->in_len, l->in_pos};
        ZSTD_outBuffer ob = {l->out, CHUNK, 0};
        size_t r = ZSTD_decompressStream(l->zs, &ob, &ib);
        if (ZSTD_isError(r)) {
            char msg[160];
            snprintf(msg, sizeof msg, "zstd data is corrupt: %s", ZSTD_getErrorName(r));
            return fail(l, e, msg);
        }
        l->zs_last = r;
        l->in_pos = ib.pos;
        if (ob.pos) return (ssize_t)ob.pos;
        if (dry) return fail(l, e, "unexpected end of zstd data (truncated file?)");
    }
}

static ssize_t fill_plain(struct ws_lines *l) {
    if (l->in_pos < l->in_len) { /* the bytes read to look for a magic number */
        size_t n = l->in_len - l->in_pos;
        memcpy(l->out, l->in + l->in_pos, n);
        l->in_pos = l->in_len;
        return (ssize_t)n;
    }
    if (l->in_eof) return 0;
    size_t n = fread(l->out, 1, CHUNK, l->f);
    if (n < CHUNK) l->in_eof = true;
    return (ssize_t)n;
}

static int fill(struct ws_lines *l, struct ws_err *e) {
    ssize_t n;
    switch (l->comp) {
    case WS_COMP_GZIP:
        n = fill_gz(l, e);
        break;
    case WS_COMP_XZ:
        n = fill_xz(l, e);
        break;
    case WS_COMP_ZSTD:
        n = fill_zst(l, e);
        break;
    default:
        n = fill_plain(l);
        break;
    }
    if (n >= 0 && ferror(l->f)) return fail(l, e, "read error");
    if (n < 0) return -1;
    l->out_pos = 0;
    l->out_len = (size_t)n;
    return n > 0;
}

static int line_append(struct ws_lines *l, const char *s, size_t n, size_t *len, struct ws_err *e) {
    if (*len + n > WS_LINE_MAX) {
        char msg[64];
        snprintf(msg, sizeof msg, "line longer than %d bytes", WS_LINE_MAX);
        return fail(l, e, msg);
    }
    if (*len + n + 1 > l->line_cap) {
        size_t cap = l->line_cap ? l->line_cap : 256;
        while (cap < *len + n + 1) cap *= 2;
        char *p = realloc(l->line, cap);
        if (!p) return fail(l, e, "out of memory");
        l->line = p;
        l->line_cap = cap;
    }
    memcpy(l->line + *len, s, n);
    *len += n;
    l->line[*len] = '\0';
    return 0;
}

/* The line read, numbered; NULL (an error) if it holds a NUL byte, which would end it early for
 * every parser (a binary or damaged file). */
static char *finish(struct ws_lines *l, char *s, size_t n, struct ws_err *e) {
    if (memchr(s, '\0', n)) {
        fail(l, e, "NUL byte in a text line (a binary or damaged file?)");
        return NULL;
    }
    l->lineno++;
    if (n > 0 && s[n - 1] == '\r') s[--n] = '\0';
    return s;
}

const char *ws_lines_next(struct ws_lines *l, struct ws_err *e) {
    if (l->failed) return NULL;
    size_t len = 0; /* bytes of this line already in l->line */
    for (;;) {
        if (l->out_pos == l->out_len) {
            int r = fill(l, e);
            if (r < 0) return NULL;
            if (r == 0) return len ? finish(l, l->line, len, e) : NULL; /* last line, no '\n' */
        }
        char *s = l->out + l->out_pos;
        size_t avail = l->out_len - l->out_pos;
        char *nl = memchr(s, '\n', avail);
        size_t take = nl ? (size_t)(nl - s) : avail;
        if (nl && len == 0 && take <= WS_LINE_MAX) { /* the common case: in place */
            *nl = '\0';
            l->out_pos += take + 1;
            return finish(l, s, take, e);
        }
        if (line_append(l, s, take, &len, e)) return NULL;
        l->out_pos += take + (nl ? 1 : 0);
        if (nl) return finish(l, l->line, len, e);
    }
}

bool ws_lines_failed(const struct ws_lines *l) {
    return l->failed;
}
long ws_lines_lineno(const struct ws_lines *l) {
    return l->lineno;
}
const char *ws_lines_path(const struct ws_lines *l) {
    return l->path;
}
enum ws_comp ws_lines_comp(const struct ws_lines *l) {
    return l->comp;
}

void ws_lines_close(struct ws_lines *l) {
    if (!l) return;
    if (l->comp == WS_COMP_GZIP) inflateEnd(&l->z);
    if (l->comp == WS_COMP_XZ) lzma_end(&l->x);
    if (l->zs) ZSTD_freeDStream(l->zs);
    if (l->f) fclose(l->f);
    free(l->line);
    free(l->in);
    free(l->out);
    free(l->path);
    free(l);
}
