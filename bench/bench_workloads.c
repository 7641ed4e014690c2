/* `make bench`, workload part: every built-in workload at its paper size (the papers' inputs) on
 * the default machine (rtx2060s), each run in its own child process, stopped once at N/4 and once
 * at N warp instructions (N = 1,000,000 unless given). Prints the time to build the input, the
 * model's device arrays, peak RSS after set-up and at the end of both runs, and the simulation
 * rate, with what a whole run would take at that rate: to the workload's end when it ends before
 * N, else to seed 000's cap of 1 billion thread instructions (31.25 M warp instructions; a
 * workload that ends before the cap takes less). Memory stays bounded when peak RSS does not grow
 * from N/4 to N beyond the device arrays the model writes as it goes (outputs start untouched).
 * Memory and speed are reported, never asserted: these machines are noisy.
 * Usage: bench_workloads [N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_child.h"
#include "gpu/gpu.h"
#include "workload/workload.h"

#ifndef WS_CONFIG_DIR
#define WS_CONFIG_DIR "configs"
#endif

#define SEED_CAP 31250000.0 /* seed 000: 1 billion thread instructions, in warp instructions */

/* What a child reports back through its pipe. */
struct report {
    int ok;
    char msg[sizeof((struct ws_err *)0)->msg];
    int finished; /* the workload ended before the cap */
    uint64_t insts, device_bytes;
    double setup_s, run_s, rate;
    long rss_setup_kb, rss_kb;
};

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void child(const char *name, uint64_t cap, struct report *r) {
    struct ws_err e = {{0}};
    struct cfg *c = cfg_create();
    char set_w[128], set_cap[64];
    snprintf(set_w, sizeof set_w, "workload.name=%s", name);
    snprintf(set_cap, sizeof set_cap, "gpu.max_insts=%llu", (unsigned long long)cap);
    struct gpu *g = NULL;
    struct workload *w = NULL;
    double t0 = now_s();
    if (cfg_load_ini(c, WS_CONFIG_DIR "/rtx2060s.ini", &e) || cfg_set_arg(c, set_w, "bench", &e) ||
        cfg_set_arg(c, "workload.size=paper", "bench", &e) ||
        cfg_set_arg(c, "mc.check=false", "bench", &e) || cfg_set_arg(c, set_cap, "bench", &e) ||
        !(g = gpu_create(c, &e)) || !(w = workload_create(c, &e)) || cfg_check_unclaimed(c, &e)) {
        snprintf(r->msg, sizeof r->msg, "%.64s: %.900s", name, e.msg);
        return;
    }
    r->setup_s = now_s() - t0;
    r->rss_setup_kb = bench_peak_rss_kb();
    if (gpu_run(g, w, &e)) {
        snprintf(r->msg, sizeof r->msg, "%.64s: %.900s", name, e.msg);
        return;
    }
    const struct gpu_summary *s = gpu_summary(g);
    r->insts = s->warp_insts;
    r->finished = !s->stopped_early;
    r->run_s = s->host_seconds;
    r->rate = s->warp_insts_per_s;
    r->device_bytes = workload_device_bytes(w);
    r->ok = 1;
    w->vt->destroy(w);
    gpu_destroy(g);
    cfg_destroy(c);
}

struct job {
    const char *name;
    uint64_t cap;
};

static void child_job(void *arg, void *report) {
    const struct job *j = arg;
    struct report *r = report;
    child(j->name, j->cap, r);
    r->rss_kb = bench_peak_rss_kb();
}

/* Runs one workload to `cap` in a child process; exits on failure. */
static struct report in_child(const char *name, uint64_t cap) {
    struct job j = {name, cap};
    struct report r;
    if (bench_in_child("bench_workloads", child_job, &j, &r, sizeof r) != 0) exit(1);
    if (!r.ok) {
        fprintf(stderr, "bench_workloads: %s\n", r.msg);
        exit(1);
    }
    return r;
}

static const char *duration(double s, char *buf, size_t n) {
    if (s < 120)
        snprintf(buf, n, "%.0f s", s);
    else if (s < 7200)
        snprintf(buf, n, "%.1f min", s / 60);
    else
        snprintf(buf, n, "%.1f h", s / 3600);
    return buf;
}

int main(int argc, char **argv) {
    uint64_t cap = 1000000;
    if (argc > 1) {
        char *end;
        unsigned long long v = strtoull(argv[1], &end, 10);
        if (*end || v < 4) {
            fprintf(stderr, "usage: bench_workloads [warp instructions per run, at least 4]\n");
            return 2;
        }
        cap = v;
    }
    printf("Workload library at paper size on rtx2060s, each workload run to %llu and to %llu warp "
           "instructions in its own process:\n",
           (unsigned long long)(cap / 4), (unsigned long long)cap);
    printf("  %-15s %7s %9s %9s %9s %9s %9s  %s\n", "workload", "set-up", "device", "RSS set-up",
           "peak N/4", "peak N", "M inst/s", "whole run at this rate");
    double worst_growth = 0, slowest = 0;
    const char *worst_w = "-", *slow_w = "-";
    unsigned over = 0;
    for (unsigned i = 0; i < workload_ntable; i++) {
        const char *name = workload_table[i].name;
        if (strcmp(name, "trace") == 0) continue; /* needs a trace folder: bench_trace */
        struct report q = in_child(name, cap / 4);
        struct report r = in_child(name, cap);
        double dev_mb = (double)r.device_bytes / (1 << 20);
        double growth = (double)(r.rss_kb - q.rss_kb) / 1024;
        /* pages of the device arrays the model writes become resident as it writes them */
        bool bounded = growth <= dev_mb + 8;
        over += !bounded;
        if (growth > worst_growth) worst_growth = growth, worst_w = name;
        char d[32], whole[64];
        double whole_s;
        if (r.finished) {
            whole_s = r.setup_s + r.run_s;
            snprintf(whole, sizeof whole, "%s (ends at %llu)", duration(whole_s, d, sizeof d),
                     (unsigned long long)r.insts);
        } else {
            whole_s = r.setup_s + (r.rate > 0 ? SEED_CAP / r.rate : 0);
            snprintf(whole, sizeof whole, "at most %s (to the cap)",
                     duration(whole_s, d, sizeof d));
        }
        if (whole_s > slowest) slowest = whole_s, slow_w = name;
        printf("  %-15s %5.1f s %6.0f MB %7.0f MB %6.0f MB %6.0f MB%s %8.3f  %s\n", name, r.setup_s,
               dev_mb, (double)r.rss_setup_kb / 1024, (double)q.rss_kb / 1024,
               (double)r.rss_kb / 1024, bounded ? " " : "!", r.rate / 1e6, whole);
    }
    char d[32];
    printf("  largest growth of peak RSS from N/4 to N: %.0f MB (%s); %u workload(s) grew by more "
           "than the device arrays they write (marked !)\n",
           worst_growth, worst_w, over);
    printf("  longest whole run at its rate: %s (%s)\n", slow_w, duration(slowest, d, sizeof d));
    return 0;
}
