/* Gaussian elimination as Rodinia runs it (Rodinia 3.1, gaussian/gaussian.cu: host ForwardSub,
 * kernels Fan1 and Fan2). For t = 0 .. Size-2 the host launches Fan1 (one thread per row below
 * t, 512 threads per block: the multipliers m[row][t] = a[row][t] / a[t][t]) and then Fan2 (a
 * 2-D grid of 4x4-thread blocks, x over rows below t, y over columns from t: a[row][col] -=
 * m[row][t] * a[t][col]; the y == 0 threads also update b[row] -= m[row][t] * b[t]). A Fan2 block
 * is 16 threads, so every warp runs half full; its 4 x-lanes of one y walk 4 rows (Size * 4
 * bytes apart) and its 4 y-rows of lanes 4 consecutive columns. Device arrays in gaussian.cu's
 * cudaMalloc order: m_cuda, a_cuda, b_cuda (Size * Size, Size * Size, Size floats), all copied
 * to the device once before the first launch (m zeroed by InitPerRun).
 *
 * The matrix is Rodinia's create_matrix (the -s option): a[i][j] = 10 exp(-0.01 |i - j|), b = 1.
 * Sizes: test 64, paper 208 (the size of Rodinia's largest shipped input, matrix208.txt);
 * workload.gaussian.size sets any other. The division a / a[t][t] is modelled in its fast-math
 * form, MUFU.RCP then FMUL (nvcc's precise division adds a few FFMAs and a rarely taken slow
 * path around the same MUFU), and `x -= m * y` as one FFMA with m negated, as ptxas contracts it
 * (the SASS of Fan2 for sm_75 has one FFMA per update); the host check uses the same operations
 * (fmaf), so the results match bit for bit. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

enum { FAN1_BLOCK = 512, FAN2_BLOCK = 4 };
enum { P_M, P_A, P_B, P_SIZE, P_T };

/* Fan1: if (idx >= Size-1-t) return; m[Size*(idx+t+1)+t] = a[Size*(idx+t+1)+t] / a[Size*t+t]; */
static const struct km_inst fan1_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* idx */
    KM_OP2(KM_ISUB, 2, KP(P_SIZE), KP(P_T)),
    KM_OP2(KM_IADD, 2, KR(2), KI(-1)),
    KM_ISETP_(KM_GE, 0, KR(0), KR(2)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP2(KM_IADD, 3, KR(0), KP(P_T)),
    KM_OP2(KM_IADD, 3, KR(3), KI(1)),               /* row = idx + t + 1 */
    KM_OP3(KM_IMAD, 4, KR(3), KP(P_SIZE), KP(P_T)), /* Size * row + t */
    KM_OP3(KM_IMAD, 5, KR(4), KI(4), KP(P_A)),
    KM_LDG(4, 6, KR(5), 0), /* a[row][t] */
    KM_OP3(KM_IMAD, 7, KP(P_T), KP(P_SIZE), KP(P_T)),
    KM_OP3(KM_IMAD, 7, KR(7), KI(4), KP(P_A)),
    KM_LDG(4, 8, KR(7), 0), /* a[t][t] */
    KM_MUFU_(KM_RCP, 8, KR(8)),
    KM_OP2(KM_FMUL, 6, KR(6), KR(8)),
    KM_OP3(KM_IMAD, 9, KR(4), KI(4), KP(P_M)),
    KM_STG(4, KR(9), 0, KR(6)), /* m[row][t] */
    KM_LBL("end"),
    KM_EXIT_(),
};

/* Fan2. The stores to a may alias m and b (no restrict), so m[row][t] is loaded again for b. */
static const struct km_inst fan2_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* xidx */
    KM_OP2(KM_ISUB, 2, KP(P_SIZE), KP(P_T)),
    KM_OP2(KM_IADD, 2, KR(2), KI(-1)),
    KM_ISETP_(KM_GE, 0, KR(0), KR(2)),
    KM_BRA_IF(0, "end", "end"),
    KM_S2R(3, SR_TID_Y),
    KM_S2R(4, SR_CTAID_Y),
    KM_OP3(KM_IMAD, 3, KR(4), KS(SR_NTID_Y), KR(3)), /* yidx */
    KM_OP2(KM_ISUB, 5, KP(P_SIZE), KP(P_T)),
    KM_ISETP_(KM_GE, 0, KR(3), KR(5)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP2(KM_IADD, 6, KR(0), KP(P_T)),
    KM_OP2(KM_IADD, 6, KR(6), KI(1)),           /* row */
    KM_OP3(KM_IMAD, 7, KR(6), KP(P_SIZE), KRZ), /* Size * row */
    KM_OP2(KM_IADD, 8, KR(3), KP(P_T)),         /* col = yidx + t */
    KM_OP2(KM_IADD, 9, KR(7), KP(P_T)),
    KM_OP3(KM_IMAD, 9, KR(9), KI(4), KP(P_M)),
    KM_LDG(4, 10, KR(9), 0), /* m[row][t] */
    KM_OP3(KM_IMAD, 11, KP(P_T), KP(P_SIZE), KR(8)),
    KM_OP3(KM_IMAD, 11, KR(11), KI(4), KP(P_A)),
    KM_LDG(4, 12, KR(11), 0), /* a[t][col] */
    KM_OP2(KM_IADD, 13, KR(7), KR(8)),
    KM_OP3(KM_IMAD, 13, KR(13), KI(4), KP(P_A)),
    KM_LDG(4, 14, KR(13), 0),                 /* a[row][col] */
    KM_FFMA_NEG_(14, KR(10), KR(12), KR(14)), /* a[row][col] - m * a[t][col], one FFMA */
    KM_STG(4, KR(13), 0, KR(14)),
    KM_ISETP_(KM_NE, 0, KR(3), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 15, KR(6), KI(4), KP(P_B)),
    KM_LDG(4, 16, KR(15), 0), /* b[row] */
    KM_OP3(KM_IMAD, 17, KP(P_T), KI(4), KP(P_B)),
    KM_LDG(4, 17, KR(17), 0), /* b[t] */
    KM_OP2(KM_IADD, 18, KR(7), KR(8)),
    KM_OP3(KM_IMAD, 18, KR(18), KI(4), KP(P_M)),
    KM_LDG(4, 18, KR(18), 0), /* m[row][yidx + t] */
    KM_FFMA_NEG_(16, KR(18), KR(17), KR(16)),
    KM_STG(4, KR(15), 0, KR(16)),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* create_matrix: 10 exp(lamda |i - j|), lamda = -0.01f, exp in double, stored as float. */
static float coef(uint32_t i, uint32_t j) {
    return (float)(10.0 * exp((double)(-0.01f * (float)(i > j ? i - j : j - i))));
}

struct gaussian_cfg {
    int64_t size;
};
static const struct cfg_key gaussian_keys[] = {
    {"workload.gaussian.size", CFG_INT, offsetof(struct gaussian_cfg, size), NULL, 2, 8192, NULL,
     "rows", "matrix order (preset by workload.size: test 64, paper 208)"},
};

struct gaussian {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog fan1, fan2;
    uint32_t n;
    uint64_t d_m, d_a, d_b;
    uint32_t t;     /* the current elimination step */
    bool fan2_next; /* Fan1 of step t ran; Fan2 comes next */
    uint32_t launches;
    struct wl_copy copies[3];
};

static int gaussian_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct gaussian *g = (struct gaussian *)w;
    if (g->t + 1 >= g->n) return 0;
    struct km_launch l = {.prog = g->fan2_next ? &g->fan2 : &g->fan1};
    if (g->fan2_next) {
        uint32_t grid = (g->n + FAN2_BLOCK - 1) / FAN2_BLOCK;
        l.grid[0] = l.grid[1] = grid, l.grid[2] = 1;
        l.block[0] = l.block[1] = FAN2_BLOCK, l.block[2] = 1;
    } else {
        l.grid[0] = (g->n + FAN1_BLOCK - 1) / FAN1_BLOCK, l.grid[1] = l.grid[2] = 1;
        l.block[0] = FAN1_BLOCK, l.block[1] = l.block[2] = 1;
    }
    l.param[P_M] = (int64_t)g->d_m;
    l.param[P_A] = (int64_t)g->d_a;
    l.param[P_B] = (int64_t)g->d_b;
    l.param[P_SIZE] = g->n;
    l.param[P_T] = g->t;
    if (km_run_launch(g->kw.run, &l, k, e)) return -1;
    k->id = g->launches;
    k->copies = g->copies;
    k->ncopies = g->launches == 0 ? 3 : 0;
    g->launches++;
    if (g->fan2_next) g->t++;
    g->fan2_next = !g->fan2_next;
    return 1;
}

/* The same elimination on the host, in the same float operations; m, a and b must match. */
static int gaussian_verify(struct workload *w, struct ws_err *e) {
    struct gaussian *g = (struct gaussian *)w;
    uint32_t n = g->n;
    size_t nn = (size_t)n * n;
    float *m = calloc(nn, sizeof *m), *a = malloc(nn * sizeof *a), *b = malloc(n * sizeof *b);
    int rc = 0;
    if (!m || !a || !b) {
        rc = ws_fail(e, "gaussian: out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < n; i++) {
        b[i] = 1.0f;
        for (uint32_t j = 0; j < n; j++) a[(size_t)i * n + j] = coef(i, j);
    }
    for (uint32_t t = 0; t + 1 < n; t++) {
        float r = 1.0f / a[(size_t)t * n + t];
        for (uint32_t row = t + 1; row < n; row++)
            m[(size_t)row * n + t] = a[(size_t)row * n + t] * r;
        for (uint32_t row = t + 1; row < n; row++) {
            float mr = m[(size_t)row * n + t];
            for (uint32_t col = t; col < n; col++)
                a[(size_t)row * n + col] =
                    fmaf(-mr, a[(size_t)t * n + col], a[(size_t)row * n + col]);
            b[row] = fmaf(-mr, b[t], b[row]);
        }
    }
    const float *dm = devmem_host(g->kw.dm, g->d_m, 4 * nn),
                *da = devmem_host(g->kw.dm, g->d_a, 4 * nn),
                *db = devmem_host(g->kw.dm, g->d_b, 4ull * n);
    for (size_t i = 0; i < nn && rc == 0; i++) {
        if (memcmp(&dm[i], &m[i], 4))
            rc = ws_fail(e, "gaussian: m[%zu][%zu] = %g, the host says %g", i / n, i % n, dm[i],
                         m[i]);
        else if (memcmp(&da[i], &a[i], 4))
            rc = ws_fail(e, "gaussian: a[%zu][%zu] = %g, the host says %g", i / n, i % n, da[i],
                         a[i]);
    }
    for (uint32_t i = 0; i < n && rc == 0; i++)
        if (memcmp(&db[i], &b[i], 4))
            rc = ws_fail(e, "gaussian: b[%u] = %g, the host says %g", i, db[i], b[i]);
out:
    free(m);
    free(a);
    free(b);
    return rc;
}

static void gaussian_destroy(struct workload *w) {
    struct gaussian *g = (struct gaussian *)w;
    km_prog_free(&g->fan1);
    km_prog_free(&g->fan2);
    km_wl_fini(&g->kw);
    free(g);
}

static const struct workload_vt gaussian_vt = {gaussian_next, km_wl_cta_start, km_wl_warp_next,
                                               km_wl_cta_end, gaussian_verify, gaussian_destroy};

struct workload *gaussian_create(struct cfg *c, const struct workload_common *wc,
                                 struct ws_err *e) {
    struct gaussian_cfg gc = {wc->size == WL_SIZE_PAPER ? 208 : 64};
    if (cfg_bind(c, "workload.gaussian", gaussian_keys, CFG_COUNT(gaussian_keys), &gc, e))
        return NULL;
    struct gaussian *g = calloc(1, sizeof *g);
    if (!g) return ws_fail(e, "gaussian: out of memory"), NULL;
    if (km_wl_init(&g->kw, &gaussian_vt, "gaussian", e)) return free(g), NULL;
    g->n = (uint32_t)gc.size;
    uint64_t nn = (uint64_t)g->n * g->n;
    if (km_prog_build(&g->fan1, "Fan1", 10, fan1_code, CFG_COUNT(fan1_code), e) ||
        km_prog_build(&g->fan2, "Fan2", 19, fan2_code, CFG_COUNT(fan2_code), e) ||
        !(g->d_m = devmem_alloc(g->kw.dm, 4 * nn, "m_cuda", e)) ||
        !(g->d_a = devmem_alloc(g->kw.dm, 4 * nn, "a_cuda", e)) ||
        !(g->d_b = devmem_alloc(g->kw.dm, 4ull * g->n, "b_cuda", e))) {
        gaussian_destroy(&g->kw.base);
        return NULL;
    }
    float *a = devmem_host(g->kw.dm, g->d_a, 4 * nn),
          *b = devmem_host(g->kw.dm, g->d_b, 4ull * g->n);
    for (uint32_t i = 0; i < g->n; i++) {
        b[i] = 1.0f;
        for (uint32_t j = 0; j < g->n; j++) a[(size_t)i * g->n + j] = coef(i, j);
    }
    g->copies[0] = (struct wl_copy){g->d_m, 4 * nn};
    g->copies[1] = (struct wl_copy){g->d_a, 4 * nn};
    g->copies[2] = (struct wl_copy){g->d_b, 4ull * g->n};
    return &g->kw.base;
}
