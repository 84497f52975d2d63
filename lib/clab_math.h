/* clab_math.h: small inline 3-vectors, Euler parameters (unit quaternions) and 3x3
 * matrices for the hot loops. Plain structs of doubles, passed by value.
 *
 * Euler parameters e = (e0, e1, e2, e3), e0 the scalar part, as in seed 000 (epsilon).
 * A(e) is the rotation matrix from the body frame to the world frame: x = A(e) xbar. */
#ifndef CLAB_MATH_H
#define CLAB_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct { double x, y, z; } clab_vec3;
typedef struct { double e0, e1, e2, e3; } clab_quat;
typedef struct { double a[3][3]; } clab_mat33; /* row major: a[row][col] */

/* ---- vec3 ---- */
static inline clab_vec3 clab_v3(double x, double y, double z) { clab_vec3 v = {x, y, z}; return v; }
static inline clab_vec3 clab_v3_add(clab_vec3 a, clab_vec3 b) { return clab_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline clab_vec3 clab_v3_sub(clab_vec3 a, clab_vec3 b) { return clab_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline clab_vec3 clab_v3_scale(clab_vec3 a, double s) { return clab_v3(s * a.x, s * a.y, s * a.z); }

static inline clab_vec3 clab_v3_neg(clab_vec3 a) { return clab_v3(-a.x, -a.y, -a.z); }
/* a + s b */
static inline clab_vec3 clab_v3_madd(clab_vec3 a, double s, clab_vec3 b) { return clab_v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline double clab_v3_dot(clab_vec3 a, clab_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline clab_vec3 clab_v3_cross(clab_vec3 a, clab_vec3 b)
{
    return clab_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double clab_v3_norm2(clab_vec3 a) { return clab_v3_dot(a, a); }
static inline double clab_v3_norm(clab_vec3 a) { return sqrt(clab_v3_dot(a, a)); }
/* componentwise product (diagonal matrix times vector, e.g. J omega) */
static inline clab_vec3 clab_v3_mul(clab_vec3 a, clab_vec3 b) { return clab_v3(a.x * b.x, a.y * b.y, a.z * b.z); }
static inline double clab_v3_get(clab_vec3 a, int i) { return i == 0 ? a.x : (i == 1 ? a.y : a.z); }
static inline int clab_v3_isfinite(clab_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

/* a / |a|; the zero vector stays zero */
static inline clab_vec3 clab_v3_normalize(clab_vec3 a)
{
    double l = clab_v3_norm(a);
    return l > 0.0 ? clab_v3_scale(a, 1.0 / l) : a;
}

/* Complete a unit normal n to a right-handed orthonormal frame (n, u, w): n x u = w.
 * u is chosen perpendicular to the axis along which n has its smallest component,
 * so the construction is continuous except where that axis changes. */
static inline void clab_v3_frame(clab_vec3 n, clab_vec3 *u, clab_vec3 *w)
{
    clab_vec3 t;
    double ax = fabs(n.x), ay = fabs(n.y), az = fabs(n.z);
    if (ax <= ay && ax <= az) t = clab_v3(0.0, n.z, -n.y);       /* n x e_x, up to sign */
    else if (ay <= az) t = clab_v3(-n.z, 0.0, n.x);             /* e_y x n */
    else t = clab_v3(n.y, -n.x, 0.0);                           /* n x e_z, up to sign */
    *u = clab_v3_normalize(t);
    *w = clab_v3_cross(n, *u);
}

/* ---- mat33 ---- */
static inline clab_vec3 clab_m33_mulv(clab_mat33 m, clab_vec3 v)
{
    return clab_v3(m.a[0][0] * v.x + m.a[0][1] * v.y + m.a[0][2] * v.z,
                   m.a[1][0] * v.x + m.a[1][1] * v.y + m.a[1][2] * v.z,
                   m.a[2][0] * v.x + m.a[2][1] * v.y + m.a[2][2] * v.z);
}
/* m^T v */
static inline clab_vec3 clab_m33_tmulv(clab_mat33 m, clab_vec3 v)
{
    return clab_v3(m.a[0][0] * v.x + m.a[1][0] * v.y + m.a[2][0] * v.z,
                   m.a[0][1] * v.x + m.a[1][1] * v.y + m.a[2][1] * v.z,
                   m.a[0][2] * v.x + m.a[1][2] * v.y + m.a[2][2] * v.z);
}
static inline clab_mat33 clab_m33_mul(clab_mat33 p, clab_mat33 q)
{
    clab_mat33 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.a[i][j] = p.a[i][0] * q.a[0][j] + p.a[i][1] * q.a[1][j] + p.a[i][2] * q.a[2][j];
    return r;
}
static inline clab_mat33 clab_m33_transpose(clab_mat33 m)
{
    clab_mat33 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.a[i][j] = m.a[j][i];
    return r;
}
static inline clab_mat33 clab_m33_identity(void)
{
    clab_mat33 r = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    return r;
}
/* the tilde (skew) matrix of seed 000: tilde(a) b = a x b */
static inline clab_mat33 clab_m33_tilde(clab_vec3 a)
{
    clab_mat33 r = {{{0, -a.z, a.y}, {a.z, 0, -a.x}, {-a.y, a.x, 0}}};
    return r;
}
static inline clab_vec3 clab_m33_col(clab_mat33 m, int j) { return clab_v3(m.a[0][j], m.a[1][j], m.a[2][j]); }

/* ---- Euler parameters ---- */
static inline clab_quat clab_q(double e0, double e1, double e2, double e3) { clab_quat q = {e0, e1, e2, e3}; return q; }
static inline clab_quat clab_q_identity(void) { return clab_q(1.0, 0.0, 0.0, 0.0); }
/* Hamilton product p q */
static inline clab_quat clab_q_mul(clab_quat p, clab_quat q)
{
    return clab_q(p.e0 * q.e0 - p.e1 * q.e1 - p.e2 * q.e2 - p.e3 * q.e3,
                  p.e0 * q.e1 + p.e1 * q.e0 + p.e2 * q.e3 - p.e3 * q.e2,
                  p.e0 * q.e2 - p.e1 * q.e3 + p.e2 * q.e0 + p.e3 * q.e1,
                  p.e0 * q.e3 + p.e1 * q.e2 - p.e2 * q.e1 + p.e3 * q.e0);
}
static inline double clab_q_norm(clab_quat q) { return sqrt(q.e0 * q.e0 + q.e1 * q.e1 + q.e2 * q.e2 + q.e3 * q.e3); }
static inline clab_quat clab_q_normalize(clab_quat q)
{
    double l = clab_q_norm(q);
    return clab_q(q.e0 / l, q.e1 / l, q.e2 / l, q.e3 / l);
}
static inline clab_quat clab_q_conj(clab_quat q) { return clab_q(q.e0, -q.e1, -q.e2, -q.e3); }
/* rotation by angle (rad) about a unit axis */
static inline clab_quat clab_q_axis_angle(clab_vec3 axis, double angle)
{
    clab_vec3 k = clab_v3_normalize(axis);
    double s = sin(0.5 * angle);
    return clab_q(cos(0.5 * angle), s * k.x, s * k.y, s * k.z);
}
/* A(e): rotation matrix of the Euler parameters (Haug's formula, as in seed 000) */
static inline clab_mat33 clab_q_to_A(clab_quat q)
{
    double e0 = q.e0, e1 = q.e1, e2 = q.e2, e3 = q.e3;
    clab_mat33 A = {{{2 * (e0 * e0 + e1 * e1) - 1, 2 * (e1 * e2 - e0 * e3), 2 * (e1 * e3 + e0 * e2)},
                     {2 * (e1 * e2 + e0 * e3), 2 * (e0 * e0 + e2 * e2) - 1, 2 * (e2 * e3 - e0 * e1)},
                     {2 * (e1 * e3 - e0 * e2), 2 * (e2 * e3 + e0 * e1), 2 * (e0 * e0 + e3 * e3) - 1}}};
    return A;
}
/* A(e) xbar without forming A */
static inline clab_vec3 clab_q_rotate(clab_quat q, clab_vec3 v)
{
    clab_vec3 qv = clab_v3(q.e1, q.e2, q.e3);
    clab_vec3 t = clab_v3_scale(clab_v3_cross(qv, v), 2.0);
    return clab_v3_add(clab_v3_madd(v, q.e0, t), clab_v3_cross(qv, t));
}
/* 1 when q is exactly the identity (1, 0, 0, 0): A(q) x = x, and clab_q_rotate gives x
 * itself then (the sign of a zero component aside) */
static inline int clab_q_is_identity(clab_quat q)
{
    uint64_t u[4]; /* the bits: two integer tests instead of four floating-point compares (-0.0 fails, harmlessly) */
    memcpy(u, &q, sizeof u);
    return u[0] == UINT64_C(0x3ff0000000000000) && (u[1] | u[2] | u[3]) == 0;
}

/* A(e)^T x: world to body frame */
static inline clab_vec3 clab_q_rotate_inv(clab_quat q, clab_vec3 v) { return clab_q_rotate(clab_q_conj(q), v); }

/* Advance Euler parameters by a constant body-frame angular velocity wbar over h:
 * e(t+h) = e(t) (cos(|wbar| h/2), sin(|wbar| h/2) wbar/|wbar|). This is Eq. (5a) of seed 000,
 * q(l+1) = q(l) + h L(q(l)) v(l+1), integrated exactly for constant wbar (the exponential map),
 * so |e| = 1 holds to round-off; the result is renormalized anyway. Always inlined where the
 * compiler allows it: the integrators call it once a body a step. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline clab_quat clab_q_advance(clab_quat e, clab_vec3 wbar, double h)
{
    double w2 = clab_v3_dot(wbar, wbar);
    double x2 = 0.25 * h * h * w2; /* (|wbar| h/2)^2 */
    double c, s;                   /* cos(|wbar| h/2) and sin(|wbar| h/2)/|wbar| */
    if (x2 <= 0x1p-24) {
        /* a tiny angle, |wbar| h/2 <= 2^-12 (a granular flow at its usual steps): through x^4;
         * the first term left out, x^6/720, is below 2^-81 */
        c = 1.0 + x2 * (-1.0 / 2 + x2 * (1.0 / 24));
        s = 0.5 * h * (1.0 + x2 * (-1.0 / 6 + x2 * (1.0 / 120)));
    } else if (x2 <= 1.0 / 4096) {
        /* a small angle, |wbar| h/2 <= 1/64 (every step of a stable simulation): the Taylor
         * series of cos x and sin(x)/x through x^8 in x^2; the first term left out is below
         * 2^-60 relative, so both are exact to rounding, with no square root, libm call or
         * division */
        c = 1.0 + x2 * (-1.0 / 2 + x2 * (1.0 / 24 + x2 * (-1.0 / 720 + x2 * (1.0 / 40320 - x2 * (1.0 / 3628800)))));
        s = 0.5 * h * (1.0 + x2 * (-1.0 / 6 + x2 * (1.0 / 120 + x2 * (-1.0 / 5040 + x2 * (1.0 / 362880)))));
    } else {
        double wn = sqrt(w2), half = 0.5 * wn * h;
        c = cos(half);
        s = sin(half) / wn;
    }
    clab_quat d = clab_q(c, s * wbar.x, s * wbar.y, s * wbar.z);
    clab_quat q = clab_q_mul(e, d);
    /* renormalized: |q|^2 = n2 is 1 to rounding after a step from a unit e, and then one
     * Newton step for 1/sqrt(n2) from 1, 1/|q| = (3 - n2)/2 + O((n2 - 1)^2), is exact to
     * rounding (|n2 - 1| <= 1e-8: an error below 4e-17); otherwise the division */
    double n2 = q.e0 * q.e0 + q.e1 * q.e1 + q.e2 * q.e2 + q.e3 * q.e3;
    double il = fabs(n2 - 1.0) <= 1e-8 ? 1.5 - 0.5 * n2 : 1.0 / sqrt(n2);
    return clab_q(q.e0 * il, q.e1 * il, q.e2 * il, q.e3 * il);
}

#endif
