/* SHOC SpMV model (src/workload/kernels/spmv.c) on the real bcsstk13.mtx (Matrix Market,
 * symmetric, expanded) and on SHOC's random matrix: each lane's cols/val/vec addresses are its
 * row's entries, out equals the host product (bit for bit in the kernel's order, and close to a
 * double-precision one), for the scalar and the vector kernel. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "testutil.h"
#include "workload/graph/graphio.h"
#include "workload/kernels/kmodel.h"
#include "workload/workload.h"

#define MTX WS_SHARED_DATA "/graphs/suitesparse/bcsstk13.mtx"

static uint64_t up(uint64_t x) {
    return (x + DEVMEM_ALIGN - 1) & ~(uint64_t)(DEVMEM_ALIGN - 1);
}

struct range {
    uint64_t lo, hi, n, sum;
};

/* Runs the current launch, counting active-lane global accesses (and address sums) per range. */
static void run_launch(struct workload *w, const struct kernel_desc *k, struct range *r, int nr) {
    struct wl_warp *wp[4];
    struct ws_err e = {{0}};
    struct inst in;
    for (uint64_t cta = 0; cta < k->ncta; cta++) {
        assert_int_equal(w->vt->cta_start(w, cta, wp, &e), 0);
        for (uint32_t i = 0; i < k->threads / 32; i++) do {
                assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0);
                if (in.cls != OP_MEM || in.space != SPACE_GLOBAL) continue;
                for (int l = 0; l < 32; l++)
                    for (int j = 0; in.active >> l & 1 && j < nr; j++)
                        if (in.addr[l] >= r[j].lo && in.addr[l] < r[j].hi)
                            r[j].n++, r[j].sum += in.addr[l];
            } while (in.cls != OP_EXIT);
        w->vt->cta_end(w, cta, wp);
    }
}

static void check_mtx(const char *kernel) {
    struct graph a;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load(&a, MTX, &e), 0);
    /* vec: the workload's first draws from workload.seed (the file supplies val). */
    float *vec = malloc(a.ncols * sizeof *vec);
    struct ws_rng rng;
    ws_rng_seed(&rng, 3);
    for (uint32_t j = 0; j < a.ncols; j++) vec[j] = (float)(10.0 * ws_rng_unit(&rng));
    char ini[512];
    snprintf(ini, sizeof ini,
             "[workload]\nname = spmv\nseed = 3\n[workload.spmv]\nmatrix = %s\nkernel = %s\n", MTX,
             kernel);
    struct workload *w = tu_workload(ini);
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    bool scalar = strcmp(kernel, "scalar") == 0;
    assert_string_equal(k.name, scalar ? "spmv_csr_scalar_kernel" : "spmv_csr_vector_kernel");
    assert_int_equal(k.threads, 128);
    assert_int_equal(k.ncta, scalar ? (2003 + 127) / 128 : (2003 + 3) / 4);
    /* csrTest's cudaMalloc order: val, cols, vec, out, rowDelimiters. */
    uint64_t val = DEVMEM_BASE, cols = up(val + 4ull * a.m), vaddr = up(cols + 4ull * a.m),
             out = up(vaddr + 4ull * a.ncols), rows = up(out + 4ull * a.n);
    assert_int_equal(k.ncopies, 4);
    assert_int_equal(k.copies[0].addr, val);
    assert_int_equal(k.copies[2].addr, rows);
    struct range r[4] = {
        {val, cols, 0, 0}, {cols, vaddr, 0, 0}, {vaddr, out, 0, 0}, {out, rows, 0, 0}};
    run_launch(w, &k, r, 4);
    uint64_t vsum = 0, jsum = 0;
    for (uint32_t j = 0; j < a.m; j++) vsum += vaddr + 4ull * a.dest[j], jsum += 4ull * j;
    /* Every stored entry is read once from val and cols and gathers its vec word. */
    assert_int_equal(r[0].n, a.m);
    assert_int_equal(r[0].sum, a.m * val + jsum);
    assert_int_equal(r[1].n, a.m);
    assert_int_equal(r[1].sum, a.m * cols + jsum);
    assert_int_equal(r[2].n, a.m);
    assert_int_equal(r[2].sum, vsum);
    assert_int_equal(r[3].n, a.n); /* one store per row */
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0);
    assert_int_equal(w->vt->verify(w, &e), 0); /* bit for bit, in the kernel's order */
    /* And against a double-precision product computed here. */
    const float *got = devmem_host(((struct km_workload *)w)->dm, out, 4ull * a.n);
    for (uint32_t i = 0; i < a.n; i++) {
        double want = 0, mag = 0;
        for (uint32_t j = a.start[i]; j < a.start[i] + a.degree[i]; j++)
            want += (double)a.val[j] * vec[a.dest[j]],
                mag += fabs((double)a.val[j] * vec[a.dest[j]]);
        assert_true(fabs(got[i] - want) <= 1e-5 * mag + 1e-30);
    }
    w->vt->destroy(w);
    free(vec);
    graph_free(&a);
}

static void test_mtx_scalar(void **state) {
    (void)state;
    check_mtx("scalar");
}

static void test_mtx_vector(void **state) {
    (void)state;
    check_mtx("vector");
}

/* SHOC's random matrix at the test size: 1024 rows, 1% dense, deterministic by seed. */
static void test_random_matrix(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = spmv\n");
    struct wl_count c, c2;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 1);
    assert_int_equal(c.ctas, 8);
    assert_int_equal(c.insts, 6048);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
    w = tu_workload("[workload]\nname = spmv\n");
    assert_int_equal(workload_count(w, &c2, &e), 0);
    assert_int_equal(c2.thread_insts, c.thread_insts);
    w->vt->destroy(w);
    /* Two launches compute the same out; the vector kernel gets a block per 4 rows. */
    w = tu_workload("[workload]\nname = spmv\n[workload.spmv]\niters = 2\nkernel = vector\n");
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 2);
    assert_int_equal(c.ctas, 2 * 256);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
}

static void test_bad_file(void **state) {
    (void)state;
    const char *p = tu_tmpfile("bad.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n"
                                          "1 3 1.5\n");
    char ini[512];
    snprintf(ini, sizeof ini, "[workload]\nname = spmv\n[workload.spmv]\nmatrix = %s\n", p);
    struct cfg *c = tu_cfg(ini);
    struct ws_err e = {{0}};
    assert_null(workload_create(c, &e));
    char want[600];
    snprintf(want, sizeof want, "%s:3: the column index = 3 is out of range [1, 2]", p);
    assert_string_equal(e.msg, want);
    cfg_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mtx_scalar),
        cmocka_unit_test(test_mtx_vector),
        cmocka_unit_test(test_random_matrix),
        cmocka_unit_test(test_bad_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
