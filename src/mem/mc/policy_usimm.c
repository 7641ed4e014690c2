/* USIMM adapter: presents the mc.policy seam as USIMM v1.3's schedule(channel) interface
 * (usimm_api.h) and ships ports of USIMM's own schedulers, chosen by mc.usimm.scheduler:
 * - fcfs: USIMM's default (scheduler.c / scheduler-fcfs.c), FCFS with write drain (HI_WM 40,
 *   LO_WM 20: drain while the write queue is above LO_WM, forced when above HI_WM or when no read
 *   is queued; issue the first issuable request of the chosen queue in arrival order);
 * - close: USIMM's scheduler-close.c, that FCFS plus a crude close-page rule: in a cycle where
 *   no request's command issued, precharge a bank whose last command from the queues was a
 *   column access (the first such bank whose PRE is allowed, ranks then banks in order);
 * - close-ap: that FCFS, closing a row with auto-precharge (issue_autoprecharge) when the column
 *   command just issued leaves no queued request for it;
 * - fcfs-idle: that FCFS plus the at-large commands USIMM's API offers for idle ranks: in a cycle
 *   where nothing issued, a rank with nothing queued powers down (fast exit), and in the last
 *   tREFI + 8 tRFC of its refresh window (mc.refresh_mode = usimm) it takes the window's REFs
 *   ahead of the forced ones (powered up and closed with PREA first); the controller wakes a
 *   powered-down rank when a request for it arrives.
 * The watermarks are config keys; the controller's own drain setting is not used here. */
#include <stddef.h>
#include <stdlib.h>

#include "mem/mc/usimm_api.h"

struct usimm_policy {
    int64_t hi_wm, lo_wm;
    int scheduler; /* index into usimm_scheds[] */
    int channel;
    const struct usimm_sched *s;
    void *state;
    uint64_t st[USIMM_NST];
};

struct usimm_ctx {
    const struct mc_view *v;
    struct mc_choice *out;
    struct usimm_policy *p;
    bool issued;
};

struct mc_req *usimm_read_queue_head(struct usimm_ctx *u) {
    return mcv_head(u->v, MC_READQ);
}
struct mc_req *usimm_write_queue_head(struct usimm_ctx *u) {
    return mcv_head(u->v, MC_WRITEQ);
}
int usimm_read_queue_length(struct usimm_ctx *u) {
    return (int)mcv_qlen(u->v, MC_READQ);
}
int usimm_write_queue_length(struct usimm_ctx *u) {
    return (int)mcv_qlen(u->v, MC_WRITEQ);
}
enum dram_cmd usimm_next_command(struct usimm_ctx *u, const struct mc_req *r) {
    return mcv_next_cmd(u->v, r);
}
int usimm_command_issuable(struct usimm_ctx *u, const struct mc_req *r) {
    return !u->issued && mcv_issuable(u->v, r);
}
int usimm_command_issued_current_cycle(struct usimm_ctx *u) {
    return u->issued;
}
uint64_t usimm_cycle(struct usimm_ctx *u) {
    return mcv_now(u->v);
}
uint32_t usimm_num_banks(struct usimm_ctx *u) {
    return mcv_nbanks(u->v);
}
uint32_t usimm_num_units(struct usimm_ctx *u) {
    return mcv_nunits(u->v);
}
uint32_t usimm_unit_banks(struct usimm_ctx *u) {
    return mcv_unit_banks(u->v);
}
uint32_t usimm_unit_queued(struct usimm_ctx *u, uint32_t unit) {
    return mcv_unit_queued(u->v, unit);
}
unsigned usimm_power_state(struct usimm_ctx *u, uint32_t unit) {
    return mcv_powered_down(u->v, unit);
}
int32_t usimm_active_row(struct usimm_ctx *u, uint32_t bank) {
    return mcv_open_row(u->v, bank);
}
uint32_t usimm_num_issued_refreshes(struct usimm_ctx *u, uint32_t unit) {
    return mcv_ref_issued(u->v, unit);
}
int usimm_hi_wm(struct usimm_ctx *u) {
    return (int)u->p->hi_wm;
}
int usimm_lo_wm(struct usimm_ctx *u) {
    return (int)u->p->lo_wm;
}
void usimm_count(struct usimm_ctx *u, enum usimm_stat s) {
    u->p->st[s]++;
}

int usimm_issue_request_command(struct usimm_ctx *u, struct mc_req *r) {
    if (!usimm_command_issuable(u, r)) return 0;
    mcv_choose(u->v, r, u->out);
    u->issued = true;
    return 1;
}

/* The address of an at-large command to a rank unit (its first bank). */
static void unit_addr(struct usimm_ctx *u, uint32_t unit, struct dram_addr *a) {
    mcv_bank_addr(u->v, unit * mcv_unit_banks(u->v), a);
}

/* Whether at-large command `cmd` at `a` may issue now; when it could later, the controller is
 * asked to call again then (USIMM would ask every cycle). */
static int allowed(struct usimm_ctx *u, enum dram_cmd cmd, const struct dram_addr *a) {
    if (u->issued) return 0;
    uint64_t t = mcv_cmd_ready_at(u->v, cmd, a), now = mcv_now(u->v);
    if (t <= now) return 1;
    if (t != DRAM_NEVER) mcv_request_wake(u->v, t);
    return 0;
}

static int go(struct usimm_ctx *u, enum dram_cmd cmd, const struct dram_addr *a) {
    *u->out = (struct mc_choice){NULL, cmd, *a};
    u->issued = true;
    return 1;
}

static int bank_cmd(struct usimm_ctx *u, uint32_t bank, enum dram_cmd cmd, uint32_t row,
                    bool issue) {
    struct dram_addr a;
    mcv_bank_addr(u->v, bank, &a);
    if (cmd == DRAM_ACT) a.row = row;
    if (!allowed(u, cmd, &a)) return 0;
    return issue ? go(u, cmd, &a) : 1;
}

int usimm_is_precharge_allowed(struct usimm_ctx *u, uint32_t bank) {
    return bank_cmd(u, bank, DRAM_PRE, 0, false);
}
int usimm_issue_precharge_command(struct usimm_ctx *u, uint32_t bank) {
    return bank_cmd(u, bank, DRAM_PRE, 0, true);
}
int usimm_is_activate_allowed(struct usimm_ctx *u, uint32_t bank) {
    return bank_cmd(u, bank, DRAM_ACT, 0, false);
}
int usimm_issue_activate_command(struct usimm_ctx *u, uint32_t bank, uint32_t row) {
    return bank_cmd(u, bank, DRAM_ACT, row, true);
}

static int unit_cmd(struct usimm_ctx *u, uint32_t unit, enum dram_cmd cmd, bool issue) {
    struct dram_addr a;
    unit_addr(u, unit, &a);
    if (!allowed(u, cmd, &a)) return 0;
    return issue ? go(u, cmd, &a) : 1;
}

int usimm_is_all_bank_precharge_allowed(struct usimm_ctx *u, uint32_t unit) {
    return unit_cmd(u, unit, DRAM_PREA, false);
}
int usimm_issue_all_bank_precharge_command(struct usimm_ctx *u, uint32_t unit) {
    return unit_cmd(u, unit, DRAM_PREA, true);
}

/* USIMM: a REF needs no forced refresh under way and every bank past its refresh fence; here
 * also the window rules (mc.refresh_mode = usimm), closed, powered-up banks, and at most the
 * window's 8 (USIMM would take a 9th and move its deadline a further tRFC, but does not carry
 * it into the next window either). */
static int ref_cmd(struct usimm_ctx *u, uint32_t unit, bool issue) {
    if (mcv_ref_deadline(u->v, unit) == DRAM_NEVER || mcv_refreshing(u->v, unit) ||
        mcv_ref_issued(u->v, unit) >= 8)
        return 0;
    return unit_cmd(u, unit, DRAM_REF, issue);
}
int usimm_is_refresh_allowed(struct usimm_ctx *u, uint32_t unit) {
    return ref_cmd(u, unit, false);
}
int usimm_issue_refresh_command(struct usimm_ctx *u, uint32_t unit) {
    if (!ref_cmd(u, unit, true)) return 0;
    usimm_count(u, USIMM_ST_EARLY_REF);
    return 1;
}

/* USIMM's deadline rule for the power-mode commands: a power-down must be able to end (tPDmin
 * residency, then the exit) by the deadline, a power-up must end by it. */
static bool pd_fits(struct usimm_ctx *u, uint32_t unit, uint64_t span) {
    uint64_t dl = mcv_ref_deadline(u->v, unit);
    return dl == DRAM_NEVER || mcv_now(u->v) + span <= dl;
}
static int pd_cmd(struct usimm_ctx *u, uint32_t unit, bool slow, bool issue) {
    const struct dram_spec *s = mcv_spec(u->v);
    if (mcv_refreshing(u->v, unit) ||
        !pd_fits(u, unit, (uint64_t)(s->CKE + (slow ? s->XPDLL : s->XP))))
        return 0;
    return unit_cmd(u, unit, slow ? DRAM_PDES : DRAM_PDEF, issue);
}

int usimm_is_powerdown_fast_allowed(struct usimm_ctx *u, uint32_t unit) {
    return pd_cmd(u, unit, false, false);
}
int usimm_is_powerdown_slow_allowed(struct usimm_ctx *u, uint32_t unit) {
    return pd_cmd(u, unit, true, false);
}
int usimm_issue_powerdown_command(struct usimm_ctx *u, uint32_t unit, bool slow) {
    if (!pd_cmd(u, unit, slow, true)) return 0;
    usimm_count(u, USIMM_ST_PD);
    return 1;
}
static int pu_cmd(struct usimm_ctx *u, uint32_t unit, bool issue) {
    const struct dram_spec *s = mcv_spec(u->v);
    unsigned pd = mcv_powered_down(u->v, unit);
    if (!pd || mcv_refreshing(u->v, unit) ||
        !pd_fits(u, unit, (uint64_t)(pd == 2 ? s->XPDLL : s->XP)))
        return 0;
    return unit_cmd(u, unit, DRAM_PDX, issue);
}
int usimm_is_powerup_allowed(struct usimm_ctx *u, uint32_t unit) {
    return pu_cmd(u, unit, false);
}
int usimm_issue_powerup_command(struct usimm_ctx *u, uint32_t unit) {
    if (!pu_cmd(u, unit, true)) return 0;
    usimm_count(u, USIMM_ST_PU);
    return 1;
}

int usimm_is_autoprecharge_allowed(struct usimm_ctx *u, uint32_t bank) {
    const struct mc_choice *c = u->out;
    if (!u->issued || !c->req || c->req->bank != bank || (c->cmd != DRAM_RD && c->cmd != DRAM_WR))
        return 0;
    uint64_t dl = mcv_ref_deadline(u->v, c->req->unit);
    if (dl == DRAM_NEVER) return 1;
    const struct dram_spec *s = mcv_spec(u->v);
    uint64_t now = mcv_now(u->v);
    uint64_t start = now + (uint64_t)(c->cmd == DRAM_RD ? s->RTP : s->CWL + s->nBL + s->WR);
    uint64_t fence = mcv_cmd_ready_at(u->v, DRAM_PRE, &c->req->da);
    if (fence == DRAM_NEVER) return 0; /* PRE already held back: the deadline is too close */
    if (fence > start) start = fence;
    return start + (uint64_t)s->RP <= dl;
}
int usimm_issue_autoprecharge(struct usimm_ctx *u, uint32_t bank) {
    if (!usimm_is_autoprecharge_allowed(u, bank)) return 0;
    u->out->cmd = u->out->cmd == DRAM_RD ? DRAM_RDA : DRAM_WRA;
    return 1;
}

/* ---- the ported schedulers ---- */

/* USIMM's write-drain decision, shared by its schedulers; returns the queue to serve. */
struct drain {
    bool on;
};
static struct mc_req *fcfs_queue(struct drain *d, struct usimm_ctx *u) {
    int wq = usimm_write_queue_length(u), rq = usimm_read_queue_length(u);
    if (d->on && wq <= usimm_lo_wm(u)) d->on = false;
    if (wq > usimm_hi_wm(u) || (rq == 0 && wq > 0)) d->on = true;
    return d->on ? usimm_write_queue_head(u) : usimm_read_queue_head(u);
}

static void *drain_init(int channel, uint32_t nbanks, uint32_t nunits) {
    (void)channel, (void)nbanks, (void)nunits;
    return calloc(1, sizeof(struct drain));
}

static void fcfs_schedule(void *state, struct usimm_ctx *u, int channel) {
    (void)channel;
    for (struct mc_req *r = fcfs_queue(state, u); r; r = r->qnext)
        if (usimm_issue_request_command(u, r)) return;
}

/* scheduler-close.c: a bank is a candidate for closing once the scheduler sent it a column
 * command, and stops being one when it sends it an ACT or a PRE for a request. */
struct close_state {
    struct drain d;
    uint8_t *recent_col; /* [nbanks] */
};

static void *close_init(int channel, uint32_t nbanks, uint32_t nunits) {
    (void)channel, (void)nunits;
    struct close_state *c = calloc(1, sizeof *c);
    if (c && !(c->recent_col = calloc(nbanks, 1))) {
        free(c);
        return NULL;
    }
    return c;
}
static void close_free(void *state) {
    struct close_state *c = state;
    free(c->recent_col);
    free(c);
}

static void close_schedule(void *state, struct usimm_ctx *u, int channel) {
    (void)channel;
    struct close_state *c = state;
    for (struct mc_req *r = fcfs_queue(&c->d, u); r; r = r->qnext) {
        if (!usimm_command_issuable(u, r)) continue;
        enum dram_cmd cmd = usimm_next_command(u, r);
        c->recent_col[r->bank] = cmd == DRAM_RD || cmd == DRAM_WR;
        usimm_issue_request_command(u, r);
        return;
    }
    for (uint32_t b = 0, n = usimm_num_banks(u); b < n; b++) {
        if (!c->recent_col[b]) continue;
        if (usimm_active_row(u, b) < 0) {
            c->recent_col[b] = 0; /* closed meanwhile (a refresh's PREA): nothing to close */
            continue;
        }
        if (usimm_issue_precharge_command(u, b)) {
            usimm_count(u, USIMM_ST_AGGR_PRE);
            c->recent_col[b] = 0;
            return;
        }
    }
}

/* close-ap: a column command closes its row by auto-precharge when no other queued request
 * (either queue) wants that row. */
static bool row_wanted(struct usimm_ctx *u, const struct mc_req *r) {
    for (int q = 0; q < 2; q++)
        for (const struct mc_req *o = mcv_bank_head(u->v, (enum mc_q)q, r->bank); o; o = o->bnext)
            if (o != r && o->da.row == r->da.row) return true;
    return false;
}

static void close_ap_schedule(void *state, struct usimm_ctx *u, int channel) {
    (void)channel;
    for (struct mc_req *r = fcfs_queue(state, u); r; r = r->qnext) {
        if (!usimm_issue_request_command(u, r)) continue;
        if (!row_wanted(u, r)) usimm_issue_autoprecharge(u, r->bank);
        return;
    }
}

/* fcfs-idle: a rank with nothing queued refreshes early, then sleeps. */
static bool any_open(struct usimm_ctx *u, uint32_t unit) {
    uint32_t nb = usimm_unit_banks(u);
    for (uint32_t b = unit * nb; b < (unit + 1) * nb; b++)
        if (usimm_active_row(u, b) >= 0) return true;
    return false;
}

/* Whether unit's remaining REFs of the window may go now. USIMM lets a scheduler refresh at any
 * time, but DDR3 allows at most 9 x tREFI between two REFs of a rank (the checker's rule): if
 * all 8 went at a window's start and the next window's came forced at its end, 16 x tREFI would
 * separate them. The next window's first forced REF can come 8 tREFI - 8 tRFC after this one's
 * end E, so this window's last REF must come no earlier than E - tREFI - 8 tRFC; the scheduler
 * starts its early REFs from there (and asks to be called then). */
static bool refresh_phase(struct usimm_ctx *u, uint32_t unit) {
    uint64_t end = mcv_ref_window_end(u->v, unit);
    if (end == DRAM_NEVER || usimm_num_issued_refreshes(u, unit) >= 8) return false;
    const struct dram_spec *s = mcv_spec(u->v);
    uint64_t from = end - (uint64_t)s->REFI - 8 * (uint64_t)s->RFC;
    if (usimm_cycle(u) >= from) return true;
    mcv_request_wake(u->v, from);
    return false;
}

static void idle_schedule(void *state, struct usimm_ctx *u, int channel) {
    fcfs_schedule(state, u, channel);
    if (usimm_command_issued_current_cycle(u)) return;
    for (uint32_t unit = 0, n = usimm_num_units(u); unit < n; unit++) {
        if (usimm_unit_queued(u, unit)) continue;
        if (refresh_phase(u, unit)) {
            if (usimm_power_state(u, unit)) {
                if (usimm_issue_powerup_command(u, unit)) return;
            } else if (any_open(u, unit)) {
                if (usimm_issue_all_bank_precharge_command(u, unit)) return;
            } else if (usimm_issue_refresh_command(u, unit)) {
                return;
            }
        } else if (!usimm_power_state(u, unit) && usimm_issue_powerdown_command(u, unit, false)) {
            return;
        }
    }
}

static const struct usimm_sched usimm_scheds[] = {
    {"fcfs", "USIMM's default: FCFS with write drain", drain_init, fcfs_schedule, free},
    {"close", "USIMM's scheduler-close.c: FCFS, and an idle cycle closes a bank it read or wrote",
     close_init, close_schedule, close_free},
    {"close-ap", "FCFS; a column command no other queued request's row needs auto-precharges",
     drain_init, close_ap_schedule, free},
    {"fcfs-idle",
     "FCFS; an idle rank powers down, and late in its refresh window takes its REFs ahead of the "
     "forced ones",
     drain_init, idle_schedule, free},
};
enum { NSCHED = sizeof usimm_scheds / sizeof usimm_scheds[0] };
static const char *const usimm_sched_names[] = {"fcfs", "close", "close-ap", "fcfs-idle", NULL};
_Static_assert(sizeof usimm_sched_names / sizeof usimm_sched_names[0] == NSCHED + 1,
               "usimm_sched_names must list usimm_scheds");

/* ---- the mc.policy wrapper ---- */
static const struct cfg_key usimm_keys[] = {
    {"mc.usimm.hi_wm", CFG_INT, offsetof(struct usimm_policy, hi_wm), "40", 0, 4096, NULL,
     "requests", "USIMM HI_WM: drain writes when the write queue exceeds this"},
    {"mc.usimm.lo_wm", CFG_INT, offsetof(struct usimm_policy, lo_wm), "20", 0, 4096, NULL,
     "requests", "USIMM LO_WM: stop draining at or below this"},
    {"mc.usimm.scheduler", CFG_ENUM, offsetof(struct usimm_policy, scheduler), "fcfs", 0, 0,
     usimm_sched_names, "",
     "the ported USIMM scheduler: fcfs (USIMM's default), close (scheduler-close.c: an idle "
     "cycle precharges a bank after its column access), close-ap (auto-precharge when no queued "
     "request wants the row), fcfs-idle (an idle rank powers down, and late in its window takes "
     "its "
     "refreshes early under mc.refresh_mode = usimm)"},
};

static void *usimm_create(const struct mc_policy_env *env, struct cfg *c, struct ws_err *e) {
    struct usimm_policy *p = calloc(1, sizeof *p);
    if (!p) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    p->channel = (int)env->channel;
    if (cfg_bind(c, "mc.usimm", usimm_keys, CFG_COUNT(usimm_keys), p, e) != 0) {
        free(p);
        return NULL;
    }
    if (p->lo_wm >= p->hi_wm) {
        /* the drain would start and stop on the same write */
        char where[600];
        ws_fail(e, "%s: mc.usimm.lo_wm = %lld must be below mc.usimm.hi_wm = %lld",
                cfg_origin(c, cfg_raw(c, "mc.usimm.lo_wm") ? "mc.usimm.lo_wm" : "mc.usimm.hi_wm",
                           where, sizeof where),
                (long long)p->lo_wm, (long long)p->hi_wm);
        free(p);
        return NULL;
    }
    p->s = &usimm_scheds[p->scheduler];
    uint32_t nunits = (uint32_t)(env->spec->pseudo_channels * env->spec->ranks);
    p->state = p->s->init(p->channel, env->nbanks, nunits);
    if (!p->state) {
        free(p);
        ws_fail(e, "out of memory");
        return NULL;
    }
    return p;
}

static void usimm_destroy(void *st) {
    struct usimm_policy *p = st;
    if (!p) return;
    p->s->free(p->state);
    free(p);
}

static bool usimm_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    struct usimm_policy *p = st;
    struct usimm_ctx u = {v, out, p, false};
    p->s->schedule(p->state, &u, p->channel);
    return u.issued;
}

#define SD(f, i, doc)                                                                              \
    { #f, STAT_COUNTER, (i) * sizeof(uint64_t), "cmd", doc }
static const struct stat_desc usimm_stat_desc[] = {
    SD(aggr_precharges, USIMM_ST_AGGR_PRE,
       "precharges the close scheduler issued to banks idle after a column access"),
    SD(early_refreshes, USIMM_ST_EARLY_REF,
       "REFs the scheduler issued before its window's deadline (USIMM's refresh window)"),
    SD(powerdowns, USIMM_ST_PD, "power-down entries the scheduler issued"),
    SD(powerups, USIMM_ST_PU, "power-down exits the scheduler issued (not the controller's)"),
};
#undef SD
_Static_assert(sizeof usimm_stat_desc / sizeof usimm_stat_desc[0] == USIMM_NST,
               "usimm_stat_desc must describe every enum usimm_stat");

static const void *usimm_stats(const void *st) {
    return ((const struct usimm_policy *)st)->st;
}

const struct mc_policy mc_policy_usimm = {
    .name = "usimm",
    .doc = "USIMM v1.3 schedule(channel) adapter running a ported USIMM scheduler "
           "(mc.usimm.scheduler: fcfs, close, close-ap, fcfs-idle)",
    .keys = usimm_keys,
    .nkeys = CFG_COUNT(usimm_keys),
    .create = usimm_create,
    .destroy = usimm_destroy,
    .pick = usimm_pick,
    .stat_desc = usimm_stat_desc,
    .nstat = CFG_COUNT(usimm_stat_desc),
    .stat_size = sizeof(uint64_t[USIMM_NST]),
    .stats = usimm_stats,
};
