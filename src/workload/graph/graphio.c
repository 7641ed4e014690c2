/* Matrix Market, SNAP and METIS loaders, and the format dispatcher. Each reads the file line by
 * line (base/lineio: plain or compressed), collects an edge stream and hands it to
 * graph_from_edges, so CSR construction is shared with the generators. */
#include "workload/graph/graphio.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/lineio.h"

/* --- line tokens ----------------------------------------------------------------------------- */

/* Next whitespace-separated token of *p (its length in *len), or NULL at the end of the line. */
static const char *tok(const char **p, size_t *len) {
    const char *s = *p;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' || *s == '\v') s++;
    if (!*s) return *p = s, NULL;
    *len = strcspn(s, " \t\r\f\v");
    *p = s + *len;
    return s;
}

static int count_toks(const char *p) {
    int n = 0;
    size_t len;
    while (tok(&p, &len)) n++;
    return n;
}

static bool blank(const char *p) {
    size_t len;
    return tok(&p, &len) == NULL;
}

/* The token as a signed decimal integer; false if it is not one (or overflows). */
static bool tok_int(const char *s, size_t len, long long *v) {
    char buf[32], *end;
    if (len == 0 || len >= sizeof buf) return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    *v = strtoll(buf, &end, 10);
    return *end == '\0' && errno != ERANGE;
}

static bool tok_double(const char *s, size_t len, double *v) {
    char buf[64], *end;
    if (len == 0 || len >= sizeof buf) return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    *v = strtod(buf, &end);
    /* no nan or inf weights, nor values a float (as they are kept) cannot hold */
    return *end == '\0' && errno != ERANGE && isfinite(*v) && fabs(*v) <= FLT_MAX;
}

#define SHOW(s, len) (int)((len) > 40 ? 40 : (len)), (s)

/* Parses the next token of *p as an integer in [min, max]; `what` names it in messages. */
static int next_int(const char **p, struct ws_lines *l, const char *what, long long min,
                    long long max, long long *v, struct ws_err *e) {
    size_t len;
    const char *s = tok(p, &len);
    if (!s) return ws_fail(e, "%s:%ld: missing %s", ws_lines_path(l), ws_lines_lineno(l), what);
    if (!tok_int(s, len, v))
        return ws_fail(e, "%s:%ld: expected %s (an integer), found '%.*s'", ws_lines_path(l),
                       ws_lines_lineno(l), what, SHOW(s, len));
    if (*v < min || *v > max)
        return ws_fail(e, "%s:%ld: %s = %lld is out of range [%lld, %lld]", ws_lines_path(l),
                       ws_lines_lineno(l), what, *v, min, max);
    return 0;
}

static int extra_tokens(const char *p, struct ws_lines *l, const char *after, struct ws_err *e) {
    size_t len;
    const char *s = tok(&p, &len);
    if (!s) return 0;
    return ws_fail(e, "%s:%ld: unexpected '%.*s' after %s", ws_lines_path(l), ws_lines_lineno(l),
                   SHOW(s, len), after);
}

/* --- growable edge stream -------------------------------------------------------------------- */

struct estream {
    uint32_t *src, *dst, *w;
    float *val;
    uint64_t n, cap;
    bool want_w, want_val;
};

static int es_reserve(struct estream *s, uint64_t cap, const char *path, struct ws_err *e) {
    if (cap <= s->cap) return 0;
    if (cap > INT32_MAX) return ws_fail(e, "%s: more than %d edges", path, INT32_MAX);
    uint32_t *a = realloc(s->src, cap * sizeof *a);
    if (a) s->src = a;
    uint32_t *b = a ? realloc(s->dst, cap * sizeof *b) : NULL;
    if (b) s->dst = b;
    uint32_t *c = b && s->want_w ? realloc(s->w, cap * sizeof *c) : NULL;
    if (c) s->w = c;
    float *d = b && s->want_val ? realloc(s->val, cap * sizeof *d) : NULL;
    if (d) s->val = d;
    if (!a || !b || (s->want_w && !c) || (s->want_val && !d))
        return ws_fail(e, "%s: %llu edges: out of memory", path, (unsigned long long)cap);
    s->cap = cap;
    return 0;
}

/* The first reservation for a count a header announces: at most this many entries, the rest as
 * they come (a few bytes of header must not commit gigabytes before any entry is read). */
static uint64_t es_first(uint64_t announced) {
    return announced < (1u << 16) ? announced : (1u << 16);
}

static int es_add(struct estream *s, uint32_t u, uint32_t v, uint32_t w, float val,
                  const char *path, struct ws_err *e) {
    if (s->n == s->cap) {
        uint64_t want = s->cap ? 2 * s->cap : 1024;
        if (want > INT32_MAX && s->cap < INT32_MAX) want = INT32_MAX; /* the last step */
        if (es_reserve(s, want, path, e)) return -1;
    }
    s->src[s->n] = u, s->dst[s->n] = v;
    if (s->want_w) s->w[s->n] = w;
    if (s->want_val) s->val[s->n] = val;
    s->n++;
    return 0;
}

static void es_free(struct estream *s) {
    free(s->src), free(s->dst), free(s->w), free(s->val);
}

/* Next line that is not blank and does not start with `comment` (0: none), or NULL. */
static const char *next_data(struct ws_lines *l, char comment, struct ws_err *e) {
    const char *s;
    while ((s = ws_lines_next(l, e)) != NULL) {
        const char *p = s;
        while (*p == ' ' || *p == '\t') p++;
        if (*p && *p != '\r' && !(comment && *p == comment)) return s;
    }
    return NULL;
}

/* --- Matrix Market --------------------------------------------------------------------------- */

enum mtx_field { MTX_REAL, MTX_INTEGER, MTX_PATTERN };

static int mtx_header(struct ws_lines *l, enum mtx_field *field, bool *sym, struct ws_err *e) {
    const char *path = ws_lines_path(l);
    const char *s = ws_lines_next(l, e);
    if (!s) return ws_lines_failed(l) ? -1 : ws_fail(e, "%s:1: empty file", path);
    const char *p = s;
    size_t len[5];
    const char *w[5];
    int n = 0;
    while (n < 5 && (w[n] = tok(&p, &len[n])) != NULL) n++;
    if (n < 1 || len[0] != 14 || strncasecmp(w[0], "%%MatrixMarket", 14) != 0)
        return ws_fail(e,
                       "%s:1: not a Matrix Market file (the first line must start with "
                       "'%%%%MatrixMarket')",
                       path);
    if (n < 5 || tok(&p, &len[0]))
        return ws_fail(e,
                       "%s:1: expected '%%%%MatrixMarket matrix coordinate <field> "
                       "<symmetry>'",
                       path);
    if (len[1] != 6 || strncasecmp(w[1], "matrix", 6) != 0)
        return ws_fail(e, "%s:1: object '%.*s' is not supported (matrix only)", path,
                       SHOW(w[1], len[1]));
    if (len[2] != 10 || strncasecmp(w[2], "coordinate", 10) != 0)
        return ws_fail(e, "%s:1: format '%.*s' is not supported (coordinate only)", path,
                       SHOW(w[2], len[2]));
    static const char *const fields[] = {"real", "integer", "pattern"};
    int f = -1;
    for (int i = 0; i < 3; i++)
        if (len[3] == strlen(fields[i]) && strncasecmp(w[3], fields[i], len[3]) == 0) f = i;
    if (f < 0)
        return ws_fail(e, "%s:1: field '%.*s' is not supported (real, integer or pattern)", path,
                       SHOW(w[3], len[3]));
    *field = (enum mtx_field)f;
    if (len[4] == 7 && strncasecmp(w[4], "general", 7) == 0)
        *sym = false;
    else if (len[4] == 9 && strncasecmp(w[4], "symmetric", 9) == 0)
        *sym = true;
    else
        return ws_fail(e, "%s:1: symmetry '%.*s' is not supported (general or symmetric)", path,
                       SHOW(w[4], len[4]));
    return 0;
}

static int mtx_load(struct graph *g, struct ws_lines *l, struct estream *es, struct ws_err *e) {
    const char *path = ws_lines_path(l);
    enum mtx_field field = MTX_REAL;
    bool sym = false; /* set by mtx_header(); initialised for gcc without LTO */
    if (mtx_header(l, &field, &sym, e)) return -1;
    const char *s = next_data(l, '%', e);
    if (!s)
        return ws_lines_failed(l) ? -1
                                  : ws_fail(e,
                                            "%s:%ld: unexpected end of file: expected the size "
                                            "line 'rows columns entries'",
                                            path, ws_lines_lineno(l));
    long size_line = ws_lines_lineno(l);
    long long rows, cols, nnz;
    const char *p = s;
    if (next_int(&p, l, "the row count", 1, GRAPH_MAX_NODES, &rows, e) ||
        next_int(&p, l, "the column count", 1, GRAPH_MAX_NODES, &cols, e) ||
        next_int(&p, l, "the entry count", 0, INT32_MAX, &nnz, e) ||
        extra_tokens(p, l, "the size line", e))
        return -1;
    if (sym && rows != cols)
        return ws_fail(e, "%s:%ld: a symmetric matrix must be square, not %lld x %lld", path,
                       size_line, rows, cols);
    es->want_val = field != MTX_PATTERN;
    es->want_w = field == MTX_INTEGER;
    if (es_reserve(es, es_first((uint64_t)nnz * (sym ? 2 : 1) + 1), path, e)) return -1;
    bool nonneg = true;
    for (long long k = 0; k < nnz; k++) {
        s = next_data(l, '%', e);
        if (!s)
            return ws_lines_failed(l)
                       ? -1
                       : ws_fail(e,
                                 "%s:%ld: unexpected end of file: %lld of the %lld entries "
                                 "the size line (line %ld) announces",
                                 path, ws_lines_lineno(l), k, nnz, size_line);
        p = s;
        long long i, j;
        if (next_int(&p, l, "the row index", 1, rows, &i, e) ||
            next_int(&p, l, "the column index", 1, cols, &j, e))
            return -1;
        double v = 1;
        if (field == MTX_REAL || field == MTX_INTEGER) {
            size_t len;
            const char *t = tok(&p, &len);
            long long iv = 0;
            if (!t) return ws_fail(e, "%s:%ld: missing the value", path, ws_lines_lineno(l));
            if (field == MTX_REAL ? !tok_double(t, len, &v) : !tok_int(t, len, &iv))
                return ws_fail(
                    e, "%s:%ld: expected the value (%s), found '%.*s'", path, ws_lines_lineno(l),
                    field == MTX_REAL ? "a finite real number" : "an integer", SHOW(t, len));
            if (field == MTX_INTEGER) {
                if (iv < -(long long)UINT32_MAX || iv > (long long)UINT32_MAX)
                    return ws_fail(e, "%s:%ld: value %lld is out of range", path,
                                   ws_lines_lineno(l), iv);
                v = (double)iv;
                if (iv < 0) nonneg = false;
            }
        }
        if (extra_tokens(p, l, "the entry", e)) return -1;
        if (sym && j > i)
            return ws_fail(e,
                           "%s:%ld: entry (%lld, %lld) lies above the diagonal of a symmetric "
                           "matrix (only the lower triangle is stored)",
                           path, ws_lines_lineno(l), i, j);
        /* weights are kept only for non-negative integer matrices; clamp so that real values
         * of any size convert defined */
        uint32_t w = !(v >= 0) ? 0 : v >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)v;
        es_add(es, (uint32_t)(i - 1), (uint32_t)(j - 1), w, (float)v, path, e);
        if (sym && i != j) es_add(es, (uint32_t)(j - 1), (uint32_t)(i - 1), w, (float)v, path, e);
    }
    if ((s = next_data(l, '%', e)) != NULL)
        return ws_fail(e,
                       "%s:%ld: unexpected entry after the %lld entries the size line (line "
                       "%ld) announces",
                       path, ws_lines_lineno(l), nnz, size_line);
    if (ws_lines_failed(l)) return -1;
    return graph_from_edges(g, (uint32_t)rows, (uint32_t)cols, es->n, es->src, es->dst,
                            field == MTX_INTEGER && nonneg ? es->w : NULL, es->val, e);
}

int graph_load_mtx(struct graph *g, const char *path, struct ws_err *e) {
    memset(g, 0, sizeof *g);
    struct ws_lines *l = ws_lines_open(path, e);
    if (!l) return -1;
    struct estream es = {0};
    int rc = mtx_load(g, l, &es, e);
    es_free(&es);
    ws_lines_close(l);
    return rc;
}

/* --- SNAP ------------------------------------------------------------------------------------ */

/* Open-addressing map from file ids to dense node numbers. */
struct idmap {
    uint64_t *key;
    uint32_t *val;
    uint64_t cap, n; /* cap: a power of two */
};

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static bool idmap_grow(struct idmap *m) {
    uint64_t cap = m->cap ? 2 * m->cap : 1024;
    uint64_t *key = malloc(cap * sizeof *key);
    uint32_t *val = malloc(cap * sizeof *val);
    if (!key || !val) return free(key), free(val), false;
    memset(key, 0xff, cap * sizeof *key); /* UINT64_MAX: empty (file ids are < 2^63) */
    for (uint64_t i = 0; i < m->cap; i++) {
        if (m->key[i] == UINT64_MAX) continue;
        uint64_t h = mix(m->key[i]) & (cap - 1);
        while (key[h] != UINT64_MAX) h = (h + 1) & (cap - 1);
        key[h] = m->key[i], val[h] = m->val[i];
    }
    free(m->key), free(m->val);
    m->key = key, m->val = val, m->cap = cap;
    return true;
}

/* The dense number of id, assigning the next one if id is new; false when out of memory. */
static bool idmap_get(struct idmap *m, uint64_t id, uint32_t *out) {
    if (2 * (m->n + 1) > m->cap && !idmap_grow(m)) return false;
    uint64_t h = mix(id) & (m->cap - 1);
    while (m->key[h] != UINT64_MAX && m->key[h] != id) h = (h + 1) & (m->cap - 1);
    if (m->key[h] == UINT64_MAX) m->key[h] = id, m->val[h] = (uint32_t)m->n++;
    *out = m->val[h];
    return true;
}

static int snap_load(struct graph *g, struct ws_lines *l, struct estream *es, struct idmap *ids,
                     struct ws_err *e) {
    const char *path = ws_lines_path(l);
    const char *s;
    int fields = 0;
    long first = 0;
    while ((s = next_data(l, '#', e)) != NULL) {
        int nt = count_toks(s);
        if (!fields) {
            if (nt != 2 && nt != 3)
                return ws_fail(e, "%s:%ld: expected 'src dst' or 'src dst weight', found %d fields",
                               path, ws_lines_lineno(l), nt);
            fields = nt, first = ws_lines_lineno(l);
            es->want_w = nt == 3;
        } else if (nt != fields)
            return ws_fail(e,
                           "%s:%ld: %d fields, but line %ld has %d (every edge line must have "
                           "the same)",
                           path, ws_lines_lineno(l), nt, first, fields);
        const char *p = s;
        long long a, b, w = 1;
        if (next_int(&p, l, "the source node id", 0, INT64_MAX - 1, &a, e) ||
            next_int(&p, l, "the destination node id", 0, INT64_MAX - 1, &b, e) ||
            (fields == 3 && next_int(&p, l, "the weight", 0, INT32_MAX, &w, e)))
            return -1;
        uint32_t u, v;
        if (!idmap_get(ids, (uint64_t)a, &u) || !idmap_get(ids, (uint64_t)b, &v))
            return ws_fail(e, "%s:%ld: out of memory", path, ws_lines_lineno(l));
        if (ids->n > GRAPH_MAX_NODES)
            return ws_fail(e, "%s:%ld: more than %lld nodes", path, ws_lines_lineno(l),
                           GRAPH_MAX_NODES);
        if (es_add(es, u, v, (uint32_t)w, 0, path, e)) return -1;
    }
    if (ws_lines_failed(l)) return -1;
    if (ids->n == 0)
        return ws_lines_lineno(l) == 0 ? ws_fail(e, "%s: empty file (no edges)", path)
                                       : ws_fail(e, "%s:%ld: no edges", path, ws_lines_lineno(l));
    return graph_from_edges(g, (uint32_t)ids->n, (uint32_t)ids->n, es->n, es->src, es->dst, es->w,
                            NULL, e);
}

int graph_load_snap(struct graph *g, const char *path, struct ws_err *e) {
    memset(g, 0, sizeof *g);
    struct ws_lines *l = ws_lines_open(path, e);
    if (!l) return -1;
    struct estream es = {0};
    struct idmap ids = {0};
    int rc = snap_load(g, l, &es, &ids, e);
    es_free(&es);
    free(ids.key), free(ids.val);
    ws_lines_close(l);
    return rc;
}

/* --- METIS ----------------------------------------------------------------------------------- */

static int metis_load(struct graph *g, struct ws_lines *l, struct estream *es, struct ws_err *e) {
    const char *path = ws_lines_path(l);
    const char *s = next_data(l, '%', e);
    if (!s)
        return ws_lines_failed(l) ? -1
                                  : ws_fail(e,
                                            "%s:%ld: unexpected end of file: expected the "
                                            "header 'n m [fmt [ncon]]'",
                                            path, ws_lines_lineno(l));
    long hline = ws_lines_lineno(l);
    const char *p = s;
    long long n, m, fmt = 0, ncon = 0;
    if (next_int(&p, l, "the vertex count", 1, GRAPH_MAX_NODES, &n, e) ||
        next_int(&p, l, "the edge count", 0, INT32_MAX / 2, &m, e))
        return -1;
    size_t len;
    const char *t = tok(&p, &len);
    if (t) {
        if (len > 3 || strspn(t, "01") < len)
            return ws_fail(e, "%s:%ld: fmt '%.*s' must be up to 3 digits, each 0 or 1", path, hline,
                           SHOW(t, len));
        tok_int(t, len, &fmt);
        const char *q = p;
        if (tok(&q, &len) && next_int(&p, l, "ncon", 1, 1024, &ncon, e)) return -1;
        if (extra_tokens(p, l, "the header", e)) return -1;
    }
    bool vsize = fmt / 100 % 10, vwgt = fmt / 10 % 10, ewgt = fmt % 10;
    if (ncon && !vwgt)
        return ws_fail(e, "%s:%ld: ncon = %lld given but fmt %03lld has no vertex weights", path,
                       hline, ncon, fmt);
    if (vwgt && !ncon) ncon = 1;
    es->want_w = ewgt;
    if (es_reserve(es, es_first(2 * (uint64_t)m + 1), path, e)) return -1;
    char what[64];
    for (long long v = 0; v < n; v++) {
        /* Blank lines are vertices without neighbours here, so only comments are skipped. */
        while ((s = ws_lines_next(l, e)) != NULL && s[strspn(s, " \t")] == '%') {
        }
        if (!s)
            return ws_lines_failed(l)
                       ? -1
                       : ws_fail(e,
                                 "%s:%ld: unexpected end of file: expected the line of vertex "
                                 "%lld of %lld",
                                 path, ws_lines_lineno(l), v + 1, n);
        p = s;
        long long x;
        if (vsize) {
            snprintf(what, sizeof what, "the size of vertex %lld", v + 1);
            if (next_int(&p, l, what, 0, INT32_MAX, &x, e)) return -1;
        }
        for (long long c = 0; c < ncon; c++) {
            snprintf(what, sizeof what, "weight %lld of vertex %lld", c + 1, v + 1);
            if (next_int(&p, l, what, 0, INT32_MAX, &x, e)) return -1;
        }
        while ((t = tok(&p, &len)) != NULL) {
            long long u, w = 1;
            if (!tok_int(t, len, &u))
                return ws_fail(e,
                               "%s:%ld: expected a neighbour of vertex %lld (an integer), "
                               "found '%.*s'",
                               path, ws_lines_lineno(l), v + 1, SHOW(t, len));
            if (u < 1 || u > n)
                return ws_fail(e,
                               "%s:%ld: neighbour %lld of vertex %lld is out of range [1, "
                               "%lld]",
                               path, ws_lines_lineno(l), u, v + 1, n);
            if (ewgt) {
                snprintf(what, sizeof what, "the weight of edge %lld-%lld", v + 1, u);
                if (next_int(&p, l, what, 1, INT32_MAX, &w, e)) return -1;
            }
            if ((long long)es->n == 2 * m)
                return ws_fail(e,
                               "%s:%ld: more than the 2 x %lld neighbour entries the header "
                               "(line %ld) announces",
                               path, ws_lines_lineno(l), m, hline);
            es_add(es, (uint32_t)v, (uint32_t)(u - 1), (uint32_t)w, 0, path, e);
        }
    }
    if ((s = next_data(l, '%', e)) != NULL)
        return ws_fail(e, "%s:%ld: unexpected line after the %lld vertex lines", path,
                       ws_lines_lineno(l), n);
    if (ws_lines_failed(l)) return -1;
    if ((long long)es->n != 2 * m)
        return ws_fail(e,
                       "%s:%ld: the header announces %lld edges (%lld neighbour entries) but "
                       "the vertex lines list %llu entries",
                       path, hline, m, 2 * m, (unsigned long long)es->n);
    return graph_from_edges(g, (uint32_t)n, (uint32_t)n, es->n, es->src, es->dst,
                            ewgt ? es->w : NULL, NULL, e);
}

int graph_load_metis(struct graph *g, const char *path, struct ws_err *e) {
    memset(g, 0, sizeof *g);
    struct ws_lines *l = ws_lines_open(path, e);
    if (!l) return -1;
    struct estream es = {0};
    int rc = metis_load(g, l, &es, e);
    es_free(&es);
    ws_lines_close(l);
    return rc;
}

/* --- dispatcher ------------------------------------------------------------------------------ */

static bool ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

int graph_load(struct graph *g, const char *path, struct ws_err *e) {
    memset(g, 0, sizeof *g);
    if (ends_with(path, ".mtx") || ends_with(path, ".mtx.gz")) return graph_load_mtx(g, path, e);
    if (ends_with(path, ".graph") || ends_with(path, ".metis")) return graph_load_metis(g, path, e);
    struct ws_lines *l = ws_lines_open(path, e);
    if (!l) return -1;
    const char *s;
    while ((s = ws_lines_next(l, e)) != NULL && blank(s)) {
    }
    if (!s && ws_lines_failed(l)) return ws_lines_close(l), -1;
    enum { RODINIA, MTX, SNAP, METIS } f = SNAP;
    if (s) {
        s += strspn(s, " \t");
        if (strncasecmp(s, "%%MatrixMarket", 14) == 0)
            f = MTX;
        else if (*s == '%')
            f = METIS;
        else if (*s == '#')
            f = SNAP;
        else if (count_toks(s) == 1)
            f = RODINIA;
    }
    ws_lines_close(l);
    switch (f) {
    case RODINIA:
        return graph_load_rodinia(g, path, e);
    case MTX:
        return graph_load_mtx(g, path, e);
    case METIS:
        return graph_load_metis(g, path, e);
    default:
        return graph_load_snap(g, path, e);
    }
}
