/* Reports of a sweep: the metrics of every job's result file as a table (CSV, one row per job,
 * normalised columns against the recipe's baseline), means per workload group (arithmetic and
 * geometric), gnuplot figures (PNG + SVG) and a report.md that links them and states the
 * headline numbers. Everything is computed from the result files alone. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"
#include "exp/recipe.h"

/* Five-number summary of a stored histogram (box plots). */
struct rpt_box {
    double min, p25, p50, p75, p99;
    bool ok;
};

struct rpt_table {
    const struct recipe *r;
    const struct rcp_job *jobs;
    int njobs, nm;
    bool *have;             /* result present and complete */
    double *val, *norm;     /* [job * nm + metric]; NAN when missing */
    struct rpt_box *box;    /* [job * nm + metric]; ok when the path names a histogram */
    char (*group)[RCP_KEY]; /* per job (a group is a class or a [groups] key) */
    int ngroups;
    char groups[16][RCP_KEY]; /* distinct groups, sorted */
    int *absent;              /* [metric] present results without the metric's path */
};

/* Geometric mean of the finite values; NAN when there is none or one is <= 0. */
double rpt_geomean(const double *v, int n);
/* Arithmetic mean of the finite values; NAN when there is none. */
double rpt_amean(const double *v, int n);

/* Reads DIR/results/NAME.json of every job. A metric path missing from some present results
 * leaves their cells blank (NAN; a policy's own counters exist only in its jobs); one missing
 * from every present result is an error naming the recipe line of the metric. */
int rpt_load(struct rpt_table *t, const struct recipe *r, const struct rcp_job *jobs, int njobs,
             const char *dir, struct ws_err *e);
void rpt_free(struct rpt_table *t);

/* report.csv: job, axis values, group, metrics, normalised metrics. */
void rpt_write_csv(const struct rpt_table *t, FILE *f);
/* means.csv: per combination of the non-workload axes and per group (and "all"): n, then
 * arithmetic and geometric means of every metric and normalised metric. */
void rpt_write_means(const struct rpt_table *t, FILE *f);

/* Writes OUT/<figure>.dat and .gp for every figure, runs gnuplot on them when `gnuplot` is not
 * NULL, and writes OUT/report.md. Returns the number of figures rendered, -1 on error. */
int rpt_figures(const struct rpt_table *t, const char *out, const char *gnuplot, struct ws_err *e);
