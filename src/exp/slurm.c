/* sbatch script generation (see slurm.h). */
#include "exp/slurm.h"

#include <string.h>

void slurm_quote(FILE *f, const char *s) {
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

void slurm_script(FILE *f, const struct slurm_opts *o, const char *jobname, const char *exe,
                  const char *cwd, const char *dir, const struct slurm_task *tasks, const int *ids,
                  int n) {
    fputs("#!/bin/bash\n", f);
    fprintf(f, "#SBATCH --job-name=%s\n", jobname);
    /* array ids are the job ids still to run: ranges where they are consecutive */
    fputs("#SBATCH --array=", f);
    for (int i = 0; i < n;) {
        int k = i;
        while (k + 1 < n && ids[k + 1] == ids[k] + 1) k++;
        fprintf(f, "%s%d", i ? "," : "", ids[i]);
        if (k > i) fprintf(f, "-%d", ids[k]);
        i = k + 1;
    }
    if (o->throttle > 0) fprintf(f, "%%%d", o->throttle);
    fputc('\n', f);
    if (o->partition[0]) fprintf(f, "#SBATCH --partition=%s\n", o->partition);
    if (o->time[0]) fprintf(f, "#SBATCH --time=%s\n", o->time);
    if (o->mem[0]) fprintf(f, "#SBATCH --mem=%s\n", o->mem);
    fputs("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n", f);
    fprintf(f, "#SBATCH --output=%s/logs/slurm-%%A_%%a.out\n", dir);
    fputs("# written by warpsim sweep --slurm; one array task per job of the sweep\n", f);
    fputs("set -u\ncd ", f);
    slurm_quote(f, cwd);
    fputs(" || exit 1\ncase \"$SLURM_ARRAY_TASK_ID\" in\n", f);
    for (int i = 0; i < n; i++) {
        const struct slurm_task *t = &tasks[ids[i]];
        fprintf(f, "%d) name=", ids[i]);
        slurm_quote(f, t->name);
        fputs("; set --", f);
        for (char *const *a = t->argv + 1; *a; a++) {
            fputc(' ', f);
            slurm_quote(f, *a);
        }
        fputs(" ;;\n", f);
    }
    fputs("*) echo \"warpsim: no job for array task $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\n"
          "esac\n",
          f);
    fputs("log=", f);
    slurm_quote(f, dir);
    fputs("/logs/$name\n", f);
    slurm_quote(f, exe);
    fputs(" \"$@\" >\"$log.out\" 2>\"$log.err\"\nrc=$?\necho $rc >\"$log.exit\"\nexit $rc\n", f);
}
