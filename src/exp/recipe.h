/* Experiment recipes (experiments/NAME.ini): a base machine, fixed settings, axes whose cartesian
 * product is the set of jobs (each one `warpsim run`), the baseline that normalised columns divide
 * by, the metrics (JSON paths into a result file), how workloads are grouped for means, and the
 * figures to draw. Parsing checks the recipe's own structure and names (workloads, policies);
 * whether every key is a real configuration key is checked per job by the sweep, against the same
 * key tables `warpsim run` binds. Every error reads "recipe.ini:line: what is wrong".
 *
 *   [sweep]   title, config (preset name or path), size (test|paper), workload (when not an axis)
 *   [set]     section.key = value   given to every job the key applies to
 *   [axes]    key = v1, v2, ...     workload, config, size or any section.key; later axes vary
 *                                   fastest; a key repeated on a later line appends values
 *   [baseline] axis = value         normalised = job / the job with this value, other axes equal
 *   [groups]  by = class|load_class|none   workload classes for means (registry class LOA/MOA/HOA,
 *                                   or the class measured in the baseline job), or named groups:
 *             NAME = wl1, wl2, ...  the recipe's own grouping (e.g. a paper's Type-1 / Type-2
 *                                   sets); a workload in no group is "other"
 *   [metric NAME]  path (dots into the result JSON), label, unit
 *   [figure NAME]  kind = bars|box|line|stack, metric (stack: a comma list), x, series,
 *                  normalise = yes|no, title, ylabel
 *   [slurm]   partition, time, mem, throttle   defaults for `warpsim sweep --slurm` */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "exp/slurm.h"

enum {
    RCP_KEY = 128,
    RCP_VAL = 256,
    RCP_NAME = 64,
    RCP_MAX_AXES = 8,
    RCP_MAX_VALUES = 64,
    RCP_MAX_SETS = 64, /* a per-job bit mask says which apply */
    RCP_MAX_METRICS = 32,
    RCP_MAX_FIGS = 16,
    RCP_MAX_STACK = 8,
};

struct rcp_set {
    char key[RCP_KEY], value[RCP_VAL];
    long line;
};

struct rcp_axis {
    char key[RCP_KEY];
    int n;
    char values[RCP_MAX_VALUES][RCP_NAME];
    long line;
};

struct rcp_metric {
    char name[RCP_NAME], path[RCP_KEY], label[RCP_KEY], unit[RCP_NAME];
    long line;
};

enum rcp_fig_kind { FIG_BARS, FIG_BOX, FIG_LINE, FIG_STACK };

struct rcp_figure {
    char name[RCP_NAME];
    enum rcp_fig_kind kind;
    int nmetrics;
    int metric[RCP_MAX_STACK]; /* indices into recipe.metrics */
    int x, series;             /* axis indices; -1: none */
    bool normalise;
    char title[RCP_VAL], ylabel[RCP_VAL];
    long line;
    /* as written, resolved once the whole recipe is read (metrics may come later) */
    char metric_text[RCP_VAL], x_text[RCP_KEY], series_text[RCP_KEY];
    long metric_line, x_line, series_line;
    bool normalise_set;
};

enum rcp_group_by { GROUP_CLASS, GROUP_LOAD_CLASS, GROUP_NONE, GROUP_NAMED };
enum { RCP_MAX_GROUPS = 8 };

struct recipe {
    char path[512];
    char title[RCP_VAL];
    char config[RCP_VAL], size[RCP_NAME], workload[RCP_NAME];
    long config_line, size_line, workload_line;
    int nsets;
    struct rcp_set sets[RCP_MAX_SETS];
    int naxes;
    struct rcp_axis axes[RCP_MAX_AXES];
    int base_axis, base_value; /* -1 when there is no baseline */
    long base_line;
    char base_key[RCP_KEY], base_val[RCP_NAME]; /* as written */
    enum rcp_group_by group_by;
    int ngroups; /* GROUP_NAMED: key = the group's name, values = its workloads */
    struct rcp_axis groups[RCP_MAX_GROUPS];
    int nmetrics;
    struct rcp_metric metrics[RCP_MAX_METRICS];
    int nfigs;
    struct rcp_figure figs[RCP_MAX_FIGS];
    int wl_axis; /* index of the `workload` axis, -1 when the workload is fixed */
    struct slurm_opts slurm;
};

/* One point of the matrix. The id is its position (last axis fastest); the name joins its axis
 * values with '_' and names its files, so a resumed sweep finds a job by name. */
struct rcp_job {
    int id;
    char name[RCP_VAL];
    int vi[RCP_MAX_AXES]; /* value index per axis */
    uint64_t sets_skip;   /* bit i: [set] entry i does not apply to this job */
};

/* Parses and checks a recipe; text != NULL parses that text, naming it `path` in messages. */
int recipe_load(struct recipe *r, const char *path, const char *text, struct ws_err *e);

/* The jobs (malloc'd array of *n) in id order; -1 when two jobs would share a name. */
int recipe_expand(const struct recipe *r, struct rcp_job **jobs, int *n, struct ws_err *e);

/* A job's settings, as `warpsim run` takes them. */
struct rcp_setting {
    const char *key, *value;
    long line; /* in the recipe */
};
struct rcp_runspec {
    struct rcp_setting config, workload, size; /* key is NULL in these three */
    int nsets;
    struct rcp_setting sets[RCP_MAX_SETS + RCP_MAX_AXES];
    int set_index[RCP_MAX_SETS + RCP_MAX_AXES]; /* [set] entry index, or -1 - axis index */
};
void recipe_runspec(const struct recipe *r, const struct rcp_job *j, struct rcp_runspec *s);

/* The value of axis `a` in job j, or of a fixed setting when the axis is absent. */
const char *recipe_job_value(const struct recipe *r, const struct rcp_job *j, int a);
/* The workload a job runs. */
const char *recipe_job_workload(const struct recipe *r, const struct rcp_job *j);
/* Index of the axis named key (case-insensitive), or -1. */
int recipe_axis(const struct recipe *r, const char *key);
