/* `warpsim config import GPGPUSIM_CONFIG [TRACE_CONFIG] [-o OUT.ini] [--name NAME]`: converts
 * GPGPU-Sim / Accel-Sim options (a gpgpusim.config, a trace.config, or an Accel-Sim log) into a
 * warpsim INI, checks that the result builds a machine, and lists every option left unmapped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cfg.h"
#include "base/fileio.h"
#include "cli/cli.h"
#include "gpu/gpgpusim_import.h"
#include "gpu/gpu.h"

int cmd_config_import(int argc, char **argv);

static void base_name(const char *path, char *out, size_t n) {
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(out, n, "%s", b);
    char *dot = strrchr(out, '.');
    if (dot && dot != out) *dot = 0;
}

int cmd_config_import(int argc, char **argv) {
    struct ws_err e = {{0}};
    const char *in[2] = {NULL, NULL}, *outp = NULL, *name = NULL;
    int nin = 0;
    static const char usage[] = "usage: warpsim config import GPGPUSIM_CONFIG [TRACE_CONFIG] "
                                "[-o OUT.ini] [--name NAME]\n";
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            return WS_EXIT_OK;
        }
        if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--name") == 0) && i + 1 < argc) {
            if (argv[i][1] == 'o')
                outp = argv[++i];
            else
                name = argv[++i];
        } else if (argv[i][0] != '-' && nin < 2)
            in[nin++] = argv[i];
        else {
            fprintf(stderr, "warpsim: config import: unexpected argument '%s'\n", argv[i]);
            nin = 0;
            break;
        }
    }
    if (nin == 0) {
        fputs(usage, stderr);
        return WS_EXIT_USAGE;
    }
    char nm[256];
    base_name(in[0], nm, sizeof nm);
    if (!name) name = nm;

    int code = WS_EXIT_INPUT;
    struct gs_opts *o = gs_opts_create();
    char *text = NULL, *unm = NULL;
    size_t tlen = 0, ulen = 0;
    FILE *tf = NULL, *uf = NULL;
    struct cfg *c = NULL;
    struct gpu *g = NULL;
    for (int k = 0; k < nin; k++)
        if ((outp && ws_check_not_input(outp, in[k], "a configuration", &e) != 0) ||
            gs_opts_load(o, in[k], &e) != 0)
            goto out;
    tf = open_memstream(&text, &tlen);
    uf = open_memstream(&unm, &ulen);
    if (!tf || !uf) {
        ws_fail(&e, "out of memory");
        goto out;
    }
    unsigned nunm = 0;
    if (gs_import(o, name, tf, uf, &nunm, &e) != 0) goto out;
    fflush(tf);
    fflush(uf);
    /* the result must build a machine, as `warpsim run -c` would */
    c = cfg_create();
    const char *label = outp ? outp : "imported configuration";
    if (cfg_load_ini_string(c, label, text, &e) != 0) goto out;
    if (!(g = gpu_create(c, &e)) || cfg_check_unclaimed(c, &e) != 0) {
        char msg[sizeof e.msg];
        snprintf(msg, sizeof msg, "%s", e.msg);
        ws_fail(&e, "the imported configuration does not load: %.900s", msg);
        goto out;
    }
    if (outp) {
        if (ws_write_text_atomic(outp, text, tlen, &e) != 0) goto out;
    } else
        fwrite(text, 1, tlen, stdout);
    fprintf(stderr, "warpsim: config import: %u of %u options (or parts) not mapped:\n%s", nunm,
            gs_opts_count(o), unm);
    code = WS_EXIT_OK;
out:
    if (code) cli_fail(&e, code);
    gpu_destroy(g);
    cfg_destroy(c);
    if (tf) fclose(tf);
    if (uf) fclose(uf);
    free(text);
    free(unm);
    gs_opts_destroy(o);
    return code;
}
