/* Coalescer: one pass over the active lanes, the line of the lane before kept in registers (a
 * lane usually falls in it), other lines found in a list, or past 8 lines a hash table, of those
 * so far; a full warp of consecutive lanes is one contiguous range, taken line by line. */
#include "core/coalescer.h"

#include <stdbool.h>
#include <string.h>

#include "base/err.h"

/* Lines found so far: a plain list while short, then also a small open-addressing table (a warp
 * of scattered lanes has up to 64 lines, and a list search per lane would cost 32 x 32). */
enum { LIST_MAX = 8, TABLE = 128 };
struct lines {
    struct coal_line *out;
    unsigned n;
    bool table_on;
    uint8_t slot[TABLE]; /* index into out + 1, 0 = free */
    unsigned lshift;
};

static inline unsigned slot_of(const struct lines *L, uint64_t base) {
    uint64_t k = (base >> L->lshift) * 0x9E3779B97F4A7C15ull; /* Fibonacci hashing */
    return (unsigned)(k >> 57);                               /* 7 bits: TABLE slots */
}

static inline void table_put(struct lines *L, unsigned i) {
    unsigned h = slot_of(L, L->out[i].line);
    while (L->slot[h]) h = (h + 1) % TABLE;
    L->slot[h] = (uint8_t)(i + 1);
}

/* The entry of line `base`, appended when absent. */
static inline unsigned line_entry(struct lines *L, uint64_t base) {
    if (L->table_on) {
        unsigned h = slot_of(L, base);
        for (; L->slot[h]; h = (h + 1) % TABLE)
            if (L->out[L->slot[h] - 1].line == base) return L->slot[h] - 1u;
        L->out[L->n] = (struct coal_line){base, 0};
        L->slot[h] = (uint8_t)(L->n + 1);
        return L->n++;
    }
    unsigned i = 0;
    while (i < L->n && L->out[i].line != base) i++;
    if (i < L->n) return i;
    L->out[L->n++] = (struct coal_line){base, 0};
    if (L->n == LIST_MAX) {
        memset(L->slot, 0, sizeof L->slot);
        for (unsigned j = 0; j < L->n; j++) table_put(L, j);
        L->table_on = true;
    }
    return i;
}

/* The part of [a, end) in a's line: that line's address (*base), where the next line starts
 * (*stop) and the mask of the sectors the part covers. */
static inline unsigned line_part(uint64_t a, uint64_t end, uint64_t line_mask, unsigned sshift,
                                 uint64_t *base, uint64_t *stop) {
    *base = a & ~line_mask;
    *stop = *base + line_mask + 1;
    uint64_t last = (end < *stop ? end : *stop) - 1;
    unsigned s0 = (unsigned)((a - *base) >> sshift), s1 = (unsigned)((last - *base) >> sshift);
    return (2u << s1) - (1u << s0); /* sectors s0..s1 */
}

/* Consecutive lanes mostly touch the same line, so the current line and its sectors are kept in
 * registers and written to out[] when a lane moves to another line. Shifts, not divisions: line
 * and sector are powers of two. */
unsigned coalesce(const uint64_t *addr, uint32_t active, unsigned width, unsigned line,
                  unsigned sector, struct coal_line out[COAL_MAX_LINES]) {
    if (width == 0) width = 1;
    const uint64_t line_mask = (uint64_t)line - 1;
    const unsigned sshift = (unsigned)__builtin_ctz(sector);
    WS_ASSERT(width <= line, "coalescer: %u-byte lanes on %u-byte lines", width, line);
    if (active == UINT32_MAX && addr[0] + 32 * (uint64_t)width > addr[0]) {
        /* the common fully coalesced case: 32 lanes reading one after another cover one
         * contiguous range, whose lines come out in address order (the lanes' order) */
        uint64_t a = addr[0];
        unsigned i = 1;
        while (i < 32 && addr[i] == a + (uint64_t)i * width) i++;
        if (i == 32) {
            const uint64_t end = a + 32 * (uint64_t)width;
            unsigned n = 0;
            while (a < end) {
                uint64_t base, stop;
                unsigned mask = line_part(a, end, line_mask, sshift, &base, &stop);
                out[n++] = (struct coal_line){base, (uint8_t)mask};
                a = stop;
            }
            return n;
        }
    }
    struct lines L;
    L.out = out;
    L.n = 0;
    L.table_on = false;
    L.lshift = (unsigned)__builtin_ctz(line);
    unsigned cur = 0;
    uint64_t cur_line = UINT64_MAX;
    unsigned cur_mask = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)], end = a + width;
        for (;;) {
            uint64_t base, stop;
            unsigned mask = line_part(a, end, line_mask, sshift, &base, &stop);
            if (base != cur_line) {
                if (cur_line != UINT64_MAX) out[cur].sectors |= (uint8_t)cur_mask;
                cur = line_entry(&L, base);
                cur_line = base;
                cur_mask = 0;
            }
            cur_mask |= mask;
            if (end <= stop) break;
            a = stop; /* the access straddles into the next line */
        }
    }
    if (cur_line != UINT64_MAX) out[cur].sectors |= (uint8_t)cur_mask;
    return L.n;
}
