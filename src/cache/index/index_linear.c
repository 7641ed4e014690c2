/* Conventional index: the line number modulo the number of sets (the address bits just above
 * the line offset when the set count is a power of two). */
#include "cache/index/index.h"

static uint32_t linear_set(const struct cache_index *ix, uint64_t addr) {
    uint64_t line = addr >> ix->line_shift;
    return ix->pow2 ? (uint32_t)(line & ix->set_mask) : (uint32_t)(line % ix->sets);
}

const struct cache_index_fn cache_index_linear = {
    .name = "linear",
    .doc = "line number mod sets (conventional; any set count)",
    .check = NULL,
    .set = linear_set,
};
