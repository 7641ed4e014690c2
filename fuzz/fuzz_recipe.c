/* libFuzzer target: an experiment recipe (`warpsim sweep RECIPE`) parsed, checked and expanded
 * into its jobs, and each job's run settings formed, as the sweep does before starting any run.
 * Any input must end in a clean "file:line:" error or a list of jobs. */
#include <stdlib.h>
#include <string.h>

#include "exp/recipe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* recipe_load takes the text itself; it must be a C string */
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    static struct recipe r; /* large: keep it off the stack */
    struct ws_err e = {0};
    if (recipe_load(&r, "fuzz.ini", text, &e) == 0) {
        struct rcp_job *jobs = NULL;
        int n = 0;
        if (recipe_expand(&r, &jobs, &n, &e) == 0) {
            for (int i = 0; i < n && i < 64; i++) {
                struct rcp_runspec s;
                recipe_runspec(&r, &jobs[i], &s);
                (void)recipe_job_workload(&r, &jobs[i]);
            }
        }
        free(jobs);
    }
    free(text);
    return 0;
}
