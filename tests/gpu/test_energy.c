/* The GPU energy model (src/gpu/energy.c): each part is its count times its per-event energy
 * times the technology scale, DRAM energy passes through from the DRAM power model, static
 * energy is power x simulated time, and the totals follow; then a whole run's parts add up and
 * its static part is the preset's static power times its simulated time. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/energy.h"
#include "testutil.h"
#include "workload/workload.h"

static void near(double got, double want) {
    if (fabs(got - want) > 1e-12 * (fabs(want) + 1e-30))
        fail_msg("got %.17g, want %.17g", got, want);
}

static struct energy_cfg defaults(const char *extra) {
    char ini[512];
    snprintf(ini, sizeof ini, "[energy]\n%s", extra);
    struct cfg *c = tu_cfg(ini);
    struct energy_cfg ec;
    memset(&ec, 0, sizeof ec);
    struct ws_err e = {{0}};
    assert_int_equal(energy_cfg_configure(&ec, c, &e), 0);
    cfg_destroy(c);
    return ec;
}

static void test_parts(void **state) {
    (void)state;
    struct energy_cfg ec = defaults("scale = 0.5\nstatic_w = 10\n");
    struct energy_events ev;
    memset(&ev, 0, sizeof ev);
    ev.warp_insts = 100;
    ev.lanes[OP_SP] = 3200; /* 100 FFMA warps */
    ev.lanes[OP_MEM] = 64;  /* two memory warps */
    ev.lanes[OP_EXIT] = 32;
    ev.rf_accesses = 10000;
    ev.l1_accesses = 7;
    ev.smem_cycles = 3;
    ev.l2_accesses = 5;
    ev.flits = 11;
    ev.dram_nj = 250;
    ev.seconds = 2e-6;
    struct energy_result r;
    energy_compute(&ec, &ev, &r);
    /* defaults: issue 30, lane 40, sp 4.6, mem 3.2, branch 0.1, rf 5, l1 80, smem 160, l2 400,
     * flit 250 pJ; everything dynamic x 0.5 */
    double core = 100 * 30 + 3200 * (4.6 + 40) + 64 * (3.2 + 40) + 32 * (0.1 + 40);
    near(r.core_j, core * 0.5e-12);
    near(r.rf_j, 10000 * 5 * 0.5e-12);
    near(r.cache_j, (7 * 80 + 3 * 160 + 5 * 400) * 0.5e-12);
    near(r.noc_j, 11 * 250 * 0.5e-12);
    near(r.dram_j, 250e-9);
    near(r.static_j, 10 * 2e-6);
    double total = r.core_j + r.rf_j + r.cache_j + r.noc_j + r.dram_j + r.static_j;
    near(r.total_j, total);
    near(r.power_w, total / 2e-6);
    near(r.edp_js, total * 2e-6);
    /* scale 0 leaves DRAM and static only */
    ec.scale = 0;
    energy_compute(&ec, &ev, &r);
    near(r.total_j, 250e-9 + 10 * 2e-6);
}

static void test_bad_key(void **state) {
    (void)state;
    struct cfg *c = tu_cfg("[energy]\nstatic_w = -1\n");
    struct energy_cfg ec;
    struct ws_err e = {{0}};
    assert_int_not_equal(energy_cfg_configure(&ec, c, &e), 0);
    assert_non_null(strstr(e.msg, "static_w"));
    cfg_destroy(c);
}

/* A run's JSON: the parts sum to the total, static energy is static_w x cycles / core clock,
 * cache energy counts the lookups served. */
static void test_run_sums(void **state) {
    (void)state;
    const char *json = tu_tmpfile("energy.json", "");
    char args[512], *out = NULL;
    snprintf(
        args, sizeof args,
        "run -c gtx480 -w vecadd --set workload.vecadd.n=8192 --set gpu.warm_l2=false -q -o %s",
        json);
    assert_int_equal(tu_run_cli(args, &out), 0);
    free(out);
    char *t = tu_slurp(json, NULL);
    assert_non_null(t);
    double v[9];
    static const char *const k[9] = {
        "\"energy_j\":",        "\"energy_core_j\":", "\"energy_rf_j\":",
        "\"energy_cache_j\":",  "\"energy_noc_j\":",  "\"energy_dram_j\":",
        "\"energy_static_j\":", "\"cycles\":",        "\"power_w\":"};
    for (int i = 0; i < 9; i++) {
        const char *p = strstr(t, k[i]);
        assert_non_null(p);
        v[i] = strtod(p + strlen(k[i]), NULL);
    }
    double parts = v[1] + v[2] + v[3] + v[4] + v[5] + v[6];
    assert_true(fabs(parts - v[0]) <= 1e-9 * v[0]);
    assert_true(v[5] > 0 && v[1] > 0 && v[4] > 0);
    /* gtx480: static_w 59 W, core clock 1400 MHz */
    double secs = v[7] / 1400e6;
    assert_true(fabs(v[6] - 59 * secs) <= 1e-6 * v[6]);
    assert_true(fabs(v[8] - v[0] / secs) <= 1e-6 * v[8]);
    /* caches: served lookups only (vector add has no shared memory; gtx480's energy.scale is
     * 0.9); this run's L2 turns lookups back for want of a fetch slot, and those are retried */
    double n[4];
    static const char *const ck[4] = {
        "\"l1_accesses\":", "\"l1_resfails\":", "\"l2_accesses\":", "\"l2_resfails\":"};
    for (int i = 0; i < 4; i++) {
        const char *p = strstr(t, ck[i]);
        assert_non_null(p);
        n[i] = strtod(p + strlen(ck[i]), NULL);
    }
    assert_true(n[3] > 0);
    double cache = ((n[0] - n[1]) * 80 + (n[2] - n[3]) * 400) * 0.9e-12;
    assert_true(fabs(v[3] - cache) <= 1e-9 * cache);
    free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_bad_key),
        cmocka_unit_test(test_run_sums),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
