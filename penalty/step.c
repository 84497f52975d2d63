/* step.c: the penalty backend's plain step (option fast=off): single-threaded, one contact at
 * a time, the penalty method as Tasora's notes on DEM-P in Chrono write it (the spring-dashpot
 * force law with a tangential displacement history capped by Coulomb friction; the
 * references in doc/penalty.md), then the semi-implicit Euler update of every body.
 *
 * For each contact i between bodies a < b, with normal n from a to b and gap Phi:
 *   1. overlap delta_n = -Phi; no force when delta_n <= 0 (the contact keeps no history);
 *   2. lever arms l_a, l_b from the centers to the contact point P, and the relative velocity
 *      of P, v = (rdot_b + omega_b x l_b) - (rdot_a + omega_a x l_a), split into
 *      v_n = v . n and v_t = v - v_n n;
 *   3. the history delta_t of the last step turned onto the current tangent plane, plus
 *      h v_t (the tangential displacement while the contact lasts);
 *   4. F_n = k_n delta_n - c_n v_n and F_t = -k_t delta_t - c_t v_t with |F_t| <= mu F_n
 *      (force_law.h: Hooke or Hertz-Mindlin coefficients, the Coulomb cap rescales delta_t);
 *   5. F = F_n n + F_t acts on b, -F on a; the torques l x F summed on each body.
 * Then each free body: v += h M^-1 (f_applied + F), q += h v (integrator.h).
 *
 * The fast path (fast_step.c) computes the same to the bit; the sums below therefore keep its
 * conventions: a sphere's lever lies on the normal (l_a = (R_a + Phi/2) n, l_b =
 * -(R_b + Phi/2) n), its torque summed in the world frame and turned into its own frame once;
 * any other body's torque summed in its own frame. Each body's terms are added in contact
 * order; the fast path's sums agree with these to the bit when the contacts run by body a,
 * as clab_collide writes them (the only contacts clab_sim_step passes). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "penalty.h"

/* the angular velocity of body b in the world frame, A(e) wbar; a still sphere at the identity
 * (sphere_orientation=off) needs no turn: wbar */
static clab_vec3 omega_world(const penalty *p, const clab_body *b)
{
    if (p->def.orientation_off && clab_penalty_still_of(b) == PEN_STILL_IDENTITY) return b->wbar;
    return clab_body_omega_world(b);
}

/* the lever arm of side as_b (1: body b, 0: body a) of contact ci, world frame: to the contact
 * point P (a sphere: on the normal, (R + Phi/2) n as a, -(R + Phi/2) n as b; any other body:
 * A(e) sbar), or with lever=surface to the body's own surface point P -+ Phi/2 n */
static clab_vec3 lever_arm(const penalty *p, const clab_world *w, const clab_contacts *c, const clab_contact *ci,
                           int as_b)
{
    const clab_body *J = &w->bodies[as_b ? ci->b : ci->a];
    const int surface = p->def.lever_surface;
    if (J->shape.type == CLAB_SHAPE_SPHERE) {
        const double R = J->shape.radius, hk = surface ? R : R + 0.5 * ci->phi;
        return clab_v3_scale(ci->n, as_b ? -hk : hk);
    }
    clab_vec3 sa, sb;
    clab_contact_levers(ci, c->lv, w->bodies, &sa, &sb);
    clab_vec3 l = clab_q_rotate(J->e, as_b ? sb : sa);
    if (surface) l = clab_v3_madd(l, (as_b ? 0.5 : -0.5) * ci->phi, ci->n);
    return l;
}

/* Contact i, touching (delta_n = -Phi > 0): the force on b F = F_n n + F_t [N] (returned and
 * kept in Fc[i]), the new delta_t (history entry i) and, with rolling=cdt, the rolling couple
 * on b (Mr[i]). Steps 2 to 5 of the header. */
static clab_vec3 contact_force(penalty *p, const clab_world *w, const clab_contacts *c, size_t i, double h)
{
    const clab_contact *ci = &c->c[i];
    const clab_body *A = &w->bodies[ci->a], *B = &w->bodies[ci->b];
    const clab_penalty_def *d = &p->def;
    const clab_penalty_pair *pp = &p->pairs[(size_t)A->material * p->nmat + (size_t)B->material];
    const double delta_n = -ci->phi;
    const double m_eff = clab_penalty_meff(A->m, A->fixed, B->m, B->fixed);
    /* R* (Hooke with an explicit k_n does not read it) */
    const double R_eff = d->law.model == CLAB_PENALTY_HOOKE && pp->kn > 0.0
                             ? NAN
                             : clab_penalty_reff(clab_penalty_contact_radius(&A->shape),
                                                 clab_penalty_contact_radius(&B->shape));

    /* 2. the relative velocity of the contact point, b with respect to a */
    const clab_vec3 la = lever_arm(p, w, c, ci, 0), lb = lever_arm(p, w, c, ci, 1);
    const clab_vec3 wa = omega_world(p, A), wb = omega_world(p, B);
    const clab_vec3 v =
        clab_v3_sub(clab_v3_add(B->rdot, clab_v3_cross(wb, lb)), clab_v3_add(A->rdot, clab_v3_cross(wa, la)));
    const double vn = clab_v3_dot(v, ci->n);
    const clab_vec3 vt = clab_v3_madd(v, -vn, ci->n);

    /* 3. last step's delta_t onto the current tangent plane, plus this step's slip (none at
     * the first step with history_start=zero: the initial state has no history) */
    const clab_vec3 *old = clab_history_at(&p->hist, i);
    clab_vec3 delta_t = !old                 ? clab_v3(0.0, 0.0, 0.0)
                        : d->history_project ? clab_penalty_project_history(*old, ci->n)
                                             : clab_penalty_rotate_history(*old, ci->n);
    if (!(d->history_zero && !p->started)) delta_t = clab_v3_madd(delta_t, h, vt);

    /* 4. the spring-dashpot with the Coulomb cap */
    const clab_penalty_coef k = clab_penalty_coefficients(&d->law, pp, delta_n, m_eff, R_eff);
    double Fn;
    clab_vec3 Ft;
    clab_penalty_contact_force(&d->law, k, pp->mu, delta_n, vn, vt, &delta_t, &Fn, &Ft);
    clab_history_put_at(&p->hist, i, ci->key, delta_t);

    /* 5. F on b (-F on a); the optional rolling resistance, a pure couple */
    const clab_vec3 F = clab_v3_madd(Ft, Fn, ci->n);
    if (d->law.rolling == CLAB_PENALTY_ROLL_CDT) {
        clab_vec3 M = clab_v3(0.0, 0.0, 0.0);
        if (pp->mu_roll > 0.0) {
            const clab_vec3 wrel = clab_v3_sub(wb, wa);
            const clab_vec3 axis = clab_v3_normalize(clab_v3_madd(wrel, -clab_v3_dot(wrel, ci->n), ci->n));
            M = clab_penalty_rolling_torque(pp->mu_roll, Fn, wrel, ci->n, clab_penalty_inv_inertia_about(A, axis),
                                            clab_penalty_inv_inertia_about(B, axis), h);
        }
        p->Mr[i] = M;
    }
    p->Fc[i] = F;
    return F;
}

/* Contact ci's force F on b and couple M (rolling) added to the sums of side as_b (1: body b,
 * +F and +M; 0: body a, -F and -M): the torque l x (+-F) of a sphere as -h (n x F), h = R +
 * Phi/2 (R, lever=surface), in the world frame; any other body's lbar x (A^T (+-F)) in its own
 * frame, lbar = sbar (moved to its surface point with lever=surface) */
static void add_to_body(const penalty *p, const clab_world *w, const clab_contacts *c, const clab_contact *ci,
                        int as_b, clab_vec3 F, clab_vec3 M)
{
    const size_t j = (size_t)(as_b ? ci->b : ci->a);
    const clab_body *J = &w->bodies[j];
    const int surface = p->def.lever_surface, rolling = p->def.law.rolling == CLAB_PENALTY_ROLL_CDT;
    clab_vec3 *Fj = &p->F[j], *tj = &p->tau[j];
    *Fj = as_b ? clab_v3_add(*Fj, F) : clab_v3_sub(*Fj, F);
    if (J->shape.type == CLAB_SHAPE_SPHERE) {
        const double R = J->shape.radius, hk = surface ? R : R + 0.5 * ci->phi;
        *tj = clab_v3_madd(*tj, -hk, clab_v3_cross(ci->n, F));
    } else {
        const clab_mat33 Aj = clab_q_to_A(J->e);
        clab_vec3 sa, sb;
        clab_contact_levers(ci, c->lv, w->bodies, &sa, &sb);
        clab_vec3 l = as_b ? sb : sa;
        if (surface) l = clab_v3_madd(l, (as_b ? 0.5 : -0.5) * ci->phi, clab_m33_tmulv(Aj, ci->n));
        const clab_vec3 torque = clab_v3_cross(l, clab_m33_tmulv(Aj, F));
        *tj = as_b ? clab_v3_add(*tj, torque) : clab_v3_sub(*tj, torque);
        M = clab_m33_tmulv(Aj, M);
    }
    if (rolling) *tj = as_b ? clab_v3_add(*tj, M) : clab_v3_sub(*tj, M);
}

/* the arrays of a step with nb bodies and nc contacts; 0 on success */
static int reserve(penalty *p, size_t nb, size_t nc)
{
    if (clab_penalty_grow(&p->Fc, &p->cap_forces, nc, sizeof(clab_vec3))) return 1;
    if (p->def.law.rolling == CLAB_PENALTY_ROLL_CDT && clab_penalty_grow(&p->Mr, &p->cap_mr, nc, sizeof(clab_vec3)))
        return 1;
    size_t cap = p->cap_sums;
    if (clab_penalty_grow(&p->F, &cap, nb, sizeof(clab_vec3))) return 1;
    if (cap != p->cap_sums) {
        clab_vec3 *t = realloc(p->tau, cap * sizeof *t);
        if (!t) return 1;
        p->tau = t;
        p->cap_sums = cap;
    }
    return 0;
}

int clab_penalty_plain_step(penalty *p, clab_world *w, const clab_contacts *c, double h, clab_error *err)
{
    int rc = clab_penalty_ready(p, w, c->n, err);
    if (rc) return rc;
    const size_t nb = w->nbodies, nc = c->n;
    if (reserve(p, nb, nc))
        return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory for %zu bodies, %zu contacts", nb, nc);
    /* entry i of the history becomes contact i's (history.h) */
    if ((rc = clab_history_align(&p->hist, c->c, nc, c->increasing, NULL, 0, err))) return rc;
    const clab_vec3 zero = clab_v3(0.0, 0.0, 0.0);
    for (size_t j = 0; j < nb; j++) p->F[j] = p->tau[j] = zero;

    /* every contact: its force, summed on its two bodies */
    int dropped = 0;
    for (size_t i = 0; i < nc; i++) {
        const clab_contact *ci = &c->c[i];
        clab_vec3 F = zero, M = zero;
        if (-ci->phi > 0.0) {
            F = contact_force(p, w, c, i, h);
            if (p->def.law.rolling == CLAB_PENALTY_ROLL_CDT) M = p->Mr[i];
        } else { /* 1. inside the envelope but not touching: no force, no history */
            clab_history_drop_at(&p->hist, i);
            p->Fc[i] = zero;
            if (p->def.law.rolling == CLAB_PENALTY_ROLL_CDT) p->Mr[i] = zero;
            dropped = 1;
        }
        add_to_body(p, w, c, ci, 1, F, M);
        add_to_body(p, w, c, ci, 0, F, M);
    }

    /* every free body: the explicit update under its sums and the applied forces */
    const int first = !p->started;
    for (size_t j = 0; j < nb; j++) {
        if (w->bodies[j].fixed) continue;
        if (w->loads) clab_penalty_load_kick(w, j, h, p->def.integrator, first);
        const unsigned char still = p->def.orientation_off ? clab_penalty_still_of(&w->bodies[j]) : PEN_TURNS;
        clab_penalty_body_update(w, j, still, p->F[j], p->tau[j], h, p->def.integrator, first);
    }

    /* the history of the contacts that touched stays, the rest goes */
    clab_history_close(&p->hist, nc, !dropped, c->increasing);
    p->nforces = nc;
    p->started = 1;
    p->steps++;
    return CLAB_OK;
}
