/* Tests of the scoreboard (src/core/scoreboard.c) alone and inside the SM: a dependent
 * instruction (RAW or WAW) issues exactly the producer's latency after it, an independent one the
 * next cycle, and the stall cycles are counted. */
#include "sm_harness.h"

#include "core/scoreboard.h"

static void test_sb_raw_waw(void **state) {
    (void)state;
    struct scoreboard sb;
    sb_init(&sb);
    struct inst a = I_INT(5, 1), b = I_INT(7, 5), c = I_INT(5, 2), d = I_INT(8, 9);
    assert_int_equal(sb_ready_at(&sb, &a, 10), 10);
    sb_reserve(&sb, 5, 14);
    assert_int_equal(sb_ready_at(&sb, &b, 10), 14); /* RAW on r5 */
    assert_int_equal(sb_ready_at(&sb, &c, 11), 14); /* WAW on r5 */
    assert_int_equal(sb_ready_at(&sb, &d, 11), 11); /* independent */
    assert_int_equal(sb_ready_at(&sb, &b, 14), 14); /* written at 14: free */
    assert_int_equal(sb_pending(&sb, 14), 0);
    /* a load: unknown until released */
    sb_reserve(&sb, 5, SB_PENDING);
    assert_int_equal(sb_ready_at(&sb, &b, 20), SB_PENDING);
    sb_release(&sb, 5, 37);
    assert_int_equal(sb_ready_at(&sb, &b, 20), 37);
    assert_int_equal(sb_ready_at(&sb, &b, 37), 37);
}

static void test_sb_full(void **state) {
    (void)state;
    struct scoreboard sb;
    sb_init(&sb);
    for (uint16_t r = 0; r < SB_CAP; r++) sb_reserve(&sb, r, r == 3 ? 50 : SB_PENDING);
    struct inst x = I_INT(100, NR);
    assert_int_equal(sb_ready_at(&sb, &x, 10), 50); /* no room until r3 is written */
    assert_int_equal(sb_ready_at(&sb, &x, 50), 50);
}

/* One warp, ibuf 1, lat_int 4, lat_sp 6, ii 1:
 *   0: INT r1         issues 0
 *   1: INT r2 <- r1   issues 4  (RAW, lat_int)
 *   2: SP  r3 <- r2   issues 8  (RAW)
 *   3: INT r4         issues 9  (independent: next cycle)
 *   4: INT r3         issues 14 (WAW on r3: 8 + lat_sp)
 *   5: INT r5 (lat 10 given by the instruction)  issues 15
 *   6: INT r6 <- r5   issues 25
 *   7: EXIT           issues 26
 * Scoreboard stall cycles: 1-3, 5-7, 10-13, 16-24 = 3 + 3 + 4 + 9 = 19. */
static void test_sm_dependent_issue(void **state) {
    (void)state;
    struct fake_wl *f = fw_create(32, 1);
    struct inst p[] = {I_INT(1, NR), I_INT(2, 1),  I_ALU(OP_SP, 3, 2, NR),
                       I_INT(4, NR), I_INT(3, NR), I_INT(5, NR),
                       I_INT(6, 5)};
    p[5].lat = 10;
    fw_prog(f, -1, p, 7);
    for (int mode = 0; mode < 2; mode++) {
        struct fake_wl *g = malloc(sizeof *g);
        memcpy(g, f, sizeof *g);
        struct h *h = h_create(NULL, g);
        h->every_cycle = mode;
        uint64_t end = h_run(h, 1000);
        static const uint64_t want[] = {0, 4, 8, 9, 14, 15, 25, 26};
        assert_int_equal(h->ntr, 8);
        for (unsigned i = 0; i < 8; i++) assert_int_equal(h->tr[i].now, want[i]);
        const struct sm_stats *st = sm_stats(h->s);
        assert_int_equal(st->stall_scoreboard, 19);
        assert_int_equal(st->stall_unit, 0);
        assert_int_equal(st->warp_insts, 8);
        assert_int_equal(st->thread_insts, 8 * 32);
        assert_int_equal(st->insts_by_class[OP_SP], 1);
        assert_int_equal(st->ctas_done, 1);
        assert_int_equal(st->cycles_active, 26); /* CTA start 0 -> released at 26 */
        assert_int_equal(end, 26);
        h_destroy(h);
    }
    free(f);
}

/* Initiation interval: independent SFU instructions on one sub-core issue ii_sfu apart; with two
 * sub-cores, two warps issue in the same cycle, each on its own unit. */
static void test_sm_initiation_interval(void **state) {
    (void)state;
    struct fake_wl *f = fw_create(64, 1);
    struct inst p[] = {I_ALU(OP_SFU, 1, NR, NR), I_ALU(OP_SFU, 2, NR, NR),
                       I_ALU(OP_SFU, 3, NR, NR)};
    fw_prog(f, -1, p, 3);
    struct h *h = h_create("[core]\nii_sfu = 8\nlat_sfu = 20\nsubcores = 2\n", f);
    h_run(h, 1000);
    /* slots 0 and 1 on sub-cores 0 and 1: SFU at 0, 8, 16, then EXIT at 17 */
    for (uint32_t w = 0; w < 2; w++) {
        assert_int_equal(h_issue(h, w, 0), 0);
        assert_int_equal(h_issue(h, w, 1), 8);
        assert_int_equal(h_issue(h, w, 2), 16);
        assert_int_equal(h_issue(h, w, 3), 17);
    }
    assert_int_equal(h->tr[0].sub, 0);
    assert_int_equal(h->tr[1].sub, 1);
    assert_int_equal(sm_stats(h->s)->stall_unit, 2 * 14); /* 1-7 and 9-15 on each sub-core */
    h_destroy(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb_raw_waw),
        cmocka_unit_test(test_sb_full),
        cmocka_unit_test(test_sm_dependent_issue),
        cmocka_unit_test(test_sm_initiation_interval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
