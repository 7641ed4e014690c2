/* One sectored, set-associative cache with MSHRs and a miss queue, used for both the L1D of an
 * SM and every L2 slice. It holds tags, sector valid/dirty bits, reservations and MSHRs; it does
 * not model time except through `now` stamps for replacement, and it never allocates requests:
 * the requests it keeps are pointers owned by the caller (the L1D/L2 wrappers), which also model
 * the hit latency and move miss-queue entries downstream.
 *
 * Access outcomes follow GPGPU-Sim's sectored cache (the baseline the seeds' papers use):
 *   HIT           every requested sector is valid.
 *   HIT_RESERVED  the line is allocated and every requested sector that is not valid is already
 *                 being fetched: the request merges into that MSHR entry.
 *   SECTOR_MISS   the line is present but some requested sectors are neither valid nor pending.
 *   MISS          the line is absent: a line (alloc-on-miss) or only an MSHR (alloc-on-fill) is
 *                 reserved, and a fetch goes to the miss queue.
 *   RESFAIL       nothing could be reserved (cause in cache_access_info.fail): the caller retries
 *                 the same request later; the cache state is unchanged.
 *
 * Plugins: the set index function (`<sec>.index`) and the replacement policy (`<sec>.repl`)
 * are chosen by name from tables (cache/index/, cache/repl/). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/cfg.h"
#include "base/err.h"
#include "base/stats.h"
#include "mem/mem_req.h"

enum cache_alloc { CACHE_ALLOC_ON_MISS, CACHE_ALLOC_ON_FILL };
/* When a miss to a present line (a sector miss, or a merge into a fetch under way) counts as a
 * use of the line for replacement: at the access, or when its data are filled in. */
enum cache_touch { CACHE_TOUCH_ACCESS, CACHE_TOUCH_FILL };
enum cache_write {
    CACHE_WRITE_BACK,    /* writes mark sectors dirty; dirty sectors are written back on eviction */
    CACHE_WRITE_THROUGH, /* writes update a present line and always go downstream */
    CACHE_WRITE_EVICT,   /* a write invalidates the sectors it touches and goes downstream */
};
enum cache_write_alloc {
    CACHE_NO_WRITE_ALLOC, /* a write miss goes downstream without allocating */
    CACHE_WRITE_ALLOC,    /* a write miss allocates the line and writes its full sectors in place
                             (GPU stores write whole 32 B sectors, so no fetch is needed) */
};

struct cache_cfg {
    int64_t sets, ways, line, sector; /* line and sector in bytes; line/sector <= 8 sectors */
    int64_t mshrs;                    /* MSHR entries (distinct lines being fetched) */
    int64_t mshr_merge;               /* requests one MSHR entry can hold, the first included */
    int64_t miss_queue;               /* miss-queue entries (fetches and writebacks waiting) */
    int64_t hit_lat;                  /* cycles of the owning clock domain (used by the wrapper) */
    int alloc;                        /* enum cache_alloc */
    int write;                        /* enum cache_write */
    int write_alloc;                  /* enum cache_write_alloc */
    int touch;                        /* enum cache_touch */
    bool streaming;                   /* no-allocate: misses never reserve a line (sectors are
                                         fetched into the MSHR and not kept) */
    char index[CFG_STR_MAX];          /* index function name (cache/index) */
    char repl[CFG_STR_MAX];           /* replacement policy name (cache/repl) */
};

/* Binds `<sec>.sets`, `<sec>.ways`, ... for sec = "l1d" or "l2" (tables are static per section,
 * so cfg_dump can show them). Values left unset keep the struct's prior (preset) values. */
int cache_cfg_configure(struct cache_cfg *cc, const char *sec, struct cfg *c, struct ws_err *e);
/* Geometry and plugin-name checks (power-of-two line/sector, sets*ways > 0, known names). The
 * message names the section key at fault, with its origin from c when c is not NULL. */
int cache_cfg_validate(const struct cache_cfg *cc, const char *sec, const struct cfg *c,
                       struct ws_err *e);
/* The key table of section "l1d" or "l2" (for `warpsim list`/cfg_print_keys); NULL otherwise. */
const struct cfg_key *cache_cfg_keys(const char *sec, unsigned *n);

enum cache_outcome {
    CACHE_HIT,
    CACHE_HIT_RESERVED,
    CACHE_SECTOR_MISS,
    CACHE_MISS,
    CACHE_RESFAIL,
    CACHE_NOUTCOME
};
enum cache_fail {
    CACHE_FAIL_NONE,
    CACHE_FAIL_LINE,  /* every way of the set is reserved (pending fills) */
    CACHE_FAIL_MSHR,  /* no free MSHR entry */
    CACHE_FAIL_MERGE, /* the line's MSHR entry holds mshr_merge requests already */
    CACHE_FAIL_MISSQ, /* the miss queue is full */
    CACHE_NFAIL
};

struct cache_stats {
    uint64_t access[2][CACHE_NOUTCOME]; /* [is_write][outcome], one per cache_access call */
    uint64_t fail[CACHE_NFAIL];         /* RESFAIL outcomes by cause */
    uint64_t fills, evictions, writebacks, bypassed_writes;
    uint64_t accesses, hits, misses; /* derived at finish: reads+writes, HIT, SECTOR_MISS+MISS */
    double miss_rate;                /* derived: misses / (accesses - RESFAIL) */
};
extern const struct stat_desc cache_stat_desc[];
extern const unsigned cache_stat_ndesc;

/* One entry leaving the cache for the next level. */
struct cache_miss {
    struct mem_req *req; /* the request that caused it (its origin is copied downstream);
                            NULL for a writeback */
    uint64_t line_addr;  /* line-aligned address */
    uint8_t sectors;     /* sectors to fetch (reads) or to write (writes, writebacks) */
    uint8_t kind;        /* enum mem_kind of the downstream request */
};

struct cache;

struct cache *cache_create(const struct cache_cfg *cc, const char *name, struct ws_err *e);
void cache_destroy(struct cache *c);

/* Looks up request r (r->addr anywhere inside the line, r->sectors the sectors it needs,
 * r->kind LOAD/STORE/ATOMIC). On SECTOR_MISS/MISS/HIT_RESERVED the cache keeps r in the line's
 * MSHR entry until cache_fill() makes all its sectors valid; on a write that goes downstream
 * without waiting (write-through, no-write-allocate) the miss queue gets an entry and r is NOT
 * kept (`*kept` false): the caller acknowledges it. `kept` may be NULL. While the cache keeps r,
 * r->next is the cache's (it chains the ready list). */
enum cache_outcome cache_access(struct cache *c, struct mem_req *r, uint64_t now, bool *kept,
                                enum cache_fail *fail);
/* Read-only probe: what cache_access would answer, without changing anything. */
enum cache_outcome cache_probe(const struct cache *c, const struct mem_req *r);

bool cache_miss_pending(const struct cache *c);
const struct cache_miss *cache_miss_peek(const struct cache *c);
void cache_miss_pop(struct cache *c);

/* Data for `sectors` of the line arrived: marks them valid (unless streaming / no line kept)
 * and moves every MSHR request whose sectors are now all valid to the ready list. */
void cache_fill(struct cache *c, uint64_t line_addr, uint8_t sectors, uint64_t now);
/* cache_fill where the data of `offchip` (a subset of `sectors`) came from DRAM: every request
 * it releases gets in r->offchip_sectors the sectors it waited for whose data came from DRAM in
 * this or an earlier fill, so a warp-load counts only the sectors DRAM served it, as
 * GPGPU-Sim's per-sector accesses would (cache_fill marks none). */
void cache_fill_from(struct cache *c, uint64_t line_addr, uint8_t sectors, uint8_t offchip,
                     uint64_t now);
/* Requests released by fills, in the order they merged. NULL when none. */
struct mem_req *cache_ready_pop(struct cache *c);
bool cache_ready_pending(const struct cache *c);

uint32_t cache_mshr_used(const struct cache *c);
uint32_t cache_set_of(const struct cache *c, uint64_t addr);
/* True when no MSHR entry, miss-queue entry or ready request remains. */
bool cache_idle(const struct cache *c);
/* Whether the line holding addr is present (valid or being filled into), with its sector masks
 * (each pointer may be NULL; all 0 when absent). For tests, checks and debugging. */
bool cache_line_state(const struct cache *c, uint64_t addr, uint8_t *valid, uint8_t *dirty,
                      uint8_t *pending);
/* The way of its set that holds the line of addr, or -1 when absent (for tests and checks:
 * which way a line lands in is what position-aware replacement policies see). */
int32_t cache_line_way(const struct cache *c, uint64_t addr);
/* Entries waiting in the miss queue. */
uint32_t cache_miss_len(const struct cache *c);
const struct cache_cfg *cache_cfg_of(const struct cache *c);
void cache_finish(struct cache *c);
const struct cache_stats *cache_stats(const struct cache *c);
/* Puts the access, outcome and fill counts back to `before` (taken with cache_stats): a line
 * installed as a warm-up is not an access; the evictions and writebacks it caused stay counted
 * (their data does move). */
void cache_uncount(struct cache *c, const struct cache_stats *before);
/* A number that changes whenever the cache's state changes in a way that can change what an
 * access decides (lines, LRU order, MSHRs, miss queue): an access turned back (CACHE_RESFAIL)
 * at one version is turned back the same way while the version stays. */
uint64_t cache_version(const struct cache *c);
/* Counts what a turned-back access counts (for a caller that knows the access would be turned
 * back for cause f: same request, same version). */
void cache_count_resfail(struct cache *c, const struct mem_req *r, enum cache_fail f);
/* The same for n retries at once (cycles a caller left out, each of which would have retried). */
void cache_count_resfail_n(struct cache *c, const struct mem_req *r, enum cache_fail f, uint64_t n);
/* Invalidates everything (kernel boundary flush of an L1); dirty lines are not written back. */
void cache_invalidate(struct cache *c);
