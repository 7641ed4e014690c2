/* Tests of Div-First (src/mem/mc/policy_div_first.c): a read that is its warp's last pending
 * request goes first, row hits get no preference (arrival order otherwise), conservation. */
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

#define DDR4 "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\n"
#define DF   DDR4 "policy=div-first\n"

/* Bank (0,0) closed: R0, R1 of warp 1 (row 5), R2 of warp 2 alone (row 9, urgent). Div-First
 * serves R2 first; then R0 (warp 1 still has two pending: oldest first) and R1. */
static void test_urgent_first(void **state) {
    (void)state;
    struct run *x = start(DF);
    enq_w(x, 0, addr(x, 0, 0, 5, 0), false, 0, 0, 1);
    enq_w(x, 1, addr(x, 0, 0, 5, 1), false, 0, 0, 1);
    enq_w(x, 2, addr(x, 0, 0, 9, 0), false, 0, 0, 2);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {2, 0, 1};
    EXPECT_SERVED(x, tags, NULL);
    finish(x, end);
}

/* Four reads of one warp (none is its last until the end): row 5, row 9, row 5, row 5. With no
 * row-hit preference the miss R1 goes in arrival order (FR-FCFS would serve R2, R3 first). */
static void rowmix(struct run *x) {
    enq_w(x, 0, addr(x, 0, 0, 5, 0), false, 0, 0, 1);
    enq_w(x, 1, addr(x, 0, 0, 9, 0), false, 0, 0, 1);
    enq_w(x, 2, addr(x, 0, 0, 5, 1), false, 0, 0, 1);
    enq_w(x, 3, addr(x, 0, 0, 5, 2), false, 0, 0, 1);
}

static void test_no_row_hit_preference(void **state) {
    (void)state;
    struct run *x = start(DF);
    rowmix(x);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 1, 2, 3};
    EXPECT_SERVED(x, tags, NULL);
    assert_int_equal(stats(x)->n_act, 3);
    finish(x, end);

    x = start(DDR4 "policy=frfcfs-rr\n");
    rowmix(x);
    end = run_idle(x, 0);
    static const uint64_t fr[] = {0, 2, 3, 1};
    EXPECT_SERVED(x, fr, NULL);
    assert_int_equal(stats(x)->n_act, 2);
    finish(x, end);
}

static void test_conservation(void **state) {
    (void)state;
    conservation(DF, 1);
    conservation(DF "wq_hi=8\nwq_lo=2\nrq_size=8\nwq_size=8\n", 2);
    conservation("[dram]\npreset=gddr5-gtx480\n[mc]\ncheck=true\npolicy=div-first\n", 3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_urgent_first),
        cmocka_unit_test(test_no_row_hit_preference),
        cmocka_unit_test(test_conservation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
