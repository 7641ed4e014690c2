/* The SASS opcode table and per-architecture unit timings.
 *
 * Sources (facts, not code): the mnemonic -> unit category maps of Accel-Sim's ISA_Def/
 * {kepler,pascal,volta,turing,ampere,hopper}_opcode.h (accel-sim/accel-sim-framework), which follow
 * NVIDIA's CUDA Binary Utilities instruction-set lists, merged here into one table because a
 * mnemonic means the same thing on every architecture that has it; and the latency / initiation
 * pairs of the trace.config files in accel-sim-framework gpu-simulator/configs/tested-cfgs/
 * (-trace_opcode_latency_initiation_{int,sp,dp,sfu,tensor} and _spec_op_{1,2,3,4}: branch,
 * texture, tensor and uniform-datapath units). Accel-Sim times ALU, integer, branch, call and
 * return ops with the int pair on architectures without a branch unit (Kepler, Pascal).
 *
 * Deliberate differences from those maps, each noted where it matters: IMMA and the Hopper
 * xGMMA ops are tensor ops everywhere (Accel-Sim: int on Volta, NOP on Hopper); KILL is a branch
 * (Accel-Sim Turing+: the tensor unit); VIMNMX is integer (Accel-Sim Hopper: SP); TMA ops run on
 * the uniform datapath and are not modelled as memory; MEMBAR does not wait for the warp's
 * outstanding accesses (the SM has no memory barrier); Kepler's LD / ST are global. */
#include "workload/trace/opcodes.h"

#include <stdlib.h>
#include <string.h>

struct op_entry {
    const char *name;
    uint8_t kind, space, mop;
};

/* Sorted by name (strcmp order) for bsearch; a test checks the order. */
static const struct op_entry table[] = {
    {"ARRIVES", TK_INT, TSP_NONE, MOP_LOAD},     {"ATOM", TK_ATOM, TSP_GENERIC, MOP_ATOMIC},
    {"ATOMG", TK_ATOM, TSP_GLOBAL, MOP_ATOMIC},  {"ATOMS", TK_ATOM, TSP_SHARED, MOP_ATOMIC},
    {"B2R", TK_INT, TSP_NONE, MOP_LOAD},         {"BAR", TK_BAR, TSP_NONE, MOP_LOAD},
    {"BFE", TK_INT, TSP_NONE, MOP_LOAD},         {"BFI", TK_INT, TSP_NONE, MOP_LOAD},
    {"BGMMA", TK_TENSOR, TSP_NONE, MOP_LOAD},    {"BMMA", TK_TENSOR, TSP_NONE, MOP_LOAD},
    {"BMOV", TK_BRANCH, TSP_NONE, MOP_LOAD},     {"BMSK", TK_INT, TSP_NONE, MOP_LOAD},
    {"BPT", TK_BRANCH, TSP_NONE, MOP_LOAD},      {"BRA", TK_BRANCH, TSP_NONE, MOP_LOAD},
    {"BREAK", TK_BRANCH, TSP_NONE, MOP_LOAD},    {"BREV", TK_INT, TSP_NONE, MOP_LOAD},
    {"BRK", TK_BRANCH, TSP_NONE, MOP_LOAD},      {"BRX", TK_BRANCH, TSP_NONE, MOP_LOAD},
    {"BRXU", TK_BRANCH, TSP_NONE, MOP_LOAD},     {"BSSY", TK_BRANCH, TSP_NONE, MOP_LOAD},
    {"BSYNC", TK_BRANCH, TSP_NONE, MOP_LOAD},    {"CAL", TK_BRANCH, TSP_NONE, MOP_LOAD},
    {"CALL", TK_BRANCH, TSP_NONE, MOP_LOAD},     {"CCTL", TK_INT, TSP_NONE, MOP_LOAD},
    {"CCTLL", TK_INT, TSP_NONE, MOP_LOAD},       {"CCTLT", TK_INT, TSP_NONE, MOP_LOAD},
    {"CGAERRBAR", TK_INT, TSP_NONE, MOP_LOAD},   {"CONT", TK_BRANCH, TSP_NONE, MOP_LOAD},
    {"CS2R", TK_INT, TSP_NONE, MOP_LOAD},        {"CSET", TK_INT, TSP_NONE, MOP_LOAD},
    {"CSETP", TK_INT, TSP_NONE, MOP_LOAD},       {"CSMTEST", TK_INT, TSP_NONE, MOP_LOAD},
    {"DADD", TK_DP, TSP_NONE, MOP_LOAD},         {"DEPBAR", TK_INT, TSP_NONE, MOP_LOAD},
    {"DFMA", TK_DP, TSP_NONE, MOP_LOAD},         {"DMMA", TK_TENSOR, TSP_NONE, MOP_LOAD},
    {"DMNMX", TK_DP, TSP_NONE, MOP_LOAD},        {"DMUL", TK_DP, TSP_NONE, MOP_LOAD},
    {"DSET", TK_DP, TSP_NONE, MOP_LOAD},         {"DSETP", TK_DP, TSP_NONE, MOP_LOAD},
    {"ELECT", TK_BRANCH, TSP_NONE, MOP_LOAD},    {"ERRBAR", TK_INT, TSP_NONE, MOP_LOAD},
    {"EXIT", TK_EXIT, TSP_NONE, MOP_LOAD},       {"F2F", TK_INT, TSP_NONE, MOP_LOAD},
    {"F2FP", TK_INT, TSP_NONE, MOP_LOAD},        {"F2I", TK_INT, TSP_NONE, MOP_LOAD},
    {"F2IP", TK_INT, TSP_NONE, MOP_LOAD},        {"FADD", TK_SP, TSP_NONE, MOP_LOAD},
    {"FADD32I", TK_SP, TSP_NONE, MOP_LOAD},      {"FCHK", TK_SP, TSP_NONE, MOP_LOAD},
    {"FCMP", TK_SP, TSP_NONE, MOP_LOAD},         {"FENCE", TK_INT, TSP_NONE, MOP_LOAD},
    {"FFMA", TK_SP, TSP_NONE, MOP_LOAD},         {"FFMA32I", TK_SP, TSP_NONE, MOP_LOAD},
    {"FLO", TK_INT, TSP_NONE, MOP_LOAD},         {"FMNMX", TK_SP, TSP_NONE, MOP_LOAD},
    {"FMUL", TK_SP, TSP_NONE, MOP_LOAD},         {"FMUL32I", TK_SP, TSP_NONE, MOP_LOAD},
    {"FRND", TK_INT, TSP_NONE, MOP_LOAD},        {"FSEL", TK_SP, TSP_NONE, MOP_LOAD},
    {"FSET", TK_SP, TSP_NONE, MOP_LOAD},         {"FSETP", TK_SP, TSP_NONE, MOP_LOAD},
    {"FSWZ", TK_SP, TSP_NONE, MOP_LOAD},         {"FSWZADD", TK_SP, TSP_NONE, MOP_LOAD},
    {"GETLMEMBASE", TK_INT, TSP_NONE, MOP_LOAD}, {"HADD2", TK_SP, TSP_NONE, MOP_LOAD},
    {"HADD2_32I", TK_SP, TSP_NONE, MOP_LOAD},    {"HFMA2", TK_SP, TSP_NONE, MOP_LOAD},
    {"HFMA2_32I", TK_SP, TSP_NONE, MOP_LOAD},    {"HGMMA", TK_TENSOR, TSP_NONE, MOP_LOAD},
    {"HMMA", TK_TENSOR, TSP_NONE, MOP_LOAD},     {"HMNMX2", TK_SP, TSP_NONE, MOP_LOAD},
    {"HMUL2", TK_SP, TSP_NONE, MOP_LOAD},        {"HMUL2_32I", TK_SP, TSP_NONE, MOP_LOAD},
    {"HSET2", TK_SP, TSP_NONE, MOP_LOAD},        {"HSETP2", TK_SP, TSP_NONE, MOP_LOAD},
    {"I2F", TK_INT, TSP_NONE, MOP_LOAD},         {"I2FP", TK_INT, TSP_NONE, MOP_LOAD},
    {"I2I", TK_INT, TSP_NONE, MOP_LOAD},         {"I2IP", TK_INT, TSP_NONE, MOP_LOAD},
    {"IABS", TK_INT, TSP_NONE, MOP_LOAD},        {"IADD", TK_INT, TSP_NONE, MOP_LOAD},
    {"IADD3", TK_INT, TSP_NONE, MOP_LOAD},       {"IADD32I", TK_INT, TSP_NONE, MOP_LOAD},
    {"ICMP", TK_INT, TSP_NONE, MOP_LOAD},        {"IDP", TK_INT, TSP_NONE, MOP_LOAD},
    {"IDP4A", TK_INT, TSP_NONE, MOP_LOAD},       {"IGMMA", TK_TENSOR, TSP_NONE, MOP_LOAD},
    {"IMAD", TK_INT, TSP_NONE, MOP_LOAD},        {"IMADSP", TK_INT, TSP_NONE, MOP_LOAD},
    {"IMMA", TK_TENSOR, TSP_NONE, MOP_LOAD},     {"IMNMX", TK_INT, TSP_NONE, MOP_LOAD},
    {"IMUL", TK_INT, TSP_NONE, MOP_LOAD},        {"IMUL32I", TK_INT, TSP_NONE, MOP_LOAD},
    {"ISAD", TK_INT, TSP_NONE, MOP_LOAD},        {"ISCADD", TK_INT, TSP_NONE, MOP_LOAD},
    {"ISCADD32I", TK_INT, TSP_NONE, MOP_LOAD},   {"ISET", TK_INT, TSP_NONE, MOP_LOAD},
    {"ISETP", TK_INT, TSP_NONE, MOP_LOAD},       {"ISUB", TK_INT, TSP_NONE, MOP_LOAD},
    {"JCAL", TK_BRANCH, TSP_NONE, MOP_LOAD},     {"JMP", TK_BRANCH, TSP_NONE, MOP_LOAD},
    {"JMX", TK_BRANCH, TSP_NONE, MOP_LOAD},      {"JMXU", TK_BRANCH, TSP_NONE, MOP_LOAD},
    {"KILL", TK_BRANCH, TSP_NONE, MOP_LOAD},     {"LD", TK_LOAD, TSP_GENERIC, MOP_LOAD},
    {"LDC", TK_CONST, TSP_CONST, MOP_LOAD},      {"LDG", TK_LOAD, TSP_GLOBAL, MOP_LOAD},
    {"LDGDEPBAR", TK_INT, TSP_NONE, MOP_LOAD},   {"LDGSTS", TK_LOAD, TSP_GLOBAL, MOP_LOAD},
    {"LDL", TK_LOAD, TSP_LOCAL, MOP_LOAD},       {"LDS", TK_LOAD, TSP_SHARED, MOP_LOAD},
    {"LDSLK", TK_LOAD, TSP_SHARED, MOP_LOAD},    {"LDSM", TK_LOAD, TSP_SHARED, MOP_LOAD},
    {"LEA", TK_INT, TSP_NONE, MOP_LOAD},         {"LEPC", TK_INT, TSP_NONE, MOP_LOAD},
    {"LOP", TK_INT, TSP_NONE, MOP_LOAD},         {"LOP3", TK_INT, TSP_NONE, MOP_LOAD},
    {"LOP32I", TK_INT, TSP_NONE, MOP_LOAD},      {"MATCH", TK_INT, TSP_NONE, MOP_LOAD},
    {"MEMBAR", TK_INT, TSP_NONE, MOP_LOAD},      {"MOV", TK_INT, TSP_NONE, MOP_LOAD},
    {"MOV32I", TK_INT, TSP_NONE, MOP_LOAD},      {"MOVM", TK_INT, TSP_NONE, MOP_LOAD},
    {"MUFU", TK_SFU, TSP_NONE, MOP_LOAD},        {"NANOSLEEP", TK_BRANCH, TSP_NONE, MOP_LOAD},
    {"NOP", TK_INT, TSP_NONE, MOP_LOAD},         {"P2R", TK_INT, TSP_NONE, MOP_LOAD},
    {"PBK", TK_BRANCH, TSP_NONE, MOP_LOAD},      {"PCNT", TK_BRANCH, TSP_NONE, MOP_LOAD},
    {"PEXIT", TK_BRANCH, TSP_NONE, MOP_LOAD},    {"PLOP3", TK_INT, TSP_NONE, MOP_LOAD},
    {"PMTRIG", TK_INT, TSP_NONE, MOP_LOAD},      {"POPC", TK_INT, TSP_NONE, MOP_LOAD},
    {"PRET", TK_BRANCH, TSP_NONE, MOP_LOAD},     {"PRMT", TK_INT, TSP_NONE, MOP_LOAD},
    {"PSET", TK_INT, TSP_NONE, MOP_LOAD},        {"PSETP", TK_INT, TSP_NONE, MOP_LOAD},
    {"QGMMA", TK_TENSOR, TSP_NONE, MOP_LOAD},    {"QSPC", TK_INT, TSP_NONE, MOP_LOAD},
    {"R2B", TK_INT, TSP_NONE, MOP_LOAD},         {"R2P", TK_INT, TSP_NONE, MOP_LOAD},
    {"R2UR", TK_UDP, TSP_NONE, MOP_LOAD},        {"RED", TK_ATOM, TSP_GENERIC, MOP_ATOMIC},
    {"REDG", TK_ATOM, TSP_GLOBAL, MOP_ATOMIC},   {"REDUX", TK_UDP, TSP_NONE, MOP_LOAD},
    {"RET", TK_BRANCH, TSP_NONE, MOP_LOAD},      {"RPCMOV", TK_BRANCH, TSP_NONE, MOP_LOAD},
    {"RRO", TK_SP, TSP_NONE, MOP_LOAD},          {"RTT", TK_BRANCH, TSP_NONE, MOP_LOAD},
    {"S2R", TK_INT, TSP_NONE, MOP_LOAD},         {"S2UR", TK_UDP, TSP_NONE, MOP_LOAD},
    {"SEL", TK_INT, TSP_NONE, MOP_LOAD},         {"SETCTAID", TK_INT, TSP_NONE, MOP_LOAD},
    {"SETLMEMBASE", TK_INT, TSP_NONE, MOP_LOAD}, {"SGXT", TK_INT, TSP_NONE, MOP_LOAD},
    {"SHF", TK_INT, TSP_NONE, MOP_LOAD},         {"SHFL", TK_INT, TSP_NONE, MOP_LOAD},
    {"SHL", TK_INT, TSP_NONE, MOP_LOAD},         {"SHR", TK_INT, TSP_NONE, MOP_LOAD},
    {"SSY", TK_BRANCH, TSP_NONE, MOP_LOAD},      {"ST", TK_STORE, TSP_GENERIC, MOP_STORE},
    {"STG", TK_STORE, TSP_GLOBAL, MOP_STORE},    {"STL", TK_STORE, TSP_LOCAL, MOP_STORE},
    {"STS", TK_STORE, TSP_SHARED, MOP_STORE},    {"STSCUL", TK_STORE, TSP_SHARED, MOP_STORE},
    {"SUATOM", TK_INT, TSP_NONE, MOP_LOAD},      {"SUBFM", TK_INT, TSP_NONE, MOP_LOAD},
    {"SUCLAMP", TK_INT, TSP_NONE, MOP_LOAD},     {"SUEAU", TK_INT, TSP_NONE, MOP_LOAD},
    {"SULD", TK_INT, TSP_NONE, MOP_LOAD},        {"SULDGA", TK_LOAD, TSP_GLOBAL, MOP_LOAD},
    {"SUQUERY", TK_INT, TSP_NONE, MOP_LOAD},     {"SURED", TK_INT, TSP_NONE, MOP_LOAD},
    {"SUST", TK_INT, TSP_NONE, MOP_LOAD},        {"SUSTGA", TK_STORE, TSP_GLOBAL, MOP_STORE},
    {"SYNC", TK_BRANCH, TSP_NONE, MOP_LOAD},     {"SYNCS", TK_INT, TSP_NONE, MOP_LOAD},
    {"TEX", TK_TEX, TSP_TEX, MOP_LOAD},          {"TEXS", TK_TEX, TSP_TEX, MOP_LOAD},
    {"TLD", TK_TEX, TSP_TEX, MOP_LOAD},          {"TLD4", TK_TEX, TSP_TEX, MOP_LOAD},
    {"TLD4S", TK_TEX, TSP_TEX, MOP_LOAD},        {"TLDS", TK_TEX, TSP_TEX, MOP_LOAD},
    {"TMML", TK_TEX, TSP_TEX, MOP_LOAD},         {"TXD", TK_TEX, TSP_TEX, MOP_LOAD},
    {"TXQ", TK_TEX, TSP_TEX, MOP_LOAD},          {"UBLKCP", TK_UDP, TSP_NONE, MOP_LOAD},
    {"UBLKPF", TK_UDP, TSP_NONE, MOP_LOAD},      {"UBLKRED", TK_UDP, TSP_NONE, MOP_LOAD},
    {"UBMSK", TK_UDP, TSP_NONE, MOP_LOAD},       {"UBREV", TK_UDP, TSP_NONE, MOP_LOAD},
    {"UCGABAR_ARV", TK_INT, TSP_NONE, MOP_LOAD}, {"UCGABAR_WAIT", TK_INT, TSP_NONE, MOP_LOAD},
    {"UCLEA", TK_UDP, TSP_NONE, MOP_LOAD},       {"UF2FP", TK_UDP, TSP_NONE, MOP_LOAD},
    {"UFLO", TK_UDP, TSP_NONE, MOP_LOAD},        {"UIADD3", TK_UDP, TSP_NONE, MOP_LOAD},
    {"UIMAD", TK_UDP, TSP_NONE, MOP_LOAD},       {"UISETP", TK_UDP, TSP_NONE, MOP_LOAD},
    {"ULDC", TK_UDP, TSP_NONE, MOP_LOAD},        {"ULEA", TK_UDP, TSP_NONE, MOP_LOAD},
    {"ULOP", TK_UDP, TSP_NONE, MOP_LOAD},        {"ULOP3", TK_UDP, TSP_NONE, MOP_LOAD},
    {"ULOP32I", TK_UDP, TSP_NONE, MOP_LOAD},     {"UMOV", TK_UDP, TSP_NONE, MOP_LOAD},
    {"UP2UR", TK_UDP, TSP_NONE, MOP_LOAD},       {"UPLOP3", TK_UDP, TSP_NONE, MOP_LOAD},
    {"UPOPC", TK_UDP, TSP_NONE, MOP_LOAD},       {"UPRMT", TK_UDP, TSP_NONE, MOP_LOAD},
    {"UPSETP", TK_UDP, TSP_NONE, MOP_LOAD},      {"UR2UP", TK_UDP, TSP_NONE, MOP_LOAD},
    {"USEL", TK_UDP, TSP_NONE, MOP_LOAD},        {"USETMAXREG", TK_INT, TSP_NONE, MOP_LOAD},
    {"USGXT", TK_UDP, TSP_NONE, MOP_LOAD},       {"USHF", TK_UDP, TSP_NONE, MOP_LOAD},
    {"USHL", TK_UDP, TSP_NONE, MOP_LOAD},        {"USHR", TK_UDP, TSP_NONE, MOP_LOAD},
    {"UTMACCTL", TK_UDP, TSP_NONE, MOP_LOAD},    {"UTMACMDFLUSH", TK_UDP, TSP_NONE, MOP_LOAD},
    {"UTMALDG", TK_UDP, TSP_NONE, MOP_LOAD},     {"UTMAPF", TK_UDP, TSP_NONE, MOP_LOAD},
    {"UTMAREDG", TK_UDP, TSP_NONE, MOP_LOAD},    {"UTMASTG", TK_UDP, TSP_NONE, MOP_LOAD},
    {"VABSDIFF", TK_INT, TSP_NONE, MOP_LOAD},    {"VABSDIFF4", TK_INT, TSP_NONE, MOP_LOAD},
    {"VADD", TK_INT, TSP_NONE, MOP_LOAD},        {"VIADD", TK_INT, TSP_NONE, MOP_LOAD},
    {"VIADDMNMX", TK_INT, TSP_NONE, MOP_LOAD},   {"VIMNMX", TK_INT, TSP_NONE, MOP_LOAD},
    {"VIMNMX3", TK_INT, TSP_NONE, MOP_LOAD},     {"VMNMX", TK_INT, TSP_NONE, MOP_LOAD},
    {"VOTE", TK_INT, TSP_NONE, MOP_LOAD},        {"VOTEU", TK_UDP, TSP_NONE, MOP_LOAD},
    {"VOTE_VTG", TK_INT, TSP_NONE, MOP_LOAD},    {"WARPGROUP", TK_INT, TSP_NONE, MOP_LOAD},
    {"WARPSYNC", TK_BRANCH, TSP_NONE, MOP_LOAD}, {"XMAD", TK_INT, TSP_NONE, MOP_LOAD},
    {"YIELD", TK_BRANCH, TSP_NONE, MOP_LOAD},
};

struct trace_arch {
    const char *name;
    bool ld_global; /* Kepler: LD / ST address global memory */
    bool tex_unit;  /* Volta+: texture fetches have their own unit (else they are ALU ops) */
    uint16_t lat[TK_NKINDS], ii[TK_NKINDS];
};

/* clang-format off */
#define T(i_l, i_i, s_l, s_i, d_l, d_i, f_l, f_i, t_l, t_i, b_l, b_i, x_l, x_i, u_l, u_i)           \
    .lat = {[TK_INT] = i_l, [TK_SP] = s_l, [TK_DP] = d_l, [TK_SFU] = f_l, [TK_TENSOR] = t_l,       \
            [TK_BRANCH] = b_l, [TK_TEX] = x_l, [TK_UDP] = u_l},                                    \
    .ii = {[TK_INT] = i_i, [TK_SP] = s_i, [TK_DP] = d_i, [TK_SFU] = f_i, [TK_TENSOR] = t_i,        \
           [TK_BRANCH] = b_i, [TK_TEX] = x_i, [TK_UDP] = u_i}
/*                     int    sp     dp      sfu     tensor  branch tex     udp */
static const struct trace_arch arch_kepler = {"Kepler (sm_3x, SM3_KEPLER_TITAN)", true, false,
                     T(4,1,  4,1,   20,2,   200,2,  4,1,    4,1,   4,1,    4,1)};
static const struct trace_arch arch_pascal = {"Pascal (sm_5x/sm_6x, SM6_TITANX)", false, false,
                     T(4,1,  4,1,   20,8,   20,4,   4,1,    4,1,   4,1,    4,1)};
static const struct trace_arch arch_volta = {"Volta (sm_70/72, SM7_QV100)", false, true,
                     T(2,2,  2,2,   8,4,    20,8,   2,2,    4,4,   200,4,  4,1)};
static const struct trace_arch arch_turing = {"Turing (sm_75, SM75_RTX2060)", false, true,
                     T(2,2,  2,2,   64,64,  21,8,   16,16,  4,4,   200,4,  4,1)};
static const struct trace_arch arch_a100 = {"Ampere (sm_80, SM80_A100)", false, true,
                     T(4,2,  4,2,   6,4,    23,8,   12,8,   4,4,   200,4,  4,1)};
static const struct trace_arch arch_ga10x = {"Ampere (sm_86/87/89, SM86_RTX3070)", false, true,
                     T(4,2,  4,2,   8,4,    20,8,   32,32,  4,4,   200,4,  4,2)};
/* SM90_H100 gives the tensor unit "1,0"; an initiation interval of 0 would mean "the machine's"
 * here, so it is 1. */
static const struct trace_arch arch_hopper = {"Hopper (sm_90, SM90_H100)", false, true,
                     T(4,2,  4,2,   8,2,    23,8,   1,1,    4,4,   200,4,  4,1)};
/* clang-format on */
#undef T

const struct trace_arch *trace_arch_find(uint32_t v) {
    if (v >= 30 && v <= 39) return &arch_kepler;
    if (v >= 50 && v <= 62) return &arch_pascal; /* Maxwell shares Pascal's ISA family */
    if (v == 70 || v == 72) return &arch_volta;
    if (v == 75) return &arch_turing;
    if (v == 80) return &arch_a100;
    if (v >= 86 && v <= 89) return &arch_ga10x; /* Orin (87) and Ada (89) reuse GA10x timings */
    if (v == 90) return &arch_hopper;
    return NULL;
}

const char *trace_arch_supported(void) {
    return "30-39, 50-62, 70, 72, 75, 80, 86-89, 90";
}

const char *trace_arch_name(const struct trace_arch *a) {
    return a->name;
}

void trace_arch_timing(const struct trace_arch *a, enum trace_kind k, uint16_t *lat, uint16_t *ii) {
    *lat = (unsigned)k < TK_NKINDS ? a->lat[k] : 0;
    *ii = (unsigned)k < TK_NKINDS ? a->ii[k] : 0;
}

unsigned trace_op_table_size(void) {
    return sizeof table / sizeof table[0];
}
const char *trace_op_table_name(unsigned i) {
    return i < trace_op_table_size() ? table[i].name : NULL;
}

static int cmp_entry(const void *key, const void *ent) {
    return strcmp(key, ((const struct op_entry *)ent)->name);
}

/* True when the dot-separated modifier list of op[0..len) contains `mod`. */
static bool has_mod(const char *op, size_t len, const char *mod) {
    size_t m = strlen(mod);
    for (size_t i = 0; i < len; i++)
        if (op[i] == '.' && len - i - 1 >= m && memcmp(op + i + 1, mod, m) == 0 &&
            (i + 1 + m == len || op[i + 1 + m] == '.'))
            return true;
    return false;
}

unsigned trace_op_width(const char *op, size_t len) {
    size_t i = 0;
    while (i < len && op[i] != '.') i++;
    while (i < len) {
        size_t s = ++i; /* a modifier: op[s .. i) */
        while (i < len && op[i] != '.') i++;
        size_t d = s;
        if (d < i && (op[d] == 'U' || op[d] == 'S')) d++;
        if (d == i) continue;
        unsigned bits = 0;
        size_t k = d;
        for (; k < i && op[k] >= '0' && op[k] <= '9' && bits < 100000; k++)
            bits = bits * 10 + (unsigned)(op[k] - '0');
        if (k != i) continue;
        unsigned w = bits / 8;
        return w == 1 || w == 2 || w == 4 || w == 8 || w == 16 ? w : 4;
    }
    return 4;
}

static uint8_t class_of(enum trace_kind k) {
    switch (k) {
    case TK_SP:
        return OP_SP;
    case TK_DP:
        return OP_DP;
    case TK_SFU:
        return OP_SFU;
    case TK_TENSOR:
        return OP_TENSOR;
    case TK_BRANCH:
        return OP_BRANCH;
    case TK_BAR:
        return OP_BAR;
    case TK_EXIT:
        return OP_EXIT;
    default:
        return OP_INT;
    }
}

bool trace_op_lookup(const struct trace_arch *a, const char *op, size_t len, struct trace_op *o) {
    char mn[32];
    size_t n = 0;
    while (n < len && op[n] != '.') n++;
    const struct op_entry *ent = NULL;
    if (n < sizeof mn) {
        memcpy(mn, op, n);
        mn[n] = '\0';
        ent = bsearch(mn, table, sizeof table / sizeof table[0], sizeof table[0], cmp_entry);
    }
    memset(o, 0, sizeof *o);
    o->known = ent != NULL;
    enum trace_kind k = ent ? (enum trace_kind)ent->kind : TK_INT;
    o->space = ent ? ent->space : TSP_NONE;
    o->mop = ent ? ent->mop : MOP_LOAD;
    /* BAR.ARV arrives at a named barrier without waiting. */
    if (k == TK_BAR && has_mod(op, len, "ARV")) k = TK_INT;
    if (a->ld_global && o->space == TSP_GENERIC && k != TK_ATOM) o->space = TSP_GLOBAL;
    o->kind = (uint8_t)k;
    o->width = (uint8_t)trace_op_width(op, len);
    /* Without addresses, memory opcodes issue as integer ops; texture fetches keep the texture
     * unit's timing where there is one (on the SFU class: the SM has no texture unit). */
    enum trace_kind tk = k;
    if (k == TK_LOAD || k == TK_STORE || k == TK_ATOM || k == TK_CONST) tk = TK_INT;
    if (k == TK_TEX && !a->tex_unit) tk = TK_INT;
    o->cls = tk == TK_TEX ? OP_SFU : class_of(tk);
    trace_arch_timing(a, tk, &o->lat, &o->ii);
    return o->known;
}
