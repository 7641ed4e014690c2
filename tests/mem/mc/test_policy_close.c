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

#include "mc_harness.h"

/* DDR4-2400: tRCD 17, tRAS 39, tRP 17, tRC 56, tRRD_S 4, tCCD_S/L 4/6, tRTP 9. Bank P =
 * (bg 0, ba 0), Y = (bg 1, ba 0). */
#define DDR4 "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\n"

static bool bank_open(struct run *x, uint32_t bg, uint32_t ba) {
    struct dram_addr a = {0, 0, 0, bg, ba, 0, 0};
    const struct dram_chan *c = mc_dram(memsys_mc(x->ms, 0));
    return c->bank[dram_bank_index(c, &a)].open_row >= 0;
}

/* One read to row 5 of bank P at cycle 0 (ACT 0, RD 17), run to cycle `until`. */
static struct run *lone_read(const char *ini, uint64_t until) {
    struct run *x = start(ini);
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    run_to(x, 0, until);
    return x;
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

    x = lone_read(DDR4 "policy=frfcfs\n", 300);
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

/* ---- mc.row_policy = timeout ---- */

/* One read: ACT 0, RD 17. The row is closed row_timeout = 50 cycles after the RD, at 67 (it may
 * close from max(tRAS 39, 17 + tRTP 9) = 39 on). A read to the row at 100 finds the bank closed:
 * ACT 100, RD 117; one at 60 still hits (RD 60), and the row closes at 110. */
static void test_timeout_closes_idle_row(void **state) {
    (void)state;
    uint64_t arrive[] = {100, 60}, col[] = {117, 60}, pre2[] = {167, 110};
    for (int k = 0; k < 2; k++) {
        struct run *x =
            lone_read(DDR4 "policy=frfcfs\nrow_policy=timeout\nrow_timeout=50\n", arrive[k]);
        assert_int_equal(stats(x)->n_pre, arrive[k] > 67);
        enq(x, 1, addr(x, 0, 0, 5, 1), false, arrive[k]);
        run_to(x, arrive[k], 400);
        static const uint64_t tags[] = {0, 1};
        uint64_t cols[] = {17, col[k]};
        EXPECT_SERVED(x, tags, cols);
        const struct mc_stats *st = stats(x);
        assert_int_equal(st->n_act, k ? 1 : 2);
        assert_int_equal(st->rd_hit, k ? 1 : 0);
        assert_int_equal(st->n_pre, k ? 1 : 2);
        assert_int_equal(st->n_pre_timeout, st->n_pre);
        if (!k) assert_int_equal(cmd_cycle(x, DRAM_PRE, 0), 67);
        assert_int_equal(cmd_cycle(x, DRAM_PRE, k ? 0 : 1), pre2[k]);
        assert_false(bank_open(x, 0, 0));
        finish(x, 400);
    }
}

/* A timeout shorter than the bank's own constraints waits for them: row_timeout = 5 closes at
 * max(tRAS, RD + tRTP) = 39. A write to the row that waits in the queue (drain_when_no_reads
 * off: writes wait for wq_hi) keeps the row open. */
static void test_timeout_waits_for_the_bank(void **state) {
    (void)state;
    struct run *x = lone_read(DDR4 "policy=frfcfs\nrow_policy=timeout\nrow_timeout=5\n", 300);
    assert_int_equal(stats(x)->n_pre_timeout, 1);
    assert_int_equal(cmd_cycle(x, DRAM_PRE, 0), 39);
    finish(x, 300);

    x = lone_read(
        DDR4 "policy=frfcfs\nrow_policy=timeout\nrow_timeout=5\ndrain_when_no_reads=false\n", 20);
    enq(x, 100, addr(x, 0, 0, 5, 1), true, 20);
    run_to(x, 20, 300);
    assert_int_equal(x->n, 1);
    assert_int_equal(stats(x)->n_pre, 0);
    assert_true(bank_open(x, 0, 0));
    finish(x, 300);
}

/* The timeout's PRE is not activity: an idle rank powers down pd_idle = 100 cycles after its last
 * request's command (RD 17 -> PDEF at 117, as with open rows), not after the PRE at 67. */
static void test_timeout_and_power_down(void **state) {
    (void)state;
    uint64_t pde[2];
    for (int k = 0; k < 2; k++) {
        struct run *x = lone_read(k ? DDR4 "policy=frfcfs\nrow_policy=timeout\nrow_timeout=50\n"
                                           "powerdown=fast\npd_idle=100\n"
                                    : DDR4 "policy=frfcfs\npowerdown=fast\npd_idle=100\n",
                                  300);
        assert_int_equal(x->col[0], 17);
        assert_int_equal(stats(x)->n_pde, 1);
        pde[k] = cmd_cycle(x, DRAM_PDEF, 0);
        assert_int_equal(stats(x)->n_pre_timeout, k);
        if (k) assert_int_equal(cmd_cycle(x, DRAM_PRE, 0), 67);
        finish(x, 300);
    }
    assert_int_equal(pde[0], 117);
    assert_int_equal(pde[1], pde[0]);
}

static void test_conservation(void **state) {
    (void)state;
    conservation(DDR4 "policy=close\n", 31);
    conservation(DDR4 "policy=frfcfs\nrow_policy=close\n", 32);
    conservation(DDR4 "policy=close\nrow_policy=close\n", 33);
    conservation(DDR4 "policy=frfcfs\nrow_policy=timeout\nrow_timeout=20\n", 34);
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
        cmocka_unit_test(test_timeout_closes_idle_row),
        cmocka_unit_test(test_timeout_waits_for_the_bank),
        cmocka_unit_test(test_timeout_and_power_down),
        cmocka_unit_test(test_conservation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
