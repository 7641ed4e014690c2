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

/* Each bank offers its oldest request (one class); the oldest ready offer goes first. */
static struct mc_req *fcfs_bank_cand(void *st, const struct mc_view *v, enum mc_q q, uint32_t bank,
                                     unsigned *cls, uint64_t *key) {
    (void)st;
    struct mc_req *r = mcv_bank_head(v, q, bank);
    *cls = 0;
    if (r) *key = r->seq;
    return r;
}

static bool fcfs_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    (void)st;
    uint32_t b = mcv_cand_min(v, 0);
    if (b == UINT32_MAX) return false;
    mcv_choose(v, mcv_cand(v, b), out);
    return true;
}

const struct mc_policy mc_policy_fcfs = {
    .name = "fcfs",
    .doc = "first-come first-served: in arrival order within each bank, oldest ready bank first",
    .create = fcfs_create,
    .destroy = fcfs_destroy,
    .pick = fcfs_pick,
    .bank_cand = fcfs_bank_cand,
    .pick_class_min = true,
};
