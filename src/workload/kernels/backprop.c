/* Back-propagation training step as Rodinia runs it (Rodinia 3.1, backprop/backprop_cuda.cu host
 * bpnn_train_cuda, backprop_cuda_kernel.cu kernels bpnn_layerforward_CUDA and
 * bpnn_adjust_weights_cuda): a network of `in` input units, 16 hidden units and one output.
 * Grid (1, in/16) of 16x16 blocks. bpnn_layerforward_CUDA: the tx == 0 threads load the block's 16
 * input units into shared input_node, every thread loads one weight of the (in+1) x 17
 * input-to-hidden matrix into shared weight_matrix (rows of 17 floats, so a warp's two rows are
 * 68 bytes apart), multiplies it by its input, and the block sums its 16 rows by a tree (ty % 2^i
 * == 0 adds row ty + 2^(i-1), i = 1..4, bar.sync after each step); every thread stores its
 * partial back into input_hidden_cuda and the tx == 0 threads store row 0 (the block's 16 column
 * sums) into hidden_partial_sum. The host then sums the partials, squashes the hidden units, runs
 * the output layer and the error terms (the CPU part of bpnn_train_cuda), copies hidden_delta,
 * the previous weights and the original weights in, and bpnn_adjust_weights_cuda updates every
 * weight: w += eta * delta[tx+1] * ly[16 by + ty + 1] + momentum * oldw, oldw = the same (delta,
 * ly and oldw loaded again for the second statement, as the stores may alias them), and block
 * 0's ty == 0 threads update the bias row.
 *
 * Device arrays in bpnn_train_cuda's cudaMalloc order: input_cuda (in+1), output_hidden_cuda (17),
 * input_hidden_cuda ((in+1) x 17), hidden_partial_sum (in/16 x 16), hidden_delta_cuda (17),
 * input_prev_weights_cuda ((in+1) x 17), floats. Inputs and weights are uniform in [0, 1] (the
 * program's rand()/RAND_MAX; a deterministic generator here), previous weights zero, the target
 * 0.1. Sizes: test 1024 input units, paper 65536 (Rodinia's run script: `backprop 65536`);
 * workload.backprop.in. The kernels' eta and momentum (0.3) are double constants; the model uses
 * float FMUL/FFMA/FADD and so does the host check, which matches bit for bit. __powf(2, i) is
 * MUFU.EX2 on the converted i. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

enum { BP_HID = 16, BP_H = 16, SM_IN = 0, SM_WM = 64, SM_BYTES = 64 + 1024 };
enum { F_INPUT, F_OUTH, F_IH, F_HPS, F_IN, F_HID };
enum { A_DELTA, A_HID, A_LY, A_IN, A_W, A_OLDW };

/* index = (hid+1)*16*by + (hid+1)*ty + tx + 1 + (hid+1) in r5 (hid from parameter p). */
#define BP_INDEX(p)                                                                                \
    KM_S2R(0, SR_TID_X), KM_S2R(1, SR_TID_Y), KM_S2R(3, SR_CTAID_Y),                               \
        KM_OP2(KM_IADD, 4, KP(p), KI(1)), KM_OP2(KM_IMUL, 5, KR(4), KR(3)),                        \
        KM_OP2(KM_SHL, 5, KR(5), KI(4)), KM_OP3(KM_IMAD, 5, KR(4), KR(1), KR(5)),                  \
        KM_OP2(KM_IADD, 5, KR(5), KR(0)), KM_OP2(KM_IADD, 5, KR(5), KR(4)),                        \
        KM_OP2(KM_IADD, 5, KR(5), KI(1)), KM_OP3(KM_IMAD, 6, KR(3), KI(BP_H), KR(1)),              \
        KM_OP2(KM_IADD, 6, KR(6), KI(1)) /* index_in / index_y */

static const struct km_inst fwd_code[] = {
    BP_INDEX(F_HID),
    KM_OP3(KM_IMAD, 7, KR(1), KI(BP_H), KR(0)),
    KM_OP2(KM_SHL, 7, KR(7), KI(2)), /* &weight_matrix[ty][tx] - SM_WM */
    KM_OP2(KM_SHL, 8, KR(1), KI(2)), /* &input_node[ty] */
    KM_ISETP_(KM_NE, 0, KR(0), KRZ),
    KM_BRA_IF(0, "in_done", "in_done"),
    KM_OP3(KM_IMAD, 9, KR(6), KI(4), KP(F_INPUT)),
    KM_LDG(4, 10, KR(9), 0), /* input_cuda[index_in] */
    KM_STS(4, KR(8), SM_IN, KR(10)),
    KM_LBL("in_done"),
    KM_BAR_(),
    KM_OP3(KM_IMAD, 9, KR(5), KI(4), KP(F_IH)),
    KM_LDG(4, 10, KR(9), 0), /* input_hidden_cuda[index] */
    KM_STS(4, KR(7), SM_WM, KR(10)),
    KM_BAR_(),
    KM_LDS(4, 10, KR(7), SM_WM),
    KM_LDS(4, 11, KR(8), SM_IN),
    KM_OP2(KM_FMUL, 10, KR(10), KR(11)),
    KM_STS(4, KR(7), SM_WM, KR(10)),
    KM_BAR_(),
    KM_MOV_(13, KI(1)), /* i */
    KM_LBL("loop"),
    KM_OP2(KM_I2F, 14, KR(13), KRZ),
    KM_FSETP_(KM_GT, 0, KR(14), KF(4.0f)), /* i <= __log2f(HEIGHT) */
    KM_BRA_IF(0, "reduced", "reduced"),
    KM_MUFU_(KM_EX2, 12, KR(14)),
    KM_OP2(KM_F2I, 12, KR(12), KRZ), /* power_two */
    KM_OP2(KM_IADD, 15, KR(12), KI(-1)),
    KM_OP2(KM_AND, 15, KR(1), KR(15)),
    KM_ISETP_(KM_NE, 0, KR(15), KRZ),
    KM_BRA_IF(0, "skip", "skip"),
    KM_OP2(KM_SHR, 16, KR(12), KI(1)),
    KM_OP3(KM_IMAD, 16, KR(16), KI(4 * BP_H), KR(7)), /* &weight_matrix[ty + power_two/2][tx] */
    KM_LDS(4, 17, KR(7), SM_WM),
    KM_LDS(4, 18, KR(16), SM_WM),
    KM_OP2(KM_FADD, 17, KR(17), KR(18)),
    KM_STS(4, KR(7), SM_WM, KR(17)),
    KM_LBL("skip"),
    KM_BAR_(),
    KM_OP2(KM_IADD, 13, KR(13), KI(1)),
    KM_BRA_("loop"),
    KM_LBL("reduced"),
    KM_LDS(4, 10, KR(7), SM_WM),
    KM_STG(4, KR(9), 0, KR(10)), /* input_hidden_cuda[index] = weight_matrix[ty][tx] */
    KM_BAR_(),
    KM_ISETP_(KM_NE, 0, KR(0), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_LDS(4, 10, KR(8), SM_WM), /* weight_matrix[tx][ty], tx == 0 */
    KM_OP3(KM_IMAD, 11, KR(3), KP(F_HID), KR(1)),
    KM_OP3(KM_IMAD, 11, KR(11), KI(4), KP(F_HPS)),
    KM_STG(4, KR(11), 0, KR(10)), /* hidden_partial_sum[by * hid + ty] */
    KM_LBL("end"),
    KM_EXIT_(),
};

static const struct km_inst adj_code[] = {
    BP_INDEX(A_HID),
    KM_OP2(KM_IADD, 7, KR(0), KI(1)), /* index_x */
    KM_OP3(KM_IMAD, 20, KR(7), KI(4), KP(A_DELTA)),
    KM_OP3(KM_IMAD, 21, KR(6), KI(4), KP(A_LY)),
    KM_OP3(KM_IMAD, 22, KR(5), KI(4), KP(A_OLDW)),
    KM_OP3(KM_IMAD, 23, KR(5), KI(4), KP(A_W)),
    KM_LDG(4, 10, KR(20), 0), /* delta[index_x] */
    KM_LDG(4, 11, KR(21), 0), /* ly[index_y] */
    KM_LDG(4, 12, KR(22), 0), /* oldw[index] */
    KM_LDG(4, 13, KR(23), 0), /* w[index] */
    KM_OP2(KM_FMUL, 10, KR(10), KF(0.3f)),
    KM_OP2(KM_FMUL, 10, KR(10), KR(11)),
    KM_OP3(KM_FFMA, 10, KR(12), KF(0.3f), KR(10)),
    KM_OP2(KM_FADD, 13, KR(13), KR(10)),
    KM_STG(4, KR(23), 0, KR(13)),
    KM_LDG(4, 10, KR(20), 0), /* again: the store to w may alias them */
    KM_LDG(4, 11, KR(21), 0),
    KM_LDG(4, 12, KR(22), 0),
    KM_OP2(KM_FMUL, 10, KR(10), KF(0.3f)),
    KM_OP2(KM_FMUL, 10, KR(10), KR(11)),
    KM_OP3(KM_FFMA, 10, KR(12), KF(0.3f), KR(10)),
    KM_STG(4, KR(22), 0, KR(10)), /* oldw[index] */
    KM_BAR_(),
    KM_ISETP_(KM_NE, 0, KR(1), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_NE, 0, KR(3), KRZ),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 22, KR(7), KI(4), KP(A_OLDW)),
    KM_OP3(KM_IMAD, 23, KR(7), KI(4), KP(A_W)),
    KM_LDG(4, 10, KR(20), 0), /* delta[index_x] */
    KM_LDG(4, 12, KR(22), 0), /* oldw[index_x] */
    KM_LDG(4, 13, KR(23), 0), /* w[index_x] */
    KM_OP2(KM_FMUL, 10, KR(10), KF(0.3f)),
    KM_OP3(KM_FFMA, 10, KR(12), KF(0.3f), KR(10)),
    KM_OP2(KM_FADD, 13, KR(13), KR(10)),
    KM_STG(4, KR(23), 0, KR(13)),
    KM_LDG(4, 10, KR(20), 0),
    KM_LDG(4, 12, KR(22), 0),
    KM_OP2(KM_FMUL, 10, KR(10), KF(0.3f)),
    KM_OP3(KM_FFMA, 10, KR(12), KF(0.3f), KR(10)),
    KM_STG(4, KR(22), 0, KR(10)), /* oldw[index_x] */
    KM_LBL("end"),
    KM_EXIT_(),
};

struct bp_cfg {
    int64_t in;
};
static const struct cfg_key bp_keys[] = {
    {"workload.backprop.in", CFG_INT, offsetof(struct bp_cfg, in), NULL, 16, 1 << 24, NULL, "units",
     "input units, a multiple of 16 (preset by workload.size: test 1024, paper 65536)"},
};

struct backprop {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog fwd, adj;
    uint32_t in, nb, launches;
    uint64_t d_input, d_outh, d_ih, d_hps, d_delta, d_prev;
    float *w0;                               /* the original input weights, (in+1) x 17 */
    float hw[BP_HID + 1], delta[BP_HID + 1]; /* hidden-to-output weights, hidden deltas */
    struct wl_copy copies[3];
};

static uint32_t mix(uint32_t x) {
    x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
    return x;
}
static float unit(uint32_t i) {
    return (float)(mix(i) % 1000000) / 999999.0f;
}

static float squash(float x) {
    return (float)(1.0 / (1.0 + exp(-(double)x)));
}

/* The CPU part of bpnn_train_cuda between the kernels: hidden units from the partial sums, the
 * output layer, the output and hidden error terms. */
static void host_deltas(struct backprop *b, const float *hps) {
    float hidden[BP_HID + 1];
    hidden[0] = 1.0f;
    for (uint32_t j = 1; j <= BP_HID; j++) {
        float sum = 0.0f;
        for (uint32_t k = 0; k < b->nb; k++) sum += hps[(size_t)k * BP_HID + j - 1];
        sum += b->w0[j]; /* input_weights[0][j] */
        hidden[j] = squash(sum);
    }
    float sum = 0.0f;
    for (uint32_t k = 0; k <= BP_HID; k++) sum += b->hw[k] * hidden[k];
    float o = squash(sum), target = 0.1f;
    float dout = o * (1.0f - o) * (target - o);
    b->delta[0] = 0.0f;
    for (uint32_t j = 1; j <= BP_HID; j++)
        b->delta[j] = hidden[j] * (1.0f - hidden[j]) * (dout * b->hw[j]);
}

static int bp_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct backprop *b = (struct backprop *)w;
    if (b->launches >= 2) return 0;
    bool adj = b->launches == 1;
    struct km_launch l = {.prog = adj ? &b->adj : &b->fwd, .smem = adj ? 0 : SM_BYTES};
    l.grid[0] = 1, l.grid[1] = b->nb, l.grid[2] = 1;
    l.block[0] = l.block[1] = BP_H, l.block[2] = 1;
    uint64_t nw = (uint64_t)(b->in + 1) * (BP_HID + 1);
    if (!adj) {
        l.param[F_INPUT] = (int64_t)b->d_input;
        l.param[F_OUTH] = (int64_t)b->d_outh;
        l.param[F_IH] = (int64_t)b->d_ih;
        l.param[F_HPS] = (int64_t)b->d_hps;
        l.param[F_IN] = b->in;
        l.param[F_HID] = BP_HID;
        b->copies[0] = (struct wl_copy){b->d_input, 4ull * (b->in + 1)};
        b->copies[1] = (struct wl_copy){b->d_ih, 4 * nw};
        k->ncopies = 2;
    } else {
        host_deltas(b, devmem_host(b->kw.dm, b->d_hps, 4ull * b->nb * BP_HID));
        memcpy(devmem_host(b->kw.dm, b->d_delta, 4 * (BP_HID + 1)), b->delta, sizeof b->delta);
        memcpy(devmem_host(b->kw.dm, b->d_ih, 4 * nw), b->w0, 4 * nw); /* the weights again */
        l.param[A_DELTA] = (int64_t)b->d_delta;
        l.param[A_HID] = BP_HID;
        l.param[A_LY] = (int64_t)b->d_input;
        l.param[A_IN] = b->in;
        l.param[A_W] = (int64_t)b->d_ih;
        l.param[A_OLDW] = (int64_t)b->d_prev;
        b->copies[0] = (struct wl_copy){b->d_delta, 4 * (BP_HID + 1)};
        b->copies[1] = (struct wl_copy){b->d_prev, 4 * nw};
        b->copies[2] = (struct wl_copy){b->d_ih, 4 * nw};
        k->ncopies = 3;
    }
    uint32_t nc = k->ncopies;
    if (km_run_launch(b->kw.run, &l, k, e)) return -1;
    k->id = b->launches++;
    k->copies = b->copies;
    k->ncopies = nc;
    return 1;
}

/* Both kernels on the host, in the same float operations: the block sums, and the updated weights
 * and previous weights. */
static int bp_verify(struct workload *w, struct ws_err *e) {
    struct backprop *b = (struct backprop *)w;
    const uint32_t W = BP_HID + 1;
    const float *in = devmem_host(b->kw.dm, b->d_input, 4ull * (b->in + 1));
    const float *hps = devmem_host(b->kw.dm, b->d_hps, 4ull * b->nb * BP_HID);
    const float *dw = devmem_host(b->kw.dm, b->d_ih, 4ull * (b->in + 1) * W);
    const float *dp = devmem_host(b->kw.dm, b->d_prev, 4ull * (b->in + 1) * W);
    for (uint32_t by = 0; by < b->nb && b->launches >= 1; by++)
        for (uint32_t tx = 0; tx < BP_H; tx++) {
            float v[BP_H];
            for (uint32_t ty = 0; ty < BP_H; ty++)
                v[ty] = b->w0[(size_t)W * (BP_H * by + ty + 1) + tx + 1] * in[BP_H * by + ty + 1];
            for (uint32_t p = 2; p <= BP_H; p *= 2)
                for (uint32_t ty = 0; ty < BP_H; ty += p) v[ty] += v[ty + p / 2];
            float got = hps[(size_t)by * BP_HID + tx];
            if (memcmp(&got, &v[0], 4))
                return ws_fail(e, "backprop: hidden_partial_sum[%u][%u] = %.9g, the host says %.9g",
                               by, tx, got, v[0]);
        }
    for (uint32_t r = 0; r <= b->in && b->launches >= 2; r++)
        for (uint32_t c = 1; c < W; c++) {
            size_t i = (size_t)W * r + c;
            float t = b->delta[c] * 0.3f;
            if (r > 0) t *= in[r];
            float d = fmaf(0.0f, 0.3f, t), nw = b->w0[i] + d; /* oldw was zero */
            if (memcmp(&dw[i], &nw, 4) || memcmp(&dp[i], &d, 4))
                return ws_fail(e,
                               "backprop: w[%u][%u] = %.9g, oldw = %.9g, the host says %.9g, "
                               "%.9g",
                               r, c, dw[i], dp[i], nw, d);
        }
    return 0;
}

static void bp_destroy(struct workload *w) {
    struct backprop *b = (struct backprop *)w;
    km_prog_free(&b->fwd);
    km_prog_free(&b->adj);
    km_wl_fini(&b->kw);
    free(b->w0);
    free(b);
}

static const struct workload_vt bp_vt = {bp_next,       km_wl_cta_start, km_wl_warp_next,
                                         km_wl_cta_end, bp_verify,       bp_destroy};

struct workload *backprop_create(struct cfg *c, const struct workload_common *wc,
                                 struct ws_err *e) {
    struct bp_cfg bc = {wc->size == WL_SIZE_PAPER ? 65536 : 1024};
    if (cfg_bind(c, "workload.backprop", bp_keys, CFG_COUNT(bp_keys), &bc, e)) return NULL;
    char where[600];
    if (bc.in % BP_H)
        return ws_fail(e,
                       "%s: workload.backprop.in = %lld must be a multiple of 16 (the block "
                       "height)",
                       cfg_origin(c, "workload.backprop.in", where, sizeof where),
                       (long long)bc.in),
               NULL;
    struct backprop *b = calloc(1, sizeof *b);
    if (!b) return ws_fail(e, "backprop: out of memory"), NULL;
    if (km_wl_init(&b->kw, &bp_vt, "backprop", e)) return free(b), NULL;
    b->in = (uint32_t)bc.in, b->nb = b->in / BP_H;
    uint64_t nw = (uint64_t)(b->in + 1) * (BP_HID + 1);
    b->w0 = malloc(4 * nw);
    if (!b->w0 ||
        km_prog_build(&b->fwd, "bpnn_layerforward_CUDA", 19, fwd_code, CFG_COUNT(fwd_code), e) ||
        km_prog_build(&b->adj, "bpnn_adjust_weights_cuda", 24, adj_code, CFG_COUNT(adj_code), e) ||
        !(b->d_input = devmem_alloc(b->kw.dm, 4ull * (b->in + 1), "input_cuda", e)) ||
        !(b->d_outh = devmem_alloc(b->kw.dm, 4 * (BP_HID + 1), "output_hidden_cuda", e)) ||
        !(b->d_ih = devmem_alloc(b->kw.dm, 4 * nw, "input_hidden_cuda", e)) ||
        !(b->d_hps = devmem_alloc(b->kw.dm, 4ull * b->nb * BP_HID, "hidden_partial_sum", e)) ||
        !(b->d_delta = devmem_alloc(b->kw.dm, 4 * (BP_HID + 1), "hidden_delta_cuda", e)) ||
        !(b->d_prev = devmem_alloc(b->kw.dm, 4 * nw, "input_prev_weights_cuda", e))) {
        if (!b->w0) ws_fail(e, "backprop: out of memory");
        bp_destroy(&b->kw.base);
        return NULL;
    }
    float *in = devmem_host(b->kw.dm, b->d_input, 4ull * (b->in + 1)),
          *ih = devmem_host(b->kw.dm, b->d_ih, 4 * nw);
    in[0] = 0.0f;
    for (uint32_t i = 1; i <= b->in; i++) in[i] = unit(i);
    for (uint64_t i = 0; i < nw; i++) b->w0[i] = ih[i] = unit((uint32_t)(0x40000000u + i));
    for (uint32_t j = 0; j <= BP_HID; j++) b->hw[j] = unit(0x20000000u + j);
    return &b->kw.base;
}
