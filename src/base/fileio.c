/* Atomic result writing (temporary file + rename), so a failed run never leaves half a file. */
#include "base/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
