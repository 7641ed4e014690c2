/* Rodinia HotSpot model (src/workload/kernels/hotspot.c): launch shapes and buffer swapping, the
 * first tile load's addresses, exact global/shared/barrier counts from calculate_temp's guards,
 * a hand-counted figure, and the temperatures equal to the same time steps on the host when the
 * CTAs run with real barriers. */
#include "../gpu/gpu_harness.h"
#include "km_sync.h"

enum { T0 = 0xC0000000, T1 = T0 + 1792, PW = T1 + 1792 }; /* 20x20 floats: 1600 -> 1792 B */

static void test_shapes_and_addresses(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = hotspot\n[workload.hotspot]\nsize = 20\n"
                                     "pyramid = 2\nsteps = 3\n");
    struct kernel_desc k;
    struct ws_err e = {{0}};
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "calculate_temp");
    assert_int_equal(k.grid[0], 2); /* small block 16 - 2*2 = 12: ceil(20 / 12) */
    assert_int_equal(k.grid[1], 2);
    assert_int_equal(k.threads, 256);
    assert_int_equal(k.smem, 3072);
    assert_int_equal(k.ncopies, 2);
    assert_int_equal(k.copies[0].addr, T0);
    assert_int_equal(k.copies[1].addr, PW);
    struct wl_warp *wp[8];
    struct inst in;
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    /* CTA (0,0) starts at (-2,-2): warp 1 holds ty 2,3 = rows 0,1, lanes tx >= 2 in the grid. */
    int n = 0;
    do {
        assert_int_equal(w->vt->warp_next(w, wp[1], &in, &e), 0);
        if (in.cls == OP_MEM && in.space == SPACE_GLOBAL) {
            assert_int_equal(in.active, 0xfffcfffc);
            uint64_t base = n++ == 0 ? T0 : PW;
            for (int l = 0; l < 32; l++)
                if (in.active >> l & 1)
                    assert_int_equal(in.addr[l], base + 4 * (20 * (l / 16) + l % 16 - 2));
        }
    } while (in.cls != OP_BAR);
    assert_int_equal(n, 2);
    w->vt->destroy(w);
}

static bool in_grid(int y, int x, int n) {
    return y >= 0 && y < n && x >= 0 && x < n;
}

static void test_counts_and_result(void **state) {
    (void)state;
    const int n = 20, pyr = 2, steps = 3;
    struct workload *w = tu_workload("[workload]\nname = hotspot\n[workload.hotspot]\nsize = 20\n"
                                     "pyramid = 2\nsteps = 3\n");
    const char *names[] = {"calculate_temp"};
    struct ks_count c;
    ks_run(w, names, 1, &c);
    ks_verify(w);
    w->vt->destroy(w);
    /* By hand: each warp holding a grid row loads temp and power. Launch 1 (2 steps, small block
     * 12): block row 0 starts at row -2 (warps 1-7), block row 1 at row 10 (warps 0-4): 24 warps.
     * Launch 2 runs 1 step and, as calculate_temp derives the small block from its `iteration`
     * argument while the host keeps the pyramid's border, block row 1 starts at 14 - 2 = 12
     * (warps 0-3): 22 warps. */
    assert_int_equal(c.gld, 2 * (24 + 22));
    assert_int_equal(c.launches, 2);
    assert_int_equal(c.ctas, 8);
    /* From the guards, lane by lane. */
    uint64_t gld = 0, gst = 0, sld = 0, sst = 0, bar = 0;
    for (int t = 0; t < steps; t += pyr) {
        int iter = steps - t < pyr ? steps - t : pyr, small = 16 - 2 * iter;
        for (int by = 0; by < 2; by++)
            for (int bx = 0; bx < 2; bx++)
                for (int wi = 0; wi < 8; wi++) {
                    bool load = false, comp[8] = {0};
                    for (int l = 0; l < 32; l++) {
                        int tx = l % 16, ty = 2 * wi + l / 16;
                        int y = small * by - pyr + ty, x = small * bx - pyr + tx;
                        if (!in_grid(y, x, n)) continue;
                        load = true;
                        for (int i = 0; i < iter; i++)
                            comp[i] |= tx >= i + 1 && tx <= 14 - i && ty >= i + 1 && ty <= 14 - i;
                    }
                    gld += load ? 2 : 0;
                    sst += load ? 2 : 0;
                    bar += 2 * iter;
                    for (int i = 0; i < iter; i++) {
                        sld += comp[i] ? 6 : 0;
                        sst += comp[i] ? 1 : 0;
                        if (i < iter - 1) sld += comp[i], sst += comp[i];
                    }
                    gst += comp[iter - 1];
                    sld += comp[iter - 1];
                }
    }
    assert_int_equal(c.gld, gld);
    assert_int_equal(c.gst, gst);
    assert_int_equal(c.sld, sld);
    assert_int_equal(c.sst, sst);
    assert_int_equal(c.bar, bar);

    /* The test size runs and checks too. */
    w = tu_workload("[workload]\nname = hotspot\n");
    ks_run(w, names, 1, &c);
    assert_int_equal(c.launches, 2);
    assert_int_equal(c.ctas, 2 * 36); /* ceil(64 / 12)^2 */
    ks_verify(w);
    w->vt->destroy(w);
}

/* On the GPU model (which runs verify at the end): calculate_temp reads its neighbours' shared
 * words, so the values are right only if no warp passes a bar.sync before the others arrive,
 * whatever the instruction buffer depth. */
static void test_gpu(void **state) {
    (void)state;
    must_run("rtx2060s", "hotspot",
             "workload.hotspot.size=20;workload.hotspot.steps=3;core.ibuf=16", NULL);
    must_run("rtx2060s", "hotspot", "workload.hotspot.size=20;workload.hotspot.steps=3;core.ibuf=1",
             NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes_and_addresses),
        cmocka_unit_test(test_counts_and_result),
        cmocka_unit_test(test_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
