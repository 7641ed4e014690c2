/* libFuzzer target: a graph or sparse-matrix file through each loader (the first byte picks
 * Matrix Market, SNAP, METIS, Rodinia or detection by content), then BFS and SSSP over what
 * loaded. Any input must end in a clean "path:line:" error or a valid graph. */
#include "fuzz_input.h"
#include "workload/graph/graphio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!size) return 0;
    /* A header may announce up to 2^31 nodes, and a graph that large takes its arrays in full
     * (out of memory is a clean error, but not within the fuzzer's memory limit): inputs with a
     * number of more than 7 digits are left out. */
    for (size_t i = 1, run = 0; i < size; i++) {
        run = data[i] >= '0' && data[i] <= '9' ? run + 1 : 0;
        if (run > 7) return 0;
    }
    const char *path = fuzz_to_file(data + 1, size - 1, ".txt");
    static int (*const load[])(struct graph *, const char *, struct ws_err *) = {
        graph_load_mtx, graph_load_snap, graph_load_metis, graph_load_rodinia, graph_load};
    struct graph g = {0};
    struct ws_err e = {0};
    int rc = load[data[0] % (sizeof load / sizeof load[0])](&g, path, &e);
    if (rc != 0) return 0;
    if (g.n > 0 && g.n <= 1u << 16 && g.ncols == g.n) {
        int32_t *cost = malloc(sizeof *cost * g.n);
        uint64_t *dist = malloc(sizeof *dist * g.n);
        if (cost && dist) {
            (void)graph_bfs(&g, 0, cost);
            (void)graph_sssp(&g, 0, dist);
        }
        free(cost);
        free(dist);
    }
    graph_free(&g);
    return 0;
}
