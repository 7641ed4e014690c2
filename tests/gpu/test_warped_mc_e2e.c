/* Warped-MC in the whole GPU (K-means on the GTX480 preset, test size, checker on): with its
 * three parts off it is exactly the round-robin FR-FCFS baseline; with them on every part changes
 * decisions, requests are conserved and the protocol holds (gpu_run checks both); Div-First
 * runs too. The latency-divergence split into In-MC and Ex-MC covers every warp-load. */
#include "gpu_harness.h"

static uint64_t sched(const struct result *r, const char *key) {
    json_error_t err;
    json_t *j = json_loads(r->json, 0, &err);
    assert_non_null(j);
    json_t *v = json_object_get(json_object_get(j, "sched"), key);
    uint64_t x = v ? (uint64_t)json_integer_value(v) : UINT64_MAX;
    json_decref(j);
    return x;
}

static void test_parts_off_is_baseline(void **state) {
    (void)state;
    struct result rr, off;
    must_run("gtx480", "kmeans", "mc.policy=frfcfs-rr", &rr);
    must_run("gtx480", "kmeans",
             "mc.policy=warped-mc;mc.warped.request=false;mc.warped.row=false;"
             "mc.warped.bank=false",
             &off);
    assert_int_equal(rr.s.cycles, off.s.cycles);
    assert_int_equal(rr.s.warp_insts, off.s.warp_insts);
    assert_true(rr.s.dram_row_hit_rate == off.s.dram_row_hit_rate);
    assert_int_equal(sched(&off, "req_changed"), 0);
    assert_int_equal(sched(&off, "row_changed"), 0);
    assert_int_equal(sched(&off, "bank_changed"), 0);
    assert_true(sched(&off, "decisions") > 0);
    free(rr.json);
    free(off.json);
}

static void test_parts_change_decisions(void **state) {
    (void)state;
    struct result w;
    must_run("gtx480", "kmeans", "mc.policy=warped-mc", &w);
    uint64_t d = sched(&w, "decisions");
    print_message("warped-mc: %llu decisions, changed by request %llu, row %llu, bank %llu; "
                  "IPC %.2f, In-MC share %.3f\n",
                  (unsigned long long)d, (unsigned long long)sched(&w, "req_changed"),
                  (unsigned long long)sched(&w, "row_changed"),
                  (unsigned long long)sched(&w, "bank_changed"), w.s.ipc, w.s.lat_div_in_mc_share);
    assert_true(sched(&w, "req_changed") > 0);
    assert_true(sched(&w, "row_changed") > 0);
    assert_true(sched(&w, "bank_changed") > 0);
    assert_true(sched(&w, "h_issued") > 0 && sched(&w, "h_issued") < d);
    free(w.json);

    struct result df;
    must_run("gtx480", "kmeans", "mc.policy=div-first", &df);
    assert_true(sched(&df, "urgent_issued") > 0);
    free(df.json);
}

static void test_divergence_split(void **state) {
    (void)state;
    struct result r;
    must_run("gtx480", "kmeans", "mc.policy=frfcfs", &r);
    json_error_t err;
    json_t *j = json_loads(r.json, 0, &err);
    json_t *core = json_object_get(j, "core");
    json_t *div = json_object_get(core, "lat_div"), *in = json_object_get(core, "lat_div_in_mc");
    assert_non_null(div);
    assert_non_null(in);
    /* one In-MC part per warp-load with a divergence, never larger than it */
    assert_int_equal(json_integer_value(json_object_get(div, "count")),
                     json_integer_value(json_object_get(in, "count")));
    assert_true(json_real_value(json_object_get(in, "mean")) <=
                json_real_value(json_object_get(div, "mean")));
    assert_true(r.s.lat_div_in_mc_share > 0.05 && r.s.lat_div_in_mc_share < 1.0);
    json_decref(j);
    free(r.json);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts_off_is_baseline),
        cmocka_unit_test(test_parts_change_decisions),
        cmocka_unit_test(test_divergence_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
