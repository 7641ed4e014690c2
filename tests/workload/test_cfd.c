/* Rodinia CFD (euler3d) model (src/workload/kernels/cfd.c): the launch sequence (initialize, then
 * per iteration step_factor and 3 x flux + time_step), element-major coalesced loads, the
 * neighbour gathers at the neighbours' indices (checked with a self-neighbour mesh and within the
 * locality window), exact load/store counts per kernel counted by hand, and the variables,
 * fluxes and step factors equal to the host's. */
#include "km_sync.h"

/* 200 elements -> nelr 384: areas 1536 B, neighbours 6144, normals 18432, variables next. */
enum { AREA = 0xC0000000, ESE = AREA + 1536, NORM = ESE + 6144, VAR = NORM + 18432, NELR = 384 };

static void gathers(const char *ini, int64_t window) {
    struct workload *w = tu_workload(ini);
    struct kernel_desc k;
    struct ws_err e = {{0}};
    const char *names[8] = {"cuda_initialize_variables", "cuda_compute_step_factor",
                            "cuda_compute_flux",         "cuda_time_step",
                            "cuda_compute_flux",         "cuda_time_step",
                            "cuda_compute_flux",         "cuda_time_step"};
    for (int i = 0; i < 8; i++) {
        assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
        assert_string_equal(k.name, names[i]);
        assert_int_equal(k.grid[0], 2);
        assert_int_equal(k.threads, 192);
        assert_int_equal(k.ncopies, i == 0 ? 3 : 0);
        struct wl_warp *wp[6];
        struct inst in;
        for (uint64_t cta = 0; cta < 2; cta++) {
            assert_int_equal(w->vt->cta_start(w, cta, wp, &e), 0);
            for (int wi = 0; wi < 6; wi++) {
                int n = 0;
                uint32_t base = (uint32_t)(192 * cta + 32 * wi);
                do {
                    assert_int_equal(w->vt->warp_next(w, wp[wi], &in, &e), 0);
                    if (in.cls != OP_MEM || in.mop != MOP_LOAD) continue;
                    n++;
                    if (i != 2) continue;
                    /* flux: 5 own variables, then per face nb, 3 normals, 5 neighbour variables */
                    int f = (n - 6) / 9, r = (n - 6) % 9;
                    if (n <= 5 || r < 4) {
                        uint64_t want =
                            n <= 5   ? VAR + 4 * (base + (uint64_t)(n - 1) * NELR)
                            : r == 0 ? ESE + 4 * (base + (uint64_t)f * NELR)
                                     : NORM + 4 * (base + (uint64_t)(f + 4 * (r - 1)) * NELR);
                        for (int l = 0; l < 32; l++) assert_int_equal(in.addr[l], want + 4 * l);
                        continue;
                    }
                    for (int l = 0; l < 32; l++) {
                        if (!(in.active >> l & 1)) continue;
                        int64_t nb = (int64_t)(in.addr[l] - VAR) / 4 - (int64_t)(r - 4) * NELR;
                        int64_t self = base + l < 200 ? base + l : 199;
                        assert_true(nb >= self - window && nb <= self + window);
                    }
                } while (in.cls != OP_EXIT);
                if (i == 2) assert_int_equal(n, 5 + 4 * 9);
            }
            w->vt->cta_end(w, cta, wp);
        }
    }
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0);
    w->vt->destroy(w);
}

static void test_launches_and_gathers(void **state) {
    (void)state;
    gathers("[workload]\nname = cfd\n[workload.cfd]\nelements = 200\nwindow = 0\n", 0);
    gathers("[workload]\nname = cfd\n[workload.cfd]\nelements = 200\nwindow = 50\n", 50);
}

static void test_counts_and_result(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = cfd\n[workload.cfd]\nelements = 200\n");
    const char *names[] = {"cuda_initialize_variables", "cuda_compute_step_factor",
                           "cuda_compute_flux", "cuda_time_step"};
    struct ks_count c[4];
    ks_run(w, names, 4, c);
    ks_verify(w);
    w->vt->destroy(w);
    /* 12 warps per launch. initialize: 5 stores. step_factor: 5 variables + area, 1 store.
     * flux (3 launches): 5 + 4 x (neighbour, 3 normals, 5 neighbour variables: every warp has a
     * non-wing lane on every face), 5 stores. time_step (3): step factor + 5 x (old, flux), 5
     * stores. */
    assert_int_equal(c[0].gst, 12 * 5);
    assert_int_equal(c[0].gld, 0);
    assert_int_equal(c[1].gld, 12 * 6);
    assert_int_equal(c[1].gst, 12);
    assert_int_equal(c[2].launches, 3);
    assert_int_equal(c[2].gld, 3 * 12 * 41);
    assert_int_equal(c[2].gst, 3 * 12 * 5);
    assert_int_equal(c[3].launches, 3);
    assert_int_equal(c[3].gld, 3 * 12 * 11);
    assert_int_equal(c[3].gst, 3 * 12 * 5);
    /* Two iterations at the test size check too. */
    w = tu_workload("[workload]\nname = cfd\n[workload.cfd]\niters = 2\n");
    ks_run(w, names, 4, c);
    assert_int_equal(c[2].launches, 6);
    assert_int_equal(c[2].ctas, 6 * 11); /* 2000 elements -> 2112 = 11 blocks */
    ks_verify(w);
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launches_and_gathers),
        cmocka_unit_test(test_counts_and_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
