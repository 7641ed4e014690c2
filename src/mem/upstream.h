/* Per warp-load, the requests still on their way to the memory controllers: an oracle for seed
 * 002's batching unit (mc.wg.close = oracle), which then declares a warp-group complete when no
 * request of its warp-load can still arrive, instead of after a time window.
 *
 * The GPU counts a global load's line requests when the LDST unit creates them and takes one off
 * when its fate no longer involves a controller queue of its own: an L1 hit or a merge into an
 * L1 miss already pending, an L2 hit or merge, or the last burst of its L2 miss entering a
 * controller (an L1 miss hands the count to its fetch, which carries the same warp-load id). A
 * load id not counted (atomics, writes, traces without ids) reads as 0. */
#pragma once

#include <stdint.h>

struct upstream;

struct upstream *upstream_create(void);
void upstream_destroy(struct upstream *u);

void upstream_add(struct upstream *u, uint64_t load_id, uint32_t n);
/* One request of load_id is no longer upstream; an id not counted is ignored. */
void upstream_sub(struct upstream *u, uint64_t load_id);
uint32_t upstream_count(const struct upstream *u, uint64_t load_id);
/* Warp-loads with requests upstream now. */
uint32_t upstream_loads(const struct upstream *u);
