/* Rodinia SRAD v2 model (src/workload/kernels/srad.c): launch sequence and copies, the halo loads'
 * addresses (north row above the image for the first block row, one word per row for west),
 * exact global/shared/barrier counts per kernel for a 3x3-block image counted by hand from the
 * kernels' branches, and J and C equal to the same iterations on the host with real barriers. */
#include "../gpu/gpu_harness.h"
#include "km_sync.h"

enum { J = 0xC0000000 }; /* J_cuda lands at GPGPU-Sim's heap start, the halo block below it */

static void test_addresses(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = srad2\n[workload.srad2]\nsize = 48\n");
    struct kernel_desc k;
    struct ws_err e = {{0}};
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "srad_cuda_1");
    assert_int_equal(k.grid[0], 3);
    assert_int_equal(k.grid[1], 3);
    assert_int_equal(k.threads, 256);
    assert_int_equal(k.smem, 6144);
    assert_int_equal(k.ncopies, 1);
    assert_int_equal(k.copies[0].addr, J);
    assert_int_equal(k.copies[0].bytes, 48 * 48 * 4);
    struct wl_warp *wp[8];
    struct inst in;
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    int n = 0;
    do {
        assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
        if (in.cls != OP_MEM || in.space != SPACE_GLOBAL) continue;
        assert_int_equal(in.active, 0xffffffff);
        for (int l = 0; l < 32; l++) {
            int tx = l % 16, ty = l / 16;
            uint64_t want = n == 0   ? J + 4 * (tx - 48)      /* J[index_n]: above the image */
                            : n == 1 ? J + 4 * (48 * 16 + tx) /* J[index_s] */
                            : n == 2 ? J + 4 * tx             /* by == 0: row 0 again */
                                     : J + 4 * (48 * ty - 1); /* J[index_w]: one word per row */
            assert_int_equal(in.addr[l], want);
        }
        n++;
    } while (n < 4);
    w->vt->destroy(w);
}

static void test_counts_and_result(void **state) {
    (void)state;
    struct workload *w =
        tu_workload("[workload]\nname = srad2\n[workload.srad2]\nsize = 48\niters = 2\n");
    const char *names[] = {"srad_cuda_1", "srad_cuda_2"};
    struct ks_count c[2];
    ks_run(w, names, 2, c);
    ks_verify(w);
    w->vt->destroy(w);
    /* 3x3 blocks of 8 warps, 2 launches each. srad_cuda_1 per warp: 5 global loads (n, s, w, e,
     * J) plus one more in the first/last block row and one more in the first/last block column;
     * 5 stores; shared: 6 stores plus those re-reads, 6 loads; 4 barriers. */
    assert_int_equal(c[0].launches, 2);
    assert_int_equal(c[0].ctas, 18);
    assert_int_equal(c[0].gld, 2 * 8 * (9 * 5 + 6 + 6));
    assert_int_equal(c[0].gst, 2 * 72 * 5);
    assert_int_equal(c[0].sst, 2 * 8 * (9 * 6 + 6 + 6));
    assert_int_equal(c[0].sld, 2 * 72 * 6);
    assert_int_equal(c[0].bar, 2 * 72 * 4);
    /* srad_cuda_2: 8 loads (J, C south, C east, C, N, S, W, E) plus one in the last block row and
     * one in the last block column; 1 store; shared: 5 stores plus those, 5 loads; 5 barriers. */
    assert_int_equal(c[1].gld, 2 * 8 * (9 * 8 + 3 + 3));
    assert_int_equal(c[1].gst, 2 * 72);
    assert_int_equal(c[1].sst, 2 * 8 * (9 * 5 + 3 + 3));
    assert_int_equal(c[1].sld, 2 * 72 * 5);
    assert_int_equal(c[1].bar, 2 * 72 * 5);
    assert_int_equal(c[0].gld_lanes, 32 * c[0].gld);

    /* The test size runs and checks too; a size that is not a multiple of 16 is refused. */
    w = tu_workload("[workload]\nname = srad2\n");
    ks_run(w, names, 2, c);
    assert_int_equal(c[0].ctas + c[1].ctas, 4 * 16);
    ks_verify(w);
    w->vt->destroy(w);
    tu_expect_workload_error("[workload]\nname = srad2\n[workload.srad2]\nsize = 40\n",
                             "test.ini:4: workload.srad2.size = 40 must be a multiple of 16");
}

/* On the GPU model (which runs verify at the end): both kernels read other warps' shared words, so
 * the values are right only if no warp passes a bar.sync before the others arrive, whatever the
 * instruction buffer depth. */
static void test_gpu(void **state) {
    (void)state;
    must_run("rtx2060s", "srad2", "workload.srad2.size=48;core.ibuf=16", NULL);
    must_run("rtx2060s", "srad2", "workload.srad2.size=48;core.ibuf=1", NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_addresses),
        cmocka_unit_test(test_counts_and_result),
        cmocka_unit_test(test_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
