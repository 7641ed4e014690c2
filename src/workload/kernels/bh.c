/* Barnes-Hut n-body as LonestarGPU runs it (LonestarGPU 1.x, apps/bh/bh.cu, "CUDA BarnesHut v2.0"
 * by M. Burtscher): InitializationKernel once, then per time step BoundingBoxKernel (grid-stride
 * min/max, a shared-memory tree, the last block (atomicInc on blkcntd) combines the blocks'
 * results and creates the root), TreeBuildingKernel (each thread walks from the root to a leaf
 * slot and locks it with atomicCAS(child, ch, -2), inserting its body or splitting the slot into
 * new cells taken with atomicSub(&bottomd, 1); a lane that finds the slot locked retries after
 * the block's __syncthreads throttle), SummarizationKernel (cells bottom-up: children moved to
 * the front, masses polled until the children are done, missing ones cached in shared memory),
 * SortKernel (cells top-down: start offsets handed to children, bodies written to sort[], spinning
 * until the parent's start is set), ForceCalculationKernel (one tree walk per warp with a
 * warp-shared stack in shared memory that lane 0 advances; a cell is opened unless all lanes find
 * it far enough, __all) and IntegrationKernel (leapfrog). Threads per block 512, 1024, 1024, 256,
 * 256, 512; blocks = FACTOR x #SMs with FACTOR 3, 1, 1, 1, 5, 3 (workload.bh.blocks = #SMs, 34
 * as the RTX 2060 SUPER; summarization and sort need all their blocks resident, as the source
 * says). Addresses are the real ones: the tree is built by the kernels themselves on the device
 * data, in the order the simulated warps run.
 *
 * Device memory in bh.cu's cudaMalloc order: errl, childl ((nnodes + 1) x 8 ints, with velx..z,
 * accx..z and sort aliased at multiples of nbodies rounded to 32 ints, as bh.cu does), massl,
 * posxl, posyl, poszl, countl, startl ((nnodes + 1) each), then maxx/y/z and minx/y/z
 * (blocks x FACTOR1 floats each: bh.cu allocates `blocks`, which the grid of FACTOR1 x blocks
 * overruns), then the __device__ variables stepd, bottomd, maxdepthd, blkcntd, radiusd (a block
 * of their own here; the real ones live in the module's global segment). The __constant__
 * pointers and sizes are kernel parameters. nnodes = max(2 nbodies, 1024 blocks) rounded up to a
 * multiple of 32, minus 1.
 *
 * Assumptions: __all is modelled as 3 shared-memory instructions on a per-warp word (set by all
 * active lanes, cleared by the lanes that disagree, read back); atomicInc as atomicAdd plus a reset
 * store by the last block; the errd overflow checks are left out; division as MUFU.RCP, rsqrtf as
 * MUFU.RSQ; register counts are assumed (48), and each kernel carries bh.cu's
 * __launch_bounds__(THREADSn, FACTORn), which caps them where the register file is small (Fermi:
 * TreeBuildingKernel's 1024-thread blocks get 32). Bodies: bh.cu's Plummer-model generator (its
 * LCG, seed 7), mass 1/n, dt 0.025, eps^2 = 0.05^2, theta 0.5. Sizes: test 512 bodies, 2 time
 * steps; paper 16384 bodies, 2 steps (assumed; the seeds do not name the input);
 * workload.bh.{bodies,steps,blocks}. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

enum { T1 = 512, T2 = 1024, T3 = 1024, T4 = 256, T5 = 256, T6 = 512 };
enum { F1 = 3, F5 = 5, F6 = 3, MAXDEPTH = 32 };
enum {
    P_NNODES,
    P_NBODIES,
    P_CHILD,
    P_MASS,
    P_NS,   /* bytes between massl, posxl, posyl, poszl, countl, startl */
    P_INC4, /* bytes between the arrays aliased in childl */
    P_MM,   /* maxxl; maxy, maxz, minx, miny, minz follow P_MS bytes apart */
    P_MS,
    P_ERR,
    P_GLOB, /* stepd @0, bottomd @4, maxdepthd @8, blkcntd @12, radiusd @16 */
    P_DTIME,
    P_DTHF,
    P_EPSSQ,
    P_ITOLSQ
};
enum { G_STEP = 0, G_BOTTOM = 4, G_MAXDEPTH = 8, G_BLKCNT = 12, G_RADIUS = 16 };

/* R40..R45: massd, posxd, posyd, poszd, countd, startd. */
#define BH_BASES                                                                                   \
    KM_MOV_(40, KP(P_MASS)), KM_OP2(KM_IADD, 41, KR(40), KP(P_NS)),                                \
        KM_OP2(KM_IADD, 42, KR(41), KP(P_NS)), KM_OP2(KM_IADD, 43, KR(42), KP(P_NS)),              \
        KM_OP2(KM_IADD, 44, KR(43), KP(P_NS)), KM_OP2(KM_IADD, 45, KR(44), KP(P_NS))
#define I2F(d)                                                                                     \
    { .op = KM_I2F, .d1 = (d) + 1, .a = KR(d) }
/* d = &array_b[idx] for a base register b */
#define AT(d, idx, b) KM_OP3(KM_IMAD, d, KR(idx), KI(4), KR(b))
/* d = &childd[n * 8 + j] */
#define CHILD_AT(d, n, j)                                                                          \
    KM_OP3(KM_IMAD, d, KR(n), KI(8), KR(j)), KM_OP3(KM_IMAD, d, KR(d), KI(4), KP(P_CHILD))
/* Node idx's position into x, y, z (t: scratch). */
#define LDPOS(x, y, z, idx, t)                                                                     \
    AT(t, idx, 41), KM_LDG(4, x, KR(t), 0), AT(t, idx, 42), KM_LDG(4, y, KR(t), 0),                \
        AT(t, idx, 43), KM_LDG(4, z, KR(t), 0)
/* d = octant: (a1 < b1) + 2 (a2 < b2) + 4 (a3 < b3), through predicate 6 (t: scratch). */
#define OCT(d, a1, b1, a2, b2, a3, b3, t)                                                          \
    KM_FSETP_(KM_LT, 6, KR(a1), KR(b1)), KM_SEL_(d, KI(1), KRZ, 6),                                \
        KM_FSETP_(KM_LT, 6, KR(a2), KR(b2)), KM_SEL_(t, KI(2), KRZ, 6),                            \
        KM_OP2(KM_IADD, d, KR(d), KR(t)), KM_FSETP_(KM_LT, 6, KR(a3), KR(b3)),                     \
        KM_SEL_(t, KI(4), KRZ, 6), KM_OP2(KM_IADD, d, KR(d), KR(t))

static const struct km_inst init_code[] = {
    KM_STG(4, KP(P_ERR), 0, KRZ),
    KM_STG(4, KP(P_GLOB), G_STEP, KI(-1)),
    KM_STG(4, KP(P_GLOB), G_MAXDEPTH, KI(1)),
    KM_STG(4, KP(P_GLOB), G_BLKCNT, KRZ),
    KM_EXIT_(),
};

/* BoundingBoxKernel. R10..R15: minx, maxx, miny, maxy, minz, maxz. Shared: sminx, smaxx, sminy,
 * smaxy, sminz, smaxz, 2 KB each. */
#define BB_MINMAX(v)                                                                               \
    KM_OP2(KM_FMIN, 10 + 2 * (v), KR(10 + 2 * (v)), KR(20)),                                       \
        KM_OP2(KM_FMAX, 11 + 2 * (v), KR(11 + 2 * (v)), KR(20))
#define BB_LEVEL(a)                                                                                \
    KM_LDS(4, 20, KR(5), (a)*2048), KM_OP2(KM_FMIN + ((a)&1), 10 + (a), KR(10 + (a)), KR(20)),     \
        KM_STS(4, KR(4), (a)*2048, KR(10 + (a)))
#define BB_BLOCK(a, t)                                                                             \
    KM_OP3(KM_IMAD, t, KR(6), KP(P_MS), KP(P_MM)), KM_OP3(KM_IMAD, t, KR(1), KI(4), KR(t)),        \
        KM_STG(4, KR(t), 0, KR(a))
static const struct km_inst bbox_code[] = {
    BH_BASES,
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_LDG(4, 10, KR(41), 0),
    KM_MOV_(11, KR(10)),
    KM_LDG(4, 12, KR(42), 0),
    KM_MOV_(13, KR(12)),
    KM_LDG(4, 14, KR(43), 0),
    KM_MOV_(15, KR(14)),
    KM_OP2(KM_IMUL, 2, KS(SR_NCTAID_X), KI(T1)), /* inc */
    KM_OP3(KM_IMAD, 3, KR(1), KI(T1), KR(0)),    /* j */
    KM_LBL("scan"),
    KM_ISETP_(KM_GE, 0, KR(3), KP(P_NBODIES)),
    KM_BRA_IF(0, "scanned", "scanned"),
    AT(21, 3, 41),
    KM_LDG(4, 20, KR(21), 0),
    BB_MINMAX(0),
    AT(21, 3, 42),
    KM_LDG(4, 20, KR(21), 0),
    BB_MINMAX(1),
    AT(21, 3, 43),
    KM_LDG(4, 20, KR(21), 0),
    BB_MINMAX(2),
    KM_OP2(KM_IADD, 3, KR(3), KR(2)),
    KM_BRA_("scan"),
    KM_LBL("scanned"),
    KM_OP2(KM_SHL, 4, KR(0), KI(2)), /* &s..[i] */
    KM_STS(4, KR(4), 0, KR(10)),
    KM_STS(4, KR(4), 2048, KR(11)),
    KM_STS(4, KR(4), 4096, KR(12)),
    KM_STS(4, KR(4), 6144, KR(13)),
    KM_STS(4, KR(4), 8192, KR(14)),
    KM_STS(4, KR(4), 10240, KR(15)),
    KM_MOV_(3, KI(T1 / 2)),
    KM_LBL("level"),
    KM_BAR_(),
    KM_ISETP_(KM_GE, 0, KR(0), KR(3)),
    KM_BRA_IF(0, "next", "next"),
    KM_OP2(KM_IADD, 5, KR(0), KR(3)),
    KM_OP2(KM_SHL, 5, KR(5), KI(2)), /* &s..[i + j] */
    BB_LEVEL(0),
    BB_LEVEL(1),
    BB_LEVEL(2),
    BB_LEVEL(3),
    BB_LEVEL(4),
    BB_LEVEL(5),
    KM_LBL("next"),
    KM_OP2(KM_SHR, 3, KR(3), KI(1)),
    KM_ISETP_(KM_GT, 0, KR(3), KRZ),
    KM_BRA_IF(0, "level", "done"),
    KM_LBL("done"),
    KM_ISETP_(KM_NE, 0, KR(0), KRZ),
    KM_BRA_IF(0, "end", "end"),
    /* thread 0: the block's result; maxx, maxy, maxz, minx, miny, minz arrays */
    KM_MOV_(6, KI(0)),
    BB_BLOCK(11, 21),
    KM_MOV_(6, KI(1)),
    BB_BLOCK(13, 21),
    KM_MOV_(6, KI(2)),
    BB_BLOCK(15, 21),
    KM_MOV_(6, KI(3)),
    BB_BLOCK(10, 21),
    KM_MOV_(6, KI(4)),
    BB_BLOCK(12, 21),
    KM_MOV_(6, KI(5)),
    BB_BLOCK(14, 21),
    KM_OP2(KM_IADD, 2, KS(SR_NCTAID_X), KI(-1)),
    KM_ATOMG(KM_ATOM_ADD, 4, 7, KP(P_GLOB), G_BLKCNT, KI(1)), /* atomicInc(&blkcntd, inc) */
    KM_ISETP_(KM_NE, 0, KR(7), KR(2)),
    KM_BRA_IF(0, "end", "end"),
    KM_STG(4, KP(P_GLOB), G_BLKCNT, KRZ), /* the wrap to 0 */
    KM_MOV_(3, KRZ),
    KM_LBL("combine"),
    KM_OP3(KM_IMAD, 21, KR(3), KI(4), KP(P_MM)),
    KM_LDG(4, 20, KR(21), 0),
    KM_OP2(KM_FMAX, 11, KR(11), KR(20)),
    KM_OP2(KM_IADD, 21, KR(21), KP(P_MS)),
    KM_LDG(4, 20, KR(21), 0),
    KM_OP2(KM_FMAX, 13, KR(13), KR(20)),
    KM_OP2(KM_IADD, 21, KR(21), KP(P_MS)),
    KM_LDG(4, 20, KR(21), 0),
    KM_OP2(KM_FMAX, 15, KR(15), KR(20)),
    KM_OP2(KM_IADD, 21, KR(21), KP(P_MS)),
    KM_LDG(4, 20, KR(21), 0),
    KM_OP2(KM_FMIN, 10, KR(10), KR(20)),
    KM_OP2(KM_IADD, 21, KR(21), KP(P_MS)),
    KM_LDG(4, 20, KR(21), 0),
    KM_OP2(KM_FMIN, 12, KR(12), KR(20)),
    KM_OP2(KM_IADD, 21, KR(21), KP(P_MS)),
    KM_LDG(4, 20, KR(21), 0),
    KM_OP2(KM_FMIN, 14, KR(14), KR(20)),
    KM_OP2(KM_IADD, 3, KR(3), KI(1)),
    KM_ISETP_(KM_LE, 0, KR(3), KR(2)),
    KM_BRA_IF(0, "combine", "root"),
    KM_LBL("root"),
    KM_OP2(KM_FSUB, 20, KR(11), KR(10)),
    KM_OP2(KM_FSUB, 21, KR(13), KR(12)),
    KM_OP2(KM_FMAX, 20, KR(20), KR(21)),
    KM_OP2(KM_FSUB, 21, KR(15), KR(14)),
    KM_OP2(KM_FMAX, 20, KR(20), KR(21)),
    KM_OP2(KM_FMUL, 20, KR(20), KF(0.5f)),
    KM_STG(4, KP(P_GLOB), G_RADIUS, KR(20)),
    KM_MOV_(5, KP(P_NNODES)),
    KM_STG(4, KP(P_GLOB), G_BOTTOM, KR(5)),
    AT(21, 5, 40),
    KM_STG(4, KR(21), 0, KF(-1.0f)), /* massd[root] */
    AT(21, 5, 45),
    KM_STG(4, KR(21), 0, KRZ), /* startd[root] */
    KM_OP2(KM_FADD, 20, KR(10), KR(11)),
    KM_OP2(KM_FMUL, 20, KR(20), KF(0.5f)),
    AT(21, 5, 41),
    KM_STG(4, KR(21), 0, KR(20)),
    KM_OP2(KM_FADD, 20, KR(12), KR(13)),
    KM_OP2(KM_FMUL, 20, KR(20), KF(0.5f)),
    AT(21, 5, 42),
    KM_STG(4, KR(21), 0, KR(20)),
    KM_OP2(KM_FADD, 20, KR(14), KR(15)),
    KM_OP2(KM_FMUL, 20, KR(20), KF(0.5f)),
    AT(21, 5, 43),
    KM_STG(4, KR(21), 0, KR(20)),
    KM_OP3(KM_IMAD, 21, KR(5), KI(32), KP(P_CHILD)),
    KM_STG(4, KR(21), 0, KI(-1)),
    KM_STG(4, KR(21), 4, KI(-1)),
    KM_STG(4, KR(21), 8, KI(-1)),
    KM_STG(4, KR(21), 12, KI(-1)),
    KM_STG(4, KR(21), 16, KI(-1)),
    KM_STG(4, KR(21), 20, KI(-1)),
    KM_STG(4, KR(21), 24, KI(-1)),
    KM_STG(4, KR(21), 28, KI(-1)),
    KM_LDG(4, 20, KP(P_GLOB), G_STEP),
    KM_OP2(KM_IADD, 20, KR(20), KI(1)),
    KM_STG(4, KP(P_GLOB), G_STEP, KR(20)), /* stepd++ */
    KM_LBL("end"),
    KM_EXIT_(),
};

/* TreeBuildingKernel. R0 i, R1 inc, R2 skip, R3 localmaxdepth, R4 depth, R5 n, R6 j, R7 r,
 * R8..R10 px, py, pz, R11 ch, R12 locked, R13 patch, R14 cell, R15..R17 x, y, z, R18 radius,
 * R19..R21 root position, R22..R27 scratch. */
static const struct km_inst tree_code[] = {
    BH_BASES,
    KM_LDG(4, 18, KP(P_GLOB), G_RADIUS),
    KM_MOV_(22, KP(P_NNODES)),
    LDPOS(19, 20, 21, 22, 23),
    KM_MOV_(3, KI(1)),
    KM_MOV_(2, KI(1)),
    KM_S2R(0, SR_TID_X),
    KM_S2R(22, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(22), KI(T2), KR(0)),
    KM_OP2(KM_IMUL, 1, KS(SR_NCTAID_X), KI(T2)),
    KM_LBL("body"),
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_NBODIES)),
    KM_BRA_IF(0, "bodies_done", "bodies_done"),
    KM_ISETP_(KM_EQ, 0, KR(2), KRZ),
    KM_BRA_IF(0, "walk", "walk"),
    KM_MOV_(2, KRZ), /* a new body: start at the root */
    LDPOS(8, 9, 10, 0, 22),
    KM_MOV_(5, KP(P_NNODES)),
    KM_MOV_(4, KI(1)),
    KM_MOV_(7, KR(18)),
    OCT(6, 19, 8, 20, 9, 21, 10, 22),
    KM_LBL("walk"),
    CHILD_AT(22, 5, 6),
    KM_LDG_S(4, 11, KR(22), 0),
    KM_LBL("down"),
    KM_ISETP_(KM_LT, 0, KR(11), KP(P_NBODIES)),
    KM_BRA_IF(0, "leaf", "leaf"),
    KM_MOV_(5, KR(11)),
    KM_OP2(KM_IADD, 4, KR(4), KI(1)),
    KM_OP2(KM_FMUL, 7, KR(7), KF(0.5f)),
    LDPOS(23, 24, 25, 5, 22),
    OCT(6, 23, 8, 24, 9, 25, 10, 22),
    CHILD_AT(22, 5, 6),
    KM_LDG_S(4, 11, KR(22), 0),
    KM_BRA_("down"),
    KM_LBL("leaf"),
    KM_ISETP_(KM_EQ, 0, KR(11), KI(-2)),
    KM_BRA_IF(0, "throttle", "throttle"), /* locked: try again later */
    KM_OP3(KM_IMAD, 12, KR(5), KI(8), KR(6)),
    KM_OP3(KM_IMAD, 22, KR(12), KI(4), KP(P_CHILD)),
    KM_OP2(KM_AND, 24, KR(11), KI(0xffffffffll)), /* ch as the 32-bit word CAS compares */
    {.op = KM_ATOM,
     .sub = KM_ATOM_CAS,
     .space = SPACE_GLOBAL,
     .width = 4,
     .d1 = 23 + 1,
     .a = KR(22),
     .b = KR(24),
     .c = KI(-2)},
    KM_ISETP_(KM_NE, 0, KR(23), KR(24)),
    KM_BRA_IF(0, "throttle", "throttle"), /* someone else got the slot first */
    KM_ISETP_(KM_NE, 0, KR(11), KI(-1)),
    KM_BRA_IF(0, "split", "inserted"),
    KM_STG(4, KR(22), 0, KR(0)), /* an empty slot: insert */
    KM_BRA_("inserted"),
    KM_LBL("split"),
    KM_MOV_(13, KI(-1)),
    KM_LBL("cell"),
    KM_OP2(KM_IADD, 4, KR(4), KI(1)),
    KM_ATOMG(KM_ATOM_ADD, 4, 14, KP(P_GLOB), G_BOTTOM, KI(-1)),
    KM_OP2(KM_IADD, 14, KR(14), KI(-1)), /* cell = atomicSub(&bottomd, 1) - 1 */
    KM_OP2(KM_IMAX, 13, KR(13), KR(14)), /* patch */
    KM_OP2(KM_AND, 15, KR(6), KI(1)),
    I2F(15),
    KM_OP2(KM_SHR, 16, KR(6), KI(1)),
    KM_OP2(KM_AND, 16, KR(16), KI(1)),
    I2F(16),
    KM_OP2(KM_SHR, 17, KR(6), KI(2)),
    KM_OP2(KM_AND, 17, KR(17), KI(1)),
    I2F(17),
    KM_OP2(KM_FMUL, 15, KR(15), KR(7)),
    KM_OP2(KM_FMUL, 16, KR(16), KR(7)),
    KM_OP2(KM_FMUL, 17, KR(17), KR(7)),
    KM_OP2(KM_FMUL, 7, KR(7), KF(0.5f)),
    AT(22, 14, 40),
    KM_STG(4, KR(22), 0, KF(-1.0f)), /* massd[cell] */
    AT(22, 14, 45),
    KM_STG(4, KR(22), 0, KI(-1)), /* startd[cell] */
    LDPOS(23, 24, 25, 5, 22),
    KM_OP2(KM_FSUB, 23, KR(23), KR(7)),
    KM_OP2(KM_FADD, 15, KR(23), KR(15)),
    KM_OP2(KM_FSUB, 24, KR(24), KR(7)),
    KM_OP2(KM_FADD, 16, KR(24), KR(16)),
    KM_OP2(KM_FSUB, 25, KR(25), KR(7)),
    KM_OP2(KM_FADD, 17, KR(25), KR(17)),
    AT(22, 14, 41),
    KM_STG(4, KR(22), 0, KR(15)),
    AT(22, 14, 42),
    KM_STG(4, KR(22), 0, KR(16)),
    AT(22, 14, 43),
    KM_STG(4, KR(22), 0, KR(17)),
    KM_OP3(KM_IMAD, 22, KR(14), KI(32), KP(P_CHILD)),
    KM_STG(4, KR(22), 0, KI(-1)),
    KM_STG(4, KR(22), 4, KI(-1)),
    KM_STG(4, KR(22), 8, KI(-1)),
    KM_STG(4, KR(22), 12, KI(-1)),
    KM_STG(4, KR(22), 16, KI(-1)),
    KM_STG(4, KR(22), 20, KI(-1)),
    KM_STG(4, KR(22), 24, KI(-1)),
    KM_STG(4, KR(22), 28, KI(-1)),
    KM_ISETP_(KM_EQ, 0, KR(13), KR(14)),
    KM_BRA_IF(0, "first", "first"),
    CHILD_AT(22, 5, 6),
    KM_STG(4, KR(22), 0, KR(14)), /* link a deeper cell */
    KM_LBL("first"),
    LDPOS(23, 24, 25, 11, 22),
    OCT(6, 15, 23, 16, 24, 17, 25, 22),
    CHILD_AT(22, 14, 6),
    KM_STG(4, KR(22), 0, KR(11)), /* the old body into the new cell */
    KM_MOV_(5, KR(14)),
    OCT(6, 15, 8, 16, 9, 17, 10, 22),
    CHILD_AT(22, 5, 6),
    KM_LDG_S(4, 11, KR(22), 0),
    KM_ISETP_(KM_GE, 0, KR(11), KRZ),
    KM_BRA_IF(0, "cell", "placed"), /* both bodies in the same octant: split again */
    KM_LBL("placed"),
    KM_STG(4, KR(22), 0, KR(0)),
    KM_OP3(KM_IMAD, 22, KR(12), KI(4), KP(P_CHILD)),
    KM_STG(4, KR(22), 0, KR(13)), /* unlock: publish the subtree */
    KM_LBL("inserted"),
    KM_OP2(KM_IMAX, 3, KR(3), KR(4)),
    KM_OP2(KM_IADD, 0, KR(0), KR(1)),
    KM_MOV_(2, KI(1)),
    KM_LBL("throttle"),
    KM_BAR_(),
    KM_BRA_("body"),
    KM_LBL("bodies_done"),
    KM_ATOMG(KM_ATOM_MAX, 4, 22, KP(P_GLOB), G_MAXDEPTH, KR(3)),
    KM_EXIT_(),
};

/* SummarizationKernel. R0 k, R1 inc, R2 missing, R3 cnt, R4 j, R5 i, R6 ch, R7 m, R8 cm,
 * R9..R11 px, py, pz (mass-weighted), R12 bottom, R13 &child[0][tid] in shared memory. */
#define SUM_ADD(lbl)                                                                               \
    KM_ISETP_(KM_LT, 3, KR(6), KP(P_NBODIES)), KM_BRA_IF(3, lbl, lbl), AT(25, 6, 44),              \
        KM_LDG_S(4, 26, KR(25), 0), KM_OP2(KM_IADD, 3, KR(3), KR(26)),                             \
        KM_OP2(KM_IADD, 3, KR(3), KI(-1)), KM_LBL(lbl), KM_OP2(KM_FADD, 8, KR(8), KR(7)),          \
        LDPOS(26, 27, 28, 6, 25), KM_OP3(KM_FFMA, 9, KR(26), KR(7), KR(9)),                        \
        KM_OP3(KM_FFMA, 10, KR(27), KR(7), KR(10)), KM_OP3(KM_FFMA, 11, KR(28), KR(7), KR(11))
static const struct km_inst summ_code[] = {
    BH_BASES,
    KM_LDG_S(4, 12, KP(P_GLOB), G_BOTTOM),
    KM_OP2(KM_IMUL, 1, KS(SR_NCTAID_X), KI(T3)),
    KM_S2R(20, SR_TID_X),
    KM_OP2(KM_SHL, 13, KR(20), KI(2)),
    KM_S2R(21, SR_CTAID_X),
    KM_OP3(KM_IMAD, 21, KR(21), KI(T3), KR(20)),
    KM_OP2(KM_AND, 0, KR(12), KI(-32)),
    KM_OP2(KM_IADD, 0, KR(0), KR(21)), /* k, aligned to the warp size */
    KM_ISETP_(KM_LT, 0, KR(0), KR(12)),
    KM_OP2(KM_IADD, 22, KR(0), KR(1)),
    KM_SEL_(0, KR(22), KR(0), 0),
    KM_MOV_(2, KRZ),
    KM_LBL("cell"),
    KM_ISETP_(KM_GT, 0, KR(0), KP(P_NNODES)),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_NE, 0, KR(2), KRZ),
    KM_BRA_IF(0, "poll", "poll"),
    KM_MOV_(8, KRZ), /* a new cell */
    KM_MOV_(9, KRZ),
    KM_MOV_(10, KRZ),
    KM_MOV_(11, KRZ),
    KM_MOV_(3, KRZ),
    KM_MOV_(4, KRZ),
    KM_MOV_(5, KRZ),
    KM_LBL("ci"),
    CHILD_AT(22, 0, 5),
    KM_LDG_S(4, 6, KR(22), 0),
    KM_ISETP_(KM_LT, 1, KR(6), KRZ),
    KM_BRA_IF(1, "cnext", "cnext"),
    KM_ISETP_(KM_EQ, 2, KR(5), KR(4)),
    KM_BRA_IF(2, "nomove", "nomove"),
    KM_STG(4, KR(22), 0, KI(-1)), /* move the child to the front */
    CHILD_AT(23, 0, 4),
    KM_STG(4, KR(23), 0, KR(6)),
    KM_LBL("nomove"),
    KM_OP3(KM_IMAD, 24, KR(2), KI(4 * T3), KR(13)),
    KM_STS(4, KR(24), 0, KR(6)), /* cache it */
    AT(25, 6, 40),
    KM_LDG(4, 7, KR(25), 0),
    KM_OP2(KM_IADD, 2, KR(2), KI(1)),
    KM_FSETP_(KM_GE, 2, KR(7), KF(0.0f)),
    KM_BRA_IFN(2, "cj", "cj"), /* not ready yet */
    KM_OP2(KM_IADD, 2, KR(2), KI(-1)),
    SUM_ADD("added1"),
    KM_LBL("cj"),
    KM_OP2(KM_IADD, 4, KR(4), KI(1)),
    KM_LBL("cnext"),
    KM_OP2(KM_IADD, 5, KR(5), KI(1)),
    KM_ISETP_(KM_LT, 1, KR(5), KI(8)),
    KM_BRA_IF(1, "ci", "cdone"),
    KM_LBL("cdone"),
    KM_OP2(KM_IADD, 3, KR(3), KR(4)),
    KM_LBL("poll"),
    KM_ISETP_(KM_EQ, 0, KR(2), KRZ),
    KM_BRA_IF(0, "store", "store"),
    KM_LBL("pl"),
    KM_OP2(KM_IADD, 24, KR(2), KI(-1)),
    KM_OP3(KM_IMAD, 24, KR(24), KI(4 * T3), KR(13)),
    KM_LDS(4, 6, KR(24), 0),
    AT(25, 6, 40),
    KM_LDG(4, 7, KR(25), 0),
    KM_FSETP_(KM_GE, 2, KR(7), KF(0.0f)),
    KM_BRA_IFN(2, "store", "store"),
    KM_OP2(KM_IADD, 2, KR(2), KI(-1)),
    SUM_ADD("added2"),
    KM_ISETP_(KM_NE, 2, KR(2), KRZ),
    KM_BRA_IF(2, "pl", "store"),
    KM_LBL("store"),
    KM_ISETP_(KM_NE, 0, KR(2), KRZ),
    KM_BRA_IF(0, "again", "again"),
    AT(25, 0, 44),
    KM_STG(4, KR(25), 0, KR(3)), /* countd[k] */
    KM_MUFU_(KM_RCP, 7, KR(8)),
    KM_OP2(KM_FMUL, 26, KR(9), KR(7)),
    AT(25, 0, 41),
    KM_STG(4, KR(25), 0, KR(26)),
    KM_OP2(KM_FMUL, 26, KR(10), KR(7)),
    AT(25, 0, 42),
    KM_STG(4, KR(25), 0, KR(26)),
    KM_OP2(KM_FMUL, 26, KR(11), KR(7)),
    AT(25, 0, 43),
    KM_STG(4, KR(25), 0, KR(26)),
    AT(25, 0, 40),
    KM_STG(4, KR(25), 0, KR(8)), /* massd[k] last: the cell is ready */
    KM_OP2(KM_IADD, 0, KR(0), KR(1)),
    KM_LBL("again"),
    KM_BRA_("cell"),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* SortKernel. R0 k, R1 dec, R2 bottom, R3 start, R4 i, R5 ch; R46 = sortd. */
static const struct km_inst sort_code[] = {
    BH_BASES,
    KM_OP3(KM_IMAD, 46, KP(P_INC4), KI(6), KP(P_CHILD)),
    KM_LDG_S(4, 2, KP(P_GLOB), G_BOTTOM),
    KM_OP2(KM_IMUL, 1, KS(SR_NCTAID_X), KI(T4)),
    KM_S2R(6, SR_TID_X),
    KM_S2R(7, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(7), KI(T4), KR(6)),
    KM_OP2(KM_IADD, 0, KR(0), KP(P_NNODES)),
    KM_OP2(KM_IADD, 0, KR(0), KI(1)),
    KM_OP2(KM_ISUB, 0, KR(0), KR(1)),
    KM_LBL("cell"),
    KM_ISETP_(KM_LT, 0, KR(0), KR(2)),
    KM_BRA_IF(0, "end", "end"),
    AT(6, 0, 45),
    KM_LDG_S(4, 3, KR(6), 0), /* startd[k] */
    KM_ISETP_(KM_LT, 1, KR(3), KRZ),
    KM_BRA_IF(1, "throttle", "throttle"), /* the parent has not set it yet */
    KM_MOV_(4, KRZ),
    KM_LBL("ch"),
    CHILD_AT(6, 0, 4),
    KM_LDG_S(4, 5, KR(6), 0),
    KM_ISETP_(KM_LT, 2, KR(5), KP(P_NBODIES)),
    KM_BRA_IF(2, "body", "nextc"),
    AT(6, 5, 45),
    KM_STG(4, KR(6), 0, KR(3)), /* a cell: its start */
    AT(6, 5, 44),
    KM_LDG_S(4, 7, KR(6), 0),
    KM_OP2(KM_IADD, 3, KR(3), KR(7)),
    KM_BRA_("nextc"),
    KM_LBL("body"),
    KM_ISETP_(KM_LT, 2, KR(5), KRZ),
    KM_BRA_IF(2, "nextc", "nextc"),
    AT(6, 3, 46),
    KM_STG(4, KR(6), 0, KR(5)), /* sortd[start++] = ch */
    KM_OP2(KM_IADD, 3, KR(3), KI(1)),
    KM_LBL("nextc"),
    KM_OP2(KM_IADD, 4, KR(4), KI(1)),
    KM_ISETP_(KM_LT, 2, KR(4), KI(8)),
    KM_BRA_IF(2, "ch", "chdone"),
    KM_LBL("chdone"),
    KM_OP2(KM_ISUB, 0, KR(0), KR(1)),
    KM_LBL("throttle"),
    KM_BAR_(),
    KM_BRA_("cell"),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* ForceCalculationKernel. Shared: pos[256] @0, node[256] @1024, dq[256] @2048, step @3072,
 * maxdepth @3076, the __all word of warp w @3080 + 4 w. P5: lane 0 of the warp (sbase == tid).
 * R0 tid, R1 k, R2 i, R3..R5 px, py, pz, R6..R8 ax, ay, az, R9 depth, R10 j, R11 sbase, R12 n,
 * R13..R15 dx, dy, dz, R16 tmp, R30 step, R31 maxdepth, R32 &vote, R33 inc, R46 sortd. */
enum { S_POS = 0, S_NODE = 1024, S_DQ = 2048, S_STEP = 3072, S_MAXD = 3076, S_VOTE = 3080 };
#define STS_IF(p, ra, o, v)                                                                        \
    {                                                                                              \
        .op = KM_ST, .space = SPACE_SHARED, .width = 4, .a = KR(ra), .off = (o), .b = v,           \
        .guard = KM_IFP(p)                                                                         \
    }
static const struct km_inst force_code[] = {
    BH_BASES,
    KM_OP3(KM_IMAD, 46, KP(P_INC4), KI(6), KP(P_CHILD)),
    KM_S2R(0, SR_TID_X),
    KM_ISETP_(KM_NE, 0, KR(0), KRZ),
    KM_BRA_IF(0, "inited", "inited"),
    KM_LDG_S(4, 18, KP(P_GLOB), G_STEP),
    KM_STS(4, KRZ, S_STEP, KR(18)),
    KM_LDG_S(4, 19, KP(P_GLOB), G_MAXDEPTH),
    KM_STS(4, KRZ, S_MAXD, KR(19)),
    KM_LDG(4, 20, KP(P_GLOB), G_RADIUS),
    KM_OP2(KM_FMUL, 20, KR(20), KR(20)),
    KM_OP2(KM_FMUL, 20, KR(20), KP(P_ITOLSQ)),
    KM_STS(4, KRZ, S_DQ, KR(20)), /* dq[0] */
    KM_MOV_(21, KI(1)),
    KM_LBL("dq"),
    KM_ISETP_(KM_GE, 1, KR(21), KR(19)),
    KM_BRA_IF(1, "inited", "inited"),
    KM_OP2(KM_FMUL, 20, KR(20), KF(0.25f)),
    KM_OP2(KM_SHL, 22, KR(21), KI(2)),
    KM_STS(4, KR(22), S_DQ, KR(20)),
    KM_OP2(KM_IADD, 21, KR(21), KI(1)),
    KM_BRA_("dq"),
    KM_LBL("inited"),
    KM_BAR_(),
    KM_LDS(4, 31, KRZ, S_MAXD),
    KM_LDS(4, 30, KRZ, S_STEP),
    KM_ISETP_(KM_GT, 0, KR(31), KI(MAXDEPTH)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP2(KM_SHR, 18, KR(0), KI(5)),   /* base */
    KM_OP2(KM_SHL, 11, KR(18), KI(5)),  /* sbase */
    KM_OP2(KM_SHL, 10, KR(18), KI(5)),  /* j = base * MAXDEPTH */
    KM_OP2(KM_ISUB, 19, KR(0), KR(11)), /* diff */
    KM_OP2(KM_SHL, 20, KR(19), KI(2)),
    KM_LDS(4, 21, KR(20), S_DQ),
    KM_OP2(KM_IADD, 20, KR(19), KR(10)),
    KM_OP2(KM_SHL, 20, KR(20), KI(2)),
    KM_STS(4, KR(20), S_DQ, KR(21)), /* dq[diff + j] = dq[diff] */
    KM_OP3(KM_IMAD, 32, KR(18), KI(4), KI(S_VOTE)),
    KM_BAR_(),
    KM_S2R(18, SR_CTAID_X),
    KM_OP3(KM_IMAD, 1, KR(18), KI(T5), KR(0)),
    KM_OP2(KM_IMUL, 33, KS(SR_NCTAID_X), KI(T5)),
    KM_ISETP_(KM_EQ, 5, KR(0), KR(11)),
    KM_LBL("body"),
    KM_ISETP_(KM_GE, 0, KR(1), KP(P_NBODIES)),
    KM_BRA_IF(0, "end", "end"),
    AT(18, 1, 46),
    KM_LDG_S(4, 2, KR(18), 0), /* i = sortd[k] */
    LDPOS(3, 4, 5, 2, 18),
    KM_MOV_(6, KRZ),
    KM_MOV_(7, KRZ),
    KM_MOV_(8, KRZ),
    KM_MOV_(9, KR(10)),
    KM_OP2(KM_SHL, 18, KR(10), KI(2)),
    KM_MOV_(19, KP(P_NNODES)),
    STS_IF(5, 18, S_NODE, KR(19)), /* push the root */
    STS_IF(5, 18, S_POS, KRZ),
    KM_LBL("stack"),
    KM_ISETP_(KM_LT, 0, KR(9), KR(10)),
    KM_BRA_IF(0, "walked", "walked"),
    KM_LBL("lvl"),
    KM_OP2(KM_SHL, 19, KR(9), KI(2)),
    KM_LDS(4, 20, KR(19), S_POS),
    KM_ISETP_(KM_GE, 1, KR(20), KI(8)),
    KM_BRA_IF(1, "lvldone", "lvldone"),
    KM_LDS(4, 21, KR(19), S_NODE),
    CHILD_AT(22, 21, 20),
    KM_LDG_S(4, 12, KR(22), 0), /* n = childd[node[depth] * 8 + pos[depth]] */
    KM_OP2(KM_IADD, 23, KR(20), KI(1)),
    STS_IF(5, 19, S_POS, KR(23)), /* lane 0: pos[depth]++ */
    KM_ISETP_(KM_LT, 1, KR(12), KRZ),
    KM_BRA_IF(1, "nochild", "next"),
    LDPOS(13, 14, 15, 12, 22),
    KM_OP2(KM_FSUB, 13, KR(13), KR(3)),
    KM_OP2(KM_FSUB, 14, KR(14), KR(4)),
    KM_OP2(KM_FSUB, 15, KR(15), KR(5)),
    KM_OP3(KM_FFMA, 16, KR(15), KR(15), KP(P_EPSSQ)),
    KM_OP3(KM_FFMA, 16, KR(14), KR(14), KR(16)),
    KM_OP3(KM_FFMA, 16, KR(13), KR(13), KR(16)),
    KM_ISETP_(KM_LT, 2, KR(12), KP(P_NBODIES)),
    KM_BRA_IF(2, "far", "next"),
    KM_LDS(4, 24, KR(19), S_DQ),
    KM_STS(4, KR(32), 0, KI(1)), /* __all(tmp >= dq[depth]) */
    KM_FSETP_(KM_GE, 3, KR(16), KR(24)),
    {.op = KM_ST, .space = SPACE_SHARED, .width = 4, .a = KR(32), .b = KRZ, .guard = KM_IFNP(3)},
    KM_LDS(4, 25, KR(32), 0),
    KM_ISETP_(KM_NE, 3, KR(25), KRZ),
    KM_BRA_IF(3, "far", "next"),
    KM_OP2(KM_IADD, 9, KR(9), KI(1)), /* open the cell: push it */
    KM_OP2(KM_SHL, 19, KR(9), KI(2)),
    STS_IF(5, 19, S_NODE, KR(12)),
    STS_IF(5, 19, S_POS, KRZ),
    KM_BRA_("next"),
    KM_LBL("far"),
    KM_MUFU_(KM_RSQ, 16, KR(16)),
    AT(22, 12, 40),
    KM_LDG(4, 26, KR(22), 0),
    KM_OP2(KM_FMUL, 26, KR(26), KR(16)),
    KM_OP2(KM_FMUL, 26, KR(26), KR(16)),
    KM_OP2(KM_FMUL, 26, KR(26), KR(16)),
    KM_OP3(KM_FFMA, 6, KR(13), KR(26), KR(6)),
    KM_OP3(KM_FFMA, 7, KR(14), KR(26), KR(7)),
    KM_OP3(KM_FFMA, 8, KR(15), KR(26), KR(8)),
    KM_BRA_("next"),
    KM_LBL("nochild"),
    KM_OP2(KM_IADD, 9, KR(9), KI(-1)), /* the rest of this node's children are empty too */
    KM_OP2(KM_IMAX, 9, KR(9), KR(10)),
    KM_LBL("next"),
    KM_BRA_("lvl"),
    KM_LBL("lvldone"),
    KM_OP2(KM_IADD, 9, KR(9), KI(-1)),
    KM_BRA_("stack"),
    KM_LBL("walked"),
    KM_OP3(KM_IMAD, 18, KR(2), KI(4), KP(P_CHILD)), /* &velxd[i] */
    KM_OP3(KM_IMAD, 19, KP(P_INC4), KI(3), KR(18)), /* &accxd[i] */
    KM_ISETP_(KM_LE, 1, KR(30), KRZ),
    KM_BRA_IF(1, "save", "save"),
    KM_LDG(4, 20, KR(19), 0),
    KM_LDG(4, 21, KR(18), 0),
    KM_OP2(KM_FSUB, 20, KR(6), KR(20)),
    KM_OP3(KM_FFMA, 21, KR(20), KP(P_DTHF), KR(21)),
    KM_STG(4, KR(18), 0, KR(21)),
    KM_OP2(KM_IADD, 22, KR(18), KP(P_INC4)),
    KM_OP2(KM_IADD, 23, KR(19), KP(P_INC4)),
    KM_LDG(4, 20, KR(23), 0),
    KM_LDG(4, 21, KR(22), 0),
    KM_OP2(KM_FSUB, 20, KR(7), KR(20)),
    KM_OP3(KM_FFMA, 21, KR(20), KP(P_DTHF), KR(21)),
    KM_STG(4, KR(22), 0, KR(21)),
    KM_OP2(KM_IADD, 22, KR(22), KP(P_INC4)),
    KM_OP2(KM_IADD, 23, KR(23), KP(P_INC4)),
    KM_LDG(4, 20, KR(23), 0),
    KM_LDG(4, 21, KR(22), 0),
    KM_OP2(KM_FSUB, 20, KR(8), KR(20)),
    KM_OP3(KM_FFMA, 21, KR(20), KP(P_DTHF), KR(21)),
    KM_STG(4, KR(22), 0, KR(21)),
    KM_LBL("save"),
    KM_STG(4, KR(19), 0, KR(6)),
    KM_OP2(KM_IADD, 19, KR(19), KP(P_INC4)),
    KM_STG(4, KR(19), 0, KR(7)),
    KM_OP2(KM_IADD, 19, KR(19), KP(P_INC4)),
    KM_STG(4, KR(19), 0, KR(8)),
    KM_OP2(KM_IADD, 1, KR(1), KR(33)),
    KM_BRA_("body"),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* IntegrationKernel: R2 &velxd[i], R3 &accxd[i], R4 &posxd[i]; R10..R12 dvel, R13..R15 velh. */
static const struct km_inst integ_code[] = {
    BH_BASES,
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KI(T6), KR(0)),
    KM_OP2(KM_IMUL, 1, KS(SR_NCTAID_X), KI(T6)),
    KM_LBL("body"),
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_NBODIES)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_CHILD)),
    KM_OP3(KM_IMAD, 3, KP(P_INC4), KI(3), KR(2)),
    AT(4, 0, 41),
    KM_LDG(4, 10, KR(3), 0), /* dvel = acc * dthf */
    KM_OP2(KM_IADD, 5, KR(3), KP(P_INC4)),
    KM_LDG(4, 11, KR(5), 0),
    KM_OP2(KM_IADD, 5, KR(5), KP(P_INC4)),
    KM_LDG(4, 12, KR(5), 0),
    KM_OP2(KM_FMUL, 10, KR(10), KP(P_DTHF)),
    KM_OP2(KM_FMUL, 11, KR(11), KP(P_DTHF)),
    KM_OP2(KM_FMUL, 12, KR(12), KP(P_DTHF)),
    KM_LDG(4, 13, KR(2), 0), /* velh = vel + dvel */
    KM_OP2(KM_IADD, 6, KR(2), KP(P_INC4)),
    KM_LDG(4, 14, KR(6), 0),
    KM_OP2(KM_IADD, 7, KR(6), KP(P_INC4)),
    KM_LDG(4, 15, KR(7), 0),
    KM_OP2(KM_FADD, 13, KR(13), KR(10)),
    KM_OP2(KM_FADD, 14, KR(14), KR(11)),
    KM_OP2(KM_FADD, 15, KR(15), KR(12)),
    KM_LDG(4, 16, KR(4), 0), /* pos += velh * dtime */
    KM_OP3(KM_FFMA, 16, KR(13), KP(P_DTIME), KR(16)),
    KM_STG(4, KR(4), 0, KR(16)),
    KM_OP2(KM_IADD, 5, KR(4), KP(P_NS)),
    KM_LDG(4, 16, KR(5), 0),
    KM_OP3(KM_FFMA, 16, KR(14), KP(P_DTIME), KR(16)),
    KM_STG(4, KR(5), 0, KR(16)),
    KM_OP2(KM_IADD, 5, KR(5), KP(P_NS)),
    KM_LDG(4, 16, KR(5), 0),
    KM_OP3(KM_FFMA, 16, KR(15), KP(P_DTIME), KR(16)),
    KM_STG(4, KR(5), 0, KR(16)),
    KM_OP2(KM_FADD, 13, KR(13), KR(10)), /* vel = velh + dvel */
    KM_STG(4, KR(2), 0, KR(13)),
    KM_OP2(KM_FADD, 14, KR(14), KR(11)),
    KM_STG(4, KR(6), 0, KR(14)),
    KM_OP2(KM_FADD, 15, KR(15), KR(12)),
    KM_STG(4, KR(7), 0, KR(15)),
    KM_OP2(KM_IADD, 0, KR(0), KR(1)),
    KM_BRA_("body"),
    KM_LBL("end"),
    KM_EXIT_(),
};

struct bh_cfg {
    int64_t bodies, steps, blocks;
};
static const struct cfg_key bh_keys[] = {
    {"workload.bh.bodies", CFG_INT, offsetof(struct bh_cfg, bodies), NULL, 2, 1 << 22, NULL,
     "bodies", "number of bodies (preset by workload.size: test 512, paper 16384)"},
    {"workload.bh.steps", CFG_INT, offsetof(struct bh_cfg, steps), "2", 1, 1000, NULL, "steps",
     "time steps, 6 kernels each"},
    {"workload.bh.blocks", CFG_INT, offsetof(struct bh_cfg, blocks), "34", 1, 1024, NULL, "",
     "bh.cu's `blocks` (the GPU's SM count; 34 as the RTX 2060 SUPER); kernels use 1x to 5x it"},
};

enum { K_BBOX, K_TREE, K_SUMM, K_SORT, K_FORCE, K_INTEG, K_N };

struct bh {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog init, k[K_N];
    uint32_t nbodies, nnodes, blocks, steps, step, next; /* next: K_* of the next launch */
    bool inited;
    uint32_t launches;
    uint64_t d_err, d_child, d_mass, ns, inc4, d_mm, ms, d_glob;
    float *snap; /* body positions (x, y, z per body) when the last ForceCalculationKernel ran */
    bool snapped;
    struct wl_copy copies[7];
};

static const float DTIME = 0.025f, EPSSQ = 0.05f * 0.05f, ITOLSQ = 1.0f / (0.5f * 0.5f);

static int64_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static int bh_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct bh *b = (struct bh *)w;
    if (b->inited && b->step >= b->steps) return 0;
    static const uint32_t threads[K_N] = {T1, T2, T3, T4, T5, T6},
                          factor[K_N] = {F1, 1, 1, 1, F5, F6},
                          smem[K_N] = {6 * 4 * T1, 0, 4 * 8 * T3, 0, S_VOTE + 4 * T5 / 32, 0};
    struct km_launch l = {.grid = {1, 1, 1}, .block = {1, 1, 1}};
    if (!b->inited) {
        l.prog = &b->init;
    } else {
        l.prog = &b->k[b->next];
        l.grid[0] = b->blocks * factor[b->next];
        l.block[0] = threads[b->next];
        l.smem = smem[b->next];
    }
    l.param[P_NNODES] = b->nnodes;
    l.param[P_NBODIES] = b->nbodies;
    l.param[P_CHILD] = (int64_t)b->d_child;
    l.param[P_MASS] = (int64_t)b->d_mass;
    l.param[P_NS] = (int64_t)b->ns;
    l.param[P_INC4] = (int64_t)b->inc4;
    l.param[P_MM] = (int64_t)b->d_mm;
    l.param[P_MS] = (int64_t)b->ms;
    l.param[P_ERR] = (int64_t)b->d_err;
    l.param[P_GLOB] = (int64_t)b->d_glob;
    l.param[P_DTIME] = fbits(DTIME);
    l.param[P_DTHF] = fbits(DTIME * 0.5f);
    l.param[P_EPSSQ] = fbits(EPSSQ);
    l.param[P_ITOLSQ] = fbits(ITOLSQ);
    if (b->inited && b->next == K_FORCE) { /* the positions the forces are computed from */
        for (uint32_t a = 0; a < 3; a++) {
            const float *p = devmem_host(b->kw.dm, b->d_mass + (a + 1) * b->ns, 4ull * b->nbodies);
            for (uint32_t i = 0; i < b->nbodies; i++) b->snap[3 * i + a] = p[i];
        }
        b->snapped = true;
    }
    if (km_run_launch(b->kw.run, &l, k, e)) return -1;
    k->id = b->launches++;
    k->copies = b->copies;
    k->ncopies = b->inited ? 0 : 7;
    if (!b->inited)
        b->inited = true, b->next = K_BBOX;
    else if (++b->next == K_N)
        b->next = K_BBOX, b->step++;
    return 1;
}

/* bh.cu's random numbers: a 31-bit LCG, seeded with 7. */
struct drnd {
    uint32_t a, b, x;
};
static void drnd_set(struct drnd *r, uint32_t seed) {
    r->a = 1, r->b = 0;
    r->x = (r->a * seed + r->b) & 0x7fffffffu;
    r->a = (1103515245u * r->a) & 0x7fffffffu;
    r->b = (1103515245u * r->b + 12345u) & 0x7fffffffu;
}
static double drnd(struct drnd *r) {
    uint32_t last = r->x;
    r->x = (r->a * r->x + r->b) & 0x7fffffffu;
    return (double)last / 2147483648.0;
}

/* The Plummer model bh.cu generates: positions and velocities of n bodies of mass 1/n. */
static void plummer(uint32_t n, float *mass, float *pos[3], float *vel[3]) {
    struct drnd r;
    drnd_set(&r, 7);
    double rsc = (3 * 3.1415926535897932384626433832795) / 16, vsc = sqrt(1.0 / rsc);
    for (uint32_t i = 0; i < n; i++) {
        double x, y, z, sq;
        mass[i] = (float)(1.0 / n);
        double rad = 1.0 / sqrt(pow(drnd(&r) * 0.999, -2.0 / 3.0) - 1);
        do {
            x = drnd(&r) * 2.0 - 1.0, y = drnd(&r) * 2.0 - 1.0, z = drnd(&r) * 2.0 - 1.0;
            sq = x * x + y * y + z * z;
        } while (sq > 1.0);
        double scale = rsc * rad / sqrt(sq);
        pos[0][i] = (float)(x * scale), pos[1][i] = (float)(y * scale),
        pos[2][i] = (float)(z * scale);
        do {
            x = drnd(&r), y = drnd(&r) * 0.1;
        } while (y > x * x * pow(1 - x * x, 3.5));
        double v = x * sqrt(2.0 / sqrt(1 + rad * rad));
        do {
            x = drnd(&r) * 2.0 - 1.0, y = drnd(&r) * 2.0 - 1.0, z = drnd(&r) * 2.0 - 1.0;
            sq = x * x + y * y + z * z;
        } while (sq > 1.0);
        scale = vsc * v / sqrt(sq);
        vel[0][i] = (float)(x * scale), vel[1][i] = (float)(y * scale),
        vel[2][i] = (float)(z * scale);
    }
}

/* Walks the final tree from the root: every body reached exactly once, counts and masses add up,
 * sortd is a permutation; then the accelerations of the last ForceCalculationKernel against the
 * direct O(n^2) sum over the positions it used (the opening criterion's error: RMS below 2 %). */
static int bh_verify(struct workload *w, struct ws_err *e) {
    struct bh *b = (struct bh *)w;
    if (!b->inited || b->step == 0 || b->next != K_BBOX || !b->snapped) return 0;
    uint32_t n = b->nbodies, nn = b->nnodes + 1;
    struct devmem *dm = b->kw.dm;
    const int32_t *child = devmem_host(dm, b->d_child, 32ull * nn),
                  *count = devmem_host(dm, b->d_mass + 4 * b->ns, 4ull * nn),
                  *sort = devmem_host(dm, b->d_child + 6 * b->inc4, 4ull * n);
    const float *mass = devmem_host(dm, b->d_mass, 4ull * nn), *acc[3];
    for (uint32_t a = 0; a < 3; a++)
        acc[a] = devmem_host(dm, b->d_child + (3 + a) * b->inc4, 4ull * n);
    uint8_t *seen = calloc(n, 1);
    uint32_t *stack = malloc(sizeof *stack * nn);
    int rc = 0;
    if (!seen || !stack) {
        rc = ws_fail(e, "bh: out of memory");
        goto out;
    }
    uint32_t sp = 0, cells = 0;
    stack[sp++] = b->nnodes;
    while (sp && rc == 0) {
        uint32_t c = stack[--sp];
        int32_t cnt = 0;
        double m = 0;
        cells++;
        for (uint32_t i = 0; i < 8 && rc == 0; i++) {
            int32_t ch = child[8ull * c + i];
            if (ch < 0) continue;
            if ((uint32_t)ch < n) {
                if (seen[ch]++) rc = ws_fail(e, "bh: body %d is in the tree twice", ch);
                cnt++, m += mass[ch];
            } else if ((uint32_t)ch >= nn || ch <= (int32_t)n) {
                rc = ws_fail(e, "bh: cell %u has child %d, not a body or a cell", c, ch);
            } else {
                cnt += count[ch], m += mass[ch];
                stack[sp++] = (uint32_t)ch;
            }
        }
        if (rc == 0 && cnt != count[c])
            rc = ws_fail(e, "bh: cell %u counts %d bodies, its children %d", c, count[c], cnt);
        if (rc == 0 && fabs(m - mass[c]) > 1e-4 * m + 1e-9)
            rc = ws_fail(e, "bh: cell %u has mass %g, its children %g", c, mass[c], m);
    }
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        if (!seen[i]) rc = ws_fail(e, "bh: body %u is not in the tree", i);
        if (sort[i] < 0 || (uint32_t)sort[i] >= n || seen[sort[i]]++ != 1)
            rc = rc ? rc : ws_fail(e, "bh: sortd is not a permutation at %u", i);
    }
    double err2 = 0, worst = 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        double d[3] = {0, 0, 0};
        for (uint32_t j = 0; j < n; j++) {
            double dx = b->snap[3 * j] - b->snap[3 * i],
                   dy = b->snap[3 * j + 1] - b->snap[3 * i + 1],
                   dz = b->snap[3 * j + 2] - b->snap[3 * i + 2];
            double r2 = dx * dx + dy * dy + dz * dz + EPSSQ, f = mass[j] / (r2 * sqrt(r2));
            d[0] += dx * f, d[1] += dy * f, d[2] += dz * f;
        }
        double num = 0, den = 0;
        for (uint32_t a = 0; a < 3; a++)
            num += (acc[a][i] - d[a]) * (acc[a][i] - d[a]), den += d[a] * d[a];
        double rel = sqrt(num / den);
        err2 += rel * rel, worst = rel > worst ? rel : worst;
    }
    if (rc == 0 && sqrt(err2 / n) > 0.02)
        rc = ws_fail(e, "bh: RMS relative force error %.4f against the direct sum (worst %.4f)",
                     sqrt(err2 / n), worst);
out:
    free(seen), free(stack);
    return rc;
}

static void bh_destroy(struct workload *w) {
    struct bh *b = (struct bh *)w;
    km_prog_free(&b->init);
    for (int i = 0; i < K_N; i++) km_prog_free(&b->k[i]);
    free(b->snap);
    km_wl_fini(&b->kw);
    free(b);
}

static const struct workload_vt bh_vt = {bh_next,       km_wl_cta_start, km_wl_warp_next,
                                         km_wl_cta_end, bh_verify,       bh_destroy};

struct workload *bh_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct bh_cfg bc = {wc->size == WL_SIZE_PAPER ? 16384 : 512, 2, 34};
    if (cfg_bind(c, "workload.bh", bh_keys, CFG_COUNT(bh_keys), &bc, e)) return NULL;
    struct bh *b = calloc(1, sizeof *b);
    if (!b) return ws_fail(e, "bh: out of memory"), NULL;
    b->nbodies = (uint32_t)bc.bodies, b->steps = (uint32_t)bc.steps,
    b->blocks = (uint32_t)bc.blocks;
    uint64_t nnodes = 2ull * b->nbodies;
    if (nnodes < 1024ull * b->blocks) nnodes = 1024ull * b->blocks;
    nnodes = (nnodes + 31) / 32 * 32 - 1;
    b->nnodes = (uint32_t)nnodes;
    uint64_t nn = nnodes + 1, inc = (b->nbodies + 31ull) / 32 * 32;
    b->inc4 = 4 * inc;
    b->ns = (4 * nn + DEVMEM_ALIGN - 1) / DEVMEM_ALIGN * DEVMEM_ALIGN;
    uint64_t mmb = 4ull * b->blocks * F1;
    b->ms = (mmb + DEVMEM_ALIGN - 1) / DEVMEM_ALIGN * DEVMEM_ALIGN;
    b->snap = malloc(12ull * b->nbodies);
    if (!b->snap || km_wl_init(&b->kw, &bh_vt, "bh", e)) return free(b->snap), free(b), NULL;
    struct devmem *dm = b->kw.dm;
    static const char *const names[K_N] = {"BoundingBoxKernel",      "TreeBuildingKernel",
                                           "SummarizationKernel",    "SortKernel",
                                           "ForceCalculationKernel", "IntegrationKernel"};
    static const uint32_t regs[K_N] = {48, 48, 48, 48, 48, 48};
    const struct km_inst *code[K_N] = {bbox_code, tree_code,  summ_code,
                                       sort_code, force_code, integ_code};
    const uint32_t ncode[K_N] = {CFG_COUNT(bbox_code),  CFG_COUNT(tree_code),
                                 CFG_COUNT(summ_code),  CFG_COUNT(sort_code),
                                 CFG_COUNT(force_code), CFG_COUNT(integ_code)};
    int bad =
        km_prog_build(&b->init, "InitializationKernel", 4, init_code, CFG_COUNT(init_code), e);
    /* bh.cu compiles each kernel with __launch_bounds__(THREADSn, FACTORn) */
    static const uint32_t factor[K_N] = {F1, 1, 1, 1, F5, F6};
    for (int i = 0; i < K_N && !bad; i++) {
        bad = km_prog_build(&b->k[i], names[i], regs[i], code[i], ncode[i], e);
        b->k[i].bound_ctas = factor[i];
    }
    uint64_t a[8];
    static const char *const arr[8] = {"massl",  "posxl",  "posyl", "poszl",
                                       "countl", "startl", 0,       0};
    static const char *const mm[6] = {"maxxl", "maxyl", "maxzl", "minxl", "minyl", "minzl"};
    if (bad || !(b->d_err = devmem_alloc(dm, 4, "errl", e)) ||
        !(b->d_child = devmem_alloc(dm, 32 * nn, "childl", e))) {
        bh_destroy(&b->kw.base);
        return NULL;
    }
    for (int i = 0; i < 6; i++)
        if (!(a[i] = devmem_alloc(dm, 4 * nn, arr[i], e))) return bh_destroy(&b->kw.base), NULL;
    for (int i = 0; i < 6; i++)
        if (!(a[i] = devmem_alloc(dm, mmb, mm[i], e)))
            return bh_destroy(&b->kw.base), NULL;
        else if (i == 0)
            b->d_mm = a[0];
    if (!(b->d_glob = devmem_alloc(dm, 32, "stepd, bottomd, maxdepthd, blkcntd, radiusd", e)))
        return bh_destroy(&b->kw.base), NULL;
    b->d_mass = b->d_child + (32 * nn + DEVMEM_ALIGN - 1) / DEVMEM_ALIGN * DEVMEM_ALIGN;
    float *mass = devmem_host(dm, b->d_mass, 4ull * b->nbodies), *pos[3], *vel[3];
    for (int i = 0; i < 3; i++) {
        pos[i] = devmem_host(dm, b->d_mass + (i + 1) * b->ns, 4ull * b->nbodies);
        vel[i] = devmem_host(dm, b->d_child + i * b->inc4, 4ull * b->nbodies);
    }
    plummer(b->nbodies, mass, pos, vel);
    b->copies[0] = (struct wl_copy){b->d_mass, 4ull * b->nbodies};
    for (int i = 0; i < 3; i++) {
        b->copies[1 + i] = (struct wl_copy){b->d_mass + (i + 1) * b->ns, 4ull * b->nbodies};
        b->copies[4 + i] = (struct wl_copy){b->d_child + i * b->inc4, 4ull * b->nbodies};
    }
    return &b->kw.base;
}
