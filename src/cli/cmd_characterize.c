/* `warpsim characterize`: runs workloads on a machine and reports what kind of memory behaviour
 * each has — off-chip accesses per load warp and the LOA/MOA/HOA class of seed 000 §3.1,
 * coalescing degree, intra-warp L1D set concentration (seed 001 Eq. 3.1), L1D/L2 miss rates
 * and the share of memory instructions — for one workload as text, or for the whole built-in set
 * as the Markdown table of docs/workloads.md. Workloads run in parallel child processes (-j);
 * the table lists them in registry order whatever order they finish in, so it is deterministic
 * apart from the speed column, which is left out of the file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "gpu/gpu.h"
#include "workload/workload.h"

static const char usage[] =
    "usage: warpsim characterize [-c CONFIG] (-w WORKLOAD... | --all) [--size test|paper]\n"
    "                            [--set section.key=value]... [-j N] [--markdown OUT.md]\n"
    "  -w NAME      a workload (repeatable); --all: every built-in workload\n"
    "  -j N         run N workloads at once (child processes; default 1)\n"
    "  --markdown   write the table (docs/workloads.md is made this way) instead of text\n";

enum { MAX_WL = 128 };

/* One workload's figures, passed from a child process to the parent through a pipe. */
struct row {
    int ok;
    char err[1024];
    char machine[64];
    struct gpu_summary s;
};

struct char_opts {
    struct cli_common common;
    const char *names[MAX_WL];
    unsigned n;
    bool all;
    const char *size;
    const char *markdown;
    unsigned jobs;
    int argc;
    char **argv;
};

static int parse(struct char_opts *o, int argc, char **argv, struct ws_err *e) {
    o->jobs = 1;
    o->size = "test";
    for (int i = 2; i < argc; i++) {
        int r = cli_common_opt(&o->common, argc, argv, &i, e);
        if (r < 0) return -1;
        if (r > 0) {
            if (o->common.out_path) return ws_fail(e, "characterize: -o is not an option here");
            continue;
        }
        const char *a = argv[i];
        if (strcmp(a, "-w") == 0 || strcmp(a, "--workload") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs a workload name", a);
            if (o->n == MAX_WL) return ws_fail(e, "too many workloads");
            o->names[o->n++] = argv[++i];
        } else if (strcmp(a, "--all") == 0) {
            o->all = true;
        } else if (strcmp(a, "--size") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs test or paper", a);
            o->size = argv[++i];
        } else if (strcmp(a, "--markdown") == 0) {
            if (i + 1 >= argc) return ws_fail(e, "%s needs a file", a);
            o->markdown = argv[++i];
        } else if (strcmp(a, "-j") == 0) {
            char *end;
            long j = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || *end || j < 1 || j > 256)
                return ws_fail(e, "-j needs a number of processes from 1 to 256");
            o->jobs = (unsigned)j;
            i++;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            exit(0);
        } else {
            return ws_fail(e, "characterize: unknown option '%s'\n%s", a, usage);
        }
    }
    if (o->all) {
        if (o->n) return ws_fail(e, "characterize: give -w or --all, not both");
        for (unsigned k = 0; k < workload_ntable; k++)
            if (strcmp(workload_table[k].name, "trace") != 0)
                o->names[o->n++] = workload_table[k].name;
    }
    if (!o->n) return ws_fail(e, "characterize: give -w NAME or --all\n%s", usage);
    if (!o->common.config_path) o->common.config_path = "rtx2060s";
    o->argc = argc;
    o->argv = argv;
    return 0;
}

/* The names and size given: bad values are bad input (exit 1), as `warpsim run` treats them;
 * parse() rejects only a malformed command line (exit 2). */
static int check_values(const struct char_opts *o, struct ws_err *e) {
    for (unsigned k = 0; k < o->n; k++) {
        if (workload_find(o->names[k]) && strcmp(o->names[k], "trace") != 0) continue;
        const char *near = workload_suggest(o->names[k]);
        if (near && strcmp(near, "trace") != 0)
            return ws_fail(e, "characterize: unknown workload '%s' (did you mean '%s'?)",
                           o->names[k], near);
        return ws_fail(e, "characterize: unknown workload '%s' (warpsim list workloads)",
                       o->names[k]);
    }
    if (strcmp(o->size, "test") && strcmp(o->size, "paper"))
        return ws_fail(e, "--size: '%s' is neither test nor paper", o->size);
    return 0;
}

/* Simulates workload `name` on the configured machine (with s NULL, only builds it). */
static int simulate(const struct char_opts *o, const char *name, struct gpu_summary *s,
                    char *machine, size_t n, struct ws_err *e) {
    char wl[128], sz[64];
    snprintf(wl, sizeof wl, "workload.name=%s", name);
    snprintf(sz, sizeof sz, "workload.size=%s", o->size);
    const char *extra[2] = {wl, sz}, *origin[2] = {"-w", "--size"};
    return cli_simulate(&o->common, extra, origin, 2, s, machine, n, e);
}

/* Runs one workload in this process and fills r (r->ok = 0 with the message on failure). */
static void run_one(const struct char_opts *o, const char *name, struct row *r) {
    memset(r, 0, sizeof *r);
    struct ws_err e = {{0}};
    if (simulate(o, name, &r->s, r->machine, sizeof r->machine, &e) != 0) {
        snprintf(r->err, sizeof r->err, "%s", e.msg);
        return;
    }
    r->ok = 1;
}

/* With several workloads, a --set key may be meant for some of them only (workload.bfs.nodes):
 * each workload is built once before any runs, a workload that cannot be built is an error
 * then, and so is a key that none of them reads (the error a single run gives for it). The
 * runs are then lenient about keys they do not read. */
static int check_sets(struct char_opts *o, struct ws_err *e) {
    enum { NSETS = sizeof o->common.sets / sizeof o->common.sets[0] };
    static bool read[MAX_WL][NSETS];
    for (unsigned k = 0; k < o->n; k++) {
        o->common.set_read = read[k];
        if (simulate(o, o->names[k], NULL, NULL, 0, e) != 0) {
            char msg[sizeof e->msg];
            snprintf(msg, sizeof msg, "%s", e->msg);
            return ws_fail(e, "characterize: %s: %s", o->names[k], msg);
        }
    }
    for (int i = 0; i < o->common.nsets; i++) {
        bool any = false;
        for (unsigned k = 0; k < o->n; k++) any |= read[k][i];
        if (!any) {
            o->common.set_read = NULL;
            if (simulate(o, o->names[0], NULL, NULL, 0, e) != 0) return -1;
        }
    }
    o->common.set_read = read[0]; /* scratch: the runs only need the leniency */
    return 0;
}

static int read_full(int fd, void *buf, size_t n) {
    char *p = buf;
    while (n) {
        ssize_t k = read(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static void write_full(int fd, const void *buf, size_t n) {
    const char *p = buf;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) _exit(3);
        p += k;
        n -= (size_t)k;
    }
}

/* Runs every workload, at most o->jobs at a time, each in a child that sends its row back. */
static int run_all(const struct char_opts *o, struct row *rows, struct ws_err *e) {
    if (o->jobs == 1 || o->n == 1) {
        for (unsigned k = 0; k < o->n; k++) {
            if (o->n > 1) fprintf(stderr, "  characterize: %s ...\n", o->names[k]);
            run_one(o, o->names[k], &rows[k]);
        }
        return 0;
    }
    pid_t pid[MAX_WL];
    int fd[MAX_WL];
    unsigned next = 0, running = 0, done = 0;
    fflush(NULL);
    while (done < o->n) {
        while (running < o->jobs && next < o->n) {
            int p[2];
            if (pipe(p) != 0) return ws_fail(e, "pipe: %s", strerror(errno));
            pid_t c = fork();
            if (c < 0) return ws_fail(e, "fork: %s", strerror(errno));
            if (c == 0) {
                close(p[0]);
                struct row r;
                run_one(o, o->names[next], &r);
                write_full(p[1], &r, sizeof r);
                _exit(0);
            }
            close(p[1]);
            pid[next] = c;
            fd[next] = p[0];
            fprintf(stderr, "  characterize: %s ...\n", o->names[next]);
            next++;
            running++;
        }
        int status;
        pid_t c = wait(&status);
        if (c < 0) return ws_fail(e, "wait: %s", strerror(errno));
        for (unsigned k = 0; k < next; k++) {
            if (pid[k] != c) continue;
            if (read_full(fd[k], &rows[k], sizeof rows[k]) != 0) {
                memset(&rows[k], 0, sizeof rows[k]);
                snprintf(rows[k].err, sizeof rows[k].err, "the run died (status %d)", status);
            }
            close(fd[k]);
            pid[k] = -1;
            running--;
            done++;
        }
    }
    return 0;
}

static const char *cls_of(const struct row *r) {
    return r->ok && r->s.load_warps ? gpu_load_class(r->s.offchip_per_load) : "-";
}

static void print_text(const struct char_opts *o, const struct row *rows, FILE *out) {
    for (unsigned k = 0; k < o->n; k++) {
        const struct row *r = &rows[k];
        const struct workload_info *wi = workload_find(o->names[k]);
        if (!r->ok) {
            fprintf(out, "warpsim characterize: %s failed: %s\n", o->names[k], r->err);
            continue;
        }
        fprintf(out, "warpsim characterize: %s (%s) on %s, %s size%s\n", o->names[k], wi->suite,
                r->machine, o->size,
                r->s.stopped_early ? " (stopped at the configured limit)" : "");
        fprintf(out, "  %-34s %.2f -> %s (expected %s)\n", "off-chip accesses per load warp",
                r->s.offchip_per_load, cls_of(r), wi->cls);
        fprintf(out, "  %-34s %.2f line requests per warp memory instruction\n",
                "coalescing degree", r->s.coalescing);
        fprintf(out, "  %-34s %.2f (1 ideal, 32 one set)\n", "intra-warp L1D set concentration",
                r->s.l1_concentration);
        fprintf(out, "  %-34s L1D %.1f%%, L2 %.1f%%\n", "miss rates", 100 * r->s.l1_miss_rate,
                100 * r->s.l2_miss_rate);
        fprintf(out, "  %-34s %.1f%% of %llu warp instructions\n", "memory instructions",
                100 * r->s.mem_inst_share, (unsigned long long)r->s.warp_insts);
        fprintf(out, "  %-34s %.2f over %llu cycles, %llu kernels (%.1f s)\n", "IPC", r->s.ipc,
                (unsigned long long)r->s.cycles, (unsigned long long)r->s.kernels,
                r->s.host_seconds);
    }
}

static int write_markdown(const struct char_opts *o, const struct row *rows, struct ws_err *e) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return ws_fail(e, "out of memory");
    const char *machine = "";
    for (unsigned k = 0; k < o->n; k++)
        if (rows[k].ok) machine = rows[k].machine;
    fprintf(f, "# Workloads\n\nMade by `warpsim");
    for (int i = 1; i < o->argc; i++) fprintf(f, " %s", o->argv[i]);
    fprintf(f,
            "` on the %s machine at %s size.\n\n"
            "- **Off-chip / load warp**: mean off-chip accesses per global load warp "
            "instruction, in 32 B sectors served from DRAM (sectors that hit in the L1 or L2 do "
            "not count; a request merged into a DRAM fetch already under way does); the class "
            "follows seed 000 §3.1 (LOA < 2, MOA 2-8, HOA > 8). "
            "**Expected** is the class the papers give (seed 000 Table 1; `-` where none).\n"
            "- **Coalescing**: line requests per warp memory instruction that went through the "
            "coalescer (1 = fully coalesced, 32 = one line per lane).\n"
            "- **Concentration**: intra-warp L1D set concentration of global loads (seed 001 "
            "Eq. 3.1): line accesses / distinct L1D sets, 1 ideal, 32 when all hit one set.\n"
            "- **Mem share**: memory warp instructions (global, local, shared, atomic) / all.\n\n",
            machine, o->size);
    fprintf(f, "| Workload | Suite | Expected | Class | Off-chip / load warp | Coalescing | "
               "Concentration | L1D miss | L2 miss | Mem share | IPC | Warp insts | Description "
               "|\n|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    unsigned with_cls = 0, match = 0;
    for (unsigned k = 0; k < o->n; k++) {
        const struct row *r = &rows[k];
        const struct workload_info *wi = workload_find(o->names[k]);
        if (strcmp(wi->cls, "-") != 0) {
            with_cls++;
            match += strcmp(wi->cls, cls_of(r)) == 0;
        }
        fprintf(f,
                "| %s | %s | %s | %s | %.2f | %.2f | %.2f | %.1f%% | %.1f%% | %.1f%% | %.1f | "
                "%llu%s | %s |\n",
                wi->name, wi->suite, wi->cls, cls_of(r), r->s.offchip_per_load, r->s.coalescing,
                r->s.l1_concentration, 100 * r->s.l1_miss_rate, 100 * r->s.l2_miss_rate,
                100 * r->s.mem_inst_share, r->s.ipc, (unsigned long long)r->s.warp_insts,
                r->s.stopped_early ? " (capped)" : "", wi->desc);
    }
    fprintf(f,
            "\nThe measured class equals the expected one for %u of the %u workloads that have "
            "one; docs/workload-classes.md says why the others differ.\n",
            match, with_cls);
    int rc = ferror(f) ? -1 : 0;
    if (fclose(f) != 0 || rc != 0) {
        free(text);
        return ws_fail(e, "out of memory");
    }
    rc = ws_write_text_atomic(o->markdown, text, len, e);
    free(text);
    return rc;
}

int cmd_characterize(int argc, char **argv) {
    static struct char_opts o;
    memset(&o, 0, sizeof o);
    struct ws_err e = {{0}};
    if (parse(&o, argc, argv, &e) != 0) return cli_fail(&e, WS_EXIT_USAGE);
    if (check_values(&o, &e) != 0) return cli_fail(&e, WS_EXIT_INPUT);
    /* the table is written after every run: find a path that cannot take it before them */
    if (o.markdown && ws_check_output(o.markdown, &e) != 0) return cli_fail(&e, WS_EXIT_INPUT);
    struct row *rows = calloc(o.n, sizeof *rows);
    if (!rows) {
        ws_fail(&e, "out of memory");
        return cli_fail(&e, WS_EXIT_INTERNAL);
    }
    int code = WS_EXIT_OK;
    if (o.n > 1 && o.common.nuser_sets > 0 && check_sets(&o, &e) != 0) {
        free(rows);
        return cli_fail(&e, WS_EXIT_INPUT);
    }
    if (run_all(&o, rows, &e) != 0) {
        free(rows);
        return cli_fail(&e, WS_EXIT_INTERNAL);
    }
    unsigned failed = 0;
    for (unsigned k = 0; k < o.n; k++) failed += !rows[k].ok;
    if (!o.markdown) {
        print_text(&o, rows, stdout);
    } else if (failed) {
        /* a table with holes is not written (nor is an older one replaced) */
        for (unsigned k = 0; k < o.n; k++)
            if (!rows[k].ok)
                fprintf(stderr, "warpsim: characterize: %s: %s\n", o.names[k], rows[k].err);
        fprintf(stderr, "warpsim: characterize: %u of %u workloads failed; %s not written\n",
                failed, o.n, o.markdown);
    } else if (write_markdown(&o, rows, &e) != 0) {
        code = cli_fail(&e, WS_EXIT_INPUT);
    }
    if (failed) code = WS_EXIT_INPUT;
    free(rows);
    return code;
}
