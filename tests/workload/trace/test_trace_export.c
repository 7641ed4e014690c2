/* Trace export (src/workload/trace/trace_export.c): a scripted workload written out line by line
 * (every address mode, every op class, register kinds, predicated-off lanes) and read back by the
 * trace reader into the same instructions and launches; the order in which warps are driven
 * around a barrier; nothing left behind on failure; the opcode table agreeing with every opcode
 * the writer uses; and BFS / K-means exports whose trace-info totals equal the model's own. */
#include "trace_harness.h"

#include <sys/stat.h>

#include "testutil.h"
#include "workload/trace/opcodes.h"
#include "workload/trace/trace_export.h"
#include "workload/trace/trace_info.h"

/* ---- a scripted workload ---- */

struct wl_warp {
    unsigned widx, pos;
};

struct fake {
    struct workload base;
    unsigned launched, fail_kernel;
    bool fail_verify;
    struct wl_copy copies[2];
    struct wl_warp w[2];
    char log[512]; /* "w.i " per warp_next call, in call order (first CTA only) */
    uint64_t cta;
};

static struct inst mk(uint64_t pc, uint32_t act, uint8_t cls, unsigned nd, const uint16_t *d,
                      unsigned ns, const uint16_t *s) {
    struct inst in;
    memset(&in, 0, sizeof in);
    in.pc = pc;
    in.active = act;
    in.cls = cls;
    in.ndst = (uint8_t)nd;
    in.nsrc = (uint8_t)ns;
    for (unsigned i = 0; i < nd; i++) in.dst[i] = d[i];
    for (unsigned i = 0; i < ns; i++) in.src[i] = s[i];
    return in;
}
static struct inst mkmem(uint64_t pc, uint32_t act, uint8_t space, uint8_t mop, uint8_t width,
                         unsigned nd, const uint16_t *d, unsigned ns, const uint16_t *s) {
    struct inst in = mk(pc, act, OP_MEM, nd, d, ns, s);
    in.space = space;
    in.mop = mop;
    in.width = width;
    return in;
}
#define R(...) ((const uint16_t[]){__VA_ARGS__})

static struct inst w0[18], w1[4];
static const unsigned n0 = 18, n1 = 4, bar0 = 9; /* warp 0's BAR is its instruction 9 */

/* Each instruction with the line it must become. */
static const char *const w0_text[18] = {
    "0000 ffffffff 1 R3 IMAD 2 R1 R2 0 0\n",
    "0010 ffffffff 1 R4 LDG.E.64 1 R2 8 1 0x1000 8 0\n",
    "0020 0000ff00 0 STS 2 R5 R6 4 1 0x100 -4 0\n",
    "0030 80000001 1 R7 ATOMG.E.ADD 2 R2 R8 4 2 0x2000 16 0\n",
    "0040 ffffffff 1 R9 LDC 1 R10 4 1 0xc0000040 0 0\n",
    "0050 00000003 1 R11 LDG.E.U8 1 R12 1 0 0x0 0x7000000000000000 0\n",
    "0060 00000005 0 STG.E.U16 1 R12 2 0 0x10 0x8000000000000010 0\n",
    "0070 00000004 1 R16 LDL.128 1 R1 16 2 0x300 0\n",
    "0080 00000000 1 R17 LDG.E 1 R2 4 1 0x0 0 0\n",
    "0090 ffffffff 0 BAR.SYNC 0 0 0\n",
    "00a0 ffffffff 0 FSETP.NE.AND 2 R3 R4 0 0\n",
    "00b0 0000ffff 1 R20 DFMA 0 0 0\n",
    "00c0 0000ffff 1 R21 MUFU.EX2 1 UR5 0 0\n",
    "00d0 0000ffff 1 R22 HMMA.16816.F32 2 P2 RZ 0 0\n",
    "00e0 00000000 1 R23 IMAD 0 0 0\n",
    "00f0 0000ffff 0 BRA 0 0 0\n",
    "0100 0000ffff 1 B3 FFMA 0 0 0\n",
    "0110 0000ffff 0 EXIT 0 0 0\n",
};

static void script(void) {
    w0[0] = mk(0x00, ~0u, OP_INT, 1, R(3), 2, R(1, 2));
    w0[1] = mkmem(0x10, ~0u, SPACE_GLOBAL, MOP_LOAD, 8, 1, R(4), 1, R(2));
    for (unsigned l = 0; l < 32; l++) w0[1].addr[l] = 0x1000 + 8 * l;
    w0[2] = mkmem(0x20, 0xff00, SPACE_SHARED, MOP_STORE, 4, 0, NULL, 2, R(5, 6));
    for (unsigned l = 8; l < 16; l++) w0[2].addr[l] = 0x100 - 4 * (l - 8);
    w0[3] = mkmem(0x30, 0x80000001u, SPACE_GLOBAL, MOP_ATOMIC, 4, 1, R(7), 2, R(2, 8));
    w0[3].addr[0] = 0x2000, w0[3].addr[31] = 0x2010;
    w0[4] = mkmem(0x40, ~0u, SPACE_CONST, MOP_LOAD, 4, 1, R(9), 1, R(10));
    for (unsigned l = 0; l < 32; l++) w0[4].addr[l] = 0xc0000040;
    /* deltas longer than the addresses, and a delta no signed decimal holds: the list */
    w0[5] = mkmem(0x50, 0x3, SPACE_GLOBAL, MOP_LOAD, 1, 1, R(11), 1, R(12));
    w0[5].addr[0] = 0, w0[5].addr[1] = 0x7000000000000000ull;
    w0[6] = mkmem(0x60, 0x5, SPACE_GLOBAL, MOP_STORE, 2, 0, NULL, 1, R(12));
    w0[6].addr[0] = 0x10, w0[6].addr[2] = 0x8000000000000010ull;
    w0[7] = mkmem(0x70, 0x4, SPACE_LOCAL, MOP_LOAD, 16, 1, R(16), 1, R(1));
    w0[7].addr[2] = 0x300;
    w0[8] = mkmem(0x80, 0, SPACE_GLOBAL, MOP_LOAD, 4, 1, R(17), 1, R(2)); /* predicated off */
    w0[9] = mk(0x90, ~0u, OP_BAR, 0, NULL, 0, NULL);
    w0[10] = mk(0xa0, ~0u, OP_SP, 0, NULL, 2, R(3, 4));
    w0[11] = mk(0xb0, 0xffff, OP_DP, 1, R(20), 0, NULL);
    w0[12] = mk(0xc0, 0xffff, OP_SFU, 1, R(21), 1, R(256 + 5));
    w0[13] = mk(0xd0, 0xffff, OP_TENSOR, 1, R(22), 2, R(320 + 2, REG_NONE));
    w0[14] = mk(0xe0, 0, OP_INT, 1, R(23), 0, NULL);
    w0[15] = mk(0xf0, 0xffff, OP_BRANCH, 0, NULL, 0, NULL);
    w0[16] = mk(0x100, 0xffff, OP_SP, 1, R(336 + 3), 0, NULL);
    w0[17] = mk(0x110, 0xffff, OP_EXIT, 0, NULL, 0, NULL);
    w1[0] = mkmem(0x00, ~0u, SPACE_SHARED, MOP_STORE, 4, 0, NULL, 1, R(1));
    for (unsigned l = 0; l < 32; l++) w1[0].addr[l] = 4 * l;
    w1[1] = mk(0x10, ~0u, OP_BAR, 0, NULL, 0, NULL);
    w1[2] = mkmem(0x20, ~0u, SPACE_SHARED, MOP_LOAD, 4, 1, R(2), 1, R(1));
    for (unsigned l = 0; l < 32; l++) w1[2].addr[l] = 124 - 4 * l;
    w1[3] = mk(0x30, ~0u, OP_EXIT, 0, NULL, 0, NULL);
}

static int fake_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct fake *f = (struct fake *)w;
    (void)e;
    if (f->launched == 2) return 0;
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "fake%u", f->launched);
    k->id = f->launched++;
    k->grid[0] = 1, k->grid[1] = 2, k->grid[2] = 1;
    k->block[0] = 64, k->block[1] = k->block[2] = 1;
    k->ncta = 2;
    k->threads = 64;
    k->regs = 24;
    k->smem = 1024;
    f->copies[0] = (struct wl_copy){0x1000, 256};
    f->copies[1] = (struct wl_copy){0xc0000000, 64};
    k->copies = f->launched == 1 ? f->copies : f->copies + 1;
    k->ncopies = f->launched == 1 ? 2 : 1;
    return 1;
}
static int fake_cta_start(struct workload *w, uint64_t cta, struct wl_warp **warps,
                          struct ws_err *e) {
    struct fake *f = (struct fake *)w;
    (void)e;
    f->cta = cta;
    for (unsigned i = 0; i < 2; i++) {
        f->w[i] = (struct wl_warp){i, 0};
        warps[i] = &f->w[i];
    }
    return 0;
}
static int fake_warp_next(struct workload *w, struct wl_warp *wp, struct inst *in,
                          struct ws_err *e) {
    struct fake *f = (struct fake *)w;
    if (f->fail_kernel == f->launched) return ws_fail(e, "fake: broken");
    if (f->launched == 1 && f->cta == 0) {
        size_t n = strlen(f->log);
        snprintf(f->log + n, sizeof f->log - n, "%u.%u ", wp->widx, wp->pos);
    }
    *in = wp->widx == 0 ? w0[wp->pos] : w1[wp->pos];
    wp->pos++;
    return 0;
}
static void fake_cta_end(struct workload *w, uint64_t cta, struct wl_warp **warps) {
    (void)w, (void)cta, (void)warps;
}
static int fake_verify(struct workload *w, struct ws_err *e) {
    return ((struct fake *)w)->fail_verify ? ws_fail(e, "fake: wrong result") : 0;
}
static void fake_destroy(struct workload *w) {
    (void)w;
}
static const struct workload_vt fake_vt = {fake_next,    fake_cta_start, fake_warp_next,
                                           fake_cta_end, fake_verify,    fake_destroy};

static struct fake fake_new(void) {
    script();
    struct fake f;
    memset(&f, 0, sizeof f);
    f.base.vt = &fake_vt;
    f.base.name = "fake";
    return f;
}

static int export_to(struct workload *w, const char *dir, uint32_t bv, struct ws_err *e) {
    struct trace_export_opts o = {.binary_version = bv};
    struct trace_export_stats st;
    return trace_export(w, dir, &o, &st, e);
}

/* ---- tests ---- */

static void test_lines(void **state) {
    (void)state;
    tdir_new();
    struct fake f = fake_new();
    struct ws_err e = {{0}};
    struct trace_export_opts o = {.binary_version = 75};
    struct trace_export_stats st;
    if (trace_export(&f.base, tdir, &o, &st, &e)) fail_msg("%s", e.msg);
    assert_int_equal(st.kernels, 2);
    assert_int_equal(st.ctas, 4);
    assert_int_equal(st.warps, 8);
    assert_int_equal(st.insts, 4 * (n0 + n1));
    assert_int_equal(st.copies, 3);
    assert_int_equal(st.by_class[OP_MEM], 4 * 10);
    assert_int_equal(st.by_class[OP_BAR], 4 * 2);
    char *list = tu_slurp(tpath("kernelslist.g"), NULL);
    assert_string_equal(list, "MemcpyHtoD,0x0000000000001000,256\n"
                              "MemcpyHtoD,0x00000000c0000000,64\n"
                              "kernel-1.traceg\n"
                              "MemcpyHtoD,0x00000000c0000000,64\n"
                              "kernel-2.traceg\n");
    size_t len1, len2;
    char *k1 = tu_slurp(tpath("kernel-1.traceg"), &len1);
    free(tu_slurp(tpath("kernel-2.traceg"), &len2));
    assert_int_equal(st.bytes, strlen(list) + len1 + len2);
    const char *head = "-kernel name = fake0\n-kernel id = 1\n-grid dim = (1,2,1)\n"
                       "-block dim = (64,1,1)\n-shmem = 1024\n-nregs = 24\n-binary version = 75\n"
                       "-cuda stream id = 0\n";
    assert_memory_equal(k1, head, strlen(head));
    assert_non_null(strstr(k1, "-accelsim tracer version = 4\n-enable lineinfo = 0\n"
                               "-warpsim unit timing = machine\n"));
    /* CTA 1 is thread block (0,1,0); its warps' lines in order */
    const char *tb = strstr(k1, "thread block = 0,1,0\n\nwarp = 0\ninsts = 18\n");
    assert_non_null(tb);
    const char *p = strchr(strstr(tb, "insts = 18\n"), '\n') + 1;
    for (unsigned i = 0; i < n0; i++) {
        size_t n = strlen(w0_text[i]);
        if (strncmp(p, w0_text[i], n) != 0)
            fail_msg("line %u: want '%s' got '%.*s'", i, w0_text[i], (int)n, p);
        p += n;
    }
    const char *w1_head = "\nwarp = 1\ninsts = 4\n0000 ffffffff 0 STS 1 R1 4 1 0x0 4 0\n";
    assert_memory_equal(p, w1_head, strlen(w1_head));
    assert_non_null(strstr(k1, "0020 ffffffff 1 R2 LDS 1 R1 4 1 0x7c -4 0\n0030 ffffffff 0 "
                               "EXIT 0 0 0\n\n#END_TB\n"));
    /* deterministic: exporting again over the same folder writes the same bytes */
    struct fake f2 = fake_new();
    if (trace_export(&f2.base, tdir, &o, &st, &e)) fail_msg("%s", e.msg);
    size_t len1b;
    char *k1b = tu_slurp(tpath("kernel-1.traceg"), &len1b);
    assert_int_equal(len1b, len1);
    assert_memory_equal(k1b, k1, len1);
    free(k1b);
    free(list);
    free(k1);
    tdir_remove();
}

/* What the reader makes of the lines is what the workload generated. */
static void check_same(const struct inst *got, const struct inst *want, unsigned i) {
    if (got->pc != want->pc || got->active != want->active || got->cls != want->cls ||
        got->space != want->space || got->mop != want->mop || got->width != want->width ||
        got->ndst != want->ndst || got->nsrc != want->nsrc || got->lat || got->ii)
        fail_msg("instruction %u (pc 0x%llx): cls %u/%u space %u/%u mop %u/%u width %u/%u "
                 "active %08x/%08x ndst %u/%u nsrc %u/%u lat %u",
                 i, (unsigned long long)want->pc, got->cls, want->cls, got->space, want->space,
                 got->mop, want->mop, got->width, want->width, got->active, want->active, got->ndst,
                 want->ndst, got->nsrc, want->nsrc, got->lat);
    for (unsigned k = 0; k < want->ndst; k++) assert_int_equal(got->dst[k], want->dst[k]);
    for (unsigned k = 0; k < want->nsrc; k++) assert_int_equal(got->src[k], want->src[k]);
    if (want->cls == OP_MEM)
        for (unsigned l = 0; l < WARP_SIZE; l++)
            if (want->active >> l & 1) assert_int_equal(got->addr[l], want->addr[l]);
}

static void test_read_back(void **state) {
    (void)state;
    tdir_new();
    struct fake f = fake_new();
    struct ws_err e = {{0}};
    if (export_to(&f.base, tdir, 70, &e)) fail_msg("%s", e.msg);
    /* every warp of every CTA of both kernels; opcode latencies on (the reader's default), yet
     * the header asks for the machine's */
    struct workload *r = topen(tdir);
    struct kernel_desc kd;
    for (unsigned kern = 0; kern < 2; kern++) {
        assert_int_equal(r->vt->next_kernel(r, &kd, &e), 1);
        for (uint64_t cta = 0; cta < 2; cta++) {
            struct wl_warp *warps[2];
            if (r->vt->cta_start(r, cta, warps, &e)) fail_msg("%s", e.msg);
            for (unsigned wi = 0; wi < 2; wi++) {
                const struct inst *want = wi ? w1 : w0;
                unsigned n = wi ? n1 : n0;
                for (unsigned i = 0; i < n; i++) {
                    struct inst got;
                    memset(&got, 0, sizeof got);
                    if (r->vt->warp_next(r, warps[wi], &got, &e)) fail_msg("%s", e.msg);
                    check_same(&got, &want[i], i);
                }
            }
            r->vt->cta_end(r, cta, warps);
        }
    }
    assert_int_equal(r->vt->next_kernel(r, &kd, &e), 0);
    r->vt->destroy(r);
    /* the launches */
    struct workload *w = topen(tdir);
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_string_equal(k.name, "fake0");
    assert_int_equal(k.id, 0);
    assert_int_equal(k.ncta, 2);
    assert_int_equal(k.grid[1], 2);
    assert_int_equal(k.threads, 64);
    assert_int_equal(k.regs, 24);
    assert_int_equal(k.smem, 1024);
    assert_int_equal(k.ncopies, 2);
    assert_int_equal(k.copies[1].addr, 0xc0000000);
    assert_int_equal(k.copies[1].bytes, 64);
    struct wl_count c;
    w->vt->destroy(w);
    assert_int_equal(tcount(tdir, &c, &e), 0);
    assert_int_equal(c.kernels, 2);
    assert_int_equal(c.insts, 4 * (n0 + n1));
    assert_int_equal(twarns.n, 0); /* every opcode is in the table */
    tdir_remove();
}

/* Warps run in turns up to each barrier: warp 1 reaches its BAR before warp 0 goes past its own
 * (so what warp 1 stored to shared memory before the barrier is there for warp 0 after it). */
static void test_barrier_order(void **state) {
    (void)state;
    tdir_new();
    struct fake f = fake_new();
    struct ws_err e = {{0}};
    if (export_to(&f.base, tdir, 70, &e)) fail_msg("%s", e.msg);
    char want[512] = "";
    for (unsigned i = 0; i <= bar0; i++) snprintf(want + strlen(want), 16, "0.%u ", i);
    strcat(want, "1.0 1.1 ");
    for (unsigned i = bar0 + 1; i < n0; i++) snprintf(want + strlen(want), 16, "0.%u ", i);
    strcat(want, "1.2 1.3 ");
    assert_string_equal(f.log, want);
    tdir_remove();
}

static unsigned files_in(const char *dir) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    unsigned n = 0;
    struct dirent *de;
    while ((de = readdir(d))) n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
    closedir(d);
    return n;
}

/* A failing workload (second kernel) or functional check leaves the folder as it was. */
static void test_failure_leaves_nothing(void **state) {
    (void)state;
    tdir_new();
    twrite("kernelslist.g", "old\n");
    struct fake f = fake_new();
    f.fail_kernel = 2;
    struct ws_err e = {{0}};
    assert_int_equal(export_to(&f.base, tdir, 70, &e), -1);
    assert_string_equal(e.msg, "fake: broken");
    assert_int_equal(files_in(tdir), 1);
    char *old = tu_slurp(tpath("kernelslist.g"), NULL);
    assert_string_equal(old, "old\n");
    free(old);
    f = fake_new();
    f.fail_verify = true;
    assert_int_equal(export_to(&f.base, tdir, 70, &e), -1);
    assert_string_equal(e.msg, "fake: wrong result");
    assert_int_equal(files_in(tdir), 1);
    tdir_remove();
}

static void test_bad_output(void **state) {
    (void)state;
    tdir_new();
    const char *file = twrite("plain", "x");
    struct fake f = fake_new();
    struct ws_err e = {{0}};
    char want[1024], sub[600];
    assert_int_equal(export_to(&f.base, file, 70, &e), -1);
    snprintf(want, sizeof want, "%s: exists and is not a folder", file);
    assert_string_equal(e.msg, want);
    snprintf(sub, sizeof sub, "%s/sub", file);
    assert_int_equal(export_to(&f.base, sub, 70, &e), -1);
    snprintf(want, sizeof want, "%s: cannot create the folder: Not a directory", sub);
    assert_string_equal(e.msg, want);
    assert_int_equal(export_to(&f.base, tdir, 20, &e), -1);
    assert_non_null(strstr(e.msg, "binary version 20 is not supported (known: 30-39,"));
    assert_int_equal(files_in(tdir), 1);
    /* a header timing other than machine / opcode is an error at its line */
    const char *p = twrite("kernel-1.traceg", "-kernel name = k\n-grid dim = (1,1,1)\n"
                                              "-block dim = (32,1,1)\n-binary version = 70\n"
                                              "-warpsim unit timing = fast\n");
    snprintf(want, sizeof want,
             "%s:5: bad warpsim unit timing (expected machine or opcode): '-warpsim unit timing "
             "= fast'",
             p);
    assert_string_equal(terror(p), want);
    tdir_remove();
}

/* Every opcode the writer can choose means, to the opcode table, what the instruction is. */
static void test_opcodes_agree(void **state) {
    (void)state;
    static const uint8_t widths[] = {1, 2, 4, 8, 16};
    static const uint32_t archs[] = {35, 61, 70, 75, 80, 86, 90}; /* one of each */
    unsigned checked = 0;
    for (unsigned ai = 0; ai < 7; ai++) {
        const struct trace_arch *a = trace_arch_find(archs[ai]);
        assert_non_null(a);
        for (uint8_t cls = 0; cls < OP_NCLASS; cls++)
            for (uint8_t sp = SPACE_NONE; sp <= SPACE_TEX; sp++)
                for (uint8_t mop = MOP_LOAD; mop <= MOP_ATOMIC; mop++)
                    for (unsigned wi = 0; wi < 5; wi++)
                        for (uint8_t nd = 0; nd < 2; nd++) {
                            struct inst in;
                            memset(&in, 0, sizeof in);
                            in.cls = cls, in.ndst = nd;
                            if (cls == OP_MEM) in.space = sp, in.mop = mop, in.width = widths[wi];
                            if (cls != OP_MEM && (sp || mop || wi)) continue;
                            const char *op = trace_export_opcode(&in);
                            if (!op) continue;
                            struct trace_op t;
                            assert_true(trace_op_lookup(a, op, strlen(op), &t));
                            checked++;
                            if (cls != OP_MEM) {
                                if (cls == OP_EXIT)
                                    assert_int_equal(t.kind, TK_EXIT);
                                else if (t.cls != cls)
                                    fail_msg("%s: class %u, want %u", op, t.cls, cls);
                                continue;
                            }
                            static const uint8_t tsp[] = {TSP_NONE,   TSP_GLOBAL, TSP_LOCAL,
                                                          TSP_SHARED, TSP_CONST,  TSP_TEX};
                            if (t.space != tsp[sp] || t.mop != mop || t.width != widths[wi])
                                fail_msg("%s: space %u mop %u width %u", op, t.space, t.mop,
                                         t.width);
                        }
    }
    /* 7 architectures x (8 classes + global 5 + 5 + 4, shared 5 + 5 + 4, local 5 + 5, const 4,
     * tex 1) x with and without a destination */
    assert_int_equal(checked, 7 * (8 + 43) * 2);
    struct inst st = {.cls = OP_MEM, .space = SPACE_CONST, .mop = MOP_STORE, .width = 4};
    assert_null(trace_export_opcode(&st));
}

/* A kernel model exported and read back: trace-info's totals are the model's own. */
static void same_counts(const char *ini) {
    struct ws_err e = {{0}};
    struct cfg *c = tu_cfg(ini);
    struct workload *w = workload_create(c, &e);
    if (!w) fail_msg("%s", e.msg);
    tdir_new();
    struct trace_export_opts o = {.binary_version = 75};
    struct trace_export_stats st;
    if (trace_export(w, tdir, &o, &st, &e)) fail_msg("%s", e.msg);
    w->vt->destroy(w);
    w = workload_create(c, &e);
    struct wl_count want;
    assert_int_equal(workload_count(w, &want, &e), 0);
    w->vt->destroy(w);
    cfg_destroy(c);
    struct trace_info_sum got;
    char *text = NULL;
    size_t tlen = 0;
    FILE *mf = open_memstream(&text, &tlen);
    if (trace_info(tdir, mf, &got, &e)) fail_msg("%s", e.msg);
    fclose(mf);
    assert_non_null(strstr(text, "  binary        sm_75: Turing (sm_75, SM75_RTX2060); nvbit none "
                                 "(warpsim trace-export); unit timing: the machine's, per "
                                 "class\n"));
    free(text);
    assert_true(want.insts > 10000);
    assert_int_equal(got.kernels, want.kernels);
    assert_int_equal(got.ctas, want.ctas);
    assert_int_equal(got.ctas_in_file, want.ctas);
    assert_int_equal(got.warps_in_file, want.warps);
    assert_int_equal(got.insts, want.insts);
    assert_int_equal(st.insts, want.insts);
    for (unsigned k = 0; k < OP_NCLASS; k++) {
        assert_int_equal(got.by_class[k], want.by_class[k]);
        assert_int_equal(st.by_class[k], want.by_class[k]);
    }
    assert_int_equal(got.synthetic_exits, 0);
    assert_int_equal(got.unknown_insts, 0);
    tdir_remove();
}

static void test_bfs_counts(void **state) {
    (void)state;
    same_counts("[workload]\nname = bfs\n[workload.bfs]\nnodes = 3000\n");
}

static void test_kmeans_counts(void **state) {
    (void)state;
    same_counts("[workload]\nname = kmeans\n[workload.kmeans]\npoints = 1000\nfeatures = 9\n");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines),         cmocka_unit_test(test_read_back),
        cmocka_unit_test(test_barrier_order), cmocka_unit_test(test_failure_leaves_nothing),
        cmocka_unit_test(test_bad_output),    cmocka_unit_test(test_opcodes_agree),
        cmocka_unit_test(test_bfs_counts),    cmocka_unit_test(test_kmeans_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
