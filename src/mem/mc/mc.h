/* Memory controller for one DRAM channel: read and write queues, write drain with high/low
 * watermarks, read-after-write forwarding and write merging, open/close row policy, refresh and
 * power-down management, and a pluggable scheduler (struct mc_policy, chosen by mc.policy) that
 * picks which command issues each DRAM cycle. The controller decides what is legal; the policy
 * only chooses. Time is in DRAM command-clock cycles.
 *
 * Use: mc_can_accept() / mc_enqueue() requests; call mc_tick(now) for increasing `now` (cycles
 * may be skipped up to mc_next_event()); the completion callback runs when a request's column
 * command issues, with ts[MEM_TS_DATA] set to when its data is done. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "base/cfg.h"
#include "base/hist.h"
#include "base/stats.h"
#include "mem/addr_map.h"
#include "mem/dram/dram.h"
#include "mem/dram/power.h"
#include "mem/mem_req.h"

enum mc_q { MC_READQ, MC_WRITEQ };
enum mc_row_policy { MC_OPEN_PAGE, MC_CLOSE_PAGE, MC_TIMEOUT_PAGE };
enum mc_pd_mode { MC_PD_OFF, MC_PD_FAST, MC_PD_SLOW };
enum mc_ref_mode { MC_REF_AUTO, MC_REF_ALL_BANK, MC_REF_PER_BANK, MC_REF_USIMM };

struct mc_cfg {
    char policy[CFG_STR_MAX];
    int64_t rq_size, wq_size, wq_hi, wq_lo;
    bool drain_when_no_reads;
    int row_policy;      /* enum mc_row_policy */
    int64_t row_timeout; /* MC_TIMEOUT_PAGE: idle cycles before an unused row is closed */
    bool forward_raw;
    int64_t fwd_latency; /* DRAM cycles for a read served from the write queue */
    bool refresh;
    int ref_mode;    /* enum mc_ref_mode */
    int pd_mode;     /* enum mc_pd_mode */
    int64_t pd_idle; /* idle cycles of a rank before it powers down */
    bool check;      /* run the protocol checker on every command */
};
extern const struct cfg_key mc_cfg_keys[];
extern const unsigned mc_cfg_nkeys;
int mc_cfg_configure(struct mc_cfg *m, struct cfg *c, struct ws_err *e);

/* A queued request. Policies read every field; they may write only `scratch`. The fields the
 * scheduler walks come first, within two cache lines; the request itself last. */
struct mc_req {
    struct dram_addr da;
    uint32_t bank;     /* flat bank index within the channel */
    uint32_t unit;     /* rank unit (pc * ranks + rank) */
    uint64_t seq;      /* arrival order, unique per controller */
    uint64_t arrive;   /* cycle it entered the queue */
    uint8_t first_cmd; /* enum dram_cmd of its first command; DRAM_NCMD before that */
    bool is_write;
    struct mc_req *qprev, *qnext; /* queue in arrival order */
    struct mc_req *bprev, *bnext; /* same queue, same bank, arrival order */
    uint64_t scratch[4];
    struct mem_req r;
};

struct mc_stats {
    uint64_t reads, writes; /* requests served by a column command */
    uint64_t reads_forwarded, writes_merged;
    uint64_t rd_hit, rd_miss, rd_conflict; /* first command: column / ACT / PRE */
    uint64_t wr_hit, wr_miss, wr_conflict;
    uint64_t n_act, n_pre, n_prea, n_rd, n_wr, n_rda, n_wra, n_ref, n_refpb, n_pde, n_pdx;
    uint64_t n_pre_timeout;          /* of n_pre: rows mc.row_policy = timeout closed */
    uint64_t drains;                 /* write-drain episodes started */
    uint64_t cycles;                 /* cycles simulated (last tick + 1) */
    uint64_t data_busy;              /* cycles the data bus carried bursts */
    uint64_t rq_occ_sum, wq_occ_sum; /* queue length integrated over cycles */
    uint64_t pd_cycles;              /* rank-unit cycles spent powered down */
    struct ws_hist rd_lat;           /* arrival -> last data beat, reads */
    struct ws_hist rd_qlat;          /* arrival -> column command, reads */
    struct ws_hist wr_lat;           /* arrival -> last data beat, writes */
};
extern const struct stat_desc mc_stat_desc[];
extern const unsigned mc_stat_ndesc;

struct mc;
struct mc_policy;

typedef void (*mc_done_fn)(void *ctx, const struct mc_req *req);
typedef int (*mc_cmd_fn)(void *ctx, const struct dram_cmd_rec *rec, struct ws_err *e);

struct warp_table;
struct upstream;
/* What the controllers of one memory system share (memsys owns it). */
struct mc_shared {
    struct warp_table *wt; /* NULL unless the policy asks for one (struct mc_policy) */
    struct upstream *up;   /* per warp-load requests still upstream (mem/upstream.h) */
    bool up_used;          /* a policy reads `up`: the GPU must keep it counted */
};
/* `spec` and `sh` must outlive the controller. `c` supplies the policy's own keys. */
struct mc *mc_create(const struct dram_spec *spec, const struct mc_cfg *mcfg, uint32_t channel,
                     struct mc_shared *sh, struct cfg *c, struct ws_err *e);
void mc_destroy(struct mc *m);
void mc_set_done_cb(struct mc *m, mc_done_fn fn, void *ctx);
/* Command observers (protocol checker, power model, command trace); up to 4. */
void mc_add_cmd_observer(struct mc *m, mc_cmd_fn fn, void *ctx);
/* Every command goes to the power model too, by a direct call (it sees them all, so the record
 * an observer gets is not built for it). */
void mc_set_power(struct mc *m, struct dram_power *p);

bool mc_can_accept(const struct mc *m, bool is_write);
/* Queues a request (da already decoded). Reads matching a queued write are forwarded (done after
 * fwd_latency) and writes matching a queued write merge; both call the done callback. */
void mc_enqueue(struct mc *m, const struct mem_req *r, const struct dram_addr *da, uint64_t now);
/* Runs cycle `now`. Returns -1 only when a command observer reports an error (checker). */
int mc_tick(struct mc *m, uint64_t now, struct ws_err *e);
/* Earliest cycle > last tick at which mc_tick could do anything (DRAM_NEVER when idle). */
uint64_t mc_next_event(const struct mc *m);
bool mc_idle(const struct mc *m);
/* End of input at cycle `now`: no request will come any more, so queued writes drain once no read
 * is queued even with mc.drain_when_no_reads off (they would otherwise wait below mc.wq_hi for
 * ever and the run would never end). */
void mc_flush(struct mc *m, uint64_t now);
uint32_t mc_queue_len(const struct mc *m, enum mc_q q);
/* A queued request with this burst address in queue q, or NULL. */
const struct mc_req *mc_find(const struct mc *m, enum mc_q q, uint64_t burst_addr);
/* Closes accounting at cycle `end` (exclusive) and fills derived stats. */
void mc_finish(struct mc *m, uint64_t end);
const struct mc_stats *mc_stats(const struct mc *m);
const struct dram_chan *mc_dram(const struct mc *m);
const char *mc_policy_name(const struct mc *m);
/* The policy's own counters (struct mc_policy.stats), NULL when it has none. */
const void *mc_policy_stats(const struct mc *m);
