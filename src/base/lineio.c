/* Line reader over zlib's gz* API (which also reads uncompressed files transparently). */
#include "base/lineio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { LINE_MAX_BYTES = 4096 };

struct ws_lines {
    gzFile gz;
    char *path;
    long lineno;
    bool failed;
    char buf[LINE_MAX_BYTES + 2];
};

struct ws_lines *ws_lines_open(const char *path, struct ws_err *e) {
    gzFile gz = gzopen(path, "rb");
    if (!gz) {
        ws_fail(e, "%s: cannot open: %s", path, strerror(errno ? errno : ENOENT));
        return NULL;
    }
    gzbuffer(gz, 1 << 17);
    struct ws_lines *l = calloc(1, sizeof *l);
    if (!l) {
        gzclose(gz);
        ws_fail(e, "%s: out of memory", path);
        return NULL;
    }
    l->gz = gz;
    l->path = strdup(path);
    return l;
}

const char *ws_lines_next(struct ws_lines *l, struct ws_err *e) {
    if (l->failed) return NULL;
    if (!gzgets(l->gz, l->buf, sizeof l->buf)) {
        int zerr = 0;
        const char *msg = gzerror(l->gz, &zerr);
        if (zerr != Z_OK && zerr != Z_BUF_ERROR) {
            l->failed = true;
            ws_fail(e, "%s:%ld: read error: %s", l->path, l->lineno + 1, msg);
        } else if (!gzeof(l->gz)) {
            l->failed = true;
            ws_fail(e, "%s:%ld: read error", l->path, l->lineno + 1);
        }
        return NULL;
    }
    l->lineno++;
    size_t n = strlen(l->buf);
    if (n > 0 && l->buf[n - 1] == '\n') {
        l->buf[--n] = '\0';
    } else if (n >= LINE_MAX_BYTES && !gzeof(l->gz)) {
        l->failed = true;
        ws_fail(e, "%s:%ld: line longer than %d bytes", l->path, l->lineno, LINE_MAX_BYTES);
        return NULL;
    }
    if (n > 0 && l->buf[n - 1] == '\r') l->buf[--n] = '\0';
    return l->buf;
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

void ws_lines_close(struct ws_lines *l) {
    if (!l) return;
    gzclose(l->gz);
    free(l->path);
    free(l);
}
