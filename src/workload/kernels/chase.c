/* Pointer-chase latency micro-benchmark: one thread follows a chain of dependent loads (each
 * load's value is the index of the next), so every load waits for the one before and the run's
 * cycles per load are the unloaded round trip of whichever level holds the chain (L1, L2 or
 * DRAM). It is the simulator's twin of the `chase` kernel in tools/gpuprobe/gpuprobe.cu, the
 * probe the machine presets are calibrated against on real GPUs (docs/calibration.md):
 *
 *   __global__ void chase(const uint32_t *a, const uint32_t *starts, int lanes, int iters,
 *                         uint32_t *out) {
 *       if (threadIdx.x >= lanes) return;     // the first `lanes` lanes of each 32-thread block
 *       int c = blockIdx.x * lanes + threadIdx.x;
 *       uint32_t j = starts[c];
 *       for (int i = 0; i < iters; i++) j = a[j];
 *       out[c] = j;
 *   }
 *
 * With one warp of one lane it is the probe's `chase` (unloaded latency); with more it is
 * `chase_many`, many chains at once through the same cycle, spaced evenly along it (chain c
 * starts c * floor(nodes / chains) places after node 0), whose cycles per load rise with the load
 * on the memory system: a warp-load of L lanes touches L random lines. The chain has footprint /
 * stride nodes, node i at byte i * stride of `a`, visited in one random cycle (Sattolo's algorithm:
 * every node once per lap, no short cycles) or in address order (order = seq, where consecutive
 * nodes share cache lines and DRAM rows). The chain is copied to the device, so with gpu.warm_l2 a
 * chain that fits the L2 starts there, as after the probe's warm-up lap. A chain larger than a
 * cache misses it on every load once the first lap is done (LRU on a cyclic order), so cycles per
 * load there are the next level's. */
#include <stddef.h>
#include <stdlib.h>

#include "base/rng.h"
#include "workload/kernels/kmodel.h"

enum { P_A, P_STARTS, P_ITERS, P_OUT, P_LANES };

static const struct km_inst chase_code[] = {
    KM_S2R(3, SR_TID_X),
    KM_ISETP_(KM_GE, 0, KR(3), KP(P_LANES)),
    KM_BRA_IF(0, "end", "end"),
    KM_S2R(5, SR_CTAID_X),
    KM_OP3(KM_IMAD, 5, KR(5), KP(P_LANES), KR(3)), /* c */
    KM_OP3(KM_IMAD, 6, KR(5), KI(4), KP(P_STARTS)),
    KM_LDG(4, 0, KR(6), 0), /* j = starts[c] */
    KM_MOV_(1, KI(0)),      /* i */
    KM_ISETP_(KM_GE, 0, KR(1), KP(P_ITERS)),
    KM_BRA_IF(0, "done", "done"),
    KM_LBL("loop"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_A)), /* &a[j] (IMAD.WIDE.U32) */
    KM_LDG(4, 0, KR(2), 0),                    /* j = a[j] */
    KM_OP2(KM_IADD, 1, KR(1), KI(1)),
    KM_ISETP_(KM_LT, 0, KR(1), KP(P_ITERS)),
    KM_BRA_IF(0, "loop", "done"),
    KM_LBL("done"),
    KM_OP3(KM_IMAD, 4, KR(5), KI(4), KP(P_OUT)),
    KM_STG(4, KR(4), 0, KR(0)), /* out[c] = j */
    KM_LBL("end"),
    KM_EXIT_(),
};

static const char *const order_names[] = {"random", "seq", NULL};

struct chase_cfg {
    int64_t footprint, stride, loads, warps, lanes;
    int order;
};
#define CO(f) offsetof(struct chase_cfg, f)
static const struct cfg_key chase_keys[] = {
    {"workload.chase.footprint", CFG_INT, CO(footprint), NULL, 4, 1LL << 32, NULL, "bytes",
     "bytes the chain spans (preset by workload.size: test 1 MiB, paper 256 MiB)"},
    {"workload.chase.stride", CFG_INT, CO(stride), "128", 4, 1 << 20, NULL, "bytes",
     "bytes between nodes, a multiple of 4 (128: one node per cache line)"},
    {"workload.chase.loads", CFG_INT, CO(loads), NULL, 1, 1 << 30, NULL, "loads",
     "dependent loads (preset by workload.size: test 4096, paper 32768)"},
    {"workload.chase.order", CFG_ENUM, CO(order), "random", 0, 0, order_names, "",
     "random: one random cycle through the nodes; seq: in address order"},
    {"workload.chase.warps", CFG_INT, CO(warps), "1", 1, 1 << 20, NULL, "warps",
     "warps chasing at once (1 with lanes 1: unloaded latency; more: latency under load)"},
    {"workload.chase.lanes", CFG_INT, CO(lanes), "1", 1, 32, NULL, "lanes",
     "lanes of each warp that chase a chain of their own"},
};

struct chase {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog;
    struct chase_cfg cfg;
    uint64_t nodes, d_a, d_starts, d_out;
    uint32_t *end; /* per warp: the word index its chain reaches after `loads` loads */
    struct wl_copy copies[2];
    bool launched;
};

static int chase_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct chase *c = (struct chase *)w;
    if (c->launched) return 0;
    struct km_launch l = {
        .prog = &c->prog, .grid = {(uint32_t)c->cfg.warps, 1, 1}, .block = {32, 1, 1}};
    l.param[P_A] = (int64_t)c->d_a;
    l.param[P_STARTS] = (int64_t)c->d_starts;
    l.param[P_ITERS] = c->cfg.loads;
    l.param[P_OUT] = (int64_t)c->d_out;
    l.param[P_LANES] = c->cfg.lanes;
    if (km_run_launch(c->kw.run, &l, k, e)) return -1;
    k->id = 0;
    k->copies = c->copies;
    k->ncopies = 2;
    c->launched = true;
    return 1;
}

static int chase_verify(struct workload *w, struct ws_err *e) {
    struct chase *c = (struct chase *)w;
    const uint64_t nc = (uint64_t)(c->cfg.warps * c->cfg.lanes);
    const uint32_t *out = devmem_host(c->kw.dm, c->d_out, 4 * nc);
    for (uint64_t i = 0; i < nc; i++)
        if (out[i] != c->end[i])
            return ws_fail(e, "chase: chain %llu ended at word %u, the host walk at word %u",
                           (unsigned long long)i, out[i], c->end[i]);
    return 0;
}

static void chase_destroy(struct workload *w) {
    struct chase *c = (struct chase *)w;
    km_prog_free(&c->prog);
    km_wl_fini(&c->kw);
    free(c->end);
    free(c);
}

static const struct workload_vt chase_vt = {chase_next,    km_wl_cta_start, km_wl_warp_next,
                                            km_wl_cta_end, chase_verify,    chase_destroy};

struct workload *chase_create(struct cfg *cf, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct chase_cfg cc = {.footprint = paper ? 256LL << 20 : 1LL << 20,
                           .loads = paper ? 32768 : 4096};
    if (cfg_bind(cf, "workload.chase", chase_keys, CFG_COUNT(chase_keys), &cc, e)) return NULL;
    if (cc.stride % 4)
        return ws_fail(e, "workload.chase.stride = %lld is not a multiple of 4 bytes",
                       (long long)cc.stride),
               NULL;
    if (cc.footprint < cc.stride)
        return ws_fail(e, "workload.chase.footprint = %lld is smaller than one stride (%lld)",
                       (long long)cc.footprint, (long long)cc.stride),
               NULL;
    uint64_t nodes = (uint64_t)(cc.footprint / cc.stride);
    if ((uint64_t)(cc.warps * cc.lanes) > nodes)
        return ws_fail(e,
                       "workload.chase.warps x lanes = %lld chains exceed the cycle's %llu nodes",
                       (long long)(cc.warps * cc.lanes), (unsigned long long)nodes),
               NULL;
    /* word indices fit 32 bits: footprint <= 2^32 bytes is 2^30 words */
    struct chase *c = calloc(1, sizeof *c);
    if (!c) return ws_fail(e, "chase: out of memory"), NULL;
    if (km_wl_init(&c->kw, &chase_vt, "chase", e)) return free(c), NULL;
    c->cfg = cc;
    c->nodes = nodes;
    uint64_t bytes = nodes * (uint64_t)cc.stride;
    const uint64_t nw = (uint64_t)(cc.warps * cc.lanes); /* chains */
    if (km_prog_build(&c->prog, "chase", 8, chase_code, CFG_COUNT(chase_code), e) ||
        !(c->d_a = devmem_alloc(c->kw.dm, bytes, "a", e)) ||
        !(c->d_starts = devmem_alloc(c->kw.dm, 4 * nw, "starts", e)) ||
        !(c->d_out = devmem_alloc(c->kw.dm, 4 * nw, "out", e)) ||
        !(c->end = calloc(nw, sizeof *c->end))) {
        if (!c->end && c->d_out) ws_fail(e, "chase: out of memory");
        chase_destroy(&c->kw.base);
        return NULL;
    }
    uint32_t *a = devmem_host(c->kw.dm, c->d_a, bytes);
    uint32_t sw = (uint32_t)(cc.stride / 4), n = (uint32_t)nodes;
    /* the nodes in chain order: address order, or a random permutation that Sattolo's algorithm
     * makes a single cycle */
    uint32_t *order = malloc(sizeof *order * n);
    if (!order) {
        chase_destroy(&c->kw.base);
        return ws_fail(e, "chase: out of memory"), NULL;
    }
    for (uint32_t i = 0; i < n; i++) order[i] = i;
    if (cc.order == 0) {
        struct ws_rng r;
        ws_rng_seed(&r, (uint64_t)wc->seed);
        for (uint32_t i = n - 1; i > 0; i--) {
            uint32_t k = (uint32_t)ws_rng_below(&r, i), t = order[i];
            order[i] = order[k];
            order[k] = t;
        }
    }
    uint32_t z = 0; /* node 0's place in the order */
    for (uint32_t i = 0; i < n; i++) {
        a[(uint64_t)order[i] * sw] = order[(i + 1) % n] * sw;
        if (order[i] == 0) z = i;
    }
    /* chain w starts w * floor(nodes / chains) places along the cycle from node 0 and ends
     * `loads` places later (for verify) */
    uint32_t *starts = devmem_host(c->kw.dm, c->d_starts, 4 * nw);
    const uint64_t gap = nodes / nw, lap = (uint64_t)cc.loads % nodes;
    for (uint64_t w = 0; w < nw; w++) {
        starts[w] = order[(z + w * gap) % nodes] * sw;
        c->end[w] = order[(z + w * gap + lap) % nodes] * sw;
    }
    free(order);
    c->copies[0] = (struct wl_copy){c->d_a, bytes};
    c->copies[1] = (struct wl_copy){c->d_starts, 4 * nw};
    return &c->kw.base;
}
