/* polybench: what the PolyBench/GPU 1.0 kernel models (src/workload/kernels/pb_*.c) share: a
 * kmodel workload holding a few programs and the device arrays in the order the benchmark's host
 * code cudaMallocs them, every array copied to the device before the first launch (each
 * <bench>Cuda copies all its arrays), and a host loop given as a function that fills launch
 * number `idx`. The arrays are float (DATA_TYPE); their initial values are set on the host view
 * before the run (pb_array_nocopy: outputs the host never copies in), and verify compares the
 * device result with a host computation done in the GPU's operation order, bit for bit. */
#pragma once

#include "workload/kernels/kmodel.h"

enum { PB_MAX_PROGS = 4, PB_MAX_ARRAYS = 8, PB_MAX_DIMS = 4 };

struct pb;
/* Fills l for launch idx and returns 1, or returns 0 when the host loop is done. */
typedef int (*pb_launch_fn)(struct pb *p, uint32_t idx, struct km_launch *l);
typedef int (*pb_verify_fn)(struct pb *p, struct ws_err *e);

struct pb {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog[PB_MAX_PROGS];
    uint32_t nprog;
    uint64_t d[PB_MAX_ARRAYS]; /* device addresses, in cudaMalloc order */
    uint64_t bytes[PB_MAX_ARRAYS];
    uint32_t narr;
    struct wl_copy copies[PB_MAX_ARRAYS];
    uint32_t ncopies;
    int64_t n[PB_MAX_DIMS]; /* the benchmark's problem sizes, as its model names them */
    float *saved[2];        /* host copies of initial values verify needs (freed by pb_destroy) */
    uint32_t launches;
    pb_launch_fn launch;
    pb_verify_fn verify;
};

struct pb *pb_create(const char *name, pb_launch_fn launch, pb_verify_fn verify, struct ws_err *e);
void pb_destroy(struct pb *p);
/* Builds the next program (prog[nprog]); -1 with e set on error. */
int pb_prog(struct pb *p, const char *kname, uint32_t regs, const struct km_inst *code, uint32_t n,
            struct ws_err *e);
/* cudaMalloc of `count` floats as array d[narr]; its host view, or NULL with e set. */
float *pb_array(struct pb *p, uint64_t count, const char *what, struct ws_err *e);
/* The same for an array the host does not copy in (an output only). */
float *pb_array_nocopy(struct pb *p, uint64_t count, const char *what, struct ws_err *e);
/* Host view of array i. */
float *pb_host(struct pb *p, uint32_t i);
/* ceil(a / b) */
uint32_t pb_blocks(int64_t a, uint32_t b);
/* Fills l with program `prog` on grid gx x gy of bx x by blocks. */
void pb_launch_init(struct km_launch *l, const struct pb *p, uint32_t prog, uint32_t gx,
                    uint32_t gy, uint32_t bx, uint32_t by);
/* The first float in [0, count) where got and want differ bitwise, or -1. */
int64_t pb_mismatch(const float *got, const float *want, uint64_t count);
