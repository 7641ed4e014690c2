/* Rodinia K-means model (src/workload/kernels/kmeans.c): allocateMemory's arrays and its one
 * invert_mapping launch (point-major loads, feature-major stores, exact counts), launch shape
 * (square 2-D grid of 256-thread blocks), copies per iteration, uncoalesced point-major feature
 * loads (lane stride nfeatures * 4 bytes, one line per lane), broadcast centre loads, the feature
 * loop unrolled by 4 (four feature loads, then four centre loads) with a remainder loop, exact
 * per-warp and total instruction counts for feature counts with and without a remainder, partial
 * warps, memberships equal to a host computation, paper preset. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "workload/workload.h"

#define SMALL "[workload]\nname = kmeans\n[workload.kmeans]\npoints = 100\nfeatures = 34\n"

/* feature_flipped_d and feature_d 100 x 34 floats (13600 B each), membership 400 B, centres
 * 5 x 34 floats. */
enum { FEAT = 0xC0000000, INV = FEAT + 13824, MEMB = INV + 13824, CLUS = MEMB + 512 };

/* invert_mapping, a warp with any point: 14 before the loops, 16 per group of 4 features (4
 * load/store/IADD triples, 2 IADD, ISETP, BRA), 3 to set up the remainder, 7 per remaining
 * feature, EXIT; 2 memory instructions per feature. A warp with no point: 5 + EXIT. */
#define INV_FULL(nf) (14 + 16 * ((nf) / 4) + 3 + 7 * ((nf) % 4) + 1)
enum { INV_EMPTY = 6 };

/* Instructions of a warp with any point: 13 before the loops; per centre 6 to set up the
 * unrolled loop, 21 per group of 4 features (4 + 4 loads, 4 FSUB/FFMA pairs, 3 IADD, ISETP,
 * BRA), 3 to set up the remainder loop, 9 per remaining feature (load, load, FSUB, FFMA, 3 IADD,
 * ISETP, BRA) and 7 to compare; then the membership store and EXIT. A warp with no point:
 * 7 + EXIT. */
#define PER_CENTRE(nf)  (6 + 21 * ((nf) / 4) + 3 + 9 * ((nf) % 4) + 7)
#define FULL_NF(nf, nc) (13 + (nc)*PER_CENTRE(nf) + 3)
enum { FULL = FULL_NF(34, 5), EMPTY = 8 };

static void test_warp_streams(void **state) {
    (void)state;
    struct workload *w = tu_workload(SMALL);
    struct kernel_desc k;
    struct ws_err e = {{0}};
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    /* allocateMemory: the points copied to feature_flipped_d, then invert_mapping */
    assert_string_equal(k.name, "invert_mapping");
    assert_int_equal(k.id, 0);
    assert_int_equal(k.grid[0], 1);
    assert_int_equal(k.grid[1], 1);
    assert_int_equal(k.block[0], 256);
    assert_int_equal(k.regs, 30);
    assert_int_equal(k.ncopies, 1);
    assert_int_equal(k.copies[0].addr, FEAT);
    assert_int_equal(k.copies[0].bytes, 13600);
    struct wl_warp *wp[8];
    static struct inst in;
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    int n = 0, mem = 0;
    do { /* warp 1, points 32..63: load feature j point-major, store it feature-major */
        assert_int_equal(w->vt->warp_next(w, wp[1], &in, &e), 0);
        n++;
        if (in.cls != OP_MEM) continue;
        int j = mem / 2;
        for (int l = 0; l < 32; l++)
            assert_int_equal(in.addr[l], mem % 2 == 0 ? FEAT + (uint64_t)(32 + l) * 136 + 4 * j
                                                      : INV + 4 * ((uint64_t)(32 + l) + 100 * j));
        assert_int_equal(in.mop, mem % 2 == 0 ? MOP_LOAD : MOP_STORE);
        mem++;
    } while (in.cls != OP_EXIT);
    assert_int_equal(n, INV_FULL(34));
    assert_int_equal(mem, 2 * 34);
    for (int i = 0; i < 8; i++) {
        if (i == 1) continue;
        n = 0;
        do assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0), n++;
        while (in.cls != OP_EXIT);
        assert_int_equal(n, i < 4 ? INV_FULL(34) : INV_EMPTY);
    }
    w->vt->cta_end(w, 0, wp);

    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "kmeansPoint");
    assert_int_equal(k.id, 1);
    assert_int_equal(k.grid[0], 1);
    assert_int_equal(k.grid[1], 1);
    assert_int_equal(k.block[0], 256);
    assert_int_equal(k.regs, 18);
    assert_int_equal(k.ncopies, 2);
    assert_int_equal(k.copies[0].addr, MEMB);
    assert_int_equal(k.copies[1].addr, CLUS);
    assert_int_equal(k.copies[1].bytes, 5 * 34 * 4);

    /* The loads in order, per centre i: for each group of 4 features, features j..j+3 then
     * centre words j..j+3; then features 32 and 33 one at a time, each followed by its centre
     * word. */
    struct {
        bool feat;
        int i, j;
    } want[2 * 5 * 34];
    int nw = 0;
    for (int i = 0; i < 5; i++) {
        for (int g = 0; g < 8; g++) {
            for (int k = 0; k < 4; k++)
                want[nw].feat = true, want[nw].i = i, want[nw++].j = 4 * g + k;
            for (int k = 0; k < 4; k++)
                want[nw].feat = false, want[nw].i = i, want[nw++].j = 4 * g + k;
        }
        for (int j = 32; j < 34; j++) {
            want[nw].feat = true, want[nw].i = i, want[nw++].j = j;
            want[nw].feat = false, want[nw].i = i, want[nw++].j = j;
        }
    }
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    n = 0;
    int loads = 0;
    do {
        assert_int_equal(w->vt->warp_next(w, wp[1], &in, &e), 0); /* points 32..63 */
        if (in.cls == OP_MEM && in.mop == MOP_LOAD) {
            assert_true(loads < nw);
            int i = want[loads].i, j = want[loads].j;
            if (want[loads].feat) { /* feature j of the lane's point: features[p * 34 + j] */
                assert_int_equal(in.space, SPACE_GLOBAL);
                for (int l = 0; l < 32; l++) {
                    assert_int_equal(in.addr[l], FEAT + (uint64_t)(32 + l) * 136 + 4 * j);
                    if (l) assert_true(in.addr[l] / 128 != in.addr[l - 1] / 128);
                }
            } else { /* clusters[i * 34 + j], the same word for every lane */
                assert_int_equal(in.space, SPACE_CONST);
                for (int l = 0; l < 32; l++) assert_int_equal(in.addr[l], CLUS + 4 * (i * 34 + j));
            }
            loads++;
        }
        assert_int_equal(in.active, 0xffffffffu);
        n++;
    } while (in.cls != OP_EXIT);
    assert_int_equal(n, FULL);
    assert_int_equal(loads, 2 * 5 * 34);
    /* Warp 3 holds points 96..99: 4 lanes past the guard; warps 4..7 hold none. */
    n = 0;
    int partial = 0;
    do {
        assert_int_equal(w->vt->warp_next(w, wp[3], &in, &e), 0);
        n++;
        if (in.active == 0xfu) partial++;
        if (in.cls == OP_MEM && in.mop == MOP_STORE) assert_int_equal(in.addr[3], MEMB + 4 * 99);
    } while (in.cls != OP_EXIT);
    assert_int_equal(n, FULL);
    assert_int_equal(partial, FULL - 7 - 1); /* all but the guard and EXIT */
    for (int i = 0; i < 8; i++) {
        if (i == 1 || i == 3) continue;
        n = 0;
        do assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0), n++;
        while (in.cls != OP_EXIT);
        assert_int_equal(n, i < 4 ? FULL : EMPTY);
    }
    w->vt->cta_end(w, 0, wp);

    /* Second launch: membership and centres only. */
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.id, 2);
    assert_int_equal(k.ncopies, 2);
    assert_int_equal(k.copies[0].addr, MEMB);
    w->vt->destroy(w);
}

static void test_totals_and_result(void **state) {
    (void)state;
    struct workload *w = tu_workload(SMALL);
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 3); /* invert_mapping + workload.kmeans.iters = 2 at test size */
    assert_int_equal(c.insts, 4 * INV_FULL(34) + 4 * INV_EMPTY + 2 * (4 * FULL + 4 * EMPTY));
    assert_int_equal(c.by_class[OP_MEM], 4 * 2 * 34 + 2 * 4 * (2 * 5 * 34 + 1));
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);

    /* Until convergence: stops when no membership changes (here within a few launches). */
    w = tu_workload(SMALL "iters = 0\n");
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_true(c.kernels >= 3 && c.kernels < 20);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);

    /* The test size: 8192 points in 6 x 6 blocks of 256 (256 full warps, 32 empty), 2 launches,
     * after invert_mapping over 36 blocks in one dimension. */
    w = tu_workload("[workload]\nname = kmeans\n");
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.ctas, 3 * 36);
    assert_int_equal(c.insts, 256 * (uint64_t)INV_FULL(34) + 32 * INV_EMPTY +
                                  2 * (256 * (uint64_t)FULL + 32 * EMPTY));
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

/* Feature counts the unrolled loop does not divide: none left over (8), only the remainder loop
 * (3, 1), both (5). The counts follow PER_CENTRE and the memberships still equal the host's
 * (the same additions in the same order). */
static void test_unroll_remainders(void **state) {
    (void)state;
    static const int nfs[] = {8, 3, 1, 5};
    for (unsigned t = 0; t < 4; t++) {
        char ini[256];
        snprintf(ini, sizeof ini,
                 "[workload]\nname = kmeans\n[workload.kmeans]\npoints = 100\nfeatures = %d\n"
                 "iters = 3\n",
                 nfs[t]);
        struct workload *w = tu_workload(ini);
        struct wl_count c;
        struct ws_err e = {{0}};
        assert_int_equal(workload_count(w, &c, &e), 0);
        assert_true(c.kernels >= 3 && c.kernels <= 4);
        uint64_t kp = c.kernels - 1; /* kmeansPoint launches */
        assert_int_equal(c.insts, 4 * (uint64_t)INV_FULL(nfs[t]) + 4 * INV_EMPTY +
                                      kp * (4 * (uint64_t)FULL_NF(nfs[t], 5) + 4 * EMPTY));
        assert_int_equal(c.by_class[OP_MEM], 4 * 2 * nfs[t] + kp * 4 * (2 * 5 * nfs[t] + 1));
        if (w->vt->verify(w, &e) != 0) fail_msg("%s", e.msg);
        w->vt->destroy(w);
    }
}

/* Paper size: 28,000 points, 136 features (4x kdd_cup's 34): 110 blocks -> an 11 x 11 grid, and
 * lanes 544 bytes apart. */
static void test_paper_preset(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = kmeans\nsize = paper\n");
    struct kernel_desc k;
    struct ws_err e = {{0}};
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1); /* invert_mapping */
    assert_int_equal(k.grid[0], 121);
    assert_int_equal(k.grid[1], 1);
    assert_int_equal(k.copies[0].bytes, 28000ull * 136 * 4);
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.grid[0], 11);
    assert_int_equal(k.grid[1], 11);
    assert_int_equal(k.ncta, 121);
    struct wl_warp *wp[8];
    assert_int_equal(w->vt->cta_start(w, 12, wp, &e), 0); /* blockIdx (1, 1): block_id 12 */
    static struct inst in;
    do assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
    while (!(in.cls == OP_MEM && in.mop == MOP_LOAD));
    for (int l = 0; l < 32; l++)
        assert_int_equal(in.addr[l], 0xC0000000ull + (12 * 256 + (uint64_t)l) * 544);
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warp_streams),
        cmocka_unit_test(test_totals_and_result),
        cmocka_unit_test(test_unroll_remainders),
        cmocka_unit_test(test_paper_preset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
