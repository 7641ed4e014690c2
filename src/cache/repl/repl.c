/* Replacement-policy registry (see repl.h). */
#include "cache/repl/repl.h"

#include <string.h>

#define CACHE_REPL(sym) extern const struct cache_repl cache_repl_##sym;
#include "cache/repl/repl.def"
#undef CACHE_REPL
#define CACHE_REPL(sym) &cache_repl_##sym,
const struct cache_repl *const cache_repls[] = {
#include "cache/repl/repl.def"
};
#undef CACHE_REPL
const unsigned cache_nrepls = sizeof cache_repls / sizeof cache_repls[0];

const struct cache_repl *cache_repl_find(const char *name) {
    for (unsigned i = 0; i < cache_nrepls; i++)
        if (strcmp(cache_repls[i]->name, name) == 0) return cache_repls[i];
    return NULL;
}

void cache_repl_names(char *buf, unsigned n) {
    if (!n) return;
    buf[0] = '\0';
    for (unsigned i = 0; i < cache_nrepls; i++) {
        strncat(buf, i ? ", " : "", n - strlen(buf) - 1);
        strncat(buf, cache_repls[i]->name, n - strlen(buf) - 1);
    }
}
