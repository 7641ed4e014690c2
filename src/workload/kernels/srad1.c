/* SRAD v1 as Rodinia runs it (Rodinia 3.1, srad/srad_v1/main.cu host loop; kernels extract
 * (extract_kernel.cu), prepare (prepare_kernel.cu), reduce (reduce_kernel.cu), srad
 * (srad_kernel.cu), srad2 (srad2_kernel.cu), compress (compress_kernel.cu)): speckle-reducing
 * anisotropic diffusion of an Nr x Nc image stored column-major, one thread per pixel, 512-thread
 * blocks (NUMBER_THREADS), ceil(Ne / 512) blocks. extract scales the image down and exponentiates
 * it once; each iteration, prepare writes sums = I and sums2 = I^2, reduce is launched until one
 * block remains (ceil(no / 512) blocks, stride mul = 512^k: the first launch coalesced, the
 * later ones 2 KB apart per lane) and sums the 512 values of a block in shared memory with a
 * (tx + 1) % i tree and a bar.sync per level, the last, partial block's last busy thread adding
 * the remainder from global memory one word at a time; the host reads sums[0] and sums2[0] for
 * q0sqr; srad reads the index vectors iN/iS (per row) and jW/jE (per column) and the four
 * neighbours and writes dN, dS, dW, dE and c; srad2 updates I from c and the derivatives.
 * compress scales back once. For the default 502 x 458 image and 100 iterations that is
 * 1 + 100 x (prepare + 2 reduce + srad + srad2) + 1 = 502 launches (seed 001's SRAD1).
 *
 * As in reduce_kernel.cu, the remainder loop reads sums[i] without the mul stride, so from the
 * second reduce launch on it adds input pixels rather than block sums; the model and the host
 * check do the same. The row/column of a pixel, (ei + 1) / Nr and % Nr, are the compiler's
 * integer division; here a multiply-high by a host-computed reciprocal (exact for these sizes).
 * The kernels' double constants and expf/logf are modelled in float: x / 255 as a multiply by
 * 1/255, exp as EX2(x * log2 e), log as LG2(x) * ln 2 (-use_fast_math forms); (tx + 1) % i with i
 * a power of two as an AND. Register counts are assumed.
 *
 * Device arrays in main.cu's cudaMalloc order: d_I, d_iN, d_iS, d_jE, d_jW, d_sums, d_sums2,
 * d_dN, d_dS, d_dW, d_dE, d_c. Input: Rodinia reads image.pgm (502 x 458) and resizes it; here a
 * deterministic 0..255 image (a smooth pattern with speckle). Sizes: test 50 x 46, 2 iterations;
 * paper 502 x 458, 100 iterations, lambda 0.5 (`srad 100 0.5 502 458`);
 * workload.srad1.{rows,cols,iters}. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"
#include "workload/kernels/srad.h"

enum { NT = 512, DIV_SHIFT = 40 };

/* extract / prepare / compress */
enum { PE_NE, PE_I, PE_SUMS, PE_SUMS2 };
#define SRAD1_EI                                                                                   \
    KM_S2R(0, SR_TID_X), KM_S2R(1, SR_CTAID_X), KM_OP3(KM_IMAD, 2, KR(1), KI(NT), KR(0)),          \
        KM_ISETP_(KM_GE, 0, KR(2), KP(PE_NE)), KM_BRA_IF(0, "end", "end"),                         \
        KM_OP3(KM_IMAD, 3, KR(2), KI(4), KP(PE_I))

static const struct km_inst extract_code[] = {
    SRAD1_EI,
    KM_LDG(4, 4, KR(3), 0),
    KM_OP2(KM_FMUL, 4, KR(4), KF(1.0f / 255.0f)),
    KM_OP2(KM_FMUL, 4, KR(4), KF(1.44269504f)),
    KM_MUFU_(KM_EX2, 4, KR(4)),
    KM_STG(4, KR(3), 0, KR(4)), /* d_I[ei] = exp(d_I[ei] / 255) */
    KM_LBL("end"),
    KM_EXIT_(),
};

static const struct km_inst prepare_code[] = {
    SRAD1_EI,
    KM_LDG(4, 4, KR(3), 0),
    KM_OP3(KM_IMAD, 5, KR(2), KI(4), KP(PE_SUMS)),
    KM_STG(4, KR(5), 0, KR(4)), /* d_sums[ei] = d_I[ei] */
    KM_LDG(4, 4, KR(3), 0),     /* reloaded: d_sums might alias d_I */
    KM_OP2(KM_FMUL, 4, KR(4), KR(4)),
    KM_OP3(KM_IMAD, 5, KR(2), KI(4), KP(PE_SUMS2)),
    KM_STG(4, KR(5), 0, KR(4)), /* d_sums2[ei] = d_I[ei] * d_I[ei] */
    KM_LBL("end"),
    KM_EXIT_(),
};

static const struct km_inst compress_code[] = {
    SRAD1_EI,
    KM_LDG(4, 4, KR(3), 0),
    KM_MUFU_(KM_LG2, 4, KR(4)),
    KM_OP2(KM_FMUL, 4, KR(4), KF(0.693147182f)),
    KM_OP2(KM_FMUL, 4, KR(4), KF(255.0f)),
    KM_STG(4, KR(3), 0, KR(4)), /* d_I[ei] = log(d_I[ei]) * 255 */
    KM_LBL("end"),
    KM_EXIT_(),
};

/* reduce: psum at shared 0, psum2 at 2048. R8 = the tree's extent (512, or df for the partial
 * last block), R10 = the remainder's end (512 or nf). */
enum { PR_NO, PR_MUL, PR_SUMS, PR_SUMS2 };
enum { PSUM2 = 4 * NT };
static const struct km_inst reduce_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 2, KR(1), KI(NT), KR(0)), /* ei */
    KM_OP2(KM_IMUL, 3, KS(SR_NCTAID_X), KI(NT)),
    KM_OP2(KM_ISUB, 3, KR(3), KP(PR_NO)),
    KM_OP2(KM_ISUB, 3, KI(NT), KR(3)), /* nf */
    KM_OP2(KM_SHL, 20, KR(0), KI(2)),  /* &psum[tx] */
    KM_ISETP_(KM_GE, 0, KR(2), KP(PR_NO)),
    KM_BRA_IF(0, "loaded", "loaded"),
    KM_OP2(KM_IMUL, 4, KR(2), KP(PR_MUL)),
    KM_OP2(KM_SHL, 4, KR(4), KI(2)),
    KM_OP2(KM_IADD, 5, KR(4), KP(PR_SUMS)),
    KM_LDG(4, 6, KR(5), 0), /* d_sums[ei * mul] */
    KM_OP2(KM_IADD, 5, KR(4), KP(PR_SUMS2)),
    KM_LDG(4, 7, KR(5), 0),
    KM_STS(4, KR(20), 0, KR(6)),
    KM_STS(4, KR(20), PSUM2, KR(7)),
    KM_LBL("loaded"),
    KM_MOV_(8, KI(NT)),
    KM_MOV_(10, KI(NT)),
    KM_OP2(KM_IADD, 9, KS(SR_NCTAID_X), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(1), KR(9)),
    KM_BRA_IF(0, "tree", "tree"), /* a full block */
    KM_ISETP_(KM_EQ, 0, KR(3), KI(NT)),
    KM_BRA_IF(0, "tree", "tree"), /* all blocks full */
    KM_MOV_(10, KR(3)),
    KM_MOV_(8, KRZ),
    KM_MOV_(11, KI(2)),
    KM_LBL("df"), /* df = the largest power of two <= nf */
    KM_ISETP_(KM_GE, 1, KR(3), KR(11)),
    KM_SEL_(8, KR(11), KR(8), 1),
    KM_OP2(KM_SHL, 11, KR(11), KI(1)),
    KM_ISETP_(KM_LE, 1, KR(11), KI(NT)),
    KM_BRA_IF(1, "df", "tree"),
    KM_LBL("tree"),
    KM_MOV_(11, KI(2)),
    KM_LBL("level"),
    KM_ISETP_(KM_GT, 1, KR(11), KR(8)),
    KM_BRA_IF(1, "top", "top"),
    KM_OP2(KM_IADD, 12, KR(0), KI(1)),
    KM_OP2(KM_IADD, 13, KR(11), KI(-1)),
    KM_OP2(KM_AND, 12, KR(12), KR(13)), /* (tx + 1) % i */
    KM_ISETP_(KM_LT, 2, KR(0), KR(8)),
    KM_SEL_(12, KR(12), KI(1), 2),
    KM_ISETP_(KM_NE, 2, KR(12), KRZ),
    KM_BRA_IF(2, "sync", "sync"),
    KM_OP2(KM_SHR, 13, KR(11), KI(1)),
    KM_OP2(KM_ISUB, 13, KR(0), KR(13)),
    KM_OP2(KM_SHL, 13, KR(13), KI(2)), /* &psum[tx - i / 2] */
    KM_LDS(4, 14, KR(20), 0),
    KM_LDS(4, 15, KR(13), 0),
    KM_OP2(KM_FADD, 14, KR(14), KR(15)),
    KM_STS(4, KR(20), 0, KR(14)),
    KM_LDS(4, 14, KR(20), PSUM2),
    KM_LDS(4, 15, KR(13), PSUM2),
    KM_OP2(KM_FADD, 14, KR(14), KR(15)),
    KM_STS(4, KR(20), PSUM2, KR(14)),
    KM_LBL("sync"),
    KM_BAR_(),
    KM_OP2(KM_SHL, 11, KR(11), KI(1)),
    KM_BRA_("level"),
    KM_LBL("top"),
    KM_OP2(KM_IADD, 9, KR(8), KI(-1)),
    KM_ISETP_(KM_NE, 1, KR(0), KR(9)),
    KM_BRA_IF(1, "end", "end"), /* the last busy thread */
    KM_LDS(4, 14, KR(20), 0),
    KM_LDS(4, 15, KR(20), PSUM2),
    KM_OP3(KM_IMAD, 16, KR(1), KI(NT), KR(8)),  /* i = bx * 512 + df */
    KM_OP3(KM_IMAD, 17, KR(1), KI(NT), KR(10)), /* .. bx * 512 + nf */
    KM_LBL("rem"),
    KM_ISETP_(KM_GE, 2, KR(16), KR(17)),
    KM_BRA_IF(2, "out", "out"),
    KM_OP3(KM_IMAD, 18, KR(16), KI(4), KP(PR_SUMS)),
    KM_LDG(4, 19, KR(18), 0), /* d_sums[i] (no mul stride, as the source) */
    KM_OP2(KM_FADD, 14, KR(14), KR(19)),
    KM_OP3(KM_IMAD, 18, KR(16), KI(4), KP(PR_SUMS2)),
    KM_LDG(4, 19, KR(18), 0),
    KM_OP2(KM_FADD, 15, KR(15), KR(19)),
    KM_OP2(KM_IADD, 16, KR(16), KI(1)),
    KM_BRA_("rem"),
    KM_LBL("out"),
    KM_OP2(KM_IMUL, 18, KR(1), KP(PR_MUL)),
    KM_OP2(KM_SHL, 18, KR(18), KI(11)), /* bx * mul * 512 floats */
    KM_OP2(KM_IADD, 19, KR(18), KP(PR_SUMS)),
    KM_STG(4, KR(19), 0, KR(14)),
    KM_OP2(KM_IADD, 19, KR(18), KP(PR_SUMS2)),
    KM_STG(4, KR(19), 0, KR(15)),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* srad and srad2: ei, then row (R6) and col (R4) of pixel ei in the column-major image. */
enum { PS_NE, PS_NR, PS_DIVM, PS_I, PS_C, PS_IN, PS_IS, PS_JE, PS_JW, PS_DN, PS_DS, PS_DW, PS_DE };
enum { PS_Q0 = 13, PS_LAMBDA = 13 };
#define SRAD1_ROWCOL                                                                               \
    KM_S2R(0, SR_TID_X), KM_S2R(1, SR_CTAID_X), KM_OP3(KM_IMAD, 2, KR(1), KI(NT), KR(0)),          \
        KM_OP2(KM_IADD, 3, KR(2), KI(1)), KM_OP2(KM_IMUL, 4, KR(3), KP(PS_DIVM)),                  \
        KM_OP2(KM_SHR, 4, KR(4), KI(DIV_SHIFT)), /* (ei + 1) / Nr */                               \
        KM_OP2(KM_IMUL, 5, KR(4), KP(PS_NR)), KM_OP2(KM_ISUB, 5, KR(3), KR(5)),                    \
        KM_OP2(KM_IADD, 6, KR(5), KI(-1)), KM_ISETP_(KM_EQ, 0, KR(5), KRZ),                        \
        KM_OP2(KM_IADD, 7, KP(PS_NR), KI(-1)), KM_SEL_(6, KR(7), KR(6), 0),                        \
        KM_OP2(KM_IADD, 7, KR(4), KI(-1)), KM_SEL_(4, KR(7), KR(4), 0),                            \
        KM_ISETP_(KM_GE, 1, KR(2), KP(PS_NE)), KM_BRA_IF(1, "end", "end"),                         \
        KM_OP2(KM_SHL, 8, KR(2), KI(2)) /* ei * 4 */

static const struct km_inst srad_code[] = {
    SRAD1_ROWCOL,
    KM_OP2(KM_IADD, 9, KR(8), KP(PS_I)),
    KM_LDG(4, 21, KR(9), 0), /* d_Jc */
    KM_OP3(KM_IMAD, 9, KR(6), KI(4), KP(PS_IN)),
    KM_LDG_S(4, 11, KR(9), 0), /* d_iN[row] */
    KM_OP3(KM_IMAD, 9, KR(6), KI(4), KP(PS_IS)),
    KM_LDG_S(4, 12, KR(9), 0), /* d_iS[row] */
    KM_OP3(KM_IMAD, 9, KR(4), KI(4), KP(PS_JW)),
    KM_LDG_S(4, 13, KR(9), 0), /* d_jW[col] */
    KM_OP3(KM_IMAD, 9, KR(4), KI(4), KP(PS_JE)),
    KM_LDG_S(4, 14, KR(9), 0), /* d_jE[col] */
    KM_OP3(KM_IMAD, 9, KR(4), KP(PS_NR), KR(11)),
    KM_OP3(KM_IMAD, 9, KR(9), KI(4), KP(PS_I)),
    KM_LDG(4, 22, KR(9), 0),
    KM_OP3(KM_IMAD, 9, KR(4), KP(PS_NR), KR(12)),
    KM_OP3(KM_IMAD, 9, KR(9), KI(4), KP(PS_I)),
    KM_LDG(4, 23, KR(9), 0),
    KM_OP3(KM_IMAD, 9, KR(13), KP(PS_NR), KR(6)),
    KM_OP3(KM_IMAD, 9, KR(9), KI(4), KP(PS_I)),
    KM_LDG(4, 24, KR(9), 0),
    KM_OP3(KM_IMAD, 9, KR(14), KP(PS_NR), KR(6)),
    KM_OP3(KM_IMAD, 9, KR(9), KI(4), KP(PS_I)),
    KM_LDG(4, 25, KR(9), 0),
    KM_OP2(KM_FSUB, 22, KR(22), KR(21)), /* dN */
    KM_OP2(KM_FSUB, 23, KR(23), KR(21)), /* dS */
    KM_OP2(KM_FSUB, 24, KR(24), KR(21)), /* dW */
    KM_OP2(KM_FSUB, 25, KR(25), KR(21)), /* dE */
    SRAD_COEF(PS_Q0),
    KM_OP2(KM_IADD, 9, KR(8), KP(PS_DN)),
    KM_STG(4, KR(9), 0, KR(22)),
    KM_OP2(KM_IADD, 9, KR(8), KP(PS_DS)),
    KM_STG(4, KR(9), 0, KR(23)),
    KM_OP2(KM_IADD, 9, KR(8), KP(PS_DW)),
    KM_STG(4, KR(9), 0, KR(24)),
    KM_OP2(KM_IADD, 9, KR(8), KP(PS_DE)),
    KM_STG(4, KR(9), 0, KR(25)),
    KM_OP2(KM_IADD, 9, KR(8), KP(PS_C)),
    KM_STG(4, KR(9), 0, KR(31)),
    KM_LBL("end"),
    KM_EXIT_(),
};

static const struct km_inst srad2_code[] = {
    SRAD1_ROWCOL,
    KM_OP2(KM_IADD, 9, KR(8), KP(PS_C)),
    KM_LDG(4, 21, KR(9), 0), /* d_cN = d_cW = d_c[ei] (one load) */
    KM_OP3(KM_IMAD, 9, KR(6), KI(4), KP(PS_IS)),
    KM_LDG_S(4, 12, KR(9), 0), /* d_iS[row] */
    KM_OP3(KM_IMAD, 9, KR(4), KI(4), KP(PS_JE)),
    KM_LDG_S(4, 14, KR(9), 0), /* d_jE[col] */
    KM_OP3(KM_IMAD, 9, KR(4), KP(PS_NR), KR(12)),
    KM_OP3(KM_IMAD, 9, KR(9), KI(4), KP(PS_C)),
    KM_LDG(4, 22, KR(9), 0), /* d_cS */
    KM_OP3(KM_IMAD, 9, KR(14), KP(PS_NR), KR(6)),
    KM_OP3(KM_IMAD, 9, KR(9), KI(4), KP(PS_C)),
    KM_LDG(4, 23, KR(9), 0), /* d_cE */
    KM_OP2(KM_IADD, 9, KR(8), KP(PS_DN)),
    KM_LDG(4, 24, KR(9), 0),
    KM_OP2(KM_IADD, 9, KR(8), KP(PS_DS)),
    KM_LDG(4, 25, KR(9), 0),
    KM_OP2(KM_IADD, 9, KR(8), KP(PS_DW)),
    KM_LDG(4, 26, KR(9), 0),
    KM_OP2(KM_IADD, 9, KR(8), KP(PS_DE)),
    KM_LDG(4, 27, KR(9), 0),
    KM_OP2(KM_FMUL, 28, KR(21), KR(24)),
    KM_OP3(KM_FFMA, 28, KR(22), KR(25), KR(28)),
    KM_OP3(KM_FFMA, 28, KR(21), KR(26), KR(28)),
    KM_OP3(KM_FFMA, 28, KR(23), KR(27), KR(28)), /* d_D */
    KM_OP2(KM_IADD, 9, KR(8), KP(PS_I)),
    KM_LDG(4, 29, KR(9), 0),
    KM_OP2(KM_FMUL, 30, KP(PS_LAMBDA), KF(0.25f)),
    KM_OP3(KM_FFMA, 29, KR(30), KR(28), KR(29)),
    KM_STG(4, KR(9), 0, KR(29)), /* d_I[ei] += 0.25 * lambda * d_D */
    KM_LBL("end"),
    KM_EXIT_(),
};

struct srad1_cfg {
    int64_t rows, cols, iters;
};
static const struct cfg_key srad1_keys[] = {
    {"workload.srad1.rows", CFG_INT, offsetof(struct srad1_cfg, rows), NULL, 2, 8192, NULL,
     "pixels", "image rows Nr (preset by workload.size: test 50, paper 502)"},
    {"workload.srad1.cols", CFG_INT, offsetof(struct srad1_cfg, cols), NULL, 2, 8192, NULL,
     "pixels", "image columns Nc (test 46, paper 458)"},
    {"workload.srad1.iters", CFG_INT, offsetof(struct srad1_cfg, iters), NULL, 1, 100000, NULL,
     "iterations", "diffusion iterations (test 2, paper 100 as Rodinia's run script)"},
};

enum phase { PH_EXTRACT, PH_PREPARE, PH_REDUCE, PH_SRAD, PH_SRAD2, PH_COMPRESS, PH_DONE };

struct srad1 {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog extract, prepare, reduce, srad, srad2, compress;
    uint32_t nr, nc, iters, it;
    uint64_t ne, blocks;
    enum phase ph;
    uint64_t no, mul, blocks2; /* the reduce loop's state */
    float q0sqr;
    uint64_t divm;
    uint32_t launches;
    uint64_t d_i, d_in, d_is, d_je, d_jw, d_sums, d_sums2, d_dn, d_ds, d_dw, d_de, d_c;
    struct wl_copy copies[5];
};

static const float LAMBDA = 0.5f;

/* q0sqr from the reduced sums, as main.cu computes it (NeROI = Ne: the ROI is the image). */
static float q0_of(float total, float total2, uint64_t ne) {
    float mean = total / (float)ne, mean2 = mean * mean;
    float var = (total2 / (float)ne) - mean2;
    return var / mean2;
}

static int srad1_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct srad1 *s = (struct srad1 *)w;
    if (s->ph == PH_REDUCE && s->blocks2 == 0) { /* the reduce loop is over: the host's stats */
        const float *t = devmem_host(s->kw.dm, s->d_sums, 4),
                    *t2 = devmem_host(s->kw.dm, s->d_sums2, 4);
        s->q0sqr = q0_of(*t, *t2, s->ne);
        s->ph = PH_SRAD;
    }
    if (s->ph == PH_DONE) return 0;
    struct km_launch l = {.grid = {(uint32_t)s->blocks, 1, 1}, .block = {NT, 1, 1}};
    switch (s->ph) {
    case PH_EXTRACT:
    case PH_PREPARE:
    case PH_COMPRESS:
        l.prog = s->ph == PH_EXTRACT   ? &s->extract
                 : s->ph == PH_PREPARE ? &s->prepare
                                       : &s->compress;
        l.param[PE_NE] = (int64_t)s->ne;
        l.param[PE_I] = (int64_t)s->d_i;
        l.param[PE_SUMS] = (int64_t)s->d_sums;
        l.param[PE_SUMS2] = (int64_t)s->d_sums2;
        break;
    case PH_REDUCE:
        l.prog = &s->reduce;
        l.grid[0] = (uint32_t)s->blocks2;
        l.smem = 2 * 4 * NT;
        l.param[PR_NO] = (int64_t)s->no;
        l.param[PR_MUL] = (int64_t)s->mul;
        l.param[PR_SUMS] = (int64_t)s->d_sums;
        l.param[PR_SUMS2] = (int64_t)s->d_sums2;
        break;
    default:
        l.prog = s->ph == PH_SRAD ? &s->srad : &s->srad2;
        l.param[PS_NE] = (int64_t)s->ne;
        l.param[PS_NR] = s->nr;
        l.param[PS_DIVM] = (int64_t)s->divm;
        l.param[PS_I] = (int64_t)s->d_i;
        l.param[PS_C] = (int64_t)s->d_c;
        l.param[PS_IN] = (int64_t)s->d_in;
        l.param[PS_IS] = (int64_t)s->d_is;
        l.param[PS_JE] = (int64_t)s->d_je;
        l.param[PS_JW] = (int64_t)s->d_jw;
        l.param[PS_DN] = (int64_t)s->d_dn;
        l.param[PS_DS] = (int64_t)s->d_ds;
        l.param[PS_DW] = (int64_t)s->d_dw;
        l.param[PS_DE] = (int64_t)s->d_de;
        l.param[PS_Q0] = srad_fparam(s->ph == PH_SRAD ? s->q0sqr : LAMBDA);
    }
    if (km_run_launch(s->kw.run, &l, k, e)) return -1;
    k->id = s->launches++;
    k->copies = s->copies;
    k->ncopies = s->ph == PH_EXTRACT ? 5 : 0;
    switch (s->ph) { /* what comes next */
    case PH_EXTRACT:
        s->ph = PH_PREPARE;
        break;
    case PH_PREPARE:
        s->ph = PH_REDUCE, s->blocks2 = s->blocks, s->no = s->ne, s->mul = 1;
        break;
    case PH_REDUCE:
        s->no = s->blocks2;
        if (s->blocks2 == 1)
            s->blocks2 = 0;
        else
            s->mul *= NT, s->blocks2 = (s->blocks2 + NT - 1) / NT;
        break;
    case PH_SRAD:
        s->ph = PH_SRAD2;
        break;
    case PH_SRAD2:
        s->ph = ++s->it < s->iters ? PH_PREPARE : PH_COMPRESS;
        break;
    default:
        s->ph = PH_DONE;
    }
    return 1;
}

static uint32_t mix(uint32_t x) {
    x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
    return x;
}
/* Pixel (row r, column c): a smooth 0..255 pattern with multiplicative speckle, as an integer. */
static float pixel(uint32_t r, uint32_t c) {
    uint32_t base = 60 + (r * 3 + c * 2) % 120, sp = mix(r * 7919u + c) % 64;
    uint32_t v = base * (32 + sp) / 64;
    return (float)(v > 255 ? 255 : v);
}

/* One reduce launch of the host check (reduce_kernel.cu's arithmetic, in its order). */
static void host_reduce(float *sums, float *sums2, uint64_t no, uint64_t mul, uint64_t grid) {
    float ps[NT], ps2[NT];
    uint64_t nf = NT - (grid * NT - no);
    for (uint64_t bx = 0; bx < grid; bx++) {
        for (uint64_t tx = 0; tx < NT; tx++) {
            uint64_t ei = bx * NT + tx;
            ps[tx] = ei < no ? sums[ei * mul] : 0, ps2[tx] = ei < no ? sums2[ei * mul] : 0;
        }
        uint64_t lim = NT, hi = NT;
        if (nf != NT && bx == grid - 1) {
            lim = 0, hi = nf;
            for (uint64_t i = 2; i <= NT; i *= 2)
                if (nf >= i) lim = i;
        }
        for (uint64_t i = 2; i <= lim; i *= 2)
            for (uint64_t tx = 0; tx < lim; tx++)
                if ((tx + 1) % i == 0)
                    ps[tx] = ps[tx] + ps[tx - i / 2], ps2[tx] = ps2[tx] + ps2[tx - i / 2];
        float a = ps[lim - 1], a2 = ps2[lim - 1];
        for (uint64_t i = bx * NT + lim; i < bx * NT + hi; i++) a = a + sums[i], a2 = a2 + sums2[i];
        sums[bx * mul * NT] = a, sums2[bx * mul * NT] = a2;
    }
}

/* The whole program on the host, up to where the run got (whole iterations), compared bit for bit
 * with d_I and d_c. */
static int srad1_verify(struct workload *w, struct ws_err *e) {
    struct srad1 *s = (struct srad1 *)w;
    if (s->launches == 0 || (s->ph != PH_PREPARE && s->ph != PH_DONE && s->ph != PH_COMPRESS))
        return 0; /* mid-iteration: nothing whole to compare */
    uint64_t ne = s->ne, nr = s->nr, nc = s->nc;
    float *im = malloc(ne * 4), *sums = malloc(ne * 4), *sums2 = malloc(ne * 4),
          *c = malloc(ne * 4), *dn = malloc(ne * 4), *ds = malloc(ne * 4), *dw = malloc(ne * 4),
          *de = malloc(ne * 4);
    int rc = 0;
    if (!im || !sums || !sums2 || !c || !dn || !ds || !dw || !de) {
        rc = ws_fail(e, "srad1: out of memory");
        goto out;
    }
    for (uint64_t i = 0; i < ne; i++)
        im[i] =
            exp2f(pixel((uint32_t)(i % nr), (uint32_t)(i / nr)) * (1.0f / 255.0f) * 1.44269504f);
    for (uint32_t it = 0; it < s->it; it++) {
        for (uint64_t i = 0; i < ne; i++) sums[i] = im[i], sums2[i] = im[i] * im[i];
        for (uint64_t b2 = s->blocks, no = ne, mul = 1;;) {
            host_reduce(sums, sums2, no, mul, b2);
            no = b2;
            if (b2 == 1) break;
            mul *= NT, b2 = (b2 + NT - 1) / NT;
        }
        float q0 = q0_of(sums[0], sums2[0], ne);
        for (uint64_t col = 0; col < nc; col++)
            for (uint64_t row = 0; row < nr; row++) {
                uint64_t i = col * nr + row;
                float jc = im[i];
                float nv = im[i - (row > 0)] - jc, sv = im[i + (row + 1 < nr)] - jc,
                      wv = im[i - (col > 0 ? nr : 0)] - jc,
                      ev = im[i + (col + 1 < nc ? nr : 0)] - jc;
                c[i] = srad_coef_host(jc, nv, sv, wv, ev, q0);
                dn[i] = nv, ds[i] = sv, dw[i] = wv, de[i] = ev;
            }
        float q = LAMBDA * 0.25f;
        for (uint64_t col = 0; col < nc; col++)
            for (uint64_t row = 0; row < nr; row++) {
                uint64_t i = col * nr + row;
                float cs = c[i + (row + 1 < nr)], ce = c[i + (col + 1 < nc ? nr : 0)];
                float d = c[i] * dn[i];
                d = fmaf(cs, ds[i], d);
                d = fmaf(c[i], dw[i], d);
                d = fmaf(ce, de[i], d);
                im[i] = fmaf(q, d, im[i]);
            }
    }
    if (s->ph == PH_DONE)
        for (uint64_t i = 0; i < ne; i++) im[i] = log2f(im[i]) * 0.693147182f * 255.0f;
    const float *di = devmem_host(s->kw.dm, s->d_i, ne * 4),
                *dc = devmem_host(s->kw.dm, s->d_c, ne * 4);
    for (uint64_t i = 0; i < ne && rc == 0; i++) {
        if (memcmp(&di[i], &im[i], 4))
            rc = ws_fail(e, "srad1: I[row %llu][col %llu] = %.9g, the host says %.9g",
                         (unsigned long long)(i % nr), (unsigned long long)(i / nr), di[i], im[i]);
        else if (s->it > 0 && memcmp(&dc[i], &c[i], 4))
            rc = ws_fail(e, "srad1: c[row %llu][col %llu] = %.9g, the host says %.9g",
                         (unsigned long long)(i % nr), (unsigned long long)(i / nr), dc[i], c[i]);
    }
out:
    free(im), free(sums), free(sums2), free(c), free(dn), free(ds), free(dw), free(de);
    return rc;
}

static void srad1_destroy(struct workload *w) {
    struct srad1 *s = (struct srad1 *)w;
    km_prog_free(&s->extract);
    km_prog_free(&s->prepare);
    km_prog_free(&s->reduce);
    km_prog_free(&s->srad);
    km_prog_free(&s->srad2);
    km_prog_free(&s->compress);
    km_wl_fini(&s->kw);
    free(s);
}

static const struct workload_vt srad1_vt = {srad1_next,    km_wl_cta_start, km_wl_warp_next,
                                            km_wl_cta_end, srad1_verify,    srad1_destroy};

struct workload *srad1_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct srad1_cfg sc = {paper ? 502 : 50, paper ? 458 : 46, paper ? 100 : 2};
    if (cfg_bind(c, "workload.srad1", srad1_keys, CFG_COUNT(srad1_keys), &sc, e)) return NULL;
    struct srad1 *s = calloc(1, sizeof *s);
    if (!s) return ws_fail(e, "srad1: out of memory"), NULL;
    s->nr = (uint32_t)sc.rows, s->nc = (uint32_t)sc.cols, s->iters = (uint32_t)sc.iters;
    s->ne = (uint64_t)s->nr * s->nc;
    s->blocks = (s->ne + NT - 1) / NT;
    s->divm = (1ull << DIV_SHIFT) / s->nr + 1;
    if (km_wl_init(&s->kw, &srad1_vt, "srad1", e)) return free(s), NULL;
    uint64_t m = 4 * s->ne;
    struct devmem *dm = s->kw.dm;
    if (km_prog_build(&s->extract, "extract", 10, extract_code, CFG_COUNT(extract_code), e) ||
        km_prog_build(&s->prepare, "prepare", 10, prepare_code, CFG_COUNT(prepare_code), e) ||
        km_prog_build(&s->reduce, "reduce", 22, reduce_code, CFG_COUNT(reduce_code), e) ||
        km_prog_build(&s->srad, "srad", 32, srad_code, CFG_COUNT(srad_code), e) ||
        km_prog_build(&s->srad2, "srad2", 32, srad2_code, CFG_COUNT(srad2_code), e) ||
        km_prog_build(&s->compress, "compress", 10, compress_code, CFG_COUNT(compress_code), e) ||
        !(s->d_i = devmem_alloc(dm, m, "d_I", e)) ||
        !(s->d_in = devmem_alloc(dm, 4ull * s->nr, "d_iN", e)) ||
        !(s->d_is = devmem_alloc(dm, 4ull * s->nr, "d_iS", e)) ||
        !(s->d_je = devmem_alloc(dm, 4ull * s->nc, "d_jE", e)) ||
        !(s->d_jw = devmem_alloc(dm, 4ull * s->nc, "d_jW", e)) ||
        !(s->d_sums = devmem_alloc(dm, m, "d_sums", e)) ||
        !(s->d_sums2 = devmem_alloc(dm, m, "d_sums2", e)) ||
        !(s->d_dn = devmem_alloc(dm, m, "d_dN", e)) ||
        !(s->d_ds = devmem_alloc(dm, m, "d_dS", e)) ||
        !(s->d_dw = devmem_alloc(dm, m, "d_dW", e)) ||
        !(s->d_de = devmem_alloc(dm, m, "d_dE", e)) || !(s->d_c = devmem_alloc(dm, m, "d_c", e))) {
        srad1_destroy(&s->kw.base);
        return NULL;
    }
    int32_t *in = devmem_host(dm, s->d_in, 4ull * s->nr),
            *is = devmem_host(dm, s->d_is, 4ull * s->nr),
            *je = devmem_host(dm, s->d_je, 4ull * s->nc),
            *jw = devmem_host(dm, s->d_jw, 4ull * s->nc);
    for (uint32_t i = 0; i < s->nr; i++) /* clamped at the borders, as main.cu sets them */
        in[i] = i == 0 ? 0 : (int32_t)i - 1, is[i] = i + 1 == s->nr ? (int32_t)i : (int32_t)i + 1;
    for (uint32_t j = 0; j < s->nc; j++)
        jw[j] = j == 0 ? 0 : (int32_t)j - 1, je[j] = j + 1 == s->nc ? (int32_t)j : (int32_t)j + 1;
    float *im = devmem_host(dm, s->d_i, m);
    for (uint64_t i = 0; i < s->ne; i++)
        im[i] = pixel((uint32_t)(i % s->nr), (uint32_t)(i / s->nr));
    s->copies[0] = (struct wl_copy){s->d_in, 4ull * s->nr};
    s->copies[1] = (struct wl_copy){s->d_is, 4ull * s->nr};
    s->copies[2] = (struct wl_copy){s->d_je, 4ull * s->nc};
    s->copies[3] = (struct wl_copy){s->d_jw, 4ull * s->nc};
    s->copies[4] = (struct wl_copy){s->d_i, m};
    return &s->kw.base;
}
