/* The whole GPU end to end (src/gpu/gpu.c) on the shipped machine presets with small built-in
 * workloads (fast enough for the sanitizer build): results are bit-identical across runs, every
 * request comes back exactly once, the L2 is warmed with the host-to-device copies, and bad
 * configurations stop with the key at fault. tests/gpu/test_gpu_e2e.c has the paper-facing
 * checks at full test sizes. */
#include "gpu_harness.h"

static void test_bfs_deterministic_and_conserving(void **state) {
    (void)state;
    struct result a, b;
    must_run("rtx2060s", "bfs", "workload.bfs.nodes=4096", &a);
    must_run("rtx2060s", "bfs", "workload.bfs.nodes=4096", &b);
    assert_string_equal(a.json, b.json);
    assert_true(a.s.kernels >= 4);
    assert_int_equal(a.s.kernels % 2, 0); /* Kernel and Kernel2 per level */
    assert_true(a.s.warp_insts > 0);
    assert_int_equal(a.s.requests, a.s.requests_returned);
    assert_true(a.s.l1_accesses > 0);
    assert_true(a.s.load_warps > 0);
    free(a.json);
    free(b.json);
}

/* Vector add's two inputs (2 x 256 KB) fit the 4 MB L2: warmed by their copies, no load goes
 * off-chip; without warming each warp-load's one line (4 sectors) comes from DRAM once. */
static void test_l2_warming(void **state) {
    (void)state;
    struct result w, c;
    must_run("rtx2060s", "vecadd", "workload.vecadd.n=65536", &w);
    must_run("rtx2060s", "vecadd", "workload.vecadd.n=65536;gpu.warm_l2=false", &c);
    assert_int_equal(w.s.load_warps, 2 * 65536 / 32);
    assert_true(w.s.offchip_per_load == 0.0);
    assert_true(c.s.offchip_per_load == 4.0); /* one line of 4 sectors per warp-load */
    assert_true(w.s.cycles < c.s.cycles);
    free(w.json);
    free(c.json);
}

static void test_other_machines(void **state) {
    (void)state;
    struct result r;
    must_run("gtx480", "bfs", "workload.bfs.nodes=2048", &r);
    assert_int_equal(r.s.requests, r.s.requests_returned);
    free(r.json);
    must_run("qv100", "vecadd", "workload.vecadd.n=65536", &r);
    assert_int_equal(r.s.requests, r.s.requests_returned);
    assert_int_equal(r.s.ctas, 65536 / 256);
    free(r.json);
}

/* One warp, cold L2: an L2 miss costs the L2 pipeline plus the controller and the DRAM, and no
 * more (time skipping once jumped over the L2 edge that takes the DRAM data in, which made the
 * first miss of an idle GPU take microseconds). */
static void test_unloaded_miss(void **state) {
    (void)state;
    const char *machines[] = {"rtx2060s", "gtx480", "qv100"};
    for (int m = 0; m < 3; m++) {
        struct result r;
        must_run(machines[m], "vecadd", "workload.vecadd.n=32;gpu.warm_l2=false", &r);
        double bound = r.s.ns_l2_hit + r.s.ns_mc_queue + r.s.ns_dram + 12.0;
        print_message("%s: L2 miss %.1f ns (hit %.1f + queue %.1f + DRAM %.1f)\n", machines[m],
                      r.s.ns_l2_miss, r.s.ns_l2_hit, r.s.ns_mc_queue, r.s.ns_dram);
        assert_true(r.s.ns_l2_miss > r.s.ns_l2_hit + r.s.ns_dram);
        assert_true(r.s.ns_l2_miss < bound);
        free(r.json);
    }
}

/* gpu.max_insts stops a run early, at the end of the first core cycle whose instructions reach
 * the limit, without the end-of-run conservation check, and says so; gpu.max_cycles stops it
 * after exactly that many cycles. Both are checked every cycle, so the cycle a run stops at does
 * not depend on which cycles the loop skips: a cycle cap one short of where the instruction cap
 * stopped leaves fewer instructions, and one at it the same run. */
static void test_limits(void **state) {
    (void)state;
    struct result full, cut, at, before;
    must_run("rtx2060s", "bfs", "workload.bfs.nodes=4096", &full);
    must_run("rtx2060s", "bfs", "workload.bfs.nodes=4096;gpu.max_insts=20000", &cut);
    assert_false(full.s.stopped_early);
    assert_true(cut.s.stopped_early);
    assert_true(cut.s.warp_insts >= 20000);
    assert_true(cut.s.warp_insts < full.s.warp_insts);
    char set[128];
    snprintf(set, sizeof set, "workload.bfs.nodes=4096;gpu.max_cycles=%llu",
             (unsigned long long)cut.s.cycles);
    must_run("rtx2060s", "bfs", set, &at);
    assert_true(at.s.stopped_early);
    assert_int_equal(at.s.cycles, cut.s.cycles);
    assert_int_equal(at.s.warp_insts, cut.s.warp_insts);
    /* every statistic too: the cycles after a component's last visit (the cycle cap's run ends
     * with a skip over idle time) are settled to the same end */
    assert_string_equal(at.json, cut.json);
    snprintf(set, sizeof set, "workload.bfs.nodes=4096;gpu.max_cycles=%llu",
             (unsigned long long)cut.s.cycles - 1);
    must_run("rtx2060s", "bfs", set, &before);
    assert_int_equal(before.s.cycles, cut.s.cycles - 1);
    assert_true(before.s.warp_insts < 20000);
    free(full.json);
    free(cut.json);
    free(at.json);
    free(before.json);
    /* gpu.max_thread_insts counts active lanes (GPGPU-Sim's -gpgpu_max_insn): BFS's warps run
     * partly masked, so the same number of thread instructions is reached later than that many
     * warp instructions x 32 would say, and a run capped at the thread count of `cut` stops in
     * the same cycle */
    snprintf(set, sizeof set, "workload.bfs.nodes=4096;gpu.max_thread_insts=%llu",
             (unsigned long long)cut.s.thread_insts);
    must_run("rtx2060s", "bfs", set, &at);
    assert_true(at.s.stopped_early);
    assert_true(cut.s.thread_insts < 32 * cut.s.warp_insts);
    assert_int_equal(at.s.cycles, cut.s.cycles);
    assert_int_equal(at.s.thread_insts, cut.s.thread_insts);
    free(at.json);
}

/* A kernel with no memory traffic still refreshes the DRAM (the controllers are ticked from the
 * start; they were first ticked by the first request, so a run without one broke tREFI, which the
 * protocol checker, on here, reports at the end): 0.36 M DRAM cycles / tREFI 6650, 53 or 54
 * REFs a channel, 855 over the 16. */
static void test_refresh_without_traffic(void **state) {
    (void)state;
    struct result r;
    must_run("rtx2060s", "fmaimb", "workload.size=paper;mc.check=true", &r);
    assert_non_null(strstr(r.json, "\"refs\": 855,"));
    free(r.json);
}

/* The loop visits only what is due and skips idle time; gpu.lockstep visits every SM, slice,
 * network and controller in every cycle. Every statistic must be the same (a component left out
 * settles the cycles it was not visited): tight queues, barriers, a cycle cap and an HBM2
 * machine give the loop's wake-ups the most to get wrong. */
static void test_lockstep_same_results(void **state) {
    (void)state;
    static const char *const runs[][3] = {
        {"rtx2060s", "bfs", "workload.bfs.nodes=4096"},
        {"rtx2060s", "hotspot", "core.lat_bar=7;core.out_q=1;core.ldst_q=2"},
        {"rtx2060s", "bfs",
         "workload.bfs.nodes=4096;gpu.max_cycles=3000;noc.out_q=5;gpu.l2_in_q=1"},
        {"rtx2060s", "kmeans",
         "workload.kmeans.points=2048;gpu.max_insts=40000;noc.out_q=5;noc.in_q=5;gpu.l2_in_q=1;"
         "gpu.dram_q=2"}, /* invert_mapping 10,240 instructions, then kmeansPoint */
        {"gtx480", "backprop", "core.lat_bar=3;l1d.mshrs=2"},
        {"qv100", "vecadd", "workload.vecadd.n=65536;gpu.dram_q=1;noc.in_q=5;noc.out_q=5"},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        struct result a, b;
        char set[512];
        snprintf(set, sizeof set, "%s;gpu.lockstep=true", runs[k][2]);
        must_run(runs[k][0], runs[k][1], runs[k][2], &a);
        must_run(runs[k][0], runs[k][1], set, &b);
        if (strcmp(a.json, b.json) != 0)
            fail_msg("%s on %s (%s): results differ with gpu.lockstep", runs[k][1], runs[k][0],
                     runs[k][2]);
        free(a.json);
        free(b.json);
    }
}

static void test_config_errors(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    assert_int_equal(run("rtx2060s", "bfs", "l2.write=write-through", NULL, &e), -1);
    assert_non_null(strstr(e.msg, "the L2 must be write-back"));
    assert_int_equal(run("rtx2060s", "bfs", "addr.map=row:ba:bg:col:ch", NULL, &e), -1);
    assert_non_null(strstr(e.msg, "split across channels"));
    assert_int_equal(run("rtx2060s", "bfs", "gpu.smz=3", NULL, &e), -1);
    assert_non_null(strstr(e.msg, "gpu.sms"));
    assert_int_equal(run("rtx2060s", "bfs", "gpu.subparts=3", NULL, &e), -1);
    assert_non_null(strstr(e.msg, "must divide"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bfs_deterministic_and_conserving),
        cmocka_unit_test(test_l2_warming),
        cmocka_unit_test(test_other_machines),
        cmocka_unit_test(test_unloaded_miss),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_refresh_without_traffic),
        cmocka_unit_test(test_lockstep_same_results),
        cmocka_unit_test(test_config_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
