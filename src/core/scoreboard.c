#include "core/scoreboard.h"

#include <stdbool.h>

#include "base/err.h"

void sb_init(struct scoreboard *sb) {
    sb->n = 0;
    sb->filter[0] = sb->filter[1] = sb->filter[2] = sb->filter[3] = 0;
}

static inline void filter_set(uint64_t *f, uint16_t reg) {
    f[(reg >> 6) & 3] |= 1ull << (reg & 63);
}

static inline bool filter_has(const uint64_t *f, uint16_t reg) {
    return (f[(reg >> 6) & 3] >> (reg & 63)) & 1;
}

static void purge(struct scoreboard *sb, uint64_t now) {
    sb->filter[0] = sb->filter[1] = sb->filter[2] = sb->filter[3] = 0;
    for (unsigned i = 0; i < sb->n;) {
        if (sb->ready[i] <= now) {
            sb->n--;
            sb->ready[i] = sb->ready[sb->n];
            sb->reg[i] = sb->reg[sb->n];
        } else {
            filter_set(sb->filter, sb->reg[i]);
            i++;
        }
    }
}

static uint64_t max64(uint64_t a, uint64_t b) {
    return a > b ? a : b;
}

uint64_t sb_ready_at(struct scoreboard *sb, const struct inst *in, uint64_t now) {
    if (sb->n + in->ndst <= SB_CAP) {
        /* Fast path: no operand can match an entry, live or expired. */
        bool maybe = false;
        for (unsigned k = 0; k < in->nsrc; k++) maybe |= filter_has(sb->filter, in->src[k]);
        for (unsigned k = 0; k < in->ndst; k++) maybe |= filter_has(sb->filter, in->dst[k]);
        if (!maybe) return now;
    }
    purge(sb, now);
    if (sb->n == 0) return now;
    uint64_t t = now;
    for (unsigned i = 0; i < sb->n; i++) {
        uint16_t r = sb->reg[i];
        bool hit = false; /* REG_NONE is never reserved, so it never matches */
        for (unsigned k = 0; k < in->nsrc && !hit; k++) hit = in->src[k] == r;
        for (unsigned k = 0; k < in->ndst && !hit; k++) hit = in->dst[k] == r;
        if (hit) t = max64(t, sb->ready[i]);
    }
    if (t == now && sb->n + in->ndst > SB_CAP) {
        /* No hazard but no room: the earliest timed entry frees a slot. */
        t = SB_PENDING;
        for (unsigned i = 0; i < sb->n; i++)
            if (sb->ready[i] < t) t = sb->ready[i];
    }
    return t;
}

void sb_reserve(struct scoreboard *sb, uint16_t reg, uint64_t ready) {
    if (reg == REG_NONE) return;
    for (unsigned i = 0; i < sb->n; i++)
        if (sb->reg[i] == reg) { /* the same register named twice by one instruction */
            sb->ready[i] = max64(sb->ready[i], ready);
            return;
        }
    WS_ASSERT(sb->n < SB_CAP, "scoreboard full");
    filter_set(sb->filter, reg);
    sb->reg[sb->n] = reg;
    sb->ready[sb->n] = ready;
    sb->n++;
}

void sb_release(struct scoreboard *sb, uint16_t reg, uint64_t ready) {
    if (reg == REG_NONE) return;
    for (unsigned i = 0; i < sb->n; i++)
        if (sb->reg[i] == reg && sb->ready[i] == SB_PENDING) {
            sb->ready[i] = ready;
            return;
        }
    WS_ASSERT(0, "scoreboard: release of register %u that is not pending", (unsigned)reg);
}

unsigned sb_pending(struct scoreboard *sb, uint64_t now) {
    purge(sb, now);
    return sb->n;
}
