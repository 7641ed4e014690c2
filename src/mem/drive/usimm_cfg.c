/* USIMM v1.3 .cfg/.vi importer (see usimm_cfg.h). Both files are read into one table of USIMM
 * parameters with their origins (the .vi after the .cfg, so it wins, as in USIMM's main.c); the
 * warpsim settings are then derived from the table. */
#include "mem/drive/usimm_cfg.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/lineio.h"
#include "mem/dram/dram_spec.h"

/* USIMM's parameter names (configfile.h's token list); `real` ones are read as floats. */
enum {
    P_CLK_MULT,
    P_ROBSIZE,
    P_MAX_RETIRE,
    P_MAX_FETCH,
    P_PIPELINEDEPTH,
    P_NUM_CHANNELS,
    P_NUM_RANKS,
    P_NUM_BANKS,
    P_NUM_ROWS,
    P_NUM_COLUMNS,
    P_CACHE_LINE_SIZE,
    P_ADDRESS_BITS,
    P_DRAM_CLK_FREQUENCY,
    P_T_RCD,
    P_T_RP,
    P_T_CAS,
    P_T_RC,
    P_T_RAS,
    P_T_RRD,
    P_T_FAW,
    P_T_WR,
    P_T_WTR,
    P_T_RTP,
    P_T_CCD,
    P_T_RFC,
    P_T_REFI,
    P_T_CWD,
    P_T_RTRS,
    P_T_PD_MIN,
    P_T_XP,
    P_T_XP_DLL,
    P_T_DATA_TRANS,
    P_VDD,
    P_IDD0,
    P_IDD2P0,
    P_IDD2P1,
    P_IDD2N,
    P_IDD3P,
    P_IDD3N,
    P_IDD4R,
    P_IDD4W,
    P_IDD5,
    P_WQ_CAPACITY,
    P_ADDRESS_MAPPING,
    P_WQ_LOOKUP_LATENCY,
    P_N
};

static const struct {
    const char *name;
    bool real;
} params[P_N] = {
    {"PROCESSOR_CLK_MULTIPLIER", false},
    {"ROBSIZE", false},
    {"MAX_RETIRE", false},
    {"MAX_FETCH", false},
    {"PIPELINEDEPTH", false},
    {"NUM_CHANNELS", false},
    {"NUM_RANKS", false},
    {"NUM_BANKS", false},
    {"NUM_ROWS", false},
    {"NUM_COLUMNS", false},
    {"CACHE_LINE_SIZE", false},
    {"ADDRESS_BITS", false},
    {"DRAM_CLK_FREQUENCY", false},
    {"T_RCD", false},
    {"T_RP", false},
    {"T_CAS", false},
    {"T_RC", false},
    {"T_RAS", false},
    {"T_RRD", false},
    {"T_FAW", false},
    {"T_WR", false},
    {"T_WTR", false},
    {"T_RTP", false},
    {"T_CCD", false},
    {"T_RFC", false},
    {"T_REFI", false},
    {"T_CWD", false},
    {"T_RTRS", false},
    {"T_PD_MIN", false},
    {"T_XP", false},
    {"T_XP_DLL", false},
    {"T_DATA_TRANS", false},
    {"VDD", true},
    {"IDD0", true},
    {"IDD2P0", true},
    {"IDD2P1", true},
    {"IDD2N", true},
    {"IDD3P", true},
    {"IDD3N", true},
    {"IDD4R", true},
    {"IDD4W", true},
    {"IDD5", true},
    {"WQ_CAPACITY", false},
    {"ADDRESS_MAPPING", false},
    {"WQ_LOOKUP_LATENCY", false},
};

struct uparam {
    bool set;
    double v;
    const char *file; /* points at the import's cfg or vi path buffer */
    long line;
};

struct import {
    struct uparam p[P_N];
    char cfg_path[1024], vi_path[1100];
};

/* USIMM v1.3 main.c's chip-file table: (channels, cores) -> .vi file and chips per rank. */
const char *usimm_vi_name(int channels, int ncores, int *chips_per_rank) {
    static const struct {
        int ch, lo, hi;
        const char *vi;
        int chips;
    } table[] = {
        {1, 1, 1, "1Gb_x4.vi", 16}, {1, 2, 2, "2Gb_x4.vi", 16},  {1, 3, 4, "4Gb_x4.vi", 16},
        {4, 1, 1, "1Gb_x16.vi", 4}, {4, 2, 2, "1Gb_x8.vi", 8},   {4, 3, 4, "2Gb_x8.vi", 8},
        {4, 5, 8, "4Gb_x8.vi", 8},  {4, 9, 16, "4Gb_x4.vi", 16},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].ch == channels && ncores >= table[i].lo && ncores <= table[i].hi) {
            if (chips_per_rank) *chips_per_rank = table[i].chips;
            return table[i].vi;
        }
    return NULL;
}

static int find_param(const char *name, size_t n) {
    for (int i = 0; i < P_N; i++)
        if (strlen(params[i].name) == n && strncmp(params[i].name, name, n) == 0) return i;
    return -1;
}

/* Cuts a `//` comment and returns the whitespace-separated tokens (up to 3). */
static unsigned tokens(char *s, char **tok) {
    char *c = strstr(s, "//");
    if (c) *c = '\0';
    unsigned n = 0;
    char *save = NULL;
    for (char *p = strtok_r(s, " \t\r", &save); p; p = strtok_r(NULL, " \t\r", &save)) {
        if (n < 3) tok[n] = p;
        n++;
    }
    return n;
}

static int read_file(struct import *im, const char *path, struct ws_err *e) {
    struct ws_lines *l = ws_lines_open(path, e);
    if (!l) return -1;
    const char *line;
    char buf[4200];
    int rc = 0;
    while (rc == 0 && (line = ws_lines_next(l, e)) != NULL) {
        long ln = ws_lines_lineno(l);
        snprintf(buf, sizeof buf, "%s", line);
        char *tok[3];
        unsigned n = tokens(buf, tok);
        if (n == 0) continue;
        int k = find_param(tok[0], strlen(tok[0]));
        if (k < 0) {
            rc = ws_fail(e, "%s:%ld: unknown USIMM key '%.80s'", path, ln, tok[0]);
            break;
        }
        if (n < 2) {
            rc = ws_fail(e, "%s:%ld: %s has no value", path, ln, params[k].name);
            break;
        }
        if (n > 2) {
            rc = ws_fail(e, "%s:%ld: unexpected '%.80s' after the value of %s", path, ln, tok[2],
                         params[k].name);
            break;
        }
        char *end = NULL;
        errno = 0;
        double v;
        if (params[k].real) {
            v = strtod(tok[1], &end);
            if (errno || end == tok[1] || *end || !isfinite(v)) {
                rc = ws_fail(e, "%s:%ld: %s = '%.80s' is not a number", path, ln, params[k].name,
                             tok[1]);
                break;
            }
        } else {
            long long iv = strtoll(tok[1], &end, 10);
            if (errno || end == tok[1] || *end) {
                rc = ws_fail(e, "%s:%ld: %s = '%.80s' is not an integer", path, ln, params[k].name,
                             tok[1]);
                break;
            }
            v = (double)iv;
        }
        im->p[k] = (struct uparam){true, v, path == im->cfg_path ? im->cfg_path : im->vi_path, ln};
    }
    if (rc == 0 && ws_lines_failed(l)) rc = -1;
    ws_lines_close(l);
    return rc;
}

/* USIMM's log_base2: the position of the highest set bit (floor of log2, 0 for 0 and 1). */
static int ulog2(long long v) {
    int n = 0;
    while (v > 1) v >>= 1, n++;
    return n;
}

static int set_at(struct cfg *c, const char *key, const char *value, const char *file, long line,
                  struct ws_err *e) {
    return cfg_set(c, key, value, file, line, e);
}

/* Records `key` = `v` (integer) with the origin of USIMM parameter k. */
static int set_int(struct cfg *c, const struct import *im, const char *key, long long v, int k,
                   struct ws_err *e) {
    char val[32];
    snprintf(val, sizeof val, "%lld", v);
    const struct uparam *p = &im->p[k];
    return set_at(c, key, val, p->set ? p->file : im->cfg_path, p->set ? p->line : 0, e);
}

static int set_real(struct cfg *c, const struct import *im, const char *key, int k,
                    struct ws_err *e) {
    char val[40];
    snprintf(val, sizeof val, "%.17g", im->p[k].v);
    return set_at(c, key, val, im->p[k].file, im->p[k].line, e);
}

static long long iv(const struct import *im, int k) {
    return (long long)im->p[k].v;
}

int usimm_cfg_load(struct cfg *c, const char *cfg_path, int ncores, struct ws_err *e) {
    struct import *im = calloc(1, sizeof *im);
    if (!im) return ws_fail(e, "out of memory");
    int rc = -1;
    if (strlen(cfg_path) >= sizeof im->cfg_path) {
        ws_fail(e, "%s: path too long", cfg_path);
        goto out;
    }
    snprintf(im->cfg_path, sizeof im->cfg_path, "%s", cfg_path);
    if (ncores < 1) {
        ws_fail(e, "%s: the number of USIMM traces (cores) must be at least 1, got %d", cfg_path,
                ncores);
        goto out;
    }
    if (read_file(im, im->cfg_path, e) != 0) goto out;

    /* USIMM asserts that the six organisation numbers span exactly ADDRESS_BITS. */
    static const int org[] = {P_NUM_CHANNELS, P_NUM_RANKS,   P_NUM_BANKS,
                              P_NUM_ROWS,     P_NUM_COLUMNS, P_CACHE_LINE_SIZE};
    int bits = 0;
    for (size_t i = 0; i < sizeof org / sizeof org[0]; i++) {
        const struct uparam *p = &im->p[org[i]];
        if (!p->set) {
            ws_fail(e,
                    "%s: %s is missing (USIMM needs NUM_CHANNELS, NUM_RANKS, NUM_BANKS, "
                    "NUM_ROWS, NUM_COLUMNS, CACHE_LINE_SIZE and ADDRESS_BITS)",
                    cfg_path, params[org[i]].name);
            goto out;
        }
        if (p->v < 1) {
            ws_fail(e, "%s:%ld: %s = %lld must be positive", p->file, p->line, params[org[i]].name,
                    iv(im, org[i]));
            goto out;
        }
        bits += ulog2(iv(im, org[i]));
    }
    const struct uparam *ab = &im->p[P_ADDRESS_BITS];
    if (!ab->set) {
        ws_fail(e, "%s: ADDRESS_BITS is missing", cfg_path);
        goto out;
    }
    if (iv(im, P_ADDRESS_BITS) != bits) {
        ws_fail(e,
                "%s:%ld: ADDRESS_BITS = %lld, but log2 of NUM_CHANNELS x NUM_RANKS x NUM_BANKS x "
                "NUM_ROWS x NUM_COLUMNS x CACHE_LINE_SIZE is %d",
                ab->file, ab->line, iv(im, P_ADDRESS_BITS), bits);
        goto out;
    }
    if (iv(im, P_CACHE_LINE_SIZE) % 8 != 0) {
        const struct uparam *p = &im->p[P_CACHE_LINE_SIZE];
        ws_fail(e, "%s:%ld: CACHE_LINE_SIZE = %lld is not a whole number of 64-bit beats", p->file,
                p->line, iv(im, P_CACHE_LINE_SIZE));
        goto out;
    }
    const struct uparam *am = &im->p[P_ADDRESS_MAPPING];
    if (am->set && am->v != 0 && am->v != 1) {
        ws_fail(e, "%s:%ld: ADDRESS_MAPPING = %lld must be 0 or 1", am->file, am->line,
                iv(im, P_ADDRESS_MAPPING));
        goto out;
    }

    /* The chip file main.c would open, from the folder of the .cfg. */
    int chips = 0;
    int nch = (int)iv(im, P_NUM_CHANNELS);
    const char *vi = usimm_vi_name(nch, ncores, &chips);
    if (!vi) {
        ws_fail(e,
                "%s: USIMM v1.3 has no .vi chip file for %d channel%s and %d core%s (it "
                "supports 1 channel with 1-4 cores and 4 channels with 1-16)",
                cfg_path, nch, nch == 1 ? "" : "s", ncores, ncores == 1 ? "" : "s");
        goto out;
    }
    const char *slash = strrchr(cfg_path, '/');
    if (slash)
        snprintf(im->vi_path, sizeof im->vi_path, "%.*s/%s", (int)(slash - cfg_path), cfg_path, vi);
    else
        snprintf(im->vi_path, sizeof im->vi_path, "%s", vi);
    if (read_file(im, im->vi_path, e) != 0) {
        char inner[sizeof e->msg];
        snprintf(inner, sizeof inner, "%s", e->msg);
        ws_fail(e, "%s: USIMM picks %s for %d channel%s and %d core%s: %s", cfg_path, vi, nch,
                nch == 1 ? "" : "s", ncores, ncores == 1 ? "" : "s", inner);
        goto out;
    }

    /* ---- DRAM organisation ---- */
    long long pow2 = 1;
    while (pow2 < ncores) pow2 <<= 1;
    if (set_at(c, "dram.preset", "ddr3-1600", im->cfg_path, 0, e) != 0 ||
        set_int(c, im, "dram.channels", iv(im, P_NUM_CHANNELS), P_NUM_CHANNELS, e) != 0 ||
        set_int(c, im, "dram.ranks", iv(im, P_NUM_RANKS), P_NUM_RANKS, e) != 0 ||
        set_int(c, im, "dram.bankgroups", 1, P_NUM_BANKS, e) != 0 ||
        set_int(c, im, "dram.banks_per_group", iv(im, P_NUM_BANKS), P_NUM_BANKS, e) != 0 ||
        /* each extra core gets its own address space above ADDRESS_BITS, as extra row bits */
        set_int(c, im, "dram.rows", iv(im, P_NUM_ROWS) * pow2, P_NUM_ROWS, e) != 0 ||
        set_int(c, im, "dram.columns", iv(im, P_NUM_COLUMNS), P_NUM_COLUMNS, e) != 0 ||
        /* DDR3's 64-bit channel; a cache line is one burst */
        set_int(c, im, "dram.bus_bits", 64, P_CACHE_LINE_SIZE, e) != 0 ||
        set_int(c, im, "dram.burst_length", iv(im, P_CACHE_LINE_SIZE) / 8, P_CACHE_LINE_SIZE, e) !=
            0)
        goto out;

    /* ---- timing (DRAM cycles) ---- */
    static const struct {
        int k;
        const char *key;
    } tmap[] = {
        {P_T_RCD, "dram.RCDRD"},    {P_T_RCD, "dram.RCDWR"},      {P_T_CAS, "dram.CL"},
        {P_T_CWD, "dram.CWL"},      {P_T_DATA_TRANS, "dram.nBL"}, {P_T_CCD, "dram.CCD_S"},
        {P_T_CCD, "dram.CCD_L"},    {P_T_WTR, "dram.WTR_S"},      {P_T_WTR, "dram.WTR_L"},
        {P_T_RRD, "dram.RRD_S"},    {P_T_RRD, "dram.RRD_L"},      {P_T_RAS, "dram.RAS"},
        {P_T_RP, "dram.RP"},        {P_T_RC, "dram.RC"},          {P_T_FAW, "dram.FAW"},
        {P_T_WR, "dram.WR"},        {P_T_RTP, "dram.RTP"},        {P_T_RTRS, "dram.RTRS"},
        {P_T_REFI, "dram.REFI"},    {P_T_RFC, "dram.RFC"},        {P_T_XP, "dram.XP"},
        {P_T_XP_DLL, "dram.XPDLL"}, {P_T_PD_MIN, "dram.CKE"},
    };
    for (size_t i = 0; i < sizeof tmap / sizeof tmap[0]; i++)
        if (im->p[tmap[i].k].set &&
            set_int(c, im, tmap[i].key, iv(im, tmap[i].k), tmap[i].k, e) != 0)
            goto out;
    /* USIMM's COL-RD -> COL-WR gap, T_CAS + T_DATA_TRANS + T_RTRS - T_CWD; missing terms come
     * from the ddr3-1600 preset, which holds USIMM's defaults. */
    const struct dram_spec *d3 = dram_preset_find("ddr3-1600");
    if (im->p[P_T_CAS].set || im->p[P_T_DATA_TRANS].set || im->p[P_T_RTRS].set ||
        im->p[P_T_CWD].set) {
        long long cas = im->p[P_T_CAS].set ? iv(im, P_T_CAS) : d3->CL;
        long long dt = im->p[P_T_DATA_TRANS].set ? iv(im, P_T_DATA_TRANS) : d3->nBL;
        long long rtrs = im->p[P_T_RTRS].set ? iv(im, P_T_RTRS) : d3->RTRS;
        long long cwd = im->p[P_T_CWD].set ? iv(im, P_T_CWD) : d3->CWL;
        int from = im->p[P_T_CAS].set          ? P_T_CAS
                   : im->p[P_T_DATA_TRANS].set ? P_T_DATA_TRANS
                   : im->p[P_T_RTRS].set       ? P_T_RTRS
                                               : P_T_CWD;
        if (set_int(c, im, "dram.RTW", cas + dt + rtrs - cwd, from, e) != 0) goto out;
    }
    const struct uparam *f = &im->p[P_DRAM_CLK_FREQUENCY];
    if (f->set) {
        if (f->v < 1) {
            ws_fail(e, "%s:%ld: DRAM_CLK_FREQUENCY = %lld must be positive (MHz)", f->file, f->line,
                    iv(im, P_DRAM_CLK_FREQUENCY));
            goto out;
        }
        if (set_int(c, im, "dram.tCK_ps", llround(1e6 / f->v), P_DRAM_CLK_FREQUENCY, e) != 0)
            goto out;
    }

    /* ---- currents ---- */
    static const struct {
        int k;
        const char *key;
    } imap[] = {
        {P_VDD, "dram.VDD"},       {P_IDD0, "dram.IDD0"},   {P_IDD2P0, "dram.IDD2P0"},
        {P_IDD2P1, "dram.IDD2P1"}, {P_IDD2N, "dram.IDD2N"}, {P_IDD3P, "dram.IDD3P"},
        {P_IDD3N, "dram.IDD3N"},   {P_IDD4R, "dram.IDD4R"}, {P_IDD4W, "dram.IDD4W"},
        {P_IDD5, "dram.IDD5"},
    };
    for (size_t i = 0; i < sizeof imap / sizeof imap[0]; i++)
        if (im->p[imap[i].k].set && set_real(c, im, imap[i].key, imap[i].k, e) != 0) goto out;
    char chips_s[16];
    snprintf(chips_s, sizeof chips_s, "%d", chips);
    if (set_at(c, "dram.devices_per_rank", chips_s, im->vi_path, 0, e) != 0) goto out;

    /* ---- address map and controller ---- */
    if (am->set &&
        set_at(c, "addr.map", am->v == 0 ? "usimm0" : "usimm1", am->file, am->line, e) != 0)
        goto out;
    if (set_at(c, "mc.policy", "usimm", im->cfg_path, 0, e) != 0 ||
        set_at(c, "mc.refresh_mode", "usimm", im->cfg_path, 0, e) != 0) /* forced 8-REF windows */
        goto out;
    const struct uparam *wq = &im->p[P_WQ_CAPACITY];
    if (wq->set) {
        /* The mc's own drain watermarks mirror USIMM's HI_WM 40 / LO_WM 20 (drain when the queue
         * holds more than 40, stop at 20); the usimm policy drains by its own copy of them. */
        long long cap = iv(im, P_WQ_CAPACITY);
        long long hi = cap < 41 ? cap : 41;
        long long lo = hi - 1 < 20 ? hi - 1 : 20;
        if (set_int(c, im, "mc.wq_size", cap, P_WQ_CAPACITY, e) != 0 ||
            set_int(c, im, "mc.wq_hi", hi, P_WQ_CAPACITY, e) != 0 ||
            set_int(c, im, "mc.wq_lo", lo < 0 ? 0 : lo, P_WQ_CAPACITY, e) != 0)
            goto out;
    }
    /* USIMM's read queue has no capacity: every ROB entry of every core may wait in it. */
    long long rob = im->p[P_ROBSIZE].set ? iv(im, P_ROBSIZE) : 128;
    long long rq = rob * ncores;
    if (rq > 4096) rq = 4096;
    if (rq < 1) rq = 1;
    if (set_int(c, im, "mc.rq_size", rq, P_ROBSIZE, e) != 0 ||
        set_at(c, "mc.forward_raw", "false",
               im->p[P_WQ_LOOKUP_LATENCY].set ? im->p[P_WQ_LOOKUP_LATENCY].file : im->cfg_path,
               im->p[P_WQ_LOOKUP_LATENCY].set ? im->p[P_WQ_LOOKUP_LATENCY].line : 0, e) != 0)
        goto out;

    /* ---- processor front end ---- */
    static const struct {
        int k;
        const char *key;
    } fmap[] = {
        {P_CLK_MULT, "usimm.clk_mult"},
        {P_ROBSIZE, "usimm.rob_size"},
        {P_MAX_FETCH, "usimm.max_fetch"},
        {P_MAX_RETIRE, "usimm.max_retire"},
        {P_PIPELINEDEPTH, "usimm.pipeline_depth"},
        {P_WQ_LOOKUP_LATENCY, "usimm.wq_lookup_latency"},
        {P_ADDRESS_BITS, "usimm.address_bits"},
    };
    for (size_t i = 0; i < sizeof fmap / sizeof fmap[0]; i++)
        if (im->p[fmap[i].k].set &&
            set_int(c, im, fmap[i].key, iv(im, fmap[i].k), fmap[i].k, e) != 0)
            goto out;
    rc = 0;
out:
    free(im);
    return rc;
}

bool usimm_cfg_detect(const char *path) {
    struct ws_err e;
    struct ws_lines *l = ws_lines_open(path, &e);
    if (!l) return false;
    bool yes = false;
    const char *line;
    while ((line = ws_lines_next(l, &e)) != NULL) {
        while (*line == ' ' || *line == '\t') line++;
        if (!*line || strncmp(line, "//", 2) == 0 || *line == '#' || *line == ';') continue;
        if (strchr(line, '=') || strchr(line, '[')) break;
        /* WORD: a letter or '_' then letters, digits and '_' */
        const char *p = line;
        if (!isalpha((unsigned char)*p) && *p != '_') break;
        while (isalnum((unsigned char)*p) || *p == '_') p++;
        if (*p != ' ' && *p != '\t') break;
        while (*p == ' ' || *p == '\t') p++;
        char *end = NULL;
        strtod(p, &end);
        yes = end != p && (*end == '\0' || isspace((unsigned char)*end) || *end == '/');
        break;
    }
    ws_lines_close(l);
    return yes;
}
