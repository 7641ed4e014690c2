/* A set of small integer keys (a controller's banks), each with a class and the cycle at which it
 * becomes ready. Keys ready by the current cycle form one bitmap; the others ("pending") sit in a
 * 64-slot timing wheel by cycle (or, 64 or more cycles ahead, in a "far" bitmap). "What is ready
 * now" is then a bitmap read, moving time forward costs one step per occupied wheel slot passed,
 * and "when is anything next ready" is a rotate and a count of trailing zeros, instead of a scan
 * over every bank each cycle.
 *
 * Use: rs_advance(now) for non-decreasing `now`; rs_put() inserts or moves a key relative to the
 * last `now`; rs_next() is the exact earliest pending cycle (RS_NEVER when none). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"

enum { RS_NCLS = 4, RS_WHEEL = 64 };
#define RS_NEVER (UINT64_MAX / 4) /* same as DRAM_NEVER: never becomes ready */

struct ready_set {
    uint32_t n, nwords;
    uint64_t now;
    uint64_t *at;            /* [n] cycle the key becomes ready */
    uint8_t *cls;            /* [n] */
    uint64_t *in;            /* members */
    uint64_t *ready;         /* members with at <= now */
    uint64_t *clsm[RS_NCLS]; /* members by class */
    uint64_t *slot;          /* [RS_WHEEL][nwords]: members with now < at < now + RS_WHEEL */
    uint64_t occ;            /* wheel slots (at % RS_WHEEL) that hold a key */
    uint64_t *far;           /* pending members beyond the wheel */
    uint64_t far_min;        /* <= every far cycle */
};

int rs_init(struct ready_set *s, uint32_t n, struct ws_err *e);
void rs_free(struct ready_set *s);
/* Moves time to `now` (>= the last one): keys whose cycle has come become ready. */
void rs_advance(struct ready_set *s, uint64_t now);
/* Exact earliest cycle of a pending key (RS_NEVER when none). */
uint64_t rs_next(struct ready_set *s);

static inline bool rs_has(const struct ready_set *s, uint32_t k) {
    return (s->in[k >> 6] >> (k & 63)) & 1;
}
static inline bool rs_is_ready(const struct ready_set *s, uint32_t k) {
    return (s->ready[k >> 6] >> (k & 63)) & 1;
}

static inline void rs_del(struct ready_set *s, uint32_t k) {
    uint64_t bit = 1ULL << (k & 63);
    uint32_t w = k >> 6;
    if (!(s->in[w] & bit)) return;
    s->in[w] &= ~bit;
    s->clsm[s->cls[k]][w] &= ~bit;
    if (s->ready[w] & bit) {
        s->ready[w] &= ~bit;
    } else if (s->far[w] & bit) {
        s->far[w] &= ~bit; /* far_min stays a lower bound */
    } else {
        unsigned j = (unsigned)(s->at[k] % RS_WHEEL);
        uint64_t *sl = s->slot + (size_t)j * s->nwords;
        sl[w] &= ~bit;
        if (!sl[w]) {
            uint64_t any = 0;
            for (uint32_t i = 0; i < s->nwords; i++) any |= sl[i];
            if (!any) s->occ &= ~(1ULL << j);
        }
    }
}

static inline void rs_put(struct ready_set *s, uint32_t k, uint64_t at, unsigned cls) {
    uint64_t bit = 1ULL << (k & 63);
    uint32_t w = k >> 6;
    /* unchanged (a recomputation that found the same cycle): a ready or wheel key stays right */
    if ((s->in[w] & bit) && s->at[k] == at && s->cls[k] == cls && !(s->far[w] & bit)) return;
    rs_del(s, k);
    s->in[w] |= bit;
    s->clsm[cls][w] |= bit;
    s->at[k] = at;
    s->cls[k] = (uint8_t)cls;
    if (at <= s->now) {
        s->ready[w] |= bit;
    } else if (at - s->now < RS_WHEEL) {
        unsigned j = (unsigned)(at % RS_WHEEL);
        s->slot[(size_t)j * s->nwords + w] |= bit;
        s->occ |= 1ULL << j;
    } else {
        s->far[w] |= bit;
        if (at < s->far_min) s->far_min = at;
    }
}
