/* DRAM channel timing model (see dram.h). Each issued command pushes forward the fences of the
 * levels it constrains; a command may issue once every fence on its path has passed. */
#include "mem/dram/dram.h"

#include <stdlib.h>
#include <string.h>

const char *const dram_bank_state_names[] = {"idle",        "activating", "active",
                                             "precharging", "refreshing", "powerdown"};

static inline uint64_t max2(uint64_t a, uint64_t b) {
    return a > b ? a : b;
}
static inline void push(uint64_t *f, uint64_t v) {
    if (v > *f) *f = v;
}

int dram_chan_init(struct dram_chan *c, const struct dram_spec *s, uint32_t id, struct ws_err *e) {
    memset(c, 0, sizeof *c);
    c->s = s;
    c->id = id;
    c->nunits = (uint32_t)(s->pseudo_channels * s->ranks);
    c->nbanks_unit = (uint32_t)(s->bankgroups * s->banks_per_group);
    c->rank = calloc(c->nunits, sizeof *c->rank);
    c->bg = calloc((size_t)c->nunits * (size_t)s->bankgroups, sizeof *c->bg);
    c->bank = calloc((size_t)c->nunits * c->nbanks_unit, sizeof *c->bank);
    c->bus = calloc((size_t)s->pseudo_channels, sizeof *c->bus);
    if (!c->rank || !c->bg || !c->bank || !c->bus) {
        dram_chan_free(c);
        return ws_fail(e, "out of memory for DRAM channel state");
    }
    for (uint32_t i = 0; i < c->nunits * c->nbanks_unit; i++) c->bank[i].open_row = -1;
    for (uint32_t u = 0; u < c->nunits; u++) {
        if (s->X32AW > 0) {
            c->rank[u].aw32 = calloc(32, sizeof(uint64_t));
            if (!c->rank[u].aw32) {
                dram_chan_free(c);
                return ws_fail(e, "out of memory for DRAM channel state");
            }
        }
    }
    return 0;
}

void dram_chan_free(struct dram_chan *c) {
    if (c->rank)
        for (uint32_t u = 0; u < c->nunits; u++) free(c->rank[u].aw32);
    free(c->rank);
    free(c->bg);
    free(c->bank);
    free(c->bus);
    memset(c, 0, sizeof *c);
}

static bool is_row_cmd(enum dram_cmd cmd) {
    return !dram_cmd_is_col(cmd);
}

static uint64_t cmd_bus_ready(const struct dram_chan *c, enum dram_cmd cmd) {
    if (!c->s->dual_cmd_bus) return c->next_cmd;
    return is_row_cmd(cmd) ? c->next_row_cmd : c->next_col_cmd;
}

uint64_t dram_ready_at(const struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a,
                       uint64_t now) {
    const struct dram_spec *s = c->s;
    uint32_t u = dram_unit_of(c, a);
    const struct dram_rank *r = &c->rank[u];
    const struct dram_bg *g = &c->bg[u * (uint32_t)s->bankgroups + a->bg];
    const struct dram_bank *b = &c->bank[dram_bank_index(c, a)];
    const struct dram_bus *bus = &c->bus[a->pc];
    uint64_t t = max2(now, cmd_bus_ready(c, cmd));
    if (r->pd) {
        if (cmd != DRAM_PDX) return DRAM_NEVER;
        return max2(t, r->pd_at + (uint64_t)s->CKE);
    }
    t = max2(t, r->next_any);
    switch (cmd) {
    case DRAM_ACT:
        if (b->open_row >= 0) return DRAM_NEVER;
        t = max2(t, max2(b->next_act, max2(g->next_act, r->next_act)));
        return max2(t, dram_act_window_ready(c, r));
    case DRAM_PRE:
        if (b->open_row < 0) return DRAM_NEVER;
        return max2(t, b->next_pre);
    case DRAM_PREA: {
        if (r->open_banks == 0) return DRAM_NEVER;
        const struct dram_bank *bk = &c->bank[u * c->nbanks_unit];
        for (uint32_t i = 0; i < c->nbanks_unit; i++)
            if (bk[i].open_row >= 0) t = max2(t, bk[i].next_pre);
        return t;
    }
    case DRAM_RD:
    case DRAM_RDA:
        if (b->open_row != (int32_t)a->row) return DRAM_NEVER;
        return max2(t, max2(max2(b->next_rd, g->next_rd), max2(r->next_rd, bus->next_rd)));
    case DRAM_WR:
    case DRAM_WRA:
        if (b->open_row != (int32_t)a->row) return DRAM_NEVER;
        return max2(t, max2(max2(b->next_wr, g->next_wr), max2(r->next_wr, bus->next_wr)));
    case DRAM_REF: {
        if (r->open_banks) return DRAM_NEVER;
        t = max2(t, r->next_ref);
        const struct dram_bank *bk = &c->bank[u * c->nbanks_unit];
        for (uint32_t i = 0; i < c->nbanks_unit; i++) t = max2(t, bk[i].next_act);
        return t;
    }
    case DRAM_PDEF:
        return max2(t, r->next_pde);
    case DRAM_PDES:
        if (r->open_banks) return DRAM_NEVER;
        return max2(t, r->next_pde);
    case DRAM_PDX:
        return DRAM_NEVER; /* not powered down */
    case DRAM_REFPB:
        /* one closed bank, past its own fences (tRP, tRC, an earlier REFPB's tRFCpb) */
        if (s->RFCpb == 0 || b->open_row >= 0) return DRAM_NEVER;
        return max2(t, max2(b->next_act, r->next_refpb));
    case DRAM_NCMD:
        break;
    }
    return DRAM_NEVER;
}

static void close_bank(struct dram_chan *c, struct dram_rank *r, struct dram_bank *b,
                       uint64_t pre_at) {
    b->open_row = -1;
    b->closed_at = pre_at;
    push(&b->next_act, pre_at + (uint64_t)c->s->RP);
    push(&r->next_ref, pre_at + (uint64_t)c->s->RP);
    r->open_banks--;
}

void dram_issue(struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a, uint64_t now) {
    uint64_t ready = dram_ready_at(c, cmd, a, now);
    WS_ASSERT(ready <= now, "DRAM ch%u: %s issued at %llu before it is allowed (%llu)", c->id,
              dram_cmd_names[cmd], (unsigned long long)now, (unsigned long long)ready);
    dram_issue_checked(c, cmd, a, now);
}

void dram_issue_checked(struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a,
                        uint64_t now) {
    dram_issue_at(c, cmd, a, dram_unit_of(c, a), dram_bank_index(c, a), now);
}

void dram_issue_at(struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a, uint32_t u,
                   uint32_t bank, uint64_t now) {
    const struct dram_spec *s = c->s;
    struct dram_rank *r = &c->rank[u];
    struct dram_bg *g = &c->bg[u * (uint32_t)s->bankgroups + a->bg];
    struct dram_bank *b = &c->bank[bank];
    struct dram_bus *bus = &c->bus[a->pc];
    const uint64_t nBL = (uint64_t)s->nBL;
    c->ncmd[cmd]++;

    if (!s->dual_cmd_bus)
        c->next_cmd = now + 1;
    else if (is_row_cmd(cmd))
        c->next_row_cmd = now + 1;
    else
        c->next_col_cmd = now + 1;

    switch (cmd) {
    case DRAM_ACT:
        b->open_row = (int32_t)a->row;
        b->act_at = now;
        r->open_banks++;
        push(&b->next_act, now + (uint64_t)s->RC);
        push(&b->next_rd, now + (uint64_t)s->RCDRD);
        push(&b->next_wr, now + (uint64_t)s->RCDWR);
        push(&b->next_pre, now + (uint64_t)s->RAS);
        push(&g->next_act, now + (uint64_t)s->RRD_L);
        push(&r->next_act, now + (uint64_t)s->RRD_S);
        push(&r->next_refpb, now + (uint64_t)s->RRD_S);
        push(&r->next_pde, now + 1);
        r->nact++;
        r->faw[r->faw_pos] = now;
        r->faw_pos = (r->faw_pos + 1) & 3;
        if (r->aw32) {
            r->aw32[r->aw32_pos] = now;
            r->aw32_pos = (r->aw32_pos + 1) & 31;
        }
        break;
    case DRAM_PRE:
        close_bank(c, r, b, now);
        push(&r->next_pde, now + 1);
        break;
    case DRAM_PREA: {
        struct dram_bank *bk = &c->bank[u * c->nbanks_unit];
        for (uint32_t i = 0; i < c->nbanks_unit; i++)
            if (bk[i].open_row >= 0) close_bank(c, r, &bk[i], now);
        push(&r->next_pde, now + 1);
        break;
    }
    case DRAM_RD:
    case DRAM_RDA: {
        c->data_busy_cycles += nBL;
        b->last_col_at = now;
        push(&g->next_rd, now + (uint64_t)s->CCD_L);
        push(&r->next_rd, now + (uint64_t)s->CCD_S);
        push(&bus->next_wr, now + (uint64_t)s->RTW); /* turnaround, any rank on this bus */
        /* other ranks on this data bus: the burst plus a rank-switch gap */
        for (uint32_t k = 0; k < (uint32_t)s->ranks; k++) {
            struct dram_rank *o = &c->rank[a->pc * (uint32_t)s->ranks + k];
            if (o == r) continue;
            push(&o->next_rd, now + nBL + (uint64_t)s->RTRS);
        }
        push(&r->next_pde, now + (uint64_t)(s->CL + s->nBL) + 1);
        if (cmd == DRAM_RD) {
            push(&b->next_pre, now + (uint64_t)s->RTP);
        } else {
            uint64_t pre_at = max2(now + (uint64_t)s->RTP, b->next_pre);
            close_bank(c, r, b, pre_at);
        }
        break;
    }
    case DRAM_WR:
    case DRAM_WRA: {
        c->data_busy_cycles += nBL;
        b->last_col_at = now;
        uint64_t data_end = now + (uint64_t)s->CWL + nBL;
        push(&g->next_wr, now + (uint64_t)s->CCD_L);
        push(&r->next_wr, now + (uint64_t)s->CCD_S);
        push(&g->next_rd, data_end + (uint64_t)s->WTR_L);
        push(&r->next_rd, data_end + (uint64_t)s->WTR_S);
        for (uint32_t k = 0; k < (uint32_t)s->ranks; k++) {
            struct dram_rank *o = &c->rank[a->pc * (uint32_t)s->ranks + k];
            if (o == r) continue;
            push(&o->next_wr, now + nBL + (uint64_t)s->RTRS);
            int64_t gap = s->CWL + s->nBL + s->RTRS - s->CL;
            if (gap > 0) push(&o->next_rd, now + (uint64_t)gap);
        }
        push(&r->next_pde, data_end + (uint64_t)s->WR);
        if (cmd == DRAM_WR) {
            push(&b->next_pre, data_end + (uint64_t)s->WR);
        } else {
            uint64_t pre_at = max2(data_end + (uint64_t)s->WR, b->next_pre);
            close_bank(c, r, b, pre_at);
        }
        break;
    }
    case DRAM_REF: {
        uint64_t until = now + (uint64_t)s->RFC;
        r->ref_until = until;
        struct dram_bank *bk = &c->bank[u * c->nbanks_unit];
        for (uint32_t i = 0; i < c->nbanks_unit; i++) push(&bk[i].next_act, until);
        push(&r->next_ref, until);
        push(&r->next_pde, until);
        break;
    }
    case DRAM_PDEF:
    case DRAM_PDES:
        r->pd = cmd == DRAM_PDEF ? 1 : 2;
        r->pd_at = now;
        break;
    case DRAM_PDX:
        push(&r->next_any, now + (uint64_t)(r->pd == 2 ? s->XPDLL : s->XP));
        r->pd = 0;
        break;
    case DRAM_REFPB: {
        /* the bank is busy for tRFCpb; the rank's other banks only wait tRREFD to activate */
        uint64_t until = now + (uint64_t)s->RFCpb;
        b->ref_until = until;
        push(&b->next_act, until);
        push(&r->next_act, now + (uint64_t)s->RREFD);
        push(&r->next_refpb, now + (uint64_t)s->RREFD);
        push(&r->next_pde, until);
        break;
    }
    case DRAM_NCMD:
        break;
    }
}

enum dram_bank_state dram_bank_state_at(const struct dram_chan *c, const struct dram_addr *a,
                                        uint64_t now) {
    const struct dram_rank *r = &c->rank[dram_unit_of(c, a)];
    const struct dram_bank *b = &c->bank[dram_bank_index(c, a)];
    if (r->pd) return DRAM_BANK_POWERDOWN;
    if (now < r->ref_until || now < b->ref_until) return DRAM_BANK_REFRESHING;
    if (b->open_row >= 0)
        return now < b->act_at + (uint64_t)c->s->RCDRD ? DRAM_BANK_ACTIVATING : DRAM_BANK_ACTIVE;
    if (now < b->next_act && now < b->closed_at + (uint64_t)c->s->RP) return DRAM_BANK_PRECHARGING;
    return DRAM_BANK_IDLE;
}
