/* SBWAS, the single-bank warp-aware scheduler seed 002 compares against (Sec. 2.10; a variant of
 * Lakshminarayana et al.'s alpha-SJF): banks are visited round-robin; for the visited bank a
 * coin with probability mc.sbwas.alpha picks its oldest row hit, otherwise (or when it has no
 * hit) it serves the oldest request of the warp that has the fewest requests queued to that bank
 * (ties: the older request). A bank whose choice cannot issue is skipped, and its choice stands
 * until a command of that bank issues: the coin is tossed once per decision, not once per visit
 * (else a hit whose rival waits for tRAS or tRP would win far more often than alpha says).
 * No information crosses
 * banks. Writes drain conventionally: per bank the oldest row hit, else the oldest write. The
 * thesis profiles alpha per benchmark from {0.25, 0.5, 0.75}; the default here is 0.5. */
#include <stddef.h>
#include <stdlib.h>

#include "base/rng.h"
#include "mem/mc/policy.h"

struct sbwas_cfg {
    double alpha;
    int64_t seed;
};

enum { COIN_NONE, COIN_HIT, COIN_OTHER };

struct sbwas {
    struct sbwas_cfg cfg;
    struct ws_rng rng;
    uint32_t nbanks, rr;
    uint8_t *coin; /* [nbanks] the standing decision of each bank's turn */
};

static const struct cfg_key sbwas_keys[] = {
    {"mc.sbwas.alpha", CFG_DOUBLE, offsetof(struct sbwas_cfg, alpha), "0.5", 0, 1, NULL, "",
     "probability that a bank's turn serves its oldest row hit (thesis: 0.25, 0.5 or 0.75)"},
    {"mc.sbwas.seed", CFG_INT, offsetof(struct sbwas_cfg, seed), "1", 0, 9.0e15, NULL, "",
     "seed of the coin (same seed, same schedule)"},
};

static void *sbwas_create(const struct mc_policy_env *env, struct cfg *c, struct ws_err *e) {
    struct sbwas *p = calloc(1, sizeof *p);
    if (!p) return ws_fail(e, "out of memory"), NULL;
    if (cfg_bind(c, "mc.sbwas", sbwas_keys, CFG_COUNT(sbwas_keys), &p->cfg, e) != 0) {
        free(p);
        return NULL;
    }
    /* one stream per channel, so channels do not flip the same coins */
    ws_rng_seed(&p->rng, (uint64_t)p->cfg.seed * 0x9e3779b97f4a7c15ull + env->channel);
    p->nbanks = env->nbanks;
    p->rr = env->nbanks - 1;
    p->coin = calloc(env->nbanks, 1);
    if (!p->coin) {
        free(p);
        return ws_fail(e, "out of memory"), NULL;
    }
    return p;
}

static void sbwas_destroy(void *st) {
    struct sbwas *p = st;
    free(p->coin);
    free(p);
}

static bool same_warp(const struct mc_req *a, const struct mc_req *b) {
    return a->r.o.sm == b->r.o.sm && a->r.o.warp_slot == b->r.o.warp_slot;
}

/* The oldest request of the warp with the fewest requests queued to this bank. */
static struct mc_req *fewest(struct mc_req *head) {
    struct mc_req *best = NULL;
    uint32_t best_n = UINT32_MAX;
    for (struct mc_req *r = head; r; r = r->bnext) {
        bool first = true; /* r is its warp's oldest request in this bank */
        for (struct mc_req *o = head; o != r && first; o = o->bnext) first = !same_warp(o, r);
        if (!first) continue;
        uint32_t n = 0;
        for (struct mc_req *o = r; o; o = o->bnext) n += same_warp(o, r);
        if (n < best_n) best = r, best_n = n;
    }
    return best;
}

static bool sbwas_pick(void *st, const struct mc_view *v, struct mc_choice *out) {
    struct sbwas *p = st;
    bool drain = mcv_draining(v);
    enum mc_q q = drain ? MC_WRITEQ : MC_READQ;
    const uint64_t *mask = mcv_bank_mask(v, q);
    for (uint32_t i = 1; i <= p->nbanks; i++) {
        uint32_t b = (p->rr + i) % p->nbanks;
        if (!(mask[b >> 6] >> (b & 63) & 1)) continue;
        struct mc_req *head = mcv_bank_head(v, q, b), *hit = NULL;
        int32_t open = mcv_open_row(v, b);
        for (struct mc_req *r = head; r && open >= 0; r = r->bnext)
            if ((int32_t)r->da.row == open) {
                hit = r;
                break;
            }
        struct mc_req *c;
        if (drain) {
            c = hit ? hit : head;
        } else {
            if (hit && p->coin[b] == COIN_NONE)
                p->coin[b] = ws_rng_unit(&p->rng) < p->cfg.alpha ? COIN_HIT : COIN_OTHER;
            c = hit && p->coin[b] == COIN_HIT ? hit : fewest(head);
        }
        if (!mcv_issuable(v, c)) continue;
        p->coin[b] = COIN_NONE;
        p->rr = b;
        mcv_choose(v, c, out);
        return true;
    }
    return false;
}

const struct mc_policy mc_policy_sbwas = {
    .name = "sbwas",
    .doc = "single-bank warp-aware: banks round-robin, a hit with probability alpha, else the "
           "warp with fewest requests to the bank (seed 002)",
    .keys = sbwas_keys,
    .nkeys = CFG_COUNT(sbwas_keys),
    .create = sbwas_create,
    .destroy = sbwas_destroy,
    .pick = sbwas_pick,
};
