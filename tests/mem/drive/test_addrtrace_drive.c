/* Tests for src/mem/drive/addrtrace_drive.c: address traces (Ramulator and DRAMsim3 syntax)
 * through the DDR3-1600 memory system with the protocol checker on: conservation, unloaded
 * latency from the preset, in-order stalls and lateness derived from the timing, bad lines. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "mem/drive/addrtrace_drive.h"
#include "mem/memsys.h"
#include "testutil.h"

struct run {
    struct cfg *c;
    struct memsys *ms;
    struct addrtrace *a;
    struct drive_result res;
};

static void setup(struct run *r, const char *extra_ini, const char *trace) {
    char ini[1024];
    snprintf(ini, sizeof ini, "[dram]\npreset = ddr3-1600\n[mc]\ncheck = true\n%s", extra_ini);
    memset(r, 0, sizeof *r);
    r->c = tu_cfg(ini);
    struct ws_err e = {{0}};
    r->ms = memsys_create(r->c, &e);
    if (!r->ms || cfg_check_unclaimed(r->c, &e) != 0) fail_msg("%s", e.msg);
    r->a = addrtrace_create(trace, r->ms, &e);
    if (!r->a) fail_msg("%s", e.msg);
}

static const struct addrtrace_stats *run(struct run *r, const char *extra_ini, const char *trace) {
    setup(r, extra_ini, trace);
    struct ws_err e = {{0}};
    if (drive_run(&addrtrace_ops, r->a, r->ms, false, &r->res, &e) != 0) fail_msg("%s", e.msg);
    return addrtrace_stats(r->a);
}

static void done(struct run *r) {
    addrtrace_destroy(r->a);
    memsys_destroy(r->ms);
    cfg_destroy(r->c);
}

static void test_stat_table(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    assert_int_equal(stats_desc_check(addrtrace_stat_desc, addrtrace_stat_ndesc, &e), 0);
}

static void test_untimed_conservation(void **state) {
    (void)state;
    char text[4096] = "# Ramulator style\n";
    for (int i = 0; i < 64; i++) {
        char line[64];
        snprintf(line, sizeof line, "0x%x %s\n", i * 4096 + (i % 4) * 64, i % 3 ? "R" : "W");
        strcat(text, line);
    }
    /* the 22 writes stay below mc.wq_hi (48): with drain_when_no_reads off they drain only
     * because the trace has ended */
    const char *cfgs[] = {"", "drain_when_no_reads = false\n"};
    for (int k = 0; k < 2; k++) {
        struct run r;
        const struct addrtrace_stats *s = run(&r, cfgs[k], tu_tmpfile("untimed.trc", text));
        assert_false(addrtrace_timed(r.a));
        assert_int_equal(s->requests, 64);
        assert_int_equal(s->reads + s->writes, 64);
        assert_int_equal(s->writes, 22);
        assert_int_equal(s->completed, 64);
        const struct memsys_summary *m = memsys_summary(r.ms);
        assert_int_equal(m->reads + m->reads_forwarded, s->reads);
        assert_int_equal(m->writes + m->writes_merged, s->writes);
        assert_true(m->commands_checked > 0);
        done(&r);
    }
}

/* One read due at cycle 100 to a closed bank: ACT at 100, RD at 100 + tRCD, data burst over
 * [100 + tRCD + CL, 100 + tRCD + CL + nBL): latency tRCD + CL + nBL = 26 tCK, and the run ends
 * with the burst, after 126 cycles (0-125). */
static void test_timed_unloaded_latency(void **state) {
    (void)state;
    struct run r;
    const struct addrtrace_stats *s = run(&r, "", tu_tmpfile("timed.trc", "0x0 READ 100\n"));
    assert_true(addrtrace_timed(r.a));
    int64_t lat = dram_closed_read_latency(memsys_spec(r.ms));
    assert_int_equal(lat, 26);
    assert_int_equal(s->read_lat_sum, lat);
    assert_true(s->avg_read_lat == (double)lat);
    assert_int_equal(s->late_cycles, 0);
    assert_int_equal(s->stall_cycles, 0);
    assert_int_equal(r.res.end_cycle, 100 + lat);
    const struct memsys_summary *m = memsys_summary(r.ms);
    assert_int_equal(m->cycles, 100 + lat);
    assert_true(m->energy_nj > 0);
    assert_true(m->edp_njs == m->energy_nj * m->seconds);
    done(&r);
}

/* With a one-entry read queue, three reads to one row go strictly in order: the first leaves
 * the queue when its RD issues (cycle tRCD = 11), the second is accepted in the next visited
 * cycle (12: requests are offered before the controller ticks) and its RD follows at 11 +
 * tCCD = 15, so the third is accepted at 16. Stalls: 12 + 4 = 16 cycles. */
static void test_in_order_stalls(void **state) {
    (void)state;
    struct run r;
    const struct addrtrace_stats *s =
        run(&r, "rq_size = 1\n", tu_tmpfile("stall.trc", "0x0 R\n0x40 R\n0x80 R\n"));
    const struct dram_spec *sp = memsys_spec(r.ms);
    assert_int_equal(s->stall_cycles, (sp->RCDRD + 1) + sp->CCD_L);
    assert_int_equal(s->stall_cycles, 16);
    assert_int_equal(s->completed, 3);
    done(&r);
    /* timed: the second read is due at 1 but accepted at 12, 11 cycles late */
    s = run(&r, "rq_size = 1\n", tu_tmpfile("late.trc", "0x0 READ 0\n0x40 READ 1\n"));
    assert_int_equal(s->late_cycles, 11);
    assert_int_equal(s->stall_cycles, 11);
    done(&r);
}

static void test_bad_lines(void **state) {
    (void)state;
    const char *p = tu_tmpfile("bad.trc", "0x0 R\n0x40 Q\n");
    struct run r;
    setup(&r, "", p);
    struct ws_err e = {{0}};
    assert_int_equal(drive_run(&addrtrace_ops, r.a, r.ms, false, &r.res, &e), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s:2: expected R, W, READ or WRITE, got 'Q'", p);
    assert_string_equal(e.msg, want);
    done(&r);

    /* a USIMM trace is not an address trace: its third column is no cycle */
    struct cfg *c = tu_cfg("[dram]\npreset = ddr3-1600\n");
    struct memsys *ms = memsys_create(c, &e);
    assert_non_null(ms);
    p = tu_tmpfile("usimm.trc", "12 R 0x40 0x1\n");
    assert_null(addrtrace_create(p, ms, &e));
    snprintf(want, sizeof want, "%s:1: expected a decimal cycle, got '0x40'", p);
    assert_string_equal(e.msg, want);
    p = tu_tmpfile("none.trc", "# only a comment\n\n");
    assert_null(addrtrace_create(p, ms, &e));
    snprintf(want, sizeof want, "%s: trace has no records", p);
    assert_string_equal(e.msg, want);
    memsys_destroy(ms);
    cfg_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stat_table),
        cmocka_unit_test(test_untimed_conservation),
        cmocka_unit_test(test_timed_unloaded_latency),
        cmocka_unit_test(test_in_order_stalls),
        cmocka_unit_test(test_bad_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
