/* CUDA samples StreamPriorities model (src/workload/kernels/streampri.c): the four launches
 * (low/high stream, two halves each) with their buffer offsets, coalesced grid-stride
 * addresses, exact instruction counts from the loop's trip counts, and destinations equal to
 * the sources. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "workload/workload.h"

static void run_warp(struct workload *w, struct wl_warp *wp, struct inst *first_load) {
    struct ws_err e = {{0}};
    struct inst in;
    bool got = false;
    do {
        assert_int_equal(w->vt->warp_next(w, wp, &in, &e), 0);
        if (!got && in.cls == OP_MEM) *first_load = in, got = true;
    } while (in.cls != OP_EXIT);
}

/* bytes = 8000: four 8000-byte buffers (8192 apart), each launch copies 1000 ints. */
enum { SRC_LO = 0xC0000000, SRC_HI = SRC_LO + 8192, DST_LO = SRC_HI + 8192 };

static void test_launches(void **state) {
    (void)state;
    struct workload *w =
        tu_workload("[workload]\nname = streampri\n[workload.streampri]\nbytes = 8000\n");
    struct ws_err e = {{0}};
    struct kernel_desc k;
    struct wl_warp *wp[16];
    struct inst ld;
    const uint64_t src[4] = {SRC_LO, SRC_HI, SRC_LO + 4000, SRC_HI + 4000};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
        assert_string_equal(k.name, "memcpy_kernel");
        assert_int_equal(k.grid[0], 1024);
        assert_int_equal(k.block[0], 512);
        assert_int_equal(k.ncopies, i == 0 ? 2 : 0);
        for (uint64_t cta = 0; cta < k.ncta; cta++) {
            assert_int_equal(w->vt->cta_start(w, cta, wp, &e), 0);
            for (int j = 0; j < 16; j++) {
                run_warp(w, wp[j], &ld);
                if (cta == 0 && j == 3) { /* ids 96..127: one 128-byte line */
                    assert_int_equal(ld.active, 0xffffffffu);
                    for (int l = 0; l < 32; l++)
                        assert_int_equal(ld.addr[l], src[i] + 4 * (96 + l));
                }
            }
            w->vt->cta_end(w, cta, wp);
        }
    }
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

/* Per warp: 7 instructions before the loop, 7 per iteration, EXIT; the trip count is the most
 * any lane makes: ceil((n/4 - id) / 524288). */
static void test_counts(void **state) {
    (void)state;
    struct workload *w =
        tu_workload("[workload]\nname = streampri\n[workload.streampri]\nbytes = 8000\n");
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    /* 1000 ints per launch: warps 0..31 (ids up to 1023) make one iteration, the rest none. */
    assert_int_equal(c.kernels, 4);
    assert_int_equal(c.warps, 4 * 16384);
    assert_int_equal(c.insts, 4 * (32 * 15 + (16384 - 32) * 8));
    assert_int_equal(c.by_class[OP_MEM], 4 * 32 * 2);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);

    w = tu_workload("[workload]\nname = streampri\n"); /* 8 MiB: 2 iterations per thread */
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.insts, 4 * 16384 * (7 + 2 * 7 + 1));
    assert_int_equal(c.by_class[OP_MEM], 4 * 16384 * 4);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

static void test_bad_size(void **state) {
    (void)state;
    tu_expect_workload_error("[workload]\nname = streampri\n[workload.streampri]\nbytes = 12\n",
                             "test.ini:4: workload.streampri.bytes = 12 must be a multiple");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launches),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_bad_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
