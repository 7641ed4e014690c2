/* `warpsim run`: simulates a GPU (a machine preset) running a workload (a built-in kernel model
 * or, later, an Accel-Sim trace), shows progress on a terminal, prints the figures an
 * architecture researcher looks at first and writes a JSON result (atomically). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/stats.h"
#include "cli/cli.h"
#include "gpu/gpu.h"
#include "mem/memsys.h"
#include "workload/workload.h"

static const char usage[] =
    "usage: warpsim run [-c CONFIG] (-w WORKLOAD | -t TRACE) [--size test|paper]\n"
    "                   [--set section.key=value]...\n"
    "                   [-o RESULT.json] [-q] [--progress|--no-progress]\n"
    "  CONFIG    machine preset: a path, or a name from configs/ (rtx2060s, gtx480, qv100);\n"
    "            default rtx2060s\n"
    "  WORKLOAD  warpsim list workloads\n"
    "  TRACE     an Accel-Sim trace: its folder, kernelslist.g or one kernel-N.traceg\n";

struct run_opts {
    struct cli_common common;
    bool quiet;
    int progress; /* -1 auto (a terminal), 0 off, 1 on */
    char setbuf[4][300];
    int nsetbuf;
    const char *trace; /* -t */
};

static int add_set(struct run_opts *o, const char *opt, const char *key, const char *val,
                   struct ws_err *e) {
    if (o->nsetbuf == 4 || o->common.nsets == 256) return ws_fail(e, "too many options");
    snprintf(o->common.set_origin[o->common.nsets], sizeof o->common.set_origin[0], "%s", opt);
    snprintf(o->setbuf[o->nsetbuf], sizeof o->setbuf[0], "%s=%s", key, val);
    o->common.sets[o->common.nsets++] = o->setbuf[o->nsetbuf++];
    return 0;
}

static int parse(struct run_opts *o, int argc, char **argv, struct ws_err *e) {
    o->progress = -1;
    bool have_w = false;
    for (int i = 2; i < argc; i++) {
        int r = cli_common_opt(&o->common, argc, argv, &i, e);
        if (r < 0) return -1;
        if (r > 0) continue;
        const char *a = argv[i];
        if (strcmp(a, "-w") == 0 || strcmp(a, "--workload") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs a workload name", a);
            if (have_w) return ws_fail(e, "run: give one workload (-w NAME or -t TRACE)");
            if (add_set(o, a, "workload.name", argv[++i], e) != 0) return -1;
            have_w = true;
        } else if (strcmp(a, "-t") == 0 || strcmp(a, "--trace") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs a trace folder or kernelslist.g", a);
            if (have_w) return ws_fail(e, "run: give one workload (-w NAME or -t TRACE)");
            if (strlen(argv[i + 1]) > 250) return ws_fail(e, "%s: path too long", a);
            o->trace = argv[i + 1];
            if (add_set(o, a, "workload.name", "trace", e) != 0 ||
                add_set(o, a, "workload.trace.path", argv[++i], e) != 0)
                return -1;
            have_w = true;
        } else if (strcmp(a, "--size") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs test or paper", a);
            if (add_set(o, a, "workload.size", argv[++i], e) != 0) return -1;
        } else if (strcmp(a, "-q") == 0) {
            o->quiet = true;
        } else if (strcmp(a, "--progress") == 0) {
            o->progress = 1;
        } else if (strcmp(a, "--no-progress") == 0) {
            o->progress = 0;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            exit(0);
        } else {
            return ws_fail(e, "run: unknown option '%s'\n%s", a, usage);
        }
    }
    if (!have_w) return ws_fail(e, "run: give a workload with -w NAME or -t TRACE\n%s", usage);
    if (!o->common.config_path) o->common.config_path = "rtx2060s";
    return 0;
}

/* One line, rewritten in place: the kernel, its CTAs done, cycles, speed and the kernel's ETA
 * (from its share of CTAs done; later kernels of a host loop are not known in advance). */
static void show_progress(void *ctx, const struct gpu_progress *p) {
    (void)ctx;
    double rate = p->host_seconds > 0 ? (double)p->warp_insts / p->host_seconds : 0;
    double frac = p->ctas_total ? (double)p->ctas_done / (double)p->ctas_total : 0;
    char eta[32] = "?";
    if (frac > 0) snprintf(eta, sizeof eta, "%.1f s", p->kernel_seconds * (1 - frac) / frac);
    fprintf(stderr,
            "\r  kernel %u %-20.20s %5.1f%% CTAs  %12llu cycles  %.2f M warp insts/s  "
            "%.1f s, kernel ETA %s   ",
            p->kernel_id, p->kernel, 100.0 * frac, (unsigned long long)p->cycles, rate / 1e6,
            p->host_seconds, eta);
    fflush(stderr);
}

static void print_hist_line(FILE *out, const char *label, const struct ws_hist *h) {
    fprintf(out, "  %-26s mean %.1f  p25 %llu  p50 %llu  p75 %llu  p95 %llu  max %llu\n", label,
            ws_hist_mean(h), (unsigned long long)ws_hist_percentile(h, 25),
            (unsigned long long)ws_hist_percentile(h, 50),
            (unsigned long long)ws_hist_percentile(h, 75),
            (unsigned long long)ws_hist_percentile(h, 95), (unsigned long long)h->max);
}

static void print_summary(const struct gpu *g, const struct cfg *c, const struct workload *w,
                          FILE *out) {
    const struct gpu_summary *s = gpu_summary(g);
    char o1[64];
    (void)o1;
    fprintf(out, "warpsim run: %s on %s (%u SMs), memory policy %s%s\n",
            cfg_raw(c, "workload.name"), cfg_raw(c, "gpu.name") ? cfg_raw(c, "gpu.name") : "",
            gpu_nsms(g), cfg_raw(c, "mc.policy") ? cfg_raw(c, "mc.policy") : "frfcfs",
            s->stopped_early ? " (stopped at the configured limit)" : "");
    fprintf(out, "  kernels %llu, CTAs %llu, warp instructions %llu, cycles %llu\n",
            (unsigned long long)s->kernels, (unsigned long long)s->ctas,
            (unsigned long long)s->warp_insts, (unsigned long long)s->cycles);
    fprintf(out, "  IPC                        %.2f (warp IPC %.3f)\n", s->ipc, s->warp_ipc);
    fprintf(out,
            "  L1D                        %llu accesses (and %llu retries after a reservation "
            "fail), miss rate %.1f%%, %.2f MPKI, intra-warp set concentration %.2f\n",
            (unsigned long long)(s->l1_accesses - s->l1_resfails),
            (unsigned long long)s->l1_resfails, 100 * s->l1_miss_rate, s->l1_mpki,
            s->l1_concentration);
    fprintf(out,
            "  L2                         %llu accesses (and %llu retries after a reservation "
            "fail), miss rate %.1f%%, %.2f MPKI\n",
            (unsigned long long)(s->l2_accesses - s->l2_resfails),
            (unsigned long long)s->l2_resfails, 100 * s->l2_miss_rate, s->l2_mpki);
    fprintf(out,
            "  NoC                        request %.1f / reply %.1f cycles, %.2f / %.2f "
            "flits per cycle\n",
            s->noc_req_lat, s->noc_rep_lat, s->noc_req_flits_per_cycle, s->noc_rep_flits_per_cycle);
    fprintf(out,
            "  DRAM                       row-buffer hit rate %.1f%%, bandwidth %.1f%% of "
            "peak, read latency %.1f ns\n",
            100 * s->dram_row_hit_rate, 100 * s->dram_bw_share, s->dram_avg_read_lat_ns);
    fprintf(out,
            "  latency per stage (ns)     NoC %.1f, L2 hit %.1f, L2 miss %.1f (per read burst: "
            "controller queue %.1f, DRAM %.1f), reply NoC %.1f; off-chip round trip %.1f\n",
            s->ns_noc_req, s->ns_l2_hit, s->ns_l2_miss, s->ns_mc_queue, s->ns_dram, s->ns_noc_rep,
            s->ns_offchip_req);
    fprintf(out, "  warp-loads                 %llu, off-chip accesses per load warp %.2f (%s)\n",
            (unsigned long long)s->load_warps, s->offchip_per_load,
            gpu_load_class(s->offchip_per_load));
    print_hist_line(out, "latency divergence", gpu_hist_lat_div(g));
    fprintf(out, "  divergence in controllers  %.1f%% (In-MC; the rest before them: Ex-MC)\n",
            100.0 * s->lat_div_in_mc_share);
    print_hist_line(out, "warp-group assembly", gpu_hist_mc_assembly(g));
    print_hist_line(out, "controllers per warp-load", gpu_hist_mcs_per_load(g));
    print_hist_line(out, "load-warp execution time", gpu_hist_load_time(g));
    double ej = s->energy_j > 0 ? s->energy_j : 1; /* shares of the total */
    fprintf(out,
            "  energy                     %.4g J (%.1f W): core %.1f%%, register file %.1f%%, "
            "caches %.1f%%, NoC %.1f%%, DRAM %.1f%%, static %.1f%%\n",
            s->energy_j, s->power_w, 100 * s->energy_core_j / ej, 100 * s->energy_rf_j / ej,
            100 * s->energy_cache_j / ej, 100 * s->energy_noc_j / ej, 100 * s->energy_dram_j / ej,
            100 * s->energy_static_j / ej);
    fprintf(out,
            "  speed                      %.3f M warp instructions/s, %.0f k cycles/s "
            "(%.2f s)\n",
            s->warp_insts_per_s / 1e6, s->cycles_per_s / 1e3, s->host_seconds);
    /* host memory: the model's arrays are real data; the simulator's own state is bounded */
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    uint64_t dev = workload_device_bytes(w);
    fprintf(out, "  host memory                peak RSS %.0f MB", (double)ru.ru_maxrss / 1024);
    if (dev) fprintf(out, "; the model's device arrays %.0f MB", (double)dev / (1 << 20));
    fputc('\n', out);
}

int cmd_run(int argc, char **argv) {
    struct run_opts o;
    memset(&o, 0, sizeof o);
    struct ws_err e = {{0}};
    if (parse(&o, argc, argv, &e) != 0) return cli_fail(&e, WS_EXIT_USAGE);
    if (o.common.out_path && ws_check_output(o.common.out_path, &e) != 0)
        return cli_fail(&e, WS_EXIT_INPUT);
    if (o.common.out_path && o.trace) {
        /* -t names the trace's folder, its kernelslist.g or one kernel file */
        struct stat st;
        char dir[4096];
        if (stat(o.trace, &st) == 0 && !S_ISDIR(st.st_mode))
            ws_parent_dir(o.trace, dir, sizeof dir);
        else
            snprintf(dir, sizeof dir, "%s", o.trace);
        /* only the trace's own files: a result beside them is fine */
        const char *slash = strrchr(o.common.out_path, '/');
        const char *base = slash ? slash + 1 : o.common.out_path;
        bool trace_file = !strcmp(base, "kernelslist.g") ||
                          (!strncmp(base, "kernel-", 7) && strstr(base, ".traceg"));
        if (trace_file && ws_check_not_in_folder(o.common.out_path, dir, "the trace", &e) != 0)
            return cli_fail(&e, WS_EXIT_INPUT);
    }
    struct cfg *c = cfg_create();
    struct gpu *g = NULL;
    struct workload *w = NULL;
    json_t *root = NULL;
    struct stats_reg reg;
    stats_reg_init(&reg);
    int code = WS_EXIT_INPUT;
    if (cli_load_config(&o.common, c, &e) != 0 ||
        cli_check_kind(&o.common, c, true, "warpsim run", &e) != 0)
        goto out;
    g = gpu_create(c, &e);
    if (!g) goto out;
    w = workload_create(c, &e);
    if (!w) goto out;
    if (cfg_check_unclaimed(c, &e) != 0) goto out;
    bool tty = isatty(fileno(stderr));
    if (o.progress == 1 || (o.progress == -1 && tty && !o.quiet))
        gpu_set_progress(g, show_progress, NULL);
    int r = gpu_run(g, w, &e);
    if (o.progress == 1 || (o.progress == -1 && tty && !o.quiet)) fputs("\r\033[K", stderr);
    if (r != 0) {
        code = strncmp(e.msg, "internal", 8) == 0 ? WS_EXIT_INTERNAL : WS_EXIT_INPUT;
        goto out;
    }
    if (gpu_register_stats(g, &reg, &e) != 0) goto out;
    if (!o.quiet) print_summary(g, c, w, stdout);
    if (o.common.out_path) {
        const struct gpu_summary *s = gpu_summary(g);
        root = json_object();
        json_object_set_new(root, "command", json_string("run"));
        json_object_set_new(root, "workload", json_string(w->name));
        json_object_set_new(root, "load_class", json_string(gpu_load_class(s->offchip_per_load)));
        /* true when gpu.max_insts, max_thread_insts or max_cycles ended the run */
        json_object_set_new(root, "stopped_at_limit", json_boolean(s->stopped_early));
        json_object_set_new(root, "config", cfg_effective_json(c));
        json_object_set_new(root, "stats", stats_to_json(&reg));
        json_object_set_new(root, "definitions", stats_definitions_json(&reg));
        if (ws_write_json_atomic(o.common.out_path, root, &e) != 0) goto out;
    }
    code = WS_EXIT_OK;
out:
    if (code != WS_EXIT_OK) cli_fail(&e, code);
    json_decref(root);
    stats_reg_free(&reg);
    if (w) w->vt->destroy(w);
    gpu_destroy(g);
    cfg_destroy(c);
    return code;
}
