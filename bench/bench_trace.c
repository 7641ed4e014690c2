/* `make bench`, trace part: replay of large Accel-Sim traces. Rodinia-style BFS on its paper
 * graph (1,000,000 nodes: 22 kernels, 26 M warp instructions, 1.1 GB of trace text) and on a
 * 100,000-node graph (about 1/10 of that) is written with trace-export (the library call the
 * command makes) to a temporary folder under the build folder, and each is replayed as
 * `warpsim run -t` does on the default machine (rtx2060s). Each step runs in its own child process,
 * so its peak RSS (getrusage of that child) is its own: the replay's should not grow with the
 * trace, as the reader keeps only the resident CTAs (trace.h). Prints trace size, peak RSS and
 * simulated warp instructions per second; speed and memory are reported, never asserted. The traces
 * are deleted afterwards. Usage: bench_trace [BUILD_DIR] (default: the executable's folder). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_child.h"
#include "gpu/gpu.h"
#include "workload/trace/trace.h"
#include "workload/trace/trace_export.h"
#include "workload/workload.h"

#ifndef WS_CONFIG_DIR
#define WS_CONFIG_DIR "configs"
#endif

/* What a child reports back through its pipe. */
struct report {
    int ok;
    char msg[sizeof((struct ws_err *)0)->msg]; /* a whole error message */
    uint64_t bytes, insts, kernels, reader_peak;
    double seconds, insts_per_s;
    long rss_kb; /* the child's peak RSS (getrusage RUSAGE_SELF at its end) */
};

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void child_export(const char *dir, int nodes, struct report *r) {
    struct ws_err e = {{0}};
    struct cfg *c = cfg_create();
    char set[64];
    snprintf(set, sizeof set, "workload.bfs.nodes=%d", nodes);
    if (cfg_set_arg(c, "workload.name=bfs", "bench", &e) || cfg_set_arg(c, set, "bench", &e)) {
        snprintf(r->msg, sizeof r->msg, "%s", e.msg);
        return;
    }
    struct workload *w = workload_create(c, &e);
    struct trace_export_opts o = {.binary_version = 75};
    struct trace_export_stats st;
    double t0 = now_s();
    if (!w || trace_export(w, dir, &o, &st, &e)) {
        snprintf(r->msg, sizeof r->msg, "%s", e.msg);
        return;
    }
    r->seconds = now_s() - t0;
    r->bytes = st.bytes;
    r->insts = st.insts;
    r->kernels = st.kernels;
    r->ok = 1;
    w->vt->destroy(w);
    cfg_destroy(c);
}

static void child_replay(const char *dir, struct report *r) {
    struct ws_err e = {{0}};
    struct cfg *c = cfg_create();
    char set[4200];
    snprintf(set, sizeof set, "workload.trace.path=%s", dir);
    struct gpu *g = NULL;
    struct workload *w = NULL;
    if (cfg_load_ini(c, WS_CONFIG_DIR "/rtx2060s.ini", &e) ||
        cfg_set_arg(c, "workload.name=trace", "bench", &e) || cfg_set_arg(c, set, "bench", &e) ||
        cfg_set_arg(c, "mc.check=false", "bench", &e) || !(g = gpu_create(c, &e)) ||
        !(w = workload_create(c, &e)) || cfg_check_unclaimed(c, &e) || gpu_run(g, w, &e)) {
        snprintf(r->msg, sizeof r->msg, "%s", e.msg);
        return;
    }
    const struct gpu_summary *s = gpu_summary(g);
    r->insts = s->warp_insts;
    r->kernels = s->kernels;
    r->seconds = s->host_seconds;
    r->insts_per_s = s->warp_insts_per_s;
    r->reader_peak = trace_get_stats(w)->bytes_peak;
    r->ok = 1;
    w->vt->destroy(w);
    gpu_destroy(g);
    cfg_destroy(c);
}

struct step {
    const char *dir;
    int nodes; /* > 0: export a BFS of this many nodes; 0: replay the folder */
};

static void child_step(void *arg, void *report) {
    const struct step *st = arg;
    struct report *r = report;
    if (st->nodes > 0)
        child_export(st->dir, st->nodes, r);
    else
        child_replay(st->dir, r);
    r->rss_kb = bench_peak_rss_kb();
}

/* Runs one step in a child; returns its report and its peak RSS in KiB. */
static struct report in_child(const char *dir, int nodes, long *rss_kb) {
    struct step st = {dir, nodes};
    struct report r;
    if (bench_in_child("bench_trace", child_step, &st, &r, sizeof r) != 0) exit(1);
    if (!r.ok) {
        fprintf(stderr, "bench_trace: %s\n", r.msg);
        exit(1);
    }
    *rss_kb = r.rss_kb;
    return r;
}

static void remove_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    char p[4400];
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static void bench(const char *build, int nodes) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/bench-trace-XXXXXX", build);
    if (!mkdtemp(dir)) {
        perror("bench_trace: mkdtemp");
        exit(1);
    }
    long xrss, rrss;
    struct report x = in_child(dir, nodes, &xrss);
    struct report r = in_child(dir, 0, &rrss);
    remove_dir(dir);
    printf("  %7d nodes %2llu kernels %7.1f MB %10llu warp insts | export %5.1f s %6.1f MB/s RSS "
           "%5ld MB | "
           "replay %6.1f s %6.3f M warp insts/s, peak RSS %4ld MB (reader's CTA buffers "
           "%.1f MB)\n",
           nodes, (unsigned long long)x.kernels, (double)x.bytes / 1e6, (unsigned long long)r.insts,
           x.seconds, (double)x.bytes / 1e6 / x.seconds, xrss / 1024, r.seconds,
           r.insts_per_s / 1e6, rrss / 1024, (double)r.reader_peak / 1e6);
    if (r.insts != x.insts)
        printf("  (replay ran %llu warp instructions, the export wrote %llu)\n",
               (unsigned long long)r.insts, (unsigned long long)x.insts);
}

int main(int argc, char **argv) {
    char build[4096];
    if (argc > 1) {
        snprintf(build, sizeof build, "%s", argv[1]);
    } else {
        snprintf(build, sizeof build, "%s", argv[0]);
        char *slash = strrchr(build, '/');
        if (slash)
            *slash = '\0';
        else
            snprintf(build, sizeof build, ".");
    }
    printf("Trace replay (trace-export of BFS, then run -t on rtx2060s; each step in its own "
           "process):\n");
    bench(build, 100000);
    bench(build, 1000000);
    return 0;
}
