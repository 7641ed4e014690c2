/* A memory sub-partition (src/gpu/subpart.c) with a real L2 and a real GDDR6 memory system:
 * misses become one DRAM read per 32 B burst of the missing sectors (two 64 B GDDR5 bursts for a
 * whole line when the L2 has no sectors), hits and stores come back exactly l2.hit_lat L2 cycles
 * after their access, atomics spend gpu.atomic_lat more, dirty victims are written back, warmed
 * lines hit, and every request comes back once. The L2 and DRAM clocks are the same counter. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "gpu/subpart.h"
#include "testutil.h"

struct rig {
    struct memsys *ms;
    struct subpart *sp;
    uint64_t now;
};

static struct subpart *g_sp;
static void on_done(void *ctx, const struct mc_req *mr) {
    (void)ctx;
    subpart_dram_done(g_sp, mr);
}

enum { HIT_LAT = 10, ATOMIC_LAT = 7 };

/* `dram` / `sector`: NULL / 0 for the GDDR6 rig with 32 B sectors. */
static void rig_init_mem(struct rig *r, int64_t dram_lat, const char *dram, int64_t sector) {
    struct cfg *c =
        tu_cfg(dram ? dram
                    : "[dram]\npreset = gddr6-rtx2060s\n[addr]\nmap = row:ba:bg:col:ch:col/3\n"
                      "[mc]\ncheck = true\n");
    struct ws_err e = {{0}};
    r->ms = memsys_create(c, &e);
    assert_non_null(r->ms);
    cfg_destroy(c);
    struct cache_cfg l2 = {.sets = 4,
                           .ways = 2,
                           .line = 128,
                           .sector = sector ? sector : 32,
                           .mshrs = 8,
                           .mshr_merge = 4,
                           .miss_queue = 8,
                           .hit_lat = HIT_LAT,
                           .alloc = CACHE_ALLOC_ON_MISS,
                           .write = CACHE_WRITE_BACK,
                           .write_alloc = CACHE_WRITE_ALLOC};
    strcpy(l2.index, "linear");
    strcpy(l2.repl, "lru");
    struct subpart_cfg sc = {
        .in_q = 4, .out_q = 4, .atomic_lat = ATOMIC_LAT, .dram_q = 16, .dram_lat = dram_lat};
    r->sp = subpart_create(0, 1, &l2, &sc, r->ms, &e);
    if (!r->sp) fail_msg("%s", e.msg);
    g_sp = r->sp;
    memsys_set_done_cb(r->ms, on_done, NULL);
    r->now = 0;
}

static void rig_init_lat(struct rig *r, int64_t dram_lat) {
    rig_init_mem(r, dram_lat, NULL, 0);
}

static void rig_init(struct rig *r) {
    rig_init_lat(r, 0);
}

static void rig_free(struct rig *r) {
    subpart_destroy(r->sp);
    memsys_destroy(r->ms);
}

static void step(struct rig *r) {
    struct ws_err e = {{0}};
    assert_int_equal(memsys_tick(r->ms, r->now, &e), 0);
    subpart_cycle(r->sp, r->now, r->now);
    r->now++;
}

/* Pushes one request and runs until its reply is at the output; returns the cycle it appeared. */
static uint64_t roundtrip(struct rig *r, struct mem_req *q, uint64_t limit) {
    assert_true(subpart_can_accept(r->sp));
    subpart_push(r->sp, q, r->now);
    uint64_t start = r->now;
    while (!subpart_out_peek(r->sp)) {
        step(r);
        if (r->now - start > limit)
            fail_msg("no reply after %llu cycles", (unsigned long long)limit);
    }
    assert_ptr_equal(subpart_out_peek(r->sp), q);
    subpart_out_pop(r->sp);
    return r->now - 1 - start; /* the cycle in which it reached the output, relative to push */
}

static struct mem_req req(uint64_t addr, uint8_t kind, uint8_t sectors) {
    struct mem_req q;
    memset(&q, 0, sizeof q);
    q.addr = addr;
    q.kind = kind;
    q.sectors = sectors;
    q.is_write = kind == MEM_STORE;
    return q;
}

static void test_miss_then_hit(void **state) {
    (void)state;
    struct rig r;
    rig_init(&r);
    struct mem_req a = req(0x10000, MEM_LOAD, 0xf);
    uint64_t miss = roundtrip(&r, &a, 2000);
    assert_true(a.offchip);
    assert_int_equal(a.offchip_sectors, 0xf);
    assert_int_equal(subpart_stats(r.sp)->dram_reads, 4); /* four 32 B GDDR6 bursts */
    /* the request carries the DRAM stages of its fetch: arrival <= first command <= last column
     * < last data, the column at least tRCD after the activate, the data tCL + burst later */
    assert_true(a.ts[MEM_TS_MC_ENQ] >= a.ts[MEM_TS_L2]);
    assert_true(a.ts[MEM_TS_DRAM_CMD] >= a.ts[MEM_TS_MC_ENQ]);
    assert_true(a.ts[MEM_TS_COL] >= a.ts[MEM_TS_DRAM_CMD] + 20); /* tRCD = 20 */
    assert_true(a.ts[MEM_TS_DATA] > a.ts[MEM_TS_COL] + 20);      /* tCL = 20 */
    assert_true(miss > HIT_LAT + 20);                            /* tRCD + tCL at least */
    struct mem_req b = req(0x10040, MEM_LOAD, 0x4);
    assert_int_equal(roundtrip(&r, &b, 100), HIT_LAT);
    assert_false(b.offchip);
    assert_int_equal(b.offchip_sectors, 0);
    assert_int_equal(subpart_stats(r.sp)->dram_reads, 4);
    /* a sector miss fetches only the missing sector */
    struct mem_req c = req(0x20000, MEM_LOAD, 0x1);
    roundtrip(&r, &c, 2000);
    struct mem_req d = req(0x20000, MEM_LOAD, 0x3);
    roundtrip(&r, &d, 2000);
    assert_int_equal(subpart_stats(r.sp)->dram_reads, 6);
    /* off-chip for the warp-load statistics: only sector 1 came from DRAM, sector 0 hit */
    assert_true(d.offchip);
    assert_int_equal(d.offchip_sectors, 0x2);
    while (!subpart_idle(r.sp)) step(&r);
    rig_free(&r);
}

/* A miss on a cache without sectors fetches the whole 128 B line in `reads` DRAM reads, of which
 * `row_hits` find the row open; the rest of the line then hits in the L2. */
static void line_fill(const char *ini, uint64_t reads, uint64_t row_hits) {
    struct rig r;
    rig_init_mem(&r, 0, ini, 128);
    struct mem_req a = req(0x10000, MEM_LOAD, 0x1);
    roundtrip(&r, &a, 2000);
    assert_true(a.offchip);
    assert_int_equal(subpart_stats(r.sp)->dram_reads, reads);
    struct mem_req b = req(0x10060, MEM_LOAD, 0x1);
    assert_int_equal(roundtrip(&r, &b, 100), HIT_LAT);
    assert_false(b.offchip);
    assert_int_equal(subpart_stats(r.sp)->dram_reads, reads);
    while (!subpart_idle(r.sp)) step(&r);
    struct ws_err e = {{0}};
    assert_int_equal(memsys_finish(r.ms, r.now, &e), 0);
    assert_int_equal(memsys_summary(r.ms)->reads, reads);
    assert_int_equal(memsys_summary(r.ms)->row_hits, row_hits);
    rig_free(&r);
}

/* Caches without sectors (gtx480-6g, GPGPU-Sim 3.1.2) on gddr5-6gbps: the line is two 64 B
 * bursts to one row; the second is a row hit behind the ACT. */
static void test_unsectored_line(void **state) {
    (void)state;
    line_fill("[dram]\npreset = gddr5-6gbps\nchannels = 1\n[addr]\nmap = row:ba:bg:col:ch:col/2\n"
              "[mc]\ncheck = true\n",
              2, 1);
}

/* The same on gddr5-6gbps-line (gtx480-6g's memory, timed as seed 002 does): the line is one
 * 128 B access, one read command. */
static void test_unsectored_line_one_access(void **state) {
    (void)state;
    line_fill("[dram]\npreset = gddr5-6gbps-line\nchannels = 1\n[addr]\nmap = "
              "row:ba:bg:col:ch:col/1\n[mc]\ncheck = true\n",
              1, 0);
}

/* gpu.dram_latency: the same miss, with nothing else in flight, comes back exactly that many L2
 * cycles later; the hit that follows is unchanged. */
static void test_dram_latency(void **state) {
    (void)state;
    uint64_t miss[2], hit[2];
    const int64_t lat[2] = {0, 37};
    for (int i = 0; i < 2; i++) {
        struct rig r;
        rig_init_lat(&r, lat[i]);
        struct mem_req a = req(0x10000, MEM_LOAD, 0xf), b = req(0x10040, MEM_LOAD, 0x4);
        miss[i] = roundtrip(&r, &a, 2000);
        hit[i] = roundtrip(&r, &b, 100);
        while (!subpart_idle(r.sp)) step(&r);
        rig_free(&r);
    }
    assert_int_equal(miss[1], miss[0] + 37);
    assert_int_equal(hit[0], HIT_LAT);
    assert_int_equal(hit[1], HIT_LAT);
}

static void test_store_and_writeback(void **state) {
    (void)state;
    struct rig r;
    rig_init(&r);
    /* write-allocate: a store is acknowledged after the hit latency, without DRAM traffic */
    struct mem_req s0 = req(0x0, MEM_STORE, 0xf);
    assert_int_equal(roundtrip(&r, &s0, 100), HIT_LAT);
    assert_int_equal(subpart_stats(r.sp)->dram_reads + subpart_stats(r.sp)->dram_writes, 0);
    /* two more lines of local set 0 (4 sets x 128 B; channel-0 lines 0x2000 and 0x4000 are the
     * slice's local lines 4 and 8): the third evicts the dirty first one */
    struct mem_req s1 = req(0x2000, MEM_STORE, 0x3), s2 = req(0x4000, MEM_STORE, 0x1);
    roundtrip(&r, &s1, 100);
    roundtrip(&r, &s2, 100);
    while (!subpart_idle(r.sp)) step(&r);
    assert_int_equal(subpart_stats(r.sp)->dram_writes, 4); /* 4 dirty sectors of line 0 */
    assert_int_equal(subpart_stats(r.sp)->dram_reads, 0);
    rig_free(&r);
}

static void test_atomic(void **state) {
    (void)state;
    struct rig r;
    rig_init(&r);
    struct mem_req a = req(0x3000, MEM_LOAD, 0x1);
    roundtrip(&r, &a, 2000);
    struct mem_req at = req(0x3000, MEM_ATOMIC, 0x1);
    assert_int_equal(roundtrip(&r, &at, 100), HIT_LAT + ATOMIC_LAT);
    while (!subpart_idle(r.sp)) step(&r);
    rig_free(&r);
}

static void test_warm(void **state) {
    (void)state;
    struct rig r;
    rig_init(&r);
    subpart_warm(r.sp, 0x5000, 0xf);
    /* a host copy, not an access: the L2 counts none, and no miss or fill */
    const struct cache_stats *cs = cache_stats(subpart_l2(r.sp));
    assert_int_equal(cs->access[0][CACHE_MISS] + cs->access[0][CACHE_SECTOR_MISS], 0);
    assert_int_equal(cs->fills, 0);
    struct mem_req a = req(0x5000, MEM_LOAD, 0xf);
    assert_int_equal(roundtrip(&r, &a, 100), HIT_LAT);
    assert_int_equal(subpart_stats(r.sp)->dram_reads, 0);
    assert_int_equal(cs->access[0][CACHE_HIT], 1);
    assert_int_equal(cs->access[0][CACHE_MISS] + cs->access[0][CACHE_SECTOR_MISS], 0);
    /* warming over a dirty line still writes it back */
    struct mem_req s = req(0x7000, MEM_STORE, 0x1); /* the same local set as 0x5000 */
    roundtrip(&r, &s, 100);
    subpart_warm(r.sp, 0x9000, 0xf); /* that set again: evicts 0x5000 (LRU, clean) */
    subpart_warm(r.sp, 0xD000, 0xf); /* evicts the dirty 0x7000 */
    while (!subpart_idle(r.sp)) step(&r);
    assert_int_equal(subpart_stats(r.sp)->dram_writes, 1);
    rig_free(&r);
}

/* Sixteen loads to distinct lines through a 4-entry input queue: every one comes back once. */
/* Local addresses drop the channel bits, are dense, and map back. */
static void test_local_addresses(void **state) {
    (void)state;
    struct rig r;
    rig_init(&r);
    assert_int_equal(subpart_local_addr(r.sp, 0x0), 0);
    assert_int_equal(subpart_local_addr(r.sp, 0xff), 0xff);    /* 8 bursts below the channel */
    assert_int_equal(subpart_local_addr(r.sp, 0x1000), 0x100); /* next column group */
    assert_int_equal(subpart_local_addr(r.sp, 0x4000), 0x400 * 1 * 4); /* bank group 1 */
    for (uint64_t a = 0; a < (1u << 24); a += 0x1000 + 0x20)
        if (((a >> 8) & 0xf) == 0)
            assert_int_equal(subpart_global_addr(r.sp, subpart_local_addr(r.sp, a)), a);
    rig_free(&r);
}

static void test_conservation(void **state) {
    (void)state;
    struct rig r;
    rig_init(&r);
    struct mem_req q[16];
    int pushed = 0, back = 0;
    bool seen[16] = {false};
    while (back < 16) {
        if (pushed < 16 && subpart_can_accept(r.sp)) {
            q[pushed] = req(0x100000 + (uint64_t)pushed * 0x1000, MEM_LOAD, 0xf);
            subpart_push(r.sp, &q[pushed], r.now);
            pushed++;
        }
        step(&r);
        struct mem_req *x;
        while ((x = subpart_out_peek(r.sp))) {
            int i = (int)(x - q);
            assert_true(i >= 0 && i < 16);
            assert_false(seen[i]);
            seen[i] = true;
            back++;
            subpart_out_pop(r.sp);
        }
        assert_true(r.now < 100000);
    }
    while (!subpart_idle(r.sp)) step(&r);
    assert_int_equal(subpart_stats(r.sp)->replies, 16);
    rig_free(&r);
}

/* A slice whose replies cannot leave (nobody pops its 4-entry output) repeats the same idle
 * cycle: a caller may leave such cycles out, and each one left out still counts the stall it
 * would have counted (here one reply waiting for output room per cycle), up to subpart_finish's
 * end. Run once cycle by cycle, once skipping from the first idle cycle to the end. */
static void test_idle_cycles_left_out(void **state) {
    (void)state;
    /* six warmed lines, two per set of the 4 x 2 L2 (local lines 0 to 5): all hit */
    static const uint64_t lines[6] = {0x0, 0x80, 0x1000, 0x1080, 0x2000, 0x2080};
    uint64_t stalls[2], idle_from = 0;
    const uint64_t end = 200;
    for (int k = 0; k < 2; k++) {
        struct rig r;
        rig_init(&r);
        struct mem_req q[6];
        for (int i = 0; i < 6; i++) {
            subpart_warm(r.sp, lines[i], 0xf);
            q[i] = req(lines[i], MEM_LOAD, 0xf);
        }
        int pushed = 0;
        while (r.now < end) {
            if (pushed < 6 && subpart_can_accept(r.sp)) subpart_push(r.sp, &q[pushed++], r.now);
            step(&r);
            if (k == 1 && pushed == 6 && subpart_next_event(r.sp, r.now) == UINT64_MAX &&
                subpart_next_dram(r.sp) == UINT64_MAX) {
                idle_from = r.now;
                break; /* nothing happens by itself any more: leave the rest out */
            }
        }
        subpart_finish(r.sp, end);
        stalls[k] = subpart_stats(r.sp)->stall_out_full;
        assert_int_equal(subpart_stats(r.sp)->dram_reads, 0);
        rig_free(&r);
    }
    assert_true(idle_from > 0 && idle_from < end - 100);
    assert_true(stalls[0] > end - idle_from);
    assert_int_equal(stalls[1], stalls[0]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_miss_then_hit),
        cmocka_unit_test(test_unsectored_line),
        cmocka_unit_test(test_unsectored_line_one_access),
        cmocka_unit_test(test_dram_latency),
        cmocka_unit_test(test_store_and_writeback),
        cmocka_unit_test(test_atomic),
        cmocka_unit_test(test_warm),
        cmocka_unit_test(test_conservation),
        cmocka_unit_test(test_local_addresses),
        cmocka_unit_test(test_idle_cycles_left_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
