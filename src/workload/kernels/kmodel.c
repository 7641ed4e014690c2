/* kmodel: program checking, per-warp SIMT execution and instruction emission. */
#include "workload/kernels/kmodel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PC_NONE = 0xffffffffu };

/* The fields of struct inst that depend only on the static instruction. */
struct km_emit {
    uint8_t cls, space, mop, width, ndst, nsrc;
    uint16_t dst[INST_MAX_DST], src[INST_MAX_SRC];
};

struct km_frame {
    uint32_t pc, rpc, mask; /* next instruction, where these lanes reconverge, the lanes */
};

struct km_cta;
struct km_warp {
    struct km_cta *cta;
    uint32_t widx; /* warp index in its CTA */
    uint32_t sp;   /* stack depth; 0 once the warp exited */
    uint32_t pred[KM_NPRED];
    uint64_t *reg; /* [nreg][32] */
    struct km_frame stack[KM_STACK_MAX];
};

struct km_cta {
    struct km_cta *next_free;
    uint64_t id;
    uint32_t ctaid[3];
    uint32_t cap_warps, cap_nreg, cap_smem;
    uint8_t *smem;
    uint64_t *regs;
    struct km_warp *w;
};

struct km_run {
    struct devmem *dm;
    struct km_launch cur;
    bool have;
    uint32_t threads, nwarps;
    uint64_t ncta;
    uint32_t in_flight;
    struct km_cta *free_list;
    struct km_cta **all;
    size_t nall, capall;
};

/* ---- program building ---- */

static const char *const op_names[KM_NOPS] = {
    "NOP",  "MOV",  "IADD", "ISUB",  "IMUL", "IMAD", "SHL",  "SHR",  "AND",  "OR",   "XOR",
    "IMIN", "IMAX", "SEL",  "ISETP", "FADD", "FSUB", "FMUL", "FFMA", "FMIN", "FMAX", "FSETP",
    "I2F",  "F2I",  "LD",   "ST",    "ATOM", "BRA",  "BAR",  "EXIT", "MUFU", "LABEL"};

static uint8_t op_class(uint8_t op) {
    switch (op) {
    case KM_FADD:
    case KM_FSUB:
    case KM_FMUL:
    case KM_FFMA:
    case KM_FMIN:
    case KM_FMAX:
    case KM_FSETP:
    case KM_I2F:
    case KM_F2I:
        return OP_SP;
    case KM_LD:
    case KM_ST:
    case KM_ATOM:
        return OP_MEM;
    case KM_MUFU:
        return OP_SFU;
    case KM_BRA:
        return OP_BRANCH;
    case KM_BAR:
        return OP_BAR;
    case KM_EXIT:
        return OP_EXIT;
    default:
        return OP_INT;
    }
}

static int find_label(const struct km_inst *src, uint32_t n, const char *name, uint32_t *pc) {
    uint32_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (src[i].op != KM_LABEL) {
            at++;
            continue;
        }
        if (strcmp(src[i].label, name) == 0) {
            *pc = at;
            return 0;
        }
    }
    return -1;
}

static int check_opnd(const struct km_opnd *o, uint32_t *nreg) {
    switch (o->kind) {
    case KO_NONE:
    case KO_IMM:
    case KO_FIMM:
        return 0;
    case KO_REG:
        if (o->v < 0 || o->v >= KM_MAX_REGS) return -1;
        if ((uint32_t)o->v + 1 > *nreg) *nreg = (uint32_t)o->v + 1;
        return 0;
    case KO_PARAM:
        return o->v >= 0 && o->v < KM_MAX_PARAMS ? 0 : -1;
    case KO_SR:
        return o->v >= 0 && o->v < SR_COUNT ? 0 : -1;
    default:
        return -1;
    }
}

static void add_src(struct km_emit *em, const struct km_opnd *o) {
    if (o->kind == KO_REG && em->nsrc < INST_MAX_SRC) em->src[em->nsrc++] = (uint16_t)o->v;
}

int km_prog_build(struct km_prog *p, const char *name, uint32_t regs, const struct km_inst *src,
                  uint32_t n, struct ws_err *e) {
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->regs = regs;
    uint32_t cnt = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (src[i].op >= KM_NOPS)
            return ws_fail(e, "kernel '%s': entry %u has no valid opcode", name, i);
        if (src[i].op == KM_LABEL) {
            if (!src[i].label)
                return ws_fail(e, "kernel '%s': entry %u: label without a name", name, i);
            for (uint32_t j = 0; j < i; j++)
                if (src[j].op == KM_LABEL && strcmp(src[j].label, src[i].label) == 0)
                    return ws_fail(e, "kernel '%s': label '%s' defined twice", name, src[i].label);
        } else {
            cnt++;
        }
    }
    if (cnt == 0) return ws_fail(e, "kernel '%s' has no instructions", name);
    p->code = calloc(cnt, sizeof *p->code);
    p->emit = calloc(cnt, sizeof *p->emit);
    if (!p->code || !p->emit) {
        km_prog_free(p);
        return ws_fail(e, "kernel '%s': out of memory", name);
    }
    uint32_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        const struct km_inst *s = &src[i];
        if (s->op == KM_LABEL) continue;
        struct km_inst *k = &p->code[at];
        struct km_emit *em = &p->emit[at];
        *k = *s;
        k->tgt = k->rpc = PC_NONE;
        const char *what = NULL;
        if (check_opnd(&k->a, &p->nreg) || check_opnd(&k->b, &p->nreg) ||
            check_opnd(&k->c, &p->nreg))
            what = "an operand names no valid register, parameter or special register";
        else if (k->d1 > KM_MAX_REGS)
            what = "the destination register is out of range";
        else if (k->guard > KM_NPRED || k->guard < -KM_NPRED || k->pd >= KM_NPRED)
            what = "a predicate is out of range";
        if (k->d1 && k->d1 > p->nreg) p->nreg = k->d1;
        bool mem = k->op == KM_LD || k->op == KM_ST || k->op == KM_ATOM;
        if (!what && mem) {
            if (k->width != 1 && k->width != 2 && k->width != 4 && k->width != 8)
                what = "memory width must be 1, 2, 4 or 8 bytes";
            else if (k->space != SPACE_GLOBAL && k->space != SPACE_SHARED &&
                     !(k->space == SPACE_CONST && k->op == KM_LD))
                what = "memory space must be global or shared (or const for loads)";
            else if (k->a.kind != KO_REG && k->a.kind != KO_PARAM && k->a.kind != KO_IMM)
                what = "the address must be a register, parameter or immediate";
            else if (k->op == KM_ATOM && k->sub > KM_ATOM_FADD)
                what = "unknown atomic operation";
        }
        if (!what && k->op == KM_MUFU && (k->sub > KM_LG2 || !k->d1))
            what = "MUFU needs a function (enum km_mufu) and a destination";
        if (!what && (k->op == KM_ISETP || k->op == KM_FSETP) && k->sub > KM_NE)
            what = "unknown comparison";
        if (!what && k->op == KM_BRA) {
            if (!k->label || find_label(src, n, k->label, &k->tgt))
                what = "branch to an undefined label";
            else if (k->guard && (!k->reconv || find_label(src, n, k->reconv, &k->rpc)))
                what = "a guarded branch needs a defined reconvergence label";
            else if (k->guard && k->rpc >= cnt)
                what = "reconvergence label at the end of the kernel";
        }
        if (!what && k->tgt == cnt) what = "branch to a label after the last instruction";
        if (what) {
            int rc = ws_fail(e, "kernel '%s': instruction %u (%s, pc 0x%04x): %s", name, at,
                             op_names[k->op], at * KM_PC_STEP, what);
            km_prog_free(p);
            return rc;
        }
        em->cls = op_class(k->op);
        if (mem) {
            em->space = k->space;
            em->width = k->width;
            em->mop = k->op == KM_LD ? MOP_LOAD : k->op == KM_ST ? MOP_STORE : MOP_ATOMIC;
        } else {
            em->space = SPACE_NONE;
        }
        if (k->d1) em->dst[em->ndst++] = (uint16_t)(k->d1 - 1);
        if (k->op != KM_BRA && k->op != KM_LABEL) {
            add_src(em, &k->a);
            add_src(em, &k->b);
            add_src(em, &k->c);
        }
        at++;
    }
    const struct km_inst *last = &p->code[cnt - 1];
    int rc = 0;
    if (!((last->op == KM_EXIT || last->op == KM_BRA) && last->guard == 0))
        rc = ws_fail(e, "kernel '%s': the last instruction must be an unguarded EXIT or BRA", name);
    else if (p->regs < p->nreg)
        rc = ws_fail(e, "kernel '%s' uses %u registers but declares %u", name, p->nreg, p->regs);
    if (rc) {
        km_prog_free(p);
        return rc;
    }
    if (p->nreg == 0) p->nreg = 1;
    p->n = cnt;
    return 0;
}

void km_prog_free(struct km_prog *p) {
    free(p->code);
    free(p->emit);
    p->code = NULL;
    p->emit = NULL;
    p->n = 0;
}

/* ---- runs, CTAs and warps ---- */

struct km_run *km_run_create(struct devmem *dm, struct ws_err *e) {
    struct km_run *r = calloc(1, sizeof *r);
    if (!r) {
        ws_fail(e, "kernel model: out of memory");
        return NULL;
    }
    r->dm = dm;
    return r;
}

static void cta_free_bufs(struct km_cta *c) {
    free(c->smem);
    free(c->regs);
    free(c->w);
}

void km_run_destroy(struct km_run *r) {
    if (!r) return;
    for (size_t i = 0; i < r->nall; i++) {
        cta_free_bufs(r->all[i]);
        free(r->all[i]);
    }
    free(r->all);
    free(r);
}

int km_run_launch(struct km_run *r, const struct km_launch *l, struct kernel_desc *k,
                  struct ws_err *e) {
    WS_ASSERT(r->in_flight == 0, "kernel launch with %u CTAs in flight", r->in_flight);
    const struct km_prog *p = l->prog;
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t ncta = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (threads == 0 || threads > 1024 || ncta == 0)
        return ws_fail(e, "kernel '%s': bad launch shape grid (%u,%u,%u) block (%u,%u,%u)", p->name,
                       l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
    r->cur = *l;
    r->have = true;
    r->threads = (uint32_t)threads;
    r->nwarps = (uint32_t)((threads + WARP_SIZE - 1) / WARP_SIZE);
    r->ncta = ncta;
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", p->name);
    memcpy(k->grid, l->grid, sizeof k->grid);
    memcpy(k->block, l->block, sizeof k->block);
    k->ncta = ncta;
    k->threads = r->threads;
    k->regs = p->regs;
    k->bound_ctas = p->bound_ctas;
    k->smem = l->smem;
    return 0;
}

/* A CTA record big enough for the current launch: reused from the pool, else made. */
static struct km_cta *cta_get(struct km_run *r, struct ws_err *e) {
    uint32_t nreg = r->cur.prog->nreg, smem = r->cur.smem;
    struct km_cta *c = r->free_list;
    if (c) {
        r->free_list = c->next_free;
        if (c->cap_warps >= r->nwarps && c->cap_nreg >= nreg && c->cap_smem >= smem) return c;
        cta_free_bufs(c); /* the launch shape grew: rebuild this record */
    } else {
        if (r->nall == r->capall) {
            size_t cap = r->capall ? 2 * r->capall : 16;
            struct km_cta **na = realloc(r->all, cap * sizeof *na);
            if (!na) return ws_fail(e, "kernel model: out of memory"), NULL;
            r->all = na;
            r->capall = cap;
        }
        c = calloc(1, sizeof *c);
        if (!c) return ws_fail(e, "kernel model: out of memory"), NULL;
        r->all[r->nall++] = c;
    }
    c->cap_warps = r->nwarps;
    c->cap_nreg = nreg;
    c->cap_smem = smem;
    c->w = calloc(r->nwarps, sizeof *c->w);
    c->regs = calloc((size_t)r->nwarps * nreg * WARP_SIZE, sizeof *c->regs);
    c->smem = smem ? calloc(1, smem) : NULL;
    if (!c->w || !c->regs || (smem && !c->smem)) {
        cta_free_bufs(c);
        c->w = NULL, c->regs = NULL, c->smem = NULL;
        c->cap_warps = c->cap_nreg = c->cap_smem = 0;
        c->next_free = r->free_list;
        r->free_list = c;
        return ws_fail(e, "kernel model: out of memory for a CTA"), NULL;
    }
    return c;
}

int km_run_cta_start(struct km_run *r, uint64_t cta, struct wl_warp **warps, struct ws_err *e) {
    WS_ASSERT(r->have && cta < r->ncta, "CTA %llu of a kernel with %llu", (unsigned long long)cta,
              (unsigned long long)r->ncta);
    struct km_cta *c = cta_get(r, e);
    if (!c) return -1;
    const uint32_t *g = r->cur.grid;
    c->id = cta;
    c->ctaid[0] = (uint32_t)(cta % g[0]);
    c->ctaid[1] = (uint32_t)(cta / g[0] % g[1]);
    c->ctaid[2] = (uint32_t)(cta / ((uint64_t)g[0] * g[1]));
    if (r->cur.smem) memset(c->smem, 0, r->cur.smem);
    uint32_t nreg = r->cur.prog->nreg;
    memset(c->regs, 0, (size_t)r->nwarps * nreg * WARP_SIZE * sizeof *c->regs);
    for (uint32_t i = 0; i < r->nwarps; i++) {
        struct km_warp *w = &c->w[i];
        uint32_t lanes = r->threads - i * WARP_SIZE;
        w->cta = c;
        w->widx = i;
        w->reg = c->regs + (size_t)i * nreg * WARP_SIZE;
        memset(w->pred, 0, sizeof w->pred);
        w->sp = 1;
        w->stack[0].pc = 0;
        w->stack[0].rpc = PC_NONE;
        w->stack[0].mask = lanes >= WARP_SIZE ? 0xffffffffu : (1u << lanes) - 1;
        warps[i] = (struct wl_warp *)w;
    }
    r->in_flight++;
    return 0;
}

void km_run_cta_end(struct km_run *r, uint64_t cta, struct wl_warp **warps) {
    struct km_cta *c = ((struct km_warp *)warps[0])->cta;
    WS_ASSERT(c->id == cta && r->in_flight > 0, "cta_end of CTA %llu", (unsigned long long)cta);
    for (uint32_t i = 0; i < r->nwarps; i++)
        WS_ASSERT(c->w[i].sp == 0, "cta_end of CTA %llu before warp %u exited",
                  (unsigned long long)cta, i);
    c->next_free = r->free_list;
    r->free_list = c;
    r->in_flight--;
}

uint32_t km_run_ctas_in_flight(const struct km_run *r) {
    return r->in_flight;
}

/* ---- execution ---- */

static inline float as_f(uint64_t v) {
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline uint64_t f_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* An operand as 32 lane values: p[lane * s] (s = 0 broadcasts one value). */
struct vec {
    const uint64_t *p;
    uint32_t s;
};

static struct vec operand(const struct km_run *r, const struct km_warp *w, const struct km_opnd *o,
                          uint64_t *tmp) {
    switch (o->kind) {
    case KO_REG:
        return (struct vec){&w->reg[o->v * WARP_SIZE], 1};
    case KO_IMM:
        tmp[0] = (uint64_t)o->v;
        break;
    case KO_FIMM:
        tmp[0] = f_bits(o->f);
        break;
    case KO_PARAM:
        tmp[0] = (uint64_t)r->cur.param[o->v];
        break;
    case KO_SR: {
        const uint32_t *b = r->cur.block, *g = r->cur.grid, *ct = w->cta->ctaid;
        uint32_t base = w->widx * WARP_SIZE;
        switch (o->v) {
        case SR_TID_X:
        case SR_TID_Y:
        case SR_TID_Z:
        case SR_LANEID:
            for (uint32_t l = 0; l < WARP_SIZE; l++) {
                uint32_t t = base + l;
                tmp[l] = o->v == SR_TID_X   ? t % b[0]
                         : o->v == SR_TID_Y ? t / b[0] % b[1]
                         : o->v == SR_TID_Z ? t / (b[0] * b[1])
                                            : l;
            }
            return (struct vec){tmp, 1};
        case SR_CTAID_X:
        case SR_CTAID_Y:
        case SR_CTAID_Z:
            tmp[0] = ct[o->v - SR_CTAID_X];
            break;
        case SR_NTID_X:
        case SR_NTID_Y:
        case SR_NTID_Z:
            tmp[0] = b[o->v - SR_NTID_X];
            break;
        default:
            tmp[0] = g[o->v - SR_NCTAID_X];
            break;
        }
        break;
    }
    default:
        tmp[0] = 0;
        break;
    }
    return (struct vec){tmp, 0};
}

#define V(x, l) ((x).p[(l) * (x).s])
#define FOR_LANES(m, l)                                                                            \
    for (uint32_t m_ = (m), l; m_ && (l = (uint32_t)__builtin_ctz(m_), 1); m_ &= m_ - 1)

static bool compare_i(uint8_t cmp, int64_t a, int64_t b) {
    switch (cmp) {
    case KM_LT:
        return a < b;
    case KM_LE:
        return a <= b;
    case KM_GT:
        return a > b;
    case KM_GE:
        return a >= b;
    case KM_EQ:
        return a == b;
    default:
        return a != b;
    }
}
static bool compare_f(uint8_t cmp, float a, float b) {
    switch (cmp) {
    case KM_LT:
        return a < b;
    case KM_LE:
        return a <= b;
    case KM_GT:
        return a > b;
    case KM_GE:
        return a >= b;
    case KM_EQ:
        return a == b;
    default:
        return a != b && a == a && b == b; /* ordered not-equal */
    }
}

static int64_t f2i(float f) {
    if (f != f) return 0;
    if (f >= 2147483647.0f) return INT32_MAX;
    if (f <= -2147483648.0f) return INT32_MIN;
    return (int64_t)f;
}

static uint64_t alu(uint8_t op, uint64_t a, uint64_t b, uint64_t c) {
    switch (op) {
    case KM_MOV:
        return a;
    case KM_IADD:
        return a + b;
    case KM_ISUB:
        return a - b;
    case KM_IMUL:
        return a * b;
    case KM_IMAD:
        return a * b + c;
    case KM_SHL:
        return a << (b & 63);
    case KM_SHR:
        return a >> (b & 63);
    case KM_AND:
        return a & b;
    case KM_OR:
        return a | b;
    case KM_XOR:
        return a ^ b;
    case KM_IMIN:
        return (int64_t)a < (int64_t)b ? a : b;
    case KM_IMAX:
        return (int64_t)a > (int64_t)b ? a : b;
    case KM_FADD:
        return f_bits(as_f(a) + as_f(b));
    case KM_FSUB:
        return f_bits(as_f(a) - as_f(b));
    case KM_FMUL:
        return f_bits(as_f(a) * as_f(b));
    case KM_FFMA:
        return f_bits(fmaf(as_f(a), as_f(b), as_f(c)));
    case KM_FMIN:
        return f_bits(fminf(as_f(a), as_f(b)));
    case KM_FMAX:
        return f_bits(fmaxf(as_f(a), as_f(b)));
    case KM_I2F:
        return f_bits((float)(int64_t)a);
    case KM_F2I:
        return (uint64_t)f2i(as_f(a));
    default:
        return 0;
    }
}

static uint64_t mufu(uint8_t f, uint64_t a) {
    float x = as_f(a);
    switch (f) {
    case KM_RCP:
        return f_bits(1.0f / x);
    case KM_SQRT:
        return f_bits(sqrtf(x));
    case KM_RSQ:
        return f_bits(1.0f / sqrtf(x));
    case KM_SIN:
        return f_bits(sinf(x));
    case KM_COS:
        return f_bits(cosf(x));
    case KM_EX2:
        return f_bits(exp2f(x));
    default:
        return f_bits(log2f(x));
    }
}

static uint64_t atom_op(uint8_t aop, uint64_t old, uint64_t b, uint64_t c, uint8_t width) {
    int sh = 64 - 8 * width; /* compare as signed values of the access width */
    int64_t so = (int64_t)(old << sh) >> sh, sb = (int64_t)(b << sh) >> sh;
    switch (aop) {
    case KM_ATOM_ADD:
        return old + b;
    case KM_ATOM_MIN:
        return so < sb ? old : b;
    case KM_ATOM_MAX:
        return so > sb ? old : b;
    case KM_ATOM_EXCH:
        return b;
    case KM_ATOM_CAS:
        return old == b ? c : old;
    case KM_ATOM_AND:
        return old & b;
    case KM_ATOM_FADD:
        return f_bits(as_f(old) + as_f(b));
    default:
        return old | b;
    }
}

static int bad_access(const struct km_run *r, const struct km_warp *w, uint32_t pc, uint32_t lane,
                      uint64_t addr, const char *why, struct ws_err *e) {
    return ws_fail(e,
                   "kernel '%s' pc 0x%04x (CTA %llu, warp %u, lane %u): %u-byte %s access at "
                   "0x%llx %s",
                   r->cur.prog->name, pc * KM_PC_STEP, (unsigned long long)w->cta->id, w->widx,
                   lane, r->cur.prog->code[pc].width,
                   r->cur.prog->code[pc].space == SPACE_SHARED ? "shared" : "global",
                   (unsigned long long)addr, why);
}

/* A lane's access of `width` bytes at h (little-endian host, the low bytes of the value), with
 * the common widths as single loads and stores: memcpy of a variable width is a library call,
 * and this runs for every lane of every memory instruction. */
static inline uint64_t mem_get(const uint8_t *h, unsigned width) {
    uint64_t v = 0;
    if (width == 4) {
        uint32_t x;
        memcpy(&x, h, 4);
        return x;
    }
    if (width == 8) {
        memcpy(&v, h, 8);
        return v;
    }
    memcpy(&v, h, width);
    return v;
}
static inline void mem_put(uint8_t *h, uint64_t v, unsigned width) {
    if (width == 4) {
        uint32_t x = (uint32_t)v;
        memcpy(h, &x, 4);
    } else if (width == 8) {
        memcpy(h, &v, 8);
    } else {
        memcpy(h, &v, width);
    }
}

/* Loads, stores and atomics of the lanes in ex; fills in->addr. */
static int mem_exec(struct km_run *r, struct km_warp *w, uint32_t pc, uint32_t ex, struct inst *in,
                    struct ws_err *e) {
    const struct km_inst *k = &r->cur.prog->code[pc];
    uint64_t ta[WARP_SIZE], tb[WARP_SIZE], tc[WARP_SIZE];
    struct vec A = operand(r, w, &k->a, ta), B = operand(r, w, &k->b, tb),
               C = operand(r, w, &k->c, tc);
    uint64_t *D = k->d1 ? &w->reg[(k->d1 - 1) * WARP_SIZE] : NULL;
    uint32_t width = k->width;
    bool shared = k->space == SPACE_SHARED;
    struct devmem_span span = {0, 0, NULL};
    memset(in->addr, 0, sizeof in->addr);
    FOR_LANES(ex, l) {
        uint64_t addr = V(A, l) + (uint64_t)(int64_t)k->off;
        in->addr[l] = addr;
        if (addr % width) return bad_access(r, w, pc, l, addr, "is misaligned", e);
        uint8_t *h;
        if (shared) {
            if (addr + width > r->cur.smem || addr + width < addr)
                return bad_access(r, w, pc, l, addr, "is outside the CTA's shared memory", e);
            h = w->cta->smem + addr;
        } else {
            if (addr - span.addr >= span.bytes || span.bytes - (addr - span.addr) < width) {
                if (!devmem_span(r->dm, addr, &span) || span.bytes - (addr - span.addr) < width)
                    return bad_access(r, w, pc, l, addr, "is outside device memory", e);
            }
            h = span.host + (addr - span.addr);
        }
        uint64_t v;
        if (k->op == KM_ST) {
            v = V(B, l);
            mem_put(h, v, width); /* little-endian host: the low bytes */
            continue;
        }
        v = mem_get(h, width);
        if (k->op == KM_ATOM) {
            uint64_t nv = atom_op(k->sub, v, V(B, l), V(C, l), (uint8_t)width);
            memcpy(h, &nv, width);
        } else if (k->sub && width < 8) {
            int sh = 64 - 8 * (int)width;
            v = (uint64_t)((int64_t)(v << sh) >> sh);
        }
        if (D) D[l] = v;
    }
    return 0;
}

static void push(struct km_warp *w, uint32_t pc, uint32_t mask, uint32_t rpc) {
    WS_ASSERT(w->sp < KM_STACK_MAX, "SIMT stack overflow");
    w->stack[w->sp++] = (struct km_frame){pc, rpc, mask};
}

/* Pops frames whose lanes all exited or that reached their reconvergence point (the frame below
 * waits there with a superset of their lanes). */
static void settle(struct km_warp *w) {
    while (w->sp > 0) {
        const struct km_frame *t = &w->stack[w->sp - 1];
        if (t->mask != 0 && t->pc != t->rpc) break;
        w->sp--;
    }
    WS_ASSERT(w->sp > 0, "warp ran out of its SIMT stack without a final EXIT");
}

int km_run_warp_next(struct km_run *r, struct wl_warp *wp, struct inst *in, struct ws_err *e) {
    struct km_warp *w = (struct km_warp *)wp;
    const struct km_prog *p = r->cur.prog;
    WS_ASSERT(w->sp > 0, "warp_next after the warp's EXIT");
    for (;;) {
        struct km_frame *top = &w->stack[w->sp - 1];
        uint32_t pc = top->pc, mask = top->mask;
        WS_ASSERT(pc < p->n, "kernel '%s': pc %u beyond the end", p->name, pc);
        const struct km_inst *k = &p->code[pc];
        const struct km_emit *em = &p->emit[pc];
        uint32_t ex = mask;
        if (k->guard > 0) ex &= w->pred[k->guard - 1];
        if (k->guard < 0) ex &= ~w->pred[-k->guard - 1];

        in->pc = (uint64_t)pc * KM_PC_STEP;
        in->active = ex;
        in->cls = em->cls;
        in->space = em->space;
        in->mop = em->mop;
        in->width = em->width;
        in->ndst = em->ndst;
        in->nsrc = em->nsrc;
        memcpy(in->dst, em->dst, sizeof in->dst);
        memcpy(in->src, em->src, sizeof in->src);
        in->lat = in->ii = 0;

        switch (k->op) {
        case KM_LD:
        case KM_ST:
        case KM_ATOM:
            if (ex == 0) { /* every lane predicated off: no access, nothing to emit */
                top->pc++;
                settle(w);
                continue;
            }
            if (mem_exec(r, w, pc, ex, in, e)) return -1;
            break;
        case KM_BRA: {
            in->active = mask;
            uint32_t nt = mask & ~ex;
            if (nt == 0) {
                top->pc = k->tgt;
            } else if (ex == 0) {
                top->pc = pc + 1;
            } else {
                /* Divergence: this frame waits at the reconvergence point (or is dropped if it
                 * already reconverges there), then the fall-through lanes and, on top so they
                 * run first, the taken lanes. A path that starts at the reconvergence point has
                 * nothing to run. */
                top->pc = k->rpc;
                if (top->pc == top->rpc) w->sp--;
                if (pc + 1 != k->rpc) push(w, pc + 1, nt, k->rpc);
                if (k->tgt != k->rpc) push(w, k->tgt, ex, k->rpc);
            }
            settle(w);
            return 0;
        }
        case KM_EXIT: {
            uint32_t live = w->stack[0].mask;
            for (uint32_t i = 0; i < w->sp; i++) w->stack[i].mask &= ~ex;
            if (ex == live) {
                w->sp = 0; /* the warp's last instruction */
                return 0;
            }
            in->cls = OP_BRANCH; /* some lanes end here, the warp goes on */
            in->active = mask;
            top->pc++;
            settle(w);
            return 0;
        }
        case KM_BAR:
        case KM_NOP:
            break;
        case KM_ISETP:
        case KM_FSETP: {
            uint64_t ta[WARP_SIZE], tb[WARP_SIZE];
            struct vec A = operand(r, w, &k->a, ta), B = operand(r, w, &k->b, tb);
            uint32_t res = 0;
            FOR_LANES(ex, l) {
                bool t = k->op == KM_ISETP ? compare_i(k->sub, (int64_t)V(A, l), (int64_t)V(B, l))
                                           : compare_f(k->sub, as_f(V(A, l)), as_f(V(B, l)));
                res |= (uint32_t)t << l;
            }
            w->pred[k->pd] = (w->pred[k->pd] & ~ex) | res;
            break;
        }
        case KM_SEL: {
            uint64_t ta[WARP_SIZE], tb[WARP_SIZE];
            struct vec A = operand(r, w, &k->a, ta), B = operand(r, w, &k->b, tb);
            uint64_t *D = &w->reg[(k->d1 - 1) * WARP_SIZE];
            uint32_t pm = w->pred[k->pd];
            FOR_LANES(ex, l) D[l] = (pm >> l & 1) ? V(A, l) : V(B, l);
            break;
        }
        default: {
            uint64_t ta[WARP_SIZE], tb[WARP_SIZE], tc[WARP_SIZE];
            struct vec A = operand(r, w, &k->a, ta), B = operand(r, w, &k->b, tb),
                       C = operand(r, w, &k->c, tc);
            if (!k->d1) break;
            uint64_t *D = &w->reg[(k->d1 - 1) * WARP_SIZE];
            if (k->op == KM_MUFU) {
                FOR_LANES(ex, l) D[l] = mufu(k->sub, V(A, l));
            } else if (k->op ==
                       KM_IMAD) { /* the address arithmetic of every kernel: keep it tight */
                FOR_LANES(ex, l) D[l] = V(A, l) * V(B, l) + V(C, l);
            } else if (k->op == KM_IADD) {
                FOR_LANES(ex, l) D[l] = V(A, l) + V(B, l);
            } else if (k->op == KM_FFMA && k->sub) { /* FFMA with a negated operand: c - a * b */
                FOR_LANES(ex, l) D[l] = alu(k->op, V(A, l) ^ 0x80000000u, V(B, l), V(C, l));
            } else {
                FOR_LANES(ex, l) D[l] = alu(k->op, V(A, l), V(B, l), V(C, l));
            }
            break;
        }
        }
        top->pc++;
        settle(w);
        return 0;
    }
}

/* ---- workload glue ---- */

int km_wl_init(struct km_workload *kw, const struct workload_vt *vt, const char *name,
               struct ws_err *e) {
    kw->base.vt = vt;
    kw->base.name = name;
    kw->dm = devmem_create(DEVMEM_BASE);
    if (!kw->dm) return ws_fail(e, "%s: out of memory", name);
    kw->run = km_run_create(kw->dm, e);
    if (!kw->run) {
        devmem_destroy(kw->dm);
        kw->dm = NULL;
        return -1;
    }
    return 0;
}

void km_wl_fini(struct km_workload *kw) {
    km_run_destroy(kw->run);
    devmem_destroy(kw->dm);
    kw->run = NULL;
    kw->dm = NULL;
}

int km_wl_cta_start(struct workload *w, uint64_t cta, struct wl_warp **warps, struct ws_err *e) {
    return km_run_cta_start(((struct km_workload *)w)->run, cta, warps, e);
}

int km_wl_warp_next(struct workload *w, struct wl_warp *wp, struct inst *in, struct ws_err *e) {
    return km_run_warp_next(((struct km_workload *)w)->run, wp, in, e);
}

void km_wl_cta_end(struct workload *w, uint64_t cta, struct wl_warp **warps) {
    km_run_cta_end(((struct km_workload *)w)->run, cta, warps);
}

uint64_t km_wl_device_bytes(const struct workload *w) {
    if (w->vt->cta_start != km_wl_cta_start) return 0;
    const struct km_workload *kw = (const struct km_workload *)w;
    return kw->dm ? devmem_bytes(kw->dm) : 0;
}

void km_copy_add(struct wl_copy *list, uint32_t *n, uint32_t cap, uint64_t addr, uint64_t bytes) {
    WS_ASSERT(*n < cap, "too many copies before one launch");
    list[(*n)++] = (struct wl_copy){addr, bytes};
}
