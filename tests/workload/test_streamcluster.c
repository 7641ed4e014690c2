/* Rodinia streamcluster model (src/workload/kernels/streamcluster.c): the pgain launches and
 * their copies, the dimension-major distance loads (coalesced for the point, one address for x),
 * the 32-byte point records, exact counts from the kernel (one work_mem update and at most one
 * switch per live thread), and work_mem/switch_membership of the last call equal to the host's. */
#include "km_sync.h"

/* 100 points of 4 dimensions, 3 centres: work_mem 4 x 101 floats (1616 B -> 1792), then
 * center_table (400 -> 512), switch_membership (100 -> 256), p (3200 -> 3328), coord_d. */
enum { WORK = 0xC0000000, CT = WORK + 1792, SW = CT + 512, PR = SW + 256, CO = PR + 3328 };
enum { NUM = 100, DIM = 4 };

static void test_launches_and_counts(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = streamcluster\n[workload.streamcluster]\n"
                                     "points = 100\ndim = 4\ncenters = 3\n");
    struct kernel_desc k;
    struct ws_err e = {{0}};
    for (int call = 0; call < 2; call++) {
        assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
        assert_string_equal(k.name, "kernel_compute_cost");
        assert_int_equal(k.grid[0], 1);
        assert_int_equal(k.threads, 512);
        assert_int_equal(k.ncopies, call == 0 ? 3 : 2);
        if (call == 0) {
            assert_int_equal(k.copies[0].addr, CO);
            assert_int_equal(k.copies[1].addr, CT);
            assert_int_equal(k.copies[2].addr, PR);
        }
        struct wl_warp *wp[16];
        struct inst in;
        uint64_t coord = 0, xcoord = 0, rec_lanes = 0, assign = 0, work_st_lanes = 0, sw_st = 0,
                 insts_dead = 0;
        uint64_t work = call == 0 ? WORK : CO + 1792; /* the second call's rows come after */
        assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
        for (int wi = 0; wi < 16; wi++) {
            uint64_t n = 0;
            do {
                assert_int_equal(w->vt->warp_next(w, wp[wi], &in, &e), 0);
                n++;
                if (in.cls != OP_MEM) continue;
                int l0 = __builtin_ctz(in.active);
                uint64_t a = in.addr[l0];
                if (in.mop == MOP_LOAD && a >= CO && a < CO + 4 * NUM * DIM) {
                    bool same = true;
                    for (int l = 0; l < 32; l++)
                        if (in.active >> l & 1) same &= in.addr[l] == a;
                    if (same && __builtin_popcount(in.active) > 1)
                        xcoord++;
                    else {
                        coord++;
                        for (int l = 0; l < 32; l++)
                            if (in.active >> l & 1)
                                assert_int_equal((in.addr[l] - CO) / 4 % NUM, 32 * wi + l);
                    }
                } else if (in.mop == MOP_LOAD && a >= PR && a < PR + 32 * NUM) {
                    if (in.width == 8)
                        assign += (uint64_t)__builtin_popcount(in.active);
                    else
                        rec_lanes += (uint64_t)__builtin_popcount(in.active);
                    for (int l = 0; l < 32; l++)
                        if (in.active >> l & 1)
                            assert_int_equal((in.addr[l] - PR) / 32, 32 * wi + l);
                } else if (in.mop == MOP_STORE && in.width == 1) {
                    sw_st += (uint64_t)__builtin_popcount(in.active);
                } else if (in.mop == MOP_STORE) {
                    assert_true(a >= work);
                    work_st_lanes += (uint64_t)__builtin_popcount(in.active);
                }
            } while (in.cls != OP_EXIT);
            if (wi >= 4) insts_dead += n;
        }
        w->vt->cta_end(w, 0, wp);
        /* Warps 0-3 hold the 100 points: dim coalesced loads and dim loads of x's coordinates
         * each; weight and cost per point; exactly one work_mem update per point, through
         * center_table (an 8-byte assign load) unless x is closer (a switch store). */
        assert_int_equal(coord, 4 * DIM);
        assert_int_equal(xcoord, 4 * DIM);
        assert_int_equal(rec_lanes, 2 * NUM);
        assert_int_equal(work_st_lanes, NUM);
        assert_int_equal(sw_st + assign, NUM);
        assert_int_equal(insts_dead, 12 * 8); /* 7 instructions to the guard, then EXIT */
    }
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0);
    ks_verify(w);
    w->vt->destroy(w);
}

static void test_result(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = streamcluster\n[workload.streamcluster]\n"
                                     "calls = 3\n");
    const char *names[] = {"kernel_compute_cost"};
    struct ks_count c;
    ks_run(w, names, 1, &c);
    assert_int_equal(c.launches, 3);
    assert_int_equal(c.ctas, 3 * 4); /* 2048 points / 512 */
    ks_verify(w);
    w->vt->destroy(w);
    tu_expect_workload_error("[workload]\nname = streamcluster\n[workload.streamcluster]\n"
                             "points = 5\ncenters = 6\n",
                             "test.ini:5: workload.streamcluster.centers = 6 exceeds");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launches_and_counts),
        cmocka_unit_test(test_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
