/* `warpsim dram`: standalone memory mode. Drives the DRAM memory system from a USIMM trace with
 * USIMM's processor front end, from a simple address trace, or from a synthetic pattern; prints
 * the figures a memory researcher looks at first and writes a JSON result (atomically). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/fileio.h"
#include "base/stats.h"
#include "cli/cli.h"
#include "mem/drive/addrtrace_drive.h"
#include "mem/drive/drive.h"
#include "mem/drive/synth.h"
#include "mem/drive/usimm_front.h"
#include "mem/memsys.h"

static const char usage[] =
    "usage: warpsim dram [-c CONFIG] [--set section.key=value]... SOURCE [options]\n"
    "  CONFIG   warpsim INI (configs/*.ini) or a USIMM .cfg file (its .vi is found beside it)\n"
    "  SOURCE   --synthetic stream|random|strided|row-conflict|mixed\n"
    "           --trace FILE  (0x<addr> R|W, or <addr> READ|WRITE <cycle>; plain or gzip)\n"
    "           --usimm TRACE [--usimm TRACE]...  (USIMM traces, one core each, USIMM front end)\n"
    "options:  --requests N  --read-share F  --footprint BYTES  --stride BYTES  --streams N\n"
    "          --seed S  --check (protocol checker)  --per-channel  -o RESULT.json  -q\n"
    "          --lockstep (visit every cycle, no skipping: same results, slower; a check)\n";

struct dram_opts {
    struct cli_common common;
    const char *synthetic, *trace;
    const char *usimm[64];
    unsigned nusimm;
    bool quiet, per_channel, lockstep;
    char setbuf[16][300];
    int nsetbuf;
};

static int add_set(struct dram_opts *o, const char *opt, const char *key, const char *val,
                   struct ws_err *e) {
    if (o->nsetbuf == 16 || o->common.nsets == 256) return ws_fail(e, "too many options");
    snprintf(o->common.set_origin[o->common.nsets], sizeof o->common.set_origin[0], "%s", opt);
    snprintf(o->setbuf[o->nsetbuf], sizeof o->setbuf[0], "%s=%s", key, val);
    o->common.sets[o->common.nsets++] = o->setbuf[o->nsetbuf++];
    return 0;
}

static int parse(struct dram_opts *o, int argc, char **argv, struct ws_err *e) {
    static const struct {
        const char *opt, *key;
    } alias[] = {{"--requests", "synth.requests"},   {"--read-share", "synth.read_share"},
                 {"--footprint", "synth.footprint"}, {"--stride", "synth.stride"},
                 {"--streams", "synth.streams"},     {"--seed", "sim.seed"}};
    for (int i = 2; i < argc; i++) {
        int r = cli_common_opt(&o->common, argc, argv, &i, e);
        if (r < 0) return -1;
        if (r > 0) continue;
        const char *a = argv[i];
        bool done = false;
        for (size_t k = 0; k < sizeof alias / sizeof alias[0]; k++)
            if (strcmp(a, alias[k].opt) == 0) {
                if (i + 1 >= argc) return ws_fail(e, "%s needs a value", a);
                if (add_set(o, a, alias[k].key, argv[++i], e) != 0) return -1;
                done = true;
            }
        if (done) continue;
        if (strcmp(a, "--synthetic") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs a pattern", a);
            if (o->synthetic) return ws_fail(e, "dram: --synthetic given twice");
            o->synthetic = argv[++i];
            if (add_set(o, a, "synth.pattern", o->synthetic, e) != 0) return -1;
        } else if (strcmp(a, "--trace") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs a file", a);
            if (o->trace) return ws_fail(e, "dram: --trace given twice (one trace per run)");
            o->trace = argv[++i];
        } else if (strcmp(a, "--usimm") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs a trace file", a);
            if (o->nusimm == 64) return ws_fail(e, "at most 64 --usimm traces");
            o->usimm[o->nusimm++] = argv[++i];
        } else if (strcmp(a, "--check") == 0) {
            if (add_set(o, a, "mc.check", "true", e) != 0) return -1;
        } else if (strcmp(a, "--lockstep") == 0) {
            o->lockstep = true;
        } else if (strcmp(a, "--per-channel") == 0) {
            o->per_channel = true;
        } else if (strcmp(a, "-q") == 0) {
            o->quiet = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            exit(0);
        } else {
            return ws_fail(e, "dram: unknown option '%s'\n%s", a, usage);
        }
    }
    o->common.usimm_cores = (int)o->nusimm;
    if (!o->synthetic + !o->trace + !o->nusimm != 2)
        return ws_fail(e, "dram: give exactly one request source\n%s", usage);
    return 0;
}

static void print_summary(const struct memsys *ms, const char *source, double wall,
                          uint64_t requests, uint64_t visited, FILE *out) {
    const struct memsys_summary *s = memsys_summary(ms);
    const struct dram_spec *sp = memsys_spec(ms);
    fprintf(out, "warpsim dram: %s on %s (%lld channel%s), policy %s\n", source, sp->preset,
            (long long)sp->channels, sp->channels == 1 ? "" : "s",
            mc_policy_name(memsys_mc((struct memsys *)ms, 0)));
    fprintf(out, "  cycles            %llu tCK (%.3f us)\n", (unsigned long long)s->cycles,
            s->seconds * 1e6);
    fprintf(out, "  reads / writes    %llu / %llu (forwarded %llu, merged %llu)\n",
            (unsigned long long)s->reads, (unsigned long long)s->writes,
            (unsigned long long)s->reads_forwarded, (unsigned long long)s->writes_merged);
    fprintf(out, "  avg read latency  %.2f tCK (%.2f ns); avg write latency %.2f tCK\n",
            s->avg_read_lat, s->avg_read_lat_ns, s->avg_write_lat);
    fprintf(out, "  row-buffer hits   %.2f%% (misses %llu, conflicts %llu)\n",
            100.0 * s->row_hit_rate, (unsigned long long)s->row_misses,
            (unsigned long long)s->row_conflicts);
    fprintf(out, "  bandwidth         %.2f GB/s = %.1f%% of peak %.2f GB/s\n", s->bw_gbs,
            100.0 * s->bw_share, s->peak_bw_gbs);
    fprintf(out, "  DRAM energy       %.1f nJ, average power %.1f mW, EDP %.4g nJ*s\n",
            s->energy_nj, s->power_mw, s->edp_njs);
    if (s->commands_checked)
        fprintf(out, "  protocol checker  %llu commands, 0 violations\n",
                (unsigned long long)s->commands_checked);
    fprintf(out,
            "  speed             %.0f requests/s, %.0f simulated cycles/s (%.3f s wall, %.1f%% of "
            "cycles visited)\n",
            wall > 0 ? (double)requests / wall : 0.0, wall > 0 ? (double)s->cycles / wall : 0.0,
            wall, s->cycles ? 100.0 * (double)visited / (double)s->cycles : 0.0);
}

int cmd_dram(int argc, char **argv) {
    struct dram_opts o;
    memset(&o, 0, sizeof o);
    struct ws_err e = {{0}};
    if (parse(&o, argc, argv, &e) != 0) return cli_fail(&e, WS_EXIT_USAGE);
    if (o.common.out_path && ws_check_output(o.common.out_path, &e) != 0)
        return cli_fail(&e, WS_EXIT_INPUT);
    if (o.common.out_path && o.trace &&
        ws_check_not_input(o.common.out_path, o.trace, "the trace", &e) != 0)
        return cli_fail(&e, WS_EXIT_INPUT);
    for (unsigned k = 0; o.common.out_path && k < o.nusimm; k++)
        if (ws_check_not_input(o.common.out_path, o.usimm[k], "a USIMM trace", &e) != 0)
            return cli_fail(&e, WS_EXIT_INPUT);
    struct cfg *c = cfg_create();
    struct memsys *ms = NULL;
    struct synth *syn = NULL;
    struct addrtrace *at = NULL;
    struct usimm_front *uf = NULL;
    json_t *root = NULL;
    struct stats_reg reg;
    stats_reg_init(&reg);
    int code = WS_EXIT_INPUT;
    struct synth_cfg sc;
    memset(&sc, 0, sizeof sc);
    if (cli_load_config(&o.common, c, &e) != 0 ||
        cli_check_kind(&o.common, c, false, "warpsim dram", &e) != 0)
        goto out;
    ms = memsys_create(c, &e);
    if (!ms) goto out;
    if (o.synthetic ? synth_configure(&sc, c, &e) != 0
                    : synth_refuse_keys(c, "read with --synthetic only", &e) != 0)
        goto out;
    struct usimm_front_cfg fc;
    if (usimm_front_configure(&fc, c, &e) != 0) goto out;
    if (cfg_check_unclaimed(c, &e) != 0) goto out;

    const struct drive_ops *ops;
    void *st;
    char source[512];
    if (o.synthetic) {
        syn = synth_create(&sc, ms, &e);
        if (!syn) goto out;
        ops = &synth_ops;
        st = syn;
        snprintf(source, sizeof source, "synthetic %s", o.synthetic);
    } else if (o.nusimm) {
        uf = usimm_front_create(&fc, ms, o.usimm, o.nusimm, &e);
        if (!uf) goto out;
        ops = &usimm_front_ops;
        st = uf;
        snprintf(source, sizeof source, "USIMM trace %s%s", o.usimm[0],
                 o.nusimm > 1 ? " (+ more cores)" : "");
    } else {
        at = addrtrace_create(o.trace, ms, &e);
        if (!at) goto out;
        ops = &addrtrace_ops;
        st = at;
        snprintf(source, sizeof source, "trace %s", o.trace);
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct drive_result res;
    if (drive_run(ops, st, ms, o.lockstep, &res, &e) != 0) {
        code = strstr(e.msg, "protocol violation") ? WS_EXIT_INTERNAL : WS_EXIT_INPUT;
        goto out;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);

    if (memsys_register_stats(ms, &reg, o.per_channel, &e) != 0) goto out;
    uint64_t requests;
    if (syn) {
        if (stats_register(&reg, "front", synth_stat_desc, synth_stat_ndesc, synth_stats(syn),
                           &e) != 0)
            goto out;
        requests = synth_stats(syn)->requests;
    } else if (uf) {
        if (usimm_front_report(uf, ms, &e) != 0 || usimm_front_register_stats(uf, &reg, &e) != 0)
            goto out;
        const struct usimm_front_stats *u = usimm_front_stats(uf);
        requests = u->reads + u->writes;
    } else {
        if (addrtrace_register_stats(at, &reg, &e) != 0) goto out;
        requests = addrtrace_stats(at)->requests;
    }
    if (!o.quiet) print_summary(ms, source, wall, requests, res.visited_cycles, stdout);
    if (uf && !o.quiet) {
        const struct usimm_front_stats *u = usimm_front_stats(uf);
        printf("  USIMM front end   %llu CPU cycles, %llu instructions, IPC %.3f, sum of exec "
               "times %llu\n",
               (unsigned long long)u->cycles, (unsigned long long)u->committed, u->ipc,
               (unsigned long long)u->sum_exec_time);
        /* USIMM matches reads and writes against its queues in the front end, before the
         * controller sees them (the controller's forwarded / merged above stay 0) */
        printf("  USIMM merges      reads merged %llu (%llu with a queued read, %llu forwarded "
               "from a queued write), writes merged %llu\n",
               (unsigned long long)(u->reads_merged + u->reads_forwarded),
               (unsigned long long)u->reads_merged, (unsigned long long)u->reads_forwarded,
               (unsigned long long)u->writes_merged);
        printf("  USIMM system      memory %.3f W + misc %.1f W + cores %.3f W = %.3f W, EDP %.6g "
               "J*s\n",
               u->dram_power_w, u->misc_power_w, u->core_power_w, u->system_power_w, u->edp_js);
    }
    if (o.per_channel && !o.quiet) stats_print_text(&reg, stdout);
    if (o.common.out_path) {
        root = json_object();
        json_object_set_new(root, "command", json_string("dram"));
        json_object_set_new(root, "source", json_string(source));
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
    synth_destroy(syn);
    addrtrace_destroy(at);
    usimm_front_destroy(uf);
    memsys_destroy(ms);
    cfg_destroy(c);
    return code;
}
