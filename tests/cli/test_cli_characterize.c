/* `warpsim characterize` as a user runs it: exact figures for vector add (one 128 B line per
 * warp memory instruction, 3 of its 13 instructions are memory instructions, every load from
 * DRAM), the Markdown table made with one process or several is byte-identical and in registry
 * order, and bad requests fail before anything runs. */
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
    free(out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vecadd_text),
        cmocka_unit_test(test_markdown_parallel_identical),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
