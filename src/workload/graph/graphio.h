/* Graph and sparse-matrix files beyond Rodinia's BFS format: Matrix Market coordinate files,
 * SNAP edge lists and METIS .graph files, plus a loader that picks the format. Every malformed
 * or inconsistent value is reported as "path:line: what is wrong"; on error nothing stays
 * allocated. */
#pragma once

#include "base/err.h"
#include "workload/graph/graph.h"

/* Matrix Market `matrix coordinate` with field real, integer or pattern and symmetry general or
 * symmetric. Row i, column j (1-based) becomes edge i-1 -> j-1; a symmetric file's off-diagonal
 * entries are stored both ways (the mirror right after the original, so n = 2 nnz - diagonal).
 * Values go to g->val (pattern: none). Integer files whose values are all >= 0 are weighted by
 * them; otherwise every weight is 1. */
int graph_load_mtx(struct graph *g, const char *path, struct ws_err *e);

/* SNAP edge list: lines "src dst" or "src dst weight" (every line the same), whitespace-
 * separated, `#` lines are comments. Node ids are any non-negative integers; they are renumbered
 * densely in FIRST-SEEN order (scanning each line's src, then dst), so the first id in the file
 * becomes node 0. Every line is one directed edge, duplicates and self-loops kept. */
int graph_load_snap(struct graph *g, const char *path, struct ws_err *e);

/* METIS graph: `%` comment lines; header "n m [fmt [ncon]]" with fmt's digits (vertex sizes,
 * vertex weights, edge weights); then exactly one line per vertex (a blank line is a vertex
 * without neighbours) listing [size] [ncon vertex weights] and its neighbours (1-based), each
 * followed by its weight when fmt's last digit is 1. m counts undirected edges, so the lines must
 * list 2 m neighbours. Vertex sizes and weights are checked and dropped. */
int graph_load_metis(struct graph *g, const char *path, struct ws_err *e);

/* Any of the above or Rodinia's format: by extension (.mtx Matrix Market, .graph/.metis METIS),
 * else by the first line (`%%MatrixMarket`: Matrix Market; `%`: METIS; `#`: SNAP; a single
 * integer: Rodinia; anything else: SNAP). */
int graph_load(struct graph *g, const char *path, struct ws_err *e);
