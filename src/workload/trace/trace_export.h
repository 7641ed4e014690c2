/* Writes any workload as an Accel-Sim trace (tracer version 4 syntax, traceg.h), so other
 * simulators can run warpsim's kernel models and `warpsim run -t` replays them exactly.
 *
 * The workload is driven as the simulator drives it: next_kernel only after every CTA of the
 * previous kernel ended (models decide their next launch from results), CTAs in order, and the
 * warps of a CTA in turns that stop at each bar.sync until every live warp of the CTA arrived
 * (so values exchanged through shared memory across a barrier are the ones a GPU sees).
 *
 * What a struct inst becomes: a line with its PC, active mask, registers (R<n>, UR<n>, P<n>,
 * UP<n>, B<n>; REG_NONE as RZ) and a real SASS opcode that opcodes.h maps back to the same class,
 * space, kind and width (LDG.E.<w>, STG.E, LDS, STS, LDL, STL, LDC, ATOMG.E.ADD, ATOMS.ADD, TEX,
 * IMAD / ISETP, FFMA / FSETP, DFMA, MUFU.EX2, HMMA, BRA, BAR.SYNC, EXIT). Lane addresses use the
 * most compact exact mode Accel-Sim reads: base + stride for one contiguous run of >= 2 active
 * lanes with one stride, else base + deltas, or the list when that is shorter. The header says
 * "-warpsim unit timing = machine": the models' instructions take the machine's per-class
 * latencies, and the reader then does the same. Files are written under temporary names and
 * renamed when all are complete; on failure none is left behind. */
#pragma once

#include <stdint.h>

#include "base/err.h"
#include "workload/workload.h"

struct trace_export_opts {
    uint32_t binary_version; /* written in each header: one trace_arch_find knows */
};

struct trace_export_stats {
    uint64_t kernels, ctas, warps;
    uint64_t insts;  /* instruction lines written (= warp instructions generated) */
    uint64_t copies; /* MemcpyHtoD lines */
    uint64_t bytes;  /* bytes of all files written */
    uint64_t by_class[OP_NCLASS];
};

/* Runs w to its end (and its functional check, when it has one), writing dir/kernelslist.g and
 * dir/kernel-<n>.traceg (n from 1). Creates dir and its missing parents, as mkdir -p. */
int trace_export(struct workload *w, const char *dir, const struct trace_export_opts *o,
                 struct trace_export_stats *st, struct ws_err *e);

/* The opcode written for an instruction of this class / space / kind / width (tests); NULL when
 * there is none (e.g. a store to constant memory). */
const char *trace_export_opcode(const struct inst *in);
