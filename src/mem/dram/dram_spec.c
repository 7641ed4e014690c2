/* DRAM spec: config keys, preset lookup and cross-key validation (see dram_spec.h). */
#include "mem/dram/dram_spec.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

const char *const dram_std_names[] = {"DDR3", "DDR4", "GDDR5", "GDDR6", "HBM2", "HBM3", NULL};

const char *const dram_cmd_names[DRAM_NCMD] = {"ACT", "PRE", "PREA", "RD",   "WR",  "RDA",
                                               "WRA", "REF", "PDEF", "PDES", "PDX", "REFPB"};

#define OFF(f) offsetof(struct dram_spec, f)
#define TK(name, f, lo, hi, doc)                                                                   \
    { "dram." name, CFG_INT, OFF(f), NULL, lo, hi, NULL, "tCK", doc }
#define IK(name, f, lo, hi, unit, doc)                                                             \
    { "dram." name, CFG_INT, OFF(f), NULL, lo, hi, NULL, unit, doc }
#define DK(name, f, lo, hi, unit, doc)                                                             \
    { "dram." name, CFG_DOUBLE, OFF(f), NULL, lo, hi, NULL, unit, doc }

/* Every key defaults to the preset's value (def == NULL); dram.preset itself is read first. */
const struct cfg_key dram_spec_keys[] = {
    {"dram.preset", CFG_STRING, OFF(preset), "ddr4-2400", 0, 0, NULL, "",
     "built-in DRAM preset the other [dram] keys override (warpsim list presets)"},
    {"dram.standard", CFG_ENUM, OFF(std), NULL, 0, 0, dram_std_names, "",
     "DRAM standard (selects refresh and power-down behaviour)"},
    IK("channels", channels, 1, 1024, "", "independent channels (one controller each)"),
    IK("pseudo_channels", pseudo_channels, 1, 2, "", "HBM pseudo-channels per channel"),
    IK("ranks", ranks, 1, 8, "", "ranks per (pseudo-)channel"),
    IK("bankgroups", bankgroups, 1, 16, "", "bank groups per rank"),
    IK("banks_per_group", banks_per_group, 1, 64, "", "banks per bank group"),
    IK("rows", rows, 1, 1 << 24, "", "rows per bank"),
    IK("columns", columns, 1, 1 << 16, "bursts", "column accesses (bursts) per row"),
    IK("bus_bits", bus_bits, 8, 1024, "bit", "data bus width of a (pseudo-)channel"),
    IK("burst_length", burst_length, 1, 64, "beats", "data beats per burst"),
    {"dram.dual_cmd_bus", CFG_BOOL, OFF(dual_cmd_bus), NULL, 0, 0, NULL, "",
     "separate row and column command buses (HBM)"},
    IK("tCK_ps", tCK_ps, 100, 100000, "ps", "command clock period"),
    TK("nBL", nBL, 1, 64, "data-bus cycles per burst"),
    TK("CL", CL, 1, 200, "RD to first data (CAS latency)"),
    TK("CWL", CWL, 0, 200, "WR to first data (CAS write latency)"),
    TK("RCDRD", RCDRD, 1, 200, "ACT to RD, same bank"),
    TK("RCDWR", RCDWR, 1, 200, "ACT to WR, same bank"),
    TK("RP", RP, 1, 200, "PRE to ACT, same bank"),
    TK("RAS", RAS, 1, 400, "ACT to PRE, same bank"),
    TK("RC", RC, 1, 600, "ACT to ACT, same bank"),
    TK("RRD_S", RRD_S, 1, 100, "ACT to ACT, other bank group"),
    TK("RRD_L", RRD_L, 1, 100, "ACT to ACT, same bank group"),
    TK("FAW", FAW, 0, 400, "window holding at most 4 ACTs per rank (0 = none)"),
    TK("X32AW", X32AW, 0, 2000, "window holding at most 32 ACTs per rank, GDDR5 (0 = none)"),
    TK("CCD_S", CCD_S, 1, 64, "column to column, other bank group"),
    TK("CCD_L", CCD_L, 1, 64, "column to column, same bank group"),
    TK("WTR_S", WTR_S, 0, 100, "end of write data to RD, other bank group"),
    TK("WTR_L", WTR_L, 0, 100, "end of write data to RD, same bank group"),
    TK("RTW", RTW, 1, 200, "RD to WR on the same data bus (read-to-write turnaround)"),
    TK("WR", WR, 1, 200, "end of write data to PRE (write recovery)"),
    TK("RTP", RTP, 1, 100, "RD to PRE, same bank"),
    TK("RTRS", RTRS, 0, 32, "extra data-bus gap when switching ranks"),
    TK("REFI", REFI, 0, 1000000, "average refresh interval per rank (0 = no refresh)"),
    TK("RFC", RFC, 1, 10000, "REF to any command, same rank"),
    TK("RFCpb", RFCpb, 0, 10000,
       "per-bank REF to ACT or REF, same bank (0 = no per-bank refresh; mc.refresh)"),
    TK("RREFD", RREFD, 0, 200, "per-bank REF to ACT or per-bank REF, another bank of the rank"),
    TK("XP", XP, 1, 200, "power-down exit (fast) to any command"),
    TK("XPDLL", XPDLL, 1, 2000, "slow (DLL-off) power-down exit to any command"),
    TK("CKE", CKE, 1, 200, "minimum power-down residency"),
    DK("VDD", VDD, 0.5, 3.0, "V", "device supply voltage"),
    DK("IDD0", IDD0, 0, 2000, "mA", "one-bank ACT-PRE current"),
    DK("IDD2P0", IDD2P0, 0, 2000, "mA", "precharge power-down current, slow exit"),
    DK("IDD2P1", IDD2P1, 0, 2000, "mA", "precharge power-down current, fast exit"),
    DK("IDD2N", IDD2N, 0, 2000, "mA", "precharge standby current"),
    DK("IDD3P", IDD3P, 0, 2000, "mA", "active power-down current"),
    DK("IDD3N", IDD3N, 0, 2000, "mA", "active standby current"),
    DK("IDD4R", IDD4R, 0, 5000, "mA", "burst read current"),
    DK("IDD4W", IDD4W, 0, 5000, "mA", "burst write current"),
    DK("IDD5", IDD5, 0, 5000, "mA", "burst refresh current"),
    IK("devices_per_rank", devices_per_rank, 1, 64, "", "DRAM devices (chips) per rank"),
};
const unsigned dram_spec_nkeys = CFG_COUNT(dram_spec_keys);

const struct dram_spec *dram_preset_find(const char *name) {
    for (unsigned i = 0; i < dram_npresets; i++)
        if (strcasecmp(dram_presets[i].name, name) == 0) return dram_presets[i].spec;
    return NULL;
}

double dram_peak_bw_channel(const struct dram_spec *s) {
    /* one burst of access_bytes per nBL command cycles, per pseudo-channel data bus */
    return (double)dram_access_bytes(s) * (double)s->pseudo_channels /
           ((double)s->nBL * (double)s->tCK_ps * 1e-12);
}

static int is_pow2(int64_t v) {
    return v > 0 && (v & (v - 1)) == 0;
}

int dram_spec_validate(const struct dram_spec *s, const struct cfg *c, struct ws_err *e) {
    char where[600] = "preset";
    /* A rule between two keys blames the one the user set (the second when both were). */
#define WHERE(k1, k2)                                                                              \
    (!c ? where                                                                                    \
        : cfg_origin(c,                                                                            \
                     cfg_raw(c, "dram." k2) || !cfg_raw(c, "dram." k1) ? "dram." k2 : "dram." k1,  \
                     where, sizeof where))
#define RULE(cond, k1, k2, ...)                                                                    \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            char msg[400];                                                                         \
            snprintf(msg, sizeof msg, __VA_ARGS__);                                                \
            return ws_fail(e, "%s: %s", WHERE(k1, k2), msg);                                       \
        }                                                                                          \
    } while (0)
    RULE(s->RAS <= s->RC, "RC", "RAS", "dram.RC = %lld is shorter than dram.RAS = %lld",
         (long long)s->RC, (long long)s->RAS);
    RULE(s->RRD_S <= s->RRD_L, "RRD_L", "RRD_S",
         "dram.RRD_L = %lld is shorter than dram.RRD_S = %lld", (long long)s->RRD_L,
         (long long)s->RRD_S);
    RULE(s->CCD_S <= s->CCD_L, "CCD_L", "CCD_S",
         "dram.CCD_L = %lld is shorter than dram.CCD_S = %lld", (long long)s->CCD_L,
         (long long)s->CCD_S);
    RULE(s->WTR_S <= s->WTR_L, "WTR_L", "WTR_S",
         "dram.WTR_L = %lld is shorter than dram.WTR_S = %lld", (long long)s->WTR_L,
         (long long)s->WTR_S);
    RULE(s->CCD_S >= s->nBL, "CCD_S", "nBL",
         "dram.CCD_S = %lld is shorter than a burst (dram.nBL = %lld): data would overlap",
         (long long)s->CCD_S, (long long)s->nBL);
    /* tRTW is a key of its own (the presets derive it from CL, CWL and nBL), so moving CL or CWL
     * alone could let a write's data start before a read's has left the bus. Blame the key the
     * user set, RTW first. */
    if (s->RTW < s->CL + s->nBL - s->CWL) {
        static const char *const keys[] = {"dram.RTW", "dram.CL", "dram.CWL", "dram.nBL"};
        const char *k = keys[0];
        for (unsigned i = 0; c && i < 4; i++)
            if (cfg_raw(c, keys[i])) {
                k = keys[i];
                break;
            }
        return ws_fail(e,
                       "%s: dram.RTW = %lld is shorter than dram.CL + dram.nBL - dram.CWL = %lld: "
                       "a write's data would overlap the read's on the data bus (the presets use "
                       "RTW = CL + nBL + 2 - CWL = %lld; set dram.RTW with CL or CWL)",
                       c ? cfg_origin(c, k, where, sizeof where) : where, (long long)s->RTW,
                       (long long)(s->CL + s->nBL - s->CWL),
                       (long long)(s->CL + s->nBL + 2 - s->CWL));
    }
    RULE(s->REFI == 0 || s->RFC < s->REFI, "RFC", "REFI",
         "dram.RFC = %lld is not shorter than dram.REFI", (long long)s->RFC);
    RULE(s->RFCpb == 0 || s->REFI == 0 || s->RFCpb < s->REFI / (s->bankgroups * s->banks_per_group),
         "RFCpb", "REFI",
         "dram.RFCpb = %lld is not shorter than the per-bank refresh interval dram.REFI / banks "
         "= %lld",
         (long long)s->RFCpb, (long long)(s->REFI / (s->bankgroups * s->banks_per_group)));
    RULE(s->FAW == 0 || s->FAW >= s->RRD_S, "FAW", "RRD_S",
         "dram.FAW = %lld is shorter than dram.RRD_S", (long long)s->FAW);
    RULE(s->pseudo_channels == 1 || s->std == DRAM_HBM2 || s->std == DRAM_HBM3, "pseudo_channels",
         "standard", "pseudo-channels exist only for HBM2 and HBM3 (dram.standard)");
    RULE(is_pow2(s->ranks), "ranks", "ranks", "dram.ranks = %lld is not a power of two",
         (long long)s->ranks);
    RULE(is_pow2(s->bankgroups), "bankgroups", "bankgroups",
         "dram.bankgroups is not a power of two");
    RULE(is_pow2(s->banks_per_group), "banks_per_group", "banks_per_group",
         "dram.banks_per_group is not a power of two");
    RULE(is_pow2(s->rows), "rows", "rows", "dram.rows = %lld is not a power of two",
         (long long)s->rows);
    RULE(is_pow2(s->columns), "columns", "columns", "dram.columns = %lld is not a power of two",
         (long long)s->columns);
    RULE(is_pow2(dram_access_bytes(s)), "bus_bits", "burst_length",
         "burst size dram.bus_bits * dram.burst_length / 8 = %lld bytes is not a power of two",
         (long long)dram_access_bytes(s));
    RULE(s->bankgroups * s->banks_per_group <= 64, "banks_per_group", "bankgroups",
         "more than 64 banks per rank");
#undef RULE
#undef WHERE
    return 0;
}

int dram_spec_configure(struct dram_spec *s, struct cfg *c, struct ws_err *e) {
    const char *name = cfg_raw(c, "dram.preset");
    if (!name) name = dram_spec_keys[0].def;
    const struct dram_spec *p = dram_preset_find(name);
    if (!p) {
        char where[600], list[512] = "";
        for (unsigned i = 0; i < dram_npresets; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, dram_presets[i].name, sizeof list - strlen(list) - 1);
        }
        return ws_fail(e, "%s: dram.preset = '%s' is not a known preset (known: %s)",
                       cfg_origin(c, "dram.preset", where, sizeof where), name, list);
    }
    *s = *p;
    if (cfg_bind(c, "dram", dram_spec_keys, dram_spec_nkeys, s, e) != 0) return -1;
    return dram_spec_validate(s, c, e);
}
