/* Tests for the DRAM power model (src/mem/dram/power.c): every component against numbers worked
 * by hand from the ddr3-1600 preset (USIMM 2Gb_x4 currents, 16 devices, VDD 1.5 V, tCK 1.25 ns).
 *
 * Hand constants: one mA drawn by a rank's 16 devices for one tCK costs 1.5 V x 1.25 ns x 16 =
 * 0.03 nJ; one mW per device for one tCK costs 1.25 ns x 16 = 0.02 nJ. Hence
 *   ACT     (42*39 - (35*28 + 23*11)) = 405 mA.tCK            -> 12.15 nJ
 *   RD      (96 - 35) x nBL 4         = 244 mA.tCK            ->  7.32 nJ
 *   WR      (99 - 35) x 4             = 256 mA.tCK            ->  7.68 nJ
 *   REF     (112 - 35) x tRFC 128     = 9856 mA.tCK           -> 295.68 nJ
 *   standby IDD2N 23 -> 0.69 nJ/tCK, IDD3N 35 -> 1.05, IDD3P 22 -> 0.66, IDD2P1 15 -> 0.45,
 *           IDD2P0 12 -> 0.36
 *   ODT     own read 32 mW x 4 -> 2.56 nJ; other-rank read 249 x 4 -> 19.92; other-rank write
 *           228.8 x 4 -> 18.304 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/stats.h"
#include "mem/dram/dram_spec.h"
#include "mem/dram/power.h"
#include "testutil.h"

static struct dram_spec ddr3(void) {
    const struct dram_spec *s = dram_preset_find("ddr3-1600");
    assert_non_null(s);
    return *s;
}

static void near(double got, double want) {
    double tol = 1e-9 * (fabs(want) > 1 ? fabs(want) : 1);
    if (fabs(got - want) > tol) fail_msg("got %.12f, want %.12f", got, want);
}

static void cmd(struct dram_power *p, uint64_t cycle, enum dram_cmd c, uint32_t rank,
                uint32_t bank) {
    struct dram_cmd_rec r = {.cycle = cycle, .cmd = c, .rank = rank, .bank = bank, .row = 7};
    dram_power_observe(p, &r);
}

static struct dram_power *make(const struct dram_spec *s) {
    struct ws_err e = {{0}};
    struct dram_power *p = dram_power_create(s, &e);
    if (!p) fail_msg("%s", e.msg);
    return p;
}

/* Stats of all groups as JSON (caller frees). */
static json_t *stats_json(struct dram_power *p, size_t *ngroups) {
    struct stats_reg reg;
    struct ws_err e = {{0}};
    stats_reg_init(&reg);
    assert_int_equal(dram_power_register_stats(p, &reg, &e), 0);
    json_t *j = stats_to_json(&reg);
    if (ngroups) *ngroups = reg.n;
    stats_reg_free(&reg);
    return j;
}

static double jreal(json_t *j, const char *group, const char *stat) {
    json_t *g = json_object_get(j, group);
    if (!g) fail_msg("no group %s", group);
    json_t *v = json_object_get(g, stat);
    if (!v) fail_msg("no stat %s.%s", group, stat);
    return json_number_value(v);
}

static uint64_t jint(json_t *j, const char *group, const char *stat) {
    json_t *v = json_object_get(json_object_get(j, group), stat);
    if (!json_is_integer(v)) fail_msg("no counter %s.%s", group, stat);
    return (uint64_t)json_integer_value(v);
}

static void test_idle_is_precharge_standby(void **state) {
    (void)state;
    struct dram_spec s = ddr3();
    struct dram_power *p = make(&s);
    dram_power_finish(p, 1000);
    struct dram_energy en;
    dram_power_totals(p, &en);
    near(en.background_nj, 2 * 690.0); /* two ranks x 23 mA x 1000 tCK */
    near(en.act_nj + en.read_nj + en.write_nj + en.refresh_nj + en.termination_nj, 0);
    near(en.total_nj, 1380.0);
    near(en.avg_power_mw, 1380.0 / 1250.0 * 1e3); /* 1000 tCK = 1250 ns */
    dram_power_destroy(p);
}

static void test_act_read_pre(void **state) {
    (void)state;
    struct dram_spec s = ddr3();
    struct dram_power *p = make(&s);
    cmd(p, 100, DRAM_ACT, 0, 0);
    cmd(p, 111, DRAM_RD, 0, 0);
    cmd(p, 139, DRAM_PRE, 0, 0);
    dram_power_finish(p, 1000);

    json_t *j = stats_json(p, NULL);
    const char *r0 = "dram.energy.ch0.pc0.r0", *r1 = "dram.energy.ch0.pc0.r1";
    assert_int_equal(jint(j, r0, "act_stby_cyc"), 39);
    assert_int_equal(jint(j, r0, "pre_stby_cyc"), 961);
    near(jreal(j, r0, "act_nj"), 12.15);
    near(jreal(j, r0, "read_nj"), 7.32);
    near(jreal(j, r0, "write_nj"), 0);
    near(jreal(j, r0, "background_nj"), (35 * 39 + 23 * 961) * 0.03); /* 704.04 */
    near(jreal(j, r0, "termination_nj"), 2.56);
    near(jreal(j, r1, "background_nj"), 690.0);
    near(jreal(j, r1, "termination_nj"), 19.92); /* terminates rank 0's read */
    near(jreal(j, r1, "act_nj"), 0);
    assert_int_equal(jint(j, r1, "reads_other"), 1);
    json_decref(j);

    struct dram_energy en;
    dram_power_totals(p, &en);
    near(en.act_nj, 12.15);
    near(en.read_nj, 7.32);
    near(en.background_nj, 704.04 + 690.0);
    near(en.termination_nj, 2.56 + 19.92);
    near(en.total_nj, 1435.99);
    near(en.avg_power_mw, 1435.99 / 1250.0 * 1e3);
    dram_power_destroy(p);
}

static void test_write_autoprecharge_closes_bank(void **state) {
    (void)state;
    struct dram_spec s = ddr3();
    struct dram_power *p = make(&s);
    cmd(p, 0, DRAM_ACT, 0, 5);
    cmd(p, 11, DRAM_WRA, 0, 5);
    dram_power_finish(p, 100);
    json_t *j = stats_json(p, NULL);
    const char *r0 = "dram.energy.ch0.pc0.r0", *r1 = "dram.energy.ch0.pc0.r1";
    assert_int_equal(jint(j, r0, "act_stby_cyc"), 11);
    assert_int_equal(jint(j, r0, "pre_stby_cyc"), 89);
    near(jreal(j, r0, "write_nj"), 7.68);
    near(jreal(j, r0, "background_nj"), (35 * 11 + 23 * 89) * 0.03);
    near(jreal(j, r0, "termination_nj"), 0); /* pds_termW = 0 */
    near(jreal(j, r1, "termination_nj"), 18.304);
    json_decref(j);
    dram_power_destroy(p);
}

static void test_refresh(void **state) {
    (void)state;
    struct dram_spec s = ddr3();
    struct dram_power *p = make(&s);
    cmd(p, 0, DRAM_ACT, 1, 2);
    cmd(p, 50, DRAM_PREA, 1, 0);
    cmd(p, 61, DRAM_REF, 1, 0);
    cmd(p, 400, DRAM_REF, 1, 0);
    dram_power_finish(p, 1000);
    json_t *j = stats_json(p, NULL);
    const char *r1 = "dram.energy.ch0.pc0.r1";
    assert_int_equal(jint(j, r1, "refs"), 2);
    near(jreal(j, r1, "refresh_nj"), 2 * 295.68);
    near(jreal(j, r1, "background_nj"), (35 * 50 + 23 * 950) * 0.03);
    json_decref(j);
    struct dram_energy en;
    dram_power_totals(p, &en);
    near(en.refresh_nj, 591.36);
    dram_power_destroy(p);
}

static void test_power_down_residency(void **state) {
    (void)state;
    struct dram_spec s = ddr3();
    struct dram_power *p = make(&s);
    cmd(p, 100, DRAM_PDEF, 0, 0); /* all closed: fast precharge PD */
    cmd(p, 400, DRAM_PDX, 0, 0);
    cmd(p, 500, DRAM_PDES, 0, 0); /* slow precharge PD */
    cmd(p, 700, DRAM_PDX, 0, 0);
    cmd(p, 800, DRAM_ACT, 0, 3);
    cmd(p, 850, DRAM_PDEF, 0, 0); /* bank 3 open: active PD */
    cmd(p, 950, DRAM_PDX, 0, 0);
    cmd(p, 990, DRAM_PRE, 0, 3);
    dram_power_finish(p, 1000);
    json_t *j = stats_json(p, NULL);
    const char *r0 = "dram.energy.ch0.pc0.r0";
    assert_int_equal(jint(j, r0, "pre_pdn_fast_cyc"), 300);
    assert_int_equal(jint(j, r0, "pre_pdn_slow_cyc"), 200);
    assert_int_equal(jint(j, r0, "act_pdn_cyc"), 100);
    assert_int_equal(jint(j, r0, "act_stby_cyc"), 90);
    assert_int_equal(jint(j, r0, "pre_stby_cyc"), 310);
    /* 23*310 + 15*300 + 12*200 + 35*90 + 22*100 = 19380 mA.tCK */
    near(jreal(j, r0, "background_nj"), 581.4);
    json_decref(j);
    dram_power_destroy(p);
}

static void test_pdes_with_open_bank_is_active_pd(void **state) {
    (void)state;
    struct dram_spec s = ddr3();
    struct dram_power *p = make(&s);
    cmd(p, 0, DRAM_ACT, 0, 0);
    cmd(p, 10, DRAM_PDES, 0, 0);
    cmd(p, 60, DRAM_ACT, 0, 1); /* wakes the rank without a PDX */
    dram_power_finish(p, 100);
    json_t *j = stats_json(p, NULL);
    const char *r0 = "dram.energy.ch0.pc0.r0";
    assert_int_equal(jint(j, r0, "act_pdn_cyc"), 50);
    assert_int_equal(jint(j, r0, "pre_pdn_slow_cyc"), 0);
    assert_int_equal(jint(j, r0, "act_stby_cyc"), 50);
    near(jreal(j, r0, "background_nj"), (22 * 50 + 35 * 50) * 0.03);
    json_decref(j);
    dram_power_destroy(p);
}

static void run_act_read_pre(int64_t devices, struct dram_energy *en) {
    struct dram_spec s = ddr3();
    s.devices_per_rank = devices;
    struct dram_power *p = make(&s);
    cmd(p, 100, DRAM_ACT, 0, 0);
    cmd(p, 111, DRAM_RD, 0, 0);
    cmd(p, 120, DRAM_WR, 1, 0);
    cmd(p, 139, DRAM_PRE, 0, 0);
    cmd(p, 200, DRAM_REF, 0, 0);
    dram_power_finish(p, 1000);
    dram_power_totals(p, en);
    dram_power_destroy(p);
}

static void test_energy_scales_with_devices(void **state) {
    (void)state;
    struct dram_energy a, b;
    run_act_read_pre(16, &a);
    run_act_read_pre(4, &b);
    near(b.act_nj, a.act_nj / 4);
    near(b.read_nj, a.read_nj / 4);
    near(b.write_nj, a.write_nj / 4);
    near(b.refresh_nj, a.refresh_nj / 4);
    near(b.background_nj, a.background_nj / 4);
    near(b.termination_nj, a.termination_nj / 4);
    near(b.total_nj, a.total_nj / 4);
    near(b.avg_power_mw, a.avg_power_mw / 4);
    near(b.act_nj, 12.15 / 4);
    near(b.refresh_nj, 295.68 / 4);
}

static void test_no_termination_outside_ddr3(void **state) {
    (void)state;
    struct dram_spec s = ddr3();
    s.std = DRAM_DDR4;
    struct dram_power *p = make(&s);
    cmd(p, 0, DRAM_ACT, 0, 0);
    cmd(p, 11, DRAM_RD, 0, 0);
    cmd(p, 20, DRAM_WR, 0, 0);
    dram_power_finish(p, 100);
    struct dram_energy en;
    dram_power_totals(p, &en);
    near(en.termination_nj, 0);
    near(en.read_nj, 7.32);
    near(en.write_nj, 7.68);
    dram_power_destroy(p);
}

static void test_finish_twice_extends_span(void **state) {
    (void)state;
    struct dram_spec s = ddr3();
    struct dram_power *p = make(&s);
    dram_power_finish(p, 1000);
    cmd(p, 1500, DRAM_REF, 0, 0);
    dram_power_finish(p, 2000);
    struct dram_energy en;
    dram_power_totals(p, &en);
    near(en.background_nj, 2 * 2 * 690.0);
    near(en.refresh_nj, 295.68);
    near(en.avg_power_mw, (2760.0 + 295.68) / 2500.0 * 1e3);
    dram_power_destroy(p);
}

static void test_rank_unit_indexing_hbm2(void **state) {
    (void)state;
    const struct dram_spec *s = dram_preset_find("hbm2");
    assert_non_null(s);
    struct dram_power *p = make(s);
    struct dram_cmd_rec r = {.cycle = 10, .cmd = DRAM_ACT, .ch = 5, .pc = 1, .bg = 3, .bank = 3};
    dram_power_observe(p, &r);
    dram_power_finish(p, 100);
    size_t n = 0;
    json_t *j = stats_json(p, &n);
    assert_int_equal(n, 1 + 8 * 2);
    assert_int_equal(jint(j, "dram.energy.ch5.pc1.r0", "acts"), 1);
    assert_int_equal(jint(j, "dram.energy.ch5.pc1.r0", "act_stby_cyc"), 90);
    assert_int_equal(jint(j, "dram.energy.ch5.pc0.r0", "acts"), 0);
    assert_int_equal(jint(j, "dram.energy", "acts"), 1);
    assert_int_equal(jint(j, "dram.energy", "rank_units"), 16);
    near(jreal(j, "dram.energy", "termination_nj"), 0);
    json_decref(j);
    dram_power_destroy(p);
}

static void test_many_ranks_register_totals_only(void **state) {
    (void)state;
    struct dram_spec s = ddr3();
    s.channels = 64; /* 128 rank units */
    struct dram_power *p = make(&s);
    dram_power_finish(p, 10);
    size_t n = 0;
    json_t *j = stats_json(p, &n);
    assert_int_equal(n, 1);
    near(jreal(j, "dram.energy", "background_nj"), 128 * 23 * 10 * 0.03);
    json_decref(j);
    dram_power_destroy(p);

    s.channels = 32; /* exactly 64: per-rank groups too */
    p = make(&s);
    dram_power_finish(p, 10);
    j = stats_json(p, &n);
    assert_int_equal(n, 65);
    assert_non_null(json_object_get(j, "dram.energy.ch31.pc0.r1"));
    json_decref(j);
    dram_power_destroy(p);
}

static void test_create_rejects_too_many_banks(void **state) {
    (void)state;
    struct dram_spec s = ddr3();
    s.bankgroups = 4;
    s.banks_per_group = 32;
    struct ws_err e = {{0}};
    assert_null(dram_power_create(&s, &e));
    assert_string_equal(e.msg, "dram power: 128 banks per rank, at most 64 are modelled");
}

/* Every built-in preset's currents give non-negative components and a positive cost for each
 * command (IDD0*tRC above the standby it displaces, IDD4R/IDD4W above IDD3N, IDD5 >= IDD3N). */
static void test_presets_give_positive_energies(void **state) {
    (void)state;
    for (unsigned i = 0; i < dram_npresets; i++) {
        const struct dram_spec *s = dram_presets[i].spec;
        struct dram_power *p = make(s);
        struct dram_cmd_rec r = {.cycle = 0, .cmd = DRAM_ACT};
        dram_power_observe(p, &r);
        r.cycle = (uint64_t)s->RCDRD;
        r.cmd = DRAM_RD;
        dram_power_observe(p, &r);
        r.cycle += (uint64_t)s->CCD_L;
        r.cmd = DRAM_WR;
        dram_power_observe(p, &r);
        r.cycle = (uint64_t)s->RC;
        r.cmd = DRAM_PRE;
        dram_power_observe(p, &r);
        r.cycle += (uint64_t)s->RP;
        r.cmd = DRAM_REF;
        dram_power_observe(p, &r);
        dram_power_finish(p, r.cycle + (uint64_t)s->RFC);
        struct dram_energy en;
        dram_power_totals(p, &en);
        if (!(en.act_nj > 0 && en.read_nj > 0 && en.write_nj > 0 && en.refresh_nj >= 0 &&
              en.background_nj > 0 && en.termination_nj >= 0))
            fail_msg("preset %s: act %g read %g write %g refresh %g background %g",
                     dram_presets[i].name, en.act_nj, en.read_nj, en.write_nj, en.refresh_nj,
                     en.background_nj);
        dram_power_destroy(p);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_is_precharge_standby),
        cmocka_unit_test(test_act_read_pre),
        cmocka_unit_test(test_write_autoprecharge_closes_bank),
        cmocka_unit_test(test_refresh),
        cmocka_unit_test(test_power_down_residency),
        cmocka_unit_test(test_pdes_with_open_bank_is_active_pd),
        cmocka_unit_test(test_energy_scales_with_devices),
        cmocka_unit_test(test_no_termination_outside_ddr3),
        cmocka_unit_test(test_finish_twice_extends_span),
        cmocka_unit_test(test_rank_unit_indexing_hbm2),
        cmocka_unit_test(test_many_ranks_register_totals_only),
        cmocka_unit_test(test_create_rejects_too_many_banks),
        cmocka_unit_test(test_presets_give_positive_energies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
