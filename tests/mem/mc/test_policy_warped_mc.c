/* Tests of Warped-MC (src/mem/mc/policy_warped_mc.c) and its all-parts-off baseline frfcfs-rr on
 * hand-built queues (seed 000 Algorithm 1): a row hit that is its warp's last pending request
 * (H) goes before older hits; on a miss the row with the highest row-scoreboard score opens
 * first, scores saturate at their width; banks holding an H request are served first; each part
 * switched off restores FR-FCFS's choice; n_pending is shared across channels; requests are
 * conserved and the protocol checker accepts every command. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "mem/mc/warp_table.h"
#include "mem/memsys.h"
#include "testutil.h"

#include "mc_harness.h"

#define DDR4   "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\n"
#define WARPED DDR4 "policy=warped-mc\n"
#define RR     DDR4 "policy=frfcfs-rr\n"

/* Four reads to row 5 of bank (0,0), all queued at cycle 0: R0 of warp 0, R1 and R2 of warp 1,
 * R3 of warp 2. R0 opens the row (it is the oldest request of the only row). Then R3 is the last
 * pending request of warp 2 (H) and passes R1 and R2 (M); when R1 is served R2 becomes its warp's
 * last. FR-FCFS (and Warped-MC without request priority) serves the hits oldest first. */
static void hits(struct run *x) {
    enq_w(x, 0, addr(x, 0, 0, 5, 0), false, 0, 0, 0);
    enq_w(x, 1, addr(x, 0, 0, 5, 1), false, 0, 0, 1);
    enq_w(x, 2, addr(x, 0, 0, 5, 2), false, 0, 0, 1);
    enq_w(x, 3, addr(x, 0, 0, 5, 3), false, 0, 0, 2);
}

static void test_request_priority(void **state) {
    (void)state;
    struct run *x = start(WARPED);
    hits(x);
    uint64_t end = run_idle(x, 0);
    /* ACT 0, RD 17, then one RD per tCCD_L (6) */
    static const uint64_t tags[] = {0, 3, 1, 2}, cols[] = {17, 23, 29, 35};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end);

    x = start(WARPED "warped.request=false\n");
    hits(x);
    end = run_idle(x, 0);
    static const uint64_t fr[] = {0, 1, 2, 3};
    EXPECT_SERVED(x, fr, cols);
    finish(x, end);

    x = start(RR);
    hits(x);
    end = run_idle(x, 0);
    EXPECT_SERVED(x, fr, cols);
    finish(x, end);
}

/* Priority M (Algorithm 1 lines 9-10): after a request of a warp-load with others still pending
 * is served, that warp-load's other hits go next. Row 5 of bank (0,0): R0, R3, R4 of warp 1, R1
 * and R2 of warp 2. R0 opens the row; then no hit is any warp's last, and R3 (M: warp 1's) passes
 * the older R1; R4 is then warp 1's last (H); then R1, and R2 as warp 2's last. FR-FCFS: in
 * arrival order. */
static void test_request_priority_m(void **state) {
    (void)state;
    static const uint32_t warp[] = {1, 2, 2, 1, 1};
    struct run *x = start(WARPED);
    for (uint32_t i = 0; i < 5; i++) enq_w(x, i, addr(x, 0, 0, 5, i), false, 0, 0, warp[i]);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 3, 4, 1, 2};
    EXPECT_SERVED(x, tags, NULL);
    finish(x, end);

    x = start(WARPED "warped.request=false\n");
    for (uint32_t i = 0; i < 5; i++) enq_w(x, i, addr(x, 0, 0, 5, i), false, 0, 0, warp[i]);
    end = run_idle(x, 0);
    static const uint64_t fr[] = {0, 1, 2, 3, 4};
    EXPECT_SERVED(x, fr, NULL);
    finish(x, end);
}

/* Bank (0,0) closed: R0 and R1 of warp 1 want row 9 (neither is its warp's last), R2 of warp 2
 * alone wants row 7 (its warp's last: row 7 scores 1). Row priority opens row 7 first although
 * R0 is older; without it the oldest request's row (9) opens first. */
static void rows(struct run *x) {
    enq_w(x, 0, addr(x, 0, 0, 9, 0), false, 0, 0, 1);
    enq_w(x, 1, addr(x, 0, 0, 9, 1), false, 0, 0, 1);
    enq_w(x, 2, addr(x, 0, 0, 7, 0), false, 0, 0, 2);
}

static void test_row_priority(void **state) {
    (void)state;
    struct run *x = start(WARPED);
    rows(x);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {2, 0, 1};
    EXPECT_SERVED(x, tags, NULL);
    assert_int_equal(x->cmd[0].cmd, DRAM_ACT);
    assert_int_equal(x->cmd[0].row, 7);
    assert_int_equal(stats(x)->n_act, 2);
    finish(x, end);

    x = start(WARPED "warped.row=false\n");
    rows(x);
    end = run_idle(x, 0);
    static const uint64_t fr[] = {0, 1, 2};
    EXPECT_SERVED(x, fr, NULL);
    assert_int_equal(x->cmd[0].row, 9);
    finish(x, end);

    /* Scoring at arrival: R0 arrives as warp 1's only pending request and scores row 9, R2 row
     * 7; the tie goes to the oldest request's row, 9. */
    x = start(WARPED "warped.score_at=arrival\n");
    rows(x);
    end = run_idle(x, 0);
    EXPECT_SERVED(x, fr, NULL);
    assert_int_equal(x->cmd[0].row, 9);
    finish(x, end);
}

/* Row 7 has one last-of-warp request (R0, the oldest), row 9 two (R1, R2, younger): with 4-bit
 * scores row 9 (2) beats row 7 (1); with 1-bit scores both saturate at 1 and the tie goes to the
 * oldest request's row. */
static void sat(struct run *x) {
    enq_w(x, 0, addr(x, 0, 0, 7, 0), false, 0, 0, 1);
    enq_w(x, 1, addr(x, 0, 0, 9, 0), false, 0, 0, 2);
    enq_w(x, 2, addr(x, 0, 0, 9, 1), false, 0, 0, 3);
}

static void test_row_score_saturates(void **state) {
    (void)state;
    struct run *x = start(WARPED);
    sat(x);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {1, 2, 0};
    EXPECT_SERVED(x, tags, NULL);
    finish(x, end);

    x = start(WARPED "warped.score_bits=1\n");
    sat(x);
    end = run_idle(x, 0);
    static const uint64_t one[] = {0, 1, 2};
    EXPECT_SERVED(x, one, NULL);
    finish(x, end);
}

/* A full row scoreboard (one slot) scores only the first row: row 7 (R0, not last) takes the
 * slot, row 9 (R1, last of its warp) finds it full and is not scored, so the oldest row opens. */
static void test_row_scoreboard_full(void **state) {
    (void)state;
    struct run *x = start(WARPED "warped.rs_rows=1\n");
    enq_w(x, 0, addr(x, 0, 0, 7, 0), false, 0, 0, 1);
    enq_w(x, 1, addr(x, 0, 0, 7, 1), false, 0, 0, 1);
    enq_w(x, 2, addr(x, 0, 0, 9, 0), false, 0, 0, 2);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 1, 2};
    EXPECT_SERVED(x, tags, NULL);
    finish(x, end);
}

/* Banks P = (bg 0, ba 0) and Q = (bg 1, ba 0), each with row 3 opened by a first request (P,
 * then Q: round-robin continues after Q, at P). Then P gets two hits of warp 1 (M) and Q one hit
 * that is warp 2's only request (an H hit): the two-level bank scheduler serves Q first,
 * round-robin serves P first. A bank whose next request is a miss never joins the high pool. */
static uint64_t banks(struct run *x, uint32_t q_row) {
    enq_w(x, 0, addr(x, 0, 0, 3, 0), false, 0, 0, 9);
    enq_w(x, 1, addr(x, 1, 0, 3, 0), false, 0, 0, 8);
    uint64_t t = run_idle(x, 0) + 100;
    enq_w(x, 2, addr(x, 0, 0, 3, 1), false, t, 0, 1);
    enq_w(x, 3, addr(x, 0, 0, 3, 2), false, t, 0, 1);
    enq_w(x, 4, addr(x, 1, 0, q_row, 1), false, t, 0, 2);
    return run_idle(x, t);
}

static void test_bank_priority(void **state) {
    (void)state;
    struct run *x = start(WARPED);
    uint64_t end = banks(x, 3);
    static const uint64_t tags[] = {0, 1, 4, 2, 3};
    EXPECT_SERVED(x, tags, NULL);
    finish(x, end);

    x = start(WARPED "warped.bank=false\n");
    end = banks(x, 3);
    assert_int_equal(x->tag[2], 2);
    finish(x, end);

    /* Q's request a miss (row 4): no high bank, round-robin reaches P first (its PRE to Q) */
    x = start(WARPED);
    end = banks(x, 4);
    assert_int_equal(x->cmd[4].cmd, DRAM_RD);
    assert_int_equal(x->cmd[4].bg, 0);
    finish(x, end);

    /* with mc.warped.bank_pool = last the miss, its warp's last request, puts Q in the high
     * pool: Q's PRE goes before P's hits */
    x = start(WARPED "warped.bank_pool=last\n");
    end = banks(x, 4);
    assert_int_equal(x->cmd[4].cmd, DRAM_PRE);
    assert_int_equal(x->cmd[4].bg, 1);
    finish(x, end);
}

/* Statistics. test_request_priority's queue: request priority changed one decision (R3 for R1);
 * the H hits were R0 (its warp's only request), R3 and, after R1, R2; Fig. 7: one miss with one
 * pending row, hits served with 4, 3, 2, 1 hits pending. test_row_priority's: a miss among rows
 * 7 and 9 (row priority chose 7), then one with row 9 alone. */
static void test_decision_counts(void **state) {
    (void)state;
    struct run *x = start(WARPED);
    hits(x);
    json_t *s = sched_of(x, 0);
    assert_int_equal(STAT(s, "decisions"), 5); /* ACT + 4 RD */
    assert_int_equal(STAT(s, "req_changed"), 1);
    assert_int_equal(STAT(s, "row_changed"), 0);
    assert_int_equal(STAT(s, "h_issued"), 3);
    assert_int_equal(STAT(s, "miss_decisions"), 1);
    assert_int_equal(STAT(s, "pending_rows"), 1);
    assert_int_equal(STAT(s, "hit_decisions"), 4);
    assert_int_equal(STAT(s, "pending_hits"), 10);
    json_decref(s);

    x = start(WARPED);
    rows(x);
    s = sched_of(x, 0);
    assert_int_equal(STAT(s, "row_changed"), 1);
    assert_int_equal(STAT(s, "miss_decisions"), 2);
    assert_int_equal(STAT(s, "pending_rows"), 3);
    json_decref(s);
}

/* n_pending counts a warp-load's requests in every controller: one read of warp 4 in each of
 * two channels gives 2, serving both gives 0. */
static void test_pending_shared_across_channels(void **state) {
    (void)state;
    struct run *x = start(WARPED "[dram]\nchannels=2\n");
    const struct warp_table *wt = memsys_warp_table(x->ms);
    assert_non_null(wt);
    for (uint32_t ch = 0; ch < 2; ch++) {
        struct dram_addr a = {ch, 0, 0, 0, 0, 5, 0};
        enq_w(x, ch, addr_map_encode(memsys_map(x->ms), &a), false, 0, 3, 4);
    }
    struct mem_origin o = {.sm = 3, .warp_slot = 4};
    uint32_t id = warp_table_id(wt, &o);
    assert_int_equal(id, 3 * 32 + 4);
    assert_int_equal(warp_table_pending(wt, id), 2);
    uint64_t end = run_idle(x, 0);
    assert_int_equal(warp_table_pending(wt, id), 0);
    assert_int_equal(x->n, 2);
    finish(x, end);
}

static void test_policies_without_table(void **state) {
    (void)state;
    struct run *x = start(RR);
    assert_null(memsys_warp_table(x->ms));
    assert_string_equal(mc_policy_name(memsys_mc(x->ms, 0)), "frfcfs-rr");
    finish(x, 0);
}

static void test_conservation(void **state) {
    (void)state;
    conservation(WARPED, 1);
    conservation(WARPED "wq_hi=8\nwq_lo=2\nrq_size=8\nwq_size=8\nwarped.rs_rows=2\n", 2);
    conservation("[dram]\npreset=hbm2\n[mc]\ncheck=true\npolicy=warped-mc\n", 3);
    conservation("[dram]\npreset=gddr6-rtx2060s\n[mc]\ncheck=true\npolicy=warped-mc\n", 4);
    conservation(RR, 5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_request_priority),
        cmocka_unit_test(test_request_priority_m),
        cmocka_unit_test(test_row_priority),
        cmocka_unit_test(test_row_score_saturates),
        cmocka_unit_test(test_row_scoreboard_full),
        cmocka_unit_test(test_bank_priority),
        cmocka_unit_test(test_decision_counts),
        cmocka_unit_test(test_pending_shared_across_channels),
        cmocka_unit_test(test_policies_without_table),
        cmocka_unit_test(test_conservation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
