/* Configuration: settings come from INI files (inih), USIMM-style importers and `--set key=value`,
 * each remembered with its origin (file:line). Modules declare their keys in a typed table
 * (struct cfg_key) and bind them to their own struct; after every module has bound, a setting no
 * module claimed is an error that names its origin and suggests the nearest valid key.
 * Order of precedence: key default < module preset (the struct's prior value) < INI < --set. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"

enum cfg_type {
    CFG_INT,    /* int64_t field */
    CFG_DOUBLE, /* double field */
    CFG_BOOL,   /* bool field: true/false/1/0/yes/no/on/off */
    CFG_ENUM,   /* int field holding the index into choices[] */
    CFG_STRING, /* char[CFG_STR_MAX] field */
};

enum { CFG_STR_MAX = 256 };

struct cfg_key {
    const char *name; /* "section.key"; matched case-insensitively */
    enum cfg_type type;
    size_t offset;              /* of the field inside the bound struct */
    const char *def;            /* default as text; NULL keeps the struct's value (preset) */
    double min, max;            /* inclusive range for CFG_INT / CFG_DOUBLE */
    const char *const *choices; /* NULL-terminated, for CFG_ENUM */
    const char *unit;
    const char *doc; /* one line */
};

struct cfg;

struct cfg *cfg_create(void);
void cfg_destroy(struct cfg *c);

/* Reads an INI file; each `key = value` under `[section]` becomes setting "section.key". */
/* Reads INI through inih from `text`, or from the file `path` when text is NULL, counting lines
 * into *line as it goes so that the handler can say where it is. Returns inih's result (0, or the
 * first line the handler or the syntax rejected), -1 when the file cannot be opened (errno
 * says why), -2 when out of memory, CFG_INI_TOO_LONG when line *line is longer than inih takes
 * even without its comment. */
enum { CFG_INI_TOO_LONG = -3 };
typedef int (*cfg_ini_handler_fn)(void *user, const char *section, const char *name,
                                  const char *value);
int cfg_ini_parse(const char *path, const char *text, long *line, cfg_ini_handler_fn handler,
                  void *user);
/* The same, also describing in *pos (when not NULL) the line the handler sees: whether it starts
 * with a blank (inih passes such a line after a key as more of that key's value) and how many
 * section headers came before it (a header ends that). */
struct cfg_ini_pos {
    bool indented;
    long sections;
};
int cfg_ini_parse_ex(const char *path, const char *text, long *line, struct cfg_ini_pos *pos,
                     cfg_ini_handler_fn handler, void *user);
/* The "file:line: ..." message for a cfg_ini_parse() result other than 0 (returns -1; 0 for 0);
 * `line` is the *line it left. */
int cfg_ini_error(const char *name, int rc, long line, struct ws_err *e);
/* A parse's outcome when its handler may have failed (fail_at: that line, 0 if it did not, with
 * the handler's message in e): the malformed line inih found first wins, as the cause. */
int cfg_ini_finish(const char *name, int rc, long line, long fail_at, struct ws_err *e);
/* Loads a configuration file; one that sets no key is an error. */
int cfg_load_ini(struct cfg *c, const char *path, struct ws_err *e);
/* Parses INI text held in memory (tests); `name` is used as the file name in messages. */
int cfg_load_ini_string(struct cfg *c, const char *name, const char *text, struct ws_err *e);
/* Records one setting; later settings of the same key replace earlier ones. */
int cfg_set(struct cfg *c, const char *key, const char *value, const char *file, long line,
            struct ws_err *e);
/* "section.key=value" from the command line; `origin` names it in messages ("--set #2"). */
int cfg_set_arg(struct cfg *c, const char *assign, const char *origin, struct ws_err *e);
/* The key of such an option as cfg_set_arg() reads it (before '=', without surrounding blanks). */
void cfg_arg_key(const char *assign, char *key, size_t n);

/* Raw setting text, or NULL when the key was never set. Does not claim the key. */
const char *cfg_raw(const struct cfg *c, const char *key);
/* Marks a setting as consumed by code that reads it through cfg_raw(). */
void cfg_claim(struct cfg *c, const char *key);
/* Whether `key` is set and something has claimed (read) it. */
bool cfg_claimed(const struct cfg *c, const char *key);

/* Fills obj from keys[0..n): explicit setting, else default (if def != NULL), else keeps the
 * prior struct value; checks type and range; remembers the binding for cfg_dump(). `group` is a
 * name for the dump (e.g. "dram"). Returns -1 with "file:line: ..." on a bad value. */
int cfg_bind(struct cfg *c, const char *group, const struct cfg_key *keys, size_t n, void *obj,
             struct ws_err *e);
/* After binding everything: an unclaimed setting is an error ("unknown key", with a suggestion). */
int cfg_check_unclaimed(const struct cfg *c, struct ws_err *e);
/* A known key that this configuration does not read (a policy's key when another policy is
 * selected): if it is set, cfg_check_unclaimed() says so with `text` (e.g. "read with mc.policy
 * = wafcfs, basjf") instead of calling it unknown. The first note of a key counts. A key ending
 * in '.' notes every key under that prefix. */
int cfg_note_key(struct cfg *c, const char *key, const char *text, struct ws_err *e);
/* Where key was set: 0 not at all, 1 in a file, 2 on the command line (--set or an option). */
int cfg_level(const struct cfg *c, const char *key);
/* For a key bound with the rest of its table but not read under the configuration's other
 * choices (`chooser` is the key that makes them; NULL: the command line): a setting of it at the
 * chooser's level or above is unclaimed, so that cfg_check_unclaimed() reports "not read with
 * this configuration (why)"; one from a file below a command-line choice is left alone.
 * cfg_dump() writes the key commented out. */
int cfg_refuse_set(struct cfg *c, const char *key, const char *chooser, const char *why,
                   struct ws_err *e);
/* The same check for one key (sweeps: a setting may apply to some jobs only): 0, -1 for a key
 * this configuration does not read (a note says why), CFG_UNKNOWN_KEY for one no table has. */
enum { CFG_UNKNOWN_KEY = -2 };
int cfg_check_key(const struct cfg *c, const char *key, struct ws_err *e);

/* "Did you mean" for names other than keys (workloads, presets): offer each valid name in turn;
 * `best` keeps the nearest by edit distance (case-insensitive), when at most a third of the
 * typed name's characters (at least one) would change. Start with {.typed = name}. */
struct cfg_suggest {
    const char *typed;
    const char *best;
    size_t bestd;
};
void cfg_suggest_offer(struct cfg_suggest *s, const char *name);

/* Where a key was set ("file:line"), or "default" — for cross-key error messages. */
const char *cfg_origin(const struct cfg *c, const char *key, char *buf, size_t n);

/* Prints the effective value of every bound key, grouped, with unit and doc, as INI. */
void cfg_dump(const struct cfg *c, FILE *out);
/* Prints the key reference (name, type, range, default, doc) of one table. */
void cfg_print_keys(const char *group, const struct cfg_key *keys, size_t n, FILE *out);

/* {"section.key": "value", ...} of every bound key's effective value (for result files). */
struct json_t;
struct json_t *cfg_effective_json(const struct cfg *c);

/* Field formatting (for dumps and result files). */
void cfg_format_value(const struct cfg_key *k, const void *obj, char *buf, size_t n);

#define CFG_COUNT(a) (sizeof(a) / sizeof((a)[0]))
