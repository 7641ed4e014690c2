/* LonestarGPU Barnes-Hut model (src/workload/kernels/bh.c): the launch sequence bh.cu issues, then
 * whole runs under a driver that keeps every CTA of a launch resident and interleaves all warps
 * (SummarizationKernel and SortKernel spin on other threads' results, so running CTAs or warps one
 * after the other would never end): the tree is valid (verify walks it: each body once, counts
 * and masses add up, sortd a permutation), the accelerations match the direct O(n^2) sum within
 * the opening criterion's error, TreeBuildingKernel takes one cell per atomicSub(&bottomd) and
 * locks at least one slot per body; and on the GPU model under two instruction-buffer depths
 * (two interleavings, two different build orders) verify holds too. */
#include <stdlib.h>

#include "../gpu/gpu_harness.h"
#include "km_sync.h"
#include "workload/kernels/kmodel.h"

enum { HEAP = 0xC0000000 };

static void test_launches(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = bh\n[workload.bh]\nsteps = 3\n");
    static const char *const names[6] = {"BoundingBoxKernel",      "TreeBuildingKernel",
                                         "SummarizationKernel",    "SortKernel",
                                         "ForceCalculationKernel", "IntegrationKernel"};
    static const uint32_t grid[6] = {3 * 34, 34, 34, 34, 5 * 34, 3 * 34},
                          threads[6] = {512, 1024, 1024, 256, 256, 512};
    struct kernel_desc k;
    struct ws_err e = {{0}};
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "InitializationKernel");
    assert_int_equal(k.ncta, 1);
    assert_int_equal(k.threads, 1);
    assert_int_equal(k.ncopies, 7); /* mass, posx..z, velx..z */
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < 6; i++) {
            assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
            assert_string_equal(k.name, names[i]);
            assert_int_equal(k.grid[0], grid[i]);
            assert_int_equal(k.threads, threads[i]);
            assert_int_equal(k.ncopies, 0);
        }
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0);
    w->vt->destroy(w);
}

struct atoms {
    uint64_t bottom_lanes, cas_lanes; /* of the last TreeBuildingKernel */
};

/* Runs every launch with all its CTAs resident, one instruction per live warp in turn; a warp
 * at bar.sync waits until every live warp of its CTA is there. */
static void drive(struct workload *w, uint64_t glob, struct atoms *at) {
    struct ws_err e = {{0}};
    struct kernel_desc k;
    int rc;
    while ((rc = w->vt->next_kernel(w, &k, &e)) == 1) {
        bool tree = !strcmp(k.name, "TreeBuildingKernel");
        if (tree) memset(at, 0, sizeof *at);
        uint32_t nw = (k.threads + 31) / 32, n = (uint32_t)k.ncta * nw;
        struct wl_warp **wp = calloc(n, sizeof *wp);
        uint8_t *st = calloc(n, 1); /* 0 running, 1 at a barrier, 2 exited */
        assert_non_null(wp);
        assert_non_null(st);
        for (uint64_t c = 0; c < k.ncta; c++)
            assert_int_equal(w->vt->cta_start(w, c, &wp[c * nw], &e), 0);
        for (uint64_t left = k.ncta, guard = 0; left; guard++) {
            assert_true(guard < 100000000); /* a hang is a failure */
            for (uint32_t i = 0; i < n; i++) {
                if (st[i]) continue;
                struct inst in;
                assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0);
                if (in.cls == OP_EXIT) st[i] = 2;
                if (in.cls == OP_BAR) st[i] = 1;
                if (tree && in.cls == OP_MEM && in.mop == MOP_ATOMIC) {
                    uint64_t lanes = (uint64_t)__builtin_popcount(in.active);
                    if (in.addr[__builtin_ctz(in.active)] == glob + 4)
                        at->bottom_lanes += lanes;
                    else if (in.addr[__builtin_ctz(in.active)] != glob + 8)
                        at->cas_lanes += lanes;
                }
            }
            for (uint64_t c = 0; c < k.ncta; c++) {
                uint8_t *s = &st[c * nw];
                bool live = false, all = true;
                for (uint32_t i = 0; i < nw; i++) live |= s[i] != 2, all &= s[i] != 0;
                if (live && all)
                    for (uint32_t i = 0; i < nw; i++) s[i] = s[i] == 1 ? 0 : s[i];
                if (!live && s[0] != 3) {
                    w->vt->cta_end(w, c, &wp[c * nw]);
                    for (uint32_t i = 0; i < nw; i++) s[i] = 3; /* done and ended */
                    left--;
                }
            }
        }
        free(wp);
        free(st);
    }
    assert_int_equal(rc, 0);
}

static void test_tree_and_forces(void **state) {
    (void)state;
    /* 512 bodies, blocks = 2: nnodes = max(1024, 2048) - 1 = 2047. Device memory: errl (256 B),
     * childl (2048 x 32 B), then massl .. startl (8 KB each), 6 x 256 B of min/max, the globals. */
    struct workload *w = tu_workload("[workload]\nname = bh\n[workload.bh]\nblocks = 2\n");
    uint64_t child = HEAP + 256, mass = child + 2048 * 32, count = mass + 4 * 8192,
             glob = mass + 6 * 8192 + 6 * 256;
    struct atoms at;
    drive(w, glob, &at);
    ks_verify(w);
    struct km_workload *kw = (struct km_workload *)w;
    const int32_t *ch = devmem_host(kw->dm, child, 2048 * 32),
                  *cnt = devmem_host(kw->dm, count, 2048 * 4), *g = devmem_host(kw->dm, glob, 20);
    assert_non_null(ch);
    assert_non_null(g);
    assert_int_equal(cnt[2047], 512); /* the root counts every body */
    uint32_t cells = 0, stack[2048], sp = 0;
    stack[sp++] = 2047;
    while (sp) {
        uint32_t c = stack[--sp];
        cells++;
        for (int i = 0; i < 8; i++)
            if (ch[8 * c + i] >= 512) stack[sp++] = (uint32_t)ch[8 * c + i];
    }
    /* every cell but the root came from one atomicSub(&bottomd, 1) of the last build */
    assert_int_equal(at.bottom_lanes, cells - 1);
    assert_int_equal(g[1], 2047 - (int32_t)(cells - 1)); /* bottomd */
    assert_true(at.cas_lanes >= 512);                    /* a lock per body, retries on top */
    assert_true(g[2] >= 4 && g[2] <= 32);                /* maxdepthd */
    w->vt->destroy(w);
}

static void test_gpu(void **state) {
    (void)state;
    must_run("rtx2060s", "bh", "workload.bh.blocks=4;workload.bh.steps=1;core.ibuf=16", NULL);
    must_run("rtx2060s", "bh", "workload.bh.blocks=4;workload.bh.steps=1;core.ibuf=1", NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launches),
        cmocka_unit_test(test_tree_and_forces),
        cmocka_unit_test(test_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
