/* Shared by the GPU end-to-end tests: run a built-in workload on a shipped machine preset (with
 * the protocol checker on) and keep its summary and its statistics as JSON. */
#pragma once

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "gpu/gpu.h"
#include "testutil.h"

struct result {
    struct gpu_summary s;
    char *json;
};

/* Runs `workload` on configs/<machine>.ini with extra --set style assignments (";"-separated). */
static int run(const char *machine, const char *workload, const char *sets, struct result *out,
               struct ws_err *e) {
    struct cfg *c = cfg_create();
    char path[4096];
    snprintf(path, sizeof path, "%s/configs/%s.ini", WS_SOURCE_DIR, machine);
    int rc = -1;
    struct gpu *g = NULL;
    struct workload *w = NULL;
    struct stats_reg reg;
    stats_reg_init(&reg);
    if (cfg_load_ini(c, path, e) != 0) goto out;
    char buf[1024];
    snprintf(buf, sizeof buf, "workload.name=%s;mc.check=true;%s", workload, sets ? sets : "");
    for (char *p = strtok(buf, ";"); p; p = strtok(NULL, ";"))
        if (*p && cfg_set_arg(c, p, "test", e) != 0) goto out;
    g = gpu_create(c, e);
    if (!g) goto out;
    w = workload_create(c, e);
    if (!w) goto out;
    if (cfg_check_unclaimed(c, e) != 0) goto out;
    if (gpu_run(g, w, e) != 0) goto out;
    if (out) {
        out->s = *gpu_summary(g);
        if (gpu_register_stats(g, &reg, e) != 0) goto out;
        json_t *j = stats_to_json(&reg);
        out->json = json_dumps(j, JSON_SORT_KEYS);
        json_decref(j);
    }
    rc = 0;
out:
    stats_reg_free(&reg);
    if (w) w->vt->destroy(w);
    gpu_destroy(g);
    cfg_destroy(c);
    return rc;
}

static void must_run(const char *machine, const char *workload, const char *sets,
                     struct result *out) {
    struct ws_err e = {{0}};
    if (run(machine, workload, sets, out, &e) != 0)
        fail_msg("%s on %s: %s", workload, machine, e.msg);
}
