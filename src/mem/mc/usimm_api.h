/* A USIMM-style scheduler interface, so schedulers written for USIMM v1.3's schedule(channel)
 * hook port with little change: walk the read/write queues in arrival order, look at each
 * request's next command and whether it is issuable, and call issue functions; the first
 * successful issue in a cycle is the command that goes out (one command per channel per cycle,
 * as in USIMM). Built on the mc.policy seam by policy_usimm.c. Names follow USIMM's API.
 *
 * Where USIMM names a bank by (rank, bank), this interface uses the flat bank index of the
 * channel; a rank is a rank unit (pseudo-channel x rank), and bank b lies in unit
 * b / usimm_unit_banks(). USIMM's request_t fields are struct mc_req's: arrival_time = arrive,
 * thread_id = r.o.thread, instruction_pc = r.o.pc, operation_type = is_write, dram_addr = da.
 *
 * Differences that come from warpsim's explicit, checked command stream:
 * - USIMM's REF closes open rows (or wakes a powered-down rank) by itself; here a rank must be
 *   powered up with every bank closed before its REF (issue PWR_UP and PREA first);
 * - a precharge of a closed bank is not a command (USIMM allows it as a no-op that still takes
 *   the cycle and pushes the bank's next ACT by tRP);
 * - a rank that has requests queued while powered down is woken by the controller (USIMM leaves
 *   the PWR_UP to the scheduler, as the request's next command).
 * USIMM calls schedule() every cycle; warpsim calls it only when something can happen: after a
 * command or an arrival, and at the earliest cycle any command the scheduler asked about (an
 * is_*_allowed or a request's readiness) could issue.
 *
 * Porting a scheduler: write its schedule() (and init/free for its file-scope state) against
 * this interface, add a struct usimm_sched to usimm_scheds[] in policy_usimm.c and its name to
 * usimm_sched_names[]; it is then mc.policy = usimm with mc.usimm.scheduler = its name. */
#pragma once

#include <stdbool.h>

#include "mem/mc/policy.h"

struct usimm_ctx; /* one per call of schedule() */

struct mc_req *usimm_read_queue_head(struct usimm_ctx *u);
struct mc_req *usimm_write_queue_head(struct usimm_ctx *u);
int usimm_read_queue_length(struct usimm_ctx *u);
int usimm_write_queue_length(struct usimm_ctx *u);
enum dram_cmd usimm_next_command(struct usimm_ctx *u, const struct mc_req *r);
int usimm_command_issuable(struct usimm_ctx *u, const struct mc_req *r);
int usimm_command_issued_current_cycle(struct usimm_ctx *u);
uint64_t usimm_cycle(struct usimm_ctx *u);
uint32_t usimm_num_banks(struct usimm_ctx *u); /* flat banks of the channel */
uint32_t usimm_num_units(struct usimm_ctx *u);
uint32_t usimm_unit_banks(struct usimm_ctx *u);
/* Requests queued for a rank unit (USIMM schedulers scan the queues for this). */
uint32_t usimm_unit_queued(struct usimm_ctx *u, uint32_t unit);
/* 0: powered up, 1: fast (or active) power-down, 2: slow power-down. */
unsigned usimm_power_state(struct usimm_ctx *u, uint32_t unit);
/* Open row of a flat bank, -1 when closed (USIMM's dram_state[][][].active_row). */
int32_t usimm_active_row(struct usimm_ctx *u, uint32_t bank);
/* REFs issued in the unit's refresh window so far (USIMM's num_issued_refreshes); 0 unless
 * mc.refresh_mode = usimm. */
uint32_t usimm_num_issued_refreshes(struct usimm_ctx *u, uint32_t unit);

/* Each issue function returns 1 when the command issued, 0 when it is not allowed now (or one
 * already went this cycle). The is_*_allowed tests include USIMM's refresh-deadline rule: under
 * mc.refresh_mode = usimm a command that would run past the window's issue deadline is not
 * allowed. */
int usimm_issue_request_command(struct usimm_ctx *u, struct mc_req *r);
int usimm_is_precharge_allowed(struct usimm_ctx *u, uint32_t bank);
int usimm_issue_precharge_command(struct usimm_ctx *u, uint32_t bank);
int usimm_is_activate_allowed(struct usimm_ctx *u, uint32_t bank);
int usimm_issue_activate_command(struct usimm_ctx *u, uint32_t bank, uint32_t row);
int usimm_is_all_bank_precharge_allowed(struct usimm_ctx *u, uint32_t unit);
int usimm_issue_all_bank_precharge_command(struct usimm_ctx *u, uint32_t unit);
/* Auto-precharge of the column command this cycle's issue_request_command sent to `bank`: its
 * RD/WR becomes RDA/WRA, when the precharge (from tRTP after a read, tCWL + burst + tWR after a
 * write, or the bank's own PRE fence if later) ends by the refresh deadline. */
int usimm_is_autoprecharge_allowed(struct usimm_ctx *u, uint32_t bank);
int usimm_issue_autoprecharge(struct usimm_ctx *u, uint32_t bank);
/* REF of a rank unit, under mc.refresh_mode = usimm only (the other modes keep their own
 * schedule), at most the window's 8: counts towards them, so the forced sequence at the window's
 * end shrinks by tRFC per early REF (and does not happen once all 8 are in). As in USIMM nothing
 * stops a scheduler from refreshing a whole window early, but DDR3 allows at most 9 x tREFI between
 * two REFs of a rank and the protocol checker holds it to that: a window refreshed at its start and
 * the next one's forced at its end are 16 x tREFI apart (fcfs-idle's refresh_phase avoids it). */
int usimm_is_refresh_allowed(struct usimm_ctx *u, uint32_t unit);
int usimm_issue_refresh_command(struct usimm_ctx *u, uint32_t unit);
/* Power-down entry: fast exit (active power-down if a row is open) or slow exit (every bank
 * closed), if its minimum residency and exit fit before the refresh deadline; and exit. */
int usimm_is_powerdown_fast_allowed(struct usimm_ctx *u, uint32_t unit);
int usimm_is_powerdown_slow_allowed(struct usimm_ctx *u, uint32_t unit);
int usimm_issue_powerdown_command(struct usimm_ctx *u, uint32_t unit, bool slow);
int usimm_is_powerup_allowed(struct usimm_ctx *u, uint32_t unit);
int usimm_issue_powerup_command(struct usimm_ctx *u, uint32_t unit);

/* USIMM's HI_WM / LO_WM, from mc.usimm.hi_wm / lo_wm (USIMM's schedulers #define them). */
int usimm_hi_wm(struct usimm_ctx *u);
int usimm_lo_wm(struct usimm_ctx *u);
/* Counters a port may bump, reported in the result's "sched" group. */
enum usimm_stat {
    USIMM_ST_AGGR_PRE,  /* precharges of idle open banks (close-page) */
    USIMM_ST_EARLY_REF, /* REFs issued before the window's deadline */
    USIMM_ST_PD,        /* power-downs entered */
    USIMM_ST_PU,        /* power-ups the scheduler issued */
    USIMM_NST
};
void usimm_count(struct usimm_ctx *u, enum usimm_stat s);

/* A ported scheduler: init once per channel, schedule whenever the controller may issue. */
struct usimm_sched {
    const char *name;
    const char *doc;
    void *(*init)(int channel, uint32_t nbanks, uint32_t nunits);
    void (*schedule)(void *state, struct usimm_ctx *u, int channel);
    void (*free)(void *state);
};
