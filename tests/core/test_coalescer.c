/* Tests of the coalescer (src/core/coalescer.c): line requests and sector masks for given lane
 * addresses, in first-lane order, inactive lanes ignored, accesses straddling sectors and lines. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "base/rng.h"
#include "core/coalescer.h"
#include "workload/workload.h"

static uint64_t a[WARP_SIZE];
static struct coal_line out[COAL_MAX_LINES];

static void lanes(uint64_t base, uint64_t stride) {
    for (int i = 0; i < WARP_SIZE; i++) a[i] = base + (uint64_t)i * stride;
}

/* 32 lanes x 4 B consecutive from an aligned base: one line, all 4 sectors. */
static void test_stride4_one_line(void **state) {
    (void)state;
    lanes(0x10000, 4);
    assert_int_equal(coalesce(a, 0xffffffffu, 4, 128, 32, out), 1);
    assert_int_equal(out[0].line, 0x10000);
    assert_int_equal(out[0].sectors, 0xf);
    /* half the warp: sectors 0 and 1 only */
    assert_int_equal(coalesce(a, 0x0000ffffu, 4, 128, 32, out), 1);
    assert_int_equal(out[0].sectors, 0x3);
    /* offset by 64 B: the warp spans two lines, sectors 2-3 then 0-1 */
    lanes(0x10040, 4);
    assert_int_equal(coalesce(a, 0xffffffffu, 4, 128, 32, out), 2);
    assert_int_equal(out[0].line, 0x10000);
    assert_int_equal(out[0].sectors, 0xc);
    assert_int_equal(out[1].line, 0x10080);
    assert_int_equal(out[1].sectors, 0x3);
}

/* Stride 128: one line per lane, in lane order, one sector each. */
static void test_stride128_32_lines(void **state) {
    (void)state;
    lanes(0x20020, 128);
    assert_int_equal(coalesce(a, 0xffffffffu, 4, 128, 32, out), 32);
    for (int i = 0; i < 32; i++) {
        assert_int_equal(out[i].line, 0x20000 + 128 * (uint64_t)i);
        assert_int_equal(out[i].sectors, 0x2);
    }
}

/* 8-byte accesses that straddle a sector boundary set both sectors; one that straddles a line
 * boundary makes two requests. */
static void test_misaligned_8byte(void **state) {
    (void)state;
    a[0] = 0x101c; /* bytes 0x101c-0x1023: sectors 0 and 1 */
    assert_int_equal(coalesce(a, 0x1, 8, 128, 32, out), 1);
    assert_int_equal(out[0].line, 0x1000);
    assert_int_equal(out[0].sectors, 0x3);
    a[0] = 0x107c; /* bytes 0x107c-0x1083: sector 3 of 0x1000, sector 0 of 0x1080 */
    assert_int_equal(coalesce(a, 0x1, 8, 128, 32, out), 2);
    assert_int_equal(out[0].line, 0x1000);
    assert_int_equal(out[0].sectors, 0x8);
    assert_int_equal(out[1].line, 0x1080);
    assert_int_equal(out[1].sectors, 0x1);
    /* 16-byte lanes, contiguous: 512 B = 4 full lines */
    lanes(0x4000, 16);
    assert_int_equal(coalesce(a, 0xffffffffu, 16, 128, 32, out), 4);
    for (int i = 0; i < 4; i++) assert_int_equal(out[i].sectors, 0xf);
    /* 1-byte lanes: 32 bytes, one sector */
    lanes(0x4000, 1);
    assert_int_equal(coalesce(a, 0xffffffffu, 1, 128, 32, out), 1);
    assert_int_equal(out[0].sectors, 0x1);
}

/* Inactive lanes are ignored, and lines come out in the order of the first lane touching them. */
static void test_inactive_and_order(void **state) {
    (void)state;
    lanes(0, 0);
    a[0] = 0x3000; /* line B */
    a[1] = 0x9000; /* inactive */
    a[2] = 0x1040; /* line A, sector 2 */
    a[3] = 0x3064; /* line B, sector 3 */
    a[5] = 0x1000; /* line A, sector 0 */
    assert_int_equal(coalesce(a, 0x2d, 4, 128, 32, out), 2);
    assert_int_equal(out[0].line, 0x3000);
    assert_int_equal(out[0].sectors, 0x9);
    assert_int_equal(out[1].line, 0x1000);
    assert_int_equal(out[1].sectors, 0x5);
    assert_int_equal(coalesce(a, 0, 4, 128, 32, out), 0);
    /* another geometry: 64 B lines of 16 B sectors */
    lanes(0x100, 4);
    assert_int_equal(coalesce(a, 0xffffffffu, 4, 64, 16, out), 2);
    assert_int_equal(out[0].sectors, 0xf);
    assert_int_equal(out[1].line, 0x140);
}

/* A byte-by-byte reference: every byte of every active lane marks its sector, lines listed in
 * the order of the first byte that touches them. */
static unsigned reference(const uint64_t *addr, uint32_t active, unsigned width, unsigned line,
                          unsigned sector, struct coal_line *ref) {
    unsigned n = 0;
    if (width == 0) width = 1;
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(active >> l & 1)) continue;
        for (uint64_t b = addr[l]; b < addr[l] + width; b++) {
            uint64_t base = b / line * line;
            unsigned i = 0;
            while (i < n && ref[i].line != base) i++;
            if (i == n) ref[n++] = (struct coal_line){base, 0};
            ref[i].sectors |= (uint8_t)(1u << ((b - base) / sector));
        }
    }
    return n;
}

/* Random warps over random geometries (16-256 B lines of 1-8 sectors): contiguous full warps
 * (the coalescer's fast path) at random alignments and widths, the same with one lane moved or
 * one lane inactive, or scattered lanes over 64 B to 32 KB (many lines, the table): the
 * coalescer equals the byte-level reference. */
static void test_random_against_reference(void **state) {
    (void)state;
    static const unsigned widths[] = {1, 2, 4, 8, 12, 16};
    struct ws_rng rng;
    ws_rng_seed(&rng, 7);
    struct coal_line ref[COAL_MAX_LINES];
    for (int t = 0; t < 20000; t++) {
        unsigned width = widths[ws_rng_below(&rng, 6)];
        /* lines of 16 to 256 B (never narrower than a lane), 1 to 8 sectors each */
        unsigned line = 16u << ws_rng_below(&rng, 5);
        unsigned sector = line >> ws_rng_below(&rng, 4);
        lanes(0x100000 + ws_rng_below(&rng, 1024), width);
        uint32_t active = 0xffffffffu;
        switch (ws_rng_below(&rng, 5)) {
        case 0:
            a[ws_rng_below(&rng, WARP_SIZE)] += 1 + ws_rng_below(&rng, 300);
            break;
        case 1:
            active &= ~(1u << ws_rng_below(&rng, WARP_SIZE));
            break;
        case 2:
            /* scattered lanes, some sharing lines: up to 64 lines (the coalescer's table) */
            for (int l = 0; l < WARP_SIZE; l++)
                a[l] = 0x200000 + ws_rng_below(&rng, 1u << (6 + ws_rng_below(&rng, 10)));
            active = (uint32_t)ws_rng_below(&rng, 1ull << 32) | 1u;
            break;
        default:
            break;
        }
        unsigned n = coalesce(a, active, width, line, sector, out);
        unsigned m = reference(a, active, width, line, sector, ref);
        assert_int_equal(n, m);
        for (unsigned i = 0; i < n; i++) {
            assert_int_equal(out[i].line, ref[i].line);
            assert_int_equal(out[i].sectors, ref[i].sectors);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stride4_one_line),         cmocka_unit_test(test_stride128_32_lines),
        cmocka_unit_test(test_misaligned_8byte),         cmocka_unit_test(test_inactive_and_order),
        cmocka_unit_test(test_random_against_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
