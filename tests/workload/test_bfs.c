/* Rodinia BFS model (src/workload/kernels/bfs.c): on a hand-made graph, the device layout, the
 * copies, one warp's exact edge-load addresses and masks level by level (per-lane trip counts =
 * degrees), 2 kernels per level and the functional result; launch shape for > 512 nodes; the
 * real graph4096.txt and the generated test size with exact instruction totals. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "workload/graph/graph.h"
#include "workload/workload.h"

static struct workload *make(const char *ini) {
    struct cfg *c = tu_cfg(ini);
    struct ws_err e = {{0}};
    struct workload *w = workload_create(c, &e);
    if (!w) fprintf(stderr, "%s\n", e.msg);
    assert_non_null(w);
    assert_int_equal(cfg_check_unclaimed(c, &e), 0);
    cfg_destroy(c);
    return w;
}

/* 0: 1 2 3 | 1: 0 4 | 2: 0 4 5 | 3: 0 | 4: 1 2 | 5: 2. Levels {0}, {1, 2, 3}, {4, 5}. */
static const char tiny[] = "6\n0 3\n3 2\n5 3\n8 1\n9 2\n11 1\n\n0\n\n12\n"
                           "1 1\n2 1\n3 1\n0 1\n4 1\n0 1\n4 1\n5 1\n0 1\n1 1\n2 1\n2 1\n";

/* Rodinia's cudaMalloc order, each block 256-byte aligned from 0xC0000000. */
enum {
    NODES = 0xC0000000,
    EDGES = NODES + 0x100,
    MASK = NODES + 0x200,
    UPD = NODES + 0x300,
    VIS = NODES + 0x400,
    COST = NODES + 0x500,
    OVER = NODES + 0x600
};

struct load {
    uint32_t active;
    uint64_t addr[6];
};

/* Runs the single warp of the current kernel, recording global loads inside [lo, hi). */
static int run_kernel(struct workload *w, uint64_t lo, uint64_t hi, struct load *out, int max,
                      int *ninst) {
    struct wl_warp *wp[1];
    struct ws_err e = {{0}};
    struct inst in;
    int n = 0;
    *ninst = 0;
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    do {
        assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
        (*ninst)++;
        if (in.cls == OP_MEM && in.mop == MOP_LOAD) {
            int l = __builtin_ctz(in.active);
            if (in.addr[l] >= lo && in.addr[l] < hi) {
                assert_true(n < max);
                out[n].active = in.active;
                for (int j = 0; j < 6; j++) out[n].addr[j] = in.active >> j & 1 ? in.addr[j] : 0;
                n++;
            }
        }
    } while (in.cls != OP_EXIT);
    w->vt->cta_end(w, 0, wp);
    return n;
}

static void test_tiny_graph(void **state) {
    (void)state;
    char ini[1024];
    snprintf(ini, sizeof ini, "[workload]\nname = bfs\n[workload.bfs]\ngraph = %s\n",
             tu_tmpfile("tiny.txt", tiny));
    struct workload *w = make(ini);
    struct kernel_desc k;
    struct ws_err e = {{0}};
    struct load ld[16];
    int ninst;

    /* Kernel 0: Kernel, one block of 6 threads; all initial copies plus `over`. */
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "Kernel");
    assert_int_equal(k.id, 0);
    assert_int_equal(k.ncta, 1);
    assert_int_equal(k.threads, 6);
    assert_int_equal(k.regs, 16);
    assert_int_equal(k.ncopies, 7);
    static const uint64_t caddr[] = {NODES, EDGES, MASK, UPD, VIS, COST, OVER};
    static const uint64_t cbytes[] = {48, 48, 6, 6, 6, 24, 1};
    for (int i = 0; i < 7; i++) {
        assert_int_equal(k.copies[i].addr, caddr[i]);
        assert_int_equal(k.copies[i].bytes, cbytes[i]);
    }
    /* Only lane 0 (the source) is in the frontier: it walks edges 0..2. */
    assert_int_equal(run_kernel(w, EDGES, EDGES + 48, ld, 16, &ninst), 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ld[i].active, 0x1);
        assert_int_equal(ld[i].addr[0], EDGES + 4 * i);
    }
    /* 9 guard instructions for all lanes, 9 for lane 0 up to the loop, 3 iterations of 18 (every
     * neighbour unvisited, so the body runs), EXIT. */
    assert_int_equal(ninst, 9 + 9 + 3 * 18 + 1);

    /* Kernel 1: Kernel2, no copies. */
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "Kernel2");
    assert_int_equal(k.id, 1);
    assert_int_equal(k.regs, 10);
    assert_int_equal(k.ncopies, 0);
    assert_int_equal(run_kernel(w, UPD, UPD + 6, ld, 16, &ninst), 1);
    assert_int_equal(ld[0].active, 0x3f);
    assert_int_equal(ninst, 9 + 8 + 1);

    /* Kernel 2: level 1, frontier lanes 1, 2, 3 with 2, 3 and 1 edges starting at 3, 5, 8. */
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.ncopies, 1); /* stop = false */
    assert_int_equal(k.copies[0].addr, OVER);
    assert_int_equal(run_kernel(w, EDGES, EDGES + 48, ld, 16, &ninst), 3);
    assert_int_equal(ld[0].active, 0xe);
    assert_int_equal(ld[0].addr[1], EDGES + 4 * 3);
    assert_int_equal(ld[0].addr[2], EDGES + 4 * 5);
    assert_int_equal(ld[0].addr[3], EDGES + 4 * 8);
    assert_int_equal(ld[1].active, 0x6);
    assert_int_equal(ld[1].addr[1], EDGES + 4 * 4);
    assert_int_equal(ld[1].addr[2], EDGES + 4 * 6);
    assert_int_equal(ld[2].active, 0x4);
    assert_int_equal(ld[2].addr[2], EDGES + 4 * 7);
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    run_kernel(w, 0, 0, ld, 16, &ninst);

    /* Level 2: frontier {4, 5}; the visited[] loads of its iterations read nodes 1, 2 then 2. */
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(run_kernel(w, VIS, VIS + 6, ld, 16, &ninst), 2);
    assert_int_equal(ld[0].active, 0x30);
    assert_int_equal(ld[0].addr[4], VIS + 1);
    assert_int_equal(ld[0].addr[5], VIS + 2);
    assert_int_equal(ld[1].active, 0x10);
    assert_int_equal(ld[1].addr[4], VIS + 2);
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.id, 5);
    run_kernel(w, 0, 0, ld, 16, &ninst);
    assert_int_equal(ninst, 9 + 1); /* nobody was marked: *over stays false */

    /* 3 levels, 6 kernels; the costs are the host BFS's. */
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

/* More than 512 nodes: blocks of MAX_THREADS_PER_BLOCK; kernels = 2 x the generated graph's
 * levels. */
static void test_generated_launch_shape(void **state) {
    (void)state;
    struct workload *w =
        make("[workload]\nname = bfs\nseed = 5\n[workload.bfs]\nnodes = 600\ndegree = 6\n");
    struct kernel_desc k;
    struct ws_err e = {{0}};
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.grid[0], 2);
    assert_int_equal(k.block[0], 512);
    assert_int_equal(k.threads, 512);
    w->vt->destroy(w);

    w = make("[workload]\nname = bfs\nseed = 5\n[workload.bfs]\nnodes = 600\n");
    struct graph g;
    assert_int_equal(graph_generate(&g, 600, 2, 4, 5, &e), 0);
    int32_t cost[600];
    uint32_t levels = graph_bfs(&g, 0, cost);
    graph_free(&g);
    struct wl_count c;
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 2 * levels);
    assert_int_equal(c.ctas, 2 * 2 * levels);
    assert_int_equal(c.warps, 16 * 2 * 2 * levels);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

/* Exact totals, so that any change to the model is noticed. */
static void test_real_graph_and_test_size(void **state) {
    (void)state;
    struct workload *w = make("[workload]\nname = bfs\n[workload.bfs]\ngraph = " WS_SHARED_DATA
                              "/graphs/rodinia-bfs/graph4096.txt\n");
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 16); /* 8 levels, as Accel-Sim's Rodinia BFS trace of it */
    assert_int_equal(c.ctas, 16 * 8);
    assert_int_equal(c.insts, 104720);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);

    w = make("[workload]\nname = bfs\n"); /* test size: generated, 32768 nodes, seed 1 */
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 18);
    assert_int_equal(c.insts, 805329);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny_graph),
        cmocka_unit_test(test_generated_launch_shape),
        cmocka_unit_test(test_real_graph_and_test_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
