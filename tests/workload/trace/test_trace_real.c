/* Every real Accel-Sim trace in shared/data parses to the end with the counts its files and
 * PROVENANCE.md give: kernels, header fields, thread blocks and warps in the file, instruction
 * lines (equal to the sum of the files' `insts = N` lines, read here independently), memory
 * instructions by opcode, and the MemcpyHtoD lines handed to the GPU. */
#include "trace_harness.h"

#include "workload/trace/trace_info.h"

struct real {
    const char *path;  /* under ACCELSIM */
    const char *files; /* its .traceg files, ';'-separated, for the insts oracle */
    uint64_t kernels, ctas, ctas_in_file, warps_in_file, insts, mem, synthetic;
    const char *name; /* first kernel */
    uint32_t id, grid[3], block[3], shmem, nregs, binary;
    int version;
    uint32_t ncopies; /* before the first kernel */
};

static const struct real reals[] = {
    {"microgpusim-vectoradd-100-32",
     "kernel-1.traceg",
     1,
     1,
     1,
     32,
     344,
     12,
     0,
     "_Z6vecAddIfEvPT_S1_S1_i",
     1,
     {1, 1, 1},
     {1024, 1, 1},
     0,
     8,
     61,
     4,
     3},
    {"microgpusim-matrixmul-32-32",
     "kernel-1.traceg",
     1,
     1,
     1,
     32,
     4416,
     1440,
     0,
     "_Z8mult_gpuIfEvPT_S1_S1_ii",
     1,
     {1, 1, 1},
     {32, 32, 1},
     8192,
     30,
     61,
     4,
     2},
    {"mgpusim-simple-trace-example",
     "kernel-1.traceg",
     1,
     196,
     196,
     1568,
     26601,
     4689,
     0,
     "_Z9vectorAddPKfS0_Pfi",
     1,
     {196, 1, 1},
     {256, 1, 1},
     0,
     12,
     80,
     5,
     2},
    /* an excerpt: blocks 0 and 1 of 196; the other 194 CTAs run only an appended EXIT */
    {"mgpusim-testdata-vectoradd/kernel-1.traceg",
     "kernel-1.traceg",
     1,
     196,
     2,
     16,
     272,
     48,
     194 * 8,
     "_Z9vectorAddPKfS0_Pfi",
     1,
     {196, 1, 1},
     {256, 1, 1},
     0,
     12,
     80,
     5,
     0},
    /* excerpts: 2 of 8 warps, 30 instructions each, no EXIT */
    {"mgpusim-testdata-atax-v5",
     "kernel-1.traceg",
     1,
     1,
     1,
     2,
     60,
     2,
     8,
     "atax_kernel1",
     1,
     {1, 1, 1},
     {256, 1, 1},
     0,
     20,
     90,
     5,
     2},
    {"mgpusim-testdata-atax-v6",
     "kernel-1.traceg",
     1,
     1,
     1,
     2,
     60,
     2,
     8,
     "atax_kernel1",
     1,
     {1, 1, 1},
     {256, 1, 1},
     0,
     20,
     90,
     6,
     2},
    {"accel-sim-hbf-lud-kernel8",
     "kernel-8.traceg",
     1,
     1,
     1,
     1,
     1027,
     272,
     0,
     "_Z13lud_perimeterPfii",
     8,
     {1, 1, 1},
     {32, 1, 1},
     3072,
     166,
     70,
     0,
     0},
    {"mgpusim-bfs-rodinia-k1-k2",
     "kernel-1.traceg;kernel-2.traceg",
     2,
     16,
     16,
     256,
     1799 + 1814,
     369,
     0,
     "_Z6KernelP4NodePiPbS2_S2_S1_i",
     1,
     {8, 1, 1},
     {512, 1, 1},
     0,
     21,
     80,
     3,
     7},
};

static void check_real(const struct real *r) {
    char path[512], dir[512];
    snprintf(path, sizeof path, "%s/%s", ACCELSIM, r->path);
    snprintf(dir, sizeof dir, "%s", path);
    char *tg = strstr(dir, ".traceg");
    if (tg) *strrchr(dir, '/') = '\0';
    /* the oracle: the files' own counts */
    uint64_t oracle = 0;
    char files[256];
    snprintf(files, sizeof files, "%s", r->files);
    for (char *f = strtok(files, ";"); f; f = strtok(NULL, ";")) {
        char fp[600];
        snprintf(fp, sizeof fp, "%s/%s", dir, f);
        oracle += insts_in_file(fp);
    }
    assert_int_equal(oracle, r->insts);

    struct ws_err e = {{0}};
    struct workload *w = topen(path);
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    const struct tg_header *h = trace_kernel_header(w);
    assert_string_equal(h->name, r->name);
    assert_int_equal(h->kernel_id, r->id);
    assert_memory_equal(h->grid, r->grid, sizeof r->grid);
    assert_memory_equal(h->block, r->block, sizeof r->block);
    assert_int_equal(h->shmem, r->shmem);
    assert_int_equal(h->nregs, r->nregs);
    assert_int_equal(h->binary_version, r->binary);
    assert_int_equal(h->version, r->version);
    assert_int_equal(k.id, 0);
    assert_int_equal(k.ncta, (uint64_t)r->grid[0] * r->grid[1] * r->grid[2]);
    assert_int_equal(k.threads, r->block[0] * r->block[1] * r->block[2]);
    assert_int_equal(k.regs, r->nregs);
    assert_int_equal(k.smem, r->shmem);
    assert_int_equal(k.ncopies, r->ncopies);
    w->vt->destroy(w);

    struct wl_count c;
    w = topen(path);
    if (workload_count(w, &c, &e)) fail_msg("%s: %s", r->path, e.msg);
    const struct trace_stats *s = trace_get_stats(w);
    assert_int_equal(c.kernels, r->kernels);
    assert_int_equal(c.ctas, r->ctas);
    assert_int_equal(s->ctas_in_file, r->ctas_in_file);
    assert_int_equal(s->warps_in_file, r->warps_in_file);
    assert_int_equal(s->file_insts, r->insts);
    assert_int_equal(s->synthetic_exits, r->synthetic);
    assert_int_equal(c.insts, r->insts + r->synthetic); /* every line is one warp instruction */
    assert_int_equal(s->mem_insts, r->mem);
    assert_int_equal(c.by_class[OP_MEM], r->mem);
    assert_int_equal(s->unknown_insts, 0);
    assert_int_equal(trace_unknown_count(w), 0);
    assert_int_equal(s->regs_dropped, 0);
    /* one EXIT per warp of every CTA of the grid */
    uint64_t warps = c.ctas * ((r->block[0] * r->block[1] * r->block[2] + 31) / 32);
    assert_int_equal(c.warps, warps);
    assert_int_equal(c.by_class[OP_EXIT], warps);
    w->vt->destroy(w);
}

static void test_every_real_trace(void **state) {
    (void)state;
    uint64_t total = 0;
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        check_real(&reals[i]);
        total += reals[i].insts;
    }
    assert_int_equal(total, 344 + 4416 + 26601 + 272 + 60 + 60 + 1027 + 3613);
    assert_int_equal(twarns.n, 0);
}

/* Memory instructions by opcode (PROVENANCE.md: LDS / STS / LDG / STG counts), through
 * trace-info's tallies. */
static void test_memory_by_opcode(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    struct trace_info_sum s;
    /* matrixmul: LDS 1280, STS 64, LDG 64, STG 32 */
    if (trace_info(ACCELSIM "/microgpusim-matrixmul-32-32", NULL, &s, &e)) fail_msg("%s", e.msg);
    assert_int_equal(s.by_space[SPACE_SHARED], 1280 + 64);
    assert_int_equal(s.by_space[SPACE_GLOBAL], 64 + 32);
    assert_int_equal(s.loads, 1280 + 64);
    assert_int_equal(s.stores, 64 + 32);
    assert_int_equal(s.copies, 2);
    assert_int_equal(s.copy_bytes, 2 * 4096);
    /* LUD: LDS 114, STS 79, LDG 48, STG 31; BAR.SYNC twice */
    if (trace_info(ACCELSIM "/accel-sim-hbf-lud-kernel8", NULL, &s, &e)) fail_msg("%s", e.msg);
    assert_int_equal(s.by_space[SPACE_SHARED], 114 + 79);
    assert_int_equal(s.by_space[SPACE_GLOBAL], 48 + 31);
    assert_int_equal(s.loads, 114 + 48);
    assert_int_equal(s.stores, 79 + 31);
    assert_int_equal(s.by_class[OP_BAR], 2);
    /* simple vectorAdd: LDG 3126, STG 1563 */
    if (trace_info(ACCELSIM "/mgpusim-simple-trace-example", NULL, &s, &e)) fail_msg("%s", e.msg);
    assert_int_equal(s.loads, 3126);
    assert_int_equal(s.stores, 1563);
    assert_int_equal(s.by_space[SPACE_GLOBAL], 3126 + 1563);
    assert_int_equal(s.copy_bytes, 2 * 200000);
    /* vecadd: LDG 8, STG 4 */
    if (trace_info(ACCELSIM "/microgpusim-vectoradd-100-32", NULL, &s, &e)) fail_msg("%s", e.msg);
    assert_int_equal(s.loads, 8);
    assert_int_equal(s.stores, 4);
}

/* The MemcpyHtoD lines come with the kernel that follows them, addresses and sizes exact. */
static void test_copies(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    struct workload *w = topen(ACCELSIM "/microgpusim-vectoradd-100-32/kernelslist.g");
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.ncopies, 3);
    static const uint64_t addr[] = {0x00007f2b2d500000, 0x00007f2b2d500200, 0x00007f2b2d500400};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(k.copies[i].addr, addr[i]);
        assert_int_equal(k.copies[i].bytes, 400);
    }
    assert_string_equal(k.name, "_Z6vecAddIfEvPT_S1_S1_i");
    w->vt->destroy(w);

    /* BFS: 7 copies before kernel 1, none before kernel 2 */
    w = topen(ACCELSIM "/mgpusim-bfs-rodinia-k1-k2");
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.ncopies, 7);
    assert_int_equal(k.copies[6].addr, 0x00007fc841527000);
    assert_int_equal(k.copies[6].bytes, 1);
    assert_int_equal(k.copies[1].bytes, 98304);
    struct wl_warp *warps[32];
    for (uint64_t c = 0; c < k.ncta; c++) {
        assert_int_equal(w->vt->cta_start(w, c, warps, &e), 0);
        w->vt->cta_end(w, c, warps);
    }
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.id, 1);
    assert_int_equal(k.ncopies, 0);
    assert_string_equal(trace_kernel_header(w)->name, "_Z7Kernel2PbS_S_S_i");
    for (uint64_t c = 0; c < k.ncta; c++) {
        assert_int_equal(w->vt->cta_start(w, c, warps, &e), 0);
        w->vt->cta_end(w, c, warps);
    }
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0);
    w->vt->destroy(w);
}

/* The counts Accel-Sim's own run of the vector-add trace reports (accelsim_log.txt):
 * gpgpu_n_tot_w_icount = 344 warp instructions, gpu_sim_insn = 10516 thread instructions,
 * gpgpu_n_load_insn = 200 and gpgpu_n_store_insn = 100 (thread loads / stores),
 * gpgpu_n_mem_read_global = 8 and gpgpu_n_mem_write_global = 4 (warp instructions). */
static void test_vecadd_matches_accelsim_log(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    struct workload *w = topen(ACCELSIM "/microgpusim-vectoradd-100-32");
    struct kernel_desc k;
    struct wl_warp *warps[32];
    struct inst in;
    uint64_t warp_insts = 0, thread_insts = 0, tld = 0, tst = 0, wld = 0, wst = 0;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(w->vt->cta_start(w, 0, warps, &e), 0);
    for (unsigned i = 0; i < 32; i++) do {
            assert_int_equal(w->vt->warp_next(w, warps[i], &in, &e), 0);
            warp_insts++;
            unsigned lanes = (unsigned)__builtin_popcount(in.active);
            thread_insts += lanes;
            if (in.cls == OP_MEM && in.mop == MOP_LOAD) tld += lanes, wld++;
            if (in.cls == OP_MEM && in.mop == MOP_STORE) tst += lanes, wst++;
        } while (in.cls != OP_EXIT);
    assert_int_equal(warp_insts, 344);
    assert_int_equal(thread_insts, 10516);
    assert_int_equal(tld, 200);
    assert_int_equal(tst, 100);
    assert_int_equal(wld, 8);
    assert_int_equal(wst, 4);
    w->vt->destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_real_trace),
        cmocka_unit_test(test_memory_by_opcode),
        cmocka_unit_test(test_copies),
        cmocka_unit_test(test_vecadd_matches_accelsim_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
