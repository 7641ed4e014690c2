/* Tests of the address map (src/mem/addr_map.c): the USIMM field-list aliases bit for bit (seed 002
 * §3.5), GPGPU-Sim style bit strings, XOR bank/channel hashing, the non-power-of-two channel
 * count of the GTX480 (modulo "gap" mode), and the exact text of every map error. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "base/rng.h"
#include "mem/addr_map.h"
#include "mem/memsys.h"
#include "testutil.h"

static struct dram_spec preset(const char *name) {
    const struct dram_spec *p = dram_preset_find(name);
    assert_non_null(p);
    return *p;
}

static void build(struct addr_map *m, const struct dram_spec *s, const char *text, bool xb,
                  bool xc) {
    struct ws_err e = {{0}};
    if (addr_map_init(m, s, text, xb, xc, "map", &e) != 0)
        fail_msg("map '%s' on %s rejected: %s", text, s->preset, e.msg);
}

/* Expects the map to be rejected with exactly `want`. */
static void expect_error(const struct dram_spec *s, const char *text, const char *want) {
    struct addr_map m;
    struct ws_err e = {{0}};
    assert_int_equal(addr_map_init(&m, s, text, false, false, "map", &e), -1);
    assert_string_equal(e.msg, want);
}

static struct dram_addr loc(uint32_t ch, uint32_t pc, uint32_t rank, uint32_t bg, uint32_t bank,
                            uint32_t row, uint32_t col) {
    return (struct dram_addr){ch, pc, rank, bg, bank, row, col};
}

static void expect_decode(const struct addr_map *m, uint64_t addr, struct dram_addr want) {
    struct dram_addr d;
    addr_map_decode(m, addr, &d);
    if (memcmp(&d, &want, sizeof d) != 0)
        fail_msg("0x%llx decodes to ch%u pc%u rank%u bg%u ba%u row%u col%u, expected ch%u pc%u "
                 "rank%u bg%u ba%u row%u col%u",
                 (unsigned long long)addr, d.ch, d.pc, d.rank, d.bg, d.bank, d.row, d.col, want.ch,
                 want.pc, want.rank, want.bg, want.bank, want.row, want.col);
}

/* encode(decode(a)) is a's burst for every a below the mapped capacity. */
static void expect_roundtrip(const struct addr_map *m, uint64_t capacity, uint64_t burst,
                             uint64_t seed) {
    struct ws_rng r;
    ws_rng_seed(&r, seed);
    for (int i = 0; i < 20000; i++) {
        uint64_t a = ws_rng_below(&r, capacity);
        struct dram_addr d;
        addr_map_decode(m, a, &d);
        uint64_t back = addr_map_encode(m, &d);
        if (back != (a & ~(burst - 1)))
            fail_msg("encode(decode(0x%llx)) = 0x%llx", (unsigned long long)a,
                     (unsigned long long)back);
    }
}

/* ---- field lists: USIMM ADDRESS_MAPPING 1 and 0 on the DDR3-1600 1-channel system ---- */

/* mapping 1, row:rank:bank:channel:column:blockoffset = 15:1:3:0:7:6 = 32 bits */
static void test_usimm1_ddr3(void **state) {
    (void)state;
    struct dram_spec s = preset("ddr3-1600");
    struct addr_map m;
    build(&m, &s, "usimm1", false, false);
    assert_int_equal(m.offset_bits, 6);
    assert_int_equal(m.total_bits, 32);
    expect_decode(&m, 0x3f, loc(0, 0, 0, 0, 0, 0, 0));
    expect_decode(&m, 0x40, loc(0, 0, 0, 0, 0, 0, 1)); /* next line: next column, same row */
    expect_decode(&m, 0x1fc0, loc(0, 0, 0, 0, 0, 0, 127));
    expect_decode(&m, 0x2000, loc(0, 0, 0, 0, 1, 0, 0)); /* past 128 lines: next bank */
    expect_decode(&m, 0x10000, loc(0, 0, 1, 0, 0, 0, 0));
    expect_decode(&m, 0x20000, loc(0, 0, 0, 0, 0, 1, 0));
    expect_decode(&m, 0xffffffff, loc(0, 0, 1, 0, 7, 32767, 127));
    struct dram_addr a = loc(0, 0, 1, 0, 5, 0x1234, 0x55);
    assert_int_equal(addr_map_encode(&m, &a),
                     (0x1234ULL << 17) | (1ULL << 16) | (5ULL << 13) | (0x55ULL << 6));
    /* the alias is the spelled-out field list */
    struct addr_map m2;
    build(&m2, &s, "row:rank:bank:ch:col", false, false);
    for (uint64_t x = 0; x < 64; x++) {
        struct dram_addr d1, d2;
        addr_map_decode(&m, x * 0x3fc1, &d1);
        addr_map_decode(&m2, x * 0x3fc1, &d2);
        assert_memory_equal(&d1, &d2, sizeof d1);
    }
    expect_roundtrip(&m, 1ULL << 32, 64, 1);
}

/* mapping 0, row:column:rank:bank:channel:blockoffset */
static void test_usimm0_ddr3(void **state) {
    (void)state;
    struct dram_spec s = preset("ddr3-1600");
    struct addr_map m;
    build(&m, &s, "usimm0", false, false);
    assert_int_equal(m.total_bits, 32);
    expect_decode(&m, 0x40, loc(0, 0, 0, 0, 1, 0, 0)); /* next line: next bank */
    expect_decode(&m, 0x1c0, loc(0, 0, 0, 0, 7, 0, 0));
    expect_decode(&m, 0x200, loc(0, 0, 1, 0, 0, 0, 0)); /* then the other rank */
    expect_decode(&m, 0x400, loc(0, 0, 0, 0, 0, 0, 1)); /* then the column */
    expect_decode(&m, 0x20000, loc(0, 0, 0, 0, 0, 1, 0));
    struct dram_addr a = loc(0, 0, 1, 0, 3, 77, 100);
    assert_int_equal(addr_map_encode(&m, &a),
                     (77ULL << 17) | (100ULL << 10) | (1ULL << 9) | (3ULL << 6));
    expect_roundtrip(&m, 1ULL << 32, 64, 2);
}

/* seed 002's 4-channel config: 15:7:1:3:2:6 = 34 bits; consecutive lines go to a different
 * channel, then bank, then rank */
static void test_usimm0_four_channels(void **state) {
    (void)state;
    struct dram_spec s = preset("ddr3-1600");
    s.channels = 4;
    struct addr_map m;
    build(&m, &s, "usimm0", false, false);
    assert_int_equal(m.total_bits, 34);
    for (uint32_t k = 0; k < 4; k++) expect_decode(&m, 64ULL * k, loc(k, 0, 0, 0, 0, 0, 0));
    expect_decode(&m, 64 * 4, loc(0, 0, 0, 0, 1, 0, 0));
    expect_decode(&m, 64 * 31, loc(3, 0, 0, 0, 7, 0, 0));
    expect_decode(&m, 64 * 32, loc(0, 0, 1, 0, 0, 0, 0));
    expect_decode(&m, 64 * 64, loc(0, 0, 0, 0, 0, 0, 1));
    expect_decode(&m, 1ULL << 19, loc(0, 0, 0, 0, 0, 1, 0));
    expect_roundtrip(&m, 1ULL << 34, 64, 3);
}

/* "bank" is bank group (high) : bank in group (low); ba and bg can also be placed apart. */
static void test_field_list_bank_groups(void **state) {
    (void)state;
    struct dram_spec s = preset("ddr4-2400");
    struct addr_map m;
    build(&m, &s, "row:bank:col", false, false);
    expect_decode(&m, 1ULL << 13, loc(0, 0, 0, 0, 1, 0, 0));
    expect_decode(&m, 1ULL << 15, loc(0, 0, 0, 1, 0, 0, 0));
    expect_decode(&m, 1ULL << 17, loc(0, 0, 0, 0, 0, 1, 0));
    /* the default map: row:rank:ba:col:bg:pc:ch -> bg right above the burst offset */
    build(&m, &s, "row:rank:ba:col:bg:pc:ch", false, false);
    expect_decode(&m, 0x40, loc(0, 0, 0, 1, 0, 0, 0));
    expect_decode(&m, 0x100, loc(0, 0, 0, 0, 0, 0, 1));
    expect_decode(&m, 1ULL << 15, loc(0, 0, 0, 0, 1, 0, 0));
    expect_decode(&m, 1ULL << 17, loc(0, 0, 0, 0, 0, 1, 0));
    assert_int_equal(m.total_bits, 33);
    expect_roundtrip(&m, 1ULL << 33, 64, 4);
}

/* HBM2: the pseudo-channel is a field of its own */
static void test_field_list_hbm2(void **state) {
    (void)state;
    struct dram_spec s = preset("hbm2");
    struct addr_map m;
    build(&m, &s, "row:rank:ba:col:bg:pc:ch", false, false);
    assert_int_equal(m.offset_bits, 5); /* 32 B bursts */
    for (uint32_t k = 0; k < 8; k++) expect_decode(&m, 32ULL * k, loc(k, 0, 0, 0, 0, 0, 0));
    expect_decode(&m, 32 * 8, loc(0, 1, 0, 0, 0, 0, 0));
    expect_decode(&m, 32 * 16, loc(0, 0, 0, 1, 0, 0, 0));
    expect_decode(&m, 32 * 64, loc(0, 0, 0, 0, 0, 0, 1));
    expect_roundtrip(&m, 1ULL << m.total_bits, 32, 5);
}

/* ---- bit strings (GPGPU-Sim -gpgpu_mem_addr_mapping), MSB first ---- */

/* Separators are ignored; whole fields land on the right address bits. */
static void test_bit_string_separators(void **state) {
    (void)state;
    struct dram_spec s = preset("ddr4-2400");
    struct addr_map a, b;
    build(&a, &s, "RRRRRRRRRRRRRRRR.GBBCCCCG.CCCSSSSSS", false, false);
    build(&b, &s, "RRRR RRRR|RRRR RRRR GBBCCCCGCCCSSSSSS", false, false);
    for (unsigned i = 0; i < a.nrun; i++) {
        assert_int_equal(a.run[i].field, b.run[i].field);
        assert_int_equal(a.run[i].src, b.run[i].src);
        assert_int_equal(a.run[i].dst, b.run[i].dst);
    }
    assert_int_equal(a.nrun, b.nrun);
    assert_int_equal(a.total_bits, 33);
    /* whole fields (independent of the bit order inside a field): bits 0-5 S, 6-8 and 10-13 C,
     * 9 and 16 G, 14-15 B, 17-32 R */
    expect_decode(&a, 0x3f, loc(0, 0, 0, 0, 0, 0, 0));
    expect_decode(&a, 0x3dc0, loc(0, 0, 0, 0, 0, 0, 127));
    expect_decode(&a, 0x10200, loc(0, 0, 0, 3, 0, 0, 0));
    expect_decode(&a, 0xc000, loc(0, 0, 0, 0, 3, 0, 0));
    expect_decode(&a, 0x1fffe0000ULL, loc(0, 0, 0, 0, 0, 65535, 0));
    expect_roundtrip(&a, 1ULL << 33, 64, 13);
}

/* A bit string is written MSB first and each field's address bits are packed LSB first, as in
 * GPGPU-Sim: the lowest C letter is column bit 0. */
static void test_bit_string_ddr4(void **state) {
    (void)state;
    struct dram_spec s = preset("ddr4-2400");
    struct addr_map m;
    /* bits 0-5 S, 6-8 C0-2, 9 G0, 10-13 C3-6, 14-15 B, 16 G1, 17-32 R */
    build(&m, &s, "RRRRRRRRRRRRRRRR.GBBCCCCG.CCCSSSSSS", false, false);
    expect_decode(&m, 0x3f, loc(0, 0, 0, 0, 0, 0, 0));
    expect_decode(&m, 0x40, loc(0, 0, 0, 0, 0, 0, 1));
    expect_decode(&m, 0x200, loc(0, 0, 0, 1, 0, 0, 0));
    expect_decode(&m, 0x400, loc(0, 0, 0, 0, 0, 0, 8));
    expect_decode(&m, 0x4000, loc(0, 0, 0, 0, 1, 0, 0));
    expect_decode(&m, 0x10000, loc(0, 0, 0, 2, 0, 0, 0));
    expect_decode(&m, 0x20000, loc(0, 0, 0, 0, 0, 1, 0));
    expect_roundtrip(&m, 1ULL << 33, 64, 6);
}

/* The same defect on a multi-channel part: H letters in the middle of the string. */
static void test_bit_string_hbm2_qv100(void **state) {
    (void)state;
    struct dram_spec s = preset("hbm2-qv100");
    struct addr_map m;
    /* bits 0-4 S, 5-7 C0-2, 8-12 H, 13-15 C3-5, 16-17 G, 18-19 B, 20-33 R */
    build(&m, &s, "RRRRRRRRRRRRRR.BBGGCCC.HHHHH.CCCSSSSS", false, false);
    expect_decode(&m, 0x20, loc(0, 0, 0, 0, 0, 0, 1));
    expect_decode(&m, 0x100, loc(1, 0, 0, 0, 0, 0, 0));
    expect_decode(&m, 0x1f00, loc(31, 0, 0, 0, 0, 0, 0));
    expect_decode(&m, 0x2000, loc(0, 0, 0, 0, 0, 0, 8));
    expect_decode(&m, 0x10000, loc(0, 0, 0, 1, 0, 0, 0));
    expect_decode(&m, 0x40000, loc(0, 0, 0, 0, 1, 0, 0));
    expect_decode(&m, 0x100000, loc(0, 0, 0, 0, 0, 1, 0));
    expect_roundtrip(&m, 1ULL << 34, 32, 7);
}

/* ---- XOR hashing ---- */

static void test_xor_bank(void **state) {
    (void)state;
    struct dram_spec s = preset("ddr4-2400");
    struct addr_map plain, hashed;
    build(&plain, &s, "row:rank:ba:col:bg:pc:ch", false, false);
    build(&hashed, &s, "row:rank:ba:col:bg:pc:ch", true, false);
    /* rows 0 and 5 of bank (bg 0, ba 0): one bank without hashing */
    uint64_t a0 = 0, a5 = 5ULL << 17;
    expect_decode(&plain, a0, loc(0, 0, 0, 0, 0, 0, 0));
    expect_decode(&plain, a5, loc(0, 0, 0, 0, 0, 5, 0));
    /* hashed: ba ^= row bits 0-1 (5 & 3 = 1), bg ^= row bits 2-3 (1) */
    expect_decode(&hashed, a0, loc(0, 0, 0, 0, 0, 0, 0));
    expect_decode(&hashed, a5, loc(0, 0, 0, 1, 1, 5, 0));
    /* row 0x1e: ba ^= 2, bg ^= 3 */
    expect_decode(&hashed, (0x1eULL << 17) | (2ULL << 15) | 0x40, loc(0, 0, 0, 2, 0, 0x1e, 0));
    struct dram_addr d = loc(0, 0, 0, 1, 1, 5, 0);
    assert_int_equal(addr_map_encode(&hashed, &d), a5);
    expect_roundtrip(&hashed, 1ULL << 33, 64, 8);
}

static void test_xor_channel(void **state) {
    (void)state;
    struct dram_spec s = preset("gddr6-rtx2060s"); /* 16 channels, 32 B bursts */
    struct addr_map m;
    build(&m, &s, "row:rank:ba:col:bg:pc:ch", false, true);
    /* row field starts at bit 5 + 4 + 2 + 5 + 2 = 18; ch ^= fold of the row in 4-bit pieces */
    expect_decode(&m, 0, loc(0, 0, 0, 0, 0, 0, 0));
    expect_decode(&m, 1ULL << 18, loc(1, 0, 0, 0, 0, 1, 0));
    expect_decode(&m, (0x123ULL << 18) | (2ULL << 5), loc(2 ^ (3 ^ 2 ^ 1), 0, 0, 0, 0, 0x123, 0));
    expect_roundtrip(&m, 1ULL << m.total_bits, 32, 9);
    build(&m, &s, "row:rank:ba:col:bg:pc:ch", true, true);
    expect_roundtrip(&m, 1ULL << m.total_bits, 32, 10);
}

/* ---- six channels (GTX480): channel = burst index modulo 6 ---- */

static void test_six_channels(void **state) {
    (void)state;
    struct dram_spec s = preset("gddr5-gtx480");
    assert_int_equal(s.channels, 6);
    struct addr_map m;
    build(&m, &s, "row:rank:ba:col:bg:pc:ch", false, false);
    assert_int_equal(m.nch_mod, 6);
    assert_int_equal(m.ch_pos, 6);
    for (uint64_t k = 0; k < 60; k++) {
        struct dram_addr d;
        addr_map_decode(&m, 64 * k + 17, &d);
        assert_int_equal(d.ch, k % 6);
        /* the quotient takes the place of the channel bits: bg, then col */
        assert_int_equal(d.bg, (k / 6) % 4);
        assert_int_equal(d.col, k / 24);
    }
    /* 6 x 2^28 bytes = 1.5 GB is mapped; the address wraps above it */
    uint64_t cap = 6ULL << 28;
    expect_roundtrip(&m, cap, 64, 11);
    struct dram_addr last = loc(5, 0, 0, 3, 3, 4095, 63), d1, d2;
    assert_int_equal(addr_map_encode(&m, &last), cap - 64);
    addr_map_decode(&m, 0x12345680, &d1);
    addr_map_decode(&m, 0x12345680 + cap, &d2);
    assert_memory_equal(&d1, &d2, sizeof d1);
    /* the channel may sit higher up too: row:ch:rest */
    build(&m, &s, "row:ch:rank:ba:col:bg:pc", false, false);
    assert_int_equal(m.ch_pos, 16);
    expect_decode(&m, 1ULL << 16, loc(1, 0, 0, 0, 0, 0, 0));
    expect_decode(&m, 6ULL << 16, loc(0, 0, 0, 0, 0, 1, 0));
    expect_roundtrip(&m, cap, 64, 12);
}

/* "col/2" splits a field so a GPU line stays in one channel with channels interleaved above it:
 * the GTX480 preset's map puts two column bits (128 B of 64 B bursts) under the 6 channels. */
static void test_split_field(void **state) {
    (void)state;
    struct dram_spec s = preset("gddr5-gtx480");
    struct addr_map m;
    build(&m, &s, "row:ba:bg:col:ch:col/2", false, false);
    assert_int_equal(m.ch_pos, 8);
    for (uint64_t k = 0; k < 48; k++) {
        struct dram_addr a, b;
        addr_map_decode(&m, 256 * k, &a);
        addr_map_decode(&m, 256 * k + 255, &b);
        assert_int_equal(a.ch, k % 6); /* 256 B per channel, round robin */
        assert_int_equal(b.ch, a.ch);
        assert_int_equal(a.col, 4 * ((k / 6) % 16)); /* low 2 column bits below the channel */
        assert_int_equal(b.col, a.col + 3);
        assert_int_equal(a.bg, k / 96);
    }
    expect_roundtrip(&m, 6ULL << 28, 64, 13);
    struct dram_spec g6 = preset("gddr6-rtx2060s");
    build(&m, &g6, "row:ba:bg:col:ch:col/3", false, false);
    expect_decode(&m, 255, loc(0, 0, 0, 0, 0, 0, 7));
    expect_decode(&m, 256, loc(1, 0, 0, 0, 0, 0, 0));
    expect_decode(&m, 16 * 256, loc(0, 0, 0, 0, 0, 0, 8));
    expect_error(&s, "row:ba:bg:col:ch:col/7",
                 "map: address map 'row:ba:bg:col:ch:col/7': 'col' has only 6 bits left");
    expect_error(&g6, "row:ba:bg:col/2:ch:col/2",
                 "map: address map 'row:ba:bg:col/2:ch:col/2' leaves 1 bits of 'col' unmapped");
    expect_error(&s, "row:ba:bg:col:ch/1:col/2",
                 "map: address map 'row:ba:bg:col:ch/1:col/2': 'ch' cannot be split");
    expect_error(&s, "row:ba:bg:col:ch:col/x",
                 "map: address map 'row:ba:bg:col:ch:col/x': bad bit count in 'col/x'");
}

/* ---- errors ---- */

static void test_errors_field_list(void **state) {
    (void)state;
    struct dram_spec s = preset("ddr4-2400");
    expect_error(&s, "row:rank:foo:col:bg:ch",
                 "map: address map 'row:rank:foo:col:bg:ch': unknown field 'foo' (use row, rank, "
                 "pc, bg, ba, bank, col, ch)");
    expect_error(&s, "row:ba:col",
                 "map: address map 'row:ba:col' lacks field 'bg' (2 bits needed)");
    expect_error(&s, "row:bg:col",
                 "map: address map 'row:bg:col' lacks field 'ba' (2 bits needed)");
    expect_error(&s, "bank:col", "map: address map 'bank:col' lacks field 'row' (16 bits needed)");
    expect_error(
        &s, "row:bank:ba:col",
        "map: address map 'row:bank:ba:col' names 'ba' twice ('bank' is bg and ba together)");
    expect_error(
        &s, "row:bank:bg:col",
        "map: address map 'row:bank:bg:col' names 'bg' twice ('bank' is bg and ba together)");
    expect_error(&s, "row:col:bank:col", "map: address map 'row:col:bank:col' names 'col' twice");
    /* fields of zero width may be left out: DDR4-2400 has one rank, one channel */
    struct addr_map m;
    build(&m, &s, "row:bank:col", false, false);
    struct dram_spec h = preset("hbm2");
    expect_error(&h, "row:rank:ba:col:bg:ch",
                 "map: address map 'row:rank:ba:col:bg:ch' lacks field 'pc' (1 bits needed)");
}

static void test_errors_bit_string(void **state) {
    (void)state;
    struct dram_spec s = preset("ddr4-2400");
    expect_error(&s, "RRRRRRRRRRRRRRR.GBBCCCCG.CCCSSSSSS",
                 "map: address map has 15 'row' bits, the geometry needs 16");
    expect_error(&s, "RRRRRRRRRRRRRRRR.GBBCCCCG.CCCCSSSSSS",
                 "map: address map has 8 'col' bits, the geometry needs 7");
    expect_error(&s, "RRRRRRRRRRRRRRRR.GBBCCCC0.CCCSSSSSS",
                 "map: address map has 1 'bg' bits, the geometry needs 2");
    expect_error(&s, "RRRRRRRRRRRRRRRR.GBBCCCCG.CCCSSSSSSS",
                 "map: address map has 7 burst-offset (S) bits but a burst is 64 bytes");
    expect_error(&s, "RRRRRRRRRRRRRRRR.GBBCXCCG.CCCSSSSSS",
                 "map: address map: unknown letter 'X' (use R K P G B C H S 0)");
    char longmap[80];
    memset(longmap, 'R', 65);
    longmap[65] = '\0';
    expect_error(&s, longmap, "map: address map has more than 64 bits");
    struct dram_spec g = preset("gddr5-gtx480");
    expect_error(&g, "RRRRRRRRRRRR.BBCCCCCCGGHHHSSSSSS",
                 "map: a bit-string address map needs a power-of-two channel count (use a field "
                 "list for 6 channels)");
}

/* Through the config: the message names the file and line of addr.map. */
static void test_error_from_config(void **state) {
    (void)state;
    struct cfg *c = tu_cfg("[dram]\npreset=ddr4-2400\n[addr]\nmap=row:col\n");
    struct ws_err e = {{0}};
    struct memsys *ms = memsys_create(c, &e);
    assert_null(ms);
    assert_string_equal(e.msg,
                        "test.ini:4: address map 'row:col' lacks field 'bg' (2 bits needed)");
    cfg_destroy(c);
    c = tu_cfg("[dram]\npreset=ddr4-2400\n[addr]\nmap=row:rank:bank:col\nxor_bank=true\n");
    ms = memsys_create(c, &e);
    assert_non_null(ms);
    assert_int_equal(cfg_check_unclaimed(c, &e), 0);
    assert_true(memsys_map(ms)->xor_bank);
    memsys_destroy(ms);
    cfg_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_usimm1_ddr3),
        cmocka_unit_test(test_usimm0_ddr3),
        cmocka_unit_test(test_usimm0_four_channels),
        cmocka_unit_test(test_field_list_bank_groups),
        cmocka_unit_test(test_field_list_hbm2),
        cmocka_unit_test(test_bit_string_separators),
        cmocka_unit_test(test_bit_string_ddr4),
        cmocka_unit_test(test_bit_string_hbm2_qv100),
        cmocka_unit_test(test_xor_bank),
        cmocka_unit_test(test_xor_channel),
        cmocka_unit_test(test_six_channels),
        cmocka_unit_test(test_split_field),
        cmocka_unit_test(test_errors_field_list),
        cmocka_unit_test(test_errors_bit_string),
        cmocka_unit_test(test_error_from_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
