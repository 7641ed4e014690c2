/* The warp-aware GPU schedulers of seed 002 (Chatterjee, PhD 2013, Ch. 4; digest seed-002.md
 * Secs. 2.3-2.8), on the controller organisation that chapter assumes:
 *  - a batching unit groups the read queue's requests by warp (SM id, warp slot) into
 *    warp-groups; a group is complete mc.wg.window cycles after its first request arrived (or,
 *    with mc.wg.close = last, after its latest), and only complete groups are visible to the
 *    transaction scheduler (a window of 0: every read is a group of its own). A CAM of
 *    mc.wg.groups entries holds the forming groups; a request that finds it full forms a group
 *    of its own, complete at once;
 *  - a transaction scheduler admits one request per cycle from the group it selected into
 *    per-bank in-order command queues of mc.wg.bank_q reads (a read whose bank queue is full
 *    waits and the group's next read with room goes; when none of the group's reads has room,
 *    the best other complete group with one goes, so that free banks do not idle);
 *  - a command scheduler goes round-robin over the banks (bank groups interleaved, to exploit
 *    tCCD_S < tCCD_L), issuing the next command of each bank queue's head, skipping blocked heads.
 * What differs between the registered names is how the transaction scheduler selects:
 *  - frfcfs-cq (the thesis's baseline, Sec. 4.2.3): no batching; per read, FR-FCFS over the
 *    whole read queue: a read older than mc.cq.age first, else the oldest predicted row hit in a
 *    bank whose hit streak is under mc.cq.streak, else the oldest read;
 *  - wafcfs (WAFCFS): the oldest complete group;
 *  - basjf (BASJF): the group with the smallest score, its estimated completion time: for each
 *    request, its cost (a predicted row hit 1, a miss 3; the prediction compares its row with the
 *    row of the last request queued for its bank, or the bank's open row when that queue is empty,
 *    and later requests of the group with the group's previous request to that bank) plus the
 *    bank queue's running score plus the costs of the group's earlier requests to that bank; the
 *    group's score is the maximum over its requests. Ties: more predicted hits, then older. A
 *    newly complete group whose score undercuts the in-service group's by more than
 *    mc.basjf.preempt suspends it, at most 4 times in a row (then the suspended groups drain);
 *  - basjf-ab (BASJF+AB): as basjf, but a complete group older than mc.basjf.age (K) is taken
 *    first, oldest first;
 *  - merb (BASJF+AB+MERB, aggregate variant): as basjf-ab, and when the predicted row hits in
 *    the other banks, queued in their command queues or about to be (in the groups in
 *    service), can hide a row miss's overhead (hits x nBL >= tRP + tRCD + tRTP - nBL), the
 *    oldest complete group with a predicted miss is taken;
 *  - merb-wawd (+WAWD): as merb, and when the write queue reaches the drain watermark minus
 *    mc.wawd.margin (once per approach) and again when the drain starts, the groups partly sent
 *    to the bank queues (the in-service and suspended ones, and any other a read of which went
 *    while the group in service waited for room) are admitted whole and complete single-request
 *    groups at once (into bank queues with room, mc.wawd.fit); those reads are served before
 *    the drain's first write. The thesis's figures add W to MERB alone (Fig. 4.4), though its
 *    Sec. 4.3.6 calls it part of every warp-aware scheme; the other names drain plainly;
 *  - basjf-ideal (Ideal Coordination, Sec. 2.10, an oracle): as basjf-ab, and a controller that
 *    selects a group names its warp to every other controller at once (the shared warp table's
 *    marks); they take complete groups of the warps other controllers are serving first, oldest
 *    first. A controller's mark moves to the next warp it selects (the thesis: "the currently
 *    selected warp-ID").
 * Writes bypass the batching unit; in a drain they are served per bank, the oldest row hit else
 * the oldest write, banks round-robin. Values the dissertation leaves open (the window, K, the
 * preemption margin) are config keys; our choices are in the key docs and docs/policies.md. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mc/policy.h"
#include "mem/upstream.h"

enum wg_mode { WG_FRFCFS, WG_WAFCFS, WG_BASJF, WG_BASJF_AB, WG_MERB, WG_MERB_WAWD, WG_IDEAL };
enum { WG_NEXT, WG_COST, WG_HIT, WG_GROUP };     /* mc_req.scratch slots */
enum { WG_HIT_BIT = 1, WG_AHEAD_BIT = 2 };       /* scratch[WG_HIT]: predicted hit, WAWD */
enum { WG_MAX_SUSPEND = 4, WG_NO = UINT32_MAX }; /* successive overrides (Sec. 4.3.3) */

struct wg_cfg {
    int64_t window, groups, hit_cost, miss_cost, age, preempt, wawd_margin, wawd_singles, bank_q;
    int64_t cq_age, cq_streak;
    int close; /* WG_CLOSE_FIRST or WG_CLOSE_LAST */
    bool wawd_fit;
};
enum { WG_CLOSE_FIRST, WG_CLOSE_LAST, WG_CLOSE_ORACLE };
static const char *const close_names[] = {"first", "last", "oracle", NULL};
/* mc.wg.close = oracle: a group still waiting for its warp-load's requests after this many
 * cycles is complete anyway (a guard; wg_stats.oracle_timeouts counts it) */
enum { WG_ORACLE_MAX = 1 << 14 };

struct wg_stats {
    uint64_t groups, members, admitted, age_picks, merb_picks, preemptions, wawd_admits, cam_full;
    uint64_t picks, coord_picks, cq_age_picks, cq_hit_picks, cq_streak_stops;
    uint64_t oracle_timeouts;
};

struct group {
    bool used;
    uint64_t key;         /* (SM, warp slot) */
    uint64_t first, last; /* arrival cycles of its first and latest request */
    uint64_t ready;       /* cycle it is complete (visible to the transaction scheduler) */
    uint32_t n;           /* members not admitted yet */
    bool started;         /* some of its reads are in the bank queues (WAWD sends the rest) */
    struct mc_req *head, *tail;
};

struct bankq {
    struct mc_req **v; /* admitted reads, in admission order (a ring) */
    uint32_t head, n;
    int64_t score;    /* sum of the costs queued */
    int32_t last_row; /* row of the last admitted request, -1 when the queue is empty */
    uint32_t hits;    /* queued requests admitted as predicted row hits */
    uint32_t streak;  /* frfcfs-cq: predicted hits admitted since the last predicted miss */
    uint32_t ahead;   /* merb-wawd: queued reads admitted to go ahead of the write drain */
};

struct wg {
    enum wg_mode mode;
    struct warp_table *wt; /* basjf-ideal: the shared table that carries the marks */
    struct upstream *up;   /* mc.wg.close = oracle: requests of each warp-load still upstream */
    struct wg_cfg cfg;
    uint32_t nbanks, cap, rr, nbg;
    int64_t merb_hide; /* command cycles a row miss adds: tRP + tRCD + tRTP - nBL */
    int64_t nbl, wq_hi;
    struct group *g;               /* [cfg.groups] CAM, plus single-request overflow groups */
    uint32_t ng;                   /* entries in g (CAM entries first) */
    uint32_t cur;                  /* group being admitted, WG_NO for none */
    uint32_t susp[WG_MAX_SUSPEND]; /* suspended groups, most recent last */
    uint32_t nsusp, overrides;
    uint64_t admit_clock;  /* last cycle whose admission slot is used */
    bool wawd_armed;       /* write queue below the WAWD trigger since the last trigger */
    uint32_t ahead;        /* reads queued that WAWD sent ahead of the drain, all banks */
    bool was_draining;     /* the controller was draining at the last pick (a drain start) */
    uint64_t preempt_seen; /* groups complete by this cycle were offered to preemption */
    uint32_t waiting;      /* frfcfs-cq: reads not admitted yet */
    uint32_t sel;          /* basjf-ideal: warp-table id this controller last selected */
    struct bankq *bq;
    int32_t *tmp_row; /* [nbanks] scoring scratch */
    int64_t *tmp_cost;
    uint32_t *tmp_hits; /* [nbanks] MERB: predicted hits queued or about to be, per bank */
    uint32_t *order;    /* command-scheduler bank order: bank groups interleaved */
    struct wg_stats st;
};

#define OFF(f) offsetof(struct wg_cfg, f)
static const struct cfg_key wg_keys[] = {
    {"mc.wg.window", CFG_INT, OFF(window), "16", 0, 1 << 20, NULL, "tCK",
     "a warp-group is complete this many cycles after its first request arrived (the thesis: "
     "under 3 % of the memory latency; ours: 16 command cycles; the seed 002 recipes set 0, "
     "measured best where warp-loads reach a controller one line at a time)"},
    {"mc.wg.close", CFG_ENUM, OFF(close), "first", 0, 0, close_names, "",
     "the window counts from a group's first request (thesis Sec. 4.3.1) or from its latest "
     "(Sec. 4.3.7: complete once no request of the warp came for mc.wg.window cycles); oracle: "
     "complete once no request of its warp-load can still arrive (an upper bound for study, "
     "GPU runs only)"},
    {"mc.wg.groups", CFG_INT, OFF(groups), "64", 1, 4096, NULL, "groups",
     "batching-unit CAM entries (thesis: 64)"},
    {"mc.wg.bank_q", CFG_INT, OFF(bank_q), "1", 1, 4096, NULL, "req",
     "reads a bank command queue holds; the transaction scheduler admits a read only into a "
     "bank queue with room, so it decides late, when the bank is close to serving it (thesis: "
     "not given; ours: 1, the depth at which FR-FCFS in this organisation (frfcfs-cq) comes "
     "within 3 % of FR-FCFS on one unified queue, as the thesis reports for its alternate-USIMM; "
     "deeper queues lower every policy here, docs/policies.md)"},
};
static const struct cfg_key basjf_keys[] = {
    {"mc.basjf.hit_cost", CFG_INT, OFF(hit_cost), "1", 0, 1000, NULL, "",
     "score of a request predicted to hit its bank's row (thesis: 1)"},
    {"mc.basjf.miss_cost", CFG_INT, OFF(miss_cost), "3", 0, 1000, NULL, "",
     "score of a predicted row miss (thesis: 3 = (tRP + tRCD + tCAS) / tCAS)"},
    {"mc.basjf.age", CFG_INT, OFF(age), "4096", 1, 1 << 30, NULL, "tCK",
     "BASJF+AB's K: a complete group older than this goes first, oldest first (thesis: not "
     "given; ours: 4096 command cycles, 2.7 us on gtx480-6g, beyond the tail of its loaded "
     "queueing: at 1024 the age rule forced old row misses often enough to cost sssp 15 % of "
     "BASJF's IPC; at 512 on gtx480 it made 9 % of cfd's choices and halved its bandwidth)"},
    {"mc.basjf.preempt", CFG_INT, OFF(preempt), "8", 0, 1 << 20, NULL, "",
     "a new group preempts the one being admitted when its score is lower by more than this "
     "(thesis: 'sufficiently lower', not given)"},
    {"mc.wawd.margin", CFG_INT, OFF(wawd_margin), "8", 0, 1 << 20, NULL, "req",
     "WAWD starts this many writes before the drain watermark mc.wq_hi (thesis: 8)"},
    {"mc.wawd.singles", CFG_INT, OFF(wawd_singles), "4096", 0, 4096, NULL, "groups",
     "WAWD sends at most this many complete single-request groups of the batching unit ahead "
     "each time it acts (at the trigger and at the drain start), in CAM order (thesis: all of "
     "them; 4096 = no limit; 0 leaves only the groups in service)"},
    {"mc.wawd.fit", CFG_BOOL, OFF(wawd_fit), "true", 0, 0, NULL, "",
     "WAWD puts a single-request group only into a bank command queue with room (mc.wg.bank_q), "
     "as hardware queues of that depth would; false: into any, past the depth (the groups in "
     "service go whole either way, as the thesis says)"},
};
static const struct cfg_key cq_keys[] = {
    {"mc.cq.age", CFG_INT, OFF(cq_age), "1024", 1, 1 << 30, NULL, "tCK",
     "frfcfs-cq: a read waiting longer than this is admitted first, oldest first (thesis: an "
     "age threshold, value not given; ours: 1024 command cycles, about 4x the loaded read "
     "latency, as the digest suggests)"},
    {"mc.cq.streak", CFG_INT, OFF(cq_streak), "16", 1, 1 << 20, NULL, "req",
     "frfcfs-cq: after this many predicted row hits admitted in a row to one bank, its hits "
     "lose their priority until a miss is admitted there (thesis: a maximum row-hit streak, "
     "value not given; ours: 16)"},
};
#undef OFF

#define SD(f, unit, doc)                                                                           \
    { #f, STAT_COUNTER, offsetof(struct wg_stats, f), unit, doc }
static const struct stat_desc wg_stat_desc[] = {
    SD(groups, "groups", "warp-groups formed by the batching unit"),
    SD(members, "req", "reads that joined a warp-group (members / groups = mean group size)"),
    SD(admitted, "req", "reads the transaction scheduler moved into the bank command queues"),
    SD(picks, "picks",
       "selections of a group to admit from that the transaction scheduler acted on (the group "
       "in service, a preempting one, or the one admitted from while the one in service waits)"),
    SD(age_picks, "picks",
       "selections (of the group to admit from) made because the oldest group was older than K "
       "(BASJF+AB)"),
    SD(merb_picks, "picks",
       "selections of a group with a row miss because predicted hits hid it (MERB)"),
    SD(preemptions, "groups", "in-service groups suspended for a lower-score group (BASJF)"),
    SD(wawd_admits, "req", "reads admitted ahead of a write drain (WAWD)"),
    SD(cam_full, "req", "reads that found the batching unit full and formed a group alone"),
    SD(oracle_timeouts, "groups",
       "groups declared complete while requests of their warp-load were still upstream, after "
       "16384 cycles (mc.wg.close = oracle)"),
    SD(coord_picks, "picks",
       "selections of a group because another controller had selected its warp "
       "(basjf-ideal)"),
    SD(cq_age_picks, "req",
       "reads admitted first because they waited longer than mc.cq.age (frfcfs-cq)"),
    SD(cq_hit_picks, "req", "reads admitted ahead of older ones as predicted row hits (frfcfs-cq)"),
    SD(cq_streak_stops, "req",
       "admissions in which a bank's hits lost priority to the streak cap (frfcfs-cq)"),
};
#undef SD

static void wg_destroy(void *st) {
    struct wg *p = st;
    if (!p) return;
    if (p->bq)
        for (uint32_t b = 0; b < p->nbanks; b++) free(p->bq[b].v);
    free(p->bq);
    free(p->g);
    free(p->tmp_row);
    free(p->tmp_cost);
    free(p->tmp_hits);
    free(p->order);
    free(p);
}

static void *wg_create_mode(const struct mc_policy_env *env, struct cfg *c, enum wg_mode mode,
                            struct ws_err *e) {
    struct wg *p = calloc(1, sizeof *p);
    if (!p) return ws_fail(e, "out of memory"), NULL;
    p->mode = mode;
    p->wt = mode == WG_IDEAL ? env->wt : NULL;
    if (cfg_bind(c, "mc.wg", wg_keys, CFG_COUNT(wg_keys), &p->cfg, e) != 0 ||
        (mode == WG_FRFCFS
             ? cfg_bind(c, "mc.cq", cq_keys, CFG_COUNT(cq_keys), &p->cfg, e)
             : cfg_bind(c, "mc.basjf", basjf_keys, CFG_COUNT(basjf_keys), &p->cfg, e)) != 0) {
        free(p);
        return NULL;
    }
    if (p->cfg.close == WG_CLOSE_ORACLE && mode != WG_FRFCFS) { /* frfcfs-cq has no groups */
        p->up = env->up;
        *env->up_used = true;
    }
    const struct dram_spec *s = env->spec;
    p->nbanks = env->nbanks;
    p->cap = (uint32_t)env->mcfg->rq_size;
    p->nbl = s->nBL;
    p->merb_hide = s->RP + s->RCDRD + s->RTP - s->nBL;
    p->wq_hi = env->mcfg->wq_hi;
    p->cur = WG_NO;
    p->sel = WG_NO;
    p->rr = p->nbanks - 1;
    p->wawd_armed = true;
    /* CAM entries plus room for one overflow group per queued read */
    p->g = calloc((size_t)p->cfg.groups + p->cap, sizeof *p->g);
    p->bq = calloc(p->nbanks, sizeof *p->bq);
    p->tmp_row = calloc(p->nbanks, sizeof *p->tmp_row);
    p->tmp_cost = calloc(p->nbanks, sizeof *p->tmp_cost);
    p->tmp_hits = calloc(p->nbanks, sizeof *p->tmp_hits);
    p->order = calloc(p->nbanks, sizeof *p->order);
    if (!p->g || !p->bq || !p->tmp_row || !p->tmp_cost || !p->tmp_hits || !p->order) goto oom;
    p->ng = (uint32_t)p->cfg.groups + p->cap;
    for (uint32_t b = 0; b < p->nbanks; b++) {
        p->bq[b].v = calloc(p->cap, sizeof *p->bq[b].v);
        p->bq[b].last_row = -1;
        if (!p->bq[b].v) goto oom;
    }
    /* flat bank = (unit x bank groups + bg) x banks per group + bank: visit the banks of one
     * position in every bank group before the next position */
    uint32_t bpg = (uint32_t)s->banks_per_group, nbg = p->nbanks / bpg, k = 0;
    p->nbg = nbg;
    for (uint32_t i = 0; i < bpg; i++)
        for (uint32_t gix = 0; gix < nbg; gix++) p->order[k++] = gix * bpg + i;
    return p;
oom:
    wg_destroy(p);
    return ws_fail(e, "out of memory"), NULL;
}

#define MODE_CREATE(fn, m)                                                                         \
    static void *fn(const struct mc_policy_env *env, struct cfg *c, struct ws_err *e) {            \
        return wg_create_mode(env, c, m, e);                                                       \
    }
MODE_CREATE(frfcfs_cq_create, WG_FRFCFS)
MODE_CREATE(wafcfs_create, WG_WAFCFS)
MODE_CREATE(basjf_create, WG_BASJF)
MODE_CREATE(basjf_ab_create, WG_BASJF_AB)
MODE_CREATE(merb_create, WG_MERB)
MODE_CREATE(merb_wawd_create, WG_MERB_WAWD)
MODE_CREATE(ideal_create, WG_IDEAL)
#undef MODE_CREATE

static inline struct mc_req *link_next(const struct mc_req *r) {
    return (struct mc_req *)(uintptr_t)r->scratch[WG_NEXT];
}

/* ---- batching unit ---- */

static void wg_enqueue(void *st, const struct mc_view *v, struct mc_req *r) {
    struct wg *p = st;
    memset(r->scratch, 0, sizeof r->scratch);
    if (r->is_write) return;
    if (p->mode == WG_FRFCFS) { /* no batching unit: WG_GROUP only marks "not admitted" */
        r->scratch[WG_GROUP] = 1;
        p->waiting++;
        mcv_request_wake(v, r->arrive);
        return;
    }
    if (p->wt) warp_table_inc(p->wt, warp_table_id(p->wt, &r->r.o));
    uint64_t key = (uint64_t)r->r.o.sm << 32 | r->r.o.warp_slot, now = r->arrive;
    uint32_t cam = (uint32_t)p->cfg.groups, free_ix = WG_NO, ix = WG_NO;
    for (uint32_t i = 0; i < cam; i++) {
        struct group *g = &p->g[i];
        if (!g->used) {
            if (free_ix == WG_NO) free_ix = i;
        } else if (g->key == key && g->n && now < g->ready) {
            ix = i; /* still forming */
            break;
        }
    }
    bool alone = false;
    if (ix == WG_NO) {
        ix = free_ix;
        if (ix == WG_NO) { /* CAM full: a group of its own, complete at once */
            for (ix = cam; p->g[ix].used; ix++) {
            }
            alone = true;
            p->st.cam_full++;
        }
        p->g[ix] = (struct group){.used = true, .key = key, .first = now};
        if (alone) p->g[ix].first = now - (uint64_t)p->cfg.window;
        p->g[ix].ready = alone ? now : p->up ? now + WG_ORACLE_MAX : now + (uint64_t)p->cfg.window;
        p->st.groups++;
    }
    struct group *g = &p->g[ix];
    g->last = now;
    if (g->tail)
        g->tail->scratch[WG_NEXT] = (uint64_t)(uintptr_t)r;
    else
        g->head = r;
    g->tail = r;
    g->n++;
    r->scratch[WG_GROUP] = ix + 1;
    p->st.members++;
    if (p->cfg.close == WG_CLOSE_LAST && !alone) g->ready = now + (uint64_t)p->cfg.window;
    if (g->ready > now) mcv_request_wake(v, p->up ? now + 1 : g->ready);
}

static bool complete(const struct group *g, uint64_t now) {
    return g->used && g->n && now >= g->ready;
}

/* Whether bank b's command queue can take another read (mc.wg.bank_q). */
static bool room(const struct wg *p, uint32_t b) {
    return p->bq[b].n < (uint32_t)p->cfg.bank_q;
}

/* Row the next request admitted to bank b will follow. */
static int32_t prev_row(const struct wg *p, const struct mc_view *v, uint32_t b) {
    return p->bq[b].n ? p->bq[b].last_row : mcv_open_row(v, b);
}

/* BASJF's score of a group (Sec. 2.5): max over its requests of cost + bank queue score +
 * earlier same-group costs to that bank; *hits gets its predicted row hits; *miss_bank the bank
 * of its first predicted miss (WG_NO for none). */
static int64_t score(struct wg *p, const struct mc_view *v, const struct group *g, uint32_t *hits,
                     uint32_t *miss_bank) {
    int64_t best = 0;
    *hits = 0;
    *miss_bank = WG_NO;
    for (const struct mc_req *r = g->head; r; r = link_next(r)) {
        p->tmp_row[r->bank] = prev_row(p, v, r->bank);
        p->tmp_cost[r->bank] = p->bq[r->bank].score;
    }
    for (const struct mc_req *r = g->head; r; r = link_next(r)) {
        uint32_t b = r->bank;
        bool hit = p->tmp_row[b] == (int32_t)r->da.row;
        p->tmp_cost[b] += hit ? p->cfg.hit_cost : p->cfg.miss_cost;
        p->tmp_row[b] = (int32_t)r->da.row;
        if (hit)
            (*hits)++;
        else if (*miss_bank == WG_NO)
            *miss_bank = b;
        if (p->tmp_cost[b] > best) best = p->tmp_cost[b];
    }
    return best;
}

/* Whether some unadmitted read of the group has room in its bank queue. */
static bool admissible(const struct wg *p, const struct group *g) {
    for (const struct mc_req *r = g->head; r; r = link_next(r))
        if (room(p, r->bank)) return true;
    return false;
}

/* The transaction scheduler's choice among complete groups (WG_NO when there is none); with
 * need_room, among those with a read it can admit now. */
/* MERB's supply of row hits (digest Sec. 2.7, MERB_AGG): per bank, the predicted hits queued
 * in its command queue plus those the transaction scheduler is about to enqueue (the unadmitted
 * reads of the groups in service and suspended, to the row the bank will have open); *total is
 * their sum. */
static void merb_hits(struct wg *p, const struct mc_view *v, uint64_t *total) {
    *total = 0;
    for (uint32_t b = 0; b < p->nbanks; b++) {
        p->tmp_hits[b] = p->bq[b].hits;
        p->tmp_row[b] = prev_row(p, v, b);
    }
    uint32_t ids[WG_MAX_SUSPEND + 1], n = 0;
    if (p->cur != WG_NO) ids[n++] = p->cur;
    for (uint32_t i = 0; i < p->nsusp; i++) ids[n++] = p->susp[i];
    for (uint32_t k = 0; k < n; k++)
        for (const struct mc_req *r = p->g[ids[k]].head; p->g[ids[k]].used && r; r = link_next(r)) {
            p->tmp_hits[r->bank] += p->tmp_row[r->bank] == (int32_t)r->da.row;
            p->tmp_row[r->bank] = (int32_t)r->da.row;
        }
    for (uint32_t b = 0; b < p->nbanks; b++) *total += p->tmp_hits[b];
}

enum pick_why { WHY_SCORE, WHY_COORD, WHY_AGE, WHY_MERB }; /* which rule chose the group */

/* MERB's rule runs in merb and merb-wawd; Ideal Coordination is BASJF+AB's oracle, without it. */
static inline bool merb_on(const struct wg *p) {
    return p->mode == WG_MERB || p->mode == WG_MERB_WAWD;
}

/* Counts a choice the transaction scheduler acted on (a candidate that preemption turned down
 * is not counted). */
static void count_pick(struct wg *p, enum pick_why why) {
    p->st.picks++;
    if (why == WHY_COORD) p->st.coord_picks++;
    if (why == WHY_AGE) p->st.age_picks++;
    if (why == WHY_MERB) p->st.merb_picks++;
}

static uint32_t select_group(struct wg *p, const struct mc_view *v, uint64_t now, bool need_room,
                             enum pick_why *why) {
    *why = WHY_SCORE;
    uint32_t oldest = WG_NO, best = WG_NO, merb = WG_NO, coord = WG_NO;
    int64_t best_score = 0;
    uint32_t best_hits = 0;
    uint64_t hits_all = 0;
    if (merb_on(p)) merb_hits(p, v, &hits_all);
    for (uint32_t i = 0; i < p->ng; i++) {
        const struct group *g = &p->g[i];
        if (!complete(g, now) || (need_room && !admissible(p, g))) continue;
        if (oldest == WG_NO || g->first < p->g[oldest].first) oldest = i;
        if (p->wt && warp_table_marked(p->wt, warp_table_id(p->wt, &g->head->r.o)) &&
            (coord == WG_NO || g->first < p->g[coord].first))
            coord = i;
        if (p->mode == WG_WAFCFS) continue;
        uint32_t hits, mb;
        int64_t s = score(p, v, g, &hits, &mb);
        if (best == WG_NO || s < best_score || (s == best_score && hits > best_hits) ||
            (s == best_score && hits == best_hits && g->first < p->g[best].first))
            best = i, best_score = s, best_hits = hits;
        if (merb_on(p) && mb != WG_NO && (merb == WG_NO || g->first < p->g[merb].first)) {
            /* MERB (aggregate): predicted hits in the other banks hide its miss */
            uint64_t h = hits_all - p->tmp_hits[mb];
            if ((int64_t)h * p->nbl >= p->merb_hide) merb = i;
        }
    }
    if (oldest == WG_NO || p->mode == WG_WAFCFS) return oldest;
    if (coord != WG_NO) {
        *why = WHY_COORD;
        return coord;
    }
    if (p->mode >= WG_BASJF_AB && now - p->g[oldest].first > (uint64_t)p->cfg.age) {
        *why = WHY_AGE;
        return oldest;
    }
    if (merb != WG_NO) {
        *why = WHY_MERB;
        return merb;
    }
    return best;
}

/* Moves read r into its bank's command queue, predicting hit or miss against the row the bank
 * will have open when r gets there. */
static void enqueue_bank(struct wg *p, const struct mc_view *v, struct mc_req *r) {
    struct bankq *q = &p->bq[r->bank];
    bool hit = prev_row(p, v, r->bank) == (int32_t)r->da.row;
    int64_t cost = hit ? p->cfg.hit_cost : p->cfg.miss_cost;
    r->scratch[WG_COST] = (uint64_t)cost;
    r->scratch[WG_HIT] = hit ? WG_HIT_BIT : 0;
    r->scratch[WG_GROUP] = 0;
    q->v[(q->head + q->n) % p->cap] = r;
    q->n++;
    q->score += cost;
    q->last_row = (int32_t)r->da.row;
    q->hits += hit;
    q->streak = hit ? q->streak + 1 : 0;
    p->st.admitted++;
}

/* Takes read r (prev: its predecessor in the list) out of group gi and into its bank queue. */
static void admit_req(struct wg *p, const struct mc_view *v, uint32_t gi, struct mc_req *r,
                      struct mc_req *prev) {
    struct group *g = &p->g[gi];
    if (prev)
        prev->scratch[WG_NEXT] = r->scratch[WG_NEXT];
    else
        g->head = link_next(r);
    if (g->tail == r) g->tail = prev;
    g->started = true;
    if (--g->n == 0) {
        /* the slot is free for a new group, which must be selected in its turn: it is no
         * longer the one in service or a suspended one */
        g->used = false;
        if (p->cur == gi) p->cur = WG_NO;
        uint32_t k = 0;
        for (uint32_t i = 0; i < p->nsusp; i++)
            if (p->susp[i] != gi) p->susp[k++] = p->susp[i];
        p->nsusp = k;
    }
    enqueue_bank(p, v, r);
}

/* Moves the group's oldest unadmitted request into its bank's command queue; with `bounded`,
 * the oldest one whose bank queue has room (false when none has). */
static bool admit_one(struct wg *p, const struct mc_view *v, uint32_t gi, bool bounded) {
    struct mc_req *r = p->g[gi].head, *prev = NULL;
    while (bounded && r && !room(p, r->bank)) prev = r, r = link_next(r);
    if (!r) return false;
    admit_req(p, v, gi, r, prev);
    return true;
}

/* The thesis's baseline transaction scheduler (Sec. 4.2.3; digest 4.2): FR-FCFS over the whole
 * read queue into the same in-order bank queues as the warp-aware schedulers. A read older than
 * mc.cq.age goes first; else the oldest predicted row hit (its row is the one its bank will have
 * open when it reaches the queue's head) in a bank whose hit streak is under mc.cq.streak; else
 * the oldest read. Only reads whose bank queue has room are candidates. */
static void admit_frfcfs(struct wg *p, const struct mc_view *v, uint64_t now) {
    struct mc_req *oldest = NULL, *hit = NULL;
    bool capped = false;
    for (struct mc_req *r = mcv_head(v, MC_READQ); r; r = r->qnext) {
        if (!r->scratch[WG_GROUP]) continue; /* admitted already */
        const struct bankq *q = &p->bq[r->bank];
        if (!room(p, r->bank)) continue;
        if (!oldest) {
            oldest = r;
            if (now - r->arrive > (uint64_t)p->cfg.cq_age) break;
        }
        if (prev_row(p, v, r->bank) == (int32_t)r->da.row) {
            if (q->streak < (uint32_t)p->cfg.cq_streak) {
                hit = r;
                break;
            }
            capped = true;
        }
    }
    if (!oldest) return;
    struct mc_req *r = oldest;
    if (now - oldest->arrive > (uint64_t)p->cfg.cq_age)
        p->st.cq_age_picks++;
    else if (hit) {
        r = hit;
        if (hit != oldest) p->st.cq_hit_picks++;
    } else if (capped)
        p->st.cq_streak_stops++;
    enqueue_bank(p, v, r);
    p->waiting--;
}

/* Ideal coordination: the group this controller starts to service names its warp to every other
 * controller at once, replacing the warp it named before. */
static void announce(struct wg *p, uint32_t gi) {
    if (!p->wt) return;
    uint32_t id = warp_table_id(p->wt, &p->g[gi].head->r.o);
    if (id == p->sel) return;
    if (p->sel != WG_NO) warp_table_unmark(p->wt, p->sel);
    warp_table_mark(p->wt, id);
    p->sel = id;
}

/* The next group to admit from: the current one, else a suspended one, else a new choice. */
static uint32_t current(struct wg *p, const struct mc_view *v, uint64_t now) {
    if (p->cur != WG_NO && p->g[p->cur].used && p->g[p->cur].n) return p->cur;
    p->cur = WG_NO;
    while (p->nsusp && p->cur == WG_NO) {
        uint32_t s = p->susp[--p->nsusp];
        if (p->g[s].used && p->g[s].n) p->cur = s;
    }
    if (p->nsusp == 0 && p->cur == WG_NO) p->overrides = 0;
    if (p->cur == WG_NO) {
        enum pick_why why;
        p->cur = select_group(p, v, now, false, &why);
        if (p->cur != WG_NO) {
            count_pick(p, why);
            announce(p, p->cur);
        }
    }
    return p->cur;
}

/* BASJF preemption: a complete group whose score undercuts the in-service one's by more than
 * mc.basjf.preempt suspends it (at most WG_MAX_SUSPEND times before the suspended drain). */
static void maybe_preempt(struct wg *p, const struct mc_view *v, uint64_t now) {
    if (p->mode == WG_WAFCFS) return;
    bool fresh = false; /* a group completed since the last check: only it can preempt */
    for (uint32_t i = 0; i < p->ng && !fresh; i++)
        fresh = complete(&p->g[i], now) && p->g[i].ready > p->preempt_seen;
    p->preempt_seen = now;
    if (!fresh || p->cur == WG_NO || p->overrides >= WG_MAX_SUSPEND) return;
    enum pick_why why;
    uint32_t h, mb, cand = select_group(p, v, now, false, &why);
    if (cand == WG_NO || cand == p->cur) return;
    int64_t cs = score(p, v, &p->g[p->cur], &h, &mb), ns = score(p, v, &p->g[cand], &h, &mb);
    if (ns + p->cfg.preempt >= cs) return;
    count_pick(p, why);
    p->susp[p->nsusp++] = p->cur;
    p->overrides++;
    p->cur = cand;
    announce(p, cand);
    p->st.preemptions++;
}

/* Admits the group's next read to go ahead of the write drain (WAWD). */
static void admit_ahead(struct wg *p, const struct mc_view *v, uint32_t gi) {
    struct mc_req *r = p->g[gi].head;
    admit_one(p, v, gi, false);
    r->scratch[WG_HIT] |= WG_AHEAD_BIT;
    p->bq[r->bank].ahead++;
    p->ahead++;
    p->st.wawd_admits++;
}

/* WAWD (Sec. 2.8, thesis Sec. 4.3.6): when the write queue reaches the trigger, and again when
 * the drain starts, the groups in service (partly sent to the bank queues) and complete
 * single-request groups go into the bank queues at once, marked to be served before the drain's
 * writes. */
static void wawd(struct wg *p, const struct mc_view *v, uint64_t now) {
    uint32_t ids[WG_MAX_SUSPEND + 1], n = 0;
    if (p->cur != WG_NO) ids[n++] = p->cur;
    for (uint32_t i = 0; i < p->nsusp; i++) ids[n++] = p->susp[i];
    for (uint32_t k = 0; k < n; k++)
        while (p->g[ids[k]].used && p->g[ids[k]].n) admit_ahead(p, v, ids[k]);
    /* and every other group partly sent: one a read of which was admitted while the group in
     * service waited for a full bank queue (admit's fallback) */
    for (uint32_t i = 0; i < p->ng; i++)
        while (p->g[i].used && p->g[i].started && p->g[i].n) admit_ahead(p, v, i);
    p->cur = WG_NO;
    p->nsusp = p->overrides = 0;
    /* the batching unit's CAM only: reads that found it full formed single-request groups of
     * their own (overflow), and with a deep read queue sending all of them ahead postpones the
     * drain by hundreds of reads */
    uint32_t left = (uint32_t)p->cfg.wawd_singles;
    for (uint32_t i = 0; i < (uint32_t)p->cfg.groups && left; i++)
        if (complete(&p->g[i], now) && p->g[i].n == 1 &&
            (!p->cfg.wawd_fit || room(p, p->g[i].head->bank)))
            admit_ahead(p, v, i), left--;
}

/* One admission per cycle: pick() runs every cycle while a group waits (the wakes below), and
 * a cycle in which the controller slept had no complete group to admit from. */
/* mc.wg.close = oracle: forming groups none of whose warp-loads has a request upstream are
 * complete now; the others are looked at again next cycle. */
static void oracle_close(struct wg *p, const struct mc_view *v, uint64_t now) {
    for (uint32_t i = 0; i < p->ng; i++) {
        struct group *g = &p->g[i];
        if (!g->used || !g->n || g->ready <= now) continue;
        bool up = false;
        for (const struct mc_req *r = g->head; r && !up; r = link_next(r))
            up = upstream_count(p->up, r->r.o.load_id) > 0;
        if (!up)
            g->ready = now;
        else if (g->ready == now + 1)
            p->st.oracle_timeouts++;
        mcv_request_wake(v, now + 1);
    }
}

static void admit(struct wg *p, const struct mc_view *v, uint64_t now) {
    if (p->up) oracle_close(p, v, now);
    if (p->mode == WG_MERB_WAWD) {
        /* triggered once per approach to the watermark (edge, not level: at the level the
         * write queue can sit for long, and WAWD would replace the scheduler) */
        bool drain = mcv_draining(v), start = drain && !p->was_draining;
        p->was_draining = drain;
        if ((int64_t)mcv_qlen(v, MC_WRITEQ) < p->wq_hi - p->cfg.wawd_margin)
            p->wawd_armed = true;
        else if (p->wawd_armed && !drain)
            wawd(p, v, now), p->wawd_armed = false;
        if (start) wawd(p, v, now);
    }
    if (p->admit_clock > now) return; /* this cycle's slot is used (dual command bus) */
    p->admit_clock = now + 1;
    if (p->mode == WG_FRFCFS) {
        admit_frfcfs(p, v, now);
    } else {
        maybe_preempt(p, v, now);
        uint32_t gi = current(p, v, now);
        if (gi != WG_NO && !admit_one(p, v, gi, true)) {
            /* every read of the group in service waits for a full bank queue: rather than
             * leave the other banks idle, admit from the best group that has a read with room */
            enum pick_why why;
            uint32_t alt = select_group(p, v, now, true, &why);
            if (alt != WG_NO) {
                admit_one(p, v, alt, true);
                count_pick(p, why);
            }
        }
    }
    if (p->waiting) mcv_request_wake(v, now + 1);
    for (uint32_t i = 0; i < p->ng; i++)
        if (p->g[i].used && p->g[i].n) { /* more to admit: next cycle, or when it completes */
            uint64_t at = complete(&p->g[i], now) ? now + 1 : p->g[i].ready;
            mcv_request_wake(v, at);
        }
}

static void wg_complete(void *st, const struct mc_view *v, const struct mc_req *r) {
    (void)v;
    struct wg *p = st;
    if (r->is_write) return;
    if (p->wt) warp_table_dec(p->wt, warp_table_id(p->wt, &r->r.o));
    struct bankq *q = &p->bq[r->bank];
    WS_ASSERT(q->n && q->v[q->head] == r, "warp-group scheduler: served a read out of bank order");
    q->head = (q->head + 1) % p->cap;
    q->n--;
    q->score -= (int64_t)r->scratch[WG_COST];
    q->hits -= (uint32_t)(r->scratch[WG_HIT] & WG_HIT_BIT);
    uint32_t ahead = (uint32_t)(r->scratch[WG_HIT] & WG_AHEAD_BIT) >> 1;
    q->ahead -= ahead;
    p->ahead -= ahead;
    if (!q->n) q->last_row = -1;
}

/* Writes in a drain: per bank the oldest row hit, else the oldest write; banks round-robin. */
static bool pick_write(struct wg *p, const struct mc_view *v, struct mc_choice *out) {
    const uint64_t *mask = mcv_bank_mask(v, MC_WRITEQ);
    for (uint32_t i = 1; i <= p->nbanks; i++) {
        uint32_t b = p->order[(p->rr + i) % p->nbanks];
        if (!(mask[b >> 6] >> (b & 63) & 1)) continue;
        int32_t open = mcv_open_row(v, b);
        struct mc_req *c = mcv_bank_head(v, MC_WRITEQ, b);
        for (struct mc_req *r = c; r && open >= 0; r = r->bnext)
            if ((int32_t)r->da.row == open) {
                c = r;
                break;
            }
        if (mcv_issuable(v, c)) {
            p->rr = (p->rr + i) % p->nbanks;
            mcv_choose(v, c, out);
            return true;
        }
    }
    return false;
}

static bool wg_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    struct wg *p = st;
    uint64_t now = mcv_now(v);
    admit(p, v, now);
    bool drain = mcv_draining(v);
    /* in a drain, the bank queues holding reads WAWD sent ahead of it serve their reads (up to
     * the last of those, in order) and the writes wait for them: no read-write turnarounds */
    for (uint32_t i = 1; i <= p->nbanks; i++) {
        uint32_t k = (p->rr + i) % p->nbanks, b = p->order[k];
        struct bankq *q = &p->bq[b];
        if (!q->n || (drain && !q->ahead) || !mcv_issuable(v, q->v[q->head])) continue;
        p->rr = k;
        mcv_choose(v, q->v[q->head], out);
        return true;
    }
    return drain && !p->ahead && pick_write(p, v, out);
}

static const void *wg_stats(const void *st) {
    return &((const struct wg *)st)->st;
}

#define WG_POLICY(sym, nm, fn, d, table, keytab, nkeytab)                                          \
    const struct mc_policy mc_policy_##sym = {                                                     \
        .name = nm,                                                                                \
        .doc = d,                                                                                  \
        .keys = keytab,                                                                            \
        .nkeys = nkeytab,                                                                          \
        .family_keys = wg_keys,                                                                    \
        .nfamily_keys = CFG_COUNT(wg_keys),                                                        \
        .create = fn,                                                                              \
        .destroy = wg_destroy,                                                                     \
        .pick = wg_pick,                                                                           \
        .on_enqueue = wg_enqueue,                                                                  \
        .on_complete = wg_complete,                                                                \
        .stat_desc = wg_stat_desc,                                                                 \
        .nstat = CFG_COUNT(wg_stat_desc),                                                          \
        .stat_size = sizeof(struct wg_stats),                                                      \
        .stats = wg_stats,                                                                         \
        .warp_table = table,                                                                       \
    };
WG_POLICY(frfcfs_cq, "frfcfs-cq", frfcfs_cq_create,
          "FR-FCFS transaction scheduler over in-order bank command queues, with an age "
          "threshold and a row-hit streak cap (seed 002's baseline; mc.cq.*, mc.wg.bank_q)",
          false, cq_keys, CFG_COUNT(cq_keys))
WG_POLICY(wafcfs, "wafcfs", wafcfs_create,
          "warp-aware FCFS: oldest complete warp-group into in-order bank queues (seed 002)", false,
          basjf_keys, CFG_COUNT(basjf_keys))
WG_POLICY(basjf, "basjf", basjf_create,
          "bank-aware shortest-job-first over warp-groups (seed 002; mc.basjf.*)", false,
          basjf_keys, CFG_COUNT(basjf_keys))
WG_POLICY(basjf_ab, "basjf-ab", basjf_ab_create,
          "BASJF with age bias: groups older than mc.basjf.age first (seed 002)", false, basjf_keys,
          CFG_COUNT(basjf_keys))
WG_POLICY(merb, "merb", merb_create,
          "BASJF+AB + minimum efficient row burst: misses when queued hits hide them (seed 002)",
          false, basjf_keys, CFG_COUNT(basjf_keys))
WG_POLICY(merb_wawd, "merb-wawd", merb_wawd_create,
          "MERB + warp-aware write drain: groups in service go before a drain (seed 002)", false,
          basjf_keys, CFG_COUNT(basjf_keys))
WG_POLICY(basjf_ideal, "basjf-ideal", ideal_create,
          "BASJF+AB with ideal coordination: a selected warp goes first in every controller "
          "(seed 002's oracle)",
          true, basjf_keys, CFG_COUNT(basjf_keys))
#undef WG_POLICY
