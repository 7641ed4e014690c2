/* Tests of the USIMM adapter and its default scheduler (src/mem/mc/policy_usimm.c): write drain
 * above mc.usimm.hi_wm or with no read queued, down to mc.usimm.lo_wm, in-order first-issuable
 * choice, with exact column-command cycles on DDR4-2400, and conservation of requests. */
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

/* DDR4-2400: tRCD 17, tCCD_L 6, CWL 12, nBL 4, tWTR_L 9, tRTW 11. Every request goes to row 5 of
 * bank (bg 0, ba 0): writes to columns 0.., reads to columns 4.., so nothing is forwarded. */
#define USIMM(hi, lo)                                                                              \
    "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\npolicy=usimm\nusimm.hi_wm=" #hi                   \
    "\nusimm.lo_wm=" #lo "\n"

static void enqueue(struct run *x, unsigned nw, unsigned nr) {
    for (uint32_t i = 0; i < nw; i++) enq(x, 100 + i, addr(x, 0, 0, 5, i), true, 0);
    for (uint32_t i = 0; i < nr; i++) enq(x, i, addr(x, 0, 0, 5, 4 + i), false, 0);
}

/* Three writes > hi_wm = 2: drain first (ACT 0, WR 17, 23); at 1 write (<= lo_wm) the reads
 * take over after CWL + nBL + tWTR_L (23 + 25 = 48, 54, 60); with the read queue empty the last
 * write drains, tRTW after the last read (71). */
static void test_drain_above_hi_wm(void **state) {
    (void)state;
    struct run *x = start(USIMM(2, 1));
    enqueue(x, 3, 3);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {100, 101, 0, 1, 2, 102}, cols[] = {17, 23, 48, 54, 60, 71};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->wr_miss, 1);
    finish(x, end);
}

/* Two writes = hi_wm (not above): reads first (ACT 0, RD 17, 23), then the writes because the
 * read queue is empty (tRTW: 34, 40). */
static void test_reads_first_at_hi_wm(void **state) {
    (void)state;
    struct run *x = start(USIMM(2, 1));
    enqueue(x, 2, 2);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 1, 100, 101}, cols[] = {17, 23, 34, 40};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->rd_miss, 1);
    finish(x, end);
}

/* The drain runs down to lo_wm: with hi_wm 2 and lo_wm 0 all four writes go before the reads
 * (WR 17, 23, 29, 35; RD 35 + 25 = 60, 66). */
static void test_drain_to_lo_wm(void **state) {
    (void)state;
    struct run *x = start(USIMM(2, 0));
    enqueue(x, 4, 2);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {100, 101, 102, 103, 0, 1}, cols[] = {17, 23, 29, 35, 60, 66};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end);
}

/* The controller's own watermarks do not apply to this policy: mc.wq_hi = 2 would drain the two
 * writes first under FR-FCFS; USIMM (hi_wm 40) serves the reads first. */
static void test_controller_watermarks_ignored(void **state) {
    (void)state;
    struct run *x = start(USIMM(40, 20) "wq_hi=2\nwq_lo=1\n");
    enqueue(x, 2, 2);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 1, 100, 101}, cols[] = {17, 23, 34, 40};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end);
}

/* In-order within a queue: the first issuable request of the queue in arrival order. A younger
 * hit goes when the older miss cannot issue (R1's PRE waits for tRAS = 39): 0 at 17, 2 at 23, 1
 * after PRE 39, ACT 56 at 73. */
static void test_first_issuable(void **state) {
    (void)state;
    struct run *x = start(USIMM(40, 20));
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 0, 9, 0), false, 0);
    enq(x, 2, addr(x, 0, 0, 5, 1), false, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 2, 1}, cols[] = {17, 23, 73};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end);
}

static void test_defaults(void **state) {
    (void)state;
    struct run *x = start("[dram]\npreset=ddr4-2400\n[mc]\npolicy=usimm\n");
    assert_string_equal(mc_policy_name(memsys_mc(x->ms, 0)), "usimm");
    /* HI_WM 40: 40 writes and a read, the read first; a 41st write drains */
    for (uint32_t i = 0; i < 40; i++) enq(x, 100 + i, addr(x, 0, i % 4, 5, i), true, 0);
    enq(x, 0, addr(x, 1, 0, 5, 100), false, 0);
    uint64_t end = run_idle(x, 0);
    assert_int_equal(x->tag[0], 0);
    finish(x, end);
    x = start("[dram]\npreset=ddr4-2400\n[mc]\npolicy=usimm\n");
    for (uint32_t i = 0; i < 41; i++) enq(x, 100 + i, addr(x, i % 4, 0, 5, i), true, 0);
    enq(x, 0, addr(x, 0, 1, 5, 100), false, 0);
    end = run_idle(x, 0);
    assert_int_equal(x->tag[0], 100);
    /* it drains down to LO_WM 20: 21 writes, then the read */
    assert_int_equal(x->tag[21], 0);
    for (unsigned i = 0; i < 21; i++) assert_true(x->tag[i] >= 100);
    finish(x, end);
}

static void test_conservation(void **state) {
    (void)state;
    conservation(USIMM(40, 20), 41);
    conservation(USIMM(8, 2) "rq_size=16\nwq_size=16\nwq_hi=12\nwq_lo=4\n", 42);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drain_above_hi_wm),
        cmocka_unit_test(test_reads_first_at_hi_wm),
        cmocka_unit_test(test_drain_to_lo_wm),
        cmocka_unit_test(test_controller_watermarks_ignored),
        cmocka_unit_test(test_first_issuable),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_conservation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
