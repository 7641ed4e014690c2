/* Rodinia Needleman-Wunsch model (src/workload/kernels/nw.c): the launch sequence (1..4 blocks,
 * then 3..1), half-warp blocks, the tile loads' addresses (reference rows, the west column one
 * word per row), exact per-warp counts counted by hand from the kernels' loops, and the score
 * matrix equal to the host's dynamic programme with real barriers. */
#include "../gpu/gpu_harness.h"
#include "km_sync.h"

/* size 64: 65 x 65 ints = 16900 B -> 17152. */
enum { REF = 0xC0000000, MAT = REF + 17152, COLS = 65 };

static void test_launches_and_addresses(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = nw\n");
    struct kernel_desc k;
    struct ws_err e = {{0}};
    const uint32_t grid[7] = {1, 2, 3, 4, 3, 2, 1};
    for (int i = 0; i < 7; i++) {
        assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
        assert_string_equal(k.name, i < 4 ? "needle_cuda_shared_1" : "needle_cuda_shared_2");
        assert_int_equal(k.grid[0], grid[i]);
        assert_int_equal(k.threads, 16);
        assert_int_equal(k.ncopies, i == 0 ? 2 : 0);
        if (i != 4) continue;
        /* needle_cuda_shared_2, i = 3, block 1: tile (x, y) = (1 + 4 - 3, 4 - 1 - 1) = (2, 2). */
        struct wl_warp *wp[1];
        struct inst in;
        assert_int_equal(w->vt->cta_start(w, 1, wp, &e), 0);
        int n = 0;
        uint32_t base = COLS * 16 * 2 + 16 * 2;
        do {
            assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
            if (in.cls != OP_MEM || in.space != SPACE_GLOBAL) continue;
            if (n == 0) { /* the corner, lane 0 */
                assert_int_equal(in.active, 1);
                assert_int_equal(in.addr[0], MAT + 4 * base);
            } else if (n <= 16) { /* reference row n - 1 of the tile */
                assert_int_equal(in.active, 0xffff);
                for (int l = 0; l < 16; l++)
                    assert_int_equal(in.addr[l], REF + 4 * (base + COLS * n + l + 1));
            } else { /* the west column: one word per row */
                for (int l = 0; l < 16; l++)
                    assert_int_equal(in.addr[l], MAT + 4 * (base + COLS * (l + 1)));
            }
            n++;
        } while (n < 18);
        while (in.cls != OP_EXIT) /* one warp per block: nothing to wait for at a barrier */
            assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
        w->vt->cta_end(w, 1, wp);
    }
    w->vt->destroy(w);
}

static void test_counts_and_result(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = nw\n");
    const char *names[] = {"needle_cuda_shared_1", "needle_cuda_shared_2"};
    struct ks_count c[2];
    ks_run(w, names, 2, c);
    ks_verify(w);
    w->vt->destroy(w);
    /* 1+2+3+4 and 3+2+1 one-warp blocks. Per warp: 1 + 16 + 1 + 1 global loads (corner, reference
     * rows, west, north), 16 stores; shared: 19 stores for the loads, 16 + 15 diagonal cells (lane
     * 0 works in every step), 4 loads per cell and 16 for the write-back; 3 + 16 + 15 barriers. */
    assert_int_equal(c[0].launches, 4);
    assert_int_equal(c[1].launches, 3);
    assert_int_equal(c[0].ctas, 10);
    assert_int_equal(c[1].ctas, 6);
    for (int i = 0; i < 2; i++) {
        uint64_t b = c[i].ctas;
        assert_int_equal(c[i].gld, b * 19);
        assert_int_equal(c[i].gld_lanes, b * (1 + 16 * 18));
        assert_int_equal(c[i].gst, b * 16);
        assert_int_equal(c[i].sst, b * (19 + 31));
        assert_int_equal(c[i].sld, b * (4 * 31 + 16));
        assert_int_equal(c[i].bar, b * 34);
    }
    /* Another penalty and size; a size that is not a multiple of 16 is refused. */
    w = tu_workload("[workload]\nname = nw\n[workload.nw]\nsize = 48\npenalty = 3\n");
    ks_run(w, names, 2, c);
    assert_int_equal(c[0].ctas + c[1].ctas, 6 + 3);
    ks_verify(w);
    w->vt->destroy(w);
    tu_expect_workload_error("[workload]\nname = nw\n[workload.nw]\nsize = 50\n",
                             "test.ini:4: workload.nw.size = 50 must be");
}

/* On the GPU model (which runs verify at the end): the diagonal sweep reads its neighbours' shared
 * words, so the values are right only if no warp passes a bar.sync before the others arrive,
 * whatever the instruction buffer depth. */
static void test_gpu(void **state) {
    (void)state;
    must_run("rtx2060s", "nw", "workload.nw.size=48;core.ibuf=16", NULL);
    must_run("rtx2060s", "nw", "workload.nw.size=48;core.ibuf=1", NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launches_and_addresses),
        cmocka_unit_test(test_counts_and_result),
        cmocka_unit_test(test_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
