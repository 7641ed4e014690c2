/* The core.subcore_assign seam: which sub-core (warp scheduler) a warp is bound to when its CTA
 * starts; the binding lasts for the warp's life. A table of named functions: "rr" is what
 * Volta/Turing do (seed 003 §2.4); skewed and shuffled assignments add one row each. */
#pragma once

#include <stdint.h>

struct subcore_assign {
    const char *name;
    const char *doc;
    /* slot: the warp slot in the SM; nth: warps placed on this SM so far (0 for the first);
     * nsub: sub-cores. Returns a sub-core in [0, nsub). */
    uint32_t (*pick)(uint32_t slot, uint64_t nth, uint32_t nsub);
};

extern const struct subcore_assign subcore_assigns[];
extern const unsigned subcore_nassigns;
/* NULL when unknown. */
const struct subcore_assign *subcore_assign_find(const char *name);
