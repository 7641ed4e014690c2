/* Seed 001's intra-warp L1D set concentration (Eq. 3.1, core.conc_*, summary l1_concentration)
 * of the PolyBench kernel models, simulated on its machine (gtx480 preset: 32-set L1D, 128-byte
 * lines) with the conventional (linear) index. Dimensions that only set trip counts are cut
 * (32 threads on the divergent side) so the runs take a second; the strides are the seeds':
 * ATAX and BICG rows of 8K floats (2^15 B) put a divergent load's 32 lines in one set
 * (concentration 32), SYRK's M = 512 (2^11 B) in 2 sets (16), SYR2K's M = 256 (2^10 B) in 4 (8).
 * Every other load is one line (concentration 1), so the sum over loads is exactly
 * 32000, 16000 or 8000 per divergent load plus 1000 per other load (in thousandths). */
#include "../gpu/gpu_harness.h"

static uint64_t core_stat(const struct result *r, const char *key) {
    json_error_t err;
    json_t *j = json_loads(r->json, 0, &err);
    assert_non_null(j);
    json_t *v = json_object_get(json_object_get(j, "core"), key);
    uint64_t x = v ? (uint64_t)json_integer_value(v) : UINT64_MAX;
    json_decref(j);
    return x;
}

static void check(const char *wl, const char *sets, uint64_t loads, uint64_t div, uint64_t conc) {
    struct result r;
    memset(&r, 0, sizeof r);
    char buf[512];
    snprintf(buf, sizeof buf, "l1d.index=linear;%s", sets);
    must_run("gtx480", wl, buf, &r);
    assert_int_equal(core_stat(&r, "conc_loads"), loads);
    assert_int_equal(core_stat(&r, "conc_milli"), 1000 * conc * div + 1000 * (loads - div));
    assert_true(r.s.l1_concentration ==
                (double)(1000 * conc * div + 1000 * (loads - div)) / 1000.0 / (double)loads);
    free(r.json);
}

static void test_atax_bicg(void **state) {
    (void)state;
    /* ATAX nx 32, ny 8192: kernel1 1 warp loads tmp once, then A (divergent) and x per column;
     * kernel2 256 warps load y once, then A and tmp per row (32 rows). */
    check("atax", "workload.atax.nx=32;workload.atax.ny=8192", 1 + 2 * 8192 + 256 * (1 + 2 * 32),
          8192, 32);
    /* BICG: kernel1 (s, 256 warps) stores 0 first, loads A and r per row; kernel2 (q, 1 warp)
     * loads A (divergent) and p per column. */
    check("bicg", "workload.bicg.nx=32;workload.bicg.ny=8192", 256 * 2 * 32 + 2 * 8192, 8192, 32);
}

static void test_syrk_syr2k(void **state) {
    (void)state;
    /* n 32: 32 warps, each loads c once, then a[i][k] (one word) and a[j][k] (divergent) per k */
    check("syrk", "workload.syrk.n=32;workload.syrk.m=512", 32 * (1 + 2 * 512), 32 * 512, 16);
    /* syr2k: a[i][k], b[j][k] (divergent), b[i][k], a[j][k] (divergent) per k */
    check("syr2k", "workload.syr2k.n=32;workload.syr2k.m=256", 32 * (1 + 4 * 256), 32 * 2 * 256, 8);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atax_bicg),
        cmocka_unit_test(test_syrk_syr2k),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
