/* The `<sec>.index` seam: a set-index function is a named entry of index.def, chosen by config.
 * Each function maps a byte address to a set with the geometry precomputed in struct
 * cache_index, so the per-access cost is a few shifts and masks (plus one indirect call).
 * Adding one = a file index_<name>.c defining `const struct cache_index_fn cache_index_<name>`
 * and one line in index.def. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"

struct cache_index;

struct cache_index_fn {
    const char *name;
    const char *doc;
    /* Geometry constraint of this function: NULL when (sets, line) is fine, else why not
     * (a phrase such as "needs a power-of-two number of sets"). May be NULL itself. */
    const char *(*check)(uint64_t sets, uint64_t line);
    uint32_t (*set)(const struct cache_index *ix, uint64_t addr);
};

struct cache_index {
    const struct cache_index_fn *fn;
    uint32_t sets;
    uint32_t set_bits;   /* log2(sets) when sets is a power of two, else 0 */
    uint32_t line_shift; /* log2(line bytes) */
    uint64_t set_mask;   /* sets - 1 when sets is a power of two */
    bool pow2;
};

/* Registry (index.def). */
extern const struct cache_index_fn *const cache_index_fns[];
extern const unsigned cache_index_nfns;
const struct cache_index_fn *cache_index_find(const char *name);
/* Comma-separated names of all index functions (for messages). */
void cache_index_names(char *buf, unsigned n);

/* Sets up ix for `name` and the geometry (line a power of two); -1 with a message when the
 * name is unknown or the function rejects the geometry. */
int cache_index_init(struct cache_index *ix, const char *name, uint64_t sets, uint64_t line,
                     struct ws_err *e);

static inline uint32_t cache_index_set(const struct cache_index *ix, uint64_t addr) {
    return ix->fn->set(ix, addr);
}
