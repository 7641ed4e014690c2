/* Rodinia BFS model (src/workload/kernels/bfs.c): on a hand-made graph, the device layout, the
 * copies, one warp's exact edge-load addresses and masks level by level (per-lane trip counts =
 * degrees), 2 kernels per level and the functional result; launch shape for > 512 nodes; the
 * real graph4096.txt and the generated test size with exact instruction totals. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "workload/graph/graph.h"
#include "workload/graph/graphio.h"
#include "workload/workload.h"

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
    struct workload *w = tu_workload(ini);
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
        tu_workload("[workload]\nname = bfs\nseed = 5\n[workload.bfs]\nnodes = 600\ndegree = 6\n");
    struct kernel_desc k;
    struct ws_err e = {{0}};
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.grid[0], 2);
    assert_int_equal(k.block[0], 512);
    assert_int_equal(k.threads, 512);
    w->vt->destroy(w);

    w = tu_workload("[workload]\nname = bfs\nseed = 5\n[workload.bfs]\nnodes = 600\n");
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
    struct workload *w =
        tu_workload("[workload]\nname = bfs\n[workload.bfs]\ngraph = " WS_SHARED_DATA
                    "/graphs/rodinia-bfs/graph4096.txt\n");
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 16); /* 8 levels, as Accel-Sim's Rodinia BFS trace of it */
    assert_int_equal(c.ctas, 16 * 8);
    assert_int_equal(c.insts, 104720);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);

    w = tu_workload("[workload]\nname = bfs\n"); /* test size: generated, 32768 nodes, seed 1 */
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 18);
    assert_int_equal(c.insts, 805329);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

/* A real SNAP file (CA-HepTh, ids renumbered in first-seen order) through the format dispatcher:
 * level by level, Kernel's lanes load exactly the edge-list words and visited[] bytes of the
 * frontier nodes a host BFS puts at that level, and the costs are the host BFS's. */
static void test_snap_file_levels(void **state) {
    (void)state;
    const char *path = WS_SHARED_DATA "/graphs/snap/CA-HepTh.txt";
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load(&g, path, &e), 0);
    int32_t *cost = malloc(g.n * sizeof *cost);
    uint32_t levels = graph_bfs(&g, 0, cost);
    char ini[512];
    snprintf(ini, sizeof ini, "[workload]\nname = bfs\n[workload.graph]\npath = %s\n", path);
    struct workload *w = tu_workload(ini);
    struct kernel_desc k;
    struct wl_warp *wp[16];
    struct inst in;
    uint64_t edges = 0, vis = 0;
    uint32_t kernels = 0;
    while (w->vt->next_kernel(w, &k, &e) == 1) {
        if (kernels == 0) edges = k.copies[1].addr, vis = k.copies[4].addr;
        bool k1 = strcmp(k.name, "Kernel") == 0;
        assert_int_equal(k1, kernels % 2 == 0);
        uint32_t level = kernels / 2;
        uint64_t n_e = 0, sum_e = 0, n_v = 0, sum_v = 0;
        for (uint64_t cta = 0; cta < k.ncta; cta++) {
            assert_int_equal(w->vt->cta_start(w, cta, wp, &e), 0);
            for (uint32_t i = 0; i < (k.threads + 31) / 32; i++) do {
                    assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0);
                    if (in.cls != OP_MEM || in.mop != MOP_LOAD) continue;
                    for (int l = 0; l < 32; l++) {
                        if (!(in.active >> l & 1)) continue;
                        uint64_t a = in.addr[l];
                        if (a >= edges && a < edges + 4ull * g.m) n_e++, sum_e += a;
                        if (in.width == 1 && a >= vis && a < vis + g.n) n_v++, sum_v += a;
                    }
                } while (in.cls != OP_EXIT);
            w->vt->cta_end(w, cta, wp);
        }
        if (k1) {
            uint64_t want_n = 0, want_e = 0, want_v = 0;
            for (uint32_t u = 0; u < g.n; u++) {
                if (cost[u] != (int32_t)level) continue;
                for (uint32_t j = g.start[u]; j < g.start[u] + g.degree[u]; j++)
                    want_n++, want_e += edges + 4ull * j, want_v += vis + g.dest[j];
            }
            assert_int_equal(n_e, want_n);
            assert_int_equal(sum_e, want_e);
            assert_int_equal(n_v, want_n);
            assert_int_equal(sum_v, want_v);
        }
        kernels++;
    }
    assert_int_equal(kernels, 2 * levels);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
    free(cost);
    graph_free(&g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny_graph),
        cmocka_unit_test(test_generated_launch_shape),
        cmocka_unit_test(test_real_graph_and_test_size),
        cmocka_unit_test(test_snap_file_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
