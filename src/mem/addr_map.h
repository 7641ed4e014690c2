/* Physical address -> DRAM location (channel, pseudo-channel, rank, bank group, bank, row,
 * column). A map is either a field list written MSB -> LSB ("row:rank:bank:ch:col", the burst
 * offset is implied below it) or a bit string, one letter per address bit MSB -> LSB as in
 * GPGPU-Sim's -gpgpu_mem_addr_mapping (R row, K rank, P pseudo-channel, G bank group, B bank,
 * C column, H channel, S byte within the burst, 0 unused; '.', '|' and spaces are ignored).
 * Aliases: usimm0 / usimm1 are USIMM v1.3's ADDRESS_MAPPING 0 / 1. Optional XOR hashing
 * permutes bank and channel bits with row bits (permutation-based interleaving). Address bits
 * above the mapped capacity are ignored (the address wraps). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/cfg.h"
#include "mem/dram/dram_spec.h"

enum addr_field { AF_CH, AF_PC, AF_RANK, AF_BG, AF_BANK, AF_ROW, AF_COL, AF_NFIELDS };

struct addr_map_cfg {
    char map[CFG_STR_MAX];
    bool xor_bank, xor_channel;
};
extern const struct cfg_key addr_map_keys[];
extern const unsigned addr_map_nkeys;

struct addr_run { /* `len` bits at source bit `src` go to bit `dst` of field `field` */
    uint8_t field, src, dst, len;
};

struct addr_map {
    struct addr_map_cfg cfg; /* the [addr] settings it was built from */
    struct addr_run run[64];
    unsigned nrun;
    uint64_t run_mask[64];      /* per run: its source bits in place (decode) */
    uint8_t run_shift[64];      /* per run: src - dst */
    unsigned offset_bits;       /* log2(burst bytes) */
    unsigned width[AF_NFIELDS]; /* bits per field */
    unsigned total_bits;        /* offset + all fields */
    bool xor_bank, xor_channel;
    /* Channel counts that are not a power of two: the channel is (address above ch_pos) modulo
     * nch, and the quotient takes the place of those bits (GPGPU-Sim's "gap" mode). */
    uint32_t nch_mod;
    unsigned ch_pos;
    /* every field has at most one run: decode by field_mask / field_shift alone */
    bool one_run;
    uint64_t field_mask[AF_NFIELDS];
    uint8_t field_shift[AF_NFIELDS];
};

/* Builds a map for spec `s` from text (or alias). `where` prefixes error messages. */
int addr_map_init(struct addr_map *m, const struct dram_spec *s, const char *text, bool xor_bank,
                  bool xor_channel, const char *where, struct ws_err *e);
/* Binds [addr] keys and builds the map. */
int addr_map_configure(struct addr_map *m, const struct dram_spec *s, struct cfg *c,
                       struct ws_err *e);
void addr_map_decode(const struct addr_map *m, uint64_t addr, struct dram_addr *out);
/* Inverse of decode (the lowest address of that burst), for generators and tests. */
uint64_t addr_map_encode(const struct addr_map *m, const struct dram_addr *a);
