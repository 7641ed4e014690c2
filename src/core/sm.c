/* The SM. Cost model of the simulation itself: every warp has a `ready_at`, the earliest cycle
 * at which it is worth looking at again (a scoreboard entry's write cycle, the unit's next free
 * cycle, or "never" while it waits for a load, a barrier or room in the LDST unit, in which case
 * the event that ends the wait lowers it). A sub-core is examined only when one of its warps has
 * reached its ready_at, so a cycle in which nothing can issue costs O(sub-cores), and an SM waiting
 * only for memory is not called at all (sm_next_event). Stall reasons of the cycles skipped this
 * way are counted when the sub-core is next examined: nothing changed in between.
 *
 * Fetch and decode are not modelled: a warp's instruction buffer is refilled from the workload
 * right after each issue, so an instruction is always waiting (stall_ibuf stays 0 for now). */
#include "core/sm.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "core/ldst.h"
#include "core/scoreboard.h"
#include "core/subcore_assign.h"

/* ---- configuration ---- */

#define OFF(f) offsetof(struct sm_cfg, f)
const struct cfg_key sm_cfg_keys[] = {
    {"core.max_warps", CFG_INT, OFF(max_warps), "32", 1, 1024, NULL, "warps",
     "resident warps per SM (occupancy limit)"},
    {"core.max_ctas", CFG_INT, OFF(max_ctas), "32", 1, 1024, NULL, "CTAs",
     "resident CTAs (thread blocks) per SM"},
    {"core.max_threads", CFG_INT, OFF(max_threads), "1024", 1, 32768, NULL, "threads",
     "resident threads per SM"},
    {"core.regs", CFG_INT, OFF(regs), "65536", 0, 1 << 24, NULL, "32-bit registers",
     "register file per SM; a CTA takes regs/thread x 32 per warp (allocated per whole warp)"},
    {"core.smem", CFG_INT, OFF(smem), "65536", 0, 1 << 26, NULL, "bytes", "shared memory per SM"},
    {"core.subcores", CFG_INT, OFF(subcores), "4", 1, 64, NULL, "sub-cores",
     "sub-cores per SM, each with its own warp scheduler and execution units"},
    {"core.warp_sched", CFG_STRING, OFF(warp_sched), "lrr", 0, 0, NULL, "",
     "warp scheduler of each sub-core (src/core/sched/): lrr, gto"},
    {"core.subcore_assign", CFG_STRING, OFF(subcore_assign), "rr", 0, 0, NULL, "",
     "how warps are bound to sub-cores: rr (slot i -> sub-core i mod n)"},
    {"core.ibuf", CFG_INT, OFF(ibuf), "2", 1, 16, NULL, "instructions",
     "instruction-buffer entries per warp (what a scheduler can look ahead at)"},
    {"core.lat_int", CFG_INT, OFF(lat[OP_INT]), "4", 1, 100000, NULL, "cycles",
     "integer result latency"},
    {"core.lat_sp", CFG_INT, OFF(lat[OP_SP]), "4", 1, 100000, NULL, "cycles",
     "single-precision result latency"},
    {"core.lat_dp", CFG_INT, OFF(lat[OP_DP]), "64", 1, 100000, NULL, "cycles",
     "double-precision result latency"},
    {"core.lat_sfu", CFG_INT, OFF(lat[OP_SFU]), "21", 1, 100000, NULL, "cycles",
     "special-function (transcendental) result latency"},
    {"core.lat_tensor", CFG_INT, OFF(lat[OP_TENSOR]), "32", 1, 100000, NULL, "cycles",
     "tensor-core result latency"},
    {"core.lat_branch", CFG_INT, OFF(lat[OP_BRANCH]), "4", 1, 100000, NULL, "cycles",
     "branch result latency (predicate/target registers)"},
    {"core.lat_bar", CFG_INT, OFF(lat[OP_BAR]), "1", 1, 100000, NULL, "cycles",
     "cycles from the last warp reaching bar.sync to its CTA's warps issuing again"},
    {"core.ii_int", CFG_INT, OFF(ii[OP_INT]), "2", 1, 100000, NULL, "cycles",
     "initiation interval of a sub-core's integer unit"},
    {"core.ii_sp", CFG_INT, OFF(ii[OP_SP]), "2", 1, 100000, NULL, "cycles",
     "initiation interval of a sub-core's single-precision unit"},
    {"core.ii_dp", CFG_INT, OFF(ii[OP_DP]), "8", 1, 100000, NULL, "cycles",
     "initiation interval of a sub-core's double-precision unit"},
    {"core.ii_sfu", CFG_INT, OFF(ii[OP_SFU]), "8", 1, 100000, NULL, "cycles",
     "initiation interval of a sub-core's special-function unit"},
    {"core.ii_tensor", CFG_INT, OFF(ii[OP_TENSOR]), "8", 1, 100000, NULL, "cycles",
     "initiation interval of a sub-core's tensor unit"},
    {"core.ii_branch", CFG_INT, OFF(ii[OP_BRANCH]), "1", 1, 100000, NULL, "cycles",
     "initiation interval of a sub-core's branch unit"},
    {"core.ii_bar", CFG_INT, OFF(ii[OP_BAR]), "1", 1, 100000, NULL, "cycles",
     "initiation interval of bar.sync on a sub-core"},
    {"core.ii_mem", CFG_INT, OFF(ii[OP_MEM]), "1", 1, 100000, NULL, "cycles",
     "cycles between memory instructions a sub-core hands to the LDST unit"},
    {"core.smem_banks", CFG_INT, OFF(smem_banks), "32", 1, 64, NULL, "banks",
     "shared-memory banks of 4 bytes"},
    {"core.smem_lat", CFG_INT, OFF(smem_lat), "24", 0, 100000, NULL, "cycles",
     "shared-memory latency after its last bank-conflict cycle"},
    {"core.ldst_q", CFG_INT, OFF(ldst_q), "64", 1, 65536, NULL, "requests",
     "line requests the LDST unit holds before the L1D port (an empty unit takes any "
     "instruction)"},
    {"core.l1_banks", CFG_INT, OFF(l1_banks), "1", 1, 32, NULL, "banks",
     "L1D banks, core.sector bytes interleaved: one cycle takes up to this many line requests of "
     "one instruction whose sectors use distinct banks (GPGPU-Sim gpgpu_l1_banks)"},
    {"core.line", CFG_INT, OFF(line), "128", 16, 4096, NULL, "bytes",
     "coalescing line: one request per line touched (at least 16 B, the widest lane access)"},
    {"core.sector", CFG_INT, OFF(sector), "32", 1, 4096, NULL, "bytes",
     "coalescing sector: the request's sector mask granularity"},
    {"core.out_q", CFG_INT, OFF(out_q), "8", 1, 65536, NULL, "requests",
     "requests waiting to enter the NoC (memory port); full blocks the LDST unit"},
};
const unsigned sm_cfg_nkeys = CFG_COUNT(sm_cfg_keys);

static bool pow2(int64_t v) {
    return v > 0 && (v & (v - 1)) == 0;
}

int sm_cfg_configure(struct sm_cfg *sc, struct cfg *c, struct ws_err *e) {
    memset(sc, 0, sizeof *sc);
    sc->lat[OP_MEM] = sc->lat[OP_EXIT] = 1;
    sc->ii[OP_EXIT] = 1;
    if (cfg_bind(c, "core", sm_cfg_keys, CFG_COUNT(sm_cfg_keys), sc, e) != 0) return -1;
    char where[600];
    if (!pow2(sc->line))
        return ws_fail(e, "%s: core.line = %lld is not a power of two",
                       cfg_origin(c, "core.line", where, sizeof where), (long long)sc->line);
    if (!pow2(sc->sector) || sc->sector > sc->line || sc->line / sc->sector > 8)
        return ws_fail(e,
                       "%s: core.sector = %lld must be a power of two dividing core.line = %lld "
                       "into at most 8 sectors",
                       cfg_origin(c, "core.sector", where, sizeof where), (long long)sc->sector,
                       (long long)sc->line);
    if (sc->subcores > sc->max_warps)
        return ws_fail(e, "%s: core.subcores = %lld exceeds core.max_warps = %lld",
                       cfg_origin(c, "core.subcores", where, sizeof where), (long long)sc->subcores,
                       (long long)sc->max_warps);
    const struct sched_policy *p = sched_find(sc->warp_sched);
    if (!p) {
        char list[256];
        sched_list(list, sizeof list);
        return ws_fail(e, "%s: core.warp_sched = '%s' is not a known warp scheduler (known: %s)",
                       cfg_origin(c, "core.warp_sched", where, sizeof where), sc->warp_sched, list);
    }
    if (!subcore_assign_find(sc->subcore_assign)) {
        char list[256] = "";
        for (unsigned i = 0; i < subcore_nassigns; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, subcore_assigns[i].name, sizeof list - strlen(list) - 1);
        }
        return ws_fail(e, "%s: core.subcore_assign = '%s' is not known (known: %s)",
                       cfg_origin(c, "core.subcore_assign", where, sizeof where),
                       sc->subcore_assign, list);
    }
    if (p->configure && p->configure(sc->sched_params, c, e) != 0) return -1;
    return 0;
}

/* ---- statistics ---- */

#define SD(f, kind, unit, doc)                                                                     \
    { #f, kind, offsetof(struct sm_stats, f), unit, doc }
const struct stat_desc sm_stat_desc[] = {
    SD(cycles_active, STAT_COUNTER, "cycles",
       "core cycles from a CTA starting on an idle SM until its last resident CTA completes"),
    SD(warp_insts, STAT_COUNTER, "insts", "warp instructions issued (EXIT included)"),
    SD(thread_insts, STAT_COUNTER, "insts", "active lanes summed over issued instructions"),
    SD(ctas_done, STAT_COUNTER, "CTAs", "CTAs completed (all warps exited, memory drained)"),
    SD(stall_scoreboard, STAT_COUNTER, "cycles",
       "scheduler cycles without issue whose oldest warp waited for a register (RAW/WAW)"),
    SD(stall_unit, STAT_COUNTER, "cycles",
       "scheduler cycles without issue whose oldest warp waited for a busy execution unit"),
    SD(stall_ibuf, STAT_COUNTER, "cycles",
       "scheduler cycles without issue whose oldest warp had no decoded instruction"),
    SD(stall_ldst, STAT_COUNTER, "cycles",
       "scheduler cycles without issue whose oldest warp's memory instruction found the LDST "
       "unit full"),
    SD(stall_barrier, STAT_COUNTER, "cycles",
       "scheduler cycles without issue whose oldest warp waited at bar.sync"),
    SD(stall_sched, STAT_COUNTER, "cycles",
       "scheduler cycles without issue although a warp was ready (held back by the policy)"),
    SD(ldst_resfail_cycles, STAT_COUNTER, "cycles",
       "cycles from an L1D reservation failure to the access that succeeds (memory occlusion)"),
    SD(ldst_port_cycles, STAT_COUNTER, "cycles",
       "cycles the LDST unit waited because the outgoing (NoC) queue was full"),
    SD(mem_reqs, STAT_COUNTER, "req",
       "line requests made by the coalescer (global, local, constant, texture)"),
    SD(rf_reads, STAT_COUNTER, "lane accesses",
       "register-file operand reads: source registers x active lanes, over issued instructions"),
    SD(rf_writes, STAT_COUNTER, "lane accesses",
       "register-file writes: destination registers x active lanes, over issued instructions"),
    SD(mem_insts, STAT_COUNTER, "insts",
       "warp memory instructions that went through the coalescer (all but shared memory)"),
    SD(load_warps, STAT_COUNTER, "insts",
       "warp-loads completed: global load instructions whose last request came back"),
    SD(smem_accesses, STAT_COUNTER, "insts", "shared-memory instructions"),
    SD(smem_conflict_cycles, STAT_COUNTER, "cycles",
       "extra LDST cycles from shared-memory bank conflicts (conflict degree - 1 per access)"),
    SD(reqs_created, STAT_COUNTER, "req",
       "requests this SM took from the pool (line requests, L1 fetches, writebacks)"),
    SD(reqs_freed, STAT_COUNTER, "req",
       "requests this SM gave back (equals reqs_created "
       "when the SM is drained)"),
    SD(offchip_per_load, STAT_HIST, "sectors",
       "off-chip (DRAM) accesses of one warp-load, in 32 B sectors of its requests served from "
       "DRAM; mean < 2 LOA, 2-8 MOA, > 8 HOA (seed 000)"),
    SD(lat_div, STAT_HIST, "cycles",
       "memory latency divergence of a warp-load with >= 1 off-chip request: slowest minus "
       "fastest off-chip turnaround (seed 000)"),
    SD(conc_loads, STAT_COUNTER, "", "global load warp instructions issued to the L1D"),
    SD(conc_milli, STAT_COUNTER, "",
       "sum over those loads of 1000 x intra-warp concentration (seed 001 Eq. 3.1): the load's "
       "line accesses / the distinct L1D sets they index under l1d.index"),
    SD(lat_div_in_mc, STAT_HIST, "cycles",
       "In-MC part of a warp-load's latency divergence (seed 000 Fig. 6): time in the memory "
       "controller (queue arrival to last data beat) of its slowest minus its fastest off-chip "
       "request, clamped to [0, divergence]; the rest is Ex-MC (L1 MSHR, NoC, L2)"),
    SD(mc_assembly, STAT_HIST, "cycles",
       "warp-group assembly time of a warp-load with >= 1 off-chip request: over the controllers "
       "its requests reached, the largest gap between the first and the last arrival at one "
       "controller (seed 002 Sec. 4.3.1: a warp-group is complete once all of its requests have "
       "arrived; the thesis puts this under 3 % of the memory latency)"),
    SD(mcs_per_load, STAT_HIST, "controllers",
       "memory controllers (channels) the off-chip requests of a warp-load with >= 1 of them "
       "reached, up to 16 (seed 002 Sec. 4.2: spmv, sp, sssp and cfd warps touch about 3.2 on "
       "average, sad, nw and SS usually one)"),
    SD(load_time, STAT_HIST, "cycles",
       "load-warp execution time: issue of the load instruction to its last request back"),
    SD(req_turnaround, STAT_HIST, "cycles",
       "turnaround of one off-chip request of a warp-load: LDST issue to back at the SM"),
};
const unsigned sm_stat_ndesc = CFG_COUNT(sm_stat_desc);

/* ---- state ---- */

enum wstate { W_FREE, W_ACTIVE, W_BAR, W_EXITED };
enum { STALL_SCHED = STALL_N }; /* ready warps held back by the scheduler */

/* A warp slot. Its scheduling state (ready_at, stall reason, next instruction) lives in its
 * sub-core's arrays at index vi, kept contiguous so that examining a sub-core reads little. */
struct warp {
    uint8_t state; /* enum wstate */
    uint8_t ib_head, ib_n;
    bool fetched_exit; /* the workload gave its EXIT: never ask it again */
    bool fetched_bar;  /* the buffer ends at a bar.sync: fetch on only once it is released */
    uint16_t subcore;
    uint32_t vi;       /* index in its sub-core's view / rdy arrays */
    uint32_t cta;      /* CTA slot */
    uint32_t inflight; /* memory instructions in flight */
    uint64_t age;
    uint64_t seq; /* memory instructions issued from this slot (load ids), never reset */
    struct wl_warp *gen;
    struct inst *ib;
    /* The head instruction coalesced, once, when it became the head: the request count the
     * scheduler checks queue room for, then the lines the LDST unit issues. */
    struct coal_line *hl;
    uint16_t hl_n;
    bool hl_ok; /* hl, hl_n are the current head's */
    struct scoreboard sb;
};

struct cta {
    bool live;
    uint64_t idx;
    uint32_t kernel;
    struct workload *wl;
    uint32_t nwarps, exited, at_bar, done;
    uint32_t threads;
    uint64_t regs, smem;
    uint32_t *slots;       /* its warp slots */
    struct wl_warp **gens; /* its warp generators, for cta_end */
};

struct subcore {
    uint32_t n, nlive;       /* resident warps / those not exited nor at a barrier */
    struct sched_warp *view; /* resident warps in slot order: what the scheduler sees */
    uint64_t *rdy;           /* ready_at of view[i]: earliest cycle worth checking it again */
    bool *sb_ok;             /* view[i]'s next instruction passed the scoreboard: only its own
                                issue adds entries, so it stays passed until the head changes */
    void *sched;
    uint64_t unit_free[OP_NCLASS];
    uint64_t next_ready; /* min ready_at of its live warps (may be early, never late) */
    uint64_t acct;       /* first cycle whose stall reason is not yet counted */
    uint8_t reason;      /* stall reason of the cycles since the last examination */
};

struct sm {
    struct sm_cfg cfg;
    struct sm_env env;
    uint32_t id;
    const struct sched_policy *pol;
    void *sched_shared;
    const struct subcore_assign *assign;
    uint32_t nsub, max_warps, max_cta_warps, l1_mshrs;
    struct warp *w;
    struct cta *cta;
    struct subcore *sc;
    struct inst *ib_store;
    struct coal_line *hl_store;
    struct ldst *ldst;
    struct sm_stats st;
    uint32_t resident, warps_used, threads_used, finished;
    uint64_t regs_used, smem_used;
    uint64_t next_age, nth_warp;
    uint64_t floor;        /* last cycle run + 1 */
    uint64_t now;          /* the cycle being run (or of the reply being handled) */
    uint64_t active_since; /* first cycle of the current busy period */
    bool ldst_wait;        /* some warp waits for room in the LDST unit */
    bool lockstep;         /* examine sub-cores that are not due too */
    uint32_t ldst_need;    /* the smallest room (entries) such a warp needs */
    sm_trace_fn trace;
    void *trace_ctx;
};

static uint64_t umin(uint64_t a, uint64_t b) {
    return a < b ? a : b;
}

static struct sched_warp *view_of(const struct sm *s, const struct warp *w) {
    return &s->sc[w->subcore].view[w->vi];
}

static void wake(struct sm *s, struct warp *w, uint64_t t) {
    struct subcore *sc = &s->sc[w->subcore];
    if (t < sc->rdy[w->vi]) sc->rdy[w->vi] = t;
    if (t < sc->next_ready) sc->next_ready = t;
}

/* Warps waiting for LDST room look again once the smallest of their needs fits. */
static void wake_ldst_waiters(struct sm *s, uint64_t now) {
    if (!ldst_can_accept(s->ldst, s->ldst_need)) return;
    s->ldst_wait = false;
    s->ldst_need = UINT32_MAX;
    for (uint32_t k = 0; k < s->nsub; k++) {
        struct subcore *sc = &s->sc[k];
        for (uint32_t i = 0; i < sc->n; i++)
            if (sc->view[i].stall == STALL_LDST && sc->rdy[i] > now) {
                sc->rdy[i] = now;
                if (now < sc->next_ready) sc->next_ready = now;
            }
    }
}

/* The scheduler's view of a warp's next instruction, after its buffer changed. */
static void view_head(struct sm *s, struct warp *w) {
    struct sched_warp *v = view_of(s, w);
    s->sc[w->subcore].sb_ok[w->vi] = false;
    v->next = w->ib_n ? &w->ib[w->ib_head] : NULL;
    if (w->ib_n && !w->hl_ok) {
        const struct inst *in = &w->ib[w->ib_head];
        w->hl_n =
            (uint16_t)(in->cls == OP_MEM && in->active ? ldst_coalesce(s->ldst, in, w->hl) : 0);
        w->hl_ok = true;
    }
    v->nreq = w->ib_n ? w->hl_n : 0;
}

static void add_stall(struct sm *s, unsigned reason, uint64_t n) {
    switch (reason) {
    case STALL_SCOREBOARD:
        s->st.stall_scoreboard += n;
        break;
    case STALL_UNIT:
        s->st.stall_unit += n;
        break;
    case STALL_IBUF:
        s->st.stall_ibuf += n;
        break;
    case STALL_LDST:
        s->st.stall_ldst += n;
        break;
    case STALL_BARRIER:
        s->st.stall_barrier += n;
        break;
    case STALL_SCHED:
        s->st.stall_sched += n;
        break;
    default:
        break;
    }
}

/* ---- CTAs and warps ---- */

static uint32_t warps_of(const struct kernel_desc *k) {
    return (k->threads + WARP_SIZE - 1) / WARP_SIZE;
}

/* Registers per CTA. A kernel compiled with __launch_bounds__(threads, n) uses at most as many
 * registers per thread as let n CTAs share the register file (nvcc spills the rest; the spill
 * traffic is not modelled). */
static uint64_t regs_of(const struct sm_cfg *sc, const struct kernel_desc *k) {
    uint64_t t = (uint64_t)warps_of(k) * WARP_SIZE, r = k->regs;
    if (k->bound_ctas && t && r * t * k->bound_ctas > (uint64_t)sc->regs)
        r = (uint64_t)sc->regs / (t * k->bound_ctas);
    return t * r;
}

uint32_t sm_occupancy(const struct sm_cfg *sc, const struct kernel_desc *k) {
    if (k->threads == 0) return 0;
    uint64_t n = (uint64_t)sc->max_ctas;
    n = umin(n, (uint64_t)sc->max_warps / warps_of(k));
    n = umin(n, (uint64_t)sc->max_threads / k->threads);
    if (regs_of(sc, k)) n = umin(n, (uint64_t)sc->regs / regs_of(sc, k));
    if (k->smem) n = umin(n, (uint64_t)sc->smem / k->smem);
    return (uint32_t)n;
}

bool sm_can_take(const struct sm *s, const struct kernel_desc *k) {
    const struct sm_cfg *c = &s->cfg;
    uint32_t nw = warps_of(k);
    return k->threads > 0 && s->resident < (uint64_t)c->max_ctas &&
           s->warps_used + nw <= (uint64_t)c->max_warps &&
           s->threads_used + k->threads <= (uint64_t)c->max_threads &&
           s->regs_used + regs_of(c, k) <= (uint64_t)c->regs &&
           s->smem_used + k->smem <= (uint64_t)c->smem;
}

static int bad_inst(const struct sm *s, const struct warp *w, const struct inst *in,
                    struct ws_err *e, const char *what) {
    const struct cta *c = &s->cta[w->cta];
    return ws_fail(e, "workload '%s': kernel %u, CTA %llu, warp %u: instruction at pc 0x%llx: %s",
                   c->wl->name ? c->wl->name : "?", c->kernel, (unsigned long long)c->idx,
                   (unsigned)(w - s->w), (unsigned long long)in->pc, what);
}

static int check_inst(const struct sm *s, const struct warp *w, const struct inst *in,
                      struct ws_err *e) {
    if (in->cls >= OP_NCLASS) return bad_inst(s, w, in, e, "unknown op class");
    if (in->ndst > INST_MAX_DST || in->nsrc > INST_MAX_SRC)
        return bad_inst(s, w, in, e, "too many register operands");
    if (in->cls == OP_MEM) {
        if (in->space == SPACE_NONE || in->space > SPACE_TEX)
            return bad_inst(s, w, in, e, "memory instruction without a valid space");
        if (in->mop > MOP_ATOMIC) return bad_inst(s, w, in, e, "unknown memory operation");
        unsigned wd = in->width;
        if (wd != 1 && wd != 2 && wd != 4 && wd != 8 && wd != 16)
            return bad_inst(s, w, in, e, "memory width is not 1, 2, 4, 8 or 16 bytes");
    }
    return 0;
}

/* Tops up the warp's instruction buffer from the workload. */
static int fill(struct sm *s, struct warp *w, struct ws_err *e) {
    uint32_t cap = (uint32_t)s->cfg.ibuf;
    struct workload *wl = s->cta[w->cta].wl;
    /* Nothing past a bar.sync is generated until the barrier releases: built-in kernel models
     * compute values as instructions are generated, so a shared-memory load after the barrier
     * must not be generated before the other warps' stores before it. */
    while (w->ib_n < cap && !w->fetched_exit && !w->fetched_bar) {
        uint32_t i = w->ib_head + w->ib_n;
        if (i >= cap) i -= cap;
        struct inst *in = &w->ib[i];
        if (wl->vt->warp_next(wl, w->gen, in, e) != 0) return -1;
        if (check_inst(s, w, in, e) != 0) return -1;
        if (in->cls == OP_EXIT) w->fetched_exit = true;
        if (in->cls == OP_BAR) w->fetched_bar = true;
        w->ib_n++;
    }
    return 0;
}

int sm_take_cta(struct sm *s, struct workload *wl, const struct kernel_desc *k, uint64_t cta,
                uint64_t now, struct ws_err *e) {
    if (!sm_can_take(s, k))
        return ws_fail(e, "SM %u: a CTA of kernel '%s' does not fit now (occupancy)", s->id,
                       k->name);
    uint32_t nw = warps_of(k);
    if (nw > s->max_cta_warps)
        return ws_fail(e, "SM %u: kernel '%s' has %u warps per CTA, more than %u", s->id, k->name,
                       nw, s->max_cta_warps);
    uint32_t ci = 0;
    while (s->cta[ci].live) ci++;
    struct cta *c = &s->cta[ci];
    if (wl->vt->cta_start(wl, cta, c->gens, e) != 0) return -1;
    *c = (struct cta){.live = true,
                      .idx = cta,
                      .kernel = k->id,
                      .wl = wl,
                      .nwarps = nw,
                      .threads = k->threads,
                      .regs = regs_of(&s->cfg, k),
                      .smem = k->smem,
                      .slots = c->slots,
                      .gens = c->gens};
    if (s->resident == 0) s->active_since = now;
    s->resident++;
    s->warps_used += nw;
    s->threads_used += k->threads;
    s->regs_used += c->regs;
    s->smem_used += c->smem;
    uint32_t slot = 0;
    for (uint32_t i = 0; i < nw; i++) {
        while (s->w[slot].state != W_FREE) slot++;
        c->slots[i] = slot;
        struct warp *w = &s->w[slot];
        uint32_t sub = s->assign->pick(slot, s->nth_warp++, s->nsub) % s->nsub;
        w->state = W_ACTIVE;
        w->ib_head = w->ib_n = 0;
        w->hl_ok = false;
        w->fetched_exit = false;
        w->fetched_bar = false;
        w->subcore = (uint16_t)sub;
        w->cta = ci;
        w->inflight = 0;
        w->age = s->next_age++;
        w->gen = c->gens[i];
        sb_init(&w->sb);
        struct subcore *sc = &s->sc[sub];
        uint32_t pos = sc->n;
        while (pos > 0 && sc->view[pos - 1].slot > slot) {
            sc->view[pos] = sc->view[pos - 1];
            sc->rdy[pos] = sc->rdy[pos - 1];
            sc->sb_ok[pos] = sc->sb_ok[pos - 1];
            s->w[sc->view[pos].slot].vi = pos;
            pos--;
        }
        sc->view[pos] = (struct sched_warp){.slot = slot, .cta = ci, .age = w->age};
        sc->rdy[pos] = UINT64_MAX;
        w->vi = pos;
        sc->n++;
        sc->nlive++;
        if (s->pol->on_warp_start) s->pol->on_warp_start(sc->sched, slot, w->age);
        wake(s, w, now);
    }
    for (uint32_t i = 0; i < nw; i++) {
        struct warp *w = &s->w[c->slots[i]];
        if (fill(s, w, e) != 0) return -1;
        view_head(s, w);
    }
    return 0;
}

static void cta_release(struct sm *s, struct cta *c) {
    c->wl->vt->cta_end(c->wl, c->idx, c->gens);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        uint32_t slot = c->slots[i];
        struct warp *w = &s->w[slot];
        struct subcore *sc = &s->sc[w->subcore];
        for (uint32_t pos = w->vi; pos + 1 < sc->n; pos++) {
            sc->view[pos] = sc->view[pos + 1];
            sc->rdy[pos] = sc->rdy[pos + 1];
            sc->sb_ok[pos] = sc->sb_ok[pos + 1];
            s->w[sc->view[pos].slot].vi = pos;
        }
        sc->n--;
        w->state = W_FREE;
        w->gen = NULL;
        if (s->pol->on_warp_end) s->pol->on_warp_end(sc->sched, slot);
    }
    s->warps_used -= c->nwarps;
    s->threads_used -= c->threads;
    s->regs_used -= c->regs;
    s->smem_used -= c->smem;
    c->live = false;
    s->resident--;
    s->finished++;
    s->st.ctas_done++;
    if (s->resident == 0 && s->now > s->active_since)
        s->st.cycles_active += s->now - s->active_since;
}

static void warp_done(struct sm *s, struct warp *w) {
    struct cta *c = &s->cta[w->cta];
    if (++c->done == c->nwarps) cta_release(s, c);
}

/* bar.sync completes when every warp of the CTA that has not exited has arrived. */
static int bar_check(struct sm *s, struct cta *c, uint64_t now, struct ws_err *e) {
    if (c->at_bar == 0 || c->at_bar + c->exited < c->nwarps) return 0;
    uint64_t t = now + (uint64_t)s->cfg.lat[OP_BAR];
    for (uint32_t i = 0; i < c->nwarps; i++) {
        struct warp *w = &s->w[c->slots[i]];
        if (w->state != W_BAR) continue;
        w->state = W_ACTIVE;
        /* The stall stays STALL_BARRIER until check() looks at the warp: the barrier's own
         * latency counts as waiting at it whether or not the sub-core is examined meanwhile. */
        s->sc[w->subcore].nlive++;
        w->fetched_bar = false;
        if (fill(s, w, e) != 0) return -1;
        view_head(s, w);
        wake(s, w, t);
    }
    c->at_bar = 0;
    return 0;
}

/* The LDST unit completed a memory instruction of warp `slot`. */
static void on_mem_done(void *ctx, uint32_t slot, const uint16_t *dst, unsigned ndst, uint64_t t) {
    struct sm *s = ctx;
    struct warp *w = &s->w[slot];
    for (unsigned k = 0; k < ndst; k++) sb_release(&w->sb, dst[k], t);
    WS_ASSERT(w->inflight > 0, "SM %u warp %u: memory completion without an instruction", s->id,
              slot);
    w->inflight--;
    if (w->state == W_ACTIVE)
        wake(s, w, t);
    else if (w->state == W_EXITED && w->inflight == 0)
        warp_done(s, w);
}

static void on_l1_access(void *ctx, const struct mem_req *r, int outcome, uint64_t now) {
    struct sm *s = ctx;
    struct subcore *sc = &s->sc[r->o.subcore];
    s->pol->on_l1_access(sc->sched, r, outcome, now);
}

/* ---- issue ---- */

/* Whether the warp at view index i could issue its next instruction now; otherwise records why
 * and when to look again. */
static bool check(struct sm *s, struct subcore *sc, uint32_t i, uint64_t now) {
    struct sched_warp *v = &sc->view[i];
    const struct inst *in = v->next;
    if (!in) {
        v->stall = STALL_IBUF;
        sc->rdy[i] = now + 1;
        return false;
    }
    if (!sc->sb_ok[i]) {
        uint64_t t = sb_ready_at(&s->w[v->slot].sb, in, now);
        if (t > now) {
            v->stall = STALL_SCOREBOARD;
            sc->rdy[i] = t;
            return false;
        }
        sc->sb_ok[i] = true;
    }
    if (sc->unit_free[in->cls] > now) {
        v->stall = STALL_UNIT;
        sc->rdy[i] = sc->unit_free[in->cls];
        return false;
    }
    if (in->cls == OP_MEM && in->active && !ldst_can_accept(s->ldst, v->nreq)) {
        v->stall = STALL_LDST;
        sc->rdy[i] = UINT64_MAX;
        s->ldst_wait = true;
        if (v->nreq < s->ldst_need) s->ldst_need = v->nreq;
        return false;
    }
    v->stall = STALL_NONE;
    sc->rdy[i] = now;
    return true;
}

/* Issues the head instruction of warp w. Returns 1 issued, 0 not (the request pool was empty),
 * -1 on a workload error. */
static int issue(struct sm *s, struct subcore *sc, struct warp *w, uint64_t now, struct ws_err *e) {
    struct sched_warp *v = &sc->view[w->vi];
    uint64_t *rdy = &sc->rdy[w->vi];
    const struct inst *in = &w->ib[w->ib_head];
    uint32_t slot = (uint32_t)(w - s->w);
    struct cta *c = &s->cta[w->cta];
    unsigned cls = in->cls;
    if (cls == OP_MEM && in->active) {
        uint32_t gw = s->id * s->max_warps + slot;
        struct mem_origin o = {.app = (uint16_t)s->env.app,
                               .kernel = (uint16_t)c->kernel,
                               .sm = (uint16_t)s->id,
                               .subcore = w->subcore,
                               .warp_slot = slot,
                               .gwarp = gw,
                               .load_id = ((uint64_t)gw << 32) | (uint32_t)w->seq,
                               .pc = in->pc};
        WS_ASSERT(w->hl_ok, "SM %u: warp %u issues a head it has not coalesced", s->id, slot);
        if (!ldst_issue(s->ldst, in, w->hl, w->hl_n, &o, now)) {
            v->stall = STALL_LDST;
            *rdy = now + 1;
            return 0;
        }
        w->seq++;
        w->inflight++;
        if (in->mop != MOP_STORE)
            for (unsigned k = 0; k < in->ndst; k++) sb_reserve(&w->sb, in->dst[k], SB_PENDING);
    }
    sc->unit_free[cls] = now + (in->ii ? in->ii : (uint64_t)s->cfg.ii[cls]);
    s->st.warp_insts++;
    uint64_t lanes = ws_popcount32(in->active);
    s->st.thread_insts += lanes;
    s->st.insts_by_class[cls]++;
    s->st.lanes_by_class[cls] += lanes;
    /* register-file traffic for the energy model: one 32-bit access per operand and lane */
    for (unsigned k = 0; k < in->nsrc; k++) s->st.rf_reads += in->src[k] != REG_NONE ? lanes : 0;
    for (unsigned k = 0; k < in->ndst; k++) s->st.rf_writes += in->dst[k] != REG_NONE ? lanes : 0;
    if (s->pol->on_issue) s->pol->on_issue(sc->sched, v, now);
    if (s->trace) s->trace(s->trace_ctx, s->id, w->subcore, slot, in, now);
    *rdy = now + 1;
    v->stall = STALL_NONE;
    switch (cls) {
    case OP_MEM:
        break;
    case OP_BAR:
        w->state = W_BAR;
        v->stall = STALL_BARRIER;
        *rdy = UINT64_MAX;
        sc->nlive--;
        c->at_bar++;
        if (bar_check(s, c, now, e) != 0) return -1;
        break;
    case OP_EXIT:
        w->state = W_EXITED;
        v->stall = STALL_EXITED;
        *rdy = UINT64_MAX;
        sc->nlive--;
        c->exited++;
        if (bar_check(s, c, now, e) != 0) return -1;
        break;
    default: {
        uint64_t t = now + (in->lat ? in->lat : (uint64_t)s->cfg.lat[cls]);
        for (unsigned k = 0; k < in->ndst; k++) sb_reserve(&w->sb, in->dst[k], t);
    }
    }
    w->ib_head = (uint8_t)(w->ib_head + 1 == s->cfg.ibuf ? 0 : w->ib_head + 1);
    w->ib_n--;
    w->hl_ok = false;
    bool exited = w->state == W_EXITED;
    if (!exited && fill(s, w, e) != 0) return -1;
    view_head(s, w);
    if (exited && w->inflight == 0) warp_done(s, w); /* may release the CTA: w is gone */
    return 1;
}

/* Reason of the sub-core's oldest warp that has not exited (STALL_NONE when there is none). */
static uint8_t oldest_reason(const struct subcore *sc) {
    uint64_t age = UINT64_MAX;
    uint8_t r = STALL_NONE;
    for (uint32_t i = 0; i < sc->n; i++) {
        const struct sched_warp *v = &sc->view[i];
        if (v->stall != STALL_EXITED && v->age < age) age = v->age, r = v->stall;
    }
    return r;
}

static int examine(struct sm *s, struct subcore *sc, uint32_t sub, uint64_t now, struct ws_err *e) {
    if (sc->reason != STALL_NONE && now > sc->acct) add_stall(s, sc->reason, now - sc->acct);
    sc->acct = now + 1;
    uint32_t nready = 0, n = sc->n;
    uint64_t next = UINT64_MAX, oldest_age = UINT64_MAX;
    uint8_t oldest = STALL_NONE;
    struct sched_warp *view = sc->view;
    for (uint32_t i = 0; i < n; i++) {
        struct sched_warp *v = &view[i];
        bool ready = sc->rdy[i] <= now && check(s, sc, i, now);
        v->ready = ready;
        nready += ready;
        if (sc->rdy[i] < next) next = sc->rdy[i];
        if (v->stall != STALL_EXITED && v->age < oldest_age) oldest_age = v->age, oldest = v->stall;
    }
    int pick = -1;
    if (nready) {
        struct sched_view sv = {.now = now,
                                .sm = s->id,
                                .subcore = sub,
                                .w = view,
                                .n = n,
                                .nready = nready,
                                .mshr_used = cache_mshr_used(ldst_l1(s->ldst)),
                                .mshr_total = s->l1_mshrs,
                                .ldst_used = ldst_queued(s->ldst),
                                .ldst_total = (uint32_t)s->cfg.ldst_q};
        pick = s->pol->pick(sc->sched, &sv);
        WS_ASSERT(pick < (int)n && (pick < 0 || view[pick].ready),
                  "warp scheduler '%s' picked a warp that cannot issue", s->pol->name);
    }
    int issued = 0;
    if (pick >= 0) {
        struct warp *w = &s->w[view[pick].slot];
        issued = issue(s, sc, w, now, e);
        if (issued < 0) return -1;
        if (issued && w->state != W_ACTIVE) {
            /* It reached a barrier or exited (its CTA may even be gone): the loop's minimum
             * counted its old ready_at. */
            next = UINT64_MAX;
            for (uint32_t i = 0; i < sc->n; i++)
                if (sc->rdy[i] < next) next = sc->rdy[i];
        } else {
            next = umin(next, sc->rdy[w->vi]);
        }
    }
    sc->next_ready = next > now ? next : now + 1;
    if (issued) {
        /* Cycles skipped before the next examination have the reason of the state left now. */
        sc->reason = sc->next_ready > now + 1 ? oldest_reason(sc) : STALL_NONE;
    } else {
        uint8_t r = nready ? (uint8_t)STALL_SCHED : oldest;
        if (pick >= 0) r = STALL_LDST; /* the request pool was empty */
        add_stall(s, r, 1);
        sc->reason = r;
    }
    return 0;
}

int sm_cycle(struct sm *s, uint64_t now, struct ws_err *e) {
    if (now < s->floor) return 0; /* already run (e.g. woken by a reply of that cycle) */
    s->now = now;
    if (ldst_cycle(s->ldst, now) && s->ldst_wait) wake_ldst_waiters(s, now);
    for (uint32_t i = 0; i < s->nsub; i++) {
        struct subcore *sc = &s->sc[i];
        if (sc->nlive && (sc->next_ready <= now || s->lockstep) && examine(s, sc, i, now, e) != 0)
            return -1;
    }
    ldst_settle(s->ldst, now);
    s->floor = now + 1;
    return 0;
}

uint64_t sm_next_event(const struct sm *s) {
    uint64_t t = ldst_next_event(s->ldst, s->floor);
    for (uint32_t i = 0; i < s->nsub; i++)
        if (s->sc[i].nlive && s->sc[i].next_ready < t) t = s->sc[i].next_ready;
    if (t == UINT64_MAX) return t;
    return t < s->floor ? s->floor : t;
}

struct mem_req *sm_out_peek(const struct sm *s) {
    return ldst_out_peek(s->ldst);
}

void sm_out_pop(struct sm *s) {
    ldst_out_pop(s->ldst);
}

void sm_reply(struct sm *s, struct mem_req *r, uint64_t now) {
    s->now = now;
    if (ldst_reply(s->ldst, r, now) && s->ldst_wait) wake_ldst_waiters(s, now);
}

/* ---- lifetime and queries ---- */

struct sm *sm_create(const struct sm_cfg *sc, const struct cache_cfg *l1, uint32_t id,
                     const struct sm_env *env, struct ws_err *e) {
    if (l1->line != sc->line || l1->sector != sc->sector) {
        ws_fail(e, "l1d.line/l1d.sector (%lld/%lld) must equal core.line/core.sector (%lld/%lld)",
                (long long)l1->line, (long long)l1->sector, (long long)sc->line,
                (long long)sc->sector);
        return NULL;
    }
    const struct sched_policy *pol = sched_find(sc->warp_sched);
    const struct subcore_assign *as = subcore_assign_find(sc->subcore_assign);
    if (!pol || !as) {
        ws_fail(e, "core.warp_sched = '%s' / core.subcore_assign = '%s': unknown name",
                sc->warp_sched, sc->subcore_assign);
        return NULL;
    }
    struct sm *s = calloc(1, sizeof *s);
    if (!s) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    s->cfg = *sc;
    s->env = *env;
    s->id = id;
    s->pol = pol;
    s->assign = as;
    s->nsub = (uint32_t)sc->subcores;
    s->max_warps = (uint32_t)sc->max_warps;
    uint64_t tw = ((uint64_t)sc->max_threads + WARP_SIZE - 1) / WARP_SIZE;
    s->max_cta_warps = (uint32_t)umin(tw, s->max_warps);
    s->l1_mshrs = (uint32_t)l1->mshrs;
    s->ldst_need = UINT32_MAX;
    uint32_t ib = (uint32_t)sc->ibuf, nc = (uint32_t)sc->max_ctas;
    s->w = calloc(s->max_warps, sizeof *s->w);
    s->ib_store = calloc((size_t)s->max_warps * ib, sizeof *s->ib_store);
    s->hl_store = calloc((size_t)s->max_warps * COAL_MAX_LINES, sizeof *s->hl_store);
    s->cta = calloc(nc, sizeof *s->cta);
    s->sc = calloc(s->nsub, sizeof *s->sc);
    if (!s->w || !s->ib_store || !s->hl_store || !s->cta || !s->sc) goto oom;
    for (uint32_t i = 0; i < s->max_warps; i++) {
        s->w[i].ib = &s->ib_store[(size_t)i * ib];
        s->w[i].hl = &s->hl_store[(size_t)i * COAL_MAX_LINES];
    }
    for (uint32_t i = 0; i < nc; i++) {
        s->cta[i].slots = calloc(s->max_cta_warps, sizeof *s->cta[i].slots);
        s->cta[i].gens = calloc(s->max_cta_warps, sizeof *s->cta[i].gens);
        if (!s->cta[i].slots || !s->cta[i].gens) goto oom;
    }
    struct sched_env senv = {
        .sm = id, .nsub = s->nsub, .max_warps = s->max_warps, .params = sc->sched_params};
    if (pol->create_shared) {
        s->sched_shared = pol->create_shared(&senv, e);
        if (!s->sched_shared) goto fail;
    }
    senv.shared = s->sched_shared;
    for (uint32_t i = 0; i < s->nsub; i++) {
        struct subcore *c = &s->sc[i];
        c->rdy = calloc(s->max_warps, sizeof *c->rdy);
        c->sb_ok = calloc(s->max_warps, sizeof *c->sb_ok);
        c->view = calloc(s->max_warps, sizeof *c->view);
        if (!c->rdy || !c->sb_ok || !c->view) goto oom;
        c->next_ready = UINT64_MAX;
        senv.subcore = i;
        c->sched = pol->create(&senv, e);
        if (!c->sched) goto fail;
    }
    struct ldst_hooks hooks = {s, on_mem_done, pol->on_l1_access ? on_l1_access : NULL};
    s->ldst = ldst_create(sc, l1, id, env, &s->st, &hooks, e);
    if (!s->ldst) goto fail;
    return s;
oom:
    ws_fail(e, "out of memory");
fail:
    sm_destroy(s);
    return NULL;
}

void sm_destroy(struct sm *s) {
    if (!s) return;
    ldst_destroy(s->ldst);
    if (s->sc)
        for (uint32_t i = 0; i < s->nsub; i++) {
            if (s->sc[i].sched) s->pol->destroy(s->sc[i].sched);
            free(s->sc[i].rdy);
            free(s->sc[i].sb_ok);
            free(s->sc[i].view);
        }
    if (s->sched_shared && s->pol->destroy_shared) s->pol->destroy_shared(s->sched_shared);
    if (s->cta)
        for (uint32_t i = 0; i < (uint32_t)s->cfg.max_ctas; i++) {
            free(s->cta[i].slots);
            free(s->cta[i].gens);
        }
    free(s->sc);
    free(s->cta);
    free(s->w);
    free(s->ib_store);
    free(s->hl_store);
    free(s);
}

uint32_t sm_resident_ctas(const struct sm *s) {
    return s->resident;
}

bool sm_idle(const struct sm *s) {
    return s->resident == 0 && ldst_idle(s->ldst);
}

uint32_t sm_take_finished(struct sm *s) {
    uint32_t n = s->finished;
    s->finished = 0;
    return n;
}

void sm_kernel_end(struct sm *s) {
    cache_invalidate(ldst_l1(s->ldst));
}

static const char *const stall_names[] = {
    "can issue",       "a register (scoreboard)", "a busy execution unit",
    "an instruction",  "room in the LDST unit",   "bar.sync",
    "its CTA (exited)"};

void sm_describe_stuck(const struct sm *s, char *buf, size_t n) {
    size_t len = 0;
    if (n == 0) return;
    buf[0] = 0;
    for (uint32_t i = 0; i < s->max_warps && len + 1 < n; i++) {
        const struct warp *w = &s->w[i];
        if (w->state == W_FREE) continue;
        const struct cta *c = &s->cta[w->cta];
        int k = snprintf(buf + len, n - len,
                         "SM %u warp %u (kernel %u CTA %llu, sub-core %u): %s, next pc 0x%llx, "
                         "waits for %s, %u memory instructions in flight\n",
                         s->id, i, c->kernel, (unsigned long long)c->idx, w->subcore,
                         w->state == W_BAR      ? "at bar.sync"
                         : w->state == W_EXITED ? "exited"
                                                : "active",
                         (unsigned long long)(w->ib_n ? w->ib[w->ib_head].pc : 0),
                         stall_names[view_of(s, w)->stall < STALL_N ? view_of(s, w)->stall : 0],
                         w->inflight);
        if (k < 0) return;
        len += (size_t)k;
    }
    if (len + 1 < n) ldst_describe(s->ldst, buf + len, n - len);
}

void sm_finish(struct sm *s, uint64_t end) {
    /* A run stopped at a limit ends at `end`; the SM may not have been visited since floor
     * (nothing was due), and those cycles repeat its last state. */
    if (end > s->floor) s->floor = end;
    for (uint32_t i = 0; i < s->nsub; i++) {
        struct subcore *sc = &s->sc[i];
        if (sc->reason != STALL_NONE && s->floor > sc->acct)
            add_stall(s, sc->reason, s->floor - sc->acct);
        if (sc->acct < s->floor) sc->acct = s->floor;
    }
    if (s->resident && s->floor > s->active_since) {
        s->st.cycles_active += s->floor - s->active_since;
        s->active_since = s->floor;
    }
    ldst_finish(s->ldst, s->floor);
}

const struct sm_stats *sm_stats(const struct sm *s) {
    return &s->st;
}

void sm_set_lockstep(struct sm *s, bool on) {
    s->lockstep = on;
}

void sm_set_trace(struct sm *s, sm_trace_fn fn, void *ctx) {
    s->trace = fn;
    s->trace_ctx = ctx;
}

const struct cache *sm_l1d(const struct sm *s) {
    return ldst_l1(s->ldst);
}
