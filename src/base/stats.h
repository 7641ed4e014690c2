/* Statistics: counters are plain uint64_t fields of a module's stats struct, incremented directly
 * on the hot path. Beside the struct, a `const struct stat_desc[]` names each field, its kind,
 * unit and one-line definition. A registry walks those tables to write JSON (jansson) and a text
 * summary; nothing is looked up by string while simulating. */
#pragma once

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "base/err.h"
#include "base/hist.h"

enum stat_kind {
    STAT_COUNTER, /* uint64_t */
    STAT_REAL,    /* double (derived at the end of a run) */
    STAT_HIST,    /* struct ws_hist: reported as count/mean/min/p25/p50/p75/p95/p99/max */
};

struct stat_desc {
    const char *name;
    enum stat_kind kind;
    size_t offset;
    const char *unit;
    const char *doc;
};

struct stats_group {
    char name[64];
    const struct stat_desc *desc;
    size_t n;
    const void *obj;
};

struct stats_reg {
    struct stats_group *g;
    size_t n, cap;
};

void stats_reg_init(struct stats_reg *r);
void stats_reg_free(struct stats_reg *r);
/* Registers a group (e.g. "mc.ch0"); obj must stay valid until output. */
int stats_register(struct stats_reg *r, const char *name, const struct stat_desc *desc, size_t n,
                   const void *obj, struct ws_err *e);
/* Checks a table: every stat has a doc and a unique name. Returns -1 and names the culprit. */
int stats_desc_check(const struct stat_desc *desc, size_t n, struct ws_err *e);

/* {"group": {"stat": value | {hist fields}}}; with_docs adds a parallel "definitions" object. */
json_t *stats_to_json(const struct stats_reg *r);
/* {"group.stat": "definition [unit]"} for every registered statistic. */
json_t *stats_definitions_json(const struct stats_reg *r);
void stats_print_text(const struct stats_reg *r, FILE *out);
