/* The core.warp_sched seam: each sub-core's warp scheduler is a table of functions chosen by name
 * (sched.def). Every cycle in which one of its warps might issue, the SM builds a view of the
 * sub-core's resident warps (slot order) with what a scheduler may base a choice on: whether the
 * warp can issue now (scoreboard, unit, LDST and barrier checks passed), why not otherwise, its
 * age (dispatch order), its next instruction and the requests that instruction will make, and the
 * SM's L1D MSHR and LDST occupancy. pick() returns the index in the view of a ready warp to issue,
 * or -1 to issue nothing (a throttling policy may hold back ready warps).
 *
 * Policies keep their own state (one instance per sub-core, plus an optional one per SM shared by
 * its sub-cores, e.g. for an MSHR budget), never file-scope mutable state. Optional hooks may be
 * NULL. A policy with settings binds its `core.<name>.*` keys in configure(), into a parameter
 * block kept in struct sm_cfg, and reads them back in create(). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/cfg.h"
#include "base/err.h"
#include "mem/mem_req.h"
#include "workload/workload.h"

/* Why a warp cannot issue (also the stall reasons counted per scheduler cycle). */
enum sched_stall {
    STALL_NONE,       /* ready (or nothing to say: exited) */
    STALL_SCOREBOARD, /* a source or destination register is still being written */
    STALL_UNIT,       /* the execution unit of its class is busy (initiation interval) */
    STALL_IBUF,       /* no decoded instruction */
    STALL_LDST,       /* the LDST unit cannot take its memory instruction now */
    STALL_BARRIER,    /* waiting at bar.sync for the rest of its CTA */
    STALL_EXITED,     /* finished; its slot is held until its CTA completes */
    STALL_N
};

struct sched_warp {
    uint32_t slot;           /* warp slot in the SM */
    uint32_t cta;            /* CTA slot in the SM */
    uint64_t age;            /* dispatch order on this SM: smaller is older */
    bool ready;              /* may issue this cycle */
    uint8_t stall;           /* enum sched_stall when not ready */
    uint16_t nreq;           /* line requests its next instruction makes (memory), else 0 */
    const struct inst *next; /* its next instruction (NULL once exited) */
};

struct sched_view {
    uint64_t now;
    uint32_t sm, subcore;
    const struct sched_warp *w; /* resident warps of this sub-core, in slot order */
    uint32_t n;
    uint32_t nready;
    uint32_t mshr_used, mshr_total; /* L1D MSHR entries in use / configured */
    uint32_t ldst_used, ldst_total; /* LDST line-request queue entries in use / configured */
};

struct sched_env {
    uint32_t sm, subcore, nsub, max_warps;
    const void *params; /* this policy's configured block (sm_cfg.sched_params) */
    void *shared;       /* the per-SM state from create_shared (NULL when not used) */
};

struct sched_policy {
    const char *name;
    const char *doc;
    /* Optional: binds core.<name>.* keys into params (SCHED_PARAMS_BYTES bytes, zeroed). */
    int (*configure)(void *params, struct cfg *c, struct ws_err *e);
    /* Optional: per-SM state shared by the SM's sub-core schedulers. */
    void *(*create_shared)(const struct sched_env *env, struct ws_err *e);
    void (*destroy_shared)(void *shared);
    void *(*create)(const struct sched_env *env, struct ws_err *e);
    void (*destroy)(void *st);
    int (*pick)(void *st, const struct sched_view *v);
    /* Optional hooks. */
    void (*on_issue)(void *st, const struct sched_warp *w, uint64_t now);
    void (*on_warp_start)(void *st, uint32_t slot, uint64_t age);
    void (*on_warp_end)(void *st, uint32_t slot);
    /* Every L1D access made for one of this sub-core's warps (CCWS-style locality feedback). */
    void (*on_l1_access)(void *st, const struct mem_req *r, int cache_outcome, uint64_t now);
};

enum { SCHED_PARAMS_BYTES = 256 };

extern const struct sched_policy *const sched_policies[];
extern const unsigned sched_npolicies;
const struct sched_policy *sched_find(const char *name);
/* "lrr, gto" for messages. */
void sched_list(char *buf, unsigned n);
