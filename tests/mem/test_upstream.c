/* Upstream counts per warp-load (src/mem/upstream.c): adds and subtractions against a plain
 * array under growth and backward-shift deletion; ids not counted read 0 and are ignored. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "base/rng.h"
#include "mem/upstream.h"

static void test_basics(void **state) {
    (void)state;
    struct upstream *u = upstream_create();
    assert_non_null(u);
    assert_int_equal(upstream_count(u, 7), 0);
    upstream_sub(u, 7);    /* not counted: ignored */
    upstream_add(u, 0, 5); /* id 0 is "no id" */
    assert_int_equal(upstream_loads(u), 0);
    upstream_add(u, 7, 3);
    upstream_add(u, 7, 2);
    assert_int_equal(upstream_count(u, 7), 5);
    assert_int_equal(upstream_loads(u), 1);
    for (int i = 0; i < 4; i++) upstream_sub(u, 7);
    assert_int_equal(upstream_count(u, 7), 1);
    upstream_sub(u, 7);
    assert_int_equal(upstream_count(u, 7), 0);
    assert_int_equal(upstream_loads(u), 0);
    upstream_destroy(u);
}

enum { NID = 20000 };

static void test_against_array(void **state) {
    (void)state;
    static uint32_t want[NID];
    struct upstream *u = upstream_create();
    struct ws_rng r;
    ws_rng_seed(&r, 42);
    uint32_t live = 0;
    for (int step = 0; step < 400000; step++) {
        /* ids spread like (warp, sequence) packs: high bits vary */
        uint32_t k = (uint32_t)ws_rng_below(&r, NID);
        uint64_t id = ((uint64_t)k << 20) | (k * 7u % 1024) | 1;
        if (ws_rng_below(&r, 3) == 0) {
            uint32_t n = 1 + (uint32_t)ws_rng_below(&r, 32);
            live += want[k] == 0;
            upstream_add(u, id, n);
            want[k] += n;
        } else {
            upstream_sub(u, id);
            if (want[k] && --want[k] == 0) live--;
        }
        if (step % 997 == 0) {
            uint32_t q = (uint32_t)ws_rng_below(&r, NID);
            assert_int_equal(upstream_count(u, ((uint64_t)q << 20) | (q * 7u % 1024) | 1), want[q]);
            assert_int_equal(upstream_loads(u), live);
        }
    }
    for (uint32_t k = 0; k < NID; k++)
        assert_int_equal(upstream_count(u, ((uint64_t)k << 20) | (k * 7u % 1024) | 1), want[k]);
    upstream_destroy(u);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basics),
        cmocka_unit_test(test_against_array),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
