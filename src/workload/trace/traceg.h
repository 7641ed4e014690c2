/* Reader of one Accel-Sim kernel trace (kernel-N.traceg, plain or gz / xz / zstd): the `-key =
 * value` header, then the body as a stream of events (thread block begins, warp begins,
 * instruction lines, thread block ends) with its structure checked as it goes (counts, order,
 * #END_TB), and a parser for instruction lines of every tracer version:
 *
 *   [tb_x tb_y tb_z warpid]   pre-v3 (no "-accelsim tracer version" line) only
 *   [line_num]                when "-enable lineinfo = 1" (v4+)
 *   PC mask dest_num [dests] opcode src_num [srcs] mem_width [mode addresses]
 *   [immediate [immediate2]]  v4 (late), v5; the header's "#traces format" line says how many
 *   [Val|NoVal values...]     v6
 *
 * Address modes: 0 one address per active lane; 1 base and stride (k-th active lane: base +
 * k * stride); 2 base and popcount(mask) - 1 deltas, each from the previous active lane. Every
 * defect is reported as "file:line: what". */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "workload/workload.h"

enum { TG_NAME_MAX = 512, TG_MAX_REGS = 16 };

struct tg_header {
    char name[TG_NAME_MAX]; /* mangled kernel name (truncated if longer) */
    uint32_t kernel_id;     /* the tracer's 1-based launch counter */
    uint32_t grid[3], block[3];
    uint32_t shmem, nregs;
    uint32_t binary_version;
    uint64_t stream_id;
    uint64_t shmem_base, local_base; /* generic-address windows; 0 when not given */
    char nvbit[32];
    int version;   /* "-accelsim tracer version"; 0 when absent (legacy) */
    bool lineinfo; /* "-enable lineinfo = 1" */
    int nimm;      /* trailing immediates per line from "#traces format": 0-2; -1 unknown */
    bool values;   /* v6: a Val|NoVal field follows the immediates */
    /* "-warpsim unit timing = machine" (warpsim trace-export): the instructions were timed with
     * the simulated machine's per-class latencies, not per-opcode ones, so a replay must do the
     * same to reproduce the run. "opcode" (or no such line, as in every NVBit trace): per opcode.
     */
    bool machine_timing;
    long line_binary_version; /* where "-binary version" was (0: absent), for messages */
    unsigned unknown_keys;    /* "-" lines that are not a known key (ignored, as Accel-Sim) */
};

enum tg_ev { TG_EOF, TG_TB_BEGIN, TG_WARP, TG_INST, TG_TB_END };

struct tg_event {
    int type;         /* enum tg_ev */
    uint32_t tb[3];   /* TG_TB_BEGIN: the block's coordinates */
    uint64_t cta;     /* TG_TB_BEGIN: linear index (x fastest) */
    uint32_t warp;    /* TG_WARP: warp within the block */
    uint32_t insts;   /* TG_WARP: its "insts =" count */
    const char *line; /* TG_INST: the text, valid until the next call */
};

/* A parsed instruction line. */
struct tg_line {
    uint64_t pc;
    uint32_t mask;
    uint32_t line_num;  /* source line (lineinfo traces), else 0 */
    uint8_t ndst, nsrc; /* registers listed (at most TG_MAX_REGS each are kept) */
    uint16_t dst[TG_MAX_REGS], src[TG_MAX_REGS]; /* REG_NONE for RZ, URZ, PT, UPT */
    const char *op; /* the opcode in the line's text (not terminated) */
    uint32_t oplen;
    uint32_t mem_width;       /* as the trace says: 0 = no address part */
    int mode;                 /* address mode 0, 1, 2; -1 without an address part */
    uint64_t addr[WARP_SIZE]; /* mem_width > 0: the address of each lane set in mask */
    int64_t imm[2];
    uint8_t nimm;
};

struct traceg;

/* Opens the file and reads its header (up to the "#traces format" line or the first #BEGIN_TB).
 * Checks grid and block (every dimension >= 1, at most 1024 threads per block) and the tracer
 * version (none, 1-6). */
struct traceg *tg_open(const char *path, struct ws_err *e);
void tg_close(struct traceg *t);
const struct tg_header *tg_header(const struct traceg *t);
const char *tg_path(const struct traceg *t);
long tg_lineno(const struct traceg *t);
const char *tg_comp(const struct traceg *t); /* "plain", "gzip", "xz", "zstd" */

/* The next event of the body: 0, or -1 with "file:line: ..." in e. Checks: blocks inside the grid,
 * in increasing linear order and each at most once; warps inside the block, each at most once;
 * exactly `insts` instruction lines per warp; #END_TB before the next #BEGIN_TB or the end. */
int tg_next(struct traceg *t, struct tg_event *ev, struct ws_err *e);

/* Parses the instruction line of the last TG_INST event (its warp and block are known to t, and
 * pre-v3 prefixes are checked against them). */
int tg_parse(struct traceg *t, const char *line, struct tg_line *out, struct ws_err *e);
