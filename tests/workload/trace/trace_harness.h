/* Helpers shared by the trace-reader tests: a scratch folder for generated traces, opening a
 * trace workload with warnings captured, and pulling one warp's instructions out of a trace. */
#pragma once

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "workload/trace/trace.h"

#define ACCELSIM WS_SHARED_DATA "/traces/accelsim"

/* ---- scratch folder ---- */

static char tdir[256] __attribute__((unused));

static inline void tdir_new(void) {
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(tdir, sizeof tdir, "%s/ws-trace-XXXXXX", base);
    assert_non_null(mkdtemp(tdir));
}

static inline const char *tpath(const char *name) {
    static char p[8][512];
    static int k;
    char *s = p[k++ & 7];
    snprintf(s, 512, "%s/%s", tdir, name);
    return s;
}

static inline const char *twrite(const char *name, const char *text) {
    const char *p = tpath(name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static inline void tdir_remove(void) {
    DIR *d = opendir(tdir);
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) unlink(tpath(de->d_name));
    closedir(d);
    rmdir(tdir);
}

/* 1-based number of the first line of `text` that contains `needle` (the test's own oracle for
 * where an error must be reported). */
static inline long line_of(const char *text, const char *needle) {
    const char *p = strstr(text, needle);
    assert_non_null(p);
    long n = 1;
    for (const char *q = text; q < p; q++) n += *q == '\n';
    return n;
}

/* ---- workloads ---- */

struct warns {
    int n;
    char last[512];
};
static inline void count_warn(void *ctx, const char *msg) {
    struct warns *w = ctx;
    w->n++;
    snprintf(w->last, sizeof w->last, "%s", msg);
}

static struct warns twarns __attribute__((unused));

static inline struct workload *topen_opts(const char *path, bool lat, struct ws_err *e) {
    struct trace_opts o = {.opcode_latency = lat};
    assert_true(snprintf(o.path, sizeof o.path, "%s", path) < (int)sizeof o.path);
    struct workload *w = trace_open(&o, e);
    if (w) trace_set_warn(w, count_warn, &twarns);
    return w;
}

static inline struct workload *topen(const char *path) {
    struct ws_err e = {{0}};
    struct workload *w = topen_opts(path, true, &e);
    if (!w) fail_msg("%s", e.msg);
    return w;
}

/* Runs the whole trace without timing; returns 0 or -1 with e set. */
static inline int tcount(const char *path, struct wl_count *c, struct ws_err *e) {
    struct workload *w = topen_opts(path, true, e);
    if (!w) return -1;
    int rc = workload_count(w, c, e);
    w->vt->destroy(w);
    return rc;
}

/* The error text of running `path` to the end (fails the test when it succeeds). */
static inline const char *terror(const char *path) {
    static struct ws_err e;
    struct wl_count c;
    memset(&e, 0, sizeof e);
    if (tcount(path, &c, &e) == 0) fail_msg("%s: expected an error", path);
    return e.msg;
}

/* The instructions of warp `warp` of CTA `cta` of kernel `kernel` (0-based), EXIT included. */
static inline struct inst *twarp(const char *path, unsigned kernel, uint64_t cta, unsigned warp,
                                 bool lat, unsigned *n) {
    struct ws_err e = {{0}};
    struct workload *w = topen_opts(path, lat, &e);
    if (!w) fail_msg("%s", e.msg);
    struct kernel_desc k;
    for (unsigned i = 0; i <= kernel; i++)
        if (w->vt->next_kernel(w, &k, &e) != 1) fail_msg("kernel %u: %s", i, e.msg);
    struct wl_warp *warps[32];
    for (uint64_t c = 0; c < cta; c++) {
        if (w->vt->cta_start(w, c, warps, &e)) fail_msg("%s", e.msg);
        w->vt->cta_end(w, c, warps);
    }
    if (w->vt->cta_start(w, cta, warps, &e)) fail_msg("%s", e.msg);
    unsigned cap = 64, m = 0;
    struct inst *v = malloc(cap * sizeof *v);
    do {
        if (m == cap) v = realloc(v, (cap *= 2) * sizeof *v);
        memset(&v[m], 0, sizeof v[m]);
        if (w->vt->warp_next(w, warps[warp], &v[m], &e)) fail_msg("%s", e.msg);
    } while (v[m++].cls != OP_EXIT);
    w->vt->destroy(w);
    *n = m;
    return v;
}

/* Sum of the "insts = N" lines of a plain-text .traceg: an oracle independent of the reader. */
static inline uint64_t insts_in_file(const char *path) {
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[4096];
    uint64_t sum = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "insts = ", 8) == 0) sum += strtoull(line + 8, NULL, 10);
    fclose(f);
    return sum;
}
