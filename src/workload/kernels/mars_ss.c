/* SimilarityScore (ss) on the Mars framework (mars.c): Mars sample_apps SimilarityScore,
 * main.cu, map.cu (map_count, map), compare.cu (compare: CMP_FLOAT_DESC, scores descending);
 * one MAP_GROUP call. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/kernels/mars.h"

static void ss_count(struct kb *b) {
    gen_const_count(b, 4, 8);
}

/* SimilarityScore map: up, doc1Down, doc2Down over float4 columns (each float4 as two 8-byte
 * loads); result = up / (sqrtf(d1) * sqrtf(d2)). dim is a multiple of 4 here, so the remainder
 * loop never runs and is left out. */
static void ss_map(struct kb *b) {
    E(KM_LDG(8, 12, KR(4), 0)); /* matrix */
    E(KM_LDG(4, 13, KR(5), 0)); /* doc1 */
    E(KM_LDG(4, 14, KR(5), 4)); /* doc2 */
    E(KM_LDG(4, 15, KR(5), 8)); /* dim */
    E(KM_OP2(KM_IMUL, 16, KR(13), KR(15)));
    E(KM_OP3(KM_IMAD, 16, KR(16), KI(4), KR(12))); /* a */
    E(KM_OP2(KM_IMUL, 17, KR(14), KR(15)));
    E(KM_OP3(KM_IMAD, 17, KR(17), KI(4), KR(12))); /* b */
    E(KM_MOV_(18, KF(0.0f)));                      /* up */
    E(KM_MOV_(19, KF(0.0f)));                      /* doc1Down */
    E(KM_MOV_(20, KF(0.0f)));                      /* doc2Down */
    E(KM_OP2(KM_SHR, 21, KR(15), KI(2)));          /* col4 */
    E(KM_ISETP_(KM_LE, 1, KR(21), KRZ));
    E(KM_BRA_IF(1, "cdone", "cdone"));
    E(KM_LBL("col"));
    E(KM_LDG(8, 22, KR(16), 0));
    E(KM_LDG(8, 23, KR(16), 8));
    E(KM_LDG(8, 24, KR(17), 0));
    E(KM_LDG(8, 25, KR(17), 8));
    E(KM_OP2(KM_SHR, 26, KR(22), KI(32))); /* a.y */
    E(KM_OP2(KM_SHR, 27, KR(23), KI(32))); /* a.w */
    E(KM_OP2(KM_SHR, 28, KR(24), KI(32))); /* b.y */
    E(KM_OP2(KM_SHR, 29, KR(25), KI(32))); /* b.w */
    E(KM_OP2(KM_FMUL, 40, KR(22), KR(24)));
    E(KM_OP3(KM_FFMA, 40, KR(26), KR(28), KR(40)));
    E(KM_OP3(KM_FFMA, 40, KR(23), KR(25), KR(40)));
    E(KM_OP3(KM_FFMA, 40, KR(27), KR(29), KR(40)));
    E(KM_OP2(KM_FADD, 18, KR(18), KR(40)));
    E(KM_OP2(KM_FMUL, 40, KR(22), KR(22)));
    E(KM_OP3(KM_FFMA, 40, KR(26), KR(26), KR(40)));
    E(KM_OP3(KM_FFMA, 40, KR(23), KR(23), KR(40)));
    E(KM_OP3(KM_FFMA, 40, KR(27), KR(27), KR(40)));
    E(KM_OP2(KM_FADD, 19, KR(19), KR(40)));
    E(KM_OP2(KM_FMUL, 40, KR(24), KR(24)));
    E(KM_OP3(KM_FFMA, 40, KR(28), KR(28), KR(40)));
    E(KM_OP3(KM_FFMA, 40, KR(25), KR(25), KR(40)));
    E(KM_OP3(KM_FFMA, 40, KR(29), KR(29), KR(40)));
    E(KM_OP2(KM_FADD, 20, KR(20), KR(40)));
    E(KM_OP2(KM_IADD, 16, KR(16), KI(16)));
    E(KM_OP2(KM_IADD, 17, KR(17), KI(16)));
    E(KM_OP2(KM_IADD, 21, KR(21), KI(-1)));
    E(KM_ISETP_(KM_GT, 1, KR(21), KRZ));
    E(KM_BRA_IF(1, "col", "cdone"));
    E(KM_LBL("cdone"));
    E(KM_MUFU_(KM_SQRT, 19, KR(19)));
    E(KM_MUFU_(KM_SQRT, 20, KR(20)));
    E(KM_OP2(KM_FMUL, 19, KR(19), KR(20)));
    E(KM_MUFU_(KM_RCP, 19, KR(19)));
    E(KM_OP2(KM_FMUL, 18, KR(18), KR(19))); /* up / down, as RCP + FMUL */
    gen_outbuf(b);
    E(KM_STS(4, KR(10), 0, KR(18)));
    E(KM_STS(4, KR(10), 4, KR(13)));
    E(KM_STS(4, KR(10), 8, KR(14)));
    E(KM_OP2(KM_IADD, 11, KR(10), KI(4)));
    gen_emit(b, SPACE_SHARED, SPACE_SHARED, 4, 8);
}

/* SS input: the docs x dim matrix of GenMatrix (rand() % 100), one record per pair i < j. */
static int ss_input(struct mars *m, struct ws_rng *r, struct ws_err *e) {
    uint64_t cells = (uint64_t)m->docs * m->dim;
    m->matrix = malloc(cells * sizeof *m->matrix);
    if (!m->matrix) return ws_fail(e, "mars: out of memory");
    for (uint64_t i = 0; i < cells; i++) m->matrix[i] = (float)ws_rng_below(r, 100);
    if (mars_dev(m, &m->d_matrix, 4 * cells, "d_matrix", e)) return -1;
    memcpy(mars_host(m, m->d_matrix, 4 * cells), m->matrix, 4 * cells);
    km_copy_add(m->copies, &m->ncopies, MR_MAXCOPY, m->d_matrix, 4 * cells);
    uint32_t n = m->docs * (m->docs - 1) / 2, k = 0;
    if (data_alloc(&m->in, n, 8ull * n, 16ull * n, e)) return -1;
    for (uint32_t i = 0; i < m->docs; i++)
        for (uint32_t j = i + 1; j < m->docs; j++, k++) {
            int32_t v[4] = {(int32_t)i, (int32_t)j, (int32_t)m->dim, 0};
            memcpy(m->in.keys + 8ull * k, &m->d_matrix, 8);
            memcpy(m->in.vals + 16ull * k, v, 16);
            data_rec(&m->in, k, 8, 16);
        }
    return 0;
}

/* SimilarityScore's key for pair k as the map computes it (same float operations, same order). */
static float ss_key(const struct mars *m, uint32_t i, uint32_t j) {
    const float *a = &m->matrix[(size_t)i * m->dim], *b = &m->matrix[(size_t)j * m->dim];
    float up = 0, d1 = 0, d2 = 0;
    for (uint32_t c = 0; c < m->dim; c += 4) {
        float t = a[c] * b[c];
        t = fmaf(a[c + 1], b[c + 1], t);
        t = fmaf(a[c + 2], b[c + 2], t);
        t = fmaf(a[c + 3], b[c + 3], t);
        up = up + t;
        t = a[c] * a[c];
        t = fmaf(a[c + 1], a[c + 1], t);
        t = fmaf(a[c + 2], a[c + 2], t);
        t = fmaf(a[c + 3], a[c + 3], t);
        d1 = d1 + t;
        t = b[c] * b[c];
        t = fmaf(b[c + 1], b[c + 1], t);
        t = fmaf(b[c + 2], b[c + 2], t);
        t = fmaf(b[c + 3], b[c + 3], t);
        d2 = d2 + t;
    }
    float down = sqrtf(d1) * sqrtf(d2);
    return up * (1.0f / down);
}

/* SS's compare is not a total order (scores within 1e-7 are "equal"), so the sorted output is
 * checked against the same bitonic network run on the host: record i must be the pair the
 * network puts there, with the same key bits. The host order is made on the first call. */
static int ss_order(struct mars *m, uint32_t i, float score, const int32_t d[2]) {
    if (!m->ss_order) {
        uint32_t n = m->docs * (m->docs - 1) / 2, p = m->padded, k = 0;
        m->ss_keys = malloc(n * sizeof *m->ss_keys);
        m->ss_order = malloc(p * sizeof *m->ss_order);
        m->ss_pair = malloc(2ull * n * sizeof *m->ss_pair);
        if (!m->ss_keys || !m->ss_order || !m->ss_pair) return -1;
        for (uint32_t a = 0; a < m->docs; a++)
            for (uint32_t b = a + 1; b < m->docs; b++, k++)
                m->ss_keys[k] = ss_key(m, a, b), m->ss_pair[2 * k] = (int32_t)a,
                m->ss_pair[2 * k + 1] = (int32_t)b;
        for (uint32_t x = 0; x < p; x++) m->ss_order[x] = x < n ? (int32_t)x : -1;
        for (uint32_t kk = 2; kk <= p; kk *= 2)
            for (uint32_t j = kk / 2; j > 0; j /= 2)
                for (uint32_t x = 0; x < p; x++) {
                    uint32_t y = x ^ j;
                    if (y <= x) continue;
                    int32_t u = m->ss_order[x], v = m->ss_order[y];
                    int c;
                    if (u < 0 || v < 0)
                        c = u == v ? 0 : u < 0 ? -1 : 1;
                    else {
                        float fa = m->ss_keys[u], fb = m->ss_keys[v];
                        c = fabsf(fa - fb) < 0.0000001f ? 0 : fa < fb ? 1 : -1;
                    }
                    if (c == ((x & kk) == 0 ? 1 : -1)) m->ss_order[x] = v, m->ss_order[y] = u;
                }
    }
    int32_t want = m->ss_order[m->padded - m->out_n + i];
    return want < 0 || memcmp(&m->ss_keys[want], &score, 4) != 0 || m->ss_pair[2 * want] != d[0] ||
           m->ss_pair[2 * want + 1] != d[1];
}

/* Record i: a pair i < j whose score matches the host's, where the bitonic network puts it. */
static int ss_rec(struct mars *m, uint32_t i, uint32_t *id, struct ws_err *e) {
    const uint8_t *k = out_key(m, i, NULL), *v = out_val(m, i);
    float score;
    int32_t d[2];
    memcpy(&score, k, 4), memcpy(d, v, 8);
    if (d[0] < 0 || d[1] <= d[0] || (uint32_t)d[1] >= m->docs)
        return ws_fail(e, "ss: record %u has pair (%d, %d)", i, d[0], d[1]);
    double up = 0, na = 0, nb = 0;
    const float *a = &m->matrix[(size_t)d[0] * m->dim], *bb = &m->matrix[(size_t)d[1] * m->dim];
    for (uint32_t j = 0; j < m->dim; j++)
        up += (double)a[j] * bb[j], na += (double)a[j] * a[j], nb += (double)bb[j] * bb[j];
    double want = up / (sqrt(na) * sqrt(nb));
    if (!(fabs(score - want) <= 1e-5 * fabs(want) + 1e-6))
        return ws_fail(e, "ss: score(%d, %d) = %.9g, the host gives %.9g", d[0], d[1],
                       (double)score, want);
    if (ss_order(m, i, score, d))
        return ws_fail(e, "ss: record %u (%d, %d) is not where the bitonic network puts it", i,
                       d[0], d[1]);
    *id = (uint32_t)(d[0] * (int32_t)m->docs - d[0] * (d[0] + 1) / 2 + d[1] - d[0] - 1);
    return 0;
}

static int ss_verify(struct mars *m, struct ws_err *e) {
    return mars_check_once(m, m->docs * (m->docs - 1) / 2, ss_rec, e);
}

static const struct mars_app ss_app = {"ss", CMP_FLOAT_DESC, false, ss_count, ss_map, ss_verify};

struct ss_cfg {
    int64_t docs, dim;
};
static const struct cfg_key ss_keys[] = {
    {"workload.ss.docs", CFG_INT, offsetof(struct ss_cfg, docs), NULL, 2, 4096, NULL, "",
     "documents; docs * (docs - 1) / 2 map records (test 96, paper 512)"},
    {"workload.ss.dim", CFG_INT, offsetof(struct ss_cfg, dim), NULL, 4, 4096, NULL, "floats",
     "features per document, a multiple of 4 (test 32, paper 128)"},
};

struct workload *ss_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct ss_cfg sc = {.docs = paper ? 512 : 96, .dim = paper ? 128 : 32};
    if (cfg_bind(c, "workload.ss", ss_keys, CFG_COUNT(ss_keys), &sc, e)) return NULL;
    if (sc.dim % 4) {
        char where[600];
        ws_fail(e, "%s: workload.ss.dim = %lld is not a multiple of 4",
                cfg_origin(c, "workload.ss.dim", where, sizeof where), (long long)sc.dim);
        return NULL;
    }
    struct mars *m = mars_new(&ss_app, e);
    if (!m) return NULL;
    m->docs = (uint32_t)sc.docs, m->dim = (uint32_t)sc.dim;
    struct ws_rng r;
    ws_rng_seed(&r, (uint64_t)wc->seed);
    if (ss_input(m, &r, e)) {
        mars_destroy(&m->kw.base);
        return NULL;
    }
    return &m->kw.base;
}
