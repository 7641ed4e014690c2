/* Warp alias table (WAT) and warp entry table (WET) of Warped-MC (seed 000 Sec. 4.2, Fig. 8):
 * global structures shared by every memory controller of one memory system. The WAT turns a
 * request's origin (SM id, warp slot in the SM, load PC) into a global warp id; the WET keeps,
 * per global warp id, n_pending: the requests of that warp-load still pending in any controller
 * queue (incremented when one enters a queue, decremented when it is served). A request whose
 * warp has n_pending == 1 is that warp's last (slowest) request.
 *
 * Hardware sizes are config keys with the paper's values as defaults: 1,024 entries (10-bit ids
 * for 32 SMs x 32 warps) of 6 bits. The counter saturates at 2^bits - 1 and never goes below 0,
 * and different warp-loads that alias to one entry share it, as the hardware would. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/cfg.h"
#include "base/err.h"
#include "mem/mem_req.h"

struct warp_table_cfg {
    int64_t entries; /* WET entries (a power of two) */
    int64_t bits;    /* width of n_pending */
    int64_t warps;   /* warp slots per SM in the WAT's id */
    int64_t pc_ways; /* loads of one warp told apart by hashed PC */
};
extern const struct cfg_key warp_table_keys[];
extern const unsigned warp_table_nkeys;

struct warp_table;

/* Binds mc.wet.* from c. */
struct warp_table *warp_table_create(struct cfg *c, struct ws_err *e);
void warp_table_destroy(struct warp_table *t);

/* WAT: the global warp id of a request's warp-load. */
uint32_t warp_table_id(const struct warp_table *t, const struct mem_origin *o);
/* WET: n_pending of an id after +1 / -1, and its current value. */
uint32_t warp_table_inc(struct warp_table *t, uint32_t id);
uint32_t warp_table_dec(struct warp_table *t, uint32_t id);
uint32_t warp_table_pending(const struct warp_table *t, uint32_t id);
/* Coordination marks (the "ideal coordination" oracle of seed 002, Sec. 4.5.1: a controller that
 * picks a warp-group sends the selected warp-ID to all others at once). A controller marks the
 * warp it selects and unmarks its previous selection; an id is marked while some controller's
 * current selection is that warp. */
void warp_table_mark(struct warp_table *t, uint32_t id);
void warp_table_unmark(struct warp_table *t, uint32_t id);
bool warp_table_marked(const struct warp_table *t, uint32_t id);
