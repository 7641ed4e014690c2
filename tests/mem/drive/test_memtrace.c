/* Tests for src/mem/drive/memtrace.c: the real USIMM traces parse to the record counts listed in
 * shared/data/PROVENANCE.md §2.2; both address-trace syntaxes; exact "path:line:" messages. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "mem/drive/memtrace.h"
#include "testutil.h"

#define USIMM_DIR WS_SHARED_DATA "/traces/usimm"

struct tally {
    uint64_t n, reads, writes, gap_sum, max_addr, with_pc;
    struct memtrace_rec first, last;
};

static void tally_file(const char *path, enum memtrace_fmt fmt, struct tally *t) {
    struct ws_err e = {{0}};
    struct memtrace *m = memtrace_open(path, fmt, &e);
    if (!m) fail_msg("%s", e.msg);
    memset(t, 0, sizeof *t);
    struct memtrace_rec r;
    int rc;
    while ((rc = memtrace_next(m, &r, &e)) == 1) {
        if (t->n == 0) t->first = r;
        t->last = r;
        t->n++;
        r.is_write ? t->writes++ : t->reads++;
        t->gap_sum += r.gap;
        if (r.addr > t->max_addr) t->max_addr = r.addr;
        if (r.has_pc) t->with_pc++;
    }
    if (rc < 0) fail_msg("%s", e.msg);
    assert_int_equal(memtrace_count(m), t->n);
    assert_int_equal(memtrace_format(m), MEMTRACE_USIMM);
    memtrace_close(m);
}

static void test_black_small(void **state) {
    (void)state;
    struct tally t;
    tally_file(USIMM_DIR "/black_small.gz", MEMTRACE_AUTO, &t);
    assert_int_equal(t.n, 141868);
    assert_int_equal(t.reads, 96359);
    assert_int_equal(t.writes, 45509);
    assert_int_equal(t.gap_sum, 24038901);
    assert_int_equal(t.max_addr, 0x3fbc1080);
    assert_int_equal(t.with_pc, 96359); /* every read carries a PC, no write does */
    /* first line `2246 R 0x3ad97780 0x114ac`, last `39 W 0x2d810900` (no trailing newline) */
    assert_int_equal(t.first.gap, 2246);
    assert_false(t.first.is_write);
    assert_int_equal(t.first.addr, 0x3ad97780);
    assert_int_equal(t.first.pc, 0x114ac);
    assert_int_equal(t.last.gap, 39);
    assert_true(t.last.is_write);
    assert_int_equal(t.last.addr, 0x2d810900);
    assert_false(t.last.has_pc);
}

static void test_jarrett_domains(void **state) {
    (void)state;
    struct tally t;
    tally_file(USIMM_DIR "/jarrett-m-domains/fluidshort", MEMTRACE_USIMM, &t);
    assert_int_equal(t.n, 9762);
    assert_int_equal(t.reads, 6676);
    assert_int_equal(t.writes, 3086);
    assert_int_equal(t.gap_sum, 431468);
    assert_int_equal(t.max_addr, 0x3e262900);
    /* `2477 R 0x3e262680 0x1000d28 1`: the domain column after the PC is ignored */
    assert_int_equal(t.first.gap, 2477);
    assert_int_equal(t.first.pc, 0x1000d28);
    tally_file(USIMM_DIR "/jarrett-m-domains/faceshort", MEMTRACE_AUTO, &t);
    assert_int_equal(t.n, 1636);
    assert_int_equal(t.reads, 913);
    assert_int_equal(t.writes, 723);
    assert_int_equal(t.gap_sum, 119918);
    assert_int_equal(t.max_addr, 0x3e26ae40);
}

/* A write's 4th column (a domain here) is not a PC, as in USIMM's sscanf for W. */
static void test_usimm_write_extra_column(void **state) {
    (void)state;
    const char *p = tu_tmpfile("wextra.txt", "# header\n\n0 W 0x30b5940 5\n  12 R 40 7ff\n");
    struct ws_err e = {{0}};
    struct memtrace *m = memtrace_open(p, MEMTRACE_AUTO, &e);
    assert_non_null(m);
    struct memtrace_rec r;
    assert_int_equal(memtrace_next(m, &r, &e), 1);
    assert_true(r.is_write);
    assert_int_equal(r.addr, 0x30b5940);
    assert_false(r.has_pc);
    assert_int_equal(r.pc, 0);
    assert_int_equal(memtrace_lineno(m), 3);
    assert_int_equal(memtrace_next(m, &r, &e), 1);
    assert_int_equal(r.gap, 12);
    assert_int_equal(r.addr, 0x40); /* hex without 0x, as %Lx reads it */
    assert_int_equal(r.pc, 0x7ff);
    assert_int_equal(memtrace_next(m, &r, &e), 0);
    memtrace_close(m);
}

static void test_ramulator_syntax(void **state) {
    (void)state;
    const char *p = tu_tmpfile("ram.txt", "0x1000 R\n0x2040 W\n# c\n\n0xABC read\n0x40 WRITE\n");
    struct ws_err e = {{0}};
    struct memtrace *m = memtrace_open(p, MEMTRACE_AUTO, &e);
    assert_non_null(m);
    struct memtrace_rec r;
    static const struct {
        uint64_t addr;
        bool w;
    } want[] = {{0x1000, false}, {0x2040, true}, {0xabc, false}, {0x40, true}};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(memtrace_next(m, &r, &e), 1);
        assert_int_equal(r.addr, want[i].addr);
        assert_int_equal(r.is_write, want[i].w);
        assert_false(r.has_cycle);
        assert_int_equal(r.gap, 0);
    }
    assert_int_equal(memtrace_format(m), MEMTRACE_ADDR);
    assert_int_equal(memtrace_next(m, &r, &e), 0);
    memtrace_close(m);
}

static void test_dramsim3_syntax(void **state) {
    (void)state;
    const char *p = tu_tmpfile("ds3.txt", "1f80 READ 5\n0x2000 WRITE 5\n\t0x40  READ  17 \n");
    struct ws_err e = {{0}};
    struct memtrace *m = memtrace_open(p, MEMTRACE_AUTO, &e);
    assert_non_null(m);
    struct memtrace_rec r;
    assert_int_equal(memtrace_next(m, &r, &e), 1);
    assert_int_equal(r.addr, 0x1f80);
    assert_false(r.is_write);
    assert_true(r.has_cycle);
    assert_int_equal(r.cycle, 5);
    assert_int_equal(memtrace_next(m, &r, &e), 1);
    assert_true(r.is_write);
    assert_int_equal(r.cycle, 5);
    assert_int_equal(memtrace_next(m, &r, &e), 1);
    assert_int_equal(r.addr, 0x40);
    assert_int_equal(r.cycle, 17);
    assert_int_equal(memtrace_next(m, &r, &e), 0);
    memtrace_close(m);
}

/* Parses `text` and expects the first failing record's message to be "<path>:<want>". */
static void expect_error(const char *name, enum memtrace_fmt fmt, const char *text,
                         const char *want) {
    const char *p = tu_tmpfile(name, text);
    struct ws_err e = {{0}};
    struct memtrace *m = memtrace_open(p, fmt, &e);
    assert_non_null(m);
    struct memtrace_rec r;
    int rc;
    while ((rc = memtrace_next(m, &r, &e)) == 1) {
    }
    memtrace_close(m);
    assert_int_equal(rc, -1);
    char full[1024];
    snprintf(full, sizeof full, "%s:%s", p, want);
    assert_string_equal(e.msg, full);
}

static void test_usimm_errors(void **state) {
    (void)state;
    expect_error("e1.txt", MEMTRACE_AUTO, "1 R 0x40\n2 W 0x80\n3 X 0x40\n",
                 "3: expected R or W, got 'X'");
    expect_error("e2.txt", MEMTRACE_USIMM, "abc R 0x40\n",
                 "1: expected a decimal count of non-memory instructions, got 'abc'");
    expect_error("e3.txt", MEMTRACE_USIMM, "5 R\n", "1: expected a hex address, got end of line");
    expect_error("e4.txt", MEMTRACE_USIMM, "5\n", "1: expected R or W, got end of line");
    expect_error("e5.txt", MEMTRACE_USIMM, "\n5 r 0x40\n", "2: expected R or W, got 'r'");
    expect_error("e6.txt", MEMTRACE_USIMM, "5 R 0xzz\n", "1: expected a hex address, got '0xzz'");
    expect_error("e7.txt", MEMTRACE_USIMM, "5 R 0x40 0xq1\n", "1: expected a hex PC, got '0xq1'");
    expect_error("e8.txt", MEMTRACE_USIMM, "5 R 0x40 0x1 7 8\n",
                 "1: unexpected '8' after the record");
    expect_error("e9.txt", MEMTRACE_USIMM, "5 W 0x40 7 8\n", "1: unexpected '8' after the record");
    expect_error("e10.txt", MEMTRACE_USIMM, "5 R 0x123456789abcdef01\n",
                 "1: expected a hex address, got '0x123456789abcdef01', which does not fit in 64 "
                 "bits");
    expect_error("e11.txt", MEMTRACE_USIMM, "0x40 R\n",
                 "1: expected a decimal count of non-memory instructions, got '0x40'");
}

static void test_addr_errors(void **state) {
    (void)state;
    expect_error("a1.txt", MEMTRACE_AUTO, "0x40 X\n", "1: expected R, W, READ or WRITE, got 'X'");
    expect_error("a2.txt", MEMTRACE_ADDR, "0x40\n",
                 "1: expected R, W, READ or WRITE, got end of line");
    expect_error("a3.txt", MEMTRACE_ADDR, "0xg0 R\n", "1: expected a hex address, got '0xg0'");
    expect_error("a4.txt", MEMTRACE_AUTO, "0x40 READ 5\n0x80 READ\n",
                 "2: missing the cycle column (earlier records have one)");
    expect_error("a5.txt", MEMTRACE_AUTO, "0x40 R\n0x80 R 9\n",
                 "2: unexpected cycle column '9' (earlier records have none)");
    expect_error("a6.txt", MEMTRACE_AUTO, "0x40 READ 10\n0x80 READ 5\n",
                 "2: cycle 5 is before the previous record's cycle 10");
    expect_error("a7.txt", MEMTRACE_AUTO, "0x40 READ x\n", "1: expected a decimal cycle, got 'x'");
    expect_error("a8.txt", MEMTRACE_AUTO, "0x40 READ 1 2\n", "1: unexpected '2' after the record");
}

static void test_open_error(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    assert_null(memtrace_open("/nonexistent/trace.gz", MEMTRACE_AUTO, &e));
    assert_string_equal(e.msg, "/nonexistent/trace.gz: cannot open: No such file or directory");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_black_small),
        cmocka_unit_test(test_jarrett_domains),
        cmocka_unit_test(test_usimm_write_extra_column),
        cmocka_unit_test(test_ramulator_syntax),
        cmocka_unit_test(test_dramsim3_syntax),
        cmocka_unit_test(test_usimm_errors),
        cmocka_unit_test(test_addr_errors),
        cmocka_unit_test(test_open_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
