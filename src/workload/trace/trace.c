/* The trace workload: kernelslist commands -> kernels, .traceg thread blocks -> packed CTA slots
 * -> struct inst on demand. Slots and their buffers are reused; they grow only while more CTAs
 * are resident, or bigger ones, than ever before. */
#include "workload/trace/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/trace/kernelslist.h"
#include "workload/trace/opcodes.h"
#include "workload/trace/tpack.h"

enum { MAX_CTA_WARPS = 1024 / WARP_SIZE, OPC_SLOTS = 2048, OPC_KEY = 48, MAX_UNKNOWN = 256 };
/* Generic-address windows (see trace.h). */
#define WINDOW (1ull << 24)

struct slot;

struct wl_warp {
    struct slot *s;
    size_t pos, end; /* its packed instructions: s->buf[pos .. end) */
    uint64_t prev_pc;
    bool filled; /* the file had this warp */
};

struct slot {
    uint8_t *buf;
    size_t len, cap;
    uint64_t cta;
    uint32_t idx; /* in trace_wl.slots */
    bool live;
    struct wl_warp w[MAX_CTA_WARPS];
};

/* Classification cache: full opcode text -> what it issues as. */
struct opc {
    char key[OPC_KEY];
    uint8_t keylen;
    bool used;
    int16_t unknown; /* index into the unknown list, or -1 */
    struct trace_op op;
};

struct trace_wl {
    struct workload base;
    struct trace_opts o;
    struct kl *kl;
    uint32_t next_cmd;
    struct wl_copy *copies;
    uint32_t ncopies, copies_cap;
    /* the current kernel */
    struct traceg *tg;
    const struct trace_arch *arch;
    uint64_t ncta;
    uint32_t nwarps;
    bool started;         /* a CTA of this kernel has been started */
    uint64_t last_cta;    /* ... the last one */
    bool pending;         /* a thread block's begin has been read but not its body */
    uint64_t pending_cta; /* ... its index */
    bool eof;             /* the kernel's file has no more thread blocks */
    uint16_t bra_lat, bra_ii;
    bool opcode_lat; /* this kernel's instructions carry their opcode's timing */
    /* slots */
    struct slot **slots;
    uint32_t nslots, slots_cap;
    uint32_t *freestk;
    uint32_t nfree;
    /* scratch */
    struct tg_line tl;
    struct inst prev, cur;
    bool prev_exit;
    /* opcodes */
    struct opc *opc;
    uint32_t nopc;
    struct trace_unknown *unknown;
    uint32_t nunknown;
    trace_warn_fn warn;
    void *warn_ctx;
    struct trace_stats st;
};

static const struct workload_vt trace_vt;

bool trace_is(const struct workload *w) {
    return w && w->vt == &trace_vt;
}
static struct trace_wl *T(struct workload *w) {
    return (struct trace_wl *)w;
}
static const struct trace_wl *CT(const struct workload *w) {
    return trace_is(w) ? (const struct trace_wl *)w : NULL;
}

static void default_warn(void *ctx, const char *msg) {
    (void)ctx;
    fprintf(stderr, "warpsim: warning: %s\n", msg);
}

/* ---- memory accounting and slots ---- */

static void account(struct trace_wl *t, int64_t delta) {
    t->st.bytes_now = (uint64_t)((int64_t)t->st.bytes_now + delta);
    if (t->st.bytes_now > t->st.bytes_peak) t->st.bytes_peak = t->st.bytes_now;
}

static int reserve(struct trace_wl *t, struct slot *s, size_t extra, struct ws_err *e) {
    if (s->len + extra <= s->cap) return 0;
    size_t cap = s->cap ? s->cap : 4096;
    while (cap < s->len + extra) cap *= 2;
    uint8_t *p = realloc(s->buf, cap);
    if (!p) return ws_fail(e, "trace: out of memory for a CTA of %zu bytes", cap);
    account(t, (int64_t)(cap - s->cap));
    s->buf = p;
    s->cap = cap;
    return 0;
}

static struct slot *slot_get(struct trace_wl *t, struct ws_err *e) {
    if (t->nfree) return t->slots[t->freestk[--t->nfree]];
    if (t->nslots == t->slots_cap) {
        uint32_t c = t->slots_cap ? t->slots_cap * 2 : 64;
        struct slot **p = realloc(t->slots, c * sizeof *p);
        uint32_t *f = p ? realloc(t->freestk, c * sizeof *f) : NULL;
        if (p) t->slots = p;
        if (!p || !f) return ws_fail(e, "trace: out of memory"), NULL;
        t->freestk = f;
        account(t, (int64_t)((c - t->slots_cap) * (sizeof *p + sizeof *f)));
        t->slots_cap = c;
    }
    struct slot *s = calloc(1, sizeof *s);
    if (!s) return ws_fail(e, "trace: out of memory"), NULL;
    account(t, (int64_t)sizeof *s);
    s->idx = t->nslots;
    t->slots[t->nslots++] = s;
    return s;
}

/* ---- opcodes ---- */

static uint32_t hash(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static void unknown_seen(struct trace_wl *t, struct opc *c, const char *op, size_t n) {
    size_t mn = 0;
    while (mn < n && op[mn] != '.') mn++;
    for (uint32_t i = 0; i < t->nunknown; i++)
        if (strlen(t->unknown[i].name) == mn && memcmp(t->unknown[i].name, op, mn) == 0) {
            if (c) c->unknown = (int16_t)i;
            t->unknown[i].count++;
            return;
        }
    if (t->nunknown == MAX_UNKNOWN) return;
    struct trace_unknown *u = &t->unknown[t->nunknown];
    if (c) c->unknown = (int16_t)t->nunknown;
    t->nunknown++;
    if (mn >= sizeof u->name) mn = sizeof u->name - 1;
    memcpy(u->name, op, mn);
    u->name[mn] = '\0';
    snprintf(u->where, sizeof u->where, "%s:%ld", tg_path(t->tg), tg_lineno(t->tg));
    u->count = 1;
    if (t->warn) {
        char msg[512];
        snprintf(msg, sizeof msg,
                 "%s: unknown opcode '%s' (%.*s): run as an INT instruction; reported once",
                 u->where, u->name, (int)(n > 100 ? 100 : n), op);
        t->warn(t->warn_ctx, msg);
    }
}

static const struct trace_op *classify(struct trace_wl *t, const char *op, size_t n,
                                       struct trace_op *tmp) {
    struct opc *c = NULL;
    if (n < OPC_KEY) {
        uint32_t i = hash(op, n) & (OPC_SLOTS - 1);
        for (uint32_t k = 0; k < OPC_SLOTS; k++, i = (i + 1) & (OPC_SLOTS - 1)) {
            struct opc *x = &t->opc[i];
            if (!x->used) {
                if (t->nopc < OPC_SLOTS * 3 / 4) c = x;
                break;
            }
            if (x->keylen == n && memcmp(x->key, op, n) == 0) {
                if (x->unknown >= 0) {
                    t->unknown[x->unknown].count++;
                    t->st.unknown_insts++;
                }
                return &x->op;
            }
        }
    }
    bool known = trace_op_lookup(t->arch, op, n, tmp);
    if (c) {
        c->used = true;
        c->keylen = (uint8_t)n;
        memcpy(c->key, op, n);
        c->op = *tmp;
        c->unknown = -1;
        t->nopc++;
    }
    if (!known) {
        t->st.unknown_insts++;
        unknown_seen(t, c, op, n);
    }
    return c ? &c->op : tmp;
}

/* ---- kernels ---- */

static int close_kernel(struct trace_wl *t, struct ws_err *e) {
    if (!t->tg) return 0;
    /* The rest of the file must be well formed and hold no thread block nobody ran. */
    int rc = 0;
    while (!t->eof && rc == 0) {
        struct tg_event ev;
        if (t->pending) {
            rc = ws_fail(e, "%s:%ld: thread block %llu was never started", tg_path(t->tg),
                         tg_lineno(t->tg), (unsigned long long)t->pending_cta);
            break;
        }
        rc = tg_next(t->tg, &ev, e);
        if (rc == 0 && ev.type == TG_EOF) t->eof = true;
        if (rc == 0 && ev.type == TG_TB_BEGIN) t->pending = true, t->pending_cta = ev.cta;
    }
    tg_close(t->tg);
    t->tg = NULL;
    return rc;
}

static int add_copy(struct trace_wl *t, uint64_t addr, uint64_t bytes, struct ws_err *e) {
    if (t->ncopies == t->copies_cap) {
        uint32_t c = t->copies_cap ? t->copies_cap * 2 : 16;
        struct wl_copy *p = realloc(t->copies, c * sizeof *p);
        if (!p) return ws_fail(e, "trace: out of memory");
        t->copies = p;
        t->copies_cap = c;
    }
    t->copies[t->ncopies++] = (struct wl_copy){addr, bytes};
    return 0;
}

static int open_kernel(struct trace_wl *t, const struct kl_cmd *c, struct kernel_desc *k,
                       struct ws_err *e) {
    if (!(t->tg = tg_open(c->path, e))) return -1;
    const struct tg_header *h = tg_header(t->tg);
    const struct trace_arch *a = trace_arch_find(h->binary_version);
    if (!a) {
        if (!h->line_binary_version)
            return ws_fail(e, "%s:%ld: the kernel header has no '-binary version' line", c->path,
                           tg_lineno(t->tg));
        return ws_fail(e, "%s:%ld: binary version %u is not supported (known: %s)", c->path,
                       h->line_binary_version, h->binary_version, trace_arch_supported());
    }
    if (a != t->arch) { /* the cache holds this architecture's timings */
        memset(t->opc, 0, OPC_SLOTS * sizeof *t->opc);
        t->nopc = 0;
        t->arch = a;
    }
    trace_arch_timing(a, TK_BRANCH, &t->bra_lat, &t->bra_ii);
    t->opcode_lat = t->o.opcode_latency && !h->machine_timing;
    if (!t->opcode_lat) t->bra_lat = t->bra_ii = 0;
    memset(k, 0, sizeof *k);
    size_t nl = strlen(h->name);
    if (nl >= sizeof k->name) nl = sizeof k->name - 1; /* mangled names can be long */
    memcpy(k->name, h->name, nl);
    k->name[nl] = '\0';
    k->id = (uint32_t)t->st.kernels;
    memcpy(k->grid, h->grid, sizeof k->grid);
    memcpy(k->block, h->block, sizeof k->block);
    k->ncta = (uint64_t)h->grid[0] * h->grid[1] * h->grid[2];
    k->threads = h->block[0] * h->block[1] * h->block[2];
    k->regs = h->nregs;
    k->smem = h->shmem;
    k->copies = t->copies;
    k->ncopies = t->ncopies;
    t->ncta = k->ncta;
    t->nwarps = (k->threads + WARP_SIZE - 1) / WARP_SIZE;
    t->started = t->pending = t->eof = false;
    t->st.kernels++;
    return 1;
}

static int trace_next_kernel(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct trace_wl *t = T(w);
    if (close_kernel(t, e)) return -1;
    t->ncopies = 0;
    while (t->next_cmd < t->kl->n) {
        const struct kl_cmd *c = &t->kl->cmd[t->next_cmd++];
        if (c->type == KL_COPY) {
            if (add_copy(t, c->addr, c->bytes, e)) return -1;
            continue;
        }
        return open_kernel(t, c, k, e);
    }
    return 0;
}

/* ---- CTAs ---- */

static uint8_t resolve_space(const struct trace_wl *t, uint8_t sp, struct inst *in) {
    switch (sp) {
    case TSP_GLOBAL:
        return SPACE_GLOBAL;
    case TSP_LOCAL:
        return SPACE_LOCAL;
    case TSP_SHARED:
        return SPACE_SHARED;
    case TSP_CONST:
        return SPACE_CONST;
    case TSP_TEX:
        return SPACE_TEX;
    default:
        break;
    }
    if (!in->active) return SPACE_GLOBAL;
    const struct tg_header *h = tg_header(t->tg);
    uint64_t a = in->addr[__builtin_ctz(in->active)];
    uint64_t sb = h->shmem_base, lb = h->local_base;
    uint64_t sw = WINDOW, lw = WINDOW; /* a window ends where the other one starts */
    if (sb && lb && lb > sb && lb - sb < sw) sw = lb - sb;
    if (sb && lb && sb > lb && sb - lb < lw) lw = sb - lb;
    if (sb && a >= sb && a - sb < sw) {
        for (unsigned l = 0; l < WARP_SIZE; l++)
            if (in->active >> l & 1) in->addr[l] -= sb;
        return SPACE_SHARED;
    }
    if (lb && a >= lb && a - lb < lw) return SPACE_LOCAL;
    return SPACE_GLOBAL;
}

/* tg_line -> struct inst (t->cur); sets t->prev_exit-to-be in *is_exit. */
static void convert(struct trace_wl *t, const struct tg_line *l, struct inst *in, bool *is_exit) {
    struct trace_op tmp;
    const struct trace_op *op = classify(t, l->op, l->oplen, &tmp);
    in->pc = l->pc;
    in->active = l->mask;
    in->ndst = l->ndst > INST_MAX_DST ? INST_MAX_DST : l->ndst;
    in->nsrc = l->nsrc > INST_MAX_SRC ? INST_MAX_SRC : l->nsrc;
    t->st.regs_dropped += (uint64_t)(l->ndst - in->ndst) + (uint64_t)(l->nsrc - in->nsrc);
    memcpy(in->dst, l->dst, in->ndst * sizeof in->dst[0]);
    memcpy(in->src, l->src, in->nsrc * sizeof in->src[0]);
    bool mem = op->kind == TK_LOAD || op->kind == TK_STORE || op->kind == TK_ATOM ||
               op->kind == TK_CONST || op->kind == TK_TEX;
    *is_exit = op->kind == TK_EXIT;
    if (mem && l->mem_width > 0) {
        in->cls = OP_MEM;
        in->mop = op->mop;
        in->width = op->width;
        in->lat = in->ii = 0;
        for (unsigned i = 0; i < WARP_SIZE; i++)
            if (l->mask >> i & 1) in->addr[i] = l->addr[i];
        in->space = resolve_space(t, op->space, in);
        t->st.mem_insts++;
    } else {
        in->cls = op->cls;
        in->space = in->mop = in->width = 0;
        in->lat = t->opcode_lat ? op->lat : 0;
        in->ii = t->opcode_lat ? op->ii : 0;
    }
}

/* Packs t->prev into the slot; `last`: it ends its warp. */
static int pack_prev(struct trace_wl *t, struct slot *s, struct wl_warp *wp, bool last,
                     struct ws_err *e) {
    struct inst *in = &t->prev;
    if (t->prev_exit) {
        in->cls = last ? OP_EXIT : OP_BRANCH;
        in->lat = last ? 0 : t->bra_lat;
        in->ii = last ? 0 : t->bra_ii;
    }
    if (reserve(t, s, TPACK_MAX, e)) return -1;
    s->len += tpack_put(s->buf + s->len, in, &wp->prev_pc);
    return 0;
}

static int pack_exit(struct trace_wl *t, struct slot *s, struct wl_warp *wp, uint64_t pc,
                     struct ws_err *e) {
    struct inst x = {.pc = pc, .active = 0, .cls = OP_EXIT};
    if (reserve(t, s, TPACK_MAX, e)) return -1;
    s->len += tpack_put(s->buf + s->len, &x, &wp->prev_pc);
    t->st.synthetic_exits++;
    return 0;
}

/* Ends the warp being read: its last instruction, or an appended EXIT. */
static int end_warp(struct trace_wl *t, struct slot *s, struct wl_warp *wp, uint32_t n,
                    struct ws_err *e) {
    if (n > 0 && pack_prev(t, s, wp, true, e)) return -1;
    if ((n == 0 || !t->prev_exit) && pack_exit(t, s, wp, n ? t->prev.pc + 16 : 0, e)) return -1;
    wp->end = s->len;
    return 0;
}

/* Reads the body of the pending thread block into s. */
static int read_body(struct trace_wl *t, struct slot *s, struct ws_err *e) {
    struct wl_warp *wp = NULL;
    uint32_t n = 0;
    for (;;) {
        struct tg_event ev;
        if (tg_next(t->tg, &ev, e)) return -1;
        if (ev.type == TG_INST) {
            bool ex;
            if (tg_parse(t->tg, ev.line, &t->tl, e)) return -1;
            convert(t, &t->tl, &t->cur, &ex);
            if (n > 0 && pack_prev(t, s, wp, false, e)) return -1;
            t->prev = t->cur;
            t->prev_exit = ex;
            n++;
            t->st.file_insts++;
            continue;
        }
        if (wp && end_warp(t, s, wp, n, e)) return -1;
        if (ev.type == TG_TB_END) return 0;
        if (ev.type != TG_WARP) /* tg_next allows nothing else inside a block */
            return ws_fail(e, "%s:%ld: internal: unexpected trace event %d", tg_path(t->tg),
                           tg_lineno(t->tg), ev.type);
        wp = &s->w[ev.warp];
        wp->filled = true;
        wp->pos = s->len;
        wp->prev_pc = 0;
        n = 0;
        t->st.warps_in_file++;
    }
}

/* Skips the body of the pending thread block (a CTA the caller did not start). */
static int skip_body(struct trace_wl *t, struct ws_err *e) {
    struct tg_event ev;
    do {
        if (tg_next(t->tg, &ev, e)) return -1;
    } while (ev.type != TG_TB_END);
    return 0;
}

static int trace_cta_start(struct workload *w, uint64_t cta, struct wl_warp **warps,
                           struct ws_err *e) {
    struct trace_wl *t = T(w);
    if (!t->tg) return ws_fail(e, "trace: cta_start without a kernel");
    if (cta >= t->ncta)
        return ws_fail(e, "trace: CTA %llu started, the grid has %llu", (unsigned long long)cta,
                       (unsigned long long)t->ncta);
    if (t->started && cta <= t->last_cta)
        return ws_fail(e,
                       "%s: CTA %llu started after CTA %llu: a trace is read front to back, so "
                       "CTAs must start in increasing order",
                       tg_path(t->tg), (unsigned long long)cta, (unsigned long long)t->last_cta);
    t->started = true;
    t->last_cta = cta;
    struct slot *s = slot_get(t, e);
    if (!s) return -1;
    s->len = 0;
    s->cta = cta;
    s->live = true;
    for (uint32_t i = 0; i < t->nwarps; i++) s->w[i] = (struct wl_warp){.s = s};
    /* Bring the file to this CTA's thread block; blocks the tracer skipped are empty CTAs. */
    for (;;) {
        if (!t->pending && !t->eof) {
            struct tg_event ev;
            if (tg_next(t->tg, &ev, e)) goto fail;
            if (ev.type == TG_EOF) {
                t->eof = true;
                break;
            }
            t->pending = true;
            t->pending_cta = ev.cta;
        }
        if (!t->pending || t->pending_cta >= cta) break;
        t->pending = false;
        if (skip_body(t, e)) goto fail;
    }
    if (t->pending && t->pending_cta == cta) {
        t->pending = false;
        if (read_body(t, s, e)) goto fail;
        t->st.ctas_in_file++;
    }
    for (uint32_t i = 0; i < t->nwarps; i++) {
        struct wl_warp *wp = &s->w[i];
        if (!wp->filled) {
            wp->pos = s->len;
            if (pack_exit(t, s, wp, 0, e)) goto fail;
            wp->end = s->len;
        }
        wp->prev_pc = 0;
        warps[i] = wp;
    }
    t->st.ctas++;
    return 0;
fail:
    s->live = false;
    t->freestk[t->nfree++] = s->idx;
    return -1;
}

static int trace_warp_next(struct workload *w, struct wl_warp *wp, struct inst *in,
                           struct ws_err *e) {
    (void)w;
    if (wp->pos >= wp->end) return ws_fail(e, "trace: warp_next after the warp's EXIT");
    tpack_get(wp->s->buf, &wp->pos, in, &wp->prev_pc);
    return 0;
}

static void trace_cta_end(struct workload *w, uint64_t cta, struct wl_warp **warps) {
    struct trace_wl *t = T(w);
    (void)cta;
    if (!warps[0] || !warps[0]->s->live) return;
    struct slot *s = warps[0]->s;
    s->live = false;
    t->freestk[t->nfree++] = s->idx;
}

static void trace_destroy(struct workload *w) {
    struct trace_wl *t = T(w);
    if (!t) return;
    tg_close(t->tg);
    for (uint32_t i = 0; i < t->nslots; i++) {
        free(t->slots[i]->buf);
        free(t->slots[i]);
    }
    free(t->slots);
    free(t->freestk);
    free(t->copies);
    free(t->opc);
    free(t->unknown);
    kl_free(t->kl);
    free(t);
}

static const struct workload_vt trace_vt = {
    trace_next_kernel, trace_cta_start, trace_warp_next, trace_cta_end, NULL, trace_destroy};

struct workload *trace_open(const struct trace_opts *o, struct ws_err *e) {
    struct trace_wl *t = calloc(1, sizeof *t);
    if (!t) return ws_fail(e, "trace: out of memory"), NULL;
    t->base.vt = &trace_vt;
    t->base.name = "trace";
    t->o = *o;
    t->warn = default_warn;
    t->opc = calloc(OPC_SLOTS, sizeof *t->opc);
    t->unknown = calloc(MAX_UNKNOWN, sizeof *t->unknown);
    if (!t->opc || !t->unknown) {
        trace_destroy(&t->base);
        return ws_fail(e, "trace: out of memory"), NULL;
    }
    if (!(t->kl = kl_load(o->path, e))) {
        trace_destroy(&t->base);
        return NULL;
    }
    bool any = false;
    for (uint32_t i = 0; i < t->kl->n; i++) any |= t->kl->cmd[i].type == KL_KERNEL;
    if (!any) {
        ws_fail(e, "%s: lists no kernel (expected lines like 'kernel-1.traceg')", t->kl->path);
        trace_destroy(&t->base);
        return NULL;
    }
    return &t->base;
}

static const struct cfg_key trace_keys[] = {
    {"workload.trace.path", CFG_STRING, offsetof(struct trace_opts, path), "", 0, 0, NULL, "",
     "Accel-Sim trace: its folder, its kernelslist.g or one kernel-N.traceg (plain, .gz, .xz, "
     ".zst)"},
    {"workload.trace.opcode_latency", CFG_BOOL, offsetof(struct trace_opts, opcode_latency), "true",
     0, 0, NULL, "",
     "per-opcode latency / initiation interval of the trace's architecture (Accel-Sim "
     "trace.config); false: core.lat_* / core.ii_*"},
};

struct workload *trace_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    (void)wc;
    struct trace_opts o;
    memset(&o, 0, sizeof o);
    if (cfg_bind(c, "workload.trace", trace_keys, CFG_COUNT(trace_keys), &o, e)) return NULL;
    if (!o.path[0]) {
        char where[300] = "";
        if (cfg_raw(c, "workload.trace.path")) /* set, but empty */
            snprintf(where, sizeof where,
                     "%s: ", cfg_origin(c, "workload.trace.path", (char[300]){0}, 300));
        ws_fail(e,
                "%sworkload 'trace' needs workload.trace.path = a trace folder, its "
                "kernelslist.g or a .traceg file",
                where);
        return NULL;
    }
    return trace_open(&o, e);
}

const struct trace_stats *trace_get_stats(const struct workload *w) {
    const struct trace_wl *t = CT(w);
    return t ? &t->st : NULL;
}
const struct tg_header *trace_kernel_header(const struct workload *w) {
    const struct trace_wl *t = CT(w);
    return t && t->tg ? tg_header(t->tg) : NULL;
}
const char *trace_kernel_path(const struct workload *w) {
    const struct trace_wl *t = CT(w);
    return t && t->tg ? tg_path(t->tg) : NULL;
}
const char *trace_kernel_comp(const struct workload *w) {
    const struct trace_wl *t = CT(w);
    return t && t->tg ? tg_comp(t->tg) : NULL;
}
const char *trace_kernel_arch(const struct workload *w) {
    const struct trace_wl *t = CT(w);
    return t && t->arch ? trace_arch_name(t->arch) : NULL;
}
unsigned trace_unknown_count(const struct workload *w) {
    const struct trace_wl *t = CT(w);
    return t ? t->nunknown : 0;
}
const struct trace_unknown *trace_unknown_get(const struct workload *w, unsigned i) {
    const struct trace_wl *t = CT(w);
    return t && i < t->nunknown ? &t->unknown[i] : NULL;
}
void trace_set_warn(struct workload *w, trace_warn_fn fn, void *ctx) {
    if (!trace_is(w)) return;
    T(w)->warn = fn;
    T(w)->warn_ctx = ctx;
}
