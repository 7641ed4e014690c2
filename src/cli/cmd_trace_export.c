/* `warpsim trace-export`: writes a built-in workload as an Accel-Sim trace folder
 * (workload/trace/trace_export.h) that `warpsim run -t` replays with the same result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gpu/gpu.h"
#include "workload/trace/trace_export.h"
#include "workload/workload.h"

static const char usage[] =
    "usage: warpsim trace-export -w WORKLOAD [-c CONFIG] [--size test|paper]\n"
    "                            [--set section.key=value]... [--binary-version N] [-q] -o DIR\n"
    "  WORKLOAD  a built-in workload (warpsim list workloads)\n"
    "  CONFIG    machine preset whose keys are checked as `run` checks them, and where\n"
    "            workload keys may be set; optional\n"
    "  N         the headers' binary version (default 70); the replay times instructions\n"
    "            with the machine's per-class latencies whatever it is\n"
    "  DIR       output folder (created with its parents if missing): kernelslist.g,\n"
    "            kernel-N.traceg; an earlier trace's kernel files there are replaced\n";

struct export_opts {
    struct cli_common common;
    bool quiet;
    uint32_t binary_version;
    char setbuf[2][300];
    int nsetbuf;
};

static int add_set(struct export_opts *o, const char *opt, const char *key, const char *val,
                   struct ws_err *e) {
    if (o->nsetbuf == 2 || o->common.nsets == 256) return ws_fail(e, "too many options");
    snprintf(o->common.set_origin[o->common.nsets], sizeof o->common.set_origin[0], "%s", opt);
    snprintf(o->setbuf[o->nsetbuf], sizeof o->setbuf[0], "%s=%s", key, val);
    o->common.sets[o->common.nsets++] = o->setbuf[o->nsetbuf++];
    return 0;
}

static int parse(struct export_opts *o, int argc, char **argv, struct ws_err *e) {
    bool have_w = false;
    o->binary_version = 70;
    for (int i = 2; i < argc; i++) {
        int r = cli_common_opt(&o->common, argc, argv, &i, e);
        if (r < 0) return -1;
        if (r > 0) continue;
        const char *a = argv[i];
        if (strcmp(a, "-w") == 0 || strcmp(a, "--workload") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs a workload name", a);
            if (strcmp(argv[i + 1], "trace") == 0)
                return ws_fail(e, "trace-export: -w names a built-in workload, not 'trace'");
            if (add_set(o, a, "workload.name", argv[++i], e)) return -1;
            have_w = true;
        } else if (strcmp(a, "--size") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs test or paper", a);
            if (add_set(o, a, "workload.size", argv[++i], e)) return -1;
        } else if (strcmp(a, "--binary-version") == 0) {
            char *end;
            if (i + 1 >= argc) return ws_fail(e, "%s needs a number", a);
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || end == argv[i] || v > 1000)
                return ws_fail(e, "%s: '%s' is not a binary version such as 70", a, argv[i]);
            o->binary_version = (uint32_t)v;
        } else if (strcmp(a, "-q") == 0) {
            o->quiet = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            exit(0);
        } else {
            return ws_fail(e, "trace-export: unknown option '%s'\n%s", a, usage);
        }
    }
    if (!have_w) return ws_fail(e, "trace-export: give a workload with -w NAME\n%s", usage);
    if (!o->common.out_path) return ws_fail(e, "trace-export: give the output folder with -o DIR");
    return 0;
}

int cmd_trace_export(int argc, char **argv) {
    struct export_opts o;
    memset(&o, 0, sizeof o);
    struct ws_err e = {{0}};
    if (parse(&o, argc, argv, &e) != 0) return cli_fail(&e, WS_EXIT_USAGE);
    struct cfg *c = cfg_create();
    struct gpu *g = NULL;
    struct workload *w = NULL;
    int code = WS_EXIT_INPUT;
    if (cli_load_config(&o.common, c, &e) != 0) goto out;
    /* The machine's keys are bound (and so checked) as a run would, then not needed. */
    if (o.common.config_path && !(g = gpu_create(c, &e))) goto out;
    if (!(w = workload_create(c, &e))) goto out;
    if (cfg_check_unclaimed(c, &e) != 0) goto out;
    struct trace_export_opts xo = {.binary_version = o.binary_version};
    struct trace_export_stats st;
    if (trace_export(w, o.common.out_path, &xo, &st, &e) != 0) goto out;
    if (!o.quiet)
        printf("warpsim trace-export: %s -> %s: %llu kernels, %llu CTAs, %llu warp instructions, "
               "%llu copies, %.1f MB\n",
               w->name, o.common.out_path, (unsigned long long)st.kernels,
               (unsigned long long)st.ctas, (unsigned long long)st.insts,
               (unsigned long long)st.copies, (double)st.bytes / 1e6);
    code = WS_EXIT_OK;
out:
    if (code != WS_EXIT_OK) cli_fail(&e, code);
    if (w) w->vt->destroy(w);
    gpu_destroy(g);
    cfg_destroy(c);
    return code;
}
