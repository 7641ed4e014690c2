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

/* The compare table's cycles row holds run a's cycle count, then run b's with its ratio to a. */
static void expect_cycles_row(const char *cmp, const char *a, const char *b) {
    double ca = after(strstr(a, "cycles "), "cycles "), cb = after(strstr(b, "cycles "), "cycles ");
    char want[256];
    const char *row = strstr(cmp, "\n  cycles ");
    assert_non_null(row);
    assert_true(after(row, "cycles ") == ca);
    snprintf(want, sizeof want, "%.0f (%.3fx)", cb, cb / ca);
    assert_non_null(strstr(row, want));
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
    /* the header names the workload whatever option came first */
    char *h = NULL;
    assert_int_equal(tu_run_cli("compare -c gtx480 --size test -w vecadd --set gpu.max_insts=2000 "
                                "mc.policy=frfcfs,fcfs",
                                &h),
                     0);
    assert_non_null(strstr(h, "warpsim compare: vecadd on gtx480, mc.policy = frfcfs, fcfs\n"));
    free(h);
    snprintf(args, sizeof args, "run %s --set mc.policy=frfcfs", common);
    assert_int_equal(tu_run_cli(args, &a), 0);
    snprintf(args, sizeof args, "run %s --set mc.policy=fcfs", common);
    assert_int_equal(tu_run_cli(args, &b), 0);
    /* the cycles row: FR-FCFS's count, then FCFS's with its ratio */
    expect_cycles_row(cmp, a, b);
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

/* A --set key that only some of the compared policies read applies to those runs (and the
 * output says which); one that none reads is an error naming the policies that would. */
static void test_policy_key_for_some_runs(void **state) {
    (void)state;
    char *cmp = NULL, *a = NULL, *b = NULL;
    const char *common = "-c gtx480 -w vecadd --set mc.wg.window=0";
    /* blanks around the key, as cfg_set_arg() allows them */
    assert_int_equal(tu_run_cli("compare -c gtx480 -w vecadd --set ' mc.wg.window = 0' "
                                "mc.policy=frfcfs,wafcfs",
                                &cmp),
                     0);
    free(cmp);
    char args[512];
    snprintf(args, sizeof args, "compare %s mc.policy=frfcfs,wafcfs", common);
    assert_int_equal(tu_run_cli(args, &cmp), 0);
    assert_non_null(strstr(cmp, "compare: --set mc.wg.window=0 is read by run #2 only\n"));
    assert_int_equal(tu_run_cli("run -c gtx480 -w vecadd --set mc.policy=frfcfs", &a), 0);
    snprintf(args, sizeof args, "run %s --set mc.policy=wafcfs", common);
    assert_int_equal(tu_run_cli(args, &b), 0);
    expect_cycles_row(cmp, a, b);
    free(cmp);
    free(a);
    free(b);

    snprintf(args, sizeof args, "compare %s mc.policy=frfcfs,fcfs", common);
    assert_int_equal(tu_run_cli(args, &cmp), 1);
    assert_string_equal(cmp, "warpsim: run #1: --set #1: key 'mc.wg.window' is not read with this "
                             "configuration (read with mc.policy = frfcfs-cq, wafcfs, basjf, "
                             "basjf-ab, merb, merb-wawd, basjf-ideal)\n");
    free(cmp);
    /* the same for a single run, and a real typo is still an unknown key */
    assert_int_equal(
        tu_run_cli("dram --set mc.frfcfs_cap.cap=2 --synthetic random --requests 10", &cmp), 1);
    assert_string_equal(cmp, "warpsim: --set #1: key 'mc.frfcfs_cap.cap' is not read with this "
                             "configuration (read with mc.policy = frfcfs-cap)\n");
    free(cmp);
    assert_int_equal(
        tu_run_cli("compare -w vecadd --set mc.wg.windo=0 mc.policy=frfcfs,wafcfs", &cmp), 1);
    assert_string_equal(cmp, "warpsim: run #1: --set #1: unknown key 'mc.wg.windo' (did you mean "
                             "'mc.wg.window'?)\n");
    free(cmp);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_side_by_side),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_checks_all_runs_first),
        cmocka_unit_test(test_policy_key_for_some_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
