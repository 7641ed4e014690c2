/* A streaming multiprocessor: CTA slots with occupancy limits, warps bound to sub-cores (one warp
 * scheduler each), per-warp instruction buffers fed lazily from the workload, a scoreboard on
 * destination registers, execution units with latency and initiation interval per op class, the
 * LDST unit (coalescer, shared memory with bank conflicts, L1D with MSHRs) and bar.sync.
 * Time is core-clock cycles. The GPU layer moves the SM's outgoing requests onto the NoC and
 * hands replies back; the SM never sees the NoC or the memory partitions. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/cfg.h"
#include "base/err.h"
#include "base/hist.h"
#include "base/stats.h"
#include "cache/cache.h"
#include "core/sched/sched.h"
#include "mem/mem_req.h"
#include "workload/workload.h"

struct sm_cfg {
    int64_t max_warps, max_ctas, max_threads, regs, smem; /* occupancy limits per SM */
    int64_t subcores;                                     /* sub-cores, one warp scheduler each */
    char warp_sched[CFG_STR_MAX];     /* core.warp_sched: lrr | gto (core/sched/) */
    char subcore_assign[CFG_STR_MAX]; /* core.subcore_assign: rr */
    int64_t ibuf;                     /* instruction-buffer entries per warp */
    int64_t lat[OP_NCLASS];           /* result latency per op class, cycles */
    int64_t ii[OP_NCLASS];            /* initiation interval of each sub-core's unit per class */
    int64_t smem_banks, smem_lat;     /* shared memory: 4-byte banks, access latency */
    int64_t ldst_q;                   /* pending line requests the LDST unit can hold */
    int64_t l1_banks;                 /* L1D banks: line requests the L1D takes per cycle */
    int64_t line, sector;             /* coalescing granularity: 128 B lines, 32 B sectors */
    int64_t out_q;                    /* requests waiting to enter the NoC (the memory port) */
    uint64_t sched_params[SCHED_PARAMS_BYTES / 8]; /* the warp scheduler's own settings */
};
extern const struct cfg_key sm_cfg_keys[];
extern const unsigned sm_cfg_nkeys;
/* Binds core.* (and validates); presets set every value. */
int sm_cfg_configure(struct sm_cfg *sc, struct cfg *c, struct ws_err *e);

/* What the SM needs from the GPU around it. */
struct upstream;
struct sm_env {
    void *ctx;
    struct mem_req *(*req_alloc)(void *ctx); /* zeroed request from the GPU's pool */
    void (*req_free)(void *ctx, struct mem_req *r);
    uint32_t (*subpart_of)(void *ctx, uint64_t addr); /* memory sub-partition of an address */
    uint32_t app;                                     /* application id stamped on requests */
    double dram_to_core; /* core cycles per DRAM command-clock cycle (In-MC time of requests) */
    uint32_t subparts; /* memory sub-partitions per channel (sub-partition / subparts = channel) */
    struct upstream *up; /* per warp-load requests still upstream, NULL when no policy reads them */
};

/* Per-SM figures; the GPU layer sums them. Definitions are in sm_stat_desc (sm.c). */
struct sm_stats {
    uint64_t cycles_active; /* cycles with at least one resident CTA */
    uint64_t warp_insts;    /* warp instructions issued (EXIT included) */
    uint64_t thread_insts;  /* sum of active lanes over issued instructions */
    uint64_t insts_by_class[OP_NCLASS];
    uint64_t lanes_by_class[OP_NCLASS]; /* active lanes summed per class (energy) */
    uint64_t rf_reads, rf_writes;       /* operand accesses x active lanes (energy) */
    uint64_t ctas_done;
    uint64_t stall_scoreboard, stall_unit, stall_ibuf, stall_ldst, stall_barrier; /* per
                                 scheduler-cycle with no issue: the reason of its oldest warp */
    uint64_t stall_sched; /* ... or: warps were ready but the scheduler held them back */
    uint64_t ldst_resfail_cycles, ldst_port_cycles; /* LDST unit blocked: L1 reservation
                                 failure (memory occlusion) / outgoing queue full */
    uint64_t reqs_created, reqs_freed; /* requests this SM allocated / gave back (conservation) */
    uint64_t mem_reqs;                 /* line requests created by the coalescer (global/local) */
    uint64_t mem_insts;                /* warp memory instructions those requests came from */
    uint64_t load_warps;               /* global load instructions completed (warp-loads) */
    uint64_t smem_accesses, smem_conflict_cycles;
    struct ws_hist offchip_per_load; /* off-chip requests of one warp-load */
    uint64_t conc_loads, conc_milli; /* global loads; sum of their intra-warp concentrations
                                        x 1000 (seed 001 Eq. 3.1) */
    struct ws_hist lat_div_in_mc;    /* the part of lat_div that arose inside a controller */
    struct ws_hist mc_assembly;      /* spread of a warp-load's arrivals at one controller */
    struct ws_hist mcs_per_load;     /* controllers a warp-load's off-chip requests reached */
    struct ws_hist lat_div;          /* slowest - fastest off-chip turnaround of a warp-load
                                        with >= 1 off-chip request, core cycles */
    struct ws_hist load_time;        /* warp-load issue -> last request back, core cycles */
    struct ws_hist req_turnaround;   /* LDST issue -> back, per off-chip request */
};
extern const struct stat_desc sm_stat_desc[];
extern const unsigned sm_stat_ndesc;

struct sm;

struct sm *sm_create(const struct sm_cfg *sc, const struct cache_cfg *l1, uint32_t id,
                     const struct sm_env *env, struct ws_err *e);
void sm_destroy(struct sm *s);

/* Whether a CTA of kernel k fits now (threads, warps, registers, shared memory, CTA slots). */
bool sm_can_take(const struct sm *s, const struct kernel_desc *k);
/* Most CTAs of k that fit on an empty SM (occupancy); 0 when one CTA does not fit at all. */
uint32_t sm_occupancy(const struct sm_cfg *sc, const struct kernel_desc *k);
/* Starts CTA `cta` of kernel k on this SM (requires sm_can_take). */
int sm_take_cta(struct sm *s, struct workload *w, const struct kernel_desc *k, uint64_t cta,
                uint64_t now, struct ws_err *e);

/* Runs core cycle `now`; a cycle at or before the last one run does nothing. Replies handed over
 * with sm_reply(now) before sm_cycle(now) take effect in that cycle (a load's dependent
 * instruction can issue in the cycle its last request comes back). */
int sm_cycle(struct sm *s, uint64_t now, struct ws_err *e);
/* Earliest cycle > the last one run at which sm_cycle could do anything without a reply coming
 * back; UINT64_MAX when it only waits for replies (or holds nothing). */
uint64_t sm_next_event(const struct sm *s);

/* Requests leaving the SM for the NoC (req->dst is the sub-partition), oldest first. */
struct mem_req *sm_out_peek(const struct sm *s);
void sm_out_pop(struct sm *s);
/* A reply from the NoC: the fill of an L1 fetch (kind LOAD, with offchip set when its data came
 * from DRAM), or the acknowledgement of a store or atomic (the original request comes back). An
 * L1 writeback (write-back L1 only) leaves as a MEM_STORE of its dirty sectors and is
 * acknowledged the same way. */
void sm_reply(struct sm *s, struct mem_req *r, uint64_t now);

uint32_t sm_resident_ctas(const struct sm *s);
/* True when nothing is resident or in flight (no warp, no request, no MSHR, empty queues). */
bool sm_idle(const struct sm *s);
/* CTAs completed since the last call (the GPU dispatches new ones into the freed slots). */
uint32_t sm_take_finished(struct sm *s);
/* Kernel boundary: invalidates the L1D (as GPUs do between kernels). */
void sm_kernel_end(struct sm *s);
/* One line per resident warp saying what it waits for (watchdog reports). */
void sm_describe_stuck(const struct sm *s, char *buf, size_t n);
void sm_finish(struct sm *s, uint64_t end);
const struct sm_stats *sm_stats(const struct sm *s);
/* Optional issue trace (tests, debugging, trace dumps): called for every instruction issued, with
 * the sub-core, warp slot and instruction, before the instruction takes effect. NULL turns it
 * off. */
typedef void (*sm_trace_fn)(void *ctx, uint32_t sm, uint32_t subcore, uint32_t slot,
                            const struct inst *in, uint64_t now);
void sm_set_trace(struct sm *s, sm_trace_fn fn, void *ctx);
/* Examine every sub-core in every cycle sm_cycle is called, due or not (gpu.lockstep). */
void sm_set_lockstep(struct sm *s, bool on);
const struct cache *sm_l1d(const struct sm *s);
