/* Tests of the SM (src/core/sm.c) without memory: occupancy limits, CTA release, warp-scheduler
 * issue orders (LRR, GTO), sub-core binding, bar.sync, and configuration errors. */
#include "sm_harness.h"

/* ---- occupancy ---- */

#define OCC_INI                                                                                    \
    "[core]\nmax_warps = 48\nmax_ctas = 32\nmax_threads = 1024\nregs = 32768\n"                    \
    "smem = 49152\n"

static struct kernel_desc kd(uint32_t threads, uint32_t regs, uint32_t smem) {
    struct kernel_desc k = {.threads = threads, .regs = regs, .smem = smem, .ncta = 1000};
    snprintf(k.name, sizeof k.name, "k%u", threads);
    return k;
}

/* Each limit binds in turn; sm_can_take agrees with sm_occupancy when CTAs are really taken. */
static void test_occupancy_limits(void **state) {
    (void)state;
    static const struct {
        uint32_t threads, regs, smem, want;
        const char *why;
        uint32_t bound; /* __launch_bounds__ minimum CTAs */
    } cases[] = {
        {16, 0, 0, 32, "CTA slots", 0},
        {33, 0, 0, 24, "warps (33 threads take 2 warps)", 0},
        {256, 0, 0, 4, "threads", 0},
        {64, 64, 0, 8, "registers", 0},
        {40, 64, 0, 8, "registers, allocated per whole warp", 0},
        {32, 0, 10000, 4, "shared memory", 0},
        {1024, 255, 0, 0, "registers: not even one CTA", 0},
        {1024, 48, 0, 1, "launch bounds (1024, 1): 48 registers capped to 32", 1},
        {256, 64, 0, 4, "launch bounds (256, 4): 64 registers capped to 32", 4},
        {256, 64, 0, 2, "64 registers: two CTAs", 0},
        {256, 16, 0, 4, "launch bounds (256, 2) below the registers: no cap", 2},
        {0, 0, 0, 0, "no threads", 0},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fake_wl *f = fw_create(cases[i].threads, 1000);
        f->k = kd(cases[i].threads, cases[i].regs, cases[i].smem);
        f->k.bound_ctas = cases[i].bound;
        struct h *h = h_create(OCC_INI, f);
        uint32_t occ = sm_occupancy(&h->sc, &f->k);
        if (occ != cases[i].want)
            fail_msg("%s: occupancy %u, want %u", cases[i].why, occ, cases[i].want);
        struct ws_err e = {{0}};
        uint32_t taken = 0;
        while (sm_can_take(h->s, &f->k)) {
            assert_int_equal(sm_take_cta(h->s, &f->base, &f->k, taken, 0, &e), 0);
            taken++;
        }
        assert_int_equal(taken, cases[i].want);
        assert_int_equal(sm_resident_ctas(h->s), taken);
        if (cases[i].threads)
            assert_int_equal(sm_take_cta(h->s, &f->base, &f->k, taken, 0, &e), -1);
        h_destroy(h);
    }
}

/* CTAs complete and free their slots: 8 CTAs with room for 2 (shared memory) all run, never more
 * than 2 at once, each ended once, in start order (identical programs). */
static void test_cta_release(void **state) {
    (void)state;
    struct fake_wl *f = fw_create(32, 8);
    f->k.smem = 8000;
    struct inst p[] = {I_INT(1, NR), I_INT(2, 1)};
    fw_prog(f, -1, p, 2);
    struct h *h = h_create(NULL, f);
    assert_int_equal(sm_occupancy(&h->sc, &f->k), 2);
    uint64_t end = h_run(h, 10000);
    assert_int_equal(h->max_resident, 2);
    assert_int_equal(f->nstarted, 8);
    assert_int_equal(f->nended, 8);
    for (unsigned i = 0; i < 8; i++) assert_int_equal(f->ended[i], i);
    const struct sm_stats *st = sm_stats(h->s);
    assert_int_equal(st->ctas_done, 8);
    assert_int_equal(st->warp_insts, 8 * 3);
    assert_int_equal(sm_resident_ctas(h->s), 0);
    assert_true(sm_idle(h->s));
    assert_int_equal(st->cycles_active, end);
    h_destroy(h);
}

/* ---- warp schedulers ---- */

/* Four warps on one sub-core, each INT r1; INT r2 <- r1; EXIT (lat_int 4). */
static struct h *sched_run(const char *sched, bool dependent) {
    struct fake_wl *f = fw_create(128, 1);
    struct inst dep[] = {I_INT(1, NR), I_INT(2, 1)};
    struct inst ind[] = {I_INT(1, NR), I_INT(2, NR), I_INT(3, NR)};
    if (dependent)
        fw_prog(f, -1, dep, 2);
    else
        fw_prog(f, -1, ind, 3);
    char ini[128];
    snprintf(ini, sizeof ini, "[core]\nwarp_sched = %s\n", sched);
    struct h *h = h_create(ini, f);
    h_run(h, 10000);
    return h;
}

static void expect_order(const struct h *h, const uint32_t *slots, const uint64_t *cycles,
                         unsigned n) {
    assert_int_equal(h->ntr, n);
    for (unsigned i = 0; i < n; i++) {
        if (h->tr[i].slot != slots[i] || h->tr[i].now != cycles[i])
            fail_msg("issue %u: warp %u at %llu, want warp %u at %llu", i, h->tr[i].slot,
                     (unsigned long long)h->tr[i].now, slots[i], (unsigned long long)cycles[i]);
    }
}

static void test_lrr_vs_gto_independent(void **state) {
    (void)state;
    static const uint64_t cyc[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    struct h *h = sched_run("lrr", false);
    static const uint32_t lrr[16] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
    expect_order(h, lrr, cyc, 16);
    h_destroy(h);
    h = sched_run("gto", false);
    static const uint32_t gto[16] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
    expect_order(h, gto, cyc, 16);
    h_destroy(h);
}

/* With a dependence, GTO leaves the greedy warp when it stalls and takes the oldest ready one;
 * LRR rotates. */
static void test_lrr_vs_gto_dependent(void **state) {
    (void)state;
    static const uint64_t cyc[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    struct h *h = sched_run("lrr", true);
    static const uint32_t lrr[12] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
    expect_order(h, lrr, cyc, 12);
    assert_int_equal(h->tr[4].cls, OP_INT);
    assert_int_equal(h->tr[8].cls, OP_EXIT);
    h_destroy(h);
    h = sched_run("gto", true);
    static const uint32_t gto[12] = {0, 1, 2, 3, 0, 0, 1, 1, 2, 2, 3, 3};
    expect_order(h, gto, cyc, 12);
    assert_int_equal(h->tr[5].cls, OP_EXIT);
    h_destroy(h);
}

/* Round-robin sub-core binding: slot i on sub-core i mod 2; each sub-core issues one instruction
 * per cycle, so two warps issue in the same cycle. */
static void test_subcores(void **state) {
    (void)state;
    struct fake_wl *f = fw_create(128, 1);
    struct inst p[] = {I_INT(1, NR), I_INT(2, NR)};
    fw_prog(f, -1, p, 2);
    struct h *h = h_create("[core]\nsubcores = 2\n", f);
    h_run(h, 1000);
    assert_int_equal(h->ntr, 12);
    for (unsigned i = 0; i < h->ntr; i++) assert_int_equal(h->tr[i].sub, h->tr[i].slot % 2);
    /* LRR per sub-core: cycle 0 warps 0 and 1, cycle 1 warps 2 and 3, ... 6 cycles in all */
    static const uint32_t slots[12] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
    for (unsigned i = 0; i < 12; i++) {
        assert_int_equal(h->tr[i].slot, slots[i]);
        assert_int_equal(h->tr[i].now, i / 2);
    }
    h_destroy(h);
}

/* ---- bar.sync ---- */

/* Warp i runs 3*i independent instructions, then bar.sync, then INT, EXIT. No warp issues past
 * the barrier before the last one arrives; all resume lat_bar (3) cycles after it. */
static void test_barrier(void **state) {
    (void)state;
    struct fake_wl *f = fw_create(128, 1);
    for (int w = 0; w < 4; w++) {
        struct inst p[16];
        unsigned n = 0;
        for (int k = 0; k < 3 * w; k++) p[n++] = I_INT((uint16_t)(10 + k), NR);
        p[n++] = I_BAR();
        p[n++] = I_INT(1, NR);
        fw_prog(f, w, p, n);
    }
    struct h *h = h_create("[core]\nlat_bar = 3\nsubcores = 2\n", f);
    h_run(h, 1000);
    uint64_t last_bar = 0, first_after = UINT64_MAX;
    unsigned nbar = 0;
    for (unsigned i = 0; i < h->ntr; i++)
        if (h->tr[i].cls == OP_BAR) {
            nbar++;
            if (h->tr[i].now > last_bar) last_bar = h->tr[i].now;
        }
    for (unsigned i = 0; i < h->ntr; i++) {
        unsigned nth = 0; /* index of this instruction within its warp */
        for (unsigned j = 0; j < i; j++) nth += h->tr[j].slot == h->tr[i].slot;
        if (nth == 3 * h->tr[i].slot + 1 && h->tr[i].now < first_after) first_after = h->tr[i].now;
    }
    assert_int_equal(nbar, 4);
    /* warp 3 arrives last, at 13: sub-core 1 alternates it with warp 1 (3 INTs and a BAR at 0,
     * 2, 4, 6), then runs its remaining 5 INTs alone */
    assert_int_equal(last_bar, 13);
    assert_int_equal(first_after, last_bar + 3);
    assert_true(sm_stats(h->s)->stall_barrier > 0);
    h_destroy(h);
}

/* An exited warp counts as arrived: warp 0 waits at the barrier until warp 1 exits (it never
 * reaches a barrier), then resumes lat_bar (1) later. */
static void test_barrier_exited_warp(void **state) {
    (void)state;
    struct fake_wl *f = fw_create(64, 1);
    struct inst p0[] = {I_BAR(), I_INT(1, NR)};
    struct inst p1[] = {I_INT(1, NR), I_INT(2, 1), I_INT(3, 2)};
    fw_prog(f, 0, p0, 2);
    fw_prog(f, 1, p1, 3);
    struct h *h = h_create(NULL, f);
    h_run(h, 1000);
    /* warp 1: INT 1, INT 5, INT 9, EXIT 10; warp 0: BAR 0, INT 11, EXIT 12 */
    assert_int_equal(h_issue(h, 1, 3), 10);
    assert_int_equal(h_issue(h, 0, 0), 0);
    assert_int_equal(h_issue(h, 0, 1), 11);
    /* warp 0, the oldest, waits at the barrier while warp 1 waits for r1 and r2 (2-4, 6-8) */
    assert_int_equal(sm_stats(h->s)->stall_barrier, 6);
    assert_int_equal(sm_stats(h->s)->stall_scoreboard, 0);
    h_destroy(h);
}

/* The barrier's latency counts as waiting at it on every sub-core, visited or not: warp 0
 * (sub-core 0) arrives at 0, warp 1 (sub-core 1) after three INTs at 3, both resume at 3 + 5.
 * Sub-core 0 issues nothing at 1-7, sub-core 1 at 4-7: 7 + 4 barrier cycles, whether the SM is
 * called every cycle or only at its next event (an unvisited sub-core counted the latency, a
 * visited one did not). */
static void test_barrier_latency_counted(void **state) {
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        struct fake_wl *f = fw_create(64, 1);
        struct inst p0[] = {I_BAR(), I_INT(1, NR)};
        struct inst p1[] = {I_INT(10, NR), I_INT(11, NR), I_INT(12, NR), I_BAR(), I_INT(1, NR)};
        fw_prog(f, 0, p0, 2);
        fw_prog(f, 1, p1, 5);
        struct h *h = h_create("[core]\nlat_bar = 5\nsubcores = 2\n", f);
        h->every_cycle = mode;
        h_run(h, 1000);
        assert_int_equal(h_issue(h, 1, 3), 3);
        assert_int_equal(h_issue(h, 0, 1), 8);
        assert_int_equal(h_issue(h, 1, 4), 8);
        assert_int_equal(sm_stats(h->s)->stall_barrier, 7 + 4);
        h_destroy(h);
    }
}

/* ---- configuration ---- */

static void expect_cfg_error(const char *ini, const char *needle) {
    struct cfg *c = tu_cfg(ini);
    struct sm_cfg sc;
    struct ws_err e = {{0}};
    assert_int_equal(sm_cfg_configure(&sc, c, &e), -1);
    if (!strstr(e.msg, needle)) fail_msg("'%s' does not contain '%s'", e.msg, needle);
    cfg_destroy(c);
}

static void test_cfg_errors(void **state) {
    (void)state;
    expect_cfg_error("[core]\nwarp_sched = fifo\n", "test.ini:2: core.warp_sched = 'fifo'");
    expect_cfg_error("[core]\nwarp_sched = fifo\n", "known: lrr, gto");
    expect_cfg_error("[core]\nsubcore_assign = skew\n", "core.subcore_assign = 'skew'");
    expect_cfg_error("[core]\nsector = 48\n", "core.sector = 48");
    expect_cfg_error("[core]\nline = 96\n", "core.line = 96 is not a power of two");
    /* a 16 B lane must not span more than two lines (the coalescer's bound) */
    expect_cfg_error("[core]\nline = 8\nsector = 8\n", "core.line = 8 is out of range");
    expect_cfg_error("[core]\nmax_warps = 2\nsubcores = 4\n", "core.subcores = 4 exceeds");
    expect_cfg_error("[core]\nlat_int = 0\n", "out of range");
    expect_cfg_error("[core]\nl1_banks = 0\n", "core.l1_banks");
    expect_cfg_error("[core]\nl1_banks = 33\n", "out of range");
    /* defaults are valid */
    struct cfg *c = tu_cfg("");
    struct sm_cfg sc;
    struct ws_err e = {{0}};
    assert_int_equal(sm_cfg_configure(&sc, c, &e), 0);
    assert_string_equal(sc.warp_sched, "lrr");
    assert_int_equal(sc.line, 128);
    assert_int_equal(sc.l1_banks, 1); /* one L1D access a cycle unless a preset says more */
    cfg_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_occupancy_limits),
        cmocka_unit_test(test_cta_release),
        cmocka_unit_test(test_lrr_vs_gto_independent),
        cmocka_unit_test(test_lrr_vs_gto_dependent),
        cmocka_unit_test(test_subcores),
        cmocka_unit_test(test_barrier),
        cmocka_unit_test(test_barrier_exited_warp),
        cmocka_unit_test(test_barrier_latency_counted),
        cmocka_unit_test(test_cfg_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
