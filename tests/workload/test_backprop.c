/* Rodinia backprop model (src/workload/kernels/backprop.c): the two launches and their copies,
 * the 17-float weight rows a warp reads, exact global/shared/barrier counts counted by hand from
 * the kernels (the tree reduction's 8 + 4 + 2 + 1 active warps), and the block sums and updated
 * weights equal to the host's with real barriers. */
#include "../gpu/gpu_harness.h"
#include "km_sync.h"

/* in = 64: input_cuda 260 B -> 512, output_hidden_cuda 68 B -> 256. */
enum { INPUT = 0xC0000000, IH = INPUT + 512 + 256 };

static void test_addresses(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = backprop\n[workload.backprop]\nin = 64\n");
    struct kernel_desc k;
    struct ws_err e = {{0}};
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "bpnn_layerforward_CUDA");
    assert_int_equal(k.grid[0], 1);
    assert_int_equal(k.grid[1], 4);
    assert_int_equal(k.threads, 256);
    assert_int_equal(k.ncopies, 2);
    assert_int_equal(k.copies[0].addr, INPUT);
    assert_int_equal(k.copies[1].addr, IH);
    assert_int_equal(k.copies[1].bytes, 65 * 17 * 4);
    struct wl_warp *wp[8];
    struct inst in;
    assert_int_equal(w->vt->cta_start(w, 1, wp, &e), 0);
    int n = 0;
    do {
        assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
        if (in.cls != OP_MEM || in.space != SPACE_GLOBAL) continue;
        if (n++ == 0) { /* input_cuda[16 by + ty + 1], tx == 0 lanes */
            assert_int_equal(in.active, 0x10001);
            assert_int_equal(in.addr[0], INPUT + 4 * 17);
            assert_int_equal(in.addr[16], INPUT + 4 * 18);
        } else { /* input_hidden_cuda[17 * (16 by + ty + 1) + tx + 1] */
            assert_int_equal(in.active, 0xffffffff);
            for (int l = 0; l < 32; l++)
                assert_int_equal(in.addr[l], IH + 4 * (17 * (17 + l / 16) + l % 16 + 1));
        }
    } while (n < 2);
    w->vt->destroy(w);
}

static void test_counts_and_result(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = backprop\n[workload.backprop]\nin = 64\n");
    const char *names[] = {"bpnn_layerforward_CUDA", "bpnn_adjust_weights_cuda"};
    struct ks_count c[2];
    ks_run(w, names, 2, c);
    ks_verify(w);
    w->vt->destroy(w);
    /* Forward, 4 blocks of 8 warps: 2 loads (input, weight) and 2 stores (partial, block sum) per
     * warp; shared stores: 3 per warp + 8 + 4 + 2 + 1 in the tree; shared loads: 2 per warp for
     * the product, 2 per tree step, 1 for the partial, 1 for the block sum; 8 barriers. */
    assert_int_equal(c[0].ctas, 4);
    assert_int_equal(c[0].gld, 4 * 8 * 2);
    assert_int_equal(c[0].gld_lanes, 4 * 8 * (2 + 32));
    assert_int_equal(c[0].gst, 4 * 8 * 2);
    assert_int_equal(c[0].sst, 4 * (8 * 3 + 15));
    assert_int_equal(c[0].sld, 4 * (8 * 2 + 2 * 15 + 8 + 8));
    assert_int_equal(c[0].bar, 4 * 8 * 8);
    /* Adjust: 4 + 3 loads and 2 stores per warp; block 0's first warp adds 5 and 2 (bias row). */
    assert_int_equal(c[1].gld, 32 * 7 + 5);
    assert_int_equal(c[1].gst, 32 * 2 + 2);
    assert_int_equal(c[1].bar, 32);
    assert_int_equal(c[1].sld + c[1].sst, 0);

    /* The test size runs and checks too; an input count that is not a multiple of 16 is refused. */
    w = tu_workload("[workload]\nname = backprop\n");
    ks_run(w, names, 2, c);
    assert_int_equal(c[0].ctas + c[1].ctas, 2 * 64);
    ks_verify(w);
    w->vt->destroy(w);
    tu_expect_workload_error("[workload]\nname = backprop\n[workload.backprop]\nin = 100\n",
                             "test.ini:4: workload.backprop.in = 100 must be a multiple of 16");
}

/* On the GPU model (which runs verify at the end): the tree reduction reads other warps' shared
 * rows, so the values are right only if no warp passes a bar.sync before the others arrive,
 * whatever the instruction buffer depth. */
static void test_gpu(void **state) {
    (void)state;
    must_run("rtx2060s", "backprop", "workload.backprop.in=64;core.ibuf=16", NULL);
    must_run("rtx2060s", "backprop", "workload.backprop.in=64;core.ibuf=1", NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_addresses),
        cmocka_unit_test(test_counts_and_result),
        cmocka_unit_test(test_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
