/* Shared helpers for tests: in-memory configs, temporary files, running the CLI. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "base/cfg.h"

struct workload;

/* Config from INI text; fails the test on a parse error. */
struct cfg *tu_cfg(const char *ini);
/* tu_cfg(base), then `extra` (may be NULL) as a second file, whose keys override base's (a key
 * twice in one file is an error). */
struct cfg *tu_cfg2(const char *base, const char *extra);
/* Writes text to a fresh temporary file and returns its path (static buffer per call slot). */
const char *tu_tmpfile(const char *name, const char *text);
/* Runs `warpsim <args>` (the built binary), capturing stderr+stdout into *out (malloc'd).
 * Returns the exit status. */
int tu_run_cli(const char *args, char **out);
bool tu_file_exists(const char *path);
/* workload_create() on the INI text; fails the test when it fails or leaves a key unclaimed. */
struct workload *tu_workload(const char *ini);
/* workload_create() on the INI text must fail with an error containing msg (the two are printed
 * when it does not). */
void tu_expect_workload_error(const char *ini, const char *msg);
/* The whole file as a NUL-terminated string (malloc'd), or NULL when it cannot be opened;
 * *len (may be NULL) gets its size. */
char *tu_slurp(const char *path, size_t *len);
