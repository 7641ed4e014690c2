/* What Rodinia's two SRAD versions share (srad.c: srad_v2 as `srad2`; srad1.c: srad_v1 as
 * `srad1`): the diffusion-coefficient arithmetic both compute per pixel from the four directional
 * derivatives, as kmodel instructions and as the host check's float expression. */
#pragma once

#include <stdint.h>

/* From jc (R21) and the derivatives n, s, w, e (R22..R25): G2, L, qsqr and the saturated
 * diffusion coefficient c in R31, against q0sqr in kernel parameter q0; uses
 * R26..R30. The sources' double constants are used in float (division as MUFU.RCP then FMUL),
 * and srad_coef_host computes the same float operations, so the two agree bit for bit. */
#define SRAD_COEF(q0)                                                                              \
    KM_OP2(KM_FMUL, 26, KR(22), KR(22)), KM_OP3(KM_FFMA, 26, KR(23), KR(23), KR(26)),              \
        KM_OP3(KM_FFMA, 26, KR(24), KR(24), KR(26)), KM_OP3(KM_FFMA, 26, KR(25), KR(25), KR(26)),  \
        KM_OP2(KM_FMUL, 27, KR(21), KR(21)), KM_MUFU_(KM_RCP, 27, KR(27)),                         \
        KM_OP2(KM_FMUL, 26, KR(26), KR(27)), /* g2 */                                              \
        KM_OP2(KM_FADD, 28, KR(22), KR(23)), KM_OP2(KM_FADD, 28, KR(28), KR(24)),                  \
        KM_OP2(KM_FADD, 28, KR(28), KR(25)), KM_MUFU_(KM_RCP, 29, KR(21)),                         \
        KM_OP2(KM_FMUL, 28, KR(28), KR(29)), /* l */                                               \
        KM_OP2(KM_FMUL, 29, KR(28), KR(28)), KM_OP2(KM_FMUL, 29, KR(29), KF(-0.0625f)),            \
        KM_OP3(KM_FFMA, 29, KR(26), KF(0.5f), KR(29)),    /* num */                                \
        KM_OP3(KM_FFMA, 30, KR(28), KF(0.25f), KF(1.0f)), /* den */                                \
        KM_OP2(KM_FMUL, 30, KR(30), KR(30)), KM_MUFU_(KM_RCP, 30, KR(30)),                         \
        KM_OP2(KM_FMUL, 29, KR(29), KR(30)), /* qsqr */                                            \
        KM_OP2(KM_FADD, 30, KP(q0), KF(1.0f)), KM_OP2(KM_FMUL, 30, KP(q0), KR(30)),                \
        KM_MUFU_(KM_RCP, 30, KR(30)), KM_OP2(KM_FSUB, 31, KR(29), KP(q0)),                         \
        KM_OP2(KM_FMUL, 31, KR(31), KR(30)),                                 /* den */             \
        KM_OP2(KM_FADD, 31, KR(31), KF(1.0f)), KM_MUFU_(KM_RCP, 31, KR(31)), /* c */               \
        KM_FSETP_(KM_LT, 0, KR(31), KF(0.0f)), KM_SEL_(31, KF(0.0f), KR(31), 0),                   \
        KM_FSETP_(KM_GT, 0, KR(31), KF(1.0f)), KM_SEL_(31, KF(1.0f), KR(31), 0)

/* SRAD_COEF on the host: the coefficient of a pixel jc with derivatives n, s, w, e. */
float srad_coef_host(float jc, float n, float s, float w, float e, float q0sqr);

/* A float as a kernel parameter (its bits in the low word). */
int64_t srad_fparam(float f);
