/* Parboil SAD model (src/workload/kernels/sad.c): the three launches, exact per-kernel counts from
 * the kernels' loops, the store addresses of mb_sad_calc (halfwords 36 bytes apart), the whole
 * SAD array against the host, the motion the frames were made with found as the best 16x16 SAD,
 * and on the GPU model the write share of DRAM traffic. */
#include <jansson.h>

#include "../gpu/gpu_harness.h"
#include "km_sync.h"
#include "workload/kernels/kmodel.h"

enum { HEAP = 0xC0000000, MAXP = 1096 };

static void test_launches_and_stores(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = sad\n"); /* test size: 32x32, 2x2 MBs */
    struct kernel_desc k;
    struct ws_err e = {{0}};
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "mb_sad_calc");
    assert_int_equal(k.grid[0], 8);
    assert_int_equal(k.grid[1], 8);
    assert_int_equal(k.threads, 61);
    assert_int_equal(k.ncopies, 2);
    assert_int_equal(k.copies[0].addr, HEAP); /* d_cur_image */
    assert_int_equal(k.copies[1].addr, HEAP + 2048);
    /* CTA 9 = sub-block (1, 1) of macroblock 0; warp 0's first store: positions 18 l. */
    struct wl_warp *wp[2];
    struct inst in;
    assert_int_equal(w->vt->cta_start(w, 9, wp, &e), 0);
    uint64_t sads = HEAP + 4096, vec = sads + 2ull * MAXP * (25 * 4 + 5);
    int loads = 0;
    do {
        assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
        if (in.cls == OP_MEM && in.mop == MOP_LOAD) {
            if (loads == 0) /* reference (x, y) = (4 - 16 + 0, 4 - 16 + 0), clamped to (0, 0) */
                assert_int_equal(in.addr[0], HEAP + 2048);
            if (loads == 0) /* lane 5: position 90 = (24, 2) -> (12, -10): clamped row 0 */
                assert_int_equal(in.addr[5], HEAP + 2048 + 2 * 12);
            if (loads == 4) /* the current frame's sub-block, one address for all lanes */
                for (int l = 0; l < 32; l++) assert_int_equal(in.addr[l], 2 * (4 * 32 + 4) + HEAP);
            loads++;
        }
    } while (!(in.cls == OP_MEM && in.mop == MOP_STORE));
    assert_int_equal(loads, 32);
    assert_int_equal(in.active, 0xffffffff);
    for (int l = 0; l < 32; l++) assert_int_equal(in.addr[l], vec + 36 * l);
    w->vt->destroy(w);
}

static void test_counts_and_result(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = sad\n");
    const char *names[] = {"mb_sad_calc", "larger_sad_calc_8", "larger_sad_calc_16"};
    struct ks_count c[3];
    ks_run(w, names, 3, c);
    ks_verify(w);
    w->vt->destroy(w);
    /* mb_sad_calc: 64 CTAs of 2 warps; both warps loop 18 times (thread 60 only 9: its lane goes
     * idle), 32 loads and 1 store per position. */
    assert_int_equal(c[0].ctas, 64);
    assert_int_equal(c[0].warps, 128);
    assert_int_equal(c[0].gld, 128 * 18 * 32);
    assert_int_equal(c[0].gst, 128 * 18);
    assert_int_equal(c[0].gld_lanes, 64 * (32 * 18 + 28 * 18 + 9) * 32);
    /* larger_sad_calc_8: 4 MBs x 4 warps, 18 trips over 545 packed pairs (lane 0 alone in the
     * last), 4 loads and 5 stores each; _16: 4 MBs x 1 warp, the same loop. */
    assert_int_equal(c[1].warps, 16);
    assert_int_equal(c[1].gld, 16 * 18 * 4);
    assert_int_equal(c[1].gst, 16 * 18 * 5);
    assert_int_equal(c[1].gld_lanes, 16 * 545 * 4);
    assert_int_equal(c[2].warps, 4);
    assert_int_equal(c[2].gld, 4 * 18 * 4);
    assert_int_equal(c[2].gst, 4 * 18 * 5);

    /* 48x48: the centre macroblock's best 16x16 SAD is at the motion the current frame was made
     * with (the reference moved by (3, -2): position (16 - 2) * 33 + 16 + 3). */
    w = tu_workload("[workload]\nname = sad\n[workload.sad]\nwidth = 48\nheight = 48\n");
    ks_run(w, names, 3, c);
    ks_verify(w);
    struct km_workload *kw = (struct km_workload *)w;
    const uint16_t *v = devmem_host(kw->dm, HEAP + 2 * 4608 + 2 * MAXP * 4, 2 * 1089);
    assert_non_null(v);
    int best = 0;
    for (int p = 1; p < 1089; p++)
        if (v[p] < v[best]) best = p;
    assert_int_equal(best, 14 * 33 + 19);
    w->vt->destroy(w);

    tu_expect_workload_error("[workload]\nname = sad\n[workload.sad]\nheight = 40\n",
                             "test.ini:4: workload.sad.height = 40 must be a multiple of 16");
}

static uint64_t dram(const struct result *r, const char *key) {
    json_error_t err;
    json_t *j = json_loads(r->json, 0, &err);
    assert_non_null(j);
    json_t *v = json_object_get(json_object_get(j, "dram"), key);
    assert_non_null(v);
    uint64_t x = (uint64_t)json_integer_value(v);
    json_decref(j);
    return x;
}

/* Seed 002's Type-1 mark for SAD: a high write-to-read ratio. The SAD array (41 vectors of 2192
 * bytes per macroblock, 1.4 MB for 64x64) outgrows the GTX 480's 768 KB L2, and what reaches DRAM
 * is mostly its write-backs: the frames are read once, the larger kernels' reads mostly hit.
 * (Measured: 6400 reads, 14558 writes; on the 4 MB L2 of the RTX 2060 S nothing leaves L2 at
 * this size.) */
static void test_gpu_write_share(void **state) {
    (void)state;
    struct result r = {0};
    must_run("gtx480", "sad", "workload.sad.width=64;workload.sad.height=64", &r);
    uint64_t rd = dram(&r, "reads"), wr = dram(&r, "writes");
    fprintf(stderr, "sad 64x64: DRAM reads %llu writes %llu\n", (unsigned long long)rd,
            (unsigned long long)wr);
    assert_true(wr > 0);
    assert_true(2 * wr > 3 * rd); /* more than 60 % writes */
    free(r.json);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launches_and_stores),
        cmocka_unit_test(test_counts_and_result),
        cmocka_unit_test(test_gpu_write_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
