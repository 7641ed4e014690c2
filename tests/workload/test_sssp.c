/* LonestarGPU SSSP model (src/workload/kernels/sssp.c) on real graphs from files: the distances
 * equal a host Dijkstra, and launch by launch the warps touch exactly the dist[] words, edges and
 * atomicMin targets that a host replay of drelax's lock-step order implies; generated inputs;
 * errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "testutil.h"
#include "workload/graph/graphio.h"
#include "workload/workload.h"

#define GDIR  WS_SHARED_DATA "/graphs"
#define INF   1000000000u
#define BLOCK 1024

/* What one launch touched inside a range: lane accesses and the sum of their addresses, by
 * kind (stores are counted everywhere). */
struct touch {
    uint64_t loads, load_sum, atomics, atomic_sum, stores;
};

static void add(struct touch *t, const struct inst *in, int l, uint64_t lo, uint64_t hi) {
    if (in->addr[l] < lo || in->addr[l] >= hi) return;
    if (in->mop == MOP_LOAD) t->loads++, t->load_sum += in->addr[l];
    if (in->mop == MOP_ATOMIC) t->atomics++, t->atomic_sum += in->addr[l];
}

/* Runs the current launch (CTAs and warps in order, as workload_count does), recording touches
 * of dist[] ([dlo, dhi)) into *d and of edgessrcdst[] ([elo, ehi)) into *ed. */
static void run_launch(struct workload *w, const struct kernel_desc *k, uint64_t dlo, uint64_t dhi,
                       struct touch *d, uint64_t elo, uint64_t ehi, struct touch *ed) {
    struct wl_warp *wp[BLOCK / 32];
    struct ws_err e = {{0}};
    struct inst in;
    memset(d, 0, sizeof *d);
    memset(ed, 0, sizeof *ed);
    uint32_t nw = (k->threads + 31) / 32;
    for (uint64_t cta = 0; cta < k->ncta; cta++) {
        assert_int_equal(w->vt->cta_start(w, cta, wp, &e), 0);
        for (uint32_t i = 0; i < nw; i++) do {
                assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0);
                if (in.cls != OP_MEM) continue;
                for (int l = 0; l < 32; l++) {
                    if (!(in.active >> l & 1)) continue;
                    if (in.mop == MOP_STORE) d->stores++;
                    add(d, &in, l, dlo, dhi);
                    add(ed, &in, l, elo, ehi);
                }
            } while (in.cls != OP_EXIT);
        w->vt->cta_end(w, cta, wp);
    }
}

/* drelax replayed on the host in the model's order: warps in launch order; within a warp, edge
 * k of every lane that has one, lock-step: all dist[src] loads, all dist[dst] loads, then the
 * atomicMins of the improving lanes in lane order. Returns whether anything changed. */
static bool host_relax(const struct graph *g, uint32_t *dist, uint64_t dbase, struct touch *t) {
    memset(t, 0, sizeof *t);
    bool changed = false;
    uint64_t alt[32], dd[32];
    for (uint32_t w0 = 0; w0 < g->n; w0 += 32) {
        uint32_t lanes = g->n - w0 < 32 ? g->n - w0 : 32, maxd = 0, lowered = 0;
        for (uint32_t l = 0; l < lanes; l++)
            if (g->degree[w0 + l] > maxd) maxd = g->degree[w0 + l];
        for (uint32_t k = 0; k < maxd; k++) {
            for (uint32_t l = 0; l < lanes; l++)
                if (k < g->degree[w0 + l])
                    alt[l] = (uint64_t)dist[w0 + l] + g->weight[g->start[w0 + l] + k];
            for (uint32_t l = 0; l < lanes; l++)
                if (k < g->degree[w0 + l]) dd[l] = dist[g->dest[g->start[w0 + l] + k]];
            for (uint32_t l = 0; l < lanes; l++) {
                if (k >= g->degree[w0 + l] || alt[l] >= dd[l]) continue;
                uint32_t v = g->dest[g->start[w0 + l] + k];
                t->atomics++, t->atomic_sum += dbase + 4ull * v;
                if (alt[l] < dist[v])
                    dist[v] = (uint32_t)alt[l], changed = true, lowered |= 1u << l;
            }
        }
        t->stores += (uint64_t)__builtin_popcount(lowered); /* *changed, once per such node */
    }
    return changed;
}

/* The whole run, launch by launch, against the host replay; then verify (Dijkstra). Returns the
 * number of drelax launches. */
static uint32_t check_against_host(struct workload *w, const struct graph *g) {
    struct kernel_desc k;
    struct ws_err e = {{0}};
    struct touch got, edges, want;
    /* initialize: one store of MYINFINITY per node, after the graph's 6 copies. */
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "initialize");
    assert_int_equal(k.ncopies, 6);
    uint64_t ebase = k.copies[0].addr; /* edgessrcdst, entry 0 the null edge */
    assert_int_equal(k.copies[0].bytes, 4ull * (g->m + 1));
    run_launch(w, &k, 0, 0, &got, 0, 0, &edges);
    assert_int_equal(got.stores, g->n);
    uint32_t *dist = malloc(g->n * sizeof *dist);
    for (uint32_t i = 0; i < g->n; i++) dist[i] = INF;
    dist[g->source] = 0;
    /* Per drelax launch, every edge j = (u, v) loads dist[u], dist[v] and edgessrcdst[j + 1]. */
    uint64_t dsum = 0, esum = 0;
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t j = g->start[u]; j < g->start[u] + g->degree[u]; j++)
            dsum += 4ull * u + 4ull * g->dest[j], esum += ebase + 4ull * (j + 1);
    uint64_t dbase = 0;
    uint32_t launches = 0;
    bool more = true;
    while (more) {
        assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
        assert_string_equal(k.name, "drelax");
        if (launches == 0) { /* dist[source] = 0, then changed = false */
            assert_int_equal(k.ncopies, 2);
            assert_int_equal(k.copies[0].bytes, 4);
            dbase = k.copies[0].addr - 4ull * g->source;
        } else {
            assert_int_equal(k.ncopies, 1);
        }
        more = host_relax(g, dist, dbase, &want);
        run_launch(w, &k, dbase, dbase + 4ull * g->n, &got, ebase, ebase + 4ull * (g->m + 1),
                   &edges);
        assert_int_equal(got.loads, 2ull * g->m);
        assert_int_equal(got.load_sum, 2ull * g->m * dbase + dsum);
        assert_int_equal(edges.loads, g->m);
        assert_int_equal(edges.load_sum, esum);
        assert_int_equal(got.atomics, want.atomics);
        assert_int_equal(got.atomic_sum, want.atomic_sum);
        assert_int_equal(got.stores, want.stores);
        launches++;
    }
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0); /* the last launch changed nothing */
    assert_int_equal(w->vt->verify(w, &e), 0);
    /* The replay's final distances are Dijkstra's too. */
    uint64_t *want_d = malloc(g->n * sizeof *want_d);
    graph_sssp(g, g->source, want_d);
    for (uint32_t i = 0; i < g->n; i++)
        assert_int_equal(dist[i], want_d[i] == GRAPH_UNREACHED ? INF : want_d[i]);
    free(want_d);
    free(dist);
    return launches;
}

static void test_rodinia_file(void **state) {
    (void)state;
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load(&g, GDIR "/rodinia-bfs/graph4096.txt", &e), 0);
    struct workload *w = tu_workload("[workload]\nname = sssp\n[workload.graph]\npath = " GDIR
                                     "/rodinia-bfs/graph4096.txt\n");
    uint32_t launches = check_against_host(w, &g);
    assert_int_equal(launches, 10);
    w->vt->destroy(w);
    /* The distances themselves, against Dijkstra here too. */
    uint64_t *d = malloc(g.n * sizeof *d);
    assert_int_equal(graph_sssp(&g, 0, d), 4096);
    graph_free(&g);
    free(d);
}

/* A SNAP file has no weights: the workload draws them from workload.seed (1..max_weight). */
static void test_snap_file(void **state) {
    (void)state;
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load(&g, GDIR "/snap/CA-HepTh.txt", &e), 0);
    struct ws_rng r;
    ws_rng_seed(&r, 7);
    for (uint32_t j = 0; j < g.m; j++) g.weight[j] = 1 + (uint32_t)ws_rng_below(&r, 20);
    struct workload *w =
        tu_workload("[workload]\nname = sssp\nseed = 7\n[workload.graph]\npath = " GDIR
                    "/snap/CA-HepTh.txt\nmax_weight = 20\n");
    uint32_t launches = check_against_host(w, &g);
    w->vt->destroy(w);
    /* CA-HepTh is not connected: node 0's component only. */
    uint64_t *d = malloc(g.n * sizeof *d);
    uint32_t reached = graph_sssp(&g, 0, d);
    assert_true(reached > 1 && reached < g.n);
    assert_true(launches >= 3);
    free(d);
    graph_free(&g);
}

/* A weighted METIS file written here: 0-1 (5), 1-2 (7), 0-2 (20): dist = 0, 5, 12. */
static void test_metis_file(void **state) {
    (void)state;
    const char *p = tu_tmpfile("w.graph", "3 3 1\n2 5 3 20\n1 5 3 7\n2 7 1 20\n");
    char ini[512];
    snprintf(ini, sizeof ini, "[workload]\nname = sssp\n[workload.graph]\npath = %s\n", p);
    struct graph g;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load(&g, p, &e), 0);
    struct workload *w = tu_workload(ini);
    /* Lock-step: edge 0 of every lane sets dist[1] = 5; in edge 1, lane 0 offers 20 and lane 1
     * (dist[1] already 5) offers 12 to node 2 in one atomicMin: one launch, then a quiet one. */
    assert_int_equal(check_against_host(w, &g), 2);
    w->vt->destroy(w);
    uint64_t d[3];
    graph_sssp(&g, 0, d);
    assert_int_equal(d[1], 5);
    assert_int_equal(d[2], 12);
    graph_free(&g);
}

/* The test size (uniform, 2^14 nodes, degree 4, seed 1) and a grid, with exact totals. The number
 * of sweeps depends on the order in which warps run (an atomicMin seen early saves a sweep), so
 * these are workload_count's (CTAs and warps in order); a timed run may need more. */
static void test_generated(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = sssp\n");
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 14); /* initialize + 13 drelax, in workload_count's order */
    assert_int_equal(c.insts, 2261440);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
    /* A 16 x 16 grid: Bellman-Ford needs about as many sweeps as hops on the longest path. */
    w = tu_workload("[workload]\nname = sssp\n[workload.graph]\ngen = grid\nnodes = 256\n");
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 17);
    assert_int_equal(c.insts, 23976);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

static void test_errors(void **state) {
    (void)state;
    const char *p =
        tu_tmpfile("r.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 3 1\n1 3\n");
    char ini[512];
    snprintf(ini, sizeof ini, "[workload]\nname = sssp\n[workload.graph]\npath = %s\n", p);
    struct cfg *c = tu_cfg(ini);
    struct ws_err e = {{0}};
    assert_null(workload_create(c, &e));
    assert_string_equal(e.msg, "sssp: the matrix is 2 x 3; a graph needs a square one");
    cfg_destroy(c);
    p = tu_tmpfile("bad.graph", "2 1\n2\n3\n");
    snprintf(ini, sizeof ini, "[workload]\nname = sssp\n[workload.graph]\npath = %s\n", p);
    c = tu_cfg(ini);
    assert_null(workload_create(c, &e));
    char want[600];
    snprintf(want, sizeof want, "%s:3: neighbour 3 of vertex 2 is out of range [1, 2]", p);
    assert_string_equal(e.msg, want);
    cfg_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rodinia_file), cmocka_unit_test(test_snap_file),
        cmocka_unit_test(test_metis_file),   cmocka_unit_test(test_generated),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
