/* Accel-Sim's command list (kernelslist.g): `MemcpyHtoD,<hex address>,<bytes>` lines (host to
 * device copies, replayed as L2 warm-up) and kernel lines (a .traceg file, relative to the list's
 * folder). Other lines are ignored, as Accel-Sim does. A trace can also be named by its folder
 * (which holds kernelslist.g) or by one kernel's .traceg file (a list of that one kernel). */
#pragma once

#include <stdint.h>

#include "base/err.h"

enum kl_type { KL_COPY, KL_KERNEL };

struct kl_cmd {
    int type;             /* enum kl_type */
    uint64_t addr, bytes; /* KL_COPY */
    char *path;           /* KL_KERNEL: the file, resolved against the list's folder */
    long line;            /* where in the list */
};

struct kl {
    char *path; /* the list (or the single .traceg) */
    struct kl_cmd *cmd;
    uint32_t n;
    uint32_t ignored; /* lines that are neither a copy nor a kernel */
};

/* Reads the list named by `path` (a folder, a kernelslist.g or a .traceg). A kernel line whose
 * file does not exist is tried with .xz, .zst and .gz appended; if none exists, that is an error
 * at the line. */
struct kl *kl_load(const char *path, struct ws_err *e);
void kl_free(struct kl *k);
/* The N of a kernel trace's file name, kernel-<N>.traceg with any suffix (.gz, .xz, .zst), or
 * -1 for another name. */
long kl_kernel_number(const char *name);
