/* Slurm array scripts: the exact text for constructed tasks (header from the options, --array
 * ranges over the jobs left to run with the throttle, quoted arguments, exit status file). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp/slurm.h"

static void test_script(void **state) {
    (void)state;
    char *a0[] = {"warpsim", "run", "-w", "bfs", NULL};
    char *a1[] = {"warpsim", "run", "--set", "x.y=it's", NULL};
    const struct slurm_task tasks[] = {{"j0", a0}, {"j1", a1}, {"j2", a0}, {"j3", a0}};
    const int ids[] = {0, 2, 3};
    struct slurm_opts o = {"long", "01:00:00", "4G", 2};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    slurm_script(f, &o, "warpsim-x", "/bin/warpsim", "/home/u", "res", tasks, ids, 3);
    fclose(f);
    assert_string_equal(text, "#!/bin/bash\n"
                              "#SBATCH --job-name=warpsim-x\n"
                              "#SBATCH --array=0,2-3%2\n"
                              "#SBATCH --partition=long\n"
                              "#SBATCH --time=01:00:00\n"
                              "#SBATCH --mem=4G\n"
                              "#SBATCH --ntasks=1\n"
                              "#SBATCH --cpus-per-task=1\n"
                              "#SBATCH --output=res/logs/slurm-%A_%a.out\n"
                              "# written by warpsim sweep --slurm; one array task per job of the "
                              "sweep\n"
                              "set -u\n"
                              "cd '/home/u' || exit 1\n"
                              "case \"$SLURM_ARRAY_TASK_ID\" in\n"
                              "0) name='j0'; set -- 'run' '-w' 'bfs' ;;\n"
                              "2) name='j2'; set -- 'run' '-w' 'bfs' ;;\n"
                              "3) name='j3'; set -- 'run' '-w' 'bfs' ;;\n"
                              "*) echo \"warpsim: no job for array task $SLURM_ARRAY_TASK_ID\" "
                              ">&2; exit 2 ;;\n"
                              "esac\n"
                              "log='res'/logs/$name\n"
                              "'/bin/warpsim' \"$@\" >\"$log.out\" 2>\"$log.err\"\n"
                              "rc=$?\n"
                              "echo $rc >\"$log.exit\"\n"
                              "exit $rc\n");
    free(text);
    /* no options: the cluster's defaults, no throttle; a quote inside an argument */
    struct slurm_opts none = {"", "", "", 0};
    const int one[] = {1};
    f = open_memstream(&text, &len);
    slurm_script(f, &none, "w", "/w", "/", "d", tasks, one, 1);
    fclose(f);
    assert_non_null(strstr(text, "#SBATCH --array=1\n#SBATCH --ntasks=1\n"));
    assert_non_null(strstr(text, "1) name='j1'; set -- 'run' '--set' 'x.y=it'\\''s' ;;\n"));
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_script)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
