/* Shared test helpers (see testutil.h). */
#include "testutil.h"

#include <stdarg.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload/workload.h"

struct cfg *tu_cfg(const char *ini) {
    struct cfg *c = cfg_create();
    struct ws_err e = {{0}};
    if (cfg_load_ini_string(c, "test.ini", ini, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        fail();
    }
    return c;
}

struct cfg *tu_cfg2(const char *base, const char *extra) {
    struct cfg *c = tu_cfg(base);
    struct ws_err e = {{0}};
    if (extra && cfg_load_ini_string(c, "test-extra.ini", extra, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        fail();
    }
    return c;
}

const char *tu_tmpfile(const char *name, const char *text) {
    static char paths[8][512];
    static int slot;
    char *p = paths[slot++ & 7];
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(p, 512, "%s/ws-test-%d-%s", dir, (int)getpid(), name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

int tu_run_cli(const char *args, char **out) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", WS_BINARY, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += r;
        if (n + 1 >= cap) buf = realloc(buf, cap *= 2);
    }
    buf[n] = '\0';
    int st = pclose(p);
    if (out)
        *out = buf;
    else
        free(buf);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

bool tu_file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

char *tu_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    b[n] = '\0';
    if (len) *len = (size_t)n;
    return b;
}

struct workload *tu_workload(const char *ini) {
    struct cfg *c = tu_cfg(ini);
    struct ws_err e = {{0}};
    struct workload *w = workload_create(c, &e);
    if (!w) fprintf(stderr, "%s\n", e.msg);
    assert_non_null(w);
    assert_int_equal(cfg_check_unclaimed(c, &e), 0);
    cfg_destroy(c);
    return w;
}

void tu_expect_workload_error(const char *ini, const char *msg) {
    struct cfg *c = tu_cfg(ini);
    struct ws_err e = {{0}};
    assert_null(workload_create(c, &e));
    if (!strstr(e.msg, msg)) fprintf(stderr, "got  %s\nwant %s\n", e.msg, msg);
    assert_non_null(strstr(e.msg, msg));
    cfg_destroy(c);
}
