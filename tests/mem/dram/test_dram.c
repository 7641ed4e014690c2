/* Tests of the DRAM device timing model (src/mem/dram/dram.c): for every constraint row, the
 * preceding command is issued at a known cycle and dram_ready_at() of the following command must
 * be exactly the cycle the preset's timing gives, blocked one cycle before and allowed at it
 * (Ramulator 2.1's assert_earliest_ready_at). The generic rows run over every preset; the
 * standard-specific ones (t32AW, rank switch, HBM dual command bus and pseudo-channels) on the
 * presets that have them. Last, the bank-state view. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/dram/dram.h"

/* every built-in preset, so that a new one is covered by the exact-latency tests */
#define NPRESETS ((int)dram_npresets)
enum { T0 = 1000, ROW = 7 };

static struct dram_spec preset(const char *name) {
    const struct dram_spec *p = dram_preset_find(name);
    assert_non_null(p);
    return *p;
}

/* A modified preset must still be a legal spec. */
static void validate(const struct dram_spec *s) {
    struct ws_err e = {{0}};
    if (dram_spec_validate(s, NULL, &e) != 0) fail_msg("%s: %s", s->preset, e.msg);
}

static void chan_open(struct dram_chan *c, const struct dram_spec *s) {
    struct ws_err e = {{0}};
    assert_int_equal(dram_chan_init(c, s, 0, &e), 0);
}

static uint64_t max2(uint64_t a, uint64_t b) {
    return a > b ? a : b;
}
static uint64_t u(int64_t v) {
    return (uint64_t)v;
}

static struct dram_addr loc(uint32_t pc, uint32_t rank, uint32_t bg, uint32_t bank, uint32_t row) {
    return (struct dram_addr){0, pc, rank, bg, bank, row, 3};
}
/* Bank A, C = another bank of A's group, B = a bank in another group (same as C when the part
 * has a single bank group, as DDR3 does). */
static struct dram_addr bank_a(void) {
    return loc(0, 0, 0, 0, ROW);
}
static struct dram_addr bank_c(void) {
    return loc(0, 0, 0, 1, ROW);
}
static struct dram_addr bank_b(const struct dram_spec *s) {
    return s->bankgroups > 1 ? loc(0, 0, 1, 0, ROW) : loc(0, 0, 0, 2, ROW);
}
static uint64_t rrd_ab(const struct dram_spec *s) {
    return u(s->bankgroups > 1 ? s->RRD_S : s->RRD_L);
}
static uint64_t ccd_ab(const struct dram_spec *s) {
    return u(s->bankgroups > 1 ? s->CCD_S : s->CCD_L);
}
static uint64_t wtr_ab(const struct dram_spec *s) {
    return u(s->bankgroups > 1 ? s->WTR_S : s->WTR_L);
}

/* Issues cmd at t, which must be allowed. */
static void issue_at(struct dram_chan *c, enum dram_cmd cmd, struct dram_addr a, uint64_t t) {
    uint64_t r = dram_ready_at(c, cmd, &a, t);
    if (r != t)
        fail_msg("%s: %s at %llu not allowed (ready at %llu)", c->s->preset, dram_cmd_names[cmd],
                 (unsigned long long)t, (unsigned long long)r);
    dram_issue(c, cmd, &a, t);
}
/* Issues cmd at the first allowed cycle >= t and returns that cycle. */
static uint64_t issue_asap(struct dram_chan *c, enum dram_cmd cmd, struct dram_addr a, uint64_t t) {
    uint64_t r = dram_ready_at(c, cmd, &a, t);
    if (r >= DRAM_NEVER) fail_msg("%s: %s never allowed", c->s->preset, dram_cmd_names[cmd]);
    dram_issue(c, cmd, &a, r);
    return r;
}

/* The earliest cycle for cmd is exactly `want`: asked from 0, from want - 1 (blocked) and from
 * want (allowed) it answers want. */
#define TIGHT(c, cmd, a, want, rule) tight(c, cmd, a, want, rule, __LINE__)
static void tight(const struct dram_chan *c, enum dram_cmd cmd, struct dram_addr a, uint64_t want,
                  const char *rule, int line) {
    uint64_t r0 = dram_ready_at(c, cmd, &a, 0);
    uint64_t before = dram_ready_at(c, cmd, &a, want - 1);
    uint64_t at = dram_ready_at(c, cmd, &a, want);
    if (r0 != want || before != want || at != want)
        fail_msg("line %d, %s on %s: %s ready at %llu (asked at %llu: %llu, at %llu: %llu), "
                 "expected %llu",
                 line, rule, c->s->preset, dram_cmd_names[cmd], (unsigned long long)r0,
                 (unsigned long long)(want - 1), (unsigned long long)before,
                 (unsigned long long)want, (unsigned long long)at, (unsigned long long)want);
}
/* cmd may issue at `now` (its fences lie at or before now). */
#define ALLOWED(c, cmd, a, now, rule) allowed(c, cmd, a, now, rule, __LINE__)
static void allowed(const struct dram_chan *c, enum dram_cmd cmd, struct dram_addr a, uint64_t now,
                    const char *rule, int line) {
    uint64_t r = dram_ready_at(c, cmd, &a, now);
    if (r != now)
        fail_msg("line %d, %s on %s: %s ready at %llu, expected it allowed at %llu", line, rule,
                 c->s->preset, dram_cmd_names[cmd], (unsigned long long)r, (unsigned long long)now);
}
#define NEVER(c, cmd, a, now, rule) never(c, cmd, a, now, rule, __LINE__)
static void never(const struct dram_chan *c, enum dram_cmd cmd, struct dram_addr a, uint64_t now,
                  const char *rule, int line) {
    uint64_t r = dram_ready_at(c, cmd, &a, now);
    if (r != DRAM_NEVER)
        fail_msg("line %d, %s on %s: %s ready at %llu, expected DRAM_NEVER", line, rule,
                 c->s->preset, dram_cmd_names[cmd], (unsigned long long)r);
}

/* Activates A, C and B (each at its first allowed cycle from T0) and returns a cycle at which
 * every ACT-side fence has long passed. */
static uint64_t open3(struct dram_chan *c) {
    const struct dram_spec *s = c->s;
    uint64_t t = issue_asap(c, DRAM_ACT, bank_a(), T0);
    t = issue_asap(c, DRAM_ACT, bank_c(), t);
    issue_asap(c, DRAM_ACT, bank_b(s), t);
    return T0 + 200;
}

/* ---- same bank ---- */

static void test_rcd(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        struct dram_chan c;
        chan_open(&c, &s);
        NEVER(&c, DRAM_RD, bank_a(), T0, "RD to a closed bank");
        NEVER(&c, DRAM_PRE, bank_a(), T0, "PRE of a closed bank");
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        TIGHT(&c, DRAM_RD, bank_a(), T0 + u(s.RCDRD), "tRCDRD");
        TIGHT(&c, DRAM_RDA, bank_a(), T0 + u(s.RCDRD), "tRCDRD (RDA)");
        TIGHT(&c, DRAM_WR, bank_a(), T0 + u(s.RCDWR), "tRCDWR");
        TIGHT(&c, DRAM_WRA, bank_a(), T0 + u(s.RCDWR), "tRCDWR (WRA)");
        struct dram_addr other_row = bank_a();
        other_row.row = ROW + 1;
        NEVER(&c, DRAM_RD, other_row, T0 + 100, "RD to a row that is not open");
        NEVER(&c, DRAM_ACT, bank_a(), T0 + 100, "ACT to an open bank");
        dram_chan_free(&c);
    }
}

static void test_ras_rp_rc(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        struct dram_chan c;
        /* tRAS */
        chan_open(&c, &s);
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        TIGHT(&c, DRAM_PRE, bank_a(), T0 + u(s.RAS), "tRAS");
        dram_chan_free(&c);
        /* tRP: PRE at ACT + tRC, so that tRC cannot bind */
        chan_open(&c, &s);
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        issue_at(&c, DRAM_PRE, bank_a(), T0 + u(s.RC));
        TIGHT(&c, DRAM_ACT, bank_a(), T0 + u(s.RC + s.RP), "tRP");
        dram_chan_free(&c);
        /* PRE at ACT + tRAS: tRC and tRAS + tRP, whichever is longer (GDDR6: 62 < 50 + 20) */
        chan_open(&c, &s);
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        issue_at(&c, DRAM_PRE, bank_a(), T0 + u(s.RAS));
        TIGHT(&c, DRAM_ACT, bank_a(), T0 + max2(u(s.RC), u(s.RAS + s.RP)), "tRC / tRAS+tRP");
        dram_chan_free(&c);
        /* tRC alone: a variant whose tRC exceeds tRAS + tRP */
        struct dram_spec w = s;
        w.RC = s.RAS + s.RP + 7;
        validate(&w);
        chan_open(&c, &w);
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        issue_at(&c, DRAM_PRE, bank_a(), T0 + u(w.RAS));
        TIGHT(&c, DRAM_ACT, bank_a(), T0 + u(w.RC), "tRC");
        dram_chan_free(&c);
    }
}

static void test_rtp_wr(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        struct dram_chan c;
        chan_open(&c, &s);
        uint64_t t = open3(&c);
        issue_at(&c, DRAM_RD, bank_a(), t);
        TIGHT(&c, DRAM_PRE, bank_a(), t + u(s.RTP), "tRTP");
        if (s.dual_cmd_bus) /* a row command beside the column command */
            ALLOWED(&c, DRAM_PRE, bank_c(), t, "dual command bus: PRE with RD");
        else
            TIGHT(&c, DRAM_PRE, bank_c(), t + 1, "single command bus: PRE after RD");
        dram_chan_free(&c);
        chan_open(&c, &s);
        t = open3(&c);
        issue_at(&c, DRAM_WR, bank_a(), t);
        TIGHT(&c, DRAM_PRE, bank_a(), t + u(s.CWL + s.nBL + s.WR), "write recovery");
        dram_chan_free(&c);
    }
}

/* RDA / WRA: the auto-precharge starts at max(column + tRTP (or write recovery), ACT + tRAS),
 * and the next ACT follows it by tRP. */
static void test_auto_precharge(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        assert_true(s.RC <= s.RAS + s.RP); /* so tRC never binds after an auto-precharge */
        struct dram_chan c;
        /* early RDA: tRAS binds */
        chan_open(&c, &s);
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        uint64_t t = T0 + u(s.RCDRD);
        issue_at(&c, DRAM_RDA, bank_a(), t);
        TIGHT(&c, DRAM_ACT, bank_a(), max2(t + u(s.RTP), T0 + u(s.RAS)) + u(s.RP), "RDA early");
        NEVER(&c, DRAM_RD, bank_a(), t + 1, "RD after RDA closed the row");
        NEVER(&c, DRAM_PRE, bank_a(), t + 1, "PRE after RDA");
        dram_chan_free(&c);
        /* late RDA: tRTP binds */
        chan_open(&c, &s);
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        t = T0 + u(s.RAS) + 5;
        issue_at(&c, DRAM_RDA, bank_a(), t);
        TIGHT(&c, DRAM_ACT, bank_a(), t + u(s.RTP + s.RP), "RDA late");
        dram_chan_free(&c);
        /* WRA at tRCDWR */
        chan_open(&c, &s);
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        t = T0 + u(s.RCDWR);
        issue_at(&c, DRAM_WRA, bank_a(), t);
        TIGHT(&c, DRAM_ACT, bank_a(), max2(t + u(s.CWL + s.nBL + s.WR), T0 + u(s.RAS)) + u(s.RP),
              "WRA");
        dram_chan_free(&c);
    }
}

/* ---- ACT to ACT in a rank ---- */

static void test_rrd(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        struct dram_chan c;
        chan_open(&c, &s);
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        TIGHT(&c, DRAM_ACT, bank_c(), T0 + u(s.RRD_L), "tRRD_L (same bank group)");
        TIGHT(&c, DRAM_ACT, bank_b(&s), T0 + rrd_ab(&s), "tRRD_S (other bank group)");
        /* an ACT to another group in between leaves the same-group fence in place */
        uint64_t tb = issue_asap(&c, DRAM_ACT, bank_b(&s), T0);
        TIGHT(&c, DRAM_ACT, bank_c(), max2(T0 + u(s.RRD_L), tb + rrd_ab(&s)), "tRRD_L after S");
        dram_chan_free(&c);
    }
}

static uint32_t bg_of(const struct dram_spec *s, int i) {
    return (uint32_t)(i % s->bankgroups);
}
static uint32_t ba_of(const struct dram_spec *s, int i) {
    return (uint32_t)((i / s->bankgroups) % s->banks_per_group);
}
static struct dram_addr nth_bank(const struct dram_spec *s, int i) {
    return loc(0, 0, bg_of(s, i), ba_of(s, i), ROW);
}
/* tRRD from ACT number i to ACT number j (nth_bank numbering) */
static uint64_t rrd_ij(const struct dram_spec *s, int i, int j) {
    return u(bg_of(s, i) == bg_of(s, j) ? s->RRD_L : s->RRD_S);
}

/* Four ACTs back to back, then the fifth (and sixth) wait for the oldest ACT + tFAW. */
static void faw_case(const struct dram_spec *s, bool faw_must_bind) {
    struct dram_chan c;
    chan_open(&c, s);
    uint64_t act[6];
    act[0] = issue_asap(&c, DRAM_ACT, nth_bank(s, 0), T0);
    for (int i = 1; i < 4; i++) {
        act[i] = issue_asap(&c, DRAM_ACT, nth_bank(s, i), act[i - 1]);
        assert_int_equal(act[i], act[i - 1] + rrd_ij(s, i - 1, i));
    }
    for (int i = 4; i < 6; i++) {
        uint64_t want = max2(act[i - 1] + rrd_ij(s, i - 1, i), act[i - 4] + u(s->FAW));
        for (int k = 0; k < i; k++)
            if (bg_of(s, k) == bg_of(s, i)) want = max2(want, act[k] + u(s->RRD_L));
        if (faw_must_bind) assert_int_equal(want, act[i - 4] + u(s->FAW));
        TIGHT(&c, DRAM_ACT, nth_bank(s, i), want, i == 4 ? "tFAW (5th ACT)" : "tFAW (6th ACT)");
        act[i] = issue_asap(&c, DRAM_ACT, nth_bank(s, i), want);
    }
    dram_chan_free(&c);
}

static void test_faw(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        /* on the presets tFAW binds for DDR3, DDR4, GDDR6 and the QV100 HBM2; both GDDR5s (23 <
         * 4 x 6, 35 < 4 x 9) and JEDEC HBM2 (15 < 4 x 4) are bound by tRRD alone */
        bool binds = s.FAW > 3 * s.RRD_L + s.RRD_L;
        faw_case(&s, binds);
        struct dram_spec w = s;
        w.FAW = 4 * s.RRD_L + 3;
        validate(&w);
        faw_case(&w, true);
    }
}

/* GDDR5 t32AW: the 33rd ACT of a rank waits for the 1st + t32AW. ACTs go at their first allowed
 * cycle over the 16 banks, each bank precharged 8 ACTs after it opened. */
static void x32aw_case(const struct dram_spec *s, bool must_bind) {
    struct dram_chan c;
    chan_open(&c, s);
    uint64_t act[33], pre[33] = {0}, t = T0;
    for (int i = 0; i < 33; i++) {
        if (i >= 8) {
            pre[i - 8] = issue_asap(&c, DRAM_PRE, nth_bank(s, i - 8), t);
            t = pre[i - 8] + 1;
        }
        if (i == 32) break;
        act[i] = issue_asap(&c, DRAM_ACT, nth_bank(s, i), t);
        t = act[i] + 1;
    }
    uint64_t want = max2(act[31] + rrd_ij(s, 31, 32), act[28] + u(s->FAW));
    want = max2(want, act[0] + u(s->X32AW));
    want = max2(want, pre[16] + u(s->RP)); /* bank 0 last opened by ACT 16 */
    want = max2(want, act[16] + u(s->RC));
    want = max2(want, t);
    if (must_bind) assert_int_equal(want, act[0] + u(s->X32AW));
    TIGHT(&c, DRAM_ACT, nth_bank(s, 32), want, "t32AW (33rd ACT)");
    dram_chan_free(&c);
}

static void test_x32aw(void **state) {
    (void)state;
    struct dram_spec s = preset("gddr5-gtx480");
    assert_int_equal(s.X32AW, 184);
    /* as preset, 32 ACTs take 31 x tRRD = 186 > 184 cycles: t32AW cannot bind */
    x32aw_case(&s, false);
    s.X32AW = 300;
    validate(&s);
    x32aw_case(&s, true);
}

/* seed 002 Table 4.1's GDDR5 in 0.667 ns command clocks, as the thesis's MERB arithmetic reads
 * it: tRC 60, tRCD = tRP = tCAS 18, and a 128 B line (two 64 B bursts) in tBURST = 4; 48 GB/s
 * per 64-bit channel at 6 Gb/s. */
static void test_gddr5_6gbps(void **state) {
    (void)state;
    struct dram_spec s = preset("gddr5-6gbps"), g = preset("gddr5-gtx480");
    assert_int_equal(s.tCK_ps, 667);
    assert_int_equal(s.RC, 60);
    assert_int_equal(s.RCDRD, 18);
    assert_int_equal(s.RP, 18);
    assert_int_equal(s.CL, 18);
    assert_int_equal(s.RAS, 42);
    assert_int_equal(s.FAW, 35);
    assert_int_equal(s.CCD_L, 3);
    assert_int_equal(s.CCD_S, 2);
    assert_int_equal(2 * s.nBL, 4); /* tBURST of a 128 B line */
    assert_true(fabs(dram_peak_bw_channel(&s) - 48e9) < 0.02 * 48e9);
    /* the table's ns, to within a command clock: tRC 40 ns, tRCD 12 ns (GPGPU-Sim's GTX480 runs
     * the same numbers as 924 MHz cycles: 43.3 and 13.0 ns) */
    assert_true(labs((long)(s.RC * s.tCK_ps) - 40000L) <= s.tCK_ps);
    assert_true(labs((long)(s.RCDRD * s.tCK_ps) - 12000L) <= s.tCK_ps);
    assert_true(g.RC * g.tCK_ps > s.RC * s.tCK_ps);
    /* an unloaded read to a closed bank: tRCD + tCAS + burst = 38 command clocks */
    struct dram_chan c;
    chan_open(&c, &s);
    issue_at(&c, DRAM_ACT, bank_a(), T0);
    struct dram_addr a = bank_a();
    uint64_t rd = dram_ready_at(&c, DRAM_RD, &a, T0);
    assert_int_equal(dram_read_done(&s, rd) - T0, 38);
    dram_chan_free(&c);
}

/* ---- column to column ---- */

static void test_ccd(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        struct dram_chan c;
        chan_open(&c, &s);
        uint64_t t = open3(&c);
        issue_at(&c, DRAM_RD, bank_a(), t);
        TIGHT(&c, DRAM_RD, bank_a(), t + u(s.CCD_L), "tCCD_L RD->RD same bank");
        TIGHT(&c, DRAM_RD, bank_c(), t + u(s.CCD_L), "tCCD_L RD->RD");
        TIGHT(&c, DRAM_RD, bank_b(&s), t + ccd_ab(&s), "tCCD_S RD->RD");
        dram_chan_free(&c);
        chan_open(&c, &s);
        t = open3(&c);
        issue_at(&c, DRAM_WR, bank_a(), t);
        TIGHT(&c, DRAM_WR, bank_a(), t + u(s.CCD_L), "tCCD_L WR->WR same bank");
        TIGHT(&c, DRAM_WR, bank_c(), t + u(s.CCD_L), "tCCD_L WR->WR");
        TIGHT(&c, DRAM_WR, bank_b(&s), t + ccd_ab(&s), "tCCD_S WR->WR");
        dram_chan_free(&c);
    }
}

static void test_rtw_wtr(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        assert_true(s.RTW > s.CCD_L);
        struct dram_chan c;
        chan_open(&c, &s);
        uint64_t t = open3(&c);
        issue_at(&c, DRAM_RD, bank_a(), t);
        TIGHT(&c, DRAM_WR, bank_a(), t + u(s.RTW), "tRTW same bank");
        TIGHT(&c, DRAM_WR, bank_c(), t + u(s.RTW), "tRTW");
        TIGHT(&c, DRAM_WR, bank_b(&s), t + u(s.RTW), "tRTW other group");
        dram_chan_free(&c);
        chan_open(&c, &s);
        t = open3(&c);
        issue_at(&c, DRAM_WR, bank_a(), t);
        uint64_t end = t + u(s.CWL + s.nBL);
        TIGHT(&c, DRAM_RD, bank_a(), end + u(s.WTR_L), "tWTR_L same bank");
        TIGHT(&c, DRAM_RD, bank_c(), end + u(s.WTR_L), "tWTR_L");
        TIGHT(&c, DRAM_RD, bank_b(&s), end + wtr_ab(&s), "tWTR_S");
        dram_chan_free(&c);
    }
}

/* ---- rank switch ---- */

static void rank_case(const struct dram_spec *s) {
    struct dram_addr r0 = loc(0, 0, 0, 0, ROW), r1 = loc(0, 1, 0, 0, ROW);
    struct dram_chan c;
    /* RD -> RD other rank: the burst plus tRTRS */
    chan_open(&c, s);
    issue_at(&c, DRAM_ACT, r0, T0);
    issue_at(&c, DRAM_ACT, r1, T0 + 1); /* ranks have their own tRRD */
    uint64_t t = T0 + 200;
    issue_at(&c, DRAM_RD, r0, t);
    TIGHT(&c, DRAM_RD, r1, t + u(s->nBL + s->RTRS), "RD->RD other rank");
    TIGHT(&c, DRAM_WR, r1, t + u(s->RTW), "RD->WR other rank");
    TIGHT(&c, DRAM_ACT, loc(0, 1, 0, 1, ROW), t + 1, "ACT other rank: command bus only");
    dram_chan_free(&c);
    /* WR -> RD and WR -> WR other rank */
    chan_open(&c, s);
    issue_at(&c, DRAM_ACT, r0, T0);
    issue_at(&c, DRAM_ACT, r1, T0 + 1);
    issue_at(&c, DRAM_WR, r0, t);
    int64_t gap = s->CWL + s->nBL + s->RTRS - s->CL;
    TIGHT(&c, DRAM_RD, r1, t + (gap > 1 ? u(gap) : 1), "WR->RD other rank");
    TIGHT(&c, DRAM_WR, r1, t + u(s->nBL + s->RTRS), "WR->WR other rank");
    dram_chan_free(&c);
}

static void test_rank_switch(void **state) {
    (void)state;
    struct dram_spec d3 = preset("ddr3-1600");
    assert_int_equal(d3.ranks, 2);
    rank_case(&d3);
    struct dram_spec d4 = preset("ddr4-2400");
    d4.ranks = 2;
    validate(&d4);
    rank_case(&d4);
    /* with the presets' latencies the WR->RD rank gap is at most the command bus (DDR4:
     * 12 + 4 + 2 - 17 = 1); a wider tRTRS makes it bind: 12 + 4 + 8 - 17 = 7 */
    d4.RTRS = 8;
    validate(&d4);
    assert_int_equal(d4.CWL + d4.nBL + d4.RTRS - d4.CL, 7);
    rank_case(&d4);
}

/* ---- refresh ---- */

static void test_refresh(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        struct dram_chan c;
        chan_open(&c, &s);
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        NEVER(&c, DRAM_REF, bank_a(), T0 + 1000, "REF with a bank open");
        uint64_t p = T0 + u(s.RC); /* late enough that tRC does not bind */
        issue_at(&c, DRAM_PRE, bank_a(), p);
        TIGHT(&c, DRAM_REF, bank_a(), p + u(s.RP), "PRE->REF tRP");
        uint64_t r = p + u(s.RP);
        issue_at(&c, DRAM_REF, bank_a(), r);
        TIGHT(&c, DRAM_ACT, bank_a(), r + u(s.RFC), "REF->ACT tRFC");
        TIGHT(&c, DRAM_ACT, bank_b(&s), r + u(s.RFC), "REF->ACT tRFC (other bank)");
        TIGHT(&c, DRAM_REF, bank_a(), r + u(s.RFC), "REF->REF tRFC");
        if (s.pseudo_channels > 1) /* the other pseudo-channel is a rank unit of its own */
            TIGHT(&c, DRAM_ACT, loc(1, 0, 0, 0, ROW), r + 1, "REF on pc0, ACT on pc1");
        dram_chan_free(&c);
        /* PREA closes every bank; REF follows by tRP */
        chan_open(&c, &s);
        uint64_t t = open3(&c);
        issue_at(&c, DRAM_PREA, bank_a(), t);
        NEVER(&c, DRAM_PREA, bank_a(), t + 1, "PREA with all banks closed");
        TIGHT(&c, DRAM_REF, bank_a(), t + u(s.RP), "PREA->REF tRP");
        TIGHT(&c, DRAM_ACT, bank_b(&s), t + u(s.RP), "PREA->ACT tRP");
        dram_chan_free(&c);
    }
}

/* Per-bank refresh (REFPB): its bank must be closed (tRP after PRE); it holds that bank for
 * tRFCpb while the rank's other banks wait only tRREFD to activate or refresh; an all-bank REF
 * waits for the refreshing bank; an ACT delays the next REFPB by tRRD_S. Parts without it
 * (dram.RFCpb = 0) never allow it. */
static void test_refresh_per_bank(void **state) {
    (void)state;
    int with = 0;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        struct dram_chan c;
        chan_open(&c, &s);
        if (s.RFCpb == 0) {
            NEVER(&c, DRAM_REFPB, bank_a(), T0, "a part without per-bank refresh");
            dram_chan_free(&c);
            continue;
        }
        with++;
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        NEVER(&c, DRAM_REFPB, bank_a(), T0 + 1000, "REFPB with its bank open");
        uint64_t p = T0 + u(s.RC);
        issue_at(&c, DRAM_PRE, bank_a(), p);
        TIGHT(&c, DRAM_REFPB, bank_a(), p + u(s.RP), "PRE->REFPB tRP");
        uint64_t r = p + u(s.RP);
        issue_at(&c, DRAM_REFPB, bank_a(), r);
        struct dram_addr a0 = bank_a(), b = bank_b(&s);
        assert_int_equal(dram_bank_state_at(&c, &a0, r + 1), DRAM_BANK_REFRESHING);
        assert_int_equal(dram_bank_state_at(&c, &b, r + 1), DRAM_BANK_IDLE);
        TIGHT(&c, DRAM_ACT, bank_a(), r + u(s.RFCpb), "REFPB->ACT tRFCpb (its bank)");
        TIGHT(&c, DRAM_ACT, bank_b(&s), r + u(s.RREFD), "REFPB->ACT tRREFD (another bank)");
        TIGHT(&c, DRAM_REFPB, bank_b(&s), r + u(s.RREFD), "REFPB->REFPB tRREFD");
        TIGHT(&c, DRAM_REF, bank_a(), r + u(s.RFCpb), "REFPB->REF (its bank still refreshing)");
        uint64_t a = r + u(s.RFCpb) + 100;
        issue_at(&c, DRAM_ACT, bank_b(&s), a);
        TIGHT(&c, DRAM_REFPB, bank_c(), a + u(s.RRD_S), "ACT->REFPB tRRD_S");
        dram_chan_free(&c);
    }
    assert_true(with > 0); /* hbm3-h100 */
}

/* ---- power-down ---- */

static void test_powerdown(void **state) {
    (void)state;
    const enum dram_cmd others[] = {DRAM_ACT, DRAM_PRE, DRAM_PREA, DRAM_RD,   DRAM_WR,
                                    DRAM_RDA, DRAM_WRA, DRAM_REF,  DRAM_PDEF, DRAM_PDES};
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        struct dram_chan c;
        /* fast (DLL on), with a bank open: active power-down */
        chan_open(&c, &s);
        NEVER(&c, DRAM_PDX, bank_a(), T0, "PDX while up");
        issue_at(&c, DRAM_ACT, bank_c(), T0);
        NEVER(&c, DRAM_PDES, bank_a(), T0 + 1, "slow power-down with a bank open");
        TIGHT(&c, DRAM_PDEF, bank_a(), T0 + 1, "ACT->PDEF");
        issue_at(&c, DRAM_PDEF, bank_a(), T0 + 1);
        TIGHT(&c, DRAM_PDX, bank_a(), T0 + 1 + u(s.CKE), "PDEF->PDX tCKE");
        for (size_t k = 0; k < sizeof others / sizeof others[0]; k++)
            NEVER(&c, others[k], others[k] == DRAM_ACT ? bank_a() : bank_c(), T0 + 5000,
                  "command while powered down");
        uint64_t x = T0 + 1 + u(s.CKE) + 3;
        issue_at(&c, DRAM_PDX, bank_a(), x);
        TIGHT(&c, DRAM_ACT, bank_a(), x + u(s.XP), "PDX->ACT tXP");
        TIGHT(&c, DRAM_RD, bank_c(), x + u(s.XP), "PDX->RD tXP");
        TIGHT(&c, DRAM_PDEF, bank_a(), x + u(s.XP), "PDX->PDEF tXP");
        dram_chan_free(&c);
        /* slow (DLL off), all banks closed */
        chan_open(&c, &s);
        issue_at(&c, DRAM_PDES, bank_a(), T0);
        TIGHT(&c, DRAM_PDX, bank_a(), T0 + u(s.CKE), "PDES->PDX tCKE");
        issue_at(&c, DRAM_PDX, bank_a(), T0 + u(s.CKE));
        TIGHT(&c, DRAM_ACT, bank_a(), T0 + u(s.CKE + s.XPDLL), "PDX->ACT tXPDLL");
        TIGHT(&c, DRAM_REF, bank_a(), T0 + u(s.CKE + s.XPDLL), "PDX->REF tXPDLL");
        dram_chan_free(&c);
        /* power-down entry after a burst and after a refresh */
        chan_open(&c, &s);
        uint64_t t = open3(&c);
        issue_at(&c, DRAM_RD, bank_a(), t);
        TIGHT(&c, DRAM_PDEF, bank_a(), t + u(s.CL + s.nBL) + 1, "RD->PDE");
        dram_chan_free(&c);
        chan_open(&c, &s);
        t = open3(&c);
        issue_at(&c, DRAM_WR, bank_a(), t);
        TIGHT(&c, DRAM_PDEF, bank_a(), t + u(s.CWL + s.nBL + s.WR), "WR->PDE");
        dram_chan_free(&c);
        chan_open(&c, &s);
        issue_at(&c, DRAM_REF, bank_a(), T0);
        TIGHT(&c, DRAM_PDES, bank_a(), T0 + u(s.RFC), "REF->PDE");
        dram_chan_free(&c);
    }
    /* tXP and tXPDLL differ on DDR3/DDR4: the two exits are told apart */
    struct dram_spec d4 = preset("ddr4-2400");
    assert_int_equal(d4.XP, 8);
    assert_int_equal(d4.XPDLL, 29);
}

/* ---- command bus ---- */

static void test_command_bus(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        struct dram_chan c;
        chan_open(&c, &s);
        /* D opened long before, so only the bus can stop a command to it */
        struct dram_addr d = loc(0, 0, 0, 2, ROW), e = loc(0, 0, s.bankgroups > 2 ? 2 : 0, 3, ROW);
        issue_at(&c, DRAM_ACT, d, T0 - 200);
        issue_at(&c, DRAM_ACT, e, T0 - 100);
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        if (!s.dual_cmd_bus) {
            TIGHT(&c, DRAM_RD, d, T0 + 1, "single command bus: RD after ACT");
            TIGHT(&c, DRAM_PRE, d, T0 + 1, "single command bus: PRE after ACT");
            issue_at(&c, DRAM_RD, d, T0 + 1);
            TIGHT(&c, DRAM_PRE, e, T0 + 2, "single command bus: PRE after RD");
        } else {
            /* HBM: a row and a column command share a cycle, two of a kind do not */
            ALLOWED(&c, DRAM_RD, d, T0, "dual command bus: RD with ACT");
            TIGHT(&c, DRAM_PRE, e, T0 + 1, "dual command bus: PRE after ACT");
            issue_at(&c, DRAM_RD, d, T0);
            TIGHT(&c, DRAM_PRE, e, T0 + 1, "dual command bus: PRE after ACT and RD");
            uint64_t ccd = u(e.bg == d.bg ? s.CCD_L : s.CCD_S);
            TIGHT(&c, DRAM_RD, e, T0 + (ccd > 1 ? ccd : 1), "dual command bus: RD after RD");
        }
        dram_chan_free(&c);
    }
}

/* HBM2 pseudo-channels: one command bus (pair), two data buses and two rank units. */
static void test_pseudo_channels(void **state) {
    (void)state;
    struct dram_spec s = preset("hbm2");
    assert_int_equal(s.pseudo_channels, 2);
    struct dram_addr p0 = loc(0, 0, 0, 0, ROW), p0b = loc(0, 0, 1, 0, ROW);
    struct dram_addr p1 = loc(1, 0, 0, 0, ROW);
    struct dram_chan c;
    chan_open(&c, &s);
    issue_at(&c, DRAM_ACT, p0, T0);
    TIGHT(&c, DRAM_ACT, p1, T0 + 1, "ACT pc1 after ACT pc0: row bus only");
    issue_at(&c, DRAM_ACT, p1, T0 + 1);
    issue_at(&c, DRAM_ACT, p0b, T0 + 1 + u(s.RRD_S));
    uint64_t t = T0 + 200;
    issue_at(&c, DRAM_RD, p0, t);
    TIGHT(&c, DRAM_RD, p1, t + 1, "RD pc0 -> RD pc1: column bus only");
    TIGHT(&c, DRAM_RD, p0b, t + u(s.CCD_S), "RD pc0 -> RD pc0 other group");
    TIGHT(&c, DRAM_WR, p1, t + 1, "RD pc0 -> WR pc1: no turnaround");
    TIGHT(&c, DRAM_WR, p0b, t + u(s.RTW), "RD pc0 -> WR pc0");
    issue_at(&c, DRAM_RD, p1, t + 1);
    TIGHT(&c, DRAM_RD, p0b, t + u(s.CCD_S), "pc1's RD does not push pc0");
    dram_chan_free(&c);
    chan_open(&c, &s);
    issue_at(&c, DRAM_ACT, p0, T0);
    issue_at(&c, DRAM_ACT, p1, T0 + 1);
    issue_at(&c, DRAM_ACT, p0b, T0 + 1 + u(s.RRD_S));
    issue_at(&c, DRAM_WR, p0, t);
    TIGHT(&c, DRAM_RD, p1, t + 1, "WR pc0 -> RD pc1: no tWTR");
    TIGHT(&c, DRAM_RD, p0b, t + u(s.CWL + s.nBL + s.WTR_S), "WR pc0 -> RD pc0 tWTR_S");
    dram_chan_free(&c);
}

/* ---- bank state view ---- */

static void expect_state(const struct dram_chan *c, struct dram_addr a, uint64_t now,
                         enum dram_bank_state want, int line) {
    enum dram_bank_state st = dram_bank_state_at(c, &a, now);
    if (st != want)
        fail_msg("line %d, %s: bank state at %llu is %s, expected %s", line, c->s->preset,
                 (unsigned long long)now, dram_bank_state_names[st], dram_bank_state_names[want]);
}
#define STATE(c, a, now, want) expect_state(c, a, now, want, __LINE__)

static void test_bank_states(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(dram_presets[i].name);
        struct dram_chan c;
        chan_open(&c, &s);
        STATE(&c, bank_a(), T0, DRAM_BANK_IDLE);
        issue_at(&c, DRAM_ACT, bank_a(), T0);
        STATE(&c, bank_a(), T0, DRAM_BANK_ACTIVATING);
        STATE(&c, bank_a(), T0 + u(s.RCDRD) - 1, DRAM_BANK_ACTIVATING);
        STATE(&c, bank_a(), T0 + u(s.RCDRD), DRAM_BANK_ACTIVE);
        STATE(&c, bank_b(&s), T0 + 1, DRAM_BANK_IDLE);
        uint64_t p = T0 + u(s.RC);
        issue_at(&c, DRAM_PRE, bank_a(), p);
        STATE(&c, bank_a(), p, DRAM_BANK_PRECHARGING);
        STATE(&c, bank_a(), p + u(s.RP) - 1, DRAM_BANK_PRECHARGING);
        STATE(&c, bank_a(), p + u(s.RP), DRAM_BANK_IDLE);
        uint64_t r = p + u(s.RP);
        issue_at(&c, DRAM_REF, bank_a(), r);
        STATE(&c, bank_a(), r, DRAM_BANK_REFRESHING);
        STATE(&c, bank_b(&s), r + u(s.RFC) - 1, DRAM_BANK_REFRESHING);
        STATE(&c, bank_a(), r + u(s.RFC), DRAM_BANK_IDLE);
        if (s.pseudo_channels > 1) STATE(&c, loc(1, 0, 0, 0, ROW), r, DRAM_BANK_IDLE);
        uint64_t d = r + u(s.RFC);
        issue_at(&c, DRAM_PDES, bank_a(), d);
        STATE(&c, bank_a(), d, DRAM_BANK_POWERDOWN);
        STATE(&c, bank_c(), d + 1000, DRAM_BANK_POWERDOWN);
        issue_at(&c, DRAM_PDX, bank_a(), d + u(s.CKE));
        STATE(&c, bank_a(), d + u(s.CKE), DRAM_BANK_IDLE);
        /* an auto-precharge: idle again tRP after it starts */
        uint64_t a = issue_asap(&c, DRAM_ACT, bank_a(), d);
        uint64_t t = a + u(s.RAS) + 4;
        issue_at(&c, DRAM_RDA, bank_a(), t);
        uint64_t pre_at = t + u(s.RTP);
        STATE(&c, bank_a(), pre_at + u(s.RP) - 1, DRAM_BANK_PRECHARGING);
        STATE(&c, bank_a(), pre_at + u(s.RP), DRAM_BANK_IDLE);
        dram_chan_free(&c);
    }
}

/* ---- counters ---- */

static void test_counters(void **state) {
    (void)state;
    struct dram_spec s = preset("ddr4-2400");
    struct dram_chan c;
    chan_open(&c, &s);
    uint64_t t = open3(&c);
    issue_at(&c, DRAM_RD, bank_a(), t);
    issue_at(&c, DRAM_RD, bank_b(&s), t + u(s.CCD_S));
    issue_at(&c, DRAM_WR, bank_c(), t + 100);
    assert_int_equal(c.ncmd[DRAM_ACT], 3);
    assert_int_equal(c.ncmd[DRAM_RD], 2);
    assert_int_equal(c.ncmd[DRAM_WR], 1);
    assert_int_equal(c.data_busy_cycles, 3 * u(s.nBL));
    assert_int_equal(dram_read_done(&s, t), t + u(s.CL + s.nBL));
    assert_int_equal(dram_write_done(&s, t), t + u(s.CWL + s.nBL));
    dram_chan_free(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rcd),
        cmocka_unit_test(test_ras_rp_rc),
        cmocka_unit_test(test_rtp_wr),
        cmocka_unit_test(test_auto_precharge),
        cmocka_unit_test(test_rrd),
        cmocka_unit_test(test_faw),
        cmocka_unit_test(test_x32aw),
        cmocka_unit_test(test_gddr5_6gbps),
        cmocka_unit_test(test_ccd),
        cmocka_unit_test(test_rtw_wtr),
        cmocka_unit_test(test_rank_switch),
        cmocka_unit_test(test_refresh),
        cmocka_unit_test(test_refresh_per_bank),
        cmocka_unit_test(test_powerdown),
        cmocka_unit_test(test_command_bus),
        cmocka_unit_test(test_pseudo_channels),
        cmocka_unit_test(test_bank_states),
        cmocka_unit_test(test_counters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
