#include "gpu/req_pool.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"

enum { CHUNK = 1024 };

void req_pool_init(struct req_pool *p) {
    memset(p, 0, sizeof *p);
}

void req_pool_free_all(struct req_pool *p) {
    for (uint32_t i = 0; i < p->nchunks; i++) free(p->chunks[i]);
    free(p->chunks);
    memset(p, 0, sizeof *p);
}

static void grow(struct req_pool *p) {
    if (p->nchunks == p->cap_chunks) {
        uint32_t cap = p->cap_chunks ? 2 * p->cap_chunks : 16;
        void **c = realloc(p->chunks, cap * sizeof *c);
        WS_ASSERT(c, "out of memory growing the request pool");
        p->chunks = c;
        p->cap_chunks = cap;
    }
    struct mem_req *blk = malloc(CHUNK * sizeof *blk);
    WS_ASSERT(blk, "out of memory growing the request pool");
    p->chunks[p->nchunks++] = blk;
    for (int i = CHUNK - 1; i >= 0; i--) {
        blk[i].next = p->free;
        p->free = &blk[i];
    }
}

struct mem_req *req_pool_get(struct req_pool *p) {
    if (!p->free) grow(p);
    struct mem_req *r = p->free;
    p->free = r->next;
    memset(r, 0, sizeof *r);
    p->allocated++;
    if (req_pool_live(p) > p->live_max) p->live_max = req_pool_live(p);
    return r;
}

void req_pool_put(struct req_pool *p, struct mem_req *r) {
    WS_ASSERT(p->freed < p->allocated, "request freed twice");
    r->next = p->free;
    p->free = r;
    p->freed++;
}
