/* GPGPU-Sim option files -> warpsim INI. The option syntax and semantics followed here are those
 * of GPGPU-Sim 4.x as documented in shared/spec/formats-and-presets.md Part A §3. */
#include "gpu/gpgpusim_import.h"

#include "base/fileio.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/cfg.h"

/* ---- small parsing helpers ---- */

static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

/* Unsigned decimal integer of the whole token (surrounding spaces allowed). */
static bool parse_uint(const char *s, unsigned *v) {
    while (isspace((unsigned char)*s)) s++;
    if (!isdigit((unsigned char)*s)) return false;
    char *end;
    unsigned long x = strtoul(s, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    if (*end || x > 0xffffffffUL) return false;
    *v = (unsigned)x;
    return true;
}

static bool is_pow2(unsigned v) {
    return v && !(v & (v - 1));
}
static unsigned log2_ceil(unsigned v) {
    unsigned n = 0;
    while ((1ULL << n) < v) n++;
    return n;
}

/* Splits s (modified in place) at any of delims into at most max tokens; returns the count, or
 * max + 1 when there are more. Empty tokens are kept (they are errors for the callers). */
static unsigned split(char *s, const char *delims, char **tok, unsigned max) {
    unsigned n = 0;
    for (;;) {
        if (n == max) return max + 1;
        tok[n++] = s;
        s += strcspn(s, delims);
        if (!*s) return n;
        *s++ = 0;
    }
}

/* ---- cache strings ---- */

static int cache_fail(struct ws_err *e, const char *where, const char *text, const char *what) {
    return ws_fail(e,
                   "%s: cache config '%s': %s (expected {S|N}:<sets>:<line>:<assoc>,"
                   "<repl>:<wr>:<alloc>:<wr_alloc>[:<set_index>],<mshr>:<entries>:<merge>,"
                   "<miss_queue>[:<fifo>][,<port>])",
                   where, text, what);
}

static bool letter(const char *tok, const char *allowed, char *out) {
    if (strlen(tok) != 1 || !strchr(allowed, tok[0])) return false;
    *out = tok[0];
    return true;
}

int gs_parse_cache(const char *text, struct gs_cache *c, const char *where, struct ws_err *e) {
    memset(c, 0, sizeof *c);
    char buf[256];
    if (strlen(text) >= sizeof buf) return cache_fail(e, where, text, "too long");
    snprintf(buf, sizeof buf, "%s", text);
    char *s = trim(buf);
    if (strcmp(s, "none") == 0) {
        c->none = true;
        return 0;
    }
    char *grp[6];
    unsigned ng = split(s, ",", grp, 5);
    if (ng > 5) return cache_fail(e, where, text, "too many ','-separated groups");
    if (ng < 3) return cache_fail(e, where, text, "missing ','-separated groups");
    /* group 1: [type:]sets:line:assoc (GPGPU-Sim also reads the form without the type) */
    char *f[6];
    unsigned n = split(grp[0], ":", f, 4);
    unsigned k = 0;
    c->sectored = false;
    if (n == 4) {
        char t;
        if (!letter(trim(f[0]), "SN", &t))
            return cache_fail(e, where, text, "cache type must be S (sectored) or N");
        c->sectored = t == 'S';
        k = 1;
    } else if (n != 3 || isalpha((unsigned char)*trim(f[0])))
        return cache_fail(e, where, text, "the geometry needs <sets>:<line>:<assoc>");
    if (!parse_uint(f[k], &c->nsets) || !c->nsets)
        return cache_fail(e, where, text, "bad number of sets");
    if (!parse_uint(f[k + 1], &c->line) || !is_pow2(c->line))
        return cache_fail(e, where, text, "the line size must be a power of two");
    if (!parse_uint(f[k + 2], &c->assoc) || !c->assoc)
        return cache_fail(e, where, text, "bad associativity");
    /* group 2: repl:wr:alloc:wr_alloc[:set_index] */
    n = split(grp[1], ":", f, 5);
    if (n < 4 || n > 5)
        return cache_fail(e, where, text, "the policy group needs <repl>:<wr>:<alloc>:<wr_alloc>");
    if (!letter(trim(f[0]), "LF", &c->repl))
        return cache_fail(e, where, text, "replacement must be L (LRU) or F (FIFO)");
    if (!letter(trim(f[1]), "RBTELN", &c->wr))
        return cache_fail(e, where, text, "write policy must be R, B, T, E or L");
    if (!letter(trim(f[2]), "mfs", &c->alloc))
        return cache_fail(e, where, text, "allocation must be m (on miss), f (on fill) or s");
    if (!letter(trim(f[3]), "NWFL", &c->wr_alloc))
        return cache_fail(e, where, text, "write allocation must be N, W, F or L");
    c->set_index = 'L';
    if (n == 5 && !letter(trim(f[4]), "LXHPC", &c->set_index))
        return cache_fail(e, where, text, "set index must be L, X, H, P or C");
    /* group 3: mshr_type:entries:merge */
    n = split(grp[2], ":", f, 3);
    if (n != 3) return cache_fail(e, where, text, "the MSHR group needs <type>:<entries>:<merge>");
    if (!letter(trim(f[0]), "AFTS", &c->mshr_type))
        return cache_fail(e, where, text, "MSHR type must be A, F, T or S");
    if (!parse_uint(f[1], &c->mshr_entries)) return cache_fail(e, where, text, "bad MSHR count");
    if (!parse_uint(f[2], &c->mshr_merge)) return cache_fail(e, where, text, "bad MSHR merge");
    /* group 4: miss_queue[:result_fifo] (optional in old configs: then 0), [,data port] */
    if (ng >= 4) {
        n = split(grp[3], ":", f, 2);
        if (n > 2) return cache_fail(e, where, text, "the queue group needs <miss_queue>[:<fifo>]");
        if (!parse_uint(f[0], &c->miss_queue))
            return cache_fail(e, where, text, "bad miss-queue size");
        if (n == 2 && !parse_uint(f[1], &c->result_fifo))
            return cache_fail(e, where, text, "bad result-FIFO size");
    } else
        return cache_fail(e, where, text, "missing the miss-queue group");
    /* a data-port width follows as a fifth group in Accel-Sim configs */
    if (ng == 5 && !parse_uint(grp[4], &c->data_port))
        return cache_fail(e, where, text, "bad data-port width");
    return 0;
}

/* ---- DRAM timing ---- */

static const char *const timing_names[14] = {"nbk", "CCD", "RRD",  "RCD", "RAS",    "RP",   "RC",
                                             "CL",  "WL",  "CDLR", "WR",  "nbkgrp", "CCDL", "RTPL"};

int gs_parse_dram_timing(const char *text, struct gs_dram_timing *t, const char *where,
                         struct ws_err *e) {
    unsigned *v[14] = {&t->nbk, &t->CCD, &t->RRD,  &t->RCD, &t->RAS,    &t->RP,   &t->RC,
                       &t->CL,  &t->WL,  &t->CDLR, &t->WR,  &t->nbkgrp, &t->CCDL, &t->RTPL};
    memset(t, 0, sizeof *t);
    t->nbkgrp = 1;
    char buf[512];
    if (strlen(text) >= sizeof buf)
        return ws_fail(e, "%s: DRAM timing '%s' is too long", where, text);
    snprintf(buf, sizeof buf, "%s", text);
    char *s = trim(buf);
    if (strchr(s, '=')) {
        /* named form: name=value pairs separated by ':' ';' (and spaces/newlines) */
        bool seen[14] = {false};
        char *save = NULL;
        for (char *p = strtok_r(s, ":; \t\r\n", &save); p; p = strtok_r(NULL, ":; \t\r\n", &save)) {
            char *eq = strchr(p, '=');
            if (!eq) return ws_fail(e, "%s: DRAM timing: '%s' is not name=value", where, p);
            *eq = 0;
            int k = -1;
            for (int i = 0; i < 14; i++)
                if (strcmp(p, timing_names[i]) == 0) k = i;
            if (k < 0)
                return ws_fail(e,
                               "%s: DRAM timing: unknown parameter '%s' (nbk CCD RRD RCD RAS RP "
                               "RC CL WL CDLR WR nbkgrp CCDL RTPL)",
                               where, p);
            if (!parse_uint(eq + 1, v[k]))
                return ws_fail(e, "%s: DRAM timing: %s = '%s' is not a number", where, p, eq + 1);
            seen[k] = true;
        }
        for (int i = 0; i <= 10; i++)
            if (!seen[i])
                return ws_fail(e, "%s: DRAM timing '%s' lacks %s", where, text, timing_names[i]);
    } else {
        char *tok[15];
        unsigned n = split(s, ":", tok, 14);
        if (n != 14 && n != 11)
            return ws_fail(e,
                           "%s: DRAM timing '%s': the positional form has 14 fields "
                           "(nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR:nbkgrp:CCDL:RTPL), got %u",
                           where, text, n > 14 ? 15 : n);
        for (unsigned i = 0; i < n; i++)
            if (!parse_uint(tok[i], v[i]))
                return ws_fail(e, "%s: DRAM timing: %s = '%s' is not a number", where,
                               timing_names[i], trim(tok[i]));
    }
    if (!t->nbk || !t->nbkgrp || t->nbk % t->nbkgrp)
        return ws_fail(e, "%s: DRAM timing: nbk = %u is not a multiple of nbkgrp = %u", where,
                       t->nbk, t->nbkgrp);
    return 0;
}

/* ---- address mapping ---- */

int gs_parse_addr_map(const char *text, unsigned nch, struct gs_addr_map *m, const char *where,
                      struct ws_err *e) {
    memset(m, 0, sizeof *m);
    m->dramid_bit = -1;
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    if (strncmp(p, "dramid@", 7) == 0) {
        char *end;
        long b = strtol(p + 7, &end, 10);
        if (end == p + 7 || *end != ';' || b < 0 || b > 63)
            return ws_fail(e, "%s: address mapping '%s': expected dramid@<bit>;<map>", where, text);
        m->dramid_bit = (int)b;
        p = end + 1;
    }
    char raw[65];
    unsigned n = 0;
    for (; *p; p++) {
        if (*p == '.' || *p == '|' || isspace((unsigned char)*p)) continue;
        if (!strchr("0RBCSD", *p))
            return ws_fail(e, "%s: address mapping: unknown letter '%c' (use 0 R B C S D)", where,
                           *p);
        if (n == 64) return ws_fail(e, "%s: address mapping has more than 64 letters", where);
        raw[n++] = *p;
    }
    if (n != 64)
        return ws_fail(e, "%s: address mapping has %u letters, expected 64 (bit 63 first)", where,
                       n);
    raw[64] = 0;
    if (m->dramid_bit < 0) {
        memcpy(m->bits, raw, 65);
        return 0;
    }
    if (strchr(raw, 'D'))
        return ws_fail(e, "%s: address mapping uses D and dramid@ together", where);
    /* insert the channel bits at dramid_bit: address bits at and above it move up */
    unsigned chb = log2_ceil(nch);
    char lsb[64]; /* lsb[i] = letter of bit i */
    for (unsigned i = 0; i < 64; i++) lsb[i] = raw[63 - i];
    char out[64];
    for (unsigned i = 0; i < 64; i++) {
        unsigned b = (unsigned)m->dramid_bit;
        if (i < b)
            out[i] = lsb[i];
        else if (i < b + chb)
            out[i] = 'D';
        else
            out[i] = lsb[i - chb];
    }
    for (unsigned i = 64 - chb; i < 64; i++)
        if (lsb[i] != '0')
            return ws_fail(e,
                           "%s: address mapping: inserting %u channel bits at bit %d pushes a "
                           "used bit past bit 63",
                           where, chb, m->dramid_bit);
    for (unsigned i = 0; i < 64; i++) m->bits[63 - i] = out[i];
    m->bits[64] = 0;
    return 0;
}

int gs_addr_map_to_warpsim(const struct gs_addr_map *m, unsigned nch, unsigned burst_bits,
                           unsigned bg_bits, bool bg_low, char *out, size_t n, unsigned *row_bits,
                           unsigned *col_bits, const char *where, struct ws_err *e) {
    char lsb[64];
    unsigned nd = 0, nb = 0, nr = 0, nc = 0;
    for (unsigned i = 0; i < 64; i++) {
        lsb[i] = m->bits[63 - i];
        nd += lsb[i] == 'D';
        nb += lsb[i] == 'B';
        nr += lsb[i] == 'R';
        nc += lsb[i] == 'C' || lsb[i] == 'S';
    }
    if (nd != log2_ceil(nch))
        return ws_fail(e, "%s: address mapping has %u channel bits, %u channels need %u", where, nd,
                       nch, log2_ceil(nch));
    if (bg_bits > nb)
        return ws_fail(e, "%s: address mapping has %u bank bits, fewer than %u bank-group bits",
                       where, nb, bg_bits);
    if (nc < burst_bits)
        return ws_fail(e, "%s: address mapping has %u column/burst bits, a burst needs %u", where,
                       nc, burst_bits);
    /* letters in warpsim's alphabet: the lowest column bits are the burst offset; bank-group
     * bits are the high or the low bank bits as -dram_bnkgrp_indexing_policy says */
    char w[64];
    unsigned seen_c = 0, seen_b = 0;
    for (unsigned i = 0; i < 64; i++) {
        char ch = lsb[i];
        if (ch == 'C' || ch == 'S')
            ch = seen_c++ < burst_bits ? 'S' : 'C';
        else if (ch == 'B') {
            bool g = bg_low ? seen_b < bg_bits : seen_b >= nb - bg_bits;
            seen_b++;
            ch = g ? 'G' : 'B';
        } else if (ch == 'D')
            ch = 'H';
        w[i] = ch;
    }
    *row_bits = nr;
    *col_bits = nc - burst_bits;
    if (is_pow2(nch)) {
        /* bit string from the highest used bit down */
        int top = 63;
        while (top > 0 && w[top] == '0') top--;
        if ((size_t)top + 2 > n) return ws_fail(e, "%s: address map too long", where);
        size_t k = 0;
        for (int i = top; i >= 0; i--) out[k++] = w[i];
        out[k] = 0;
        return 0;
    }
    /* non-power-of-two channels: a field list (bits allocated upward from the burst offset, so
     * no unused bit may lie below the top one), channel as one modulo field */
    int top = 63;
    while (top > 0 && w[top] == '0') top--;
    for (int i = 0; i <= top; i++)
        if (w[i] == '0')
            return ws_fail(e,
                           "%s: address mapping leaves bit %d unused below bit %d, which a "
                           "field-list map for %u channels cannot express",
                           where, i, top, nch);
    char tmp[512] = "";
    size_t k = 0;
    unsigned ntok = 0;
    for (int i = top; i >= (int)burst_bits;) {
        int j = i;
        while (j - 1 >= (int)burst_bits && w[j - 1] == w[i]) j--;
        unsigned len = (unsigned)(i - j + 1);
        const char *nm = w[i] == 'R'   ? "row"
                         : w[i] == 'G' ? "bg"
                         : w[i] == 'B' ? "ba"
                         : w[i] == 'C' ? "col"
                                       : "ch";
        if (w[i] == 'H')
            k += (size_t)snprintf(tmp + k, sizeof tmp - k, "%s%s", ntok ? ":" : "", nm);
        else
            k += (size_t)snprintf(tmp + k, sizeof tmp - k, "%s%s/%u", ntok ? ":" : "", nm, len);
        ntok++;
        if (k >= sizeof tmp) return ws_fail(e, "%s: address map too long", where);
        i = j - 1;
    }
    if (ntok > 16)
        return ws_fail(e, "%s: address mapping splits into %u runs, more than a field list holds",
                       where, ntok);
    if (strlen(tmp) + 1 > n) return ws_fail(e, "%s: address map too long", where);
    snprintf(out, n, "%s", tmp);
    return 0;
}

/* ---- clocks ---- */

int gs_parse_clocks(const char *text, struct gs_clocks *c, const char *where, struct ws_err *e) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    char *tok[5];
    unsigned n = split(trim(buf), ":", tok, 4);
    if (n != 4)
        return ws_fail(e, "%s: clock domains '%s': expected <core>:<icnt>:<l2>:<dram> MHz", where,
                       text);
    double *v[4] = {&c->core, &c->icnt, &c->l2, &c->dram};
    for (unsigned i = 0; i < 4; i++) {
        char *end;
        *v[i] = strtod(tok[i], &end);
        if (end == tok[i] || *trim(end) || !(*v[i] > 0) || *v[i] > 100000)
            return ws_fail(e, "%s: clock domains '%s': '%s' is not a frequency in MHz", where, text,
                           trim(tok[i]));
    }
    return 0;
}

/* ---- option store ---- */

struct gs_opt {
    char *name, *value;
    char where[300]; /* "file:line" */
    bool used;
};

struct gs_opts {
    struct gs_opt *v;
    unsigned n, cap;
    char sources[600]; /* the files loaded, "a + b": where an option that is missing is not */
};

struct gs_opts *gs_opts_create(void) {
    return calloc(1, sizeof(struct gs_opts));
}

void gs_opts_destroy(struct gs_opts *o) {
    if (!o) return;
    for (unsigned i = 0; i < o->n; i++) {
        free(o->v[i].name);
        free(o->v[i].value);
    }
    free(o->v);
    free(o);
}

unsigned gs_opts_count(const struct gs_opts *o) {
    return o->n;
}

static void opts_put(struct gs_opts *o, const char *name, const char *value, const char *file,
                     long line) {
    struct gs_opt *x = NULL;
    for (unsigned i = 0; i < o->n; i++)
        if (strcmp(o->v[i].name, name) == 0) x = &o->v[i];
    if (x) {
        free(x->value);
    } else {
        if (o->n == o->cap) {
            o->cap = o->cap ? 2 * o->cap : 64;
            o->v = realloc(o->v, o->cap * sizeof *o->v);
            if (!o->v) abort();
        }
        x = &o->v[o->n++];
        x->name = strdup(name);
    }
    x->value = strdup(value);
    x->used = false;
    snprintf(x->where, sizeof x->where, "%s:%ld", file, line);
}

/* A line "-name value [# comment]": fills name/value (pointers into line, which is modified). */
static bool option_line(char *line, char **name, char **value) {
    char *s = trim(line);
    if (s[0] != '-' || !(isalpha((unsigned char)s[1]) || s[1] == '_')) return false;
    s++;
    size_t k = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:");
    if (s[k] && !isspace((unsigned char)s[k])) return false;
    char *v = s + k;
    if (*v) *v++ = 0;
    *name = s;
    /* a comment starts at a '#' at the start of the value or after a space */
    for (char *p = v; *p; p++)
        if (*p == '#' && (p == v || isspace((unsigned char)p[-1]))) {
            *p = 0;
            break;
        }
    v = trim(v);
    /* one pair of quotes around the value is not part of it */
    size_t n = strlen(v);
    if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
        v[n - 1] = 0;
        v++;
    }
    *value = trim(v);
    return true;
}

int gs_opts_load_string(struct gs_opts *o, const char *name, const char *text, struct ws_err *e) {
    size_t used = strlen(o->sources);
    snprintf(o->sources + used, sizeof o->sources - used, "%s%s", used ? " + " : "", name);
    bool log = strstr(text, "Configuration options:") != NULL;
    bool in_block = !log;
    bool block_done = false;
    long lineno = 0;
    const char *p = text;
    char *acc = NULL; /* a quoted value continued on following lines */
    size_t acc_len = 0;
    char acc_name[128] = "";
    long acc_line = 0;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = malloc(len + 1);
        if (!line) abort();
        memcpy(line, p, len);
        line[len] = 0;
        p += len + (nl ? 1 : 0);
        lineno++;
        if (acc) {
            /* inside a multi-line quoted value: join until the closing quote */
            char *q = strchr(line, '"');
            if (q) *q = 0;
            size_t add = strlen(line);
            acc = realloc(acc, acc_len + add + 2);
            if (!acc) abort();
            acc[acc_len++] = ' ';
            memcpy(acc + acc_len, line, add + 1);
            acc_len += add;
            if (q) {
                opts_put(o, acc_name, trim(acc), name, acc_line);
                free(acc);
                acc = NULL;
            }
            free(line);
            continue;
        }
        if (log && !in_block) {
            if (!block_done && strstr(line, "Configuration options:")) in_block = true;
            free(line);
            continue;
        }
        char *t = trim(line);
        char *on, *ov;
        if (!*t || t[0] == '#') {
            free(line);
            continue;
        }
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", t);
        if (option_line(t, &on, &ov)) {
            /* an opening quote without its close: the value goes on */
            char *q = strchr(copy, '"');
            if (q && !strchr(q + 1, '"')) {
                snprintf(acc_name, sizeof acc_name, "%s", on);
                acc = strdup(q + 1);
                acc_len = strlen(acc);
                acc_line = lineno;
            } else
                opts_put(o, on, ov, name, lineno);
        } else if (log) {
            /* the option block of a log ends at its first other line */
            in_block = false;
            block_done = true;
        } else {
            free(line);
            return ws_fail(e, "%s:%ld: not a '-option value' line: '%.60s'", name, lineno, copy);
        }
        free(line);
    }
    if (acc) {
        free(acc);
        return ws_fail(e, "%s:%ld: -%s: the quoted value is never closed", name, acc_line,
                       acc_name);
    }
    if (log && !o->n) return ws_fail(e, "%s: an Accel-Sim log without '-option value' lines", name);
    return 0;
}

int gs_opts_load(struct gs_opts *o, const char *path, struct ws_err *e) {
    FILE *f = ws_open_input(path, e);
    if (!f) return -1;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) abort();
    size_t r;
    while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) abort();
        }
    }
    fclose(f);
    buf[n] = 0;
    if (memchr(buf, 0, n)) {
        free(buf);
        return ws_fail(e, "%s: binary file, not a GPGPU-Sim configuration", path);
    }
    int rc = gs_opts_load_string(o, path, buf, e);
    free(buf);
    return rc;
}

/* ---- import ---- */

struct imp {
    struct gs_opts *o;
    FILE *out;
    char *unm; /* the unmapped block, built as we go */
    size_t unm_len;
    FILE *unm_f;
    unsigned nunm;
    struct ws_err *e;
};

static struct gs_opt *find(struct imp *im, const char *name) {
    for (unsigned i = 0; i < im->o->n; i++)
        if (strcmp(im->o->v[i].name, name) == 0) return &im->o->v[i];
    return NULL;
}

/* Value of an option (and marks it mapped); NULL when absent. */
static const char *get(struct imp *im, const char *name, const char **where) {
    struct gs_opt *x = find(im, name);
    if (!x) return NULL;
    x->used = true;
    if (where) *where = x->where;
    return x->value;
}

static void note_unmapped(struct imp *im, const char *name, const char *value, const char *why) {
    fprintf(im->unm_f, "; unmapped: -%s %s%s%s%s\n", name, value, why ? "  (" : "", why ? why : "",
            why ? ")" : "");
    im->nunm++;
}

/* An unsigned option; def when absent. */
static int get_uint(struct imp *im, const char *name, unsigned def, unsigned *v) {
    const char *w;
    const char *s = get(im, name, &w);
    if (!s) {
        *v = def;
        return 0;
    }
    if (!parse_uint(s, v)) return ws_fail(im->e, "%s: -%s '%s' is not a number", w, name, s);
    return 0;
}

/* Required option: a clear error when absent. */
static const char *need(struct imp *im, const char *name, const char **where, const char *why) {
    const char *s = get(im, name, where);
    if (!s)
        ws_fail(im->e, "%s: the configuration lacks -%s (needed for %s)", im->o->sources, name,
                why);
    return s;
}

static const char *alloc_name(char a) {
    return a == 'm' ? "on-miss" : "on-fill";
}

static int write_cache(struct imp *im, const char *sec, const char *opt, unsigned hit_lat,
                       const char *lat_src, bool skip) {
    const char *w;
    const char *s = need(im, opt, &w, sec);
    if (!s) return -1;
    struct gs_cache c;
    if (gs_parse_cache(s, &c, w, im->e) != 0) return -1;
    FILE *f = im->out;
    fprintf(f, "\n[%s]\n; -%s %s\n", sec, opt, s);
    if (c.none) {
        /* no cache: a minimal one that keeps nothing */
        fprintf(f,
                "sets = 1\nways = 1\nline = 128\nsector = 32\nmshrs = 64\nmshr_merge = 8\n"
                "miss_queue = 8\nhit_lat = %u\nalloc = on-fill\nwrite = write-evict\n"
                "write_alloc = no-write-alloc\nstreaming = true ; 'none': nothing is kept\n"
                "index = linear\nrepl = lru\n",
                hit_lat);
        return 0;
    }
    fprintf(f, "sets = %u\nways = %u\nline = %u\n", c.nsets, c.assoc, c.line);
    fprintf(f, "sector = %u%s\n", c.sectored ? 32u : c.line,
            c.sectored ? "          ; S: 32 B sectors" : "          ; N: whole-line fetches");
    unsigned merge = c.mshr_merge ? c.mshr_merge : 1;
    fprintf(f, "mshrs = %u\nmshr_merge = %u\n", c.mshr_entries ? c.mshr_entries : 1, merge);
    fprintf(f, "miss_queue = %u\n", c.miss_queue ? c.miss_queue : 1);
    fprintf(f, "hit_lat = %u        ; %s\n", hit_lat, lat_src);
    fprintf(f, "alloc = %s%s\n", alloc_name(c.alloc),
            c.alloc == 's' ? "       ; s (streaming): GPGPU-Sim allocates when the data arrive"
                           : "");
    const char *wr;
    switch (c.wr) {
    case 'B':
        wr = "write-back";
        break;
    case 'T':
        wr = "write-through";
        break;
    case 'E':
        wr = "write-evict";
        break;
    case 'L':
        /* GPGPU-Sim's LOCAL_WB_GLOBAL_WT takes the write-evict hit path for global stores
         * (wr_hit_global_we_local_wb) and write-back for local ones; warpsim has one policy per
         * cache, and global traffic dominates */
        wr = "write-evict ; L: global write-evict (local write-back is not modelled)";
        break;
    case 'N': /* GPGPU-Sim's no-write */
    default:  /* R: read-only cache; its writes are never cached */
        wr = "write-evict ; read-only: a write invalidates and goes down";
        break;
    }
    /* GPGPU-Sim's allocate-on-fill caches stamp a line for LRU when a fill allocates it or a
     * sector into it (tag_array::fill), never at a miss access */
    if (c.alloc != 'm') fprintf(f, "touch = fill        ; LRU use at the fill, not the miss\n");
    fprintf(f, "write = %s\n", wr);
    /* (write-evict, 'L' included, never allocates on a write) */
    bool walloc = c.wr_alloc != 'N' && (c.wr == 'B' || c.wr == 'T');
    fprintf(f, "write_alloc = %s%s\n", walloc ? "write-alloc" : "no-write-alloc",
            c.wr_alloc == 'L' || c.wr_alloc == 'F' ? " ; lazy/fetch-on-read write allocation" : "");
    fprintf(f, "streaming = %s%s\n", skip ? "true" : "false",
            skip ? " ; -gpgpu_gmem_skip_L1D 1: global accesses bypass the L1D" : "");
    const char *idx = c.set_index == 'X' ? "xor" : c.set_index == 'H' ? "fermi" : "linear";
    fprintf(f, "index = %s\n", idx);
    fprintf(f, "repl = lru\n");
    char why[200];
    if (c.set_index == 'P' || c.set_index == 'C') {
        snprintf(why, sizeof why, "part: set index %c (%s) has no warpsim equivalent; linear used",
                 c.set_index, c.set_index == 'P' ? "IPOLY hash" : "custom");
        note_unmapped(im, opt, s, why);
    }
    if (c.repl == 'F') note_unmapped(im, opt, s, "part: FIFO replacement; lru used");
    if (c.mshr_type != 'A' && c.mshr_type != 'S') {
        snprintf(why, sizeof why, "part: MSHR type %c; an associative MSHR is modelled",
                 c.mshr_type);
        note_unmapped(im, opt, s, why);
    }
    if (c.data_port) note_unmapped(im, opt, s, "part: data-port width has no warpsim key");
    if (c.result_fifo) note_unmapped(im, opt, s, "part: result-FIFO size has no warpsim key");
    if (!c.miss_queue || !c.mshr_entries || !c.mshr_merge)
        note_unmapped(im, opt, s, "part: a zero MSHR/merge/miss-queue size became 1");
    return 0;
}

static int lat_pair(struct imp *im, const char *opt, unsigned *lat, unsigned *ii) {
    const char *w;
    const char *s = get(im, opt, &w);
    if (!s) return 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    char *tok[3];
    if (split(buf, ",", tok, 2) != 2 || !parse_uint(tok[0], lat) || !parse_uint(tok[1], ii))
        return ws_fail(im->e, "%s: -%s '%s': expected <latency>,<initiation>", w, opt, s);
    return 1;
}

/* First element of a PTX-mode list such as -ptx_opcode_latency_int 4,13,4,5,145 (ADD). */
static int list_first(struct imp *im, const char *opt, unsigned *v) {
    const char *w;
    const char *s = get(im, opt, &w);
    if (!s) return 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    char *tok[17];
    unsigned n = split(buf, ",", tok, 16);
    if (n > 16 || !parse_uint(tok[0], v))
        return ws_fail(im->e, "%s: -%s '%s': expected a list of cycle counts", w, opt, s);
    return 1;
}

static int write_latencies(struct imp *im) {
    static const char *const cls[5] = {"int", "sp", "dp", "sfu", "tensor"};
    static const char *const ptx[5] = {"int", "fp", "dp", "sfu", "tesnor"};
    static const char *const ptxii[5] = {"int", "fp", "dp", "sfu", "tensor"};
    FILE *f = im->out;
    for (int i = 0; i < 5; i++) {
        char o1[96], o2[96];
        unsigned lat, ii;
        snprintf(o1, sizeof o1, "trace_opcode_latency_initiation_%s", cls[i]);
        int r = lat_pair(im, o1, &lat, &ii);
        if (r < 0) return -1;
        if (r) {
            fprintf(f, "lat_%s = %u\nii_%s = %u      ; -%s\n", cls[i], lat ? lat : 1, cls[i],
                    ii ? ii : 1, o1);
            continue;
        }
        /* PTX mode: the first (ADD-class) value of each list */
        snprintf(o1, sizeof o1, "ptx_opcode_latency_%s", ptx[i]);
        snprintf(o2, sizeof o2, "ptx_opcode_initiation_%s", ptxii[i]);
        if ((r = list_first(im, o1, &lat)) < 0) return -1;
        if (r) fprintf(f, "lat_%s = %u      ; -%s (first entry)\n", cls[i], lat ? lat : 1, o1);
        if ((r = list_first(im, o2, &ii)) < 0) return -1;
        if (r) fprintf(f, "ii_%s = %u      ; -%s (first entry)\n", cls[i], ii ? ii : 1, o2);
    }
    /* the specialized unit named BRA carries branch latency in trace mode */
    for (int u = 1; u <= 8; u++) {
        char o1[64], o2[64];
        snprintf(o1, sizeof o1, "specialized_unit_%d", u);
        struct gs_opt *x = find(im, o1);
        if (!x) continue;
        const char *nm = strrchr(x->value, ',');
        if (!nm || strcmp(nm + 1, "BRA") != 0 || x->value[0] != '1') continue;
        snprintf(o2, sizeof o2, "trace_opcode_latency_initiation_spec_op_%d", u);
        unsigned lat, ii;
        int r = lat_pair(im, o2, &lat, &ii);
        if (r < 0) return -1;
        if (r) {
            x->used = true;
            fprintf(f, "lat_branch = %u\nii_branch = %u      ; -%s (unit %d is BRA)\n",
                    lat ? lat : 1, ii ? ii : 1, o2, u);
        }
        break;
    }
    return 0;
}

int gs_import(struct gs_opts *o, const char *name, FILE *out, FILE *unmapped, unsigned *nunmapped,
              struct ws_err *e) {
    struct imp im = {.o = o, .out = out, .e = e};
    for (unsigned i = 0; i < o->n; i++) o->v[i].used = false;
    im.unm_f = open_memstream(&im.unm, &im.unm_len);
    if (!im.unm_f) return ws_fail(e, "out of memory");
    int rc = -1;
    const char *w, *s;
    unsigned ncl, ncpc, nmem, nsub, v;
    FILE *f = out;

    /* ---- gpu ---- */
    if (get_uint(&im, "gpgpu_n_clusters", 10, &ncl) ||
        get_uint(&im, "gpgpu_n_cores_per_cluster", 1, &ncpc) ||
        get_uint(&im, "gpgpu_n_sub_partition_per_mchannel", 1, &nsub))
        goto out;
    if (!(s = need(&im, "gpgpu_n_mem", &w, "dram.channels"))) goto out;
    if (!parse_uint(s, &nmem) || !nmem) {
        ws_fail(e, "%s: -gpgpu_n_mem '%s' is not a channel count", w, s);
        goto out;
    }
    struct gs_clocks clk;
    if (!(s = need(&im, "gpgpu_clock_domains", &w, "the clocks"))) goto out;
    if (gs_parse_clocks(s, &clk, w, e)) goto out;
    fprintf(f,
            "; Imported from GPGPU-Sim/Accel-Sim options by `warpsim config import`.\n"
            "; Each key names the option it came from; options with no warpsim equivalent\n"
            "; are listed at the end as `; unmapped:`.\n\n[gpu]\nname = %s\n",
            name);
    fprintf(f, "sms = %u            ; -gpgpu_n_clusters %u x -gpgpu_n_cores_per_cluster %u\n",
            ncl * ncpc, ncl, ncpc);
    fprintf(f, "subparts = %u       ; -gpgpu_n_sub_partition_per_mchannel\n", nsub);
    fprintf(f, "core_mhz = %.0f\nnoc_mhz = %.0f\nl2_mhz = %.0f  ; -gpgpu_clock_domains %s\n",
            clk.core, clk.icnt, clk.l2, s);
    if ((s = get(&im, "gpgpu_dram_partition_queues", &w))) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", s);
        char *tok[5];
        unsigned q[4];
        if (split(buf, ":", tok, 4) != 4 || !parse_uint(tok[0], &q[0]) ||
            !parse_uint(tok[1], &q[1]) || !parse_uint(tok[2], &q[2]) ||
            !parse_uint(tok[3], &q[3])) {
            ws_fail(e, "%s: -gpgpu_dram_partition_queues '%s': expected i2$:$2d:d2$:$2i", w, s);
            goto out;
        }
        fprintf(f, "l2_in_q = %u\ndram_q = %u\nl2_out_q = %u ; -gpgpu_dram_partition_queues %s\n",
                q[0] ? q[0] : 1, q[1] ? q[1] : 1, q[3] ? q[3] : 1, s);
        note_unmapped(&im, "gpgpu_dram_partition_queues", s,
                      "part: the d2$ (DRAM-to-L2) queue has no warpsim key");
    }
    if ((s = get(&im, "gpgpu_perf_sim_memcpy", NULL)))
        fprintf(f, "warm_l2 = %s ; -gpgpu_perf_sim_memcpy\n", strcmp(s, "0") ? "true" : "false");
    if (get(&im, "dram_latency", NULL)) {
        /* GPGPU-Sim delays every L2-to-DRAM request by this many core cycles; warpsim adds the
         * delay (in L2 cycles) before the fill. Unloaded, the two give the same latency. */
        if (get_uint(&im, "dram_latency", 0, &v)) goto out;
        fprintf(f, "dram_latency = %.0f ; -dram_latency %u (core cycles)\n",
                (double)v * clk.l2 / clk.core, v);
    }
    if (get_uint(&im, "gpgpu_max_cycle", 0, &v)) goto out;
    if (v) fprintf(f, "max_cycles = %u\n", v);
    if (get_uint(&im, "gpgpu_max_insn", 0, &v)) goto out;
    /* GPGPU-Sim counts thread instructions (active lanes) against its cap */
    if (v) fprintf(f, "max_thread_insts = %u ; -gpgpu_max_insn\n", v);

    /* ---- core ---- */
    fprintf(f, "\n[core]\n");
    if ((s = get(&im, "gpgpu_shader_core_pipeline", &w))) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", s);
        char *tok[3];
        unsigned thr, ws;
        if (split(buf, ":", tok, 2) != 2 || !parse_uint(tok[0], &thr) || !parse_uint(tok[1], &ws) ||
            ws != 32 || thr < 32) {
            ws_fail(e, "%s: -gpgpu_shader_core_pipeline '%s': expected <threads>:32", w, s);
            goto out;
        }
        fprintf(f, "max_threads = %u\nmax_warps = %u  ; -gpgpu_shader_core_pipeline %s\n", thr,
                thr / 32, s);
    }
    if (get_uint(&im, "gpgpu_shader_cta", 8, &v)) goto out;
    fprintf(f, "max_ctas = %u\n", v);
    if (get_uint(&im, "gpgpu_shader_registers", 8192, &v)) goto out;
    fprintf(f, "regs = %u\n", v);
    if (get_uint(&im, "gpgpu_shmem_size", 16384, &v)) goto out;
    fprintf(f, "smem = %u\n", v);
    if (get_uint(&im, "gpgpu_num_sched_per_core", 1, &v)) goto out;
    fprintf(f, "subcores = %u    ; -gpgpu_num_sched_per_core\n", v ? v : 1);
    if ((s = get(&im, "gpgpu_scheduler", &w))) {
        if (strcmp(s, "lrr") == 0 || strcmp(s, "gto") == 0)
            fprintf(f, "warp_sched = %s\n", s);
        else {
            fprintf(f, "warp_sched = gto\n");
            note_unmapped(&im, "gpgpu_scheduler", s, "no such warpsim scheduler; gto used");
        }
    }
    fprintf(f, "subcore_assign = rr\n");
    if (write_latencies(&im)) goto out;
    if ((s = get(&im, "gpgpu_shmem_num_banks", &w))) {
        if (!parse_uint(s, &v)) {
            ws_fail(e, "%s: -gpgpu_shmem_num_banks '%s' is not a number", w, s);
            goto out;
        }
        fprintf(f, "smem_banks = %u\n", v);
    }
    if ((s = get(&im, "gpgpu_smem_latency", &w))) {
        if (!parse_uint(s, &v)) {
            ws_fail(e, "%s: -gpgpu_smem_latency '%s' is not a number", w, s);
            goto out;
        }
        fprintf(f, "smem_lat = %u\n", v);
    }
    if (get_uint(&im, "gpgpu_l1_banks", 1, &v)) goto out;
    fprintf(f, "l1_banks = %u\n", v ? v : 1);
    /* the coalescer's line and sector follow the L1D (a non-sectored cache takes whole lines) */
    struct gs_opt *l1 = find(&im, "gpgpu_cache:dl1");
    struct gs_cache l1c = {.line = 128, .sectored = true};
    if (l1 && gs_parse_cache(l1->value, &l1c, l1->where, e)) goto out;
    if (l1c.none) l1c.line = 128, l1c.sectored = true;
    fprintf(f, "line = %u\nsector = %u  ; the L1D's line and %s\n", l1c.line,
            l1c.sectored ? 32u : l1c.line, l1c.sectored ? "sector" : "line (not sectored)");

    /* ---- caches ---- */
    unsigned l1lat, roplat, skip;
    if (get_uint(&im, "gpgpu_l1_latency", 1, &l1lat) ||
        get_uint(&im, "gpgpu_l2_rop_latency", 85, &roplat) ||
        get_uint(&im, "gpgpu_gmem_skip_L1D", 0, &skip))
        goto out;
    if (write_cache(&im, "l1d", "gpgpu_cache:dl1", l1lat, "-gpgpu_l1_latency", skip != 0)) goto out;
    if (write_cache(&im, "l2", "gpgpu_cache:dl2", roplat,
                    "-gpgpu_l2_rop_latency (the ROP queue delay before the L2)", false))
        goto out;

    /* ---- noc ---- */
    fprintf(f, "\n[noc]\n");
    if (get_uint(&im, "icnt_flit_size", 32, &v)) goto out;
    fprintf(f, "flit = %u\n", v ? v : 1);
    if ((s = get(&im, "icnt_in_buffer_limit", &w)) && parse_uint(s, &v) && v)
        fprintf(f, "in_q = %u\n", v);
    if ((s = get(&im, "icnt_out_buffer_limit", &w)) && parse_uint(s, &v) && v)
        fprintf(f, "out_q = %u\n", v);
    fprintf(f, "alloc = islip\n");

    /* ---- dram ---- */
    struct gs_dram_timing t;
    s = get(&im, "gpgpu_dram_timing_opt", &w);
    if (!s) s = "4:2:8:12:21:13:34:9:4:5:13:1:0:0", w = "GPGPU-Sim default";
    if (gs_parse_dram_timing(s, &t, w, e)) goto out;
    const char *timing_text = s;
    unsigned busw, bl, ratio, perctrl, dual;
    if (get_uint(&im, "gpgpu_dram_buswidth", 4, &busw) ||
        get_uint(&im, "gpgpu_dram_burst_length", 4, &bl) ||
        get_uint(&im, "dram_data_command_freq_ratio", 2, &ratio) ||
        get_uint(&im, "gpgpu_n_mem_per_ctrlr", 1, &perctrl) ||
        get_uint(&im, "dram_dual_bus_interface", 0, &dual))
        goto out;
    if (!busw || !bl || !ratio || !perctrl) {
        ws_fail(e, "DRAM bus width, burst length, command ratio and chips per controller must "
                   "be positive");
        goto out;
    }
    /* base preset for what GPGPU-Sim does not describe (standard, currents) */
    const char *preset = dual                  ? "hbm2-qv100"
                         : busw * perctrl <= 2 ? "gddr6-rtx2060s"
                                               : "gddr5-gtx480";
    unsigned nbl = bl / ratio ? bl / ratio : 1;
    unsigned burst_bytes = busw * perctrl * bl;
    fprintf(f, "\n[dram]\n; -gpgpu_dram_timing_opt %s\npreset = %s ; %s\n", timing_text, preset,
            dual                  ? "dual command bus: HBM"
            : busw * perctrl <= 2 ? "x16 chips: GDDR6"
                                  : "GDDR5");
    fprintf(f, "channels = %u\npseudo_channels = 1\nranks = 1\n", nmem);
    fprintf(f, "bankgroups = %u\nbanks_per_group = %u\n", t.nbkgrp, t.nbk / t.nbkgrp);
    fprintf(f, "bus_bits = %u      ; -gpgpu_dram_buswidth %u x -gpgpu_n_mem_per_ctrlr %u\n",
            busw * 8 * perctrl, busw, perctrl);
    fprintf(f, "burst_length = %u\nnBL = %u         ; burst / -dram_data_command_freq_ratio\n", bl,
            nbl);
    fprintf(f, "dual_cmd_bus = %s\n", dual ? "true" : "false");
    fprintf(f, "tCK_ps = %.0f     ; DRAM command clock %.1f MHz\n", 1e6 / clk.dram, clk.dram);
#define MAX1(x) ((x) > 0 ? (x) : 1)
    fprintf(f, "CL = %u\nCWL = %u\nRCDRD = %u\n", MAX1(t.CL), t.WL, MAX1(t.RCD));
    int rcdwr = (int)t.RCD - (int)(t.WL + 1);
    fprintf(f, "RCDWR = %d       ; RCD - (WL + 1), as GPGPU-Sim derives it\n",
            rcdwr > 0 ? rcdwr : 1);
    fprintf(f, "RP = %u\nRAS = %u\nRC = %u\n", MAX1(t.RP), MAX1(t.RAS), MAX1(t.RC));
    fprintf(f, "RRD_S = %u\nRRD_L = %u\n", MAX1(t.RRD), MAX1(t.RRD));
    unsigned ccdl = t.CCDL > t.CCD ? t.CCDL : t.CCD;
    fprintf(f, "CCD_S = %u\nCCD_L = %u\n", MAX1(t.CCD), MAX1(ccdl));
    fprintf(f, "WTR_S = %u\nWTR_L = %u ; CDLR\n", t.CDLR, t.CDLR);
    int rtw = (int)t.CL + (int)nbl + 2 - (int)t.WL;
    fprintf(f, "RTW = %d        ; CL + BL/ratio + 2 - WL, as GPGPU-Sim derives it\n",
            rtw > 0 ? rtw : 1);
    fprintf(f, "WR = %u\n", MAX1(t.WR));
    fprintf(f, "RTP = %u        ; %s\n", MAX1(t.RTPL ? t.RTPL : nbl),
            t.RTPL ? "RTPL (per bank group in GPGPU-Sim)" : "one burst");
    fprintf(f, "FAW = 0\nX32AW = 0\nREFI = 0        ; GPGPU-Sim has no refresh or power-down\n");

    /* ---- addr ---- */
    struct gs_addr_map am;
    unsigned bgpol = 0, bkpol = 0, pidx = 0;
    if (get_uint(&im, "dram_bnkgrp_indexing_policy", 0, &bgpol) ||
        get_uint(&im, "dram_bnk_indexing_policy", 0, &bkpol) ||
        get_uint(&im, "gpgpu_memory_partition_indexing", 0, &pidx))
        goto out;
    if (!(s = need(&im, "gpgpu_mem_addr_mapping", &w, "addr.map"))) goto out;
    if (gs_parse_addr_map(s, nmem, &am, w, e)) goto out;
    char map[CFG_STR_MAX];
    unsigned rowb, colb;
    if (gs_addr_map_to_warpsim(&am, nmem, log2_ceil(burst_bytes), log2_ceil(t.nbkgrp), bgpol == 1,
                               map, sizeof map, &rowb, &colb, w, e))
        goto out;
    fprintf(f, "rows = %u\ncolumns = %u    ; from the R and C bits of the address mapping\n",
            1u << rowb, 1u << colb);
    fprintf(f, "\n[addr]\n; -gpgpu_mem_addr_mapping %s\nmap = %s\n", s, map);
    fprintf(f, "xor_bank = %s\n", bkpol == 1 ? "true" : "false");
    if (bkpol > 1)
        note_unmapped(&im, "dram_bnk_indexing_policy", "2", "IPOLY bank hash; linear used");
    fprintf(f, "xor_channel = %s\n", pidx == 1 || pidx == 2 ? "true" : "false");
    if (pidx >= 2) {
        char vb[16];
        snprintf(vb, sizeof vb, "%u", pidx);
        note_unmapped(&im, "gpgpu_memory_partition_indexing", vb,
                      pidx == 2 ? "part: IPOLY channel hash; XOR hash used" : "not modelled");
    }

    /* ---- mc ---- */
    unsigned sched, rq;
    if (get_uint(&im, "gpgpu_dram_scheduler", 1, &sched) ||
        get_uint(&im, "gpgpu_frfcfs_dram_sched_queue_size", 0, &rq))
        goto out;
    fprintf(f, "\n[mc]\npolicy = %s    ; -gpgpu_dram_scheduler %u\n", sched ? "frfcfs" : "fcfs",
            sched);
    if (!rq || rq > 4096) rq = 4096; /* 0 = unlimited */
    fprintf(f, "rq_size = %u    ; -gpgpu_frfcfs_dram_sched_queue_size\n", rq);
    if ((s = get(&im, "dram_write_queue_size", &w))) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", s);
        char *tok[4];
        unsigned q[3];
        if (split(buf, ":", tok, 3) != 3 || !parse_uint(tok[0], &q[0]) ||
            !parse_uint(tok[1], &q[1]) || !parse_uint(tok[2], &q[2]) || !q[0] || q[1] > q[0] ||
            q[2] > q[1]) {
            ws_fail(e, "%s: -dram_write_queue_size '%s': expected size:high:low", w, s);
            goto out;
        }
        fprintf(f, "wq_size = %u\nwq_hi = %u\nwq_lo = %u ; -dram_write_queue_size\n", q[0],
                q[1] ? q[1] : 1, q[2]);
        get(&im, "dram_seperate_write_queue_enable", NULL);
    } else
        fprintf(f, "wq_size = %u\nwq_hi = %u\nwq_lo = %u\n", rq, rq * 3 / 4 ? rq * 3 / 4 : 1,
                rq / 4);
    fprintf(f, "refresh = false\nforward_raw = false ; GPGPU-Sim serves every read from DRAM\n");

    /* ---- everything else ---- */
    for (unsigned i = 0; i < o->n; i++)
        if (!o->v[i].used) note_unmapped(&im, o->v[i].name, o->v[i].value, NULL);
    fflush(im.unm_f);
    fprintf(f, "\n; %u GPGPU-Sim options (or parts of options) have no warpsim equivalent:\n%s",
            im.nunm, im.unm);
    if (unmapped) fputs(im.unm, unmapped);
    rc = 0;
out:
    if (nunmapped) *nunmapped = im.nunm;
    fclose(im.unm_f);
    free(im.unm);
    return rc;
}
