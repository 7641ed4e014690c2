/* A memory request as it travels from its origin (a GPU warp's load, a CPU core's ROB slot, a
 * trace line) to DRAM and back. The origin fields let warp-aware policies group requests by the
 * warp instruction that made them without reaching into the SM (DESIGN.md, "The data that
 * flows"). Each layer stamps the time it handled the request, in its own clock domain. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

enum mem_ts {
    MEM_TS_ISSUE,    /* created (LDST, trace front end) */
    MEM_TS_L1,       /* L1 lookup */
    MEM_TS_NOC_IN,   /* entered the crossbar */
    MEM_TS_NOC_OUT,  /* left the crossbar at the memory partition */
    MEM_TS_L2,       /* L2 lookup */
    MEM_TS_MC_ENQ,   /* entered a memory-controller queue (DRAM cycles) */
    MEM_TS_DRAM_CMD, /* first DRAM command issued for it (DRAM cycles) */
    MEM_TS_COL,      /* its column command issued (DRAM cycles) */
    MEM_TS_DATA,     /* last data beat on the DRAM bus (DRAM cycles) */
    MEM_TS_BACK,     /* back at the requester */
    MEM_TS_N
};

struct mem_origin {
    uint16_t app, kernel;
    uint16_t sm, subcore;
    uint32_t warp_slot; /* warp slot in its SM */
    uint32_t gwarp;     /* global warp id, unique across SMs */
    uint64_t load_id;   /* dynamic id of the warp instruction: (gwarp, sequence) packed */
    uint64_t pc;
    uint16_t nreq;     /* requests created by that warp instruction */
    uint16_t thread;   /* CPU core / trace index for CPU front ends */
    uint32_t rob_slot; /* CPU front ends: ROB entry waiting for it */
};

/* What a GPU request asks of the memory hierarchy (is_write stays the DRAM-level direction). */
enum mem_kind {
    MEM_LOAD,      /* read of `sectors` */
    MEM_STORE,     /* write of `sectors` (data travels with the request) */
    MEM_ATOMIC,    /* read-modify-write performed at the L2 */
    MEM_WRITEBACK, /* dirty sectors evicted from a cache */
};

struct mem_req {
    uint64_t addr;
    bool is_write;
    uint32_t bytes; /* bytes requested (a burst or a sector group) */
    uint64_t tag;   /* opaque to the memory system; returned to the requester */
    struct mem_origin o;
    uint64_t ts[MEM_TS_N];
    /* GPU path (unused by the DRAM-only front ends). */
    uint8_t kind;            /* enum mem_kind */
    uint8_t sectors;         /* mask of 32 B sectors of the 128 B line at addr */
    bool offchip;            /* its data came from DRAM (an L2 miss, or merged into one) */
    uint8_t offchip_sectors; /* of the sectors it waited for at the cache that released it, those
                                whose data came from DRAM (cache_fill_from); 0 for hits */
    uint16_t src, dst;       /* NoC endpoints: SM id, memory sub-partition id (dst is set when
                                the request leaves the SM: not for L1 hits) */
    uint64_t gaddr;          /* its global address while an L2 slice holds it at the slice's
                                local one (addr), so that the reply need not map it back */
    struct mem_req *next;    /* intrusive list link for whoever holds it */
};
