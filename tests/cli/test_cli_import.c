/* `warpsim config import` as a user runs it: Accel-Sim's own log of the vector-add run becomes an
 * INI that `config dump` and `run` accept, every option left out is listed, a trace.config adds
 * its latencies, and a malformed value fails with file:line and no output file. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define VECADD WS_SOURCE_DIR "/../shared/data/traces/accelsim/microgpusim-vectoradd-100-32"

static unsigned count(const char *text, const char *what) {
    unsigned n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

/* The value of `key` in a `config dump` ("key   = value   ; doc"). */
static void expect_dump(const char *dump, const char *key, const char *value) {
    char want[128];
    snprintf(want, sizeof want, "\n%s ", key);
    const char *p = strstr(dump, want);
    assert_non_null(p);
    p = strchr(p, '=');
    assert_non_null(p);
    p++;
    while (*p == ' ') p++;
    if (strncmp(p, value, strlen(value)) != 0 || p[strlen(value)] != ' ')
        fprintf(stderr, "%s: got '%.20s', want '%s'\n", key, p, value);
    assert_true(strncmp(p, value, strlen(value)) == 0 && p[strlen(value)] == ' ');
}

static void test_import_vectoradd_log(void **state) {
    (void)state;
    if (!tu_file_exists(VECADD "/accelsim_log.txt")) skip();
    const char *ini = tu_tmpfile("gtx1080.ini", "");
    remove(ini);
    char args[2048], *out = NULL;
    snprintf(args, sizeof args, "config import %s/accelsim_log.txt -o %s --name gtx1080-accelsim",
             VECADD, ini);
    assert_int_equal(tu_run_cli(args, &out), 0);
    /* 237 distinct options in the log's option block; 189 left whole plus 2 parts */
    assert_non_null(strstr(out, "191 of 237 options (or parts) not mapped"));
    assert_null(strstr(out, "; unmapped: -dram_latency"));
    assert_non_null(strstr(out, "; unmapped: -power_simulation_enabled 0\n"));
    assert_non_null(strstr(out, "; unmapped: -visualizer_enabled 0\n"));
    free(out);
    char *text = tu_slurp(ini, NULL);
    assert_non_null(text);
    assert_int_equal(count(text, "\n; unmapped: -"), 191);
    /* the trace header lines later in the log are not options */
    assert_null(strstr(text, "-kernel"));
    assert_non_null(strstr(text, "\nmap = RRRRRRRRRRRRRBBBCCCCHHHBCCSSSSS\n"));
    free(text);
    /* the result loads, with the values of the log */
    snprintf(args, sizeof args, "config dump -c %s", ini);
    assert_int_equal(tu_run_cli(args, &out), 0);
    expect_dump(out, "sms", "20");
    expect_dump(out, "core_mhz", "1607");
    expect_dump(out, "max_warps", "64");
    expect_dump(out, "subcores", "2");
    expect_dump(out, "warp_sched", "gto");
    expect_dump(out, "channels", "8");
    expect_dump(out, "tCK_ps", "400");
    expect_dump(out, "RCDWR", "7");
    expect_dump(out, "banks_per_group", "16");
    expect_dump(out, "rows", "8192");
    expect_dump(out, "flit", "32");
    expect_dump(out, "rq_size", "64");
    expect_dump(out, "dram_latency", "100");
    free(out);
    /* and runs the trace it came with to the end */
    snprintf(args, sizeof args, "run -c %s -t %s", ini, VECADD);
    assert_int_equal(tu_run_cli(args, &out), 0);
    assert_non_null(strstr(out, "warp instructions 344,"));
    free(out);
}

static const char *const gpgpusim_cfg =
    "# GPGPU-Sim config\n"
    "-gpgpu_n_clusters 8\n"
    "-gpgpu_n_mem 4\n"
    "-gpgpu_n_sub_partition_per_mchannel 2\n"
    "-gpgpu_clock_domains 1400.0:1400.0:700.0:924.0\n"
    "-gpgpu_shader_core_pipeline 1536:32\n"
    "-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:32:8,8\n"
    "-gpgpu_cache:dl2 S:64:128:8,L:B:m:W:L,A:32:4,4:0,32\n"
    "-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
    "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2\"\n"
    "-gpgpu_dram_buswidth 4\n-gpgpu_dram_burst_length 8\n-dram_data_command_freq_ratio 4\n"
    "-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
    "RBBBCCCC.BCCSSSSS\n";

static void test_import_with_trace_config(void **state) {
    (void)state;
    const char *g = tu_tmpfile("gpgpusim.config", gpgpusim_cfg);
    const char *t = tu_tmpfile("trace.config", "-trace_opcode_latency_initiation_int 7,3\n"
                                               "-trace_opcode_latency_initiation_dp 40,20\n");
    const char *ini = tu_tmpfile("two.ini", "");
    remove(ini);
    char args[2048], *out = NULL;
    snprintf(args, sizeof args, "config import %s %s -o %s", g, t, ini);
    assert_int_equal(tu_run_cli(args, &out), 0);
    assert_non_null(strstr(out, "1 of 14 options (or parts) not mapped")); /* the dl2 data port */
    free(out);
    snprintf(args, sizeof args, "config dump -c %s", ini);
    assert_int_equal(tu_run_cli(args, &out), 0);
    expect_dump(out, "lat_int", "7");
    expect_dump(out, "ii_int", "3");
    expect_dump(out, "lat_dp", "40");
    expect_dump(out, "ii_dp", "20");
    expect_dump(out, "bankgroups", "4");
    expect_dump(out, "CCD_L", "3");
    expect_dump(out, "nBL", "2");
    expect_dump(out, "l2_mhz", "700");
    free(out);
}

/* The shipped Accel-Sim presets are exactly what importing Accel-Sim's tested QV100 and RTX 3070
 * configurations (tests/data/accelsim-configs) gives, they load with the values of those files,
 * and they run a kernel. */
static void check_shipped(const char *model, const char *preset, const char *const *kv) {
    char ini[512], args[2048], *out = NULL;
    snprintf(ini, sizeof ini, "%s", tu_tmpfile("imported.ini", ""));
    remove(ini);
    snprintf(args, sizeof args,
             "config import %s/tests/data/accelsim-configs/%s.config "
             "%s/tests/data/accelsim-configs/%s.trace.config -o %s --name %s",
             WS_SOURCE_DIR, model, WS_SOURCE_DIR, model, ini, preset);
    assert_int_equal(tu_run_cli(args, &out), 0);
    free(out);
    char shipped[512];
    snprintf(shipped, sizeof shipped, "%s/configs/%s.ini", WS_SOURCE_DIR, preset);
    char *a = tu_slurp(ini, NULL), *b = tu_slurp(shipped, NULL);
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a, b);
    free(a);
    free(b);
    snprintf(args, sizeof args, "config dump -c %s", preset);
    assert_int_equal(tu_run_cli(args, &out), 0);
    for (; *kv; kv += 2) expect_dump(out, kv[0], kv[1]);
    free(out);
    snprintf(args, sizeof args, "run -c %s -w vecadd --set workload.vecadd.n=4096", preset);
    assert_int_equal(tu_run_cli(args, &out), 0);
    /* 4096 threads in blocks of 256 (the CUDA sample's launch) */
    assert_non_null(strstr(out, "kernels 1, CTAs 16, warp instructions 1664,"));
    free(out);
}

static void test_shipped_accelsim_presets(void **state) {
    (void)state;
    static const char *const qv100[] = {
        "sms",        "80",  "channels", "32",           "dram_latency", "100",        "tCK_ps",
        "1176",       "CL",  "12",       "dual_cmd_bus", "true",         "bankgroups", "4",
        "warp_sched", "gto", NULL};
    check_shipped("SM7_QV100", "qv100-accelsim", qv100);
    static const char *const rtx3070[] = {"sms",       "46", "channels",   "16",  "dram_latency",
                                          "254",       "CL", "24",         "RAS", "55",
                                          "max_warps", "48", "warp_sched", "lrr", NULL};
    check_shipped("SM86_RTX3070", "rtx3070-accelsim", rtx3070);
}

static void test_import_malformed(void **state) {
    (void)state;
    /* line 7: the L1D string lacks its associativity */
    char bad[4096];
    snprintf(bad, sizeof bad, "%s", gpgpusim_cfg);
    char *p = strstr(bad, "N:32:128:4,");
    memmove(p + 8, p + 10, strlen(p + 10) + 1);
    const char *g = tu_tmpfile("bad.config", bad);
    const char *ini = tu_tmpfile("bad.ini", "");
    remove(ini);
    char args[2048], *out = NULL, want[1024];
    snprintf(args, sizeof args, "config import %s -o %s", g, ini);
    assert_int_equal(tu_run_cli(args, &out), 1);
    snprintf(want, sizeof want, "warpsim: %s:7: cache config 'N:32:128,L:L:m:N:H,A:32:8,8'", g);
    if (!strstr(out, want)) fprintf(stderr, "got: %s\nwant: %s\n", out, want);
    assert_non_null(strstr(out, want));
    assert_false(tu_file_exists(ini));
    free(out);
    /* a required option missing */
    g = tu_tmpfile("short.config", "-gpgpu_n_clusters 8\n");
    snprintf(args, sizeof args, "config import %s -o %s", g, ini);
    assert_int_equal(tu_run_cli(args, &out), 1);
    /* no line to name: the file is named */
    snprintf(want, sizeof want, "warpsim: %s: the configuration lacks -gpgpu_n_mem", g);
    assert_non_null(strstr(out, want));
    assert_false(tu_file_exists(ini));
    free(out);
    /* a file that is not there: the reason, as every reader gives it */
    snprintf(args, sizeof args, "config import %s.none -o %s", g, ini);
    assert_int_equal(tu_run_cli(args, &out), 1);
    snprintf(want, sizeof want, "warpsim: %s.none: cannot open: No such file or directory\n", g);
    assert_string_equal(out, want);
    assert_false(tu_file_exists(ini));
    free(out);
    /* a folder; the output named as the input */
    char dir[600];
    snprintf(dir, sizeof dir, "%s", g);
    *strrchr(dir, '/') = 0;
    snprintf(args, sizeof args, "config import %s -o %s", dir, ini);
    assert_int_equal(tu_run_cli(args, &out), 1);
    snprintf(want, sizeof want, "warpsim: %s: is a folder, not a file\n", dir);
    assert_string_equal(out, want);
    free(out);
    snprintf(args, sizeof args, "config import %s -o %s", g, g);
    assert_int_equal(tu_run_cli(args, &out), 1);
    snprintf(want, sizeof want,
             "warpsim: %s: is a configuration this command reads (%s); give another output "
             "path\n",
             g, g);
    assert_string_equal(out, want);
    free(out);
    char *kept = tu_slurp(g, NULL);
    assert_string_equal(kept, "-gpgpu_n_clusters 8\n");
    free(kept);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_vectoradd_log),
        cmocka_unit_test(test_import_with_trace_config),
        cmocka_unit_test(test_shipped_accelsim_presets),
        cmocka_unit_test(test_import_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
