#include "gpu/gpu.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/bits.h"
#include "cache/cache.h"
#include "core/sm.h"
#include "gpu/clocks.h"
#include "gpu/req_pool.h"
#include "gpu/subpart.h"
#include "mem/memsys.h"
#include "noc/xbar.h"

#define OFF(f) offsetof(struct gpu_cfg, f)
const struct cfg_key gpu_cfg_keys[] = {
    {"gpu.name", CFG_STRING, OFF(name), "", 0, 0, NULL, "", "machine name shown in reports"},
    {"gpu.sms", CFG_INT, OFF(sms), NULL, 1, 1024, NULL, "SMs", "streaming multiprocessors"},
    {"gpu.subparts", CFG_INT, OFF(subparts), NULL, 1, 8, NULL, "slices",
     "L2 slices (memory sub-partitions) per DRAM channel"},
    {"gpu.core_mhz", CFG_DOUBLE, OFF(core_mhz), NULL, 1, 100000, NULL, "MHz", "SM clock"},
    {"gpu.noc_mhz", CFG_DOUBLE, OFF(noc_mhz), NULL, 1, 100000, NULL, "MHz", "crossbar clock"},
    {"gpu.l2_mhz", CFG_DOUBLE, OFF(l2_mhz), NULL, 1, 100000, NULL, "MHz", "L2 clock"},
    {"gpu.l2_in_q", CFG_INT, OFF(l2_in_q), "8", 1, 4096, NULL, "requests",
     "requests a slice holds between the request network and its L2"},
    {"gpu.l2_out_q", CFG_INT, OFF(l2_out_q), "8", 1, 4096, NULL, "requests",
     "replies a slice holds waiting for the reply network"},
    {"gpu.dram_q", CFG_INT, OFF(dram_q), "64", 1, 4096, NULL, "fetches",
     "L2 fetches a slice may have outstanding at the DRAM"},
    {"gpu.dram_latency", CFG_INT, OFF(dram_latency), "0", 0, 100000, NULL, "L2 cycles",
     "fixed memory-partition delay added to every DRAM fetch before it fills the L2 "
     "(GPGPU-Sim's -dram_latency, which config import converts from core cycles)"},
    {"gpu.atomic_lat", CFG_INT, OFF(atomic_lat), "8", 0, 10000, NULL, "L2 cycles",
     "time an atomic spends in the L2's atomic unit once its data is present"},
    {"gpu.req_header", CFG_INT, OFF(req_header), "8", 1, 256, NULL, "bytes",
     "control bytes of a request or reply on the NoC (data adds 32 B per sector)"},
    {"gpu.warm_l2", CFG_BOOL, OFF(warm_l2), "true", 0, 0, NULL, "",
     "install each launch's host-to-device copies in the L2 first (as Accel-Sim does)"},
    {"gpu.flush_l2", CFG_BOOL, OFF(flush_l2), "false", 0, 0, NULL, "",
     "empty the L2 before each launch, dirty lines dropped unwritten (a profiler's flush between "
     "kernels, e.g. Nsight Compute's default cache control; before gpu.warm_l2's copies)"},
    {"gpu.watchdog", CFG_INT, OFF(watchdog), "1000000", 1000, 1e12, NULL, "core cycles",
     "stop a run that makes no progress for this long and report where it is stuck"},
    {"gpu.max_cycles", CFG_INT, OFF(max_cycles), "0", 0, 1e15, NULL, "core cycles",
     "stop after exactly this many core cycles (0: run to completion)"},
    {"gpu.max_insts", CFG_INT, OFF(max_insts), "0", 0, 1e15, NULL, "warp insts",
     "stop at the end of the first core cycle that brings the warp instructions issued to this "
     "many (0: run to completion)"},
    {"gpu.max_thread_insts", CFG_INT, OFF(max_thread_insts), "0", 0, 1e15, NULL, "thread insts",
     "stop at the end of the first core cycle that brings the thread instructions (active lanes "
     "of the issued warp instructions, IPC's count) to this many, as GPGPU-Sim's -gpgpu_max_insn "
     "(0: run to completion)"},
    {"gpu.lockstep", CFG_BOOL, OFF(lockstep), "false", 0, 0, NULL, "",
     "visit every SM, L2 slice, network and controller in every cycle instead of only when "
     "something is due (many times slower; results must be identical: a check of the loop)"},
};
const unsigned gpu_cfg_nkeys = CFG_COUNT(gpu_cfg_keys);
#undef OFF

int gpu_cfg_configure(struct gpu_cfg *gc, struct cfg *c, struct ws_err *e) {
    return cfg_bind(c, "gpu", gpu_cfg_keys, gpu_cfg_nkeys, gc, e);
}

#define SD(f, kind, unit, doc)                                                                     \
    { #f, kind, offsetof(struct gpu_summary, f), unit, doc }
const struct stat_desc gpu_summary_desc[] = {
    SD(cycles, STAT_COUNTER, "core cycles", "core cycles from the first launch to the last exit"),
    SD(kernels, STAT_COUNTER, "", "kernel launches completed"),
    SD(ctas, STAT_COUNTER, "", "CTAs completed"),
    SD(warp_insts, STAT_COUNTER, "", "warp instructions issued (EXIT included)"),
    SD(thread_insts, STAT_COUNTER, "", "thread instructions: active lanes summed over issues"),
    SD(ipc, STAT_REAL, "", "thread_insts / cycles (GPGPU-Sim's IPC)"),
    SD(warp_ipc, STAT_REAL, "", "warp_insts / cycles"),
    SD(l1_accesses, STAT_COUNTER, "",
       "L1D lookups, all SMs: one per line request, plus one per retry after a reservation fail "
       "(l1_resfails)"),
    SD(l1_misses, STAT_COUNTER, "",
       "L1D sector and line misses (a request merged into a pending fetch is not one)"),
    SD(l1_resfails, STAT_COUNTER, "", "L1D reservation failures (the access was retried)"),
    SD(l2_accesses, STAT_COUNTER, "",
       "L2 lookups, all slices, retries after a reservation fail (l2_resfails) included"),
    SD(l2_misses, STAT_COUNTER, "", "L2 sector and line misses"),
    SD(l2_resfails, STAT_COUNTER, "", "L2 reservation failures"),
    SD(l1_miss_rate, STAT_REAL, "", "l1_misses / (l1_accesses - l1_resfails)"),
    SD(l2_miss_rate, STAT_REAL, "", "l2_misses / (l2_accesses - l2_resfails)"),
    SD(l1_mpki, STAT_REAL, "", "L1D misses per 1000 warp instructions"),
    SD(l2_mpki, STAT_REAL, "", "L2 misses per 1000 warp instructions"),
    SD(noc_req_packets, STAT_COUNTER, "", "packets delivered by the request network"),
    SD(noc_rep_packets, STAT_COUNTER, "", "packets delivered by the reply network"),
    SD(noc_req_lat, STAT_REAL, "NoC cycles", "mean request-network latency, push to pop"),
    SD(noc_rep_lat, STAT_REAL, "NoC cycles", "mean reply-network latency, push to pop"),
    SD(noc_req_flits_per_cycle, STAT_REAL, "", "request-network flits delivered per NoC cycle"),
    SD(noc_rep_flits_per_cycle, STAT_REAL, "", "reply-network flits delivered per NoC cycle"),
    SD(dram_row_hit_rate, STAT_REAL, "", "DRAM column accesses without their own ACT/PRE"),
    SD(dram_bw_share, STAT_REAL, "", "DRAM bandwidth used / theoretical peak"),
    SD(dram_avg_read_lat_ns, STAT_REAL, "ns", "DRAM read latency, controller arrival to data"),
    SD(load_warps, STAT_COUNTER, "", "global load warp instructions completed (warp-loads)"),
    SD(offchip_per_load, STAT_REAL, "",
       "mean off-chip accesses per load warp (32 B sectors served from DRAM): <2 LOA, 2-8 MOA, "
       ">8 HOA"),
    SD(lat_div_mean, STAT_REAL, "core cycles",
       "mean latency divergence: slowest - fastest off-chip turnaround of one warp-load"),
    SD(lat_div_in_mc_share, STAT_REAL, "",
       "In-MC share of latency divergence: sum of In-MC parts / sum of divergences (seed 000 "
       "Fig. 6)"),
    SD(l1_concentration, STAT_REAL, "",
       "mean intra-warp concentration of global loads (seed 001 Eq. 3.1): line accesses / "
       "distinct L1D sets; 1 ideal, 32 all in one set"),
    SD(coalescing, STAT_REAL, "",
       "coalescing degree: line requests per warp memory instruction that went through the "
       "coalescer (1 fully coalesced, up to 32)"),
    SD(mem_inst_share, STAT_REAL, "",
       "memory instructions (global, local, shared, atomics) / all warp instructions"),
    SD(load_time_mean, STAT_REAL, "core cycles",
       "mean load-warp execution time: issue to the last request back"),
    SD(ns_noc_req, STAT_REAL, "ns", "stage latency: request network, push to pop"),
    SD(ns_l2_hit, STAT_REAL, "ns", "stage latency: L2 access to reply ready, served by the L2"),
    SD(ns_l2_miss, STAT_REAL, "ns", "stage latency: L2 access to reply ready, waited for DRAM"),
    SD(ns_mc_queue, STAT_REAL, "ns", "stage latency: controller arrival to column command (reads)"),
    SD(ns_dram, STAT_REAL, "ns", "stage latency: column command to last data beat (reads)"),
    SD(ns_noc_rep, STAT_REAL, "ns", "stage latency: reply network, push to pop"),
    SD(ns_offchip_req, STAT_REAL, "ns",
       "round trip of an off-chip request: LDST issue to back at the SM"),
    SD(energy_j, STAT_REAL, "J",
       "GPU energy: the parts below summed (per-event energies x counts, docs/energy.md)"),
    SD(energy_core_j, STAT_REAL, "J", "energy of warp-instruction issue and lane operations"),
    SD(energy_rf_j, STAT_REAL, "J", "energy of register-file operand accesses"),
    SD(energy_cache_j, STAT_REAL, "J", "energy of L1D, shared-memory and L2 accesses"),
    SD(energy_noc_j, STAT_REAL, "J", "energy of NoC flits (both networks)"),
    SD(energy_dram_j, STAT_REAL, "J", "DRAM energy from the DRAM power model (IDD currents)"),
    SD(energy_static_j, STAT_REAL, "J", "energy.static_w x simulated time"),
    SD(power_w, STAT_REAL, "W", "energy_j / simulated time"),
    SD(edp_js, STAT_REAL, "J s", "energy-delay product: energy_j x simulated time"),
    SD(requests, STAT_COUNTER, "", "memory requests created (LDST line requests, L1 fetches)"),
    SD(requests_returned, STAT_COUNTER, "", "memory requests that came back and were released"),
    /* host_seconds, warp_insts_per_s and cycles_per_s are printed, never written to result
       files: results must be byte-identical across runs. */
};
#undef SD
const unsigned gpu_summary_ndesc = CFG_COUNT(gpu_summary_desc);

const char *gpu_load_class(double x) {
    return x > 8 ? "HOA" : x >= 2 ? "MOA" : "LOA";
}

struct gpu {
    struct gpu_cfg cfg;
    struct energy_cfg ec;
    struct sm_cfg smc;
    struct cache_cfg l1c, l2c;
    struct xbar_cfg xc;
    struct subpart_cfg spc;
    struct memsys *ms;
    struct sm **sm;
    uint32_t nsm, nsp, nsub;
    struct subpart **sp;
    struct xbar *req, *rep;
    struct req_pool pool;
    struct clocks clk;
    uint64_t *sm_next; /* core cycle each SM next needs sm_cycle */
    /* Who has work, so that idle SMs and slices cost nothing per cycle. */
    uint64_t *sm_out;   /* bit set: SMs with requests waiting for the request network */
    uint64_t *sm_blk;   /* of those, SMs whose head the network refused (see skip_refused) */
    uint64_t *sm_offer; /* scratch: SMs to offer this cycle */
    uint64_t *sp_out;   /* bit set: slices with replies waiting for the reply network */
    uint64_t *sp_next;  /* L2 cycle each slice next needs subpart_cycle */
    uint64_t *sp_ret;   /* DRAM cycle of each slice's earliest DRAM data */
    uint64_t *sp_blk, *sp_offer; /* as sm_blk and sm_offer, for the reply network */
    uint64_t *sp_dwait;          /* idle slices waiting for room in their controller's queue */
    uint64_t *sp_full;           /* slices whose input queue was full when the request network had a
                                    request for them: not offered one until a cycle of theirs frees room */
    /* The earliest of sm_next[], sp_next[] and sp_ret[], kept exact: a cycle in which no SM (no
     * slice) is due skips their scan, and next_time() needs none. Only core_tick() and l2_tick()
     * raise entries, and they fold every entry in again; everything else lowers one through
     * sm_wake(), sp_wake() and sp_ret_lower(). */
    uint64_t sm_min, sp_next_min, sp_ret_min;
    /* SMs with a next event, slices with a next event or DRAM data to come: the scans visit only
     * these (in a memory-bound kernel most slices, and SMs without CTAs, wait for nothing) */
    uint64_t *sm_live, *sp_live;
    uint64_t dram_next; /* DRAM cycle the controllers next need a tick */
    /* Current kernel. */
    struct workload *w;
    struct kernel_desc k;
    uint64_t next_cta, ctas_done;
    uint32_t next_sm; /* round-robin dispatch pointer */
    bool launched;
    /* Results. */
    struct gpu_summary sum;
    struct sm_stats core_sum;
    struct cache_stats l1_sum, l2_sum;
    struct subpart_stats sp_sum;
    uint64_t cycles_base; /* core cycle of the first launch */
    uint64_t insts;       /* warp instructions issued so far by all SMs (gpu.max_insts) */
    uint64_t tinsts;      /* their active lanes (gpu.max_thread_insts) */
    double kernel_t0;     /* host time of the current launch */
    gpu_progress_fn progress;
    void *progress_ctx;
};

static struct mem_req *env_alloc(void *ctx) {
    return req_pool_get(&((struct gpu *)ctx)->pool);
}
static void env_free(void *ctx, struct mem_req *r) {
    req_pool_put(&((struct gpu *)ctx)->pool, r);
}

/* Sub-partition of an address: its channel's slices, chosen by the low bank bits as GPGPU-Sim
 * does, so a line always lives in one slice. */
static uint32_t env_subpart(void *ctx, uint64_t addr) {
    struct gpu *g = ctx;
    struct dram_addr a;
    addr_map_decode(memsys_map(g->ms), addr, &a);
    const struct dram_spec *s = memsys_spec(g->ms);
    uint32_t bank = a.bg * (uint32_t)s->banks_per_group + a.bank;
    return a.ch * g->nsub + bank % g->nsub;
}

/* SM i (slice i) has something to do at t, before what it knew. An entry below the domain's
 * current cycle means "due now" everywhere it is read (core_tick, l2_tick, consider), so a
 * caller that would move one up to the current cycle leaves it instead. */
static inline void sm_wake(struct gpu *g, uint32_t i, uint64_t t) {
#ifndef NDEBUG
    WS_ASSERT(t <= g->sm_next[i], "gpu: SM %u woken later (%llu > %llu)", i, (unsigned long long)t,
              (unsigned long long)g->sm_next[i]);
#endif
    g->sm_next[i] = t;
    if (t < g->sm_min) g->sm_min = t;
    g->sm_live[i >> 6] |= 1ull << (i & 63);
}
static inline void sp_wake(struct gpu *g, uint32_t i, uint64_t t) {
#ifndef NDEBUG
    WS_ASSERT(t <= g->sp_next[i], "gpu: slice %u woken later (%llu > %llu)", i,
              (unsigned long long)t, (unsigned long long)g->sp_next[i]);
#endif
    g->sp_next[i] = t;
    if (t < g->sp_next_min) g->sp_next_min = t;
    g->sp_live[i >> 6] |= 1ull << (i & 63);
}
static inline void sp_ret_lower(struct gpu *g, uint32_t i, uint64_t t) {
    if (t < g->sp_ret[i]) g->sp_ret[i] = t;
    if (t < g->sp_ret_min) g->sp_ret_min = t;
    g->sp_live[i >> 6] |= 1ull << (i & 63);
}

static void on_dram_done(void *ctx, const struct mc_req *mr) {
    struct gpu *g = ctx;
    uint32_t i = subpart_of_tag(mr->r.tag);
    subpart_dram_done(g->sp[i], mr);
    if (!mr->r.is_write) sp_ret_lower(g, i, mr->r.ts[MEM_TS_DATA]);
}

static inline void bit_set(uint64_t *b, uint32_t i) {
    b[i >> 6] |= 1ull << (i & 63);
}
static inline void bit_clear(uint64_t *b, uint32_t i) {
    b[i >> 6] &= ~(1ull << (i & 63));
}
static inline bool bits_any(const uint64_t *b, uint32_t n) {
    for (uint32_t w = 0; w < (n + 63) / 64; w++)
        if (b[w]) return true;
    return false;
}
/* Iterates the set bits of b[0 .. n) in increasing order (bits may be cleared meanwhile). */
#define FOR_BITS(b, n, i)                                                                          \
    for (uint32_t w_ = 0; w_ < ((n) + 63) / 64; w_++)                                              \
        for (uint64_t m_ = (b)[w_]; m_; m_ &= m_ - 1)                                              \
            for (uint32_t i = w_ * 64 + (uint32_t)__builtin_ctzll(m_), once_ = 1; once_; once_ = 0)

/* A line must fall in one channel, bank and row so that one slice owns it. */
static int check_map(struct gpu *g, struct ws_err *e) {
    const struct addr_map *m = memsys_map(g->ms);
    uint64_t line = (uint64_t)g->l2c.line;
    for (uint64_t base = 0; base < (1ull << 24); base += 4096 + line) {
        uint64_t l0 = base & ~(line - 1);
        struct dram_addr a, b;
        addr_map_decode(m, l0, &a);
        addr_map_decode(m, l0 + line - 1, &b);
        if (a.ch != b.ch || a.pc != b.pc || a.rank != b.rank || a.bg != b.bg || a.bank != b.bank ||
            a.row != b.row)
            return ws_fail(e,
                           "addr.map = %s: a %llu-byte line is split across channels or banks "
                           "(line 0x%llx); put channel and bank bits above the line offset",
                           m->cfg.map, (unsigned long long)line, (unsigned long long)l0);
    }
    return 0;
}

struct gpu *gpu_create(struct cfg *c, struct ws_err *e) {
    struct gpu *g = calloc(1, sizeof *g);
    if (!g) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    req_pool_init(&g->pool);
    if (gpu_cfg_configure(&g->cfg, c, e) != 0 || sm_cfg_configure(&g->smc, c, e) != 0 ||
        cache_cfg_configure(&g->l1c, "l1d", c, e) != 0 ||
        cache_cfg_validate(&g->l1c, "l1d", c, e) != 0 ||
        cache_cfg_configure(&g->l2c, "l2", c, e) != 0 ||
        cache_cfg_validate(&g->l2c, "l2", c, e) != 0 || xbar_cfg_configure(&g->xc, c, e) != 0 ||
        energy_cfg_configure(&g->ec, c, e) != 0)
        goto fail;
    /* The L2 is the point of coherence: a write-back, write-allocate cache that acknowledges
     * every write itself (sub-partitions rely on it: no write waits on the DRAM). */
    if (g->l2c.write != CACHE_WRITE_BACK || g->l2c.write_alloc != CACHE_WRITE_ALLOC ||
        g->l2c.streaming) {
        char o1[128];
        ws_fail(e, "%s: the L2 must be write-back and write-allocate, not streaming",
                cfg_origin(c,
                           g->l2c.write != CACHE_WRITE_BACK ? "l2.write"
                           : g->l2c.streaming               ? "l2.streaming"
                                                            : "l2.write_alloc",
                           o1, sizeof o1));
        goto fail;
    }
    g->ms = memsys_create(c, e);
    if (!g->ms) goto fail;
    if (check_map(g, e) != 0) goto fail;
    g->nsm = (uint32_t)g->cfg.sms;
    g->nsub = (uint32_t)g->cfg.subparts;
    g->nsp = memsys_nchannels(g->ms) * g->nsub;
    g->spc = (struct subpart_cfg){g->cfg.l2_in_q, g->cfg.l2_out_q, g->cfg.atomic_lat, g->cfg.dram_q,
                                  g->cfg.dram_latency};
    g->sm = calloc(g->nsm, sizeof *g->sm);
    g->sm_next = calloc(g->nsm, sizeof *g->sm_next);
    g->sp = calloc(g->nsp, sizeof *g->sp);
    /* sm_out, sm_blk, sm_offer, sm_live; sp_out, sp_blk, sp_offer, sp_live, sp_dwait, sp_full */
    g->sm_out = calloc(4 * (size_t)((g->nsm + 63) / 64), sizeof *g->sm_out);
    g->sp_out = calloc(6 * (size_t)((g->nsp + 63) / 64), sizeof *g->sp_out);
    g->sp_next = calloc(g->nsp, sizeof *g->sp_next);
    g->sp_ret = calloc(g->nsp, sizeof *g->sp_ret);
    if (!g->sm || !g->sm_next || !g->sp || !g->sm_out || !g->sp_out || !g->sp_next || !g->sp_ret) {
        ws_fail(e, "out of memory");
        goto fail;
    }
    g->sm_blk = g->sm_out + (g->nsm + 63) / 64;
    g->sm_offer = g->sm_blk + (g->nsm + 63) / 64;
    g->sm_live = g->sm_offer + (g->nsm + 63) / 64;
    g->sp_blk = g->sp_out + (g->nsp + 63) / 64;
    g->sp_offer = g->sp_blk + (g->nsp + 63) / 64;
    g->sp_live = g->sp_offer + (g->nsp + 63) / 64;
    g->sp_dwait = g->sp_live + (g->nsp + 63) / 64;
    g->sp_full = g->sp_dwait + (g->nsp + 63) / 64;
    g->sm_min = g->sp_next_min = g->sp_ret_min = UINT64_MAX;
    struct sm_env env = {
        g,        env_alloc,
        env_free, env_subpart,
        0,        (double)g->cfg.core_mhz * (double)memsys_spec(g->ms)->tCK_ps / 1e6,
        g->nsub,  memsys_upstream(g->ms)};
    for (uint32_t i = 0; i < g->nsm; i++) {
        g->sm[i] = sm_create(&g->smc, &g->l1c, i, &env, e);
        if (!g->sm[i]) goto fail;
        sm_set_lockstep(g->sm[i], g->cfg.lockstep);
        g->sm_next[i] = UINT64_MAX;
    }
    for (uint32_t i = 0; i < g->nsp; i++) {
        g->sp_next[i] = g->sp_ret[i] = UINT64_MAX;
        g->sp[i] = subpart_create(i, g->nsub, &g->l2c, &g->spc, g->ms, e);
        if (!g->sp[i]) goto fail;
    }
    memsys_set_done_cb(g->ms, on_dram_done, g);
    g->req = xbar_create(&g->xc, g->nsm, g->nsp, "noc.req", e);
    if (!g->req) goto fail;
    g->rep = xbar_create(&g->xc, g->nsp, g->nsm, "noc.rep", e);
    if (!g->rep) goto fail;
    /* The largest packet: a header and a full line of data. */
    if (xbar_cfg_check_packet(&g->xc, (uint32_t)(g->cfg.req_header + g->l2c.line), c, e) != 0)
        goto fail;
    clocks_init(&g->clk, g->cfg.core_mhz, g->cfg.noc_mhz, g->cfg.l2_mhz,
                (uint64_t)memsys_spec(g->ms)->tCK_ps);
    g->dram_next = 0; /* a first tick sets the controllers' refresh going, traffic or not */
    return g;
fail:
    gpu_destroy(g);
    return NULL;
}

void gpu_destroy(struct gpu *g) {
    if (!g) return;
    if (g->sm)
        for (uint32_t i = 0; i < g->nsm; i++) sm_destroy(g->sm[i]);
    if (g->sp)
        for (uint32_t i = 0; i < g->nsp; i++) subpart_destroy(g->sp[i]);
    free(g->sm);
    free(g->sm_next);
    free(g->sp);
    free(g->sm_out);
    free(g->sp_out);
    free(g->sp_next);
    free(g->sp_ret);
    if (g->req) xbar_destroy(g->req);
    if (g->rep) xbar_destroy(g->rep);
    if (g->ms) memsys_destroy(g->ms);
    req_pool_free_all(&g->pool);
    free(g);
}

void gpu_set_progress(struct gpu *g, gpu_progress_fn fn, void *ctx) {
    g->progress = fn;
    g->progress_ctx = ctx;
}

uint32_t gpu_nsms(const struct gpu *g) {
    return g->nsm;
}

/* NoC packet sizes: a header, plus the data a store carries or a load reply returns. */
static uint32_t req_bytes(const struct gpu *g, const struct mem_req *r) {
    uint32_t data = (r->kind == MEM_STORE || r->kind == MEM_WRITEBACK || r->kind == MEM_ATOMIC)
                        ? ws_popcount32(r->sectors) * 32
                        : 0;
    return (uint32_t)g->cfg.req_header + data;
}
static uint32_t rep_bytes(const struct gpu *g, const struct mem_req *r) {
    uint32_t data =
        (r->kind == MEM_LOAD || r->kind == MEM_ATOMIC) ? ws_popcount32(r->sectors) * 32 : 0;
    return (uint32_t)g->cfg.req_header + data;
}

static double host_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Hands out CTAs round-robin over the SMs, as many as fit. */
static int dispatch(struct gpu *g, uint64_t now, struct ws_err *e) {
    uint32_t tried = 0;
    while (g->next_cta < g->k.ncta && tried < g->nsm) {
        struct sm *s = g->sm[g->next_sm];
        if (sm_can_take(s, &g->k)) {
            if (sm_take_cta(s, g->w, &g->k, g->next_cta, now, e) != 0) return -1;
            g->next_cta++;
            if (g->sm_next[g->next_sm] > now) sm_wake(g, g->next_sm, now);
            tried = 0;
        } else {
            tried++;
        }
        g->next_sm = (g->next_sm + 1) % g->nsm;
    }
    return 0;
}

/* Runs SM i's cycle `now` and takes its next event. */
static inline int run_sm(struct gpu *g, uint32_t i, uint64_t now, bool *did, bool *freed,
                         struct ws_err *e) {
    struct sm *s = g->sm[i];
    const uint64_t before = sm_stats(s)->warp_insts, tbefore = sm_stats(s)->thread_insts;
    if (sm_cycle(s, now, e) != 0) return -1;
    g->insts += sm_stats(s)->warp_insts - before;
    g->tinsts += sm_stats(s)->thread_insts - tbefore;
    *did = true;
    uint32_t f = sm_take_finished(s);
    if (f) {
        g->ctas_done += f;
        *freed = true;
    }
    g->sm_next[i] = sm_next_event(s);
    if (g->sm_next[i] == UINT64_MAX) bit_clear(g->sm_live, i);
    if (sm_out_peek(s)) {
        bit_set(g->sm_out, i);
        *did = true;
    }
    return 0;
}

static int core_tick(struct gpu *g, uint64_t now, bool *did, struct ws_err *e) {
    bool freed = false;
    if (g->cfg.lockstep) {
        for (uint32_t i = 0; i < g->nsm; i++) bit_set(g->sm_live, i);
    } else if (now < g->sm_min) {
        return 0; /* no SM is due */
    }
    g->sm_min = UINT64_MAX; /* every live entry is folded in again below */
    FOR_BITS(g->sm_live, g->nsm, i) {
        if ((g->sm_next[i] <= now || g->cfg.lockstep) && run_sm(g, i, now, did, &freed, e) != 0)
            return -1;
        if (g->sm_next[i] < g->sm_min) g->sm_min = g->sm_next[i];
    }
    if (freed && g->next_cta < g->k.ncta) return dispatch(g, now, e);
    return 0;
}

/* A sender (input i of network x) whose head the network refused is refused again until a
 * crossing frees room at its input: only its own pushes fill it, and its head stays. Such a
 * sender is not asked (blk); each cycle it waits counts as the refusal asking would have been.
 * Leaves in offer[] the senders of out[] to ask this cycle. */
static void skip_refused(struct xbar *x, const uint64_t *out, uint64_t *blk, uint64_t *offer,
                         uint32_t n) {
    const uint32_t nw = (n + 63) / 64;
    uint64_t any = 0;
    for (uint32_t w = 0; w < nw; w++) any |= blk[w];
    if (!any) {
        /* nobody refused: the set of freed inputs can wait (a stale entry only costs an ask) */
        for (uint32_t w = 0; w < nw; w++) offer[w] = out[w];
        return;
    }
    uint64_t stalls = 0;
    xbar_take_freed(x, offer);
    for (uint32_t w = 0; w < nw; w++) {
        uint64_t still = blk[w] & ~offer[w] & out[w];
        blk[w] = still;
        stalls += ws_popcount64(still);
        offer[w] = out[w] & ~still;
    }
    if (stalls) xbar_note_stalls(x, stalls);
}

static void noc_tick(struct gpu *g, uint64_t now, bool *did) {
    uint64_t core_now = g->clk.cyc[CLK_CORE];
    /* Inject: SMs into the request network, slices into the reply network. */
    uint64_t l2_now = g->clk.cyc[CLK_L2];
    skip_refused(g->req, g->sm_out, g->sm_blk, g->sm_offer, g->nsm);
    FOR_BITS(g->sm_offer, g->nsm, i) {
        struct mem_req *r;
        while ((r = sm_out_peek(g->sm[i]))) {
            uint32_t b = req_bytes(g, r);
            if (!xbar_can_push(g->req, i, b)) {
                bit_set(g->sm_blk, i);
                break;
            }
            r->ts[MEM_TS_NOC_IN] = now;
            xbar_push(g->req, i, r->dst, r, b, now);
            sm_out_pop(g->sm[i]);
            *did = true;
            /* room in its output queue may unblock its LDST unit */
            if (g->sm_next[i] > core_now) sm_wake(g, i, core_now);
        }
        if (!r) bit_clear(g->sm_out, i);
    }
    skip_refused(g->rep, g->sp_out, g->sp_blk, g->sp_offer, g->nsp);
    FOR_BITS(g->sp_offer, g->nsp, i) {
        struct mem_req *r;
        while ((r = subpart_out_peek(g->sp[i]))) {
            uint32_t b = rep_bytes(g, r);
            if (!xbar_can_push(g->rep, i, b)) {
                bit_set(g->sp_blk, i);
                break;
            }
            xbar_push(g->rep, i, r->src, r, b, now);
            subpart_out_pop(g->sp[i]);
            *did = true;
            if (g->sp_next[i] > l2_now) sp_wake(g, i, l2_now); /* output room */
        }
        if (!r) bit_clear(g->sp_out, i);
    }
    if (g->cfg.lockstep || xbar_next_event(g->req) <= now) xbar_tick(g->req, now);
    if (g->cfg.lockstep || xbar_next_event(g->rep) <= now) xbar_tick(g->rep, now);
    /* Deliver to the slices: one whose input was full stays full until a cycle of its own
     * takes a request in, so it is not asked; each cycle a request waits for it is counted. */
    const uint64_t *rdy = xbar_ready_bits(g->req);
    for (uint32_t w = 0; w < (g->nsp + 63) / 64; w++) {
        for (uint64_t m = rdy[w] & g->sp_full[w]; m; m &= m - 1)
            subpart_note_in_full(g->sp[w * 64 + (uint32_t)__builtin_ctzll(m)]);
        for (uint64_t m = rdy[w] & ~g->sp_full[w]; m; m &= m - 1) {
            uint32_t o = w * 64 + (uint32_t)__builtin_ctzll(m);
            while (xbar_peek(g->req, o)) {
                if (!subpart_can_accept(g->sp[o])) {
                    bit_set(g->sp_full, o);
                    subpart_note_in_full(g->sp[o]);
                    break;
                }
                struct mem_req *r = xbar_pop(g->req, o, now);
                r->ts[MEM_TS_NOC_OUT] = now;
                subpart_push(g->sp[o], r, l2_now);
                /* an entry already due (even overdue: it means the next cycle) stays */
                if (g->sp_next[o] > l2_now) sp_wake(g, o, l2_now);
                *did = true;
            }
        }
    }
    for (int64_t o = xbar_ready_first(g->rep); o >= 0; o = xbar_ready_next(g->rep, (uint32_t)o)) {
        while (xbar_peek(g->rep, (uint32_t)o)) {
            struct mem_req *r = xbar_pop(g->rep, (uint32_t)o, now);
            sm_reply(g->sm[o], r, core_now);
            if (g->sm_next[o] > core_now) sm_wake(g, (uint32_t)o, core_now);
            *did = true;
        }
    }
}

static void l2_tick(struct gpu *g, uint64_t now, bool *did) {
    uint64_t dram_now = g->clk.cyc[CLK_DRAM];
#ifndef NDEBUG
    for (uint32_t i = 0; i < g->nsp; i++)
        if (g->sp_next[i] > now && g->sp_ret[i] >= dram_now)
            subpart_check_idle(g->sp[i], now, dram_now);
#endif
    const bool all = g->cfg.lockstep;
    if (!all && now < g->sp_next_min && dram_now <= g->sp_ret_min) return; /* none is due */
    g->sp_next_min = g->sp_ret_min = UINT64_MAX; /* every live entry is folded in again below */
    if (all)
        for (uint32_t i = 0; i < g->nsp; i++) bit_set(g->sp_live, i);
    FOR_BITS(g->sp_live, g->nsp, i) {
        if (all || g->sp_next[i] <= now || g->sp_ret[i] < dram_now) {
            struct subpart *s = g->sp[i];
            if (subpart_cycle(s, now, dram_now)) {
                *did = true;
                g->dram_next = g->clk.cyc[CLK_DRAM]; /* it may have queued DRAM work */
            }
            g->sp_next[i] = subpart_next_event(s, now + 1);
            g->sp_ret[i] = subpart_next_dram(s);
            if (subpart_waits_dram(s))
                bit_set(g->sp_dwait, i);
            else
                bit_clear(g->sp_dwait, i);
            if (subpart_can_accept(s)) bit_clear(g->sp_full, i);
            if (g->sp_next[i] == UINT64_MAX && g->sp_ret[i] == UINT64_MAX) bit_clear(g->sp_live, i);
            if (subpart_out_peek(s)) bit_set(g->sp_out, i);
        }
        if (g->sp_next[i] < g->sp_next_min) g->sp_next_min = g->sp_next[i];
        if (g->sp_ret[i] < g->sp_ret_min) g->sp_ret_min = g->sp_ret[i];
    }
}

static int dram_tick(struct gpu *g, uint64_t now, bool *did, struct ws_err *e) {
    if (g->dram_next > now && !g->cfg.lockstep) return 0;
    if (memsys_tick(g->ms, now, e) != 0) return -1;
    g->dram_next = memsys_next_event(g->ms);
    *did = true;
    /* idle slices waiting for their controller: the next L2 cycle (this instant's, if still to
     * come: the L2 runs after the DRAM) retries once a command made room */
    const uint64_t l2_now = g->clk.cyc[CLK_L2];
    FOR_BITS(g->sp_dwait, g->nsp, i) {
        if (!subpart_dram_room(g->sp[i])) continue;
        bit_clear(g->sp_dwait, i);
        if (g->sp_next[i] > l2_now) sp_wake(g, i, l2_now);
    }
    return 0;
}

/* Time of cycle c of domain d, or of its next cycle if c is already past; UINT64_MAX stays. */
static void consider(const struct clocks *k, enum clk_domain d, uint64_t c, uint64_t *t) {
    if (c == UINT64_MAX || c >= UINT64_MAX / k->period_fs[d]) return;
    uint64_t x = clocks_time_of(k, d, c < k->cyc[d] ? k->cyc[d] : c);
    if (x < *t) *t = x;
}

/* Earliest time anything can happen, from every component's own next event. */
static uint64_t next_time(struct gpu *g) {
    const struct clocks *k = &g->clk;
    uint64_t t = UINT64_MAX;
#ifndef NDEBUG
    uint64_t sm_lo = UINT64_MAX, sp_lo = UINT64_MAX, ret_lo = UINT64_MAX;
    for (uint32_t i = 0; i < g->nsm; i++) sm_lo = g->sm_next[i] < sm_lo ? g->sm_next[i] : sm_lo;
    for (uint32_t i = 0; i < g->nsp; i++) {
        sp_lo = g->sp_next[i] < sp_lo ? g->sp_next[i] : sp_lo;
        ret_lo = g->sp_ret[i] < ret_lo ? g->sp_ret[i] : ret_lo;
    }
    WS_ASSERT(sm_lo == g->sm_min && sp_lo == g->sp_next_min && ret_lo == g->sp_ret_min,
              "gpu: kept minimum of the SMs' or slices' next events wrong");
#endif
    /* consider() is monotonic in the cycle, so the earliest entry stands for all */
    consider(k, CLK_CORE, g->sm_min, &t);
    if (bits_any(g->sm_out, g->nsm) || bits_any(g->sp_out, g->nsp))
        consider(k, CLK_NOC, k->cyc[CLK_NOC], &t);
    consider(k, CLK_NOC, xbar_next_event(g->req), &t);
    consider(k, CLK_NOC, xbar_next_event(g->rep), &t);
    if (xbar_ready_first(g->req) >= 0 || xbar_ready_first(g->rep) >= 0)
        consider(k, CLK_NOC, k->cyc[CLK_NOC], &t);
    consider(k, CLK_L2, g->sp_next_min, &t);
    /* DRAM data is taken in by a slice at its first L2 edge at or after that time: the event
     * belongs to the L2 domain (skipping must not jump over that edge). */
    if (g->sp_ret_min != UINT64_MAX) {
        uint64_t at = clocks_time_of(k, CLK_DRAM, g->sp_ret_min);
        consider(k, CLK_L2, (at + k->period_fs[CLK_L2] - 1) / k->period_fs[CLK_L2], &t);
    }
    if (g->dram_next < DRAM_NEVER) consider(k, CLK_DRAM, g->dram_next, &t);
    return t;
}

static bool all_idle(const struct gpu *g) {
    for (uint32_t i = 0; i < g->nsm; i++)
        if (!sm_idle(g->sm[i])) return false;
    for (uint32_t i = 0; i < g->nsp; i++)
        if (!subpart_idle(g->sp[i])) return false;
    return xbar_idle(g->req) && xbar_idle(g->rep) && memsys_idle(g->ms);
}

static int stuck(struct gpu *g, const char *why, struct ws_err *e) {
    char buf[768] = "";
    size_t n = 0;
    for (uint32_t i = 0; i < g->nsm && n < sizeof buf - 200; i++) {
        if (sm_idle(g->sm[i])) continue;
        n += (size_t)snprintf(buf + n, sizeof buf - n, " [sm%u: ", i);
        sm_describe_stuck(g->sm[i], buf + n, sizeof buf - n - 2);
        n = strlen(buf);
        n += (size_t)snprintf(buf + n, sizeof buf - n, "]");
        break;
    }
    for (uint32_t i = 0; i < g->nsp && n < sizeof buf - 200; i++) {
        if (subpart_idle(g->sp[i])) continue;
        n += (size_t)snprintf(buf + n, sizeof buf - n, " [");
        subpart_describe(g->sp[i], buf + n, sizeof buf - n - 2);
        n = strlen(buf);
        n += (size_t)snprintf(buf + n, sizeof buf - n, "]");
        break;
    }
    return ws_fail(e,
                   "kernel %u (%s): %s at core cycle %llu, %llu of %llu CTAs done, %llu requests "
                   "in flight;%s",
                   g->k.id, g->k.name, why, (unsigned long long)g->clk.cyc[CLK_CORE],
                   (unsigned long long)g->ctas_done, (unsigned long long)g->k.ncta,
                   (unsigned long long)req_pool_live(&g->pool), buf);
}

static uint64_t total_insts(const struct gpu *g) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < g->nsm; i++) n += sm_stats(g->sm[i])->warp_insts;
    return n;
}

/* Steps the clock domains until `done(g)`; skips time in which nothing can happen. */
static int step_until(struct gpu *g, bool (*done)(struct gpu *), double t0, struct ws_err *e) {
    uint64_t last_progress_cyc = g->clk.cyc[CLK_CORE];
    uint64_t last_progress_val = 0, steps = 0;
    double last_report = host_now();
    /* The limits are checked at every step, so that where a run stops depends only on the
     * simulated machine, not on which cycles the loop visits (skipping idle time) */
    const uint64_t max_insts = (uint64_t)g->cfg.max_insts;
    const uint64_t max_tinsts = (uint64_t)g->cfg.max_thread_insts;
    const uint64_t end_cyc =
        g->cfg.max_cycles ? g->cycles_base + (uint64_t)g->cfg.max_cycles : UINT64_MAX;
    while (!done(g)) {
        if (g->clk.cyc[CLK_CORE] >= end_cyc || (max_insts && g->insts >= max_insts) ||
            (max_tinsts && g->tinsts >= max_tinsts)) {
            g->sum.stopped_early = true;
            return 0;
        }
        unsigned mask;
        uint64_t t = clocks_next(&g->clk, &mask);
        bool did = false;
        if (mask & 1u << CLK_DRAM) {
            if (dram_tick(g, g->clk.cyc[CLK_DRAM], &did, e) != 0) return -1;
            g->clk.cyc[CLK_DRAM]++;
        }
        if (mask & 1u << CLK_L2) {
            l2_tick(g, g->clk.cyc[CLK_L2], &did);
            g->clk.cyc[CLK_L2]++;
        }
        if (mask & 1u << CLK_NOC) {
            noc_tick(g, g->clk.cyc[CLK_NOC], &did);
            g->clk.cyc[CLK_NOC]++;
        }
        if (mask & 1u << CLK_CORE) {
            if (core_tick(g, g->clk.cyc[CLK_CORE], &did, e) != 0) return -1;
            g->clk.cyc[CLK_CORE]++;
        }
        if (!did) {
            uint64_t nt = next_time(g);
            if (nt == UINT64_MAX) {
                if (done(g)) break;
                return stuck(g, "nothing can make progress (deadlock)", e);
            }
            /* a skip stops at the cycle limit: the run ends there, exactly */
            if (end_cyc != UINT64_MAX && nt > clocks_time_of(&g->clk, CLK_CORE, end_cyc))
                nt = clocks_time_of(&g->clk, CLK_CORE, end_cyc);
            if (nt > t && !g->cfg.lockstep) clocks_skip_to(&g->clk, nt);
        }
        if ((++steps & 4095) == 0) {
            uint64_t val = total_insts(g) + g->pool.freed;
            uint64_t cyc = g->clk.cyc[CLK_CORE];
            if (val != last_progress_val) {
                last_progress_val = val;
                last_progress_cyc = cyc;
            } else if (cyc - last_progress_cyc > (uint64_t)g->cfg.watchdog) {
                return stuck(g, "no progress for gpu.watchdog cycles", e);
            }
            WS_ASSERT(g->insts == total_insts(g), "gpu: issued-instruction count drifted");
            double h = host_now();
            if (g->progress && h - last_report > 0.25) {
                last_report = h;
                struct gpu_progress p = {.kernel = g->k.name,
                                         .kernel_id = g->k.id,
                                         .cycles = cyc - g->cycles_base,
                                         .warp_insts = total_insts(g),
                                         .ctas_done = g->ctas_done,
                                         .ctas_total = g->k.ncta,
                                         .host_seconds = h - t0,
                                         .kernel_seconds = h - g->kernel_t0};
                g->progress(g->progress_ctx, &p);
            }
        }
    }
    return 0;
}

static bool kernel_done(struct gpu *g) {
    return g->ctas_done == g->k.ncta;
}
static bool drained(struct gpu *g) {
    return all_idle(g);
}

static void warm(struct gpu *g) {
    uint64_t line = (uint64_t)g->l2c.line;
    uint64_t cap = (uint64_t)(g->l2c.sets * g->l2c.ways * g->l2c.line) * g->nsp;
    uint8_t all = (uint8_t)((1u << (g->l2c.line / g->l2c.sector)) - 1);
    uint64_t budget = cap; /* the most recent copies win: walk backwards until the L2 is full */
    for (uint32_t i = g->k.ncopies; i-- > 0 && budget;) {
        const struct wl_copy *cp = &g->k.copies[i];
        uint64_t lo = cp->addr & ~(line - 1), hi = cp->addr + cp->bytes;
        uint64_t n = (hi - lo + line - 1) / line;
        if (n * line > budget) n = budget / line;
        for (uint64_t j = 0; j < n; j++) {
            uint64_t a = lo + j * line;
            subpart_warm(g->sp[env_subpart(g, a)], a, all);
        }
        budget -= n * line;
    }
    for (uint32_t i = 0; i < g->nsp; i++) /* writebacks */
        if (g->sp_next[i] > g->clk.cyc[CLK_L2]) sp_wake(g, i, g->clk.cyc[CLK_L2]);
}

static int launch(struct gpu *g, struct ws_err *e) {
    if (sm_occupancy(&g->smc, &g->k) == 0)
        return ws_fail(e,
                       "kernel %u (%s): one CTA (%u threads, %u registers per thread, %u B shared "
                       "memory) does not fit on an SM",
                       g->k.id, g->k.name, g->k.threads, g->k.regs, g->k.smem);
    if (g->cfg.flush_l2)
        for (uint32_t i = 0; i < g->nsp; i++) subpart_flush(g->sp[i]);
    if (g->cfg.warm_l2 && g->k.ncopies) warm(g);
    g->kernel_t0 = host_now();
    g->next_cta = 0;
    g->ctas_done = 0;
    g->next_sm = 0;
    return dispatch(g, g->clk.cyc[CLK_CORE], e);
}

/* Adds every counter and histogram of src into dst, following a stat table. */
static void sum_stats(void *dst, const void *src, const struct stat_desc *d, unsigned n) {
    for (unsigned i = 0; i < n; i++) {
        char *pd = (char *)dst + d[i].offset;
        const char *ps = (const char *)src + d[i].offset;
        if (d[i].kind == STAT_COUNTER)
            *(uint64_t *)(void *)pd += *(const uint64_t *)(const void *)ps;
        else if (d[i].kind == STAT_HIST)
            ws_hist_merge((struct ws_hist *)(void *)pd, (const struct ws_hist *)(const void *)ps);
    }
}

/* The cycles of domain d the run went through: a run stopped at a limit ends with the core
 * cycle that reached it (a skip over idle time may have moved d's count past it). */
static uint64_t domain_end(const struct gpu *g, enum clk_domain d, uint64_t end_core) {
    uint64_t end = g->clk.cyc[d];
    if (g->sum.stopped_early && end_core > 0) {
        uint64_t n = clocks_time_of(&g->clk, CLK_CORE, end_core - 1) / g->clk.period_fs[d] + 1;
        if (n < end) end = n;
    }
    return end;
}

static void summarise(struct gpu *g, double seconds, uint64_t end_core) {
    struct gpu_summary *s = &g->sum;
    memset(&g->core_sum, 0, sizeof g->core_sum);
    memset(&g->l1_sum, 0, sizeof g->l1_sum);
    memset(&g->l2_sum, 0, sizeof g->l2_sum);
    memset(&g->sp_sum, 0, sizeof g->sp_sum);
    for (uint32_t i = 0; i < g->nsm; i++) {
        sm_finish(g->sm[i], end_core);
        sum_stats(&g->core_sum, sm_stats(g->sm[i]), sm_stat_desc, sm_stat_ndesc);
        for (int k = 0; k < OP_NCLASS; k++) {
            g->core_sum.insts_by_class[k] += sm_stats(g->sm[i])->insts_by_class[k];
            g->core_sum.lanes_by_class[k] += sm_stats(g->sm[i])->lanes_by_class[k];
        }
        sum_stats(&g->l1_sum, cache_stats(sm_l1d(g->sm[i])), cache_stat_desc, cache_stat_ndesc);
    }
    uint64_t l2_end = domain_end(g, CLK_L2, end_core);
    for (uint32_t i = 0; i < g->nsp; i++) {
        subpart_finish(g->sp[i], l2_end);
        sum_stats(&g->l2_sum, cache_stats(subpart_l2(g->sp[i])), cache_stat_desc, cache_stat_ndesc);
        sum_stats(&g->sp_sum, subpart_stats(g->sp[i]), subpart_stat_desc, subpart_stat_ndesc);
    }
    /* derived figures of the sums, as cache_finish derives them per cache */
    struct cache_stats *cs[2] = {&g->l1_sum, &g->l2_sum};
    for (int j = 0; j < 2; j++) {
        uint64_t fails = 0;
        for (int i = 0; i < CACHE_NFAIL; i++) fails += cs[j]->fail[i];
        cs[j]->miss_rate = cs[j]->accesses > fails
                               ? (double)cs[j]->misses / (double)(cs[j]->accesses - fails)
                               : 0.0;
    }
    xbar_finish(g->req, domain_end(g, CLK_NOC, end_core));
    xbar_finish(g->rep, domain_end(g, CLK_NOC, end_core));
    const struct sm_stats *c = &g->core_sum;
    s->cycles = end_core - g->cycles_base;
    s->warp_insts = c->warp_insts;
    s->thread_insts = c->thread_insts;
    s->ctas = c->ctas_done;
    s->ipc = s->cycles ? (double)s->thread_insts / (double)s->cycles : 0;
    s->warp_ipc = s->cycles ? (double)s->warp_insts / (double)s->cycles : 0;
    uint64_t f1 = 0, f2 = 0;
    for (int i = 0; i < CACHE_NFAIL; i++) {
        f1 += g->l1_sum.fail[i];
        f2 += g->l2_sum.fail[i];
    }
    s->l1_accesses = g->l1_sum.accesses;
    s->l1_misses = g->l1_sum.misses;
    s->l1_resfails = f1;
    s->l2_accesses = g->l2_sum.accesses;
    s->l2_misses = g->l2_sum.misses;
    s->l2_resfails = f2;
    s->l1_miss_rate =
        s->l1_accesses > f1 ? (double)s->l1_misses / (double)(s->l1_accesses - f1) : 0;
    s->l2_miss_rate =
        s->l2_accesses > f2 ? (double)s->l2_misses / (double)(s->l2_accesses - f2) : 0;
    s->l1_mpki = s->warp_insts ? 1000.0 * (double)s->l1_misses / (double)s->warp_insts : 0;
    s->l2_mpki = s->warp_insts ? 1000.0 * (double)s->l2_misses / (double)s->warp_insts : 0;
    const struct xbar_stats *rq = xbar_stats(g->req), *rp = xbar_stats(g->rep);
    s->noc_req_packets = rq->packets;
    s->noc_rep_packets = rp->packets;
    s->noc_req_lat = ws_hist_mean(&rq->lat);
    s->noc_rep_lat = ws_hist_mean(&rp->lat);
    s->noc_req_flits_per_cycle = rq->flits_per_cycle;
    s->noc_rep_flits_per_cycle = rp->flits_per_cycle;
    const struct memsys_summary *d = memsys_summary(g->ms);
    s->dram_row_hit_rate = d->row_hit_rate;
    s->dram_bw_share = d->bw_share;
    s->dram_avg_read_lat_ns = d->avg_read_lat_ns;
    s->load_warps = c->load_warps;
    s->offchip_per_load = ws_hist_mean(&c->offchip_per_load);
    s->lat_div_mean = ws_hist_mean(&c->lat_div);
    s->load_time_mean = ws_hist_mean(&c->load_time);
    s->l1_concentration =
        c->conc_loads ? (double)c->conc_milli / 1000.0 / (double)c->conc_loads : 0;
    s->coalescing = c->mem_insts ? (double)c->mem_reqs / (double)c->mem_insts : 0;
    s->mem_inst_share =
        c->warp_insts ? (double)c->insts_by_class[OP_MEM] / (double)c->warp_insts : 0;
    s->lat_div_in_mc_share =
        c->lat_div.sum ? (double)c->lat_div_in_mc.sum / (double)c->lat_div.sum : 0;
    const struct clocks *k = &g->clk;
#define NS(dom, cycles) ((cycles) * (double)k->period_fs[dom] / 1e6)
    s->ns_noc_req = NS(CLK_NOC, s->noc_req_lat);
    s->ns_noc_rep = NS(CLK_NOC, s->noc_rep_lat);
    s->ns_l2_hit = NS(CLK_L2, ws_hist_mean(&g->sp_sum.lat_l2_hit));
    s->ns_l2_miss = NS(CLK_L2, ws_hist_mean(&g->sp_sum.lat_l2_miss));
    s->ns_mc_queue = NS(CLK_DRAM, ws_hist_mean(&g->sp_sum.lat_mc_q));
    s->ns_dram = NS(CLK_DRAM, ws_hist_mean(&g->sp_sum.lat_dram));
    s->ns_offchip_req = NS(CLK_CORE, ws_hist_mean(&c->req_turnaround));
#undef NS
    s->requests = g->pool.allocated;
    s->requests_returned = g->pool.freed;
    /* a lookup turned back for want of an MSHR or queue entry is retried, and only the try
     * that is served reads the array (as AccelWattch counts hits and misses, not fails) */
    struct energy_events ev = {.warp_insts = c->warp_insts,
                               .rf_accesses = c->rf_reads + c->rf_writes,
                               .l1_accesses = s->l1_accesses - s->l1_resfails,
                               .smem_cycles = c->smem_accesses + c->smem_conflict_cycles,
                               .l2_accesses = s->l2_accesses - s->l2_resfails,
                               .flits = rq->flits + rp->flits,
                               .dram_nj = d->energy_nj,
                               .seconds =
                                   (double)s->cycles * (double)k->period_fs[CLK_CORE] * 1e-15};
    for (int i = 0; i < OP_NCLASS; i++) ev.lanes[i] = c->lanes_by_class[i];
    struct energy_result er;
    energy_compute(&g->ec, &ev, &er);
    s->energy_j = er.total_j;
    s->energy_core_j = er.core_j;
    s->energy_rf_j = er.rf_j;
    s->energy_cache_j = er.cache_j;
    s->energy_noc_j = er.noc_j;
    s->energy_dram_j = er.dram_j;
    s->energy_static_j = er.static_j;
    s->power_w = er.power_w;
    s->edp_js = er.edp_js;
    s->host_seconds = seconds;
    s->warp_insts_per_s = seconds > 0 ? (double)s->warp_insts / seconds : 0;
    s->cycles_per_s = seconds > 0 ? (double)s->cycles / seconds : 0;
}

int gpu_run(struct gpu *g, struct workload *w, struct ws_err *e) {
    double t0 = host_now();
    g->w = w;
    g->cycles_base = g->clk.cyc[CLK_CORE];
    for (;;) {
        memset(&g->k, 0, sizeof g->k);
        int r = w->vt->next_kernel(w, &g->k, e);
        if (r < 0) return -1;
        if (r == 0) break;
        if (launch(g, e) != 0) return -1;
        if (step_until(g, kernel_done, t0, e) != 0) return -1;
        if (g->sum.stopped_early) break;
        for (uint32_t i = 0; i < g->nsm; i++) sm_kernel_end(g->sm[i]);
        g->sum.kernels++;
    }
    uint64_t end_core = g->clk.cyc[CLK_CORE];
    if (!g->sum.stopped_early) {
        /* Let the L2's writebacks reach the DRAM, then prove everything drained. The kernels
         * are over, so the controllers drain their writes even with mc.drain_when_no_reads off. */
        memsys_flush(g->ms, g->clk.cyc[CLK_DRAM]);
        if (memsys_next_event(g->ms) < g->dram_next) g->dram_next = memsys_next_event(g->ms);
        if (step_until(g, drained, t0, e) != 0) return -1;
        if (req_pool_live(&g->pool) != 0)
            return ws_fail(e, "internal: %llu requests never came back",
                           (unsigned long long)req_pool_live(&g->pool));
    }
    if (memsys_finish(g->ms, domain_end(g, CLK_DRAM, end_core), e) != 0) return -1;
    /* cycles = the kernels' time, not the final drain of L2 writebacks */
    summarise(g, host_now() - t0, end_core);
    if (!g->sum.stopped_early && w->vt->verify && w->vt->verify(w, e) != 0) return -1;
    return 0;
}

const struct gpu_summary *gpu_summary(const struct gpu *g) {
    return &g->sum;
}
const struct ws_hist *gpu_hist_offchip(const struct gpu *g) {
    return &g->core_sum.offchip_per_load;
}
const struct ws_hist *gpu_hist_lat_div(const struct gpu *g) {
    return &g->core_sum.lat_div;
}
const struct ws_hist *gpu_hist_mc_assembly(const struct gpu *g) {
    return &g->core_sum.mc_assembly;
}

const struct ws_hist *gpu_hist_mcs_per_load(const struct gpu *g) {
    return &g->core_sum.mcs_per_load;
}
const struct ws_hist *gpu_hist_load_time(const struct gpu *g) {
    return &g->core_sum.load_time;
}

int gpu_register_stats(struct gpu *g, struct stats_reg *reg, struct ws_err *e) {
    if (stats_register(reg, "gpu", gpu_summary_desc, gpu_summary_ndesc, &g->sum, e) != 0 ||
        stats_register(reg, "core", sm_stat_desc, sm_stat_ndesc, &g->core_sum, e) != 0 ||
        stats_register(reg, "l1d", cache_stat_desc, cache_stat_ndesc, &g->l1_sum, e) != 0 ||
        stats_register(reg, "l2", cache_stat_desc, cache_stat_ndesc, &g->l2_sum, e) != 0 ||
        stats_register(reg, "l2.part", subpart_stat_desc, subpart_stat_ndesc, &g->sp_sum, e) != 0 ||
        stats_register(reg, "noc.req", xbar_stat_desc, xbar_stat_ndesc, xbar_stats(g->req), e) !=
            0 ||
        stats_register(reg, "noc.rep", xbar_stat_desc, xbar_stat_ndesc, xbar_stats(g->rep), e) != 0)
        return -1;
    return memsys_register_stats(g->ms, reg, false, e);
}
