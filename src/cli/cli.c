/* Common option handling for subcommands (see cli.h). */
#include "cli/cli.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fileio.h"
#include "gpu/gpu.h"
#include "mem/drive/usimm_cfg.h"
#include "workload/workload.h"

int cli_fail(const struct ws_err *e, int code) {
    fprintf(stderr, "warpsim: %s\n", e->msg);
    return code;
}

int cli_common_opt(struct cli_common *o, int argc, char **argv, int *i, struct ws_err *e) {
    const char *a = argv[*i];
    if (strcmp(a, "-c") == 0 || strcmp(a, "--config") == 0) {
        if (*i + 1 >= argc) return ws_fail(e, "%s needs a file", a);
        o->config_path = argv[++*i];
        return 1;
    }
    if (strcmp(a, "--set") == 0 || strcmp(a, "-s") == 0) {
        if (*i + 1 >= argc) return ws_fail(e, "%s needs section.key=value", a);
        if (o->nsets == (int)(sizeof o->sets / sizeof o->sets[0]))
            return ws_fail(e, "too many --set options");
        snprintf(o->set_origin[o->nsets], sizeof o->set_origin[0], "--set #%d", ++o->nuser_sets);
        o->sets[o->nsets++] = argv[++*i];
        return 1;
    }
    if (strcmp(a, "-o") == 0 || strcmp(a, "--out") == 0) {
        if (*i + 1 >= argc) return ws_fail(e, "%s needs a file", a);
        o->out_path = argv[++*i];
        return 1;
    }
    return 0;
}

#ifndef WS_CONFIG_DIR
#define WS_CONFIG_DIR "configs"
#endif

/* A bare name ("rtx2060s") that is not a file names a preset shipped in configs/. */
static const char *resolve_preset(const char *path, char *buf, size_t n) {
    if (strchr(path, '/') || access(path, R_OK) == 0) return path;
    snprintf(buf, n, "%s/%s%s", WS_CONFIG_DIR, path, strstr(path, ".ini") ? "" : ".ini");
    return access(buf, R_OK) == 0 ? buf : path;
}

static int cmp_name(const void *a, const void *b) {
    return strcmp(a, b);
}

/* For a bare name that is neither a file nor a preset: the preset it is likely a typo of. */
static const char *suggest_preset(const char *name, char *buf, size_t n) {
    char typed[256];
    snprintf(typed, sizeof typed, "%.*s", (int)strcspn(name, "."), name);
    struct cfg_suggest s = {.typed = typed};
    char names[64][64];
    int k = 0;
    DIR *d = opendir(WS_CONFIG_DIR);
    struct dirent *de;
    while (d && k < 64 && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len <= 4 || len - 4 >= sizeof names[0] || strcmp(de->d_name + len - 4, ".ini") != 0)
            continue;
        snprintf(names[k], sizeof names[k], "%.*s", (int)(len - 4), de->d_name);
        k++;
    }
    if (d) closedir(d);
    /* in name order, so that a tie always suggests the same preset */
    qsort(names, (size_t)k, sizeof names[0], cmp_name);
    for (int i = 0; i < k; i++) cfg_suggest_offer(&s, names[i]);
    if (!s.best) return NULL;
    snprintf(buf, n, "%s", s.best);
    return buf;
}

int cli_load_config(struct cli_common *o, struct cfg *c, struct ws_err *e) {
    static char resolved[4096];
    if (o->config_path) o->config_path = resolve_preset(o->config_path, resolved, sizeof resolved);
    if (o->config_path && !strchr(o->config_path, '/') && access(o->config_path, F_OK) != 0) {
        int err = errno;
        char near[64];
        if (suggest_preset(o->config_path, near, sizeof near))
            return ws_fail(e, "%s: cannot open: %s (did you mean '%s'?)", o->config_path,
                           strerror(err), near);
        return ws_fail(e,
                       "%s: cannot open: %s (not a file here, nor a preset: warpsim list configs)",
                       o->config_path, strerror(err));
    }
    if (o->config_path && o->out_path &&
        ws_check_not_input(o->out_path, o->config_path, "the configuration", e) != 0)
        return -1;
    if (o->config_path) {
        int rc;
        if (usimm_cfg_detect(o->config_path)) {
            o->usimm_cfg = true;
            rc = usimm_cfg_load(c, o->config_path, o->usimm_cores > 0 ? o->usimm_cores : 1, e);
        } else {
            rc = cfg_load_ini(c, o->config_path, e);
        }
        if (rc != 0) return -1;
    }
    for (int k = 0; k < o->nsets; k++)
        if (cfg_set_arg(c, o->sets[k], o->set_origin[k], e) != 0) return -1;
    return 0;
}

int cli_check_kind(const struct cli_common *o, const struct cfg *c, bool gpu, const char *what,
                   struct ws_err *e) {
    const char *name = o->config_path ? o->config_path : "the default configuration";
    if (gpu && !cfg_raw(c, "gpu.sms"))
        return ws_fail(e,
                       "%s is a memory-only configuration (it sets no gpu.sms); %s needs a GPU "
                       "machine such as -c rtx2060s (warpsim list configs)",
                       name, what);
    if (!gpu && cfg_raw(c, "gpu.sms")) {
        const char *p = cfg_raw(c, "dram.preset"), *ch = cfg_raw(c, "dram.channels");
        return ws_fail(e,
                       "%s is a GPU machine configuration; %s takes a memory configuration "
                       "(warpsim list configs)%s%s%s%s",
                       name, what, p ? "; for this machine's DRAM: --set dram.preset=" : "",
                       p ? p : "", p && ch ? " --set dram.channels=" : "", p && ch ? ch : "");
    }
    return 0;
}

int cli_simulate(const struct cli_common *base, const char *const *extra, const char *const *origin,
                 int nextra, struct gpu_summary *out, char *machine, size_t n, struct ws_err *e) {
    struct cli_common cc = *base;
    for (int k = 0; k < nextra; k++) {
        if (cc.nsets == (int)(sizeof cc.sets / sizeof cc.sets[0]))
            return ws_fail(e, "too many --set options");
        snprintf(cc.set_origin[cc.nsets], sizeof cc.set_origin[0], "%s", origin[k]);
        cc.sets[cc.nsets++] = extra[k];
    }
    struct cfg *c = cfg_create();
    struct gpu *g = NULL;
    struct workload *w = NULL;
    int rc = -1;
    bool built = cli_load_config(&cc, c, e) == 0 &&
                 cli_check_kind(&cc, c, true, "a GPU run", e) == 0 && (g = gpu_create(c, e)) &&
                 (w = workload_create(c, e));
    if (built && base->set_read)
        for (int k = 0; k < base->nsets; k++) {
            char key[256];
            cfg_arg_key(base->sets[k], key, sizeof key);
            base->set_read[k] = cfg_claimed(c, key);
            cfg_claim(c, key);
        }
    if (built && cfg_check_unclaimed(c, e) == 0 && (!out || gpu_run(g, w, e) == 0)) {
        if (out) *out = *gpu_summary(g);
        if (machine)
            snprintf(machine, n, "%s", cfg_raw(c, "gpu.name") ? cfg_raw(c, "gpu.name") : "");
        rc = 0;
    }
    if (w) w->vt->destroy(w);
    gpu_destroy(g);
    cfg_destroy(c);
    return rc;
}
