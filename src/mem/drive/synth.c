/* Synthetic request streams (see synth.h). Addresses are generated lazily, one request ahead. */
#include "mem/drive/synth.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"

static const char *const pattern_names[] = {"stream",       "random", "strided",
                                            "row-conflict", "mixed",  NULL};

#define OFF(f) offsetof(struct synth_cfg, f)
const struct cfg_key synth_keys[] = {
    {"synth.pattern", CFG_ENUM, OFF(pattern), "random", 0, 0, pattern_names, "",
     "synthetic address pattern"},
    {"synth.requests", CFG_INT, OFF(requests), "100000", 1, 1e12, NULL, "req",
     "number of requests to generate"},
    {"synth.read_share", CFG_DOUBLE, OFF(read_share), "0.8", 0, 1, NULL, "",
     "probability that a request is a read"},
    {"synth.footprint", CFG_INT, OFF(footprint), "1073741824", 4096, 1LL << 46, NULL, "B",
     "address range the pattern covers (1 GiB or a configuration file's value is cut to a smaller "
     "memory; a --footprint or --set beyond it is an error)"},
    {"synth.stride", CFG_INT, OFF(stride), "4096", 1, 1LL << 40, NULL, "B",
     "distance between consecutive requests (strided)"},
    {"synth.streams", CFG_INT, OFF(streams), "8", 1, 4096, NULL, "",
     "interleaved sequential streams (mixed)"},
    {"synth.window", CFG_INT, OFF(window), "256", 1, 1 << 20, NULL, "req",
     "generated requests that may wait per channel for queue space"},
    {"sim.seed", CFG_INT, OFF(seed), "1", 0, 9.2e18, NULL, "",
     "seed of every random choice (same seed, same result)"},
};
const unsigned synth_nkeys = CFG_COUNT(synth_keys);

/* The patterns that read each key, as a bit set over enum synth_pattern (all of them: 0x1f). */
static unsigned key_patterns(const char *key) {
    if (strcmp(key, "synth.stride") == 0) return 1u << SYN_STRIDED;
    if (strcmp(key, "synth.streams") == 0) return 1u << SYN_MIXED;
    if (strcmp(key, "synth.footprint") == 0) return 0x1fu & ~(1u << SYN_ROWCONFLICT);
    return 0x1fu;
}

int synth_configure(struct synth_cfg *sc, struct cfg *c, struct ws_err *e) {
    memset(sc, 0, sizeof *sc);
    if (cfg_bind(c, "synth", synth_keys, synth_nkeys, sc, e) != 0) return -1;
    sc->footprint_given = cfg_level(c, "synth.footprint") == 2;
    cfg_origin(c, "synth.footprint", sc->footprint_origin, sizeof sc->footprint_origin);
    for (unsigned k = 0; k < synth_nkeys; k++) {
        unsigned pats = key_patterns(synth_keys[k].name);
        if (pats >> sc->pattern & 1) continue;
        char why[200] = "read with synth.pattern =";
        for (unsigned p = 0; pattern_names[p]; p++)
            if (pats >> p & 1) {
                size_t n = strlen(why);
                snprintf(why + n, sizeof why - n, " %s", pattern_names[p]);
            }
        if (cfg_refuse_set(c, synth_keys[k].name, "synth.pattern", why, e) != 0) return -1;
    }
    return 0;
}

int synth_refuse_keys(struct cfg *c, const char *why, struct ws_err *e) {
    for (unsigned k = 0; k < synth_nkeys; k++)
        if (cfg_refuse_set(c, synth_keys[k].name, NULL, why, e) != 0) return -1;
    return 0;
}

#define SD(f, doc)                                                                                 \
    { #f, STAT_COUNTER, offsetof(struct synth_stats, f), "", doc }
const struct stat_desc synth_stat_desc[] = {
    SD(requests, "requests offered to the memory system"),
    SD(reads, "read requests offered"),
    SD(writes, "write requests offered"),
    SD(completed, "requests completed (including forwarded and merged)"),
    SD(stall_cycles, "channel-cycles in which a channel's next request waited for queue space"),
    SD(footprint, "bytes the addresses range over (synth.footprint, or the memory when smaller "
                  "and not given)"),
};
const unsigned synth_stat_ndesc = CFG_COUNT(synth_stat_desc);

struct synth {
    struct synth_cfg cfg;
    const struct addr_map *map;
    const struct dram_spec *spec;
    struct ws_rng rng;
    uint64_t burst, nbursts;
    uint64_t *stream_pos; /* mixed: next burst of each stream */
    uint64_t i;           /* requests generated */
    uint64_t seq_pos;     /* stream: i % nbursts, kept without a division per request */
    /* per-channel backlog rings of generated requests, decoded once when generated */
    struct pend {
        uint64_t addr, tag;
        struct dram_addr da;
        bool is_write;
    } * ring;
    uint32_t *rhead, *rlen, nch, win;
    /* per channel: the cycle its head request first found the queue full (NO_STALL: not
     * waiting); stall_cycles counts every cycle of the wait, visited or not */
    uint64_t *stall_since;
    uint64_t backlog;
    bool have; /* a generated request is held because its channel's backlog is full */
    struct pend held;
    uint32_t held_ch;
    struct synth_stats st;
};

#define NO_STALL UINT64_MAX

struct synth *synth_create(const struct synth_cfg *cfg, const struct memsys *ms, struct ws_err *e) {
    struct synth *s = calloc(1, sizeof *s);
    if (!s) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    s->map = memsys_map(ms);
    s->spec = memsys_spec(ms);
    /* the map ignores address bits above its capacity, so a larger footprint would fold onto
     * itself and measure a smaller one */
    uint64_t cap = s->map->total_bits >= 63 ? UINT64_MAX : 1ULL << s->map->total_bits;
    if ((uint64_t)cfg->footprint > cap && !cfg->footprint_given) s->cfg.footprint = (int64_t)cap;
    if ((uint64_t)s->cfg.footprint > cap) {
        free(s);
        ws_fail(e,
                "%s: synth.footprint = %lld B is larger than the memory's %llu B (its addresses "
                "would wrap)",
                cfg->footprint_origin, (long long)cfg->footprint, (unsigned long long)cap);
        return NULL;
    }
    s->burst = (uint64_t)dram_access_bytes(s->spec);
    s->st.footprint = (uint64_t)s->cfg.footprint;
    s->nbursts = s->st.footprint / s->burst;
    if (s->nbursts == 0) s->nbursts = 1;
    ws_rng_seed(&s->rng, (uint64_t)cfg->seed);
    s->stream_pos = calloc((size_t)cfg->streams, sizeof *s->stream_pos);
    if (!s->stream_pos) {
        free(s);
        ws_fail(e, "out of memory");
        return NULL;
    }
    s->nch = (uint32_t)s->spec->channels;
    s->win = (uint32_t)cfg->window;
    s->ring = calloc((size_t)s->nch * s->win, sizeof *s->ring);
    s->rhead = calloc(s->nch, sizeof *s->rhead);
    s->rlen = calloc(s->nch, sizeof *s->rlen);
    s->stall_since = malloc(s->nch * sizeof *s->stall_since);
    if (!s->ring || !s->rhead || !s->rlen || !s->stall_since) {
        synth_destroy(s);
        ws_fail(e, "out of memory");
        return NULL;
    }
    for (uint32_t c = 0; c < s->nch; c++) s->stall_since[c] = NO_STALL;
    /* mixed: streams start at random bursts so they land in different rows */
    for (int64_t k = 0; k < cfg->streams; k++) s->stream_pos[k] = ws_rng_below(&s->rng, s->nbursts);
    return s;
}

void synth_destroy(struct synth *s) {
    if (!s) return;
    free(s->ring);
    free(s->rhead);
    free(s->rlen);
    free(s->stall_since);
    free(s->stream_pos);
    free(s);
}

const struct synth_stats *synth_stats(const struct synth *s) {
    return &s->st;
}

static uint64_t next_addr(struct synth *s) {
    uint64_t i = s->i;
    switch (s->cfg.pattern) {
    case SYN_STREAM: {
        uint64_t b = s->seq_pos;
        if (++s->seq_pos == s->nbursts) s->seq_pos = 0;
        return b * s->burst;
    }
    case SYN_RANDOM:
        return ws_rng_below(&s->rng, s->nbursts) * s->burst;
    case SYN_STRIDED:
        return (i * (uint64_t)s->cfg.stride) % (s->nbursts * s->burst);
    case SYN_ROWCONFLICT: {
        /* channels round-robin; in each, bank 0 of rank 0, every request a new row (j-th:
         * rows 0, R/2, 1, R/2 + 1, ...), so that no two queued requests share a row or an
         * address (a few repeating addresses were forwarded and merged in the write queue) */
        struct dram_addr a = {0};
        uint64_t nch = (uint64_t)s->spec->channels, j = i / nch, half = (uint64_t)s->spec->rows / 2;
        a.ch = (uint32_t)(i % nch);
        a.row = (uint32_t)((j % 2 ? half : 0) + (j / 2) % (half ? half : 1));
        return addr_map_encode(s->map, &a);
    }
    case SYN_MIXED: {
        uint64_t k = ws_rng_below(&s->rng, (uint64_t)s->cfg.streams);
        uint64_t b = s->stream_pos[k];
        s->stream_pos[k] = b + 1 == s->nbursts ? 0 : b + 1;
        return b * s->burst;
    }
    }
    return 0;
}

static void generate(struct synth *s) {
    s->held.addr = next_addr(s);
    s->held.is_write = ws_rng_unit(&s->rng) >= s->cfg.read_share;
    s->held.tag = s->i++;
    addr_map_decode(s->map, s->held.addr, &s->held.da);
    s->held_ch = s->held.da.ch;
    s->have = true;
}

static int synth_inject(void *st, struct memsys *ms, uint64_t now, struct ws_err *e) {
    (void)e;
    struct synth *s = st;
    /* generate into the backlogs until one is full or the count is reached */
    for (;;) {
        if (!s->have) {
            if (s->i >= (uint64_t)s->cfg.requests) break;
            generate(s);
        }
        uint32_t c = s->held_ch;
        if (s->rlen[c] == s->win) break;
        uint32_t slot = s->rhead[c] + s->rlen[c]; /* < 2 * win */
        if (slot >= s->win) slot -= s->win;
        s->ring[(size_t)c * s->win + slot] = s->held;
        s->rlen[c]++;
        s->backlog++;
        s->have = false;
    }
    /* offer each channel's backlog in order */
    struct mem_req r;
    bool r_set = false; /* r is filled at the first request offered: most cycles offer none */
    for (uint32_t c = 0; c < s->nch; c++) {
        if (!s->rlen[c]) continue;
        /* the ring of channel c holds only requests to channel c: no decoding to find it */
        struct mc *mc = memsys_mc(ms, c);
        while (s->rlen[c]) {
            struct pend *p = &s->ring[(size_t)c * s->win + s->rhead[c]];
            if (!mc_can_accept(mc, p->is_write)) {
                if (s->stall_since[c] == NO_STALL) s->stall_since[c] = now;
                break;
            }
            if (s->stall_since[c] != NO_STALL) {
                s->st.stall_cycles += now - s->stall_since[c];
                s->stall_since[c] = NO_STALL;
            }
            if (!r_set) {
                memset(&r, 0, sizeof r);
                r.bytes = (uint32_t)s->burst;
                r.ts[MEM_TS_ISSUE] = now;
                r_set = true;
            }
            r.addr = p->addr;
            r.is_write = p->is_write;
            r.tag = p->tag;
            memsys_enqueue_decoded(ms, &r, &p->da, now);
            p->is_write ? s->st.writes++ : s->st.reads++;
            s->st.requests++;
            if (++s->rhead[c] == s->win) s->rhead[c] = 0;
            s->rlen[c]--;
            s->backlog--;
        }
    }
    return 0;
}

static uint64_t synth_next_event(void *st, uint64_t now) {
    const struct synth *s = st;
    /* Generation stops at a full backlog; if the offers then emptied it (forwarded or merged
     * requests leave no queue entry), the next cycle generates again, whoever else wakes. A
     * request stalled for queue space waits for a controller's command, and a controller that
     * issued is visited again the next cycle. */
    bool more = s->have ? s->rlen[s->held_ch] < s->win : s->i < (uint64_t)s->cfg.requests;
    return more ? now + 1 : DRAM_NEVER;
}

static bool synth_exhausted(void *st) {
    const struct synth *s = st;
    return s->i >= (uint64_t)s->cfg.requests && !s->have && !s->backlog;
}

static bool synth_finished(void *st) {
    const struct synth *s = st;
    return synth_exhausted(st) && s->st.completed == s->st.requests;
}

static void synth_on_done(void *st, const struct mc_req *r) {
    (void)r;
    ((struct synth *)st)->st.completed++;
}

const struct drive_ops synth_ops = {
    .name = "synthetic",
    .inject = synth_inject,
    .next_event = synth_next_event,
    .exhausted = synth_exhausted,
    .finished = synth_finished,
    .on_done = synth_on_done,
};
