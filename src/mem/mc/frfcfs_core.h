/* Shared FR-FCFS selection (Rixner et al., ISCA 2000): the oldest issuable row hit first, then the
 * oldest issuable request. A bank with a queued hit to its open row is not precharged for an
 * older miss, unless `cap` (> 0) hits have been served since the row opened and an older miss
 * waits in that bank (FR-FCFS with a row-hit cap). Used by policy_frfcfs.c and
 * policy_frfcfs_cap.c. */
#pragma once

#include "mem/mc/policy.h"

static inline bool frfcfs_select(const struct mc_view *v, uint32_t cap, struct mc_choice *out) {
    enum mc_q q = mcv_draining(v) ? MC_WRITEQ : MC_READQ;
    const uint64_t *mask = mcv_bank_mask(v, q);
    uint32_t nwords = (mcv_nbanks(v) + 63) / 64;
    struct mc_req *best_hit = NULL, *best_other = NULL;
    for (uint32_t w = 0; w < nwords; w++)
        for (uint64_t bits = mask[w]; bits; bits &= bits - 1) {
            uint32_t b = w * 64 + (uint32_t)__builtin_ctzll(bits);
            struct mc_req *head = mcv_bank_head(v, q, b);
            int32_t open = mcv_open_row(v, b);
            struct mc_req *hit = NULL;
            if (open >= 0 && mcv_bank_hits(v, q, b))
                for (struct mc_req *r = head; r; r = r->bnext)
                    if ((int32_t)r->da.row == open) {
                        hit = r;
                        break;
                    }
            if (hit && cap && head != hit && mcv_row_hits_served(v, b) >= cap) hit = NULL;
            if (hit) {
                if ((!best_hit || hit->seq < best_hit->seq) && mcv_issuable(v, hit)) best_hit = hit;
            } else if ((!best_other || head->seq < best_other->seq) && mcv_issuable(v, head)) {
                best_other = head;
            }
        }
    struct mc_req *r = best_hit ? best_hit : best_other;
    if (!r) return false;
    mcv_choose(v, r, out);
    return true;
}
