/* LDST unit: an in-order queue of line requests in front of the L1D banks, a fixed pool of
 * in-flight memory instructions, a FIFO of L1 hits on their way back (accesses made in cycle
 * order with a constant latency keep it in time order) and the ring of requests leaving for the
 * NoC. Nothing here allocates after creation; requests come from the GPU's pool. */
#include "core/ldst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "core/coalescer.h"
#include "core/smem.h"
#include "mem/upstream.h"

enum { MINST_PER_WARP = 8 };

/* Request tags: the in-flight instruction index, plus a flag once a store/atomic has been
 * forwarded downstream (it then comes back as a reply, not through the hit path). */
#define TAG_FWD   (1ull << 62)
#define TAG_FETCH (1ull << 61) /* a fetch or writeback this unit created */
#define TAG_MI(t) ((uint32_t)((t)&0xffffffffu))

/* Controllers a warp-load's off-chip requests reached, with their first and last arrival (DRAM
 * cycles); a load touching more controllers than this tracks the first ones. */
enum { MI_MAX_MC = 16 };
struct mc_arrivals {
    uint32_t ch;
    uint64_t lo, hi;
};

struct minst {
    uint32_t warp;
    uint16_t left; /* requests (or shared-memory entries) not yet completed */
    uint8_t ndst;
    bool global_load; /* counts as a warp-load in the statistics */
    uint16_t dst[INST_MAX_DST];
    uint64_t issue;
    uint32_t offchip;
    uint64_t tmin, tmax;   /* off-chip turnaround extremes */
    uint64_t mcmin, mcmax; /* time in a controller of the requests at tmin / tmax */
    uint32_t nmc;
    struct mc_arrivals mc[MI_MAX_MC];
    uint32_t next_free;
};

struct qent {
    struct mem_req *r; /* NULL: a shared-memory access */
    uint32_t mi;
    uint16_t smem_left; /* port cycles it still needs */
};

struct hit {
    struct mem_req *r;
    uint64_t t;
};

enum block { BLK_NONE, BLK_RESFAIL, BLK_PORT };

struct ldst {
    struct sm_cfg cfg;
    struct sm_env env;
    uint32_t sm;
    struct sm_stats *st;
    struct ldst_hooks hooks;
    struct cache *l1;
    uint32_t line, sector, l1_lat, banks;

    struct minst *mi;
    uint32_t nmi, mi_free, mi_used;

    struct qent *q;                 /* ring */
    uint32_t qcap, qhead, qn, qreq; /* qreq: entries counted against ldst_q */

    struct hit *hp; /* ring of L1 hits / local completions */
    uint32_t hcap, hhead, hn;

    struct mem_req **out; /* ring */
    uint32_t ocap, ohead, on;

    bool wait_fill;             /* blocked by a reservation failure until a fill */
    enum block blk;             /* what the blocked cycles are counted as */
    uint64_t blk_since;         /* first blocked cycle not yet counted */
    struct mem_req *unresolved; /* a store not kept by the L1 whose miss entry may not have moved */
    bool unresolved_fwd;
};

struct cache *ldst_l1(const struct ldst *l) {
    return l->l1;
}

struct ldst *ldst_create(const struct sm_cfg *sc, const struct cache_cfg *l1, uint32_t sm,
                         const struct sm_env *env, struct sm_stats *st,
                         const struct ldst_hooks *hooks, struct ws_err *e) {
    struct ldst *l = calloc(1, sizeof *l);
    if (!l) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    l->cfg = *sc;
    l->env = *env;
    l->sm = sm;
    l->st = st;
    l->hooks = *hooks;
    l->line = (uint32_t)sc->line;
    l->sector = (uint32_t)sc->sector;
    l->l1_lat = (uint32_t)l1->hit_lat; /* l1d.hit_lat: one key for the L1D hit latency */
    l->banks = (uint32_t)sc->l1_banks;
    char name[32];
    snprintf(name, sizeof name, "l1d.sm%u", sm);
    l->l1 = cache_create(l1, name, e);
    l->nmi = (uint32_t)sc->max_warps * MINST_PER_WARP;
    l->qcap = (uint32_t)sc->ldst_q + COAL_MAX_LINES;
    /* Entries stay l1_lat cycles: per cycle up to `banks` hits plus one absorbed store. */
    l->hcap = (l->banks + 1) * (l->l1_lat + 2);
    l->ocap = (uint32_t)sc->out_q;
    l->mi = calloc(l->nmi, sizeof *l->mi);
    l->q = calloc(l->qcap, sizeof *l->q);
    l->hp = calloc(l->hcap, sizeof *l->hp);
    l->out = calloc(l->ocap, sizeof *l->out);
    if (!l->l1 || !l->mi || !l->q || !l->hp || !l->out) {
        if (l->l1) ws_fail(e, "out of memory");
        ldst_destroy(l);
        return NULL;
    }
    for (uint32_t i = 0; i < l->nmi; i++) l->mi[i].next_free = i + 1;
    l->mi_free = 0;
    return l;
}

void ldst_destroy(struct ldst *l) {
    if (!l) return;
    cache_destroy(l->l1);
    free(l->mi);
    free(l->q);
    free(l->hp);
    free(l->out);
    free(l);
}

static bool is_smem(const struct inst *in) {
    return in->space == SPACE_SHARED;
}

unsigned ldst_coalesce(const struct ldst *l, const struct inst *in,
                       struct coal_line out[COAL_MAX_LINES]) {
    if (is_smem(in)) return 1;
    return coalesce(in->addr, in->active, in->width, l->line, l->sector, out);
}

bool ldst_can_accept(const struct ldst *l, unsigned nreq) {
    if (l->mi_free >= l->nmi) return false;
    return l->qn == 0 || l->qreq + nreq <= (uint32_t)l->cfg.ldst_q;
}

static void q_push(struct ldst *l, struct mem_req *r, uint32_t mi, uint16_t smem_left) {
    WS_ASSERT(l->qn < l->qcap, "LDST queue overflow");
    uint32_t i = l->qhead + l->qn;
    if (i >= l->qcap) i -= l->qcap;
    l->q[i] = (struct qent){r, mi, smem_left};
    l->qn++;
    l->qreq++;
}

static void q_pop(struct ldst *l) {
    l->qhead = l->qhead + 1 == l->qcap ? 0 : l->qhead + 1;
    l->qn--;
    l->qreq--;
}

bool ldst_issue(struct ldst *l, const struct inst *in, const struct coal_line *lines, unsigned n,
                const struct mem_origin *o, uint64_t now) {
    WS_ASSERT(l->mi_free < l->nmi, "LDST: no free instruction slot");
    uint32_t idx = l->mi_free;
    struct minst *m = &l->mi[idx];
    bool load = in->mop != MOP_STORE;
    WS_ASSERT(n > 0 && (is_smem(in) ? n == 1 : n <= COAL_MAX_LINES),
              "LDST: memory instruction without active lanes");
#ifndef NDEBUG
    if (!is_smem(in)) { /* the lines made when the instruction reached the head are its own */
        struct coal_line fresh[COAL_MAX_LINES];
        unsigned k = coalesce(in->addr, in->active, in->width, l->line, l->sector, fresh);
        WS_ASSERT(k == n, "LDST: %u lines given, the instruction makes %u", n, k);
        for (unsigned i = 0; i < n; i++)
            WS_ASSERT(fresh[i].line == lines[i].line && fresh[i].sectors == lines[i].sectors,
                      "LDST: line %u given differs from the instruction's", i);
    }
#endif
    struct mem_req *reqs[COAL_MAX_LINES];
    if (!is_smem(in)) {
        for (unsigned i = 0; i < n; i++) {
            reqs[i] = l->env.req_alloc(l->env.ctx);
            if (!reqs[i]) {
                while (i--) l->env.req_free(l->env.ctx, reqs[i]);
                return false;
            }
        }
    }
    l->mi_free = m->next_free;
    l->mi_used++;
    *m =
        (struct minst){.warp = o->warp_slot, .left = (uint16_t)n, .issue = now, .tmin = UINT64_MAX};
    m->global_load = in->space == SPACE_GLOBAL && in->mop == MOP_LOAD;
    if (load)
        for (unsigned k = 0; k < in->ndst; k++) {
            uint16_t d = in->dst[k];
            bool dup = d == REG_NONE;
            for (unsigned j = 0; j < m->ndst && !dup; j++) dup = m->dst[j] == d;
            if (!dup) m->dst[m->ndst++] = d;
        }
    if (is_smem(in)) {
        unsigned deg =
            smem_conflict_degree(in->addr, in->active, in->width, (unsigned)l->cfg.smem_banks);
        if (deg == 0) deg = 1;
        l->st->smem_accesses++;
        l->st->smem_conflict_cycles += deg - 1;
        q_push(l, NULL, idx, (uint16_t)deg);
        return true;
    }
    uint8_t kind = in->mop == MOP_LOAD ? MEM_LOAD : in->mop == MOP_STORE ? MEM_STORE : MEM_ATOMIC;
    for (unsigned i = 0; i < n; i++) {
        struct mem_req *r = reqs[i];
        r->addr = lines[i].line;
        r->sectors = lines[i].sectors;
        r->bytes = ws_popcount32(r->sectors) * l->sector;
        r->kind = kind;
        r->is_write = kind == MEM_STORE;
        r->tag = idx;
        r->o = *o;
        r->o.nreq = (uint16_t)n;
        r->ts[MEM_TS_ISSUE] = now;
        r->src = (uint16_t)l->sm;
        /* r->dst is set when the request (or its fetch) leaves for the L2 (drain): most hit */
        q_push(l, r, idx, 0);
    }
    l->st->mem_reqs += n;
    l->st->mem_insts++;
    l->st->reqs_created += n;
    if (kind == MEM_LOAD && in->space == SPACE_GLOBAL) {
        if (l->env.up) upstream_add(l->env.up, o->load_id, n);
        /* seed 001 Eq. 3.1: accesses of the load / distinct L1D sets they index */
        uint32_t sets[COAL_MAX_LINES], ns = 0;
        for (unsigned i = 0; i < n; i++) {
            uint32_t s = cache_set_of(l->l1, reqs[i]->addr), j = 0;
            while (j < ns && sets[j] != s) j++;
            if (j == ns) sets[ns++] = s;
        }
        l->st->conc_loads++;
        l->st->conc_milli += (1000u * n + ns / 2) / ns;
    }
    return true;
}

static void finish_inst(struct ldst *l, uint32_t idx, uint64_t t) {
    struct minst *m = &l->mi[idx];
    if (m->global_load) {
        struct sm_stats *st = l->st;
        st->load_warps++;
        ws_hist_add(&st->offchip_per_load, m->offchip);
        if (m->offchip) {
            uint64_t div = m->tmax - m->tmin;
            uint64_t in = m->mcmax > m->mcmin ? m->mcmax - m->mcmin : 0;
            ws_hist_add(&st->lat_div, div);
            ws_hist_add(&st->lat_div_in_mc, in < div ? in : div);
            uint64_t spread = 0;
            for (uint32_t i = 0; i < m->nmc; i++)
                if (m->mc[i].hi - m->mc[i].lo > spread) spread = m->mc[i].hi - m->mc[i].lo;
            ws_hist_add(&st->mc_assembly, (uint64_t)((double)spread * l->env.dram_to_core + 0.5));
            ws_hist_add(&st->mcs_per_load, m->nmc);
        }
        ws_hist_add(&st->load_time, t - m->issue);
    }
    l->hooks.done(l->hooks.ctx, m->warp, m->dst, m->ndst, t);
    m->next_free = l->mi_free;
    l->mi_free = idx;
    l->mi_used--;
}

/* Request r of an instruction is back at cycle t. */
static void complete(struct ldst *l, struct mem_req *r, uint64_t t) {
    uint32_t idx = TAG_MI(r->tag);
    struct minst *m = &l->mi[idx];
    r->ts[MEM_TS_BACK] = t;
    if (r->offchip && m->global_load) {
        uint64_t turn = t - r->ts[MEM_TS_ISSUE];
        /* off-chip accesses are counted in 32 B sectors, the unit of a DRAM access on the
         * seeds' sectored machines: a coalesced 128 B warp-load from DRAM is 4, one line per
         * lane 32 (seed 000's maximum), which puts a streaming copy (SMP) in MOA as Table 1.
         * Only the sectors DRAM served count: those of a request that hit in the L1, or whose
         * fetch hit in the L2, did not go off-chip (GPGPU-Sim accesses each sector apart). A
         * request merged into a fetch already on its way from DRAM waits for DRAM: it counts. */
        m->offchip += ws_popcount32(r->offchip_sectors);
        /* controller arrival to last data beat, DRAM cycles converted to core cycles */
        const uint64_t *ts = r->ts;
        uint64_t mc =
            ts[MEM_TS_DATA] > ts[MEM_TS_MC_ENQ] && ts[MEM_TS_DATA] != UINT64_MAX
                ? (uint64_t)((double)(ts[MEM_TS_DATA] - ts[MEM_TS_MC_ENQ]) * l->env.dram_to_core +
                             0.5)
                : 0;
        if (ts[MEM_TS_MC_ENQ] && ts[MEM_TS_MC_ENQ] != UINT64_MAX) {
            uint32_t dst = l->env.subpart_of(l->env.ctx, r->addr);
            uint32_t ch = dst / (l->env.subparts ? l->env.subparts : 1), i = 0;
            uint64_t at = ts[MEM_TS_MC_ENQ];
            while (i < m->nmc && m->mc[i].ch != ch) i++;
            if (i < m->nmc) {
                if (at < m->mc[i].lo) m->mc[i].lo = at;
                if (at > m->mc[i].hi) m->mc[i].hi = at;
            } else if (i < MI_MAX_MC) {
                m->mc[m->nmc++] = (struct mc_arrivals){ch, at, at};
            }
        }
        if (turn < m->tmin) m->tmin = turn, m->mcmin = mc;
        if (turn > m->tmax) m->tmax = turn, m->mcmax = mc;
        ws_hist_add(&l->st->req_turnaround, turn);
    }
    l->env.req_free(l->env.ctx, r);
    l->st->reqs_freed++;
    WS_ASSERT(m->left > 0, "LDST: request of a completed instruction");
    if (--m->left == 0) finish_inst(l, idx, t);
}

static void hit_push(struct ldst *l, struct mem_req *r, uint64_t t) {
    WS_ASSERT(l->hn < l->hcap, "LDST: hit pipe overflow");
    uint32_t i = l->hhead + l->hn;
    if (i >= l->hcap) i -= l->hcap;
    l->hp[i] = (struct hit){r, t};
    l->hn++;
}

/* Moves miss-queue entries onto the outgoing ring while it has room. */
static void drain(struct ldst *l, uint64_t now) {
    struct cache *c = l->l1;
    while (cache_miss_pending(c) && l->on < l->ocap) {
        const struct cache_miss *m = cache_miss_peek(c);
        struct mem_req *f;
        if (m->kind == MEM_STORE || m->kind == MEM_ATOMIC) {
            f = m->req;
            WS_ASSERT(f, "L1 miss queue: store without its request");
            f->tag |= TAG_FWD;
            if (f == l->unresolved) l->unresolved_fwd = true;
            f->sectors = m->sectors;
        } else {
            f = l->env.req_alloc(l->env.ctx);
            if (!f) break; /* the GPU's pool is empty: try again next cycle */
            l->st->reqs_created++;
            if (m->req) {
                f->o = m->req->o;
                f->ts[MEM_TS_ISSUE] = m->req->ts[MEM_TS_ISSUE];
                f->ts[MEM_TS_L1] = m->req->ts[MEM_TS_L1];
            } else {
                f->o.app = (uint16_t)l->env.app;
                f->o.sm = (uint16_t)l->sm;
                f->ts[MEM_TS_ISSUE] = f->ts[MEM_TS_L1] = now;
            }
            /* A dirty victim (write-back L1 only) travels as a store of its dirty sectors, so
             * the L2 takes it like any store and acknowledges it. */
            f->kind = m->kind == MEM_WRITEBACK ? MEM_STORE : m->kind;
            f->is_write = m->kind == MEM_WRITEBACK;
            f->sectors = m->sectors;
            f->bytes = ws_popcount32(m->sectors) * l->sector;
            f->tag = TAG_FETCH;
        }
        f->addr = m->line_addr;
        f->src = (uint16_t)l->sm;
        f->dst = (uint16_t)l->env.subpart_of(l->env.ctx, f->addr);
        cache_miss_pop(c);
        uint32_t i = l->ohead + l->on;
        if (i >= l->ocap) i -= l->ocap;
        l->out[i] = f;
        l->on++;
    }
    if (l->unresolved && !cache_miss_pending(c)) {
        /* Its miss entry (if any) has moved: without one, the L1 absorbed the write. */
        if (!l->unresolved_fwd) hit_push(l, l->unresolved, now + l->l1_lat);
        l->unresolved = NULL;
    }
}

static void unblock(struct ldst *l, uint64_t now) {
    if (l->blk == BLK_RESFAIL) l->st->ldst_resfail_cycles += now - l->blk_since;
    if (l->blk == BLK_PORT) l->st->ldst_port_cycles += now - l->blk_since;
    l->blk = BLK_NONE;
}

/* Blocked from cycle `now` until the cycle the unit makes progress again. */
static void block(struct ldst *l, enum block b, uint64_t now) {
    if (l->blk == b) return;
    unblock(l, now);
    l->blk = b;
    l->blk_since = now;
}

/* One L1 access for the line request at the head of the queue. Returns true when it left. A
 * reservation failure counts as blocked from cycle blk_from (the next cycle when an earlier
 * access of this cycle went through). */
static bool access_l1(struct ldst *l, struct qent *q, uint64_t now, uint64_t blk_from) {
    struct mem_req *r = q->r;
    bool kept = false;
    enum cache_fail fail = CACHE_FAIL_NONE;
    r->ts[MEM_TS_L1] = now;
    enum cache_outcome out = cache_access(l->l1, r, now, &kept, &fail);
    if (l->hooks.access) l->hooks.access(l->hooks.ctx, r, out, now);
    if (out == CACHE_RESFAIL) {
        block(l, BLK_RESFAIL, blk_from);
        /* Only a fill frees an MSHR, a merge slot or a reserved line; with none pending (or a
         * full miss queue) retry next cycle rather than wait for nothing. */
        l->wait_fill = fail != CACHE_FAIL_MISSQ && cache_mshr_used(l->l1) > 0;
        return false;
    }
    unblock(l, now);
    /* an L1 hit, or a merge into a fetch under way, takes the request off its way to DRAM; a
     * miss hands it on to its fetch */
    if (l->env.up && (out == CACHE_HIT || out == CACHE_HIT_RESERVED))
        upstream_sub(l->env.up, r->o.load_id);
    if (r->kind == MEM_LOAD) {
        if (out == CACHE_HIT)
            hit_push(l, r, now + l->l1_lat);
        else
            WS_ASSERT(kept, "L1D did not keep a missing load");
        return true;
    }
    /* Stores and atomics: kept ones come back through a fill; others went downstream (a miss
     * entry carries them) or were absorbed by the L1 (no entry). */
    if (!kept) {
        l->unresolved = r;
        l->unresolved_fwd = false;
    }
    return true;
}

/* The L1D banks line request r's sectors use, as a mask: banks are interleaved every sector. A
 * request is one access even where two of its sectors share a bank (fewer banks than sectors
 * per line), as a whole line is with one bank. */
static uint32_t bank_mask(const struct ldst *l, const struct mem_req *r) {
    uint64_t first = r->addr / l->sector; /* r->addr is line-aligned */
    uint32_t m = 0, nb = l->banks;
    if ((nb & (nb - 1)) == 0) {
        /* power-of-two banks (the usual): the set sectors only, no division */
        for (uint32_t b = r->sectors; b; b &= b - 1)
            m |= 1u << (uint32_t)((first + (uint64_t)__builtin_ctz(b)) & (nb - 1));
        return m;
    }
    for (unsigned s = 0; s < 8; s++)
        if (r->sectors >> s & 1) m |= 1u << (uint32_t)((first + s) % nb);
    return m;
}

bool ldst_cycle(struct ldst *l, uint64_t now) {
    bool freed = false;
    uint32_t mi_before = l->mi_used;
    while (l->hn && l->hp[l->hhead].t <= now) {
        struct hit h = l->hp[l->hhead];
        l->hhead = l->hhead + 1 == l->hcap ? 0 : l->hhead + 1;
        l->hn--;
        complete(l, h.r, h.t);
    }
    drain(l, now);
    if (l->qn && !l->wait_fill) {
        struct qent *q = &l->q[l->qhead];
        if (!q->r) {
            unblock(l, now);
            if (--q->smem_left == 0) {
                uint32_t idx = q->mi;
                q_pop(l);
                freed = true;
                struct minst *m = &l->mi[idx];
                m->left--;
                if (m->left == 0)
                    finish_inst(l, idx,
                                now + (l->cfg.smem_lat > 0 ? (uint64_t)l->cfg.smem_lat : 0));
            }
        } else if (cache_miss_pending(l->l1) || l->on >= l->ocap) {
            block(l, BLK_PORT, now);
        } else if (access_l1(l, q, now, now)) {
            uint32_t mi = q->mi, used = l->banks > 1 ? bank_mask(l, q->r) : 0;
            q_pop(l);
            freed = true;
            drain(l, now);
            /* Further requests of the same instruction in this cycle, each on banks still
             * free, under the same conditions as the first (the miss queue has moved on). */
            for (uint32_t k = 1; k < l->banks && l->qn && !l->wait_fill; k++) {
                q = &l->q[l->qhead];
                if (!q->r || q->mi != mi || cache_miss_pending(l->l1) || l->on >= l->ocap) break;
                uint32_t b = bank_mask(l, q->r);
                if ((b & used) || !access_l1(l, q, now, now + 1)) break;
                used |= b;
                q_pop(l);
                drain(l, now);
            }
        }
    }
    return freed || l->mi_used < mi_before;
}

bool ldst_reply(struct ldst *l, struct mem_req *r, uint64_t now) {
    WS_ASSERT(r->src == l->sm, "reply for SM %u delivered to SM %u", (unsigned)r->src, l->sm);
    uint32_t mi_before = l->mi_used;
    if (r->tag & TAG_FETCH) {
        if (r->kind == MEM_LOAD) {
            cache_fill_from(l->l1, r->addr, r->sectors, r->offchip_sectors, now);
            struct mem_req *q;
            while ((q = cache_ready_pop(l->l1))) {
                if (r->offchip || q->offchip_sectors) q->offchip = true;
                for (int s = MEM_TS_NOC_IN; s < MEM_TS_BACK; s++)
                    if (!q->ts[s]) q->ts[s] = r->ts[s];
                complete(l, q, now);
            }
            l->wait_fill = false; /* the blocked cycles are counted at the retry */
        }
        l->env.req_free(l->env.ctx, r);
        l->st->reqs_freed++;
        drain(l, now);
    } else {
        WS_ASSERT(r->tag & TAG_FWD, "reply for a request that never left SM %u", l->sm);
        complete(l, r, now);
    }
    return l->mi_used < mi_before;
}

/* The head is a global access that cannot go before the NoC takes a request from the full
 * outgoing ring (which wakes the SM). */
static bool ring_holds_head(const struct ldst *l) {
    return l->on >= l->ocap && l->qn && !l->wait_fill && l->q[l->qhead].r;
}

void ldst_settle(struct ldst *l, uint64_t now) {
    if (ring_holds_head(l)) block(l, BLK_PORT, now + 1);
}

uint64_t ldst_next_event(const struct ldst *l, uint64_t floor) {
    /* With the outgoing ring full the miss queue cannot drain and a global access at the head
     * stays blocked (BLK_PORT, timed by block/unblock) until the NoC takes a request; requests
     * in a ring that is not full need no step either: the NoC drains it. */
    if (l->on < l->ocap && cache_miss_pending(l->l1)) return floor;
    if (l->qn && !l->wait_fill && !ring_holds_head(l)) return floor;
    uint64_t t = UINT64_MAX;
    if (l->hn) t = l->hp[l->hhead].t;
    return t < floor ? floor : t;
}

struct mem_req *ldst_out_peek(const struct ldst *l) {
    return l->on ? l->out[l->ohead] : NULL;
}

void ldst_out_pop(struct ldst *l) {
    WS_ASSERT(l->on, "sm_out_pop on an empty queue");
    l->ohead = l->ohead + 1 == l->ocap ? 0 : l->ohead + 1;
    l->on--;
}

uint32_t ldst_inflight(const struct ldst *l) {
    return l->mi_used;
}

uint32_t ldst_queued(const struct ldst *l) {
    return l->qreq;
}

bool ldst_idle(const struct ldst *l) {
    return l->mi_used == 0 && l->qn == 0 && l->hn == 0 && l->on == 0 && cache_idle(l->l1);
}

void ldst_describe(const struct ldst *l, char *buf, size_t n) {
    snprintf(buf, n,
             "LDST: %u queued, %u instructions in flight, %u L1 hits returning, %u to the NoC, "
             "L1 MSHRs %u%s%s",
             l->qn, l->mi_used, l->hn, l->on, cache_mshr_used(l->l1),
             l->wait_fill ? ", blocked by a reservation failure until a fill" : "",
             l->blk == BLK_PORT ? ", blocked: outgoing queue full" : "");
}

void ldst_finish(struct ldst *l, uint64_t end) {
    if (l->blk != BLK_NONE && end > l->blk_since) unblock(l, end);
    cache_finish(l->l1);
}
