/* Sparse matrix times dense vector (seed 001's SPMV) as SHOC runs it (SHOC 1.1, src/cuda/level1/
 * spmv/Spmv.cu: csrTest launching spmv_csr_scalar_kernel, or spmv_csr_vector_kernel; single
 * precision). CSR arrays in csrTest's cudaMalloc order: d_val, d_cols, d_vec, d_out,
 * d_rowDelimiters; BLOCK_SIZE 128.
 *   scalar: one thread per row: t = 0; for j in rowDelimiters[row] .. rowDelimiters[row+1]:
 *           t += val[j] * vec[cols[j]] (one FFMA); out[row] = t. The lanes of a warp walk rows
 *           far apart, so the cols[] and val[] loads are the kernel's 2 divergent loads, and the
 *           trip count is each lane's row length (branch divergence).
 *   vector: one warp per row: lane id sums j = start + id, + 32, ...; the 32 partial sums go to
 *           volatile shared memory and are halved warp-synchronously (id < 16, 8, 4, 2, 1: each
 *           step loads both halves and stores the sum); lane 0 writes out[row].
 * SHOC reads vec through a texture (tex1Dfetch); kmodel has no texture path, so those loads are
 * global loads here. The host loop launches the kernel workload.spmv.iters times (SHOC repeats it
 * 100 times per pass; every launch computes the same out).
 *
 * Input: a matrix file (Matrix Market values; other graph files get random values), or SHOC's
 * initRandomMatrix: a rows x rows matrix whose entries are present independently with
 * probability density% (drawn here by geometric gaps), values and vec uniform in [0, 10).
 * Test size 1024 rows (SHOC's size class 1), paper 16384 rows (class 4: 2.7 M non-zeros,
 * 32 MB of CSR arrays, beyond any L2), 1% dense, one launch. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/graph/graphgen.h"
#include "workload/graph/graphio.h"
#include "workload/kernels/kmodel.h"

enum { SPMV_BLOCK = 128 };
enum { P_VAL, P_COLS, P_VEC, P_OUT, P_ROWS, P_DIM };

static const struct km_inst scalar_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* myRow */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_DIM)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_ROWS)),
    KM_LDG_S(4, 3, KR(2), 0), /* start */
    KM_LDG_S(4, 4, KR(2), 4), /* end */
    KM_MOV_(5, KF(0.0f)),     /* t */
    KM_ISETP_(KM_GE, 0, KR(3), KR(4)),
    KM_BRA_IF(0, "store", "store"),
    KM_LBL("loop"),
    KM_OP3(KM_IMAD, 6, KR(3), KI(4), KP(P_COLS)),
    KM_LDG_S(4, 7, KR(6), 0), /* col = cols[j] */
    KM_OP3(KM_IMAD, 8, KR(3), KI(4), KP(P_VAL)),
    KM_LDG(4, 9, KR(8), 0), /* val[j] */
    KM_OP3(KM_IMAD, 10, KR(7), KI(4), KP(P_VEC)),
    KM_LDG(4, 11, KR(10), 0), /* vecTexReader(col) */
    KM_OP3(KM_FFMA, 5, KR(9), KR(11), KR(5)),
    KM_OP2(KM_IADD, 3, KR(3), KI(1)),
    KM_ISETP_(KM_LT, 0, KR(3), KR(4)),
    KM_BRA_IF(0, "loop", "store"),
    KM_LBL("store"),
    KM_OP3(KM_IMAD, 12, KR(0), KI(4), KP(P_OUT)),
    KM_STG(4, KR(12), 0, KR(5)), /* out[myRow] = t */
    KM_LBL("end"),
    KM_EXIT_(),
};

/* One halving step of the vector kernel's reduction: lanes id < h add partialSums[t + h]. */
#define SPMV_HALVE(h, lbl)                                                                         \
    KM_ISETP_(KM_GE, 0, KR(1), KI(h)), KM_BRA_IF(0, lbl, lbl), KM_LDS(4, 13, KR(12), 0),           \
        KM_LDS(4, 14, KR(12), 4 * (h)), KM_OP2(KM_FADD, 13, KR(13), KR(14)),                       \
        KM_STS(4, KR(12), 0, KR(13)), KM_LBL(lbl)

static const struct km_inst vector_code[] = {
    KM_S2R(0, SR_TID_X),                     /* t */
    KM_OP2(KM_AND, 1, KR(0), KI(31)),        /* id */
    KM_OP2(KM_SHR, 2, KS(SR_NTID_X), KI(5)), /* warpsPerBlock */
    KM_S2R(3, SR_CTAID_X),
    KM_OP2(KM_SHR, 4, KR(0), KI(5)),
    KM_OP3(KM_IMAD, 4, KR(3), KR(2), KR(4)), /* myRow */
    KM_ISETP_(KM_GE, 0, KR(4), KP(P_DIM)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 5, KR(4), KI(4), KP(P_ROWS)),
    KM_LDG_S(4, 6, KR(5), 0),         /* warpStart */
    KM_LDG_S(4, 7, KR(5), 4),         /* warpEnd */
    KM_MOV_(8, KF(0.0f)),             /* mySum */
    KM_OP2(KM_IADD, 6, KR(6), KR(1)), /* j = warpStart + id */
    KM_ISETP_(KM_GE, 0, KR(6), KR(7)),
    KM_BRA_IF(0, "reduce", "reduce"),
    KM_LBL("loop"),
    KM_OP3(KM_IMAD, 9, KR(6), KI(4), KP(P_COLS)),
    KM_LDG_S(4, 9, KR(9), 0), /* col */
    KM_OP3(KM_IMAD, 10, KR(6), KI(4), KP(P_VAL)),
    KM_LDG(4, 10, KR(10), 0),
    KM_OP3(KM_IMAD, 11, KR(9), KI(4), KP(P_VEC)),
    KM_LDG(4, 11, KR(11), 0),
    KM_OP3(KM_FFMA, 8, KR(10), KR(11), KR(8)),
    KM_OP2(KM_IADD, 6, KR(6), KI(32)),
    KM_ISETP_(KM_LT, 0, KR(6), KR(7)),
    KM_BRA_IF(0, "loop", "reduce"),
    KM_LBL("reduce"),
    KM_OP2(KM_SHL, 12, KR(0), KI(2)), /* &partialSums[t] */
    KM_STS(4, KR(12), 0, KR(8)),
    SPMV_HALVE(16, "h16"),
    SPMV_HALVE(8, "h8"),
    SPMV_HALVE(4, "h4"),
    SPMV_HALVE(2, "h2"),
    SPMV_HALVE(1, "h1"),
    KM_ISETP_(KM_NE, 0, KR(1), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_LDS(4, 13, KR(12), 0),
    KM_OP3(KM_IMAD, 14, KR(4), KI(4), KP(P_OUT)),
    KM_STG(4, KR(14), 0, KR(13)), /* out[myRow] = partialSums[t] */
    KM_LBL("end"),
    KM_EXIT_(),
};

static const char *const kernel_names[] = {"scalar", "vector", NULL};

struct spmv_cfg {
    char matrix[CFG_STR_MAX];
    int64_t rows, iters;
    double density;
    int kernel;
};
static const struct cfg_key spmv_keys[] = {
    {"workload.spmv.matrix", CFG_STRING, offsetof(struct spmv_cfg, matrix), "", 0, 0, NULL, "",
     "matrix file (Matrix Market .mtx; any graph file workload.graph.path takes, with random "
     "values); empty: SHOC's random matrix"},
    {"workload.spmv.rows", CFG_INT, offsetof(struct spmv_cfg, rows), NULL, 1, 1 << 20, NULL, "rows",
     "rows (= columns) of the random matrix (preset by workload.size: test 1024, paper "
     "16384)"},
    {"workload.spmv.density", CFG_DOUBLE, offsetof(struct spmv_cfg, density), "1", 0.001, 100, NULL,
     "%", "share of the random matrix's entries that are non-zero (SHOC: 1%)"},
    {"workload.spmv.kernel", CFG_ENUM, offsetof(struct spmv_cfg, kernel), "scalar", 0, 0,
     kernel_names, "",
     "spmv_csr_scalar_kernel (row per thread) or spmv_csr_vector_kernel (row "
     "per warp)"},
    {"workload.spmv.iters", CFG_INT, offsetof(struct spmv_cfg, iters), "1", 1, 1000, NULL,
     "launches", "kernel launches (SHOC: 100 per pass)"},
};

struct spmv {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog;
    struct graph a; /* the matrix in CSR: row i's entries are edges of node i */
    float *vec;
    uint64_t d_val, d_cols, d_vec, d_out, d_rows;
    int kernel;
    uint32_t iters, launches;
    struct wl_copy copies[8];
    uint32_t ncopies;
};

static int spmv_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct spmv *s = (struct spmv *)w;
    if (s->launches == s->iters) return 0;
    s->ncopies = 0;
    if (s->launches == 0) {
        km_copy_add(s->copies, &s->ncopies, 8, s->d_val, 4ull * s->a.m);
        km_copy_add(s->copies, &s->ncopies, 8, s->d_cols, 4ull * s->a.m);
        km_copy_add(s->copies, &s->ncopies, 8, s->d_rows, 4ull * (s->a.n + 1));
        km_copy_add(s->copies, &s->ncopies, 8, s->d_vec, 4ull * s->a.ncols);
    }
    uint32_t rows_per_block = s->kernel ? SPMV_BLOCK / 32 : SPMV_BLOCK;
    struct km_launch l = {.prog = &s->prog,
                          .grid = {(s->a.n + rows_per_block - 1) / rows_per_block, 1, 1},
                          .block = {SPMV_BLOCK, 1, 1},
                          .smem = s->kernel ? 4 * SPMV_BLOCK : 0};
    l.param[P_VAL] = (int64_t)s->d_val;
    l.param[P_COLS] = (int64_t)s->d_cols;
    l.param[P_VEC] = (int64_t)s->d_vec;
    l.param[P_OUT] = (int64_t)s->d_out;
    l.param[P_ROWS] = (int64_t)s->d_rows;
    l.param[P_DIM] = s->a.n;
    if (km_run_launch(s->kw.run, &l, k, e)) return -1;
    k->id = s->launches++;
    k->copies = s->copies;
    k->ncopies = s->ncopies;
    return 1;
}

/* The host product in the kernel's own order of float operations, so it matches bit for bit. */
static float row_product(const struct spmv *s, uint32_t i) {
    const struct graph *a = &s->a;
    uint32_t b = a->start[i], n = a->degree[i];
    if (s->kernel == 0) {
        float t = 0;
        for (uint32_t j = b; j < b + n; j++) t = fmaf(a->val[j], s->vec[a->dest[j]], t);
        return t;
    }
    float part[32];
    for (uint32_t id = 0; id < 32; id++) {
        part[id] = 0;
        for (uint32_t j = id; j < n; j += 32)
            part[id] = fmaf(a->val[b + j], s->vec[a->dest[b + j]], part[id]);
    }
    for (uint32_t h = 16; h >= 1; h /= 2)
        for (uint32_t id = 0; id < h; id++) part[id] = part[id] + part[id + h];
    return part[0];
}

static int spmv_verify(struct workload *w, struct ws_err *e) {
    struct spmv *s = (struct spmv *)w;
    const float *out = devmem_host(s->kw.dm, s->d_out, 4ull * s->a.n);
    for (uint32_t i = 0; i < s->a.n; i++) {
        float want = row_product(s, i);
        if (memcmp(&out[i], &want, sizeof want) != 0)
            return ws_fail(e, "spmv: out[%u] = %.9g, the host product gives %.9g", i,
                           (double)out[i], (double)want);
    }
    return 0;
}

static void spmv_destroy(struct workload *w) {
    struct spmv *s = (struct spmv *)w;
    km_prog_free(&s->prog);
    graph_free(&s->a);
    free(s->vec);
    km_wl_fini(&s->kw);
    free(s);
}

static const struct workload_vt spmv_vt = {spmv_next,     km_wl_cta_start, km_wl_warp_next,
                                           km_wl_cta_end, spmv_verify,     spmv_destroy};

/* SHOC-style random matrix: entry (i, j) present with probability p, found by geometric gaps
 * over the row-major positions. */
static int random_matrix(struct graph *a, uint32_t dim, double p, struct ws_rng *r,
                         struct ws_err *e) {
    uint64_t total = (uint64_t)dim * dim, cap = (uint64_t)(total * p * 1.2) + 1024;
    if (cap > INT32_MAX)
        return ws_fail(e, "spmv: %u x %u at %g%% is too many entries", dim, dim, 100 * p);
    uint32_t *src = malloc(cap * sizeof *src), *dst = malloc(cap * sizeof *dst);
    if (!src || !dst) return free(src), free(dst), ws_fail(e, "spmv: out of memory");
    uint64_t m = 0;
    double lq = log1p(-p);
    for (uint64_t pos = 0;;) {
        double u = ws_rng_unit(r);
        uint64_t gap = p >= 1 ? 0 : (uint64_t)floor(log1p(-u) / lq);
        if (gap >= total - pos) break;
        pos += gap;
        if (m == cap) break; /* beyond 1.2x the expected count: practically never */
        src[m] = (uint32_t)(pos / dim), dst[m++] = (uint32_t)(pos % dim);
        if (++pos >= total) break;
    }
    int rc = graph_from_edges(a, dim, dim, m, src, dst, NULL, NULL, e);
    free(src), free(dst);
    return rc;
}

static int setup(struct spmv *s, const struct cfg *c, struct spmv_cfg *sc, uint64_t seed,
                 struct ws_err *e) {
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    int rc = sc->matrix[0] ? graph_cfg_load(&s->a, c, "workload.spmv.matrix", sc->matrix, e)
                           : random_matrix(&s->a, (uint32_t)sc->rows, sc->density / 100, &r, e);
    if (rc) return -1;
    struct graph *a = &s->a;
    if (!a->val) { /* values uniform in [0, 10), as SHOC fills val */
        a->val = malloc((a->m ? a->m : 1) * sizeof *a->val);
        if (!a->val) return ws_fail(e, "spmv: out of memory");
        for (uint32_t j = 0; j < a->m; j++) a->val[j] = (float)(10.0 * ws_rng_unit(&r));
    }
    s->vec = malloc(a->ncols * sizeof *s->vec);
    if (!s->vec) return ws_fail(e, "spmv: out of memory");
    for (uint32_t j = 0; j < a->ncols; j++) s->vec[j] = (float)(10.0 * ws_rng_unit(&r));
    struct devmem *dm = s->kw.dm;
    uint64_t m = a->m ? a->m : 1;
    if (!(s->d_val = devmem_alloc(dm, 4 * m, "d_val", e)) ||
        !(s->d_cols = devmem_alloc(dm, 4 * m, "d_cols", e)) ||
        !(s->d_vec = devmem_alloc(dm, 4ull * a->ncols, "d_vec", e)) ||
        !(s->d_out = devmem_alloc(dm, 4ull * a->n, "d_out", e)) ||
        !(s->d_rows = devmem_alloc(dm, 4ull * (a->n + 1), "d_rowDelimiters", e)))
        return -1;
    float *val = devmem_host(dm, s->d_val, 4 * m),
          *vec = devmem_host(dm, s->d_vec, 4ull * a->ncols);
    int32_t *cols = devmem_host(dm, s->d_cols, 4 * m);
    int32_t *rows = devmem_host(dm, s->d_rows, 4ull * (a->n + 1));
    memcpy(val, a->val, 4ull * a->m);
    memcpy(vec, s->vec, 4ull * a->ncols);
    for (uint32_t j = 0; j < a->m; j++) cols[j] = (int32_t)a->dest[j];
    for (uint32_t i = 0; i < a->n; i++) rows[i] = (int32_t)a->start[i];
    rows[a->n] = (int32_t)a->m;
    return 0;
}

struct workload *spmv_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct spmv_cfg sc = {.rows = wc->size == WL_SIZE_PAPER ? 16384 : 1024};
    if (cfg_bind(c, "workload.spmv", spmv_keys, CFG_COUNT(spmv_keys), &sc, e)) return NULL;
    struct spmv *s = calloc(1, sizeof *s);
    if (!s) return ws_fail(e, "spmv: out of memory"), NULL;
    if (km_wl_init(&s->kw, &spmv_vt, "spmv", e)) return free(s), NULL;
    s->kernel = sc.kernel;
    s->iters = (uint32_t)sc.iters;
    int rc = setup(s, c, &sc, (uint64_t)wc->seed, e);
    if (rc == 0)
        rc = sc.kernel ? km_prog_build(&s->prog, "spmv_csr_vector_kernel", 20, vector_code,
                                       CFG_COUNT(vector_code), e)
                       : km_prog_build(&s->prog, "spmv_csr_scalar_kernel", 16, scalar_code,
                                       CFG_COUNT(scalar_code), e);
    if (rc) {
        spmv_destroy(&s->kw.base);
        return NULL;
    }
    return &s->kw.base;
}
