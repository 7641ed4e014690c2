/* Independent DRAM protocol checker: replays the command stream of every channel against the
 * timing and state rules of JEDEC-style DRAM (JESD79-3/-4, JESD212, JESD235), using only the
 * numbers of struct dram_spec. It shares no code with the device model (dram.c) on purpose, so a
 * slip in the model cannot check itself.
 *
 * Contract: the caller (the memory controller, a test, or a trace replayer) feeds every command
 * it issues, in non-decreasing cycle order per channel (channels may interleave), then calls
 * dram_checker_finish once with the last simulated cycle. A rule is "A -> B >= n": B may issue
 * no earlier than n tCK after A. The first violation is returned as -1 with a message naming the
 * rule and both commands; a violating command is not applied to the checker's state, so the
 * stream may be fed on, judged as if that command had not been issued.
 * Memory is sized from the geometry in dram_checker_create; observe allocates nothing. */
#pragma once

#include <stdint.h>

#include "base/err.h"
#include "mem/dram/dram_spec.h"

struct dram_checker;

/* Copies the numbers it needs from *s. Fails (NULL, message in e) on a geometry it cannot hold
 * or when out of memory. */
struct dram_checker *dram_checker_create(const struct dram_spec *s, struct ws_err *e);
void dram_checker_destroy(struct dram_checker *k);

/* Checks one command. Returns 0, or -1 with e->msg such as
 * "DRAM protocol violation: tRCDRD: RD ch0 pc0 rank1 bg2 bank3 row 17 col 5 at cycle 120 is 3
 * cycles after ACT ch0 pc0 rank1 bg2 bank3 row 17 at cycle 117 (needs 17)". */
int dram_checker_observe(struct dram_checker *k, const struct dram_cmd_rec *r, struct ws_err *e);

/* Checks the refresh obligation of every rank up to end_cycle (no gap between REFs, or from
 * cycle 0 to the first REF, or from the last REF to end_cycle, above 9 x tREFI); nothing to check
 * when tREFI = 0. Returns 0 or -1 with a message. */
int dram_checker_finish(struct dram_checker *k, uint64_t end_cycle, struct ws_err *e);

/* Commands passed to dram_checker_observe so far (violating ones included). */
uint64_t dram_checker_ncommands(const struct dram_checker *k);
