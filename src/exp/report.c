/* Sweep reports (see report.h). */
#include "exp/report.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fileio.h"
#include "workload/workload.h"

double rpt_geomean(const double *v, int n) {
    double s = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(v[i])) continue;
        if (v[i] <= 0) return NAN;
        s += log(v[i]);
        k++;
    }
    return k ? exp(s / k) : NAN;
}

double rpt_amean(const double *v, int n) {
    double s = 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i])) s += v[i], k++;
    return k ? s / k : NAN;
}

/* Walks "a.b.c" through nested objects. */
/* A dotted path into a result: the statistics groups are keys with dots of their own
 * ("dram.energy", "mc.ch0", "l2.part"), so at each level the longest key that is a prefix of the
 * rest of the path is tried first, then shorter ones. */
static json_t *json_path(json_t *j, const char *path) {
    if (!j) return NULL;
    size_t n = strlen(path);
    for (size_t cut = n;;) {
        char key[RCP_KEY];
        if (cut < sizeof key) {
            memcpy(key, path, cut);
            key[cut] = '\0';
            json_t *k = json_object_get(j, key);
            if (k) {
                if (cut == n) return k;
                json_t *v = json_path(k, path + cut + 1);
                if (v) return v;
            }
        }
        while (cut > 0 && path[--cut] != '.') {
        }
        if (cut == 0) return NULL;
    }
}

static double num(json_t *j) {
    return json_is_number(j) ? json_number_value(j) : NAN;
}

static int stride(const struct recipe *r, int a) {
    int s = 1;
    for (int b = a + 1; b < r->naxes; b++) s *= r->axes[b].n;
    return s;
}

/* The baseline partner of a job: the same values on every axis but the baseline's. */
static int partner(const struct rpt_table *t, int j) {
    const struct recipe *r = t->r;
    int b = r->base_axis;
    return j - (t->jobs[j].vi[b] - r->base_value) * stride(r, b);
}

int rpt_load(struct rpt_table *t, const struct recipe *r, const struct rcp_job *jobs, int njobs,
             const char *dir, struct ws_err *e) {
    memset(t, 0, sizeof *t);
    t->r = r;
    t->jobs = jobs;
    t->njobs = njobs;
    t->nm = r->nmetrics;
    size_t cells = (size_t)njobs * (size_t)t->nm;
    t->have = calloc((size_t)njobs, sizeof *t->have);
    t->val = calloc(cells ? cells : 1, sizeof *t->val);
    t->norm = calloc(cells ? cells : 1, sizeof *t->norm);
    t->box = calloc(cells ? cells : 1, sizeof *t->box);
    t->group = calloc((size_t)njobs, sizeof *t->group);
    if (!t->have || !t->val || !t->norm || !t->box || !t->group) return ws_fail(e, "out of memory");
    char(*lclass)[16] = calloc((size_t)njobs, sizeof *lclass);
    t->absent = calloc((size_t)(t->nm ? t->nm : 1), sizeof *t->absent);
    int *first_absent = calloc((size_t)(t->nm ? t->nm : 1), sizeof *first_absent); /* job */
    int nhave = 0;
    if (!lclass || !t->absent || !first_absent) {
        free(lclass);
        free(first_absent);
        return ws_fail(e, "out of memory");
    }
    for (int j = 0; j < njobs; j++) {
        for (int m = 0; m < t->nm; m++) t->val[j * t->nm + m] = t->norm[j * t->nm + m] = NAN;
        char path[4096];
        snprintf(path, sizeof path, "%s/results/%s.json", dir, jobs[j].name);
        struct stat st;
        if (stat(path, &st) != 0) continue; /* not run yet, or failed: the report says how many */
        /* Results are renamed into place whole, so one that exists and does not parse was damaged
         * afterwards: say so instead of leaving the job out without a word. */
        json_error_t je;
        json_t *root = json_load_file(path, 0, &je);
        if (!root || !json_is_object(json_object_get(root, "stats"))) {
            char at[64] = "", why[200] = "no \"stats\" object";
            if (!root) {
                snprintf(at, sizeof at, ":%d:%d", je.line, je.column);
                snprintf(why, sizeof why, "%s", je.text);
            }
            ws_fail(e,
                    "%s%s: not a warpsim result (%s); run the job again (warpsim sweep --resume) "
                    "or delete the file",
                    path, at, why);
            json_decref(root);
            free(lclass);
            free(first_absent);
            return -1;
        }
        t->have[j] = true;
        snprintf(lclass[j], sizeof lclass[j], "%s",
                 json_string_value(json_object_get(root, "load_class"))
                     ? json_string_value(json_object_get(root, "load_class"))
                     : "-");
        for (int m = 0; m < t->nm; m++) {
            const struct rcp_metric *mt = &r->metrics[m];
            json_t *v = json_path(root, mt->path);
            if (!v) {
                /* a policy's own counters exist only in its jobs: blank there; a path no result
                 * has is a mistake in the recipe (checked below) */
                if (!t->absent[m]++) first_absent[m] = j;
                continue;
            }
            if (json_is_object(v) && json_object_get(v, "p50")) {
                /* a stored histogram: its mean in tables, its quartiles in box plots */
                struct rpt_box *b = &t->box[j * t->nm + m];
                b->min = num(json_object_get(v, "min"));
                b->p25 = num(json_object_get(v, "p25"));
                b->p50 = num(json_object_get(v, "p50"));
                b->p75 = num(json_object_get(v, "p75"));
                b->p99 = num(json_object_get(v, "p99"));
                b->ok = true;
                t->val[j * t->nm + m] = num(json_object_get(v, "mean"));
            } else {
                t->val[j * t->nm + m] = num(v);
            }
        }
        json_decref(root);
        nhave++;
    }
    for (int m = 0; m < t->nm && nhave; m++) {
        if (t->absent[m] < nhave) continue;
        const struct rcp_metric *mt = &r->metrics[m];
        char path[4096];
        snprintf(path, sizeof path, "%s/results/%s.json", dir, jobs[first_absent[m]].name);
        ws_fail(e, "%s:%ld: [metric %s]: path '%s' is not in %s (nor in any other result)", r->path,
                mt->line, mt->name, mt->path, path);
        free(first_absent);
        free(lclass);
        return -1;
    }
    free(first_absent);
    for (int j = 0; j < njobs; j++) {
        const char *g = "all";
        if (r->group_by == GROUP_CLASS) {
            const struct workload_info *wi = workload_find(recipe_job_workload(r, &jobs[j]));
            g = wi ? wi->cls : "-";
        } else if (r->group_by == GROUP_LOAD_CLASS) {
            g = lclass[r->base_axis >= 0 ? partner(t, j) : j];
            if (!g[0]) g = "-";
        } else if (r->group_by == GROUP_NAMED) {
            const char *w = recipe_job_workload(r, &jobs[j]);
            g = "-";
            for (int k = 0; k < r->ngroups; k++)
                for (int i = 0; i < r->groups[k].n; i++)
                    if (!strcasecmp(r->groups[k].values[i], w)) g = r->groups[k].key;
        }
        if (!strcmp(g, "-")) g = "other"; /* the registry's "no class" */
        snprintf(t->group[j], sizeof t->group[j], "%s", g);
        bool seen = false;
        for (int k = 0; k < t->ngroups; k++) seen |= !strcmp(t->groups[k], g);
        if (!seen && t->ngroups < 16)
            snprintf(t->groups[t->ngroups++], sizeof t->groups[0], "%s", g);
        if (r->base_axis >= 0) {
            int p = partner(t, j);
            for (int m = 0; m < t->nm; m++)
                t->norm[j * t->nm + m] = t->val[j * t->nm + m] / t->val[p * t->nm + m];
        }
    }
    /* LOA, MOA, HOA read in that order; anything else after, alphabetically */
    static const char *const order[] = {"LOA", "MOA", "HOA"};
    for (int a = 0; a < t->ngroups; a++)
        for (int b = a + 1; b < t->ngroups; b++) {
            int ra = 3, rb = 3;
            for (int k = 0; k < 3; k++) {
                if (!strcmp(t->groups[a], order[k])) ra = k;
                if (!strcmp(t->groups[b], order[k])) rb = k;
            }
            if (rb < ra || (ra == rb && strcmp(t->groups[b], t->groups[a]) < 0)) {
                char tmp[RCP_KEY];
                memcpy(tmp, t->groups[a], sizeof tmp);
                memcpy(t->groups[a], t->groups[b], sizeof tmp);
                memcpy(t->groups[b], tmp, sizeof tmp);
            }
        }
    free(lclass);
    return 0;
}

void rpt_free(struct rpt_table *t) {
    free(t->have);
    free(t->val);
    free(t->norm);
    free(t->box);
    free(t->group);
    free(t->absent);
}

static void put_num(FILE *f, double v) {
    if (isfinite(v))
        fprintf(f, ",%.10g", v);
    else
        fputs(",", f);
}

void rpt_write_csv(const struct rpt_table *t, FILE *f) {
    const struct recipe *r = t->r;
    bool base = r->base_axis >= 0;
    fputs("job", f);
    for (int a = 0; a < r->naxes; a++) fprintf(f, ",%s", r->axes[a].key);
    fputs(",group", f);
    for (int m = 0; m < t->nm; m++) fprintf(f, ",%s", r->metrics[m].name);
    if (base)
        for (int m = 0; m < t->nm; m++) fprintf(f, ",%s_norm", r->metrics[m].name);
    fputc('\n', f);
    for (int j = 0; j < t->njobs; j++) {
        fputs(t->jobs[j].name, f);
        for (int a = 0; a < r->naxes; a++) fprintf(f, ",%s", recipe_job_value(r, &t->jobs[j], a));
        fprintf(f, ",%s", t->group[j]);
        for (int m = 0; m < t->nm; m++) put_num(f, t->val[j * t->nm + m]);
        if (base)
            for (int m = 0; m < t->nm; m++) put_num(f, t->norm[j * t->nm + m]);
        fputc('\n', f);
    }
}

/* Whether job j matches combination `combo` of the non-workload axes (an id with the workload
 * axis at 0) and group g (NULL: all). */
static bool in_combo(const struct rpt_table *t, int j, int combo, const char *g) {
    const struct recipe *r = t->r;
    for (int a = 0; a < r->naxes; a++)
        if (a != r->wl_axis && t->jobs[j].vi[a] != t->jobs[combo].vi[a]) return false;
    return !g || !strcmp(t->group[j], g);
}

void rpt_write_means(const struct rpt_table *t, FILE *f) {
    const struct recipe *r = t->r;
    bool base = r->base_axis >= 0;
    for (int a = 0; a < r->naxes; a++)
        if (a != r->wl_axis) fprintf(f, "%s,", r->axes[a].key);
    fputs("group,n", f);
    for (int m = 0; m < t->nm; m++)
        fprintf(f, ",%s_amean,%s_gmean", r->metrics[m].name, r->metrics[m].name);
    if (base)
        for (int m = 0; m < t->nm; m++)
            fprintf(f, ",%s_norm_amean,%s_norm_gmean", r->metrics[m].name, r->metrics[m].name);
    fputc('\n', f);
    double *v = malloc(((size_t)t->njobs + 1) * sizeof *v);
    if (!v) return;
    for (int c = 0; c < t->njobs; c++) {
        if (r->wl_axis >= 0 && t->jobs[c].vi[r->wl_axis] != 0) continue;
        for (int g = 0; g <= t->ngroups; g++) {
            const char *gn = g < t->ngroups ? t->groups[g] : NULL;
            if (gn && t->ngroups == 1 && !strcmp(gn, "all")) continue;
            int n = 0;
            for (int j = 0; j < t->njobs; j++) n += in_combo(t, j, c, gn) && t->have[j];
            for (int a = 0; a < r->naxes; a++)
                if (a != r->wl_axis) fprintf(f, "%s,", recipe_job_value(r, &t->jobs[c], a));
            fprintf(f, "%s,%d", gn ? gn : "all", n);
            for (int pass = 0; pass < (base ? 2 : 1); pass++)
                for (int m = 0; m < t->nm; m++) {
                    int k = 0;
                    for (int j = 0; j < t->njobs; j++)
                        if (in_combo(t, j, c, gn))
                            v[k++] = (pass ? t->norm : t->val)[j * t->nm + m];
                    put_num(f, rpt_amean(v, k));
                    put_num(f, rpt_geomean(v, k));
                }
            fputc('\n', f);
        }
    }
    free(v);
}

/* ---- figures ---- */

/* Jobs matching x value xi (-1: any) and series value si (-1: any) and group g (NULL: any). */
static int collect(const struct rpt_table *t, const struct rcp_figure *fg, int m, int xi, int si,
                   const char *g, bool norm, double *v) {
    int k = 0;
    for (int j = 0; j < t->njobs; j++) {
        if (xi >= 0 && fg->x >= 0 && t->jobs[j].vi[fg->x] != xi) continue;
        if (si >= 0 && fg->series >= 0 && t->jobs[j].vi[fg->series] != si) continue;
        if (g && strcmp(t->group[j], g) != 0) continue;
        v[k++] = (norm ? t->norm : t->val)[j * t->nm + m];
    }
    return k;
}

static double agg(const struct rpt_table *t, const struct rcp_figure *fg, int m, int xi, int si,
                  const char *g, double *v) {
    int k = collect(t, fg, m, xi, si, g, fg->normalise, v);
    return fg->normalise ? rpt_geomean(v, k) : rpt_amean(v, k);
}

static const char *const colors[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a",
                                     "#66a61e", "#e6ab02", "#a6761d", "#666666"};

static void gp_escape(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        fputc(*s, f);
    }
}

static void ylabel(const struct rpt_table *t, const struct rcp_figure *fg, char *buf, size_t n) {
    const struct rcp_metric *m = &t->r->metrics[fg->metric[0]];
    if (fg->ylabel[0])
        snprintf(buf, n, "%s", fg->ylabel);
    else if (fg->normalise) {
        const char *bv = t->r->axes[t->r->base_axis].values[t->r->base_value];
        char *end;
        strtod(bv, &end);
        /* a bare number says nothing without its key */
        snprintf(buf, n, "%s normalised to %s%s%s", m->label,
                 *end ? "" : t->r->axes[t->r->base_axis].key, *end ? "" : " = ", bv);
    } else if (m->unit[0])
        snprintf(buf, n, "%s (%s)", m->label, m->unit);
    else
        snprintf(buf, n, "%s", m->label);
}

static int nvalues(const struct rpt_table *t, int axis) {
    return axis >= 0 ? t->r->axes[axis].n : 1;
}
static const char *value_name(const struct rpt_table *t, int axis, int i) {
    return axis >= 0 ? t->r->axes[axis].values[i] : "";
}

/* Common header of a script: PNG first, the same plot replayed to SVG at the end. */
/* Figures widen with their bar count so that labels never overlap. */
static int fig_width;

static void gp_head(FILE *gp, const struct rcp_figure *fg, const char *yl, const char *xl,
                    int nbars) {
    fig_width = 300 + 24 * nbars;
    if (fig_width < 1100) fig_width = 1100;
    if (fig_width > 4000) fig_width = 4000;
    fprintf(
        gp,
        "set terminal pngcairo noenhanced size %d,560 font \"sans,11\"\nset output \"%s.png\"\n",
        fig_width, fg->name);
    fputs("set title \"", gp);
    gp_escape(gp, fg->title[0] ? fg->title : fg->name);
    fputs("\"\nset ylabel \"", gp);
    gp_escape(gp, yl);
    fputs("\"\nset xlabel \"", gp);
    gp_escape(gp, xl);
    fputs("\"\nset grid ytics\nset key outside right top\nset yrange [0:*]\nset offsets 0, 0, "
          "graph 0.08, 0\n",
          gp);
}

static void gp_tail(FILE *gp, const struct rcp_figure *fg) {
    fprintf(
        gp,
        "set terminal svg noenhanced size %d,560 font \"sans,11\"\nset output \"%s.svg\"\nreplot\n",
        fig_width, fg->name);
}

/* A headline number: three decimals, "x" for ratios, "n/a" when no job had a result. */
static const char *fmt3(char *buf, size_t n, double y, bool ratio) {
    if (!isfinite(y))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%.3f%s", y, ratio ? "x" : "");
    return buf;
}

/* Headline sentences go to md. */
static void fig_bars(const struct rpt_table *t, const struct rcp_figure *fg, FILE *dat, FILE *gp,
                     FILE *md, double *v) {
    const struct recipe *r = t->r;
    int m = fg->metric[0], nx = nvalues(t, fg->x), ns = nvalues(t, fg->series);
    bool wl_x = fg->x == r->wl_axis;
    int ncat = nx + (wl_x ? t->ngroups + (t->ngroups > 1) : 0);
    if (wl_x && t->ngroups == 1) ncat = nx + 1;
    const char *mean = fg->normalise ? "GM" : "AM";
    for (int s = 0; s < ns; s++) {
        fprintf(dat, "# series %s\n", value_name(t, fg->series, s));
        for (int c = 0; c < ncat; c++) {
            double y;
            if (c < nx)
                y = agg(t, fg, m, c, s, NULL, v);
            else if (c - nx < t->ngroups && t->ngroups > 1)
                y = agg(t, fg, m, -1, s, t->groups[c - nx], v);
            else
                y = agg(t, fg, m, -1, s, NULL, v);
            double xpos = c * (ns + 1.0) + s;
            if (isfinite(y)) fprintf(dat, "%g %.10g\n", xpos, y);
        }
        fputs("\n\n", dat);
    }
    char yl[512];
    ylabel(t, fg, yl, sizeof yl);
    gp_head(gp, fg, yl, fg->x >= 0 ? r->axes[fg->x].key : "", ncat * (ns + 1));
    fputs("set style fill solid 0.85 border -1\nset boxwidth 0.9\nset xtics rotate by -30 (", gp);
    for (int c = 0; c < ncat; c++) {
        char lab[RCP_KEY + 8]; /* a value, or the mean's name and a group */
        if (c < nx)
            snprintf(lab, sizeof lab, "%s", value_name(t, fg->x, c));
        else if (c - nx < t->ngroups && t->ngroups > 1)
            snprintf(lab, sizeof lab, "%s-%s", mean, t->groups[c - nx]);
        else
            snprintf(lab, sizeof lab, "%s", mean);
        fprintf(gp, "%s\"%s\" %g", c ? ", " : "", lab, c * (ns + 1.0) + (ns - 1) / 2.0);
    }
    fprintf(gp, ")\nset xrange [-1:%g]\n", ncat * (ns + 1.0) - 1);
    if (fg->normalise)
        fputs("set arrow from graph 0, first 1 to graph 1, first 1 nohead lw 2 dt 2 lc "
              "rgb \"black\" front\n",
              gp);
    fputs("plot ", gp);
    for (int s = 0; s < ns; s++) {
        fprintf(gp, "%s\"%s.dat\" index %d using 1:2 with boxes lc rgb \"%s\" title \"",
                s ? ", " : "", fg->name, s, colors[s % 8]);
        gp_escape(gp,
                  ns > 1 || fg->series >= 0 ? value_name(t, fg->series, s) : r->metrics[m].label);
        fputs("\"", gp);
    }
    if (fg->normalise)
        fprintf(gp, ", NaN with lines lw 2 dt 2 lc rgb \"black\" title \"baseline (%s = 1.0)\"",
                r->axes[r->base_axis].values[r->base_value]);
    fputs("\n", gp);
    /* headline: the all-workload mean per series; when some results are missing, over the x
     * values every series has, so that the series are compared on the same jobs */
    bool common[RCP_MAX_VALUES];
    int ncommon = 0;
    for (int c = 0; c < nx; c++) {
        common[c] = true;
        for (int s = 0; s < ns && fg->x >= 0; s++)
            if (!isfinite(agg(t, fg, m, c, s, NULL, v))) common[c] = false;
        ncommon += common[c];
    }
    bool whole = fg->x < 0 || ncommon == nx;
    fprintf(md, "- **%s**: %s of %s over the %d values of %s", fg->name,
            fg->normalise ? "geometric mean" : "arithmetic mean", r->metrics[m].label,
            whole ? nx : ncommon, fg->x >= 0 ? r->axes[fg->x].key : "jobs");
    if (!whole) fprintf(md, " that every series has a result for (of %d)", nx);
    fputs(":", md);
    for (int s = 0; s < ns; s++) {
        char num[32];
        double y;
        if (whole) {
            y = agg(t, fg, m, -1, s, NULL, v);
        } else {
            double per[RCP_MAX_VALUES];
            int k = 0;
            for (int c = 0; c < nx; c++)
                if (common[c]) per[k++] = agg(t, fg, m, c, s, NULL, v);
            y = fg->normalise ? rpt_geomean(per, k) : rpt_amean(per, k);
        }
        fprintf(md, "%s %s %s", s ? "," : "", value_name(t, fg->series, s),
                fmt3(num, sizeof num, y, fg->normalise));
        if (whole && fg->normalise && wl_x && t->ngroups > 1) {
            fputs(" (", md);
            for (int g = 0; g < t->ngroups; g++)
                fprintf(md, "%s%s %s", g ? ", " : "", t->groups[g],
                        fmt3(num, sizeof num, agg(t, fg, m, -1, s, t->groups[g], v), true));
            fputs(")", md);
        }
    }
    if (fg->normalise)
        fprintf(md, "; the baseline %s is 1.0.", r->axes[r->base_axis].values[r->base_value]);
    else
        fputs(".", md);
    fputs("\n", md);
}

static void fig_box(const struct rpt_table *t, const struct rcp_figure *fg, FILE *dat, FILE *gp,
                    FILE *md) {
    const struct recipe *r = t->r;
    int m = fg->metric[0], nx = nvalues(t, fg->x), ns = nvalues(t, fg->series);
    double best = INFINITY, worst = -INFINITY;
    int jb = -1, jw = -1;
    for (int s = 0; s < ns; s++) {
        fprintf(dat, "# series %s: x p25 min p99 p75 p50\n", value_name(t, fg->series, s));
        for (int c = 0; c < nx; c++)
            for (int j = 0; j < t->njobs; j++) {
                if (fg->x >= 0 && t->jobs[j].vi[fg->x] != c) continue;
                if (fg->series >= 0 && t->jobs[j].vi[fg->series] != s) continue;
                const struct rpt_box *b = &t->box[j * t->nm + m];
                if (!b->ok || !t->have[j]) continue;
                fprintf(dat, "%g %g %g %g %g %g\n", c * (ns + 1.0) + s, b->p25, b->min, b->p99,
                        b->p75, b->p50);
                if (b->p50 < best) best = b->p50, jb = j;
                if (b->p50 > worst) worst = b->p50, jw = j;
                break; /* one box per (x, series): the first job of the other axes */
            }
        fputs("\n\n", dat);
    }
    char yl[512];
    struct rcp_figure f2 = *fg;
    f2.normalise = false;
    ylabel(t, &f2, yl, sizeof yl);
    gp_head(gp, fg, yl, fg->x >= 0 ? r->axes[fg->x].key : "", nx * (ns + 1));
    fputs("set style fill solid 0.5 border -1\nset boxwidth 0.8\nset xtics rotate by -30 (", gp);
    for (int c = 0; c < nx; c++)
        fprintf(gp, "%s\"%s\" %g", c ? ", " : "", value_name(t, fg->x, c),
                c * (ns + 1.0) + (ns - 1) / 2.0);
    fprintf(gp,
            ")\nset xrange [-1:%g]\nset label 1 \"box: quartiles, line: median, whiskers: "
            "min and 99th percentile\" at graph 0.01, graph 0.97 left font \",9\"\nplot ",
            nx * (ns + 1.0) - 1);
    for (int s = 0; s < ns; s++) {
        fprintf(gp,
                "%s\"%s.dat\" index %d using 1:2:3:4:5 with candlesticks whiskerbars lc rgb "
                "\"%s\" title \"",
                s ? ", " : "", fg->name, s, colors[s % 8]);
        gp_escape(gp, fg->series >= 0 ? value_name(t, fg->series, s) : r->metrics[m].label);
        fprintf(gp,
                "\", \"%s.dat\" index %d using 1:6:6:6:6 with candlesticks lw 2 lc rgb "
                "\"black\" notitle",
                fg->name, s);
    }
    fputs("\n", gp);
    if (jb >= 0)
        fprintf(md, "- **%s**: median %s from %g%s%s (%s) to %g%s%s (%s).\n", fg->name,
                r->metrics[m].label, best, r->metrics[m].unit[0] ? " " : "", r->metrics[m].unit,
                t->jobs[jb].name, worst, r->metrics[m].unit[0] ? " " : "", r->metrics[m].unit,
                t->jobs[jw].name);
}

static void fig_line(const struct rpt_table *t, const struct rcp_figure *fg, FILE *dat, FILE *gp,
                     FILE *md, double *v) {
    const struct recipe *r = t->r;
    int m = fg->metric[0], nx = nvalues(t, fg->x), ns = nvalues(t, fg->series);
    bool numeric = true;
    for (int c = 0; c < nx; c++) {
        char *end;
        strtod(value_name(t, fg->x, c), &end);
        numeric &= *end == '\0';
    }
    double besty = -INFINITY;
    int bs = 0, bc = 0;
    for (int s = 0; s < ns; s++) {
        fprintf(dat, "# series %s\n", value_name(t, fg->series, s));
        for (int c = 0; c < nx; c++) {
            double y = agg(t, fg, m, c, s, NULL, v);
            if (!isfinite(y)) continue;
            fprintf(dat, "%.10g %.10g\n", numeric ? atof(value_name(t, fg->x, c)) : c, y);
            if (y > besty) besty = y, bs = s, bc = c;
        }
        fputs("\n\n", dat);
    }
    char yl[512];
    ylabel(t, fg, yl, sizeof yl);
    gp_head(gp, fg, yl, r->axes[fg->x].key, 0);
    if (!numeric) {
        fputs("set xtics (", gp);
        for (int c = 0; c < nx; c++)
            fprintf(gp, "%s\"%s\" %d", c ? ", " : "", value_name(t, fg->x, c), c);
        fprintf(gp, ")\nset xrange [-0.5:%g]\n", nx - 0.5);
    }
    fputs("plot ", gp);
    for (int s = 0; s < ns; s++) {
        fprintf(gp,
                "%s\"%s.dat\" index %d using 1:2 with linespoints lw 2 pt 7 lc rgb \"%s\" "
                "title \"",
                s ? ", " : "", fg->name, s, colors[s % 8]);
        gp_escape(gp, fg->series >= 0 ? value_name(t, fg->series, s) : r->metrics[m].label);
        fputs("\"", gp);
    }
    fputs("\n", gp);
    fprintf(md, "- **%s**: the highest %s%s, %.3f, is at %s = %s%s%s.\n", fg->name,
            r->metrics[m].label, fg->normalise ? " (normalised, geometric mean)" : "", besty,
            r->axes[fg->x].key, value_name(t, fg->x, bc), fg->series >= 0 ? " with " : "",
            value_name(t, fg->series, bs));
}

static void fig_stack(const struct rpt_table *t, const struct rcp_figure *fg, FILE *dat, FILE *gp,
                      FILE *md, double *v) {
    const struct recipe *r = t->r;
    int nx = nvalues(t, fg->x), ns = nvalues(t, fg->series), np = fg->nmetrics;
    struct rcp_figure one = *fg;
    one.normalise = false;
    /* one block per part, cumulative from the bottom; drawn top part first */
    double *cum = calloc((size_t)(nx * ns) + 1, sizeof *cum);
    if (!cum) return;
    for (int p = 0; p < np; p++) {
        fprintf(dat, "# part %s\n", r->metrics[fg->metric[p]].name);
        for (int c = 0; c < nx; c++)
            for (int s = 0; s < ns; s++) {
                double y = agg(t, &one, fg->metric[p], c, s, NULL, v);
                if (isfinite(y)) cum[c * ns + s] += y;
                fprintf(dat, "%g %.10g\n", c * (ns + 1.0) + s, cum[c * ns + s]);
            }
        fputs("\n\n", dat);
    }
    char yl[512];
    one.metric[0] = fg->metric[0];
    if (fg->ylabel[0])
        snprintf(yl, sizeof yl, "%s", fg->ylabel);
    else
        snprintf(yl, sizeof yl, "%s", r->metrics[fg->metric[0]].unit);
    gp_head(gp, fg, yl, fg->x >= 0 ? r->axes[fg->x].key : "", nx * (ns + 1));
    fputs("set style fill solid 0.85 border -1\nset boxwidth 0.9\nset xtics rotate by 90 right (",
          gp);
    for (int c = 0; c < nx; c++)
        for (int s = 0; s < ns; s++)
            fprintf(gp, "%s\"%s%s%s\" %g", c || s ? ", " : "", value_name(t, fg->x, c),
                    ns > 1 ? " " : "", value_name(t, fg->series, s), c * (ns + 1.0) + s);
    fprintf(gp, ")\nset xrange [-1:%g]\nplot ", nx * (ns + 1.0) - 1);
    for (int p = np - 1; p >= 0; p--) {
        fprintf(gp, "%s\"%s.dat\" index %d using 1:2 with boxes lc rgb \"%s\" title \"",
                p < np - 1 ? ", " : "", fg->name, p, colors[p % 8]);
        gp_escape(gp, r->metrics[fg->metric[p]].label);
        fputs("\"", gp);
    }
    fputs("\n", gp);
    /* headline: the largest part on average */
    int big = 0;
    double bigv = -INFINITY;
    for (int p = 0; p < np; p++) {
        double y = agg(t, &one, fg->metric[p], -1, -1, NULL, v);
        if (y > bigv) bigv = y, big = p;
    }
    fprintf(md, "- **%s**: the largest part on average is %s (%.3g%s%s).\n", fg->name,
            r->metrics[fg->metric[big]].label, bigv, r->metrics[fg->metric[big]].unit[0] ? " " : "",
            r->metrics[fg->metric[big]].unit);
    free(cum);
}

static int run_gnuplot(const char *gnuplot, const char *dir, const char *script) {
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if (chdir(dir) != 0) _exit(127);
        execlp(gnuplot, gnuplot, script, (char *)NULL);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0) return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int rpt_figures(const struct rpt_table *t, const char *out, const char *gnuplot, struct ws_err *e) {
    const struct recipe *r = t->r;
    char *mdtext = NULL, *heads = NULL;
    size_t mdlen = 0, hlen = 0;
    FILE *md = open_memstream(&mdtext, &mdlen), *hd = open_memstream(&heads, &hlen);
    double *v = malloc(((size_t)t->njobs + 1) * sizeof *v);
    if (!md || !hd || !v) {
        if (md) fclose(md);
        if (hd) fclose(hd);
        free(mdtext), free(heads), free(v);
        return ws_fail(e, "out of memory");
    }
    int have = 0;
    for (int j = 0; j < t->njobs; j++) have += t->have[j];
    int rendered = 0, rc = 0;
    char figs[RCP_MAX_FIGS][64];
    bool ok[RCP_MAX_FIGS];
    for (int i = 0; i < r->nfigs && rc == 0; i++) {
        const struct rcp_figure *fg = &r->figs[i];
        char *dtext = NULL, *gtext = NULL;
        size_t dlen = 0, glen = 0;
        FILE *dat = open_memstream(&dtext, &dlen), *gp = open_memstream(&gtext, &glen);
        if (!dat || !gp) {
            rc = ws_fail(e, "out of memory");
            break;
        }
        switch (fg->kind) {
        case FIG_BARS:
            fig_bars(t, fg, dat, gp, hd, v);
            break;
        case FIG_BOX:
            fig_box(t, fg, dat, gp, hd);
            break;
        case FIG_LINE:
            fig_line(t, fg, dat, gp, hd, v);
            break;
        case FIG_STACK:
            fig_stack(t, fg, dat, gp, hd, v);
            break;
        }
        gp_tail(gp, fg);
        fclose(dat);
        fclose(gp);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.dat", out, fg->name);
        rc = ws_write_text_atomic(path, dtext, dlen, e);
        snprintf(path, sizeof path, "%s/%s.gp", out, fg->name);
        if (rc == 0) rc = ws_write_text_atomic(path, gtext, glen, e);
        free(dtext);
        free(gtext);
        snprintf(figs[i], sizeof figs[i], "%s", fg->name);
        snprintf(path, sizeof path, "%s.gp", fg->name);
        ok[i] = rc == 0 && gnuplot && run_gnuplot(gnuplot, out, path) == 0;
        rendered += ok[i];
    }
    fclose(hd);
    fprintf(md, "# %s\n\n", r->title[0] ? r->title : r->path);
    fprintf(md, "Recipe `%s`: %d jobs, %d with a complete result.", r->path, t->njobs, have);
    if (r->base_axis >= 0)
        fprintf(md, " Normalised columns divide by the job with %s = %s.",
                r->axes[r->base_axis].key, r->axes[r->base_axis].values[r->base_value]);
    fputs(" Tables: [report.csv](report.csv) (one row per job), [means.csv](means.csv) (arithmetic "
          "and geometric means per group).",
          md);
    for (int m = 0; m < t->nm; m++)
        if (t->absent[m])
            fprintf(md,
                    " Metric %s is not in %d of the results (a counter only some jobs have): "
                    "blank there.",
                    r->metrics[m].name, t->absent[m]);
    fputs("\n\n## Headlines\n\n", md);
    fputs(heads ? heads : "", md);
    fputs("\n## Figures\n\n", md);
    for (int i = 0; i < r->nfigs && rc == 0; i++) {
        if (ok[i])
            fprintf(md,
                    "### %s\n\n![%s](%s.png)\n\n[SVG](%s.svg) · [data](%s.dat) · "
                    "[gnuplot script](%s.gp)\n\n",
                    figs[i], figs[i], figs[i], figs[i], figs[i], figs[i]);
        else
            fprintf(md, "### %s\n\nnot rendered (gnuplot %s); [data](%s.dat), [script](%s.gp)\n\n",
                    figs[i], gnuplot ? "failed" : "not found", figs[i], figs[i]);
    }
    fclose(md);
    if (rc == 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/report.md", out);
        rc = ws_write_text_atomic(path, mdtext, mdlen, e);
    }
    free(mdtext);
    free(heads);
    free(v);
    return rc == 0 ? rendered : -1;
}
