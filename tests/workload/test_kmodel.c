/* The kernel-modelling layer (src/workload/kernels/kmodel.c): SIMT divergence and reconvergence
 * order, per-lane loop trip counts, early exits, special registers, partial warps, atomics and
 * shared memory values, skipped fully-predicated memory instructions, program checks, bad
 * accesses, and CTAs started and ended in any order. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

struct fx {
    struct devmem *dm;
    struct km_run *run;
    struct km_prog prog;
    struct kernel_desc kd;
    uint64_t buf;   /* 4 KB of device memory, param 0 */
    uint32_t *host; /* its host view */
};

static void fx_open(struct fx *f, const struct km_inst *code, uint32_t n, uint32_t grid,
                    uint32_t block, uint32_t smem) {
    struct ws_err e = {{0}};
    memset(f, 0, sizeof *f);
    f->dm = devmem_create(DEVMEM_BASE);
    f->run = km_run_create(f->dm, &e);
    f->buf = devmem_alloc(f->dm, 4096, "buf", &e);
    f->host = devmem_host(f->dm, f->buf, 4096);
    if (km_prog_build(&f->prog, "t", 16, code, n, &e)) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(f->prog.n > 0, 1);
    struct km_launch l = {
        .prog = &f->prog, .grid = {grid, 1, 1}, .block = {block, 1, 1}, .smem = smem};
    l.param[0] = (int64_t)f->buf;
    l.param[1] = (int64_t)f->buf + 1024;
    l.param[2] = (int64_t)f->buf + 2048;
    assert_int_equal(km_run_launch(f->run, &l, &f->kd, &e), 0);
}

static void fx_close(struct fx *f) {
    km_prog_free(&f->prog);
    km_run_destroy(f->run);
    devmem_destroy(f->dm);
}

static struct inst seq[256];

/* Runs one warp to its EXIT; returns the number of instructions (in seq[]). */
static int run_warp(struct fx *f, struct wl_warp *w) {
    struct ws_err e = {{0}};
    int n = 0;
    do {
        assert_true(n < 256);
        if (km_run_warp_next(f->run, w, &seq[n], &e)) fprintf(stderr, "%s\n", e.msg), fail();
    } while (seq[n++].cls != OP_EXIT);
    return n;
}

#define EXPECT_PCS(n, pcs, masks)                                                                  \
    do {                                                                                           \
        assert_int_equal(n, sizeof(pcs) / sizeof(pcs[0]));                                         \
        for (int i_ = 0; i_ < (n); i_++) {                                                         \
            assert_int_equal(seq[i_].pc, (pcs)[i_] * KM_PC_STEP);                                  \
            assert_int_equal(seq[i_].active, (masks)[i_]);                                         \
        }                                                                                          \
    } while (0)

/* if (lane < 8) r1 = lane + 200; else r1 = lane + 100; buf[lane] = r1. The taken lanes run first,
 * then the fall-through lanes, and all 32 meet at "join". */
static const struct km_inst ifelse[] = {
    KM_S2R(0, SR_LANEID),
    KM_ISETP_(KM_LT, 0, KR(0), KI(8)),
    KM_BRA_IF(0, "else", "join"),
    KM_OP2(KM_IADD, 1, KR(0), KI(100)),
    KM_BRA_("join"),
    KM_LBL("else"),
    KM_OP2(KM_IADD, 1, KR(0), KI(200)),
    KM_LBL("join"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(0)),
    KM_STG(4, KR(2), 0, KR(1)),
    KM_EXIT_(),
};

static void test_if_else(void **state) {
    (void)state;
    struct fx f;
    fx_open(&f, ifelse, sizeof ifelse / sizeof ifelse[0], 1, 32, 0);
    struct wl_warp *w[1];
    struct ws_err e = {{0}};
    assert_int_equal(km_run_cta_start(f.run, 0, w, &e), 0);
    int n = run_warp(&f, w[0]);
    static const uint32_t pcs[] = {0, 1, 2, 5, 3, 4, 6, 7, 8};
    static const uint32_t masks[] = {~0u, ~0u, ~0u, 0xffu, 0xffffff00u, 0xffffff00u, ~0u, ~0u, ~0u};
    EXPECT_PCS(n, pcs, masks);
    assert_int_equal(seq[2].cls, OP_BRANCH);
    assert_int_equal(seq[7].cls, OP_MEM);
    assert_int_equal(seq[7].mop, MOP_STORE);
    assert_int_equal(seq[7].addr[31], f.buf + 124);
    assert_int_equal(seq[8].cls, OP_EXIT);
    /* Register ids: IMAD R2 <- R0; the store reads R2 (address) and R1 (data). */
    assert_int_equal(seq[6].ndst, 1);
    assert_int_equal(seq[6].dst[0], 2);
    assert_int_equal(seq[6].nsrc, 1);
    assert_int_equal(seq[6].src[0], 0);
    assert_int_equal(seq[7].ndst, 0);
    assert_int_equal(seq[7].nsrc, 2);
    assert_int_equal(seq[7].src[0], 2);
    assert_int_equal(seq[7].src[1], 1);
    for (uint32_t l = 0; l < 32; l++) assert_int_equal(f.host[l], l < 8 ? 200 + l : 100 + l);
    km_run_cta_end(f.run, 0, w);
    fx_close(&f);
}

/* A loop that runs `lane` times (per-lane trip counts): buf[lane] = count. */
static const struct km_inst loop[] = {
    KM_S2R(0, SR_LANEID),
    KM_MOV_(2, KRZ),
    KM_ISETP_(KM_EQ, 0, KR(0), KRZ),
    KM_BRA_IF(0, "done", "done"),
    KM_LBL("loop"),
    KM_OP2(KM_IADD, 2, KR(2), KI(1)),
    KM_ISETP_(KM_LT, 0, KR(2), KR(0)),
    KM_BRA_IF(0, "loop", "done"),
    KM_LBL("done"),
    KM_OP3(KM_IMAD, 3, KR(0), KI(4), KP(0)),
    KM_STG(4, KR(3), 0, KR(2)),
    KM_EXIT_(),
};

static void test_loop_trip_counts(void **state) {
    (void)state;
    struct fx f;
    fx_open(&f, loop, sizeof loop / sizeof loop[0], 1, 32, 0);
    struct wl_warp *w[1];
    struct ws_err e = {{0}};
    assert_int_equal(km_run_cta_start(f.run, 0, w, &e), 0);
    int n = run_warp(&f, w[0]);
    /* 4 before the loop, 31 iterations of 3, then 3: iteration k runs lanes k..31, so the warp
     * keeps diverging at the back edge without the stack growing. */
    assert_int_equal(n, 4 + 31 * 3 + 3);
    for (int k = 1; k <= 31; k++) {
        const struct inst *in = &seq[4 + (k - 1) * 3];
        assert_int_equal(in->pc, 4 * KM_PC_STEP);
        assert_int_equal(in->active, ~0u << k);
    }
    assert_int_equal(seq[n - 3].active, ~0u);
    for (uint32_t l = 0; l < 32; l++) assert_int_equal(f.host[l], l);
    km_run_cta_end(f.run, 0, w);
    fx_close(&f);
}

/* @P0 EXIT for lanes >= 16: an early exit is a branch-class instruction; the final EXIT is the
 * warp's only OP_EXIT. */
static const struct km_inst early[] = {
    KM_S2R(0, SR_LANEID),
    KM_ISETP_(KM_GE, 0, KR(0), KI(16)),
    {.op = KM_EXIT, .guard = KM_IFP(0)},
    KM_OP2(KM_IADD, 1, KR(0), KI(1)),
    KM_EXIT_(),
};

static void test_early_exit(void **state) {
    (void)state;
    struct fx f;
    fx_open(&f, early, sizeof early / sizeof early[0], 1, 32, 0);
    struct wl_warp *w[1];
    struct ws_err e = {{0}};
    assert_int_equal(km_run_cta_start(f.run, 0, w, &e), 0);
    int n = run_warp(&f, w[0]);
    static const uint32_t pcs[] = {0, 1, 2, 3, 4};
    static const uint32_t masks[] = {~0u, ~0u, ~0u, 0xffffu, 0xffffu};
    EXPECT_PCS(n, pcs, masks);
    assert_int_equal(seq[2].cls, OP_BRANCH);
    assert_int_equal(seq[4].cls, OP_EXIT);
    km_run_cta_end(f.run, 0, w);
    fx_close(&f);
}

/* Special registers of a 2-D grid and a 3-D block, and a partial last warp. */
static const struct km_inst sregs[] = {
    KM_S2R(0, SR_LANEID),
    KM_OP3(KM_IMAD, 1, KR(0), KI(16), KP(0)),
    KM_S2R(2, SR_TID_X),
    KM_STG(4, KR(1), 0, KR(2)),
    KM_S2R(2, SR_TID_Y),
    KM_STG(4, KR(1), 4, KR(2)),
    KM_S2R(2, SR_TID_Z),
    KM_STG(4, KR(1), 8, KR(2)),
    KM_S2R(2, SR_CTAID_X),
    KM_S2R(3, SR_CTAID_Y),
    KM_OP3(KM_IMAD, 2, KR(3), KI(10), KR(2)),
    KM_STG(4, KR(1), 12, KR(2)),
    KM_EXIT_(),
};

static void test_special_registers_and_partial_warp(void **state) {
    (void)state;
    struct devmem *dm = devmem_create(DEVMEM_BASE);
    struct ws_err e = {{0}};
    struct km_run *run = km_run_create(dm, &e);
    uint64_t buf = devmem_alloc(dm, 1024, "buf", &e);
    const uint32_t *h = devmem_host(dm, buf, 1024);
    struct km_prog p;
    assert_int_equal(km_prog_build(&p, "sregs", 8, sregs, sizeof sregs / sizeof sregs[0], &e), 0);
    assert_int_equal(p.nreg, 4);
    /* grid (3, 2), block (10, 2, 2) = 40 threads: warp 1 has 8 lanes. */
    struct km_launch l = {.prog = &p, .grid = {3, 2, 1}, .block = {10, 2, 2}};
    l.param[0] = (int64_t)buf;
    struct kernel_desc kd;
    assert_int_equal(km_run_launch(run, &l, &kd, &e), 0);
    assert_int_equal(kd.ncta, 6);
    assert_int_equal(kd.threads, 40);
    assert_int_equal(kd.regs, 8);
    struct wl_warp *w[2];
    assert_int_equal(km_run_cta_start(run, 4, w, &e), 0); /* ctaid (1, 1) */
    struct fx f = {.run = run};
    for (int i = 0; i < 2; i++) {
        int n = run_warp(&f, w[i]);
        assert_int_equal(n, 13);
        for (int j = 0; j < n; j++) assert_int_equal(seq[j].active, i == 0 ? ~0u : 0xffu);
    }
    /* Warp 1 lane 5 is thread 37: x = 37 % 10 = 7, y = 3 % 2 = 1, z = 37 / 20 = 1. */
    assert_int_equal(h[5 * 4 + 0], 7);
    assert_int_equal(h[5 * 4 + 1], 1);
    assert_int_equal(h[5 * 4 + 2], 1);
    assert_int_equal(h[5 * 4 + 3], 11);
    km_run_cta_end(run, 4, w);
    km_prog_free(&p);
    km_run_destroy(run);
    devmem_destroy(dm);
}

/* Atomics serialise in lane order; shared memory holds values within the CTA. */
static const struct km_inst atom_smem[] = {
    KM_S2R(0, SR_LANEID),
    KM_MOV_(1, KP(2)),
    KM_ATOMG(KM_ATOM_ADD, 4, 2, KR(1), 0, KI(1)), /* old = atomicAdd(counter, 1) */
    KM_OP3(KM_IMAD, 3, KR(0), KI(4), KP(0)),
    KM_STG(4, KR(3), 0, KR(2)),
    KM_OP3(KM_IMAD, 4, KR(0), KI(4), KRZ),
    KM_STS(4, KR(4), 0, KR(0)),
    KM_BAR_(),
    KM_LDS(4, 5, KR(4), 4), /* the next lane's value */
    KM_OP3(KM_IMAD, 3, KR(0), KI(4), KP(1)),
    KM_STG(4, KR(3), 0, KR(5)),
    /* A store with every lane predicated off is not emitted. */
    KM_ISETP_(KM_LT, 1, KR(0), KRZ),
    {.op = KM_ST, .space = SPACE_GLOBAL, .width = 4, .a = KR(3), .b = KR(0), .guard = KM_IFP(1)},
    KM_EXIT_(),
};

static void test_atomics_shared_predicated(void **state) {
    (void)state;
    struct fx f;
    fx_open(&f, atom_smem, sizeof atom_smem / sizeof atom_smem[0], 1, 32, 256);
    assert_int_equal(f.kd.smem, 256);
    struct wl_warp *w[1];
    struct ws_err e = {{0}};
    assert_int_equal(km_run_cta_start(f.run, 0, w, &e), 0);
    int n = run_warp(&f, w[0]);
    assert_int_equal(n, 13); /* 14 static instructions, the dead store skipped */
    assert_int_equal(seq[2].mop, MOP_ATOMIC);
    assert_int_equal(seq[2].space, SPACE_GLOBAL);
    for (int l = 0; l < 32; l++) assert_int_equal(seq[2].addr[l], f.buf + 2048);
    assert_int_equal(seq[7].cls, OP_BAR);
    assert_int_equal(seq[8].space, SPACE_SHARED);
    assert_int_equal(seq[8].addr[3], 16);
    assert_int_equal(seq[11].pc, 11 * KM_PC_STEP);
    assert_int_equal(seq[12].pc, 13 * KM_PC_STEP);
    assert_int_equal(f.host[512], 32); /* the counter */
    for (uint32_t l = 0; l < 32; l++) {
        assert_int_equal(f.host[l], l);                        /* old values in lane order */
        assert_int_equal(f.host[256 + l], l < 31 ? l + 1 : 0); /* smem[l + 1], zeroed at start */
    }
    km_run_cta_end(f.run, 0, w);
    fx_close(&f);
}

static void expect_build_error(const struct km_inst *code, uint32_t n, uint32_t regs,
                               const char *msg) {
    struct km_prog p;
    struct ws_err e = {{0}};
    assert_int_equal(km_prog_build(&p, "bad", regs, code, n, &e), -1);
    if (!strstr(e.msg, msg)) fprintf(stderr, "got %s\n", e.msg);
    assert_non_null(strstr(e.msg, msg));
    assert_null(p.code);
}

static void test_build_errors(void **state) {
    (void)state;
    static const struct km_inst undef[] = {KM_BRA_("nowhere"), KM_EXIT_()};
    static const struct km_inst noreconv[] = {
        {.op = KM_BRA, .guard = 1, .label = "x"}, KM_LBL("x"), KM_EXIT_()};
    static const struct km_inst noexit[] = {KM_MOV_(0, KI(1))};
    static const struct km_inst badreg[] = {KM_MOV_(0, KR(70)), KM_EXIT_()};
    static const struct km_inst badwidth[] = {KM_LDG(3, 0, KP(0), 0), KM_EXIT_()};
    static const struct km_inst twice[] = {KM_LBL("a"), KM_LBL("a"), KM_EXIT_()};
    static const struct km_inst regs[] = {KM_MOV_(9, KI(1)), KM_EXIT_()};
    expect_build_error(undef, 2, 8, "instruction 0 (BRA, pc 0x0000): branch to an undefined label");
    expect_build_error(noreconv, 3, 8, "a guarded branch needs a defined reconvergence label");
    expect_build_error(noexit, 1, 8, "the last instruction must be an unguarded EXIT or BRA");
    expect_build_error(badreg, 2, 8, "an operand names no valid register");
    expect_build_error(badwidth, 2, 8, "memory width must be 1, 2, 4 or 8 bytes");
    expect_build_error(twice, 3, 8, "label 'a' defined twice");
    expect_build_error(regs, 2, 8, "kernel 'bad' uses 10 registers but declares 8");
}

/* A load outside every allocation is an error naming the kernel, pc, CTA, warp and lane. */
static const struct km_inst oob[] = {
    KM_S2R(0, SR_LANEID),
    KM_OP3(KM_IMAD, 1, KR(0), KI(256), KP(0)),
    KM_LDG(4, 2, KR(1), 0),
    KM_EXIT_(),
};
static const struct km_inst misaligned[] = {KM_LDG(4, 2, KP(0), 2), KM_EXIT_()};

static void test_bad_access(void **state) {
    (void)state;
    struct fx f;
    fx_open(&f, oob, sizeof oob / sizeof oob[0], 1, 32, 0);
    struct wl_warp *w[1];
    struct ws_err e = {{0}};
    struct inst in;
    assert_int_equal(km_run_cta_start(f.run, 0, w, &e), 0);
    for (int i = 0; i < 2; i++) assert_int_equal(km_run_warp_next(f.run, w[0], &in, &e), 0);
    assert_int_equal(km_run_warp_next(f.run, w[0], &in, &e), -1);
    char want[256];
    snprintf(want, sizeof want,
             "kernel 't' pc 0x0020 (CTA 0, warp 0, lane 16): 4-byte global access at 0x%llx is "
             "outside device memory",
             (unsigned long long)f.buf + 4096);
    assert_string_equal(e.msg, want);
    fx_close(&f);
    fx_open(&f, misaligned, 2, 1, 32, 0);
    assert_int_equal(km_run_cta_start(f.run, 0, w, &e), 0);
    assert_int_equal(km_run_warp_next(f.run, w[0], &in, &e), -1);
    assert_non_null(strstr(e.msg, "is misaligned"));
    fx_close(&f);
}

/* CTAs started together, their warps interleaved instruction by instruction, ended out of
 * order, then their records reused: each warp's stream is what it is alone. */
static void test_ctas_interleaved(void **state) {
    (void)state;
    struct fx f;
    fx_open(&f, loop, sizeof loop / sizeof loop[0], 3, 64, 0);
    struct wl_warp *w[3][2];
    struct ws_err e = {{0}};
    for (int c = 0; c < 3; c++) assert_int_equal(km_run_cta_start(f.run, (uint64_t)c, w[c], &e), 0);
    assert_int_equal(km_run_ctas_in_flight(f.run), 3);
    int count[3][2] = {{0}};
    bool done[3][2] = {{false}};
    struct inst in;
    for (int left = 6; left > 0;) {
        for (int c = 2; c >= 0; c--)
            for (int i = 0; i < 2; i++) {
                if (done[c][i]) continue;
                assert_int_equal(km_run_warp_next(f.run, w[c][i], &in, &e), 0);
                count[c][i]++;
                if (in.cls == OP_EXIT) done[c][i] = true, left--;
            }
    }
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 2; i++) assert_int_equal(count[c][i], 100);
    km_run_cta_end(f.run, 1, w[1]);
    km_run_cta_end(f.run, 2, w[2]);
    km_run_cta_end(f.run, 0, w[0]);
    assert_int_equal(km_run_ctas_in_flight(f.run), 0);
    struct wl_warp *again[2];
    assert_int_equal(km_run_cta_start(f.run, 1, again, &e), 0);
    assert_int_equal(run_warp(&f, again[1]), 100);
    assert_int_equal(run_warp(&f, again[0]), 100);
    km_run_cta_end(f.run, 1, again);
    fx_close(&f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_loop_trip_counts),
        cmocka_unit_test(test_early_exit),
        cmocka_unit_test(test_special_registers_and_partial_warp),
        cmocka_unit_test(test_atomics_shared_predicated),
        cmocka_unit_test(test_build_errors),
        cmocka_unit_test(test_bad_access),
        cmocka_unit_test(test_ctas_interleaved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
