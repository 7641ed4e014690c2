/* DRAM memory system (see memsys.h): channels, address map, checker and power observers. */
#include "mem/memsys.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/dram/checker.h"
#include "mem/dram/power.h"
#include "mem/mc/policy.h"
#include "mem/mc/warp_table.h"
#include "mem/upstream.h"

struct memsys {
    struct dram_spec spec;
    struct addr_map map;
    struct mc_cfg mcfg;
    struct mc **mc;
    uint32_t nch;
    struct dram_checker *checker;
    struct dram_power *power;
    struct memsys_summary sum;
    struct mc_shared sh;         /* shared by the controllers: warp table, upstream counts */
    const struct mc_policy *pol; /* the controllers' policy */
    void *pol_sum;               /* its counters summed over channels (memsys_finish) */
    uint64_t next;               /* min of the controllers' mc_next_event() */
};

#define SD(f, kind, unit, doc)                                                                     \
    { #f, kind, offsetof(struct memsys_summary, f), unit, doc }
const struct stat_desc memsys_summary_desc[] = {
    SD(cycles, STAT_COUNTER, "tCK", "DRAM command-clock cycles simulated"),
    SD(reads, STAT_COUNTER, "req", "reads served by DRAM column commands, all channels"),
    SD(writes, STAT_COUNTER, "req", "writes served by DRAM column commands, all channels"),
    SD(reads_forwarded, STAT_COUNTER, "req", "reads served from a queued write"),
    SD(writes_merged, STAT_COUNTER, "req", "writes merged into a queued write"),
    SD(row_hits, STAT_COUNTER, "req", "column accesses needing no ACT or PRE of their own"),
    SD(row_misses, STAT_COUNTER, "req", "column accesses that first activated a closed bank"),
    SD(row_conflicts, STAT_COUNTER, "req", "column accesses that first precharged another row"),
    SD(avg_read_lat, STAT_REAL, "tCK", "mean read latency, controller arrival to last data beat"),
    SD(avg_write_lat, STAT_REAL, "tCK", "mean write latency, controller arrival to last data beat"),
    SD(avg_read_lat_ns, STAT_REAL, "ns", "mean read latency in nanoseconds"),
    SD(row_hit_rate, STAT_REAL, "", "row_hits / (reads + writes)"),
    SD(bw_gbs, STAT_REAL, "GB/s", "bytes moved by column commands / simulated time (1e9 B/s)"),
    SD(peak_bw_gbs, STAT_REAL, "GB/s",
       "theoretical peak: channels x burst bytes x pseudo-channels / (nBL x tCK)"),
    SD(bw_share, STAT_REAL, "", "bw_gbs / peak_bw_gbs"),
    SD(data_bus_util, STAT_REAL, "", "busy data-bus cycles / (cycles x data buses)"),
    SD(energy_nj, STAT_REAL, "nJ", "DRAM energy, all ranks (power model)"),
    SD(power_mw, STAT_REAL, "mW", "DRAM average power = energy / simulated time"),
    SD(edp_njs, STAT_REAL, "nJ*s", "DRAM energy-delay product = energy_nj x seconds"),
    SD(seconds, STAT_REAL, "s", "simulated time = cycles x tCK"),
    SD(commands_checked, STAT_COUNTER, "cmd",
       "commands replayed by the protocol checker (0 = off)"),
};
const unsigned memsys_summary_ndesc = CFG_COUNT(memsys_summary_desc);

static int obs_checker(void *ctx, const struct dram_cmd_rec *rec, struct ws_err *e) {
    return dram_checker_observe(ctx, rec, e);
}

struct memsys *memsys_create(struct cfg *c, struct ws_err *e) {
    struct memsys *ms = calloc(1, sizeof *ms);
    if (!ms) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    if (dram_spec_configure(&ms->spec, c, e) != 0 ||
        addr_map_configure(&ms->map, &ms->spec, c, e) != 0 ||
        mc_cfg_configure(&ms->mcfg, c, e) != 0)
        goto fail;
    ms->nch = (uint32_t)ms->spec.channels;
    ms->mc = calloc(ms->nch, sizeof *ms->mc);
    if (!ms->mc) {
        ws_fail(e, "out of memory");
        goto fail;
    }
    ms->power = dram_power_create(&ms->spec, e);
    if (!ms->power) goto fail;
    if (ms->mcfg.check) {
        ms->checker = dram_checker_create(&ms->spec, e);
        if (!ms->checker) goto fail;
    }
    ms->pol = mc_policy_find(ms->mcfg.policy);
    if (ms->pol && ms->pol->warp_table && !(ms->sh.wt = warp_table_create(c, e))) goto fail;
    if (!(ms->sh.up = upstream_create())) {
        ws_fail(e, "out of memory");
        goto fail;
    }
    if (ms->pol && ms->pol->stats && !(ms->pol_sum = calloc(1, ms->pol->stat_size))) {
        ws_fail(e, "out of memory");
        goto fail;
    }
    for (uint32_t ch = 0; ch < ms->nch; ch++) {
        ms->mc[ch] = mc_create(&ms->spec, &ms->mcfg, ch, &ms->sh, c, e);
        if (!ms->mc[ch]) goto fail;
        if (ms->checker) mc_add_cmd_observer(ms->mc[ch], obs_checker, ms->checker);
        mc_set_power(ms->mc[ch], ms->power);
    }
    return ms;
fail:
    memsys_destroy(ms);
    return NULL;
}

void memsys_destroy(struct memsys *ms) {
    if (!ms) return;
    if (ms->mc)
        for (uint32_t ch = 0; ch < ms->nch; ch++) mc_destroy(ms->mc[ch]);
    free(ms->mc);
    if (ms->checker) dram_checker_destroy(ms->checker);
    if (ms->power) dram_power_destroy(ms->power);
    warp_table_destroy(ms->sh.wt);
    upstream_destroy(ms->sh.up);
    free(ms->pol_sum);
    free(ms);
}

const struct dram_spec *memsys_spec(const struct memsys *ms) {
    return &ms->spec;
}
const struct addr_map *memsys_map(const struct memsys *ms) {
    return &ms->map;
}
const struct mc_cfg *memsys_mc_cfg(const struct memsys *ms) {
    return &ms->mcfg;
}
uint32_t memsys_nchannels(const struct memsys *ms) {
    return ms->nch;
}
struct mc *memsys_mc(struct memsys *ms, uint32_t ch) {
    return ms->mc[ch];
}

const struct warp_table *memsys_warp_table(const struct memsys *ms) {
    return ms->sh.wt;
}
struct upstream *memsys_upstream(struct memsys *ms) {
    return ms->sh.up_used ? ms->sh.up : NULL;
}

void memsys_set_done_cb(struct memsys *ms, mc_done_fn fn, void *ctx) {
    for (uint32_t ch = 0; ch < ms->nch; ch++) mc_set_done_cb(ms->mc[ch], fn, ctx);
}

void memsys_add_cmd_observer(struct memsys *ms, mc_cmd_fn fn, void *ctx) {
    for (uint32_t ch = 0; ch < ms->nch; ch++) mc_add_cmd_observer(ms->mc[ch], fn, ctx);
}

bool memsys_can_accept(const struct memsys *ms, uint64_t addr, bool is_write) {
    struct dram_addr a;
    addr_map_decode(&ms->map, addr, &a);
    return mc_can_accept(ms->mc[a.ch], is_write);
}

/* ms->next is kept as the min of the controllers' wake cycles: a tick recomputes it in the same
 * pass over the channels, and an enqueue (which wakes its controller at `now`) lowers it. */
void memsys_enqueue_decoded(struct memsys *ms, const struct mem_req *r, const struct dram_addr *da,
                            uint64_t now) {
    mc_enqueue(ms->mc[da->ch], r, da, now);
    if (mc_next_event(ms->mc[da->ch]) < ms->next) ms->next = mc_next_event(ms->mc[da->ch]);
}

void memsys_enqueue(struct memsys *ms, const struct mem_req *r, uint64_t now) {
    struct dram_addr a;
    addr_map_decode(&ms->map, r->addr, &a);
    memsys_enqueue_decoded(ms, r, &a, now);
}

int memsys_tick(struct memsys *ms, uint64_t now, struct ws_err *e) {
    uint64_t t = DRAM_NEVER;
    for (uint32_t ch = 0; ch < ms->nch; ch++) {
        struct mc *m = ms->mc[ch];
        uint64_t x = mc_next_event(m);
        /* a controller asleep until later is not called (mc_tick would return at once: its
         * prologue alone costs more than this test, for every idle channel of a GPU) */
        if (x <= now) {
            if (mc_tick(m, now, e) != 0) return -1;
            x = mc_next_event(m);
        }
        if (x < t) t = x;
    }
    ms->next = t;
    return 0;
}

uint64_t memsys_next_event(const struct memsys *ms) {
    return ms->next;
}

void memsys_flush(struct memsys *ms, uint64_t now) {
    for (uint32_t ch = 0; ch < ms->nch; ch++) {
        mc_flush(ms->mc[ch], now);
        uint64_t x = mc_next_event(ms->mc[ch]);
        if (x < ms->next) ms->next = x;
    }
}

bool memsys_idle(const struct memsys *ms) {
    for (uint32_t ch = 0; ch < ms->nch; ch++)
        if (!mc_idle(ms->mc[ch])) return false;
    return true;
}

int memsys_finish(struct memsys *ms, uint64_t end, struct ws_err *e) {
    struct memsys_summary *s = &ms->sum;
    memset(s, 0, sizeof *s);
    uint64_t busy = 0, rd_lat = 0, wr_lat = 0;
    for (uint32_t ch = 0; ch < ms->nch; ch++) {
        mc_finish(ms->mc[ch], end);
        const struct mc_stats *m = mc_stats(ms->mc[ch]);
        s->reads += m->reads;
        s->writes += m->writes;
        s->reads_forwarded += m->reads_forwarded;
        s->writes_merged += m->writes_merged;
        s->row_hits += m->rd_hit + m->wr_hit;
        s->row_misses += m->rd_miss + m->wr_miss;
        s->row_conflicts += m->rd_conflict + m->wr_conflict;
        busy += m->data_busy;
        rd_lat += m->rd_lat.sum;
        wr_lat += m->wr_lat.sum;
    }
    if (ms->pol_sum) {
        memset(ms->pol_sum, 0, ms->pol->stat_size);
        for (uint32_t ch = 0; ch < ms->nch; ch++) {
            const char *src = mc_policy_stats(ms->mc[ch]);
            for (unsigned i = 0; i < ms->pol->nstat; i++) {
                size_t off = ms->pol->stat_desc[i].offset;
                uint64_t a, b;
                memcpy(&a, (char *)ms->pol_sum + off, sizeof a);
                memcpy(&b, src + off, sizeof b);
                a += b;
                memcpy((char *)ms->pol_sum + off, &a, sizeof a);
            }
        }
    }
    if (ms->checker) {
        if (dram_checker_finish(ms->checker, end, e) != 0) return -1;
        s->commands_checked = dram_checker_ncommands(ms->checker);
    }
    dram_power_finish(ms->power, end);
    struct dram_energy en;
    dram_power_totals(ms->power, &en);
    const struct dram_spec *sp = &ms->spec;
    s->cycles = end;
    s->seconds = (double)end * (double)sp->tCK_ps * 1e-12;
    uint64_t col = s->reads + s->writes;
    s->avg_read_lat = s->reads ? (double)rd_lat / (double)s->reads : 0;
    s->avg_write_lat = s->writes ? (double)wr_lat / (double)s->writes : 0;
    s->avg_read_lat_ns = s->avg_read_lat * (double)sp->tCK_ps / 1000.0;
    s->row_hit_rate = col ? (double)s->row_hits / (double)col : 0;
    s->peak_bw_gbs = dram_peak_bw_channel(sp) * (double)ms->nch / 1e9;
    s->bw_gbs = s->seconds > 0 ? (double)col * (double)dram_access_bytes(sp) / s->seconds / 1e9 : 0;
    s->bw_share = s->peak_bw_gbs > 0 ? s->bw_gbs / s->peak_bw_gbs : 0;
    double buses = (double)ms->nch * (double)sp->pseudo_channels;
    s->data_bus_util = end ? (double)busy / ((double)end * buses) : 0;
    s->energy_nj = en.total_nj;
    s->power_mw = en.avg_power_mw;
    s->edp_njs = s->energy_nj * s->seconds;
    return 0;
}

const struct memsys_summary *memsys_summary(const struct memsys *ms) {
    return &ms->sum;
}

int memsys_register_stats(struct memsys *ms, struct stats_reg *reg, bool per_channel,
                          struct ws_err *e) {
    if (stats_register(reg, "dram", memsys_summary_desc, memsys_summary_ndesc, &ms->sum, e) != 0)
        return -1;
    if (dram_power_register_stats(ms->power, reg, e) != 0) return -1;
    if (ms->pol_sum &&
        stats_register(reg, "sched", ms->pol->stat_desc, ms->pol->nstat, ms->pol_sum, e) != 0)
        return -1;
    if (per_channel)
        for (uint32_t ch = 0; ch < ms->nch; ch++) {
            char name[32];
            snprintf(name, sizeof name, "mc.ch%u", ch);
            if (stats_register(reg, name, mc_stat_desc, mc_stat_ndesc, mc_stats(ms->mc[ch]), e) !=
                0)
                return -1;
        }
    return 0;
}
