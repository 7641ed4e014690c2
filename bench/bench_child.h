/* Runs one measurement in a forked child process (bench_trace, bench_workloads): each step's
 * peak RSS is then its own, not the largest of every step before it. The child fills a report
 * struct, which comes back whole through a pipe. Header-only: each bench source is its own
 * program. */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The peak resident set of this process so far, in KiB. */
static inline long bench_peak_rss_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Runs fn(arg, report) in a child and copies its `size`-byte report into `report` (zeroed
 * first). Returns 0, or -1 after a message to stderr (prefixed `who`) when the child could not
 * be run or did not send its report whole; whether the report says the step worked is the
 * caller's to check. */
static inline int bench_in_child(const char *who, void (*fn)(void *arg, void *report), void *arg,
                                 void *report, size_t size) {
    int fd[2];
    memset(report, 0, size);
    if (pipe(fd) != 0) {
        fprintf(stderr, "%s: pipe failed\n", who);
        return -1;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "%s: fork failed\n", who);
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        fn(arg, report);
        ssize_t n = write(fd[1], report, size);
        _exit(n == (ssize_t)size ? 0 : 1);
    }
    close(fd[1]);
    size_t got = 0; /* a read may return part of the report */
    for (;;) {
        ssize_t n = read(fd[0], (char *)report + got, size - got);
        if (n <= 0) break;
        got += (size_t)n;
        if (got == size) break;
    }
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != size || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "%s: a child process failed\n", who);
        return -1;
    }
    return 0;
}
