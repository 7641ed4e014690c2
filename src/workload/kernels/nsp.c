/* Survey propagation (seed 000's NSP) as LonestarGPU 2.0 runs it (apps/nsp/nsp.cu, kernels
 * calc_pi_values, update_eta, update_bias and decimate_2; host loop main/converge/build_list).
 * A k-SAT formula is a bipartite graph: clauses and variables in CSR form (row_offsets,
 * columns holding edge ids) and per-edge arrays src (clause), dst (variable), bar (negated),
 * eta, pi_0, pi_S, pi_U. Every kernel is a grid-stride loop with 384-thread blocks:
 *   calc_pi_values  per edge a->j: walks the edges of variable j (ed.src/ed.eta/ed.bar of each,
 *                   scattered) and writes pi_0, pi_U, pi_S;
 *   update_eta      per edge: walks the other literals of its clause, new eta = prod pi_U / sum,
 *                   and raises the global max |delta eta| with atomicMax on its float bits;
 *   update_bias     per free variable: its bias and value, appended to the bias list with
 *                   atomicAdd on its length; the block sum of max magnitudes goes to summag;
 *   decimate_2      fixes the fixperstep variables with the largest bias and marks the clauses
 *                   they satisfy.
 * The host repeats calc_pi_values + update_eta until max eps <= 0.01 (or workload.nsp.maxiter
 * launches of each), then update_bias, sorts the bias list (cub::DeviceRadixSort, ascending;
 * computed on the host here, its result landing in the DoubleBuffer's other half, as an odd
 * number of radix passes leaves it) and decimates 1% of the variables; it stops in the
 * paramagnetic state (mean bias < 0.01) or after workload.nsp.rounds decimations.
 * Device arrays in cudaMalloc order: g_max_eps, g_summag, the clause graph (row_offsets,
 * columns, sat, bias, value), the variable graph (same), the edges (src, dst, bar, eta, pi_0,
 * pi_S, pi_U), g_bias_list, g_bias_list_2, g_bias_list_vars, g_bias_list_vars_2,
 * g_bias_list_len. Grid: workload.nsp.blocks (nSM x resident blocks: 32 x 2 on rtx2060s).
 * Model forms: divisions are MUFU.RCP + FMUL (update_bias shares one reciprocal for its two),
 * fabs is FMUL by -1 and FMAX, and update_bias's cub::BlockReduce (warp shuffles, which the
 * model has not) is a shared-memory gather summed by thread 0, with the same one atomicAdd per
 * block.
 *
 * Input: a uniform random 3-SAT formula from workload.seed (LonestarGPU's inputs are such
 * formulas, e.g. random-42000-10000-3.cnf): test 420 clauses over 100 variables, paper 4200 over
 * 1000 (clause/variable ratio 4.2), initial eta uniform in [0, 1) as init_from_file draws it.
 * Rounds: test 1, paper 2 (the paper's runs stop at 1 billion instructions, a few converge
 * loops). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/kernels/kmodel.h"

enum { NSP_BLOCK = 384, NSP_K = 3 };
#define NSP_EPSILON    0.01f
#define NSP_PARAMAGNET 0.01f

/* calc_pi_values */
enum { C_SRC, C_DST, C_BAR, C_ETA, C_PI0, C_PIS, C_PIU, C_CLSAT, C_VSAT, C_VRO, C_VCOL, C_NE };

static const struct km_inst pi_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)),    /* edndx = id */
    KM_OP2(KM_IMUL, 1, KS(SR_NCTAID_X), KS(SR_NTID_X)), /* threads */
    KM_LBL("loop"),
    KM_ISETP_(KM_GE, 0, KR(0), KP(C_NE)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(C_DST)),
    KM_LDG_S(4, 3, KR(2), 0), /* j */
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(C_SRC)),
    KM_LDG_S(4, 4, KR(2), 0), /* a */
    KM_OP2(KM_IADD, 2, KR(4), KP(C_CLSAT)),
    KM_LDG(1, 5, KR(2), 0),
    KM_ISETP_(KM_NE, 0, KR(5), KRZ),
    KM_BRA_IF(0, "next", "next"),
    KM_OP2(KM_IADD, 2, KR(3), KP(C_VSAT)),
    KM_LDG(1, 5, KR(2), 0),
    KM_ISETP_(KM_NE, 0, KR(5), KRZ),
    KM_BRA_IF(0, "next", "next"),
    KM_OP3(KM_IMAD, 2, KR(3), KI(4), KP(C_VRO)),
    KM_LDG_S(4, 5, KR(2), 0), /* V_j */
    KM_LDG_S(4, 6, KR(2), 4),
    KM_OP2(KM_ISUB, 6, KR(6), KR(5)), /* V_j_len */
    KM_OP2(KM_IADD, 2, KR(0), KP(C_BAR)),
    KM_LDG(1, 7, KR(2), 0), /* ed.bar[edndx], loop-invariant */
    KM_MOV_(8, KF(1.0f)),   /* pi_0 */
    KM_MOV_(9, KF(1.0f)),   /* V_s_a */
    KM_MOV_(10, KF(1.0f)),  /* V_u_a */
    KM_MOV_(11, KRZ),       /* i */
    KM_ISETP_(KM_LE, 0, KR(6), KRZ),
    KM_BRA_IF(0, "store", "store"),
    KM_LBL("inner"),
    KM_OP2(KM_IADD, 12, KR(5), KR(11)),
    KM_OP3(KM_IMAD, 12, KR(12), KI(4), KP(C_VCOL)),
    KM_LDG_S(4, 12, KR(12), 0), /* ed_btoj */
    KM_OP3(KM_IMAD, 13, KR(12), KI(4), KP(C_SRC)),
    KM_LDG_S(4, 13, KR(13), 0), /* b */
    KM_OP2(KM_IADD, 14, KR(13), KP(C_CLSAT)),
    KM_LDG(1, 14, KR(14), 0),
    KM_ISETP_(KM_NE, 1, KR(14), KRZ),
    KM_BRA_IF(1, "inext", "inext"),
    KM_ISETP_(KM_EQ, 1, KR(13), KR(4)),
    KM_BRA_IF(1, "inext", "inext"),
    KM_OP3(KM_IMAD, 14, KR(12), KI(4), KP(C_ETA)),
    KM_LDG(4, 14, KR(14), 0),
    KM_OP2(KM_FSUB, 14, KF(1.0f), KR(14)), /* 1 - eta */
    KM_OP2(KM_FMUL, 8, KR(8), KR(14)),
    KM_OP2(KM_IADD, 15, KR(12), KP(C_BAR)),
    KM_LDG(1, 15, KR(15), 0),
    KM_ISETP_(KM_EQ, 1, KR(15), KR(7)),
    KM_BRA_IFN(1, "unsat", "inext"),
    KM_OP2(KM_FMUL, 9, KR(9), KR(14)),
    KM_BRA_("inext"),
    KM_LBL("unsat"),
    KM_OP2(KM_FMUL, 10, KR(10), KR(14)),
    KM_LBL("inext"),
    KM_OP2(KM_IADD, 11, KR(11), KI(1)),
    KM_ISETP_(KM_LT, 1, KR(11), KR(6)),
    KM_BRA_IF(1, "inner", "store"),
    KM_LBL("store"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(C_PI0)),
    KM_STG(4, KR(2), 0, KR(8)),
    KM_OP2(KM_FSUB, 12, KF(1.0f), KR(10)),
    KM_OP2(KM_FMUL, 12, KR(12), KR(9)), /* pi_U = (1 - V_u_a) * V_s_a */
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(C_PIU)),
    KM_STG(4, KR(2), 0, KR(12)),
    KM_OP2(KM_FSUB, 12, KF(1.0f), KR(9)),
    KM_OP2(KM_FMUL, 12, KR(12), KR(10)), /* pi_S = (1 - V_s_a) * V_u_a */
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(C_PIS)),
    KM_STG(4, KR(2), 0, KR(12)),
    KM_LBL("next"),
    KM_OP2(KM_IADD, 0, KR(0), KR(1)),
    KM_BRA_("loop"),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* update_eta */
enum { U_SRC, U_DST, U_ETA, U_PI0, U_PIS, U_PIU, U_CLSAT, U_VSAT, U_CLRO, U_CLCOL, U_NE, U_MAXEPS };

static const struct km_inst eta_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)),
    KM_OP2(KM_IMUL, 1, KS(SR_NCTAID_X), KS(SR_NTID_X)),
    KM_MOV_(16, KRZ), /* lmaxeps */
    KM_LBL("loop"),
    KM_ISETP_(KM_GE, 0, KR(0), KP(U_NE)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(U_SRC)),
    KM_LDG_S(4, 3, KR(2), 0), /* a */
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(U_DST)),
    KM_LDG_S(4, 4, KR(2), 0), /* i */
    KM_OP2(KM_IADD, 2, KR(3), KP(U_CLSAT)),
    KM_LDG(1, 5, KR(2), 0),
    KM_ISETP_(KM_NE, 0, KR(5), KRZ),
    KM_BRA_IF(0, "next", "next"),
    KM_OP2(KM_IADD, 2, KR(4), KP(U_VSAT)),
    KM_LDG(1, 5, KR(2), 0),
    KM_ISETP_(KM_NE, 0, KR(5), KRZ),
    KM_BRA_IF(0, "next", "next"),
    KM_OP3(KM_IMAD, 2, KR(3), KI(4), KP(U_CLRO)),
    KM_LDG_S(4, 5, KR(2), 0), /* clndx */
    KM_LDG_S(4, 6, KR(2), 4),
    KM_OP2(KM_ISUB, 6, KR(6), KR(5)), /* nlit */
    KM_MOV_(7, KF(1.0f)),             /* new_eta */
    KM_MOV_(8, KRZ),
    KM_ISETP_(KM_LE, 1, KR(6), KRZ),
    KM_BRA_IF(1, "done", "done"),
    KM_LBL("inner"),
    KM_OP2(KM_IADD, 9, KR(5), KR(8)),
    KM_OP3(KM_IMAD, 9, KR(9), KI(4), KP(U_CLCOL)),
    KM_LDG_S(4, 9, KR(9), 0), /* jedndx */
    KM_OP3(KM_IMAD, 10, KR(9), KI(4), KP(U_DST)),
    KM_LDG_S(4, 10, KR(10), 0), /* j */
    KM_ISETP_(KM_EQ, 1, KR(10), KR(4)),
    KM_BRA_IF(1, "knext", "knext"),
    KM_OP2(KM_IADD, 11, KR(10), KP(U_VSAT)),
    KM_LDG(1, 11, KR(11), 0),
    KM_ISETP_(KM_NE, 1, KR(11), KRZ),
    KM_BRA_IF(1, "knext", "knext"),
    KM_OP3(KM_IMAD, 11, KR(9), KI(4), KP(U_PI0)),
    KM_LDG(4, 12, KR(11), 0),
    KM_OP3(KM_IMAD, 11, KR(9), KI(4), KP(U_PIS)),
    KM_LDG(4, 13, KR(11), 0),
    KM_OP3(KM_IMAD, 11, KR(9), KI(4), KP(U_PIU)),
    KM_LDG(4, 14, KR(11), 0),
    KM_OP2(KM_FADD, 12, KR(12), KR(13)),
    KM_OP2(KM_FADD, 12, KR(12), KR(14)), /* sum */
    KM_FSETP_(KM_EQ, 1, KR(12), KF(0.0f)),
    {.op = KM_MOV, .guard = KM_IFP(1), .d1 = 7 + 1, .a = KRZ}, /* new_eta = 0; break */
    KM_BRA_IF(1, "done", "done"),
    KM_MUFU_(KM_RCP, 12, KR(12)),
    KM_OP2(KM_FMUL, 14, KR(14), KR(12)),
    KM_OP2(KM_FMUL, 7, KR(7), KR(14)),
    KM_LBL("knext"),
    KM_OP2(KM_IADD, 8, KR(8), KI(1)),
    KM_ISETP_(KM_LT, 1, KR(8), KR(6)),
    KM_BRA_IF(1, "inner", "done"),
    KM_LBL("done"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(U_ETA)),
    KM_LDG(4, 15, KR(2), 0),
    KM_OP2(KM_FSUB, 15, KR(7), KR(15)),
    KM_OP2(KM_FMUL, 17, KR(15), KF(-1.0f)),
    KM_OP2(KM_FMAX, 15, KR(15), KR(17)), /* eps = fabs(new_eta - eta) */
    KM_OP2(KM_FMAX, 16, KR(16), KR(15)),
    KM_STG(4, KR(2), 0, KR(7)),
    KM_LBL("next"),
    KM_OP2(KM_IADD, 0, KR(0), KR(1)),
    KM_BRA_("loop"),
    KM_LBL("end"),
    KM_FSETP_(KM_EQ, 0, KR(16), KF(0.0f)),
    KM_BRA_IF(0, "exit", "exit"),
    KM_ATOMG(KM_ATOM_MAX, 4, 17, KP(U_MAXEPS), 0, KR(16)),
    KM_LBL("exit"),
    KM_EXIT_(),
};

/* update_bias */
enum {
    B_VSAT,
    B_VRO,
    B_VCOL,
    B_SRC,
    B_BAR,
    B_ETA,
    B_CLSAT,
    B_VBIAS,
    B_VVAL,
    B_BL,
    B_BLV,
    B_BLEN,
    B_SUMMAG,
    B_NV
};

static const struct km_inst bias_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* v */
    KM_OP2(KM_IMUL, 1, KS(SR_NCTAID_X), KS(SR_NTID_X)),
    KM_MOV_(20, KRZ), /* summag */
    KM_LBL("loop"),
    KM_ISETP_(KM_GE, 0, KR(0), KP(B_NV)),
    KM_BRA_IF(0, "reduce", "reduce"),
    KM_OP2(KM_IADD, 2, KR(0), KP(B_VSAT)),
    KM_LDG(1, 3, KR(2), 0),
    KM_ISETP_(KM_NE, 0, KR(3), KRZ),
    KM_BRA_IF(0, "next", "next"),
    KM_MOV_(4, KF(1.0f)), /* pi_0_hat */
    KM_MOV_(5, KF(1.0f)), /* V_minus */
    KM_MOV_(6, KF(1.0f)), /* V_plus */
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(B_VRO)),
    KM_LDG_S(4, 7, KR(2), 0), /* edoff */
    KM_LDG_S(4, 8, KR(2), 4),
    KM_OP2(KM_ISUB, 8, KR(8), KR(7)), /* ncl */
    KM_MOV_(9, KRZ),
    KM_ISETP_(KM_LE, 1, KR(8), KRZ),
    KM_BRA_IF(1, "final", "final"),
    KM_LBL("inner"),
    KM_OP2(KM_IADD, 10, KR(7), KR(9)),
    KM_OP3(KM_IMAD, 10, KR(10), KI(4), KP(B_VCOL)),
    KM_LDG_S(4, 10, KR(10), 0), /* edge */
    KM_OP3(KM_IMAD, 11, KR(10), KI(4), KP(B_SRC)),
    KM_LDG_S(4, 11, KR(11), 0), /* cl */
    KM_OP2(KM_IADD, 11, KR(11), KP(B_CLSAT)),
    KM_LDG(1, 11, KR(11), 0),
    KM_ISETP_(KM_NE, 1, KR(11), KRZ),
    KM_BRA_IF(1, "enext", "enext"),
    KM_OP3(KM_IMAD, 12, KR(10), KI(4), KP(B_ETA)),
    KM_LDG(4, 12, KR(12), 0),
    KM_OP2(KM_FSUB, 12, KF(1.0f), KR(12)),
    KM_OP2(KM_FMUL, 4, KR(4), KR(12)),
    KM_OP2(KM_IADD, 13, KR(10), KP(B_BAR)),
    KM_LDG(1, 13, KR(13), 0),
    KM_ISETP_(KM_NE, 1, KR(13), KRZ),
    KM_BRA_IFN(1, "plus", "enext"),
    KM_OP2(KM_FMUL, 5, KR(5), KR(12)),
    KM_BRA_("enext"),
    KM_LBL("plus"),
    KM_OP2(KM_FMUL, 6, KR(6), KR(12)),
    KM_LBL("enext"),
    KM_OP2(KM_IADD, 9, KR(9), KI(1)),
    KM_ISETP_(KM_LT, 1, KR(9), KR(8)),
    KM_BRA_IF(1, "inner", "final"),
    KM_LBL("final"),
    KM_OP2(KM_FSUB, 14, KF(1.0f), KR(6)),
    KM_OP2(KM_FMUL, 14, KR(14), KR(5)), /* pi_P_hat */
    KM_OP2(KM_FSUB, 15, KF(1.0f), KR(5)),
    KM_OP2(KM_FMUL, 15, KR(15), KR(6)), /* pi_M_hat */
    KM_OP2(KM_FADD, 16, KR(4), KR(14)),
    KM_OP2(KM_FADD, 16, KR(16), KR(15)), /* total */
    KM_MOV_(17, KRZ),                    /* W_plus */
    KM_MOV_(18, KRZ),                    /* W_minus */
    KM_FSETP_(KM_EQ, 1, KR(16), KF(0.0f)),
    KM_BRA_IF(1, "zero", "zero"),
    KM_MUFU_(KM_RCP, 16, KR(16)),
    KM_OP2(KM_FMUL, 17, KR(14), KR(16)),
    KM_OP2(KM_FMUL, 18, KR(15), KR(16)),
    KM_LBL("zero"),
    KM_OP2(KM_FSUB, 19, KR(17), KR(18)),
    KM_OP2(KM_FMUL, 21, KR(19), KF(-1.0f)),
    KM_OP2(KM_FMAX, 19, KR(19), KR(21)), /* fabs(W_plus - W_minus) */
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(B_VBIAS)),
    KM_STG(4, KR(2), 0, KR(19)),
    KM_FSETP_(KM_GT, 1, KR(17), KR(18)),
    KM_SEL_(21, KI(1), KRZ, 1),
    KM_OP2(KM_IADD, 22, KR(0), KP(B_VVAL)),
    KM_STG(1, KR(22), 0, KR(21)), /* value = W_plus > W_minus */
    KM_SEL_(21, KR(17), KR(18), 1),
    KM_OP2(KM_FADD, 20, KR(20), KR(21)), /* summag += maxmag */
    KM_ATOMG(KM_ATOM_ADD, 4, 22, KP(B_BLEN), 0, KI(1)),
    KM_LDG(4, 19, KR(2), 0), /* vars.bias[v] again: the atomic may alias it */
    KM_OP3(KM_IMAD, 23, KR(22), KI(4), KP(B_BL)),
    KM_STG(4, KR(23), 0, KR(19)),
    KM_OP3(KM_IMAD, 23, KR(22), KI(4), KP(B_BLV)),
    KM_STG(4, KR(23), 0, KR(0)),
    KM_LBL("next"),
    KM_OP2(KM_IADD, 0, KR(0), KR(1)),
    KM_BRA_("loop"),
    KM_LBL("reduce"),
    KM_S2R(2, SR_TID_X),
    KM_OP2(KM_SHL, 3, KR(2), KI(2)),
    KM_STS(4, KR(3), 0, KR(20)),
    KM_BAR_(),
    KM_ISETP_(KM_NE, 0, KR(2), KRZ),
    KM_BRA_IF(0, "exit", "exit"),
    KM_MOV_(4, KRZ),
    KM_MOV_(5, KRZ),
    KM_LBL("sum"),
    KM_LDS(4, 6, KR(5), 0),
    KM_OP2(KM_FADD, 4, KR(4), KR(6)),
    KM_OP2(KM_IADD, 5, KR(5), KI(4)),
    KM_ISETP_(KM_LT, 1, KR(5), KI(4 * NSP_BLOCK)),
    KM_BRA_IF(1, "sum", "post"),
    KM_LBL("post"),
    KM_ATOMG(KM_ATOM_FADD, 4, 6, KP(B_SUMMAG), 0, KR(4)),
    KM_LBL("exit"),
    KM_EXIT_(),
};

/* decimate_2 */
enum { D_BLV, D_BLEN, D_FIX, D_VSAT, D_VRO, D_VCOL, D_SRC, D_BAR, D_VVAL, D_CLSAT };

static const struct km_inst dec_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)),
    KM_OP2(KM_IMUL, 1, KS(SR_NCTAID_X), KS(SR_NTID_X)),
    KM_MOV_(2, KP(D_BLEN)),
    KM_LDG_S(4, 2, KR(2), 0), /* *bias_list_len */
    KM_OP2(KM_ISUB, 3, KR(2), KP(D_FIX)),
    KM_OP2(KM_IADD, 0, KR(0), KR(3)), /* l */
    KM_LBL("loop"),
    KM_ISETP_(KM_GE, 0, KR(0), KR(2)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 4, KR(0), KI(4), KP(D_BLV)),
    KM_LDG_S(4, 4, KR(4), 0), /* v */
    KM_OP2(KM_IADD, 5, KR(4), KP(D_VSAT)),
    KM_STG(1, KR(5), 0, KI(1)), /* vars.sat[v] = true */
    KM_OP3(KM_IMAD, 5, KR(4), KI(4), KP(D_VRO)),
    KM_LDG_S(4, 6, KR(5), 0), /* edoff */
    KM_LDG_S(4, 7, KR(5), 4),
    KM_OP2(KM_ISUB, 7, KR(7), KR(6)), /* cllen */
    KM_MOV_(8, KRZ),
    KM_ISETP_(KM_LE, 1, KR(7), KRZ),
    KM_BRA_IF(1, "next", "next"),
    KM_LBL("inner"),
    KM_OP2(KM_IADD, 9, KR(6), KR(8)),
    KM_OP3(KM_IMAD, 9, KR(9), KI(4), KP(D_VCOL)),
    KM_LDG_S(4, 9, KR(9), 0), /* edge */
    KM_OP3(KM_IMAD, 10, KR(9), KI(4), KP(D_SRC)),
    KM_LDG_S(4, 10, KR(10), 0), /* cl */
    KM_OP2(KM_IADD, 10, KR(10), KP(D_CLSAT)),
    KM_LDG(1, 11, KR(10), 0),
    KM_ISETP_(KM_NE, 1, KR(11), KRZ),
    KM_BRA_IF(1, "enext", "enext"),
    KM_OP2(KM_IADD, 11, KR(9), KP(D_BAR)),
    KM_LDG(1, 11, KR(11), 0),
    KM_OP2(KM_IADD, 12, KR(4), KP(D_VVAL)),
    KM_LDG(1, 12, KR(12), 0), /* vars.value[v], reloaded: the bool stores may alias it */
    KM_ISETP_(KM_EQ, 1, KR(11), KR(12)),
    KM_BRA_IF(1, "enext", "enext"),
    KM_STG(1, KR(10), 0, KI(1)), /* clauses.sat[cl] = true */
    KM_LBL("enext"),
    KM_OP2(KM_IADD, 8, KR(8), KI(1)),
    KM_ISETP_(KM_LT, 1, KR(8), KR(7)),
    KM_BRA_IF(1, "inner", "next"),
    KM_LBL("next"),
    KM_OP2(KM_IADD, 0, KR(0), KR(1)),
    KM_BRA_("loop"),
    KM_LBL("end"),
    KM_EXIT_(),
};

struct nsp_cfg {
    int64_t vars, clauses, rounds, maxiter, blocks;
};
static const struct cfg_key nsp_keys[] = {
    {"workload.nsp.vars", CFG_INT, offsetof(struct nsp_cfg, vars), NULL, 3, 1 << 24, NULL, "",
     "variables of the random 3-SAT formula (preset by workload.size: test 100, paper 1000)"},
    {"workload.nsp.clauses", CFG_INT, offsetof(struct nsp_cfg, clauses), NULL, 1, 1 << 24, NULL, "",
     "clauses (test 420, paper 4200)"},
    {"workload.nsp.rounds", CFG_INT, offsetof(struct nsp_cfg, rounds), NULL, 0, 100000, NULL, "",
     "most decimation rounds; 0: converge once and stop (test 1, paper 2)"},
    {"workload.nsp.maxiter", CFG_INT, offsetof(struct nsp_cfg, maxiter), "1000", 0, 100000, NULL,
     "", "MAXITERATION: calc_pi_values + update_eta launches per converge at most"},
    {"workload.nsp.blocks", CFG_INT, offsetof(struct nsp_cfg, blocks), "64", 1, 1 << 20, NULL,
     "blocks", "grid of every kernel: nSM x resident 384-thread blocks"},
};

enum nsp_state { ST_PI, ST_ETA, ST_BIAS, ST_DEC, ST_DONE };

struct nsp {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog pi, eta, bias, dec;
    uint32_t nv, nc, ne, rounds, maxiter, blocks, canfix, fix;
    uint64_t d_maxeps, d_summag, cl_ro, cl_col, cl_sat, cl_bias, cl_val, v_ro, v_col, v_sat, v_bias,
        v_val, e_src, e_dst, e_bar, e_eta, e_pi0, e_pis, e_piu, bl[2], blv[2], d_blen;
    int cur;              /* the DoubleBuffer's current half */
    enum nsp_state state; /* the next launch */
    uint32_t iter, round, launches;
    bool decimated_last; /* the last kernel was decimate_2 (else update_eta) */
    struct wl_copy copies[24];
    uint32_t ncopies;
};

static void set_common(struct km_launch *l, const struct km_prog *p, uint32_t blocks) {
    memset(l, 0, sizeof *l);
    l->prog = p;
    l->grid[0] = blocks, l->grid[1] = l->grid[2] = 1;
    l->block[0] = NSP_BLOCK, l->block[1] = l->block[2] = 1;
}

static void launch_pi(struct nsp *s, struct km_launch *l) {
    set_common(l, &s->pi, s->blocks);
    const uint64_t p[] = {s->e_src, s->e_dst,  s->e_bar, s->e_eta, s->e_pi0, s->e_pis,
                          s->e_piu, s->cl_sat, s->v_sat, s->v_ro,  s->v_col};
    for (int i = 0; i < C_NE; i++) l->param[i] = (int64_t)p[i];
    l->param[C_NE] = s->ne;
}

static void launch_eta(struct nsp *s, struct km_launch *l) {
    set_common(l, &s->eta, s->blocks);
    const uint64_t p[] = {s->e_src, s->e_dst,  s->e_eta, s->e_pi0, s->e_pis,
                          s->e_piu, s->cl_sat, s->v_sat, s->cl_ro, s->cl_col};
    for (int i = 0; i < U_NE; i++) l->param[i] = (int64_t)p[i];
    l->param[U_NE] = s->ne;
    l->param[U_MAXEPS] = (int64_t)s->d_maxeps;
}

static void launch_bias(struct nsp *s, struct km_launch *l) {
    set_common(l, &s->bias, s->blocks);
    l->smem = 4 * NSP_BLOCK;
    const uint64_t p[] = {s->v_sat,       s->v_ro,   s->v_col,   s->e_src, s->e_bar,
                          s->e_eta,       s->cl_sat, s->v_bias,  s->v_val, s->bl[s->cur],
                          s->blv[s->cur], s->d_blen, s->d_summag};
    for (int i = 0; i < B_NV; i++) l->param[i] = (int64_t)p[i];
    l->param[B_NV] = s->nv;
}

static void launch_dec(struct nsp *s, struct km_launch *l) {
    set_common(l, &s->dec, s->blocks);
    l->param[D_BLV] = (int64_t)s->blv[s->cur];
    l->param[D_BLEN] = (int64_t)s->d_blen;
    l->param[D_FIX] = s->fix;
    const uint64_t p[] = {s->v_sat, s->v_ro, s->v_col, s->e_src, s->e_bar, s->v_val, s->cl_sat};
    for (int i = 0; i < 7; i++) l->param[D_VSAT + i] = (int64_t)p[i];
}

static float dev_f(struct nsp *s, uint64_t a) {
    float f;
    memcpy(&f, devmem_host(s->kw.dm, a, 4), 4);
    return f;
}

/* The host part of build_list after update_bias: mean bias, then the ascending stable sort of
 * (bias, var) pairs into the other half of the double buffer. Returns 1 when paramagnetic. */
static int host_sort(struct nsp *s, struct ws_err *e) {
    int32_t len;
    memcpy(&len, devmem_host(s->kw.dm, s->d_blen, 4), 4);
    float summag = dev_f(s, s->d_summag);
    float r = len ? summag / (float)len : 0.0f;
    if (!len || r < NSP_PARAMAGNET) return 1;
    const float *k = devmem_host(s->kw.dm, s->bl[s->cur], 4ull * s->nv);
    const int32_t *v = devmem_host(s->kw.dm, s->blv[s->cur], 4ull * s->nv);
    float *k2 = devmem_host(s->kw.dm, s->bl[!s->cur], 4ull * s->nv);
    int32_t *v2 = devmem_host(s->kw.dm, s->blv[!s->cur], 4ull * s->nv);
    uint32_t *idx = malloc((size_t)len * sizeof *idx);
    if (!idx) return ws_fail(e, "nsp: out of memory");
    for (int32_t i = 0; i < len; i++) idx[i] = (uint32_t)i;
    /* insertion sort keeps it stable; lists are at most the variable count */
    for (int32_t i = 1; i < len; i++) {
        uint32_t x = idx[i];
        int32_t j = i - 1;
        while (j >= 0 && k[idx[j]] > k[x]) idx[j + 1] = idx[j], j--;
        idx[j + 1] = x;
    }
    for (int32_t i = 0; i < len; i++) k2[i] = k[idx[i]], v2[i] = v[idx[i]];
    free(idx);
    s->cur = !s->cur;
    if (s->fix > (uint32_t)len) s->fix = 1;
    return 0;
}

static int nsp_next(struct workload *w, struct kernel_desc *kd, struct ws_err *e) {
    struct nsp *s = (struct nsp *)w;
    struct km_launch l;
    s->ncopies = 0;
    for (;;) {
        switch (s->state) {
        case ST_DONE:
            return 0;
        case ST_PI:
            launch_pi(s, &l);
            s->state = ST_ETA;
            break;
        case ST_ETA: {
            float zero = 0.0f;
            memcpy(devmem_host(s->kw.dm, s->d_maxeps, 4), &zero, 4);
            km_copy_add(s->copies, &s->ncopies, 24, s->d_maxeps, 4);
            launch_eta(s, &l);
            s->state = ST_BIAS; /* decided after the launch, in ST_BIAS */
            s->decimated_last = false;
            break;
        }
        case ST_BIAS: {
            float me = dev_f(s, s->d_maxeps);
            if (me > NSP_EPSILON && s->iter++ < s->maxiter) {
                s->state = ST_PI;
                continue;
            }
            if (me > NSP_EPSILON || s->round >= s->rounds) { /* un-converged, or enough rounds */
                s->state = ST_DONE;
                continue;
            }
            s->iter = 0;
            memset(devmem_host(s->kw.dm, s->d_summag, 4), 0, 4);
            memset(devmem_host(s->kw.dm, s->d_blen, 4), 0, 4);
            km_copy_add(s->copies, &s->ncopies, 24, s->d_summag, 4);
            km_copy_add(s->copies, &s->ncopies, 24, s->d_blen, 4);
            launch_bias(s, &l);
            s->state = ST_DEC;
            break;
        }
        case ST_DEC: {
            int rc = host_sort(s, e);
            if (rc < 0) return -1;
            if (rc) {
                s->state = ST_DONE;
                continue;
            }
            launch_dec(s, &l);
            s->round++;
            s->decimated_last = true;
            s->state = ST_PI;
            break;
        }
        }
        break;
    }
    if (s->launches == 0) {
        /* from_cpu: every graph and edge array goes to the device once, before the first launch. */
        const uint64_t a[] = {s->cl_ro, s->cl_col, s->cl_sat, s->cl_bias, s->cl_val, s->v_ro,
                              s->v_col, s->v_sat,  s->v_bias, s->v_val,   s->e_src,  s->e_dst,
                              s->e_bar, s->e_eta,  s->e_pi0,  s->e_pis,   s->e_piu};
        const uint64_t b[] = {4ull * (s->nc + 1), 4ull * s->ne, s->nc, 4ull * s->nc, s->nc,
                              4ull * (s->nv + 1), 4ull * s->ne, s->nv, 4ull * s->nv, s->nv,
                              4ull * s->ne,       4ull * s->ne, s->ne, 4ull * s->ne, 4ull * s->ne,
                              4ull * s->ne,       4ull * s->ne};
        for (int i = 0; i < 17; i++) km_copy_add(s->copies, &s->ncopies, 24, a[i], b[i]);
    }
    if (km_run_launch(s->kw.run, &l, kd, e)) return -1;
    kd->id = s->launches++;
    kd->copies = s->copies;
    kd->ncopies = s->ncopies;
    return 1;
}

/* When the last kernel was update_eta: every live edge's eta is update_eta's product over the
 * device's pi values, computed the same way. Always: every clause holding a literal that a
 * fixed variable makes true is satisfied, and no other clause is. */
static int nsp_verify(struct workload *w, struct ws_err *e) {
    struct nsp *s = (struct nsp *)w;
    struct devmem *dm = s->kw.dm;
    const int32_t *src = devmem_host(dm, s->e_src, 4ull * s->ne),
                  *dst = devmem_host(dm, s->e_dst, 4ull * s->ne),
                  *clro = devmem_host(dm, s->cl_ro, 4ull * (s->nc + 1)),
                  *clcol = devmem_host(dm, s->cl_col, 4ull * s->ne);
    const uint8_t *bar = devmem_host(dm, s->e_bar, s->ne),
                  *clsat = devmem_host(dm, s->cl_sat, s->nc),
                  *vsat = devmem_host(dm, s->v_sat, s->nv),
                  *vval = devmem_host(dm, s->v_val, s->nv);
    const float *eta = devmem_host(dm, s->e_eta, 4ull * s->ne),
                *pi0 = devmem_host(dm, s->e_pi0, 4ull * s->ne),
                *pis = devmem_host(dm, s->e_pis, 4ull * s->ne),
                *piu = devmem_host(dm, s->e_piu, 4ull * s->ne);
    if (!s->decimated_last) {
        for (uint32_t ed = 0; ed < s->ne; ed++) {
            int32_t a = src[ed], i = dst[ed];
            if (clsat[a] || vsat[i]) continue;
            float ne = 1.0f;
            for (int32_t k = clro[a]; k < clro[a + 1]; k++) {
                int32_t je = clcol[k], j = dst[je];
                if (j == i || vsat[j]) continue;
                float sum = pi0[je] + pis[je] + piu[je];
                if (sum == 0.0f) {
                    ne = 0.0f;
                    break;
                }
                ne *= piu[je] * (1.0f / sum);
            }
            if (memcmp(&ne, &eta[ed], 4))
                return ws_fail(e, "nsp: eta[%u] = %g, the host says %g", ed, eta[ed], ne);
        }
    }
    for (uint32_t c = 0; c < s->nc; c++) {
        bool want = false;
        for (int32_t k = clro[c]; k < clro[c + 1]; k++) {
            int32_t ed = clcol[k];
            want |= vsat[dst[ed]] && bar[ed] != vval[dst[ed]];
        }
        if (want != (clsat[c] != 0))
            return ws_fail(e, "nsp: clause %u is %ssatisfied, its fixed literals say %s", c,
                           clsat[c] ? "" : "not ", want ? "satisfied" : "not");
    }
    return 0;
}

static void nsp_destroy(struct workload *w) {
    struct nsp *s = (struct nsp *)w;
    km_prog_free(&s->pi);
    km_prog_free(&s->eta);
    km_prog_free(&s->bias);
    km_prog_free(&s->dec);
    km_wl_fini(&s->kw);
    free(s);
}

static const struct workload_vt nsp_vt = {nsp_next,      km_wl_cta_start, km_wl_warp_next,
                                          km_wl_cta_end, nsp_verify,      nsp_destroy};

/* A uniform random 3-SAT formula laid out as init_from_file builds it. */
static int build(struct nsp *s, uint64_t seed, struct ws_err *e) {
    struct devmem *dm = s->kw.dm;
    uint32_t nv = s->nv, nc = s->nc, ne = s->ne;
    struct {
        uint64_t *a, n;
        const char *what;
    } al[] = {{&s->d_maxeps, 4, "g_max_eps"},
              {&s->d_summag, 4, "g_summag"},
              {&s->cl_ro, 4ull * (nc + 1), "cl.row_offsets"},
              {&s->cl_col, 4ull * ne, "cl.columns"},
              {&s->cl_sat, nc, "cl.sat"},
              {&s->cl_bias, 4ull * nc, "cl.bias"},
              {&s->cl_val, nc, "cl.value"},
              {&s->v_ro, 4ull * (nv + 1), "vars.row_offsets"},
              {&s->v_col, 4ull * ne, "vars.columns"},
              {&s->v_sat, nv, "vars.sat"},
              {&s->v_bias, 4ull * nv, "vars.bias"},
              {&s->v_val, nv, "vars.value"},
              {&s->e_src, 4ull * ne, "ed.src"},
              {&s->e_dst, 4ull * ne, "ed.dst"},
              {&s->e_bar, ne, "ed.bar"},
              {&s->e_eta, 4ull * ne, "ed.eta"},
              {&s->e_pi0, 4ull * ne, "ed.pi_0"},
              {&s->e_pis, 4ull * ne, "ed.pi_S"},
              {&s->e_piu, 4ull * ne, "ed.pi_U"},
              {&s->bl[0], 4ull * nv, "g_bias_list"},
              {&s->bl[1], 4ull * nv, "g_bias_list_2"},
              {&s->blv[0], 4ull * nv, "g_bias_list_vars"},
              {&s->blv[1], 4ull * nv, "g_bias_list_vars_2"},
              {&s->d_blen, 4, "g_bias_list_len"}};
    for (size_t i = 0; i < sizeof al / sizeof al[0]; i++)
        if (!(*al[i].a = devmem_alloc(dm, al[i].n, al[i].what, e))) return -1;
    int32_t *src = devmem_host(dm, s->e_src, 4ull * ne),
            *dst = devmem_host(dm, s->e_dst, 4ull * ne),
            *clro = devmem_host(dm, s->cl_ro, 4ull * (nc + 1)),
            *clcol = devmem_host(dm, s->cl_col, 4ull * ne),
            *vro = devmem_host(dm, s->v_ro, 4ull * (nv + 1)),
            *vcol = devmem_host(dm, s->v_col, 4ull * ne);
    uint8_t *bar = devmem_host(dm, s->e_bar, ne);
    float *eta = devmem_host(dm, s->e_eta, 4ull * ne);
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    uint32_t ed = 0;
    for (uint32_t c = 0; c < nc; c++) {
        clro[c] = (int32_t)ed;
        uint32_t lits[NSP_K];
        for (int k = 0; k < NSP_K; k++) {
            uint32_t v;
            bool dup;
            do { /* distinct variables within a clause */
                v = (uint32_t)ws_rng_below(&r, nv);
                dup = false;
                for (int q = 0; q < k; q++) dup |= lits[q] == v;
            } while (dup);
            lits[k] = v;
            src[ed] = (int32_t)c;
            dst[ed] = (int32_t)v;
            bar[ed] = (uint8_t)ws_rng_below(&r, 2);
            eta[ed] = (float)ws_rng_unit(&r);
            clcol[ed] = (int32_t)ed;
            vro[v]++;
            ed++;
        }
    }
    clro[nc] = (int32_t)ne;
    int32_t sum = 0;
    for (uint32_t v = 0; v < nv; v++) {
        int32_t d = vro[v];
        vro[v] = sum;
        sum += d;
    }
    vro[nv] = (int32_t)ne;
    uint32_t *fill = calloc(nv, sizeof *fill);
    if (!fill) return ws_fail(e, "nsp: out of memory");
    for (uint32_t i = 0; i < ne; i++) {
        uint32_t v = (uint32_t)dst[i];
        vcol[vro[v] + (int32_t)fill[v]++] = (int32_t)i;
    }
    free(fill);
    return 0;
}

struct workload *nsp_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct nsp_cfg nc = {paper ? 1000 : 100, paper ? 4200 : 420, paper ? 2 : 1, 1000, 64};
    if (cfg_bind(c, "workload.nsp", nsp_keys, CFG_COUNT(nsp_keys), &nc, e)) return NULL;
    struct nsp *s = calloc(1, sizeof *s);
    if (!s) return ws_fail(e, "nsp: out of memory"), NULL;
    if (km_wl_init(&s->kw, &nsp_vt, "nsp", e)) return free(s), NULL;
    s->nv = (uint32_t)nc.vars;
    s->nc = (uint32_t)nc.clauses;
    s->ne = s->nc * NSP_K;
    s->rounds = (uint32_t)nc.rounds;
    s->maxiter = (uint32_t)nc.maxiter;
    s->blocks = (uint32_t)nc.blocks;
    s->canfix = s->nv / 100 ? s->nv / 100 : 1; /* int canfix = 0.01 * vars.nnodes */
    s->fix = s->canfix;
    if (km_prog_build(&s->pi, "calc_pi_values", 16, pi_code, CFG_COUNT(pi_code), e) ||
        km_prog_build(&s->eta, "update_eta", 18, eta_code, CFG_COUNT(eta_code), e) ||
        km_prog_build(&s->bias, "update_bias", 24, bias_code, CFG_COUNT(bias_code), e) ||
        km_prog_build(&s->dec, "decimate_2", 13, dec_code, CFG_COUNT(dec_code), e) ||
        build(s, (uint64_t)wc->seed, e)) {
        nsp_destroy(&s->kw.base);
        return NULL;
    }
    return &s->kw.base;
}
