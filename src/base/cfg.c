/* Typed configuration with origins (see cfg.h). INI parsing is done by inih; this module keeps
 * the settings, checks them against each module's key table and reports file:line on errors. */
#include "base/cfg.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

struct setting {
    char *key, *value, *file;
    long line;
    bool claimed;
};

/* A bound table remembers its values as text, formatted when bound: the struct it filled may be
 * a constructor's local that is gone by the time the configuration is dumped. */
enum { VAL_MAX = CFG_STR_MAX + 32 };
struct binding {
    const char *group;
    const struct cfg_key *keys;
    size_t n;
    const void *obj;
    char (*val)[VAL_MAX];
};

struct note {
    char *key, *text;
};

struct cfg {
    struct setting *set;
    size_t nset, capset;
    struct binding *bind;
    size_t nbind, capbind;
    struct note *note; /* cfg_note_key() */
    size_t nnote, capnote;
    struct note *unread; /* cfg_refuse_set(): bound keys this configuration does not read */
    size_t nunread, capunread;
};

struct cfg *cfg_create(void) {
    return calloc(1, sizeof(struct cfg));
}

void cfg_destroy(struct cfg *c) {
    if (!c) return;
    for (size_t i = 0; i < c->nset; i++) {
        free(c->set[i].key);
        free(c->set[i].value);
        free(c->set[i].file);
    }
    free(c->set);
    for (size_t i = 0; i < c->nbind; i++) free(c->bind[i].val);
    free(c->bind);
    for (size_t i = 0; i < c->nnote; i++) {
        free(c->note[i].key);
        free(c->note[i].text);
    }
    free(c->note);
    for (size_t i = 0; i < c->nunread; i++) {
        free(c->unread[i].key);
        free(c->unread[i].text);
    }
    free(c->unread);
    free(c);
}

static struct setting *find(const struct cfg *c, const char *key) {
    for (size_t i = 0; i < c->nset; i++)
        if (strcasecmp(c->set[i].key, key) == 0) return &c->set[i];
    return NULL;
}

static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

int cfg_set(struct cfg *c, const char *key, const char *value, const char *file, long line,
            struct ws_err *e) {
    if (!key[0]) return ws_fail(e, "%s:%ld: empty key", file, line);
    struct setting *s = find(c, key);
    if (!s) {
        if (c->nset == c->capset) {
            size_t cap = c->capset ? 2 * c->capset : 64;
            struct setting *ns = realloc(c->set, cap * sizeof *ns);
            if (!ns) return ws_fail(e, "out of memory");
            c->set = ns;
            c->capset = cap;
        }
        s = &c->set[c->nset++];
        memset(s, 0, sizeof *s);
        s->key = strdup(key);
    } else {
        free(s->value);
        free(s->file);
    }
    s->value = strdup(value);
    s->file = strdup(file);
    s->line = line;
    return 0;
}

void cfg_arg_key(const char *assign, char *key, size_t n) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%.*s", (int)strcspn(assign, "="), assign);
    snprintf(key, n, "%s", trim(buf));
}

int cfg_set_arg(struct cfg *c, const char *assign, const char *where, struct ws_err *e) {
    char buf[1024];
    if (strlen(assign) >= sizeof buf) return ws_fail(e, "%s: option too long", where);
    strcpy(buf, assign);
    char *eq = strchr(buf, '=');
    if (!eq) return ws_fail(e, "%s: expected section.key=value, got '%s'", where, assign);
    *eq = '\0';
    char *k = trim(buf), *v = trim(eq + 1);
    if (!strchr(k, '.')) return ws_fail(e, "%s: key '%s' needs a section (section.key)", where, k);
    return cfg_set(c, k, v, where, 0, e);
}

/* inih calls the reader once per line, which is how we learn line numbers without inih's
 * optional INI_HANDLER_LINENO build flag. inih reads into a fixed buffer (200 bytes in Debian's
 * build) and parses the rest of a longer line as a line of its own, so the reader takes whole
 * lines itself: a long line loses its comment, which inih would drop anyway (dumps document every
 * key), and one still too long stops the parse with its number in too_long. */
struct ini_src {
    FILE *f;          /* when reading a file */
    const char *text; /* when reading a string */
    long *line;
    struct cfg_ini_pos *pos; /* optional: what the handler may want to know of the line */
    char *buf;               /* the current physical line */
    size_t cap;
    long too_long; /* -1: out of memory */
};

/* Cuts an inline or whole-line comment off, by inih's rules (';' at the start or after a space,
 * '#' at the start), with the blanks before it; returns the new length. */
static size_t strip_comment(char *s, size_t n) {
    size_t i = 0;
    while (i < n && isspace((unsigned char)s[i])) i++;
    if (i < n && (s[i] == ';' || s[i] == '#')) return s[0] = '\0', 0;
    for (; i < n; i++)
        if (s[i] == ';' && i > 0 && isspace((unsigned char)s[i - 1])) break;
    while (i > 0 && isspace((unsigned char)s[i - 1])) i--;
    s[i] = '\0';
    return i;
}

static char *reader(char *str, int num, void *stream) {
    struct ini_src *x = stream;
    ssize_t got;
    if (x->f) {
        got = getline(&x->buf, &x->cap, x->f);
        if (got < 0) return NULL;
    } else {
        if (!*x->text) return NULL;
        size_t n = strcspn(x->text, "\n");
        if (x->text[n] == '\n') n++;
        if (n + 1 > x->cap) {
            char *nb = realloc(x->buf, n + 1);
            if (!nb) return x->too_long = -1, NULL;
            x->buf = nb;
            x->cap = n + 1;
        }
        memcpy(x->buf, x->text, n);
        x->buf[n] = '\0';
        x->text += n;
        got = (ssize_t)n;
    }
    ++*x->line;
    if (x->pos) {
        size_t b = strspn(x->buf, " \t");
        x->pos->indented = b > 0;
        if (x->buf[b] == '[') x->pos->sections++;
    }
    size_t n = (size_t)got;
    while (n > 0 && (x->buf[n - 1] == '\n' || x->buf[n - 1] == '\r')) n--;
    x->buf[n] = '\0';
    /* inih wants room for "\r\n" and the terminator */
    size_t max = num > 3 ? (size_t)num - 3 : 0;
    if (n > max) n = strip_comment(x->buf, n);
    if (n > max) return x->too_long = *x->line, NULL;
    memcpy(str, x->buf, n);
    memcpy(str + n, "\n", 2);
    return str;
}

int cfg_ini_parse(const char *path, const char *text, long *line, cfg_ini_handler_fn handler,
                  void *user) {
    return cfg_ini_parse_ex(path, text, line, NULL, handler, user);
}

int cfg_ini_parse_ex(const char *path, const char *text, long *line, struct cfg_ini_pos *pos,
                     cfg_ini_handler_fn handler, void *user) {
    struct ini_src x = {.text = text, .line = line, .pos = pos};
    *line = 0;
    if (!text && !(x.f = fopen(path, "r"))) return -1;
    struct stat st;
    if (x.f && fstat(fileno(x.f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(x.f);
        errno = EISDIR; /* fopen takes a folder; reading it would look like an empty file */
        return -1;
    }
    int rc = ini_parse_stream(reader, &x, handler, user);
    if (x.f) fclose(x.f);
    free(x.buf);
    if (x.too_long < 0 || rc == -1) return -2;
    /* an error inih found before the long line comes first */
    if (x.too_long > 0 && rc == 0) {
        *line = x.too_long;
        return CFG_INI_TOO_LONG;
    }
    return rc;
}

int cfg_ini_error(const char *name, int rc, long line, struct ws_err *e) {
    if (rc == 0) return 0;
    if (rc == -1 && errno == EISDIR) return ws_fail(e, "%s: is a folder, not a file", name);
    if (rc == -1) return ws_fail(e, "%s: cannot open: %s", name, strerror(errno));
    if (rc == CFG_INI_TOO_LONG)
        return ws_fail(e, "%s:%ld: line longer than %d characters", name, line, INI_MAX_LINE - 3);
    if (rc > 0)
        return ws_fail(e, "%s:%d: malformed line (expected [section] or key = value)", name, rc);
    return ws_fail(e, "%s: cannot read", name);
}

int cfg_ini_finish(const char *name, int rc, long line, long fail_at, struct ws_err *e) {
    /* inih goes on past a malformed line, so a handler may fail later because of it (a key
     * under a broken "[section" is outside any section): the earlier line is the one to fix */
    if (fail_at > 0 && !(rc > 0 && rc < fail_at)) return -1;
    return cfg_ini_error(name, rc, line, e);
}

struct ini_ctx {
    struct cfg *c;
    const char *name;
    long line;
    struct cfg_ini_pos pos;
    char prev[512]; /* the key of the last line, its line and the section headers before it */
    long prev_line, prev_sections;
    int failed;
    long fail_at; /* the line the handler failed on */
    struct ws_err *e;
};

static int cfg_ini_handler(void *user, const char *section, const char *name, const char *value) {
    struct ini_ctx *x = user;
    if (x->failed) return 0;
    char key[512];
    if (!section[0]) {
        ws_fail(x->e, "%s:%ld: key '%s' is outside any [section]", x->name, x->line, name);
        x->failed = 1, x->fail_at = x->line;
        return 0;
    }
    snprintf(key, sizeof key, "%s.%s", section, name);
    if (x->pos.indented && x->pos.sections == x->prev_sections && !strcmp(key, x->prev)) {
        /* inih's multi-line value: the line would replace the value of the key above it */
        ws_fail(x->e,
                "%s:%ld: this indented line continues the value of %s (line %ld); a value is one "
                "line: remove the indentation",
                x->name, x->line, key, x->prev_line);
        x->failed = 1, x->fail_at = x->line;
        return 0;
    }
    snprintf(x->prev, sizeof x->prev, "%s", key);
    x->prev_line = x->line;
    x->prev_sections = x->pos.sections;
    const struct setting *had = find(x->c, key);
    if (had && had->file && !strcmp(had->file, x->name)) {
        /* one of the two is a mistake, and which one was meant cannot be told */
        ws_fail(x->e, "%s:%ld: %s is set again (first at line %ld)", x->name, x->line, key,
                had->line);
        x->failed = 1, x->fail_at = x->line;
        return 0;
    }
    if (cfg_set(x->c, key, value, x->name, x->line, x->e) != 0) {
        x->failed = 1, x->fail_at = x->line;
        return 0;
    }
    return 1;
}

static int finish_parse(struct ini_ctx *x, int rc) {
    return cfg_ini_finish(x->name, rc, x->line, x->failed ? x->fail_at : 0, x->e);
}

int cfg_load_ini(struct cfg *c, const char *path, struct ws_err *e) {
    struct ini_ctx x = {.c = c, .name = path, .e = e};
    if (finish_parse(&x, cfg_ini_parse_ex(path, NULL, &x.line, &x.pos, cfg_ini_handler, &x)) != 0)
        return -1;
    /* a file that sets nothing is the wrong file (or an empty one), not a wish for the defaults:
     * those come from giving no configuration */
    if (x.prev_line == 0)
        return ws_fail(e, "%s: sets no key (no 'key = value' line under a [section])", path);
    return 0;
}

int cfg_load_ini_string(struct cfg *c, const char *name, const char *text, struct ws_err *e) {
    struct ini_ctx x = {.c = c, .name = name, .e = e};
    return finish_parse(&x, cfg_ini_parse_ex(name, text, &x.line, &x.pos, cfg_ini_handler, &x));
}

const char *cfg_raw(const struct cfg *c, const char *key) {
    struct setting *s = find(c, key);
    return s ? s->value : NULL;
}

void cfg_claim(struct cfg *c, const char *key) {
    struct setting *s = find(c, key);
    if (s) s->claimed = true;
}

bool cfg_claimed(const struct cfg *c, const char *key) {
    const struct setting *s = find(c, key);
    return s && s->claimed;
}

const char *cfg_origin(const struct cfg *c, const char *key, char *buf, size_t n) {
    struct setting *s = find(c, key);
    if (!s) {
        snprintf(buf, n, "%s", "default");
    } else if (s->line > 0) {
        snprintf(buf, n, "%s:%ld", s->file, s->line);
    } else {
        snprintf(buf, n, "%s", s->file);
    }
    return buf;
}

static int parse_value(const struct cfg_key *k, const char *text, void *obj, const char *where,
                       struct ws_err *e) {
    char *field = (char *)obj + k->offset;
    char *end = NULL;
    switch (k->type) {
    case CFG_INT: {
        errno = 0;
        long long v = strtoll(text, &end, 0);
        while (end && isspace((unsigned char)*end)) end++;
        if (errno == ERANGE && end != text && !*end) /* an integer, beyond 64 bits */
            return ws_fail(e, "%s: %s = %s is out of range [%.0f, %.0f]", where, k->name, text,
                           k->min, k->max);
        if (errno || end == text || *end)
            return ws_fail(e, "%s: %s = '%s' is not an integer", where, k->name, text);
        if ((double)v < k->min || (double)v > k->max)
            return ws_fail(e, "%s: %s = %lld is out of range [%.0f, %.0f]", where, k->name, v,
                           k->min, k->max);
        *(int64_t *)field = v;
        return 0;
    }
    case CFG_DOUBLE: {
        errno = 0;
        double v = strtod(text, &end);
        while (end && isspace((unsigned char)*end)) end++;
        if (errno || end == text || *end || !isfinite(v))
            return ws_fail(e, "%s: %s = '%s' is not a number", where, k->name, text);
        if (v < k->min || v > k->max)
            return ws_fail(e, "%s: %s = %g is out of range [%g, %g]", where, k->name, v, k->min,
                           k->max);
        *(double *)field = v;
        return 0;
    }
    case CFG_BOOL: {
        static const char *const yes[] = {"true", "1", "yes", "on"};
        static const char *const no[] = {"false", "0", "no", "off"};
        for (int i = 0; i < 4; i++) {
            if (strcasecmp(text, yes[i]) == 0) return *(bool *)field = true, 0;
            if (strcasecmp(text, no[i]) == 0) return *(bool *)field = false, 0;
        }
        return ws_fail(e, "%s: %s = '%s' is not a boolean (true/false)", where, k->name, text);
    }
    case CFG_ENUM: {
        for (int i = 0; k->choices[i]; i++)
            if (strcasecmp(text, k->choices[i]) == 0) return *(int *)field = i, 0;
        char list[512] = "";
        for (int i = 0; k->choices[i]; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, k->choices[i], sizeof list - strlen(list) - 1);
        }
        return ws_fail(e, "%s: %s = '%s' is not one of: %s", where, k->name, text, list);
    }
    case CFG_STRING:
        if (strlen(text) >= CFG_STR_MAX)
            return ws_fail(e, "%s: %s: value longer than %d characters", where, k->name,
                           CFG_STR_MAX - 1);
        strcpy(field, text);
        return 0;
    }
    return ws_fail(e, "%s: %s: bad key type", where, k->name);
}

int cfg_bind(struct cfg *c, const char *group, const struct cfg_key *keys, size_t n, void *obj,
             struct ws_err *e) {
    for (size_t i = 0; i < n; i++) {
        const struct cfg_key *k = &keys[i];
        struct setting *s = find(c, k->name);
        if (s) {
            char where[600];
            cfg_origin(c, k->name, where, sizeof where);
            s->claimed = true;
            if (parse_value(k, s->value, obj, where, e) != 0) return -1;
        } else if (k->def) {
            char where[600];
            snprintf(where, sizeof where, "default of %s", k->name);
            if (parse_value(k, k->def, obj, where, e) != 0) return -1;
        } else if (k->type == CFG_INT || k->type == CFG_DOUBLE) {
            /* A preset value must obey the same range as a user's. */
            double v = k->type == CFG_INT ? (double)*(int64_t *)((char *)obj + k->offset)
                                          : *(double *)((char *)obj + k->offset);
            /* 0 where 0 is not allowed: nothing (no preset, no file) gave the key a value */
            if (v == 0 && k->min > 0)
                return ws_fail(e,
                               "%s is not set: it has no default, and the configuration (or its "
                               "preset) must give it",
                               k->name);
            if (v < k->min || v > k->max)
                return ws_fail(e, "preset: %s = %g is out of range [%g, %g]", k->name, v, k->min,
                               k->max);
        }
    }
    struct binding *bd = NULL;
    for (size_t i = 0; i < c->nbind && !bd; i++)
        /* A group bound twice (e.g. one table per channel) is dumped once, from the last one. */
        if (c->bind[i].keys == keys && strcmp(c->bind[i].group, group) == 0) bd = &c->bind[i];
    if (!bd) {
        if (c->nbind == c->capbind) {
            size_t cap = c->capbind ? 2 * c->capbind : 16;
            struct binding *nb = realloc(c->bind, cap * sizeof *nb);
            if (!nb) return ws_fail(e, "out of memory");
            c->bind = nb;
            c->capbind = cap;
        }
        bd = &c->bind[c->nbind];
        *bd = (struct binding){group, keys, n, obj, calloc(n ? n : 1, VAL_MAX)};
        if (!bd->val) return ws_fail(e, "out of memory");
        c->nbind++;
    }
    bd->obj = obj;
    for (size_t i = 0; i < n; i++) cfg_format_value(&keys[i], obj, bd->val[i], VAL_MAX);
    return 0;
}

static size_t edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 99;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = d[i - 1][j - 1] +
                         (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

void cfg_suggest_offer(struct cfg_suggest *s, const char *name) {
    size_t limit = strlen(s->typed) / 3, d = edit_distance(s->typed, name);
    if (d <= (limit ? limit : 1) && (!s->best || d < s->bestd)) s->best = name, s->bestd = d;
}

/* Appends key -> text to a list of notes (cfg_note_key's, cfg_refuse_set's). */
static int note_add(struct note **list, size_t *n, size_t *capn, const char *key, const char *text,
                    struct ws_err *e) {
    if (*n == *capn) {
        size_t cap = *capn ? 2 * *capn : 16;
        struct note *nl = realloc(*list, cap * sizeof *nl);
        if (!nl) return ws_fail(e, "out of memory");
        *list = nl, *capn = cap;
    }
    struct note *x = &(*list)[*n];
    x->key = strdup(key);
    x->text = strdup(text);
    if (!x->key || !x->text) {
        free(x->key);
        free(x->text);
        return ws_fail(e, "out of memory");
    }
    ++*n;
    return 0;
}

int cfg_note_key(struct cfg *c, const char *key, const char *text, struct ws_err *e) {
    for (size_t i = 0; i < c->nnote; i++)
        if (strcmp(c->note[i].key, key) == 0) return 0;
    return note_add(&c->note, &c->nnote, &c->capnote, key, text, e);
}

static const char *unread_why(const struct cfg *c, const char *key) {
    for (size_t i = 0; i < c->nunread; i++)
        if (strcmp(c->unread[i].key, key) == 0) return c->unread[i].text;
    return NULL;
}

/* Where a setting comes from: 0 unset, 1 a file, 2 the command line (a --set, an option). */
static int level(const struct setting *s) {
    return !s ? 0 : s->line > 0 ? 1 : 2;
}

int cfg_level(const struct cfg *c, const char *key) {
    return level(find(c, key));
}

int cfg_refuse_set(struct cfg *c, const char *key, const char *chooser, const char *why,
                   struct ws_err *e) {
    /* for cfg_dump, which writes the key commented out */
    if (!unread_why(c, key) && note_add(&c->unread, &c->nunread, &c->capunread, key, why, e) != 0)
        return -1;
    struct setting *s = find(c, key);
    /* a file's key for the choice the command line then changed (a preset's mc.row_timeout,
     * and --set mc.row_policy=open) is left alone: the user did not ask for it */
    if (!s || level(s) < (chooser ? level(find(c, chooser)) : 2)) return 0;
    /* else it is not read: reported by cfg_check_unclaimed(), which lets a sweep or
     * characterize give a key only to the jobs that read it */
    s->claimed = false;
    return cfg_note_key(c, key, why, e);
}

static int unclaimed_error(const struct cfg *c, const struct setting *s, struct ws_err *e) {
    char where[600];
    for (size_t i = 0; i < c->nnote; i++) {
        const char *k = c->note[i].key;
        size_t kl = strlen(k);
        /* a note whose key ends in '.' covers every key under that prefix */
        if (kl && k[kl - 1] == '.' ? strncmp(k, s->key, kl) == 0 : strcmp(k, s->key) == 0)
            return ws_fail(e, "%s: key '%s' is not read with this configuration (%s)",
                           cfg_origin(c, s->key, where, sizeof where), s->key, c->note[i].text);
    }
    const char *best = NULL;
    size_t bestd = 4;
    for (size_t b = 0; b < c->nbind; b++)
        for (size_t k = 0; k < c->bind[b].n; k++) {
            size_t d = edit_distance(s->key, c->bind[b].keys[k].name);
            if (d < bestd) bestd = d, best = c->bind[b].keys[k].name;
        }
    for (size_t i = 0; i < c->nnote; i++) { /* keys of this run's other choices, too */
        size_t kl = strlen(c->note[i].key);
        if (kl && c->note[i].key[kl - 1] == '.') continue; /* a prefix, not a key */
        size_t d = edit_distance(s->key, c->note[i].key);
        if (d < bestd) bestd = d, best = c->note[i].key;
    }
    cfg_origin(c, s->key, where, sizeof where);
    if (best)
        ws_fail(e, "%s: unknown key '%s' (did you mean '%s'?)", where, s->key, best);
    else
        ws_fail(e, "%s: unknown key '%s'", where, s->key);
    return CFG_UNKNOWN_KEY;
}

int cfg_check_unclaimed(const struct cfg *c, struct ws_err *e) {
    for (size_t i = 0; i < c->nset; i++)
        if (!c->set[i].claimed) {
            unclaimed_error(c, &c->set[i], e);
            return -1;
        }
    return 0;
}

int cfg_check_key(const struct cfg *c, const char *key, struct ws_err *e) {
    const struct setting *s = find(c, key);
    return s && !s->claimed ? unclaimed_error(c, s, e) : 0;
}

void cfg_format_value(const struct cfg_key *k, const void *obj, char *buf, size_t n) {
    const char *field = (const char *)obj + k->offset;
    switch (k->type) {
    case CFG_INT:
        snprintf(buf, n, "%lld", (long long)*(const int64_t *)field);
        break;
    case CFG_DOUBLE:
        snprintf(buf, n, "%.10g", *(const double *)field);
        break;
    case CFG_BOOL:
        snprintf(buf, n, "%s", *(const bool *)field ? "true" : "false");
        break;
    case CFG_ENUM:
        snprintf(buf, n, "%s", k->choices[*(const int *)field]);
        break;
    case CFG_STRING:
        snprintf(buf, n, "%s", field);
        break;
    }
}

void cfg_dump(const struct cfg *c, FILE *out) {
    for (size_t b = 0; b < c->nbind; b++) {
        const struct binding *bd = &c->bind[b];
        const char *section = "";
        for (size_t i = 0; i < bd->n; i++) {
            const struct cfg_key *k = &bd->keys[i];
            const char *dot = strchr(k->name, '.');
            size_t slen = (size_t)(dot - k->name);
            if (strncmp(section, k->name, slen) != 0 || section[slen] != '.') {
                fprintf(out, "\n[%.*s]\n", (int)slen, k->name);
                section = k->name;
            }
            const char *val = bd->val[i];
            char origin[600];
            cfg_origin(c, k->name, origin, sizeof origin);
            /* a key this configuration does not read stays in the dump, commented out, so that
             * the dump loads back (setting it would be an error) */
            const char *why = unread_why(c, k->name);
            if (why) {
                fprintf(out, "; %-16s = %-14s ; not read with this configuration (%s)\n", dot + 1,
                        val, why);
                continue;
            }
            fprintf(out, "%-18s = %-14s ; %s%s%s%s [%s]\n", dot + 1, val, k->doc,
                    k->unit && k->unit[0] ? " (" : "", k->unit ? k->unit : "",
                    k->unit && k->unit[0] ? ")" : "",
                    strcmp(origin, "default") == 0 && !k->def ? "preset" : origin);
        }
    }
}

void cfg_print_keys(const char *group, const struct cfg_key *keys, size_t n, FILE *out) {
    fprintf(out, "# %s\n", group);
    for (size_t i = 0; i < n; i++) {
        const struct cfg_key *k = &keys[i];
        char range[128] = "";
        if (k->type == CFG_INT) /* whole numbers, so that a bound can be copied as a value */
            snprintf(range, sizeof range, "[%.0f, %.0f]", k->min, k->max);
        else if (k->type == CFG_DOUBLE)
            snprintf(range, sizeof range, "[%g, %g]", k->min, k->max);
        else if (k->type == CFG_ENUM) {
            for (int j = 0; k->choices[j]; j++) {
                strncat(range, j ? "|" : "", sizeof range - strlen(range) - 1);
                strncat(range, k->choices[j], sizeof range - strlen(range) - 1);
            }
        } else if (k->type == CFG_BOOL)
            snprintf(range, sizeof range, "true|false");
        fprintf(out, "%-24s %-22s default %-10s %s%s%s%s\n", k->name, range,
                k->def ? k->def : "(preset)", k->doc, k->unit && k->unit[0] ? " (" : "",
                k->unit ? k->unit : "", k->unit && k->unit[0] ? ")" : "");
    }
}

json_t *cfg_effective_json(const struct cfg *c) {
    json_t *o = json_object();
    for (size_t b = 0; b < c->nbind; b++)
        for (size_t i = 0; i < c->bind[b].n; i++) {
            const struct cfg_key *k = &c->bind[b].keys[i];
            json_object_set_new(o, k->name, json_string(c->bind[b].val[i]));
        }
    return o;
}
