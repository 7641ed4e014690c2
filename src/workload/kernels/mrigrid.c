/* MRI gridding (seed 000's MRG) as Parboil runs it (Parboil 2.5, mri-gridding/src/cuda:
 * CUDA_interface.cu, kernels binning_kernel, reorder_kernel and gridding_GPU in GPU_kernels.cu).
 *  1. binning_kernel (512 threads, one per sample): reads kX, kY, kZ of its 24-byte
 *     ReconstructionSample {real, imag, kX, kY, kZ, sdc} (a warp's load spans 768 bytes), finds
 *     its unit bin, and claims a slot with atomicAdd on binCount[bin] (random bins: up to 32
 *     lines per warp); a full bin sends the sample to the CPU bin (key gridNumElems).
 *  2. sort(): Parboil's radix sort of the (key, index) pairs. Not modelled as kernels: the host
 *     computes its result (a stable sort by key) between the launches.
 *  3. reorder_kernel: gathers samples[idxValue[i]] (random 24-byte records) into a structure
 *     of arrays, data (float2) and loc (float4).
 *  4. scanLargeArray(): the exclusive scan of binCount into binStartAddr (the same array). Not
 *     modelled as kernels either: computed on the host.
 *  5. gridding_GPU: blocks of 8 x 4 x 2 threads, each thread four output points (Z, Z+2, Z+4,
 *     Z+6); for every (z, y) bin row within the cutoff of the block's tile it reads the row's
 *     start and end from binStartAddr, stages the row's samples 64 at a time in shared memory
 *     between two __syncthreads, and accumulates the Kaiser-Bessel weighted sample into each
 *     point within the cutoff (kernel_value: a degree-14 polynomial over a cubic, divided with
 *     __fdividef).
 * Device arrays in cudaMalloc order: sortedSample_d, binStartAddr_d (= binCount_d), sample_d,
 * idxKey_d, idxValue_d, gridData_d, sampleDensity_d; the __constant__ scalars (gridSize_c,
 * size_xy_c, cutoff_c, ...) are kernel parameters, as SASS reads them as c[][] operands.
 * Model forms: float2 and float4 stores and loads are 8-byte accesses (a float4 is two; the
 * model has no 16-byte access), packing a float pair costs a SHL and an OR, sqrtf is one
 * MUFU.SQRT, `1.0 - x` (a double expression) is a float FSUB with the same result.
 *
 * Input: Parboil reads k-space samples from its .uks files; here n samples are drawn from
 * workload.seed uniformly over the grid (kX, kY, kZ in [0, gridSize)), real/imag in [-1, 1),
 * sdc in [0.5, 1.5); kernel width 5 (cutoff 2.5), oversampling 2, binsize 32 (Parboil's run
 * argument). Sizes: test grid 16^3 with 2048 samples; paper grid 64^3 with 2^20 samples, so that
 * the 24-byte sample records (24 MB) far exceed the 4 MB L2 as Parboil's inputs do. A complete
 * paper-size run is over a billion warp instructions, nearly all gridding; seed 000's runs stop
 * at 1 billion (thread) instructions: `--set gpu.max_thread_insts=1000000000` (the recipes use
 * gpu.max_insts=31250000, 1 billion / 32 warp instructions).
 * workload.mrigrid.grid (a multiple of 8) and workload.mrigrid.samples set others. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/kernels/kmodel.h"

enum { MG_BLOCK = 512, MG_TILE = 64, MG_BINSIZE = 32 };
enum {
    SM_REAL = 0,
    SM_IMAG = 256,
    SM_KX = 512,
    SM_KY = 768,
    SM_KZ = 1024,
    SM_SDC = 1280,
    SM_BYTES = 1536
};
/* binning and reorder parameters */
enum { B_N, B_SAMPLE, B_KEY, B_VALUE, B_COUNT, B_BINSIZE, B_NUMEL, B_SXY, B_G0, B_DATA, B_LOC };
/* gridding parameters */
enum {
    G_DATA,
    G_LOC,
    G_BSA,
    G_GRID,
    G_DENS,
    G_BETA,
    G_G0,
    G_G1,
    G_G2,
    G_SXY,
    G_CUT2,
    G_1OC2,
    G_CEILC,
    G_FLOORC
};

static const struct km_inst binning_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* sampleIdx */
    KM_ISETP_(KM_GE, 0, KR(0), KP(B_N)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(24), KP(B_SAMPLE)),
    KM_LDG(4, 3, KR(2), 8),  /* pt.kX */
    KM_LDG(4, 4, KR(2), 12), /* pt.kY */
    KM_LDG(4, 5, KR(2), 16), /* pt.kZ */
    KM_OP2(KM_F2I, 5, KR(5), KRZ),
    KM_OP2(KM_F2I, 4, KR(4), KRZ),
    KM_OP2(KM_F2I, 3, KR(3), KRZ),
    KM_OP3(KM_IMAD, 6, KR(5), KP(B_SXY), KR(3)),
    KM_OP3(KM_IMAD, 6, KR(4), KP(B_G0), KR(6)), /* binIdx */
    KM_OP3(KM_IMAD, 7, KR(6), KI(4), KP(B_COUNT)),
    KM_MOV_(9, KP(B_NUMEL)), /* key = gridNumElems unless a slot is claimed */
    KM_LDG(4, 8, KR(7), 0),  /* binCount[binIdx] */
    KM_ISETP_(KM_GE, 0, KR(8), KP(B_BINSIZE)),
    KM_BRA_IF(0, "store", "store"),
    KM_ATOMG(KM_ATOM_ADD, 4, 8, KR(7), 0, KI(1)), /* count = atomicAdd(.., 1) */
    KM_ISETP_(KM_LT, 0, KR(8), KP(B_BINSIZE)),
    KM_SEL_(9, KR(6), KR(9), 0),
    KM_BRA_IF(0, "store", "store"),
    KM_ATOMG(KM_ATOM_ADD, 4, 8, KR(7), 0, KI(0xffffffff)), /* atomicSub(.., 1) */
    KM_LBL("store"),
    KM_OP3(KM_IMAD, 10, KR(0), KI(4), KP(B_KEY)),
    KM_STG(4, KR(10), 0, KR(9)), /* idxKey_g[sampleIdx] = key */
    KM_OP3(KM_IMAD, 10, KR(0), KI(4), KP(B_VALUE)),
    KM_STG(4, KR(10), 0, KR(0)), /* idxValue_g[sampleIdx] = sampleIdx */
    KM_LBL("end"),
    KM_EXIT_(),
};

static const struct km_inst reorder_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* index */
    KM_ISETP_(KM_GE, 0, KR(0), KP(B_N)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(B_VALUE)),
    KM_LDG(4, 2, KR(2), 0), /* old_index */
    KM_OP3(KM_IMAD, 2, KR(2), KI(24), KP(B_SAMPLE)),
    KM_LDG(4, 3, KR(2), 0),  /* real */
    KM_LDG(4, 4, KR(2), 4),  /* imag */
    KM_LDG(4, 5, KR(2), 8),  /* kX */
    KM_LDG(4, 6, KR(2), 12), /* kY */
    KM_LDG(4, 7, KR(2), 16), /* kZ */
    KM_LDG(4, 8, KR(2), 20), /* sdc */
    KM_OP2(KM_SHL, 4, KR(4), KI(32)),
    KM_OP2(KM_OR, 3, KR(3), KR(4)),
    KM_OP3(KM_IMAD, 9, KR(0), KI(8), KP(B_DATA)),
    KM_STG(8, KR(9), 0, KR(3)), /* data[index] = {real, imag} */
    KM_OP2(KM_SHL, 6, KR(6), KI(32)),
    KM_OP2(KM_OR, 5, KR(5), KR(6)),
    KM_OP2(KM_SHL, 8, KR(8), KI(32)),
    KM_OP2(KM_OR, 7, KR(7), KR(8)),
    KM_OP3(KM_IMAD, 9, KR(0), KI(16), KP(B_LOC)),
    KM_STG(8, KR(9), 0, KR(5)), /* loc[index] = {kX, kY, kZ, sdc} */
    KM_STG(8, KR(9), 8, KR(7)),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* One output point of gridding_GPU: v = v0 + (kz - fZk)^2; if (v < cutoff2) { w =
 * kernel_value(beta * sqrtf(1 - v / cutoff2)) * sdc; acc += w * (real, imag); density += 1 }.
 * num is built from negated coefficients, which gives -num exactly (sign flips are exact), so
 * __fdividef(-num, den) is one MUFU.RCP and one FMUL as in SASS. Registers: real R36, imag R37,
 * sdc R38, kz R41, v0 R40; scratch R42..R47. */
#define KB_C(i) KF(-(i))
#define POINT(fz, ax, ay, ad, skip)                                                                \
    KM_OP2(KM_FSUB, 42, KR(41), KR(fz)), KM_OP3(KM_FFMA, 42, KR(42), KR(42), KR(40)),              \
        KM_FSETP_(KM_LT, 1, KR(42), KP(G_CUT2)), KM_BRA_IFN(1, skip, skip),                        \
        KM_OP2(KM_FMUL, 42, KR(42), KP(G_1OC2)), KM_OP2(KM_FSUB, 42, KF(1.0f), KR(42)),            \
        KM_MUFU_(KM_SQRT, 42, KR(42)), KM_OP2(KM_FMUL, 42, KR(42), KP(G_BETA)),                    \
        KM_OP2(KM_FMUL, 43, KR(42), KR(42)), /* z */                                               \
        KM_OP3(KM_FFMA, 44, KR(43), KB_C(0.210580722890567e-22f), KB_C(0.380715242345326e-19f)),   \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.479440257548300e-16f)),                         \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.435125971262668e-13f)),                         \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.300931127112960e-10f)),                         \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.160224679395361e-7f)),                          \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.654858370096785e-5f)),                          \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.202591084143397e-2f)),                          \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.463076284721000e0f)),                           \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.754337328948189e2f)),                           \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.830792541809429e4f)),                           \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.571661130563785e6f)),                           \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.216415572361227e8f)),                           \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.356644482244025e9f)),                           \
        KM_OP3(KM_FFMA, 44, KR(43), KR(44), KB_C(0.144048298227235e10f)),                          \
        KM_OP2(KM_FADD, 45, KR(43), KF(-0.307646912682801e4f)),                                    \
        KM_OP3(KM_FFMA, 45, KR(43), KR(45), KF(0.347626332405882e7f)),                             \
        KM_OP3(KM_FFMA, 45, KR(43), KR(45), KF(-0.144048298227235e10f)),                           \
        KM_MUFU_(KM_RCP, 45, KR(45)), KM_OP2(KM_FMUL, 44, KR(44), KR(45)),                         \
        KM_OP2(KM_FMUL, 44, KR(44), KR(38)), KM_OP3(KM_FFMA, ax, KR(44), KR(36), KR(ax)),          \
        KM_OP3(KM_FFMA, ay, KR(44), KR(37), KR(ay)), KM_OP2(KM_FADD, ad, KR(ad), KF(1.0f)),        \
        KM_LBL(skip)

/* gridding_GPU. Registers: R0 flatIdx, R1..R3 X, Y, Z, R4..R9 their floats (Z1..Z3 as
 * floats), R10 xL, R11 xH, R12 yL, R13 yH, R14 zH, R15 z, R16 y, R17 row address, R18 start,
 * R19 delta, R20 tiles, R21 x, R22 tileSize, R23 j, R24..R35 the four points' (x, y, density),
 * R36.. sample values and scratch, R48..R50 block origin. */
static const struct km_inst gridding_code[] = {
    KM_S2R(1, SR_TID_X),
    KM_S2R(2, SR_TID_Y),
    KM_S2R(3, SR_TID_Z),
    KM_OP3(KM_IMAD, 0, KR(3), KI(4), KR(2)),
    KM_OP3(KM_IMAD, 0, KR(0), KI(8), KR(1)), /* flatIdx = (tz * 4 + ty) * 8 + tx */
    KM_S2R(48, SR_CTAID_X),
    KM_OP2(KM_SHL, 48, KR(48), KI(3)), /* x0 = blockIdx.x * 8 */
    KM_S2R(49, SR_CTAID_Y),
    KM_OP2(KM_SHR, 50, KP(G_G1), KI(2)), /* gridSize_c[1] / blockDim.y */
    KM_MOV_(47, KR(49)),
    KM_LBL("div"), /* blockIdx.y / (g1 / 4) and %: a short subtract loop stands for the division */
    KM_ISETP_(KM_LT, 0, KR(47), KR(50)),
    KM_BRA_IF(0, "divdone", "divdone"),
    KM_OP2(KM_ISUB, 47, KR(47), KR(50)),
    KM_OP2(KM_IADD, 46, KR(46), KI(1)),
    KM_BRA_("div"),
    KM_LBL("divdone"),
    KM_OP2(KM_SHL, 50, KR(46), KI(3)), /* z0 = 8 * quotient */
    KM_OP2(KM_SHL, 49, KR(47), KI(2)), /* y0 = 4 * remainder */
    KM_OP2(KM_IADD, 1, KR(48), KR(1)), /* X */
    KM_OP2(KM_IADD, 2, KR(49), KR(2)), /* Y */
    KM_OP2(KM_IADD, 3, KR(50), KR(3)), /* Z */
    KM_OP2(KM_I2F, 4, KR(1), KRZ),
    KM_OP2(KM_I2F, 5, KR(2), KRZ),
    KM_OP2(KM_I2F, 6, KR(3), KRZ),
    KM_OP2(KM_IADD, 7, KR(3), KI(2)),
    KM_OP2(KM_I2F, 7, KR(7), KRZ),
    KM_OP2(KM_IADD, 8, KR(3), KI(4)),
    KM_OP2(KM_I2F, 8, KR(8), KRZ),
    KM_OP2(KM_IADD, 9, KR(3), KI(6)),
    KM_OP2(KM_I2F, 9, KR(9), KRZ),
    KM_OP2(KM_ISUB, 10, KR(48), KP(G_CEILC)),
    KM_OP2(KM_IMAX, 10, KR(10), KRZ), /* xL */
    KM_OP2(KM_IADD, 11, KR(48), KP(G_FLOORC)),
    KM_OP2(KM_IADD, 11, KR(11), KI(8)),
    KM_OP2(KM_IADD, 47, KP(G_G0), KI(-1)),
    KM_OP2(KM_IMIN, 11, KR(11), KR(47)), /* xH */
    KM_OP2(KM_ISUB, 12, KR(49), KP(G_CEILC)),
    KM_OP2(KM_IMAX, 12, KR(12), KRZ), /* yL */
    KM_OP2(KM_IADD, 13, KR(49), KP(G_FLOORC)),
    KM_OP2(KM_IADD, 13, KR(13), KI(4)),
    KM_OP2(KM_IADD, 47, KP(G_G1), KI(-1)),
    KM_OP2(KM_IMIN, 13, KR(13), KR(47)), /* yH */
    KM_OP2(KM_ISUB, 15, KR(50), KP(G_CEILC)),
    KM_OP2(KM_IMAX, 15, KR(15), KRZ), /* z = zL */
    KM_OP2(KM_IADD, 14, KR(50), KP(G_FLOORC)),
    KM_OP2(KM_IADD, 14, KR(14), KI(8)),
    KM_OP2(KM_IADD, 47, KP(G_G2), KI(-1)),
    KM_OP2(KM_IMIN, 14, KR(14), KR(47)), /* zH */
    KM_MOV_(24, KRZ),
    KM_MOV_(25, KRZ),
    KM_MOV_(26, KRZ),
    KM_MOV_(27, KRZ),
    KM_MOV_(28, KRZ),
    KM_MOV_(29, KRZ),
    KM_MOV_(30, KRZ),
    KM_MOV_(31, KRZ),
    KM_MOV_(32, KRZ),
    KM_MOV_(33, KRZ),
    KM_MOV_(34, KRZ),
    KM_MOV_(35, KRZ),
    KM_LBL("zloop"),
    KM_ISETP_(KM_GT, 0, KR(15), KR(14)),
    KM_BRA_IF(0, "store", "store"),
    KM_MOV_(16, KR(12)), /* y = yL */
    KM_LBL("yloop"),
    KM_ISETP_(KM_GT, 0, KR(16), KR(13)),
    KM_BRA_IF(0, "ynext", "ynext"),
    KM_OP3(KM_IMAD, 17, KR(15), KP(G_SXY), KRZ),
    KM_OP3(KM_IMAD, 17, KR(16), KP(G_G0), KR(17)),
    KM_OP3(KM_IMAD, 17, KR(17), KI(4), KP(G_BSA)), /* addr = binStartAddr + z*sxy + y*g0 */
    KM_OP3(KM_IMAD, 47, KR(10), KI(4), KR(17)),
    KM_LDG(4, 18, KR(47), 0), /* start = addr[xL] */
    KM_OP3(KM_IMAD, 47, KR(11), KI(4), KR(17)),
    KM_LDG(4, 19, KR(47), 4), /* end = addr[xH + 1] */
    KM_OP2(KM_ISUB, 19, KR(19), KR(18)),
    KM_OP2(KM_AND, 19, KR(19), KI(0xffffffff)), /* delta (unsigned) */
    KM_OP2(KM_IADD, 20, KR(19), KI(MG_TILE - 1)),
    KM_OP2(KM_SHR, 20, KR(20), KI(6)),
    KM_MOV_(21, KRZ),
    KM_LBL("tloop"),
    KM_ISETP_(KM_GE, 0, KR(21), KR(20)),
    KM_BRA_IF(0, "tdone", "tdone"),
    KM_OP2(KM_SHL, 47, KR(21), KI(6)),
    KM_OP2(KM_ISUB, 22, KR(19), KR(47)),
    KM_OP2(KM_IMIN, 22, KR(22), KI(MG_TILE)), /* tileSize */
    KM_OP2(KM_IADD, 47, KR(47), KR(0)),       /* globalIdx */
    KM_BAR_(),
    KM_ISETP_(KM_GE, 0, KR(0), KR(22)),
    KM_BRA_IF(0, "staged", "staged"),
    KM_OP2(KM_IADD, 47, KR(47), KR(18)), /* start + globalIdx */
    KM_OP3(KM_IMAD, 46, KR(47), KI(8), KP(G_DATA)),
    KM_LDG(8, 36, KR(46), 0), /* data = {real, imag} */
    KM_OP3(KM_IMAD, 46, KR(47), KI(16), KP(G_LOC)),
    KM_LDG(8, 39, KR(46), 0), /* loc.x, loc.y */
    KM_LDG(8, 41, KR(46), 8), /* loc.z, loc.w */
    KM_OP2(KM_SHR, 37, KR(36), KI(32)),
    KM_OP2(KM_SHR, 40, KR(39), KI(32)),
    KM_OP2(KM_SHR, 38, KR(41), KI(32)),
    KM_OP2(KM_SHL, 46, KR(0), KI(2)),
    KM_STS(4, KR(46), SM_REAL, KR(36)),
    KM_STS(4, KR(46), SM_IMAG, KR(37)),
    KM_STS(4, KR(46), SM_KX, KR(39)),
    KM_STS(4, KR(46), SM_KY, KR(40)),
    KM_STS(4, KR(46), SM_KZ, KR(41)),
    KM_STS(4, KR(46), SM_SDC, KR(38)),
    KM_LBL("staged"),
    KM_BAR_(),
    KM_MOV_(23, KRZ), /* j = 0; register work first, so no shared load is generated early */
    KM_ISETP_(KM_LE, 0, KR(22), KRZ),
    KM_BRA_IF(0, "jdone", "jdone"),
    KM_LBL("jloop"),
    KM_OP2(KM_SHL, 46, KR(23), KI(2)),
    KM_LDS(4, 36, KR(46), SM_REAL),
    KM_LDS(4, 37, KR(46), SM_IMAG),
    KM_LDS(4, 38, KR(46), SM_SDC),
    KM_FSETP_(KM_NE, 0, KR(36), KF(0.0f)),
    KM_BRA_IF(0, "sdc", "sdc"),
    KM_FSETP_(KM_NE, 0, KR(37), KF(0.0f)),
    KM_BRA_IFN(0, "jnext", "jnext"),
    KM_LBL("sdc"),
    KM_FSETP_(KM_EQ, 0, KR(38), KF(0.0f)),
    KM_BRA_IF(0, "jnext", "jnext"),
    KM_LDS(4, 39, KR(46), SM_KX),
    KM_LDS(4, 40, KR(46), SM_KY),
    KM_LDS(4, 41, KR(46), SM_KZ),
    KM_OP2(KM_FSUB, 39, KR(39), KR(4)),
    KM_OP2(KM_FMUL, 39, KR(39), KR(39)),
    KM_OP2(KM_FSUB, 40, KR(40), KR(5)),
    KM_OP3(KM_FFMA, 40, KR(40), KR(40), KR(39)), /* v0 */
    POINT(6, 24, 25, 26, "p0"),
    POINT(7, 27, 28, 29, "p1"),
    POINT(8, 30, 31, 32, "p2"),
    POINT(9, 33, 34, 35, "p3"),
    KM_LBL("jnext"),
    KM_OP2(KM_IADD, 23, KR(23), KI(1)),
    KM_ISETP_(KM_LT, 0, KR(23), KR(22)),
    KM_BRA_IF(0, "jloop", "jdone"),
    KM_LBL("jdone"),
    KM_OP2(KM_IADD, 21, KR(21), KI(1)),
    KM_BRA_("tloop"),
    KM_LBL("tdone"),
    KM_OP2(KM_IADD, 16, KR(16), KI(1)),
    KM_BRA_("yloop"),
    KM_LBL("ynext"),
    KM_OP2(KM_IADD, 15, KR(15), KI(1)),
    KM_BRA_("zloop"),
    KM_LBL("store"),
    KM_OP3(KM_IMAD, 47, KR(3), KP(G_SXY), KR(1)),
    KM_OP3(KM_IMAD, 47, KR(2), KP(G_G0), KR(47)), /* idx */
    KM_OP2(KM_SHL, 46, KP(G_SXY), KI(1)),         /* blockDim.z * size_xy */
    KM_OP3(KM_IMAD, 45, KR(47), KI(8), KP(G_GRID)),
    KM_OP3(KM_IMAD, 44, KR(47), KI(4), KP(G_DENS)),
    KM_OP2(KM_SHL, 25, KR(25), KI(32)),
    KM_OP2(KM_OR, 24, KR(24), KR(25)),
    KM_STG(8, KR(45), 0, KR(24)),
    KM_STG(4, KR(44), 0, KR(26)),
    KM_OP3(KM_IMAD, 45, KR(46), KI(8), KR(45)),
    KM_OP3(KM_IMAD, 44, KR(46), KI(4), KR(44)),
    KM_OP2(KM_SHL, 28, KR(28), KI(32)),
    KM_OP2(KM_OR, 27, KR(27), KR(28)),
    KM_STG(8, KR(45), 0, KR(27)),
    KM_STG(4, KR(44), 0, KR(29)),
    KM_OP3(KM_IMAD, 45, KR(46), KI(8), KR(45)),
    KM_OP3(KM_IMAD, 44, KR(46), KI(4), KR(44)),
    KM_OP2(KM_SHL, 31, KR(31), KI(32)),
    KM_OP2(KM_OR, 30, KR(30), KR(31)),
    KM_STG(8, KR(45), 0, KR(30)),
    KM_STG(4, KR(44), 0, KR(32)),
    KM_OP3(KM_IMAD, 45, KR(46), KI(8), KR(45)),
    KM_OP3(KM_IMAD, 44, KR(46), KI(4), KR(44)),
    KM_OP2(KM_SHL, 34, KR(34), KI(32)),
    KM_OP2(KM_OR, 33, KR(33), KR(34)),
    KM_STG(8, KR(45), 0, KR(33)),
    KM_STG(4, KR(44), 0, KR(35)),
    KM_EXIT_(),
};

struct mrigrid_cfg {
    int64_t grid, samples;
};
static const struct cfg_key mrigrid_keys[] = {
    {"workload.mrigrid.grid", CFG_INT, offsetof(struct mrigrid_cfg, grid), NULL, 8, 512, NULL,
     "points", "output grid edge, a multiple of 8 (preset by workload.size: test 16, paper 64)"},
    {"workload.mrigrid.samples", CFG_INT, offsetof(struct mrigrid_cfg, samples), NULL, 1, 1 << 24,
     NULL, "samples", "k-space samples (test 2048, paper 1048576)"},
};

struct mrigrid {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog binning, reorder, gridding;
    uint32_t n, g, npad, numel;
    float cutoff, cutoff2, inv_cutoff2, beta;
    uint64_t d_sorted, d_bsa, d_sample, d_key, d_value, d_grid, d_dens;
    uint32_t launches;
    struct wl_copy copies[1];
};

/* The stable sort by key of (idxKey, idxValue) over the padded length, and the exclusive scan
 * of binCount: the results of Parboil's sort() and scanLargeArray(). */
static int host_sort(struct mrigrid *m, struct ws_err *e) {
    uint32_t len = (m->n + 3) / 4 * 4;
    uint32_t *key = devmem_host(m->kw.dm, m->d_key, 4ull * len);
    uint32_t *val = devmem_host(m->kw.dm, m->d_value, 4ull * len);
    uint32_t *cnt = calloc((size_t)m->numel + 2, sizeof *cnt);
    uint32_t *k2 = malloc(4ull * len), *v2 = malloc(4ull * len);
    if (!cnt || !k2 || !v2)
        return free(cnt), free(k2), free(v2), ws_fail(e, "mrigrid: out of memory");
    for (uint32_t i = 0; i < len; i++) cnt[key[i] > m->numel ? m->numel + 1 : key[i]]++;
    uint32_t sum = 0;
    for (uint32_t b = 0; b < m->numel + 2; b++) {
        uint32_t c = cnt[b];
        cnt[b] = sum;
        sum += c;
    }
    for (uint32_t i = 0; i < len; i++) {
        uint32_t b = key[i] > m->numel ? m->numel + 1 : key[i], at = cnt[b]++;
        k2[at] = key[i], v2[at] = val[i];
    }
    memcpy(key, k2, 4ull * len);
    memcpy(val, v2, 4ull * len);
    free(cnt), free(k2), free(v2);
    return 0;
}

static void host_scan(struct mrigrid *m) {
    uint32_t *bc = devmem_host(m->kw.dm, m->d_bsa, 4ull * (m->numel + 1)), sum = 0;
    for (uint32_t i = 0; i <= m->numel; i++) {
        uint32_t c = bc[i];
        bc[i] = sum;
        sum += c;
    }
}

static int mrigrid_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct mrigrid *m = (struct mrigrid *)w;
    if (m->launches == 3) return 0;
    struct km_launch l = {.block = {MG_BLOCK, 1, 1},
                          .grid = {(m->n + MG_BLOCK - 1) / MG_BLOCK, 1, 1}};
    l.param[B_N] = m->n;
    l.param[B_SAMPLE] = (int64_t)m->d_sample;
    l.param[B_KEY] = (int64_t)m->d_key;
    l.param[B_VALUE] = (int64_t)m->d_value;
    l.param[B_COUNT] = (int64_t)m->d_bsa;
    l.param[B_BINSIZE] = MG_BINSIZE;
    l.param[B_NUMEL] = m->numel;
    l.param[B_SXY] = (int64_t)m->g * m->g;
    l.param[B_G0] = m->g;
    l.param[B_DATA] = (int64_t)m->d_sorted;
    l.param[B_LOC] = (int64_t)(m->d_sorted + 8ull * (m->n + m->npad));
    if (m->launches == 0) {
        l.prog = &m->binning;
    } else if (m->launches == 1) {
        if (host_sort(m, e)) return -1;
        l.prog = &m->reorder;
    } else {
        host_scan(m);
        memset(&l, 0, sizeof l);
        l.prog = &m->gridding;
        l.smem = SM_BYTES;
        l.block[0] = 8, l.block[1] = 4, l.block[2] = 2;
        l.grid[0] = m->g / 8, l.grid[1] = m->g * m->g / 32, l.grid[2] = 1;
        l.param[G_DATA] = (int64_t)m->d_sorted;
        l.param[G_LOC] = (int64_t)(m->d_sorted + 8ull * (m->n + m->npad));
        l.param[G_BSA] = (int64_t)m->d_bsa;
        l.param[G_GRID] = (int64_t)m->d_grid;
        l.param[G_DENS] = (int64_t)m->d_dens;
        float fb[3] = {m->beta, m->cutoff2, m->inv_cutoff2};
        uint32_t ub[3];
        memcpy(ub, fb, sizeof ub);
        l.param[G_BETA] = ub[0];
        l.param[G_CUT2] = ub[1];
        l.param[G_1OC2] = ub[2];
        l.param[G_G0] = l.param[G_G1] = l.param[G_G2] = m->g;
        l.param[G_SXY] = (int64_t)m->g * m->g;
        l.param[G_CEILC] = (int64_t)ceilf(m->cutoff);
        l.param[G_FLOORC] = (int64_t)m->cutoff;
    }
    if (km_run_launch(m->kw.run, &l, k, e)) return -1;
    k->id = m->launches;
    k->copies = m->copies;
    k->ncopies = m->launches == 0 ? 1 : 0;
    m->launches++;
    return 1;
}

static float kernel_value(float v) {
    float z = v * v;
    static const float c[15] = {
        0.210580722890567e-22f, 0.380715242345326e-19f, 0.479440257548300e-16f,
        0.435125971262668e-13f, 0.300931127112960e-10f, 0.160224679395361e-7f,
        0.654858370096785e-5f,  0.202591084143397e-2f,  0.463076284721000e0f,
        0.754337328948189e2f,   0.830792541809429e4f,   0.571661130563785e6f,
        0.216415572361227e8f,   0.356644482244025e9f,   0.144048298227235e10f};
    float num = fmaf(z, -c[0], -c[1]);
    for (int i = 2; i < 15; i++) num = fmaf(z, num, -c[i]);
    float den = z + -0.307646912682801e4f;
    den = fmaf(z, den, 0.347626332405882e7f);
    den = fmaf(z, den, -0.144048298227235e10f);
    return num * (1.0f / den);
}

/* gridding_GPU on the host, point by point, in the kernel's order of rows, samples and
 * operations; compares gridData and sampleDensity bit for bit. */
static int mrigrid_verify(struct workload *w, struct ws_err *e) {
    struct mrigrid *m = (struct mrigrid *)w;
    int g = (int)m->g, cl = (int)ceilf(m->cutoff), fl = (int)m->cutoff;
    const uint32_t *bsa = devmem_host(m->kw.dm, m->d_bsa, 4ull * (m->numel + 1));
    const float *data = devmem_host(m->kw.dm, m->d_sorted, 8ull * m->n);
    const float *loc = devmem_host(m->kw.dm, m->d_sorted + 8ull * (m->n + m->npad), 16ull * m->n);
    const float *grid = devmem_host(m->kw.dm, m->d_grid, 8ull * m->numel);
    const float *dens = devmem_host(m->kw.dm, m->d_dens, 4ull * m->numel);
    for (int cy = 0; cy < g * g / 32; cy++)
        for (int cx = 0; cx < g / 8; cx++) {
            int x0 = cx * 8, y0 = 4 * (cy % (g / 4)), z0 = 8 * (cy / (g / 4));
            int xL = x0 - cl < 0 ? 0 : x0 - cl, xH = x0 + 8 + fl >= g ? g - 1 : x0 + 8 + fl;
            int yL = y0 - cl < 0 ? 0 : y0 - cl, yH = y0 + 4 + fl >= g ? g - 1 : y0 + 4 + fl;
            int zL = z0 - cl < 0 ? 0 : z0 - cl, zH = z0 + 8 + fl >= g ? g - 1 : z0 + 8 + fl;
            for (int t = 0; t < 64; t++) {
                int X = x0 + t % 8, Y = y0 + t / 8 % 4, Z = z0 + t / 32;
                float acc[4][3] = {{0}};
                for (int z = zL; z <= zH; z++)
                    for (int y = yL; y <= yH; y++) {
                        uint32_t row = (uint32_t)(z * g * g + y * g);
                        for (uint32_t s = bsa[row + (uint32_t)xL]; s < bsa[row + (uint32_t)xH + 1];
                             s++) {
                            float real = data[2 * s], imag = data[2 * s + 1], sdc = loc[4 * s + 3];
                            if (!((real != 0.0f || imag != 0.0f) && sdc != 0.0f)) continue;
                            float dx = loc[4 * s] - (float)X, dy = loc[4 * s + 1] - (float)Y;
                            float v0 = fmaf(dy, dy, dx * dx);
                            for (int p = 0; p < 4; p++) {
                                float dz = loc[4 * s + 2] - (float)(Z + 2 * p);
                                float v = fmaf(dz, dz, v0);
                                if (!(v < m->cutoff2)) continue;
                                float wt =
                                    kernel_value(m->beta * sqrtf(1.0f - v * m->inv_cutoff2)) * sdc;
                                acc[p][0] = fmaf(wt, real, acc[p][0]);
                                acc[p][1] = fmaf(wt, imag, acc[p][1]);
                                acc[p][2] += 1.0f;
                            }
                        }
                    }
                for (int p = 0; p < 4; p++) {
                    size_t i = (size_t)(Z + 2 * p) * (size_t)(g * g) + (size_t)(Y * g + X);
                    if (memcmp(&grid[2 * i], acc[p], 8) || memcmp(&dens[i], &acc[p][2], 4))
                        return ws_fail(e,
                                       "mrigrid: point (%d, %d, %d) = (%g, %g) density %g, the "
                                       "host says (%g, %g) density %g",
                                       X, Y, Z + 2 * p, grid[2 * i], grid[2 * i + 1], dens[i],
                                       acc[p][0], acc[p][1], acc[p][2]);
                }
            }
        }
    return 0;
}

static void mrigrid_destroy(struct workload *w) {
    struct mrigrid *m = (struct mrigrid *)w;
    km_prog_free(&m->binning);
    km_prog_free(&m->reorder);
    km_prog_free(&m->gridding);
    km_wl_fini(&m->kw);
    free(m);
}

static const struct workload_vt mrigrid_vt = {mrigrid_next,  km_wl_cta_start, km_wl_warp_next,
                                              km_wl_cta_end, mrigrid_verify,  mrigrid_destroy};

struct workload *mrigrid_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct mrigrid_cfg mc = {paper ? 64 : 16, paper ? 1048576 : 2048};
    if (cfg_bind(c, "workload.mrigrid", mrigrid_keys, CFG_COUNT(mrigrid_keys), &mc, e)) return NULL;
    char where[600];
    if (mc.grid % 8)
        return ws_fail(e, "%s: workload.mrigrid.grid = %lld must be a multiple of 8",
                       cfg_origin(c, "workload.mrigrid.grid", where, sizeof where),
                       (long long)mc.grid),
               NULL;
    struct mrigrid *m = calloc(1, sizeof *m);
    if (!m) return ws_fail(e, "mrigrid: out of memory"), NULL;
    if (km_wl_init(&m->kw, &mrigrid_vt, "mrigrid", e)) return free(m), NULL;
    m->g = (uint32_t)mc.grid;
    m->n = (uint32_t)mc.samples;
    m->numel = m->g * m->g * m->g;
    m->npad = m->n % 64 ? 64 - m->n % 64 : 0;
    /* CUDA_interface: kernel width 5, oversampling 2. */
    const double kw = 5.0, os = 2.0;
    m->beta = (float)(3.14159265359 * sqrt(4 * kw * kw / (os * os) * (os - .5) * (os - .5) - .8));
    m->cutoff = (float)kw / 2.0f;
    m->cutoff2 = m->cutoff * m->cutoff;
    m->inv_cutoff2 = 1 / m->cutoff2;
    struct devmem *dm = m->kw.dm;
    uint64_t len = (m->n + 3) / 4 * 4;
    if (km_prog_build(&m->binning, "binning_kernel", 12, binning_code, CFG_COUNT(binning_code),
                      e) ||
        km_prog_build(&m->reorder, "reorder_kernel", 12, reorder_code, CFG_COUNT(reorder_code),
                      e) ||
        km_prog_build(&m->gridding, "gridding_GPU", 51, gridding_code, CFG_COUNT(gridding_code),
                      e) ||
        !(m->d_sorted = devmem_alloc(dm, 24ull * (m->n + m->npad), "sortedSample_d", e)) ||
        !(m->d_bsa = devmem_alloc(dm, 4ull * (m->numel + 1), "binStartAddr_d", e)) ||
        !(m->d_sample = devmem_alloc(dm, 24ull * m->n, "sample_d", e)) ||
        !(m->d_key = devmem_alloc(dm, 4 * len, "idxKey_d", e)) ||
        !(m->d_value = devmem_alloc(dm, 4 * len, "idxValue_d", e)) ||
        !(m->d_grid = devmem_alloc(dm, 8ull * m->numel, "gridData_d", e)) ||
        !(m->d_dens = devmem_alloc(dm, 4ull * m->numel, "sampleDensity_d", e))) {
        mrigrid_destroy(&m->kw.base);
        return NULL;
    }
    uint32_t *key = devmem_host(dm, m->d_key, 4 * len);
    for (uint64_t i = m->n; i < len; i++) key[i] = 0xffffffffu; /* the padding cudaMemset */
    struct ws_rng r;
    ws_rng_seed(&r, (uint64_t)wc->seed);
    float *s = devmem_host(dm, m->d_sample, 24ull * m->n);
    for (uint32_t i = 0; i < m->n; i++) {
        s[6 * i] = (float)(2 * ws_rng_unit(&r) - 1);
        s[6 * i + 1] = (float)(2 * ws_rng_unit(&r) - 1);
        for (int d = 0; d < 3; d++) {
            float v = (float)(ws_rng_unit(&r) * m->g);
            s[6 * i + 2 + d] = v < (float)m->g ? v : 0.0f;
        }
        s[6 * i + 5] = (float)(0.5 + ws_rng_unit(&r));
    }
    m->copies[0] = (struct wl_copy){m->d_sample, 24ull * m->n};
    return &m->kw.base;
}
