/* USIMM adapter: presents the mc.policy seam as USIMM v1.3's schedule(channel) interface
 * (usimm_api.h) and ships USIMM's default scheduler, FCFS with write drain (HI_WM 40, LO_WM 20:
 * drain while the write queue is above LO_WM, forced when above HI_WM or when no read is
 * queued; issue the first issuable request of the chosen queue in arrival order). The watermarks
 * are config keys; the controller's own drain setting is not used by this policy. */
#include <stddef.h>
#include <stdlib.h>

#include "mem/mc/usimm_api.h"

struct usimm_ctx {
    const struct mc_view *v;
    struct mc_choice *out;
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

int usimm_issue_request_command(struct usimm_ctx *u, struct mc_req *r) {
    if (!usimm_command_issuable(u, r)) return 0;
    mcv_choose(u->v, r, u->out);
    u->issued = true;
    return 1;
}

static int bank_cmd(struct usimm_ctx *u, uint32_t bank, enum dram_cmd cmd, uint32_t row, bool go) {
    if (u->issued) return 0;
    struct dram_addr a;
    mcv_bank_addr(u->v, bank, &a);
    if (cmd == DRAM_ACT) a.row = row;
    if (mcv_cmd_ready_at(u->v, cmd, &a) > mcv_now(u->v)) return 0;
    if (go) {
        *u->out = (struct mc_choice){NULL, cmd, a};
        u->issued = true;
    }
    return 1;
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

/* ---- USIMM's default scheduler (scheduler.c of v1.3, as the dissertation describes it) ---- */
struct usimm_fcfs {
    int64_t hi_wm, lo_wm;
    bool drain;
};

static void usimm_fcfs_schedule(void *state, struct usimm_ctx *u, int channel) {
    (void)channel;
    struct usimm_fcfs *s = state;
    int wq = usimm_write_queue_length(u), rq = usimm_read_queue_length(u);
    if (s->drain && wq <= s->lo_wm) s->drain = false;
    if (wq > s->hi_wm || (rq == 0 && wq > 0)) s->drain = true;
    struct mc_req *r = s->drain ? usimm_write_queue_head(u) : usimm_read_queue_head(u);
    for (; r; r = r->qnext)
        if (usimm_issue_request_command(u, r)) return;
}

/* ---- the mc.policy wrapper ---- */
struct usimm_policy {
    struct usimm_fcfs fcfs;
    int channel;
};

static const struct cfg_key usimm_keys[] = {
    {"mc.usimm.hi_wm", CFG_INT, offsetof(struct usimm_policy, fcfs.hi_wm), "40", 0, 4096, NULL,
     "requests", "USIMM HI_WM: drain writes when the write queue exceeds this"},
    {"mc.usimm.lo_wm", CFG_INT, offsetof(struct usimm_policy, fcfs.lo_wm), "20", 0, 4096, NULL,
     "requests", "USIMM LO_WM: stop draining at or below this"},
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
    return p;
}

static void usimm_destroy(void *st) {
    free(st);
}

static bool usimm_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    struct usimm_policy *p = st;
    struct usimm_ctx u = {v, out, false};
    usimm_fcfs_schedule(&p->fcfs, &u, p->channel);
    return u.issued;
}

const struct mc_policy mc_policy_usimm = {
    .name = "usimm",
    .doc = "USIMM v1.3 schedule(channel) adapter running USIMM's default FCFS + write drain",
    .keys = usimm_keys,
    .nkeys = CFG_COUNT(usimm_keys),
    .create = usimm_create,
    .destroy = usimm_destroy,
    .pick = usimm_pick,
};
