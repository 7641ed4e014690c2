/* The issue-imbalance FMA microbenchmark of seed 003 (sub-core partitioning, §III-B, Figs. 3-4),
 * written from its description (the paper publishes no source): each compute thread runs
 * workload.fma.iters (4096) FMAs on register-resident values, then every thread of the block
 * waits at one bar.sync and exits. Three launch layouts:
 *   fmabase  256 threads per block, all 8 warps compute (the paper's baseline);
 *   fmaimb   1024 threads, compute warps 0, 4, ..., 28 and 24 empty warps: with round-robin
 *            sub-core assignment all 8 compute warps share one sub-core (unbalanced);
 *   fmabal   1024 threads, compute warps 0..7 and 24 empty warps: 2 compute warps per sub-core.
 * An empty warp only reaches the barrier and exits; its slot is held until the block ends.
 *
 * The FMA loop is unrolled 32 times over 4 independent accumulators (as a benchmark written to
 * saturate the FMA pipe is), so a compute warp issues exactly `iters` FFMAs plus 3 loop
 * instructions per 32. The result is stored only if it equals a value it never takes (the
 * usual way to keep the compiler from deleting the loop without adding memory traffic), so the
 * kernel has no global memory accesses. Grid: workload.fma.ctas blocks (not given by the paper;
 * test 4, paper 80 = one per V100 SM). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

enum { FMA_UNROLL = 32 };
enum { P_MASK, P_LIMIT, P_OUT, P_SENT, P_NITER };

#define FMA4                                                                                       \
    KM_OP3(KM_FFMA, 4, KR(4), KF(0.999f), KF(0.5f)),                                               \
        KM_OP3(KM_FFMA, 5, KR(5), KF(0.999f), KF(0.5f)),                                           \
        KM_OP3(KM_FFMA, 6, KR(6), KF(0.999f), KF(0.5f)),                                           \
        KM_OP3(KM_FFMA, 7, KR(7), KF(0.999f), KF(0.5f))
#define FMA32 FMA4, FMA4, FMA4, FMA4, FMA4, FMA4, FMA4, FMA4

/* warp = tid / 32; if (warp % stride == 0 && warp < 8 * stride) { FMAs; if (a == never)
 * out[gid] = a; } __syncthreads(); */
static const struct km_inst fma_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_OP2(KM_SHR, 1, KR(0), KI(5)),
    KM_OP2(KM_AND, 2, KR(1), KP(P_MASK)),
    KM_ISETP_(KM_NE, 0, KR(2), KRZ),
    KM_BRA_IF(0, "bar", "bar"),
    KM_ISETP_(KM_GE, 0, KR(1), KP(P_LIMIT)),
    KM_BRA_IF(0, "bar", "bar"),
    KM_MOV_(4, KF(1.0f)),
    KM_MOV_(5, KF(2.0f)),
    KM_MOV_(6, KF(3.0f)),
    KM_MOV_(7, KF(4.0f)),
    KM_MOV_(3, KP(P_NITER)), /* iters / 32 */
    KM_LBL("loop"),
    FMA32,
    KM_OP2(KM_IADD, 3, KR(3), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(3), KRZ),
    KM_BRA_IF(0, "loop", "check"),
    KM_LBL("check"),
    KM_ISETP_(KM_NE, 0, KR(4), KP(P_SENT)),
    KM_BRA_IF(0, "bar", "bar"),
    KM_S2R(8, SR_CTAID_X),
    KM_OP3(KM_IMAD, 8, KR(8), KS(SR_NTID_X), KR(0)),
    KM_OP3(KM_IMAD, 8, KR(8), KI(4), KP(P_OUT)),
    KM_STG(4, KR(8), 0, KR(4)),
    KM_LBL("bar"),
    KM_BAR_(),
    KM_EXIT_(),
};

enum fma_kind { FMA_BASE, FMA_IMB, FMA_BAL };

struct fma_cfg {
    int64_t iters, ctas;
};
static const struct cfg_key fma_keys[] = {
    {"workload.fma.iters", CFG_INT, offsetof(struct fma_cfg, iters), NULL, 32, 1 << 24, NULL,
     "FMAs",
     "FMAs per compute thread, a multiple of 32 (preset by workload.size: test 256, "
     "paper 4096)"},
    {"workload.fma.ctas", CFG_INT, offsetof(struct fma_cfg, ctas), NULL, 1, 1 << 20, NULL, "blocks",
     "thread blocks (test 4, paper 80)"},
};

struct fma {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog;
    enum fma_kind kind;
    uint32_t iters, ctas, threads;
    uint64_t d_out;
    bool launched;
};

static int fma_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct fma *f = (struct fma *)w;
    if (f->launched) return 0;
    struct km_launch l = {.prog = &f->prog, .grid = {f->ctas, 1, 1}, .block = {f->threads, 1, 1}};
    l.param[P_MASK] = f->kind == FMA_IMB ? 3 : 0;
    l.param[P_LIMIT] = f->kind == FMA_IMB ? 32 : 8;
    l.param[P_OUT] = (int64_t)f->d_out;
    l.param[P_SENT] = 0xbf800000; /* -1.0f: the accumulators stay positive */
    l.param[P_NITER] = f->iters / FMA_UNROLL;
    if (km_run_launch(f->kw.run, &l, k, e)) return -1;
    k->id = 0;
    f->launched = true;
    return 1;
}

static void fma_destroy(struct workload *w) {
    struct fma *f = (struct fma *)w;
    km_prog_free(&f->prog);
    km_wl_fini(&f->kw);
    free(f);
}

static const struct workload_vt fma_vt = {fma_next, km_wl_cta_start, km_wl_warp_next, km_wl_cta_end,
                                          NULL,     fma_destroy};

static struct workload *fma_create(struct cfg *c, const struct workload_common *wc,
                                   enum fma_kind kind, const char *name, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct fma_cfg fc = {paper ? 4096 : 256, paper ? 80 : 4};
    if (cfg_bind(c, "workload.fma", fma_keys, CFG_COUNT(fma_keys), &fc, e)) return NULL;
    char where[600];
    if (fc.iters % FMA_UNROLL)
        return ws_fail(e, "%s: workload.fma.iters = %lld must be a multiple of %d",
                       cfg_origin(c, "workload.fma.iters", where, sizeof where),
                       (long long)fc.iters, FMA_UNROLL),
               NULL;
    struct fma *f = calloc(1, sizeof *f);
    if (!f) return ws_fail(e, "%s: out of memory", name), NULL;
    if (km_wl_init(&f->kw, &fma_vt, name, e)) return free(f), NULL;
    f->kind = kind;
    f->iters = (uint32_t)fc.iters;
    f->ctas = (uint32_t)fc.ctas;
    f->threads = kind == FMA_BASE ? 256 : 1024;
    if (km_prog_build(&f->prog, "fma_kernel", 9, fma_code, CFG_COUNT(fma_code), e) ||
        !(f->d_out = devmem_alloc(f->kw.dm, 4ull * f->ctas * f->threads, "d_out", e))) {
        fma_destroy(&f->kw.base);
        return NULL;
    }
    return &f->kw.base;
}

struct workload *fmabase_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    return fma_create(c, wc, FMA_BASE, "fmabase", e);
}
struct workload *fmaimb_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    return fma_create(c, wc, FMA_IMB, "fmaimb", e);
}
struct workload *fmabal_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    return fma_create(c, wc, FMA_BAL, "fmabal", e);
}
