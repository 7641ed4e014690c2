/* `warpsim trace-info`: a quick look at an Accel-Sim trace before a long run. For each kernel
 * (and in total): name, grid and block, the header facts (tracer and binary version, stream,
 * file compression), thread blocks and warps in the file, warp instructions per op class,
 * memory instructions by space and kind, and for the ones that go to the memory hierarchy
 * (global, local, constant, texture) the average 128-byte lines and 32-byte sectors one warp
 * instruction touches (the coalescer's view, before any cache). Reads the whole trace once,
 * through the trace workload, so it sees exactly what a run would. */
#pragma once

#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "workload/workload.h"

struct trace_info_sum {
    uint64_t kernels, ctas, ctas_in_file, warps_in_file;
    uint64_t insts;               /* instruction lines of the files */
    uint64_t by_class[OP_NCLASS]; /* ... per op class (appended EXITs not counted) */
    uint64_t synthetic_exits;
    uint64_t mem_insts;               /* OP_MEM lines */
    uint64_t by_space[SPACE_TEX + 1]; /* ... per enum mem_space */
    uint64_t loads, stores, atomics;  /* ... per kind */
    uint64_t mem_active;              /* OP_MEM lines to the memory hierarchy with lanes */
    uint64_t lines, sectors;          /* ... their 128 B lines and 32 B sectors, summed */
    uint64_t copies, copy_bytes;      /* MemcpyHtoD lines */
    uint64_t unknown_insts;
};

/* Prints the report for the trace at `path` (folder, kernelslist.g or .traceg) to out (NULL:
 * nothing printed) and fills *sum (optional). */
int trace_info(const char *path, FILE *out, struct trace_info_sum *sum, struct ws_err *e);
