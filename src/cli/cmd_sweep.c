/* `warpsim sweep RECIPE`: expands a recipe (exp/recipe.h) into jobs, checks every job's settings
 * against the key tables `warpsim run` binds before any job starts, then runs each job as a child
 * `warpsim run` on a local pool of N workers. DIR holds recipe.ini (a copy), jobs.json (the
 * manifest: each job's name, axis values and command line), results/NAME.json (written by the
 * child to a temporary name, then renamed), logs/NAME.out|err and status.json (per job: state,
 * exit status, the error line). --resume skips jobs whose result is complete. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "exp/pool.h"
#include "exp/recipe.h"
#include "exp/slurm.h"
#include "gpu/gpu.h"
#include "workload/workload.h"

static const char usage[] =
    "usage: warpsim sweep RECIPE.ini [-j N] [--out DIR] [--resume] [--dry-run]\n"
    "                    [--slurm [--partition P] [--time T] [--mem M] [--no-submit]]\n"
    "       warpsim sweep --status DIR | --collect DIR\n"
    "  -j N       run N jobs at a time (default 1; with --slurm: array throttle)\n"
    "  --out DIR  where results go (default results/<recipe name>)\n"
    "  --resume   keep the complete results already in DIR, run the rest\n"
    "  --dry-run  check the recipe and list the jobs, run nothing\n"
    "  --slurm    write DIR/slurm.sbatch (one array task per job) and submit it with sbatch;\n"
    "             partition, time and memory from the options or the recipe's [slurm]\n"
    "  --status   how many jobs of DIR are done, failed, still queued or running\n"
    "  --collect  the same, then status.json and the failed jobs' errors; exit 0 when all\n"
    "             are done, 1 when some failed (or a local sweep stopped before running them),\n"
    "             75 while some are still queued or running\n";

struct sweep {
    struct recipe r;
    struct rcp_job *jobs;
    int njobs;
    const char *dir;
    /* per job */
    char **argv_text; /* the command line, space-joined, for the manifest and resume checks */
    int *state;       /* 0 pending, 1 done, 2 failed, 3 running, 4 skipped (complete) */
    int *exit_code, *signo;
    double *seconds;
    char (*error)[512];
    int done, failed, running, skipped, total_to_run;
    double t_start, busy_seconds;
    int workers;
    bool tty;
};

enum { ST_PENDING, ST_DONE, ST_FAILED, ST_RUNNING, ST_SKIPPED };
static const char *const state_names[] = {"pending", "done", "failed", "running", "done"};

/* ---- checking every job before any starts ---- */

static int job_cfg(const struct recipe *r, const struct rcp_runspec *s, bool force_test,
                   struct cfg *c, struct ws_err *e) {
    struct cli_common o;
    memset(&o, 0, sizeof o);
    o.config_path = s->config.value;
    struct ws_err e2 = {{0}};
    if (cli_load_config(&o, c, &e2) != 0 || cli_check_kind(&o, c, true, "a GPU run", &e2) != 0)
        return ws_fail(e, "%s:%ld: config '%s': %s", r->path, s->config.line, s->config.value,
                       e2.msg);
    if (cfg_set(c, "workload.name", s->workload.value, r->path, s->workload.line, e) != 0 ||
        cfg_set(c, "workload.size", force_test ? "test" : s->size.value, r->path, s->size.line,
                e) != 0)
        return -1;
    for (int i = 0; i < s->nsets; i++)
        if (cfg_set(c, s->sets[i].key, s->sets[i].value, r->path, s->sets[i].line, e) != 0)
            return -1;
    return 0;
}

/* Creates each job's GPU and workload as `warpsim run` would. A [set] key applies to the jobs
 * that read it (workload.bfs.nodes to the bfs jobs, mc.frfcfs_cap.cap to frfcfs-cap ones) and
 * must apply to at least one; an axis key must apply to every job. Inputs are built at their
 * real size once per (config, size, workload), at test size otherwise (keys are the same). */
static int check_jobs(struct sweep *sw, struct ws_err *e) {
    struct recipe *r = &sw->r;
    uint64_t used = 0;
    static char first_err[RCP_MAX_SETS][1024];
    bool first_unknown[RCP_MAX_SETS] = {false};
    memset(first_err, 0, sizeof first_err);
    char(*seen)[3 * RCP_VAL] = calloc((size_t)sw->njobs, sizeof *seen);
    int nseen = 0;
    if (!seen) return ws_fail(e, "out of memory");
    int rc = 0;
    for (int j = 0; j < sw->njobs && rc == 0; j++) {
        struct rcp_job *job = &sw->jobs[j];
        struct rcp_runspec s;
        recipe_runspec(r, job, &s);
        char sig[3 * RCP_VAL];
        snprintf(sig, sizeof sig, "%s|%s|%s", s.config.value, s.size.value, s.workload.value);
        bool force_test = false;
        for (int k = 0; k < nseen && !force_test; k++) force_test = !strcmp(seen[k], sig);
        if (!force_test) strcpy(seen[nseen++], sig);
        struct cfg *c = cfg_create();
        struct gpu *g = NULL;
        struct workload *w = NULL;
        rc = job_cfg(r, &s, force_test, c, e);
        if (rc == 0 && !(g = gpu_create(c, e))) rc = -1;
        if (rc == 0 && !(w = workload_create(c, e))) rc = -1;
        for (int i = 0; rc == 0 && i < s.nsets; i++) {
            struct ws_err ke = {{0}};
            int krc = cfg_check_key(c, s.sets[i].key, &ke);
            if (krc == 0) {
                if (s.set_index[i] >= 0) used |= UINT64_C(1) << s.set_index[i];
                continue;
            }
            if (s.set_index[i] >= 0) {
                job->sets_skip |= UINT64_C(1) << s.set_index[i];
                /* a typo's "unknown key" (with its suggestion) says more than another job's
                 * "not read with this configuration" */
                int si = s.set_index[i];
                if (!first_err[si][0] || (krc == CFG_UNKNOWN_KEY && !first_unknown[si])) {
                    snprintf(first_err[si], sizeof first_err[0], "%s", ke.msg);
                    first_unknown[si] = krc == CFG_UNKNOWN_KEY;
                }
            } else {
                rc = ws_fail(e, "%s (in job %s)", ke.msg, job->name);
            }
        }
        if (w) w->vt->destroy(w);
        gpu_destroy(g);
        cfg_destroy(c);
    }
    for (int i = 0; rc == 0 && i < r->nsets; i++)
        if (!(used & (UINT64_C(1) << i))) rc = ws_fail(e, "%s", first_err[i]);
    free(seen);
    return rc;
}

/* ---- files ---- */

static int mkdir_p(const char *path, struct ws_err *e) {
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return ws_fail(e, "%s: path too long", path);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || !*p) {
            char ch = *p;
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return ws_fail(e, "%s: cannot create: %s", buf, strerror(errno));
            *p = ch;
            if (!ch) break;
        }
    }
    return 0;
}

static void job_path(const struct sweep *sw, int j, const char *sub, const char *ext, char *buf,
                     size_t n) {
    snprintf(buf, n, "%s/%s/%s%s", sw->dir, sub, sw->jobs[j].name, ext);
}

/* A result is complete when it parses and holds the stats a run writes last. */
static bool result_complete(const char *path) {
    json_t *j = json_load_file(path, 0, NULL);
    bool ok = j && json_is_object(json_object_get(j, "stats"));
    json_decref(j);
    return ok;
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) free(buf);
            buf = nb;
        }
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

/* The last non-empty line of a job's stderr: `warpsim run` ends with its error there. */
static void last_line(const char *path, char *out, size_t n) {
    out[0] = '\0';
    char *t = slurp(path, NULL);
    if (!t) return;
    size_t len = strlen(t);
    while (len > 0 && (t[len - 1] == '\n' || t[len - 1] == '\r')) t[--len] = '\0';
    char *nl = strrchr(t, '\n');
    snprintf(out, n, "%s", nl ? nl + 1 : t);
    free(t);
}

/* The start time of process pid in clock ticks since boot (/proc/PID/stat's 22nd field), or 0
 * where /proc cannot tell (another OS, or the process is gone). Kept in sweep.pid beside the pid
 * so that a pid the kernel gave to a new process after the sweep died does not look alive. */
static unsigned long long proc_start(long pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    char *t = slurp(path, NULL);
    if (!t) return 0;
    unsigned long long st = 0;
    const char *p = strrchr(t, ')'); /* the command name may hold spaces and ')' */
    if (p) {
        p++;
        for (int f = 3; f < 22 && p; f++) p = strchr(p + 1, ' ');
        if (p) st = strtoull(p + 1, NULL, 10);
    }
    free(t);
    return st;
}

/* Whether DIR/sweep.pid ("pid host start") names a local sweep that still runs. One on another
 * host is taken as alive: its process cannot be checked from here. who gets "pid N on HOST". */
static bool sweep_alive(const char *dir, char *who, size_t n) {
    char path[PATH_MAX + 32], line[320] = "", host[256] = "", phost[256] = "";
    snprintf(path, sizeof path, "%s/sweep.pid", dir);
    last_line(path, line, sizeof line);
    long pid = 0;
    unsigned long long start = 0;
    int got = sscanf(line, "%ld %255s %llu", &pid, phost, &start);
    if (got < 1 || pid <= 0) return false;
    snprintf(who, n, "pid %ld%s%s", pid, got >= 2 ? " on " : "", got >= 2 ? phost : "");
    gethostname(host, sizeof host - 1);
    if (!host[0]) snprintf(host, sizeof host, "-"); /* as sweep_lock writes an unnamed host */
    if (got >= 2 && strcmp(phost, host) != 0) return true;
    if (kill((pid_t)pid, 0) != 0 && errno != EPERM) return false;
    return got < 3 || start == 0 || proc_start(pid) == start;
}

/* Takes DIR/sweep.pid for this process: written whole to a file of its own, then linked into
 * place, which fails when the name exists, so two sweeps starting at once cannot both get it. A
 * sweep.pid of a sweep that no longer runs is replaced. pidf gets the path. */
static int sweep_lock(const char *dir, char *pidf, size_t n, struct ws_err *e) {
    char host[256] = "", text[320], tmp[PATH_MAX + 64];
    gethostname(host, sizeof host - 1);
    if (!host[0]) snprintf(host, sizeof host, "-");
    long me = (long)getpid();
    int len = snprintf(text, sizeof text, "%ld %s %llu\n", me, host, proc_start(me));
    snprintf(pidf, n, "%s/sweep.pid", dir);
    snprintf(tmp, sizeof tmp, "%s/sweep.pid.%ld", dir, me);
    if (ws_write_text_atomic(tmp, text, (size_t)len, e) != 0) return -1;
    int rc = -1;
    for (int tries = 0; tries < 3 && rc != 0; tries++) {
        if (link(tmp, pidf) == 0) {
            rc = 0;
            break;
        }
        if (errno != EEXIST) {
            ws_fail(e, "%s: cannot create: %s", pidf, strerror(errno));
            break;
        }
        char who[320];
        if (sweep_alive(dir, who, sizeof who)) {
            ws_fail(e,
                    "%s: a sweep is already running there (%s); wait for it, or, if it is not "
                    "running any more, delete %s and finish with --resume",
                    dir, who, pidf);
            break;
        }
        remove(pidf); /* a dead sweep's */
    }
    if (rc != 0 && !e->msg[0]) ws_fail(e, "%s: cannot take %s", dir, pidf);
    unlink(tmp);
    return rc;
}

static int write_manifest(struct sweep *sw, struct ws_err *e) {
    json_t *root = json_object(), *axes = json_array(), *jobs = json_array();
    const struct recipe *r = &sw->r;
    json_object_set_new(root, "recipe", json_string(r->path));
    json_object_set_new(root, "title", json_string(r->title));
    for (int a = 0; a < r->naxes; a++) {
        json_t *ax = json_object(), *vals = json_array();
        json_object_set_new(ax, "key", json_string(r->axes[a].key));
        for (int v = 0; v < r->axes[a].n; v++)
            json_array_append_new(vals, json_string(r->axes[a].values[v]));
        json_object_set_new(ax, "values", vals);
        json_array_append_new(axes, ax);
    }
    json_object_set_new(root, "axes", axes);
    for (int j = 0; j < sw->njobs; j++) {
        json_t *o = json_object(), *vals = json_object();
        json_object_set_new(o, "id", json_integer(j));
        json_object_set_new(o, "name", json_string(sw->jobs[j].name));
        for (int a = 0; a < r->naxes; a++)
            json_object_set_new(vals, r->axes[a].key,
                                json_string(recipe_job_value(r, &sw->jobs[j], a)));
        json_object_set_new(o, "values", vals);
        json_object_set_new(o, "workload", json_string(recipe_job_workload(r, &sw->jobs[j])));
        char rel[RCP_VAL + 32];
        snprintf(rel, sizeof rel, "results/%s.json", sw->jobs[j].name);
        json_object_set_new(o, "result", json_string(rel));
        json_object_set_new(o, "command", json_string(sw->argv_text[j]));
        json_array_append_new(jobs, o);
    }
    json_object_set_new(root, "jobs", jobs);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/jobs.json", sw->dir);
    int rc = ws_write_json_atomic(path, root, e);
    json_decref(root);
    return rc;
}

static void write_status(struct sweep *sw) {
    json_t *root = json_object(), *jobs = json_array();
    for (int j = 0; j < sw->njobs; j++) {
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(sw->jobs[j].name));
        json_object_set_new(o, "state", json_string(state_names[sw->state[j]]));
        if (sw->state[j] == ST_DONE || sw->state[j] == ST_FAILED) {
            json_object_set_new(o, "exit_status", json_integer(sw->exit_code[j]));
            if (sw->signo[j]) json_object_set_new(o, "signal", json_integer(sw->signo[j]));
            json_object_set_new(o, "seconds", json_real(sw->seconds[j]));
        }
        if (sw->state[j] == ST_FAILED) {
            json_object_set_new(o, "error", json_string(sw->error[j]));
            char log[PATH_MAX];
            snprintf(log, sizeof log, "logs/%s.err", sw->jobs[j].name);
            json_object_set_new(o, "stderr", json_string(log));
        }
        json_array_append_new(jobs, o);
    }
    json_object_set_new(root, "jobs", jobs);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/status.json", sw->dir);
    struct ws_err e = {{0}};
    if (ws_write_json_atomic(path, root, &e) != 0) fprintf(stderr, "warpsim: %s\n", e.msg);
    json_decref(root);
}

/* ---- progress ---- */

static void progress(struct sweep *sw, bool final) {
    double el = pool_now() - sw->t_start;
    int finished = sw->done + sw->failed;
    int left = sw->total_to_run - finished;
    char eta[48] = "?";
    /* mean job time spread over the workers, for the jobs not finished yet */
    if (left <= 0)
        snprintf(eta, sizeof eta, "0 s");
    else if (finished > 0)
        snprintf(eta, sizeof eta, "%.0f s",
                 sw->busy_seconds / finished * left / (sw->workers < left ? sw->workers : left));
    char kept[48] = "";
    if (sw->skipped) snprintf(kept, sizeof kept, " (%d kept from before)", sw->skipped);
    fprintf(stderr, "%ssweep: %d/%d done%s, %d running, %d failed, %.0f s elapsed, ETA %s%s",
            sw->tty ? "\r" : "", sw->done + sw->skipped, sw->njobs, kept, sw->running, sw->failed,
            el, eta, sw->tty ? "   " : "\n");
    if (final && sw->tty) fputc('\n', stderr);
    fflush(stderr);
}

static void on_started(void *ctx, int task) {
    struct sweep *sw = ctx;
    (void)task;
    sw->running++;
    progress(sw, false);
}

static int *task_job; /* pool task index -> job index */

static void on_finished(void *ctx, int task, int status, double secs) {
    struct sweep *sw = ctx;
    int j = task_job[task];
    char res[PATH_MAX], err[PATH_MAX];
    job_path(sw, j, "results", ".json", res, sizeof res);
    job_path(sw, j, "logs", ".err", err, sizeof err);
    if (status != -1) sw->running--;
    sw->seconds[j] = secs;
    sw->busy_seconds += secs;
    sw->exit_code[j] = status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    sw->signo[j] = status != -1 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (sw->exit_code[j] == 0 && result_complete(res)) {
        sw->state[j] = ST_DONE;
        sw->done++;
    } else {
        sw->state[j] = ST_FAILED;
        sw->failed++;
        last_line(err, sw->error[j], sizeof sw->error[j]);
        if (!sw->error[j][0] && sw->signo[j])
            snprintf(sw->error[j], sizeof sw->error[j], "killed by signal %d", sw->signo[j]);
        else if (!sw->error[j][0])
            snprintf(sw->error[j], sizeof sw->error[j], "exit status %d, no result",
                     sw->exit_code[j]);
    }
    /* as a Slurm task leaves it (the shell's status: 128 + signal when killed), so that
     * --status and --collect tell this job's outcome from the files */
    char ex[PATH_MAX], num[32];
    job_path(sw, j, "logs", ".exit", ex, sizeof ex);
    int n = snprintf(num, sizeof num, "%d\n", sw->signo[j] ? 128 + sw->signo[j] : sw->exit_code[j]);
    struct ws_err xe = {{0}};
    if (ws_write_text_atomic(ex, num, (size_t)n, &xe) != 0)
        fprintf(stderr, "warpsim: %s\n", xe.msg);
    write_status(sw);
    if (sw->tty) progress(sw, false); /* a log gets a line per started job, and a last one */
}

/* ---- the command ---- */

static int build_argv(struct sweep *sw, int j, char ***argv_out) {
    struct rcp_runspec s;
    recipe_runspec(&sw->r, &sw->jobs[j], &s);
    char res[PATH_MAX];
    job_path(sw, j, "results", ".json", res, sizeof res);
    int n = 0, cap = 16 + 2 * s.nsets;
    char **argv = calloc((size_t)cap, sizeof *argv);
    if (!argv) return -1;
    argv[n++] = strdup("warpsim");
    argv[n++] = strdup("run");
    argv[n++] = strdup("-c");
    argv[n++] = strdup(s.config.value);
    argv[n++] = strdup("-w");
    argv[n++] = strdup(s.workload.value);
    argv[n++] = strdup("--size");
    argv[n++] = strdup(s.size.value);
    for (int i = 0; i < s.nsets; i++) {
        char kv[RCP_KEY + RCP_VAL + 2];
        snprintf(kv, sizeof kv, "%s=%s", s.sets[i].key, s.sets[i].value);
        argv[n++] = strdup("--set");
        argv[n++] = strdup(kv);
    }
    argv[n++] = strdup("--no-progress");
    argv[n++] = strdup("-o");
    argv[n++] = strdup(res);
    argv[n] = NULL;
    *argv_out = argv;
    size_t len = 0;
    for (int i = 0; i < n; i++) len += strlen(argv[i]) + 1;
    sw->argv_text[j] = malloc(len + 1);
    if (!sw->argv_text[j]) return -1;
    sw->argv_text[j][0] = '\0';
    for (int i = 0; i < n; i++) {
        if (i) strcat(sw->argv_text[j], " ");
        strcat(sw->argv_text[j], argv[i]);
    }
    return 0;
}

/* The command lines of an earlier sweep into DIR, by job name (for --resume). */
static json_t *old_commands(const char *dir) {
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/jobs.json", dir);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je), *map = json_object();
    if (!root && access(path, F_OK) == 0)
        fprintf(stderr,
                "warpsim: %s:%d:%d: %s; without it the results there cannot be matched to their "
                "commands, so every job runs again\n",
                path, je.line, je.column, je.text);
    json_t *jobs = json_object_get(root, "jobs"), *o;
    size_t i;
    json_array_foreach(jobs, i, o) {
        const char *name = json_string_value(json_object_get(o, "name"));
        json_t *cmd = json_object_get(o, "command");
        if (name && json_is_string(cmd)) json_object_set(map, name, cmd);
    }
    json_decref(root);
    return map;
}

static const char *self_exe(const char *argv0) {
    static char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) {
        buf[n] = '\0';
        return buf;
    }
    return argv0;
}

/* --status / --collect: the state of each job from the files alone (results, the logs/NAME.exit
 * that Slurm tasks and local jobs leave, sweep.pid while a local sweep runs), wherever the jobs
 * ran. */
static int follow(const char *dir, bool collect) {
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/jobs.json", dir);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    json_t *jobs = json_object_get(root, "jobs");
    if (!json_is_array(jobs)) {
        if (access(path, F_OK) != 0)
            fprintf(stderr, "warpsim: %s: not a sweep folder (no jobs.json)\n", dir);
        else if (!root)
            fprintf(stderr, "warpsim: %s:%d:%d: %s (the sweep's job list is damaged)\n", path,
                    je.line, je.column, je.text);
        else
            fprintf(stderr, "warpsim: %s: no \"jobs\" list (not a sweep's job list)\n", path);
        json_decref(root);
        return WS_EXIT_INPUT;
    }
    int n = (int)json_array_size(jobs), done = 0, failed = 0;
    json_t *st = json_object(), *arr = json_array();
    for (int j = 0; j < n; j++) {
        const char *name =
            json_string_value(json_object_get(json_array_get(jobs, (size_t)j), "name"));
        if (!name) continue;
        char res[PATH_MAX], ex[PATH_MAX], err[PATH_MAX];
        snprintf(res, sizeof res, "%s/results/%s.json", dir, name);
        snprintf(ex, sizeof ex, "%s/logs/%s.exit", dir, name);
        snprintf(err, sizeof err, "%s/logs/%s.err", dir, name);
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(name));
        char line[512];
        if (result_complete(res)) {
            done++;
            json_object_set_new(o, "state", json_string("done"));
        } else if (access(ex, F_OK) == 0) {
            failed++;
            last_line(ex, line, sizeof line);
            int status = atoi(line);
            json_object_set_new(o, "state", json_string("failed"));
            json_object_set_new(o, "exit_status", json_integer(status));
            last_line(err, line, sizeof line);
            if (!line[0] && status > 128)
                snprintf(line, sizeof line, "killed by signal %d", status - 128);
            else if (!line[0])
                snprintf(line, sizeof line, "exit status %d, no result", status);
            json_object_set_new(o, "error", json_string(line));
            snprintf(path, sizeof path, "logs/%s.err", name);
            json_object_set_new(o, "stderr", json_string(path));
            if (collect)
                fprintf(stderr, "warpsim: job %s failed: %s (%s/logs/%s.err)\n", name, line, dir,
                        name);
        } else {
            json_object_set_new(o, "state", json_string("pending"));
        }
        json_array_append_new(arr, o);
    }
    json_object_set_new(st, "jobs", arr);
    int code = WS_EXIT_OK;
    if (collect) {
        struct ws_err e = {{0}};
        snprintf(path, sizeof path, "%s/status.json", dir);
        if (ws_write_json_atomic(path, st, &e) != 0) {
            fprintf(stderr, "warpsim: %s\n", e.msg);
            code = WS_EXIT_INPUT;
        }
    }
    char jid[64] = "", who[320];
    snprintf(path, sizeof path, "%s/slurm.jobid", dir);
    last_line(path, jid, sizeof jid);
    /* a live sweep process runs the rest; else a Slurm script (slurm.sbatch) does once it is
     * submitted; else nothing will finish them */
    snprintf(path, sizeof path, "%s/slurm.sbatch", dir);
    bool alive = sweep_alive(dir, who, sizeof who), local = access(path, F_OK) != 0;
    bool stopped = !alive && local;
    /* --no-submit leaves no job id; the script may have been submitted by hand since */
    int left = n - done - failed;
    char why[PATH_MAX + 160] = "";
    if (stopped && left)
        snprintf(why, sizeof why, " (the sweep is not running: finish it with --resume)");
    else if (jid[0])
        snprintf(why, sizeof why, " (Slurm job %s)", jid);
    else if (!alive && !local && left) /* --no-submit: the script may have been submitted by hand */
        snprintf(why, sizeof why,
                 " (no Slurm job id: warpsim did not submit %s; submit it unless that was done by "
                 "hand)",
                 path);
    printf("sweep %s: %d/%d done, %d failed, %d %s%s\n", dir, done, n, failed, left,
           stopped ? "not run" : "queued or running", why);
    if (collect && code == WS_EXIT_OK)
        code = failed || (stopped && done < n) ? WS_EXIT_INPUT : done < n ? 75 : WS_EXIT_OK;
    json_decref(st);
    json_decref(root);
    return code;
}

/* Writes DIR/slurm.sbatch for the jobs left to run and submits it unless no_submit. */
static int submit_slurm(struct sweep *sw, char ***job_argv, const struct slurm_opts *o,
                        const char *exe, bool no_submit, struct ws_err *e) {
    struct slurm_task *tasks = calloc((size_t)sw->njobs, sizeof *tasks);
    int *ids = calloc((size_t)sw->njobs, sizeof *ids), n = 0;
    char cwd[PATH_MAX], path[PATH_MAX], *text = NULL;
    size_t len = 0;
    int rc = 0;
    if (!tasks || !ids || !getcwd(cwd, sizeof cwd)) {
        rc = ws_fail(e, "out of memory or no working directory");
        goto out;
    }
    for (int j = 0; j < sw->njobs; j++) {
        tasks[j] = (struct slurm_task){sw->jobs[j].name, job_argv[j]};
        if (sw->state[j] == ST_SKIPPED) continue;
        ids[n++] = j;
        snprintf(path, sizeof path, "%s/logs/%s.exit", sw->dir, sw->jobs[j].name);
        remove(path); /* an earlier attempt's */
    }
    if (n == 0) {
        printf("sweep: all %d jobs are complete in %s; nothing to submit\n", sw->njobs, sw->dir);
        goto out;
    }
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        rc = ws_fail(e, "out of memory");
        goto out;
    }
    const char *base = strrchr(sw->r.path, '/');
    char jobname[128];
    /* a label only: a long recipe name is cut */
    snprintf(jobname, sizeof jobname, "warpsim-%.100s", base ? base + 1 : sw->r.path);
    char *dot = strrchr(jobname, '.');
    if (dot && !strcmp(dot, ".ini")) *dot = '\0';
    slurm_script(f, o, jobname, exe, cwd, sw->dir, tasks, ids, n);
    fclose(f);
    snprintf(path, sizeof path, "%s/slurm.sbatch", sw->dir);
    if ((rc = ws_write_text_atomic(path, text, len, e)) != 0) goto out;
    if (no_submit) {
        printf("sweep: %d array tasks in %s (not submitted)\n", n, path);
        goto out;
    }
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "sbatch --parsable '%s'", path);
    FILE *p = popen(cmd, "r");
    char id[128] = "";
    if (!p || !fgets(id, sizeof id, p)) {
        if (p) pclose(p);
        rc = ws_fail(e, "sbatch failed (is Slurm installed?); the script is %s", path);
        goto out;
    }
    if (pclose(p) != 0) {
        rc = ws_fail(e, "sbatch refused %s", path);
        goto out;
    }
    id[strcspn(id, ";\n")] = '\0';
    snprintf(path, sizeof path, "%s/slurm.jobid", sw->dir);
    char line[160];
    int l = snprintf(line, sizeof line, "%s\n", id);
    if ((rc = ws_write_text_atomic(path, line, (size_t)l, e)) != 0) goto out;
    printf("sweep: submitted Slurm array job %s (%d tasks); follow it with warpsim sweep --status "
           "%s\n",
           id, n, sw->dir);
out:
    free(text);
    free(tasks);
    free(ids);
    return rc;
}

int cmd_sweep(int argc, char **argv) {
    char pidf[PATH_MAX + 32] = "";
    bool locked = false;
    const char *recipe_path = NULL, *out = NULL;
    int workers = 1;
    bool resume = false, dry = false, slurm = false, no_submit = false;
    struct slurm_opts so;
    memset(&so, 0, sizeof so);
    const char *part = NULL, *tlim = NULL, *mem = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--status") || !strcmp(a, "--collect")) {
            if (i + 1 < argc) return follow(argv[i + 1], !strcmp(a, "--collect"));
            fprintf(stderr, "warpsim: sweep %s needs the sweep's folder\n%s", a, usage);
            return WS_EXIT_USAGE;
        }
        if (!strcmp(a, "--slurm")) {
            slurm = true;
            continue;
        }
        if (!strcmp(a, "--no-submit")) {
            no_submit = true;
            continue;
        }
        if ((!strcmp(a, "--partition") || !strcmp(a, "--time") || !strcmp(a, "--mem")) &&
            i + 1 < argc) {
            const char **dst = a[2] == 'p' ? &part : a[2] == 't' ? &tlim : &mem;
            *dst = argv[++i];
            continue;
        }
        if (!strcmp(a, "-j") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 1024) {
                fprintf(stderr, "warpsim: sweep: -j wants 1..1024, got '%s'\n", argv[i]);
                return WS_EXIT_USAGE;
            }
            workers = (int)v;
        } else if (!strcmp(a, "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--resume")) {
            resume = true;
        } else if (!strcmp(a, "--dry-run")) {
            dry = true;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return WS_EXIT_OK;
        } else if (a[0] != '-' && !recipe_path) {
            recipe_path = a;
        } else {
            fprintf(stderr, "warpsim: sweep: unknown option '%s'\n%s", a, usage);
            return WS_EXIT_USAGE;
        }
    }
    if (!recipe_path) {
        fputs(usage, stderr);
        return WS_EXIT_USAGE;
    }
    struct ws_err e = {{0}};
    struct sweep *sw = calloc(1, sizeof *sw);
    if (!sw) return WS_EXIT_INTERNAL;
    int code = WS_EXIT_INPUT;
    struct pool_task *tasks = NULL;
    char ***job_argv = NULL;
    json_t *old = NULL;
    if (recipe_load(&sw->r, recipe_path, NULL, &e) != 0) goto out;
    if (recipe_expand(&sw->r, &sw->jobs, &sw->njobs, &e) != 0) goto out;
    if (check_jobs(sw, &e) != 0) goto out;
    char defdir[PATH_MAX];
    if (!out) {
        const char *base = strrchr(recipe_path, '/');
        base = base ? base + 1 : recipe_path;
        size_t len = strlen(base);
        if (len > 4 && !strcmp(base + len - 4, ".ini")) len -= 4;
        snprintf(defdir, sizeof defdir, "results/%.*s", (int)len, base);
        out = defdir;
    }
    /* leaves room for the names appended under DIR (buffers below are PATH_MAX + 32) */
    if (strlen(out) > PATH_MAX - 64) {
        ws_fail(&e, "%s: path too long", out);
        goto out;
    }
    sw->dir = out;
    sw->argv_text = calloc((size_t)sw->njobs, sizeof *sw->argv_text);
    job_argv = calloc((size_t)sw->njobs, sizeof *job_argv);
    sw->state = calloc((size_t)sw->njobs, sizeof *sw->state);
    sw->exit_code = calloc((size_t)sw->njobs, sizeof *sw->exit_code);
    sw->signo = calloc((size_t)sw->njobs, sizeof *sw->signo);
    sw->seconds = calloc((size_t)sw->njobs, sizeof *sw->seconds);
    sw->error = calloc((size_t)sw->njobs, sizeof *sw->error);
    tasks = calloc((size_t)sw->njobs, sizeof *tasks);
    task_job = calloc((size_t)sw->njobs, sizeof *task_job);
    if (!sw->argv_text || !job_argv || !sw->state || !sw->exit_code || !sw->signo || !sw->seconds ||
        !sw->error || !tasks || !task_job) {
        ws_fail(&e, "out of memory");
        goto out;
    }
    for (int j = 0; j < sw->njobs; j++)
        if (build_argv(sw, j, &job_argv[j]) != 0) {
            ws_fail(&e, "out of memory");
            goto out;
        }
    if (dry) {
        for (int j = 0; j < sw->njobs; j++) printf("%s: %s\n", sw->jobs[j].name, sw->argv_text[j]);
        code = WS_EXIT_OK;
        goto out;
    }
    /* DIR; two sweeps in one folder would run the same jobs into the same files, so the folder
     * is taken (sweep.pid) before anything in it is touched */
    char sub[PATH_MAX + 32];
    snprintf(sub, sizeof sub, "%s/results", out);
    if (mkdir_p(sub, &e) != 0) goto out;
    snprintf(sub, sizeof sub, "%s/logs", out);
    if (mkdir_p(sub, &e) != 0) goto out;
    if (sweep_lock(out, pidf, sizeof pidf, &e) != 0) goto out;
    locked = true;
    /* a submission this sweep replaces: its script and job id no longer describe the folder */
    snprintf(sub, sizeof sub, "%s/slurm.jobid", out);
    remove(sub);
    if (!slurm) {
        snprintf(sub, sizeof sub, "%s/slurm.sbatch", out);
        remove(sub);
    }
    old = old_commands(out);
    for (int j = 0; j < sw->njobs; j++) {
        char res[PATH_MAX], tmp[PATH_MAX + 8];
        job_path(sw, j, "results", ".json", res, sizeof res);
        snprintf(tmp, sizeof tmp, "%s.tmp", res);
        remove(tmp); /* a job killed while writing */
        if (access(res, F_OK) != 0) continue;
        if (!resume) {
            ws_fail(&e,
                    "%s: holds results of an earlier sweep (%s); add --resume to finish it, or "
                    "give another --out",
                    out, res);
            goto out;
        }
        const char *was = json_string_value(json_object_get(old, sw->jobs[j].name));
        if (result_complete(res) && was && !strcmp(was, sw->argv_text[j]))
            sw->state[j] = ST_SKIPPED, sw->skipped++;
    }
    {
        size_t len;
        char *text = slurp(recipe_path, &len);
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/recipe.ini", out);
        int rc = text ? ws_write_text_atomic(path, text, len, &e)
                      : ws_fail(&e, "%s: cannot read", recipe_path);
        free(text);
        if (rc != 0) goto out;
    }
    if (write_manifest(sw, &e) != 0) goto out;
    if (slurm) {
        so = sw->r.slurm;
        if (part) snprintf(so.partition, sizeof so.partition, "%s", part);
        if (tlim) snprintf(so.time, sizeof so.time, "%s", tlim);
        if (mem) snprintf(so.mem, sizeof so.mem, "%s", mem);
        if (workers > 1) so.throttle = workers;
        if (submit_slurm(sw, job_argv, &so, self_exe(argv[0]), no_submit, &e) != 0) goto out;
        code = WS_EXIT_OK;
        goto out;
    }
    int ntasks = 0;
    for (int j = 0; j < sw->njobs; j++) {
        if (sw->state[j] == ST_SKIPPED) continue;
        char *o = malloc(PATH_MAX), *er = malloc(PATH_MAX);
        if (!o || !er) {
            free(o), free(er);
            ws_fail(&e, "out of memory");
            goto out;
        }
        job_path(sw, j, "logs", ".out", o, PATH_MAX);
        job_path(sw, j, "logs", ".err", er, PATH_MAX);
        tasks[ntasks] = (struct pool_task){job_argv[j], o, er};
        task_job[ntasks++] = j;
        char ex[PATH_MAX];
        job_path(sw, j, "logs", ".exit", ex, sizeof ex);
        remove(ex); /* an earlier attempt's */
    }
    sw->total_to_run = ntasks;
    sw->workers = workers;
    sw->tty = isatty(2);
    sw->t_start = pool_now();
    write_status(sw);
    progress(sw, false);
    /* while sweep.pid names this live process, --status counts unfinished jobs as running */
    struct pool_cb cb = {sw, on_started, on_finished};
    int rc = pool_run(self_exe(argv[0]), tasks, ntasks, workers, &cb, &e);
    for (int t = 0; t < ntasks; t++) {
        free((char *)tasks[t].out_path);
        free((char *)tasks[t].err_path);
    }
    write_status(sw);
    progress(sw, true);
    if (rc < 0) goto out;
    if (rc > 0) {
        fprintf(stderr, "warpsim: sweep interrupted (signal %d); finish it with --resume\n", rc);
        code = 128 + rc;
        goto out;
    }
    for (int j = 0; j < sw->njobs; j++)
        if (sw->state[j] == ST_FAILED)
            fprintf(stderr, "warpsim: job %s failed: %s (%s/logs/%s.err)\n", sw->jobs[j].name,
                    sw->error[j], out, sw->jobs[j].name);
    printf("sweep: %d jobs, %d run, %d kept from before, %d failed; results in %s "
           "(warpsim report %s)\n",
           sw->njobs, sw->done + sw->failed, sw->skipped, sw->failed, out, out);
    code = sw->failed ? WS_EXIT_INPUT : WS_EXIT_OK;
    e.msg[0] = '\0';
out:
    if (locked) remove(pidf);
    if (code != WS_EXIT_OK && e.msg[0]) cli_fail(&e, code);
    json_decref(old);
    if (job_argv) {
        for (int j = 0; j < sw->njobs; j++) {
            for (char **p = job_argv[j]; p && *p; p++) free(*p);
            free(job_argv[j]);
            free(sw->argv_text[j]);
        }
    }
    free(job_argv);
    free(sw->argv_text);
    free(sw->state);
    free(sw->exit_code);
    free(sw->signo);
    free(sw->seconds);
    free(sw->error);
    free(tasks);
    free(task_job);
    free(sw->jobs);
    free(sw);
    return code;
}
