/* Parboil MRI gridding model (src/workload/kernels/mrigrid.c): the three launches and their
 * shapes, exact per-warp instruction and memory counts of binning_kernel and reorder_kernel from
 * their structure, the 24-byte-record access pattern, and gridData/sampleDensity equal to the
 * host gridding when the CTAs run with real barriers (every warp of a block reaches a bar.sync
 * before any goes past it), both in a synchronised driver and on the GPU model. */
#include "../gpu/gpu_harness.h"
#include "workload/workload.h"

struct kcount {
    uint64_t insts, mem, bar, warps;
};

/* Runs a whole workload, each CTA barrier phase by barrier phase; counts per kernel. */
static void run_synced(struct workload *w, struct kcount *kc, int nk, struct inst *first_loads) {
    struct ws_err e = {{0}};
    struct kernel_desc k;
    int kid = 0, rc;
    while ((rc = w->vt->next_kernel(w, &k, &e)) == 1) {
        assert_true(kid < nk);
        uint32_t nw = (k.threads + 31) / 32;
        for (uint64_t cta = 0; cta < k.ncta; cta++) {
            struct wl_warp *wp[32];
            bool done[32] = {0};
            uint32_t left = nw;
            assert_int_equal(w->vt->cta_start(w, cta, wp, &e), 0);
            while (left) {
                for (uint32_t i = 0; i < nw; i++) {
                    if (done[i]) continue;
                    struct inst in;
                    int nload = 0;
                    do {
                        int r = w->vt->warp_next(w, wp[i], &in, &e);
                        if (r) fprintf(stderr, "%s\n", e.msg);
                        assert_int_equal(r, 0);
                        kc[kid].insts++;
                        kc[kid].mem += in.cls == OP_MEM;
                        kc[kid].bar += in.cls == OP_BAR;
                        if (first_loads && cta == 0 && i == 0 && in.cls == OP_MEM && nload++ == 0)
                            first_loads[kid] = in;
                    } while (in.cls != OP_EXIT && in.cls != OP_BAR);
                    if (in.cls == OP_EXIT) done[i] = true, left--;
                }
            }
            w->vt->cta_end(w, cta, wp);
            kc[kid].warps += nw;
        }
        kid++;
    }
    assert_int_equal(rc, 0);
    assert_int_equal(kid, nk);
}

static void test_pipeline(void **state) {
    (void)state;
    /* grid 8, 1000 samples: two 512-thread blocks (1000 live lanes: 31 full warps + 8 lanes). */
    struct workload *w =
        tu_workload("[workload]\nname = mrigrid\n[workload.mrigrid]\ngrid = 8\nsamples = 1000\n");
    struct kcount kc[3] = {{0}};
    struct inst ld[3];
    run_synced(w, kc, 3, ld);
    /* binning: 28 per warp with a sample (7 memory: 3 record loads, the count, the atomic, two
     * stores; 1000 samples over 512 bins of 32 never overflow), 6 for the empty warps. */
    assert_int_equal(kc[0].warps, 32);
    assert_int_equal(kc[0].insts, 32 * 28);
    assert_int_equal(kc[0].mem, 32 * 7);
    /* reorder: 26 per warp (10 memory), same shape. */
    assert_int_equal(kc[1].insts, 32 * 26);
    assert_int_equal(kc[1].mem, 32 * 10);
    /* gridding: 8 x 4 x 2 blocks, (8/8) x (64/32) = 2 blocks of 2 warps, barriers in pairs. */
    assert_int_equal(kc[2].warps, 4);
    assert_int_equal(kc[2].bar % 2, 0);
    assert_true(kc[2].bar > 0);
    /* binning's first load: kX of samples 0..31, 24 bytes apart (sample_d follows the sorted
     * array (24 * 1024 B) and binStartAddr (4 * 513 B, 2304 reserved)). */
    const uint64_t sample = 0xC0000000ull + 24 * 1024 + 2304;
    for (int l = 0; l < 32; l++) assert_int_equal(ld[0].addr[l], sample + 24 * l + 8);
    /* reorder's first load is idxValue[0..31], coalesced. */
    assert_int_equal(ld[1].addr[31] - ld[1].addr[0], 124);
    struct ws_err e = {{0}};
    int rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    w->vt->destroy(w);
}

static void test_test_size(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = mrigrid\n");
    struct kcount kc[3] = {{0}};
    run_synced(w, kc, 3, NULL);
    assert_int_equal(kc[0].insts, 64 * 28); /* 2048 samples: 64 warps */
    assert_int_equal(kc[2].warps, 2 * 8 * 2);
    struct ws_err e = {{0}};
    int rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    w->vt->destroy(w);
}

/* On the GPU, with instruction buffers deep enough to run far ahead: the SM must not generate
 * past a bar.sync before the barrier releases, or the shared-memory tiles are read before the
 * other warp has written them and verify (run by gpu_run) fails. */
static void test_gpu_barriers(void **state) {
    (void)state;
    must_run("rtx2060s", "mrigrid", "core.ibuf=16", NULL);
    must_run("rtx2060s", "mrigrid", "core.ibuf=1", NULL);
}

static void test_bad_grid(void **state) {
    (void)state;
    tu_expect_workload_error("[workload]\nname = mrigrid\n[workload.mrigrid]\ngrid = 12\n",
                             "test.ini:4: workload.mrigrid.grid = 12 must be a multiple of 8");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline),
        cmocka_unit_test(test_test_size),
        cmocka_unit_test(test_gpu_barriers),
        cmocka_unit_test(test_bad_grid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
