/* polybench: the shared workload shell of the PolyBench/GPU kernel models (see polybench.h). */
#include "workload/kernels/polybench.h"

#include <stdlib.h>
#include <string.h>

static int pb_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct pb *p = (struct pb *)w;
    struct km_launch l;
    memset(&l, 0, sizeof l);
    if (!p->launch(p, p->launches, &l)) return 0;
    if (km_run_launch(p->kw.run, &l, k, e)) return -1;
    k->id = p->launches;
    k->copies = p->copies;
    k->ncopies = p->launches == 0 ? p->ncopies : 0;
    p->launches++;
    return 1;
}

static int pb_verify_vt(struct workload *w, struct ws_err *e) {
    struct pb *p = (struct pb *)w;
    return p->verify(p, e);
}

static void pb_destroy_vt(struct workload *w) {
    pb_destroy((struct pb *)w);
}

static const struct workload_vt pb_vt = {pb_next,       km_wl_cta_start, km_wl_warp_next,
                                         km_wl_cta_end, pb_verify_vt,    pb_destroy_vt};

struct pb *pb_create(const char *name, pb_launch_fn launch, pb_verify_fn verify, struct ws_err *e) {
    struct pb *p = calloc(1, sizeof *p);
    if (!p) return ws_fail(e, "%s: out of memory", name), NULL;
    if (km_wl_init(&p->kw, &pb_vt, name, e)) return free(p), NULL;
    p->launch = launch;
    p->verify = verify;
    return p;
}

void pb_destroy(struct pb *p) {
    if (!p) return;
    for (uint32_t i = 0; i < p->nprog; i++) km_prog_free(&p->prog[i]);
    free(p->saved[0]);
    free(p->saved[1]);
    km_wl_fini(&p->kw);
    free(p);
}

int pb_prog(struct pb *p, const char *kname, uint32_t regs, const struct km_inst *code, uint32_t n,
            struct ws_err *e) {
    if (p->nprog == PB_MAX_PROGS) return ws_fail(e, "%s: too many programs", kname);
    if (km_prog_build(&p->prog[p->nprog], kname, regs, code, n, e)) return -1;
    p->nprog++;
    return 0;
}

static float *alloc(struct pb *p, uint64_t count, const char *what, bool copy, struct ws_err *e) {
    if (p->narr == PB_MAX_ARRAYS) return ws_fail(e, "%s: too many arrays", what), NULL;
    uint64_t bytes = 4 * count, a = devmem_alloc(p->kw.dm, bytes, what, e);
    if (!a) return NULL;
    p->d[p->narr] = a;
    p->bytes[p->narr] = bytes;
    if (copy) p->copies[p->ncopies++] = (struct wl_copy){a, bytes};
    p->narr++;
    return devmem_host(p->kw.dm, a, bytes);
}

float *pb_array(struct pb *p, uint64_t count, const char *what, struct ws_err *e) {
    return alloc(p, count, what, true, e);
}

float *pb_array_nocopy(struct pb *p, uint64_t count, const char *what, struct ws_err *e) {
    return alloc(p, count, what, false, e);
}

float *pb_host(struct pb *p, uint32_t i) {
    return devmem_host(p->kw.dm, p->d[i], p->bytes[i]);
}

uint32_t pb_blocks(int64_t a, uint32_t b) {
    return (uint32_t)((a + b - 1) / b);
}

void pb_launch_init(struct km_launch *l, const struct pb *p, uint32_t prog, uint32_t gx,
                    uint32_t gy, uint32_t bx, uint32_t by) {
    l->prog = &p->prog[prog];
    l->grid[0] = gx;
    l->grid[1] = gy;
    l->grid[2] = 1;
    l->block[0] = bx;
    l->block[1] = by;
    l->block[2] = 1;
}

int64_t pb_mismatch(const float *got, const float *want, uint64_t count) {
    for (uint64_t i = 0; i < count; i++)
        if (memcmp(&got[i], &want[i], sizeof(float))) return (int64_t)i;
    return -1;
}
