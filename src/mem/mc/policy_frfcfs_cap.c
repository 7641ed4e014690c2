/* FR-FCFS with a row-hit cap (Mutlu & Moscibroda's FR-FCFS+Cap): once `cap` younger row hits have
 * gone past an older miss to the same bank, the next ones no longer do, which bounds the
 * starvation that plain FR-FCFS allows. Hits served before the miss arrived, or while no older
 * request waited, do not count. Selection logic in frfcfs_core.h. */
#include <stddef.h>
#include <stdlib.h>

#include "mem/mc/frfcfs_core.h"

struct frfcfs_cap {
    int64_t cap;
};

static const struct cfg_key cap_keys[] = {
    {"mc.frfcfs_cap.cap", CFG_INT, offsetof(struct frfcfs_cap, cap), "4", 1, 1024, NULL, "hits",
     "younger row hits that may go past an older miss to the same bank before it takes over"},
};

static void *cap_create(const struct mc_policy_env *env, struct cfg *c, struct ws_err *e) {
    (void)env;
    struct frfcfs_cap *p = calloc(1, sizeof *p);
    if (!p) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    if (cfg_bind(c, "mc.frfcfs_cap", cap_keys, CFG_COUNT(cap_keys), p, e) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

static void cap_destroy(void *st) {
    free(st);
}

static struct mc_req *cap_bank_cand(void *st, const struct mc_view *v, enum mc_q q, uint32_t bank,
                                    unsigned *cls, uint64_t *key) {
    const struct frfcfs_cap *p = st;
    return frfcfs_cand(v, q, bank, (uint32_t)p->cap, cls, key);
}

static uint32_t cap_of(const void *st) {
    return (uint32_t)((const struct frfcfs_cap *)st)->cap;
}

static bool cap_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    (void)st;
    return frfcfs_oldest_ready(v, out);
}

const struct mc_policy mc_policy_frfcfs_cap = {
    .name = "frfcfs-cap",
    .doc = "FR-FCFS with a cap on row hits that may bypass an older miss (mc.frfcfs_cap.cap)",
    .keys = cap_keys,
    .nkeys = CFG_COUNT(cap_keys),
    .create = cap_create,
    .destroy = cap_destroy,
    .pick = cap_pick,
    .bank_cand = cap_bank_cand,
    .pick_class_min = true,
    .frfcfs_cap = cap_of,
};
