/* trace-info: drives the trace workload without timing and tallies what it yields. */
#include "workload/trace/trace_info.h"

#include <string.h>

#include "workload/trace/trace.h"

enum { LINE = 128, SECTOR = 32 };

static const char *const class_name[OP_NCLASS] = {"INT",    "SP",  "DP",  "SFU", "TENSOR",
                                                  "BRANCH", "BAR", "MEM", "EXIT"};
static const char *const space_name[SPACE_TEX + 1] = {"-",      "global", "local",
                                                      "shared", "const",  "tex"};

/* Distinct 128-byte lines and 32-byte sectors touched by the active lanes of a memory
 * instruction (a lane may straddle a line). */
static void footprint(const struct inst *in, uint64_t *lines, uint64_t *sectors) {
    uint64_t line[2 * WARP_SIZE];
    uint8_t mask[2 * WARP_SIZE];
    unsigned n = 0;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        if (!(in->active >> l & 1)) continue;
        uint64_t first = in->addr[l], last = first + (in->width ? in->width : 1) - 1;
        for (uint64_t s = first / SECTOR; s <= last / SECTOR; s++) {
            uint64_t ln = s * SECTOR / LINE;
            unsigned i = 0;
            while (i < n && line[i] != ln) i++;
            if (i == n) {
                if (n == 2 * WARP_SIZE) break;
                line[n] = ln;
                mask[n++] = 0;
            }
            mask[i] |= (uint8_t)(1u << (s % (LINE / SECTOR)));
        }
    }
    *lines += n;
    for (unsigned i = 0; i < n; i++) *sectors += (uint64_t)__builtin_popcount(mask[i]);
}

static void add(struct trace_info_sum *a, const struct trace_info_sum *b) {
    uint64_t *x = (uint64_t *)a;
    const uint64_t *y = (const uint64_t *)b;
    for (size_t i = 0; i < sizeof *a / sizeof(uint64_t); i++) x[i] += y[i];
}

static void print_body(FILE *out, const struct trace_info_sum *s) {
    fprintf(out, "  instructions  %llu warp instructions in %llu warps of %llu thread blocks",
            (unsigned long long)s->insts, (unsigned long long)s->warps_in_file,
            (unsigned long long)s->ctas_in_file);
    if (s->ctas > s->ctas_in_file)
        fprintf(out, " (%llu CTAs of the grid have no trace)",
                (unsigned long long)(s->ctas - s->ctas_in_file));
    fputc('\n', out);
    if (s->synthetic_exits)
        fprintf(out, "                %llu warps do not end in EXIT: one is appended to each\n",
                (unsigned long long)s->synthetic_exits);
    fprintf(out, "  by class     ");
    for (unsigned c = 0; c < OP_NCLASS; c++)
        if (s->by_class[c])
            fprintf(out, " %s %llu (%.1f%%)", class_name[c], (unsigned long long)s->by_class[c],
                    s->insts ? 100.0 * (double)s->by_class[c] / (double)s->insts : 0.0);
    fputc('\n', out);
    fprintf(out, "  memory        %llu instructions: %llu loads, %llu stores, %llu atomics;",
            (unsigned long long)s->mem_insts, (unsigned long long)s->loads,
            (unsigned long long)s->stores, (unsigned long long)s->atomics);
    const char *sep = " ";
    for (unsigned sp = 1; sp <= SPACE_TEX; sp++)
        if (s->by_space[sp]) {
            fprintf(out, "%s%s %llu", sep, space_name[sp], (unsigned long long)s->by_space[sp]);
            sep = ", ";
        }
    fputc('\n', out);
    if (s->mem_active)
        fprintf(out,
                "                per global/local/const/tex warp instruction with active lanes: "
                "%.2f lines (128 B), %.2f sectors (32 B)\n",
                (double)s->lines / (double)s->mem_active,
                (double)s->sectors / (double)s->mem_active);
    if (s->unknown_insts)
        fprintf(out,
                "  unknown       %llu instructions with opcodes not in the table (run as INT)\n",
                (unsigned long long)s->unknown_insts);
}

static void ignore_warn(void *ctx, const char *msg) {
    (void)ctx;
    (void)msg;
}

int trace_info(const char *path, FILE *out, struct trace_info_sum *sum, struct ws_err *e) {
    struct trace_opts o = {.opcode_latency = true};
    if (strlen(path) >= sizeof o.path) return ws_fail(e, "%s: path too long", path);
    strcpy(o.path, path);
    struct workload *w = trace_open(&o, e);
    if (!w) return -1;
    trace_set_warn(w, ignore_warn, NULL); /* listed at the end instead */
    const struct trace_stats *st = trace_get_stats(w);
    struct trace_info_sum tot;
    memset(&tot, 0, sizeof tot);
    struct kernel_desc k;
    struct wl_warp *warps[1024 / WARP_SIZE];
    struct inst in;
    int rc;
    if (out) fprintf(out, "trace %s\n", path);
    while ((rc = w->vt->next_kernel(w, &k, e)) == 1) {
        const struct tg_header *h = trace_kernel_header(w);
        struct trace_info_sum s;
        memset(&s, 0, sizeof s);
        struct trace_stats before = *st;
        s.kernels = 1;
        s.copies = k.ncopies;
        for (uint32_t i = 0; i < k.ncopies; i++) s.copy_bytes += k.copies[i].bytes;
        uint32_t nw = (k.threads + WARP_SIZE - 1) / WARP_SIZE;
        for (uint64_t cta = 0; cta < k.ncta; cta++) {
            if (w->vt->cta_start(w, cta, warps, e)) goto fail;
            for (uint32_t i = 0; i < nw; i++) {
                do {
                    if (w->vt->warp_next(w, warps[i], &in, e)) goto fail;
                    s.by_class[in.cls]++;
                    if (in.cls != OP_MEM) continue;
                    s.mem_insts++;
                    s.by_space[in.space]++;
                    s.loads += in.mop == MOP_LOAD;
                    s.stores += in.mop == MOP_STORE;
                    s.atomics += in.mop == MOP_ATOMIC;
                    if (in.space != SPACE_SHARED && in.active) {
                        s.mem_active++;
                        footprint(&in, &s.lines, &s.sectors);
                    }
                } while (in.cls != OP_EXIT);
            }
            w->vt->cta_end(w, cta, warps);
        }
        s.ctas = k.ncta;
        s.ctas_in_file = st->ctas_in_file - before.ctas_in_file;
        s.warps_in_file = st->warps_in_file - before.warps_in_file;
        s.insts = st->file_insts - before.file_insts;
        s.synthetic_exits = st->synthetic_exits - before.synthetic_exits;
        s.by_class[OP_EXIT] -= s.synthetic_exits;
        s.unknown_insts = st->unknown_insts - before.unknown_insts;
        if (out) {
            fprintf(out, "kernel %u: %s\n", k.id + 1, h->name);
            fprintf(out, "  file          %s (%s), trace kernel id %u, tracer version %d%s\n",
                    trace_kernel_path(w), trace_kernel_comp(w), h->kernel_id, h->version,
                    h->version ? "" : " (legacy, none given)");
            fprintf(out, "  binary        sm_%u: %s; nvbit %s%s\n", h->binary_version,
                    trace_kernel_arch(w), h->nvbit[0] ? h->nvbit : "?",
                    h->machine_timing ? "; unit timing: the machine's, per class" : "");
            fprintf(out,
                    "  launch        grid (%u,%u,%u) = %llu CTAs, block (%u,%u,%u) = %u threads "
                    "(%u warps), shmem %u B, %u registers/thread, stream %llu\n",
                    k.grid[0], k.grid[1], k.grid[2], (unsigned long long)k.ncta, k.block[0],
                    k.block[1], k.block[2], k.threads, nw, k.smem, k.regs,
                    (unsigned long long)h->stream_id);
            if (k.ncopies)
                fprintf(out, "  copies        %u MemcpyHtoD before the launch, %llu bytes\n",
                        k.ncopies, (unsigned long long)s.copy_bytes);
            print_body(out, &s);
        }
        add(&tot, &s);
    }
    if (rc < 0) goto fail;
    if (out) {
        fprintf(out, "total: %llu kernels, %llu CTAs\n", (unsigned long long)tot.kernels,
                (unsigned long long)tot.ctas);
        print_body(out, &tot);
        for (unsigned i = 0; i < trace_unknown_count(w); i++) {
            const struct trace_unknown *u = trace_unknown_get(w, i);
            fprintf(out, "  unknown opcode %s: %llu instructions, first at %s\n", u->name,
                    (unsigned long long)u->count, u->where);
        }
    }
    if (sum) *sum = tot;
    w->vt->destroy(w);
    return 0;
fail:
    w->vt->destroy(w);
    return -1;
}
