/* `warpsim config dump|keys` and `warpsim list`: the effective configuration and the key
 * reference, both generated from the modules' key tables. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "mem/addr_map.h"
#include "mem/dram/dram_spec.h"
#include "mem/drive/synth.h"
#include "mem/drive/usimm_front.h"
#include "mem/mc/policy.h"
#include "mem/mc/warp_table.h"
#include "mem/memsys.h"
#include "core/sm.h"
#include "gpu/gpu.h"
#include "noc/xbar.h"
#include "workload/workload.h"

#ifndef WS_CONFIG_DIR
#define WS_CONFIG_DIR "configs"
#endif

/* Each policy key table once, headed by every policy that reads it (several policies share one
 * table, and the warp-group family shares mc.wg.* besides), then the warp tables' mc.wet.*. */
static void print_policy_keys(FILE *out) {
    char head[1024];
    for (unsigned i = 0; i < mc_npolicies; i++) {
        const struct mc_policy *p = mc_policies[i];
        const struct cfg_key *tabs[2] = {p->family_keys, p->keys};
        unsigned ns[2] = {p->nfamily_keys, p->nkeys};
        for (int t = 0; t < 2; t++) {
            bool seen = !tabs[t] || !ns[t];
            for (unsigned j = 0; j < i && !seen; j++)
                seen = mc_policy_reads_table(mc_policies[j], tabs[t]);
            if (seen) continue;
            mc_table_readers(tabs[t], head, sizeof head);
            cfg_print_keys(head, tabs[t], ns[t], out);
        }
    }
    char readers[900];
    mc_table_readers(warp_table_keys, readers, sizeof readers);
    snprintf(head, sizeof head, "warp tables (%s)", readers);
    cfg_print_keys(head, warp_table_keys, warp_table_nkeys, out);
}

static const char config_usage[] =
    "usage: warpsim config dump [-c CONFIG] [-w WORKLOAD] [--set k=v]...\n"
    "       warpsim config keys\n"
    "       warpsim config import GPGPUSIM_CONFIG [TRACE_CONFIG] [-o OUT.ini] [--name NAME]\n"
    "  dump    the effective configuration: every key's value, meaning and where it was set\n"
    "          (-c defaults to ddr4-2400, or to rtx2060s with -w, as warpsim dram and run do)\n"
    "  keys    every key with its range, default and meaning\n"
    "  import  a warpsim machine from GPGPU-Sim / Accel-Sim options\n";

static bool is_help(const char *a) {
    return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0;
}

int cmd_config(int argc, char **argv) {
    struct ws_err e = {{0}};
    if (argc < 3 || is_help(argv[2])) {
        fputs(config_usage, argc < 3 ? stderr : stdout);
        return argc < 3 ? WS_EXIT_USAGE : WS_EXIT_OK;
    }
    if (strcmp(argv[2], "keys") == 0) {
        for (int i = 3; i < argc; i++) {
            if (is_help(argv[i])) {
                fputs(config_usage, stdout);
                return WS_EXIT_OK;
            }
            fprintf(stderr, "warpsim: config keys: unexpected argument '%s'\n", argv[i]);
            return WS_EXIT_USAGE;
        }
        unsigned n;
        cfg_print_keys("gpu", gpu_cfg_keys, gpu_cfg_nkeys, stdout);
        cfg_print_keys("core", sm_cfg_keys, sm_cfg_nkeys, stdout);
        const struct cfg_key *ck = cache_cfg_keys("l1d", &n);
        cfg_print_keys("l1d", ck, n, stdout);
        ck = cache_cfg_keys("l2", &n);
        cfg_print_keys("l2", ck, n, stdout);
        cfg_print_keys("noc", xbar_cfg_keys, xbar_cfg_nkeys, stdout);
        cfg_print_keys("energy", energy_cfg_keys, energy_cfg_nkeys, stdout);
        cfg_print_keys("dram (defaults come from dram.preset)", dram_spec_keys, dram_spec_nkeys,
                       stdout);
        cfg_print_keys("addr", addr_map_keys, addr_map_nkeys, stdout);
        cfg_print_keys("mc", mc_cfg_keys, mc_cfg_nkeys, stdout);
        print_policy_keys(stdout);
        cfg_print_keys("synth", synth_keys, synth_nkeys, stdout);
        cfg_print_keys("usimm", usimm_front_keys, usimm_front_nkeys, stdout);
        return WS_EXIT_OK;
    }
    if (strcmp(argv[2], "import") == 0) return cmd_config_import(argc, argv);
    if (strcmp(argv[2], "dump") != 0) {
        fprintf(stderr, "warpsim: config: unknown action '%s' (dump, keys, import)\n", argv[2]);
        return WS_EXIT_USAGE;
    }
    struct cli_common o;
    memset(&o, 0, sizeof o);
    bool have_w = false;
    for (int i = 3; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(config_usage, stdout);
            return WS_EXIT_OK;
        }
        int r = cli_common_opt(&o, argc, argv, &i, &e);
        if (r < 0) return cli_fail(&e, WS_EXIT_USAGE);
        if (r == 0 && strcmp(argv[i], "-w") == 0 && i + 1 < argc && o.nsets < 256) {
            have_w = true;
            /* the workload's keys too, as `warpsim run -w` would bind them */
            static char wset[300];
            snprintf(wset, sizeof wset, "workload.name=%s", argv[++i]);
            snprintf(o.set_origin[o.nsets], sizeof o.set_origin[0], "-w");
            o.sets[o.nsets++] = wset;
            continue;
        }
        if (r == 0) {
            fprintf(stderr, "warpsim: config dump: unknown option '%s'\n", argv[i]);
            return WS_EXIT_USAGE;
        }
    }
    struct cfg *c = cfg_create();
    struct memsys *ms = NULL;
    struct gpu *g = NULL;
    struct workload *w = NULL;
    struct synth_cfg sc;
    int code = WS_EXIT_INPUT;
    if (have_w && !o.config_path) o.config_path = "rtx2060s"; /* warpsim run's default */
    if (cli_load_config(&o, c, &e) != 0) goto out;
    if (have_w && cli_check_kind(&o, c, true, "config dump -w", &e) != 0) goto out;
    if (cfg_raw(c, "gpu.sms")) {
        /* A GPU machine: every layer's keys, and the workload's when one is named. */
        g = gpu_create(c, &e);
        if (!g) goto out;
        if (cfg_raw(c, "workload.name") && !(w = workload_create(c, &e))) goto out;
    } else {
        ms = memsys_create(c, &e);
        if (!ms) goto out;
        if (synth_configure(&sc, c, &e) != 0) goto out;
        struct usimm_front_cfg fc;
        if (usimm_front_configure(&fc, c, &e) != 0) goto out;
    }
    if (cfg_check_unclaimed(c, &e) != 0) goto out;
    printf("; effective warpsim configuration (value ; meaning [where it was set])\n");
    cfg_dump(c, stdout);
    code = WS_EXIT_OK;
out:
    if (code) cli_fail(&e, code);
    if (w) w->vt->destroy(w);
    gpu_destroy(g);
    memsys_destroy(ms);
    cfg_destroy(c);
    return code;
}

int cmd_list(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[2], "policies") == 0) {
        for (unsigned i = 0; i < mc_npolicies; i++)
            printf("%-12s %s\n", mc_policies[i]->name, mc_policies[i]->doc);
        return WS_EXIT_OK;
    }
    if (argc >= 3 && strcmp(argv[2], "presets") == 0) {
        for (unsigned i = 0; i < dram_npresets; i++)
            printf("%-16s %s\n", dram_presets[i].name, dram_presets[i].doc);
        return WS_EXIT_OK;
    }
    if (argc >= 3 && strcmp(argv[2], "workloads") == 0) {
        /* the class the papers give (seed 000 Table 1); `characterize` measures one */
        printf("%-10s %-9s %-5s %s\n", "name", "suite", "paper", "description");
        for (unsigned i = 0; i < workload_ntable; i++)
            printf("%-10s %-9s %-5s %s\n", workload_table[i].name, workload_table[i].suite,
                   workload_table[i].cls, workload_table[i].desc);
        return WS_EXIT_OK;
    }
    if (argc >= 3 && strcmp(argv[2], "configs") == 0) {
        /* The machine and memory presets shipped in configs/, with their first comment line. */
        struct dirent **ents;
        int n = scandir(WS_CONFIG_DIR, &ents, NULL, alphasort);
        if (n < 0) {
            fprintf(stderr, "warpsim: cannot read %s\n", WS_CONFIG_DIR);
            return WS_EXIT_INPUT;
        }
        for (int i = 0; i < n; i++) {
            const char *nm = ents[i]->d_name;
            size_t len = strlen(nm);
            if (len > 4 && strcmp(nm + len - 4, ".ini") == 0) {
                char path[4096], line[512] = "";
                snprintf(path, sizeof path, "%s/%s", WS_CONFIG_DIR, nm);
                FILE *f = fopen(path, "r");
                if (f) {
                    if (!fgets(line, sizeof line, f)) line[0] = 0;
                    fclose(f);
                }
                line[strcspn(line, "\n")] = 0;
                printf("%-16.*s %s\n", (int)(len - 4), nm, line[0] == ';' ? line + 2 : line);
            }
            free(ents[i]);
        }
        free(ents);
        return WS_EXIT_OK;
    }
    bool help = argc == 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"));
    fprintf(help ? stdout : stderr, "usage: warpsim list policies|presets|configs|workloads\n");
    return help ? WS_EXIT_OK : WS_EXIT_USAGE;
}
