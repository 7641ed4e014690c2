/* Graph files (src/workload/graph/graphio.c): the shared real samples in Matrix Market
 * (bcsstk13), SNAP (CA-HepTh, Wiki-Vote) and Rodinia format and libmetis-doc's METIS graphs
 * through the loaders and the dispatcher, METIS files written here, and exact file:line errors on
 * bad files. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "workload/graph/graphio.h"

#define GDIR WS_SHARED_DATA "/graphs"

static void test_mtx_bcsstk13(void **state) {
    (void)state;
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load_mtx(&g, GDIR "/suitesparse/bcsstk13.mtx", &e), 0);
    /* 2003 x 2003, 42,943 stored lower-triangle entries, 2,003 of them diagonal. */
    assert_int_equal(g.n, 2003);
    assert_int_equal(g.ncols, 2003);
    assert_int_equal(g.m, 2 * 42943 - 2003);
    assert_false(g.weighted);
    assert_non_null(g.val);
    /* Row 1 holds (1,1) then the mirrors of column 1's entries (2,1), (3,1), ... */
    assert_int_equal(g.start[0], 0);
    assert_int_equal(g.degree[0], 30);
    assert_int_equal(g.dest[0], 0);
    assert_true(g.val[0] == 277281165.183f);
    assert_int_equal(g.dest[1], 1);
    assert_true(g.val[1] == 3101923.80092f);
    assert_int_equal(g.dest[2], 2);
    assert_true(g.val[2] == -51131286.8839f);
    /* The last row: 41 entries ending with (2003,2002) and the diagonal (2003,2003). */
    assert_int_equal(g.degree[2002], 41);
    assert_int_equal(g.dest[g.m - 2], 2001);
    assert_true(g.val[g.m - 2] == -1.86264514923e-9f);
    assert_int_equal(g.dest[g.m - 1], 2002);
    assert_int_equal(g.weight[g.m - 1], 1);
    graph_free(&g);
}

/* Real METIS files (Debian's libmetis-doc: finite-element meshes and a multi-constraint graph)
 * through the dispatcher: sizes as their headers give them (2 m directed edges), the first
 * vertex's neighbours as listed, and every edge present both ways, as METIS requires. */
static void check_symmetric(const struct graph *g) {
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t k = g->start[u]; k < g->start[u] + g->degree[u]; k++) {
            uint32_t v = g->dest[k], j = g->start[v], end = j + g->degree[v];
            while (j < end && g->dest[j] != u) j++;
            if (j == end) fail_msg("edge %u -> %u has no reverse", u, v);
        }
}

/* A METIS file loads with n nodes and 2 m directed edges, node 0's neighbours `first` (when
 * given) in file order, and every edge both ways. */
static void expect_metis(const char *path, uint32_t n, uint32_t m, const uint32_t *first,
                         uint32_t nfirst) {
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load(&g, path, &e), 0);
    assert_int_equal(g.n, n);
    assert_int_equal(g.m, 2 * m);
    if (first) {
        assert_int_equal(g.degree[0], nfirst);
        for (uint32_t i = 0; i < nfirst; i++) assert_int_equal(g.dest[g.start[0] + i], first[i]);
    }
    check_symmetric(&g);
    graph_free(&g);
}

static void test_metis_samples(void **state) {
    (void)state;
    const char *elt = WS_METIS_GRAPHS "/4elt.graph";
    if (access(elt, R_OK) != 0) {
        print_message("%s: not installed (scripts/bootstrap.sh installs libmetis-doc)\n", elt);
        skip();
    }
    static const uint32_t elt_first[] = {58, 741, 6772, 6773, 123, 60, 3544, 3545, 4916};
    expect_metis(elt, 7434, 43031, elt_first, 9);
    /* header "766 1314 010 2": two vertex weights per line before the neighbours */
    static const uint32_t mgraph_first[] = {478, 388, 570, 1};
    expect_metis(WS_METIS_GRAPHS "/test.mgraph", 766, 1314, mgraph_first, 4);
    expect_metis(WS_METIS_GRAPHS "/copter2.graph", 55476, 352238, NULL, 0);
}

static void test_snap_samples(void **state) {
    (void)state;
    struct graph g;
    struct ws_err e = {{0}};
    /* Ids renumbered in first-seen order: 24325 -> 0, 24394 -> 1, 40517 -> 2, 58507 -> 3. */
    assert_int_equal(graph_load_snap(&g, GDIR "/snap/CA-HepTh.txt", &e), 0);
    assert_int_equal(g.n, 9877);
    assert_int_equal(g.m, 51971);
    assert_int_equal(g.degree[0], 3);
    assert_int_equal(g.dest[0], 1);
    assert_int_equal(g.dest[1], 2);
    assert_int_equal(g.dest[2], 3);
    assert_int_equal(g.degree[86], 65); /* the largest degree */
    assert_false(g.weighted);
    graph_free(&g);

    /* Wiki-Vote has no trailing newline; its last line "8274 8275" brings the last new id. */
    assert_int_equal(graph_load_snap(&g, GDIR "/snap/Wiki-Vote.txt", &e), 0);
    assert_int_equal(g.n, 7115);
    assert_int_equal(g.m, 103689);
    assert_int_equal(g.degree[0], 5);
    assert_int_equal(g.degree[699], 893);
    assert_int_equal(g.degree[7114], 1);
    assert_int_equal(g.dest[g.start[7114]], 3080);
    uint32_t sinks = 0;
    for (uint32_t i = 0; i < g.n; i++) sinks += g.degree[i] == 0;
    assert_int_equal(sinks, 1005);
    graph_free(&g);

    /* A weighted list with comments and blank lines. */
    const char *p = tu_tmpfile("w.txt", "# c\n7 9 4\n\n9 7 2\n# c\n7 100 5\n");
    assert_int_equal(graph_load_snap(&g, p, &e), 0);
    assert_int_equal(g.n, 3);
    assert_int_equal(g.m, 3);
    assert_true(g.weighted);
    assert_int_equal(g.degree[0], 2);
    assert_int_equal(g.dest[1], 2);
    assert_int_equal(g.weight[1], 5);
    assert_int_equal(g.weight[2], 2);
    graph_free(&g);
}

/* 7 vertices, 11 undirected edges. */
static const char metis7[] = "% seven\n7 11\n5 3 2\n1 3 4\n5 4 2 1\n2 3 6 7\n1 3 6\n5 4 7\n6 4\n";

static void test_metis(void **state) {
    (void)state;
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load_metis(&g, tu_tmpfile("a.graph", metis7), &e), 0);
    assert_int_equal(g.n, 7);
    assert_int_equal(g.m, 22);
    assert_int_equal(g.degree[2], 4);
    assert_int_equal(g.dest[g.start[2]], 4); /* vertex 3's first neighbour, 5 */
    assert_int_equal(g.dest[21], 3);
    graph_free(&g);

    /* Edge weights (fmt 1); sizes and two vertex weights (fmt 111, ncon 2); a blank line is a
     * vertex without neighbours. */
    assert_int_equal(graph_load_metis(&g, tu_tmpfile("b.graph", "3 2 1\n2 5\n1 5 3 7\n2 7\n"), &e),
                     0);
    assert_true(g.weighted);
    assert_int_equal(g.m, 4);
    assert_int_equal(g.dest[2], 2);
    assert_int_equal(g.weight[2], 7);
    graph_free(&g);
    assert_int_equal(
        graph_load_metis(&g, tu_tmpfile("c.graph", "2 1 111 2\n9 1 2 2 4\n8 3 4 1 4\n"), &e), 0);
    assert_int_equal(g.dest[0], 1);
    assert_int_equal(g.weight[1], 4);
    graph_free(&g);
    assert_int_equal(graph_load_metis(&g, tu_tmpfile("d.graph", "3 1\n2\n1\n\n"), &e), 0);
    assert_int_equal(g.degree[2], 0);
    graph_free(&g);
}

/* The dispatcher: by extension, else by the first line. */
static void test_dispatch(void **state) {
    (void)state;
    struct graph g;
    struct ws_err e = {{0}};
    static const struct {
        const char *path;
        uint32_t n, m;
    } files[] = {
        {GDIR "/suitesparse/bcsstk13.mtx", 2003, 83883},
        {GDIR "/snap/CA-HepTh.txt", 9877, 51971},
        {GDIR "/snap/Wiki-Vote.txt", 7115, 103689},
        {GDIR "/rodinia-bfs/graph4096.txt", 4096, 24576},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        assert_int_equal(graph_load(&g, files[i].path, &e), 0);
        assert_int_equal(g.n, files[i].n);
        assert_int_equal(g.m, files[i].m);
        graph_free(&g);
    }
    assert_int_equal(graph_load(&g, tu_tmpfile("m.txt", metis7), &e), 0); /* '%' first */
    assert_int_equal(g.m, 22);
    graph_free(&g);
    assert_int_equal(graph_load(&g, tu_tmpfile("s.txt", "5 6\n6 5\n"), &e), 0);
    assert_int_equal(g.n, 2);
    graph_free(&g);
    assert_int_equal(graph_load(&g, tu_tmpfile("x.mtx", "1 2\n"), &e), -1); /* by extension */
    assert_non_null(strstr(e.msg, "x.mtx:1: not a Matrix Market file"));
}

typedef int (*loader)(struct graph *, const char *, struct ws_err *);

static void expect_error(loader f, const char *name, const char *text, const char *msg) {
    const char *path = tu_tmpfile(name, text);
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(f(&g, path, &e), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s:%s", path, msg);
    if (strcmp(e.msg, want) != 0) fprintf(stderr, "got  %s\nwant %s\n", e.msg, want);
    assert_string_equal(e.msg, want);
    assert_null(g.start); /* nothing is left allocated */
}

#define MM "%%MatrixMarket matrix coordinate real general\n"

static void test_errors(void **state) {
    (void)state;
    loader mtx = graph_load_mtx, snap = graph_load_snap, metis = graph_load_metis;
    /* Matrix Market: truncated, bad number, out-of-range index, unsupported header, shape. */
    expect_error(mtx, "t.mtx", MM "% c\n3 3 4\n1 1 1.0\n2 1 2.0\n",
                 "5: unexpected end of file: 2 of the 4 entries the size line (line 3) announces");
    expect_error(mtx, "t.mtx", MM "3 3 2\n1 1 1.0\n2 1 x.5\n",
                 "4: expected the value (a finite real number), found 'x.5'");
    expect_error(mtx, "t.mtx", MM "3 3 2\n1 1 1.0\n2 1 nan\n",
                 "4: expected the value (a finite real number), found 'nan'");
    expect_error(mtx, "t.mtx", MM "3 3 2\n1 1 -inf\n2 1 1\n",
                 "3: expected the value (a finite real number), found '-inf'");
    expect_error(mtx, "t.mtx", MM "3 3 2\n1 1 1\n2 1 1e39\n", /* beyond a float */
                 "4: expected the value (a finite real number), found '1e39'");
    expect_error(mtx, "t.mtx", MM "3 3 2\n1 1 1.0\n4 1 2\n",
                 "4: the row index = 4 is out of range [1, 3]");
    expect_error(mtx, "t.mtx", MM "3 2 1\n1 3 1.0\n",
                 "3: the column index = 3 is out of range [1, 2]");
    expect_error(mtx, "t.mtx", MM "3 3 1\n1 1 1.0\n2 2 1.0\n",
                 "4: unexpected entry after the 1 entries the size line (line 2) announces");
    expect_error(mtx, "t.mtx", MM "3 3\n", "2: missing the entry count");
    /* 2^31 rows and one entry: refused at the size line, not 16 GB of CSR arrays later */
    expect_error(mtx, "t.mtx", MM "2147483647 2 1\n1 1 1.0\n",
                 "2: the row count = 2147483647 is out of range [1, 268435456]");
    expect_error(metis, "t.graph", "268435457 0\n",
                 "1: the vertex count = 268435457 is out of range [1, 268435456]");
    expect_error(mtx, "t.mtx", "%%MatrixMarket matrix array real general\n3 3\n",
                 "1: format 'array' is not supported (coordinate only)");
    expect_error(mtx, "t.mtx", "%%MatrixMarket matrix coordinate complex general\n",
                 "1: field 'complex' is not supported (real, integer or pattern)");
    expect_error(mtx, "t.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n1 2\n",
                 "3: entry (1, 2) lies above the diagonal of a symmetric matrix (only the lower "
                 "triangle is stored)");
    expect_error(mtx, "t.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2 3\n",
                 "3: unexpected '3' after the entry");
    /* SNAP: bad number, negative id, ragged lines. */
    expect_error(snap, "t.txt", "# h\n1 2\n1 x\n",
                 "3: expected the destination node id (an integer), found 'x'");
    expect_error(snap, "t.txt", "-3 4\n",
                 "1: the source node id = -3 is out of range [0, 9223372036854775806]");
    expect_error(snap, "t.txt", "1 2\n2 3 5\n",
                 "2: 3 fields, but line 1 has 2 (every edge line must have the same)");
    expect_error(snap, "t.txt", "1\n", "1: expected 'src dst' or 'src dst weight', found 1 fields");
    expect_error(snap, "t.txt", "# nothing\n", "1: no edges");
    expect_error(snap, "t.txt", "", " empty file (no edges)");
    /* METIS: truncated, out-of-range and bad neighbours, edge count, missing weight, fmt. */
    expect_error(metis, "t.graph", "3 2\n2\n1 3\n",
                 "3: unexpected end of file: expected the line of vertex 3 of 3");
    expect_error(metis, "t.graph", "3 2\n2\n1 4\n2\n",
                 "3: neighbour 4 of vertex 2 is out of range [1, 3]");
    expect_error(metis, "t.graph", "% c\n3 2\n2\n1 z\n2\n",
                 "4: expected a neighbour of vertex 2 (an integer), found 'z'");
    expect_error(metis, "t.graph", "3 2\n2\n1\n\n",
                 "1: the header announces 2 edges (4 neighbour entries) but the vertex lines list "
                 "2 entries");
    expect_error(metis, "t.graph", "3 1\n2\n1 3\n2\n",
                 "3: more than the 2 x 1 neighbour entries the header (line 1) announces");
    expect_error(metis, "t.graph", "3 2 1\n2 5\n1 5 3\n2 7\n", "3: missing the weight of edge 2-3");
    expect_error(metis, "t.graph", "3 2 2\n", "1: fmt '2' must be up to 3 digits, each 0 or 1");
    expect_error(metis, "t.graph", "2 1\n2\n1\n1\n", "4: unexpected line after the 2 vertex lines");
    expect_error(metis, "t.graph", "x 1\n", "1: expected the vertex count (an integer), found 'x'");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mtx_bcsstk13), cmocka_unit_test(test_metis_samples),
        cmocka_unit_test(test_snap_samples), cmocka_unit_test(test_metis),
        cmocka_unit_test(test_dispatch),     cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
