/* Clock domains (src/gpu/clocks.c): edges of several domains interleave in time order, equal
 * times tick together, and skipping lands every domain on its first edge at or after the
 * target time. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "gpu/clocks.h"

static void test_periods(void **state) {
    (void)state;
    struct clocks k;
    clocks_init(&k, 1905, 1000, 700, 286);
    assert_int_equal(k.period_fs[CLK_CORE], 524934); /* 1e9 / 1905 rounded */
    assert_int_equal(k.period_fs[CLK_NOC], 1000000);
    assert_int_equal(k.period_fs[CLK_L2], 1428571);
    assert_int_equal(k.period_fs[CLK_DRAM], 286000);
}

/* Core at 1 GHz, NoC at 500 MHz, L2 at 250 MHz, DRAM at 2 GHz: in 4 ns the DRAM ticks 8 times,
 * the core 4, the NoC 2, the L2 once, and the edges come in time order. */
static void test_order(void **state) {
    (void)state;
    struct clocks k;
    clocks_init(&k, 1000, 500, 250, 500);
    unsigned count[CLK_N] = {0};
    uint64_t last = 0;
    for (;;) {
        unsigned mask;
        uint64_t t = clocks_next(&k, &mask);
        if (t >= 4000000) break;
        assert_true(t >= last);
        last = t;
        if (t == 0) assert_int_equal(mask, 0xf); /* all domains start together */
        if (t == 500000) assert_int_equal(mask, 1u << CLK_DRAM);
        if (t == 1000000) assert_int_equal(mask, 1u << CLK_DRAM | 1u << CLK_CORE);
        for (int d = 0; d < CLK_N; d++)
            if (mask & 1u << d) {
                count[d]++;
                k.cyc[d]++;
            }
    }
    assert_int_equal(count[CLK_DRAM], 8);
    assert_int_equal(count[CLK_CORE], 4);
    assert_int_equal(count[CLK_NOC], 2);
    assert_int_equal(count[CLK_L2], 1);
}

static void test_skip(void **state) {
    (void)state;
    struct clocks k;
    clocks_init(&k, 1000, 500, 250, 500);
    clocks_skip_to(&k, 5500000); /* 5.5 ns */
    assert_int_equal(k.cyc[CLK_CORE], 6);
    assert_int_equal(k.cyc[CLK_NOC], 3);
    assert_int_equal(k.cyc[CLK_L2], 2);
    assert_int_equal(k.cyc[CLK_DRAM], 11);
    clocks_skip_to(&k, 1000); /* never backwards */
    assert_int_equal(k.cyc[CLK_CORE], 6);
    clocks_skip_to(&k, 8000000); /* on an edge: that edge is still to run */
    assert_int_equal(k.cyc[CLK_CORE], 8);
    assert_int_equal(k.cyc[CLK_L2], 2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_periods),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_skip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
