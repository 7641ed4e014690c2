/* The `<sec>.repl` seam: a replacement (and insertion) policy is a named entry of repl.def.
 * The cache owns the tags; a policy owns its per-line state (e.g. LRU stamps, RRPVs) in its own
 * struct, indexed by set * ways + way, and is told about every hit, insertion and eviction.
 *
 * Contract: victim() is called only when the set has no invalid way and at least one
 * non-reserved way; it must return a non-reserved way and must not change the policy state
 * (probes call it too), so aging/demotion belongs in on_evict/on_insert. Adding a policy = a
 * file repl_<name>.c defining `const struct cache_repl cache_repl_<name>` and one line in
 * repl.def. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"

enum { CACHE_MAX_SECTORS = 8 };
#define CACHE_NO_TAG UINT64_MAX

/* One way of a set as the cache keeps it. A line is invalid when tag == CACHE_NO_TAG (then
 * valid == dirty == pending == 0); it is reserved (cannot be evicted) while pending != 0, i.e.
 * while sectors of it are being fetched into it (allocate-on-miss). */
struct cache_line {
    uint64_t tag;    /* line-aligned address */
    uint8_t valid;   /* sectors holding data */
    uint8_t dirty;   /* sectors modified since fetched (subset of valid) */
    uint8_t pending; /* sectors being fetched into this line */
};

static inline bool cache_line_reserved(const struct cache_line *l) {
    return l->pending != 0;
}

struct cache_repl_env {
    uint32_t sets, ways;
};

struct cache_repl {
    const char *name;
    const char *doc;
    void *(*create)(const struct cache_repl_env *env, struct ws_err *e);
    void (*destroy)(void *st);
    /* A lookup found the line (hit, hit-reserved, sector miss, write hit). */
    void (*on_hit)(void *st, uint32_t set, uint32_t way, uint64_t now);
    /* A new line was placed in the way (at miss with allocate-on-miss, at fill otherwise). */
    void (*on_insert)(void *st, uint32_t set, uint32_t way, uint64_t now);
    /* The valid line in the way is being replaced. May be NULL. */
    void (*on_evict)(void *st, uint32_t set, uint32_t way);
    /* Way to replace among the non-reserved ones; `lines` are the set's ways. */
    uint32_t (*victim)(const void *st, uint32_t set, const struct cache_line *lines, uint32_t ways);
};

/* Registry (repl.def). */
extern const struct cache_repl *const cache_repls[];
extern const unsigned cache_nrepls;
const struct cache_repl *cache_repl_find(const char *name);
/* Comma-separated names of all policies (for messages). */
void cache_repl_names(char *buf, unsigned n);
