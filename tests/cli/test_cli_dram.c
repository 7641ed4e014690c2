/* `warpsim dram` as a user runs it: bad input gives "file:line: message", exit status 1 and no
 * result file; the same input and seed give byte-identical result files. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "testutil.h"

static void expect_error(const char *ini_name, const char *ini, const char *extra_args,
                         const char *expected) {
    const char *cfgp = tu_tmpfile(ini_name, ini);
    const char *out = tu_tmpfile("result.json", "");
    remove(out);
    char args[2048];
    snprintf(args, sizeof args, "dram -c %s --synthetic random --requests 100 %s -o %s", cfgp,
             extra_args, out);
    char *text = NULL;
    int rc = tu_run_cli(args, &text);
    char want[1024];
    snprintf(want, sizeof want, expected, cfgp);
    if (!strstr(text, want)) fprintf(stderr, "got: %s\nwant: %s\n", text, want);
    assert_non_null(strstr(text, want));
    assert_int_equal(rc, 1);
    assert_false(tu_file_exists(out));
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    assert_false(tu_file_exists(tmp));
    free(text);
}

static void test_unknown_key(void **state) {
    (void)state;
    expect_error("unknown.ini", "[dram]\npreset = ddr4-2400\n[mc]\npolcy = fcfs\n", "",
                 "warpsim: %s:4: unknown key 'mc.polcy' (did you mean 'mc.policy'?)");
}

/* A configuration file that sets nothing (empty, or comments and headers only) is refused rather
 * than run as the defaults. */
static void test_empty_config(void **state) {
    (void)state;
    expect_error("empty.ini", "", "",
                 "warpsim: %s: sets no key (no 'key = value' line under a [section])");
    expect_error("bare.ini", "; nothing yet\n[dram]\n", "",
                 "warpsim: %s: sets no key (no 'key = value' line under a [section])");
}

static void test_out_of_range_timing(void **state) {
    (void)state;
    expect_error("range.ini", "[dram]\npreset = ddr4-2400\nRCDRD = 0\n", "",
                 "warpsim: %s:3: dram.RCDRD = 0 is out of range [1, 200]");
}

static void test_malformed_ini(void **state) {
    (void)state;
    expect_error("malformed.ini", "[dram]\npreset = ddr4-2400\nthis line has no equals sign\n", "",
                 "warpsim: %s:3: malformed line (expected [section] or key = value)");
}

static void test_cross_key_rule(void **state) {
    (void)state;
    expect_error("cross.ini", "[dram]\npreset = ddr4-2400\nRAS = 80\n", "",
                 "warpsim: %s:3: dram.RC = 56 is shorter than dram.RAS = 80");
    expect_error("wm.ini", "[mc]\npolicy = usimm\nusimm.lo_wm = 50\n", "",
                 "warpsim: %s:3: mc.usimm.lo_wm = 50 must be below mc.usimm.hi_wm = 40");
}

/* DDR4-2400: CL 17, CWL 12, nBL 4, RTW 11. A later CAS latency alone would let a write's data
 * (WR + CWL) start before the read's (RD + CL) has left the bus: the config is refused, the key
 * the user set is blamed, and setting RTW with it is accepted. */
static void test_rtw_follows_cas(void **state) {
    (void)state;
    expect_error("rtw.ini", "[dram]\npreset = ddr4-2400\nCL = 22\n", "",
                 "warpsim: %s:3: dram.RTW = 11 is shorter than dram.CL + dram.nBL - dram.CWL = 14");
    expect_error("rtw2.ini", "[dram]\npreset = ddr4-2400\nCWL = 1\n", "",
                 "warpsim: %s:3: dram.RTW = 11 is shorter than dram.CL + dram.nBL - dram.CWL = 20");
    expect_error("rtw3.ini", "[dram]\npreset = ddr4-2400\nCL = 22\nRTW = 13\n", "",
                 "warpsim: %s:4: dram.RTW = 13 is shorter than dram.CL + dram.nBL - dram.CWL = 14");
    char *text = NULL;
    assert_int_equal(tu_run_cli("dram --synthetic mixed --requests 5000 --check -q --set "
                                "dram.preset=ddr4-2400 --set dram.CL=22 --set dram.RTW=16",
                                &text),
                     0);
    free(text);
}

/* An option the chosen request source does not read is an error, not silently ignored. */
static void test_options_of_other_sources(void **state) {
    (void)state;
    const char *tr = tu_tmpfile("two.trace", "0x1000 R\n0x2000 W\n");
    static const struct {
        const char *args, *want;
    } cases[] = {
        {"--trace %s --requests 100",
         "warpsim: --requests: key 'synth.requests' is not read with this configuration (read "
         "with --synthetic only)"},
        {"--trace %s --seed 3",
         "warpsim: --seed: key 'sim.seed' is not read with this configuration (read with "
         "--synthetic only)"},
        {"--synthetic stream --stride 64",
         "warpsim: --stride: key 'synth.stride' is not read with this configuration (read with "
         "synth.pattern = strided)"},
        {"--synthetic random --set synth.streams=4",
         "warpsim: --set #1: key 'synth.streams' is not read with this configuration (read with "
         "synth.pattern = mixed)"},
        /* gddr5-gtx480 with one channel maps 256 MiB: a footprint beyond it would wrap */
        {"--set dram.preset=gddr5-gtx480 --set dram.channels=1 --synthetic random --footprint "
         "268435457",
         "warpsim: --footprint: synth.footprint = 268435457 B is larger than the memory's "
         "268435456 B (its addresses would wrap)"},
        {"--synthetic row-conflict --footprint 8192",
         "warpsim: --footprint: key 'synth.footprint' is not read with this configuration (read "
         "with synth.pattern = stream random strided mixed)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char args[1024], src[600];
        snprintf(src, sizeof src, cases[k].args, tr);
        snprintf(args, sizeof args, "dram %s -q", src);
        char *text = NULL;
        assert_int_equal(tu_run_cli(args, &text), 1);
        if (!strstr(text, cases[k].want))
            fprintf(stderr, "got: %s\nwant: %s\n", text, cases[k].want);
        assert_non_null(strstr(text, cases[k].want));
        free(text);
    }
    /* unset, the footprint is 1 GiB or the whole of a smaller memory */
    const char *out = tu_tmpfile("fp.json", "");
    char args[600];
    snprintf(args, sizeof args,
             "dram --set dram.preset=gddr5-gtx480 --set dram.channels=1 --synthetic random "
             "--requests 100 -q -o %s",
             out);
    assert_int_equal(tu_run_cli(args, NULL), 0);
    json_error_t je;
    json_t *j = json_load_file(out, 0, &je);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(json_object_get(j, "stats"), "front"), "footprint")),
                     268435456);
    json_decref(j);
    /* the keys each pattern does read */
    assert_int_equal(tu_run_cli("dram --synthetic strided --stride 64 --requests 100 -q", NULL), 0);
    assert_int_equal(tu_run_cli("dram --synthetic mixed --streams 2 --requests 100 -q", NULL), 0);
    char *text = NULL;
    assert_int_equal(tu_run_cli("dram --synthetic random --synthetic stream", &text), 2);
    assert_non_null(strstr(text, "warpsim: dram: --synthetic given twice"));
    free(text);
}

static void test_unknown_policy(void **state) {
    (void)state;
    expect_error(
        "policy.ini", "[mc]\npolicy = nope\n", "",
        "warpsim: %s:2: mc.policy = 'nope' is not a known policy (known: fcfs, fifo, frfcfs, "
        "frfcfs-cap, close, usimm");
}

static void test_bad_set_option(void **state) {
    (void)state;
    char *text = NULL;
    int rc = tu_run_cli("dram --synthetic random --set dram.CL=abc", &text);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(text, "warpsim: --set #1: dram.CL = 'abc' is not an integer"));
    free(text);
}

static void test_malformed_trace_line(void **state) {
    (void)state;
    const char *tr = tu_tmpfile("bad.trace", "0x1000 R\n0x2000 W\n0x3000 Q\n");
    const char *out = tu_tmpfile("trace-result.json", "");
    remove(out);
    char args[1024], want[600];
    snprintf(args, sizeof args, "dram --trace %s -o %s", tr, out);
    char *text = NULL;
    assert_int_equal(tu_run_cli(args, &text), 1);
    snprintf(want, sizeof want, "warpsim: %s:3: expected R, W, READ or WRITE, got 'Q'", tr);
    if (!strstr(text, want)) fprintf(stderr, "got: %s\n", text);
    assert_non_null(strstr(text, want));
    assert_false(tu_file_exists(out));
    free(text);
}

static void test_deterministic_results(void **state) {
    (void)state;
    const char *a = tu_tmpfile("a.json", ""), *b = tu_tmpfile("b.json", "");
    char args[1024];
    snprintf(
        args, sizeof args,
        "dram -c %s/configs/ddr4-2400.ini --synthetic mixed --requests 20000 --seed 3 -q -o %s",
        WS_SOURCE_DIR, a);
    assert_int_equal(tu_run_cli(args, NULL), 0);
    snprintf(
        args, sizeof args,
        "dram -c %s/configs/ddr4-2400.ini --synthetic mixed --requests 20000 --seed 3 -q -o %s",
        WS_SOURCE_DIR, b);
    assert_int_equal(tu_run_cli(args, NULL), 0);
    char *ja = tu_slurp(a, NULL), *jb = tu_slurp(b, NULL);
    assert_non_null(ja);
    assert_non_null(jb);
    if (strcmp(ja, jb) != 0)
        fprintf(stderr, "differ: %zu vs %zu bytes (%s, %s)\n", strlen(ja), strlen(jb), a, b);
    assert_int_equal(strcmp(ja, jb), 0);
    assert_non_null(strstr(ja, "\"reads\""));
    free(ja);
    free(jb);
}

static void test_config_dump(void **state) {
    (void)state;
    char *text = NULL;
    char args[512];
    snprintf(args, sizeof args, "config dump -c %s/configs/gddr5-gtx480.ini --set mc.policy=fcfs",
             WS_SOURCE_DIR);
    assert_int_equal(tu_run_cli(args, &text), 0);
    assert_non_null(strstr(text, "[dram]"));
    assert_non_null(strstr(text, "RCDRD              = 12"));
    assert_non_null(strstr(text, "policy             = fcfs"));
    assert_non_null(strstr(text, "[--set #1]"));
    free(text);
}

/* A bad -o is reported before the simulation runs (nothing printed but the error), naming the
 * path given; a device such as /dev/null is written in place, never replaced by a renamed file. */
static void test_output_paths(void **state) {
    (void)state;
    char *text = NULL;
    assert_int_equal(
        tu_run_cli("dram --synthetic random --requests 100 -o /no-such-dir/r.json", &text), 1);
    assert_string_equal(
        text, "warpsim: /no-such-dir/r.json: folder /no-such-dir: No such file or directory\n");
    free(text);
    const char *f = tu_tmpfile("outdir-probe", "");
    char dir[600], args[1024], want[700];
    snprintf(dir, sizeof dir, "%s", f);
    *strrchr(dir, '/') = 0;
    snprintf(args, sizeof args, "dram --synthetic random --requests 100 -o %s", dir);
    assert_int_equal(tu_run_cli(args, &text), 1);
    snprintf(want, sizeof want, "warpsim: %s: is a folder, not a file\n", dir);
    assert_string_equal(text, want);
    free(text);
    /* a folder given as an input file */
    const char *folder_inputs[] = {"-c %s --synthetic random", "--trace %s", "--usimm %s"};
    for (size_t k = 0; k < sizeof folder_inputs / sizeof folder_inputs[0]; k++) {
        char src[700];
        snprintf(src, sizeof src, folder_inputs[k], dir);
        snprintf(args, sizeof args, "dram %s -q", src);
        assert_int_equal(tu_run_cli(args, &text), 1);
        assert_string_equal(text, want);
        free(text);
    }
    /* the result would overwrite the input */
    const char *tr = tu_tmpfile("in.trc", "0x0 R\n");
    snprintf(args, sizeof args, "dram --trace %s -q -o %s", tr, tr);
    assert_int_equal(tu_run_cli(args, &text), 1);
    snprintf(want, sizeof want,
             "warpsim: %s: is the trace this command reads (%s); give another output path\n", tr,
             tr);
    assert_string_equal(text, want);
    free(text);
    char *kept = tu_slurp(tr, NULL);
    assert_string_equal(kept, "0x0 R\n");
    free(kept);
    const char *ini = tu_tmpfile("in.ini", "[dram]\npreset = ddr4-2400\n");
    snprintf(args, sizeof args, "dram -c %s --synthetic random --requests 10 -q -o %s", ini, ini);
    assert_int_equal(tu_run_cli(args, &text), 1);
    snprintf(want, sizeof want,
             "warpsim: %s: is the configuration this command reads (%s); give another output "
             "path\n",
             ini, ini);
    assert_string_equal(text, want);
    free(text);
    struct stat st;
    if (stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode)) {
        assert_int_equal(tu_run_cli("dram --synthetic random --requests 100 -q -o /dev/null", NULL),
                         0);
        assert_int_equal(stat("/dev/null", &st), 0);
        assert_true(S_ISCHR(st.st_mode));
        assert_false(tu_file_exists("/dev/null.tmp"));
    }
}

/* --lockstep visits every DRAM cycle instead of skipping to the next event: the result files
 * are byte-identical (a small read queue that fills, an HBM2 mix, a USIMM trace). */
static void test_lockstep_same_results(void **state) {
    (void)state;
    static const char *const runs[] = {
        "-c %s/configs/ddr4-2400.ini --synthetic row-conflict --requests 5000 --set mc.rq_size=4",
        "-c %s/configs/hbm2-qv100.ini --synthetic mixed --requests 5000",
        "-c %s/configs/gddr5-gtx480.ini --synthetic stream --requests 5000 --set synth.window=2",
    };
    const char *a = tu_tmpfile("ls-a.json", ""), *b = tu_tmpfile("ls-b.json", "");
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        char src[512], args[1024];
        snprintf(src, sizeof src, runs[k], WS_SOURCE_DIR);
        snprintf(args, sizeof args, "dram %s -q -o %s", src, a);
        assert_int_equal(tu_run_cli(args, NULL), 0);
        snprintf(args, sizeof args, "dram %s -q --lockstep -o %s", src, b);
        assert_int_equal(tu_run_cli(args, NULL), 0);
        char *ja = tu_slurp(a, NULL), *jb = tu_slurp(b, NULL);
        assert_non_null(ja);
        assert_non_null(jb);
        if (strcmp(ja, jb) != 0) fail_msg("results differ with --lockstep: %s", src);
        free(ja);
        free(jb);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_key),     cmocka_unit_test(test_out_of_range_timing),
        cmocka_unit_test(test_empty_config),    cmocka_unit_test(test_malformed_ini),
        cmocka_unit_test(test_cross_key_rule),  cmocka_unit_test(test_unknown_policy),
        cmocka_unit_test(test_bad_set_option),  cmocka_unit_test(test_deterministic_results),
        cmocka_unit_test(test_config_dump),     cmocka_unit_test(test_malformed_trace_line),
        cmocka_unit_test(test_output_paths),    cmocka_unit_test(test_lockstep_same_results),
        cmocka_unit_test(test_rtw_follows_cas), cmocka_unit_test(test_options_of_other_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
