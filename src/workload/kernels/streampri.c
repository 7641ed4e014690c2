/* Stream priorities (seed 000's SMP), as CUDA samples run it (Samples/3_CUDA_Features/
 * StreamPriorities/StreamPriorities.cu, kernel memcpy_kernel): a grid-stride int copy,
 * dst[i] = src[i] for i = id, id + gridDim.x * blockDim.x, ... < n / 4, launched with TBLOCKS =
 * 1024 blocks of THREADS = 512. Two buffers of TOTAL_SIZE bytes per stream; the host copies them
 * in EACH_SIZE = TOTAL_SIZE / 2 pieces, alternating a low- and a high-priority stream:
 * low(piece 0), high(piece 0), low(piece 1), high(piece 1). warpsim runs one kernel at a time,
 * so the two streams' kernels run one after the other in that launch order rather than
 * overlapping. Device arrays in the sample's cudaMalloc order: d_src_low, d_src_hi, d_dst_low,
 * d_dst_hi; the sources (buf[i] = i) are copied to the device first.
 *
 * Sizes: paper size is the sample's TOTAL_SIZE, 256 MiB per buffer (1 GiB of device memory,
 * which warpsim keeps as host copies: about 1 GiB resident by the end of a run; 64 grid-stride
 * iterations per thread per launch), test size 8 MiB; workload.streampri.bytes sets any multiple
 * of 8. The loop is modelled rolled (7 instructions per iteration). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

enum { SP_TBLOCKS = 1024, SP_THREADS = 512 };
enum { P_DST, P_SRC, P_N };

/* for (int i = id; i < n / sizeof(int); i += gridDim.x * blockDim.x) dst[i] = src[i]; */
static const struct km_inst copy_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KS(SR_NTID_X), KR(1), KR(0)),    /* id = blockDim.x * blockIdx.x + tid */
    KM_OP2(KM_IMUL, 2, KS(SR_NCTAID_X), KS(SR_NTID_X)), /* num */
    KM_OP2(KM_SHR, 3, KP(P_N), KI(2)),                  /* n / sizeof(int) */
    KM_ISETP_(KM_GE, 0, KR(0), KR(3)),
    KM_BRA_IF(0, "end", "end"),
    KM_LBL("loop"),
    KM_OP3(KM_IMAD, 4, KR(0), KI(4), KP(P_SRC)),
    KM_LDG(4, 5, KR(4), 0),
    KM_OP3(KM_IMAD, 6, KR(0), KI(4), KP(P_DST)),
    KM_STG(4, KR(6), 0, KR(5)),
    KM_OP2(KM_IADD, 0, KR(0), KR(2)),
    KM_ISETP_(KM_LT, 0, KR(0), KR(3)),
    KM_BRA_IF(0, "loop", "end"),
    KM_LBL("end"),
    KM_EXIT_(),
};

struct streampri_cfg {
    int64_t bytes;
};
static const struct cfg_key streampri_keys[] = {
    {"workload.streampri.bytes", CFG_INT, offsetof(struct streampri_cfg, bytes), NULL, 8, 1ll << 30,
     NULL, "B",
     "TOTAL_SIZE, bytes per buffer, a multiple of 8 (preset by workload.size: test 8 MiB, paper "
     "256 MiB as the sample)"},
};

struct streampri {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog;
    uint64_t total;
    uint64_t src_low, src_hi, dst_low, dst_hi;
    uint32_t launches;
    struct wl_copy copies[2];
};

static int streampri_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct streampri *s = (struct streampri *)w;
    if (s->launches == 4) return 0;
    uint64_t each = s->total / 2, off = each * (s->launches / 2);
    bool hi = s->launches % 2;
    struct km_launch l = {
        .prog = &s->prog, .grid = {SP_TBLOCKS, 1, 1}, .block = {SP_THREADS, 1, 1}};
    l.param[P_DST] = (int64_t)((hi ? s->dst_hi : s->dst_low) + off);
    l.param[P_SRC] = (int64_t)((hi ? s->src_hi : s->src_low) + off);
    l.param[P_N] = (int64_t)each;
    if (km_run_launch(s->kw.run, &l, k, e)) return -1;
    k->id = s->launches;
    k->copies = s->copies;
    k->ncopies = s->launches == 0 ? 2 : 0;
    s->launches++;
    return 1;
}

static int streampri_verify(struct workload *w, struct ws_err *e) {
    struct streampri *s = (struct streampri *)w;
    const uint64_t src[2] = {s->src_low, s->src_hi}, dst[2] = {s->dst_low, s->dst_hi};
    for (int b = 0; b < 2; b++) {
        const int32_t *d = devmem_host(s->kw.dm, dst[b], s->total);
        const int32_t *x = devmem_host(s->kw.dm, src[b], s->total);
        for (uint64_t i = 0; i < s->total / 4; i++)
            if (d[i] != x[i])
                return ws_fail(e, "streampri: %s[%llu] = %d, the source holds %d",
                               b ? "d_dst_hi" : "d_dst_low", (unsigned long long)i, d[i], x[i]);
    }
    return 0;
}

static void streampri_destroy(struct workload *w) {
    struct streampri *s = (struct streampri *)w;
    km_prog_free(&s->prog);
    km_wl_fini(&s->kw);
    free(s);
}

static const struct workload_vt streampri_vt = {streampri_next,   km_wl_cta_start,
                                                km_wl_warp_next,  km_wl_cta_end,
                                                streampri_verify, streampri_destroy};

struct workload *streampri_create(struct cfg *c, const struct workload_common *wc,
                                  struct ws_err *e) {
    struct streampri_cfg sc = {wc->size == WL_SIZE_PAPER ? 256ll << 20 : 8ll << 20};
    if (cfg_bind(c, "workload.streampri", streampri_keys, CFG_COUNT(streampri_keys), &sc, e))
        return NULL;
    char where[600];
    if (sc.bytes % 8)
        return ws_fail(e,
                       "%s: workload.streampri.bytes = %lld must be a multiple of 8 (two "
                       "halves of whole ints)",
                       cfg_origin(c, "workload.streampri.bytes", where, sizeof where),
                       (long long)sc.bytes),
               NULL;
    struct streampri *s = calloc(1, sizeof *s);
    if (!s) return ws_fail(e, "streampri: out of memory"), NULL;
    if (km_wl_init(&s->kw, &streampri_vt, "streampri", e)) return free(s), NULL;
    s->total = (uint64_t)sc.bytes;
    if (km_prog_build(&s->prog, "memcpy_kernel", 8, copy_code, CFG_COUNT(copy_code), e) ||
        !(s->src_low = devmem_alloc(s->kw.dm, s->total, "d_src_low", e)) ||
        !(s->src_hi = devmem_alloc(s->kw.dm, s->total, "d_src_hi", e)) ||
        !(s->dst_low = devmem_alloc(s->kw.dm, s->total, "d_dst_low", e)) ||
        !(s->dst_hi = devmem_alloc(s->kw.dm, s->total, "d_dst_hi", e))) {
        streampri_destroy(&s->kw.base);
        return NULL;
    }
    int32_t *lo = devmem_host(s->kw.dm, s->src_low, s->total);
    int32_t *hi = devmem_host(s->kw.dm, s->src_hi, s->total);
    for (uint64_t i = 0; i < s->total / 4; i++) lo[i] = hi[i] = (int32_t)i; /* mem_init */
    s->copies[0] = (struct wl_copy){s->src_low, s->total};
    s->copies[1] = (struct wl_copy){s->src_hi, s->total};
    return &s->kw.base;
}
