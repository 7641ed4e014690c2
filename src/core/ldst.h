/* The LDST unit of one SM, shared by its sub-cores, with the SM's L1D behind it.
 *
 * A memory instruction is accepted whole: global/local/constant/texture accesses are coalesced
 * into line requests (constant and texture are treated as global loads through the L1D: there is
 * no separate constant or texture cache), a shared-memory access becomes one entry that occupies
 * the unit for as many cycles as its bank-conflict degree. Entries leave the queue in order
 * through the L1D: one per cycle with core.l1_banks = 1 (seed 001 §1: a single port, one access
 * per cycle); with more banks (interleaved every core.sector bytes, as GPGPU-Sim's
 * gpgpu_l1_banks) up to that many line requests of one instruction per cycle, the cycle's batch
 * ending at the first request whose sectors need a bank already used or that the L1D cannot
 * take (GPGPU-Sim's memory stage holds one instruction at a time). An access that
 * gets a reservation failure blocks the unit (memory occlusion: later memory instructions wait)
 * until a fill frees an MSHR, a merge slot or a line; only a fill can, so the unit sleeps until
 * one instead of retrying every cycle, with the same outcome. The unit also waits while the
 * cache's miss queue cannot move onto the SM's outgoing queue (memory port full).
 *
 * L1 hits come back after l1d.hit_lat cycles. Misses leave as fetch requests (fresh requests from
 * the GPU's pool carrying the trigger's origin); stores and atomics leave as themselves and come
 * back as acknowledgements. A load's destination registers are written when its last request is
 * back; that is also where the per-warp-load statistics are recorded. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "cache/cache.h"
#include "core/coalescer.h"
#include "core/sm.h"

struct ldst;

struct ldst_hooks {
    void *ctx;
    /* The memory instruction of warp `warp` completed: its destinations are written at cycle t
     * (t may lie in the future for shared memory, whose latency is known). */
    void (*done)(void *ctx, uint32_t warp, const uint16_t *dst, unsigned ndst, uint64_t t);
    /* An L1D access was made for a request (scheduler feedback); may be NULL. */
    void (*access)(void *ctx, const struct mem_req *r, int outcome, uint64_t now);
};

struct ldst *ldst_create(const struct sm_cfg *sc, const struct cache_cfg *l1, uint32_t sm,
                         const struct sm_env *env, struct sm_stats *st,
                         const struct ldst_hooks *hooks, struct ws_err *e);
void ldst_destroy(struct ldst *l);

/* Queue entries instruction `in` (OP_MEM) needs: its line requests, written to out[] (the input
 * of ldst_issue, made once per instruction), or 1 for shared memory (out[] unused). */
unsigned ldst_coalesce(const struct ldst *l, const struct inst *in,
                       struct coal_line out[COAL_MAX_LINES]);
/* Whether an instruction needing `nreq` entries is accepted now (an empty queue takes any). */
bool ldst_can_accept(const struct ldst *l, unsigned nreq);
/* Accepts `in`, issued at `now` by the warp in o->warp_slot (o holds the origin fields the
 * requests carry, nreq excepted), with the n lines ldst_coalesce() made of it. Returns false,
 * changing nothing, when the GPU's request pool is exhausted. */
bool ldst_issue(struct ldst *l, const struct inst *in, const struct coal_line *lines, unsigned n,
                const struct mem_origin *o, uint64_t now);

/* Cycle `now`: L1 hits coming back, L1 accesses (up to core.l1_banks) or one shared-memory
 * cycle, miss-queue moves.
 * Returns true when queue room or instruction slots were freed. */
bool ldst_cycle(struct ldst *l, uint64_t now);
/* A reply for this SM (fetch fill, store/atomic acknowledgement, writeback acknowledgement).
 * Returns true when instruction slots were freed. */
bool ldst_reply(struct ldst *l, struct mem_req *r, uint64_t now);
/* End of an SM cycle: with the outgoing ring full the unit sleeps until the NoC takes a request
 * (ldst_next_event), so a global access waiting at the head is recorded as blocked from the next
 * cycle on, as a step in that cycle would have found it. */
void ldst_settle(struct ldst *l, uint64_t now);
/* Earliest cycle >= floor at which ldst_cycle has work not waiting for a reply; UINT64_MAX. */
uint64_t ldst_next_event(const struct ldst *l, uint64_t floor);

struct mem_req *ldst_out_peek(const struct ldst *l);
void ldst_out_pop(struct ldst *l);

/* Memory instructions in flight (accepted, not completed). */
uint32_t ldst_inflight(const struct ldst *l);
uint32_t ldst_queued(const struct ldst *l);
bool ldst_idle(const struct ldst *l);
/* What the unit waits for, one line (stuck reports). */
void ldst_describe(const struct ldst *l, char *buf, size_t n);
struct cache *ldst_l1(const struct ldst *l);
/* Lazily counted stall cycles up to cycle `end` (exclusive). */
void ldst_finish(struct ldst *l, uint64_t end);
