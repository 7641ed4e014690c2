/* `warpsim compare`: one workload on one machine under several values of one config key (most
 * often mc.policy), run one after the other in this process, printed side by side with each
 * figure's ratio to the first value — the quick look before a sweep. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gpu/gpu.h"

static const char usage[] =
    "usage: warpsim compare [-c CONFIG] (-w WORKLOAD | -t TRACE) [--size test|paper]\n"
    "                       [--set section.key=value]... KEY=VALUE1,VALUE2[,...]\n"
    "  e.g. warpsim compare -w kmeans --size paper mc.policy=frfcfs,warped-mc\n";

enum { MAX_VALUES = 8 };

struct cmp_opts {
    struct cli_common common;
    const char *extra[4];
    const char *extra_origin[4]; /* the option that set each */
    int nextra;
    char extra_buf[4][300];
    char key[128];
    char values[MAX_VALUES][128];
    int nvalues;
};

static int add_extra(struct cmp_opts *o, const char *opt, const char *key, const char *val,
                     struct ws_err *e) {
    if (o->nextra == 4) return ws_fail(e, "compare: too many options");
    snprintf(o->extra_buf[o->nextra], sizeof o->extra_buf[0], "%s=%s", key, val);
    o->extra[o->nextra] = o->extra_buf[o->nextra];
    o->extra_origin[o->nextra] = opt;
    o->nextra++;
    return 0;
}

static int parse_axis(struct cmp_opts *o, const char *a, struct ws_err *e) {
    const char *eq = strchr(a, '=');
    if (!eq || eq == a || (size_t)(eq - a) >= sizeof o->key)
        return ws_fail(e, "compare: '%s' is not KEY=VALUE1,VALUE2", a);
    memcpy(o->key, a, (size_t)(eq - a));
    o->key[eq - a] = 0;
    const char *p = eq + 1;
    while (*p) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (!len || len >= sizeof o->values[0])
            return ws_fail(e, "compare: '%s': empty or too long value", a);
        if (o->nvalues == MAX_VALUES) return ws_fail(e, "compare: at most %d values", MAX_VALUES);
        memcpy(o->values[o->nvalues], p, len);
        o->values[o->nvalues++][len] = 0;
        p += len + (c ? 1 : 0);
        if (c && !*p) return ws_fail(e, "compare: '%s': empty value after ','", a);
    }
    if (o->nvalues < 2) return ws_fail(e, "compare: '%s' needs at least two values", a);
    return 0;
}

static int parse(struct cmp_opts *o, int argc, char **argv, struct ws_err *e) {
    bool have_w = false;
    for (int i = 2; i < argc; i++) {
        int r = cli_common_opt(&o->common, argc, argv, &i, e);
        if (r < 0) return -1;
        if (r > 0) {
            if (o->common.out_path) return ws_fail(e, "compare: -o is not an option here");
            continue;
        }
        const char *a = argv[i];
        if (strcmp(a, "-w") == 0 || strcmp(a, "-t") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs a value", a);
            if (have_w) return ws_fail(e, "compare: one workload at a time");
            have_w = true;
            if (add_extra(o, a, "workload.name", a[1] == 'w' ? argv[i + 1] : "trace", e) != 0)
                return -1;
            if (a[1] == 't' && add_extra(o, a, "workload.trace.path", argv[i + 1], e) != 0)
                return -1;
            i++;
        } else if (strcmp(a, "--size") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs test or paper", a);
            if (add_extra(o, a, "workload.size", argv[++i], e) != 0) return -1;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            exit(0);
        } else if (a[0] != '-' && !o->nvalues) {
            if (parse_axis(o, a, e) != 0) return -1;
        } else {
            return ws_fail(e, "compare: unexpected argument '%s'\n%s", a, usage);
        }
    }
    if (!have_w) return ws_fail(e, "compare: give a workload with -w NAME or -t TRACE\n%s", usage);
    if (!o->nvalues) return ws_fail(e, "compare: give KEY=VALUE1,VALUE2\n%s", usage);
    if (!o->common.config_path) o->common.config_path = "rtx2060s";
    return 0;
}

struct fig {
    const char *label;
    size_t off; /* double field of gpu_summary, or SIZE_MAX for cycles */
    const char *fmt;
};

#define F(f) offsetof(struct gpu_summary, f)
static const struct fig figs[] = {
    {"cycles", SIZE_MAX, "%.0f"},
    {"IPC", F(ipc), "%.2f"},
    {"off-chip accesses per load warp", F(offchip_per_load), "%.2f"},
    {"latency divergence (mean, cycles)", F(lat_div_mean), "%.1f"},
    {"divergence in controllers (In-MC)", F(lat_div_in_mc_share), "%.3f"},
    {"load-warp execution time (mean)", F(load_time_mean), "%.1f"},
    {"DRAM row-buffer hit rate", F(dram_row_hit_rate), "%.3f"},
    {"DRAM bandwidth / peak", F(dram_bw_share), "%.3f"},
    {"DRAM read latency (ns)", F(dram_avg_read_lat_ns), "%.1f"},
    {"energy (J)", F(energy_j), "%.4g"},
    {"energy-delay product (J s)", F(edp_js), "%.4g"},
};
#undef F

static double fig_value(const struct fig *f, const struct gpu_summary *s) {
    if (f->off == SIZE_MAX) return (double)s->cycles;
    double v;
    memcpy(&v, (const char *)s + f->off, sizeof v);
    return v;
}

/* Builds run k (0-based) of o, and simulates it when s is not NULL; an error names the run as
 * the user counts them (the value's own setting is "run #N" already). */
static int run_k(const struct cmp_opts *o, int k, struct gpu_summary *s, char *machine, size_t n,
                 struct ws_err *e) {
    char kv[300], run[24];
    snprintf(kv, sizeof kv, "%s=%s", o->key, o->values[k]);
    snprintf(run, sizeof run, "run #%d", k + 1);
    const char *extra[5], *origin[5];
    for (int i = 0; i < o->nextra; i++) extra[i] = o->extra[i], origin[i] = o->extra_origin[i];
    extra[o->nextra] = kv;
    origin[o->nextra] = run;
    if (s) fprintf(stderr, "  compare: %s ...\n", kv);
    if (cli_simulate(&o->common, extra, origin, o->nextra + 1, s, machine, n, e) == 0) return 0;
    size_t len = strlen(run);
    if (strncmp(e->msg, run, len) != 0 || e->msg[len] != ':') {
        char msg[sizeof e->msg];
        memcpy(msg, e->msg, sizeof msg);
        ws_fail(e, "%s: %s", run, msg);
    }
    return -1;
}

int cmd_compare(int argc, char **argv) {
    static struct cmp_opts o;
    memset(&o, 0, sizeof o);
    struct ws_err e = {{0}};
    if (parse(&o, argc, argv, &e) != 0) return cli_fail(&e, WS_EXIT_USAGE);
    struct gpu_summary s[MAX_VALUES];
    char machine[64] = "";
    /* every run's settings are checked before the first starts: a typo in the last value must
     * not cost the time of the others. A --set key that only some runs read (a policy's own
     * key, mc.wg.window with mc.policy=frfcfs,warp-group) applies to those; one that no run
     * reads is the usual unknown-key error. */
    static bool read[MAX_VALUES][sizeof o.common.sets / sizeof o.common.sets[0]];
    for (int k = 0; k < o.nvalues; k++) {
        o.common.set_read = read[k];
        if (run_k(&o, k, NULL, NULL, 0, &e) != 0) return cli_fail(&e, WS_EXIT_INPUT);
    }
    for (int i = 0; i < o.common.nsets; i++) {
        char readers[160] = "";
        int n = 0;
        for (int k = 0; k < o.nvalues; k++)
            if (read[k][i]) {
                size_t len = strlen(readers);
                snprintf(readers + len, sizeof readers - len, "%s%d", n++ ? ", #" : "#", k + 1);
            }
        if (!n) {
            o.common.set_read = NULL; /* the error, as a single run reports it */
            if (run_k(&o, 0, NULL, NULL, 0, &e) != 0) return cli_fail(&e, WS_EXIT_INPUT);
        } else if (n < o.nvalues) {
            fprintf(stderr, "  compare: --set %s is read by run%s %s only\n", o.common.sets[i],
                    n > 1 ? "s" : "", readers);
        }
    }
    o.common.set_read = read[0]; /* scratch: the simulations only need the leniency */
    for (int k = 0; k < o.nvalues; k++)
        if (run_k(&o, k, &s[k], machine, sizeof machine, &e) != 0)
            return cli_fail(&e, WS_EXIT_INPUT);
    const char *wl = "?";
    for (int k = 0; k < o.nextra; k++)
        if (!strncmp(o.extra_buf[k], "workload.name=", strlen("workload.name=")))
            wl = o.extra_buf[k] + strlen("workload.name=");
    printf("warpsim compare: %s on %s, %s =", wl, machine, o.key);
    for (int k = 0; k < o.nvalues; k++) printf(" %s%s", o.values[k], k + 1 < o.nvalues ? "," : "");
    printf("\n  %-36s", "");
    for (int k = 0; k < o.nvalues; k++) printf(" %20s", o.values[k]);
    printf("\n");
    for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++) {
        printf("  %-36s", figs[i].label);
        double base = fig_value(&figs[i], &s[0]);
        for (int k = 0; k < o.nvalues; k++) {
            char num[64], cell[96];
            double v = fig_value(&figs[i], &s[k]);
            snprintf(num, sizeof num, figs[i].fmt, v);
            if (k && base != 0)
                snprintf(cell, sizeof cell, "%s (%.3fx)", num, v / base);
            else
                snprintf(cell, sizeof cell, "%s", num);
            printf(" %20s", cell);
        }
        printf("\n");
    }
    return WS_EXIT_OK;
}
