/* Test harness shared by the scheduler tests (tests/mem/mc/test_policy_*.c): a memory system
 * built from INI text with every completion and DRAM command recorded, helpers to enqueue
 * requests at chosen banks and rows, and assertions on the exact service order and cycles. */
#pragma once

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "mem/memsys.h"
#include "testutil.h"

/* ---- harness: a memsys from INI text with every completion and DRAM command recorded ---- */

enum { MAXREC = 512, LIMIT = 200000 };

struct run {
    struct cfg *cfg;
    struct memsys *ms;
    unsigned n; /* completions, in the order the done callback saw them */
    uint64_t tag[MAXREC], col[MAXREC], data[MAXREC];
    unsigned ncmd; /* recorded commands (the first MAXREC) */
    uint64_t ncmd_all;
    struct dram_cmd_rec cmd[MAXREC];
};

static inline void on_done(void *ctx, const struct mc_req *r) {
    struct run *x = ctx;
    assert_true(x->n < MAXREC);
    x->tag[x->n] = r->r.tag;
    x->col[x->n] = r->r.ts[MEM_TS_COL];
    x->data[x->n++] = r->r.ts[MEM_TS_DATA];
}

static inline int on_cmd(void *ctx, const struct dram_cmd_rec *c, struct ws_err *e) {
    (void)e;
    struct run *x = ctx;
    if (x->ncmd < MAXREC) x->cmd[x->ncmd++] = *c;
    x->ncmd_all++;
    return 0;
}

static inline struct run *start(const char *ini) {
    struct run *x = calloc(1, sizeof *x);
    assert_non_null(x);
    struct ws_err e = {{0}};
    x->cfg = tu_cfg(ini);
    x->ms = memsys_create(x->cfg, &e);
    if (!x->ms) fail_msg("memsys_create: %s", e.msg);
    if (cfg_check_unclaimed(x->cfg, &e) != 0) fail_msg("%s", e.msg);
    memsys_set_done_cb(x->ms, on_done, x);
    memsys_add_cmd_observer(x->ms, on_cmd, x);
    return x;
}

/* Closes the run (the protocol checker's end-of-run rules included) and frees it. */
static inline void finish(struct run *x, uint64_t end) {
    struct ws_err e = {{0}};
    if (memsys_finish(x->ms, end, &e) != 0) fail_msg("memsys_finish: %s", e.msg);
    memsys_destroy(x->ms);
    cfg_destroy(x->cfg);
    free(x);
}

static inline const struct mc_stats *stats(struct run *x) {
    return mc_stats(memsys_mc(x->ms, 0));
}

/* Address of a burst of channel 0, rank 0. */
static inline uint64_t addr(struct run *x, uint32_t bg, uint32_t ba, uint32_t row, uint32_t col) {
    struct dram_addr a = {0, 0, 0, bg, ba, row, col};
    return addr_map_encode(memsys_map(x->ms), &a);
}

/* A request of warp slot `warp` of SM `sm` (the origin warp-aware policies group by). */
static inline void enq_w(struct run *x, uint64_t tag, uint64_t a, bool is_write, uint64_t now,
                         uint16_t sm, uint32_t warp) {
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = a;
    r.is_write = is_write;
    r.bytes = 64;
    r.tag = tag;
    r.o.sm = sm;
    r.o.warp_slot = warp;
    assert_true(memsys_can_accept(x->ms, a, is_write));
    memsys_enqueue(x->ms, &r, now);
}

static inline void enq(struct run *x, uint64_t tag, uint64_t a, bool is_write, uint64_t now) {
    enq_w(x, tag, a, is_write, now, 0, 0);
}

static inline void tick(struct run *x, uint64_t t) {
    struct ws_err e = {{0}};
    if (memsys_tick(x->ms, t, &e) != 0) fail_msg("cycle %llu: %s", (unsigned long long)t, e.msg);
}

/* Ticks cycle by cycle from t until every queue is empty; returns the first cycle not ticked. */
static inline uint64_t run_idle(struct run *x, uint64_t t) {
    for (; !memsys_idle(x->ms); t++) {
        if (t >= LIMIT) fail_msg("still busy at cycle %d", LIMIT);
        tick(x, t);
    }
    return t;
}

static inline void run_to(struct run *x, uint64_t from, uint64_t to) {
    for (uint64_t t = from; t < to; t++) tick(x, t);
}

/* The completions so far are exactly tags[] in this order, with their column commands at cols[]
 * (NULL: not checked). */
static inline void expect_served(const struct run *x, const uint64_t *tags, const uint64_t *cols,
                                 unsigned n) {
    char got[1024] = "", want[1024] = "";
    bool ok = x->n == n;
    for (unsigned i = 0; i < x->n; i++) {
        size_t l = strlen(got);
        snprintf(got + l, sizeof got - l, " %llu@%llu", (unsigned long long)x->tag[i],
                 (unsigned long long)x->col[i]);
    }
    for (unsigned i = 0; i < n; i++) {
        size_t l = strlen(want);
        if (cols)
            snprintf(want + l, sizeof want - l, " %llu@%llu", (unsigned long long)tags[i],
                     (unsigned long long)cols[i]);
        else
            snprintf(want + l, sizeof want - l, " %llu", (unsigned long long)tags[i]);
        if (i < x->n && (x->tag[i] != tags[i] || (cols && x->col[i] != cols[i]))) ok = false;
    }
    if (!ok) fail_msg("served (tag@column cycle):%s\nexpected:%s", got, want);
}
#define EXPECT_SERVED(x, tags, cols) expect_served(x, tags, cols, sizeof tags / sizeof tags[0])

/* Runs the queue to the end from cycle `from`, closes the run and returns the result's "sched"
 * group (the policy's own counters; caller frees). */
static inline json_t *sched_of(struct run *x, uint64_t from) {
    uint64_t end = run_idle(x, from);
    struct ws_err e = {{0}};
    assert_int_equal(memsys_finish(x->ms, end, &e), 0);
    struct stats_reg reg;
    stats_reg_init(&reg);
    assert_int_equal(memsys_register_stats(x->ms, &reg, false, &e), 0);
    json_t *j = stats_to_json(&reg);
    json_t *s = json_incref(json_object_get(j, "sched"));
    assert_non_null(s);
    json_decref(j);
    stats_reg_free(&reg);
    memsys_destroy(x->ms);
    cfg_destroy(x->cfg);
    free(x);
    return s;
}
#define STAT(s, k) json_integer_value(json_object_get(s, k))

/* A command observer keeping every REF's cycle (the first 64), however many commands a run
 * has. */
struct refs {
    unsigned n;
    uint64_t at[64];
};
static inline int on_ref(void *ctx, const struct dram_cmd_rec *c, struct ws_err *e) {
    (void)e;
    struct refs *r = ctx;
    if (c->cmd == DRAM_REF && r->n < 64) r->at[r->n++] = c->cycle;
    return 0;
}

/* Cycle of the k-th (from 0) recorded command of kind c; fails when there is none. */
static inline uint64_t cmd_cycle(const struct run *x, enum dram_cmd c, unsigned k) {
    for (unsigned i = 0; i < x->ncmd; i++)
        if (x->cmd[i].cmd == c && k-- == 0) return x->cmd[i].cycle;
    fail_msg("no %s number %u among %u commands", dram_cmd_names[c], k, x->ncmd);
    return 0;
}

/* N random requests over 48 bursts (2 groups x 2 banks x 3 rows x 4 columns), arriving at random
 * cycles: each completes exactly once, as a DRAM read or write, a forwarded read or a merged
 * write, and the protocol checker accepts every command. */
static inline void conservation(const char *ini, uint64_t seed) {
    enum { N = 400 };
    struct run *x = start(ini);
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    unsigned sent = 0, nrd = 0, nwr = 0;
    bool seen[N] = {false};
    uint64_t t = 0;
    for (; sent < N || !memsys_idle(x->ms); t++) {
        if (t >= LIMIT) fail_msg("still busy at cycle %d", LIMIT);
        if (sent < N && ws_rng_below(&r, 3) == 0) {
            uint32_t bg = (uint32_t)ws_rng_below(&r, 2), ba = (uint32_t)ws_rng_below(&r, 2);
            uint32_t row = (uint32_t)ws_rng_below(&r, 3), col = (uint32_t)ws_rng_below(&r, 4);
            bool wr = ws_rng_below(&r, 2) == 1;
            uint64_t a = addr(x, bg, ba, row, col);
            if (memsys_can_accept(x->ms, a, wr)) {
                /* three requests in a row share a warp (for the warp-aware policies) */
                enq_w(x, sent, a, wr, t, (uint16_t)(sent / 96 % 4), sent / 3 % 32);
                sent++;
                wr ? nwr++ : nrd++;
            }
        }
        tick(x, t);
    }
    assert_int_equal(x->n, N);
    for (unsigned i = 0; i < x->n; i++) {
        assert_true(x->tag[i] < N);
        assert_false(seen[x->tag[i]]);
        seen[x->tag[i]] = true;
    }
    struct ws_err e = {{0}};
    if (memsys_finish(x->ms, t, &e) != 0) fail_msg("memsys_finish: %s", e.msg);
    const struct memsys_summary *s = memsys_summary(x->ms);
    assert_int_equal(s->reads + s->writes + s->reads_forwarded + s->writes_merged, N);
    assert_int_equal(s->reads + s->reads_forwarded, nrd);
    assert_int_equal(s->writes + s->writes_merged, nwr);
    assert_true(s->reads_forwarded > 0);
    assert_true(s->writes_merged > 0);
    assert_int_equal(s->commands_checked, x->ncmd_all);
    memsys_destroy(x->ms);
    cfg_destroy(x->cfg);
    free(x);
}
