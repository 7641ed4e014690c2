/* PageViewRank (pvr) on the Mars framework (mars.c): Mars sample_apps PageViewRank, main.cu,
 * map.cu (map_count, map), compare.cu (compare: CMP_INT_DESC, counts descending); one MAP_GROUP
 * call. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/kernels/mars.h"

static void pvr_count(struct kb *b) {
    gen_const_count(b, 4, 4);
}

static void pvr_map(struct kb *b) {
    gen_outbuf(b);
    E(KM_LDG(4, 12, KR(4), 0));
    E(KM_LDG(4, 13, KR(5), 0));
    E(KM_STS(4, KR(10), 0, KR(12)));
    E(KM_STS(4, KR(10), 4, KR(13)));
    E(KM_OP2(KM_IADD, 11, KR(10), KI(4)));
    gen_emit(b, SPACE_SHARED, SPACE_SHARED, 4, 4);
}

/* PVR input: PVC's output format, "URL\tcount\n" per URL; key = count, value = line offset. */
static int pvr_input(struct mars *m, uint32_t urls, struct ws_rng *r, struct ws_err *e) {
    struct textbuf t = {0};
    if (data_alloc(&m->in, urls, 4ull * urls, 4ull * urls, e)) return -1;
    for (uint32_t i = 0; i < urls; i++) {
        int32_t off = (int32_t)t.n;
        double u = ws_rng_unit(r);
        int32_t cnt = 1 + (int32_t)(1.0 / (u * u + 0.0005)) % 2000; /* heavy-tailed */
        if (!add_url(&t, i) || !tb_add(&t, "\t%d\n", cnt))
            return free(t.s), ws_fail(e, "mars: out of memory");
        memcpy(m->in.keys + 4ull * i, &cnt, 4);
        memcpy(m->in.vals + 4ull * i, &off, 4);
        data_rec(&m->in, i, 4, 4);
    }
    /* PVR's main.cu keeps the file on the host (the value is only an offset) */
    m->text[0] = t.s, m->text_len[0] = t.n, m->nfiles = 1;
    return 0;
}

/* Record i: sorted by count descending, and an input record (count, line offset). */
static int pvr_rec(struct mars *m, uint32_t i, uint32_t *id, struct ws_err *e) {
    const uint8_t *k = out_key(m, i, NULL), *v = out_val(m, i);
    int32_t cnt, off;
    memcpy(&cnt, k, 4), memcpy(&off, v, 4);
    if (i) {
        int32_t prev;
        memcpy(&prev, out_key(m, i - 1, NULL), 4);
        if (prev < cnt) return ws_fail(e, "pvr: record %u out of order", i);
    }
    /* the record whose value is this line offset must carry this count */
    uint32_t lo = 0, hi = m->in.n;
    while (lo < hi) { /* offsets increase with the record number */
        uint32_t mid = (lo + hi) / 2;
        int32_t o;
        memcpy(&o, m->in.vals + 4ull * mid, 4);
        if (o < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    int32_t o = 0, c = 0;
    if (lo < m->in.n) memcpy(&o, m->in.vals + 4ull * lo, 4), memcpy(&c, m->in.keys + 4ull * lo, 4);
    if (lo >= m->in.n || o != off || c != cnt)
        return ws_fail(e, "pvr: record %u (%d, %d) is not an input", i, cnt, off);
    *id = lo;
    return 0;
}

static int pvr_verify(struct mars *m, struct ws_err *e) {
    if (mars_check_once(m, m->in.n, pvr_rec, e)) return -1;
    for (uint32_t g = 0; g < m->ngroups; g++) { /* a group = one key value */
        uint32_t b = (uint32_t)m->range[2 * g], en = (uint32_t)m->range[2 * g + 1];
        if (memcmp(out_key(m, b, NULL), out_key(m, en - 1, NULL), 4))
            return ws_fail(e, "pvr: group %u mixes counts", g);
    }
    return 0;
}

static const struct mars_app pvr_app = {"pvr", CMP_INT_DESC, false, pvr_count, pvr_map, pvr_verify};

struct pvr_cfg {
    int64_t urls;
};
static const struct cfg_key pvr_keys[] = {
    {"workload.pvr.urls", CFG_INT, offsetof(struct pvr_cfg, urls), NULL, 16, 1 << 22, NULL, "lines",
     "URL lines with view counts (preset by workload.size: test 4096, paper 100000)"},
};

struct workload *pvr_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct pvr_cfg pc = {.urls = paper ? 100000 : 4096};
    if (cfg_bind(c, "workload.pvr", pvr_keys, CFG_COUNT(pvr_keys), &pc, e)) return NULL;
    struct mars *m = mars_new(&pvr_app, e);
    if (!m) return NULL;
    struct ws_rng r;
    ws_rng_seed(&r, (uint64_t)wc->seed);
    if (pvr_input(m, (uint32_t)pc.urls, &r, e)) {
        mars_destroy(&m->kw.base);
        return NULL;
    }
    return &m->kw.base;
}
