/* Tests of FR-FCFS with a row-hit cap (src/mem/mc/policy_frfcfs_cap.c over frfcfs_core.h): how
 * many younger row hits may pass an older miss to the same bank, with the exact cycle of every
 * column command on DDR4-2400, and conservation of requests. */
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

/* DDR4-2400: tRCD 17, tRAS 39, tRP 17, tRC 56, tCCD_L 6, tRTP 9. All requests go to bank
 * (bg 0, ba 0): R0 opens row 5, R1 is an older miss to row 9, R2.. are younger hits to row 5. */
#define CAP(n)                                                                                     \
    "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\npolicy=frfcfs-cap\nfrfcfs_cap.cap=" #n "\n"

static void enqueue_miss_and_hits(struct run *x) {
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 0, 9, 0), false, 0);
    for (uint32_t i = 2; i < 6; i++) enq(x, i, addr(x, 0, 0, 5, i), false, 0);
}

static void test_policy_name(void **state) {
    (void)state;
    struct run *x = start(CAP(2));
    assert_string_equal(mc_policy_name(memsys_mc(x->ms, 0)), "frfcfs-cap");
    finish(x, 0);
    /* '_' is accepted for '-' */
    x = start("[dram]\npreset=ddr4-2400\n[mc]\npolicy=frfcfs_cap\n");
    assert_string_equal(mc_policy_name(memsys_mc(x->ms, 0)), "frfcfs-cap");
    finish(x, 0);
}

/* A cap above the number of hits changes nothing: plain FR-FCFS serves every hit first. The
 * PRE for R1 waits for tRTP after the last hit (41 + 9 = 50), ACT 67, RD 84. */
static void test_large_cap_is_frfcfs(void **state) {
    (void)state;
    struct run *x = start(CAP(16));
    enqueue_miss_and_hits(x);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 2, 3, 4, 5, 1}, cols[] = {17, 23, 29, 35, 41, 84};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->n_act, 2);
    finish(x, end);
}

/* A cap of 2 lets at least one and at most two younger hits pass the older miss, and the miss
 * goes before the remaining hits. */
static void test_cap_bounds_bypass(void **state) {
    (void)state;
    struct run *x = start(CAP(2));
    enqueue_miss_and_hits(x);
    uint64_t end = run_idle(x, 0);
    assert_int_equal(x->n, 6);
    assert_int_equal(x->tag[0], 0);
    assert_int_equal(x->tag[1], 2);
    unsigned pos = 0;
    for (unsigned i = 0; i < x->n; i++)
        if (x->tag[i] == 1) pos = i;
    assert_true(pos == 2 || pos == 3);
    for (unsigned i = pos + 1; i < x->n; i++) assert_int_equal(x->tag[i], i); /* rest in order */
    assert_int_equal(stats(x)->n_act, 3);
    assert_int_equal(stats(x)->rd_conflict, 2);
    finish(x, end);
}

/* Hits served before the miss arrived did not pass it, so they do not count: with row 5 open and
 * three accesses served, a miss and then a hit arrive; the hit goes first even with cap 1 (RD 200),
 * then the miss: PRE max(200 + 9, 17 - 17 + 39) = 209, ACT 226, RD 243, as plain FR-FCFS. */
static void test_hits_before_the_miss_do_not_count(void **state) {
    (void)state;
    for (int k = 0; k < 2; k++) {
        struct run *x = start(k ? CAP(16) : CAP(1));
        for (uint32_t i = 0; i < 3; i++) enq(x, i, addr(x, 0, 0, 5, i), false, 0);
        run_idle(x, 0);
        x->n = 0;
        enq(x, 10, addr(x, 0, 0, 9, 0), false, 200);
        enq(x, 11, addr(x, 0, 0, 5, 7), false, 200);
        uint64_t end = run_idle(x, 200);
        static const uint64_t tags[] = {11, 10}, cols[] = {200, 243};
        EXPECT_SERVED(x, tags, cols);
        assert_int_equal(stats(x)->rd_hit, 2 + 1); /* the first of the three opened the row */
        finish(x, end);
    }
}

/* The count restarts with the row: cap 1, row 5 open; miss A (row 9, tag 10), hits H1, H2 (row 5,
 * tags 11, 12), then B1, B2 (row 9, tags 13, 14) arrive. H1 passes A (RD 200), the cap holds H2
 * back, so A: PRE 209, ACT 226, RD 243. Row 9's count starts at 0: B1 passes the older H2 (249),
 * then H2 (PRE max(226 + 39, 249 + 9) = 265, ACT 282, RD 299), then B2 (PRE max(282 + 39,
 * 299 + 9) = 321, ACT 338, RD 355). */
static void test_count_restarts_with_the_row(void **state) {
    (void)state;
    struct run *x = start(CAP(1));
    for (uint32_t i = 0; i < 3; i++) enq(x, i, addr(x, 0, 0, 5, i), false, 0);
    run_idle(x, 0);
    x->n = 0;
    enq(x, 10, addr(x, 0, 0, 9, 0), false, 200);
    enq(x, 11, addr(x, 0, 0, 5, 7), false, 200);
    enq(x, 12, addr(x, 0, 0, 5, 8), false, 200);
    enq(x, 13, addr(x, 0, 0, 9, 1), false, 200);
    enq(x, 14, addr(x, 0, 0, 9, 2), false, 200);
    uint64_t end = run_idle(x, 200);
    static const uint64_t tags[] = {11, 10, 13, 12, 14}, cols[] = {200, 243, 249, 299, 355};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end);
}

/* The cap only stops hits that would pass an older miss: a run of hits with nothing older
 * waiting streams tCCD_L apart from one ACT, however many. */
static void test_cap_without_older_miss(void **state) {
    (void)state;
    struct run *x = start(CAP(2));
    for (uint32_t i = 0; i < 6; i++) enq(x, i, addr(x, 0, 0, 5, i), false, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 1, 2, 3, 4, 5}, cols[] = {17, 23, 29, 35, 41, 47};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->n_act, 1);
    assert_int_equal(stats(x)->n_pre, 0);
    finish(x, end);
}

/* cap = 2: two younger hits pass the older miss (the access that opened the row is a miss, not
 * a hit), as FR-FCFS+Cap prescribes: 0, 2, 3, 1, 4, 5. Cycles: RD 17, 23, 29; PRE
 * max(39, 29 + 9) = 39, ACT 56, RD 73; PRE max(56 + 39, 73 + 9) = 95, ACT 112, RD 129, 135. */
static void test_cap_two_lets_two_hits_pass(void **state) {
    (void)state;
    struct run *x = start(CAP(2));
    enqueue_miss_and_hits(x);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 2, 3, 1, 4, 5}, cols[] = {17, 23, 29, 73, 129, 135};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end);
}

/* Same defect with cap = 1: no younger hit passes at all (0, 1, 2, ...), one should. */
static void test_cap_one_lets_one_hit_pass(void **state) {
    (void)state;
    struct run *x = start(CAP(1));
    enqueue_miss_and_hits(x);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 2, 1, 3, 4, 5}, cols[] = {17, 23, 73, 129, 135, 141};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end);
}

static void test_conservation(void **state) {
    (void)state;
    conservation(CAP(2), 21);
    conservation(CAP(1), 22);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy_name),
        cmocka_unit_test(test_large_cap_is_frfcfs),
        cmocka_unit_test(test_cap_bounds_bypass),
        cmocka_unit_test(test_hits_before_the_miss_do_not_count),
        cmocka_unit_test(test_count_restarts_with_the_row),
        cmocka_unit_test(test_cap_without_older_miss),
        cmocka_unit_test(test_cap_two_lets_two_hits_pass),
        cmocka_unit_test(test_cap_one_lets_one_hit_pass),
        cmocka_unit_test(test_conservation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
