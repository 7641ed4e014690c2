/* The workload interface: what the GPU runs. A workload yields kernels one at a time (a kernel is
 * asked for only after the previous one has completed, so kernels may depend functionally on
 * earlier ones: BFS levels, K-means iterations); a kernel's CTAs are started as the SMs take
 * them; a warp yields instructions on demand, so memory stays bounded by the resident CTAs.
 * Built-in kernel models (workload/kernels/) and the Accel-Sim trace reader implement it. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/cfg.h"
#include "base/err.h"

enum { WARP_SIZE = 32, INST_MAX_DST = 4, INST_MAX_SRC = 4, REG_NONE = 0xffff };

/* Execution-unit class of an instruction; latency and initiation interval per class are machine
 * settings (core.lat_*, core.ii_*). */
enum op_class {
    OP_INT,
    OP_SP,
    OP_DP,
    OP_SFU,
    OP_TENSOR,
    OP_BRANCH,
    OP_BAR, /* bar.sync: the warp waits until every warp of its CTA arrived */
    OP_MEM, /* load/store/atomic: space and kind say which */
    OP_EXIT,
    OP_NCLASS
};
enum mem_space { SPACE_NONE, SPACE_GLOBAL, SPACE_LOCAL, SPACE_SHARED, SPACE_CONST, SPACE_TEX };
enum mem_op { MOP_LOAD, MOP_STORE, MOP_ATOMIC };

struct inst {
    uint64_t pc;
    uint32_t active; /* lanes that execute it */
    uint8_t cls;     /* enum op_class */
    uint8_t space;   /* enum mem_space (OP_MEM) */
    uint8_t mop;     /* enum mem_op (OP_MEM) */
    uint8_t width;   /* bytes per lane (OP_MEM): 1, 2, 4, 8 or 16 */
    uint8_t ndst, nsrc;
    uint16_t dst[INST_MAX_DST], src[INST_MAX_SRC]; /* register ids */
    uint16_t lat, ii; /* when non-zero: this opcode's own latency / initiation interval (traces) */
    uint64_t addr[WARP_SIZE]; /* per-lane byte address, valid for active lanes of OP_MEM */
};

/* A host-to-device copy made before a launch (cudaMemcpy HtoD): the GPU warms its L2 with these
 * lines, as Accel-Sim does with a trace's MemcpyHtoD lines. */
struct wl_copy {
    uint64_t addr, bytes;
};

struct kernel_desc {
    char name[64];
    uint32_t id; /* launch order within the workload, from 0 */
    uint32_t grid[3], block[3];
    uint64_t ncta;                /* grid[0] * grid[1] * grid[2] */
    uint32_t threads;             /* per CTA: block[0] * block[1] * block[2] */
    uint32_t regs;                /* registers per thread */
    uint32_t bound_ctas;          /* __launch_bounds__(threads, bound_ctas): the compiler caps
                                     registers per thread so that this many CTAs fit on an SM
                                     (0: no bound) */
    uint32_t smem;                /* shared memory per CTA, bytes */
    const struct wl_copy *copies; /* HtoD copies since the previous launch (owned by the
                                     workload, valid until the next next_kernel call) */
    uint32_t ncopies;
};

struct workload;
struct wl_warp; /* per-warp instruction generator, owned by the workload */

struct workload_vt {
    /* Fills *k with the next kernel launch: returns 1, or 0 when the application is finished. */
    int (*next_kernel)(struct workload *w, struct kernel_desc *k, struct ws_err *e);
    /* Starts CTA `cta` (0 .. ncta-1, linear; x fastest) of the current kernel: writes its
     * ceil(threads / 32) warp generators to warps[]. */
    int (*cta_start)(struct workload *w, uint64_t cta, struct wl_warp **warps, struct ws_err *e);
    /* Next instruction of a warp. The last instruction of every warp is OP_EXIT; it is never
     * called again after that. Returns 0 or -1 on error (bad trace). */
    int (*warp_next)(struct workload *w, struct wl_warp *wp, struct inst *in, struct ws_err *e);
    /* All warps of CTA `cta` exited: release them. */
    void (*cta_end)(struct workload *w, uint64_t cta, struct wl_warp **warps);
    /* Optional: checks the functional result after the last kernel (e.g. BFS costs vs a host
     * BFS); returns -1 with a message when wrong. NULL when there is nothing to check. */
    int (*verify)(struct workload *w, struct ws_err *e);
    void (*destroy)(struct workload *w);
};

struct workload {
    const struct workload_vt *vt;
    const char *name;
};

/* Common keys: workload.name, workload.size (test|paper), workload.seed, bound once by
 * workload_create and handed to the workload's constructor. */
enum wl_size { WL_SIZE_TEST, WL_SIZE_PAPER };
struct workload_common {
    char name[CFG_STR_MAX];
    int size; /* enum wl_size */
    int64_t seed;
};

/* A registered workload (workload/registry.c): selected by `workload.name` or `-w NAME`. */
struct workload_info {
    const char *name;  /* short and stable: "bfs", "kmeans", "vecadd" */
    const char *suite; /* "rodinia", "micro", ... */
    const char *cls;   /* expected class on the default machine (LOA/MOA/HOA) or "-" */
    const char *desc;  /* one line */
    /* Binds its own `workload.<name>.*` keys from c and builds the workload. */
    struct workload *(*create)(struct cfg *c, const struct workload_common *wc, struct ws_err *e);
};
extern const struct workload_info workload_table[];
extern const unsigned workload_ntable;
const struct workload_info *workload_find(const char *name);
/* The registered name nearest to an unknown one, when it looks like a typo of it; else NULL. */
const char *workload_suggest(const char *name);

/* Creates the workload named by workload.name (binding its keys). */
struct workload *workload_create(struct cfg *c, struct ws_err *e);

/* Bytes a built-in kernel model has cudaMalloc'd (its device arrays, each backed by host memory
 * the model reads and writes); 0 for a trace, which holds no data. */
uint64_t workload_device_bytes(const struct workload *w);

/* Totals of a whole workload generated without any timing: next_kernel, then every CTA in order,
 * each warp run to its EXIT, cta_end (tests, instruction counts, generation speed). */
struct wl_count {
    uint64_t kernels, ctas, warps;
    uint64_t insts;        /* warp instructions, EXIT included */
    uint64_t thread_insts; /* sum of active lanes */
    uint64_t by_class[OP_NCLASS];
};
int workload_count(struct workload *w, struct wl_count *c, struct ws_err *e);
