/* The standalone-mode cycle loop (see drive.h). */
#include "mem/drive/drive.h"

struct done_ctx {
    const struct drive_ops *ops;
    void *st;
    uint64_t last_data;
};

static void on_done(void *ctx, const struct mc_req *r) {
    struct done_ctx *d = ctx;
    if (r->r.ts[MEM_TS_DATA] > d->last_data) d->last_data = r->r.ts[MEM_TS_DATA];
    d->ops->on_done(d->st, r);
}

int drive_run(const struct drive_ops *ops, void *st, struct memsys *ms, bool lockstep,
              struct drive_result *res, struct ws_err *e) {
    struct done_ctx d = {ops, st, 0};
    memsys_set_done_cb(ms, on_done, &d);
    uint64_t now = 0, visited = 0;
    bool flushed = false;
    for (;;) {
        visited++;
        if (ops->inject(st, ms, now, e) != 0) return -1;
        if (!flushed && ops->exhausted(st)) {
            memsys_flush(ms, now);
            flushed = true;
        }
        if (memsys_tick(ms, now, e) != 0) return -1;
        if (ops->finished(st) && memsys_idle(ms)) break;
        uint64_t a = ops->next_event(st, now), b = memsys_next_event(ms);
        uint64_t next = a < b ? a : b;
        if (next == DRAM_NEVER)
            return ws_fail(e, "%s: no progress at DRAM cycle %llu (requests stuck)", ops->name,
                           (unsigned long long)now);
        now = next > now && !lockstep ? next : now + 1;
    }
    /* the run covers the last visited cycle and the last data beat: a request's data time is
     * the end of its burst (the burst of a read done at 38 occupies cycles 34-37) */
    uint64_t end = now + 1;
    if (d.last_data > end) end = d.last_data;
    res->end_cycle = end;
    res->visited_cycles = visited;
    return memsys_finish(ms, end, e);
}
