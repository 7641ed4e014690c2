/* Tests of the USIMM adapter and its ported schedulers (src/mem/mc/policy_usimm.c): the default's
 * write drain above mc.usimm.hi_wm or with no read queued, down to mc.usimm.lo_wm, in-order
 * first-issuable choice; close-page by idle-cycle PRE (scheduler-close.c) and by auto-precharge,
 * the auto-precharge's refresh-deadline rule, early REFs and power-down of idle ranks; exact
 * command cycles on DDR4-2400 and DDR3-1600, and conservation of requests. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "mem/memsys.h"
#include "testutil.h"

#include "mc_harness.h"

/* DDR4-2400: tRCD 17, tCCD_L 6, CWL 12, nBL 4, tWTR_L 9, tRTW 11. Every request goes to row 5 of
 * bank (bg 0, ba 0): writes to columns 0.., reads to columns 4.., so nothing is forwarded. */
#define USIMM(hi, lo)                                                                              \
    "[dram]\npreset=ddr4-2400\n[mc]\ncheck=true\npolicy=usimm\nusimm.hi_wm=" #hi                   \
    "\nusimm.lo_wm=" #lo "\n"

static void enqueue(struct run *x, unsigned nw, unsigned nr) {
    for (uint32_t i = 0; i < nw; i++) enq(x, 100 + i, addr(x, 0, 0, 5, i), true, 0);
    for (uint32_t i = 0; i < nr; i++) enq(x, i, addr(x, 0, 0, 5, 4 + i), false, 0);
}

/* Three writes > hi_wm = 2: drain first (ACT 0, WR 17, 23); at 1 write (<= lo_wm) the reads
 * take over after CWL + nBL + tWTR_L (23 + 25 = 48, 54, 60); with the read queue empty the last
 * write drains, tRTW after the last read (71). */
static void test_drain_above_hi_wm(void **state) {
    (void)state;
    struct run *x = start(USIMM(2, 1));
    enqueue(x, 3, 3);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {100, 101, 0, 1, 2, 102}, cols[] = {17, 23, 48, 54, 60, 71};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->wr_miss, 1);
    finish(x, end);
}

/* Two writes = hi_wm (not above): reads first (ACT 0, RD 17, 23), then the writes because the
 * read queue is empty (tRTW: 34, 40). */
static void test_reads_first_at_hi_wm(void **state) {
    (void)state;
    struct run *x = start(USIMM(2, 1));
    enqueue(x, 2, 2);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 1, 100, 101}, cols[] = {17, 23, 34, 40};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(stats(x)->rd_miss, 1);
    finish(x, end);
}

/* The drain runs down to lo_wm: with hi_wm 2 and lo_wm 0 all four writes go before the reads
 * (WR 17, 23, 29, 35; RD 35 + 25 = 60, 66). */
static void test_drain_to_lo_wm(void **state) {
    (void)state;
    struct run *x = start(USIMM(2, 0));
    enqueue(x, 4, 2);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {100, 101, 102, 103, 0, 1}, cols[] = {17, 23, 29, 35, 60, 66};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end);
}

/* The controller's own watermarks do not apply to this policy: mc.wq_hi = 2 would drain the two
 * writes first under FR-FCFS; USIMM (hi_wm 40) serves the reads first. */
static void test_controller_watermarks_ignored(void **state) {
    (void)state;
    struct run *x = start(USIMM(40, 20) "wq_hi=2\nwq_lo=1\n");
    enqueue(x, 2, 2);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 1, 100, 101}, cols[] = {17, 23, 34, 40};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end);
}

/* In-order within a queue: the first issuable request of the queue in arrival order. A younger
 * hit goes when the older miss cannot issue (R1's PRE waits for tRAS = 39): 0 at 17, 2 at 23, 1
 * after PRE 39, ACT 56 at 73. */
static void test_first_issuable(void **state) {
    (void)state;
    struct run *x = start(USIMM(40, 20));
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 0, 9, 0), false, 0);
    enq(x, 2, addr(x, 0, 0, 5, 1), false, 0);
    uint64_t end = run_idle(x, 0);
    static const uint64_t tags[] = {0, 2, 1}, cols[] = {17, 23, 73};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end);
}

static void test_defaults(void **state) {
    (void)state;
    struct run *x = start("[dram]\npreset=ddr4-2400\n[mc]\npolicy=usimm\n");
    assert_string_equal(mc_policy_name(memsys_mc(x->ms, 0)), "usimm");
    /* HI_WM 40: 40 writes and a read, the read first; a 41st write drains */
    for (uint32_t i = 0; i < 40; i++) enq(x, 100 + i, addr(x, 0, i % 4, 5, i), true, 0);
    enq(x, 0, addr(x, 1, 0, 5, 100), false, 0);
    uint64_t end = run_idle(x, 0);
    assert_int_equal(x->tag[0], 0);
    finish(x, end);
    x = start("[dram]\npreset=ddr4-2400\n[mc]\npolicy=usimm\n");
    for (uint32_t i = 0; i < 41; i++) enq(x, 100 + i, addr(x, i % 4, 0, 5, i), true, 0);
    enq(x, 0, addr(x, 0, 1, 5, 100), false, 0);
    end = run_idle(x, 0);
    assert_int_equal(x->tag[0], 100);
    /* it drains down to LO_WM 20: 21 writes, then the read */
    assert_int_equal(x->tag[21], 0);
    for (unsigned i = 0; i < 21; i++) assert_true(x->tag[i] >= 100);
    finish(x, end);
}

/* ---- the other ported schedulers (mc.usimm.scheduler) ---- */

/* close (scheduler-close.c): after R0's read the idle bank is precharged as soon as PRE may go
 * (tRAS after the ACT: 39, later than RD + tRTP = 26), so R1 to another row at 100 is a plain
 * miss (ACT 100, RD 117), and its row is closed in turn at 100 + tRAS; under fcfs the row stays
 * open and R1 pays its PRE (RD at 134), after which row 9 stays open. */
static void test_close_precharges_idle_bank(void **state) {
    (void)state;
    for (int close = 0; close < 2; close++) {
        struct run *x = start(close ? USIMM(40, 20) "usimm.scheduler=close\n" : USIMM(40, 20));
        const struct dram_spec *s = memsys_spec(x->ms);
        enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
        run_to(x, 0, 100);
        enq(x, 1, addr(x, 0, 0, 9, 0), false, 100);
        run_to(x, 100, 400);
        const uint64_t rcd = (uint64_t)s->RCDRD, rp = (uint64_t)s->RP, ras = (uint64_t)s->RAS;
        const uint64_t tags[] = {0, 1};
        const uint64_t cols[] = {rcd, close ? 100 + rcd : 100 + rp + rcd};
        EXPECT_SERVED(x, tags, cols);
        assert_int_equal(stats(x)->rd_conflict, close ? 0 : 1);
        assert_int_equal(stats(x)->n_pre, close ? 2 : 1);
        assert_int_equal(cmd_cycle(x, DRAM_PRE, 0), close ? ras : 100);
        if (!close) {
            finish(x, 400);
            continue;
        }
        assert_int_equal(cmd_cycle(x, DRAM_PRE, 1), 100 + ras);
        json_t *j = sched_of(x, 400);
        assert_int_equal(STAT(j, "aggr_precharges"), 2);
        json_decref(j);
    }
}

/* close-ap: R0 and R1 share row 5, R2 wants row 9 of the same bank. R0's read leaves R1 wanting
 * the row (RD 17), R1's does not (RDA 23); its precharge starts at tRAS (39), so R2's ACT goes at
 * 39 + tRP = 56 and its read at 73, with no PRE command and R2 a miss, not a conflict. */
static void test_close_ap(void **state) {
    (void)state;
    struct run *x = start(USIMM(40, 20) "usimm.scheduler=close-ap\n");
    const struct dram_spec *s = memsys_spec(x->ms);
    enq(x, 0, addr(x, 0, 0, 5, 0), false, 0);
    enq(x, 1, addr(x, 0, 0, 5, 1), false, 0);
    enq(x, 2, addr(x, 0, 0, 9, 0), false, 0);
    uint64_t end = run_idle(x, 0);
    const uint64_t act2 = (uint64_t)(s->RAS + s->RP);
    const uint64_t tags[] = {0, 1, 2}, cols[] = {17, 23, act2 + (uint64_t)s->RCDRD};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(act2, 56);
    assert_int_equal(cmd_cycle(x, DRAM_ACT, 1), act2);
    assert_int_equal(stats(x)->n_rd, 1);
    assert_int_equal(stats(x)->n_rda, 2); /* R2's read closes its row too */
    assert_int_equal(stats(x)->n_pre, 0);
    assert_int_equal(stats(x)->rd_conflict, 0);
    finish(x, end);
}

/* USIMM's refresh window (DDR3-1600, mc.refresh_mode = usimm): an auto-precharge is allowed only
 * if the precharge it implies ends by the issue deadline D. A read to a closed bank enqueued at
 * t0 has ACT t0, RD t0 + tRCD and its precharge from max(RD + tRTP, ACT + tRAS), ending tRP later:
 * at t0 = D - lead exactly it auto-precharges; one cycle later it reads plainly and the refresh's
 * PREA closes the row at D. */
#define DDR3_USIMM(sched)                                                                          \
    "[dram]\npreset=ddr3-1600\nranks=1\n[mc]\ncheck=true\nrefresh_mode=usimm\npolicy=usimm\n"      \
    "usimm.scheduler=" sched "\n"
static void test_autoprecharge_deadline(void **state) {
    (void)state;
    for (uint64_t late = 0; late < 2; late++) {
        struct run *x = start(DDR3_USIMM("close-ap"));
        const struct dram_spec *s = memsys_spec(x->ms);
        const uint64_t d = 8 * (uint64_t)s->REFI - (uint64_t)(s->RP + 8 * s->RFC);
        uint64_t rtp = (uint64_t)(s->RCDRD + s->RTP), ras = (uint64_t)s->RAS;
        const uint64_t lead = (rtp > ras ? rtp : ras) + (uint64_t)s->RP;
        const uint64_t t0 = d - lead + late;
        run_to(x, 0, t0);
        enq(x, 1, addr(x, 0, 0, 7, 0), false, t0);
        run_to(x, t0, d + 1);
        assert_int_equal(x->n, 1);
        assert_int_equal(x->col[0], t0 + (uint64_t)s->RCDRD);
        assert_int_equal(stats(x)->n_rda, late ? 0 : 1);
        assert_int_equal(stats(x)->n_prea, late ? 1 : 0);
        if (late) assert_int_equal(cmd_cycle(x, DRAM_PREA, 0), d);
        finish(x, d + 1);
    }
}

/* fcfs-idle, idle DDR3-1600 rank under USIMM's refresh: the rank powers down at once (cycle 0);
 * from P = W - tREFI - 8 tRFC, the last moment that keeps any two REFs within 9 tREFI whatever the
 * next window does, it powers up and takes the window's 8 REFs back to back (tXP after the
 * exit, tRFC apart), so no forced refresh comes; then it powers down again until the next P. */
static void test_idle_refresh_and_powerdown(void **state) {
    (void)state;
    struct run *x = start(DDR3_USIMM("fcfs-idle"));
    const struct dram_spec *s = memsys_spec(x->ms);
    const uint64_t w = 8 * (uint64_t)s->REFI, rfc = (uint64_t)s->RFC, xp = (uint64_t)s->XP;
    const uint64_t p = w - (uint64_t)s->REFI - 8 * rfc;
    run_to(x, 0, w + 100);
    assert_int_equal(cmd_cycle(x, DRAM_PDEF, 0), 0);
    assert_int_equal(cmd_cycle(x, DRAM_PDX, 0), p);
    for (unsigned i = 0; i < 8; i++) assert_int_equal(cmd_cycle(x, DRAM_REF, i), p + xp + i * rfc);
    assert_int_equal(cmd_cycle(x, DRAM_PDEF, 1), p + xp + 8 * rfc); /* REF -> PDE: tRFC */
    assert_int_equal(stats(x)->n_ref, 8);
    assert_int_equal(stats(x)->n_prea, 0);
    json_t *j = sched_of(x, w + 100);
    assert_int_equal(STAT(j, "early_refreshes"), 8);
    assert_int_equal(STAT(j, "powerdowns"), 2);
    assert_int_equal(STAT(j, "powerups"), 1);
    json_decref(j);
}

/* fcfs-idle: a request arriving at P for the powered-down rank is served after the controller
 * wakes it (PDX at P, ACT tXP later, RD tRCD after); then, in its refresh phase and idle, the
 * rank closes the open row with PREA (tRAS after the ACT) and refreshes from tRP later. A second
 * request arriving while it is powered down again is served tXP + tRCD after its arrival. */
static void test_idle_prea_and_wake(void **state) {
    (void)state;
    struct run *x = start(DDR3_USIMM("fcfs-idle"));
    const struct dram_spec *s = memsys_spec(x->ms);
    const uint64_t w = 8 * (uint64_t)s->REFI, rfc = (uint64_t)s->RFC, xp = (uint64_t)s->XP;
    const uint64_t p = w - (uint64_t)s->REFI - 8 * rfc;
    run_to(x, 0, p);
    enq(x, 1, addr(x, 0, 0, 7, 0), false, p);
    const uint64_t t2 = p + 2000;
    run_to(x, p, t2);
    assert_int_equal(cmd_cycle(x, DRAM_PDX, 0), p);
    const uint64_t act = p + xp, prea = act + (uint64_t)s->RAS, ref0 = prea + (uint64_t)s->RP;
    assert_int_equal(cmd_cycle(x, DRAM_ACT, 0), act);
    assert_int_equal(cmd_cycle(x, DRAM_PREA, 0), prea);
    assert_int_equal(cmd_cycle(x, DRAM_REF, 0), ref0);
    assert_int_equal(cmd_cycle(x, DRAM_REF, 7), ref0 + 7 * rfc);
    assert_int_equal(cmd_cycle(x, DRAM_PDEF, 1), ref0 + 8 * rfc);
    enq(x, 2, addr(x, 0, 1, 3, 0), false, t2);
    uint64_t end = run_idle(x, t2);
    assert_int_equal(cmd_cycle(x, DRAM_PDX, 1), t2);
    const uint64_t tags[] = {1, 2};
    const uint64_t cols[] = {act + (uint64_t)s->RCDRD, t2 + xp + (uint64_t)s->RCDRD};
    EXPECT_SERVED(x, tags, cols);
    finish(x, end + 10);
}

/* fcfs-idle under reads to rotating rows for three windows, with idle gaps only early in each
 * window's refresh phase: the scheduler slips REFs into the gaps and the forced sequence takes the
 * rest, tRFC later per early REF, so each window still gets exactly 8 REFs, all ending by its end,
 * whatever the split (the checker, on, verifies every command). */
static void test_idle_refresh_under_load(void **state) {
    (void)state;
    struct run *x = start(DDR3_USIMM("fcfs-idle"));
    const struct dram_spec *s = memsys_spec(x->ms);
    const uint64_t w = 8 * (uint64_t)s->REFI, rfc = (uint64_t)s->RFC, end = 3 * w + 10;
    const uint64_t phase = w - (uint64_t)s->REFI - 8 * rfc;
    struct refs refs = {0};
    memsys_add_cmd_observer(x->ms, on_ref, &refs);
    uint64_t tag = 0;
    for (uint64_t t = 0; t < end; t++) {
        uint64_t a = addr(x, 0, (uint32_t)(tag % 8), (uint32_t)(tag / 8 % 64), (uint32_t)(tag % 4));
        /* the first 1,000 cycles of the refresh phase: 8 reads every 400 (idle gaps); else one
         * every 8 */
        bool gaps = t % w >= phase && t % w < phase + 1000;
        bool arrive = gaps ? t % 400 < 8 : t % 8 == 0;
        if (arrive && memsys_can_accept(x->ms, a, false)) enq(x, ++tag, a, false, t);
        tick(x, t);
        x->n = 0;
    }
    assert_int_equal(refs.n, 24);
    unsigned forced = 0;
    for (unsigned i = 0; i < 24; i++) {
        uint64_t k = i / 8, d = (k + 1) * w - (uint64_t)s->RP - 8 * rfc;
        assert_true(refs.at[i] >= k * w);
        assert_true(refs.at[i] + rfc <= (k + 1) * w);
        forced += refs.at[i] > d;
    }
    /* a window's forced REFs come back to back, tRFC apart, the last ending at its end */
    for (unsigned k = 0; k < 3; k++) {
        const uint64_t *at = &refs.at[8 * k];
        assert_int_equal(at[7] + rfc, (k + 1) * w);
        unsigned j = 7;
        while (j > 0 && at[j - 1] > (k + 1) * w - (uint64_t)s->RP - 8 * rfc) j--;
        for (unsigned i = j; i < 7; i++) assert_int_equal(at[i] + rfc, at[i + 1]);
    }
    json_t *j = sched_of(x, end);
    uint64_t early = (uint64_t)STAT(j, "early_refreshes");
    json_decref(j);
    /* both kinds happened, and every REF is one or the other */
    assert_true(early > 0 && forced > 0);
    assert_int_equal(early + forced, 24);
}

static void test_conservation(void **state) {
    (void)state;
    conservation(USIMM(40, 20), 41);
    conservation(USIMM(8, 2) "rq_size=16\nwq_size=16\nwq_hi=12\nwq_lo=4\n", 42);
    conservation(USIMM(8, 2) "usimm.scheduler=close\n", 43);
    conservation(USIMM(8, 2) "usimm.scheduler=close-ap\n", 44);
    conservation(USIMM(8, 2) "usimm.scheduler=fcfs-idle\n", 45);
    conservation(DDR3_USIMM("fcfs-idle"), 46);
    conservation(DDR3_USIMM("close"), 47);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drain_above_hi_wm),
        cmocka_unit_test(test_reads_first_at_hi_wm),
        cmocka_unit_test(test_drain_to_lo_wm),
        cmocka_unit_test(test_controller_watermarks_ignored),
        cmocka_unit_test(test_first_issuable),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_close_precharges_idle_bank),
        cmocka_unit_test(test_close_ap),
        cmocka_unit_test(test_autoprecharge_deadline),
        cmocka_unit_test(test_idle_refresh_and_powerdown),
        cmocka_unit_test(test_idle_prea_and_wake),
        cmocka_unit_test(test_idle_refresh_under_load),
        cmocka_unit_test(test_conservation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
