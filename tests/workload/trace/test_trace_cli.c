/* The trace workload from the command line: `warpsim run -w trace --set workload.trace.path=...`
 * runs a real trace; bad traces and a missing path exit with status 1 and "file:line: ...";
 * `warpsim trace-info` prints the report (skipped while the subcommand is not wired into
 * src/cli/main.c). */
#include "trace_harness.h"

#include "testutil.h"

static void test_run(void **state) {
    (void)state;
    char *out;
    int rc = tu_run_cli("run -c qv100 -w trace --set workload.trace.path=" ACCELSIM
                        "/microgpusim-vectoradd-100-32 --no-progress",
                        &out);
    if (rc != 0) fail_msg("%s", out);
    assert_non_null(strstr(out, "warpsim run: trace on"));
    assert_non_null(strstr(out, "kernels 1, CTAs 1, warp instructions 344, cycles "));
    free(out);
    /* -t, and a folder that holds only kernel-N.traceg (no kernelslist.g) */
    rc = tu_run_cli("run -c rtx2060s -t " ACCELSIM "/mgpusim-testdata-vectoradd --no-progress",
                    &out);
    if (rc != 0) fail_msg("%s", out);
    assert_non_null(strstr(out, "kernels 1, CTAs "));
    free(out);
    rc = tu_run_cli("run -t /nonexistent-trace-dir --no-progress", &out);
    assert_int_equal(rc, 1);
    free(out);
    rc = tu_run_cli("run -w trace --no-progress", &out);
    assert_int_equal(rc, 1);
    assert_string_equal(out, "warpsim: workload 'trace' needs workload.trace.path = a trace "
                             "folder, its kernelslist.g or a .traceg file\n");
    free(out);
}

static void test_bad_trace_exit_status(void **state) {
    (void)state;
    tdir_new();
    const char *p = twrite("kernel-1.traceg", "-kernel name = k\n-grid dim = (1,1,1)\n"
                                              "-block dim = (32,1,1)\n-binary version = 70\n"
                                              "-accelsim tracer version = 4\n"
                                              "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n"
                                              "insts = 1\n0000 fffffffg 0 EXIT 0 0\n#END_TB\n");
    char args[1024], want[1024];
    snprintf(args, sizeof args, "run -c rtx2060s -w trace --set workload.trace.path=%s -q", p);
    char *out;
    assert_int_equal(tu_run_cli(args, &out), 1);
    snprintf(want, sizeof want, "warpsim: %s:10: bad hex active mask: 'fffffffg'\n", p);
    assert_string_equal(out, want);
    free(out);
    tdir_remove();
}

static void test_trace_info_cli(void **state) {
    (void)state;
    char *out;
    assert_int_equal(tu_run_cli("trace-info " ACCELSIM "/mgpusim-bfs-rodinia-k1-k2", &out), 0);
    assert_non_null(strstr(out, "total: 2 kernels, 16 CTAs\n"));
    free(out);
    assert_int_equal(tu_run_cli("trace-info /nonexistent/trace", &out), 1);
    assert_string_equal(out, "warpsim: /nonexistent/trace: cannot open: No such file or "
                             "directory\n");
    free(out);
    assert_int_equal(tu_run_cli("trace-info", &out), 2);
    free(out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run),
        cmocka_unit_test(test_bad_trace_exit_status),
        cmocka_unit_test(test_trace_info_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
