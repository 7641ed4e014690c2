/* Parboil MRI-Q model (src/workload/kernels/mriq.c): ComputePhiMag_GPU then one ComputeQ_GPU
 * per 1024-sample tile with the tile copied to ck, shared constant loads and coalesced x loads,
 * exact instruction, memory and SFU counts for odd and multi-tile sample counts, and phiMag, Qr,
 * Qi equal to the host computation. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "workload/workload.h"

#define INI(x, k) "[workload]\nname = mriq\n[workload.mriq]\nnumx = " #x "\nnumk = " #k "\n"

/* numx 256, numk 5: phiR, phiI, phiMag one 256-byte block each, then x, y, z, Qr, Qi (1024 B). */
enum { PHIR = 0xC0000000, X = PHIR + 3 * 256, CK = X + 5 * 1024 };

static void test_launches(void **state) {
    (void)state;
    struct workload *w = tu_workload(INI(256, 5));
    struct ws_err e = {{0}};
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "ComputePhiMag_GPU");
    assert_int_equal(k.block[0], 512);
    assert_int_equal(k.ncopies, 2);
    struct wl_warp *wp[16];
    struct inst in;
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    for (int i = 0; i < 16; i++) do
            assert_int_equal(w->vt->warp_next(w, wp[i], &in, &e), 0);
        while (in.cls != OP_EXIT);
    w->vt->cta_end(w, 0, wp);
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "ComputeQ_GPU");
    assert_int_equal(k.grid[0], 1);
    assert_int_equal(k.block[0], 256);
    assert_int_equal(k.ncopies, 4); /* x, y, z and the ck tile */
    assert_int_equal(k.copies[0].addr, X);
    assert_int_equal(k.copies[3].addr, CK);
    assert_int_equal(k.copies[3].bytes, 5 * 16);
    assert_int_equal(w->vt->cta_start(w, 0, wp, &e), 0);
    int n = 0, consts = 0;
    do {
        assert_int_equal(w->vt->warp_next(w, wp[1], &in, &e), 0);
        if (n == 4) { /* x[32..63] */
            assert_int_equal(in.space, SPACE_GLOBAL);
            for (int l = 0; l < 32; l++) assert_int_equal(in.addr[l], X + 4 * (32 + l));
        }
        if (in.cls == OP_MEM && in.space == SPACE_CONST) {
            /* samples in order, Kx Ky Kz then PhiMag, the same word in every lane */
            assert_int_equal(in.addr[31], in.addr[0]);
            int s = consts / 4, f = consts % 4;
            assert_int_equal(in.addr[0], CK + 16 * s + 4 * f);
            consts++;
        }
        n++;
    } while (in.cls != OP_EXIT);
    assert_int_equal(consts, 20);
    assert_int_equal(n, 19 + 15 + 32 * 2 + 4 + 3);
    w->vt->destroy(w);
}

/* ComputeQ_GPU per warp: 19 before the odd test, 15 for the odd sample, 32 per pair, 2 or 4 to
 * leave the loop (tile bound or numK bound), 2 stores and EXIT. Memory: 5 loads, 4 constant
 * loads per sample, 2 stores. SFU: 2 per sample. ComputePhiMag_GPU: 14 (3 memory) per warp with
 * a sample, 6 without. */
static void test_counts_and_result(void **state) {
    (void)state;
    struct workload *w = tu_workload(INI(256, 5));
    struct wl_count c;
    struct ws_err e = {{0}};
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 2);
    assert_int_equal(c.insts, 14 + 15 * 6 + 8 * (19 + 15 + 32 * 2 + 4 + 3));
    assert_int_equal(c.by_class[OP_MEM], 3 + 8 * (5 + 4 * 5 + 2));
    assert_int_equal(c.by_class[OP_SFU], 8 * 2 * 5);
    int rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    w->vt->destroy(w);

    w = tu_workload("[workload]\nname = mriq\n"); /* 4096 x 1536: tiles of 1024 and 512 */
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(c.kernels, 3);
    assert_int_equal(c.insts, 48 * 14 + 128 * ((19 + 32 * 512 + 2 + 3) + (19 + 32 * 256 + 4 + 3)));
    assert_int_equal(c.by_class[OP_MEM], 48 * 3 + 128 * 2 * 7 + 128 * 4 * 1536);
    rc = w->vt->verify(w, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    w->vt->destroy(w);
}

static void test_bad_sizes(void **state) {
    (void)state;
    const char *ini[] = {INI(300, 8), INI(512, 1025)},
               *msg[] = {"test.ini:4: workload.mriq.numx = 300 must be a multiple of 256",
                         "test.ini:5: workload.mriq.numk = 1025 must be even above 1024"};
    for (int i = 0; i < 2; i++) tu_expect_workload_error(ini[i], msg[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launches),
        cmocka_unit_test(test_counts_and_result),
        cmocka_unit_test(test_bad_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
