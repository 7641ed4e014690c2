/* Importer of USIMM v1.3's own configuration: a system .cfg (`KEY value` lines, `//` comments)
 * plus the chip .vi file USIMM's main.c picks for (NUM_CHANNELS, number of traces) from the
 * same folder (spec/formats-and-presets.md Part B §2.4, spec/seed-002.md §3.11). Every USIMM
 * value becomes the equivalent warpsim setting through cfg_set(), keeping its USIMM file:line as
 * the origin, so a later range error or `warpsim config dump` points into the USIMM files.
 *
 * Mapping (DRAM values stay in DRAM cycles; warpsim does not pre-multiply by the clock ratio):
 *   NUM_CHANNELS/RANKS/BANKS/COLUMNS -> dram.channels/ranks/banks_per_group (1 bank group)/columns
 *   NUM_ROWS x next_pow2(cores)      -> dram.rows (USIMM gives each core its own address space)
 *   CACHE_LINE_SIZE                  -> dram.bus_bits 64, dram.burst_length = line / 8
 *   T_RCD -> RCDRD and RCDWR, T_CAS -> CL, T_CWD -> CWL, T_DATA_TRANS -> nBL, T_CCD -> CCD_S/L,
 *   T_WTR -> WTR_S/L, T_RRD -> RRD_S/L, T_XP_DLL -> XPDLL, T_PD_MIN -> CKE, T_RAS, T_RP, T_RC,
 *   T_FAW, T_WR, T_RTP, T_RTRS, T_REFI, T_RFC, T_XP -> same name; RTW = T_CAS + T_DATA_TRANS +
 *   T_RTRS - T_CWD (USIMM's read-to-write rule); DRAM_CLK_FREQUENCY (MHz) -> dram.tCK_ps;
 *   VDD, IDD* -> dram.VDD, dram.IDD*; chips per rank of the chosen .vi -> dram.devices_per_rank
 *   ADDRESS_MAPPING 0/1 -> addr.map usimm0/usimm1
 *   WQ_CAPACITY -> mc.wq_size; mc.rq_size = ROBSIZE x cores (USIMM's read queue is unbounded,
 *   a ROB entry holds at most one queued read); mc.policy = usimm; mc.forward_raw = false (the
 *   USIMM front end does USIMM's own write-queue lookup)
 *   PROCESSOR_CLK_MULTIPLIER, ROBSIZE, MAX_FETCH, MAX_RETIRE, PIPELINEDEPTH, WQ_LOOKUP_LATENCY,
 *   ADDRESS_BITS -> usimm.clk_mult, rob_size, max_fetch, max_retire, pipeline_depth,
 *   wq_lookup_latency, address_bits */
#pragma once

#include <stdbool.h>

#include "base/cfg.h"

/* True when `path` looks like a USIMM config rather than an INI file: its first line that is
 * neither blank nor a comment is `WORD number` and holds no '=' or '['. */
bool usimm_cfg_detect(const char *path);

/* Reads `cfg_path` and the .vi file chosen for `ncores` traces and records the settings in c.
 * Errors ("path:line: ..."): unknown key, missing or non-numeric value, ADDRESS_BITS that is
 * not the sum of log2 of the six organisation numbers, no .vi for the channel/core count. */
int usimm_cfg_load(struct cfg *c, const char *cfg_path, int ncores, struct ws_err *e);

/* USIMM v1.3's .vi choice: file name and chips per rank for (channels, cores), or NULL when
 * USIMM has no chip file for that combination. */
const char *usimm_vi_name(int channels, int ncores, int *chips_per_rank);
