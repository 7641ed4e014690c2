/* CSR graphs: Rodinia BFS file loader, graphgen-style generator, host BFS. */
#include "workload/graph/graph.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/lineio.h"
#include "base/rng.h"

void graph_free(struct graph *g) {
    free(g->start);
    free(g->degree);
    free(g->dest);
    free(g->weight);
    free(g->val);
    memset(g, 0, sizeof *g);
}

/* Whitespace-separated integers across lines (Rodinia reads the file with fscanf, so line breaks
 * carry no meaning), each with the line it came from. */
struct toks {
    struct ws_lines *l;
    const char *p; /* rest of the current line */
    long line;
};

static bool skip_space(struct toks *t, struct ws_err *e) {
    for (;;) {
        if (t->p) {
            while (*t->p == ' ' || *t->p == '\t' || *t->p == '\r' || *t->p == '\f' || *t->p == '\v')
                t->p++;
            if (*t->p) return true;
        }
        t->p = ws_lines_next(t->l, e);
        if (!t->p) return false;
        t->line = ws_lines_lineno(t->l);
    }
}

/* Next integer in [min, max] into *out; `what` names it in messages. */
static int next_int(struct toks *t, const char *what, int64_t min, int64_t max, int64_t *out,
                    struct ws_err *e) {
    const char *path = ws_lines_path(t->l);
    if (!skip_space(t, e)) {
        if (ws_lines_failed(t->l)) return -1;
        return ws_fail(e, "%s:%ld: unexpected end of file: expected %s", path, t->line, what);
    }
    const char *s = t->p;
    size_t len = strcspn(s, " \t\r\f\v");
    t->p = s + len;
    char buf[32];
    char *end = NULL;
    long long v = 0;
    if (len < sizeof buf) {
        memcpy(buf, s, len);
        buf[len] = '\0';
        errno = 0;
        v = strtoll(buf, &end, 10);
    }
    if (len >= sizeof buf || end == buf || *end != '\0' || errno == ERANGE)
        return ws_fail(e, "%s:%ld: expected %s (an integer), found '%.*s'", path, t->line, what,
                       (int)(len > 40 ? 40 : len), s);
    if (v < min || v > max)
        return ws_fail(e, "%s:%ld: %s = %lld is out of range [%lld, %lld]", path, t->line, what, v,
                       (long long)min, (long long)max);
    *out = v;
    return 0;
}

static int load(struct graph *g, struct toks *t, uint32_t **node_line, struct ws_err *e) {
    const char *path = ws_lines_path(t->l);
    int64_t v, w;
    if (next_int(t, "the node count", 1, GRAPH_MAX_NODES, &v, e)) return -1;
    g->n = g->ncols = (uint32_t)v;
    g->weighted = true;
    g->start = malloc(g->n * sizeof *g->start);
    g->degree = malloc(g->n * sizeof *g->degree);
    *node_line = malloc(g->n * sizeof **node_line);
    if (!g->start || !g->degree || !*node_line)
        return ws_fail(e, "%s:%ld: %u nodes: out of memory", path, t->line, g->n);
    char what[64];
    for (uint32_t i = 0; i < g->n; i++) {
        snprintf(what, sizeof what, "the first edge of node %u", i);
        if (next_int(t, what, 0, INT32_MAX, &v, e)) return -1;
        snprintf(what, sizeof what, "the edge count of node %u", i);
        if (next_int(t, what, 0, INT32_MAX, &w, e)) return -1;
        g->start[i] = (uint32_t)v;
        g->degree[i] = (uint32_t)w;
        (*node_line)[i] = (uint32_t)t->line;
    }
    if (next_int(t, "the source node", 0, (int64_t)g->n - 1, &v, e)) return -1;
    g->source = (uint32_t)v;
    if (next_int(t, "the edge count", 0, INT32_MAX, &v, e)) return -1;
    g->m = (uint32_t)v;
    long m_line = t->line;
    for (uint32_t i = 0; i < g->n; i++)
        if ((uint64_t)g->start[i] + g->degree[i] > g->m)
            return ws_fail(e,
                           "%s:%u: node %u has edges %u..%llu but the edge count (line %ld) is "
                           "%u",
                           path, (*node_line)[i], i, g->start[i],
                           (unsigned long long)g->start[i] + g->degree[i] - 1, m_line, g->m);
    size_t me = g->m ? g->m : 1;
    g->dest = malloc(me * sizeof *g->dest);
    g->weight = malloc(me * sizeof *g->weight);
    if (!g->dest || !g->weight)
        return ws_fail(e, "%s:%ld: %u edges: out of memory", path, m_line, g->m);
    for (uint32_t j = 0; j < g->m; j++) {
        snprintf(what, sizeof what, "the destination of edge %u", j);
        if (next_int(t, what, 0, (int64_t)g->n - 1, &v, e)) return -1;
        snprintf(what, sizeof what, "the weight of edge %u", j);
        if (next_int(t, what, 0, INT32_MAX, &w, e)) return -1;
        g->dest[j] = (uint32_t)v;
        g->weight[j] = (uint32_t)w;
    }
    if (skip_space(t, e))
        return ws_fail(e, "%s:%ld: unexpected '%.*s' after the last of %u edges", path, t->line,
                       (int)strcspn(t->p, " \t\r"), t->p, g->m);
    return ws_lines_failed(t->l) ? -1 : 0;
}

int graph_load_rodinia(struct graph *g, const char *path, struct ws_err *e) {
    memset(g, 0, sizeof *g);
    struct toks t = {.l = ws_lines_open(path, e)};
    if (!t.l) return -1;
    uint32_t *node_line = NULL;
    int rc = load(g, &t, &node_line, e);
    free(node_line);
    ws_lines_close(t.l);
    if (rc) graph_free(g);
    return rc;
}

int graph_from_edges(struct graph *g, uint32_t n, uint32_t ncols, uint64_t m, const uint32_t *src,
                     const uint32_t *dst, const uint32_t *w, const float *val, struct ws_err *e) {
    memset(g, 0, sizeof *g);
    if (m > INT32_MAX) return ws_fail(e, "graph: %llu edges is too many", (unsigned long long)m);
    size_t me = m ? m : 1;
    g->start = calloc(n ? n : 1, sizeof *g->start);
    g->degree = calloc(n ? n : 1, sizeof *g->degree);
    g->dest = malloc(me * sizeof *g->dest);
    g->weight = malloc(me * sizeof *g->weight);
    if (val) g->val = malloc(me * sizeof *g->val);
    if (!g->start || !g->degree || !g->dest || !g->weight || (val && !g->val)) {
        graph_free(g);
        return ws_fail(e, "graph: %u nodes, %llu edges: out of memory", n, (unsigned long long)m);
    }
    g->n = n;
    g->ncols = ncols;
    g->m = (uint32_t)m;
    g->weighted = w != NULL;
    for (uint64_t j = 0; j < m; j++) g->degree[src[j]]++;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < n; i++) g->start[i] = acc, acc += g->degree[i];
    /* Reuse degree as the fill cursor; it ends as the degree again. */
    for (uint32_t i = 0; i < n; i++) g->degree[i] = 0;
    for (uint64_t j = 0; j < m; j++) {
        uint32_t s = src[j], at = g->start[s] + g->degree[s]++;
        g->dest[at] = dst[j];
        g->weight[at] = w ? w[j] : 1;
        if (val) g->val[at] = val[j];
    }
    return 0;
}

int graph_generate(struct graph *g, uint32_t n, uint32_t min_new, uint32_t max_new, uint64_t seed,
                   struct ws_err *e) {
    memset(g, 0, sizeof *g);
    if (n < 2) return ws_fail(e, "graph generator: %u nodes (at least 2 needed)", n);
    if (min_new > max_new || max_new == 0)
        return ws_fail(e, "graph generator: bad edges-per-node range [%u, %u]", min_new, max_new);
    uint64_t cap = 2 * (uint64_t)n * max_new;
    if (cap > INT32_MAX)
        return ws_fail(e, "graph generator: %u nodes x up to %u edges each is too many", n,
                       2 * max_new);
    /* Edge stream in creation order (both directions of each pair), then a stable counting sort
     * by source node: a node's list keeps the order in which its edges were made. */
    uint32_t *es = malloc(cap * sizeof *es), *ed = malloc(cap * sizeof *ed);
    uint32_t *ew = malloc(cap * sizeof *ew);
    if (!es || !ed || !ew) {
        free(es), free(ed), free(ew);
        return ws_fail(e, "graph generator: %u nodes: out of memory", n);
    }
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    uint64_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = min_new + (uint32_t)ws_rng_below(&r, max_new - min_new + 1);
        for (uint32_t j = 0; j < k; j++) {
            uint32_t d = (uint32_t)ws_rng_below(&r, n - 1);
            if (d >= i) d++; /* any node but i itself */
            uint32_t wt = 1 + (uint32_t)ws_rng_below(&r, 10);
            es[m] = i, ed[m] = d, ew[m++] = wt;
            es[m] = d, ed[m] = i, ew[m++] = wt;
        }
    }
    int rc = graph_from_edges(g, n, n, m, es, ed, ew, NULL, e);
    free(es), free(ed), free(ew);
    return rc;
}

uint32_t graph_bfs(const struct graph *g, uint32_t src, int32_t *cost) {
    for (uint32_t i = 0; i < g->n; i++) cost[i] = -1;
    uint32_t *q = malloc((size_t)g->n * sizeof *q);
    WS_ASSERT(q, "graph_bfs: out of memory");
    uint32_t head = 0, tail = 0, levels = 0;
    cost[src] = 0;
    q[tail++] = src;
    while (head < tail) {
        uint32_t u = q[head++];
        if ((uint32_t)cost[u] + 1 > levels) levels = (uint32_t)cost[u] + 1;
        for (uint32_t j = g->start[u]; j < g->start[u] + g->degree[u]; j++) {
            uint32_t v = g->dest[j];
            if (cost[v] < 0) cost[v] = cost[u] + 1, q[tail++] = v;
        }
    }
    free(q);
    return levels;
}

/* Binary min-heap of (distance, node) with lazy deletion: a node may sit in it several times;
 * stale entries are skipped when popped. */
struct hent {
    uint64_t d;
    uint32_t v;
};

static void heap_push(struct hent *h, size_t *n, struct hent x) {
    size_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2].d > x.d) h[i] = h[(i - 1) / 2], i = (i - 1) / 2;
    h[i] = x;
}

static struct hent heap_pop(struct hent *h, size_t *n) {
    struct hent top = h[0], x = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && h[c + 1].d < h[c].d) c++;
        if (h[c].d >= x.d) break;
        h[i] = h[c], i = c;
    }
    if (*n) h[i] = x;
    return top;
}

uint32_t graph_sssp(const struct graph *g, uint32_t src, uint64_t *dist) {
    for (uint32_t i = 0; i < g->n; i++) dist[i] = GRAPH_UNREACHED;
    /* Every push follows a strict improvement along one edge: at most m + 1 entries. */
    struct hent *h = malloc(((size_t)g->m + 1) * sizeof *h);
    WS_ASSERT(h, "graph_sssp: out of memory");
    size_t hn = 0;
    uint32_t reached = 0;
    dist[src] = 0;
    heap_push(h, &hn, (struct hent){0, src});
    while (hn) {
        struct hent x = heap_pop(h, &hn);
        if (x.d != dist[x.v]) continue;
        reached++;
        for (uint32_t j = g->start[x.v]; j < g->start[x.v] + g->degree[x.v]; j++) {
            uint32_t v = g->dest[j];
            uint64_t nd = x.d + g->weight[j];
            if (nd < dist[v]) dist[v] = nd, heap_push(h, &hn, (struct hent){nd, v});
        }
    }
    free(h);
    return reached;
}
