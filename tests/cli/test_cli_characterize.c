/* `warpsim characterize` as a user runs it: exact figures for vector add (one 128 B line per
 * warp memory instruction, 3 of its 13 instructions are memory instructions, every load from
 * DRAM), the Markdown table made with one process or several is byte-identical and in registry
 * order, bad requests fail before anything runs, a failed workload leaves no table, and a key
 * for one workload applies to that one only. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void test_vecadd_text(void **state) {
    (void)state;
    char *out = NULL;
    assert_int_equal(tu_run_cli("characterize -c gtx480 -w vecadd --set workload.vecadd.n=16384 "
                                "--set gpu.warm_l2=false",
                                &out),
                     0);
    assert_non_null(strstr(out, "warpsim characterize: vecadd (micro) on gtx480, test size\n"));
    assert_non_null(strstr(out, "off-chip accesses per load warp    4.00 -> MOA (expected -)"));
    assert_non_null(strstr(out, "coalescing degree                  1.00 line requests"));
    assert_non_null(strstr(out, "intra-warp L1D set concentration   1.00 "));
    /* 512 warps x 13 instructions (3 memory) */
    assert_non_null(strstr(out, "memory instructions                23.1% of 6656 warp"));
    assert_non_null(strstr(out, "L1D 100.0%"));
    free(out);
}

static void test_markdown_parallel_identical(void **state) {
    (void)state;
    char args[1024], *out = NULL;
    const char *md1 = tu_tmpfile("w1.md", ""), *md2 = tu_tmpfile("w2.md", "");
    snprintf(args, sizeof args,
             "characterize -c gtx480 -w streampri -w vecadd -w doitgen --markdown %s", md1);
    assert_int_equal(tu_run_cli(args, &out), 0);
    free(out);
    snprintf(args, sizeof args,
             "characterize -c gtx480 -w streampri -w vecadd -w doitgen -j 3 --markdown %s", md2);
    assert_int_equal(tu_run_cli(args, &out), 0);
    free(out);
    char *a = tu_slurp(md1, NULL), *b = tu_slurp(md2, NULL);
    assert_non_null(a);
    assert_non_null(b);
    /* identical apart from the command line in the header */
    const char *ta = strstr(a, "| Workload |"), *tb = strstr(b, "| Workload |");
    assert_non_null(ta);
    assert_non_null(tb);
    assert_string_equal(ta, tb);
    const char *s = strstr(ta, "\n| streampri |"), *v = strstr(ta, "\n| vecadd |"),
               *d = strstr(ta, "\n| doitgen |");
    assert_true(s && v && d && s < v && v < d);
    assert_non_null(strstr(ta, "\n| vecadd | micro | - | MOA | "));
    assert_non_null(strstr(ta, " | 1.00 | 1.00 | 100.0% | "));
    assert_non_null(strstr(ta, "equals the expected one for "));
    free(a);
    free(b);
}

static void test_errors(void **state) {
    (void)state;
    char *out = NULL;
    /* an unknown name or size is bad input (1), as in `warpsim run`; a malformed command line
     * is a usage error (2) */
    assert_int_equal(tu_run_cli("characterize -w nope", &out), 1);
    assert_non_null(strstr(out, "characterize: unknown workload 'nope'"));
    free(out);
    assert_int_equal(tu_run_cli("characterize -w kmaens", &out), 1);
    assert_non_null(
        strstr(out, "characterize: unknown workload 'kmaens' (did you mean 'kmeans'?)"));
    free(out);
    assert_int_equal(tu_run_cli("characterize -w vecadd -w trace", &out), 1);
    assert_non_null(strstr(out, "characterize: unknown workload 'trace'"));
    free(out);
    /* a table path that cannot be written is found before any simulation (its output is the
     * error alone, no "characterize:" progress line) */
    assert_int_equal(
        tu_run_cli("characterize --all --size paper --markdown /no-such-dir/t.md", &out), 1);
    assert_string_equal(
        out, "warpsim: /no-such-dir/t.md: folder /no-such-dir: No such file or directory\n");
    free(out);
    assert_int_equal(tu_run_cli("characterize", &out), 2);
    assert_non_null(strstr(out, "give -w NAME or --all"));
    free(out);
    assert_int_equal(tu_run_cli("characterize -w", &out), 2);
    free(out);
    assert_int_equal(tu_run_cli("characterize -w vecadd --size huge", &out), 1);
    assert_non_null(strstr(out, "'huge' is neither test nor paper"));
    free(out);
    /* a bad key fails the run, and no table is left behind */
    const char *md = tu_tmpfile("bad.md", "");
    remove(md);
    char args[1024];
    snprintf(args, sizeof args, "characterize -w vecadd --set gpu.nosuch=1 --markdown %s", md);
    assert_int_not_equal(tu_run_cli(args, &out), 0);
    assert_false(tu_file_exists(md));
    free(out);
    /* one workload's key that none of the workloads reads: the unknown-key error, before any
     * run; one that cannot be built: its name and message */
    snprintf(args, sizeof args,
             "characterize -c gtx480 -w vecadd -w streampri --set workload.vecadd.nn=16384 "
             "--markdown %s",
             md);
    assert_int_equal(tu_run_cli(args, &out), 1);
    assert_non_null(strstr(out, "warpsim: --set #1: unknown key 'workload.vecadd.nn' (did you "
                                "mean 'workload.vecadd.n'?)"));
    assert_null(strstr(out, "characterize: vecadd ..."));
    assert_false(tu_file_exists(md));
    free(out);
    snprintf(args, sizeof args,
             "characterize -c gtx480 -w vecadd -w bfs --set workload.bfs.graph=/no/such/graph "
             "--markdown %s",
             md);
    assert_int_equal(tu_run_cli(args, &out), 1);
    assert_non_null(strstr(out, "warpsim: characterize: bfs: --set #1: workload.bfs.graph = "
                                "'/no/such/graph': cannot open"));
    assert_false(tu_file_exists(md));
    free(out);
    /* a workload that fails while running (its CTA needs 3 KB of shared memory): the others
     * run, but no table with a hole is written, and an older one is not replaced */
    const char *old = tu_tmpfile("old.md", "older table\n");
    snprintf(args, sizeof args,
             "characterize -c gtx480 -w vecadd -w hotspot --set core.smem=1024 --markdown %s", old);
    assert_int_equal(tu_run_cli(args, &out), 1);
    assert_non_null(strstr(out, "warpsim: characterize: hotspot: kernel 0 (calculate_temp): one "
                                "CTA (256 threads"));
    assert_non_null(strstr(out, "1 of 2 workloads failed;"));
    char *kept = tu_slurp(old, NULL);
    assert_string_equal(kept, "older table\n");
    free(kept);
    free(out);
}

/* A key for one workload only (workload.vecadd.n) applies to it and not to the others. */
static void test_per_workload_key(void **state) {
    (void)state;
    char args[1024], *out = NULL;
    const char *md = tu_tmpfile("per.md", "");
    snprintf(args, sizeof args,
             "characterize -c gtx480 -w vecadd -w streampri --set workload.vecadd.n=16384 "
             "--set gpu.warm_l2=false -j 2 --markdown %s",
             md);
    assert_int_equal(tu_run_cli(args, &out), 0);
    free(out);
    char *t = tu_slurp(md, NULL);
    assert_non_null(t);
    /* 512 warps x 13 instructions, every load from DRAM */
    assert_non_null(strstr(t, "\n| vecadd | micro | - | MOA | 4.00 | 1.00 | 1.00 | 100.0% | "));
    assert_non_null(strstr(t, " | 23.1% | "));
    assert_non_null(strstr(t, " | 6656 | c[i] = a[i] + b[i]"));
    assert_non_null(strstr(t, "\n| streampri | cuda-samples | MOA | "));
    free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vecadd_text),
        cmocka_unit_test(test_markdown_parallel_identical),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_per_workload_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
