/* Compact in-memory form of trace instructions: a CTA's instructions are held between its start
 * and its warps' fetches as a byte stream (about 8 bytes for an ALU instruction, 15-25 for a
 * coalesced memory one) instead of struct inst (300 bytes with its 32 lane addresses), and decoded
 * back into exactly the same struct inst on demand. Lane addresses are kept as base + stride when
 * they are evenly spaced, else as base + varint deltas. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "workload/workload.h"

/* Largest encoding of one instruction (for reserving room before tpack_put). */
enum { TPACK_MAX = 512 };

/* Appends `in` (addresses of its active lanes when it is OP_MEM) at out[0..]; returns the bytes
 * written (<= TPACK_MAX). `prev_pc` is the previous instruction's PC in the same stream (PCs are
 * stored as differences); it is updated. */
size_t tpack_put(uint8_t *out, const struct inst *in, uint64_t *prev_pc);
/* Decodes the instruction at buf[*pos] into *in and advances *pos. Lanes outside the active
 * mask keep whatever in->addr held. */
void tpack_get(const uint8_t *buf, size_t *pos, struct inst *in, uint64_t *prev_pc);
