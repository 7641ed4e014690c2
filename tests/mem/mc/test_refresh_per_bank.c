/* The controller's per-bank refresh (mc.refresh_mode, src/mem/mc/mc.c) on HBM3: one REFPB per
 * rank unit every tREFI / banks, every bank once per round, a bank with queued requests passed
 * over for an idle one, and a refreshing bank's requests held for exactly tRFCpb. */
#include "mc_harness.h"

#define HBM3 "[dram]\npreset = hbm3-h100\nchannels = 1\n[mc]\ncheck = true\n"

/* the REFPBs recorded so far on pseudo-channel pc, as flat bank numbers within the unit */
static unsigned refpbs(const struct run *x, uint32_t pc, uint32_t *bank, uint64_t *at, unsigned cap,
                       uint32_t per_group) {
    unsigned n = 0;
    for (unsigned i = 0; i < x->ncmd && n < cap; i++)
        if (x->cmd[i].cmd == DRAM_REFPB && x->cmd[i].pc == pc) {
            bank[n] = x->cmd[i].bg * per_group + x->cmd[i].bank;
            at[n++] = x->cmd[i].cycle;
        }
    return n;
}

/* Idle: REFPBs at the exact step, the banks of a unit in turn, each once per round. */
static void test_rounds(void **state) {
    (void)state;
    struct run *x = start(HBM3);
    const struct dram_spec *s = memsys_spec(x->ms);
    const uint32_t nb = (uint32_t)(s->bankgroups * s->banks_per_group);
    const uint64_t step = (uint64_t)s->REFI / nb; /* 319 */
    run_to(x, 0, 2 * nb * step + 2); /* pc1's come a cycle after pc0's: one row command bus */
    uint32_t bank[64];
    uint64_t at[64];
    unsigned n = refpbs(x, 0, bank, at, 64, (uint32_t)s->banks_per_group);
    assert_int_equal(n, 2 * nb);
    for (unsigned i = 0; i < n; i++) {
        assert_int_equal(at[i], (i + 1) * step);
        assert_int_equal(bank[i], i % nb);
    }
    assert_int_equal(refpbs(x, 1, bank, at, 64, (uint32_t)s->banks_per_group), 2 * nb);
    assert_int_equal(stats(x)->n_refpb, 4 * nb);
    assert_int_equal(stats(x)->n_ref, 0);
    finish(x, 2 * nb * step + 2);
}

/* Bank 0 is due first, but has queued reads: bank 1 is refreshed instead. Bank 0 keeps its row
 * open (open page) after the reads, so the closed idle banks go first and it comes last in the
 * round, closed by the controller (PRE) for its REFPB. */
static void test_busy_bank_passed_over(void **state) {
    (void)state;
    struct run *x = start(HBM3);
    const struct dram_spec *s = memsys_spec(x->ms);
    const uint32_t nb = (uint32_t)(s->bankgroups * s->banks_per_group);
    const uint64_t step = (uint64_t)s->REFI / nb;
    run_to(x, 0, step - 2);
    for (int i = 0; i < 4; i++)
        enq(x, 1 + (uint64_t)i, addr(x, 0, 0, 5, (uint32_t)i), false, step - 2);
    run_to(x, step - 2, nb * step + 100);
    uint32_t bank[64];
    uint64_t at[64];
    unsigned n = refpbs(x, 0, bank, at, 64, (uint32_t)s->banks_per_group);
    assert_int_equal(n, nb);
    assert_true(at[0] >= step && at[0] <= step + (uint64_t)s->RRD_S); /* after bank 0's ACT */
    for (unsigned i = 0; i + 1 < nb; i++) assert_int_equal(bank[i], i + 1);
    assert_int_equal(bank[nb - 1], 0);
    bool pre = false; /* the controller's own PRE of bank 0 before its REFPB */
    for (unsigned i = 0; i < x->ncmd; i++)
        if (x->cmd[i].cmd == DRAM_PRE && x->cmd[i].pc == 0 && x->cmd[i].bg == 0 &&
            x->cmd[i].bank == 0 && x->cmd[i].cycle < at[nb - 1])
            pre = true;
    assert_true(pre);
    finish(x, nb * step + 100);
}

/* A read to the bank under refresh waits tRFCpb for its ACT: the column command comes exactly
 * tRFCpb + tRCD after the REFPB. */
static void test_held_bank(void **state) {
    (void)state;
    struct run *x = start(HBM3);
    const struct dram_spec *s = memsys_spec(x->ms);
    const uint64_t step = (uint64_t)s->REFI / (uint64_t)(s->bankgroups * s->banks_per_group);
    run_to(x, 0, step + 1); /* bank 0 refreshed at `step` */
    enq(x, 7, addr(x, 0, 0, 9, 0), false, step + 1);
    run_idle(x, step + 1);
    const uint64_t tags[] = {7}, cols[] = {step + (uint64_t)(s->RFCpb + s->RCDRD)};
    EXPECT_SERVED(x, tags, cols);
    finish(x, 2 * step);
}

/* Row hits to one bank, one every tCCD_L: each would push that bank's PRE back, so the refresh
 * holds the bank's column commands too. Every bank stays refreshed (the checker's end-of-run
 * tREFI rule) and the REFPBs keep their pace. */
static void test_row_hits_do_not_starve(void **state) {
    (void)state;
    struct run *x = start(HBM3);
    const struct dram_spec *s = memsys_spec(x->ms);
    const uint64_t step = (uint64_t)s->REFI / (uint64_t)(s->bankgroups * s->banks_per_group);
    const uint64_t end = 12 * (uint64_t)s->REFI;
    uint64_t tag = 0;
    for (uint64_t t = 0; t < end; t++) {
        uint64_t a = addr(x, 0, 0, 5, (uint32_t)(tag % 32));
        if (t % (uint64_t)s->CCD_L == 0 && memsys_can_accept(x->ms, a, false))
            enq(x, ++tag, a, false, t);
        tick(x, t);
        x->n = 0; /* completions are not looked at here */
    }
    uint64_t want = 2 * (end / step) - 2; /* two pseudo-channels, one REFPB per step each */
    assert_true(stats(x)->n_refpb >= want);
    finish(x, end);
}

static void test_modes(void **state) {
    (void)state;
    /* all-bank on a part that has both: REF, no REFPB */
    struct run *x = start(HBM3 "refresh_mode = all-bank\n");
    const struct dram_spec *s = memsys_spec(x->ms);
    run_to(x, 0, (uint64_t)s->REFI + (uint64_t)s->RFC + 10);
    assert_int_equal(stats(x)->n_refpb, 0);
    assert_int_equal(stats(x)->n_ref, 2); /* both pseudo-channels */
    finish(x, (uint64_t)s->REFI + (uint64_t)s->RFC + 10);
    /* auto on a part without per-bank refresh: all-bank */
    x = start("[dram]\npreset = hbm2\nchannels = 1\n");
    s = memsys_spec(x->ms);
    run_to(x, 0, (uint64_t)s->REFI + (uint64_t)s->RFC + 10);
    assert_int_equal(stats(x)->n_refpb, 0);
    assert_int_equal(stats(x)->n_ref, 2);
    finish(x, (uint64_t)s->REFI + (uint64_t)s->RFC + 10);
    /* per-bank asked of a part without it: an error naming the key */
    struct cfg *c = tu_cfg("[dram]\npreset = hbm2\n[mc]\nrefresh_mode = per-bank\n");
    struct ws_err e = {{0}};
    assert_null(memsys_create(c, &e));
    assert_non_null(strstr(e.msg, "mc.refresh_mode = per-bank, but DRAM preset 'hbm2'"));
    cfg_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounds),    cmocka_unit_test(test_busy_bank_passed_over),
        cmocka_unit_test(test_held_bank), cmocka_unit_test(test_row_hits_do_not_starve),
        cmocka_unit_test(test_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
