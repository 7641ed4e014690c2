/* PageViewCount (pvc) on the Mars framework (mars.c): Mars sample_apps PageViewCount, main.cu,
 * map.cu (map_count, map), reduce.cu (reduce: see gen_reducer in mars.c), compare.cu (compare:
 * CMP_HASHSTR). Two MapReduce calls: MAP_REDUCE removes duplicate log lines, MAP_GROUP groups
 * the remaining entries by URL. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/kernels/mars.h"

/* PageViewCount map_count: the value's phase picks the emitted value size. */
static void pvc_count(struct kb *b) {
    E(KM_LDG(4, 6, KR(5), 4)); /* pVal->phase */
    E(KM_ISETP_(KM_EQ, 1, KR(6), KRZ));
    E(KM_MOV_(8, KI(16)));
    E(KM_SEL_(9, KI(8), KI(4), 1));
    gen_emit_count(b, 8, 9);
}

static void pvc_map(struct kb *b) {
    E(KM_LDG(8, 12, KR(4), 0));             /* file_buf */
    E(KM_LDG(4, 13, KR(4), 8));             /* entry_offset */
    E(KM_OP2(KM_IADD, 44, KR(12), KR(13))); /* entry */
    E(KM_LDG(4, 6, KR(5), 4));              /* phase */
    E(KM_ISETP_(KM_NE, 1, KR(6), KRZ));
    E(KM_BRA_IF(1, "phase1", "mend"));
    E(KM_LDG(4, 45, KR(5), 0)); /* entry_size */
    gen_hash(b);
    E(KM_STG(4, KR(4), 12, KR(43))); /* pKey->entry_hash */
    E(KM_MOV_(10, KR(4)));
    E(KM_MOV_(11, KR(5)));
    gen_emit(b, SPACE_GLOBAL, SPACE_GLOBAL, 16, 8);
    E(KM_BRA_("mend"));
    E(KM_LBL("phase1"));
    E(KM_MOV_(14, KR(44))); /* p */
    E(KM_MOV_(15, KI(1)));  /* url_size */
    E(KM_LBL("tab1"));
    E(KM_LDG_S(1, 16, KR(14), 0));
    E(KM_ISETP_(KM_EQ, 2, KR(16), KI('\t')));
    E(KM_BRA_IF(2, "tab1d", "tab1d"));
    E(KM_OP2(KM_IADD, 14, KR(14), KI(1)));
    E(KM_OP2(KM_IADD, 15, KR(15), KI(1)));
    E(KM_BRA_("tab1"));
    E(KM_LBL("tab1d"));
    E(KM_STG(1, KR(14), 0, KRZ));
    E(KM_OP2(KM_IADD, 17, KR(13), KR(15))); /* ip_offset */
    E(KM_LBL("tab2"));
    E(KM_LDG_S(1, 16, KR(14), 0));
    E(KM_ISETP_(KM_EQ, 2, KR(16), KI('\t')));
    E(KM_BRA_IF(2, "tab2d", "tab2d"));
    E(KM_OP2(KM_IADD, 14, KR(14), KI(1)));
    E(KM_BRA_("tab2"));
    E(KM_LBL("tab2d"));
    E(KM_STG(1, KR(14), 0, KRZ));
    gen_outbuf(b);
    E(KM_STS(4, KR(10), 0, KR(17))); /* *o_ipoffset */
    E(KM_MOV_(45, KR(15)));
    gen_hash(b);
    E(KM_STG(4, KR(4), 12, KR(43)));
    E(KM_MOV_(11, KR(10)));
    E(KM_MOV_(10, KR(4)));
    gen_emit(b, SPACE_GLOBAL, SPACE_SHARED, 16, 4);
    E(KM_LBL("mend"));
}

/* PVC input: a web log of `entries` lines "URL\tIP\tCookie", a tenth repeating an earlier line
 * exactly (the duplicates MapReduce 1 removes). */
static int pvc_input(struct mars *m, uint32_t entries, uint32_t urls, struct ws_rng *r,
                     struct ws_err *e) {
    struct textbuf t = {0};
    uint64_t *start = malloc((entries + 1) * sizeof *start);
    if (!start) return ws_fail(e, "mars: out of memory");
    for (uint32_t i = 0; i < entries; i++) {
        start[i] = t.n;
        bool ok;
        if (i > 0 && ws_rng_below(r, 10) == 0) {
            uint32_t j = (uint32_t)ws_rng_below(r, i);
            uint64_t len = start[j + 1] - start[j];
            ok = tb_add(&t, "%.*s", (int)len, t.s + start[j]);
        } else {
            double u = ws_rng_unit(r);
            ok = add_url(&t, (uint32_t)(urls * u * u)) &&
                 tb_add(&t, "\t%u.%u.%u.%u\t%llx\n", (unsigned)ws_rng_below(r, 223) + 1,
                        (unsigned)ws_rng_below(r, 256), (unsigned)ws_rng_below(r, 256),
                        (unsigned)ws_rng_below(r, 256),
                        (unsigned long long)(ws_rng_next(r) >> ws_rng_below(r, 40)));
        }
        if (!ok) return free(start), free(t.s), ws_fail(e, "mars: out of memory");
    }
    start[entries] = t.n;
    m->text[0] = t.s, m->text_len[0] = t.n, m->nfiles = 1;
    /* main.cu: fileSize = length + 1 with a '\n' at the end; the device copy gets '\0' for each
     * line's '\n' (the host cut the lines in place before the upload) */
    if (mars_dev(m, &m->d_file[0], t.n + 1, "d_filebuf", e)) return free(start), -1;
    char *d = mars_host(m, m->d_file[0], t.n + 1);
    memcpy(d, t.s, t.n);
    d[t.n] = '\n';
    for (uint64_t i = 0; i < t.n; i++)
        if (d[i] == '\n') d[i] = 0;
    km_copy_add(m->copies, &m->ncopies, MR_MAXCOPY, m->d_file[0], t.n + 1);
    if (data_alloc(&m->in, entries, 16ull * entries, 8ull * entries, e)) return free(start), -1;
    for (uint32_t i = 0; i < entries; i++) {
        int32_t off = (int32_t)start[i], sz = (int32_t)(start[i + 1] - start[i]), zero = 0;
        memcpy(m->in.keys + 16ull * i, &m->d_file[0], 8);
        memcpy(m->in.keys + 16ull * i + 8, &off, 4);
        memcpy(m->in.vals + 8ull * i, &sz, 4);
        memcpy(m->in.vals + 8ull * i + 4, &zero, 4);
        data_rec(&m->in, i, 16, 8);
    }
    free(start);
    return 0;
}

/* The host's own parse of the log: distinct lines, then one record per distinct line under its
 * URL. */
static int pvc_verify(struct mars *m, struct ws_err *e) {
    struct truth t = {0};
    int rc = 0;
    const char *txt = m->text[0];
    uint64_t len = m->text_len[0];
    uint32_t nl = 0;
    for (uint64_t i = 0; i < len; i++) nl += txt[i] == '\n';
    char **lines = malloc((nl + 1) * sizeof *lines);
    t.s = malloc((nl + 1) * sizeof *t.s);
    if (!lines || !t.s) return free(lines), free(t.s), ws_fail(e, "mars: out of memory");
    char *copy = malloc(len + 1);
    if (!copy) return free(lines), free(t.s), ws_fail(e, "mars: out of memory");
    memcpy(copy, txt, len), copy[len] = 0;
    uint32_t k = 0;
    for (char *p = copy, *q; (q = strchr(p, '\n')); p = q + 1) *q = 0, lines[k++] = p;
    qsort(lines, k, sizeof *lines, cmp_str);
    for (uint32_t i = 0; i < k; i++)
        if (i == 0 || strcmp(lines[i], lines[i - 1])) t.s[t.n++] = lines[i];
    for (uint32_t i = 0; i < t.n; i++) *strchr(t.s[i], '\t') = 0; /* the URL */
    rc = check_groups(m, &t, "pvc", 1, e);                        /* url_size counts the cut tab */
    free(copy), free(lines);
    free(t.s);
    return rc;
}

static const struct mars_app pvc_app = {"pvc", CMP_HASHSTR, true, pvc_count, pvc_map, pvc_verify};

struct pvc_cfg {
    int64_t entries, urls;
};
static const struct cfg_key pvc_keys[] = {
    {"workload.pvc.entries", CFG_INT, offsetof(struct pvc_cfg, entries), NULL, 16, 1 << 22, NULL,
     "lines", "web log entries (preset by workload.size: test 4096, paper 100000)"},
    {"workload.pvc.urls", CFG_INT, offsetof(struct pvc_cfg, urls), NULL, 1, 1 << 22, NULL, "",
     "distinct URLs the entries draw from (test 256, paper 10000)"},
};

struct workload *pvc_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct pvc_cfg pc = {.entries = paper ? 100000 : 4096, .urls = paper ? 10000 : 256};
    if (cfg_bind(c, "workload.pvc", pvc_keys, CFG_COUNT(pvc_keys), &pc, e)) return NULL;
    struct mars *m = mars_new(&pvc_app, e);
    if (!m) return NULL;
    struct ws_rng r;
    ws_rng_seed(&r, (uint64_t)wc->seed);
    if (pvc_input(m, (uint32_t)pc.entries, (uint32_t)pc.urls, &r, e)) {
        mars_destroy(&m->kw.base);
        return NULL;
    }
    return &m->kw.base;
}
