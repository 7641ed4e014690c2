/* Error reporting helpers (see err.h). */
#include "base/err.h"

int ws_vfail(struct ws_err *e, const char *fmt, va_list ap) {
    if (e) vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    return -1;
}

int ws_fail(struct ws_err *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ws_vfail(e, fmt, ap);
    va_end(ap);
    return -1;
}

void ws_panic_at(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "warpsim: internal error at %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    exit(WS_EXIT_INTERNAL);
}
