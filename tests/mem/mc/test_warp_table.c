/* Tests of the warp alias / warp entry tables (src/mem/mc/warp_table.c): the id layout, the
 * saturating n_pending counter, aliasing in a small table, PC ways, coordination marks, and config
 * errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "mem/mc/warp_table.h"
#include "testutil.h"

static struct warp_table *make(const char *ini, struct cfg **c) {
    struct ws_err e = {{0}};
    *c = tu_cfg(ini);
    struct warp_table *t = warp_table_create(*c, &e);
    if (!t) fail_msg("%s", e.msg);
    return t;
}

static void test_ids(void **state) {
    (void)state;
    struct cfg *c;
    struct warp_table *t = make("", &c);
    struct mem_origin a = {.sm = 0, .warp_slot = 0, .pc = 0x100};
    struct mem_origin b = {.sm = 31, .warp_slot = 31, .pc = 0x200};
    struct mem_origin d = {.sm = 32, .warp_slot = 5, .pc = 0x300};
    assert_int_equal(warp_table_id(t, &a), 0);
    assert_int_equal(warp_table_id(t, &b), 1023);
    assert_int_equal(warp_table_id(t, &d), 5); /* SM 32 aliases SM 0 in 1,024 entries */
    warp_table_destroy(t);
    cfg_destroy(c);

    /* pc_ways 2: two loads of one warp land in the two entries (SM x warps + slot) x 2 + {0,1}
     * whenever their hashed PCs differ in parity; some pair of PCs must. */
    t = make("[mc]\nwet.pc_ways=2\nwet.entries=4096\n", &c);
    struct mem_origin p = {.sm = 1, .warp_slot = 2};
    bool seen[2] = {false, false};
    for (uint64_t pc = 0; pc < 64; pc += 8) {
        p.pc = pc;
        uint32_t id = warp_table_id(t, &p);
        assert_true(id / 2 == 34);
        seen[id & 1] = true;
    }
    assert_true(seen[0] && seen[1]);
    warp_table_destroy(t);
    cfg_destroy(c);
}

static void test_counter_saturates(void **state) {
    (void)state;
    struct cfg *c;
    struct warp_table *t = make("[mc]\nwet.bits=3\n", &c);
    for (int i = 1; i <= 7; i++) assert_int_equal(warp_table_inc(t, 9), i);
    assert_int_equal(warp_table_inc(t, 9), 7); /* 3 bits: stays at 7 */
    for (int i = 6; i >= 0; i--) assert_int_equal(warp_table_dec(t, 9), i);
    assert_int_equal(warp_table_dec(t, 9), 0); /* never below 0 */
    assert_int_equal(warp_table_pending(t, 8), 0);
    warp_table_destroy(t);
    cfg_destroy(c);
}

static void test_bad_config(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    struct cfg *c = tu_cfg("[mc]\nwet.entries=1000\n");
    assert_null(warp_table_create(c, &e));
    assert_non_null(strstr(e.msg, "mc.wet.entries = 1000 is not a power of two"));
    assert_non_null(strstr(e.msg, ":2:"));
    cfg_destroy(c);
    c = tu_cfg("[mc]\nwet.bits=9\n");
    memset(&e, 0, sizeof e);
    assert_null(warp_table_create(c, &e));
    assert_non_null(strstr(e.msg, "mc.wet.bits"));
    cfg_destroy(c);
}

/* Coordination marks count the controllers whose current selection is the warp: two controllers
 * on warp 7, one moves to warp 9, and 7 stays marked until the other moves too; pending requests
 * draining to 0 do not touch a mark. */
static void test_marks(void **state) {
    (void)state;
    struct cfg *c;
    struct warp_table *t = make("", &c);
    assert_false(warp_table_marked(t, 7));
    warp_table_mark(t, 7);
    warp_table_mark(t, 7);
    warp_table_unmark(t, 7);
    warp_table_mark(t, 9);
    assert_true(warp_table_marked(t, 7));
    assert_true(warp_table_marked(t, 9));
    warp_table_inc(t, 7);
    warp_table_dec(t, 7);
    assert_true(warp_table_marked(t, 7));
    warp_table_unmark(t, 7);
    assert_false(warp_table_marked(t, 7));
    assert_true(warp_table_marked(t, 9));
    warp_table_destroy(t);
    cfg_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_counter_saturates),
        cmocka_unit_test(test_marks),
        cmocka_unit_test(test_bad_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
