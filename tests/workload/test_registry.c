/* The workload registry (src/workload/registry.c): the table, the common and per-workload keys
 * with their errors (origin file:line), determinism, and the GPU's contract driven the hard way:
 * all CTAs of a kernel started at once, warps advanced one instruction at a time in an odd
 * order, CTAs ended out of order; the results are those of the in-order driver. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "workload/workload.h"

static void test_table(void **state) {
    (void)state;
    assert_true(workload_ntable >= 4); /* the kernel models grow; these four stay */
    const struct workload_info *b = workload_find("bfs"), *k = workload_find("KMEANS"),
                               *v = workload_find("vecadd");
    assert_non_null(b);
    assert_non_null(k);
    assert_non_null(v);
    assert_string_equal(b->suite, "rodinia");
    assert_string_equal(b->cls, "MOA");
    assert_string_equal(k->cls, "HOA");
    assert_string_equal(v->cls, "-"); /* no seed classes it */
    assert_string_equal(v->suite, "micro");
    assert_null(workload_find("nope"));
}

static void test_errors(void **state) {
    (void)state;
    tu_expect_workload_error("[workload]\nname = nope\n",
                             "test.ini:2: workload.name = 'nope' is not a known workload (known: ");
    tu_expect_workload_error("[workload]\nsize = huge\n", "test.ini:2:");
    tu_expect_workload_error("[workload]\nname = vecadd\n[workload.vecadd]\nn = 0\n",
                             "test.ini:4:");
    tu_expect_workload_error("[workload]\nname = bfs\n[workload.bfs]\ndegree = 5\n",
                             "test.ini:4: workload.bfs.degree = 5 must be even");
    tu_expect_workload_error("[workload]\nname = bfs\n[workload.bfs]\ngraph = /no/such/graph.txt\n",
                             "test.ini:4: workload.bfs.graph = '/no/such/graph.txt': cannot "
                             "open: No such file or directory");
    /* the path a file names is reported at the key that named it */
    tu_expect_workload_error("[workload]\nname = sssp\n[workload.graph]\npath = /no/such.mtx\n",
                             "test.ini:4: workload.graph.path = '/no/such.mtx': cannot open");
    tu_expect_workload_error("[workload]\nname = bfs\n[workload.graph]\npath = /tmp\n",
                             "test.ini:4: workload.graph.path = '/tmp': is a folder");
    tu_expect_workload_error("[workload]\nname = spmv\n[workload.spmv]\nmatrix = /no/m.mtx\n",
                             "test.ini:4: workload.spmv.matrix = '/no/m.mtx': cannot open");
    tu_expect_workload_error("[workload]\nname = kmeans\n[workload.kmeans]\nfeatures = 0\n",
                             "test.ini:4:");
    /* A malformed graph file: its own file:line. */
    const char *bad = tu_tmpfile("bad.txt", "2\n0 1\n1 1\n0\n2\n1 1\n0 x\n");
    char ini[1024], want[600];
    snprintf(ini, sizeof ini, "[workload]\nname = bfs\n[workload.bfs]\ngraph = %s\n", bad);
    snprintf(want, sizeof want, "%s:7: expected the weight of edge 1 (an integer), found 'x'", bad);
    tu_expect_workload_error(ini, want);
}

/* Every CTA started first, warps stepped from the last one backwards, a CTA ended as soon as its
 * warps exited. Returns the total instruction count and a hash of the stream of each warp. */
static uint64_t drive_scrambled(struct workload *w, uint64_t *hash) {
    struct kernel_desc k;
    struct ws_err e = {{0}};
    uint64_t insts = 0;
    *hash = 0;
    static struct inst in;
    while (w->vt->next_kernel(w, &k, &e) == 1) {
        uint32_t nw = (k.threads + 31) / 32;
        struct wl_warp **wp = calloc(k.ncta * nw, sizeof *wp);
        bool *done = calloc(k.ncta * nw, sizeof *done);
        uint32_t *left = calloc(k.ncta, sizeof *left);
        for (uint64_t c = 0; c < k.ncta; c++) {
            uint64_t cta = k.ncta - 1 - c; /* last CTA first */
            assert_int_equal(w->vt->cta_start(w, cta, &wp[cta * nw], &e), 0);
            left[cta] = nw;
        }
        uint64_t live = k.ncta * nw;
        while (live) {
            for (uint64_t i = k.ncta * nw; i-- > 0;) {
                if (done[i]) continue;
                for (int step = 0; step < 1 + (int)(i % 3); step++) {
                    assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0);
                    insts++;
                    /* Per-warp stream hash, independent of the interleaving. */
                    uint64_t lane = (uint64_t)__builtin_ctz(in.active | 1u << 31);
                    uint64_t hw = in.pc * 31 + in.active + (in.cls == OP_MEM ? in.addr[lane] : 0);
                    *hash += hw * (i + 1);
                    if (in.cls == OP_EXIT) {
                        done[i] = true;
                        live--;
                        uint64_t cta = i / nw;
                        if (--left[cta] == 0) w->vt->cta_end(w, cta, &wp[cta * nw]);
                        break;
                    }
                }
            }
        }
        free(wp);
        free(done);
        free(left);
    }
    return insts;
}

static void test_scrambled_driver(void **state) {
    (void)state;
    static const char *const inis[] = {
        "[workload]\nname = bfs\n[workload.bfs]\ngraph = " WS_SHARED_DATA
        "/graphs/rodinia-bfs/graph4096.txt\n",
        "[workload]\nname = kmeans\n[workload.kmeans]\npoints = 1000\nfeatures = 8\n",
        "[workload]\nname = vecadd\n[workload.vecadd]\nn = 5000\n",
    };
    for (int i = 0; i < 3; i++) {
        struct workload *a = tu_workload(inis[i]), *b = tu_workload(inis[i]);
        struct wl_count c;
        struct ws_err e = {{0}};
        assert_int_equal(workload_count(a, &c, &e), 0);
        uint64_t h1, h2;
        assert_int_equal(drive_scrambled(b, &h1), c.insts);
        assert_int_equal(b->vt->verify(b, &e), 0);
        b->vt->destroy(b);
        b = tu_workload(inis[i]);
        assert_int_equal(drive_scrambled(b, &h2), c.insts);
        assert_true(h1 == h2); /* deterministic */
        a->vt->destroy(a);
        b->vt->destroy(b);
    }
}

/* Same seed, same run; another seed, another graph. */
static void test_seed(void **state) {
    (void)state;
    struct wl_count c1, c2, c3;
    struct ws_err e = {{0}};
    const char *ini = "[workload]\nname = bfs\nseed = 3\n[workload.bfs]\nnodes = 3000\n";
    struct workload *w = tu_workload(ini);
    assert_int_equal(workload_count(w, &c1, &e), 0);
    w->vt->destroy(w);
    w = tu_workload(ini);
    assert_int_equal(workload_count(w, &c2, &e), 0);
    w->vt->destroy(w);
    assert_memory_equal(&c1, &c2, sizeof c1);
    w = tu_workload("[workload]\nname = bfs\nseed = 4\n[workload.bfs]\nnodes = 3000\n");
    assert_int_equal(workload_count(w, &c3, &e), 0);
    w->vt->destroy(w);
    assert_true(c3.thread_insts != c1.thread_insts);
}

/* Device arrays: the sum of a model's cudaMalloc sizes, grown by allocations made at a launch;
 * a trace holds no data. */
static void test_device_bytes(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = vecadd\n[workload.vecadd]\nn = 5000\n");
    assert_int_equal(workload_device_bytes(w), 3 * 5000 * 4); /* d_A, d_B, d_C */
    w->vt->destroy(w);
    w = tu_workload("[workload]\nname = atax\n[workload.atax]\nnx = 512\nny = 256\n");
    assert_int_equal(workload_device_bytes(w), 4 * (512 * 256 + 256 + 256 + 512)); /* A x y tmp */
    w->vt->destroy(w);
    /* streamcluster: the first pgain call's arrays with the points (work_mem_d of k + 1 = 3
     * columns, center_table_d, switch_membership_d, p, coord_d for 8 points of 4 dimensions),
     * then a work_mem_d at every further call */
    w = tu_workload("[workload]\nname = streamcluster\n[workload.streamcluster]\npoints = 8\n"
                    "dim = 4\ncalls = 2\ncenters = 2\n");
    const uint64_t first = 4 * 3 * 9 + 4 * 8 + 8 + 32 * 8 + 4 * 8 * 4;
    assert_int_equal(workload_device_bytes(w), first);
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_true(workload_device_bytes(w) >= first + 4 * 2 * 9); /* k + 1 >= 2 columns */
    w->vt->destroy(w);
    w = tu_workload("[workload]\nname = trace\n[workload.trace]\npath = " WS_SHARED_DATA
                    "/traces/accelsim/microgpusim-vectoradd-100-32\n");
    assert_int_equal(workload_device_bytes(w), 0);
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_bytes), cmocka_unit_test(test_table),
        cmocka_unit_test(test_errors),       cmocka_unit_test(test_scrambled_driver),
        cmocka_unit_test(test_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
