/* A USIMM-style scheduler interface, so schedulers written for USIMM v1.3's schedule(channel)
 * hook port with little change: walk the read/write queues in arrival order, look at each
 * request's next command and whether it is issuable, and call issue functions; the first
 * successful issue in a cycle is the command that goes out (one command per channel per cycle,
 * as in USIMM). Built on the mc.policy seam by policy_usimm.c. Names follow USIMM's API. */
#pragma once

#include "mem/mc/policy.h"

struct usimm_ctx; /* one per call of schedule() */

struct mc_req *usimm_read_queue_head(struct usimm_ctx *u);
struct mc_req *usimm_write_queue_head(struct usimm_ctx *u);
int usimm_read_queue_length(struct usimm_ctx *u);
int usimm_write_queue_length(struct usimm_ctx *u);
enum dram_cmd usimm_next_command(struct usimm_ctx *u, const struct mc_req *r);
int usimm_command_issuable(struct usimm_ctx *u, const struct mc_req *r);
int usimm_command_issued_current_cycle(struct usimm_ctx *u);
uint64_t usimm_cycle(struct usimm_ctx *u);
/* Each returns 1 when the command issued, 0 when it is not allowed now (or one already went). */
int usimm_issue_request_command(struct usimm_ctx *u, struct mc_req *r);
int usimm_is_precharge_allowed(struct usimm_ctx *u, uint32_t bank);
int usimm_issue_precharge_command(struct usimm_ctx *u, uint32_t bank);
int usimm_is_activate_allowed(struct usimm_ctx *u, uint32_t bank);
int usimm_issue_activate_command(struct usimm_ctx *u, uint32_t bank, uint32_t row);

/* A ported scheduler: init once per channel, schedule every DRAM cycle. */
struct usimm_sched {
    const char *name;
    void *(*init)(int channel);
    void (*schedule)(void *state, struct usimm_ctx *u, int channel);
    void (*free)(void *state);
};
