/* trace-info: the report and tallies for the vector-add trace (worked out by hand below) and
 * BFS, and that an error in the trace is an error of the report. */
#include "trace_harness.h"

#include "workload/trace/trace_info.h"

static char *report(const char *path, struct trace_info_sum *s) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    struct ws_err e = {{0}};
    if (trace_info(path, f, s, &e)) fail_msg("%s", e.msg);
    fclose(f);
    return buf;
}

static void has_line(const char *text, const char *line) {
    if (!strstr(text, line)) fail_msg("no line '%s' in:\n%s", line, text);
}

/* vecAdd on 100 floats, one block of 1024 threads: warps 0-2 load and store one full 128-byte
 * line each (4 sectors), warp 3 holds elements 96-99 (16 bytes: one sector); 3 accesses per
 * warp -> 12 instructions, 12 lines, 3 * (3 * 4 + 1) = 39 sectors. */
static void test_vecadd(void **state) {
    (void)state;
    struct trace_info_sum s;
    char *r = report(ACCELSIM "/microgpusim-vectoradd-100-32", &s);
    assert_int_equal(s.kernels, 1);
    assert_int_equal(s.ctas, 1);
    assert_int_equal(s.insts, 344);
    assert_int_equal(s.mem_insts, 12);
    assert_int_equal(s.mem_active, 12);
    assert_int_equal(s.lines, 12);
    assert_int_equal(s.sectors, 39);
    assert_int_equal(s.by_class[OP_EXIT], 32);
    assert_int_equal(s.by_class[OP_BRANCH], 4); /* the predicated-off EXIT of warps 0-3 */
    assert_int_equal(s.by_class[OP_SP], 4);     /* one FADD per loading warp */
    assert_int_equal(s.by_class[OP_INT], 344 - 32 - 4 - 4 - 12);
    assert_int_equal(s.copies, 3);
    assert_int_equal(s.copy_bytes, 1200);
    has_line(r, "kernel 1: _Z6vecAddIfEvPT_S1_S1_i\n");
    has_line(r, "  binary        sm_61: Pascal (sm_5x/sm_6x, SM6_TITANX); nvbit 1.5.5\n");
    has_line(r, "  launch        grid (1,1,1) = 1 CTAs, block (1024,1,1) = 1024 threads (32 "
                "warps), shmem 0 B, 8 registers/thread, stream 0\n");
    has_line(r, "  copies        3 MemcpyHtoD before the launch, 1200 bytes\n");
    has_line(r, "  instructions  344 warp instructions in 32 warps of 1 thread blocks\n");
    has_line(r, "  memory        12 instructions: 8 loads, 4 stores, 0 atomics; global 12\n");
    has_line(r, "                per global/local/const/tex warp instruction with active lanes: "
                "1.00 lines (128 B), 3.25 sectors (32 B)\n");
    has_line(r, "total: 1 kernels, 1 CTAs\n");
    free(r);
}

static void test_bfs_and_excerpt(void **state) {
    (void)state;
    struct trace_info_sum s;
    char *r = report(ACCELSIM "/mgpusim-bfs-rodinia-k1-k2", &s);
    assert_int_equal(s.kernels, 2);
    assert_int_equal(s.insts, 3613);
    assert_int_equal(s.mem_insts, 369);
    assert_int_equal(s.copies, 7);
    has_line(r, "kernel 2: _Z7Kernel2PbS_S_S_i\n");
    has_line(r, "total: 2 kernels, 16 CTAs\n");
    free(r);
    r = report(ACCELSIM "/mgpusim-testdata-vectoradd/kernel-1.traceg", &s);
    assert_int_equal(s.ctas, 196);
    assert_int_equal(s.ctas_in_file, 2);
    assert_int_equal(s.synthetic_exits, 194 * 8);
    assert_int_equal(s.by_class[OP_EXIT], 16); /* the file's own */
    has_line(r, "  instructions  272 warp instructions in 16 warps of 2 thread blocks (194 CTAs "
                "of the grid have no trace)\n");
    free(r);
}

static void test_error(void **state) {
    (void)state;
    tdir_new();
    const char *p = twrite("kernel-1.traceg", "-kernel name = k\n-grid dim = (1,1,1)\n"
                                              "-block dim = (32,1,1)\n-binary version = 70\n"
                                              "-accelsim tracer version = 4\n"
                                              "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n"
                                              "insts = 1\n0000 ffffffff 0 EXIT 0\n#END_TB\n");
    struct ws_err e = {{0}};
    assert_int_equal(trace_info(p, NULL, NULL, &e), -1);
    char want[600];
    snprintf(want, sizeof want, "%s:10: line ends before the memory width", p);
    assert_string_equal(e.msg, want);
    tdir_remove();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vecadd),
        cmocka_unit_test(test_bfs_and_excerpt),
        cmocka_unit_test(test_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
