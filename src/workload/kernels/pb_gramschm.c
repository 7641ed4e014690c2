/* gramschm, the Gram-Schmidt QR decomposition of PolyBench/GPU 1.0 (Grauer-Gray et al.; seed
 * 001's GS), as CUDA/GRAMSCHM/gramschmidt.cu runs it: for k < N the host (gramschmidtCuda)
 * launches gramschmidt_kernel1 (one block of 256; thread 0 alone: r[k][k] = sqrt(sum_i
 * a[i][k]^2)), gramschmidt_kernel2 (thread i: q[i][k] = a[i][k] / r[k][k]) and
 * gramschmidt_kernel3 (thread j > k: r[k][j] = sum_i q[i][k] a[i][j], then a[i][j] -= q[i][k]
 * r[k][j] for every i), the last two on ceil(N / 256) blocks of 256. kernel2 walks column k, a
 * row (N floats) per lane: uncoalesced; kernel3, where the time goes, reads q[i][k] as one word
 * and a[i][j] as one line, and re-reads the matrix every k (seed 001: inter-kernel locality).
 * r[k][j] is the accumulator, stored every iteration and forwarded; the second loop reloads it
 * after each store to a (which may alias it). a - q r is one FFMA with -q in SASS; the model
 * negates with an FMUL first (one instruction more per iteration). Division is MUFU.RCP and a
 * multiply, the square root MUFU.SQRT (verify does the same). Device arrays A, R, Q in
 * gramschmidtCuda's order, all copied in. Data: a[i][j] = ((3 i + 5 j) mod 17 + 1) / 17, plus 1
 * on the diagonal.
 *
 * Sizes: paper M = N = 2048 (PolyBench/GPU's default), test 64; workload.gramschm.n sets any
 * other. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/polybench.h"

enum { GS_B = 256 };
enum { P_A, P_R, P_Q, P_M, P_N, P_K };

static const struct km_inst k1_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_ISETP_(KM_NE, 0, KR(0), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KP(P_K), KI(4), KP(P_A)), /* &a[0][k] */
    KM_OP2(KM_SHL, 5, KP(P_N), KI(2)),
    KM_MOV_(3, KRZ),
    KM_MOV_(6, KP(P_M)),
    KM_LBL("loop"),
    KM_LDG(4, 7, KR(2), 0),
    KM_OP3(KM_FFMA, 3, KR(7), KR(7), KR(3)),
    KM_OP2(KM_IADD, 2, KR(2), KR(5)),
    KM_OP2(KM_IADD, 6, KR(6), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(6), KRZ),
    KM_BRA_IF(0, "loop", "after"),
    KM_LBL("after"),
    KM_MUFU_(KM_SQRT, 3, KR(3)),
    KM_OP3(KM_IMAD, 4, KP(P_K), KP(P_N), KP(P_K)),
    KM_OP3(KM_IMAD, 4, KR(4), KI(4), KP(P_R)), /* &r[k][k] */
    KM_STG(4, KR(4), 0, KR(3)),
    KM_LBL("end"),
    KM_EXIT_(),
};

static const struct km_inst k2_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* i */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_M)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KR(0), KP(P_N), KP(P_K)),
    KM_OP3(KM_IMAD, 3, KR(2), KI(4), KP(P_A)),
    KM_LDG(4, 4, KR(3), 0), /* a[i][k]: a row per lane */
    KM_OP3(KM_IMAD, 5, KP(P_K), KP(P_N), KP(P_K)),
    KM_OP3(KM_IMAD, 5, KR(5), KI(4), KP(P_R)),
    KM_LDG(4, 6, KR(5), 0), /* r[k][k] */
    KM_MUFU_(KM_RCP, 6, KR(6)),
    KM_OP2(KM_FMUL, 4, KR(4), KR(6)),
    KM_OP3(KM_IMAD, 7, KR(2), KI(4), KP(P_Q)),
    KM_STG(4, KR(7), 0, KR(4)), /* q[i][k] */
    KM_LBL("end"),
    KM_EXIT_(),
};

static const struct km_inst k3_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* j */
    KM_ISETP_(KM_LE, 0, KR(0), KP(P_K)),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_N)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KP(P_K), KP(P_N), KR(0)),
    KM_OP3(KM_IMAD, 2, KR(2), KI(4), KP(P_R)), /* &r[k][j] */
    KM_STG(4, KR(2), 0, KRZ),
    KM_MOV_(3, KRZ),
    KM_OP3(KM_IMAD, 4, KP(P_K), KI(4), KP(P_Q)), /* &q[0][k] */
    KM_OP3(KM_IMAD, 5, KR(0), KI(4), KP(P_A)),   /* &a[0][j] */
    KM_OP2(KM_SHL, 8, KP(P_N), KI(2)),
    KM_MOV_(6, KP(P_M)),
    KM_LBL("loop1"),
    KM_LDG(4, 7, KR(4), 0),
    KM_LDG(4, 9, KR(5), 0),
    KM_OP3(KM_FFMA, 3, KR(7), KR(9), KR(3)),
    KM_STG(4, KR(2), 0, KR(3)),
    KM_OP2(KM_IADD, 4, KR(4), KR(8)),
    KM_OP2(KM_IADD, 5, KR(5), KR(8)),
    KM_OP2(KM_IADD, 6, KR(6), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(6), KRZ),
    KM_BRA_IF(0, "loop1", "mid"),
    KM_LBL("mid"),
    KM_OP3(KM_IMAD, 4, KP(P_K), KI(4), KP(P_Q)),
    KM_OP3(KM_IMAD, 5, KR(0), KI(4), KP(P_A)),
    KM_MOV_(6, KP(P_M)),
    KM_LBL("loop2"),
    KM_LDG(4, 7, KR(4), 0),  /* q[i][k] */
    KM_LDG(4, 10, KR(2), 0), /* r[k][j] */
    KM_LDG(4, 9, KR(5), 0),  /* a[i][j] */
    KM_OP2(KM_FMUL, 7, KR(7), KF(-1.0f)),
    KM_OP3(KM_FFMA, 9, KR(7), KR(10), KR(9)),
    KM_STG(4, KR(5), 0, KR(9)),
    KM_OP2(KM_IADD, 4, KR(4), KR(8)),
    KM_OP2(KM_IADD, 5, KR(5), KR(8)),
    KM_OP2(KM_IADD, 6, KR(6), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(6), KRZ),
    KM_BRA_IF(0, "loop2", "end"),
    KM_LBL("end"),
    KM_EXIT_(),
};

struct gs_cfg {
    int64_t n;
};
static const struct cfg_key gs_keys[] = {
    {"workload.gramschm.n", CFG_INT, offsetof(struct gs_cfg, n), NULL, 1, 1 << 14, NULL, "",
     "M = N (preset by workload.size: test 64, paper 2048)"},
};

static int gs_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    int64_t n = p->n[0];
    if (idx >= 3 * n) return 0;
    uint32_t kern = idx % 3;
    pb_launch_init(l, p, kern, kern == 0 ? 1 : pb_blocks(n, GS_B), 1, GS_B, 1);
    for (int i = 0; i < 3; i++) l->param[i] = (int64_t)p->d[i];
    l->param[P_M] = l->param[P_N] = n;
    l->param[P_K] = idx / 3;
    return 1;
}

static float gs_init(int64_t i, int64_t j) {
    return (float)((3 * i + 5 * j) % 17 + 1) / 17.0f + (i == j ? 1.0f : 0.0f);
}

static int gs_verify(struct pb *p, struct ws_err *e) {
    int64_t n = p->n[0];
    uint64_t nn = (uint64_t)(n * n);
    float *a = malloc(4 * nn), *r = calloc(nn, 4), *q = calloc(nn, 4);
    int rc = -1;
    if (!a || !r || !q) {
        ws_fail(e, "gramschm: out of memory");
        goto out;
    }
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) a[i * n + j] = gs_init(i, j);
    for (int64_t k = 0; k < n; k++) {
        float nrm = 0.0f;
        for (int64_t i = 0; i < n; i++) nrm = fmaf(a[i * n + k], a[i * n + k], nrm);
        r[k * n + k] = sqrtf(nrm);
        float rc_ = 1.0f / r[k * n + k];
        for (int64_t i = 0; i < n; i++) q[i * n + k] = a[i * n + k] * rc_;
        for (int64_t j = k + 1; j < n; j++) {
            float s = 0.0f;
            for (int64_t i = 0; i < n; i++) s = fmaf(q[i * n + k], a[i * n + j], s);
            r[k * n + j] = s;
            for (int64_t i = 0; i < n; i++)
                a[i * n + j] = fmaf(q[i * n + k] * -1.0f, s, a[i * n + j]);
        }
    }
    const char *names[3] = {"a", "r", "q"};
    const float *want[3] = {a, r, q};
    for (int k = 0; k < 3; k++) {
        const float *got = pb_host(p, (uint32_t)k);
        int64_t x = pb_mismatch(got, want[k], nn);
        if (x >= 0) {
            ws_fail(e, "gramschm: %s[%lld] = %g, the host says %g", names[k], (long long)x, got[x],
                    want[k][x]);
            goto out;
        }
    }
    rc = 0;
out:
    free(a);
    free(r);
    free(q);
    return rc;
}

struct workload *gramschm_create(struct cfg *c, const struct workload_common *wc,
                                 struct ws_err *e) {
    struct gs_cfg gc = {wc->size == WL_SIZE_PAPER ? 2048 : 64};
    if (cfg_bind(c, "workload.gramschm", gs_keys, CFG_COUNT(gs_keys), &gc, e)) return NULL;
    struct pb *p = pb_create("gramschm", gs_launch, gs_verify, e);
    if (!p) return NULL;
    int64_t n = p->n[0] = gc.n;
    uint64_t nn = (uint64_t)(n * n);
    float *a;
    if (pb_prog(p, "gramschmidt_kernel1", 10, k1_code, CFG_COUNT(k1_code), e) ||
        pb_prog(p, "gramschmidt_kernel2", 10, k2_code, CFG_COUNT(k2_code), e) ||
        pb_prog(p, "gramschmidt_kernel3", 14, k3_code, CFG_COUNT(k3_code), e) ||
        !(a = pb_array(p, nn, "A_gpu", e)) || !pb_array(p, nn, "R_gpu", e) ||
        !pb_array(p, nn, "Q_gpu", e))
        return pb_destroy(p), NULL;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) a[i * n + j] = gs_init(i, j);
    return &p->kw.base;
}
