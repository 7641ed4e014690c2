/* Tests of seed 002's warp-group schedulers (src/mem/mc/policy_warp_group.c) on hand-built
 * queues, DDR4-2400 (tRP 17, tRCD 17, tRTP 9, nBL 4: MERB needs 10 hits to hide a miss):
 * WAFCFS takes the oldest complete group; BASJF the lowest score (a predicted miss costs 3, a hit
 * 1, plus the bank queue's score); BASJF+AB the oldest once it is older than K; MERB the oldest
 * group with a miss once enough hits are queued elsewhere; groups only form within the window;
 * WAWD serves the reads it sent ahead of a drain before the drain's writes; frfcfs-cq admits
 * predicted row hits first, under its streak cap and age threshold; each bank's reads are served
 * in admission order; requests are conserved. */
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

#include "mc_harness.h"

#define DDR4_BASE "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\nwg.window=4\n"
#define DDR4      DDR4_BASE "basjf.preempt=1000\n"
#define WG(p)     DDR4 "policy=" p "\n"

/* Group A (warp 1): three reads of row 5 in bank P (bg 0, ba 0), score 3 + 1 + 1 = 5, arrives
 * first; group B (warp 2): one read of row 7 in bank Q (bg 1, ba 0), score 3, one cycle later. */
static void two_groups(struct run *x) {
    for (uint32_t i = 0; i < 3; i++) enq_w(x, i, addr(x, 0, 0, 5, i), false, 0, 0, 1);
    run_to(x, 0, 1);
    enq_w(x, 3, addr(x, 1, 0, 7, 0), false, 1, 0, 2);
}

static void test_wafcfs_oldest_group(void **state) {
    (void)state;
    struct run *x = start(WG("wafcfs"));
    two_groups(x);
    uint64_t end = run_idle(x, 1);
    assert_int_equal(x->cmd[0].cmd, DRAM_ACT); /* A's bank first: A is older */
    assert_int_equal(x->cmd[0].bg, 0);
    assert_int_equal(x->cmd[0].cycle, 4); /* complete after the 4-cycle window */
    static const uint64_t tags[] = {0, 3, 1, 2};
    EXPECT_SERVED(x, tags, NULL);
    finish(x, end);
}

static void test_basjf_shortest_group(void **state) {
    (void)state;
    struct run *x = start(WG("basjf"));
    two_groups(x);
    uint64_t end = run_idle(x, 1);
    /* at cycle 4 only A is complete (B completes at 5): A's first read goes; at 5 B (score 3)
     * undercuts the rest of A only by preemption, which is off here, so A is admitted whole */
    assert_int_equal(x->cmd[0].bg, 0);
    finish(x, end);

    /* both complete together: B (3) before A (5) */
    x = start(WG("basjf"));
    for (uint32_t i = 0; i < 3; i++) enq_w(x, i, addr(x, 0, 0, 5, i), false, 0, 0, 1);
    enq_w(x, 3, addr(x, 1, 0, 7, 0), false, 0, 0, 2);
    end = run_idle(x, 0);
    assert_int_equal(x->cmd[0].bg, 1);
    assert_int_equal(x->tag[0], 3);
    finish(x, end);
}

/* Preemption: B completes while A is being admitted; with a margin of 0 its score (3) undercuts
 * A's (5) and A is suspended once; with the margin of 1000 it is not. */
static void test_basjf_preempts(void **state) {
    (void)state;
    struct run *x = start(DDR4_BASE "policy=basjf\nbasjf.preempt=0\n");
    two_groups(x);
    json_t *s = sched_of(x, 1);
    assert_int_equal(STAT(s, "preemptions"), 1);
    json_decref(s);
    x = start(WG("basjf"));
    two_groups(x);
    s = sched_of(x, 1);
    assert_int_equal(STAT(s, "preemptions"), 0);
    assert_int_equal(STAT(s, "admitted"), 4);
    json_decref(s);
}

/* Age bias: both groups complete at cycle 4; with K = 2, A (older) goes first though its score
 * is higher; plain BASJF takes B first. */
static void test_basjf_ab_age(void **state) {
    (void)state;
    struct run *x = start(DDR4 "policy=basjf-ab\nbasjf.age=2\n");
    for (uint32_t i = 0; i < 3; i++) enq_w(x, i, addr(x, 0, 0, 5, i), false, 0, 0, 1);
    enq_w(x, 3, addr(x, 1, 0, 7, 0), false, 0, 0, 2);
    uint64_t end = run_idle(x, 0);
    assert_int_equal(x->cmd[0].bg, 0);
    assert_int_equal(x->tag[0], 0);
    finish(x, end);
}

/* Bank command queues of one read (mc.wg.bank_q = 1, the default) against unbounded ones
 * (4096): a group holds five reads of bank P
 * (rows 5, 9, 11, 13, 15) and then one of bank Q. Unbounded, the five P reads are admitted at
 * cycles 4-8 and Q's at 9, so Q opens at 9; with one slot per bank the four waiting P reads are
 * passed over and Q's read is admitted at 5 and opens at 8 (tRRD_S after P's ACT at 4). */
static void test_bank_queue_bound(void **state) {
    (void)state;
    static const uint32_t rows[] = {5, 9, 11, 13, 15};
    for (int bounded = 0; bounded < 2; bounded++) {
        struct run *x =
            start(bounded ? WG("wafcfs") "wg.bank_q=1\n" : WG("wafcfs") "wg.bank_q=4096\n");
        for (uint32_t i = 0; i < 5; i++) enq_w(x, i, addr(x, 0, 0, rows[i], 0), false, 0, 0, 1);
        enq_w(x, 5, addr(x, 1, 0, 3, 0), false, 0, 0, 1);
        uint64_t end = run_idle(x, 0);
        assert_int_equal(cmd_cycle(x, DRAM_ACT, 0), 4);
        assert_int_equal(cmd_cycle(x, DRAM_ACT, 1), bounded ? 8 : 9);
        assert_int_equal(x->n, 6);
        finish(x, end);
    }
    /* The same five P reads as group A and the Q read as group B (warp 2): with one slot per
     * bank, A waits for P after its first read, and rather than leave Q idle the transaction
     * scheduler admits B's read at 5 (Q opens at 8, not after A's reads get through P). */
    struct run *x = start(WG("wafcfs") "wg.bank_q=1\n");
    for (uint32_t i = 0; i < 5; i++) enq_w(x, i, addr(x, 0, 0, rows[i], 0), false, 0, 0, 1);
    enq_w(x, 5, addr(x, 1, 0, 3, 0), false, 0, 0, 2);
    uint64_t end = run_idle(x, 0);
    assert_int_equal(cmd_cycle(x, DRAM_ACT, 1), 8);
    assert_int_equal(x->cmd[1].bg, 1);
    finish(x, end);
}

/* Groups form only within the window: two reads of one warp 10 cycles apart are two groups. */
static void test_window(void **state) {
    (void)state;
    struct run *x = start(WG("wafcfs"));
    enq_w(x, 0, addr(x, 0, 0, 5, 0), false, 0, 0, 1);
    enq_w(x, 1, addr(x, 0, 0, 5, 1), false, 0, 0, 1);
    run_to(x, 0, 10);
    enq_w(x, 2, addr(x, 0, 0, 5, 2), false, 10, 0, 1);
    json_t *s = sched_of(x, 10);
    assert_int_equal(STAT(s, "groups"), 2);
    assert_int_equal(STAT(s, "members"), 3);
    assert_int_equal(STAT(s, "admitted"), 3);
    json_decref(s);
}

/* A group goes into service only when selected: A (one read, bank P) completes at 4 and leaves
 * the batching unit; B (one read, bank Q, another warp) arrives at 5 into A's freed CAM entry
 * and completes at 9, the end of its window. (It once inherited A's place in service: admitted
 * at 5, unselected and incomplete, its ACT at 8, tRRD after A's.) */
static void test_freed_slot(void **state) {
    (void)state;
    static const char *const pols[] = {"wafcfs", "basjf", "merb-wawd"};
    for (int i = 0; i < 3; i++) {
        char ini[256];
        snprintf(ini, sizeof ini, WG("%s"), pols[i]);
        struct run *x = start(ini);
        enq_w(x, 0, addr(x, 0, 0, 5, 0), false, 0, 0, 1);
        run_to(x, 0, 5);
        assert_int_equal(cmd_cycle(x, DRAM_ACT, 0), 4);
        enq_w(x, 1, addr(x, 1, 0, 7, 0), false, 5, 0, 2);
        uint64_t end = run_idle(x, 5);
        assert_int_equal(cmd_cycle(x, DRAM_ACT, 1), 9);
        finish(x, end);
    }
}

/* MERB: bank Q has row 3 open and group H (14 hits to it) in service, one read in Q's queue
 * and the others about to be enqueued; then group M (one read of row 9 in bank P, whose row 5
 * is open: a predicted miss, score 3) and group S (one hit to P's row 5, score 1) complete
 * together. BASJF+AB takes S first; MERB, with at least 10 hits queued or about to be in Q,
 * takes the older M first. */
static uint64_t merb_queue(struct run *x) {
    enq_w(x, 100, addr(x, 0, 0, 5, 0), false, 0, 0, 9);
    enq_w(x, 101, addr(x, 1, 0, 3, 0), false, 0, 1, 9);
    uint64_t t = run_idle(x, 0) + 50;
    for (uint32_t i = 0; i < 14; i++) enq_w(x, i, addr(x, 1, 0, 3, 1 + i), false, t, 0, 1);
    run_to(x, t, t + 6);
    enq_w(x, 20, addr(x, 0, 0, 9, 0), false, t + 6, 0, 2);
    enq_w(x, 21, addr(x, 0, 0, 5, 1), false, t + 6, 0, 3);
    return run_idle(x, t + 6);
}

static unsigned pos(const struct run *x, uint64_t tag) {
    for (unsigned i = 0; i < x->n; i++)
        if (x->tag[i] == tag) return i;
    fail_msg("tag %llu not served", (unsigned long long)tag);
    return 0;
}

static void test_merb(void **state) {
    (void)state;
    struct run *x = start(WG("basjf-ab"));
    uint64_t end = merb_queue(x);
    assert_true(pos(x, 21) < pos(x, 20));
    finish(x, end);

    x = start(WG("merb"));
    end = merb_queue(x);
    assert_true(pos(x, 20) < pos(x, 21));
    finish(x, end);

    /* Ideal Coordination is BASJF+AB's oracle: no MERB (one controller: the only marked warp is
     * the one it serves) */
    x = start(WG("basjf-ideal"));
    end = merb_queue(x);
    assert_true(pos(x, 21) < pos(x, 20));
    finish(x, end);
}

/* WAWD: bank queues of one read; group L (5 reads to bank P, rows 5, 9, 11, 13, 15: all
 * misses) and group S (one read of bank Q) complete at cycle 4; S goes first (score 3 < 15),
 * then L's first read. Two writes at 6 reach the trigger (watermark 4 - margin 2): WAWD sends
 * L's other four reads, the group in service, into P's queue at once. Two more writes at 7
 * start the drain. With WAWD every read of L is served before the first write; without it the
 * drain's writes come first and L's reads wait for the drain to end. (S, admitted before
 * the trigger and not sent ahead, waits for the drain either way.) */
static uint64_t wawd_queue(struct run *x) {
    static const uint32_t rows[] = {5, 9, 11, 13, 15};
    for (uint32_t i = 0; i < 5; i++) enq_w(x, i, addr(x, 0, 0, rows[i], 0), false, 0, 0, 1);
    enq_w(x, 5, addr(x, 1, 0, 7, 0), false, 0, 0, 2);
    run_to(x, 0, 6);
    for (uint32_t i = 0; i < 2; i++) enq_w(x, 6 + i, addr(x, 2, 0, 1, i), true, 6, 0, 3);
    run_to(x, 6, 7);
    for (uint32_t i = 0; i < 2; i++) enq_w(x, 8 + i, addr(x, 2, 0, 1, 2 + i), true, 7, 0, 3);
    return 7;
}

#define WAWD_Q DDR4 "wq_hi=4\nwq_lo=1\nwawd.margin=2\nwg.bank_q=1\n"

/* L's reads (bank P) served before the first write. */
static unsigned reads_before_drain(const struct run *x) {
    unsigned n = 0;
    for (unsigned i = 0; i < x->ncmd && x->cmd[i].cmd != DRAM_WR; i++)
        n += x->cmd[i].cmd == DRAM_RD && x->cmd[i].bg == 0;
    return n;
}

static void test_wawd(void **state) {
    (void)state;
    struct run *x = start(WAWD_Q "policy=merb-wawd\n");
    uint64_t end = run_idle(x, wawd_queue(x));
    assert_int_equal(reads_before_drain(x), 5);
    assert_int_equal(x->n, 10);
    finish(x, end);
    x = start(WAWD_Q "policy=merb-wawd\n");
    json_t *s = sched_of(x, wawd_queue(x));
    assert_int_equal(STAT(s, "wawd_admits"), 4);
    assert_int_equal(STAT(s, "admitted"), 6);
    json_decref(s);

    x = start(WAWD_Q "policy=merb\n");
    end = run_idle(x, wawd_queue(x));
    assert_int_equal(reads_before_drain(x), 0);
    finish(x, end);
}

/* WAWD sends on every group partly sent to the bank queues, not only the one in service: L (3
 * reads of bank P, rows 5, 9, 11) is in service from 4 and waits for P's queue from 5, so the
 * best other group with room, C (warp 2: banks Q, R and bank 1 of group 1), has its read of Q
 * admitted at 5. At the trigger (two writes at 6) WAWD sends the rest of L and of C ahead of the
 * drain (two more writes at 7): C's reads of R and of (1, 1) go before the first write. */
static unsigned partly_sent_ahead(const char *policy) {
    char ini[512];
    snprintf(ini, sizeof ini, WAWD_Q "policy=%s\n", policy);
    struct run *x = start(ini);
    static const uint32_t rows[] = {5, 9, 11};
    for (uint32_t i = 0; i < 3; i++) enq_w(x, i, addr(x, 0, 0, rows[i], 0), false, 0, 0, 1);
    run_to(x, 0, 1);
    enq_w(x, 3, addr(x, 1, 0, 7, 0), false, 1, 0, 2);
    enq_w(x, 4, addr(x, 3, 0, 4, 0), false, 1, 0, 2);
    enq_w(x, 5, addr(x, 1, 1, 2, 0), false, 1, 0, 2);
    run_to(x, 1, 6);
    for (uint32_t i = 0; i < 2; i++) enq_w(x, 6 + i, addr(x, 2, 0, 1, i), true, 6, 0, 3);
    run_to(x, 6, 7);
    for (uint32_t i = 0; i < 2; i++) enq_w(x, 8 + i, addr(x, 2, 0, 1, 2 + i), true, 7, 0, 3);
    uint64_t end = run_idle(x, 7);
    unsigned n = 0;
    for (unsigned i = 0; i < x->ncmd && x->cmd[i].cmd != DRAM_WR; i++)
        n += x->cmd[i].cmd == DRAM_RD &&
             (x->cmd[i].bg == 3 || (x->cmd[i].bg == 1 && x->cmd[i].bank == 1));
    assert_int_equal(x->n, 10);
    finish(x, end);
    return n;
}

static void test_wawd_partly_sent(void **state) {
    (void)state;
    assert_int_equal(partly_sent_ahead("merb-wawd"), 2);
    assert_int_equal(partly_sent_ahead("merb"), 0);
}

/* WAWD's second step: wawd_queue plus group T (one read of bank R, bg 3, warp 4), arriving at 2
 * and so complete at the trigger (6) without having been admitted. The thesis sends such
 * single-request groups ahead of the drain: T's read goes before the first write. With
 * mc.wawd.singles = 0 only the group in service (L) goes ahead and T waits for the drain. With
 * `two`, a second such group U (warp 5) reads bank R too, and all four writes come at 6, so that
 * WAWD acts once, as the drain starts: R's queue (one read) takes T only and U waits for the
 * drain, unless mc.wawd.fit is off. */
static unsigned single_ahead(const char *set, bool two) {
    char ini[512];
    snprintf(ini, sizeof ini, WAWD_Q "policy=merb-wawd\n%s", set);
    struct run *x = start(ini);
    static const uint32_t rows[] = {5, 9, 11, 13, 15};
    for (uint32_t i = 0; i < 5; i++) enq_w(x, i, addr(x, 0, 0, rows[i], 0), false, 0, 0, 1);
    enq_w(x, 5, addr(x, 1, 0, 7, 0), false, 0, 0, 2);
    run_to(x, 0, 2);
    enq_w(x, 10, addr(x, 3, 0, 4, 0), false, 2, 0, 4);
    if (two) enq_w(x, 11, addr(x, 3, 0, 4, 1), false, 2, 0, 5);
    run_to(x, 2, 6);
    for (uint32_t i = 0; i < 2; i++) enq_w(x, 6 + i, addr(x, 2, 0, 1, i), true, 6, 0, 3);
    if (!two) run_to(x, 6, 7);
    for (uint32_t i = 0; i < 2; i++)
        enq_w(x, 8 + i, addr(x, 2, 0, 1, 2 + i), true, two ? 6 : 7, 0, 3);
    uint64_t end = run_idle(x, two ? 6 : 7);
    unsigned n = 0;
    for (unsigned i = 0; i < x->ncmd && x->cmd[i].cmd != DRAM_WR; i++)
        n += x->cmd[i].cmd == DRAM_RD && x->cmd[i].bg == 3;
    assert_int_equal(x->n, two ? 12 : 11);
    finish(x, end);
    return n;
}

static void test_wawd_singles(void **state) {
    (void)state;
    assert_int_equal(single_ahead("", false), 1);
    assert_int_equal(single_ahead("wawd.singles=0\n", false), 0);
    assert_int_equal(single_ahead("", true), 1);
    assert_int_equal(single_ahead("wawd.fit=false\n", true), 2);
}

/* frfcfs-cq, the thesis's baseline transaction scheduler, with bank queues of one read: bank P
 * has row 5 open; X1 and X2 (row 5) arrive, then A (row 9), B1 and B2 (row 5) one cycle later.
 * FR-FCFS admits the predicted hits B1, B2 before the older miss A; a streak cap of 3 lets only
 * B1 pass it (X1, X2 and B1 make the streak); with an age threshold of 1 cycle, A, waiting since
 * X2 was admitted, goes first (after it, B1 and B2 are misses, taken oldest first). */
static void test_frfcfs_cq(void **state) {
    (void)state;
    static const struct {
        const char *set;
        uint64_t order[6];
    } cases[] = {
        {"", {100, 50, 51, 2, 3, 1}},
        {"cq.streak=3\n", {100, 50, 51, 2, 1, 3}},
        {"cq.age=1\n", {100, 50, 51, 1, 2, 3}},
    };
    for (unsigned c = 0; c < 3; c++) {
        char ini[512];
        snprintf(ini, sizeof ini,
                 "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\npolicy=frfcfs-cq\nwg.bank_q=1\n%s",
                 cases[c].set);
        struct run *x = start(ini);
        enq(x, 100, addr(x, 0, 0, 5, 0), false, 0);
        uint64_t t = run_idle(x, 0) + 10;
        enq(x, 50, addr(x, 0, 0, 5, 3), false, t);
        enq(x, 51, addr(x, 0, 0, 5, 4), false, t);
        tick(x, t);
        enq(x, 1, addr(x, 0, 0, 9, 0), false, t + 1);
        enq(x, 2, addr(x, 0, 0, 5, 1), false, t + 1);
        enq(x, 3, addr(x, 0, 0, 5, 2), false, t + 1);
        uint64_t end = run_idle(x, t + 1);
        expect_served(x, cases[c].order, NULL, 6);
        finish(x, end);
    }
}

/* Ideal coordination: channel 0 holds only warp 5's group and selects it at cycle 4, which marks
 * warp 5 everywhere; channel 1 holds warp 6's group (one miss, score 3) and warp 5's (two reads
 * of one row, score 4). BASJF+AB starts channel 1 on warp 6; basjf-ideal on warp 5. */
static uint64_t coord_queue(struct run *x) {
    struct dram_addr a0 = {0, 0, 0, 0, 0, 5, 0}, a6 = {1, 0, 0, 0, 0, 7, 0};
    struct dram_addr b0 = {1, 0, 0, 1, 0, 3, 0}, b1 = {1, 0, 0, 1, 0, 3, 1};
    const struct addr_map *m = memsys_map(x->ms);
    enq_w(x, 0, addr_map_encode(m, &a0), false, 0, 0, 5);
    enq_w(x, 1, addr_map_encode(m, &a6), false, 0, 0, 6);
    enq_w(x, 2, addr_map_encode(m, &b0), false, 0, 0, 5);
    enq_w(x, 3, addr_map_encode(m, &b1), false, 0, 0, 5);
    return run_idle(x, 0);
}

static void test_ideal_coordination(void **state) {
    (void)state;
    struct run *x = start(DDR4 "policy=basjf-ab\n[dram]\nchannels=2\n");
    uint64_t end = coord_queue(x);
    assert_int_equal(pos(x, 1) < pos(x, 2), true);
    finish(x, end);

    x = start(DDR4 "policy=basjf-ideal\n[dram]\nchannels=2\n");
    end = coord_queue(x);
    assert_int_equal(pos(x, 2) < pos(x, 1), true);
    finish(x, end);
}

static void test_conservation(void **state) {
    (void)state;
    const char *pol[] = {"wafcfs",    "basjf",       "basjf-ab", "merb",
                         "merb-wawd", "basjf-ideal", "frfcfs-cq"};
    for (unsigned i = 0; i < 7; i++) {
        char ini[256];
        snprintf(ini, sizeof ini, "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\npolicy=%s\n",
                 pol[i]);
        conservation(ini, 1 + i);
        snprintf(ini, sizeof ini,
                 "[dram]\npreset=gddr5-gtx480\n[mc]\ncheck=true\npolicy=%s\nwq_hi=8\nwq_lo=2\n"
                 "rq_size=8\nwq_size=8\nwg.groups=2\n",
                 pol[i]);
        conservation(ini, 11 + i);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wafcfs_oldest_group),
        cmocka_unit_test(test_basjf_shortest_group),
        cmocka_unit_test(test_basjf_preempts),
        cmocka_unit_test(test_basjf_ab_age),
        cmocka_unit_test(test_window),
        cmocka_unit_test(test_bank_queue_bound),
        cmocka_unit_test(test_freed_slot),
        cmocka_unit_test(test_merb),
        cmocka_unit_test(test_wawd),
        cmocka_unit_test(test_wawd_singles),
        cmocka_unit_test(test_wawd_partly_sent),
        cmocka_unit_test(test_frfcfs_cq),
        cmocka_unit_test(test_ideal_coordination),
        cmocka_unit_test(test_conservation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
