/* Reports: means on known numbers, and the tables of a constructed sweep folder (recipe copy +
 * hand-written result files): every value, normalised value and group mean checked exactly. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exp/recipe.h"
#include "exp/report.h"

static char *tu_slurp_file(const char *path) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strdup(buf);
}

static void test_means(void **state) {
    (void)state;
    double a[] = {1, 2, 4};
    assert_true(fabs(rpt_geomean(a, 3) - 2.0) < 1e-12);
    assert_true(fabs(rpt_amean(a, 3) - 7.0 / 3) < 1e-12);
    double b[] = {2, NAN, 8}; /* a missing job is left out */
    assert_true(fabs(rpt_geomean(b, 3) - 4.0) < 1e-12);
    assert_true(fabs(rpt_amean(b, 3) - 5.0) < 1e-12);
    double c[] = {2, 0};
    assert_true(isnan(rpt_geomean(c, 2)));
    assert_true(isnan(rpt_geomean(c, 0)));
    double d[] = {0.5, 2, 1.5, 1.5 / 1.0};
    assert_true(fabs(rpt_geomean(d, 4) - pow(0.5 * 2 * 1.5 * 1.5, 0.25)) < 1e-12);
}

static const char recipe[] = "[sweep]\nconfig = gtx480\n"
                             "[axes]\nmc.policy = fcfs, frfcfs\nworkload = mm3, bfs, kmeans\n"
                             "[baseline]\nmc.policy = fcfs\n[groups]\nby = class\n"
                             "[metric ipc]\npath = stats.gpu.ipc\n"
                             "[metric lt]\npath = stats.core.load_time\n";

static void put_result(const char *dir, const char *name, double ipc, double lt_mean) {
    char path[1024];
    snprintf(path, sizeof path, "%s/results/%s.json", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "{\"load_class\": \"MOA\", \"stats\": {\"gpu\": {\"ipc\": %.10g}, \"core\": "
            "{\"load_time\": {\"count\": 4, \"mean\": %.10g, \"min\": 1, \"p25\": 2, \"p50\": 3, "
            "\"p75\": 4, \"p95\": 5, \"p99\": 6, \"max\": 7}}}}\n",
            ipc, lt_mean);
    fclose(f);
}

static void test_tables(void **state) {
    (void)state;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/ws-test-%d-report", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid());
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/results", dir, dir);
    assert_int_equal(system(cmd), 0);
    /* mm3 LOA, bfs MOA, kmeans HOA in the registry; kmeans under frfcfs failed (no file) */
    put_result(dir, "fcfs_mm3", 100, 10);
    put_result(dir, "fcfs_bfs", 10, 20);
    put_result(dir, "fcfs_kmeans", 4, 40);
    put_result(dir, "frfcfs_mm3", 150, 5);
    put_result(dir, "frfcfs_bfs", 40, 20);
    static struct recipe r;
    struct ws_err e = {{0}};
    assert_int_equal(recipe_load(&r, "r.ini", recipe, &e), 0);
    struct rcp_job *jobs;
    int n;
    assert_int_equal(recipe_expand(&r, &jobs, &n, &e), 0);
    struct rpt_table t;
    if (rpt_load(&t, &r, jobs, n, dir, &e) != 0) fail_msg("%s", e.msg);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rpt_write_csv(&t, f);
    fclose(f);
    assert_string_equal(text, "job,mc.policy,workload,group,ipc,lt,ipc_norm,lt_norm\n"
                              "fcfs_mm3,fcfs,mm3,LOA,100,10,1,1\n"
                              "fcfs_bfs,fcfs,bfs,MOA,10,20,1,1\n"
                              "fcfs_kmeans,fcfs,kmeans,HOA,4,40,1,1\n"
                              "frfcfs_mm3,frfcfs,mm3,LOA,150,5,1.5,0.5\n"
                              "frfcfs_bfs,frfcfs,bfs,MOA,40,20,4,1\n"
                              "frfcfs_kmeans,frfcfs,kmeans,HOA,,,,\n");
    free(text);
    f = open_memstream(&text, &len);
    rpt_write_means(&t, f);
    fclose(f);
    /* all, fcfs: ipc amean 38, gmean (100*10*4)^(1/3) = 15.87401052; frfcfs over the two
     * present: amean 95, gmean sqrt(6000) = 77.45966692; normalised gmean sqrt(1.5*4) */
    assert_string_equal(text,
                        "mc.policy,group,n,ipc_amean,ipc_gmean,lt_amean,lt_gmean,ipc_norm_amean,"
                        "ipc_norm_gmean,lt_norm_amean,lt_norm_gmean\n"
                        "fcfs,LOA,1,100,100,10,10,1,1,1,1\n"
                        "fcfs,MOA,1,10,10,20,20,1,1,1,1\n"
                        "fcfs,HOA,1,4,4,40,40,1,1,1,1\n"
                        "fcfs,all,3,38,15.87401052,23.33333333,20,1,1,1,1\n"
                        "frfcfs,LOA,1,150,150,5,5,1.5,1.5,0.5,0.5\n"
                        "frfcfs,MOA,1,40,40,20,20,4,4,1,1\n"
                        "frfcfs,HOA,0,,,,,,,,\n"
                        "frfcfs,all,2,95,77.45966692,12.5,10,2.75,2.449489743,0.75,0.7071067812\n");
    free(text);
    /* figure data and headlines (gnuplot not run: NULL) */
    static struct recipe rf;
    char withfigs[sizeof recipe + 256];
    snprintf(withfigs, sizeof withfigs,
             "%s[figure b]\nkind = bars\nmetric = ipc\n[figure x]\nkind = box\nmetric = lt\n",
             recipe);
    assert_int_equal(recipe_load(&rf, "r.ini", withfigs, &e), 0);
    struct rpt_table tf;
    assert_int_equal(rpt_load(&tf, &rf, jobs, n, dir, &e), 0);
    assert_int_equal(rpt_figures(&tf, dir, NULL, &e), 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/b.dat", dir);
    text = tu_slurp_file(path);
    /* categories mm3, bfs, kmeans, GM-LOA, GM-MOA, GM-HOA, GM at 3c + series; frfcfs has no
     * kmeans (failed) and so no HOA mean; its GM is sqrt(1.5 * 4) */
    assert_string_equal(text, "# series fcfs\n0 1\n3 1\n6 1\n9 1\n12 1\n15 1\n18 1\n\n\n"
                              "# series frfcfs\n1 1.5\n4 4\n10 1.5\n13 4\n19 2.449489743\n\n\n");
    free(text);
    snprintf(path, sizeof path, "%s/x.dat", dir);
    text = tu_slurp_file(path);
    assert_string_equal(text, "# series fcfs: x p25 min p99 p75 p50\n0 2 1 6 4 3\n3 2 1 6 4 3\n"
                              "6 2 1 6 4 3\n\n\n# series frfcfs: x p25 min p99 p75 p50\n"
                              "1 2 1 6 4 3\n4 2 1 6 4 3\n\n\n");
    free(text);
    snprintf(path, sizeof path, "%s/report.md", dir);
    text = tu_slurp_file(path);
    /* kmeans has no frfcfs result: the headline compares the series on the workloads both have
     * (before, fcfs's mean took in kmeans and frfcfs's did not) */
    assert_non_null(strstr(text,
                           "- **b**: geometric mean of ipc over the 2 values of workload that "
                           "every series has a result for (of 3): fcfs 1.000x, frfcfs "
                           "2.449x; the baseline fcfs is 1.0.\n"));
    assert_non_null(strstr(text, "not rendered (gnuplot not found)"));
    free(text);
    rpt_free(&tf);
    /* a metric path absent from a result names the recipe line */
    static struct recipe r2;
    char bad[sizeof recipe + 64];
    snprintf(bad, sizeof bad, "%s[metric x]\npath = stats.gpu.nope\n", recipe);
    assert_int_equal(recipe_load(&r2, "r.ini", bad, &e), 0);
    struct rpt_table t2;
    assert_int_equal(rpt_load(&t2, &r2, jobs, n, dir, &e), -1);
    char want[2048]; /* a path (up to 1024) and a message */
    snprintf(want, sizeof want,
             "r.ini:15: [metric x]: path 'stats.gpu.nope' is not in %s/results/fcfs_mm3.json (nor "
             "in any other result)",
             dir);
    assert_string_equal(e.msg, want);
    rpt_free(&t2);
    /* a policy's own counter, present only in frfcfs's results: blank (NAN) in fcfs's, counted */
    for (int i = 0; i < 2; i++) {
        char rp[1024];
        snprintf(rp, sizeof rp, "%s/results/frfcfs_%s.json", dir, i ? "bfs" : "mm3");
        FILE *f = fopen(rp, "w");
        assert_non_null(f);
        fprintf(f, "{\"stats\": {\"gpu\": {\"ipc\": 1}, \"sched\": {\"members\": %d}}}\n", 7 + i);
        fclose(f);
    }
    static struct recipe rs;
    char some[sizeof recipe + 64];
    /* ipc and members only: load_time is in none of the rewritten files */
    snprintf(some, sizeof some, "%.*s[metric members]\npath = stats.sched.members\n",
             (int)(strstr(recipe, "[metric lt]") - recipe), recipe);
    assert_int_equal(recipe_load(&rs, "r.ini", some, &e), 0);
    struct rpt_table ts;
    assert_int_equal(rpt_load(&ts, &rs, jobs, n, dir, &e), 0);
    assert_int_equal(ts.nm, 2);
    assert_int_equal(ts.absent[1], 3); /* the three fcfs results */
    for (int j = 0; j < n; j++) {
        double v = ts.val[j * 2 + 1];
        if (!strcmp(jobs[j].name, "frfcfs_mm3"))
            assert_true(v == 7);
        else if (!strcmp(jobs[j].name, "frfcfs_bfs"))
            assert_true(v == 8);
        else
            assert_true(isnan(v));
    }
    rpt_free(&ts);
    put_result(dir, "frfcfs_mm3", 150, 5); /* as they were, for the checks below */
    put_result(dir, "frfcfs_bfs", 40, 20);
    /* named groups (a paper's own sets): bfs and kmeans in "irregular-memory-bound" (a name longer
     * than 15 characters was once cut short and counted again per job), mm3 in none ("other") */
    static struct recipe rn;
    char named[sizeof recipe + 128];
    snprintf(named, sizeof named, "%s", recipe);
    char *g = strstr(named, "by = class\n");
    assert_non_null(g);
    snprintf(g, sizeof named - (size_t)(g - named), "%s",
             "irregular-memory-bound = bfs,\n kmeans\n[metric ipc]\npath = stats.gpu.ipc\n"
             "[metric lt]\npath = stats.core.load_time\n");
    assert_int_equal(recipe_load(&rn, "r.ini", named, &e), 0);
    assert_int_equal(rn.group_by, GROUP_NAMED);
    struct rpt_table tn;
    assert_int_equal(rpt_load(&tn, &rn, jobs, n, dir, &e), 0);
    f = open_memstream(&text, &len);
    rpt_write_means(&tn, f);
    fclose(f);
    assert_non_null(strstr(text, "frfcfs,irregular-memory-bound,1,40,40,20,20,4,4,1,1\n"
                                 "frfcfs,other,1,150,150,5,5,1.5,1.5,0.5,0.5\n"));
    free(text);
    rpt_free(&tn);
    rpt_free(&t);
    /* a result that exists but does not parse (damaged after the run) is an error naming it and
     * where it breaks, not a job silently left out; so is one without its stats */
    snprintf(path, sizeof path, "%s/results/frfcfs_bfs.json", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"load_class\": \"MOA\",\n \"stats\": {\"gpu\": ", f);
    fclose(f);
    struct rpt_table t3;
    assert_int_equal(rpt_load(&t3, &r, jobs, n, dir, &e), -1);
    snprintf(want, sizeof want, "%s:2:18: not a warpsim result (", path);
    assert_memory_equal(e.msg, want, strlen(want));
    assert_non_null(
        strstr(e.msg, "); run the job again (warpsim sweep --resume) or delete the file"));
    rpt_free(&t3);
    put_result(dir, "frfcfs_bfs", 40, 20);
    snprintf(path, sizeof path, "%s/results/frfcfs_mm3.json", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"load_class\": \"MOA\"}\n", f);
    fclose(f);
    assert_int_equal(rpt_load(&t3, &r, jobs, n, dir, &e), -1);
    snprintf(want, sizeof want,
             "%s: not a warpsim result (no \"stats\" object); run the job again (warpsim sweep "
             "--resume) or delete the file",
             path);
    assert_string_equal(e.msg, want);
    rpt_free(&t3);
    free(jobs);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* Statistics groups have dots in their names ("dram.energy", "mc.ch0"): a metric path reaches
 * into them, the longest matching key first, and still reaches a plain group beside them. */
static void test_dotted_groups(void **state) {
    (void)state;
    char dir[512], cmd[1200], path[1024];
    snprintf(dir, sizeof dir, "%s/ws-test-%d-dots", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/results", dir, dir);
    assert_int_equal(system(cmd), 0);
    static const char *const names[] = {"fcfs_mm3", "frfcfs_mm3"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/results/%s.json", dir, names[i]);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f,
                "{\"stats\": {\"dram\": {\"reads\": %d, \"energy\": {\"total_nj\": 1}}, "
                "\"dram.energy\": {\"total_nj\": %d}, \"mc.ch0\": {\"row_hits\": %d}}}\n",
                10 + i, 100 + i, 1000 + i);
        fclose(f);
    }
    static struct recipe r;
    struct ws_err e = {{0}};
    assert_int_equal(recipe_load(&r, "r.ini",
                                 "[sweep]\nconfig = gtx480\n[axes]\nmc.policy = fcfs, frfcfs\n"
                                 "workload = mm3\n[metric e]\npath = stats.dram.energy.total_nj\n"
                                 "[metric rd]\npath = stats.dram.reads\n"
                                 "[metric hits]\npath = stats.mc.ch0.row_hits\n",
                                 &e),
                     0);
    struct rcp_job *jobs;
    int n;
    assert_int_equal(recipe_expand(&r, &jobs, &n, &e), 0);
    struct rpt_table t;
    if (rpt_load(&t, &r, jobs, n, dir, &e) != 0) fail_msg("%s", e.msg);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rpt_write_csv(&t, f);
    fclose(f);
    if (!strstr(text, "fcfs_mm3,fcfs,mm3,LOA,100,10,1000\n")) fail_msg("%s", text);
    assert_non_null(strstr(text, "frfcfs_mm3,frfcfs,mm3,LOA,101,11,1001\n"));
    free(text);
    rpt_free(&t);
    free(jobs);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_means),
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_dotted_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
