/* Crossbar (see xbar.h). Packets live in one slot pool sized at create time: a packet's slot sits
 * in its input queue until it is granted, then in its output's FIFO until popped. Output room is
 * counted in flits and reserved when a flit crosses, so back-pressure is exact and the latency
 * pipeline needs no per-flit storage: a packet is complete `latency` cycles after its last flit
 * crossed, and those completion times come in order, so one ring holds them. Requests are
 * maintained incrementally as bit sets per output, so a cycle costs a few word operations per 64
 * outputs plus the work of the connections that move: idle or blocked ports cost nothing. */
#include "noc/xbar.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/bits.h"

enum { NIL = UINT32_MAX, PORT_MAX = 1u << 16, Q_MAX = 4096 };

static const char *const alloc_names[] = {"rr", "islip", NULL};

/* Defaults: 32-byte flits and single-iteration iSLIP are what GPGPU-Sim's Fermi crossbar
 * (BookSim "fly" k=N n=1) uses; Accel-Sim's Volta crossbar uses 40-byte flits. Queue depths and
 * latency are round figures of the same order; machine presets set their own. */
#define OFF(f) offsetof(struct xbar_cfg, f)
const struct cfg_key xbar_cfg_keys[] = {
    {"noc.flit", CFG_INT, OFF(flit), "32", 1, 4096, NULL, "B", "bytes per flit"},
    {"noc.latency", CFG_INT, OFF(latency), "8", 0, 100000, NULL, "cycles",
     "NoC cycles from a flit crossing the switch to its arrival in the output queue"},
    {"noc.in_q", CFG_INT, OFF(in_q), "64", 1, Q_MAX, NULL, "flits",
     "input queue per port; must hold the largest packet"},
    {"noc.out_q", CFG_INT, OFF(out_q), "64", 1, Q_MAX, NULL, "flits",
     "output queue per port, flits in flight included; must hold the largest packet"},
    {"noc.alloc", CFG_ENUM, OFF(alloc), "rr", 0, 0, alloc_names, "",
     "switch allocator: rr (pointers move on every grant) or islip"},
    {"noc.islip_iters", CFG_INT, OFF(iters), "1", 1, 64, NULL, "",
     "request-grant-accept iterations per cycle (islip only)"},
    {"noc.voq", CFG_BOOL, OFF(voq), "false", 0, 0, NULL, "",
     "virtual output queues at each input instead of one FIFO (no head-of-line blocking)"},
};
const unsigned xbar_cfg_nkeys = CFG_COUNT(xbar_cfg_keys);

int xbar_cfg_configure(struct xbar_cfg *xc, struct cfg *c, struct ws_err *e) {
    memset(xc, 0, sizeof *xc);
    if (cfg_bind(c, "noc", xbar_cfg_keys, xbar_cfg_nkeys, xc, e) != 0) return -1;
    if (xc->alloc != XBAR_ISLIP &&
        cfg_refuse_set(c, "noc.islip_iters", "noc.alloc", "read with noc.alloc = islip", e) != 0)
        return -1;
    return 0;
}

static uint32_t flits_of(int64_t flit, uint32_t bytes) {
    /* a header-only packet still occupies one flit */
    return bytes == 0 ? 1 : (uint32_t)((bytes + (uint64_t)flit - 1) / (uint64_t)flit);
}

int xbar_cfg_check_packet(const struct xbar_cfg *xc, uint32_t max_bytes, struct cfg *c,
                          struct ws_err *e) {
    uint32_t n = flits_of(xc->flit, max_bytes);
    char where[600];
    const char *keys[2] = {"noc.in_q", "noc.out_q"};
    int64_t vals[2] = {xc->in_q, xc->out_q};
    for (int k = 0; k < 2; k++) {
        if (vals[k] >= n) continue;
        const char *o = c ? cfg_origin(c, keys[k], where, sizeof where) : "noc";
        return ws_fail(e,
                       "%s: %s = %lld flits cannot hold the largest packet (%u B = %u flits of "
                       "%lld B)",
                       o, keys[k], (long long)vals[k], max_bytes, n, (long long)xc->flit);
    }
    return 0;
}

#define SD(f, kind, unit, doc)                                                                     \
    { #f, kind, offsetof(struct xbar_stats, f), unit, doc }
const struct stat_desc xbar_stat_desc[] = {
    SD(packets, STAT_COUNTER, "pkt", "packets delivered (popped at their output)"),
    SD(flits, STAT_COUNTER, "flit", "flits of the delivered packets"),
    SD(bytes, STAT_COUNTER, "B", "payload bytes of the delivered packets"),
    SD(push_stalls, STAT_COUNTER, "queries", "times an input had no room for a packet offered"),
    SD(out_blocked, STAT_COUNTER, "flit*cycles",
       "cycles a flit of a granted packet waited because its output queue was full"),
    SD(cycles, STAT_COUNTER, "cycles",
       "NoC cycles of the run (to the end of its last core cycle, or of the final drain)"),
    SD(lat, STAT_HIST, "cycles", "packet latency: push at the input to pop at the output"),
    SD(flits_per_cycle, STAT_REAL, "flit/cycle", "delivered flits per NoC cycle (all outputs)"),
};
const unsigned xbar_stat_ndesc = CFG_COUNT(xbar_stat_desc);

struct slot {
    void *pkt;
    uint64_t t_push;
    uint32_t bytes, nflits, out, next;
};

struct done_ev {
    uint64_t at; /* cycle the packet's last flit reaches its output queue */
    uint32_t out;
};

struct xbar {
    struct xbar_cfg cfg;
    char name[64];
    uint32_t n_in, n_out, nq, w_in, w_out;
    uint32_t in_q, out_q, iters, flit, flit_shift; /* shift: 32 when flit is no power of 2 */
    uint64_t lat;
    bool islip;

    struct slot *slot;
    uint32_t free_slot;

    /* inputs */
    uint32_t *qhead, *qtail; /* [in * nq + q]: one FIFO per input, or one per (input, output) */
    uint64_t *voq_mask;      /* [in * w_out]: non-empty VOQs */
    uint32_t *in_used;       /* flits queued or not yet crossed */
    uint32_t *in_lock;       /* output of the connection being sent, or NIL */
    uint32_t *in_cur;        /* slot of that packet */
    uint32_t *in_left;       /* its flits not yet crossed */
    uint64_t *in_freed;      /* [w_in] inputs that freed room since xbar_take_freed() */
    uint32_t *in_want;       /* output of the head packet (one FIFO per input), or NIL */
    uint32_t *aptr;          /* accept pointer */

    /* outputs */
    uint32_t *out_used; /* flits reserved: in flight + arrived */
    uint32_t *out_lock; /* input holding the connection, or NIL */
    uint32_t *gptr;     /* grant pointer */
    uint32_t *out_head, *out_tail, *out_ndone;
    /* [w_out] each: connection held, no room for a flit, complete packet waiting, requested */
    uint64_t *out_locked, *out_full, *out_ready, *out_wanted;

    /* Requests are kept up to date as packets come and go rather than rebuilt every cycle:
     * req[o] holds the unlocked inputs with a packet for o (the head of their FIFO, or a
     * non-empty VOQ), and out_wanted the outputs whose set is not empty. */
    uint64_t *req;   /* [out * w_in] */
    uint64_t *grant; /* [in * w_out], scratch of one allocation round */
    uint32_t *grant_ins;

    struct done_ev *ev;
    uint32_t ev_head, ev_n, ev_cap;

    uint64_t in_pkts, pkts;         /* packets not yet fully crossed; packets anywhere */
    uint64_t last_tick, wake_floor; /* latest push or pop time: a tick before it is moot */
    bool ticked;
    struct xbar_stats st;
};

static inline bool bit_get(const uint64_t *m, uint32_t i) {
    return (m[i >> 6] >> (i & 63)) & 1;
}
static inline void bit_set(uint64_t *m, uint32_t i) {
    m[i >> 6] |= 1ull << (i & 63);
}
static inline void bit_clr(uint64_t *m, uint32_t i) {
    m[i >> 6] &= ~(1ull << (i & 63));
}
static inline uint32_t ctz(uint64_t b) {
    return (uint32_t)__builtin_ctzll(b);
}

/* First set bit at or after `start`, wrapping around; NIL when none. */
static uint32_t rr_first(const uint64_t *m, uint32_t words, uint32_t start) {
    uint32_t w0 = start >> 6;
    uint64_t b = m[w0] & (~0ull << (start & 63));
    if (b) return w0 * 64 + ctz(b);
    for (uint32_t k = 1; k <= words; k++) {
        uint32_t w = w0 + k < words ? w0 + k : w0 + k - words;
        if (m[w]) return w * 64 + ctz(m[w]);
    }
    return NIL;
}

static inline uint32_t next_port(uint32_t p, uint32_t n) {
    return p + 1 == n ? 0 : p + 1;
}

static inline bool row_empty(const uint64_t *m, uint32_t words) {
    for (uint32_t w = 0; w < words; w++)
        if (m[w]) return false;
    return true;
}

/* Can a tick move a flit: some output with room is held by a connection or requested. */
static bool can_move(const struct xbar *x) {
    for (uint32_t w = 0; w < x->w_out; w++)
        if ((x->out_locked[w] | x->out_wanted[w]) & ~x->out_full[w]) return true;
    return false;
}

/* Outputs held by a connection whose queue has no room for its next flit. */
static uint64_t held_full(const struct xbar *x) {
    uint64_t n = 0;
    for (uint32_t w = 0; w < x->w_out; w++)
        n += (uint64_t)ws_popcount64(x->out_locked[w] & x->out_full[w]);
    return n;
}

static void req_add(struct xbar *x, uint32_t i, uint32_t o) {
    bit_set(x->req + (size_t)o * x->w_in, i);
    bit_set(x->out_wanted, o);
}

static void req_del(struct xbar *x, uint32_t i, uint32_t o) {
    uint64_t *r = x->req + (size_t)o * x->w_in;
    bit_clr(r, i);
    if (row_empty(r, x->w_in)) bit_clr(x->out_wanted, o);
}

/* An unlocked input requests its FIFO's head output or all its non-empty VOQs. */
static void reqs_all(struct xbar *x, uint32_t i, bool add) {
    if (x->nq == 1) {
        if (x->in_want[i] == NIL) return;
        if (add)
            req_add(x, i, x->in_want[i]);
        else
            req_del(x, i, x->in_want[i]);
        return;
    }
    const uint64_t *vm = x->voq_mask + (size_t)i * x->w_out;
    for (uint32_t v = 0; v < x->w_out; v++) {
        for (uint64_t m = vm[v]; m; m &= m - 1) {
            if (add)
                req_add(x, i, v * 64 + ctz(m));
            else
                req_del(x, i, v * 64 + ctz(m));
        }
    }
}

struct xbar *xbar_create(const struct xbar_cfg *xc, uint32_t n_in, uint32_t n_out, const char *name,
                         struct ws_err *e) {
    if (n_in < 1 || n_in > PORT_MAX || n_out < 1 || n_out > PORT_MAX) {
        ws_fail(e, "xbar %s: %u inputs x %u outputs (each must be 1 .. %u)", name, n_in, n_out,
                PORT_MAX);
        return NULL;
    }
    if (xc->flit < 1 || xc->flit > 4096 || xc->latency < 0 || xc->in_q < 1 || xc->in_q > Q_MAX ||
        xc->out_q < 1 || xc->out_q > Q_MAX || (xc->alloc != XBAR_RR && xc->alloc != XBAR_ISLIP) ||
        xc->iters < 1) {
        ws_fail(e,
                "xbar %s: bad configuration (flit %lld, latency %lld, in_q %lld, out_q %lld, "
                "alloc %d, iters %lld)",
                name, (long long)xc->flit, (long long)xc->latency, (long long)xc->in_q,
                (long long)xc->out_q, xc->alloc, (long long)xc->iters);
        return NULL;
    }
    struct xbar *x = calloc(1, sizeof *x);
    if (!x) goto oom;
    x->cfg = *xc;
    snprintf(x->name, sizeof x->name, "%s", name);
    x->n_in = n_in;
    x->n_out = n_out;
    x->nq = xc->voq ? n_out : 1;
    x->w_in = (n_in + 63) / 64;
    x->w_out = (n_out + 63) / 64;
    x->in_q = (uint32_t)xc->in_q;
    x->out_q = (uint32_t)xc->out_q;
    x->flit = (uint32_t)xc->flit;
    x->flit_shift = 32;
    for (uint32_t k = 0; k < 13; k++)
        if (x->flit == 1u << k) x->flit_shift = k;
    x->lat = (uint64_t)xc->latency;
    x->islip = xc->alloc == XBAR_ISLIP;
    x->iters = x->islip ? (uint32_t)xc->iters : 1;

    /* every packet holds at least one flit of its input or output queue */
    size_t nslots = (size_t)n_in * x->in_q + (size_t)n_out * x->out_q;
    size_t nq = (size_t)n_in * x->nq;
    x->ev_cap = n_out * x->out_q;
    x->slot = calloc(nslots, sizeof *x->slot);
    x->qhead = malloc(nq * sizeof *x->qhead);
    x->qtail = malloc(nq * sizeof *x->qtail);
    x->voq_mask = calloc((size_t)n_in * x->w_out, sizeof *x->voq_mask);
    x->in_used = calloc(n_in, sizeof *x->in_used);
    x->in_lock = malloc(n_in * sizeof *x->in_lock);
    x->in_cur = malloc(n_in * sizeof *x->in_cur);
    x->in_left = calloc(n_in, sizeof *x->in_left);
    x->in_want = malloc(n_in * sizeof *x->in_want);
    x->aptr = calloc(n_in, sizeof *x->aptr);
    x->out_used = calloc(n_out, sizeof *x->out_used);
    x->out_lock = malloc(n_out * sizeof *x->out_lock);
    x->gptr = calloc(n_out, sizeof *x->gptr);
    x->out_head = malloc(n_out * sizeof *x->out_head);
    x->out_tail = malloc(n_out * sizeof *x->out_tail);
    x->out_ndone = calloc(n_out, sizeof *x->out_ndone);
    x->out_locked = calloc(x->w_out, sizeof(uint64_t));
    x->out_full = calloc(x->w_out, sizeof(uint64_t));
    x->out_ready = calloc(x->w_out, sizeof(uint64_t));
    x->out_wanted = calloc(x->w_out, sizeof(uint64_t));
    x->req = calloc((size_t)n_out * x->w_in, sizeof *x->req);
    x->in_freed = calloc(x->w_in, sizeof(uint64_t));
    x->grant = calloc((size_t)n_in * x->w_out, sizeof *x->grant);
    x->grant_ins = malloc(n_in * sizeof *x->grant_ins);
    x->ev = malloc(x->ev_cap * sizeof *x->ev);
    if (!x->slot || !x->qhead || !x->qtail || !x->voq_mask || !x->in_used || !x->in_lock ||
        !x->in_cur || !x->in_left || !x->in_want || !x->aptr || !x->out_used || !x->out_lock ||
        !x->gptr || !x->out_head || !x->out_tail || !x->out_ndone || !x->out_locked ||
        !x->out_full || !x->out_ready || !x->out_wanted || !x->req || !x->grant || !x->grant_ins ||
        !x->ev || !x->in_freed) {
        xbar_destroy(x);
        goto oom;
    }
    for (size_t i = 0; i < nslots; i++) x->slot[i].next = i + 1 < nslots ? (uint32_t)(i + 1) : NIL;
    x->free_slot = 0;
    for (size_t i = 0; i < nq; i++) x->qhead[i] = x->qtail[i] = NIL;
    for (uint32_t i = 0; i < n_in; i++) x->in_lock[i] = x->in_cur[i] = x->in_want[i] = NIL;
    for (uint32_t o = 0; o < n_out; o++) x->out_lock[o] = x->out_head[o] = x->out_tail[o] = NIL;
    return x;
oom:
    ws_fail(e, "xbar %s: out of memory for %u x %u ports", name, n_in, n_out);
    return NULL;
}

void xbar_destroy(struct xbar *x) {
    if (!x) return;
    free(x->slot);
    free(x->qhead);
    free(x->qtail);
    free(x->voq_mask);
    free(x->in_used);
    free(x->in_lock);
    free(x->in_cur);
    free(x->in_left);
    free(x->in_want);
    free(x->aptr);
    free(x->out_used);
    free(x->out_lock);
    free(x->gptr);
    free(x->out_head);
    free(x->out_tail);
    free(x->out_ndone);
    free(x->out_locked);
    free(x->out_full);
    free(x->out_ready);
    free(x->out_wanted);
    free(x->req);
    free(x->in_freed);
    free(x->grant);
    free(x->grant_ins);
    free(x->ev);
    free(x);
}

uint32_t xbar_flits(const struct xbar *x, uint32_t bytes) {
    /* a header-only packet still occupies one flit */
    if (bytes == 0) return 1;
    if (x->flit_shift < 32) return (uint32_t)(((uint64_t)bytes + x->flit - 1) >> x->flit_shift);
    return (uint32_t)(((uint64_t)bytes + x->flit - 1) / x->flit);
}

bool xbar_can_push(struct xbar *x, uint32_t in, uint32_t bytes) {
    WS_ASSERT(in < x->n_in, "xbar %s: input %u of %u", x->name, in, x->n_in);
    if (x->in_used[in] + xbar_flits(x, bytes) <= x->in_q) return true;
    x->st.push_stalls++;
    return false;
}

void xbar_note_stalls(struct xbar *x, uint64_t n) {
    x->st.push_stalls += n;
}

void xbar_take_freed(struct xbar *x, uint64_t *out) {
    for (uint32_t w = 0; w < x->w_in; w++) {
        out[w] = x->in_freed[w];
        x->in_freed[w] = 0;
    }
}

void xbar_push(struct xbar *x, uint32_t in, uint32_t out, void *pkt, uint32_t bytes, uint64_t now) {
    uint32_t n = xbar_flits(x, bytes);
    WS_ASSERT(in < x->n_in && out < x->n_out, "xbar %s: push %u -> %u of %u x %u", x->name, in, out,
              x->n_in, x->n_out);
    WS_ASSERT(x->in_used[in] + n <= x->in_q, "xbar %s: push to full input %u", x->name, in);
    uint32_t s = x->free_slot;
    WS_ASSERT(s != NIL, "xbar %s: slot pool exhausted", x->name);
    x->free_slot = x->slot[s].next;
    x->slot[s] = (struct slot){pkt, now, bytes, n, out, NIL};

    size_t q = (size_t)in * x->nq + (x->nq > 1 ? out : 0);
    if (x->qhead[q] == NIL) {
        /* a new head: the input requests its output (unless it is busy sending) */
        x->qhead[q] = s;
        if (x->nq == 1)
            x->in_want[in] = out;
        else
            bit_set(x->voq_mask + (size_t)in * x->w_out, out);
        if (x->in_lock[in] == NIL) req_add(x, in, out);
    } else {
        x->slot[x->qtail[q]].next = s;
    }
    x->qtail[q] = s;
    x->in_used[in] += n;
    x->in_pkts++;
    x->pkts++;
    if (now > x->wake_floor) x->wake_floor = now;
}

static void match(struct xbar *x, uint32_t i, uint32_t o) {
    reqs_all(x, i, false); /* a connected input requests nothing */
    size_t q = (size_t)i * x->nq + (x->nq > 1 ? o : 0);
    uint32_t s = x->qhead[q];
    uint32_t nx = x->slot[s].next;
    x->qhead[q] = nx;
    if (nx == NIL) {
        x->qtail[q] = NIL;
        if (x->nq > 1) bit_clr(x->voq_mask + (size_t)i * x->w_out, o);
    }
    if (x->nq == 1) x->in_want[i] = nx == NIL ? NIL : x->slot[nx].out;
    x->in_lock[i] = o;
    x->in_cur[i] = s;
    x->in_left[i] = x->slot[s].nflits;
    x->out_lock[o] = i;
    bit_set(x->out_locked, o);
    /* the packet joins its output FIFO now: its flits arrive contiguously, in grant order */
    x->slot[s].next = NIL;
    if (x->out_head[o] == NIL)
        x->out_head[o] = s;
    else
        x->slot[x->out_tail[o]].next = s;
    x->out_tail[o] = s;
}

/* One request-grant-accept round between unlocked inputs and free outputs with room; false when
 * no output could grant. */
static bool alloc_round(struct xbar *x, uint32_t iter) {
    uint32_t ngrant = 0;
    bool any = false;
    for (uint32_t v = 0; v < x->w_out; v++) {
        uint64_t m = x->out_wanted[v] & ~x->out_locked[v] & ~x->out_full[v];
        for (; m; m &= m - 1) {
            uint32_t o = v * 64 + ctz(m);
            uint32_t i = rr_first(x->req + (size_t)o * x->w_in, x->w_in, x->gptr[o]);
            uint64_t *g = x->grant + (size_t)i * x->w_out;
            if (row_empty(g, x->w_out)) x->grant_ins[ngrant++] = i;
            bit_set(g, o);
            any = true;
            /* rr: the pointer moves past every grant, accepted or not */
            if (!x->islip) x->gptr[o] = next_port(i, x->n_in);
        }
    }
    for (uint32_t k = 0; k < ngrant; k++) {
        uint32_t i = x->grant_ins[k];
        uint64_t *g = x->grant + (size_t)i * x->w_out;
        uint32_t o = rr_first(g, x->w_out, x->aptr[i]);
        memset(g, 0, x->w_out * sizeof *g);
        match(x, i, o);
        /* iSLIP moves pointers only on accepted first-iteration grants: this desynchronises
         * the outputs' pointers, which is what gives it full throughput under uniform load */
        if (!x->islip || iter == 0) {
            x->aptr[i] = next_port(o, x->n_out);
            if (x->islip) x->gptr[o] = next_port(i, x->n_in);
        }
    }
    return any;
}

static void finish_crossing(struct xbar *x, uint32_t i, uint32_t o, uint64_t now) {
    WS_ASSERT(x->ev_n < x->ev_cap, "xbar %s: completion ring overflow", x->name);
    uint32_t t = x->ev_head + x->ev_n;
    if (t >= x->ev_cap) t -= x->ev_cap;
    x->ev[t] = (struct done_ev){now + x->lat, o};
    x->ev_n++;
    x->in_lock[i] = NIL;
    x->in_cur[i] = NIL;
    x->out_lock[o] = NIL;
    bit_clr(x->out_locked, o);
    x->in_pkts--;
    reqs_all(x, i, true); /* free again: the input requests what it still holds */
}

void xbar_tick(struct xbar *x, uint64_t now) {
    WS_ASSERT(!x->ticked || now > x->last_tick, "xbar %s: tick %llu after %llu", x->name,
              (unsigned long long)now, (unsigned long long)x->last_tick);
    /* Cycles the loop skipped (nothing could move) each saw the same held, full outputs; a pop
     * that emptied one settled its own share (xbar_pop). */
    if (x->ticked && now > x->last_tick + 1)
        x->st.out_blocked += (now - x->last_tick - 1) * held_full(x);
    x->ticked = true;
    x->last_tick = now;
    x->st.cycles = now + 1;
    if (!x->in_pkts && !x->ev_n) return;

    if (x->in_pkts) {
        /* allocation first: ports connected at the start of the cycle keep their connection */
        for (uint32_t it = 0; it < x->iters && alloc_round(x, it); it++) continue;
        /* every connection whose output has room moves one flit */
        for (uint32_t v = 0; v < x->w_out; v++) {
            uint64_t held = x->out_locked[v];
            x->st.out_blocked += (uint64_t)ws_popcount64(held & x->out_full[v]);
            for (uint64_t m = held & ~x->out_full[v]; m; m &= m - 1) {
                uint32_t o = v * 64 + ctz(m);
                uint32_t i = x->out_lock[o];
                if (++x->out_used[o] == x->out_q) bit_set(x->out_full, o);
                x->in_used[i]--;
                x->in_freed[i >> 6] |= 1ull << (i & 63);
                if (--x->in_left[i] == 0) finish_crossing(x, i, o, now);
            }
        }
    }

    while (x->ev_n && x->ev[x->ev_head].at <= now) {
        uint32_t o = x->ev[x->ev_head].out;
        if (++x->ev_head == x->ev_cap) x->ev_head = 0;
        x->ev_n--;
        x->out_ndone[o]++;
        bit_set(x->out_ready, o);
    }
}

void *xbar_peek(const struct xbar *x, uint32_t out) {
    WS_ASSERT(out < x->n_out, "xbar %s: output %u of %u", x->name, out, x->n_out);
    return x->out_ndone[out] ? x->slot[x->out_head[out]].pkt : NULL;
}

void *xbar_pop(struct xbar *x, uint32_t out, uint64_t now) {
    WS_ASSERT(out < x->n_out, "xbar %s: output %u of %u", x->name, out, x->n_out);
    if (!x->out_ndone[out]) return NULL;
    uint32_t s = x->out_head[out];
    struct slot *p = &x->slot[s];
    x->out_head[out] = p->next;
    if (p->next == NIL) x->out_tail[out] = NIL;
    if (--x->out_ndone[out] == 0) bit_clr(x->out_ready, out);
    x->out_used[out] -= p->nflits;
    if (bit_get(x->out_full, out)) {
        /* A held output blocked the unvisited cycles since the last tick, this one included
         * (pops follow the tick of their cycle); xbar_tick counts only those still full. */
        if (bit_get(x->out_locked, out) && x->ticked) x->st.out_blocked += now - x->last_tick;
        bit_clr(x->out_full, out);
        /* room again where someone may be waiting: the next tick can move a flit */
        if (now > x->wake_floor) x->wake_floor = now;
    }
    x->st.packets++;
    x->st.flits += p->nflits;
    x->st.bytes += p->bytes;
    ws_hist_add(&x->st.lat, now >= p->t_push ? now - p->t_push : 0);
    void *pkt = p->pkt;
    p->next = x->free_slot;
    x->free_slot = s;
    x->pkts--;
    return pkt;
}

uint64_t xbar_next_event(const struct xbar *x) {
    uint64_t base = x->ticked ? x->last_tick + 1 : 0;
    uint64_t r = UINT64_MAX;
    if (x->in_pkts && can_move(x)) r = base > x->wake_floor ? base : x->wake_floor;
    if (x->ev_n) {
        uint64_t t = x->ev[x->ev_head].at;
        if (t < base) t = base;
        if (t < r) r = t;
    }
    return r;
}

int64_t xbar_ready_first(const struct xbar *x) {
    for (uint32_t w = 0; w < x->w_out; w++)
        if (x->out_ready[w]) return (int64_t)w * 64 + __builtin_ctzll(x->out_ready[w]);
    return -1;
}

const uint64_t *xbar_ready_bits(const struct xbar *x) {
    return x->out_ready;
}

int64_t xbar_ready_next(const struct xbar *x, uint32_t after) {
    uint32_t o = after + 1;
    if (o >= x->n_out) return -1;
    uint32_t w = o >> 6;
    uint64_t b = x->out_ready[w] & (~0ull << (o & 63));
    if (b) return (int64_t)w * 64 + __builtin_ctzll(b);
    for (w++; w < x->w_out; w++)
        if (x->out_ready[w]) return (int64_t)w * 64 + __builtin_ctzll(x->out_ready[w]);
    return -1;
}

bool xbar_idle(const struct xbar *x) {
    return x->pkts == 0;
}

void xbar_finish(struct xbar *x, uint64_t end) {
    if (x->ticked && end > x->last_tick + 1) {
        x->st.out_blocked += (end - x->last_tick - 1) * held_full(x);
        x->last_tick = end - 1; /* settled: a second finish adds nothing */
    }
    if (end > x->st.cycles) x->st.cycles = end; /* the run's cycles, ticked or not */
    x->st.flits_per_cycle = x->st.cycles ? (double)x->st.flits / (double)x->st.cycles : 0.0;
}

const struct xbar_stats *xbar_stats(const struct xbar *x) {
    return &x->st;
}

uint32_t xbar_in_flits(const struct xbar *x, uint32_t in) {
    WS_ASSERT(in < x->n_in, "xbar %s: input %u of %u", x->name, in, x->n_in);
    return x->in_used[in];
}

uint32_t xbar_out_flits(const struct xbar *x, uint32_t out) {
    WS_ASSERT(out < x->n_out, "xbar %s: output %u of %u", x->name, out, x->n_out);
    return x->out_used[out];
}

void xbar_dump(const struct xbar *x, FILE *out) {
    fprintf(out, "xbar %s: %llu packets (%llu not yet crossed), %u completing, last tick %llu\n",
            x->name, (unsigned long long)x->pkts, (unsigned long long)x->in_pkts, x->ev_n,
            (unsigned long long)x->last_tick);
    for (uint32_t i = 0; i < x->n_in; i++) {
        if (!x->in_used[i]) continue;
        fprintf(out, "  in %u: %u/%u flits", i, x->in_used[i], x->in_q);
        if (x->in_lock[i] != NIL)
            fprintf(out, ", sending to out %u (%u/%u flits crossed)", x->in_lock[i],
                    x->slot[x->in_cur[i]].nflits - x->in_left[i], x->slot[x->in_cur[i]].nflits);
        if (x->in_want[i] != NIL) fprintf(out, ", head for out %u", x->in_want[i]);
        fputc('\n', out);
    }
    for (uint32_t o = 0; o < x->n_out; o++) {
        if (!x->out_used[o] && x->out_lock[o] == NIL) continue;
        fprintf(out, "  out %u: %u/%u flits, %u packets ready", o, x->out_used[o], x->out_q,
                x->out_ndone[o]);
        if (x->out_lock[o] != NIL) fprintf(out, ", held by in %u", x->out_lock[o]);
        fputc('\n', out);
    }
}
