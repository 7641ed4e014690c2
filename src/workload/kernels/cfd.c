/* CFD Euler solver as Rodinia runs it (Rodinia 3.1, cfd/euler3d.cu: host main loop, kernels
 * cuda_initialize_variables, cuda_compute_step_factor, cuda_compute_flux, cuda_time_step), one
 * thread per mesh element, 192 threads per block, element-major arrays (variable v of element i
 * at i + v * nelr, so every per-element load is coalesced). cuda_compute_flux gathers, for each
 * of the 4 faces, the neighbour's index, the face normal, and the neighbour's 5 variables
 * (density, momentum x/y/z, energy) at the neighbour's index: the irregular loads. Faces on the
 * wing (neighbour -1) add pressure terms instead. Host loop per iteration: old_variables =
 * variables (cudaMemcpy device to device, done functionally here), compute_step_factor, then
 * RK = 3 times compute_flux and time_step(j).
 *
 * Device arrays in euler3d.cu's alloc order: areas (nelr), elements_surrounding_elements (4 nelr
 * ints), normals (12 nelr), variables, old_variables, fluxes (5 nelr each), step_factors (nelr);
 * nelr = nel rounded up to the block. The far-field state (ff_variable) is in constant memory
 * and read with uniform addresses, which compile to constant-bank operands: immediates here.
 * The meshes (fvcorr.domn.*) are not shipped; a deterministic stand-in keeps their shape: 4
 * faces per element, neighbours scattered within a locality window of the element (the
 * reordered meshes' neighbours lie mostly close but not adjacent), ~2% wing faces, random
 * normals and areas. No far-field (-2) faces: their branch reads the constant-memory
 * flux contributions, which the model does not generate. Sizes: test 2000 elements, paper
 * 97046 (fvcorr.domn.097K, the mesh Rodinia's run script uses), both 1 iteration (Rodinia runs
 * 2000, each the same 7 launches over the same addresses); workload.cfd.{elements,iters,window}.
 *
 * Arithmetic is float as in the source; divisions are MUFU.RCP then FMUL, sqrtf is MUFU.SQRT,
 * a*b+c is FFMA; the host check uses the same operations and matches bit for bit. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "workload/kernels/kmodel.h"

enum { CFD_BLOCK = 192, NNB = 4, NVAR = 5, RK = 3 };
enum { V_D = 0, V_MX = 1, V_MY = 2, V_MZ = 3, V_E = 4 };
enum { P_NELR, P_VAR, P_AREA, P_SF, P_ESE, P_NORM, P_FLUX, P_OLD, P_J };
#define GAMMA 1.4f
#define GM1   (1.4f - 1.0f)

/* Loads the 5 variables of element (register ix) into d..d+4; register t is scratch. */
#define LOAD_VARS(ix, d, t)                                                                        \
    KM_OP3(KM_IMAD, (t), KR(ix), KI(4), KP(P_VAR)), KM_LDG(4, (d), KR((t)), 0),                    \
        KM_OP3(KM_IMAD, (t), KP(P_NELR), KI(4), KR((t))), KM_LDG(4, (d) + 1, KR((t)), 0),          \
        KM_OP3(KM_IMAD, (t), KP(P_NELR), KI(4), KR((t))), KM_LDG(4, (d) + 2, KR((t)), 0),          \
        KM_OP3(KM_IMAD, (t), KP(P_NELR), KI(4), KR((t))), KM_LDG(4, (d) + 3, KR((t)), 0),          \
        KM_OP3(KM_IMAD, (t), KP(P_NELR), KI(4), KR((t))), KM_LDG(4, (d) + 4, KR((t)), 0)

/* From variables at d..d+4: 1/density at v, velocity v+1..v+3, speed_sqd v+4, pressure v+5,
 * speed of sound v+6 (compute_velocity, compute_speed_sqd, compute_pressure,
 * compute_speed_of_sound). */
#define DERIVED(d, v)                                                                              \
    KM_MUFU_(KM_RCP, (v), KR(d)), KM_OP2(KM_FMUL, (v) + 1, KR((d) + 1), KR(v)),                    \
        KM_OP2(KM_FMUL, (v) + 2, KR((d) + 2), KR(v)),                                              \
        KM_OP2(KM_FMUL, (v) + 3, KR((d) + 3), KR(v)),                                              \
        KM_OP2(KM_FMUL, (v) + 4, KR((v) + 1), KR((v) + 1)),                                        \
        KM_OP3(KM_FFMA, (v) + 4, KR((v) + 2), KR((v) + 2), KR((v) + 4)),                           \
        KM_OP3(KM_FFMA, (v) + 4, KR((v) + 3), KR((v) + 3), KR((v) + 4)),                           \
        KM_OP2(KM_FMUL, (v) + 5, KR(d), KF(-0.5f)),                                                \
        KM_OP3(KM_FFMA, (v) + 5, KR((v) + 5), KR((v) + 4), KR((d) + 4)),                           \
        KM_OP2(KM_FMUL, (v) + 5, KR((v) + 5), KF(GM1)),                                            \
        KM_OP2(KM_FMUL, (v) + 6, KR((v) + 5), KF(GAMMA)),                                          \
        KM_OP2(KM_FMUL, (v) + 6, KR((v) + 6), KR(v)), KM_MUFU_(KM_SQRT, (v) + 6, KR((v) + 6))

/* compute_flux_contribution into f..f+8: xx xy xz yy yz zz, then energy x y z. */
#define CONTRIB(d, v, f)                                                                           \
    KM_OP3(KM_FFMA, (f), KR((v) + 1), KR((d) + 1), KR((v) + 5)),                                   \
        KM_OP2(KM_FMUL, (f) + 1, KR((v) + 1), KR((d) + 2)),                                        \
        KM_OP2(KM_FMUL, (f) + 2, KR((v) + 1), KR((d) + 3)),                                        \
        KM_OP3(KM_FFMA, (f) + 3, KR((v) + 2), KR((d) + 2), KR((v) + 5)),                           \
        KM_OP2(KM_FMUL, (f) + 4, KR((v) + 2), KR((d) + 3)),                                        \
        KM_OP3(KM_FFMA, (f) + 5, KR((v) + 3), KR((d) + 3), KR((v) + 5)),                           \
        KM_OP2(KM_FADD, (f) + 6, KR((d) + 4), KR((v) + 5)),                                        \
        KM_OP2(KM_FMUL, (f) + 7, KR((v) + 2), KR((f) + 6)),                                        \
        KM_OP2(KM_FMUL, (f) + 8, KR((v) + 3), KR((f) + 6)),                                        \
        KM_OP2(KM_FMUL, (f) + 6, KR((v) + 1), KR((f) + 6))

/* acc += factor(r1) * (a + b), with r2 scratch. */
#define ACC(acc, a, b)                                                                             \
    KM_OP2(KM_FADD, 2, KR(a), KR(b)), KM_OP3(KM_FFMA, (acc), KR(1), KR(2), KR(acc))
/* acc += factor(r1) * (a - b). */
#define ACCD(acc, a, b)                                                                            \
    KM_OP2(KM_FSUB, 2, KR(a), KR(b)), KM_OP3(KM_FFMA, (acc), KR(1), KR(2), KR(acc))

#define THREAD_INDEX                                                                               \
    KM_S2R(0, SR_TID_X), KM_S2R(1, SR_CTAID_X), KM_OP3(KM_IMAD, 0, KR(1), KS(SR_NTID_X), KR(0))

static const struct km_inst init_code[] = {
    THREAD_INDEX,
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_VAR)),
    KM_STG(4, KR(2), 0, KP(P_J + 1)),
    KM_OP3(KM_IMAD, 2, KP(P_NELR), KI(4), KR(2)),
    KM_STG(4, KR(2), 0, KP(P_J + 2)),
    KM_OP3(KM_IMAD, 2, KP(P_NELR), KI(4), KR(2)),
    KM_STG(4, KR(2), 0, KP(P_J + 3)),
    KM_OP3(KM_IMAD, 2, KP(P_NELR), KI(4), KR(2)),
    KM_STG(4, KR(2), 0, KP(P_J + 4)),
    KM_OP3(KM_IMAD, 2, KP(P_NELR), KI(4), KR(2)),
    KM_STG(4, KR(2), 0, KP(P_J + 5)),
    KM_EXIT_(),
};

static const struct km_inst step_code[] = {
    THREAD_INDEX,
    LOAD_VARS(0, 10, 2),
    DERIVED(10, 20),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_AREA)),
    KM_LDG(4, 3, KR(2), 0), /* areas[i] */
    KM_MUFU_(KM_SQRT, 3, KR(3)),
    KM_MUFU_(KM_SQRT, 4, KR(24)),
    KM_OP2(KM_FADD, 4, KR(4), KR(26)),
    KM_OP2(KM_FMUL, 3, KR(3), KR(4)),
    KM_MUFU_(KM_RCP, 3, KR(3)),
    KM_OP2(KM_FMUL, 3, KR(3), KF(0.5f)),
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_SF)),
    KM_STG(4, KR(2), 0, KR(3)), /* step_factors[i] */
    KM_EXIT_(),
};

/* Registers: fluxes 5-9 (density, mx, my, mz, energy); i-variables 10-14, derived 20-26,
 * speed_i 27, contributions 28-36 (xx xy xz yy yz zz, energy x y z); face j 39: nb 15, normal
 * 16-18, its length 19; neighbour variables 40-44, derived 45-51, contributions 52-60; factor
 * r1, scratch r2. */
static const struct km_inst flux_code[] = {
    THREAD_INDEX,
    LOAD_VARS(0, 10, 59),
    DERIVED(10, 20),
    KM_MUFU_(KM_SQRT, 27, KR(24)), /* speed_i */
    CONTRIB(10, 20, 28),
    KM_MOV_(5, KF(0.0f)),
    KM_MOV_(6, KF(0.0f)),
    KM_MOV_(7, KF(0.0f)),
    KM_MOV_(8, KF(0.0f)),
    KM_MOV_(9, KF(0.0f)),
    KM_MOV_(39, KRZ), /* j */
    KM_LBL("face"),
    KM_OP3(KM_IMAD, 59, KR(39), KP(P_NELR), KR(0)),
    KM_OP3(KM_IMAD, 62, KR(59), KI(4), KP(P_ESE)),
    KM_LDG_S(4, 15, KR(62), 0), /* nb = elements_surrounding_elements[i + j nelr] */
    KM_OP3(KM_IMAD, 62, KR(59), KI(4), KP(P_NORM)),
    KM_LDG(4, 16, KR(62), 0), /* normals[i + (j + 0 NNB) nelr] */
    KM_OP3(KM_IMAD, 62, KP(P_NELR), KI(4 * NNB), KR(62)),
    KM_LDG(4, 17, KR(62), 0),
    KM_OP3(KM_IMAD, 62, KP(P_NELR), KI(4 * NNB), KR(62)),
    KM_LDG(4, 18, KR(62), 0),
    KM_OP2(KM_FMUL, 19, KR(16), KR(16)),
    KM_OP3(KM_FFMA, 19, KR(17), KR(17), KR(19)),
    KM_OP3(KM_FFMA, 19, KR(18), KR(18), KR(19)),
    KM_MUFU_(KM_SQRT, 19, KR(19)),
    KM_ISETP_(KM_LT, 0, KR(15), KRZ),
    KM_BRA_IF(0, "boundary", "next"),
    LOAD_VARS(15, 40, 59),
    DERIVED(40, 45),
    CONTRIB(40, 45, 52),
    KM_OP2(KM_FMUL, 1, KR(19), KF(-0.2f)),
    KM_OP2(KM_FMUL, 1, KR(1), KF(0.5f)),
    KM_MUFU_(KM_SQRT, 2, KR(49)),
    KM_OP2(KM_FADD, 2, KR(27), KR(2)),
    KM_OP2(KM_FADD, 2, KR(2), KR(26)),
    KM_OP2(KM_FADD, 2, KR(2), KR(51)),
    KM_OP2(KM_FMUL, 1, KR(1), KR(2)), /* artificial viscosity factor */
    ACCD(5, 10, 40),
    ACCD(9, 14, 44),
    ACCD(6, 11, 41),
    ACCD(7, 12, 42),
    ACCD(8, 13, 43),
    KM_OP2(KM_FMUL, 1, KR(16), KF(0.5f)),
    ACC(5, 41, 11),
    ACC(9, 58, 34),
    ACC(6, 52, 28),
    ACC(7, 53, 29),
    ACC(8, 54, 30),
    KM_OP2(KM_FMUL, 1, KR(17), KF(0.5f)),
    ACC(5, 42, 12),
    ACC(9, 59, 35),
    ACC(6, 53, 29),
    ACC(7, 55, 31),
    ACC(8, 56, 32),
    KM_OP2(KM_FMUL, 1, KR(18), KF(0.5f)),
    ACC(5, 43, 13),
    ACC(9, 60, 36),
    ACC(6, 54, 30),
    ACC(7, 56, 32),
    ACC(8, 57, 33),
    KM_BRA_("next"),
    KM_LBL("boundary"),
    KM_ISETP_(KM_NE, 0, KR(15), KI(-1)),
    KM_BRA_IF(0, "next", "next"),
    KM_OP3(KM_FFMA, 6, KR(16), KR(25), KR(6)), /* wing: momentum flux += normal * pressure_i */
    KM_OP3(KM_FFMA, 7, KR(17), KR(25), KR(7)),
    KM_OP3(KM_FFMA, 8, KR(18), KR(25), KR(8)),
    KM_LBL("next"),
    KM_OP2(KM_IADD, 39, KR(39), KI(1)),
    KM_ISETP_(KM_LT, 0, KR(39), KI(NNB)),
    KM_BRA_IF(0, "face", "done"),
    KM_LBL("done"),
    KM_OP3(KM_IMAD, 59, KR(0), KI(4), KP(P_FLUX)),
    KM_STG(4, KR(59), 0, KR(5)),
    KM_OP3(KM_IMAD, 59, KP(P_NELR), KI(4), KR(59)),
    KM_STG(4, KR(59), 0, KR(6)),
    KM_OP3(KM_IMAD, 59, KP(P_NELR), KI(4), KR(59)),
    KM_STG(4, KR(59), 0, KR(7)),
    KM_OP3(KM_IMAD, 59, KP(P_NELR), KI(4), KR(59)),
    KM_STG(4, KR(59), 0, KR(8)),
    KM_OP3(KM_IMAD, 59, KP(P_NELR), KI(4), KR(59)),
    KM_STG(4, KR(59), 0, KR(9)),
    KM_EXIT_(),
};

/* One variable of time_step: variables[i + v nelr] = old[..] + factor(r3) * fluxes[..]. */
#define TS_VAR(v)                                                                                  \
    KM_OP3(KM_IMAD, 4, KP(P_NELR), KI(v), KR(0)), KM_OP3(KM_IMAD, 5, KR(4), KI(4), KP(P_OLD)),     \
        KM_LDG(4, 6, KR(5), 0), KM_OP3(KM_IMAD, 5, KR(4), KI(4), KP(P_FLUX)),                      \
        KM_LDG(4, 7, KR(5), 0), KM_OP3(KM_FFMA, 6, KR(3), KR(7), KR(6)),                           \
        KM_OP3(KM_IMAD, 5, KR(4), KI(4), KP(P_VAR)), KM_STG(4, KR(5), 0, KR(6))

static const struct km_inst ts_code[] = {
    THREAD_INDEX,
    KM_OP3(KM_IMAD, 2, KR(0), KI(4), KP(P_SF)),
    KM_LDG(4, 3, KR(2), 0), /* step_factors[i] */
    KM_OP2(KM_ISUB, 4, KI(RK + 1), KP(P_J)),
    KM_OP2(KM_I2F, 4, KR(4), KRZ),
    KM_MUFU_(KM_RCP, 4, KR(4)),
    KM_OP2(KM_FMUL, 3, KR(3), KR(4)), /* factor = step_factors[i] / float(RK + 1 - j) */
    TS_VAR(V_D),
    TS_VAR(V_E),
    TS_VAR(V_MX),
    TS_VAR(V_MY),
    TS_VAR(V_MZ),
    KM_EXIT_(),
};

struct cfd_cfg {
    int64_t elements, iters, window;
};
static const struct cfg_key cfd_keys[] = {
    {"workload.cfd.elements", CFG_INT, offsetof(struct cfd_cfg, elements), NULL, 1, 1 << 24, NULL,
     "elements", "mesh elements (preset by workload.size: test 2000, paper 97046)"},
    {"workload.cfd.iters", CFG_INT, offsetof(struct cfd_cfg, iters), NULL, 1, 100000, NULL,
     "iterations", "solver iterations, 7 launches each (preset 1)"},
    {"workload.cfd.window", CFG_INT, offsetof(struct cfd_cfg, window), NULL, 0, 1 << 24, NULL,
     "elements", "neighbours lie within this many elements of the element (preset 1024)"},
};

struct cfd {
    struct km_workload kw; /* first: the kmodel glue casts to it */
    struct km_prog init, step, flux, ts;
    uint32_t nel, nelr, iters;
    uint32_t launches; /* 0: init, then 7 per iteration */
    uint64_t d_area, d_ese, d_norm, d_var, d_old, d_flux, d_sf;
    float ff[NVAR];
    struct wl_copy copies[3];
};

static int cfd_next(struct workload *w, struct kernel_desc *k, struct ws_err *e) {
    struct cfd *c = (struct cfd *)w;
    if (c->launches >= 1 + 7 * c->iters) return 0;
    uint32_t ki = c->launches == 0 ? 0 : (c->launches - 1) % 7;
    struct km_launch l = {.prog = c->launches == 0 ? &c->init
                                  : ki == 0        ? &c->step
                                  : ki % 2         ? &c->flux
                                                   : &c->ts};
    l.grid[0] = c->nelr / CFD_BLOCK, l.grid[1] = l.grid[2] = 1;
    l.block[0] = CFD_BLOCK, l.block[1] = l.block[2] = 1;
    l.param[P_NELR] = c->nelr;
    l.param[P_VAR] = (int64_t)c->d_var;
    l.param[P_AREA] = (int64_t)c->d_area;
    l.param[P_SF] = (int64_t)c->d_sf;
    l.param[P_ESE] = (int64_t)c->d_ese;
    l.param[P_NORM] = (int64_t)c->d_norm;
    l.param[P_FLUX] = (int64_t)c->d_flux;
    l.param[P_OLD] = (int64_t)c->d_old;
    l.param[P_J] = ki >= 2 ? (ki - 2) / 2 : 0; /* time_step's j */
    for (int v = 0; v < NVAR; v++) {
        uint32_t u;
        memcpy(&u, &c->ff[v], 4);
        l.param[P_J + 1 + v] = u;
    }
    if (c->launches > 0 && ki == 0) /* copy<float>(old_variables, variables): device to device */
        memcpy(devmem_host(c->kw.dm, c->d_old, 4ull * NVAR * c->nelr),
               devmem_host(c->kw.dm, c->d_var, 4ull * NVAR * c->nelr), 4ull * NVAR * c->nelr);
    if (km_run_launch(c->kw.run, &l, k, e)) return -1;
    k->id = c->launches;
    k->copies = c->copies;
    k->ncopies = c->launches == 0 ? 3 : 0;
    c->launches++;
    return 1;
}

/* The host side of the kernels' helpers, in the same float operations. */
struct derived {
    float rd, v[3], s, p, c;
};
static struct derived derive(const float *u) {
    struct derived d;
    d.rd = 1.0f / u[V_D];
    for (int k = 0; k < 3; k++) d.v[k] = u[V_MX + k] * d.rd;
    d.s = d.v[0] * d.v[0];
    d.s = fmaf(d.v[1], d.v[1], d.s);
    d.s = fmaf(d.v[2], d.v[2], d.s);
    d.p = fmaf(u[V_D] * -0.5f, d.s, u[V_E]) * GM1;
    d.c = sqrtf(d.p * GAMMA * d.rd);
    return d;
}
/* xx xy xz yy yz zz ex ey ez */
static void contrib(const float *u, const struct derived *d, float *f) {
    f[0] = fmaf(d->v[0], u[V_MX], d->p);
    f[1] = d->v[0] * u[V_MY];
    f[2] = d->v[0] * u[V_MZ];
    f[3] = fmaf(d->v[1], u[V_MY], d->p);
    f[4] = d->v[1] * u[V_MZ];
    f[5] = fmaf(d->v[2], u[V_MZ], d->p);
    float dep = u[V_E] + d->p;
    f[7] = d->v[1] * dep;
    f[8] = d->v[2] * dep;
    f[6] = d->v[0] * dep;
}

static int cfd_verify(struct workload *w, struct ws_err *e) {
    struct cfd *c = (struct cfd *)w;
    uint32_t n = c->nelr;
    size_t nv = (size_t)NVAR * n;
    float *var = malloc(nv * 4), *old = malloc(nv * 4), *flux = malloc(nv * 4),
          *sf = malloc((size_t)n * 4);
    int rc = 0;
    if (!var || !old || !flux || !sf) {
        rc = ws_fail(e, "cfd: out of memory");
        goto out;
    }
    const float *area = devmem_host(c->kw.dm, c->d_area, 4ull * n),
                *norm = devmem_host(c->kw.dm, c->d_norm, 12ull * NNB * n);
    const int32_t *ese = devmem_host(c->kw.dm, c->d_ese, 4ull * NNB * n);
    for (uint32_t i = 0; i < n; i++)
        for (int v = 0; v < NVAR; v++) var[i + (size_t)v * n] = c->ff[v];
    uint32_t done = c->launches == 0 ? 0 : (c->launches - 1) / 7;
    for (uint32_t it = 0; it < done; it++) {
        memcpy(old, var, nv * 4);
        for (uint32_t i = 0; i < n; i++) {
            float u[NVAR];
            for (int v = 0; v < NVAR; v++) u[v] = var[i + (size_t)v * n];
            struct derived d = derive(u);
            sf[i] = (1.0f / (sqrtf(area[i]) * (sqrtf(d.s) + d.c))) * 0.5f;
        }
        for (uint32_t j = 0; j < RK; j++) {
            for (uint32_t i = 0; i < n; i++) {
                float u[NVAR], fi[9], fl[NVAR] = {0};
                for (int v = 0; v < NVAR; v++) u[v] = var[i + (size_t)v * n];
                struct derived di = derive(u);
                float speed_i = sqrtf(di.s);
                contrib(u, &di, fi);
                for (uint32_t f = 0; f < NNB; f++) {
                    int32_t nb = ese[i + (size_t)f * n];
                    float nx = norm[i + (size_t)(f + 0 * NNB) * n],
                          ny = norm[i + (size_t)(f + 1 * NNB) * n],
                          nz = norm[i + (size_t)(f + 2 * NNB) * n];
                    float len = sqrtf(fmaf(nz, nz, fmaf(ny, ny, nx * nx)));
                    if (nb >= 0) {
                        float b[NVAR], fb[9];
                        for (int v = 0; v < NVAR; v++) b[v] = var[(size_t)nb + (size_t)v * n];
                        struct derived db = derive(b);
                        contrib(b, &db, fb);
                        float fac = len * -0.2f * 0.5f * (speed_i + sqrtf(db.s) + di.c + db.c);
                        fl[V_D] = fmaf(fac, u[V_D] - b[V_D], fl[V_D]);
                        fl[V_E] = fmaf(fac, u[V_E] - b[V_E], fl[V_E]);
                        for (int k = 0; k < 3; k++)
                            fl[V_MX + k] = fmaf(fac, u[V_MX + k] - b[V_MX + k], fl[V_MX + k]);
                        /* per axis a: momentum a, energy a, and the momentum-flux rows */
                        static const int row[3][3] = {{0, 1, 2}, {1, 3, 4}, {2, 4, 5}};
                        float nrm[3] = {nx, ny, nz};
                        for (int a = 0; a < 3; a++) {
                            fac = nrm[a] * 0.5f;
                            fl[V_D] = fmaf(fac, b[V_MX + a] + u[V_MX + a], fl[V_D]);
                            fl[V_E] = fmaf(fac, fb[6 + a] + fi[6 + a], fl[V_E]);
                            for (int k = 0; k < 3; k++)
                                fl[V_MX + k] =
                                    fmaf(fac, fb[row[k][a]] + fi[row[k][a]], fl[V_MX + k]);
                        }
                    } else if (nb == -1) {
                        fl[V_MX] = fmaf(nx, di.p, fl[V_MX]);
                        fl[V_MY] = fmaf(ny, di.p, fl[V_MY]);
                        fl[V_MZ] = fmaf(nz, di.p, fl[V_MZ]);
                    }
                }
                for (int v = 0; v < NVAR; v++) flux[i + (size_t)v * n] = fl[v];
            }
            float r = 1.0f / (float)(RK + 1 - (int)j);
            for (uint32_t i = 0; i < n; i++) {
                float fac = sf[i] * r;
                for (int v = 0; v < NVAR; v++)
                    var[i + (size_t)v * n] =
                        fmaf(fac, flux[i + (size_t)v * n], old[i + (size_t)v * n]);
            }
        }
    }
    const float *dv = devmem_host(c->kw.dm, c->d_var, 4 * nv),
                *df = devmem_host(c->kw.dm, c->d_flux, 4 * nv),
                *ds = devmem_host(c->kw.dm, c->d_sf, 4ull * n);
    for (size_t i = 0; i < nv && rc == 0; i++)
        if (memcmp(&dv[i], &var[i], 4))
            rc = ws_fail(e,
                         "cfd: variables[%zu] (element %zu, variable %zu) = %.9g, the host says "
                         "%.9g",
                         i, i % n, i / n, dv[i], var[i]);
        else if (done && memcmp(&df[i], &flux[i], 4))
            rc = ws_fail(e, "cfd: fluxes[%zu] = %.9g, the host says %.9g", i, df[i], flux[i]);
    for (uint32_t i = 0; i < n && rc == 0 && done; i++)
        if (memcmp(&ds[i], &sf[i], 4))
            rc = ws_fail(e, "cfd: step_factors[%u] = %.9g, the host says %.9g", i, ds[i], sf[i]);
out:
    free(var), free(old), free(flux), free(sf);
    return rc;
}

static void cfd_destroy(struct workload *w) {
    struct cfd *c = (struct cfd *)w;
    km_prog_free(&c->init);
    km_prog_free(&c->step);
    km_prog_free(&c->flux);
    km_prog_free(&c->ts);
    km_wl_fini(&c->kw);
    free(c);
}

static const struct workload_vt cfd_vt = {cfd_next,      km_wl_cta_start, km_wl_warp_next,
                                          km_wl_cta_end, cfd_verify,      cfd_destroy};

static uint32_t mix(uint32_t x) {
    x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
    return x;
}
static float unit(uint32_t i) {
    return (float)(mix(i) % 1000000) / 999999.0f;
}

struct workload *cfd_create(struct cfg *cf, const struct workload_common *wc, struct ws_err *e) {
    struct cfd_cfg cc = {wc->size == WL_SIZE_PAPER ? 97046 : 2000, 1, 1024};
    if (cfg_bind(cf, "workload.cfd", cfd_keys, CFG_COUNT(cfd_keys), &cc, e)) return NULL;
    struct cfd *c = calloc(1, sizeof *c);
    if (!c) return ws_fail(e, "cfd: out of memory"), NULL;
    if (km_wl_init(&c->kw, &cfd_vt, "cfd", e)) return free(c), NULL;
    c->nel = (uint32_t)cc.elements, c->iters = (uint32_t)cc.iters;
    c->nelr = (c->nel + CFD_BLOCK - 1) / CFD_BLOCK * CFD_BLOCK;
    uint64_t n = c->nelr;
    if (km_prog_build(&c->init, "cuda_initialize_variables", 8, init_code, CFG_COUNT(init_code),
                      e) ||
        km_prog_build(&c->step, "cuda_compute_step_factor", 28, step_code, CFG_COUNT(step_code),
                      e) ||
        km_prog_build(&c->flux, "cuda_compute_flux", 63, flux_code, CFG_COUNT(flux_code), e) ||
        km_prog_build(&c->ts, "cuda_time_step", 12, ts_code, CFG_COUNT(ts_code), e) ||
        !(c->d_area = devmem_alloc(c->kw.dm, 4 * n, "areas", e)) ||
        !(c->d_ese = devmem_alloc(c->kw.dm, 4 * NNB * n, "elements_surrounding_elements", e)) ||
        !(c->d_norm = devmem_alloc(c->kw.dm, 4 * 3 * NNB * n, "normals", e)) ||
        !(c->d_var = devmem_alloc(c->kw.dm, 4 * NVAR * n, "variables", e)) ||
        !(c->d_old = devmem_alloc(c->kw.dm, 4 * NVAR * n, "old_variables", e)) ||
        !(c->d_flux = devmem_alloc(c->kw.dm, 4 * NVAR * n, "fluxes", e)) ||
        !(c->d_sf = devmem_alloc(c->kw.dm, 4 * n, "step_factors", e))) {
        cfd_destroy(&c->kw.base);
        return NULL;
    }
    /* euler3d.cu's far field: density 1.4, pressure 1, Mach 1.2 along x. */
    float ff_c = (float)sqrt((double)(GAMMA * 1.0f / 1.4f)), ff_speed = 1.2f * ff_c;
    c->ff[V_D] = 1.4f;
    c->ff[V_MX] = 1.4f * ff_speed, c->ff[V_MY] = 0.0f, c->ff[V_MZ] = 0.0f;
    c->ff[V_E] = 1.4f * (0.5f * (ff_speed * ff_speed)) + (1.0f / GM1);
    float *area = devmem_host(c->kw.dm, c->d_area, 4 * n),
          *norm = devmem_host(c->kw.dm, c->d_norm, 12 * NNB * n);
    int32_t *ese = devmem_host(c->kw.dm, c->d_ese, 4 * NNB * n);
    int64_t win = cc.window;
    for (uint32_t i = 0; i < c->nelr; i++) {
        uint32_t s = i < c->nel ? i : c->nel - 1; /* padding repeats the last element */
        area[i] = (0.5f + unit(8 * s)) * 1e-4f;
        for (uint32_t f = 0; f < NNB; f++) {
            uint32_t h = mix(8 * s + 1 + f);
            int64_t nb = (int64_t)s + (int64_t)(h % (uint32_t)(2 * win + 1)) - win;
            if (nb < 0) nb = -nb;
            if (nb >= c->nel) nb = 2 * (int64_t)c->nel - 2 - nb;
            if (nb < 0 || nb >= c->nel) nb = s;
            if (h >> 24 < 5) nb = -1; /* about 2% wing faces */
            ese[i + (size_t)f * n] = (int32_t)nb;
            for (uint32_t a = 0; a < 3; a++)
                norm[i + (size_t)(f + a * NNB) * n] =
                    (unit(0x10000000u + 16 * s + 4 * f + a) - 0.5f) * 2e-3f;
        }
    }
    c->copies[0] = (struct wl_copy){c->d_area, 4 * n};
    c->copies[1] = (struct wl_copy){c->d_ese, 4 * NNB * n};
    c->copies[2] = (struct wl_copy){c->d_norm, 12 * NNB * n};
    return &c->kw.base;
}
