/* Test harness for the SM: a scripted workload (every warp of a CTA runs a fixed program, the
 * warp's index in its CTA choosing which), a fake memory that answers every request the SM sends
 * after a fixed delay, an issue trace, and a run loop that either jumps from event to event
 * (sm_next_event) or calls the SM every cycle. Header-only: each test file includes it once. */
#pragma once

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cfg.h"
#include "cache/cache.h"
#include "core/sm.h"
#include "testutil.h"

enum { FW_WARPS = 32, FW_PROG = 64, FW_SLOTS = 64, H_PEND = 8192, H_TRACE = 16384 };

/* ---- instructions ---- */

static inline struct inst I_ALU(uint8_t cls, uint16_t dst, uint16_t s0, uint16_t s1) {
    struct inst in = {.cls = cls, .active = 0xffffffffu};
    if (dst != REG_NONE) in.dst[in.ndst++] = dst;
    if (s0 != REG_NONE) in.src[in.nsrc++] = s0;
    if (s1 != REG_NONE) in.src[in.nsrc++] = s1;
    return in;
}
#define NR REG_NONE
static inline struct inst
I_INT(uint16_t dst, uint16_t s0) {
    return I_ALU(OP_INT, dst, s0, NR);
} static inline struct inst I_BAR(void) {
    return I_ALU(OP_BAR, NR, NR, NR);
}
/* A memory instruction: lane i accesses base + i * stride (active lanes only). `reg` is the
 * destination of a load/atomic or the source of a store. */
static inline struct inst
I_MEM(uint8_t space, uint8_t mop, uint16_t reg, uint64_t base, uint64_t stride, uint8_t width,
      uint32_t active) {
    struct inst in = {.cls = OP_MEM, .space = space, .mop = mop, .width = width, .active = active};
    if (mop == MOP_STORE)
        in.src[in.nsrc++] = reg;
    else
        in.dst[in.ndst++] = reg;
    for (int i = 0; i < WARP_SIZE; i++) in.addr[i] = base + (uint64_t)i * stride;
    return in;
} static inline struct inst I_LD(uint16_t dst, uint64_t base, uint64_t stride) {
    return I_MEM(SPACE_GLOBAL, MOP_LOAD, dst, base, stride, 4, 0xffffffffu);
}

/* ---- scripted workload ---- */

struct fake_wl;
struct wl_warp {
    struct fake_wl *f;
    uint64_t cta;
    unsigned warp, pc;
    bool live, exited;
};

struct fake_wl {
    struct workload base;
    struct kernel_desc k;
    struct inst prog[FW_WARPS][FW_PROG];
    unsigned plen[FW_WARPS];
    uint64_t cta_addr_stride; /* added to every address of CTA c, times c */
    struct wl_warp slots[FW_SLOTS][FW_WARPS];
    uint64_t ended[4096];
    unsigned nended, nstarted;
};

static int fw_cta_start(struct workload *w, uint64_t cta, struct wl_warp **warps,
                        struct ws_err *e) {
    (void)e;
    struct fake_wl *f = (struct fake_wl *)w;
    unsigned nw = (f->k.threads + 31) / 32;
    struct wl_warp *row = f->slots[cta % FW_SLOTS];
    for (unsigned i = 0; i < nw; i++) {
        assert_false(row[i].live);
        row[i] = (struct wl_warp){.f = f, .cta = cta, .warp = i, .live = true};
        warps[i] = &row[i];
    }
    f->nstarted++;
    return 0;
}

static int fw_warp_next(struct workload *w, struct wl_warp *wp, struct inst *in, struct ws_err *e) {
    (void)w, (void)e;
    struct fake_wl *f = wp->f;
    assert_true(wp->live);
    assert_false(wp->exited);
    unsigned p = wp->warp < FW_WARPS ? wp->warp : 0;
    if (wp->pc < f->plen[p]) {
        *in = f->prog[p][wp->pc];
        if (in->cls == OP_MEM)
            for (int i = 0; i < WARP_SIZE; i++) in->addr[i] += wp->cta * f->cta_addr_stride;
    } else {
        *in = I_ALU(OP_EXIT, NR, NR, NR);
        wp->exited = true;
    }
    in->pc = 0x1000 + 16 * (uint64_t)wp->pc;
    wp->pc++;
    return 0;
}

static void fw_cta_end(struct workload *w, uint64_t cta, struct wl_warp **warps) {
    struct fake_wl *f = (struct fake_wl *)w;
    unsigned nw = (f->k.threads + 31) / 32;
    for (unsigned i = 0; i < nw; i++) {
        assert_ptr_equal(warps[i], &f->slots[cta % FW_SLOTS][i]);
        assert_true(warps[i]->exited);
        warps[i]->live = false;
    }
    f->ended[f->nended++ % 4096] = cta;
}

static const struct workload_vt fw_vt = {
    .cta_start = fw_cta_start, .warp_next = fw_warp_next, .cta_end = fw_cta_end};

static struct fake_wl *fw_create(uint32_t threads, uint64_t ncta) {
    struct fake_wl *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->base.vt = &fw_vt;
    f->base.name = "fake";
    snprintf(f->k.name, sizeof f->k.name, "fake");
    f->k.threads = threads;
    f->k.ncta = ncta;
    f->k.grid[0] = (uint32_t)ncta;
    f->k.block[0] = threads;
    return f;
}

/* The same program for every warp index (warp = -1) or for one. */
static void fw_prog(struct fake_wl *f, int warp, const struct inst *p, unsigned n) {
    assert_true(n <= FW_PROG);
    for (int w = 0; w < FW_WARPS; w++) {
        if (warp >= 0 && w != warp) continue;
        memcpy(f->prog[w], p, n * sizeof *p);
        f->plen[w] = n;
    }
}

/* ---- harness ---- */

struct tr {
    uint32_t sub, slot;
    uint8_t cls;
    uint64_t pc, now;
};

struct h {
    struct cfg *cfg;
    struct sm_cfg sc;
    struct cache_cfg l1;
    struct sm_env env;
    struct sm *s;
    struct fake_wl *f;
    uint64_t delay;         /* fake memory latency */
    bool offchip;           /* replies say their data came from DRAM */
    bool every_cycle;       /* call sm_cycle every cycle instead of at sm_next_event */
    unsigned accept_every;  /* the NoC takes one request every this many cycles (0: all) */
    uint64_t allocs, frees; /* fake request pool */
    struct {
        struct mem_req *r;
        uint64_t t;
    } pend[H_PEND];
    unsigned npend;
    struct mem_req sent_copy[H_PEND]; /* the requests the SM sent, in order (copies) */
    unsigned nsent;
    struct tr tr[H_TRACE];
    unsigned ntr;
    uint64_t next_cta;
    unsigned max_resident;
    uint64_t end;
};

static struct mem_req *h_alloc(void *ctx) {
    struct h *h = ctx;
    h->allocs++;
    return calloc(1, sizeof(struct mem_req));
}
static void h_free(void *ctx, struct mem_req *r) {
    struct h *h = ctx;
    h->frees++;
    free(r);
}
static uint32_t h_subpart(void *ctx, uint64_t addr) {
    (void)ctx;
    return (uint32_t)((addr >> 7) % 4);
}
static void h_trace(void *ctx, uint32_t sm, uint32_t sub, uint32_t slot, const struct inst *in,
                    uint64_t now) {
    (void)sm;
    struct h *h = ctx;
    assert_true(h->ntr < H_TRACE);
    h->tr[h->ntr++] = (struct tr){sub, slot, in->cls, in->pc, now};
}

#define H_L1                                                                                       \
    "[l1d]\nsets = 4\nways = 4\nline = 128\nsector = 32\nmshrs = 8\nmshr_merge = 8\n"              \
    "miss_queue = 8\nhit_lat = 20\nalloc = on-miss\nwrite = write-evict\n"                         \
    "write_alloc = no-write-alloc\nstreaming = false\nindex = linear\nrepl = lru\n"
#define H_CORE                                                                                     \
    "[core]\nmax_warps = 8\nmax_ctas = 4\nmax_threads = 256\nregs = 8192\nsmem = 16384\n"          \
    "subcores = 1\nwarp_sched = lrr\nibuf = 1\nlat_int = 4\nlat_sp = 6\nii_int = 1\nii_sp = 1\n"   \
    "smem_lat = 10\nldst_q = 64\nout_q = 8\n"

/* Builds an SM from H_CORE + H_L1 + extra INI (later keys win). */
static struct h *h_create(const char *extra, struct fake_wl *f) {
    struct h *h = calloc(1, sizeof *h);
    assert_non_null(h);
    h->cfg = tu_cfg2(H_CORE H_L1, extra);
    struct ws_err e = {{0}};
    if (sm_cfg_configure(&h->sc, h->cfg, &e) != 0) fail_msg("%s", e.msg);
    if (cache_cfg_configure(&h->l1, "l1d", h->cfg, &e) != 0) fail_msg("%s", e.msg);
    if (cache_cfg_validate(&h->l1, "l1d", h->cfg, &e) != 0) fail_msg("%s", e.msg);
    if (cfg_check_unclaimed(h->cfg, &e) != 0) fail_msg("%s", e.msg);
    h->env = (struct sm_env){
        .ctx = h, .req_alloc = h_alloc, .req_free = h_free, .subpart_of = h_subpart, .app = 3};
    h->s = sm_create(&h->sc, &h->l1, 0, &h->env, &e);
    if (!h->s) fail_msg("%s", e.msg);
    sm_set_trace(h->s, h_trace, h);
    h->f = f;
    h->delay = 100;
    h->offchip = true;
    return h;
}

static void h_destroy(struct h *h) {
    sm_destroy(h->s);
    cfg_destroy(h->cfg);
    free(h->f);
    free(h);
}

static void h_dispatch(struct h *h, uint64_t now) {
    struct ws_err e = {{0}};
    while (h->next_cta < h->f->k.ncta && sm_can_take(h->s, &h->f->k)) {
        if (sm_take_cta(h->s, &h->f->base, &h->f->k, h->next_cta, now, &e) != 0)
            fail_msg("%s", e.msg);
        h->next_cta++;
    }
    unsigned r = sm_resident_ctas(h->s);
    if (r > h->max_resident) h->max_resident = r;
}

static void h_deliver(struct h *h, uint64_t now) {
    unsigned k = 0;
    for (unsigned i = 0; i < h->npend; i++) {
        if (h->pend[i].t == now) {
            struct mem_req *r = h->pend[i].r;
            if (r->kind == MEM_LOAD) {
                r->offchip = h->offchip; /* every sector of the fetch came from DRAM, or none */
                r->offchip_sectors = h->offchip ? r->sectors : 0;
            }
            sm_reply(h->s, r, now);
        } else {
            assert_true(h->pend[i].t > now);
            h->pend[k++] = h->pend[i];
        }
    }
    h->npend = k;
}

/* Runs until every CTA completed and the SM drained; returns the last cycle run. */
static uint64_t h_run(struct h *h, uint64_t limit) {
    struct ws_err e = {{0}};
    uint64_t now = 0;
    h_dispatch(h, now);
    for (;;) {
        h_deliver(h, now);
        if (sm_cycle(h->s, now, &e) != 0) fail_msg("%s", e.msg);
        struct mem_req *r;
        unsigned taken = 0;
        while ((r = sm_out_peek(h->s))) {
            if (h->accept_every && (now % h->accept_every || taken)) break;
            taken++;
            sm_out_pop(h->s);
            assert_true(h->npend < H_PEND);
            if (h->nsent < H_PEND) h->sent_copy[h->nsent] = *r; /* the first ones */
            h->nsent++;
            h->pend[h->npend].r = r;
            h->pend[h->npend++].t = now + h->delay;
        }
        if (sm_take_finished(h->s)) h_dispatch(h, now);
        if (h->next_cta == h->f->k.ncta && sm_idle(h->s) && h->npend == 0) break;
        uint64_t next = h->every_cycle ? now + 1 : sm_next_event(h->s);
        /* like the GPU: requests waiting to leave are offered every cycle, and taking one wakes
         * the SM (its LDST unit sleeps while its outgoing ring is full) */
        if (sm_out_peek(h->s) && now + 1 < next) next = now + 1;
        for (unsigned i = 0; i < h->npend; i++)
            if (h->pend[i].t < next) next = h->pend[i].t;
        if (next == UINT64_MAX) {
            char buf[4096];
            sm_describe_stuck(h->s, buf, sizeof buf);
            fail_msg("SM stuck at cycle %llu:\n%s", (unsigned long long)now, buf);
        }
        assert_true(next > now);
        now = next;
        if (now > limit) fail_msg("no completion by cycle %llu", (unsigned long long)limit);
    }
    sm_finish(h->s, 0);
    h->end = now;
    return now;
}

/* Cycle at which the n-th instruction (0-based) of warp slot `slot` issued. */
static uint64_t h_issue(const struct h *h, uint32_t slot, unsigned n) {
    for (unsigned i = 0; i < h->ntr; i++)
        if (h->tr[i].slot == slot && n-- == 0) return h->tr[i].now;
    fail_msg("warp %u issued fewer instructions", slot);
    return 0;
}
