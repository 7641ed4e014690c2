/* Standalone-mode driver for simple address traces (memtrace.h ADDR format): Ramulator-style
 * records are offered in order as fast as the controllers accept them; DRAMsim3-style records
 * (with a cycle, in DRAM clock cycles) are offered at their cycle, or later while their queue is
 * full. Strictly in order: a request its channel cannot accept holds back every later one, as
 * in Ramulator's and DRAMsim3's trace front ends. The file is streamed, never loaded whole. */
#pragma once

#include "base/stats.h"
#include "mem/drive/drive.h"
#include "mem/drive/memtrace.h"

struct addrtrace_stats {
    uint64_t requests, reads, writes; /* offered to the memory system */
    uint64_t completed;               /* requests done (forwarded and merged ones included) */
    uint64_t read_lat_sum;            /* tCK, controller arrival to last data beat, all reads */
    double avg_read_lat;              /* read_lat_sum / reads (filled when the run finishes) */
    uint64_t stall_cycles;            /* tCK the head request waited for queue space */
    uint64_t late_cycles;             /* timed traces: sum over requests of (offer - due) cycle */
};
extern const struct stat_desc addrtrace_stat_desc[];
extern const unsigned addrtrace_stat_ndesc;

struct addrtrace;

/* Opens `path` (plain or gzip) as an ADDR trace for memory system `ms`, which must outlive it.
 * The first record is read here, so an empty or malformed start fails early. */
struct addrtrace *addrtrace_create(const char *path, struct memsys *ms, struct ws_err *e);
void addrtrace_destroy(struct addrtrace *a);
const struct addrtrace_stats *addrtrace_stats(const struct addrtrace *a);
/* True when the trace carries DRAMsim3-style cycles. */
bool addrtrace_timed(const struct addrtrace *a);
/* Registers the stats as group "front". */
int addrtrace_register_stats(const struct addrtrace *a, struct stats_reg *reg, struct ws_err *e);

extern const struct drive_ops addrtrace_ops;
