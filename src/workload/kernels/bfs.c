/* Breadth-first search as Rodinia runs it (Rodinia 3.1, bfs/bfs.cu host loop BFSGraph and
 * bfs/kernel.cu Kernel, bfs/kernel2.cu Kernel2): one thread per node, MAX_THREADS_PER_BLOCK =
 * 512. Kernel: a node in the frontier (g_graph_mask) leaves it and walks its edge list; every
 * unvisited neighbour gets cost + 1 and is marked in g_updating_graph_mask. Kernel2: marked nodes
 * join the frontier, become visited, clear their mark and set *g_over. The host relaunches the
 * pair while g_over comes back true, so a graph whose BFS has L levels runs 2 L kernels.
 * Device arrays in Rodinia's cudaMalloc order: d_graph_nodes (struct Node {int starting; int
 * no_of_edges;}), d_graph_edges, d_graph_mask, d_updating_graph_mask, d_graph_visited (bool),
 * d_cost (int), d_over (bool). Rodinia reads the source node from the file and then uses 0; we
 * use the file's (every Rodinia input names 0). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/graph/graph.h"
#include "workload/graph/graphgen.h"
#include "workload/kernels/kmodel.h"

enum { BFS_BLOCK = 512 };
enum { P_NODES, P_EDGES, P_MASK, P_UPD, P_VIS, P_COST, P_N, P_OVER };

/* Kernel. The loop bound g_graph_nodes[tid].starting + no_of_edges is reloaded after each
 * iteration: the int stores to g_cost may alias the Node fields, so nvcc cannot hoist it. Loads
 * in nvcc's order (the real sm_80 trace in shared/data): no_of_edges, then starting, each a
 * 32-bit LDG; a thread with no edges leaves before it loads starting. */
static const struct km_inst k1_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KI(BFS_BLOCK), KR(0)), /* tid */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_N)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP2(KM_IADD, 2, KR(0), KP(P_MASK)), /* &g_graph_mask[tid] */
    KM_LDG(1, 3, KR(2), 0),
    KM_ISETP_(KM_EQ, 0, KR(3), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_STG(1, KR(2), 0, KRZ),                      /* g_graph_mask[tid] = false */
    KM_OP3(KM_IMAD, 4, KR(0), KI(8), KP(P_NODES)), /* &g_graph_nodes[tid] */
    KM_LDG_S(4, 6, KR(4), 4),                      /* no_of_edges */
    KM_ISETP_(KM_LE, 0, KR(6), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_LDG_S(4, 5, KR(4), 0), /* i = starting */
    KM_OP2(KM_IADD, 6, KR(6), KR(5)),
    KM_OP3(KM_IMAD, 7, KR(0), KI(4), KP(P_COST)), /* &g_cost[tid] */
    KM_MOV_(8, KI(1)),                            /* true */
    KM_LBL("loop"),
    KM_OP3(KM_IMAD, 9, KR(5), KI(4), KP(P_EDGES)), /* &g_graph_edges[i] */
    KM_LDG_S(4, 10, KR(9), 0),                     /* id */
    KM_OP2(KM_IADD, 11, KR(10), KP(P_VIS)),        /* &g_graph_visited[id] */
    KM_LDG(1, 11, KR(11), 0),
    KM_ISETP_(KM_NE, 0, KR(11), KRZ),
    KM_BRA_IF(0, "next", "next"),
    KM_LDG_S(4, 12, KR(7), 0), /* g_cost[tid] */
    KM_OP2(KM_IADD, 12, KR(12), KI(1)),
    KM_OP3(KM_IMAD, 13, KR(10), KI(4), KP(P_COST)),
    KM_STG(4, KR(13), 0, KR(12)), /* g_cost[id] = g_cost[tid] + 1 */
    KM_OP2(KM_IADD, 13, KR(10), KP(P_UPD)),
    KM_STG(1, KR(13), 0, KR(8)), /* g_updating_graph_mask[id] = true */
    KM_LBL("next"),
    KM_LDG_S(4, 13, KR(4), 4),
    KM_LDG_S(4, 12, KR(4), 0),
    KM_OP2(KM_IADD, 5, KR(5), KI(1)), /* i++ */
    KM_OP2(KM_IADD, 13, KR(13), KR(12)),
    KM_ISETP_(KM_LT, 0, KR(5), KR(13)),
    KM_BRA_IF(0, "loop", "end"),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* Kernel2. */
static const struct km_inst k2_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KI(BFS_BLOCK), KR(0)), /* tid */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_N)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP2(KM_IADD, 2, KR(0), KP(P_UPD)), /* &g_updating_graph_mask[tid] */
    KM_LDG(1, 3, KR(2), 0),
    KM_ISETP_(KM_EQ, 0, KR(3), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_MOV_(5, KI(1)),
    KM_OP2(KM_IADD, 4, KR(0), KP(P_MASK)),
    KM_STG(1, KR(4), 0, KR(5)), /* g_graph_mask[tid] = true */
    KM_OP2(KM_IADD, 6, KR(0), KP(P_VIS)),
    KM_STG(1, KR(6), 0, KR(5)), /* g_graph_visited[tid] = true */
    KM_MOV_(7, KP(P_OVER)),
    KM_STG(1, KR(7), 0, KR(5)), /* *g_over = true */
    KM_STG(1, KR(2), 0, KRZ),   /* g_updating_graph_mask[tid] = false */
    KM_LBL("end"),
    KM_EXIT_(),
};

struct bfs_cfg {
    char graph[CFG_STR_MAX];
    int64_t nodes, degree;
};
static const struct cfg_key bfs_keys[] = {
    {"workload.bfs.graph", CFG_STRING, offsetof(struct bfs_cfg, graph), "", 0, 0, NULL, "",
     "graph file (e.g. graph65536.txt; any format workload.graph.path takes); empty: generate "
     "one (workload.graph.* overrides these three keys)"},
    {"workload.bfs.nodes", CFG_INT, offsetof(struct bfs_cfg, nodes), NULL, 2, 1 << 26, NULL,
     "nodes", "nodes of the generated graph (preset by workload.size: test 32768, paper 1000000)"},
    {"workload.bfs.degree", CFG_INT, offsetof(struct bfs_cfg, degree), "6", 2, 64, NULL, "edges",
     "average degree of the generated graph (even; each node starts degree/2 +- 1 edges)"},
};

enum bfs_state { BFS_START, BFS_AFTER_K1, BFS_AFTER_K2 };

struct bfs {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog k1, k2;
    struct graph g;
    uint64_t d_nodes, d_edges, d_mask, d_upd, d_vis, d_cost, d_over;
    uint32_t blocks, threads;
    enum bfs_state state;
    uint32_t launches;
    struct wl_copy copies[8];
    uint32_t ncopies;
};

static int launch(struct bfs *b, const struct km_prog *p, struct kernel_desc *k, struct ws_err *e) {
    struct km_launch l = {.prog = p, .grid = {b->blocks, 1, 1}, .block = {b->threads, 1, 1}};
    l.param[P_NODES] = (int64_t)b->d_nodes;
    l.param[P_EDGES] = (int64_t)b->d_edges;
    l.param[P_MASK] = (int64_t)b->d_mask;
    l.param[P_UPD] = (int64_t)b->d_upd;
    l.param[P_VIS] = (int64_t)b->d_vis;
    l.param[P_COST] = (int64_t)b->d_cost;
    l.param[P_N] = b->g.n;
    l.param[P_OVER] = (int64_t)b->d_over;
    if (km_run_launch(b->kw.run, &l, k, e)) return -1;
    k->id = b->launches++;
    k->copies = b->copies;
    k->ncopies = b->ncopies;
    return 1;
}

static int bfs_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct bfs *b = (struct bfs *)w;
    uint8_t *over = devmem_host(b->kw.dm, b->d_over, 1);
    b->ncopies = 0;
    switch (b->state) {
    case BFS_START: /* the initial cudaMemcpys, then the first `stop = false` copy */
        km_copy_add(b->copies, &b->ncopies, 8, b->d_nodes, 8ull * b->g.n);
        km_copy_add(b->copies, &b->ncopies, 8, b->d_edges, 4ull * b->g.m);
        km_copy_add(b->copies, &b->ncopies, 8, b->d_mask, b->g.n);
        km_copy_add(b->copies, &b->ncopies, 8, b->d_upd, b->g.n);
        km_copy_add(b->copies, &b->ncopies, 8, b->d_vis, b->g.n);
        km_copy_add(b->copies, &b->ncopies, 8, b->d_cost, 4ull * b->g.n);
        break;
    case BFS_AFTER_K1:
        b->state = BFS_AFTER_K2;
        return launch(b, &b->k2, k, e);
    case BFS_AFTER_K2:
        if (!*over) return 0; /* no node joined the frontier: done */
        break;
    }
    *over = 0;
    km_copy_add(b->copies, &b->ncopies, 8, b->d_over, 1);
    b->state = BFS_AFTER_K1;
    return launch(b, &b->k1, k, e);
}

static int bfs_verify(struct workload *w, struct ws_err *e) {
    struct bfs *b = (struct bfs *)w;
    int32_t *want = malloc((size_t)b->g.n * sizeof *want);
    if (!want) return ws_fail(e, "bfs: out of memory");
    graph_bfs(&b->g, b->g.source, want);
    const int32_t *got = devmem_host(b->kw.dm, b->d_cost, 4ull * b->g.n);
    int rc = 0;
    for (uint32_t i = 0; i < b->g.n && rc == 0; i++)
        if (got[i] != want[i])
            rc = ws_fail(e, "bfs: node %u has cost %d, a host BFS from node %u gives %d", i, got[i],
                         b->g.source, want[i]);
    free(want);
    return rc;
}

static void bfs_destroy(struct workload *w) {
    struct bfs *b = (struct bfs *)w;
    km_prog_free(&b->k1);
    km_prog_free(&b->k2);
    graph_free(&b->g);
    km_wl_fini(&b->kw);
    free(b);
}

static const struct workload_vt bfs_vt = {bfs_next,      km_wl_cta_start, km_wl_warp_next,
                                          km_wl_cta_end, bfs_verify,      bfs_destroy};

/* Device arrays and their initial contents, as BFSGraph sets them up. */
static int setup(struct bfs *b, struct ws_err *e) {
    struct devmem *dm = b->kw.dm;
    uint32_t n = b->g.n, m = b->g.m ? b->g.m : 1;
    if (!(b->d_nodes = devmem_alloc(dm, 8ull * n, "d_graph_nodes", e)) ||
        !(b->d_edges = devmem_alloc(dm, 4ull * m, "d_graph_edges", e)) ||
        !(b->d_mask = devmem_alloc(dm, n, "d_graph_mask", e)) ||
        !(b->d_upd = devmem_alloc(dm, n, "d_updating_graph_mask", e)) ||
        !(b->d_vis = devmem_alloc(dm, n, "d_graph_visited", e)) ||
        !(b->d_cost = devmem_alloc(dm, 4ull * n, "d_cost", e)) ||
        !(b->d_over = devmem_alloc(dm, 1, "d_over", e)))
        return -1;
    int32_t *nodes = devmem_host(dm, b->d_nodes, 8ull * n);
    int32_t *edges = devmem_host(dm, b->d_edges, 4ull * m);
    uint8_t *mask = devmem_host(dm, b->d_mask, n), *vis = devmem_host(dm, b->d_vis, n);
    int32_t *cost = devmem_host(dm, b->d_cost, 4ull * n);
    for (uint32_t i = 0; i < n; i++) {
        nodes[2 * i] = (int32_t)b->g.start[i];
        nodes[2 * i + 1] = (int32_t)b->g.degree[i];
        cost[i] = -1;
    }
    for (uint32_t j = 0; j < b->g.m; j++) edges[j] = (int32_t)b->g.dest[j];
    mask[b->g.source] = vis[b->g.source] = 1;
    cost[b->g.source] = 0;
    /* Rodinia: one block of n threads for small graphs, else blocks of MAX_THREADS_PER_BLOCK. */
    b->blocks = n > BFS_BLOCK ? (n + BFS_BLOCK - 1) / BFS_BLOCK : 1;
    b->threads = n > BFS_BLOCK ? BFS_BLOCK : n;
    return 0;
}

struct workload *bfs_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct bfs_cfg bc = {.nodes = wc->size == WL_SIZE_PAPER ? 1000000 : 32768};
    if (cfg_bind(c, "workload.bfs", bfs_keys, CFG_COUNT(bfs_keys), &bc, e)) return NULL;
    char where[600];
    /* with a graph file there is nothing to generate (workload.graph.* overrides these keys
     * otherwise, as documented) */
    const char *gpath = cfg_raw(c, "workload.graph.path");
    if (bc.graph[0] || (gpath && *gpath))
        for (int k = 0; k < 2; k++)
            if (cfg_refuse_set(c, k ? "workload.bfs.degree" : "workload.bfs.nodes",
                               gpath && *gpath ? "workload.graph.path" : "workload.bfs.graph",
                               "read when no graph file is given", e) != 0)
                return NULL;
    if (bc.degree % 2)
        return ws_fail(e, "%s: workload.bfs.degree = %lld must be even (edges come in pairs)",
                       cfg_origin(c, "workload.bfs.degree", where, sizeof where),
                       (long long)bc.degree),
               NULL;
    struct bfs *b = calloc(1, sizeof *b);
    if (!b) return ws_fail(e, "bfs: out of memory"), NULL;
    if (km_wl_init(&b->kw, &bfs_vt, "bfs", e)) return free(b), NULL;
    struct graph_cfg gc;
    graph_cfg_defaults(&gc);
    memcpy(gc.path, bc.graph, sizeof gc.path);
    gc.path_key = "workload.bfs.graph";
    gc.nodes = bc.nodes;
    gc.degree = bc.degree;
    int rc = graph_cfg_make(&b->g, c, &gc, (uint64_t)wc->seed, e);
    if (rc == 0 && b->g.n != b->g.ncols)
        rc = ws_fail(e, "bfs: the matrix is %u x %u; a graph needs a square one", b->g.n,
                     b->g.ncols);
    if (rc == 0) rc = km_prog_build(&b->k1, "Kernel", 16, k1_code, CFG_COUNT(k1_code), e);
    if (rc == 0) rc = km_prog_build(&b->k2, "Kernel2", 10, k2_code, CFG_COUNT(k2_code), e);
    if (rc == 0) rc = setup(b, e);
    if (rc) {
        bfs_destroy(&b->kw.base);
        return NULL;
    }
    return &b->kw.base;
}
