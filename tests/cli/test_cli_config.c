/* `warpsim config dump|keys`: a dump loads back with -c and gives the same values, for every
 * preset shipped in configs/. */
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
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dump_reloads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
