/* The sectored cache (src/cache/cache.c) against a naive reference model written here: linear
 * tag scans, the lowest invalid way first, else LRU by per-line stamps (least recent among
 * non-reserved ways), MSHRs as a plain array, the miss queue and ready list as FIFOs. Random
 * streams of loads, stores and atomics, fills in random order and occasional invalidations run
 * through both; every outcome, every miss-queue entry (fetches, bypassed writes, writebacks:
 * address, sectors, kind, request), the order of released requests, the accessed line's state
 * and way and, periodically, every line's state and way must match, as must all statistics at
 * the end. Geometries: fully associative 1x512 (the hashed lookup and the LRU list) and 4x8 /
 * 16x2 (the set scan), each write-back with write-allocate and write-evict without, each
 * allocating on miss and on fill. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "base/rng.h"
#include "cache/cache.h"

#define NO_TAG UINT64_MAX

enum { MW = 512, MS = 16, MM = 256, MWAIT = 8, MQ = 8192, SLOTS = 1024 };

struct mline {
    uint64_t tag; /* NO_TAG when invalid */
    uint8_t valid, dirty, pending;
    uint64_t stamp; /* last hit or insertion */
};

struct mmshr {
    bool used;
    uint64_t la;
    uint8_t pending;
    int nw;
    int wreq[MWAIT];      /* waiting request slots, in merge order */
    uint8_t waw[MWAIT];   /* sectors each still awaits */
    uint8_t watom[MWAIT]; /* sectors an atomic dirties at release, else 0 */
};

static struct model {
    struct cache_cfg cc;
    uint32_t sets, ways;
    struct mline line[MS][MW];
    uint64_t seq;
    struct mmshr mshr[MM];
    struct cache_miss mq[MQ];
    unsigned mq_head, mq_n;
    int ready[SLOTS * 2];
    unsigned rd_head, rd_n;
    struct cache_stats st;
} M;

static struct mem_req sr[SLOTS];

static void m_init(const struct cache_cfg *cc) {
    memset(&M, 0, sizeof M);
    M.cc = *cc;
    M.sets = (uint32_t)cc->sets;
    M.ways = (uint32_t)cc->ways;
    assert_true(M.sets <= MS && M.ways <= MW && cc->mshrs <= MM && cc->mshr_merge <= MWAIT);
    for (uint32_t s = 0; s < M.sets; s++)
        for (uint32_t w = 0; w < M.ways; w++) M.line[s][w].tag = NO_TAG;
}

static uint32_t m_set(uint64_t la) {
    return (uint32_t)((la / (uint64_t)M.cc.line) % M.sets);
}

static struct mline *m_find(uint64_t la) {
    struct mline *l = M.line[m_set(la)];
    for (uint32_t w = 0; w < M.ways; w++)
        if (l[w].tag == la) return &l[w];
    return NULL;
}

/* Lowest invalid way, else the least recently touched non-reserved way, else NULL. */
static struct mline *m_victim(uint32_t set) {
    struct mline *l = M.line[set], *best = NULL;
    for (uint32_t w = 0; w < M.ways; w++)
        if (l[w].tag == NO_TAG) return &l[w];
    for (uint32_t w = 0; w < M.ways; w++)
        if (!l[w].pending && (!best || l[w].stamp < best->stamp)) best = &l[w];
    return best;
}

static struct mmshr *m_mshr(uint64_t la) {
    for (int i = 0; i < MM; i++)
        if (M.mshr[i].used && M.mshr[i].la == la) return &M.mshr[i];
    return NULL;
}

static int m_mshr_used(void) {
    int n = 0;
    for (int i = 0; i < MM; i++) n += M.mshr[i].used;
    return n;
}

static void m_push(int slot, uint64_t la, uint8_t sectors, int kind) {
    assert_true(M.mq_n < MQ);
    M.mq[(M.mq_head + M.mq_n++) % MQ] = (struct cache_miss){.req = slot < 0 ? NULL : &sr[slot],
                                                            .line_addr = la,
                                                            .sectors = sectors,
                                                            .kind = (uint8_t)kind};
}

static unsigned m_mq_free(void) {
    unsigned lim = (unsigned)M.cc.miss_queue;
    return M.mq_n >= lim ? 0 : lim - M.mq_n;
}

/* Evicts whatever l holds (a writeback if dirty, queued by the caller via *wb) and places la. */
static void m_replace(struct mline *l, uint64_t la, uint64_t *wb_la, uint8_t *wb) {
    *wb = 0;
    if (l->tag != NO_TAG) {
        if (l->valid) M.st.evictions++;
        *wb = l->dirty;
        *wb_la = l->tag;
    }
    *l = (struct mline){.tag = la, .stamp = ++M.seq};
}

static void m_writeback(uint64_t la, uint8_t dirty) {
    if (!dirty) return;
    m_push(-1, la, dirty, MEM_WRITEBACK);
    M.st.writebacks++;
}

static void m_drop_if_empty(struct mline *l) {
    if (!l->valid && !l->pending) *l = (struct mline){.tag = NO_TAG, .stamp = l->stamp};
}

static enum cache_outcome m_fail(int wr, enum cache_fail f) {
    M.st.access[wr][CACHE_RESFAIL]++;
    M.st.fail[f]++;
    return CACHE_RESFAIL;
}

/* A store, or an atomic at a write-evict cache. */
static enum cache_outcome m_write(int slot, uint64_t la, uint8_t need, int kind) {
    struct mline *l = m_find(la);
    bool evict = M.cc.write == CACHE_WRITE_EVICT || kind == MEM_ATOMIC;
    enum cache_outcome out = l ? CACHE_HIT : CACHE_MISS;
    if (evict) {
        if (m_mq_free() < 1) return m_fail(1, CACHE_FAIL_MISSQ);
        M.st.access[1][out]++;
        if (l) {
            l->valid &= (uint8_t)~need;
            l->dirty &= (uint8_t)~need;
            m_drop_if_empty(l);
        }
        m_push(slot, la, need, kind);
        M.st.bypassed_writes++;
        return out;
    }
    /* write-back with write-allocate */
    if (l) {
        M.st.access[1][out]++;
        l->stamp = ++M.seq;
        l->valid |= need;
        l->dirty |= need;
        return out;
    }
    struct mline *v = m_victim(m_set(la));
    if (!v) return m_fail(1, CACHE_FAIL_LINE);
    if ((v->dirty ? 1u : 0u) > m_mq_free()) return m_fail(1, CACHE_FAIL_MISSQ);
    M.st.access[1][out]++;
    uint64_t wb_la = 0;
    uint8_t wb;
    m_replace(v, la, &wb_la, &wb);
    v->valid = v->dirty = need;
    m_writeback(wb_la, wb);
    return out;
}

/* A load, or an atomic at a write-back cache (a read that dirties its sectors). */
static enum cache_outcome m_read(int slot, uint64_t la, uint8_t need, int kind) {
    int wr = kind != MEM_LOAD;
    struct mline *l = m_find(la);
    if (l && !(need & ~l->valid)) {
        M.st.access[wr][CACHE_HIT]++;
        l->stamp = ++M.seq;
        if (kind == MEM_ATOMIC) l->dirty |= need;
        return CACHE_HIT;
    }
    uint8_t missing = need & (uint8_t) ~(l ? l->valid : 0);
    struct mmshr *m = m_mshr(la);
    uint8_t fetch = missing & (uint8_t) ~(m ? m->pending : 0);
    enum cache_outcome out;
    struct mline *v = NULL;
    bool on_miss = M.cc.alloc == CACHE_ALLOC_ON_MISS;
    if (!fetch) {
        out = CACHE_HIT_RESERVED;
        if (m->nw >= M.cc.mshr_merge) return m_fail(wr, CACHE_FAIL_MERGE);
    } else {
        out = l ? CACHE_SECTOR_MISS : CACHE_MISS;
        unsigned slots = 1;
        if (!l && on_miss) {
            v = m_victim(m_set(la));
            if (!v) return m_fail(wr, CACHE_FAIL_LINE);
            if (v->dirty) slots++;
        }
        if (m && m->nw >= M.cc.mshr_merge) return m_fail(wr, CACHE_FAIL_MERGE);
        if (!m && m_mshr_used() >= M.cc.mshrs) return m_fail(wr, CACHE_FAIL_MSHR);
        if (slots > m_mq_free()) return m_fail(wr, CACHE_FAIL_MISSQ);
    }
    M.st.access[wr][out]++;
    uint64_t wb_la = 0;
    uint8_t wb = 0;
    if (v) {
        m_replace(v, la, &wb_la, &wb);
        l = v;
    } else if (l) {
        l->stamp = ++M.seq;
    }
    if (l && on_miss) l->pending |= fetch;
    if (fetch) {
        if (!m) {
            for (m = M.mshr; m->used; m++) {
            }
            *m = (struct mmshr){.used = true, .la = la};
        }
        m->pending |= fetch;
        m_push(slot, la, fetch, MEM_LOAD);
    }
    m->wreq[m->nw] = slot;
    m->waw[m->nw] = missing;
    m->watom[m->nw++] = kind == MEM_ATOMIC ? need : 0;
    m_writeback(wb_la, wb);
    return out;
}

static enum cache_outcome m_access(int slot) {
    const struct mem_req *r = &sr[slot];
    uint64_t la = r->addr & ~(uint64_t)(M.cc.line - 1);
    if (r->kind == MEM_STORE || (r->kind == MEM_ATOMIC && M.cc.write != CACHE_WRITE_BACK))
        return m_write(slot, la, r->sectors, r->kind);
    return m_read(slot, la, r->sectors, r->kind);
}

static void m_fill(uint64_t la, uint8_t sectors) {
    struct mmshr *m = m_mshr(la);
    assert_non_null(m);
    uint8_t s = sectors & m->pending;
    m->pending &= (uint8_t)~s;
    M.st.fills++;
    struct mline *l = m_find(la);
    if (!l) {
        l = m_victim(m_set(la));
        if (l) {
            uint64_t wb_la = 0;
            uint8_t wb;
            m_replace(l, la, &wb_la, &wb);
            m_writeback(wb_la, wb);
        }
    }
    if (l) {
        l->valid |= s;
        l->pending &= (uint8_t)~s;
    }
    int k = 0;
    for (int i = 0; i < m->nw; i++) {
        m->waw[i] &= (uint8_t)~s;
        if (m->waw[i]) {
            m->wreq[k] = m->wreq[i];
            m->waw[k] = m->waw[i];
            m->watom[k++] = m->watom[i];
            continue;
        }
        if (m->watom[i] && M.cc.write == CACHE_WRITE_BACK && l) {
            l->valid |= m->watom[i];
            l->dirty |= m->watom[i];
        }
        M.ready[(M.rd_head + M.rd_n++) % (SLOTS * 2)] = m->wreq[i];
    }
    m->nw = k;
    if (!m->pending) m->used = false;
}

static void m_invalidate(void) {
    for (uint32_t s = 0; s < M.sets; s++)
        for (uint32_t w = 0; w < M.ways; w++) {
            struct mline *l = &M.line[s][w];
            l->valid = l->dirty = 0;
            if (!l->pending) l->tag = NO_TAG;
        }
}

static void expect_line(const struct cache *c, uint64_t la) {
    uint8_t v, d, p;
    bool present = cache_line_state(c, la, &v, &d, &p);
    const struct mline *l = m_find(la);
    assert_int_equal(present, l != NULL);
    assert_int_equal(v, l ? l->valid : 0);
    assert_int_equal(d, l ? l->dirty : 0);
    assert_int_equal(p, l ? l->pending : 0);
    assert_int_equal(cache_line_way(c, la), l ? (int32_t)(l - M.line[m_set(la)]) : -1);
}

static void run(struct cache_cfg cc, uint64_t seed, uint64_t footprint, unsigned steps) {
    struct ws_err e = {{0}};
    struct cache *c = cache_create(&cc, "l1d", &e);
    assert_non_null(c);
    m_init(&cc);
    struct ws_rng rng;
    ws_rng_seed(&rng, seed);
    static bool busy[SLOTS];
    memset(busy, 0, sizeof busy);
    static struct cache_miss fl[1 << 14];
    unsigned nfl = 0, nsect = (unsigned)(cc.line / cc.sector);
    uint64_t now = 0, evict_checks = 0;
    for (unsigned step = 0; step < steps || nfl || cache_miss_pending(c); step++) {
        unsigned i = (unsigned)ws_rng_below(&rng, SLOTS);
        if (step < steps && !busy[i]) {
            struct mem_req *r = &sr[i];
            memset(r, 0, sizeof *r);
            /* half the accesses go to a hot sixteenth of the footprint */
            uint64_t fp = ws_rng_below(&rng, 2) ? footprint / 16 : footprint;
            r->addr = ws_rng_below(&rng, fp) * (uint64_t)cc.line + ws_rng_below(&rng, 128);
            r->sectors = (uint8_t)(1 + ws_rng_below(&rng, (1u << nsect) - 1));
            uint64_t k = ws_rng_below(&rng, 20);
            r->kind = k < 14 ? MEM_LOAD : k < 19 ? MEM_STORE : MEM_ATOMIC;
            enum cache_outcome want = m_access((int)i);
            bool kept;
            enum cache_outcome got = cache_access(c, r, ++now, &kept, NULL);
            assert_int_equal(got, want);
            busy[i] = kept;
            expect_line(c, r->addr & ~(uint64_t)(cc.line - 1));
        }
        /* phases of fast, slow and stalled service build up and release reservations */
        unsigned phase = (step / 3000) % 4;
        /* the miss queue drains at a random pace; entries must match one for one */
        while (cache_miss_pending(c) && ws_rng_below(&rng, 3) < (phase == 3 ? 1u : 2u)) {
            const struct cache_miss *m = cache_miss_peek(c);
            assert_true(M.mq_n > 0);
            const struct cache_miss *w = &M.mq[M.mq_head];
            assert_ptr_equal(m->req, w->req);
            assert_int_equal(m->line_addr, w->line_addr);
            assert_int_equal(m->sectors, w->sectors);
            assert_int_equal(m->kind, w->kind);
            if (m->kind == MEM_WRITEBACK) evict_checks++;
            if (m->kind == MEM_LOAD) fl[nfl++] = *m;
            cache_miss_pop(c);
            M.mq_head = (M.mq_head + 1) % MQ;
            M.mq_n--;
        }
        assert_int_equal(cache_miss_len(c), M.mq_n);
        if (nfl && ws_rng_below(&rng, 8) < (phase == 0 ? 8u : phase == 1 ? 4u : 1u)) {
            unsigned j = (unsigned)ws_rng_below(&rng, nfl);
            m_fill(fl[j].line_addr, fl[j].sectors);
            cache_fill(c, fl[j].line_addr, fl[j].sectors, ++now);
            expect_line(c, fl[j].line_addr);
            fl[j] = fl[--nfl];
        }
        for (struct mem_req *r; (r = cache_ready_pop(c));) {
            assert_true(M.rd_n > 0);
            assert_int_equal(r - sr, M.ready[M.rd_head]);
            M.rd_head = (M.rd_head + 1) % (SLOTS * 2);
            M.rd_n--;
            busy[r - sr] = false;
        }
        assert_int_equal(M.rd_n, 0);
        if (ws_rng_below(&rng, 20000) == 0) {
            cache_invalidate(c);
            m_invalidate();
        }
        if (step % 4096 == 0)
            for (uint64_t a = 0; a < footprint; a++) expect_line(c, a * (uint64_t)cc.line);
    }
    assert_int_equal(cache_mshr_used(c), m_mshr_used());
    assert_true(cache_idle(c));
    cache_finish(c);
    const struct cache_stats *s = cache_stats(c);
    assert_memory_equal(s->access, M.st.access, sizeof s->access);
    assert_memory_equal(s->fail, M.st.fail, sizeof s->fail);
    assert_int_equal(s->fills, M.st.fills);
    assert_int_equal(s->evictions, M.st.evictions);
    assert_int_equal(s->writebacks, M.st.writebacks);
    assert_int_equal(s->bypassed_writes, M.st.bypassed_writes);
    /* the streams are rich enough to exercise replacement and reservation pressure */
    assert_true(s->evictions > 1000);
    if (cc.write == CACHE_WRITE_BACK) assert_true(evict_checks > 100);
    assert_true(s->fail[CACHE_FAIL_MSHR] > 1000 && s->fail[CACHE_FAIL_MERGE] > 0);
    if (cc.alloc == CACHE_ALLOC_ON_MISS && cc.mshrs > cc.ways)
        assert_true(s->fail[CACHE_FAIL_LINE] > 1000);
    assert_true(s->access[0][CACHE_HIT] > 1000 && s->access[0][CACHE_MISS] > 1000 &&
                s->access[0][CACHE_SECTOR_MISS] > 100 && s->access[0][CACHE_HIT_RESERVED] > 100);
    cache_destroy(c);
}

static struct cache_cfg cfg(int64_t sets, int64_t ways, int64_t mshrs, int64_t mq) {
    struct cache_cfg cc = {.sets = sets,
                           .ways = ways,
                           .line = 128,
                           .sector = 32,
                           .mshrs = mshrs,
                           .mshr_merge = 4,
                           .miss_queue = mq,
                           .hit_lat = 1,
                           .alloc = CACHE_ALLOC_ON_MISS,
                           .write = CACHE_WRITE_BACK,
                           .write_alloc = CACHE_WRITE_ALLOC,
                           .streaming = false};
    strcpy(cc.index, "linear");
    strcpy(cc.repl, "lru");
    return cc;
}

/* Each geometry with (write-back, write-alloc) and (write-evict, no-write-alloc), each
 * allocating on miss and on fill. */
static void run_modes(struct cache_cfg cc, uint64_t seed, uint64_t footprint, unsigned steps) {
    for (int mode = 0; mode < 4; mode++) {
        cc.alloc = mode & 1 ? CACHE_ALLOC_ON_FILL : CACHE_ALLOC_ON_MISS;
        cc.write = mode & 2 ? CACHE_WRITE_EVICT : CACHE_WRITE_BACK;
        cc.write_alloc = mode & 2 ? CACHE_NO_WRITE_ALLOC : CACHE_WRITE_ALLOC;
        run(cc, seed + (uint64_t)mode, footprint, steps);
    }
}

static void test_fully_associative_512(void **state) {
    (void)state;
    run_modes(cfg(1, 512, 256, 8), 11, 1024, 120000);
}

static void test_4x8(void **state) {
    (void)state;
    /* more MSHRs than ways per set: every way of a set can be reserved (FAIL_LINE) */
    run_modes(cfg(4, 8, 24, 6), 21, 96, 120000);
}

static void test_16x2(void **state) {
    (void)state;
    run_modes(cfg(16, 2, 12, 4), 31, 96, 80000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fully_associative_512),
        cmocka_unit_test(test_4x8),
        cmocka_unit_test(test_16x2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
