/* GPGPU-Sim / Accel-Sim configuration import: reads `-option value` lines (a gpgpusim.config, a
 * trace.config, or the option dump at the top of an Accel-Sim log) and writes the equivalent
 * warpsim INI. Every option that does not become a warpsim key is listed as unmapped, with why;
 * nothing is dropped silently. The string parsers are public so they can be tested alone. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"

/* -gpgpu_cache:<name> {S|N}:<nsets>:<line>:<assoc>,<repl>:<wr>:<alloc>:<wr_alloc>[:<set_idx>],
 * <mshr_type>:<entries>:<max_merge>,<miss_queue>[:<result_fifo>][,<data_port_width>]; "none"
 * means the cache is absent. Letters are kept as written (upper/lower case as GPGPU-Sim). */
struct gs_cache {
    bool none, sectored;
    unsigned nsets, line, assoc;
    char repl, wr, alloc, wr_alloc, set_index; /* set_index 'L' when not given */
    char mshr_type;
    unsigned mshr_entries, mshr_merge, miss_queue;
    unsigned result_fifo, data_port; /* 0 when not given */
};
int gs_parse_cache(const char *text, struct gs_cache *c, const char *where, struct ws_err *e);

/* -gpgpu_dram_timing_opt, named ("nbk=16:CCD=2:...") or positional form, DRAM command cycles. */
struct gs_dram_timing {
    unsigned nbk, CCD, RRD, RCD, RAS, RP, RC, CL, WL, CDLR, WR, nbkgrp, CCDL, RTPL;
};
int gs_parse_dram_timing(const char *text, struct gs_dram_timing *t, const char *where,
                         struct ws_err *e);

/* -gpgpu_mem_addr_mapping [dramid@<bit>;]<map, MSB first>: bits[63 - i] is the letter of address
 * bit i after the channel bits are inserted (as 'D') at dramid_bit; dramid_bit is -1 when absent.
 */
struct gs_addr_map {
    int dramid_bit;
    char bits[65];
};
/* nch: the channel count (log2 bits inserted when dramid@ is given, rounded up). */
int gs_parse_addr_map(const char *text, unsigned nch, struct gs_addr_map *m, const char *where,
                      struct ws_err *e);
/* warpsim's addr.map for it: a bit string (R G B C H S 0) when nch is a power of two, else a
 * field list with ch as a modulo field. burst_bits: log2 of warpsim's burst bytes (the lowest
 * column/burst bits become S, the rest C). bg_bits of the bank bits become the bank group, the
 * highest ones (bg_low false) or the lowest. Counts of row and column bits are returned. */
int gs_addr_map_to_warpsim(const struct gs_addr_map *m, unsigned nch, unsigned burst_bits,
                           unsigned bg_bits, bool bg_low, char *out, size_t n, unsigned *row_bits,
                           unsigned *col_bits, const char *where, struct ws_err *e);

/* -gpgpu_clock_domains core:icnt:l2:dram (MHz). */
struct gs_clocks {
    double core, icnt, l2, dram;
};
int gs_parse_clocks(const char *text, struct gs_clocks *c, const char *where, struct ws_err *e);

/* The options read from one or more files; a later option of the same name replaces an earlier. */
struct gs_opts;
struct gs_opts *gs_opts_create(void);
void gs_opts_destroy(struct gs_opts *o);
/* Reads `-option value [# comment]` lines from text. An Accel-Sim log (it holds the line
 * "Configuration options:") is read only in its option block; a config file must hold nothing
 * but options, comments and blank lines. `name` is the file name used in messages. */
int gs_opts_load_string(struct gs_opts *o, const char *name, const char *text, struct ws_err *e);
int gs_opts_load(struct gs_opts *o, const char *path, struct ws_err *e);
unsigned gs_opts_count(const struct gs_opts *o);

/* Writes the warpsim INI for the options to out. `name` becomes gpu.name. *nunmapped gets the
 * number of options (or parts of options) listed as unmapped; when `unmapped` is not NULL each is
 * also written there, one per line. Bad values fail with "file:line: ...". */
int gs_import(struct gs_opts *o, const char *name, FILE *out, FILE *unmapped, unsigned *nunmapped,
              struct ws_err *e);
