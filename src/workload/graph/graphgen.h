/* Deterministic graph generators beyond Rodinia's graphgen (R-MAT/Kronecker, uniform random, 2D
 * grid), and the `workload.graph.*` keys through which graph workloads choose a file or a
 * generator. Weights are uniform in 1..max_weight; every generator is a pure function of its
 * parameters and seed. */
#pragma once

#include <stdint.h>

#include "base/cfg.h"
#include "base/err.h"
#include "workload/graph/graph.h"

/* R-MAT (Chakrabarti, Zhan, Faloutsos 2004; Graph500's Kronecker generator without its noise and
 * vertex permutation): 2^scale nodes, edge_factor * 2^scale directed edges, each placed by
 * choosing, bit by bit from the top, quadrant (0,0), (0,1), (1,0), (1,1) with probabilities a, b,
 * c, 1 - a - b - c. Self-loops and duplicates are kept, as in raw R-MAT; low node ids are the
 * hubs. */
int graph_gen_rmat(struct graph *g, uint32_t scale, uint32_t edge_factor, double a, double b,
                   double c, uint32_t max_weight, uint64_t seed, struct ws_err *e);

/* Uniform random undirected graph: n * degree / 2 node pairs drawn uniformly (no self-loops),
 * each stored as two directed edges with the same weight, so the average degree is `degree`. */
int graph_gen_uniform(struct graph *g, uint32_t n, uint32_t degree, uint32_t max_weight,
                      uint64_t seed, struct ws_err *e);

/* Road-like 2D grid: rows x cols nodes (node r * cols + c), each joined to its right and lower
 * neighbour by two directed edges of one random weight: 2 (rows (cols - 1) + (rows - 1) cols)
 * edges, degree 2..4, diameter rows + cols - 2. */
int graph_gen_grid(struct graph *g, uint32_t rows, uint32_t cols, uint32_t max_weight,
                   uint64_t seed, struct ws_err *e);

enum graph_gen_kind { GRAPH_GEN_RODINIA, GRAPH_GEN_RMAT, GRAPH_GEN_UNIFORM, GRAPH_GEN_GRID };

/* What `workload.graph.*` selects. A workload fills in its presets (size-dependent nodes, its
 * default generator), then graph_cfg_make binds the keys (each one given overrides the preset)
 * and loads or generates the graph. */
struct graph_cfg {
    char path[CFG_STR_MAX]; /* a file in any format graph_load reads; empty: generate */
    const char *path_key;   /* the workload's own key the preset path came from (NULL: none) */
    int gen;                /* enum graph_gen_kind */
    int64_t nodes, degree, width, max_weight;
    double a, b, c;
};
/* Presets every workload starts from: no file, rodinia, 32768 nodes, degree 6, weights 1..100,
 * R-MAT 0.57/0.19/0.19 (Graph500). */
void graph_cfg_defaults(struct graph_cfg *gc);
/* Rodinia: graph_generate with degree/2 -+ 1 edges started per node (weights 1..10); R-MAT:
 * scale = ceil(log2(nodes)), edge factor = degree; uniform: nodes, degree; grid: width columns
 * (0: floor(sqrt(nodes))) and nodes / width rows. */
int graph_cfg_make(struct graph *g, struct cfg *c, struct graph_cfg *gc, uint64_t seed,
                   struct ws_err *e);
/* graph_load() of the file config key `key` names: one that cannot be opened is reported where
 * the key was set ("--set #1: workload.graph.path = 'x.mtx': cannot open: ..."), so the user
 * sees which setting to fix; errors inside the file keep their file:line. */
int graph_cfg_load(struct graph *g, const struct cfg *c, const char *key, const char *path,
                   struct ws_err *e);
