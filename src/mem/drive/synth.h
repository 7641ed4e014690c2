/* Built-in synthetic request streams for standalone memory mode: stream (sequential bursts),
 * random (uniform bursts over a footprint), strided, row-conflict (every request to the same
 * bank of each channel, each in another row) and mixed (several sequential streams interleaved at
 * random, like cores sharing a channel). Offered open-loop, as fast as the controllers accept
 * them. Generated requests wait in a per-channel backlog (synth.window deep) so that one busy
 * channel (e.g. refreshing) does not hold back the others, as independent requesters would not;
 * within a channel, order is kept. Deterministic for a given sim.seed. */
#pragma once

#include "base/cfg.h"
#include "mem/drive/drive.h"

enum synth_pattern { SYN_STREAM, SYN_RANDOM, SYN_STRIDED, SYN_ROWCONFLICT, SYN_MIXED };

struct synth_cfg {
    int pattern; /* enum synth_pattern */
    int64_t requests;
    double read_share;
    int64_t footprint; /* bytes */
    int64_t stride;    /* bytes, strided pattern */
    int64_t streams;   /* mixed pattern */
    int64_t window;    /* per-channel backlog */
    int64_t seed;
    /* given on the command line (else 1 GiB or a file's value, cut to a smaller memory) */
    bool footprint_given;
    char footprint_origin[64]; /* where, for the error when it exceeds the memory */
};
extern const struct cfg_key synth_keys[];
extern const unsigned synth_nkeys;
/* Binds the synth keys; setting one the chosen pattern does not read (synth.stride but for
 * strided, synth.streams but for mixed, synth.footprint for row-conflict) is an error naming the
 * patterns that read it. */
int synth_configure(struct synth_cfg *sc, struct cfg *c, struct ws_err *e);
/* For a run with another request source: a synth key that is set is an error (`why` says what
 * reads it). */
int synth_refuse_keys(struct cfg *c, const char *why, struct ws_err *e);

struct synth_stats {
    uint64_t requests, reads, writes, completed;
    uint64_t stall_cycles; /* cycles the head request waited for queue space */
    uint64_t footprint;    /* bytes the addresses range over */
};
extern const struct stat_desc synth_stat_desc[];
extern const unsigned synth_stat_ndesc;

struct synth;
struct synth *synth_create(const struct synth_cfg *cfg, const struct memsys *ms, struct ws_err *e);
void synth_destroy(struct synth *s);
const struct synth_stats *synth_stats(const struct synth *s);
extern const struct drive_ops synth_ops;
