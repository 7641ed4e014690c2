/* Tests of the ready set (src/mem/mc/ready_set.c), the timing wheel behind the controller's
 * candidate index: random puts, moves, deletions and time steps (short ones inside the wheel,
 * long ones past it, never-ready keys) against a plain array, checking after every operation the
 * ready and class bitmaps, membership and the exact earliest pending cycle. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "base/rng.h"
#include "mem/mc/ready_set.h"

enum { MAXK = 200 };

struct model {
    bool in[MAXK];
    uint64_t at[MAXK];
    unsigned cls[MAXK];
};

static bool bit(const uint64_t *m, uint32_t k) {
    return (m[k >> 6] >> (k & 63)) & 1;
}

static void check(struct ready_set *s, const struct model *x, uint32_t n) {
    uint64_t next = RS_NEVER;
    for (uint32_t k = 0; k < n; k++) {
        assert_int_equal(rs_has(s, k), x->in[k]);
        bool ready = x->in[k] && x->at[k] <= s->now;
        assert_int_equal(rs_is_ready(s, k), ready);
        for (unsigned c = 0; c < RS_NCLS; c++)
            assert_int_equal(bit(s->clsm[c], k), x->in[k] && x->cls[k] == c);
        if (x->in[k] && x->at[k] > s->now && x->at[k] < next) next = x->at[k];
    }
    /* no stray bits beyond n */
    for (uint32_t k = n; k < s->nwords * 64; k++) {
        assert_false(bit(s->in, k));
        assert_false(bit(s->ready, k));
    }
    assert_int_equal(rs_next(s), next);
}

static void random_ops(uint32_t n, uint64_t seed) {
    struct ready_set s;
    struct ws_err e = {{0}};
    assert_int_equal(rs_init(&s, n, &e), 0);
    struct model x;
    memset(&x, 0, sizeof x);
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    uint64_t now = 0;
    for (int step = 0; step < 20000; step++) {
        uint32_t k = (uint32_t)ws_rng_below(&r, n);
        switch (ws_rng_below(&r, 8)) {
        case 0:
        case 1:
        case 2: { /* put or move: in the past, inside the wheel, beyond it, or never */
            uint64_t at, kind = ws_rng_below(&r, 10);
            if (kind < 2)
                at = now - ws_rng_below(&r, now < 5 ? now + 1 : 5);
            else if (kind < 7)
                at = now + 1 + ws_rng_below(&r, RS_WHEEL - 1);
            else if (kind < 9)
                at = now + RS_WHEEL + ws_rng_below(&r, 300);
            else
                at = RS_NEVER;
            unsigned c = (unsigned)ws_rng_below(&r, RS_NCLS);
            rs_put(&s, k, at, c);
            x.in[k] = true, x.at[k] = at, x.cls[k] = c;
            break;
        }
        case 3:
            rs_del(&s, k);
            x.in[k] = false;
            break;
        case 4:
        case 5: /* short step: within the wheel */
            now += ws_rng_below(&r, 4);
            rs_advance(&s, now);
            break;
        case 6: /* long step: past the wheel */
            now += ws_rng_below(&r, 3 * RS_WHEEL);
            rs_advance(&s, now);
            break;
        default: /* jump to the earliest pending cycle, as a controller sleeping until then */
            if (rs_next(&s) != RS_NEVER) {
                now = rs_next(&s);
                rs_advance(&s, now);
                bool some = false;
                for (uint32_t i = 0; i < n; i++) some |= x.in[i] && x.at[i] == now;
                assert_true(some);
            }
            break;
        }
        check(&s, &x, n);
    }
    rs_free(&s);
}

static void test_one_word(void **state) {
    (void)state;
    random_ops(32, 1);
    random_ops(64, 2);
}

static void test_several_words(void **state) {
    (void)state;
    random_ops(130, 3);
    random_ops(MAXK, 4);
}

/* A key due exactly RS_WHEEL - 1 and RS_WHEEL cycles ahead: the last wheel slot and the first
 * far one, each ready exactly on time. */
static void test_wheel_edge(void **state) {
    (void)state;
    struct ready_set s;
    struct ws_err e = {{0}};
    assert_int_equal(rs_init(&s, 4, &e), 0);
    rs_advance(&s, 100);
    rs_put(&s, 0, 100 + RS_WHEEL - 1, 0);
    rs_put(&s, 1, 100 + RS_WHEEL, 1);
    rs_put(&s, 2, RS_NEVER, 2);
    assert_int_equal(rs_next(&s), 100 + RS_WHEEL - 1);
    rs_advance(&s, 100 + RS_WHEEL - 2);
    assert_false(rs_is_ready(&s, 0));
    rs_advance(&s, 100 + RS_WHEEL - 1);
    assert_true(rs_is_ready(&s, 0));
    assert_false(rs_is_ready(&s, 1));
    assert_int_equal(rs_next(&s), 100 + RS_WHEEL);
    rs_advance(&s, 100 + RS_WHEEL);
    assert_true(rs_is_ready(&s, 1));
    assert_false(rs_is_ready(&s, 2));
    assert_int_equal(rs_next(&s), RS_NEVER);
    rs_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_word),
        cmocka_unit_test(test_several_words),
        cmocka_unit_test(test_wheel_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
