/* Clock domains (core, NoC, L2, DRAM), each with its own frequency. Time advances from one
 * domain edge to the next, in integer femtoseconds so that every run visits the same edges in
 * the same order; domains whose edges coincide tick in a fixed order. A domain's cycle number is
 * the count of its edges passed, so jumping ahead (skipping idle time) is a division. */
#pragma once

#include <stdint.h>

enum clk_domain { CLK_CORE, CLK_NOC, CLK_L2, CLK_DRAM, CLK_N };

struct clocks {
    uint64_t period_fs[CLK_N];
    uint64_t cyc[CLK_N]; /* next cycle of each domain to run */
};

/* Frequencies in MHz; the DRAM domain is given by its tCK in picoseconds. */
void clocks_init(struct clocks *k, double core_mhz, double noc_mhz, double l2_mhz,
                 uint64_t dram_tck_ps);
/* Time of a domain's next edge. */
static inline uint64_t clocks_edge(const struct clocks *k, enum clk_domain d) {
    return k->cyc[d] * k->period_fs[d];
}
/* The earliest next edge; sets bit d of *mask for every domain with an edge at that time. */
uint64_t clocks_next(const struct clocks *k, unsigned *mask);
/* Moves every domain forward so that no edge before time t remains (skips idle time). */
void clocks_skip_to(struct clocks *k, uint64_t t);
/* Time of cycle `c` of domain d. */
static inline uint64_t clocks_time_of(const struct clocks *k, enum clk_domain d, uint64_t c) {
    return c * k->period_fs[d];
}
const char *clocks_name(enum clk_domain d);
