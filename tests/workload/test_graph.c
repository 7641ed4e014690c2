/* CSR graphs (src/workload/graph/graph.c): the Rodinia loader on the real graph4096.txt, its
 * file:line errors on malformed files, the graphgen-style generator and the host BFS. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "workload/graph/graph.h"

#define G4096 WS_SHARED_DATA "/graphs/rodinia-bfs/graph4096.txt"

static void test_load_graph4096(void **state) {
    (void)state;
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load_rodinia(&g, G4096, &e), 0);
    assert_int_equal(g.n, 4096);
    assert_int_equal(g.m, 24576);
    assert_int_equal(g.source, 0);
    /* The file's first node lines: "0 10", "10 6", "16 2", "18 5"; the last "24572 4". */
    assert_int_equal(g.start[0], 0);
    assert_int_equal(g.degree[0], 10);
    assert_int_equal(g.start[1], 10);
    assert_int_equal(g.degree[1], 6);
    assert_int_equal(g.degree[2], 2);
    assert_int_equal(g.start[3], 18);
    assert_int_equal(g.start[4095], 24572);
    assert_int_equal(g.degree[4095], 4);
    assert_int_equal(g.degree[2941], 19); /* the largest degree */
    /* Edges: first "2539 2", then "1187 5"; the last "3564 2". */
    assert_int_equal(g.dest[0], 2539);
    assert_int_equal(g.weight[0], 2);
    assert_int_equal(g.dest[1], 1187);
    assert_int_equal(g.dest[24575], 3564);
    assert_int_equal(g.weight[24575], 2);
    /* Its BFS from node 0 has 8 levels and reaches every node (Accel-Sim's Rodinia BFS trace of
     * this input has 16 kernels: 2 per level). */
    int32_t *cost = malloc(4096 * sizeof *cost);
    assert_int_equal(graph_bfs(&g, 0, cost), 8);
    for (uint32_t i = 0; i < g.n; i++) assert_true(cost[i] >= 0 && cost[i] < 8);
    assert_int_equal(cost[0], 0);
    assert_int_equal(cost[2539], 1);
    free(cost);
    graph_free(&g);
}

static void expect_error(const char *text, const char *msg) {
    const char *path = tu_tmpfile("graph.txt", text);
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load_rodinia(&g, path, &e), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s:%s", path, msg);
    if (strcmp(e.msg, want) != 0) fprintf(stderr, "got  %s\nwant %s\n", e.msg, want);
    assert_string_equal(e.msg, want);
    assert_null(g.start); /* nothing is left allocated */
}

/* 3 nodes: 0-1, 0-2 (both directions). */
#define NODES "3\n0 2\n2 1\n3 1\n\n0\n\n4\n"

static void test_load_errors(void **state) {
    (void)state;
    expect_error("abc\n", "1: expected the node count (an integer), found 'abc'");
    expect_error("0\n", "1: the node count = 0 is out of range [1, 268435456]");
    /* a header announcing 2^31 nodes is refused before anything is allocated for them */
    expect_error("2147483647\n0 1\n",
                 "1: the node count = 2147483647 is out of range [1, 268435456]");
    expect_error("2\n0 1\n1 x\n", "3: expected the edge count of node 1 (an integer), found 'x'");
    expect_error("2\n0 1\n1 -1\n",
                 "3: the edge count of node 1 = -1 is out of range [0, 2147483647]");
    expect_error("2\n0 1\n1 1\n\n2\n", "5: the source node = 2 is out of range [0, 1]");
    expect_error("3\n0 2\n2 1\n3 2\n\n0\n\n4\n1 1\n2 1\n0 1\n0 1\n",
                 "4: node 2 has edges 3..4 but the edge count (line 8) is 4");
    expect_error(NODES "1 1\n2 1\n0 1\n7 1\n",
                 "12: the destination of edge 3 = 7 is out of range [0, 2]");
    expect_error(NODES "1 1\n2 1\n0 1\n0\n",
                 "12: unexpected end of file: expected the weight of edge 3");
    expect_error(NODES "1 1\n2 1\n0 1\n0 1\n9 9\n", "13: unexpected '9' after the last of 4 edges");
    expect_error("3\n0 2\n", "2: unexpected end of file: expected the first edge of node 1");

    /* The same file, well formed, loads; blank lines and line breaks carry no meaning. */
    const char *ok = tu_tmpfile("ok.txt", NODES "1 1 2 1\n0 1\n\n0 1");
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load_rodinia(&g, ok, &e), 0);
    assert_int_equal(g.n, 3);
    assert_int_equal(g.m, 4);
    assert_int_equal(g.dest[1], 2);
    graph_free(&g);

    assert_int_equal(graph_load_rodinia(&g, "/nonexistent/graph.txt", &e), -1);
    assert_non_null(strstr(e.msg, "/nonexistent/graph.txt: cannot open"));
}

static void test_generator(void **state) {
    (void)state;
    struct graph a, b, c;
    struct ws_err e = {{0}};
    assert_int_equal(graph_generate(&a, 10000, 2, 4, 7, &e), 0);
    assert_int_equal(graph_generate(&b, 10000, 2, 4, 7, &e), 0);
    assert_int_equal(graph_generate(&c, 10000, 2, 4, 8, &e), 0);
    /* Same seed, same graph, edge for edge. */
    assert_int_equal(a.m, b.m);
    assert_memory_equal(a.start, b.start, a.n * sizeof *a.start);
    assert_memory_equal(a.degree, b.degree, a.n * sizeof *a.degree);
    assert_memory_equal(a.dest, b.dest, a.m * sizeof *a.dest);
    assert_memory_equal(a.weight, b.weight, a.m * sizeof *a.weight);
    assert_true(a.m != c.m || memcmp(a.dest, c.dest, a.m * sizeof *a.dest) != 0);
    /* Each node starts 2..4 edges: 2 m / n averages 3 started per node, so degree ~6. */
    assert_true(a.m >= 2 * 10000 * 2 && a.m <= 2 * 10000 * 4);
    assert_true(a.m > 57000 && a.m < 63000);
    /* CSR is contiguous; no self-loops; every edge has its reverse; weights 1..10. */
    uint64_t fwd = 0, rev = 0;
    for (uint32_t i = 0; i < a.n; i++) {
        if (i) assert_int_equal(a.start[i], a.start[i - 1] + a.degree[i - 1]);
        for (uint32_t j = a.start[i]; j < a.start[i] + a.degree[i]; j++) {
            assert_int_not_equal(a.dest[j], i);
            assert_true(a.weight[j] >= 1 && a.weight[j] <= 10);
            fwd += (uint64_t)i * 7919 + a.dest[j];
            rev += (uint64_t)a.dest[j] * 7919 + i;
        }
    }
    assert_true(fwd == rev); /* the multiset of (u, v) equals that of (v, u) */
    graph_free(&a);
    graph_free(&b);
    graph_free(&c);
    assert_int_equal(graph_generate(&a, 1, 2, 4, 7, &e), -1);
    assert_int_equal(graph_generate(&a, 10, 4, 2, 7, &e), -1);
}

/* Host BFS on a path 0-1-2 plus an isolated node 3. */
static void test_host_bfs(void **state) {
    (void)state;
    const char *p = tu_tmpfile("path.txt", "4\n0 1\n1 2\n3 1\n4 0\n0\n4\n1 1\n0 1\n2 1\n1 1\n");
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load_rodinia(&g, p, &e), 0);
    int32_t cost[4];
    assert_int_equal(graph_bfs(&g, 0, cost), 3);
    assert_int_equal(cost[0], 0);
    assert_int_equal(cost[1], 1);
    assert_int_equal(cost[2], 2);
    assert_int_equal(cost[3], -1);
    graph_free(&g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_graph4096),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_generator),
        cmocka_unit_test(test_host_bfs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
