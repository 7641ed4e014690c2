/* The Mars MapReduce benchmarks of seeds 001 and 002: PageViewCount (pvc), PageViewRank (pvr),
 * SimilarityScore (ss) and InvertedIndex (iix), as the Mars GPU framework runs them (Mars, He et
 * al., PACT 2008; sources: MarsLib.cu kernels MapperCount, Mapper, ReducerCount, Reducer;
 * MarsSort.cu kernels bitonicKernel, copyChunks_kernel, getChunkBoundary_kernel; and each
 * sample_apps/<App>/{map,reduce,compare}.cu inlined into them). One MapReduce() call is:
 *   MapperCount: one thread per input record (256-thread blocks, one record per task) reads the
 *     record's int4 {keyOffset, keySize, valOffset, valSize} from inputOffsetSizes and calls the
 *     app's map_count, which adds the sizes of what it will emit to per-thread counters;
 *   prefix sums of the three counters, intermediate buffers allocated at their totals;
 *   Mapper: the same walk calling map, whose EmitIntermediate copies key and value byte by byte
 *     into the thread's pre-counted slots of interKeys/interVals and appends an int4 to
 *     interOffsetSizes;
 *   group: bitonicKernel launches for every (k, j) stage over the int4 records padded to a power
 *     of two (padding {-1, -1} sorts first), each comparison calling the app's compare on the two
 *     keys (a gather into interKeys), after initialize_kernel has filled the padded array; then
 *     getZWArray_kernel, getIntYArray_kernel, copyChunks_kernel and setZWArray_kernel scatter
 *     the values into sorted order, the XY versions the keys, and getChunkBoundary_kernel,
 *     writeBoundary_kernel and setBoundaryInt2_kernel find the key groups;
 *   reduce (MAP_REDUCE workflow only): ReducerCount and Reducer, one thread per key group.
 * Modelled simplifications (assumed, not in the sources): the prefix sums (MarsScan.cu
 * prescanArray, CUDPP-style multi-level scans), the cudaMemsets and the DtoD cudaMemcpys are
 * done on the host without launches (coalesced streaming passes over int arrays); bitonicSortGPU's
 * single-block (<= 256 records) and chunked shared-memory (> 256K records) variants are replaced by
 * bitonicKernel stages, used at every size; int4 loads/stores (LDG.128) are two 8-byte accesses
 * (kmodel's widest); the 32-bit integer arithmetic of the hash functions runs on 64-bit registers
 * with masks (a few more ALU instructions); the __syncthreads in EmitIntermediate/Emit is left out
 * (in IIX it sits inside divergent code); the record loop of MapperCount/Mapper runs its single
 * trip without the loop compare; Mapper's prologue stores only .x and .z of its int4 slot (see
 * gen_slot_init); the input records are one task each (DEFAULT_NUMTASK 1, DEFAULT_DIMBLOCK 256, a
 * 1-D grid). Device memory follows the cudaMalloc order of MarsLib.cu and MarsSort.cu; nothing is
 * freed (GPGPU-Sim's cudaMalloc never reuses addresses either).
 *
 * The apps (sample_apps/<App>/main.cu, map.cu, compare.cu, global.h):
 *   pvc: web log lines "URL\tIP\tCookie\n"; key {file_buf, entry_offset, entry_hash}, value
 *     {entry_size, phase}. MapReduce 1 (MAP_REDUCE): map hashes the whole entry, sort+group
 *     drops duplicate entries, reduce emits one per group (phase = 1). MapReduce 2 (MAP_GROUP):
 *     map cuts URL and IP at the tabs, hashes the URL and emits (key, IP offset); the group sizes
 *     are the page views per URL. compare: entry_hash, then the strings byte by byte.
 *   pvr: lines "URL\tcount\n" (PVC's output); key = count, value = line offset; MAP_GROUP sorts
 *     by count, descending.
 *   ss: a docs x dim float matrix (values rand() % 100); one record per pair i < j; map reads
 *     both rows as float4 (lanes of a warp read rows dim * 4 bytes apart: uncoalesced) and emits
 *     (cosine similarity, (i, j)); MAP_GROUP sorts by score, descending.
 *   iix: HTML files cut into ~1 KB blocks (at the next newline); each map task scans its block
 *     byte by byte with the <a href="..."> state machine and emits (key {file_buf, url_offset,
 *     url_hash}, file_id) per link; MAP_GROUP groups the postings by URL.
 * Inputs are generated from workload.seed. Paper sizes: pvc 100K log entries and iix 6.8 MB of
 * HTML (seed 001 Table 4.2: "100K", "6.8M"); ss 512 documents x 128 features and pvr 100K URL
 * lines (assumed: seed 002 gives no inputs; 512 x 128 is the Mars paper's small SS input).
 * This file is the framework; each app's map bodies, input and host check are in mars_<app>.c. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/mars.h"
#define LO32 KI(0xffffffffll)
#define HI32 KI((int64_t)0xffffffff00000000ull)

/* ---------------------------------------------------------------------------------------------
 * Runtime program builder: the Mars kernels inline the app's map/compare code, so programs are
 * assembled from pieces (and unrolled byte copies) at create time. */
void kb_put(struct kb *b, struct km_inst i) {
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? 2 * b->cap : 256;
        struct km_inst *c = realloc(b->c, cap * sizeof *c);
        if (!c) {
            b->oom = true;
            return;
        }
        b->c = c, b->cap = cap;
    }
    b->c[b->n++] = i;
}

/* A label name unique within the program being built. */
static const char *kb_label(struct kb *b, const char *base) {
    if (b->nl == 64) return base;
    snprintf(b->lbl[b->nl], sizeof b->lbl[0], "%s%u", base, b->nl);
    return b->lbl[b->nl++];
}

static void ld(struct kb *b, int space, int w, int d, int a, int off) {
    E({.op = KM_LD,
       .space = (uint8_t)space,
       .width = (uint8_t)w,
       .d1 = (uint16_t)(d + 1),
       .a = KR(a),
       .off = off});
}

/* regs: what the compiled kernel is assumed to use; at least the highest register the model
 * names (its numbering is by role, so sparser than a compiler's). */
static int kb_build(struct kb *b, struct km_prog *p, const char *name, uint32_t regs,
                    struct ws_err *e) {
    for (uint32_t i = 0; i < b->n; i++) {
        const struct km_inst *k = &b->c[i];
        const struct km_opnd *o[3] = {&k->a, &k->b, &k->c};
        if (k->d1 > regs) regs = k->d1;
        for (int j = 0; j < 3; j++)
            if (o[j]->kind == KO_REG && o[j]->v + 1 > (int64_t)regs) regs = (uint32_t)o[j]->v + 1;
    }
    int rc =
        b->oom ? ws_fail(e, "mars: out of memory") : km_prog_build(p, name, regs, b->c, b->n, e);
    free(b->c);
    memset(b, 0, sizeof *b);
    return rc;
}

/* Kernel parameters of MapperCount/Mapper (and ReducerCount/Reducer, reading the intermediate
 * arrays as input and writing the output ones). */
enum {
    P_IKEYS,
    P_IVALS,
    P_IOS,
    P_KS, /* interKeysSizePerTask (count) / psKeySizes (map) */
    P_VS,
    P_CNT,
    P_KVO, /* keyValOffsets */
    P_OK,  /* interKeys written by map */
    P_OV,  /* interVals */
    P_OOS, /* interOffsetSizes */
    P_CUR, /* curIndex */
    P_N,   /* recordNum */
    P_RNG, /* interKeyListRange (reduce) */
    P_APP  /* app parameter */
};

/* index = TID; exit when index >= recordNum; R2/R3 = inputOffsetSizes[index] (x|y, z|w);
 * R4 = key, R5 = val. */
static void gen_map_prologue(struct kb *b) {
    E(KM_S2R(1, SR_TID_X));
    E(KM_S2R(2, SR_CTAID_X));
    E(KM_OP3(KM_IMAD, 0, KR(2), KS(SR_NTID_X), KR(1)));
    E(KM_ISETP_(KM_GE, 0, KR(0), KP(P_N)));
    E(KM_BRA_IF(0, "end", "end"));
}
static void gen_map_record(struct kb *b) {
    E(KM_OP3(KM_IMAD, 1, KR(0), KI(16), KP(P_IOS)));
    E(KM_LDG(8, 2, KR(1), 0));
    E(KM_LDG(8, 3, KR(1), 8));
    E(KM_OP2(KM_AND, 4, KR(2), LO32));
    E(KM_OP2(KM_IADD, 4, KR(4), KP(P_IKEYS)));
    E(KM_OP2(KM_AND, 5, KR(3), LO32));
    E(KM_OP2(KM_IADD, 5, KR(5), KP(P_IVALS)));
}

/* Mapper/Reducer, before the record loop: offsets[psCounts[index]].x = psKeySizes[index], .z =
 * psValSizes[index]. */
static void gen_slot_init(struct kb *b, bool whole) {
    E(KM_OP3(KM_IMAD, 30, KR(0), KI(4), KP(P_CNT)));
    E(KM_LDG(4, 31, KR(30), 0));
    E(KM_OP3(KM_IMAD, 32, KR(31), KI(16), KP(P_OOS)));
    E(KM_OP3(KM_IMAD, 35, KR(0), KI(4), KP(P_KS)));
    E(KM_LDG(4, 35, KR(35), 0));
    E(KM_OP3(KM_IMAD, 36, KR(0), KI(4), KP(P_VS)));
    E(KM_LDG(4, 36, KR(36), 0));
    if (whole) { /* Mapper reads the int4 ... */
        E(KM_LDG(8, 33, KR(32), 0));
        E(KM_LDG(8, 34, KR(32), 8));
    }
    /* ... and stores it whole; here only .x and .z are stored, since a neighbour task that
     * emits nothing shares the slot, and its stale .y/.w must not land after this thread's
     * first Emit when warps interleave (on the GPU the race is there, and rarely bites) */
    E(KM_STG(4, KR(32), 0, KR(35)));
    E(KM_STG(4, KR(32), 8, KR(36)));
}

/* EmitInterCount/EmitCount: the per-thread counters += sizes (registers ks, vs). */
void gen_emit_count(struct kb *b, int ks, int vs) {
    E(KM_OP3(KM_IMAD, 30, KR(0), KI(4), KP(P_KS)));
    E(KM_LDG(4, 31, KR(30), 0));
    E(KM_OP2(KM_IADD, 31, KR(31), KR(ks)));
    E(KM_STG(4, KR(30), 0, KR(31)));
    E(KM_OP3(KM_IMAD, 30, KR(0), KI(4), KP(P_VS)));
    E(KM_LDG(4, 31, KR(30), 0));
    E(KM_OP2(KM_IADD, 31, KR(31), KR(vs)));
    E(KM_STG(4, KR(30), 0, KR(31)));
    E(KM_OP3(KM_IMAD, 30, KR(0), KI(4), KP(P_CNT)));
    E(KM_LDG(4, 31, KR(30), 0));
    E(KM_OP2(KM_IADD, 31, KR(31), KI(1)));
    E(KM_STG(4, KR(30), 0, KR(31)));
}

/* EmitIntermediate/Emit: copies ksz key bytes from R10 (space ksp) and vsz value bytes from R11
 * (space vsp) to the thread's next slots (unrolled byte copies: the sizes are sizeof constants),
 * advances keyValOffsets, and writes the record's int4 (offsets chained from the previous one
 * when it is not the thread's first). Uses R30..R42. */
void gen_emit(struct kb *b, int ksp, int vsp, int ksz, int vsz) {
    E(KM_OP3(KM_IMAD, 30, KR(0), KI(8), KP(P_KVO)));
    E(KM_LDG(8, 31, KR(30), 0));
    E(KM_OP3(KM_IMAD, 32, KR(0), KI(4), KP(P_KS)));
    E(KM_LDG(4, 33, KR(32), 0));
    E(KM_OP3(KM_IMAD, 34, KR(0), KI(4), KP(P_VS)));
    E(KM_LDG(4, 35, KR(34), 0));
    E(KM_OP2(KM_AND, 36, KR(31), LO32));
    E(KM_OP2(KM_IADD, 36, KR(36), KR(33)));
    E(KM_OP2(KM_IADD, 36, KR(36), KP(P_OK)));
    E(KM_OP2(KM_SHR, 37, KR(31), KI(32)));
    E(KM_OP2(KM_IADD, 37, KR(37), KR(35)));
    E(KM_OP2(KM_IADD, 37, KR(37), KP(P_OV)));
    for (int i = 0; i < ksz; i++) {
        ld(b, ksp, 1, 38, 10, i);
        E(KM_STG(1, KR(36), i, KR(38)));
    }
    for (int i = 0; i < vsz; i++) {
        ld(b, vsp, 1, 38, 11, i);
        E(KM_STG(1, KR(37), i, KR(38)));
    }
    E(KM_OP2(KM_IADD, 31, KR(31), KI((int64_t)ksz | (int64_t)vsz << 32)));
    E(KM_STG(8, KR(30), 0, KR(31)));
    E(KM_OP3(KM_IMAD, 32, KR(0), KI(4), KP(P_CUR)));
    E(KM_LDG(4, 38, KR(32), 0)); /* l_curIndex */
    E(KM_OP3(KM_IMAD, 39, KR(0), KI(4), KP(P_CNT)));
    E(KM_LDG(4, 39, KR(39), 0));
    E(KM_OP2(KM_IADD, 39, KR(39), KR(38))); /* l_curPs */
    E(KM_OP3(KM_IMAD, 33, KR(39), KI(16), KP(P_OOS)));
    E(KM_LDG(8, 34, KR(33), 0));
    E(KM_LDG(8, 35, KR(33), 8));
    E(KM_LDG(8, 36, KR(33), -16)); /* [l_curPs - 1]: read even when unused, as compiled */
    E(KM_LDG(8, 37, KR(33), -8));
    E(KM_ISETP_(KM_NE, 5, KR(38), KRZ));
    E(KM_OP2(KM_AND, 40, KR(36), LO32));
    E(KM_OP2(KM_SHR, 41, KR(36), KI(32)));
    E(KM_OP2(KM_IADD, 40, KR(40), KR(41))); /* prev.x + prev.y */
    E(KM_OP2(KM_AND, 41, KR(37), LO32));
    E(KM_OP2(KM_SHR, 42, KR(37), KI(32)));
    E(KM_OP2(KM_IADD, 41, KR(41), KR(42))); /* prev.z + prev.w */
    E(KM_OP2(KM_AND, 34, KR(34), LO32));
    E(KM_OP2(KM_AND, 35, KR(35), LO32));
    E(KM_SEL_(34, KR(40), KR(34), 5));
    E(KM_SEL_(35, KR(41), KR(35), 5));
    E(KM_OP2(KM_OR, 34, KR(34), KI((int64_t)ksz << 32)));
    E(KM_OP2(KM_OR, 35, KR(35), KI((int64_t)vsz << 32)));
    E(KM_STG(8, KR(33), 0, KR(34)));
    E(KM_STG(8, KR(33), 8, KR(35)));
    E(KM_OP2(KM_IADD, 38, KR(38), KI(1)));
    E(KM_STG(4, KR(32), 0, KR(38)));
}

/* hash_func(str, len) of PVC and IIX map.cu: hash = len; hash = (hash << 4) ^ (hash >> 28) ^
 * str[i] in 32-bit int arithmetic (arithmetic shift), kept zero-extended in R43. str in R44, len
 * in R45; uses R46..R49. */
void gen_hash(struct kb *b) {
    const char *lp = kb_label(b, "hloop"), *dn = kb_label(b, "hdone");
    E(KM_OP2(KM_AND, 43, KR(45), LO32));
    E(KM_MOV_(46, KRZ));
    E(KM_ISETP_(KM_GE, 4, KR(46), KR(45)));
    E(KM_BRA_IF(4, dn, dn));
    E(KM_LBL(lp));
    E(KM_OP2(KM_IADD, 47, KR(44), KR(46)));
    E(KM_LDG_S(1, 47, KR(47), 0));
    E(KM_OP2(KM_SHR, 48, KR(43), KI(28)));
    E(KM_ISETP_(KM_GE, 4, KR(43), KI(0x80000000ll)));
    E(KM_OP2(KM_OR, 49, KR(48), KI(0xfffffff0ll)));
    E(KM_SEL_(48, KR(49), KR(48), 4));
    E(KM_OP2(KM_SHL, 43, KR(43), KI(4)));
    E(KM_OP2(KM_XOR, 43, KR(43), KR(48)));
    E(KM_OP2(KM_XOR, 43, KR(43), KR(47)));
    E(KM_OP2(KM_AND, 43, KR(43), LO32));
    E(KM_OP2(KM_IADD, 46, KR(46), KI(1)));
    E(KM_ISETP_(KM_LT, 4, KR(46), KR(45)));
    E(KM_BRA_IF(4, lp, dn));
    E(KM_LBL(dn));
}

static int32_t host_hash(const char *s, int32_t len) {
    uint32_t h = (uint32_t)len;
    for (int32_t i = 0; i < len; i++) {
        uint32_t sr = h >> 28;
        if (h & 0x80000000u) sr |= 0xfffffff0u;
        h = (h << 4) ^ sr ^ (uint32_t)(int32_t)(signed char)s[i];
    }
    return (int32_t)h;
}

/* ---------------------------------------------------------------------------------------------
 * compare(a, b) of each app, a at R20 and b at R21 (device pointers into the key buffer),
 * result (-1, 0, 1) in R22; uses R23..R29 and P4/P6. */

static void gen_compare(struct kb *b, enum mr_cmp cmp) {
    const char *done = kb_label(b, "cdone");
    if (cmp == CMP_INT_DESC) { /* PageViewRank: h1 > h2 -> -1, h1 < h2 -> 1 */
        E(KM_LDG_S(4, 23, KR(20), 0));
        E(KM_LDG_S(4, 24, KR(21), 0));
        E(KM_MOV_(22, KRZ));
        E(KM_ISETP_(KM_GT, 4, KR(23), KR(24)));
        E(KM_SEL_(22, KI(-1), KR(22), 4));
        E(KM_ISETP_(KM_LT, 4, KR(23), KR(24)));
        E(KM_SEL_(22, KI(1), KR(22), 4));
    } else if (cmp == CMP_FLOAT_DESC) { /* SimilarityScore: |a-b| < 1e-7 -> 0; a < b -> 1 */
        E(KM_LDG(4, 23, KR(20), 0));
        E(KM_LDG(4, 24, KR(21), 0));
        E(KM_OP2(KM_FSUB, 25, KR(23), KR(24)));
        E(KM_OP2(KM_FMUL, 26, KR(25), KF(-1.0f)));
        E(KM_OP2(KM_FMAX, 25, KR(25), KR(26))); /* fabsf */
        E(KM_MOV_(22, KI(-1)));
        E(KM_FSETP_(KM_LT, 4, KR(23), KR(24)));
        E(KM_SEL_(22, KI(1), KR(22), 4));
        E(KM_FSETP_(KM_LT, 4, KR(25), KF(0.0000001f)));
        E(KM_SEL_(22, KRZ, KR(22), 4));
    } else { /* PVC / IIX: the hashes, then the strings */
        const char *str = kb_label(b, "cstr"), *lp = kb_label(b, "cloop"),
                   *end = kb_label(b, "cend");
        E(KM_LDG_S(4, 23, KR(20), 12));
        E(KM_LDG_S(4, 24, KR(21), 12));
        E(KM_MOV_(22, KI(1)));
        E(KM_ISETP_(KM_GT, 4, KR(23), KR(24)));
        E(KM_BRA_IF(4, done, done));
        E(KM_MOV_(22, KI(-1)));
        E(KM_ISETP_(KM_LT, 4, KR(23), KR(24)));
        E(KM_BRA_IF(4, done, done));
        E(KM_LBL(str));
        E(KM_LDG(8, 23, KR(20), 0));
        E(KM_LDG_S(4, 25, KR(20), 8));
        E(KM_OP2(KM_IADD, 23, KR(23), KR(25)));
        E(KM_LDG(8, 24, KR(21), 0));
        E(KM_LDG_S(4, 25, KR(21), 8));
        E(KM_OP2(KM_IADD, 24, KR(24), KR(25)));
        E(KM_LBL(lp));
        E(KM_LDG_S(1, 25, KR(23), 0));
        E(KM_LDG_S(1, 26, KR(24), 0));
        E(KM_ISETP_(KM_NE, 4, KR(25), KR(26)));
        E(KM_BRA_IF(4, end, end));
        E(KM_ISETP_(KM_EQ, 4, KR(25), KRZ));
        E(KM_BRA_IF(4, end, end));
        E(KM_OP2(KM_IADD, 23, KR(23), KI(1)));
        E(KM_OP2(KM_IADD, 24, KR(24), KI(1)));
        E(KM_BRA_(lp));
        E(KM_LBL(end));
        E(KM_MOV_(22, KRZ));
        E(KM_ISETP_(KM_GT, 4, KR(25), KR(26)));
        E(KM_SEL_(22, KI(1), KR(22), 4));
        E(KM_ISETP_(KM_LT, 4, KR(25), KR(26)));
        E(KM_SEL_(22, KI(-1), KR(22), 4));
    }
    E(KM_LBL(done));
}

/* getCompareValue(raw, v1 (R12 lo: offset), v2 (R14 lo)): a padding record (.x == -1) sorts
 * first; else compare(raw + v1.x, raw + v2.x). Result in R22. */
static void gen_compare_value(struct kb *b, enum mr_cmp cmp, int raw_param) {
    const char *real = kb_label(b, "real"), *out = kb_label(b, "gcv");
    E(KM_OP2(KM_AND, 16, KR(12), LO32));
    E(KM_OP2(KM_AND, 17, KR(14), LO32));
    E(KM_OP2(KM_OR, 18, KR(16), KR(17)));
    E(KM_ISETP_(KM_EQ, 3, KR(16), LO32));
    E(KM_SEL_(22, KI(-1), KI(1), 3)); /* v1 == -1 ? -1 : 1 */
    E(KM_ISETP_(KM_EQ, 3, KR(16), KR(17)));
    E(KM_SEL_(22, KRZ, KR(22), 3));
    E(KM_ISETP_(KM_GE, 3, KR(18), KI(0x80000000ll))); /* either is -1 (offsets < 2^31) */
    E(KM_BRA_IFN(3, real, out));
    E(KM_BRA_(out));
    E(KM_LBL(real));
    E(KM_OP2(KM_IADD, 20, KR(16), KP(raw_param)));
    E(KM_OP2(KM_IADD, 21, KR(17), KP(raw_param)));
    gen_compare(b, cmp);
    E(KM_LBL(out));
}

/* bitonicKernel(rawData, d_R, k, j): 256-thread blocks over the padded int4 records. */
enum { PB_RAW, PB_R, PB_K, PB_J };
static void gen_bitonic(struct kb *b, enum mr_cmp cmp) {
    E(KM_S2R(1, SR_TID_X));
    E(KM_S2R(2, SR_CTAID_X));
    E(KM_OP3(KM_IMAD, 0, KR(2), KS(SR_NTID_X), KR(1))); /* dataIdx */
    E(KM_OP2(KM_XOR, 1, KR(0), KP(PB_J)));              /* ixj */
    E(KM_ISETP_(KM_LE, 0, KR(1), KR(0)));
    E(KM_BRA_IF(0, "end", "end"));
    E(KM_OP3(KM_IMAD, 10, KR(0), KI(16), KP(PB_R)));
    E(KM_OP3(KM_IMAD, 11, KR(1), KI(16), KP(PB_R)));
    E(KM_LDG(8, 12, KR(10), 0));
    E(KM_LDG(8, 13, KR(10), 8));
    E(KM_LDG(8, 14, KR(11), 0));
    E(KM_LDG(8, 15, KR(11), 8));
    gen_compare_value(b, cmp, PB_RAW);
    E(KM_OP2(KM_AND, 2, KR(0), KP(PB_K)));
    E(KM_ISETP_(KM_EQ, 0, KR(2), KRZ));
    E(KM_SEL_(2, KI(1), KI(-1), 0)); /* ascending half swaps on 1, the other on -1 */
    E(KM_ISETP_(KM_NE, 0, KR(22), KR(2)));
    E(KM_BRA_IF(0, "end", "end"));
    E(KM_STG(8, KR(10), 0, KR(14)));
    E(KM_STG(8, KR(10), 8, KR(15)));
    E(KM_STG(8, KR(11), 0, KR(12)));
    E(KM_STG(8, KR(11), 8, KR(13)));
    E(KM_LBL("end"));
    E(KM_EXIT_());
}

/* getChunkBoundary_kernel(rawData, startPos, d_Rin, rLen, d_startArray). */
enum { PG_RAW, PG_START, PG_R, PG_LEN, PG_OUT };
static void gen_boundary(struct kb *b, enum mr_cmp cmp) {
    E(KM_S2R(1, SR_TID_X));
    E(KM_S2R(2, SR_CTAID_X));
    E(KM_OP3(KM_IMAD, 0, KR(2), KS(SR_NTID_X), KR(1)));
    E(KM_OP2(KM_IADD, 0, KR(0), KP(PG_START))); /* pos */
    E(KM_ISETP_(KM_GE, 0, KR(0), KP(PG_LEN)));
    E(KM_BRA_IF(0, "end", "end"));
    E(KM_MOV_(19, KI(1)));
    E(KM_ISETP_(KM_EQ, 0, KR(0), KRZ));
    E(KM_BRA_IF(0, "store", "store"));
    E(KM_OP3(KM_IMAD, 10, KR(0), KI(16), KP(PG_R)));
    E(KM_LDG(8, 12, KR(10), 0)); /* cur */
    E(KM_LDG(8, 13, KR(10), 8));
    E(KM_LDG(8, 14, KR(10), -16)); /* left */
    E(KM_LDG(8, 15, KR(10), -8));
    gen_compare_value(b, cmp, PG_RAW);
    E(KM_ISETP_(KM_NE, 0, KR(22), KRZ));
    E(KM_SEL_(19, KI(1), KRZ, 0));
    E(KM_LBL("store"));
    E(KM_OP3(KM_IMAD, 11, KR(0), KI(4), KP(PG_OUT)));
    E(KM_STG(4, KR(11), 0, KR(19)));
    E(KM_LBL("end"));
    E(KM_EXIT_());
}

/* copyChunks_kernel(d_source, startPos, d_Rin (int2 offset/size), rLen, d_sum, d_dest). */
enum { PC_SRC, PC_START, PC_R, PC_LEN, PC_SUM, PC_DST };
static void gen_copy(struct kb *b) {
    E(KM_S2R(1, SR_TID_X));
    E(KM_S2R(2, SR_CTAID_X));
    E(KM_OP3(KM_IMAD, 0, KR(2), KS(SR_NTID_X), KR(1)));
    E(KM_OP2(KM_IADD, 0, KR(0), KP(PC_START)));
    E(KM_ISETP_(KM_GE, 0, KR(0), KP(PC_LEN)));
    E(KM_BRA_IF(0, "end", "end"));
    E(KM_OP3(KM_IMAD, 1, KR(0), KI(8), KP(PC_R)));
    E(KM_LDG(8, 2, KR(1), 0)); /* value */
    E(KM_OP3(KM_IMAD, 3, KR(0), KI(4), KP(PC_SUM)));
    E(KM_LDG(4, 3, KR(3), 0)); /* startWritePos */
    E(KM_OP2(KM_AND, 4, KR(2), LO32));
    E(KM_OP2(KM_IADD, 4, KR(4), KP(PC_SRC)));
    E(KM_OP2(KM_SHR, 5, KR(2), KI(32))); /* size */
    E(KM_OP2(KM_IADD, 6, KR(3), KP(PC_DST)));
    E(KM_MOV_(7, KRZ));
    E(KM_ISETP_(KM_GE, 0, KR(7), KR(5)));
    E(KM_BRA_IF(0, "done", "done"));
    E(KM_LBL("loop"));
    E(KM_OP2(KM_IADD, 8, KR(4), KR(7)));
    E(KM_LDG(1, 8, KR(8), 0));
    E(KM_OP2(KM_IADD, 9, KR(6), KR(7)));
    E(KM_STG(1, KR(9), 0, KR(8)));
    E(KM_OP2(KM_IADD, 7, KR(7), KI(1)));
    E(KM_ISETP_(KM_LT, 0, KR(7), KR(5)));
    E(KM_BRA_IF(0, "loop", "done"));
    E(KM_LBL("done"));
    E(KM_OP2(KM_AND, 2, KR(2), HI32));
    E(KM_OP2(KM_OR, 2, KR(2), KR(3)));
    E(KM_STG(8, KR(1), 0, KR(2)));
    E(KM_LBL("end"));
    E(KM_EXIT_());
}

/* MarsSort.cu's element-wise helpers, 512 x 512 threads per launch (one chunk: the record counts
 * here stay within 256K), pos = startPos + TID:
 *   initialize_kernel(d_data, startPos, rLen, value): d_data[pos] = {-1, -1, 0, 0};
 *   getXYArray_kernel / getZWArray_kernel(d_input, startPos, rLen, d_output): int2 from an int4;
 *   setXYArray_kernel / setZWArray_kernel(d_input, startPos, rLen, d_value): int2 into an int4;
 *   getIntYArray_kernel(d_input, startPos, rLen, d_output): d_output[pos] = d_input[pos].y;
 *   writeBoundary_kernel(startPos, rLen, d_startArray, d_startSumArray, d_bounary): where a group
 *     starts, its position goes to d_bounary[startSum];
 *   setBoundaryInt2_kernel(d_boundary, startPos, numKey, rLen, d_boundaryRange): {start, next
 *     start or rLen}.
 * Parameters here: A, start, length, B, C (the third array, or rLen). */
enum { PH_A, PH_START, PH_LEN, PH_B, PH_C };
enum mr_helper { H_INIT, H_GETXY, H_GETZW, H_SETXY, H_SETZW, H_GETY, H_WRITEB, H_SETB };
static void gen_helper(struct kb *b, enum mr_helper h) {
    E(KM_S2R(1, SR_TID_X));
    E(KM_S2R(2, SR_CTAID_X));
    E(KM_OP3(KM_IMAD, 0, KR(2), KS(SR_NTID_X), KR(1)));
    E(KM_OP2(KM_IADD, 0, KR(0), KP(PH_START)));
    E(KM_ISETP_(KM_GE, 0, KR(0), KP(PH_LEN)));
    E(KM_BRA_IF(0, "end", "end"));
    switch (h) {
    case H_INIT:
        E(KM_OP3(KM_IMAD, 1, KR(0), KI(16), KP(PH_A)));
        E(KM_STG(8, KR(1), 0, KI(-1)));
        E(KM_STG(8, KR(1), 8, KRZ));
        break;
    case H_GETXY:
    case H_GETZW:
        E(KM_OP3(KM_IMAD, 1, KR(0), KI(16), KP(PH_A)));
        E(KM_LDG(8, 2, KR(1), 0));
        E(KM_LDG(8, 3, KR(1), 8));
        E(KM_OP3(KM_IMAD, 4, KR(0), KI(8), KP(PH_B)));
        E(KM_STG(8, KR(4), 0, KR(h == H_GETXY ? 2 : 3)));
        break;
    case H_SETXY:
    case H_SETZW:
        E(KM_OP3(KM_IMAD, 1, KR(0), KI(16), KP(PH_A)));
        E(KM_LDG(8, 2, KR(1), 0));
        E(KM_LDG(8, 3, KR(1), 8));
        E(KM_OP3(KM_IMAD, 4, KR(0), KI(8), KP(PH_B)));
        E(KM_LDG(8, h == H_SETXY ? 2 : 3, KR(4), 0));
        E(KM_STG(8, KR(1), 0, KR(2)));
        E(KM_STG(8, KR(1), 8, KR(3)));
        break;
    case H_GETY:
        E(KM_OP3(KM_IMAD, 1, KR(0), KI(8), KP(PH_A)));
        E(KM_LDG(8, 2, KR(1), 0));
        E(KM_OP2(KM_SHR, 2, KR(2), KI(32)));
        E(KM_OP3(KM_IMAD, 3, KR(0), KI(4), KP(PH_B)));
        E(KM_STG(4, KR(3), 0, KR(2)));
        break;
    case H_WRITEB:
        E(KM_OP3(KM_IMAD, 1, KR(0), KI(4), KP(PH_A)));
        E(KM_LDG_S(4, 2, KR(1), 0)); /* flag */
        E(KM_OP3(KM_IMAD, 3, KR(0), KI(4), KP(PH_B)));
        E(KM_LDG_S(4, 3, KR(3), 0)); /* writePos */
        E(KM_ISETP_(KM_NE, 0, KR(2), KI(1)));
        E(KM_BRA_IF(0, "end", "end"));
        E(KM_OP3(KM_IMAD, 4, KR(3), KI(4), KP(PH_C)));
        E(KM_STG(4, KR(4), 0, KR(0)));
        break;
    case H_SETB:
        E(KM_OP3(KM_IMAD, 1, KR(0), KI(4), KP(PH_A)));
        E(KM_LDG(4, 2, KR(1), 0)); /* flag.x */
        E(KM_MOV_(3, KP(PH_C)));   /* rLen */
        E(KM_OP2(KM_IADD, 4, KR(0), KI(1)));
        E(KM_ISETP_(KM_EQ, 0, KR(4), KP(PH_LEN)));
        E(KM_BRA_IF(0, "last", "last"));
        E(KM_LDG(4, 3, KR(1), 4)); /* flag.y = d_boundary[pos + 1] */
        E(KM_LBL("last"));
        E(KM_OP2(KM_SHL, 3, KR(3), KI(32)));
        E(KM_OP2(KM_OR, 2, KR(2), KR(3)));
        E(KM_OP3(KM_IMAD, 4, KR(0), KI(8), KP(PH_B)));
        E(KM_STG(8, KR(4), 0, KR(2)));
        break;
    }
    E(KM_LBL("end"));
    E(KM_EXIT_());
}

static void helper_launch(struct km_launch *l, const struct km_prog *p, uint64_t a, uint32_t len,
                          uint64_t b, uint64_t c) {
    *l = (struct km_launch){
        .prog = p, .grid = {MR_HELPER_BLOCK, 1, 1}, .block = {MR_HELPER_BLOCK, 1, 1}};
    l->param[PH_A] = (int64_t)a;
    l->param[PH_START] = 0;
    l->param[PH_LEN] = len;
    l->param[PH_B] = (int64_t)b;
    l->param[PH_C] = (int64_t)c;
}

/* ---------------------------------------------------------------------------------------------
 * The apps' map_count / map bodies (after gen_map_record: R4 = key, R5 = val). */
void gen_const_count(struct kb *b, int ksz, int vsz) {
    E(KM_MOV_(8, KI(ksz)));
    E(KM_MOV_(9, KI(vsz)));
    gen_emit_count(b, 8, 9);
}

/* GET_OUTPUT_BUF(off): sbuf + threadIdx.x * 20 + off, in R10. */
void gen_outbuf(struct kb *b) {
    E(KM_S2R(10, SR_TID_X));
    E(KM_OP2(KM_IMUL, 10, KR(10), KI(20)));
}

static void gen_mapper(struct kb *b, const struct mars_app *app, bool count) {
    gen_map_prologue(b);
    if (!count) gen_slot_init(b, true);
    gen_map_record(b);
    if (count)
        app->gen_count(b);
    else
        app->gen_map(b);
    E(KM_LBL("end"));
    E(KM_EXIT_());
}

/* PageViewCount ReducerCount / Reducer (MapReduce 1): one thread per key group; reduce sets the
 * first value's phase to 1 and emits the key with it. */
static void gen_reducer(struct kb *b, bool count) {
    gen_map_prologue(b);
    if (!count) gen_slot_init(b, false);
    E(KM_OP3(KM_IMAD, 1, KR(0), KI(8), KP(P_RNG)));
    E(KM_LDG(8, 2, KR(1), 0)); /* interKeyListRange[cindex] */
    E(KM_OP2(KM_AND, 6, KR(2), LO32));
    E(KM_OP3(KM_IMAD, 1, KR(6), KI(16), KP(P_IOS)));
    E(KM_LDG(8, 3, KR(1), 0));
    E(KM_LDG(8, 12, KR(1), 8));
    E(KM_OP2(KM_AND, 4, KR(3), LO32));
    E(KM_OP2(KM_IADD, 4, KR(4), KP(P_IKEYS)));
    E(KM_OP2(KM_AND, 5, KR(12), LO32));
    E(KM_OP2(KM_IADD, 5, KR(5), KP(P_IVALS)));
    if (count) {
        gen_const_count(b, 16, 8);
    } else {
        E(KM_STG(4, KR(5), 4, KI(1))); /* pVal->phase = 1 */
        E(KM_MOV_(10, KR(4)));
        E(KM_MOV_(11, KR(5)));
        gen_emit(b, SPACE_GLOBAL, SPACE_GLOBAL, 16, 8);
    }
    E(KM_LBL("end"));
    E(KM_EXIT_());
}

/* ---------------------------------------------------------------------------------------------
 * Host side: one MapReduce() call as a sequence of launches. */

int mars_dev(struct mars *m, uint64_t *addr, uint64_t bytes, const char *what, struct ws_err *e) {
    *addr = devmem_alloc(m->kw.dm, bytes ? bytes : 4, what, e);
    return *addr ? 0 : -1;
}
void *mars_host(struct mars *m, uint64_t addr, uint64_t bytes) {
    return devmem_host(m->kw.dm, addr, bytes ? bytes : 4);
}

/* Exclusive prefix sum of n ints at device address src into dst; returns the total. */
static uint64_t prefix(struct mars *m, uint64_t src, uint64_t dst, uint32_t n) {
    const int32_t *s = mars_host(m, src, 4ull * n);
    int32_t *d = mars_host(m, dst, 4ull * n);
    uint64_t t = 0;
    for (uint32_t i = 0; i < n; i++) d[i] = (int32_t)t, t += (uint32_t)s[i];
    return t;
}

static void set_map_params(struct mars *m, struct km_launch *l) {
    l->param[P_IKEYS] = (int64_t)m->d_ikeys;
    l->param[P_IVALS] = (int64_t)m->d_ivals;
    l->param[P_IOS] = (int64_t)m->d_ios;
    l->param[P_KVO] = (int64_t)m->d_kvo;
    l->param[P_OK] = (int64_t)m->d_ok;
    l->param[P_OV] = (int64_t)m->d_ov;
    l->param[P_OOS] = (int64_t)m->d_oos;
    l->param[P_CUR] = (int64_t)m->d_cur;
}

/* startMap up to MapperCount: upload the input, per-task counters. */
static int start_map(struct mars *m, struct km_launch *l, struct ws_err *e) {
    struct mr_data *in = &m->in;
    if (mars_dev(m, &m->d_ikeys, in->kbytes, "d_inputKeys", e) ||
        mars_dev(m, &m->d_ivals, in->vbytes, "d_inputVals", e) ||
        mars_dev(m, &m->d_ios, 16ull * in->n, "d_inputOffsetSizes", e))
        return -1;
    memcpy(mars_host(m, m->d_ikeys, in->kbytes), in->keys, in->kbytes);
    memcpy(mars_host(m, m->d_ivals, in->vbytes), in->vals, in->vbytes);
    memcpy(mars_host(m, m->d_ios, 16ull * in->n), in->os, 16ull * in->n);
    km_copy_add(m->copies, &m->ncopies, MR_MAXCOPY, m->d_ikeys, in->kbytes);
    km_copy_add(m->copies, &m->ncopies, MR_MAXCOPY, m->d_ivals, in->vbytes);
    km_copy_add(m->copies, &m->ncopies, MR_MAXCOPY, m->d_ios, 16ull * in->n);
    uint32_t blocks = (in->n + MR_BLOCK - 1) / MR_BLOCK;
    m->threads = blocks * MR_BLOCK;
    if (mars_dev(m, &m->d_ks, 4ull * m->threads, "d_interKeysSizePerTask", e) ||
        mars_dev(m, &m->d_vs, 4ull * m->threads, "d_interValsSizePerTask", e) ||
        mars_dev(m, &m->d_cnt, 4ull * m->threads, "d_interCountPerTask", e))
        return -1;
    *l = (struct km_launch){.prog = &m->pcount, .grid = {blocks, 1, 1}, .block = {MR_BLOCK, 1, 1}};
    set_map_params(m, l);
    l->param[P_KS] = (int64_t)m->d_ks;
    l->param[P_VS] = (int64_t)m->d_vs;
    l->param[P_CNT] = (int64_t)m->d_cnt;
    l->param[P_N] = in->n;
    return 0;
}

/* startMap after MapperCount: prefix sums, intermediate buffers, Mapper. */
static int start_mapper(struct mars *m, struct km_launch *l, struct ws_err *e) {
    uint32_t t = m->threads;
    if (mars_dev(m, &m->d_pks, 4ull * t, "d_psKeySizes", e)) return -1;
    m->inter_kb = prefix(m, m->d_ks, m->d_pks, t);
    if (mars_dev(m, &m->d_pvs, 4ull * t, "d_psValSizes", e)) return -1;
    m->inter_vb = prefix(m, m->d_vs, m->d_pvs, t);
    if (mars_dev(m, &m->d_pcnt, 4ull * t, "d_psCounts", e)) return -1;
    uint64_t n = prefix(m, m->d_cnt, m->d_pcnt, t);
    if (n == 0 || n > (1u << 24) || m->inter_kb > INT32_MAX || m->inter_vb > INT32_MAX)
        return ws_fail(e, "mars: the map emits %llu records (need 1 .. 2^24)",
                       (unsigned long long)n);
    m->inter_n = (uint32_t)n;
    /* interVals rounded up to 256 B as cudaMalloc does, so that the first Emit's read of
     * interOffsetSizes[-1] stays inside it; interOffsetSizes one record longer, for the
     * Mapper prologue's write at psCounts[index] of a last task that emits nothing. */
    if (mars_dev(m, &m->d_ok, m->inter_kb, "d_interKeys", e) ||
        mars_dev(m, &m->d_ov, (m->inter_vb + 255) & ~255ull, "d_interVals", e) ||
        mars_dev(m, &m->d_oos, 16ull * (n + 1), "d_interOffsetSizes", e) ||
        mars_dev(m, &m->d_kvo, 8ull * t, "d_keyValOffsets", e) ||
        mars_dev(m, &m->d_cur, 4ull * t, "d_curIndex", e))
        return -1;
    *l = (struct km_launch){.prog = &m->pmap,
                            .grid = {t / MR_BLOCK, 1, 1},
                            .block = {MR_BLOCK, 1, 1},
                            .smem = MR_BLOCK * 20};
    set_map_params(m, l);
    l->param[P_KS] = (int64_t)m->d_pks;
    l->param[P_VS] = (int64_t)m->d_pvs;
    l->param[P_CNT] = (int64_t)m->d_pcnt;
    l->param[P_N] = m->in.n;
    return 0;
}

/* startGroup / bitonicSortGPU set-up: the output buffers, then d_R (initialize_kernel fills it
 * with {-1, -1, 0, 0} before the records are copied in). */
static int start_sort(struct mars *m, struct km_launch *l, struct ws_err *e) {
    uint32_t n = m->inter_n, p = 512;
    while (p < n) p *= 2;
    if (p > MR_HELPER_BLOCK * MR_HELPER_BLOCK)
        return ws_fail(e, "mars: %u intermediate records: more than one 512 x 512 chunk", n);
    m->padded = p;
    if (mars_dev(m, &m->d_gkeys, m->inter_kb, "d_outputKeys", e) ||
        mars_dev(m, &m->d_gvals, m->inter_vb, "d_outputVals", e) ||
        mars_dev(m, &m->d_gos, 16ull * n, "d_outputOffsetSizes", e) ||
        mars_dev(m, &m->d_R, 16ull * p, "d_R", e))
        return -1;
    helper_launch(l, &m->pinit, m->d_R, p, 0, 0);
    m->sk = 2, m->sj = 1;
    return 0;
}

static void sort_launch(struct mars *m, struct km_launch *l) {
    *l = (struct km_launch){
        .prog = &m->psort, .grid = {m->padded / MR_BLOCK, 1, 1}, .block = {MR_BLOCK, 1, 1}};
    l->param[PB_RAW] = (int64_t)m->d_ok;
    l->param[PB_R] = (int64_t)m->d_R;
    l->param[PB_K] = m->sk;
    l->param[PB_J] = m->sj;
}

/* copyChunks: one launch of 512 x 128 threads per 64K records (d_sum by the host's scan). */
static void copy_launch(struct mars *m, struct km_launch *l, bool keys) {
    uint32_t chunk = m->chunk++;
    *l = (struct km_launch){
        .prog = &m->pcopy, .grid = {MR_COPY_GRID, 1, 1}, .block = {MR_COPY_BLOCK, 1, 1}};
    l->param[PC_SRC] = (int64_t)(keys ? m->d_ok : m->d_ov);
    l->param[PC_START] = (int64_t)chunk * MR_COPY_GRID * MR_COPY_BLOCK;
    l->param[PC_R] = (int64_t)m->d_PA;
    l->param[PC_LEN] = m->inter_n;
    l->param[PC_SUM] = (int64_t)m->d_sum;
    l->param[PC_DST] = (int64_t)(keys ? m->d_gkeys : m->d_gvals);
}

/* After setBoundaryInt2: the key list ranges as the host reads them back; startGroup uploads
 * them again as interKeyListRange. */
static int read_groups(struct mars *m, struct ws_err *e) {
    uint32_t g = m->ngroups;
    free(m->range);
    m->range = malloc(8ull * g + 8);
    if (!m->range) return ws_fail(e, "mars: out of memory");
    memcpy(m->range, mars_host(m, m->d_orng, 8ull * g), 8ull * g);
    if (mars_dev(m, &m->d_rng, 8ull * g, "interKeyListRange", e)) return -1;
    memcpy(mars_host(m, m->d_rng, 8ull * g), m->range, 8ull * g);
    km_copy_add(m->copies, &m->ncopies, MR_MAXCOPY, m->d_rng, 8ull * g);
    return 0;
}

static int start_reduce(struct mars *m, struct km_launch *l, bool count, struct ws_err *e) {
    uint32_t g = m->ngroups, blocks = (g + MR_BLOCK - 1) / MR_BLOCK;
    if (count) {
        m->threads = blocks * MR_BLOCK;
        if (mars_dev(m, &m->d_ks, 4ull * m->threads, "d_outputKeysSizePerTask", e) ||
            mars_dev(m, &m->d_vs, 4ull * m->threads, "d_outputValsSizePerTask", e) ||
            mars_dev(m, &m->d_cnt, 4ull * m->threads, "d_outputCountPerTask", e))
            return -1;
    } else {
        uint32_t t = m->threads;
        if (mars_dev(m, &m->d_pks, 4ull * t, "d_psKeySizes", e)) return -1;
        m->out_kb = prefix(m, m->d_ks, m->d_pks, t);
        if (mars_dev(m, &m->d_pvs, 4ull * t, "d_psValSizes", e)) return -1;
        m->out_vb = prefix(m, m->d_vs, m->d_pvs, t);
        if (mars_dev(m, &m->d_pcnt, 4ull * t, "d_psCounts", e)) return -1;
        m->out_n = (uint32_t)prefix(m, m->d_cnt, m->d_pcnt, t);
        if (mars_dev(m, &m->d_ok, m->out_kb, "d_outputKeys", e) ||
            mars_dev(m, &m->d_ov, (m->out_vb + 255) & ~255ull, "d_outputVals", e) ||
            mars_dev(m, &m->d_oos, 16ull * (m->out_n + 1), "d_outputOffsetSizes", e) ||
            mars_dev(m, &m->d_kvo, 8ull * t, "d_keyValOffsets", e) ||
            mars_dev(m, &m->d_cur, 4ull * t, "d_curIndex", e))
            return -1;
    }
    *l = (struct km_launch){.prog = count ? &m->prcount : &m->pred,
                            .grid = {blocks, 1, 1},
                            .block = {MR_BLOCK, 1, 1},
                            .smem = count ? 0 : MR_BLOCK * 20};
    l->param[P_IKEYS] = (int64_t)m->d_gkeys;
    l->param[P_IVALS] = (int64_t)m->d_gvals;
    l->param[P_IOS] = (int64_t)m->d_gos;
    l->param[P_KS] = (int64_t)(count ? m->d_ks : m->d_pks);
    l->param[P_VS] = (int64_t)(count ? m->d_vs : m->d_pvs);
    l->param[P_CNT] = (int64_t)(count ? m->d_cnt : m->d_pcnt);
    l->param[P_KVO] = (int64_t)m->d_kvo;
    l->param[P_OK] = (int64_t)m->d_ok;
    l->param[P_OV] = (int64_t)m->d_ov;
    l->param[P_OOS] = (int64_t)m->d_oos;
    l->param[P_CUR] = (int64_t)m->d_cur;
    l->param[P_N] = g;
    l->param[P_RNG] = (int64_t)m->d_rng;
    return 0;
}

/* PVC between its two MapReduce calls: the first's output becomes the second's input. */
static int next_job_input(struct mars *m, struct ws_err *e) {
    struct mr_data *in = &m->in;
    free(in->keys), free(in->vals), free(in->os);
    in->n = m->out_n, in->kbytes = m->out_kb, in->vbytes = m->out_vb;
    in->keys = malloc(in->kbytes), in->vals = malloc(in->vbytes), in->os = malloc(16ull * in->n);
    if (!in->keys || !in->vals || !in->os) return ws_fail(e, "mars: out of memory");
    memcpy(in->keys, mars_host(m, m->d_ok, in->kbytes), in->kbytes);
    memcpy(in->vals, mars_host(m, m->d_ov, in->vbytes), in->vbytes);
    memcpy(in->os, mars_host(m, m->d_oos, 16ull * in->n), 16ull * in->n);
    return 0;
}

static int mars_next(struct workload *w, struct kernel_desc *kd, struct ws_err *e) {
    struct mars *m = (struct mars *)w;
    struct km_launch l;
    if (m->launches) m->ncopies = 0; /* the first launch also reports the inputs' copies */
    for (;;) {
        uint32_t n = m->inter_n;
        switch (m->step) {
        case ST_MAPCOUNT:
            if (m->job == m->njobs) return 0;
            m->reduce = m->app->reduce_first && m->job == 0;
            if (start_map(m, &l, e)) return -1;
            m->step = ST_MAP;
            goto launch;
        case ST_MAP:
            if (start_mapper(m, &l, e)) return -1;
            m->step = ST_INIT;
            goto launch;
        case ST_INIT:
            if (start_sort(m, &l, e)) return -1;
            m->step = ST_SORT;
            goto launch;
        case ST_SORT:
            if (m->sk == 2 && m->sj == 1) /* bitonicSortGPU's cudaMemcpy DtoD of the records */
                memcpy(mars_host(m, m->d_R, 16ull * n), mars_host(m, m->d_oos, 16ull * n),
                       16ull * n);
            if (m->sk <= m->padded) {
                sort_launch(m, &l);
                if ((m->sj /= 2) == 0) m->sk *= 2, m->sj = m->sk / 2;
                goto launch;
            }
            /* its last copy: the tail of d_R to d_outputOffsetSizes; then sort_GPU's d_PA */
            memcpy(mars_host(m, m->d_gos, 16ull * n),
                   mars_host(m, m->d_R + 16ull * (m->padded - n), 16ull * n), 16ull * n);
            if (mars_dev(m, &m->d_PA, 8ull * n, "d_PA", e)) return -1;
            helper_launch(&l, &m->pgetzw, m->d_gos, n, m->d_PA, 0);
            m->step = ST_GETV;
            goto launch;
        case ST_GETV:
        case ST_GETK: /* copyChunks: d_size = the .y of d_PA */
            if (mars_dev(m, &m->d_size, 4ull * n, "d_size", e)) return -1;
            helper_launch(&l, &m->pgety, m->d_PA, n, m->d_size, 0);
            m->step = m->step == ST_GETV ? ST_SCANV : ST_SCANK;
            goto launch;
        case ST_SCANV:
        case ST_SCANK:
            if (mars_dev(m, &m->d_sum, 4ull * n, "d_sum", e)) return -1;
            prefix(m, m->d_size, m->d_sum, n);
            m->chunk = 0;
            m->step = m->step == ST_SCANV ? ST_COPYV : ST_COPYK;
            continue;
        case ST_COPYV:
        case ST_COPYK:
            if ((uint64_t)m->chunk * MR_COPY_GRID * MR_COPY_BLOCK < n) {
                copy_launch(m, &l, m->step == ST_COPYK);
                goto launch;
            }
            if (m->step == ST_COPYV) {
                helper_launch(&l, &m->psetzw, m->d_gos, n, m->d_PA, 0);
                m->step = ST_SETV;
            } else {
                helper_launch(&l, &m->psetxy, m->d_gos, n, m->d_PA, 0);
                m->step = ST_BOUND;
            }
            goto launch;
        case ST_SETV:
            helper_launch(&l, &m->pgetxy, m->d_gos, n, m->d_PA, 0);
            m->step = ST_GETK;
            goto launch;
        case ST_BOUND:
            if (mars_dev(m, &m->d_start, 4ull * n, "d_startArray", e)) return -1;
            l = (struct km_launch){.prog = &m->pbound,
                                   .grid = {MR_HELPER_BLOCK, 1, 1},
                                   .block = {MR_HELPER_BLOCK, 1, 1}};
            l.param[PG_RAW] = (int64_t)m->d_gkeys;
            l.param[PG_START] = 0;
            l.param[PG_R] = (int64_t)m->d_gos;
            l.param[PG_LEN] = n;
            l.param[PG_OUT] = (int64_t)m->d_start;
            m->step = ST_WRITEB;
            goto launch;
        case ST_WRITEB: {
            if (mars_dev(m, &m->d_ssum, 4ull * n, "d_startSumArray", e)) return -1;
            prefix(m, m->d_start, m->d_ssum, n);
            const int32_t *a = mars_host(m, m->d_start, 4ull * n),
                          *b = mars_host(m, m->d_ssum, 4ull * n);
            m->ngroups = (uint32_t)(a[n - 1] + b[n - 1]);
            if (mars_dev(m, &m->d_bnd, 4ull * m->ngroups, "d_boundary", e)) return -1;
            helper_launch(&l, &m->pwriteb, m->d_start, n, m->d_ssum, m->d_bnd);
            m->step = ST_SETB;
            goto launch;
        }
        case ST_SETB:
            if (mars_dev(m, &m->d_orng, 8ull * m->ngroups, "d_outputKeyListRange", e)) return -1;
            helper_launch(&l, &m->psetb, m->d_bnd, m->ngroups, m->d_orng, n);
            m->step = ST_GROUPED;
            goto launch;
        case ST_GROUPED:
            if (read_groups(m, e)) return -1;
            if (m->reduce) {
                m->step = ST_REDCOUNT;
                continue;
            }
            m->d_out_keys = m->d_gkeys, m->d_out_vals = m->d_gvals, m->d_out_os = m->d_gos;
            m->out_n = m->inter_n, m->out_kb = m->inter_kb, m->out_vb = m->inter_vb;
            m->step = ST_DONE;
            continue;
        case ST_REDCOUNT:
            if (start_reduce(m, &l, true, e)) return -1;
            m->step = ST_RED;
            goto launch;
        case ST_RED:
            if (start_reduce(m, &l, false, e)) return -1;
            m->step = ST_DONE;
            goto launch;
        case ST_DONE:
            if (m->reduce) {
                m->d_out_keys = m->d_ok, m->d_out_vals = m->d_ov, m->d_out_os = m->d_oos;
                if (next_job_input(m, e)) return -1;
            }
            m->job++;
            m->step = ST_MAPCOUNT;
            continue;
        }
    }
launch:
    if (km_run_launch(m->kw.run, &l, kd, e)) return -1;
    kd->id = m->launches++;
    kd->copies = m->copies;
    kd->ncopies = m->ncopies;
    return 1;
}

/* ---------------------------------------------------------------------------------------------
 * Verification against host computations. */

/* The final groups: record i of the sorted output is (key, value); group g spans range[g]. */
const uint8_t *out_key(struct mars *m, uint32_t i, uint32_t *len) {
    const int32_t *os = mars_host(m, m->d_out_os, 16ull * m->out_n);
    if (len) *len = (uint32_t)os[4 * i + 1];
    return mars_host(m, m->d_out_keys + (uint32_t)os[4 * i], (uint32_t)os[4 * i + 1]);
}
const uint8_t *out_val(struct mars *m, uint32_t i) {
    const int32_t *os = mars_host(m, m->d_out_os, 16ull * m->out_n);
    return mars_host(m, m->d_out_vals + (uint32_t)os[4 * i + 2], (uint32_t)os[4 * i + 3]);
}

/* The string a {file_buf, offset, hash} key points to (file_buf is a device address). */
static const char *key_string(struct mars *m, const uint8_t *k) {
    uint64_t fb;
    int32_t off;
    memcpy(&fb, k, 8), memcpy(&off, k + 8, 4);
    struct devmem_span s;
    if (!devmem_span(m->kw.dm, fb + (uint64_t)off, &s)) return NULL;
    return (const char *)s.host + (fb + (uint64_t)off - s.addr);
}

int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Checks that the groups are exactly the truth's multiset of strings, grouped. */
int check_groups(struct mars *m, struct truth *t, const char *what, int extra, struct ws_err *e) {
    char **got = malloc((m->out_n + 1) * sizeof *got);
    if (!got) return ws_fail(e, "mars: out of memory");
    for (uint32_t g = 0; g < m->ngroups; g++) {
        uint32_t b = (uint32_t)m->range[2 * g], en = (uint32_t)m->range[2 * g + 1];
        const char *s0 = key_string(m, out_key(m, b, NULL));
        for (uint32_t i = b; i < en; i++) {
            const char *s = key_string(m, out_key(m, i, NULL));
            if (!s || !s0 || strcmp(s, s0))
                return free(got),
                       ws_fail(e, "%s: record %u in group %u has another key", what, i, g);
            got[i] = (char *)s;
            int32_t h; /* the key's hash is hash_func over the string (+ extra bytes) */
            memcpy(&h, out_key(m, i, NULL) + 12, 4);
            if (h != host_hash(s, (int32_t)strlen(s) + extra))
                return free(got), ws_fail(e, "%s: record %u has hash %d, the host's is %d", what, i,
                                          h, host_hash(s, (int32_t)strlen(s) + extra));
        }
        if (g && strcmp(s0, key_string(m, out_key(m, (uint32_t)m->range[2 * g - 2], NULL))) == 0)
            return free(got), ws_fail(e, "%s: groups %u and %u have the same key", what, g - 1, g);
    }
    if (m->out_n != t->n)
        return free(got), ws_fail(e, "%s: %u records, the host finds %u", what, m->out_n, t->n);
    qsort(got, m->out_n, sizeof *got, cmp_str);
    qsort(t->s, t->n, sizeof *t->s, cmp_str);
    for (uint32_t i = 0; i < t->n; i++)
        if (strcmp(got[i], t->s[i])) {
            /* the message reads got[i]: free after it is made */
            int rc = ws_fail(e, "%s: record '%s' where the host has '%s'", what, got[i], t->s[i]);
            free(got);
            return rc;
        }
    free(got);
    return 0;
}

static int mars_verify(struct workload *w, struct ws_err *e) {
    struct mars *m = (struct mars *)w;
    if (m->job != m->njobs) return ws_fail(e, "mars: the workload has not finished");
    return m->app->verify(m, e);
}

void mars_destroy(struct workload *w) {
    struct mars *m = (struct mars *)w;
    km_prog_free(&m->pcount), km_prog_free(&m->pmap), km_prog_free(&m->psort);
    km_prog_free(&m->pcopy), km_prog_free(&m->pbound), km_prog_free(&m->prcount);
    km_prog_free(&m->pred);
    km_prog_free(&m->pinit), km_prog_free(&m->pgetxy), km_prog_free(&m->pgetzw);
    km_prog_free(&m->psetxy), km_prog_free(&m->psetzw), km_prog_free(&m->pgety);
    km_prog_free(&m->pwriteb), km_prog_free(&m->psetb);
    km_wl_fini(&m->kw);
    free(m->in.keys), free(m->in.vals), free(m->in.os), free(m->range), free(m->matrix);
    free(m->ss_keys), free(m->ss_order), free(m->ss_pair);
    for (uint32_t f = 0; f < 64; f++) free(m->text[f]);
    free(m);
}

static const struct workload_vt mars_vt = {mars_next,     km_wl_cta_start, km_wl_warp_next,
                                           km_wl_cta_end, mars_verify,     mars_destroy};

/* ---------------------------------------------------------------------------------------------
 * Inputs. */
int data_alloc(struct mr_data *d, uint32_t n, uint64_t kb, uint64_t vb, struct ws_err *e) {
    d->n = n, d->kbytes = kb, d->vbytes = vb;
    d->keys = calloc(1, kb ? kb : 1), d->vals = calloc(1, vb ? vb : 1);
    d->os = calloc(4ull * n + 4, sizeof *d->os);
    if (!d->keys || !d->vals || !d->os) return ws_fail(e, "mars: out of memory");
    return 0;
}
void data_rec(struct mr_data *d, uint32_t i, uint32_t ksz, uint32_t vsz) {
    d->os[4 * i] = (int32_t)(ksz * i), d->os[4 * i + 1] = (int32_t)ksz;
    d->os[4 * i + 2] = (int32_t)(vsz * i), d->os[4 * i + 3] = (int32_t)vsz;
}

bool tb_add(struct textbuf *t, const char *fmt, ...) {
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0 || k >= (int)sizeof tmp) return false;
    if (t->n + (uint64_t)k + 2 > t->cap) {
        uint64_t cap = t->cap ? 2 * t->cap : 4096;
        while (cap < t->n + (uint64_t)k + 2) cap *= 2;
        char *s = realloc(t->s, cap);
        if (!s) return false;
        t->s = s, t->cap = cap;
    }
    memcpy(t->s + t->n, tmp, (size_t)k + 1);
    t->n += (uint64_t)k;
    return true;
}

/* A URL of variable length; popular ones (small u) recur often. */
bool add_url(struct textbuf *t, uint32_t u) {
    static const char *const tld[] = {"com", "org", "net", "edu", "cn"};
    return tb_add(t, "http://www.site%u.%s/%.*s/page%u.html", u % 997, tld[u % 5],
                  (int)(u * 7 % 23), "articles/archive/2008/x", u);
}

static int build_all(struct mars *m, enum mr_cmp cmp, struct ws_err *e) {
    struct kb b = {0};
    gen_mapper(&b, m->app, true);
    if (kb_build(&b, &m->pcount, "MapperCount", 24, e)) return -1;
    gen_mapper(&b, m->app, false);
    if (kb_build(&b, &m->pmap, "Mapper", 40, e)) return -1;
    gen_bitonic(&b, cmp);
    if (kb_build(&b, &m->psort, "bitonicKernel", 24, e)) return -1;
    gen_copy(&b);
    if (kb_build(&b, &m->pcopy, "copyChunks_kernel", 14, e)) return -1;
    gen_boundary(&b, cmp);
    if (kb_build(&b, &m->pbound, "getChunkBoundary_kernel", 24, e)) return -1;
    static const char *const hname[] = {"initialize_kernel",    "getXYArray_kernel",
                                        "getZWArray_kernel",    "setXYArray_kernel",
                                        "setZWArray_kernel",    "getIntYArray_kernel",
                                        "writeBoundary_kernel", "setBoundaryInt2_kernel"};
    struct km_prog *hp[] = {&m->pinit,  &m->pgetxy, &m->pgetzw,  &m->psetxy,
                            &m->psetzw, &m->pgety,  &m->pwriteb, &m->psetb};
    for (int h = 0; h < 8; h++) {
        gen_helper(&b, (enum mr_helper)h);
        if (kb_build(&b, hp[h], hname[h], 8, e)) return -1;
    }
    if (m->app->reduce_first) {
        gen_reducer(&b, true);
        if (kb_build(&b, &m->prcount, "ReducerCount", 20, e)) return -1;
        gen_reducer(&b, false);
        if (kb_build(&b, &m->pred, "Reducer", 32, e)) return -1;
    }
    return 0;
}

/* calloc, km_wl_init and every program: what an app's create does before its input. */
struct mars *mars_new(const struct mars_app *app, struct ws_err *e) {
    struct mars *m = calloc(1, sizeof *m);
    if (!m) return ws_fail(e, "mars: out of memory"), NULL;
    if (km_wl_init(&m->kw, &mars_vt, app->name, e)) return free(m), NULL;
    m->app = app;
    m->njobs = app->reduce_first ? 2 : 1;
    if (build_all(m, app->cmp, e)) {
        mars_destroy(&m->kw.base);
        return NULL;
    }
    return m;
}

/* The checks shared by the apps whose output is every input record once (pvr, ss). */
int mars_check_once(struct mars *m, uint32_t expect, mars_rec_fn rec, struct ws_err *e) {
    uint32_t n = m->out_n;
    if (n != expect) return ws_fail(e, "mars: %u output records, expected %u", n, expect);
    uint8_t *seen = calloc(expect, 1);
    if (!seen) return ws_fail(e, "mars: out of memory");
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id;
        if (rec(m, i, &id, e)) return free(seen), -1;
        if (seen[id]++) return free(seen), ws_fail(e, "mars: record %u appears twice", id);
    }
    free(seen);
    return 0;
}
