/* WET bookkeeping shared by the warp-aware policies (Warped-MC, Div-First): a read entering a
 * controller queue adds one to its warp-load's n_pending, and leaves it when it is served. The
 * request remembers its WET entry in scratch[WT_SLOT] (entry + 1; 0 for writes, which no warp
 * waits on). */
#pragma once

#include "mem/mc/policy.h"
#include "mem/mc/warp_table.h"

enum { WT_SLOT = 0 };

static inline void wt_track_enqueue(struct warp_table *t, struct mc_req *r) {
    if (r->is_write) {
        r->scratch[WT_SLOT] = 0;
        return;
    }
    uint32_t id = warp_table_id(t, &r->r.o);
    warp_table_inc(t, id);
    r->scratch[WT_SLOT] = (uint64_t)id + 1;
}

static inline void wt_track_complete(struct warp_table *t, const struct mc_req *r) {
    if (r->scratch[WT_SLOT]) warp_table_dec(t, (uint32_t)(r->scratch[WT_SLOT] - 1));
}

/* n_pending of the request's warp-load (0 for writes). */
static inline uint32_t wt_pending(const struct warp_table *t, const struct mc_req *r) {
    return r->scratch[WT_SLOT] ? warp_table_pending(t, (uint32_t)(r->scratch[WT_SLOT] - 1)) : 0;
}

/* The last (slowest) pending request of its warp-load: Warped-MC's priority H, Div-First's
 * "urgent". */
static inline bool wt_is_last(const struct warp_table *t, const struct mc_req *r) {
    return t && wt_pending(t, r) == 1;
}
