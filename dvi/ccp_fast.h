/* ccp_fast.h: the kernels of the fast matrix-free products with N = P^T M^-1 P (fast_ccp.c), for
 * the solvers that fuse them with their own vector updates: the fast path of the DVI backend
 * (fast_ccp.c, fast_*.c; not installed).
 *
 * A product is two passes over memory, both parallel with OpenMP and race-free:
 *   1. body pass, u = M^-1 P nu: each moving body sums the impulses of its own contacts and
 *      joints (its incidence list, in increasing block order) into a force and a torque, then
 *      applies 1/m and the world inverse inertia; no two threads write the same body, and the
 *      order of each sum does not depend on the thread count;
 *   2. gather pass, (P^T u)_i = t_q . (v_b + omega_b x r_b - v_a - omega_a x r_a) for each
 *      block i, reading u.
 * u holds per body (v, omega) in the world frame, 6 doubles. Loops over contacts run in
 * chunks of CLAB_CCP_CHUNK contacts; reductions (sums, maxima) are formed per chunk and the
 * chunk results combined in chunk order, so every result is the same to the last bit for
 * any number of threads. */
#ifndef CLAB_CCP_FAST_H
#define CLAB_CCP_FAST_H

#include <math.h>

#include "ccp.h"
#include "clab_v2.h"

#define CLAB_CCP_CHUNK 512     /* contacts per chunk of the parallel loops and reductions */
#define CLAB_CCP_PAR_CHUNKS 8  /* loops of fewer chunks run on one thread (fork costs more) */
#define CLAB_CCP_PAR_BODIES 4096 /* likewise bodies for the body pass */

/* blocks ahead whose scattered operands are fetched early (CLAB_PREFETCH of clab_simd.h:
 * clab_ccp_sph_prefetch, and the impulses F in clab_ccp_body_sums) */
#define CLAB_CCP_PREFETCH 16

/* the solvers' cone projection decides a block inside K before the square root when |x_T|^2 <
 * CLAB_CCP_INSIDE (mu x_n)^2 (clab_ccp_cone_project) */
#define CLAB_CCP_INSIDE (1.0 - 1e-12)

/* complete unrolling of the loops over a block's three rows (q = 0, 1, 2): GCC at -O2 keeps
 * them as loops, with the rows' values in memory; the arithmetic is the same either way */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define CLAB_UNROLL3 _Pragma("GCC unroll 3")
#define CLAB_UNROLL2 _Pragma("GCC unroll 2")
#else
#define CLAB_UNROLL3
#define CLAB_UNROLL2
#endif

static inline size_t clab_ccp_nchunks(size_t ncontacts) { return (ncontacts + CLAB_CCP_CHUNK - 1) / CLAB_CCP_CHUNK; }

/* The fast products' indices of a built problem (fast_ccp.c; clab_ccp_build calls it): the
 * compact records and the incidence lists. */
void clab_ccp_index(clab_ccp *P, const clab_world *w);

/* u = M^-1 P nu in the world frame (body pass); body_frame = 1 gives the angular part as the
 * body-frame wbar change instead (the public clab_ccp_minv_P). */
void clab_ccp_body_pass(const clab_ccp *P, const double *nu, double *u, int body_frame);

/* body k's share of P nu from the blocks' impulses F (3 per block), over its incidence list:
 * force f[0..2] = sum of +-F_i (+ on body b, - on body a), torque f[3..5] = sum of
 * r x (+-F_i) with r the signed arm of the incidence, world frame */
static inline void clab_ccp_body_sums(const clab_ccp *P, const double *F, size_t k, double f[6])
{
    const uint32_t *inc = P->inc;
    const double *ir = P->inc_r;
    const size_t ninc = P->inc_start[P->nbodies];
    double F0 = 0.0, F1 = 0.0, F2 = 0.0, T0 = 0.0, T1 = 0.0, T2 = 0.0;
    for (size_t j = P->inc_start[k]; j < P->inc_start[k + 1]; j++) {
        if (j + CLAB_CCP_PREFETCH < ninc) CLAB_PREFETCH(&F[3 * (size_t)(inc[j + CLAB_CCP_PREFETCH] >> 1)]);
        const uint32_t code = inc[j];
        const double *fi = &F[3 * (size_t)(code >> 1)], *r = &ir[3 * j];
        const double sg = (double)(2 * (int)(code & 1u) - 1);
        F0 += sg * fi[0], F1 += sg * fi[1], F2 += sg * fi[2];
        T0 += r[1] * fi[2] - r[2] * fi[1];
        T1 += r[2] * fi[0] - r[0] * fi[2];
        T2 += r[0] * fi[1] - r[1] * fi[0];
    }
    f[0] = F0, f[1] = F1, f[2] = F2, f[3] = T0, f[4] = T1, f[5] = T2;
}

/* uk = M_k^-1 f in the world frame, m = &P->minv[8 k]: 1/m on the force, the world inverse
 * inertia A Jbar^-1 A^T on the torque */
static inline void clab_ccp_body_minv(const double *m, const double f[6], double uk[6])
{
    uk[0] = m[0] * f[0], uk[1] = m[0] * f[1], uk[2] = m[0] * f[2];
    uk[3] = m[1] * f[3] + m[2] * f[4] + m[3] * f[5];
    uk[4] = m[2] * f[3] + m[4] * f[4] + m[5] * f[5];
    uk[5] = m[3] * f[3] + m[5] * f[4] + m[6] * f[5];
}

/* F_i = sum_q t_q x_q, the world impulse of every block (3 per block); the joints only */
void clab_ccp_forces(const clab_ccp *P, const double *x, double *F);
void clab_ccp_joint_forces(const clab_ccp *P, const double *x, double *F);
/* u = M^-1 P nu (world) from the blocks' impulses F of nu: the same bits as the body pass
 * from nu, with less work (the solvers form F where they form nu) */
void clab_ccp_body_pass_F(const clab_ccp *P, const double *F, double *u);
/* out = N nu (clab_ccp_apply_N, the same bits) through F = the impulses of nu [3 nblocks,
 * scratch] and the body pass from F: fewer bytes than the body pass from nu (the solvers'
 * set-up) */
void clab_ccp_apply_N_F(const clab_ccp *P, const double *nu, double *F, double *u, double *out);

/* (P^T u) for the joint rows (serial, after the contacts); out indexed like nu; nu may be
 * NULL (no compliance term) */
void clab_ccp_gather_joints(const clab_ccp *P, const double *u, const double *nu, double *out);

/* out = P^T u (+ compliance .* nu when nu is given) (+ p when add_p), u in the world frame;
 * contacts in parallel chunks, then the joints */
void clab_ccp_gather(const clab_ccp *P, const double *u, const double *nu, int add_p, double *out);

/* contacts [*lo, *hi) of chunk c */
static inline void clab_ccp_chunk(size_t c, size_t ncontacts, size_t *lo, size_t *hi)
{
    *lo = c * CLAB_CCP_CHUNK;
    *hi = (c + 1) * CLAB_CCP_CHUNK < ncontacts ? (c + 1) * CLAB_CCP_CHUNK : ncontacts;
}

/* max that lets a NaN through (as residual.c does) */
static inline double clab_ccp_max_nan(double r, double e) { return e <= r ? r : e; }

/* relative velocity at block it: v_b + omega_b x r_b - v_a - omega_a x r_a (u world) */
static inline void clab_ccp_item_vrel(const clab_ccp_item *it, const double *u, double v[3])
{
    const double *ua = u + 6 * (size_t)it->a, *ub = u + 6 * (size_t)it->b;
    const double *ra = it->r, *rb = it->r + 3;
    v[0] = (ub[0] + ub[4] * rb[2] - ub[5] * rb[1]) - (ua[0] + ua[4] * ra[2] - ua[5] * ra[1]);
    v[1] = (ub[1] + ub[5] * rb[0] - ub[3] * rb[2]) - (ua[1] + ua[5] * ra[0] - ua[3] * ra[2]);
    v[2] = (ub[2] + ub[3] * rb[1] - ub[4] * rb[0]) - (ua[2] + ua[3] * ra[1] - ua[4] * ra[0]);
}

/* the world impulse of a block: F = t_0 x_0 + t_1 x_1 + t_2 x_2 */
static inline void clab_ccp_item_force(const clab_ccp_item *it, const double x[3], double F[3])
{
    const double *t = it->t;
    F[0] = t[0] * x[0] + t[3] * x[1] + t[6] * x[2];
    F[1] = t[1] * x[0] + t[4] * x[1] + t[7] * x[2];
    F[2] = t[2] * x[0] + t[5] * x[1] + t[8] * x[2];
}

/* the three rows of a contact: out_q = t_q . v */
static inline void clab_ccp_item_rows(const clab_ccp_item *it, const double v[3], double out[3])
{
    const double *t = it->t;
    out[0] = t[0] * v[0] + t[1] * v[1] + t[2] * v[2];
    out[1] = t[3] * v[0] + t[4] * v[1] + t[5] * v[2];
    out[2] = t[6] * v[0] + t[7] * v[1] + t[8] * v[2];
}

/* w = n x u of a compact record (the operations of clab_v3_frame: the same bits as the item's) */
static inline void clab_ccp_sph_w(const clab_ccp_sph *s, double w[3])
{
    const double *n = s->n, *t = s->u;
    w[0] = n[1] * t[2] - n[2] * t[1];
    w[1] = n[2] * t[0] - n[0] * t[2];
    w[2] = n[0] * t[1] - n[1] * t[0];
}

/* fetch u_b (6 doubles, which may straddle two cache lines) of contact i + CLAB_CCP_PREFETCH
 * when it is below hi: the loops stream the records, but b jumps about the bodies, and the
 * load of u_b otherwise stalls the loop (pile 32,000, APGD: 39.5 -> 38.1 ns a contact and
 * iteration) */
static inline void clab_ccp_sph_prefetch(const clab_ccp *P, const double *u, size_t i, size_t hi)
{
    if (i + CLAB_CCP_PREFETCH < hi) {
        const double *ub = &u[6 * (size_t)P->sph[i + CLAB_CCP_PREFETCH].b];
        CLAB_PREFETCH(ub);
        CLAB_PREFETCH(ub + 5);
    }
}

/* the three rows of a contact from its compact record and w (ccp.h, clab_ccp_sph): out = D_i^T u */
static inline void clab_ccp_sph_rows(const clab_ccp_sph *s, const double w[3], const double *u, double out[3])
{
    const double *ua = u + 6 * (size_t)s->a, *ub = u + 6 * (size_t)s->b, *n = s->n, *t = s->u;
    const double d0 = ub[0] - ua[0], d1 = ub[1] - ua[1], d2 = ub[2] - ua[2];
    const double c0 = s->rb * ub[3] - s->ra * ua[3], c1 = s->rb * ub[4] - s->ra * ua[4],
                 c2 = s->rb * ub[5] - s->ra * ua[5];
    out[0] = n[0] * d0 + n[1] * d1 + n[2] * d2;
    out[1] = (t[0] * d0 + t[1] * d1 + t[2] * d2) + (w[0] * c0 + w[1] * c1 + w[2] * c2);
    out[2] = (w[0] * d0 + w[1] * d1 + w[2] * d2) - (t[0] * c0 + t[1] * c1 + t[2] * c2);
}

/* the world impulse of a contact from its compact record and w: F = n x_0 + u x_1 + w x_2 */
static inline void clab_ccp_sph_force(const clab_ccp_sph *s, const double w[3], const double x[3], double F[3])
{
    const double *n = s->n, *t = s->u;
    F[0] = n[0] * x[0] + t[0] * x[1] + w[0] * x[2];
    F[1] = n[1] * x[0] + t[1] * x[1] + w[1] * x[2];
    F[2] = n[2] * x[0] + t[2] * x[1] + w[2] * x[2];
}

/* contact i's rows D_i^T u and its impulse F, from the compact record when its chunk has them
 * (sph: P->sph_chunk[c], the same for the whole chunk) or from the item */
static inline void clab_ccp_rows(const clab_ccp *P, int sph, size_t i, const double *u, double out[3])
{
    if (sph) {
        double w[3];
        clab_ccp_sph_w(&P->sph[i], w);
        clab_ccp_sph_rows(&P->sph[i], w, u, out);
    } else {
        double v[3];
        clab_ccp_item_vrel(&P->items[i], u, v);
        clab_ccp_item_rows(&P->items[i], v, out);
    }
}
static inline void clab_ccp_force(const clab_ccp *P, int sph, size_t i, const double x[3], double F[3])
{
    if (sph) {
        double w[3];
        clab_ccp_sph_w(&P->sph[i], w);
        clab_ccp_sph_force(&P->sph[i], w, x, F);
    } else {
        clab_ccp_item_force(&P->items[i], x, F);
    }
}

/* Euclidean projection onto K = {mu x_n >= |x_T|} (the same operations as clab_cone_project
 * of cone.c, inline for the solvers' loops), with a test before the square root: a block
 * whose |x_T|^2 is below (mu x_n)^2 by more than the rounding of both sides is inside K, as
 * the test on s = |x_T| decides (sqrt rounds monotonically and mu x_n is a double), so it is
 * returned as it is without the sqrt's latency; the rest, within 1e-12 of the cone's surface
 * or outside it, take the test on s. The same values to the bit. */
static inline void clab_ccp_cone_project(double mu, double x[3])
{
    const double xn = x[0], q = x[1] * x[1] + x[2] * x[2], m = mu * xn;
    if (xn >= 0.0 && q < CLAB_CCP_INSIDE * (m * m)) return;
    double s = sqrt(q);
    if (xn >= 0.0 && s <= m) return;
    if (mu * s <= -xn) {
        x[0] = x[1] = x[2] = 0.0;
        return;
    }
    double a = (xn + mu * s) / (1.0 + mu * mu);
    x[0] = a;
    x[1] *= mu * a / s;
    x[2] *= mu * a / s;
}

/* Two blocks at a time (lanes, clab_v2.h): each lane does the operations of the one-block
 * code in the same order, so the same values to the bit; what differs is that one
 * instruction serves both blocks. */
#ifdef CLAB_V2

/* the three rows of two consecutive blocks, a[0..2] and a[3..5], as lanes: r[q] = (a[q], a[q + 3]) */
static inline void clab_v2_load3(const double *a, clab_v2d r[3])
{
    CLAB_UNROLL3
    for (int q = 0; q < 3; q++) r[q] = (clab_v2d){a[q], a[q + 3]};
}
static inline void clab_v2_store3(double *a, const clab_v2d r[3])
{
    CLAB_UNROLL3
    for (int q = 0; q < 3; q++) a[q] = r[q][0], a[q + 3] = r[q][1];
}

/* clab_ccp_cone_project of both lanes (friction coefficients mu0, mu1): the test before the
 * square root for both at once; a lane it does not decide inside K goes through the one-block
 * projection */
static inline void clab_ccp_cone_project2(double mu0, double mu1, clab_v2d x[3])
{
    const clab_v2d mu = {mu0, mu1}, zero = {0.0, 0.0}, c = clab_v2_set1(CLAB_CCP_INSIDE);
    const clab_v2d q = x[1] * x[1] + x[2] * x[2], m = mu * x[0];
    const clab_v2l in = (x[0] >= zero) & (q < c * (m * m));
    if (in[0] && in[1]) return;
    CLAB_UNROLL2
    for (int l = 0; l < 2; l++) {
        if (in[l]) continue;
        double b[3] = {x[0][l], x[1][l], x[2][l]};
        clab_ccp_cone_project(l ? mu1 : mu0, b);
        x[0][l] = b[0], x[1][l] = b[1], x[2][l] = b[2];
    }
}

/* contacts i (lane 0) and i + 1 (lane 1) from their compact records: the frame n, u, w = n x u
 * (clab_ccp_sph_w) and the rows o = D^T u (clab_ccp_sph_rows); u_b fetched ahead up to hi */
typedef struct clab_ccp_sph2 {
    clab_v2d n[3], u[3], w[3];
} clab_ccp_sph2;
static CLAB_ALWAYS_INLINE void clab_ccp_sph_rows2(const clab_ccp *P, const double *u, size_t i, size_t hi,
                                                  clab_ccp_sph2 *f, clab_v2d o[3])
{
    const clab_ccp_sph *s0 = &P->sph[i], *s1 = &P->sph[i + 1];
    clab_ccp_sph_prefetch(P, u, i, hi);
    clab_ccp_sph_prefetch(P, u, i + 1, hi);
    const double *ua0 = u + 6 * (size_t)s0->a, *ub0 = u + 6 * (size_t)s0->b;
    const double *ua1 = u + 6 * (size_t)s1->a, *ub1 = u + 6 * (size_t)s1->b;
    const clab_v2d ra = {s0->ra, s1->ra}, rb = {s0->rb, s1->rb};
    clab_v2d *n = f->n, *t = f->u, *w = f->w, d[3], c[3];
    CLAB_UNROLL3
    for (int q = 0; q < 3; q++) {
        n[q] = (clab_v2d){s0->n[q], s1->n[q]};
        t[q] = (clab_v2d){s0->u[q], s1->u[q]};
        d[q] = (clab_v2d){ub0[q], ub1[q]} - (clab_v2d){ua0[q], ua1[q]};
        c[q] = rb * (clab_v2d){ub0[3 + q], ub1[3 + q]} - ra * (clab_v2d){ua0[3 + q], ua1[3 + q]};
    }
    w[0] = n[1] * t[2] - n[2] * t[1];
    w[1] = n[2] * t[0] - n[0] * t[2];
    w[2] = n[0] * t[1] - n[1] * t[0];
    o[0] = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
    o[1] = (t[0] * d[0] + t[1] * d[1] + t[2] * d[2]) + (w[0] * c[0] + w[1] * c[1] + w[2] * c[2]);
    o[2] = (w[0] * d[0] + w[1] * d[1] + w[2] * d[2]) - (t[0] * c[0] + t[1] * c[1] + t[2] * c[2]);
}

/* the impulses of both lanes' x (clab_ccp_sph_force) into F[3 i .. 3 i + 5] */
static CLAB_ALWAYS_INLINE void clab_ccp_sph_force2(const clab_ccp_sph2 *f, const clab_v2d x[3], double *F)
{
    clab_v2d Fv[3];
    CLAB_UNROLL3
    for (int q = 0; q < 3; q++) Fv[q] = f->n[q] * x[0] + f->u[q] * x[1] + f->w[q] * x[2];
    clab_v2_store3(F, Fv);
}

/* clab_ccp_cone_res2 of both lanes (cone entries cn0, cn1), taken into the running maximum
 * *e2max contact by contact (clab_ccp_max_nan, as the one-block loops) */
static CLAB_ALWAYS_INLINE void clab_ccp_cone_res2_2(const double *cn0, const double *cn1, const clab_v2d x[3],
                                                    const clab_v2d g[3], double *e2max)
{
    const clab_v2d tc = {cn0[1], cn1[1]}, it = {cn0[3], cn1[3]};
    clab_v2d r[3], e[3];
    CLAB_UNROLL3
    for (int q = 0; q < 3; q++) r[q] = x[q] - tc * g[q];
    clab_ccp_cone_project2(cn0[0], cn1[0], r);
    CLAB_UNROLL3
    for (int q = 0; q < 3; q++) e[q] = (x[q] - r[q]) * it;
    const clab_v2d e2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2], gg = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
    *e2max = clab_ccp_max_nan(*e2max, cn0[1] > 0.0 ? e2[0] : gg[0]);
    *e2max = clab_ccp_max_nan(*e2max, cn1[1] > 0.0 ? e2[1] : gg[1]);
}
#endif

/* squared residual of one contact block (residual.c): |x - Proj_K(x - t g)|^2 / t^2, with
 * cn the contact's P->cone entry (mu, t, lambda_max, 1/t) */
static inline double clab_ccp_cone_res2(const double cn[4], const double x[3], const double g[3])
{
    const double t = cn[1], it = cn[3];
    if (!(t > 0.0)) return g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
    double y[3] = {x[0] - t * g[0], x[1] - t * g[1], x[2] - t * g[2]};
    clab_ccp_cone_project(cn[0], y);
    double e0 = (x[0] - y[0]) * it, e1 = (x[1] - y[1]) * it, e2 = (x[2] - y[2]) * it;
    return e0 * e0 + e1 * e1 + e2 * e2;
}

#endif
