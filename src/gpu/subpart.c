#include "gpu/subpart.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mc/mc.h"
#include "mem/upstream.h"

#define SD(f, doc)                                                                                 \
    { #f, STAT_COUNTER, offsetof(struct subpart_stats, f), "", doc }
const struct stat_desc subpart_stat_desc[] = {
    SD(reqs, "requests accepted from the request network"),
    SD(replies, "replies (data, store and atomic acknowledgements) handed to the reply network"),
    SD(dram_reads, "read bursts sent to the memory controller (fetches of missing sectors)"),
    SD(dram_writes, "write bursts sent to the memory controller (writebacks, write-through)"),
    SD(stall_in_full, "deliveries the request network could not make: input queue full"),
    SD(stall_resfail, "L2 cycles the head request got a reservation failure and was retried"),
    SD(stall_dram, "L2 cycles a miss waited for room in the memory controller's queue"),
    SD(stall_out_full, "L2 cycles in which a finished request waited for room in the output "
                       "queue (or a filled miss for room in the reply pipeline); once per cycle"),
    {"lat_l2_hit", STAT_HIST, offsetof(struct subpart_stats, lat_l2_hit), "L2 cycles",
     "L2 access to reply ready, for requests the L2 served (hits, stores, atomics)"},
    {"lat_l2_miss", STAT_HIST, offsetof(struct subpart_stats, lat_l2_miss), "L2 cycles",
     "L2 access to reply ready, for requests that waited for DRAM data"},
    {"lat_mc_q", STAT_HIST, offsetof(struct subpart_stats, lat_mc_q), "DRAM cycles",
     "memory-controller queueing of a read burst: arrival to its column command"},
    {"lat_dram", STAT_HIST, offsetof(struct subpart_stats, lat_dram), "DRAM cycles",
     "DRAM service of a read burst: column command to its last data beat"},
};
const unsigned subpart_stat_ndesc = sizeof subpart_stat_desc / sizeof subpart_stat_desc[0];

struct ring { /* FIFO of request pointers */
    struct mem_req **v;
    uint32_t cap, head, n;
};

static int ring_init(struct ring *q, uint32_t cap) {
    q->v = calloc(cap, sizeof *q->v);
    q->cap = cap;
    q->head = q->n = 0;
    return q->v ? 0 : -1;
}
static inline bool ring_full(const struct ring *q) {
    return q->n == q->cap;
}
static inline void ring_push(struct ring *q, struct mem_req *r) {
    q->v[(q->head + q->n++) % q->cap] = r;
}
static inline struct mem_req *ring_peek(const struct ring *q) {
    return q->n ? q->v[q->head] : NULL;
}
static inline void ring_pop(struct ring *q) {
    q->head = (q->head + 1) % q->cap;
    q->n--;
}

struct delayed {
    uint64_t ready;
    struct mem_req *r;
};
struct dring { /* FIFO of requests with ready times, constant latency so ready times ascend */
    struct delayed *v;
    uint32_t cap, head, n;
};
static int dring_init(struct dring *q, uint32_t cap) {
    q->v = calloc(cap, sizeof *q->v);
    q->cap = cap;
    q->head = q->n = 0;
    return q->v ? 0 : -1;
}

struct fetch { /* one miss-queue fetch in flight at the DRAM */
    uint64_t line;
    uint8_t sectors;
    uint8_t remaining; /* bursts not back yet */
    uint32_t next_free;
    uint64_t ts[MEM_TS_N]; /* its bursts' DRAM stages: first arrival/command, last column/data */
};

/* DRAM stage stamps of recently completed fetches, by line: the requests a fill releases copy
 * them, so every request carries a timestamp at every stage it went through. */
enum { STAMPS = 256 };
struct stamp {
    uint64_t line;
    uint64_t enq, cmd, col, data;
};

struct filling { /* a fetch whose data is all back, filling the L2 at L2 cycle `at` */
    uint64_t at;
    uint32_t fetch;
};

struct ret { /* a burst's data, done at DRAM cycle `at` */
    uint64_t at;
    uint32_t fetch;
};

enum { MAX_BURSTS = 16, NO_FETCH = 0xffffffffu };
#define NO_IDLE UINT64_MAX

struct subpart {
    uint32_t id, ch, sel, nsub;
    struct upstream *up; /* upstream counts to keep (NULL: no policy reads them) */
    const struct addr_map *map;
    uint64_t ranks, pcs, banks_local, bpg, cols; /* local address geometry */
    uint64_t global_cap, local_cap;              /* bytes the map covers, all / per slice */
    struct subpart_cfg cfg;
    struct cache *l2;
    struct memsys *ms;
    uint32_t line_bytes, sector_bytes, burst_bytes;
    uint64_t hit_lat;
    struct ring in, out;
    struct dring hitq, atomq;
    struct fetch *fetch;
    uint32_t nfetch, fetch_free, fetch_used;
    struct ret *ret; /* sorted by `at` from ret_head */
    uint32_t ret_cap, ret_head, ret_n;
    /* Fetches in the fixed partition delay (gpu.dram_latency), in completion order. */
    struct filling *fillq;
    uint32_t fill_head, fill_n;
    /* The miss-queue entry being turned into bursts. */
    bool cur_active;
    struct cache_miss cur;
    uint64_t cur_burst[MAX_BURSTS];
    uint32_t cur_nburst, cur_next, cur_fetch;
    /* The global address and DRAM location of burst cur_next, made once however often a full
     * controller queue turns the burst back (cur_ga_of = cur_next when they are current). */
    uint64_t cur_ga;
    struct dram_addr cur_da;
    uint32_t cur_ga_of;
    /* The local address of the input head, made once however often the L2 turns it back, and
     * whether the L2 turned it back, at which L2 version and why. */
    const struct mem_req *head_of;
    uint64_t head_local;
    bool head_failed;
    uint64_t head_fail_ver;
    enum cache_fail head_fail;
    /* A cycle that changed nothing ("idle": every part waits on the NoC, the controller or a
     * time) leaves the slice as it was, so each following cycle would repeat it exactly until
     * one of those moves: the GPU loop then visits it only at its time events and when the NoC
     * or the controller makes room, and the cycles in between count the stalls that cycle
     * counted (idle_at: its L2 cycle, NO_IDLE after a cycle that changed something). `touched`:
     * this cycle changed state without moving a request. */
    uint64_t idle_at;
    uint32_t idle_out_full, idle_dram, idle_resfail;
    bool out_stalled; /* this cycle, a finished request found no room on its way out */
    bool touched;
    /* Miss-queue entries set aside while warming the L2 (sent before the cache's own). */
    struct cache_miss *warm_wb;
    uint32_t nwarm_wb, cap_warm_wb, warm_head;
    struct stamp stamps[STAMPS];
    struct subpart_stats st;
};

/* The L2 slice indexes a partition-local address: the global address with the bits that chose
 * this slice (channel, slice-select bank bits) taken out, so that a linear set index spreads a
 * slice's lines over all its sets (the channel bits would otherwise pin every line of a slice to
 * a few sets). GPGPU-Sim does the same with its "partition address". Lines stay contiguous:
 * their bursts are consecutive columns of one bank and row. */
static uint64_t to_local(const struct subpart *s, uint64_t addr) {
    struct dram_addr a;
    addr_map_decode(s->map, addr, &a);
    uint64_t burst = s->burst_bytes;
    uint64_t flat = (uint64_t)a.bg * s->bpg + a.bank;
    WS_ASSERT(a.ch == s->ch && flat % s->nsub == s->sel, "0x%llx does not belong to slice %u",
              (unsigned long long)addr, s->id);
    uint64_t bank = flat / s->nsub;
    uint64_t t = ((uint64_t)a.row * s->ranks + a.rank) * s->pcs + a.pc;
    t = (t * s->banks_local + bank) * s->cols + a.col;
    /* Bits above the mapped capacity wrap in the DRAM (the map ignores them) but still tell
     * lines apart in the cache: keep them on top. */
    uint64_t wraps = addr / s->global_cap;
    return wraps * s->local_cap + t * burst + (addr & (burst - 1));
}

/* to_global, with the DRAM location of the result (the map decodes it back to `out`). */
static uint64_t to_global_at(const struct subpart *s, uint64_t local, struct dram_addr *out) {
    uint64_t burst = s->burst_bytes;
    uint64_t wraps = local / s->local_cap;
    local %= s->local_cap;
    uint64_t off = local & (burst - 1), t = local / burst;
    struct dram_addr a;
    a.ch = s->ch;
    a.col = (uint32_t)(t % s->cols);
    t /= s->cols;
    uint64_t bank = (t % s->banks_local) * s->nsub + s->sel;
    t /= s->banks_local;
    a.pc = (uint32_t)(t % s->pcs);
    t /= s->pcs;
    a.rank = (uint32_t)(t % s->ranks);
    a.row = (uint32_t)(t / s->ranks);
    a.bg = (uint32_t)(bank / s->bpg);
    a.bank = (uint32_t)(bank % s->bpg);
    *out = a;
    return wraps * s->global_cap + addr_map_encode(s->map, &a) + off;
}

static uint64_t to_global(const struct subpart *s, uint64_t local) {
    struct dram_addr a;
    return to_global_at(s, local, &a);
}

uint64_t subpart_local_addr(const struct subpart *s, uint64_t addr) {
    return to_local(s, addr);
}
uint64_t subpart_global_addr(const struct subpart *s, uint64_t local) {
    return to_global(s, local);
}

struct subpart *subpart_create(uint32_t id, uint32_t nsub, const struct cache_cfg *l2,
                               const struct subpart_cfg *sc, struct memsys *ms, struct ws_err *e) {
    struct subpart *s = calloc(1, sizeof *s);
    if (!s) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    char name[32];
    snprintf(name, sizeof name, "l2.%u", id);
    s->id = id;
    s->idle_at = NO_IDLE;
    s->cfg = *sc;
    s->ms = ms;
    const struct dram_spec *sp = memsys_spec(ms);
    s->map = memsys_map(ms);
    s->nsub = nsub;
    s->up = memsys_upstream(ms);
    s->ch = id / nsub;
    s->sel = id % nsub;
    s->ranks = (uint64_t)sp->ranks;
    s->pcs = (uint64_t)sp->pseudo_channels;
    s->bpg = (uint64_t)sp->banks_per_group;
    s->cols = (uint64_t)sp->columns;
    uint64_t banks = (uint64_t)dram_banks_per_rank(sp);
    if (banks % nsub) {
        ws_fail(e, "gpu.subparts = %u must divide the %llu banks of a rank", nsub,
                (unsigned long long)banks);
        goto fail;
    }
    s->banks_local = banks / nsub;
    s->global_cap = (uint64_t)sp->channels * s->ranks * s->pcs * banks * (uint64_t)sp->rows *
                    s->cols * (uint64_t)dram_access_bytes(sp);
    s->local_cap = s->global_cap / sp->channels / nsub;
    s->l2 = cache_create(l2, name, e);
    if (!s->l2) goto fail;
    s->line_bytes = (uint32_t)l2->line;
    s->sector_bytes = (uint32_t)l2->sector;
    s->burst_bytes = (uint32_t)dram_access_bytes(memsys_spec(ms));
    s->hit_lat = (uint64_t)l2->hit_lat;
    uint32_t bursts_per_line =
        s->line_bytes / (s->burst_bytes < s->sector_bytes ? s->burst_bytes : s->sector_bytes);
    if (bursts_per_line > MAX_BURSTS) {
        ws_fail(e, "l2.line = %u: a line spans %u DRAM bursts of %u B (at most %d)", s->line_bytes,
                bursts_per_line, s->burst_bytes, MAX_BURSTS);
        goto fail;
    }
    s->nfetch = (uint32_t)sc->dram_q;
    s->ret_cap = s->nfetch * MAX_BURSTS;
    if (ring_init(&s->in, (uint32_t)sc->in_q) || ring_init(&s->out, (uint32_t)sc->out_q) ||
        dring_init(&s->hitq, 4 * ((uint32_t)s->hit_lat + 2)) ||
        dring_init(&s->atomq, 4 * ((uint32_t)(s->hit_lat + (uint64_t)sc->atomic_lat) + 2)) ||
        !(s->fetch = calloc(s->nfetch, sizeof *s->fetch)) ||
        !(s->ret = calloc(s->ret_cap, sizeof *s->ret)) ||
        !(s->fillq = calloc(s->nfetch, sizeof *s->fillq))) {
        ws_fail(e, "out of memory");
        goto fail;
    }
    for (uint32_t i = 0; i < s->nfetch; i++)
        s->fetch[i].next_free = i + 1 < s->nfetch ? i + 1 : NO_FETCH;
    s->fetch_free = 0;
    for (uint32_t i = 0; i < STAMPS; i++) s->stamps[i].line = UINT64_MAX;
    return s;
fail:
    subpart_destroy(s);
    return NULL;
}

void subpart_destroy(struct subpart *s) {
    if (!s) return;
    if (s->l2) cache_destroy(s->l2);
    free(s->in.v);
    free(s->out.v);
    free(s->hitq.v);
    free(s->atomq.v);
    free(s->fetch);
    free(s->ret);
    free(s->fillq);
    free(s->warm_wb);
    free(s);
}

bool subpart_can_accept(const struct subpart *s) {
    return !ring_full(&s->in);
}

void subpart_note_in_full(struct subpart *s) {
    s->st.stall_in_full++;
}

void subpart_push(struct subpart *s, struct mem_req *r, uint64_t l2_now) {
    (void)l2_now;
    WS_ASSERT(!ring_full(&s->in), "sub-partition %u input overflow", s->id);
    ring_push(&s->in, r);
    s->st.reqs++;
}

static bool delay_push(struct dring *q, struct mem_req *r, uint64_t ready) {
    if (q->n == q->cap) return false;
    q->v[(q->head + q->n++) % q->cap] = (struct delayed){ready, r};
    return true;
}

/* Moves requests whose latency elapsed to the output queue. */
static bool drain_delay(struct subpart *s, struct dring *q, uint64_t now) {
    bool did = false;
    while (q->n && q->v[q->head].ready <= now) {
        if (ring_full(&s->out)) {
            s->out_stalled = true;
            break;
        }
        struct mem_req *r = q->v[q->head].r;
#ifndef NDEBUG
        WS_ASSERT(r->gaddr == to_global(s, r->addr), "l2.%u: 0x%llx is not where 0x%llx went in",
                  s->id, (unsigned long long)to_global(s, r->addr), (unsigned long long)r->gaddr);
#endif
        r->addr = r->gaddr;
        ws_hist_add(r->offchip ? &s->st.lat_l2_miss : &s->st.lat_l2_hit, now - r->ts[MEM_TS_L2]);
        ring_push(&s->out, r);
        q->head = (q->head + 1) % q->cap;
        q->n--;
        did = true;
    }
    return did;
}

/* Bursts covering `sectors` of the line. */
static uint32_t bursts_of(const struct subpart *s, uint64_t line, uint8_t sectors, uint64_t *out) {
    uint32_t n = 0;
    uint64_t last = UINT64_MAX;
    uint32_t nsec = s->line_bytes / s->sector_bytes;
    for (uint32_t i = 0; i < nsec; i++) {
        if (!(sectors >> i & 1)) continue;
        uint64_t a = line + (uint64_t)i * s->sector_bytes;
        if (s->burst_bytes >= s->sector_bytes) {
            uint64_t b = a & ~((uint64_t)s->burst_bytes - 1);
            if (b != last) out[n++] = last = b;
        } else {
            for (uint32_t k = 0; k < s->sector_bytes / s->burst_bytes; k++)
                out[n++] = a + (uint64_t)k * s->burst_bytes;
        }
    }
    return n;
}

static void ret_insert(struct subpart *s, uint64_t at, uint32_t fetch) {
    WS_ASSERT(s->ret_n < s->ret_cap, "sub-partition %u DRAM return overflow", s->id);
    /* Data times arrive almost in order: insert from the back. */
    uint32_t i = s->ret_n++;
    while (i > 0) {
        struct ret *p = &s->ret[(s->ret_head + i - 1) % s->ret_cap];
        if (p->at <= at) break;
        s->ret[(s->ret_head + i) % s->ret_cap] = *p;
        i--;
    }
    s->ret[(s->ret_head + i) % s->ret_cap] = (struct ret){at, fetch};
}

void subpart_dram_done(struct subpart *s, const struct mc_req *mr) {
    if (mr->r.is_write) return;
    const uint64_t *ts = mr->r.ts;
    if (ts[MEM_TS_COL] != UINT64_MAX) { /* not forwarded from a queued write */
        ws_hist_add(&s->st.lat_mc_q, ts[MEM_TS_COL] - ts[MEM_TS_MC_ENQ]);
        ws_hist_add(&s->st.lat_dram, ts[MEM_TS_DATA] - ts[MEM_TS_COL]);
    }
    struct fetch *fe = &s->fetch[(uint32_t)(mr->r.tag & 0xffffffffu)];
    if (ts[MEM_TS_MC_ENQ] < fe->ts[MEM_TS_MC_ENQ]) fe->ts[MEM_TS_MC_ENQ] = ts[MEM_TS_MC_ENQ];
    uint64_t cmd = ts[MEM_TS_COL] == UINT64_MAX ? ts[MEM_TS_MC_ENQ] : ts[MEM_TS_DRAM_CMD];
    if (cmd < fe->ts[MEM_TS_DRAM_CMD]) fe->ts[MEM_TS_DRAM_CMD] = cmd;
    uint64_t col = ts[MEM_TS_COL] == UINT64_MAX ? ts[MEM_TS_MC_ENQ] : ts[MEM_TS_COL];
    if (col > fe->ts[MEM_TS_COL]) fe->ts[MEM_TS_COL] = col;
    if (ts[MEM_TS_DATA] > fe->ts[MEM_TS_DATA]) fe->ts[MEM_TS_DATA] = ts[MEM_TS_DATA];
    ret_insert(s, mr->r.ts[MEM_TS_DATA], (uint32_t)(mr->r.tag & 0xffffffffu));
}

/* Starts the next miss-queue entry: computes its bursts, reserves a fetch record for reads. */
static bool start_miss(struct subpart *s) {
    bool warm = s->warm_head < s->nwarm_wb;
    const struct cache_miss *m = warm ? &s->warm_wb[s->warm_head] : cache_miss_peek(s->l2);
    if (!m) return false;
    bool rd = m->kind == MEM_LOAD || m->kind == MEM_ATOMIC;
    if (rd && s->fetch_free == NO_FETCH) return false;
    s->cur = *m;
    s->cur_nburst = bursts_of(s, m->line_addr, m->sectors, s->cur_burst);
    s->cur_next = 0;
    s->cur_ga_of = UINT32_MAX;
    s->cur_fetch = NO_FETCH;
    if (rd) {
        uint32_t f = s->fetch_free;
        s->fetch_free = s->fetch[f].next_free;
        s->fetch[f] =
            (struct fetch){m->line_addr, m->sectors, (uint8_t)s->cur_nburst, NO_FETCH, {0}};
        s->fetch[f].ts[MEM_TS_MC_ENQ] = s->fetch[f].ts[MEM_TS_DRAM_CMD] = UINT64_MAX;
        s->fetch_used++;
        s->cur_fetch = f;
    }
    if (warm) {
        if (++s->warm_head == s->nwarm_wb) s->warm_head = s->nwarm_wb = 0;
    } else {
        cache_miss_pop(s->l2);
    }
    s->cur_active = true;
    return true;
}

/* Sends one burst of the current miss to the controller. */
static bool send_burst(struct subpart *s, uint64_t now, uint64_t dram_now) {
    if (!s->cur_active) {
        if (!start_miss(s)) return false;
        s->touched = true; /* the miss left the miss queue, even if its burst waits */
    }
    bool wr = s->cur_fetch == NO_FETCH;
    if (s->cur_ga_of != s->cur_next) {
        s->cur_ga = to_global_at(s, s->cur_burst[s->cur_next], &s->cur_da);
        s->cur_ga_of = s->cur_next;
#ifndef NDEBUG
        struct dram_addr chk;
        addr_map_decode(s->map, s->cur_ga, &chk);
        WS_ASSERT(memcmp(&chk, &s->cur_da, sizeof chk) == 0 && chk.ch == s->ch,
                  "l2.%u: burst 0x%llx does not decode to the location it was made from", s->id,
                  (unsigned long long)s->cur_ga);
#endif
    }
    uint64_t a = s->cur_ga;
    if (!mc_can_accept(memsys_mc(s->ms, s->ch), wr)) {
        s->st.stall_dram++;
        return false;
    }
    struct mem_req d;
    memset(&d, 0, sizeof d);
    if (s->cur.req) d.o = s->cur.req->o;
    d.addr = a;
    d.is_write = wr;
    d.bytes = s->burst_bytes;
    d.kind = s->cur.kind;
    d.tag = (uint64_t)s->id << 32 | s->cur_fetch;
    d.ts[MEM_TS_L2] = now;
    d.ts[MEM_TS_COL] = UINT64_MAX; /* stays so when the controller forwards it */
    memsys_enqueue_decoded(s->ms, &d, &s->cur_da, dram_now);
    if (wr)
        s->st.dram_writes++;
    else
        s->st.dram_reads++;
    if (++s->cur_next == s->cur_nburst) {
        s->cur_active = false;
        /* the miss's last burst is in a controller queue */
        if (s->up && !wr && s->cur.req && s->cur.req->kind == MEM_LOAD)
            upstream_sub(s->up, s->cur.req->o.load_id);
    }
    return true;
}

/* Fills the L2 with a completed fetch and frees its record. */
static void fill_fetch(struct subpart *s, uint32_t f, uint64_t now) {
    struct fetch *fe = &s->fetch[f];
    s->stamps[(fe->line / s->line_bytes) % STAMPS] =
        (struct stamp){fe->line, fe->ts[MEM_TS_MC_ENQ], fe->ts[MEM_TS_DRAM_CMD], fe->ts[MEM_TS_COL],
                       fe->ts[MEM_TS_DATA]};
    cache_fill_from(s->l2, fe->line, fe->sectors, fe->sectors, now); /* all from DRAM */
    fe->next_free = s->fetch_free;
    s->fetch_free = f;
    s->fetch_used--;
}

/* A fetch's last burst is back: fill the L2 (after the partition delay, if any), which releases
 * its waiters. The delay is constant, so fetches leave it in the order they entered. */
static void complete_fetches(struct subpart *s, uint64_t now, uint64_t dram_now) {
    while (s->ret_n && s->ret[s->ret_head].at < dram_now) {
        uint32_t f = s->ret[s->ret_head].fetch;
        s->ret_head = (s->ret_head + 1) % s->ret_cap;
        s->ret_n--;
        if (--s->fetch[f].remaining) continue;
        if (!s->cfg.dram_lat) {
            fill_fetch(s, f, now);
            continue;
        }
        WS_ASSERT(s->fill_n < s->nfetch, "sub-partition %u fill delay overflow", s->id);
        s->fillq[(s->fill_head + s->fill_n++) % s->nfetch] =
            (struct filling){now + (uint64_t)s->cfg.dram_lat, f};
    }
}

static bool drain_fills(struct subpart *s, uint64_t now) {
    bool did = false;
    while (s->fill_n && s->fillq[s->fill_head].at <= now) {
        fill_fetch(s, s->fillq[s->fill_head].fetch, now);
        s->fill_head = (s->fill_head + 1) % s->nfetch;
        s->fill_n--;
        did = true;
    }
    return did;
}

/* Requests the fills satisfied leave through the same data pipeline as hits (the L2 hit
 * latency), atomics through the atomic unit too. */
static bool release_ready(struct subpart *s, uint64_t now) {
    bool did = false;
    while (cache_ready_pending(s->l2)) {
        if (s->hitq.n == s->hitq.cap || s->atomq.n == s->atomq.cap) {
            s->out_stalled = true;
            break;
        }
        struct mem_req *r = cache_ready_pop(s->l2);
        r->offchip = true;
        uint64_t line = r->addr & ~((uint64_t)s->line_bytes - 1);
        const struct stamp *st = &s->stamps[(line / s->line_bytes) % STAMPS];
        if (st->line == line) {
            r->ts[MEM_TS_MC_ENQ] = st->enq;
            r->ts[MEM_TS_DRAM_CMD] = st->cmd;
            r->ts[MEM_TS_COL] = st->col;
            r->ts[MEM_TS_DATA] = st->data;
        }
        if (r->kind == MEM_ATOMIC)
            delay_push(&s->atomq, r, now + s->hit_lat + (uint64_t)s->cfg.atomic_lat);
        else
            delay_push(&s->hitq, r, now + s->hit_lat);
        did = true;
    }
    return did;
}

/* The head input request accesses the L2 (one access per cycle: a single port). */
static bool access_head(struct subpart *s, uint64_t now) {
    struct mem_req *r = ring_peek(&s->in);
    if (!r) return false;
    if (s->hitq.n == s->hitq.cap || s->atomq.n == s->atomq.cap) return false;
    bool kept = false;
    enum cache_fail fail = CACHE_FAIL_NONE;
    r->ts[MEM_TS_L2] = now;
    uint64_t global = r->addr;
    if (s->head_of != r) {
        s->head_local = to_local(s, global);
        s->head_of = r;
        s->head_failed = false;
    }
    if (s->head_failed && s->head_fail_ver == cache_version(s->l2)) {
        /* nothing in the L2 changed since it turned this request back: it would again */
#ifndef NDEBUG
        r->addr = s->head_local;
        WS_ASSERT(cache_probe(s->l2, r) == CACHE_RESFAIL, "l2.%u: skipped an access that fits",
                  s->id);
        r->addr = global;
#endif
        cache_count_resfail(s->l2, r, s->head_fail);
        s->st.stall_resfail++;
        return false;
    }
    r->gaddr = global;
    r->addr = s->head_local; /* local while the L2 holds it */
    enum cache_outcome o = cache_access(s->l2, r, now, &kept, &fail);
    if (o == CACHE_RESFAIL) {
        r->addr = global;
        s->st.stall_resfail++;
        s->head_failed = true;
        s->touched = true; /* later retries take the counting path above */
        s->head_fail_ver = cache_version(s->l2);
        s->head_fail = fail;
        return false;
    }
    ring_pop(&s->in);
    s->head_of = NULL; /* (the request may come back later as another one) */
    /* a load fetch that hit or merged into a pending miss is off its way to DRAM */
    if (s->up && r->kind == MEM_LOAD && (!kept || o == CACHE_HIT_RESERVED))
        upstream_sub(s->up, r->o.load_id);
    if (kept) return true; /* waits in an MSHR for its fill */
    /* Hits, and writes the L2 absorbed or sent on: reply after the hit latency (an atomic also
     * spends the atomic unit's latency). A write sent on to DRAM is acknowledged here too: the
     * L2 is the point of coherence, the SM only needs to know the L2 took it. */
    uint64_t ready = now + s->hit_lat;
    if (r->kind == MEM_ATOMIC)
        delay_push(&s->atomq, r, ready + (uint64_t)s->cfg.atomic_lat);
    else
        delay_push(&s->hitq, r, ready);
    return true;
}

/* The stalls of n unvisited cycles after an idle one: each repeats it (see idle_at). */
static void idle_count(struct subpart *s, uint64_t n) {
    s->st.stall_out_full += n * s->idle_out_full;
    s->st.stall_dram += n * s->idle_dram;
    if (s->idle_resfail) {
        s->st.stall_resfail += n;
        cache_count_resfail_n(s->l2, ring_peek(&s->in), s->head_fail, n);
    }
}

bool subpart_cycle(struct subpart *s, uint64_t now, uint64_t dram_now) {
    if (s->idle_at != NO_IDLE && now > s->idle_at + 1) idle_count(s, now - s->idle_at - 1);
    const uint64_t out0 = s->st.stall_out_full, dram0 = s->st.stall_dram,
                   res0 = s->st.stall_resfail;
    s->touched = false;
    bool did = false;
    if (s->ret_n && s->ret[s->ret_head].at < dram_now) {
        complete_fetches(s, now, dram_now);
        did = true;
    }
    did |= drain_fills(s, now);
    did |= release_ready(s, now);
    did |= drain_delay(s, &s->hitq, now);
    did |= drain_delay(s, &s->atomq, now);
    s->st.stall_out_full += s->out_stalled; /* a cycle counts once, however many waited */
    s->out_stalled = false;
    did |= send_burst(s, now, dram_now);
    did |= access_head(s, now);
    if (did || s->touched) {
        s->idle_at = NO_IDLE;
    } else {
        s->idle_at = now;
        s->idle_out_full = (uint32_t)(s->st.stall_out_full - out0);
        s->idle_dram = (uint32_t)(s->st.stall_dram - dram0);
        s->idle_resfail = (uint32_t)(s->st.stall_resfail - res0);
    }
    return did;
}

#ifndef NDEBUG
/* Debug builds: an idle slice the loop leaves out at L2 cycle `now` must have nothing to do
 * there, i.e. a visit would repeat its idle cycle. */
void subpart_check_idle(const struct subpart *s, uint64_t now, uint64_t dram_now) {
    if (s->idle_at == NO_IDLE) return;
    const bool out_full = ring_full(&s->out);
    const bool q_full = s->hitq.n == s->hitq.cap || s->atomq.n == s->atomq.cap;
    const char *why = NULL;
    if (s->ret_n && s->ret[s->ret_head].at < dram_now)
        why = "DRAM data due";
    else if (s->fill_n && s->fillq[s->fill_head].at <= now)
        why = "fill due";
    else if (cache_ready_pending(s->l2) && !q_full)
        why = "released request can go";
    else if (s->hitq.n && s->hitq.v[s->hitq.head].ready <= now && !out_full)
        why = "reply due with output room";
    else if (s->atomq.n && s->atomq.v[s->atomq.head].ready <= now && !out_full)
        why = "atomic reply due with output room";
    else if (s->cur_active && subpart_dram_room(s))
        why = "burst with controller room";
    else if (!s->cur_active && (s->warm_head < s->nwarm_wb || cache_miss_peek(s->l2)) &&
             s->fetch_free != NO_FETCH)
        why = "miss can start";
    else if (s->in.n && !q_full &&
             !(s->head_of == ring_peek(&s->in) && s->head_failed &&
               s->head_fail_ver == cache_version(s->l2)))
        why = "input head can access";
    WS_ASSERT(!why, "l2.%u: left out at L2 cycle %llu (idle since %llu), but %s", s->id,
              (unsigned long long)now, (unsigned long long)s->idle_at, why);
}
#endif

bool subpart_waits_dram(const struct subpart *s) {
    return s->idle_at != NO_IDLE && s->idle_dram;
}

bool subpart_dram_room(const struct subpart *s) {
    return mc_can_accept(memsys_mc(s->ms, s->ch), s->cur_fetch == NO_FETCH);
}

uint64_t subpart_next_event(const struct subpart *s, uint64_t from) {
    uint64_t t = UINT64_MAX;
    if (s->idle_at != NO_IDLE && s->idle_at + 1 == from) {
        /* idle: only a delayed reply coming due or a fill changes anything by itself (a head
         * already due waits for output room: the NoC wakes the slice) */
        if (s->hitq.n && s->hitq.v[s->hitq.head].ready >= from) t = s->hitq.v[s->hitq.head].ready;
        if (s->atomq.n && s->atomq.v[s->atomq.head].ready >= from &&
            s->atomq.v[s->atomq.head].ready < t)
            t = s->atomq.v[s->atomq.head].ready;
        if (s->fill_n && s->fillq[s->fill_head].at < t) t = s->fillq[s->fill_head].at;
        return t;
    }
    if (s->in.n || s->cur_active || s->nwarm_wb || cache_miss_pending(s->l2) ||
        cache_ready_pending(s->l2))
        return from;
    if (s->hitq.n) t = s->hitq.v[s->hitq.head].ready;
    if (s->atomq.n && s->atomq.v[s->atomq.head].ready < t) t = s->atomq.v[s->atomq.head].ready;
    if (s->fill_n && s->fillq[s->fill_head].at < t) t = s->fillq[s->fill_head].at;
    if (t != UINT64_MAX && t < from) t = from;
    return t;
}

uint64_t subpart_next_dram(const struct subpart *s) {
    return s->ret_n ? s->ret[s->ret_head].at : UINT64_MAX;
}

struct mem_req *subpart_out_peek(const struct subpart *s) {
    return ring_peek(&s->out);
}

void subpart_out_pop(struct subpart *s) {
    ring_pop(&s->out);
    s->st.replies++;
}

void subpart_flush(struct subpart *s) {
    cache_invalidate(s->l2);
}

void subpart_warm(struct subpart *s, uint64_t line_addr, uint8_t sectors) {
    /* Through the normal lookup with a private request, so replacement and geometry apply; the
     * fetch it queues is answered at once, a dirty victim's writeback still goes to the DRAM.
     * The statistics count no access, miss or fill for it (GPGPU-Sim's memcpy tag update does
     * not either). */
    line_addr = to_local(s, line_addr);
    struct mem_req w;
    memset(&w, 0, sizeof w);
    w.addr = line_addr;
    w.kind = MEM_LOAD;
    w.sectors = sectors;
    if (cache_probe(s->l2, &w) != CACHE_SECTOR_MISS && cache_probe(s->l2, &w) != CACHE_MISS)
        return; /* present, being fetched, or nothing can be reserved now */
    uint32_t before = cache_miss_len(s->l2);
    const struct cache_stats counted = *cache_stats(s->l2);
    bool kept = false;
    enum cache_fail fail;
    cache_access(s->l2, &w, 0, &kept, &fail);
    /* Keep the older entries in order; answer our fetch, defer a victim's writeback. */
    uint32_t n = cache_miss_len(s->l2);
    struct cache_miss keep[64];
    uint32_t nkeep = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct cache_miss *m = cache_miss_peek(s->l2);
        if (i >= before && m->req == &w) {
            cache_miss_pop(s->l2);
            continue;
        }
        WS_ASSERT(nkeep < 64, "miss queue too deep to warm");
        keep[nkeep++] = *m;
        cache_miss_pop(s->l2);
    }
    cache_fill(s->l2, line_addr, sectors, 0);
    while (cache_ready_pending(s->l2)) cache_ready_pop(s->l2);
    cache_uncount(s->l2, &counted); /* a copy from the host, not an access */
    for (uint32_t i = 0; i < nkeep; i++) {
        if (s->nwarm_wb == s->cap_warm_wb) {
            uint32_t cap = s->cap_warm_wb ? 2 * s->cap_warm_wb : 64;
            struct cache_miss *v = realloc(s->warm_wb, cap * sizeof *v);
            WS_ASSERT(v, "out of memory");
            s->warm_wb = v;
            s->cap_warm_wb = cap;
        }
        s->warm_wb[s->nwarm_wb++] = keep[i];
    }
}

bool subpart_idle(const struct subpart *s) {
    return !s->in.n && !s->out.n && !s->hitq.n && !s->atomq.n && !s->ret_n && !s->cur_active &&
           !s->fetch_used && !s->nwarm_wb && cache_idle(s->l2);
}

void subpart_describe(const struct subpart *s, char *buf, size_t n) {
    snprintf(
        buf, n,
        "l2.%u: in %u out %u hitq %u atomq %u fetches %u dram-returns %u filling %u mshr %u%s%s",
        s->id, s->in.n, s->out.n, s->hitq.n, s->atomq.n, s->fetch_used, s->ret_n, s->fill_n,
        cache_mshr_used(s->l2), cache_miss_pending(s->l2) ? " miss-queued" : "",
        s->cur_active ? " sending" : "");
}

void subpart_finish(struct subpart *s, uint64_t end) {
    /* an idle slice at the end of a capped run: its unvisited cycles up to the end */
    if (s->idle_at != NO_IDLE && end > s->idle_at + 1) {
        idle_count(s, end - s->idle_at - 1);
        s->idle_at = end - 1;
    }
    cache_finish(s->l2);
}

const struct subpart_stats *subpart_stats(const struct subpart *s) {
    return &s->st;
}

const struct cache *subpart_l2(const struct subpart *s) {
    return s->l2;
}
