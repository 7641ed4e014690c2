/* Cache index functions (src/cache/index/): exact set numbers for given addresses, how
 * power-of-two strides spread over the sets (seed 001 §3.3: stride 4096 B over 32 sets of 128 B
 * lines is 1 set with the conventional index, 32 with XOR and 8 with the Fermi hash), the
 * registry and the geometry checks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "cache/index/index.h"

static struct cache_index mk(const char *name, uint64_t sets, uint64_t line) {
    struct cache_index ix;
    struct ws_err e = {{0}};
    if (cache_index_init(&ix, name, sets, line, &e) != 0) {
        print_error("%s\n", e.msg);
        fail();
    }
    return ix;
}

/* Distinct sets touched by n addresses base + i * stride, and the most requests in one set. */
static unsigned spread(const struct cache_index *ix, uint64_t stride, unsigned n,
                       unsigned *max_per_set) {
    unsigned count[256] = {0}, distinct = 0, mx = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t s = cache_index_set(ix, (uint64_t)i * stride);
        assert_true(s < ix->sets);
        if (count[s]++ == 0) distinct++;
        if (count[s] > mx) mx = count[s];
    }
    if (max_per_set) *max_per_set = mx;
    return distinct;
}

static void test_linear(void **state) {
    (void)state;
    struct cache_index ix = mk("linear", 32, 128);
    assert_int_equal(cache_index_set(&ix, 0), 0);
    assert_int_equal(cache_index_set(&ix, 127), 0);
    assert_int_equal(cache_index_set(&ix, 128), 1);
    assert_int_equal(cache_index_set(&ix, 31 * 128 + 5), 31);
    assert_int_equal(cache_index_set(&ix, 32 * 128), 0);
    assert_int_equal(cache_index_set(&ix, 0x12345680), (0x12345680 >> 7) & 31);
    /* any set count: line number mod sets */
    struct cache_index nz = mk("linear", 48, 128);
    assert_int_equal(cache_index_set(&nz, 50 * 128), 2);
    assert_int_equal(cache_index_set(&nz, 47 * 128), 47);
    assert_int_equal(cache_index_set(&nz, 96 * 128 + 64), 0);
    struct cache_index l64 = mk("linear", 4, 64);
    assert_int_equal(cache_index_set(&l64, 3 * 64), 3);
    assert_int_equal(cache_index_set(&l64, 5 * 64), 1);
}

static void test_xor(void **state) {
    (void)state;
    struct cache_index ix = mk("xor", 32, 128);
    /* index bits 7-11 XOR bits 12-16 */
    assert_int_equal(cache_index_set(&ix, (3u << 7) | (5u << 12)), 3 ^ 5);
    assert_int_equal(cache_index_set(&ix, 31u << 7), 31);
    assert_int_equal(cache_index_set(&ix, 1u << 12), 1);
    assert_int_equal(cache_index_set(&ix, (7u << 7) | (7u << 12)), 0);
    /* bits above 16 do not take part with 32 sets */
    assert_int_equal(cache_index_set(&ix, 1u << 17), 0);
    struct cache_index x4 = mk("xor", 4, 128);
    assert_int_equal(cache_index_set(&x4, (1u << 7) | (2u << 9)), 3);
}

static void test_fermi(void **state) {
    (void)state;
    struct cache_index ix = mk("fermi", 32, 128);
    assert_int_equal(cache_index_set(&ix, 0), 0);
    assert_int_equal(cache_index_set(&ix, 5u << 7), 5);
    assert_int_equal(cache_index_set(&ix, 1u << 13), 1);                  /* bit 13 -> 0 */
    assert_int_equal(cache_index_set(&ix, 1u << 15), 4);                  /* bit 15 -> 2 */
    assert_int_equal(cache_index_set(&ix, 1u << 17), 8);                  /* bit 17 -> 3 */
    assert_int_equal(cache_index_set(&ix, (1u << 19) | (1u << 7)), 0x11); /* bit 19 -> 4 */
    assert_int_equal(cache_index_set(&ix, 1u << 12), 0); /* bit 12 unused at 32 sets */
    assert_int_equal(cache_index_set(&ix, 1u << 16), 0); /* bit 16 unused */
    assert_int_equal(cache_index_set(&ix, (3u << 7) | (3u << 13)), 0);
    struct cache_index i64 = mk("fermi", 64, 128);
    assert_int_equal(cache_index_set(&i64, 1u << 12), 32);
    assert_int_equal(cache_index_set(&i64, (1u << 12) | (1u << 13) | (2u << 7)), 32 + 3);
}

/* Power-of-two strides over 32 sets (one warp's 32 requests): the concentrations of seed 001
 * §3.3 for CONV / BXOR / Fermi hash. */
static void test_stride_spread(void **state) {
    (void)state;
    struct cache_index lin = mk("linear", 32, 128), x = mk("xor", 32, 128),
                       f = mk("fermi", 32, 128);
    unsigned mx;
    assert_int_equal(spread(&lin, 4096, 32, &mx), 1);
    assert_int_equal(mx, 32);
    assert_int_equal(spread(&x, 4096, 32, &mx), 32);
    assert_int_equal(mx, 1);
    assert_int_equal(spread(&f, 4096, 32, &mx), 8);
    assert_int_equal(mx, 4);
    /* stride 256 B: linear 16 sets (2 each), xor all 32, fermi 16 */
    assert_int_equal(spread(&lin, 256, 32, &mx), 16);
    assert_int_equal(mx, 2);
    assert_int_equal(spread(&x, 256, 32, &mx), 32);
    assert_int_equal(spread(&f, 256, 32, &mx), 16);
    assert_int_equal(mx, 2);
    /* stride 32 KB: xor concentrates 8 per set, fermi 4 */
    assert_int_equal(spread(&x, 32768, 32, &mx), 4);
    assert_int_equal(mx, 8);
    assert_int_equal(spread(&f, 32768, 32, &mx), 8);
    assert_int_equal(mx, 4);
    /* the 64-set Fermi hash also uses bit 12: stride 4096 covers 16 sets */
    struct cache_index f64 = mk("fermi", 64, 128);
    assert_int_equal(spread(&f64, 4096, 32, &mx), 16);
    assert_int_equal(mx, 2);
}

static void test_registry_and_checks(void **state) {
    (void)state;
    assert_non_null(cache_index_find("linear"));
    assert_non_null(cache_index_find("xor"));
    assert_non_null(cache_index_find("fermi"));
    assert_null(cache_index_find("nope"));
    char names[128];
    cache_index_names(names, sizeof names);
    assert_string_equal(names, "linear, xor, fermi");
    struct cache_index ix;
    struct ws_err e = {{0}};
    assert_int_equal(cache_index_init(&ix, "nope", 32, 128, &e), -1);
    assert_non_null(strstr(e.msg, "'nope' is not known (known: linear, xor, fermi)"));
    assert_int_equal(cache_index_init(&ix, "xor", 48, 128, &e), -1);
    assert_non_null(strstr(e.msg, "power-of-two"));
    assert_int_equal(cache_index_init(&ix, "fermi", 16, 128, &e), -1);
    assert_non_null(strstr(e.msg, "32 or 64 sets"));
    assert_int_equal(cache_index_init(&ix, "fermi", 32, 64, &e), -1);
    assert_non_null(strstr(e.msg, "128 B lines"));
    assert_int_equal(cache_index_init(&ix, "linear", 48, 128, &e), 0);
    assert_int_equal(ix.sets, 48);
    assert_false(ix.pow2);
    assert_int_equal(ix.line_shift, 7);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear),
        cmocka_unit_test(test_xor),
        cmocka_unit_test(test_fermi),
        cmocka_unit_test(test_stride_spread),
        cmocka_unit_test(test_registry_and_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
