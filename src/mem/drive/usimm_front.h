/* USIMM v1.3's trace-driven processor front end as a standalone-mode driver: one core per trace,
 * each a ROB-only out-of-order window, following USIMM's main.c loop exactly (spec/seed-002.md
 * §3.3 and formats-and-presets.md Part B §2.2):
 *
 *   every CPU cycle c:  retire  - per core, up to max_retire ROB-head entries with comptime < c
 *                       memory  - when c is a multiple of clk_mult: DRAM cycle c / clk_mult
 *                                 (served requests leave the queues, the scheduler runs)
 *                       fetch   - unless some channel's write queue is full, per core up to
 *                                 max_fetch instructions while its ROB has room:
 *                                 non-memory: comptime = c + pipeline_depth;
 *                                 write: comptime = c + pipeline_depth, queued unless the same
 *                                   address is already in the write queue (merged);
 *                                 read: matches a queued write -> c + wq_lookup_latency +
 *                                   pipeline_depth (forwarded); matches a queued read -> c + 1 +
 *                                   pipeline_depth (merged); else queued, and its comptime
 *                                   becomes (DRAM data-done cycle x clk_mult) + pipeline_depth
 *                                   when its column read issues.
 *   the run ends in the first cycle where every trace is consumed, every ROB is empty and every
 *   write queue is empty; "cycles" is that cycle + 1, and the last core to finish is charged
 *   the write drain (its finish time becomes "cycles"), as in USIMM.
 *
 * USIMM details kept on purpose: address matches are exact (whole address, not the burst); a
 * served request stays visible to those matches until the next DRAM cycle's memory step; a
 * queued read's ROB entry starts at c + 10^6 (USIMM's BIGNUM); core i's addresses get
 * prefix(i) << address_bits added, where prefix(i) = i, except that a trace whose file name
 * starts with "MT" but not "MT0" shares the prefix of the last "MT0..." trace before it.
 *
 * Mapping onto drive_run (DRAM cycles): inject(d) runs CPU cycles from the fetch step of
 * clk_mult*(d-1) (or where the last call stopped) through the retire step of clk_mult*d; the
 * controllers then tick d, which is USIMM's memory step of that cycle. CPU cycles in which no
 * core can retire or fetch are skipped. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/cfg.h"
#include "base/hist.h"
#include "base/stats.h"
#include "mem/drive/drive.h"

struct usimm_front_cfg {
    int64_t rob_size, max_fetch, max_retire, pipeline_depth, clk_mult, wq_lookup_latency;
    int64_t address_bits;
};
extern const struct cfg_key usimm_front_keys[];
extern const unsigned usimm_front_nkeys;
/* Binds the [usimm] keys. */
int usimm_front_configure(struct usimm_front_cfg *fc, struct cfg *c, struct ws_err *e);

struct usimm_front_stats {
    uint64_t cores;
    uint64_t cycles;                        /* CPU cycles, USIMM's "Cycles" */
    uint64_t committed, fetched;            /* instructions, all cores */
    double ipc;                             /* committed / cycles */
    uint64_t reads, writes;                 /* memory records consumed from the traces */
    uint64_t reads_to_dram, writes_to_dram; /* requests put into the controllers' queues */
    uint64_t reads_merged, reads_forwarded, writes_merged;
    uint64_t read_lat_sum;   /* CPU cycles, fetch to data done, reads queued to DRAM */
    double avg_read_lat;     /* read_lat_sum / reads_to_dram */
    uint64_t wq_full_cycles; /* CPU cycles whose fetch step found a write queue full */
    uint64_t rq_full_stalls; /* fetches stopped because a read queue was full (mc.rq_size) */
    uint64_t sum_exec_time;  /* sum of per-core finish times ("Sum of execution times") */
    struct ws_hist finish;   /* per-core finish time (CPU cycles) */
    /* filled by usimm_front_report() */
    double dram_power_w, misc_power_w, core_power_w, system_power_w, seconds, edp_js;
};
extern const struct stat_desc usimm_front_stat_desc[];
extern const unsigned usimm_front_stat_ndesc;

struct usimm_core_result {
    uint64_t fetched, committed;
    uint64_t time_done; /* CPU cycle its ROB emptied after its trace ended (see above) */
    uint32_t prefix;
};

struct usimm_front;

/* One core per trace path (plain or gzip). `ms` must outlive the front end; its channel count,
 * write-queue size (mc.wq_size = USIMM's WQ_CAPACITY) and address map are used. */
struct usimm_front *usimm_front_create(const struct usimm_front_cfg *fc, struct memsys *ms,
                                       const char *const *traces, unsigned ntraces,
                                       struct ws_err *e);
void usimm_front_destroy(struct usimm_front *f);
const struct usimm_front_stats *usimm_front_stats(const struct usimm_front *f);
unsigned usimm_front_ncores(const struct usimm_front *f);
const struct usimm_core_result *usimm_front_core(const struct usimm_front *f, unsigned core);
/* Registers the stats as group "cpu". */
int usimm_front_register_stats(const struct usimm_front *f, struct stats_reg *reg,
                               struct ws_err *e);

/* After drive_run (which ends with memsys_finish): USIMM's system power and energy-delay
 * product (seed-002 §3.11): DRAM power from memsys_summary(ms)->power_mw; miscellaneous power
 * 40 W with 4 channels, else 10 W; core power 10 W x (finish time / cycles) per core, halved
 * with 1 channel; EDP = total power x (cycles / CPU clock)^2, CPU clock = clk_mult / tCK
 * (3.2 GHz for USIMM's DDR3-1600). Fails if the run has not finished. */
int usimm_front_report(struct usimm_front *f, const struct memsys *ms, struct ws_err *e);

extern const struct drive_ops usimm_front_ops;
