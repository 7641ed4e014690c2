#include "gpu/energy.h"

#include <stddef.h>

#include "workload/workload.h"

/* Defaults are 45 nm figures (scale 1): arithmetic from Horowitz's ISSCC 2014 table (32-bit
 * integer add 0.1 pJ and multiply 3.1 pJ, float add 0.9 pJ and multiply 3.7 pJ; SRAM reads of
 * 64 bits: 8 KB 10 pJ, 32 KB 20 pJ, 1 MB 100 pJ); the rest are derived from those in
 * docs/energy.md. Presets set energy.scale and energy.static_w for their process and chip. */
#define OFF(f) offsetof(struct energy_cfg, f)
const struct cfg_key energy_cfg_keys[] = {
    {"energy.scale", CFG_DOUBLE, OFF(scale), "1", 0, 100, NULL, "",
     "technology factor on every dynamic per-event energy (1 = 45 nm)"},
    {"energy.issue_pj", CFG_DOUBLE, OFF(issue_pj), "30", 0, 1e6, NULL, "pJ",
     "per warp instruction: I-cache read (32 KB-class, 20 pJ), decode, scoreboard, scheduler"},
    {"energy.lane_pj", CFG_DOUBLE, OFF(lane_pj), "40", 0, 1e6, NULL, "pJ",
     "per active lane of every instruction: pipeline registers, operand crossbar and clock "
     "(chosen; see docs/energy.md)"},
    {"energy.int_pj", CFG_DOUBLE, OFF(int_pj), "3.2", 0, 1e6, NULL, "pJ",
     "per active lane of an integer instruction (IMAD: multiply 3.1 + add 0.1)"},
    {"energy.sp_pj", CFG_DOUBLE, OFF(sp_pj), "4.6", 0, 1e6, NULL, "pJ",
     "per active lane of a single-precision instruction (FFMA: multiply 3.7 + add 0.9)"},
    {"energy.dp_pj", CFG_DOUBLE, OFF(dp_pj), "18.4", 0, 1e6, NULL, "pJ",
     "per active lane of a double-precision instruction (4x FFMA: 4x the partial products)"},
    {"energy.sfu_pj", CFG_DOUBLE, OFF(sfu_pj), "23", 0, 1e6, NULL, "pJ",
     "per active lane of an SFU instruction (table lookup + interpolation, 5x FFMA)"},
    {"energy.tensor_pj", CFG_DOUBLE, OFF(tensor_pj), "147", 0, 1e6, NULL, "pJ",
     "per active lane of a tensor instruction (32 FFMA-equivalents per lane)"},
    {"energy.branch_pj", CFG_DOUBLE, OFF(branch_pj), "0.1", 0, 1e6, NULL, "pJ",
     "per active lane of a branch, barrier or exit (a compare: one integer add)"},
    {"energy.mem_pj", CFG_DOUBLE, OFF(mem_pj), "3.2", 0, 1e6, NULL, "pJ",
     "per active lane of a memory instruction: address arithmetic (IMAD)"},
    {"energy.rf_pj", CFG_DOUBLE, OFF(rf_pj), "5", 0, 1e6, NULL, "pJ",
     "per 32-bit register operand of one lane (half a 64-bit read of an 8 KB bank, 10 pJ)"},
    {"energy.l1_pj", CFG_DOUBLE, OFF(l1_pj), "80", 0, 1e6, NULL, "pJ",
     "per L1D access (32 B sector from a 32 KB-class array: 4 x 20 pJ)"},
    {"energy.smem_pj", CFG_DOUBLE, OFF(smem_pj), "160", 0, 1e6, NULL, "pJ",
     "per shared-memory access cycle (32 banks x one 32-bit word, 5 pJ each)"},
    {"energy.l2_pj", CFG_DOUBLE, OFF(l2_pj), "400", 0, 1e6, NULL, "pJ",
     "per L2 access (32 B sector from a 1 MB-class array: 4 x 100 pJ)"},
    {"energy.flit_pj", CFG_DOUBLE, OFF(flit_pj), "250", 0, 1e6, NULL, "pJ",
     "per NoC flit (about 256 bits carried about 10 mm at 0.1 pJ per bit and mm)"},
    {"energy.static_w", CFG_DOUBLE, OFF(static_w), "30", 0, 1e4, NULL, "W",
     "static (leakage and constant) power of the chip without its DRAM"},
};
const unsigned energy_cfg_nkeys = CFG_COUNT(energy_cfg_keys);
#undef OFF

int energy_cfg_configure(struct energy_cfg *ec, struct cfg *c, struct ws_err *e) {
    return cfg_bind(c, "energy", energy_cfg_keys, energy_cfg_nkeys, ec, e);
}

void energy_compute(const struct energy_cfg *ec, const struct energy_events *ev,
                    struct energy_result *r) {
    _Static_assert(OP_NCLASS == 9, "energy_events.lanes follows enum op_class");
    const double pj = 1e-12 * ec->scale;
    double lane_pj[OP_NCLASS] = {0};
    lane_pj[OP_INT] = ec->int_pj;
    lane_pj[OP_SP] = ec->sp_pj;
    lane_pj[OP_DP] = ec->dp_pj;
    lane_pj[OP_SFU] = ec->sfu_pj;
    lane_pj[OP_TENSOR] = ec->tensor_pj;
    lane_pj[OP_BRANCH] = lane_pj[OP_BAR] = lane_pj[OP_EXIT] = ec->branch_pj;
    lane_pj[OP_MEM] = ec->mem_pj;
    double core = (double)ev->warp_insts * ec->issue_pj;
    for (int k = 0; k < OP_NCLASS; k++) core += (double)ev->lanes[k] * (lane_pj[k] + ec->lane_pj);
    r->core_j = core * pj;
    r->rf_j = (double)ev->rf_accesses * ec->rf_pj * pj;
    r->cache_j = ((double)ev->l1_accesses * ec->l1_pj + (double)ev->smem_cycles * ec->smem_pj +
                  (double)ev->l2_accesses * ec->l2_pj) *
                 pj;
    r->noc_j = (double)ev->flits * ec->flit_pj * pj;
    r->dram_j = ev->dram_nj * 1e-9;
    r->static_j = ec->static_w * ev->seconds;
    r->total_j = r->core_j + r->rf_j + r->cache_j + r->noc_j + r->dram_j + r->static_j;
    r->power_w = ev->seconds > 0 ? r->total_j / ev->seconds : 0;
    r->edp_js = r->total_j * ev->seconds;
}
