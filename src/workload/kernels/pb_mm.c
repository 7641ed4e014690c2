/* The matrix-matrix kernels of PolyBench/GPU 1.0 (Grauer-Gray et al.), one thread per output
 * element (j = x, i = y), 32 x 8 threads per block, as their CUDA versions map threads to data:
 *   mm2    CUDA/2MM/2mm.cu       mm2_kernel1: C[i][j] += A[i][k] * B[k][j]  (NI x NJ, k < NK)
 *                                mm2_kernel2: E[i][j] += C[i][k] * D[k][j]  (NI x NL, k < NJ)
 *   mm3    CUDA/3MM/3mm.cu       mm3_kernel1: E = A B; mm3_kernel2: F = C D; mm3_kernel3: G = E F,
 *                                each element set to 0 and then accumulated
 *   syrk   CUDA/SYRK/syrk.cu     syrk_kernel: c[i][j] *= beta; c[i][j] += alpha * a[i][k] * a[j][k]
 *   syr2k  CUDA/SYR2K/syr2k.cu   syr2k_kernel: c[i][j] *= BETA; c[i][j] += ALPHA * a[i][k] *
 * b[j][k]
 *                                              + ALPHA * b[i][k] * a[j][k]
 * A warp is one i and 32 consecutive j. In the matrix products A[i][k] is one word for the warp
 * and B[k][j] one line: coalesced (seed 000's LOA 2MM/3MM). In SYRK/SYR2K a[j][k] and b[j][k]
 * step one row (M floats) per lane: the divergent loads, 32 lines whose linear L1D sets repeat
 * every 4096 / (4 M) lanes (SYRK M = 512: 2 sets, concentration 16; SYR2K M = 256: 4 sets, 8).
 * The output element is a global accumulator stored every iteration; as nothing but loads comes
 * between a store and the next read of it, the stored value is forwarded (one load, or a store of
 * 0, before the loop). Products are fused as nvcc contracts them; loops modelled rolled. Arrays
 * in each <bench>Cuda's cudaMalloc order, all copied in.
 *
 * Sizes: mm2 2048 and mm3 512 (PolyBench/GPU's defaults, seed 000's 2MM/3MM; seed 000 measures
 * the first 1 billion instructions); syrk 512 x 512 (seed 001); syr2k 2048 (PolyBench/GPU's
 * default, seed 000's HOA SY2; seed 001 runs 256 x 256: workload.syr2k.n = 256). Test size 128.
 * workload.<name>.n sets any other (all dimensions equal); syrk/syr2k also take .m (the rank M,
 * columns of a and b; preset as n). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "workload/kernels/polybench.h"

enum { MM_BX = 32, MM_BY = 8 };
enum { P_C, P_A, P_B, P_NI, P_NJ, P_NK };

/* C[i][j] (+)= sum_k A[i][k] * B[k][j], C ni x nj, A ni x nk, B nk x nj. */
#define MM_CODE(...)                                                                               \
    KM_S2R(0, SR_TID_X), KM_S2R(1, SR_CTAID_X),                                                    \
        KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* j */                                   \
        KM_S2R(2, SR_TID_Y), KM_S2R(3, SR_CTAID_Y),                                                \
        KM_OP3(KM_IMAD, 2, KR(3), KS(SR_NTID_Y), KR(2)), /* i */                                   \
        KM_ISETP_(KM_GE, 0, KR(2), KP(P_NI)), KM_BRA_IF(0, "end", "end"),                          \
        KM_ISETP_(KM_GE, 0, KR(0), KP(P_NJ)), KM_BRA_IF(0, "end", "end"),                          \
        KM_OP3(KM_IMAD, 4, KR(2), KP(P_NJ), KR(0)),                                                \
        KM_OP3(KM_IMAD, 4, KR(4), KI(4), KP(P_C)), /* &C[i][j] */                                  \
        __VA_ARGS__, KM_ISETP_(KM_LE, 0, KP(P_NK), KRZ), KM_BRA_IF(0, "end", "end"),               \
        KM_OP3(KM_IMUL, 6, KR(2), KP(P_NK), KRZ),                                                  \
        KM_OP3(KM_IMAD, 6, KR(6), KI(4), KP(P_A)), /* &A[i][0] */                                  \
        KM_OP3(KM_IMAD, 7, KR(0), KI(4), KP(P_B)), /* &B[0][j] */                                  \
        KM_OP2(KM_SHL, 8, KP(P_NJ), KI(2)), KM_MOV_(9, KP(P_NK)), KM_LBL("loop"),                  \
        KM_LDG(4, 10, KR(6), 0), KM_LDG(4, 11, KR(7), 0),                                          \
        KM_OP3(KM_FFMA, 5, KR(10), KR(11), KR(5)), KM_STG(4, KR(4), 0, KR(5)),                     \
        KM_OP2(KM_IADD, 6, KR(6), KI(4)), KM_OP2(KM_IADD, 7, KR(7), KR(8)),                        \
        KM_OP2(KM_IADD, 9, KR(9), KI(-1)), KM_ISETP_(KM_NE, 0, KR(9), KRZ),                        \
        KM_BRA_IF(0, "loop", "end"), KM_LBL("end"), KM_EXIT_()

static const struct km_inst mm_acc[] = {MM_CODE(KM_LDG(4, 5, KR(4), 0))};
static const struct km_inst mm_zero[] = {MM_CODE(KM_STG(4, KR(4), 0, KRZ), KM_MOV_(5, KRZ))};

#define SYRK_ALPHA 12435.0f
#define SYRK_BETA  4546.0f
enum { S_C, S_A, S_B, S_N, S_M };

/* syrk/syr2k head: j, i, bounds, c[i][j] *= beta, &X[i][0] in R6 and &X[j][0] in R7 (X = a) */
#define SY_HEAD                                                                                    \
    KM_S2R(0, SR_TID_X), KM_S2R(1, SR_CTAID_X),                                                    \
        KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* j */                                   \
        KM_S2R(2, SR_TID_Y), KM_S2R(3, SR_CTAID_Y),                                                \
        KM_OP3(KM_IMAD, 2, KR(3), KS(SR_NTID_Y), KR(2)), /* i */                                   \
        KM_ISETP_(KM_GE, 0, KR(2), KP(S_N)), KM_BRA_IF(0, "end", "end"),                           \
        KM_ISETP_(KM_GE, 0, KR(0), KP(S_N)), KM_BRA_IF(0, "end", "end"),                           \
        KM_OP3(KM_IMAD, 4, KR(2), KP(S_N), KR(0)),                                                 \
        KM_OP3(KM_IMAD, 4, KR(4), KI(4), KP(S_C)), /* &c[i][j] */                                  \
        KM_LDG(4, 5, KR(4), 0), KM_OP2(KM_FMUL, 5, KR(5), KF(SYRK_BETA)),                          \
        KM_STG(4, KR(4), 0, KR(5)), KM_ISETP_(KM_LE, 0, KP(S_M), KRZ), KM_BRA_IF(0, "end", "end"), \
        KM_OP3(KM_IMUL, 1, KR(2), KP(S_M), KRZ), KM_OP2(KM_SHL, 1, KR(1), KI(2)), /* i * M * 4 */  \
        KM_OP3(KM_IMUL, 3, KR(0), KP(S_M), KRZ), KM_OP2(KM_SHL, 3, KR(3), KI(2)), /* j * M * 4 */  \
        KM_OP2(KM_IADD, 6, KR(1), KP(S_A)), KM_OP2(KM_IADD, 7, KR(3), KP(S_A)),                    \
        KM_MOV_(9, KP(S_M))

static const struct km_inst syrk_code[] = {
    SY_HEAD,
    KM_LBL("loop"),
    KM_LDG(4, 10, KR(6), 0), /* a[i][k]: one word */
    KM_LDG(4, 11, KR(7), 0), /* a[j][k]: a row per lane */
    KM_OP2(KM_FMUL, 10, KR(10), KF(SYRK_ALPHA)),
    KM_OP3(KM_FFMA, 5, KR(10), KR(11), KR(5)),
    KM_STG(4, KR(4), 0, KR(5)),
    KM_OP2(KM_IADD, 6, KR(6), KI(4)),
    KM_OP2(KM_IADD, 7, KR(7), KI(4)),
    KM_OP2(KM_IADD, 9, KR(9), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(9), KRZ),
    KM_BRA_IF(0, "loop", "end"),
    KM_LBL("end"),
    KM_EXIT_(),
};

static const struct km_inst syr2k_code[] = {
    SY_HEAD,
    KM_OP2(KM_IADD, 12, KR(1), KP(S_B)), /* &b[i][0] */
    KM_OP2(KM_IADD, 13, KR(3), KP(S_B)), /* &b[j][0] */
    KM_LBL("loop"),
    KM_LDG(4, 10, KR(6), 0),  /* a[i][k]: one word */
    KM_LDG(4, 11, KR(13), 0), /* b[j][k]: a row per lane */
    KM_LDG(4, 14, KR(12), 0), /* b[i][k]: one word */
    KM_LDG(4, 15, KR(7), 0),  /* a[j][k]: a row per lane */
    KM_OP2(KM_FMUL, 10, KR(10), KF(SYRK_ALPHA)),
    KM_OP2(KM_FMUL, 14, KR(14), KF(SYRK_ALPHA)),
    KM_OP2(KM_FMUL, 14, KR(14), KR(15)),
    KM_OP3(KM_FFMA, 10, KR(10), KR(11), KR(14)),
    KM_OP2(KM_FADD, 5, KR(5), KR(10)),
    KM_STG(4, KR(4), 0, KR(5)),
    KM_OP2(KM_IADD, 6, KR(6), KI(4)),
    KM_OP2(KM_IADD, 7, KR(7), KI(4)),
    KM_OP2(KM_IADD, 12, KR(12), KI(4)),
    KM_OP2(KM_IADD, 13, KR(13), KI(4)),
    KM_OP2(KM_IADD, 9, KR(9), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(9), KRZ),
    KM_BRA_IF(0, "loop", "end"),
    KM_LBL("end"),
    KM_EXIT_(),
};

struct mm_cfg {
    int64_t n;
};
#define MM_KEYS(name, doc)                                                                         \
    static const struct cfg_key name##_keys[] = {                                                  \
        {"workload." #name ".n", CFG_INT, offsetof(struct mm_cfg, n), NULL, 1, 1 << 14, NULL, "",  \
         doc},                                                                                     \
    }
MM_KEYS(mm2, "NI = NJ = NK = NL (preset by workload.size: test 128, paper 2048)");
MM_KEYS(mm3, "NI = NJ = NK = NL = NM (preset by workload.size: test 128, paper 512)");
MM_KEYS(syrk, "N (preset by workload.size: test 128, paper 512)");
MM_KEYS(syr2k, "N (preset by workload.size: test 128, paper 2048; seed 001: 256)");
static const struct cfg_key syrk_m_keys[] = {
    {"workload.syrk.m", CFG_INT, offsetof(struct mm_cfg, n), NULL, 1, 1 << 14, NULL, "",
     "M, the rank (columns of a; preset as n)"},
};
static const struct cfg_key syr2k_m_keys[] = {
    {"workload.syr2k.m", CFG_INT, offsetof(struct mm_cfg, n), NULL, 1, 1 << 14, NULL, "",
     "M, the rank (columns of a and b; preset as n)"},
};

static int mm_bind(struct cfg *c, const struct workload_common *wc, const char *group,
                   const struct cfg_key *keys, int64_t paper, int64_t *n, struct ws_err *e) {
    struct mm_cfg mc = {wc->size == WL_SIZE_PAPER ? paper : 128};
    if (cfg_bind(c, group, keys, 1, &mc, e)) return -1;
    *n = mc.n;
    return 0;
}

/* One matrix-product launch: out = prog(out, a, b) with out rows x cols and inner dimension k. */
static void mm_fill(struct pb *p, uint32_t prog, uint32_t out, uint32_t a, uint32_t b, int64_t rows,
                    int64_t cols, int64_t k, struct km_launch *l) {
    pb_launch_init(l, p, prog, pb_blocks(cols, MM_BX), pb_blocks(rows, MM_BY), MM_BX, MM_BY);
    l->param[P_C] = (int64_t)p->d[out];
    l->param[P_A] = (int64_t)p->d[a];
    l->param[P_B] = (int64_t)p->d[b];
    l->param[P_NI] = rows;
    l->param[P_NJ] = cols;
    l->param[P_NK] = k;
}

/* Host product in the kernel's order; out started from init (NULL: 0). */
static int mm_check(const char *what, const float *out, const float *init, const float *a,
                    const float *b, int64_t rows, int64_t cols, int64_t k, struct ws_err *e) {
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) {
            float acc = init ? init[i * cols + j] : 0.0f;
            for (int64_t x = 0; x < k; x++) acc = fmaf(a[i * k + x], b[x * cols + j], acc);
            if (pb_mismatch(&out[i * cols + j], &acc, 1) >= 0)
                return ws_fail(e, "%s[%lld][%lld] = %g, the host says %g", what, (long long)i,
                               (long long)j, out[i * cols + j], acc);
        }
    return 0;
}

static void fill(float *m, int64_t rows, int64_t cols, int64_t add, int64_t div) {
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            m[i * cols + j] = ((float)i * (float)(j + add)) / (float)div;
}

/* ---- 2MM: A 0, B 1, C 2, D 3, E 4 ------------------------------------------------------------ */

static int mm2_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    int64_t n = p->n[0];
    if (idx >= 2) return 0;
    if (idx == 0)
        mm_fill(p, 0, 2, 0, 1, n, n, n, l);
    else
        mm_fill(p, 1, 4, 2, 3, n, n, n, l);
    return 1;
}

static int mm2_verify(struct pb *p, struct ws_err *e) {
    int64_t n = p->n[0];
    if (mm_check("mm2: C", pb_host(p, 2), p->saved[0], pb_host(p, 0), pb_host(p, 1), n, n, n, e))
        return -1;
    return mm_check("mm2: E", pb_host(p, 4), NULL, pb_host(p, 2), pb_host(p, 3), n, n, n, e);
}

struct workload *mm2_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    int64_t n;
    if (mm_bind(c, wc, "workload.mm2", mm2_keys, 2048, &n, e)) return NULL;
    struct pb *p = pb_create("mm2", mm2_launch, mm2_verify, e);
    if (!p) return NULL;
    p->n[0] = n;
    uint64_t nn = (uint64_t)(n * n);
    float *m[5];
    static const char *const names[5] = {"A_gpu", "B_gpu", "C_gpu", "D_gpu", "E_gpu"};
    if (pb_prog(p, "mm2_kernel1", 16, mm_acc, CFG_COUNT(mm_acc), e) ||
        pb_prog(p, "mm2_kernel2", 16, mm_acc, CFG_COUNT(mm_acc), e))
        return pb_destroy(p), NULL;
    for (int i = 0; i < 5; i++)
        if (!(m[i] = pb_array(p, nn, names[i], e))) return pb_destroy(p), NULL;
    if (!(p->saved[0] = malloc(4 * nn)))
        return ws_fail(e, "mm2: out of memory"), pb_destroy(p), NULL;
    fill(m[0], n, n, 0, n);
    fill(m[1], n, n, 1, n);
    fill(m[2], n, n, 3, n);
    fill(m[3], n, n, 2, n);
    for (uint64_t i = 0; i < nn; i++) p->saved[0][i] = m[2][i];
    return &p->kw.base;
}

/* ---- 3MM: A 0, B 1, C 2, D 3, E 4, F 5, G 6 -------------------------------------------------- */

static int mm3_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    int64_t n = p->n[0];
    static const uint32_t arr[3][3] = {{4, 0, 1}, {5, 2, 3}, {6, 4, 5}};
    if (idx >= 3) return 0;
    mm_fill(p, idx, arr[idx][0], arr[idx][1], arr[idx][2], n, n, n, l);
    return 1;
}

static int mm3_verify(struct pb *p, struct ws_err *e) {
    int64_t n = p->n[0];
    if (mm_check("mm3: E", pb_host(p, 4), NULL, pb_host(p, 0), pb_host(p, 1), n, n, n, e) ||
        mm_check("mm3: F", pb_host(p, 5), NULL, pb_host(p, 2), pb_host(p, 3), n, n, n, e))
        return -1;
    return mm_check("mm3: G", pb_host(p, 6), NULL, pb_host(p, 4), pb_host(p, 5), n, n, n, e);
}

struct workload *mm3_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    int64_t n;
    if (mm_bind(c, wc, "workload.mm3", mm3_keys, 512, &n, e)) return NULL;
    struct pb *p = pb_create("mm3", mm3_launch, mm3_verify, e);
    if (!p) return NULL;
    p->n[0] = n;
    uint64_t nn = (uint64_t)(n * n);
    float *m[7];
    static const char *const names[7] = {"A_gpu", "B_gpu", "C_gpu", "D_gpu",
                                         "E_gpu", "F_gpu", "G_gpu"};
    if (pb_prog(p, "mm3_kernel1", 16, mm_zero, CFG_COUNT(mm_zero), e) ||
        pb_prog(p, "mm3_kernel2", 16, mm_zero, CFG_COUNT(mm_zero), e) ||
        pb_prog(p, "mm3_kernel3", 16, mm_zero, CFG_COUNT(mm_zero), e))
        return pb_destroy(p), NULL;
    for (int i = 0; i < 7; i++)
        if (!(m[i] = pb_array(p, nn, names[i], e))) return pb_destroy(p), NULL;
    fill(m[0], n, n, 0, n);
    fill(m[1], n, n, 1, n);
    fill(m[2], n, n, 3, n);
    fill(m[3], n, n, 2, n);
    return &p->kw.base;
}

/* ---- SYRK: a 0, c 1; SYR2K: a 0, b 1, c 2 ---------------------------------------------------- */

static void sy_fill(struct pb *p, uint32_t a, uint32_t b, uint32_t c, struct km_launch *l) {
    int64_t n = p->n[0];
    pb_launch_init(l, p, 0, pb_blocks(n, MM_BX), pb_blocks(n, MM_BY), MM_BX, MM_BY);
    l->param[S_C] = (int64_t)p->d[c];
    l->param[S_A] = (int64_t)p->d[a];
    l->param[S_B] = (int64_t)p->d[b];
    l->param[S_N] = n;
    l->param[S_M] = p->n[1];
}

static int syrk_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    if (idx >= 1) return 0;
    sy_fill(p, 0, 0, 1, l);
    return 1;
}

static int sy_verify(struct pb *p, const char *what, uint32_t c, bool two, struct ws_err *e) {
    int64_t n = p->n[0], m = p->n[1];
    const float *a = pb_host(p, 0), *b = pb_host(p, 1), *out = pb_host(p, c);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            float acc = p->saved[0][i * n + j] * SYRK_BETA;
            for (int64_t k = 0; k < m; k++) {
                if (two) {
                    float t = SYRK_ALPHA * b[i * m + k] * a[j * m + k];
                    acc += fmaf(SYRK_ALPHA * a[i * m + k], b[j * m + k], t);
                } else {
                    acc = fmaf(SYRK_ALPHA * a[i * m + k], a[j * m + k], acc);
                }
            }
            if (pb_mismatch(&out[i * n + j], &acc, 1) >= 0)
                return ws_fail(e, "%s: c[%lld][%lld] = %g, the host says %g", what, (long long)i,
                               (long long)j, out[i * n + j], acc);
        }
    return 0;
}

static int syrk_verify(struct pb *p, struct ws_err *e) {
    return sy_verify(p, "syrk", 1, false, e);
}

static int syr2k_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    if (idx >= 1) return 0;
    sy_fill(p, 0, 1, 2, l);
    return 1;
}

static int syr2k_verify(struct pb *p, struct ws_err *e) {
    return sy_verify(p, "syr2k", 2, true, e);
}

static struct workload *sy_create(struct cfg *c, const struct workload_common *wc, bool two,
                                  struct ws_err *e) {
    const char *name = two ? "syr2k" : "syrk";
    int64_t n;
    if (mm_bind(c, wc, two ? "workload.syr2k" : "workload.syrk", two ? syr2k_keys : syrk_keys,
                two ? 2048 : 512, &n, e))
        return NULL;
    struct mm_cfg mcfg = {n};
    if (cfg_bind(c, two ? "workload.syr2k" : "workload.syrk", two ? syr2k_m_keys : syrk_m_keys, 1,
                 &mcfg, e))
        return NULL;
    int64_t m = mcfg.n;
    struct pb *p =
        pb_create(name, two ? syr2k_launch : syrk_launch, two ? syr2k_verify : syrk_verify, e);
    if (!p) return NULL;
    p->n[0] = n;
    p->n[1] = m;
    uint64_t nn = (uint64_t)(n * n), nm = (uint64_t)(n * m);
    float *a, *b = NULL, *cc;
    if ((two ? pb_prog(p, "syr2k_kernel", 20, syr2k_code, CFG_COUNT(syr2k_code), e)
             : pb_prog(p, "syrk_kernel", 16, syrk_code, CFG_COUNT(syrk_code), e)) ||
        !(a = pb_array(p, nm, "a_gpu", e)) || (two && !(b = pb_array(p, nm, "b_gpu", e))) ||
        !(cc = pb_array(p, nn, "c_gpu", e)))
        return pb_destroy(p), NULL;
    if (!(p->saved[0] = malloc(4 * nn)))
        return ws_fail(e, "%s: out of memory", name), pb_destroy(p), NULL;
    fill(a, n, m, 0, n);
    if (b) fill(b, n, m, 1, n);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
            cc[i * n + j] = p->saved[0][i * n + j] = ((float)i * (float)j + 2.0f) / (float)n;
    return &p->kw.base;
}

struct workload *syrk_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    return sy_create(c, wc, false, e);
}

struct workload *syr2k_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    return sy_create(c, wc, true, e);
}
