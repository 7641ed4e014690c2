/* Shared by the kernel-model tests whose kernels talk through shared memory across bar.sync:
 * runs a whole workload with real barriers (every warp of a CTA reaches a bar.sync before any
 * goes past it) and counts instructions per kernel name. */
#pragma once

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "workload/workload.h"

struct ks_count {
    uint64_t launches, ctas, warps, insts;
    uint64_t gld, gst, gatom, sld, sst, bar; /* warp instructions of each kind */
    uint64_t gld_lanes;                      /* active lanes of global loads */
};

static inline void ks_add(struct ks_count *c, const struct inst *in) {
    c->insts++;
    c->bar += in->cls == OP_BAR;
    if (in->cls != OP_MEM) return;
    bool g = in->space == SPACE_GLOBAL, s = in->space == SPACE_SHARED;
    if (g && in->mop == MOP_LOAD)
        c->gld++, c->gld_lanes += (uint64_t)__builtin_popcount(in->active);
    if (g && in->mop == MOP_STORE) c->gst++;
    if (g && in->mop == MOP_ATOMIC) c->gatom++;
    if (s && in->mop == MOP_LOAD) c->sld++;
    if (s && in->mop == MOP_STORE) c->sst++;
}

/* Runs every kernel of w; counts go to cnt[i] for the kernel named names[i] (nk names). */
static inline void ks_run(struct workload *w, const char *const *names, int nk,
                          struct ks_count *cnt) {
    struct ws_err e = {{0}};
    struct kernel_desc k;
    int rc;
    memset(cnt, 0, sizeof *cnt * (size_t)nk);
    while ((rc = w->vt->next_kernel(w, &k, &e)) == 1) {
        int kid = 0;
        while (kid < nk && strcmp(names[kid], k.name)) kid++;
        if (kid == nk) fprintf(stderr, "unexpected kernel %s\n", k.name);
        assert_true(kid < nk);
        struct ks_count *c = &cnt[kid];
        c->launches++;
        uint32_t nw = (k.threads + 31) / 32;
        for (uint64_t cta = 0; cta < k.ncta; cta++) {
            struct wl_warp *wp[32];
            bool done[32] = {0};
            uint32_t left = nw;
            assert_int_equal(w->vt->cta_start(w, cta, wp, &e), 0);
            c->ctas++;
            while (left) {
                for (uint32_t i = 0; i < nw; i++) {
                    if (done[i]) continue;
                    struct inst in;
                    do {
                        int r = w->vt->warp_next(w, wp[i], &in, &e);
                        if (r) fprintf(stderr, "%s\n", e.msg);
                        assert_int_equal(r, 0);
                        ks_add(c, &in);
                    } while (in.cls != OP_EXIT && in.cls != OP_BAR);
                    if (in.cls == OP_EXIT) done[i] = true, left--;
                }
            }
            w->vt->cta_end(w, cta, wp);
            c->warps += nw;
        }
    }
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
}

static inline void ks_verify(struct workload *w) {
    struct ws_err e = {{0}};
    int rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
}
