/* kernelslist.g reader. */
#include "workload/trace/kernelslist.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "base/lineio.h"

void kl_free(struct kl *k) {
    if (!k) return;
    for (uint32_t i = 0; i < k->n; i++) free(k->cmd[i].path);
    free(k->cmd);
    free(k->path);
    free(k);
}

static bool is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}
static bool is_file(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && !S_ISDIR(st.st_mode);
}

static char *join(const char *dir, const char *name) {
    if (name[0] == '/' || !dir[0]) return strdup(name);
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static struct kl_cmd *push(struct kl *k, uint32_t *cap) {
    if (k->n == *cap) {
        uint32_t c = *cap ? *cap * 2 : 16;
        struct kl_cmd *p = realloc(k->cmd, c * sizeof *p);
        if (!p) return NULL;
        k->cmd = p;
        *cap = c;
    }
    struct kl_cmd *c = &k->cmd[k->n++];
    memset(c, 0, sizeof *c);
    return c;
}

/* "MemcpyHtoD,0x00007f2b2d500000,400" */
static bool parse_copy(const char *s, uint64_t *addr, uint64_t *bytes) {
    s += strlen("MemcpyHtoD");
    while (*s == ' ' || *s == '\t') s++;
    if (*s++ != ',') return false;
    while (*s == ' ' || *s == '\t') s++;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    char *end;
    errno = 0;
    if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
        return false;
    *addr = strtoull(s, &end, 16);
    if (errno || end - s > 16) return false;
    s = end;
    while (*s == ' ' || *s == '\t') s++;
    if (*s++ != ',') return false;
    while (*s == ' ' || *s == '\t') s++;
    if (!(*s >= '0' && *s <= '9')) return false;
    *bytes = strtoull(s, &end, 10);
    if (errno) return false;
    while (*end == ' ' || *end == '\t') end++;
    return *end == '\0';
}

static int add_kernel(struct kl *k, uint32_t *cap, const char *dir, const char *name, long line,
                      struct ws_err *e) {
    struct kl_cmd *c = push(k, cap);
    if (!c || !(c->path = join(dir, name))) return ws_fail(e, "%s: out of memory", k->path);
    c->type = KL_KERNEL;
    c->line = line;
    if (is_file(c->path)) return 0;
    static const char *const ext[] = {".xz", ".zst", ".gz"};
    for (unsigned i = 0; i < 3; i++) {
        size_t n = strlen(c->path) + 5;
        char *alt = malloc(n);
        if (!alt) return ws_fail(e, "%s: out of memory", k->path);
        snprintf(alt, n, "%s%s", c->path, ext[i]);
        if (is_file(alt)) {
            free(c->path);
            c->path = alt;
            return 0;
        }
        free(alt);
    }
    return ws_fail(e, "%s:%ld: %s: cannot open: %s", k->path, line, c->path, strerror(ENOENT));
}

long kl_kernel_number(const char *name) {
    if (strncmp(name, "kernel-", 7) != 0) return -1;
    char *end;
    long n = strtol(name + 7, &end, 10);
    return end != name + 7 && strncmp(end, ".traceg", 7) == 0 ? n : -1;
}

static int by_kernel_number(const struct dirent **a, const struct dirent **b) {
    long x = kl_kernel_number((*a)->d_name), y = kl_kernel_number((*b)->d_name);
    return x < y ? -1 : x > y;
}

static int is_kernel_trace(const struct dirent *d) {
    return kl_kernel_number(d->d_name) >= 0;
}

/* A folder without kernelslist.g (a single kernel's trace, as some tools ship them): its
 * kernel-N.traceg files in order of N, with no copies. */
static struct kl *load_folder(struct kl *k, const char *dir, struct ws_err *e) {
    struct dirent **ents;
    int n = scandir(dir, &ents, is_kernel_trace, by_kernel_number);
    if (n <= 0) {
        if (n == 0) free(ents);
        ws_fail(e, "%s: no kernelslist.g and no kernel-N.traceg files", dir);
        kl_free(k);
        return NULL;
    }
    uint32_t cap = 0;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        if (!rc) rc = add_kernel(k, &cap, dir, ents[i]->d_name, 0, e);
        free(ents[i]);
    }
    free(ents);
    if (rc) {
        kl_free(k);
        return NULL;
    }
    return k;
}

struct kl *kl_load(const char *path, struct ws_err *e) {
    struct kl *k = calloc(1, sizeof *k);
    if (!k) return ws_fail(e, "%s: out of memory", path), NULL;
    if (is_dir(path)) {
        char *list = join(path, "kernelslist.g");
        bool have = list && is_file(list);
        free(list);
        if (!have) {
            k->path = strdup(path);
            if (!k->path) {
                kl_free(k);
                return ws_fail(e, "%s: out of memory", path), NULL;
            }
            return load_folder(k, path, e);
        }
    }
    k->path = is_dir(path) ? join(path, "kernelslist.g") : strdup(path);
    char *dir = k->path ? strdup(k->path) : NULL;
    if (!k->path || !dir) {
        free(dir);
        kl_free(k);
        return ws_fail(e, "%s: out of memory", path), NULL;
    }
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        dir[0] = '\0';
    uint32_t cap = 0;
    struct ws_lines *l = ws_lines_open(k->path, e);
    const char *line;
    bool first = true;
    while (l && (line = ws_lines_next(l, e))) {
        while (*line == ' ' || *line == '\t') line++;
        if (!*line) continue;
        long ln = ws_lines_lineno(l);
        if (first && (*line == '-' || *line == '#')) {
            /* A kernel trace itself (its header starts with "-kernel name = "). */
            ws_lines_close(l);
            l = NULL;
            if (add_kernel(k, &cap, "", k->path, 0, e)) goto fail;
            break;
        }
        first = false;
        if (strncmp(line, "MemcpyHtoD", 10) == 0) {
            struct kl_cmd *c = push(k, &cap);
            if (!c) {
                ws_fail(e, "%s: out of memory", k->path);
                goto fail;
            }
            c->type = KL_COPY;
            c->line = ln;
            if (!parse_copy(line, &c->addr, &c->bytes)) {
                ws_fail(e,
                        "%s:%ld: bad copy line (expected MemcpyHtoD,<hex address>,<bytes>): '%s'",
                        k->path, ln, line);
                goto fail;
            }
        } else if (strncmp(line, "kernel", 6) == 0) {
            char name[4096];
            size_t n = strlen(line);
            while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t')) n--;
            if (n >= sizeof name) {
                ws_fail(e, "%s:%ld: kernel file name too long", k->path, ln);
                goto fail;
            }
            memcpy(name, line, n);
            name[n] = '\0';
            if (add_kernel(k, &cap, dir, name, ln, e)) goto fail;
        } else {
            k->ignored++;
        }
    }
    if (!l && k->n == 0) goto fail; /* open failed */
    if (l && ws_lines_failed(l)) goto fail;
    ws_lines_close(l);
    free(dir);
    return k;
fail:
    ws_lines_close(l);
    free(dir);
    kl_free(k);
    return NULL;
}
