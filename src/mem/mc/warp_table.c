/* Warp alias table and warp entry table (see warp_table.h). */
#include "mem/mc/warp_table.h"

#include <stddef.h>
#include <stdlib.h>

struct warp_table {
    struct warp_table_cfg cfg;
    uint32_t mask, max, span, ways;
    uint8_t *n;     /* n_pending per entry */
    uint16_t *mark; /* coordination marks: controllers whose current selection is the id */
};

#define OFF(f) offsetof(struct warp_table_cfg, f)
const struct cfg_key warp_table_keys[] = {
    {"mc.wet.entries", CFG_INT, OFF(entries), "1024", 1, 1 << 24, NULL, "entries",
     "warp entry table entries, a power of two (Warped-MC: 1024 = 32 SMs x 32 warps)"},
    {"mc.wet.bits", CFG_INT, OFF(bits), "6", 1, 8, NULL, "bits",
     "width of a WET entry's n_pending counter; it saturates (Warped-MC: 6)"},
    {"mc.wet.warps", CFG_INT, OFF(warps), "32", 1, 4096, NULL, "warps",
     "warp slots per SM in the warp alias table's id = SM x warps + slot"},
    {"mc.wet.pc_ways", CFG_INT, OFF(pc_ways), "1", 1, 64, NULL, "loads",
     "loads of one warp the alias table tells apart by hashed PC (1: a warp's loads share)"},
};
const unsigned warp_table_nkeys = CFG_COUNT(warp_table_keys);

struct warp_table *warp_table_create(struct cfg *c, struct ws_err *e) {
    struct warp_table *t = calloc(1, sizeof *t);
    if (!t) return ws_fail(e, "out of memory"), NULL;
    if (cfg_bind(c, "mc.wet", warp_table_keys, warp_table_nkeys, &t->cfg, e) != 0) {
        free(t);
        return NULL;
    }
    uint64_t n = (uint64_t)t->cfg.entries;
    if (n & (n - 1)) {
        char where[600];
        ws_fail(e, "%s: mc.wet.entries = %llu is not a power of two",
                cfg_origin(c, "mc.wet.entries", where, sizeof where), (unsigned long long)n);
        free(t);
        return NULL;
    }
    t->mask = (uint32_t)(n - 1);
    t->max = (1u << t->cfg.bits) - 1;
    t->span = (uint32_t)t->cfg.warps;
    t->ways = (uint32_t)t->cfg.pc_ways;
    t->n = calloc(n, 1);
    t->mark = calloc(n, sizeof *t->mark);
    if (!t->n || !t->mark) {
        free(t->n);
        free(t->mark);
        free(t);
        return ws_fail(e, "out of memory"), NULL;
    }
    return t;
}

void warp_table_destroy(struct warp_table *t) {
    if (!t) return;
    free(t->n);
    free(t->mark);
    free(t);
}

/* id = (SM x warps + slot) x pc_ways + hash(PC) mod pc_ways, modulo the table size: with the
 * paper's sizes (1,024 entries, 32 warps, pc_ways 1) a warp's loads in flight together share its
 * entry; pc_ways > 1 tells that many loads of one warp apart by their hashed PC. */
uint32_t warp_table_id(const struct warp_table *t, const struct mem_origin *o) {
    uint64_t warp = (uint64_t)o->sm * t->span + o->warp_slot;
    uint64_t h = (o->pc >> 2) * 0x9e3779b97f4a7c15ull;
    return (uint32_t)((warp * t->ways + (h >> 32) % t->ways) & t->mask);
}

uint32_t warp_table_inc(struct warp_table *t, uint32_t id) {
    if (t->n[id] < t->max) t->n[id]++;
    return t->n[id];
}

uint32_t warp_table_dec(struct warp_table *t, uint32_t id) {
    if (t->n[id] > 0) t->n[id]--;
    return t->n[id];
}

uint32_t warp_table_pending(const struct warp_table *t, uint32_t id) {
    return t->n[id];
}

void warp_table_mark(struct warp_table *t, uint32_t id) {
    t->mark[id]++;
}

void warp_table_unmark(struct warp_table *t, uint32_t id) {
    WS_ASSERT(t->mark[id] > 0, "warp table: unmarking id %u, which no controller marked", id);
    t->mark[id]--;
}

bool warp_table_marked(const struct warp_table *t, uint32_t id) {
    return t->mark[id];
}
