/* The mc.policy seam: a memory-controller scheduler is a table of functions chosen by name.
 *
 * Contract: the controller calls pick() at most once per command slot of a DRAM cycle (twice
 * per cycle with a dual command bus), after refresh and power management, with a read-only
 * view of the queues and the DRAM state. pick() returns the command to issue now, or false to
 * issue nothing. A choice names either a queued request (its next command, optionally upgraded
 * from RD/WR to RDA/WRA) or an "at-large" command without a request (ACT/PRE/PREA, e.g. a
 * speculative precharge; power-down entry and exit; REF under mc.refresh_mode = usimm); the
 * controller asserts that the choice is issuable now. Policies keep
 * their state in their own struct (no file-scope mutable state) and may write only
 * mc_req.scratch of requests. on_enqueue/on_issue/on_complete may be NULL.
 *
 * Candidate index (optional, bank_cand): a policy that ranks requests bank by bank (each bank
 * offers at most one request of the current queue, e.g. FR-FCFS's oldest row hit, else its oldest
 * request) names that request in bank_cand(), with a class and a sort key of its own choosing,
 * and the controller keeps, for every bank, the cycle its candidate's next command can issue.
 * mcv_cand_ready() then lists the banks whose candidate can issue now, one bitmap per class, and
 * mcv_cand_min() the one with the smallest key; a cycle in which none can costs no pick() call at
 * all (the controller sleeps until the earliest one can). bank_cand() must be pure and depend
 * only on that bank's requests in queue q, its open row and mcv_row_hits_bypassed(): the
 * controller asks again whenever one of those may have changed. The index is an accelerator, not
 * a restriction: every other accessor stays available and pick() may still choose any issuable
 * command, but with bank_cand it runs only in cycles where some candidate can issue or a wake it
 * requested (mcv_request_wake) is due. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/cfg.h"
#include "base/stats.h"
#include "mem/mc/mc.h"
#include "mem/mc/warp_table.h"

struct mc_view; /* opaque: use the accessors below */

struct mc_choice {
    struct mc_req *req; /* NULL for an at-large command */
    enum dram_cmd cmd;
    struct dram_addr addr; /* for at-large commands */
};

struct mc_policy_env {
    const struct dram_spec *spec;
    uint32_t channel;
    uint32_t nbanks; /* flat banks in the channel */
    const struct mc_cfg *mcfg;
    struct warp_table *wt; /* shared by every controller; set when the policy asks for it */
    struct upstream *up;   /* per warp-load requests still upstream (mem/upstream.h) */
    bool *up_used;         /* a policy that reads `up` sets this, so that the GPU counts them */
};

struct mc_policy {
    const char *name;
    const char *doc;
    const struct cfg_key *keys; /* this policy's config keys (mc.<name>.*), may be NULL */
    unsigned nkeys;
    /* Keys it shares with a family of policies (the warp-group schedulers' mc.wg.*), may be
     * NULL; listed apart so that `warpsim config keys` prints each table once. */
    const struct cfg_key *family_keys;
    unsigned nfamily_keys;
    /* Allocates the policy state; reads its keys from c. */
    void *(*create)(const struct mc_policy_env *env, struct cfg *c, struct ws_err *e);
    void (*destroy)(void *st);
    bool (*pick)(void *st, const struct mc_view *v, struct mc_choice *out);
    void (*on_enqueue)(void *st, const struct mc_view *v, struct mc_req *r);
    void (*on_issue)(void *st, const struct mc_view *v, const struct mc_choice *c);
    void (*on_complete)(void *st, const struct mc_view *v, const struct mc_req *r);
    /* Candidate of `bank` in queue q, NULL for none; *cls in [0, MC_NCLS) is the class its bank
     * is listed under in mcv_cand_ready(), *key its rank for mcv_cand_min() (e.g. its seq). May
     * be NULL (no index). */
    struct mc_req *(*bank_cand)(void *st, const struct mc_view *v, enum mc_q q, uint32_t bank,
                                unsigned *cls, uint64_t *key);
    /* With bank_cand: pick() is exactly "the ready candidate with the smallest key in the lowest
     * class that has one" (frfcfs_oldest_ready), so the controller makes that choice itself
     * without calling pick(); debug builds still call it and assert the two agree. */
    bool pick_class_min;
    /* Optional, with bank_cand: bank_cand is FR-FCFS's (frfcfs_core.h) with the row-hit cap this
     * returns (0: none), so the controller computes the candidates inline instead of calling
     * bank_cand for every command (debug builds still compare them every cycle: ci_verify). */
    uint32_t (*frfcfs_cap)(const void *st);
    /* Whether the policy reads the shared warp alias/entry tables (env.wt; keys mc.wet.*). */
    bool warp_table;
    /* Optional counters of its own: a struct of stat_size bytes described by stat_desc (every
     * entry STAT_COUNTER, summed over channels into the result's "sched" group). */
    const struct stat_desc *stat_desc;
    unsigned nstat;
    size_t stat_size;
    const void *(*stats)(const void *st);
};

enum { MC_NCLS = 4 }; /* candidate classes of the index */

/* Registry (policies.def). */
const struct mc_policy *mc_policy_find(const char *name);
extern const struct mc_policy *const mc_policies[];
extern const unsigned mc_npolicies;
/* The registered name nearest to an unknown one, when it looks like a typo of it; else NULL. */
const char *mc_policy_suggest(const char *name);
/* Whether policy p reads the key table t (its own, its family's, or the warp tables' mc.wet.*). */
bool mc_policy_reads_table(const struct mc_policy *p, const struct cfg_key *t);
/* The names of the policies that read key table t, in registry order, ", "-separated, into buf. */
void mc_table_readers(const struct cfg_key *t, char *buf, size_t n);

/* ---- view accessors ---- */
uint64_t mcv_now(const struct mc_view *v);
const struct dram_spec *mcv_spec(const struct mc_view *v);
/* Whether the controller is in write-drain mode (watermarks / no reads pending). */
bool mcv_draining(const struct mc_view *v);
uint32_t mcv_qlen(const struct mc_view *v, enum mc_q q);
/* Oldest request of a queue; follow ->qnext for arrival order. */
struct mc_req *mcv_head(const struct mc_view *v, enum mc_q q);
/* Oldest request of a queue in one bank; follow ->bnext. */
struct mc_req *mcv_bank_head(const struct mc_view *v, enum mc_q q, uint32_t bank);
/* Banks with at least one request in queue q: a bitmap over flat bank indices. */
const uint64_t *mcv_bank_mask(const struct mc_view *v, enum mc_q q);
uint32_t mcv_nbanks(const struct mc_view *v);
/* Open row of a flat bank, -1 when closed. */
int32_t mcv_open_row(const struct mc_view *v, uint32_t bank);
/* Cycle of the last column command to a bank (for close-page idling). */
uint64_t mcv_last_col(const struct mc_view *v, uint32_t bank);
/* Requests of queue q in this bank that hit its open row (0 when the bank is closed). */
uint32_t mcv_bank_hits(const struct mc_view *v, enum mc_q q, uint32_t bank);
/* Row hits served since the bank's current row was opened that went past an older request of
 * their queue to the same bank (FR-FCFS+Cap's count: hits older than every waiting miss, and the
 * request whose ACT opened the row, do not count). */
uint32_t mcv_row_hits_bypassed(const struct mc_view *v, uint32_t bank);
/* Next command the request needs given the bank state: ACT, PRE, RD or WR. */
enum dram_cmd mcv_next_cmd(const struct mc_view *v, const struct mc_req *r);
/* Whether it is a row hit now (its row is open). */
bool mcv_is_hit(const struct mc_view *v, const struct mc_req *r);
/* Earliest cycle its next command could issue (DRAM_NEVER if blocked, e.g. by refresh). */
uint64_t mcv_ready_at(const struct mc_view *v, const struct mc_req *r);
static inline bool mcv_issuable(const struct mc_view *v, const struct mc_req *r) {
    return mcv_ready_at(v, r) <= mcv_now(v);
}
/* Earliest cycle an at-large command could issue to a location. */
uint64_t mcv_cmd_ready_at(const struct mc_view *v, enum dram_cmd cmd, const struct dram_addr *a);
/* Fills a choice for a request's next command. */
static inline void mcv_choose(const struct mc_view *v, struct mc_req *r, struct mc_choice *out) {
    out->req = r;
    out->cmd = mcv_next_cmd(v, r);
    out->addr = r->da;
}
/* Asks the controller to run pick() again no later than cycle t even if nothing else happens. */
void mcv_request_wake(const struct mc_view *v, uint64_t t);
/* A request's DRAM location for an at-large command to its bank. */
void mcv_bank_addr(const struct mc_view *v, uint32_t bank, struct dram_addr *out);
/* Rank units (pseudo-channel x rank; flat bank b is in unit b / mcv_unit_banks()). */
uint32_t mcv_nunits(const struct mc_view *v);
uint32_t mcv_unit_banks(const struct mc_view *v);
/* Requests queued for a rank unit, both queues. */
uint32_t mcv_unit_queued(const struct mc_view *v, uint32_t unit);
/* 0: powered up; 1: in fast (or active) power-down; 2: in slow power-down. */
unsigned mcv_powered_down(const struct mc_view *v, uint32_t unit);
/* The controller's own refresh of the unit is under way (a due all-bank or per-bank refresh, or
 * USIMM's forced sequence): the policy cannot use the unit's refresh slot. */
bool mcv_refreshing(const struct mc_view *v, uint32_t unit);
/* USIMM's refresh (mc.refresh_mode = usimm): the end of the unit's current window, its issue
 * deadline (end - tRP - (8 - k) tRFC for the k REFs the policy issued early; a command that
 * would run past it is held back; it stays put once the forced sequence has started) and the
 * REFs issued in the window so far, the policy's early ones included. DRAM_NEVER, DRAM_NEVER and
 * 0 in the other refresh modes. In usimm mode only, a policy may choose an at-large REF (all
 * banks closed, no forced refresh under way): it counts towards the window's 8. */
uint64_t mcv_ref_window_end(const struct mc_view *v, uint32_t unit);
uint64_t mcv_ref_deadline(const struct mc_view *v, uint32_t unit);
uint32_t mcv_ref_issued(const struct mc_view *v, uint32_t unit);

/* ---- candidate index (policies with bank_cand) ---- */
/* Banks (bitmap over flat bank indices) whose candidate in the current queue (draining: write
 * queue) can issue now, listed under the class bank_cand() gave it. Valid until the next call. */
const uint64_t *mcv_cand_ready(const struct mc_view *v, unsigned cls);
/* The bank's candidate as bank_cand() named it (NULL for none), and its key. */
struct mc_req *mcv_cand(const struct mc_view *v, uint32_t bank);
uint64_t mcv_cand_key(const struct mc_view *v, uint32_t bank);
/* The bank of mcv_cand_ready(v, cls) whose candidate has the smallest key (the first such bank on
 * a tie), UINT32_MAX when there is none. */
uint32_t mcv_cand_min(const struct mc_view *v, unsigned cls);
