/* Atomic result writing (temporary file + rename), so a failed run never leaves half a file. */
#include "base/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int ws_write_json_atomic(const char *path, const json_t *j, struct ws_err *e) {
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return ws_fail(e, "%s: path too long", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return ws_fail(e, "%s: cannot write: %s", tmp, strerror(errno));
    int rc = json_dumpf(j, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
    if (rc == 0 && fputc('\n', f) == EOF) rc = -1;
    if (fclose(f) != 0) rc = -1;
    if (rc != 0) {
        remove(tmp);
        return ws_fail(e, "%s: write failed", tmp);
    }
    if (rename(tmp, path) != 0) {
        int err = errno;
        remove(tmp);
        return ws_fail(e, "%s: cannot rename into place: %s", path, strerror(err));
    }
    return 0;
}

int ws_write_text_atomic(const char *path, const char *text, size_t len, struct ws_err *e) {
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return ws_fail(e, "%s: path too long", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return ws_fail(e, "%s: cannot write: %s", tmp, strerror(errno));
    int rc = fwrite(text, 1, len, f) == len ? 0 : -1;
    if (fclose(f) != 0) rc = -1;
    if (rc != 0) {
        remove(tmp);
        return ws_fail(e, "%s: write failed", tmp);
    }
    if (rename(tmp, path) != 0) {
        int err = errno;
        remove(tmp);
        return ws_fail(e, "%s: cannot rename into place: %s", path, strerror(err));
    }
    return 0;
}
