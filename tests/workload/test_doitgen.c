/* PolyBench/GPU doitgen model (src/workload/kernels/doitgen.c): kernel1/kernel2 pairs per r,
 * the 32x8 block shape, a warp's addresses (A broadcast, C4 and sum one line; sum stored, not
 * loaded, per s), exact instruction counts of the 4-way unrolled loop and its remainder for a size
 * whose blocks have idle lanes and idle warps, and sum and A equal to the host doitgen. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "workload/workload.h"

/* n = 20: A and sum 32000 bytes (32000 is a multiple of 256), C4 1600 bytes (1792 reserved). */
enum { A = 0xC0000000, C4 = A + 32000, SUM = C4 + 1792 };

static void test_shapes_and_addresses(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = doitgen\n[workload.doitgen]\nn = 20\n");
    struct ws_err e = {{0}};
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "doitgen_kernel1");
    assert_int_equal(k.grid[0], 1);
    assert_int_equal(k.grid[1], 3);
    assert_int_equal(k.block[0], 32);
    assert_int_equal(k.block[1], 8);
    assert_int_equal(k.ncopies, 3);
    assert_int_equal(k.copies[1].addr, C4);
    assert_int_equal(k.copies[2].addr, SUM);
    struct wl_warp *wp[8];
    struct inst in;
    assert_int_equal(w->vt->cta_start(w, 1, wp, &e), 0); /* q = 8..15 */
    int mem = 0;
    do { /* warp 2: q = 10, p = lanes 0..19 */
        assert_int_equal(w->vt->warp_next(w, wp[2], &in, &e), 0);
        if (in.cls != OP_MEM) continue;
        assert_int_equal(in.active, 0xfffff);
        /* sum = 0, then per s: C4[s][p], A[r][q][s], the store of sum (no load of it) */
        int it = (mem - 1) / 3, which = (mem - 1) % 3;
        if (mem == 0 || which == 2) /* sum[0][10][p] */
            assert_int_equal(in.addr[19], SUM + 4 * (10 * 20 + 19)),
                assert_int_equal(in.mop, MOP_STORE);
        else if (which == 1) /* A[0][10][s]: one word */
            assert_int_equal(in.addr[19], in.addr[0]),
                assert_int_equal(in.addr[0], A + 4 * (200 + it));
        else /* C4[s][p] */
            assert_int_equal(in.addr[19], C4 + 4 * (20 * it + 19));
        mem++;
    } while (in.cls != OP_EXIT);
    assert_int_equal(mem, 1 + 3 * 20);
    w->vt->destroy(w);
}

static void test_counts_and_result(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = doitgen\n[workload.doitgen]\nn = 20\n");
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    /* Per r: 24 warps, 20 with a q (20 lanes of p each), 4 past nq. kernel1: 25 before the loop,
     * 24 per four values of s (unrolled), 2 for the remainder's test, 9 per remaining s, EXIT
     * (1 + 3 per s memory); 11 for a warp past nq; kernel2: 17 (2 memory), 11. */
    assert_int_equal(c.kernels, 40);
    assert_int_equal(c.warps, 40 * 24);
    assert_int_equal(c.insts, 20 * (20 * (25 + 5 * 24 + 2 + 1) + 4 * 11 + 20 * 17 + 4 * 11));
    assert_int_equal(c.by_class[OP_MEM], 20 * (20 * (1 + 3 * 20) + 20 * 2));
    int rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    w->vt->destroy(w);

    w = tu_workload("[workload]\nname = doitgen\n"); /* test size 32: every warp full */
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.insts, 32 * 32 * (25 + 8 * 24 + 2 + 1 + 17));
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);

    /* n = 21: five unrolled steps and one remainder iteration; 21 warps with a q, 3 past nq */
    w = tu_workload("[workload]\nname = doitgen\n[workload.doitgen]\nn = 21\n");
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.insts, 21 * (21 * (25 + 5 * 24 + 2 + 9 + 1) + 3 * 11 + 21 * 17 + 3 * 11));
    assert_int_equal(c.by_class[OP_MEM], 21 * (21 * (1 + 3 * 21) + 21 * 2));
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes_and_addresses),
        cmocka_unit_test(test_counts_and_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
