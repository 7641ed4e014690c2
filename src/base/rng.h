/* Deterministic pseudo-random numbers: xoshiro256** seeded through splitmix64, so one 64-bit seed
 * gives the same stream on every platform. No global state: each user owns a struct ws_rng. */
#pragma once

#include <stdint.h>

struct ws_rng {
    uint64_t s[4];
};

void ws_rng_seed(struct ws_rng *r, uint64_t seed);
uint64_t ws_rng_next(struct ws_rng *r);
/* Uniform in [0, n), n > 0, without modulo bias (Lemire's multiply-shift with rejection). */
uint64_t ws_rng_below(struct ws_rng *r, uint64_t n);
/* Uniform double in [0, 1). */
double ws_rng_unit(struct ws_rng *r);
