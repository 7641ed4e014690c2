/* The statistics kernels of PolyBench/GPU 1.0 (Grauer-Gray et al.), on 1-based (M + 1) x (N + 1)
 * arrays as their CUDA versions index them (row 0 and column 0 unused):
 *   covar  CUDA/COVAR/covariance.cu  mean_kernel (256 x 1, thread j: mean[j] = sum_i data[i][j] /
 *          FLOAT_N), reduce_kernel (32 x 8, thread (j, i): data[i][j] -= mean[j]), covar_kernel
 *          (256 x 1, thread j1: for j2 = j1 .. M, symmat[j1][j2] = sum_i data[i][j1] data[i][j2],
 *          symmat[j2][j1] = symmat[j1][j2])
 *   corr   CUDA/CORR/correlation.cu  mean_kernel, std_kernel (thread j: std[j] = sqrt(sum_i
 *          (data[i][j] - mean[j])^2 / FLOAT_N), 1 when <= EPS), reduce_kernel (data[i][j] =
 *          (data[i][j] - mean[j]) / (sqrt(FLOAT_N) std[j])), corr_kernel (thread j1 < M:
 *          symmat[j1][j1] = 1, then as covar_kernel for j2 = j1 + 1 .. M)
 * In the column kernels a warp reads 32 consecutive columns of a row of M + 1 floats: coherent,
 * one or two lines per load (seed 001's COV/COR). covar/corr_kernel's stores symmat[j1][j2] and
 * symmat[j2][j1] step M + 2 floats per lane (uncoalesced stores), and lanes leave the j2 loop one
 * by one (per-lane trip counts, reconverging at the end). The accumulator is the global element,
 * stored every iteration and forwarded (nothing but loads comes in between); std_kernel reloads
 * mean[j] after each store to std[j], which may alias it. Division is modelled as MUFU.RCP and a
 * multiply, square roots as MUFU.SQRT (the -use_fast_math forms; verify uses the same). Device
 * arrays in covarianceCuda's (data, mean, symmat) and correlationCuda's (data, stddev, mean,
 * symmat) cudaMalloc order, all copied in. Data: data[i][j] = i j / M.
 *
 * Sizes: paper M = N = 2048 (PolyBench/GPU's default, seed 001's COV/COR inputs); test 64;
 * workload.covar.m / n and workload.corr.m / n set any other. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/polybench.h"

#define FLOAT_N 3214212.01f
#define EPS     0.1f
enum { ST_B1 = 256, ST_BX = 32, ST_BY = 8 };
enum { P_DATA, P_MEAN, P_STD, P_SYM, P_M1, P_N1, P_N, P_LAST };

#define COL_HEAD                                                                                   \
    KM_S2R(0, SR_TID_X), KM_S2R(1, SR_CTAID_X), KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)),   \
        KM_OP2(KM_IADD, 0, KR(0), KI(1)), /* j */                                                  \
        KM_ISETP_(KM_GE, 0, KR(0), KP(P_M1)), KM_BRA_IF(0, "end", "end")

/* mean[j] = 0; for i = 1 .. N: mean[j] += data[i][j]; mean[j] /= FLOAT_N */
static const struct km_inst mean_code[] = {
    COL_HEAD,
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_MEAN)),
    KM_STG(4, KR(2), 0, KRZ),
    KM_MOV_(3, KRZ),
    KM_OP2(KM_IADD, 4, KR(0), KP(P_M1)),
    KM_OP3(KM_IMAD, 4, KR(4), KI(4), KP(P_DATA)), /* &data[1][j] */
    KM_OP2(KM_SHL, 5, KP(P_M1), KI(2)),
    KM_MOV_(6, KP(P_N)),
    KM_LBL("loop"),
    KM_LDG(4, 7, KR(4), 0),
    KM_OP2(KM_FADD, 3, KR(3), KR(7)),
    KM_STG(4, KR(2), 0, KR(3)),
    KM_OP2(KM_IADD, 4, KR(4), KR(5)),
    KM_OP2(KM_IADD, 6, KR(6), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(6), KRZ),
    KM_BRA_IF(0, "loop", "after"),
    KM_LBL("after"),
    KM_MUFU_(KM_RCP, 8, KF(FLOAT_N)),
    KM_OP2(KM_FMUL, 3, KR(3), KR(8)),
    KM_STG(4, KR(2), 0, KR(3)),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* std[j] = 0; std[j] += (data[i][j] - mean[j])^2; std[j] = sqrt(std[j] / FLOAT_N), 1 if <= EPS */
static const struct km_inst std_code[] = {
    COL_HEAD,
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_STD)),
    KM_OP3(KM_IMAD, 9, KR(0), KI(4), KP(P_MEAN)),
    KM_STG(4, KR(2), 0, KRZ),
    KM_MOV_(3, KRZ),
    KM_OP2(KM_IADD, 4, KR(0), KP(P_M1)),
    KM_OP3(KM_IMAD, 4, KR(4), KI(4), KP(P_DATA)),
    KM_OP2(KM_SHL, 5, KP(P_M1), KI(2)),
    KM_MOV_(6, KP(P_N)),
    KM_LBL("loop"),
    KM_LDG(4, 7, KR(4), 0),
    KM_LDG(4, 10, KR(9), 0), /* mean[j], again after the store */
    KM_OP2(KM_FSUB, 7, KR(7), KR(10)),
    KM_OP3(KM_FFMA, 3, KR(7), KR(7), KR(3)),
    KM_STG(4, KR(2), 0, KR(3)),
    KM_OP2(KM_IADD, 4, KR(4), KR(5)),
    KM_OP2(KM_IADD, 6, KR(6), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(6), KRZ),
    KM_BRA_IF(0, "loop", "after"),
    KM_LBL("after"),
    KM_MUFU_(KM_RCP, 8, KF(FLOAT_N)),
    KM_OP2(KM_FMUL, 3, KR(3), KR(8)),
    KM_MUFU_(KM_SQRT, 3, KR(3)),
    KM_FSETP_(KM_LE, 0, KR(3), KF(EPS)),
    KM_SEL_(3, KF(1.0f), KR(3), 0),
    KM_STG(4, KR(2), 0, KR(3)),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* thread (j, i): data[i][j] -= mean[j] (covar); corr also divides by sqrt(FLOAT_N) std[j] */
#define REDUCE_HEAD                                                                                \
    KM_S2R(0, SR_TID_X), KM_S2R(1, SR_CTAID_X), KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)),   \
        KM_OP2(KM_IADD, 0, KR(0), KI(1)), /* j */                                                  \
        KM_S2R(2, SR_TID_Y), KM_S2R(3, SR_CTAID_Y),                                                \
        KM_OP3(KM_IMAD, 2, KR(3), KS(SR_NTID_Y), KR(2)), KM_OP2(KM_IADD, 2, KR(2), KI(1)), /* i */ \
        KM_ISETP_(KM_GE, 0, KR(2), KP(P_N1)), KM_BRA_IF(0, "end", "end"),                          \
        KM_ISETP_(KM_GE, 0, KR(0), KP(P_M1)), KM_BRA_IF(0, "end", "end"),                          \
        KM_OP3(KM_IMAD, 4, KR(2), KP(P_M1), KR(0)),                                                \
        KM_OP3(KM_IMAD, 4, KR(4), KI(4), KP(P_DATA)), /* &data[i][j] */                            \
        KM_OP3(KM_IMAD, 5, KR(0), KI(4), KP(P_MEAN)), KM_LDG(4, 6, KR(4), 0),                      \
        KM_LDG(4, 7, KR(5), 0), KM_OP2(KM_FSUB, 6, KR(6), KR(7)), KM_STG(4, KR(4), 0, KR(6))

static const struct km_inst covar_reduce_code[] = {REDUCE_HEAD, KM_LBL("end"), KM_EXIT_()};

/* sqrt(FLOAT_N), a constant the compiler folds; passed as its float bits in P_LAST */
static float sqrt_float_n(void) {
    return sqrtf(FLOAT_N);
}

static const struct km_inst corr_reduce_code[] = {
    REDUCE_HEAD,
    KM_OP3(KM_IMAD, 8, KR(0), KI(4), KP(P_STD)),
    KM_LDG(4, 9, KR(8), 0),                /* std[j] */
    KM_OP2(KM_FMUL, 9, KR(9), KP(P_LAST)), /* sqrt(FLOAT_N) (its float bits) * std[j] */
    KM_MUFU_(KM_RCP, 9, KR(9)),
    KM_OP2(KM_FMUL, 6, KR(6), KR(9)),
    KM_STG(4, KR(4), 0, KR(6)),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* The j2 loop of covar_kernel / corr_kernel; R0 = j1, R10 = the first j2. */
#define SYM_LOOP                                                                                   \
    KM_OP3(KM_IMAD, 2, KR(0), KP(P_M1), KR(10)),                                                   \
        KM_OP3(KM_IMAD, 2, KR(2), KI(4), KP(P_SYM)), /* &symmat[j1][j2] */                         \
        KM_OP3(KM_IMAD, 3, KR(10), KP(P_M1), KR(0)),                                               \
        KM_OP3(KM_IMAD, 3, KR(3), KI(4), KP(P_SYM)), /* &symmat[j2][j1] */                         \
        KM_OP2(KM_SHL, 5, KP(P_M1), KI(2)), KM_OP2(KM_IADD, 9, KR(0), KP(P_M1)),                   \
        KM_OP3(KM_IMAD, 9, KR(9), KI(4), KP(P_DATA)), /* &data[1][j1] */                           \
        KM_LBL("outer"), KM_STG(4, KR(2), 0, KRZ), KM_MOV_(11, KRZ), KM_MOV_(12, KR(9)),           \
        KM_OP2(KM_ISUB, 13, KR(10), KR(0)), KM_OP3(KM_IMAD, 13, KR(13), KI(4), KR(9)),             \
        KM_MOV_(14, KP(P_N)), KM_LBL("inner"), KM_LDG(4, 15, KR(12), 0), KM_LDG(4, 16, KR(13), 0), \
        KM_OP3(KM_FFMA, 11, KR(15), KR(16), KR(11)), KM_STG(4, KR(2), 0, KR(11)),                  \
        KM_OP2(KM_IADD, 12, KR(12), KR(5)), KM_OP2(KM_IADD, 13, KR(13), KR(5)),                    \
        KM_OP2(KM_IADD, 14, KR(14), KI(-1)), KM_ISETP_(KM_NE, 1, KR(14), KRZ),                     \
        KM_BRA_IF(1, "inner", "inner_end"), KM_LBL("inner_end"), KM_STG(4, KR(3), 0, KR(11)),      \
        KM_OP2(KM_IADD, 2, KR(2), KI(4)), KM_OP2(KM_IADD, 3, KR(3), KR(5)),                        \
        KM_OP2(KM_IADD, 10, KR(10), KI(1)), KM_ISETP_(KM_LT, 0, KR(10), KP(P_M1)),                 \
        KM_BRA_IF(0, "outer", "end"), KM_LBL("end"), KM_EXIT_()

static const struct km_inst covar_code[] = {COL_HEAD, KM_MOV_(10, KR(0)), SYM_LOOP};

static const struct km_inst corr_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)),
    KM_OP2(KM_IADD, 0, KR(0), KI(1)), /* j1 */
    KM_OP2(KM_IADD, 10, KP(P_M1), KI(-1)),
    KM_ISETP_(KM_GE, 0, KR(0), KR(10)), /* j1 < M */
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KR(0), KP(P_M1), KR(0)),
    KM_OP3(KM_IMAD, 2, KR(2), KI(4), KP(P_SYM)),
    KM_STG(4, KR(2), 0, KF(1.0f)), /* symmat[j1][j1] = 1 */
    KM_OP2(KM_IADD, 10, KR(0), KI(1)),
    SYM_LOOP,
};

struct st_cfg {
    int64_t m, n;
};
static const struct cfg_key covar_keys[] = {
    {"workload.covar.m", CFG_INT, offsetof(struct st_cfg, m), NULL, 2, 1 << 14, NULL, "",
     "M, columns (preset by workload.size: test 64, paper 2048)"},
    {"workload.covar.n", CFG_INT, offsetof(struct st_cfg, n), NULL, 1, 1 << 14, NULL, "",
     "N, rows (preset as m is)"},
};
static const struct cfg_key corr_keys[] = {
    {"workload.corr.m", CFG_INT, offsetof(struct st_cfg, m), NULL, 2, 1 << 14, NULL, "",
     "M, columns (preset by workload.size: test 64, paper 2048)"},
    {"workload.corr.n", CFG_INT, offsetof(struct st_cfg, n), NULL, 1, 1 << 14, NULL, "",
     "N, rows (preset as m is)"},
};

/* Arrays: covar data 0, mean 1, symmat 2; corr data 0, std 1, mean 2, symmat 3. */
static void st_params(struct pb *p, bool corr, struct km_launch *l) {
    l->param[P_DATA] = (int64_t)p->d[0];
    l->param[P_MEAN] = (int64_t)p->d[corr ? 2 : 1];
    l->param[P_STD] = corr ? (int64_t)p->d[1] : 0;
    l->param[P_SYM] = (int64_t)p->d[corr ? 3 : 2];
    l->param[P_M1] = p->n[0] + 1;
    l->param[P_N1] = p->n[1] + 1;
    l->param[P_N] = p->n[1];
    uint32_t bits;
    float q = sqrt_float_n();
    memcpy(&bits, &q, 4);
    l->param[P_LAST] = bits;
}

static int covar_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    int64_t m = p->n[0], n = p->n[1];
    if (idx >= 3) return 0;
    if (idx == 1)
        pb_launch_init(l, p, 1, pb_blocks(m, ST_BX), pb_blocks(n, ST_BY), ST_BX, ST_BY);
    else
        pb_launch_init(l, p, idx, pb_blocks(m, ST_B1), 1, ST_B1, 1);
    st_params(p, false, l);
    return 1;
}

static int corr_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    int64_t m = p->n[0], n = p->n[1];
    if (idx >= 4) return 0;
    if (idx == 2)
        pb_launch_init(l, p, 2, pb_blocks(m, ST_BX), pb_blocks(n, ST_BY), ST_BX, ST_BY);
    else
        pb_launch_init(l, p, idx, pb_blocks(m, ST_B1), 1, ST_B1, 1);
    st_params(p, true, l);
    return 1;
}

/* The host computation in the kernels' order; corr adds std and the normalisation. */
static int st_verify(struct pb *p, bool corr, struct ws_err *e) {
    int64_t m = p->n[0], n = p->n[1], m1 = m + 1;
    uint64_t nd = (uint64_t)((n + 1) * m1), ns = (uint64_t)(m1 * m1);
    float *data = malloc(4 * nd), *mean = calloc((size_t)m1, 4), *sd = calloc((size_t)m1, 4),
          *sym = calloc(ns, 4);
    int rc = -1;
    if (!data || !mean || !sd || !sym) {
        ws_fail(e, "%s: out of memory", corr ? "corr" : "covar");
        goto out;
    }
    for (int64_t i = 0; i <= n; i++)
        for (int64_t j = 0; j <= m; j++)
            data[i * m1 + j] = i && j ? ((float)i * (float)j) / (float)m : 0.0f;
    float rn = 1.0f / FLOAT_N;
    for (int64_t j = 1; j <= m; j++) {
        float s = 0.0f;
        for (int64_t i = 1; i <= n; i++) s = s + data[i * m1 + j];
        mean[j] = s * rn;
        if (corr) {
            float v = 0.0f;
            for (int64_t i = 1; i <= n; i++) {
                float d = data[i * m1 + j] - mean[j];
                v = fmaf(d, d, v);
            }
            v = sqrtf(v * rn);
            sd[j] = v <= EPS ? 1.0f : v;
        }
    }
    for (int64_t i = 1; i <= n; i++)
        for (int64_t j = 1; j <= m; j++) {
            float v = data[i * m1 + j] - mean[j];
            if (corr) v = v * (1.0f / (sqrt_float_n() * sd[j]));
            data[i * m1 + j] = v;
        }
    for (int64_t j1 = 1; j1 < (corr ? m : m1); j1++) {
        if (corr) sym[j1 * m1 + j1] = 1.0f;
        for (int64_t j2 = corr ? j1 + 1 : j1; j2 <= m; j2++) {
            float s = 0.0f;
            for (int64_t i = 1; i <= n; i++) s = fmaf(data[i * m1 + j1], data[i * m1 + j2], s);
            sym[j1 * m1 + j2] = sym[j2 * m1 + j1] = s;
        }
    }
    const char *names[3] = {"data", "mean", corr ? "stddev" : NULL};
    const float *want[4] = {data, mean, sd, sym};
    const uint32_t at[4] = {0, corr ? 2 : 1, 1, corr ? 3 : 2};
    const uint64_t cnt[4] = {nd, (uint64_t)m1, (uint64_t)m1, ns};
    for (int k = 0; k < 4; k++) {
        if (k == 2 && !corr) continue;
        const float *got = pb_host(p, at[k]);
        int64_t x = pb_mismatch(got, want[k], cnt[k]);
        if (x >= 0) {
            ws_fail(e, "%s: %s[%lld] = %g, the host says %g", corr ? "corr" : "covar",
                    k == 3 ? "symmat" : names[k], (long long)x, got[x], want[k][x]);
            goto out;
        }
    }
    rc = 0;
out:
    free(data);
    free(mean);
    free(sd);
    free(sym);
    return rc;
}

static int covar_verify(struct pb *p, struct ws_err *e) {
    return st_verify(p, false, e);
}
static int corr_verify(struct pb *p, struct ws_err *e) {
    return st_verify(p, true, e);
}

static struct workload *st_create(struct cfg *c, const struct workload_common *wc, bool corr,
                                  struct ws_err *e) {
    const char *name = corr ? "corr" : "covar";
    struct st_cfg sc = {wc->size == WL_SIZE_PAPER ? 2048 : 64,
                        wc->size == WL_SIZE_PAPER ? 2048 : 64};
    if (cfg_bind(c, corr ? "workload.corr" : "workload.covar", corr ? corr_keys : covar_keys, 2,
                 &sc, e))
        return NULL;
    struct pb *p =
        pb_create(name, corr ? corr_launch : covar_launch, corr ? corr_verify : covar_verify, e);
    if (!p) return NULL;
    int64_t m = p->n[0] = sc.m, n = p->n[1] = sc.n, m1 = m + 1;
    float *data;
    int bad = corr ? pb_prog(p, "mean_kernel", 12, mean_code, CFG_COUNT(mean_code), e) ||
                         pb_prog(p, "std_kernel", 14, std_code, CFG_COUNT(std_code), e) ||
                         pb_prog(p, "reduce_kernel", 12, corr_reduce_code,
                                 CFG_COUNT(corr_reduce_code), e) ||
                         pb_prog(p, "corr_kernel", 20, corr_code, CFG_COUNT(corr_code), e)
                   : pb_prog(p, "mean_kernel", 12, mean_code, CFG_COUNT(mean_code), e) ||
                         pb_prog(p, "reduce_kernel", 10, covar_reduce_code,
                                 CFG_COUNT(covar_reduce_code), e) ||
                         pb_prog(p, "covar_kernel", 20, covar_code, CFG_COUNT(covar_code), e);
    if (bad || !(data = pb_array(p, (uint64_t)((n + 1) * m1), "data_gpu", e)) ||
        (corr && !pb_array(p, (uint64_t)m1, "stddev_gpu", e)) ||
        !pb_array(p, (uint64_t)m1, "mean_gpu", e) ||
        !pb_array(p, (uint64_t)(m1 * m1), "symmat_gpu", e))
        return pb_destroy(p), NULL;
    for (int64_t i = 1; i <= n; i++)
        for (int64_t j = 1; j <= m; j++) data[i * m1 + j] = ((float)i * (float)j) / (float)m;
    return &p->kw.base;
}

struct workload *covar_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    return st_create(c, wc, false, e);
}

struct workload *corr_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    return st_create(c, wc, true, e);
}
