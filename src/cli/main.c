/* warpsim command-line entry: dispatches subcommands. Only src/cli prints errors and exits. */
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "cli/cli.h"

static const char usage[] =
    "warpsim: a fast cycle-level GPU memory-system simulator\n"
    "usage:\n"
    "  warpsim run    [-c CONFIG] (-w WORKLOAD | -t TRACE) [--set k=v]... [-o RESULT.json]   "
    "simulate a GPU\n"
    "  warpsim dram   [-c CONFIG] [--set k=v]... SOURCE   standalone DRAM / memory-controller "
    "mode\n"
    "  warpsim config dump [-c CONFIG] [-w WORKLOAD] [--set k=v]...   the effective configuration\n"
    "  warpsim config keys                                 print every key with range and doc\n"
    "  warpsim config import GPGPUSIM_CONFIG [TRACE_CONFIG] [-o OUT.ini]   from GPGPU-Sim\n"
    "  warpsim list   policies|presets|configs|workloads   what can be selected by name\n"
    "  warpsim trace-info TRACE                            what an Accel-Sim trace holds\n"
    "  warpsim trace-export -w WORKLOAD [-c CONFIG] -o DIR  a workload as an Accel-Sim trace\n"
    "  warpsim characterize [-c CONFIG] (-w WORKLOAD | --all) [--size ...] [--markdown F]\n"
    "                                                      memory behaviour and LOA/MOA/HOA "
    "class\n"
    "  warpsim sweep  RECIPE.ini [-j N] [--out DIR] [--resume]   a policy x workload matrix\n"
    "  warpsim compare [-c CONFIG] -w WORKLOAD KEY=V1,V2  one workload under each value, side by "
    "side\n"
    "  warpsim report DIR                                  CSV tables, figures, report.md\n";

int main(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? WS_EXIT_USAGE : WS_EXIT_OK;
    }
    if (strcmp(argv[1], "run") == 0) return cmd_run(argc, argv);
    if (strcmp(argv[1], "dram") == 0) return cmd_dram(argc, argv);
    if (strcmp(argv[1], "config") == 0) return cmd_config(argc, argv);
    if (strcmp(argv[1], "list") == 0) return cmd_list(argc, argv);
    if (strcmp(argv[1], "trace-info") == 0) return cmd_trace_info(argc, argv);
    if (strcmp(argv[1], "trace-export") == 0) return cmd_trace_export(argc, argv);
    if (strcmp(argv[1], "characterize") == 0) return cmd_characterize(argc, argv);
    if (strcmp(argv[1], "compare") == 0) return cmd_compare(argc, argv);
    if (strcmp(argv[1], "sweep") == 0) return cmd_sweep(argc, argv);
    if (strcmp(argv[1], "report") == 0) return cmd_report(argc, argv);
    fprintf(stderr, "warpsim: unknown command '%s'\n%s", argv[1], usage);
    return WS_EXIT_USAGE;
}
