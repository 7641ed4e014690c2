/* Graph generators and the workload.graph.* keys. Each generator writes an edge stream and lets
 * graph_from_edges build the CSR, so a node's edges keep their creation order. */
#include "workload/graph/graphgen.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/rng.h"
#include "workload/graph/graphio.h"

struct stream {
    uint32_t *s, *d, *w;
    uint64_t n;
};

static int stream_alloc(struct stream *st, uint64_t cap, const char *who, struct ws_err *e) {
    memset(st, 0, sizeof *st);
    if (cap > INT32_MAX)
        return ws_fail(e, "%s: %llu edges is too many", who, (unsigned long long)cap);
    size_t c = cap ? cap : 1;
    st->s = malloc(c * sizeof *st->s);
    st->d = malloc(c * sizeof *st->d);
    st->w = malloc(c * sizeof *st->w);
    if (!st->s || !st->d || !st->w) {
        free(st->s), free(st->d), free(st->w);
        return ws_fail(e, "%s: %llu edges: out of memory", who, (unsigned long long)cap);
    }
    return 0;
}

static int stream_finish(struct graph *g, struct stream *st, uint32_t n, struct ws_err *e) {
    int rc = graph_from_edges(g, n, n, st->n, st->s, st->d, st->w, NULL, e);
    free(st->s), free(st->d), free(st->w);
    return rc;
}

static uint32_t weight(struct ws_rng *r, uint32_t max_weight) {
    return 1 + (uint32_t)ws_rng_below(r, max_weight);
}

int graph_gen_rmat(struct graph *g, uint32_t scale, uint32_t edge_factor, double a, double b,
                   double c, uint32_t max_weight, uint64_t seed, struct ws_err *e) {
    memset(g, 0, sizeof *g);
    if (scale < 1 || scale > 30) return ws_fail(e, "R-MAT: scale %u is not in 1..30", scale);
    if (edge_factor < 1) return ws_fail(e, "R-MAT: edge factor must be at least 1");
    if (a < 0 || b < 0 || c < 0 || a + b + c > 1)
        return ws_fail(e, "R-MAT: a = %g, b = %g, c = %g must be >= 0 with a + b + c <= 1", a, b,
                       c);
    if (max_weight < 1) return ws_fail(e, "R-MAT: max weight must be at least 1");
    uint32_t n = 1u << scale;
    struct stream st;
    if (stream_alloc(&st, (uint64_t)edge_factor * n, "R-MAT", e)) return -1;
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    for (uint64_t k = 0; k < (uint64_t)edge_factor * n; k++) {
        uint32_t u = 0, v = 0;
        for (uint32_t bit = 0; bit < scale; bit++) {
            double x = ws_rng_unit(&r);
            uint32_t row = x >= a + b, col = (x >= a && x < a + b) || x >= a + b + c;
            u = u << 1 | row;
            v = v << 1 | col;
        }
        st.s[st.n] = u, st.d[st.n] = v, st.w[st.n++] = weight(&r, max_weight);
    }
    return stream_finish(g, &st, n, e);
}

int graph_gen_uniform(struct graph *g, uint32_t n, uint32_t degree, uint32_t max_weight,
                      uint64_t seed, struct ws_err *e) {
    memset(g, 0, sizeof *g);
    if (n < 2) return ws_fail(e, "uniform graph: %u nodes (at least 2 needed)", n);
    if (max_weight < 1) return ws_fail(e, "uniform graph: max weight must be at least 1");
    uint64_t pairs = (uint64_t)n * degree / 2;
    struct stream st;
    if (stream_alloc(&st, 2 * pairs, "uniform graph", e)) return -1;
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    for (uint64_t k = 0; k < pairs; k++) {
        uint32_t u = (uint32_t)ws_rng_below(&r, n), v = (uint32_t)ws_rng_below(&r, n - 1);
        if (v >= u) v++; /* any node but u */
        uint32_t w = weight(&r, max_weight);
        st.s[st.n] = u, st.d[st.n] = v, st.w[st.n++] = w;
        st.s[st.n] = v, st.d[st.n] = u, st.w[st.n++] = w;
    }
    return stream_finish(g, &st, n, e);
}

int graph_gen_grid(struct graph *g, uint32_t rows, uint32_t cols, uint32_t max_weight,
                   uint64_t seed, struct ws_err *e) {
    memset(g, 0, sizeof *g);
    if (rows < 1 || cols < 1 || (uint64_t)rows * cols < 2 || (uint64_t)rows * cols > INT32_MAX)
        return ws_fail(e, "grid graph: %u x %u nodes is not a usable size", rows, cols);
    if (max_weight < 1) return ws_fail(e, "grid graph: max weight must be at least 1");
    uint32_t n = rows * cols;
    struct stream st;
    if (stream_alloc(&st, 2 * ((uint64_t)rows * (cols - 1) + (uint64_t)(rows - 1) * cols),
                     "grid graph", e))
        return -1;
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    for (uint32_t i = 0; i < rows; i++)
        for (uint32_t j = 0; j < cols; j++) {
            uint32_t u = i * cols + j;
            for (int down = 0; down < 2; down++) {
                if (down ? i + 1 == rows : j + 1 == cols) continue;
                uint32_t v = down ? u + cols : u + 1, w = weight(&r, max_weight);
                st.s[st.n] = u, st.d[st.n] = v, st.w[st.n++] = w;
                st.s[st.n] = v, st.d[st.n] = u, st.w[st.n++] = w;
            }
        }
    return stream_finish(g, &st, n, e);
}

void graph_cfg_defaults(struct graph_cfg *gc) {
    memset(gc, 0, sizeof *gc);
    gc->gen = GRAPH_GEN_RODINIA;
    gc->nodes = 32768;
    gc->degree = 6;
    gc->max_weight = 100;
    gc->a = 0.57, gc->b = 0.19, gc->c = 0.19;
}

static const char *const gen_names[] = {"rodinia", "rmat", "uniform", "grid", NULL};

#define GO(f) offsetof(struct graph_cfg, f)
static const struct cfg_key graph_keys[] = {
    {"workload.graph.path", CFG_STRING, GO(path), NULL, 0, 0, NULL, "",
     "graph file: Rodinia BFS text, Matrix Market .mtx, SNAP edge list or METIS .graph (format by "
     "extension, else by content); empty: generate one"},
    {"workload.graph.gen", CFG_ENUM, GO(gen), NULL, 0, 0, gen_names, "",
     "generator when no file is given: rodinia (graphgen), rmat, uniform, grid"},
    {"workload.graph.nodes", CFG_INT, GO(nodes), NULL, 2, GRAPH_MAX_NODES, NULL, "nodes",
     "nodes of the generated graph (R-MAT: rounded up to a power of two; grid: rows x width)"},
    {"workload.graph.degree", CFG_INT, GO(degree), NULL, 1, 256, NULL, "edges",
     "average out-degree of the generated graph (rodinia: even; R-MAT: the edge factor)"},
    {"workload.graph.width", CFG_INT, GO(width), "0", 0, 1 << 28, NULL, "nodes",
     "grid: columns (0: floor(sqrt(nodes)))"},
    {"workload.graph.max_weight", CFG_INT, GO(max_weight), NULL, 1, 1 << 20, NULL, "",
     "rmat/uniform/grid edge weights are uniform in 1..max_weight"},
    {"workload.graph.rmat_a", CFG_DOUBLE, GO(a), NULL, 0, 1, NULL, "",
     "R-MAT quadrant (0,0) probability"},
    {"workload.graph.rmat_b", CFG_DOUBLE, GO(b), NULL, 0, 1, NULL, "",
     "R-MAT quadrant (0,1) probability"},
    {"workload.graph.rmat_c", CFG_DOUBLE, GO(c), NULL, 0, 1, NULL, "",
     "R-MAT quadrant (1,0) probability"},
};

int graph_cfg_load(struct graph *g, const struct cfg *c, const char *key, const char *path,
                   struct ws_err *e) {
    struct stat st;
    bool missing = stat(path, &st) != 0;
    if (missing || S_ISDIR(st.st_mode)) {
        char where[600];
        return ws_fail(e, "%s: %s = '%s': %s%s", cfg_origin(c, key, where, sizeof where), key, path,
                       missing ? "cannot open: " : "is a folder, not a graph file",
                       missing ? strerror(errno) : "");
    }
    return graph_load(g, path, e);
}

int graph_cfg_make(struct graph *g, struct cfg *c, struct graph_cfg *gc, uint64_t seed,
                   struct ws_err *e) {
    memset(g, 0, sizeof *g);
    if (cfg_bind(c, "workload.graph", graph_keys, CFG_COUNT(graph_keys), gc, e)) return -1;
    /* the generator's keys mean nothing with a file, and each generator reads only its own */
    static const struct {
        const char *key;
        unsigned gens; /* bit per enum graph_gen_kind that reads it */
    } gen_keys[] = {
        {"workload.graph.gen", 0xf},
        {"workload.graph.nodes", 0xf},
        {"workload.graph.degree",
         1u << GRAPH_GEN_RODINIA | 1u << GRAPH_GEN_RMAT | 1u << GRAPH_GEN_UNIFORM},
        {"workload.graph.width", 1u << GRAPH_GEN_GRID},
        {"workload.graph.max_weight",
         1u << GRAPH_GEN_RMAT | 1u << GRAPH_GEN_UNIFORM | 1u << GRAPH_GEN_GRID},
        {"workload.graph.rmat_a", 1u << GRAPH_GEN_RMAT},
        {"workload.graph.rmat_b", 1u << GRAPH_GEN_RMAT},
        {"workload.graph.rmat_c", 1u << GRAPH_GEN_RMAT},
    };
    for (size_t k = 0; k < CFG_COUNT(gen_keys); k++) {
        char why[CFG_STR_MAX + 128];
        const char *chooser = "workload.graph.gen";
        if (gc->path[0]) {
            /* sssp draws weights for a file that has none */
            if (!strcmp(gen_keys[k].key, "workload.graph.max_weight")) continue;
            chooser = gc->path_key && !cfg_raw(c, "workload.graph.path") ? gc->path_key
                                                                         : "workload.graph.path";
            snprintf(why, sizeof why, "read when no graph file is given; this run reads %s",
                     gc->path);
        } else if (!(gen_keys[k].gens >> gc->gen & 1)) {
            snprintf(why, sizeof why, "read with workload.graph.gen =");
            for (int g = 0; gen_names[g]; g++)
                if (gen_keys[k].gens >> g & 1)
                    snprintf(why + strlen(why), sizeof why - strlen(why), " %s", gen_names[g]);
        } else {
            continue;
        }
        if (cfg_refuse_set(c, gen_keys[k].key, chooser, why, e) != 0) return -1;
    }
    if (gc->path[0]) {
        const char *key = "workload.graph.path";
        if (gc->path_key && !cfg_raw(c, key)) key = gc->path_key; /* the workload's preset */
        return graph_cfg_load(g, c, key, gc->path, e);
    }
    char where[600];
    uint32_t n = (uint32_t)gc->nodes, d = (uint32_t)gc->degree, mw = (uint32_t)gc->max_weight;
    switch (gc->gen) {
    case GRAPH_GEN_RMAT: {
        uint32_t scale = 1;
        while ((1u << scale) < n) scale++;
        if (gc->a + gc->b + gc->c > 1)
            return ws_fail(e, "%s: workload.graph.rmat_a + rmat_b + rmat_c = %g exceeds 1",
                           cfg_origin(c, "workload.graph.rmat_a", where, sizeof where),
                           gc->a + gc->b + gc->c);
        return graph_gen_rmat(g, scale, d, gc->a, gc->b, gc->c, mw, seed, e);
    }
    case GRAPH_GEN_UNIFORM:
        return graph_gen_uniform(g, n, d, mw, seed, e);
    case GRAPH_GEN_GRID: {
        uint32_t w = gc->width ? (uint32_t)gc->width : (uint32_t)sqrt((double)n);
        if (w < 1) w = 1;
        if (w > n)
            return ws_fail(e, "%s: workload.graph.width = %u exceeds the %u nodes",
                           cfg_origin(c, "workload.graph.width", where, sizeof where), w, n);
        return graph_gen_grid(g, n / w, w, mw, seed, e);
    }
    default:
        if (d % 2 || d < 2)
            return ws_fail(e,
                           "%s: workload.graph.degree = %u must be even and >= 2 for the rodinia "
                           "generator (edges come in pairs)",
                           cfg_origin(c, "workload.graph.degree", where, sizeof where), d);
        return graph_generate(g, n, d / 2 - 1, d / 2 + 1, seed, e);
    }
}
