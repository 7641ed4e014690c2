/* The GPU: SMs, the two crossbars (requests SM -> sub-partition, replies back), the memory
 * sub-partitions (L2 slices) and the DRAM memory system, in four clock domains. gpu_run() launches
 * the workload's kernels one after another, dispatches CTAs to SMs as occupancy allows, steps the
 * clock domains (skipping time in which nothing can happen), and at the end proves that every
 * request came back exactly once and that every queue, MSHR and controller drained. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/cfg.h"
#include "gpu/energy.h"
#include "base/err.h"
#include "base/hist.h"
#include "base/stats.h"
#include "workload/workload.h"

struct gpu_cfg {
    char name[CFG_STR_MAX];
    int64_t sms;
    int64_t subparts; /* L2 slices (memory sub-partitions) per DRAM channel */
    double core_mhz, noc_mhz, l2_mhz;
    int64_t l2_in_q, l2_out_q, dram_q, atomic_lat, dram_latency;
    int64_t req_header;       /* bytes of a request/reply header on the NoC */
    bool warm_l2;             /* install host-to-device copies in the L2 before each launch */
    bool flush_l2;            /* empty the L2 before each launch (before warm_l2's copies) */
    int64_t watchdog;         /* core cycles without progress before a run is stopped */
    int64_t max_cycles;       /* stop after this many core cycles (0: run to completion) */
    int64_t max_insts;        /* stop after this many warp instructions (0: run to completion) */
    int64_t max_thread_insts; /* ... thread instructions (GPGPU-Sim's -gpgpu_max_insn) */
    bool lockstep;            /* visit every component every cycle (a check of the event loop) */
};
extern const struct cfg_key gpu_cfg_keys[];
extern const unsigned gpu_cfg_nkeys;
int gpu_cfg_configure(struct gpu_cfg *gc, struct cfg *c, struct ws_err *e);

/* What a researcher looks at first; every field defined in gpu_summary_desc (gpu.c). */
struct gpu_summary {
    uint64_t cycles, kernels, ctas, warp_insts, thread_insts;
    double ipc, warp_ipc;
    uint64_t l1_accesses, l1_misses, l1_resfails, l2_accesses, l2_misses, l2_resfails;
    double l1_miss_rate, l2_miss_rate, l1_mpki, l2_mpki;
    double l1_concentration; /* mean intra-warp L1D set concentration of global loads */
    double coalescing;       /* line requests per coalesced warp memory instruction */
    double mem_inst_share;   /* memory warp instructions / all warp instructions */
    uint64_t noc_req_packets, noc_rep_packets;
    double noc_req_lat, noc_rep_lat, noc_req_flits_per_cycle, noc_rep_flits_per_cycle;
    double dram_row_hit_rate, dram_bw_share, dram_avg_read_lat_ns;
    uint64_t load_warps;
    double offchip_per_load; /* mean off-chip accesses per load warp: LOA/MOA/HOA */
    double lat_div_mean, lat_div_in_mc_share, load_time_mean;
    /* average latency per stage, ns */
    double ns_noc_req, ns_l2_hit, ns_l2_miss, ns_mc_queue, ns_dram, ns_noc_rep, ns_offchip_req;
    uint64_t requests, requests_returned;
    /* energy (gpu/energy.h), joules; power in watts, energy-delay product in joule-seconds */
    double energy_j, energy_core_j, energy_rf_j, energy_cache_j, energy_noc_j, energy_dram_j,
        energy_static_j, power_w, edp_js;
    double host_seconds, warp_insts_per_s, cycles_per_s;
    bool stopped_early; /* max_cycles / max_insts reached */
};
extern const struct stat_desc gpu_summary_desc[];
extern const unsigned gpu_summary_ndesc;
/* LOA / MOA / HOA (seed 000 §3.1) from the mean off-chip accesses per load warp: HOA above 8,
 * MOA from 2 to 8, LOA below 2 (the paper's LOA is "< 1"; it leaves 1-2 unassigned and we put
 * that band with LOA). */
const char *gpu_load_class(double offchip_per_load);

struct gpu_progress {
    const char *kernel;
    uint32_t kernel_id;
    uint64_t cycles, warp_insts;
    uint64_t ctas_done, ctas_total;
    double host_seconds;   /* since the run started */
    double kernel_seconds; /* since this kernel was launched */
};
typedef void (*gpu_progress_fn)(void *ctx, const struct gpu_progress *p);

struct gpu;

/* Binds every key (gpu, core, l1d, l2, noc, dram, addr, mc) from c. */
struct gpu *gpu_create(struct cfg *c, struct ws_err *e);
void gpu_destroy(struct gpu *g);
void gpu_set_progress(struct gpu *g, gpu_progress_fn fn, void *ctx);
/* Runs workload w to completion (or the configured limits); then checks conservation. */
int gpu_run(struct gpu *g, struct workload *w, struct ws_err *e);
const struct gpu_summary *gpu_summary(const struct gpu *g);
/* Groups "gpu", "core", "l1d", "l2", "noc.req", "noc.rep", "l2.part", "dram", "dram.energy". */
int gpu_register_stats(struct gpu *g, struct stats_reg *reg, struct ws_err *e);
const struct ws_hist *gpu_hist_offchip(const struct gpu *g);
const struct ws_hist *gpu_hist_lat_div(const struct gpu *g);
const struct ws_hist *gpu_hist_load_time(const struct gpu *g);
/* Warp-group assembly time (core.mc_assembly), core cycles. */
const struct ws_hist *gpu_hist_mc_assembly(const struct gpu *g);
/* Controllers a warp-load's off-chip requests reached (core.mcs_per_load). */
const struct ws_hist *gpu_hist_mcs_per_load(const struct gpu *g);
uint32_t gpu_nsms(const struct gpu *g);
