/* Device memory: a bump allocator over address space, with one host block per allocation. */
#include "workload/kernels/devmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dm_block {
    uint64_t addr, bytes;
    uint8_t *host;
    char what[32];
};

struct devmem {
    uint64_t base, top, total;
    struct dm_block *b;
    size_t n, cap;
    size_t last; /* block of the previous lookup: kernel accesses cluster in one array */
};

struct devmem *devmem_create(uint64_t base) {
    struct devmem *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->base = d->top = (base + DEVMEM_ALIGN - 1) & ~(uint64_t)(DEVMEM_ALIGN - 1);
    return d;
}

void devmem_destroy(struct devmem *d) {
    if (!d) return;
    for (size_t i = 0; i < d->n; i++) free(d->b[i].host);
    free(d->b);
    free(d);
}

uint64_t devmem_alloc(struct devmem *d, uint64_t bytes, const char *what, struct ws_err *e) {
    if (bytes == 0) {
        ws_fail(e, "device allocation '%s' of 0 bytes", what);
        return 0;
    }
    if (bytes > ((uint64_t)1 << 40) || d->top + bytes < d->top) {
        ws_fail(e, "device allocation '%s' of %llu bytes is too large", what,
                (unsigned long long)bytes);
        return 0;
    }
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 8;
        struct dm_block *nb = realloc(d->b, cap * sizeof *nb);
        if (!nb) {
            ws_fail(e, "device allocation '%s': out of host memory", what);
            return 0;
        }
        d->b = nb;
        d->cap = cap;
    }
    uint8_t *host = calloc(1, (size_t)bytes);
    if (!host) {
        ws_fail(e, "device allocation '%s' of %llu bytes: out of host memory", what,
                (unsigned long long)bytes);
        return 0;
    }
    struct dm_block *blk = &d->b[d->n++];
    blk->addr = d->top;
    blk->bytes = bytes;
    blk->host = host;
    snprintf(blk->what, sizeof blk->what, "%s", what);
    d->top += (bytes + DEVMEM_ALIGN - 1) & ~(uint64_t)(DEVMEM_ALIGN - 1);
    d->total += bytes;
    return blk->addr;
}

/* Blocks are in increasing address order (allocation order), so a binary search finds one. */
static const struct dm_block *find(struct devmem *d, uint64_t addr) {
    if (d->n == 0) return NULL;
    const struct dm_block *c = &d->b[d->last];
    if (addr >= c->addr && addr - c->addr < c->bytes) return c;
    size_t lo = 0, hi = d->n;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (d->b[mid].addr <= addr)
            lo = mid;
        else
            hi = mid;
    }
    c = &d->b[lo];
    if (addr < c->addr || addr - c->addr >= c->bytes) return NULL;
    d->last = lo;
    return c;
}

void *devmem_host(struct devmem *d, uint64_t addr, uint64_t bytes) {
    const struct dm_block *c = find(d, addr);
    if (!c || bytes > c->bytes - (addr - c->addr)) return NULL;
    return c->host + (addr - c->addr);
}

bool devmem_span(struct devmem *d, uint64_t addr, struct devmem_span *s) {
    const struct dm_block *c = find(d, addr);
    if (!c) return false;
    s->addr = c->addr;
    s->bytes = c->bytes;
    s->host = c->host;
    return true;
}

const char *devmem_what(const struct devmem *d, uint64_t addr) {
    for (size_t i = 0; i < d->n; i++)
        if (addr >= d->b[i].addr && addr - d->b[i].addr < d->b[i].bytes) return d->b[i].what;
    return "?";
}

uint64_t devmem_top(const struct devmem *d) {
    return d->top;
}
uint64_t devmem_bytes(const struct devmem *d) {
    return d->total;
}
