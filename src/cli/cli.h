/* Shared pieces of the warpsim subcommands: the common options (-c FILE, --set k=v, -o FILE)
 * and the one place that prints errors and picks exit codes. */
#pragma once

#include <stdbool.h>

#include "base/cfg.h"
#include "base/err.h"

struct cli_common {
    const char *config_path;
    const char *out_path;
    const char *sets[256];
    char set_origin[256][24];
    int nuser_sets;
    int nsets;
    bool usimm_cfg; /* -c named a USIMM .cfg file */
    int usimm_cores;
    /* cli_simulate(): when not NULL, a --set key the run does not read is not an error there;
     * set_read[k] tells whether sets[k] was read (compare: a key only some policies read) */
    bool *set_read;
};

/* Consumes argv[*i] (and its value) if it is a common option; returns 1 when consumed, 0 when
 * not a common option, -1 on a usage error (message in e). */
int cli_common_opt(struct cli_common *o, int argc, char **argv, int *i, struct ws_err *e);
/* Loads -c (INI or USIMM .cfg) into c, then applies the --set options on top. */
int cli_load_config(struct cli_common *o, struct cfg *c, struct ws_err *e);
/* After cli_load_config(): fails, saying so, when the configuration is not of the kind `what`
 * ("warpsim run") needs (gpu: a GPU machine, which sets gpu.sms; else a memory-only one),
 * instead of an error about the first key that does not fit. */
int cli_check_kind(const struct cli_common *o, const struct cfg *c, bool gpu, const char *what,
                   struct ws_err *e);
/* Prints "warpsim: <msg>" and returns the exit code for it. */
int cli_fail(const struct ws_err *e, int code);

int cmd_run(int argc, char **argv);
int cmd_trace_info(int argc, char **argv);
int cmd_trace_export(int argc, char **argv);
int cmd_dram(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_config_import(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_characterize(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_report(int argc, char **argv);

struct gpu_summary;
/* Runs one simulation in this process: the config of `base` (-c and --set) plus the `extra`
 * settings ("key=value", applied last, each named origin[k] in messages: "-w", "run #2"), and
 * copies the summary out; `machine` (may be NULL) gets gpu.name. With out NULL it only builds
 * and checks the machine and workload (to find every bad run before any runs). Returns 0, or -1
 * with the message in e. Used by commands that run several simulations. */
int cli_simulate(const struct cli_common *base, const char *const *extra, const char *const *origin,
                 int nextra, struct gpu_summary *out, char *machine, size_t n, struct ws_err *e);
int cmd_compare(int argc, char **argv);
