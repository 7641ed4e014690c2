/* `warpsim report DIR`: tables, figures and report.md of a sweep, from DIR/recipe.ini (the copy
 * the sweep made) and DIR/results/ alone, so it does not matter where the jobs ran. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "exp/recipe.h"
#include "exp/report.h"

static const char usage[] = "usage: warpsim report DIR [--out OUTDIR] [--no-figures]\n"
                            "  DIR     a sweep's folder (warpsim sweep --out DIR)\n"
                            "  OUTDIR  where the report goes (default DIR/report)\n";

/* gnuplot on PATH, or NULL. */
static const char *find_gnuplot(void) {
    const char *path = getenv("PATH");
    if (!path) return NULL;
    char buf[PATH_MAX];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s/gnuplot", (int)n, p);
        if (n && access(buf, X_OK) == 0) return "gnuplot";
        p += n + (p[n] == ':');
    }
    return NULL;
}

static int write_table(const char *path, const struct rpt_table *t, bool means, struct ws_err *e) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return ws_fail(e, "out of memory");
    if (means)
        rpt_write_means(t, f);
    else
        rpt_write_csv(t, f);
    fclose(f);
    int rc = ws_write_text_atomic(path, text, len, e);
    free(text);
    return rc;
}

/* write_table() into dir/name. */
static int write_table_in(const char *dir, const char *name, const struct rpt_table *t, bool means,
                          struct ws_err *e) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return ws_fail(e, "%s: path too long", dir);
    return write_table(path, t, means, e);
}

int cmd_report(int argc, char **argv) {
    const char *dir = NULL, *out = NULL;
    bool figures = true;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--no-figures"))
            figures = false;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return WS_EXIT_OK;
        } else if (argv[i][0] != '-' && !dir)
            dir = argv[i];
        else {
            fprintf(stderr, "warpsim: report: unknown option '%s'\n%s", argv[i], usage);
            return WS_EXIT_USAGE;
        }
    }
    if (!dir) {
        fputs(usage, stderr);
        return WS_EXIT_USAGE;
    }
    struct ws_err e = {{0}};
    struct recipe *r = calloc(1, sizeof *r);
    struct rcp_job *jobs = NULL;
    int njobs = 0, code = WS_EXIT_INPUT;
    struct rpt_table t;
    memset(&t, 0, sizeof t);
    char path[PATH_MAX], outdir[PATH_MAX];
    if (!r) return WS_EXIT_INTERNAL;
    snprintf(path, sizeof path, "%s/recipe.ini", dir);
    struct stat st;
    const char *why = stat(dir, &st) != 0    ? strerror(errno)
                      : !S_ISDIR(st.st_mode) ? "not a folder"
                                             : NULL;
    if (why) {
        ws_fail(&e, "%s: %s (give the folder a sweep wrote, e.g. results/NAME)", dir, why);
        goto done;
    }
    if (access(path, F_OK) != 0) {
        ws_fail(&e, "%s: not a sweep's folder (it has no recipe.ini; warpsim sweep writes one)",
                dir);
        goto done;
    }
    if (recipe_load(r, path, NULL, &e) != 0) goto done;
    if (recipe_expand(r, &jobs, &njobs, &e) != 0) goto done;
    if (rpt_load(&t, r, jobs, njobs, dir, &e) != 0) goto done;
    snprintf(outdir, sizeof outdir, "%s", out ? out : "");
    if (!out) snprintf(outdir, sizeof outdir, "%s/report", dir);
    if (mkdir(outdir, 0755) != 0 && errno != EEXIST) {
        ws_fail(&e, "%s: cannot create: %s", outdir, strerror(errno));
        goto done;
    }
    if (write_table_in(outdir, "report.csv", &t, false, &e) != 0 ||
        write_table_in(outdir, "means.csv", &t, true, &e) != 0)
        goto done;
    const char *gp = figures ? find_gnuplot() : NULL;
    if (figures && !gp)
        fprintf(stderr, "warpsim: report: gnuplot not found; writing the figure scripts only\n");
    int n = rpt_figures(&t, outdir, gp, &e);
    if (n < 0) goto done;
    int have = 0;
    for (int j = 0; j < njobs; j++) have += t.have[j];
    printf("report: %d of %d jobs with results, %d figures rendered; %s/report.md\n", have, njobs,
           n, outdir);
    code = WS_EXIT_OK;
done:
    if (code != WS_EXIT_OK) cli_fail(&e, code);
    rpt_free(&t);
    free(jobs);
    free(r);
    return code;
}
