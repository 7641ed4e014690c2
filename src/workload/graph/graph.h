/* Directed graphs in compressed sparse row form, as Rodinia's BFS keeps them: per node the index
 * of its first edge and its edge count, then one destination (and weight) per edge. Loaded from
 * Rodinia's BFS text format or generated like Rodinia's graphgen. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"

/* The most nodes (rows, columns) a graph may have, as the generators' workload.graph.nodes: a
 * header may announce up to 2^31 of them in a few bytes, and the CSR arrays of that many (built
 * whatever the file's entries) would take 16 GB before any workload array. */
#define GRAPH_MAX_NODES (1LL << 28)

struct graph {
    uint32_t n;       /* nodes (matrix rows) */
    uint32_t ncols;   /* matrix columns: n for every graph; an .mtx matrix may be rectangular */
    uint32_t m;       /* directed edges */
    uint32_t source;  /* BFS source node named by the file (0 for generated graphs) */
    uint32_t *start;  /* [n] first edge of each node */
    uint32_t *degree; /* [n] edges of each node */
    uint32_t *dest;   /* [m] destination node of each edge */
    uint32_t *weight; /* [m] edge weight (unused by BFS, kept for SSSP-style kernels) */
    float *val;       /* [m] matrix value (Matrix Market real/integer files), else NULL */
    bool weighted;    /* weights come from the input; false: every weight is 1 */
};

/* Builds g's CSR from an edge stream: edge j runs src[j] -> dst[j] with weight w[j] (NULL: all 1,
 * g->weighted false) and value val[j] (may be NULL). A node's edges keep their stream order (a
 * stable counting sort). The caller checks src < n and dst < ncols. */
int graph_from_edges(struct graph *g, uint32_t n, uint32_t ncols, uint64_t m, const uint32_t *src,
                     const uint32_t *dst, const uint32_t *w, const float *val, struct ws_err *e);

/* Rodinia BFS format (whitespace-separated integers, as read with fscanf): node count; per node
 * "start degree"; the source node; the edge count; per edge "dest weight". Every malformed or
 * inconsistent value is reported as "path:line: what is wrong". */
int graph_load_rodinia(struct graph *g, const char *path, struct ws_err *e);

/* Random undirected graph stored as two directed edges per pair, built like Rodinia's graphgen:
 * every node in turn starts a uniform number of edges in [min_new, max_new] to uniformly chosen
 * other nodes (weights uniform in 1..10), so the average degree is min_new + max_new. Edges of a
 * node keep their creation order. Deterministic for a given seed. */
int graph_generate(struct graph *g, uint32_t n, uint32_t min_new, uint32_t max_new, uint64_t seed,
                   struct ws_err *e);

void graph_free(struct graph *g);

/* Level-synchronous BFS from src on the host: cost[v] = hops from src, -1 if unreachable.
 * Returns the number of distinct levels (1 + the largest cost). */
uint32_t graph_bfs(const struct graph *g, uint32_t src, int32_t *cost);

/* Dijkstra from src on the host (binary heap): dist[v] = length of a shortest path using
 * g->weight, GRAPH_UNREACHED if there is none. Returns the number of nodes reached. */
#define GRAPH_UNREACHED UINT64_MAX
uint32_t graph_sssp(const struct graph *g, uint32_t src, uint64_t *dist);
