/* Div-First (seed 000 Fig. 9's comparison point): divergence first, with no regard to row hits.
 * A read that is the last pending request of its warp-load (n_pending == 1 in the shared WET:
 * the request its warp is still waiting for) is urgent. Each bank offers its oldest urgent read,
 * else its oldest request (arrival order, as FCFS); among banks whose offer can issue, urgent
 * offers go first, oldest first, then the others oldest first. Row hits get no preference, which
 * is what the paper shows costs bandwidth (-6.0 % IPC vs FR-FCFS on average). */
#include <stddef.h>
#include <stdlib.h>

#include "mem/mc/warp_track.h"

struct df_stats {
    uint64_t decisions, urgent_issued, urgent_bypass;
};

struct df {
    struct warp_table *wt;
    uint32_t nbanks;
    struct df_stats st;
};

#define SD(f, doc)                                                                                 \
    { #f, STAT_COUNTER, offsetof(struct df_stats, f), "cmd", doc }
static const struct stat_desc df_stat_desc[] = {
    SD(decisions, "commands the scheduler chose for a queued request"),
    SD(urgent_issued, "decisions for a read that was the last pending request of its warp"),
    SD(urgent_bypass, "decisions where an urgent read went before an older issuable offer"),
};
#undef SD

static void *df_create(const struct mc_policy_env *env, struct cfg *c, struct ws_err *e) {
    (void)c;
    struct df *p = calloc(1, sizeof *p);
    if (!p) return ws_fail(e, "out of memory"), NULL;
    p->wt = env->wt;
    p->nbanks = env->nbanks;
    return p;
}

static void df_destroy(void *st) {
    free(st);
}

static void df_enqueue(void *st, const struct mc_view *v, struct mc_req *r) {
    (void)v;
    wt_track_enqueue(((struct df *)st)->wt, r);
}

static void df_complete(void *st, const struct mc_view *v, const struct mc_req *r) {
    (void)v;
    wt_track_complete(((struct df *)st)->wt, r);
}

static bool df_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    struct df *p = st;
    enum mc_q q = mcv_draining(v) ? MC_WRITEQ : MC_READQ;
    const uint64_t *mask = mcv_bank_mask(v, q);
    struct mc_req *urgent = NULL, *other = NULL;
    for (uint32_t b = 0; b < p->nbanks; b++) {
        if (!(mask[b >> 6] >> (b & 63) & 1)) continue;
        struct mc_req *offer = mcv_bank_head(v, q, b);
        for (struct mc_req *r = offer; r; r = r->bnext)
            if (wt_is_last(p->wt, r)) {
                offer = r;
                break;
            }
        if (!mcv_issuable(v, offer)) continue;
        struct mc_req **slot = wt_is_last(p->wt, offer) ? &urgent : &other;
        if (!*slot || offer->seq < (*slot)->seq) *slot = offer;
    }
    struct mc_req *r = urgent ? urgent : other;
    if (!r) return false;
    p->st.decisions++;
    if (urgent) {
        p->st.urgent_issued++;
        if (other && other->seq < urgent->seq) p->st.urgent_bypass++;
    }
    mcv_choose(v, r, out);
    return true;
}

static const void *df_stats(const void *st) {
    return &((const struct df *)st)->st;
}

const struct mc_policy mc_policy_div_first = {
    .name = "div-first",
    .doc = "Div-First: a warp's last pending read first, no row-hit preference (seed 000)",
    .create = df_create,
    .destroy = df_destroy,
    .pick = df_pick,
    .on_enqueue = df_enqueue,
    .on_complete = df_complete,
    .warp_table = true,
    .stat_desc = df_stat_desc,
    .nstat = CFG_COUNT(df_stat_desc),
    .stat_size = sizeof(struct df_stats),
    .stats = df_stats,
};
