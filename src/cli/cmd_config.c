/* `warpsim config dump|keys` and `warpsim list`: the effective configuration and the key
 * reference, both generated from the modules' key tables. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "mem/addr_map.h"
#include "mem/dram/dram_spec.h"
#include "mem/drive/synth.h"
#include "mem/drive/usimm_front.h"
#include "mem/mc/policy.h"
#include "mem/memsys.h"

int cmd_config(int argc, char **argv) {
    struct ws_err e = {{0}};
    if (argc < 3) {
        fprintf(stderr, "usage: warpsim config dump [-c CONFIG] [--set k=v]... | keys\n");
        return WS_EXIT_USAGE;
    }
    if (strcmp(argv[2], "keys") == 0) {
        cfg_print_keys("dram (defaults come from dram.preset)", dram_spec_keys, dram_spec_nkeys,
                       stdout);
        cfg_print_keys("addr", addr_map_keys, addr_map_nkeys, stdout);
        cfg_print_keys("mc", mc_cfg_keys, mc_cfg_nkeys, stdout);
        for (unsigned i = 0; i < mc_npolicies; i++)
            if (mc_policies[i]->nkeys)
                cfg_print_keys(mc_policies[i]->name, mc_policies[i]->keys, mc_policies[i]->nkeys,
                               stdout);
        cfg_print_keys("synth", synth_keys, synth_nkeys, stdout);
        cfg_print_keys("usimm", usimm_front_keys, usimm_front_nkeys, stdout);
        return WS_EXIT_OK;
    }
    if (strcmp(argv[2], "dump") != 0) {
        fprintf(stderr, "warpsim: config: unknown action '%s' (dump, keys)\n", argv[2]);
        return WS_EXIT_USAGE;
    }
    struct cli_common o;
    memset(&o, 0, sizeof o);
    for (int i = 3; i < argc; i++) {
        int r = cli_common_opt(&o, argc, argv, &i, &e);
        if (r < 0) return cli_fail(&e, WS_EXIT_USAGE);
        if (r == 0) {
            fprintf(stderr, "warpsim: config dump: unknown option '%s'\n", argv[i]);
            return WS_EXIT_USAGE;
        }
    }
    struct cfg *c = cfg_create();
    struct memsys *ms = NULL;
    struct synth_cfg sc;
    int code = WS_EXIT_INPUT;
    if (cli_load_config(&o, c, &e) != 0) goto out;
    ms = memsys_create(c, &e);
    if (!ms) goto out;
    if (cfg_bind(c, "synth", synth_keys, synth_nkeys, &sc, &e) != 0) goto out;
    struct usimm_front_cfg fc;
    if (usimm_front_configure(&fc, c, &e) != 0) goto out;
    if (cfg_check_unclaimed(c, &e) != 0) goto out;
    printf("; effective warpsim configuration (value ; meaning [where it was set])\n");
    cfg_dump(c, stdout);
    code = WS_EXIT_OK;
out:
    if (code) cli_fail(&e, code);
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
            printf("%-15s %s\n", dram_presets[i].name, dram_presets[i].doc);
        return WS_EXIT_OK;
    }
    fprintf(stderr, "usage: warpsim list policies|presets\n");
    return WS_EXIT_USAGE;
}
