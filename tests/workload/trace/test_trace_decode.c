/* Exact decode of chosen instruction lines of every tracer version, from the real traces and from
 * small generated ones: PC, active mask, class, space, kind, width, registers, per-lane addresses
 * of the three address modes, per-architecture latencies, EXIT placement, generic-space
 * resolution, missing warps and CTAs, unknown opcodes, and the raw fields (line numbers,
 * immediates) of the line parser. */
#include "trace_harness.h"

#include "workload/trace/traceg.h"

static unsigned at_pc(const struct inst *v, unsigned n, uint64_t pc) {
    for (unsigned i = 0; i < n; i++)
        if (v[i].pc == pc) return i;
    fail_msg("no instruction at pc 0x%llx", (unsigned long long)pc);
    return 0;
}

static void expect_stride(const struct inst *in, uint64_t base, int64_t stride) {
    unsigned k = 0;
    for (unsigned l = 0; l < 32; l++)
        if (in->active >> l & 1) assert_int_equal(in->addr[l], base + (uint64_t)(stride * k++));
}

/* v4, Pascal (sm_61): base + stride, a predicated-off EXIT in the middle, the last EXIT, RZ. */
static void test_v4_vecadd(void **state) {
    (void)state;
    unsigned n;
    struct inst *v = twarp(ACCELSIM "/microgpusim-vectoradd-100-32", 0, 0, 0, true, &n);
    assert_int_equal(n, 23);
    /* 0098 ffffffff 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500000 4 */
    const struct inst *ld = &v[14];
    assert_int_equal(ld->pc, 0x98);
    assert_int_equal(ld->active, 0xffffffffu);
    assert_int_equal(ld->cls, OP_MEM);
    assert_int_equal(ld->space, SPACE_GLOBAL);
    assert_int_equal(ld->mop, MOP_LOAD);
    assert_int_equal(ld->width, 4);
    assert_int_equal(ld->ndst, 1);
    assert_int_equal(ld->dst[0], 4);
    assert_int_equal(ld->nsrc, 1);
    assert_int_equal(ld->src[0], 4);
    assert_int_equal(ld->lat, 0); /* the memory system times it */
    expect_stride(ld, 0x7f2b2d500000, 4);
    /* 0058 00000000 0 EXIT 0 0: not the warp's end, a branch-unit op (Pascal: int timing 4,1) */
    assert_int_equal(v[8].pc, 0x58);
    assert_int_equal(v[8].cls, OP_BRANCH);
    assert_int_equal(v[8].active, 0);
    assert_int_equal(v[8].lat, 4);
    assert_int_equal(v[8].ii, 1);
    /* the last line, EXIT, ends the warp */
    assert_int_equal(v[22].cls, OP_EXIT);
    assert_int_equal(v[22].active, 0xffffffffu);
    /* 0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0: RZ carries no dependence */
    assert_int_equal(v[3].cls, OP_INT);
    assert_int_equal(v[3].dst[0], 3);
    assert_int_equal(v[3].nsrc, 2);
    assert_int_equal(v[3].src[0], 0);
    assert_int_equal(v[3].src[1], REG_NONE);
    assert_int_equal(v[3].lat, 4);
    assert_int_equal(v[3].ii, 1);
    free(v);
    /* warp 3 holds lanes 96..99: 0068 0000000f 1 R6 SHL 1 R0 0 */
    v = twarp(ACCELSIM "/microgpusim-vectoradd-100-32", 0, 0, 3, true, &n);
    assert_int_equal(v[9].pc, 0x68);
    assert_int_equal(v[9].active, 0xf);
    assert_int_equal(v[9].cls, OP_INT);
    assert_int_equal(v[9].dst[0], 6);
    free(v);
    /* warps 4..31 of 100 elements: 9 lines, no lane reaches the loads */
    v = twarp(ACCELSIM "/microgpusim-vectoradd-100-32", 0, 0, 31, true, &n);
    assert_int_equal(n, 9);
    assert_int_equal(v[8].cls, OP_EXIT);
    free(v);
}

/* v4 matrixmul: a shared 128-bit broadcast (stride 0), BAR.SYNC, MEMBAR. */
static void test_v4_matrixmul(void **state) {
    (void)state;
    unsigned n;
    struct inst *v = twarp(ACCELSIM "/microgpusim-matrixmul-32-32", 0, 0, 0, true, &n);
    assert_int_equal(n, 138);
    const struct inst *ld = &v[at_pc(v, n, 0x278)]; /* LDS.U.128 1 R2 16 1 0x0 0 */
    assert_int_equal(ld->cls, OP_MEM);
    assert_int_equal(ld->space, SPACE_SHARED);
    assert_int_equal(ld->width, 16);
    assert_int_equal(ld->dst[0], 12);
    expect_stride(ld, 0, 0);
    assert_int_equal(v[at_pc(v, n, 0x258)].cls, OP_BAR); /* BAR.SYNC */
    assert_int_equal(v[at_pc(v, n, 0x268)].cls, OP_INT); /* MEMBAR.CTA */
    free(v);
}

/* pre-v3 (no version line), Volta: the tb/warp prefix, half-warp masks, 16-digit addresses. */
static void test_legacy_lud(void **state) {
    (void)state;
    unsigned n;
    struct inst *v = twarp(ACCELSIM "/accel-sim-hbf-lud-kernel8", 0, 0, 0, true, &n);
    assert_int_equal(n, 1027);
    /* 0 0 0 0 0000 00000000 0 SHFL.IDX 4 R255 R255 R255 R255 0 */
    assert_int_equal(v[0].pc, 0);
    assert_int_equal(v[0].active, 0);
    assert_int_equal(v[0].nsrc, 4);
    for (int i = 0; i < 4; i++) assert_int_equal(v[0].src[i], REG_NONE);
    /* 0 0 0 0 0010 ffffffff 1 R1 MOV 0 0: Volta int 2,2 */
    assert_int_equal(v[1].cls, OP_INT);
    assert_int_equal(v[1].lat, 2);
    assert_int_equal(v[1].ii, 2);
    /* 0 0 0 0 0290 ffff0000 1 R8 LDG.E.SYS 1 R2 4 1 0x00007fe033702880 4 */
    const struct inst *ld = &v[41];
    assert_int_equal(ld->pc, 0x290);
    assert_int_equal(ld->active, 0xffff0000u);
    assert_int_equal(ld->space, SPACE_GLOBAL);
    for (unsigned l = 16; l < 32; l++) assert_int_equal(ld->addr[l], 0x7fe033702880 + 4 * (l - 16));
    assert_int_equal(v[1026].cls, OP_EXIT);
    free(v);
}

/* v3, Ampere: a single-lane base+delta line. */
static void test_v3_bfs(void **state) {
    (void)state;
    unsigned n;
    struct inst *v = twarp(ACCELSIM "/mgpusim-bfs-rodinia-k1-k2", 0, 0, 0, true, &n);
    assert_int_equal(n, 275);
    const struct inst *ld = &v[15]; /* 00f0 00000001 1 R8 LDG.E 1 R2 4 2 0x7fc841500004 */
    assert_int_equal(ld->pc, 0xf0);
    assert_int_equal(ld->active, 1);
    assert_int_equal(ld->addr[0], 0x7fc841500004);
    assert_int_equal(ld->dst[0], 8);
    const struct inst *st = &v[13]; /* 00d0 00000001 0 STG.E.U8 2 R4 R255 1 2 0x7fc841520000 */
    assert_int_equal(st->mop, MOP_STORE);
    assert_int_equal(st->width, 1);
    assert_int_equal(st->ndst, 0);
    assert_int_equal(st->addr[0], 0x7fc841520000);
    assert_int_equal(v[11].cls, OP_BRANCH); /* 00b0 fffffffe 0 EXIT: 31 lanes leave early */
    assert_int_equal(v[11].active, 0xfffffffeu);
    assert_int_equal(v[3].lat, 4); /* IMAD on the A100: int 4,2 */
    assert_int_equal(v[3].ii, 2);
    free(v);
}

/* v5 (one immediate), Ampere. */
static void test_v5_simple(void **state) {
    (void)state;
    unsigned n;
    struct inst *v = twarp(ACCELSIM "/mgpusim-simple-trace-example", 0, 0, 0, true, &n);
    assert_int_equal(n, 17);
    const struct inst *ld = &v[10]; /* 00a0 ffffffff 1 R4 LDG.E 1 R4 4 1 0x7fb0fc430e00 4 0 */
    assert_int_equal(ld->pc, 0xa0);
    expect_stride(ld, 0x7fb0fc430e00, 4);
    assert_int_equal(v[6].cls, OP_SP); /* HFMA2.MMA */
    assert_int_equal(v[6].lat, 4);
    free(v);
}

/* v5 2025 (two immediates, uniform registers, cluster lines) and v6 (Val|NoVal) of the same
 * Hopper excerpt decode alike, apart from their addresses. */
static void test_v5_v6_atax(void **state) {
    (void)state;
    unsigned n5, n6;
    struct inst *a = twarp(ACCELSIM "/mgpusim-testdata-atax-v5", 0, 0, 0, true, &n5);
    struct inst *b = twarp(ACCELSIM "/mgpusim-testdata-atax-v6", 0, 0, 0, true, &n6);
    assert_int_equal(n5, 31); /* 30 lines and an appended EXIT */
    assert_int_equal(n6, 31);
    /* 0050 ffffffff 1 R10 IMAD 3 R10 UR4 R3 0 0 0 */
    assert_int_equal(a[5].nsrc, 3);
    assert_int_equal(a[5].src[0], 10);
    assert_int_equal(a[5].src[1], 256 + 4);
    assert_int_equal(a[5].src[2], 3);
    assert_int_equal(a[5].lat, 4); /* Hopper int 4,2 */
    assert_int_equal(a[5].ii, 2);
    /* 0020 ffffffff 1 UR4 S2UR 0 0 0 0: uniform datapath 4,1 */
    assert_int_equal(a[2].dst[0], 256 + 4);
    assert_int_equal(a[2].lat, 4);
    assert_int_equal(a[2].ii, 1);
    /* 00c0 ffffffff 1 UR4 UMOV 1 UR63 0 0 0: URZ */
    assert_int_equal(a[12].src[0], REG_NONE);
    /* 0080 00000000 0 EXIT: Hopper branch unit 4,4 */
    assert_int_equal(a[8].cls, OP_BRANCH);
    assert_int_equal(a[8].ii, 4);
    /* 0130 ffffffff 1 R11 LDG.E 1 R2 4 1 0x7fc267c40800 4 0 0 */
    assert_int_equal(a[19].pc, 0x130);
    expect_stride(&a[19], 0x7fc267c40800, 4);
    expect_stride(&b[19], 0x7f7b7dc40800, 4);
    /* the excerpt ends without EXIT: one is appended after the last PC */
    assert_int_equal(a[30].cls, OP_EXIT);
    assert_int_equal(a[30].active, 0);
    assert_int_equal(a[30].pc, 0x1d0 + 16);
    for (unsigned i = 0; i < n5; i++) {
        assert_int_equal(a[i].pc, b[i].pc);
        assert_int_equal(a[i].active, b[i].active);
        assert_int_equal(a[i].cls, b[i].cls);
        assert_int_equal(a[i].lat, b[i].lat);
        assert_int_equal(a[i].ii, b[i].ii);
        assert_int_equal(a[i].ndst, b[i].ndst);
        assert_int_equal(a[i].nsrc, b[i].nsrc);
        assert_memory_equal(a[i].dst, b[i].dst, sizeof a[i].dst[0] * a[i].ndst);
        assert_memory_equal(a[i].src, b[i].src, sizeof a[i].src[0] * a[i].nsrc);
    }
    free(a);
    free(b);
    /* warps 2..7 are not in the excerpt: an EXIT each */
    a = twarp(ACCELSIM "/mgpusim-testdata-atax-v5", 0, 0, 7, true, &n5);
    assert_int_equal(n5, 1);
    assert_int_equal(a[0].cls, OP_EXIT);
    assert_int_equal(a[0].active, 0);
    free(a);
}

/* ---- generated traces ---- */

static const char V3_HDR[] = "-kernel name = k\n"
                             "-kernel id = 1\n"
                             "-grid dim = (3,1,1)\n"
                             "-block dim = (64,1,1)\n"
                             "-shmem = 0\n"
                             "-nregs = 8\n"
                             "-binary version = 80\n"
                             "-cuda stream id = 0\n"
                             "-shmem base_addr = 0x00007f0000000000\n"
                             "-local mem base_addr = 0x00007f1000000000\n"
                             "-nvbit version = 1.5.3\n"
                             "-accelsim tracer version = 3\n"
                             "\n#traces format = PC mask dest_num [reg_dests] opcode src_num "
                             "[reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n";

/* The spec's v3 A100 lines: ten active lanes, nine deltas each; CTA 1 is not in the file; warp 1
 * of CTA 0 has insts = 0; CTA 2 lacks warp 1. */
static void test_mode2_and_missing(void **state) {
    (void)state;
    tdir_new();
    char text[4096];
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 2\n"
             "00d0 6190a142 0 STG.E.U8 2 R4 R255 1 2 0x7fc841520001 5 2 5 2 5 3 1 5 1\n"
             "01d0 6190a142 1 R14 LDG.E.U8 1 R14 1 2 0x7fc84152273c 1488 576 -2866 2843 -1699 "
             "294 -954 1434 -1860\n"
             "\nwarp = 1\ninsts = 0\n\n#END_TB\n\n"
             "#BEGIN_TB\n\nthread block = 2,0,0\n\nwarp = 0\ninsts = 1\n"
             "0000 ffffffff 0 EXIT 0 0\n#END_TB\n",
             V3_HDR);
    const char *p = twrite("kernel-1.traceg", text);
    unsigned n;
    struct inst *v = twarp(p, 0, 0, 0, true, &n);
    assert_int_equal(n, 3);
    static const unsigned lanes[] = {1, 6, 8, 13, 15, 20, 23, 24, 29, 30};
    static const uint64_t ld[] = {0x7fc84152273c, 0x7fc841522d0c, 0x7fc841522f4c, 0x7fc84152241a,
                                  0x7fc841522f35, 0x7fc841522892, 0x7fc8415229b8, 0x7fc8415225fe,
                                  0x7fc841522b98, 0x7fc841522454};
    assert_int_equal(v[0].active, 0x6190a142u);
    assert_int_equal(v[0].mop, MOP_STORE);
    assert_int_equal(v[0].width, 1);
    for (unsigned i = 0; i < 10; i++) {
        assert_int_equal(v[0].addr[lanes[i]], 0x7fc841520000 + lanes[i]); /* +5 +2 +5 ... */
        assert_int_equal(v[1].addr[lanes[i]], ld[i]);
    }
    assert_int_equal(v[1].cls, OP_MEM);
    assert_int_equal(v[1].dst[0], 14);
    assert_int_equal(v[2].cls, OP_EXIT); /* appended */
    assert_int_equal(v[2].pc, 0x1e0);
    free(v);
    v = twarp(p, 0, 0, 1, true, &n); /* insts = 0 */
    assert_int_equal(n, 1);
    assert_int_equal(v[0].cls, OP_EXIT);
    free(v);
    v = twarp(p, 0, 1, 0, true, &n); /* CTA 1: not in the file */
    assert_int_equal(n, 1);
    assert_int_equal(v[0].active, 0);
    free(v);
    v = twarp(p, 0, 2, 0, true, &n);
    assert_int_equal(n, 1);
    assert_int_equal(v[0].active, 0xffffffffu); /* the file's own EXIT */
    free(v);
    struct wl_count c;
    struct ws_err e = {{0}};
    struct workload *w = topen(p);
    assert_int_equal(workload_count(w, &c, &e), 0);
    const struct trace_stats *s = trace_get_stats(w);
    assert_int_equal(s->ctas_in_file, 2);
    assert_int_equal(s->warps_in_file, 3);
    assert_int_equal(s->file_insts, 3);
    /* appended: CTA 0 warps 0 (no EXIT) and 1 (empty), CTA 1 both, CTA 2 warp 1 */
    assert_int_equal(s->synthetic_exits, 5);
    assert_int_equal(c.insts, 8);
    w->vt->destroy(w);
    tdir_remove();
}

static const char V4_HDR[] =
    "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
    "-shmem = 0\n-nregs = 8\n-binary version = 75\n-cuda stream id = 7\n"
    "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f1000000000\n"
    "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 1\n\n"
    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
    "mem_width [adrrescompress?] [mem_addresses] immediate\n\n";

/* v4 with line numbers and one immediate (Turing): mode 0 lists, generic loads and stores
 * resolved by the windows, atomics, widths, barriers, opcode latencies on and off. */
static void test_v4_lineinfo_generic(void **state) {
    (void)state;
    tdir_new();
    char text[4096];
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 12\n"
             "11 0100 0000000b 1 R2 LDG.E.64 1 R4 8 0 0x1000 0x2008 0x3010 0\n"
             "12 0110 ffffffff 1 R3 LD.E 1 R4 4 1 0x7f0000000100 4 0\n"
             "12 0120 00000003 0 ST.E.128 2 R4 R8 16 1 0x7f1000000020 16 0\n"
             "13 0130 00000001 1 R5 LD.E.U16 1 R4 2 2 0x7f2000000000 0\n"
             "13 0140 00000001 1 R6 ATOM.E.ADD 2 R4 R7 4 2 0x7f0000000040 0\n"
             "14 0150 ffffffff 0 RED.E.ADD.STRONG.GPU 2 R4 R7 4 1 0x7f3000000000 4 0\n"
             "14 0160 ffffffff 1 R9 LDC 0 0 0\n"
             "15 0170 ffffffff 0 BAR.SYNC 0 0 0\n"
             "15 0180 ffffffff 0 BAR.ARV 0 0 0\n"
             "16 0190 ffffffff 1 R1 MUFU.EX2 1 R2 0 0\n"
             "16 01a0 00000000 1 R5 LDG.E.S8 1 R4 1 1 0x0 0 0\n"
             "17 01b0 ffffffff 0 EXIT 0 0 0\n#END_TB\n",
             V4_HDR);
    const char *p = twrite("k.traceg", text);
    unsigned n;
    struct inst *v = twarp(p, 0, 0, 0, true, &n);
    assert_int_equal(n, 12);
    /* mode 0: one address per active lane */
    assert_int_equal(v[0].width, 8);
    assert_int_equal(v[0].addr[0], 0x1000);
    assert_int_equal(v[0].addr[1], 0x2008);
    assert_int_equal(v[0].addr[3], 0x3010);
    /* generic: in the shared window -> shared, as offsets */
    assert_int_equal(v[1].space, SPACE_SHARED);
    expect_stride(&v[1], 0x100, 4);
    /* in the local window -> local */
    assert_int_equal(v[2].space, SPACE_LOCAL);
    assert_int_equal(v[2].mop, MOP_STORE);
    assert_int_equal(v[2].width, 16);
    expect_stride(&v[2], 0x7f1000000020, 16);
    /* elsewhere -> global */
    assert_int_equal(v[3].space, SPACE_GLOBAL);
    assert_int_equal(v[3].width, 2);
    assert_int_equal(v[4].mop, MOP_ATOMIC);
    assert_int_equal(v[4].space, SPACE_SHARED);
    assert_int_equal(v[4].addr[0], 0x40);
    assert_int_equal(v[5].mop, MOP_ATOMIC);
    assert_int_equal(v[5].space, SPACE_GLOBAL);
    /* LDC without addresses: an INT op (Turing int 2,2) */
    assert_int_equal(v[6].cls, OP_INT);
    assert_int_equal(v[6].lat, 2);
    assert_int_equal(v[7].cls, OP_BAR);
    assert_int_equal(v[8].cls, OP_INT); /* BAR.ARV does not wait */
    assert_int_equal(v[9].cls, OP_SFU);
    assert_int_equal(v[9].lat, 21); /* Turing sfu 21,8 */
    assert_int_equal(v[9].ii, 8);
    /* predicated off: kept, no lanes */
    assert_int_equal(v[10].cls, OP_MEM);
    assert_int_equal(v[10].active, 0);
    assert_int_equal(v[10].width, 1);
    assert_int_equal(v[11].cls, OP_EXIT);
    free(v);
    /* opcode_latency off: the machine's latencies */
    v = twarp(p, 0, 0, 0, false, &n);
    assert_int_equal(v[9].lat, 0);
    assert_int_equal(v[9].ii, 0);
    free(v);

    /* the raw fields, through the line parser */
    struct ws_err e = {{0}};
    struct traceg *t = tg_open(p, &e);
    assert_non_null(t);
    const struct tg_header *h = tg_header(t);
    assert_int_equal(h->version, 4);
    assert_true(h->lineinfo);
    assert_int_equal(h->nimm, 1);
    assert_int_equal(h->stream_id, 7);
    assert_int_equal(h->shmem_base, 0x00007f0000000000);
    assert_string_equal(h->nvbit, "1.5.5");
    struct tg_event ev;
    assert_int_equal(tg_next(t, &ev, &e), 0);
    assert_int_equal(ev.type, TG_TB_BEGIN);
    assert_int_equal(tg_next(t, &ev, &e), 0);
    assert_int_equal(ev.type, TG_WARP);
    assert_int_equal(ev.insts, 12);
    assert_int_equal(tg_next(t, &ev, &e), 0);
    assert_int_equal(ev.type, TG_INST);
    struct tg_line l;
    assert_int_equal(tg_parse(t, ev.line, &l, &e), 0);
    assert_int_equal(l.line_num, 11);
    assert_int_equal(l.mode, 0);
    assert_int_equal(l.mem_width, 8);
    assert_int_equal(l.nimm, 1);
    assert_int_equal(l.imm[0], 0);
    assert_int_equal(l.oplen, 8);
    assert_memory_equal(l.op, "LDG.E.64", 8);
    tg_close(t);
    tdir_remove();
}

static const char V6_HDR[] =
    "-kernel name = k6\n-kernel id = 3\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
    "-shmem = 0\n-nregs = 40\n-binary version = 90\n-cuda stream id = 0\n"
    "-shmem base_addr = 0x00007f7c00000000\n-local mem base_addr = 0x00007f7ba5000000\n"
    "-nvbit version = 1.8\n-accelsim tracer version = 6\n-enable lineinfo = 0\n\n"
    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
    "mem_width [adrrescompress?] [mem_addresses] immediate1 immediate2 Val|NoVal [dest_val_num] "
    "[dest_val] ... [src_val1_num] [src_val1] ... [...] [src_valX_num] [src_valX] ...\n\n";

/* v6: several destinations, register values, 5 sources (one dropped), cluster lines, and two
 * immediates after a mode-2 list. */
static void test_v6(void **state) {
    (void)state;
    tdir_new();
    char text[4096];
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\n\nthread block = 0,0,0\ncluster id = 0,0,0\ncluster cta = 0,0,0\n"
             "cluster rank = 0\n\nwarp = 0\ninsts = 4\n"
             "0200 ffffffff 4 R20 R21 R22 R23 HMMA.16816.F32 4 R4 R8 R12 R20 0 0 0 Val 4 1 2 3 4 "
             "1 7 1 8\n"
             "0210 ffffffff 1 R1 IMAD 5 R2 R3 R4 R5 R6 0 0 0 NoVal\n"
             "0220 00000005 1 R2 LDG.E.64 1 R4 8 2 0x7f0000001000 -8 12 34 NoVal\n"
             "0230 ffffffff 0 EXIT 0 0 0 0 NoVal\n#END_TB\n",
             V6_HDR);
    const char *p = twrite("kernel-3.traceg", text);
    unsigned n;
    struct inst *v = twarp(p, 0, 0, 0, true, &n);
    assert_int_equal(n, 4);
    assert_int_equal(v[0].cls, OP_TENSOR);
    assert_int_equal(v[0].ndst, 4);
    assert_int_equal(v[0].dst[3], 23);
    assert_int_equal(v[0].lat, 1); /* Hopper tensor unit: 1 (and ii 1 for the spec's 0) */
    assert_int_equal(v[0].ii, 1);
    assert_int_equal(v[1].nsrc, 4);
    assert_int_equal(v[1].src[3], 5);
    assert_int_equal(v[2].addr[0], 0x7f0000001000);
    assert_int_equal(v[2].addr[2], 0x7f0000001000 - 8);
    assert_int_equal(v[3].cls, OP_EXIT);
    free(v);
    struct ws_err e = {{0}};
    struct wl_count c;
    struct workload *w = topen(p);
    assert_int_equal(workload_count(w, &c, &e), 0);
    assert_int_equal(trace_get_stats(w)->regs_dropped, 1);
    assert_null(trace_kernel_header(w)); /* closed after the last kernel */
    w->vt->destroy(w);
    struct traceg *t = tg_open(p, &e);
    struct tg_event ev;
    struct tg_line l;
    for (int i = 0; i < 5; i++) assert_int_equal(tg_next(t, &ev, &e), 0);
    assert_int_equal(tg_parse(t, ev.line, &l, &e), 0);
    assert_int_equal(l.pc, 0x220);
    assert_int_equal(l.mode, 2);
    assert_int_equal(l.nimm, 2);
    assert_int_equal(l.imm[0], 12);
    assert_int_equal(l.imm[1], 34);
    tg_close(t);
    tdir_remove();
}

/* An opcode not in the table runs as INT, is counted per use and reported once with the file
 * and line of its first use. */
static void test_unknown_opcode(void **state) {
    (void)state;
    tdir_new();
    char text[4096];
    snprintf(text, sizeof text,
             "%s#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
             "10 0000 ffffffff 1 R1 FROBNICATE.X 0 0 0\n"
             "11 0010 ffffffff 1 R1 FROBNICATE.Y 0 0 0\n"
             "12 0020 ffffffff 1 R1 FROBNICATE.X 0 0 0\n#END_TB\n",
             V4_HDR);
    const char *p = twrite("kernel-1.traceg", text);
    twarns.n = 0;
    struct ws_err e = {{0}};
    struct wl_count c;
    struct workload *w = topen(p);
    if (workload_count(w, &c, &e)) fail_msg("%s", e.msg);
    assert_int_equal(c.by_class[OP_INT], 3);
    assert_int_equal(trace_get_stats(w)->unknown_insts, 3);
    assert_int_equal(trace_unknown_count(w), 1);
    const struct trace_unknown *u = trace_unknown_get(w, 0);
    assert_string_equal(u->name, "FROBNICATE");
    assert_int_equal(u->count, 3);
    char where[600];
    snprintf(where, sizeof where, "%s:%ld", p, line_of(text, "FROBNICATE.X"));
    assert_string_equal(u->where, where);
    assert_int_equal(twarns.n, 1);
    char msg[800];
    snprintf(msg, sizeof msg,
             "%s: unknown opcode 'FROBNICATE' (FROBNICATE.X): run as an INT instruction; "
             "reported once",
             where);
    assert_string_equal(twarns.last, msg);
    w->vt->destroy(w);
    tdir_remove();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v4_vecadd),
        cmocka_unit_test(test_v4_matrixmul),
        cmocka_unit_test(test_legacy_lud),
        cmocka_unit_test(test_v3_bfs),
        cmocka_unit_test(test_v5_simple),
        cmocka_unit_test(test_v5_v6_atax),
        cmocka_unit_test(test_mode2_and_missing),
        cmocka_unit_test(test_v4_lineinfo_generic),
        cmocka_unit_test(test_v6),
        cmocka_unit_test(test_unknown_opcode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
