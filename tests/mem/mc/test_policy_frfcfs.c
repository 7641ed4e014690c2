/* Tests of the FR-FCFS scheduler (src/mem/mc/policy_frfcfs.c, frfcfs_core.h) and of the controller
 * around it (src/mem/mc/mc.c): service order on hand-built queues with the exact cycle of every
 * column command derived from the DDR4-2400 preset, write-drain watermarks, read-after-write
 * forwarding and write merging, and conservation of requests on a random mix. */
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

/* DDR4-2400 (one channel, one rank, 4 groups x 4 banks): tRCD 17, tRAS 39, tRP 17, tRC 56,
 * tCCD_S/L 4/6, tRRD_S/L 4/6, tRTP 9, CWL 12, nBL 4, tWTR_L 9, tRTW 11. Bank P = (bg 0, ba 0),
 * Q = (bg 0, ba 1) in the same group, Y = (bg 1, ba 0) in another. */
#define DDR4   "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\n"
#define FRFCFS DDR4 "policy=frfcfs\n"

static void test_preset_figures(void **state) {
    (void)state;
    struct run *x = start(FRFCFS);
    const struct dram_spec *s = memsys_spec(x->ms);
    assert_int_equal(s->RCDRD, 17);
    assert_int_equal(s->RAS, 39);
    assert_int_equal(s->RP, 17);
    assert_int_equal(s->CCD_L, 6);
    assert_int_equal(s->RTP, 9);
    assert_string_equal(mc_policy_name(memsys_mc(x->ms, 0)), "frfcfs");
    finish(x, 0);
}

/* A younger hit goes before an older miss to the same bank: R0 opens row 5 (ACT 0, RD 17), R2
 * hits it (RD 17 + tCCD_L = 23), then R1's PRE waits for tRAS (39), ACT 56, RD 73. */
static void test_hit_before_older_miss(void **state) {
    (void)state;
    struct run *x = start(FRFCFS);
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 0, 9, 0), false, 0);
    enq(x, 2, addr(x, 0, 0, 5, 1), false, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 2, 1}, cols[] = {17, 23, 73};
    EXPECT_SERVED(x, tags, cols);
    /* data done = column + CL + nBL */
    assert_int_equal(x->data[0], 17 + 17 + 4);
    assert_int_equal(x->data[2], 73 + 17 + 4);
    const struct mc_stats *st = stats(x);
    assert_int_equal(st->rd_miss, 1);
    assert_int_equal(st->rd_hit, 1);
    assert_int_equal(st->rd_conflict, 1);
    assert_int_equal(st->n_act, 2);
    assert_int_equal(st->n_pre, 1);
    assert_int_equal(cmd_cycle(x, DRAM_PRE, 0), 39);
    assert_int_equal(cmd_cycle(x, DRAM_ACT, 1), 56);
    finish(x, end);
}

/* A ready hit goes before an older request of another bank that is ready too: with row 5 of P
 * open, the older miss to Y and the younger hit to P are both issuable at 100; the hit's RD takes
 * cycle 100, the miss's ACT 101 (RD 101 + 17 = 118). */
static void test_hit_before_older_miss_other_bank(void **state) {
    (void)state;
    struct run *x = start(FRFCFS);
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    run_idle(x, 0);
    x->n = 0;
    enq(x, 10, addr(x, 1, 0, 3, 0), false, 100);
    enq(x, 11, addr(x, 0, 0, 5, 1), false, 100);
    uint64_t end = run_idle(x, 100);
    static const uint64_t tags[] = {11, 10}, cols[] = {100, 118};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(cmd_cycle(x, DRAM_ACT, 1), 101);
    finish(x, end);
}

/* Among ready hits, the oldest: rows 5 (bank P) and 6 (bank Q, same group) are open; four hits
 * alternate between them and are served in arrival order, tCCD_L apart. */
static void test_oldest_hit_first(void **state) {
    (void)state;
    struct run *x = start(FRFCFS);
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 1, 6, 0), false, 0);
    run_idle(x, 0);
    assert_int_equal(x->col[0], 17);
    assert_int_equal(x->col[1], 23); /* ACT Q at tRRD_L = 6, RD at 6 + 17 */
    x->n = 0;
    enq(x, 10, addr(x, 0, 1, 6, 2), false, 100);
    enq(x, 11, addr(x, 0, 0, 5, 2), false, 100);
    enq(x, 12, addr(x, 0, 0, 5, 3), false, 100);
    enq(x, 13, addr(x, 0, 1, 6, 3), false, 100);
    uint64_t end = run_idle(x, 100);
    static const uint64_t tags[] = {10, 11, 12, 13}, cols[] = {100, 106, 112, 118};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->rd_hit, 4);
    finish(x, end);
}

/* First ready, then oldest: with P and Y in different groups, after 10 (Y, 100) and 11 (P, 104 =
 * tCCD_S later), Y's 13 is ready at 100 + tCCD_L = 106 -> 108 (tCCD_S after 104) while P's older
 * 12 must wait for 104 + tCCD_L = 110: 13 goes first, 12 at 112. */
static void test_first_ready(void **state) {
    (void)state;
    struct run *x = start(FRFCFS);
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 1, 0, 6, 0), false, 0);
    run_idle(x, 0);
    assert_int_equal(x->col[0], 17);
    assert_int_equal(x->col[1], 21); /* ACT Y at tRRD_S = 4 */
    x->n = 0;
    enq(x, 10, addr(x, 1, 0, 6, 2), false, 100);
    enq(x, 11, addr(x, 0, 0, 5, 2), false, 100);
    enq(x, 12, addr(x, 0, 0, 5, 3), false, 100);
    enq(x, 13, addr(x, 1, 0, 6, 3), false, 100);
    uint64_t end = run_idle(x, 100);
    static const uint64_t tags[] = {10, 11, 13, 12}, cols[] = {100, 104, 108, 112};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end);
}

/* Write drain by watermarks alone (drain_when_no_reads off): three writes wait while reads are
 * served and after; the fourth reaches wq_hi = 4 and the drain serves writes down to wq_lo = 1;
 * the last one waits for the end of input (memsys_flush). */
static void test_watermarks(void **state) {
    (void)state;
    struct run *x = start(FRFCFS "wq_hi=4\nwq_lo=1\ndrain_when_no_reads=false\n");
    struct mc *m = memsys_mc(x->ms, 0);
    for (uint32_t i = 0; i < 3; i++) enq(x, 100 + i, addr(x, 0, 0, 5, i), true, 0);
    for (uint32_t i = 0; i < 4; i++) enq(x, i, addr(x, 0, 0, 5, 8 + i), false, 0);
    run_to(x, 0, 600);
    static const uint64_t reads[] = {0, 1, 2, 3}, rcols[] = {17, 23, 29, 35};
    EXPECT_SERVED(x, reads, rcols);
    assert_int_equal(mc_queue_len(m, MC_WRITEQ), 3);
    assert_int_equal(stats(x)->writes, 0);
    assert_int_equal(stats(x)->drains, 0);
    enq(x, 103, addr(x, 0, 0, 5, 3), true, 600);
    run_to(x, 600, 1200);
    static const uint64_t all[] = {0, 1, 2, 3, 100, 101, 102},
                          cols[] = {17, 23, 29, 35, 600, 606, 612};
    EXPECT_SERVED(x, all, cols);
    assert_int_equal(mc_queue_len(m, MC_WRITEQ), 1);
    assert_int_equal(stats(x)->writes, 3);
    assert_int_equal(stats(x)->drains, 1);
    /* the last write stays below wq_lo with nothing else queued, until the input ends: then it
     * drains at once (the row is still open: WR at the flush cycle) */
    run_to(x, 1200, 1800);
    assert_int_equal(mc_queue_len(m, MC_WRITEQ), 1);
    memsys_flush(x->ms, 1800);
    run_to(x, 1800, 2400);
    static const uint64_t flushed[] = {0, 1, 2, 3, 100, 101, 102, 103},
                          fcols[] = {17, 23, 29, 35, 600, 606, 612, 1800};
    EXPECT_SERVED(x, flushed, fcols);
    assert_int_equal(stats(x)->writes, 4);
    assert_int_equal(stats(x)->drains, 2);
    finish(x, 2400);
}

/* Reads queued and the write queue below wq_hi: reads first, then the writes drain because no
 * read is left (drain_when_no_reads): the first WR is tRTW = 11 after the last RD. */
static void test_reads_before_writes(void **state) {
    (void)state;
    struct run *x = start(FRFCFS "wq_hi=4\nwq_lo=1\n");
    for (uint32_t i = 0; i < 3; i++) enq(x, 100 + i, addr(x, 0, 0, 5, i), true, 0);
    for (uint32_t i = 0; i < 4; i++) enq(x, i, addr(x, 0, 0, 5, 8 + i), false, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 1, 2, 3, 100, 101, 102},
                          cols[] = {17, 23, 29, 35, 46, 52, 58};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->drains, 1);
    finish(x, end);
}

/* Four writes reach wq_hi at once: W0..W2 drain (to wq_lo = 1), the reads follow after
 * CWL + nBL + tWTR_L (29 + 25 = 54), then the last write once no read is left (tRTW after). */
static void test_watermark_drain_first(void **state) {
    (void)state;
    struct run *x = start(FRFCFS "wq_hi=4\nwq_lo=1\n");
    for (uint32_t i = 0; i < 4; i++) enq(x, 100 + i, addr(x, 0, 0, 5, i), true, 0);
    for (uint32_t i = 0; i < 3; i++) enq(x, i, addr(x, 0, 0, 5, 8 + i), false, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {100, 101, 102, 0, 1, 2, 103},
                          cols[] = {17, 23, 29, 54, 60, 66, 77};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->drains, 2);
    assert_int_equal(stats(x)->wr_miss, 1);
    assert_int_equal(stats(x)->wr_hit, 3);
    finish(x, end);
}

/* A read of a queued write's burst is answered from the write queue after fwd_latency, with no
 * DRAM read; a write to it merges. */
static void test_forwarding(void **state) {
    (void)state;
    struct run *x = start(FRFCFS "fwd_latency=7\n");
    uint64_t a = addr(x, 0, 0, 5, 3);
    enq(x, 100, a, true, 0);
    run_to(x, 0, 5);
    enq(x, 0, a + 8, false, 5); /* same burst, another byte */
    assert_int_equal(x->n, 1);
    assert_int_equal(x->tag[0], 0);
    assert_int_equal(x->data[0], 5 + 7);
    tick(x, 5);
    enq(x, 101, a, true, 6);
    assert_int_equal(x->n, 2);
    assert_int_equal(x->tag[1], 101);
    assert_int_equal(x->data[1], 6);
    uint64_t end = run_idle(x, 6);
    static const uint64_t tags[] = {0, 101, 100}, cols[] = {0, 0, 17};
    EXPECT_SERVED(x, tags, cols);
    const struct mc_stats *st = stats(x);
    assert_int_equal(st->reads_forwarded, 1);
    assert_int_equal(st->writes_merged, 1);
    assert_int_equal(st->reads, 0);
    assert_int_equal(st->n_rd + st->n_rda, 0);
    assert_int_equal(st->writes, 1);
    assert_int_equal(st->n_wr, 1);
    finish(x, end);
}

/* With forwarding off the read goes to DRAM: it arrives while the write drains (no reads were
 * queued), stops the drain, hits the row the write opened (RD 17) and the WR follows tRTW later. */
static void test_no_forwarding(void **state) {
    (void)state;
    struct run *x = start(FRFCFS "forward_raw=false\n");
    uint64_t a = addr(x, 0, 0, 5, 3);
    enq(x, 100, a, true, 0);
    run_to(x, 0, 5);
    enq(x, 0, a, false, 5);
    uint64_t end = run_idle(x, 5);
    static const uint64_t tags[] = {0, 100}, cols[] = {17, 28};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->reads_forwarded, 0);
    assert_int_equal(stats(x)->n_rd, 1);
    assert_int_equal(stats(x)->rd_hit, 1);
    assert_int_equal(stats(x)->wr_miss, 1);
    finish(x, end);
}

static void test_conservation(void **state) {
    (void)state;
    conservation(FRFCFS, 1);
    conservation(FRFCFS "wq_hi=8\nwq_lo=2\nrq_size=8\nwq_size=8\n", 2);
    conservation("[dram]\npreset=hbm2\n[mc]\ncheck=true\npolicy=frfcfs\n", 3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_preset_figures),
        cmocka_unit_test(test_hit_before_older_miss),
        cmocka_unit_test(test_hit_before_older_miss_other_bank),
        cmocka_unit_test(test_oldest_hit_first),
        cmocka_unit_test(test_first_ready),
        cmocka_unit_test(test_watermarks),
        cmocka_unit_test(test_reads_before_writes),
        cmocka_unit_test(test_watermark_drain_first),
        cmocka_unit_test(test_forwarding),
        cmocka_unit_test(test_no_forwarding),
        cmocka_unit_test(test_conservation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
