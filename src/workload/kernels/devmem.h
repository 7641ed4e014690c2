/* Device memory of a built-in kernel model: cudaMalloc-style allocation in call order, each block
 * 256-byte aligned and placed right after the previous one, starting at GPGPU-Sim's global heap
 * start 0xC0000000 (GLOBAL_HEAP_START; GPGPU-Sim's cudaMalloc also rounds sizes up to 256 B), so
 * that addresses, and hence line, sector, channel and bank mappings, are those a
 * GPGPU-Sim run of the same program sees. Every block has zero-filled host backing, so kernel
 * models read and write real values (edge lists, masks, features) while they generate
 * instructions. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

enum { DEVMEM_ALIGN = 256 };
#define DEVMEM_BASE 0xC0000000ull

struct devmem;

struct devmem *devmem_create(uint64_t base);
void devmem_destroy(struct devmem *d);

/* cudaMalloc: returns the device address of a fresh zero-filled block of `bytes` (> 0), or 0
 * with a message naming `what` when it cannot be had. */
uint64_t devmem_alloc(struct devmem *d, uint64_t bytes, const char *what, struct ws_err *e);

/* Host view of [addr, addr + bytes): NULL unless the range lies inside one allocated block.
 * The pointer stays valid until devmem_destroy. */
void *devmem_host(struct devmem *d, uint64_t addr, uint64_t bytes);

/* The block holding addr, for callers that check many nearby addresses (a warp's lanes). */
struct devmem_span {
    uint64_t addr, bytes;
    uint8_t *host;
};
bool devmem_span(struct devmem *d, uint64_t addr, struct devmem_span *s);

/* Name of the block holding addr ("?" when none), for messages. */
const char *devmem_what(const struct devmem *d, uint64_t addr);

/* Next address cudaMalloc would return (the end of the heap, aligned). */
uint64_t devmem_top(const struct devmem *d);
/* Bytes allocated (sum of requested sizes). */
uint64_t devmem_bytes(const struct devmem *d);
