/* Result files are written whole or not at all: to "<path>.tmp", then renamed into place. */
#pragma once

#include <jansson.h>
#include <stddef.h>

#include "base/err.h"

int ws_write_json_atomic(const char *path, const json_t *j, struct ws_err *e);
/* The same for text (tables, scripts, reports). */
int ws_write_text_atomic(const char *path, const char *text, size_t len, struct ws_err *e);
/* Before a long run: whether `path` can be written at its end (its folder exists and takes new
 * files, it is not a folder); errors name the path the user gave. */
int ws_check_output(const char *path, struct ws_err *e);
