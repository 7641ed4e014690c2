/* The DRAM memory system: all channels of a preset, each with its memory controller, the
 * address map, and the observers hung on the command stream (independent protocol checker when
 * mc.check is on, the power model always). This is what `warpsim dram` drives and what the GPU's
 * memory partitions will wrap. Time is in DRAM command-clock cycles. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/cfg.h"
#include "base/stats.h"
#include "mem/addr_map.h"
#include "mem/dram/dram_spec.h"
#include "mem/mc/mc.h"

struct memsys;

/* Reads [dram], [addr] and [mc] from c (binding their keys). */
struct memsys *memsys_create(struct cfg *c, struct ws_err *e);
void memsys_destroy(struct memsys *ms);

const struct dram_spec *memsys_spec(const struct memsys *ms);
const struct addr_map *memsys_map(const struct memsys *ms);
const struct mc_cfg *memsys_mc_cfg(const struct memsys *ms);
uint32_t memsys_nchannels(const struct memsys *ms);
struct mc *memsys_mc(struct memsys *ms, uint32_t ch);
/* The warp alias/entry tables the controllers share (NULL unless the policy reads them). */
const struct warp_table *memsys_warp_table(const struct memsys *ms);
/* The upstream counts a policy reads (mc.wg.close = oracle), NULL when none does: the GPU then
 * keeps them (mem/upstream.h). */
struct upstream *memsys_upstream(struct memsys *ms);

/* Completion callback for every channel (see mc_set_done_cb). */
void memsys_set_done_cb(struct memsys *ms, mc_done_fn fn, void *ctx);
/* Extra command observer on every channel (e.g. a command trace writer). */
void memsys_add_cmd_observer(struct memsys *ms, mc_cmd_fn fn, void *ctx);

bool memsys_can_accept(const struct memsys *ms, uint64_t addr, bool is_write);
void memsys_enqueue(struct memsys *ms, const struct mem_req *r, uint64_t now);
/* memsys_enqueue() for a request whose address the caller has already decoded (addr_map_decode
 * of memsys_map()), e.g. to sort requests by channel. */
void memsys_enqueue_decoded(struct memsys *ms, const struct mem_req *r, const struct dram_addr *da,
                            uint64_t now);
int memsys_tick(struct memsys *ms, uint64_t now, struct ws_err *e);
/* Earliest cycle any channel has something to do (DRAM_NEVER when all are idle). */
uint64_t memsys_next_event(const struct memsys *ms);
bool memsys_idle(const struct memsys *ms);
/* End of input at cycle `now` (mc_flush on every channel): queued writes drain. */
void memsys_flush(struct memsys *ms, uint64_t now);

/* Ends the run at cycle `end`: closes accounting, checks refresh obligations (checker), computes
 * energy, fills the summary. */
int memsys_finish(struct memsys *ms, uint64_t end, struct ws_err *e);

/* Whole-system figures after memsys_finish. */
struct memsys_summary {
    uint64_t cycles, reads, writes, reads_forwarded, writes_merged;
    uint64_t row_hits, row_misses, row_conflicts;
    double avg_read_lat, avg_write_lat; /* tCK */
    double avg_read_lat_ns;
    double row_hit_rate;  /* column accesses whose first command was the column access */
    double bw_gbs;        /* bytes moved by column commands / simulated time */
    double peak_bw_gbs;   /* channels x peak per channel */
    double bw_share;      /* bw_gbs / peak_bw_gbs */
    double data_bus_util; /* busy data-bus cycles / (cycles x data buses) */
    double energy_nj, power_mw;
    double edp_njs; /* energy_nj x seconds */
    double seconds; /* simulated time */
    uint64_t commands_checked;
};
extern const struct stat_desc memsys_summary_desc[];
extern const unsigned memsys_summary_ndesc;
const struct memsys_summary *memsys_summary(const struct memsys *ms);
/* "dram" (summary), "dram.energy" and, with per_channel, "mc.chN" groups. */
int memsys_register_stats(struct memsys *ms, struct stats_reg *reg, bool per_channel,
                          struct ws_err *e);
