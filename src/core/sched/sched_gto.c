/* GTO, greedy then oldest: keep issuing the warp issued last while it can issue, otherwise the
 * oldest ready warp (smallest dispatch age), which then becomes the greedy one (seed 001's and
 * seed 003's baseline). */
#include <stdlib.h>

#include "core/sched/sched.h"

struct gto {
    uint32_t last; /* slot issued last; UINT32_MAX before the first issue */
};

static void *gto_create(const struct sched_env *env, struct ws_err *e) {
    (void)env;
    struct gto *p = malloc(sizeof *p);
    if (!p) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    p->last = UINT32_MAX;
    return p;
}

static void gto_destroy(void *st) {
    free(st);
}

static int gto_pick(void *st, const struct sched_view *v) {
    const struct gto *p = st;
    if (v->nready == 0) return -1;
    int best = -1;
    for (uint32_t i = 0; i < v->n; i++) {
        const struct sched_warp *w = &v->w[i];
        if (!w->ready) continue;
        if (w->slot == p->last) return (int)i;
        if (best < 0 || w->age < v->w[best].age) best = (int)i;
    }
    return best;
}

static void gto_on_issue(void *st, const struct sched_warp *w, uint64_t now) {
    (void)now;
    ((struct gto *)st)->last = w->slot;
}

static void gto_on_warp_end(void *st, uint32_t slot) {
    struct gto *p = st;
    if (p->last == slot) p->last = UINT32_MAX; /* a new warp in that slot is not greedy */
}

const struct sched_policy sched_gto = {
    .name = "gto",
    .doc = "greedy then oldest: the warp issued last while it can issue, else the oldest ready",
    .create = gto_create,
    .destroy = gto_destroy,
    .pick = gto_pick,
    .on_issue = gto_on_issue,
    .on_warp_end = gto_on_warp_end,
};
