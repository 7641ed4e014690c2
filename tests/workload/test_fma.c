/* Seed 003's issue-imbalance FMA microbenchmark (src/workload/kernels/fma.c): which warps
 * compute in each layout, exact FFMA counts, empty warps that only reach the barrier and exit,
 * the barrier after the last FFMA of a compute warp, and on a 4-sub-core machine (qv100) the
 * unbalanced layout taking several times as long as the balanced one, which matches the
 * baseline. */
#include "../gpu/gpu_harness.h"
#include "workload/workload.h"

/* Runs one warp: its FFMA count, instruction count, and whether BAR came after every FFMA and
 * right before EXIT. */
static void run_warp(struct workload *w, struct wl_warp *wp, int *ffma, int *n, bool *bar_last) {
    struct ws_err e = {{0}};
    struct inst in, prev = {0};
    *ffma = *n = 0;
    bool bar_seen = false, sp_after_bar = false;
    do {
        assert_int_equal(w->vt->warp_next(w, wp, &in, &e), 0);
        if (in.cls == OP_SP) *ffma += 1, sp_after_bar |= bar_seen;
        if (in.cls == OP_BAR) bar_seen = true;
        if (in.cls != OP_EXIT) prev = in;
        (*n)++;
    } while (in.cls != OP_EXIT);
    *bar_last = bar_seen && !sp_after_bar && prev.cls == OP_BAR;
}

static void check_layout(const char *name, uint32_t threads, const bool compute[32]) {
    char ini[160];
    snprintf(ini, sizeof ini, "[workload]\nname = %s\n[workload.fma]\niters = 96\nctas = 2\n",
             name);
    struct workload *w = tu_workload(ini);
    struct ws_err e = {{0}};
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "fma_kernel");
    assert_int_equal(k.threads, threads);
    assert_int_equal(k.ncta, 2);
    struct wl_warp *wp[32];
    assert_int_equal(w->vt->cta_start(w, 1, wp, &e), 0);
    for (uint32_t i = 0; i < threads / 32; i++) {
        int ffma, n;
        bool bar_last;
        run_warp(w, wp[i], &ffma, &n, &bar_last);
        assert_true(bar_last);
        if (compute[i]) { /* 12 set-up, 35 per 32 FFMAs, 2 for the never-true store test */
            assert_int_equal(ffma, 96);
            assert_int_equal(n, 12 + 3 * 35 + 2 + 2);
        } else { /* the warp test(s), BAR, EXIT: fmaimb's first test already rejects i % 4 != 0 */
            assert_int_equal(ffma, 0);
            assert_int_equal(n, threads == 1024 && compute[0] && !compute[1] && i % 4 ? 7 : 9);
        }
    }
    w->vt->cta_end(w, 1, wp);
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0);
    w->vt->destroy(w);
}

static void test_layouts(void **state) {
    (void)state;
    bool imb[32] = {0}, bal[32] = {0};
    for (int i = 0; i < 32; i += 4) imb[i] = true;
    for (int i = 0; i < 8; i++) bal[i] = true;
    check_layout("fmaimb", 1024, imb);
    check_layout("fmabal", 1024, bal);
    check_layout("fmabase", 256, bal);
}

static void test_counts(void **state) {
    (void)state;
    const char *names[] = {"fmaimb", "fmabal", "fmabase"};
    for (int v = 0; v < 3; v++) {
        char ini[64];
        snprintf(ini, sizeof ini, "[workload]\nname = %s\nsize = paper\n", names[v]);
        struct workload *w = tu_workload(ini);
        struct wl_count c;
        struct ws_err e = {{0}};
        assert_int_equal(workload_count(w, &c, &e), 0);
        uint64_t warps = v == 2 ? 8 : 32;
        assert_int_equal(c.ctas, 80);
        assert_int_equal(c.warps, 80 * warps);
        assert_int_equal(c.by_class[OP_SP], 80ull * 8 * 4096); /* exactly 4096 FMAs per thread */
        assert_int_equal(c.by_class[OP_BAR], 80 * warps);
        assert_int_equal(c.by_class[OP_MEM], 0);
        w->vt->destroy(w);
    }
}

static void test_bad_iters(void **state) {
    (void)state;
    tu_expect_workload_error("[workload]\nname = fmaimb\n[workload.fma]\niters = 100\n",
                             "test.ini:4: workload.fma.iters = 100 must be a multiple of 32");
}

/* One block per SM on qv100 (80 SMs, 4 sub-cores, round-robin assignment): the unbalanced
 * layout puts all 8 compute warps of a block on one sub-core. */
static void test_imbalance_on_subcores(void **state) {
    (void)state;
    struct result imb, bal, base;
    const char *sets = "workload.fma.iters=512;workload.fma.ctas=80";
    must_run("qv100", "fmaimb", sets, &imb);
    must_run("qv100", "fmabal", sets, &bal);
    must_run("qv100", "fmabase", sets, &base);
    printf("cycles: unbalanced %llu, balanced %llu, baseline %llu\n",
           (unsigned long long)imb.s.cycles, (unsigned long long)bal.s.cycles,
           (unsigned long long)base.s.cycles);
    assert_true(imb.s.cycles > 3 * bal.s.cycles);
    assert_true(10 * bal.s.cycles < 11 * base.s.cycles && 10 * base.s.cycles < 11 * bal.s.cycles);
    free(imb.json);
    free(bal.json);
    free(base.json);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_bad_iters),
        cmocka_unit_test(test_imbalance_on_subcores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
