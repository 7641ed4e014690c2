/* Upstream request counts per warp-load (see upstream.h): open addressing on the load id with
 * linear probing and backward-shift deletion, doubled when half full. Id 0 means "no id". */
#include "mem/upstream.h"

#include <stdlib.h>

#include "base/err.h"

struct slot {
    uint64_t id;
    uint32_t n;
};

struct upstream {
    struct slot *t;
    uint32_t mask, used;
};

static uint32_t home(const struct upstream *u, uint64_t id) {
    id ^= id >> 31;
    id *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(id >> 32) & u->mask;
}

struct upstream *upstream_create(void) {
    struct upstream *u = calloc(1, sizeof *u);
    if (!u) return NULL;
    u->mask = 4095;
    u->t = calloc(u->mask + 1, sizeof *u->t);
    if (!u->t) {
        free(u);
        return NULL;
    }
    return u;
}

void upstream_destroy(struct upstream *u) {
    if (!u) return;
    free(u->t);
    free(u);
}

static uint32_t find(const struct upstream *u, uint64_t id) {
    uint32_t i = home(u, id);
    while (u->t[i].id && u->t[i].id != id) i = (i + 1) & u->mask;
    return i;
}

static void grow(struct upstream *u) {
    struct slot *old = u->t;
    uint32_t n = u->mask + 1;
    struct slot *t = calloc(2 * (size_t)n, sizeof *t);
    WS_ASSERT(t, "upstream: out of memory");
    u->t = t;
    u->mask = 2 * n - 1;
    for (uint32_t i = 0; i < n; i++)
        if (old[i].id) u->t[find(u, old[i].id)] = old[i];
    free(old);
}

void upstream_add(struct upstream *u, uint64_t load_id, uint32_t n) {
    if (!load_id || !n) return;
    uint32_t i = find(u, load_id);
    if (!u->t[i].id) {
        if (2 * (u->used + 1) > u->mask + 1) {
            grow(u);
            i = find(u, load_id);
        }
        u->t[i].id = load_id;
        u->used++;
    }
    u->t[i].n += n;
}

void upstream_sub(struct upstream *u, uint64_t load_id) {
    if (!load_id) return;
    uint32_t i = find(u, load_id);
    if (!u->t[i].id || --u->t[i].n) return;
    /* backward-shift deletion keeps every probe chain unbroken */
    u->used--;
    for (uint32_t j = (i + 1) & u->mask; u->t[j].id; j = (j + 1) & u->mask) {
        uint32_t h = home(u, u->t[j].id);
        /* move j into the hole at i when its home does not lie cyclically in (i, j] */
        if (((j - h) & u->mask) >= ((j - i) & u->mask)) {
            u->t[i] = u->t[j];
            i = j;
        }
    }
    u->t[i].id = 0;
    u->t[i].n = 0;
}

uint32_t upstream_count(const struct upstream *u, uint64_t load_id) {
    if (!load_id) return 0;
    uint32_t i = find(u, load_id);
    return u->t[i].id ? u->t[i].n : 0;
}

uint32_t upstream_loads(const struct upstream *u) {
    return u->used;
}
