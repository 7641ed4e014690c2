/* Rodinia particle filter (naive) model (src/workload/kernels/particlefilter.c): one launch per
 * frame after the first, the CDF scan (one address per warp instruction, consecutive words,
 * lanes dropping out as they find their index), exact counts of the other loads and stores, and
 * xj/yj equal to the host's resampling of the scanned CDF. */
#include "km_sync.h"

/* 300 particles: 2400 B arrays -> 2560 apart. */
enum { AX = 0xC0000000, AY = AX + 2560, XJ = AY + 2560, YJ = XJ + 2560, CDF = YJ + 2560 };
enum { U = CDF + 2560 };

static void test_scan(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = particlefilter\n");
    struct kernel_desc k;
    struct ws_err e = {{0}};
    for (int f = 0; f < 3; f++) {
        assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
        assert_string_equal(k.name, "kernel");
        assert_int_equal(k.grid[0], 3);
        assert_int_equal(k.threads, 128);
        assert_int_equal(k.ncopies, 6);
        assert_int_equal(k.copies[4].addr, CDF);
        for (uint64_t cta = 0; cta < 3; cta++) {
            struct wl_warp *wp[4];
            struct inst in;
            assert_int_equal(w->vt->cta_start(w, cta, wp, &e), 0);
            for (int wi = 0; wi < 4; wi++) {
                uint32_t live = 32 * (4 * (uint32_t)cta + (uint32_t)wi) < 300 ? 1 : 0;
                uint64_t n = 0, ld_u = 0, scan = 0, gath = 0, st = 0;
                uint32_t prev = 0xffffffff;
                do {
                    assert_int_equal(w->vt->warp_next(w, wp[wi], &in, &e), 0);
                    n++;
                    if (in.cls != OP_MEM) continue;
                    int l0 = __builtin_ctz(in.active);
                    uint64_t a = in.addr[l0];
                    if (in.mop == MOP_STORE)
                        st++;
                    else if (a >= U)
                        ld_u++;
                    else if (a >= CDF) {
                        assert_int_equal(a, CDF + 8 * scan); /* x = 0, 1, 2, ... */
                        for (int l = 0; l < 32; l++)
                            if (in.active >> l & 1) assert_int_equal(in.addr[l], a);
                        assert_true((in.active & ~prev) == 0); /* lanes only leave */
                        prev = in.active;
                        scan++;
                    } else
                        gath++;
                } while (in.cls != OP_EXIT);
                assert_int_equal(ld_u, live);
                assert_int_equal(gath, 2 * live);
                assert_int_equal(st, 2 * live);
                assert_true(scan <= 300);
                if (!live) assert_int_equal(n, 6); /* to the guard, then EXIT */
            }
            w->vt->cta_end(w, cta, wp);
        }
        ks_verify(w);
    }
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0);
    ks_verify(w);
    w->vt->destroy(w);
}

static void test_paper_shape(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = particlefilter\nsize = paper\n");
    const char *names[] = {"kernel"};
    struct ks_count c;
    ks_run(w, names, 1, &c);
    assert_int_equal(c.launches, 9);     /* frames 1 .. 9 */
    assert_int_equal(c.ctas, 9 * 8);     /* 1000 / 128 */
    assert_int_equal(c.gst, 9 * 2 * 32); /* 1000 particles: 32 live warps (the last 8 lanes) */
    ks_verify(w);
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scan),
        cmocka_unit_test(test_paper_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
