/* Independent DRAM protocol checker: re-derives every timing and state rule of a command stream
 * from the numbers of struct dram_spec alone (JESD79-3/-4, JESD212, JESD235 rules; see checker.h).
 *
 * State is a handful of past commands per bank, per (rank, bank group), per rank unit (ch, pc,
 * rank), per data bus (ch, pc) and per channel command bus. A timing rule "A -> B >= n" is checked
 * against the latest A only: every rule here is a minimum distance, so an earlier A that the
 * latest A already follows in a legal stream can never be the binding one. */
#include "mem/dram/checker.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A past command, compact. `kind` is enum dram_cmd + 1, so 0 (calloc) means "none yet". */
struct ev {
    uint64_t cycle;
    uint32_t row, col;
    uint16_t ch;
    uint8_t kind, pc, rank, bg, bank;
};

struct bank {
    struct ev act;    /* last ACT; its row is the open row while `open` */
    struct ev rd, wr; /* last read / write to the bank since that ACT */
    struct ev pre;    /* last command that closed the bank: PRE, PREA, RDA or WRA */
    uint64_t pre_at;  /* cycle the precharge began: pre.cycle, or later for RDA/WRA */
    struct ev ref;    /* last per-bank refresh (REFPB) of this bank */
    bool open;
};

/* A rank unit (ch, pc, rank): the scope of tRRD, tFAW, tCCD, tWTR, refresh and power-down. */
struct unit {
    struct ev ref;           /* last REF */
    struct ev refpb;         /* last REFPB, any bank */
    struct ev pde;           /* PDEF/PDES that entered the current power-down; none when up */
    struct ev pdx;           /* last PDX */
    int64_t xp;              /* tXP or tXPDLL owed after pdx */
    bool slow;               /* pdx left a slow (DLL-off) power-down: xp is tXPDLL */
    struct ev rd, wr;        /* last read / write to any bank of the unit (rank switches) */
    uint32_t nopen;          /* open banks */
    uint32_t faw_n, faw_pos; /* ACTs held in the 4-entry ring (saturates) and next slot */
    uint32_t x32_n, x32_pos; /* same for the 32-entry ring */
};

/* A data bus (ch, pc): shared by the ranks of that pseudo-channel. */
struct bus {
    struct ev rd;     /* last read, any rank (tRTW) */
    uint32_t n, next; /* bursts held in this bus's ring and the next slot */
};

struct burst {
    struct ev c;    /* the column command */
    uint64_t start; /* first data cycle; the burst holds [start, start + nBL) */
};

/* A channel's command bus. */
struct chan {
    struct ev last;     /* last command of any kind (order, single command bus) */
    struct ev row, col; /* last row / column command (dual command bus) */
};

struct dram_checker {
    struct dram_spec s;
    uint32_t nbg, nbanks; /* bank groups and banks per rank unit */
    int64_t reach;        /* issue distance beyond which two bursts cannot overlap */
    uint32_t ring_mask;   /* burst ring size - 1 (a power of two) */
    uint64_t ncmd;
    struct chan *chan;
    struct unit *unit;
    struct bank *bank;
    struct ev *act_bg, *rd_bg, *wr_bg; /* per unit x bank group: last ACT / read / write */
    struct ev *faw, *x32;              /* per unit: rings of the last 4 / 32 ACTs */
    struct bus *bus;
    struct burst *burst; /* per bus: ring of recent bursts, in issue order */
};

typedef unsigned long long ull;
typedef long long ll;

static inline struct ev ev_of(const struct dram_cmd_rec *r) {
    return (struct ev){.cycle = r->cycle,
                       .row = r->row,
                       .col = r->col,
                       .ch = (uint16_t)r->ch,
                       .kind = (uint8_t)(r->cmd + 1),
                       .pc = (uint8_t)r->pc,
                       .rank = (uint8_t)r->rank,
                       .bg = (uint8_t)r->bg,
                       .bank = (uint8_t)r->bank};
}

static struct dram_cmd_rec rec_of(const struct ev *v) {
    return (struct dram_cmd_rec){.cycle = v->cycle,
                                 .cmd = (enum dram_cmd)(v->kind - 1),
                                 .ch = v->ch,
                                 .pc = v->pc,
                                 .rank = v->rank,
                                 .bg = v->bg,
                                 .bank = v->bank,
                                 .row = v->row,
                                 .col = v->col};
}

/* ---- messages (cold path) ---- */

static void describe(char *buf, size_t n, const struct dram_cmd_rec *r) {
    char name[16];
    if ((unsigned)r->cmd < DRAM_NCMD)
        snprintf(name, sizeof name, "%s", dram_cmd_names[r->cmd]);
    else
        snprintf(name, sizeof name, "cmd#%u", (unsigned)r->cmd);
    int w = snprintf(buf, n, "%s ch%u pc%u rank%u", name, r->ch, r->pc, r->rank);
    if (w < 0 || (size_t)w >= n) return;
    if (r->cmd == DRAM_ACT)
        snprintf(buf + w, n - (size_t)w, " bg%u bank%u row %u", r->bg, r->bank, r->row);
    else if (r->cmd == DRAM_PRE || r->cmd == DRAM_REFPB)
        snprintf(buf + w, n - (size_t)w, " bg%u bank%u", r->bg, r->bank);
    else if (dram_cmd_is_col(r->cmd))
        snprintf(buf + w, n - (size_t)w, " bg%u bank%u row %u col %u", r->bg, r->bank, r->row,
                 r->col);
}

static void describe_ev(char *buf, size_t n, const struct ev *v) {
    struct dram_cmd_rec r = rec_of(v);
    describe(buf, n, &r);
}

/* "rule: B at cycle t is d cycles after A at cycle t0 (needs n)" */
static int fail_gap(struct ws_err *e, const char *rule, const struct dram_cmd_rec *r,
                    const struct ev *p, int64_t needs) {
    char a[160], b[160];
    describe(a, sizeof a, r);
    describe_ev(b, sizeof b, p);
    return ws_fail(e,
                   "DRAM protocol violation: %s: %s at cycle %llu is %lld cycles after %s at "
                   "cycle %llu (needs %lld)",
                   rule, a, (ull)r->cycle, (ll)(r->cycle - p->cycle), b, (ull)p->cycle, (ll)needs);
}

/* "rule: B at cycle t <what>[ A at cycle t0]<suffix>" */
static int fail_state(struct ws_err *e, const char *rule, const struct dram_cmd_rec *r,
                      const struct ev *p, const char *suffix, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static int fail_state(struct ws_err *e, const char *rule, const struct dram_cmd_rec *r,
                      const struct ev *p, const char *suffix, const char *fmt, ...) {
    char a[160], b[200] = "", what[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    describe(a, sizeof a, r);
    if (p && p->kind) {
        char d[160];
        describe_ev(d, sizeof d, p);
        snprintf(b, sizeof b, " %s at cycle %llu", d, (ull)p->cycle);
    }
    return ws_fail(e, "DRAM protocol violation: %s: %s at cycle %llu %s%s%s", rule, a,
                   (ull)r->cycle, what, b, suffix);
}

/* Fails unless r comes at least `needs` cycles after p (nothing to check when p is none). */
#define GAP(rule, prev, needs)                                                                     \
    do {                                                                                           \
        const struct ev *p_ = (prev);                                                              \
        int64_t n_ = (needs);                                                                      \
        if (p_->kind && (int64_t)(r->cycle - p_->cycle) < n_) return fail_gap(e, rule, r, p_, n_); \
    } while (0)

/* ---- create / destroy ---- */

struct dram_checker *dram_checker_create(const struct dram_spec *s, struct ws_err *e) {
    /* struct ev packs the address into narrow fields; the config ranges are far inside these */
    if (s->channels < 1 || s->channels > 65535 || s->pseudo_channels < 1 ||
        s->pseudo_channels > 255 || s->ranks < 1 || s->ranks > 255 || s->bankgroups < 1 ||
        s->bankgroups > 255 || s->banks_per_group < 1 || s->banks_per_group > 256 ||
        s->bankgroups * s->banks_per_group > 65536 || s->rows < 1 || s->rows > UINT32_MAX ||
        s->columns < 1 || s->columns > UINT32_MAX || s->nBL < 1) {
        ws_fail(e, "DRAM checker: geometry of preset '%s' out of the supported range", s->preset);
        return NULL;
    }
    struct dram_checker *k = calloc(1, sizeof *k);
    if (!k) {
        ws_fail(e, "DRAM checker: out of memory");
        return NULL;
    }
    k->s = *s;
    k->nbg = (uint32_t)s->bankgroups;
    k->nbanks = (uint32_t)(s->bankgroups * s->banks_per_group);
    int64_t dl = s->CL > s->CWL ? s->CL - s->CWL : s->CWL - s->CL;
    k->reach = dl + s->nBL;
    /* at most one column command per cycle reaches a bus, so `reach` entries cover every burst
     * that can still overlap a new one */
    uint64_t cap = 1;
    while ((int64_t)cap < k->reach + 1) cap <<= 1;
    k->ring_mask = (uint32_t)(cap - 1);
    size_t nch = (size_t)s->channels, nbus = nch * (size_t)s->pseudo_channels;
    size_t nunit = nbus * (size_t)s->ranks;
    k->chan = calloc(nch, sizeof *k->chan);
    k->unit = calloc(nunit, sizeof *k->unit);
    k->bank = calloc(nunit * k->nbanks, sizeof *k->bank);
    k->act_bg = calloc(nunit * k->nbg, sizeof *k->act_bg);
    k->rd_bg = calloc(nunit * k->nbg, sizeof *k->rd_bg);
    k->wr_bg = calloc(nunit * k->nbg, sizeof *k->wr_bg);
    k->faw = calloc(nunit * 4, sizeof *k->faw);
    k->x32 = calloc(nunit * 32, sizeof *k->x32);
    k->bus = calloc(nbus, sizeof *k->bus);
    k->burst = calloc(nbus * cap, sizeof *k->burst);
    if (!k->chan || !k->unit || !k->bank || !k->act_bg || !k->rd_bg || !k->wr_bg || !k->faw ||
        !k->x32 || !k->bus || !k->burst) {
        dram_checker_destroy(k);
        ws_fail(e, "DRAM checker: out of memory");
        return NULL;
    }
    return k;
}

void dram_checker_destroy(struct dram_checker *k) {
    if (!k) return;
    free(k->chan);
    free(k->unit);
    free(k->bank);
    free(k->act_bg);
    free(k->rd_bg);
    free(k->wr_bg);
    free(k->faw);
    free(k->x32);
    free(k->bus);
    free(k->burst);
    free(k);
}

uint64_t dram_checker_ncommands(const struct dram_checker *k) {
    return k->ncmd;
}

/* ---- checks ---- */

/* The last command that refreshed bank b of unit u: the unit's REF or the bank's REFPB, whichever
 * came later (kind 0 when neither has happened). */
static const struct ev *last_refresh(const struct unit *u, const struct bank *b) {
    return b->ref.kind && (!u->ref.kind || b->ref.cycle > u->ref.cycle) ? &b->ref : &u->ref;
}

/* tREFI: r refreshes bank b; it may come at most 9 x tREFI after the bank's last refresh (JEDEC
 * lets a controller postpone up to 8 refreshes). */
static int check_refi(const struct dram_checker *k, const struct dram_cmd_rec *r,
                      const struct unit *u, const struct bank *b, struct ws_err *e) {
    const struct dram_spec *s = &k->s;
    if (s->REFI <= 0) return 0;
    const struct ev *p = last_refresh(u, b);
    const uint64_t from = p->kind ? p->cycle : 0;
    const int64_t most = 9 * s->REFI;
    if ((int64_t)(r->cycle - from) <= most) return 0;
    char suf[120];
    snprintf(suf, sizeof suf, " (at most 9 x tREFI = %lld)", (ll)most);
    if (p->kind)
        return fail_state(e, "tREFI", r, p, suf, "is %lld cycles after", (ll)(r->cycle - from));
    return fail_state(e, "tREFI", r, NULL, suf,
                      "is the bank's first refresh, %llu cycles after cycle 0", (ull)r->cycle);
}

static int check_addr(const struct dram_checker *k, const struct dram_cmd_rec *r,
                      struct ws_err *e) {
    const struct dram_spec *s = &k->s;
    if ((unsigned)r->cmd >= DRAM_NCMD)
        return fail_state(e, "command", r, NULL, "", "is not a DRAM command");
#define RANGE(field, key, lim)                                                                     \
    do {                                                                                           \
        if ((int64_t)r->field >= (lim))                                                            \
            return fail_state(e, "address", r, NULL, "",                                           \
                              "has " #field " %u out of range (dram." key " = %lld)", r->field,    \
                              (ll)(lim));                                                          \
    } while (0)
    RANGE(ch, "channels", s->channels);
    RANGE(pc, "pseudo_channels", s->pseudo_channels);
    RANGE(rank, "ranks", s->ranks);
    if (r->cmd == DRAM_ACT || r->cmd == DRAM_PRE || r->cmd == DRAM_REFPB ||
        dram_cmd_is_col(r->cmd)) {
        RANGE(bg, "bankgroups", s->bankgroups);
        RANGE(bank, "banks_per_group", s->banks_per_group);
    }
    if (r->cmd == DRAM_ACT || dram_cmd_is_col(r->cmd)) RANGE(row, "rows", s->rows);
    if (dram_cmd_is_col(r->cmd)) RANGE(col, "columns", s->columns);
#undef RANGE
    return 0;
}

/* Closing an open bank (PRE, or PREA for each open bank): tRAS, tRTP, write recovery. */
static int check_close(const struct dram_checker *k, const struct dram_cmd_rec *r,
                       const struct bank *b, struct ws_err *e) {
    const struct dram_spec *s = &k->s;
    GAP("tRAS", &b->act, s->RAS);
    GAP("tRTP", &b->rd, s->RTP);
    GAP("tWR", &b->wr, s->CWL + s->nBL + s->WR);
    return 0;
}

static void close_bank(struct unit *u, struct bank *b, const struct ev *v, uint64_t pre_at) {
    b->open = false;
    b->pre = *v;
    b->pre_at = pre_at;
    u->nopen--;
}

int dram_checker_observe(struct dram_checker *k, const struct dram_cmd_rec *r, struct ws_err *e) {
    const struct dram_spec *s = &k->s;
    k->ncmd++;
    if (check_addr(k, r, e)) return -1;

    const enum dram_cmd cmd = r->cmd;
    const uint64_t t = r->cycle;
    const uint32_t nrk = (uint32_t)s->ranks, nbg = k->nbg;
    const size_t busi = (size_t)r->ch * (size_t)s->pseudo_channels + r->pc;
    const size_t ui = busi * nrk + r->rank;
    const size_t bgi = ui * nbg + r->bg;
    struct chan *c = &k->chan[r->ch];
    struct unit *u = &k->unit[ui];
    struct bus *bus = &k->bus[busi];
    struct bank *b = &k->bank[ui * k->nbanks + r->bg * (uint32_t)s->banks_per_group + r->bank];
    const bool col = dram_cmd_is_col(cmd);

    /* command bus: order and occupancy */
    if (c->last.kind && t < c->last.cycle)
        return fail_state(e, "command order", r, &c->last,
                          " (commands must arrive in cycle order per channel)", "arrives after");
    if (!s->dual_cmd_bus) {
        if (c->last.kind && c->last.cycle == t)
            return fail_state(e, "command bus", r, &c->last, "",
                              "shares the single command bus of channel %u with", r->ch);
    } else {
        const struct ev *o = col ? &c->col : &c->row;
        if (o->kind && o->cycle == t)
            return fail_state(e, "command bus", r, o, "",
                              "shares the %s command bus of channel %u with",
                              col ? "column" : "row", r->ch);
    }

    /* power-down state and the exits owed after it, then the refresh cycle time */
    if (u->pde.kind) {
        if (cmd != DRAM_PDX)
            return fail_state(e, "power-down", r, &u->pde, "",
                              "targets a powered-down rank, which entered power-down with");
    } else if (cmd == DRAM_PDX) {
        return fail_state(e, "power-down", r, NULL, "", "exits power-down, but the rank is up");
    }
    GAP(u->slow ? "tXPDLL" : "tXP", &u->pdx, u->xp);
    GAP("tRFC", &u->ref, s->RFC);

    switch (cmd) {
    case DRAM_ACT:
        if (b->open)
            return fail_state(e, "bank open", r, &b->act, "",
                              "activates a bank that is already open, opened by");
        GAP("tRP", &b->pre, (int64_t)(b->pre_at - b->pre.cycle) + s->RP);
        GAP("tRC", &b->act, s->RC);
        GAP("tRFCpb", &b->ref, s->RFCpb);
        GAP("tRREFD", &u->refpb, s->RREFD);
        for (uint32_t g = 0; g < nbg; g++)
            GAP(g == r->bg ? "tRRD_L" : "tRRD_S", &k->act_bg[ui * nbg + g],
                g == r->bg ? s->RRD_L : s->RRD_S);
        /* when a ring is full, its next slot holds the oldest of the last 4 (32) ACTs */
        if (s->FAW > 0 && u->faw_n == 4) GAP("tFAW", &k->faw[ui * 4 + u->faw_pos], s->FAW);
        if (s->X32AW > 0 && u->x32_n == 32) GAP("tX32AW", &k->x32[ui * 32 + u->x32_pos], s->X32AW);
        break;
    case DRAM_PRE:
        if (b->open && check_close(k, r, b, e)) return -1;
        break; /* PRE to a closed bank is a legal no-op */
    case DRAM_PREA:
        for (uint32_t i = 0; i < k->nbanks; i++) {
            const struct bank *q = &k->bank[ui * k->nbanks + i];
            if (q->open && check_close(k, r, q, e)) return -1;
        }
        break;
    case DRAM_RD:
    case DRAM_RDA:
    case DRAM_WR:
    case DRAM_WRA: {
        const bool rd = dram_cmd_is_read(cmd);
        if (!b->open) {
            if (b->pre.kind)
                return fail_state(e, "bank closed", r, &b->pre, "",
                                  "targets a closed bank, last closed by");
            return fail_state(e, "bank closed", r, NULL, "",
                              "targets a bank that was never activated");
        }
        if (b->act.row != r->row)
            return fail_state(e, "row mismatch", r, &b->act, "",
                              "targets row %u, but the open row is %u, opened by", r->row,
                              b->act.row);
        GAP(rd ? "tRCDRD" : "tRCDWR", &b->act, rd ? s->RCDRD : s->RCDWR);
        const struct ev *same = rd ? k->rd_bg : k->wr_bg;
        for (uint32_t g = 0; g < nbg; g++)
            GAP(g == r->bg ? "tCCD_L" : "tCCD_S", &same[ui * nbg + g],
                g == r->bg ? s->CCD_L : s->CCD_S);
        if (rd)
            for (uint32_t g = 0; g < nbg; g++)
                GAP(g == r->bg ? "tWTR_L" : "tWTR_S", &k->wr_bg[ui * nbg + g],
                    s->CWL + s->nBL + (g == r->bg ? s->WTR_L : s->WTR_S));
        /* rank switches on the shared data bus */
        for (uint32_t rk = 0; rk < nrk; rk++) {
            if (rk == r->rank) continue;
            const struct unit *o = &k->unit[busi * nrk + rk];
            if (rd) {
                GAP("tRTRS", &o->rd, s->nBL + s->RTRS);
                GAP("tRTRS", &o->wr, s->CWL + s->nBL + s->RTRS - s->CL);
            } else {
                GAP("tRTRS", &o->wr, s->nBL + s->RTRS);
            }
        }
        if (!rd) GAP("tRTW", &bus->rd, s->RTW);
        /* direct data-bus occupancy, independent of the rules above */
        const uint64_t start = t + (uint64_t)(rd ? s->CL : s->CWL), nbl = (uint64_t)s->nBL;
        const struct burst *ring = &k->burst[busi * (k->ring_mask + 1)];
        for (uint32_t i = 0; i < bus->n; i++) {
            const struct burst *q = &ring[(bus->next - 1 - i) & k->ring_mask];
            if ((int64_t)(t - q->c.cycle) >= k->reach) break;
            if (q->start < start + nbl && start < q->start + nbl) {
                char suf[120];
                snprintf(suf, sizeof suf, " (data on cycles [%llu, %llu))", (ull)q->start,
                         (ull)(q->start + nbl));
                return fail_state(e, "data bus", r, &q->c, suf,
                                  "puts data on cycles [%llu, %llu) of bus ch%u pc%u, "
                                  "overlapping the data of",
                                  (ull)start, (ull)(start + nbl), r->ch, r->pc);
            }
        }
        break;
    }
    case DRAM_REF:
        if (u->nopen) {
            for (uint32_t i = 0; i < k->nbanks; i++) {
                const struct bank *q = &k->bank[ui * k->nbanks + i];
                if (q->open)
                    return fail_state(e, "bank open", r, &q->act, "",
                                      "needs all banks closed, but bank %u was opened by", i);
            }
        }
        for (uint32_t i = 0; i < k->nbanks; i++) {
            const struct bank *q = &k->bank[ui * k->nbanks + i];
            GAP("tRP", &q->pre, (int64_t)(q->pre_at - q->pre.cycle) + s->RP);
            GAP("tRFCpb", &q->ref, s->RFCpb);
            if (check_refi(k, r, u, q, e)) return -1;
        }
        break;
    case DRAM_REFPB:
        if (s->RFCpb <= 0)
            return fail_state(e, "per-bank refresh", r, NULL, "",
                              "is a per-bank refresh, which preset '%s' does not have (dram.RFCpb "
                              "= 0)",
                              s->preset);
        if (b->open)
            return fail_state(e, "bank open", r, &b->act, "",
                              "refreshes a bank that is open, opened by");
        GAP("tRP", &b->pre, (int64_t)(b->pre_at - b->pre.cycle) + s->RP);
        GAP("tRC", &b->act, s->RC);
        GAP("tRFCpb", &b->ref, s->RFCpb);
        GAP("tRREFD", &u->refpb, s->RREFD);
        if (check_refi(k, r, u, b, e)) return -1;
        break;
    case DRAM_PDEF:
        GAP("tRFCpb", &u->refpb, s->RFCpb); /* a bank still refreshing */
        break;
    case DRAM_PDES:
        GAP("tRFCpb", &u->refpb, s->RFCpb);
        if (u->nopen) {
            for (uint32_t i = 0; i < k->nbanks; i++) {
                const struct bank *q = &k->bank[ui * k->nbanks + i];
                if (q->open)
                    return fail_state(e, "bank open", r, &q->act, "",
                                      "needs all banks closed, but bank %u was opened by", i);
            }
        }
        break;
    case DRAM_PDX:
        GAP("tCKE", &u->pde, s->CKE);
        break;
    case DRAM_NCMD:
        break;
    }

    /* legal: apply */
    const struct ev v = ev_of(r);
    c->last = v;
    if (col)
        c->col = v;
    else
        c->row = v;
    switch (cmd) {
    case DRAM_ACT:
        b->open = true;
        b->act = v;
        memset(&b->rd, 0, sizeof b->rd);
        memset(&b->wr, 0, sizeof b->wr);
        u->nopen++;
        k->act_bg[bgi] = v;
        k->faw[ui * 4 + u->faw_pos] = v;
        u->faw_pos = (u->faw_pos + 1) & 3;
        if (u->faw_n < 4) u->faw_n++;
        k->x32[ui * 32 + u->x32_pos] = v;
        u->x32_pos = (u->x32_pos + 1) & 31;
        if (u->x32_n < 32) u->x32_n++;
        break;
    case DRAM_PRE:
        if (b->open) close_bank(u, b, &v, t);
        break;
    case DRAM_PREA:
        for (uint32_t i = 0; i < k->nbanks; i++) {
            struct bank *q = &k->bank[ui * k->nbanks + i];
            if (q->open) close_bank(u, q, &v, t);
        }
        break;
    case DRAM_RD:
    case DRAM_RDA:
    case DRAM_WR:
    case DRAM_WRA: {
        const bool rd = dram_cmd_is_read(cmd);
        if (rd) {
            b->rd = v;
            k->rd_bg[bgi] = v;
            u->rd = v;
            bus->rd = v;
        } else {
            b->wr = v;
            k->wr_bg[bgi] = v;
            u->wr = v;
        }
        struct burst *ring = &k->burst[busi * (k->ring_mask + 1)];
        ring[bus->next & k->ring_mask] = (struct burst){v, t + (uint64_t)(rd ? s->CL : s->CWL)};
        bus->next = (bus->next + 1) & k->ring_mask;
        if (bus->n <= k->ring_mask) bus->n++;
        if (cmd == DRAM_RDA || cmd == DRAM_WRA) {
            /* auto-precharge starts once both the column's own recovery and tRAS allow it */
            uint64_t at = t + (uint64_t)(rd ? s->RTP : s->CWL + s->nBL + s->WR);
            uint64_t ras = b->act.cycle + (uint64_t)s->RAS;
            close_bank(u, b, &v, at > ras ? at : ras);
        }
        break;
    }
    case DRAM_REF:
        u->ref = v;
        break;
    case DRAM_REFPB:
        b->ref = v;
        u->refpb = v;
        break;
    case DRAM_PDEF:
    case DRAM_PDES:
        u->pde = v;
        break;
    case DRAM_PDX:
        u->slow = u->pde.kind == DRAM_PDES + 1;
        u->xp = u->slow ? s->XPDLL : s->XP;
        u->pdx = v;
        memset(&u->pde, 0, sizeof u->pde);
        break;
    case DRAM_NCMD:
        break;
    }
    return 0;
}

int dram_checker_finish(struct dram_checker *k, uint64_t end_cycle, struct ws_err *e) {
    const struct dram_spec *s = &k->s;
    if (s->REFI <= 0) return 0;
    const int64_t most = 9 * s->REFI;
    const size_t nunit = (size_t)(s->channels * s->pseudo_channels * s->ranks);
    for (size_t bi = 0; bi < nunit * k->nbanks; bi++) {
        const size_t ui = bi / k->nbanks;
        const struct unit *u = &k->unit[ui];
        const struct ev *p = last_refresh(u, &k->bank[bi]);
        const uint64_t from = p->kind ? p->cycle : 0;
        if (end_cycle <= from || (int64_t)(end_cycle - from) <= most) continue;
        const unsigned rank = (unsigned)(ui % (size_t)s->ranks);
        const size_t busi = ui / (size_t)s->ranks;
        const unsigned pc = (unsigned)(busi % (size_t)s->pseudo_channels);
        const unsigned ch = (unsigned)(busi / (size_t)s->pseudo_channels);
        char since[200] = "cycle 0 (no refresh at all)";
        if (p->kind) {
            char d[160];
            describe_ev(d, sizeof d, p);
            snprintf(since, sizeof since, "%s at cycle %llu", d, (ull)p->cycle);
        }
        return ws_fail(e,
                       "DRAM protocol violation: tREFI: rank ch%u pc%u rank%u bank %u has had no "
                       "refresh for %lld cycles at end cycle %llu, since %s (at most 9 x tREFI = "
                       "%lld)",
                       ch, pc, rank, (unsigned)(bi % k->nbanks), (ll)(end_cycle - from),
                       (ull)end_cycle, since, (ll)most);
    }
    return 0;
}
