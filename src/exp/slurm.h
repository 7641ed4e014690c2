/* Slurm job arrays for sweeps: one array task per job, each running the same `warpsim run`
 * command line as the local pool, its stdout/stderr in DIR/logs/NAME.out|err and its exit
 * status in DIR/logs/NAME.exit, so `report` does not care where jobs ran. */
#pragma once

#include <stdio.h>

struct slurm_opts {
    char partition[64], time[32], mem[32]; /* empty: the cluster's default */
    int throttle;                          /* at most this many tasks at once (%N); 0: no limit */
};

struct slurm_task {
    const char *name;  /* job name: file names under DIR */
    char *const *argv; /* argv[0] ignored; the rest after the warpsim executable */
};

/* Writes the sbatch script: #SBATCH header, --array over the task ids given (the jobs left to
 * run), a case per task. exe and cwd are absolute; dir is where results and logs go. */
void slurm_script(FILE *f, const struct slurm_opts *o, const char *jobname, const char *exe,
                  const char *cwd, const char *dir, const struct slurm_task *tasks, const int *ids,
                  int n);

/* Shell single-quoting ('it'\''s'). */
void slurm_quote(FILE *f, const char *s);
