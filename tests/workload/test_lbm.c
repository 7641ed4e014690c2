/* Parboil LBM model (src/workload/kernels/lbm.c): launch shape and grid swapping, the 80-byte
 * cell-record stride of the loads and the streamed store offsets, exact warp instruction,
 * memory and SFU counts from the kernel's two paths (obstacle rows, rows with fluid cells,
 * ACCEL rows), and the last step's outputs equal to the host's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "workload/workload.h"

#define SMALL "[workload]\nname = lbm\n[workload.lbm]\nx = 32\ny = 6\nz = 5\nsteps = 1\n"
/* PADDED_X 40, a layer 40 x 6 cells, margin two layers, 20 floats a cell. */
enum { PX = 40, PXY = 240, GRID = 0xC0000000, MARGIN = 4 * 20 * 2 * PXY, BYTES = 4 * 20 * PXY * 9 };

static void test_addresses(void **state) {
    (void)state;
    struct workload *w = tu_workload(SMALL);
    struct ws_err e = {{0}};
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "performStreamCollide_kernel");
    assert_int_equal(k.grid[0], 6);
    assert_int_equal(k.grid[1], 5);
    assert_int_equal(k.block[0], 32);
    assert_int_equal(k.ncopies, 2);
    assert_int_equal(k.copies[1].addr, GRID + BYTES);
    struct wl_warp *wp[1];
    struct inst in;
    assert_int_equal(w->vt->cta_start(w, 2 * 6 + 3, wp, &e), 0); /* y = 3, z = 2 */
    int mem = 0;
    const uint64_t cell = 3 * PX + 2 * PXY, src = GRID + MARGIN + 80 * cell,
                   dst = GRID + BYTES + MARGIN + 80 * cell;
    do {
        assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
        if (in.cls != OP_MEM) continue;
        if (mem < 20) { /* entry `mem` of the 32 cells of the row, 80 bytes apart */
            for (int l = 0; l < 32; l++) assert_int_equal(in.addr[l], src + 80 * l + 4 * mem);
        } else if (mem == 20 + 1) { /* DST_N: one row up */
            assert_int_equal(in.addr[0], dst + 80 * PX + 4 * 1);
        } else if (mem == 20 + 18) { /* DST_WB: one cell west, one layer down */
            assert_int_equal(in.addr[5], dst + 80 * (5 - 1 - PXY) + 4 * 18);
        }
        mem++;
    } while (in.cls != OP_EXIT);
    assert_int_equal(mem, 39);
    w->vt->cta_end(w, 2 * 6 + 3, wp);
    w->vt->destroy(w);
}

/* Per warp (a row of 32 cells): 31 to load and test, 28 for the bounce-back of obstacle lanes,
 * 153 for the relaxation of fluid lanes (+3 in ACCEL rows), 19 stores and EXIT; 39 memory
 * instructions. Rows on the boundary are all obstacle; the others have walls at x = 0 and 31
 * and fluid between. */
static void test_counts_and_result(void **state) {
    (void)state;
    struct workload *w = tu_workload(SMALL);
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.warps, 30);
    assert_int_equal(c.insts, 18 * (31 + 28 + 20) + 12 * (31 + 28 + 153 + 20) + 4 * 3);
    assert_int_equal(c.by_class[OP_MEM], 30 * 39);
    assert_int_equal(c.by_class[OP_SFU], 12);
    int rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    w->vt->destroy(w);

    w = tu_workload("[workload]\nname = lbm\n"); /* test size, two steps: the grids swap */
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 2);
    rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_addresses),
        cmocka_unit_test(test_counts_and_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
