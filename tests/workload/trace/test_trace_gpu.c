/* The real traces run to completion on the GPU model (every request back, every queue drained:
 * gpu_run checks that), issue exactly the trace's instructions, give the same cycles on a second
 * run, and the per-architecture opcode latencies change the timing when switched off. */
#include "trace_harness.h"

#include "gpu/gpu.h"

struct res {
    uint64_t cycles, warp_insts, ctas, kernels;
};

static int run(const char *machine, const char *trace, bool lat, struct res *r, struct ws_err *e) {
    struct cfg *c = cfg_create();
    char path[4096];
    snprintf(path, sizeof path, "%s/configs/%s.ini", WS_SOURCE_DIR, machine);
    int rc = -1;
    struct gpu *g = NULL;
    struct workload *w = NULL;
    if (cfg_load_ini(c, path, e) || cfg_set_arg(c, "mc.check=true", "test", e)) goto out;
    if (!(g = gpu_create(c, e))) goto out;
    if (!(w = topen_opts(trace, lat, e))) goto out;
    if (gpu_run(g, w, e)) goto out;
    const struct gpu_summary *s = gpu_summary(g);
    *r = (struct res){s->cycles, s->warp_insts, s->ctas, s->kernels};
    rc = 0;
out:
    if (w) w->vt->destroy(w);
    gpu_destroy(g);
    cfg_destroy(c);
    return rc;
}

static struct res must(const char *machine, const char *trace, bool lat) {
    struct ws_err e = {{0}};
    struct res r;
    if (run(machine, trace, lat, &r, &e)) fail_msg("%s on %s: %s", trace, machine, e.msg);
    return r;
}

static void test_all_real_traces_complete(void **state) {
    (void)state;
    static const struct {
        const char *path;
        uint64_t insts, ctas, kernels;
    } t[] = {
        {"/microgpusim-vectoradd-100-32", 344, 1, 1},
        {"/microgpusim-matrixmul-32-32", 4416, 1, 1},
        {"/mgpusim-simple-trace-example", 26601, 196, 1},
        {"/mgpusim-testdata-vectoradd/kernel-1.traceg", 272 + 194 * 8, 196, 1},
        {"/mgpusim-testdata-atax-v5", 60 + 8, 1, 1},
        {"/mgpusim-testdata-atax-v6", 60 + 8, 1, 1},
        {"/accel-sim-hbf-lud-kernel8", 1027, 1, 1},
        {"/mgpusim-bfs-rodinia-k1-k2", 3613, 16, 2},
    };
    const char *machines[] = {"rtx2060s", "qv100"};
    for (int m = 0; m < 2; m++)
        for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
            char p[512];
            snprintf(p, sizeof p, "%s%s", ACCELSIM, t[i].path);
            struct res r = must(machines[m], p, true);
            print_message("%-10s %-45s %8llu cycles\n", machines[m], t[i].path,
                          (unsigned long long)r.cycles);
            assert_int_equal(r.warp_insts, t[i].insts);
            assert_int_equal(r.ctas, t[i].ctas);
            assert_int_equal(r.kernels, t[i].kernels);
            assert_true(r.cycles > 0);
        }
}

static void test_deterministic_and_latencies(void **state) {
    (void)state;
    const char *p = ACCELSIM "/accel-sim-hbf-lud-kernel8";
    struct res a = must("qv100", p, true), b = must("qv100", p, true);
    assert_int_equal(a.cycles, b.cycles);
    /* one warp, dependent chains: Volta's 2-cycle ALU vs the machine's core.lat_int */
    struct res c = must("qv100", p, false);
    assert_int_equal(c.warp_insts, a.warp_insts);
    assert_true(c.cycles != a.cycles);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_real_traces_complete),
        cmocka_unit_test(test_deterministic_and_latencies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
