/* Per-warp scoreboard on destination registers. An instruction may issue only when none of its
 * source (RAW) or destination (WAW) registers has a result still on its way. Each pending
 * register carries the cycle its value is written: a fixed-latency result knows it at issue, a
 * load's is unknown (SB_PENDING) until its last request returns. Entries whose time has passed are
 * dropped lazily, so the table holds only what is really in flight. A full table is a structural
 * stall: the warp waits for the earliest entry to retire. */
#pragma once

#include <stdint.h>

#include "workload/workload.h"

enum { SB_CAP = 32 };
#define SB_PENDING UINT64_MAX

struct scoreboard {
    uint64_t filter[4];     /* bit (reg mod 256) set for every entry: a clear bit proves that
                               no entry names the register, so most checks never scan */
    uint64_t ready[SB_CAP]; /* cycle the register's value is written (SB_PENDING: unknown) */
    uint16_t reg[SB_CAP];
    uint8_t n;
};

void sb_init(struct scoreboard *sb);
/* First cycle >= now at which `in` has no RAW/WAW hazard and room for its destinations: `now`
 * when it may issue now, SB_PENDING when it waits for a load. */
uint64_t sb_ready_at(struct scoreboard *sb, const struct inst *in, uint64_t now);
/* Records `reg` as written at cycle `ready` (SB_PENDING for a load). Requires room and no live
 * entry for reg (sb_ready_at said yes). */
void sb_reserve(struct scoreboard *sb, uint16_t reg, uint64_t ready);
/* The load writing `reg` completed: its value is there at cycle `ready`. */
void sb_release(struct scoreboard *sb, uint16_t reg, uint64_t ready);
/* Registers still pending (tests, stuck reports). */
unsigned sb_pending(struct scoreboard *sb, uint64_t now);
