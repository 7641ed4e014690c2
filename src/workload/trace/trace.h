/* The Accel-Sim trace workload: runs SASS traces made by Accel-Sim's NVBit tracer through the same
 * interface as the built-in kernels (workload.h). Selected as workload "trace" with
 * `workload.trace.path` = a trace folder, its kernelslist.g, or one kernel's .traceg (plain, .gz,
 * .xz or .zst, recognised by content).
 *
 * Kernels run one after another in list order (the interface has no concurrent streams; the CUDA
 * stream id is read and reported, not used). The MemcpyHtoD lines before a kernel become its
 * kernel_desc copies. A kernel's file is read as the GPU starts its CTAs: cta_start(c) reads
 * thread block c's body (CTAs must be started in increasing order, as the file is) and keeps it
 * packed (tpack.h) until cta_end, so memory follows the resident CTAs, not the trace.
 *
 * What an instruction line becomes (struct inst):
 *  - every line is one warp instruction with the line's active mask, predicated-off lines (mask
 *    0) included, as Accel-Sim issues them (they take an issue slot and make no access);
 *  - a memory opcode (opcodes.h) with an address part is OP_MEM with the opcode's width and
 *    space; a generic LD / ST / ATOM / RED is shared when its first active address lies in the
 *    16 MiB window at the header's shmem base_addr (lane addresses then become offsets into
 *    shared memory), local in the window at local mem base_addr, else global (also when the
 *    header gives no windows; Accel-Sim would say shared there). A memory opcode without
 *    addresses (LDC, as the tracer never records constant addresses) issues as an INT op;
 *  - the last line of a warp, when it is an EXIT, is its OP_EXIT; an EXIT before it (some lanes
 *    leave, or a predicated-off EXIT) is a branch-unit op; a warp whose trace does not end in
 *    EXIT (excerpts, `insts = 0`, CTAs missing from the file) gets an EXIT with no active lanes
 *    appended, counted in trace_stats.synthetic_exits;
 *  - registers: R<n>, UR<n>, P<n>, UP<n>, B<n> get distinct ids; RZ, URZ, PT, UPT are REG_NONE;
 *    at most INST_MAX_DST / INST_MAX_SRC of them are kept (the rest are counted as dropped);
 *    wide loads name their first register only, as in the trace;
 *  - with workload.trace.opcode_latency (default on) each non-memory instruction carries its
 *    architecture's latency and initiation interval (opcodes.h), else the machine's apply; a
 *    kernel whose header says "-warpsim unit timing = machine" (written by warpsim
 *    trace-export, whose kernel models are timed per class) always gets the machine's. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/trace/traceg.h"
#include "workload/workload.h"

struct trace_opts {
    char path[CFG_STR_MAX];
    bool opcode_latency;
};

/* The registry's constructor: binds workload.trace.path and workload.trace.opcode_latency. */
struct workload *trace_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e);
/* The same without a configuration (trace-info, tests). */
struct workload *trace_open(const struct trace_opts *o, struct ws_err *e);
bool trace_is(const struct workload *w);

struct trace_stats {
    uint64_t kernels;
    uint64_t ctas;                  /* CTAs started */
    uint64_t ctas_in_file;          /* ... whose thread block is in the file */
    uint64_t warps_in_file;         /* "warp =" blocks read */
    uint64_t file_insts;            /* instruction lines read */
    uint64_t synthetic_exits;       /* EXITs appended to warps whose trace does not end in one */
    uint64_t mem_insts;             /* lines that became OP_MEM */
    uint64_t regs_dropped;          /* registers beyond INST_MAX_DST / INST_MAX_SRC */
    uint64_t unknown_insts;         /* lines whose opcode is not in the table (run as INT) */
    uint64_t bytes_now, bytes_peak; /* packed-CTA memory held by the reader (see tpack.h) */
};
const struct trace_stats *trace_get_stats(const struct workload *w);

/* The current kernel's header and file (after next_kernel returned 1). */
const struct tg_header *trace_kernel_header(const struct workload *w);
const char *trace_kernel_path(const struct workload *w);
const char *trace_kernel_comp(const struct workload *w);
const char *trace_kernel_arch(const struct workload *w);

/* Opcodes not in the table, in the order first seen. */
struct trace_unknown {
    char name[32];   /* the mnemonic */
    char where[300]; /* file:line of its first use */
    uint64_t count;
};
unsigned trace_unknown_count(const struct workload *w);
const struct trace_unknown *trace_unknown_get(const struct workload *w, unsigned i);

/* Called once per unknown opcode, when first seen, with "file:line: unknown opcode ...". The
 * default prints "warpsim: warning: <msg>" on stderr; NULL silences it. */
typedef void (*trace_warn_fn)(void *ctx, const char *msg);
void trace_set_warn(struct workload *w, trace_warn_fn fn, void *ctx);
