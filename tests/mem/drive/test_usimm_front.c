/* Tests for src/mem/drive/usimm_front.c: hand-made traces whose cycle counts follow from USIMM's
 * rules alone, merge/forward counting, USIMM's lingering served requests, core prefixes, power
 * and EDP, conservation on a real trace, and a literal per-CPU-cycle re-implementation of
 * USIMM's loop (no cycle skipping) that must agree with the driver exactly. All runs use the
 * real 1channel.cfg / 4channel.cfg with the protocol checker on. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem/drive/drive.h"
#include "mem/drive/memtrace.h"
#include "mem/drive/usimm_cfg.h"
#include "mem/drive/usimm_front.h"
#include "mem/memsys.h"
#include "testutil.h"

#define DATA_DIR WS_SHARED_DATA "/traces/usimm"
#define CFG1     DATA_DIR "/usimm-v1.3-config/1channel.cfg"
#define CFG4     DATA_DIR "/usimm-v1.3-config/4channel.cfg"

struct run {
    struct cfg *c;
    struct memsys *ms;
    struct usimm_front_cfg fc;
    struct usimm_front *f;
    struct drive_result res;
};

/* Loads a USIMM config for n traces (+ optional "key=value" overrides), builds everything. */
static void setup_run(struct run *r, const char *cfg_path, const char *const *traces, unsigned n,
                      const char *override) {
    struct ws_err e = {{0}};
    memset(r, 0, sizeof *r);
    r->c = cfg_create();
    if (usimm_cfg_load(r->c, cfg_path, (int)n, &e) != 0) fail_msg("%s", e.msg);
    if (cfg_set(r->c, "mc.check", "true", "test", 0, &e) != 0) fail_msg("%s", e.msg);
    if (override) {
        char key[128];
        const char *eq = strchr(override, '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - override), override);
        if (cfg_set(r->c, key, eq + 1, "test", 0, &e) != 0) fail_msg("%s", e.msg);
    }
    r->ms = memsys_create(r->c, &e);
    if (!r->ms) fail_msg("%s", e.msg);
    if (usimm_front_configure(&r->fc, r->c, &e) != 0 || cfg_check_unclaimed(r->c, &e) != 0)
        fail_msg("%s", e.msg);
    r->f = usimm_front_create(&r->fc, r->ms, traces, n, &e);
    if (!r->f) fail_msg("%s", e.msg);
}

static const struct usimm_front_stats *do_run(struct run *r, const char *cfg_path,
                                              const char *const *traces, unsigned n,
                                              const char *override) {
    setup_run(r, cfg_path, traces, n, override);
    struct ws_err e = {{0}};
    if (drive_run(&usimm_front_ops, r->f, r->ms, false, &r->res, &e) != 0) fail_msg("%s", e.msg);
    if (usimm_front_report(r->f, r->ms, &e) != 0) fail_msg("%s", e.msg);
    return usimm_front_stats(r->f);
}

static void free_run(struct run *r) {
    usimm_front_destroy(r->f);
    memsys_destroy(r->ms);
    cfg_destroy(r->c);
}

static void test_stat_table(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    assert_int_equal(stats_desc_check(usimm_front_stat_desc, usimm_front_stat_ndesc, &e), 0);
}

/* Only non-memory work (1999 gaps, then one write that drains long before the end).
 * Fetch 4 per cycle fills the 128-entry ROB by cycle 31; retire is the bottleneck: instruction
 * i (fetched by cycle i/2, done at fetch + 10) retires in cycle 11 + floor(i/2) (retire needs
 * comptime < cycle, 2 per cycle). The last of the 2000 retires in cycle 11 + 999 = 1010, the
 * end test holds in that cycle's fetch step, so Cycles = 1011 = ceil(2000 / MAX_RETIRE) +
 * PIPELINEDEPTH + 1. */
static void test_retire_bound(void **state) {
    (void)state;
    const char *t = tu_tmpfile("nonmem.trc", "1999 W 0x1000\n");
    struct run r;
    const struct usimm_front_stats *s = do_run(&r, CFG1, &t, 1, NULL);
    assert_int_equal(s->cycles, 2000 / 2 + 10 + 1);
    assert_int_equal(s->committed, 2000);
    assert_int_equal(s->fetched, 2000);
    assert_int_equal(s->writes, 1);
    assert_int_equal(s->writes_to_dram, 1);
    assert_int_equal(s->sum_exec_time, 1011);
    assert_int_equal(usimm_front_core(r.f, 0)->time_done, 1011);
    assert_int_equal(memsys_summary(r.ms)->writes, 1);
    assert_true(memsys_summary(r.ms)->commands_checked > 0);
    free_run(&r);
}

/* With 4channel.cfg (MAX_RETIRE 4, ROB 160) retire keeps up with fetch, so instruction i
 * retires in cycle i / 4 + 11 and the last one in cycle 510. Now the write decides the end:
 * fetched in CPU cycle 499, the scheduler sees it at DRAM cycle 499 / 4 + 1 = 125 (ACT), its
 * COL-WR issues at 125 + tRCD = 136, and it leaves the write queue in the memory step of DRAM
 * cycle 137 = CPU cycle 548. The end test holds in that cycle: Cycles = 549. */
static void test_write_drain_ends_run(void **state) {
    (void)state;
    const char *t = tu_tmpfile("nonmem4.trc", "1999 W 0x1000\n");
    struct run r;
    const struct usimm_front_stats *s = do_run(&r, CFG4, &t, 1, NULL);
    uint64_t wr_dram = 1999 / 4 / 4 + 1 + (uint64_t)memsys_spec(r.ms)->RCDWR;
    assert_int_equal(wr_dram, 136);
    assert_int_equal(s->cycles, 4 * (wr_dram + 1) + 1);
    assert_int_equal(s->committed, 2000);
    /* the core itself finished at 510, but USIMM charges the drain to the last core */
    assert_int_equal(usimm_front_core(r.f, 0)->time_done, 549);
    free_run(&r);
}

/* One read to a closed bank, fetched in CPU cycle 0. USIMM's scheduler first sees it in the
 * memory step of CPU cycle 4 (DRAM cycle 1): ACT at DRAM 1, COL-RD at 1 + tRCD = 12, data done
 * at 12 + tCAS + tDATA_TRANS = 27, i.e. CPU cycle 108; its ROB entry completes at 108 +
 * PIPELINEDEPTH = 118 and retires in cycle 119; Cycles = 120. */
static void test_single_read(void **state) {
    (void)state;
    const char *t = tu_tmpfile("read.trc", "0 R 0x0 0x400\n");
    struct run r;
    const struct usimm_front_stats *s = do_run(&r, CFG1, &t, 1, NULL);
    const struct dram_spec *sp = memsys_spec(r.ms);
    uint64_t data_cpu = 4 * (uint64_t)(1 + sp->RCDRD + sp->CL + sp->nBL);
    assert_int_equal(data_cpu, 108);
    assert_int_equal(s->cycles, data_cpu + 10 + 1 + 1);
    assert_int_equal(s->reads_to_dram, 1);
    assert_int_equal(s->read_lat_sum, data_cpu); /* fetched in cycle 0 */
    assert_int_equal(memsys_summary(r.ms)->row_misses, 1);
    /* USIMM's system power (seed-002 §3.11): 1 channel -> 10 W misc, 5 W per busy core */
    assert_true(s->misc_power_w == 10.0);
    assert_true(fabs(s->core_power_w - 5.0) < 1e-12);
    double sec = 120.0 / 3.2e9;
    assert_true(fabs(s->seconds - sec) < 1e-18);
    assert_true(s->dram_power_w > 0);
    assert_true(fabs(s->system_power_w - (s->dram_power_w + 15.0)) < 1e-9);
    assert_true(fabs(s->edp_js - s->system_power_w * sec * sec) < 1e-24);
    free_run(&r);
}

/* USIMM's EDP divides its cycle count by a fixed 3.2 GHz whatever PROCESSOR_CLK_MULTIPLIER is;
 * `seconds` is the simulated time at the multiplier's clock (2 x 800 MHz here). */
static void test_edp_uses_usimms_fixed_clock(void **state) {
    (void)state;
    const char *t = tu_tmpfile("read2.trc", "0 R 0x0 0x400\n");
    struct run r;
    const struct usimm_front_stats *s = do_run(&r, CFG1, &t, 1, "usimm.clk_mult=2");
    double usimm_s = (double)s->cycles / 3.2e9;
    assert_true(fabs(s->seconds - (double)s->cycles / 1.6e9) < 1e-18);
    assert_true(fabs(s->edp_js - s->system_power_w * usimm_s * usimm_s) < 1e-24);
    free_run(&r);
}

/* Cycle 0 fetches W 0x40 (queued), W 0x40 (merged), R 0x40 (forwarded from the write queue:
 * done at 0 + 10 + 10), R 0x80 (queued); cycle 1 fetches R 0x80 again (merged with the queued
 * read: done at 1 + 1 + 10). The queued read is the single read above (done 118), so Cycles =
 * 120 again; the write drains at DRAM cycle 24, long before. */
static void test_merge_and_forward(void **state) {
    (void)state;
    const char *t =
        tu_tmpfile("merge.trc", "0 W 0x40\n0 W 0x40\n0 R 0x40 0x1\n0 R 0x80 0x2\n0 R 0x80 0x3\n");
    struct run r;
    const struct usimm_front_stats *s = do_run(&r, CFG1, &t, 1, NULL);
    assert_int_equal(s->writes, 2);
    assert_int_equal(s->writes_to_dram, 1);
    assert_int_equal(s->writes_merged, 1);
    assert_int_equal(s->reads, 3);
    assert_int_equal(s->reads_forwarded, 1);
    assert_int_equal(s->reads_merged, 1);
    assert_int_equal(s->reads_to_dram, 1);
    assert_int_equal(s->cycles, 120);
    assert_int_equal(memsys_summary(r.ms)->reads, 1);
    assert_int_equal(memsys_summary(r.ms)->writes, 1);
    free_run(&r);
}

/* USIMM removes a served request from its queue only in the next DRAM cycle's memory step, so a
 * read fetched in CPU cycles 48..51 still merges with a read whose COL-RD issued at DRAM cycle
 * 12 (CPU 48), and one fetched in cycle 52 goes to DRAM again. With a 512-entry ROB instruction
 * i is fetched in cycle i / 4: gap 203 puts the second read at index 204 (cycle 51), gap 207 at
 * index 208 (cycle 52). */
static void test_served_read_lingers(void **state) {
    (void)state;
    const char *t = tu_tmpfile("linger1.trc", "0 R 0x0\n203 R 0x0\n");
    struct run r;
    const struct usimm_front_stats *s = do_run(&r, CFG1, &t, 1, "usimm.rob_size=512");
    assert_int_equal(s->reads_merged, 1);
    assert_int_equal(s->reads_to_dram, 1);
    free_run(&r);
    t = tu_tmpfile("linger2.trc", "0 R 0x0\n207 R 0x0\n");
    s = do_run(&r, CFG1, &t, 1, "usimm.rob_size=512");
    assert_int_equal(s->reads_merged, 0);
    assert_int_equal(s->reads_to_dram, 2);
    free_run(&r);
}

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

/* Core i's addresses get prefix i << ADDRESS_BITS; MT<n> traces share the last MT0's prefix, so
 * the second core's read of the same trace address merges with the first's. */
static void test_core_prefixes(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "%s/ws-usimmfe-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(dir));
    const char *tr[3] = {put("a.trc", "0 R 0x40\n"), put("b.trc", "0 R 0x40\n")};
    struct run r;
    const struct usimm_front_stats *s = do_run(&r, CFG1, tr, 2, NULL);
    assert_int_equal(s->reads_to_dram, 2);
    assert_int_equal(s->reads_merged, 0);
    assert_int_equal(usimm_front_core(r.f, 1)->prefix, 1);
    /* 2 cores: rows doubled, core 1's address 0x1_0000_0040 is in the upper half of the rows */
    assert_int_equal(memsys_spec(r.ms)->rows, 65536);
    free_run(&r);

    const char *mt[3] = {put("MT0app", "0 R 0x40\n"), put("MT1app", "0 R 0x40\n"),
                         put("solo", "0 R 0x40\n")};
    s = do_run(&r, CFG4, mt, 3, NULL);
    assert_int_equal(usimm_front_core(r.f, 0)->prefix, 0);
    assert_int_equal(usimm_front_core(r.f, 1)->prefix, 0);
    assert_int_equal(usimm_front_core(r.f, 2)->prefix, 2);
    assert_int_equal(s->reads_merged, 1);
    assert_int_equal(s->reads_to_dram, 2);
    /* 4 channels -> 40 W misc, 10 W per core while it runs */
    assert_true(s->misc_power_w == 40.0);
    double core = 0;
    for (unsigned i = 0; i < 3; i++)
        core += 10.0 * (double)usimm_front_core(r.f, i)->time_done / (double)s->cycles;
    assert_true(fabs(s->core_power_w - core) < 1e-9);
    /* the merged read completes at 0 + 1 + 10 and retires at 12: core 1 finishes first */
    assert_int_equal(usimm_front_core(r.f, 1)->time_done, 12);
    free_run(&r);

    const char *bad[2] = {put("MT1orphan", "0 R 0x40\n")};
    struct ws_err e = {{0}};
    struct cfg *c = cfg_create();
    assert_int_equal(usimm_cfg_load(c, CFG1, 1, &e), 0);
    struct memsys *ms = memsys_create(c, &e);
    struct usimm_front_cfg fc;
    assert_int_equal(usimm_front_configure(&fc, c, &e), 0);
    assert_null(usimm_front_create(&fc, ms, bad, 1, &e));
    char want[1024];
    snprintf(want, sizeof want,
             "%s: trace name starts with \"MT\" but no \"MT0...\" trace comes before it (USIMM's "
             "multithreaded-application naming)",
             bad[0]);
    assert_string_equal(e.msg, want);
    memsys_destroy(ms);
    cfg_destroy(c);
    for (int i = 0; i < 2; i++) unlink(tr[i]);
    for (int i = 0; i < 3; i++) unlink(mt[i]);
    unlink(bad[0]);
    rmdir(dir);
}

/* A malformed record is reported with its file:line when the front end reaches it. */
static void test_bad_trace(void **state) {
    (void)state;
    const char *t = tu_tmpfile("bad.trc", "0 R 0x0\n5 X 0x40\n");
    struct run r;
    setup_run(&r, CFG1, &t, 1, NULL);
    struct ws_err e = {{0}};
    assert_int_equal(drive_run(&usimm_front_ops, r.f, r.ms, false, &r.res, &e), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s:2: expected R or W, got 'X'", t);
    assert_string_equal(e.msg, want);
    free_run(&r);
    const char *empty = tu_tmpfile("empty.trc", "# nothing\n");
    struct cfg *c = cfg_create();
    assert_int_equal(usimm_cfg_load(c, CFG1, 1, &e), 0);
    struct memsys *ms = memsys_create(c, &e);
    struct usimm_front_cfg fc;
    assert_int_equal(usimm_front_configure(&fc, c, &e), 0);
    assert_null(usimm_front_create(&fc, ms, &empty, 1, &e));
    snprintf(want, sizeof want, "%s: trace has no records", empty);
    assert_string_equal(e.msg, want);
    memsys_destroy(ms);
    cfg_destroy(c);
}

/* Writes the first n records of a trace as a plain USIMM trace; returns the trace's totals. */
static const char *head_of(const char *src, const char *name, uint64_t n, uint64_t *reads,
                           uint64_t *writes, uint64_t *instr) {
    struct ws_err e = {{0}};
    struct memtrace *m = memtrace_open(src, MEMTRACE_USIMM, &e);
    assert_non_null(m);
    char path[512];
    snprintf(path, sizeof path, "%s/ws-test-%d-%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid(), name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    *reads = *writes = *instr = 0;
    struct memtrace_rec r;
    for (uint64_t i = 0; i < n && memtrace_next(m, &r, &e) == 1; i++) {
        if (r.is_write)
            fprintf(f, "%llu W 0x%llx\n", (unsigned long long)r.gap, (unsigned long long)r.addr);
        else
            fprintf(f, "%llu R 0x%llx 0x%llx\n", (unsigned long long)r.gap,
                    (unsigned long long)r.addr, (unsigned long long)r.pc);
        r.is_write ? (*writes)++ : (*reads)++;
        *instr += r.gap + 1;
    }
    fclose(f);
    memtrace_close(m);
    static char out[4][512];
    static int slot;
    char *o = out[slot++ & 3];
    snprintf(o, 512, "%s", path);
    return o;
}

/* Every read of the trace is sent to DRAM, merged or forwarded; every write is sent or merged;
 * every instruction commits; the controllers served exactly what was sent. */
static void test_conservation_black(void **state) {
    (void)state;
    uint64_t reads, writes, instr;
    const char *t =
        head_of(DATA_DIR "/black_small.gz", "black20k.trc", 20000, &reads, &writes, &instr);
    struct run r;
    const struct usimm_front_stats *s = do_run(&r, CFG1, &t, 1, NULL);
    assert_int_equal(s->reads, reads);
    assert_int_equal(s->writes, writes);
    assert_int_equal(s->reads_to_dram + s->reads_merged + s->reads_forwarded, reads);
    assert_int_equal(s->writes_to_dram + s->writes_merged, writes);
    assert_int_equal(s->committed, instr);
    assert_int_equal(s->fetched, instr);
    const struct memsys_summary *m = memsys_summary(r.ms);
    assert_int_equal(m->reads, s->reads_to_dram);
    assert_int_equal(m->writes, s->writes_to_dram);
    assert_int_equal(m->reads_forwarded, 0); /* mc.forward_raw is off: the front end forwards */
    assert_true(m->commands_checked > 0);
    assert_true(s->ipc > 0 && s->ipc <= 2.0);
    /* the DRAM run covers the CPU run: cycles / 4 DRAM cycles, plus at most the last beat */
    assert_true(m->cycles * 4 >= s->cycles);
    free_run(&r);
    unlink(t);
}

/* The other ported USIMM schedulers on the real trace (20,000 records, 4channel.cfg, checker
 * on): each conserves every request, and each does what it is for: close precharges idle banks
 * (more PREs than fcfs, fewer row hits), close-ap closes rows with RDA/WRA, fcfs-idle powers
 * ranks down and takes REFs early. */
static void test_ported_schedulers_black(void **state) {
    (void)state;
    uint64_t reads, writes, instr;
    const char *t =
        head_of(DATA_DIR "/black_small.gz", "black20kb.trc", 20000, &reads, &writes, &instr);
    static const char *const sched[] = {"fcfs", "close", "close-ap", "fcfs-idle"};
    uint64_t pre[4] = {0}, hits[4] = {0}, col_ap[4] = {0}, pde[4] = {0}, ref[4] = {0};
    json_int_t early = 0;
    for (unsigned k = 0; k < 4; k++) {
        char set[64];
        snprintf(set, sizeof set, "mc.usimm.scheduler=%s", sched[k]);
        struct run r;
        const struct usimm_front_stats *s = do_run(&r, CFG4, &t, 1, set);
        assert_int_equal(s->reads_to_dram + s->reads_merged + s->reads_forwarded, reads);
        assert_int_equal(s->writes_to_dram + s->writes_merged, writes);
        assert_int_equal(s->committed, instr);
        const struct memsys_summary *m = memsys_summary(r.ms);
        assert_int_equal(m->reads, s->reads_to_dram);
        assert_int_equal(m->writes, s->writes_to_dram);
        assert_true(m->commands_checked > 0);
        for (uint32_t ch = 0; ch < memsys_nchannels(r.ms); ch++) {
            const struct mc_stats *st = mc_stats(memsys_mc(r.ms, ch));
            pre[k] += st->n_pre;
            hits[k] += st->rd_hit + st->wr_hit;
            col_ap[k] += st->n_rda + st->n_wra;
            pde[k] += st->n_pde;
            ref[k] += st->n_ref;
        }
        if (k == 3) { /* the scheduler's own count of the REFs it took early */
            struct ws_err e = {{0}};
            struct stats_reg reg;
            stats_reg_init(&reg);
            assert_int_equal(memsys_register_stats(r.ms, &reg, false, &e), 0);
            json_t *j = stats_to_json(&reg);
            early =
                json_integer_value(json_object_get(json_object_get(j, "sched"), "early_refreshes"));
            json_decref(j);
            stats_reg_free(&reg);
        }
        free_run(&r);
    }
    assert_true(pre[1] > pre[0] && hits[1] < hits[0]);
    assert_int_equal(col_ap[0], 0);
    assert_int_equal(col_ap[1], 0);
    assert_true(col_ap[2] > 0 && pre[2] < pre[0]);
    assert_int_equal(pde[0], 0);
    assert_true(pde[3] > 0);
    assert_true(ref[3] >= ref[0]); /* the refresh still happens, no window skipped */
    assert_true(early > 0 && (uint64_t)early <= ref[3]);
    unlink(t);
}

/* ---- a literal re-implementation of USIMM's loop, one CPU cycle at a time ---- */
enum { REF_SLOTS = 8192 };

struct ref_ent {
    uint64_t addr;
    bool used, w, served;
    unsigned core, slot, ch;
};

struct ref {
    struct ref_ent q[REF_SLOTS];
    unsigned top; /* slots in use lie below top */
    unsigned wq[8];
    uint64_t mult, pd;
    uint64_t *comp[4];
    uint64_t read_lat;
};

static void ref_done(void *ctx, const struct mc_req *m) {
    struct ref *x = ctx;
    struct ref_ent *q = &x->q[m->r.tag];
    q->served = true;
    if (!q->w) {
        x->comp[q->core][q->slot] = m->r.ts[MEM_TS_DATA] * x->mult + x->pd;
        x->read_lat += m->r.ts[MEM_TS_DATA] * x->mult - m->r.ts[MEM_TS_ISSUE];
    }
}

static bool ref_has(const struct ref *x, uint64_t a, bool w) {
    for (unsigned i = 0; i < x->top; i++)
        if (x->q[i].used && x->q[i].addr == a && x->q[i].w == w) return true;
    return false;
}

struct ref_out {
    uint64_t cycles, committed, merged, forwarded, wmerged, to_dram, read_lat;
    uint64_t time_done[4];
};

static void reference(const char *cfg_path, const char *const *traces, unsigned n,
                      struct ref_out *out) {
    struct ws_err e = {{0}};
    struct cfg *c = cfg_create();
    assert_int_equal(usimm_cfg_load(c, cfg_path, (int)n, &e), 0);
    struct memsys *ms = memsys_create(c, &e);
    assert_non_null(ms);
    struct usimm_front_cfg fc;
    assert_int_equal(usimm_front_configure(&fc, c, &e), 0);
    struct ref *x = calloc(1, sizeof *x);
    x->mult = (uint64_t)fc.clk_mult;
    x->pd = (uint64_t)fc.pipeline_depth;
    memsys_set_done_cb(ms, ref_done, x);
    unsigned rob = (unsigned)fc.rob_size, nch = memsys_nchannels(ms);
    unsigned wq_cap = (unsigned)memsys_mc_cfg(ms)->wq_size;
    struct memtrace *t[4];
    struct memtrace_rec cur[4];
    unsigned head[4] = {0}, inflight[4] = {0};
    bool tdone[4] = {false};
    uint64_t committed = 0;
    memset(out, 0, sizeof *out);
    for (unsigned i = 0; i < n; i++) {
        x->comp[i] = calloc(rob, sizeof(uint64_t));
        t[i] = memtrace_open(traces[i], MEMTRACE_USIMM, &e);
        assert_int_equal(memtrace_next(t[i], &cur[i], &e), 1);
    }
    for (uint64_t cyc = 0;; cyc++) {
        /* retire */
        for (unsigned i = 0; i < n; i++)
            for (unsigned k = 0; k < (unsigned)fc.max_retire && inflight[i]; k++) {
                if (x->comp[i][head[i]] >= cyc) break;
                head[i] = (head[i] + 1) % rob;
                inflight[i]--;
                committed++;
                if (!inflight[i] && tdone[i] && !out->time_done[i]) out->time_done[i] = cyc;
            }
        /* memory: USIMM's clean_queues, then the scheduler of this DRAM cycle */
        if (cyc % x->mult == 0) {
            for (unsigned i = 0; i < x->top; i++)
                if (x->q[i].used && x->q[i].served) {
                    x->q[i].used = false;
                    if (x->q[i].w) x->wq[x->q[i].ch]--;
                }
            while (x->top && !x->q[x->top - 1].used) x->top--;
            assert_int_equal(memsys_tick(ms, cyc / x->mult, &e), 0);
        }
        /* fetch */
        for (unsigned i = 0; i < n; i++) {
            for (unsigned nf = 0; nf < (unsigned)fc.max_fetch && !tdone[i] && inflight[i] < rob;
                 nf++) {
                bool full = false;
                for (unsigned ch = 0; ch < nch; ch++) full = full || x->wq[ch] == wq_cap;
                if (full) break;
                unsigned slot = (head[i] + inflight[i]) % rob;
                if (cur[i].gap) {
                    x->comp[i][slot] = cyc + x->pd;
                    cur[i].gap--;
                    inflight[i]++;
                    continue;
                }
                uint64_t a = cur[i].addr + ((uint64_t)i << fc.address_bits);
                bool w = cur[i].is_write;
                x->comp[i][slot] = w ? cyc + x->pd : cyc + 1000000;
                bool send = false;
                if (!w && ref_has(x, a, true)) {
                    x->comp[i][slot] = cyc + (uint64_t)fc.wq_lookup_latency + x->pd;
                    out->forwarded++;
                } else if (!w && ref_has(x, a, false)) {
                    x->comp[i][slot] = cyc + 1 + x->pd;
                    out->merged++;
                } else if (w && ref_has(x, a, true)) {
                    out->wmerged++;
                } else {
                    send = true;
                }
                inflight[i]++;
                if (send) {
                    unsigned k = 0;
                    while (x->q[k].used) k++;
                    assert_true(k < REF_SLOTS);
                    if (k == x->top) x->top++;
                    struct dram_addr da;
                    addr_map_decode(memsys_map(ms), a, &da);
                    x->q[k] = (struct ref_ent){a, true, w, false, i, slot, da.ch};
                    if (w) x->wq[da.ch]++;
                    struct mem_req m;
                    memset(&m, 0, sizeof m);
                    m.addr = a;
                    m.is_write = w;
                    m.bytes = 64;
                    m.tag = k;
                    m.ts[MEM_TS_ISSUE] = cyc;
                    assert_true(memsys_can_accept(ms, a, w));
                    memsys_enqueue(ms, &m, cyc / x->mult + 1);
                    out->to_dram++;
                }
                int rc = memtrace_next(t[i], &cur[i], &e);
                assert_true(rc >= 0);
                if (rc == 0) {
                    tdone[i] = true;
                    break;
                }
            }
        }
        /* end test */
        bool all = true;
        for (unsigned i = 0; i < n; i++) all = all && tdone[i] && !inflight[i];
        for (unsigned ch = 0; ch < nch; ch++) all = all && !x->wq[ch];
        if (all) {
            out->cycles = cyc + 1;
            break;
        }
    }
    unsigned last = 0;
    for (unsigned i = 1; i < n; i++)
        if (out->time_done[i] > out->time_done[last]) last = i;
    out->time_done[last] = out->cycles;
    out->committed = committed;
    out->read_lat = x->read_lat;
    for (unsigned i = 0; i < n; i++) {
        memtrace_close(t[i]);
        free(x->comp[i]);
    }
    free(x);
    memsys_destroy(ms);
    cfg_destroy(c);
}

static void compare_with_reference(const char *cfg_path, const char *const *traces, unsigned n) {
    struct ref_out want;
    reference(cfg_path, traces, n, &want);
    struct run r;
    const struct usimm_front_stats *s = do_run(&r, cfg_path, traces, n, NULL);
    assert_int_equal(s->cycles, want.cycles);
    assert_int_equal(s->committed, want.committed);
    assert_int_equal(s->reads_merged, want.merged);
    assert_int_equal(s->reads_forwarded, want.forwarded);
    assert_int_equal(s->writes_merged, want.wmerged);
    assert_int_equal(s->reads_to_dram + s->writes_to_dram, want.to_dram);
    assert_int_equal(s->read_lat_sum, want.read_lat);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(usimm_front_core(r.f, i)->time_done, want.time_done[i]);
    /* the driver skips most cycles: it visits far fewer DRAM cycles than it simulates */
    assert_true(r.res.visited_cycles < r.res.end_cycle);
    free_run(&r);
}

/* A write-heavy trace with a small working set: write queues fill up (fetch stalls), and reads
 * and writes often find their address already queued. */
static const char *stress_trace(const char *name, uint64_t seed, unsigned n) {
    char path[512];
    snprintf(path, sizeof path, "%s/ws-test-%d-%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid(), name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    uint64_t x = seed;
    for (unsigned i = 0; i < n; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned r = (unsigned)(x >> 33);
        uint64_t line = r % 8 == 0 ? (r >> 8) % 16 : (r >> 8) % (1u << 18);
        if (r % 5 < 3)
            fprintf(f, "%u W 0x%llx\n", r % 3, (unsigned long long)(line * 64));
        else
            fprintf(f, "%u R 0x%llx 0x%x\n", r % 7, (unsigned long long)(line * 64), i);
    }
    fclose(f);
    static char out[4][512];
    static int slot;
    char *o = out[slot++ & 3];
    snprintf(o, 512, "%s", path);
    return o;
}

static void test_matches_literal_loop(void **state) {
    (void)state;
    const char *st[2] = {stress_trace("stress1.trc", 1, 6000),
                         stress_trace("stress2.trc", 2, 3000)};
    struct run r;
    const struct usimm_front_stats *s = do_run(&r, CFG1, st, 2, NULL);
    assert_true(s->wq_full_cycles > 0);
    assert_true(s->reads_forwarded > 0 && s->reads_merged > 0 && s->writes_merged > 0);
    free_run(&r);
    compare_with_reference(CFG1, st, 2);
    compare_with_reference(CFG4, st, 2);
    compare_with_reference(CFG1, st, 1);
    unlink(st[0]);
    unlink(st[1]);
    const char *two[2] = {DATA_DIR "/jarrett-m-domains/faceshort",
                          DATA_DIR "/jarrett-m-domains/fluidshort"};
    compare_with_reference(CFG1, two, 2);
    compare_with_reference(CFG4, two, 2);
    uint64_t rd, wr, in;
    const char *b = head_of(DATA_DIR "/black_small.gz", "black5k.trc", 5000, &rd, &wr, &in);
    compare_with_reference(CFG1, &b, 1);
    compare_with_reference(CFG4, &b, 1);
    unlink(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stat_table),
        cmocka_unit_test(test_retire_bound),
        cmocka_unit_test(test_write_drain_ends_run),
        cmocka_unit_test(test_single_read),
        cmocka_unit_test(test_edp_uses_usimms_fixed_clock),
        cmocka_unit_test(test_merge_and_forward),
        cmocka_unit_test(test_served_read_lingers),
        cmocka_unit_test(test_core_prefixes),
        cmocka_unit_test(test_bad_trace),
        cmocka_unit_test(test_conservation_black),
        cmocka_unit_test(test_ported_schedulers_black),
        cmocka_unit_test(test_matches_literal_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
