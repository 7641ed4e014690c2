/* DRAM power/energy model (see power.h): per rank unit command counts and state residency,
 * turned into energy with Micron TN-41-01's IDD equations as USIMM v1.3 applies them (seed-002).
 *
 * Residency. Each rank unit starts at cycle 0, powered up with all banks precharged. Between two
 * of its commands it is in exactly one of five states, charged at the current beside it:
 *   active standby        IDD3N   powered up, at least one bank open
 *   precharge standby     IDD2N   powered up, all banks precharged (also while refreshing: the
 *                                 refresh increment is charged on top, relative to IDD3N, as USIMM)
 *   active power-down     IDD3P   PDEF or PDES entered with a bank open (DDR3 keeps the DLL on in
 *                                 active power-down whatever the exit mode; USIMM does the same)
 *   fast precharge PD     IDD2P1  PDEF entered with all banks precharged
 *   slow precharge PD     IDD2P0  PDES entered with all banks precharged
 * ACT opens its bank; PRE closes it, PREA and REF close all (REFPB needs its bank closed already);
 * RDA/WRA close the bank at the
 * command's own cycle (the real auto-precharge starts tRTP / tWR+burst later, a few cycles of
 * active standby that this model books as precharge standby). PDX leaves power-down, and so does
 * any command other than PDEF/PDES: the protocol checker, not this model, flags a missing PDX.
 *
 * Termination (DDR3 only). USIMM's constants from the TN-41-01 two-rank module (per device, mW):
 * read data driven by this rank 32 (pds_dq = 3.2 x 10), write data to this rank 0 (pds_termW),
 * read data of another rank on the same bus 249 (pds_termRoth = 24.9 x 10), write data to another
 * rank 228.8 (pds_termWoth = 20.8 x 11), each for nBL cycles per burst. GDDR5/GDDR6 (POD, ODT to
 * VDDQ on a point-to-point link), HBM2 (unterminated micro-bumps) and DDR4 have no such published
 * per-rank constants, so their termination energy is 0 rather than a guess. */
#include "mem/dram/power.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PD_NONE, PD_ACT, PD_FAST, PD_SLOW };

/* USIMM v1.3 memory_controller.c calculate_power(), in mW per device. */
static const double term_rd_own_mw = 3.2 * 10;
static const double term_wr_own_mw = 0;
static const double term_rd_other_mw = 24.9 * 10;
static const double term_wr_other_mw = 20.8 * 11;

/* Per rank unit: command counts, residency (tCK) and the energies derived at finish. */
struct power_unit_stats {
    uint64_t acts, reads, writes, refs, refs_pb, reads_other, writes_other;
    uint64_t act_stby_cyc, pre_stby_cyc, act_pdn_cyc, pre_pdn_fast_cyc, pre_pdn_slow_cyc;
    double act_nj, read_nj, write_nj, refresh_nj, background_nj, termination_nj, total_nj;
    double avg_power_mw;
};

#define U(f) offsetof(struct power_unit_stats, f)
static const struct stat_desc unit_desc[] = {
    {"acts", STAT_COUNTER, U(acts), "", "ACT commands issued to this rank"},
    {"reads", STAT_COUNTER, U(reads), "", "read bursts (RD + RDA) issued to this rank"},
    {"writes", STAT_COUNTER, U(writes), "", "write bursts (WR + WRA) issued to this rank"},
    {"refs", STAT_COUNTER, U(refs), "", "REF commands issued to this rank"},
    {"refs_pb", STAT_COUNTER, U(refs_pb), "", "per-bank refreshes (REFPB) issued to this rank"},
    {"reads_other", STAT_COUNTER, U(reads_other), "",
     "read bursts to other ranks of the same (pseudo-)channel, which this rank terminates"},
    {"writes_other", STAT_COUNTER, U(writes_other), "",
     "write bursts to other ranks of the same (pseudo-)channel, which this rank terminates"},
    {"act_stby_cyc", STAT_COUNTER, U(act_stby_cyc), "tCK",
     "cycles powered up with at least one bank open (active standby, IDD3N)"},
    {"pre_stby_cyc", STAT_COUNTER, U(pre_stby_cyc), "tCK",
     "cycles powered up with all banks precharged (precharge standby, IDD2N)"},
    {"act_pdn_cyc", STAT_COUNTER, U(act_pdn_cyc), "tCK",
     "cycles in power-down entered with a bank open (active power-down, IDD3P)"},
    {"pre_pdn_fast_cyc", STAT_COUNTER, U(pre_pdn_fast_cyc), "tCK",
     "cycles in fast-exit precharge power-down (PDEF, all banks closed, IDD2P1)"},
    {"pre_pdn_slow_cyc", STAT_COUNTER, U(pre_pdn_slow_cyc), "tCK",
     "cycles in slow-exit precharge power-down (PDES, all banks closed, IDD2P0)"},
    {"act_nj", STAT_REAL, U(act_nj), "nJ",
     "activate energy: ACTs x (IDD0*tRC - IDD3N*tRAS - IDD2N*(tRC-tRAS)) x VDD x devices "
     "(TN-41-01; USIMM eq. 5.4-5.5)"},
    {"read_nj", STAT_REAL, U(read_nj), "nJ",
     "read energy: reads x nBL x tCK x (IDD4R - IDD3N) x VDD x devices (USIMM eq. 5.1)"},
    {"write_nj", STAT_REAL, U(write_nj), "nJ",
     "write energy: writes x nBL x tCK x (IDD4W - IDD3N) x VDD x devices (USIMM eq. 5.2)"},
    {"refresh_nj", STAT_REAL, U(refresh_nj), "nJ",
     "refresh energy: (REFs + REFPBs / banks) x tRFC x (IDD5 - IDD3N) x VDD x devices (USIMM "
     "eq. 5.3 per REF; a per-bank refresh renews a bank's share of what a REF renews)"},
    {"background_nj", STAT_REAL, U(background_nj), "nJ",
     "background energy: residency x {IDD3N, IDD2N, IDD3P, IDD2P1, IDD2P0} x VDD x devices "
     "(USIMM eq. 5.6-5.11)"},
    {"termination_nj", STAT_REAL, U(termination_nj), "nJ",
     "ODT energy, DDR3 only: burst cycles x {32, 0, 249, 228.8} mW (own read, own write, other "
     "rank read, other rank write) x devices (USIMM eq. 5.12-5.15); 0 for other standards"},
    {"total_nj", STAT_REAL, U(total_nj), "nJ", "sum of this rank's energy components"},
    {"avg_power_mw", STAT_REAL, U(avg_power_mw), "mW",
     "this rank's total energy over the simulated span (end cycle x tCK)"},
};
#undef U

/* Sums over all rank units. */
struct power_totals {
    uint64_t cycles, rank_units, acts, reads, writes, refs, refs_pb;
    double act_nj, read_nj, write_nj, refresh_nj, background_nj, termination_nj, total_nj;
    double avg_power_mw;
};

#define T(f) offsetof(struct power_totals, f)
static const struct stat_desc total_desc[] = {
    {"cycles", STAT_COUNTER, T(cycles), "tCK", "span the energies cover: the end cycle of the run"},
    {"rank_units", STAT_COUNTER, T(rank_units), "",
     "rank units modelled: channels x pseudo-channels x ranks"},
    {"acts", STAT_COUNTER, T(acts), "", "ACT commands, all ranks"},
    {"reads", STAT_COUNTER, T(reads), "", "read bursts (RD + RDA), all ranks"},
    {"writes", STAT_COUNTER, T(writes), "", "write bursts (WR + WRA), all ranks"},
    {"refs", STAT_COUNTER, T(refs), "", "REF commands, all ranks"},
    {"refs_pb", STAT_COUNTER, T(refs_pb), "", "per-bank refreshes (REFPB), all ranks"},
    {"act_nj", STAT_REAL, T(act_nj), "nJ",
     "activate energy, all ranks (per ACT: (IDD0*tRC - IDD3N*tRAS - IDD2N*(tRC-tRAS)) x VDD x "
     "devices; TN-41-01, USIMM eq. 5.4-5.5)"},
    {"read_nj", STAT_REAL, T(read_nj), "nJ",
     "read burst energy above active standby, all ranks ((IDD4R-IDD3N) x VDD; USIMM eq. 5.1)"},
    {"write_nj", STAT_REAL, T(write_nj), "nJ",
     "write burst energy above active standby, all ranks ((IDD4W-IDD3N) x VDD; USIMM eq. 5.2)"},
    {"refresh_nj", STAT_REAL, T(refresh_nj), "nJ",
     "refresh energy above active standby, all ranks ((IDD5-IDD3N) x VDD x tRFC per REF, and a "
     "bank's share of it per REFPB; eq. 5.3)"},
    {"background_nj", STAT_REAL, T(background_nj), "nJ",
     "standby and power-down energy, all ranks (time-weighted IDD3N/IDD2N/IDD3P/IDD2P1/IDD2P0; "
     "USIMM eq. 5.6-5.11)"},
    {"termination_nj", STAT_REAL, T(termination_nj), "nJ",
     "on-die termination energy, all ranks (DDR3: USIMM's TN-41-01 constants, eq. 5.12-5.15; 0 for "
     "other standards)"},
    {"total_nj", STAT_REAL, T(total_nj), "nJ", "DRAM energy: sum of the components, all ranks"},
    {"avg_power_mw", STAT_REAL, T(avg_power_mw), "mW",
     "average DRAM power: total_nj over the span (cycles x tCK); USIMM's memory power"},
};
#undef T

/* Residency tracking of one rank unit. */
struct unit_state {
    uint64_t open_mask; /* bit b: bank b (bg * banks_per_group + bank) has a row open */
    uint64_t since;     /* cycle the current residency interval began */
    int pd;             /* PD_* */
};

struct dram_power {
    struct dram_spec s;
    uint32_t npc, nrank, bpg, nbank;
    size_t nunits;
    uint64_t end_cycle;
    struct unit_state *st;
    struct power_unit_stats *u;
    struct power_totals tot;
};

struct dram_power *dram_power_create(const struct dram_spec *s, struct ws_err *e) {
    if (s->channels < 1 || s->pseudo_channels < 1 || s->ranks < 1 || s->bankgroups < 1 ||
        s->banks_per_group < 1) {
        ws_fail(e, "dram power: empty geometry (channels, pseudo_channels, ranks and banks >= 1)");
        return NULL;
    }
    if (dram_banks_per_rank(s) > 64) {
        ws_fail(e, "dram power: %lld banks per rank, at most 64 are modelled",
                (long long)dram_banks_per_rank(s));
        return NULL;
    }
    if (s->tCK_ps < 1 || s->devices_per_rank < 1) {
        ws_fail(e, "dram power: tCK_ps and devices_per_rank must be positive");
        return NULL;
    }
    size_t n = (size_t)s->channels * (size_t)s->pseudo_channels * (size_t)s->ranks;
    struct dram_power *p = calloc(1, sizeof *p);
    if (p) {
        p->st = calloc(n, sizeof *p->st);
        p->u = calloc(n, sizeof *p->u);
    }
    if (!p || !p->st || !p->u) {
        dram_power_destroy(p);
        ws_fail(e, "dram power: out of memory for %zu rank units", n);
        return NULL;
    }
    p->s = *s;
    p->npc = (uint32_t)s->pseudo_channels;
    p->nrank = (uint32_t)s->ranks;
    p->bpg = (uint32_t)s->banks_per_group;
    p->nbank = (uint32_t)dram_banks_per_rank(s);
    p->nunits = n;
    p->tot.rank_units = n;
    return p;
}

void dram_power_destroy(struct dram_power *p) {
    if (!p) return;
    free(p->st);
    free(p->u);
    free(p);
}

/* Books [since, now) to the state the unit was in, and starts a new interval at now. */
static inline void settle(struct unit_state *st, struct power_unit_stats *u, uint64_t now) {
    uint64_t dt = now - st->since;
    switch (st->pd) {
    case PD_NONE:
        if (st->open_mask)
            u->act_stby_cyc += dt;
        else
            u->pre_stby_cyc += dt;
        break;
    case PD_ACT:
        u->act_pdn_cyc += dt;
        break;
    case PD_FAST:
        u->pre_pdn_fast_cyc += dt;
        break;
    default:
        u->pre_pdn_slow_cyc += dt;
        break;
    }
    st->since = now;
}

void dram_power_observe(struct dram_power *p, const struct dram_cmd_rec *r) {
    WS_ASSERT(r->ch < (uint64_t)p->s.channels && r->pc < p->npc && r->rank < p->nrank,
              "dram power: command to ch %u pc %u rank %u outside the geometry", r->ch, r->pc,
              r->rank);
    uint32_t b = 0;
    if (r->cmd == DRAM_ACT || r->cmd == DRAM_PRE || dram_cmd_is_col(r->cmd)) {
        b = r->bg * p->bpg + r->bank;
        WS_ASSERT(b < p->nbank, "dram power: bank group %u bank %u outside the geometry", r->bg,
                  r->bank);
    }
    size_t ui = ((size_t)r->ch * p->npc + r->pc) * p->nrank + r->rank;
    WS_ASSERT(r->cycle >= p->st[ui].since, "dram power: cycle %llu before %llu on ch %u",
              (unsigned long long)r->cycle, (unsigned long long)p->st[ui].since, r->ch);
    dram_power_cmd(p, r->ch * p->npc * p->nrank + r->pc * p->nrank + r->rank, b, r->cmd, r->cycle);
}

/* The controller's path (no record, no range checks: its commands are in the geometry). */
void dram_power_cmd(struct dram_power *p, uint32_t ui, uint32_t b, enum dram_cmd cmd,
                    uint64_t cycle) {
    struct unit_state *st = &p->st[ui];
    struct power_unit_stats *u = &p->u[ui];
    settle(st, u, cycle);
    uint64_t bit = (uint64_t)1 << b;
    if (cmd != DRAM_PDEF && cmd != DRAM_PDES) st->pd = PD_NONE;

    switch (cmd) {
    case DRAM_ACT:
        st->open_mask |= bit;
        u->acts++;
        break;
    case DRAM_PRE:
        st->open_mask &= ~bit;
        break;
    case DRAM_PREA:
        st->open_mask = 0;
        break;
    case DRAM_RD:
    case DRAM_RDA:
        u->reads++;
        if (p->nrank > 1) {
            struct power_unit_stats *first = u - ui % p->nrank;
            for (uint32_t k = 0; k < p->nrank; k++)
                if (first + k != u) first[k].reads_other++;
        }
        if (cmd == DRAM_RDA) st->open_mask &= ~bit;
        break;
    case DRAM_WR:
    case DRAM_WRA:
        u->writes++;
        if (p->nrank > 1) {
            struct power_unit_stats *first = u - ui % p->nrank;
            for (uint32_t k = 0; k < p->nrank; k++)
                if (first + k != u) first[k].writes_other++;
        }
        if (cmd == DRAM_WRA) st->open_mask &= ~bit;
        break;
    case DRAM_REF:
        u->refs++;
        st->open_mask = 0;
        break;
    case DRAM_REFPB:
        u->refs_pb++;
        break;
    case DRAM_PDEF:
        st->pd = st->open_mask ? PD_ACT : PD_FAST;
        break;
    case DRAM_PDES:
        st->pd = st->open_mask ? PD_ACT : PD_SLOW;
        break;
    case DRAM_PDX:
    case DRAM_NCMD:
        break;
    }
}

void dram_power_finish(struct dram_power *p, uint64_t end_cycle) {
    const struct dram_spec *s = &p->s;
    /* mA x V = mW, and mW x ps = 1e-6 nJ: one device drawing I mA for c cycles uses
     * I * c * k nJ, with k already multiplied by the devices of a rank. */
    const double dev = (double)s->devices_per_rank;
    const double k = s->VDD * (double)s->tCK_ps * 1e-6 * dev;
    const double kp = (double)s->tCK_ps * 1e-6 * dev; /* for powers given in mW */
    const double act_ma_cyc =
        s->IDD0 * (double)s->RC - (s->IDD3N * (double)s->RAS + s->IDD2N * (double)(s->RC - s->RAS));
    const double nbl = (double)s->nBL;
    const bool odt = s->std == DRAM_DDR3;
    const double span_ns = (double)end_cycle * (double)s->tCK_ps * 1e-3;

    memset(&p->tot, 0, sizeof p->tot);
    p->tot.cycles = end_cycle;
    p->tot.rank_units = p->nunits;
    p->end_cycle = end_cycle;
    for (size_t i = 0; i < p->nunits; i++) {
        struct unit_state *st = &p->st[i];
        struct power_unit_stats *u = &p->u[i];
        WS_ASSERT(end_cycle >= st->since, "dram power: finish at %llu before a command at %llu",
                  (unsigned long long)end_cycle, (unsigned long long)st->since);
        settle(st, u, end_cycle);

        u->act_nj = (double)u->acts * act_ma_cyc * k;
        u->read_nj = (double)u->reads * nbl * (s->IDD4R - s->IDD3N) * k;
        u->write_nj = (double)u->writes * nbl * (s->IDD4W - s->IDD3N) * k;
        const double nbanks = (double)(s->bankgroups * s->banks_per_group);
        u->refresh_nj = ((double)u->refs + (double)u->refs_pb / nbanks) * (double)s->RFC *
                        (s->IDD5 - s->IDD3N) * k;
        u->background_nj =
            (s->IDD3N * (double)u->act_stby_cyc + s->IDD2N * (double)u->pre_stby_cyc +
             s->IDD3P * (double)u->act_pdn_cyc + s->IDD2P1 * (double)u->pre_pdn_fast_cyc +
             s->IDD2P0 * (double)u->pre_pdn_slow_cyc) *
            k;
        u->termination_nj =
            odt ? (term_rd_own_mw * (double)u->reads + term_wr_own_mw * (double)u->writes +
                   term_rd_other_mw * (double)u->reads_other +
                   term_wr_other_mw * (double)u->writes_other) *
                      nbl * kp
                : 0.0;
        u->total_nj = u->act_nj + u->read_nj + u->write_nj + u->refresh_nj + u->background_nj +
                      u->termination_nj;
        /* nJ / ns = W */
        u->avg_power_mw = span_ns > 0 ? u->total_nj / span_ns * 1e3 : 0.0;

        p->tot.acts += u->acts;
        p->tot.reads += u->reads;
        p->tot.writes += u->writes;
        p->tot.refs += u->refs;
        p->tot.refs_pb += u->refs_pb;
        p->tot.act_nj += u->act_nj;
        p->tot.read_nj += u->read_nj;
        p->tot.write_nj += u->write_nj;
        p->tot.refresh_nj += u->refresh_nj;
        p->tot.background_nj += u->background_nj;
        p->tot.termination_nj += u->termination_nj;
        p->tot.total_nj += u->total_nj;
    }
    p->tot.avg_power_mw = span_ns > 0 ? p->tot.total_nj / span_ns * 1e3 : 0.0;
}

void dram_power_totals(const struct dram_power *p, struct dram_energy *out) {
    out->act_nj = p->tot.act_nj;
    out->read_nj = p->tot.read_nj;
    out->write_nj = p->tot.write_nj;
    out->refresh_nj = p->tot.refresh_nj;
    out->background_nj = p->tot.background_nj;
    out->termination_nj = p->tot.termination_nj;
    out->total_nj = p->tot.total_nj;
    out->avg_power_mw = p->tot.avg_power_mw;
}

int dram_power_register_stats(struct dram_power *p, struct stats_reg *reg, struct ws_err *e) {
    if (stats_register(reg, "dram.energy", total_desc, sizeof total_desc / sizeof total_desc[0],
                       &p->tot, e) != 0)
        return -1;
    if (p->nunits > 64) return 0;
    for (size_t i = 0; i < p->nunits; i++) {
        char name[64];
        unsigned rank = (unsigned)(i % p->nrank);
        unsigned pc = (unsigned)(i / p->nrank % p->npc);
        unsigned ch = (unsigned)(i / p->nrank / p->npc);
        snprintf(name, sizeof name, "dram.energy.ch%u.pc%u.r%u", ch, pc, rank);
        if (stats_register(reg, name, unit_desc, sizeof unit_desc / sizeof unit_desc[0], &p->u[i],
                           e) != 0)
            return -1;
    }
    return 0;
}
