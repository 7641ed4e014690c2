/* K-means as Rodinia runs it (Rodinia 3.1, kmeans/kmeans_cuda/kmeans_cuda_kernel.cu kernel
 * kmeansPoint; host loop kmeans_clustering.c kmeans_clustering and kmeans_cuda.cu kmeansCuda),
 * in the form GPU memory studies use: features read from global memory point-major,
 * features[point * nfeatures + j], so the 32 lanes of a warp read 32 addresses nfeatures * 4
 * bytes apart (a different line each: HOA). This layout is a deliberate choice, after the
 * issue's "uncoalesced feature reads": Rodinia's kmeansPoint itself reads feature_d, the
 * feature-major copy (through the t_features texture, point + npoints * j), which is coalesced.
 * The point-major data is feature_flipped_d, where the host copies the points; the model's
 * kmeansPoint reads it there. Device arrays and launches are Rodinia's allocateMemory's:
 * feature_flipped_d (copied in), feature_d, one invert_mapping launch (1-D grid of
 * ceil(sqrt(blocks))^2 blocks) that writes feature_d from feature_flipped_d, then membership_d
 * and clusters_d. Cluster centres are read as Rodinia reads them, from the c_clusters constant
 * copy (modelled at the address of clusters_d, the copy the host makes each launch); all lanes
 * read the same centre word, one request per warp, and constant loads are not warp-loads in the
 * load statistics.
 *
 * One thread per point, 256 threads per block, a square 2-D grid of ceil(sqrt(blocks))^2 blocks
 * as kmeansCuda sizes it. Each launch: the host copies membership and the centres to the device,
 * kmeansPoint assigns every point its nearest centre, the host counts changed memberships (delta)
 * and recomputes centres as member means; it stops when delta is 0 (Rodinia: delta > 0.001), after
 * workload.kmeans.iters launches when that is not 0, or after 500. Initial centres are the first
 * nclusters points, as kmeans_clustering picks them. Points are drawn deterministically from
 * workload.seed around nclusters random centres. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/kernels/kmodel.h"

enum { KMEANS_BLOCK = 256, KMEANS_MAX_LOOPS = 500 };
enum { P_FEAT, P_NF, P_NPTS, P_NCL, P_MEMB, P_CLUS };

/* invert_mapping (kmeans_cuda_kernel.cu), launched once by allocateMemory:
 * output[point_id + npoints * i] = input[point_id * nfeatures + i] for every feature i, from the
 * point-major copy (feature_flipped_d) into the feature-major one (feature_d). The store may alias
 * the next load, so each load waits for the previous store; the loop is unrolled by 4 with a
 * remainder loop, as nvcc compiles a loop of run-time trip count. 30 registers (ptxas, sm_75). */
enum { P_IN, P_OUT, P_INPTS, P_INF };
static const struct km_inst inv_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KS(SR_NTID_X), KR(1), KR(0)), /* point_id */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_INPTS)),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_LE, 0, KP(P_INF), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 5, KR(0), KP(P_INF), KRZ),
    KM_OP3(KM_IMAD, 5, KR(5), KI(4), KP(P_IN)),  /* &input[point_id * nfeatures] */
    KM_OP3(KM_IMAD, 6, KR(0), KI(4), KP(P_OUT)), /* &output[point_id] */
    KM_OP2(KM_SHL, 7, KP(P_INPTS), KI(2)),       /* output's stride: npoints floats */
    KM_OP2(KM_SHR, 11, KP(P_INF), KI(2)),
    KM_ISETP_(KM_EQ, 0, KR(11), KRZ),
    KM_BRA_IF(0, "rest", "rest"),
    KM_LBL("loop4"),
    KM_LDG(4, 12, KR(5), 0),
    KM_STG(4, KR(6), 0, KR(12)),
    KM_OP2(KM_IADD, 6, KR(6), KR(7)),
    KM_LDG(4, 12, KR(5), 4),
    KM_STG(4, KR(6), 0, KR(12)),
    KM_OP2(KM_IADD, 6, KR(6), KR(7)),
    KM_LDG(4, 12, KR(5), 8),
    KM_STG(4, KR(6), 0, KR(12)),
    KM_OP2(KM_IADD, 6, KR(6), KR(7)),
    KM_LDG(4, 12, KR(5), 12),
    KM_STG(4, KR(6), 0, KR(12)),
    KM_OP2(KM_IADD, 6, KR(6), KR(7)),
    KM_OP2(KM_IADD, 5, KR(5), KI(16)),
    KM_OP2(KM_IADD, 11, KR(11), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(11), KRZ),
    KM_BRA_IF(0, "loop4", "rest"),
    KM_LBL("rest"),
    KM_OP2(KM_AND, 11, KP(P_INF), KI(3)),
    KM_ISETP_(KM_EQ, 0, KR(11), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_LBL("loop1"),
    KM_LDG(4, 12, KR(5), 0),
    KM_STG(4, KR(6), 0, KR(12)),
    KM_OP2(KM_IADD, 5, KR(5), KI(4)),
    KM_OP2(KM_IADD, 6, KR(6), KR(7)),
    KM_OP2(KM_IADD, 11, KR(11), KI(-1)),
    KM_ISETP_(KM_NE, 0, KR(11), KRZ),
    KM_BRA_IF(0, "loop1", "end"),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* kmeansPoint: for each centre i, ans = sum_j (feature - centre)^2 (FFMA); keep the nearest.
 * The feature loop is unrolled by 4 as nvcc compiles it (its trip count, nfeatures, is known only
 * at run time, and nvcc unrolls such loops by 4 with a remainder loop after them): four feature
 * loads back to back, then the four centre loads, then four subtract/FFMA pairs accumulating in
 * feature order (the sum is the rolled loop's, bit for bit). So a warp has four uncoalesced
 * loads in flight at once, not one. Registers: R1 and R2 are free after point_id and hold
 * centre values; the loop counts groups down, as compiled loops do, to stay within 18. */
static const struct km_inst kp_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_S2R(2, SR_CTAID_Y),
    KM_OP3(KM_IMAD, 1, KR(2), KS(SR_NCTAID_X), KR(1)), /* block_id = gridDim.x * y + x */
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)),   /* point_id */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_NPTS)),
    KM_BRA_IF(0, "end", "end"),
    KM_MOV_(3, KI(-1)),                           /* index */
    KM_MOV_(4, KF(FLT_MAX)),                      /* min_dist */
    KM_OP3(KM_IMAD, 5, KR(0), KP(P_NF), KRZ),     /* point_id * nfeatures */
    KM_OP3(KM_IMAD, 5, KR(5), KI(4), KP(P_FEAT)), /* &features[point_id * nfeatures] */
    KM_MOV_(6, KRZ),                              /* i */
    KM_MOV_(7, KP(P_CLUS)),                       /* &clusters[i * nfeatures] */
    KM_LBL("cluster"),
    KM_MOV_(8, KRZ), /* ans = 0.0f */
    KM_MOV_(9, KR(5)),
    KM_MOV_(10, KR(7)),
    KM_OP2(KM_SHR, 11, KP(P_NF), KI(2)), /* groups of 4 features left */
    KM_ISETP_(KM_EQ, 1, KR(11), KRZ),
    KM_BRA_IF(1, "rest", "rest"),
    KM_LBL("feature4"),
    KM_LDG(4, 12, KR(9), 0), /* features[point_id * nfeatures + j .. j + 3] */
    KM_LDG(4, 13, KR(9), 4),
    KM_LDG(4, 14, KR(9), 8),
    KM_LDG(4, 15, KR(9), 12),
    /* c_clusters[i * nfeatures + j .. j + 3]: constant memory, as Rodinia reads the centres */
    {.op = KM_LD, .space = SPACE_CONST, .width = 4, .d1 = 1 + 1, .a = KR(10), .off = 0},
    {.op = KM_LD, .space = SPACE_CONST, .width = 4, .d1 = 2 + 1, .a = KR(10), .off = 4},
    {.op = KM_LD, .space = SPACE_CONST, .width = 4, .d1 = 16 + 1, .a = KR(10), .off = 8},
    {.op = KM_LD, .space = SPACE_CONST, .width = 4, .d1 = 17 + 1, .a = KR(10), .off = 12},
    KM_OP2(KM_FSUB, 12, KR(12), KR(1)),
    KM_OP3(KM_FFMA, 8, KR(12), KR(12), KR(8)),
    KM_OP2(KM_FSUB, 13, KR(13), KR(2)),
    KM_OP3(KM_FFMA, 8, KR(13), KR(13), KR(8)),
    KM_OP2(KM_FSUB, 14, KR(14), KR(16)),
    KM_OP3(KM_FFMA, 8, KR(14), KR(14), KR(8)),
    KM_OP2(KM_FSUB, 15, KR(15), KR(17)),
    KM_OP3(KM_FFMA, 8, KR(15), KR(15), KR(8)),
    KM_OP2(KM_IADD, 9, KR(9), KI(16)),
    KM_OP2(KM_IADD, 10, KR(10), KI(16)),
    KM_OP2(KM_IADD, 11, KR(11), KI(-1)),
    KM_ISETP_(KM_NE, 1, KR(11), KRZ),
    KM_BRA_IF(1, "feature4", "rest"),
    KM_LBL("rest"),
    KM_OP2(KM_AND, 11, KP(P_NF), KI(3)), /* the last nfeatures % 4, one at a time */
    KM_ISETP_(KM_EQ, 1, KR(11), KRZ),
    KM_BRA_IF(1, "compare", "compare"),
    KM_LBL("feature"),
    KM_LDG(4, 12, KR(9), 0),
    {.op = KM_LD, .space = SPACE_CONST, .width = 4, .d1 = 1 + 1, .a = KR(10), .off = 0},
    KM_OP2(KM_FSUB, 12, KR(12), KR(1)),
    KM_OP3(KM_FFMA, 8, KR(12), KR(12), KR(8)),
    KM_OP2(KM_IADD, 9, KR(9), KI(4)),
    KM_OP2(KM_IADD, 10, KR(10), KI(4)),
    KM_OP2(KM_IADD, 11, KR(11), KI(-1)),
    KM_ISETP_(KM_NE, 1, KR(11), KRZ),
    KM_BRA_IF(1, "feature", "compare"),
    KM_LBL("compare"),
    KM_FSETP_(KM_LT, 1, KR(8), KR(4)), /* dist < min_dist */
    KM_SEL_(4, KR(8), KR(4), 1),
    KM_SEL_(3, KR(6), KR(3), 1),
    KM_OP2(KM_IADD, 6, KR(6), KI(1)),
    KM_MOV_(7, KR(10)), /* the next centre starts where this one ended */
    KM_ISETP_(KM_LT, 1, KR(6), KP(P_NCL)),
    KM_BRA_IF(1, "cluster", "store"),
    KM_LBL("store"),
    KM_OP3(KM_IMAD, 14, KR(0), KI(4), KP(P_MEMB)),
    KM_STG(4, KR(14), 0, KR(3)), /* membership[point_id] = index */
    KM_LBL("end"),
    KM_EXIT_(),
};

struct kmeans_cfg {
    int64_t points, features, clusters, iters;
};
static const struct cfg_key kmeans_keys[] = {
    {"workload.kmeans.points", CFG_INT, offsetof(struct kmeans_cfg, points), NULL, 1, 1 << 24, NULL,
     "points", "data points (preset by workload.size: test 8192, paper 28000)"},
    {"workload.kmeans.features", CFG_INT, offsetof(struct kmeans_cfg, features), NULL, 1, 4096,
     NULL, "floats", "features per point (test 34 as kdd_cup, paper 136 = 4x)"},
    {"workload.kmeans.clusters", CFG_INT, offsetof(struct kmeans_cfg, clusters), "5", 1, 256, NULL,
     "", "clusters (Rodinia's default -m/-n 5)"},
    {"workload.kmeans.iters", CFG_INT, offsetof(struct kmeans_cfg, iters), NULL, 0, 500, NULL,
     "launches", "most kmeansPoint launches; 0: until no membership changes (test 2, paper 0)"},
};

struct kmeans {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog, inv;
    uint32_t np, nf, nc, iters;
    uint64_t d_feat, d_inv, d_memb, d_clus; /* d_feat: feature_flipped_d (point-major) */
    bool inverted;                          /* invert_mapping has been launched */
    uint32_t grid;                          /* blocks per grid dimension */
    float *centres;                         /* [nc][nf] for the next launch */
    float *used;                            /* [nc][nf] of the last launch (verify) */
    int32_t *membership;                    /* host copy, as of the last launch */
    float *sum;                             /* [nc][nf] new-centre sums */
    uint32_t *count;                        /* [nc] */
    uint32_t launches;
    uint64_t last_delta;
    bool done;
    struct wl_copy copies[3];
};

/* After a launch: the host part of one kmeans_clustering iteration. Returns delta. */
static uint64_t host_update(struct kmeans *k) {
    const int32_t *got = devmem_host(k->kw.dm, k->d_memb, 4ull * k->np);
    const float *f = devmem_host(k->kw.dm, k->d_feat, 4ull * k->np * k->nf);
    memset(k->sum, 0, (size_t)k->nc * k->nf * sizeof *k->sum);
    memset(k->count, 0, k->nc * sizeof *k->count);
    uint64_t delta = 0;
    for (uint32_t p = 0; p < k->np; p++) {
        int32_t c = got[p];
        WS_ASSERT(c >= 0 && (uint32_t)c < k->nc, "kmeans: point %u got cluster %d", p, c);
        k->count[c]++;
        if (c != k->membership[p]) delta++, k->membership[p] = c;
        for (uint32_t j = 0; j < k->nf; j++)
            k->sum[(size_t)c * k->nf + j] += f[(size_t)p * k->nf + j];
    }
    for (uint32_t c = 0; c < k->nc; c++)
        if (k->count[c])
            for (uint32_t j = 0; j < k->nf; j++)
                k->centres[(size_t)c * k->nf + j] =
                    k->sum[(size_t)c * k->nf + j] / (float)k->count[c];
    return delta;
}

static int kmeans_next(struct workload *w, struct kernel_desc *kd, struct ws_err *e) {
    struct kmeans *k = (struct kmeans *)w;
    if (k->done) return 0;
    if (!k->inverted) { /* allocateMemory: the points to feature_flipped_d, invert_mapping */
        k->inverted = true;
        k->copies[0] = (struct wl_copy){k->d_feat, 4ull * k->np * k->nf};
        struct km_launch l = {
            .prog = &k->inv, .grid = {k->grid * k->grid, 1, 1}, .block = {KMEANS_BLOCK, 1, 1}};
        l.param[P_IN] = (int64_t)k->d_feat;
        l.param[P_OUT] = (int64_t)k->d_inv;
        l.param[P_INPTS] = k->np;
        l.param[P_INF] = k->nf;
        if (km_run_launch(k->kw.run, &l, kd, e)) return -1;
        kd->id = 0;
        kd->copies = k->copies;
        kd->ncopies = 1;
        return 1;
    }
    if (k->launches > 0) {
        k->last_delta = host_update(k);
        if (k->last_delta == 0 || (k->iters && k->launches >= k->iters) ||
            k->launches >= KMEANS_MAX_LOOPS) {
            k->done = true;
            return 0;
        }
    }
    /* kmeansCuda: membership and centres to the device (features went once, before). */
    size_t cbytes = (size_t)k->nc * k->nf * sizeof(float);
    memcpy(devmem_host(k->kw.dm, k->d_clus, cbytes), k->centres, cbytes);
    memcpy(k->used, k->centres, cbytes);
    memcpy(devmem_host(k->kw.dm, k->d_memb, 4ull * k->np), k->membership, 4ull * k->np);
    uint32_t n = 0;
    k->copies[n++] = (struct wl_copy){k->d_memb, 4ull * k->np};
    k->copies[n++] = (struct wl_copy){k->d_clus, cbytes};
    struct km_launch l = {
        .prog = &k->prog, .grid = {k->grid, k->grid, 1}, .block = {KMEANS_BLOCK, 1, 1}};
    l.param[P_FEAT] = (int64_t)k->d_feat;
    l.param[P_NF] = k->nf;
    l.param[P_NPTS] = k->np;
    l.param[P_NCL] = k->nc;
    l.param[P_MEMB] = (int64_t)k->d_memb;
    l.param[P_CLUS] = (int64_t)k->d_clus;
    if (km_run_launch(k->kw.run, &l, kd, e)) return -1;
    kd->id = 1 + k->launches++; /* after invert_mapping's 0 */
    kd->copies = k->copies;
    kd->ncopies = n;
    return 1;
}

/* The last launch's memberships against the same nearest-centre search done on the host with
 * the same float operations in the same order. */
static int kmeans_verify(struct workload *w, struct ws_err *e) {
    struct kmeans *k = (struct kmeans *)w;
    const int32_t *got = devmem_host(k->kw.dm, k->d_memb, 4ull * k->np);
    const float *f = devmem_host(k->kw.dm, k->d_feat, 4ull * k->np * k->nf);
    for (uint32_t p = 0; p < k->np; p++) {
        int32_t best = -1;
        float min_dist = FLT_MAX;
        for (uint32_t c = 0; c < k->nc; c++) {
            float ans = 0.0f;
            for (uint32_t j = 0; j < k->nf; j++) {
                float diff = f[(size_t)p * k->nf + j] - k->used[(size_t)c * k->nf + j];
                ans = fmaf(diff, diff, ans);
            }
            if (ans < min_dist) min_dist = ans, best = (int32_t)c;
        }
        if (got[p] != best)
            return ws_fail(e, "kmeans: point %u is in cluster %d, the host says %d", p, got[p],
                           best);
    }
    return 0;
}

static void kmeans_destroy(struct workload *w) {
    struct kmeans *k = (struct kmeans *)w;
    km_prog_free(&k->prog);
    km_prog_free(&k->inv);
    km_wl_fini(&k->kw);
    free(k->centres);
    free(k->used);
    free(k->membership);
    free(k->sum);
    free(k->count);
    free(k);
}

static const struct workload_vt kmeans_vt = {kmeans_next,   km_wl_cta_start, km_wl_warp_next,
                                             km_wl_cta_end, kmeans_verify,   kmeans_destroy};

static int setup(struct kmeans *k, uint64_t seed, struct ws_err *e) {
    size_t nfe = (size_t)k->np * k->nf, cn = (size_t)k->nc * k->nf;
    k->centres = malloc(cn * sizeof *k->centres);
    k->used = malloc(cn * sizeof *k->used);
    k->sum = malloc(cn * sizeof *k->sum);
    k->count = malloc(k->nc * sizeof *k->count);
    k->membership = malloc(k->np * sizeof *k->membership);
    float *truth = malloc(cn * sizeof *truth);
    if (!k->centres || !k->used || !k->sum || !k->count || !k->membership || !truth)
        return free(truth), ws_fail(e, "kmeans: out of memory");
    /* Rodinia allocateMemory order: feature_flipped_d (the points as read, point-major),
     * feature_d (invert_mapping's feature-major copy), membership, then the centres. */
    if (!(k->d_feat = devmem_alloc(k->kw.dm, 4 * nfe, "feature_flipped_d", e)) ||
        !(k->d_inv = devmem_alloc(k->kw.dm, 4 * nfe, "feature_d", e)) ||
        !(k->d_memb = devmem_alloc(k->kw.dm, 4ull * k->np, "membership_d", e)) ||
        !(k->d_clus = devmem_alloc(k->kw.dm, 4 * cn, "clusters_d", e)))
        return free(truth), -1;
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    for (size_t i = 0; i < cn; i++) truth[i] = (float)ws_rng_unit(&r);
    float *f = devmem_host(k->kw.dm, k->d_feat, 4 * nfe);
    for (uint32_t p = 0; p < k->np; p++) {
        uint32_t c = (uint32_t)ws_rng_below(&r, k->nc);
        for (uint32_t j = 0; j < k->nf; j++)
            f[(size_t)p * k->nf + j] =
                truth[(size_t)c * k->nf + j] + (float)(ws_rng_unit(&r) - 0.5) * 0.25f;
    }
    free(truth);
    for (uint32_t c = 0; c < k->nc; c++) /* the first nclusters points (point c mod np) */
        memcpy(&k->centres[(size_t)c * k->nf], &f[(size_t)(c % k->np) * k->nf], 4ull * k->nf);
    for (uint32_t p = 0; p < k->np; p++) k->membership[p] = -1;
    uint32_t blocks = (k->np + KMEANS_BLOCK - 1) / KMEANS_BLOCK, g = (uint32_t)sqrt((double)blocks);
    while ((uint64_t)g * g < blocks) g++;
    k->grid = g;
    return 0;
}

struct workload *kmeans_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct kmeans_cfg kc = {paper ? 28000 : 8192, paper ? 136 : 34, 5, paper ? 0 : 2};
    if (cfg_bind(c, "workload.kmeans", kmeans_keys, CFG_COUNT(kmeans_keys), &kc, e)) return NULL;
    struct kmeans *k = calloc(1, sizeof *k);
    if (!k) return ws_fail(e, "kmeans: out of memory"), NULL;
    if (km_wl_init(&k->kw, &kmeans_vt, "kmeans", e)) return free(k), NULL;
    k->np = (uint32_t)kc.points;
    k->nf = (uint32_t)kc.features;
    k->nc = (uint32_t)kc.clusters;
    k->iters = (uint32_t)kc.iters;
    if (km_prog_build(&k->prog, "kmeansPoint", 18, kp_code, CFG_COUNT(kp_code), e) ||
        km_prog_build(&k->inv, "invert_mapping", 30, inv_code, CFG_COUNT(inv_code), e) ||
        setup(k, (uint64_t)wc->seed, e)) {
        kmeans_destroy(&k->kw.base);
        return NULL;
    }
    return &k->kw.base;
}
