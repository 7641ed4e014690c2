/* Crossbar between SMs and memory sub-partitions (one instance per direction: requests SM ->
 * partition, replies partition -> SM). Packets are split into flits of `flit` bytes; each input
 * port has a queue of `in_q` flits, each output port a queue of `out_q` flits. Every NoC cycle an
 * allocator (round-robin, or iSLIP with `iters` iterations) matches inputs whose head packet waits
 * to outputs: an output accepts one flit per cycle, a packet holds its input->output connection
 * until its last flit has crossed, a flit arrives `latency` cycles after it crossed, and an output
 * is not granted unless its queue has room for the flit (back-pressure: nothing is ever dropped).
 * A packet can be popped at its output once its last flit is there. Time is NoC cycles.
 *
 * Details (xbar.c has the reasoning):
 * - An input sends at most one flit per cycle; output room is reserved when a flit crosses, so the
 *   latency pipeline counts against out_q. A packet's input flits are freed as they cross.
 * - With voq = false each input is one FIFO (head-of-line blocking, as in GPGPU-Sim); with
 *   voq = true each input keeps one FIFO per output inside its in_q flits (virtual output queues),
 *   so it can request every output it has a packet for. Order is kept per (input, output) pair.
 * - rr: every free output grants the first requesting input at or after its pointer, which then
 *   moves past the granted input; an input with several grants accepts the first at or after its
 *   own pointer. islip: the same, but pointers move only on accepted grants of the first
 *   iteration, and unmatched ports try again for `iters` iterations. Without VOQs an input has one
 *   request, so both allocators match identically.
 * - Timing: a packet of n flits pushed at cycle t before xbar_tick(t), alone in the crossbar,
 *   crosses at t .. t+n-1 and can be popped after xbar_tick(t + n - 1 + latency): push-to-pop
 *   latency n - 1 + latency (one more cycle when pushed after that cycle's tick).
 * - A packet larger than in_q (or out_q) flits can never be pushed (or delivered): check the
 *   largest packet with xbar_cfg_check_packet() after configuring. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/cfg.h"
#include "base/err.h"
#include "base/hist.h"
#include "base/stats.h"

enum xbar_alloc { XBAR_RR, XBAR_ISLIP };

struct xbar_cfg {
    int64_t flit;    /* bytes per flit */
    int64_t latency; /* cycles from crossing to arrival in the output queue */
    int64_t in_q;    /* input-queue capacity per port, flits */
    int64_t out_q;   /* output-queue capacity per port, flits */
    int alloc;       /* enum xbar_alloc */
    int64_t iters;   /* iSLIP iterations */
    bool voq;        /* virtual output queues at the inputs (no head-of-line blocking) */
};
/* Binds noc.flit, noc.latency, noc.in_q, noc.out_q, noc.alloc, noc.islip_iters, noc.voq. */
int xbar_cfg_configure(struct xbar_cfg *xc, struct cfg *c, struct ws_err *e);
extern const struct cfg_key xbar_cfg_keys[];
extern const unsigned xbar_cfg_nkeys;
/* Fails ("file:line: noc.in_q = ... cannot hold ...") unless a packet of max_bytes fits both
 * queues; c (may be NULL) names where the queue sizes were set. */
int xbar_cfg_check_packet(const struct xbar_cfg *xc, uint32_t max_bytes, struct cfg *c,
                          struct ws_err *e);

struct xbar_stats {
    uint64_t packets, flits; /* delivered (popped) */
    uint64_t bytes;          /* payload bytes delivered */
    uint64_t push_stalls;    /* xbar_can_push() answered false */
    uint64_t out_blocked;    /* flit-cycles an allocated flit waited for output room */
    uint64_t cycles;         /* NoC cycles of the run (xbar_finish), ticked or not */
    struct ws_hist lat;      /* push -> pop, NoC cycles */
    double flits_per_cycle;  /* derived: flits / cycles */
};
extern const struct stat_desc xbar_stat_desc[];
extern const unsigned xbar_stat_ndesc;

struct xbar;

struct xbar *xbar_create(const struct xbar_cfg *xc, uint32_t n_in, uint32_t n_out, const char *name,
                         struct ws_err *e);
void xbar_destroy(struct xbar *x);

uint32_t xbar_flits(const struct xbar *x, uint32_t bytes);
/* Whether input `in` has room for a packet of `bytes` now. */
bool xbar_can_push(struct xbar *x, uint32_t in, uint32_t bytes);
/* Counts n refusals that xbar_can_push() would have answered (a caller that knows an input is
 * still full need not ask; push_stalls stays the count of refused offers). */
void xbar_note_stalls(struct xbar *x, uint64_t n);
/* Copies into out[0 .. (inputs + 63) / 64) the inputs whose queued flits fell (room was freed)
 * since the last call, and clears that set. Only a crossing frees room, so an input refused
 * since and not in the set would be refused again (if only its own pushes add to it). */
void xbar_take_freed(struct xbar *x, uint64_t *out);
/* Queues packet `pkt` (opaque) at input `in` for output `out`; requires xbar_can_push. */
void xbar_push(struct xbar *x, uint32_t in, uint32_t out, void *pkt, uint32_t bytes, uint64_t now);
/* Runs NoC cycle `now` (allocation, crossing, arrivals). */
void xbar_tick(struct xbar *x, uint64_t now);
/* The packet complete at the head of output `out`, or NULL. */
void *xbar_peek(const struct xbar *x, uint32_t out);
/* Removes it (freeing its flits in the output queue), records latency. */
void *xbar_pop(struct xbar *x, uint32_t out, uint64_t now);
/* Earliest cycle > last tick at which xbar_tick can change anything; UINT64_MAX when empty or
 * when only complete packets wait at outputs (popping is the consumer's business), or when every
 * waiting flit needs room in a full output (a pop there makes the next tick move it). After a
 * push or pop that enables progress it is at least that push's or pop's `now`. */
uint64_t xbar_next_event(const struct xbar *x);
/* Outputs with a complete packet waiting: a bit set iterated by the consumer (first, next). */
int64_t xbar_ready_first(const struct xbar *x);
/* The same as a bit set over the outputs (64 per word), for callers that filter it. */
const uint64_t *xbar_ready_bits(const struct xbar *x);
int64_t xbar_ready_next(const struct xbar *x, uint32_t after);
bool xbar_idle(const struct xbar *x); /* no packet anywhere */
/* Settles the statistics of the cycles up to `end` (exclusive) the loop did not tick. */
void xbar_finish(struct xbar *x, uint64_t end);
const struct xbar_stats *xbar_stats(const struct xbar *x);

/* Occupancy in flits: input `in` (queued plus not yet crossed), output `out` (in flight plus
 * arrived, not yet popped). For tests and the watchdog. */
uint32_t xbar_in_flits(const struct xbar *x, uint32_t in);
uint32_t xbar_out_flits(const struct xbar *x, uint32_t out);
/* One line per busy port (what waits where, who holds which connection): for the watchdog. */
void xbar_dump(const struct xbar *x, FILE *out);
