/* `warpsim sweep`: a 2-policy x 4-workload sweep with -j 2 is killed midway (SIGKILL), resumed
 * with --resume and finishes without re-running complete jobs (their result files keep inode and
 * mtime); every result is byte-identical to the same `warpsim run` typed by hand. A job that fails
 * is recorded (status, error line, stderr file) while the others go on. A bad recipe is refused
 * with file:line before any job starts (no output folder is created); the shipped recipes are
 * accepted. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

static const char *const policies[] = {"fcfs", "frfcfs"};
static const char *const workloads[] = {"vecadd", "bfs", "kmeans", "streampri"};
/* sizes giving jobs of a few tenths of a second, so that a kill lands midway */
static const char *const sizes[] = {
    "--set workload.vecadd.n=131072", "--set workload.bfs.nodes=8192",
    "--set workload.kmeans.points=2048 --set workload.kmeans.iters=1",
    "--set workload.streampri.bytes=1048576"};

static const char recipe[] = "; test sweep\n"
                             "[sweep]\n"
                             "config = gtx480\n"
                             "[set]\n"
                             "workload.vecadd.n = 131072\n"
                             "workload.bfs.nodes = 8192\n"
                             "workload.kmeans.points = 2048\n"
                             "workload.kmeans.iters = 1\n"
                             "workload.streampri.bytes = 1048576\n"
                             "[axes]\n"
                             "mc.policy = fcfs, frfcfs\n"
                             "workload = vecadd, bfs, kmeans, streampri\n"
                             "[baseline]\n"
                             "mc.policy = fcfs\n"
                             "[figure ipc]\n"
                             "kind = bars\n"
                             "metric = ipc\n";

static char dir[512];

static int count_results(struct stat st[8], bool have[8]) {
    int n = 0;
    for (int p = 0; p < 2; p++)
        for (int w = 0; w < 4; w++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/results/%s_%s.json", dir, policies[p], workloads[w]);
            have[p * 4 + w] = stat(path, &st[p * 4 + w]) == 0;
            n += have[p * 4 + w];
        }
    return n;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void test_kill_resume_identical(void **state) {
    (void)state;
    const char *rp = tu_tmpfile("sweep.ini", recipe);
    snprintf(dir, sizeof dir, "%s.out", rp);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stderr);
        freopen("/dev/null", "w", stdout);
        execl(WS_BINARY, "warpsim", "sweep", rp, "-j", "2", "--out", dir, (char *)NULL);
        _exit(127);
    }
    struct stat st[8], st2[8];
    bool have[8], have2[8];
    int n = 0;
    for (int i = 0; i < 3000 && n < 2; i++) {
        sleep_ms(5);
        n = count_results(st, have);
    }
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFSIGNALED(status));
    sleep_ms(300); /* the children got SIGTERM with their parent: nothing more may appear */
    n = count_results(st, have);
    if (n < 2 || n >= 8) fail_msg("%d results at the kill: not midway", n);
    sleep_ms(300);
    assert_int_equal(count_results(st2, have2), n);

    char args[2048], *out = NULL;
    snprintf(args, sizeof args, "sweep %s -j 2 --out %s", rp, dir);
    assert_int_equal(tu_run_cli(args, &out), 1); /* refuses to overwrite without --resume */
    assert_non_null(strstr(out, "add --resume"));
    free(out);
    snprintf(args, sizeof args, "sweep %s -j 2 --out %s --resume", rp, dir);
    assert_int_equal(tu_run_cli(args, &out), 0);
    char want[256];
    snprintf(want, sizeof want, "sweep: 8 jobs, %d run, %d kept from before, 0 failed", 8 - n, n);
    if (!strstr(out, want)) fail_msg("want '%s' in:\n%s", want, out);
    free(out);
    assert_int_equal(count_results(st2, have2), 8);
    for (int i = 0; i < 8; i++)
        if (have[i]) {
            /* kept, not rewritten */
            assert_int_equal(st[i].st_ino, st2[i].st_ino);
            assert_int_equal(st[i].st_mtim.tv_sec, st2[i].st_mtim.tv_sec);
            assert_int_equal(st[i].st_mtim.tv_nsec, st2[i].st_mtim.tv_nsec);
        }
    char path[1024];
    snprintf(path, sizeof path, "%s/status.json", dir);
    char *status_text = tu_slurp(path, NULL);
    assert_non_null(status_text);
    assert_null(strstr(status_text, "\"failed\""));
    assert_null(strstr(status_text, "\"pending\""));
    free(status_text);

    /* the same runs typed by hand; the report's IPC column holds their numbers */
    const char *one = tu_tmpfile("one.json", "");
    char ipc_text[8][64];
    for (int p = 0; p < 2; p++)
        for (int w = 0; w < 4; w++) {
            snprintf(args, sizeof args, "run -c gtx480 -w %s %s --set mc.policy=%s -q -o %s",
                     workloads[w], sizes[w], policies[p], one);
            assert_int_equal(tu_run_cli(args, NULL), 0);
            snprintf(path, sizeof path, "%s/results/%s_%s.json", dir, policies[p], workloads[w]);
            char *a = tu_slurp(path, NULL), *b = tu_slurp(one, NULL);
            assert_non_null(a);
            assert_non_null(b);
            if (strcmp(a, b) != 0) fail_msg("%s differs from warpsim %s", path, args);
            const char *ipc = strstr(b, "\"ipc\": ");
            assert_non_null(ipc);
            snprintf(ipc_text[p * 4 + w], sizeof ipc_text[0], "%.10g", strtod(ipc + 7, NULL));
            free(a);
            free(b);
        }
    snprintf(args, sizeof args, "report %s", dir);
    assert_int_equal(tu_run_cli(args, &out), 0);
    free(out);
    snprintf(path, sizeof path, "%s/report/report.csv", dir);
    char *csv = tu_slurp(path, NULL);
    assert_non_null(csv);
    if (strncmp(csv, "job,mc.policy,workload,group,ipc,ipc_norm\n", 42) != 0) fail_msg("%s", csv);
    for (int p = 0; p < 2; p++)
        for (int w = 0; w < 4; w++) {
            char row[256];
            snprintf(row, sizeof row, "\n%s_%s,%s,%s,", policies[p], workloads[w], policies[p],
                     workloads[w]);
            const char *at = strstr(csv, row);
            if (!at) fail_msg("no row %s in\n%s", row + 1, csv);
            at = strchr(at + strlen(row), ','); /* past the group */
            assert_non_null(at);
            if (strncmp(at + 1, ipc_text[p * 4 + w], strlen(ipc_text[p * 4 + w])) != 0 ||
                at[1 + strlen(ipc_text[p * 4 + w])] != ',')
                fail_msg("%s: report has %.20s, run has %s", row + 1, at + 1, ipc_text[p * 4 + w]);
        }
    free(csv);
    /* gnuplot (scripts/bootstrap.sh installs it) turns the figure into a PNG and an SVG */
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
        snprintf(path, sizeof path, "%s/report/ipc.png", dir);
        char *png = tu_slurp(path, NULL);
        assert_non_null(png);
        assert_memory_equal(png, "\x89PNG", 4);
        free(png);
        snprintf(path, sizeof path, "%s/report/ipc.svg", dir);
        assert_true(tu_file_exists(path));
    }
    snprintf(path, sizeof path, "%s/report/report.md", dir);
    char *md = tu_slurp(path, NULL);
    assert_non_null(md);
    assert_non_null(strstr(md, "- **ipc**: geometric mean of IPC over the 4 values of workload: "
                               "fcfs 1.000x"));
    free(md);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A job whose result cannot be written fails; it is recorded and the other jobs finish. */
static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_failed_job_recorded(void **state) {
    (void)state;
    const char *rp = tu_tmpfile("fail.ini", "[sweep]\nconfig = gtx480\n"
                                            "[set]\nworkload.vecadd.n = 8192\n"
                                            "[axes]\nmc.policy = fcfs, frfcfs\n"
                                            "workload = vecadd\n");
    char d[600], cmd[2048], args[2048], *out = NULL;
    snprintf(d, sizeof d, "%s.out", rp);
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/results/fcfs_vecadd.json.tmp/x", d, d);
    assert_int_equal(system(cmd), 0);
    snprintf(args, sizeof args, "sweep %s --out %s", rp, d);
    assert_int_equal(tu_run_cli(args, &out), 1);
    if (!strstr(out, "job fcfs_vecadd failed: warpsim: ") || !strstr(out, "cannot write"))
        fail_msg("%s", out);
    assert_non_null(strstr(out, "sweep: 2 jobs, 2 run, 0 kept from before, 1 failed"));
    free(out);
    char path[1024];
    snprintf(path, sizeof path, "%s/results/frfcfs_vecadd.json", d);
    assert_true(tu_file_exists(path));
    snprintf(path, sizeof path, "%s/status.json", d);
    char *st = tu_slurp(path, NULL);
    assert_non_null(st);
    assert_non_null(strstr(st, "\"state\": \"failed\",\n   \"exit_status\": 1,"));
    assert_non_null(strstr(st, "\"stderr\": \"logs/fcfs_vecadd.err\""));
    free(st);
    snprintf(path, sizeof path, "%s/logs/fcfs_vecadd.err", d);
    char *err = tu_slurp(path, NULL);
    assert_non_null(err);
    assert_non_null(strstr(err, "cannot write"));
    free(err);
    /* --status / --collect read the local job's outcome from its files and keep the failure */
    snprintf(args, sizeof args, "sweep --collect %s", d);
    assert_int_equal(tu_run_cli(args, &out), 1);
    assert_non_null(strstr(out, "1/2 done, 1 failed, 0 not run\n"));
    free(out);
    snprintf(path, sizeof path, "%s/status.json", d);
    st = tu_slurp(path, NULL);
    assert_non_null(strstr(st, "\"state\": \"failed\",\n   \"exit_status\": 1,"));
    free(st);
    /* fixed, --resume runs only the failed job */
    snprintf(cmd, sizeof cmd, "rm -rf %s/results/fcfs_vecadd.json.tmp", d);
    assert_int_equal(system(cmd), 0);
    snprintf(args, sizeof args, "sweep %s --out %s --resume", rp, d);
    assert_int_equal(tu_run_cli(args, &out), 0);
    assert_non_null(strstr(out, "sweep: 2 jobs, 1 run, 1 kept from before, 0 failed"));
    free(out);
    /* a changed setting changes every job's command: --resume keeps no stale result */
    FILE *f = fopen(rp, "w");
    assert_non_null(f);
    fputs("[sweep]\nconfig = gtx480\n[set]\nworkload.vecadd.n = 4096\n"
          "[axes]\nmc.policy = fcfs, frfcfs\nworkload = vecadd\n",
          f);
    fclose(f);
    assert_int_equal(tu_run_cli(args, &out), 0);
    assert_non_null(strstr(out, "sweep: 2 jobs, 2 run, 0 kept from before, 0 failed"));
    free(out);
    /* a local sweep that stopped before a job ran (its result gone, no exit file): not run, and
     * nothing is running it */
    snprintf(path, sizeof path, "%s/results/frfcfs_vecadd.json", d);
    assert_int_equal(remove(path), 0);
    snprintf(path, sizeof path, "%s/logs/frfcfs_vecadd.exit", d);
    assert_int_equal(remove(path), 0);
    snprintf(args, sizeof args, "sweep --collect %s", d);
    assert_int_equal(tu_run_cli(args, &out), 1);
    assert_non_null(strstr(out, "1/2 done, 0 failed, 1 not run (the sweep is not running: finish "
                                "it with --resume)"));
    free(out);
    /* sweep.pid naming a live process on this host (this test's): its jobs count as running, and
     * a second sweep into the folder is refused before it touches anything */
    char host[256] = "", pidline[1400];
    gethostname(host, sizeof host - 1);
    snprintf(path, sizeof path, "%s/sweep.pid", d);
    snprintf(pidline, sizeof pidline, "%ld %s\n", (long)getpid(), host);
    write_text(path, pidline);
    snprintf(args, sizeof args, "sweep --status %s", d);
    assert_int_equal(tu_run_cli(args, &out), 0);
    assert_non_null(strstr(out, "1/2 done, 0 failed, 1 queued or running\n"));
    free(out);
    snprintf(args, sizeof args, "sweep %s --out %s --resume", rp, d);
    assert_int_equal(tu_run_cli(args, &out), 1);
    snprintf(pidline, sizeof pidline, "%s: a sweep is already running there (pid %ld on %s)", d,
             (long)getpid(), host);
    if (!strstr(out, pidline)) fail_msg("%s", out);
    free(out);
    /* the same pid with another start time is a reused pid: the sweep that wrote it is gone */
    snprintf(pidline, sizeof pidline, "%ld %s 1\n", (long)getpid(), host);
    write_text(path, pidline);
    snprintf(args, sizeof args, "sweep --status %s", d);
    assert_int_equal(tu_run_cli(args, &out), 0);
    assert_non_null(strstr(out, "1 not run (the sweep is not running"));
    free(out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", d);
    assert_int_equal(system(cmd), 0);
}

static void expect_refused(const char *text, const char *msg) {
    const char *rp = tu_tmpfile("badsweep.ini", text);
    char d[600], args[2048], *out = NULL;
    snprintf(d, sizeof d, "%s.out", rp);
    snprintf(args, sizeof args, "rm -rf %s", d);
    assert_int_equal(system(args), 0);
    snprintf(args, sizeof args, "sweep %s --out %s", rp, d);
    assert_int_equal(tu_run_cli(args, &out), 1);
    char want[1024];
    snprintf(want, sizeof want, "warpsim: %s:%s", rp, msg);
    if (!strstr(out, want)) fail_msg("got: %s\nwant: %s", out, want);
    assert_false(tu_file_exists(d)); /* nothing started */
    free(out);
}

static void test_bad_recipe_before_jobs(void **state) {
    (void)state;
    expect_refused("[sweep]\nconfig = gtx480\n[axes]\nworkload = bfs\nmc.polcy = fcfs\n",
                   "5: unknown key 'mc.polcy' (did you mean 'mc.policy'?) (in job bfs_fcfs)");
    /* vecadd first: its "not read" must not hide the bfs job's suggestion */
    expect_refused("[sweep]\nconfig = gtx480\n[set]\nworkload.bfs.nodez = 5\n"
                   "[axes]\nworkload = vecadd, bfs\n",
                   "4: unknown key 'workload.bfs.nodez' (did you mean 'workload.bfs.nodes'?)");
    expect_refused("[sweep]\nconfig = gtx480\n[set]\nworkload.bfs.nodes = 8192\n"
                   "[axes]\nworkload = vecadd\n",
                   "4: key 'workload.bfs.nodes' is not read with this configuration (only "
                   "workload bfs reads workload.bfs.*; this run's workload is vecadd)");
    /* a key only some jobs read is fine; one no job reads is not */
    expect_refused("[sweep]\nconfig = gtx480\n[set]\nmc.frfcfs_cap.cap = 5\n"
                   "[axes]\nworkload = bfs\nmc.policy = fcfs, frfcfs\n",
                   "4: key 'mc.frfcfs_cap.cap' is not read with this configuration (read with "
                   "mc.policy = frfcfs-cap)");
    expect_refused("[sweep]\nconfig = gtx480\n[set]\nmc.wq_hi = 100000\n[axes]\nworkload = bfs\n",
                   "4: mc.wq_hi = 100000 is out of range [1, 4096]");
    expect_refused("[sweep]\nconfig = nosuchgpu\n[axes]\nworkload = bfs\n",
                   "2: config 'nosuchgpu': nosuchgpu: cannot open");
    expect_refused("[sweep]\nconfig = gtx480\n[axes]\nworkload = bfs, bfz\n",
                   "4: unknown workload 'bfz' (did you mean 'bfs'?)");
    expect_refused("[sweep]\nconfig = gtx480\n[axes]\nworkload = bfs\nmc.policy = fcfs, fr\n",
                   "5: unknown policy 'fr'");
    expect_refused("[sweep]\nconfig = gtx480\n[axes]\nworkload = bfs\nmc.policy =\n",
                   "5: axis 'mc.policy' is empty");
}

/* Every shipped recipe (the .ini files in experiments/) is accepted as it is: `--dry-run` lists
 * one job per point of its axes, and none is refused for a key or value (a key that no job reads, a
 * policy or workload that does not exist, an out-of-range value would stop it). */
static void test_shipped_recipes(void **state) {
    (void)state;
    static const struct {
        const char *name;
        unsigned jobs;
    } recipes[] = {
        {"fcfs-frfcfs", 3 * 10},     /* 3 policies x 10 workloads */
        {"warped-mc", 4 * 14},       /* seed 000: 4 policies x Table 1's 14 benchmarks */
        {"warp-aware-gpu", 10 * 17}, /* seed 002: 10 policies x 11 Type-1 + 6 Type-2 */
        {"warp-aware-gpu-deepbuf", 84}, {"warp-aware-gpu-deepq", 84}, {"warp-gather", 84},
        {"warp-gather-deep", 48},       {"l1-index", 2 * 5}, /* seed 001: 2 set indices x 5
                                                                PolyBench kernels */
        {"subcore-imbalance", 2 * 3}, /* seed 003: 2 machines x 3 FMA variants */
    };
    for (unsigned i = 0; i < sizeof recipes / sizeof recipes[0]; i++) {
        char args[1024], *out = NULL;
        snprintf(args, sizeof args, "sweep %s/experiments/%s.ini --dry-run --out dry-%s",
                 WS_SOURCE_DIR, recipes[i].name, recipes[i].name);
        int rc = tu_run_cli(args, &out);
        if (rc != 0) fail_msg("%s: exit %d\n%s", recipes[i].name, rc, out);
        unsigned jobs = 0;
        for (const char *p = out; (p = strstr(p, ": warpsim run ")); p++) jobs++;
        if (jobs != recipes[i].jobs)
            fail_msg("%s: %u jobs, want %u", recipes[i].name, jobs, recipes[i].jobs);
        free(out);
    }
}

/* --slurm --no-submit writes the array script; running its tasks as Slurm would (one process per
 * SLURM_ARRAY_TASK_ID) gives results that --collect accepts and that equal a local sweep's. */
static void test_slurm_script_and_collect(void **state) {
    (void)state;
    const char *rp = tu_tmpfile("slurm.ini", "[sweep]\nconfig = gtx480\n"
                                             "[set]\nworkload.vecadd.n = 8192\n"
                                             "[axes]\nmc.policy = fcfs, frfcfs\n"
                                             "workload = vecadd\n"
                                             "[slurm]\npartition = debug\ntime = 00:05:00\n");
    char d[600], loc[600], cmd[4096], args[2048], *out = NULL;
    snprintf(d, sizeof d, "%s.slurm", rp);
    snprintf(loc, sizeof loc, "%s.local", rp);
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", d, loc);
    assert_int_equal(system(cmd), 0);
    snprintf(args, sizeof args, "sweep %s --slurm --no-submit --mem 1G --out %s", rp, d);
    assert_int_equal(tu_run_cli(args, &out), 0);
    assert_non_null(strstr(out, "sweep: 2 array tasks in"));
    free(out);
    char path[1024];
    snprintf(path, sizeof path, "%s/slurm.sbatch", d);
    char *sb = tu_slurp(path, NULL);
    assert_non_null(sb);
    assert_non_null(strstr(sb, "#SBATCH --array=0-1\n#SBATCH --partition=debug\n"
                               "#SBATCH --time=00:05:00\n#SBATCH --mem=1G\n"));
    assert_non_null(strstr(sb, "0) name='fcfs_vecadd'; set -- 'run' '-c' 'gtx480' '-w' 'vecadd'"));
    free(sb);
    snprintf(args, sizeof args, "sweep --collect %s", d);
    assert_int_equal(tu_run_cli(args, &out), 75); /* not submitted by warpsim: says so */
    snprintf(path, sizeof path,
             "0/2 done, 0 failed, 2 queued or running (no Slurm job id: warpsim did not submit "
             "%s/slurm.sbatch; submit it unless that was done by hand)",
             d);
    if (!strstr(out, path)) fail_msg("%s", out);
    free(out);
    snprintf(cmd, sizeof cmd, "echo 4242 > %s/slurm.jobid", d); /* as sbatch's submission */
    assert_int_equal(system(cmd), 0);
    assert_int_equal(tu_run_cli(args, &out), 75); /* nothing ran yet */
    assert_non_null(strstr(out, "0/2 done, 0 failed, 2 queued or running (Slurm job 4242)"));
    free(out);
    for (int id = 0; id < 2; id++) {
        snprintf(cmd, sizeof cmd, "SLURM_ARRAY_TASK_ID=%d bash %s/slurm.sbatch", id, d);
        assert_int_equal(system(cmd), 0);
    }
    assert_int_equal(tu_run_cli(args, &out), 0);
    assert_non_null(strstr(out, "2/2 done, 0 failed, 0 queued or running"));
    free(out);
    snprintf(args, sizeof args, "sweep %s --out %s", rp, loc);
    assert_int_equal(tu_run_cli(args, NULL), 0);
    for (int p = 0; p < 2; p++) {
        char a[1024], b[1024];
        snprintf(a, sizeof a, "%s/results/%s_vecadd.json", d, policies[p]);
        snprintf(b, sizeof b, "%s/results/%s_vecadd.json", loc, policies[p]);
        char *ta = tu_slurp(a, NULL), *tb = tu_slurp(b, NULL);
        assert_non_null(ta);
        assert_non_null(tb);
        assert_string_equal(ta, tb);
        free(ta);
        free(tb);
    }
    /* a task that failed: its exit file and error line */
    snprintf(cmd, sizeof cmd,
             "rm %s/results/frfcfs_vecadd.json && echo 1 > %s/logs/frfcfs_vecadd.exit && "
             "echo 'warpsim: broken' > %s/logs/frfcfs_vecadd.err",
             d, d, d);
    assert_int_equal(system(cmd), 0);
    snprintf(args, sizeof args, "sweep --collect %s", d);
    assert_int_equal(tu_run_cli(args, &out), 1);
    assert_non_null(strstr(out, "job frfcfs_vecadd failed: warpsim: broken"));
    assert_non_null(strstr(out, "1/2 done, 1 failed, 0 queued or running"));
    free(out);
    snprintf(path, sizeof path, "%s/status.json", d);
    char *st = tu_slurp(path, NULL);
    assert_non_null(st);
    assert_non_null(strstr(st, "\"state\": \"failed\",\n   \"exit_status\": 1,"));
    free(st);
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", d, loc);
    assert_int_equal(system(cmd), 0);
}

/* `report PATH` fails (exit 1) with exactly "warpsim: PATH: <why>\n". */
static void expect_report_error(const char *path, const char *why) {
    char args[1024], want[1024], *out = NULL;
    snprintf(args, sizeof args, "report %s", path);
    assert_int_equal(tu_run_cli(args, &out), 1);
    snprintf(want, sizeof want, "warpsim: %s: %s\n", path, why);
    assert_string_equal(out, want);
    free(out);
}

/* `report` on something that is not a sweep's folder says which of the three it is. */
static void test_report_not_a_sweep(void **state) {
    (void)state;
    char *o = NULL;
    assert_int_equal(tu_run_cli("sweep --status", &o), 2); /* the folder is missing */
    assert_non_null(strstr(o, "warpsim: sweep --status needs the sweep's folder\nusage: "));
    free(o);
    char args[2048];
    const char *file = tu_tmpfile("notadir.txt", "x\n");
    char dir[600], none[700];
    snprintf(dir, sizeof dir, "%s.d", file);
    snprintf(none, sizeof none, "%s/none", dir);
    snprintf(args, sizeof args, "rm -rf %s && mkdir %s", dir, dir);
    assert_int_equal(system(args), 0);
    expect_report_error(dir,
                        "not a sweep's folder (it has no recipe.ini; warpsim sweep writes one)");
    expect_report_error(file, "not a folder (give the folder a sweep wrote, e.g. results/NAME)");
    expect_report_error(none, "No such file or directory (give the folder a sweep wrote, e.g. "
                              "results/NAME)");
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
}

/* `sweep --status DIR` on a folder whose jobs.json is missing, damaged or not a job list says
 * which, with the line and column where it breaks (exit 1). */
static void test_status_damaged_jobs(void **state) {
    (void)state;
    const char *file = tu_tmpfile("status-none.txt", "x\n");
    char dir[600], args[2048], want[2048], *out = NULL;
    snprintf(dir, sizeof dir, "%s.d", file);
    snprintf(args, sizeof args, "rm -rf %s && mkdir %s", dir, dir);
    assert_int_equal(system(args), 0);
    snprintf(args, sizeof args, "sweep --status %s", dir);
    assert_int_equal(tu_run_cli(args, &out), 1);
    snprintf(want, sizeof want, "warpsim: %s: not a sweep folder (no jobs.json)\n", dir);
    assert_string_equal(out, want);
    free(out);
    char path[700];
    snprintf(path, sizeof path, "%s/jobs.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"jobs\": [\n  {\"name\": \"a\",", f);
    fclose(f);
    assert_int_equal(tu_run_cli(args, &out), 1);
    snprintf(want, sizeof want, "warpsim: %s:2:15: ", path);
    assert_memory_equal(out, want, strlen(want));
    assert_non_null(strstr(out, " (the sweep's job list is damaged)\n"));
    free(out);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"title\": \"x\"}\n", f);
    fclose(f);
    assert_int_equal(tu_run_cli(args, &out), 1);
    snprintf(want, sizeof want, "warpsim: %s: no \"jobs\" list (not a sweep's job list)\n", path);
    assert_string_equal(out, want);
    free(out);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_damaged_jobs),
        cmocka_unit_test(test_bad_recipe_before_jobs),
        cmocka_unit_test(test_shipped_recipes),
        cmocka_unit_test(test_failed_job_recorded),
        cmocka_unit_test(test_kill_resume_identical),
        cmocka_unit_test(test_slurm_script_and_collect),
        cmocka_unit_test(test_report_not_a_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
