/* Line reader for text inputs (traces, USIMM .cfg/.vi files): plain or gzip, read through zlib in
 * fixed-size chunks, so memory does not grow with the file. Tracks the line number for errors. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

struct ws_lines;

struct ws_lines *ws_lines_open(const char *path, struct ws_err *e);
/* Returns the next line without its newline (and without a trailing '\r'), or NULL at end of file
 * or on error (then *e is set and ws_lines_failed() is true). The pointer is valid until the next
 * call. A line longer than the internal limit is an error. */
const char *ws_lines_next(struct ws_lines *l, struct ws_err *e);
bool ws_lines_failed(const struct ws_lines *l);
long ws_lines_lineno(const struct ws_lines *l);
const char *ws_lines_path(const struct ws_lines *l);
void ws_lines_close(struct ws_lines *l);
