/* Recipes: a good recipe expands into the expected jobs (ids, names, settings per job, figure
 * defaults); a bad one gives "file:line: what is wrong" before anything runs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp/recipe.h"

static const char good[] = "[sweep]\n"
                           "config = gtx480\n"
                           "[set]\n"
                           "workload.bfs.nodes = 1024\n"
                           "[axes]\n"
                           "mc.policy = fcfs, frfcfs, frfcfs-cap\n"
                           "workload = vecadd, bfs,\n"
                           "  kmeans\n"
                           "[baseline]\n"
                           "mc.policy = fcfs\n"
                           "[metric ipc]\n"
                           "path = stats.gpu.ipc\n"
                           "[figure f]\n"
                           "kind = bars\n"
                           "metric = ipc\n";

static void test_expand(void **state) {
    (void)state;
    static struct recipe r;
    struct ws_err e = {{0}};
    if (recipe_load(&r, "good.ini", good, &e) != 0) fail_msg("%s", e.msg);
    assert_int_equal(r.naxes, 2);
    assert_int_equal(r.axes[1].n, 3); /* the indented line continues the list (after a ',') */
    assert_string_equal(r.axes[1].values[2], "kmeans");
    assert_int_equal(r.wl_axis, 1);
    assert_int_equal(r.base_axis, 0);
    assert_int_equal(r.base_value, 0);
    assert_string_equal(r.size, "test");
    assert_int_equal(r.figs[0].x, 1);      /* workloads along x by default */
    assert_int_equal(r.figs[0].series, 0); /* the baseline's axis as series */
    assert_true(r.figs[0].normalise);
    struct rcp_job *jobs;
    int n;
    assert_int_equal(recipe_expand(&r, &jobs, &n, &e), 0);
    assert_int_equal(n, 9);
    const char *names[] = {"fcfs_vecadd",       "fcfs_bfs",       "fcfs_kmeans",
                           "frfcfs_vecadd",     "frfcfs_bfs",     "frfcfs_kmeans",
                           "frfcfs-cap_vecadd", "frfcfs-cap_bfs", "frfcfs-cap_kmeans"};
    for (int j = 0; j < n; j++) {
        assert_int_equal(jobs[j].id, j);
        assert_string_equal(jobs[j].name, names[j]);
    }
    struct rcp_runspec s;
    jobs[7].sets_skip = 0;
    recipe_runspec(&r, &jobs[7], &s);
    assert_string_equal(s.config.value, "gtx480");
    assert_string_equal(s.workload.value, "bfs");
    assert_int_equal(s.workload.line, 7);
    assert_int_equal(s.nsets, 2);
    assert_string_equal(s.sets[0].key, "workload.bfs.nodes");
    assert_string_equal(s.sets[1].value, "frfcfs-cap");
    assert_int_equal(s.set_index[1], -1);
    jobs[7].sets_skip = 1; /* the sweep marks [set] keys a job does not read */
    recipe_runspec(&r, &jobs[7], &s);
    assert_int_equal(s.nsets, 1);
    free(jobs);
}

struct bad {
    const char *text, *msg;
};

static void test_bad_recipes(void **state) {
    (void)state;
    static const struct bad cases[] = {
        {"[sweep]\nconfig = gtx480\n[axes]\nworkload =\n", "bad.ini:4: axis 'workload' is empty"},
        {"[axes]\nworkload = bfs,,vecadd\n", "bad.ini:2: axis 'workload': empty value (item 2)"},
        {"[axes]\nworkload = bfs, bfs\n", "bad.ini:2: axis 'workload': value 'bfs' given twice"},
        {"[axes]\nworkload = bfs, bfz\n",
         "bad.ini:2: unknown workload 'bfz' (did you mean 'bfs'?)"},
        {"[axes]\nworkload = bfs, nosuchload\n",
         "bad.ini:2: unknown workload 'nosuchload' (known: "},
        {"[axes]\nworkload = bfs\nmc.policy = fcfs, nope\n",
         "bad.ini:3: unknown policy 'nope' (known: fcfs, fifo, frfcfs,"},
        {"[sweep]\nworkload = bfs\n[set]\nmc.policy = frfcfs-cp\n",
         "bad.ini:4: unknown policy 'frfcfs-cp' (did you mean 'frfcfs-cap'?)"},
        {"[sweep]\nconfig = gtx480\nfoo = 1\n",
         "bad.ini:3: [sweep]: unknown key 'foo' (title, config, size, workload)"},
        {"[sweep]\nsize = huge\nworkload = bfs\n", "bad.ini:2: size = 'huge' is not test or paper"},
        {"[sweep]\nconfig = gtx480\n", "bad.ini: no workload: give [axes] workload = ..."},
        {"[axes]\npolicy = fcfs\n",
         "bad.ini:2: [axes]: key 'policy' is neither workload, config, size nor a section.key"},
        {"[axes]\nworkload = bfs\nmc.policy = fcfs\n[baseline]\nmc.policy = frfcfs\n",
         "bad.ini:5: [baseline]: 'frfcfs' is not a value of axis 'mc.policy'"},
        {"[axes]\nworkload = bfs\n[baseline]\nmc.policy = fcfs\n",
         "bad.ini:4: [baseline]: 'mc.policy' is not an axis of this recipe"},
        {"[axes]\nworkload = bfs\n[groups]\nby = suite\n",
         "bad.ini:4: [groups]: by = 'suite' is not one of: class, load_class, none"},
        {"[axes]\nworkload = bfs\n[groups]\nT1 = bfs, bfz\n",
         "bad.ini:4: [groups]: group 'T1': unknown workload 'bfz' (did you mean 'bfs'?)"},
        {"[axes]\nworkload = bfs\n[groups]\nT1 = bfs\nT2 = kmeans, bfs\n",
         "bad.ini:5: [groups]: workload 'bfs' is in group 'T1' and 'T2'"},
        {"[axes]\nworkload = bfs\n[groups]\nT1 = bfs,,kmeans\n",
         "bad.ini:4: group 'T1': empty value (item 2)"},
        {"[axes]\nworkload = bfs\n[groups]\nT1 = bfs\nby = class\n",
         "bad.ini:5: [groups]: 'by' and named groups exclude each other"},
        {"[axes]\nworkload = bfs\n[metric m]\nlabel = M\n",
         "bad.ini:4: [metric m]: no path (e.g. path = stats.gpu.ipc)"},
        {"[axes]\nworkload = bfs\n[metric group]\npath = stats.sched.members\n",
         "bad.ini:4: [metric group]: 'group' is a column of report.csv already; name the metric "
         "otherwise"},
        {"[axes]\nworkload = bfs\n[figure f]\nkind = pie\n",
         "bad.ini:4: [figure f]: kind = 'pie' is not one of: bars, box, line, stack"},
        {"[axes]\nworkload = bfs\n[figure f]\nkind = bars\nmetric = ipc2\n",
         "bad.ini:5: [figure f]: metric 'ipc2' is not defined by a [metric ipc2] section"},
        {"[axes]\nworkload = bfs\n[figure f]\nkind = bars\nmetric = ipc\nx = mc.policy\n",
         "bad.ini:6: [figure f]: x = 'mc.policy' is not an axis of this recipe"},
        {"[axes]\nworkload = bfs\n[figure f]\nkind = line\nmetric = ipc\n",
         "bad.ini:4: [figure f]: a line figure needs x = <a swept key>"},
        {"[axes]\nworkload = bfs\n[figure f]\nkind = bars\nmetric = ipc\nnormalise = yes\n",
         "bad.ini:4: [figure f]: normalise needs a [baseline]"},
        {"[axes]\nworkload = bfs\n[set]\nworkload.name = bfs\n",
         "bad.ini:4: [set]: give workload.name as [sweep] name"},
        {"[set]\nmc.policy = fcfs\nmc.policy = frfcfs\n",
         "bad.ini:3: [set]: 'mc.policy' already set on line 2"},
        {"[set]\nmc.policy = fcfs\n[axes]\nworkload = bfs\nmc.policy = frfcfs\n",
         "bad.ini:5: 'mc.policy' is both set (line 2) and an axis"},
        {"[wat]\nx = 1\n", "bad.ini:2: unknown section [wat] (sweep, set, axes, baseline"},
        {"[axes]\nworkload = bfs\njunk\n",
         "bad.ini:3: malformed line (expected [section] or key = value)"},
        {"key = 1\n", "bad.ini:1: key 'key' is outside any [section]"},
        {"[axes\nworkload = bfs\n",
         "bad.ini:1: malformed line (expected [section] or key = value)"},
    };
    static struct recipe r;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ws_err e = {{0}};
        if (recipe_load(&r, "bad.ini", cases[i].text, &e) == 0)
            fail_msg("case %zu accepted:\n%s", i, cases[i].text);
        if (strncmp(e.msg, cases[i].msg, strlen(cases[i].msg)) != 0)
            fail_msg("case %zu:\n got: %s\nwant: %s", i, e.msg, cases[i].msg);
    }
}

/* Axis values are cleaned into file names, so two values can name the same job; the pair named
 * is the first a scan in id order meets. */
static void expect_dup(const char *values, const char *msg) {
    static struct recipe r;
    char text[512];
    snprintf(text, sizeof text, "[axes]\nworkload = bfs\ngpu.max_insts = %s\n", values);
    struct ws_err e = {{0}};
    if (recipe_load(&r, "dup.ini", text, &e) != 0) fail_msg("%s", e.msg);
    struct rcp_job *jobs = NULL;
    int n = 0;
    assert_int_equal(recipe_expand(&r, &jobs, &n, &e), -1);
    assert_string_equal(e.msg, msg);
}

static void test_duplicate_names(void **state) {
    (void)state;
    expect_dup("1-0, 2_0, 1_0, 2-0", "dup.ini: jobs 0 and 2 would both be named 'bfs_1-0'");
    expect_dup("2_0, 1_0, 1-0, 2-0", "dup.ini: jobs 1 and 2 would both be named 'bfs_1-0'");
    expect_dup("a, b, c, a+b, a b, a_b", "dup.ini: jobs 4 and 5 would both be named 'bfs_a-b'");
}

/* The largest matrix a recipe may have (100,000 jobs) expands with distinct names; one more job
 * is refused. (Names were once checked pairwise: 5 * 10^9 comparisons at this size.) */
static void test_large_matrix(void **state) {
    (void)state;
    static struct recipe r;
    char text[4096] = "[axes]\nworkload = bfs\n";
    const char *keys[] = {"gpu.a", "gpu.b", "gpu.c", "gpu.d", "gpu.e"};
    const int sizes[] = {10, 10, 10, 10, 10};
    for (int k = 0; k < 5; k++) {
        size_t len = strlen(text);
        len += (size_t)snprintf(text + len, sizeof text - len, "%s = ", keys[k]);
        for (int v = 0; v < sizes[k]; v++)
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%d", v ? ", " : "", v);
        snprintf(text + len, sizeof text - len, "\n");
    }
    struct ws_err e = {{0}};
    if (recipe_load(&r, "big.ini", text, &e) != 0) fail_msg("%s", e.msg);
    struct rcp_job *jobs = NULL;
    int n = 0;
    if (recipe_expand(&r, &jobs, &n, &e) != 0) fail_msg("%s", e.msg);
    assert_int_equal(n, 100000);
    assert_string_equal(jobs[0].name, "bfs_0_0_0_0_0");
    assert_string_equal(jobs[99999].name, "bfs_9_9_9_9_9");
    assert_string_equal(jobs[12345].name, "bfs_1_2_3_4_5");
    free(jobs);
    strcat(text, "gpu.f = 0, 1\n");
    if (recipe_load(&r, "big.ini", text, &e) != 0) fail_msg("%s", e.msg);
    assert_int_equal(recipe_expand(&r, &jobs, &n, &e), -1);
    assert_string_equal(e.msg, "big.ini: 200000 jobs; at most 100000");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duplicate_names),
        cmocka_unit_test(test_large_matrix),
        cmocka_unit_test(test_expand),
        cmocka_unit_test(test_bad_recipes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
