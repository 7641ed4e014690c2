/* Error reporting: parsers and constructors return a status and fill a ws_err with a message
 * that starts with the user's "file:line:"; only src/cli/ prints it and chooses the exit code. */
#pragma once

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Exit codes, kept apart so scripts can tell bad input from a broken simulator. */
enum { WS_EXIT_OK = 0, WS_EXIT_INPUT = 1, WS_EXIT_USAGE = 2, WS_EXIT_INTERNAL = 70 };

struct ws_err {
    char msg[1024];
};

/* Formats into e (if not NULL) and returns -1 so callers can write `return ws_fail(e, ...)`. */
int ws_fail(struct ws_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ws_vfail(struct ws_err *e, const char *fmt, va_list ap);

/* Broken invariant inside the simulator (never bad input): always compiled in. */
void ws_panic_at(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

#define WS_ASSERT(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) ws_panic_at(__FILE__, __LINE__, __VA_ARGS__);                                 \
    } while (0)
