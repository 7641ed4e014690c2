/* Bitwise-XOR index: the conventional index bits XOR the next log2(sets) bits of the line
 * number, which spreads power-of-two strides up to sets * sets lines over all sets. */
#include "cache/index/index.h"

static const char *xor_check(uint64_t sets, uint64_t line) {
    (void)line;
    return (sets & (sets - 1)) ? "needs a power-of-two number of sets" : NULL;
}

static uint32_t xor_set(const struct cache_index *ix, uint64_t addr) {
    uint64_t line = addr >> ix->line_shift;
    return (uint32_t)((line ^ (line >> ix->set_bits)) & ix->set_mask);
}

const struct cache_index_fn cache_index_xor = {
    .name = "xor",
    .doc = "conventional index XOR the next log2(sets) line-number bits (power-of-two sets)",
    .check = xor_check,
    .set = xor_set,
};
