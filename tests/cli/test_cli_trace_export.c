/* `warpsim trace-export` end to end: BFS and K-means (small inputs) exported on the GTX 480 and
 * RTX 2060 Super presets (and vector add on the QV100) and replayed with `run -t` give the result
 * JSON of `run -w` on the same machine, statistic for statistic; bad output folders and usage
 * errors exit non-zero. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char dir[256];

static void dir_new(void) {
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(dir, sizeof dir, "%s/ws-export-XXXXXX", base);
    assert_non_null(mkdtemp(dir));
}

static void dir_remove(const char *d) {
    DIR *dd = opendir(d);
    if (!dd) return;
    struct dirent *de;
    char p[600];
    while ((de = readdir(dd))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", d, de->d_name);
        if (unlink(p) != 0) dir_remove(p);
    }
    closedir(dd);
    rmdir(d);
}

/* The result of a run without what names its input: the top-level "workload" (the model's name
 * or "trace") and the config's workload.* keys (the model's parameters or the trace's path).
 * Everything else, every statistic, its definition and every machine key, must match. */
static json_t *result_without_source(const char *path) {
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j) fail_msg("%s: %s", path, je.text);
    json_object_del(j, "workload");
    json_t *cfg = json_object_get(j, "config");
    assert_non_null(cfg);
    const char *key;
    json_t *v;
    void *tmp;
    json_object_foreach_safe(cfg, tmp, key, v) {
        if (strncmp(key, "workload.", 9) == 0) json_object_del(cfg, key);
    }
    return j;
}

static void round_trip(const char *machine, const char *workload, const char *sets) {
    dir_new();
    char cmd[2048], tdir[300], rt[300], rw[300];
    snprintf(tdir, sizeof tdir, "%s/trace", dir);
    snprintf(rt, sizeof rt, "%s/t.json", dir);
    snprintf(rw, sizeof rw, "%s/w.json", dir);
    char *out;
    snprintf(cmd, sizeof cmd, "trace-export -c %s -w %s %s -o %s", machine, workload, sets, tdir);
    if (tu_run_cli(cmd, &out) != 0) fail_msg("%s: %s", cmd, out);
    assert_non_null(strstr(out, "warpsim trace-export: "));
    free(out);
    snprintf(cmd, sizeof cmd, "run -c %s -t %s -q -o %s", machine, tdir, rt);
    if (tu_run_cli(cmd, &out) != 0) fail_msg("%s: %s", cmd, out);
    free(out);
    snprintf(cmd, sizeof cmd, "run -c %s -w %s %s -q -o %s", machine, workload, sets, rw);
    if (tu_run_cli(cmd, &out) != 0) fail_msg("%s: %s", cmd, out);
    free(out);
    json_t *a = result_without_source(rt), *b = result_without_source(rw);
    json_t *sa = json_object_get(json_object_get(a, "stats"), "gpu");
    assert_true(json_integer_value(json_object_get(sa, "warp_insts")) > 10000);
    if (!json_equal(a, b)) {
        char *ta = json_dumps(a, JSON_SORT_KEYS), *tb = json_dumps(b, JSON_SORT_KEYS);
        size_t i = 0;
        while (ta[i] && ta[i] == tb[i]) i++;
        size_t from = i > 120 ? i - 120 : 0;
        fail_msg("%s on %s: results differ at\n  trace: %.200s\n  model: %.200s", workload, machine,
                 ta + from, tb + from);
    }
    json_decref(a);
    json_decref(b);
    dir_remove(dir);
}

static void test_bfs_gtx480(void **state) {
    (void)state;
    round_trip("gtx480", "bfs", "--set workload.bfs.nodes=4096");
}
static void test_bfs_rtx2060s(void **state) {
    (void)state;
    round_trip("rtx2060s", "bfs", "--set workload.bfs.nodes=4096");
}
static void test_kmeans_gtx480(void **state) {
    (void)state;
    round_trip("gtx480", "kmeans", "--set workload.kmeans.points=2048");
}
static void test_kmeans_rtx2060s(void **state) {
    (void)state;
    round_trip("rtx2060s", "kmeans", "--set workload.kmeans.points=2048");
}

/* Any built-in model, any machine: vector add on the QV100. */
static void test_vecadd_qv100(void **state) {
    (void)state;
    round_trip("qv100", "vecadd", "--set workload.vecadd.n=400000");
}

/* -o a/b/ creates a and a/b as mkdir -p does (it failed when a was missing). */
static void test_creates_parents(void **state) {
    (void)state;
    dir_new();
    char cmd[1024], list[600], *out;
    snprintf(cmd, sizeof cmd, "trace-export -w vecadd --set workload.vecadd.n=4096 -q -o %s/a/b/",
             dir);
    if (tu_run_cli(cmd, &out) != 0) fail_msg("%s: %s", cmd, out);
    free(out);
    snprintf(list, sizeof list, "%s/a/b/kernelslist.g", dir);
    assert_true(tu_file_exists(list));
    dir_remove(dir);
}

static void put_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Exporting again into a folder that holds an earlier trace: the earlier trace's kernel files
 * that the new one does not write are removed (K-means has 3 kernels, vector add 1), other files
 * are left alone. */
static void test_export_over_earlier(void **state) {
    (void)state;
    dir_new();
    char cmd[1024], p[600], *out;
    snprintf(cmd, sizeof cmd,
             "trace-export -w kmeans --set workload.kmeans.points=2048 "
             "--set workload.kmeans.iters=2 -q -o %s",
             dir);
    if (tu_run_cli(cmd, &out) != 0) fail_msg("%s: %s", cmd, out);
    free(out);
    snprintf(p, sizeof p, "%s/kernel-3.traceg", dir); /* invert_mapping + 2 kmeansPoint */
    assert_true(tu_file_exists(p));
    snprintf(p, sizeof p, "%s/kernel-1.traceg.gz", dir);
    put_file(p, "an older compressed copy");
    snprintf(p, sizeof p, "%s/notes.txt", dir);
    put_file(p, "mine");
    snprintf(cmd, sizeof cmd, "trace-export -w vecadd --set workload.vecadd.n=4096 -q -o %s", dir);
    if (tu_run_cli(cmd, &out) != 0) fail_msg("%s: %s", cmd, out);
    free(out);
    snprintf(p, sizeof p, "%s/kernel-1.traceg", dir);
    assert_true(tu_file_exists(p));
    snprintf(p, sizeof p, "%s/kernel-2.traceg", dir);
    assert_false(tu_file_exists(p));
    snprintf(p, sizeof p, "%s/kernel-3.traceg", dir);
    assert_false(tu_file_exists(p));
    snprintf(p, sizeof p, "%s/kernel-1.traceg.gz", dir);
    assert_false(tu_file_exists(p));
    snprintf(p, sizeof p, "%s/notes.txt", dir);
    assert_true(tu_file_exists(p));
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    char *list = tu_slurp(p, NULL);
    assert_non_null(list);
    assert_null(strstr(list, "kernel-2"));
    free(list);
    dir_remove(dir);
}

static void test_errors(void **state) {
    (void)state;
    char *out;
    assert_int_equal(tu_run_cli("trace-export -w bfs -o /dev/null/x", &out), 1);
    assert_string_equal(out, "warpsim: /dev/null/x: cannot create the folder: Not a directory\n");
    free(out);
    assert_int_equal(tu_run_cli("trace-export -w bfs -o /dev/null", &out), 1);
    assert_string_equal(out, "warpsim: /dev/null: exists and is not a folder\n");
    free(out);
    assert_int_equal(tu_run_cli("trace-export -w bfs", &out), 2);
    assert_string_equal(out, "warpsim: trace-export: give the output folder with -o DIR\n");
    free(out);
    assert_int_equal(tu_run_cli("trace-export -w trace -o /tmp/x", &out), 2);
    free(out);
    assert_int_equal(tu_run_cli("trace-export -w bfs --binary-version 7x -o /tmp/x", &out), 2);
    free(out);
    assert_int_equal(tu_run_cli("trace-export -w nosuch -o /tmp/x", &out), 1);
    assert_non_null(strstr(out, "'nosuch' is not a known workload"));
    free(out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bfs_gtx480),    cmocka_unit_test(test_bfs_rtx2060s),
        cmocka_unit_test(test_kmeans_gtx480), cmocka_unit_test(test_kmeans_rtx2060s),
        cmocka_unit_test(test_vecadd_qv100),  cmocka_unit_test(test_creates_parents),
        cmocka_unit_test(test_errors),        cmocka_unit_test(test_export_over_earlier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
