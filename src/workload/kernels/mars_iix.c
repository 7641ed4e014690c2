/* InvertedIndex (iix) on the Mars framework (mars.c): Mars sample_apps InvertedIndex, main.cu,
 * map.cu (map_count, map), compare.cu (compare: CMP_HASHSTR); one MAP_GROUP call. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/kernels/mars.h"

/* InvertedIndex map_count / map: the <a href="..."> state machine over the block, one byte per
 * iteration (each lane its own ~1 KB block: uncoalesced, but the next bytes hit the same line).
 * States START 0, IN_TAG 1, IN_ATAG 2, FOUND_HREF 3, START_LINK 4. R12 = buf, R13 = size,
 * R14 = j, R15 = state, R16 = buf[j]. */
static void iix_body(struct kb *b, bool count) {
    E(KM_LDG(8, 12, KR(4), 0));             /* pKey->file_buf */
    E(KM_LDG_S(4, 17, KR(5), 0));           /* block_offset */
    E(KM_LDG_S(4, 13, KR(5), 4));           /* block_size */
    E(KM_OP2(KM_IADD, 12, KR(12), KR(17))); /* buf */
    E(KM_MOV_(14, KRZ));
    E(KM_MOV_(15, KRZ));
    E(KM_ISETP_(KM_GE, 1, KR(14), KR(13)));
    E(KM_BRA_IF(1, "sdone", "sdone"));
    E(KM_LBL("scan"));
    E(KM_OP2(KM_IADD, 18, KR(12), KR(14)));
    E(KM_LDG_S(1, 16, KR(18), 0)); /* buf[j] */
    E(KM_ISETP_(KM_EQ, 1, KR(15), KI(0)));
    E(KM_BRA_IF(1, "s0", "tail"));
    E(KM_ISETP_(KM_EQ, 1, KR(15), KI(1)));
    E(KM_BRA_IF(1, "s1", "tail"));
    E(KM_ISETP_(KM_EQ, 1, KR(15), KI(2)));
    E(KM_BRA_IF(1, "s2", "tail"));
    E(KM_ISETP_(KM_EQ, 1, KR(15), KI(3)));
    E(KM_BRA_IF(1, "s3", "tail"));
    /* START_LINK */
    E(KM_MOV_(19, KR(18))); /* link_end */
    E(KM_LBL("lend"));
    E(KM_LDG_S(1, 20, KR(19), 0));
    E(KM_ISETP_(KM_EQ, 2, KR(20), KI('"')));
    E(KM_BRA_IF(2, "lendd", "lendd"));
    E(KM_OP2(KM_IADD, 19, KR(19), KI(1)));
    E(KM_BRA_("lend"));
    E(KM_LBL("lendd"));
    E(KM_OP2(KM_ISUB, 21, KR(19), KR(18))); /* link length */
    if (count) {
        E(KM_MOV_(8, KI(16)));
        E(KM_MOV_(9, KI(4)));
        gen_emit_count(b, 8, 9);
    } else {
        E(KM_STG(1, KR(19), 0, KRZ)); /* *link_end = '\0' */
        E(KM_OP2(KM_IADD, 22, KR(14), KR(17)));
        E(KM_STG(4, KR(4), 8, KR(22))); /* pKey->url_offset */
        E(KM_MOV_(44, KR(18)));
        E(KM_MOV_(45, KR(21)));
        gen_hash(b);
        E(KM_STG(4, KR(4), 12, KR(43))); /* pKey->url_hash */
        E(KM_MOV_(10, KR(4)));
        E(KM_OP2(KM_IADD, 11, KR(5), KI(8))); /* &pVal->file_id */
        gen_emit(b, SPACE_GLOBAL, SPACE_GLOBAL, 16, 4);
    }
    E(KM_OP2(KM_IADD, 14, KR(14), KR(21)));
    E(KM_MOV_(15, KRZ));
    E(KM_BRA_("tail"));
    E(KM_LBL("s0")); /* START: '<' -> IN_TAG */
    E(KM_ISETP_(KM_EQ, 1, KR(16), KI('<')));
    E(KM_SEL_(15, KI(1), KR(15), 1));
    E(KM_BRA_("tail"));
    E(KM_LBL("s1")); /* IN_TAG: 'a' -> IN_ATAG, ' ' stays, else START */
    E(KM_ISETP_(KM_EQ, 1, KR(16), KI(' ')));
    E(KM_SEL_(15, KI(1), KI(0), 1));
    E(KM_ISETP_(KM_EQ, 1, KR(16), KI('a')));
    E(KM_SEL_(15, KI(2), KR(15), 1));
    E(KM_BRA_("tail"));
    E(KM_LBL("s2")); /* IN_ATAG: "href" -> FOUND_HREF (j += 3), ' ' stays, else START */
    E(KM_ISETP_(KM_EQ, 1, KR(16), KI('h')));
    E(KM_BRA_IF(1, "href", "tail"));
    E(KM_ISETP_(KM_EQ, 1, KR(16), KI(' ')));
    E(KM_SEL_(15, KI(2), KI(0), 1));
    E(KM_BRA_("tail"));
    E(KM_LBL("href")); /* for x < 5: href[x] != url_start[x] break; found when x stops at 4 */
    E(KM_MOV_(15, KRZ));
    static const char hr[4] = {'h', 'r', 'e', 'f'};
    for (int x = 0; x < 4; x++) {
        E(KM_LDG_S(1, 20, KR(18), x));
        E(KM_ISETP_(KM_NE, 1, KR(20), KI(hr[x])));
        E(KM_BRA_IF(1, "tail", "tail"));
    }
    E(KM_LDG_S(1, 20, KR(18), 4)); /* href[4] = '\0' != url_start[4] unless the block ends */
    E(KM_ISETP_(KM_EQ, 1, KR(20), KRZ));
    E(KM_BRA_IF(1, "tail", "tail"));
    E(KM_MOV_(15, KI(3)));
    E(KM_OP2(KM_IADD, 14, KR(14), KI(3)));
    E(KM_BRA_("tail"));
    E(KM_LBL("s3")); /* FOUND_HREF: ' ' or '=' stay, '"' -> START_LINK, else START */
    E(KM_ISETP_(KM_EQ, 1, KR(16), KI('"')));
    E(KM_SEL_(15, KI(4), KI(0), 1));
    E(KM_ISETP_(KM_EQ, 1, KR(16), KI(' ')));
    E(KM_SEL_(15, KI(3), KR(15), 1));
    E(KM_ISETP_(KM_EQ, 1, KR(16), KI('=')));
    E(KM_SEL_(15, KI(3), KR(15), 1));
    E(KM_LBL("tail"));
    E(KM_OP2(KM_IADD, 14, KR(14), KI(1)));
    E(KM_ISETP_(KM_LT, 1, KR(14), KR(13)));
    E(KM_BRA_IF(1, "scan", "sdone"));
    E(KM_LBL("sdone"));
}

static void iix_count(struct kb *b) {
    iix_body(b, true);
}
static void iix_map(struct kb *b) {
    iix_body(b, false);
}

/* IIX input: `files` HTML files of about `bytes` each: lines of text, tags and <a href="...">
 * links, cut into map blocks of 1024 bytes extended to the next newline (main.cu). One item in
 * ten is a link (about one per 115 bytes): the assumed density under which 6.8 MB gives fewer
 * than 64K links, so 2^16 sorted records and 136 bitonic stages, 150 launches in all, near the
 * 149 kernel invocations seed 001 reports for IIX. */
static int iix_input(struct mars *m, uint32_t files, uint64_t bytes, uint32_t urls,
                     struct ws_rng *r, struct ws_err *e) {
    static const char *const words[] = {"the",  "gpu", "map",      "reduce", "index", "page", "<b>",
                                        "</b>", "<p>", "<i>x</i>", "a",      "hello", "<br>"};
    uint32_t cap = 1024, nb = 0;
    int32_t(*blk)[3] = malloc(cap * sizeof *blk);
    if (!blk) return ws_fail(e, "mars: out of memory");
    m->nfiles = files;
    for (uint32_t f = 0; f < files; f++) {
        struct textbuf t = {0};
        bool ok = tb_add(&t, "<html><head><title>doc %u</title></head><body>\n", f);
        while (ok && t.n < bytes) {
            uint32_t items = 4 + (uint32_t)ws_rng_below(r, 16);
            for (uint32_t w = 0; ok && w < items; w++) {
                if (ws_rng_below(r, 10) == 0) {
                    double u = ws_rng_unit(r);
                    ok = tb_add(&t, "<a href=\"") && add_url(&t, (uint32_t)(urls * u * u)) &&
                         tb_add(&t, "\">link</a> ");
                } else {
                    ok = tb_add(&t, "%s ", words[ws_rng_below(r, 13)]);
                }
            }
            ok = ok && tb_add(&t, "\n");
        }
        ok = ok && tb_add(&t, "</body></html>\n");
        if (!ok) return free(blk), free(t.s), ws_fail(e, "mars: out of memory");
        m->text[f] = t.s, m->text_len[f] = t.n;
        /* the device copy: size + 1 bytes, every block's closing '\n' turned into '\0' */
        if (mars_dev(m, &m->d_file[f], t.n + 1, "data[i]", e)) return free(blk), -1;
        char *d = mars_host(m, m->d_file[f], t.n + 1);
        memcpy(d, t.s, t.n);
        uint64_t off = 0, size = t.n + 1;
        for (;;) {
            uint64_t p = off + 1024 < size ? off + 1024 : size - 1;
            while (p < size - 1 && d[p] != '\n') p++;
            if (nb == cap) {
                int32_t(*nbk)[3] = realloc(blk, 2 * cap * sizeof *blk);
                if (!nbk) return free(blk), ws_fail(e, "mars: out of memory");
                blk = nbk, cap *= 2;
            }
            if (p < size - 1) {
                d[p] = 0;
                blk[nb][0] = (int32_t)off, blk[nb][1] = (int32_t)(p + 1 - off);
                blk[nb++][2] = (int32_t)f;
                off = p + 1;
            } else {
                blk[nb][0] = (int32_t)off, blk[nb][1] = (int32_t)(size - off);
                blk[nb++][2] = (int32_t)f;
                break;
            }
        }
        km_copy_add(m->copies, &m->ncopies, MR_MAXCOPY, m->d_file[f], t.n + 1);
    }
    if (data_alloc(&m->in, nb, 16ull * nb, 12ull * nb, e)) return free(blk), -1;
    for (uint32_t i = 0; i < nb; i++) {
        memcpy(m->in.keys + 16ull * i, &m->d_file[blk[i][2]], 8);
        memcpy(m->in.vals + 12ull * i, blk[i], 12);
        data_rec(&m->in, i, 16, 12);
    }
    free(blk);
    return 0;
}

/* The host's own parse of the files: every link, grouped by URL, with its file as the value. */
static int iix_verify(struct mars *m, struct ws_err *e) {
    struct truth t = {0};
    int rc = 0;
    uint32_t cap = 1024;
    t.s = malloc(cap * sizeof *t.s);
    char **bufs = calloc(m->nfiles, sizeof *bufs);
    if (!t.s || !bufs) return free(t.s), free(bufs), ws_fail(e, "mars: out of memory");
    for (uint32_t f = 0; f < m->nfiles && !rc; f++) {
        char *s = bufs[f] = malloc(m->text_len[f] + 1);
        if (!s)
            rc = ws_fail(e, "mars: out of memory");
        else
            memcpy(s, m->text[f], m->text_len[f] + 1);
        for (char *p = s; !rc && (p = strstr(p, "<a href=\""));) {
            p += 9;
            char *q = strchr(p, '"');
            *q = 0;
            if (t.n == cap) {
                char **ns = realloc(t.s, 2 * cap * sizeof *ns);
                if (!ns)
                    rc = ws_fail(e, "mars: out of memory");
                else
                    t.s = ns, cap *= 2;
            }
            if (!rc) t.s[t.n++] = p;
            p = q + 1;
        }
    }
    if (!rc) rc = check_groups(m, &t, "iix", 0, e);
    /* postings: each record's value is the file the link came from */
    for (uint32_t i = 0; !rc && i < m->out_n; i++) {
        int32_t fid;
        memcpy(&fid, out_val(m, i), 4);
        uint64_t fb;
        memcpy(&fb, out_key(m, i, NULL), 8);
        if (fid < 0 || (uint32_t)fid >= m->nfiles || m->d_file[fid] != fb)
            rc = ws_fail(e, "iix: record %u names file %d, its key points elsewhere", i, fid);
    }
    for (uint32_t f = 0; f < m->nfiles; f++) free(bufs[f]);
    free(bufs);
    free(t.s);
    return rc;
}

static const struct mars_app iix_app = {"iix", CMP_HASHSTR, false, iix_count, iix_map, iix_verify};

struct iix_cfg {
    int64_t files, bytes, urls;
};
static const struct cfg_key iix_keys[] = {
    {"workload.iix.files", CFG_INT, offsetof(struct iix_cfg, files), NULL, 1, 64, NULL, "",
     "HTML files (test 8, paper 16)"},
    {"workload.iix.bytes", CFG_INT, offsetof(struct iix_cfg, bytes), NULL, 256, 1 << 26, NULL,
     "bytes", "size of each file (test 16384, paper 425000: 6.8 MB in all)"},
    {"workload.iix.urls", CFG_INT, offsetof(struct iix_cfg, urls), NULL, 1, 1 << 22, NULL, "",
     "distinct link targets (test 512, paper 20000)"},
};

struct workload *iix_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct iix_cfg ic = {
        .files = paper ? 16 : 8, .bytes = paper ? 425000 : 16384, .urls = paper ? 20000 : 512};
    if (cfg_bind(c, "workload.iix", iix_keys, CFG_COUNT(iix_keys), &ic, e)) return NULL;
    struct mars *m = mars_new(&iix_app, e);
    if (!m) return NULL;
    struct ws_rng r;
    ws_rng_seed(&r, (uint64_t)wc->seed);
    if (iix_input(m, (uint32_t)ic.files, (uint64_t)ic.bytes, (uint32_t)ic.urls, &r, e)) {
        mars_destroy(&m->kw.base);
        return NULL;
    }
    return &m->kw.base;
}
