/* Parboil SAD (sum of absolute differences, the H.264 motion-estimation step) as Parboil 2.5 runs
 * it: benchmarks/sad/src/cuda/main.cu launches, on one reference / current frame pair,
 *  - mb_sad_calc (sad4.cu): one 61-thread block per 4x4 sub-block of the frame (grid width/4 x
 *    height/4; POS_PER_THREAD 18, THREADS_W = THREADS_H = 1). Thread t computes the SADs of search
 *    positions 18t .. 18t+17 (of 33 x 33 = 1089, offsets -16..16 around the sub-block): 16 texture
 *    fetches of the reference frame and 16 loads of the current frame's sub-block each, and one
 *    2-byte store per position into the 4x4 SAD array. A warp's 32 lanes fetch 32 positions 18
 *    apart (scattered over the search window) and store 32 halfwords 36 bytes apart: many
 *    requests per warp instruction, and as many SAD bytes written as read.
 *  - larger_sad_calc_8 (largerBlocks.cu): a 32x4 block per macroblock; threadIdx.y picks an 8x8
 *    quadrant, lanes walk the search positions two at a time (uint = 2 packed SADs), reading 4
 *    4x4 SAD vectors and writing the 8x4, 4x8 and 8x8 ones.
 *  - larger_sad_calc_16: a 32x1 block per macroblock, reading the 4 8x8 vectors and writing the
 *    16x8, 8x16 and 16x16 ones.
 * SAD array layout (sad.h): 41 vectors of MAX_POS_PADDED = 1096 unsigned shorts per macroblock,
 * block type n (1: 16x16 .. 7: 4x4) starting at SAD_TYPE_n_IX = mbs * {0, 1, 3, 5, 9, 17, 25} *
 * 1096 elements, each macroblock's vectors of one type consecutive.
 *
 * Assumptions: the reference frame is a 2-D texture (cudaArray, clamp addressing); the simulator
 * has no texture path, so the fetches are modelled as global loads of a row-major array at the
 * cudaMallocArray's place in the heap, with the clamp done by IMIN/IMAX before the address (the
 * texture unit does it in hardware). search_pos / 33 and % 33 are the compiler's multiply-high
 * form (x * 63551 >> 21, exact for x < 1089 * 2). Registers per thread (occupancy) are assumed.
 * Frames: 8-bit luma in 16-bit words, a smooth deterministic pattern, the current frame the
 * reference moved by a few pixels plus noise (Parboil reads reference.bin / frame.bin).
 *
 * Device memory in main.cu's order: d_cur_image (w * h shorts), the reference array (w * h
 * shorts), d_sads (41 * 1096 * mbs shorts, zeroed by cudaMemset). Sizes: test 32x32 pixels,
 * paper 176x144 (QCIF, assumed to be Parboil's default data set); workload.sad.{width,height}. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

enum { MAX_POS = 1089, MAX_POS_PADDED = 1096, POS_PER_THREAD = 18, SEARCH_RANGE = 16, SDIM = 33 };
enum { SAD_THREADS = (MAX_POS + POS_PER_THREAD - 1) / POS_PER_THREAD }; /* 61 */
enum { P_SADS, P_FRAME, P_MBW, P_MBH, P_REF, P_W, P_H };
enum { VEC = 2 * MAX_POS_PADDED }; /* bytes per SAD vector */

/* One row y of a search position's 4x4 SAD: the row's reference texel row (clamped), 4 fetches
 * at the 4 clamped columns R14..R17, 4 loads of the current frame's row, |ref - cur| summed in
 * R30. R11: search row origin, R19: &frame[cur_o + y * width]. */
#define SAD_ROW(y)                                                                                 \
    KM_OP2(KM_IADD, 13, KR(11), KI(y)), KM_OP2(KM_IMAX, 13, KR(13), KRZ),                          \
        KM_OP2(KM_IMIN, 13, KR(13), KR(31)), KM_OP2(KM_IMUL, 13, KR(13), KP(P_W)),                 \
        KM_OP2(KM_IADD, 18, KR(13), KR(14)), KM_OP3(KM_IMAD, 18, KR(18), KI(2), KP(P_REF)),        \
        KM_LDG(2, 22, KR(18), 0), KM_OP2(KM_IADD, 18, KR(13), KR(15)),                             \
        KM_OP3(KM_IMAD, 18, KR(18), KI(2), KP(P_REF)), KM_LDG(2, 23, KR(18), 0),                   \
        KM_OP2(KM_IADD, 18, KR(13), KR(16)), KM_OP3(KM_IMAD, 18, KR(18), KI(2), KP(P_REF)),        \
        KM_LDG(2, 24, KR(18), 0), KM_OP2(KM_IADD, 18, KR(13), KR(17)),                             \
        KM_OP3(KM_IMAD, 18, KR(18), KI(2), KP(P_REF)), KM_LDG(2, 25, KR(18), 0),                   \
        KM_LDG(2, 26, KR(19), 0), KM_LDG(2, 27, KR(19), 2), KM_LDG(2, 28, KR(19), 4),              \
        KM_LDG(2, 29, KR(19), 6), SAD_ABS(22, 26), SAD_ABS(23, 27), SAD_ABS(24, 28),               \
        SAD_ABS(25, 29), KM_OP2(KM_IADD, 19, KR(19), KR(20))
#define SAD_ABS(a, b)                                                                              \
    KM_OP2(KM_ISUB, 32, KR(a), KR(b)), KM_OP2(KM_ISUB, 33, KR(b), KR(a)),                          \
        KM_OP2(KM_IMAX, 32, KR(32), KR(33)), KM_OP2(KM_IADD, 30, KR(30), KR(32))
/* The 4 clamped columns of a search position: R(14 + x) = clamp(R12 + x, 0, width - 1). */
#define SAD_COL(x)                                                                                 \
    KM_OP2(KM_IADD, 14 + (x), KR(12), KI(x)), KM_OP2(KM_IMAX, 14 + (x), KR(14 + (x)), KRZ),        \
        KM_OP2(KM_IMIN, 14 + (x), KR(14 + (x)), KR(34))

static const struct km_inst sad4_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_S2R(2, SR_CTAID_Y),
    KM_OP2(KM_SHR, 3, KR(1), KI(2)), /* mb_x */
    KM_OP2(KM_SHR, 4, KR(2), KI(2)), /* mb_y */
    KM_ISETP_(KM_GE, 0, KR(3), KP(P_MBW)),
    KM_BRA_IF(0, "end", "end"),
    KM_ISETP_(KM_GE, 0, KR(4), KP(P_MBH)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP2(KM_AND, 5, KR(1), KI(3)), /* block_x */
    KM_OP2(KM_AND, 6, KR(2), KI(3)), /* block_y */
    /* blk_sad += mbs * 1096 * 25 + (mb_y * mb_width + mb_x) * 1096 * 16 + (4 by + bx) * 1096 */
    KM_OP2(KM_IMUL, 7, KP(P_MBW), KP(P_MBH)),
    KM_OP2(KM_IMUL, 7, KR(7), KI(25 * MAX_POS_PADDED)),
    KM_OP3(KM_IMAD, 8, KR(4), KP(P_MBW), KR(3)),
    KM_OP3(KM_IMAD, 7, KR(8), KI(16 * MAX_POS_PADDED), KR(7)),
    KM_OP3(KM_IMAD, 8, KR(6), KI(4), KR(5)),
    KM_OP3(KM_IMAD, 7, KR(8), KI(MAX_POS_PADDED), KR(7)),
    KM_OP3(KM_IMAD, 8, KR(7), KI(2), KP(P_SADS)), /* R8: this thread's SAD vector */
    KM_OP2(KM_SHL, 9, KR(1), KI(2)),              /* frame_x */
    KM_OP2(KM_SHL, 10, KR(2), KI(2)),             /* frame_y */
    KM_OP3(KM_IMAD, 7, KR(10), KP(P_W), KR(9)),   /* cur_o */
    KM_OP3(KM_IMAD, 7, KR(7), KI(2), KP(P_FRAME)),
    KM_OP2(KM_IADD, 5, KR(9), KI(-SEARCH_RANGE)),  /* ref_x */
    KM_OP2(KM_IADD, 6, KR(10), KI(-SEARCH_RANGE)), /* ref_y */
    KM_OP2(KM_IADD, 31, KP(P_H), KI(-1)),
    KM_OP2(KM_IADD, 34, KP(P_W), KI(-1)),
    KM_OP2(KM_SHL, 20, KP(P_W), KI(1)),            /* bytes per frame row */
    KM_OP2(KM_IMUL, 9, KR(0), KI(POS_PER_THREAD)), /* search_pos_base */
    KM_OP2(KM_IADD, 10, KR(9), KI(POS_PER_THREAD)),
    KM_OP2(KM_IMIN, 10, KR(10), KI(MAX_POS)), /* search_pos_end */
    KM_ISETP_(KM_GE, 0, KR(9), KR(10)),
    KM_BRA_IF(0, "end", "end"),
    KM_LBL("pos"),
    KM_OP2(KM_IMUL, 11, KR(9), KI(63551)),
    KM_OP2(KM_SHR, 11, KR(11), KI(21)), /* search_pos / 33 */
    KM_OP2(KM_IMUL, 12, KR(11), KI(SDIM)),
    KM_OP2(KM_ISUB, 12, KR(9), KR(12)), /* search_pos % 33 */
    KM_OP2(KM_IADD, 11, KR(11), KR(6)), /* search_off_y */
    KM_OP2(KM_IADD, 12, KR(12), KR(5)), /* search_off_x */
    SAD_COL(0),
    SAD_COL(1),
    SAD_COL(2),
    SAD_COL(3),
    KM_MOV_(30, KRZ),
    KM_MOV_(19, KR(7)),
    SAD_ROW(0),
    SAD_ROW(1),
    SAD_ROW(2),
    SAD_ROW(3),
    KM_OP3(KM_IMAD, 18, KR(9), KI(2), KR(8)),
    KM_STG(2, KR(18), 0, KR(30)), /* blk_sad[search_pos] = sad4x4 */
    KM_OP2(KM_IADD, 9, KR(9), KI(1)),
    KM_ISETP_(KM_LT, 0, KR(9), KR(10)),
    KM_BRA_IF(0, "pos", "end"),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* larger_sad_calc_8 / _16 share the loop: i00, i01, i10, i11 at R1 + 4 sp + {0, o1, o2, o3}, then
 * 5 stores. R10 = bo_6 / bo_3, R11 = bo_5 / bo_2, R12 = bo_4 / bo_1; s5 is the second bo_5 / bo_2
 * store's offset in bytes. */
#define LARGER_LOOP(o1, o2, o3, s5)                                                                \
    KM_ISETP_(KM_GE, 0, KR(0), KI((MAX_POS + 1) / 2)), KM_BRA_IF(0, "end", "end"), KM_LBL("sp"),   \
        KM_OP3(KM_IMAD, 13, KR(0), KI(4), KR(1)), KM_LDG(4, 14, KR(13), 0),                        \
        KM_LDG(4, 15, KR(13), o1), KM_LDG(4, 16, KR(13), o2), KM_LDG(4, 17, KR(13), o3),           \
        KM_OP2(KM_IADD, 18, KR(14), KR(16)), KM_OP3(KM_IMAD, 13, KR(0), KI(4), KR(10)),            \
        KM_STG(4, KR(13), 0, KR(18)), KM_OP2(KM_IADD, 18, KR(15), KR(17)),                         \
        KM_STG(4, KR(13), VEC, KR(18)), KM_OP2(KM_IADD, 19, KR(14), KR(15)),                       \
        KM_OP3(KM_IMAD, 13, KR(0), KI(4), KR(11)), KM_STG(4, KR(13), 0, KR(19)),                   \
        KM_OP2(KM_IADD, 18, KR(16), KR(17)), KM_STG(4, KR(13), s5, KR(18)),                        \
        KM_OP2(KM_IADD, 18, KR(19), KR(18)), KM_OP3(KM_IMAD, 13, KR(0), KI(4), KR(12)),            \
        KM_STG(4, KR(13), 0, KR(18)), KM_OP2(KM_IADD, 0, KR(0), KI(32)),                           \
        KM_ISETP_(KM_LT, 0, KR(0), KI((MAX_POS + 1) / 2)), KM_BRA_IF(0, "sp", "end"),              \
        KM_LBL("end"), KM_EXIT_()

/* Element offsets are computed in elements, then made byte addresses of blk_sad (R9 = mbs,
 * R8 = macroblock_index = (mb_y * mb_width + mb_x) * 1096). */
#define LARGER_INDICES                                                                             \
    KM_S2R(0, SR_TID_X), KM_S2R(2, SR_CTAID_X), KM_S2R(3, SR_CTAID_Y),                             \
        KM_OP2(KM_IMUL, 9, KP(P_MBW), KP(P_MBH)), KM_OP3(KM_IMAD, 8, KR(3), KP(P_MBW), KR(2)),     \
        KM_OP2(KM_IMUL, 8, KR(8), KI(MAX_POS_PADDED))

static const struct km_inst larger8_code[] = {
    LARGER_INDICES,
    KM_S2R(4, SR_TID_Y),
    KM_OP2(KM_AND, 5, KR(4), KI(1)), /* tx */
    KM_OP2(KM_SHR, 6, KR(4), KI(1)), /* ty */
    /* bi = (mbs * 25 + ty * 8 + tx * 2) * 1096 + mbi * 16 */
    KM_OP2(KM_IMUL, 1, KR(9), KI(25)),
    KM_OP3(KM_IMAD, 1, KR(6), KI(8), KR(1)),
    KM_OP3(KM_IMAD, 1, KR(5), KI(2), KR(1)),
    KM_OP2(KM_IMUL, 1, KR(1), KI(MAX_POS_PADDED)),
    KM_OP3(KM_IMAD, 1, KR(8), KI(16), KR(1)),
    KM_OP3(KM_IMAD, 1, KR(1), KI(2), KP(P_SADS)),
    /* bo_6 = (mbs * 17 + ty * 4 + tx * 2) * 1096 + mbi * 8 */
    KM_OP2(KM_IMUL, 10, KR(9), KI(17)),
    KM_OP3(KM_IMAD, 10, KR(6), KI(4), KR(10)),
    KM_OP3(KM_IMAD, 10, KR(5), KI(2), KR(10)),
    KM_OP2(KM_IMUL, 10, KR(10), KI(MAX_POS_PADDED)),
    KM_OP3(KM_IMAD, 10, KR(8), KI(8), KR(10)),
    KM_OP3(KM_IMAD, 10, KR(10), KI(2), KP(P_SADS)),
    /* bo_5 = (mbs * 9 + ty * 4 + tx) * 1096 + mbi * 8 */
    KM_OP2(KM_IMUL, 11, KR(9), KI(9)),
    KM_OP3(KM_IMAD, 11, KR(6), KI(4), KR(11)),
    KM_OP2(KM_IADD, 11, KR(11), KR(5)),
    KM_OP2(KM_IMUL, 11, KR(11), KI(MAX_POS_PADDED)),
    KM_OP3(KM_IMAD, 11, KR(8), KI(8), KR(11)),
    KM_OP3(KM_IMAD, 11, KR(11), KI(2), KP(P_SADS)),
    /* bo_4 = (mbs * 5 + ty * 2 + tx) * 1096 + mbi * 4 */
    KM_OP2(KM_IMUL, 12, KR(9), KI(5)),
    KM_OP3(KM_IMAD, 12, KR(6), KI(2), KR(12)),
    KM_OP2(KM_IADD, 12, KR(12), KR(5)),
    KM_OP2(KM_IMUL, 12, KR(12), KI(MAX_POS_PADDED)),
    KM_OP3(KM_IMAD, 12, KR(8), KI(4), KR(12)),
    KM_OP3(KM_IMAD, 12, KR(12), KI(2), KP(P_SADS)),
    LARGER_LOOP(VEC, 4 * VEC, 5 * VEC, 2 * VEC),
};

static const struct km_inst larger16_code[] = {
    LARGER_INDICES,
    KM_OP2(KM_IMUL, 9, KR(9), KI(MAX_POS_PADDED)), /* macroblocks, in elements */
    /* bi = 4 (M + mbi) + M, bo_3 = 2 (M + mbi) + M, bo_2 = M + 2 mbi, bo_1 = mbi */
    KM_OP2(KM_IADD, 1, KR(9), KR(8)),
    KM_OP2(KM_SHL, 1, KR(1), KI(2)),
    KM_OP2(KM_IADD, 1, KR(1), KR(9)),
    KM_OP3(KM_IMAD, 1, KR(1), KI(2), KP(P_SADS)),
    KM_OP2(KM_IADD, 10, KR(9), KR(8)),
    KM_OP2(KM_SHL, 10, KR(10), KI(1)),
    KM_OP2(KM_IADD, 10, KR(10), KR(9)),
    KM_OP3(KM_IMAD, 10, KR(10), KI(2), KP(P_SADS)),
    KM_OP3(KM_IMAD, 11, KR(8), KI(2), KR(9)),
    KM_OP3(KM_IMAD, 11, KR(11), KI(2), KP(P_SADS)),
    KM_OP3(KM_IMAD, 12, KR(8), KI(2), KP(P_SADS)),
    LARGER_LOOP(VEC, 2 * VEC, 3 * VEC, VEC),
};

struct sad_cfg {
    int64_t width, height;
};
static const struct cfg_key sad_keys[] = {
    {"workload.sad.width", CFG_INT, offsetof(struct sad_cfg, width), NULL, 16, 4096, NULL, "pixels",
     "frame width, a multiple of 16 (preset by workload.size: test 32, paper 176 = QCIF)"},
    {"workload.sad.height", CFG_INT, offsetof(struct sad_cfg, height), NULL, 16, 4096, NULL,
     "pixels", "frame height, a multiple of 16 (test 32, paper 144)"},
};

struct sad {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog k4, k8, k16;
    uint32_t w, h, mbw, mbh;
    uint32_t launches;
    uint64_t d_cur, d_ref, d_sads;
    struct wl_copy copies[2];
};

static int sad_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct sad *s = (struct sad *)w;
    if (s->launches >= 3) return 0;
    struct km_launch l = {.grid = {s->mbw, s->mbh, 1}, .block = {32, 1, 1}};
    if (s->launches == 0) {
        l.prog = &s->k4;
        l.grid[0] = s->w / 4, l.grid[1] = s->h / 4;
        l.block[0] = SAD_THREADS;
        l.smem =
            2 * MAX_POS_PADDED; /* SAD_LOC_SIZE_BYTES, requested though sad4.cu leaves it unused */
    } else if (s->launches == 1) {
        l.prog = &s->k8;
        l.block[1] = 4;
    } else
        l.prog = &s->k16;
    l.param[P_SADS] = (int64_t)s->d_sads;
    l.param[P_FRAME] = (int64_t)s->d_cur;
    l.param[P_REF] = (int64_t)s->d_ref;
    l.param[P_MBW] = s->mbw, l.param[P_MBH] = s->mbh;
    l.param[P_W] = s->w, l.param[P_H] = s->h;
    if (km_run_launch(s->kw.run, &l, k, e)) return -1;
    k->id = s->launches;
    k->copies = s->copies;
    k->ncopies = s->launches == 0 ? 2 : 0;
    s->launches++;
    return 1;
}

static uint32_t mix(uint32_t x) {
    x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
    return x;
}
/* A smooth 8-bit pattern (so that SADs vary with the offset as in real video) plus a little
 * noise; the current frame is the reference moved by (3, -2) pixels with other noise. */
static uint16_t pixel(int32_t x, int32_t y, uint32_t salt) {
    uint32_t ux = (uint32_t)(x + 64), uy = (uint32_t)(y + 64); /* >= 0 for any offset used */
    uint32_t v =
        ((ux * 7 + uy * 3) & 127) + ((ux * uy) >> 3 & 63) + mix(salt ^ (ux * 4099 + uy)) % 16;
    return (uint16_t)(v > 255 ? 255 : v);
}

/* The whole SAD array on the host, in main.cu's layout: 4x4 SADs from the clamped reference,
 * then the larger ones as sums of smaller, 16-bit wrapping like the kernels' packed adds. */
static void host_sads(const struct sad *s, const uint16_t *cur, const uint16_t *ref,
                      uint16_t *out) {
    uint32_t W = s->w, H = s->h, mbs = s->mbw * s->mbh;
    for (uint32_t by = 0; by < H / 4; by++)
        for (uint32_t bx = 0; bx < W / 4; bx++) {
            uint32_t mb = (by / 4) * s->mbw + bx / 4, sub = 4 * (by & 3) + (bx & 3);
            uint16_t *v = out + (size_t)MAX_POS_PADDED * (25 * mbs + 16 * mb + sub);
            for (int32_t pos = 0; pos < MAX_POS; pos++) {
                int32_t oy = (int32_t)by * 4 - SEARCH_RANGE + pos / SDIM,
                        ox = (int32_t)bx * 4 - SEARCH_RANGE + pos % SDIM;
                uint32_t sum = 0;
                for (int32_t y = 0; y < 4; y++)
                    for (int32_t x = 0; x < 4; x++) {
                        int32_t ry = oy + y, rx = ox + x;
                        ry = ry < 0 ? 0 : ry >= (int32_t)H ? (int32_t)H - 1 : ry;
                        rx = rx < 0 ? 0 : rx >= (int32_t)W ? (int32_t)W - 1 : rx;
                        int32_t d =
                            (int32_t)ref[(size_t)ry * W + (size_t)rx] -
                            (int32_t)cur[(size_t)(by * 4 + (uint32_t)y) * W + bx * 4 + (uint32_t)x];
                        sum += (uint32_t)(d < 0 ? -d : d);
                    }
                v[pos] = (uint16_t)sum;
            }
        }
#define VECP(type_ix, idx) (out + (size_t)MAX_POS_PADDED * ((type_ix)*mbs + (idx)))
    for (uint32_t mb = 0; mb < mbs; mb++)
        for (uint32_t p = 0; p < MAX_POS + 1; p++) {
            const uint16_t *b7 = VECP(25, 16 * mb);
            uint16_t q[4]; /* 8x8 quadrants */
            for (uint32_t qy = 0; qy < 2; qy++)
                for (uint32_t qx = 0; qx < 2; qx++) {
                    uint32_t b = 8 * qy + 2 * qx;
                    uint16_t i00 = b7[b * MAX_POS_PADDED + p],
                             i01 = b7[(b + 1) * MAX_POS_PADDED + p],
                             i10 = b7[(b + 4) * MAX_POS_PADDED + p],
                             i11 = b7[(b + 5) * MAX_POS_PADDED + p];
                    VECP(17, 8 * mb + 4 * qy + 2 * qx)[p] = (uint16_t)(i00 + i10);
                    VECP(17, 8 * mb + 4 * qy + 2 * qx + 1)[p] = (uint16_t)(i01 + i11);
                    VECP(9, 8 * mb + 4 * qy + qx)[p] = (uint16_t)(i00 + i01);
                    VECP(9, 8 * mb + 4 * qy + qx + 2)[p] = (uint16_t)(i10 + i11);
                    q[2 * qy + qx] = (uint16_t)(i00 + i01 + i10 + i11);
                    VECP(5, 4 * mb + 2 * qy + qx)[p] = q[2 * qy + qx];
                }
            VECP(3, 2 * mb)[p] = (uint16_t)(q[0] + q[2]);
            VECP(3, 2 * mb + 1)[p] = (uint16_t)(q[1] + q[3]);
            VECP(1, 2 * mb)[p] = (uint16_t)(q[0] + q[1]);
            VECP(1, 2 * mb + 1)[p] = (uint16_t)(q[2] + q[3]);
            VECP(0, mb)[p] = (uint16_t)(q[0] + q[1] + q[2] + q[3]);
        }
#undef VECP
}

/* After all three kernels: the whole SAD array equals the host's (after only mb_sad_calc, its
 * 4x4 part, the rest still zero). */
static int sad_verify(struct workload *w, struct ws_err *e) {
    struct sad *s = (struct sad *)w;
    uint64_t px = (uint64_t)s->w * s->h, n = 41ull * MAX_POS_PADDED * s->mbw * s->mbh;
    const uint16_t *cur = devmem_host(s->kw.dm, s->d_cur, 2 * px),
                   *ref = devmem_host(s->kw.dm, s->d_ref, 2 * px),
                   *dev = devmem_host(s->kw.dm, s->d_sads, 2 * n);
    uint16_t *want = calloc(n, 2);
    if (!want) return ws_fail(e, "sad: out of memory");
    host_sads(s, cur, ref, want);
    uint64_t from = s->launches >= 3 ? 0 : 25ull * MAX_POS_PADDED * s->mbw * s->mbh;
    if (s->launches < 3) memset(want, 0, 2 * from);
    int rc = 0;
    for (uint64_t i = 0; i < n && s->launches > 0; i++)
        if (dev[i] != want[i]) {
            rc = ws_fail(e, "sad: blk_sad[%llu] = %u, the host says %u", (unsigned long long)i,
                         dev[i], want[i]);
            break;
        }
    free(want);
    return rc;
}

static void sad_destroy(struct workload *w) {
    struct sad *s = (struct sad *)w;
    km_prog_free(&s->k4);
    km_prog_free(&s->k8);
    km_prog_free(&s->k16);
    km_wl_fini(&s->kw);
    free(s);
}

static const struct workload_vt sad_vt = {sad_next,      km_wl_cta_start, km_wl_warp_next,
                                          km_wl_cta_end, sad_verify,      sad_destroy};

struct workload *sad_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct sad_cfg sc = {paper ? 176 : 32, paper ? 144 : 32};
    if (cfg_bind(c, "workload.sad", sad_keys, CFG_COUNT(sad_keys), &sc, e)) return NULL;
    char where[600];
    const char *bad = sc.width % 16    ? "workload.sad.width"
                      : sc.height % 16 ? "workload.sad.height"
                                       : NULL;
    int64_t badv = sc.width % 16 ? sc.width : sc.height;
    if (bad)
        return ws_fail(e,
                       "%s: %s = %lld must be a multiple of 16 (main.cu works on whole "
                       "macroblocks)",
                       cfg_origin(c, bad, where, sizeof where), bad, (long long)badv),
               NULL;
    struct sad *s = calloc(1, sizeof *s);
    if (!s) return ws_fail(e, "sad: out of memory"), NULL;
    s->w = (uint32_t)sc.width, s->h = (uint32_t)sc.height;
    s->mbw = s->w / 16, s->mbh = s->h / 16;
    if (km_wl_init(&s->kw, &sad_vt, "sad", e)) return free(s), NULL;
    uint64_t px = (uint64_t)s->w * s->h, nsad = 41ull * MAX_POS_PADDED * s->mbw * s->mbh;
    if (km_prog_build(&s->k4, "mb_sad_calc", 36, sad4_code, CFG_COUNT(sad4_code), e) ||
        km_prog_build(&s->k8, "larger_sad_calc_8", 20, larger8_code, CFG_COUNT(larger8_code), e) ||
        km_prog_build(&s->k16, "larger_sad_calc_16", 20, larger16_code, CFG_COUNT(larger16_code),
                      e) ||
        !(s->d_cur = devmem_alloc(s->kw.dm, 2 * px, "d_cur_image", e)) ||
        !(s->d_ref = devmem_alloc(s->kw.dm, 2 * px, "ref_ary", e)) ||
        !(s->d_sads = devmem_alloc(s->kw.dm, 2 * nsad, "d_sads", e))) {
        sad_destroy(&s->kw.base);
        return NULL;
    }
    uint16_t *cur = devmem_host(s->kw.dm, s->d_cur, 2 * px),
             *ref = devmem_host(s->kw.dm, s->d_ref, 2 * px);
    for (uint32_t y = 0; y < s->h; y++)
        for (uint32_t x = 0; x < s->w; x++) {
            ref[(size_t)y * s->w + x] = pixel((int32_t)x, (int32_t)y, 1);
            cur[(size_t)y * s->w + x] = pixel((int32_t)x + 3, (int32_t)y - 2, 2);
        }
    s->copies[0] = (struct wl_copy){s->d_cur, 2 * px};
    s->copies[1] = (struct wl_copy){s->d_ref, 2 * px};
    return &s->kw.base;
}
