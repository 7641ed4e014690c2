/* DRAM power/energy model: IDD-based energy per rank unit (channel, pseudo-channel, rank), computed
 * from the command stream alone. Follows Micron TN-41-01 as USIMM v1.3 applies it (seed-002 §3.11).
 *
 * Contract. The owner of a DRAM channel model calls dram_power_observe() for every command it
 * issues, in issue order; cycles are tCK of the DRAM command clock and must not decrease within a
 * channel. dram_power_finish(end) closes every residency interval at `end` (>= the last observed
 * cycle) and computes the energies; it may be called again later with a larger `end` (the model
 * keeps running). dram_power_totals() and the registered stats read the values of the last
 * finish. Nothing is allocated after create, and observe() is O(ranks per pseudo-channel).
 *
 * What each component is (per device, then times devices_per_rank; x = the spec's currents):
 *   act         per ACT: (IDD0*RC - (IDD3N*RAS + IDD2N*(RC-RAS))) * VDD * tCK (USIMM eq. 5.4/5.5
 *               with the ACT rate replaced by the ACT count)
 *   read/write  per burst: (IDD4R|IDD4W - IDD3N) * VDD * nBL * tCK (eq. 5.1/5.2)
 *   refresh     per REF issued: (IDD5 - IDD3N) * VDD * RFC * tCK (eq. 5.3, counted per command
 *               instead of USIMM's fixed tRFC/tREFI duty cycle)
 *   background  time-weighted: IDD3N while any bank is open, IDD2N while all are precharged,
 *               IDD3P in active power-down, IDD2P1 / IDD2P0 in fast / slow precharge power-down
 *               (eq. 5.6-5.11); intervals are derived from the commands (see power.c)
 *   termination DDR3 only, USIMM's TN-41-01 ODT constants (eq. 5.12-5.15); 0 for other standards
 */
#pragma once

#include <stdint.h>

#include "base/err.h"
#include "base/stats.h"
#include "mem/dram/dram_spec.h"

struct dram_power;

/* Sums over all rank units as of the last dram_power_finish(); energies in nJ. avg_power_mw is
 * total_nj over the finished span (end_cycle * tCK): the memory power of USIMM's report. */
struct dram_energy {
    double act_nj, read_nj, write_nj, refresh_nj, background_nj, termination_nj, total_nj;
    double avg_power_mw;
};

/* Sizes every array from the spec's geometry (channels x pseudo_channels x ranks rank units,
 * at most 64 banks per rank). The spec is copied. Returns NULL and fills e on bad geometry. */
struct dram_power *dram_power_create(const struct dram_spec *s, struct ws_err *e);
void dram_power_destroy(struct dram_power *p);

/* Accounts one issued command (non-decreasing cycle per channel). */
void dram_power_observe(struct dram_power *p, const struct dram_cmd_rec *r);

/* The same for a command of rank unit `unit` (flat over the system: (ch * pseudo_channels + pc)
 * * ranks + rank) to bank `bank` of that rank (bg * banks_per_group + bank; ignored for commands
 * to the whole rank), without a record: the controller's per-command path. */
void dram_power_cmd(struct dram_power *p, uint32_t unit, uint32_t bank, enum dram_cmd cmd,
                    uint64_t cycle);

/* Closes residency intervals at end_cycle and computes the energies and stats. */
void dram_power_finish(struct dram_power *p, uint64_t end_cycle);

void dram_power_totals(const struct dram_power *p, struct dram_energy *out);

/* Registers "dram.energy" (totals) and, when there are at most 64 rank units, one group
 * "dram.energy.chC.pcP.rR" per rank unit. The groups point into p: keep p alive until output. */
int dram_power_register_stats(struct dram_power *p, struct stats_reg *reg, struct ws_err *e);
