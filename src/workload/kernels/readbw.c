/* Read-bandwidth micro-benchmark: every thread streams 8-byte loads over an array in a
 * grid-stride loop and folds them into one value, so the run is bound by how fast the memory
 * system delivers reads. It is the simulator's twin of `bw_read` in tools/gpuprobe/gpuprobe.cu
 * (which loads 16 bytes per lane; kmodel's widest load is 8), the probe the machine presets'
 * bandwidth is calibrated against (docs/calibration.md):
 *
 *   __global__ void readbw(const uint64_t *a, size_t n, uint64_t *sink) {
 *       uint64_t x = 0;
 *       for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
 *            i += gridDim.x * blockDim.x)
 *           x ^= a[i];
 *       if (x == MAGIC) sink[0] = x;   // keeps the loads; the zeroed array never gives MAGIC
 *   }
 *
 * The array is allocated (zeroed, as after cudaMemset) and not copied from the host, so the L2
 * starts cold: every line comes from DRAM once. */
#include <stddef.h>
#include <stdlib.h>

#include "workload/kernels/kmodel.h"

enum { RB_BLOCK = 512 };
enum { P_A, P_N, P_SINK };
#define RB_MAGIC 0x5eed5eed5eed5eedLL

static const struct km_inst readbw_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)),    /* i */
    KM_OP2(KM_IMUL, 1, KS(SR_NCTAID_X), KS(SR_NTID_X)), /* stride */
    KM_MOV_(2, KI(0)),                                  /* x */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_N)),
    KM_BRA_IF(0, "done", "done"),
    KM_LBL("loop"),
    KM_OP3(KM_IMAD, 4, KR(0), KI(8), KP(P_A)), /* &a[i] */
    KM_LDG(8, 6, KR(4), 0),
    KM_OP2(KM_XOR, 2, KR(2), KR(6)),
    KM_OP2(KM_IADD, 0, KR(0), KR(1)),
    KM_ISETP_(KM_LT, 0, KR(0), KP(P_N)),
    KM_BRA_IF(0, "loop", "done"),
    KM_LBL("done"),
    KM_ISETP_(KM_NE, 1, KR(2), KI(RB_MAGIC)),
    KM_BRA_IF(1, "end", "end"),
    KM_MOV_(7, KP(P_SINK)),
    KM_STG(8, KR(7), 0, KR(2)),
    KM_LBL("end"),
    KM_EXIT_(),
};

struct readbw_cfg {
    int64_t bytes, blocks;
};
#define RO(f) offsetof(struct readbw_cfg, f)
static const struct cfg_key readbw_keys[] = {
    {"workload.readbw.bytes", CFG_INT, RO(bytes), NULL, 8, 1LL << 34, NULL, "bytes",
     "bytes read, a multiple of 8 (preset by workload.size: test 4 MiB, paper 256 MiB)"},
    {"workload.readbw.blocks", CFG_INT, RO(blocks), NULL, 1, 1 << 20, NULL, "CTAs",
     "CTAs of 512 threads (preset by workload.size: test 64, paper 1056 = 8 per SM of an "
     "H100, as the probe launches)"},
};

struct readbw {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog;
    struct readbw_cfg cfg;
    uint64_t d_a, d_sink;
    bool launched;
};

static int readbw_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct readbw *r = (struct readbw *)w;
    if (r->launched) return 0;
    struct km_launch l = {
        .prog = &r->prog, .grid = {(uint32_t)r->cfg.blocks, 1, 1}, .block = {RB_BLOCK, 1, 1}};
    l.param[P_A] = (int64_t)r->d_a;
    l.param[P_N] = r->cfg.bytes / 8;
    l.param[P_SINK] = (int64_t)r->d_sink;
    if (km_run_launch(r->kw.run, &l, k, e)) return -1;
    k->id = 0;
    r->launched = true;
    return 1;
}

static int readbw_verify(struct workload *w, struct ws_err *e) {
    struct readbw *r = (struct readbw *)w;
    const uint64_t *sink = devmem_host(r->kw.dm, r->d_sink, 8);
    if (sink[0] != 0) return ws_fail(e, "readbw: the fold of a zeroed array was stored");
    return 0;
}

static void readbw_destroy(struct workload *w) {
    struct readbw *r = (struct readbw *)w;
    km_prog_free(&r->prog);
    km_wl_fini(&r->kw);
    free(r);
}

static const struct workload_vt readbw_vt = {readbw_next,   km_wl_cta_start, km_wl_warp_next,
                                             km_wl_cta_end, readbw_verify,   readbw_destroy};

struct workload *readbw_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct readbw_cfg rc = {paper ? 256LL << 20 : 4LL << 20, paper ? 1056 : 64};
    if (cfg_bind(c, "workload.readbw", readbw_keys, CFG_COUNT(readbw_keys), &rc, e)) return NULL;
    if (rc.bytes % 8)
        return ws_fail(e, "workload.readbw.bytes = %lld is not a multiple of 8",
                       (long long)rc.bytes),
               NULL;
    struct readbw *r = calloc(1, sizeof *r);
    if (!r) return ws_fail(e, "readbw: out of memory"), NULL;
    if (km_wl_init(&r->kw, &readbw_vt, "readbw", e)) return free(r), NULL;
    r->cfg = rc;
    if (km_prog_build(&r->prog, "readbw", 16, readbw_code, CFG_COUNT(readbw_code), e) ||
        !(r->d_a = devmem_alloc(r->kw.dm, (uint64_t)rc.bytes, "a", e)) ||
        !(r->d_sink = devmem_alloc(r->kw.dm, 8, "sink", e))) {
        readbw_destroy(&r->kw.base);
        return NULL;
    }
    return &r->kw.base;
}
