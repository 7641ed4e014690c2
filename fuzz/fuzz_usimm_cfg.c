/* libFuzzer target: USIMM's own configuration, a system .cfg plus the chip .vi file its channel
 * and core counts select, imported into warpsim's settings and built into a memory system (what
 * `warpsim dram -c 1channel.cfg` does before simulating). The input is the .cfg text, then an
 * optional 0 byte and the .vi text, which is written under every .vi name USIMM can choose; the
 * first byte (mod 16) + 1 is the number of traces (cores). Any input must end in a clean
 * "file:line:" error or a memory system. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cfg.h"
#include "mem/drive/usimm_cfg.h"
#include "mem/memsys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put(const char *dir, const char *name, const uint8_t *data, size_t size) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size && fwrite(data, 1, size, f) != size) abort();
    if (fclose(f)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *const vi[] = {"1Gb_x4.vi", "2Gb_x4.vi", "4Gb_x4.vi", "1Gb_x16.vi",
                                     "1Gb_x8.vi", "2Gb_x8.vi", "4Gb_x8.vi"};
    static char dir[512];
    if (!size) return 0;
    if (!dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/warpsim-fuzz-usimm-%ld", t && *t ? t : "/tmp",
                 (long)getpid());
        mkdir(dir, 0700);
    }
    int cores = data[0] % 16 + 1;
    data++, size--;
    const uint8_t *sep = memchr(data, 0, size);
    size_t ncfg = sep ? (size_t)(sep - data) : size;
    put(dir, "system.cfg", data, ncfg);
    for (size_t i = 0; i < sizeof vi / sizeof vi[0]; i++)
        put(dir, vi[i], sep ? sep + 1 : data, sep ? size - ncfg - 1 : 0);
    char path[600];
    snprintf(path, sizeof path, "%s/system.cfg", dir);
    struct cfg *c = cfg_create();
    if (!c) return 0;
    struct ws_err e = {0};
    if (usimm_cfg_load(c, path, cores, &e) == 0) {
        struct memsys *ms = memsys_create(c, &e);
        if (ms) memsys_destroy(ms);
    }
    cfg_destroy(c);
    return 0;
}
