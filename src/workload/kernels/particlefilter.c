/* Particle filter as Rodinia's naive CUDA version runs it (Rodinia 3.1,
 * particlefilter/ex_particle_CUDA_naive_seq.cu: host particleFilter, kernel `kernel`): tracking
 * a disk moving through a noisy video. Per frame k = 1 .. Nfr-1 the host moves the particles,
 * computes their likelihoods from the frame, normalises the weights, builds the CDF and the
 * systematic-resampling thresholds u, copies arrayX, arrayY, xj, yj, CDF and u (doubles) to the
 * device, and launches `kernel` (128 threads per block, one per particle): each thread scans the
 * CDF from the start until CDF[x] >= u[i] (a loop whose trip count differs per lane, every lane
 * loading the same CDF word: one address per warp), then gathers arrayX[index] and
 * arrayY[index] and stores xj[i], yj[i]. The host copies xj, yj back as the new particles.
 *
 * Device arrays in particleFilter's cudaMalloc order: arrayX, arrayY, xj, yj, CDF, u (Nparticles
 * doubles each). The host side follows the program (the LCG randu/randn per particle seed, the
 * moving disk of radius 5 dilated into the video at 228 over 100 plus noise, the disk's
 * countOnes offsets, likelihood, weights, CDF, u) in plain double arithmetic; it only decides
 * the values the kernel scans. The comparison CDF[x] >= u[i] of two non-negative doubles is
 * modelled as a 64-bit integer compare of their bits, which orders them the same way (kmodel has
 * no double arithmetic; the compiled kernel uses DSETP). Sizes: test 300 particles, 4 frames;
 * paper Rodinia's run script, `-x 128 -y 128 -z 10 -np 1000`; workload.particlefilter.{particles,
 * frames}. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

enum { PF_BLOCK = 128, PF_DIM = 128, PF_RADIUS = 5 };
enum { P_AX, P_AY, P_CDF, P_U, P_XJ, P_YJ, P_N };

static const struct km_inst pf_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KS(SR_NTID_X), KR(1), KR(0)), /* i */
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_N)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 3, KR(0), KI(8), KP(P_U)),
    KM_LDG(8, 2, KR(3), 0), /* u[i] */
    KM_MOV_(5, KI(-1)),     /* index */
    KM_MOV_(4, KRZ),        /* x */
    KM_LBL("loop"),
    KM_ISETP_(KM_GE, 0, KR(4), KP(P_N)),
    KM_BRA_IF(0, "after", "after"),
    KM_OP3(KM_IMAD, 6, KR(4), KI(8), KP(P_CDF)),
    KM_LDG(8, 7, KR(6), 0),            /* CDF[x] */
    KM_ISETP_(KM_GE, 0, KR(7), KR(2)), /* CDF[x] >= u[i] (non-negative doubles) */
    KM_BRA_IF(0, "hit", "after"),
    KM_OP2(KM_IADD, 4, KR(4), KI(1)),
    KM_BRA_("loop"),
    KM_LBL("hit"),
    KM_MOV_(5, KR(4)), /* index = x; break */
    KM_BRA_("after"),
    KM_LBL("after"),
    KM_OP2(KM_IADD, 8, KP(P_N), KI(-1)),
    KM_ISETP_(KM_LT, 0, KR(5), KRZ),
    KM_SEL_(5, KR(8), KR(5), 0), /* index == -1: Nparticles - 1 */
    KM_OP3(KM_IMAD, 9, KR(5), KI(8), KP(P_AX)),
    KM_LDG(8, 10, KR(9), 0), /* arrayX[index] */
    KM_OP3(KM_IMAD, 11, KR(0), KI(8), KP(P_XJ)),
    KM_STG(8, KR(11), 0, KR(10)),
    KM_OP3(KM_IMAD, 9, KR(5), KI(8), KP(P_AY)),
    KM_LDG(8, 10, KR(9), 0), /* arrayY[index] */
    KM_OP3(KM_IMAD, 11, KR(0), KI(8), KP(P_YJ)),
    KM_STG(8, KR(11), 0, KR(10)),
    KM_LBL("end"),
    KM_EXIT_(),
};

struct pf_cfg {
    int64_t particles, frames;
};
static const struct cfg_key pf_keys[] = {
    {"workload.particlefilter.particles", CFG_INT, offsetof(struct pf_cfg, particles), NULL, 1,
     1 << 20, NULL, "particles", "particles (preset by workload.size: test 300, paper 1000)"},
    {"workload.particlefilter.frames", CFG_INT, offsetof(struct pf_cfg, frames), NULL, 2, 1000,
     NULL, "frames",
     "video frames, one launch per frame after the first (preset: test 4, paper "
     "10)"},
};

struct pf {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog prog;
    uint32_t n, nfr, k; /* k: the next frame */
    uint64_t d_ax, d_ay, d_xj, d_yj, d_cdf, d_u;
    int32_t *seed, *video, objxy[2 * 81];
    uint32_t ones;
    double *ax, *ay, *w, *cdf, *u;
    struct wl_copy copies[6];
};

/* The program's LCG and its uniform/normal draws. */
static double randu(int32_t *seed, uint32_t i) {
    int64_t num = 1103515245LL * seed[i] + 12345;
    seed[i] = (int32_t)(num % 2147483647LL);
    return fabs(seed[i] / 2147483647.0);
}
static double randn(int32_t *seed, uint32_t i) {
    double u = randu(seed, i), v = randu(seed, i);
    return sqrt(-2 * log(u)) * cos(2 * 3.14159265358979323846 * v);
}

/* The frame's work before the launch: motion, likelihood, weights, CDF, u. */
static void host_frame(struct pf *p) {
    uint32_t n = p->n, k = p->k, nfr = p->nfr;
    int64_t max_size = (int64_t)PF_DIM * PF_DIM * nfr;
    double sum = 0;
    for (uint32_t x = 0; x < n; x++) {
        p->ax[x] += 1.0 + 5.0 * randn(p->seed, x);
        p->ay[x] += -2.0 + 2.0 * randn(p->seed, x);
    }
    for (uint32_t x = 0; x < n; x++) {
        double lk = 0;
        for (uint32_t y = 0; y < p->ones; y++) {
            int64_t ix = (int64_t)floor(p->ax[x] + 0.5) + p->objxy[2 * y + 1];
            int64_t iy = (int64_t)floor(p->ay[x] + 0.5) + p->objxy[2 * y];
            int64_t ind = llabs(ix * PF_DIM * nfr + iy * nfr + k);
            if (ind >= max_size) ind = 0;
            double v = p->video[ind];
            lk += ((v - 100) * (v - 100) - (v - 228) * (v - 228)) / 50.0;
        }
        p->w[x] *= exp(lk / p->ones);
        sum += p->w[x];
    }
    for (uint32_t x = 0; x < n; x++) p->w[x] /= sum;
    p->cdf[0] = p->w[0];
    for (uint32_t x = 1; x < n; x++) p->cdf[x] = p->w[x] + p->cdf[x - 1];
    double u1 = (1 / (double)n) * randu(p->seed, 0);
    for (uint32_t x = 0; x < n; x++) p->u[x] = u1 + x / (double)n;
}

static int pf_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct pf *p = (struct pf *)w;
    uint64_t b = 8ull * p->n;
    if (p->k > 1) { /* the previous frame's xj, yj come back as the particles */
        memcpy(p->ax, devmem_host(p->kw.dm, p->d_xj, b), b);
        memcpy(p->ay, devmem_host(p->kw.dm, p->d_yj, b), b);
        for (uint32_t x = 0; x < p->n; x++) p->w[x] = 1 / (double)p->n;
    }
    if (p->k >= p->nfr) return 0;
    host_frame(p);
    memcpy(devmem_host(p->kw.dm, p->d_ax, b), p->ax, b);
    memcpy(devmem_host(p->kw.dm, p->d_ay, b), p->ay, b);
    memcpy(devmem_host(p->kw.dm, p->d_cdf, b), p->cdf, b);
    memcpy(devmem_host(p->kw.dm, p->d_u, b), p->u, b);
    struct km_launch l = {.prog = &p->prog};
    l.grid[0] = (p->n + PF_BLOCK - 1) / PF_BLOCK, l.grid[1] = l.grid[2] = 1;
    l.block[0] = PF_BLOCK, l.block[1] = l.block[2] = 1;
    l.param[P_AX] = (int64_t)p->d_ax;
    l.param[P_AY] = (int64_t)p->d_ay;
    l.param[P_CDF] = (int64_t)p->d_cdf;
    l.param[P_U] = (int64_t)p->d_u;
    l.param[P_XJ] = (int64_t)p->d_xj;
    l.param[P_YJ] = (int64_t)p->d_yj;
    l.param[P_N] = p->n;
    if (km_run_launch(p->kw.run, &l, k, e)) return -1;
    const uint64_t a[6] = {p->d_ax, p->d_ay, p->d_xj, p->d_yj, p->d_cdf, p->d_u};
    for (int i = 0; i < 6; i++) p->copies[i] = (struct wl_copy){a[i], b};
    k->id = p->k - 1;
    k->copies = p->copies;
    k->ncopies = 6;
    p->k++;
    return 1;
}

/* The last launch's resampling on the host: xj, yj from the CDF and u it scanned. */
static int pf_verify(struct workload *w, struct ws_err *e) {
    struct pf *p = (struct pf *)w;
    if (p->k <= 1) return 0;
    uint64_t b = 8ull * p->n;
    const double *cdf = devmem_host(p->kw.dm, p->d_cdf, b), *u = devmem_host(p->kw.dm, p->d_u, b),
                 *ax = devmem_host(p->kw.dm, p->d_ax, b), *ay = devmem_host(p->kw.dm, p->d_ay, b),
                 *xj = devmem_host(p->kw.dm, p->d_xj, b), *yj = devmem_host(p->kw.dm, p->d_yj, b);
    for (uint32_t i = 0; i < p->n; i++) {
        uint32_t idx = p->n - 1;
        for (uint32_t x = 0; x < p->n; x++)
            if (cdf[x] >= u[i]) {
                idx = x;
                break;
            }
        if (memcmp(&xj[i], &ax[idx], 8) || memcmp(&yj[i], &ay[idx], 8))
            return ws_fail(e,
                           "particlefilter: particle %u took (%g, %g), the host says index %u "
                           "(%g, %g)",
                           i, xj[i], yj[i], idx, ax[idx], ay[idx]);
    }
    return 0;
}

static void pf_destroy(struct workload *w) {
    struct pf *p = (struct pf *)w;
    km_prog_free(&p->prog);
    km_wl_fini(&p->kw);
    free(p->seed), free(p->video), free(p->ax), free(p->ay), free(p->w), free(p->cdf), free(p->u);
    free(p);
}

static const struct workload_vt pf_vt = {pf_next,       km_wl_cta_start, km_wl_warp_next,
                                         km_wl_cta_end, pf_verify,       pf_destroy};

struct workload *particlefilter_create(struct cfg *c, const struct workload_common *wc,
                                       struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct pf_cfg pc = {paper ? 1000 : 300, paper ? 10 : 4};
    if (cfg_bind(c, "workload.particlefilter", pf_keys, CFG_COUNT(pf_keys), &pc, e)) return NULL;
    struct pf *p = calloc(1, sizeof *p);
    if (!p) return ws_fail(e, "particlefilter: out of memory"), NULL;
    if (km_wl_init(&p->kw, &pf_vt, "particlefilter", e)) return free(p), NULL;
    p->n = (uint32_t)pc.particles, p->nfr = (uint32_t)pc.frames, p->k = 1;
    uint32_t n = p->n;
    size_t vs = (size_t)PF_DIM * PF_DIM * p->nfr;
    p->seed = malloc(n * sizeof *p->seed);
    p->video = malloc(vs * sizeof *p->video);
    p->ax = malloc(n * 8), p->ay = malloc(n * 8), p->w = malloc(n * 8);
    p->cdf = malloc(n * 8), p->u = malloc(n * 8);
    uint64_t b = 8ull * n;
    if (!p->seed || !p->video || !p->ax || !p->ay || !p->w || !p->cdf || !p->u ||
        km_prog_build(&p->prog, "kernel", 12, pf_code, CFG_COUNT(pf_code), e) ||
        !(p->d_ax = devmem_alloc(p->kw.dm, b, "arrayX_GPU", e)) ||
        !(p->d_ay = devmem_alloc(p->kw.dm, b, "arrayY_GPU", e)) ||
        !(p->d_xj = devmem_alloc(p->kw.dm, b, "xj_GPU", e)) ||
        !(p->d_yj = devmem_alloc(p->kw.dm, b, "yj_GPU", e)) ||
        !(p->d_cdf = devmem_alloc(p->kw.dm, b, "CDF_GPU", e)) ||
        !(p->d_u = devmem_alloc(p->kw.dm, b, "u_GPU", e))) {
        if (!e->msg[0]) ws_fail(e, "particlefilter: out of memory");
        pf_destroy(&p->kw.base);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) p->seed[i] = (int32_t)(i * 7919u + 1);
    /* videoSequence: the object moves from the centre by (+1, -2) per frame, dilated to a disk
     * of radius 5, 228 on 100, plus noise. */
    int x0 = PF_DIM / 2, y0 = PF_DIM / 2;
    for (uint32_t f = 0; f < p->nfr; f++) {
        int xk = abs(x0 + (int)f), yk = abs(y0 - 2 * (int)f);
        for (int x = 0; x < PF_DIM; x++)
            for (int y = 0; y < PF_DIM; y++) {
                int dx = x - xk, dy = y - yk;
                int v = dx * dx + dy * dy < PF_RADIUS * PF_RADIUS ? 228 : 100;
                v += (int)(5.0 * randn(p->seed, (uint32_t)(x * PF_DIM + y) % n));
                p->video[(size_t)x * PF_DIM * p->nfr + (size_t)y * p->nfr + f] = v;
            }
    }
    /* strelDisk(radius 5) over the 9x9 window: the offsets of its ones. */
    for (int x = 0; x < 2 * PF_RADIUS - 1; x++)
        for (int y = 0; y < 2 * PF_RADIUS - 1; y++) {
            int dx = x - PF_RADIUS + 1, dy = y - PF_RADIUS + 1;
            if (sqrt((double)(dx * dx + dy * dy)) <= PF_RADIUS - 1) {
                p->objxy[2 * p->ones] = y - PF_RADIUS + 1;
                p->objxy[2 * p->ones + 1] = x - PF_RADIUS + 1;
                p->ones++;
            }
        }
    for (uint32_t i = 0; i < n; i++) {
        p->ax[i] = PF_DIM / 2, p->ay[i] = PF_DIM / 2;
        p->w[i] = 1 / (double)n;
    }
    return &p->kw.base;
}
