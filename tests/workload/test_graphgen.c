/* Graph generators (src/workload/graph/graphgen.c): exact sizes, determinism by seed, R-MAT's
 * degree skew against a uniform graph of the same size, the grid's shape, and the
 * workload.graph.* keys. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "workload/graph/graphgen.h"

static void same_graph(const struct graph *a, const struct graph *b) {
    assert_int_equal(a->n, b->n);
    assert_int_equal(a->m, b->m);
    assert_memory_equal(a->start, b->start, a->n * sizeof *a->start);
    assert_memory_equal(a->dest, b->dest, a->m * sizeof *a->dest);
    assert_memory_equal(a->weight, b->weight, a->m * sizeof *a->weight);
}

/* Share of all edges that leave the 1% of nodes with the largest out-degree, in percent. */
static double top1_share(const struct graph *g) {
    uint32_t *d = malloc(g->n * sizeof *d);
    memcpy(d, g->degree, g->n * sizeof *d);
    uint64_t top = 0;
    for (uint32_t k = 0; k < g->n / 100; k++) { /* selection of the largest n/100 */
        uint32_t best = 0;
        for (uint32_t i = 1; i < g->n; i++)
            if (d[i] > d[best]) best = i;
        top += d[best];
        d[best] = 0;
    }
    free(d);
    return 100.0 * (double)top / g->m;
}

static uint32_t max_degree(const struct graph *g) {
    uint32_t mx = 0;
    for (uint32_t i = 0; i < g->n; i++)
        if (g->degree[i] > mx) mx = g->degree[i];
    return mx;
}

static void test_rmat(void **state) {
    (void)state;
    struct graph a, b, c, u;
    struct ws_err e = {{0}};
    assert_int_equal(graph_gen_rmat(&a, 12, 8, 0.57, 0.19, 0.19, 100, 3, &e), 0);
    assert_int_equal(graph_gen_rmat(&b, 12, 8, 0.57, 0.19, 0.19, 100, 3, &e), 0);
    assert_int_equal(graph_gen_rmat(&c, 12, 8, 0.57, 0.19, 0.19, 100, 4, &e), 0);
    assert_int_equal(a.n, 4096);
    assert_int_equal(a.m, 8 * 4096);
    assert_true(a.weighted);
    same_graph(&a, &b);
    assert_true(memcmp(a.dest, c.dest, a.m * sizeof *a.dest) != 0);
    for (uint32_t j = 0; j < a.m; j++) assert_true(a.weight[j] >= 1 && a.weight[j] <= 100);
    /* Node 0 takes row bit 0 at every level: expected out-degree m (a + b)^12 = 1,222. */
    assert_in_range(a.degree[0], 1100, 1350);
    /* Skew: a uniform graph of the same size has no hubs. */
    assert_int_equal(graph_gen_uniform(&u, 4096, 8, 100, 3, &e), 0);
    assert_int_equal(u.m, a.m);
    double rs = top1_share(&a), us = top1_share(&u);
    assert_true(rs > 20.0);
    assert_true(us < 3.0);
    assert_true(max_degree(&a) > 100 * 8);
    assert_true(max_degree(&u) < 4 * 8);
    /* The quadrant probabilities matter: a = b = c = 1/4 is uniform over the matrix. */
    graph_free(&c);
    assert_int_equal(graph_gen_rmat(&c, 12, 8, 0.25, 0.25, 0.25, 100, 3, &e), 0);
    assert_true(top1_share(&c) < 3.0);
    graph_free(&a), graph_free(&b), graph_free(&c), graph_free(&u);
    assert_int_equal(graph_gen_rmat(&a, 12, 8, 0.5, 0.4, 0.2, 100, 3, &e), -1);
    assert_string_equal(e.msg, "R-MAT: a = 0.5, b = 0.4, c = 0.2 must be >= 0 with a + b + c <= 1");
}

static void test_uniform(void **state) {
    (void)state;
    struct graph a, b;
    struct ws_err e = {{0}};
    assert_int_equal(graph_gen_uniform(&a, 1000, 6, 10, 9, &e), 0);
    assert_int_equal(graph_gen_uniform(&b, 1000, 6, 10, 9, &e), 0);
    same_graph(&a, &b);
    assert_int_equal(a.n, 1000);
    assert_int_equal(a.m, 6000);
    uint64_t fwd = 0, rev = 0;
    for (uint32_t i = 0; i < a.n; i++)
        for (uint32_t j = a.start[i]; j < a.start[i] + a.degree[i]; j++) {
            assert_int_not_equal(a.dest[j], i);
            assert_true(a.weight[j] >= 1 && a.weight[j] <= 10);
            fwd += ((uint64_t)i * 7919 + a.dest[j]) * a.weight[j];
            rev += ((uint64_t)a.dest[j] * 7919 + i) * a.weight[j];
        }
    assert_true(fwd == rev); /* undirected: (u, v, w) and (v, u, w) both present */
    graph_free(&a), graph_free(&b);
}

static void test_grid(void **state) {
    (void)state;
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(graph_gen_grid(&g, 3, 4, 50, 1, &e), 0);
    assert_int_equal(g.n, 12);
    assert_int_equal(g.m, 2 * (3 * 3 + 2 * 4));
    /* Node 0: right (1), down (4). Node 5 (row 1, col 1), in creation order: up (made by node
     * 1), left (made by node 4), then its own right and down. */
    assert_int_equal(g.degree[0], 2);
    assert_int_equal(g.dest[0], 1);
    assert_int_equal(g.dest[1], 4);
    assert_int_equal(g.degree[5], 4);
    assert_int_equal(g.dest[g.start[5]], 1);
    assert_int_equal(g.dest[g.start[5] + 1], 4);
    assert_int_equal(g.dest[g.start[5] + 2], 6);
    assert_int_equal(g.dest[g.start[5] + 3], 9);
    assert_int_equal(g.degree[11], 2);
    int32_t cost[12];
    assert_int_equal(graph_bfs(&g, 0, cost), 6); /* diameter rows + cols - 2 = 5 */
    assert_int_equal(cost[11], 5);
    assert_int_equal(cost[6], 3);
    graph_free(&g);
}

static void test_cfg(void **state) {
    (void)state;
    struct graph g;
    struct ws_err e = {{0}};
    struct graph_cfg gc;
    struct cfg *c = tu_cfg("[workload.graph]\ngen = grid\nnodes = 20\nwidth = 4\n");
    graph_cfg_defaults(&gc);
    assert_int_equal(graph_cfg_make(&g, c, &gc, 1, &e), 0);
    assert_int_equal(g.n, 20);
    assert_int_equal(g.m, 2 * (5 * 3 + 4 * 4));
    graph_free(&g);
    cfg_destroy(c);

    c = tu_cfg("[workload.graph]\ngen = rmat\nnodes = 1000\ndegree = 4\n");
    graph_cfg_defaults(&gc);
    assert_int_equal(graph_cfg_make(&g, c, &gc, 1, &e), 0);
    assert_int_equal(g.n, 1024);
    assert_int_equal(g.m, 4096);
    graph_free(&g);
    cfg_destroy(c);

    /* A preset (as a workload sets it) holds unless a key overrides it. */
    c = tu_cfg("[workload.graph]\ngen = uniform\n");
    graph_cfg_defaults(&gc);
    gc.nodes = 500;
    gc.degree = 10;
    assert_int_equal(graph_cfg_make(&g, c, &gc, 1, &e), 0);
    assert_int_equal(g.n, 500);
    assert_int_equal(g.m, 5000);
    graph_free(&g);
    cfg_destroy(c);

    c = tu_cfg("[workload.graph]\ndegree = 5\n");
    graph_cfg_defaults(&gc);
    assert_int_equal(graph_cfg_make(&g, c, &gc, 1, &e), -1);
    assert_non_null(strstr(e.msg, "workload.graph.degree = 5 must be even"));
    cfg_destroy(c);

    c = tu_cfg("[workload.graph]\ngen = kronecker\n");
    graph_cfg_defaults(&gc);
    assert_int_equal(graph_cfg_make(&g, c, &gc, 1, &e), -1);
    assert_non_null(strstr(e.msg, "kronecker"));
    cfg_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rmat),
        cmocka_unit_test(test_uniform),
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_cfg),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
