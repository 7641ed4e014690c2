/* GPU energy: per-event energies times the run's event counts, plus static power times its
 * runtime (what seed 000 Fig. 13 compares). Events: warp-instruction issue, per-lane operations
 * by class, register-file operand accesses, L1D / shared-memory / L2 accesses, NoC flits; the
 * DRAM's own energy comes from the DRAM power model (IDD currents per preset). Coefficients are
 * 45 nm per-event energies (docs/energy.md says where each comes from) times one technology
 * scale per machine preset, all of them config keys ([energy]). */
#pragma once

#include <stdint.h>

#include "base/cfg.h"
#include "base/err.h"

struct energy_cfg {
    double scale;    /* technology factor on every dynamic per-event energy below */
    double issue_pj; /* per warp instruction: fetch, decode, scoreboard, scheduling */
    double lane_pj;  /* per active lane of any instruction: pipeline registers, operand
                        crossbar, clock */
    double int_pj, sp_pj, dp_pj, sfu_pj, tensor_pj, branch_pj, mem_pj; /* per active lane */
    double rf_pj;    /* per 32-bit register operand access of one lane */
    double l1_pj;    /* per L1D access */
    double smem_pj;  /* per shared-memory access cycle (a warp access; conflicts add cycles) */
    double l2_pj;    /* per L2 access */
    double flit_pj;  /* per NoC flit delivered */
    double static_w; /* leakage and constant power of the chip (without the DRAM) */
};
extern const struct cfg_key energy_cfg_keys[];
extern const unsigned energy_cfg_nkeys;
int energy_cfg_configure(struct energy_cfg *ec, struct cfg *c, struct ws_err *e);

/* What the model charges: counts from the SMs, caches and NoC, the DRAM model's energy. */
struct energy_events {
    uint64_t warp_insts;
    uint64_t lanes[9]; /* active lanes per op class (enum op_class: int, sp, dp, sfu, tensor,
                          branch, bar, mem, exit) */
    uint64_t rf_accesses, l1_accesses, smem_cycles, l2_accesses, flits;
    double dram_nj;
    double seconds; /* simulated time */
};

struct energy_result {
    double core_j;                   /* issue + lane operations */
    double rf_j;                     /* register file */
    double cache_j;                  /* L1D + shared memory + L2 */
    double noc_j;                    /* crossbar flits */
    double dram_j;                   /* from the DRAM power model */
    double static_j;                 /* static_w x simulated time */
    double total_j, power_w, edp_js; /* sum; total / time; total x time */
};

void energy_compute(const struct energy_cfg *ec, const struct energy_events *ev,
                    struct energy_result *r);
