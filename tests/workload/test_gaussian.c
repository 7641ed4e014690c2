/* Rodinia Gaussian elimination model (src/workload/kernels/gaussian.c): the Fan1/Fan2 launch
 * sequence and shapes, Fan2's half-full 4x4-block warps and their addresses (4 rows x 4 columns),
 * exact warp and memory instruction counts for a tiny matrix derived from the kernels' guards,
 * and m, a, b equal to the same elimination on the host. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "workload/workload.h"

/* Size 6: m and a are 144 bytes each (256-byte aligned blocks), b 24 bytes. */
enum { M = 0xC0000000, A = M + 256, B = A + 256 };

static void test_launches_and_addresses(void **state) {
    (void)state;
    struct workload *w =
        tu_workload("[workload]\nname = gaussian\n[workload.gaussian]\nsize = 6\n");
    struct kernel_desc k;
    struct ws_err e = {{0}};
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "Fan1");
    assert_int_equal(k.grid[0], 1);
    assert_int_equal(k.block[0], 512);
    assert_int_equal(k.ncopies, 3);
    assert_int_equal(k.copies[0].addr, M);
    assert_int_equal(k.copies[1].addr, A);
    assert_int_equal(k.copies[2].addr, B);
    assert_int_equal(k.copies[2].bytes, 24);
    struct wl_warp *wp[16];
    struct inst in;
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    /* Warp 0 of Fan1 (t = 0): lanes 0..4 load a[lane + 1][0], then a[0][0], store m[lane + 1][0].
     */
    int loads = 0;
    do {
        assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
        if (in.cls == OP_MEM && in.mop == MOP_LOAD && loads++ == 0) {
            assert_int_equal(in.active, 0x1f);
            for (int l = 0; l < 5; l++) assert_int_equal(in.addr[l], A + 4 * 6 * (l + 1));
        }
        if (in.cls == OP_MEM && in.mop == MOP_STORE) assert_int_equal(in.addr[4], M + 4 * 6 * 5);
    } while (in.cls != OP_EXIT);
    assert_int_equal(loads, 2);
    for (int i = 1; i < 16; i++) do
            assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0);
        while (in.cls != OP_EXIT);
    w->vt->cta_end(w, 0, wp);

    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "Fan2");
    assert_int_equal(k.grid[0], 2);
    assert_int_equal(k.grid[1], 2);
    assert_int_equal(k.block[0], 4);
    assert_int_equal(k.block[1], 4);
    assert_int_equal(k.threads, 16);
    assert_int_equal(k.ncopies, 0);
    /* CTA 0: rows 1..4 (x), columns 0..3 (y); the a[row][col] load is the third load. */
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    loads = 0;
    do {
        assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
        if (in.cls == OP_MEM && in.mop == MOP_LOAD && ++loads == 3) {
            assert_int_equal(in.active, 0xffff);
            for (int l = 0; l < 16; l++)
                assert_int_equal(in.addr[l], A + 4 * (6 * (l % 4 + 1) + l / 4));
        }
    } while (in.cls != OP_EXIT);
    assert_int_equal(loads, 6); /* 3, then b[row], b[t], m[row][t] for the y == 0 lanes */
    w->vt->cta_end(w, 0, wp);
    w->vt->destroy(w);
}

/* Counts from the kernels' structure: Fan1 warp: 20 instructions (3 memory) when a lane has a
 * row, else 8. Fan2 warp: 8 when no lane has a row, 14 when none also has a column, 31 (4 memory,
 * one FFMA) when some lane does, 40 (8 memory, two FFMAs) when one of those has yidx == 0. */
static void expected(uint32_t n, struct wl_count *c) {
    memset(c, 0, sizeof *c);
    uint32_t g1 = (n + 511) / 512, g2 = (n + 3) / 4;
    for (uint32_t t = 0; t + 1 < n; t++) {
        c->kernels += 2;
        for (uint32_t w = 0; w < g1 * 16; w++) {
            bool any = 32 * w < n - 1 - t;
            c->insts += any ? 20 : 8;
            c->by_class[OP_MEM] += any ? 3 : 0;
            c->by_class[OP_SFU] += any ? 1 : 0;
        }
        for (uint32_t bx = 0; bx < g2; bx++)
            for (uint32_t by = 0; by < g2; by++) {
                bool anyx = false, anyxy = false, y0 = false;
                for (uint32_t l = 0; l < 16; l++) {
                    uint32_t x = 4 * bx + l % 4, y = 4 * by + l / 4;
                    if (x >= n - 1 - t) continue;
                    anyx = true;
                    if (y >= n - t) continue;
                    anyxy = true;
                    y0 |= y == 0;
                }
                c->insts += !anyx ? 8 : !anyxy ? 14 : y0 ? 40 : 31;
                c->by_class[OP_MEM] += !anyxy ? 0 : y0 ? 8 : 4;
            }
        c->warps += g1 * 16 + g2 * g2;
    }
}

static void test_counts_and_result(void **state) {
    (void)state;
    const uint32_t sizes[] = {6, 37};
    for (int i = 0; i < 2; i++) {
        char ini[128];
        snprintf(ini, sizeof ini, "[workload]\nname = gaussian\n[workload.gaussian]\nsize = %u\n",
                 sizes[i]);
        struct workload *w = tu_workload(ini);
        struct wl_count c, want;
        struct ws_err e = {{0}};
        assert_int_equal(workload_count(w, &c, &e), 0);
        expected(sizes[i], &want);
        assert_int_equal(c.kernels, want.kernels);
        assert_int_equal(c.warps, want.warps);
        assert_int_equal(c.insts, want.insts);
        assert_int_equal(c.by_class[OP_MEM], want.by_class[OP_MEM]);
        assert_int_equal(c.by_class[OP_SFU], want.by_class[OP_SFU]);
        int rc = w->vt->verify(w, &e);
        if (rc) fprintf(stderr, "%s\n", e.msg);
        assert_int_equal(rc, 0);
        w->vt->destroy(w);
    }
    /* The test size runs and checks too. */
    struct workload *w = tu_workload("[workload]\nname = gaussian\n");
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 2 * 63);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launches_and_addresses),
        cmocka_unit_test(test_counts_and_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
