/* FCFS: requests are served strictly in arrival order within each bank (no row-hit reordering);
 * across banks the oldest request whose next command can issue goes first, so banks still work
 * in parallel. The baseline "FCFS" of seed 000 Fig. 9 and seed 002 Ch. 4. */
#include <stdlib.h>

#include "mem/mc/policy.h"

struct fcfs {
    int unused;
};

static void *fcfs_create(const struct mc_policy_env *env, struct cfg *c, struct ws_err *e) {
    (void)env, (void)c;
    struct fcfs *p = calloc(1, sizeof *p);
    if (!p) ws_fail(e, "out of memory");
    return p;
}

static void fcfs_destroy(void *st) {
    free(st);
}

static bool fcfs_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    (void)st;
    enum mc_q q = mcv_draining(v) ? MC_WRITEQ : MC_READQ;
    const uint64_t *mask = mcv_bank_mask(v, q);
    uint32_t nwords = (mcv_nbanks(v) + 63) / 64;
    struct mc_req *best = NULL;
    for (uint32_t w = 0; w < nwords; w++)
        for (uint64_t bits = mask[w]; bits; bits &= bits - 1) {
            struct mc_req *r = mcv_bank_head(v, q, w * 64 + (uint32_t)__builtin_ctzll(bits));
            if ((!best || r->seq < best->seq) && mcv_issuable(v, r)) best = r;
        }
    if (!best) return false;
    mcv_choose(v, best, out);
    return true;
}

const struct mc_policy mc_policy_fcfs = {
    .name = "fcfs",
    .doc = "first-come first-served: in arrival order within each bank, oldest ready bank first",
    .create = fcfs_create,
    .destroy = fcfs_destroy,
    .pick = fcfs_pick,
};
