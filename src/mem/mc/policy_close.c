/* Close-page scheduling in the manner of USIMM's scheduler-close.c: requests are taken in
 * arrival order (the first whose next command can issue), and in a cycle where nothing else
 * issues, a bank whose last command was a column access is precharged. Unlike USIMM's, it
 * never closes a row that a queued request still hits. */
#include <stdlib.h>

#include "mem/mc/policy.h"

static void *close_create(const struct mc_policy_env *env, struct cfg *c, struct ws_err *e) {
    (void)env, (void)c;
    void *p = calloc(1, 1);
    if (!p) ws_fail(e, "out of memory");
    return p;
}

static void close_destroy(void *st) {
    free(st);
}

static bool row_wanted(const struct mc_view *v, uint32_t bank, int32_t row) {
    for (int q = 0; q < 2; q++)
        for (struct mc_req *r = mcv_bank_head(v, (enum mc_q)q, bank); r; r = r->bnext)
            if ((int32_t)r->da.row == row) return true;
    return false;
}

static bool close_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    (void)st;
    enum mc_q q = mcv_draining(v) ? MC_WRITEQ : MC_READQ;
    for (struct mc_req *r = mcv_head(v, q); r; r = r->qnext)
        if (mcv_issuable(v, r)) {
            mcv_choose(v, r, out);
            return true;
        }
    uint64_t soonest = DRAM_NEVER;
    for (uint32_t b = 0; b < mcv_nbanks(v); b++) {
        int32_t open = mcv_open_row(v, b);
        if (open < 0 || row_wanted(v, b, open)) continue;
        struct dram_addr a;
        mcv_bank_addr(v, b, &a);
        uint64_t t = mcv_cmd_ready_at(v, DRAM_PRE, &a);
        if (t <= mcv_now(v)) {
            *out = (struct mc_choice){NULL, DRAM_PRE, a};
            return true;
        }
        if (t < soonest) soonest = t;
    }
    if (soonest != DRAM_NEVER) mcv_request_wake(v, soonest);
    return false;
}

const struct mc_policy mc_policy_close = {
    .name = "close",
    .doc = "close-page: arrival order, idle cycles precharge rows no queued request hits",
    .create = close_create,
    .destroy = close_destroy,
    .pick = close_pick,
};
