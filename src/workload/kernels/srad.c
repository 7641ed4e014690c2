/* SRAD v2 as Rodinia runs it (Rodinia 3.1, srad/srad_v2/srad.cu host loop, srad_kernel.cu
 * kernels srad_cuda_1 and srad_cuda_2): speckle-reducing anisotropic diffusion of a rows x cols
 * image J. Per iteration the host computes q0sqr from the region of interest of J (rows and
 * columns 0..127, in float as srad.cu does), copies J to the device, and launches
 * srad_cuda_1 (16x16 blocks: the block's tile of J and the rows above/below and columns
 * left/right of it into shared memory, the first/last block row and column re-reading their own
 * edge, three bar.sync; derivatives n, s, w, e and the saturated diffusion coefficient c; writes
 * C, E, W, S, N) and srad_cuda_2 (same blocks: tiles of J and C plus C's south row and east
 * column; J += lambda/4 * divergence). The 16 lanes of a row all read the same north/south word,
 * and a row's west/east words are one word per row: the kernels' own access pattern. The
 * compiler's if-chain choosing north/south/west/east or the tile is modelled as selects of the
 * shared-memory address, one LDS each.
 *
 * Device arrays in srad.cu's cudaMalloc order: J_cuda, C_cuda, E_C, W_C, S_C, N_C (rows * cols
 * floats each). The first block row's north loads read J_cuda[-cols .. -1] before overwriting
 * them (as the CUDA program does); so that those reads stay inside modelled memory, the heap here
 * starts cols * 4 bytes (rounded to 256) below GPGPU-Sim's 0xC0000000 with a block for them, and
 * J_cuda still lands at 0xC0000000.
 *
 * Input: srad.cu's random image, J = exp(u), u uniform in [0, 1] (a deterministic generator here).
 * Sizes: test 64x64, 2 iterations; paper 2048x2048, 2 iterations, lambda 0.5 (Rodinia's run
 * script: `srad 2048 2048 0 127 0 127 0.5 2`); workload.srad2.{size,iters}. The kernels' constants
 * (0.5, 1.0/16.0, .25, 1.0) are double in the source, so nvcc computes those steps in double; the
 * model uses the same operations in float (division as MUFU.RCP then FMUL) and so does the host
 * check, which therefore matches bit for bit. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"
#include "workload/kernels/srad.h"

enum { SB = 16 };
enum { P_E, P_W, P_N, P_S, P_J, P_C, P_COLS, P_ROWS, P_Q0, P_LAMBDA };
/* srad_cuda_1's shared arrays: temp, temp_result, north, south, east, west. */
enum { S1_TEMP = 0, S1_RES = 1024, S1_N = 2048, S1_S = 3072, S1_E = 4096, S1_W = 5120 };
/* srad_cuda_2's: south_c, east_c, c_cuda_temp, c_cuda_result, temp. */
enum { S2_S = 0, S2_E = 1024, S2_CT = 2048, S2_CR = 3072, S2_T = 4096 };

/* Thread coordinates and the kernels' indices (shared by both kernels). */
#define SRAD_INDICES                                                                               \
    KM_S2R(0, SR_TID_X), KM_S2R(1, SR_TID_Y), KM_S2R(2, SR_CTAID_X), KM_S2R(3, SR_CTAID_Y),        \
        KM_OP2(KM_IMUL, 4, KP(P_COLS), KR(3)), KM_OP2(KM_SHL, 4, KR(4), KI(4)),                    \
        KM_OP3(KM_IMAD, 4, KR(2), KI(SB), KR(4)), /* cols*16*by + 16*bx */                         \
        KM_OP3(KM_IMAD, 5, KR(1), KP(P_COLS), KR(4)),                                              \
        KM_OP2(KM_IADD, 5, KR(5), KR(0)), /* index */                                              \
        KM_OP3(KM_IMAD, 7, KP(P_COLS), KI(SB), KR(4)), KM_OP2(KM_IADD, 7, KR(7), KR(0)), /* _s */  \
        KM_OP3(KM_IMAD, 9, KR(1), KP(P_COLS), KR(4)),                                              \
        KM_OP2(KM_IADD, 9, KR(9), KI(SB)), /* index_e */                                           \
        KM_OP3(KM_IMAD, 10, KR(1), KI(SB), KR(0)),                                                 \
        KM_OP2(KM_SHL, 10, KR(10), KI(2)) /* [ty][tx] */

static const struct km_inst srad1_code[] = {
    SRAD_INDICES,
    KM_OP2(KM_IADD, 6, KR(4), KR(0)),
    KM_OP2(KM_ISUB, 6, KR(6), KP(P_COLS)), /* index_n */
    KM_OP3(KM_IMAD, 8, KR(1), KP(P_COLS), KR(4)),
    KM_OP2(KM_IADD, 8, KR(8), KI(-1)), /* index_w */
    KM_OP3(KM_IMAD, 12, KR(6), KI(4), KP(P_J)),
    KM_LDG(4, 11, KR(12), 0), /* J[index_n] */
    KM_OP3(KM_IMAD, 12, KR(7), KI(4), KP(P_J)),
    KM_LDG(4, 13, KR(12), 0), /* J[index_s] */
    KM_STS(4, KR(10), S1_N, KR(11)),
    KM_STS(4, KR(10), S1_S, KR(13)),
    KM_ISETP_(KM_NE, 0, KR(3), KRZ),
    KM_BRA_IF(0, "n1", "nsdone"),
    KM_OP3(KM_IMAD, 12, KR(2), KI(SB), KR(0)),
    KM_OP3(KM_IMAD, 12, KR(12), KI(4), KP(P_J)),
    KM_LDG(4, 11, KR(12), 0), /* by == 0: J[16 bx + tx] */
    KM_STS(4, KR(10), S1_N, KR(11)),
    KM_BRA_("nsdone"),
    KM_LBL("n1"),
    KM_OP2(KM_IADD, 14, KS(SR_NCTAID_Y), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(3), KR(14)),
    KM_BRA_IF(0, "nsdone", "nsdone"),
    KM_OP3(KM_IMAD, 12, KP(P_COLS), KI(SB - 1), KR(4)),
    KM_OP2(KM_IADD, 12, KR(12), KR(0)),
    KM_OP3(KM_IMAD, 12, KR(12), KI(4), KP(P_J)),
    KM_LDG(4, 13, KR(12), 0), /* last block row: its own last row */
    KM_STS(4, KR(10), S1_S, KR(13)),
    KM_LBL("nsdone"),
    KM_BAR_(),
    KM_OP3(KM_IMAD, 12, KR(8), KI(4), KP(P_J)),
    KM_LDG(4, 11, KR(12), 0), /* J[index_w] */
    KM_OP3(KM_IMAD, 12, KR(9), KI(4), KP(P_J)),
    KM_LDG(4, 13, KR(12), 0), /* J[index_e] */
    KM_STS(4, KR(10), S1_W, KR(11)),
    KM_STS(4, KR(10), S1_E, KR(13)),
    KM_ISETP_(KM_NE, 0, KR(2), KRZ),
    KM_BRA_IF(0, "w1", "wedone"),
    KM_OP2(KM_IMUL, 12, KP(P_COLS), KR(3)),
    KM_OP2(KM_SHL, 12, KR(12), KI(4)),
    KM_OP3(KM_IMAD, 12, KR(1), KP(P_COLS), KR(12)),
    KM_OP3(KM_IMAD, 12, KR(12), KI(4), KP(P_J)),
    KM_LDG(4, 11, KR(12), 0), /* bx == 0: the row's first word */
    KM_STS(4, KR(10), S1_W, KR(11)),
    KM_BRA_("wedone"),
    KM_LBL("w1"),
    KM_OP2(KM_IADD, 14, KS(SR_NCTAID_X), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(2), KR(14)),
    KM_BRA_IF(0, "wedone", "wedone"),
    KM_OP2(KM_IADD, 12, KR(9), KI(-1)),
    KM_OP3(KM_IMAD, 12, KR(12), KI(4), KP(P_J)),
    KM_LDG(4, 13, KR(12), 0), /* last block column: the row's last word */
    KM_STS(4, KR(10), S1_E, KR(13)),
    KM_LBL("wedone"),
    KM_BAR_(),
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_J)),
    KM_LDG(4, 15, KR(12), 0), /* J[index] */
    KM_STS(4, KR(10), S1_TEMP, KR(15)),
    KM_BAR_(),
    /* where n, s, w, e come from */
    KM_ISETP_(KM_EQ, 0, KR(1), KRZ),
    KM_OP2(KM_IADD, 16, KR(10), KI(S1_TEMP - 4 * SB)),
    KM_OP2(KM_IADD, 17, KR(10), KI(S1_N)),
    KM_SEL_(16, KR(17), KR(16), 0),
    KM_ISETP_(KM_EQ, 1, KR(1), KI(SB - 1)),
    KM_OP2(KM_IADD, 17, KR(10), KI(S1_TEMP + 4 * SB)),
    KM_OP2(KM_IADD, 18, KR(10), KI(S1_S)),
    KM_SEL_(17, KR(18), KR(17), 1),
    KM_ISETP_(KM_EQ, 2, KR(0), KRZ),
    KM_OP2(KM_IADD, 18, KR(10), KI(S1_TEMP - 4)),
    KM_OP2(KM_IADD, 19, KR(10), KI(S1_W)),
    KM_SEL_(18, KR(19), KR(18), 2),
    KM_ISETP_(KM_EQ, 3, KR(0), KI(SB - 1)),
    KM_OP2(KM_IADD, 19, KR(10), KI(S1_TEMP + 4)),
    KM_OP2(KM_IADD, 20, KR(10), KI(S1_E)),
    KM_SEL_(19, KR(20), KR(19), 3),
    KM_LDS(4, 21, KR(10), S1_TEMP), /* jc */
    KM_LDS(4, 22, KR(16), 0),
    KM_LDS(4, 23, KR(17), 0),
    KM_LDS(4, 24, KR(18), 0),
    KM_LDS(4, 25, KR(19), 0),
    KM_OP2(KM_FSUB, 22, KR(22), KR(21)), /* n */
    KM_OP2(KM_FSUB, 23, KR(23), KR(21)), /* s */
    KM_OP2(KM_FSUB, 24, KR(24), KR(21)), /* w */
    KM_OP2(KM_FSUB, 25, KR(25), KR(21)), /* e */
    SRAD_COEF(P_Q0),
    KM_STS(4, KR(10), S1_RES, KR(31)),
    KM_BAR_(),
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_C)),
    KM_LDS(4, 31, KR(10), S1_RES),
    KM_STG(4, KR(12), 0, KR(31)), /* C_cuda[index] */
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_E)),
    KM_STG(4, KR(12), 0, KR(25)),
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_W)),
    KM_STG(4, KR(12), 0, KR(24)),
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_S)),
    KM_STG(4, KR(12), 0, KR(23)),
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_N)),
    KM_STG(4, KR(12), 0, KR(22)),
    KM_EXIT_(),
};

static const struct km_inst srad2_code[] = {
    SRAD_INDICES,
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_J)),
    KM_LDG(4, 15, KR(12), 0), /* J[index] */
    KM_STS(4, KR(10), S2_T, KR(15)),
    KM_BAR_(),
    KM_OP3(KM_IMAD, 12, KR(7), KI(4), KP(P_C)),
    KM_LDG(4, 13, KR(12), 0), /* C[index_s] */
    KM_STS(4, KR(10), S2_S, KR(13)),
    KM_OP2(KM_IADD, 14, KS(SR_NCTAID_Y), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(3), KR(14)),
    KM_BRA_IF(0, "sdone", "sdone"),
    KM_OP3(KM_IMAD, 12, KP(P_COLS), KI(SB - 1), KR(4)),
    KM_OP2(KM_IADD, 12, KR(12), KR(0)),
    KM_OP3(KM_IMAD, 12, KR(12), KI(4), KP(P_C)),
    KM_LDG(4, 13, KR(12), 0),
    KM_STS(4, KR(10), S2_S, KR(13)),
    KM_LBL("sdone"),
    KM_BAR_(),
    KM_OP3(KM_IMAD, 12, KR(9), KI(4), KP(P_C)),
    KM_LDG(4, 13, KR(12), 0), /* C[index_e] */
    KM_STS(4, KR(10), S2_E, KR(13)),
    KM_OP2(KM_IADD, 14, KS(SR_NCTAID_X), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(2), KR(14)),
    KM_BRA_IF(0, "edone", "edone"),
    KM_OP2(KM_IADD, 12, KR(9), KI(-1)),
    KM_OP3(KM_IMAD, 12, KR(12), KI(4), KP(P_C)),
    KM_LDG(4, 13, KR(12), 0),
    KM_STS(4, KR(10), S2_E, KR(13)),
    KM_LBL("edone"),
    KM_BAR_(),
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_C)),
    KM_LDG(4, 15, KR(12), 0), /* C[index] */
    KM_STS(4, KR(10), S2_CT, KR(15)),
    KM_BAR_(),
    KM_ISETP_(KM_EQ, 1, KR(1), KI(SB - 1)),
    KM_OP2(KM_IADD, 17, KR(10), KI(S2_CT + 4 * SB)),
    KM_OP2(KM_IADD, 18, KR(10), KI(S2_S)),
    KM_SEL_(17, KR(18), KR(17), 1),
    KM_ISETP_(KM_EQ, 3, KR(0), KI(SB - 1)),
    KM_OP2(KM_IADD, 19, KR(10), KI(S2_CT + 4)),
    KM_OP2(KM_IADD, 20, KR(10), KI(S2_E)),
    KM_SEL_(19, KR(20), KR(19), 3),
    KM_LDS(4, 21, KR(10), S2_CT), /* cc = cn = cw */
    KM_LDS(4, 22, KR(17), 0),     /* cs */
    KM_LDS(4, 23, KR(19), 0),     /* ce */
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_N)),
    KM_LDG(4, 24, KR(12), 0),
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_S)),
    KM_LDG(4, 25, KR(12), 0),
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_W)),
    KM_LDG(4, 26, KR(12), 0),
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_E)),
    KM_LDG(4, 27, KR(12), 0),
    KM_OP2(KM_FMUL, 28, KR(21), KR(24)),
    KM_OP3(KM_FFMA, 28, KR(22), KR(25), KR(28)),
    KM_OP3(KM_FFMA, 28, KR(21), KR(26), KR(28)),
    KM_OP3(KM_FFMA, 28, KR(23), KR(27), KR(28)), /* d_sum */
    KM_OP2(KM_FMUL, 29, KP(P_LAMBDA), KF(0.25f)),
    KM_LDS(4, 30, KR(10), S2_T),
    KM_OP3(KM_FFMA, 30, KR(29), KR(28), KR(30)),
    KM_STS(4, KR(10), S2_CR, KR(30)),
    KM_BAR_(),
    KM_OP3(KM_IMAD, 12, KR(5), KI(4), KP(P_J)),
    KM_LDS(4, 30, KR(10), S2_CR),
    KM_STG(4, KR(12), 0, KR(30)), /* J_cuda[index] */
    KM_EXIT_(),
};

struct srad_cfg {
    int64_t size, iters;
};
static const struct cfg_key srad_keys[] = {
    {"workload.srad2.size", CFG_INT, offsetof(struct srad_cfg, size), NULL, 32, 16384, NULL,
     "pixels",
     "image rows = columns, a multiple of 16 (preset by workload.size: test 64, paper "
     "2048)"},
    {"workload.srad2.iters", CFG_INT, offsetof(struct srad_cfg, iters), NULL, 1, 100000, NULL,
     "iterations", "diffusion iterations, 2 kernels each (preset 2)"},
};

struct srad {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog k1, k2;
    uint32_t n, iters, it;
    bool second; /* srad_cuda_1 of iteration `it` ran; srad_cuda_2 comes next */
    uint64_t d_j, d_c, d_e, d_w, d_s, d_n;
    float q0sqr;
    uint32_t launches;
    struct wl_copy copies[1];
};

static const float LAMBDA = 0.5f;

int64_t srad_fparam(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

float srad_coef_host(float jc, float nv, float sv, float wv, float ev, float q0) {
    float qd = 1.0f / (q0 * (q0 + 1.0f));
    float t = nv * nv;
    t = fmaf(sv, sv, t);
    t = fmaf(wv, wv, t);
    t = fmaf(ev, ev, t);
    float g2 = t * (1.0f / (jc * jc));
    float l = (nv + sv + wv + ev) * (1.0f / jc);
    float num = fmaf(g2, 0.5f, (l * l) * -0.0625f);
    float den = fmaf(l, 0.25f, 1.0f);
    float qsqr = num * (1.0f / (den * den));
    float cc = 1.0f / ((qsqr - q0) * qd + 1.0f);
    if (cc < 0.0f) cc = 0.0f;
    if (cc > 1.0f) cc = 1.0f;
    return cc;
}

/* q0sqr of the region of interest (rows and columns 0..127, within the image), as srad.cu. */
static float roi_q0sqr(const float *j, uint32_t n) {
    uint32_t r = n < 128 ? n : 128;
    float sum = 0, sum2 = 0;
    for (uint32_t y = 0; y < r; y++)
        for (uint32_t x = 0; x < r; x++) {
            float t = j[(size_t)y * n + x];
            sum += t;
            float t2 = t * t;
            sum2 += t2;
        }
    float size_r = (float)(r * r);
    float mean = sum / size_r;
    float var = (sum2 / size_r) - mean * mean;
    return var / (mean * mean);
}

static int srad_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct srad *s = (struct srad *)w;
    if (s->it >= s->iters) return 0;
    struct km_launch l = {.prog = s->second ? &s->k2 : &s->k1, .smem = s->second ? 5120 : 6144};
    l.grid[0] = l.grid[1] = s->n / SB, l.grid[2] = 1;
    l.block[0] = l.block[1] = SB, l.block[2] = 1;
    if (!s->second) s->q0sqr = roi_q0sqr(devmem_host(s->kw.dm, s->d_j, 4ull * s->n * s->n), s->n);
    l.param[P_E] = (int64_t)s->d_e;
    l.param[P_W] = (int64_t)s->d_w;
    l.param[P_N] = (int64_t)s->d_n;
    l.param[P_S] = (int64_t)s->d_s;
    l.param[P_J] = (int64_t)s->d_j;
    l.param[P_C] = (int64_t)s->d_c;
    l.param[P_COLS] = l.param[P_ROWS] = s->n;
    l.param[P_Q0] = srad_fparam(s->q0sqr);
    l.param[P_LAMBDA] = srad_fparam(LAMBDA);
    if (km_run_launch(s->kw.run, &l, k, e)) return -1;
    k->id = s->launches++;
    k->copies = s->copies;
    k->ncopies = s->second ? 0 : 1; /* J is copied in before every srad_cuda_1 */
    if (s->second) s->it++;
    s->second = !s->second;
    return 1;
}

static uint32_t mix(uint32_t x) {
    x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
    return x;
}
static float image0(uint32_t i) {
    return (float)exp((double)((float)(mix(i) % 65536) / 65535.0f));
}

/* The same iterations on the host over the whole image (neighbours clamped at the borders, which
 * is what the first/last block rows and columns' re-reads give), in the same float operations. */
static int srad_verify(struct workload *w, struct ws_err *e) {
    struct srad *s = (struct srad *)w;
    uint32_t n = s->n;
    size_t nn = (size_t)n * n;
    float *j = malloc(nn * 4), *c = malloc(nn * 4), *dn = malloc(nn * 4), *ds = malloc(nn * 4),
          *dw = malloc(nn * 4), *de = malloc(nn * 4);
    int rc = 0;
    if (!j || !c || !dn || !ds || !dw || !de) {
        rc = ws_fail(e, "srad2: out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < nn; i++) j[i] = image0(i);
    for (uint32_t it = 0; it < s->it; it++) {
        float q0 = roi_q0sqr(j, n);
        for (uint32_t y = 0; y < n; y++)
            for (uint32_t x = 0; x < n; x++) {
                size_t i = (size_t)y * n + x;
                float jc = j[i];
                float nv = j[i - (y > 0 ? n : 0)] - jc, sv = j[i + (y + 1 < n ? n : 0)] - jc,
                      wv = j[i - (x > 0)] - jc, ev = j[i + (x + 1 < n)] - jc;
                float cc = srad_coef_host(jc, nv, sv, wv, ev, q0);
                c[i] = cc, dn[i] = nv, ds[i] = sv, dw[i] = wv, de[i] = ev;
            }
        float q = LAMBDA * 0.25f;
        for (uint32_t y = 0; y < n; y++)
            for (uint32_t x = 0; x < n; x++) {
                size_t i = (size_t)y * n + x;
                float cc = c[i], cs = c[i + (y + 1 < n ? n : 0)], ce = c[i + (x + 1 < n)];
                float d = cc * dn[i];
                d = fmaf(cs, ds[i], d);
                d = fmaf(cc, dw[i], d);
                d = fmaf(ce, de[i], d);
                j[i] = fmaf(q, d, j[i]);
            }
    }
    const float *dj = devmem_host(s->kw.dm, s->d_j, 4 * nn),
                *dc = devmem_host(s->kw.dm, s->d_c, 4 * nn);
    for (size_t i = 0; i < nn && rc == 0 && s->it > 0; i++) {
        if (memcmp(&dj[i], &j[i], 4))
            rc = ws_fail(e, "srad2: J[%zu][%zu] = %.9g, the host says %.9g", i / n, i % n, dj[i],
                         j[i]);
        else if (memcmp(&dc[i], &c[i], 4))
            rc = ws_fail(e, "srad2: C[%zu][%zu] = %.9g, the host says %.9g", i / n, i % n, dc[i],
                         c[i]);
    }
out:
    free(j), free(c), free(dn), free(ds), free(dw), free(de);
    return rc;
}

static void srad_destroy(struct workload *w) {
    struct srad *s = (struct srad *)w;
    km_prog_free(&s->k1);
    km_prog_free(&s->k2);
    km_run_destroy(s->kw.run);
    devmem_destroy(s->kw.dm);
    free(s);
}

static const struct workload_vt srad_vt = {srad_next,     km_wl_cta_start, km_wl_warp_next,
                                           km_wl_cta_end, srad_verify,     srad_destroy};

struct workload *srad2_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct srad_cfg sc = {wc->size == WL_SIZE_PAPER ? 2048 : 64, 2};
    if (cfg_bind(c, "workload.srad2", srad_keys, CFG_COUNT(srad_keys), &sc, e)) return NULL;
    char where[600];
    if (sc.size % SB)
        return ws_fail(e,
                       "%s: workload.srad2.size = %lld must be a multiple of 16 (srad.cu's "
                       "block size)",
                       cfg_origin(c, "workload.srad2.size", where, sizeof where),
                       (long long)sc.size),
               NULL;
    struct srad *s = calloc(1, sizeof *s);
    if (!s) return ws_fail(e, "srad2: out of memory"), NULL;
    s->n = (uint32_t)sc.size, s->iters = (uint32_t)sc.iters;
    uint64_t nn = (uint64_t)s->n * s->n, pad = (4ull * s->n + 255) / 256 * 256;
    /* The heap starts `pad` below 0xC0000000 (see the top of this file); not km_wl_init. */
    s->kw.base.vt = &srad_vt;
    s->kw.base.name = "srad2";
    s->kw.dm = devmem_create(DEVMEM_BASE - pad);
    if (!s->kw.dm) return free(s), ws_fail(e, "srad2: out of memory"), NULL;
    s->kw.run = km_run_create(s->kw.dm, e);
    if (!s->kw.run) return devmem_destroy(s->kw.dm), free(s), NULL;
    if (km_prog_build(&s->k1, "srad_cuda_1", 32, srad1_code, CFG_COUNT(srad1_code), e) ||
        km_prog_build(&s->k2, "srad_cuda_2", 31, srad2_code, CFG_COUNT(srad2_code), e) ||
        !devmem_alloc(s->kw.dm, pad, "J_cuda[-cols..-1]", e) ||
        !(s->d_j = devmem_alloc(s->kw.dm, 4 * nn, "J_cuda", e)) ||
        !(s->d_c = devmem_alloc(s->kw.dm, 4 * nn, "C_cuda", e)) ||
        !(s->d_e = devmem_alloc(s->kw.dm, 4 * nn, "E_C", e)) ||
        !(s->d_w = devmem_alloc(s->kw.dm, 4 * nn, "W_C", e)) ||
        !(s->d_s = devmem_alloc(s->kw.dm, 4 * nn, "S_C", e)) ||
        !(s->d_n = devmem_alloc(s->kw.dm, 4 * nn, "N_C", e))) {
        srad_destroy(&s->kw.base);
        return NULL;
    }
    float *j = devmem_host(s->kw.dm, s->d_j, 4 * nn);
    for (uint32_t i = 0; i < nn; i++) j[i] = image0(i);
    s->copies[0] = (struct wl_copy){s->d_j, 4 * nn};
    return &s->kw.base;
}
