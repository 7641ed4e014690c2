/* FR-FCFS (Rixner et al., ISCA 2000): first-ready row hits first, then oldest first; the
 * throughput-oriented baseline of every seed. Selection logic in frfcfs_core.h. */
#include <stdlib.h>

#include "mem/mc/frfcfs_core.h"

static void *frfcfs_create(const struct mc_policy_env *env, struct cfg *c, struct ws_err *e) {
    (void)env, (void)c;
    void *p = calloc(1, 1);
    if (!p) ws_fail(e, "out of memory");
    return p;
}

static void frfcfs_destroy(void *st) {
    free(st);
}

static struct mc_req *frfcfs_bank_cand(void *st, const struct mc_view *v, enum mc_q q,
                                       uint32_t bank, unsigned *cls, uint64_t *key) {
    (void)st;
    return frfcfs_cand(v, q, bank, 0, cls, key);
}

static uint32_t frfcfs_no_cap(const void *st) {
    (void)st;
    return 0;
}

static bool frfcfs_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    (void)st;
    return frfcfs_oldest_ready(v, out);
}

const struct mc_policy mc_policy_frfcfs = {
    .name = "frfcfs",
    .doc = "FR-FCFS: oldest ready row hit first, then oldest ready request",
    .create = frfcfs_create,
    .destroy = frfcfs_destroy,
    .pick = frfcfs_pick,
    .bank_cand = frfcfs_bank_cand,
    .pick_class_min = true,
    .frfcfs_cap = frfcfs_no_cap,
};
