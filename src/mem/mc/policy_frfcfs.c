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

static bool frfcfs_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    (void)st;
    return frfcfs_select(v, 0, out);
}

const struct mc_policy mc_policy_frfcfs = {
    .name = "frfcfs",
    .doc = "FR-FCFS: oldest ready row hit first, then oldest ready request",
    .create = frfcfs_create,
    .destroy = frfcfs_destroy,
    .pick = frfcfs_pick,
};
