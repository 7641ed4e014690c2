/* Distinct words are kept per bank in a small table; a warp touches at most 128 words, so the
 * per-bank lists stay short except in pathological all-one-bank patterns. */
#include "core/smem.h"

#include <stdbool.h>

enum { SMEM_MAX_WORDS = 32 * 4, SMEM_MAX_BANKS = 64 };

unsigned smem_conflict_degree(const uint64_t *addr, uint32_t active, unsigned width,
                              unsigned banks) {
    if (banks == 0 || banks > SMEM_MAX_BANKS) banks = 32;
    unsigned words = width <= 4 ? 1 : width / 4;
    if (words > 4) words = 4;
    uint64_t seen[SMEM_MAX_WORDS]; /* distinct words, chained per bank */
    uint8_t next[SMEM_MAX_WORDS];
    uint8_t head[SMEM_MAX_BANKS] = {0}, count[SMEM_MAX_BANKS] = {0};
    unsigned n = 0, degree = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        uint64_t w0 = addr[__builtin_ctz(m)] / 4;
        for (unsigned k = 0; k < words; k++) {
            uint64_t w = w0 + k;
            unsigned b = (unsigned)(w % banks);
            unsigned c = count[b], i = head[b];
            bool dup = false;
            for (unsigned j = 0; j < c; j++, i = next[i])
                if (seen[i] == w) {
                    dup = true;
                    break;
                }
            if (dup) continue;
            seen[n] = w;
            next[n] = head[b];
            head[b] = (uint8_t)n++;
            count[b] = (uint8_t)(c + 1);
            if (c + 1 > degree) degree = c + 1;
        }
    }
    return degree;
}
