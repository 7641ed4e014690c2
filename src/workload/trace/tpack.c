/* tpack: LEB128 varints, zigzag for signed values. Layout of one instruction:
 *   byte   cls (bits 0-3) | full mask (bit 4) | address form (bits 5-6: 0 none, 1 stride, 2 deltas)
 *   byte   OP_MEM only: space (bits 0-2) | mop (bits 3-4) | log2 width (bits 5-7)
 *   varint lat, ii; zigzag varint pc - previous pc; 4 bytes mask unless full
 *   byte   ndst << 4 | nsrc; varint (reg + 1) mod 2^16 per register (REG_NONE -> 0)
 *   form 1: varint first address, zigzag varint stride; form 2: varint first address, zigzag
 *   varint delta per further active lane. */
#include "workload/trace/tpack.h"

static size_t put_uv(uint8_t *p, uint64_t v) {
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}
static uint64_t get_uv(const uint8_t *p, size_t *pos) {
    uint64_t v = 0;
    unsigned sh = 0;
    uint8_t b;
    do {
        b = p[(*pos)++];
        v |= (uint64_t)(b & 0x7f) << sh;
        sh += 7;
    } while (b & 0x80);
    return v;
}
static uint64_t zz(int64_t v) {
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static int64_t unzz(uint64_t v) {
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}
static unsigned log2w(unsigned w) {
    unsigned l = 0;
    while ((1u << l) < w && l < 7) l++;
    return l;
}

size_t tpack_put(uint8_t *out, const struct inst *in, uint64_t *prev_pc) {
    size_t n = 2;
    bool full = in->active == 0xffffffffu;
    unsigned form = 0;
    uint64_t a[WARP_SIZE];
    unsigned k = 0;
    if (in->cls == OP_MEM) {
        for (unsigned l = 0; l < WARP_SIZE; l++)
            if (in->active >> l & 1) a[k++] = in->addr[l];
        form = 1;
        for (unsigned i = 2; i < k && form == 1; i++)
            if (a[i] - a[i - 1] != a[1] - a[0]) form = 2;
        if (k == 0) form = 0;
        out[1] = (uint8_t)((in->space & 7) | (in->mop & 3) << 3 | log2w(in->width) << 5);
    } else {
        n = 1;
    }
    out[0] = (uint8_t)((in->cls & 15) | (full ? 16 : 0) | form << 5);
    n += put_uv(out + n, in->lat);
    n += put_uv(out + n, in->ii);
    n += put_uv(out + n, zz((int64_t)(in->pc - *prev_pc)));
    *prev_pc = in->pc;
    if (!full)
        for (unsigned i = 0; i < 4; i++) out[n++] = (uint8_t)(in->active >> (8 * i));
    out[n++] = (uint8_t)(in->ndst << 4 | in->nsrc);
    for (unsigned i = 0; i < in->ndst; i++) n += put_uv(out + n, (uint16_t)(in->dst[i] + 1));
    for (unsigned i = 0; i < in->nsrc; i++) n += put_uv(out + n, (uint16_t)(in->src[i] + 1));
    if (form) {
        n += put_uv(out + n, a[0]);
        if (form == 1) {
            n += put_uv(out + n, zz(k > 1 ? (int64_t)(a[1] - a[0]) : 0));
        } else {
            for (unsigned i = 1; i < k; i++) n += put_uv(out + n, zz((int64_t)(a[i] - a[i - 1])));
        }
    }
    return n;
}

void tpack_get(const uint8_t *buf, size_t *pos, struct inst *in, uint64_t *prev_pc) {
    size_t p = *pos;
    uint8_t b0 = buf[p++];
    in->cls = b0 & 15;
    unsigned form = b0 >> 5 & 3;
    if (in->cls == OP_MEM) {
        uint8_t b1 = buf[p++];
        in->space = b1 & 7;
        in->mop = b1 >> 3 & 3;
        in->width = (uint8_t)(1u << (b1 >> 5));
    } else {
        in->space = in->mop = in->width = 0;
    }
    in->lat = (uint16_t)get_uv(buf, &p);
    in->ii = (uint16_t)get_uv(buf, &p);
    in->pc = *prev_pc + (uint64_t)unzz(get_uv(buf, &p));
    *prev_pc = in->pc;
    if (b0 & 16) {
        in->active = 0xffffffffu;
    } else {
        in->active = (uint32_t)buf[p] | (uint32_t)buf[p + 1] << 8 | (uint32_t)buf[p + 2] << 16 |
                     (uint32_t)buf[p + 3] << 24;
        p += 4;
    }
    uint8_t r = buf[p++];
    in->ndst = r >> 4;
    in->nsrc = r & 15;
    for (unsigned i = 0; i < in->ndst; i++) in->dst[i] = (uint16_t)(get_uv(buf, &p) - 1);
    for (unsigned i = 0; i < in->nsrc; i++) in->src[i] = (uint16_t)(get_uv(buf, &p) - 1);
    if (form) {
        uint64_t a = get_uv(buf, &p);
        int64_t stride = form == 1 ? unzz(get_uv(buf, &p)) : 0;
        bool first = true;
        for (unsigned l = 0; l < WARP_SIZE; l++) {
            if (!(in->active >> l & 1)) continue;
            if (!first) a += form == 1 ? (uint64_t)stride : (uint64_t)unzz(get_uv(buf, &p));
            in->addr[l] = a;
            first = false;
        }
    }
    *pos = p;
}
