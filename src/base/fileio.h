/* Result files are written whole or not at all: to "<path>.tmp", then renamed into place. */
#pragma once

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "base/err.h"

int ws_write_json_atomic(const char *path, const json_t *j, struct ws_err *e);
/* The same for text (tables, scripts, reports). */
int ws_write_text_atomic(const char *path, const char *text, size_t len, struct ws_err *e);
/* Before a long run: whether `path` can be written at its end (its folder exists and takes new
 * files, it is not a folder); errors name the path the user gave. */
int ws_check_output(const char *path, struct ws_err *e);
/* Whether writing `out` would overwrite the input `in` (the same file by another name too);
 * `what` names the input in the message ("the configuration", "the trace's kernel list"). */
int ws_check_not_input(const char *out, const char *in, const char *what, struct ws_err *e);
/* Whether `out` names a file that exists inside the input folder `dir` (the caller checks that
 * its name is one of the inputs', e.g. an Accel-Sim trace's kernel list): writing it would
 * change the input. */
int ws_check_not_in_folder(const char *out, const char *dir, const char *what, struct ws_err *e);
/* The folder a path's file is in ("." for a bare name, "/" for "/x"). */
void ws_parent_dir(const char *path, char *buf, size_t n);
/* Opens an input file for reading ("rb"): a missing file or a folder is an error naming it. */
FILE *ws_open_input(const char *path, struct ws_err *e);
