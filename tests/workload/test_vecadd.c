/* Vector add (src/workload/kernels/vecadd.c): launch shape, device layout, the exact instruction
 * stream of a warp (pcs, register ids, lane addresses that coalesce into one 128-byte line),
 * guarded tail warps, total instruction count and the functional result. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "workload/workload.h"

static struct inst seq[64];

static int run_warp(struct workload *w, struct wl_warp *wp) {
    struct ws_err e = {{0}};
    int n = 0;
    do {
        assert_true(n < 64);
        assert_int_equal(w->vt->warp_next(w, wp, &seq[n], &e), 0);
    } while (seq[n++].cls != OP_EXIT);
    return n;
}

enum { A = 0xC0000000, B = A + 4096, C = B + 4096 }; /* 4000 bytes each, 256-byte aligned */

static void test_launch_and_warp_stream(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = vecadd\n[workload.vecadd]\nn = 1000\n");
    struct kernel_desc k;
    struct ws_err e = {{0}};
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "vectorAdd");
    assert_int_equal(k.id, 0);
    assert_int_equal(k.grid[0], 4);
    assert_int_equal(k.block[0], 256);
    assert_int_equal(k.ncta, 4);
    assert_int_equal(k.threads, 256);
    assert_int_equal(k.regs, 10);
    assert_int_equal(k.ncopies, 2); /* A and B; C is only written */
    assert_int_equal(k.copies[0].addr, A);
    assert_int_equal(k.copies[0].bytes, 4000);
    assert_int_equal(k.copies[1].addr, B);

    struct wl_warp *wp[8];
    assert_int_equal(w->vt->cta_start(w, 1, wp, &e), 0);
    int n = run_warp(w, wp[2]); /* elements 256 + 64 .. 256 + 95 */
    assert_int_equal(n, 13);
    static const uint8_t cls[] = {OP_INT, OP_INT, OP_INT, OP_INT, OP_BRANCH, OP_INT, OP_INT,
                                  OP_MEM, OP_MEM, OP_SP,  OP_INT, OP_MEM,    OP_EXIT};
    for (int i = 0; i < n; i++) {
        assert_int_equal(seq[i].pc, 16 * i);
        assert_int_equal(seq[i].cls, cls[i]);
        assert_int_equal(seq[i].active, 0xffffffffu);
    }
    /* Loads of A and B: lane 0 and 31 addresses, all 32 in one 128-byte line. */
    const uint64_t first = 320;
    assert_int_equal(seq[7].mop, MOP_LOAD);
    assert_int_equal(seq[7].width, 4);
    assert_int_equal(seq[7].space, SPACE_GLOBAL);
    assert_int_equal(seq[7].addr[0], A + 4 * first);
    assert_int_equal(seq[7].addr[31], A + 4 * (first + 31));
    assert_int_equal(seq[8].addr[0], B + 4 * first);
    assert_int_equal(seq[11].mop, MOP_STORE);
    assert_int_equal(seq[11].addr[31], C + 4 * (first + 31));
    for (int i = 7; i <= 11; i += 4)
        for (int l = 0; l < 32; l++) assert_int_equal(seq[i].addr[l] / 128, seq[i].addr[0] / 128);
    /* Registers: the loads write R6 and R7, which the FADD reads: it must wait on both. */
    assert_int_equal(seq[7].dst[0], 6);
    assert_int_equal(seq[7].src[0], 2);
    assert_int_equal(seq[8].dst[0], 7);
    assert_int_equal(seq[9].nsrc, 2);
    assert_int_equal(seq[9].src[0], 6);
    assert_int_equal(seq[9].src[1], 7);
    assert_int_equal(seq[11].nsrc, 2); /* address R8, data R6 */
    for (int i = 0; i < 8; i++)
        if (i != 2) run_warp(w, wp[i]);
    w->vt->cta_end(w, 1, wp);

    /* CTA 3 covers 768..1023: warp 7 (992..1023) has 8 elements; the guard diverges. */
    assert_int_equal(w->vt->cta_start(w, 3, wp, &e), 0);
    for (int i = 0; i < 7; i++) assert_int_equal(run_warp(w, wp[i]), 13);
    n = run_warp(w, wp[7]);
    assert_int_equal(n, 13);
    assert_int_equal(seq[4].active, 0xffffffffu); /* the branch: all lanes */
    for (int i = 5; i < 12; i++) assert_int_equal(seq[i].active, 0xffu);
    assert_int_equal(seq[7].addr[7], A + 4 * 999);
    assert_int_equal(seq[12].active, 0xffffffffu); /* reconverged at EXIT */
    w->vt->cta_end(w, 3, wp);
    w->vt->destroy(w);
}

static void test_counts_and_result(void **state) {
    (void)state;
    /* n = 900: 28 full warps, one of 4 lanes (13 each), three warps with no element (6 each). */
    struct workload *w = tu_workload("[workload]\nname = vecadd\n[workload.vecadd]\nn = 900\n");
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 1);
    assert_int_equal(c.ctas, 4);
    assert_int_equal(c.warps, 32);
    assert_int_equal(c.insts, 29 * 13 + 3 * 6);
    assert_int_equal(c.by_class[OP_MEM], 29 * 3);
    assert_int_equal(c.by_class[OP_EXIT], 32);
    assert_int_equal(w->vt->verify(w, &e), 0);
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0);
    w->vt->destroy(w);

    /* The test size: 1 M elements, 32768 warps of 13. */
    w = tu_workload("[workload]\nname = vecadd\n");
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.insts, 32768 * 13);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launch_and_warp_stream),
        cmocka_unit_test(test_counts_and_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
