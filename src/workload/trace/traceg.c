/* .traceg reader: a line-driven state machine for the structure, a hand-written tokenizer for
 * instruction lines (they are most of the bytes, so no sscanf / strtol on the hot path). */
#include "workload/trace/traceg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/lineio.h"

enum state { S_OUT, S_TB_HEAD, S_TB_BODY, S_WARP_HEAD, S_INSTS };

struct traceg {
    struct ws_lines *lines;
    struct tg_header h;
    int state;
    uint32_t nwarps;      /* per block: ceil(threads / 32) */
    uint64_t ncta;        /* blocks in the grid */
    bool pending_begin;   /* the header reader stopped on a #BEGIN_TB */
    uint32_t tb[3];       /* the block being read */
    uint64_t cta;         /* its linear index */
    bool any_tb;          /* a block has been read (cta is the last one) */
    long tb_line;         /* where its #BEGIN_TB was */
    uint32_t warp, insts; /* the warp being read and its count */
    uint32_t left;        /* its instruction lines still to come */
    uint32_t warps_seen;  /* bit w: "warp = w" seen in this block */
    bool warp_done;       /* a warp of this block has been read completely */
};

const struct tg_header *tg_header(const struct traceg *t) {
    return &t->h;
}
const char *tg_path(const struct traceg *t) {
    return ws_lines_path(t->lines);
}
long tg_lineno(const struct traceg *t) {
    return ws_lines_lineno(t->lines);
}
const char *tg_comp(const struct traceg *t) {
    return ws_comp_name(ws_lines_comp(t->lines));
}

#define FAIL(t, e, ...) fail_at(t, e, ws_lines_lineno((t)->lines), __VA_ARGS__)

static int fail_at(const struct traceg *t, struct ws_err *e, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail_at(const struct traceg *t, struct ws_err *e, long line, const char *fmt, ...) {
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ws_fail(e, "%s:%ld: %s", ws_lines_path(t->lines), line, msg);
}

static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
static const char *skip_ws(const char *p) {
    while (is_space(*p)) p++;
    return p;
}
static bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* "<word...> = value": when `line` starts with `key` followed by '=', returns the value text (with
 * surrounding blanks removed from its start), else NULL. */
static const char *keyval(const char *line, const char *key) {
    const char *p = skip_ws(line);
    size_t n = strlen(key);
    if (strncmp(p, key, n) != 0) return NULL;
    p = skip_ws(p + n);
    if (*p != '=') return NULL;
    return skip_ws(p + 1);
}

/* Unsigned decimal with nothing but blanks after it. */
static bool parse_u64_all(const char *p, uint64_t *v) {
    p = skip_ws(p);
    if (!is_digit(*p)) return false;
    uint64_t x = 0;
    for (; is_digit(*p); p++) {
        if (x > (UINT64_MAX - 9) / 10) return false;
        x = x * 10 + (uint64_t)(*p - '0');
    }
    *v = x;
    return *skip_ws(p) == '\0';
}
static bool parse_u32_all(const char *p, uint32_t *v) {
    uint64_t x;
    if (!parse_u64_all(p, &x) || x > UINT32_MAX) return false;
    *v = (uint32_t)x;
    return true;
}
static bool parse_hex_all(const char *p, uint64_t *v) {
    p = skip_ws(p);
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
    int n = 0;
    uint64_t x = 0;
    for (int d; (d = hexval(*p)) >= 0; p++, n++) x = (x << 4) | (uint64_t)d;
    *v = x;
    return n > 0 && n <= 16 && *skip_ws(p) == '\0';
}

/* "(x,y,z)" or "x,y,z" with non-negative decimals. */
static bool parse_dim3(const char *p, uint32_t d[3]) {
    p = skip_ws(p);
    bool paren = *p == '(';
    if (paren) p++;
    for (int i = 0; i < 3; i++) {
        p = skip_ws(p);
        if (!is_digit(*p)) return false;
        uint64_t x = 0;
        for (; is_digit(*p) && x <= UINT32_MAX; p++) x = x * 10 + (uint64_t)(*p - '0');
        if (x > UINT32_MAX) return false;
        d[i] = (uint32_t)x;
        p = skip_ws(p);
        if (i < 2 && *p++ != ',') return false;
    }
    if (paren && *p++ != ')') return false;
    return *skip_ws(p) == '\0';
}

static void copy_trim(char *dst, size_t n, const char *src) {
    src = skip_ws(src);
    size_t len = strlen(src);
    while (len > 0 && is_space(src[len - 1])) len--;
    if (len >= n) len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* The "#traces format = ..." comment says how many immediates end each line (the tracer's
 * version number does not: v4 files exist with and without one). */
static void read_format(struct tg_header *h, const char *line) {
    if (!strstr(line, "format")) return;
    h->nimm = strstr(line, "immediate2") ? 2 : strstr(line, "immediate") ? 1 : 0;
    if (strstr(line, "Val|NoVal")) h->values = true;
}

static int header_line(struct traceg *t, const char *line, struct ws_err *e) {
    struct tg_header *h = &t->h;
    const char *v;
    long ln = ws_lines_lineno(t->lines);
#define BAD(what) FAIL(t, e, "bad %s: '%s'", what, line)
    if ((v = keyval(line, "-kernel name"))) {
        copy_trim(h->name, sizeof h->name, v);
    } else if ((v = keyval(line, "-kernel id"))) {
        if (!parse_u32_all(v, &h->kernel_id)) return BAD("kernel id");
    } else if ((v = keyval(line, "-grid dim"))) {
        if (!parse_dim3(v, h->grid)) return BAD("grid dim (expected (x,y,z))");
    } else if ((v = keyval(line, "-block dim"))) {
        if (!parse_dim3(v, h->block)) return BAD("block dim (expected (x,y,z))");
    } else if ((v = keyval(line, "-shmem"))) {
        if (!parse_u32_all(v, &h->shmem)) return BAD("shmem");
    } else if ((v = keyval(line, "-nregs"))) {
        if (!parse_u32_all(v, &h->nregs)) return BAD("nregs");
    } else if ((v = keyval(line, "-binary version"))) {
        if (!parse_u32_all(v, &h->binary_version)) return BAD("binary version");
        h->line_binary_version = ln;
    } else if ((v = keyval(line, "-cuda stream id"))) {
        if (!parse_u64_all(v, &h->stream_id)) return BAD("cuda stream id");
    } else if ((v = keyval(line, "-shmem base_addr"))) {
        if (!parse_hex_all(v, &h->shmem_base)) return BAD("shmem base_addr");
    } else if ((v = keyval(line, "-local mem base_addr"))) {
        if (!parse_hex_all(v, &h->local_base)) return BAD("local mem base_addr");
    } else if ((v = keyval(line, "-nvbit version"))) {
        copy_trim(h->nvbit, sizeof h->nvbit, v);
    } else if ((v = keyval(line, "-accelsim tracer version"))) {
        uint32_t ver;
        if (!parse_u32_all(v, &ver)) {
            /* "1.2"-style strings predate the numbered versions. */
            if (!is_digit(*v) || v[1] != '.') return BAD("accelsim tracer version");
            ver = 0;
        }
        if (ver > 6)
            return FAIL(t, e, "accelsim tracer version %u is not supported (known: none, 1-6)",
                        ver);
        h->version = (int)ver;
    } else if ((v = keyval(line, "-enable lineinfo"))) {
        uint32_t li;
        if (!parse_u32_all(v, &li) || li > 1) return BAD("enable lineinfo (expected 0 or 1)");
        h->lineinfo = li == 1;
    } else if ((v = keyval(line, "-warpsim unit timing"))) {
        char tv[16];
        copy_trim(tv, sizeof tv, v);
        if (strcmp(tv, "machine") != 0 && strcmp(tv, "opcode") != 0)
            return BAD("warpsim unit timing (expected machine or opcode)");
        h->machine_timing = tv[0] == 'm';
    } else {
        h->unknown_keys++; /* Accel-Sim ignores other '-' lines too */
    }
#undef BAD
    return 0;
}

static int read_header(struct traceg *t, struct ws_err *e) {
    struct tg_header *h = &t->h;
    h->nimm = -1;
    bool have_name = false, have_grid = false, have_block = false;
    const char *line;
    while ((line = ws_lines_next(t->lines, e))) {
        const char *p = skip_ws(line);
        if (*p == '\0') continue;
        if (*p == '-') {
            if (header_line(t, p, e)) return -1;
            have_name |= keyval(p, "-kernel name") != NULL;
            have_grid |= keyval(p, "-grid dim") != NULL;
            have_block |= keyval(p, "-block dim") != NULL;
            continue;
        }
        if (strncmp(p, "#BEGIN_TB", 9) == 0) {
            t->pending_begin = true;
            t->tb_line = ws_lines_lineno(t->lines);
        } else if (*p == '#') {
            read_format(h, p);
        } else {
            return FAIL(t, e, "expected a '-key = value' header line, found '%s'", line);
        }
        break;
    }
    if (ws_lines_failed(t->lines)) return -1;
    long ln = ws_lines_lineno(t->lines);
    if (!have_name || !have_grid || !have_block)
        return fail_at(t, e, ln, "the kernel header has no '%s' line",
                       !have_name   ? "-kernel name"
                       : !have_grid ? "-grid dim"
                                    : "-block dim");
    for (int i = 0; i < 3; i++)
        if (h->grid[i] == 0 || h->block[i] == 0)
            return fail_at(
                t, e, ln, "grid (%u,%u,%u) and block (%u,%u,%u) need every dimension >= 1",
                h->grid[0], h->grid[1], h->grid[2], h->block[0], h->block[1], h->block[2]);
    uint64_t threads = (uint64_t)h->block[0] * h->block[1] * h->block[2];
    if (threads > 1024)
        return fail_at(t, e, ln, "block (%u,%u,%u) has %llu threads (CUDA allows 1024)",
                       h->block[0], h->block[1], h->block[2], (unsigned long long)threads);
    t->nwarps = (uint32_t)((threads + WARP_SIZE - 1) / WARP_SIZE);
    t->ncta = (uint64_t)h->grid[0] * h->grid[1] * h->grid[2];
    if (h->version >= 6) h->values = true;
    return 0;
}

struct traceg *tg_open(const char *path, struct ws_err *e) {
    size_t n = strlen(path);
    if (n > 7 && strcmp(path + n - 7, ".tracez") == 0)
        return ws_fail(e,
                       "%s: Accel-Sim 2.0 .tracez containers are not read (their layout is only "
                       "outlined, without field widths); give the .traceg form (plain, .gz, .xz "
                       "or .zst)",
                       path),
               NULL;
    struct traceg *t = calloc(1, sizeof *t);
    if (!t) return ws_fail(e, "%s: out of memory", path), NULL;
    if (!(t->lines = ws_lines_open(path, e)) || read_header(t, e)) {
        tg_close(t);
        return NULL;
    }
    t->state = t->pending_begin ? S_TB_HEAD : S_OUT;
    return t;
}

void tg_close(struct traceg *t) {
    if (!t) return;
    ws_lines_close(t->lines);
    free(t);
}

static bool starts_with(const char *p, const char *w) {
    return strncmp(p, w, strlen(w)) == 0;
}

static int thread_block(struct traceg *t, const char *v, struct tg_event *ev, struct ws_err *e) {
    uint32_t d[3];
    const uint32_t *g = t->h.grid;
    if (!parse_dim3(v, d)) return FAIL(t, e, "bad thread block (expected x,y,z): '%s'", v);
    if (d[0] >= g[0] || d[1] >= g[1] || d[2] >= g[2])
        return FAIL(t, e, "thread block (%u,%u,%u) is outside the grid (%u,%u,%u)", d[0], d[1],
                    d[2], g[0], g[1], g[2]);
    uint64_t cta = d[0] + (uint64_t)g[0] * (d[1] + (uint64_t)g[1] * d[2]);
    if (t->any_tb && cta <= t->cta)
        return FAIL(t, e,
                    "thread block (%u,%u,%u) comes after (%u,%u,%u): blocks must be in increasing "
                    "order, x fastest, each once",
                    d[0], d[1], d[2], t->tb[0], t->tb[1], t->tb[2]);
    memcpy(t->tb, d, sizeof d);
    t->cta = cta;
    t->any_tb = true;
    t->warps_seen = 0;
    t->warp_done = false;
    ev->type = TG_TB_BEGIN;
    memcpy(ev->tb, d, sizeof d);
    ev->cta = cta;
    t->state = S_TB_BODY;
    return 0;
}

int tg_next(struct traceg *t, struct tg_event *ev, struct ws_err *e) {
    const char *line;
    while ((line = ws_lines_next(t->lines, e))) {
        const char *p = skip_ws(line), *v;
        if (*p == '\0') continue;
        switch (t->state) {
        case S_OUT:
            if (starts_with(p, "#BEGIN_TB")) {
                t->state = S_TB_HEAD;
                t->tb_line = ws_lines_lineno(t->lines);
                continue;
            }
            if (*p == '#') continue; /* comments */
            return FAIL(t, e, "expected #BEGIN_TB, found '%s'", line);
        case S_TB_HEAD:
            if ((v = keyval(p, "thread block"))) return thread_block(t, v, ev, e);
            return FAIL(t, e, "expected 'thread block = x,y,z' after #BEGIN_TB, found '%s'", line);
        case S_TB_BODY:
            if ((v = keyval(p, "warp"))) {
                uint32_t w;
                if (!parse_u32_all(v, &w)) return FAIL(t, e, "bad warp number: '%s'", line);
                if (w >= t->nwarps)
                    return FAIL(t, e, "warp %u does not exist: a block of %u threads has %u warps",
                                w, t->h.block[0] * t->h.block[1] * t->h.block[2], t->nwarps);
                if (t->warps_seen >> w & 1)
                    return FAIL(t, e, "warp %u appears twice in thread block (%u,%u,%u)", w,
                                t->tb[0], t->tb[1], t->tb[2]);
                t->warps_seen |= 1u << w;
                t->warp = w;
                t->state = S_WARP_HEAD;
                continue;
            }
            if (starts_with(p, "#END_TB")) {
                ev->type = TG_TB_END;
                t->state = S_OUT;
                return 0;
            }
            if (starts_with(p, "cluster ")) continue; /* 2025 Hopper traces: not modelled */
            if (starts_with(p, "#BEGIN_TB"))
                return FAIL(t, e,
                            "#BEGIN_TB before the #END_TB of thread block (%u,%u,%u) opened "
                            "at line %ld",
                            t->tb[0], t->tb[1], t->tb[2], t->tb_line);
            if (t->warp_done && hexval(*p) >= 0)
                return FAIL(t, e,
                            "warp %u of thread block (%u,%u,%u) has more instruction lines than "
                            "its 'insts = %u'",
                            t->warp, t->tb[0], t->tb[1], t->tb[2], t->insts);
            return FAIL(t, e, "expected 'warp = N' or #END_TB, found '%s'", line);
        case S_WARP_HEAD:
            if ((v = keyval(p, "insts"))) {
                if (!parse_u32_all(v, &t->insts))
                    return FAIL(t, e, "bad instruction count: '%s'", line);
                t->left = t->insts;
                t->warp_done = t->insts == 0;
                t->state = t->insts ? S_INSTS : S_TB_BODY;
                ev->type = TG_WARP;
                ev->warp = t->warp;
                ev->insts = t->insts;
                return 0;
            }
            return FAIL(t, e, "expected 'insts = N' after 'warp = %u', found '%s'", t->warp, line);
        case S_INSTS:
            if (*p == '#' || starts_with(p, "warp") || starts_with(p, "insts") ||
                starts_with(p, "thread block"))
                return FAIL(t, e,
                            "warp %u of thread block (%u,%u,%u) has %u instruction lines, not the "
                            "%u of its 'insts ='",
                            t->warp, t->tb[0], t->tb[1], t->tb[2], t->insts - t->left, t->insts);
            if (--t->left == 0) {
                t->state = S_TB_BODY;
                t->warp_done = true;
            }
            ev->type = TG_INST;
            ev->line = line;
            return 0;
        }
    }
    if (ws_lines_failed(t->lines)) return -1;
    if (t->state == S_INSTS)
        return FAIL(t, e,
                    "end of file after %u of the %u instructions of warp %u of thread block "
                    "(%u,%u,%u): the trace is truncated",
                    t->insts - t->left, t->insts, t->warp, t->tb[0], t->tb[1], t->tb[2]);
    if (t->state != S_OUT)
        return FAIL(t, e, "end of file: missing #END_TB of the thread block opened at line %ld",
                    t->tb_line);
    ev->type = TG_EOF;
    return 0;
}

/* ---- instruction lines ---- */

struct cur {
    const char *p;
};

/* Next token [*s, *s + *n); false at the end of the line. */
static bool tok(struct cur *c, const char **s, size_t *n) {
    const char *p = skip_ws(c->p);
    if (*p == '\0') {
        c->p = p;
        return false;
    }
    const char *q = p;
    while (*q && !is_space(*q)) q++;
    *s = p;
    *n = (size_t)(q - p);
    c->p = q;
    return true;
}

static unsigned count_toks(const char *p, bool stop_at_val) {
    unsigned n = 0;
    for (;;) {
        p = skip_ws(p);
        if (!*p) return n;
        if (stop_at_val && (*p == 'V' || *p == 'N')) return n;
        while (*p && !is_space(*p)) p++;
        n++;
    }
}

static bool dec_u64(const char *s, size_t n, uint64_t *v) {
    if (n == 0 || n > 19) return false;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_digit(s[i])) return false;
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    *v = x;
    return true;
}
static bool dec_i64(const char *s, size_t n, int64_t *v) {
    bool neg = n > 0 && s[0] == '-';
    if (n > 0 && (s[0] == '-' || s[0] == '+')) s++, n--;
    uint64_t x;
    if (!dec_u64(s, n, &x) || x > (uint64_t)INT64_MAX) return false;
    *v = neg ? -(int64_t)x : (int64_t)x;
    return true;
}
static bool hex_u64(const char *s, size_t n, uint64_t *v) {
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2, n -= 2;
    if (n == 0 || n > 16) return false;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        int d = hexval(s[i]);
        if (d < 0) return false;
        x = (x << 4) | (uint64_t)d;
    }
    *v = x;
    return true;
}

/* Register token -> id: R0-R254 -> 0-254, UR0-UR62 -> 256+, P0-P6 -> 320+, UP0-UP6 -> 328+,
 * B0-B15 -> 336+; the zero / true registers (RZ = R255, URZ = UR63, PT, UPT) -> REG_NONE: they
 * never carry a dependence. */
static bool reg_id(const char *s, size_t n, uint16_t *id) {
    unsigned base, none, lim;
    size_t k;
    if (n >= 2 && s[0] == 'U' && s[1] == 'R')
        k = 2, base = 256, none = 63, lim = 63;
    else if (n >= 2 && s[0] == 'U' && s[1] == 'P')
        k = 2, base = 328, none = 7, lim = 7;
    else if (n >= 1 && s[0] == 'R')
        k = 1, base = 0, none = 255, lim = 255;
    else if (n >= 1 && s[0] == 'P')
        k = 1, base = 320, none = 7, lim = 7;
    else if (n >= 1 && s[0] == 'B')
        k = 1, base = 336, none = 16, lim = 16;
    else
        return false;
    if (n == k + 1 && (s[k] == 'Z' || s[k] == 'T')) {
        *id = REG_NONE;
        return true;
    }
    uint64_t v;
    if (!dec_u64(s + k, n - k, &v) || v > none) return false;
    *id = v >= lim ? REG_NONE : (uint16_t)(base + v);
    return true;
}

#define TOKFAIL(what, s, n) FAIL(t, e, "%s: '%.*s'", what, (int)(n), s)

static int read_regs(struct traceg *t, struct cur *c, const char *which, uint8_t *count,
                     uint16_t *regs, struct ws_err *e) {
    const char *s;
    size_t n;
    uint64_t k;
    if (!tok(c, &s, &n)) return FAIL(t, e, "line ends before the %s register count", which);
    if (!dec_u64(s, n, &k))
        return TOKFAIL(which[0] == 'd' ? "bad destination count" : "bad source count", s, n);
    if (k > TG_MAX_REGS)
        return FAIL(t, e, "%llu %s registers (at most %d)", (unsigned long long)k, which,
                    TG_MAX_REGS);
    for (unsigned i = 0; i < k; i++) {
        if (!tok(c, &s, &n))
            return FAIL(t, e, "line ends after %u of its %llu %s registers", i,
                        (unsigned long long)k, which);
        if (!reg_id(s, n, &regs[i])) return TOKFAIL("bad register", s, n);
    }
    *count = (uint8_t)k;
    return 0;
}

static bool opcode_ok(const char *s, size_t n) {
    if (n == 0 || !(s[0] >= 'A' && s[0] <= 'Z')) return false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (!((ch >= 'A' && ch <= 'Z') || is_digit(ch) || ch == '_' || ch == '.')) return false;
    }
    return true;
}

static int read_addrs(struct traceg *t, struct cur *c, struct tg_line *o, struct ws_err *e) {
    const struct tg_header *h = &t->h;
    const char *s;
    size_t n;
    uint64_t mode;
    unsigned lanes = ws_popcount32(o->mask);
    if (!tok(c, &s, &n)) return FAIL(t, e, "line ends before the address mode");
    /* Before v3 the addresses may follow the width directly, one per active lane. */
    if (h->version < 3 && n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        c->p = s;
        mode = 0;
    } else if (!dec_u64(s, n, &mode) || mode > 2) {
        return TOKFAIL("bad address mode (0, 1 or 2)", s, n);
    }
    o->mode = (int)mode;
    uint64_t base = 0;
    if (mode == 1) {
        int64_t stride;
        if (!tok(c, &s, &n)) return FAIL(t, e, "line ends before the base address");
        if (!hex_u64(s, n, &base)) return TOKFAIL("bad hex base address", s, n);
        if (!tok(c, &s, &n)) return FAIL(t, e, "line ends before the address stride");
        if (!dec_i64(s, n, &stride) || stride < INT32_MIN || stride > INT32_MAX)
            return TOKFAIL("bad address stride (a 32-bit decimal)", s, n);
        uint64_t a = base;
        for (unsigned l = 0; l < WARP_SIZE; l++)
            if (o->mask >> l & 1) {
                o->addr[l] = a;
                a += (uint64_t)stride;
            }
        return 0;
    }
    if (mode == 2) {
        if (!tok(c, &s, &n)) return FAIL(t, e, "line ends before the base address");
        if (!hex_u64(s, n, &base)) return TOKFAIL("bad hex base address", s, n);
    }
    /* Modes 0 and 2 list one value per lane (2: all but the first): check the count against the
     * mask before reading, so a wrong count is reported as such and not as a bad immediate. */
    unsigned want = mode == 0 ? lanes : (lanes ? lanes - 1 : 0);
    unsigned have = count_toks(c->p, h->values);
    unsigned extra = have >= want ? have - want : 0;
    bool ok = h->nimm >= 0 ? have == want + (unsigned)h->nimm : have >= want && extra <= 2;
    if (!ok) {
        unsigned found =
            h->nimm >= 0 && have >= (unsigned)h->nimm ? have - (unsigned)h->nimm : have;
        return FAIL(t, e,
                    "address mode %d: mask %08x has %u active lane%s, so %u %s expected, found %u",
                    (int)mode, o->mask, lanes, lanes == 1 ? "" : "s", want,
                    mode == 0 ? (want == 1 ? "address is" : "addresses are")
                              : (want == 1 ? "delta is" : "deltas are"),
                    found);
    }
    uint64_t a = base;
    bool first = true;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        if (!(o->mask >> l & 1)) continue;
        if (mode == 0) {
            tok(c, &s, &n);
            if (!hex_u64(s, n, &a)) return TOKFAIL("bad hex address", s, n);
        } else if (!first) {
            int64_t d;
            tok(c, &s, &n);
            if (!dec_i64(s, n, &d)) return TOKFAIL("bad address delta", s, n);
            a += (uint64_t)d;
        }
        o->addr[l] = a;
        first = false;
    }
    return 0;
}

int tg_parse(struct traceg *t, const char *line, struct tg_line *o, struct ws_err *e) {
    const struct tg_header *h = &t->h;
    struct cur c = {line};
    const char *s;
    size_t n;
    uint64_t v;
    o->line_num = 0;
    if (h->version < 3) { /* legacy: tb_x tb_y tb_z warpid_tb */
        uint64_t f[4];
        for (int i = 0; i < 4; i++) {
            if (!tok(&c, &s, &n) || !dec_u64(s, n, &f[i]))
                return FAIL(t, e, "a pre-v3 trace line starts with 'tb_x tb_y tb_z warp': '%s'",
                            line);
        }
        if (f[0] != t->tb[0] || f[1] != t->tb[1] || f[2] != t->tb[2] || f[3] != t->warp)
            return FAIL(t, e,
                        "the line says thread block (%llu,%llu,%llu) warp %llu, but it is in "
                        "thread block (%u,%u,%u) warp %u",
                        (unsigned long long)f[0], (unsigned long long)f[1],
                        (unsigned long long)f[2], (unsigned long long)f[3], t->tb[0], t->tb[1],
                        t->tb[2], t->warp);
    }
    if (h->lineinfo) {
        if (!tok(&c, &s, &n) || !dec_u64(s, n, &v) || v > UINT32_MAX)
            return FAIL(t, e, "expected a source line number first (lineinfo trace): '%s'", line);
        o->line_num = (uint32_t)v;
    }
    if (!tok(&c, &s, &n)) return FAIL(t, e, "empty instruction line");
    if (!hex_u64(s, n, &o->pc)) return TOKFAIL("bad hex PC", s, n);
    if (!tok(&c, &s, &n)) return FAIL(t, e, "line ends before the active mask");
    if (n > 8 || !hex_u64(s, n, &v)) return TOKFAIL("bad hex active mask", s, n);
    o->mask = (uint32_t)v;
    if (read_regs(t, &c, "destination", &o->ndst, o->dst, e)) return -1;
    if (!tok(&c, &s, &n)) return FAIL(t, e, "line ends before the opcode");
    if (!opcode_ok(s, n)) return TOKFAIL("bad opcode", s, n);
    o->op = s;
    o->oplen = (uint32_t)n;
    if (read_regs(t, &c, "source", &o->nsrc, o->src, e)) return -1;
    if (!tok(&c, &s, &n)) return FAIL(t, e, "line ends before the memory width");
    if (!dec_u64(s, n, &v) || v > 1024) return TOKFAIL("bad memory width", s, n);
    o->mem_width = (uint32_t)v;
    o->mode = -1;
    if (o->mem_width && read_addrs(t, &c, o, e)) return -1;
    /* Immediates: as many as the format line says; up to two when it does not say. */
    o->nimm = 0;
    int want = h->nimm;
    for (int i = 0; want < 0 ? i < 2 : i < want; i++) {
        struct cur save = c;
        int64_t x;
        if (!tok(&c, &s, &n)) {
            if (want < 0) break;
            return FAIL(t, e, "line ends before immediate %d of %d (see '#traces format')", i + 1,
                        want);
        }
        if (!dec_i64(s, n, &x)) {
            if (want < 0) {
                c = save;
                break;
            }
            return TOKFAIL("bad immediate", s, n);
        }
        o->imm[o->nimm++] = x;
    }
    if (h->values) {
        if (!tok(&c, &s, &n)) return FAIL(t, e, "line ends before Val|NoVal (tracer v6)");
        if (n == 3 && memcmp(s, "Val", 3) == 0) return 0; /* register values: not used */
        if (!(n == 5 && memcmp(s, "NoVal", 5) == 0)) return TOKFAIL("expected Val or NoVal", s, n);
    }
    if (tok(&c, &s, &n)) return TOKFAIL("unexpected text at the end of the line", s, n);
    return 0;
}
