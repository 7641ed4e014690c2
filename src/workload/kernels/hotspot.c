/* HotSpot as Rodinia runs it (Rodinia 3.1, hotspot/hotspot.cu: host compute_tran_temp, kernel
 * calculate_temp). The chip is a rows x cols grid of temperatures and powers; one launch advances
 * it `iteration` (the pyramid height) time steps. Each 16x16-thread block loads a 16x16 tile of
 * temp_src and power into shared memory (temp_on_cuda, power_on_cuda), bar.sync, then runs the
 * pyramid: in step i the threads with i+1 <= tx, ty <= 14-i (and inside the grid) compute the
 * 5-point update into temp_t, bar.sync, copy it back into temp_on_cuda, bar.sync; neighbours are
 * clamped to the grid. Blocks overlap by the pyramid's border (small block = 16 - 2 iteration),
 * so the last step's threads write exactly the small block to temp_dst. The host swaps the two
 * temperature buffers per launch (src = 1, dst = 0, swapped before each launch). As in the
 * source, the kernel derives the small block from its `iteration` argument while the grid and
 * border come from the pyramid height, so a last, shorter launch places its blocks differently
 * (they still cover the grid).
 *
 * Device arrays in hotspot.cu's cudaMalloc order: MatrixTemp[0], MatrixTemp[1], MatrixPower
 * (rows * cols floats each); MatrixTemp[0] and MatrixPower are copied in. The input files
 * (temp_512, power_512) are not shipped; a deterministic generator gives temperatures in
 * [323, 343) K and powers in [0, 1e-3) W, the ranges of Rodinia's files. Sizes: test 64x64 with
 * pyramid 2 and 4 steps (2 launches); paper 512x512, pyramid 2, 2 steps (Rodinia's run script:
 * `hotspot 512 2 2 temp_512 power_512`, one launch). workload.hotspot.{size,pyramid,steps}.
 *
 * Arithmetic: the source writes `2.0*temp_on_cuda[ty][tx]`, so nvcc computes the update in
 * double; the model uses the same operations in float (FADD, FFMA, FSUB) and so does the host
 * check, which therefore matches bit for bit. step/Cap and 1/Rx, 1/Ry, 1/Rz are computed per
 * thread as in the kernel (MUFU.RCP, FMUL). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

enum { HS_BLOCK = 16, SM_TEMP = 0, SM_POWER = 1024, SM_TT = 2048, SM_BYTES = 3072 };
enum {
    P_ITER,
    P_POWER,
    P_SRC,
    P_DST,
    P_COLS,
    P_ROWS,
    P_BCOLS,
    P_BROWS,
    P_CAP,
    P_RX,
    P_RY,
    P_RZ,
    P_STEP
};

static const struct km_inst calc_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_TID_Y),
    KM_S2R(2, SR_CTAID_X),
    KM_S2R(3, SR_CTAID_Y),
    KM_MUFU_(KM_RCP, 4, KP(P_CAP)),
    KM_OP2(KM_FMUL, 4, KP(P_STEP), KR(4)),                /* step_div_Cap */
    KM_MUFU_(KM_RCP, 5, KP(P_RX)),                        /* Rx_1 */
    KM_MUFU_(KM_RCP, 6, KP(P_RY)),                        /* Ry_1 */
    KM_MUFU_(KM_RCP, 7, KP(P_RZ)),                        /* Rz_1 */
    KM_OP3(KM_IMAD, 8, KP(P_ITER), KI(-2), KI(HS_BLOCK)), /* small_block_rows = cols */
    KM_OP3(KM_IMAD, 9, KR(8), KR(3), KRZ),
    KM_OP2(KM_ISUB, 9, KR(9), KP(P_BROWS)), /* blkY */
    KM_OP3(KM_IMAD, 10, KR(8), KR(2), KRZ),
    KM_OP2(KM_ISUB, 10, KR(10), KP(P_BCOLS)),        /* blkX */
    KM_OP2(KM_IADD, 11, KR(9), KR(1)),               /* yidx */
    KM_OP2(KM_IADD, 12, KR(10), KR(0)),              /* xidx */
    KM_OP3(KM_IMAD, 13, KR(11), KP(P_COLS), KR(12)), /* index */
    KM_OP3(KM_IMAD, 14, KR(1), KI(HS_BLOCK), KR(0)),
    KM_OP2(KM_SHL, 14, KR(14), KI(2)), /* &[ty][tx] in each tile */
    KM_ISETP_(KM_LT, 0, KR(11), KRZ),
    KM_BRA_IF(0, "loaded", "loaded"),
    KM_ISETP_(KM_GE, 0, KR(11), KP(P_ROWS)),
    KM_BRA_IF(0, "loaded", "loaded"),
    KM_ISETP_(KM_LT, 0, KR(12), KRZ),
    KM_BRA_IF(0, "loaded", "loaded"),
    KM_ISETP_(KM_GE, 0, KR(12), KP(P_COLS)),
    KM_BRA_IF(0, "loaded", "loaded"),
    KM_OP3(KM_IMAD, 15, KR(13), KI(4), KP(P_SRC)),
    KM_LDG(4, 16, KR(15), 0), /* temp_src[index] */
    KM_OP3(KM_IMAD, 15, KR(13), KI(4), KP(P_POWER)),
    KM_LDG(4, 17, KR(15), 0), /* power[index] */
    KM_STS(4, KR(14), SM_TEMP, KR(16)),
    KM_STS(4, KR(14), SM_POWER, KR(17)),
    KM_LBL("loaded"),
    KM_BAR_(),
    /* validYmin = max(-blkY, 0), validYmax = min(15, rows-1-blkY), the same in x */
    KM_OP2(KM_ISUB, 18, KRZ, KR(9)),
    KM_OP2(KM_IMAX, 18, KR(18), KRZ),
    KM_OP2(KM_ISUB, 19, KP(P_ROWS), KR(9)),
    KM_OP2(KM_IADD, 19, KR(19), KI(-1)),
    KM_OP2(KM_IMIN, 19, KR(19), KI(HS_BLOCK - 1)),
    KM_OP2(KM_ISUB, 20, KRZ, KR(10)),
    KM_OP2(KM_IMAX, 20, KR(20), KRZ),
    KM_OP2(KM_ISUB, 21, KP(P_COLS), KR(10)),
    KM_OP2(KM_IADD, 21, KR(21), KI(-1)),
    KM_OP2(KM_IMIN, 21, KR(21), KI(HS_BLOCK - 1)),
    /* N, S, W, E clamped, as tile byte offsets */
    KM_OP2(KM_IADD, 22, KR(1), KI(-1)),
    KM_OP2(KM_IMAX, 22, KR(22), KR(18)),
    KM_OP3(KM_IMAD, 22, KR(22), KI(HS_BLOCK), KR(0)),
    KM_OP2(KM_SHL, 22, KR(22), KI(2)),
    KM_OP2(KM_IADD, 23, KR(1), KI(1)),
    KM_OP2(KM_IMIN, 23, KR(23), KR(19)),
    KM_OP3(KM_IMAD, 23, KR(23), KI(HS_BLOCK), KR(0)),
    KM_OP2(KM_SHL, 23, KR(23), KI(2)),
    KM_OP2(KM_IADD, 24, KR(0), KI(-1)),
    KM_OP2(KM_IMAX, 24, KR(24), KR(20)),
    KM_OP3(KM_IMAD, 24, KR(1), KI(HS_BLOCK), KR(24)),
    KM_OP2(KM_SHL, 24, KR(24), KI(2)),
    KM_OP2(KM_IADD, 25, KR(0), KI(1)),
    KM_OP2(KM_IMIN, 25, KR(25), KR(21)),
    KM_OP3(KM_IMAD, 25, KR(1), KI(HS_BLOCK), KR(25)),
    KM_OP2(KM_SHL, 25, KR(25), KI(2)),
    KM_MOV_(26, KRZ), /* i */
    KM_LBL("loop"),
    KM_MOV_(27, KRZ), /* computed */
    KM_OP2(KM_IADD, 28, KR(26), KI(1)),
    KM_OP2(KM_ISUB, 29, KI(HS_BLOCK - 2), KR(26)),
    KM_ISETP_(KM_LT, 0, KR(0), KR(28)),
    KM_BRA_IF(0, "skip", "skip"),
    KM_ISETP_(KM_GT, 0, KR(0), KR(29)),
    KM_BRA_IF(0, "skip", "skip"),
    KM_ISETP_(KM_LT, 0, KR(1), KR(28)),
    KM_BRA_IF(0, "skip", "skip"),
    KM_ISETP_(KM_GT, 0, KR(1), KR(29)),
    KM_BRA_IF(0, "skip", "skip"),
    KM_ISETP_(KM_LT, 0, KR(0), KR(20)),
    KM_BRA_IF(0, "skip", "skip"),
    KM_ISETP_(KM_GT, 0, KR(0), KR(21)),
    KM_BRA_IF(0, "skip", "skip"),
    KM_ISETP_(KM_LT, 0, KR(1), KR(18)),
    KM_BRA_IF(0, "skip", "skip"),
    KM_ISETP_(KM_GT, 0, KR(1), KR(19)),
    KM_BRA_IF(0, "skip", "skip"),
    KM_MOV_(27, KI(1)),
    KM_LDS(4, 30, KR(14), SM_TEMP),  /* c */
    KM_LDS(4, 31, KR(14), SM_POWER), /* power */
    KM_LDS(4, 32, KR(23), SM_TEMP),  /* S */
    KM_LDS(4, 33, KR(22), SM_TEMP),  /* N */
    KM_LDS(4, 34, KR(25), SM_TEMP),  /* E */
    KM_LDS(4, 35, KR(24), SM_TEMP),  /* W */
    KM_OP2(KM_FADD, 32, KR(32), KR(33)),
    KM_OP3(KM_FFMA, 32, KR(30), KF(-2.0f), KR(32)), /* S + N - 2c */
    KM_OP2(KM_FADD, 34, KR(34), KR(35)),
    KM_OP3(KM_FFMA, 34, KR(30), KF(-2.0f), KR(34)), /* E + W - 2c */
    KM_OP2(KM_FSUB, 36, KF(80.0f), KR(30)),         /* amb_temp - c */
    KM_OP3(KM_FFMA, 31, KR(32), KR(6), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(34), KR(5), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(36), KR(7), KR(31)),
    KM_OP3(KM_FFMA, 31, KR(4), KR(31), KR(30)),
    KM_STS(4, KR(14), SM_TT, KR(31)), /* temp_t[ty][tx] */
    KM_LBL("skip"),
    KM_BAR_(),
    KM_OP2(KM_IADD, 26, KR(26), KI(1)),
    KM_ISETP_(KM_GE, 0, KR(26), KP(P_ITER)),
    KM_BRA_IF(0, "done", "done"), /* if (i == iteration-1) break; */
    KM_ISETP_(KM_EQ, 0, KR(27), KRZ),
    KM_BRA_IF(0, "copied", "copied"),
    KM_LDS(4, 30, KR(14), SM_TT),
    KM_STS(4, KR(14), SM_TEMP, KR(30)),
    KM_LBL("copied"),
    KM_BAR_(),
    KM_BRA_("loop"),
    KM_LBL("done"),
    KM_ISETP_(KM_EQ, 0, KR(27), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_LDS(4, 30, KR(14), SM_TT),
    KM_OP3(KM_IMAD, 15, KR(13), KI(4), KP(P_DST)),
    KM_STG(4, KR(15), 0, KR(30)), /* temp_dst[index] */
    KM_LBL("end"),
    KM_EXIT_(),
};

struct hotspot_cfg {
    int64_t size, pyramid, steps;
};
static const struct cfg_key hotspot_keys[] = {
    {"workload.hotspot.size", CFG_INT, offsetof(struct hotspot_cfg, size), NULL, 4, 16384, NULL,
     "cells", "grid rows = columns (preset by workload.size: test 64, paper 512)"},
    {"workload.hotspot.pyramid", CFG_INT, offsetof(struct hotspot_cfg, pyramid), NULL, 1, 7, NULL,
     "steps", "pyramid height: time steps per launch (preset 2)"},
    {"workload.hotspot.steps", CFG_INT, offsetof(struct hotspot_cfg, steps), NULL, 1, 100000, NULL,
     "steps", "total time steps (preset by workload.size: test 4, paper 2)"},
};

struct hotspot {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog calc;
    uint32_t n, pyramid, steps;
    uint64_t d_temp[2], d_power;
    float cap, rx, ry, rz, step;
    uint32_t t; /* time steps launched so far */
    int src, dst;
    uint32_t launches;
    struct wl_copy copies[2];
};

static int64_t fparam(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static int hotspot_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct hotspot *h = (struct hotspot *)w;
    if (h->t >= h->steps) return 0;
    int tmp = h->src;
    h->src = h->dst, h->dst = tmp;
    uint32_t iter = h->steps - h->t < h->pyramid ? h->steps - h->t : h->pyramid;
    uint32_t small = HS_BLOCK - 2 * h->pyramid, nb = (h->n + small - 1) / small;
    struct km_launch l = {.prog = &h->calc, .smem = SM_BYTES};
    l.grid[0] = l.grid[1] = nb, l.grid[2] = 1;
    l.block[0] = l.block[1] = HS_BLOCK, l.block[2] = 1;
    l.param[P_ITER] = iter;
    l.param[P_POWER] = (int64_t)h->d_power;
    l.param[P_SRC] = (int64_t)h->d_temp[h->src];
    l.param[P_DST] = (int64_t)h->d_temp[h->dst];
    l.param[P_COLS] = l.param[P_ROWS] = h->n;
    l.param[P_BCOLS] = l.param[P_BROWS] = h->pyramid;
    l.param[P_CAP] = fparam(h->cap);
    l.param[P_RX] = fparam(h->rx);
    l.param[P_RY] = fparam(h->ry);
    l.param[P_RZ] = fparam(h->rz);
    l.param[P_STEP] = fparam(h->step);
    if (km_run_launch(h->kw.run, &l, k, e)) return -1;
    k->id = h->launches;
    k->copies = h->copies;
    k->ncopies = h->launches == 0 ? 2 : 0;
    h->launches++;
    h->t += iter;
    return 1;
}

/* The input: deterministic, in the ranges of Rodinia's temp_N / power_N files. */
static uint32_t mix(uint32_t x) {
    x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
    return x;
}
static float temp0(uint32_t i) {
    return 323.0f + (float)(mix(2 * i) % 20000) * 0.001f;
}
static float power0(uint32_t i) {
    return (float)(mix(2 * i + 1) % 1000) * 1e-6f;
}

/* The same time steps on the host over the whole grid (the pyramid computes exactly these:
 * neighbours clamped to the grid), in the same float operations. */
static int hotspot_verify(struct workload *w, struct ws_err *e) {
    struct hotspot *h = (struct hotspot *)w;
    uint32_t n = h->n;
    size_t nn = (size_t)n * n;
    float *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b), *p = malloc(nn * sizeof *p);
    int rc = 0;
    if (!a || !b || !p) {
        rc = ws_fail(e, "hotspot: out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < nn; i++) a[i] = temp0(i), p[i] = power0(i);
    float sdc = h->step * (1.0f / h->cap), rx1 = 1.0f / h->rx, ry1 = 1.0f / h->ry,
          rz1 = 1.0f / h->rz;
    for (uint32_t s = 0; s < h->t; s++) {
        for (uint32_t y = 0; y < n; y++)
            for (uint32_t x = 0; x < n; x++) {
                size_t i = (size_t)y * n + x;
                float c = a[i], nv = a[i - (y > 0 ? n : 0)], sv = a[i + (y + 1 < n ? n : 0)],
                      wv = a[i - (x > 0)], ev = a[i + (x + 1 < n)];
                float dy = fmaf(c, -2.0f, sv + nv), dx = fmaf(c, -2.0f, ev + wv), dz = 80.0f - c;
                float sum = fmaf(dy, ry1, p[i]);
                sum = fmaf(dx, rx1, sum);
                sum = fmaf(dz, rz1, sum);
                b[i] = fmaf(sdc, sum, c);
            }
        float *t = a;
        a = b, b = t;
    }
    const float *d = devmem_host(h->kw.dm, h->d_temp[h->dst], 4 * nn);
    for (size_t i = 0; i < nn && rc == 0; i++)
        if (memcmp(&d[i], &a[i], 4))
            rc = ws_fail(e, "hotspot: temp[%zu][%zu] = %.9g, the host says %.9g", i / n, i % n,
                         d[i], a[i]);
out:
    free(a);
    free(b);
    free(p);
    return rc;
}

static void hotspot_destroy(struct workload *w) {
    struct hotspot *h = (struct hotspot *)w;
    km_prog_free(&h->calc);
    km_wl_fini(&h->kw);
    free(h);
}

static const struct workload_vt hotspot_vt = {hotspot_next,  km_wl_cta_start, km_wl_warp_next,
                                              km_wl_cta_end, hotspot_verify,  hotspot_destroy};

struct workload *hotspot_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct hotspot_cfg hc = {paper ? 512 : 64, 2, paper ? 2 : 4};
    if (cfg_bind(c, "workload.hotspot", hotspot_keys, CFG_COUNT(hotspot_keys), &hc, e)) return NULL;
    struct hotspot *h = calloc(1, sizeof *h);
    if (!h) return ws_fail(e, "hotspot: out of memory"), NULL;
    if (km_wl_init(&h->kw, &hotspot_vt, "hotspot", e)) return free(h), NULL;
    h->n = (uint32_t)hc.size, h->pyramid = (uint32_t)hc.pyramid, h->steps = (uint32_t)hc.steps;
    h->src = 1, h->dst = 0;
    uint64_t nn = (uint64_t)h->n * h->n;
    if (km_prog_build(&h->calc, "calculate_temp", 37, calc_code, CFG_COUNT(calc_code), e) ||
        !(h->d_temp[0] = devmem_alloc(h->kw.dm, 4 * nn, "MatrixTemp[0]", e)) ||
        !(h->d_temp[1] = devmem_alloc(h->kw.dm, 4 * nn, "MatrixTemp[1]", e)) ||
        !(h->d_power = devmem_alloc(h->kw.dm, 4 * nn, "MatrixPower", e))) {
        hotspot_destroy(&h->kw.base);
        return NULL;
    }
    float *t = devmem_host(h->kw.dm, h->d_temp[0], 4 * nn),
          *p = devmem_host(h->kw.dm, h->d_power, 4 * nn);
    for (uint32_t i = 0; i < nn; i++) t[i] = temp0(i), p[i] = power0(i);
    /* compute_tran_temp's constants (chip 0.016 m square, 0.5 mm thick), in its float/double
     * mix: the divisions by 2.0 and K_SI are double. */
    float gh = 0.016f / (float)h->n, gw = 0.016f / (float)h->n, tc = 0.0005f;
    h->cap = (float)(0.5 * 1.75e6 * tc * gw * gh);
    h->rx = (float)(gw / (2.0 * 100 * tc * gh));
    h->ry = (float)(gh / (2.0 * 100 * tc * gw));
    h->rz = (float)(tc / (100 * gh * gw));
    float max_slope = (float)(3.0e6 / (0.5 * tc * 1.75e6));
    h->step = (float)(0.001 / max_slope);
    h->copies[0] = (struct wl_copy){h->d_temp[0], 4 * nn};
    h->copies[1] = (struct wl_copy){h->d_power, 4 * nn};
    return &h->kw.base;
}
