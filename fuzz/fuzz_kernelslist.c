/* libFuzzer target: a kernelslist.g command list (copies, kernel lines, other lines). Kernel
 * lines name files relative to the list's folder, which mostly do not exist: that is an error
 * at the line, never a crash. */
#include "fuzz_input.h"
#include "workload/trace/kernelslist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_to_file(data, size, ".g");
    struct ws_err e = {0};
    struct kl *k = kl_load(path, &e);
    if (k) kl_free(k);
    return 0;
}
