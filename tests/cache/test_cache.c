/* The sectored cache (src/cache/cache.c): outcome sequences for given address streams and
 * geometries, sector vs line misses, MSHR merging and its limit, every reservation-fail cause
 * and the recovery after it, allocate-on-miss vs allocate-on-fill, dirty writebacks, the write
 * policies, atomics, streaming, ready-list order, statistics and configuration errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "base/rng.h"
#include "cache/cache.h"
#include "testutil.h"

/* 4 sets x 2 ways of 128 B lines with 4 sectors, linear index: line address of (set, tag) is
 * (tag * 4 + set) * 128. */
static struct cache_cfg base_cfg(void) {
    struct cache_cfg cc = {.sets = 4,
                           .ways = 2,
                           .line = 128,
                           .sector = 32,
                           .mshrs = 4,
                           .mshr_merge = 4,
                           .miss_queue = 8,
                           .hit_lat = 1,
                           .alloc = CACHE_ALLOC_ON_MISS,
                           .write = CACHE_WRITE_BACK,
                           .write_alloc = CACHE_WRITE_ALLOC,
                           .streaming = false};
    strcpy(cc.index, "linear");
    strcpy(cc.repl, "lru");
    return cc;
}

static struct cache *mk(const struct cache_cfg *cc) {
    struct ws_err e = {{0}};
    struct cache *c = cache_create(cc, "l1d", &e);
    if (!c) {
        print_error("%s\n", e.msg);
        fail();
    }
    return c;
}

static uint64_t A(uint32_t set, uint32_t tag) {
    return ((uint64_t)tag * 4 + set) * 128;
}

enum { NREQ = 64 };
static struct mem_req reqs[NREQ];
static uint64_t now;

static struct mem_req *rq(int i, uint64_t addr, uint8_t sectors, int kind) {
    struct mem_req *r = &reqs[i];
    memset(r, 0, sizeof *r);
    r->addr = addr;
    r->sectors = sectors;
    r->kind = (uint8_t)kind;
    r->tag = (uint64_t)i;
    return r;
}

static enum cache_outcome acc(struct cache *c, struct mem_req *r, bool *kept, enum cache_fail *f) {
    enum cache_outcome probe = cache_probe(c, r);
    enum cache_outcome o = cache_access(c, r, ++now, kept, f);
    assert_int_equal(probe, o); /* the probe predicts the access */
    return o;
}

static enum cache_outcome ld(struct cache *c, int i, uint64_t addr, uint8_t sectors) {
    return acc(c, rq(i, addr, sectors, MEM_LOAD), NULL, NULL);
}

/* Pops the miss-queue head and checks it. */
static void expect_miss(struct cache *c, const struct mem_req *req, uint64_t la, uint8_t sectors,
                        int kind) {
    const struct cache_miss *m = cache_miss_peek(c);
    assert_non_null(m);
    assert_ptr_equal(m->req, req);
    assert_int_equal(m->line_addr, la);
    assert_int_equal(m->sectors, sectors);
    assert_int_equal(m->kind, kind);
    cache_miss_pop(c);
}

/* Serves every queued fetch at once (full data) and drops writes; returns fetches served. */
static int serve(struct cache *c) {
    int n = 0;
    while (cache_miss_pending(c)) {
        struct cache_miss m = *cache_miss_peek(c);
        cache_miss_pop(c);
        if (m.kind == MEM_LOAD) {
            cache_fill(c, m.line_addr, m.sectors, ++now);
            n++;
        }
    }
    while (cache_ready_pop(c)) {
    }
    return n;
}

/* LRU on one set of 2 ways: A B A C B A C gives M M H M M M M (C evicts B, B evicts A, A
 * evicts C, C evicts B); another set is untouched by it. */
static void test_lru_sequence(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    struct cache *c = mk(&cc);
    static const uint32_t tags[] = {0, 1, 0, 2, 1, 0, 2};
    static const enum cache_outcome want[] = {CACHE_MISS, CACHE_MISS, CACHE_HIT, CACHE_MISS,
                                              CACHE_MISS, CACHE_MISS, CACHE_MISS};
    assert_int_equal(ld(c, 0, A(1, 7), 0xF), CACHE_MISS);
    serve(c);
    for (unsigned i = 0; i < 7; i++) {
        assert_int_equal(ld(c, 1, A(0, tags[i]) + 32 * (i % 4), 0xF), want[i]);
        serve(c);
    }
    assert_int_equal(ld(c, 0, A(1, 7), 0xF), CACHE_HIT);
    assert_true(cache_line_state(c, A(0, 2), NULL, NULL, NULL));
    assert_true(cache_line_state(c, A(0, 0), NULL, NULL, NULL));
    assert_false(cache_line_state(c, A(0, 1), NULL, NULL, NULL));
    cache_finish(c);
    const struct cache_stats *s = cache_stats(c);
    assert_int_equal(s->access[0][CACHE_MISS], 7);
    assert_int_equal(s->access[0][CACHE_HIT], 2);
    assert_int_equal(s->evictions, 4);
    assert_int_equal(s->writebacks, 0);
    assert_int_equal(s->fills, 7);
    assert_int_equal(s->accesses, 9);
    assert_int_equal(s->hits, 2);
    assert_int_equal(s->misses, 7);
    assert_true(s->miss_rate == 7.0 / 9.0);
    assert_true(cache_idle(c));
    cache_destroy(c);
}

/* A set of 4 ways filled in order, then the LRU one is the first touched least recently. */
static void test_lru_victim_after_hits(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.sets = 1;
    cc.ways = 4;
    struct cache *c = mk(&cc);
    for (uint32_t t = 0; t < 4; t++) {
        assert_int_equal(ld(c, 0, t * 128, 0x1), CACHE_MISS);
        serve(c);
    }
    /* touch 0, 1, 3: way of tag 2 is LRU */
    assert_int_equal(ld(c, 0, 0 * 128, 0x1), CACHE_HIT);
    assert_int_equal(ld(c, 0, 1 * 128, 0x1), CACHE_HIT);
    assert_int_equal(ld(c, 0, 3 * 128, 0x1), CACHE_HIT);
    assert_int_equal(ld(c, 0, 9 * 128, 0x1), CACHE_MISS);
    assert_false(cache_line_state(c, 2 * 128, NULL, NULL, NULL));
    serve(c);
    /* then tag 0 is LRU */
    assert_int_equal(ld(c, 0, 10 * 128, 0x1), CACHE_MISS);
    assert_false(cache_line_state(c, 0, NULL, NULL, NULL));
    assert_true(cache_line_state(c, 128, NULL, NULL, NULL));
    serve(c);
    cache_destroy(c);
}

/* Sector miss vs line miss: only the missing sectors are fetched. */
static void test_sector_miss(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    struct cache *c = mk(&cc);
    bool kept;
    uint64_t x = A(2, 3);
    assert_int_equal(acc(c, rq(0, x, 0x1, MEM_LOAD), &kept, NULL), CACHE_MISS);
    assert_true(kept);
    expect_miss(c, &reqs[0], x, 0x1, MEM_LOAD);
    uint8_t v, d, p;
    assert_true(cache_line_state(c, x, &v, &d, &p)); /* reserved at miss time */
    assert_int_equal(v, 0);
    assert_int_equal(p, 0x1);
    cache_fill(c, x, 0x1, ++now);
    assert_ptr_equal(cache_ready_pop(c), &reqs[0]);
    assert_null(cache_ready_pop(c));
    assert_int_equal(ld(c, 1, x + 32, 0x6), CACHE_SECTOR_MISS);
    expect_miss(c, &reqs[1], x, 0x6, MEM_LOAD);
    /* sector 0 valid, 1-2 pending: asking for 0-2 merges, asking for 0-3 fetches only 3 */
    assert_int_equal(ld(c, 2, x, 0x7), CACHE_HIT_RESERVED);
    assert_int_equal(ld(c, 3, x, 0xF), CACHE_SECTOR_MISS);
    expect_miss(c, &reqs[3], x, 0x8, MEM_LOAD);
    assert_false(cache_miss_pending(c));
    assert_int_equal(cache_mshr_used(c), 1);
    cache_fill(c, x, 0x6, ++now);
    assert_ptr_equal(cache_ready_pop(c), &reqs[1]);
    assert_ptr_equal(cache_ready_pop(c), &reqs[2]);
    assert_null(cache_ready_pop(c));
    cache_fill(c, x, 0x8, ++now);
    assert_ptr_equal(cache_ready_pop(c), &reqs[3]);
    assert_int_equal(cache_mshr_used(c), 0);
    assert_int_equal(ld(c, 4, x, 0xF), CACHE_HIT);
    assert_true(cache_line_state(c, x, &v, &d, &p));
    assert_int_equal(v, 0xF);
    assert_int_equal(p, 0);
    assert_true(cache_idle(c));
    cache_destroy(c);
}

/* cache_fill_from: each released request learns which of the sectors it waited for came from
 * DRAM, over all the fills it waited for; sectors it found valid never count, plain cache_fill
 * marks none. */
static void test_fill_offchip_sectors(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    struct cache *c = mk(&cc);
    uint64_t x = A(3, 1);
    assert_int_equal(ld(c, 0, x, 0x1), CACHE_MISS);
    expect_miss(c, &reqs[0], x, 0x1, MEM_LOAD);
    cache_fill_from(c, x, 0x1, 0x1, ++now); /* sector 0 from DRAM */
    assert_ptr_equal(cache_ready_pop(c), &reqs[0]);
    assert_int_equal(reqs[0].offchip_sectors, 0x1);
    /* 0 valid; 1-2 fetched by reqs[1]; reqs[2] wants all four: merges into 1-2, fetches 3 */
    assert_int_equal(ld(c, 1, x, 0x6), CACHE_SECTOR_MISS);
    assert_int_equal(ld(c, 2, x, 0xF), CACHE_SECTOR_MISS);
    expect_miss(c, &reqs[1], x, 0x6, MEM_LOAD);
    expect_miss(c, &reqs[2], x, 0x8, MEM_LOAD);
    cache_fill_from(c, x, 0x6, 0x4, ++now); /* sector 1 was an L2 hit, 2 came from DRAM */
    assert_ptr_equal(cache_ready_pop(c), &reqs[1]);
    assert_null(cache_ready_pop(c));
    assert_int_equal(reqs[1].offchip_sectors, 0x4);
    cache_fill_from(c, x, 0x8, 0x8, ++now);
    assert_ptr_equal(cache_ready_pop(c), &reqs[2]);
    /* sector 0 was valid (an L1 hit), 1 an L2 hit: 2 of its 4 sectors came from DRAM */
    assert_int_equal(reqs[2].offchip_sectors, 0xC);
    assert_int_equal(ld(c, 3, x + 128 * 4, 0x3), CACHE_MISS); /* another line of set 3 */
    expect_miss(c, &reqs[3], x + 128 * 4, 0x3, MEM_LOAD);
    reqs[3].offchip_sectors = 0xF; /* stale: a plain fill must clear it */
    cache_fill(c, x + 128 * 4, 0x3, ++now);
    assert_ptr_equal(cache_ready_pop(c), &reqs[3]);
    assert_int_equal(reqs[3].offchip_sectors, 0);
    cache_destroy(c);
}

/* HIT_RESERVED merges up to mshr_merge requests per entry; the next one fails MERGE without
 * changing anything, and succeeds once the fill frees the entry. */
static void test_merge_limit(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.mshr_merge = 3;
    struct cache *c = mk(&cc);
    uint64_t x = A(1, 1);
    enum cache_fail f;
    bool kept;
    assert_int_equal(ld(c, 0, x, 0x1), CACHE_MISS);
    assert_int_equal(acc(c, rq(1, x, 0x1, MEM_LOAD), &kept, &f), CACHE_HIT_RESERVED);
    assert_true(kept);
    assert_int_equal(f, CACHE_FAIL_NONE);
    assert_int_equal(ld(c, 2, x + 8, 0x1), CACHE_HIT_RESERVED);
    assert_int_equal(acc(c, rq(3, x, 0x1, MEM_LOAD), &kept, &f), CACHE_RESFAIL);
    assert_false(kept);
    assert_int_equal(f, CACHE_FAIL_MERGE);
    /* a request needing another sector also needs a merge slot */
    assert_int_equal(acc(c, rq(3, x, 0x2, MEM_LOAD), &kept, &f), CACHE_RESFAIL);
    assert_int_equal(f, CACHE_FAIL_MERGE);
    assert_int_equal(cache_miss_len(c), 1);
    assert_int_equal(cache_mshr_used(c), 1);
    expect_miss(c, &reqs[0], x, 0x1, MEM_LOAD);
    cache_fill(c, x, 0x1, ++now);
    for (int i = 0; i < 3; i++) assert_ptr_equal(cache_ready_pop(c), &reqs[i]);
    assert_null(cache_ready_pop(c));
    assert_int_equal(ld(c, 3, x, 0x1), CACHE_HIT);
    cache_finish(c);
    const struct cache_stats *s = cache_stats(c);
    assert_int_equal(s->fail[CACHE_FAIL_MERGE], 2);
    assert_int_equal(s->access[0][CACHE_RESFAIL], 2);
    assert_int_equal(s->access[0][CACHE_HIT_RESERVED], 2);
    assert_int_equal(s->accesses, 6);
    assert_int_equal(s->misses, 1);
    assert_true(s->miss_rate == 1.0 / 4.0);
    cache_destroy(c);
}

/* Requests leave in the order they merged among those a fill completes; a request waiting for
 * two fills leaves with the second. */
static void test_ready_order(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    struct cache *c = mk(&cc);
    uint64_t x = A(0, 5);
    assert_int_equal(ld(c, 0, x, 0x1), CACHE_MISS);        /* fetch 0x1 */
    assert_int_equal(ld(c, 1, x, 0x3), CACHE_SECTOR_MISS); /* fetch 0x2, awaits 0x3 */
    assert_int_equal(ld(c, 2, x, 0x2), CACHE_HIT_RESERVED);
    assert_int_equal(ld(c, 3, x, 0x1), CACHE_HIT_RESERVED);
    expect_miss(c, &reqs[0], x, 0x1, MEM_LOAD);
    expect_miss(c, &reqs[1], x, 0x2, MEM_LOAD);
    cache_fill(c, x, 0x2, ++now);
    assert_true(cache_ready_pending(c));
    assert_ptr_equal(cache_ready_pop(c), &reqs[2]);
    assert_false(cache_ready_pending(c));
    cache_fill(c, x, 0x1, ++now);
    assert_ptr_equal(cache_ready_pop(c), &reqs[0]);
    assert_ptr_equal(cache_ready_pop(c), &reqs[1]);
    assert_ptr_equal(cache_ready_pop(c), &reqs[3]);
    assert_null(cache_ready_pop(c));
    assert_true(cache_idle(c));
    cache_destroy(c);
}

/* MSHR exhaustion: a third line fails MSHR while two are in flight (a merge still works), and
 * is accepted after one fill. */
static void test_mshr_exhaustion(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.mshrs = 2;
    struct cache *c = mk(&cc);
    enum cache_fail f;
    assert_int_equal(ld(c, 0, A(0, 0), 0x1), CACHE_MISS);
    assert_int_equal(ld(c, 1, A(1, 0), 0x1), CACHE_MISS);
    assert_int_equal(acc(c, rq(2, A(2, 0), 0x1, MEM_LOAD), NULL, &f), CACHE_RESFAIL);
    assert_int_equal(f, CACHE_FAIL_MSHR);
    assert_false(cache_line_state(c, A(2, 0), NULL, NULL, NULL)); /* nothing reserved */
    assert_int_equal(cache_miss_len(c), 2);
    assert_int_equal(cache_mshr_used(c), 2);
    assert_int_equal(ld(c, 3, A(1, 0), 0x1), CACHE_HIT_RESERVED);
    /* a sector miss to an in-flight line adds to its entry, no new MSHR needed */
    assert_int_equal(ld(c, 4, A(1, 0), 0x2), CACHE_SECTOR_MISS);
    cache_fill(c, A(0, 0), 0x1, ++now);
    assert_int_equal(cache_mshr_used(c), 1);
    assert_int_equal(ld(c, 2, A(2, 0), 0x1), CACHE_MISS);
    assert_int_equal(cache_mshr_used(c), 2);
    cache_finish(c);
    assert_int_equal(cache_stats(c)->fail[CACHE_FAIL_MSHR], 1);
    cache_destroy(c);
}

/* Miss queue full: MISSQ until an entry leaves; a miss with a dirty victim needs two entries. */
static void test_missq_full(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.miss_queue = 2;
    struct cache *c = mk(&cc);
    enum cache_fail f;
    assert_int_equal(ld(c, 0, A(0, 0), 0x1), CACHE_MISS);
    assert_int_equal(ld(c, 1, A(1, 0), 0x1), CACHE_MISS);
    assert_int_equal(acc(c, rq(2, A(2, 0), 0x1, MEM_LOAD), NULL, &f), CACHE_RESFAIL);
    assert_int_equal(f, CACHE_FAIL_MISSQ);
    assert_int_equal(cache_mshr_used(c), 2);
    assert_false(cache_line_state(c, A(2, 0), NULL, NULL, NULL));
    serve(c);
    /* set 3: two dirty lines by write-allocate stores (no entries), then a load miss evicts */
    assert_int_equal(acc(c, rq(3, A(3, 0), 0x3, MEM_STORE), NULL, NULL), CACHE_MISS);
    assert_int_equal(acc(c, rq(4, A(3, 1), 0x1, MEM_STORE), NULL, NULL), CACHE_MISS);
    assert_false(cache_miss_pending(c));
    assert_int_equal(ld(c, 5, A(0, 1), 0x1), CACHE_MISS); /* one entry left free */
    assert_int_equal(acc(c, rq(6, A(3, 2), 0x1, MEM_LOAD), NULL, &f), CACHE_RESFAIL);
    assert_int_equal(f, CACHE_FAIL_MISSQ);
    /* a clean victim needs one entry: set 1 holds A(1,0) clean and one invalid way */
    assert_int_equal(ld(c, 7, A(1, 1), 0x1), CACHE_MISS);
    assert_int_equal(cache_miss_len(c), 2);
    serve(c);
    assert_int_equal(ld(c, 6, A(3, 2), 0x1), CACHE_MISS);
    expect_miss(c, &reqs[6], A(3, 2), 0x1, MEM_LOAD);
    expect_miss(c, NULL, A(3, 0), 0x3, MEM_WRITEBACK); /* LRU victim, its dirty sectors */
    cache_finish(c);
    assert_int_equal(cache_stats(c)->fail[CACHE_FAIL_MISSQ], 2);
    assert_int_equal(cache_stats(c)->writebacks, 1);
    cache_destroy(c);
}

/* One set of 2 ways: with allocate-on-miss a third line fails LINE while two fetches are
 * pending; with allocate-on-fill it is accepted and the victim is chosen at fill time. */
static void test_alloc_on_miss_vs_fill(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.sets = 1;
    struct cache *c = mk(&cc);
    enum cache_fail f;
    assert_int_equal(ld(c, 0, 0 * 128, 0xF), CACHE_MISS);
    assert_int_equal(ld(c, 1, 1 * 128, 0xF), CACHE_MISS);
    assert_int_equal(acc(c, rq(2, 2 * 128, 0xF, MEM_LOAD), NULL, &f), CACHE_RESFAIL);
    assert_int_equal(f, CACHE_FAIL_LINE);
    assert_int_equal(cache_mshr_used(c), 2);
    cache_finish(c);
    assert_int_equal(cache_stats(c)->fail[CACHE_FAIL_LINE], 1);
    cache_destroy(c);

    cc.alloc = CACHE_ALLOC_ON_FILL;
    c = mk(&cc);
    assert_int_equal(ld(c, 0, 0 * 128, 0xF), CACHE_MISS);
    assert_int_equal(ld(c, 1, 1 * 128, 0xF), CACHE_MISS);
    assert_int_equal(ld(c, 2, 2 * 128, 0xF), CACHE_MISS);
    assert_false(cache_line_state(c, 0, NULL, NULL, NULL)); /* nothing reserved at miss time */
    assert_int_equal(ld(c, 3, 0, 0x1), CACHE_HIT_RESERVED); /* merges through the MSHR */
    assert_int_equal(cache_mshr_used(c), 3);
    assert_int_equal(serve(c), 3); /* fills 0, 1, 2: line 2 evicts line 0 (LRU) */
    assert_false(cache_line_state(c, 0, NULL, NULL, NULL));
    assert_int_equal(ld(c, 4, 1 * 128, 0xF), CACHE_HIT);
    assert_int_equal(ld(c, 5, 2 * 128, 0xF), CACHE_HIT);
    assert_int_equal(ld(c, 6, 0 * 128, 0xF), CACHE_MISS);
    cache_finish(c);
    assert_int_equal(cache_stats(c)->fail[CACHE_FAIL_LINE], 0);
    assert_int_equal(cache_stats(c)->evictions, 1);
    serve(c);
    cache_destroy(c);
}

/* cache.touch: a sector miss to a present line is a use at the access (LRU by reference) or
 * at its fill (GPGPU-Sim's allocate-on-fill tag_array::fill). One set of 2 ways, on-fill:
 * A and B filled; A sector-misses; B hits; A's sector arrives; C's fill then evicts A with
 * touch = access (A used at the miss, before B's hit) and B with touch = fill (A used at its
 * fill, after B's hit). A merge into A's fetch before B's hit changes neither. */
/* One set of 2 ways, allocate-on-fill, the given touch mode, holding lines a then b. */
static struct cache *touch_cache(int touch, uint64_t a, uint64_t b) {
    struct cache_cfg cc = base_cfg();
    cc.sets = 1;
    cc.alloc = CACHE_ALLOC_ON_FILL;
    cc.touch = touch;
    struct cache *c = mk(&cc);
    assert_int_equal(ld(c, 0, a, 0x1), CACHE_MISS);
    assert_int_equal(serve(c), 1);
    assert_int_equal(ld(c, 1, b, 0x1), CACHE_MISS);
    assert_int_equal(serve(c), 1);
    return c;
}

static void touch_case(int touch, uint64_t want_kept, uint64_t want_gone) {
    const uint64_t a = 0 * 128, b = 1 * 128, x = 2 * 128;
    struct cache *c = touch_cache(touch, a, b);
    assert_int_equal(ld(c, 2, a, 0x2), CACHE_SECTOR_MISS);
    assert_int_equal(ld(c, 3, a, 0x2), CACHE_HIT_RESERVED);
    assert_int_equal(ld(c, 4, b, 0x1), CACHE_HIT);
    assert_int_equal(serve(c), 1); /* A's sector 1 */
    assert_int_equal(ld(c, 5, x, 0x1), CACHE_MISS);
    assert_int_equal(serve(c), 1); /* C takes the LRU way */
    assert_true(cache_line_state(c, want_kept, NULL, NULL, NULL));
    assert_false(cache_line_state(c, want_gone, NULL, NULL, NULL));
    assert_true(cache_line_state(c, x, NULL, NULL, NULL));
    cache_destroy(c);
}

/* The same with the merge into A's fetch after B's hit, and C's data back before A's: with
 * touch = access the merge was A's last use, so C evicts B; with touch = fill neither A's sector
 * miss nor the merge was a use, so C evicts A (whose own fill then brings it back). */
static void touch_merge_case(int touch, uint64_t want_kept, uint64_t want_gone) {
    const uint64_t a = 0 * 128, b = 1 * 128, x = 2 * 128;
    struct cache *c = touch_cache(touch, a, b);
    assert_int_equal(ld(c, 2, a, 0x2), CACHE_SECTOR_MISS);
    assert_int_equal(ld(c, 3, b, 0x1), CACHE_HIT);
    assert_int_equal(ld(c, 4, a, 0x2), CACHE_HIT_RESERVED);
    assert_int_equal(ld(c, 5, x, 0x1), CACHE_MISS);
    struct cache_miss ma = *cache_miss_peek(c);
    cache_miss_pop(c);
    struct cache_miss mx = *cache_miss_peek(c);
    cache_miss_pop(c);
    assert_int_equal(ma.line_addr, a);
    assert_int_equal(mx.line_addr, x);
    cache_fill(c, mx.line_addr, mx.sectors, ++now); /* C first: its victim now */
    assert_true(cache_line_state(c, want_kept, NULL, NULL, NULL));
    assert_false(cache_line_state(c, want_gone, NULL, NULL, NULL));
    cache_fill(c, ma.line_addr, ma.sectors, ++now);
    serve(c);
    cache_destroy(c);
}

static void test_touch_at_access_or_fill(void **state) {
    (void)state;
    touch_case(CACHE_TOUCH_ACCESS, 1 * 128, 0 * 128);
    touch_case(CACHE_TOUCH_FILL, 0 * 128, 1 * 128);
    touch_merge_case(CACHE_TOUCH_ACCESS, 0 * 128, 1 * 128);
    touch_merge_case(CACHE_TOUCH_FILL, 1 * 128, 0 * 128);
}

/* cache_version: an access turned back stays turned back while the version stays (what lets
 * the L2's owner skip retries), and every state change moves it: an access that went through,
 * a fill, a miss-queue pop. cache_count_resfail counts what a turned-back access counts. */
static void test_version_and_resfail(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.mshrs = 1;
    struct cache *c = mk(&cc);
    enum cache_fail f;
    uint64_t v0 = cache_version(c);
    assert_int_equal(ld(c, 0, A(0, 0), 0x1), CACHE_MISS);
    uint64_t v1 = cache_version(c);
    assert_true(v1 != v0);
    assert_int_equal(acc(c, rq(1, A(1, 0), 0x1, MEM_LOAD), NULL, &f), CACHE_RESFAIL);
    assert_int_equal(f, CACHE_FAIL_MSHR);
    assert_true(cache_version(c) == v1); /* a turned-back access changes nothing */
    assert_int_equal(cache_probe(c, &reqs[1]), CACHE_RESFAIL);
    cache_count_resfail(c, &reqs[1], f);
    cache_finish(c);
    assert_int_equal(cache_stats(c)->fail[CACHE_FAIL_MSHR], 2);
    assert_int_equal(cache_stats(c)->access[0][CACHE_RESFAIL], 2);
    /* the miss leaves the queue, then its data arrive: both move the version */
    struct cache_miss m = *cache_miss_peek(c);
    cache_miss_pop(c);
    uint64_t v2 = cache_version(c);
    assert_true(v2 != v1);
    cache_fill(c, m.line_addr, m.sectors, ++now);
    uint64_t v3 = cache_version(c);
    assert_true(v3 != v2);
    assert_int_equal(ld(c, 2, A(1, 0), 0x1), CACHE_MISS); /* the MSHR is free again */
    serve(c);
    /* a load hit moves the LRU order, an invalidation everything */
    uint64_t v4 = cache_version(c);
    assert_true(v4 != v3);
    assert_int_equal(ld(c, 3, A(0, 0), 0x1), CACHE_HIT);
    assert_true(cache_version(c) != v4);
    v4 = cache_version(c);
    cache_invalidate(c);
    assert_true(cache_version(c) != v4);
    /* a store turned back counts as a write's RESFAIL */
    cc.write = CACHE_WRITE_THROUGH;
    cc.write_alloc = CACHE_NO_WRITE_ALLOC;
    cc.miss_queue = 1;
    struct cache *w = mk(&cc);
    assert_int_equal(acc(w, rq(4, A(0, 0), 0x1, MEM_STORE), NULL, &f), CACHE_MISS);
    assert_int_equal(acc(w, rq(5, A(1, 0), 0x1, MEM_STORE), NULL, &f), CACHE_RESFAIL);
    assert_int_equal(f, CACHE_FAIL_MISSQ);
    cache_count_resfail(w, &reqs[5], f);
    assert_int_equal(cache_stats(w)->access[1][CACHE_RESFAIL], 2);
    assert_int_equal(cache_stats(w)->fail[CACHE_FAIL_MISSQ], 2);
    cache_miss_pop(w);
    cache_destroy(w);
    cache_destroy(c);
}

/* Allocate-on-fill, write-back: a fill that evicts a dirty line queues the writeback even when
 * the miss queue is at its depth (never dropped); accesses still see the depth. */
static void test_fill_writeback_overflow(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.sets = 1;
    cc.ways = 1;
    cc.miss_queue = 1;
    cc.alloc = CACHE_ALLOC_ON_FILL;
    struct cache *c = mk(&cc);
    enum cache_fail f;
    assert_int_equal(acc(c, rq(0, 0, 0x5, MEM_STORE), NULL, NULL), CACHE_MISS);
    assert_int_equal(ld(c, 1, 128, 0x1), CACHE_MISS);
    expect_miss(c, &reqs[1], 128, 0x1, MEM_LOAD);
    assert_int_equal(ld(c, 2, 256, 0x1), CACHE_MISS); /* queue full again */
    assert_int_equal(acc(c, rq(3, 384, 0x1, MEM_LOAD), NULL, &f), CACHE_RESFAIL);
    assert_int_equal(f, CACHE_FAIL_MISSQ);
    cache_fill(c, 128, 0x1, ++now); /* evicts dirty line 0 */
    assert_int_equal(cache_miss_len(c), 2);
    expect_miss(c, &reqs[2], 256, 0x1, MEM_LOAD);
    expect_miss(c, NULL, 0, 0x5, MEM_WRITEBACK);
    assert_ptr_equal(cache_ready_pop(c), &reqs[1]);
    cache_destroy(c);
}

/* Write-back: write hits mark sectors dirty without entries; a dirty eviction writes back
 * exactly the dirty sectors. */
static void test_dirty_writeback(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    struct cache *c = mk(&cc);
    bool kept = true;
    uint8_t v, d;
    uint64_t x = A(2, 0);
    assert_int_equal(acc(c, rq(0, x, 0x5, MEM_STORE), &kept, NULL), CACHE_MISS);
    assert_false(kept);
    assert_false(cache_miss_pending(c));
    assert_true(cache_line_state(c, x, &v, &d, NULL));
    assert_int_equal(v, 0x5);
    assert_int_equal(d, 0x5);
    assert_int_equal(ld(c, 1, x, 0x1), CACHE_HIT);
    assert_int_equal(ld(c, 2, x, 0x3), CACHE_SECTOR_MISS);
    expect_miss(c, &reqs[2], x, 0x2, MEM_LOAD);
    cache_fill(c, x, 0x2, ++now);
    assert_ptr_equal(cache_ready_pop(c), &reqs[2]);
    assert_int_equal(acc(c, rq(3, x, 0x2, MEM_STORE), &kept, NULL), CACHE_HIT);
    assert_false(kept);
    assert_true(cache_line_state(c, x, &v, &d, NULL));
    assert_int_equal(v, 0x7);
    assert_int_equal(d, 0x7);
    assert_int_equal(ld(c, 4, A(2, 1), 0xF), CACHE_MISS); /* invalid way, no eviction */
    serve(c);
    assert_int_equal(ld(c, 5, A(2, 2), 0x1), CACHE_MISS); /* evicts x (LRU) */
    expect_miss(c, &reqs[5], A(2, 2), 0x1, MEM_LOAD);
    expect_miss(c, NULL, x, 0x7, MEM_WRITEBACK);
    cache_finish(c);
    assert_int_equal(cache_stats(c)->writebacks, 1);
    assert_int_equal(cache_stats(c)->evictions, 1);
    assert_int_equal(cache_stats(c)->access[1][CACHE_MISS], 1);
    assert_int_equal(cache_stats(c)->access[1][CACHE_HIT], 1);
    cache_destroy(c);
}

static void test_write_back_no_alloc(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.write_alloc = CACHE_NO_WRITE_ALLOC;
    struct cache *c = mk(&cc);
    bool kept = true;
    assert_int_equal(acc(c, rq(0, A(1, 0), 0x3, MEM_STORE), &kept, NULL), CACHE_MISS);
    assert_false(kept);
    assert_false(cache_line_state(c, A(1, 0), NULL, NULL, NULL));
    expect_miss(c, &reqs[0], A(1, 0), 0x3, MEM_STORE);
    cache_finish(c);
    assert_int_equal(cache_stats(c)->bypassed_writes, 1);
    cache_destroy(c);
}

/* Write-through: hits update the line (never dirty) and go down; misses without write-allocate
 * go down only; with write-allocate they also allocate. */
static void test_write_through(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.write = CACHE_WRITE_THROUGH;
    cc.write_alloc = CACHE_NO_WRITE_ALLOC;
    struct cache *c = mk(&cc);
    bool kept = true;
    uint8_t v, d;
    uint64_t x = A(0, 1);
    assert_int_equal(ld(c, 0, x, 0x3), CACHE_MISS);
    serve(c);
    assert_int_equal(acc(c, rq(1, x, 0xC, MEM_STORE), &kept, NULL), CACHE_HIT);
    assert_false(kept);
    expect_miss(c, &reqs[1], x, 0xC, MEM_STORE);
    assert_true(cache_line_state(c, x, &v, &d, NULL));
    assert_int_equal(v, 0xF);
    assert_int_equal(d, 0);
    assert_int_equal(acc(c, rq(2, A(1, 1), 0x1, MEM_STORE), &kept, NULL), CACHE_MISS);
    expect_miss(c, &reqs[2], A(1, 1), 0x1, MEM_STORE);
    assert_false(cache_line_state(c, A(1, 1), NULL, NULL, NULL));
    cache_destroy(c);

    cc.write_alloc = CACHE_WRITE_ALLOC;
    cc.miss_queue = 1;
    c = mk(&cc);
    enum cache_fail f;
    assert_int_equal(acc(c, rq(3, A(1, 1), 0x2, MEM_STORE), &kept, NULL), CACHE_MISS);
    assert_true(cache_line_state(c, A(1, 1), &v, &d, NULL));
    assert_int_equal(v, 0x2);
    assert_int_equal(d, 0);
    /* the queue is full: even a write hit fails, and changes nothing */
    assert_int_equal(acc(c, rq(4, A(1, 1), 0x1, MEM_STORE), &kept, &f), CACHE_RESFAIL);
    assert_int_equal(f, CACHE_FAIL_MISSQ);
    assert_true(cache_line_state(c, A(1, 1), &v, NULL, NULL));
    assert_int_equal(v, 0x2);
    expect_miss(c, &reqs[3], A(1, 1), 0x2, MEM_STORE);
    assert_int_equal(ld(c, 5, A(1, 1), 0x2), CACHE_HIT);
    cache_destroy(c);
}

/* Write-evict (Fermi L1 global stores): a hit drops the written sectors, and the line when none
 * is left; every store goes down. An atomic in such a cache does the same as an ATOMIC. */
static void test_write_evict_and_l1_atomic(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.write = CACHE_WRITE_EVICT;
    cc.write_alloc = CACHE_NO_WRITE_ALLOC;
    struct cache *c = mk(&cc);
    bool kept = true;
    uint8_t v;
    uint64_t x = A(3, 2);
    assert_int_equal(ld(c, 0, x, 0xF), CACHE_MISS);
    serve(c);
    assert_int_equal(acc(c, rq(1, x, 0x3, MEM_STORE), &kept, NULL), CACHE_HIT);
    assert_false(kept);
    expect_miss(c, &reqs[1], x, 0x3, MEM_STORE);
    assert_true(cache_line_state(c, x, &v, NULL, NULL));
    assert_int_equal(v, 0xC);
    assert_int_equal(ld(c, 2, x, 0x1), CACHE_SECTOR_MISS);
    serve(c);
    assert_int_equal(acc(c, rq(3, x, 0x4, MEM_ATOMIC), &kept, NULL), CACHE_HIT);
    assert_false(kept);
    expect_miss(c, &reqs[3], x, 0x4, MEM_ATOMIC);
    assert_true(cache_line_state(c, x, &v, NULL, NULL));
    assert_int_equal(v, 0x9);
    assert_int_equal(acc(c, rq(4, x, 0x9, MEM_STORE), &kept, NULL), CACHE_HIT);
    expect_miss(c, &reqs[4], x, 0x9, MEM_STORE);
    assert_false(cache_line_state(c, x, NULL, NULL, NULL)); /* no sector left */
    assert_int_equal(acc(c, rq(5, x, 0x1, MEM_STORE), &kept, NULL), CACHE_MISS);
    expect_miss(c, &reqs[5], x, 0x1, MEM_STORE);
    assert_int_equal(acc(c, rq(6, x, 0x1, MEM_ATOMIC), &kept, NULL), CACHE_MISS);
    expect_miss(c, &reqs[6], x, 0x1, MEM_ATOMIC);
    cache_finish(c);
    assert_int_equal(cache_stats(c)->bypassed_writes, 5);
    assert_int_equal(cache_stats(c)->access[1][CACHE_HIT], 3);
    assert_int_equal(cache_stats(c)->access[1][CACHE_MISS], 2);
    cache_destroy(c);
}

/* Write-back (L2) atomics: read semantics, and the sectors turn dirty once valid. */
static void test_l2_atomic(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    struct cache *c = mk(&cc);
    bool kept;
    uint8_t v, d;
    uint64_t x = A(1, 4);
    assert_int_equal(acc(c, rq(0, x, 0x2, MEM_ATOMIC), &kept, NULL), CACHE_MISS);
    assert_true(kept);
    expect_miss(c, &reqs[0], x, 0x2, MEM_LOAD);
    assert_int_equal(acc(c, rq(1, x, 0x2, MEM_ATOMIC), &kept, NULL), CACHE_HIT_RESERVED);
    assert_true(cache_line_state(c, x, NULL, &d, NULL));
    assert_int_equal(d, 0);
    cache_fill(c, x, 0x2, ++now);
    assert_ptr_equal(cache_ready_pop(c), &reqs[0]);
    assert_ptr_equal(cache_ready_pop(c), &reqs[1]);
    assert_true(cache_line_state(c, x, &v, &d, NULL));
    assert_int_equal(v, 0x2);
    assert_int_equal(d, 0x2);
    assert_int_equal(ld(c, 2, x, 0x1), CACHE_SECTOR_MISS);
    serve(c);
    assert_int_equal(acc(c, rq(3, x, 0x1, MEM_ATOMIC), &kept, NULL), CACHE_HIT);
    assert_false(kept);
    assert_false(cache_miss_pending(c));
    assert_true(cache_line_state(c, x, &v, &d, NULL));
    assert_int_equal(v, 0x3);
    assert_int_equal(d, 0x3);
    cache_destroy(c);
}

/* Streaming: misses keep no line; fills only release the waiting requests. */
static void test_streaming(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.streaming = true;
    cc.miss_queue = 1;
    struct cache *c = mk(&cc);
    bool kept;
    uint64_t x = A(2, 2);
    assert_int_equal(ld(c, 0, x, 0x3), CACHE_MISS);
    assert_int_equal(ld(c, 1, x, 0x1), CACHE_HIT_RESERVED);
    assert_false(cache_line_state(c, x, NULL, NULL, NULL));
    expect_miss(c, &reqs[0], x, 0x3, MEM_LOAD);
    assert_int_equal(ld(c, 2, x, 0x4), CACHE_MISS); /* same entry, one more sector */
    expect_miss(c, &reqs[2], x, 0x4, MEM_LOAD);
    cache_fill(c, x, 0x7, ++now);
    assert_ptr_equal(cache_ready_pop(c), &reqs[0]);
    assert_ptr_equal(cache_ready_pop(c), &reqs[1]);
    assert_ptr_equal(cache_ready_pop(c), &reqs[2]);
    assert_false(cache_line_state(c, x, NULL, NULL, NULL));
    assert_int_equal(ld(c, 3, x, 0x1), CACHE_MISS);
    serve(c);
    /* stores and atomics go down untouched even in write-back + write-allocate mode */
    assert_int_equal(acc(c, rq(4, x, 0x1, MEM_STORE), &kept, NULL), CACHE_MISS);
    assert_false(kept);
    expect_miss(c, &reqs[4], x, 0x1, MEM_STORE);
    assert_int_equal(acc(c, rq(5, x, 0x1, MEM_ATOMIC), &kept, NULL), CACHE_MISS);
    expect_miss(c, &reqs[5], x, 0x1, MEM_ATOMIC);
    assert_false(cache_line_state(c, x, NULL, NULL, NULL));
    assert_true(cache_idle(c));
    cache_finish(c);
    assert_int_equal(cache_stats(c)->evictions, 0);
    assert_int_equal(cache_stats(c)->fills, 2);
    cache_destroy(c);
}

/* Invalidate drops data (dirty data too, no writeback) but keeps lines being filled. */
static void test_invalidate(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    struct cache *c = mk(&cc);
    assert_int_equal(acc(c, rq(0, A(0, 0), 0x1, MEM_STORE), NULL, NULL), CACHE_MISS);
    assert_int_equal(ld(c, 1, A(1, 0), 0x1), CACHE_MISS);
    cache_invalidate(c);
    assert_false(cache_line_state(c, A(0, 0), NULL, NULL, NULL));
    assert_true(cache_line_state(c, A(1, 0), NULL, NULL, NULL));
    serve(c);
    assert_int_equal(ld(c, 2, A(1, 0), 0x1), CACHE_HIT);
    assert_int_equal(ld(c, 3, A(0, 0), 0x1), CACHE_MISS);
    cache_finish(c);
    assert_int_equal(cache_stats(c)->writebacks, 0);
    serve(c);
    cache_destroy(c);
}

/* A hashed index changes which lines conflict: stride-4096 lines all land in set 0 of a
 * 32-set cache with linear indexing (2 ways: each evicts), but in distinct sets with xor. */
static void test_index_in_cache(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.sets = 32;
    struct cache *c = mk(&cc);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 4; i++) {
            assert_int_equal(cache_set_of(c, (uint64_t)i * 4096), 0);
            assert_int_equal(ld(c, i, (uint64_t)i * 4096, 0x1), CACHE_MISS);
            serve(c);
        }
    cache_destroy(c);
    strcpy(cc.index, "xor");
    c = mk(&cc);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 4; i++) {
            assert_int_equal(cache_set_of(c, (uint64_t)i * 4096), i);
            assert_int_equal(ld(c, i, (uint64_t)i * 4096, 0x1), round ? CACHE_HIT : CACHE_MISS);
            serve(c);
        }
    cache_destroy(c);
}

/* Random traffic (loads, stores, atomics over 48 lines, fills in random order): every kept
 * request is released exactly once, never one that was not kept; MSHRs and outstanding fetches
 * stay within their bounds; everything drains. Run for each allocation mode. */
enum { SLOTS = 48, FLIGHT = 256 };
static void stress(struct cache_cfg cc, uint64_t seed) {
    struct cache *c = mk(&cc);
    struct ws_rng rng;
    ws_rng_seed(&rng, seed);
    static struct mem_req sr[SLOTS];
    int st[SLOTS] = {0}; /* 0 free, 1 kept by the cache, 2 to retry */
    struct cache_miss fl[FLIGHT];
    unsigned nfl = 0, kept_total = 0, released = 0, maxfl = 0;
    uint32_t nsect = (uint32_t)(cc.line / cc.sector);
    for (int step = 0; step < 40000 || nfl || cache_miss_pending(c); step++) {
        bool issue = step < 40000;
        unsigned i = (unsigned)ws_rng_below(&rng, SLOTS);
        if (issue && st[i] != 1) {
            struct mem_req *r = &sr[i];
            if (st[i] == 0) {
                memset(r, 0, sizeof *r);
                r->addr = ws_rng_below(&rng, 48) * (uint64_t)cc.line;
                r->sectors = (uint8_t)(1 + ws_rng_below(&rng, (1u << nsect) - 1));
                uint64_t k = ws_rng_below(&rng, 10);
                r->kind = k < 7 ? MEM_LOAD : k < 9 ? MEM_STORE : MEM_ATOMIC;
            }
            bool kept;
            enum cache_outcome o = acc(c, r, &kept, NULL);
            st[i] = o == CACHE_RESFAIL ? 2 : kept ? 1 : 0;
            if (kept) kept_total++;
            /* only waiting reads are kept; hits and writes never are */
            if (kept)
                assert_true(r->kind != MEM_STORE &&
                            (o == CACHE_HIT_RESERVED || o == CACHE_SECTOR_MISS || o == CACHE_MISS));
            if (o == CACHE_HIT) assert_false(kept);
        }
        assert_true(cache_mshr_used(c) <= (uint32_t)cc.mshrs);
        /* the miss queue drains at a random pace */
        if (cache_miss_pending(c) && ws_rng_below(&rng, 3) == 0) {
            const struct cache_miss *m = cache_miss_peek(c);
            if (m->kind == MEM_LOAD) {
                assert_true(nfl < FLIGHT);
                fl[nfl++] = *m;
            }
            cache_miss_pop(c);
        }
        if (nfl > maxfl) maxfl = nfl;
        if (nfl && ws_rng_below(&rng, 3) == 0) {
            unsigned j = (unsigned)ws_rng_below(&rng, nfl);
            cache_fill(c, fl[j].line_addr, fl[j].sectors, ++now);
            fl[j] = fl[--nfl];
        }
        for (struct mem_req *r; (r = cache_ready_pop(c));) {
            unsigned k = (unsigned)(r - sr);
            assert_true(k < SLOTS);
            assert_int_equal(st[k], 1);
            st[k] = 0;
            released++;
        }
    }
    assert_int_equal(released, kept_total);
    assert_true(kept_total > 1000);
    assert_true(maxfl <= (unsigned)cc.mshrs * nsect);
    assert_true(cache_idle(c));
    cache_finish(c);
    const struct cache_stats *s = cache_stats(c);
    assert_true(s->fail[CACHE_FAIL_MSHR] + s->fail[CACHE_FAIL_MERGE] + s->fail[CACHE_FAIL_MISSQ] >
                0);
    assert_int_equal(s->accesses, s->access[0][0] + s->access[0][1] + s->access[0][2] +
                                      s->access[0][3] + s->access[0][4] + s->access[1][0] +
                                      s->access[1][1] + s->access[1][2] + s->access[1][3] +
                                      s->access[1][4]);
    cache_destroy(c);
}

static void test_random_conservation(void **state) {
    (void)state;
    struct cache_cfg cc = base_cfg();
    cc.sets = 8;
    cc.mshrs = 6;
    cc.mshr_merge = 3;
    cc.miss_queue = 4;
    stress(cc, 1);
    cc.alloc = CACHE_ALLOC_ON_FILL;
    stress(cc, 2);
    cc.streaming = true;
    stress(cc, 3);
    cc.streaming = false;
    cc.alloc = CACHE_ALLOC_ON_MISS;
    cc.write = CACHE_WRITE_EVICT;
    cc.write_alloc = CACHE_NO_WRITE_ALLOC;
    stress(cc, 4);
    cc.write = CACHE_WRITE_THROUGH;
    cc.write_alloc = CACHE_WRITE_ALLOC;
    cc.sector = 16; /* 8 sectors per line */
    stress(cc, 5);
}

static void test_stats_desc(void **state) {
    (void)state;
    struct ws_err e = {{0}};
    assert_int_equal(stats_desc_check(cache_stat_desc, cache_stat_ndesc, &e), 0);
    assert_int_equal(cache_stat_ndesc, 22);
    assert_string_equal(cache_stat_desc[1].name, "rd_hit_reserved");
    assert_int_equal(cache_stat_desc[1].offset,
                     offsetof(struct cache_stats, access[0][CACHE_HIT_RESERVED]));
}

/* ---- configuration ---- */

static int configure(const char *ini, const char *sec, struct cache_cfg *cc, struct ws_err *e) {
    *cc = base_cfg();
    struct cfg *c = tu_cfg(ini);
    int rc = cache_cfg_configure(cc, sec, c, e);
    cfg_destroy(c);
    return rc;
}

static void test_cfg_values(void **state) {
    (void)state;
    struct cache_cfg cc;
    struct ws_err e = {{0}};
    assert_int_equal(configure("[l2]\nsets = 64\nways=16\nmshrs=128\nmshr_merge=8\n"
                               "miss_queue=12\nhit_lat=20\nalloc=on-fill\nwrite=write-through\n"
                               "write_alloc=no-write-alloc\nstreaming=true\nindex=fermi\n"
                               "repl=lru\nline=128\nsector=32\ntouch=fill\n",
                               "l2", &cc, &e),
                     0);
    assert_int_equal(cc.sets, 64);
    assert_int_equal(cc.ways, 16);
    assert_int_equal(cc.mshrs, 128);
    assert_int_equal(cc.mshr_merge, 8);
    assert_int_equal(cc.miss_queue, 12);
    assert_int_equal(cc.hit_lat, 20);
    assert_int_equal(cc.alloc, CACHE_ALLOC_ON_FILL);
    assert_int_equal(cc.write, CACHE_WRITE_THROUGH);
    assert_int_equal(cc.write_alloc, CACHE_NO_WRITE_ALLOC);
    assert_int_equal(cc.touch, CACHE_TOUCH_FILL);
    assert_true(cc.streaming);
    assert_string_equal(cc.index, "fermi");
    /* unset keys keep the prior values; the other section is not read */
    assert_int_equal(configure("[l2]\nways=16\n[l1d]\nways=3\n", "l1d", &cc, &e), 0);
    assert_int_equal(cc.ways, 3);
    assert_int_equal(cc.sets, 4);
    assert_string_equal(cc.index, "linear");
    unsigned n;
    assert_non_null(cache_cfg_keys("l1d", &n));
    assert_int_equal(n, 15);
    assert_string_equal(cache_cfg_keys("l2", &n)[0].name, "l2.sets");
    assert_null(cache_cfg_keys("l3", &n));
}

static void expect_cfg_error(const char *ini, const char *sec, const char *want) {
    struct cache_cfg cc;
    struct ws_err e = {{0}};
    assert_int_equal(configure(ini, sec, &cc, &e), -1);
    if (!strstr(e.msg, want)) {
        print_error("message '%s' lacks '%s'\n", e.msg, want);
        fail();
    }
}

static void test_cfg_errors(void **state) {
    (void)state;
    expect_cfg_error("[l1d]\nsets = 48\nindex = xor\n", "l1d",
                     "test.ini:2: l1d.sets = 48, l1d.line = 128: the 'xor' index function "
                     "(l1d.index at test.ini:3) needs a power-of-two number of sets");
    expect_cfg_error("[l1d]\nindex = fermi\n", "l1d", "test.ini:2) needs 32 or 64 sets");
    expect_cfg_error("[l2]\nsets=32\nline=64\nsector=32\nindex = fermi\n", "l2",
                     "needs 128 B lines");
    expect_cfg_error("[l1d]\nline = 96\n", "l1d", "test.ini:2: l1d.line = 96: must be a power");
    expect_cfg_error("[l1d]\nsector = 12\n", "l1d", "l1d.sector = 12: must be a power of two");
    expect_cfg_error("[l1d]\n\nsector = 8\n", "l1d",
                     "test.ini:3: l1d.sector = 8: l1d.line = 128 would hold 16 sectors");
    expect_cfg_error("[l1d]\nsector = 256\n", "l1d", "l1d.sector = 256: exceeds l1d.line");
    expect_cfg_error("[l1d]\nsets = 0\n", "l1d", "test.ini:2: l1d.sets = 0 is out of range");
    expect_cfg_error("[l1d]\nmshrs = 0\n", "l1d", "l1d.mshrs = 0 is out of range");
    expect_cfg_error("[l2]\nmiss_queue = 1\n", "l2",
                     "test.ini:2: l2.miss_queue = 1: a write-back, allocate-on-miss cache");
    expect_cfg_error("[l1d]\nindex = prime\n", "l1d",
                     "test.ini:2: l1d.index = 'prime' is not a known index function (known: "
                     "linear, xor, fermi)");
    expect_cfg_error("[l1d]\nrepl = rrip\n", "l1d",
                     "test.ini:2: l1d.repl = 'rrip' is not a known replacement policy (known: "
                     "lru)");
    expect_cfg_error("[l1d]\nalloc = sometimes\n", "l1d", "l1d.alloc");
    expect_cfg_error("", "l3", "internal error: cache section 'l3'");
    /* write-through, or streaming, needs no second miss-queue entry */
    struct cache_cfg cc;
    struct ws_err e = {{0}};
    assert_int_equal(configure("[l1d]\nmiss_queue=1\nwrite=write-evict\n", "l1d", &cc, &e), 0);
    /* a preset value is checked too, with "preset" as its origin */
    cc = base_cfg();
    cc.line = 100;
    assert_int_equal(cache_cfg_validate(&cc, "l1d", NULL, &e), -1);
    assert_string_equal(e.msg, "preset: l1d.line = 100: must be a power of two");
    assert_null(cache_create(&cc, "l1d", &e));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lru_sequence),
        cmocka_unit_test(test_lru_victim_after_hits),
        cmocka_unit_test(test_sector_miss),
        cmocka_unit_test(test_fill_offchip_sectors),
        cmocka_unit_test(test_merge_limit),
        cmocka_unit_test(test_ready_order),
        cmocka_unit_test(test_mshr_exhaustion),
        cmocka_unit_test(test_missq_full),
        cmocka_unit_test(test_alloc_on_miss_vs_fill),
        cmocka_unit_test(test_touch_at_access_or_fill),
        cmocka_unit_test(test_version_and_resfail),
        cmocka_unit_test(test_fill_writeback_overflow),
        cmocka_unit_test(test_dirty_writeback),
        cmocka_unit_test(test_write_back_no_alloc),
        cmocka_unit_test(test_write_through),
        cmocka_unit_test(test_write_evict_and_l1_atomic),
        cmocka_unit_test(test_l2_atomic),
        cmocka_unit_test(test_streaming),
        cmocka_unit_test(test_invalidate),
        cmocka_unit_test(test_index_in_cache),
        cmocka_unit_test(test_random_conservation),
        cmocka_unit_test(test_stats_desc),
        cmocka_unit_test(test_cfg_values),
        cmocka_unit_test(test_cfg_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
