/* Address-trace driver (see addrtrace_drive.h): one record is held ahead of the memory system;
 * it is offered when due and retried each visited cycle while its queue is full. */
#include "mem/drive/addrtrace_drive.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define SD(f, kind, unit, doc)                                                                     \
    { #f, kind, offsetof(struct addrtrace_stats, f), unit, doc }
const struct stat_desc addrtrace_stat_desc[] = {
    SD(requests, STAT_COUNTER, "req",
       "trace records offered to (and accepted by) the memory system"),
    SD(reads, STAT_COUNTER, "req", "read records offered"),
    SD(writes, STAT_COUNTER, "req", "write records offered"),
    SD(completed, STAT_COUNTER, "req", "requests completed, forwarded and merged ones included"),
    SD(read_lat_sum, STAT_COUNTER, "tCK",
       "sum over reads of controller arrival to last data beat (forwarded reads included)"),
    SD(avg_read_lat, STAT_REAL, "tCK", "read_lat_sum / reads"),
    SD(stall_cycles, STAT_COUNTER, "tCK",
       "cycles the oldest unsent record waited for space in its queue (it holds back the rest)"),
    SD(late_cycles, STAT_COUNTER, "tCK",
       "timed traces: sum over records of (cycle offered - cycle in the trace)"),
};
const unsigned addrtrace_stat_ndesc = CFG_COUNT(addrtrace_stat_desc);

struct addrtrace {
    struct memtrace *t;
    struct memsys *ms;
    uint32_t burst;
    bool have; /* rec holds the next record to offer */
    bool eof;
    bool timed;
    bool stalled; /* rec is due but its queue was full */
    uint64_t stall_since;
    struct memtrace_rec rec;
    struct addrtrace_stats st;
};

static int fetch(struct addrtrace *a, struct ws_err *e) {
    int rc = memtrace_next(a->t, &a->rec, e);
    if (rc < 0) return -1;
    a->have = rc == 1;
    a->eof = rc == 0;
    return 0;
}

struct addrtrace *addrtrace_create(const char *path, struct memsys *ms, struct ws_err *e) {
    struct addrtrace *a = calloc(1, sizeof *a);
    if (!a) {
        ws_fail(e, "out of memory");
        return NULL;
    }
    a->ms = ms;
    a->burst = (uint32_t)dram_access_bytes(memsys_spec(ms));
    a->t = memtrace_open(path, MEMTRACE_ADDR, e);
    if (!a->t || fetch(a, e) != 0) {
        addrtrace_destroy(a);
        return NULL;
    }
    if (a->eof) {
        ws_fail(e, "%s: trace has no records", path);
        addrtrace_destroy(a);
        return NULL;
    }
    a->timed = a->rec.has_cycle;
    return a;
}

void addrtrace_destroy(struct addrtrace *a) {
    if (!a) return;
    memtrace_close(a->t);
    free(a);
}

const struct addrtrace_stats *addrtrace_stats(const struct addrtrace *a) {
    return &a->st;
}
bool addrtrace_timed(const struct addrtrace *a) {
    return a->timed;
}

int addrtrace_register_stats(const struct addrtrace *a, struct stats_reg *reg, struct ws_err *e) {
    return stats_register(reg, "front", addrtrace_stat_desc, addrtrace_stat_ndesc, &a->st, e);
}

static int at_inject(void *st, struct memsys *ms, uint64_t now, struct ws_err *e) {
    struct addrtrace *a = st;
    struct mem_req r;
    memset(&r, 0, sizeof r);
    r.bytes = a->burst;
    r.ts[MEM_TS_ISSUE] = now;
    while (a->have) {
        if (a->rec.has_cycle && a->rec.cycle > now) break;
        if (!memsys_can_accept(ms, a->rec.addr, a->rec.is_write)) {
            /* Counted when it ends, so skipped cycles are charged too. */
            if (!a->stalled) a->stalled = true, a->stall_since = now;
            break;
        }
        if (a->stalled) {
            a->st.stall_cycles += now - a->stall_since;
            a->stalled = false;
        }
        if (a->rec.has_cycle) a->st.late_cycles += now - a->rec.cycle;
        r.addr = a->rec.addr;
        r.is_write = a->rec.is_write;
        r.tag = a->st.requests;
        a->st.requests++;
        a->rec.is_write ? a->st.writes++ : a->st.reads++;
        memsys_enqueue(ms, &r, now);
        if (fetch(a, e) != 0) return -1;
    }
    return 0;
}

static uint64_t at_next_event(void *st, uint64_t now) {
    struct addrtrace *a = st;
    if (!a->have) return DRAM_NEVER;
    if (a->rec.has_cycle && a->rec.cycle > now) return a->rec.cycle;
    /* Due but blocked: a controller event frees space; if the tick just did, retry next cycle. */
    return memsys_can_accept(a->ms, a->rec.addr, a->rec.is_write) ? now + 1 : DRAM_NEVER;
}

static bool at_exhausted(void *st) {
    const struct addrtrace *a = st;
    return a->eof && !a->have;
}

static bool at_finished(void *st) {
    struct addrtrace *a = st;
    bool done = at_exhausted(st) && a->st.completed == a->st.requests;
    if (done)
        a->st.avg_read_lat = a->st.reads ? (double)a->st.read_lat_sum / (double)a->st.reads : 0;
    return done;
}

static void at_on_done(void *st, const struct mc_req *r) {
    struct addrtrace *a = st;
    a->st.completed++;
    if (!r->is_write) a->st.read_lat_sum += r->r.ts[MEM_TS_DATA] - r->r.ts[MEM_TS_MC_ENQ];
}

const struct drive_ops addrtrace_ops = {
    .name = "address trace",
    .inject = at_inject,
    .next_event = at_next_event,
    .exhausted = at_exhausted,
    .finished = at_finished,
    .on_done = at_on_done,
};
