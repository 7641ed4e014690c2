/* The convolutions of PolyBench/GPU 1.0 (Grauer-Gray et al.), one thread per output point, 32 x 8
 * threads per block, the innermost (contiguous) index on x:
 *   conv2d  CUDA/2DCONV/2DConvolution.cu  Convolution2D_kernel: j = x, i = y; for interior
 *           points B[i][j] = 3 x 3 weighted sum of A around (i, j); one launch of
 *           ceil(NJ / 32) x ceil(NI / 8) blocks
 *   conv3d  CUDA/3DCONV/3DConvolution.cu  convolution3D_kernel: k = x, j = y, plane i a parameter;
 *           the host (convolution3DCuda) launches it for i = 1 .. NI - 2 on ceil(NK / 32) x
 *           ceil(NJ / 8) blocks; B[i][j][k] = the benchmark's 15-term sum over 11 distinct
 *           neighbours of A (the repeated ones are loaded once: nothing is stored in between)
 * A warp reads 32 consecutive floats at offsets -1, 0, +1 of its row: one or two lines per
 * warp-load (seed 001's coherent 2DC/3DC, 2 accesses per load). Sums are a FMUL then FFMAs in
 * source order, as nvcc contracts them. Device arrays A, B; only A is copied in (B is output).
 * Data: conv2d A[i][j] = ((7 i + 13 j) mod 101) / 101, conv3d A[i][j][k] = i mod 12 + 2 (j mod 7)
 * + 3 (k mod 13).
 *
 * Sizes: paper conv2d 4096 x 4096, conv3d 256^3 (PolyBench/GPU's defaults, seed 001's inputs);
 * test 64 x 64 and 32^3. workload.conv2d.ni / nj and workload.conv3d.n set any other. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "workload/kernels/polybench.h"

enum { CV_BX = 32, CV_BY = 8 };
enum { P_A, P_B, P_NI, P_NJ, P_NK, P_NI1, P_NJ1, P_NK1, P_I };

/* c11 c21 c31 c12 c22 c32 c13 c23 c33 */
static const float c2[9] = {0.2f, 0.5f, -0.8f, -0.3f, 0.6f, -0.9f, 0.4f, 0.7f, 0.10f};

static const struct km_inst conv2d_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* j */
    KM_S2R(2, SR_TID_Y),
    KM_S2R(3, SR_CTAID_Y),
    KM_OP3(KM_IMAD, 2, KR(3), KS(SR_NTID_Y), KR(2)), /* i */
    KM_ISETP_(KM_GE, 0, KR(2), KP(P_NI1)),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_NJ1)),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_LE, 0, KR(2), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_LE, 0, KR(0), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 4, KR(2), KP(P_NJ), KR(0)),
    KM_OP2(KM_SHL, 5, KP(P_NJ), KI(2)),
    KM_OP3(KM_IMAD, 6, KR(4), KI(4), KP(P_A)), /* &A[i][j] */
    KM_OP2(KM_ISUB, 7, KR(6), KR(5)),          /* &A[i - 1][j] */
    KM_OP2(KM_IADD, 8, KR(6), KR(5)),          /* &A[i + 1][j] */
    KM_LDG(4, 10, KR(7), -4),
    KM_LDG(4, 11, KR(7), 0),
    KM_LDG(4, 12, KR(7), 4),
    KM_LDG(4, 13, KR(6), -4),
    KM_LDG(4, 14, KR(6), 0),
    KM_LDG(4, 15, KR(6), 4),
    KM_LDG(4, 16, KR(8), -4),
    KM_LDG(4, 17, KR(8), 0),
    KM_LDG(4, 18, KR(8), 4),
    /* c11 a[i-1][j-1] + c21 a[i-1][j] + c31 a[i-1][j+1] + c12 a[i][j-1] + ... + c33 a[i+1][j+1] */
    KM_OP2(KM_FMUL, 20, KR(10), KF(0.2f)),
    KM_OP3(KM_FFMA, 20, KR(11), KF(0.5f), KR(20)),
    KM_OP3(KM_FFMA, 20, KR(12), KF(-0.8f), KR(20)),
    KM_OP3(KM_FFMA, 20, KR(13), KF(-0.3f), KR(20)),
    KM_OP3(KM_FFMA, 20, KR(14), KF(0.6f), KR(20)),
    KM_OP3(KM_FFMA, 20, KR(15), KF(-0.9f), KR(20)),
    KM_OP3(KM_FFMA, 20, KR(16), KF(0.4f), KR(20)),
    KM_OP3(KM_FFMA, 20, KR(17), KF(0.7f), KR(20)),
    KM_OP3(KM_FFMA, 20, KR(18), KF(0.10f), KR(20)),
    KM_OP3(KM_IMAD, 9, KR(4), KI(4), KP(P_B)),
    KM_STG(4, KR(9), 0, KR(20)),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* c11 c21 c31 c12 c22 c32 c13 c23 c33 = 2 5 -8 -3 6 -9 4 7 10; the 15 terms (coefficient, load):
 * c11 L1, c13 L2, c21 L1, c23 L2, c31 L1, c33 L2, c12 L3, c22 L4, c32 L5, c11 L6, c13 L7, c21 L8,
 * c23 L9, c31 L10, c33 L11 with L1 = A[i-1][j-1][k-1], L2 = A[i+1][j-1][k-1], L3 = A[i][j-1][k],
 * L4 = A[i][j][k], L5 = A[i][j+1][k], L6 = A[i-1][j-1][k+1], L7 = A[i+1][j-1][k+1],
 * L8 = A[i-1][j][k+1], L9 = A[i+1][j][k+1], L10 = A[i-1][j+1][k+1], L11 = A[i+1][j+1][k+1]. */
enum { C3_TERMS = 15 };
static const float c3_coef[C3_TERMS] = {2, 4, 5, 7, -8, 10, -3, 6, -9, 2, 4, 5, 7, -8, 10};
static const int c3_load[C3_TERMS] = {0, 1, 0, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
static const int c3_off[11][3] = {{-1, -1, -1}, {1, -1, -1}, {0, -1, 0}, {0, 0, 0},
                                  {0, 1, 0},    {-1, -1, 1}, {1, -1, 1}, {-1, 0, 1},
                                  {1, 0, 1},    {-1, 1, 1},  {1, 1, 1}};

static const struct km_inst conv3d_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* k */
    KM_S2R(2, SR_TID_Y),
    KM_S2R(3, SR_CTAID_Y),
    KM_OP3(KM_IMAD, 2, KR(3), KS(SR_NTID_Y), KR(2)), /* j */
    KM_ISETP_(KM_GE, 0, KP(P_I), KP(P_NI1)),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_GE, 0, KR(2), KP(P_NJ1)),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_NK1)),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_LE, 0, KP(P_I), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_LE, 0, KR(2), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_LE, 0, KR(0), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 4, KP(P_I), KP(P_NJ), KR(2)),
    KM_OP3(KM_IMAD, 4, KR(4), KP(P_NK), KR(0)), /* (i NJ + j) NK + k */
    KM_OP3(KM_IMAD, 6, KR(4), KI(4), KP(P_A)),  /* &A[i][j][k] */
    KM_OP2(KM_SHL, 5, KP(P_NK), KI(2)),         /* row bytes */
    KM_OP3(KM_IMUL, 7, KP(P_NJ), KP(P_NK), KRZ),
    KM_OP2(KM_SHL, 7, KR(7), KI(2)),  /* plane bytes */
    KM_OP2(KM_ISUB, 8, KR(6), KR(7)), /* &A[i - 1][j][k] */
    KM_OP2(KM_IADD, 9, KR(6), KR(7)), /* &A[i + 1][j][k] */
    KM_OP2(KM_ISUB, 10, KR(8), KR(5)),
    KM_LDG(4, 20, KR(10), -4), /* L1 */
    KM_OP2(KM_ISUB, 11, KR(9), KR(5)),
    KM_LDG(4, 21, KR(11), -4), /* L2 */
    KM_OP2(KM_ISUB, 12, KR(6), KR(5)),
    KM_LDG(4, 22, KR(12), 0), /* L3 */
    KM_LDG(4, 23, KR(6), 0),  /* L4 */
    KM_OP2(KM_IADD, 13, KR(6), KR(5)),
    KM_LDG(4, 24, KR(13), 0), /* L5 */
    KM_LDG(4, 25, KR(10), 4), /* L6 */
    KM_LDG(4, 26, KR(11), 4), /* L7 */
    KM_LDG(4, 27, KR(8), 4),  /* L8 */
    KM_LDG(4, 28, KR(9), 4),  /* L9 */
    KM_OP2(KM_IADD, 14, KR(8), KR(5)),
    KM_LDG(4, 29, KR(14), 4), /* L10 */
    KM_OP2(KM_IADD, 15, KR(9), KR(5)),
    KM_LDG(4, 30, KR(15), 4), /* L11 */
    KM_OP2(KM_FMUL, 31, KR(20), KF(2)),
    KM_OP3(KM_FFMA, 31, KR(21), KF(4), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(20), KF(5), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(21), KF(7), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(20), KF(-8), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(21), KF(10), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(22), KF(-3), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(23), KF(6), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(24), KF(-9), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(25), KF(2), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(26), KF(4), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(27), KF(5), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(28), KF(7), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(29), KF(-8), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(30), KF(10), KR(31)),
    KM_OP3(KM_IMAD, 16, KR(4), KI(4), KP(P_B)),
    KM_STG(4, KR(16), 0, KR(31)),
    KM_LBL("end"),
    KM_EXIT_(),
};

struct cv_cfg {
    int64_t ni, nj;
};
static const struct cfg_key conv2d_keys[] = {
    {"workload.conv2d.ni", CFG_INT, offsetof(struct cv_cfg, ni), NULL, 3, 1 << 15, NULL, "",
     "NI, rows (preset by workload.size: test 64, paper 4096)"},
    {"workload.conv2d.nj", CFG_INT, offsetof(struct cv_cfg, nj), NULL, 3, 1 << 15, NULL, "",
     "NJ, columns (preset as ni is)"},
};
static const struct cfg_key conv3d_keys[] = {
    {"workload.conv3d.n", CFG_INT, offsetof(struct cv_cfg, ni), NULL, 3, 1024, NULL, "",
     "NI = NJ = NK (preset by workload.size: test 32, paper 256)"},
};

static int conv2d_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    int64_t ni = p->n[0], nj = p->n[1];
    if (idx >= 1) return 0;
    pb_launch_init(l, p, 0, pb_blocks(nj, CV_BX), pb_blocks(ni, CV_BY), CV_BX, CV_BY);
    l->param[P_A] = (int64_t)p->d[0];
    l->param[P_B] = (int64_t)p->d[1];
    l->param[P_NI] = ni;
    l->param[P_NJ] = nj;
    l->param[P_NI1] = ni - 1;
    l->param[P_NJ1] = nj - 1;
    return 1;
}

static int conv2d_verify(struct pb *p, struct ws_err *e) {
    int64_t ni = p->n[0], nj = p->n[1];
    const float *a = pb_host(p, 0), *b = pb_host(p, 1);
    for (int64_t i = 0; i < ni; i++)
        for (int64_t j = 0; j < nj; j++) {
            float s = 0.0f;
            if (i > 0 && j > 0 && i < ni - 1 && j < nj - 1) {
                s = a[(i - 1) * nj + j - 1] * c2[0];
                for (int t = 1; t < 9; t++)
                    s = fmaf(a[(i - 1 + t / 3) * nj + j - 1 + t % 3], c2[t], s);
            }
            if (pb_mismatch(&b[i * nj + j], &s, 1) >= 0)
                return ws_fail(e, "conv2d: B[%lld][%lld] = %g, the host says %g", (long long)i,
                               (long long)j, b[i * nj + j], s);
        }
    return 0;
}

struct workload *conv2d_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct cv_cfg cc = {wc->size == WL_SIZE_PAPER ? 4096 : 64,
                        wc->size == WL_SIZE_PAPER ? 4096 : 64};
    if (cfg_bind(c, "workload.conv2d", conv2d_keys, CFG_COUNT(conv2d_keys), &cc, e)) return NULL;
    struct pb *p = pb_create("conv2d", conv2d_launch, conv2d_verify, e);
    if (!p) return NULL;
    p->n[0] = cc.ni;
    p->n[1] = cc.nj;
    uint64_t nn = (uint64_t)(cc.ni * cc.nj);
    float *a;
    if (pb_prog(p, "Convolution2D_kernel", 24, conv2d_code, CFG_COUNT(conv2d_code), e) ||
        !(a = pb_array(p, nn, "A_gpu", e)) || !pb_array_nocopy(p, nn, "B_gpu", e))
        return pb_destroy(p), NULL;
    for (int64_t i = 0; i < cc.ni; i++)
        for (int64_t j = 0; j < cc.nj; j++)
            a[i * cc.nj + j] = (float)((7 * i + 13 * j) % 101) / 101.0f;
    return &p->kw.base;
}

static int conv3d_launch(struct pb *p, uint32_t idx, struct km_launch *l) {
    int64_t n = p->n[0];
    if (idx >= n - 2) return 0;
    pb_launch_init(l, p, 0, pb_blocks(n, CV_BX), pb_blocks(n, CV_BY), CV_BX, CV_BY);
    l->param[P_A] = (int64_t)p->d[0];
    l->param[P_B] = (int64_t)p->d[1];
    l->param[P_NI] = l->param[P_NJ] = l->param[P_NK] = n;
    l->param[P_NI1] = l->param[P_NJ1] = l->param[P_NK1] = n - 1;
    l->param[P_I] = idx + 1;
    return 1;
}

static int conv3d_verify(struct pb *p, struct ws_err *e) {
    int64_t n = p->n[0];
    const float *a = pb_host(p, 0), *b = pb_host(p, 1);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
            for (int64_t k = 0; k < n; k++) {
                float s = 0.0f;
                if (i > 0 && j > 0 && k > 0 && i < n - 1 && j < n - 1 && k < n - 1)
                    for (int t = 0; t < C3_TERMS; t++) {
                        const int *o = c3_off[c3_load[t]];
                        float v = a[((i + o[0]) * n + j + o[1]) * n + k + o[2]];
                        s = t ? fmaf(v, c3_coef[t], s) : v * c3_coef[t];
                    }
                int64_t x = (i * n + j) * n + k;
                if (pb_mismatch(&b[x], &s, 1) >= 0)
                    return ws_fail(e, "conv3d: B[%lld][%lld][%lld] = %g, the host says %g",
                                   (long long)i, (long long)j, (long long)k, b[x], s);
            }
    return 0;
}

struct workload *conv3d_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct cv_cfg cc = {wc->size == WL_SIZE_PAPER ? 256 : 32, 0};
    if (cfg_bind(c, "workload.conv3d", conv3d_keys, CFG_COUNT(conv3d_keys), &cc, e)) return NULL;
    struct pb *p = pb_create("conv3d", conv3d_launch, conv3d_verify, e);
    if (!p) return NULL;
    int64_t n = p->n[0] = cc.ni;
    uint64_t n3 = (uint64_t)(n * n * n);
    float *a;
    if (pb_prog(p, "convolution3D_kernel", 40, conv3d_code, CFG_COUNT(conv3d_code), e) ||
        !(a = pb_array(p, n3, "A_gpu", e)) || !pb_array_nocopy(p, n3, "B_gpu", e))
        return pb_destroy(p), NULL;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
            for (int64_t k = 0; k < n; k++)
                a[(i * n + j) * n + k] = (float)(i % 12 + 2 * (j % 7) + 3 * (k % 13));
    return &p->kw.base;
}
