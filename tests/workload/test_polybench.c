/* PolyBench/GPU kernel models (src/workload/kernels/pb_*.c): launch shapes, the per-lane
 * addresses of the row-walk (divergent) and column-walk (coalesced) loads, exact instruction and
 * memory-instruction counts derived from the instruction tables, and every output equal bit for
 * bit to a host computation in the kernels' operation order (verify). The seed 001 intra-warp
 * concentration of the divergent loads at the seeds' strides is checked on the address stream
 * here for MVT and GESUMMV at their paper sizes (the simulated metric: test_pb_conc.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "workload/workload.h"

/* Counts the whole run, checks the totals, then verify. */
static void counts(const char *ini, uint64_t kernels, uint64_t warps, uint64_t insts,
                   uint64_t mem) {
    struct workload *w = tu_workload(ini);
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, kernels);
    assert_int_equal(c.warps, warps);
    assert_int_equal(c.insts, insts);
    assert_int_equal(c.by_class[OP_MEM], mem);
    int rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    w->vt->destroy(w);
}

/* The mv tables: 12 instructions before the loop (13 with BICG's store of 0 and its forwarded
 * register), 9 per iteration (2 loads and a store), EXIT; a warp past the thread count runs
 * S2R, S2R, IMAD, ISETP, BRA, EXIT = 6. Sizes are multiples of 32: no partial warps. */
static void test_mv_counts(void **state) {
    (void)state;
    /* ATAX nx 64, ny 96: kernel1 one block, 2 warps walk 96 columns, 6 idle; kernel2 3 warps walk
     * 64 rows, 5 idle. */
    counts("[workload]\nname = atax\n[workload.atax]\nnx = 64\nny = 96\n", 2, 16,
           2 * (13 + 9 * 96) + 6 * 6 + 3 * (13 + 9 * 64) + 5 * 6,
           2 * (1 + 3 * 96) + 3 * (1 + 3 * 64));
    /* BICG nx 64, ny 96: kernel1 (s, ny threads) 3 warps x 64, kernel2 (q, nx threads) 2 x 96. */
    counts("[workload]\nname = bicg\n[workload.bicg]\nnx = 64\nny = 96\n", 2, 16,
           3 * (14 + 9 * 64) + 5 * 6 + 2 * (14 + 9 * 96) + 6 * 6,
           3 * (1 + 3 * 64) + 2 * (1 + 3 * 96));
    counts("[workload]\nname = mvt\n[workload.mvt]\nn = 64\n", 2, 16, 2 * (2 * (13 + 9 * 64) + 36),
           2 * 2 * (1 + 3 * 64));
    /* GESUMMV: 15 before the loop, 16 per iteration (6 loads, 2 stores), 5 after, EXIT. */
    counts("[workload]\nname = gesummv\n[workload.gesummv]\nn = 64\n", 1, 8,
           2 * (21 + 16 * 64) + 6 * 6, 2 * (3 + 8 * 64));
    /* test size 512, every warp full */
    counts("[workload]\nname = atax\n", 2, 32, 2 * 16 * (13 + 9 * 512), 2 * 16 * (1 + 3 * 512));
}

/* The matrix tables: 20 before the loop (21 with mm3's store of 0), 9 per k; syrk 24 and 10 per
 * k (2 loads, store), syr2k 26 and 17 per k (4 loads, store); then EXIT. */
static void test_mm_counts(void **state) {
    (void)state;
    /* n = 64: 2 x 8 blocks of 32 x 8, 128 warps, all full */
    counts("[workload]\nname = mm2\n[workload.mm2]\nn = 64\n", 2, 256, 2 * 128 * (21 + 9 * 64),
           2 * 128 * (1 + 3 * 64));
    counts("[workload]\nname = mm3\n[workload.mm3]\nn = 64\n", 3, 384, 3 * 128 * (22 + 9 * 64),
           3 * 128 * (1 + 3 * 64));
    counts("[workload]\nname = syrk\n[workload.syrk]\nn = 64\nm = 32\n", 1, 128,
           128 * (25 + 10 * 32), 128 * (2 + 3 * 32));
    counts("[workload]\nname = syr2k\n[workload.syr2k]\nn = 64\nm = 32\n", 1, 128,
           128 * (27 + 17 * 32), 128 * (2 + 5 * 32));
}

/* fdtd2d 64 x 64, 4 steps, 128 warps per launch: step1 19 instructions (2 memory) for the 2 warps
 * of row 0, 24 (4) for the others; step2 24 (4), lane j = 0 waiting at the reconvergence point;
 * step3 29 (6). */
static void test_fdtd_counts(void **state) {
    (void)state;
    counts("[workload]\nname = fdtd2d\n", 12, 12 * 128,
           4 * (2 * 19 + 126 * 24 + 128 * 24 + 128 * 29),
           4 * (2 * 2 + 126 * 4 + 128 * 4 + 128 * 6));
}

static void drain(struct workload *w, struct wl_warp *wp) {
    struct inst in;
    struct ws_err e = {{0}};
    do assert_int_equal(w->vt->warp_next(w, wp, &in, &e), 0);
    while (in.cls != OP_EXIT);
}

/* conv2d 64 x 64: 128 warps; 124 interior rows run 40 instructions (9 loads, a store), lanes
 * j = 0 and 63 waiting at the end; the row i = 0 warps leave at the third check (13), i = 63 at the
 * first (9). conv3d 32^3: 30 launches (i = 1..30) of 32 warps (one j each): 61 instructions (11
 * loads, a store) for j = 1..30, 17 for j = 0 (fifth check), 11 for j = 31 (second). */
static void test_conv_counts(void **state) {
    (void)state;
    counts("[workload]\nname = conv2d\n", 1, 128, 124 * 40 + 2 * 13 + 2 * 9, 124 * 10);
    counts("[workload]\nname = conv3d\n", 30, 30 * 32, 30 * (30 * 61 + 17 + 11), 30 * 30 * 12);
}

/* covar / corr, M = N = 64, 1-based: the column kernels have 2 full warps (j = 1..64) and 6 idle
 * (7 instructions). mean 17 + 7 N (2 N + 2 memory), std 21 + 9 N (3 N + 2), reduce 128 warps of
 * 20 (3) or, in corr, 26 (5). The j2 loop: 14 before it (covar; corr 18 with symmat[j1][j1] = 1),
 * 12 + 9 N per j2 (3 N + 2 memory), as many j2 as the warp's smallest j1 needs: covar 64 and 32,
 * corr 63 and 31 (j1 < M: lane j1 = 64 of warp 1 waits at the end). */
static void test_stat_counts(void **state) {
    (void)state;
    uint64_t mean = 2 * (17 + 7 * 64) + 6 * 7, jloop = 12 + 9 * 64;
    counts("[workload]\nname = covar\n", 3, 8 + 128 + 8,
           mean + 128 * 20 + (15 + 64 * jloop) + (15 + 32 * jloop) + 6 * 7,
           2 * (2 + 2 * 64) + 128 * 3 + 96 * (2 + 3 * 64));
    counts("[workload]\nname = corr\n", 4, 8 + 8 + 128 + 8,
           mean + 2 * (21 + 9 * 64) + 6 * 7 + 128 * 26 + (19 + 63 * jloop) + (19 + 31 * jloop) +
               6 * 8,
           2 * (2 + 2 * 64) + 2 * (2 + 3 * 64) + 128 * 5 + 2 + 94 * (2 + 3 * 64));
}

/* gramschm n = 64, per k: kernel1 396 for warp 0 (lane 0 alone: 12 + 6 M; M + 1 memory), 4 for
 * each other warp; kernel2 16 (3 memory) for 2 warps, 6 for 6 idle; kernel3 19 + 20 M (1 + 7 M
 * memory) for a warp with some j > k (warp 0 for k < 31, warp 1 for k < 63), else 6, and 8 for
 * the 6 warps past N. */
static void test_gramschm_counts(void **state) {
    (void)state;
    uint64_t k3 = 19 + 20 * 64;
    counts("[workload]\nname = gramschm\n", 192, 192 * 8,
           64 * (396 + 7 * 4) + 64 * (2 * 16 + 6 * 6) + 31 * k3 + 33 * 6 + 63 * k3 + 6 + 64 * 6 * 8,
           64 * 65 + 64 * 6 + 94 * (1 + 7 * 64));
}

/* Launch shapes and a warp's addresses. */
enum { BASE = 0xC0000000 };
static void test_atax_addresses(void **state) {
    (void)state;
    struct workload *w =
        tu_workload("[workload]\nname = atax\n[workload.atax]\nnx = 64\nny = 96\n");
    struct ws_err e = {{0}};
    struct kernel_desc k;
    uint64_t A = BASE, X = A + 4 * 64 * 96, TMP = X + 512 + 512; /* x, y: 384 B, 512 reserved */
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "atax_kernel1");
    assert_int_equal(k.grid[0], 1);
    assert_int_equal(k.block[0], 256);
    assert_int_equal(k.block[1], 1);
    assert_int_equal(k.ncopies, 4);
    assert_int_equal(k.copies[3].addr, TMP);
    struct wl_warp *wp[8];
    struct inst in;
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    int mem = 0;
    do { /* warp 1: i = 32..63 */
        assert_int_equal(w->vt->warp_next(w, wp[1], &in, &e), 0);
        if (in.cls != OP_MEM) continue;
        assert_int_equal(in.active, 0xffffffffu);
        int it = (mem - 1) / 3, which = (mem - 1) % 3;
        if (mem == 0 || which == 2) /* tmp[i] */
            assert_int_equal(in.addr[5], TMP + 4 * 37);
        else if (which == 0) /* A[i][j]: one row per lane */
            assert_int_equal(in.addr[5], A + 4 * (37 * 96 + it)),
                assert_int_equal(in.addr[6] - in.addr[5], 4 * 96);
        else /* x[j]: one word */
            assert_int_equal(in.addr[31], X + 4 * it), assert_int_equal(in.addr[0], in.addr[31]);
        mem++;
    } while (in.cls != OP_EXIT);
    assert_int_equal(mem, 1 + 3 * 96);
    for (int i = 0; i < 8; i++)
        if (i != 1) drain(w, wp[i]);
    w->vt->cta_end(w, 0, wp);
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "atax_kernel2");
    assert_int_equal(k.ncopies, 0);
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    mem = 0;
    do { /* warp 2: j = 64..95, A[i][j] one line */
        assert_int_equal(w->vt->warp_next(w, wp[2], &in, &e), 0);
        if (in.cls == OP_MEM && mem % 3 == 1) {
            int it = mem / 3;
            assert_int_equal(in.addr[0], A + 4 * (it * 96 + 64));
            assert_int_equal(in.addr[31], A + 4 * (it * 96 + 95));
        }
        mem += in.cls == OP_MEM;
    } while (in.cls != OP_EXIT);
    assert_int_equal(mem, 1 + 3 * 64);
    w->vt->destroy(w);
}

/* Seed 001 Eq. 3.1 with the conventional index of its 32-set, 128-byte-line L1D, on the first
 * `nloads` global loads of warp 0 of the first kernel: mean of lines / distinct sets for the
 * loads that touch more than 2 lines (the divergent ones), and their number. */
static double divergent_conc(const char *ini, int nloads, int *ndiv) {
    struct workload *w = tu_workload(ini);
    struct ws_err e = {{0}};
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    struct wl_warp *wp[32];
    struct inst in;
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    double sum = 0;
    *ndiv = 0;
    for (int loads = 0; loads < nloads;) {
        assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
        assert_true(in.cls != OP_EXIT);
        if (in.cls != OP_MEM || in.mop != MOP_LOAD) continue;
        uint64_t lines[32];
        uint32_t nl = 0, sets = 0;
        for (int l = 0; l < 32; l++) {
            if (!(in.active >> l & 1)) continue;
            uint64_t line = in.addr[l] >> 7;
            uint32_t j = 0;
            while (j < nl && lines[j] != line) j++;
            if (j == nl) lines[nl++] = line;
        }
        for (uint32_t i = 0; i < nl; i++) {
            uint32_t j = 0;
            while (j < i && (lines[j] & 31) != (lines[i] & 31)) j++;
            sets += j == i;
        }
        if (nl > 2) sum += (double)nl / sets, ++*ndiv;
        loads++;
    }
    w->vt->destroy(w); /* mid-kernel: the CTA's state goes with the workload */
    return *ndiv ? sum / *ndiv : 0;
}

static void test_divergent_concentration(void **state) {
    (void)state;
    int nd;
    /* MVT 8K (row stride 2^15 B): every A load in one set */
    assert_true(divergent_conc("[workload]\nname = mvt\nsize = paper\n", 64, &nd) == 32.0);
    assert_int_equal(nd, 32); /* loads: x1 once, then A and y_1 per iteration */
    /* GESUMMV 4K (2^14 B): A and B both 32 */
    assert_true(divergent_conc("[workload]\nname = gesummv\nsize = paper\n", 60, &nd) == 32.0);
    assert_int_equal(nd, 20);
    /* SYRK M = 512 (2^11 B): 2 sets; SYR2K M = 256 (2^10 B): 4 sets */
    assert_true(divergent_conc("[workload]\nname = syrk\n[workload.syrk]\nn = 64\nm = 512\n", 41,
                               &nd) == 16.0);
    assert_int_equal(nd, 20);
    assert_true(divergent_conc("[workload]\nname = syr2k\n[workload.syr2k]\nn = 64\nm = 256\n", 41,
                               &nd) == 8.0);
    assert_int_equal(nd, 20);
}

static void test_bad_size(void **state) {
    (void)state;
    tu_expect_workload_error("[workload]\nname = atax\n[workload.atax]\nnx = 65536\nny = 65536\n",
                             "test.ini:4: workload.atax: 65536 x 65536 floats is more than 1 GiB");
    tu_expect_workload_error("[workload]\nname = syrk\n[workload.syrk]\nm = 0\n",
                             "test.ini:4: workload.syrk.m");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mv_counts),      cmocka_unit_test(test_mm_counts),
        cmocka_unit_test(test_fdtd_counts),    cmocka_unit_test(test_conv_counts),
        cmocka_unit_test(test_stat_counts),    cmocka_unit_test(test_gramschm_counts),
        cmocka_unit_test(test_atax_addresses), cmocka_unit_test(test_divergent_concentration),
        cmocka_unit_test(test_bad_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
