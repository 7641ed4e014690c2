/* Shared by the fuzz targets: the parsers under test read files by path (they detect gzip, xz
 * and zstd by magic), so each input is written to one scratch file per process first. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Writes data to a per-process scratch file named `suffix` and returns its path (static). */
static const char *fuzz_to_file(const uint8_t *data, size_t size, const char *suffix) {
    static char path[512];
    if (!path[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/warpsim-fuzz-%ld%s", dir && *dir ? dir : "/tmp",
                 (long)getpid(), suffix);
    }
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size && fwrite(data, 1, size, f) != size) abort();
    if (fclose(f)) abort();
    return path;
}
