/* Memory-trace readers (see memtrace.h): USIMM v1.3 records and Ramulator / DRAMsim3 address
 * records, parsed by hand from whitespace-separated tokens so every defect names its column. */
#include "mem/drive/memtrace.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/lineio.h"

enum { MAXTOK = 8 };

struct tok {
    const char *p;
    size_t n;
};

struct memtrace {
    struct ws_lines *lines;
    enum memtrace_fmt fmt;
    int cycles;          /* ADDR: -1 undecided, 0 no cycle column, 1 cycle column */
    uint64_t last_cycle; /* DRAMsim3 records must not go back in time */
    long lineno;
    uint64_t count;
};

struct memtrace *memtrace_open(const char *path, enum memtrace_fmt fmt, struct ws_err *e) {
    struct memtrace *t = calloc(1, sizeof *t);
    if (!t) {
        ws_fail(e, "%s: out of memory", path);
        return NULL;
    }
    t->lines = ws_lines_open(path, e);
    if (!t->lines) {
        free(t);
        return NULL;
    }
    t->fmt = fmt;
    t->cycles = -1;
    return t;
}

void memtrace_close(struct memtrace *t) {
    if (!t) return;
    ws_lines_close(t->lines);
    free(t);
}

enum memtrace_fmt memtrace_format(const struct memtrace *t) {
    return t->fmt;
}
const char *memtrace_path(const struct memtrace *t) {
    return ws_lines_path(t->lines);
}
long memtrace_lineno(const struct memtrace *t) {
    return t->lineno;
}
uint64_t memtrace_count(const struct memtrace *t) {
    return t->count;
}

static unsigned split(const char *s, struct tok *tk) {
    unsigned n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) return n;
        const char *b = s;
        while (*s && *s != ' ' && *s != '\t') s++;
        if (n < MAXTOK) tk[n] = (struct tok){b, (size_t)(s - b)};
        n++;
    }
}

static bool tok_is(const struct tok *t, const char *word, bool nocase) {
    size_t n = strlen(word);
    if (t->n != n) return false;
    return nocase ? strncasecmp(t->p, word, n) == 0 : strncmp(t->p, word, n) == 0;
}

/* 0 ok, -1 not a number, -2 too large for 64 bits */
static int parse_dec(const struct tok *t, uint64_t *v) {
    uint64_t x = 0;
    if (t->n == 0) return -1;
    for (size_t i = 0; i < t->n; i++) {
        char c = t->p[i];
        if (c < '0' || c > '9') return -1;
        uint64_t d = (uint64_t)(c - '0');
        if (x > (UINT64_MAX - d) / 10) return -2;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

static int parse_hex(const struct tok *t, uint64_t *v) {
    const char *p = t->p;
    size_t n = t->n;
    if (n >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2, n -= 2;
    if (n == 0) return -1;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return -1;
        if (x >> 60) return -2;
        x = x << 4 | d;
    }
    *v = x;
    return 0;
}

/* Formats a token for a message: quoted, cut at 40 characters. */
static const char *show(const struct tok *t, char *buf, size_t n) {
    size_t len = t->n > 40 ? 40 : t->n;
    snprintf(buf, n, "'%.*s%s'", (int)len, t->p, t->n > 40 ? "..." : "");
    return buf;
}

#define FAIL(...) ws_fail(e, "%s:%ld: " __VA_ARGS__)

static int bad_number(struct memtrace *t, const char *what, const struct tok *tk, int rc,
                      struct ws_err *e) {
    char b[64];
    const char *path = ws_lines_path(t->lines);
    if (rc == -2)
        return FAIL("expected %s, got %s, which does not fit in 64 bits", path, t->lineno, what,
                    show(tk, b, sizeof b));
    return FAIL("expected %s, got %s", path, t->lineno, what, show(tk, b, sizeof b));
}

static int trailing(struct memtrace *t, const struct tok *tk, unsigned ntok, unsigned from,
                    struct ws_err *e) {
    if (ntok <= from) return 0;
    char b[64];
    return FAIL("unexpected %s after the record", ws_lines_path(t->lines), t->lineno,
                show(&tk[from], b, sizeof b));
}

static int parse_usimm(struct memtrace *t, const struct tok *tk, unsigned ntok,
                       struct memtrace_rec *out, struct ws_err *e) {
    const char *path = ws_lines_path(t->lines);
    int rc;
    char b[64];
    if ((rc = parse_dec(&tk[0], &out->gap)) != 0)
        return bad_number(t, "a decimal count of non-memory instructions", &tk[0], rc, e);
    if (ntok < 2) return FAIL("expected R or W, got end of line", path, t->lineno);
    if (tok_is(&tk[1], "R", false))
        out->is_write = false;
    else if (tok_is(&tk[1], "W", false))
        out->is_write = true;
    else
        return FAIL("expected R or W, got %s", path, t->lineno, show(&tk[1], b, sizeof b));
    if (ntok < 3) return FAIL("expected a hex address, got end of line", path, t->lineno);
    if ((rc = parse_hex(&tk[2], &out->addr)) != 0)
        return bad_number(t, "a hex address", &tk[2], rc, e);
    unsigned next = 3;
    /* USIMM reads a PC for reads only (its sscanf for W stops after the address); one more
     * column (jarrett-m's "domain") is tolerated and ignored, as USIMM ignores it. */
    if (!out->is_write && ntok > 3) {
        if ((rc = parse_hex(&tk[3], &out->pc)) != 0)
            return bad_number(t, "a hex PC", &tk[3], rc, e);
        out->has_pc = true;
        next = 4;
    }
    return trailing(t, tk, ntok, next + 1, e);
}

static int parse_addr(struct memtrace *t, const struct tok *tk, unsigned ntok,
                      struct memtrace_rec *out, struct ws_err *e) {
    const char *path = ws_lines_path(t->lines);
    int rc;
    char b[64];
    if ((rc = parse_hex(&tk[0], &out->addr)) != 0)
        return bad_number(t, "a hex address", &tk[0], rc, e);
    if (ntok < 2) return FAIL("expected R, W, READ or WRITE, got end of line", path, t->lineno);
    if (tok_is(&tk[1], "R", true) || tok_is(&tk[1], "READ", true))
        out->is_write = false;
    else if (tok_is(&tk[1], "W", true) || tok_is(&tk[1], "WRITE", true))
        out->is_write = true;
    else
        return FAIL("expected R, W, READ or WRITE, got %s", path, t->lineno,
                    show(&tk[1], b, sizeof b));
    int has = ntok > 2;
    if (t->cycles < 0) t->cycles = has;
    if (has != t->cycles)
        return has ? FAIL("unexpected cycle column %s (earlier records have none)", path, t->lineno,
                          show(&tk[2], b, sizeof b))
                   : FAIL("missing the cycle column (earlier records have one)", path, t->lineno);
    if (has) {
        if ((rc = parse_dec(&tk[2], &out->cycle)) != 0)
            return bad_number(t, "a decimal cycle", &tk[2], rc, e);
        if (out->cycle < t->last_cycle)
            return FAIL("cycle %llu is before the previous record's cycle %llu", path, t->lineno,
                        (unsigned long long)out->cycle, (unsigned long long)t->last_cycle);
        t->last_cycle = out->cycle;
        out->has_cycle = true;
    }
    return trailing(t, tk, ntok, 3, e);
}

static enum memtrace_fmt detect(const struct tok *tk, unsigned ntok) {
    if (ntok >= 2 && (tok_is(&tk[1], "READ", true) || tok_is(&tk[1], "WRITE", true)))
        return MEMTRACE_ADDR;
    if (tk[0].n >= 2 && tk[0].p[0] == '0' && (tk[0].p[1] == 'x' || tk[0].p[1] == 'X'))
        return MEMTRACE_ADDR;
    return MEMTRACE_USIMM;
}

int memtrace_next(struct memtrace *t, struct memtrace_rec *out, struct ws_err *e) {
    for (;;) {
        const char *line = ws_lines_next(t->lines, e);
        if (!line) return ws_lines_failed(t->lines) ? -1 : 0;
        t->lineno = ws_lines_lineno(t->lines);
        struct tok tk[MAXTOK];
        unsigned ntok = split(line, tk);
        if (ntok == 0 || tk[0].p[0] == '#') continue;
        if (ntok > MAXTOK) ntok = MAXTOK; /* the parser reports the first extra token */
        memset(out, 0, sizeof *out);
        if (t->fmt == MEMTRACE_AUTO) t->fmt = detect(tk, ntok);
        int rc = t->fmt == MEMTRACE_USIMM ? parse_usimm(t, tk, ntok, out, e)
                                          : parse_addr(t, tk, ntok, out, e);
        if (rc != 0) return -1;
        t->count++;
        return 1;
    }
}
