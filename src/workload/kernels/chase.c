/* Pointer-chase latency micro-benchmark: one thread follows a chain of dependent loads (each
 * load's value is the index of the next), so every load waits for the one before and the run's
 * cycles per load are the unloaded round trip of whichever level holds the chain (L1, L2 or
 * DRAM). It is the simulator's twin of the `chase` kernel in tools/gpuprobe/gpuprobe.cu, the
 * probe the machine presets are calibrated against on real GPUs (docs/calibration.md):
 *
 *   __global__ void chase(const uint32_t *a, uint32_t start, int iters, uint32_t *out) {
 *       uint32_t j = start;
 *       for (int i = 0; i < iters; i++) j = a[j];
 *       out[0] = j;
 *   }
 *
 * The chain has footprint / stride nodes, node i at byte i * stride of `a`, visited in one random
 * cycle (Sattolo's algorithm: every node once per lap, no short cycles) or in address order
 * (order = seq, where consecutive nodes share cache lines and DRAM rows). The chain is copied to
 * the device, so with gpu.warm_l2 a chain that fits the L2 starts there, as after the probe's
 * warm-up lap. A chain larger than a cache misses it on every load once the first lap is done
 * (LRU on a cyclic order), so cycles per load there are the next level's. */
#include <stddef.h>
#include <stdlib.h>

#include "base/rng.h"
#include "workload/kernels/kmodel.h"

enum { P_A, P_START, P_ITERS, P_OUT };

static const struct km_inst chase_code[] = {
    KM_MOV_(0, KP(P_START)), /* j */
    KM_MOV_(1, KI(0)),       /* i */
    KM_ISETP_(KM_GE, 0, KR(1), KP(P_ITERS)),
    KM_BRA_IF(0, "done", "done"),
    KM_LBL("loop"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_A)), /* &a[j] (IMAD.WIDE.U32) */
    KM_LDG(4, 0, KR(2), 0),                    /* j = a[j] */
    KM_OP2(KM_IADD, 1, KR(1), KI(1)),
    KM_ISETP_(KM_LT, 0, KR(1), KP(P_ITERS)),
    KM_BRA_IF(0, "loop", "done"),
    KM_LBL("done"),
    KM_MOV_(4, KP(P_OUT)),
    KM_STG(4, KR(4), 0, KR(0)), /* out[0] = j */
    KM_EXIT_(),
};

static const char *const order_names[] = {"random", "seq", NULL};

struct chase_cfg {
    int64_t footprint, stride, loads;
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
};

struct chase {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog;
    struct chase_cfg cfg;
    uint64_t nodes, d_a, d_out;
    uint32_t end; /* the word index the chain reaches after `loads` loads from node 0 */
    struct wl_copy copy;
    bool launched;
};

static int chase_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct chase *c = (struct chase *)w;
    if (c->launched) return 0;
    struct km_launch l = {.prog = &c->prog, .grid = {1, 1, 1}, .block = {1, 1, 1}};
    l.param[P_A] = (int64_t)c->d_a;
    l.param[P_START] = 0;
    l.param[P_ITERS] = c->cfg.loads;
    l.param[P_OUT] = (int64_t)c->d_out;
    if (km_run_launch(c->kw.run, &l, k, e)) return -1;
    k->id = 0;
    k->copies = &c->copy;
    k->ncopies = 1;
    c->launched = true;
    return 1;
}

static int chase_verify(struct workload *w, struct ws_err *e) {
    struct chase *c = (struct chase *)w;
    const uint32_t *out = devmem_host(c->kw.dm, c->d_out, 4);
    if (out[0] != c->end)
        return ws_fail(e, "chase: the chain ended at word %u, the host walk at word %u", out[0],
                       c->end);
    return 0;
}

static void chase_destroy(struct workload *w) {
    struct chase *c = (struct chase *)w;
    km_prog_free(&c->prog);
    km_wl_fini(&c->kw);
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
    if (nodes * (uint64_t)(cc.stride / 4) > UINT32_MAX)
        return ws_fail(e, "workload.chase: %llu nodes of %lld bytes overflow 32-bit indices",
                       (unsigned long long)nodes, (long long)cc.stride),
               NULL;
    struct chase *c = calloc(1, sizeof *c);
    if (!c) return ws_fail(e, "chase: out of memory"), NULL;
    if (km_wl_init(&c->kw, &chase_vt, "chase", e)) return free(c), NULL;
    c->cfg = cc;
    c->nodes = nodes;
    uint64_t bytes = nodes * (uint64_t)cc.stride;
    if (km_prog_build(&c->prog, "chase", 8, chase_code, CFG_COUNT(chase_code), e) ||
        !(c->d_a = devmem_alloc(c->kw.dm, bytes, "a", e)) ||
        !(c->d_out = devmem_alloc(c->kw.dm, 4, "out", e))) {
        chase_destroy(&c->kw.base);
        return NULL;
    }
    uint32_t *a = devmem_host(c->kw.dm, c->d_a, bytes);
    uint32_t sw = (uint32_t)(cc.stride / 4), n = (uint32_t)nodes;
    if (cc.order == 1) {
        for (uint32_t i = 0; i < n; i++) a[(uint64_t)i * sw] = ((i + 1) % n) * sw;
    } else {
        /* Sattolo: a random permutation with a single cycle, written as next pointers */
        uint32_t *perm = malloc(sizeof *perm * n);
        if (!perm) {
            chase_destroy(&c->kw.base);
            return ws_fail(e, "chase: out of memory"), NULL;
        }
        struct ws_rng r;
        ws_rng_seed(&r, (uint64_t)wc->seed);
        for (uint32_t i = 0; i < n; i++) perm[i] = i;
        for (uint32_t i = n - 1; i > 0; i--) {
            uint32_t k = (uint32_t)ws_rng_below(&r, i), t = perm[i];
            perm[i] = perm[k];
            perm[k] = t;
        }
        for (uint32_t i = 0; i < n; i++) a[(uint64_t)perm[i] * sw] = perm[(i + 1) % n] * sw;
        free(perm);
    }
    uint32_t j = 0; /* the host walk, for verify */
    for (int64_t i = 0; i < cc.loads; i++) j = a[j];
    c->end = j;
    c->copy = (struct wl_copy){c->d_a, bytes};
    return &c->kw.base;
}
