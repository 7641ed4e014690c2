/* DRAM standard description: organisation, timing (integer cycles of the command clock tCK) and
 * IDD currents for the power model. A preset (dram.preset) fills the struct from a built-in table
 * (std_*.c); every field is then overridable by a config key of the same name in [dram].
 * Cycle counts are in tCK of the DRAM command clock; the data bus moves burst_length beats in
 * nBL command cycles. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/cfg.h"
#include "base/err.h"

enum dram_std { DRAM_DDR3, DRAM_DDR4, DRAM_GDDR5, DRAM_GDDR6, DRAM_HBM2, DRAM_HBM3, DRAM_NSTD };
extern const char *const dram_std_names[]; /* NULL-terminated, indexed by enum dram_std */

/* Commands as seen on a channel's command bus. RDA/WRA are column commands with auto-precharge;
 * PDEF/PDES enter fast (DLL on) / slow (DLL off) power-down, PDX exits. REF refreshes every bank
 * of a rank, REFPB one bank (HBM3's REFpb, DDR5's REFsb) while the others keep working. */
enum dram_cmd {
    DRAM_ACT,
    DRAM_PRE,
    DRAM_PREA,
    DRAM_RD,
    DRAM_WR,
    DRAM_RDA,
    DRAM_WRA,
    DRAM_REF,
    DRAM_PDEF,
    DRAM_PDES,
    DRAM_PDX,
    DRAM_REFPB,
    DRAM_NCMD
};
extern const char *const dram_cmd_names[DRAM_NCMD];

static inline bool dram_cmd_is_col(enum dram_cmd c) {
    return c == DRAM_RD || c == DRAM_WR || c == DRAM_RDA || c == DRAM_WRA;
}
static inline bool dram_cmd_is_read(enum dram_cmd c) {
    return c == DRAM_RD || c == DRAM_RDA;
}
static inline bool dram_cmd_is_write(enum dram_cmd c) {
    return c == DRAM_WR || c == DRAM_WRA;
}

/* A decoded DRAM location. `rank` counts ranks within a pseudo-channel; `pc` is the HBM
 * pseudo-channel (0 elsewhere). `col` counts bursts (column accesses) within the row. */
struct dram_addr {
    uint32_t ch, pc, rank, bg, bank, row, col;
};

struct dram_spec {
    char preset[CFG_STR_MAX];
    int std; /* enum dram_std */

    /* organisation */
    int64_t channels, pseudo_channels, ranks, bankgroups, banks_per_group, rows, columns;
    int64_t bus_bits, burst_length; /* data width of a (pseudo-)channel; beats per burst */
    bool dual_cmd_bus;              /* HBM: a row and a column command may issue in one cycle */

    /* clock and timing, in tCK */
    int64_t tCK_ps;
    int64_t nBL; /* command cycles a burst occupies the data bus */
    int64_t CL, CWL, RCDRD, RCDWR, RP, RAS, RC;
    int64_t RRD_S, RRD_L, FAW, X32AW; /* X32AW: GDDR5 32-activate window, 0 = none */
    int64_t CCD_S, CCD_L, WTR_S, WTR_L, RTW, WR, RTP, RTRS;
    int64_t REFI, RFC;
    int64_t RFCpb, RREFD;   /* per-bank refresh: REFPB busy time of its bank, REFPB to another
                               bank's ACT or REFPB; RFCpb 0 = the part has no per-bank refresh */
    int64_t XP, XPDLL, CKE; /* power-down exit (fast, slow) and minimum residency */

    /* power: one device's currents (mA) and voltage (V); devices per rank */
    double VDD, IDD0, IDD2P0, IDD2P1, IDD2N, IDD3P, IDD3N, IDD4R, IDD4W, IDD5;
    int64_t devices_per_rank;
};

extern const struct cfg_key dram_spec_keys[];
extern const unsigned dram_spec_nkeys;

/* Names and one-line descriptions of the built-in presets. */
struct dram_preset {
    const char *name;
    const char *doc;
    const struct dram_spec *spec;
};
extern const struct dram_preset dram_presets[];
extern const unsigned dram_npresets;

const struct dram_spec *dram_preset_find(const char *name);

/* Reads dram.preset, fills *s from it, applies every [dram] setting and checks the cross-key
 * rules (e.g. tRAS <= tRC, power-of-two geometry). Errors name the offending setting's file:line.
 */
int dram_spec_configure(struct dram_spec *s, struct cfg *c, struct ws_err *e);
/* Checks the rules that span several keys; `c` (may be NULL) gives origins for messages. */
int dram_spec_validate(const struct dram_spec *s, const struct cfg *c, struct ws_err *e);

/* Derived figures. */
static inline int64_t dram_access_bytes(const struct dram_spec *s) {
    return s->bus_bits * s->burst_length / 8;
}
static inline int64_t dram_banks_per_rank(const struct dram_spec *s) {
    return s->bankgroups * s->banks_per_group;
}
/* Peak data bandwidth of one channel (all its pseudo-channels), in bytes per second. */
double dram_peak_bw_channel(const struct dram_spec *s);
/* Unloaded read latency from ACT to last data beat for a closed bank, in tCK. */
static inline int64_t dram_closed_read_latency(const struct dram_spec *s) {
    return s->RCDRD + s->CL + s->nBL;
}

/* One command as it appeared on a channel's command bus: the whole of what the protocol checker
 * and the power model see. `row` is meaningful for ACT (and RD/WR: the open row), `col` for
 * column commands. `rank` is within the pseudo-channel `pc`. */
struct dram_cmd_rec {
    uint64_t cycle; /* tCK of the DRAM command clock */
    enum dram_cmd cmd;
    uint32_t ch, pc, rank, bg, bank, row, col;
};
