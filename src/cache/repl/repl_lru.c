/* Least-recently-used replacement, kept as a recency list per set (intrusive, doubly linked
 * through per-line links): a touch moves the way to the most-recent end in O(1), and the victim
 * is the first non-reserved way from the least-recent end, so a miss does not scan every way
 * of a highly associative set (reserved ways are recent insertions, so few are skipped).
 *
 * This is exactly true LRU on the order of touches: the list order equals the order of each
 * way's last hit or insertion, and victim() is only asked once every way holds a line, i.e.
 * once every way has been inserted. */
#include "cache/repl/repl.h"

#include <stdlib.h>

enum { LRU_NONE = UINT16_MAX };

struct lru_link {
    uint16_t prev, next; /* towards the least / most recent way */
};

struct lru_ends {
    uint16_t lru, mru;
};

struct lru {
    uint32_t ways;
    struct lru_ends *ends;  /* per set */
    struct lru_link link[]; /* sets * ways */
};

static void *lru_create(const struct cache_repl_env *env, struct ws_err *e) {
    size_t n = (size_t)env->sets * env->ways;
    if (env->ways >= LRU_NONE) {
        ws_fail(e, "LRU supports at most %u ways (got %u)", LRU_NONE - 1, env->ways);
        return NULL;
    }
    struct lru *l = malloc(sizeof *l + n * sizeof l->link[0]);
    struct lru_ends *ends = malloc(env->sets * sizeof *ends);
    if (!l || !ends) {
        free(l);
        free(ends);
        ws_fail(e, "out of memory (LRU state of %zu lines)", n);
        return NULL;
    }
    l->ways = env->ways;
    l->ends = ends;
    /* any initial order will do: every way is inserted before the first victim() */
    for (uint32_t s = 0; s < env->sets; s++) {
        struct lru_link *k = &l->link[(size_t)s * env->ways];
        for (uint32_t w = 0; w < env->ways; w++)
            k[w] = (struct lru_link){.prev = w ? (uint16_t)(w - 1) : LRU_NONE,
                                     .next = w + 1 < env->ways ? (uint16_t)(w + 1) : LRU_NONE};
        ends[s] = (struct lru_ends){.lru = 0, .mru = (uint16_t)(env->ways - 1)};
    }
    return l;
}

static void lru_destroy(void *st) {
    struct lru *l = st;
    if (l) free(l->ends);
    free(l);
}

static void lru_touch(void *st, uint32_t set, uint32_t way, uint64_t now) {
    (void)now;
    struct lru *l = st;
    struct lru_ends *e = &l->ends[set];
    if (e->mru == way) return;
    struct lru_link *k = &l->link[(size_t)set * l->ways];
    uint16_t p = k[way].prev, n = k[way].next; /* n exists: way is not the most recent */
    if (p == LRU_NONE)
        e->lru = n;
    else
        k[p].next = n;
    k[n].prev = p;
    k[way] = (struct lru_link){.prev = e->mru, .next = LRU_NONE};
    k[e->mru].next = (uint16_t)way;
    e->mru = (uint16_t)way;
}

static uint32_t lru_victim(const void *st, uint32_t set, const struct cache_line *lines,
                           uint32_t ways) {
    const struct lru *l = st;
    const struct lru_link *k = &l->link[(size_t)set * l->ways];
    for (uint32_t w = l->ends[set].lru; w != LRU_NONE; w = k[w].next)
        if (!cache_line_reserved(&lines[w])) return w;
    return ways;
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
