/* libFuzzer target: a warpsim INI file loaded and bound to the memory system's keys (DRAM
 * preset and timing, address map, controller), i.e. what `warpsim dram -c FILE` checks before
 * simulating. Any input must end in a clean "file:line:" error or a memory system. */
#include "base/cfg.h"
#include "fuzz_input.h"
#include "mem/memsys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_to_file(data, size, ".ini");
    struct cfg *c = cfg_create();
    if (!c) return 0;
    struct ws_err e = {0};
    if (cfg_load_ini(c, path, &e) == 0) {
        struct memsys *ms = memsys_create(c, &e);
        if (ms) memsys_destroy(ms);
    }
    cfg_destroy(c);
    return 0;
}
