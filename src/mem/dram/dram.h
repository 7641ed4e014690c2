/* DRAM device timing model of one channel: per-bank, per-bank-group, per-rank and per-data-bus
 * "earliest next command" fences, updated when a command issues (the constraint rows are in
 * dram.c). The controller asks when a command could issue and issues it; legality of state
 * (row open, bank closed) and timing are both enforced here. Timing follows JEDEC-style rules
 * as USIMM v1.3 and Ramulator express them; the protocol checker re-derives them separately. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "mem/dram/dram_spec.h"

enum { DRAM_NEVER = UINT64_MAX / 4 };

enum dram_bank_state {
    DRAM_BANK_IDLE,       /* precharged, ready for ACT */
    DRAM_BANK_ACTIVATING, /* ACT issued, tRCD not yet met */
    DRAM_BANK_ACTIVE,     /* row open */
    DRAM_BANK_PRECHARGING,
    DRAM_BANK_REFRESHING,
    DRAM_BANK_POWERDOWN,
};
extern const char *const dram_bank_state_names[];

struct dram_bank {
    int32_t open_row; /* -1 when closed */
    uint64_t next_act, next_rd, next_wr, next_pre;
    uint64_t act_at;      /* last ACT, for the state view */
    uint64_t closed_at;   /* when the last (auto-)precharge started */
    uint64_t last_col_at; /* last column command, for close-page idling */
    uint64_t ref_until;   /* per-bank refresh (REFPB) in progress until */
};

struct dram_bg {
    uint64_t next_act, next_rd, next_wr;
};

struct dram_rank {
    uint64_t next_act, next_rd, next_wr, next_ref, next_pde, next_any;
    uint64_t next_refpb; /* REFPB to another bank: tRREFD after a REFPB, tRRD_S after an ACT */
    uint64_t faw[4];     /* issue cycles of the last 4 ACTs (ring) */
    uint64_t *aw32;      /* last 32 ACTs (GDDR5 t32AW), NULL when X32AW == 0 */
    unsigned faw_pos, aw32_pos;
    uint64_t nact; /* ACTs issued to this rank */
    uint32_t open_banks;
    uint64_t ref_until; /* refresh in progress until */
    int pd;             /* 0 = up, 1 = fast power-down, 2 = slow power-down */
    uint64_t pd_at;
};

struct dram_bus {
    uint64_t next_rd, next_wr; /* turnaround fences on one data bus */
};

/* One channel: pseudo-channels x ranks "rank units", each with its banks. */
struct dram_chan {
    const struct dram_spec *s;
    uint32_t id;
    uint32_t nunits, nbanks_unit;                  /* rank units (pc*ranks) and banks per unit */
    struct dram_rank *rank;                        /* [nunits] */
    struct dram_bg *bg;                            /* [nunits * bankgroups] */
    struct dram_bank *bank;                        /* [nunits * nbanks_unit] */
    struct dram_bus *bus;                          /* [pseudo_channels] */
    uint64_t next_cmd, next_row_cmd, next_col_cmd; /* command-bus slots */
    uint64_t ncmd[DRAM_NCMD];
    uint64_t data_busy_cycles; /* sum over bursts of nBL */
};

int dram_chan_init(struct dram_chan *c, const struct dram_spec *s, uint32_t id, struct ws_err *e);
void dram_chan_free(struct dram_chan *c);

static inline uint32_t dram_unit_of(const struct dram_chan *c, const struct dram_addr *a) {
    return a->pc * (uint32_t)c->s->ranks + a->rank;
}
static inline uint32_t dram_bank_index(const struct dram_chan *c, const struct dram_addr *a) {
    return dram_unit_of(c, a) * c->nbanks_unit + a->bg * (uint32_t)c->s->banks_per_group + a->bank;
}
/* Pseudo-channel (data bus) of a rank unit; single-rank parts skip the division. */
static inline uint32_t dram_pc_of_unit(const struct dram_chan *c, uint32_t unit) {
    return c->s->ranks == 1 ? unit : unit / (uint32_t)c->s->ranks;
}
static inline struct dram_bank *dram_bank_of(struct dram_chan *c, const struct dram_addr *a) {
    return &c->bank[dram_bank_index(c, a)];
}

/* Earliest cycle >= now at which `cmd` to `a` satisfies every timing constraint, or DRAM_NEVER
 * when the current state forbids it (RD to a closed bank, ACT to an open one, anything but PDX
 * to a powered-down rank...). Pure: changes nothing. */
uint64_t dram_ready_at(const struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a,
                       uint64_t now);
/* The ACT count windows: the 5th (33rd) ACT of a rank must come at least tFAW (t32AW) after
 * the oldest of the last 4 (32); the ring slot at *_pos holds that oldest ACT. */
static inline uint64_t dram_act_window_ready(const struct dram_chan *c, const struct dram_rank *r) {
    uint64_t t = 0;
    if (c->s->FAW > 0 && r->nact >= 4) t = r->faw[r->faw_pos] + (uint64_t)c->s->FAW;
    if (r->aw32 && r->nact >= 32) {
        uint64_t t32 = r->aw32[r->aw32_pos] + (uint64_t)c->s->X32AW;
        if (t32 > t) t = t32;
    }
    return t;
}

/* dram_ready_at() in parts, for a controller that shares the work across banks (without the
 * command bus and without state legality): the rank-unit part (rank and data-bus fences, ACT
 * windows, power-down), the bank-group fence and the bank fence. For a command the bank's state
 * allows, dram_ready_at() = max(those three, dram_cmd_bus_ready()). Inline: hot path. */
static inline uint64_t dram_unit_ready(const struct dram_chan *c, enum dram_cmd cmd,
                                       uint32_t unit) {
    const struct dram_rank *r = &c->rank[unit];
    if (r->pd) return DRAM_NEVER;
    uint64_t t = r->next_any, x;
    const struct dram_bus *bus;
    switch (cmd) {
    case DRAM_ACT:
        if (r->next_act > t) t = r->next_act;
        x = dram_act_window_ready(c, r);
        return x > t ? x : t;
    case DRAM_PRE:
        return t;
    case DRAM_RD:
    case DRAM_RDA:
        bus = &c->bus[dram_pc_of_unit(c, unit)];
        x = r->next_rd > bus->next_rd ? r->next_rd : bus->next_rd;
        return x > t ? x : t;
    case DRAM_WR:
    case DRAM_WRA:
        bus = &c->bus[dram_pc_of_unit(c, unit)];
        x = r->next_wr > bus->next_wr ? r->next_wr : bus->next_wr;
        return x > t ? x : t;
    default:
        return DRAM_NEVER;
    }
}
static inline uint64_t dram_bg_fence(const struct dram_chan *c, enum dram_cmd cmd, uint32_t unit,
                                     uint32_t bg) {
    const struct dram_bg *g = &c->bg[unit * (uint32_t)c->s->bankgroups + bg];
    switch (cmd) {
    case DRAM_ACT:
        return g->next_act;
    case DRAM_RD:
    case DRAM_RDA:
        return g->next_rd;
    case DRAM_WR:
    case DRAM_WRA:
        return g->next_wr;
    default:
        return 0;
    }
}
/* The part shared by every bank of bank group `bg` in rank unit `unit`: max of the two above. */
static inline uint64_t dram_group_ready(const struct dram_chan *c, enum dram_cmd cmd, uint32_t unit,
                                        uint32_t bg) {
    uint64_t t = dram_unit_ready(c, cmd, unit), g = dram_bg_fence(c, cmd, unit, bg);
    return g > t ? g : t;
}
static inline uint64_t dram_bank_fence(const struct dram_bank *b, enum dram_cmd cmd) {
    switch (cmd) {
    case DRAM_ACT:
        return b->next_act;
    case DRAM_PRE:
        return b->next_pre;
    case DRAM_RD:
    case DRAM_RDA:
        return b->next_rd;
    case DRAM_WR:
    case DRAM_WRA:
        return b->next_wr;
    default:
        return 0;
    }
}

/* Earliest cycle the command bus has a slot for `cmd` (row and column buses with HBM). */
static inline uint64_t dram_cmd_bus_ready(const struct dram_chan *c, enum dram_cmd cmd) {
    if (!c->s->dual_cmd_bus) return c->next_cmd;
    return dram_cmd_is_col(cmd) ? c->next_col_cmd : c->next_row_cmd;
}

/* Issues `cmd` at `now`; the caller must have checked dram_ready_at(...) <= now (asserted). */
void dram_issue(struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a, uint64_t now);
/* dram_issue() for a caller that has just asserted dram_ready_at(...) <= now itself (the memory
 * controller, whose message names the policy): the same check twice per command is measurable. */
void dram_issue_checked(struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a,
                        uint64_t now);
/* dram_issue_checked() for a caller that already knows the rank unit (dram_unit_of) and flat
 * bank (dram_bank_index) of `a`. */
void dram_issue_at(struct dram_chan *c, enum dram_cmd cmd, const struct dram_addr *a, uint32_t unit,
                   uint32_t bank, uint64_t now);

enum dram_bank_state dram_bank_state_at(const struct dram_chan *c, const struct dram_addr *a,
                                        uint64_t now);

/* Cycle at which a RD issued at t has delivered its last data beat, and a WR its last beat. */
static inline uint64_t dram_read_done(const struct dram_spec *s, uint64_t t) {
    return t + (uint64_t)(s->CL + s->nBL);
}
static inline uint64_t dram_write_done(const struct dram_spec *s, uint64_t t) {
    return t + (uint64_t)(s->CWL + s->nBL);
}
