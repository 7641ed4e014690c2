/* MRI-Q (seed 000's MRQ) as Parboil runs it (Parboil 2.5, mri-q/src/cuda: main.cu and
 * computeQ.cu, kernels ComputePhiMag_GPU and ComputeQ_GPU). ComputePhiMag_GPU (512 threads per
 * block, one thread per k-space sample) computes phiMag = phiR^2 + phiI^2; the host then packs
 * kVals {Kx, Ky, Kz, PhiMag} and, for each tile of KERNEL_Q_K_ELEMS_PER_GRID = 1024 samples,
 * copies the tile to the constant array ck and launches ComputeQ_GPU (256 threads per block, one
 * thread per image point): each thread loads its x, y, z, Qr, Qi once (coalesced) and walks the
 * tile two samples per iteration (a leading single sample when numK is odd), accumulating
 * Qr += PhiMag cos(2 pi k.x), Qi += PhiMag sin(2 pi k.x) from constant loads every lane shares.
 * Almost no global traffic per instruction: the LOA end. Device arrays in cudaMalloc order:
 * phiR_d, phiI_d, phiMag_d, x_d, y_d, z_d, Qr_d, Qi_d (Qr/Qi zeroed by cudaMemset); the constant
 * array ck (16 KB) is modelled as a block after them, loaded with SPACE_CONST loads. Parboil
 * frees phiR_d and phiI_d (and phiMag_d) before it allocates x_d .. Qi_d; the model keeps every
 * array at its own address, since where a CUDA allocator puts a later allocation after a free
 * is not specified.
 *
 * sin and cos are modelled in their fast-math form (one MUFU each; nvcc's precise sinf/cosf add
 * a range reduction of FFMAs around the same pattern); the host check uses the same float
 * operations. Inputs (Parboil reads them from files) are drawn from workload.seed: x, y, z in
 * [-0.5, 0.5), Kx, Ky, Kz in [-16, 16), phiR, phiI in [-1, 1). Sizes: test 4096 points x 1536
 * samples, paper 32768 x 3072 (Parboil's "small" dataset, 3 ComputeQ launches);
 * workload.mriq.numx and workload.mriq.numk set any other (numx a multiple of 256, since the
 * kernel has no bounds check; numk even when it exceeds 1024, as every Parboil input is). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "workload/kernels/kmodel.h"

enum { PHI_BLOCK = 512, Q_BLOCK = 256, Q_TILE = 1024 };
enum { P_NUMK, P_KGI, P_X, P_Y, P_Z, P_QR, P_QI, P_CK, P_PHIR, P_PHII, P_PHIMAG };
#define PIX2 6.2831853071795864769252867665590058f

/* if (indexK < numK) phiMag[indexK] = real * real + imag * imag; */
static const struct km_inst phimag_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KI(PHI_BLOCK), KR(0)),
    KM_ISETP_(KM_GE, 0, KR(0), KP(P_NUMK)),
    KM_BRA_IF(0, "end", "end"),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_PHIR)),
    KM_LDG(4, 3, KR(2), 0),
    KM_OP3(KM_IMAD, 4, KR(0), KI(4), KP(P_PHII)),
    KM_LDG(4, 5, KR(4), 0),
    KM_OP2(KM_FMUL, 3, KR(3), KR(3)),
    KM_OP3(KM_FFMA, 3, KR(5), KR(5), KR(3)),
    KM_OP3(KM_IMAD, 6, KR(0), KI(4), KP(P_PHIMAG)),
    KM_STG(4, KR(6), 0, KR(3)),
    KM_LBL("end"),
    KM_EXIT_(),
};

/* One sample: ck[k] at R(a) + off; expArg = 2 pi (Kx sX + Ky sY + Kz sZ). Registers: sX..sZ
 * R4..R6, sQr R7, sQi R8; scratch R12..R17. */
#define LDC(d, o)                                                                                  \
    { .op = KM_LD, .space = SPACE_CONST, .width = 4, .d1 = (d) + 1, .a = KR(10), .off = (o) }
#define SAMPLE(o)                                                                                  \
    LDC(12, (o)), LDC(13, (o) + 4), LDC(14, (o) + 8), KM_OP2(KM_FMUL, 15, KR(12), KR(4)),          \
        KM_OP3(KM_FFMA, 15, KR(13), KR(5), KR(15)), KM_OP3(KM_FFMA, 15, KR(14), KR(6), KR(15)),    \
        KM_OP2(KM_FMUL, 15, KR(15), KF(PIX2)), LDC(16, (o) + 12), KM_MUFU_(KM_COS, 17, KR(15)),    \
        KM_MUFU_(KM_SIN, 15, KR(15)), KM_OP3(KM_FFMA, 7, KR(16), KR(17), KR(7)),                   \
        KM_OP3(KM_FFMA, 8, KR(16), KR(15), KR(8))

static const struct km_inst q_code[] = {
    KM_S2R(0, SR_TID_X),
    KM_S2R(1, SR_CTAID_X),
    KM_OP3(KM_IMAD, 0, KR(1), KI(Q_BLOCK), KR(0)), /* xIndex */
    KM_OP3(KM_IMAD, 1, KR(0), KI(4), KP(P_X)),
    KM_LDG(4, 4, KR(1), 0),
    KM_OP3(KM_IMAD, 1, KR(0), KI(4), KP(P_Y)),
    KM_LDG(4, 5, KR(1), 0),
    KM_OP3(KM_IMAD, 1, KR(0), KI(4), KP(P_Z)),
    KM_LDG(4, 6, KR(1), 0),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_QR)),
    KM_LDG(4, 7, KR(2), 0),
    KM_OP3(KM_IMAD, 3, KR(0), KI(4), KP(P_QI)),
    KM_LDG(4, 8, KR(3), 0),
    KM_MOV_(9, KRZ),        /* kIndex */
    KM_MOV_(11, KP(P_KGI)), /* kGlobalIndex */
    KM_MOV_(10, KP(P_CK)),  /* &ck[kIndex] */
    KM_OP2(KM_AND, 12, KP(P_NUMK), KI(1)),
    KM_ISETP_(KM_EQ, 0, KR(12), KRZ),
    KM_BRA_IF(0, "loop", "loop"),
    SAMPLE(0),
    KM_MOV_(9, KI(1)),
    KM_OP2(KM_IADD, 11, KR(11), KI(1)),
    KM_OP2(KM_IADD, 10, KR(10), KI(16)),
    KM_LBL("loop"),
    KM_ISETP_(KM_GE, 0, KR(9), KI(Q_TILE)),
    KM_BRA_IF(0, "done", "done"),
    KM_ISETP_(KM_GE, 0, KR(11), KP(P_NUMK)),
    KM_BRA_IF(0, "done", "done"),
    SAMPLE(0),
    SAMPLE(16),
    KM_OP2(KM_IADD, 9, KR(9), KI(2)),
    KM_OP2(KM_IADD, 11, KR(11), KI(2)),
    KM_OP2(KM_IADD, 10, KR(10), KI(32)),
    KM_BRA_("loop"),
    KM_LBL("done"),
    KM_STG(4, KR(2), 0, KR(7)), /* Qr[xIndex] = sQr */
    KM_STG(4, KR(3), 0, KR(8)), /* Qi[xIndex] = sQi */
    KM_EXIT_(),
};

struct mriq_cfg {
    int64_t numx, numk;
};
static const struct cfg_key mriq_keys[] = {
    {"workload.mriq.numx", CFG_INT, offsetof(struct mriq_cfg, numx), NULL, 256, 1 << 24, NULL,
     "points", "image points, a multiple of 256 (preset by workload.size: test 4096, paper 32768)"},
    {"workload.mriq.numk", CFG_INT, offsetof(struct mriq_cfg, numk), NULL, 1, 1 << 20, NULL,
     "samples", "k-space samples, even above 1024 (test 1536, paper 3072)"},
};

struct mriq {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog phimag, q;
    uint32_t numx, numk;
    uint64_t d_phir, d_phii, d_phimag, d_x, d_y, d_z, d_qr, d_qi, d_ck;
    float *kx, *ky, *kz;
    uint32_t launches;
    struct wl_copy copies[5];
};

static int mriq_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct mriq *m = (struct mriq *)w;
    uint32_t grids = (m->numk + Q_TILE - 1) / Q_TILE;
    if (m->launches > grids) return 0;
    struct km_launch l = {.block = {Q_BLOCK, 1, 1}, .grid = {1, 1, 1}};
    uint32_t n = 0;
    l.param[P_NUMK] = m->numk;
    if (m->launches == 0) {
        l.prog = &m->phimag;
        l.block[0] = PHI_BLOCK;
        l.grid[0] = (m->numk + PHI_BLOCK - 1) / PHI_BLOCK;
        l.param[P_PHIR] = (int64_t)m->d_phir;
        l.param[P_PHII] = (int64_t)m->d_phii;
        l.param[P_PHIMAG] = (int64_t)m->d_phimag;
        m->copies[n++] = (struct wl_copy){m->d_phir, 4ull * m->numk};
        m->copies[n++] = (struct wl_copy){m->d_phii, 4ull * m->numk};
    } else {
        /* The host's kVals tile into ck (cudaMemcpyToSymbol); PhiMag came back from the device. */
        uint32_t base = (m->launches - 1) * Q_TILE,
                 cnt = m->numk - base < Q_TILE ? m->numk - base : Q_TILE;
        const float *pm = devmem_host(m->kw.dm, m->d_phimag, 4ull * m->numk);
        float *ck = devmem_host(m->kw.dm, m->d_ck, 16ull * Q_TILE);
        for (uint32_t i = 0; i < cnt; i++) {
            ck[4 * i] = m->kx[base + i];
            ck[4 * i + 1] = m->ky[base + i];
            ck[4 * i + 2] = m->kz[base + i];
            ck[4 * i + 3] = pm[base + i];
        }
        l.prog = &m->q;
        l.grid[0] = m->numx / Q_BLOCK;
        l.param[P_KGI] = base;
        l.param[P_X] = (int64_t)m->d_x;
        l.param[P_Y] = (int64_t)m->d_y;
        l.param[P_Z] = (int64_t)m->d_z;
        l.param[P_QR] = (int64_t)m->d_qr;
        l.param[P_QI] = (int64_t)m->d_qi;
        l.param[P_CK] = (int64_t)m->d_ck;
        if (m->launches == 1) {
            const uint64_t xyz[3] = {m->d_x, m->d_y, m->d_z};
            for (int i = 0; i < 3; i++) m->copies[n++] = (struct wl_copy){xyz[i], 4ull * m->numx};
        }
        m->copies[n++] = (struct wl_copy){m->d_ck, 16ull * cnt};
    }
    if (km_run_launch(m->kw.run, &l, k, e)) return -1;
    k->id = m->launches++;
    k->copies = m->copies;
    k->ncopies = n;
    return 1;
}

static void one_sample(const float *ck, float sx, float sy, float sz, float *qr, float *qi) {
    float a = ck[0] * sx;
    a = fmaf(ck[1], sy, a);
    a = fmaf(ck[2], sz, a);
    a = a * PIX2;
    *qr = fmaf(ck[3], cosf(a), *qr);
    *qi = fmaf(ck[3], sinf(a), *qi);
}

/* PhiMag, and Qr/Qi from the same per-sample float operations in the same order. */
static int mriq_verify(struct workload *w, struct ws_err *e) {
    struct mriq *m = (struct mriq *)w;
    const float *phir = devmem_host(m->kw.dm, m->d_phir, 4ull * m->numk);
    const float *phii = devmem_host(m->kw.dm, m->d_phii, 4ull * m->numk);
    const float *pm = devmem_host(m->kw.dm, m->d_phimag, 4ull * m->numk);
    for (uint32_t i = 0; i < m->numk; i++) {
        float want = fmaf(phii[i], phii[i], phir[i] * phir[i]);
        if (memcmp(&pm[i], &want, 4))
            return ws_fail(e, "mriq: phiMag[%u] = %g, the host says %g", i, pm[i], want);
    }
    const float *x = devmem_host(m->kw.dm, m->d_x, 4ull * m->numx);
    const float *y = devmem_host(m->kw.dm, m->d_y, 4ull * m->numx);
    const float *z = devmem_host(m->kw.dm, m->d_z, 4ull * m->numx);
    const float *qr = devmem_host(m->kw.dm, m->d_qr, 4ull * m->numx);
    const float *qi = devmem_host(m->kw.dm, m->d_qi, 4ull * m->numx);
    for (uint32_t p = 0; p < m->numx; p++) {
        float r = 0.0f, i = 0.0f;
        for (uint32_t s = 0; s < m->numk; s++) {
            const float ck[4] = {m->kx[s], m->ky[s], m->kz[s], pm[s]};
            one_sample(ck, x[p], y[p], z[p], &r, &i);
        }
        if (memcmp(&qr[p], &r, 4) || memcmp(&qi[p], &i, 4))
            return ws_fail(e, "mriq: Q[%u] = (%g, %g), the host says (%g, %g)", p, qr[p], qi[p], r,
                           i);
    }
    return 0;
}

static void mriq_destroy(struct workload *w) {
    struct mriq *m = (struct mriq *)w;
    km_prog_free(&m->phimag);
    km_prog_free(&m->q);
    km_wl_fini(&m->kw);
    free(m->kx);
    free(m->ky);
    free(m->kz);
    free(m);
}

static const struct workload_vt mriq_vt = {mriq_next,     km_wl_cta_start, km_wl_warp_next,
                                           km_wl_cta_end, mriq_verify,     mriq_destroy};

static float uniform(struct ws_rng *r, float lo, float hi) {
    return lo + (hi - lo) * (float)ws_rng_unit(r);
}

struct workload *mriq_create(struct cfg *c, const struct workload_common *wc, struct ws_err *e) {
    bool paper = wc->size == WL_SIZE_PAPER;
    struct mriq_cfg mc = {paper ? 32768 : 4096, paper ? 3072 : 1536};
    if (cfg_bind(c, "workload.mriq", mriq_keys, CFG_COUNT(mriq_keys), &mc, e)) return NULL;
    char where[600];
    if (mc.numx % Q_BLOCK)
        return ws_fail(e, "%s: workload.mriq.numx = %lld must be a multiple of %d",
                       cfg_origin(c, "workload.mriq.numx", where, sizeof where), (long long)mc.numx,
                       Q_BLOCK),
               NULL;
    if (mc.numk > Q_TILE && mc.numk % 2)
        return ws_fail(e,
                       "%s: workload.mriq.numk = %lld must be even above %d (ComputeQ_GPU "
                       "would read past its constant tile)",
                       cfg_origin(c, "workload.mriq.numk", where, sizeof where), (long long)mc.numk,
                       Q_TILE),
               NULL;
    struct mriq *m = calloc(1, sizeof *m);
    if (!m) return ws_fail(e, "mriq: out of memory"), NULL;
    if (km_wl_init(&m->kw, &mriq_vt, "mriq", e)) return free(m), NULL;
    m->numx = (uint32_t)mc.numx;
    m->numk = (uint32_t)mc.numk;
    uint64_t kb = 4ull * m->numk, xb = 4ull * m->numx;
    struct devmem *dm = m->kw.dm;
    m->kx = malloc(kb), m->ky = malloc(kb), m->kz = malloc(kb);
    if (!m->kx || !m->ky || !m->kz) {
        ws_fail(e, "mriq: out of memory");
        goto fail;
    }
    if (km_prog_build(&m->phimag, "ComputePhiMag_GPU", 8, phimag_code, CFG_COUNT(phimag_code), e) ||
        km_prog_build(&m->q, "ComputeQ_GPU", 18, q_code, CFG_COUNT(q_code), e) ||
        !(m->d_phir = devmem_alloc(dm, kb, "phiR_d", e)) ||
        !(m->d_phii = devmem_alloc(dm, kb, "phiI_d", e)) ||
        !(m->d_phimag = devmem_alloc(dm, kb, "phiMag_d", e)) ||
        !(m->d_x = devmem_alloc(dm, xb, "x_d", e)) || !(m->d_y = devmem_alloc(dm, xb, "y_d", e)) ||
        !(m->d_z = devmem_alloc(dm, xb, "z_d", e)) ||
        !(m->d_qr = devmem_alloc(dm, xb, "Qr_d", e)) ||
        !(m->d_qi = devmem_alloc(dm, xb, "Qi_d", e)) ||
        !(m->d_ck = devmem_alloc(dm, 16ull * Q_TILE, "ck", e)))
        goto fail;
    struct ws_rng r;
    ws_rng_seed(&r, (uint64_t)wc->seed);
    float *phir = devmem_host(dm, m->d_phir, kb), *phii = devmem_host(dm, m->d_phii, kb);
    for (uint32_t i = 0; i < m->numk; i++) {
        m->kx[i] = uniform(&r, -16.0f, 16.0f);
        m->ky[i] = uniform(&r, -16.0f, 16.0f);
        m->kz[i] = uniform(&r, -16.0f, 16.0f);
        phir[i] = uniform(&r, -1.0f, 1.0f);
        phii[i] = uniform(&r, -1.0f, 1.0f);
    }
    float *x = devmem_host(dm, m->d_x, xb), *y = devmem_host(dm, m->d_y, xb),
          *z = devmem_host(dm, m->d_z, xb);
    for (uint32_t i = 0; i < m->numx; i++) {
        x[i] = uniform(&r, -0.5f, 0.5f);
        y[i] = uniform(&r, -0.5f, 0.5f);
        z[i] = uniform(&r, -0.5f, 0.5f);
    }
    return &m->kw.base;
fail:
    mriq_destroy(&m->kw.base);
    return NULL;
}
