/* doitgen, the "multiresolution analysis kernel (MADNESS)" of PolyBench (seed 000's DIT), as
 * PolyBench/GPU 1.0 runs it (CUDA/DOITGEN/doitgen.cu: host doitgenCuda, kernels doitgen_kernel1
 * and doitgen_kernel2). For r = 0 .. nr-1 the host launches kernel1 (one thread per (q, p),
 * blocks of 32 x 8: sum[r][q][p] = sum_s A[r][q][s] * C4[s][p]) and kernel2 (A[r][q][p] =
 * sum[r][q][p]) on a grid of ceil(np / 32) x ceil(nr / 8) blocks. A warp is one q and 32
 * consecutive p: A[r][q][s] is one word for all lanes, C4[s][p] and sum[r][q][p] one 128-byte line.
 * sum is a plain global pointer that may alias A and C4, so kernel1 stores it every iteration
 * (sum = sum + A * C4, contracted to one FFMA); its value is forwarded from that store (only loads
 * come between), so it is not loaded. nvcc 13 (sm_75 PTX) unrolls the s loop by 4, C4 loaded
 * before A in each step, with a remainder loop for np % 4; so does the model. Device arrays in
 * doitgenCuda's cudaMalloc order: AGpu, C4Gpu, sumGpu, all three copied to the device (sum as
 * zeros). Data as init_array: A[i][j][k] = (i * j + k) / np, C4[i][j] = i * j / np.
 *
 * kernel1 uses 28 registers (ptxas for sm_75). Sizes (nr = nq = np = n): test 32 (MINI_DATASET),
 * paper 128 (STANDARD_DATASET, the default); workload.doitgen.n sets any other. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

enum { DG_BX = 32, DG_BY = 8 };
enum { P_NR, P_NQ, P_NP, P_SUM, P_A, P_C4, P_R };

static const struct km_inst k1_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* p */
    KM_S2R(2, SR_TID_Y),
    KM_S2R(3, SR_CTAID_Y),
    KM_OP3(KM_IMAD, 2, KR(3), KS(SR_NTID_Y), KR(2)), /* q */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_NP)),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_GE, 0, KR(2), KP(P_NQ)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 4, KP(P_R), KP(P_NQ), KR(2)),
    KM_OP3(KM_IMAD, 4, KR(4), KP(P_NP), KRZ), /* (r * nq + q) * np */
    KM_OP2(KM_IADD, 5, KR(4), KR(0)),
    KM_OP3(KM_IMAD, 5, KR(5), KI(4), KP(P_SUM)), /* &sum[r][q][p] */
    KM_STG(4, KR(5), 0, KRZ),                    /* sum[r][q][p] = 0 */
    KM_OP3(KM_IMAD, 6, KR(4), KI(4), KP(P_A)),   /* &A[r][q][0] */
    KM_OP3(KM_IMAD, 7, KR(0), KI(4), KP(P_C4)),  /* &C4[0][p] */
    KM_OP2(KM_SHL, 8, KP(P_NP), KI(2)),          /* C4 row stride */
    KM_ISETP_(KM_LE, 0, KP(P_NP), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_MOV_(10, KRZ),                    /* the running sum, kept in a register */
    KM_OP2(KM_AND, 13, KP(P_NP), KI(3)), /* np % 4: the remainder loop's trips */
    KM_OP2(KM_ISUB, 9, KP(P_NP), KR(13)),
    KM_ISETP_(KM_EQ, 0, KR(9), KRZ),
    KM_BRA_IF(0, "rest", "rest"),
    KM_LBL("loop4"), /* four iterations: C4[s][p], A[r][q][s], FFMA, store, each */
    KM_LDG(4, 12, KR(7), 0),
    KM_LDG(4, 11, KR(6), 0),
    KM_OP3(KM_FFMA, 10, KR(11), KR(12), KR(10)),
    KM_STG(4, KR(5), 0, KR(10)),
    KM_OP2(KM_IADD, 7, KR(7), KR(8)),
    KM_LDG(4, 12, KR(7), 0),
    KM_LDG(4, 11, KR(6), 4),
    KM_OP3(KM_FFMA, 10, KR(11), KR(12), KR(10)),
    KM_STG(4, KR(5), 0, KR(10)),
    KM_OP2(KM_IADD, 7, KR(7), KR(8)),
    KM_LDG(4, 12, KR(7), 0),
    KM_LDG(4, 11, KR(6), 8),
    KM_OP3(KM_FFMA, 10, KR(11), KR(12), KR(10)),
    KM_STG(4, KR(5), 0, KR(10)),
    KM_OP2(KM_IADD, 7, KR(7), KR(8)),
    KM_LDG(4, 12, KR(7), 0),
    KM_LDG(4, 11, KR(6), 12),
    KM_OP3(KM_FFMA, 10, KR(11), KR(12), KR(10)),
    KM_STG(4, KR(5), 0, KR(10)),
    KM_OP2(KM_IADD, 7, KR(7), KR(8)),
    KM_OP2(KM_IADD, 6, KR(6), KI(16)),
    KM_OP2(KM_IADD, 9, KR(9), KI(-4)),
    KM_ISETP_(KM_NE, 0, KR(9), KRZ),
    KM_BRA_IF(0, "loop4", "rest"),
    KM_LBL("rest"),
    KM_ISETP_(KM_EQ, 0, KR(13), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_LBL("loop1"),
    KM_LDG(4, 12, KR(7), 0), /* C4[s][p] */
    KM_LDG(4, 11, KR(6), 0), /* A[r][q][s] */
    KM_OP3(KM_FFMA, 10, KR(11), KR(12), KR(10)),
    KM_STG(4, KR(5), 0, KR(10)),
    KM_OP2(KM_IADD, 6, KR(6), KI(4)),
    KM_OP2(KM_IADD, 7, KR(7), KR(8)),
    KM_OP2(KM_IADD, 13, KR(13), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(13), KRZ),
    KM_BRA_IF(0, "loop1", "end"),
    KM_LBL("end"),
    KM_EXIT_(),
};

static const struct km_inst k2_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* p */
    KM_S2R(2, SR_TID_Y),
    KM_S2R(3, SR_CTAID_Y),
    KM_OP3(KM_IMAD, 2, KR(3), KS(SR_NTID_Y), KR(2)), /* q */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_NP)),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_GE, 0, KR(2), KP(P_NQ)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 4, KP(P_R), KP(P_NQ), KR(2)),
    KM_OP3(KM_IMAD, 4, KR(4), KP(P_NP), KR(0)), /* (r * nq + q) * np + p */
    KM_OP3(KM_IMAD, 5, KR(4), KI(4), KP(P_SUM)),
    KM_LDG(4, 6, KR(5), 0),
    KM_OP3(KM_IMAD, 7, KR(4), KI(4), KP(P_A)),
    KM_STG(4, KR(7), 0, KR(6)), /* A[r][q][p] = sum[r][q][p] */
    KM_LBL("end"),
    KM_EXIT_(),
};

struct doitgen_cfg {
    int64_t n;
};
static const struct cfg_key doitgen_keys[] = {
    {"workload.doitgen.n", CFG_INT, offsetof(struct doitgen_cfg, n), NULL, 1, 1024, NULL, "",
     "nr = nq = np (preset by workload.size: test 32, paper 128)"},
};

struct doitgen {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog k1, k2;
    uint32_t n;
    uint64_t d_a, d_c4, d_sum;
    uint32_t launches;
    struct wl_copy copies[3];
};

static int doitgen_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct doitgen *d = (struct doitgen *)w;
    if (d->launches == 2 * d->n) return 0;
    struct km_launch l = {.prog = d->launches % 2 ? &d->k2 : &d->k1,
                          .grid = {(d->n + DG_BX - 1) / DG_BX, (d->n + DG_BY - 1) / DG_BY, 1},
                          .block = {DG_BX, DG_BY, 1}};
    l.param[P_NR] = l.param[P_NQ] = l.param[P_NP] = d->n;
    l.param[P_SUM] = (int64_t)d->d_sum;
    l.param[P_A] = (int64_t)d->d_a;
    l.param[P_C4] = (int64_t)d->d_c4;
    l.param[P_R] = d->launches / 2;
    if (km_run_launch(d->kw.run, &l, k, e)) return -1;
    k->id = d->launches;
    k->copies = d->copies;
    k->ncopies = d->launches == 0 ? 3 : 0;
    d->launches++;
    return 1;
}

static float init_a(uint32_t i, uint32_t j, uint32_t k, uint32_t np) {
    return ((float)i * (float)j + (float)k) / (float)np;
}

/* kernel_doitgenCpu with the GPU's fused multiply-add: sum, and A after the copy-back. */
static int doitgen_verify(struct workload *w, struct ws_err *e) {
    struct doitgen *d = (struct doitgen *)w;
    uint32_t n = d->n;
    size_t n3 = (size_t)n * n * n;
    const float *a = devmem_host(d->kw.dm, d->d_a, 4 * n3),
                *s = devmem_host(d->kw.dm, d->d_sum, 4 * n3);
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t q = 0; q < n; q++)
            for (uint32_t p = 0; p < n; p++) {
                float acc = 0.0f;
                for (uint32_t x = 0; x < n; x++)
                    acc = fmaf(init_a(r, q, x, n), (float)x * (float)p / (float)n, acc);
                size_t i = ((size_t)r * n + q) * n + p;
                if (memcmp(&s[i], &acc, 4) || memcmp(&a[i], &acc, 4))
                    return ws_fail(e, "doitgen: sum[%u][%u][%u] = %g and A = %g, the host says %g",
                                   r, q, p, s[i], a[i], acc);
            }
    return 0;
}

static void doitgen_destroy(struct workload *w) {
    struct doitgen *d = (struct doitgen *)w;
    km_prog_free(&d->k1);
    km_prog_free(&d->k2);
    km_wl_fini(&d->kw);
    free(d);
}

static const struct workload_vt doitgen_vt = {doitgen_next,  km_wl_cta_start, km_wl_warp_next,
                                              km_wl_cta_end, doitgen_verify,  doitgen_destroy};

struct workload *doitgen_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct doitgen_cfg dc = {wc->size == WL_SIZE_PAPER ? 128 : 32};
    if (cfg_bind(c, "workload.doitgen", doitgen_keys, CFG_COUNT(doitgen_keys), &dc, e)) return NULL;
    struct doitgen *d = calloc(1, sizeof *d);
    if (!d) return ws_fail(e, "doitgen: out of memory"), NULL;
    if (km_wl_init(&d->kw, &doitgen_vt, "doitgen", e)) return free(d), NULL;
    d->n = (uint32_t)dc.n;
    uint64_t n = d->n, n3 = n * n * n;
    if (km_prog_build(&d->k1, "doitgen_kernel1", 28, k1_code, CFG_COUNT(k1_code), e) ||
        km_prog_build(&d->k2, "doitgen_kernel2", 8, k2_code, CFG_COUNT(k2_code), e) ||
        !(d->d_a = devmem_alloc(d->kw.dm, 4 * n3, "AGpu", e)) ||
        !(d->d_c4 = devmem_alloc(d->kw.dm, 4 * n * n, "C4Gpu", e)) ||
        !(d->d_sum = devmem_alloc(d->kw.dm, 4 * n3, "sumGpu", e))) {
        doitgen_destroy(&d->kw.base);
        return NULL;
    }
    float *a = devmem_host(d->kw.dm, d->d_a, 4 * n3),
          *c4 = devmem_host(d->kw.dm, d->d_c4, 4 * n * n);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            c4[(size_t)i * n + j] = (float)i * (float)j / (float)n;
            for (uint32_t k = 0; k < n; k++) a[((size_t)i * n + j) * n + k] = init_a(i, j, k, d->n);
        }
    d->copies[0] = (struct wl_copy){d->d_a, 4 * n3};
    d->copies[1] = (struct wl_copy){d->d_c4, 4 * n * n};
    d->copies[2] = (struct wl_copy){d->d_sum, 4 * n3};
    return &d->kw.base;
}
