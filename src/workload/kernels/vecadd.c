/* Vector add, the streaming micro-benchmark: c[i] = a[i] + b[i] over n floats, one thread per
 * element, 256 threads per block. Follows CUDA samples' vectorAdd (Samples/0_Introduction/
 * vectorAdd/vectorAdd.cu, kernel vectorAdd): d_A, d_B, d_C allocated in that order, A and B
 * copied to the device, one launch of ceil(n / 256) blocks. Every warp-load covers one 128-byte
 * line: the LOA end of seed 000's classes. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/kernels/kmodel.h"

enum { VA_BLOCK = 256 };
enum { P_A, P_B, P_C, P_N };

/* i = blockDim.x * blockIdx.x + threadIdx.x; if (i < n) C[i] = A[i] + B[i]; */
static const struct km_inst vecadd_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* i */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_N)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_A)), /* &A[i] (IMAD.WIDE) */
    KM_OP3(KM_IMAD, 4, KR(0), KI(4), KP(P_B)), /* &B[i] */
    KM_LDG(4, 6, KR(2), 0),
    KM_LDG(4, 7, KR(4), 0),
    KM_OP2(KM_FADD, 6, KR(6), KR(7)),
    KM_OP3(KM_IMAD, 8, KR(0), KI(4), KP(P_C)), /* &C[i] */
    KM_STG(4, KR(8), 0, KR(6)),
    KM_LBL("end"),
    KM_EXIT_(),
};

struct vecadd_cfg {
    int64_t n;
};
static const struct cfg_key vecadd_keys[] = {
    {"workload.vecadd.n", CFG_INT, offsetof(struct vecadd_cfg, n), NULL, 1, 1 << 28, NULL, "floats",
     "vector length (preset by workload.size: test 1048576, paper 4194304)"},
};

struct vecadd {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog;
    uint32_t n;
    uint64_t a, b, c;
    struct wl_copy copies[2];
    bool launched;
};

static int vecadd_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct vecadd *v = (struct vecadd *)w;
    if (v->launched) return 0;
    struct km_launch l = {.prog = &v->prog,
                          .grid = {(v->n + VA_BLOCK - 1) / VA_BLOCK, 1, 1},
                          .block = {VA_BLOCK, 1, 1}};
    l.param[P_A] = (int64_t)v->a;
    l.param[P_B] = (int64_t)v->b;
    l.param[P_C] = (int64_t)v->c;
    l.param[P_N] = v->n;
    if (km_run_launch(v->kw.run, &l, k, e)) return -1;
    k->id = 0;
    k->copies = v->copies;
    k->ncopies = 2;
    v->launched = true;
    return 1;
}

static int vecadd_verify(struct workload *w, struct ws_err *e) {
    struct vecadd *v = (struct vecadd *)w;
    const float *a = devmem_host(v->kw.dm, v->a, 4ull * v->n);
    const float *b = devmem_host(v->kw.dm, v->b, 4ull * v->n);
    const float *c = devmem_host(v->kw.dm, v->c, 4ull * v->n);
    for (uint32_t i = 0; i < v->n; i++)
        if (c[i] != a[i] + b[i])
            return ws_fail(e, "vecadd: C[%u] = %g, expected %g + %g", i, c[i], a[i], b[i]);
    return 0;
}

static void vecadd_destroy(struct workload *w) {
    struct vecadd *v = (struct vecadd *)w;
    km_prog_free(&v->prog);
    km_wl_fini(&v->kw);
    free(v);
}

static const struct workload_vt vecadd_vt = {vecadd_next,   km_wl_cta_start, km_wl_warp_next,
                                             km_wl_cta_end, vecadd_verify,   vecadd_destroy};

struct workload *vecadd_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct vecadd_cfg vc = {wc->size == WL_SIZE_PAPER ? 4194304 : 1048576};
    if (cfg_bind(c, "workload.vecadd", vecadd_keys, CFG_COUNT(vecadd_keys), &vc, e)) return NULL;
    struct vecadd *v = calloc(1, sizeof *v);
    if (!v) return ws_fail(e, "vecadd: out of memory"), NULL;
    if (km_wl_init(&v->kw, &vecadd_vt, "vecadd", e)) return free(v), NULL;
    v->n = (uint32_t)vc.n;
    uint64_t bytes = 4ull * v->n;
    if (km_prog_build(&v->prog, "vectorAdd", 10, vecadd_code, CFG_COUNT(vecadd_code), e) ||
        !(v->a = devmem_alloc(v->kw.dm, bytes, "d_A", e)) ||
        !(v->b = devmem_alloc(v->kw.dm, bytes, "d_B", e)) ||
        !(v->c = devmem_alloc(v->kw.dm, bytes, "d_C", e))) {
        vecadd_destroy(&v->kw.base);
        return NULL;
    }
    /* Inputs: small multiples of 1/8, so every sum is exact and easy to read in a dump. */
    struct ws_rng r;
    ws_rng_seed(&r, (uint64_t)wc->seed);
    float *a = devmem_host(v->kw.dm, v->a, bytes), *b = devmem_host(v->kw.dm, v->b, bytes);
    for (uint32_t i = 0; i < v->n; i++) {
        a[i] = (float)ws_rng_below(&r, 8192) / 8.0f;
        b[i] = (float)ws_rng_below(&r, 8192) / 8.0f;
    }
    v->copies[0] = (struct wl_copy){v->a, bytes};
    v->copies[1] = (struct wl_copy){v->b, bytes};
    return &v->kw.base;
}
