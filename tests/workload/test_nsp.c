/* LonestarGPU survey propagation model (src/workload/kernels/nsp.c): the kernel sequence of the
 * host loop (converge pairs, update_bias, decimate_2), the launch shape, coalesced edge-array
 * loads and scattered per-variable walks, exact instruction counts of warps with no work,
 * update_bias's one atomicAdd per free variable, and eta and the satisfied clauses equal to the
 * host's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "workload/workload.h"

#define SMALL(extra)                                                                               \
    "[workload]\nname = nsp\n[workload.nsp]\nvars = 10\nclauses = 20\nblocks = 1\n" extra

/* g_max_eps and g_summag (256 B each), the clause graph: row_offsets 84 B, columns 240 B,
 * sat 20 B, bias 80 B, value 20 B (256 B each); the variable graph: row_offsets 44 B. */
enum {
    VRO = 0xC0000000 + 2 * 256 + 5 * 256,
    VCOL = VRO + 256,
    ESRC = VCOL + 4 * 256,
    EDST = ESRC + 256
};

static void test_first_kernels(void **state) {
    (void)state;
    struct workload *w = tu_workload(SMALL("maxiter = 0\nrounds = 0\n"));
    struct ws_err e = {{0}};
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "calc_pi_values");
    assert_int_equal(k.block[0], 384);
    assert_int_equal(k.grid[0], 1);
    assert_int_equal(k.ncopies, 17);
    assert_int_equal(k.copies[5].addr, VRO);
    struct wl_warp *wp[12];
    struct inst in;
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    int mem = 0;
    do { /* warp 0: edges 0..31: dst then src, coalesced */
        assert_int_equal(w->vt->warp_next(w, wp[0], &in, &e), 0);
        if (in.cls == OP_MEM && mem++ < 2) {
            assert_int_equal(in.active, 0xffffffffu);
            for (int l = 0; l < 32; l++)
                assert_int_equal(in.addr[l], (mem == 1 ? EDST : ESRC) + 4 * l);
        }
    } while (in.cls != OP_EXIT);
    for (int i = 1; i < 12; i++) {
        int n = 0;
        do {
            assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0);
            n++;
        } while (in.cls != OP_EXIT);
        /* 60 edges: warp 1 has 28 lanes of work; warps 2..11 test the bound once and exit */
        if (i >= 2) assert_int_equal(n, 7);
    }
    w->vt->cta_end(w, 0, wp);
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "update_eta");
    assert_int_equal(k.ncopies, 1); /* max_eps = 0 */
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    for (int i = 0; i < 12; i++) do
            assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0);
        while (in.cls != OP_EXIT);
    w->vt->cta_end(w, 0, wp);
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0); /* maxiter 0: one pair */
    int rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    w->vt->destroy(w);
}

/* The whole host loop at the test size: converge pairs until max eps <= 0.01, update_bias,
 * decimate_2, converge again; eta and the satisfied clauses match the host. */
static void test_rounds(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = nsp\n");
    struct ws_err e = {{0}};
    struct kernel_desc k;
    char seq[256] = "";
    int n = 0, rc;
    struct wl_warp *wp[12];
    struct inst in;
    uint64_t atomics = 0;
    while ((rc = w->vt->next_kernel(w, &k, &e)) == 1) {
        char c = k.name[0] == 'c' ? 'p' : k.name[0] == 'd' ? 'd' : k.name[7] == 'e' ? 'e' : 'b';
        if (n < 255) seq[n++] = c;
        for (uint64_t cta = 0; cta < k.ncta; cta++) {
            assert_int_equal(w->vt->cta_start(w, cta, wp, &e), 0);
            /* two passes: up to the one bar.sync (update_bias's block sum), then to EXIT */
            uint8_t last[12] = {0};
            for (int pass = 0; pass < 2; pass++)
                for (int i = 0; i < 12; i++) {
                    if (last[i] == OP_EXIT) continue;
                    do {
                        assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0);
                        if (c == 'b' && in.cls == OP_MEM && in.mop == MOP_ATOMIC && pass == 0)
                            atomics += (uint64_t)__builtin_popcount(in.active);
                    } while (in.cls != OP_EXIT && in.cls != OP_BAR);
                    last[i] = in.cls;
                }
            w->vt->cta_end(w, cta, wp);
        }
    }
    assert_int_equal(rc, 0);
    seq[n] = 0;
    /* (pe)+ b d (pe)+ */
    const char *b = strchr(seq, 'b');
    assert_non_null(b);
    assert_int_equal(b[1], 'd');
    assert_true(b > seq && b[-1] == 'e');
    for (const char *p = seq; p < b; p += 2) assert_true(p[0] == 'p' && p[1] == 'e');
    for (const char *p = b + 2; *p; p += 2) assert_true(p[0] == 'p' && p[1] == 'e');
    assert_int_equal(atomics, 100); /* every variable is free in round 1 */
    rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_kernels),
        cmocka_unit_test(test_rounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
