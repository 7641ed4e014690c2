/* Coalescer: one pass over the active lanes, the line of the lane before kept in registers (a
 * lane usually falls in it), other lines found among the (at most 64) so far; a full warp of
 * consecutive lanes is one contiguous range, taken line by line without the pass. */
#include "core/coalescer.h"

/* The entry of line `base` in out[0..*n), appended when absent. */
static inline unsigned line_entry(uint64_t base, struct coal_line *out, unsigned *n) {
    unsigned i = 0;
    while (i < *n && out[i].line != base) i++;
    if (i == *n) out[(*n)++] = (struct coal_line){base, 0};
    return i;
}

/* Consecutive lanes mostly touch the same line, so the current line and its sectors are kept in
 * registers and written to out[] when a lane moves to another line. Shifts, not divisions: line
 * and sector are powers of two. */
unsigned coalesce(const uint64_t *addr, uint32_t active, unsigned width, unsigned line,
                  unsigned sector, struct coal_line out[COAL_MAX_LINES]) {
    if (width == 0) width = 1;
    const uint64_t line_mask = (uint64_t)line - 1;
    const unsigned sshift = (unsigned)__builtin_ctz(sector);
    if (active == UINT32_MAX) {
        /* the common fully coalesced case: 32 lanes reading one after another cover one
         * contiguous range, whose lines come out in address order (the lanes' order) */
        uint64_t a = addr[0];
        unsigned i = 1;
        while (i < 32 && addr[i] == a + (uint64_t)i * width) i++;
        if (i == 32) {
            const uint64_t end = a + 32 * (uint64_t)width;
            unsigned n = 0;
            while (a < end) {
                uint64_t base = a & ~line_mask, stop = base + line_mask + 1;
                uint64_t last = (end < stop ? end : stop) - 1;
                unsigned s0 = (unsigned)((a - base) >> sshift);
                unsigned s1 = (unsigned)((last - base) >> sshift);
                out[n++] = (struct coal_line){base, (uint8_t)((2u << s1) - (1u << s0))};
                a = stop;
            }
            return n;
        }
    }
    unsigned n = 0, cur = 0;
    uint64_t cur_line = UINT64_MAX;
    unsigned cur_mask = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)], end = a + width;
        for (;;) {
            /* the part of [a, end) in a's line */
            uint64_t base = a & ~line_mask, stop = base + line_mask + 1;
            uint64_t last = (end < stop ? end : stop) - 1;
            unsigned s0 = (unsigned)((a - base) >> sshift),
                     s1 = (unsigned)((last - base) >> sshift);
            unsigned mask = (2u << s1) - (1u << s0); /* sectors s0..s1 */
            if (base != cur_line) {
                if (cur_line != UINT64_MAX) out[cur].sectors |= (uint8_t)cur_mask;
                cur = line_entry(base, out, &n);
                cur_line = base;
                cur_mask = 0;
            }
            cur_mask |= mask;
            if (end <= stop) break;
            a = stop; /* the access straddles into the next line */
        }
    }
    if (cur_line != UINT64_MAX) out[cur].sectors |= (uint8_t)cur_mask;
    return n;
}
