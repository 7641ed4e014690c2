/* Tests of the FCFS scheduler (src/mem/mc/policy_fcfs.c): strict arrival order within a bank,
 * oldest ready bank head across banks, with the exact column-command cycles on DDR4-2400, and
 * conservation of requests. */
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

/* DDR4-2400: tRCD 17, tRAS 39, tRP 17, tRC 56, tRRD_S 4, tCCD_S 4, tRTP 9, CWL 12, nBL 4, tWR 18.
 * Bank P = (bg 0, ba 0), Y = (bg 1, ba 0). */
#define FCFS "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\npolicy=fcfs\n"

/* Strict arrival order within a bank, the older miss before the younger hit: R0 (ACT 0, RD 17),
 * R1 (PRE 39, ACT 56, RD 73), R2 reopens row 5 (PRE max(56 + 39, 73 + 9) = 95, ACT 112, RD 129).
 * FR-FCFS would serve R2 at 23. */
static void test_arrival_order_in_bank(void **state) {
    (void)state;
    struct run *x = start(FCFS);
    assert_string_equal(mc_policy_name(memsys_mc(x->ms, 0)), "fcfs");
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 0, 9, 0), false, 0);
    enq(x, 2, addr(x, 0, 0, 5, 1), false, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 1, 2}, cols[] = {17, 73, 129};
    EXPECT_SERVED(x, tags, cols);
    const struct mc_stats *st = stats(x);
    assert_int_equal(st->rd_miss, 1);
    assert_int_equal(st->rd_conflict, 2);
    assert_int_equal(st->rd_hit, 0);
    assert_int_equal(st->n_act, 3);
    assert_int_equal(st->n_pre, 2);
    assert_int_equal(cmd_cycle(x, DRAM_PRE, 1), 95);
    finish(x, end);
}

/* Banks still work in parallel: R2, alone in Y, is activated at tRRD_S = 4 and read at 21 while
 * R1 waits behind R0 in P. */
static void test_banks_in_parallel(void **state) {
    (void)state;
    struct run *x = start(FCFS);
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 0, 9, 0), false, 0);
    enq(x, 2, addr(x, 1, 0, 3, 0), false, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 2, 1}, cols[] = {17, 21, 73};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(cmd_cycle(x, DRAM_ACT, 1), 4);
    finish(x, end);
}

/* Writes in order, each PRE after write recovery: WR 17, PRE 17 + 12 + 4 + 18 = 51, ACT 68, WR 85,
 * PRE max(68 + 39, 85 + 34) = 119, ACT 136, WR 153. */
static void test_writes_in_order(void **state) {
    (void)state;
    struct run *x = start(FCFS);
    enq(x, 100, addr(x, 0, 0, 5, 0), true, 0);
    enq(x, 101, addr(x, 0, 0, 9, 0), true, 0);
    enq(x, 102, addr(x, 0, 0, 5, 1), true, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {100, 101, 102}, cols[] = {17, 85, 153};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(cmd_cycle(x, DRAM_PRE, 0), 51);
    assert_int_equal(cmd_cycle(x, DRAM_PRE, 1), 119);
    /* write done = column + CWL + nBL */
    assert_int_equal(x->data[2], 153 + 12 + 4);
    finish(x, end);
}

/* A request arriving later is younger even when it is a hit. */
static void test_late_hit_waits(void **state) {
    (void)state;
    struct run *x = start(FCFS);
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    run_to(x, 0, 20);
    enq(x, 1, addr(x, 0, 0, 9, 0), false, 20);
    tick(x, 20);
    enq(x, 2, addr(x, 0, 0, 5, 1), false, 21);
    uint64_t end = run_idle(x, 21);
    static const uint64_t tags[] = {0, 1, 2}, cols[] = {17, 73, 129};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end);
}

static void test_conservation(void **state) {
    (void)state;
    conservation(FCFS, 11);
    conservation("[dram]\npreset=gddr5-gtx480\n[mc]\ncheck=true\npolicy=fcfs\n", 12);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arrival_order_in_bank), cmocka_unit_test(test_banks_in_parallel),
        cmocka_unit_test(test_writes_in_order),       cmocka_unit_test(test_late_hit_waits),
        cmocka_unit_test(test_conservation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
