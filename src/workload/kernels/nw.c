/* Needleman-Wunsch as Rodinia runs it (Rodinia 3.1, nw/needle.cu host runTest, needle_kernel.cu
 * kernels needle_cuda_shared_1 and needle_cuda_shared_2): global alignment of two length-n
 * sequences, the (n+1) x (n+1) score matrix filled in 16x16 tiles along anti-diagonals of tiles.
 * The host launches needle_cuda_shared_1 for i = 1 .. n/16 (i blocks: the upper-left triangle of
 * tiles) and then needle_cuda_shared_2 for i = n/16 - 1 .. 1 (the lower-right one). A block is
 * 16 threads (half a warp): it loads the tile's corner, its 16x16 reference scores (one row per
 * loop step, thread tx reading column tx), its west column (one word per row: 16 rows apart) and
 * its north row into shared memory, then sweeps the tile's 31 anti-diagonals in shared memory
 * (thread tx works when tx <= m, bar.sync after each) and writes the tile back row by row.
 *
 * Device arrays in needle.cu's cudaMalloc order: referrence_cuda, matrix_cuda ((n+1)^2 ints
 * each), both copied in. The input is needle.cu's: two random sequences of residues 1..10 (a
 * deterministic generator stands for srand(7)/rand()), reference scores from BLOSUM62, the first
 * row and column -i * penalty. Sizes: test 64, paper 2048 with penalty 10 (Rodinia's run script:
 * `needle 2048 10`); workload.nw.{size,penalty}. The loops over 16 rows, which nvcc unrolls, are
 * modelled as loops (the same loads and stores, a little more integer work). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

enum { NB = 16, SM_TEMP = 0, SM_REF = 17 * 17 * 4, SM_BYTES = SM_REF + 16 * 16 * 4 };
enum { P_REF, P_MAT, P_COLS, P_PEN, P_I, P_BW };

/* Sign-extending shared load (the tile holds negative scores). */
#define LDS_S(d, x, o)                                                                             \
    { .op = KM_LD, .space = SPACE_SHARED, .width = 4, .sub = 1, .d1 = (d) + 1, .a = x, .off = (o) }

/* One cell of a diagonal: r16 = t_index_y, r23 = t_index_x. */
#define NW_CELL                                                                                    \
    KM_OP3(KM_IMAD, 17, KR(16), KI(17), KR(23)), KM_OP2(KM_SHL, 17, KR(17), KI(2)),                \
        KM_OP3(KM_IMAD, 18, KR(16), KI(NB), KR(23)), KM_OP2(KM_IADD, 18, KR(18), KI(-NB - 1)),     \
        KM_OP2(KM_SHL, 18, KR(18), KI(2)), LDS_S(19, KR(17), SM_TEMP - 72),                        \
        LDS_S(20, KR(18), SM_REF), KM_OP2(KM_IADD, 19, KR(19), KR(20)),                            \
        LDS_S(21, KR(17), SM_TEMP - 4), KM_OP2(KM_ISUB, 21, KR(21), KP(P_PEN)),                    \
        LDS_S(22, KR(17), SM_TEMP - 68), KM_OP2(KM_ISUB, 22, KR(22), KP(P_PEN)),                   \
        KM_OP2(KM_IMAX, 19, KR(19), KR(21)), KM_OP2(KM_IMAX, 19, KR(19), KR(22)),                  \
        KM_STS(4, KR(17), SM_TEMP, KR(19))

/* Everything after b_index_x (r3) and b_index_y (r4). */
#define NW_BODY                                                                                    \
    KM_OP2(KM_IMUL, 5, KP(P_COLS), KR(4)), KM_OP2(KM_SHL, 5, KR(5), KI(4)),                        \
        KM_OP3(KM_IMAD, 5, KR(3), KI(NB), KR(5)), /* index_nw */                                   \
        KM_OP2(KM_IADD, 6, KR(5), KR(0)), KM_OP2(KM_IADD, 6, KR(6), KP(P_COLS)),                   \
        KM_OP2(KM_IADD, 6, KR(6), KI(1)),                                   /* index */            \
        KM_OP2(KM_IADD, 7, KR(5), KR(0)), KM_OP2(KM_IADD, 7, KR(7), KI(1)), /* index_n */          \
        KM_OP2(KM_IADD, 8, KR(5), KP(P_COLS)),                              /* index_w */          \
        KM_ISETP_(KM_NE, 0, KR(0), KRZ), KM_BRA_IF(0, "nwdone", "nwdone"),                         \
        KM_OP3(KM_IMAD, 9, KR(5), KI(4), KP(P_MAT)), KM_LDG_S(4, 10, KR(9), 0),                    \
        KM_STS(4, KRZ, SM_TEMP, KR(10)), /* temp[0][0] */                                          \
        KM_LBL("nwdone"), KM_OP3(KM_IMAD, 12, KR(6), KI(4), KP(P_REF)),                            \
        KM_OP2(KM_SHL, 13, KP(P_COLS), KI(2)), KM_OP2(KM_SHL, 14, KR(0), KI(2)), KM_MOV_(11, KRZ), \
        KM_LBL("refloop"), KM_LDG_S(4, 10, KR(12), 0),                                             \
        KM_STS(4, KR(14), SM_REF, KR(10)), /* ref[ty][tx] */                                       \
        KM_OP2(KM_IADD, 12, KR(12), KR(13)), KM_OP2(KM_IADD, 14, KR(14), KI(4 * NB)),              \
        KM_OP2(KM_IADD, 11, KR(11), KI(1)), KM_ISETP_(KM_LT, 0, KR(11), KI(NB)),                   \
        KM_BRA_IF(0, "refloop", "refdone"), KM_LBL("refdone"), KM_BAR_(),                          \
        KM_OP3(KM_IMAD, 12, KR(0), KP(P_COLS), KR(8)),                                             \
        KM_OP3(KM_IMAD, 12, KR(12), KI(4), KP(P_MAT)), KM_LDG_S(4, 10, KR(12), 0),                 \
        KM_OP3(KM_IMAD, 14, KR(0), KI(68), KI(68)),                                                \
        KM_STS(4, KR(14), SM_TEMP, KR(10)), /* temp[tx+1][0] */                                    \
        KM_BAR_(), KM_OP3(KM_IMAD, 12, KR(7), KI(4), KP(P_MAT)), KM_LDG_S(4, 10, KR(12), 0),       \
        KM_OP2(KM_SHL, 14, KR(0), KI(2)),                                                          \
        KM_STS(4, KR(14), SM_TEMP + 4, KR(10)), /* temp[0][tx+1] */                                \
        KM_BAR_(), KM_MOV_(15, KRZ), KM_LBL("up"), KM_ISETP_(KM_GT, 0, KR(0), KR(15)),             \
        KM_BRA_IF(0, "upskip", "upskip"), KM_OP2(KM_ISUB, 16, KR(15), KR(0)),                      \
        KM_OP2(KM_IADD, 16, KR(16), KI(1)), KM_OP2(KM_IADD, 23, KR(0), KI(1)), NW_CELL,            \
        KM_LBL("upskip"), KM_BAR_(), KM_OP2(KM_IADD, 15, KR(15), KI(1)),                           \
        KM_ISETP_(KM_LT, 0, KR(15), KI(NB)), KM_BRA_IF(0, "up", "updone"), KM_LBL("updone"),       \
        KM_MOV_(15, KI(NB - 2)), KM_LBL("down"), KM_ISETP_(KM_GT, 0, KR(0), KR(15)),               \
        KM_BRA_IF(0, "downskip", "downskip"), KM_OP2(KM_ISUB, 16, KI(NB), KR(0)),                  \
        KM_OP2(KM_IADD, 23, KR(0), KI(NB)), KM_OP2(KM_ISUB, 23, KR(23), KR(15)), NW_CELL,          \
        KM_LBL("downskip"), KM_BAR_(), KM_OP2(KM_IADD, 15, KR(15), KI(-1)),                        \
        KM_ISETP_(KM_GE, 0, KR(15), KRZ), KM_BRA_IF(0, "down", "downdone"), KM_LBL("downdone"),    \
        KM_OP3(KM_IMAD, 12, KR(6), KI(4), KP(P_MAT)), KM_OP3(KM_IMAD, 14, KR(0), KI(4), KI(72)),   \
        KM_MOV_(11, KRZ), KM_LBL("outloop"), LDS_S(10, KR(14), SM_TEMP),                           \
        KM_STG(4, KR(12), 0, KR(10)), /* matrix_cuda[index + ty * cols] = temp[ty+1][tx+1] */      \
        KM_OP2(KM_IADD, 12, KR(12), KR(13)), KM_OP2(KM_IADD, 14, KR(14), KI(68)),                  \
        KM_OP2(KM_IADD, 11, KR(11), KI(1)), KM_ISETP_(KM_LT, 0, KR(11), KI(NB)),                   \
        KM_BRA_IF(0, "outloop", "outdone"), KM_LBL("outdone"), KM_EXIT_()

static const struct km_inst nw1_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(2, SR_CTAID_X),
    KM_MOV_(3, KR(2)), /* b_index_x = bx */
    KM_OP2(KM_ISUB, 4, KP(P_I), KR(2)),
    KM_OP2(KM_IADD, 4, KR(4), KI(-1)), /* b_index_y = i - 1 - bx */
    NW_BODY,
};

static const struct km_inst nw2_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(2, SR_CTAID_X),
    KM_OP2(KM_IADD, 3, KR(2), KP(P_BW)),
    KM_OP2(KM_ISUB, 3, KR(3), KP(P_I)), /* b_index_x = bx + block_width - i */
    KM_OP2(KM_ISUB, 4, KP(P_BW), KR(2)),
    KM_OP2(KM_IADD, 4, KR(4), KI(-1)), /* b_index_y = block_width - bx - 1 */
    NW_BODY,
};

/* BLOSUM62 among residues 1..10 of needle.cu's table order (R N D C Q E G H I L): the only ones
 * rand() % 10 + 1 picks. */
static const int8_t blosum[10][10] = {
    {5, 0, -2, -3, 1, 0, -2, 0, -3, -2},    {0, 6, 1, -3, 0, 0, 0, 1, -3, -3},
    {-2, 1, 6, -3, 0, 2, -1, -1, -3, -4},   {-3, -3, -3, 9, -3, -4, -3, -3, -1, -1},
    {1, 0, 0, -3, 5, 2, -2, 0, -3, -2},     {0, 0, 2, -4, 2, 5, -2, 0, -3, -3},
    {-2, 0, -1, -3, -2, -2, 6, -2, -4, -4}, {0, 1, -1, -3, 0, 0, -2, 8, -3, -3},
    {-3, -3, -3, -1, -3, -3, -4, -3, 4, 2}, {-2, -3, -4, -1, -2, -3, -4, -3, 2, 4},
};

struct nw_cfg {
    int64_t size, penalty;
};
static const struct cfg_key nw_keys[] = {
    {"workload.nw.size", CFG_INT, offsetof(struct nw_cfg, size), NULL, 16, 16384, NULL, "residues",
     "sequence length, a multiple of 16 (preset by workload.size: test 64, paper 2048)"},
    {"workload.nw.penalty", CFG_INT, offsetof(struct nw_cfg, penalty), NULL, 0, 1000, NULL, NULL,
     "gap penalty (preset 10)"},
};

struct nw {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog k1, k2;
    uint32_t n, cols, bw, pen;
    uint32_t launches; /* 0 .. 2 bw - 2 */
    uint64_t d_ref, d_mat;
    int32_t *ref, *mat0; /* the host's referrence and input_itemsets */
    struct wl_copy copies[2];
};

static int nw_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct nw *s = (struct nw *)w;
    if (s->launches >= 2 * s->bw - 1) return 0;
    bool first = s->launches < s->bw;
    uint32_t i = first ? s->launches + 1 : 2 * s->bw - 1 - s->launches;
    struct km_launch l = {.prog = first ? &s->k1 : &s->k2, .smem = SM_BYTES};
    l.grid[0] = i, l.grid[1] = l.grid[2] = 1;
    l.block[0] = NB, l.block[1] = l.block[2] = 1;
    l.param[P_REF] = (int64_t)s->d_ref;
    l.param[P_MAT] = (int64_t)s->d_mat;
    l.param[P_COLS] = s->cols;
    l.param[P_PEN] = s->pen;
    l.param[P_I] = i;
    l.param[P_BW] = s->bw;
    if (km_run_launch(s->kw.run, &l, k, e)) return -1;
    k->id = s->launches;
    k->copies = s->copies;
    k->ncopies = s->launches == 0 ? 2 : 0;
    s->launches++;
    return 1;
}

/* The whole score matrix on the host (the tiles' wavefront computes exactly this). */
static int nw_verify(struct workload *w, struct ws_err *e) {
    struct nw *s = (struct nw *)w;
    uint32_t c = s->cols;
    size_t sz = (size_t)c * c;
    int32_t *m = malloc(sz * sizeof *m);
    if (!m) return ws_fail(e, "nw: out of memory");
    memcpy(m, s->mat0, sz * sizeof *m);
    if (s->launches == 2 * s->bw - 1)
        for (uint32_t y = 1; y < c; y++)
            for (uint32_t x = 1; x < c; x++) {
                int32_t a = m[(y - 1) * c + x - 1] + s->ref[y * c + x];
                int32_t b = m[y * c + x - 1] - (int32_t)s->pen,
                        d = m[(y - 1) * c + x] - (int32_t)s->pen;
                int32_t k = a <= b ? b : a;
                m[y * c + x] = k <= d ? d : k;
            }
    const int32_t *dm = devmem_host(s->kw.dm, s->d_mat, 4 * sz);
    int rc = 0;
    for (size_t i = 0; i < sz && rc == 0; i++)
        if (dm[i] != m[i])
            rc = ws_fail(e, "nw: matrix[%zu][%zu] = %d, the host says %d", i / c, i % c, dm[i],
                         m[i]);
    free(m);
    return rc;
}

static void nw_destroy(struct workload *w) {
    struct nw *s = (struct nw *)w;
    km_prog_free(&s->k1);
    km_prog_free(&s->k2);
    km_wl_fini(&s->kw);
    free(s->ref);
    free(s->mat0);
    free(s);
}

static const struct workload_vt nw_vt = {nw_next,       km_wl_cta_start, km_wl_warp_next,
                                         km_wl_cta_end, nw_verify,       nw_destroy};

static uint32_t mix(uint32_t x) {
    x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
    return x;
}

struct workload *nw_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    struct nw_cfg nc = {wc->size == WL_SIZE_PAPER ? 2048 : 64, 10};
    if (cfg_bind(c, "workload.nw", nw_keys, CFG_COUNT(nw_keys), &nc, e)) return NULL;
    char where[600];
    if (nc.size % NB)
        return ws_fail(e, "%s: workload.nw.size = %lld must be a multiple of 16 (the tile size)",
                       cfg_origin(c, "workload.nw.size", where, sizeof where), (long long)nc.size),
               NULL;
    struct nw *s = calloc(1, sizeof *s);
    if (!s) return ws_fail(e, "nw: out of memory"), NULL;
    if (km_wl_init(&s->kw, &nw_vt, "nw", e)) return free(s), NULL;
    s->n = (uint32_t)nc.size, s->cols = s->n + 1, s->bw = s->n / NB, s->pen = (uint32_t)nc.penalty;
    size_t sz = (size_t)s->cols * s->cols;
    s->ref = calloc(sz, sizeof *s->ref);
    s->mat0 = calloc(sz, sizeof *s->mat0);
    if (!s->ref || !s->mat0 ||
        km_prog_build(&s->k1, "needle_cuda_shared_1", 24, nw1_code, CFG_COUNT(nw1_code), e) ||
        km_prog_build(&s->k2, "needle_cuda_shared_2", 24, nw2_code, CFG_COUNT(nw2_code), e) ||
        !(s->d_ref = devmem_alloc(s->kw.dm, 4 * sz, "referrence_cuda", e)) ||
        !(s->d_mat = devmem_alloc(s->kw.dm, 4 * sz, "matrix_cuda", e))) {
        if (!s->ref || !s->mat0) ws_fail(e, "nw: out of memory");
        nw_destroy(&s->kw.base);
        return NULL;
    }
    uint32_t cols = s->cols, seq = 0;
    for (uint32_t y = 1; y < cols; y++) s->mat0[y * cols] = (int32_t)(mix(seq++) % 10 + 1);
    for (uint32_t x = 1; x < cols; x++) s->mat0[x] = (int32_t)(mix(seq++) % 10 + 1);
    for (uint32_t y = 1; y < cols; y++)
        for (uint32_t x = 1; x < cols; x++)
            s->ref[y * cols + x] = blosum[s->mat0[y * cols] - 1][s->mat0[x] - 1];
    for (uint32_t y = 1; y < cols; y++) s->mat0[y * cols] = -(int32_t)(y * s->pen);
    for (uint32_t x = 1; x < cols; x++) s->mat0[x] = -(int32_t)(x * s->pen);
    memcpy(devmem_host(s->kw.dm, s->d_ref, 4 * sz), s->ref, 4 * sz);
    memcpy(devmem_host(s->kw.dm, s->d_mat, 4 * sz), s->mat0, 4 * sz);
    s->copies[0] = (struct wl_copy){s->d_ref, 4 * sz};
    s->copies[1] = (struct wl_copy){s->d_mat, 4 * sz};
    return &s->kw.base;
}
