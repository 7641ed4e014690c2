/* libFuzzer target: GPGPU-Sim / Accel-Sim option text (a gpgpusim.config or an Accel-Sim log)
 * through the option reader and the importer, which parses the cache, DRAM timing, address
 * mapping and clock strings and writes the warpsim INI. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpgpusim_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = 0;
    struct ws_err e = {0};
    struct gs_opts *o = gs_opts_create();
    if (gs_opts_load_string(o, "fuzz.config", text, &e) == 0) {
        FILE *out = fopen("/dev/null", "w");
        if (!out) abort();
        unsigned nunmapped = 0;
        (void)gs_import(o, "fuzz", out, out, &nunmapped, &e);
        fclose(out);
    }
    gs_opts_destroy(o);
    free(text);
    return 0;
}
