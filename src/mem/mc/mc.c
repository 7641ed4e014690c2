/* Memory controller of one channel (see mc.h): queues, drain, row policy, refresh, power-down;
 * the scheduling choice is delegated to the mc.policy plugin through a read-only view. */
#include "mem/mc/mc.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "mem/mc/frfcfs_core.h" /* FR-FCFS candidates computed inline (ci_fr) */
#include "mem/mc/policy.h"
#include "mem/mc/ready_set.h"
#include "mem/mc/warp_table.h"

static const char *const row_policy_names[] = {"open", "close", "timeout", NULL};

/* The protocol checker is on by default in debug (and sanitizer) builds, off in release builds
 * where speed matters; mc.check / --check switch it either way. */
#ifdef NDEBUG
#define MC_CHECK_DEFAULT "false"
#else
#define MC_CHECK_DEFAULT "true"
#endif
static const char *const pd_mode_names[] = {"off", "fast", "slow", NULL};
static const char *const ref_mode_names[] = {"auto", "all-bank", "per-bank", "usimm", NULL};

#define OFF(f) offsetof(struct mc_cfg, f)
const struct cfg_key mc_cfg_keys[] = {
    {"mc.policy", CFG_STRING, OFF(policy), "frfcfs", 0, 0, NULL, "",
     "scheduler (warpsim list policies)"},
    {"mc.rq_size", CFG_INT, OFF(rq_size), "64", 1, 4096, NULL, "requests", "read queue entries"},
    {"mc.wq_size", CFG_INT, OFF(wq_size), "64", 1, 4096, NULL, "requests", "write queue entries"},
    {"mc.wq_hi", CFG_INT, OFF(wq_hi), "48", 1, 4096, NULL, "requests",
     "write drain starts when the write queue holds this many"},
    {"mc.wq_lo", CFG_INT, OFF(wq_lo), "16", 0, 4096, NULL, "requests",
     "write drain stops when the write queue is down to this many"},
    {"mc.drain_when_no_reads", CFG_BOOL, OFF(drain_when_no_reads), "true", 0, 0, NULL, "",
     "also drain writes whenever no read is queued"},
    {"mc.row_policy", CFG_ENUM, OFF(row_policy), "open", 0, 0, row_policy_names, "",
     "open: keep rows open; close: auto-precharge when no queued request hits the row; timeout: "
     "keep rows open, and precharge a bank no queued request wants mc.row_timeout cycles after "
     "its last ACT or column command (after Ramulator's timeout policy, which also closes rows "
     "that queued requests want)"},
    {"mc.row_timeout", CFG_INT, OFF(row_timeout), "50", 1, 1000000, NULL, "tCK",
     "idle cycles before mc.row_policy = timeout closes a row"},
    {"mc.forward_raw", CFG_BOOL, OFF(forward_raw), "true", 0, 0, NULL, "",
     "serve a read from a queued write to the same burst"},
    {"mc.fwd_latency", CFG_INT, OFF(fwd_latency), "3", 0, 1000, NULL, "tCK",
     "latency of a read served from the write queue"},
    {"mc.refresh", CFG_BOOL, OFF(refresh), "true", 0, 0, NULL, "",
     "refresh every rank (tREFI; mc.refresh_mode says how)"},
    {"mc.refresh_mode", CFG_ENUM, OFF(ref_mode), "auto", 0, 0, ref_mode_names, "",
     "all-bank: REF every tREFI per rank; per-bank: REFPB to one bank after another every "
     "tREFI / banks, the rest of the rank working on (parts with dram.RFCpb > 0); auto: per-bank "
     "where the part has it; usimm: USIMM's forced refresh, 8 REFs back to back at the end of "
     "every 8 x tREFI window (less those a USIMM scheduler issued earlier in it), commands that "
     "would run past its start held back"},
    {"mc.powerdown", CFG_ENUM, OFF(pd_mode), "off", 0, 0, pd_mode_names, "",
     "power down idle ranks: fast (DLL on) or slow (DLL off, precharge first)"},
    {"mc.pd_idle", CFG_INT, OFF(pd_idle), "16", 1, 1000000, NULL, "tCK",
     "idle cycles before a rank powers down"},
    {"mc.check", CFG_BOOL, OFF(check), MC_CHECK_DEFAULT, 0, 0, NULL, "",
     "run the independent protocol checker on every command (default on in debug builds)"},
};
const unsigned mc_cfg_nkeys = CFG_COUNT(mc_cfg_keys);

bool mc_policy_reads_table(const struct mc_policy *p, const struct cfg_key *t) {
    return t && (p->keys == t || p->family_keys == t || (p->warp_table && t == warp_table_keys));
}

void mc_table_readers(const struct cfg_key *t, char *buf, size_t n) {
    buf[0] = '\0';
    for (unsigned j = 0; j < mc_npolicies; j++)
        if (mc_policy_reads_table(mc_policies[j], t))
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "",
                     mc_policies[j]->name);
}

/* The keys of every policy key table that `sel` does not read, noted with the policies that do,
 * so that setting one is reported as such rather than as an unknown key. */
static int note_other_policy_keys(struct cfg *c, const struct mc_policy *sel, struct ws_err *e) {
    for (unsigned i = 0; i <= mc_npolicies; i++) {
        const struct mc_policy *p = i < mc_npolicies ? mc_policies[i] : NULL;
        const struct cfg_key *tabs[3] = {p ? p->family_keys : NULL, p ? p->keys : NULL,
                                         p ? NULL : warp_table_keys};
        unsigned ns[3] = {p ? p->nfamily_keys : 0, p ? p->nkeys : 0, p ? 0 : warp_table_nkeys};
        for (int t = 0; t < 3; t++) {
            if (!tabs[t] || mc_policy_reads_table(sel, tabs[t])) continue;
            char readers[512], text[600];
            mc_table_readers(tabs[t], readers, sizeof readers);
            snprintf(text, sizeof text, "read with mc.policy = %s", readers);
            for (unsigned k = 0; k < ns[t]; k++)
                if (cfg_note_key(c, tabs[t][k].name, text, e) != 0) return -1;
        }
    }
    return 0;
}

int mc_cfg_configure(struct mc_cfg *m, struct cfg *c, struct ws_err *e) {
    memset(m, 0, sizeof *m);
    if (cfg_bind(c, "mc", mc_cfg_keys, mc_cfg_nkeys, m, e) != 0) return -1;
    if (m->row_policy != MC_TIMEOUT_PAGE &&
        cfg_refuse_set(c, "mc.row_timeout", "mc.row_policy", "read with mc.row_policy = timeout",
                       e) != 0)
        return -1;
    if (m->pd_mode == MC_PD_OFF && cfg_refuse_set(c, "mc.pd_idle", "mc.powerdown",
                                                  "read with mc.powerdown = fast or slow", e) != 0)
        return -1;
    char where[600];
    if (m->wq_hi > m->wq_size)
        return ws_fail(e, "%s: mc.wq_hi = %lld exceeds mc.wq_size = %lld",
                       cfg_origin(c, "mc.wq_hi", where, sizeof where), (long long)m->wq_hi,
                       (long long)m->wq_size);
    if (m->wq_lo >= m->wq_hi)
        return ws_fail(e, "%s: mc.wq_lo = %lld must be below mc.wq_hi = %lld",
                       cfg_origin(c, "mc.wq_lo", where, sizeof where), (long long)m->wq_lo,
                       (long long)m->wq_hi);
    if (!mc_policy_find(m->policy)) {
        char list[512] = "";
        for (unsigned i = 0; i < mc_npolicies; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, mc_policies[i]->name, sizeof list - strlen(list) - 1);
        }
        return ws_fail(e, "%s: mc.policy = '%s' is not a known policy (known: %s)",
                       cfg_origin(c, "mc.policy", where, sizeof where), m->policy, list);
    }
    return note_other_policy_keys(c, mc_policy_find(m->policy), e);
}

#define SD(f, kind, unit, doc)                                                                     \
    { #f, kind, offsetof(struct mc_stats, f), unit, doc }
const struct stat_desc mc_stat_desc[] = {
    SD(reads, STAT_COUNTER, "req", "read requests served by a DRAM column command"),
    SD(writes, STAT_COUNTER, "req", "write requests written to DRAM by a column command"),
    SD(reads_forwarded, STAT_COUNTER, "req", "reads served from a queued write to the same burst"),
    SD(writes_merged, STAT_COUNTER, "req", "writes merged into a queued write to the same burst"),
    SD(rd_hit, STAT_COUNTER, "req", "reads whose first command was the column read (row hit)"),
    SD(rd_miss, STAT_COUNTER, "req", "reads whose first command was ACT to a closed bank"),
    SD(rd_conflict, STAT_COUNTER, "req", "reads whose first command was PRE of another row"),
    SD(wr_hit, STAT_COUNTER, "req", "writes whose first command was the column write (row hit)"),
    SD(wr_miss, STAT_COUNTER, "req", "writes whose first command was ACT to a closed bank"),
    SD(wr_conflict, STAT_COUNTER, "req", "writes whose first command was PRE of another row"),
    SD(n_act, STAT_COUNTER, "cmd", "ACT commands"),
    SD(n_pre, STAT_COUNTER, "cmd", "PRE commands (explicit, single bank)"),
    SD(n_prea, STAT_COUNTER, "cmd", "PREA (precharge all) commands"),
    SD(n_rd, STAT_COUNTER, "cmd", "RD commands"),
    SD(n_wr, STAT_COUNTER, "cmd", "WR commands"),
    SD(n_rda, STAT_COUNTER, "cmd", "RDA (read with auto-precharge) commands"),
    SD(n_wra, STAT_COUNTER, "cmd", "WRA (write with auto-precharge) commands"),
    SD(n_ref, STAT_COUNTER, "cmd", "REF (all-bank refresh) commands"),
    SD(n_refpb, STAT_COUNTER, "cmd", "REFPB (per-bank refresh) commands"),
    SD(n_pde, STAT_COUNTER, "cmd", "power-down entries"),
    SD(n_pdx, STAT_COUNTER, "cmd", "power-down exits"),
    SD(n_pre_timeout, STAT_COUNTER, "cmd",
       "of n_pre, those mc.row_policy = timeout issued to close an unused row"),
    SD(drains, STAT_COUNTER, "episodes", "write-drain episodes (watermark or no pending reads)"),
    SD(cycles, STAT_COUNTER, "tCK", "DRAM cycles simulated"),
    SD(data_busy, STAT_COUNTER, "tCK",
       "cycles the data bus carried bursts (sum over pseudo-channels)"),
    SD(rq_occ_sum, STAT_COUNTER, "req*tCK", "read-queue length summed over cycles"),
    SD(wq_occ_sum, STAT_COUNTER, "req*tCK", "write-queue length summed over cycles"),
    SD(pd_cycles, STAT_COUNTER, "tCK", "rank-unit cycles spent in power-down"),
    SD(rd_lat, STAT_HIST, "tCK", "read latency: controller arrival to last data beat"),
    SD(rd_qlat, STAT_HIST, "tCK", "read queueing: controller arrival to its column command"),
    SD(wr_lat, STAT_HIST, "tCK", "write latency: controller arrival to last data beat written"),
};
const unsigned mc_stat_ndesc = CFG_COUNT(mc_stat_desc);

enum { NOBS = 4 };

struct bank_rdy {
    uint64_t epoch;
    uint64_t at[4]; /* ACT, PRE, RD, WR */
};

struct mc_view {
    struct mc *m;
};

struct mc {
    const struct dram_spec *s;
    struct mc_cfg cfg;
    uint32_t ch;
    struct dram_chan dram;
    const struct mc_policy *pol;
    void *pst;
    struct mc_view view;

    struct mc_req *pool, *free_list;
    struct mc_req *head[2], *tail[2];
    uint32_t len[2];
    uint32_t nbanks, nwords;
    struct mc_req **bhead[2], **btail[2];
    uint64_t *bmask[2];
    uint32_t *hits_bypassed; /* per bank, since its row opened: hits served past an older request */
    uint32_t *hitq[2];       /* per queue and bank: queued requests to the open row */
    struct bank_rdy *rdy;
    uint64_t epoch;
    uint64_t *unit_epoch; /* per rank unit: the epoch of its last timing change */

    uint32_t *bank_unit, *bank_bg; /* per flat bank: its rank unit and bank group */
    uint32_t *bank_gi;             /* per flat bank: its flat bank-group index (dram.bg) */

    /* Candidate index (policies with bank_cand, see policy.h): each bank's candidate in queue
     * ci_q. Its command can issue once two parts have passed: the bank's own and its bank
     * group's fences, kept per bank in the timing wheel ci_rs, and the rank unit's fences for
     * that kind of command, kept in ci_unit (4 per unit). Split so that the command of one bank,
     * which moves shared rank and bus fences, updates a few numbers instead of every bank.
     * Events mark banks dirty (ask the policy again) or stale (same candidate, fences moved)
     * and ci_sync() settles them before the next pick, so a cycle costs work only for the banks
     * something touched. */
    bool ci_on;
    bool ci_fr; /* the policy's bank_cand is FR-FCFS's with row-hit cap ci_fr_cap */
    uint32_t ci_fr_cap;
    bool ci_marked; /* some bank is dirty or stale */
    enum mc_q ci_q;
    struct mc_req **ci_cand; /* [nbanks] */
    uint64_t *ci_key;        /* [nbanks] the candidates' sort keys */
    uint8_t *ci_kind;        /* [nbanks] rdy_slot() of the candidate's next command */
    uint64_t *ci_unit;       /* [nunits][4] rank-unit part by rdy_slot(), DRAM_NEVER when blocked */
    uint64_t *ci_dirty, *ci_qdirty, *ci_stale;
    uint64_t *ci_kmask[4]; /* banks by ci_kind */
    uint64_t *ci_ok;       /* banks whose candidate can issue in this command slot */
    uint64_t *ci_view;     /* mcv_cand_ready()'s answer */
    uint64_t *ci_umask;    /* [nunits][nwords] banks of each rank unit */
    uint64_t *ci_gmask;    /* [nunits * bankgroups][nwords] banks of each bank group */
    struct ready_set ci_rs;

    uint32_t nunits;
    uint32_t npd;        /* rank units powered down */
    uint64_t maint_at;   /* maintenance has nothing to do before this cycle */
    uint32_t *unit_q;    /* queued requests per rank unit */
    uint64_t *unit_last; /* last cycle a unit had work or a command */
    uint64_t *ref_due;   /* next refresh deadline per unit (DRAM_NEVER when off) */
    bool *ref_pending;
    /* USIMM's refresh (mc.refresh_mode = usimm, seed 002 §5.1.11): every rank is unavailable
     * for 8 x tRFC in each window of 8 x tREFI, at its end. The policy may issue some of the
     * window's REFs early (k of them); from the issue deadline (the window's end - tRP -
     * (8 - k) tRFC) the rank takes PREA if a row is open, then the other 8 - k REFs, the first
     * tRP after the deadline, so the last ends with the window. Before it, a command is held
     * back once it would run past the deadline (USIMM's readiness rule): ACT from deadline -
     * tRAS, a read from - tRTP, a write from - (tCWL + burst + tWR), PRE from - tRP. ref_due is
     * then the unit's next such step; ref_block holds the rdy_slot() kinds held back. */
    bool refwin;
    uint64_t *win_end; /* per unit: the window's end (USIMM's refresh completion deadline) */
    uint8_t *ref_block;
    uint8_t *win_refs;  /* per unit, during the forced sequence: the window's REFs so far */
    uint8_t *win_early; /* per unit: REFs the policy issued in the window before the sequence */
    /* Per-bank refresh (mc.refresh_mode): each unit refreshes one bank every ref_step cycles
     * (ref_due is the next deadline), every bank once per round of tREFI, in any order (as
     * JEDEC's per-bank refresh allows): the due one is a bank of this round with no queued
     * request, closed if possible, else the next in turn. It is held: until its REFPB has issued
     * no ACT may open it and no column command may use its open row (row hits would push its
     * PRE back for as long as they came), so it closes (PRE) and refreshes while the others
     * work. */
    bool refpb;
    uint64_t ref_step;
    uint64_t *pb_done; /* per unit: banks (within the unit) refreshed this round */
    uint32_t *pb_next; /* per unit: where the search in turn starts */
    int32_t *pb_bank;  /* per unit: the flat bank waiting for its REFPB, -1 for none */

    bool draining, wm_drain;
    bool drain_dirty; /* queue lengths or flush changed since update_drain() last ran */
    bool flush;       /* mc_flush(): no more input */
    uint64_t seq;
    uint64_t now, wake, wake_req, min_seen;
    uint64_t occ_t; /* cycle up to which occupancy is accounted */
    struct mc_stats st;

    /* burst address -> queued write, for forwarding and merging without scanning the queue:
     * open addressing with linear probing and backward-shift deletion */
    struct mc_req **wset;
    uint32_t wset_mask;

    mc_done_fn done;
    void *done_ctx;
    struct dram_power *pw; /* the power model, called directly: it sees every command */
    uint32_t pw_unit0;     /* its flat index of this channel's rank unit 0 */
    mc_cmd_fn obs[NOBS];
    void *obs_ctx[NOBS];
    unsigned nobs;
    uint64_t burst_mask;
};

/* Bank b waits for its REFPB: nothing but its PRE may issue to it. */
static inline bool pb_held(const struct mc *m, uint32_t b) {
    return m->pb_bank[m->bank_unit[b]] == (int32_t)b;
}
/* Whether a refresh holds back commands of rdy_slot() kind k to rank unit u. */
static inline bool ref_blocks(const struct mc *m, uint32_t u, unsigned k) {
    return m->ref_pending[u] || (m->ref_block[u] >> k & 1);
}
/* USIMM's refresh: the issue deadline of unit u's window. Each REF the scheduler issued early in
 * the window moves it tRFC later (USIMM's end - tRP - (8 - issued) tRFC); with all 8 issued it
 * is end - tRP. */
static inline uint64_t win_deadline(const struct mc *m, uint32_t u) {
    uint64_t left = m->win_early[u] < 8 ? 8u - m->win_early[u] : 0;
    return m->win_end[u] - (uint64_t)m->s->RP - left * (uint64_t)m->s->RFC;
}
/* How long a command of rdy_slot() kind k keeps its bank from the PREA that starts the refresh
 * (USIMM's issuable test is now + this <= deadline). */
static uint64_t win_lead(const struct dram_spec *s, unsigned k) {
    switch (k) {
    case 0:
        return (uint64_t)s->RAS;
    case 1:
        return (uint64_t)s->RP;
    case 2:
        return (uint64_t)s->RTP;
    default:
        return (uint64_t)(s->CWL + s->nBL + s->WR);
    }
}
/* Sets the kinds held back at `now` in unit u's window and returns its next step after `now`
 * (the deadline once all are held back). */
static uint64_t win_next(struct mc *m, uint32_t u, uint64_t now) {
    uint64_t dl = win_deadline(m, u), next = dl;
    uint8_t blk = 0;
    for (unsigned k = 0; k < 4; k++) {
        uint64_t from = dl - win_lead(m->s, k) + 1;
        if (now >= from)
            blk |= (uint8_t)(1u << k);
        else if (from < next)
            next = from;
    }
    m->ref_block[u] = blk;
    return next;
}
/* Rank unit u has a refresh under way (all-bank or per-bank). */
static inline bool refreshing(const struct mc *m, uint32_t u) {
    return m->ref_pending[u] || m->pb_bank[u] >= 0;
}

/* ---- view ---- */
uint64_t mcv_now(const struct mc_view *v) {
    return v->m->now;
}
const struct dram_spec *mcv_spec(const struct mc_view *v) {
    return v->m->s;
}
bool mcv_draining(const struct mc_view *v) {
    return v->m->draining;
}
uint32_t mcv_qlen(const struct mc_view *v, enum mc_q q) {
    return v->m->len[q];
}
struct mc_req *mcv_head(const struct mc_view *v, enum mc_q q) {
    return v->m->head[q];
}
struct mc_req *mcv_bank_head(const struct mc_view *v, enum mc_q q, uint32_t bank) {
    return v->m->bhead[q][bank];
}
const uint64_t *mcv_bank_mask(const struct mc_view *v, enum mc_q q) {
    return v->m->bmask[q];
}
uint32_t mcv_nbanks(const struct mc_view *v) {
    return v->m->nbanks;
}
int32_t mcv_open_row(const struct mc_view *v, uint32_t bank) {
    return v->m->dram.bank[bank].open_row;
}
uint64_t mcv_last_col(const struct mc_view *v, uint32_t bank) {
    return v->m->dram.bank[bank].last_col_at;
}
uint32_t mcv_bank_hits(const struct mc_view *v, enum mc_q q, uint32_t bank) {
    return v->m->hitq[q][bank];
}
uint32_t mcv_row_hits_bypassed(const struct mc_view *v, uint32_t bank) {
    return v->m->hits_bypassed[bank];
}

bool mcv_is_hit(const struct mc_view *v, const struct mc_req *r) {
    return v->m->dram.bank[r->bank].open_row == (int32_t)r->da.row;
}

enum dram_cmd mcv_next_cmd(const struct mc_view *v, const struct mc_req *r) {
    int32_t open = v->m->dram.bank[r->bank].open_row;
    if (open == (int32_t)r->da.row) return r->is_write ? DRAM_WR : DRAM_RD;
    return open < 0 ? DRAM_ACT : DRAM_PRE;
}

/* A command's kind: 0 ACT, 1 PRE (and PREA), 2 read, 3 write, 4 anything else (what a refresh
 * hold-back, ref_block, never holds back before the refresh itself). */
static unsigned cmd_slot(enum dram_cmd c) {
    switch (c) {
    case DRAM_ACT:
        return 0;
    case DRAM_PRE:
    case DRAM_PREA:
        return 1;
    case DRAM_RD:
    case DRAM_RDA:
        return 2;
    case DRAM_WR:
    case DRAM_WRA:
        return 3;
    default:
        return 4;
    }
}

/* The readiness slot of a request's command: its kind, the rest counted with writes. */
static unsigned rdy_slot(enum dram_cmd c) {
    unsigned k = cmd_slot(c);
    return k < 4 ? k : 3;
}

/* Readiness = max(bank fence, bank-group/rank/bus part, command bus). The shared part is cached
 * per bank group and command until a command moves that rank unit's fences (the only events that
 * can), and the result is clamped to `now` on use. Every ready time a policy looks at that lies in
 * the future feeds min_seen: when the policy issues nothing, the controller sleeps until then,
 * because nothing the policy considered can change before. */
uint64_t mcv_ready_at(const struct mc_view *v, const struct mc_req *r) {
    struct mc *m = v->m;
    enum dram_cmd c = mcv_next_cmd(v, r);
    unsigned k = rdy_slot(c);
    if (ref_blocks(m, r->unit, k)) return DRAM_NEVER;
    if (c != DRAM_PRE && pb_held(m, r->bank)) return DRAM_NEVER; /* waits for its REFPB */
    struct bank_rdy *g = &m->rdy[r->unit * (uint32_t)m->s->bankgroups + r->da.bg];
    if (g->epoch != m->unit_epoch[r->unit]) {
        g->epoch = m->unit_epoch[r->unit];
        g->at[0] = g->at[1] = g->at[2] = g->at[3] = 0; /* 0 = not computed */
    }
    if (!g->at[k]) g->at[k] = dram_group_ready(&m->dram, c, r->unit, r->da.bg) + 1;
    uint64_t t = g->at[k] - 1, bank = dram_bank_fence(&m->dram.bank[r->bank], c),
             bus = dram_cmd_bus_ready(&m->dram, c);
    if (bank > t) t = bank;
    if (bus > t) t = bus;
#ifndef NDEBUG
    WS_ASSERT(t == dram_ready_at(&m->dram, c, &r->da, 0), "mc ch%u: cached readiness of %s wrong",
              m->ch, dram_cmd_names[c]);
#endif
    if (t <= m->now) return m->now;
    if (t < m->min_seen) m->min_seen = t;
    return t;
}

uint64_t mcv_cmd_ready_at(const struct mc_view *v, enum dram_cmd cmd, const struct dram_addr *a) {
    struct mc *m = v->m;
    uint32_t u = dram_unit_of(&m->dram, a);
    if (ref_blocks(m, u, cmd_slot(cmd))) return DRAM_NEVER;
    if ((cmd == DRAM_ACT || dram_cmd_is_col(cmd)) && pb_held(m, dram_bank_index(&m->dram, a)))
        return DRAM_NEVER;
    return dram_ready_at(&m->dram, cmd, a, m->now);
}

uint32_t mcv_nunits(const struct mc_view *v) {
    return v->m->nunits;
}
uint32_t mcv_unit_banks(const struct mc_view *v) {
    return v->m->dram.nbanks_unit;
}
uint32_t mcv_unit_queued(const struct mc_view *v, uint32_t unit) {
    return v->m->unit_q[unit];
}
unsigned mcv_powered_down(const struct mc_view *v, uint32_t unit) {
    return (unsigned)v->m->dram.rank[unit].pd;
}
bool mcv_refreshing(const struct mc_view *v, uint32_t unit) {
    return refreshing(v->m, unit);
}
uint64_t mcv_ref_deadline(const struct mc_view *v, uint32_t unit) {
    return v->m->refwin ? win_deadline(v->m, unit) : DRAM_NEVER;
}
uint64_t mcv_ref_window_end(const struct mc_view *v, uint32_t unit) {
    return v->m->refwin ? v->m->win_end[unit] : DRAM_NEVER;
}
uint32_t mcv_ref_issued(const struct mc_view *v, uint32_t unit) {
    const struct mc *m = v->m;
    if (!m->refwin) return 0;
    return m->ref_pending[unit] ? m->win_refs[unit] : m->win_early[unit];
}

void mcv_bank_addr(const struct mc_view *v, uint32_t bank, struct dram_addr *out) {
    const struct dram_spec *s = v->m->s;
    uint32_t per_unit = v->m->dram.nbanks_unit;
    uint32_t unit = bank / per_unit, in = bank % per_unit;
    memset(out, 0, sizeof *out);
    out->ch = v->m->ch;
    out->pc = unit / (uint32_t)s->ranks;
    out->rank = unit % (uint32_t)s->ranks;
    out->bg = in / (uint32_t)s->banks_per_group;
    out->bank = in % (uint32_t)s->banks_per_group;
    int32_t open = v->m->dram.bank[bank].open_row;
    out->row = open < 0 ? 0 : (uint32_t)open;
}

/* ---- candidate index ---- */
const uint64_t *mcv_cand_ready(const struct mc_view *v, unsigned cls) {
    struct mc *m = v->m;
    for (uint32_t w = 0; w < m->nwords; w++) m->ci_view[w] = m->ci_ok[w] & m->ci_rs.clsm[cls][w];
    return m->ci_view;
}
struct mc_req *mcv_cand(const struct mc_view *v, uint32_t bank) {
    return v->m->ci_cand[bank];
}
uint64_t mcv_cand_key(const struct mc_view *v, uint32_t bank) {
    return v->m->ci_key[bank];
}
/* The hot bitmap loops take the word count as a parameter and are called with a constant 1 for
 * channels of up to 64 banks (every preset), so that copy has no loop over words. */
static inline uint32_t cand_min(const struct mc *m, unsigned cls, uint32_t nw) {
    uint32_t best = UINT32_MAX;
    uint64_t lo = UINT64_MAX;
    for (uint32_t w = 0; w < nw; w++)
        for (uint64_t bits = m->ci_ok[w] & m->ci_rs.clsm[cls][w]; bits; bits &= bits - 1) {
            uint32_t b = w * 64 + (uint32_t)__builtin_ctzll(bits);
            if (m->ci_key[b] < lo) lo = m->ci_key[b], best = b;
        }
    return best;
}
uint32_t mcv_cand_min(const struct mc_view *v, unsigned cls) {
    const struct mc *m = v->m;
    return m->nwords == 1 ? cand_min(m, cls, 1) : cand_min(m, cls, m->nwords);
}

_Static_assert((int)MC_NCLS == (int)RS_NCLS, "one ready-set class per candidate class");

/* The bank's part of its candidate's ready cycle (slot k): bank and bank-group fences. The
 * command bus is left out too: it is free again one cycle after any command, so it only matters
 * within a cycle (ci_filter). Read by slot directly: this runs for every bank a command touches. */
static inline uint64_t ci_bank_part(const struct mc *m, uint32_t b, unsigned k) {
    const struct dram_bank *bk = &m->dram.bank[b];
    const struct dram_bg *g = &m->dram.bg[m->bank_gi[b]];
    uint64_t f, gf;
    if (k != 1 && pb_held(m, b)) return DRAM_NEVER; /* waits for its REFPB: only PRE may go */
    switch (k) {
    case 0:
        f = bk->next_act, gf = g->next_act;
        break;
    case 1:
        return bk->next_pre; /* no bank-group fence for PRE */
    case 2:
        f = bk->next_rd, gf = g->next_rd;
        break;
    default:
        f = bk->next_wr, gf = g->next_wr;
        break;
    }
    return f > gf ? f : gf;
}

/* The rank-unit parts of unit u for the slots in the bit set `kinds` (a refresh pending blocks
 * everything). Inline: the callers pass constant sets, so only those slots are computed. */
static inline void ci_unit_refresh(struct mc *m, uint32_t u, unsigned kinds) {
    uint64_t *p = m->ci_unit + 4 * (size_t)u;
    const unsigned blocked = m->ref_pending[u] ? 0xfu : m->ref_block[u];
    if (kinds & 1) p[0] = blocked & 1 ? DRAM_NEVER : dram_unit_ready(&m->dram, DRAM_ACT, u);
    if (kinds & 2) p[1] = blocked & 2 ? DRAM_NEVER : dram_unit_ready(&m->dram, DRAM_PRE, u);
    if (kinds & 4) p[2] = blocked & 4 ? DRAM_NEVER : dram_unit_ready(&m->dram, DRAM_RD, u);
    if (kinds & 8) p[3] = blocked & 8 ? DRAM_NEVER : dram_unit_ready(&m->dram, DRAM_WR, u);
}

/* Asks the policy for bank b's candidate again. `moved`: a command went to the bank (its state
 * and fences may have changed); otherwise only its queue did, and an unchanged answer needs no
 * more work. */
static void ci_recand(struct mc *m, uint32_t b, bool moved) {
    uint32_t w = b >> 6;
    uint64_t bit = 1ULL << (b & 63);
    unsigned cls = 0;
    uint64_t key = 0;
    struct mc_req *c = m->ci_fr ? frfcfs_cand(&m->view, m->ci_q, b, m->ci_fr_cap, &cls, &key)
                                : m->pol->bank_cand(m->pst, &m->view, m->ci_q, b, &cls, &key);
    struct mc_req *old = m->ci_cand[b];
    if (!c) {
        if (old) m->ci_kmask[m->ci_kind[b]][w] &= ~bit;
        m->ci_cand[b] = NULL;
        rs_del(&m->ci_rs, b);
        return;
    }
    WS_ASSERT(cls < MC_NCLS && c->bank == b, "mc ch%u policy %s: bad candidate for bank %u", m->ch,
              m->pol->name, b);
    unsigned k = rdy_slot(mcv_next_cmd(&m->view, c));
    if (!moved && c == old && k == m->ci_kind[b] && key == m->ci_key[b] && cls == m->ci_rs.cls[b])
        return;
    if (old) m->ci_kmask[m->ci_kind[b]][w] &= ~bit;
    m->ci_cand[b] = c;
    m->ci_kind[b] = (uint8_t)k;
    m->ci_key[b] = key;
    m->ci_kmask[k][w] |= bit;
    rs_put(&m->ci_rs, b, ci_bank_part(m, b, k), cls);
}

/* Marks in `dst` the banks of mask `sel`; with kinds != 0 only those whose candidate's command
 * slot is in the bit set `kinds`. */
static inline void mark_w(struct mc *m, uint64_t *dst, const uint64_t *sel, unsigned kinds,
                          uint32_t nw) {
    for (uint32_t w = 0; w < nw; w++) {
        uint64_t k = ~0ULL;
        if (kinds) {
            k = 0;
            for (unsigned i = 0; i < 4; i++)
                if (kinds >> i & 1) k |= m->ci_kmask[i][w];
        }
        dst[w] |= sel[w] & k;
    }
}
static inline void ci_mark(struct mc *m, uint64_t *dst, const uint64_t *sel, unsigned kinds) {
    m->ci_marked = true;
    if (m->nwords == 1)
        mark_w(m, dst, sel, kinds, 1);
    else
        mark_w(m, dst, sel, kinds, m->nwords);
}

static inline void ci_mark_bank(struct mc *m, uint32_t b) {
    m->ci_dirty[b >> 6] |= 1ULL << (b & 63);
    m->ci_marked = true;
}
static inline void ci_mark_queue(struct mc *m, uint32_t b) {
    m->ci_qdirty[b >> 6] |= 1ULL << (b & 63);
    m->ci_marked = true;
}

/* What a command can have changed (dram.c): its own bank's state, fences and hit count (the
 * candidate may change); ACT also the ACT fences of its bank group and rank unit (tRRD, tFAW);
 * a column command the column fences of its bank group and of every rank on its data bus; PRE
 * nothing shared. Anything else (PREA, REF, power-down) redoes the whole rank unit. */
static void ci_note_cmd(struct mc *m, enum dram_cmd cmd, const struct dram_addr *a, uint32_t unit,
                        uint32_t bank) {
    const uint64_t *group =
        m->ci_gmask + (size_t)(unit * (uint32_t)m->s->bankgroups + a->bg) * m->nwords;
    ci_mark_bank(m, bank);
    switch (cmd) {
    case DRAM_ACT:
        ci_mark(m, m->ci_stale, group, 1u << 0);
        ci_unit_refresh(m, unit, 1u << 0);
        break;
    case DRAM_PRE:
        break;
    case DRAM_REFPB:
        ci_unit_refresh(m, unit, 1u << 0); /* tRREFD: the unit's ACT fence */
        break;
    case DRAM_RD:
    case DRAM_RDA:
    case DRAM_WR:
    case DRAM_WRA: {
        /* a write's bank-group fence also delays reads (tWTR_L) */
        ci_mark(m, m->ci_stale, group, dram_cmd_is_read(cmd) ? 1u << 2 : 1u << 2 | 1u << 3);
        uint32_t ranks = (uint32_t)m->s->ranks;
        for (uint32_t u = a->pc * ranks; u < (a->pc + 1) * ranks; u++)
            ci_unit_refresh(m, u, 1u << 2 | 1u << 3);
        break;
    }
    default:
        ci_mark(m, m->ci_dirty, m->ci_umask + (size_t)unit * m->nwords, 0);
        ci_unit_refresh(m, unit, 0xf);
        break;
    }
}

/* Whether bank b's candidate can issue at m->now, command bus aside. */
static bool ci_ready(const struct mc *m, uint32_t b) {
    return rs_is_ready(&m->ci_rs, b) && m->ci_unit[4 * m->bank_unit[b] + m->ci_kind[b]] <= m->now;
}

#ifndef NDEBUG
/* Debug builds: the index must equal what the policy and the timing model say from scratch. */
static void ci_verify(struct mc *m) {
    for (uint32_t b = 0; b < m->nbanks; b++) {
        unsigned cls = 0;
        uint64_t key = 0;
        struct mc_req *c = m->pol->bank_cand(m->pst, &m->view, m->ci_q, b, &cls, &key);
        WS_ASSERT(c == m->ci_cand[b] && (!c || key == m->ci_key[b]),
                  "mc ch%u: cached candidate of bank %u wrong", m->ch, b);
        if (!c) {
            WS_ASSERT(!rs_has(&m->ci_rs, b), "mc ch%u: bank %u listed without candidate", m->ch, b);
            continue;
        }
        enum dram_cmd cmd = mcv_next_cmd(&m->view, c);
        unsigned k = rdy_slot(cmd);
        WS_ASSERT(rs_has(&m->ci_rs, b) && m->ci_rs.cls[b] == cls && m->ci_kind[b] == k,
                  "mc ch%u: bank %u candidate class or command wrong", m->ch, b);
        uint64_t at = m->ci_rs.at[b], unit = m->ci_unit[4 * c->unit + k];
        uint64_t bus = dram_cmd_bus_ready(&m->dram, cmd);
        uint64_t want = ref_blocks(m, c->unit, k) || (cmd != DRAM_PRE && pb_held(m, b))
                            ? DRAM_NEVER
                            : dram_ready_at(&m->dram, cmd, &c->da, 0);
        uint64_t got = at > unit ? at : unit;
        if (got != DRAM_NEVER && bus > got) got = bus;
        WS_ASSERT(got == want, "mc ch%u: cached readiness of bank %u (%s) %llu, should be %llu",
                  m->ch, b, dram_cmd_names[cmd], (unsigned long long)got, (unsigned long long)want);
        WS_ASSERT(rs_is_ready(&m->ci_rs, b) == (at <= m->now), "mc ch%u: bank %u ready bit wrong",
                  m->ch, b);
    }
}
#endif

/* Settles the index at m->now: the current queue, the marked banks, the pending ones now due. */
static void ci_sync(struct mc *m) {
    enum mc_q q = m->draining ? MC_WRITEQ : MC_READQ;
    if (q != m->ci_q) {
        m->ci_q = q;
        for (uint32_t u = 0; u < m->nunits; u++)
            ci_mark(m, m->ci_dirty, m->ci_umask + (size_t)u * m->nwords, 0);
    }
    rs_advance(&m->ci_rs, m->now);
    if (m->ci_marked) {
        m->ci_marked = false; /* bank_cand and the ready set mark nothing */
        for (uint32_t w = 0; w < m->nwords; w++) {
            uint64_t d = m->ci_dirty[w], qd = m->ci_qdirty[w] & ~d, st = m->ci_stale[w] & ~d;
            m->ci_dirty[w] = m->ci_qdirty[w] = m->ci_stale[w] = 0;
            for (; d; d &= d - 1) ci_recand(m, w * 64 + (uint32_t)__builtin_ctzll(d), true);
            for (; qd; qd &= qd - 1) ci_recand(m, w * 64 + (uint32_t)__builtin_ctzll(qd), false);
            for (; st; st &= st - 1) {
                uint32_t b = w * 64 + (uint32_t)__builtin_ctzll(st);
                if (m->ci_cand[b])
                    rs_put(&m->ci_rs, b, ci_bank_part(m, b, m->ci_kind[b]), m->ci_rs.cls[b]);
            }
        }
    }
#ifndef NDEBUG
    ci_verify(m);
#endif
}

/* Finds the banks whose candidate can issue now (ci_ok), on a command bus that is free this
 * cycle (with a dual command bus, the second slot of a cycle has only the other bus). False when
 * there are none. */
static inline bool filter_w(struct mc *m, uint32_t nw) {
    const uint64_t now = m->now;
    /* slots whose command bus is free: ACT and PRE on the row bus, RD and WR on the column bus */
    const uint64_t row = dram_cmd_bus_ready(&m->dram, DRAM_ACT) <= now ? ~0ULL : 0;
    const uint64_t col = dram_cmd_bus_ready(&m->dram, DRAM_RD) <= now ? ~0ULL : 0;
    uint64_t any = 0;
    for (uint32_t w = 0; w < nw; w++) {
        const uint64_t k0 = m->ci_kmask[0][w] & row, k1 = m->ci_kmask[1][w] & row;
        const uint64_t k2 = m->ci_kmask[2][w] & col, k3 = m->ci_kmask[3][w] & col;
        const uint64_t *p = m->ci_unit, *um = m->ci_umask + w;
        uint64_t ok = 0;
        if (!(m->ci_rs.ready[w] & (k0 | k1 | k2 | k3))) {
            m->ci_ok[w] = 0; /* most second slots: nothing ready on the free bus */
            continue;
        }
        for (uint32_t u = 0; u < m->nunits; u++, p += 4, um += nw) {
            /* the slots this unit's shared fences allow now */
            uint64_t allowed = (p[0] <= now ? k0 : 0) | (p[1] <= now ? k1 : 0) |
                               (p[2] <= now ? k2 : 0) | (p[3] <= now ? k3 : 0);
            ok |= allowed & *um;
        }
        ok &= m->ci_rs.ready[w];
        m->ci_ok[w] = ok;
        any |= ok;
    }
    return any != 0;
}
static bool ci_filter(struct mc *m) {
    return m->nwords == 1 ? filter_w(m, 1) : filter_w(m, m->nwords);
}

/* The exact earliest cycle a candidate can issue (command bus aside), DRAM_NEVER for none: the
 * min over banks of max(bank part, rank-unit part). Banks of one rank unit and command slot share
 * the unit part u, so their group contributes max(u, earliest bank part): a group whose u is no
 * better than the best so far is skipped whole, and its scan stops at a bank part <= u. */
static inline uint64_t next_w(const struct mc *m, uint32_t nw) {
    uint64_t lo = DRAM_NEVER;
    if (nw == 1 && ws_popcount64(m->ci_rs.in[0]) <= 12) {
        /* few candidates: a plain scan is cheaper than the groups */
        for (uint64_t bits = m->ci_rs.in[0]; bits; bits &= bits - 1) {
            uint32_t b = (uint32_t)__builtin_ctzll(bits);
            uint64_t t = m->ci_rs.at[b], u = m->ci_unit[4 * m->bank_unit[b] + m->ci_kind[b]];
            if (u > t) t = u;
            if (t < lo) lo = t;
        }
        return lo;
    }
    for (uint32_t u = 0; u < m->nunits; u++)
        for (unsigned k = 0; k < 4; k++) {
            const uint64_t ug = m->ci_unit[4 * (size_t)u + k];
            if (ug >= lo) continue;
            for (uint32_t w = 0; w < nw; w++) {
                uint64_t bits =
                    m->ci_rs.in[w] & m->ci_kmask[k][w] & m->ci_umask[(size_t)u * nw + w];
                for (; bits; bits &= bits - 1) {
                    uint64_t t = m->ci_rs.at[w * 64 + (uint32_t)__builtin_ctzll(bits)];
                    if (t <= ug) {
                        lo = ug; /* nothing in this group can be earlier */
                        goto next_group;
                    }
                    if (t < lo) lo = t;
                }
            }
        next_group:;
        }
    return lo;
}
static uint64_t ci_next(const struct mc *m) {
    return m->nwords == 1 ? next_w(m, 1) : next_w(m, m->nwords);
}

/* ---- lifecycle ---- */
struct mc *mc_create(const struct dram_spec *spec, const struct mc_cfg *mcfg, uint32_t channel,
                     struct mc_shared *sh, struct cfg *c, struct ws_err *e) {
    struct warp_table *wt = sh->wt;
    struct mc *m = calloc(1, sizeof *m);
    if (!m) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    m->s = spec;
    m->cfg = *mcfg;
    /* update_drain() runs only when its inputs change, which needs lo < hi (mc_cfg_configure
     * checks it for configured values) */
    WS_ASSERT(mcfg->wq_lo < mcfg->wq_hi, "mc: wq_lo %lld must be below wq_hi %lld",
              (long long)mcfg->wq_lo, (long long)mcfg->wq_hi);
    m->ch = channel;
    m->view.m = m;
    if (dram_chan_init(&m->dram, spec, channel, e) != 0) {
        free(m);
        return NULL;
    }
    m->nbanks = m->dram.nunits * m->dram.nbanks_unit;
    m->nwords = (m->nbanks + 63) / 64;
    m->nunits = m->dram.nunits;
    size_t nslots = (size_t)(mcfg->rq_size + mcfg->wq_size);
    m->pool = calloc(nslots, sizeof *m->pool);
    for (int q = 0; q < 2; q++) {
        m->bhead[q] = calloc(m->nbanks, sizeof(struct mc_req *));
        m->btail[q] = calloc(m->nbanks, sizeof(struct mc_req *));
        m->bmask[q] = calloc(m->nwords, sizeof(uint64_t));
        m->hitq[q] = calloc(m->nbanks, sizeof(uint32_t));
    }
    m->hits_bypassed = calloc(m->nbanks, sizeof *m->hits_bypassed);
    m->rdy = calloc((size_t)m->nunits * (size_t)spec->bankgroups, sizeof *m->rdy);
    m->unit_q = calloc(m->nunits, sizeof *m->unit_q);
    m->unit_last = calloc(m->nunits, sizeof *m->unit_last);
    m->ref_due = calloc(m->nunits, sizeof *m->ref_due);
    m->ref_pending = calloc(m->nunits, sizeof *m->ref_pending);
    m->win_end = calloc(m->nunits, sizeof *m->win_end);
    m->ref_block = calloc(m->nunits, sizeof *m->ref_block);
    m->win_refs = calloc(m->nunits, sizeof *m->win_refs);
    m->win_early = calloc(m->nunits, sizeof *m->win_early);
    m->pb_next = calloc(m->nunits, sizeof *m->pb_next);
    m->pb_done = calloc(m->nunits, sizeof *m->pb_done);
    m->pb_bank = calloc(m->nunits, sizeof *m->pb_bank);
    m->unit_epoch = calloc(m->nunits, sizeof *m->unit_epoch);
    m->bank_unit = calloc(m->nbanks, sizeof *m->bank_unit);
    m->bank_bg = calloc(m->nbanks, sizeof *m->bank_bg);
    m->bank_gi = calloc(m->nbanks, sizeof *m->bank_gi);
    if (!m->pool || !m->bhead[1] || !m->hitq[0] || !m->hitq[1] || !m->btail[1] || !m->bmask[1] ||
        !m->hits_bypassed || !m->rdy || !m->unit_q || !m->unit_last || !m->ref_due ||
        !m->ref_pending || !m->unit_epoch || !m->bank_unit || !m->bank_bg || !m->bank_gi ||
        !m->pb_next || !m->pb_done || !m->pb_bank || !m->win_end || !m->ref_block || !m->win_refs ||
        !m->win_early) {
        mc_destroy(m);
        ws_fail(e, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < nslots; i++) {
        m->pool[i].qnext = m->free_list;
        m->free_list = &m->pool[i];
    }
    for (uint32_t b = 0; b < m->nbanks; b++) {
        m->bank_unit[b] = b / m->dram.nbanks_unit;
        m->bank_bg[b] = b % m->dram.nbanks_unit / (uint32_t)spec->banks_per_group;
        m->bank_gi[b] = m->bank_unit[b] * (uint32_t)spec->bankgroups + m->bank_bg[b];
    }
    if (mcfg->ref_mode == MC_REF_PER_BANK && spec->RFCpb <= 0) {
        ws_fail(e,
                "mc.refresh_mode = per-bank, but DRAM preset '%s' has no per-bank refresh "
                "(dram.RFCpb = 0)",
                spec->preset);
        mc_destroy(m);
        return NULL;
    }
    m->refpb = mcfg->refresh && spec->REFI > 0 && spec->RFCpb > 0 &&
               (mcfg->ref_mode == MC_REF_AUTO || mcfg->ref_mode == MC_REF_PER_BANK);
    m->refwin = mcfg->refresh && spec->REFI > 0 && mcfg->ref_mode == MC_REF_USIMM;
    if (m->refwin) {
        uint64_t lead = 0, busy = (uint64_t)(spec->RP + 8 * spec->RFC);
        for (unsigned k = 0; k < 4; k++)
            if (win_lead(spec, k) > lead) lead = win_lead(spec, k);
        if (8 * (uint64_t)spec->REFI <= busy + lead) {
            ws_fail(e,
                    "mc.refresh_mode = usimm: DRAM preset '%s': 8 x tREFI = %lld cycles leave no "
                    "room for the refresh (tRP + 8 x tRFC = %llu) and the longest hold-back (%llu)",
                    spec->preset, (long long)(8 * spec->REFI), (unsigned long long)busy,
                    (unsigned long long)lead);
            mc_destroy(m);
            return NULL;
        }
    }
    /* per-bank: every bank once per tREFI, so one REFPB per unit every tREFI / banks */
    uint64_t step = (uint64_t)spec->REFI;
    if (m->refpb && step / m->dram.nbanks_unit > 0) step /= m->dram.nbanks_unit;
    m->ref_step = step;
    /* Stagger refreshes over the interval across ranks and channels, so the system never
     * refreshes everything at once. The pseudo-channels of one channel refresh together: they
     * share the controller's queues, so refreshing them apart would stall the queue twice. */
    uint64_t total = (uint64_t)spec->channels * (uint64_t)spec->ranks;
    for (uint32_t u = 0; u < m->nunits; u++) {
        uint64_t k = (uint64_t)channel * (uint64_t)spec->ranks + u % (uint32_t)spec->ranks;
        m->ref_due[u] = (mcfg->refresh && spec->REFI > 0) ? step + k * step / total : DRAM_NEVER;
        m->pb_bank[u] = -1;
        if (m->refwin) {
            /* USIMM starts every rank's first window at cycle 0, none staggered */
            m->win_end[u] = 8 * (uint64_t)spec->REFI;
            m->ref_due[u] = win_next(m, u, 0);
        }
    }
    m->burst_mask = ~(uint64_t)(dram_access_bytes(spec) - 1);
    uint32_t cap = 16;
    while (cap < 4 * (uint32_t)mcfg->wq_size) cap *= 2;
    m->wset = calloc(cap, sizeof *m->wset);
    m->wset_mask = cap - 1;
    if (!m->wset) {
        ws_fail(e, "out of memory");
        mc_destroy(m);
        return NULL;
    }
    m->epoch = 1;
    for (uint32_t u = 0; u < m->nunits; u++) m->unit_epoch[u] = 1;
    m->pol = mc_policy_find(mcfg->policy);
    if (!m->pol) {
        ws_fail(e, "mc.policy = '%s' is not a known policy", mcfg->policy);
        mc_destroy(m);
        return NULL;
    }
    if (m->pol->warp_table && !wt) {
        ws_fail(e, "mc.policy = '%s' needs the shared warp table", m->pol->name);
        mc_destroy(m);
        return NULL;
    }
    struct mc_policy_env env = {spec, channel, m->nbanks, &m->cfg, wt, sh->up, &sh->up_used};
    m->pst = m->pol->create(&env, c, e);
    if (!m->pst) {
        mc_destroy(m);
        return NULL;
    }
    WS_ASSERT(!m->pol->pick_class_min || m->pol->bank_cand,
              "mc.policy %s: pick_class_min needs bank_cand", m->pol->name);
    if (m->pol->bank_cand) {
        m->ci_on = true;
        if (m->pol->frfcfs_cap) {
            m->ci_fr = true;
            m->ci_fr_cap = m->pol->frfcfs_cap(m->pst);
        }
        m->ci_cand = calloc(m->nbanks, sizeof *m->ci_cand);
        m->ci_key = calloc(m->nbanks, sizeof *m->ci_key);
        m->ci_unit = calloc(4 * (size_t)m->nunits, sizeof *m->ci_unit);
        m->ci_kind = calloc(m->nbanks, sizeof *m->ci_kind);
        /* dirty, stale, 4 kind masks, ok, view, qdirty, unit and bank-group masks in one block */
        size_t ngroups = (size_t)m->nunits * (size_t)spec->bankgroups;
        m->ci_dirty = calloc((size_t)m->nwords * (9 + m->nunits + ngroups), sizeof(uint64_t));
        if (!m->ci_cand || !m->ci_key || !m->ci_unit || !m->ci_kind || !m->ci_dirty ||
            rs_init(&m->ci_rs, m->nbanks, e) != 0) {
            ws_fail(e, "out of memory");
            mc_destroy(m);
            return NULL;
        }
        m->ci_stale = m->ci_dirty + m->nwords;
        for (unsigned k = 0; k < 4; k++) m->ci_kmask[k] = m->ci_dirty + (2 + k) * (size_t)m->nwords;
        m->ci_ok = m->ci_dirty + 6 * (size_t)m->nwords;
        m->ci_view = m->ci_dirty + 7 * (size_t)m->nwords;
        m->ci_qdirty = m->ci_dirty + 8 * (size_t)m->nwords;
        m->ci_umask = m->ci_dirty + 9 * (size_t)m->nwords;
        m->ci_gmask = m->ci_umask + (size_t)m->nunits * m->nwords;
        for (uint32_t b = 0; b < m->nbanks; b++) {
            uint64_t bit = 1ULL << (b & 63);
            m->ci_umask[(size_t)m->bank_unit[b] * m->nwords + b / 64] |= bit;
            size_t g = (size_t)m->bank_unit[b] * (size_t)spec->bankgroups + m->bank_bg[b];
            m->ci_gmask[g * m->nwords + b / 64] |= bit;
        }
        for (uint32_t u = 0; u < m->nunits; u++) ci_unit_refresh(m, u, 0xf);
    }
    return m;
}

void mc_destroy(struct mc *m) {
    if (!m) return;
    if (m->pst && m->pol) m->pol->destroy(m->pst);
    dram_chan_free(&m->dram);
    free(m->pool);
    for (int q = 0; q < 2; q++) {
        free(m->bhead[q]);
        free(m->btail[q]);
        free(m->bmask[q]);
        free(m->hitq[q]);
    }
    free(m->hits_bypassed);
    free(m->rdy);
    free(m->unit_q);
    free(m->unit_last);
    free(m->ref_due);
    free(m->ref_pending);
    free(m->win_end);
    free(m->ref_block);
    free(m->win_refs);
    free(m->win_early);
    free(m->pb_next);
    free(m->pb_done);
    free(m->pb_bank);
    free(m->unit_epoch);
    free(m->bank_unit);
    free(m->bank_bg);
    free(m->bank_gi);
    free(m->ci_cand);
    free(m->ci_key);
    free(m->ci_unit);
    free(m->ci_kind);
    free(m->ci_dirty);
    rs_free(&m->ci_rs);
    free(m->wset);
    free(m);
}

void mc_set_done_cb(struct mc *m, mc_done_fn fn, void *ctx) {
    m->done = fn;
    m->done_ctx = ctx;
}

void mc_set_power(struct mc *m, struct dram_power *p) {
    m->pw = p;
    m->pw_unit0 = m->ch * m->nunits;
}

void mc_add_cmd_observer(struct mc *m, mc_cmd_fn fn, void *ctx) {
    WS_ASSERT(m->nobs < NOBS, "too many command observers");
    m->obs[m->nobs] = fn;
    m->obs_ctx[m->nobs++] = ctx;
}

bool mc_can_accept(const struct mc *m, bool is_write) {
    return is_write ? m->len[MC_WRITEQ] < (uint32_t)m->cfg.wq_size
                    : m->len[MC_READQ] < (uint32_t)m->cfg.rq_size;
}

uint32_t mc_queue_len(const struct mc *m, enum mc_q q) {
    return m->len[q];
}
const struct mc_stats *mc_stats(const struct mc *m) {
    return &m->st;
}
const struct dram_chan *mc_dram(const struct mc *m) {
    return &m->dram;
}
const char *mc_policy_name(const struct mc *m) {
    return m->pol->name;
}

const void *mc_policy_stats(const struct mc *m) {
    return m->pol->stats ? m->pol->stats(m->pst) : NULL;
}

bool mc_idle(const struct mc *m) {
    return m->len[0] == 0 && m->len[1] == 0;
}

void mc_flush(struct mc *m, uint64_t now) {
    if (m->flush) return;
    m->flush = true;
    m->drain_dirty = true;
    /* only a change when drain_when_no_reads is off: wake to start the drain */
    if (!m->cfg.drain_when_no_reads && m->len[MC_WRITEQ] && m->wake > now) m->wake = now;
}

static void account(struct mc *m, uint64_t now) {
    if (now <= m->occ_t) return;
    uint64_t dt = now - m->occ_t;
    m->st.rq_occ_sum += dt * m->len[MC_READQ];
    m->st.wq_occ_sum += dt * m->len[MC_WRITEQ];
    m->st.pd_cycles += dt * m->npd;
    m->occ_t = now;
}

static uint32_t wset_slot(const struct mc *m, uint64_t burst) {
    uint64_t h = (burst >> 5) * 0x9e3779b97f4a7c15ULL;
    return (uint32_t)(h >> 40) & m->wset_mask;
}

static struct mc_req *wset_get(const struct mc *m, uint64_t burst) {
    for (uint32_t i = wset_slot(m, burst);; i = (i + 1) & m->wset_mask) {
        struct mc_req *r = m->wset[i];
        if (!r) return NULL;
        if ((r->r.addr & m->burst_mask) == burst) return r;
    }
}

static void wset_put(struct mc *m, struct mc_req *x) {
    uint32_t i = wset_slot(m, x->r.addr & m->burst_mask);
    while (m->wset[i]) i = (i + 1) & m->wset_mask;
    m->wset[i] = x;
}

static void wset_del(struct mc *m, const struct mc_req *x) {
    uint32_t i = wset_slot(m, x->r.addr & m->burst_mask);
    while (m->wset[i] != x) i = (i + 1) & m->wset_mask;
    /* backward-shift: move later entries of the probe run into the hole */
    for (uint32_t j = (i + 1) & m->wset_mask; m->wset[j]; j = (j + 1) & m->wset_mask) {
        uint32_t home = wset_slot(m, m->wset[j]->r.addr & m->burst_mask);
        if (((j - home) & m->wset_mask) >= ((j - i) & m->wset_mask)) {
            m->wset[i] = m->wset[j];
            i = j;
        }
    }
    m->wset[i] = NULL;
}

const struct mc_req *mc_find(const struct mc *m, enum mc_q q, uint64_t burst_addr) {
    if (q == MC_WRITEQ) return wset_get(m, burst_addr);
    for (const struct mc_req *r = m->head[q]; r; r = r->qnext)
        if ((r->r.addr & m->burst_mask) == burst_addr) return r;
    return NULL;
}

static void complete_now(struct mc *m, struct mc_req *tmp, uint64_t done_at) {
    tmp->r.ts[MEM_TS_DATA] = done_at;
    if (m->done) m->done(m->done_ctx, tmp);
}

void mc_enqueue(struct mc *m, const struct mem_req *r, const struct dram_addr *da, uint64_t now) {
    account(m, now);
    enum mc_q q = r->is_write ? MC_WRITEQ : MC_READQ;
    uint64_t burst = r->addr & m->burst_mask;
    if (m->cfg.forward_raw && m->len[MC_WRITEQ]) {
        const struct mc_req *w = wset_get(m, burst);
        if (w) {
            struct mc_req tmp = {.r = *r, .da = *da, .arrive = now, .is_write = r->is_write};
            tmp.r.ts[MEM_TS_MC_ENQ] = now;
            if (r->is_write) {
                m->st.writes_merged++;
                complete_now(m, &tmp, now);
            } else {
                m->st.reads_forwarded++;
                complete_now(m, &tmp, now + (uint64_t)m->cfg.fwd_latency);
            }
            return;
        }
    }
    WS_ASSERT(mc_can_accept(m, r->is_write), "mc ch%u: enqueue into a full %s queue", m->ch,
              r->is_write ? "write" : "read");
    struct mc_req *x = m->free_list;
    m->free_list = x->qnext;
    /* every field set once (no memset: this is per request) */
    x->r = *r;
    x->r.ts[MEM_TS_MC_ENQ] = now;
    x->da = *da;
    x->qnext = x->bnext = NULL;
    memset(x->scratch, 0, sizeof x->scratch);
    x->bank = dram_bank_index(&m->dram, da);
    x->unit = dram_unit_of(&m->dram, da);
    x->seq = m->seq++;
    x->arrive = now;
    x->first_cmd = DRAM_NCMD;
    x->is_write = r->is_write;
    /* queue list */
    x->qprev = m->tail[q];
    if (m->tail[q])
        m->tail[q]->qnext = x;
    else
        m->head[q] = x;
    m->tail[q] = x;
    m->len[q]++;
    m->drain_dirty = true;
    /* bank list */
    uint32_t b = x->bank;
    x->bprev = m->btail[q][b];
    if (m->btail[q][b])
        m->btail[q][b]->bnext = x;
    else
        m->bhead[q][b] = x;
    m->btail[q][b] = x;
    m->bmask[q][b >> 6] |= 1ULL << (b & 63);
    if (m->dram.bank[b].open_row == (int32_t)da->row) m->hitq[q][b]++;
    m->unit_q[x->unit]++;
    m->unit_last[x->unit] = now;
    if (m->dram.rank[x->unit].pd) m->maint_at = 0; /* maintenance wakes the rank */
    if (x->is_write) wset_put(m, x);
    if (m->ci_on && q == m->ci_q) ci_mark_queue(m, b);
    if (m->pol->on_enqueue) m->pol->on_enqueue(m->pst, &m->view, x);
    if (m->wake > now) m->wake = now;
}

static void unlink_req(struct mc *m, struct mc_req *x) {
    enum mc_q q = x->is_write ? MC_WRITEQ : MC_READQ;
    if (x->qprev)
        x->qprev->qnext = x->qnext;
    else
        m->head[q] = x->qnext;
    if (x->qnext)
        x->qnext->qprev = x->qprev;
    else
        m->tail[q] = x->qprev;
    m->len[q]--;
    m->drain_dirty = true;
    uint32_t b = x->bank;
    if (x->bprev)
        x->bprev->bnext = x->bnext;
    else
        m->bhead[q][b] = x->bnext;
    if (x->bnext)
        x->bnext->bprev = x->bprev;
    else
        m->btail[q][b] = x->bprev;
    if (!m->bhead[q][b]) m->bmask[q][b >> 6] &= ~(1ULL << (b & 63));
    if (m->dram.bank[b].open_row == (int32_t)x->da.row) m->hitq[q][b]--;
    m->unit_q[x->unit]--;
    if (x->is_write) wset_del(m, x);
    if (m->ci_on && q == m->ci_q) ci_mark_queue(m, b);
    x->qnext = m->free_list;
    m->free_list = x;
}

static bool other_hit_pending(const struct mc *m, const struct mc_req *x) {
    for (int q = 0; q < 2; q++)
        for (const struct mc_req *o = m->bhead[q][x->bank]; o; o = o->bnext)
            if (o != x && o->da.row == x->da.row) return true;
    return false;
}

/* Keeps hitq (queued requests to each bank's open row) exact: recounted when a row opens,
 * cleared when it closes, adjusted on enqueue and dequeue. */
static void clear_hits(struct mc *m, uint32_t bank) {
    m->hitq[0][bank] = m->hitq[1][bank] = 0;
}

static void track_hits(struct mc *m, enum dram_cmd cmd, const struct dram_addr *a, uint32_t bank) {
    if (cmd == DRAM_ACT) {
        for (int q = 0; q < 2; q++) {
            uint32_t n = 0;
            for (const struct mc_req *r = m->bhead[q][bank]; r; r = r->bnext)
                n += r->da.row == a->row;
            m->hitq[q][bank] = n;
        }
    } else if (cmd == DRAM_PRE || cmd == DRAM_RDA || cmd == DRAM_WRA) {
        clear_hits(m, bank);
    } else if (cmd == DRAM_PREA) {
        uint32_t first = dram_unit_of(&m->dram, a) * m->dram.nbanks_unit;
        for (uint32_t b = first; b < first + m->dram.nbanks_unit; b++) clear_hits(m, b);
    }
}

static void ref_early(struct mc *m, uint32_t u);

/* Who made a choice for issue(): pick(), ci_pick_min() (ready now by construction), the
 * controller's own refresh and power management, or the row timeout's PRE. */
enum { FROM_POLICY, FROM_INDEX, FROM_MAINT, FROM_TIMEOUT };

static int issue(struct mc *m, const struct mc_choice *ch, int from, struct ws_err *e) {
    uint64_t now = m->now;
    enum dram_cmd cmd = ch->cmd;
    struct mc_req *x = ch->req;
    const struct dram_addr *a = x ? &x->da : &ch->addr;
    if (x && m->cfg.row_policy == MC_CLOSE_PAGE && (cmd == DRAM_RD || cmd == DRAM_WR) &&
        !other_hit_pending(m, x))
        cmd = cmd == DRAM_RD ? DRAM_RDA : DRAM_WRA;
    /* A ready candidate of the index needs no second opinion in release builds: debug builds
     * verify the index against the timing model every cycle, and check every command here. */
    bool known = from == FROM_INDEX ||
                 (x && m->ci_on && m->ci_cand[x->bank] == x && ci_ready(m, x->bank) &&
                  m->ci_kind[x->bank] == rdy_slot(cmd) && dram_cmd_bus_ready(&m->dram, cmd) <= now);
#ifndef NDEBUG
    known = false;
#endif
    if (!known) {
        uint64_t ready = dram_ready_at(&m->dram, cmd, a, now);
        WS_ASSERT(ready <= now, "mc ch%u policy %s chose %s at %llu, not issuable before %llu",
                  m->ch, m->pol->name, dram_cmd_names[cmd], (unsigned long long)now,
                  (unsigned long long)ready);
    }
    if (x && !known) {
        enum dram_cmd want = mcv_next_cmd(&m->view, x);
        bool ok = want == cmd || (want == DRAM_RD && cmd == DRAM_RDA) ||
                  (want == DRAM_WR && cmd == DRAM_WRA);
        WS_ASSERT(ok, "mc ch%u policy %s chose %s for a request that needs %s", m->ch, m->pol->name,
                  dram_cmd_names[cmd], dram_cmd_names[want]);
    }
    /* a queued request carries its flat bank and rank unit: no decoding per command */
    uint32_t bank = x ? x->bank : dram_bank_index(&m->dram, a);
    uint32_t unit = x ? x->unit : dram_unit_of(&m->dram, a);
    int32_t open_before = m->dram.bank[bank].open_row;
    dram_issue_at(&m->dram, cmd, a, unit, bank, now);
    if (cmd == DRAM_REF && from != FROM_MAINT) {
        WS_ASSERT(m->refwin && !m->ref_pending[unit],
                  "mc ch%u policy %s chose REF outside USIMM's refresh window rules "
                  "(mc.refresh_mode = usimm, no forced refresh under way)",
                  m->ch, m->pol->name);
        ref_early(m, unit);
    }
    /* A command moves the fences of its own rank unit; a column command also those of the other
     * ranks on its data bus. Command-bus slots are applied at use (see mcv_ready_at). */
    m->unit_epoch[unit] = ++m->epoch;
    if (dram_cmd_is_col(cmd) && m->s->ranks > 1)
        for (uint32_t k = 0; k < (uint32_t)m->s->ranks; k++)
            m->unit_epoch[a->pc * (uint32_t)m->s->ranks + k] = m->epoch;
    track_hits(m, cmd, a, bank);
    if (m->ci_on) ci_note_cmd(m, cmd, a, unit, bank);
    /* the timeout's PRE is not work: an idle rank's power-down counts from its last request */
    if (from == FROM_TIMEOUT)
        m->st.n_pre_timeout++;
    else
        m->unit_last[unit] = now;
    switch (cmd) {
    case DRAM_ACT:
        m->st.n_act++, m->hits_bypassed[bank] = 0;
        break;
    case DRAM_PRE:
        m->st.n_pre++;
        break;
    case DRAM_PREA:
        m->st.n_prea++;
        break;
    case DRAM_RD:
        m->st.n_rd++;
        break;
    case DRAM_WR:
        m->st.n_wr++;
        break;
    case DRAM_RDA:
        m->st.n_rda++;
        break;
    case DRAM_WRA:
        m->st.n_wra++;
        break;
    case DRAM_REF:
        m->st.n_ref++;
        break;
    case DRAM_REFPB:
        m->st.n_refpb++;
        break;
    case DRAM_PDEF:
    case DRAM_PDES:
        m->st.n_pde++, m->npd++;
        m->maint_at = 0; /* a policy's power-down: wake-ups are maintenance's */
        break;
    case DRAM_PDX:
        m->st.n_pdx++, m->npd--;
        m->maint_at = 0;
        break;
    case DRAM_NCMD:
        break;
    }
    if (m->pw) dram_power_cmd(m->pw, m->pw_unit0 + unit, bank % m->dram.nbanks_unit, cmd, now);
    if (m->nobs) {
        struct dram_cmd_rec rec = {now, cmd, m->ch, a->pc, a->rank, a->bg, a->bank, a->row, a->col};
        if (cmd == DRAM_PRE || cmd == DRAM_PREA)
            rec.row = open_before < 0 ? 0 : (uint32_t)open_before;
        for (unsigned i = 0; i < m->nobs; i++)
            if (m->obs[i](m->obs_ctx[i], &rec, e) != 0) return -1;
    }
    if (m->pol->on_issue) {
        struct mc_choice done = *ch;
        done.cmd = cmd;
        m->pol->on_issue(m->pst, &m->view, &done);
    }
    if (!x) return 0;
    if (x->first_cmd == DRAM_NCMD) {
        x->first_cmd = (uint8_t)cmd;
        x->r.ts[MEM_TS_DRAM_CMD] = now;
    }
    if (!dram_cmd_is_col(cmd)) return 0;
    /* column command: the request is served */
    x->r.ts[MEM_TS_COL] = now;
    bool hit = dram_cmd_is_col((enum dram_cmd)x->first_cmd);
    /* a hit with an older request of its queue still waiting in the bank went past it (under
     * FR-FCFS, which serves the oldest hit, that older request is a miss) */
    if (hit && m->bhead[x->is_write ? MC_WRITEQ : MC_READQ][bank] != x) m->hits_bypassed[bank]++;
    bool conflict = x->first_cmd == DRAM_PRE;
    if (x->is_write) {
        uint64_t done = dram_write_done(m->s, now);
        m->st.writes++;
        hit ? m->st.wr_hit++ : conflict ? m->st.wr_conflict++ : m->st.wr_miss++;
        ws_hist_add(&m->st.wr_lat, done - x->arrive);
        x->r.ts[MEM_TS_DATA] = done;
    } else {
        uint64_t done = dram_read_done(m->s, now);
        m->st.reads++;
        hit ? m->st.rd_hit++ : conflict ? m->st.rd_conflict++ : m->st.rd_miss++;
        ws_hist_add(&m->st.rd_lat, done - x->arrive);
        ws_hist_add(&m->st.rd_qlat, now - x->arrive);
        x->r.ts[MEM_TS_DATA] = done;
    }
    if (m->pol->on_complete) m->pol->on_complete(m->pst, &m->view, x);
    if (m->done) m->done(m->done_ctx, x);
    unlink_req(m, x);
    return 0;
}

/* The bank (within unit u) that refreshes next: of the banks this round has not refreshed, the
 * first from pb_next on that has no queued request and is closed, else the first without queued
 * requests, else the first. */
static uint32_t pb_choose(const struct mc *m, uint32_t u) {
    const uint32_t nb = m->dram.nbanks_unit, first = u * nb;
    uint32_t idle = UINT32_MAX, any = UINT32_MAX;
    for (uint32_t j = 0; j < nb; j++) {
        uint32_t i = (m->pb_next[u] + j) % nb, b = first + i;
        if (m->pb_done[u] >> i & 1) continue;
        if (any == UINT32_MAX) any = i;
        if (m->bhead[0][b] || m->bhead[1][b]) continue;
        if (m->dram.bank[b].open_row < 0) return i;
        if (idle == UINT32_MAX) idle = i;
    }
    return idle != UINT32_MAX ? idle : any;
}

/* An all-bank refresh of unit u is due (ref_due reached; USIMM's window: its next step). Out of
 * line, like ref_issuing(): rare, and kept from growing the per-cycle path. */
static __attribute__((noinline)) void ref_due_now(struct mc *m, uint32_t u) {
    if (m->refwin) {
        if (m->win_early[u] >= 8 && m->now >= m->win_end[u]) {
            /* the scheduler issued all 8 early: the window ends without a forced refresh */
            m->win_end[u] += 8 * (uint64_t)m->s->REFI;
            m->win_early[u] = 0;
        }
        m->ref_due[u] = win_next(m, u, m->now);
        if (m->now >= win_deadline(m, u)) {
            if (m->win_early[u] >= 8) {
                m->ref_due[u] = m->win_end[u]; /* held back until the window ends, as USIMM */
            } else {
                m->ref_pending[u] = true;
                m->win_refs[u] = m->win_early[u];
            }
        }
    } else {
        m->ref_pending[u] = true;
    }
    m->unit_epoch[u] = ++m->epoch;
    if (m->ci_on) ci_unit_refresh(m, u, 0xf);
}

/* USIMM's window: the cycle from which powered-down unit u must wake so that the REFs it still
 * owes end with the window (USIMM's forced refresh wakes it within the tRP it allows): the
 * deadline less the exit (tXP, or tXPDLL from slow power-down). DRAM_NEVER when it owes none. */
static uint64_t pd_wake_by(const struct mc *m, uint32_t u) {
    const struct dram_rank *r = &m->dram.rank[u];
    if (!m->refwin || m->win_early[u] >= 8) return DRAM_NEVER;
    uint64_t exit = (uint64_t)(r->pd == 2 ? m->s->XPDLL : m->s->XP), dl = win_deadline(m, u);
    return dl > exit ? dl - exit : 0;
}

/* Unit u's REF is about to issue: the refresh ends with it (all-bank), or with the window's 8th
 * (USIMM), and the next one is scheduled. */
static __attribute__((noinline)) void ref_issuing(struct mc *m, uint32_t u) {
    if (!m->refwin) {
        m->ref_pending[u] = false;
        m->ref_due[u] += m->ref_step;
    } else if (++m->win_refs[u] >= 8) {
        m->ref_pending[u] = false;
        m->win_end[u] += 8 * (uint64_t)m->s->REFI;
        m->win_early[u] = 0;
        m->ref_due[u] = win_next(m, u, m->now);
    }
}

/* USIMM's refresh: the scheduler issued a REF before the window's deadline. It counts towards the
 * window's 8, so the forced sequence starts tRFC later (and does not start once all 8 are in). */
static __attribute__((noinline)) void ref_early(struct mc *m, uint32_t u) {
    if (m->win_early[u] < UINT8_MAX) m->win_early[u]++;
    m->ref_due[u] = win_next(m, u, m->now);
    if (m->win_early[u] >= 8 && m->now >= win_deadline(m, u)) m->ref_due[u] = m->win_end[u];
    m->maint_at = 0;
    m->unit_epoch[u] = ++m->epoch;
    if (m->ci_on) ci_unit_refresh(m, u, 0xf);
}

/* USIMM's window also holds back a power-down that could not be left by the deadline
 * (now + tPDmin + tXP, or tXPDLL when slow). */
static bool pd_fits(const struct mc *m, uint32_t u, uint64_t now) {
    if (!m->refwin) return true;
    const struct dram_spec *s = m->s;
    uint64_t exit = (uint64_t)(s->CKE + (m->cfg.pd_mode == MC_PD_FAST ? s->XP : s->XPDLL));
    return now + exit <= win_deadline(m, u);
}

/* Refresh and power management come before the policy: a due all-bank refresh closes the rank's
 * banks (PREA) and issues REF; a due per-bank refresh holds one bank, closes it (PRE) and issues
 * REFPB; a powered-down rank with work (or a due refresh) wakes up (PDX); an idle rank without a
 * refresh under way powers down after pd_idle cycles. Returns true and fills *ch when it wants a
 * command. */
static bool maintenance_scan(struct mc *m, struct mc_choice *ch) {
    uint64_t now = m->now;
    uint32_t ranks = (uint32_t)m->s->ranks;
    for (uint32_t u = 0; u < m->nunits; u++) {
        struct dram_rank *r = &m->dram.rank[u];
        struct dram_addr a = {.ch = m->ch, .pc = u / ranks, .rank = u % ranks};
        if (m->refpb) {
            if (m->pb_bank[u] < 0 && now >= m->ref_due[u]) {
                uint32_t b = u * m->dram.nbanks_unit + pb_choose(m, u);
                m->pb_bank[u] = (int32_t)b;
                if (m->ci_on) ci_mark_bank(m, b);
            }
        } else if (!m->ref_pending[u] && now >= m->ref_due[u]) {
            ref_due_now(m, u);
        }
        if (r->pd) {
            if ((m->unit_q[u] || refreshing(m, u) || now >= pd_wake_by(m, u)) &&
                dram_ready_at(&m->dram, DRAM_PDX, &a, now) <= now) {
                *ch = (struct mc_choice){NULL, DRAM_PDX, a};
                return true;
            }
            continue;
        }
        if (m->ref_pending[u]) {
            enum dram_cmd c = r->open_banks ? DRAM_PREA : DRAM_REF;
            /* USIMM's window: the rank is unavailable from the deadline, closing its rows for
             * tRP whether or not any was open, so that the 8th REF ends with the window */
            if (m->refwin && c == DRAM_REF && now < win_deadline(m, u) + (uint64_t)m->s->RP)
                continue;
            if (dram_ready_at(&m->dram, c, &a, now) <= now) {
                if (c == DRAM_REF) ref_issuing(m, u);
                *ch = (struct mc_choice){NULL, c, a};
                return true;
            }
            continue;
        }
        if (m->pb_bank[u] >= 0) {
            /* the held bank: close it as soon as it may close, then refresh it */
            uint32_t b = (uint32_t)m->pb_bank[u];
            struct dram_addr ba;
            mcv_bank_addr(&m->view, b, &ba);
            enum dram_cmd c = m->dram.bank[b].open_row >= 0 ? DRAM_PRE : DRAM_REFPB;
            if (dram_ready_at(&m->dram, c, &ba, now) <= now) {
                if (c == DRAM_REFPB) {
                    uint32_t nb = m->dram.nbanks_unit, i = b - u * nb;
                    m->pb_bank[u] = -1; /* issue() marks the bank for the index */
                    m->pb_done[u] |= 1ULL << i;
                    if (m->pb_done[u] == (nb == 64 ? ~0ULL : (1ULL << nb) - 1)) m->pb_done[u] = 0;
                    m->pb_next[u] = (i + 1) % nb;
                    m->ref_due[u] += m->ref_step;
                }
                *ch = (struct mc_choice){NULL, c, ba};
                return true;
            }
            continue; /* no power-down while a bank waits for its refresh */
        }
        if (m->cfg.pd_mode != MC_PD_OFF && !m->unit_q[u] &&
            now >= m->unit_last[u] + (uint64_t)m->cfg.pd_idle && pd_fits(m, u, now)) {
            enum dram_cmd c = m->cfg.pd_mode == MC_PD_FAST ? DRAM_PDEF
                              : r->open_banks              ? DRAM_PREA
                                                           : DRAM_PDES;
            if (dram_ready_at(&m->dram, c, &a, now) <= now) {
                *ch = (struct mc_choice){NULL, c, a};
                return true;
            }
        }
    }
    return false;
}

/* Skips the per-unit scan in the cycles where it cannot act: with power-down off and no refresh
 * under way, nothing happens before the next refresh deadline. maint_at = 0 means "every cycle"
 * (refresh pending, a rank powered down, or power management on). */
static bool maintenance(struct mc *m, struct mc_choice *ch) {
    if (m->now < m->maint_at) return false;
    bool want = maintenance_scan(m, ch);
    uint64_t t = m->cfg.pd_mode != MC_PD_OFF ? 0 : DRAM_NEVER;
    for (uint32_t u = 0; u < m->nunits && t; u++) {
        t = refreshing(m, u) ? 0 : t < m->ref_due[u] ? t : m->ref_due[u];
        if (!m->dram.rank[u].pd || !t) continue;
        /* a rank a policy powered down (mc.powerdown off): maintenance wakes it for queued work
         * (mc_enqueue resets maint_at) or, in USIMM's window, for the REFs it owes */
        uint64_t at = m->unit_q[u] ? 0 : pd_wake_by(m, u);
        if (at < t) t = at;
    }
    m->maint_at = t;
    return want;
}

/* Drain mode: a watermark drain starts at wq_hi and holds until wq_lo; independently, writes
 * drain whenever no read is queued (if enabled, or once the input has ended: mc_flush). An episode
 * is counted when draining starts. */
static void update_drain(struct mc *m) {
    /* a function of the queue lengths and flush (the same inputs give the same state again) */
    if (!m->drain_dirty) return;
    m->drain_dirty = false;
    uint32_t wq = m->len[MC_WRITEQ], rq = m->len[MC_READQ];
    bool was = m->draining;
    if (!m->wm_drain && wq >= (uint32_t)m->cfg.wq_hi)
        m->wm_drain = true;
    else if (m->wm_drain && wq <= (uint32_t)m->cfg.wq_lo)
        m->wm_drain = false;
    m->draining = m->wm_drain || ((m->cfg.drain_when_no_reads || m->flush) && rq == 0 && wq > 0);
    if (m->draining && !was) m->st.drains++;
}

/* mc.row_policy = timeout. A bank is closed once its row has had no ACT or column command for
 * row_timeout cycles and no queued request (read or write) is for the bank: a request to another
 * row would have the policy close it anyway, one to the row keeps it. Closing happens in a
 * command slot the policy leaves empty, as Ramulator's timeout policy does. When bank b's row may
 * close by the timeout (DRAM_NEVER if it may not). */
static inline uint64_t row_idle_deadline(const struct mc *m, uint32_t b) {
    const struct dram_bank *bk = &m->dram.bank[b];
    if (bk->open_row < 0 || m->bhead[MC_READQ][b] || m->bhead[MC_WRITEQ][b]) return DRAM_NEVER;
    uint64_t last = bk->act_at > bk->last_col_at ? bk->act_at : bk->last_col_at;
    return last + (uint64_t)m->cfg.row_timeout;
}

/* When the timeout can close bank b's row with a PRE (its address in *a): DRAM_NEVER when it
 * may not (no open row, a queued request, or a powered-down rank: waking that is maintenance's,
 * and its PDX wakes the controller); now + 1 while refresh holds the bank (its rank's all-bank
 * refresh is due, a USIMM window holds its PREs, or it waits for its own REFPB), to look again. */
static uint64_t row_timeout_at(const struct mc *m, uint32_t b, struct dram_addr *a) {
    uint64_t d = row_idle_deadline(m, b);
    uint32_t u = m->bank_unit[b];
    if (d == DRAM_NEVER || m->dram.rank[u].pd) return DRAM_NEVER;
    if (m->ref_pending[u] || ref_blocks(m, u, 1) || pb_held(m, b)) return m->now + 1;
    mcv_bank_addr(&m->view, b, a);
    uint64_t r = dram_ready_at(&m->dram, DRAM_PRE, a, 0);
    return r > d ? r : d;
}

/* One pass over the banks for the timeout: the lowest bank whose row it closes now, as a PRE in
 * *ch (returns true), and in *next the earliest cycle after now at which it may close one
 * (DRAM_NEVER for none), for the wake time when nothing issues. */
static bool row_timeout_scan(struct mc *m, struct mc_choice *ch, uint64_t *next) {
    uint64_t t = DRAM_NEVER;
    struct dram_addr a;
    bool found = false;
    for (uint32_t b = 0; b < m->nbanks; b++) {
        uint64_t d = row_timeout_at(m, b, &a);
        if (d <= m->now && !found) {
            *ch = (struct mc_choice){NULL, DRAM_PRE, a};
            found = true;
        }
        if (d < t) t = d;
    }
    *next = t <= m->now ? m->now + 1 : t;
    return found;
}

/* pick() of a policy with pick_class_min, done here: the ready candidate with the smallest key
 * in the lowest class that has one (ties: the lowest bank, as mcv_cand_min). Its command is the
 * one its slot stands for (mcv_next_cmd gives only these four). Debug builds ask the policy too. */
static bool ci_pick_min(struct mc *m, struct mc_choice *ch) {
    static const enum dram_cmd slot_cmd[4] = {DRAM_ACT, DRAM_PRE, DRAM_RD, DRAM_WR};
    uint32_t b = UINT32_MAX;
    for (unsigned cls = 0; cls < MC_NCLS && b == UINT32_MAX; cls++)
        b = m->nwords == 1 ? cand_min(m, cls, 1) : cand_min(m, cls, m->nwords);
#ifndef NDEBUG
    struct mc_choice want;
    memset(&want, 0, sizeof want);
    bool any = m->pol->pick(m->pst, &m->view, &want);
    WS_ASSERT(any == (b != UINT32_MAX) &&
                  (!any || (want.req == m->ci_cand[b] && want.cmd == slot_cmd[m->ci_kind[b]])),
              "mc ch%u policy %s: pick() is not the index's class-min choice", m->ch, m->pol->name);
#endif
    if (b == UINT32_MAX) return false;
    struct mc_req *r = m->ci_cand[b];
    ch->req = r;
    ch->cmd = slot_cmd[m->ci_kind[b]];
    ch->addr = r->da;
    return true;
}

/* Whether the second command slot of a dual-command-bus cycle, after a first command `first`
 * picked through the index (ci_ok is from that slot), can issue nothing, without settling the
 * index again: the second slot has only the other bus, and a command can only move fences later
 * and change its own bank's candidate, whose next command is at least a cycle away (every
 * same-bank timing is >= 1). So if no bank that was ready in the first slot has a candidate for
 * the other bus, nothing is, as long as maintenance, a due wake and the drain mode do not act. */
static bool other_bus_idle(struct mc *m, enum dram_cmd first) {
    if (m->now >= m->maint_at || (m->wake_req && m->wake_req <= m->now)) return false;
    update_drain(m);
    if ((m->draining ? MC_WRITEQ : MC_READQ) != m->ci_q) return false;
    const unsigned a = dram_cmd_is_col(first) ? 0 : 2; /* the other bus's two slots */
    for (uint32_t w = 0; w < m->nwords; w++)
        if (m->ci_ok[w] & (m->ci_kmask[a][w] | m->ci_kmask[a + 1][w])) return false;
    return true;
}

int mc_tick(struct mc *m, uint64_t now, struct ws_err *e) {
    if (now < m->wake) return 0;
    account(m, now);
    m->now = now;
    m->min_seen = DRAM_NEVER;
    m->st.cycles = now + 1;
    int slots = m->s->dual_cmd_bus ? 2 : 1;
    bool issued = false, filtered = false;
    enum dram_cmd first = DRAM_NCMD;
    /* the timeout's next closing, from the scan of the slot that found nothing to issue: when no
     * slot issues, that scan saw the state the controller sleeps in */
    uint64_t tnext = DRAM_NEVER;
    for (int s = 0; s < slots; s++) {
        struct mc_choice ch;
        int from = FROM_MAINT;
        /* (the shortcut knows only the policy's candidates, not the timeout's) */
        if (s == 1 && filtered && m->cfg.row_policy != MC_TIMEOUT_PAGE && other_bus_idle(m, first))
            break;
        filtered = false;
        if (!maintenance(m, &ch)) {
            from = FROM_POLICY;
            update_drain(m);
            bool got = true;
            if (m->ci_on) {
                filtered = true;
                ci_sync(m);
                /* no candidate can issue: pick() could only say no, unless it asked to be
                 * woken now (a request in the past is answered by this call) */
                if (!ci_filter(m) && (!m->wake_req || m->wake_req > now))
                    got = false;
                else if (m->wake_req <= now)
                    m->wake_req = 0;
            }
            if (got && m->pol->pick_class_min) {
                got = ci_pick_min(m, &ch);
                from = FROM_INDEX;
            } else if (got) {
                memset(&ch, 0, sizeof ch);
                got = m->pol->pick(m->pst, &m->view, &ch);
            }
            if (!got) {
                if (m->cfg.row_policy != MC_TIMEOUT_PAGE || !row_timeout_scan(m, &ch, &tnext))
                    break;
                from = FROM_TIMEOUT;
            }
        }
        if (issue(m, &ch, from, e) != 0) return -1;
        first = ch.cmd;
        issued = true;
    }
    if (issued) {
        m->wake = now + 1;
        return 0;
    }
    /* Nothing issued: sleep until the earliest cycle anything can change on its own. */
    uint64_t w = m->min_seen;
    if (m->ci_on) {
        uint64_t t = ci_next(m);
        if (t < w) w = t;
    }
    if (m->cfg.pd_mode == MC_PD_OFF) {
        /* maint_at is fresh (maintenance ran or had nothing to do before it): 0 while a refresh
         * is under way, else the next refresh deadline */
        if (m->maint_at <= now)
            w = now + 1;
        else if (m->maint_at < w)
            w = m->maint_at;
    } else {
        for (uint32_t u = 0; u < m->nunits; u++) {
            if (refreshing(m, u) || m->dram.rank[u].pd) {
                w = now + 1; /* refresh or wake-up sequence in progress */
                break;
            }
            if (m->ref_due[u] < w) w = m->ref_due[u];
            if (!m->unit_q[u]) {
                uint64_t t = m->unit_last[u] + (uint64_t)m->cfg.pd_idle;
                if (t < w) w = t <= now ? now + 1 : t;
            }
        }
    }
    if (m->cfg.row_policy == MC_TIMEOUT_PAGE && tnext < w) w = tnext;
    if (m->wake_req > now && m->wake_req < w) w = m->wake_req;
    m->wake = w;
    return 0;
}

uint64_t mc_next_event(const struct mc *m) {
    return m->wake;
}

void mc_finish(struct mc *m, uint64_t end) {
    account(m, end);
    m->st.cycles = end;
    m->st.data_busy = m->dram.data_busy_cycles;
}

/* Policies may ask to be woken at a cycle (e.g. close-page idling). */
void mcv_request_wake(const struct mc_view *v, uint64_t t) {
    struct mc *m = v->m;
    if (t > m->now && (m->wake_req <= m->now || t < m->wake_req)) m->wake_req = t;
}

/* ---- registry ---- */
#define MC_POLICY(sym) extern const struct mc_policy mc_policy_##sym;
#include "mem/mc/policies.def"
#undef MC_POLICY
#define MC_POLICY(sym) &mc_policy_##sym,
const struct mc_policy *const mc_policies[] = {
#include "mem/mc/policies.def"
};
#undef MC_POLICY
const unsigned mc_npolicies = sizeof mc_policies / sizeof mc_policies[0];

const char *mc_policy_suggest(const char *name) {
    struct cfg_suggest s = {.typed = name};
    for (unsigned i = 0; i < mc_npolicies; i++) cfg_suggest_offer(&s, mc_policies[i]->name);
    return s.best;
}

const struct mc_policy *mc_policy_find(const char *name) {
    for (unsigned i = 0; i < mc_npolicies; i++) {
        const char *n = mc_policies[i]->name;
        if (strcmp(n, name) == 0) return mc_policies[i];
        /* accept '_' for '-' (frfcfs_cap vs frfcfs-cap) */
        size_t k = 0;
        while (n[k] && name[k] && (n[k] == name[k] || (n[k] == '-' && name[k] == '_'))) k++;
        if (!n[k] && !name[k]) return mc_policies[i];
    }
    return NULL;
}
