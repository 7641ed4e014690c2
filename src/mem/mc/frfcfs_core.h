/* Shared FR-FCFS selection (Rixner et al., ISCA 2000): the oldest issuable row hit first, then the
 * oldest issuable request. A bank with a queued hit to its open row is not precharged for an
 * older miss, unless `cap` (> 0) younger hits have already gone past an older request of that
 * bank since the row opened (FR-FCFS+Cap, Mutlu and Moscibroda, MICRO 2007). Used by
 * policy_frfcfs.c and policy_frfcfs_cap.c through the controller's candidate index (policy.h): each
 * bank offers its oldest hit (class 0) or else its oldest request (class 1), and pick() takes the
 * oldest ready offer of the first class that has one. */
#pragma once

#include "mem/mc/policy.h"

enum { FRFCFS_HIT, FRFCFS_OTHER };

static inline struct mc_req *frfcfs_cand(const struct mc_view *v, enum mc_q q, uint32_t b,
                                         uint32_t cap, unsigned *cls, uint64_t *key) {
    struct mc_req *head = mcv_bank_head(v, q, b);
    if (!head) return NULL;
    int32_t open = mcv_open_row(v, b);
    struct mc_req *hit = NULL;
    if (open >= 0 && mcv_bank_hits(v, q, b))
        for (struct mc_req *r = head; r; r = r->bnext)
            if ((int32_t)r->da.row == open) {
                hit = r;
                break;
            }
    if (hit && cap && head != hit && mcv_row_hits_bypassed(v, b) >= cap) hit = NULL;
    struct mc_req *c = hit ? hit : head;
    *cls = hit ? FRFCFS_HIT : FRFCFS_OTHER;
    *key = c->seq;
    return c;
}

/* The oldest ready candidate: of class FRFCFS_HIT if there is one. */
static inline bool frfcfs_oldest_ready(const struct mc_view *v, struct mc_choice *out) {
    for (unsigned cls = FRFCFS_HIT; cls <= FRFCFS_OTHER; cls++) {
        uint32_t b = mcv_cand_min(v, cls);
        if (b != UINT32_MAX) {
            mcv_choose(v, mcv_cand(v, b), out);
            return true;
        }
    }
    return false;
}
