/* Memory coalescing: the active lanes of one warp instruction become one request per 128-byte
 * line, each with the mask of 32-byte sectors its lanes touch. A pure function, shared by the
 * LDST unit and by anything that wants to know how many requests an instruction will make. */
#pragma once

#include <stdint.h>

/* A lane access can straddle a line boundary, so a warp touches at most 2 lines per lane. */
enum { COAL_MAX_LINES = 64 };

struct coal_line {
    uint64_t line;   /* line-aligned byte address */
    uint8_t sectors; /* bit i: sector i of the line is touched */
};

/* Coalesces the lanes set in `active` (lane i reads/writes bytes [addr[i], addr[i] + width)).
 * `line` and `sector` are powers of two with line / sector <= 8 and width <= line (so a lane
 * touches at most 2 lines). Lines come out in the order of
 * the first lane that touches them. Returns the number of lines written to out[]. A width of 0
 * counts as 1 byte. */
unsigned coalesce(const uint64_t *addr, uint32_t active, unsigned width, unsigned line,
                  unsigned sector, struct coal_line out[COAL_MAX_LINES]);
