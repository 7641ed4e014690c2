/* Index-function registry and geometry setup (see index.h). */
#include "cache/index/index.h"

#include <string.h>

#define CACHE_INDEX(sym) extern const struct cache_index_fn cache_index_##sym;
#include "cache/index/index.def"
#undef CACHE_INDEX
#define CACHE_INDEX(sym) &cache_index_##sym,
const struct cache_index_fn *const cache_index_fns[] = {
#include "cache/index/index.def"
};
#undef CACHE_INDEX
const unsigned cache_index_nfns = sizeof cache_index_fns / sizeof cache_index_fns[0];

const struct cache_index_fn *cache_index_find(const char *name) {
    for (unsigned i = 0; i < cache_index_nfns; i++)
        if (strcmp(cache_index_fns[i]->name, name) == 0) return cache_index_fns[i];
    return NULL;
}

void cache_index_names(char *buf, unsigned n) {
    if (!n) return;
    buf[0] = '\0';
    for (unsigned i = 0; i < cache_index_nfns; i++) {
        strncat(buf, i ? ", " : "", n - strlen(buf) - 1);
        strncat(buf, cache_index_fns[i]->name, n - strlen(buf) - 1);
    }
}

static uint32_t log2_floor(uint64_t v) {
    uint32_t b = 0;
    while (v >>= 1) b++;
    return b;
}

int cache_index_init(struct cache_index *ix, const char *name, uint64_t sets, uint64_t line,
                     struct ws_err *e) {
    const struct cache_index_fn *fn = cache_index_find(name);
    if (!fn) {
        char list[256];
        cache_index_names(list, sizeof list);
        return ws_fail(e, "index function '%s' is not known (known: %s)", name, list);
    }
    if (sets < 1 || sets > UINT32_MAX || line < 1 || (line & (line - 1)))
        return ws_fail(e, "index function '%s': bad geometry (%llu sets, %llu B lines)", name,
                       (unsigned long long)sets, (unsigned long long)line);
    const char *why = fn->check ? fn->check(sets, line) : NULL;
    if (why)
        return ws_fail(e, "index function '%s' %s (sets = %llu)", name, why,
                       (unsigned long long)sets);
    memset(ix, 0, sizeof *ix);
    ix->fn = fn;
    ix->sets = (uint32_t)sets;
    ix->pow2 = (sets & (sets - 1)) == 0;
    ix->set_bits = ix->pow2 ? log2_floor(sets) : 0;
    ix->set_mask = ix->pow2 ? sets - 1 : 0;
    ix->line_shift = log2_floor(line);
    return 0;
}
