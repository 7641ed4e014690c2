/* Local worker pool (see pool.h): fork + exec, waitpid, signals turned into a clean stop. */
#include "exp/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double pool_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig) {
    stop_signal = sig;
}

static pid_t start(const char *exe, const struct pool_task *t, pid_t parent) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    /* child: die with the sweep, so no orphan finishes a job behind a resumed sweep's back */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(127);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    int out = open(t->out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(t->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(127);
    close(out);
    close(err);
    execv(exe, t->argv);
    /* stderr is the job's error file: say why it did not start */
    const char *msg = "warpsim sweep: cannot execute ";
    if (write(2, msg, strlen(msg)) < 0 || write(2, exe, strlen(exe)) < 0 || write(2, "\n", 1) < 0)
        _exit(127);
    _exit(127);
}

int pool_run(const char *exe, const struct pool_task *tasks, int n, int workers,
             const struct pool_cb *cb, struct ws_err *e) {
    if (workers < 1) workers = 1;
    pid_t *pids = calloc((size_t)workers, sizeof *pids);
    int *which = calloc((size_t)workers, sizeof *which);
    double *t0 = calloc((size_t)workers, sizeof *t0);
    if (!pids || !which || !t0) {
        free(pids), free(which), free(t0);
        return ws_fail(e, "out of memory");
    }
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: waitpid returns EINTR */
    sigemptyset(&sa.sa_mask);
    stop_signal = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    pid_t self = getpid();
    int next = 0, running = 0, rc = 0;
    while (next < n || running > 0) {
        while (!stop_signal && next < n && running < workers) {
            int slot = 0;
            while (pids[slot]) slot++;
            t0[slot] = pool_now();
            pid_t pid = start(exe, &tasks[next], self);
            if (pid < 0) {
                if (cb->finished) cb->finished(cb->ctx, next, -1, 0);
                next++;
                continue;
            }
            pids[slot] = pid;
            which[slot] = next++;
            running++;
            if (cb->started) cb->started(cb->ctx, which[slot]);
        }
        if (stop_signal) {
            for (int s = 0; s < workers; s++)
                if (pids[s]) kill(pids[s], SIGTERM);
            rc = stop_signal;
            next = n; /* start nothing more; reap the running ones */
        }
        if (running == 0) break;
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            rc = ws_fail(e, "waitpid: %s", strerror(errno));
            break;
        }
        for (int s = 0; s < workers; s++)
            if (pids[s] == pid) {
                pids[s] = 0;
                running--;
                if (cb->finished) cb->finished(cb->ctx, which[s], status, pool_now() - t0[s]);
            }
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    free(pids);
    free(which);
    free(t0);
    return rc;
}
