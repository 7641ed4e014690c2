/* Tests of close-page operation: the controller's mc.row_policy = close (RD/WR upgraded to
 * RDA/WRA when no other queued request hits the row) and the `close` scheduler
 * (src/mem/mc/policy_close.c: first issuable request in arrival order, idle rows precharged),
 * with exact command cycles on DDR4-2400, and conservation of requests. */
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

static void on_done(void *ctx, const struct mc_req *r) {
    struct run *x = ctx;
    assert_true(x->n < MAXREC);
    x->tag[x->n] = r->r.tag;
    x->col[x->n] = r->r.ts[MEM_TS_COL];
    x->data[x->n++] = r->r.ts[MEM_TS_DATA];
}

static int on_cmd(void *ctx, const struct dram_cmd_rec *c, struct ws_err *e) {
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

static inline void enq(struct run *x, uint64_t tag, uint64_t a, bool is_write, uint64_t now) {
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = a;
    r.is_write = is_write;
    r.bytes = 64;
    r.tag = tag;
    assert_true(memsys_can_accept(x->ms, a, is_write));
    memsys_enqueue(x->ms, &r, now);
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
                enq(x, sent++, a, wr, t);
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

/* DDR4-2400: tRCD 17, tRAS 39, tRP 17, tRC 56, tRRD_S 4, tCCD_S/L 4/6, tRTP 9. Bank P =
 * (bg 0, ba 0), Y = (bg 1, ba 0). */
#define DDR4 "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\n"

static bool bank_open(struct run *x, uint32_t bg, uint32_t ba) {
    struct dram_addr a = {0, 0, 0, bg, ba, 0, 0};
    const struct dram_chan *c = mc_dram(memsys_mc(x->ms, 0));
    return c->bank[dram_bank_index(c, &a)].open_row >= 0;
}

/* ---- mc.row_policy = close (with FR-FCFS) ---- */

/* R0 and R1 hit row 5 of P, R2 is alone in Y: R0's read keeps the row for R1 (RD 17); R2 (RDA at
 * 21: ACT Y at tRRD_S = 4) and R1 (RDA at max(17 + tCCD_L, 21 + tCCD_S) = 25) close their rows. */
static void test_close_row_policy(void **state) {
    (void)state;
    struct run *x = start(DDR4 "policy=frfcfs\nrow_policy=close\n");
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 0, 5, 1), false, 0);
    enq(x, 2, addr(x, 1, 0, 7, 0), false, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 2, 1}, cols[] = {17, 21, 25};
    EXPECT_SERVED(x, tags, cols);
    const struct mc_stats *st = stats(x);
    assert_int_equal(st->n_rd, 1);
    assert_int_equal(st->n_rda, 2);
    assert_int_equal(st->n_pre, 0);
    assert_int_equal(cmd_cycle(x, DRAM_RD, 0), 17);
    assert_int_equal(cmd_cycle(x, DRAM_RDA, 0), 21);
    assert_int_equal(cmd_cycle(x, DRAM_RDA, 1), 25);
    assert_false(bank_open(x, 0, 0));
    assert_false(bank_open(x, 1, 0));
    finish(x, end);
}

/* The same requests with the default open-page policy: three RDs, rows left open. */
static void test_open_row_policy(void **state) {
    (void)state;
    struct run *x = start(DDR4 "policy=frfcfs\n");
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 0, 5, 1), false, 0);
    enq(x, 2, addr(x, 1, 0, 7, 0), false, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 2, 1}, cols[] = {17, 21, 25};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->n_rd, 3);
    assert_int_equal(stats(x)->n_rda, 0);
    assert_true(bank_open(x, 0, 0));
    assert_true(bank_open(x, 1, 0));
    finish(x, end);
}

/* A queued write to the row keeps a read's row open too; the last write closes it (WRA). A
 * lone write: WRA. */
static void test_close_row_policy_writes(void **state) {
    (void)state;
    struct run *x = start(DDR4 "policy=frfcfs\nrow_policy=close\n");
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 100, addr(x, 0, 0, 5, 1), true, 0);
    enq(x, 101, addr(x, 1, 0, 3, 1), true, 0);
    uint64_t end = run_idle(x, 0);
    const struct mc_stats *st = stats(x);
    assert_int_equal(st->n_rd, 1);
    assert_int_equal(st->n_rda, 0);
    assert_int_equal(st->n_wr, 0);
    assert_int_equal(st->n_wra, 2);
    assert_int_equal(x->tag[0], 0);
    assert_int_equal(x->col[0], 17);
    assert_false(bank_open(x, 0, 0));
    assert_false(bank_open(x, 1, 0));
    finish(x, end);
}

/* ---- the close policy ---- */

/* One read: ACT 0, RD 17; with nothing queued the row is closed as soon as allowed:
 * max(tRAS, 17 + tRTP) = 39. FR-FCFS leaves it open. */
static void test_idle_precharge(void **state) {
    (void)state;
    struct run *x = start(DDR4 "policy=close\n");
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    uint64_t t = run_idle(x, 0);
    assert_int_equal(t, 18);
    assert_int_equal(x->col[0], 17);
    assert_int_equal(stats(x)->n_pre, 0);
    run_to(x, t, 300);
    assert_int_equal(stats(x)->n_pre, 1);
    assert_int_equal(cmd_cycle(x, DRAM_PRE, 0), 39);
    assert_false(bank_open(x, 0, 0));
    finish(x, 300);

    x = start(DDR4 "policy=frfcfs\n");
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    run_to(x, 0, 300);
    assert_int_equal(stats(x)->n_pre, 0);
    assert_true(bank_open(x, 0, 0));
    finish(x, 300);
}

/* A hit that arrives before the idle precharge keeps the row: RD at 35, PRE at 35 + tRTP = 44. */
static void test_no_precharge_under_a_hit(void **state) {
    (void)state;
    struct run *x = start(DDR4 "policy=close\n");
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    run_to(x, 0, 35);
    enq(x, 1, addr(x, 0, 0, 5, 1), false, 35);
    run_to(x, 35, 300);
    static const uint64_t tags[] = {0, 1}, cols[] = {17, 35};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->n_pre, 1);
    assert_int_equal(cmd_cycle(x, DRAM_PRE, 0), 44);
    assert_int_equal(stats(x)->n_act, 1);
    finish(x, 300);
}

/* While writes drain (wq_hi = 2), the idle cycles do not close a row a queued read still wants:
 * R0 opens row 5 of P (RD 17); at 30 R1 (P, row 5) and two writes to Y arrive. ACT Y 30, W0's
 * WR 47 (tRCDWR 17) ends the drain (wq_lo = 1); R1 hits the still-open row at 47 + 12 + 4 +
 * tWTR_S 3 = 66, W1 follows at 66 + tRTW = 77. Only then are the rows closed: P at 66 + tRTP =
 * 75, Y at 77 + 12 + 4 + tWR 18 = 111. */
static void test_wanted_row_kept_while_draining(void **state) {
    (void)state;
    struct run *x = start(DDR4 "policy=close\nwq_hi=2\nwq_lo=1\n");
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    run_to(x, 0, 30);
    enq(x, 1, addr(x, 0, 0, 5, 1), false, 30);
    enq(x, 100, addr(x, 1, 0, 3, 0), true, 30);
    enq(x, 101, addr(x, 1, 0, 3, 1), true, 30);
    run_to(x, 30, 300);
    static const uint64_t tags[] = {0, 100, 1, 101}, cols[] = {17, 47, 66, 77};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->n_act, 2);
    assert_int_equal(stats(x)->n_pre, 2);
    assert_int_equal(cmd_cycle(x, DRAM_PRE, 0), 75);
    assert_int_equal(cmd_cycle(x, DRAM_PRE, 1), 111);
    finish(x, 300);
}

/* Arrival order, first issuable: R1 (row 9) cannot precharge before tRAS = 39, so R2's hit to
 * row 5 goes at 23; R1: PRE 39, ACT 56, RD 73; the idle PRE at max(56 + 39, 73 + 9) = 95. */
static void test_close_order(void **state) {
    (void)state;
    struct run *x = start(DDR4 "policy=close\n");
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 0, 9, 0), false, 0);
    enq(x, 2, addr(x, 0, 0, 5, 1), false, 0);
    run_to(x, 0, 300);
    static const uint64_t tags[] = {0, 2, 1}, cols[] = {17, 23, 73};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->n_pre, 2);
    assert_int_equal(cmd_cycle(x, DRAM_PRE, 0), 39);
    assert_int_equal(cmd_cycle(x, DRAM_PRE, 1), 95);
    assert_int_equal(stats(x)->rd_conflict, 1);
    finish(x, 300);
}

static void test_conservation(void **state) {
    (void)state;
    conservation(DDR4 "policy=close\n", 31);
    conservation(DDR4 "policy=frfcfs\nrow_policy=close\n", 32);
    conservation(DDR4 "policy=close\nrow_policy=close\n", 33);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_close_row_policy),
        cmocka_unit_test(test_open_row_policy),
        cmocka_unit_test(test_close_row_policy_writes),
        cmocka_unit_test(test_idle_precharge),
        cmocka_unit_test(test_no_precharge_under_a_hit),
        cmocka_unit_test(test_wanted_row_kept_while_draining),
        cmocka_unit_test(test_close_order),
        cmocka_unit_test(test_conservation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
