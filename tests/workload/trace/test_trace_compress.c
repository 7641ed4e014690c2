/* Compressed traces: a real trace written here as gzip (zlib), xz (liblzma) and zstd (libzstd)
 * reads back line for line like the plain file, and runs to the same instruction stream; the
 * format is found from the content, not the name; truncated and corrupt files are errors at the
 * line where the data stop; plus the line reader's own edge cases (multi-member gzip, no final
 * newline, CR LF, overlong lines, NUL bytes, what may follow gzip data). */
#include "trace_harness.h"

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "base/lineio.h"
#include "testutil.h"

#define SIMPLE ACCELSIM "/mgpusim-simple-trace-example/kernel-1.traceg"

static char *must_slurp(const char *path, size_t *n) {
    char *b = tu_slurp(path, n);
    assert_non_null(b);
    return b;
}

static void put(const char *path, const void *p, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

static void write_gz(const char *path, const char *data, size_t n) {
    gzFile g = gzopen(path, "wb9");
    assert_non_null(g);
    assert_int_equal(gzwrite(g, data, (unsigned)n), (int)n);
    assert_int_equal(gzclose(g), Z_OK);
}

static void write_xz(const char *path, const char *data, size_t n) {
    size_t cap = lzma_stream_buffer_bound(n), pos = 0;
    uint8_t *out = malloc(cap);
    assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)data, n,
                                             out, &pos, cap),
                     LZMA_OK);
    put(path, out, pos);
    free(out);
}

static void write_zst(const char *path, const char *data, size_t n) {
    size_t cap = ZSTD_compressBound(n);
    void *out = malloc(cap);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1); /* so damage is always detected */
    size_t r = ZSTD_compress2(cc, out, cap, data, n);
    assert_false(ZSTD_isError(r));
    put(path, out, r);
    ZSTD_freeCCtx(cc);
    free(out);
}

/* Every line of `path` equals the corresponding line of the text `data`. */
static void same_lines(const char *path, const char *data, enum ws_comp comp) {
    struct ws_err e = {{0}};
    struct ws_lines *l = ws_lines_open(path, &e);
    assert_non_null(l);
    assert_int_equal(ws_lines_comp(l), comp);
    const char *p = data;
    const char *line;
    long n = 0;
    while ((line = ws_lines_next(l, &e))) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len && p[len - 1] == '\r') len--;
        assert_int_equal(strlen(line), len);
        assert_memory_equal(line, p, len);
        p = nl ? nl + 1 : p + len;
        n++;
    }
    assert_false(ws_lines_failed(l));
    assert_int_equal(*p, '\0');
    assert_int_equal(ws_lines_lineno(l), n);
    ws_lines_close(l);
}

/* FNV-1a over everything a run sees of the trace. */
static uint64_t stream_hash(const char *path, uint64_t *count) {
    struct ws_err e = {{0}};
    struct workload *w = topen(path);
    uint64_t h = 1469598103934665603ull;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 1099511628211ull)
    struct kernel_desc k;
    struct wl_warp *warps[32];
    struct inst in;
    *count = 0;
    while (w->vt->next_kernel(w, &k, &e) == 1) {
        MIX(k.ncta);
        MIX(k.ncopies);
        uint32_t nw = (k.threads + 31) / 32;
        for (uint64_t c = 0; c < k.ncta; c++) {
            if (w->vt->cta_start(w, c, warps, &e)) fail_msg("%s", e.msg);
            for (uint32_t i = 0; i < nw; i++) do {
                    if (w->vt->warp_next(w, warps[i], &in, &e)) fail_msg("%s", e.msg);
                    MIX(in.pc);
                    MIX(in.active);
                    MIX(in.cls << 24 | in.space << 16 | in.mop << 8 | in.width);
                    MIX(in.lat << 16 | in.ii);
                    for (unsigned r = 0; r < in.ndst; r++) MIX(in.dst[r]);
                    for (unsigned r = 0; r < in.nsrc; r++) MIX(in.src[r] + 0x10000);
                    if (in.cls == OP_MEM)
                        for (unsigned l = 0; l < 32; l++)
                            if (in.active >> l & 1) MIX(in.addr[l]);
                    ++*count;
                } while (in.cls != OP_EXIT);
            w->vt->cta_end(w, c, warps);
        }
    }
    assert_string_equal(e.msg, "");
#undef MIX
    w->vt->destroy(w);
    return h;
}

static void test_formats_identical(void **state) {
    (void)state;
    tdir_new();
    size_t n;
    char *data = must_slurp(SIMPLE, &n);
    write_gz(tpath("kernel-1.traceg.gz"), data, n);
    write_xz(tpath("kernel-2.traceg.xz"), data, n);
    write_zst(tpath("kernel-3.traceg.zst"), data, n);
    write_gz(tpath("kernel-4.traceg"), data, n); /* gzip under a plain name */
    same_lines(SIMPLE, data, WS_COMP_PLAIN);
    same_lines(tpath("kernel-1.traceg.gz"), data, WS_COMP_GZIP);
    same_lines(tpath("kernel-2.traceg.xz"), data, WS_COMP_XZ);
    same_lines(tpath("kernel-3.traceg.zst"), data, WS_COMP_ZSTD);
    same_lines(tpath("kernel-4.traceg"), data, WS_COMP_GZIP);

    uint64_t cnt, cnt2;
    uint64_t ref = stream_hash(SIMPLE, &cnt);
    assert_int_equal(cnt, 26601);
    const char *names[] = {"kernel-1.traceg.gz", "kernel-2.traceg.xz", "kernel-3.traceg.zst",
                           "kernel-4.traceg"};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(stream_hash(tpath(names[i]), &cnt2), ref);
        assert_int_equal(cnt2, cnt);
    }
    /* a list naming the plain files finds the compressed ones beside them; four kernels */
    twrite("kernelslist.g", "MemcpyHtoD,0x00007fb0fc400000,200000\nkernel-1.traceg\n"
                            "kernel-2.traceg\nkernel-3.traceg\nkernel-4.traceg\n");
    struct ws_err e = {{0}};
    struct wl_count c;
    assert_int_equal(tcount(tdir, &c, &e), 0);
    assert_int_equal(c.kernels, 4);
    assert_int_equal(c.insts, 4 * 26601);
    free(data);
    tdir_remove();
}

/* A file cut short is an error at the line where its data stop; a damaged one too. */
static void expect_cut(const char *path, const char *what) {
    struct ws_err e = {{0}};
    struct ws_lines *l = ws_lines_open(path, &e);
    assert_non_null(l);
    while (ws_lines_next(l, &e)) {
    }
    assert_true(ws_lines_failed(l));
    long last = ws_lines_lineno(l);
    assert_true(last > 100);
    char want[1024];
    snprintf(want, sizeof want, "%s:%ld: %s", path, last + 1, what);
    assert_string_equal(e.msg, want);
    ws_lines_close(l);
}

static void test_truncated_and_corrupt(void **state) {
    (void)state;
    tdir_new();
    size_t n, m;
    char *data = must_slurp(SIMPLE, &n);
    const char *ext[] = {"gz", "xz", "zst"};
    const char *what[] = {"unexpected end of gzip data (truncated file?)",
                          "unexpected end of xz data (truncated file?)",
                          "unexpected end of zstd data (truncated file?)"};
    for (int i = 0; i < 3; i++) {
        char full[32], cut[32];
        snprintf(full, sizeof full, "full.%s", ext[i]);
        snprintf(cut, sizeof cut, "cut.%s", ext[i]);
        if (i == 0) write_gz(tpath(full), data, n);
        if (i == 1) write_xz(tpath(full), data, n);
        if (i == 2) write_zst(tpath(full), data, n);
        char *z = must_slurp(tpath(full), &m);
        put(tpath(cut), z, m / 2);
        expect_cut(tpath(cut), what[i]);
        /* the trace reader reports it through cta_start */
        const char *msg = terror(tpath(cut));
        assert_non_null(strstr(msg, what[i]));
        /* damage in the middle */
        for (size_t k = m / 2; k < m / 2 + 64; k++) z[k] ^= 0x5a;
        put(tpath(cut), z, m);
        struct ws_err e = {{0}};
        struct ws_lines *l = ws_lines_open(tpath(cut), &e);
        while (ws_lines_next(l, &e)) {
        }
        assert_true(ws_lines_failed(l));
        static const char *corrupt[] = {"gzip data is corrupt", "xz data is corrupt",
                                        "zstd data is corrupt"};
        assert_non_null(strstr(e.msg, corrupt[i]));
        ws_lines_close(l);
        free(z);
    }
    free(data);
    tdir_remove();
}

/* `path` reads as the lines `good`, then fails at the next line with "path:line: what". */
static void fails_after(const char *path, const char *const *good, unsigned ngood,
                        const char *what) {
    struct ws_err e = {{0}};
    struct ws_lines *l = ws_lines_open(path, &e);
    assert_non_null(l);
    for (unsigned i = 0; i < ngood; i++) assert_string_equal(ws_lines_next(l, &e), good[i]);
    assert_null(ws_lines_next(l, &e));
    assert_true(ws_lines_failed(l));
    char want[1024];
    snprintf(want, sizeof want, "%s:%u: %s", path, ngood + 1, what);
    assert_string_equal(e.msg, want);
    ws_lines_close(l);
}

static void test_line_reader_edges(void **state) {
    (void)state;
    tdir_new();
    /* two gzip members, as `cat a.gz b.gz` makes */
    write_gz(tpath("a.gz"), "one\ntwo\n", 8);
    write_gz(tpath("b.gz"), "three\nfour", 10);
    size_t na, nb;
    char *a = must_slurp(tpath("a.gz"), &na), *b = must_slurp(tpath("b.gz"), &nb);
    char *ab = malloc(na + nb);
    memcpy(ab, a, na);
    memcpy(ab + na, b, nb);
    put(tpath("ab.gz"), ab, na + nb);
    same_lines(tpath("ab.gz"), "one\ntwo\nthree\nfour", WS_COMP_GZIP);
    /* CR LF, no final newline, an empty file, blank lines */
    same_lines(twrite("crlf", "a\r\nbb\r\n\r\nccc"), "a\r\nbb\r\n\r\nccc", WS_COMP_PLAIN);
    same_lines(twrite("empty", ""), "", WS_COMP_PLAIN);
    /* a line longer than the limit, plain and compressed */
    size_t big = WS_LINE_MAX + 10;
    char *s = malloc(big + 16);
    memcpy(s, "ok\n", 3);
    memset(s + 3, 'x', big);
    strcpy(s + 3 + big, "\nend\n");
    put(tpath("long"), s, strlen(s));
    write_zst(tpath("long.zst"), s, strlen(s));
    const char *ok[] = {"ok"};
    char too_long[64];
    snprintf(too_long, sizeof too_long, "line longer than %d bytes", WS_LINE_MAX);
    fails_after(tpath("long"), ok, 1, too_long);
    fails_after(tpath("long.zst"), ok, 1, too_long);
    free(s);
    /* a NUL byte inside a line (a binary or damaged file), plain and gzip: an error at its line,
     * not a line cut short */
    static const char nul[] = "0x100 R\n\0junk R\n0x200 W\n";
    put(tpath("nul"), nul, sizeof nul - 1);
    write_gz(tpath("nul.gz"), nul, sizeof nul - 1);
    const char *first[] = {"0x100 R"}, *nul_msg = "NUL byte in a text line (a binary or "
                                                  "damaged file?)";
    fails_after(tpath("nul"), first, 1, nul_msg);
    fails_after(tpath("nul.gz"), first, 1, nul_msg);
    /* after the gzip data: zeros (padding) are accepted, other bytes are an error */
    char *pad = malloc(na + 700);
    memcpy(pad, a, na);
    memset(pad + na, 0, 700);
    put(tpath("pad.gz"), pad, na + 700);
    same_lines(tpath("pad.gz"), "one\ntwo\n", WS_COMP_GZIP);
    memcpy(pad + na + 600, "junk", 4);
    put(tpath("junk.gz"), pad, na + 700);
    const char *both[] = {"one", "two"};
    fails_after(tpath("junk.gz"), both, 2,
                "bytes after the end of the gzip data that are not gzip (a damaged or appended "
                "file?)");
    free(pad);
    free(a);
    free(b);
    free(ab);
    tdir_remove();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats_identical),
        cmocka_unit_test(test_truncated_and_corrupt),
        cmocka_unit_test(test_line_reader_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
