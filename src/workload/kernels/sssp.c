/* Single-source shortest paths (seed 000's SSP) as LonestarGPU runs it in its topology-driven
 * Bellman-Ford form (LonestarGPU 2.0, apps/sssp: kernels `initialize` and `drelax`, the latter
 * calling processedge for each outgoing edge; the Graph accessors of include/graph.h). Host
 * loop: initialize sets every dist to MYINFINITY (1,000,000,000), dist[source] = 0 is copied in,
 * then `do { changed = false; drelax; } while (changed)`. drelax: one thread per node; a node with
 * edges walks them in order; per edge processedge reads dst = getDestination(src, ii) and wt =
 * getWeight(src, ii) (each bounds-checked: ii < noutgoing[src], the first edge psrc[srcsrc[src]],
 * dst < nnodes, wt < MYINFINITY), altdist = dist[src] + wt, and if altdist < dist[dst] does
 * atomicMin(&dist[dst], altdist); a node that lowered a value sets *changed. The graph arrays,
 * stored as LonestarGPU's Graph keeps them (edgessrcdst/edgessrcwt with a null entry 0, 1-based
 * psrc, srcsrc the identity), are allocated in Graph::allocOnHost's order (edgessrcdst,
 * edgessrcwt, psrc, noutgoing, nincoming, srcsrc), then dist and changed. Within one edge the
 * accessors' loads as nvcc 13 compiles them for sm_75 (PTX of these accessors): per edge
 * noutgoing[src] once, srcsrc[src] and psrc[...] once for getDestination and again for
 * getWeight (the atomicMin may alias every array, so nothing is kept across edges), dst checked
 * before getWeight runs. processnode keeps `changed` in a register; drelax stores *changed once
 * per node whose edges lowered a distance. Blocks of 1024 threads: KernelConfig's
 * setMaxThreadsPerBlock takes the device's maximum (1024), and drelax gives each thread
 * MAXBLOCKSIZE (1024) / blockDim.x = 1 node.
 *
 * Input: any graph workload.graph.* selects (a file, or a generator). Files without weights get
 * weights uniform in 1..workload.graph.max_weight from workload.seed, so distances are not hop
 * counts. Default: a uniform random graph of average degree 4, test 2^14 nodes, paper 2^20 nodes
 * (4 M edges, as LonestarGPU's r4-2e20 input; its rmat and road inputs are workload.graph.gen =
 * rmat or grid). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/graph/graph.h"
#include "workload/graph/graphgen.h"
#include "workload/kernels/kmodel.h"

enum { SSSP_BLOCK = 1024 };
#define MYINFINITY 1000000000
enum { P_DST, P_WT, P_PSRC, P_NOUT, P_SRCSRC, P_DIST, P_N, P_M, P_CHANGED };

/* initialize */
static const struct km_inst init_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* ii */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_N)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 1, KR(0), KI(4), KP(P_DIST)),
    KM_MOV_(2, KI(MYINFINITY)),
    KM_STG(4, KR(1), 0, KR(2)), /* dist[ii] = MYINFINITY */
    KM_LBL("end"),
    KM_EXIT_(),
};

/* drelax with processedge inlined. */
static const struct km_inst relax_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* idx */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_N)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 3, KR(0), KI(4), KP(P_NOUT)), /* &noutgoing[idx] */
    KM_LDG(4, 4, KR(3), 0),                       /* neighborsize */
    KM_ISETP_(KM_EQ, 0, KR(4), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 5, KR(0), KI(4), KP(P_SRCSRC)), /* &srcsrc[idx] */
    KM_OP3(KM_IMAD, 6, KR(0), KI(4), KP(P_DIST)),   /* &dist[idx] */
    KM_MOV_(7, KRZ),                                /* ii */
    KM_MOV_(22, KRZ),                               /* processnode's changed */
    KM_LBL("loop"),
    /* getDestination(src, ii) */
    KM_LDG(4, 8, KR(3), 0), /* getOutDegree(src), for the accessors' bounds checks */
    KM_ISETP_(KM_GE, 0, KR(7), KR(8)),
    KM_BRA_IF(0, "next", "next"),
    KM_LDG(4, 9, KR(5), 0), /* srcsrc[src] */
    KM_ISETP_(KM_GE, 0, KR(9), KP(P_N)),
    KM_BRA_IF(0, "next", "next"),
    KM_OP3(KM_IMAD, 10, KR(9), KI(4), KP(P_PSRC)),
    KM_LDG(4, 10, KR(10), 0),           /* getFirstEdge = psrc[srcsrc[src]] */
    KM_OP2(KM_IADD, 11, KR(10), KR(7)), /* edge */
    KM_ISETP_(KM_GT, 0, KR(11), KP(P_M)),
    KM_BRA_IF(0, "next", "next"),
    KM_OP3(KM_IMAD, 12, KR(11), KI(4), KP(P_DST)),
    KM_LDG(4, 13, KR(12), 0), /* dst = edgessrcdst[edge] */
    KM_ISETP_(KM_GE, 0, KR(13), KP(P_N)),
    KM_BRA_IF(0, "next", "next"),
    /* getWeight(src, ii): its getFirstEdge loads again (nvcc keeps the degree, not these) */
    KM_LDG(4, 9, KR(5), 0), /* srcsrc[src] */
    KM_ISETP_(KM_GE, 0, KR(9), KP(P_N)),
    KM_BRA_IF(0, "next", "next"),
    KM_OP3(KM_IMAD, 10, KR(9), KI(4), KP(P_PSRC)),
    KM_LDG(4, 10, KR(10), 0), /* psrc[srcsrc[src]] */
    KM_OP2(KM_IADD, 11, KR(10), KR(7)),
    KM_ISETP_(KM_GT, 0, KR(11), KP(P_M)),
    KM_BRA_IF(0, "next", "next"),
    KM_OP3(KM_IMAD, 14, KR(11), KI(4), KP(P_WT)),
    KM_LDG(4, 15, KR(14), 0), /* wt = edgessrcwt[edge] */
    KM_ISETP_(KM_GE, 0, KR(15), KI(MYINFINITY)),
    KM_BRA_IF(0, "next", "next"),
    KM_LDG(4, 16, KR(6), 0),             /* dist[src] */
    KM_OP2(KM_IADD, 16, KR(16), KR(15)), /* altdist */
    KM_OP3(KM_IMAD, 17, KR(13), KI(4), KP(P_DIST)),
    KM_LDG(4, 18, KR(17), 0), /* dist[dst] */
    KM_ISETP_(KM_GE, 0, KR(16), KR(18)),
    KM_BRA_IF(0, "next", "next"),
    KM_ATOMG(KM_ATOM_MIN, 4, 19, KR(17), 0, KR(16)), /* olddist = atomicMin(&dist[dst], alt) */
    KM_ISETP_(KM_GE, 0, KR(16), KR(19)),
    KM_BRA_IF(0, "next", "next"),
    KM_MOV_(22, KI(1)), /* changed = true */
    KM_LBL("next"),
    KM_OP2(KM_IADD, 7, KR(7), KI(1)),
    KM_ISETP_(KM_LT, 0, KR(7), KR(4)),
    KM_BRA_IF(0, "loop", "done"),
    KM_LBL("done"),
    /* drelax: if (processnode(...)) *changed = true, once per node */
    KM_ISETP_(KM_EQ, 0, KR(22), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_MOV_(21, KP(P_CHANGED)),
    KM_MOV_(20, KI(1)),
    KM_STG(1, KR(21), 0, KR(20)),
    KM_LBL("end"),
    KM_EXIT_(),
};

enum sssp_state { SSSP_START, SSSP_RELAX };

struct sssp {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog init, relax;
    struct graph g;
    uint64_t d_dst, d_wt, d_psrc, d_nout, d_nin, d_srcsrc, d_dist, d_changed;
    uint32_t blocks;
    enum sssp_state state;
    uint32_t launches;
    struct wl_copy copies[8];
    uint32_t ncopies;
};

static int launch(struct sssp *s, const struct km_prog *p, struct kernel_desc *k,
                  struct ws_err *e) {
    struct km_launch l = {.prog = p, .grid = {s->blocks, 1, 1}, .block = {SSSP_BLOCK, 1, 1}};
    l.param[P_DST] = (int64_t)s->d_dst;
    l.param[P_WT] = (int64_t)s->d_wt;
    l.param[P_PSRC] = (int64_t)s->d_psrc;
    l.param[P_NOUT] = (int64_t)s->d_nout;
    l.param[P_SRCSRC] = (int64_t)s->d_srcsrc;
    l.param[P_DIST] = (int64_t)s->d_dist;
    l.param[P_N] = s->g.n;
    l.param[P_M] = s->g.m;
    l.param[P_CHANGED] = (int64_t)s->d_changed;
    if (km_run_launch(s->kw.run, &l, k, e)) return -1;
    k->id = s->launches++;
    k->copies = s->copies;
    k->ncopies = s->ncopies;
    return 1;
}

static int sssp_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct sssp *s = (struct sssp *)w;
    uint8_t *changed = devmem_host(s->kw.dm, s->d_changed, 1);
    uint32_t *dist = devmem_host(s->kw.dm, s->d_dist, 4ull * s->g.n);
    s->ncopies = 0;
    if (s->state == SSSP_START) { /* the graph's copies, then initialize */
        km_copy_add(s->copies, &s->ncopies, 8, s->d_dst, 4ull * (s->g.m + 1));
        km_copy_add(s->copies, &s->ncopies, 8, s->d_wt, 4ull * (s->g.m + 1));
        km_copy_add(s->copies, &s->ncopies, 8, s->d_psrc, 4ull * (s->g.n + 1));
        km_copy_add(s->copies, &s->ncopies, 8, s->d_nout, 4ull * s->g.n);
        km_copy_add(s->copies, &s->ncopies, 8, s->d_nin, 4ull * s->g.n);
        km_copy_add(s->copies, &s->ncopies, 8, s->d_srcsrc, 4ull * s->g.n);
        s->state = SSSP_RELAX;
        return launch(s, &s->init, k, e);
    }
    if (s->launches == 1) { /* after initialize: dist[source] = 0 */
        dist[s->g.source] = 0;
        km_copy_add(s->copies, &s->ncopies, 8, s->d_dist + 4ull * s->g.source, 4);
    } else if (!*changed) {
        return 0;
    }
    *changed = 0;
    km_copy_add(s->copies, &s->ncopies, 8, s->d_changed, 1);
    return launch(s, &s->relax, k, e);
}

static int sssp_verify(struct workload *w, struct ws_err *e) {
    struct sssp *s = (struct sssp *)w;
    uint64_t *want = malloc((size_t)s->g.n * sizeof *want);
    if (!want) return ws_fail(e, "sssp: out of memory");
    graph_sssp(&s->g, s->g.source, want);
    const uint32_t *got = devmem_host(s->kw.dm, s->d_dist, 4ull * s->g.n);
    int rc = 0;
    for (uint32_t i = 0; i < s->g.n && rc == 0; i++) {
        uint64_t wv = want[i] == GRAPH_UNREACHED ? MYINFINITY : want[i];
        if (got[i] != wv)
            rc =
                ws_fail(e, "sssp: node %u has distance %u, a host Dijkstra from node %u gives %llu",
                        i, got[i], s->g.source, (unsigned long long)wv);
    }
    free(want);
    return rc;
}

static void sssp_destroy(struct workload *w) {
    struct sssp *s = (struct sssp *)w;
    km_prog_free(&s->init);
    km_prog_free(&s->relax);
    graph_free(&s->g);
    km_wl_fini(&s->kw);
    free(s);
}

static const struct workload_vt sssp_vt = {sssp_next,     km_wl_cta_start, km_wl_warp_next,
                                           km_wl_cta_end, sssp_verify,     sssp_destroy};

static int setup(struct sssp *s, struct ws_err *e) {
    struct devmem *dm = s->kw.dm;
    const struct graph *g = &s->g;
    uint32_t n = g->n, m = g->m;
    if (!(s->d_dst = devmem_alloc(dm, 4ull * (m + 1), "edgessrcdst", e)) ||
        !(s->d_wt = devmem_alloc(dm, 4ull * (m + 1), "edgessrcwt", e)) ||
        !(s->d_psrc = devmem_alloc(dm, 4ull * (n + 1), "psrc", e)) ||
        !(s->d_nout = devmem_alloc(dm, 4ull * n, "noutgoing", e)) ||
        !(s->d_nin = devmem_alloc(dm, 4ull * n, "nincoming", e)) ||
        !(s->d_srcsrc = devmem_alloc(dm, 4ull * n, "srcsrc", e)) ||
        !(s->d_dist = devmem_alloc(dm, 4ull * n, "dist", e)) ||
        !(s->d_changed = devmem_alloc(dm, 1, "changed", e)))
        return -1;
    uint32_t *dst = devmem_host(dm, s->d_dst, 4ull * (m + 1));
    uint32_t *wt = devmem_host(dm, s->d_wt, 4ull * (m + 1));
    uint32_t *psrc = devmem_host(dm, s->d_psrc, 4ull * (n + 1));
    uint32_t *nout = devmem_host(dm, s->d_nout, 4ull * n);
    uint32_t *nin = devmem_host(dm, s->d_nin, 4ull * n);
    uint32_t *srcsrc = devmem_host(dm, s->d_srcsrc, 4ull * n);
    for (uint32_t i = 0; i < n; i++) {
        psrc[i] = g->start[i] + 1; /* edge 0 is the null entry */
        nout[i] = g->degree[i];
        srcsrc[i] = i;
    }
    psrc[n] = m + 1;
    for (uint32_t j = 0; j < m; j++) {
        dst[j + 1] = g->dest[j];
        wt[j + 1] = g->weight[j];
        nin[g->dest[j]]++;
    }
    s->blocks = (n + SSSP_BLOCK - 1) / SSSP_BLOCK;
    return 0;
}

struct workload *sssp_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct graph_cfg gc;
    graph_cfg_defaults(&gc);
    gc.gen = GRAPH_GEN_UNIFORM;
    gc.nodes = wc->size == WL_SIZE_PAPER ? 1 << 20 : 1 << 14;
    gc.degree = 4;
    struct sssp *s = calloc(1, sizeof *s);
    if (!s) return ws_fail(e, "sssp: out of memory"), NULL;
    if (km_wl_init(&s->kw, &sssp_vt, "sssp", e)) return free(s), NULL;
    int rc = graph_cfg_make(&s->g, c, &gc, (uint64_t)wc->seed, e);
    if (rc == 0 && s->g.n != s->g.ncols)
        rc = ws_fail(e, "sssp: the matrix is %u x %u; a graph needs a square one", s->g.n,
                     s->g.ncols);
    if (rc == 0 && !s->g.weighted) { /* no weights in the file: draw them */
        struct ws_rng r;
        ws_rng_seed(&r, (uint64_t)wc->seed);
        for (uint32_t j = 0; j < s->g.m; j++)
            s->g.weight[j] = 1 + (uint32_t)ws_rng_below(&r, (uint64_t)gc.max_weight);
    }
    for (uint32_t j = 0; rc == 0 && j < s->g.m; j++)
        if (s->g.weight[j] >= MYINFINITY / 1024)
            rc = ws_fail(e, "sssp: edge weight %u is too large (at most %d)", s->g.weight[j],
                         MYINFINITY / 1024 - 1);
    if (rc == 0) rc = km_prog_build(&s->init, "initialize", 8, init_code, CFG_COUNT(init_code), e);
    if (rc == 0) rc = km_prog_build(&s->relax, "drelax", 24, relax_code, CFG_COUNT(relax_code), e);
    if (rc == 0) rc = setup(s, e);
    if (rc) {
        sssp_destroy(&s->kw.base);
        return NULL;
    }
    return &s->kw.base;
}
