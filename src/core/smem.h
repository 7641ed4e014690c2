/* Shared-memory bank conflicts: `banks` banks of 4-byte words (word w lives in bank w mod banks).
 * Lanes reading the same word share one access (broadcast); distinct words in one bank are served
 * one per cycle, so an instruction needs as many cycles ("conflict degree") as the largest number
 * of distinct words any bank holds. A lane of width 8 or 16 touches 2 or 4 consecutive words, so
 * a conflict-free 8-byte access of a full warp takes 2 cycles, as on hardware. */
#pragma once

#include <stdint.h>

/* Conflict degree (>= 1 when any lane is active, 0 when none) of one warp access. banks <= 64. */
unsigned smem_conflict_degree(const uint64_t *addr, uint32_t active, unsigned width,
                              unsigned banks);
