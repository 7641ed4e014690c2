/* Rodinia SRAD v1 model (src/workload/kernels/srad1.c): the launch sequence (the paper size gives
 * main.cu's 502 launches, the reduce loop's grids shrinking by 512), exact counts per kernel for a
 * 50 x 46 image counted from the kernels' branches, the reduce's strided second-launch loads, and
 * I and c after the iterations equal to the same program on the host, bit for bit. */
#include "../gpu/gpu_harness.h"
#include "km_sync.h"

enum { HEAP = 0xC0000000 };

/* Only the launch sequence: next_kernel without running any CTA. */
static void test_paper_launches(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = srad1\nsize = paper\n");
    struct kernel_desc k;
    struct ws_err e = {{0}};
    int n = 0, reduce = 0, rc;
    uint32_t grids[3] = {0};
    while ((rc = w->vt->next_kernel(w, &k, &e)) == 1) {
        if (n == 0) assert_string_equal(k.name, "extract");
        if (!strcmp(k.name, "reduce")) {
            if (reduce < 3) grids[reduce] = k.grid[0];
            reduce++;
        } else
            assert_int_equal(k.grid[0], 450); /* ceil(502 * 458 / 512) */
        assert_int_equal(k.threads, 512);
        n++;
    }
    assert_int_equal(rc, 0);
    assert_int_equal(n, 502);
    assert_int_equal(reduce, 200);
    assert_string_equal(k.name, "compress");
    assert_int_equal(grids[0], 450);
    assert_int_equal(grids[1], 1);
    assert_int_equal(grids[2], 450);
    w->vt->destroy(w);
}

static void test_counts_and_result(void **state) {
    (void)state;
    /* 50 x 46 = 2300 pixels: 5 blocks of 16 warps, the last with 252 pixels (8 warps, the 8th
     * with 28 lanes). */
    struct workload *w = tu_workload("[workload]\nname = srad1\n");
    const char *names[] = {"extract", "prepare", "reduce", "srad", "srad2", "compress"};
    struct ks_count c[6];
    ks_run(w, names, 6, c);
    ks_verify(w);
    w->vt->destroy(w);
    uint64_t lw = 72; /* warps with a pixel: 4 x 16 + 8 */
    assert_int_equal(c[0].launches, 1);
    assert_int_equal(c[5].launches, 1);
    assert_int_equal(c[1].launches, 2);
    assert_int_equal(c[2].launches, 4); /* 5 blocks, then 1: twice per iteration */
    assert_int_equal(c[3].launches, 2);
    assert_int_equal(c[4].launches, 2);
    assert_int_equal(c[0].ctas, 5);
    assert_int_equal(c[0].gld, lw);
    assert_int_equal(c[0].gst, lw);
    assert_int_equal(c[0].gld_lanes, 2300);
    assert_int_equal(c[1].gld, 2 * 2 * lw); /* d_I reloaded after the d_sums store */
    assert_int_equal(c[1].gst, 2 * 2 * lw);
    /* srad: 9 loads (Jc, iN, iS, jW, jE, 4 neighbours), 5 stores; srad2: 10 loads, 1 store. */
    assert_int_equal(c[3].gld, 2 * 9 * lw);
    assert_int_equal(c[3].gst, 2 * 5 * lw);
    assert_int_equal(c[3].gld_lanes, 2 * 9 * 2300);
    assert_int_equal(c[4].gld, 2 * 10 * lw);
    assert_int_equal(c[4].gst, 2 * lw);
    /* reduce, first launch: 72 warps load d_sums and d_sums2; 4 full blocks climb 9 tree levels,
     * the last (nf = 252, df = 128) 7, every warp at every bar.sync; the last busy thread of each
     * block stores 2 words, the partial block's first adding nf - df = 124 pairs of words.
     * Second launch: one block, 1 warp with the 5 sums, nf = 5, df = 4: 2 levels and 1 pair. */
    uint64_t bar1 = 4 * 16 * 9 + 16 * 7, bar2 = 16 * 2;
    assert_int_equal(c[2].bar, 2 * (bar1 + bar2));
    assert_int_equal(c[2].gld, 2 * (2 * lw + 2 * 124 + 2 + 2));
    assert_int_equal(c[2].gst, 2 * (2 * 5 + 2));

    /* On the GPU model (verify at the end): the tree reads other warps' psum words across
     * bar.sync. */
    must_run("rtx2060s", "srad1", "workload.srad1.iters=1", NULL);
}

/* The second reduce launch reads d_sums[ei * 512]: lane l of the one warp at 2 KB steps. */
static void test_reduce_stride(void **state) {
    (void)state;
    struct workload *w =
        tu_workload("[workload]\nname = srad1\n[workload.srad1]\nrows = 200\ncols = 200\n");
    const char *names[] = {"extract", "prepare", "reduce", "srad", "srad2", "compress"};
    struct kernel_desc k;
    struct ws_err e = {{0}};
    for (int i = 0; i < 3; i++) assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, names[2]);
    assert_int_equal(k.grid[0], 1); /* 40000 pixels: 79 blocks, then 1 */
    struct wl_warp *wp[16];
    struct inst in;
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    uint64_t sums = HEAP + 160000 + 4 * 1024; /* d_I, then 4 index vectors of 800 B (1 KB each) */
    do assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
    while (!(in.cls == OP_MEM && in.space == SPACE_GLOBAL));
    assert_int_equal(in.active, 0xffffffff);
    for (int l = 0; l < 32; l++) assert_int_equal(in.addr[l], sums + 2048ull * l);
    do assert_int_equal(w->vt->warp_next(w, wp[2], &in, &e), 0);
    while (!(in.cls == OP_MEM && in.space == SPACE_GLOBAL) && in.cls != OP_BAR);
    assert_int_equal(in.active, 0x7fff); /* warp 2: sums 64..78 */
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paper_launches),
        cmocka_unit_test(test_counts_and_result),
        cmocka_unit_test(test_reduce_stride),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
