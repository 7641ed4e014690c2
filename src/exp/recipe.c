/* Experiment recipes (see recipe.h): INI through cfg_ini_parse, which counts lines for messages. */
#include "exp/recipe.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/cfg.h"
#include "mem/mc/policy.h"
#include "workload/workload.h"

struct parse_ctx {
    struct recipe *r;
    long line;
    bool failed;
    long fail_at; /* the line the handler failed on */
    struct ws_err *e;
};

static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* Copies value into a field, failing (with the line) when it does not fit. */
static int put(struct parse_ctx *x, char *dst, size_t n, const char *what, const char *value) {
    if (strlen(value) >= n)
        return ws_fail(x->e, "%s:%ld: %s: value longer than %zu characters", x->r->path, x->line,
                       what, n - 1);
    strcpy(dst, value);
    return 0;
}

static int parse_bool(struct parse_ctx *x, const char *name, const char *v, bool *out) {
    if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "on"))
        return *out = true, 0;
    if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0") || !strcasecmp(v, "off"))
        return *out = false, 0;
    return ws_fail(x->e, "%s:%ld: %s = '%s' is not yes or no", x->r->path, x->line, name, v);
}

/* Appends a comma list to an axis (what = "axis") or a named group (what = "group"). */
static int add_list_values(struct parse_ctx *x, struct rcp_axis *a, const char *list,
                           const char *what) {
    char buf[4096];
    if (strlen(list) >= sizeof buf)
        return ws_fail(x->e, "%s:%ld: %s '%s': list too long", x->r->path, x->line, what, a->key);
    strcpy(buf, list);
    if (!trim(buf)[0])
        return ws_fail(x->e, "%s:%ld: %s '%s' is empty", x->r->path, x->line, what, a->key);
    int k = 0;
    /* strtok would merge ",,": split by hand so that an empty item is an error */
    for (char *p = buf;; k++) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        char *v = trim(p);
        if (!v[0] && !comma && k > 0) break; /* "a, b," with the list going on below */
        if (!v[0])
            return ws_fail(x->e, "%s:%ld: %s '%s': empty value (item %d)", x->r->path, x->line,
                           what, a->key, k + 1);
        if (a->n == RCP_MAX_VALUES)
            return ws_fail(x->e, "%s:%ld: %s '%s': more than %d values", x->r->path, x->line, what,
                           a->key, RCP_MAX_VALUES);
        if (strlen(v) >= RCP_NAME)
            return ws_fail(x->e, "%s:%ld: %s '%s': value '%s' longer than %d characters",
                           x->r->path, x->line, what, a->key, v, RCP_NAME - 1);
        for (int i = 0; i < a->n; i++)
            if (strcasecmp(a->values[i], v) == 0)
                return ws_fail(x->e, "%s:%ld: %s '%s': value '%s' given twice", x->r->path, x->line,
                               what, a->key, v);
        strcpy(a->values[a->n++], v);
        if (!comma) break;
        p = comma + 1;
    }
    return 0;
}

static int on_sweep(struct parse_ctx *x, const char *name, const char *value) {
    struct recipe *r = x->r;
    if (!strcasecmp(name, "title")) return put(x, r->title, sizeof r->title, name, value);
    if (!strcasecmp(name, "config")) {
        r->config_line = x->line;
        return put(x, r->config, sizeof r->config, name, value);
    }
    if (!strcasecmp(name, "size")) {
        r->size_line = x->line;
        return put(x, r->size, sizeof r->size, name, value);
    }
    if (!strcasecmp(name, "workload")) {
        r->workload_line = x->line;
        return put(x, r->workload, sizeof r->workload, name, value);
    }
    return ws_fail(x->e, "%s:%ld: [sweep]: unknown key '%s' (title, config, size, workload)",
                   r->path, x->line, name);
}

static int on_set(struct parse_ctx *x, const char *name, const char *value) {
    struct recipe *r = x->r;
    if (!strchr(name, '.'))
        return ws_fail(x->e, "%s:%ld: [set]: key '%s' needs a section (section.key)", r->path,
                       x->line, name);
    if (!strcasecmp(name, "workload.name") || !strcasecmp(name, "workload.size"))
        return ws_fail(x->e, "%s:%ld: [set]: give %s as [sweep] %s", r->path, x->line, name,
                       name + 9);
    for (int i = 0; i < r->nsets; i++)
        if (!strcasecmp(r->sets[i].key, name))
            return ws_fail(x->e, "%s:%ld: [set]: '%s' already set on line %ld", r->path, x->line,
                           name, r->sets[i].line);
    if (r->nsets == RCP_MAX_SETS)
        return ws_fail(x->e, "%s:%ld: [set]: more than %d settings", r->path, x->line,
                       RCP_MAX_SETS);
    struct rcp_set *s = &r->sets[r->nsets++];
    s->line = x->line;
    if (put(x, s->key, sizeof s->key, name, name) != 0) return -1;
    return put(x, s->value, sizeof s->value, name, value);
}

static int on_axes(struct parse_ctx *x, const char *name, const char *value) {
    struct recipe *r = x->r;
    if (!strcasecmp(name, "workload.name") || !strcasecmp(name, "workload.size"))
        return ws_fail(x->e, "%s:%ld: [axes]: write '%s' as '%s'", r->path, x->line, name,
                       name + 9);
    bool special =
        !strcasecmp(name, "workload") || !strcasecmp(name, "config") || !strcasecmp(name, "size");
    if (!special && !strchr(name, '.'))
        return ws_fail(x->e,
                       "%s:%ld: [axes]: key '%s' is neither workload, config, size nor a "
                       "section.key",
                       r->path, x->line, name);
    int a = recipe_axis(r, name);
    if (a < 0) {
        if (r->naxes == RCP_MAX_AXES)
            return ws_fail(x->e, "%s:%ld: [axes]: more than %d axes", r->path, x->line,
                           RCP_MAX_AXES);
        a = r->naxes++;
        if (put(x, r->axes[a].key, sizeof r->axes[a].key, name, name) != 0) return -1;
        r->axes[a].line = x->line;
    }
    return add_list_values(x, &r->axes[a], value, "axis");
}

static int on_baseline(struct parse_ctx *x, const char *name, const char *value) {
    struct recipe *r = x->r;
    if (r->base_line)
        return ws_fail(x->e, "%s:%ld: [baseline]: only one axis = value (line %ld has one)",
                       r->path, x->line, r->base_line);
    r->base_line = x->line;
    if (put(x, r->base_key, sizeof r->base_key, name, name) != 0) return -1;
    return put(x, r->base_val, sizeof r->base_val, name, value);
}

static int on_groups(struct parse_ctx *x, const char *name, const char *value) {
    struct recipe *r = x->r;
    if (strcasecmp(name, "by") != 0) {
        /* a named group: NAME = workloads (repeating NAME on a later line appends) */
        int g = 0;
        while (g < r->ngroups && strcasecmp(r->groups[g].key, name) != 0) g++;
        if (g == r->ngroups) {
            if (r->ngroups == RCP_MAX_GROUPS)
                return ws_fail(x->e, "%s:%ld: [groups]: more than %d named groups", r->path,
                               x->line, RCP_MAX_GROUPS);
            if (strlen(name) >= sizeof r->groups[g].key)
                return ws_fail(x->e,
                               "%s:%ld: [groups]: group name '%.40s...' longer than %zu "
                               "characters",
                               r->path, x->line, name, sizeof r->groups[g].key - 1);
            r->ngroups++;
            snprintf(r->groups[g].key, sizeof r->groups[g].key, "%s", name);
            r->groups[g].line = x->line;
        }
        int before = r->groups[g].n;
        if (add_list_values(x, &r->groups[g], value, "group") != 0) return -1;
        for (int i = before; i < r->groups[g].n; i++) {
            const char *w = r->groups[g].values[i];
            if (!workload_find(w)) {
                const char *near = workload_suggest(w);
                return ws_fail(x->e, "%s:%ld: [groups]: group '%s': unknown workload '%s'%s%s%s",
                               r->path, x->line, name, w, near ? " (did you mean '" : "",
                               near ? near : "", near ? "'?)" : "");
            }
            for (int o = 0; o < r->ngroups; o++)
                for (int k = 0; o != g && k < r->groups[o].n; k++)
                    if (!strcasecmp(r->groups[o].values[k], w))
                        return ws_fail(x->e,
                                       "%s:%ld: [groups]: workload '%s' is in group '%s' and '%s'",
                                       r->path, x->line, w, r->groups[o].key, name);
        }
        r->group_by = GROUP_NAMED;
        return 0;
    }
    if (r->ngroups)
        return ws_fail(x->e, "%s:%ld: [groups]: 'by' and named groups exclude each other", r->path,
                       x->line);
    if (!strcasecmp(value, "class"))
        r->group_by = GROUP_CLASS;
    else if (!strcasecmp(value, "load_class"))
        r->group_by = GROUP_LOAD_CLASS;
    else if (!strcasecmp(value, "none"))
        r->group_by = GROUP_NONE;
    else
        return ws_fail(x->e, "%s:%ld: [groups]: by = '%s' is not one of: class, load_class, none",
                       r->path, x->line, value);
    return 0;
}

static int on_slurm(struct parse_ctx *x, const char *name, const char *value) {
    struct slurm_opts *o = &x->r->slurm;
    if (!strcasecmp(name, "partition"))
        return put(x, o->partition, sizeof o->partition, name, value);
    if (!strcasecmp(name, "time")) return put(x, o->time, sizeof o->time, name, value);
    if (!strcasecmp(name, "mem")) return put(x, o->mem, sizeof o->mem, name, value);
    if (!strcasecmp(name, "throttle")) {
        char *end;
        long v = strtol(value, &end, 10);
        if (*end || v < 0 || v > 100000)
            return ws_fail(x->e, "%s:%ld: [slurm]: throttle = '%s' is not a count", x->r->path,
                           x->line, value);
        o->throttle = (int)v;
        return 0;
    }
    return ws_fail(x->e, "%s:%ld: [slurm]: unknown key '%s' (partition, time, mem, throttle)",
                   x->r->path, x->line, name);
}

static int check_name(struct parse_ctx *x, const char *what, const char *n) {
    if (!n[0]) return ws_fail(x->e, "%s:%ld: [%s] needs a name", x->r->path, x->line, what);
    if (strlen(n) >= RCP_NAME)
        return ws_fail(x->e, "%s:%ld: [%s %s]: name too long", x->r->path, x->line, what, n);
    for (const char *p = n; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
            return ws_fail(x->e, "%s:%ld: [%s %s]: a name holds letters, digits, '_' and '-'",
                           x->r->path, x->line, what, n);
    return 0;
}

static int on_metric(struct parse_ctx *x, const char *mname, const char *name, const char *value) {
    struct recipe *r = x->r;
    if (check_name(x, "metric", mname) != 0) return -1;
    struct rcp_metric *m = NULL;
    for (int i = 0; i < r->nmetrics && !m; i++)
        if (!strcmp(r->metrics[i].name, mname)) m = &r->metrics[i];
    if (!m) {
        if (r->nmetrics == RCP_MAX_METRICS)
            return ws_fail(x->e, "%s:%ld: more than %d metrics", r->path, x->line, RCP_MAX_METRICS);
        m = &r->metrics[r->nmetrics++];
        strcpy(m->name, mname);
        m->line = x->line;
    }
    if (!strcasecmp(name, "path")) return put(x, m->path, sizeof m->path, name, value);
    if (!strcasecmp(name, "label")) return put(x, m->label, sizeof m->label, name, value);
    if (!strcasecmp(name, "unit")) return put(x, m->unit, sizeof m->unit, name, value);
    return ws_fail(x->e, "%s:%ld: [metric %s]: unknown key '%s' (path, label, unit)", r->path,
                   x->line, mname, name);
}

static const char *const kind_names[] = {"bars", "box", "line", "stack", NULL};

static int on_figure(struct parse_ctx *x, const char *fname, const char *name, const char *value) {
    struct recipe *r = x->r;
    if (check_name(x, "figure", fname) != 0) return -1;
    struct rcp_figure *f = NULL;
    for (int i = 0; i < r->nfigs && !f; i++)
        if (!strcmp(r->figs[i].name, fname)) f = &r->figs[i];
    if (!f) {
        if (r->nfigs == RCP_MAX_FIGS)
            return ws_fail(x->e, "%s:%ld: more than %d figures", r->path, x->line, RCP_MAX_FIGS);
        f = &r->figs[r->nfigs++];
        strcpy(f->name, fname);
        f->line = x->line;
        f->kind = -1;
        f->x = f->series = -1;
    }
    if (!strcasecmp(name, "kind")) {
        for (int k = 0; kind_names[k]; k++)
            if (!strcasecmp(value, kind_names[k])) return f->kind = k, 0;
        return ws_fail(x->e,
                       "%s:%ld: [figure %s]: kind = '%s' is not one of: bars, box, line, "
                       "stack",
                       r->path, x->line, fname, value);
    }
    if (!strcasecmp(name, "metric") || !strcasecmp(name, "metrics")) {
        f->metric_line = x->line;
        return put(x, f->metric_text, sizeof f->metric_text, name, value);
    }
    if (!strcasecmp(name, "x")) {
        f->x_line = x->line;
        return put(x, f->x_text, sizeof f->x_text, name, value);
    }
    if (!strcasecmp(name, "series")) {
        f->series_line = x->line;
        return put(x, f->series_text, sizeof f->series_text, name, value);
    }
    if (!strcasecmp(name, "normalise") || !strcasecmp(name, "normalize")) {
        f->normalise_set = true;
        return parse_bool(x, name, value, &f->normalise);
    }
    if (!strcasecmp(name, "title")) return put(x, f->title, sizeof f->title, name, value);
    if (!strcasecmp(name, "ylabel")) return put(x, f->ylabel, sizeof f->ylabel, name, value);
    return ws_fail(x->e,
                   "%s:%ld: [figure %s]: unknown key '%s' (kind, metric, x, series, normalise, "
                   "title, ylabel)",
                   r->path, x->line, fname, name);
}

static int handler(void *user, const char *section, const char *name, const char *value) {
    struct parse_ctx *x = user;
    if (x->failed) return 0;
    char sec[RCP_KEY + 16];
    snprintf(sec, sizeof sec, "%s", section);
    char *s = trim(sec);
    int rc;
    if (!s[0])
        rc = ws_fail(x->e, "%s:%ld: key '%s' is outside any [section]", x->r->path, x->line, name);
    else if (!strcasecmp(s, "sweep"))
        rc = on_sweep(x, name, value);
    else if (!strcasecmp(s, "set"))
        rc = on_set(x, name, value);
    else if (!strcasecmp(s, "axes"))
        rc = on_axes(x, name, value);
    else if (!strcasecmp(s, "baseline"))
        rc = on_baseline(x, name, value);
    else if (!strcasecmp(s, "groups"))
        rc = on_groups(x, name, value);
    else if (!strcasecmp(s, "slurm"))
        rc = on_slurm(x, name, value);
    else if (!strncasecmp(s, "metric ", 7))
        rc = on_metric(x, trim(s + 7), name, value);
    else if (!strncasecmp(s, "figure ", 7))
        rc = on_figure(x, trim(s + 7), name, value);
    else
        rc = ws_fail(x->e,
                     "%s:%ld: unknown section [%s] (sweep, set, axes, baseline, groups, "
                     "metric NAME, figure NAME, slurm)",
                     x->r->path, x->line, s);
    if (rc != 0) x->failed = true, x->fail_at = x->line;
    return rc == 0;
}

int recipe_axis(const struct recipe *r, const char *key) {
    for (int i = 0; i < r->naxes; i++)
        if (!strcasecmp(r->axes[i].key, key)) return i;
    return -1;
}

static int find_metric(const struct recipe *r, const char *name) {
    for (int i = 0; i < r->nmetrics; i++)
        if (!strcmp(r->metrics[i].name, name)) return i;
    return -1;
}

static void list_workloads(char *buf, size_t n) {
    buf[0] = '\0';
    for (unsigned i = 0; i < workload_ntable; i++) {
        strncat(buf, i ? ", " : "", n - strlen(buf) - 1);
        strncat(buf, workload_table[i].name, n - strlen(buf) - 1);
    }
}

static int check_workload(const struct recipe *r, const char *w, long line, struct ws_err *e) {
    if (workload_find(w)) return 0;
    const char *near = workload_suggest(w);
    if (near)
        return ws_fail(e, "%s:%ld: unknown workload '%s' (did you mean '%s'?)", r->path, line, w,
                       near);
    char list[1024];
    list_workloads(list, sizeof list);
    return ws_fail(e, "%s:%ld: unknown workload '%s' (known: %s)", r->path, line, w, list);
}

static int check_policy(const struct recipe *r, const char *p, long line, struct ws_err *e) {
    if (mc_policy_find(p)) return 0;
    const char *near = mc_policy_suggest(p);
    if (near)
        return ws_fail(e, "%s:%ld: unknown policy '%s' (did you mean '%s'?)", r->path, line, p,
                       near);
    char list[1024] = "";
    for (unsigned i = 0; i < mc_npolicies; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, mc_policies[i]->name, sizeof list - strlen(list) - 1);
    }
    return ws_fail(e, "%s:%ld: unknown policy '%s' (known: %s)", r->path, line, p, list);
}

static int check_size(const struct recipe *r, const char *s, long line, struct ws_err *e) {
    if (!strcasecmp(s, "test") || !strcasecmp(s, "paper")) return 0;
    return ws_fail(e, "%s:%ld: size = '%s' is not test or paper", r->path, line, s);
}

/* An axis named by a figure's x or series: its index, or an error on the figure's line. */
static int fig_axis(const struct recipe *r, const struct rcp_figure *f, const char *text, long line,
                    const char *what, int *out, struct ws_err *e) {
    if (!text[0]) return 0;
    int a = recipe_axis(r, text);
    if (a < 0)
        return ws_fail(e, "%s:%ld: [figure %s]: %s = '%s' is not an axis of this recipe", r->path,
                       line, f->name, what, text);
    *out = a;
    return 0;
}

static int check_figure(struct recipe *r, struct rcp_figure *f, struct ws_err *e) {
    if ((int)f->kind < 0)
        return ws_fail(e, "%s:%ld: [figure %s]: no kind (bars, box, line, stack)", r->path, f->line,
                       f->name);
    if (!f->metric_text[0])
        return ws_fail(e, "%s:%ld: [figure %s]: no metric", r->path, f->line, f->name);
    char buf[RCP_VAL];
    strcpy(buf, f->metric_text);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        t = trim(t);
        int m = find_metric(r, t);
        if (m < 0)
            return ws_fail(e,
                           "%s:%ld: [figure %s]: metric '%s' is not defined by a [metric %s] "
                           "section",
                           r->path, f->metric_line, f->name, t, t);
        if (f->nmetrics == RCP_MAX_STACK)
            return ws_fail(e, "%s:%ld: [figure %s]: more than %d metrics", r->path, f->metric_line,
                           f->name, RCP_MAX_STACK);
        f->metric[f->nmetrics++] = m;
    }
    if (f->nmetrics > 1 && f->kind != FIG_STACK)
        return ws_fail(e, "%s:%ld: [figure %s]: only a stack figure takes several metrics", r->path,
                       f->metric_line, f->name);
    if (fig_axis(r, f, f->x_text, f->x_line, "x", &f->x, e) != 0 ||
        fig_axis(r, f, f->series_text, f->series_line, "series", &f->series, e) != 0)
        return -1;
    /* Defaults: workloads along x; the series is the baseline's axis, else the first other one. */
    if (f->x < 0 && f->kind != FIG_LINE) f->x = r->wl_axis;
    if (f->x < 0 && f->kind == FIG_LINE)
        return ws_fail(e, "%s:%ld: [figure %s]: a line figure needs x = <a swept key>", r->path,
                       f->line, f->name);
    if (f->series < 0 && !f->series_text[0]) {
        if (r->base_axis >= 0 && r->base_axis != f->x) f->series = r->base_axis;
        for (int a = 0; a < r->naxes && f->series < 0; a++)
            if (a != f->x && a != r->wl_axis) f->series = a;
    }
    if (f->x >= 0 && f->x == f->series)
        return ws_fail(e, "%s:%ld: [figure %s]: x and series are the same axis", r->path, f->line,
                       f->name);
    if (!f->normalise_set) f->normalise = r->base_axis >= 0 && f->kind == FIG_BARS;
    if (f->normalise && r->base_axis < 0)
        return ws_fail(e, "%s:%ld: [figure %s]: normalise needs a [baseline]", r->path, f->line,
                       f->name);
    return 0;
}

static int check(struct recipe *r, struct ws_err *e) {
    if (!r->config[0]) strcpy(r->config, "rtx2060s");
    if (!r->size[0]) strcpy(r->size, "test");
    if (check_size(r, r->size, r->size_line, e) != 0) return -1;
    r->wl_axis = recipe_axis(r, "workload");
    if (r->wl_axis >= 0 && r->workload[0])
        return ws_fail(e, "%s:%ld: workload is both fixed ([sweep]) and an axis (line %ld)",
                       r->path, r->workload_line, r->axes[r->wl_axis].line);
    if (r->wl_axis < 0 && !r->workload[0])
        return ws_fail(e, "%s: no workload: give [axes] workload = ... or [sweep] workload = ...",
                       r->path);
    if (r->workload[0] && check_workload(r, r->workload, r->workload_line, e) != 0) return -1;
    for (int a = 0; a < r->naxes; a++) {
        const struct rcp_axis *ax = &r->axes[a];
        for (int i = 0; i < r->nsets; i++)
            if (!strcasecmp(r->sets[i].key, ax->key))
                return ws_fail(e, "%s:%ld: '%s' is both set (line %ld) and an axis", r->path,
                               ax->line, ax->key, r->sets[i].line);
        for (int v = 0; v < ax->n; v++) {
            int rc = 0;
            if (a == r->wl_axis)
                rc = check_workload(r, ax->values[v], ax->line, e);
            else if (!strcasecmp(ax->key, "mc.policy"))
                rc = check_policy(r, ax->values[v], ax->line, e);
            else if (!strcasecmp(ax->key, "size"))
                rc = check_size(r, ax->values[v], ax->line, e);
            if (rc != 0) return -1;
        }
    }
    for (int i = 0; i < r->nsets; i++)
        if (!strcasecmp(r->sets[i].key, "mc.policy") &&
            check_policy(r, r->sets[i].value, r->sets[i].line, e) != 0)
            return -1;
    r->base_axis = r->base_value = -1;
    if (r->base_line) {
        int a = recipe_axis(r, r->base_key);
        if (a < 0)
            return ws_fail(e, "%s:%ld: [baseline]: '%s' is not an axis of this recipe", r->path,
                           r->base_line, r->base_key);
        for (int v = 0; v < r->axes[a].n; v++)
            if (!strcasecmp(r->axes[a].values[v], r->base_val)) r->base_value = v;
        if (r->base_value < 0)
            return ws_fail(e, "%s:%ld: [baseline]: '%s' is not a value of axis '%s'", r->path,
                           r->base_line, r->base_val, r->axes[a].key);
        r->base_axis = a;
    }
    if (r->nmetrics == 0) {
        /* Without metrics a report still has the first figure anyone asks for. */
        struct rcp_metric *m = &r->metrics[r->nmetrics++];
        strcpy(m->name, "ipc");
        strcpy(m->path, "stats.gpu.ipc");
        strcpy(m->label, "IPC");
        strcpy(m->unit, "thread instructions per cycle");
    }
    for (int i = 0; i < r->nmetrics; i++) {
        struct rcp_metric *m = &r->metrics[i];
        if (!m->path[0])
            return ws_fail(e, "%s:%ld: [metric %s]: no path (e.g. path = stats.gpu.ipc)", r->path,
                           m->line, m->name);
        /* report.csv names its columns job, the axes, group, the metrics and NAME_norm */
        if (!strcasecmp(m->name, "job") || !strcasecmp(m->name, "group"))
            return ws_fail(e,
                           "%s:%ld: [metric %s]: '%s' is a column of report.csv already; name the "
                           "metric otherwise",
                           r->path, m->line, m->name, m->name);
        _Static_assert(sizeof m->label >= sizeof m->name, "a metric's name fits its label");
        if (!m->label[0]) memcpy(m->label, m->name, strlen(m->name) + 1);
    }
    for (int i = 0; i < r->nfigs; i++)
        if (check_figure(r, &r->figs[i], e) != 0) return -1;
    return 0;
}

int recipe_load(struct recipe *r, const char *path, const char *text, struct ws_err *e) {
    memset(r, 0, sizeof *r);
    if (strlen(path) >= sizeof r->path) return ws_fail(e, "%s: path too long", path);
    strcpy(r->path, path);
    r->wl_axis = r->base_axis = r->base_value = -1;
    struct parse_ctx x = {.r = r, .e = e};
    int rc = cfg_ini_parse(path, text, &x.line, handler, &x);
    if (cfg_ini_finish(path, rc, x.line, x.failed ? x.fail_at : 0, e) != 0) return -1;
    return check(r, e);
}

static void append_clean(char *dst, size_t n, const char *v) {
    size_t len = strlen(dst);
    for (; *v && len + 1 < n; v++) {
        char ch = *v;
        /* file names: keep letters, digits, '.', '-' and '+'; anything else becomes '-' */
        dst[len++] = isalnum((unsigned char)ch) || ch == '.' || ch == '-' || ch == '+' ? ch : '-';
    }
    dst[len] = '\0';
}

static int by_name_then_id(const void *a, const void *b) {
    const struct rcp_job *x = *(const struct rcp_job *const *)a,
                         *y = *(const struct rcp_job *const *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* Two jobs may not share a name (it names their result files). Sorted by name, so that a large
 * matrix is checked in n log n, not by comparing every pair; the pair reported is the one a scan
 * in id order meets first: the lowest id that repeats an earlier name, and that earlier job. */
static int dup_names(const struct recipe *r, struct rcp_job *js, long total, struct ws_err *e) {
    const struct rcp_job **o = malloc((size_t)total * sizeof *o);
    if (!o) return ws_fail(e, "out of memory");
    for (long i = 0; i < total; i++) o[i] = &js[i];
    qsort(o, (size_t)total, sizeof *o, by_name_then_id);
    const struct rcp_job *first = NULL, *second = NULL;
    for (long i = 1; i < total; i++)
        if (!strcmp(o[i - 1]->name, o[i]->name) && (i < 2 || strcmp(o[i - 2]->name, o[i]->name)) &&
            (!second || o[i]->id < second->id))
            first = o[i - 1], second = o[i]; /* a name's two lowest ids */
    free(o);
    if (!second) return 0;
    return ws_fail(e, "%s: jobs %d and %d would both be named '%s'", r->path, first->id, second->id,
                   first->name);
}

int recipe_expand(const struct recipe *r, struct rcp_job **jobs, int *n, struct ws_err *e) {
    long total = 1;
    for (int a = 0; a < r->naxes; a++) total *= r->axes[a].n;
    if (total > 100000) return ws_fail(e, "%s: %ld jobs; at most 100000", r->path, total);
    struct rcp_job *js = calloc((size_t)total, sizeof *js);
    if (!js) return ws_fail(e, "out of memory");
    for (long id = 0; id < total; id++) {
        struct rcp_job *j = &js[id];
        j->id = (int)id;
        long rest = id;
        for (int a = r->naxes - 1; a >= 0; a--) {
            j->vi[a] = (int)(rest % r->axes[a].n);
            rest /= r->axes[a].n;
        }
        for (int a = 0; a < r->naxes; a++) {
            if (a) strncat(j->name, "_", sizeof j->name - strlen(j->name) - 1);
            append_clean(j->name, sizeof j->name, r->axes[a].values[j->vi[a]]);
        }
        if (!j->name[0]) append_clean(j->name, sizeof j->name, r->workload);
    }
    if (dup_names(r, js, total, e)) {
        free(js);
        return -1;
    }
    *jobs = js;
    *n = (int)total;
    return 0;
}

const char *recipe_job_value(const struct recipe *r, const struct rcp_job *j, int a) {
    return r->axes[a].values[j->vi[a]];
}

const char *recipe_job_workload(const struct recipe *r, const struct rcp_job *j) {
    return r->wl_axis >= 0 ? recipe_job_value(r, j, r->wl_axis) : r->workload;
}

void recipe_runspec(const struct recipe *r, const struct rcp_job *j, struct rcp_runspec *s) {
    memset(s, 0, sizeof *s);
    s->config = (struct rcp_setting){NULL, r->config, r->config_line};
    s->size = (struct rcp_setting){NULL, r->size, r->size_line};
    s->workload = (struct rcp_setting){NULL, r->workload, r->workload_line};
    for (int i = 0; i < r->nsets; i++) {
        if (j->sets_skip & (UINT64_C(1) << i)) continue;
        s->set_index[s->nsets] = i;
        s->sets[s->nsets++] =
            (struct rcp_setting){r->sets[i].key, r->sets[i].value, r->sets[i].line};
    }
    for (int a = 0; a < r->naxes; a++) {
        struct rcp_setting v = {r->axes[a].key, recipe_job_value(r, j, a), r->axes[a].line};
        if (!strcasecmp(v.key, "workload")) {
            v.key = NULL;
            s->workload = v;
        } else if (!strcasecmp(v.key, "config")) {
            v.key = NULL;
            s->config = v;
        } else if (!strcasecmp(v.key, "size")) {
            v.key = NULL;
            s->size = v;
        } else {
            s->set_index[s->nsets] = -1 - a;
            s->sets[s->nsets++] = v;
        }
    }
}
