/* Calibration against real GPUs (docs/calibration.md): the h100 preset's pointer-chase latencies
 * stay within 3 % of what tools/gpuprobe measured on an H100 SXM5 (the probe's JSON is
 * docs/calibration/h100-2026-11-26.json), and the two micro-benchmarks behind the calibration
 * do what they say: every chase load waits for the one before, readbw reads each sector once. */
#include <math.h>

#include "gpu_harness.h"

/* cycles per load that the probe measured (SM clock), random 128 B-stride chains */
#define H100_L1   40.1  /* 16 KB footprint */
#define H100_L2   290.5 /* 4 MB */
#define H100_DRAM 693.3 /* 64 MB, beyond the 50 MB L2 */
#define H100_SEQ  691.2 /* DRAM in address order (consecutive lines share rows), 2 GB */

static double chase_cpl(const char *sets, int64_t loads) {
    struct result r;
    must_run("h100", "chase", sets, &r);
    free(r.json);
    assert_int_equal(r.s.load_warps, loads); /* one thread: a load warp per load */
    return (double)r.s.cycles / (double)loads;
}

static void near(const char *what, double sim, double real) {
    print_message("%s: simulated %.1f cycles per load, measured %.1f (%+.1f %%)\n", what, sim, real,
                  100.0 * (sim / real - 1.0));
    assert_true(fabs(sim / real - 1.0) < 0.03);
}

static void test_h100_chase_latencies(void **state) {
    (void)state;
    near("L1 hit", chase_cpl("workload.chase.footprint=16384;workload.chase.loads=65536", 65536),
         H100_L1);
    /* the chain's host-to-device copy leaves it in the L2, as the probe's warm-up lap does */
    near("L2 hit", chase_cpl("workload.chase.footprint=4194304;workload.chase.loads=16384", 16384),
         H100_L2);
    near("DRAM, random",
         chase_cpl("gpu.warm_l2=false;workload.chase.footprint=67108864;workload.chase.loads=8192",
                   8192),
         H100_DRAM);
    near("DRAM, address order",
         chase_cpl("gpu.warm_l2=false;workload.chase.order=seq;workload.chase.footprint=67108864;"
                   "workload.chase.loads=8192",
                   8192),
         H100_SEQ);
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
    assert_int_equal(run("rtx2060s", "readbw", "workload.readbw.bytes=1001", NULL, &e), -1);
    assert_non_null(strstr(e.msg, "not a multiple of 8"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h100_chase_latencies),
        cmocka_unit_test(test_chase_is_serial),
        cmocka_unit_test(test_readbw_reads_each_sector_once),
        cmocka_unit_test(test_bad_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
