/* Warp-gather in the whole GPU (gtx480-6g, test size, checker on): the warp-group assembly time
 * (core.mc_assembly) is zero when every warp-load is one line (its bursts reach one controller
 * as one fetch) and not when a warp-load puts eight lines into one controller; it is counted once
 * per warp-load with an off-chip request, like the latency divergence, and so are the
 * controllers such a warp-load reached (one or two, as the gather spreads its lines). The
 * warp-aware schedulers run the same program to the same instruction count with requests conserved
 * (gpu_run checks conservation and the protocol), and their batching unit groups every read it
 * sees. */
#include "gpu_harness.h"

static json_t *core_hist(json_t *j, const char *name) {
    json_t *h = json_object_get(json_object_get(j, "core"), name);
    assert_non_null(h);
    return h;
}

static json_int_t field(json_t *h, const char *f) {
    return json_integer_value(json_object_get(h, f));
}

static void test_assembly(void **state) {
    (void)state;
    struct result one, eight;
    must_run("gtx480-6g", "gather", "workload.gather.lines=1;mc.policy=frfcfs-cq", &one);
    must_run("gtx480-6g", "gather", "workload.gather.lines=8;mc.policy=frfcfs-cq", &eight);
    json_error_t err;
    json_t *j1 = json_loads(one.json, 0, &err), *j8 = json_loads(eight.json, 0, &err);
    assert_non_null(j1);
    assert_non_null(j8);
    json_t *a1 = core_hist(j1, "mc_assembly"), *a8 = core_hist(j8, "mc_assembly");
    assert_true(field(a1, "count") > 0);
    assert_int_equal(field(a1, "max"), 0);
    assert_int_equal(field(a1, "count"), field(core_hist(j1, "lat_div"), "count"));
    assert_true(field(a8, "max") > 0);
    assert_int_equal(field(a8, "count"), field(core_hist(j8, "lat_div"), "count"));
    /* of the 16 blocks x 8 warps x 4 iterations x 2 loads, those not served whole by the L2
     * (the HtoD copies leave part of idx there; the gathers range over 4 MB) */
    assert_true(field(a8, "count") > 16 * 8 * 4 && field(a8, "count") <= 16 * 8 * 4 * 2);
    /* Controllers per warp-load (core.mcs_per_load): the eight lines of a gather lie in one
     * channel, so every warp-load with off-chip requests reached exactly one controller; spread
     * over two channels, a gather that went off-chip whole reaches two. */
    json_t *m8 = core_hist(j8, "mcs_per_load");
    assert_int_equal(field(m8, "count"), field(a8, "count"));
    assert_int_equal(field(m8, "min"), 1);
    assert_int_equal(field(m8, "max"), 1);
    struct result two;
    must_run("gtx480-6g", "gather",
             "workload.gather.lines=8;workload.gather.channels=2;mc.policy=frfcfs-cq", &two);
    json_t *j2 = json_loads(two.json, 0, &err);
    assert_non_null(j2);
    json_t *m2 = core_hist(j2, "mcs_per_load");
    assert_int_equal(field(m2, "min"), 1); /* the coalesced index loads */
    assert_int_equal(field(m2, "max"), 2);
    assert_int_equal(field(m2, "count"), field(core_hist(j2, "lat_div"), "count"));
    json_decref(j2);
    free(two.json);
    json_decref(j1);
    json_decref(j8);
    free(one.json);

    static const char *const pols[] = {"wafcfs", "basjf", "merb-wawd"};
    for (unsigned i = 0; i < 3; i++) {
        char sets[128];
        snprintf(sets, sizeof sets, "workload.gather.lines=8;mc.policy=%s", pols[i]);
        struct result r;
        must_run("gtx480-6g", "gather", sets, &r);
        assert_int_equal(r.s.warp_insts, eight.s.warp_insts);
        json_t *j = json_loads(r.json, 0, &err);
        json_t *s = json_object_get(j, "sched");
        json_int_t groups = json_integer_value(json_object_get(s, "groups"));
        json_int_t members = json_integer_value(json_object_get(s, "members"));
        assert_true(groups > 0 && members >= groups);
        assert_int_equal(members, json_integer_value(json_object_get(s, "admitted")));
        json_decref(j);
        free(r.json);
    }
    free(eight.json);
}

/* mc.wg.close = oracle: a warp-group is complete once its warp-load has no request upstream. With
 * queues deep enough that no request waits behind an incomplete group, every group is whole (no
 * timeouts) and holds more of its warp-load than a 16-cycle window gathers. */
static double group_size(const struct result *r, json_int_t *timeouts) {
    json_error_t err;
    json_t *j = json_loads(r->json, 0, &err);
    json_t *s = json_object_get(j, "sched");
    double g = (double)json_integer_value(json_object_get(s, "groups"));
    double m = (double)json_integer_value(json_object_get(s, "members"));
    if (timeouts) *timeouts = json_integer_value(json_object_get(s, "oracle_timeouts"));
    json_decref(j);
    return m / g;
}

static void test_oracle_batching(void **state) {
    (void)state;
    const char *deep = "workload.gather.lines=8;mc.policy=basjf;mc.rq_size=512;gpu.dram_q=256;"
                       "l2.mshrs=256;l2.miss_queue=32";
    char sets[256];
    snprintf(sets, sizeof sets, "%s;mc.wg.close=oracle", deep);
    struct result win, orc;
    must_run("gtx480-6g", "gather", deep, &win);
    must_run("gtx480-6g", "gather", sets, &orc);
    json_int_t timeouts = -1;
    double gw = group_size(&win, NULL), go = group_size(&orc, &timeouts);
    print_message("reads per warp-group: window %.2f, oracle %.2f\n", gw, go);
    assert_int_equal(timeouts, 0);
    assert_true(go > gw);
    /* a gather puts 8 reads (one per line: gtx480-6g moves a line per access) into one
     * controller, its index load 1: whole groups average 4.5 */
    assert_true(go > 3.75 && go <= 4.5);
    assert_int_equal(orc.s.warp_insts, win.s.warp_insts);
    free(win.json);
    free(orc.json);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assembly),
        cmocka_unit_test(test_oracle_batching),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
