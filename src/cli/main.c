/* warpsim command-line entry: dispatches subcommands. Only src/cli prints errors and exits. */
#include <stdio.h>
#include <string.h>

#include "base/err.h"

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: warpsim <dram|config|list> ...\n");
        return WS_EXIT_USAGE;
    }
    fprintf(stderr, "warpsim: unknown command '%s'\n", argv[1]);
    return WS_EXIT_USAGE;
}
