/* Tests of the independent DRAM protocol checker (src/mem/dram/checker.c): every timing rule is
 * fed exactly at its minimum distance (legal) and one cycle too early (a violation naming the
 * rule), on the DDR3, DDR4, GDDR5 and HBM2 presets, plus the illegal-state and address cases. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "mem/dram/checker.h"
#include "mem/dram/dram_spec.h"

static const char *const presets[] = {"ddr4-2400", "ddr3-1600", "gddr5-gtx480", "hbm2"};
enum { NPRESETS = sizeof presets / sizeof presets[0], MAXCMD = 256, ROW = 17 };

static struct dram_spec preset(const char *name) {
    const struct dram_spec *p = dram_preset_find(name);
    assert_non_null(p);
    return *p;
}

/* The preset with at least two ranks (a dual-rank DIMM of the same parts), for the rules and
 * states that involve a second rank on the same data bus. */
static struct dram_spec preset_ranks2(const char *name) {
    struct dram_spec s = preset(name);
    if (s.ranks < 2) s.ranks = 2;
    return s;
}

struct seq {
    struct dram_cmd_rec c[MAXCMD];
    size_t n;
};

static void addx(struct seq *q, int64_t cycle, enum dram_cmd cmd, uint32_t ch, uint32_t pc,
                 uint32_t rank, uint32_t bg, uint32_t bank, uint32_t row, uint32_t col) {
    assert_true(q->n < MAXCMD);
    assert_true(cycle >= 0);
    q->c[q->n++] = (struct dram_cmd_rec){(uint64_t)cycle, cmd, ch, pc, rank, bg, bank, row, col};
}
/* channel 0, pseudo-channel 0 */
static void add(struct seq *q, int64_t cycle, enum dram_cmd cmd, uint32_t rank, uint32_t bg,
                uint32_t bank) {
    addx(q, cycle, cmd, 0, 0, rank, bg, bank, ROW, 5);
}

/* Feeds q, sorted by cycle (stable), to a fresh checker. Returns the index of the first violating
 * command, or -1 when all are legal; msg receives the message. */
static long feed(const struct dram_spec *s, struct seq *q, char *msg, size_t cap) {
    for (size_t i = 1; i < q->n; i++)
        for (size_t j = i; j > 0 && q->c[j - 1].cycle > q->c[j].cycle; j--) {
            struct dram_cmd_rec t = q->c[j];
            q->c[j] = q->c[j - 1];
            q->c[j - 1] = t;
        }
    struct ws_err e = {{0}};
    struct dram_checker *k = dram_checker_create(s, &e);
    assert_non_null(k);
    long bad = -1;
    for (size_t i = 0; i < q->n && bad < 0; i++)
        if (dram_checker_observe(k, &q->c[i], &e) != 0) bad = (long)i;
    snprintf(msg, cap, "%s", bad >= 0 ? e.msg : "");
    assert_int_equal(dram_checker_ncommands(k), bad >= 0 ? (uint64_t)bad + 1 : q->n);
    dram_checker_destroy(k);
    return bad;
}

/* Expects q to be legal. */
static void expect_ok(const struct dram_spec *s, struct seq *q, const char *what) {
    char msg[1024];
    long at = feed(s, q, msg, sizeof msg);
    if (at >= 0)
        fail_msg("%s on %s: unexpected violation at command %ld: %s", what, s->preset, at, msg);
}

/* Expects the last command of q (in cycle order) to violate `rule`. */
static void expect_bad(const struct dram_spec *s, struct seq *q, const char *rule,
                       const char *what) {
    char msg[1024], needle[64];
    long at = feed(s, q, msg, sizeof msg);
    snprintf(needle, sizeof needle, "DRAM protocol violation: %s:", rule);
    if (at != (long)q->n - 1 || !strstr(msg, needle))
        fail_msg("%s on %s: expected '%s' at command %ld, got command %ld: '%s'", what, s->preset,
                 rule, (long)q->n - 1, at, msg);
}

/* A sequence builder: d = 0 puts the last command exactly at its minimum distance, d = -1 one
 * cycle too early. */
typedef void (*builder)(const struct dram_spec *s, int64_t d, struct seq *q);

static void tight(const struct dram_spec *s, builder f, const char *rule) {
    struct seq q = {.n = 0};
    f(s, 0, &q);
    expect_ok(s, &q, rule);
    q.n = 0;
    f(s, -1, &q);
    expect_bad(s, &q, rule, rule);
}

/* bank index i spread over the bank groups first */
static uint32_t bg_of(const struct dram_spec *s, int i) {
    return (uint32_t)(i % s->bankgroups);
}
static uint32_t bank_of(const struct dram_spec *s, int i) {
    return (uint32_t)((i / s->bankgroups) % s->banks_per_group);
}

/* ---- same bank ---- */

static void b_rcdrd(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RCDRD + d, DRAM_RD, 0, 0, 0);
}
static void b_rcdwr(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RCDWR + d, DRAM_WR, 0, 0, 0);
}
static void b_ras(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RAS + d, DRAM_PRE, 0, 0, 0);
}
/* PRE late enough that tRC never binds: only tRP does */
static void b_rp(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RC, DRAM_PRE, 0, 0, 0);
    add(q, s->RC + s->RP + d, DRAM_ACT, 0, 0, 0);
}
/* needs RC > RAS + RP (set by the test) so that tRC alone binds */
static void b_rc(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RAS, DRAM_PRE, 0, 0, 0);
    add(q, s->RC + d, DRAM_ACT, 0, 0, 0);
}
static void b_rtp(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RAS, DRAM_RD, 0, 0, 0);
    add(q, s->RAS + s->RTP + d, DRAM_PRE, 0, 0, 0);
}
static void b_wr(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RAS, DRAM_WR, 0, 0, 0);
    add(q, s->RAS + s->CWL + s->nBL + s->WR + d, DRAM_PRE, 0, 0, 0);
}
static int64_t max64(int64_t a, int64_t b) {
    return a > b ? a : b;
}
/* RDA early: its auto-precharge waits for tRAS */
static void b_rda_ras(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RCDRD, DRAM_RDA, 0, 0, 0);
    add(q, max64(s->RCDRD + s->RTP, s->RAS) + s->RP + d, DRAM_ACT, 0, 0, 0);
}
/* RDA late: its auto-precharge waits for tRTP */
static void b_rda_rtp(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RAS, DRAM_RDA, 0, 0, 0);
    add(q, s->RAS + s->RTP + s->RP + d, DRAM_ACT, 0, 0, 0);
}
static void b_wra(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RCDWR, DRAM_WRA, 0, 0, 0);
    add(q, max64(s->RCDWR + s->CWL + s->nBL + s->WR, s->RAS) + s->RP + d, DRAM_ACT, 0, 0, 0);
}

/* ---- same rank ---- */

static void b_rrd_l(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RRD_L + d, DRAM_ACT, 0, 0, 1);
}
static void b_rrd_l_between(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RRD_S, DRAM_ACT, 0, 1, 0);
    add(q, s->RRD_L + d, DRAM_ACT, 0, 0, 1);
}
static void b_rrd_s(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RRD_S + d, DRAM_ACT, 0, 1, 0);
}
/* four ACTs tRRD_L apart, the fifth tFAW after the first (the test makes tFAW bind) */
static void b_faw(const struct dram_spec *s, int64_t d, struct seq *q) {
    for (int i = 0; i < 4; i++) add(q, i * s->RRD_L, DRAM_ACT, 0, bg_of(s, i), bank_of(s, i));
    add(q, s->FAW + d, DRAM_ACT, 0, bg_of(s, 4), bank_of(s, 4));
}
/* 32 ACTs 8 cycles apart over 16 banks (each closed tRAS after its ACT, on the odd 4-cycle
 * slots), the 33rd tX32AW after the first (the test sets tX32AW = 300) */
static void b_x32aw(const struct dram_spec *s, int64_t d, struct seq *q) {
    for (int i = 0; i < 32; i++) {
        add(q, 8 * i, DRAM_ACT, 0, bg_of(s, i), bank_of(s, i));
        add(q, 8 * i + s->RAS, DRAM_PRE, 0, bg_of(s, i), bank_of(s, i));
    }
    add(q, s->X32AW + d, DRAM_ACT, 0, bg_of(s, 32), bank_of(s, 32));
}
static void b_ccd_l_rd(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RCDRD, DRAM_RD, 0, 0, 0);
    add(q, s->RCDRD + s->CCD_L + d, DRAM_RD, 0, 0, 0);
}
static void b_ccd_l_wr(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RCDWR, DRAM_WR, 0, 0, 0);
    add(q, s->RCDWR + s->CCD_L + d, DRAM_WR, 0, 0, 0);
}
static void b_ccd_s_rd(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RRD_S, DRAM_ACT, 0, 1, 0);
    int64_t t = s->RRD_S + s->RCDRD;
    add(q, t, DRAM_RD, 0, 0, 0);
    add(q, t + s->CCD_S + d, DRAM_RD, 0, 1, 0);
}
static void b_ccd_s_wr(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RRD_S, DRAM_ACT, 0, 1, 0);
    int64_t t = s->RRD_S + s->RCDWR;
    add(q, t, DRAM_WR, 0, 0, 0);
    add(q, t + s->CCD_S + d, DRAM_WR, 0, 1, 0);
}
static void b_wtr_l(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RCDWR, DRAM_WR, 0, 0, 0);
    add(q, s->RCDWR + s->CWL + s->nBL + s->WTR_L + d, DRAM_RD, 0, 0, 0);
}
static void b_wtr_s(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RRD_S, DRAM_ACT, 0, 1, 0);
    int64_t t = s->RRD_S + s->RCDWR + s->RCDRD;
    add(q, t, DRAM_WR, 0, 0, 0);
    add(q, t + s->CWL + s->nBL + s->WTR_S + d, DRAM_RD, 0, 1, 0);
}
static void b_rtw(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    int64_t t = s->RCDRD + s->RCDWR;
    add(q, t, DRAM_RD, 0, 0, 0);
    add(q, t + s->RTW + d, DRAM_WR, 0, 0, 0);
}

/* ---- rank switches (two ranks on one data bus) ---- */

static void b_rtrs_rd(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, 1, DRAM_ACT, 1, 0, 0);
    int64_t t = 1 + s->RCDRD;
    add(q, t, DRAM_RD, 0, 0, 0);
    add(q, t + s->nBL + s->RTRS + d, DRAM_RD, 1, 0, 0);
}
static void b_rtrs_wr(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, 1, DRAM_ACT, 1, 0, 0);
    int64_t t = 1 + s->RCDWR;
    add(q, t, DRAM_WR, 0, 0, 0);
    add(q, t + s->nBL + s->RTRS + d, DRAM_WR, 1, 0, 0);
}
/* WR on rank 0, RD on rank 1 (the test makes CWL + nBL + RTRS - CL positive) */
static void b_rtrs_wrrd(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, 1, DRAM_ACT, 1, 0, 0);
    int64_t t = 1 + s->RCDWR + s->RCDRD;
    add(q, t, DRAM_WR, 0, 0, 0);
    add(q, t + s->CWL + s->nBL + s->RTRS - s->CL + d, DRAM_RD, 1, 0, 0);
}

/* ---- refresh, precharge-all and power-down ---- */

static void b_rfc_act(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_REF, 0, 0, 0);
    add(q, s->RFC + d, DRAM_ACT, 0, 0, 0);
}
static void b_rfc_ref(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_REF, 0, 0, 0);
    add(q, s->RFC + d, DRAM_REF, 0, 0, 0);
}
static void b_pre_ref(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RAS, DRAM_PRE, 0, 0, 0);
    add(q, s->RAS + s->RP + d, DRAM_REF, 0, 0, 0);
}
static void b_prea_ref(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, 10, DRAM_ACT, 0, 0, 1);
    add(q, 10 + s->RAS, DRAM_PREA, 0, 0, 0);
    add(q, 10 + s->RAS + s->RP + d, DRAM_REF, 0, 0, 0);
}
/* PREA must wait for tRAS of the younger of two open banks */
static void b_prea_ras(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, 10, DRAM_ACT, 0, 0, 1);
    add(q, 10 + s->RAS + d, DRAM_PREA, 0, 0, 0);
}
static void b_prea_wr(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, 10, DRAM_ACT, 0, 0, 1);
    add(q, 10 + s->RAS, DRAM_WR, 0, 0, 0);
    add(q, 10 + s->RAS + s->CWL + s->nBL + s->WR + d, DRAM_PREA, 0, 0, 0);
}
static void b_prea_act(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, 10, DRAM_ACT, 0, 0, 1);
    add(q, 10 + s->RAS, DRAM_PREA, 0, 0, 0);
    add(q, 10 + s->RAS + s->RP + d, DRAM_ACT, 0, 0, 0);
}
static void b_cke(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_PDEF, 0, 0, 0);
    add(q, s->CKE + d, DRAM_PDX, 0, 0, 0);
}
static void b_xp(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0); /* active power-down: PDEF keeps the bank open */
    add(q, s->RCDRD, DRAM_PDEF, 0, 0, 0);
    add(q, s->RCDRD + s->CKE, DRAM_PDX, 0, 0, 0);
    add(q, s->RCDRD + s->CKE + s->XP + d, DRAM_RD, 0, 0, 0);
}
static void b_xpdll(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_PDES, 0, 0, 0);
    add(q, s->CKE, DRAM_PDX, 0, 0, 0);
    add(q, s->CKE + s->XPDLL + d, DRAM_ACT, 0, 0, 0);
}
/* refresh gaps: here d = -1 makes the REF one cycle too late */
static void b_refi(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 100, DRAM_REF, 0, 0, 0);
    add(q, 100 + 9 * s->REFI - d, DRAM_REF, 0, 0, 0);
}
static void b_refi_first(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 9 * s->REFI - d, DRAM_REF, 0, 0, 0);
}

/* per-bank refresh (hbm3-h100): bank 0 refreshed, then the rule's command */
static void b_pb_pre(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RC, DRAM_PRE, 0, 0, 0);
    add(q, s->RC + s->RP + d, DRAM_REFPB, 0, 0, 0);
}
static void b_pb_act_same(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 100, DRAM_REFPB, 0, 0, 0);
    add(q, 100 + s->RFCpb + d, DRAM_ACT, 0, 0, 0);
}
static void b_pb_act_other(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 100, DRAM_REFPB, 0, 0, 0);
    add(q, 100 + s->RREFD + d, DRAM_ACT, 0, 1, 0);
}
static void b_pb_pb(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 100, DRAM_REFPB, 0, 0, 0);
    add(q, 100 + s->RREFD + d, DRAM_REFPB, 0, 1, 0);
}
static void b_pb_pb_same(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 100, DRAM_REFPB, 0, 0, 0);
    add(q, 100 + s->RFCpb + d, DRAM_REFPB, 0, 0, 0);
}
static void b_pb_ref(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 100, DRAM_REFPB, 0, 0, 0);
    add(q, 100 + s->RFCpb + d, DRAM_REF, 0, 0, 0);
}
/* with a tRC longer than tRAS + tRP (as some parts have), tRC binds ACT -> REFPB */
static void b_pb_rc(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 0, DRAM_ACT, 0, 0, 0);
    add(q, s->RAS, DRAM_PRE, 0, 0, 0);
    add(q, s->RC + d, DRAM_REFPB, 0, 0, 0);
}
static void b_pb_pde(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 100, DRAM_REFPB, 0, 0, 0);
    add(q, 100 + s->RFCpb + d, DRAM_PDEF, 0, 0, 0);
}
/* a bank's refreshes: at most 9 x tREFI apart, counting a REF as refreshing it (d = -1: late) */
static void b_pb_refi(const struct dram_spec *s, int64_t d, struct seq *q) {
    add(q, 100, DRAM_REF, 0, 0, 0);
    add(q, 100 + 9 * s->REFI - d, DRAM_REFPB, 0, 1, 0);
}

/* ---- tests ---- */

static void test_message_format(void **state) {
    (void)state;
    struct dram_spec s = preset_ranks2("ddr4-2400");
    struct seq q = {.n = 0};
    addx(&q, 117, DRAM_ACT, 0, 0, 1, 2, 3, 17, 0);
    addx(&q, 120, DRAM_RD, 0, 0, 1, 2, 3, 17, 5);
    char msg[1024];
    assert_int_equal(feed(&s, &q, msg, sizeof msg), 1);
    assert_string_equal(msg, "DRAM protocol violation: tRCDRD: RD ch0 pc0 rank1 bg2 bank3 row 17 "
                             "col 5 at cycle 120 is 3 cycles after ACT ch0 pc0 rank1 bg2 bank3 "
                             "row 17 at cycle 117 (needs 17)");
}

static void test_bank_rules(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(presets[i]);
        tight(&s, b_rcdrd, "tRCDRD");
        tight(&s, b_rcdwr, "tRCDWR");
        tight(&s, b_ras, "tRAS");
        tight(&s, b_rp, "tRP");
        tight(&s, b_rtp, "tRTP");
        tight(&s, b_wr, "tWR");
        tight(&s, b_rda_ras, "tRP");
        tight(&s, b_rda_rtp, "tRP");
        tight(&s, b_wra, "tRP");
        struct dram_spec rc = s;
        rc.RC = s.RAS + s.RP + 3;
        tight(&rc, b_rc, "tRC");
    }
}

static void test_rank_rules(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(presets[i]);
        tight(&s, b_rrd_l, "tRRD_L");
        tight(&s, b_ccd_l_rd, "tCCD_L");
        tight(&s, b_ccd_l_wr, "tCCD_L");
        tight(&s, b_wtr_l, "tWTR_L");
        tight(&s, b_rtw, "tRTW");
        if (s.bankgroups > 1) {
            tight(&s, b_rrd_s, "tRRD_S");
            tight(&s, b_ccd_s_rd, "tCCD_S");
            tight(&s, b_ccd_s_wr, "tCCD_S");
            tight(&s, b_wtr_s, "tWTR_S");
        }
        /* tFAW: ddr3 and ddr4 bind as they are; make it bind on the others */
        struct dram_spec f = s;
        f.FAW = max64(s.FAW, 4 * s.RRD_L + 2);
        tight(&f, b_faw, "tFAW");
    }
    /* tRRD_L to a bank group is kept across an ACT to another group in between */
    struct dram_spec s = preset("ddr4-2400");
    s.RRD_L = 10;
    tight(&s, b_rrd_l_between, "tRRD_L");
}

static void test_x32aw(void **state) {
    (void)state;
    struct dram_spec s = preset("gddr5-gtx480");
    assert_true(s.X32AW > 0);
    s.X32AW = 300; /* with 16 banks and tRC = 40 the preset's 184 cannot bind */
    tight(&s, b_x32aw, "tX32AW");
    /* with X32AW = 0 there is no 32-ACT window */
    struct dram_spec z = s;
    z.X32AW = 0;
    struct seq q = {.n = 0};
    b_x32aw(&z, 0, &q);
    q.c[q.n - 1].cycle = 8 * 32;
    expect_ok(&z, &q, "no X32AW");
    q.n = 0;
    b_x32aw(&s, 0, &q);
    q.c[q.n - 1].cycle = 8 * 32;
    char msg[1024];
    long at = feed(&s, &q, msg, sizeof msg);
    assert_true(at >= 0);
    assert_int_equal(q.c[at].cycle, 8 * 32);
    assert_non_null(strstr(msg, "DRAM protocol violation: tX32AW: ACT ch0 pc0 rank0 bg0 bank0 row "
                                "17 at cycle 256 is 256 cycles after ACT ch0 pc0 rank0 bg0 bank0 "
                                "row 17 at cycle 0 (needs 300)"));
}

static void test_rank_switch(void **state) {
    (void)state;
    const char *two[] = {"ddr3-1600", "ddr4-2400"};
    for (int i = 0; i < 2; i++) {
        struct dram_spec s = preset_ranks2(two[i]);
        tight(&s, b_rtrs_rd, "tRTRS");
        tight(&s, b_rtrs_wr, "tRTRS");
        struct dram_spec w = s;
        w.CWL = s.CL; /* makes WR -> RD on another rank CWL + nBL + RTRS - CL > 1 */
        tight(&w, b_rtrs_wrrd, "tRTRS");
        /* two reads on one rank only need tCCD, which is shorter than nBL + tRTRS */
        uint32_t bg = s.bankgroups > 1 ? 1 : 0;
        int64_t ccd = s.bankgroups > 1 ? s.CCD_S : s.CCD_L;
        assert_true(ccd < s.nBL + s.RTRS);
        struct seq q = {.n = 0};
        add(&q, 0, DRAM_ACT, 0, 0, 0);
        add(&q, s.RRD_L, DRAM_ACT, 0, bg, 1);
        add(&q, s.RRD_L + s.RCDRD, DRAM_RD, 0, 0, 0);
        add(&q, s.RRD_L + s.RCDRD + ccd, DRAM_RD, 0, bg, 1);
        expect_ok(&s, &q, "same-rank reads tCCD apart");
        /* tRTW holds across ranks */
        q.n = 0;
        add(&q, 0, DRAM_ACT, 0, 0, 0);
        add(&q, 1, DRAM_ACT, 1, 0, 0);
        add(&q, 1 + s.RCDRD, DRAM_RD, 0, 0, 0);
        add(&q, 1 + s.RCDRD + s.RTW - 1, DRAM_WR, 1, 0, 0);
        expect_bad(&s, &q, "tRTW", "RD rank0 then WR rank1");
    }
}

static void test_refresh_and_powerdown(void **state) {
    (void)state;
    for (int i = 0; i < NPRESETS; i++) {
        struct dram_spec s = preset(presets[i]);
        tight(&s, b_rfc_act, "tRFC");
        tight(&s, b_rfc_ref, "tRFC");
        tight(&s, b_pre_ref, "tRP");
        tight(&s, b_prea_ref, "tRP");
        tight(&s, b_prea_ras, "tRAS");
        tight(&s, b_prea_wr, "tWR");
        tight(&s, b_prea_act, "tRP");
        tight(&s, b_cke, "tCKE");
        tight(&s, b_xp, "tXP");
        if (s.XPDLL != s.XP) tight(&s, b_xpdll, "tXPDLL");
        assert_true(s.REFI > 0);
        tight(&s, b_refi, "tREFI");
        tight(&s, b_refi_first, "tREFI");
    }
}

static void test_refresh_per_bank(void **state) {
    (void)state;
    struct dram_spec s = preset("hbm3-h100");
    assert_true(s.RFCpb > 0 && s.RREFD > 0);
    tight(&s, b_pb_pre, "tRP");
    tight(&s, b_pb_act_same, "tRFCpb");
    tight(&s, b_pb_act_other, "tRREFD");
    tight(&s, b_pb_pb, "tRREFD");
    tight(&s, b_pb_pb_same, "tRFCpb");
    tight(&s, b_pb_ref, "tRFCpb");
    tight(&s, b_pb_refi, "tREFI");
    tight(&s, b_pb_pde, "tRFCpb");
    struct dram_spec lrc = s;
    lrc.RC = s.RAS + s.RP + 5;
    tight(&lrc, b_pb_rc, "tRC");
    struct seq q = {.n = 0};
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, s.RC + s.RP, DRAM_REFPB, 0, 0, 0);
    expect_bad(&s, &q, "bank open", "REFPB to an open bank");
    /* a part without per-bank refresh */
    struct dram_spec h = preset("hbm2");
    q.n = 0;
    add(&q, 100, DRAM_REFPB, 0, 0, 0);
    expect_bad(&h, &q, "per-bank refresh", "REFPB on HBM2");
}

static struct dram_checker *make(const struct dram_spec *s) {
    struct ws_err e = {{0}};
    struct dram_checker *k = dram_checker_create(s, &e);
    assert_non_null(k);
    return k;
}

static int obs(struct dram_checker *k, uint64_t cycle, enum dram_cmd cmd, uint32_t rank,
               struct ws_err *e) {
    struct dram_cmd_rec r = {cycle, cmd, 0, 0, rank, 0, 0, 0, 0};
    return dram_checker_observe(k, &r, e);
}

static void test_finish_refresh(void **state) {
    (void)state;
    struct dram_spec s = preset_ranks2("ddr4-2400");
    const uint64_t most = 9 * (uint64_t)s.REFI;
    struct ws_err e = {{0}};
    /* no REF at all: fine up to 9 x tREFI */
    struct dram_checker *k = make(&s);
    assert_int_equal(dram_checker_finish(k, most, &e), 0);
    assert_int_equal(dram_checker_finish(k, most + 1, &e), -1);
    assert_non_null(strstr(e.msg, "DRAM protocol violation: tREFI: rank ch0 pc0 rank0"));
    assert_non_null(strstr(e.msg, "no refresh at all"));
    dram_checker_destroy(k);
    /* both ranks refreshed at 100; rank 1 again later */
    k = make(&s);
    assert_int_equal(obs(k, 100, DRAM_REF, 0, &e), 0);
    assert_int_equal(obs(k, 101, DRAM_REF, 1, &e), 0);
    assert_int_equal(obs(k, 5000, DRAM_REF, 1, &e), 0);
    assert_int_equal(dram_checker_finish(k, 100 + most, &e), 0);
    assert_int_equal(dram_checker_finish(k, 101 + most, &e), -1);
    assert_non_null(strstr(e.msg, "rank ch0 pc0 rank0"));
    assert_non_null(strstr(e.msg, "since REF ch0 pc0 rank0 at cycle 100"));
    dram_checker_destroy(k);
    /* per bank: REF at 100 and 101 on the two pseudo-channels, then REFPB to every bank of pc0 but
     * bank 0: at 101 + 9 x tREFI only that bank is late */
    struct dram_spec h = preset("hbm3-h100");
    h.channels = 1;
    const uint64_t hmost = 9 * (uint64_t)h.REFI;
    k = make(&h);
    assert_int_equal(obs(k, 100, DRAM_REF, 0, &e), 0);
    struct dram_cmd_rec ref1 = {101, DRAM_REF, 0, 1, 0, 0, 0, 0, 0}; /* one command bus */
    assert_int_equal(dram_checker_observe(k, &ref1, &e), 0);
    const uint32_t nb = (uint32_t)(h.bankgroups * h.banks_per_group);
    for (uint32_t i = 1; i < nb; i++) {
        struct dram_cmd_rec r = {
            100 + (uint64_t)h.RFC + 10 * i,  DRAM_REFPB, 0, 0, 0, i / (uint32_t)h.banks_per_group,
            i % (uint32_t)h.banks_per_group, 0,          0};
        assert_int_equal(dram_checker_observe(k, &r, &e), 0);
    }
    assert_int_equal(dram_checker_finish(k, 100 + hmost, &e), 0);
    assert_int_equal(dram_checker_finish(k, 101 + hmost, &e), -1);
    assert_non_null(strstr(e.msg, "rank ch0 pc0 rank0 bank 0 has had no refresh"));
    assert_non_null(strstr(e.msg, "since REF ch0 pc0 rank0 at cycle 100"));
    dram_checker_destroy(k);
    /* tREFI = 0: no refresh obligation */
    struct dram_spec z = s;
    z.REFI = 0;
    k = make(&z);
    assert_int_equal(dram_checker_finish(k, UINT64_C(1) << 40, &e), 0);
    assert_int_equal(obs(k, UINT64_C(1) << 40, DRAM_REF, 0, &e), 0);
    dram_checker_destroy(k);
}

static void test_illegal_states(void **state) {
    (void)state;
    struct dram_spec s = preset_ranks2("ddr4-2400");
    struct seq q = {.n = 0};
    add(&q, 0, DRAM_RD, 0, 0, 0);
    expect_bad(&s, &q, "bank closed", "RD to a never-activated bank");

    q.n = 0;
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, s.RAS, DRAM_PRE, 0, 0, 0);
    add(&q, s.RAS + 100, DRAM_RD, 0, 0, 0);
    expect_bad(&s, &q, "bank closed", "RD after PRE");

    q.n = 0;
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, s.RCDRD, DRAM_RDA, 0, 0, 0);
    add(&q, s.RCDRD + 20, DRAM_RD, 0, 0, 0);
    expect_bad(&s, &q, "bank closed", "RD after RDA");

    q.n = 0;
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    addx(&q, s.RCDRD, DRAM_RD, 0, 0, 0, 0, 0, ROW + 1, 0);
    expect_bad(&s, &q, "row mismatch", "RD to the wrong row");

    q.n = 0;
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, s.RC + 10, DRAM_ACT, 0, 0, 0);
    expect_bad(&s, &q, "bank open", "ACT to an open bank");

    q.n = 0; /* PRE to a closed bank is a legal no-op, even one cycle after another PRE */
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, s.RAS, DRAM_PRE, 0, 0, 0);
    add(&q, s.RAS + 1, DRAM_PRE, 0, 0, 0);
    add(&q, s.RAS + 2, DRAM_PRE, 0, 3, 3);
    add(&q, s.RAS + s.RP, DRAM_ACT, 0, 0, 0);
    expect_ok(&s, &q, "PRE to closed banks");

    q.n = 0;
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, 5000, DRAM_REF, 0, 0, 0);
    expect_bad(&s, &q, "bank open", "REF with an open bank");

    q.n = 0; /* the other rank's open bank does not matter */
    add(&q, 0, DRAM_ACT, 1, 0, 0);
    add(&q, 1, DRAM_REF, 0, 0, 0);
    expect_ok(&s, &q, "REF with another rank's bank open");

    q.n = 0;
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, 100, DRAM_PDES, 0, 0, 0);
    expect_bad(&s, &q, "bank open", "slow power-down with an open bank");

    q.n = 0;
    add(&q, 0, DRAM_PDEF, 0, 0, 0);
    add(&q, 100, DRAM_ACT, 0, 0, 0);
    expect_bad(&s, &q, "power-down", "ACT to a powered-down rank");

    q.n = 0;
    add(&q, 0, DRAM_PDEF, 0, 0, 0);
    add(&q, 100, DRAM_REF, 0, 0, 0);
    expect_bad(&s, &q, "power-down", "REF to a powered-down rank");

    q.n = 0;
    add(&q, 0, DRAM_PDEF, 0, 0, 0);
    add(&q, 100, DRAM_PDES, 0, 0, 0);
    expect_bad(&s, &q, "power-down", "power-down entry while powered down");

    q.n = 0;
    add(&q, 0, DRAM_PDEF, 0, 0, 0);
    add(&q, 1, DRAM_ACT, 1, 0, 0); /* the other rank is up */
    add(&q, 100, DRAM_PDX, 0, 0, 0);
    add(&q, 200, DRAM_PDX, 0, 0, 0);
    expect_bad(&s, &q, "power-down", "PDX while up");
}

static void test_command_bus(void **state) {
    (void)state;
    struct dram_spec s = preset_ranks2("ddr4-2400");
    struct seq q = {.n = 0};
    add(&q, 5, DRAM_ACT, 0, 0, 0);
    add(&q, 5, DRAM_ACT, 1, 0, 0);
    expect_bad(&s, &q, "command bus", "two ACTs in one cycle on a single command bus");

    q.n = 0;
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, s.RCDRD, DRAM_RD, 0, 0, 0);
    add(&q, s.RCDRD, DRAM_ACT, 1, 0, 0);
    expect_bad(&s, &q, "command bus", "row + column command in one cycle on a single bus");

    /* order within a channel */
    struct ws_err e = {{0}};
    struct dram_checker *k = make(&s);
    assert_int_equal(obs(k, 10, DRAM_ACT, 0, &e), 0);
    assert_int_equal(obs(k, 9, DRAM_ACT, 1, &e), -1);
    assert_non_null(strstr(e.msg, "DRAM protocol violation: command order:"));
    dram_checker_destroy(k);

    /* gddr5: separate channels may share a cycle and interleave out of order */
    struct dram_spec g = preset("gddr5-gtx480");
    q.n = 0;
    addx(&q, 5, DRAM_ACT, 0, 0, 0, 0, 0, ROW, 0);
    addx(&q, 5, DRAM_ACT, 1, 0, 0, 0, 0, ROW, 0);
    addx(&q, 5, DRAM_ACT, 5, 0, 0, 0, 0, ROW, 0);
    expect_ok(&g, &q, "ACTs on three channels in one cycle");
    k = make(&g);
    struct dram_cmd_rec r1 = {50, DRAM_ACT, 0, 0, 0, 0, 0, 1, 0};
    struct dram_cmd_rec r2 = {10, DRAM_ACT, 1, 0, 0, 0, 0, 1, 0};
    assert_int_equal(dram_checker_observe(k, &r1, &e), 0);
    assert_int_equal(dram_checker_observe(k, &r2, &e), 0);
    dram_checker_destroy(k);

    /* hbm2: a row and a column command may share a cycle, two of a kind may not */
    struct dram_spec h = preset("hbm2");
    assert_true(h.dual_cmd_bus);
    q.n = 0;
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, h.RCDRD, DRAM_RD, 0, 0, 0);
    add(&q, h.RCDRD, DRAM_ACT, 0, 1, 0);
    expect_ok(&h, &q, "row + column command in one cycle on the dual bus");
    q.n = 0;
    addx(&q, 0, DRAM_ACT, 0, 0, 0, 0, 0, ROW, 0);
    addx(&q, 0, DRAM_ACT, 0, 1, 0, 0, 0, ROW, 0);
    expect_bad(&h, &q, "command bus", "two row commands in one cycle (two pseudo-channels)");
    q.n = 0;
    addx(&q, 0, DRAM_ACT, 0, 0, 0, 0, 0, ROW, 0);
    addx(&q, 1, DRAM_ACT, 0, 1, 0, 0, 0, ROW, 0);
    addx(&q, 1 + h.RCDRD, DRAM_RD, 0, 0, 0, 0, 0, ROW, 0);
    addx(&q, 1 + h.RCDRD, DRAM_RD, 0, 1, 0, 0, 0, ROW, 0);
    expect_bad(&h, &q, "command bus", "two column commands in one cycle");
    /* pseudo-channels are separate rank units with separate data buses: reads one cycle apart
     * (less than nBL) are legal, and so are ACTs closer than tRRD */
    q.n = 0;
    addx(&q, 0, DRAM_ACT, 0, 0, 0, 0, 0, ROW, 0);
    addx(&q, 1, DRAM_ACT, 0, 1, 0, 0, 0, ROW, 0);
    addx(&q, 1 + h.RCDRD, DRAM_RD, 0, 0, 0, 0, 0, ROW, 0);
    addx(&q, 2 + h.RCDRD, DRAM_RD, 0, 1, 0, 0, 0, ROW, 0);
    assert_true(h.nBL > 1 && h.RRD_S > 1);
    expect_ok(&h, &q, "pseudo-channels are independent");
}

static void test_data_bus(void **state) {
    (void)state;
    /* with the CCD/RTW rules disabled by the numbers, the direct occupancy check still fires */
    struct dram_spec s = preset_ranks2("ddr4-2400");
    s.CCD_S = s.CCD_L = 1;
    s.RTW = 1;
    struct seq q = {.n = 0};
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, s.RCDRD, DRAM_RD, 0, 0, 0);
    add(&q, s.RCDRD + s.nBL, DRAM_RD, 0, 0, 0);
    expect_ok(&s, &q, "back-to-back bursts");
    q.n = 0;
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, s.RCDRD, DRAM_RD, 0, 0, 0);
    add(&q, s.RCDRD + s.nBL - 1, DRAM_RD, 0, 0, 0);
    expect_bad(&s, &q, "data bus", "overlapping read bursts");
    /* RD data [t+CL, t+CL+nBL), WR data starts at t'+CWL */
    int64_t t = s.RCDRD + s.RCDWR;
    q.n = 0;
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, t, DRAM_RD, 0, 0, 0);
    add(&q, t + s.CL + s.nBL - s.CWL, DRAM_WR, 0, 0, 0);
    expect_ok(&s, &q, "write burst right after read burst");
    q.n = 0;
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, t, DRAM_RD, 0, 0, 0);
    add(&q, t + s.CL + s.nBL - s.CWL - 1, DRAM_WR, 0, 0, 0);
    expect_bad(&s, &q, "data bus", "write burst overlapping a read burst");
    /* across ranks: a write on rank 1 into the read data of rank 0 */
    q.n = 0;
    add(&q, 0, DRAM_ACT, 0, 0, 0);
    add(&q, 1, DRAM_ACT, 1, 0, 0);
    add(&q, 1 + t, DRAM_RD, 0, 0, 0);
    add(&q, 1 + t + s.CL + s.nBL - s.CWL - 1, DRAM_WR, 1, 0, 0);
    expect_bad(&s, &q, "data bus", "rank 1 write burst overlapping a rank 0 read burst");
}

static void test_addresses(void **state) {
    (void)state;
    struct dram_spec s = preset("hbm2");
    struct {
        uint32_t ch, pc, rank, bg, bank, row, col;
        enum dram_cmd cmd;
        const char *what;
    } bad[] = {
        {8, 0, 0, 0, 0, 0, 0, DRAM_ACT, "ch 8"},   {0, 2, 0, 0, 0, 0, 0, DRAM_ACT, "pc 2"},
        {0, 0, 1, 0, 0, 0, 0, DRAM_REF, "rank 1"}, {0, 0, 0, 4, 0, 0, 0, DRAM_PRE, "bg 4"},
        {0, 0, 0, 0, 4, 0, 0, DRAM_ACT, "bank 4"}, {0, 0, 0, 0, 0, 32768, 0, DRAM_ACT, "row 32768"},
        {0, 0, 0, 0, 0, 0, 32, DRAM_RD, "col 32"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct seq q = {.n = 0};
        addx(&q, 0, bad[i].cmd, bad[i].ch, bad[i].pc, bad[i].rank, bad[i].bg, bad[i].bank,
             bad[i].row, bad[i].col);
        char msg[1024];
        assert_int_equal(feed(&s, &q, msg, sizeof msg), 0);
        if (!strstr(msg, "DRAM protocol violation: address:") || !strstr(msg, bad[i].what))
            fail_msg("%s: got '%s'", bad[i].what, msg);
    }
    /* the highest legal address of each field */
    struct seq q = {.n = 0};
    addx(&q, 0, DRAM_ACT, 7, 1, 0, 3, 3, 32767, 0);
    addx(&q, s.RCDRD, DRAM_RD, 7, 1, 0, 3, 3, 32767, 31);
    /* fields a command does not use are not checked */
    addx(&q, s.RCDRD + s.RAS, DRAM_PREA, 7, 1, 0, 99, 99, 99999, 9999);
    addx(&q, s.RCDRD + s.RAS + s.RP, DRAM_REF, 7, 1, 0, 99, 99, 99999, 9999);
    expect_ok(&s, &q, "highest addresses");
    /* not a command at all */
    q.n = 0;
    addx(&q, 0, (enum dram_cmd)DRAM_NCMD, 0, 0, 0, 0, 0, 0, 0);
    expect_bad(&s, &q, "command", "DRAM_NCMD");
}

static void test_violation_not_applied(void **state) {
    (void)state;
    struct dram_spec s = preset("ddr4-2400");
    struct ws_err e = {{0}};
    struct dram_checker *k = make(&s);
    struct dram_cmd_rec a0 = {0, DRAM_ACT, 0, 0, 0, 0, 0, ROW, 0};
    struct dram_cmd_rec a1 = {3, DRAM_ACT, 0, 0, 0, 0, 1, ROW, 0};
    assert_int_equal(dram_checker_observe(k, &a0, &e), 0);
    assert_int_equal(dram_checker_observe(k, &a1, &e), -1);
    assert_non_null(strstr(e.msg, "DRAM protocol violation: tRRD_L: ACT ch0 pc0 rank0 bg0 bank1"));
    /* the rejected ACT left no trace: had it opened bank 1, this would be "bank open" */
    a1.cycle = (uint64_t)s.RRD_L;
    assert_int_equal(dram_checker_observe(k, &a1, &e), 0);
    assert_int_equal(dram_checker_ncommands(k), 3);
    dram_checker_destroy(k);
}

static void test_bad_geometry(void **state) {
    (void)state;
    struct dram_spec s = preset("ddr4-2400");
    s.ranks = 0;
    struct ws_err e = {{0}};
    assert_null(dram_checker_create(&s, &e));
    assert_non_null(strstr(e.msg, "DRAM checker"));
}

/* A long closed-page stream over every bank of every rank with refreshes: legal throughout, on
 * every preset (guards against false positives of state that grows with the stream). */
static void test_long_legal_stream(void **state) {
    (void)state;
    for (int p = 0; p < NPRESETS; p++) {
        struct dram_spec s = preset(presets[p]);
        struct dram_checker *k = make(&s);
        struct ws_err e = {{0}};
        const int64_t step = s.RC + s.RP + s.RFC; /* one bank at a time, very loose */
        const int nb = (int)(s.bankgroups * s.banks_per_group);
        int64_t t = 0, last_ref = 0;
        uint64_t n = 0;
        for (int it = 0; it < 4000; it++) {
            uint32_t ch = (uint32_t)(it % s.channels), pc = (uint32_t)(it % s.pseudo_channels);
            uint32_t rank = (uint32_t)(it / 3 % s.ranks);
            int b = it / 7 % nb;
            uint32_t bg = (uint32_t)(b % s.bankgroups), bank = (uint32_t)(b / s.bankgroups);
            uint32_t row = (uint32_t)(it * 37 % s.rows), col = (uint32_t)(it % s.columns);
            enum dram_cmd c = it % 2 ? DRAM_WRA : DRAM_RDA;
            struct dram_cmd_rec r[2] = {
                {(uint64_t)t, DRAM_ACT, ch, pc, rank, bg, bank, row, 0},
                {(uint64_t)(t + s.RCDRD + s.RCDWR), c, ch, pc, rank, bg, bank, row, col}};
            for (int j = 0; j < 2; j++) {
                if (dram_checker_observe(k, &r[j], &e) != 0) fail_msg("%s: %s", s.preset, e.msg);
                n++;
            }
            t += step;
            if (t - last_ref > s.REFI) { /* refresh every unit, one cycle apart */
                for (uint32_t x = 0; x < s.channels; x++)
                    for (uint32_t y = 0; y < s.pseudo_channels; y++)
                        for (uint32_t z = 0; z < s.ranks; z++) {
                            struct dram_cmd_rec ref = {
                                (uint64_t)(t + y * s.ranks + z), DRAM_REF, x, y, z, 0, 0, 0, 0};
                            if (dram_checker_observe(k, &ref, &e) != 0)
                                fail_msg("%s: %s", s.preset, e.msg);
                            n++;
                        }
                last_ref = t;
                t += s.RFC + 16;
            }
        }
        assert_int_equal(dram_checker_ncommands(k), n);
        if (dram_checker_finish(k, (uint64_t)t, &e) != 0) fail_msg("%s: %s", s.preset, e.msg);
        dram_checker_destroy(k);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_message_format),
        cmocka_unit_test(test_bank_rules),
        cmocka_unit_test(test_rank_rules),
        cmocka_unit_test(test_x32aw),
        cmocka_unit_test(test_rank_switch),
        cmocka_unit_test(test_refresh_and_powerdown),
        cmocka_unit_test(test_finish_refresh),
        cmocka_unit_test(test_illegal_states),
        cmocka_unit_test(test_refresh_per_bank),
        cmocka_unit_test(test_command_bus),
        cmocka_unit_test(test_data_bus),
        cmocka_unit_test(test_addresses),
        cmocka_unit_test(test_violation_not_applied),
        cmocka_unit_test(test_bad_geometry),
        cmocka_unit_test(test_long_legal_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
