/* `make bench`: standalone-memory-mode speed. Runs 5 M requests (80% reads over 1 GiB), random
 * and streaming, on DDR4-2400 one channel and HBM2 eight channels, checker off, and prints
 * requests simulated per second (by wall clock, and by the process's CPU time, which a shared
 * machine does not dilute) against the targets (10x the best established simulator
 * measured on the same 2-core machine). Then pushes random stress through every preset x policy
 * with the protocol checker on and reports commands checked per second. Speed is reported,
 * never asserted: these machines are noisy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "mem/drive/drive.h"
#include "mem/drive/synth.h"
#include "mem/mc/policy.h"
#include "mem/memsys.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU time of this process: on a shared machine the wall clock also counts the time other jobs
 * held the core, CPU time only this simulation's (single-threaded) work. */
static double cpu_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static long max_rss_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static struct memsys *make(const char *ini) {
    struct cfg *c = cfg_create();
    struct ws_err e = {{0}};
    if (cfg_load_ini_string(c, "bench", ini, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        exit(1);
    }
    struct memsys *ms = memsys_create(c, &e);
    if (!ms) {
        fprintf(stderr, "%s\n", e.msg);
        exit(1);
    }
    cfg_destroy(c);
    return ms;
}

static double run(struct memsys *ms, int pattern, int64_t n, const struct memsys_summary **sum,
                  double *cpu) {
    struct synth_cfg sc = {.pattern = pattern,
                           .requests = n,
                           .read_share = 0.8,
                           .footprint = 1LL << 30,
                           .stride = 4096,
                           .streams = 8,
                           .window = 256,
                           .seed = 1};
    struct ws_err e = {{0}};
    struct synth *sy = synth_create(&sc, ms, &e);
    struct drive_result res;
    double t0 = now_s(), c0 = cpu_s();
    if (!sy || drive_run(&synth_ops, sy, ms, false, &res, &e) != 0) {
        fprintf(stderr, "bench: %s\n", e.msg);
        exit(1);
    }
    double dt = now_s() - t0;
    *cpu = cpu_s() - c0;
    synth_destroy(sy);
    *sum = memsys_summary(ms);
    return dt;
}

int main(int argc, char **argv) {
    int64_t n = argc > 1 ? atoll(argv[1]) : 5000000;
    struct {
        const char *name, *ini;
        double target_random, target_stream;
    } cfgs[] = {
        {"DDR4-2400 x1", "[dram]\npreset=ddr4-2400\nchannels=1\n", 1.6e6, 2.5e6},
        {"HBM2 x8", "[dram]\npreset=hbm2\nchannels=8\n", 5.4e6, 13.6e6},
    };
    printf("warpsim bench: %lld requests, 80%% reads over 1 GiB, FR-FCFS, checker off\n",
           (long long)n);
    printf("%-14s %-7s %12s %12s %8s %10s %9s %8s\n", "memory", "pattern", "requests/s",
           "CPU req/s", "target", "ratio", "bw share", "maxRSS");
    for (int k = 0; k < 2; k++)
        for (int pat = 0; pat < 2; pat++) {
            int pattern = pat == 0 ? SYN_RANDOM : SYN_STREAM;
            struct memsys *ms = make(cfgs[k].ini);
            const struct memsys_summary *s;
            double cpu;
            double dt = run(ms, pattern, n, &s, &cpu);
            double rate = (double)n / dt;
            double target = pat == 0 ? cfgs[k].target_random : cfgs[k].target_stream;
            printf("%-14s %-7s %12.0f %12.0f %8.2gM %9.2fx %8.1f%% %6ldMB\n", cfgs[k].name,
                   pat == 0 ? "random" : "stream", rate, cpu > 0 ? (double)n / cpu : 0.0,
                   target / 1e6, rate / target, 100 * s->bw_share, max_rss_kb() / 1024);
            memsys_destroy(ms);
        }
    /* the checker on random stress, every preset x policy */
    static const char *const presets[] = {"ddr3-1600",      "ddr4-2400",  "gddr5-gtx480",
                                          "gddr6-rtx2060s", "hbm2-qv100", "hbm2",
                                          "hbm3-h100",      "hbm3e-h200"};
    const unsigned npresets = sizeof presets / sizeof presets[0];
    uint64_t cmds = 0;
    double t0 = now_s();
    for (unsigned p = 0; p < npresets; p++)
        for (unsigned k = 0; k < mc_npolicies; k++) {
            char ini[256];
            snprintf(ini, sizeof ini, "[dram]\npreset=%s\n[mc]\npolicy=%s\ncheck=true\n",
                     presets[p], mc_policies[k]->name);
            struct memsys *ms = make(ini);
            const struct memsys_summary *s;
            double cpu;
            run(ms, SYN_RANDOM, n / 20, &s, &cpu);
            cmds += s->commands_checked;
            memsys_destroy(ms);
        }
    double dt = now_s() - t0;
    printf("protocol checker: %llu commands across %u presets x %u policies, 0 violations "
           "(%.2f M commands/s with simulation)\n",
           (unsigned long long)cmds, npresets, mc_npolicies, (double)cmds / dt / 1e6);
    return 0;
}
