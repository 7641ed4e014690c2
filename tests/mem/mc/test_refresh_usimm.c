/* USIMM's refresh (mc.refresh_mode = usimm, src/mem/mc/mc.c; seed 002 §5.1.11): 8 REFs at the
 * end of every 8 x tREFI window, ending exactly with it, and commands that would run past the
 * window's issue deadline held back kind by kind (ACT tRAS, read tRTP, write tCWL + burst + tWR,
 * PRE tRP before it). Every expected cycle is derived from the DDR3-1600 preset's timing. */
#include "mc_harness.h"

#define DDR3 "[dram]\npreset = ddr3-1600\nranks = 1\n[mc]\ncheck = true\nrefresh_mode = usimm\n"

/* the cycles of the commands `cmd` recorded so far on rank `rank` */
static unsigned cmds_at(const struct run *x, enum dram_cmd cmd, uint32_t rank, uint64_t *at,
                        unsigned cap) {
    unsigned n = 0;
    for (unsigned i = 0; i < x->ncmd && n < cap; i++)
        if (x->cmd[i].cmd == cmd && x->cmd[i].rank == rank) at[n++] = x->cmd[i].cycle;
    return n;
}

/* the cycle of the first command `cmd` to bank `bank` at or after `from` */
static uint64_t first_cmd(const struct run *x, enum dram_cmd cmd, uint32_t bank, uint64_t from) {
    for (unsigned i = 0; i < x->ncmd; i++)
        if (x->cmd[i].cmd == cmd && x->cmd[i].bank == bank && x->cmd[i].cycle >= from)
            return x->cmd[i].cycle;
    fail_msg("no %s to bank %u from cycle %llu", dram_cmd_names[cmd], bank,
             (unsigned long long)from);
    return 0;
}

/* window end W = 8 tREFI; issue deadline D = W - tRP - 8 tRFC */
static uint64_t window(const struct dram_spec *s) {
    return 8 * (uint64_t)s->REFI;
}
static uint64_t deadline(const struct dram_spec *s) {
    return window(s) - (uint64_t)s->RP - 8 * (uint64_t)s->RFC;
}

/* Idle, two windows: REFs at D + tRP + i tRFC, the 8th ending at W; two ranks share the window
 * and the command bus, so rank 1's come one cycle later. No PREA: no row was open. */
static void test_idle_windows(void **state) {
    (void)state;
    struct run *x = start("[dram]\npreset = ddr3-1600\nranks = 2\n[mc]\ncheck = true\n"
                          "refresh_mode = usimm\n");
    const struct dram_spec *s = memsys_spec(x->ms);
    const uint64_t w = window(s), d = deadline(s), end = 2 * w + 10;
    run_to(x, 0, end);
    uint64_t at[32];
    for (uint32_t rank = 0; rank < 2; rank++) {
        assert_int_equal(cmds_at(x, DRAM_REF, rank, at, 32), 16);
        for (unsigned i = 0; i < 16; i++)
            assert_int_equal(at[i], (i / 8) * w + d + (uint64_t)s->RP + (i % 8) * s->RFC + rank);
        assert_int_equal(cmds_at(x, DRAM_PREA, rank, at, 32), 0);
    }
    assert_int_equal(at[7] + (uint64_t)s->RFC, w + 1); /* rank 1's 8th REF ends at W + 1 */
    assert_int_equal(stats(x)->n_ref, 32);
    finish(x, end);
}

/* Just before the deadline: a row hit may still read until D - tRTP, while an ACT to a closed
 * bank is held back from D - tRAS + 1 until the window's end W (then tRCD to its read); the
 * open row is closed by the refresh's PREA at D exactly. */
static void test_hold_back_by_kind(void **state) {
    (void)state;
    struct run *x = start(DDR3);
    const struct dram_spec *s = memsys_spec(x->ms);
    const uint64_t w = window(s), d = deadline(s);
    const uint64_t t0 = d - 200, t1 = d - (uint64_t)s->RAS + 1, t2 = d - (uint64_t)s->RTP;
    run_to(x, 0, t0);
    enq(x, 1, addr(x, 0, 0, 7, 0), false, t0); /* opens row 7 of bank 0 */
    run_to(x, t0, t1);
    enq(x, 2, addr(x, 0, 1, 3, 0), false, t1); /* bank 1 closed: its ACT is held back */
    run_to(x, t1, t2);
    enq(x, 3, addr(x, 0, 0, 7, 1), false, t2); /* row hit at D - tRTP: still allowed */
    run_idle(x, t2);
    const uint64_t tags[] = {1, 3, 2};
    const uint64_t cols[] = {t0 + (uint64_t)s->RCDRD, t2, w + (uint64_t)s->RCDRD};
    EXPECT_SERVED(x, tags, cols);
    assert_int_equal(first_cmd(x, DRAM_ACT, 1, 0), w);
    uint64_t at[4];
    assert_int_equal(cmds_at(x, DRAM_PREA, 0, at, 4), 1);
    assert_int_equal(at[0], d);
    uint64_t refs[8];
    assert_int_equal(cmds_at(x, DRAM_REF, 0, refs, 8), 8);
    assert_int_equal(refs[0], d + (uint64_t)s->RP);
    assert_int_equal(refs[7] + (uint64_t)s->RFC, w);
    finish(x, w + 200);
}

/* A row hit one cycle too late for the read rule (D - tRTP + 1) waits for the window's end and
 * then opens its row again (the refresh closed it): W + tRCD. A write to an open row is held back
 * from D - (tCWL + burst + tWR) + 1. */
static void test_late_hits_wait(void **state) {
    (void)state;
    struct run *x = start(DDR3);
    const struct dram_spec *s = memsys_spec(x->ms);
    const uint64_t w = window(s), d = deadline(s);
    const uint64_t wlead = (uint64_t)(s->CWL + s->nBL + s->WR);
    const uint64_t t0 = d - 300, t1 = d - wlead + 1, t2 = d - (uint64_t)s->RTP + 1;
    run_to(x, 0, t0);
    enq(x, 1, addr(x, 0, 0, 7, 0), false, t0);
    enq(x, 2, addr(x, 0, 2, 4, 0), false, t0);
    run_to(x, t0, t1);
    enq(x, 3, addr(x, 0, 2, 4, 1), true, t1); /* write hit, one cycle late */
    run_to(x, t1, t2);
    enq(x, 4, addr(x, 0, 0, 7, 1), false, t2); /* read hit, one cycle late */
    run_idle(x, t2);
    /* after W both need an ACT again; the read goes first (reads before writes) */
    assert_int_equal(x->n, 4);
    assert_int_equal(x->tag[2], 4);
    assert_int_equal(x->col[2], w + (uint64_t)s->RCDRD);
    assert_int_equal(x->tag[3], 3);
    assert_true(x->col[3] >= w + (uint64_t)s->RCDWR);
    assert_int_equal(first_cmd(x, DRAM_WR, 2, t1), x->col[3]);
    finish(x, w + 400);
}

/* A rank keeps to its windows under load: a stream of reads to rotating rows for three windows
 * leaves exactly 8 REFs per window at the same cycles as when idle (the hold-back leaves the
 * PREA nothing to wait for), and the checker (on) finds no violation. */
static void test_under_load(void **state) {
    (void)state;
    struct run *x = start(DDR3);
    const struct dram_spec *s = memsys_spec(x->ms);
    const uint64_t w = window(s), end = 3 * w + 10;
    struct refs refs = {0};
    memsys_add_cmd_observer(x->ms, on_ref, &refs);
    uint64_t tag = 0;
    for (uint64_t t = 0; t < end; t++) {
        uint64_t a = addr(x, 0, (uint32_t)(tag % 8), (uint32_t)(tag / 8 % 64), (uint32_t)(tag % 4));
        if (t % 8 == 0 && memsys_can_accept(x->ms, a, false)) enq(x, ++tag, a, false, t);
        tick(x, t);
        x->n = 0;
    }
    assert_int_equal(stats(x)->n_ref, 24);
    assert_int_equal(refs.n, 24);
    for (unsigned i = 0; i < 24; i++)
        assert_int_equal(refs.at[i],
                         (i / 8) * w + deadline(s) + (uint64_t)s->RP + (i % 8) * s->RFC);
    finish(x, end);
}

/* A powered-down rank (the controller's own power-down, slow or fast exit) still refreshes on
 * time: it is woken tXPDLL / tXP before the deadline D, so the REFs go at D + tRP + i tRFC and
 * the 8th ends with the window; with the row left open (fast exit: active power-down) the PREA
 * goes at D. */
static void test_powered_down_rank(void **state) {
    (void)state;
    for (int slow = 0; slow < 2; slow++) {
        struct run *x = start(slow ? DDR3 "powerdown = slow\npd_idle = 16\n"
                                   : DDR3 "powerdown = fast\npd_idle = 16\n");
        const struct dram_spec *s = memsys_spec(x->ms);
        const uint64_t w = window(s), d = deadline(s), t0 = d - 500;
        run_to(x, 0, t0);
        enq(x, 1, addr(x, 0, 0, 7, 0), false, t0); /* opens row 7 of bank 0 */
        run_to(x, t0, w + 10);
        uint64_t at[16];
        unsigned npdx = cmds_at(x, DRAM_PDX, 0, at, 16);
        assert_true(npdx >= 2); /* down from the start, woken for the request and for the REFs */
        uint64_t exit = (uint64_t)(slow ? s->XPDLL : s->XP);
        assert_int_equal(at[npdx - 1], d - exit);
        /* slow exit needs every bank closed: the PREA came before the power-down */
        assert_int_equal(cmds_at(x, DRAM_PREA, 0, at, 16), 1);
        if (slow)
            assert_true(at[0] < d - exit);
        else
            assert_int_equal(at[0], d);
        uint64_t refs[8];
        assert_int_equal(cmds_at(x, DRAM_REF, 0, refs, 8), 8);
        for (unsigned i = 0; i < 8; i++)
            assert_int_equal(refs[i], d + (uint64_t)s->RP + i * (uint64_t)s->RFC);
        finish(x, w + 10);
    }
}

static void test_window_too_short(void **state) {
    (void)state;
    struct cfg *c = tu_cfg("[dram]\npreset = ddr3-1600\nREFI = 130\n[mc]\nrefresh_mode = usimm\n");
    struct ws_err e = {{0}};
    assert_null(memsys_create(c, &e));
    assert_non_null(
        strstr(e.msg, "mc.refresh_mode = usimm: DRAM preset 'ddr3-1600': 8 x tREFI = 1040"));
    cfg_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_windows),     cmocka_unit_test(test_hold_back_by_kind),
        cmocka_unit_test(test_late_hits_wait),   cmocka_unit_test(test_under_load),
        cmocka_unit_test(test_window_too_short), cmocka_unit_test(test_powered_down_rank),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
