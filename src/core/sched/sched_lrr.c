/* LRR, loose round robin: the first ready warp after the one issued last, in slot order
 * (GPGPU-Sim's "lrr"; the baseline of seed 000 Table 2). */
#include <stdlib.h>

#include "core/sched/sched.h"

struct lrr {
    uint32_t last; /* slot issued last; UINT32_MAX before the first issue */
};

static void *lrr_create(const struct sched_env *env, struct ws_err *e) {
    (void)env;
    struct lrr *p = malloc(sizeof *p);
    if (!p) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    p->last = UINT32_MAX;
    return p;
}

static void lrr_destroy(void *st) {
    free(st);
}

static int lrr_pick(void *st, const struct sched_view *v) {
    const struct lrr *p = st;
    if (v->nready == 0) return -1;
    /* Start after the last issued slot (the view is in slot order, so it may have gone). */
    uint32_t start = 0;
    if (p->last != UINT32_MAX)
        while (start < v->n && v->w[start].slot <= p->last) start++;
    for (uint32_t k = 0; k < v->n; k++) {
        uint32_t i = start + k < v->n ? start + k : start + k - v->n;
        if (v->w[i].ready) return (int)i;
    }
    return -1;
}

static void lrr_on_issue(void *st, const struct sched_warp *w, uint64_t now) {
    (void)now;
    ((struct lrr *)st)->last = w->slot;
}

const struct sched_policy sched_lrr = {
    .name = "lrr",
    .doc = "loose round robin: the first ready warp after the last one issued",
    .create = lrr_create,
    .destroy = lrr_destroy,
    .pick = lrr_pick,
    .on_issue = lrr_on_issue,
};
