/* Lattice-Boltzmann (seed 001's LBM) as Parboil runs it (Parboil 2.5, lbm/src/cuda: lbm.cu
 * CUDA_LBM_performStreamCollide, lbm_kernel.cu performStreamCollide_kernel, layout_config.h).
 * One thread per cell x, a block per (y, z) row: grid (SIZE_Y, SIZE_Z), block SIZE_X. The grid
 * is an array of 20-float cell records (19 distributions and a flags word, CALC_INDEX(x, y, z,
 * e) = e + 20 (x + y PADDED_X + z PADDED_X PADDED_Y), PADDED_X = SIZE_X + 8, two z-layers of
 * margin on each side), so every one of a warp's 19 loads and 19 stores touches 32 cells 80
 * bytes apart (about 20 lines): the SCATTER variant reads its own cell and writes each
 * distribution to the neighbour it streams to. Obstacle cells bounce their distributions back;
 * fluid cells relax towards equilibrium (BGK, OMEGA 1.95), with the lid-driven-cavity ACCEL cells
 * forced to u = (0.005, 0.002, 0). The host swaps the two grids after every time step. Device
 * arrays in cudaMalloc order: the source grid, then the destination grid.
 *
 * Model forms: the three divisions by rho share one MUFU.RCP; `a*b + c*d` contracts to
 * FFMA(a, b, c*d); -u2 is formed once. The host check does the same float operations.
 * Input: LBM_initializeGrid's equilibrium (C 1/3, axes 1/18, diagonals 1/36), the LDC boundary
 * as LBM_initializeSpecialCellsForLDC marks it (obstacle walls, ACCEL layers next to the lids),
 * and, for Parboil's obstacle file (not shipped), 5% of the interior cells made obstacles from
 * workload.seed. Sizes: paper 120 x 120 x 150 (Parboil's only volume) for 2 time steps (the
 * paper's runs stop at 1 billion instructions, about two steps), test 32 x 8 x 8 for 2 steps;
 * workload.lbm.x/y/z/steps set others. Host memory: 2 x 20 x 4 x (x + 8) y (z + 4) bytes
 * (380 MB at paper size). */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/kernels/kmodel.h"

enum { LBM_E = 20, LBM_FLAGS = 19, LBM_OBSTACLE = 1, LBM_ACCEL = 2 };
#define LBM_OMEGA 1.95f
#define LBM_T2    (1.0f - LBM_OMEGA)
#define LBM_DFL1  (1.0f / 3.0f)
#define LBM_DFL2  (1.0f / 18.0f)
#define LBM_DFL3  (1.0f / 36.0f)
/* The kernel's strides are compile-time constants in Parboil; the model reads them from the
 * launch (P_PX: PADDED_X, P_PXY: PADDED_X * PADDED_Y) and the store offsets from these. */
enum { P_SRC, P_DST, P_PX, P_PXY };

/* Streaming direction of each distribution (C N S E W T B NE NW SE SW NT NB ST SB ET EB WT WB). */
static const int8_t lbm_dir[19][3] = {{0, 0, 0},   {0, 1, 0},  {0, -1, 0}, {1, 0, 0},  {-1, 0, 0},
                                      {0, 0, 1},   {0, 0, -1}, {1, 1, 0},  {-1, 1, 0}, {1, -1, 0},
                                      {-1, -1, 0}, {0, 1, 1},  {0, 1, -1}, {0, -1, 1}, {0, -1, -1},
                                      {1, 0, 1},   {1, 0, -1}, {-1, 0, 1}, {-1, 0, -1}};

static const struct km_inst lbm_code[] = {
    KM_S2R(0, SR_TID_X),   /* x */
    KM_S2R(3, SR_CTAID_X), /* y */
    KM_S2R(4, SR_CTAID_Y), /* z */
    KM_OP3(KM_IMAD, 5, KR(3), KP(P_PX), KR(0)),
    KM_OP3(KM_IMAD, 5, KR(4), KP(P_PXY), KR(5)), /* cell */
    KM_OP2(KM_IMUL, 5, KR(5), KI(4 * LBM_E)),
    KM_OP2(KM_IADD, 1, KR(5), KP(P_SRC)),
    KM_OP2(KM_IADD, 2, KR(5), KP(P_DST)),
    KM_LDG(4, 10, KR(1), 4 * 0),  /* tempC */
    KM_LDG(4, 11, KR(1), 4 * 1),  /* tempN */
    KM_LDG(4, 12, KR(1), 4 * 2),  /* tempS */
    KM_LDG(4, 13, KR(1), 4 * 3),  /* tempE */
    KM_LDG(4, 14, KR(1), 4 * 4),  /* tempW */
    KM_LDG(4, 15, KR(1), 4 * 5),  /* tempT */
    KM_LDG(4, 16, KR(1), 4 * 6),  /* tempB */
    KM_LDG(4, 17, KR(1), 4 * 7),  /* tempNE */
    KM_LDG(4, 18, KR(1), 4 * 8),  /* tempNW */
    KM_LDG(4, 19, KR(1), 4 * 9),  /* tempSE */
    KM_LDG(4, 20, KR(1), 4 * 10), /* tempSW */
    KM_LDG(4, 21, KR(1), 4 * 11), /* tempNT */
    KM_LDG(4, 22, KR(1), 4 * 12), /* tempNB */
    KM_LDG(4, 23, KR(1), 4 * 13), /* tempST */
    KM_LDG(4, 24, KR(1), 4 * 14), /* tempSB */
    KM_LDG(4, 25, KR(1), 4 * 15), /* tempET */
    KM_LDG(4, 26, KR(1), 4 * 16), /* tempEB */
    KM_LDG(4, 27, KR(1), 4 * 17), /* tempWT */
    KM_LDG(4, 28, KR(1), 4 * 18), /* tempWB */
    KM_LDG(4, 29, KR(1), 4 * LBM_FLAGS),
    KM_OP2(KM_AND, 38, KR(29), KI(LBM_OBSTACLE)),
    KM_ISETP_(KM_EQ, 0, KR(38), KRZ),
    KM_BRA_IF(0, "fluid", "store"),
    KM_MOV_(38, KR(11)),
    KM_MOV_(11, KR(12)),
    KM_MOV_(12, KR(38)),
    KM_MOV_(38, KR(13)),
    KM_MOV_(13, KR(14)),
    KM_MOV_(14, KR(38)),
    KM_MOV_(38, KR(15)),
    KM_MOV_(15, KR(16)),
    KM_MOV_(16, KR(38)),
    KM_MOV_(38, KR(17)),
    KM_MOV_(17, KR(20)),
    KM_MOV_(20, KR(38)),
    KM_MOV_(38, KR(18)),
    KM_MOV_(18, KR(19)),
    KM_MOV_(19, KR(38)),
    KM_MOV_(38, KR(21)),
    KM_MOV_(21, KR(24)),
    KM_MOV_(24, KR(38)),
    KM_MOV_(38, KR(22)),
    KM_MOV_(22, KR(23)),
    KM_MOV_(23, KR(38)),
    KM_MOV_(38, KR(25)),
    KM_MOV_(25, KR(28)),
    KM_MOV_(28, KR(38)),
    KM_MOV_(38, KR(26)),
    KM_MOV_(26, KR(27)),
    KM_MOV_(27, KR(38)),
    KM_BRA_("store"),
    KM_LBL("fluid"),
    KM_OP2(KM_FADD, 30, KR(10), KR(11)),
    KM_OP2(KM_FADD, 30, KR(30), KR(12)),
    KM_OP2(KM_FADD, 30, KR(30), KR(13)),
    KM_OP2(KM_FADD, 30, KR(30), KR(14)),
    KM_OP2(KM_FADD, 30, KR(30), KR(15)),
    KM_OP2(KM_FADD, 30, KR(30), KR(16)),
    KM_OP2(KM_FADD, 30, KR(30), KR(17)),
    KM_OP2(KM_FADD, 30, KR(30), KR(18)),
    KM_OP2(KM_FADD, 30, KR(30), KR(19)),
    KM_OP2(KM_FADD, 30, KR(30), KR(20)),
    KM_OP2(KM_FADD, 30, KR(30), KR(21)),
    KM_OP2(KM_FADD, 30, KR(30), KR(22)),
    KM_OP2(KM_FADD, 30, KR(30), KR(23)),
    KM_OP2(KM_FADD, 30, KR(30), KR(24)),
    KM_OP2(KM_FADD, 30, KR(30), KR(25)),
    KM_OP2(KM_FADD, 30, KR(30), KR(26)),
    KM_OP2(KM_FADD, 30, KR(30), KR(27)),
    KM_OP2(KM_FADD, 30, KR(30), KR(28)),
    KM_MOV_(31, KR(13)),
    KM_OP2(KM_FSUB, 31, KR(31), KR(14)),
    KM_OP2(KM_FADD, 31, KR(31), KR(17)),
    KM_OP2(KM_FSUB, 31, KR(31), KR(18)),
    KM_OP2(KM_FADD, 31, KR(31), KR(19)),
    KM_OP2(KM_FSUB, 31, KR(31), KR(20)),
    KM_OP2(KM_FADD, 31, KR(31), KR(25)),
    KM_OP2(KM_FADD, 31, KR(31), KR(26)),
    KM_OP2(KM_FSUB, 31, KR(31), KR(27)),
    KM_OP2(KM_FSUB, 31, KR(31), KR(28)),
    KM_MOV_(32, KR(11)),
    KM_OP2(KM_FSUB, 32, KR(32), KR(12)),
    KM_OP2(KM_FADD, 32, KR(32), KR(17)),
    KM_OP2(KM_FADD, 32, KR(32), KR(18)),
    KM_OP2(KM_FSUB, 32, KR(32), KR(19)),
    KM_OP2(KM_FSUB, 32, KR(32), KR(20)),
    KM_OP2(KM_FADD, 32, KR(32), KR(21)),
    KM_OP2(KM_FADD, 32, KR(32), KR(22)),
    KM_OP2(KM_FSUB, 32, KR(32), KR(23)),
    KM_OP2(KM_FSUB, 32, KR(32), KR(24)),
    KM_MOV_(33, KR(15)),
    KM_OP2(KM_FSUB, 33, KR(33), KR(16)),
    KM_OP2(KM_FADD, 33, KR(33), KR(21)),
    KM_OP2(KM_FSUB, 33, KR(33), KR(22)),
    KM_OP2(KM_FADD, 33, KR(33), KR(23)),
    KM_OP2(KM_FSUB, 33, KR(33), KR(24)),
    KM_OP2(KM_FADD, 33, KR(33), KR(25)),
    KM_OP2(KM_FSUB, 33, KR(33), KR(26)),
    KM_OP2(KM_FADD, 33, KR(33), KR(27)),
    KM_OP2(KM_FSUB, 33, KR(33), KR(28)),
    KM_MUFU_(KM_RCP, 41, KR(30)),
    KM_OP2(KM_FMUL, 31, KR(31), KR(41)),
    KM_OP2(KM_FMUL, 32, KR(32), KR(41)),
    KM_OP2(KM_FMUL, 33, KR(33), KR(41)),
    KM_OP2(KM_AND, 38, KR(29), KI(LBM_ACCEL)),
    KM_ISETP_(KM_EQ, 1, KR(38), KRZ),
    KM_BRA_IF(1, "noaccel", "noaccel"),
    KM_MOV_(31, KF(0.005f)),
    KM_MOV_(32, KF(0.002f)),
    KM_MOV_(33, KF(0.000f)),
    KM_LBL("noaccel"),
    KM_OP2(KM_FMUL, 34, KR(31), KR(31)),
    KM_OP3(KM_FFMA, 34, KR(32), KR(32), KR(34)),
    KM_OP3(KM_FFMA, 34, KR(33), KR(33), KR(34)),
    KM_OP3(KM_FFMA, 34, KF(1.5f), KR(34), KF(-1.0f)), /* u2 */
    KM_OP2(KM_FMUL, 35, KR(34), KF(-1.0f)),           /* -u2 */
    KM_OP2(KM_FMUL, 37, KF(LBM_OMEGA), KR(30)),       /* temp_base */
    KM_OP2(KM_FMUL, 36, KF(LBM_DFL1), KR(37)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(35)),
    KM_OP3(KM_FFMA, 10, KF(LBM_T2), KR(10), KR(39)), /* tempC */
    KM_OP2(KM_FMUL, 36, KF(LBM_DFL2), KR(37)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(32), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(32), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 11, KF(LBM_T2), KR(11), KR(39)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(32), KF(-3.0f)),
    KM_OP3(KM_FFMA, 39, KR(32), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 12, KF(LBM_T2), KR(12), KR(39)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(33), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(33), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 15, KF(LBM_T2), KR(15), KR(39)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(33), KF(-3.0f)),
    KM_OP3(KM_FFMA, 39, KR(33), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 16, KF(LBM_T2), KR(16), KR(39)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(31), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(31), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 13, KF(LBM_T2), KR(13), KR(39)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(31), KF(-3.0f)),
    KM_OP3(KM_FFMA, 39, KR(31), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 14, KF(LBM_T2), KR(14), KR(39)),
    KM_OP2(KM_FMUL, 36, KF(LBM_DFL3), KR(37)),
    KM_OP2(KM_FADD, 40, KR(32), KR(33)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(40), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(40), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 21, KF(LBM_T2), KR(21), KR(39)),
    KM_OP2(KM_FSUB, 40, KR(32), KR(33)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(40), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(40), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 22, KF(LBM_T2), KR(22), KR(39)),
    KM_OP2(KM_FSUB, 40, KR(33), KR(32)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(40), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(40), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 23, KF(LBM_T2), KR(23), KR(39)),
    KM_OP2(KM_FADD, 40, KR(32), KR(33)),
    KM_OP2(KM_FMUL, 40, KR(40), KF(-1.0f)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(40), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(40), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 24, KF(LBM_T2), KR(24), KR(39)),
    KM_OP2(KM_FADD, 40, KR(31), KR(32)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(40), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(40), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 17, KF(LBM_T2), KR(17), KR(39)),
    KM_OP2(KM_FSUB, 40, KR(31), KR(32)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(40), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(40), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 19, KF(LBM_T2), KR(19), KR(39)),
    KM_OP2(KM_FADD, 40, KR(31), KR(33)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(40), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(40), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 25, KF(LBM_T2), KR(25), KR(39)),
    KM_OP2(KM_FSUB, 40, KR(31), KR(33)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(40), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(40), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 26, KF(LBM_T2), KR(26), KR(39)),
    KM_OP2(KM_FSUB, 40, KR(32), KR(31)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(40), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(40), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 18, KF(LBM_T2), KR(18), KR(39)),
    KM_OP2(KM_FADD, 40, KR(31), KR(32)),
    KM_OP2(KM_FMUL, 40, KR(40), KF(-1.0f)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(40), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(40), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 20, KF(LBM_T2), KR(20), KR(39)),
    KM_OP2(KM_FSUB, 40, KR(33), KR(31)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(40), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(40), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 27, KF(LBM_T2), KR(27), KR(39)),
    KM_OP2(KM_FADD, 40, KR(31), KR(33)),
    KM_OP2(KM_FMUL, 40, KR(40), KF(-1.0f)),
    KM_OP3(KM_FFMA, 39, KF(4.5f), KR(40), KF(3.0f)),
    KM_OP3(KM_FFMA, 39, KR(40), KR(39), KR(35)),
    KM_OP2(KM_FMUL, 39, KR(36), KR(39)),
    KM_OP3(KM_FFMA, 28, KF(LBM_T2), KR(28), KR(39)),
    KM_LBL("store"),
    KM_STG(4, KR(2), 0, KR(10)), /* DST_C: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(11)), /* DST_N: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(12)), /* DST_S: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(13)), /* DST_E: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(14)), /* DST_W: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(15)), /* DST_T: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(16)), /* DST_B: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(17)), /* DST_NE: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(18)), /* DST_NW: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(19)), /* DST_SE: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(20)), /* DST_SW: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(21)), /* DST_NT: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(22)), /* DST_NB: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(23)), /* DST_ST: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(24)), /* DST_SB: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(25)), /* DST_ET: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(26)), /* DST_EB: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(27)), /* DST_WT: offset set by lbm_create */
    KM_STG(4, KR(2), 0, KR(28)), /* DST_WB: offset set by lbm_create */
    KM_EXIT_(),
};

struct lbm_cfg {
    int64_t x, y, z, steps;
};
static const struct cfg_key lbm_keys[] = {
    {"workload.lbm.x", CFG_INT, offsetof(struct lbm_cfg, x), NULL, 3, 1024, NULL, "cells",
     "SIZE_X, threads per block (preset by workload.size: test 32, paper 120)"},
    {"workload.lbm.y", CFG_INT, offsetof(struct lbm_cfg, y), NULL, 3, 4096, NULL, "cells",
     "SIZE_Y (test 8, paper 120)"},
    {"workload.lbm.z", CFG_INT, offsetof(struct lbm_cfg, z), NULL, 3, 4096, NULL, "cells",
     "SIZE_Z (test 8, paper 150)"},
    {"workload.lbm.steps", CFG_INT, offsetof(struct lbm_cfg, steps), NULL, 1, 100000, NULL, "",
     "time steps, one launch each (test 2, paper 2)"},
};

struct lbm {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog;
    uint32_t sx, sy, sz, steps, launches;
    int64_t px, pxy;
    uint64_t grid[2], bytes, margin; /* margin: bytes from a grid's start to cell (0, 0, 0) */
    struct wl_copy copies[2];
};

static int lbm_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct lbm *m = (struct lbm *)w;
    if (m->launches == m->steps) return 0;
    int s = m->launches % 2; /* LBM_swapGrids after every step */
    struct km_launch l = {.prog = &m->prog, .grid = {m->sy, m->sz, 1}, .block = {m->sx, 1, 1}};
    l.param[P_SRC] = (int64_t)(m->grid[s] + m->margin);
    l.param[P_DST] = (int64_t)(m->grid[!s] + m->margin);
    l.param[P_PX] = m->px;
    l.param[P_PXY] = m->pxy;
    if (km_run_launch(m->kw.run, &l, k, e)) return -1;
    k->id = m->launches;
    k->copies = m->copies;
    k->ncopies = m->launches == 0 ? 2 : 0;
    m->launches++;
    return 1;
}

/* One cell's outputs from its 20 inputs, in the kernel's float operations. */
static void collide(const float *in, float *t) {
    memcpy(t, in, 19 * sizeof *t);
    uint32_t flags;
    memcpy(&flags, &in[LBM_FLAGS], 4);
    if (flags & LBM_OBSTACLE) {
        static const int sw[9][2] = {{1, 2},   {3, 4},   {5, 6},   {7, 10}, {8, 9},
                                     {11, 14}, {12, 13}, {15, 18}, {16, 17}};
        for (int i = 0; i < 9; i++) {
            float x = t[sw[i][0]];
            t[sw[i][0]] = t[sw[i][1]];
            t[sw[i][1]] = x;
        }
        return;
    }
    enum { C, N, S, E, W, T, B, NE, NW, SE, SW, NT, NB, ST, SB, ET, EB, WT, WB };
    float rho = t[C] + t[N];
    for (int i = S; i <= WB; i++) rho += t[i];
    float ux = t[E] - t[W] + t[NE] - t[NW] + t[SE] - t[SW] + t[ET] + t[EB] - t[WT] - t[WB];
    float uy = t[N] - t[S] + t[NE] + t[NW] - t[SE] - t[SW] + t[NT] + t[NB] - t[ST] - t[SB];
    float uz = t[T] - t[B] + t[NT] - t[NB] + t[ST] - t[SB] + t[ET] - t[EB] + t[WT] - t[WB];
    float r = 1.0f / rho;
    ux *= r, uy *= r, uz *= r;
    if (flags & LBM_ACCEL) ux = 0.005f, uy = 0.002f, uz = 0.000f;
    float u2 = fmaf(1.5f, fmaf(uz, uz, fmaf(uy, uy, ux * ux)), -1.0f), nu2 = u2 * -1.0f;
    float base = LBM_OMEGA * rho, t1 = LBM_DFL1 * base;
    t[C] = fmaf(LBM_T2, t[C], t1 * nu2);
    t1 = LBM_DFL2 * base;
    const struct {
        int d;
        float u, c;
    } ax[6] = {{N, uy, 3.0f},  {S, uy, -3.0f}, {T, uz, 3.0f},
               {B, uz, -3.0f}, {E, ux, 3.0f},  {W, ux, -3.0f}};
    for (int i = 0; i < 6; i++)
        t[ax[i].d] =
            fmaf(LBM_T2, t[ax[i].d], t1 * fmaf(ax[i].u, fmaf(4.5f, ax[i].u, ax[i].c), nu2));
    t1 = LBM_DFL3 * base;
    const struct {
        int d;
        float s;
    } dg[12] = {{NT, uy + uz}, {NB, uy - uz},           {ST, uz - uy}, {SB, (uy + uz) * -1.0f},
                {NE, ux + uy}, {SE, ux - uy},           {ET, ux + uz}, {EB, ux - uz},
                {NW, uy - ux}, {SW, (ux + uy) * -1.0f}, {WT, uz - ux}, {WB, (ux + uz) * -1.0f}};
    for (int i = 0; i < 12; i++)
        t[dg[i].d] = fmaf(LBM_T2, t[dg[i].d], t1 * fmaf(dg[i].s, fmaf(4.5f, dg[i].s, 3.0f), nu2));
}

/* The last step again on the host, from the grid it read, against the grid it wrote. */
static int lbm_verify(struct workload *w, struct ws_err *e) {
    struct lbm *m = (struct lbm *)w;
    int s = (m->steps - 1) % 2;
    const float *src = devmem_host(m->kw.dm, m->grid[s], m->bytes);
    const float *dst = devmem_host(m->kw.dm, m->grid[!s], m->bytes);
    int64_t base = (int64_t)(m->margin / 4);
    for (uint32_t z = 0; z < m->sz; z++)
        for (uint32_t y = 0; y < m->sy; y++)
            for (uint32_t x = 0; x < m->sx; x++) {
                int64_t cell = (int64_t)x + (int64_t)y * m->px + (int64_t)z * m->pxy;
                float t[19];
                collide(&src[base + LBM_E * cell], t);
                for (int d = 0; d < 19; d++) {
                    int64_t o = base + d +
                                LBM_E * (cell + lbm_dir[d][0] + lbm_dir[d][1] * m->px +
                                         lbm_dir[d][2] * m->pxy);
                    if (memcmp(&dst[o], &t[d], 4))
                        return ws_fail(e,
                                       "lbm: cell (%u, %u, %u) sent %g in direction %d, the "
                                       "host says %g",
                                       x, y, z, dst[o], d, t[d]);
                }
            }
    return 0;
}

static void lbm_destroy(struct workload *w) {
    struct lbm *m = (struct lbm *)w;
    km_prog_free(&m->prog);
    km_wl_fini(&m->kw);
    free(m);
}

static const struct workload_vt lbm_vt = {lbm_next,      km_wl_cta_start, km_wl_warp_next,
                                          km_wl_cta_end, lbm_verify,      lbm_destroy};

/* LBM_initializeGrid, the obstacles and LBM_initializeSpecialCellsForLDC on one grid. */
static void init_grid(struct lbm *m, float *g, uint64_t seed) {
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    int64_t base = (int64_t)(m->margin / 4);
    for (int64_t z = -2; z < (int64_t)m->sz + 2; z++)
        for (uint32_t y = 0; y < m->sy; y++)
            for (int64_t x = 0; x < m->px; x++) {
                float *c = &g[base + LBM_E * (x + (int64_t)y * m->px + z * m->pxy)];
                c[0] = LBM_DFL1;
                for (int d = 1; d < 7; d++) c[d] = LBM_DFL2;
                for (int d = 7; d < 19; d++) c[d] = LBM_DFL3;
                uint32_t f = 0;
                bool in = x < m->sx && z >= 0 && z < m->sz;
                if (in && (x == 0 || x == m->sx - 1 || y == 0 || y == m->sy - 1 || z == 0 ||
                           z == m->sz - 1))
                    f = LBM_OBSTACLE;
                else if (in && (z == 1 || z == m->sz - 2) && x > 1 && x < m->sx - 2 && y > 1 &&
                         y < m->sy - 2)
                    f = LBM_ACCEL;
                else if (in && ws_rng_below(&r, 20) == 0)
                    f = LBM_OBSTACLE;
                memcpy(&c[LBM_FLAGS], &f, 4);
            }
}

struct workload *lbm_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct lbm_cfg lc = {paper ? 120 : 32, paper ? 120 : 8, paper ? 150 : 8, 2};
    if (cfg_bind(c, "workload.lbm", lbm_keys, CFG_COUNT(lbm_keys), &lc, e)) return NULL;
    struct lbm *m = calloc(1, sizeof *m);
    if (!m) return ws_fail(e, "lbm: out of memory"), NULL;
    if (km_wl_init(&m->kw, &lbm_vt, "lbm", e)) return free(m), NULL;
    m->sx = (uint32_t)lc.x, m->sy = (uint32_t)lc.y, m->sz = (uint32_t)lc.z;
    m->steps = (uint32_t)lc.steps;
    m->px = m->sx + 8;
    m->pxy = m->px * m->sy;
    m->bytes = 4ull * LBM_E * (uint64_t)m->pxy * (m->sz + 4);
    m->margin = 4ull * LBM_E * 2 * (uint64_t)m->pxy; /* CALC_INDEX(0, 0, 2, 0) */
    /* The store offsets are PADDED_X-dependent constants in Parboil's kernel. */
    struct km_inst code[sizeof lbm_code / sizeof lbm_code[0]];
    memcpy(code, lbm_code, sizeof code);
    int d = 0;
    for (size_t i = 0; i < CFG_COUNT(lbm_code); i++)
        if (code[i].op == KM_ST) {
            code[i].off = 4 * (d + LBM_E * (lbm_dir[d][0] + lbm_dir[d][1] * (int32_t)m->px +
                                            lbm_dir[d][2] * (int32_t)m->pxy));
            d++;
        }
    if (km_prog_build(&m->prog, "performStreamCollide_kernel", 42, code, CFG_COUNT(lbm_code), e) ||
        !(m->grid[0] = devmem_alloc(m->kw.dm, m->bytes, "srcGrid", e)) ||
        !(m->grid[1] = devmem_alloc(m->kw.dm, m->bytes, "dstGrid", e))) {
        lbm_destroy(&m->kw.base);
        return NULL;
    }
    for (int g = 0; g < 2; g++) {
        init_grid(m, devmem_host(m->kw.dm, m->grid[g], m->bytes), (uint64_t)wc->seed);
        m->copies[g] = (struct wl_copy){m->grid[g], m->bytes};
    }
    return &m->kw.base;
}
