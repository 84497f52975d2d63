/* fast_contact.h: the penalty fast path's contact force (included by fast_step.c only): the
 * bodies as the contact loop reads them (pen_body, gathered once a step), the force of one
 * contact (contact_force, the plain step's contact_force in step.c to the bit), and of two
 * contacts at once in SSE2 lanes (contact_force2), with the non-temporal stores of the forces.
 * Everything here is inline into the contact loop. */
#ifndef CLAB_PENALTY_FAST_CONTACT_H
#define CLAB_PENALTY_FAST_CONTACT_H

#include <float.h>
#include <math.h>
#include <string.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "clab_v2.h"
#include "force_law.h"
#include "history.h"
#include "penalty.h"

/* a body as the contact loop reads it (gathered once a step): 64 bytes, one cache line of an
 * array allocated 64-byte aligned. Not copied: the orientation (only contacts with a
 * non-sphere turn sbar by it, A(e) sbar, and they read it from the world's body), the
 * material (one pair for the whole step when every body has the same, pair1 of
 * clab_penalty_fast_step, else read from the world's bodies), the flags (fixed: an infinite mass;
 * sphere: the sign of R; the body loop reads the world's body itself, and with
 * sphere_orientation=off the array still, a byte a body) */
typedef struct pen_body {
    clab_vec3 rdot;  /* velocity [m/s] */
    clab_vec3 omega; /* angular velocity, world frame A(e) wbar [rad/s] */
    double m;        /* mass [kg]; INFINITY for a fixed body (its mass is ignored) */
    double R;        /* a sphere: its radius R (sign bit clear); any other shape -Rc (sign bit
                      * set), Rc its radius for R* [m] (contact_radius: INFINITY when flat) */
} pen_body;
_Static_assert(sizeof(pen_body) == 64, "pen_body: one cache line");

/* body b is a sphere: its lever arms lie on the contact normals */
static inline int pen_sphere(const pen_body *b) { return !signbit(b->R); }
/* body b is fixed (clab_penalty_meff) */
static inline int pen_fixed(const pen_body *b) { return b->m == INFINITY; }
/* Rc [m] of body b for R* (clab_penalty_reff): a sphere's radius, INFINITY when flat */
static inline double pen_rc(const pen_body *b) { return fabs(b->R); }

/* *dst = v; stream: with non-temporal stores (x86-64), which write past the caches without
 * reading the line first, for an array this step does not read back (the forces, kept for the
 * outputs, on one thread); the loop that streams ends with stream_end */
static CLAB_ALWAYS_INLINE void store_v3(clab_vec3 *dst, clab_vec3 v, int stream)
{
#if defined(__SSE2__) && defined(__x86_64__)
    if (stream) {
        long long q[3];
        memcpy(q, &v, sizeof q);
        _mm_stream_si64((long long *)dst, q[0]);
        _mm_stream_si64((long long *)dst + 1, q[1]);
        _mm_stream_si64((long long *)dst + 2, q[2]);
        return;
    }
#endif
    (void)stream;
    *dst = v;
}

/* the non-temporal stores of store_v3 ordered before any later store (and so before another
 * thread reads them) */
static inline void stream_end(void)
{
#if defined(__SSE2__) && defined(__x86_64__)
    _mm_sfence();
#endif
}

/* One contact i with overlap delta_n = -Phi > 0: relative velocity of the contact point
 * (lever arms l = A(e) sbar, never P - r), the history delta_t rotated onto the tangent plane
 * and advanced by h v_t, the force law of seed 002 with the Coulomb cap (the material pair:
 * pair1 when every body has the same material). Writes the force on
 * b (Fc, also returned), the rolling couple (Mr, rolling=cdt) and the new delta_t (history
 * entry i); the torques l x F follow per body (contact_scatter or body_sums). Contacts i are
 * independent: no shared writes. */
static CLAB_ALWAYS_INLINE clab_vec3 contact_force(penalty *p, const clab_world *w, const clab_contact *ci,
                                                   const clab_lever *lv, size_t i, const clab_vec3 *old,
                                                   const clab_penalty_pair *pair1, double h, int stream, int surface,
                                                   int rolling)
{
    const pen_body *A = &p->f.pb[ci->a], *B = &p->f.pb[ci->b];
    const clab_penalty_law *law = &p->def.law;
    const clab_penalty_pair *pp =
        pair1 ? pair1
              : &p->pairs[(size_t)w->bodies[ci->a].material * p->nmat + (size_t)w->bodies[ci->b].material];
    double delta_n = -ci->phi;
    double m_eff = clab_penalty_meff(A->m, pen_fixed(A), B->m, pen_fixed(B));
    /* clab_penalty_reff; Hooke with an explicit k_n does not read it */
    double R_eff = law->model == CLAB_PENALTY_HOOKE && pp->kn > 0.0 ? NAN : clab_penalty_reff(pen_rc(A), pen_rc(B));

    /* lever arms from the centers (world frame): to the contact point P, A(e) sbar (not P - r,
     * which is wrong through a periodic image), or (lever=surface) to each body's own surface
     * point P -+ Phi/2 n, LAMMPS's radii. A sphere touches anything on the line through its
     * center along n, with P midway between the two surfaces: A(e) sbar is (R_a + Phi/2) n as
     * a and -(R_b + Phi/2) n as b (R_a n and -R_b n to its surface point), taken so without
     * turning sbar by the orientation (equal to rounding; body_sums sums its torque
     * with the same levers). Another body's sbar: stored (clab_contact_levers; lv: the side
     * array), never derived, as one side is not a sphere */
    clab_vec3 la, lb, sa, sb;
    if (pen_sphere(A)) {
        la = clab_v3_scale(ci->n, surface ? A->R : A->R + 0.5 * ci->phi);
    } else {
        clab_contact_levers(ci, lv, w->bodies, &sa, &sb);
        la = clab_q_rotate(w->bodies[ci->a].e, sa);
        if (surface) la = clab_v3_madd(la, -0.5 * ci->phi, ci->n);
    }
    if (pen_sphere(B)) {
        lb = clab_v3_scale(ci->n, -(surface ? B->R : B->R + 0.5 * ci->phi));
    } else {
        clab_contact_levers(ci, lv, w->bodies, &sa, &sb);
        lb = clab_q_rotate(w->bodies[ci->b].e, sb);
        if (surface) lb = clab_v3_madd(lb, 0.5 * ci->phi, ci->n);
    }

    /* relative velocity of the contact point, b with respect to a: v = rdot + omega x l */
    clab_vec3 v = clab_v3_sub(clab_v3_add(B->rdot, clab_v3_cross(B->omega, lb)),
                              clab_v3_add(A->rdot, clab_v3_cross(A->omega, la)));
    double vn = clab_v3_dot(v, ci->n);
    clab_vec3 vt = clab_v3_madd(v, -vn, ci->n);

    /* history: last step's delta_t onto the current tangent plane, plus this step's slip
     * (none at the first step with history_start=zero: the initial state has no history) */
    clab_vec3 delta_t = !old                 ? clab_v3(0.0, 0.0, 0.0)
                        : p->def.history_project ? clab_penalty_project_history(*old, ci->n)
                                             : clab_penalty_rotate_history(*old, ci->n);
    if (!(p->def.history_zero && !p->started)) delta_t = clab_v3_madd(delta_t, h, vt);

    /* the force law of seed 002 with the Coulomb cap */
    clab_penalty_coef k = clab_penalty_coefficients(law, pp, delta_n, m_eff, R_eff);
    double Fn;
    clab_vec3 Ft;
    clab_penalty_contact_force(law, k, pp->mu, delta_n, vn, vt, &delta_t, &Fn, &Ft);
    clab_history_put_at(&p->hist, i, ci->key, delta_t);

    /* F on b, -F on a (torques l x F: summed per body, in its frame) */
    clab_vec3 Fb = clab_v3_madd(Ft, Fn, ci->n);

    /* optional rolling resistance: a pure couple */
    if (rolling && pp->mu_roll > 0.0) {
        const clab_body *BA = &w->bodies[ci->a], *BB = &w->bodies[ci->b];
        clab_vec3 wrel = clab_v3_sub(B->omega, A->omega);
        clab_vec3 axis = clab_v3_normalize(clab_v3_madd(wrel, -clab_v3_dot(wrel, ci->n), ci->n));
        clab_vec3 M = clab_penalty_rolling_torque(pp->mu_roll, Fn, wrel, ci->n, clab_penalty_inv_inertia_about(BA, axis),
                                                  clab_penalty_inv_inertia_about(BB, axis), h);
        p->Mr[i] = M;
    } else if (rolling) {
        p->Mr[i] = clab_v3(0.0, 0.0, 0.0);
    }
    store_v3(&p->Fc[i], Fb, stream);
    return Fb;
}

#ifdef CLAB_V2
/* contact_force of contacts i and i + 1 at once, both touching and between spheres, when the
 * step has one material pair pp, no rolling couples, no clamp, a tangential history, the cap
 * cone, total or lammps, and Hertz or Hooke with an explicit k_n (pair_lanes): lane l the operations of contact_force
 * for contact i + l in the same order, its branches as lane selects of both sides (each side
 * formed as there), so the same bits; the history's entries, Fc, and the forces on b into F */
static CLAB_ALWAYS_INLINE void contact_force2(penalty *p, const clab_contact *c0, const clab_contact *c1, size_t i,
                                              const clab_penalty_pair *pp, double h, int surface, clab_vec3 F[2])
{
    const pen_body *A0 = &p->f.pb[c0->a], *B0 = &p->f.pb[c0->b], *A1 = &p->f.pb[c1->a], *B1 = &p->f.pb[c1->b];
    const clab_penalty_law *law = &p->def.law;
    const clab_v2d zero = clab_v2_set1(0.0), inf = clab_v2_set1(INFINITY);
    const clab_v2d phi = {c0->phi, c1->phi}, delta_n = -phi;
    const clab_v2v3 n = clab_v2v3_pair(c0->n, c1->n);
    /* clab_penalty_meff: a fixed a gives m_b, else a fixed b m_a */
    const clab_v2d ma = {A0->m, A1->m}, mb = {B0->m, B1->m};
    const clab_v2d m_eff = clab_v2_select(ma == inf, mb, clab_v2_select(mb == inf, ma, ma * mb / (ma + mb)));
    /* the lever arms of spheres, and the relative velocity of the contact point */
    const clab_v2d Ra = {A0->R, A1->R}, Rb = {B0->R, B1->R};
    const clab_v2v3 la = clab_v2v3_scale(n, surface ? Ra : Ra + 0.5 * phi);
    const clab_v2v3 lb = clab_v2v3_scale(n, -(surface ? Rb : Rb + 0.5 * phi));
    const clab_v2v3 v = clab_v2v3_sub(
        clab_v2v3_add(clab_v2v3_pair(B0->rdot, B1->rdot), clab_v2v3_cross(clab_v2v3_pair(B0->omega, B1->omega), lb)),
        clab_v2v3_add(clab_v2v3_pair(A0->rdot, A1->rdot), clab_v2v3_cross(clab_v2v3_pair(A0->omega, A1->omega), la)));
    const clab_v2d vn = clab_v2v3_dot(v, n);
    const clab_v2v3 vt = clab_v2v3_madd(v, -vn, n);
    /* the history onto the tangent plane (a new contact's lane holds +0, which both turns give
     * back as the +0 contact_force starts from), plus the slip */
    const clab_vec3 *o0 = clab_history_at(&p->hist, i), *o1 = clab_history_at(&p->hist, i + 1);
    const clab_vec3 z3 = clab_v3(0.0, 0.0, 0.0);
    clab_v2v3 delta_t = clab_v2v3_pair(o0 ? *o0 : z3, o1 ? *o1 : z3);
    if (p->def.history_project) { /* clab_penalty_project_history */
        delta_t = clab_v2v3_madd(delta_t, -clab_v2v3_dot(delta_t, n), n);
    } else { /* clab_penalty_rotate_history */
        const clab_v2d len2 = clab_v2v3_norm2(delta_t);
        const clab_v2v3 pt = clab_v2v3_madd(delta_t, -clab_v2v3_dot(delta_t, n), n);
        const clab_v2d p2 = clab_v2v3_norm2(pt);
        const clab_v2v3 turned = clab_v2v3_select(p2 > zero, clab_v2v3_scale(pt, clab_v2_sqrt(len2 / p2)),
                                                  (clab_v2v3){zero, zero, zero});
        delta_t = clab_v2v3_select(len2 == zero, delta_t, turned);
    }
    if (!(p->def.history_zero && !p->started)) delta_t = clab_v2v3_madd(delta_t, clab_v2_set1(h), vt);
    /* clab_penalty_coefficients */
    clab_v2d kn, kt, cn, ct;
    if (law->model == CLAB_PENALTY_HOOKE) { /* k_n explicit (pair_lanes) */
        kn = clab_v2_set1(pp->kn);
        kt = clab_v2_set1(pp->kt > 0.0 ? pp->kt : 2.0 / 7.0 * pp->kn);
        cn = pp->gn >= 0.0 ? pp->gn * m_eff : -2.0 * pp->beta * clab_v2_sqrt(kn * m_eff);
        ct = pp->gt >= 0.0 ? pp->gt * m_eff : -2.0 * pp->beta * clab_v2_sqrt(kt * m_eff);
    } else {
        const clab_v2d ra = Ra, rb = Rb, lo = clab_v2_select(ra < rb, ra, rb), hi = clab_v2_select(ra < rb, rb, ra);
        const clab_v2d R_eff = clab_v2_select(hi > clab_v2_set1(DBL_MAX), lo, ra * rb / (ra + rb)); /* clab_penalty_reff */
        const clab_v2d srd = clab_v2_sqrt(R_eff * delta_n);
        kn = pp->kn > 0.0 ? pp->kn * clab_v2_sqrt(delta_n) : 4.0 / 3.0 * pp->Estar * srd;
        kt = pp->kt > 0.0 ? pp->kt * clab_v2_sqrt(delta_n) : 8.0 * pp->Gstar * srd;
        const double c = -2.0 * sqrt(5.0 / 6.0) * pp->beta;
        const clab_v2d cnd = c * clab_v2_sqrt(1.5 * kn * m_eff);
        cn = pp->gn >= 0.0 ? pp->gn * m_eff * clab_v2_sqrt(delta_n / R_eff) : cnd;
        ct = pp->gt >= 0.0      ? pp->gt * m_eff * clab_v2_sqrt(delta_n / R_eff)
             : pp->st_sn >= 0.0 ? cnd * pp->st_sn
                                : c * clab_v2_sqrt(kt * m_eff);
    }
    /* clab_penalty_contact_force, cap cone, total or lammps, no clamp, with history */
    const clab_v2d fn = kn * delta_n - cn * vn;
    const clab_v2d Fmax =
        pp->mu * clab_v2_select(fn > zero, fn, law->cap == CLAB_PENALTY_CAP_LAMMPS ? -fn : zero);
    clab_v2v3 ft = clab_v2v3_add(clab_v2v3_scale(delta_t, -kt), clab_v2v3_scale(vt, -ct));
    const clab_v2d ftn = clab_v2v3_norm(ft);
    ft = clab_v2v3_scale(ft, clab_v2_min(Fmax / ftn, clab_v2_set1(1.0)));
    /* sliding: the spring alone holds F_t (cone), or spring and dashpot together (total, lammps) */
    const clab_v2v3 held = law->cap == CLAB_PENALTY_CAP_CONE ? ft : clab_v2v3_add(ft, clab_v2v3_scale(vt, ct));
    const clab_v2v3 dslide = clab_v2v3_select(kt > zero, clab_v2v3_scale(held, -1.0 / kt), (clab_v2v3){zero, zero, zero});
    delta_t = clab_v2v3_select(ftn > Fmax, dslide, delta_t);
    clab_history_put_at(&p->hist, i, c0->key, clab_v2v3_lane(delta_t, 0));
    clab_history_put_at(&p->hist, i + 1, c1->key, clab_v2v3_lane(delta_t, 1));
    /* F on b */
    const clab_v2v3 Fb = clab_v2v3_madd(ft, fn, n);
    F[0] = clab_v2v3_lane(Fb, 0), F[1] = clab_v2v3_lane(Fb, 1);
    store_v3(&p->Fc[i], F[0], 1);
    store_v3(&p->Fc[i + 1], F[1], 1);
}

/* the step's contacts can go two at a time (contact_force2): one material pair, no rolling
 * couples, no clamp, a tangential history, the cap cone, total or lammps, Hertz or Hooke with
 * an explicit k_n */
static inline int pair_lanes(const penalty *p, const clab_penalty_pair *pair1, int rolling)
{
    return pair1 && !rolling && !p->def.law.clamp && !p->def.law.history_off &&
           p->def.law.cap != CLAB_PENALTY_CAP_SPRING &&
           (p->def.law.model == CLAB_PENALTY_HERTZ || pair1->kn > 0.0);
}

/* contacts i and i + 1 both touching, between spheres */
static inline int spheres_touching2(const pen_body *pb, const clab_contact *c0, const clab_contact *c1)
{
    return -c0->phi > 0.0 && -c1->phi > 0.0 && pen_sphere(&pb[c0->a]) && pen_sphere(&pb[c0->b]) &&
           pen_sphere(&pb[c1->a]) && pen_sphere(&pb[c1->b]);
}
#endif


#endif
