/* Streaming readers for CPU-side memory traces: USIMM v1.3 traces and simple address traces.
 * Formats follow USIMM v1.3's main.c (see spec/formats-and-presets.md Part B §2.3), Ramulator's
 * memory-trace mode and DRAMsim3's trace files. Lines come through base/lineio.h (plain or gzip,
 * constant memory), one record at a time.
 *
 *   USIMM:  <nonmem count> R <hex addr> [<hex pc>] [one extra column, e.g. jarrett-m's domain]
 *           <nonmem count> W <hex addr> [one extra column]
 *           The count is decimal; addresses and PCs are hex with or without 0x. As in USIMM the
 *           PC is read for reads only; a write's 4th column is not a PC.
 *   ADDR:   0x<addr> R|W|READ|WRITE            (Ramulator style, no timing)
 *           <addr> READ|WRITE <cycle>          (DRAMsim3 style; addr hex with or without 0x,
 *                                               cycle decimal DRAM cycles, non-decreasing)
 *           All records of a file either carry a cycle or none does.
 *
 * Blank lines and lines whose first non-blank character is '#' are skipped. Anything else that
 * does not parse is an error "path:line: what is wrong"; nothing is skipped silently. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"

enum memtrace_fmt {
    MEMTRACE_AUTO, /* decide from the first record: a decimal count then R|W -> USIMM, else ADDR */
    MEMTRACE_USIMM,
    MEMTRACE_ADDR,
};

struct memtrace_rec {
    uint64_t gap; /* non-memory instructions before this access (USIMM; 0 for ADDR) */
    bool is_write;
    uint64_t addr;
    bool has_pc;    /* USIMM read with a PC column */
    uint64_t pc;    /* 0 when absent */
    bool has_cycle; /* DRAMsim3-style record */
    uint64_t cycle; /* DRAM cycle at which the request is due */
};

struct memtrace;

/* Opens a trace; AUTO decides the format at the first record. NULL with "path: ..." on error. */
struct memtrace *memtrace_open(const char *path, enum memtrace_fmt fmt, struct ws_err *e);
/* 1: *out holds the next record; 0: end of file; -1: error ("path:line: ..."). */
int memtrace_next(struct memtrace *t, struct memtrace_rec *out, struct ws_err *e);
/* The format in use (still MEMTRACE_AUTO before the first record of an AUTO trace). */
enum memtrace_fmt memtrace_format(const struct memtrace *t);
const char *memtrace_path(const struct memtrace *t);
/* Line number of the last record returned (for messages about that record). */
long memtrace_lineno(const struct memtrace *t);
/* Records returned so far. */
uint64_t memtrace_count(const struct memtrace *t);
void memtrace_close(struct memtrace *t);
