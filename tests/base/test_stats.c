/* Histograms (exact percentiles for small values, bounded error above), the stats registry's
 * checks (every stat defined, names unique) and its JSON, and the RNG's determinism. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/hist.h"
#include "base/rng.h"
#include "base/stats.h"

static void test_hist_percentiles(void **state) {
    (void)state;
    static struct ws_hist h;
    memset(&h, 0, sizeof h);
    for (uint64_t v = 1; v <= 40; v++) ws_hist_add(&h, v);
    assert_int_equal(h.count, 40);
    assert_int_equal(h.sum, 820);
    assert_true(ws_hist_mean(&h) == 20.5);
    assert_int_equal(ws_hist_percentile(&h, 25), 10);
    assert_int_equal(ws_hist_percentile(&h, 50), 20);
    assert_int_equal(ws_hist_percentile(&h, 75), 30);
    assert_int_equal(ws_hist_percentile(&h, 100), 40);
    assert_int_equal(ws_hist_percentile(&h, 0), 1);
    ws_hist_add(&h, 1000000);
    uint64_t p = ws_hist_percentile(&h, 99.9);
    assert_true(p <= 1000000 && p >= 1000000 - 1000000 / 16);
}

/* Results carry the distribution: the non-empty buckets as [lowest value, count]. */
struct hs {
    struct ws_hist h;
};
static void test_hist_buckets_json(void **state) {
    (void)state;
    static struct hs x;
    memset(&x, 0, sizeof x);
    ws_hist_add(&x.h, 1);
    ws_hist_add(&x.h, 1);
    ws_hist_add(&x.h, 5);
    ws_hist_add(&x.h, 100); /* 64..127 has buckets 4 wide: 100 starts its own */
    ws_hist_add(&x.h, 103);
    static const struct stat_desc d[] = {
        {"lat", STAT_HIST, offsetof(struct hs, h), "cycles", "a latency"}};
    struct stats_reg r;
    stats_reg_init(&r);
    struct ws_err e = {{0}};
    assert_int_equal(stats_register(&r, "g", d, 1, &x, &e), 0);
    json_t *j = stats_to_json(&r);
    char *txt = json_dumps(json_object_get(json_object_get(j, "g"), "lat"), JSON_COMPACT);
    assert_non_null(strstr(txt, "\"buckets\":[[1,2],[5,1],[100,2]]"));
    free(txt);
    json_decref(j);
    stats_reg_free(&r);
}

struct st {
    uint64_t a, b;
};
static const struct stat_desc good[] = {
    {"a", STAT_COUNTER, offsetof(struct st, a), "", "first"},
    {"b", STAT_COUNTER, offsetof(struct st, b), "", "second"},
};
static const struct stat_desc undocumented[] = {
    {"a", STAT_COUNTER, offsetof(struct st, a), "", ""},
};
static const struct stat_desc dup[] = {
    {"a", STAT_COUNTER, offsetof(struct st, a), "", "x"},
    {"a", STAT_COUNTER, offsetof(struct st, b), "", "y"},
};

static void test_registry(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    assert_int_equal(stats_desc_check(undocumented, 1, &e), -1);
    assert_string_equal(e.msg, "stat 'a' has no definition");
    assert_int_equal(stats_desc_check(dup, 2, &e), -1);
    assert_string_equal(e.msg, "stat name 'a' is used twice");
    struct stats_reg r;
    stats_reg_init(&r);
    struct st s = {3, 4};
    assert_int_equal(stats_register(&r, "g", good, 2, &s, &e), 0);
    json_t *j = stats_to_json(&r);
    char *text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    assert_string_equal(text, "{\"g\":{\"a\":3,\"b\":4}}");
    free(text);
    json_decref(j);
    stats_reg_free(&r);
}

/* The text summary: reals to 4 decimals, but a small non-zero one in e-notation, not 0.0000. */
struct reals {
    double big, small, zero;
};
static const struct stat_desc reals_desc[] = {
    {"big", STAT_REAL, offsetof(struct reals, big), "s", "a"},
    {"small", STAT_REAL, offsetof(struct reals, small), "s", "b"},
    {"zero", STAT_REAL, offsetof(struct reals, zero), "s", "c"},
};

static void test_text_reals(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    struct stats_reg r;
    stats_reg_init(&r);
    struct reals v = {2.5, 1.25e-5, 0};
    assert_int_equal(stats_register(&r, "t", reals_desc, 3, &v, &e), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    stats_print_text(&r, f);
    fclose(f);
    char want[3][128];
    snprintf(want[0], sizeof want[0], "%-40s %14s %-8s # a\n", "t.big", "2.5000", "s");
    snprintf(want[1], sizeof want[1], "%-40s %14s %-8s # b\n", "t.small", "1.2500e-05", "s");
    snprintf(want[2], sizeof want[2], "%-40s %14s %-8s # c\n", "t.zero", "0.0000", "s");
    for (int i = 0; i < 3; i++)
        if (!strstr(text, want[i])) fail_msg("want %s in:\n%s", want[i], text);
    free(text);
    stats_reg_free(&r);
}

static void test_rng_deterministic(void **state) {
    (void)state;
    struct ws_rng a, b;
    ws_rng_seed(&a, 42);
    ws_rng_seed(&b, 42);
    for (int i = 0; i < 1000; i++) assert_true(ws_rng_next(&a) == ws_rng_next(&b));
    uint64_t counts[10] = {0};
    for (int i = 0; i < 100000; i++) counts[ws_rng_below(&a, 10)]++;
    for (int i = 0; i < 10; i++) assert_true(counts[i] > 9500 && counts[i] < 10500);
    ws_rng_seed(&b, 43);
    assert_true(ws_rng_next(&a) != ws_rng_next(&b));
}

/* The inline bit count equals a bit-by-bit count (edge words and a random sample). */
static void test_popcount(void **state) {
    (void)state;
    struct ws_rng r;
    ws_rng_seed(&r, 7);
    uint64_t words[1000] = {0, ~0ull, 1, 1ull << 63, 0x8000000000000001ull, 0xffffffffull};
    for (int i = 6; i < 1000; i++) words[i] = ws_rng_next(&r) & ws_rng_next(&r);
    for (int i = 0; i < 1000; i++) {
        unsigned n = 0;
        for (int b = 0; b < 64; b++) n += (unsigned)(words[i] >> b & 1);
        assert_int_equal(ws_popcount64(words[i]), n);
        unsigned n32 = 0;
        for (int b = 0; b < 32; b++) n32 += (unsigned)(words[i] >> b & 1);
        assert_int_equal(ws_popcount32((uint32_t)words[i]), n32);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hist_percentiles),  cmocka_unit_test(test_hist_buckets_json),
        cmocka_unit_test(test_registry),          cmocka_unit_test(test_text_reals),
        cmocka_unit_test(test_rng_deterministic), cmocka_unit_test(test_popcount),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
