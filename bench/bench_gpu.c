/* `make bench`, GPU part: simulation speed of the whole GPU on BFS (Rodinia-style, the graph of
 * the workload's test size) on the default machine (rtx2060s, 32 SMs) and on the QV100 (80 SMs).
 * Prints simulated warp instructions per second and simulated core cycles per second against
 * the target (1 M warp instructions/s, 100x Accel-Sim's 8.7 k/s on QV100 measured on the
 * same 2-core machine). Speed is reported, never asserted: these machines are noisy. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "gpu/gpu.h"
#include "workload/workload.h"

#ifndef WS_CONFIG_DIR
#define WS_CONFIG_DIR "configs"
#endif

static void die(const struct ws_err *e) {
    fprintf(stderr, "bench_gpu: %s\n", e->msg);
    exit(1);
}

static void bench(const char *machine, const char *workload, const char *extra) {
    struct ws_err e = {{0}};
    struct cfg *c = cfg_create();
    char path[4096], set[256];
    snprintf(path, sizeof path, "%s/%s.ini", WS_CONFIG_DIR, machine);
    if (cfg_load_ini(c, path, &e) != 0) die(&e);
    snprintf(set, sizeof set, "workload.name=%s", workload);
    if (cfg_set_arg(c, set, "bench", &e) != 0) die(&e);
    if (cfg_set_arg(c, "mc.check=false", "bench", &e) != 0) die(&e);
    if (extra && cfg_set_arg(c, extra, "bench", &e) != 0) die(&e);
    struct gpu *g = gpu_create(c, &e);
    if (!g) die(&e);
    struct workload *w = workload_create(c, &e);
    if (!w) die(&e);
    if (cfg_check_unclaimed(c, &e) != 0) die(&e);
    if (gpu_run(g, w, &e) != 0) die(&e);
    const struct gpu_summary *s = gpu_summary(g);
    printf("  %-9s %-8s %4u SMs  %10llu warp insts %10llu cycles  %6.3f M warp insts/s "
           "(%5.1fx target)  %7.1f k cycles/s  %.2f s\n",
           machine, workload, gpu_nsms(g), (unsigned long long)s->warp_insts,
           (unsigned long long)s->cycles, s->warp_insts_per_s / 1e6, s->warp_insts_per_s / 1e6,
           s->cycles_per_s / 1e3, s->host_seconds);
    w->vt->destroy(w);
    gpu_destroy(g);
    cfg_destroy(c);
}

int main(void) {
    printf("GPU simulation speed (target: >= 1 M warp instructions/s single-threaded; Accel-Sim "
           "8.7 k/s on QV100, 13 k/s on RTX 3070 on this machine):\n");
    bench("rtx2060s", "bfs", NULL);
    bench("qv100", "bfs", NULL);
    bench("rtx2060s", "kmeans", NULL);
    bench("rtx2060s", "vecadd", NULL);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("  peak memory %ld MB\n", ru.ru_maxrss / 1024);
    return 0;
}
