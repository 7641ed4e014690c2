/* Malformed traces and lists give exactly "file:line: what is wrong" (the line found here by the
 * test itself), from whichever call meets the defect: next_kernel (header, list), cta_start
 * (thread block structure, instruction lines) or the end of the kernel (what follows the last
 * thread block). Never a crash. */
#include "trace_harness.h"

static const char HDR[] = "-kernel name = bad\n"
                          "-kernel id = 1\n"
                          "-grid dim = (2,1,1)\n"
                          "-block dim = (64,1,1)\n"
                          "-shmem = 0\n"
                          "-nregs = 8\n"
                          "-binary version = 61\n"
                          "-cuda stream id = 0\n"
                          "-accelsim tracer version = 4\n"
                          "-enable lineinfo = 0\n"
                          "\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode "
                          "src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n";

static const char GOOD_LINE[] = "0010 ffffffff 1 R1 MOV 0 0\n";

/* A trace of HDR with `body` in warp 0 of block 0 (insts = number of lines of body) and a
 * well-formed block 1; checks the error of running it is "<file>:<line of needle>: msg". */
static void expect_body(const char *body, const char *needle, const char *msg) {
    char text[8192];
    int lines = 0;
    for (const char *p = body; *p; p++) lines += *p == '\n';
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = %d\n%s#END_TB\n"
             "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 1\n%s#END_TB\n",
             HDR, lines, body, GOOD_LINE);
    const char *p = twrite("kernel-1.traceg", text);
    char want[1024];
    snprintf(want, sizeof want, "%s:%ld: %s", p, line_of(text, needle), msg);
    assert_string_equal(terror(p), want);
}

/* The whole file given; the error is expected at the line holding `needle`, or at the last line
 * when needle is NULL (end of file). */
static void expect_file(const char *text, const char *needle, const char *msg) {
    const char *p = twrite("kernel-1.traceg", text);
    long line = 0;
    if (needle) {
        line = line_of(text, needle);
    } else {
        for (const char *q = text; *q; q++) line += *q == '\n';
    }
    char want[1024];
    snprintf(want, sizeof want, "%s:%ld: %s", p, line, msg);
    assert_string_equal(terror(p), want);
}

static void test_truncated_lines(void **state) {
    (void)state;
    tdir_new();
    expect_body("0098 ffffffff 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500000\n", "0098",
                "line ends before the address stride");
    expect_body("0098 ffffffff 1 R4\n", "0098", "line ends before the opcode");
    expect_body("0098 ffffffff 1\n", "0098", "line ends after 0 of its 1 destination registers");
    expect_body("0098 ffffffff 1 R4 LDG.E 1 R4 4\n", "0098", "line ends before the address mode");
    expect_body("0098 ffffffff 1 R4 LDG.E 1 R4\n", "0098", "line ends before the memory width");
    expect_body("0098\n", "0098", "line ends before the active mask");
    tdir_remove();
}

static void test_bad_fields(void **state) {
    (void)state;
    tdir_new();
    expect_body("0098 ffffzfff 1 R4 LDG.E 1 R4 4 1 0x10 4\n", "0098",
                "bad hex active mask: 'ffffzfff'");
    expect_body("0098 ffffffff 1 R4 LDG.E 1 R4 4 1 0x7g00 4\n", "0098",
                "bad hex base address: '0x7g00'");
    expect_body("00x8 ffffffff 1 R4 MOV 0 0\n", "00x8", "bad hex PC: '00x8'");
    expect_body("0098 ffffffff 1 R4x MOV 0 0\n", "0098", "bad register: 'R4x'");
    expect_body("0098 ffffffff 1 R4 ldg.e 0 0\n", "0098", "bad opcode: 'ldg.e'");
    expect_body("0098 ffffffff 1 R4 LDG.E 1 R4 4 3 0x10 4\n", "0098",
                "bad address mode (0, 1 or 2): '3'");
    expect_body("0098 ffffffff 1 R4 LDG.E 1 R4 4 1 0x10 4x\n", "0098",
                "bad address stride (a 32-bit decimal): '4x'");
    expect_body("0098 ffffffff 1 R4 MOV 0 0 17\n", "0098",
                "unexpected text at the end of the line: '17'");
    expect_body("0098 ffffffff 99 R4 MOV 0 0\n", "0098", "99 destination registers (at most 16)");
    tdir_remove();
}

static void test_wrong_lane_count(void **state) {
    (void)state;
    tdir_new();
    expect_body("00d0 0000000f 0 STG.E 2 R4 R255 4 2 0x1000 4 4\n", "00d0",
                "address mode 2: mask 0000000f has 4 active lanes, so 3 deltas are expected, "
                "found 2");
    expect_body("00d0 00000001 0 STG.E 2 R4 R255 4 2 0x1000 4\n", "00d0",
                "address mode 2: mask 00000001 has 1 active lane, so 0 deltas are expected, "
                "found 1");
    expect_body("00d0 00000003 0 STG.E 2 R4 R255 4 0 0x1000 0x1004 0x1008\n", "00d0",
                "address mode 0: mask 00000003 has 2 active lanes, so 2 addresses are expected, "
                "found 3");
    expect_body("00d0 00000003 0 STG.E 2 R4 R255 4 0 0x1000 zz\n", "00d0", "bad hex address: 'zz'");
    tdir_remove();
}

static void test_structure(void **state) {
    (void)state;
    tdir_new();
    char text[4096];
    /* missing #END_TB: at the end of the file ... */
    snprintf(text, sizeof text, "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n%s", HDR,
             GOOD_LINE);
    char msg[256];
    snprintf(msg, sizeof msg, "end of file: missing #END_TB of the thread block opened at line %ld",
             line_of(text, "#BEGIN_TB"));
    expect_file(text, NULL, msg);
    /* ... or before the next block */
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n%s\n#BEGIN_TB\n"
             "thread block = 1,0,0\n#END_TB\n",
             HDR, GOOD_LINE);
    snprintf(msg, sizeof msg,
             "#BEGIN_TB before the #END_TB of thread block (0,0,0) opened at line %ld",
             line_of(text, "#BEGIN_TB"));
    expect_file(text, "#BEGIN_TB\nthread block = 1", msg);
    /* truncated inside a warp */
    snprintf(text, sizeof text, "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n%s", HDR,
             GOOD_LINE);
    expect_file(text, NULL,
                "end of file after 1 of the 3 instructions of warp 0 of thread block (0,0,0): "
                "the trace is truncated");
    /* insts count mismatch, both ways */
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n%s%swarp = 1\ninsts = 0\n"
             "#END_TB\n",
             HDR, GOOD_LINE, GOOD_LINE);
    expect_file(text, "warp = 1",
                "warp 0 of thread block (0,0,0) has 2 instruction lines, not the 3 of its "
                "'insts ='");
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n%s0020 ffffffff 0 NOP 0 0\n"
             "#END_TB\n",
             HDR, GOOD_LINE);
    expect_file(text, "0020",
                "warp 0 of thread block (0,0,0) has more instruction lines than its 'insts = 1'");
    /* blocks: outside the grid, out of order; warps: out of range, twice */
    snprintf(text, sizeof text, "%s#BEGIN_TB\nthread block = 2,0,0\n#END_TB\n", HDR);
    expect_file(text, "thread block = 2", "thread block (2,0,0) is outside the grid (2,1,1)");
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 1,0,0\n#END_TB\n#BEGIN_TB\nthread block = 0,0,0\n"
             "#END_TB\n",
             HDR);
    expect_file(text, "thread block = 0",
                "thread block (0,0,0) comes after (1,0,0): blocks must be in increasing order, x "
                "fastest, each once");
    snprintf(text, sizeof text, "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\n", HDR);
    expect_file(text, "warp = 2", "warp 2 does not exist: a block of 64 threads has 2 warps");
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 1\ninsts = 0\nwarp = 1 \n", HDR);
    expect_file(text, "warp = 1 ", "warp 1 appears twice in thread block (0,0,0)");
    tdir_remove();
}

static void test_header(void **state) {
    (void)state;
    tdir_new();
    char text[4096], hdr[2048];
    /* unknown tracer version */
    snprintf(hdr, sizeof hdr, "%s", HDR);
    char *v = strstr(hdr, "version = 4");
    v[10] = '9';
    snprintf(text, sizeof text, "%s#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n", hdr);
    expect_file(text, "tracer version",
                "accelsim tracer version 9 is not supported (known: none, 1-6)");
    /* unsupported binary version: reported at its line when the kernel starts */
    snprintf(hdr, sizeof hdr, "%s", HDR);
    v = strstr(hdr, "version = 61");
    memcpy(v + 10, "20", 2);
    snprintf(text, sizeof text, "%s#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n", hdr);
    char msg[256];
    snprintf(msg, sizeof msg, "binary version 20 is not supported (known: %s)",
             "30-39, 50-62, 70, 72, 75, 80, 86-89, 90");
    expect_file(text, "-binary version", msg);
    /* no grid: reported where the header ends */
    snprintf(text, sizeof text,
             "-kernel name = k\n-block dim = (32,1,1)\n-binary version = 70\n\n#traces format\n");
    expect_file(text, "#traces", "the kernel header has no '-grid dim' line");
    snprintf(text, sizeof text,
             "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (64,32,1)\n-binary version = "
             "70\n#traces format\n");
    expect_file(text, "#traces", "block (64,32,1) has 2048 threads (CUDA allows 1024)");
    snprintf(text, sizeof text, "-kernel name = k\n-grid dim = (1,0,1)\n-block dim = (32,1,1)\n");
    expect_file(text, "-block dim", "grid (1,0,1) and block (32,1,1) need every dimension >= 1");
    snprintf(text, sizeof text, "-kernel name = k\n-grid dim = 7\n");
    expect_file(text, "-grid", "bad grid dim (expected (x,y,z)): '-grid dim = 7'");
    snprintf(text, sizeof text, "-kernel name = k\nkernel-1.traceg\n");
    expect_file(text, "kernel-1", "expected a '-key = value' header line, found 'kernel-1.traceg'");
    tdir_remove();
}

/* Version-specific line shapes: the pre-v3 prefix must name the block and warp it is in; v5
 * lines carry the immediates their format line announces; v6 lines end in Val|NoVal. */
static void test_versions(void **state) {
    (void)state;
    tdir_new();
    char text[4096], hdr[2048];
    snprintf(hdr, sizeof hdr, "%s", HDR);
    char *v = strstr(hdr, "-accelsim tracer version = 4\n");
    memmove(v, v + 29, strlen(v + 29) + 1); /* no version line: legacy */
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n0 0 0 0 0010 ffffffff 0 "
             "NOP 0 0\n0 0 0 1 0020 ffffffff 0 NOP 0 0\n#END_TB\n",
             hdr);
    expect_file(text, "0 0 0 1",
                "the line says thread block (0,0,0) warp 1, but it is in thread block (0,0,0) "
                "warp 0");
    /* v5 with one immediate announced */
    snprintf(hdr, sizeof hdr, "%s", HDR);
    v = strstr(hdr, "version = 4");
    v[10] = '5';
    v = strstr(hdr, "[mem_addresses]");
    strcpy(v, "[mem_addresses] immediate\n\n");
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n0010 ffffffff 0 NOP 0 0 "
             "0\n0020 ffffffff 0 NOP 0 0\n#END_TB\n",
             hdr);
    expect_file(text, "0020", "line ends before immediate 1 of 1 (see '#traces format')");
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0010 ffffffff 0 DEPBAR 0 0 "
             "x\n#END_TB\n",
             hdr);
    expect_file(text, "0010", "bad immediate: 'x'");
    /* v6 */
    v = strstr(hdr, "version = 5");
    v[10] = '6';
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0010 ffffffff 0 NOP 0 0 "
             "0\n#END_TB\n",
             hdr);
    expect_file(text, "0010", "line ends before Val|NoVal (tracer v6)");
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0010 ffffffff 0 NOP 0 0 "
             "0 Values\n#END_TB\n",
             hdr);
    expect_file(text, "0010", "expected Val or NoVal: 'Values'");
    tdir_remove();
}

static void test_kernelslist(void **state) {
    (void)state;
    tdir_new();
    char want[1024];
    const char *p =
        twrite("kernelslist.g", "MemcpyHtoD,0x00007f0000000000,64\nMemcpyHtoD,0xzz,10\n");
    snprintf(
        want, sizeof want,
        "%s:2: bad copy line (expected MemcpyHtoD,<hex address>,<bytes>): 'MemcpyHtoD,0xzz,10'", p);
    assert_string_equal(terror(tdir), want); /* named by its folder */
    p = twrite("kernelslist.g", "MemcpyHtoD,0x1000,64\n\nkernel-9.traceg\n");
    snprintf(want, sizeof want, "%s:3: %s/kernel-9.traceg: cannot open: No such file or directory",
             p, tdir);
    assert_string_equal(terror(p), want);
    p = twrite("kernelslist.g", "MemcpyHtoD,0x1000,64\n");
    snprintf(want, sizeof want, "%s: lists no kernel (expected lines like 'kernel-1.traceg')", p);
    assert_string_equal(terror(p), want);
    snprintf(want, sizeof want, "%s/none: cannot open: No such file or directory", tdir);
    assert_string_equal(terror(tpath("none")), want);
    twrite("kernel-1.tracez", "-kernel name = z\n");
    p = twrite("kernelslist.g", "kernel-1.tracez\n");
    snprintf(want, sizeof want,
             "%s/kernel-1.tracez: Accel-Sim 2.0 .tracez containers are not read (their layout is "
             "only outlined, without field widths); give the .traceg form (plain, .gz, .xz or "
             ".zst)",
             tdir);
    assert_string_equal(terror(p), want);
    tdir_remove();
}

/* CTAs must start in increasing order (the file is read front to back). */
static void test_cta_order(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    struct workload *w = topen(ACCELSIM "/mgpusim-bfs-rodinia-k1-k2");
    struct kernel_desc k;
    struct wl_warp *warps[32];
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(w->vt->cta_start(w, 3, warps, &e), 0);
    assert_int_equal(w->vt->cta_start(w, 2, warps, &e), -1);
    assert_string_equal(e.msg, ACCELSIM "/mgpusim-bfs-rodinia-k1-k2/kernel-1.traceg: CTA 2 "
                                        "started after CTA 3: a trace is read front to back, so "
                                        "CTAs must start in increasing order");
    assert_int_equal(w->vt->cta_start(w, 8, warps, &e), -1);
    assert_string_equal(e.msg, "trace: CTA 8 started, the grid has 8");
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncated_lines),  cmocka_unit_test(test_bad_fields),
        cmocka_unit_test(test_wrong_lane_count), cmocka_unit_test(test_structure),
        cmocka_unit_test(test_header),           cmocka_unit_test(test_versions),
        cmocka_unit_test(test_kernelslist),      cmocka_unit_test(test_cta_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
