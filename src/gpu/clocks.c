#include "gpu/clocks.h"

#include <math.h>

static uint64_t period_of(double mhz) {
    /* 1e9 fs per us / MHz; rounded to whole femtoseconds (an error below 1 ppm). */
    return (uint64_t)llround(1e9 / mhz);
}

void clocks_init(struct clocks *k, double core_mhz, double noc_mhz, double l2_mhz,
                 uint64_t dram_tck_ps) {
    k->period_fs[CLK_CORE] = period_of(core_mhz);
    k->period_fs[CLK_NOC] = period_of(noc_mhz);
    k->period_fs[CLK_L2] = period_of(l2_mhz);
    k->period_fs[CLK_DRAM] = dram_tck_ps * 1000;
    for (int d = 0; d < CLK_N; d++) k->cyc[d] = 0;
}

uint64_t clocks_next(const struct clocks *k, unsigned *mask) {
    uint64_t t = UINT64_MAX;
    unsigned m = 0;
    for (int d = 0; d < CLK_N; d++) {
        uint64_t x = clocks_edge(k, (enum clk_domain)d);
        if (x < t) {
            t = x;
            m = 1u << d;
        } else if (x == t) {
            m |= 1u << d;
        }
    }
    *mask = m;
    return t;
}

void clocks_skip_to(struct clocks *k, uint64_t t) {
    for (int d = 0; d < CLK_N; d++) {
        uint64_t c = (t + k->period_fs[d] - 1) / k->period_fs[d];
        if (c > k->cyc[d]) k->cyc[d] = c;
    }
}

const char *clocks_name(enum clk_domain d) {
    static const char *const n[CLK_N] = {"core", "noc", "l2", "dram"};
    return n[d];
}
