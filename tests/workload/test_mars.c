/* Mars MapReduce models (src/workload/kernels/mars.c) at the test size: each runs to the end, its
 * output equals the host's own computation (verify: PVC's page views per URL, IIX's postings per
 * link, PVR's ranking, SS's similarity scores, the latter against the same bitonic network run
 * on the host), also with warps interleaved as on the GPU; the launch sequence is Mars's
 * (MapperCount, Mapper, initialize, the bitonic stages, the scatter and boundary helpers, and
 * PVC's reduce), and the map loads have the access pattern that classes them: SS reads 32 rows
 * per warp load (uncoalesced), PVC and IIX read bytes of a different record per lane. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "workload/kernels/kmodel.h"
#include "workload/workload.h"

/* What one run saw. */
struct seen {
    uint32_t launches, bitonic, copies, bounds, mapcount, map, redcount, red;
    uint64_t warp_insts;
    /* Mapper global loads whose lanes all lie in [lo, hi): warp loads and 128-byte lines */
    uint64_t lo, hi, loads, lines;
    /* Mapper global byte loads (string scans, hashes, EmitIntermediate copies): warp loads,
     * lines, and active lanes */
    uint64_t bloads, blines, blanes;
    /* Mapper load PCs that touched more than 2 lines in some warp (divergent loads) */
    uint64_t div_pc[64];
    uint32_t ndiv;
};

static uint32_t distinct_lines(const struct inst *in) {
    uint64_t l[32];
    uint32_t n = 0;
    for (int i = 0; i < 32; i++) {
        if (!(in->active >> i & 1)) continue;
        uint64_t x = in->addr[i] / 128;
        bool dup = false;
        for (uint32_t j = 0; j < n && !dup; j++) dup = l[j] == x;
        if (!dup) l[n++] = x;
    }
    return n;
}

static void run(struct workload *w, struct seen *s) {
    struct ws_err e = {{0}};
    struct kernel_desc k;
    int rc;
    while ((rc = w->vt->next_kernel(w, &k, &e)) == 1) {
        s->launches++;
        bool map = strcmp(k.name, "Mapper") == 0;
        s->bitonic += strcmp(k.name, "bitonicKernel") == 0;
        s->copies += strcmp(k.name, "copyChunks_kernel") == 0;
        s->bounds += strcmp(k.name, "getChunkBoundary_kernel") == 0;
        s->mapcount += strcmp(k.name, "MapperCount") == 0;
        s->map += map;
        s->redcount += strcmp(k.name, "ReducerCount") == 0;
        s->red += strcmp(k.name, "Reducer") == 0;
        uint32_t nw = (k.threads + 31) / 32;
        for (uint64_t cta = 0; cta < k.ncta; cta++) {
            struct wl_warp *wp[32];
            assert_int_equal(w->vt->cta_start(w, cta, wp, &e), 0);
            for (uint32_t i = 0; i < nw; i++) {
                struct inst in;
                do {
                    int r = w->vt->warp_next(w, wp[i], &in, &e);
                    if (r) fprintf(stderr, "%s\n", e.msg);
                    assert_int_equal(r, 0);
                    s->warp_insts++;
                    if (!map || in.cls != OP_MEM || in.space != SPACE_GLOBAL || in.mop != MOP_LOAD)
                        continue;
                    uint32_t lines = distinct_lines(&in);
                    if (in.width == 1)
                        s->bloads++, s->blines += lines,
                            s->blanes += (uint64_t)__builtin_popcount(in.active);
                    if (lines > 2) {
                        bool known = false;
                        for (uint32_t j = 0; j < s->ndiv && !known; j++)
                            known = s->div_pc[j] == in.pc;
                        if (!known && s->ndiv < 64) s->div_pc[s->ndiv++] = in.pc;
                    }
                    bool inside = true;
                    for (int l = 0; l < 32; l++)
                        if (in.active >> l & 1) inside &= in.addr[l] >= s->lo && in.addr[l] < s->hi;
                    if (inside) s->loads++, s->lines += lines;
                } while (in.cls != OP_EXIT);
            }
            w->vt->cta_end(w, cta, wp);
        }
    }
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
}

/* Bitonic stages for n records padded to a power of two (at least 512): L (L + 1) / 2. */
static uint32_t stages(uint32_t n) {
    uint32_t p = 512, l = 9;
    while (p < n) p *= 2, l++;
    return l * (l + 1) / 2;
}

/* PVR: 4096 URL lines; the map copies (count, offset) through shared memory, one record per
 * thread: its global loads are coalesced (a warp's 32 keys are 128 contiguous bytes). */
static void test_pvr(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = pvr\n");
    struct seen s = {.lo = DEVMEM_BASE, .hi = DEVMEM_BASE + 16384 + 16384};
    run(w, &s);
    assert_int_equal(s.mapcount, 1);
    assert_int_equal(s.map, 1);
    assert_int_equal(s.bitonic, stages(4096)); /* 78 */
    assert_int_equal(s.copies, 2);
    assert_int_equal(s.bounds, 1);
    assert_int_equal(s.launches, 14 + stages(4096)); /* + initialize, get/setXY/ZW, 2 x getIntY,
                                                        writeBoundary, setBoundaryInt2 */
    /* d_inputKeys then d_inputVals, 16 KB each: 128 warps read one line from each */
    assert_int_equal(s.loads, 2 * 128);
    assert_int_equal(s.lines, 2 * 128);
    uint64_t insts = s.warp_insts;
    w->vt->destroy(w);
    /* deterministic */
    w = tu_workload("[workload]\nname = pvr\n");
    struct seen s2 = {0};
    run(w, &s2);
    assert_int_equal(s2.warp_insts, insts);
    w->vt->destroy(w);
}

/* SS: 96 documents x 32 features, 4560 pairs. A warp's lanes are pairs (i, j..j+31): doc1's row
 * is one address, doc2's rows are 128 bytes apart, so each float4 load of b touches up to 32
 * lines; the matrix is the first allocation (12 KB). */
static void test_ss(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = ss\n");
    struct seen s = {.lo = DEVMEM_BASE, .hi = DEVMEM_BASE + 96 * 32 * 4};
    run(w, &s);
    assert_int_equal(s.bitonic, stages(4560));
    assert_int_equal(s.map, 1);
    assert_true(s.loads > 0);
    /* lines per warp load of the matrix: the a-row loads touch 1-2, the b-row loads up to 32 */
    double per = (double)s.lines / (double)s.loads;
    fprintf(stderr, "ss: %llu matrix warp loads, %.2f lines each\n", (unsigned long long)s.loads,
            per);
    assert_true(per > 8.0);
    w->vt->destroy(w);
}

/* PVC: 4096 log entries, two MapReduce passes (the first with a reduce). The map reads the
 * entry bytes of 32 different lines per warp load. */
static void test_pvc(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = pvc\n");
    struct seen s = {.lo = DEVMEM_BASE, .hi = DEVMEM_BASE + (1u << 20)};
    run(w, &s);
    assert_int_equal(s.mapcount, 2);
    assert_int_equal(s.map, 2);
    assert_int_equal(s.redcount, 1);
    assert_int_equal(s.red, 1);
    assert_int_equal(s.copies, 4);
    assert_int_equal(s.bounds, 2);
    assert_true(s.bitonic >= stages(4096) + stages(2048));
    assert_true(s.ndiv >= 2); /* the hash loops' byte loads */
    fprintf(stderr,
            "pvc: %u launches, %u divergent Mapper loads, byte loads %.2f lines %.2f lanes\n",
            s.launches, s.ndiv, (double)s.blines / (double)s.bloads,
            (double)s.blanes / (double)s.bloads);
    /* each lane hashes its own entry: a warp's byte load touches many lines, not one */
    assert_true((double)s.blines / (double)s.bloads > 8.0);
    w->vt->destroy(w);
}

/* IIX: 8 HTML files of 16 KB; each thread scans its own ~1 KB block byte by byte, so the scan
 * load touches a line per lane; many divergent load PCs in the Mapper (seed 001: 26). */
static void test_iix(void **state) {
    (void)state;
    struct workload *w = tu_workload("[workload]\nname = iix\n");
    struct seen s = {.lo = DEVMEM_BASE, .hi = DEVMEM_BASE + 8 * 17 * 1024};
    run(w, &s);
    assert_int_equal(s.mapcount, 1);
    assert_int_equal(s.map, 1);
    assert_int_equal(s.copies, 2);
    fprintf(stderr, "iix: %u launches, %u divergent Mapper loads, %.2f lines per file load\n",
            s.launches, s.ndiv, (double)s.lines / (double)(s.loads ? s.loads : 1));
    assert_true(s.ndiv >= 20);
    fprintf(stderr, "iix: byte loads %.2f lines %.2f lanes\n", (double)s.blines / (double)s.bloads,
            (double)s.blanes / (double)s.bloads);
    /* one line per active lane: the lanes read different blocks (rarely two in one line) */
    assert_true((double)s.blines >= 0.9 * (double)s.blanes);
    w->vt->destroy(w);
}

/* The GPU's way: every CTA of a launch started at once, warps advanced one instruction at a
 * time from the last warp backwards, CTAs ended in reverse; the outputs still verify (no task's
 * result depends on another warp's timing). */
static void run_interleaved(const char *name) {
    char ini[128];
    snprintf(ini, sizeof ini, "[workload]\nname = %s\n", name);
    struct workload *w = tu_workload(ini);
    struct ws_err e = {{0}};
    struct kernel_desc k;
    int rc;
    while ((rc = w->vt->next_kernel(w, &k, &e)) == 1) {
        uint32_t nw = (k.threads + 31) / 32, total = (uint32_t)k.ncta * nw, left = total;
        struct wl_warp **wp = calloc(total, sizeof *wp);
        bool *done = calloc(total, sizeof *done);
        assert_non_null(wp);
        assert_non_null(done);
        for (uint64_t cta = 0; cta < k.ncta; cta++)
            assert_int_equal(w->vt->cta_start(w, cta, &wp[cta * nw], &e), 0);
        while (left)
            for (uint32_t i = total; i-- > 0;) {
                if (done[i]) continue;
                struct inst in;
                assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0);
                if (in.cls == OP_EXIT) done[i] = true, left--;
            }
        for (uint64_t cta = k.ncta; cta-- > 0;) w->vt->cta_end(w, cta, &wp[cta * nw]);
        free(wp), free(done);
    }
    assert_int_equal(rc, 0);
    rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    w->vt->destroy(w);
}

static void test_interleaved(void **state) {
    (void)state;
    run_interleaved("pvc");
    run_interleaved("iix");
    run_interleaved("ss");
}

static void test_bad_dim(void **state) {
    (void)state;
    tu_expect_workload_error("[workload]\nname = ss\n[workload.ss]\ndim = 30\n",
                             ":4: workload.ss.dim = 30 is not a multiple of 4");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pvr),         cmocka_unit_test(test_ss),
        cmocka_unit_test(test_pvc),         cmocka_unit_test(test_iix),
        cmocka_unit_test(test_interleaved), cmocka_unit_test(test_bad_dim),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
