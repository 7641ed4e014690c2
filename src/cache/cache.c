/* Sectored set-associative cache with MSHRs and a miss queue (see cache.h for the outcomes).
 *
 * Every access is decided first (decide(): read-only, also answers cache_probe) and then
 * committed, so a reservation failure leaves the state untouched by construction. Storage is
 * allocated at create time: lines, MSHR entries with a hash from line address to entry, a pool
 * of waiting-request slots (mshrs * mshr_merge, index-linked), and the miss-queue ring. Ready
 * requests are chained through mem_req.next, which the cache owns while it holds a request.
 * Nothing per access scans a set of a highly associative cache: a hash of the present lines
 * (from TAG_HASH_MIN_WAYS ways), per-set bitmaps of invalid ways and counts of reserved ways
 * are kept in step with the lines, and the LRU policy keeps a recency list.
 *
 * Choices worth knowing:
 * - A write to a present line (tag match, even if the written sectors are not valid yet) is a
 *   HIT: GPU stores write whole sectors, so nothing needs fetching.
 * - An MSHR entry tracks the sectors still pending for its line; each waiting request tracks
 *   the sectors it still awaits (those not valid when it arrived), so a request leaves as soon
 *   as its own sectors arrive, whether or not the line is kept.
 * - With allocate-on-fill (or a lost reservation) the victim is chosen when data arrives, and
 *   a dirty victim's writeback is queued even if the miss queue is at its configured depth: the
 *   ring has mshrs * sectors-per-line spare slots, which bounds the fills outstanding, so
 *   nothing is ever dropped. Accesses still see the configured depth.
 * - RESFAIL causes are checked in the order LINE, MERGE/MSHR, MISSQ.
 * - Stats count atomics with writes ([1]); a write-back atomic is otherwise a read that dirties
 *   its sectors once they are valid. In a streaming cache, atomics and stores go downstream. */
#include "cache/cache.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/index/index.h"
#include "cache/repl/repl.h"

/* ---- configuration ---- */

static const char *const alloc_names[] = {"on-miss", "on-fill", NULL};
static const char *const write_names[] = {"write-back", "write-through", "write-evict", NULL};
static const char *const walloc_names[] = {"no-write-alloc", "write-alloc", NULL};
static const char *const touch_names[] = {"access", "fill", NULL};

#define OFF(f) offsetof(struct cache_cfg, f)
/* cfg_key.name must be a static string, hence one table per section from one template. */
// clang-format off
#define K(S, key, type, field, min, max, choices, unit, doc)                                       \
    {S "." key, type, OFF(field), NULL, min, max, choices, unit, doc}
#define CACHE_KEYS(S) {                                                                            \
    K(S, "sets", CFG_INT, sets, 1, 1 << 20, NULL, "sets", "number of sets"),                       \
    K(S, "ways", CFG_INT, ways, 1, 4096, NULL, "lines", "associativity (lines per set)"),          \
    K(S, "line", CFG_INT, line, 1, 4096, NULL, "B", "line size (a power of two)"),                 \
    K(S, "sector", CFG_INT, sector, 1, 4096, NULL, "B",                                            \
      "sector size, the unit of validity and fetch (a power of two, 1-8 per line)"),               \
    K(S, "mshrs", CFG_INT, mshrs, 1, 1 << 16, NULL, "entries",                                     \
      "MSHR entries (distinct lines being fetched)"),                                              \
    K(S, "mshr_merge", CFG_INT, mshr_merge, 1, 65535, NULL, "requests",                            \
      "requests one MSHR entry can hold, the first included"),                                     \
    K(S, "miss_queue", CFG_INT, miss_queue, 1, 1 << 16, NULL, "entries",                           \
      "miss-queue entries (fetches, writes and writebacks waiting to go down)"),                   \
    K(S, "hit_lat", CFG_INT, hit_lat, 0, 100000, NULL, "cycles",                                   \
      "hit latency in the cache's clock domain"),                                                  \
    K(S, "alloc", CFG_ENUM, alloc, 0, 0, alloc_names, "",                                          \
      "on-miss: reserve the victim line at miss time; on-fill: choose it when data arrives"),      \
    K(S, "write", CFG_ENUM, write, 0, 0, write_names, "",                                          \
      "write policy: write-back, write-through, or write-evict (invalidate and forward)"),         \
    K(S, "write_alloc", CFG_ENUM, write_alloc, 0, 0, walloc_names, "",                             \
      "whether a write miss allocates the line (write-back/write-through only)"),                  \
    K(S, "touch", CFG_ENUM, touch, 0, 0, touch_names, "",                                          \
      "when a miss to a present line is a use for replacement: at the access, or at its fill"),   \
    K(S, "streaming", CFG_BOOL, streaming, 0, 0, NULL, "",                                         \
      "no-allocate mode: lines are never kept, fills only release waiting requests"),              \
    K(S, "index", CFG_STRING, index, 0, 0, NULL, "",                                               \
      "set index function by name (cache/index/index.def)"),                                       \
    K(S, "repl", CFG_STRING, repl, 0, 0, NULL, "",                                                 \
      "replacement policy by name (cache/repl/repl.def)"),                                         \
}
// clang-format on

static const struct cfg_key l1d_keys[] = CACHE_KEYS("l1d");
static const struct cfg_key l2_keys[] = CACHE_KEYS("l2");

const struct cfg_key *cache_cfg_keys(const char *sec, unsigned *n) {
    const struct cfg_key *k = NULL;
    if (strcmp(sec, "l1d") == 0) {
        k = l1d_keys;
        *n = CFG_COUNT(l1d_keys);
    } else if (strcmp(sec, "l2") == 0) {
        k = l2_keys;
        *n = CFG_COUNT(l2_keys);
    } else {
        *n = 0;
    }
    return k;
}

int cache_cfg_configure(struct cache_cfg *cc, const char *sec, struct cfg *c, struct ws_err *e) {
    unsigned n;
    const struct cfg_key *keys = cache_cfg_keys(sec, &n);
    if (!keys) return ws_fail(e, "internal error: cache section '%s' is not one of l1d, l2", sec);
    if (cfg_bind(c, sec, keys, n, cc, e) != 0) return -1;
    return cache_cfg_validate(cc, sec, c, e);
}

/* "file:line" of <sec>.<key>, or "preset" when it came from the struct's prior value. */
static const char *origin(const struct cfg *c, const char *sec, const char *key, char *buf,
                          size_t n) {
    char full[128];
    snprintf(full, sizeof full, "%s.%s", sec, key);
    if (!c || strcmp(cfg_origin(c, full, buf, n), "default") == 0) snprintf(buf, n, "preset");
    return buf;
}

static bool pow2(int64_t v) {
    return v > 0 && (v & (v - 1)) == 0;
}

/* "<origin>: <sec>.<key> = <val>: <why>" */
static int bad(struct ws_err *e, const struct cfg *c, const char *sec, const char *key,
               long long val, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static int bad(struct ws_err *e, const struct cfg *c, const char *sec, const char *key,
               long long val, const char *fmt, ...) {
    char why[512], w[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return ws_fail(e, "%s: %s.%s = %lld: %s", origin(c, sec, key, w, sizeof w), sec, key, val, why);
}

int cache_cfg_validate(const struct cache_cfg *cc, const char *sec, const struct cfg *c,
                       struct ws_err *e) {
    if (cc->sets < 1) return bad(e, c, sec, "sets", cc->sets, "needs at least 1 set");
    if (cc->ways < 1) return bad(e, c, sec, "ways", cc->ways, "needs at least 1 way");
    if (cc->sets * cc->ways > (1 << 24))
        return bad(e, c, sec, "ways", cc->ways, "%lld sets x %lld ways is more than 16M lines",
                   (long long)cc->sets, (long long)cc->ways);
    if (!pow2(cc->line)) return bad(e, c, sec, "line", cc->line, "must be a power of two");
    if (!pow2(cc->sector)) return bad(e, c, sec, "sector", cc->sector, "must be a power of two");
    if (cc->sector > cc->line)
        return bad(e, c, sec, "sector", cc->sector, "exceeds %s.line = %lld", sec,
                   (long long)cc->line);
    if (cc->line / cc->sector > CACHE_MAX_SECTORS)
        return bad(e, c, sec, "sector", cc->sector,
                   "%s.line = %lld would hold %lld sectors (at most %d)", sec, (long long)cc->line,
                   (long long)(cc->line / cc->sector), CACHE_MAX_SECTORS);
    if (cc->mshrs < 1) return bad(e, c, sec, "mshrs", cc->mshrs, "needs at least 1 entry");
    if (cc->mshr_merge < 1 || cc->mshr_merge > 65535)
        return bad(e, c, sec, "mshr_merge", cc->mshr_merge, "must be in [1, 65535]");
    if (cc->mshrs * cc->mshr_merge > (1 << 24))
        return bad(e, c, sec, "mshr_merge", cc->mshr_merge,
                   "%lld MSHRs x %lld requests is more than 16M", (long long)cc->mshrs,
                   (long long)cc->mshr_merge);
    if (cc->miss_queue < 1)
        return bad(e, c, sec, "miss_queue", cc->miss_queue, "needs at least 1 entry");
    if (cc->hit_lat < 0) return bad(e, c, sec, "hit_lat", cc->hit_lat, "must not be negative");
    if (cc->alloc < 0 || cc->alloc > CACHE_ALLOC_ON_FILL)
        return bad(e, c, sec, "alloc", cc->alloc, "not a valid allocation policy");
    if (cc->write < 0 || cc->write > CACHE_WRITE_EVICT)
        return bad(e, c, sec, "write", cc->write, "not a valid write policy");
    if (cc->write_alloc < 0 || cc->write_alloc > CACHE_WRITE_ALLOC)
        return bad(e, c, sec, "write_alloc", cc->write_alloc, "not a valid write-allocate policy");
    if (cc->touch < 0 || cc->touch > CACHE_TOUCH_FILL)
        return bad(e, c, sec, "touch", cc->touch, "not a valid touch mode");
    /* a read miss that evicts a dirty line queues its fetch and the writeback together */
    if (cc->write == CACHE_WRITE_BACK && cc->alloc == CACHE_ALLOC_ON_MISS && !cc->streaming &&
        cc->miss_queue < 2)
        return bad(e, c, sec, "miss_queue", cc->miss_queue,
                   "a write-back, allocate-on-miss cache needs at least 2 entries (a fetch and "
                   "the dirty victim's writeback)");
    char list[256], w[600], w2[600];
    const struct cache_index_fn *ix = cache_index_find(cc->index);
    if (!ix) {
        cache_index_names(list, sizeof list);
        return ws_fail(e, "%s: %s.index = '%s' is not a known index function (known: %s)",
                       origin(c, sec, "index", w, sizeof w), sec, cc->index, list);
    }
    const char *why = ix->check ? ix->check((uint64_t)cc->sets, (uint64_t)cc->line) : NULL;
    if (why)
        return ws_fail(e,
                       "%s: %s.sets = %lld, %s.line = %lld: the '%s' index function "
                       "(%s.index at %s) %s",
                       origin(c, sec, "sets", w, sizeof w), sec, (long long)cc->sets, sec,
                       (long long)cc->line, ix->name, sec, origin(c, sec, "index", w2, sizeof w2),
                       why);
    if (!cache_repl_find(cc->repl)) {
        cache_repl_names(list, sizeof list);
        return ws_fail(e, "%s: %s.repl = '%s' is not a known replacement policy (known: %s)",
                       origin(c, sec, "repl", w, sizeof w), sec, cc->repl, list);
    }
    return 0;
}

/* ---- statistics ---- */

#define SA(w, o, name, doc)                                                                        \
    { name, STAT_COUNTER, offsetof(struct cache_stats, access[w][o]), "acc", doc }
#define SD(f, kind, unit, doc)                                                                     \
    { #f, kind, offsetof(struct cache_stats, f), unit, doc }
const struct stat_desc cache_stat_desc[] = {
    SA(0, CACHE_HIT, "rd_hit", "loads whose every requested sector was valid"),
    SA(0, CACHE_HIT_RESERVED, "rd_hit_reserved",
       "loads whose missing sectors were all being fetched already (merged into the MSHR)"),
    SA(0, CACHE_SECTOR_MISS, "rd_sector_miss",
       "loads to a present line with some sector neither valid nor pending (fetched)"),
    SA(0, CACHE_MISS, "rd_miss", "loads to an absent line (line or MSHR reserved, fetched)"),
    SA(0, CACHE_RESFAIL, "rd_resfail", "load lookups refused for lack of a resource (retried)"),
    SA(1, CACHE_HIT, "wr_hit",
       "stores/atomics to a present line (atomics at a write-back cache: all sectors valid)"),
    SA(1, CACHE_HIT_RESERVED, "wr_hit_reserved",
       "write-back atomics merged into a fetch already pending for their sectors"),
    SA(1, CACHE_SECTOR_MISS, "wr_sector_miss",
       "write-back atomics to a present line needing a sector fetched"),
    SA(1, CACHE_MISS, "wr_miss", "stores/atomics to an absent line"),
    SA(1, CACHE_RESFAIL, "wr_resfail", "store/atomic lookups refused for lack of a resource"),
    {"fail_line", STAT_COUNTER, offsetof(struct cache_stats, fail[CACHE_FAIL_LINE]), "acc",
     "reservation fails: every way of the set reserved by a pending fetch"},
    {"fail_mshr", STAT_COUNTER, offsetof(struct cache_stats, fail[CACHE_FAIL_MSHR]), "acc",
     "reservation fails: no free MSHR entry for a new line"},
    {"fail_merge", STAT_COUNTER, offsetof(struct cache_stats, fail[CACHE_FAIL_MERGE]), "acc",
     "reservation fails: the line's MSHR entry already holds mshr_merge requests"},
    {"fail_missq", STAT_COUNTER, offsetof(struct cache_stats, fail[CACHE_FAIL_MISSQ]), "acc",
     "reservation fails: the miss queue lacked room for the entries the access needed"},
    SD(fills, STAT_COUNTER, "fills", "data returns from below (cache_fill calls)"),
    SD(evictions, STAT_COUNTER, "lines", "lines holding valid data replaced by another line"),
    SD(writebacks, STAT_COUNTER, "lines", "evicted lines with dirty sectors written below"),
    SD(bypassed_writes, STAT_COUNTER, "req",
       "stores/atomics sent below as they are (write-through, write-evict, no-write-allocate, "
       "streaming)"),
    SD(accesses, STAT_COUNTER, "acc", "lookups of loads, stores and atomics (RESFAIL included)"),
    SD(hits, STAT_COUNTER, "acc",
       "HIT outcomes (loads and writes); accesses = hits + HIT_RESERVED + misses + RESFAIL"),
    SD(misses, STAT_COUNTER, "acc", "SECTOR_MISS plus MISS outcomes (loads and writes)"),
    SD(miss_rate, STAT_REAL, "", "misses / (accesses - reservation fails)"),
};
const unsigned cache_stat_ndesc = CFG_COUNT(cache_stat_desc);

/* ---- the cache ---- */

enum { NIL = -1 };

struct mshr {
    uint64_t la;
    int32_t head, tail; /* waiting requests in merge order; head doubles as the free link */
    uint16_t nwait;
    uint8_t pending; /* sectors requested below and not filled yet */
};

struct waiter {
    struct mem_req *r;
    int32_t next;
    uint8_t awaiting; /* its sectors not valid when it arrived and not filled since */
    uint8_t atomic;   /* an atomic's sectors (it dirties them at release), else 0; kept here so
                         a fill need not load the (cold) request to find out */
    uint8_t offchip;  /* awaited sectors filled so far with data from DRAM (cache_fill_from) */
};

/* Open addressing (linear probing) from a line address to an index into an array of records
 * whose first field is that address (struct mshr, struct cache_line). */
struct ohash {
    int32_t *tab;
    uint32_t mask, shift, line_shift;
    const void *recs;
    size_t stride;
};

_Static_assert(offsetof(struct mshr, la) == 0 && offsetof(struct cache_line, tag) == 0,
               "hashed records start with their line address");

static inline uint64_t oh_key(const struct ohash *h, int32_t i) {
    uint64_t k;
    memcpy(&k, (const char *)h->recs + (size_t)i * h->stride, sizeof k);
    return k;
}

static inline uint32_t oh_slot(const struct ohash *h, uint64_t la) {
    return (uint32_t)(((la >> h->line_shift) * 0x9E3779B97F4A7C15ull) >> h->shift);
}

static inline int32_t oh_find(const struct ohash *h, uint64_t la) {
    for (uint32_t s = oh_slot(h, la);; s = (s + 1) & h->mask) {
        int32_t i = h->tab[s];
        if (i == NIL || oh_key(h, i) == la) return i;
    }
}

/* Record i must already hold its address. */
static inline void oh_insert(struct ohash *h, int32_t i) {
    uint32_t s = oh_slot(h, oh_key(h, i));
    while (h->tab[s] != NIL) s = (s + 1) & h->mask;
    h->tab[s] = i;
}

/* Backward-shift deletion, so lookups never need tombstones. Record i still holds its
 * address. */
static void oh_remove(struct ohash *h, int32_t i) {
    uint32_t s = oh_slot(h, oh_key(h, i));
    while (h->tab[s] != i) s = (s + 1) & h->mask;
    for (uint32_t nx = (s + 1) & h->mask; h->tab[nx] != NIL; nx = (nx + 1) & h->mask) {
        uint32_t home = oh_slot(h, oh_key(h, h->tab[nx]));
        /* move nx back to s unless its home lies cyclically in (s, nx] */
        if (((nx - home) & h->mask) >= ((nx - s) & h->mask)) {
            h->tab[s] = h->tab[nx];
            s = nx;
        }
    }
    h->tab[s] = NIL;
}

/* A table of at least `min` slots (a power of two); -1 when out of memory. */
static int oh_init(struct ohash *h, uint32_t min, uint32_t line_shift, const void *recs,
                   size_t stride) {
    uint32_t n = 2;
    while (n < min) n *= 2;
    h->tab = malloc(n * sizeof *h->tab);
    if (!h->tab) return -1;
    for (uint32_t i = 0; i < n; i++) h->tab[i] = NIL;
    h->mask = n - 1;
    h->shift = 64 - (uint32_t)__builtin_ctz(n);
    h->line_shift = line_shift;
    h->recs = recs;
    h->stride = stride;
    return 0;
}

/* From this associativity on, a tag lookup probes a hash of the present lines instead of
 * scanning the set. Measured on whole-GPU runs, where the cache's state is mostly cold in the
 * host's caches: up to 32 ways the scan of adjacent tags wins over the hash's two dependent
 * loads; from 64 ways on the hash wins (in a hot micro-benchmark it wins from 8 ways). */
enum { TAG_HASH_MIN_WAYS = 64 };

struct cache {
    struct cache_cfg cfg;
    char name[64];
    uint32_t sets, ways;
    uint8_t full; /* mask of all sectors of a line */
    uint64_t line_mask;
    struct cache_index ix;
    const struct cache_repl *repl;
    void *rst;
    struct cache_line *lines; /* sets * ways */
    /* Kept in step with `lines` so that neither a lookup nor a victim choice scans a set:
     * the present lines by address (only when ways >= TAG_HASH_MIN_WAYS), a bitmap of the
     * invalid ways of each set (wps words per set) and the number of reserved ways per set. */
    bool tag_hashed;
    uint32_t present; /* lines with a tag (none ever in a streaming cache) */
    struct ohash tags;
    uint64_t *inv;
    uint32_t wps;
    uint16_t *nres;

    struct mshr *mshr;
    int32_t mshr_free;
    uint32_t mshr_used, nmshr;
    struct ohash mh; /* line address -> MSHR index */

    struct waiter *w;
    int32_t w_free;

    struct cache_miss *mq; /* ring */
    uint32_t mq_cap, mq_head, mq_n, mq_limit;
    /* Bumped by everything that changes what an access decides (cache_version). */
    uint64_t version;

    struct mem_req *rdy_head, *rdy_tail;
    struct cache_stats st;
};

struct plan {
    enum cache_outcome out;
    enum cache_fail fail;
    uint64_t la;
    uint32_t set;
    int32_t way;     /* present line, NIL if none */
    int32_t victim;  /* way to allocate, NIL if no allocation */
    int32_t m;       /* existing MSHR entry for the line, NIL if none */
    uint8_t need;    /* requested sectors */
    uint8_t missing; /* requested and not valid: what a waiting request awaits */
    uint8_t fetch;   /* sectors to fetch below */
    uint8_t set_valid, set_dirty, clear;
    int8_t down; /* enum mem_kind of an entry carrying the request below, -1 for none */
    bool touch, wait, pend_line;
};

static inline int32_t mshr_find(const struct cache *c, uint64_t la) {
    return oh_find(&c->mh, la);
}

static int32_t mshr_alloc(struct cache *c, uint64_t la) {
    int32_t i = c->mshr_free;
    WS_ASSERT(i != NIL, "cache %s: no free MSHR after a successful check", c->name);
    c->mshr_free = c->mshr[i].head;
    c->mshr[i] = (struct mshr){.la = la, .head = NIL, .tail = NIL};
    c->mshr_used++;
    oh_insert(&c->mh, i);
    return i;
}

static void mshr_release(struct cache *c, int32_t i) {
    oh_remove(&c->mh, i);
    c->mshr[i].head = c->mshr_free;
    c->mshr_free = i;
    c->mshr_used--;
}

static inline struct cache_line *set_lines(const struct cache *c, uint32_t set) {
    return &c->lines[(size_t)set * c->ways];
}

static inline int32_t find_way(const struct cache *c, uint32_t set, uint64_t la) {
    if (!c->present) return NIL;
    if (c->tag_hashed) {
        int32_t i = oh_find(&c->tags, la);
        /* an address maps to one set, so a present line is in this one */
        return i == NIL ? NIL : i - (int32_t)(set * c->ways);
    }
    const struct cache_line *l = set_lines(c, set);
    for (uint32_t w = 0; w < c->ways; w++)
        if (l[w].tag == la) return (int32_t)w;
    return NIL;
}

static inline void inv_mark(struct cache *c, uint32_t set, uint32_t way, bool invalid) {
    uint64_t *b = &c->inv[(size_t)set * c->wps + way / 64], bit = 1ull << (way % 64);
    *b = invalid ? *b | bit : *b & ~bit;
}

/* The only ways a line's tag changes: an invalid way takes line la, or a line is dropped. */
static void line_set_tag(struct cache *c, uint32_t set, uint32_t way, uint64_t la) {
    struct cache_line *l = &set_lines(c, set)[way];
    WS_ASSERT(l->tag == CACHE_NO_TAG, "cache %s: tagging a present line", c->name);
    *l = (struct cache_line){.tag = la};
    c->present++;
    if (c->tag_hashed) oh_insert(&c->tags, (int32_t)((size_t)set * c->ways + way));
    inv_mark(c, set, way, false);
}

static void line_drop(struct cache *c, uint32_t set, uint32_t way) {
    struct cache_line *l = &set_lines(c, set)[way];
    WS_ASSERT(l->tag != CACHE_NO_TAG && !l->pending,
              "cache %s: dropping an absent or reserved line", c->name);
    if (c->tag_hashed) oh_remove(&c->tags, (int32_t)((size_t)set * c->ways + way));
    *l = (struct cache_line){.tag = CACHE_NO_TAG};
    c->present--;
    inv_mark(c, set, way, true);
}

/* Sets a present line's pending mask, keeping the per-set reserved count. */
static inline void line_set_pending(struct cache *c, uint32_t set, struct cache_line *l,
                                    uint8_t pending) {
    c->nres[set] = (uint16_t)(c->nres[set] + (pending != 0) - (l->pending != 0));
    l->pending = pending;
}

/* An invalid way first (the lowest), else the policy's choice among non-reserved ways; NIL if
 * all are reserved. */
static int32_t choose_victim(const struct cache *c, uint32_t set) {
    const uint64_t *b = &c->inv[(size_t)set * c->wps];
    for (uint32_t i = 0; i < c->wps; i++)
        if (b[i]) return (int32_t)(i * 64 + (uint32_t)__builtin_ctzll(b[i]));
    if (c->nres[set] >= c->ways) return NIL;
    const struct cache_line *l = set_lines(c, set);
    uint32_t v = c->repl->victim(c->rst, set, l, c->ways);
    WS_ASSERT(v < c->ways && !cache_line_reserved(&l[v]),
              "cache %s: policy %s chose way %u of set %u, which is reserved or out of range",
              c->name, c->repl->name, v, set);
    return (int32_t)v;
}

static inline uint32_t mq_free(const struct cache *c) {
    return c->mq_n >= c->mq_limit ? 0 : c->mq_limit - c->mq_n;
}

static void mq_push(struct cache *c, struct mem_req *r, uint64_t la, uint8_t sectors, int kind) {
    WS_ASSERT(c->mq_n < c->mq_cap, "cache %s: miss-queue ring overflow", c->name);
    uint32_t t = c->mq_head + c->mq_n;
    if (t >= c->mq_cap) t -= c->mq_cap;
    c->mq[t] =
        (struct cache_miss){.req = r, .line_addr = la, .sectors = sectors, .kind = (uint8_t)kind};
    c->mq_n++;
}

static void decide_write(const struct cache *c, const struct mem_req *r, struct plan *p,
                         const struct cache_line *l) {
    const struct cache_cfg *cc = &c->cfg;
    uint32_t slots = 0;
    bool keep = !cc->streaming;
    p->out = l ? CACHE_HIT : CACHE_MISS;
    if (r->kind == MEM_ATOMIC) {
        /* atomics are performed below: drop the local copy of the touched sectors */
        p->clear = p->need;
        p->down = MEM_ATOMIC;
    } else if (cc->write == CACHE_WRITE_EVICT) {
        p->clear = p->need;
        p->down = MEM_STORE;
    } else if (l) {
        p->touch = true;
        p->set_valid = p->need;
        if (cc->write == CACHE_WRITE_BACK)
            p->set_dirty = p->need;
        else
            p->down = MEM_STORE;
    } else if (cc->write_alloc == CACHE_WRITE_ALLOC && keep) {
        p->victim = choose_victim(c, p->set);
        if (p->victim == NIL) {
            p->fail = CACHE_FAIL_LINE;
            return;
        }
        p->set_valid = p->need;
        if (cc->write == CACHE_WRITE_BACK)
            p->set_dirty = p->need;
        else
            p->down = MEM_STORE;
        if (set_lines(c, p->set)[p->victim].dirty) slots++;
    } else {
        p->down = MEM_STORE;
    }
    if (p->down >= 0) slots++;
    if (slots > mq_free(c)) p->fail = CACHE_FAIL_MISSQ;
}

/* Decides r given its line address, set and the way holding the line (NIL if absent). */
static void decide_at(const struct cache *c, const struct mem_req *r, struct plan *p, uint64_t la,
                      uint32_t set, int32_t way) {
    *p = (struct plan){.la = la, .set = set, .way = way, .victim = NIL, .m = NIL, .down = -1};
    WS_ASSERT(r->kind == MEM_LOAD || r->kind == MEM_STORE || r->kind == MEM_ATOMIC,
              "cache %s: request kind %u is not a load, store or atomic", c->name, r->kind);
    WS_ASSERT(r->sectors && !(r->sectors & ~c->full),
              "cache %s: sector mask 0x%x does not fit a line of %u sectors", c->name, r->sectors,
              (unsigned)__builtin_popcount(c->full));
    const struct cache_cfg *cc = &c->cfg;
    p->need = r->sectors;
    const struct cache_line *l = p->way == NIL ? NULL : &set_lines(c, p->set)[p->way];
    bool wb = cc->write == CACHE_WRITE_BACK;

    if (r->kind == MEM_STORE || (r->kind == MEM_ATOMIC && (!wb || cc->streaming))) {
        decide_write(c, r, p, l);
        return;
    }
    /* a load, or an atomic at a write-back cache (a read that dirties its sectors) */
    if (l && !(p->need & ~l->valid)) {
        p->out = CACHE_HIT;
        p->touch = true;
        if (r->kind == MEM_ATOMIC) p->set_dirty = p->need;
        return;
    }
    p->touch = l != NULL && cc->touch == CACHE_TOUCH_ACCESS;
    p->wait = true;
    p->missing = p->need & (uint8_t) ~(l ? l->valid : 0);
    p->m = mshr_find(c, p->la);
    uint8_t pend = p->m == NIL ? 0 : c->mshr[p->m].pending;
    p->fetch = p->missing & (uint8_t)~pend;
    if (!p->fetch) {
        p->out = CACHE_HIT_RESERVED;
        if (c->mshr[p->m].nwait >= cc->mshr_merge) p->fail = CACHE_FAIL_MERGE;
        return;
    }
    p->out = l ? CACHE_SECTOR_MISS : CACHE_MISS;
    bool keep = !cc->streaming, on_miss = cc->alloc == CACHE_ALLOC_ON_MISS;
    uint32_t slots = 1;
    if (!l && keep && on_miss) {
        p->victim = choose_victim(c, p->set);
        if (p->victim == NIL) {
            p->fail = CACHE_FAIL_LINE;
            return;
        }
        if (set_lines(c, p->set)[p->victim].dirty) slots++;
    }
    p->pend_line = keep && on_miss;
    if (p->m != NIL) {
        if (c->mshr[p->m].nwait >= cc->mshr_merge) {
            p->fail = CACHE_FAIL_MERGE;
            return;
        }
    } else if (c->mshr_free == NIL) {
        p->fail = CACHE_FAIL_MSHR;
        return;
    }
    if (slots > mq_free(c)) p->fail = CACHE_FAIL_MISSQ;
}

static void decide(const struct cache *c, const struct mem_req *r, struct plan *p) {
    uint64_t la = r->addr & ~c->line_mask;
    uint32_t set = cache_index_set(&c->ix, la);
    decide_at(c, r, p, la, set, find_way(c, set, la));
}

/* Replaces way v of the set with line la (no sectors yet); returns the victim's dirty mask so
 * the caller queues its writeback after its own entries. */
static uint8_t replace(struct cache *c, uint32_t set, uint32_t v, uint64_t la, uint64_t now,
                       uint64_t *wb_la) {
    struct cache_line *l = &set_lines(c, set)[v];
    uint8_t dirty = 0;
    if (l->tag != CACHE_NO_TAG) {
        if (l->valid) c->st.evictions++;
        dirty = l->dirty;
        *wb_la = l->tag;
        if (c->repl->on_evict) c->repl->on_evict(c->rst, set, v);
        line_drop(c, set, v);
    }
    line_set_tag(c, set, v, la);
    c->repl->on_insert(c->rst, set, v, now);
    return dirty;
}

static void queue_writeback(struct cache *c, uint64_t la, uint8_t dirty) {
    if (!dirty) return;
    mq_push(c, NULL, la, dirty, MEM_WRITEBACK);
    c->st.writebacks++;
}

static void add_waiter(struct cache *c, int32_t m, struct mem_req *r, uint8_t awaiting) {
    int32_t i = c->w_free;
    WS_ASSERT(i != NIL, "cache %s: waiter pool exhausted", c->name);
    c->w_free = c->w[i].next;
    c->w[i] = (struct waiter){.r = r,
                              .next = NIL,
                              .awaiting = awaiting,
                              .atomic = r->kind == MEM_ATOMIC ? r->sectors : 0};
    struct mshr *e = &c->mshr[m];
    if (e->tail == NIL)
        e->head = i;
    else
        c->w[e->tail].next = i;
    e->tail = i;
    e->nwait++;
}

enum cache_outcome cache_access(struct cache *c, struct mem_req *r, uint64_t now, bool *kept,
                                enum cache_fail *fail) {
    uint64_t la = r->addr & ~c->line_mask;
    uint32_t set = cache_index_set(&c->ix, la);
    int32_t way = find_way(c, set, la);
    /* fast path: a load hit is a lookup and a policy touch */
    if (r->kind == MEM_LOAD && way != NIL && r->sectors &&
        !(r->sectors & ~set_lines(c, set)[way].valid)) {
        c->st.access[0][CACHE_HIT]++;
        c->version++;
        c->repl->on_hit(c->rst, set, (uint32_t)way, now);
        if (kept) *kept = false;
        if (fail) *fail = CACHE_FAIL_NONE;
        return CACHE_HIT;
    }
    struct plan p;
    decide_at(c, r, &p, la, set, way);
    int wr = r->kind != MEM_LOAD;
    if (kept) *kept = false;
    if (fail) *fail = p.fail;
    if (p.fail != CACHE_FAIL_NONE) {
        c->st.access[wr][CACHE_RESFAIL]++;
        c->st.fail[p.fail]++;
        return CACHE_RESFAIL;
    }
    c->st.access[wr][p.out]++;
    c->version++;
    uint8_t wb_dirty = 0;
    uint64_t wb_la = 0;
    int32_t lw = p.way; /* the line the access leaves its mark on */
    if (p.victim != NIL) {
        wb_dirty = replace(c, p.set, (uint32_t)p.victim, p.la, now, &wb_la);
        lw = p.victim;
    } else if (p.way != NIL && p.touch) {
        c->repl->on_hit(c->rst, p.set, (uint32_t)p.way, now);
    }
    if (lw != NIL) {
        struct cache_line *l = &set_lines(c, p.set)[lw];
        l->valid = (uint8_t)((l->valid | p.set_valid) & ~p.clear);
        l->dirty = (uint8_t)((l->dirty | p.set_dirty) & ~p.clear);
        if (p.pend_line) line_set_pending(c, p.set, l, l->pending | p.fetch);
        if (!l->valid && !l->pending) line_drop(c, p.set, (uint32_t)lw);
    }
    if (p.fetch) {
        int32_t m = p.m == NIL ? mshr_alloc(c, p.la) : p.m;
        c->mshr[m].pending |= p.fetch;
        p.m = m;
        mq_push(c, r, p.la, p.fetch, MEM_LOAD);
    }
    if (p.wait) add_waiter(c, p.m, r, p.missing);
    if (p.down >= 0) {
        mq_push(c, r, p.la, p.need, p.down);
        c->st.bypassed_writes++;
    }
    queue_writeback(c, wb_la, wb_dirty);
    if (kept) *kept = p.wait;
    return p.out;
}

enum cache_outcome cache_probe(const struct cache *c, const struct mem_req *r) {
    struct plan p;
    decide(c, r, &p);
    return p.fail != CACHE_FAIL_NONE ? CACHE_RESFAIL : p.out;
}

bool cache_miss_pending(const struct cache *c) {
    return c->mq_n != 0;
}

const struct cache_miss *cache_miss_peek(const struct cache *c) {
    return c->mq_n ? &c->mq[c->mq_head] : NULL;
}

void cache_miss_pop(struct cache *c) {
    WS_ASSERT(c->mq_n, "cache %s: pop from an empty miss queue", c->name);
    c->version++;
    if (++c->mq_head == c->mq_cap) c->mq_head = 0;
    c->mq_n--;
}

void cache_fill(struct cache *c, uint64_t line_addr, uint8_t sectors, uint64_t now) {
    cache_fill_from(c, line_addr, sectors, 0, now);
}

void cache_fill_from(struct cache *c, uint64_t line_addr, uint8_t sectors, uint8_t offchip,
                     uint64_t now) {
    uint64_t la = line_addr & ~c->line_mask;
    int32_t m = mshr_find(c, la);
    WS_ASSERT(m != NIL, "cache %s: fill of line 0x%llx that has no MSHR entry", c->name,
              (unsigned long long)la);
    struct mshr *e = &c->mshr[m];
    uint8_t s = sectors & e->pending;
    WS_ASSERT(s, "cache %s: fill of sectors 0x%x of line 0x%llx, none pending (0x%x)", c->name,
              sectors, (unsigned long long)la, e->pending);
    e->pending &= (uint8_t)~s;
    c->st.fills++;
    c->version++;

    struct cache_line *l = NULL;
    if (!c->cfg.streaming) {
        uint32_t set = cache_index_set(&c->ix, la);
        int32_t way = find_way(c, set, la);
        if (way == NIL) {
            /* allocate-on-fill (or no line kept): the victim is chosen now; a set whose ways
             * are all reserved just does not keep the data */
            int32_t v = choose_victim(c, set);
            if (v != NIL) {
                uint64_t wb_la = 0;
                uint8_t d = replace(c, set, (uint32_t)v, la, now, &wb_la);
                queue_writeback(c, wb_la, d);
                way = v;
            }
        } else if (c->cfg.touch == CACHE_TOUCH_FILL) {
            /* the miss access left the line's age alone: the fill is its use */
            c->repl->on_hit(c->rst, set, (uint32_t)way, now);
        }
        if (way != NIL) {
            l = &set_lines(c, set)[way];
            l->valid |= s;
            line_set_pending(c, set, l, l->pending & (uint8_t)~s);
        }
    }

    bool wb = c->cfg.write == CACHE_WRITE_BACK;
    int32_t prev = NIL;
    for (int32_t i = e->head; i != NIL;) {
        struct waiter *w = &c->w[i];
        int32_t next = w->next;
        w->offchip |= (uint8_t)(w->awaiting & s & offchip);
        w->awaiting &= (uint8_t)~s;
        if (!w->awaiting) {
            struct mem_req *r = w->r;
            r->offchip_sectors = w->offchip;
            if (w->atomic && wb && l) {
                l->valid |= w->atomic;
                l->dirty |= w->atomic;
            }
            r->next = NULL;
            if (c->rdy_tail)
                c->rdy_tail->next = r;
            else
                c->rdy_head = r;
            c->rdy_tail = r;
            if (prev == NIL)
                e->head = next;
            else
                c->w[prev].next = next;
            if (e->tail == i) e->tail = prev;
            e->nwait--;
            w->next = c->w_free;
            c->w_free = i;
        } else {
            prev = i;
        }
        i = next;
    }
    if (!e->pending) {
        WS_ASSERT(e->nwait == 0, "cache %s: line 0x%llx filled with %u requests still waiting",
                  c->name, (unsigned long long)la, e->nwait);
        mshr_release(c, m);
    }
}

struct mem_req *cache_ready_pop(struct cache *c) {
    struct mem_req *r = c->rdy_head;
    if (r) {
        c->rdy_head = r->next;
        if (!c->rdy_head) c->rdy_tail = NULL;
        r->next = NULL;
    }
    return r;
}

bool cache_ready_pending(const struct cache *c) {
    return c->rdy_head != NULL;
}

uint32_t cache_mshr_used(const struct cache *c) {
    return c->mshr_used;
}

uint32_t cache_set_of(const struct cache *c, uint64_t addr) {
    return cache_index_set(&c->ix, addr & ~c->line_mask);
}

bool cache_idle(const struct cache *c) {
    return c->mshr_used == 0 && c->mq_n == 0 && c->rdy_head == NULL;
}

bool cache_line_state(const struct cache *c, uint64_t addr, uint8_t *valid, uint8_t *dirty,
                      uint8_t *pending) {
    uint64_t la = addr & ~c->line_mask;
    uint32_t set = cache_index_set(&c->ix, la);
    int32_t w = find_way(c, set, la);
    const struct cache_line *l = w == NIL ? NULL : &set_lines(c, set)[w];
    if (valid) *valid = l ? l->valid : 0;
    if (dirty) *dirty = l ? l->dirty : 0;
    if (pending) *pending = l ? l->pending : 0;
    return l != NULL;
}

int32_t cache_line_way(const struct cache *c, uint64_t addr) {
    uint64_t la = addr & ~c->line_mask;
    return find_way(c, cache_index_set(&c->ix, la), la);
}

uint32_t cache_miss_len(const struct cache *c) {
    return c->mq_n;
}

const struct cache_cfg *cache_cfg_of(const struct cache *c) {
    return &c->cfg;
}

void cache_finish(struct cache *c) {
    struct cache_stats *s = &c->st;
    uint64_t acc = 0, fails = 0;
    for (int w = 0; w < 2; w++) {
        for (int o = 0; o < CACHE_NOUTCOME; o++) acc += s->access[w][o];
        fails += s->access[w][CACHE_RESFAIL];
    }
    s->accesses = acc;
    s->hits = s->access[0][CACHE_HIT] + s->access[1][CACHE_HIT];
    s->misses = s->access[0][CACHE_SECTOR_MISS] + s->access[0][CACHE_MISS] +
                s->access[1][CACHE_SECTOR_MISS] + s->access[1][CACHE_MISS];
    s->miss_rate = acc > fails ? (double)s->misses / (double)(acc - fails) : 0.0;
}

const struct cache_stats *cache_stats(const struct cache *c) {
    return &c->st;
}

void cache_uncount(struct cache *c, const struct cache_stats *before) {
    uint64_t ev = c->st.evictions, wb = c->st.writebacks;
    c->st = *before;
    c->st.evictions = ev;
    c->st.writebacks = wb;
}

uint64_t cache_version(const struct cache *c) {
    return c->version;
}

void cache_count_resfail(struct cache *c, const struct mem_req *r, enum cache_fail f) {
    cache_count_resfail_n(c, r, f, 1);
}

void cache_count_resfail_n(struct cache *c, const struct mem_req *r, enum cache_fail f,
                           uint64_t n) {
    c->st.access[r->kind != MEM_LOAD][CACHE_RESFAIL] += n;
    c->st.fail[f] += n;
}

void cache_invalidate(struct cache *c) {
    c->version++;
    /* lines being filled keep their reservation so the fill still finds them */
    for (uint32_t set = 0; set < c->sets; set++)
        for (uint32_t w = 0; w < c->ways; w++) {
            struct cache_line *l = &set_lines(c, set)[w];
            l->valid = l->dirty = 0;
            if (l->tag != CACHE_NO_TAG && !l->pending) line_drop(c, set, w);
        }
}

struct cache *cache_create(const struct cache_cfg *cc, const char *name, struct ws_err *e) {
    if (cache_cfg_validate(cc, name, NULL, e) != 0) return NULL;
    struct cache *c = calloc(1, sizeof *c);
    if (!c) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    c->cfg = *cc;
    snprintf(c->name, sizeof c->name, "%s", name);
    c->sets = (uint32_t)cc->sets;
    c->ways = (uint32_t)cc->ways;
    uint32_t nsect = (uint32_t)(cc->line / cc->sector);
    c->full = (uint8_t)((1u << nsect) - 1);
    c->line_mask = (uint64_t)cc->line - 1;
    if (cache_index_init(&c->ix, cc->index, (uint64_t)cc->sets, (uint64_t)cc->line, e) != 0)
        goto fail;
    c->repl = cache_repl_find(cc->repl);
    struct cache_repl_env env = {c->sets, c->ways};
    c->rst = c->repl->create(&env, e);
    if (!c->rst) goto fail;

    size_t nl = (size_t)c->sets * c->ways;
    c->nmshr = (uint32_t)cc->mshrs;
    c->wps = (c->ways + 63) / 64;
    c->tag_hashed = c->ways >= TAG_HASH_MIN_WAYS;
    size_t nw = (size_t)cc->mshrs * (size_t)cc->mshr_merge;
    /* spare ring slots for writebacks queued at fill time, at most one per outstanding fetch */
    c->mq_limit = (uint32_t)cc->miss_queue;
    c->mq_cap = c->mq_limit + c->nmshr * nsect;
    c->lines = malloc(nl * sizeof *c->lines);
    c->mshr = malloc(c->nmshr * sizeof *c->mshr);
    c->w = malloc(nw * sizeof *c->w);
    c->mq = malloc(c->mq_cap * sizeof *c->mq);
    c->inv = calloc((size_t)c->sets * c->wps, sizeof *c->inv);
    c->nres = calloc(c->sets, sizeof *c->nres);
    /* tables at most half (MSHRs) or a quarter (lines) full keep probe chains short */
    if (!c->lines || !c->mshr || !c->w || !c->mq || !c->inv || !c->nres ||
        oh_init(&c->mh, 2 * c->nmshr, c->ix.line_shift, c->mshr, sizeof *c->mshr) != 0 ||
        (c->tag_hashed && oh_init(&c->tags, (uint32_t)(4 * nl), c->ix.line_shift, c->lines,
                                  sizeof *c->lines) != 0)) {
        ws_fail(e, "out of memory (cache %s)", name);
        goto fail;
    }
    for (size_t i = 0; i < nl; i++) c->lines[i] = (struct cache_line){.tag = CACHE_NO_TAG};
    for (uint32_t s = 0; s < c->sets; s++)
        for (uint32_t w = 0; w < c->ways; w++) inv_mark(c, s, w, true);
    for (uint32_t i = 0; i < c->nmshr; i++)
        c->mshr[i] = (struct mshr){.head = i + 1 < c->nmshr ? (int32_t)i + 1 : NIL};
    c->mshr_free = 0;
    for (size_t i = 0; i < nw; i++)
        c->w[i] = (struct waiter){.next = i + 1 < nw ? (int32_t)i + 1 : NIL};
    c->w_free = 0;
    return c;
fail:
    cache_destroy(c);
    return NULL;
}

void cache_destroy(struct cache *c) {
    if (!c) return;
    if (c->rst) c->repl->destroy(c->rst);
    free(c->lines);
    free(c->mshr);
    free(c->mh.tab);
    free(c->tags.tab);
    free(c->inv);
    free(c->nres);
    free(c->w);
    free(c->mq);
    free(c);
}
