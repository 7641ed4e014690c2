/* `warpsim trace-info DIR_OR_KERNELSLIST`: what an Accel-Sim trace holds (trace_info.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "workload/trace/trace_info.h"

int cmd_trace_info(int argc, char **argv);

static const char usage[] = "usage: warpsim trace-info TRACE\n"
                            "  TRACE  an Accel-Sim trace folder, its kernelslist.g, or one\n"
                            "         kernel-N.traceg (plain, .gz, .xz or .zst)\n";

int cmd_trace_info(int argc, char **argv) {
    if (argc == 3 && (strcmp(argv[2], "-h") == 0 || strcmp(argv[2], "--help") == 0)) {
        fputs(usage, stdout);
        return WS_EXIT_OK;
    }
    if (argc != 3 || argv[2][0] == '-') {
        fputs(usage, stderr);
        return WS_EXIT_USAGE;
    }
    struct ws_err e = {{0}};
    if (trace_info(argv[2], stdout, NULL, &e) != 0) return cli_fail(&e, WS_EXIT_INPUT);
    return WS_EXIT_OK;
}
