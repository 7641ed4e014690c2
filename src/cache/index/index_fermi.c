/* The Fermi L1 pseudo-random hash (as modelled by GPGPU-Sim and used as the baseline index of
 * seed 001, spec §3.4): address bits 7-11 XOR bits {13, 14, 15, 17, 19}; a 64-set cache also
 * takes bit 12 as the sixth index bit. The bit positions are fixed, so it is defined for 128 B
 * lines and 32 or 64 sets only. */
#include "cache/index/index.h"

static const char *fermi_check(uint64_t sets, uint64_t line) {
    if (sets != 32 && sets != 64) return "needs 32 or 64 sets";
    if (line != 128) return "needs 128 B lines";
    return NULL;
}

static uint32_t fermi_set(const struct cache_index *ix, uint64_t addr) {
    uint32_t lower = (uint32_t)(addr >> 7) & 0x1F;
    uint32_t upper =
        (uint32_t)(((addr & 0xE000) >> 13) | ((addr & 0x20000) >> 14) | ((addr & 0x80000) >> 15));
    uint32_t set = lower ^ upper;
    if (ix->sets == 64) set |= (uint32_t)((addr & 0x1000) >> 7);
    return set;
}

const struct cache_index_fn cache_index_fermi = {
    .name = "fermi",
    .doc = "Fermi pseudo-random hash of address bits 7-19 (32 or 64 sets, 128 B lines)",
    .check = fermi_check,
    .set = fermi_set,
};
