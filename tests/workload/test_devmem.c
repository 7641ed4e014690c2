/* Device memory (src/workload/kernels/devmem.c): cudaMalloc order from 0xC0000000 with 256-byte
 * alignment, zeroed host backing, bounds of host views. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "workload/kernels/devmem.h"

static void test_alloc_order_and_alignment(void **state) {
    (void)state;
    struct devmem *d = devmem_create(DEVMEM_BASE);
    struct ws_err e = {{0}};
    assert_int_equal(devmem_alloc(d, 48, "nodes", &e), 0xC0000000ull);
    assert_int_equal(devmem_alloc(d, 256, "edges", &e), 0xC0000100ull);
    assert_int_equal(devmem_alloc(d, 257, "mask", &e), 0xC0000200ull);
    assert_int_equal(devmem_alloc(d, 1, "over", &e), 0xC0000400ull);
    assert_int_equal(devmem_top(d), 0xC0000500ull);
    assert_int_equal(devmem_bytes(d), 48 + 256 + 257 + 1);
    assert_string_equal(devmem_what(d, 0xC0000210), "mask");
    assert_string_equal(devmem_what(d, 0xC0000040), "?"); /* padding after "nodes" */
    assert_int_equal(devmem_alloc(d, 0, "empty", &e), 0);
    assert_non_null(strstr(e.msg, "'empty' of 0 bytes"));
    devmem_destroy(d);
}

static void test_host_views(void **state) {
    (void)state;
    struct devmem *d = devmem_create(DEVMEM_BASE);
    struct ws_err e = {{0}};
    uint64_t a = devmem_alloc(d, 100, "a", &e), b = devmem_alloc(d, 8, "b", &e);
    uint8_t *ha = devmem_host(d, a, 100);
    assert_non_null(ha);
    for (int i = 0; i < 100; i++) assert_int_equal(ha[i], 0);
    ha[99] = 7;
    assert_ptr_equal(devmem_host(d, a + 99, 1), ha + 99);
    assert_null(devmem_host(d, a + 99, 2));  /* runs past the block */
    assert_null(devmem_host(d, a + 100, 1)); /* in the alignment padding */
    assert_null(devmem_host(d, a - 1, 1));
    assert_null(devmem_host(d, b + 8, 1));
    assert_non_null(devmem_host(d, b, 8));
    struct devmem_span s;
    assert_true(devmem_span(d, a + 50, &s));
    assert_int_equal(s.addr, a);
    assert_int_equal(s.bytes, 100);
    assert_false(devmem_span(d, b + 300, &s));
    devmem_destroy(d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_order_and_alignment),
        cmocka_unit_test(test_host_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
