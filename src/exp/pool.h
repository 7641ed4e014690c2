/* A local worker pool: runs child processes (one per task, argv given), at most N at a time, with
 * each child's stdout and stderr sent to files. Children get SIGTERM when the pool's process dies
 * (even by SIGKILL), so an interrupted sweep leaves no orphan writing results behind a resume. */
#pragma once

#include "base/err.h"

struct pool_task {
    char **argv; /* argv[0] is ignored: the pool executes `exe` */
    const char *out_path, *err_path;
};

struct pool_cb {
    void *ctx;
    void (*started)(void *ctx, int task);
    /* wait_status as waitpid gives it; -1 when the child could not be started */
    void (*finished)(void *ctx, int task, int wait_status, double seconds);
};

/* Runs tasks[0..n) with `workers` in parallel. Returns 0 when all ran (successfully or not),
 * a signal number when SIGINT or SIGTERM arrived (running children are terminated and reaped
 * first), -1 on a system error (message in e). */
int pool_run(const char *exe, const struct pool_task *tasks, int n, int workers,
             const struct pool_cb *cb, struct ws_err *e);

/* Seconds on a monotonic clock. */
double pool_now(void);
