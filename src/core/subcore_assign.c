#include "core/subcore_assign.h"

#include <string.h>

static uint32_t assign_rr(uint32_t slot, uint64_t nth, uint32_t nsub) {
    (void)nth;
    return slot % nsub;
}

const struct subcore_assign subcore_assigns[] = {
    {"rr", "round robin: warp slot i goes to sub-core i mod n", assign_rr},
};
const unsigned subcore_nassigns = sizeof subcore_assigns / sizeof subcore_assigns[0];

const struct subcore_assign *subcore_assign_find(const char *name) {
    for (unsigned i = 0; i < subcore_nassigns; i++)
        if (strcmp(subcore_assigns[i].name, name) == 0) return &subcore_assigns[i];
    return NULL;
}
