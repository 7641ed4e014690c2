/* Line reader for text inputs (traces, USIMM .cfg/.vi files): plain, gzip (zlib), xz (liblzma)
 * or zstd (libzstd), recognised by the file's magic bytes rather than its name, and decompressed
 * in fixed-size chunks, so memory does not grow with the file. Tracks the line number for errors.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

struct ws_lines;

/* How a file is stored, from its first bytes. */
enum ws_comp { WS_COMP_PLAIN, WS_COMP_GZIP, WS_COMP_XZ, WS_COMP_ZSTD };

/* Longest line accepted (bytes, without the newline). */
enum { WS_LINE_MAX = 65536 };

struct ws_lines *ws_lines_open(const char *path, struct ws_err *e);
/* Returns the next line without its newline (and without a trailing '\r'), or NULL at end of file
 * or on error (then *e is set and ws_lines_failed() is true). The pointer is valid until the next
 * call. A line longer than WS_LINE_MAX is an error; so is a compressed file that ends early. */
const char *ws_lines_next(struct ws_lines *l, struct ws_err *e);
bool ws_lines_failed(const struct ws_lines *l);
long ws_lines_lineno(const struct ws_lines *l);
const char *ws_lines_path(const struct ws_lines *l);
enum ws_comp ws_lines_comp(const struct ws_lines *l);
const char *ws_comp_name(enum ws_comp c); /* "plain", "gzip", "xz", "zstd" */
void ws_lines_close(struct ws_lines *l);
