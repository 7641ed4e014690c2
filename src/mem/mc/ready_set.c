/* Ready set (see ready_set.h). */
#include "mem/mc/ready_set.h"

#include <stdlib.h>
#include <string.h>

int rs_init(struct ready_set *s, uint32_t n, struct ws_err *e) {
    memset(s, 0, sizeof *s);
    s->n = n;
    s->nwords = n ? (n + 63) / 64 : 1;
    s->at = calloc(n ? n : 1, sizeof *s->at);
    s->cls = calloc(n ? n : 1, sizeof *s->cls);
    /* in, ready, far, the class bitmaps and the wheel in one block */
    uint64_t *w = calloc((size_t)s->nwords * (3 + RS_NCLS + RS_WHEEL), sizeof *w);
    if (!s->at || !s->cls || !w) {
        free(w);
        rs_free(s);
        return ws_fail(e, "out of memory");
    }
    s->in = w;
    s->ready = w + s->nwords;
    s->far = w + 2 * (size_t)s->nwords;
    for (unsigned c = 0; c < RS_NCLS; c++) s->clsm[c] = w + (3 + c) * (size_t)s->nwords;
    s->slot = w + (3 + RS_NCLS) * (size_t)s->nwords;
    s->far_min = RS_NEVER;
    return 0;
}

void rs_free(struct ready_set *s) {
    free(s->at);
    free(s->cls);
    free(s->in);
    memset(s, 0, sizeof *s);
}

static void promote_slot(struct ready_set *s, unsigned j) {
    uint64_t *sl = s->slot + (size_t)j * s->nwords;
    for (uint32_t w = 0; w < s->nwords; w++) {
        s->ready[w] |= sl[w];
        sl[w] = 0;
    }
    s->occ &= ~(1ULL << j);
}

void rs_advance(struct ready_set *s, uint64_t now) {
    uint64_t old = s->now;
    if (now <= old) return;
    s->now = now;
    if (s->occ) {
        /* wheel keys lie in (old, old + RS_WHEEL): those up to now are due */
        uint64_t d = now - old;
        uint64_t due = s->occ;
        if (d < RS_WHEEL) {
            /* slots (old + 1 .. now) % RS_WHEEL, as a rotated run of d bits */
            unsigned first = (unsigned)((old + 1) % RS_WHEEL);
            uint64_t run = (1ULL << d) - 1;
            due &= first ? (run << first) | (run >> (RS_WHEEL - first)) : run;
        }
        for (; due; due &= due - 1) promote_slot(s, (unsigned)__builtin_ctzll(due));
    }
    if (s->far_min < now + RS_WHEEL) {
        /* far keys come within the wheel's reach: sort them in again */
        uint64_t lo = RS_NEVER;
        for (uint32_t w = 0; w < s->nwords; w++)
            for (uint64_t bits = s->far[w]; bits; bits &= bits - 1) {
                uint32_t k = w * 64 + (uint32_t)__builtin_ctzll(bits);
                uint64_t at = s->at[k], bit = bits & -bits;
                if (at <= now) {
                    s->far[w] &= ~bit;
                    s->ready[w] |= bit;
                } else if (at - now < RS_WHEEL) {
                    unsigned j = (unsigned)(at % RS_WHEEL);
                    s->far[w] &= ~bit;
                    s->slot[(size_t)j * s->nwords + w] |= bit;
                    s->occ |= 1ULL << j;
                } else if (at < lo) {
                    lo = at;
                }
            }
        s->far_min = lo;
    }
}

uint64_t rs_next(struct ready_set *s) {
    if (s->occ) {
        /* every wheel key is earlier than every far key */
        unsigned base = (unsigned)((s->now + 1) % RS_WHEEL);
        uint64_t rot = base ? (s->occ >> base) | (s->occ << (RS_WHEEL - base)) : s->occ;
        return s->now + 1 + (uint64_t)__builtin_ctzll(rot);
    }
    uint64_t lo = RS_NEVER;
    for (uint32_t w = 0; w < s->nwords; w++)
        for (uint64_t bits = s->far[w]; bits; bits &= bits - 1) {
            uint64_t at = s->at[w * 64 + (uint32_t)__builtin_ctzll(bits)];
            if (at < lo) lo = at;
        }
    s->far_min = lo;
    return lo;
}
