/* `warpsim config dump|keys`: a dump loads back with -c and gives the same values, for every
 * preset shipped in configs/; the key reference lists every key a dump can show exactly once. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* The dump without its comments (where each value was set differs after a reload). */
static char *values_of(const char *dump) {
    char *v = malloc(strlen(dump) + 1), *o = v;
    assert_non_null(v);
    for (const char *s = dump; *s;) {
        size_t n = strcspn(s, "\n"), k = strcspn(s, ";");
        if (k > n) k = n;
        while (k > 0 && s[k - 1] == ' ') k--;
        memcpy(o, s, k);
        o += k;
        *o++ = '\n';
        s += n + (s[n] == '\n');
    }
    *o = '\0';
    return v;
}

static void dump_reload(const char *preset) {
    char args[4096], *first = NULL, *again = NULL;
    snprintf(args, sizeof args, "config dump -c %s/configs/%s", WS_SOURCE_DIR, preset);
    if (tu_run_cli(args, &first) != 0) fail_msg("%s: %s", preset, first);
    const char *f = tu_tmpfile("dump.ini", first);
    snprintf(args, sizeof args, "config dump -c %s", f);
    if (tu_run_cli(args, &again) != 0) fail_msg("%s reloaded: %s", preset, again);
    char *a = values_of(first), *b = values_of(again);
    if (strcmp(a, b) != 0) fail_msg("%s: values differ after a reload", preset);
    free(a);
    free(b);
    free(first);
    free(again);
}

static void test_dump_reloads(void **state) {
    (void)state;
    /* a GPU and a DRAM preset by name first, so that a missing file cannot pass unnoticed */
    dump_reload("rtx2060s.ini");
    dump_reload("ddr4-2400.ini");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/configs", WS_SOURCE_DIR);
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, alphasort);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(ents[i]->d_name);
        if (len > 4 && strcmp(ents[i]->d_name + len - 4, ".ini") == 0) dump_reload(ents[i]->d_name);
        free(ents[i]);
    }
    free(ents);
    /* a dump runs: keys this configuration does not read (synth.stride under the random
     * pattern, the R-MAT keys of BFS's Rodinia graph) are written commented out, since setting
     * them is an error */
    const char *const runs[][2] = {
        {"config dump", "dram -c %s --synthetic random --requests 100 -q"},
        {"config dump -w bfs", "run -c %s -w bfs --set workload.size=test --set "
                               "gpu.max_insts=5000 -q"},
    };
    for (int k = 0; k < 2; k++) {
        char *d = NULL, *out = NULL, args[4096];
        assert_int_equal(tu_run_cli(runs[k][0], &d), 0);
        assert_non_null(strstr(d, k ? "\n; graph.rmat_a     = 0.57           ; not read with this "
                                      "configuration (read with workload.graph.gen = rmat)\n"
                                    : "\n; stride           = 4096           ; not read with this "
                                      "configuration (read with synth.pattern = strided)\n"));
        const char *f = tu_tmpfile("dump-run.ini", d);
        snprintf(args, sizeof args, runs[k][1], f);
        if (tu_run_cli(args, &out) != 0) fail_msg("%s: %s", args, out);
        free(d);
        free(out);
    }
}

/* Whether `key` starts a line of text (the first word of a key-reference line). */
static bool listed(const char *text, const char *key) {
    size_t n = strlen(key);
    for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, key, n) == 0 && p[n] == ' ') return true;
    return false;
}

/* Every key of the dumps of machine `cfg` under each policy must be in the reference. */
static void all_dumped_listed(const char *keys, const char *cfg, const char *policies) {
    for (const char *p = policies; *p;) {
        size_t n = strcspn(p, " \n");
        char args[512], *dump = NULL, section[64] = "";
        snprintf(args, sizeof args, "config dump -c %s --set mc.policy=%.*s", cfg, (int)n, p);
        if (tu_run_cli(args, &dump) != 0) fail_msg("%s: %s", args, dump);
        for (char *line = strtok(dump, "\n"); line; line = strtok(NULL, "\n")) {
            char key[160], name[96];
            if (sscanf(line, "[%63[^]]]", section) == 1 || line[0] == ';') continue;
            assert_int_equal(sscanf(line, "%95s", name), 1);
            snprintf(key, sizeof key, "%s.%s", section, name);
            if (!listed(keys, key)) fail_msg("%s: %s is not in config keys", args, key);
        }
        free(dump);
        p += n;
        p += strspn(p, " \n");
    }
}

/* mc.basjf.* and mc.wawd.* were listed once per policy sharing them (six times) and the
 * warp-group family's mc.wg.* not at all. */
static void test_keys_once_each(void **state) {
    (void)state;
    char *keys = NULL, *pol = NULL;
    assert_int_equal(tu_run_cli("config keys", &keys), 0);
    /* integer ranges as whole numbers, so that a bound pastes back as a value */
    assert_non_null(strstr(keys, "gpu.max_insts            [0, 1000000000000000]"));
    char *copy = strdup(keys);
    assert_non_null(copy);
    size_t nnames = 0, cap = 1024;
    char **names = calloc(cap, sizeof *names);
    for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        line[strcspn(line, " ")] = '\0';
        for (size_t i = 0; i < nnames; i++)
            if (strcmp(names[i], line) == 0) fail_msg("config keys lists %s twice", line);
        assert_true(nnames < cap);
        names[nnames++] = line;
    }
    assert_true(nnames > 200);
    const char *want[] = {"mc.wg.window", "mc.wg.close",    "mc.wg.groups",  "mc.wg.bank_q",
                          "mc.basjf.age", "mc.wawd.margin", "mc.wet.entries"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!listed(keys, want[i])) fail_msg("config keys lacks %s", want[i]);
    /* the policies' names, one a line, as the first word of `list policies` */
    char *help = NULL;
    assert_int_equal(tu_run_cli("list --help", &help), 0);
    assert_string_equal(help, "usage: warpsim list policies|presets|configs|workloads\n");
    free(help);
    assert_int_equal(tu_run_cli("list policies", &pol), 0);
    char *names_only = malloc(strlen(pol) + 1), *o = names_only;
    for (const char *p = pol; *p;) {
        size_t n = strcspn(p, " "), l = strcspn(p, "\n");
        memcpy(o, p, n);
        o += n;
        *o++ = '\n';
        p += l + (p[l] == '\n');
    }
    *o = '\0';
    all_dumped_listed(keys, "rtx2060s", names_only);
    all_dumped_listed(keys, "ddr4-2400", "frfcfs");
    free(names_only);
    free(pol);
    free(names);
    free(copy);
    free(keys);
}

/* A preset's description (its first comment line, shown by `warpsim list configs`) that counts
 * ranks counts those the machine has: ddr4-2400's said two ranks of the single-rank preset. */
static void test_described_ranks(void **state) {
    (void)state;
    static const char *const words[] = {"one",  "two", "three", "four",
                                        "five", "six", "seven", "eight"};
    char *list = NULL;
    assert_int_equal(tu_run_cli("list configs", &list), 0);
    int checked = 0;
    for (char *line = list; *line;) {
        size_t len = strcspn(line, "\n");
        char name[64], said[32], args[256], *dump = NULL;
        const char *r = line;
        int n = 0;
        /* the word before the first " rank" of the line */
        while ((r = strstr(r + 1, " rank")) && r < line + len) {
            const char *w = r;
            while (w > line && w[-1] != ' ') w--;
            snprintf(said, sizeof said, "%.*s", (int)(r - w), w);
            n = atoi(said);
            for (int k = 0; k < 8 && !n; k++)
                if (strcmp(said, words[k]) == 0) n = k + 1;
            if (n) break;
        }
        if (n && r < line + len) {
            assert_int_equal(sscanf(line, "%63s", name), 1);
            snprintf(args, sizeof args, "config dump -c %s", name);
            assert_int_equal(tu_run_cli(args, &dump), 0);
            const char *v = strstr(dump, "\nranks ");
            assert_non_null(v);
            v += strcspn(v, "=") + 1;
            if (atoi(v) != n) fail_msg("%s: described with %d rank(s), has %d", name, n, atoi(v));
            free(dump);
            checked++;
        }
        line += len + (line[len] == '\n');
    }
    assert_true(checked >= 2); /* ddr3-1600 and ddr4-2400 */
    free(list);
}

/* Help for config and each action; dump -w takes run's default machine. */
static void test_help_and_dump_workload(void **state) {
    (void)state;
    static const char *const helps[] = {"config --help", "config -h", "config dump --help",
                                        "config keys --help", "config import --help"};
    for (size_t k = 0; k < sizeof helps / sizeof helps[0]; k++) {
        char *out = NULL;
        assert_int_equal(tu_run_cli(helps[k], &out), 0);
        assert_non_null(strstr(out, "usage: warpsim config"));
        free(out);
    }
    char *out = NULL;
    assert_int_equal(tu_run_cli("config dump -w bfs", &out), 0);
    assert_non_null(strstr(out, "\nname               = rtx2060s "));
    assert_non_null(strstr(out, "\nbfs.graph          = "));
    free(out);
    assert_int_equal(tu_run_cli("config dump -c ddr4-2400 -w bfs", &out), 1);
    assert_non_null(strstr(out, "is a memory-only configuration"));
    free(out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dump_reloads),
        cmocka_unit_test(test_help_and_dump_workload),
        cmocka_unit_test(test_keys_once_each),
        cmocka_unit_test(test_described_ranks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
