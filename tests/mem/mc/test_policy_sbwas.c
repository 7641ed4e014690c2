/* Tests of SBWAS (src/mem/mc/policy_sbwas.c): with alpha 1 a bank's turn serves its oldest row
 * hit, with alpha 0 the oldest request of the warp with the fewest requests to the bank; the
 * schedule is the same for the same seed; requests are conserved. */
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

#define SB(a) "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\npolicy=sbwas\nsbwas.alpha=" a "\n"

/* Bank (0,0) with row 5 opened by a first read; then R0, R1 of warp 1 hit row 5 and R2, warp 2's
 * only request, wants row 9. */
static uint64_t queue(struct run *x) {
    enq_w(x, 9, addr(x, 0, 0, 5, 0), false, 0, 0, 9);
    uint64_t t = run_idle(x, 0) + 50;
    enq_w(x, 0, addr(x, 0, 0, 5, 1), false, t, 0, 1);
    enq_w(x, 1, addr(x, 0, 0, 5, 2), false, t, 0, 1);
    enq_w(x, 2, addr(x, 0, 0, 9, 0), false, t, 0, 2);
    return run_idle(x, t);
}

static void test_alpha(void **state) {
    (void)state;
    struct run *x = start(SB("1"));
    uint64_t end = queue(x);
    static const uint64_t hits[] = {9, 0, 1, 2};
    EXPECT_SERVED(x, hits, NULL);
    finish(x, end);

    x = start(SB("0"));
    end = queue(x);
    static const uint64_t few[] = {9, 2, 0, 1};
    EXPECT_SERVED(x, few, NULL);
    finish(x, end);
}

static void test_conservation(void **state) {
    (void)state;
    conservation(SB("0.5"), 1);
    conservation(SB("0.25") "wq_hi=8\nwq_lo=2\nrq_size=8\nwq_size=8\n", 2);
}

/* The coin is tossed once per decision: bank (0,0) has row 5 open by an ACT at 0 (tRAS 39);
 * at 20 come R0, R1 (warp 1, hits) and R2 (warp 2's only request, row 9). A turn that chose R2
 * waits for its PRE at 39; the hit goes first in about alpha of the seeds. (When every visit
 * of the bank tossed again, the hit went first in 62 % of them.) */
static unsigned hit_first(const char *alpha, unsigned seeds) {
    unsigned n = 0;
    for (unsigned seed = 1; seed <= seeds; seed++) {
        char ini[256];
        snprintf(ini, sizeof ini, SB("%s") "sbwas.seed=%u\n", alpha, seed);
        struct run *x = start(ini);
        enq_w(x, 9, addr(x, 0, 0, 5, 0), false, 0, 0, 9);
        run_to(x, 0, 20);
        enq_w(x, 0, addr(x, 0, 0, 5, 1), false, 20, 0, 1);
        enq_w(x, 1, addr(x, 0, 0, 5, 2), false, 20, 0, 1);
        enq_w(x, 2, addr(x, 0, 0, 9, 0), false, 20, 0, 2);
        uint64_t end = run_idle(x, 20);
        n += x->tag[1] == 0;
        finish(x, end);
    }
    return n;
}

static void test_coin_per_decision(void **state) {
    (void)state;
    unsigned n = hit_first("0.5", 400);
    assert_in_range(n, 165, 235); /* 200 expected, 3.5 standard deviations each side */
    assert_int_equal(hit_first("1", 20), 20);
    assert_int_equal(hit_first("0", 20), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alpha),
        cmocka_unit_test(test_coin_per_decision),
        cmocka_unit_test(test_conservation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
