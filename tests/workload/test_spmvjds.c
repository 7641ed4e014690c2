/* Parboil's JDS SpMV model (src/workload/kernels/spmvjds.c): the JDS arrays of a hand-made
 * matrix (length-sorted rows, per-group counts, diagonal starts, padding with index -1), the
 * addresses the warps load on the real bcsstk13.mtx (every slot of a thread's group length read
 * once from d_data and d_indices, its x_vec word gathered, padding reading x_vec[-1]), the
 * product bit for bit against a plain one, compute_active_thread's two block sizes, the generated
 * mesh's entry count, and the error on a non-square matrix. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "workload/graph/graphio.h"
#include "workload/kernels/kmodel.h"
#include "workload/workload.h"

#define MTX WS_SHARED_DATA "/graphs/suitesparse/bcsstk13.mtx"

static uint64_t up(uint64_t x) {
    return (x + DEVMEM_ALIGN - 1) & ~(uint64_t)(DEVMEM_ALIGN - 1);
}

/* Device addresses in cudaMalloc order for a matrix of dim rows, groups groups, len slots and
 * depth diagonals. */
struct lay {
    uint64_t data, index, ptr, perm, nzcnt, x, ax, cptr, czcnt;
};
static struct lay layout(uint64_t dim, uint64_t groups, uint64_t len, uint64_t depth) {
    struct lay l;
    uint64_t words = len > groups * 32 ? len : groups * 32;
    l.data = DEVMEM_BASE;
    l.index = up(l.data + 4 * words);
    l.ptr = up(l.index + 4 * words);
    l.perm = up(l.ptr + 4 * (depth + 1));
    l.nzcnt = up(l.perm + 4 * dim);
    l.x = up(l.nzcnt + up(4 * groups));
    l.ax = up(l.x + 4 * dim);
    l.cptr = up(l.ax + 4 * dim);
    l.czcnt = up(l.cptr + 4 * 5000);
    return l;
}

static struct devmem *dm(struct workload *w) {
    return ((struct km_workload *)w)->dm;
}

/* 40 x 40, row i < 38 holding i % 5 entries (columns i, i + 1, ..., values 1, 2, ...), rows 38
 * and 39 none. Sorted: 7 rows of 4, 7 of 3, 8 of 2, 8 of 1, then the empty ones in row order (the
 * 24 padding rows 40..63 last): group 0 is padded to 4 entries, group 1 (all empty) to 0, whose
 * threads still read slot ix of diagonal 0's range (prefetch 0). Checked slot by slot. */
static void test_hand_matrix(void **state) {
    (void)state;
    char text[4096];
    int n = 0, nnz = 0;
    for (int i = 0; i < 38; i++) nnz += i % 5;
    n += snprintf(text + n, sizeof text - (size_t)n,
                  "%%%%MatrixMarket matrix coordinate real general\n40 40 %d\n", nnz);
    for (int i = 0; i < 38; i++)
        for (int k = 0; k < i % 5; k++)
            n += snprintf(text + n, sizeof text - (size_t)n, "%d %d %d\n", i + 1, (i + k) % 40 + 1,
                          k + 1);
    const char *p = tu_tmpfile("hand.mtx", text);
    char ini[512];
    snprintf(ini, sizeof ini,
             "[workload]\nname = spmvjds\n[workload.spmvjds]\nmatrix = %s\niters = 1\n", p);
    struct workload *w = tu_workload(ini);
    struct ws_err e = {{0}};
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "spmv_jds");
    assert_int_equal(k.threads, 32); /* 64 padded rows fit on 30 SMs: a block per group */
    assert_int_equal(k.ncta, 2);
    int32_t order[64], o = 0;
    for (int c = 4; c >= 0; c--)
        for (int i = 0; i < 64; i++)
            if ((i < 38 ? i % 5 : 0) == c) order[o++] = i;
    assert_int_equal(o, 64);
    /* len = 4 diagonals x 32 slots of group 0 */
    struct lay l = layout(40, 2, 128, 4);
    const int32_t *perm = devmem_host(dm(w), l.perm, 4 * 40);
    const int32_t *zc = devmem_host(dm(w), l.czcnt, 8), *ptr = devmem_host(dm(w), l.cptr, 20);
    const int32_t *idx = devmem_host(dm(w), l.index, 4 * 128);
    const float *data = devmem_host(dm(w), l.data, 4 * 128);
    assert_non_null(perm);
    assert_non_null(idx);
    for (int ix = 0; ix < 40; ix++) assert_int_equal(perm[ix], order[ix]);
    assert_int_equal(zc[0], 4);
    assert_int_equal(zc[1], 0);
    for (int kk = 0; kk <= 4; kk++) assert_int_equal(ptr[kk], 32 * kk);
    for (int kk = 0; kk < 4; kk++)
        for (int ix = 0; ix < 32; ix++) {
            int row = order[ix], cnt = row < 38 ? row % 5 : 0;
            if (kk < cnt) {
                assert_int_equal(idx[32 * kk + ix], (row + kk) % 40);
                assert_true(data[32 * kk + ix] == (float)(kk + 1));
            } else {
                assert_int_equal(idx[32 * kk + ix], -1);
                assert_true(data[32 * kk + ix] == 0.0f);
            }
        }
    /* Run it: the host's spmv_jds (verify) and a plain product agree with what the warps wrote. */
    struct wl_warp *wp[1];
    struct inst in;
    uint64_t pad_reads = 0;
    for (uint64_t cta = 0; cta < k.ncta; cta++) {
        assert_int_equal(w->vt->cta_start(w, cta, wp, &e), 0);
        do {
            assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
            if (in.cls == OP_MEM && in.space == SPACE_GLOBAL)
                for (int ln = 0; ln < 32; ln++)
                    if (in.active >> ln & 1 && in.addr[ln] == l.x - 4) pad_reads++;
        } while (in.cls != OP_EXIT);
        w->vt->cta_end(w, cta, wp);
    }
    /* Group 0 reads its 4 x 32 slots, 55 of them padding (128 - 73 entries); the 8 threads of
     * group 1 below dim read slot ix (32..39) once. */
    /* (slots 32..39 are diagonal 1 of the first 8 sorted rows, all of 3 or 4 entries: real) */
    assert_int_equal(pad_reads, 55);
    assert_int_equal(w->vt->verify(w, &e), 0);
    const float *ax = devmem_host(dm(w), l.ax, 4 * 40);
    const float *x = devmem_host(dm(w), l.x, 4 * 40);
    for (int i = 0; i < 32; i++) {
        int row = order[i];
        float want = 0;
        for (int kk = 0; kk < row % 5; kk++) want = fmaf((float)(kk + 1), x[(row + kk) % 40], want);
        if (row < 38) assert_true(memcmp(&ax[row], &want, 4) == 0);
    }
    w->vt->destroy(w);
}

/* bcsstk13 (2003 x 2003, symmetric, expanded): loads per range and the product. */
static void test_bcsstk13(void **state) {
    (void)state;
    struct graph a;
    struct ws_err e = {{0}};
    assert_int_equal(graph_load(&a, MTX, &e), 0);
    char ini[512];
    snprintf(ini, sizeof ini,
             "[workload]\nname = spmvjds\n[workload.spmvjds]\nmatrix = %s\niters = 1\n", MTX);
    struct workload *w = tu_workload(ini);
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.threads, 32);
    assert_int_equal(k.ncta, 63);
    uint32_t maxd = 0;
    for (uint32_t i = 0; i < a.n; i++)
        if (a.degree[i] > maxd) maxd = a.degree[i];
    /* Group lengths from the sorted counts; the slots the threads of rows < dim read. */
    uint32_t *deg = malloc(2016 * sizeof *deg);
    for (uint32_t i = 0; i < 2016; i++) deg[i] = i < a.n ? a.degree[i] : 0;
    uint32_t *sorted = malloc(2016 * sizeof *sorted);
    memcpy(sorted, deg, 2016 * sizeof *sorted);
    for (uint32_t i = 1; i < 2016; i++) /* insertion sort, descending */
        for (uint32_t j = i; j > 0 && sorted[j - 1] < sorted[j]; j--) {
            uint32_t t = sorted[j];
            sorted[j] = sorted[j - 1], sorted[j - 1] = t;
        }
    uint64_t len = 0, reads = 0, pads = 0;
    for (uint32_t g = 0; g < 63; g++) len += 32ull * sorted[32 * g];
    for (uint32_t ix = 0; ix < a.n; ix++) {
        uint32_t b = sorted[ix / 32 * 32];
        reads += b, pads += b - sorted[ix];
    }
    struct lay l = layout(a.n, 63, len, maxd);
    uint64_t n_data = 0, n_index = 0, n_x = 0, n_pad = 0, n_st = 0;
    struct wl_warp *wp[1];
    struct inst in;
    for (uint64_t cta = 0; cta < k.ncta; cta++) {
        assert_int_equal(w->vt->cta_start(w, cta, wp, &e), 0);
        do {
            assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
            if (in.cls != OP_MEM || in.space != SPACE_GLOBAL) continue;
            for (int ln = 0; ln < 32; ln++) {
                if (!(in.active >> ln & 1)) continue;
                uint64_t ad = in.addr[ln];
                if (in.mop == MOP_STORE)
                    assert_true(ad >= l.ax && ad < l.ax + 4ull * a.n), n_st++;
                else if (ad >= l.data && ad < l.index)
                    n_data++;
                else if (ad >= l.index && ad < l.ptr)
                    n_index++;
                else if (ad >= l.x && ad < l.ax)
                    n_x++;
                else if (ad == l.x - 4)
                    n_pad++;
            }
        } while (in.cls != OP_EXIT);
        w->vt->cta_end(w, cta, wp);
    }
    assert_int_equal(n_data, reads);
    assert_int_equal(n_index, reads);
    assert_int_equal(n_x + n_pad, reads);
    assert_int_equal(n_pad, pads);
    assert_int_equal(n_st, a.n);
    assert_int_equal(w->vt->verify(w, &e), 0);
    /* Bit for bit a plain product in row order (each row's entries column-sorted in the file's
     * order, summed with fused multiply-adds from 0; padding adds 0 x 0). */
    const float *ax = devmem_host(dm(w), l.ax, 4ull * a.n);
    const float *x = devmem_host(dm(w), l.x, 4ull * a.n);
    for (uint32_t i = 0; i < a.n; i++) {
        float want = 0;
        for (uint32_t j = a.start[i]; j < a.start[i] + a.degree[i]; j++)
            want = fmaf(a.val[j], x[a.dest[j]], want);
        assert_true(memcmp(&ax[i], &want, 4) == 0);
    }
    w->vt->destroy(w);
    /* One SM: 2016 padded rows exceed 1536 threads, so 192-thread blocks. */
    snprintf(ini, sizeof ini,
             "[workload]\nname = spmvjds\n[workload.spmvjds]\nmatrix = %s\niters = 1\nsms = 1\n",
             MTX);
    w = tu_workload(ini);
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.threads, 192);
    assert_int_equal(k.ncta, 11);
    w->vt->destroy(w);
    /* By default the simulated GPU's SM count decides (deviceProp.multiProcessorCount); gpu.sms
     * is the GPU's key, so only a GPU would claim it. */
    snprintf(ini, sizeof ini,
             "[gpu]\nsms = 1\n[workload]\nname = spmvjds\n[workload.spmvjds]\nmatrix = %s\n"
             "iters = 1\n",
             MTX);
    struct cfg *c = tu_cfg(ini);
    w = workload_create(c, &e);
    assert_non_null(w);
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.threads, 192);
    w->vt->destroy(w);
    cfg_destroy(c);
    free(deg), free(sorted);
    graph_free(&a);
}

/* The generated mesh: with keep = 1 the full 5 x 5 stencil, (5 side - 6)^2 entries. */
static void test_mesh(void **state) {
    (void)state;
    struct workload *w = tu_workload(
        "[workload]\nname = spmvjds\n[workload.spmvjds]\nside = 8\nkeep = 1\niters = 2\n");
    struct ws_err e = {{0}};
    struct wl_count c;
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 2);
    assert_int_equal(c.ctas, 4);
    assert_int_equal(w->vt->verify(w, &e), 0);
    w->vt->destroy(w);
    w = tu_workload("[workload]\nname = spmvjds\n[workload.spmvjds]\nside = 8\nkeep = 1\n");
    uint64_t slots = 0;
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    for (uint32_t i = 0; i < k.ncopies; i++)
        if (i == 0) slots = k.copies[i].bytes / 4;
    /* A node at distance 0, 1, >= 2 from a side has 3, 4, 5 neighbours along that axis; its row
     * the product. Sorted: 16 x 25, 16 x 20 (group 0, 25 long), then 4 x 16, 16 x 15, 8 x 12,
     * 4 x 9 (group 1, 16 long). */
    assert_int_equal(slots, 25 * 32 + 16 * 32);
    uint64_t real = 0;
    const int32_t *idx = devmem_host(dm(w), DEVMEM_BASE + up(4 * slots), 4 * slots);
    for (uint64_t s = 0; s < slots; s++) real += idx[s] >= 0;
    assert_int_equal(real, 34 * 34);
    w->vt->destroy(w);
}

static void test_errors(void **state) {
    (void)state;
    const char *p = tu_tmpfile("rect.mtx", "%%MatrixMarket matrix coordinate real general\n"
                                           "2 3 1\n1 3 1.5\n");
    char ini[512];
    snprintf(ini, sizeof ini, "[workload]\nname = spmvjds\n[workload.spmvjds]\nmatrix = %s\n", p);
    tu_expect_workload_error(ini, "spmvjds: the matrix is 2 x 3; spmv_jds multiplies square "
                                  "matrices");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_matrix),
        cmocka_unit_test(test_bcsstk13),
        cmocka_unit_test(test_mesh),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
