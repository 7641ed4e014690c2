/* Trace export: workload -> kernelslist.g + kernel-N.traceg (see trace_export.h). Lines are
 * formatted by hand into per-warp buffers (a warp's "insts = N" comes before its lines, and
 * export of paper-size workloads writes gigabytes, so no printf per field). */
#include "workload/trace/trace_export.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "workload/trace/kernelslist.h"
#include "workload/trace/opcodes.h"

enum { MAX_WARPS = 1024 / WARP_SIZE, LINE_MAX_BYTES = 1400, PATH_BYTES = 4096 };
enum { FILE_BUF = 1 << 20 };

struct wbuf {
    char *p;
    size_t len, cap;
};

struct xw {
    const char *dir;
    const struct trace_export_opts *o;
    struct trace_export_stats *st;
    FILE *f; /* the kernel file being written */
    char fpath[PATH_BYTES];
    char *fbuf;        /* its stdio buffer (FILE_BUF bytes) */
    uint32_t nkernels; /* kernel files begun (temporary names 1..nkernels exist) */
    struct wbuf list;  /* kernelslist.g */
    struct wbuf out;   /* one thread block's text */
    struct wbuf warp[MAX_WARPS];
    uint32_t nlines[MAX_WARPS];
};

static int wb_reserve(struct wbuf *b, size_t extra, struct ws_err *e) {
    if (b->len + extra <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) return ws_fail(e, "trace export: out of memory (%zu bytes)", cap);
    b->p = p;
    b->cap = cap;
    return 0;
}

static int wb_printf(struct wbuf *b, struct ws_err *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int wb_printf(struct wbuf *b, struct ws_err *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || wb_reserve(b, (size_t)n + 1, e)) return -1;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}

/* ---- opcodes ---- */

static int width_idx(unsigned w) {
    switch (w) {
    case 1:
        return 0;
    case 2:
        return 1;
    case 4:
        return 2;
    case 8:
        return 3;
    case 16:
        return 4;
    default:
        return -1;
    }
}

/* Indexed by width_idx; NULL where the space has no such access. */
static const char *const op_ldg[5] = {"LDG.E.U8", "LDG.E.U16", "LDG.E", "LDG.E.64", "LDG.E.128"};
static const char *const op_stg[5] = {"STG.E.U8", "STG.E.U16", "STG.E", "STG.E.64", "STG.E.128"};
static const char *const op_atomg[5] = {"ATOMG.E.ADD.U8", "ATOMG.E.ADD.U16", "ATOMG.E.ADD",
                                        "ATOMG.E.ADD.64", NULL};
static const char *const op_lds[5] = {"LDS.U8", "LDS.U16", "LDS", "LDS.64", "LDS.128"};
static const char *const op_sts[5] = {"STS.U8", "STS.U16", "STS", "STS.64", "STS.128"};
static const char *const op_atoms[5] = {"ATOMS.ADD.U8", "ATOMS.ADD.U16", "ATOMS.ADD",
                                        "ATOMS.ADD.64", NULL};
static const char *const op_ldl[5] = {"LDL.U8", "LDL.U16", "LDL", "LDL.64", "LDL.128"};
static const char *const op_stl[5] = {"STL.U8", "STL.U16", "STL", "STL.64", "STL.128"};
static const char *const op_ldc[5] = {"LDC.U8", "LDC.U16", "LDC", "LDC.64", NULL};
static const char *const op_tex[5] = {NULL, NULL, "TEX", NULL, NULL};

const char *trace_export_opcode(const struct inst *in) {
    switch (in->cls) {
    case OP_INT: /* no register result: a compare that sets a predicate */
        return in->ndst ? "IMAD" : "ISETP.NE.AND";
    case OP_SP:
        return in->ndst ? "FFMA" : "FSETP.NE.AND";
    case OP_DP:
        return "DFMA";
    case OP_SFU:
        return "MUFU.EX2";
    case OP_TENSOR:
        return "HMMA.16816.F32";
    case OP_BRANCH:
        return "BRA";
    case OP_BAR:
        return "BAR.SYNC";
    case OP_EXIT:
        return "EXIT";
    case OP_MEM:
        break;
    default:
        return NULL;
    }
    int wi = width_idx(in->width);
    if (wi < 0) return NULL;
    const char *const *t = NULL;
    switch (in->space) {
    case SPACE_GLOBAL:
        t = in->mop == MOP_LOAD ? op_ldg : in->mop == MOP_STORE ? op_stg : op_atomg;
        break;
    case SPACE_SHARED:
        t = in->mop == MOP_LOAD ? op_lds : in->mop == MOP_STORE ? op_sts : op_atoms;
        break;
    case SPACE_LOCAL:
        t = in->mop == MOP_LOAD ? op_ldl : in->mop == MOP_STORE ? op_stl : NULL;
        break;
    case SPACE_CONST:
        t = in->mop == MOP_LOAD ? op_ldc : NULL;
        break;
    case SPACE_TEX:
        t = in->mop == MOP_LOAD ? op_tex : NULL;
        break;
    default:
        break;
    }
    return t ? t[wi] : NULL;
}

/* ---- line formatting ---- */

static char *put_str(char *p, const char *s) {
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

static char *put_hex(char *p, uint64_t v, int mindig) {
    static const char dig[] = "0123456789abcdef";
    char tmp[16];
    int n = 0;
    do {
        tmp[n++] = dig[v & 15];
        v >>= 4;
    } while (v);
    while (n < mindig) tmp[n++] = '0';
    while (n) *p++ = tmp[--n];
    return p;
}

static char *put_u64(char *p, uint64_t v) {
    char tmp[20];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *p++ = tmp[--n];
    return p;
}

static char *put_i64(char *p, int64_t v) {
    if (v < 0) {
        *p++ = '-';
        return put_u64(p, (uint64_t)0 - (uint64_t)v);
    }
    return put_u64(p, (uint64_t)v);
}

/* The register names the reader maps back to the same ids (traceg.c reg_id). */
static char *put_reg(char *p, uint16_t id) {
    *p++ = ' ';
    if (id == REG_NONE) return put_str(p, "RZ");
    if (id < 255) return put_u64(put_str(p, "R"), id);
    if (id >= 256 && id < 256 + 63) return put_u64(put_str(p, "UR"), id - 256u);
    if (id >= 320 && id < 327) return put_u64(put_str(p, "P"), id - 320u);
    if (id >= 328 && id < 335) return put_u64(put_str(p, "UP"), id - 328u);
    if (id >= 336 && id < 352) return put_u64(put_str(p, "B"), id - 336u);
    return NULL;
}

static size_t dec_len_i64(int64_t v) {
    char tmp[24];
    return (size_t)(put_i64(tmp, v) - tmp);
}
static size_t hex_len(uint64_t v) {
    char tmp[20];
    return (size_t)(put_hex(tmp, v, 1) - tmp);
}

/* " <mode> <addresses>" of the active lanes. */
static char *put_addrs(char *p, uint32_t mask, const uint64_t *addr) {
    uint64_t a[WARP_SIZE];
    unsigned n = 0;
    for (uint32_t m = mask; m; m &= m - 1) a[n++] = addr[__builtin_ctz(m)];
    if (n == 0) return put_str(p, " 1 0x0 0");
    uint32_t run = mask >> __builtin_ctz(mask);
    if (n >= 2 && (run & (run + 1)) == 0) { /* one contiguous run: base + stride if uniform */
        int64_t d = (int64_t)(a[1] - a[0]);
        bool uni = d >= INT32_MIN && d <= INT32_MAX;
        for (unsigned i = 2; i < n && uni; i++) uni = (int64_t)(a[i] - a[i - 1]) == d;
        if (uni) {
            p = put_hex(put_str(p, " 1 0x"), a[0], 1);
            *p++ = ' ';
            return put_i64(p, d);
        }
    }
    size_t dl = 0, ll = 0;
    bool deltas_ok = true;
    for (unsigned i = 0; i < n; i++) {
        ll += 3 + hex_len(a[i]);
        if (i == 0) continue;
        int64_t d = (int64_t)(a[i] - a[i - 1]);
        deltas_ok &= d != INT64_MIN; /* not readable back as a signed decimal */
        dl += 1 + dec_len_i64(d);
    }
    if (deltas_ok && 3 + hex_len(a[0]) + dl <= ll) {
        p = put_hex(put_str(p, " 2 0x"), a[0], 1);
        for (unsigned i = 1; i < n; i++) {
            *p++ = ' ';
            p = put_i64(p, (int64_t)(a[i] - a[i - 1]));
        }
        return p;
    }
    p = put_str(p, " 0");
    for (unsigned i = 0; i < n; i++) p = put_hex(put_str(p, " 0x"), a[i], 1);
    return p;
}

/* Appends one instruction line to b. */
static int put_line(struct wbuf *b, const struct inst *in, const char *kname, struct ws_err *e) {
    const char *op = trace_export_opcode(in);
    if (!op)
        return ws_fail(e,
                       "kernel '%s' pc 0x%llx: no SASS opcode for a %u-byte %s of memory space "
                       "%u (op class %u)",
                       kname, (unsigned long long)in->pc, in->width,
                       in->mop == MOP_LOAD    ? "load"
                       : in->mop == MOP_STORE ? "store"
                                              : "atomic",
                       in->space, in->cls);
    if (wb_reserve(b, LINE_MAX_BYTES, e)) return -1;
    char *p = b->p + b->len;
    p = put_hex(p, in->pc, 4);
    *p++ = ' ';
    p = put_hex(p, in->active, 8);
    *p++ = ' ';
    p = put_u64(p, in->ndst);
    for (unsigned i = 0; i < in->ndst && p; i++) p = put_reg(p, in->dst[i]);
    if (p) {
        *p++ = ' ';
        p = put_str(p, op);
        *p++ = ' ';
        p = put_u64(p, in->nsrc);
    }
    for (unsigned i = 0; i < in->nsrc && p; i++) p = put_reg(p, in->src[i]);
    if (!p)
        return ws_fail(e, "kernel '%s' pc 0x%llx: a register id has no SASS name", kname,
                       (unsigned long long)in->pc);
    *p++ = ' ';
    if (in->cls == OP_MEM) {
        p = put_u64(p, in->width);
        p = put_addrs(p, in->active, in->addr);
    } else {
        *p++ = '0';
    }
    p = put_str(p, " 0\n"); /* the immediate (DEPBAR's group count; none here) */
    b->len = (size_t)(p - b->p);
    return 0;
}

/* ---- files ---- */

static void kernel_path(char *out, const struct xw *x, uint32_t n, bool tmp) {
    snprintf(out, PATH_BYTES, tmp ? "%s/.kernel-%u.traceg.tmp" : "%s/kernel-%u.traceg", x->dir, n);
}

static int write_out(struct xw *x, const char *data, size_t n, struct ws_err *e) {
    if (n && fwrite(data, 1, n, x->f) != n)
        return ws_fail(e, "%s: cannot write: %s", x->fpath, strerror(errno));
    x->st->bytes += n;
    return 0;
}

static int open_kernel(struct xw *x, const struct kernel_desc *k, struct ws_err *e) {
    kernel_path(x->fpath, x, k->id + 1, true);
    x->f = fopen(x->fpath, "w");
    if (!x->f) return ws_fail(e, "%s: cannot write in this folder: %s", x->dir, strerror(errno));
    x->nkernels = k->id + 1;
    setvbuf(x->f, x->fbuf, _IOFBF, FILE_BUF);
    x->out.len = 0;
    if (wb_printf(&x->out, e,
                  "-kernel name = %s\n-kernel id = %u\n-grid dim = (%u,%u,%u)\n"
                  "-block dim = (%u,%u,%u)\n-shmem = %u\n-nregs = %u\n-binary version = %u\n"
                  "-cuda stream id = 0\n-shmem base_addr = 0x0000000000000000\n"
                  "-local mem base_addr = 0x0000000000000000\n-nvbit version = none (warpsim "
                  "trace-export)\n"
                  "-accelsim tracer version = 4\n-enable lineinfo = 0\n"
                  "-warpsim unit timing = machine\n\n"
                  "#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
                  "mem_width [adrrescompress?] [mem_addresses] immediate\n\n",
                  k->name, k->id + 1, k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1],
                  k->block[2], k->smem, k->regs, x->o->binary_version))
        return -1;
    return write_out(x, x->out.p, x->out.len, e);
}

static int close_kernel(struct xw *x, struct ws_err *e) {
    FILE *f = x->f;
    x->f = NULL;
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) return ws_fail(e, "%s: cannot write: %s", x->fpath, strerror(errno));
    return 0;
}

/* Runs CTA `cta` of kernel k and writes its thread block. */
static int export_cta(struct xw *x, struct workload *w, const struct kernel_desc *k, uint64_t cta,
                      struct ws_err *e) {
    struct wl_warp *warps[MAX_WARPS];
    uint32_t nw = (k->threads + WARP_SIZE - 1) / WARP_SIZE;
    enum { RUN, AT_BAR, DONE } state[MAX_WARPS];
    if (w->vt->cta_start(w, cta, warps, e)) return -1;
    for (uint32_t i = 0; i < nw; i++) {
        state[i] = RUN;
        x->warp[i].len = 0;
        x->nlines[i] = 0;
    }
    struct inst in;
    uint32_t left = nw;
    int rc = 0;
    while (left && rc == 0) {
        for (uint32_t i = 0; i < nw && rc == 0; i++) {
            while (state[i] == RUN) {
                if ((rc = w->vt->warp_next(w, warps[i], &in, e)) != 0) break;
                if ((rc = put_line(&x->warp[i], &in, k->name, e)) != 0) break;
                x->nlines[i]++;
                x->st->insts++;
                if (in.cls < OP_NCLASS) x->st->by_class[in.cls]++;
                if (in.cls == OP_EXIT) state[i] = DONE, left--;
                if (in.cls == OP_BAR) state[i] = AT_BAR;
            }
        }
        for (uint32_t i = 0; i < nw; i++) /* every live warp is at the barrier: release it */
            if (state[i] == AT_BAR) state[i] = RUN;
    }
    if (rc) return -1; /* the workload is left as it is: the export has failed */
    w->vt->cta_end(w, cta, warps);
    uint64_t gx = k->grid[0], gy = k->grid[1];
    x->out.len = 0;
    if (wb_printf(&x->out, e, "\n#BEGIN_TB\n\nthread block = %llu,%llu,%llu\n",
                  (unsigned long long)(cta % gx), (unsigned long long)(cta / gx % gy),
                  (unsigned long long)(cta / (gx * gy))))
        return -1;
    for (uint32_t i = 0; i < nw; i++) {
        if (wb_printf(&x->out, e, "\nwarp = %u\ninsts = %u\n", i, x->nlines[i]) ||
            write_out(x, x->out.p, x->out.len, e) || write_out(x, x->warp[i].p, x->warp[i].len, e))
            return -1;
        x->out.len = 0;
    }
    x->st->ctas++;
    x->st->warps += nw;
    return write_out(x, "\n#END_TB\n", 9, e);
}

static int export_kernel(struct xw *x, struct workload *w, const struct kernel_desc *k,
                         struct ws_err *e) {
    if (k->threads == 0 || k->threads > 1024)
        return ws_fail(e, "kernel '%s': %u threads per CTA (1 to 1024)", k->name, k->threads);
    for (uint32_t i = 0; i < k->ncopies; i++)
        if (wb_printf(&x->list, e, "MemcpyHtoD,0x%016llx,%llu\n",
                      (unsigned long long)k->copies[i].addr,
                      (unsigned long long)k->copies[i].bytes))
            return -1;
    x->st->copies += k->ncopies;
    if (wb_printf(&x->list, e, "kernel-%u.traceg\n", k->id + 1) || open_kernel(x, k, e)) return -1;
    for (uint64_t c = 0; c < k->ncta; c++)
        if (export_cta(x, w, k, c, e)) return -1;
    x->st->kernels++;
    return close_kernel(x, e);
}

static int make_dir(const char *dir, struct ws_err *e) {
    struct stat sb;
    if (stat(dir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode)) return ws_fail(e, "%s: exists and is not a folder", dir);
        return 0;
    }
    /* as mkdir -p: each missing folder on the way, then dir itself */
    char p[PATH_BYTES];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p;; s++) {
        if (*s && (s == p || *s != '/')) continue;
        char ch = *s;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            return ws_fail(e, "%s: cannot create the folder: %s", dir, strerror(errno));
        if (!ch) return 0;
        *s = ch;
    }
}

/* Removes the kernel files of an earlier trace in the folder that this export did not write
 * (kernel-N.traceg for N > nk, and kernel-N.traceg.gz/.xz/.zst for any N): left beside the new
 * kernelslist.g, they would look like part of it. */
static int remove_stale(const char *dir, uint32_t nk, struct ws_err *e) {
    DIR *d = opendir(dir);
    if (!d) return ws_fail(e, "%s: cannot read the folder: %s", dir, strerror(errno));
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d))) {
        const char *name = de->d_name;
        long n = kl_kernel_number(name);
        if (n < 0) continue;
        const char *ext = strstr(name, ".traceg") + 7;
        bool ours = !*ext && n >= 1 && n <= (long)nk;
        bool trace = !*ext || !strcmp(ext, ".gz") || !strcmp(ext, ".xz") || !strcmp(ext, ".zst");
        if (ours || !trace) continue;
        char p[PATH_BYTES];
        snprintf(p, sizeof p, "%s/%s", dir, name);
        if (remove(p) != 0) rc = ws_fail(e, "%s: cannot remove: %s", p, strerror(errno));
    }
    closedir(d);
    return rc;
}

/* Renames every kernel file, then writes kernelslist.g: a list appears only when all it names
 * are complete. */
static int finish(struct xw *x, struct ws_err *e) {
    char from[PATH_BYTES], to[PATH_BYTES];
    const uint32_t nk = x->nkernels;
    for (uint32_t n = 1; n <= x->nkernels; n++) {
        kernel_path(from, x, n, true);
        kernel_path(to, x, n, false);
        if (rename(from, to) != 0)
            return ws_fail(e, "%s: cannot rename to %s: %s", from, to, strerror(errno));
    }
    x->nkernels = 0;
    snprintf(from, sizeof from, "%s/.kernelslist.g.tmp", x->dir);
    snprintf(to, sizeof to, "%s/kernelslist.g", x->dir);
    snprintf(x->fpath, sizeof x->fpath, "%s", from);
    x->f = fopen(from, "w");
    if (!x->f) return ws_fail(e, "%s: cannot write: %s", from, strerror(errno));
    if (write_out(x, x->list.p, x->list.len, e) || close_kernel(x, e)) return -1;
    if (rename(from, to) != 0)
        return ws_fail(e, "%s: cannot rename to %s: %s", from, to, strerror(errno));
    return remove_stale(x->dir, nk, e);
}

int trace_export(struct workload *w, const char *dir, const struct trace_export_opts *o,
                 struct trace_export_stats *st, struct ws_err *e) {
    memset(st, 0, sizeof *st);
    if (!trace_arch_find(o->binary_version))
        return ws_fail(e, "binary version %u is not supported (known: %s)", o->binary_version,
                       trace_arch_supported());
    if (strlen(dir) > PATH_BYTES - 64) return ws_fail(e, "%s: path too long", dir);
    if (make_dir(dir, e)) return -1;
    struct xw x = {.dir = dir, .o = o, .st = st, .fbuf = malloc(FILE_BUF)};
    if (!x.fbuf) return ws_fail(e, "trace export: out of memory");
    struct kernel_desc k;
    int r, rc = 0;
    while (rc == 0 && (r = w->vt->next_kernel(w, &k, e)) != 0) {
        if (r < 0) rc = -1;
        if (rc == 0 && k.id != x.nkernels) /* the reader numbers launches in file order */
            rc = ws_fail(e, "kernel '%s' has launch id %u, expected %u", k.name, k.id, x.nkernels);
        if (rc == 0) rc = export_kernel(&x, w, &k, e);
    }
    if (rc == 0 && w->vt->verify) rc = w->vt->verify(w, e);
    if (rc == 0) rc = finish(&x, e);
    if (rc) { /* leave nothing half-written behind */
        char p[PATH_BYTES];
        if (x.f) fclose(x.f);
        for (uint32_t n = 1; n <= x.nkernels; n++) {
            kernel_path(p, &x, n, true);
            remove(p);
        }
        snprintf(p, sizeof p, "%s/.kernelslist.g.tmp", dir);
        remove(p);
    }
    free(x.fbuf);
    free(x.list.p);
    free(x.out.p);
    for (unsigned i = 0; i < MAX_WARPS; i++) free(x.warp[i].p);
    return rc;
}
