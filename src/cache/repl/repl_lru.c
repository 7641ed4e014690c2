/* Least-recently-used replacement. Each line's stamp is a per-cache sequence number rather than
 * the cycle, so several touches in one cycle still have a strict order (true LRU, and no tie
 * to break by way number). */
#include "cache/repl/repl.h"

#include <stdlib.h>

struct lru {
    uint32_t ways;
    uint64_t seq;
    uint64_t stamp[]; /* sets * ways */
};

static void *lru_create(const struct cache_repl_env *env, struct ws_err *e) {
    size_t n = (size_t)env->sets * env->ways;
    struct lru *l = calloc(1, sizeof *l + n * sizeof l->stamp[0]);
    if (!l) {
        ws_fail(e, "out of memory (LRU state of %zu lines)", n);
        return NULL;
    }
    l->ways = env->ways;
    return l;
}

static void lru_destroy(void *st) {
    free(st);
}

static void lru_touch(void *st, uint32_t set, uint32_t way, uint64_t now) {
    (void)now;
    struct lru *l = st;
    l->stamp[(size_t)set * l->ways + way] = ++l->seq;
}

static uint32_t lru_victim(const void *st, uint32_t set, const struct cache_line *lines,
                           uint32_t ways) {
    const struct lru *l = st;
    const uint64_t *s = &l->stamp[(size_t)set * l->ways];
    uint32_t best = ways;
    for (uint32_t w = 0; w < ways; w++)
        if (!cache_line_reserved(&lines[w]) && (best == ways || s[w] < s[best])) best = w;
    return best;
}

const struct cache_repl cache_repl_lru = {
    .name = "lru",
    .doc = "least recently used (hits and insertions make a line most recent)",
    .create = lru_create,
    .destroy = lru_destroy,
    .on_hit = lru_touch,
    .on_insert = lru_touch,
    .on_evict = NULL,
    .victim = lru_victim,
};
