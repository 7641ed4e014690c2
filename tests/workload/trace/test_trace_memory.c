/* Bounded memory: the reader holds only the resident CTAs, packed. Generated traces of 64 and of
 * 1024 CTAs, run with the same number of CTAs resident, reach exactly the same allocation
 * high-water mark, far below the trace's size; and the packed form decodes to exactly the
 * instruction that was packed (random instructions, every address layout). */
#include "trace_harness.h"

#include "base/rng.h"
#include "workload/trace/tpack.h"

enum { WARPS = 8, PER_WARP = 40, RESIDENT = 6 };

/* A v4 trace of n CTAs, WARPS warps each, PER_WARP lines per warp: ALU lines, coalesced loads
 * (base + stride), scattered stores (base + deltas), and an EXIT. */
static const char *gen(unsigned n, size_t *bytes) {
    char name[64];
    snprintf(name, sizeof name, "kernel-%u.traceg", n);
    const char *p = tpath(name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f,
            "-kernel name = gen\n-kernel id = 1\n-grid dim = (%u,1,1)\n-block dim = (%d,1,1)\n"
            "-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n"
            "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f1000000000\n"
            "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
            "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
            "mem_width [adrrescompress?] [mem_addresses]\n\n",
            n, WARPS * 32);
    for (unsigned c = 0; c < n; c++) {
        fprintf(f, "#BEGIN_TB\n\nthread block = %u,0,0\n\n", c);
        for (unsigned w = 0; w < WARPS; w++) {
            fprintf(f, "warp = %u\ninsts = %d\n", w, PER_WARP);
            uint64_t base = 0x7f2000000000ull + ((uint64_t)c * WARPS + w) * 4096;
            for (unsigned i = 0; i < PER_WARP - 1; i++) {
                unsigned pc = i * 16;
                if (i % 5 == 1)
                    fprintf(f, "%04x ffffffff 1 R%u LDG.E 1 R2 4 1 0x%llx 4\n", pc, 4 + i % 8,
                            (unsigned long long)(base + i * 128));
                else if (i % 5 == 3)
                    fprintf(f, "%04x 0000000f 0 STG.E 2 R2 R%u 4 2 0x%llx 260 -132 1028\n", pc,
                            4 + i % 8, (unsigned long long)(base + i * 64));
                else
                    fprintf(f, "%04x ffffffff 1 R%u IMAD 3 R%u R%u R255 0\n", pc, 4 + i % 8,
                            4 + (i + 1) % 8, 4 + (i + 2) % 8);
            }
            fprintf(f, "%04x ffffffff 0 EXIT 0 0\n\n", (PER_WARP - 1) * 16);
        }
        fprintf(f, "#END_TB\n\n");
    }
    *bytes = (size_t)ftell(f);
    fclose(f);
    return p;
}

/* Runs the trace with RESIDENT CTAs in flight, warps interleaved instruction by instruction;
 * returns the reader's high-water mark. */
static uint64_t run_resident(const char *path, unsigned n) {
    struct ws_err e = {{0}};
    struct workload *w = topen(path);
    struct kernel_desc k;
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 1);
    assert_int_equal(k.ncta, n);
    struct wl_warp *warps[RESIDENT][32];
    uint64_t ids[RESIDENT];
    uint64_t next = 0, done = 0, insts = 0;
    unsigned live = 0;
    struct inst in;
    while (done < n) {
        while (live < RESIDENT && next < n) {
            if (w->vt->cta_start(w, next, warps[live], &e)) fail_msg("%s", e.msg);
            ids[live++] = next++;
        }
        /* one instruction from each warp of the oldest CTA in turn, to their ends */
        bool fin[32] = {false}, more = true;
        while (more) {
            more = false;
            for (unsigned i = 0; i < WARPS; i++) {
                if (fin[i]) continue;
                if (w->vt->warp_next(w, warps[0][i], &in, &e)) fail_msg("%s", e.msg);
                insts++;
                fin[i] = in.cls == OP_EXIT;
                more |= !fin[i];
            }
        }
        w->vt->cta_end(w, ids[0], warps[0]);
        memmove(warps[0], warps[1], sizeof warps[0] * (RESIDENT - 1));
        memmove(ids, ids + 1, sizeof ids[0] * (RESIDENT - 1));
        live--;
        done++;
    }
    assert_int_equal(insts, (uint64_t)n * WARPS * PER_WARP);
    assert_int_equal(w->vt->next_kernel(w, &k, &e), 0);
    uint64_t peak = trace_get_stats(w)->bytes_peak;
    w->vt->destroy(w);
    return peak;
}

static void test_bounded_by_resident_ctas(void **state) {
    (void)state;
    tdir_new();
    size_t small_bytes, big_bytes;
    const char *small = gen(64, &small_bytes);
    const char *big = gen(1024, &big_bytes);
    uint64_t p_small = run_resident(small, 64);
    uint64_t p_big = run_resident(big, 1024);
    print_message("trace %zu / %zu bytes: reader peak %llu / %llu bytes\n", small_bytes, big_bytes,
                  (unsigned long long)p_small, (unsigned long long)p_big);
    assert_int_equal(p_small, p_big);
    assert_true(big_bytes > 16 * small_bytes - small_bytes); /* 16x the CTAs, ~16x the bytes */
    assert_true(p_big * 40 < big_bytes);
    /* A CTA of 320 instructions (about 12 bytes each packed) fits an 8 KiB buffer (4 KiB plus
     * room for one more instruction would not), plus its slot (32 warp cursors); the slot tables
     * start at 64 entries. */
    assert_true(p_big <= RESIDENT * (8192 + 2048) + 64 * 16);
    assert_true(p_big >= RESIDENT * 8192);
    tdir_remove();
}

static void rand_inst(struct ws_rng *r, struct inst *in) {
    memset(in, 0, sizeof *in);
    in->pc = ws_rng_below(r, 4) ? ws_rng_below(r, 1 << 20) * 16 : ws_rng_next(r);
    unsigned m = (unsigned)ws_rng_below(r, 4);
    in->active = m == 0 ? 0xffffffffu : m == 1 ? 0 : (uint32_t)ws_rng_next(r);
    in->cls = (uint8_t)ws_rng_below(r, OP_NCLASS);
    in->ndst = (uint8_t)ws_rng_below(r, INST_MAX_DST + 1);
    in->nsrc = (uint8_t)ws_rng_below(r, INST_MAX_SRC + 1);
    for (unsigned i = 0; i < in->ndst; i++)
        in->dst[i] = ws_rng_below(r, 8) ? (uint16_t)ws_rng_below(r, 400) : REG_NONE;
    for (unsigned i = 0; i < in->nsrc; i++)
        in->src[i] = ws_rng_below(r, 8) ? (uint16_t)ws_rng_below(r, 400) : REG_NONE;
    in->lat = (uint16_t)ws_rng_below(r, 300);
    in->ii = (uint16_t)ws_rng_below(r, 70);
    if (in->cls == OP_MEM) {
        in->lat = in->ii = 0;
        in->space = (uint8_t)(1 + ws_rng_below(r, SPACE_TEX));
        in->mop = (uint8_t)ws_rng_below(r, 3);
        in->width = (uint8_t)(1u << ws_rng_below(r, 5));
        uint64_t base = ws_rng_next(r), stride = ws_rng_below(r, 2) ? ws_rng_next(r) : 4;
        unsigned layout = (unsigned)ws_rng_below(r, 3);
        for (unsigned l = 0, k = 0; l < 32; l++)
            if (in->active >> l & 1)
                in->addr[l] = layout == 0   ? base + stride * k++
                              : layout == 1 ? base + ws_rng_below(r, 1 << 16)
                                            : ws_rng_next(r);
    }
}

static void test_pack_round_trip(void **state) {
    (void)state;
    struct ws_rng r;
    ws_rng_seed(&r, 7);
    enum { N = 20000 };
    uint8_t *buf = malloc((size_t)N * TPACK_MAX);
    struct inst *src = malloc(N * sizeof *src);
    size_t len = 0;
    uint64_t prev = 0;
    for (unsigned i = 0; i < N; i++) {
        rand_inst(&r, &src[i]);
        size_t n = tpack_put(buf + len, &src[i], &prev);
        assert_true(n <= TPACK_MAX);
        len += n;
    }
    size_t pos = 0;
    prev = 0;
    for (unsigned i = 0; i < N; i++) {
        struct inst in;
        memset(&in, 0xa5, sizeof in);
        tpack_get(buf, &pos, &in, &prev);
        const struct inst *s = &src[i];
        assert_int_equal(in.pc, s->pc);
        assert_int_equal(in.active, s->active);
        assert_int_equal(in.cls, s->cls);
        assert_int_equal(in.lat, s->lat);
        assert_int_equal(in.ii, s->ii);
        assert_int_equal(in.ndst, s->ndst);
        assert_int_equal(in.nsrc, s->nsrc);
        assert_memory_equal(in.dst, s->dst, s->ndst * sizeof s->dst[0]);
        assert_memory_equal(in.src, s->src, s->nsrc * sizeof s->src[0]);
        if (s->cls == OP_MEM) {
            assert_int_equal(in.space, s->space);
            assert_int_equal(in.mop, s->mop);
            assert_int_equal(in.width, s->width);
            for (unsigned l = 0; l < 32; l++)
                if (s->active >> l & 1) assert_int_equal(in.addr[l], s->addr[l]);
        } else {
            assert_int_equal(in.space, 0);
            assert_int_equal(in.width, 0);
        }
    }
    assert_int_equal(pos, len);
    free(buf);
    free(src);

    /* The sizes the header promises: an ALU op and a coalesced load. */
    uint8_t b[TPACK_MAX];
    struct inst alu = {.pc = 0x10,
                       .active = 0xffffffffu,
                       .cls = OP_INT,
                       .ndst = 1,
                       .nsrc = 2,
                       .dst = {4},
                       .src = {5, REG_NONE},
                       .lat = 2,
                       .ii = 2};
    prev = 0;
    assert_int_equal(tpack_put(b, &alu, &prev), 8);
    struct inst ld = {.pc = 0x20,
                      .active = 0xffffffffu,
                      .cls = OP_MEM,
                      .space = SPACE_GLOBAL,
                      .width = 4,
                      .ndst = 1,
                      .nsrc = 1,
                      .dst = {4},
                      .src = {2}};
    for (unsigned l = 0; l < 32; l++) ld.addr[l] = 0x7f2b2d500000 + 4 * l;
    assert_int_equal(tpack_put(b, &ld, &prev), 16);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounded_by_resident_ctas),
        cmocka_unit_test(test_pack_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
