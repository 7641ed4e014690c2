/* Tests for src/mem/drive/usimm_cfg.c: USIMM v1.3's own 1channel.cfg / 4channel.cfg (and the
 * .vi files beside them) become the equivalent warpsim settings with USIMM file:line origins;
 * the .vi choice follows main.c's table; bad files give exact messages. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem/drive/usimm_cfg.h"
#include "mem/drive/usimm_front.h"
#include "mem/memsys.h"
#include "testutil.h"

#define CFG_DIR WS_SHARED_DATA "/traces/usimm/usimm-v1.3-config"
#define CFG1    CFG_DIR "/1channel.cfg"
#define CFG4    CFG_DIR "/4channel.cfg"

static struct cfg *load(const char *path, int ncores) {
    struct cfg *c = cfg_create();
    struct ws_err e = {{0}};
    if (usimm_cfg_load(c, path, ncores, &e) != 0) fail_msg("%s", e.msg);
    return c;
}

static void expect_raw(struct cfg *c, const char *key, const char *value, const char *origin) {
    const char *v = cfg_raw(c, key);
    if (!v) fail_msg("%s was not set", key);
    assert_string_equal(v, value);
    if (origin) {
        char buf[600];
        assert_string_equal(cfg_origin(c, key, buf, sizeof buf), origin);
    }
}

/* Builds the memory system and the front-end config from c, checking nothing is left over. */
static struct memsys *build(struct cfg *c, struct usimm_front_cfg *fc) {
    struct ws_err e = {{0}};
    struct memsys *ms = memsys_create(c, &e);
    if (!ms) fail_msg("%s", e.msg);
    if (usimm_front_configure(fc, c, &e) != 0 || cfg_check_unclaimed(c, &e) != 0)
        fail_msg("%s", e.msg);
    return ms;
}

static void test_1channel(void **state) {
    (void)state;
    struct cfg *c = load(CFG1, 1);
    expect_raw(c, "dram.preset", "ddr3-1600", CFG1);
    expect_raw(c, "dram.channels", "1", CFG1 ":11");
    expect_raw(c, "dram.ranks", "2", CFG1 ":12");
    expect_raw(c, "dram.bankgroups", "1", CFG1 ":13");
    expect_raw(c, "dram.banks_per_group", "8", CFG1 ":13");
    expect_raw(c, "dram.rows", "32768", CFG1 ":14");
    expect_raw(c, "dram.columns", "128", CFG1 ":15");
    expect_raw(c, "dram.bus_bits", "64", CFG1 ":16");
    expect_raw(c, "dram.burst_length", "8", CFG1 ":16");
    expect_raw(c, "addr.map", "usimm1", CFG1 ":41");
    expect_raw(c, "mc.policy", "usimm", CFG1);
    expect_raw(c, "mc.refresh_mode", "usimm", CFG1);
    expect_raw(c, "mc.wq_size", "64", CFG1 ":40");
    expect_raw(c, "mc.rq_size", "128", CFG1 ":6");
    expect_raw(c, "mc.forward_raw", "false", CFG1 ":42");
    expect_raw(c, "usimm.rob_size", "128", CFG1 ":6");
    expect_raw(c, "usimm.max_retire", "2", CFG1 ":7");
    expect_raw(c, "usimm.max_fetch", "4", CFG1 ":8");
    expect_raw(c, "usimm.pipeline_depth", "10", CFG1 ":9");
    expect_raw(c, "usimm.clk_mult", "4", CFG1 ":5");
    expect_raw(c, "usimm.address_bits", "32", CFG1 ":17");
    expect_raw(c, "usimm.wq_lookup_latency", "10", CFG1 ":42");
    /* one core on one channel: USIMM v1.3 loads 1Gb_x4.vi, 16 chips per rank, tRFC 88 */
    expect_raw(c, "dram.RFC", "88", CFG_DIR "/1Gb_x4.vi:24");
    expect_raw(c, "dram.IDD0", "70", CFG_DIR "/1Gb_x4.vi:2");
    expect_raw(c, "dram.tCK_ps", "1250", CFG_DIR "/1Gb_x4.vi:12");
    expect_raw(c, "dram.devices_per_rank", "16", CFG_DIR "/1Gb_x4.vi");
    expect_raw(c, "dram.RTW", "12", NULL); /* 11 + 4 + 2 - 5 */

    struct usimm_front_cfg fc;
    struct memsys *ms = build(c, &fc);
    const struct dram_spec *s = memsys_spec(ms);
    assert_int_equal(s->channels, 1);
    assert_int_equal(s->ranks, 2);
    assert_int_equal(s->bankgroups * s->banks_per_group, 8);
    assert_int_equal(dram_access_bytes(s), 64);
    assert_int_equal(s->RCDRD, 11);
    assert_int_equal(s->RCDWR, 11);
    assert_int_equal(s->CL, 11);
    assert_int_equal(s->CWL, 5);
    assert_int_equal(s->nBL, 4);
    assert_int_equal(s->RP, 11);
    assert_int_equal(s->RAS, 28);
    assert_int_equal(s->RC, 39);
    assert_int_equal(s->RRD_S, 5);
    assert_int_equal(s->FAW, 32);
    assert_int_equal(s->WR, 12);
    assert_int_equal(s->WTR_L, 6);
    assert_int_equal(s->RTP, 6);
    assert_int_equal(s->CCD_L, 4);
    assert_int_equal(s->RFC, 88);
    assert_int_equal(s->REFI, 6240);
    assert_int_equal(s->RTRS, 2);
    assert_int_equal(s->CKE, 4);
    assert_int_equal(s->XP, 5);
    assert_int_equal(s->XPDLL, 20);
    assert_int_equal(s->devices_per_rank, 16);
    assert_true(s->IDD2P1 == 30 && s->IDD4W == 145 && s->VDD == 1.5);
    assert_int_equal(memsys_mc_cfg(ms)->wq_size, 64);
    assert_string_equal(memsys_mc_cfg(ms)->policy, "usimm");
    /* row:rank:bank:chnl:col:blkoff: consecutive lines share a row, bank bits at 13..15 */
    struct dram_addr a;
    addr_map_decode(memsys_map(ms), 0x40, &a);
    assert_int_equal(a.col, 1);
    addr_map_decode(memsys_map(ms), 1ULL << 13, &a);
    assert_int_equal(a.bank + a.bg, 1);
    assert_int_equal(fc.rob_size, 128);
    assert_int_equal(fc.max_fetch, 4);
    assert_int_equal(fc.max_retire, 2);
    assert_int_equal(fc.pipeline_depth, 10);
    assert_int_equal(fc.clk_mult, 4);
    assert_int_equal(fc.wq_lookup_latency, 10);
    assert_int_equal(fc.address_bits, 32);
    memsys_destroy(ms);
    cfg_destroy(c);
}

static void test_4channel(void **state) {
    (void)state;
    struct cfg *c = load(CFG4, 1);
    expect_raw(c, "dram.channels", "4", NULL);
    expect_raw(c, "addr.map", "usimm0", CFG4 ":42");
    expect_raw(c, "mc.wq_size", "96", CFG4 ":41");
    expect_raw(c, "usimm.rob_size", "160", CFG4 ":7");
    expect_raw(c, "usimm.max_retire", "4", CFG4 ":8");
    expect_raw(c, "usimm.address_bits", "34", NULL);
    /* 4 channels, 1 core: 1Gb_x16.vi (whose currents differ from the dissertation), 4 chips */
    expect_raw(c, "dram.devices_per_rank", "4", CFG_DIR "/1Gb_x16.vi");
    expect_raw(c, "dram.IDD0", "120", CFG_DIR "/1Gb_x16.vi:2");
    expect_raw(c, "dram.RFC", "88", NULL);
    struct usimm_front_cfg fc;
    struct memsys *ms = build(c, &fc);
    assert_int_equal(memsys_nchannels(ms), 4);
    assert_int_equal(memsys_spec(ms)->devices_per_rank, 4);
    /* row:col:rank:bank:chnl:blkoff: consecutive lines go to different channels */
    struct dram_addr a;
    addr_map_decode(memsys_map(ms), 0x40, &a);
    assert_int_equal(a.ch, 1);
    assert_int_equal(fc.rob_size, 160);
    assert_int_equal(fc.max_retire, 4);
    memsys_destroy(ms);
    cfg_destroy(c);
}

/* main.c's table: more cores pick bigger chips, and the rows grow by next_pow2(cores). */
static void test_vi_choice(void **state) {
    (void)state;
    struct cfg *c = load(CFG4, 4);
    expect_raw(c, "dram.devices_per_rank", "8", CFG_DIR "/2Gb_x8.vi");
    expect_raw(c, "dram.RFC", "128", CFG_DIR "/2Gb_x8.vi:24");
    expect_raw(c, "dram.rows", "131072", CFG4 ":15");
    expect_raw(c, "mc.rq_size", "640", NULL);
    cfg_destroy(c);
    c = load(CFG1, 3);
    expect_raw(c, "dram.RFC", "208", CFG_DIR "/4Gb_x4.vi:24");
    expect_raw(c, "dram.rows", "131072", NULL);
    cfg_destroy(c);
    c = load(CFG1, 2);
    expect_raw(c, "dram.RFC", "128", CFG_DIR "/2Gb_x4.vi:24");
    expect_raw(c, "dram.rows", "65536", NULL);
    cfg_destroy(c);
    int chips = 0;
    assert_string_equal(usimm_vi_name(4, 7, &chips), "4Gb_x8.vi");
    assert_int_equal(chips, 8);
    assert_string_equal(usimm_vi_name(4, 16, &chips), "4Gb_x4.vi");
    assert_int_equal(chips, 16);
    assert_null(usimm_vi_name(1, 5, &chips));
    assert_null(usimm_vi_name(2, 1, &chips));
}

static void test_detect(void **state) {
    (void)state;
    assert_true(usimm_cfg_detect(CFG1));
    assert_true(usimm_cfg_detect(CFG4));
    assert_true(usimm_cfg_detect(CFG_DIR "/1Gb_x4.vi"));
    assert_true(usimm_cfg_detect(tu_tmpfile("d1.cfg", "// c\n\nROBSIZE 128 // x\n")));
    assert_false(usimm_cfg_detect(tu_tmpfile("d2.ini", "[dram]\npreset = ddr3-1600\n")));
    assert_false(usimm_cfg_detect(tu_tmpfile("d3.ini", "; c\n# c\n[mc]\n")));
    assert_false(usimm_cfg_detect(tu_tmpfile("d4.ini", "ROBSIZE = 128\n")));
    assert_false(usimm_cfg_detect(tu_tmpfile("d5.txt", "ROBSIZE many\n")));
    assert_false(usimm_cfg_detect("/nonexistent.cfg"));
}

/* A scratch folder holding a .cfg (and optionally a .vi) for error tests. */
static char dir[256];

static const char *put(const char *name, const char *text) {
    static char path[8][512];
    static int slot;
    char *p = path[slot++ & 7];
    snprintf(p, 512, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static const char org1[] = "NUM_CHANNELS 1\nNUM_RANKS 2\nNUM_BANKS 8\nNUM_ROWS 32768\n"
                           "NUM_COLUMNS 128\nCACHE_LINE_SIZE 64\n";

static void expect_fail(const char *cfg_text, int ncores, const char *want_after_path) {
    const char *p = put("sys.cfg", cfg_text);
    struct cfg *c = cfg_create();
    struct ws_err e = {{0}};
    assert_int_equal(usimm_cfg_load(c, p, ncores, &e), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s%s", p, want_after_path);
    assert_string_equal(e.msg, want);
    cfg_destroy(c);
}

static void test_errors(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "%s/ws-usimmcfg-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    expect_fail("// hi\nROBSIZE 128\nFOO 3\n", 1, ":3: unknown USIMM key 'FOO'");
    expect_fail("T_RC\n", 1, ":1: T_RC has no value");
    expect_fail("ROBSIZE abc\n", 1, ":1: ROBSIZE = 'abc' is not an integer");
    expect_fail("ROBSIZE 12.5\n", 1, ":1: ROBSIZE = '12.5' is not an integer");
    expect_fail("VDD 1.5V\n", 1, ":1: VDD = '1.5V' is not a number");
    expect_fail("ROBSIZE 128 160\n", 1, ":1: unexpected '160' after the value of ROBSIZE");
    /* USIMM's prefix matching (T_R for T_RC) is not accepted */
    expect_fail("T_R 39\n", 1, ":1: unknown USIMM key 'T_R'");
    char text[1024];
    snprintf(text, sizeof text, "%sADDRESS_BITS 33\n", org1);
    expect_fail(text, 1,
                ":7: ADDRESS_BITS = 33, but log2 of NUM_CHANNELS x NUM_RANKS x NUM_BANKS x "
                "NUM_ROWS x NUM_COLUMNS x CACHE_LINE_SIZE is 32");
    expect_fail("NUM_CHANNELS 1\nADDRESS_BITS 32\n", 1,
                ": NUM_RANKS is missing (USIMM needs NUM_CHANNELS, NUM_RANKS, NUM_BANKS, "
                "NUM_ROWS, NUM_COLUMNS, CACHE_LINE_SIZE and ADDRESS_BITS)");
    snprintf(text, sizeof text, "%s", org1);
    expect_fail(text, 1, ": ADDRESS_BITS is missing");
    snprintf(text, sizeof text, "%sADDRESS_BITS 32\nADDRESS_MAPPING 2\n", org1);
    expect_fail(text, 1, ":8: ADDRESS_MAPPING = 2 must be 0 or 1");
    snprintf(text, sizeof text, "%sADDRESS_BITS 32\n", org1);
    expect_fail(text, 5,
                ": USIMM v1.3 has no .vi chip file for 1 channel and 5 cores (it supports 1 "
                "channel with 1-4 cores and 4 channels with 1-16)");
    /* the .vi is looked for beside the .cfg */
    char want[1024];
    snprintf(want, sizeof want,
             ": USIMM picks 1Gb_x4.vi for 1 channel and 1 core: %s/1Gb_x4.vi: cannot open: No such "
             "file or directory",
             dir);
    expect_fail(text, 1, want);
    const char *vi = put("1Gb_x4.vi", "VDD 1.5\nT_RFC 88\nT_RP eleven\n");
    snprintf(want, sizeof want,
             ": USIMM picks 1Gb_x4.vi for 1 channel and 1 core: %s:3: T_RP = 'eleven' is not an "
             "integer",
             vi);
    expect_fail(text, 1, want);
    unlink(vi);
    unlink(put("sys.cfg", ""));
    rmdir(dir);
}

/* A value USIMM accepts but warpsim's key range rejects is reported at the USIMM line. */
static void test_range_error_keeps_origin(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "%s/ws-usimmcfg-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    char text[1024];
    snprintf(text, sizeof text, "MAX_FETCH 0\n%sADDRESS_BITS 32\n", org1);
    const char *p = put("sys.cfg", text);
    const char *vi = put("1Gb_x4.vi", "T_RFC 88\nT_CAS 300\n");
    struct cfg *c = cfg_create();
    struct ws_err e = {{0}};
    assert_int_equal(usimm_cfg_load(c, p, 1, &e), 0);
    struct usimm_front_cfg fc;
    assert_int_equal(usimm_front_configure(&fc, c, &e), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s:1: usimm.max_fetch = 0 is out of range [1, 64]", p);
    assert_string_equal(e.msg, want);
    assert_null(memsys_create(c, &e));
    snprintf(want, sizeof want, "%s:2: dram.CL = 300 is out of range [1, 200]", vi);
    assert_string_equal(e.msg, want);
    cfg_destroy(c);
    unlink(vi);
    unlink(p);
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1channel),  cmocka_unit_test(test_4channel),
        cmocka_unit_test(test_vi_choice), cmocka_unit_test(test_detect),
        cmocka_unit_test(test_errors),    cmocka_unit_test(test_range_error_keeps_origin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
