/* Warp-gather micro-benchmark for seed 002's warp-aware scheduling study (Ch. 4; the digest's
 * Sec. 9.3 knobs): every warp-load touches exactly k 128-byte lines spread over exactly m memory
 * channels, so the two properties the thesis uses to explain where its schedulers gain (requests
 * per warp-load k, channels per warp-load m) can be set directly instead of inherited from a
 * benchmark's input. A CUDA program of the usual gather shape:
 *
 *   __global__ void gather(const int *idx, const float *data, float *dst, float *out,
 *                          int iters, int nthreads, int compute, int store_every) {
 *       int t = blockIdx.x * blockDim.x + threadIdx.x;      // 256 threads per block
 *       float acc = 0; int s = store_every;
 *       for (int it = 0; it < iters; it++) {
 *           int j = idx[it * nthreads + t];                  // coalesced: one line per warp
 *           float v = data[j];                               // the gather: k lines, m channels
 *           for (int c = 0; c < compute; c++) acc = acc * 0.5f + v;   // FFMA chain
 *           if (--s == 0) { dst[j] = acc; s = store_every; } // scatter store, same k and m
 *       }
 *       out[t] = acc;
 *   }
 *
 * The host builds idx from the machine's channel interleave (workload.gather.interleave bytes
 * per channel, workload.gather.nchan channels taken modulo, as configs/gtx480-6g.ini maps them):
 * per warp-load a random stripe position and a random first channel; line j of the k goes to the
 * (j mod m)-th channel after the first, as the (j div m)-th line there. With locality = row the
 * lines one channel gets are adjacent in that channel's address space (the same DRAM row, as the
 * thesis's sad, nw and SS put many requests of a warp into one controller); with scatter each
 * line is at its own random place (a row miss each). Lane l reads word l div k of line l mod k. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/kernels/kmodel.h"

enum { GA_BLOCK = 256 };
enum { P_IDX, P_DATA, P_DST, P_OUT, P_ITERS, P_NT, P_C, P_SE };

static const struct km_inst gather_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0)), /* t */
    KM_MOV_(3, KI(0)),                               /* it */
    KM_MOV_(5, KF(0.0f)),                            /* acc */
    KM_MOV_(11, KP(P_SE)),                           /* s */
    KM_LBL("loop"),
    KM_OP3(KM_IMAD, 6, KR(3), KP(P_NT), KR(0)), /* it * nthreads + t */
    KM_OP3(KM_IMAD, 6, KR(6), KI(4), KP(P_IDX)),
    KM_LDG_S(4, 7, KR(6), 0), /* j = idx[...] */
    KM_OP3(KM_IMAD, 8, KR(7), KI(4), KP(P_DATA)),
    KM_LDG(4, 9, KR(8), 0), /* v = data[j] */
    KM_MOV_(10, KI(0)),     /* c */
    KM_LBL("compute"),
    KM_OP3(KM_FFMA, 5, KR(5), KF(0.5f), KR(9)),
    KM_OP2(KM_IADD, 10, KR(10), KI(1)),
    KM_ISETP_(KM_LT, 1, KR(10), KP(P_C)),
    KM_BRA_IF(1, "compute", "computed"),
    KM_LBL("computed"),
    KM_OP2(KM_IADD, 11, KR(11), KI(-1)),
    KM_ISETP_(KM_NE, 1, KR(11), KRZ),
    KM_BRA_IF(1, "next", "next"),
    KM_OP3(KM_IMAD, 12, KR(7), KI(4), KP(P_DST)),
    KM_STG(4, KR(12), 0, KR(5)), /* dst[j] = acc */
    KM_MOV_(11, KP(P_SE)),
    KM_LBL("next"),
    KM_OP2(KM_IADD, 3, KR(3), KI(1)),
    KM_ISETP_(KM_LT, 0, KR(3), KP(P_ITERS)),
    KM_BRA_IF(0, "loop", "done"),
    KM_LBL("done"),
    KM_OP3(KM_IMAD, 13, KR(0), KI(4), KP(P_OUT)),
    KM_STG(4, KR(13), 0, KR(5)), /* out[t] = acc */
    KM_EXIT_(),
};

static const char *const locality_names[] = {"row", "scatter", NULL};

struct gather_cfg {
    int64_t lines, channels, blocks, iters, compute, store_every, footprint_mb, interleave, nchan;
    int locality;
};
#define GO(f) offsetof(struct gather_cfg, f)
static const struct cfg_key gather_keys[] = {
    {"workload.gather.lines", CFG_INT, GO(lines), "8", 1, 32, NULL, "lines",
     "k: distinct 128 B lines per warp-load (1 = coalesced, 32 = a line per lane)"},
    {"workload.gather.channels", CFG_INT, GO(channels), "1", 1, 64, NULL, "channels",
     "m: channels a warp-load's lines spread over (at most lines and nchan)"},
    {"workload.gather.locality", CFG_ENUM, GO(locality), "row", 0, 0, locality_names, "",
     "row: the lines a warp-load puts in one channel are adjacent there (one DRAM row); "
     "scatter: each line at its own random place"},
    {"workload.gather.blocks", CFG_INT, GO(blocks), NULL, 1, 1 << 20, NULL, "CTAs",
     "CTAs of 256 threads (preset by workload.size: test 16, paper 240)"},
    {"workload.gather.iters", CFG_INT, GO(iters), NULL, 1, 1 << 16, NULL, "iterations",
     "gather iterations per thread (preset by workload.size: test 4, paper 32)"},
    {"workload.gather.compute", CFG_INT, GO(compute), "16", 1, 1 << 16, NULL, "FFMAs",
     "dependent FFMAs after each gather (4 warp instructions each with the loop)"},
    {"workload.gather.store_every", CFG_INT, GO(store_every), "0", 0, 1 << 16, NULL, "iterations",
     "scatter-store dst[j] every this many iterations (0: never)"},
    {"workload.gather.footprint", CFG_INT, GO(footprint_mb), NULL, 1, 4096, NULL, "MB",
     "bytes the gathers range over, per array (preset by workload.size: test 4, paper 64)"},
    {"workload.gather.interleave", CFG_INT, GO(interleave), "256", 128, 1 << 20, NULL, "bytes",
     "the machine's channel interleave (gtx480-6g: 256), a multiple of 128"},
    {"workload.gather.nchan", CFG_INT, GO(nchan), "6", 1, 64, NULL, "channels",
     "the machine's channel count, taken modulo (gtx480-6g: 6)"},
};

struct gather {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog;
    struct gather_cfg cfg;
    uint32_t nt;     /* threads */
    uint64_t dbytes; /* bytes of data (and of dst) */
    uint64_t d_idx, d_data, d_dst, d_out;
    struct wl_copy copies[2];
    bool launched;
};

static int gather_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct gather *g = (struct gather *)w;
    if (g->launched) return 0;
    struct km_launch l = {
        .prog = &g->prog, .grid = {(uint32_t)g->cfg.blocks, 1, 1}, .block = {GA_BLOCK, 1, 1}};
    l.param[P_IDX] = (int64_t)g->d_idx;
    l.param[P_DATA] = (int64_t)g->d_data;
    l.param[P_DST] = (int64_t)g->d_dst;
    l.param[P_OUT] = (int64_t)g->d_out;
    l.param[P_ITERS] = g->cfg.iters;
    l.param[P_NT] = g->nt;
    l.param[P_C] = g->cfg.compute;
    l.param[P_SE] = g->cfg.store_every;
    if (km_run_launch(g->kw.run, &l, k, e)) return -1;
    k->id = 0;
    k->copies = g->copies;
    k->ncopies = 2;
    g->launched = true;
    return 1;
}

static int gather_verify(struct workload *w, struct ws_err *e) {
    struct gather *g = (struct gather *)w;
    const struct gather_cfg *c = &g->cfg;
    uint64_t span = 4ull * (uint64_t)c->iters * g->nt;
    const int32_t *idx = devmem_host(g->kw.dm, g->d_idx, span);
    const float *out = devmem_host(g->kw.dm, g->d_out, 4ull * g->nt);
    const float *data = devmem_host(g->kw.dm, g->d_data, g->dbytes);
    for (uint32_t t = 0; t < g->nt; t++) {
        float acc = 0;
        for (int64_t it = 0; it < c->iters; it++) {
            float v = data[idx[(uint64_t)it * g->nt + t]];
            for (int64_t k = 0; k < c->compute; k++) acc = fmaf(acc, 0.5f, v);
        }
        if (memcmp(&out[t], &acc, sizeof acc) != 0)
            return ws_fail(e, "gather: out[%u] = %.9g, the host loop gives %.9g", t, (double)out[t],
                           (double)acc);
    }
    return 0;
}

static void gather_destroy(struct workload *w) {
    struct gather *g = (struct gather *)w;
    km_prog_free(&g->prog);
    km_wl_fini(&g->kw);
    free(g);
}

static const struct workload_vt gather_vt = {gather_next,   km_wl_cta_start, km_wl_warp_next,
                                             km_wl_cta_end, gather_verify,   gather_destroy};

/* Fills idx (and the data words it names) for every warp-load: see the header. `base` is the
 * first stripe-aligned device address inside data, `nstripes` the stripes after it. */
static void build_indices(struct gather *g, int32_t *idx, float *data, uint64_t base,
                          uint64_t nstripes, uint64_t seed) {
    const struct gather_cfg *c = &g->cfg;
    const uint32_t k = (uint32_t)c->lines, m = (uint32_t)c->channels, nch = (uint32_t)c->nchan;
    const uint64_t il = (uint64_t)c->interleave, stripe = il * nch, lpc = il / 128;
    /* lines per channel, and the chunks they take there, rounded up to a power of two so that a
     * warp-load's lines in one channel sit in as few DRAM rows as they can */
    const uint64_t per = (k + m - 1) / m, chunks = (per + lpc - 1) / lpc;
    uint64_t align = 1;
    while (align < chunks) align <<= 1;
    const uint64_t slots = nstripes / align;
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    uint64_t addr[32];
    for (uint32_t warp = 0; warp < g->nt / 32; warp++)
        for (int64_t it = 0; it < c->iters; it++) {
            uint64_t q0 = ws_rng_below(&r, slots) * align;
            uint32_t first = (uint32_t)ws_rng_below(&r, nch);
            for (uint32_t j = 0; j < k; j++) {
                uint32_t ch = (first + j % m) % nch;
                uint64_t t = j / m, q = q0 + t / lpc;
                if (c->locality == 1) q = ws_rng_below(&r, nstripes), t = ws_rng_below(&r, lpc);
                addr[j] = base + q * stripe + ch * il + (t % lpc) * 128;
            }
            for (uint32_t l = 0; l < 32; l++) {
                uint64_t a = addr[l % k] + 4 * (l / k);
                uint64_t j = (a - g->d_data) / 4;
                idx[(uint64_t)it * g->nt + warp * 32 + l] = (int32_t)j;
                data[j] = (float)(j % 1021) / 8.0f; /* any exact value; only read words are set */
            }
        }
}

struct workload *gather_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct gather_cfg gc = {
        .blocks = paper ? 240 : 16, .iters = paper ? 32 : 4, .footprint_mb = paper ? 64 : 4};
    if (cfg_bind(c, "workload.gather", gather_keys, CFG_COUNT(gather_keys), &gc, e)) return NULL;
    char where[600];
    if (gc.interleave % 128)
        return ws_fail(e, "%s: workload.gather.interleave = %lld is not a multiple of 128",
                       cfg_origin(c, "workload.gather.interleave", where, sizeof where),
                       (long long)gc.interleave),
               NULL;
    if (gc.channels > gc.lines || gc.channels > gc.nchan)
        return ws_fail(e,
                       "%s: workload.gather.channels = %lld exceeds the lines (%lld) or the "
                       "channels (%lld) there are",
                       cfg_origin(c, "workload.gather.channels", where, sizeof where),
                       (long long)gc.channels, (long long)gc.lines, (long long)gc.nchan),
               NULL;
    uint64_t stripe = (uint64_t)gc.interleave * (uint64_t)gc.nchan;
    uint64_t bytes = (uint64_t)gc.footprint_mb << 20;
    if (bytes < 64 * stripe)
        return ws_fail(e, "%s: workload.gather.footprint = %lld MB holds fewer than 64 stripes",
                       cfg_origin(c, "workload.gather.footprint", where, sizeof where),
                       (long long)gc.footprint_mb),
               NULL;
    struct gather *g = calloc(1, sizeof *g);
    if (!g) return ws_fail(e, "gather: out of memory"), NULL;
    if (km_wl_init(&g->kw, &gather_vt, "gather", e)) return free(g), NULL;
    g->cfg = gc;
    g->nt = (uint32_t)gc.blocks * GA_BLOCK;
    uint64_t ibytes = 4ull * (uint64_t)gc.iters * g->nt;
    g->dbytes = bytes + stripe;
    if (km_prog_build(&g->prog, "gather", 16, gather_code, CFG_COUNT(gather_code), e) ||
        !(g->d_idx = devmem_alloc(g->kw.dm, ibytes, "idx", e)) ||
        !(g->d_data = devmem_alloc(g->kw.dm, g->dbytes, "data", e)) ||
        !(g->d_dst = devmem_alloc(g->kw.dm, g->dbytes, "dst", e)) ||
        !(g->d_out = devmem_alloc(g->kw.dm, 4ull * g->nt, "out", e))) {
        gather_destroy(&g->kw.base);
        return NULL;
    }
    /* channel arithmetic is on absolute addresses: start at the first whole stripe */
    uint64_t base = (g->d_data + stripe - 1) / stripe * stripe;
    build_indices(g, devmem_host(g->kw.dm, g->d_idx, ibytes),
                  devmem_host(g->kw.dm, g->d_data, g->dbytes), base, bytes / stripe,
                  (uint64_t)wc->seed);
    g->copies[0] = (struct wl_copy){g->d_idx, ibytes};
    g->copies[1] = (struct wl_copy){g->d_data, g->dbytes};
    return &g->kw.base;
}
