/* Standalone memory mode drivers: a request source (USIMM trace + processor front end, address
 * traces, synthetic patterns) feeding the DRAM memory system. drive_run() owns the cycle loop and
 * skips cycles in which neither the source nor any controller can act. Time is DRAM cycles. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "base/stats.h"
#include "mem/memsys.h"

struct drive_ops {
    const char *name;
    /* Offers the requests due at DRAM cycle `now` (memsys_can_accept / memsys_enqueue).
     * Returns -1 with "file:line: ..." on bad input. Called once per visited cycle, before the
     * controllers tick that cycle. */
    int (*inject)(void *st, struct memsys *ms, uint64_t now, struct ws_err *e);
    /* Next cycle (> now) at which inject has something new to do, DRAM_NEVER when it only waits
     * for completions. Called after the controllers ticked `now`. */
    uint64_t (*next_event)(void *st, uint64_t now);
    /* True once the source will offer no more requests (its input has ended; some may still be
     * outstanding): the controllers are then told to drain their writes (memsys_flush). */
    bool (*exhausted)(void *st);
    /* True when the source is exhausted and nothing of it is outstanding. */
    bool (*finished)(void *st);
    /* Completion of one of its requests (ts[MEM_TS_DATA] = when the data is done). */
    void (*on_done)(void *st, const struct mc_req *r);
};

struct drive_result {
    uint64_t end_cycle;      /* cycle after the last data beat / last event */
    uint64_t visited_cycles; /* cycles the loop actually ran (speed diagnostics) */
};

/* Runs the source to completion. Fails on bad input, a checker violation, or no progress.
 * lockstep visits every cycle instead of skipping to the next event (results must be the same:
 * a check of the skipping). */
int drive_run(const struct drive_ops *ops, void *st, struct memsys *ms, bool lockstep,
              struct drive_result *res, struct ws_err *e);
