/* Coalescer: one pass over the active lanes; a lane usually falls in the same line as the lane
 * before it, so that line is checked first before searching the (at most 64) lines so far. */
#include "core/coalescer.h"

static unsigned add_range(uint64_t a, uint64_t end, unsigned line, unsigned sector,
                          struct coal_line *out, unsigned n, unsigned *last) {
    /* [a, end) lies within one line here. */
    uint64_t base = a & ~(uint64_t)(line - 1);
    unsigned s0 = (unsigned)((a - base) / sector), s1 = (unsigned)((end - 1 - base) / sector);
    uint8_t mask = (uint8_t)(((1u << (s1 + 1)) - 1) & ~((1u << s0) - 1));
    unsigned i = *last;
    if (i >= n || out[i].line != base) {
        for (i = 0; i < n && out[i].line != base; i++) {
        }
        if (i == n) out[n++] = (struct coal_line){base, 0};
    }
    out[i].sectors |= mask;
    *last = i;
    return n;
}

unsigned coalesce(const uint64_t *addr, uint32_t active, unsigned width, unsigned line,
                  unsigned sector, struct coal_line out[COAL_MAX_LINES]) {
    if (width == 0) width = 1;
    unsigned n = 0, last = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)], end = a + width;
        uint64_t split = (a | (uint64_t)(line - 1)) + 1; /* start of the next line */
        if (end > split) {
            n = add_range(a, split, line, sector, out, n, &last);
            a = split;
        }
        n = add_range(a, end, line, sector, out, n, &last);
    }
    return n;
}
