/* Bit counting inline. __builtin_popcount compiles to a libgcc call on baseline x86-64 (no
 * POPCNT instruction assumed), about 20 instructions plus the call; the simulator counts lanes,
 * sectors and blocked ports in its per-cycle paths. */
#pragma once

#include <stdint.h>

static inline unsigned ws_popcount64(uint64_t x) {
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
    return (unsigned)__builtin_popcountll(x); /* one instruction where the target has it */
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
#endif
}

static inline unsigned ws_popcount32(uint32_t x) {
    return ws_popcount64(x);
}
