/* Pool of GPU memory requests. Requests are carved from chunks that are never returned to the
 * system before the pool is destroyed, so the steady state allocates nothing; the pool counts
 * allocations and frees so the end-of-run check can prove every request came back once. */
#pragma once

#include <stdint.h>

#include "mem/mem_req.h"

struct req_pool {
    struct mem_req *free;
    void **chunks;
    uint32_t nchunks, cap_chunks;
    uint64_t allocated, freed; /* lifetime counts */
    uint64_t live_max;         /* most requests alive at once */
};

void req_pool_init(struct req_pool *p);
void req_pool_free_all(struct req_pool *p);
/* A zeroed request (never NULL: out of memory is fatal). */
struct mem_req *req_pool_get(struct req_pool *p);
void req_pool_put(struct req_pool *p, struct mem_req *r);
static inline uint64_t req_pool_live(const struct req_pool *p) {
    return p->allocated - p->freed;
}
