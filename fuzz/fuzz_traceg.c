/* libFuzzer target: a kernel-N.traceg file (header, thread-block bodies, instruction lines of
 * every tracer version, compressed or not) through the reader and the line parser, with each
 * opcode looked up as the trace workload does. Any input must end in a clean error or EOF. */
#include <string.h>

#include "fuzz_input.h"
#include "workload/trace/opcodes.h"
#include "workload/trace/traceg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_to_file(data, size, ".traceg");
    struct ws_err e = {0};
    struct traceg *t = tg_open(path, &e);
    if (!t) return 0;
    const struct trace_arch *arch = trace_arch_find(tg_header(t)->binary_version);
    struct tg_event ev;
    struct tg_line ln;
    while (tg_next(t, &ev, &e) == 0 && ev.type != TG_EOF) {
        if (ev.type != TG_INST || tg_parse(t, ev.line, &ln, &e) != 0) continue;
        struct trace_op op;
        if (arch) (void)trace_op_lookup(arch, ln.op, ln.oplen, &op);
        (void)trace_op_width(ln.op, ln.oplen);
    }
    tg_close(t);
    return 0;
}
