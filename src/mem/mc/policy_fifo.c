/* FIFO: GPGPU-Sim's in-order DRAM scheduler (-gpgpu_dram_scheduler 0, dram_t::scheduler_fifo),
 * which is what a paper built on GPGPU-Sim calls "FCFS" (seed 000 Fig. 9, seed 002's naive
 * FCFS). Requests leave the queue for their bank strictly in arrival order: the oldest waiting
 * request is handed to its bank only when that bank holds no earlier request, and while it waits
 * every younger request waits behind it (head-of-line blocking), even one whose bank is idle. A
 * bank's request is done when its column command issues. Each cycle the banks holding a request
 * are served round-robin, the first whose next command can issue.
 *
 * No dispatch state is kept: walking the queue in arrival order, each request whose bank has not
 * been seen yet is the one dispatched to it; the first request whose bank was already seen is the
 * blocked head, and nothing behind it is dispatched. That is exactly the set GPGPU-Sim's banks
 * hold, because dispatch is in order and a request leaves the queue at its column command.
 *
 * Unlike `fcfs` (in order per bank only; banks are independent) this loses bank-level
 * parallelism whenever two nearby requests share a bank, which is why GPGPU-Sim's FCFS trails
 * FR-FCFS by tens of percent. */
#include <stdlib.h>

#include "mem/mc/policy.h"

struct fifo {
    uint32_t nbanks, rr; /* rr: bank served last */
    uint64_t seen[];     /* bitmap of banks, scratch for one pick */
};

static void *fifo_create(const struct mc_policy_env *env, struct cfg *c, struct ws_err *e) {
    (void)c;
    size_t words = (env->nbanks + 63) / 64;
    struct fifo *p = calloc(1, sizeof *p + words * sizeof(uint64_t));
    if (!p) return ws_fail(e, "out of memory"), NULL;
    p->nbanks = env->nbanks;
    p->rr = env->nbanks - 1;
    return p;
}

static void fifo_destroy(void *st) {
    free(st);
}

static bool fifo_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    struct fifo *p = st;
    enum mc_q q = mcv_draining(v) ? MC_WRITEQ : MC_READQ;
    size_t words = (p->nbanks + 63) / 64;
    for (size_t i = 0; i < words; i++) p->seen[i] = 0;
    struct mc_req *best = NULL;
    uint32_t best_d = UINT32_MAX;
    for (struct mc_req *r = mcv_head(v, q); r; r = r->qnext) {
        uint32_t b = r->bank;
        uint64_t bit = 1ull << (b & 63);
        if (p->seen[b >> 6] & bit) break; /* the blocked head: its bank holds an earlier one */
        p->seen[b >> 6] |= bit;
        if (!mcv_issuable(v, r)) continue;
        uint32_t d = (b + p->nbanks - p->rr - 1) % p->nbanks; /* round-robin distance */
        if (d < best_d) best = r, best_d = d;
    }
    if (!best) return false;
    p->rr = best->bank;
    mcv_choose(v, best, out);
    return true;
}

const struct mc_policy mc_policy_fifo = {
    .name = "fifo",
    .doc = "GPGPU-Sim's in-order FCFS: strict arrival-order dispatch, one request per bank",
    .create = fifo_create,
    .destroy = fifo_destroy,
    .pick = fifo_pick,
};
