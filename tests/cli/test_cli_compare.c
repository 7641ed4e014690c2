/* `warpsim compare`: each value of the key runs the same workload, the table lists them in the
 * order given with ratios to the first, the figures equal those of `warpsim run` with that
 * value, and malformed requests fail before anything runs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* The number after `label` in a summary or table line. */
static double after(const char *text, const char *label) {
    const char *p = strstr(text, label);
    if (!p) fail_msg("no '%s' in:\n%s", label, text);
    return strtod(p + strlen(label), NULL);
}

static void test_side_by_side(void **state) {
    (void)state;
    char *cmp = NULL, *a = NULL, *b = NULL;
    const char *common = "-c gtx480 -w kmeans --set workload.kmeans.points=2048 "
                         "--set gpu.warm_l2=false";
    char args[512];
    snprintf(args, sizeof args, "compare %s mc.policy=frfcfs,fcfs", common);
    assert_int_equal(tu_run_cli(args, &cmp), 0);
    assert_non_null(strstr(cmp, "warpsim compare: kmeans on gtx480, mc.policy = frfcfs, fcfs\n"));
    snprintf(args, sizeof args, "run %s --set mc.policy=frfcfs", common);
    assert_int_equal(tu_run_cli(args, &a), 0);
    snprintf(args, sizeof args, "run %s --set mc.policy=fcfs", common);
    assert_int_equal(tu_run_cli(args, &b), 0);
    double ca = after(strstr(a, "cycles "), "cycles "), cb = after(strstr(b, "cycles "), "cycles ");
    /* the cycles row: FR-FCFS's count, then FCFS's with its ratio */
    char want[256];
    const char *row = strstr(cmp, "\n  cycles ");
    assert_non_null(row);
    assert_true(after(row, "cycles ") == ca);
    snprintf(want, sizeof want, "%.0f (%.3fx)", cb, cb / ca);
    assert_non_null(strstr(row, want));
    free(cmp);
    free(a);
    free(b);
}

static void test_errors(void **state) {
    (void)state;
    char *out = NULL;
    assert_int_equal(tu_run_cli("compare -w vecadd mc.policy=frfcfs", &out), 2);
    assert_non_null(strstr(out, "needs at least two values"));
    free(out);
    assert_int_equal(tu_run_cli("compare -w vecadd mc.policy=frfcfs,", &out), 2);
    assert_non_null(strstr(out, "empty value after ','"));
    free(out);
    assert_int_equal(tu_run_cli("compare mc.policy=a,b", &out), 2);
    assert_non_null(strstr(out, "give a workload"));
    free(out);
    assert_int_not_equal(tu_run_cli("compare -w vecadd mc.policy=frfcfs,nosuch", &out), 0);
    assert_non_null(strstr(out, "nosuch"));
    free(out);
}

/* Every run is checked before the first starts, and an error names the run as the user counts
 * them (a value's setting used to be numbered among all the settings compare adds, so both values
 * of `-w NAME K=V1,V2` were "run #2"). */
static void test_checks_all_runs_first(void **state) {
    (void)state;
    char *out = NULL;
    assert_int_equal(tu_run_cli("compare -w vecadd mc.policy=frfcfs,fcfs,nosuch", &out), 1);
    assert_non_null(strstr(out, "warpsim: run #3: mc.policy = 'nosuch' is not a known policy"));
    assert_null(strstr(out, "compare: mc.policy=frfcfs ...")); /* nothing ran */
    free(out);
    assert_int_equal(tu_run_cli("compare -w vecadd mc.nosuchkey=1,2", &out), 1);
    assert_string_equal(out, "warpsim: run #1: unknown key 'mc.nosuchkey'\n");
    free(out);
    assert_int_equal(tu_run_cli("compare -w nosuch mc.policy=frfcfs,fcfs", &out), 1);
    assert_non_null(strstr(out, "warpsim: run #1: -w: workload.name = 'nosuch' is not a known"));
    free(out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_side_by_side),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_checks_all_runs_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
