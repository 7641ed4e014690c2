/* Calibration against real GPUs (docs/calibration.md): the h100 and h200 presets' pointer-chase
 * latencies stay within 3 % (address order included) of what tools/gpuprobe measured on two H100
 * SXM5 machines and on an H200 (two runs; the probe's JSON in docs/calibration/); their L1 keeps
 * a line a store hits, as the H200 did under Nsight Compute; gpu.flush_l2 empties the L2 between
 * kernels as that profiler does; and the two micro-benchmarks behind the calibration do what
 * they say: every chase load waits for the one before, readbw reads each sector once. */
#include <jansson.h>
#include <math.h>

#include "gpu_harness.h"

/* a machine preset and the probe runs it is calibrated against */
struct calibrated {
    const char *machine;
    const char *probes[2];
    int64_t dram_fp; /* a chase footprint well past the L2 (the h200's is 60 MB) */
};

static const struct calibrated h100 = {
    "h100", {"h100-2026-11-26-a.json", "h100-2026-11-26-b.json"}, 67108864};
static const struct calibrated h200 = {
    "h200", {"h200-2026-11-28-a.json", "h200-2026-11-28-b.json"}, 134217728};

/* The probe's cycles per load for one chase point (kind "ca" or "cg-seq", 128 B stride). */
static double measured(const char *file, const char *kind, int64_t footprint) {
    char path[4096];
    snprintf(path, sizeof path, "%s/docs/calibration/%s", WS_SOURCE_DIR, file);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j) fail_msg("%s:%d: %s", path, je.line, je.text);
    double v = -1;
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(j, "latency"), i, p) {
        if (strcmp(json_string_value(json_object_get(p, "kind")), kind) == 0 &&
            json_integer_value(json_object_get(p, "footprint")) == footprint &&
            json_integer_value(json_object_get(p, "stride")) == 128)
            v = json_number_value(json_object_get(p, "cycles_per_load"));
    }
    json_decref(j);
    if (v < 0) fail_msg("%s: no %s point at %lld bytes", path, kind, (long long)footprint);
    return v;
}

/* simulated cycles per load of one chase: `footprint` bytes, `loads` loads, `extra` sets */
static double chase_cpl(const char *machine, int64_t footprint, int64_t loads, const char *extra) {
    char sets[512];
    snprintf(sets, sizeof sets, "workload.chase.footprint=%lld;workload.chase.loads=%lld%s",
             (long long)footprint, (long long)loads, extra);
    struct result r;
    must_run(machine, "chase", sets, &r);
    free(r.json);
    assert_int_equal(r.s.load_warps, loads + 1); /* one lane: a load warp per load, and its start */
    return (double)r.s.cycles / (double)loads;
}

static void near(const struct calibrated *m, const char *what, double sim, const char *kind,
                 int64_t footprint, double tolerance) {
    for (int i = 0; i < 2; i++) {
        double real = measured(m->probes[i], kind, footprint);
        print_message("%s %s: simulated %.1f cycles per load, measured %.1f on %s (%+.1f %%)\n",
                      m->machine, what, sim, real, m->probes[i], 100.0 * (sim / real - 1.0));
        assert_true(fabs(sim / real - 1.0) < tolerance);
    }
}

static void chase_latencies(const struct calibrated *m) {
    near(m, "L1 hit", chase_cpl(m->machine, 16384, 65536, ""), "ca", 16384, 0.03);
    /* the chain's host-to-device copy leaves it in the L2, as the probe's warm-up lap does */
    near(m, "L2 hit", chase_cpl(m->machine, 4194304, 16384, ""), "ca", 4194304, 0.03);
    near(m, "DRAM, random", chase_cpl(m->machine, m->dram_fp, 8192, ";gpu.warm_l2=false"), "ca",
         m->dram_fp, 0.03);
    /* address order over 2 GB on the GPU, over dram_fp here: each load a new line of the row
     * the load before used. Neither chip gains from that (seq within 2 % of random): h200 closes
     * idle rows (mc.row_policy = timeout; with open rows the model is 3.3 % fast), on h100 the
     * model's row hits are no faster than its misses (why: open, docs/calibration.md) */
    near(m, "DRAM, address order",
         chase_cpl(m->machine, m->dram_fp, 8192, ";gpu.warm_l2=false;workload.chase.order=seq"),
         "cg-seq", 2147483648LL, 0.03);
}

static void test_h100_chase_latencies(void **state) {
    (void)state;
    chase_latencies(&h100);
}

/* The H200 is an H100 with more L2 and HBM3e: the same L1, an L2 hit 1.5 % faster, DRAM 4 %
 * faster; a chase point the h100 preset alone would miss by 4 % (665 against 693 cycles). */
static void test_h200_chase_latencies(void **state) {
    (void)state;
    chase_latencies(&h200);
}

/* The sum of some counters of one group ("l2", "dram", ...) of a run's statistics, the key
 * list ending with NULL; the JSON is parsed once. */
static double stat_sum(const struct result *r, const char *group, const char *const *keys) {
    json_error_t je;
    json_t *j = json_loads(r->json, 0, &je);
    if (!j) fail_msg("stats JSON: %s", je.text);
    double d = 0;
    const char *missing = NULL;
    for (; *keys && !missing; keys++) {
        json_t *v = json_object_get(json_object_get(j, group), *keys);
        if (v)
            d += json_number_value(v);
        else
            missing = *keys;
    }
    json_decref(j);
    if (missing) fail_msg("no %s.%s in the stats", group, missing);
    return d;
}

static double stat_of(const struct result *r, const char *group, const char *key) {
    const char *const keys[] = {key, NULL};
    return stat_sum(r, group, keys);
}

/* read requests the L2 took: hits, merges into a fetch under way, sector and line misses */
static double l2_reads(const struct result *r) {
    static const char *const keys[] = {"rd_hit", "rd_hit_reserved", "rd_sector_miss", "rd_miss",
                                       NULL};
    return stat_sum(r, "l2", keys);
}

/* Hopper's L1 keeps a line a store hits (write-through), as the H200 showed under Nsight Compute
 * (docs/calibration.md): GESUMMV stores tmp[i] and y[i] every iteration and reloads them, and
 * the chip's L1s sent the L2 only A's and B's sectors once (4.20 M read requests at n = 4096,
 * 2 n^2 x 4 B / 32 B = 4.19 M). The h100 and h200 presets do the same: at n = 512 their L2 reads
 * stay within 10 % of A and B's sectors, where the write-evict L1 of the older presets refetches
 * the accumulators after every store (3.7 times as many here: the refetched lines also push the
 * row lines, which the linear index puts in one of the four sets, out of the L1). */
static void test_hopper_l1_keeps_stored_lines(void **state) {
    (void)state;
    const double sectors = 2.0 * 512 * 512 * 4 / 32;
    const char *cold = "gpu.warm_l2=false;workload.gesummv.n=512";
    struct result wt, we;
    must_run("h200", "gesummv", cold, &wt);
    must_run("h200", "gesummv", "gpu.warm_l2=false;workload.gesummv.n=512;l1d.write=write-evict",
             &we);
    const double through = l2_reads(&wt), evict = l2_reads(&we);
    const double dram = stat_of(&wt, "dram", "reads");
    free(wt.json);
    free(we.json);
    print_message("gesummv 512 on h200: %.0f L2 reads (write-evict L1: %.0f), A and B %.0f "
                  "sectors\n",
                  through, evict, sectors);
    assert_true(through >= sectors && through < 1.10 * sectors);
    assert_true(evict > 3.0 * sectors);
    assert_true(dram >= sectors); /* cold L2: every sector from DRAM */
    struct result h;
    must_run("h100", "gesummv", cold, &h);
    const double h100 = l2_reads(&h);
    free(h.json);
    assert_true(h100 < 1.10 * sectors);
}

/* gpu.flush_l2 empties the L2 before each kernel, as Nsight Compute does before each kernel it
 * measures (tools/gpuprobe/wlcompare.py relies on it). 2MM's second kernel reads C, which the
 * first wrote: with a flush it comes from DRAM again, so the run reads six n x n matrices from
 * DRAM (A, B, C; C, D, E) instead of five. */
static void test_flush_l2_between_kernels(void **state) {
    (void)state;
    const double matrix = 64.0 * 64 * 4 / 32; /* sectors */
    struct result kept, flushed;
    must_run("h200", "mm2", "gpu.warm_l2=false;workload.mm2.n=64", &kept);
    must_run("h200", "mm2", "gpu.warm_l2=false;gpu.flush_l2=true;workload.mm2.n=64", &flushed);
    const double k = stat_of(&kept, "dram", "reads"), f = stat_of(&flushed, "dram", "reads");
    const double kernels = stat_of(&flushed, "gpu", "kernels");
    free(kept.json);
    free(flushed.json);
    assert_true(kernels == 2);
    assert_true(k == 5 * matrix);
    assert_true(f == 6 * matrix);
}

/* Every load depends on the one before: latency, not bandwidth. Doubling the loads doubles the
 * run within the launch's fixed cost, and an L1-resident chain costs the L1 hit plus the
 * dependent address arithmetic per load on any machine. */
static void test_chase_is_serial(void **state) {
    (void)state;
    struct result a, b;
    must_run("rtx2060s", "chase", "workload.chase.footprint=8192;workload.chase.loads=4096", &a);
    must_run("rtx2060s", "chase", "workload.chase.footprint=8192;workload.chase.loads=8192", &b);
    uint64_t per = (b.s.cycles - a.s.cycles) / 4096;       /* the steady-state cost of one load */
    assert_int_equal(b.s.cycles - a.s.cycles, per * 4096); /* exactly the same per load */
    assert_true(per >= 32 && per <= 40); /* l1d.hit_lat 32 plus the IMAD that forms the address */
    free(a.json);
    free(b.json);
}

/* Many chains at once (latency under load): every chain ends where the host walk of it ends (the
 * workload's verify), a warp-load per warp and load whatever its lanes, and a warp-load of L
 * lanes touches L lines (the chains are spread along the cycle, so no two lanes share one). */
static void test_chase_many(void **state) {
    (void)state;
    struct result r;
    must_run("rtx2060s", "chase",
             "gpu.warm_l2=false;workload.chase.footprint=1048576;workload.chase.loads=64;"
             "workload.chase.warps=4;workload.chase.lanes=8",
             &r);
    assert_int_equal(r.s.load_warps, 4 * (64 + 1));
    assert_true(r.s.coalescing > 7.5); /* 8 lines per warp-load (the start loads: 1) */
    free(r.json);
}

/* A cold L2 and 8-byte lanes: each warp-load's 256 B are 8 sectors from DRAM, once. */
static void test_readbw_reads_each_sector_once(void **state) {
    (void)state;
    struct result r;
    must_run("rtx2060s", "readbw", "workload.readbw.bytes=1048576;workload.readbw.blocks=16", &r);
    assert_int_equal(r.s.load_warps, 1048576 / 256);
    assert_true(r.s.offchip_per_load == 8.0);
    free(r.json);
}

static void test_bad_parameters(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    assert_int_equal(run("rtx2060s", "chase", "workload.chase.stride=130", NULL, &e), -1);
    assert_non_null(strstr(e.msg, "workload.chase.stride = 130 is not a multiple of 4"));
    assert_int_equal(
        run("rtx2060s", "chase", "workload.chase.footprint=64;workload.chase.stride=128", NULL, &e),
        -1);
    assert_non_null(strstr(e.msg, "smaller than one stride"));
    assert_int_equal(
        run("rtx2060s", "chase", "workload.chase.footprint=1024;workload.chase.warps=16", NULL, &e),
        -1);
    assert_non_null(strstr(e.msg, "16 chains exceed the cycle's 8 nodes"));
    assert_int_equal(run("rtx2060s", "readbw", "workload.readbw.bytes=1001", NULL, &e), -1);
    assert_non_null(strstr(e.msg, "not a multiple of 8"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h100_chase_latencies),
        cmocka_unit_test(test_h200_chase_latencies),
        cmocka_unit_test(test_hopper_l1_keeps_stored_lines),
        cmocka_unit_test(test_flush_l2_between_kernels),
        cmocka_unit_test(test_chase_is_serial),
        cmocka_unit_test(test_chase_many),
        cmocka_unit_test(test_readbw_reads_each_sector_once),
        cmocka_unit_test(test_bad_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
