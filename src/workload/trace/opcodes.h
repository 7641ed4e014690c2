/* SASS opcode table for Accel-Sim traces: what a mnemonic is (execution-unit class, memory kind
 * and space, barrier, exit) and, per GPU architecture (the kernel's binary version), the latency
 * and initiation interval Accel-Sim's trace.config gives its unit. A full opcode such as
 * "LDG.E.128.SYS" is looked up by its mnemonic (the part before the first dot); the modifiers give
 * the access width and a few variants (BAR.ARV does not wait). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/workload.h"

/* What a mnemonic does, before it meets a trace line. */
enum trace_kind {
    TK_INT,    /* integer / ALU / conversion / move / predicate / misc */
    TK_SP,     /* FP32 and FP16 */
    TK_DP,     /* FP64 */
    TK_SFU,    /* MUFU */
    TK_TENSOR, /* HMMA, IMMA, DMMA, BMMA, xGMMA */
    TK_BRANCH, /* control flow: BRA, BSSY, CALL, RET, WARPSYNC, ... */
    TK_TEX,    /* texture fetches */
    TK_UDP,    /* uniform datapath (Turing+): UIADD3, ULDC, S2UR, ... */
    TK_LOAD,   /* LD, LDG, LDL, LDS, LDSM, LDGSTS */
    TK_STORE,  /* ST, STG, STL, STS */
    TK_ATOM,   /* ATOM, ATOMG, ATOMS, RED */
    TK_CONST,  /* LDC: a memory access only when the tracer recorded addresses */
    TK_BAR,    /* BAR.SYNC / BAR.RED: the warp waits for its CTA */
    TK_EXIT,
    TK_NKINDS
};

/* Memory space of a load/store as the opcode says; TSP_GENERIC is resolved per instruction from
 * the kernel header's shared / local window base addresses. */
enum trace_space { TSP_NONE, TSP_GLOBAL, TSP_LOCAL, TSP_SHARED, TSP_CONST, TSP_TEX, TSP_GENERIC };

struct trace_op {
    uint8_t kind;  /* enum trace_kind */
    uint8_t space; /* enum trace_space (memory kinds) */
    uint8_t mop;   /* enum mem_op (memory kinds) */
    uint8_t width; /* bytes per lane from the modifiers (memory kinds) */
    /* Issued without addresses (a non-memory opcode, or a memory opcode whose line has none):
     * this class, latency and initiation interval (0: the machine's core.lat_* / core.ii_*). */
    uint8_t cls; /* enum op_class */
    uint16_t lat, ii;
    bool known; /* false: the mnemonic is not in the table (treated as TK_INT) */
};

struct trace_arch;

/* The architecture of a binary version (35 = sm_35 ... 90 = sm_90); NULL when there is none. */
const struct trace_arch *trace_arch_find(uint32_t binary_version);
const char *trace_arch_name(const struct trace_arch *a); /* "Volta (sm_70, SM7_QV100)" */
/* The binary versions that trace_arch_find accepts, for error messages. */
const char *trace_arch_supported(void);
/* Latency and initiation interval of a unit kind on this architecture (0, 0 for kinds the
 * machine times itself: memory, barrier, exit). */
void trace_arch_timing(const struct trace_arch *a, enum trace_kind k, uint16_t *lat, uint16_t *ii);

/* Classifies the full opcode op[0..len). Always fills *o; returns o->known. */
bool trace_op_lookup(const struct trace_arch *a, const char *op, size_t len, struct trace_op *o);
/* Bytes per lane of a memory opcode from its modifiers: the first all-digit modifier or U<n> /
 * S<n> modifier gives n bits (LDG.E.64 -> 8, LDG.E.U8 -> 1, LDS.U.128 -> 16); default 4. */
unsigned trace_op_width(const char *op, size_t len);
/* The table's mnemonics, i < trace_op_table_size() (tests: order and uniqueness). */
unsigned trace_op_table_size(void);
const char *trace_op_table_name(unsigned i);
