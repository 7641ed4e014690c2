/* GPGPU-Sim option import: each string parser gives the exact fields of real configuration
 * strings (GTX 1080 Accel-Sim log, QV100, RTX 3070), malformed values fail with "file:line",
 * and the INI writer maps and lists options as documented. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpgpusim_import.h"

static void expect_err(const struct ws_err *e, const char *want) {
    if (!strstr(e->msg, want)) fprintf(stderr, "got: %s\nwant: %s\n", e->msg, want);
    assert_non_null(strstr(e->msg, want));
}

static void test_cache_qv100_l1(void **state) {
    (void)state;
    struct gs_cache c;
    struct ws_err e = {{0}};
    assert_int_equal(gs_parse_cache("S:4:128:64,L:T:m:L:L,A:512:8,16:0,32", &c, "q:1", &e), 0);
    assert_false(c.none);
    assert_true(c.sectored);
    assert_int_equal(c.nsets, 4);
    assert_int_equal(c.line, 128);
    assert_int_equal(c.assoc, 64);
    assert_int_equal(c.repl, 'L');
    assert_int_equal(c.wr, 'T');
    assert_int_equal(c.alloc, 'm');
    assert_int_equal(c.wr_alloc, 'L');
    assert_int_equal(c.set_index, 'L');
    assert_int_equal(c.mshr_type, 'A');
    assert_int_equal(c.mshr_entries, 512);
    assert_int_equal(c.mshr_merge, 8);
    assert_int_equal(c.miss_queue, 16);
    assert_int_equal(c.result_fifo, 0);
    assert_int_equal(c.data_port, 32);
}

static void test_cache_log_and_old_forms(void **state) {
    (void)state;
    struct gs_cache c;
    struct ws_err e = {{0}};
    /* the GTX 1080 log's L1D: not sectored, Fermi hash, 4 groups */
    assert_int_equal(gs_parse_cache("N:64:128:6,L:L:m:N:H,A:128:8,8", &c, "l:54", &e), 0);
    assert_false(c.sectored);
    assert_int_equal(c.nsets * c.assoc * c.line, 48 * 1024);
    assert_int_equal(c.wr, 'L');
    assert_int_equal(c.set_index, 'H');
    assert_int_equal(c.miss_queue, 8);
    assert_int_equal(c.data_port, 0);
    /* GPGPU-Sim 3 form: no type letter, no set index; streaming allocation */
    assert_int_equal(gs_parse_cache("64:128:8,L:B:s:N,A:16:4,4", &c, "o:1", &e), 0);
    assert_false(c.sectored);
    assert_int_equal(c.nsets, 64);
    assert_int_equal(c.alloc, 's');
    assert_int_equal(c.set_index, 'L');
    assert_int_equal(c.mshr_entries, 16);
    assert_int_equal(c.mshr_merge, 4);
    assert_int_equal(gs_parse_cache(" none ", &c, "o:2", &e), 0);
    assert_true(c.none);
}

static void test_cache_errors(void **state) {
    (void)state;
    struct gs_cache c;
    struct ws_err e = {{0}};
    assert_int_equal(gs_parse_cache("S:4:128,L:T:m:L:L,A:512:8,16:0,32", &c, "cfg:7", &e), -1);
    expect_err(&e, "cfg:7: cache config 'S:4:128,L:T:m:L:L,A:512:8,16:0,32': the geometry needs");
    assert_int_equal(gs_parse_cache("S:4:128:64,L:T:m,A:512:8,16:0,32", &c, "cfg:8", &e), -1);
    expect_err(&e, "cfg:8: cache config");
    expect_err(&e, "the policy group needs");
    assert_int_equal(gs_parse_cache("S:4:128:64,L:T:m:L:L", &c, "cfg:9", &e), -1);
    expect_err(&e, "cfg:9: cache config 'S:4:128:64,L:T:m:L:L': missing ','-separated groups");
    assert_int_equal(gs_parse_cache("S:4:100:64,L:T:m:L:L,A:512:8,16", &c, "cfg:10", &e), -1);
    expect_err(&e, "the line size must be a power of two");
    assert_int_equal(gs_parse_cache("S:4:128:64,L:Q:m:L:L,A:512:8,16", &c, "cfg:11", &e), -1);
    expect_err(&e, "write policy must be");
    assert_int_equal(gs_parse_cache("S:4:128:64,L:T:m:L:L,A:512:8,x", &c, "cfg:12", &e), -1);
    expect_err(&e, "bad miss-queue size");
}

static void test_timing_named_and_positional(void **state) {
    (void)state;
    struct gs_dram_timing t;
    struct ws_err e = {{0}};
    /* as the log prints it: a space after a ':' (the config's quoted value spans two lines) */
    assert_int_equal(gs_parse_dram_timing("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40: "
                                          "CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0",
                                          &t, "l:160", &e),
                     0);
    unsigned got[14] = {t.nbk, t.CCD, t.RRD,  t.RCD, t.RAS,    t.RP,   t.RC,
                        t.CL,  t.WL,  t.CDLR, t.WR,  t.nbkgrp, t.CCDL, t.RTPL};
    unsigned want[14] = {16, 2, 6, 12, 28, 12, 40, 12, 4, 5, 12, 1, 0, 0};
    assert_memory_equal(got, want, sizeof want);
    /* QV100's, with a newline inside and the bank groups */
    assert_int_equal(gs_parse_dram_timing("nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:\n"
                                          "   CL=12:WL=2:CDLR=3:WR=10:nbkgrp=4:CCDL=2:RTPL=3",
                                          &t, "q:1", &e),
                     0);
    assert_int_equal(t.nbkgrp, 4);
    assert_int_equal(t.CCDL, 2);
    assert_int_equal(t.RTPL, 3);
    assert_int_equal(t.WL, 2);
    /* named form without the optional bank-group keys: nbkgrp defaults to 1 */
    assert_int_equal(gs_parse_dram_timing("nbk=8;CCD=2;RRD=8;RCD=12;RAS=21;RP=13;RC=34;CL=9;"
                                          "WL=4;CDLR=5;WR=13",
                                          &t, "n:1", &e),
                     0);
    assert_int_equal(t.nbk, 8);
    assert_int_equal(t.nbkgrp, 1);
    /* positional: GPGPU-Sim's default string */
    assert_int_equal(gs_parse_dram_timing("4:2:8:12:21:13:34:9:4:5:13:1:0:0", &t, "p:1", &e), 0);
    unsigned got2[14] = {t.nbk, t.CCD, t.RRD,  t.RCD, t.RAS,    t.RP,   t.RC,
                         t.CL,  t.WL,  t.CDLR, t.WR,  t.nbkgrp, t.CCDL, t.RTPL};
    unsigned want2[14] = {4, 2, 8, 12, 21, 13, 34, 9, 4, 5, 13, 1, 0, 0};
    assert_memory_equal(got2, want2, sizeof want2);
}

static void test_timing_errors(void **state) {
    (void)state;
    struct gs_dram_timing t;
    struct ws_err e = {{0}};
    assert_int_equal(gs_parse_dram_timing("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:"
                                          "WL=4:CDLR=5",
                                          &t, "c:3", &e),
                     -1);
    expect_err(&e, "c:3: DRAM timing");
    expect_err(&e, "lacks WR");
    assert_int_equal(gs_parse_dram_timing("nbk=16:CCX=2", &t, "c:4", &e), -1);
    expect_err(&e, "c:4: DRAM timing: unknown parameter 'CCX'");
    assert_int_equal(gs_parse_dram_timing("nbk=16:CCD=two", &t, "c:5", &e), -1);
    expect_err(&e, "c:5: DRAM timing: CCD = 'two' is not a number");
    assert_int_equal(gs_parse_dram_timing("4:2:8:12", &t, "c:6", &e), -1);
    expect_err(&e, "c:6: DRAM timing '4:2:8:12': the positional form has 14 fields");
    assert_int_equal(gs_parse_dram_timing("6:2:8:12:21:13:34:9:4:5:13:4:0:0", &t, "c:7", &e), -1);
    expect_err(&e, "nbk = 6 is not a multiple of nbkgrp = 4");
}

#define LOG_MAP "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS"

static void test_addr_map_insert_and_convert(void **state) {
    (void)state;
    struct gs_addr_map m;
    struct ws_err e = {{0}};
    /* 8 channels: 3 bits inserted at bit 8, the higher bits move up by 3 */
    assert_int_equal(gs_parse_addr_map(LOG_MAP, 8, &m, "l:170", &e), 0);
    assert_int_equal(m.dramid_bit, 8);
    assert_string_equal(m.bits + 33, "RRRRRRRRRRRRRBBBCCCCDDDBCCSSSSS");
    assert_int_equal(strspn(m.bits, "0"), 33);
    char out[256];
    unsigned rb, cb;
    assert_int_equal(
        gs_addr_map_to_warpsim(&m, 8, 5, 0, false, out, sizeof out, &rb, &cb, "l:170", &e), 0);
    assert_string_equal(out, "RRRRRRRRRRRRRBBBCCCCHHHBCCSSSSS");
    assert_int_equal(rb, 13);
    assert_int_equal(cb, 6); /* 11 column/burst bits, 5 of them inside a 32 B burst */

    /* QV100: 32 channels at bit 8; 4 bank groups taken from the low bank bits (policy 1) */
    assert_int_equal(
        gs_parse_addr_map("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
                          "RBBBCCCB.CCCSSSSS",
                          32, &m, "q:1", &e),
        0);
    assert_int_equal(
        gs_addr_map_to_warpsim(&m, 32, 5, 2, true, out, sizeof out, &rb, &cb, "q:1", &e), 0);
    /* spec §3.4: bits 0-7 column (0-4 burst), 8-12 channel, 13 bank, 14-16 column, 17-19 bank,
     * 20-32 row */
    assert_string_equal(out, "RRRRRRRRRRRRRBBGCCCGHHHHHCCCSSSSS");
    /* the same with the high bank bits as bank group (policy 0) */
    assert_int_equal(
        gs_addr_map_to_warpsim(&m, 32, 5, 2, false, out, sizeof out, &rb, &cb, "q:1", &e), 0);
    assert_string_equal(out, "RRRRRRRRRRRRRGGBCCCBHHHHHCCCSSSSS");
    /* a larger burst (64 B) takes one more low column bit as burst offset */
    assert_int_equal(
        gs_addr_map_to_warpsim(&m, 32, 6, 2, true, out, sizeof out, &rb, &cb, "q:1", &e), 0);
    assert_string_equal(out, "RRRRRRRRRRRRRBBGCCCGHHHHHCCSSSSSS");
    assert_int_equal(cb, 5);
}

static void test_addr_map_non_pow2_channels(void **state) {
    (void)state;
    struct gs_addr_map m;
    struct ws_err e = {{0}};
    /* 6 channels: 3 bits reserved at bit 8, channel taken modulo 6 -> a field list */
    assert_int_equal(gs_parse_addr_map(LOG_MAP, 6, &m, "g:1", &e), 0);
    char out[256];
    unsigned rb, cb;
    assert_int_equal(
        gs_addr_map_to_warpsim(&m, 6, 5, 0, false, out, sizeof out, &rb, &cb, "g:1", &e), 0);
    assert_string_equal(out, "row/13:ba/3:col/4:ch:ba/1:col/2");
    /* an unused bit inside the map cannot be a field list */
    assert_int_equal(
        gs_parse_addr_map("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRR0."
                          "RBBBCCCC.BCCSSSSS",
                          6, &m, "g:2", &e),
        0);
    assert_int_equal(
        gs_addr_map_to_warpsim(&m, 6, 5, 0, false, out, sizeof out, &rb, &cb, "g:2", &e), -1);
    expect_err(&e, "g:2: address mapping leaves bit 19 unused below bit 30");
}

static void test_addr_map_errors(void **state) {
    (void)state;
    struct gs_addr_map m;
    struct ws_err e = {{0}};
    assert_int_equal(gs_parse_addr_map("dramid@8;RRRR.BBBB.CCCC", 8, &m, "a:1", &e), -1);
    expect_err(&e, "a:1: address mapping has 12 letters, expected 64");
    assert_int_equal(
        gs_parse_addr_map("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
                          "RBBBCCXC.BCCSSSSS",
                          8, &m, "a:2", &e),
        -1);
    expect_err(&e, "a:2: address mapping: unknown letter 'X'");
    assert_int_equal(gs_parse_addr_map("dramid@x;0", 8, &m, "a:3", &e), -1);
    expect_err(&e, "a:3: address mapping 'dramid@x;0': expected dramid@<bit>;<map>");
    /* no dramid@: the channel comes from D letters */
    assert_int_equal(
        gs_parse_addr_map("00000000.00000000.00000000.00000000.0RRRRRRR.RRRRRRBB.BCCCCDDD.BCCSSSSS",
                          8, &m, "a:4", &e),
        0);
    assert_int_equal(m.dramid_bit, -1);
    char out[256];
    unsigned rb, cb;
    assert_int_equal(
        gs_addr_map_to_warpsim(&m, 16, 5, 0, false, out, sizeof out, &rb, &cb, "a:4", &e), -1);
    expect_err(&e, "a:4: address mapping has 3 channel bits, 16 channels need 4");
}

static void test_clocks(void **state) {
    (void)state;
    struct gs_clocks c;
    struct ws_err e = {{0}};
    assert_int_equal(gs_parse_clocks("1132.0:1132.0:1132.0:3500.5", &c, "k:1", &e), 0);
    assert_true(c.core == 1132.0 && c.icnt == 1132.0 && c.l2 == 1132.0 && c.dram == 3500.5);
    assert_int_equal(gs_parse_clocks("1607:1607:1607", &c, "k:2", &e), -1);
    expect_err(&e, "k:2: clock domains '1607:1607:1607': expected <core>:<icnt>:<l2>:<dram>");
    assert_int_equal(gs_parse_clocks("1607:fast:1607:2500", &c, "k:3", &e), -1);
    expect_err(&e, "k:3: clock domains '1607:fast:1607:2500': 'fast' is not a frequency");
}

/* A small but complete gpgpusim.config: quoted multi-line timing, comments, a repeated option. */
static const char *const small_cfg =
    "# a GPGPU-Sim configuration\n"
    "-gpgpu_n_clusters 4\n"
    "-gpgpu_n_cores_per_cluster 2   # two SMs per cluster\n"
    "-gpgpu_n_mem 4\n"
    "-gpgpu_n_sub_partition_per_mchannel 2\n"
    "-gpgpu_clock_domains 1000.0:1000.0:800.0:1000.0\n"
    "-gpgpu_shader_core_pipeline 1536:32\n"
    "-gpgpu_scheduler lrr\n"
    "-gpgpu_scheduler gto\n"
    "-gpgpu_num_sched_per_core 2\n"
    "-gpgpu_cache:dl1 S:4:128:64,L:T:s:L:P,A:256:8,16:0,32\n"
    "-gpgpu_cache:dl2 S:32:128:16,L:B:m:W:X,A:192:4,32:0,32\n"
    "\n"
    "-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
    "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2\"\n"
    "-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR."
    "RBBBCCCC.BCCSSSSS\n"
    "-gpgpu_dram_scheduler 0\n"
    "-dram_latency 100\n"
    "-power_simulation_enabled 0\n"
    "-gpgpu_max_insn 32000000\n";

static char *import_text(const char *cfg, unsigned *nunm, char **unm) {
    struct gs_opts *o = gs_opts_create();
    struct ws_err e = {{0}};
    assert_int_equal(gs_opts_load_string(o, "small.config", cfg, &e), 0);
    char *text = NULL;
    size_t len = 0, ulen = 0;
    FILE *f = open_memstream(&text, &len);
    FILE *u = open_memstream(unm, &ulen);
    int rc = gs_import(o, "small", f, u, nunm, &e);
    if (rc) fprintf(stderr, "%s\n", e.msg);
    assert_int_equal(rc, 0);
    fclose(f);
    fclose(u);
    gs_opts_destroy(o);
    return text;
}

static void test_import_small_config(void **state) {
    (void)state;
    unsigned n = 0;
    char *unm = NULL;
    char *ini = import_text(small_cfg, &n, &unm);
    assert_non_null(strstr(ini, "\nsms = 8 "));
    assert_non_null(strstr(ini, "\nsubparts = 2 "));
    assert_non_null(strstr(ini, "\nl2_mhz = 800 "));
    assert_non_null(strstr(ini, "\nmax_warps = 48 "));
    assert_non_null(strstr(ini, "\nwarp_sched = gto\n")); /* the later -gpgpu_scheduler wins */
    assert_non_null(strstr(ini, "\nalloc = on-fill "));   /* s: streaming = allocate on fill */
    assert_non_null(strstr(ini, "\nindex = xor\n"));      /* L2 X */
    assert_non_null(strstr(ini, "\nbankgroups = 4\nbanks_per_group = 4\n"));
    assert_non_null(strstr(ini, "\nCCD_S = 2\nCCD_L = 3\n"));
    assert_non_null(strstr(ini, "\nRCDWR = 7 ")); /* 12 - (4 + 1) */
    assert_non_null(strstr(ini, "\nRTW = 12 ")); /* CL + BL 4 / ratio 2 + 2 - WL = 12 + 2 + 2 - 4 */
    assert_non_null(strstr(ini, "\nRTP = 2 "));
    assert_non_null(strstr(ini, "\ntCK_ps = 1000 "));
    assert_non_null(strstr(ini, "\npolicy = fcfs "));
    /* default bus 4 B x burst 4 = 16 B: 4 burst bits; 2 bank-group bits from the high bank bits */
    assert_non_null(strstr(ini, "\nmap = RRRRRRRRRRRRRGGBCCCCHHBCCCSSSS\n"));
    /* 100 core cycles at 1000 MHz are 80 cycles of the 800 MHz L2 */
    assert_non_null(strstr(ini, "\ndram_latency = 80 ; -dram_latency 100 (core cycles)\n"));
    /* GPGPU-Sim's cap counts thread instructions, not warp instructions */
    assert_non_null(strstr(ini, "\nmax_thread_insts = 32000000 ; -gpgpu_max_insn\n"));
    assert_null(strstr(ini, "\nmax_insts"));
    /* listed, never dropped: one whole option and three parts (L1 set index P, two data ports) */
    assert_null(strstr(unm, "-dram_latency"));
    assert_non_null(strstr(unm, "; unmapped: -power_simulation_enabled 0\n"));
    assert_non_null(strstr(unm, "part: set index P (IPOLY hash) has no warpsim equivalent"));
    assert_int_equal(n, 4);
    assert_non_null(strstr(ini, "; 4 GPGPU-Sim options (or parts of options) have no warpsim"));
    free(ini);
    free(unm);
}

static void test_opts_log_block_and_errors(void **state) {
    (void)state;
    struct gs_opts *o = gs_opts_create();
    struct ws_err e = {{0}};
    /* a log: only the option block counts; trace headers later in it are not options */
    const char *log = "GPGPU-Sim version 4.2.0\n-not_an_option 1\n"
                      "GPGPU-Sim: Configuration options:\n\n"
                      "-a_opt                 3 # doc\n-b:x   N:1:2:3,L # doc with -c 4\n"
                      "-empty                       # nothing\n"
                      "DRAM Timing Options:\nnbk 16 # banks\n-kernel name = k\n";
    assert_int_equal(gs_opts_load_string(o, "log", log, &e), 0);
    assert_int_equal(gs_opts_count(o), 3);
    gs_opts_destroy(o);
    o = gs_opts_create();
    assert_int_equal(gs_opts_load_string(o, "bad.config", "# c\n-a 1\nb 2\n", &e), -1);
    expect_err(&e, "bad.config:3: not a '-option value' line: 'b 2'");
    assert_int_equal(gs_opts_load_string(o, "q.config", "-a 1\n-t \"x=1:\n y=2\n", &e), -1);
    expect_err(&e, "q.config:2: -t: the quoted value is never closed");
    gs_opts_destroy(o);
    /* bad values report the option's file:line */
    o = gs_opts_create();
    char *cfg = malloc(strlen(small_cfg) + 64);
    strcpy(cfg, small_cfg);
    strcat(cfg, "-gpgpu_cache:dl2 S:32:128,L:B:m:W:X,A:192:4,32:0,32\n");
    assert_int_equal(gs_opts_load_string(o, "small.config", cfg, &e), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    unsigned n;
    assert_int_equal(gs_import(o, "x", f, NULL, &n, &e), -1);
    expect_err(&e, "small.config:21: cache config 'S:32:128,L:B:m:W:X,A:192:4,32:0,32'");
    fclose(f);
    free(text);
    free(cfg);
    gs_opts_destroy(o);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_qv100_l1),
        cmocka_unit_test(test_cache_log_and_old_forms),
        cmocka_unit_test(test_cache_errors),
        cmocka_unit_test(test_timing_named_and_positional),
        cmocka_unit_test(test_timing_errors),
        cmocka_unit_test(test_addr_map_insert_and_convert),
        cmocka_unit_test(test_addr_map_non_pow2_channels),
        cmocka_unit_test(test_addr_map_errors),
        cmocka_unit_test(test_clocks),
        cmocka_unit_test(test_import_small_config),
        cmocka_unit_test(test_opts_log_block_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
