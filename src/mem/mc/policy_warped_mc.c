/* Warped-MC (Jeong et al., ICPP 2023; seed 000 Sec. 4, Algorithm 1): a warp-aware memory
 * scheduler that keeps FR-FCFS's first-ready rule and replaces its FCFS parts with three
 * warp-aware ones, each switchable so that its contribution can be measured:
 *  - request priority (mc.warped.request): among a bank's row hits, a read that is the last
 *    pending request of its warp-load (n_pending == 1 in the shared WET, priority H) goes first;
 *    then the hits of the warp-load whose request the bank served last, when that one still had
 *    others pending (priority M: Algorithm 1 lines 9-10, "the pending requests have to be
 *    scheduled consecutively to finish the warp quickly"); then the other hits, oldest first;
 *  - row priority (mc.warped.row): on a row miss, the bank opens the pending row with the highest
 *    row-scoreboard score (ties: the row of the oldest request). A row's 4-bit saturating score
 *    counts its requests seen as the last of their warp; it returns to 0 when the row is opened;
 *  - bank priority (mc.warped.bank): banks whose scheduled request is an H row hit form a high
 *    pool (mc.warped.bank_pool = last: whose scheduled request, hit or miss, is its warp's
 *    last); the command scheduler picks round-robin among ready banks of the high pool, then of
 *    the rest.
 * With all three off it is the GPGPU-Sim-style FR-FCFS the paper compares against: per bank the
 * oldest row hit, else the oldest request, banks served round-robin; that baseline is also
 * registered on its own as `frfcfs-rr`.
 *
 * Row scoreboard: the paper keeps 64 4-bit scores per bank (256 bits). Here a bank's scoreboard
 * has mc.warped.rs_rows slots, each holding one pending row of the read queue; a row that finds
 * no free slot is not scored (score 0). As in Algorithm 1's "row priority" procedure, scores are
 * updated when the scheduler schedules a bank: on a row miss every pending request of the bank
 * that is now its warp's last adds one to its row (once per request). Not at arrival: the first
 * request of every warp-load arrives with n_pending == 1 before its siblings do, which would
 * score rows for requests that are not the slowest. mc.warped.score_at = arrival scores at
 * arrival instead, as Sec. 4.2's row sorter reads (the paper's text allows both). Writes carry no
 * warp (no warp waits on them): they are always M. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mc/warp_track.h"

enum { WM_RS = 1, WM_NOTED = 2 }; /* scratch slots: RS slot + 1 (0: none), noted flag */

struct wm_cfg {
    bool request, row, bank;
    int64_t rs_rows, score_bits;
    int score_at;  /* WM_AT_SCHEDULE or WM_AT_ARRIVAL */
    int bank_pool; /* WM_POOL_HIT or WM_POOL_LAST */
};

enum { WM_AT_SCHEDULE, WM_AT_ARRIVAL };
static const char *const score_at_names[] = {"schedule", "arrival", NULL};
enum { WM_POOL_HIT, WM_POOL_LAST };
static const char *const bank_pool_names[] = {"hit", "last", NULL};

struct wm_stats {
    uint64_t decisions, req_changed, row_changed, bank_changed, h_issued, rs_full;
    uint64_t hit_decisions, pending_hits, miss_decisions, pending_rows; /* seed 000 Fig. 7 */
};

struct rs_slot {
    int32_t row; /* -1: free */
    uint16_t pending;
    uint8_t score;
};

struct wm {
    struct wm_cfg cfg;
    struct warp_table *wt; /* NULL for frfcfs-rr */
    uint32_t nbanks, rr;   /* rr: bank served last */
    uint8_t score_max;
    struct rs_slot *rs; /* [nbanks][rs_rows] */
    uint8_t *miss_seen; /* [nbanks] this bank's current row miss has been counted (Fig. 7b) */
    uint64_t *mwarp;    /* [nbanks] WET slot + 1 of the warp-load served last with others left */
    struct wm_stats st;
};

#define OFF(f) offsetof(struct wm_cfg, f)
static const struct cfg_key wm_keys[] = {
    {"mc.warped.request", CFG_BOOL, OFF(request), "true", 0, 0, NULL, "",
     "request priority: a row hit that is its warp's last pending request (H) goes first"},
    {"mc.warped.row", CFG_BOOL, OFF(row), "true", 0, 0, NULL, "",
     "row priority: on a row miss open the pending row with the highest row-scoreboard score"},
    {"mc.warped.bank", CFG_BOOL, OFF(bank), "true", 0, 0, NULL, "",
     "bank priority: round-robin over banks with an H request first, then the others"},
    {"mc.warped.rs_rows", CFG_INT, OFF(rs_rows), "64", 1, 4096, NULL, "rows",
     "pending rows the row scoreboard scores per bank (paper: 64 scores = 256 bits)"},
    {"mc.warped.score_bits", CFG_INT, OFF(score_bits), "4", 1, 8, NULL, "bits",
     "width of a row score; it saturates (paper: 4)"},
    {"mc.warped.score_at", CFG_ENUM, OFF(score_at), "schedule", 0, 0, score_at_names, "",
     "when a row scores its last-of-warp requests: schedule (when the bank picks a row on a "
     "miss) or arrival (as the request is decoded into the queue, Sec. 4.2's row sorter)"},
    {"mc.warped.bank_pool", CFG_ENUM, OFF(bank_pool), "hit", 0, 0, bank_pool_names, "",
     "which banks form the high pool: hit (the request the bank serves next is an H row hit: "
     "Sec. 4.1, \"the request scheduler sets the higher priority for the slowest request that "
     "will hit the row buffer\") or last (it is its warp's last pending request, hit or miss: "
     "Algorithm 1's bank_priority <- scheduled_request.priority read without the hit)"},
};
#undef OFF

#define SD(f, doc)                                                                                 \
    { #f, STAT_COUNTER, offsetof(struct wm_stats, f), "cmd", doc }
static const struct stat_desc wm_stat_desc[] = {
    SD(decisions, "commands the scheduler chose for a queued request"),
    SD(req_changed, "decisions on a row hit where request priority chose another hit than the "
                    "oldest (FR-FCFS's choice)"),
    SD(row_changed, "decisions on a row miss where row priority chose another row than the "
                    "oldest request's (FR-FCFS's choice)"),
    SD(bank_changed, "decisions where the high-priority bank pool chose another bank than "
                     "round-robin over all ready banks would"),
    SD(h_issued, "decisions for a row hit that was the last pending request of its warp (H)"),
    {"rs_full", STAT_COUNTER, offsetof(struct wm_stats, rs_full), "req",
     "reads whose row found its bank's row scoreboard full (not scored)"},
    SD(hit_decisions, "decisions for a row hit"),
    {"pending_hits", STAT_COUNTER, offsetof(struct wm_stats, pending_hits), "req",
     "sum over hit decisions of the requests queued that hit the bank's open row (seed 000 Fig. "
     "7a: pending_hits / hit_decisions)"},
    SD(miss_decisions, "row misses scheduled (counted once, at their PRE or ACT)"),
    {"pending_rows", STAT_COUNTER, offsetof(struct wm_stats, pending_rows), "rows",
     "sum over row misses of the distinct rows queued for the bank, i.e. the rows that could "
     "replace the open one (seed 000 Fig. 7b: pending_rows / miss_decisions)"},
};
#undef SD

static struct wm *wm_alloc(const struct mc_policy_env *env, const struct wm_cfg *cfg,
                           struct ws_err *e) {
    struct wm *p = calloc(1, sizeof *p);
    if (!p) return ws_fail(e, "out of memory"), NULL;
    p->cfg = *cfg;
    p->wt = env->wt;
    p->nbanks = env->nbanks;
    p->rr = env->nbanks - 1;
    p->score_max = (uint8_t)((1u << cfg->score_bits) - 1);
    p->rs = calloc((size_t)env->nbanks * (size_t)cfg->rs_rows, sizeof *p->rs);
    p->miss_seen = calloc(env->nbanks, 1);
    p->mwarp = calloc(env->nbanks, sizeof *p->mwarp);
    if (!p->rs || !p->miss_seen || !p->mwarp) {
        free(p->rs);
        free(p->miss_seen);
        free(p->mwarp);
        free(p);
        return ws_fail(e, "out of memory"), NULL;
    }
    for (size_t i = 0; i < (size_t)env->nbanks * (size_t)cfg->rs_rows; i++) p->rs[i].row = -1;
    return p;
}

static void *wm_create(const struct mc_policy_env *env, struct cfg *c, struct ws_err *e) {
    struct wm_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    if (cfg_bind(c, "mc.warped", wm_keys, CFG_COUNT(wm_keys), &cfg, e) != 0) return NULL;
    return wm_alloc(env, &cfg, e);
}

static void *rr_create(const struct mc_policy_env *env, struct cfg *c, struct ws_err *e) {
    (void)c;
    struct wm_cfg cfg = {false, false, false, 1, 1, WM_AT_SCHEDULE, WM_POOL_HIT};
    return wm_alloc(env, &cfg, e);
}

static void wm_destroy(void *st) {
    struct wm *p = st;
    free(p->rs);
    free(p->miss_seen);
    free(p->mwarp);
    free(p);
}

static struct rs_slot *rs_of(struct wm *p, const struct mc_req *r) {
    uint64_t s = r->scratch[WM_RS];
    return s ? &p->rs[(size_t)r->bank * (size_t)p->cfg.rs_rows + (s - 1)] : NULL;
}

/* Row priority's score update: once per request, when it is seen as its warp's last. */
static void note_last(struct wm *p, struct mc_req *r) {
    if (r->scratch[WM_NOTED] || !wt_is_last(p->wt, r)) return;
    r->scratch[WM_NOTED] = 1;
    struct rs_slot *s = rs_of(p, r);
    if (s && s->score < p->score_max) s->score++;
}

static void wm_enqueue(void *st, const struct mc_view *v, struct mc_req *r) {
    (void)v;
    struct wm *p = st;
    r->scratch[WM_RS] = r->scratch[WM_NOTED] = 0;
    if (p->wt) wt_track_enqueue(p->wt, r);
    if (r->is_write || !p->cfg.row) return;
    struct rs_slot *base = &p->rs[(size_t)r->bank * (size_t)p->cfg.rs_rows], *fr = NULL;
    for (int64_t i = 0; i < p->cfg.rs_rows; i++) {
        if (base[i].row == (int32_t)r->da.row) {
            fr = &base[i];
            break;
        }
        if (!fr && base[i].row < 0) fr = &base[i];
    }
    if (!fr) {
        p->st.rs_full++;
        return;
    }
    if (fr->row < 0) *fr = (struct rs_slot){(int32_t)r->da.row, 0, 0};
    fr->pending++;
    r->scratch[WM_RS] = (uint64_t)(fr - base) + 1;
    if (p->cfg.score_at == WM_AT_ARRIVAL) note_last(p, r);
}

static void wm_complete(void *st, const struct mc_view *v, const struct mc_req *r) {
    (void)v;
    struct wm *p = st;
    if (p->wt) wt_track_complete(p->wt, r);
    struct rs_slot *s = rs_of(p, r);
    if (s && --s->pending == 0) *s = (struct rs_slot){-1, 0, 0};
}

static void wm_issue(void *st, const struct mc_view *v, const struct mc_choice *c) {
    (void)v;
    struct wm *p = st;
    if (c->req && c->cmd == DRAM_ACT) {
        struct rs_slot *s = rs_of(p, c->req);
        if (s) s->score = 0; /* the chosen row is open: its urgency is served as hits */
    }
    if (c->req && dram_cmd_is_col(c->cmd) && p->wt) {
        /* served now (its n_pending still counts it): its warp's other hits become M */
        const struct mc_req *r = c->req;
        p->mwarp[r->bank] = wt_pending(p->wt, r) >= 2 ? r->scratch[WT_SLOT] : 0;
    }
}

/* A bank's request under the enabled parts, and FR-FCFS's (base) for the statistics. */
struct bank_pick {
    struct mc_req *req, *base;
    bool hit, high;
};

static struct bank_pick choose(struct wm *p, const struct mc_view *v, enum mc_q q, uint32_t b) {
    struct bank_pick bp = {0};
    struct mc_req *head = mcv_bank_head(v, q, b);
    int32_t open = mcv_open_row(v, b);
    if (open >= 0 && mcv_bank_hits(v, q, b)) {
        bp.hit = true;
        struct mc_req *m = NULL;
        uint64_t mw = p->mwarp[b];
        for (struct mc_req *r = head; r; r = r->bnext) {
            if ((int32_t)r->da.row != open) continue;
            if (!bp.base) bp.base = r;
            if (!p->cfg.request) break;
            if (wt_is_last(p->wt, r)) {
                bp.req = r;
                break;
            }
            if (!m && mw && r->scratch[WT_SLOT] == mw) m = r;
        }
        if (!bp.req) bp.req = m ? m : bp.base;
    } else {
        bp.req = bp.base = head;
        if (p->cfg.row) {
            if (p->cfg.score_at == WM_AT_SCHEDULE)
                for (struct mc_req *r = head; r; r = r->bnext) note_last(p, r);
            int best = -1;
            for (struct mc_req *r = head; r; r = r->bnext) {
                const struct rs_slot *s = rs_of(p, r);
                int sc = s ? s->score : 0;
                if (sc > best) best = sc, bp.req = r;
            }
        }
    }
    /* H is a row-hit priority (the request scheduler assigns it to hits only): a bank joins the
     * high pool when the request it will serve is a hit that is its warp's last; with
     * mc.warped.bank_pool = last, whenever that request is its warp's last */
    bp.high = (bp.hit || p->cfg.bank_pool == WM_POOL_LAST) && wt_is_last(p->wt, bp.req);
    return bp;
}

/* Distinct rows among a bank's queued requests (up to 64 told apart; more count as 64). */
static uint64_t distinct_rows(const struct mc_req *head) {
    uint32_t rows[64], n = 0;
    for (const struct mc_req *r = head; r && n < 64; r = r->bnext) {
        uint32_t i = 0;
        while (i < n && rows[i] != r->da.row) i++;
        if (i == n) rows[n++] = r->da.row;
    }
    return n;
}

/* Seed 000 Fig. 7: pending hits behind each hit decision, replaceable rows at each miss. */
static void count_fig7(struct wm *p, const struct mc_view *v, enum mc_q q, uint32_t b,
                       const struct bank_pick *bp) {
    if (bp->hit) {
        p->st.hit_decisions++;
        p->st.pending_hits += mcv_bank_hits(v, q, b);
        p->miss_seen[b] = 0;
    } else if (!p->miss_seen[b]) {
        p->miss_seen[b] = 1;
        p->st.miss_decisions++;
        p->st.pending_rows += distinct_rows(mcv_bank_head(v, q, b));
    }
}

static bool wm_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    struct wm *p = st;
    enum mc_q q = mcv_draining(v) ? MC_WRITEQ : MC_READQ;
    const uint64_t *mask = mcv_bank_mask(v, q);
    struct bank_pick got = {0}, first = {0};
    uint32_t got_b = UINT32_MAX, first_b = UINT32_MAX;
    for (uint32_t i = 1; i <= p->nbanks; i++) {
        uint32_t b = (p->rr + i) % p->nbanks;
        if (!(mask[b >> 6] >> (b & 63) & 1)) continue;
        struct bank_pick bp = choose(p, v, q, b);
        if (!mcv_issuable(v, bp.req)) continue;
        if (first_b == UINT32_MAX) first = bp, first_b = b;
        if (!p->cfg.bank || bp.high) {
            got = bp, got_b = b;
            break;
        }
    }
    if (got_b == UINT32_MAX) got = first, got_b = first_b; /* no ready high bank */
    if (got_b == UINT32_MAX) return false;
    p->rr = got_b;
    p->st.decisions++;
    if (got.req != got.base) got.hit ? p->st.req_changed++ : p->st.row_changed++;
    if (got_b != first_b) p->st.bank_changed++;
    if (got.high) p->st.h_issued++;
    count_fig7(p, v, q, got_b, &got);
    mcv_choose(v, got.req, out);
    return true;
}

static const void *wm_stats(const void *st) {
    return &((const struct wm *)st)->st;
}

const struct mc_policy mc_policy_warped_mc = {
    .name = "warped-mc",
    .doc = "Warped-MC: warp-aware request, row and bank priority over FR-FCFS (mc.warped.*)",
    .keys = wm_keys,
    .nkeys = CFG_COUNT(wm_keys),
    .create = wm_create,
    .destroy = wm_destroy,
    .pick = wm_pick,
    .on_enqueue = wm_enqueue,
    .on_issue = wm_issue,
    .on_complete = wm_complete,
    .warp_table = true,
    .stat_desc = wm_stat_desc,
    .nstat = CFG_COUNT(wm_stat_desc),
    .stat_size = sizeof(struct wm_stats),
    .stats = wm_stats,
};

const struct mc_policy mc_policy_frfcfs_rr = {
    .name = "frfcfs-rr",
    .doc = "FR-FCFS per bank (oldest hit, else oldest), banks round-robin (GPGPU-Sim's)",
    .create = rr_create,
    .destroy = wm_destroy,
    .pick = wm_pick,
    .on_enqueue = wm_enqueue,
    .on_complete = wm_complete,
    .stat_desc = wm_stat_desc,
    .nstat = CFG_COUNT(wm_stat_desc),
    .stat_size = sizeof(struct wm_stats),
    .stats = wm_stats,
};
