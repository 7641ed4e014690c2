/* USIMM v1.3 processor front end (see usimm_front.h), written from the loop spec/seed-002.md
 * §3.3 describes; details (retire test comptime < cycle, queue cleanup one DRAM cycle after a
 * request is served, exact-address matches) were checked against USIMM v1.3's main.c and
 * memory_controller.c, not copied. The front end keeps its own mirror of what USIMM's read and
 * write queues hold, with a hash for the exact-address lookups. */
#include "mem/drive/usimm_front.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mem/drive/memtrace.h"
#include "mem/memsys.h"

/* A queued read's ROB entry completes this many CPU cycles after fetch unless the memory
 * system says otherwise first (USIMM main.c's BIGNUM). */
#define USIMM_BIGNUM 1000000ULL
#define CPU_NEVER    UINT64_MAX
#define NIL          UINT32_MAX

#define OFF(f) offsetof(struct usimm_front_cfg, f)
const struct cfg_key usimm_front_keys[] = {
    {"usimm.rob_size", CFG_INT, OFF(rob_size), "128", 1, 65536, NULL, "entries",
     "reorder-buffer entries per core (USIMM ROBSIZE)"},
    {"usimm.max_fetch", CFG_INT, OFF(max_fetch), "4", 1, 64, NULL, "instr/cycle",
     "instructions fetched per core per CPU cycle (USIMM MAX_FETCH)"},
    {"usimm.max_retire", CFG_INT, OFF(max_retire), "2", 1, 64, NULL, "instr/cycle",
     "instructions retired in order per core per CPU cycle (USIMM MAX_RETIRE)"},
    {"usimm.pipeline_depth", CFG_INT, OFF(pipeline_depth), "10", 0, 100000, NULL, "CPU cycles",
     "cycles from fetch (or data return) to completion (USIMM PIPELINEDEPTH)"},
    {"usimm.clk_mult", CFG_INT, OFF(clk_mult), "4", 1, 64, NULL, "",
     "CPU cycles per DRAM cycle (USIMM PROCESSOR_CLK_MULTIPLIER)"},
    {"usimm.wq_lookup_latency", CFG_INT, OFF(wq_lookup_latency), "10", 1, 100000, NULL,
     "CPU cycles", "latency of a read served by a queued write (USIMM WQ_LOOKUP_LATENCY)"},
    {"usimm.address_bits", CFG_INT, OFF(address_bits), "32", 1, 60, NULL, "bit",
     "address bits of one trace; core i's addresses get its prefix above them (USIMM "
     "ADDRESS_BITS; the map must have room for the prefixes, as usimm_cfg's rows do)"},
};
const unsigned usimm_front_nkeys = CFG_COUNT(usimm_front_keys);

int usimm_front_configure(struct usimm_front_cfg *fc, struct cfg *c, struct ws_err *e) {
    memset(fc, 0, sizeof *fc);
    return cfg_bind(c, "usimm", usimm_front_keys, usimm_front_nkeys, fc, e);
}

#define SC(f, doc)                                                                                 \
    { #f, STAT_COUNTER, offsetof(struct usimm_front_stats, f), "", doc }
#define SU(f, kind, unit, doc)                                                                     \
    { #f, kind, offsetof(struct usimm_front_stats, f), unit, doc }
const struct stat_desc usimm_front_stat_desc[] = {
    SC(cores, "simulated cores (one per trace)"),
    SU(cycles, STAT_COUNTER, "CPU cycles",
       "USIMM \"Cycles\": first CPU cycle after all traces ended, ROBs emptied and writes drained"),
    SU(committed, STAT_COUNTER, "instr", "instructions retired, all cores (trace records + gaps)"),
    SU(fetched, STAT_COUNTER, "instr", "instructions fetched into the ROBs, all cores"),
    SU(ipc, STAT_REAL, "instr/cycle", "committed / cycles (sum over cores)"),
    SU(reads, STAT_COUNTER, "req", "read records consumed from the traces"),
    SU(writes, STAT_COUNTER, "req", "write records consumed from the traces"),
    SU(reads_to_dram, STAT_COUNTER, "req", "reads put into a read queue (no queue match)"),
    SU(writes_to_dram, STAT_COUNTER, "req", "writes put into a write queue (no queue match)"),
    SU(reads_merged, STAT_COUNTER, "req",
       "reads matching a queued read: done 1 + pipeline_depth after fetch"),
    SU(reads_forwarded, STAT_COUNTER, "req",
       "reads matching a queued write: done wq_lookup_latency + pipeline_depth after fetch "
       "(USIMM counts these and reads_merged together as \"reads merged\")"),
    SU(writes_merged, STAT_COUNTER, "req", "writes whose address was already in the write queue"),
    SU(read_lat_sum, STAT_COUNTER, "CPU cycles",
       "sum over reads_to_dram of fetch cycle to data done (USIMM's read latency)"),
    SU(avg_read_lat, STAT_REAL, "CPU cycles", "read_lat_sum / reads_to_dram"),
    SU(wq_full_cycles, STAT_COUNTER, "CPU cycles",
       "cycles whose fetch step found some write queue full (fetch stalls for every core)"),
    SU(rq_full_stalls, STAT_COUNTER, "events",
       "fetches held back by a full read queue (only when mc.rq_size < cores x rob_size)"),
    SU(sum_exec_time, STAT_COUNTER, "CPU cycles",
       "USIMM \"Sum of execution times for all programs\": sum of per-core finish times"),
    SU(finish, STAT_HIST, "CPU cycles", "per-core finish time (last core charged the drain)"),
    SU(dram_power_w, STAT_REAL, "W", "DRAM power from the power model (after the run)"),
    SU(misc_power_w, STAT_REAL, "W",
       "USIMM miscellaneous system power: 40 W with 4 channels, else 10 W (seed-002 §3.11)"),
    SU(core_power_w, STAT_REAL, "W",
       "USIMM core power: 10 W x finish time / cycles per core, halved with 1 channel"),
    SU(system_power_w, STAT_REAL, "W", "dram_power_w + misc_power_w + core_power_w"),
    SU(seconds, STAT_REAL, "s", "cycles / CPU clock (clk_mult / tCK: 3.2 GHz for DDR3-1600)"),
    SU(edp_js, STAT_REAL, "J*s",
       "USIMM energy-delay product: system_power_w x (cycles / 3.2 GHz)^2, USIMM's fixed clock "
       "whatever clk_mult (= seconds^2 with 4 x DDR3-1600's 800 MHz)"),
};
const unsigned usimm_front_stat_ndesc = CFG_COUNT(usimm_front_stat_desc);

/* One entry of the queue mirror: a request USIMM would still find in its read/write queue. */
struct qent {
    uint64_t addr;
    uint64_t fetch_cyc;
    uint32_t hnext; /* hash chain */
    uint32_t lnext; /* free list or cleanup list */
    uint32_t core, slot, ch;
    bool is_write;
};

struct core {
    struct memtrace *t;
    uint64_t *comp; /* ROB completion times (CPU cycles), ring of rob_size */
    uint32_t head, tail, inflight;
    bool tracedone;
    /* the record being consumed: `gap` non-memory instructions, then the access */
    uint64_t gap, addr, pc;
    bool is_write;
    uint64_t prefix_add;
    struct usimm_core_result res;
};

struct usimm_front {
    struct usimm_front_cfg cfg;
    struct memsys *ms;
    const struct addr_map *map;
    uint32_t burst, nch, rob;
    uint64_t mult, pd;
    struct core *core;
    unsigned ncores;

    struct qent *pool;
    uint32_t npool, free_head, clean_head;
    uint32_t *bucket, hmask;
    unsigned hshift;
    uint32_t *wq_cnt; /* per channel, USIMM's write_queue_length */
    uint32_t wq_cap, nfull, wq_total;

    uint64_t cyc; /* CPU cycle whose fetch step is next (its retire step is done) */
    uint64_t now; /* DRAM cycle of the inject call in progress */
    bool done;
    struct usimm_front_stats st;
};

/* ---- queue mirror ---- */
static uint32_t hash(const struct usimm_front *f, uint64_t addr) {
    return (uint32_t)((addr * 0x9E3779B97F4A7C15ULL) >> f->hshift) & f->hmask;
}

static bool mirror_has(const struct usimm_front *f, uint64_t addr, bool is_write) {
    for (uint32_t i = f->bucket[hash(f, addr)]; i != NIL; i = f->pool[i].hnext)
        if (f->pool[i].addr == addr && f->pool[i].is_write == is_write) return true;
    return false;
}

static uint32_t mirror_add(struct usimm_front *f, uint64_t addr, bool is_write, uint32_t ch) {
    uint32_t i = f->free_head;
    struct qent *q = &f->pool[i];
    f->free_head = q->lnext;
    uint32_t h = hash(f, addr);
    *q = (struct qent){
        .addr = addr, .hnext = f->bucket[h], .lnext = NIL, .ch = ch, .is_write = is_write};
    f->bucket[h] = i;
    if (is_write) {
        f->wq_total++;
        if (++f->wq_cnt[ch] == f->wq_cap) f->nfull++;
    }
    return i;
}

/* USIMM's memory step removes the requests served in earlier DRAM cycles. */
static void mirror_cleanup(struct usimm_front *f) {
    while (f->clean_head != NIL) {
        uint32_t i = f->clean_head;
        struct qent *q = &f->pool[i];
        f->clean_head = q->lnext;
        uint32_t *p = &f->bucket[hash(f, q->addr)];
        while (*p != i) p = &f->pool[*p].hnext;
        *p = q->hnext;
        if (q->is_write) {
            if (f->wq_cnt[q->ch]-- == f->wq_cap) f->nfull--;
            f->wq_total--;
        }
        q->lnext = f->free_head;
        f->free_head = i;
    }
}

/* ---- lifecycle ---- */
static int load_record(struct core *k, struct ws_err *e) {
    struct memtrace_rec r;
    int rc = memtrace_next(k->t, &r, e);
    if (rc < 0) return -1;
    if (rc == 0) {
        k->tracedone = true;
        return 0;
    }
    k->gap = r.gap;
    k->is_write = r.is_write;
    k->addr = r.addr;
    k->pc = r.pc;
    return 0;
}

/* USIMM's address-space prefix: a trace named MT<n>... (n != 0) belongs to the multithreaded
 * application of the last MT0... trace before it and shares its prefix. */
static int prefixes(struct usimm_front *f, const char *const *traces, struct ws_err *e) {
    int mt0 = -1;
    for (unsigned i = 0; i < f->ncores; i++) {
        const char *base = strrchr(traces[i], '/');
        base = base ? base + 1 : traces[i];
        uint32_t p = i;
        if (strlen(base) > 2 && base[0] == 'M' && base[1] == 'T') {
            if (base[2] == '0')
                mt0 = (int)i;
            else if (mt0 < 0)
                return ws_fail(e,
                               "%s: trace name starts with \"MT\" but no \"MT0...\" trace comes "
                               "before it (USIMM's multithreaded-application naming)",
                               traces[i]);
            else
                p = (uint32_t)mt0;
        }
        f->core[i].res.prefix = p;
        f->core[i].prefix_add = (uint64_t)p << f->cfg.address_bits;
    }
    return 0;
}

struct usimm_front *usimm_front_create(const struct usimm_front_cfg *fc, struct memsys *ms,
                                       const char *const *traces, unsigned ntraces,
                                       struct ws_err *e) {
    if (ntraces == 0) {
        ws_fail(e, "usimm: no trace given");
        return NULL;
    }
    struct usimm_front *f = calloc(1, sizeof *f);
    if (!f) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    f->cfg = *fc;
    f->ms = ms;
    f->map = memsys_map(ms);
    f->burst = (uint32_t)dram_access_bytes(memsys_spec(ms));
    f->nch = memsys_nchannels(ms);
    f->rob = (uint32_t)fc->rob_size;
    f->mult = (uint64_t)fc->clk_mult;
    f->pd = (uint64_t)fc->pipeline_depth;
    f->ncores = ntraces;
    f->wq_cap = (uint32_t)memsys_mc_cfg(ms)->wq_size;
    f->clean_head = NIL;
    f->st.cores = ntraces;
    /* The mirror holds at most what the controllers hold plus the requests served in the last
     * DRAM cycle (at most two per channel with a dual command bus). */
    uint64_t npool = (uint64_t)f->nch * ((uint64_t)memsys_mc_cfg(ms)->rq_size +
                                         (uint64_t)memsys_mc_cfg(ms)->wq_size + 4);
    f->npool = (uint32_t)npool;
    unsigned bits = 1;
    while ((1ULL << bits) < 2 * npool) bits++;
    f->hmask = (uint32_t)((1ULL << bits) - 1);
    f->hshift = 64 - bits;
    f->core = calloc(ntraces, sizeof *f->core);
    f->pool = calloc(npool, sizeof *f->pool);
    f->bucket = malloc(((size_t)f->hmask + 1) * sizeof *f->bucket);
    f->wq_cnt = calloc(f->nch, sizeof *f->wq_cnt);
    if (!f->core || !f->pool || !f->bucket || !f->wq_cnt) goto oom;
    memset(f->bucket, 0xff, ((size_t)f->hmask + 1) * sizeof *f->bucket);
    for (uint32_t i = 0; i < f->npool; i++) f->pool[i].lnext = i + 1 < f->npool ? i + 1 : NIL;
    f->free_head = 0;
    if (prefixes(f, traces, e) != 0) goto fail;
    for (unsigned i = 0; i < ntraces; i++) {
        struct core *k = &f->core[i];
        k->comp = calloc(f->rob, sizeof *k->comp);
        if (!k->comp) goto oom;
        k->t = memtrace_open(traces[i], MEMTRACE_USIMM, e);
        if (!k->t || load_record(k, e) != 0) goto fail;
        if (k->tracedone) {
            ws_fail(e, "%s: trace has no records", traces[i]);
            goto fail;
        }
    }
    return f;
oom:
    ws_fail(e, "out of memory");
fail:
    usimm_front_destroy(f);
    return NULL;
}

void usimm_front_destroy(struct usimm_front *f) {
    if (!f) return;
    if (f->core)
        for (unsigned i = 0; i < f->ncores; i++) {
            memtrace_close(f->core[i].t);
            free(f->core[i].comp);
        }
    free(f->core);
    free(f->pool);
    free(f->bucket);
    free(f->wq_cnt);
    free(f);
}

const struct usimm_front_stats *usimm_front_stats(const struct usimm_front *f) {
    return &f->st;
}
unsigned usimm_front_ncores(const struct usimm_front *f) {
    return f->ncores;
}
const struct usimm_core_result *usimm_front_core(const struct usimm_front *f, unsigned core) {
    return &f->core[core].res;
}

int usimm_front_register_stats(const struct usimm_front *f, struct stats_reg *reg,
                               struct ws_err *e) {
    return stats_register(reg, "cpu", usimm_front_stat_desc, usimm_front_stat_ndesc, &f->st, e);
}

/* ---- the CPU cycle ---- */
static void retire_all(struct usimm_front *f, uint64_t c) {
    uint32_t maxr = (uint32_t)f->cfg.max_retire;
    for (unsigned i = 0; i < f->ncores; i++) {
        struct core *k = &f->core[i];
        uint32_t n = 0;
        while (n < maxr && k->inflight && k->comp[k->head] < c) {
            if (++k->head == f->rob) k->head = 0;
            k->inflight--;
            n++;
        }
        k->res.committed += n;
        /* USIMM notes the finish time in the fetch step of the cycle the ROB emptied. */
        if (n && k->tracedone && !k->inflight && !k->res.time_done) k->res.time_done = c;
    }
}

static void rob_push(struct usimm_front *f, struct core *k, uint64_t comp) {
    k->comp[k->tail] = comp;
    if (++k->tail == f->rob) k->tail = 0;
    k->inflight++;
    k->res.fetched++;
}

/* Puts a request into the mirror and the memory system. False when the controller (or the
 * mirror) has no room, which only a read queue smaller than USIMM's unbounded one causes. */
static bool send(struct usimm_front *f, struct core *k, unsigned core, uint64_t addr, bool w,
                 uint64_t c) {
    if (f->free_head == NIL || !memsys_can_accept(f->ms, addr, w)) return false;
    struct dram_addr da;
    addr_map_decode(f->map, addr, &da);
    uint32_t i = mirror_add(f, addr, w, da.ch);
    struct qent *q = &f->pool[i];
    q->core = core;
    q->slot = k->tail;
    q->fetch_cyc = c;
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.is_write = w;
    r.bytes = f->burst;
    r.tag = i;
    r.o.thread = (uint16_t)core;
    r.o.rob_slot = k->tail;
    r.o.pc = w ? 0 : k->pc;
    r.ts[MEM_TS_ISSUE] = c;
    /* Fetched in CPU cycle c of [mult (now - 1), mult now): USIMM's scheduler first sees it in
     * the memory step of DRAM cycle now, which is the controllers' next tick. */
    memsys_enqueue(f->ms, &r, f->now);
    return true;
}

static int fetch_core(struct usimm_front *f, unsigned ci, uint64_t c, struct ws_err *e) {
    struct core *k = &f->core[ci];
    uint32_t nf = 0, maxf = (uint32_t)f->cfg.max_fetch;
    while (!k->tracedone && nf < maxf && k->inflight < f->rob && !f->nfull) {
        if (k->gap) {
            rob_push(f, k, c + f->pd);
            k->gap--;
            nf++;
            continue;
        }
        uint64_t a = k->addr + k->prefix_add;
        /* the ROB entry is written before the request is sent: a controller that completes it
         * at once (its own forwarding) overwrites the completion time in place */
        if (!k->is_write) {
            k->comp[k->tail] = c + USIMM_BIGNUM;
            if (mirror_has(f, a, true)) {
                k->comp[k->tail] = c + (uint64_t)f->cfg.wq_lookup_latency + f->pd;
                f->st.reads_forwarded++;
            } else if (mirror_has(f, a, false)) {
                k->comp[k->tail] = c + 1 + f->pd;
                f->st.reads_merged++;
            } else if (send(f, k, ci, a, false, c)) {
                f->st.reads_to_dram++;
            } else {
                f->st.rq_full_stalls++;
                break;
            }
            f->st.reads++;
            rob_push(f, k, k->comp[k->tail]);
        } else {
            k->comp[k->tail] = c + f->pd;
            if (mirror_has(f, a, true)) {
                f->st.writes_merged++;
            } else if (send(f, k, ci, a, true, c)) {
                f->st.writes_to_dram++;
            } else {
                f->st.rq_full_stalls++;
                break;
            }
            f->st.writes++;
            rob_push(f, k, k->comp[k->tail]);
        }
        nf++;
        if (load_record(k, e) != 0) return -1;
    }
    return 0;
}

/* USIMM's end test, in the fetch step of cycle c. */
static bool check_done(struct usimm_front *f, uint64_t c) {
    if (f->wq_total) return false;
    for (unsigned i = 0; i < f->ncores; i++)
        if (!f->core[i].tracedone || f->core[i].inflight) return false;
    f->done = true;
    struct usimm_front_stats *s = &f->st;
    s->cycles = c + 1;
    /* USIMM charges the write-queue drain to the core that finished last (the first of equals). */
    unsigned last = 0;
    for (unsigned i = 1; i < f->ncores; i++)
        if (f->core[i].res.time_done > f->core[last].res.time_done) last = i;
    f->core[last].res.time_done = s->cycles;
    for (unsigned i = 0; i < f->ncores; i++) {
        const struct usimm_core_result *r = &f->core[i].res;
        s->committed += r->committed;
        s->fetched += r->fetched;
        s->sum_exec_time += r->time_done;
        ws_hist_add(&s->finish, r->time_done);
    }
    s->ipc = (double)s->committed / (double)s->cycles;
    s->avg_read_lat = s->reads_to_dram ? (double)s->read_lat_sum / (double)s->reads_to_dram : 0;
    return true;
}

/* Earliest CPU cycle >= f->cyc whose fetch step can change anything, given no controller
 * event: a core can fetch now, some ROB head can retire, served requests leave the mirror at
 * the next memory step, or the end test holds. CPU_NEVER when only the controllers can help. */
static uint64_t next_active(const struct usimm_front *f) {
    uint64_t best = CPU_NEVER;
    bool all_done = true;
    for (unsigned i = 0; i < f->ncores; i++) {
        const struct core *k = &f->core[i];
        if (!k->tracedone && k->inflight < f->rob && !f->nfull) return f->cyc;
        if (k->inflight) {
            /* this cycle's retire step already ran (maybe width-limited) */
            uint64_t t = k->comp[k->head] + 1;
            if (t <= f->cyc) t = f->cyc + 1;
            if (t < best) best = t;
        }
        if (!k->tracedone || k->inflight) all_done = false;
    }
    if (all_done && !f->wq_total) return f->cyc;
    if (f->clean_head != NIL) {
        uint64_t u = (f->cyc / f->mult + 1) * f->mult;
        if (u < best) best = u;
    }
    return best;
}

static int front_inject(void *st, struct memsys *ms, uint64_t now, struct ws_err *e) {
    struct usimm_front *f = st;
    (void)ms;
    uint64_t target = now * f->mult;
    f->now = now;
    while (!f->done && f->cyc < target) {
        uint64_t n = next_active(f);
        if (n > f->cyc) {
            /* nothing can happen before n: go straight to its retire step */
            uint64_t m = n < target ? n : target;
            if (f->nfull) f->st.wq_full_cycles += m - f->cyc;
            f->cyc = m;
        } else {
            if (f->nfull) f->st.wq_full_cycles++;
            for (unsigned i = 0; i < f->ncores; i++)
                if (fetch_core(f, i, f->cyc, e) != 0) return -1;
            if (check_done(f, f->cyc)) break;
            f->cyc++;
        }
        retire_all(f, f->cyc);
        if (f->cyc % f->mult == 0) mirror_cleanup(f);
    }
    return 0;
}

static uint64_t front_next_event(void *st, uint64_t now) {
    struct usimm_front *f = st;
    (void)now;
    if (f->done) return DRAM_NEVER;
    uint64_t n = next_active(f);
    /* the fetch step of CPU cycle n runs in the inject call of DRAM cycle n / mult + 1 */
    return n == CPU_NEVER ? DRAM_NEVER : n / f->mult + 1;
}

/* Every trace fetched to its end: nothing more will be offered. */
static bool front_exhausted(void *st) {
    const struct usimm_front *f = st;
    for (unsigned i = 0; i < f->ncores; i++)
        if (!f->core[i].tracedone) return false;
    return true;
}

static bool front_finished(void *st) {
    return ((struct usimm_front *)st)->done;
}

static void front_on_done(void *st, const struct mc_req *r) {
    struct usimm_front *f = st;
    uint32_t i = (uint32_t)r->r.tag;
    struct qent *q = &f->pool[i];
    q->lnext = f->clean_head;
    f->clean_head = i;
    if (!q->is_write) {
        /* USIMM sets the ROB entry when the column read issues: data done + pipeline depth */
        uint64_t data = r->r.ts[MEM_TS_DATA] * f->mult;
        f->core[q->core].comp[q->slot] = data + f->pd;
        f->st.read_lat_sum += data - q->fetch_cyc;
    }
}

int usimm_front_report(struct usimm_front *f, const struct memsys *ms, struct ws_err *e) {
    struct usimm_front_stats *s = &f->st;
    if (!f->done) return ws_fail(e, "usimm: power report before the run finished");
    uint32_t nch = memsys_nchannels(ms);
    s->dram_power_w = memsys_summary(ms)->power_mw / 1000.0;
    s->misc_power_w = nch == 4 ? 40.0 : 10.0;
    double core = 0;
    for (unsigned i = 0; i < f->ncores; i++)
        core += 10.0 * (double)f->core[i].res.time_done / (double)s->cycles;
    if (nch == 1) core /= 2.0;
    s->core_power_w = core;
    s->system_power_w = s->dram_power_w + s->misc_power_w + s->core_power_w;
    double cpu_hz = (double)f->mult * 1e12 / (double)memsys_spec(ms)->tCK_ps;
    s->seconds = (double)s->cycles / cpu_hz;
    /* USIMM's main.c converts cycles at a fixed 3.2 GHz, not at PROCESSOR_CLK_MULTIPLIER x the
     * DRAM clock: its EDP, reproduced, so figures compare with USIMM's own */
    double usimm_s = (double)s->cycles / 3.2e9;
    s->edp_js = s->system_power_w * usimm_s * usimm_s;
    return 0;
}

const struct drive_ops usimm_front_ops = {
    .name = "usimm",
    .inject = front_inject,
    .next_event = front_next_event,
    .exhausted = front_exhausted,
    .finished = front_finished,
    .on_done = front_on_done,
};
