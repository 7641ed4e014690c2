/* Sparse matrix times dense vector in JDS form, as Parboil runs it (seed 002 chapter 4's Type-1
 * "spmv", Parboil 2.5, spmv/src/cuda_base: main.cu, kernel spmv_jds; gpu_info.c,
 * compute_active_thread; convert_dataset.c, coo_to_jds). SHOC's CSR SpMV (seed 001) is `spmv`.
 *
 * The matrix in JDS: rows (padded to a multiple of 32) sorted by their entry count, greatest
 * first (ties keep row order); each group of 32 sorted rows is padded to the count of its first
 * row (pad_rows 1, pack size 1), sh_zcnt_int[group] = that count; the k-th entries of all rows
 * whose padded length exceeds k form diagonal k, stored contiguously from jds_ptr_int[k], row ix
 * of the sorted order at jds_ptr_int[k] + ix; a padding slot holds value 0 and column index -1;
 * d_perm[ix] is the original row of sorted row ix. A Matrix Market file is mirrored when it is
 * symmetric (coo_to_jds with mirrored = 1).
 *
 * spmv_jds: one thread per sorted row ix < dim, bound = sh_zcnt_int[ix / 32] (a constant load,
 * uniform over the warp); software-pipelined: the data, index and x_vec loads of entry k - 1 and
 * the index load of entry k are issued before entry k - 2's FFMA; the last two entries after the
 * loop; then dst_vector[d_perm[ix]] = sum (a scattered store). Consecutive threads read
 * consecutive data/index words of a diagonal (coalesced), but x_vec[index] gathers the columns
 * of rows that the sort by length brought together (uncoalesced wherever row lengths vary). A
 * padding slot reads x_vec[-1], the last word of the block cudaMalloc'd before x_vec (d_nzcnt,
 * allocated here at its 256-byte-rounded size, as GPGPU-Sim's cudaMalloc places it).
 *
 * Device arrays in cudaMalloc order: d_data, d_indices, d_ptr, d_perm, d_nzcnt, d_x_vector,
 * d_Ax_vector (zeroed); the __constant__ arrays jds_ptr_int[5000] and sh_zcnt_int[5000] are
 * modelled as blocks after them. Launch (compute_active_thread, compute capability >= 2: 1536
 * threads and 8 blocks per SM): 32-thread blocks, one per group, when the padded rows fit on
 * the GPU at once (rows <= SMs x 1536), else 192-thread blocks; SMs is the simulated GPU's
 * (gpu.sms, as deviceProp.multiProcessorCount). The host loop launches the kernel 50 times
 * (workload.spmvjds.iters); every launch computes the same product.
 *
 * Input: a Matrix Market file (Parboil's datasets are 1138_bus, bcsstk18 and Dubcova3 from the
 * SuiteSparse collection), or a generated 2-D mesh matrix: side x side nodes, node (r, c) = row
 * r side + c, coupled to the nodes of its 5 x 5 neighbourhood, each off-diagonal pair kept with
 * probability workload.spmvjds.keep (1 gives the full stencil of Dubcova3, which is 383 x 383 =
 * 146,689 rows; below 1 the row lengths vary, as on an unstructured mesh). Values uniform in
 * [0, 10), x uniform in [0, 1) (Parboil reads both from files). Test size 64 x 64, paper 383 x
 * 383 (Dubcova3's rows). Differences from coo_to_jds: rows are padded to the matrix's own
 * dimension (not to its last non-empty row), and every row keeps its own d_perm entry (coo_to_jds
 * leaves 0 for empty rows). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/graph/graphgen.h"
#include "workload/graph/graphio.h"
#include "workload/kernels/kmodel.h"

enum { JDS_WARP = 32, JDS_CONST = 5000, JDS_MAX_THREAD = 1536, JDS_MAX_BLOCK = 8 };
enum { P_DST, P_DATA, P_INDEX, P_PERM, P_X, P_DIM, P_JPTR, P_ZCNT };

#define LDC(d, x)                                                                                  \
    { .op = KM_LD, .space = SPACE_CONST, .width = 4, .sub = 1, .d1 = (d) + 1, .a = x, .off = 0 }

/* Registers: ix R0, bound R4, sum R5, j R7, d R9, i R11, t R13, k R14; dn R15, in R17, tn R18. */
static const struct km_inst jds_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* ix */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_DIM)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP2(KM_SHR, 2, KR(0), KI(5)), /* warp_id */
    KM_OP3(KM_IMAD, 3, KR(2), KI(4), KP(P_ZCNT)),
    LDC(4, KR(3)), /* bound = sh_zcnt_int[warp_id] */
    KM_MOV_(5, KF(0.0f)),
    LDC(6, KP(P_JPTR)), /* prefetch 0 */
    KM_OP2(KM_IADD, 7, KR(6), KR(0)),
    KM_OP3(KM_IMAD, 8, KR(7), KI(4), KP(P_DATA)),
    KM_LDG(4, 9, KR(8), 0), /* d = d_data[j] */
    KM_OP3(KM_IMAD, 10, KR(7), KI(4), KP(P_INDEX)),
    KM_LDG_S(4, 11, KR(10), 0), /* i = d_index[j] */
    KM_OP3(KM_IMAD, 12, KR(11), KI(4), KP(P_X)),
    KM_LDG(4, 13, KR(12), 0), /* t = x_vec[i] */
    KM_ISETP_(KM_LE, 0, KR(4), KI(1)),
    KM_BRA_IF(0, "last", "last"),
    KM_OP2(KM_IADD, 3, KP(P_JPTR), KI(4)),
    LDC(6, KR(3)), /* prefetch 1 */
    KM_OP2(KM_IADD, 7, KR(6), KR(0)),
    KM_OP3(KM_IMAD, 10, KR(7), KI(4), KP(P_INDEX)),
    KM_LDG_S(4, 11, KR(10), 0),
    KM_MOV_(14, KI(2)), /* k */
    KM_ISETP_(KM_GE, 0, KR(14), KR(4)),
    KM_BRA_IF(0, "tail", "tail"),
    KM_LBL("loop"),
    KM_OP3(KM_IMAD, 8, KR(7), KI(4), KP(P_DATA)),
    KM_LDG(4, 15, KR(8), 0), /* dn = d_data[j] */
    KM_OP3(KM_IMAD, 3, KR(14), KI(4), KP(P_JPTR)),
    LDC(6, KR(3)),
    KM_OP2(KM_IADD, 7, KR(6), KR(0)), /* j = jds_ptr_int[k] + ix */
    KM_OP3(KM_IMAD, 10, KR(7), KI(4), KP(P_INDEX)),
    KM_LDG_S(4, 17, KR(10), 0), /* in = d_index[j] */
    KM_OP3(KM_IMAD, 12, KR(11), KI(4), KP(P_X)),
    KM_LDG(4, 18, KR(12), 0),                 /* tn = x_vec[i] */
    KM_OP3(KM_FFMA, 5, KR(9), KR(13), KR(5)), /* sum += d * t */
    KM_MOV_(11, KR(17)),
    KM_MOV_(9, KR(15)),
    KM_MOV_(13, KR(18)),
    KM_OP2(KM_IADD, 14, KR(14), KI(1)),
    KM_ISETP_(KM_LT, 0, KR(14), KR(4)),
    KM_BRA_IF(0, "loop", "tail"),
    KM_LBL("tail"),
    KM_OP3(KM_IMAD, 8, KR(7), KI(4), KP(P_DATA)),
    KM_LDG(4, 15, KR(8), 0), /* fetch last */
    KM_OP3(KM_IMAD, 12, KR(11), KI(4), KP(P_X)),
    KM_LDG(4, 18, KR(12), 0),
    KM_OP3(KM_FFMA, 5, KR(9), KR(13), KR(5)),
    KM_MOV_(9, KR(15)),
    KM_MOV_(13, KR(18)),
    KM_LBL("last"),
    KM_OP3(KM_FFMA, 5, KR(9), KR(13), KR(5)),
    KM_OP3(KM_IMAD, 19, KR(0), KI(4), KP(P_PERM)),
    KM_LDG_S(4, 20, KR(19), 0),
    KM_OP3(KM_IMAD, 21, KR(20), KI(4), KP(P_DST)),
    KM_STG(4, KR(21), 0, KR(5)), /* dst_vector[d_perm[ix]] = sum */
    KM_LBL("end"),
    KM_EXIT_(),
};

struct jds_cfg {
    char matrix[CFG_STR_MAX];
    int64_t side, iters, sms;
    double keep;
};
static const struct cfg_key jds_keys[] = {
    {"workload.spmvjds.matrix", CFG_STRING, offsetof(struct jds_cfg, matrix), "", 0, 0, NULL, "",
     "matrix file (Matrix Market .mtx, mirrored when symmetric; any graph file "
     "workload.graph.path takes, with random values); empty: a generated 2-D mesh matrix"},
    {"workload.spmvjds.side", CFG_INT, offsetof(struct jds_cfg, side), NULL, 2, 1024, NULL, "nodes",
     "mesh side of the generated matrix, side^2 rows (preset by workload.size: test 64, "
     "paper 383, Dubcova3's 146,689 rows)"},
    {"workload.spmvjds.keep", CFG_DOUBLE, offsetof(struct jds_cfg, keep), "0.5", 0.01, 1, NULL, "",
     "probability that a generated off-diagonal neighbour pair is kept (1: the full 5 x 5 "
     "stencil, every interior row 25 entries)"},
    {"workload.spmvjds.iters", CFG_INT, offsetof(struct jds_cfg, iters), "50", 1, 1000, NULL,
     "launches", "kernel launches (Parboil: 50)"},
    {"workload.spmvjds.sms", CFG_INT, offsetof(struct jds_cfg, sms), "0", 0, 1024, NULL, "SMs",
     "the SM count compute_active_thread sizes blocks by; 0: the simulated GPU's gpu.sms (30 "
     "when none is configured)"},
};

struct jds {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog;
    struct graph a;
    uint32_t dim, rows, groups, depth; /* depth: diagonals; jds_ptr_int has depth + 1 entries */
    uint64_t len;                      /* JDS slots (copied to the device) */
    uint64_t words; /* d_data / d_indices words allocated: len, or rows if more */
    uint32_t block;
    uint64_t d_data, d_index, d_ptr, d_perm, d_nzcnt, d_x, d_ax, c_ptr, c_zcnt;
    uint32_t iters, launches;
    struct wl_copy copies[8];
    uint32_t ncopies;
};

static int jds_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct jds *s = (struct jds *)w;
    if (s->launches == s->iters) return 0;
    s->ncopies = 0;
    if (s->launches == 0) {
        km_copy_add(s->copies, &s->ncopies, 8, s->d_data, 4 * s->len);
        km_copy_add(s->copies, &s->ncopies, 8, s->d_index, 4 * s->len);
        km_copy_add(s->copies, &s->ncopies, 8, s->d_perm, 4ull * s->dim);
        km_copy_add(s->copies, &s->ncopies, 8, s->d_x, 4ull * s->dim);
        km_copy_add(s->copies, &s->ncopies, 8, s->c_ptr, 4ull * (s->depth + 1));
        km_copy_add(s->copies, &s->ncopies, 8, s->c_zcnt, 4ull * s->groups);
    }
    struct km_launch l = {.prog = &s->prog,
                          .grid = {(s->rows + s->block - 1) / s->block, 1, 1},
                          .block = {s->block, 1, 1}};
    l.param[P_DST] = (int64_t)s->d_ax;
    l.param[P_DATA] = (int64_t)s->d_data;
    l.param[P_INDEX] = (int64_t)s->d_index;
    l.param[P_PERM] = (int64_t)s->d_perm;
    l.param[P_X] = (int64_t)s->d_x;
    l.param[P_DIM] = s->dim;
    l.param[P_JPTR] = (int64_t)s->c_ptr;
    l.param[P_ZCNT] = (int64_t)s->c_zcnt;
    if (km_run_launch(s->kw.run, &l, k, e)) return -1;
    k->id = s->launches++;
    k->copies = s->copies;
    k->ncopies = s->ncopies;
    return 1;
}

/* The device arrays spmv_jds reads, as host views; x_vec[-1] (what a padding slot gathers) is
 * the last word of the d_nzcnt block before x_vec, a separate host block. */
struct jds_view {
    const float *data, *x;
    const int32_t *index, *ptr, *zcnt;
    float x_m1;
};

static struct jds_view jds_view(const struct jds *s) {
    struct devmem *dm = s->kw.dm;
    return (struct jds_view){devmem_host(dm, s->d_data, 4 * s->words),
                             devmem_host(dm, s->d_x, 4ull * s->dim),
                             devmem_host(dm, s->d_index, 4 * s->words),
                             devmem_host(dm, s->c_ptr, 4ull * (s->depth + 1)),
                             devmem_host(dm, s->c_zcnt, 4ull * s->groups),
                             *(const float *)devmem_host(dm, s->d_x - 4, 4)};
}

static inline float x_at(const struct jds_view *v, int32_t i) {
    return i < 0 ? v->x_m1 : v->x[i];
}

/* spmv_jds for one thread, in the kernel's order of loads and float operations. */
static float thread_sum(const struct jds_view *v, uint32_t ix) {
    const float *data = v->data;
    const int32_t *index = v->index, *ptr = v->ptr;
    int32_t bound = v->zcnt[ix / JDS_WARP];
    float sum = 0.0f;
    int64_t j = ptr[0] + (int64_t)ix;
    float d = data[j], t = x_at(v, index[j]);
    if (bound > 1) {
        j = ptr[1] + (int64_t)ix;
        int32_t i = index[j];
        for (int32_t k = 2; k < bound; k++) {
            float dn = data[j];
            j = ptr[k] + (int64_t)ix;
            int32_t in = index[j];
            float tn = x_at(v, i);
            sum = fmaf(d, t, sum);
            i = in, d = dn, t = tn;
        }
        float dn = data[j], tn = x_at(v, i);
        sum = fmaf(d, t, sum);
        d = dn, t = tn;
    }
    return fmaf(d, t, sum);
}

static int jds_verify(struct workload *w, struct ws_err *e) {
    struct jds *s = (struct jds *)w;
    const float *out = devmem_host(s->kw.dm, s->d_ax, 4ull * s->dim);
    const int32_t *perm = devmem_host(s->kw.dm, s->d_perm, 4ull * s->dim);
    struct jds_view v = jds_view(s);
    for (uint32_t ix = 0; ix < s->dim; ix++) {
        float want = thread_sum(&v, ix);
        if (memcmp(&out[perm[ix]], &want, sizeof want) != 0)
            return ws_fail(e, "spmvjds: dst_vector[%d] = %.9g, the host's spmv_jds gives %.9g",
                           perm[ix], (double)out[perm[ix]], (double)want);
    }
    return 0;
}

static void jds_destroy(struct workload *w) {
    struct jds *s = (struct jds *)w;
    km_prog_free(&s->prog);
    graph_free(&s->a);
    km_wl_fini(&s->kw);
    free(s);
}

static const struct workload_vt jds_vt = {jds_next,      km_wl_cta_start, km_wl_warp_next,
                                          km_wl_cta_end, jds_verify,      jds_destroy};

/* The 2-D mesh matrix: the diagonal, and each neighbour pair within the 5 x 5 window kept with
 * probability keep (one draw per pair, both directions, one value). Rows come out column-sorted. */
static int mesh_matrix(struct graph *a, uint32_t side, double keep, struct ws_rng *r,
                       struct ws_err *e) {
    uint64_t n = (uint64_t)side * side, cap = n * 25;
    uint32_t *src = malloc(cap * sizeof *src), *dst = malloc(cap * sizeof *dst);
    float *val = malloc(cap * sizeof *val);
    if (!src || !dst || !val) {
        free(src), free(dst), free(val);
        return ws_fail(e, "spmvjds: out of memory for a %u x %u mesh", side, side);
    }
    uint64_t m = 0;
    for (uint32_t rr = 0; rr < side; rr++)
        for (uint32_t cc = 0; cc < side; cc++) {
            uint32_t i = rr * side + cc;
            src[m] = dst[m] = i, val[m++] = (float)(10.0 * ws_rng_unit(r));
            for (int dr = 0; dr <= 2; dr++)
                for (int dc = -2; dc <= 2; dc++) {
                    if (dr == 0 && dc <= 0) continue; /* each pair once, from its lower node */
                    int64_t r2 = (int64_t)rr + dr, c2 = (int64_t)cc + dc;
                    if (r2 >= side || c2 < 0 || c2 >= side) continue;
                    if (keep < 1 && ws_rng_unit(r) >= keep) continue;
                    uint32_t j = (uint32_t)(r2 * side + c2);
                    float v = (float)(10.0 * ws_rng_unit(r));
                    src[m] = i, dst[m] = j, val[m++] = v;
                    src[m] = j, dst[m] = i, val[m++] = v;
                }
        }
    int rc = graph_from_edges(a, (uint32_t)n, (uint32_t)n, m, src, dst, NULL, val, e);
    free(src), free(dst), free(val);
    return rc;
}

/* coo_to_jds (see the top of this file) into the device arrays, then the constant arrays. */
static int build(struct jds *s, struct ws_rng *r, struct ws_err *e) {
    const struct graph *a = &s->a;
    if (a->n != a->ncols)
        return ws_fail(e, "spmvjds: the matrix is %u x %u; spmv_jds multiplies square matrices",
                       a->n, a->ncols);
    s->dim = a->n;
    s->rows = (a->n + JDS_WARP - 1) / JDS_WARP * JDS_WARP;
    s->groups = s->rows / JDS_WARP;
    /* Stable sort by entry count, greatest first: a counting sort over the counts. */
    uint32_t maxd = 0;
    for (uint32_t i = 0; i < a->n; i++)
        if (a->degree[i] > maxd) maxd = a->degree[i];
    uint32_t *order = malloc((size_t)s->rows * sizeof *order);
    uint64_t *cnt = calloc((size_t)maxd + 2, sizeof *cnt);
    if (!order || !cnt) return free(order), free(cnt), ws_fail(e, "spmvjds: out of memory");
    for (uint32_t i = 0; i < s->rows; i++) cnt[maxd - (i < a->n ? a->degree[i] : 0)]++;
    for (uint64_t c = 0, pos = 0; c <= maxd; c++) {
        uint64_t t = cnt[c];
        cnt[c] = pos, pos += t;
    }
    for (uint32_t i = 0; i < s->rows; i++) order[cnt[maxd - (i < a->n ? a->degree[i] : 0)]++] = i;
    free(cnt);
    s->depth = maxd;
    if (s->groups > JDS_CONST || s->depth + 1 > JDS_CONST) {
        free(order);
        return ws_fail(
            e,
            "spmvjds: %u row groups and %u diagonals + 1 exceed the kernel's __constant__ "
            "jds_ptr_int[%d] / sh_zcnt_int[%d]",
            s->groups, s->depth, JDS_CONST, JDS_CONST);
    }
    /* Diagonal k holds the rows of the groups whose padded length exceeds k: the leading ones. */
    uint32_t *zcnt = malloc((size_t)s->groups * sizeof *zcnt);
    int32_t *ptr = malloc(((size_t)s->depth + 1) * sizeof *ptr);
    if (!zcnt || !ptr) return free(order), free(zcnt), free(ptr), ws_fail(e, "spmvjds: oom");
    for (uint32_t g = 0; g < s->groups; g++) {
        uint32_t row = order[g * JDS_WARP];
        zcnt[g] = row < a->n ? a->degree[row] : 0;
    }
    uint64_t len = 0;
    for (uint32_t k = 0, g = s->groups; k < s->depth; k++) {
        ptr[k] = (int32_t)len;
        while (g > 0 && zcnt[g - 1] <= k) g--;
        len += (uint64_t)g * JDS_WARP;
    }
    ptr[s->depth] = (int32_t)len;
    s->len = len;
    if (len > INT32_MAX) {
        free(order), free(zcnt), free(ptr);
        return ws_fail(e, "spmvjds: %llu JDS slots overflow the kernel's int indices",
                       (unsigned long long)len);
    }
    /* A group with no entries still reads d_data[ix] (prefetch 0): keep that in the block. */
    uint64_t words = s->words = len > s->rows ? len : s->rows;
    struct devmem *dm = s->kw.dm;
    uint64_t nz_bytes = (4ull * s->groups + DEVMEM_ALIGN - 1) / DEVMEM_ALIGN * DEVMEM_ALIGN;
    int rc = -1;
    if ((s->d_data = devmem_alloc(dm, 4 * words, "d_data", e)) &&
        (s->d_index = devmem_alloc(dm, 4 * words, "d_indices", e)) &&
        (s->d_ptr = devmem_alloc(dm, 4ull * (s->depth + 1), "d_ptr", e)) &&
        (s->d_perm = devmem_alloc(dm, 4ull * s->dim, "d_perm", e)) &&
        (s->d_nzcnt = devmem_alloc(dm, nz_bytes, "d_nzcnt", e)) &&
        (s->d_x = devmem_alloc(dm, 4ull * s->dim, "d_x_vector", e)) &&
        (s->d_ax = devmem_alloc(dm, 4ull * s->dim, "d_Ax_vector", e)) &&
        (s->c_ptr = devmem_alloc(dm, 4ull * JDS_CONST, "jds_ptr_int", e)) &&
        (s->c_zcnt = devmem_alloc(dm, 4ull * JDS_CONST, "sh_zcnt_int", e)))
        rc = 0;
    if (rc == 0) {
        float *data = devmem_host(dm, s->d_data, 4 * words);
        int32_t *index = devmem_host(dm, s->d_index, 4 * words);
        for (uint32_t k = 0; k < s->depth; k++)
            for (uint32_t ix = 0; ix < (uint32_t)(ptr[k + 1] - ptr[k]); ix++) {
                uint32_t row = order[ix];
                uint64_t at = (uint64_t)ptr[k] + ix;
                if (row < a->n && k < a->degree[row]) {
                    uint32_t q = a->start[row] + k;
                    data[at] = a->val[q], index[at] = (int32_t)a->dest[q];
                } else {
                    index[at] = -1; /* padding: value 0 */
                }
            }
        int32_t *perm = devmem_host(dm, s->d_perm, 4ull * s->dim);
        for (uint32_t ix = 0; ix < s->dim; ix++) perm[ix] = (int32_t)order[ix];
        memcpy(devmem_host(dm, s->c_ptr, 4ull * (s->depth + 1)), ptr, 4ull * (s->depth + 1));
        int32_t *cz = devmem_host(dm, s->c_zcnt, 4ull * s->groups);
        for (uint32_t g = 0; g < s->groups; g++) cz[g] = (int32_t)zcnt[g];
        float *x = devmem_host(dm, s->d_x, 4ull * s->dim);
        for (uint32_t i = 0; i < s->dim; i++) x[i] = (float)ws_rng_unit(r);
    }
    free(order), free(zcnt), free(ptr);
    return rc;
}

struct workload *spmvjds_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct jds_cfg sc = {.side = wc->size == WL_SIZE_PAPER ? 383 : 64};
    if (cfg_bind(c, "workload.spmvjds", jds_keys, CFG_COUNT(jds_keys), &sc, e)) return NULL;
    struct jds *s = calloc(1, sizeof *s);
    if (!s) return ws_fail(e, "spmvjds: out of memory"), NULL;
    if (km_wl_init(&s->kw, &jds_vt, "spmvjds", e)) return free(s), NULL;
    s->iters = (uint32_t)sc.iters;
    int64_t sms = sc.sms;
    if (sms == 0) {
        const char *g = cfg_raw(c, "gpu.sms");
        sms = g ? strtoll(g, NULL, 10) : 30;
        if (sms <= 0) sms = 30;
    }
    struct ws_rng r;
    ws_rng_seed(&r, (uint64_t)wc->seed);
    int rc = sc.matrix[0] ? graph_cfg_load(&s->a, c, "workload.spmvjds.matrix", sc.matrix, e)
                          : mesh_matrix(&s->a, (uint32_t)sc.side, sc.keep, &r, e);
    if (rc == 0 && !s->a.val) { /* a graph file: values as the generator draws them */
        s->a.val = malloc((s->a.m ? s->a.m : 1) * sizeof *s->a.val);
        if (!s->a.val) rc = ws_fail(e, "spmvjds: out of memory");
        for (uint32_t j = 0; rc == 0 && j < s->a.m; j++)
            s->a.val[j] = (float)(10.0 * ws_rng_unit(&r));
    }
    if (rc == 0) rc = build(s, &r, e);
    if (rc == 0) {
        /* compute_active_thread: task = groups, pad = 32. */
        s->block = (uint64_t)s->groups * JDS_WARP > (uint64_t)sms * JDS_MAX_THREAD
                       ? JDS_MAX_THREAD / JDS_MAX_BLOCK
                       : JDS_WARP;
        rc = km_prog_build(&s->prog, "spmv_jds", 22, jds_code, CFG_COUNT(jds_code), e);
    }
    if (rc) {
        jds_destroy(&s->kw.base);
        return NULL;
    }
    return &s->kw.base;
}
