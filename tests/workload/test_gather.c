/* Warp-gather micro-benchmark (src/workload/kernels/gather.c): every gather warp-load touches
 * exactly k lines in exactly m channels of a 256 B, 6-channel interleave; with locality = row the
 * lines one channel gets are adjacent there; the index load is coalesced; the instruction count
 * follows the loop structure; the functional result matches the host loop; bad knobs are
 * errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "workload/workload.h"

static int distinct(const uint64_t *v, int n) {
    int d = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++) seen |= v[j] == v[i];
        d += !seen;
    }
    return d;
}

/* Runs every warp of the first CTAs and checks each gather warp-load (the second load of an
 * iteration) for k lines over m channels; with adjacent, that the lines of each channel lie in
 * ceil(k/m / 2) consecutive 256 B chunks of that channel. Returns the gathers seen. */
static int check_gathers(struct workload *w, int k, int m, int adjacent, int ctas) {
    struct kernel_desc kd;
    struct ws_err e = {{0}};
    assert_int_equal(w->vt->next_kernel(w, &kd, &e), 1);
    int gathers = 0;
    for (int cta = 0; cta < ctas; cta++) {
        struct wl_warp *wp[8];
        assert_int_equal(w->vt->cta_start(w, (uint64_t)cta, wp, &e), 0);
        for (int wi = 0; wi < 8; wi++) {
            int loads = 0;
            struct inst in;
            do {
                assert_int_equal(w->vt->warp_next(w, wp[wi], &in, &e), 0);
                if (in.cls != OP_MEM || in.mop != MOP_LOAD) continue;
                uint64_t line[32], chan[32];
                for (int l = 0; l < 32; l++) {
                    line[l] = in.addr[l] / 128;
                    chan[l] = in.addr[l] / 256 % 6;
                }
                if (loads++ % 2 == 0) { /* idx[it * nthreads + t]: one line */
                    assert_int_equal(distinct(line, 32), 1);
                    continue;
                }
                gathers++;
                assert_int_equal(distinct(line, 32), k);
                assert_int_equal(distinct(chan, 32), m);
                if (!adjacent) continue;
                for (int c = 0; c < 6; c++) {
                    uint64_t lo = UINT64_MAX, hi = 0;
                    for (int l = 0; l < 32; l++) {
                        if (chan[l] != (uint64_t)c) continue;
                        uint64_t q = in.addr[l] / 256 / 6;
                        lo = q < lo ? q : lo;
                        hi = q > hi ? q : hi;
                    }
                    if (lo == UINT64_MAX) continue;
                    int per = (k + m - 1) / m;
                    assert_true(hi - lo + 1 <= (uint64_t)(per + 1) / 2);
                }
            } while (in.cls != OP_EXIT);
        }
        w->vt->cta_end(w, (uint64_t)cta, wp);
    }
    return gathers;
}

static void test_lines_and_channels(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = gather\n[workload.gather]\nlines = 8\n"
                                     "channels = 2\n");
    assert_int_equal(check_gathers(w, 8, 2, 1, 2), 2 * 8 * 4); /* 2 CTAs, 8 warps, 4 iters */
    w->vt->destroy(w);
    w = tu_workload("[workload]\nname = gather\n[workload.gather]\nlines = 16\nchannels = 1\n");
    assert_int_equal(check_gathers(w, 16, 1, 1, 1), 32);
    w->vt->destroy(w);
    w = tu_workload("[workload]\nname = gather\n[workload.gather]\nlines = 32\nchannels = 6\n"
                    "locality = scatter\n");
    check_gathers(w, 32, 6, 0, 1);
    w->vt->destroy(w);
    w = tu_workload("[workload]\nname = gather\n[workload.gather]\nlines = 1\n");
    check_gathers(w, 1, 1, 1, 1);
    w->vt->destroy(w);
}

static void test_counts_and_result(void **state) {
    (void)state;
    /* per warp: 6 before the loop, 12 + 4 x compute per iteration, 3 more per store, 3 after */
    struct workload *w = tu_workload("[workload]\nname = gather\n[workload.gather]\nblocks = 3\n"
                                     "iters = 5\ncompute = 2\nstore_every = 2\n");
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 1);
    assert_int_equal(c.warps, 24);
    assert_int_equal(c.insts, 24 * (6 + 5 * (12 + 4 * 2) + 2 * 3 + 3));
    assert_int_equal(c.by_class[OP_MEM], 24 * (5 * 2 + 2 + 1));
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

static void test_bad_knobs(void **state) {
    (void)state;
    static const char *const bad[] = {
        "[workload]\nname = gather\n[workload.gather]\nlines = 4\nchannels = 6\n",
        "[workload]\nname = gather\n[workload.gather]\nlines = 8\nchannels = 7\n",
        "[workload]\nname = gather\n[workload.gather]\ninterleave = 200\n",
        "[workload]\nname = gather\n[workload.gather]\nlines = 33\n",
    };
    static const char *const want[] = {"channels = 6 exceeds", "channels = 7 exceeds",
                                       "not a multiple of 128", "lines"};
    for (unsigned i = 0; i < 4; i++) {
        tu_expect_workload_error(bad[i], want[i]);
        tu_expect_workload_error(bad[i], "test.ini:"); /* file:line prefix */
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_and_channels),
        cmocka_unit_test(test_counts_and_result),
        cmocka_unit_test(test_bad_knobs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
