/* `warpsim run` as a user runs it: a preset by name, a one-screen summary with the figures the
 * issue names, byte-identical result files for the same input, and bad input (unknown
 * workload, out-of-range key, malformed graph file) giving a located error, exit status 1 and
 * no result file. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static const char small[] = "-w vecadd --set workload.vecadd.n=8192 --no-progress";

static void test_summary_and_determinism(void **state) {
    (void)state;
    const char *o1 = tu_tmpfile("run1.json", ""), *o2 = tu_tmpfile("run2.json", "");
    char args[1024], *text = NULL, *text2 = NULL;
    snprintf(args, sizeof args, "run -c rtx2060s %s -o %s", small, o1);
    assert_int_equal(tu_run_cli(args, &text), 0);
    const char *want[] = {"on rtx2060s (32 SMs)",
                          "IPC",
                          "miss rate",
                          "retries after a reservation fail), miss rate",
                          "row-buffer hit rate",
                          "latency divergence",
                          "load-warp execution time",
                          "(LOA)",
                          "warp instructions/s"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(text, want[i])) fail_msg("summary lacks '%s':\n%s", want[i], text);
    snprintf(args, sizeof args, "run -c %s/configs/rtx2060s.ini %s -q -o %s", WS_SOURCE_DIR, small,
             o2);
    assert_int_equal(tu_run_cli(args, &text2), 0);
    assert_string_equal(text2, ""); /* -q */
    char *a = tu_slurp(o1, NULL), *b = tu_slurp(o2, NULL);
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "\"load_class\": \"LOA\""));
    assert_non_null(strstr(a, "\"stopped_at_limit\": false"));
    assert_non_null(strstr(a, "\"definitions\""));
    /* definitions by full name: short names repeat with other units */
    assert_non_null(strstr(a, "\"dram.cycles\": \"DRAM command-clock cycles simulated [tCK]\""));
    assert_non_null(strstr(a, "\"gpu.cycles\": \"core cycles from the first launch"));
    free(a);
    free(b);
    free(text);
    free(text2);
    /* a run the cap ended says so in its result */
    snprintf(args, sizeof args, "run -w vecadd --set gpu.max_insts=1000 -q -o %s", o2);
    assert_int_equal(tu_run_cli(args, NULL), 0);
    a = tu_slurp(o2, NULL);
    assert_non_null(strstr(a, "\"stopped_at_limit\": true"));
    free(a);
}

static void expect_error(const char *extra, const char *expected) {
    const char *out = tu_tmpfile("bad.json", "");
    remove(out);
    char args[2048], *text = NULL;
    snprintf(args, sizeof args, "run %s -o %s", extra, out);
    int rc = tu_run_cli(args, &text);
    if (!strstr(text, expected)) fail_msg("got: %s\nwant: %s", text, expected);
    assert_int_equal(rc, 1);
    assert_false(tu_file_exists(out));
    free(text);
}

static void test_errors(void **state) {
    (void)state;
    expect_error("-w nosuch", "-w: workload.name = 'nosuch' is not a known workload (known: ");
    /* a near name is suggested, as for keys */
    expect_error("-w bfss", "warpsim: -w: workload.name = 'bfss' is not a known workload (did you "
                            "mean 'bfs'?)\n");
    expect_error("-c rtx2060 -w vecadd",
                 "warpsim: rtx2060: cannot open: No such file or directory (did you mean "
                 "'rtx2060s'?)\n");
    expect_error("-c nosuchgpu -w vecadd",
                 "warpsim: nosuchgpu: cannot open: No such file or directory (not a file here, "
                 "nor a preset: warpsim list configs)\n");
    expect_error("-w vecadd --set gpu.sms=0", "gpu.sms = 0 is out of range");
    expect_error("-w vecadd --set l1d.setz=2", "did you mean 'l1d.sets'?");
    /* another workload's key is not unknown: it names the workload that reads it */
    expect_error("-w vecadd --set workload.bfs.nodes=5",
                 "warpsim: --set #1: key 'workload.bfs.nodes' is not read with this configuration "
                 "(only workload bfs reads workload.bfs.*; this run's workload is vecadd)\n");
    const char *g = tu_tmpfile("bad-graph.txt", "3\n0 1\n1 1\nx 1\n");
    char extra[1024];
    snprintf(extra, sizeof extra, "-w bfs --set workload.bfs.graph=%s", g);
    char want[1024];
    snprintf(want, sizeof want, "%s:4:", g);
    expect_error(extra, want);
    /* a memory-only configuration: said so, not "gpu.sms = 0 is out of range" */
    expect_error("-c ddr4-2400 -w bfs",
                 "configs/ddr4-2400.ini is a memory-only configuration (it sets no gpu.sms); "
                 "warpsim run needs a GPU machine such as -c rtx2060s (warpsim list configs)");
    char *text = NULL;
    assert_int_equal(tu_run_cli("run -c rtx2060s", &text), 2); /* no workload: usage */
    free(text);
    assert_int_equal(tu_run_cli("run -w bfs -t /tmp", &text), 2); /* which one? */
    assert_non_null(strstr(text, "warpsim: run: give one workload (-w NAME or -t TRACE)"));
    free(text);
    /* and the other way round */
    assert_int_equal(tu_run_cli("dram -c rtx2060s --synthetic random -q", &text), 1);
    assert_non_null(strstr(text, "configs/rtx2060s.ini is a GPU machine configuration; warpsim "
                                 "dram takes a memory configuration (warpsim list configs); for "
                                 "this machine's DRAM: --set dram.preset=gddr6-rtx2060s"));
    free(text);
    /* keys the configuration's other choices do not read */
    expect_error("-w vecadd --set noc.alloc=rr --set noc.islip_iters=8",
                 "warpsim: --set #2: key 'noc.islip_iters' is not read with this configuration "
                 "(read with noc.alloc = islip)\n");
    expect_error("-w vecadd --set mc.row_timeout=5",
                 "warpsim: --set #1: key 'mc.row_timeout' is not read with this configuration "
                 "(read with mc.row_policy = timeout)\n");
    expect_error("-w bfs --set workload.graph.rmat_a=0.9",
                 "warpsim: --set #1: key 'workload.graph.rmat_a' is not read with this "
                 "configuration (read with workload.graph.gen = rmat)\n");
    expect_error("-w sssp --set workload.graph.path=" WS_SHARED_DATA
                 "/graphs/rodinia-bfs/graph4096.txt --set workload.graph.nodes=9",
                 "warpsim: --set #2: key 'workload.graph.nodes' is not read with this "
                 "configuration (read when no graph file is given; this run reads " WS_SHARED_DATA
                 "/graphs/rodinia-bfs/graph4096.txt)\n");
    /* a preset's key for the choice the command line changed is not the user's doing (h200 sets
     * row_policy = timeout and row_timeout); in a file that does not make the choice, it is */
    assert_int_equal(tu_run_cli("run -c h200 -w vecadd --set mc.row_policy=open --set "
                                "gpu.max_insts=2000 -q",
                                &text),
                     0);
    free(text);
    char *dump = NULL;
    assert_int_equal(tu_run_cli("config dump -c gtx480", &dump), 0);
    char *withkey = malloc(strlen(dump) + 64);
    assert_non_null(withkey);
    sprintf(withkey, "%s[mc]\nrow_timeout = 20\n", dump);
    free(dump);
    const char *h = tu_tmpfile("timeout.ini", withkey);
    free(withkey);
    char hargs[1200];
    snprintf(hargs, sizeof hargs, "-c %s -w vecadd", h);
    expect_error(hargs, "key 'mc.row_timeout' is not read with this configuration (read with "
                        "mc.row_policy = timeout)");
    /* a machine key without a default that the file leaves out */
    const char *m = tu_tmpfile("run-partial.ini", "[gpu]\nsms = 4\n");
    char margs[700];
    snprintf(margs, sizeof margs, "run -c %s -w vecadd -q", m);
    assert_int_equal(tu_run_cli(margs, &text), 1);
    assert_string_equal(text, "warpsim: gpu.subparts is not set: it has no default, and the "
                              "configuration (or its preset) must give it\n");
    free(text);
    /* a folder as the configuration; an output that would overwrite an input */
    const char *f = tu_tmpfile("run-in.ini", "[gpu]\nsms = 2\n");
    char dir[600], args[3000], exp[3000];
    snprintf(dir, sizeof dir, "%s", f);
    *strrchr(dir, '/') = 0;
    snprintf(args, sizeof args, "run -c %s -w vecadd -q", dir);
    assert_int_equal(tu_run_cli(args, &text), 1);
    snprintf(exp, sizeof exp, "warpsim: %s: is a folder, not a file\n", dir);
    assert_string_equal(text, exp);
    free(text);
    snprintf(args, sizeof args, "run -c %s --set gpu.subparts=1 -w vecadd -q -o %s", f, f);
    assert_int_equal(tu_run_cli(args, &text), 1);
    assert_non_null(strstr(text, "is the configuration this command reads"));
    free(text);
    char *kept = tu_slurp(f, NULL);
    assert_string_equal(kept, "[gpu]\nsms = 2\n");
    free(kept);
    /* a folder that takes no new files (procfs here; root passes access()) is refused before the
     * run, not after it */
    assert_int_equal(tu_run_cli("run -w vecadd -q -o /proc/ws-result.json", &text), 1);
    if (!strstr(text, "warpsim: /proc/ws-result.json: cannot create files in /proc: "))
        fail_msg("%s", text);
    free(text);
    /* a trace given by its folder or its kernel list: its kernel list is not overwritten */
    char tdir[700], kl[760], beside[760];
    snprintf(tdir, sizeof tdir, "%s/ws-trace-out-%d", dir, (int)getpid());
    snprintf(kl, sizeof kl, "%s/kernelslist.g", tdir);
    snprintf(beside, sizeof beside, "%s/result.json", tdir);
    char mk[3000];
    snprintf(mk, sizeof mk, "mkdir -p %s && printf 'kernel-1.traceg\\n' > %s && echo '{}' > %s",
             tdir, kl, beside);
    assert_int_equal(system(mk), 0);
    const char *forms[] = {tdir, kl};
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "run -c gtx480 -t %s -q -o %s", forms[k], kl);
        assert_int_equal(tu_run_cli(args, &text), 1);
        snprintf(exp, sizeof exp,
                 "warpsim: %s: is a file of the trace this command reads (%s); give another "
                 "output path\n",
                 kl, tdir);
        assert_string_equal(text, exp);
        free(text);
    }
    /* a result beside the trace's files is fine, written again too (the trace fails to load
     * here, after the check: this kernelslist.g names no kernel file that exists) */
    snprintf(args, sizeof args, "run -c gtx480 -t %s -q -o %s", tdir, beside);
    assert_int_equal(tu_run_cli(args, &text), 1);
    assert_null(strstr(text, "is a file of the trace"));
    free(text);
    snprintf(mk, sizeof mk, "rm -rf %s", tdir);
    assert_int_equal(system(mk), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_and_determinism),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
