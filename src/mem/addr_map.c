/* Address mapping (see addr_map.h). Bit runs are precomputed so decode is a few shifts. */
#include "mem/addr_map.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

const struct cfg_key addr_map_keys[] = {
    {"addr.map", CFG_STRING, offsetof(struct addr_map_cfg, map), "row:rank:ba:col:bg:pc:ch", 0, 0,
     NULL, "",
     "address map: field list MSB->LSB (row, rank, pc, bg, ba, bank, col, ch), a bit string "
     "(R K P G B C H S 0), or usimm0/usimm1"},
    {"addr.xor_bank", CFG_BOOL, offsetof(struct addr_map_cfg, xor_bank), "false", 0, 0, NULL, "",
     "XOR the bank and bank-group bits with the low row bits"},
    {"addr.xor_channel", CFG_BOOL, offsetof(struct addr_map_cfg, xor_channel), "false", 0, 0, NULL,
     "", "XOR the channel bits with a fold of the row bits"},
};
const unsigned addr_map_nkeys = CFG_COUNT(addr_map_keys);

static unsigned log2u(int64_t v) {
    unsigned n = 0;
    while ((1LL << n) < v) n++;
    return n;
}

static const char *const field_names[AF_NFIELDS] = {"ch", "pc", "rank", "bg", "ba", "row", "col"};

static void add_run(struct addr_map *m, unsigned field, unsigned src, unsigned dst) {
    /* extend the previous run when contiguous in both source and destination */
    if (m->nrun) {
        struct addr_run *p = &m->run[m->nrun - 1];
        if (p->field == field && p->src + p->len == src && p->dst + p->len == dst) {
            p->len++;
            return;
        }
    }
    m->run[m->nrun++] = (struct addr_run){(uint8_t)field, (uint8_t)src, (uint8_t)dst, 1};
}

static int field_of_letter(char ch) {
    switch (toupper((unsigned char)ch)) {
    case 'H':
        return AF_CH;
    case 'P':
        return AF_PC;
    case 'K':
        return AF_RANK;
    case 'G':
        return AF_BG;
    case 'B':
        return AF_BANK;
    case 'R':
        return AF_ROW;
    case 'C':
        return AF_COL;
    default:
        return -1;
    }
}

int addr_map_init(struct addr_map *m, const struct dram_spec *s, const char *text, bool xor_bank,
                  bool xor_channel, const char *where, struct ws_err *e) {
    memset(m, 0, sizeof *m);
    m->xor_bank = xor_bank;
    m->xor_channel = xor_channel;
    m->offset_bits = log2u(dram_access_bytes(s));
    bool ch_pow2 = (s->channels & (s->channels - 1)) == 0;
    m->width[AF_CH] = ch_pow2 ? log2u(s->channels) : 0;
    m->width[AF_PC] = log2u(s->pseudo_channels);
    m->width[AF_RANK] = log2u(s->ranks);
    m->width[AF_BG] = log2u(s->bankgroups);
    m->width[AF_BANK] = log2u(s->banks_per_group);
    m->width[AF_ROW] = log2u(s->rows);
    m->width[AF_COL] = log2u(s->columns);
    if (strcasecmp(text, "usimm0") == 0) text = "row:col:rank:bank:ch";
    if (strcasecmp(text, "usimm1") == 0) text = "row:rank:bank:ch:col";

    unsigned used[AF_NFIELDS] = {0};
    bool bank_alias = false; /* a 'bank' token named bg and ba together */
    if (strchr(text, ':')) {
        /* field list, MSB first: walk it backwards, allocating bits from the LSB up */
        char buf[CFG_STR_MAX];
        snprintf(buf, sizeof buf, "%s", text);
        char *tok[16];
        unsigned ntok = 0;
        for (char *p = strtok(buf, ": "); p; p = strtok(NULL, ": ")) {
            if (ntok == 16)
                return ws_fail(e, "%s: address map '%s' has too many fields", where, text);
            tok[ntok++] = p;
        }
        unsigned bit = m->offset_bits;
        bool seen[AF_NFIELDS] = {false};
        for (unsigned i = ntok; i-- > 0;) {
            int fields[2], nf = 0;
            /* "col/2": only the next 2 bits of that field, so a field can be split around
             * another (a GPU's 128 B line inside one channel, channels above it). */
            unsigned take = 0;
            char *slash = strchr(tok[i], '/');
            if (slash) {
                char *end;
                long v = strtol(slash + 1, &end, 10);
                if (*end || v < 1 || v > 40)
                    return ws_fail(e, "%s: address map '%s': bad bit count in '%s'", where, text,
                                   tok[i]);
                take = (unsigned)v;
                *slash = 0;
            }
            if (strcasecmp(tok[i], "bank") == 0) {
                bank_alias = true;
                fields[nf++] = AF_BANK; /* bank = bank group (high) : bank in group (low) */
                fields[nf++] = AF_BG;
            } else {
                int f = -1;
                for (int k = 0; k < AF_NFIELDS; k++)
                    if (strcasecmp(tok[i], field_names[k]) == 0) f = k;
                if (strcasecmp(tok[i], "bank_in_group") == 0) f = AF_BANK;
                if (f < 0)
                    return ws_fail(e,
                                   "%s: address map '%s': unknown field '%s' (use row, rank, pc, "
                                   "bg, ba, bank, col, ch)",
                                   where, text, tok[i]);
                fields[nf++] = f;
            }
            if (take && (nf != 1 || fields[0] == AF_CH))
                return ws_fail(e, "%s: address map '%s': '%s' cannot be split", where, text,
                               tok[i]);
            for (int k = 0; k < nf; k++) {
                int f = fields[k];
                unsigned left = m->width[f] - used[f];
                if (seen[f] && !left)
                    return ws_fail(e, "%s: address map '%s' names '%s' twice%s", where, text,
                                   field_names[f],
                                   bank_alias && (f == AF_BG || f == AF_BANK)
                                       ? " ('bank' is bg and ba together)"
                                       : "");
                if (take > left)
                    return ws_fail(e, "%s: address map '%s': '%s' has only %u bits left", where,
                                   text, field_names[f], left);
                seen[f] = true;
                if (f == AF_CH && !ch_pow2) {
                    m->nch_mod = (uint32_t)s->channels;
                    m->ch_pos = bit;
                }
                unsigned nb = take ? take : left;
                for (unsigned b = 0; b < nb; b++) add_run(m, (unsigned)f, bit++, used[f]++);
            }
        }
        for (int f = 0; f < AF_NFIELDS; f++)
            if (seen[f] && used[f] != m->width[f])
                return ws_fail(e, "%s: address map '%s' leaves %u bits of '%s' unmapped", where,
                               text, m->width[f] - used[f], field_names[f]);
        for (int f = 0; f < AF_NFIELDS; f++)
            if (!seen[f] && m->width[f])
                return ws_fail(e, "%s: address map '%s' lacks field '%s' (%u bits needed)", where,
                               text, field_names[f], m->width[f]);
        m->total_bits = bit;
    } else {
        if (!ch_pow2)
            return ws_fail(e,
                           "%s: a bit-string address map needs a power-of-two channel count "
                           "(use a field list for %lld channels)",
                           where, (long long)s->channels);
        /* bit string, MSB first */
        char bits[128];
        unsigned n = 0;
        for (const char *p = text; *p; p++) {
            if (*p == '.' || *p == '|' || *p == ' ') continue;
            if (n == 64) return ws_fail(e, "%s: address map has more than 64 bits", where);
            bits[n++] = *p;
        }
        unsigned offset_seen = 0;
        for (unsigned i = 0; i < n; i++) {
            /* bits[0] is the most significant letter: walk from the least significant one so
             * each field's bits are numbered from its low end */
            unsigned bit = i;
            char ch = bits[n - 1 - i];
            if (ch == '0') continue;
            if (toupper((unsigned char)ch) == 'S') {
                offset_seen++;
                continue;
            }
            int f = field_of_letter(ch);
            if (f < 0)
                return ws_fail(e, "%s: address map: unknown letter '%c' (use R K P G B C H S 0)",
                               where, ch);
            add_run(m, (unsigned)f, bit, used[f]++);
            if (bit + 1 > m->total_bits) m->total_bits = bit + 1;
        }
        if (offset_seen > m->offset_bits)
            return ws_fail(e,
                           "%s: address map has %u burst-offset (S) bits but a burst is %lld bytes",
                           where, offset_seen, (long long)dram_access_bytes(s));
        /* S bits beyond the burst address columns inside a larger access, as GPGPU-Sim does */
        for (int f = 0; f < AF_NFIELDS; f++)
            if (used[f] != m->width[f])
                return ws_fail(e, "%s: address map has %u '%s' bits, the geometry needs %u", where,
                               used[f], field_names[f], m->width[f]);
    }
    /* decode's form of each run: mask in place, then one shift (a field bit never lies above its
     * address bit, since the burst offset and the field's lower bits come first) */
    for (unsigned i = 0; i < m->nrun; i++) {
        const struct addr_run *r = &m->run[i];
        m->run_mask[i] = ((1ULL << r->len) - 1) << r->src;
        m->run_shift[i] = (uint8_t)(r->src - r->dst);
    }
    /* the usual maps give every field at most one run: then decode is one mask and shift per
     * field, without the loop over runs (a field without bits keeps mask 0; `|=` keeps the channel
     * that a modulo map has already set) */
    unsigned nruns[AF_NFIELDS] = {0};
    m->one_run = true;
    for (unsigned i = 0; i < m->nrun; i++) {
        unsigned f = m->run[i].field;
        if (++nruns[f] > 1) m->one_run = false;
        m->field_mask[f] = m->run_mask[i];
        m->field_shift[f] = m->run_shift[i];
    }
    return 0;
}

int addr_map_configure(struct addr_map *m, const struct dram_spec *s, struct cfg *c,
                       struct ws_err *e) {
    /* the settings live inside the map, which outlives the config dump */
    struct addr_map_cfg *mc = &m->cfg;
    memset(mc, 0, sizeof *mc);
    if (cfg_bind(c, "addr", addr_map_keys, addr_map_nkeys, mc, e) != 0) return -1;
    char where[600];
    cfg_origin(c, "addr.map", where, sizeof where);
    struct addr_map_cfg keep = *mc;
    int rc = addr_map_init(m, s, keep.map, keep.xor_bank, keep.xor_channel, where, e);
    m->cfg = keep;
    return rc;
}

static uint32_t fold(uint64_t v, unsigned width) {
    if (!width) return 0;
    uint32_t r = 0, mask = (uint32_t)((1u << width) - 1);
    while (v) {
        r ^= (uint32_t)v & mask;
        v >>= width;
    }
    return r;
}

void addr_map_decode(const struct addr_map *m, uint64_t addr, struct dram_addr *out) {
    uint32_t f[AF_NFIELDS] = {0};
    if (m->nch_mod) {
        uint64_t lo = addr & ((1ULL << m->ch_pos) - 1), hi = addr >> m->ch_pos;
        f[AF_CH] = (uint32_t)(hi % m->nch_mod);
        addr = ((hi / m->nch_mod) << m->ch_pos) | lo;
    }
    if (m->one_run) {
#define FIELD(x) f[x] |= (uint32_t)((addr & m->field_mask[x]) >> m->field_shift[x])
        FIELD(AF_CH);
        FIELD(AF_PC);
        FIELD(AF_RANK);
        FIELD(AF_BG);
        FIELD(AF_BANK);
        FIELD(AF_ROW);
        FIELD(AF_COL);
#undef FIELD
    } else {
        for (unsigned i = 0; i < m->nrun; i++)
            f[m->run[i].field] |= (uint32_t)((addr & m->run_mask[i]) >> m->run_shift[i]);
    }
    if (m->xor_bank) {
        f[AF_BANK] ^= f[AF_ROW] & ((1u << m->width[AF_BANK]) - 1);
        f[AF_BG] ^= (f[AF_ROW] >> m->width[AF_BANK]) & ((1u << m->width[AF_BG]) - 1);
    }
    if (m->xor_channel) f[AF_CH] ^= fold(f[AF_ROW], m->width[AF_CH]);
    out->ch = f[AF_CH];
    out->pc = f[AF_PC];
    out->rank = f[AF_RANK];
    out->bg = f[AF_BG];
    out->bank = f[AF_BANK];
    out->row = f[AF_ROW];
    out->col = f[AF_COL];
}

uint64_t addr_map_encode(const struct addr_map *m, const struct dram_addr *a) {
    uint32_t f[AF_NFIELDS] = {a->ch, a->pc, a->rank, a->bg, a->bank, a->row, a->col};
    /* XOR hashing is an involution given the row, so undo it before placing the bits */
    if (m->xor_bank) {
        f[AF_BANK] ^= f[AF_ROW] & ((1u << m->width[AF_BANK]) - 1);
        f[AF_BG] ^= (f[AF_ROW] >> m->width[AF_BANK]) & ((1u << m->width[AF_BG]) - 1);
    }
    if (m->xor_channel) f[AF_CH] ^= fold(f[AF_ROW], m->width[AF_CH]);
    uint64_t addr = 0;
    for (unsigned i = 0; i < m->nrun; i++) {
        const struct addr_run *r = &m->run[i];
        addr |= (uint64_t)((f[r->field] >> r->dst) & ((1u << r->len) - 1)) << r->src;
    }
    if (m->nch_mod) {
        uint64_t lo = addr & ((1ULL << m->ch_pos) - 1), hi = addr >> m->ch_pos;
        addr = ((hi * m->nch_mod + f[AF_CH]) << m->ch_pos) | lo;
    }
    return addr;
}
