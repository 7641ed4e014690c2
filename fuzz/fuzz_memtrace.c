/* libFuzzer target: a CPU memory trace (USIMM, or a simple address trace with or without cycles;
 * the first byte picks auto-detection or a fixed format) read to its end. Any input must end in
 * a clean "path:line:" error or EOF. */
#include "fuzz_input.h"
#include "mem/drive/memtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!size) return 0;
    static const enum memtrace_fmt fmts[] = {MEMTRACE_AUTO, MEMTRACE_USIMM, MEMTRACE_ADDR};
    enum memtrace_fmt fmt = fmts[data[0] % 3];
    const char *path = fuzz_to_file(data + 1, size - 1, ".trc");
    struct ws_err e = {0};
    struct memtrace *t = memtrace_open(path, fmt, &e);
    if (!t) return 0;
    struct memtrace_rec r;
    while (memtrace_next(t, &r, &e) == 1) {
    }
    memtrace_close(t);
    return 0;
}
