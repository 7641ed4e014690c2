/* Atomic result writing (temporary file + rename), so a failed run never leaves half a file. */
#include "base/fileio.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ws_write_json_atomic(const char *path, const json_t *j, struct ws_err *e) {
    char *text = json_dumps(j, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
    if (!text) return ws_fail(e, "%s: out of memory", path);
    size_t len = strlen(text);
    char *nl = realloc(text, len + 2);
    if (!nl) {
        free(text);
        return ws_fail(e, "%s: out of memory", path);
    }
    nl[len++] = '\n';
    nl[len] = 0;
    int rc = ws_write_text_atomic(path, nl, len, e);
    free(nl);
    return rc;
}

/* A device, pipe or socket (/dev/null, /dev/stdout, a FIFO) is written in place: renaming a file
 * over it would replace the device node itself (as root, /dev/null became a plain file). */
static bool is_special(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* Writes text to `to`; 0, -1 when it cannot be opened (errno set), -2 when the write fails. */
static int write_file(const char *to, const char *text, size_t len) {
    FILE *f = fopen(to, "w");
    if (!f) return -1;
    int rc = fwrite(text, 1, len, f) == len ? 0 : -2;
    if (fclose(f) != 0) rc = -2;
    return rc;
}

int ws_write_text_atomic(const char *path, const char *text, size_t len, struct ws_err *e) {
    if (is_special(path)) {
        int rc = write_file(path, text, len);
        if (rc == -1) return ws_fail(e, "%s: cannot write: %s", path, strerror(errno));
        return rc ? ws_fail(e, "%s: write failed", path) : 0;
    }
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return ws_fail(e, "%s: path too long", path);
    int rc = write_file(tmp, text, len);
    if (rc == -1) return ws_fail(e, "%s: cannot write (via %s): %s", path, tmp, strerror(errno));
    if (rc != 0) {
        remove(tmp);
        return ws_fail(e, "%s: write failed", path);
    }
    if (rename(tmp, path) != 0) {
        int err = errno;
        remove(tmp);
        return ws_fail(e, "%s: cannot rename into place: %s", path, strerror(err));
    }
    return 0;
}

int ws_check_output(const char *path, struct ws_err *e) {
    struct stat st;
    if (!*path) return ws_fail(e, "-o: empty path");
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return ws_fail(e, "%s: is a folder, not a file", path);
        if (!S_ISREG(st.st_mode))
            return access(path, W_OK) == 0
                       ? 0
                       : ws_fail(e, "%s: cannot write: %s", path, strerror(errno));
    }
    /* The temporary file and the rename need the folder: it must exist and take new files. */
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
        return ws_fail(e, "%s: path too long", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    if (stat(dir, &st) != 0) return ws_fail(e, "%s: folder %s: %s", path, dir, strerror(errno));
    if (!S_ISDIR(st.st_mode)) return ws_fail(e, "%s: %s is not a folder", path, dir);
    if (access(dir, W_OK | X_OK) != 0)
        return ws_fail(e, "%s: cannot create files in %s: %s", path, dir, strerror(errno));
    /* access() says yes to root in pseudo file systems that take no new files (/proc): create
     * (and remove) a short-named file in the folder, so that a long run does not end unable to
     * write */
    char probe[4096 + 16];
    /* mkstemp's template: it replaces the six X with a unique suffix */
    if (snprintf(probe, sizeof probe, "%s/.ws-probe-XXXXXX", dir) >= (int)sizeof probe)
        return ws_fail(e, "%s: path too long", path);
    int fd = mkstemp(probe);
    if (fd < 0) return ws_fail(e, "%s: cannot create files in %s: %s", path, dir, strerror(errno));
    close(fd);
    unlink(probe);
    return 0;
}

int ws_check_not_input(const char *out, const char *in, const char *what, struct ws_err *e) {
    struct stat so, si;
    if (!out || !in || stat(out, &so) != 0 || stat(in, &si) != 0) return 0;
    if (so.st_dev == si.st_dev && so.st_ino == si.st_ino)
        return ws_fail(e, "%s: is %s this command reads (%s); give another output path", out, what,
                       in);
    return 0;
}

void ws_parent_dir(const char *path, char *buf, size_t n) {
    snprintf(buf, n, "%s", path);
    char *slash = strrchr(buf, '/');
    if (!slash)
        snprintf(buf, n, ".");
    else
        slash[slash == buf] = '\0';
}

int ws_check_not_in_folder(const char *out, const char *dir, const char *what, struct ws_err *e) {
    struct stat so, sd, sp;
    if (!out || !dir || stat(out, &so) != 0 || !S_ISREG(so.st_mode) || stat(dir, &sd) != 0)
        return 0;
    char parent[4096];
    ws_parent_dir(out, parent, sizeof parent);
    if (stat(parent, &sp) == 0 && sp.st_dev == sd.st_dev && sp.st_ino == sd.st_ino)
        return ws_fail(e, "%s: is a file of %s this command reads (%s); give another output path",
                       out, what, dir);
    return 0;
}

FILE *ws_open_input(const char *path, struct ws_err *e) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        ws_fail(e, "%s: cannot open: %s", path, strerror(errno ? errno : ENOENT));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        ws_fail(e, "%s: is a folder, not a file", path);
        return NULL;
    }
    return f;
}
