/* Streamcluster as Rodinia runs it on the GPU (Rodinia 3.1, streamcluster/streamcluster_cuda.cu:
 * host pgain, kernel kernel_compute_cost): each pgain(x) call asks whether opening point x as a
 * centre saves cost. One thread per point, 512 per block: the distance to x over `dim`
 * coordinates stored dimension-major (coord_d[i * num + tid], coalesced, and coord_d[i * num + x],
 * one address for the whole warp), then the point's record p[tid] (weight, assign, cost: a
 * 32-byte struct, so these are the array-of-struct loads, 8 lines per warp), and one
 * read-modify-write of the thread's own row of work_mem (at column K when x is closer, else at
 * the column of its centre through center_table[p[tid].assign], a gather). The host then runs
 * pgain's serial part on the copied-back work_mem: it closes centres whose lower bound is
 * positive, and if opening x saves cost reassigns the switching points and opens x.
 *
 * Device memory in pgain's cudaMalloc order: work_mem_d (stride x (num + 1) floats, allocated
 * afresh by every call; GPGPU-Sim's allocator never reuses freed blocks, so later calls' rows
 * land after the other arrays), then on the first call center_table_d (num ints),
 * switch_membership_d (num bools), p (num Points), coord_d (num x dim floats). Points are
 * SimStream's: uniform coordinates in [0, 1), weight 1 (a deterministic generator here). The
 * clustering state before the first call stands for pspeedy's: `centers` centres at
 * pseudo-random points, every point assigned to its nearest. The candidates x are
 * pseudo-random points, as pFL draws them. Sizes: test 2048 points of 32 dimensions, 2 calls;
 * paper 262144 points (seed 001: "256K points", 2 kernel invocations simulated) of 256
 * dimensions (Rodinia's run script); workload.streamcluster.{points,dim,calls,centers}. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

enum { SC_BLOCK = 512, PT_BYTES = 32, PT_WEIGHT = 0, PT_ASSIGN = 16, PT_COST = 24 };
enum { P_NUM, P_DIM, P_X, P_P, P_K, P_STRIDE, P_COORD, P_WORK, P_CT, P_SW };

static const struct km_inst cost_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_S2R(2, SR_CTAID_Y),
    KM_OP3(KM_IMAD, 1, KS(SR_NCTAID_X), KR(2), KR(1)), /* bid */
    KM_OP3(KM_IMAD, 0, KS(SR_NTID_X), KR(1), KR(0)),   /* tid */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_NUM)),
    KM_BRA_IF(0, "end", "end"),
    /* d_dist(tid, x, num, dim, coord_d) */
    KM_MOV_(3, KF(0.0f)),
    KM_MOV_(4, KRZ), /* i */
    KM_OP3(KM_IMAD, 5, KR(0), KI(4), KP(P_COORD)),
    KM_OP3(KM_IMAD, 6, KP(P_X), KI(4), KP(P_COORD)),
    KM_OP2(KM_SHL, 7, KP(P_NUM), KI(2)),
    KM_ISETP_(KM_GE, 0, KR(4), KP(P_DIM)),
    KM_BRA_IF(0, "distdone", "distdone"),
    KM_LBL("dist"),
    KM_LDG(4, 8, KR(5), 0), /* coord_d[i * num + tid] */
    KM_LDG(4, 9, KR(6), 0), /* coord_d[i * num + x] */
    KM_OP2(KM_FSUB, 8, KR(8), KR(9)),
    KM_OP3(KM_FFMA, 3, KR(8), KR(8), KR(3)),
    KM_OP2(KM_IADD, 5, KR(5), KR(7)),
    KM_OP2(KM_IADD, 6, KR(6), KR(7)),
    KM_OP2(KM_IADD, 4, KR(4), KI(1)),
    KM_ISETP_(KM_LT, 0, KR(4), KP(P_DIM)),
    KM_BRA_IF(0, "dist", "distdone"),
    KM_LBL("distdone"),
    KM_OP3(KM_IMAD, 10, KR(0), KI(PT_BYTES), KP(P_P)),
    KM_LDG(4, 11, KR(10), PT_WEIGHT),
    KM_OP2(KM_FMUL, 3, KR(3), KR(11)), /* x_cost */
    KM_LDG(4, 12, KR(10), PT_COST),
    KM_OP3(KM_IMAD, 13, KR(0), KP(P_STRIDE), KRZ), /* tid * stride */
    KM_FSETP_(KM_LT, 0, KR(3), KR(12)),
    KM_BRA_IFN(0, "keep", "end"),
    KM_OP2(KM_IADD, 14, KR(0), KP(P_SW)),
    {.op = KM_ST, .space = SPACE_GLOBAL, .width = 1, .a = KR(14), .b = KI(1)}, /* switch = 1 */
    KM_OP2(KM_IADD, 15, KR(13), KP(P_K)),
    KM_OP3(KM_IMAD, 15, KR(15), KI(4), KP(P_WORK)),
    KM_LDG(4, 16, KR(15), 0),
    KM_OP2(KM_FSUB, 17, KR(3), KR(12)),
    KM_OP2(KM_FADD, 16, KR(16), KR(17)),
    KM_STG(4, KR(15), 0, KR(16)), /* lower[K] += x_cost - cost */
    KM_BRA_("end"),
    KM_LBL("keep"),
    KM_LDG(8, 18, KR(10), PT_ASSIGN),
    KM_OP3(KM_IMAD, 18, KR(18), KI(4), KP(P_CT)),
    KM_LDG_S(4, 19, KR(18), 0), /* center_table[p[tid].assign] */
    KM_OP2(KM_IADD, 15, KR(13), KR(19)),
    KM_OP3(KM_IMAD, 15, KR(15), KI(4), KP(P_WORK)),
    KM_LDG(4, 16, KR(15), 0),
    KM_OP2(KM_FSUB, 17, KR(12), KR(3)),
    KM_OP2(KM_FADD, 16, KR(16), KR(17)),
    KM_STG(4, KR(15), 0, KR(16)), /* lower[center_table[assign]] += cost - x_cost */
    KM_LBL("end"),
    KM_EXIT_(),
};

struct sc_cfg {
    int64_t points, dim, calls, centers;
};
static const struct cfg_key sc_keys[] = {
    {"workload.streamcluster.points", CFG_INT, offsetof(struct sc_cfg, points), NULL, 2, 1 << 24,
     NULL, "points", "points (preset by workload.size: test 2048, paper 262144)"},
    {"workload.streamcluster.dim", CFG_INT, offsetof(struct sc_cfg, dim), NULL, 1, 4096, NULL,
     "dimensions", "coordinates per point (preset by workload.size: test 32, paper 256)"},
    {"workload.streamcluster.calls", CFG_INT, offsetof(struct sc_cfg, calls), NULL, 1, 100000, NULL,
     "launches", "pgain calls, one kernel each (preset 2)"},
    {"workload.streamcluster.centers", CFG_INT, offsetof(struct sc_cfg, centers), NULL, 1, 1000,
     NULL, "centres", "open centres before the first call (preset 10, Rodinia's k1)"},
};

struct sc_state {
    int64_t *assign;
    float *cost;
    bool *is_center;
    int32_t *ct; /* center_table */
    uint32_t k;  /* numcenters */
};

struct streamcluster {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog;
    uint32_t num, dim, calls, launches, after;
    uint64_t d_work, d_ct, d_sw, d_p, d_coord;
    float *coord;               /* dimension-major: coord_d's host backing */
    struct sc_state st, before; /* now, and before the last launch (for verify) */
    uint32_t x, stride;
    struct wl_copy copies[3];
};

static uint32_t mix(uint32_t x) {
    x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
    return x;
}

/* The same float distance as d_dist (FFMA accumulation), weight 1 included by the caller. */
static float dist(const struct streamcluster *s, uint32_t a, uint32_t b) {
    float r = 0.0f;
    for (uint32_t i = 0; i < s->dim; i++) {
        float t = s->coord[(size_t)i * s->num + a] - s->coord[(size_t)i * s->num + b];
        r = fmaf(t, t, r);
    }
    return r;
}

static int st_alloc(struct sc_state *t, uint32_t n) {
    t->assign = calloc(n, sizeof *t->assign);
    t->cost = calloc(n, sizeof *t->cost);
    t->is_center = calloc(n, sizeof *t->is_center);
    t->ct = calloc(n, sizeof *t->ct);
    return t->assign && t->cost && t->is_center && t->ct ? 0 : -1;
}
static void st_free(struct sc_state *t) {
    free(t->assign), free(t->cost), free(t->is_center), free(t->ct);
}
static void st_copy(struct sc_state *d, const struct sc_state *s, uint32_t n) {
    memcpy(d->assign, s->assign, n * sizeof *d->assign);
    memcpy(d->cost, s->cost, n * sizeof *d->cost);
    memcpy(d->is_center, s->is_center, n * sizeof *d->is_center);
    memcpy(d->ct, s->ct, n * sizeof *d->ct);
    d->k = s->k;
}

/* pgain's serial part after the kernel (z = the facility cost). */
static void host_after(struct streamcluster *s, const float *work, const uint8_t *sw) {
    struct sc_state *t = &s->st;
    uint32_t num = s->num, stride = s->stride, K = t->k;
    float *wm = malloc((size_t)stride * (num + 1) * sizeof *wm);
    if (!wm) return; /* the state then simply stays as it is */
    memcpy(wm, work, (size_t)stride * (num + 1) * sizeof *wm);
    float z = 1.0f, gl = z, *lower = &wm[(size_t)stride * num];
    uint32_t close = 0;
    for (uint32_t i = 0; i < num; i++) {
        if (t->is_center[i]) {
            float low = z;
            for (uint32_t j = 0; j < num; j++) low += wm[(size_t)j * stride + (uint32_t)t->ct[i]];
            lower[t->ct[i]] = low;
            if (low > 0) {
                close++;
                wm[(size_t)i * stride + K] -= low;
            }
        }
        gl += wm[(size_t)i * stride + K];
    }
    if (gl < 0) {
        for (uint32_t i = 0; i < num; i++) {
            bool cl = lower[t->ct[t->assign[i]]] > 0;
            if (sw[i] || cl) {
                t->cost[i] = dist(s, i, s->x);
                t->assign[i] = s->x;
            }
        }
        for (uint32_t i = 0; i < num; i++)
            if (t->is_center[i] && lower[t->ct[i]] > 0) t->is_center[i] = false;
        t->is_center[s->x] = true;
        t->k = t->k + 1 - close;
    }
    free(wm);
}

static void put_points(struct streamcluster *s) {
    uint8_t *p = devmem_host(s->kw.dm, s->d_p, (uint64_t)PT_BYTES * s->num);
    for (uint32_t i = 0; i < s->num; i++) {
        float w = 1.0f;
        memcpy(p + (size_t)PT_BYTES * i + PT_WEIGHT, &w, 4);
        memcpy(p + (size_t)PT_BYTES * i + PT_ASSIGN, &s->st.assign[i], 8);
        memcpy(p + (size_t)PT_BYTES * i + PT_COST, &s->st.cost[i], 4);
    }
}

static int sc_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct streamcluster *s = (struct streamcluster *)w;
    if (s->after < s->launches) /* the previous call's serial part */
        s->after++, host_after(s, devmem_host(s->kw.dm, s->d_work, 4ull * s->stride * (s->num + 1)),
                               devmem_host(s->kw.dm, s->d_sw, s->num));
    if (s->launches >= s->calls) return 0;
    struct sc_state *t = &s->st;
    s->stride = t->k + 1;
    uint32_t count = 0;
    for (uint32_t i = 0; i < s->num; i++)
        if (t->is_center[i]) t->ct[i] = (int32_t)count++;
    s->x = mix(0x5c000000u + s->launches) % s->num;
    /* the first call's arrays were allocated with the points (first_arrays) */
    if (s->launches > 0 &&
        !(s->d_work = devmem_alloc(s->kw.dm, 4ull * s->stride * (s->num + 1), "work_mem_d", e)))
        return -1;
    memcpy(devmem_host(s->kw.dm, s->d_ct, 4ull * s->num), t->ct, 4ull * s->num);
    put_points(s);
    memset(devmem_host(s->kw.dm, s->d_sw, s->num), 0, s->num); /* cudaMemset */
    st_copy(&s->before, t, s->num);
    uint32_t nb = (s->num + SC_BLOCK - 1) / SC_BLOCK, nby = (nb + 65535) / 65536,
             nbx = (nb + nby - 1) / nby;
    struct km_launch l = {.prog = &s->prog};
    l.grid[0] = nbx, l.grid[1] = nby, l.grid[2] = 1;
    l.block[0] = SC_BLOCK, l.block[1] = l.block[2] = 1;
    l.param[P_NUM] = s->num;
    l.param[P_DIM] = s->dim;
    l.param[P_X] = s->x;
    l.param[P_P] = (int64_t)s->d_p;
    l.param[P_K] = t->k;
    l.param[P_STRIDE] = s->stride;
    l.param[P_COORD] = (int64_t)s->d_coord;
    l.param[P_WORK] = (int64_t)s->d_work;
    l.param[P_CT] = (int64_t)s->d_ct;
    l.param[P_SW] = (int64_t)s->d_sw;
    if (km_run_launch(s->kw.run, &l, k, e)) return -1;
    uint32_t nc = 0;
    if (s->launches == 0) km_copy_add(s->copies, &nc, 3, s->d_coord, 4ull * s->num * s->dim);
    km_copy_add(s->copies, &nc, 3, s->d_ct, 4ull * s->num);
    km_copy_add(s->copies, &nc, 3, s->d_p, (uint64_t)PT_BYTES * s->num);
    k->id = s->launches++;
    k->copies = s->copies;
    k->ncopies = nc;
    return 1;
}

/* The last launch on the host, from the state it started with: work_mem and the switches. */
static int sc_verify(struct workload *w, struct ws_err *e) {
    struct streamcluster *s = (struct streamcluster *)w;
    if (s->launches == 0) return 0;
    const struct sc_state *t = &s->before;
    uint32_t num = s->num, stride = s->stride;
    const float *work = devmem_host(s->kw.dm, s->d_work, 4ull * stride * (num + 1));
    const uint8_t *sw = devmem_host(s->kw.dm, s->d_sw, num);
    for (uint32_t i = 0; i < num; i++) {
        float xc = dist(s, i, s->x) * 1.0f;
        bool take = xc < t->cost[i];
        uint32_t col = take ? t->k : (uint32_t)t->ct[t->assign[i]];
        float v = 0.0f + (take ? xc - t->cost[i] : t->cost[i] - xc);
        for (uint32_t c = 0; c < stride; c++) {
            float want = c == col ? v : 0.0f;
            if (memcmp(&work[(size_t)i * stride + c], &want, 4))
                return ws_fail(e, "streamcluster: work_mem[%u][%u] = %.9g, the host says %.9g", i,
                               c, work[(size_t)i * stride + c], want);
        }
        if (sw[i] != take)
            return ws_fail(e, "streamcluster: switch_membership[%u] = %u, the host says %d", i,
                           sw[i], take);
    }
    return 0;
}

static void sc_destroy(struct workload *w) {
    struct streamcluster *s = (struct streamcluster *)w;
    km_prog_free(&s->prog);
    km_wl_fini(&s->kw);
    st_free(&s->st);
    st_free(&s->before);
    free(s);
}

static const struct workload_vt sc_vt = {sc_next,       km_wl_cta_start, km_wl_warp_next,
                                         km_wl_cta_end, sc_verify,       sc_destroy};

/* The first pgain call's cudaMallocs, in its order, made when the points are: its work_mem_d
 * has k + 1 = centers + 1 columns (the starting clustering has exactly `centers` centres). The
 * points are generated straight into coord_d, which the host reads from then on (cudaMemcpy'd at
 * the first launch), so the largest array is held once. */
static int first_arrays(struct streamcluster *s, uint32_t centers, struct ws_err *e) {
    struct devmem *dm = s->kw.dm;
    if (!(s->d_work = devmem_alloc(dm, 4ull * (centers + 1) * (s->num + 1), "work_mem_d", e)) ||
        !(s->d_ct = devmem_alloc(dm, 4ull * s->num, "center_table_d", e)) ||
        !(s->d_sw = devmem_alloc(dm, s->num, "switch_membership_d", e)) ||
        !(s->d_p = devmem_alloc(dm, (uint64_t)PT_BYTES * s->num, "p", e)) ||
        !(s->d_coord = devmem_alloc(dm, 4ull * s->num * s->dim, "coord_d", e)))
        return -1;
    s->coord = devmem_host(dm, s->d_coord, 4ull * s->num * s->dim);
    return 0;
}

struct workload *streamcluster_create(struct cfg *c, const struct workload_common *wc,
                                      struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct sc_cfg sc = {paper ? 262144 : 2048, paper ? 256 : 32, 2, 10};
    if (cfg_bind(c, "workload.streamcluster", sc_keys, CFG_COUNT(sc_keys), &sc, e)) return NULL;
    char where[600];
    if (sc.centers > sc.points)
        return ws_fail(e, "%s: workload.streamcluster.centers = %lld exceeds the %lld points",
                       cfg_origin(c, "workload.streamcluster.centers", where, sizeof where),
                       (long long)sc.centers, (long long)sc.points),
               NULL;
    struct streamcluster *s = calloc(1, sizeof *s);
    if (!s) return ws_fail(e, "streamcluster: out of memory"), NULL;
    if (km_wl_init(&s->kw, &sc_vt, "streamcluster", e)) return free(s), NULL;
    s->num = (uint32_t)sc.points, s->dim = (uint32_t)sc.dim, s->calls = (uint32_t)sc.calls;
    if (first_arrays(s, (uint32_t)sc.centers, e) || st_alloc(&s->st, s->num) ||
        st_alloc(&s->before, s->num) ||
        km_prog_build(&s->prog, "kernel_compute_cost", 20, cost_code, CFG_COUNT(cost_code), e)) {
        if (!e->msg[0]) ws_fail(e, "streamcluster: out of memory");
        sc_destroy(&s->kw.base);
        return NULL;
    }
    for (size_t i = 0; i < (size_t)s->num * s->dim; i++)
        s->coord[i] = (float)(mix((uint32_t)i ^ 0x9e3779b9u) >> 8) / 16777216.0f;
    /* The starting clustering: `centers` distinct centres, every point at its nearest. */
    uint32_t *cen = malloc((size_t)sc.centers * sizeof *cen), nc = 0;
    if (!cen) {
        ws_fail(e, "streamcluster: out of memory");
        sc_destroy(&s->kw.base);
        return NULL;
    }
    for (uint32_t h = 0; nc < (uint32_t)sc.centers; h++) {
        uint32_t p = mix(0xc0000000u + h) % s->num;
        if (!s->st.is_center[p]) s->st.is_center[p] = true, cen[nc++] = p;
    }
    for (uint32_t i = 0; i < s->num; i++) {
        float best = 0;
        for (uint32_t j = 0; j < nc; j++) {
            float d = dist(s, i, cen[j]);
            if (j == 0 || d < best) best = d, s->st.assign[i] = cen[j];
        }
        s->st.cost[i] = best;
    }
    s->st.k = nc;
    free(cen);
    return &s->kw.base;
}
