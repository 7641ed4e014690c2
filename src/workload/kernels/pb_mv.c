/* The matrix-vector kernels of PolyBench/GPU 1.0 (Grauer-Gray et al.), one thread per output
 * element, 256 x 1 threads per block, as their CUDA versions map threads to data:
 *   atax     CUDA/ATAX/atax.cu       atax_kernel1: tmp[i] += A[i][j] * x[j]    (thread i: row walk)
 *                                    atax_kernel2: y[j] += A[i][j] * tmp[i]    (thread j: column
 * walk) bicg     CUDA/BICG/bicg.cu       bicg_kernel1: s[j] = 0; s[j] += A[i][j] * r[i]   (column
 * walk) bicg_kernel2: q[i] = 0; q[i] += A[i][j] * p[j]   (row walk) mvt      CUDA/MVT/mvt.cu
 * mvt_kernel1: x1[i] += a[i][j] * y_1[j]    (row walk) mvt_kernel2: x2[i] += a[j][i] * y_2[j]
 * (column walk) gesummv  CUDA/GESUMMV/gesummv.cu gesummv_kernel: tmp[i] += A[i][j] * x[j]; y[i] +=
 * B[i][j] * x[j]; then y[i] = ALPHA * tmp[i] + BETA * y[i]   (row walks) In a row walk the 32 lanes
 * of a warp read 32 rows at once, a stride of one row (ny floats) per lane: the uncoalesced,
 * divergent load (32 lines; with 8K-float rows, 2^15 bytes apart, all in one set of a linearly
 * indexed 32-set L1D). In a column walk the lanes read one line and the vector element is one word
 * for the warp.
 *
 * The accumulator is a global element (no restrict): nvcc stores it every iteration. In the
 * single-accumulator kernels the next iteration only loads, so the stored value is forwarded and
 * the element is loaded once before the loop (stored as 0 first in BICG); gesummv's two
 * accumulators alias each other and x as far as the compiler knows, so its loop reloads tmp[i],
 * x[j] and y[i] after each store. Products are fused (FFMA) as nvcc contracts them; the loops are
 * modelled rolled. Arrays are cudaMalloc'd in each <bench>Cuda's order and all copied in.
 *
 * Sizes: test 512 (every dimension); paper: ATAX and BICG 8K x 8K, MVT 8K (seed 001 Table 3.2),
 * GESUMMV 4K (seed 001's GES, PolyBench/GPU's default N, seed 000's GMV). workload.<name>.nx/ny
 * (or .n) set any other. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "workload/kernels/polybench.h"

#define PB_PI 3.14159265358979323846
enum { MV_BLOCK = 256 };
enum { P_OUT, P_A, P_V, P_NT, P_K, P_TS, P_KS };

/* out[t] (+)= sum_k A[t * TS + k * KS] * v[k] for t < NT, k < K (byte strides TS and KS); one
 * table for the four accumulate-into-global kernels, built under each CUDA kernel's name. */
#define MV_CODE(...)                                                                               \
    KM_S2R(0, SR_TID_X), KM_S2R(1, SR_CTAID_X),                                                    \
        KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* t */                                   \
        KM_ISETP_(KM_GE, 0, KR(0), KP(P_NT)), KM_BRA_IF(0, "end", "end"),                          \
        KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_OUT)), /* &out[t] */                                 \
        __VA_ARGS__, KM_ISETP_(KM_LE, 0, KP(P_K), KRZ), KM_BRA_IF(0, "end", "end"),                \
        KM_OP3(KM_IMAD, 4, KR(0), KP(P_TS), KP(P_A)), /* &A[t][0] */                               \
        KM_MOV_(5, KP(P_V)), KM_MOV_(6, KP(P_K)), KM_LBL("loop"), KM_LDG(4, 7, KR(4), 0),          \
        KM_LDG(4, 8, KR(5), 0), KM_OP3(KM_FFMA, 3, KR(7), KR(8), KR(3)),                           \
        KM_STG(4, KR(2), 0, KR(3)), KM_OP2(KM_IADD, 4, KR(4), KP(P_KS)),                           \
        KM_OP2(KM_IADD, 5, KR(5), KI(4)), KM_OP2(KM_IADD, 6, KR(6), KI(-1)),                       \
        KM_ISETP_(KM_NE, 0, KR(6), KRZ), KM_BRA_IF(0, "loop", "end"), KM_LBL("end"), KM_EXIT_()

/* out[t] loaded once (ATAX, MVT) */
static const struct km_inst mv_acc[] = {MV_CODE(KM_LDG(4, 3, KR(2), 0))};
/* out[t] = 0 first (BICG); the 0 is forwarded */
static const struct km_inst mv_zero[] = {MV_CODE(KM_STG(4, KR(2), 0, KRZ), KM_MOV_(3, KRZ))};

enum { G_A, G_B, G_X, G_Y, G_TMP, G_N };
#define GES_ALPHA 43532.0f
#define GES_BETA  12313.0f
static const struct km_inst ges_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* i */
    KM_ISETP_(KM_GE, 0, KR(0), KP(G_N)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(G_TMP)), /* &tmp[i] */
    KM_OP3(KM_IMAD, 3, KR(0), KI(4), KP(G_Y)),   /* &y[i] */
    KM_ISETP_(KM_LE, 0, KP(G_N), KRZ),
    KM_BRA_IF(0, "tail", "tail"),
    KM_OP2(KM_SHL, 4, KP(G_N), KI(2)),
    KM_OP3(KM_IMUL, 4, KR(4), KR(0), KRZ),
    KM_OP2(KM_IADD, 5, KR(4), KP(G_B)), /* &B[i][0] */
    KM_OP2(KM_IADD, 4, KR(4), KP(G_A)), /* &A[i][0] */
    KM_MOV_(6, KP(G_X)),
    KM_MOV_(7, KP(G_N)),
    KM_LBL("loop"),
    KM_LDG(4, 8, KR(4), 0),  /* A[i][j] */
    KM_LDG(4, 9, KR(6), 0),  /* x[j] */
    KM_LDG(4, 10, KR(2), 0), /* tmp[i] */
    KM_OP3(KM_FFMA, 10, KR(8), KR(9), KR(10)),
    KM_STG(4, KR(2), 0, KR(10)),
    KM_LDG(4, 11, KR(5), 0), /* B[i][j] */
    KM_LDG(4, 12, KR(6), 0), /* x[j] again: the store may have changed it */
    KM_LDG(4, 13, KR(3), 0), /* y[i] */
    KM_OP3(KM_FFMA, 13, KR(11), KR(12), KR(13)),
    KM_STG(4, KR(3), 0, KR(13)),
    KM_OP2(KM_IADD, 4, KR(4), KI(4)),
    KM_OP2(KM_IADD, 5, KR(5), KI(4)),
    KM_OP2(KM_IADD, 6, KR(6), KI(4)),
    KM_OP2(KM_IADD, 7, KR(7), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(7), KRZ),
    KM_BRA_IF(0, "loop", "tail"),
    KM_LBL("tail"),
    KM_LDG(4, 10, KR(2), 0), /* tmp[i] */
    KM_LDG(4, 13, KR(3), 0), /* y[i] */
    KM_OP2(KM_FMUL, 13, KR(13), KF(GES_BETA)),
    KM_OP3(KM_FFMA, 13, KR(10), KF(GES_ALPHA), KR(13)),
    KM_STG(4, KR(3), 0, KR(13)),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* ---- the shared shape: two launches of one mv program each ------------------------------- */

struct mv_step {
    uint32_t prog, out, a, v; /* program and array indices */
    int64_t nt, k, ts, ks;    /* threads, trip count, byte strides per thread and per k */
};
struct mv_cfg {
    int64_t nx, ny;
};

static void mv_fill(struct pb *p, const struct mv_step *s, struct km_launch *l) {
    pb_launch_init(l, p, s->prog, pb_blocks(s->nt, MV_BLOCK), 1, MV_BLOCK, 1);
    l->param[P_OUT] = (int64_t)p->d[s->out];
    l->param[P_A] = (int64_t)p->d[s->a];
    l->param[P_V] = (int64_t)p->d[s->v];
    l->param[P_NT] = s->nt;
    l->param[P_K] = s->k;
    l->param[P_TS] = s->ts;
    l->param[P_KS] = s->ks;
}

/* Host check of out[t] (+)= sum_k A * v in the kernel's order; out starts as *out (or 0). */
static int mv_check(struct pb *p, const char *what, uint32_t out, const float *init, uint32_t a,
                    const float *v, int64_t nt, int64_t k, int64_t ts, int64_t ks,
                    struct ws_err *e) {
    const float *A = pb_host(p, a), *o = pb_host(p, out);
    for (int64_t t = 0; t < nt; t++) {
        float acc = init ? init[t] : 0.0f;
        for (int64_t j = 0; j < k; j++) acc = fmaf(A[t * ts + j * ks], v[j], acc);
        if (pb_mismatch(&o[t], &acc, 1) >= 0)
            return ws_fail(e, "%s[%lld] = %g, the host says %g", what, (long long)t, o[t], acc);
    }
    return 0;
}

static float *fvec(int64_t n, float (*f)(int64_t i, int64_t n), int64_t arg) {
    float *v = malloc(sizeof(float) * (size_t)(n ? n : 1));
    if (v)
        for (int64_t i = 0; i < n; i++) v[i] = f(i, arg);
    return v;
}
static float f_pi(int64_t i, int64_t n) {
    return (void)n, (float)i * (float)PB_PI;
}
static float f_lin(int64_t i, int64_t n) {
    return (float)(i + 3) / (float)n;
}

static void fill_matrix(float *A, int64_t nr, int64_t nc, int64_t div) {
    for (int64_t i = 0; i < nr; i++)
        for (int64_t j = 0; j < nc; j++) A[i * nc + j] = ((float)i * (float)(j + 1)) / (float)div;
}

#define MV_KEYS(name, doc)                                                                         \
    static const struct cfg_key name##_keys[] = {                                                  \
        {"workload." #name ".nx", CFG_INT, offsetof(struct mv_cfg, nx), NULL, 1, 1 << 16, NULL,    \
         "", "rows, NX (" doc ")"},                                                                \
        {"workload." #name ".ny", CFG_INT, offsetof(struct mv_cfg, ny), NULL, 1, 1 << 16, NULL,    \
         "", "columns, NY (preset by workload.size as nx is)"},                                    \
    }
MV_KEYS(atax, "preset by workload.size: test 512, paper 8192");
MV_KEYS(bicg, "preset by workload.size: test 512, paper 8192");
static const struct cfg_key mvt_keys[] = {
    {"workload.mvt.n", CFG_INT, offsetof(struct mv_cfg, nx), NULL, 1, 1 << 16, NULL, "",
     "N (preset by workload.size: test 512, paper 8192)"},
};
static const struct cfg_key gesummv_keys[] = {
    {"workload.gesummv.n", CFG_INT, offsetof(struct mv_cfg, nx), NULL, 1, 1 << 16, NULL, "",
     "N (preset by workload.size: test 512, paper 4096)"},
};

static int mv_bind(struct cfg *c, const struct workload_common *wc, const char *group,
                   const struct cfg_key *keys, size_t nkeys, struct mv_cfg *mc, int64_t paper,
                   struct ws_err *e) {
    mc->nx = mc->ny = wc->size == WL_SIZE_PAPER ? paper : 512;
    if (cfg_bind(c, group, keys, nkeys, mc, e)) return -1;
    if (nkeys == 1) mc->ny = mc->nx;
    if ((double)mc->nx * (double)mc->ny > (double)(1u << 28)) {
        char where[256];
        return ws_fail(e, "%s: %s: %lld x %lld floats is more than 1 GiB",
                       cfg_origin(c, keys[0].name, where, sizeof where), group, (long long)mc->nx,
                       (long long)mc->ny);
    }
    return 0;
}

/* ---- ATAX: A 0, x 1, y 2, tmp 3 ---------------------------------------------------------------
 */

static int atax_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    int64_t nx = p->n[0], ny = p->n[1];
    const struct mv_step s[2] = {{0, 3, 0, 1, nx, ny, 4 * ny, 4}, {1, 2, 0, 3, ny, nx, 4, 4 * ny}};
    if (idx >= 2) return 0;
    mv_fill(p, &s[idx], l);
    return 1;
}

static int atax_verify(struct pb *p, struct ws_err *e) {
    int64_t nx = p->n[0], ny = p->n[1];
    if (mv_check(p, "atax: tmp", 3, NULL, 0, pb_host(p, 1), nx, ny, ny, 1, e)) return -1;
    return mv_check(p, "atax: y", 2, NULL, 0, pb_host(p, 3), ny, nx, 1, ny, e);
}

struct workload *atax_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct mv_cfg mc;
    if (mv_bind(c, wc, "workload.atax", atax_keys, CFG_COUNT(atax_keys), &mc, 8192, e)) return NULL;
    struct pb *p = pb_create("atax", atax_launch, atax_verify, e);
    if (!p) return NULL;
    p->n[0] = mc.nx;
    p->n[1] = mc.ny;
    float *A, *x;
    if (pb_prog(p, "atax_kernel1", 12, mv_acc, CFG_COUNT(mv_acc), e) ||
        pb_prog(p, "atax_kernel2", 12, mv_acc, CFG_COUNT(mv_acc), e) ||
        !(A = pb_array(p, (uint64_t)(mc.nx * mc.ny), "A_gpu", e)) ||
        !(x = pb_array(p, (uint64_t)mc.ny, "x_gpu", e)) ||
        !pb_array(p, (uint64_t)mc.ny, "y_gpu", e) || !pb_array(p, (uint64_t)mc.nx, "tmp_gpu", e))
        return pb_destroy(p), NULL;
    fill_matrix(A, mc.nx, mc.ny, mc.nx);
    for (int64_t i = 0; i < mc.ny; i++) x[i] = f_pi(i, 0);
    return &p->kw.base;
}

/* ---- BICG: A 0, r 1, s 2, p 3, q 4 ----------------------------------------------------------- */

static int bicg_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    int64_t nx = p->n[0], ny = p->n[1];
    const struct mv_step s[2] = {{0, 2, 0, 1, ny, nx, 4, 4 * ny}, {1, 4, 0, 3, nx, ny, 4 * ny, 4}};
    if (idx >= 2) return 0;
    mv_fill(p, &s[idx], l);
    return 1;
}

static int bicg_verify(struct pb *p, struct ws_err *e) {
    int64_t nx = p->n[0], ny = p->n[1];
    if (mv_check(p, "bicg: s", 2, NULL, 0, pb_host(p, 1), ny, nx, 1, ny, e)) return -1;
    return mv_check(p, "bicg: q", 4, NULL, 0, pb_host(p, 3), nx, ny, ny, 1, e);
}

struct workload *bicg_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct mv_cfg mc;
    if (mv_bind(c, wc, "workload.bicg", bicg_keys, CFG_COUNT(bicg_keys), &mc, 8192, e)) return NULL;
    struct pb *p = pb_create("bicg", bicg_launch, bicg_verify, e);
    if (!p) return NULL;
    p->n[0] = mc.nx;
    p->n[1] = mc.ny;
    float *A, *r, *pv;
    if (pb_prog(p, "bicg_kernel1", 12, mv_zero, CFG_COUNT(mv_zero), e) ||
        pb_prog(p, "bicg_kernel2", 12, mv_zero, CFG_COUNT(mv_zero), e) ||
        !(A = pb_array(p, (uint64_t)(mc.nx * mc.ny), "A_gpu", e)) ||
        !(r = pb_array(p, (uint64_t)mc.nx, "r_gpu", e)) ||
        !pb_array(p, (uint64_t)mc.ny, "s_gpu", e) ||
        !(pv = pb_array(p, (uint64_t)mc.ny, "p_gpu", e)) ||
        !pb_array(p, (uint64_t)mc.nx, "q_gpu", e))
        return pb_destroy(p), NULL;
    fill_matrix(A, mc.nx, mc.ny, mc.nx);
    for (int64_t i = 0; i < mc.nx; i++) r[i] = f_pi(i, 0);
    for (int64_t i = 0; i < mc.ny; i++) pv[i] = f_pi(i, 0);
    return &p->kw.base;
}

/* ---- MVT: a 0, x1 1, x2 2, y_1 3, y_2 4 ------------------------------------------------------ */

static int mvt_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    int64_t n = p->n[0];
    const struct mv_step s[2] = {{0, 1, 0, 3, n, n, 4 * n, 4}, {1, 2, 0, 4, n, n, 4, 4 * n}};
    if (idx >= 2) return 0;
    mv_fill(p, &s[idx], l);
    return 1;
}

static int mvt_verify(struct pb *p, struct ws_err *e) {
    int64_t n = p->n[0];
    if (mv_check(p, "mvt: x1", 1, p->saved[0], 0, pb_host(p, 3), n, n, n, 1, e)) return -1;
    return mv_check(p, "mvt: x2", 2, p->saved[1], 0, pb_host(p, 4), n, n, 1, n, e);
}

struct workload *mvt_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct mv_cfg mc;
    if (mv_bind(c, wc, "workload.mvt", mvt_keys, CFG_COUNT(mvt_keys), &mc, 8192, e)) return NULL;
    struct pb *p = pb_create("mvt", mvt_launch, mvt_verify, e);
    if (!p) return NULL;
    int64_t n = p->n[0] = mc.nx;
    float *a, *x1, *x2, *y1, *y2;
    if (pb_prog(p, "mvt_kernel1", 12, mv_acc, CFG_COUNT(mv_acc), e) ||
        pb_prog(p, "mvt_kernel2", 12, mv_acc, CFG_COUNT(mv_acc), e) ||
        !(a = pb_array(p, (uint64_t)(n * n), "a_gpu", e)) ||
        !(x1 = pb_array(p, (uint64_t)n, "x1_gpu", e)) ||
        !(x2 = pb_array(p, (uint64_t)n, "x2_gpu", e)) ||
        !(y1 = pb_array(p, (uint64_t)n, "y_1_gpu", e)) ||
        !(y2 = pb_array(p, (uint64_t)n, "y_2_gpu", e)))
        return pb_destroy(p), NULL;
    if (!(p->saved[0] = fvec(n, f_lin, n)) || !(p->saved[1] = fvec(n, f_lin, 2 * n)))
        return ws_fail(e, "mvt: out of memory"), pb_destroy(p), NULL;
    fill_matrix(a, n, n, n);
    for (int64_t i = 0; i < n; i++) {
        x1[i] = p->saved[0][i];
        x2[i] = p->saved[1][i];
        y1[i] = f_pi(i, 0);
        y2[i] = f_lin(i, 4 * n);
    }
    return &p->kw.base;
}

/* ---- GESUMMV: A 0, B 1, x 2, y 3, tmp 4 ------------------------------------------------------ */

static int gesummv_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    if (idx >= 1) return 0;
    pb_launch_init(l, p, 0, pb_blocks(p->n[0], MV_BLOCK), 1, MV_BLOCK, 1);
    for (int i = 0; i < 5; i++) l->param[i] = (int64_t)p->d[i];
    l->param[G_N] = p->n[0];
    return 1;
}

static int gesummv_verify(struct pb *p, struct ws_err *e) {
    int64_t n = p->n[0];
    const float *A = pb_host(p, 0), *B = pb_host(p, 1), *x = pb_host(p, 2), *y = pb_host(p, 3),
                *tmp = pb_host(p, 4);
    for (int64_t i = 0; i < n; i++) {
        float t = 0.0f, yy = 0.0f;
        for (int64_t j = 0; j < n; j++) {
            t = fmaf(A[i * n + j], x[j], t);
            yy = fmaf(B[i * n + j], x[j], yy);
        }
        yy = fmaf(t, GES_ALPHA, yy * GES_BETA);
        if (pb_mismatch(&tmp[i], &t, 1) >= 0 || pb_mismatch(&y[i], &yy, 1) >= 0)
            return ws_fail(e, "gesummv: tmp[%lld] = %g and y = %g, the host says %g and %g",
                           (long long)i, tmp[i], y[i], t, yy);
    }
    return 0;
}

struct workload *gesummv_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct mv_cfg mc;
    if (mv_bind(c, wc, "workload.gesummv", gesummv_keys, CFG_COUNT(gesummv_keys), &mc, 4096, e))
        return NULL;
    struct pb *p = pb_create("gesummv", gesummv_launch, gesummv_verify, e);
    if (!p) return NULL;
    int64_t n = p->n[0] = mc.nx;
    float *A, *B, *x;
    if (pb_prog(p, "gesummv_kernel", 16, ges_code, CFG_COUNT(ges_code), e) ||
        !(A = pb_array(p, (uint64_t)(n * n), "A_gpu", e)) ||
        !(B = pb_array(p, (uint64_t)(n * n), "B_gpu", e)) ||
        !(x = pb_array(p, (uint64_t)n, "x_gpu", e)) || !pb_array(p, (uint64_t)n, "y_gpu", e) ||
        !pb_array(p, (uint64_t)n, "tmp_gpu", e))
        return pb_destroy(p), NULL;
    for (int64_t i = 0; i < n; i++) {
        x[i] = (float)i / (float)n;
        for (int64_t j = 0; j < n; j++)
            A[i * n + j] = B[i * n + j] = ((float)i * (float)j) / (float)n;
    }
    return &p->kw.base;
}
