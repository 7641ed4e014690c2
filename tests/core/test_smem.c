/* Tests of shared-memory bank conflicts (src/core/smem.c): 32 banks of 4 bytes, broadcast of a
 * word read by several lanes, widths 4, 8 and 16. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/smem.h"
#include "workload/workload.h"

static uint64_t a[WARP_SIZE];

static unsigned deg(uint64_t stride, unsigned width, uint32_t active) {
    for (int i = 0; i < WARP_SIZE; i++) a[i] = 0x200 + (uint64_t)i * stride;
    return smem_conflict_degree(a, active, width, 32);
}

static void test_width4(void **state) {
    (void)state;
    assert_int_equal(deg(4, 4, 0xffffffffu), 1);    /* one word per bank */
    assert_int_equal(deg(0, 4, 0xffffffffu), 1);    /* all lanes one word: broadcast */
    assert_int_equal(deg(8, 4, 0xffffffffu), 2);    /* lanes i and i+16 share a bank */
    assert_int_equal(deg(12, 4, 0xffffffffu), 1);   /* odd word stride: conflict-free */
    assert_int_equal(deg(64, 4, 0xffffffffu), 16);  /* two banks, 16 words each */
    assert_int_equal(deg(128, 4, 0xffffffffu), 32); /* all in one bank */
}

static void test_inactive_lanes(void **state) {
    (void)state;
    assert_int_equal(deg(128, 4, 0x3), 2);
    assert_int_equal(deg(128, 4, 0x80000001u), 2);
    assert_int_equal(deg(128, 4, 0x1), 1);
    assert_int_equal(deg(128, 4, 0), 0);
}

static void test_wide(void **state) {
    (void)state;
    assert_int_equal(deg(8, 8, 0xffffffffu), 2);   /* 256 B over 32 banks */
    assert_int_equal(deg(8, 8, 0x0000ffffu), 1);   /* half a warp fits one pass */
    assert_int_equal(deg(16, 16, 0xffffffffu), 4); /* 512 B */
    assert_int_equal(deg(0, 16, 0xffffffffu), 1);  /* broadcast of one 16 B vector */
    assert_int_equal(deg(16, 8, 0xffffffffu), 4);  /* 8 B every 16 B: half the banks, 4 deep */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_width4),
        cmocka_unit_test(test_inactive_lanes),
        cmocka_unit_test(test_wide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
