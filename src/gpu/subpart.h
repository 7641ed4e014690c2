/* A memory sub-partition: one L2 slice between the NoC and a DRAM channel's controller. Requests
 * arrive from the NoC into an input queue and access the L2 one per L2 cycle; hits (and stores,
 * which the write-back, write-allocate L2 absorbs) come back after the L2 hit latency, atomics
 * after the atomic-unit latency too; misses become DRAM requests of one burst each, and a fetch
 * fills the L2 when its last burst's data is done. Replies wait in an output queue for the reply
 * network. Several sub-partitions share one channel (GPGPU-Sim's layout). L2 time is L2 cycles;
 * DRAM time is DRAM cycles. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "base/hist.h"
#include "cache/cache.h"
#include "mem/mc/mc.h"
#include "mem/memsys.h"

struct subpart_cfg {
    int64_t in_q, out_q; /* requests waiting for the L2 / replies waiting for the NoC */
    int64_t atomic_lat;  /* L2 cycles an atomic spends in the atomic unit after its data is
                            present */
    int64_t dram_q;      /* DRAM requests a slice may have outstanding */
    int64_t dram_lat;    /* L2 cycles between a fetch's last data burst and the L2 fill */
};

struct subpart_stats {
    uint64_t reqs, replies;           /* requests accepted from the NoC, replies handed to it */
    uint64_t dram_reads, dram_writes; /* bursts sent to the controller */
    uint64_t stall_in_full;           /* NoC deliveries refused: input queue full */
    uint64_t stall_resfail;           /* L2 cycles the head request got a reservation failure */
    uint64_t stall_dram;              /* L2 cycles a miss waited for room in the controller */
    uint64_t stall_out_full;          /* L2 cycles a ready reply waited for room in the output */
    /* Latency per stage (definitions in subpart_stat_desc). */
    struct ws_hist lat_l2_hit;  /* L2 cycles: L2 access -> reply ready, served by the L2 */
    struct ws_hist lat_l2_miss; /* L2 cycles: L2 access -> reply ready, waited for DRAM */
    struct ws_hist lat_mc_q;    /* DRAM cycles: controller arrival -> column command, reads */
    struct ws_hist lat_dram;    /* DRAM cycles: column command -> last data beat, reads */
};

struct subpart;

/* Slice `id` of nsub per channel: channel id / nsub, owning the banks with bank % nsub ==
 * id % nsub (the GPU's address -> slice rule). */
struct subpart *subpart_create(uint32_t id, uint32_t nsub, const struct cache_cfg *l2,
                               const struct subpart_cfg *sc, struct memsys *ms, struct ws_err *e);
/* The slice-local address its L2 indexes, and back (tests, debugging). */
uint64_t subpart_local_addr(const struct subpart *s, uint64_t addr);
uint64_t subpart_global_addr(const struct subpart *s, uint64_t local);
void subpart_destroy(struct subpart *s);

bool subpart_can_accept(const struct subpart *s);
/* A NoC cycle in which a request for this slice waited at the network's output: input full. */
void subpart_note_in_full(struct subpart *s);
void subpart_push(struct subpart *s, struct mem_req *r, uint64_t l2_now);
/* Runs L2 cycle `now`; dram_now is the number of DRAM cycles begun by the same instant (the
 * DRAM ticks at or before it have run; the enqueue stamp). DRAM data done at DRAM cycle X is
 * taken in at the first L2 cycle at or after X begins (X < dram_now), whichever cycles the
 * caller visits. Returns whether it moved a request. A caller may leave out the cycles
 * subpart_next_event() skips; after a cycle that changed nothing (the slice waits on the NoC,
 * the controller or a time) it must call again at the next L2 cycle after the NoC popped its
 * output or pushed its input, or after its controller made room (subpart_waits_dram): the
 * cycles left out count the stalls that idle cycle counted. */
bool subpart_cycle(struct subpart *s, uint64_t now, uint64_t dram_now);
/* Earliest L2 cycle >= from with work not waiting on the DRAM, the NoC or the controller's
 * queue (UINT64_MAX if none), and the DRAM cycle of the earliest DRAM data still to arrive
 * (UINT64_MAX if none). */
uint64_t subpart_next_event(const struct subpart *s, uint64_t from);
/* After an idle cycle: whether it waits for room in its controller's queue, and whether there
 * is room now. */
bool subpart_waits_dram(const struct subpart *s);
bool subpart_dram_room(const struct subpart *s);
#ifndef NDEBUG
/* Debug builds: asserts that an idle slice left out at L2 cycle `now` has nothing to do. */
void subpart_check_idle(const struct subpart *s, uint64_t now, uint64_t dram_now);
#endif
uint64_t subpart_next_dram(const struct subpart *s);

struct mem_req *subpart_out_peek(const struct subpart *s);
void subpart_out_pop(struct subpart *s);

/* The controller finished a burst this slice sent (memsys done callback, routed by tag). */
void subpart_dram_done(struct subpart *s, const struct mc_req *mr);
/* Tag encoding shared with the GPU's done-callback router. */
static inline uint32_t subpart_of_tag(uint64_t tag) {
    return (uint32_t)(tag >> 32);
}

/* Installs a (global) line as clean and valid (L2 warm-up with host-to-device copies). */
void subpart_warm(struct subpart *s, uint64_t line_addr, uint8_t sectors);

/* Empties the L2 slice before a kernel (gpu.flush_l2): every line invalid, dirty data dropped
 * unwritten, as a flush outside the measured kernel leaves it (Nsight Compute's cache control). */
void subpart_flush(struct subpart *s);

bool subpart_idle(const struct subpart *s);
void subpart_describe(const struct subpart *s, char *buf, size_t n);
/* Completes the statistics at the end of a run: `end` is the first L2 cycle not run. */
void subpart_finish(struct subpart *s, uint64_t end);
const struct subpart_stats *subpart_stats(const struct subpart *s);
const struct cache *subpart_l2(const struct subpart *s);
extern const struct stat_desc subpart_stat_desc[];
extern const unsigned subpart_stat_ndesc;
