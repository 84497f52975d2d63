/* step.c: one time step of the DVI backend, the Tasora-Anitescu stepper of Eq. (5) of seed 000
 * (half-implicit symplectic Euler with the cone complementarity problem of Eq. (10)).
 *
 * One step from (q(l), v(l)), given the contacts of q(l) with Phi < delta_K:
 *   1. free velocity v* = v(l) + M^-1 f(l), f(l) = h (gravity, -wbar x Jbar wbar)   (Eq. 5b, 9)
 *   2. the CCP of Eq. (10) (ccp.c): D_i, G_j, p_i = d_{i,0} + D_i^T v*, b_{j,0} = g_j/h + G_j^T v*,
 *      d_{i,0} = [max(Phi_i/h, -recovery_speed), 0, 0]: the stabilization Phi/h, capped; the
 *      relaxation mu v_T of Eq. (5d) is what makes it a CCP on the cone K_i
 *      (optionally the Lacoursiere-Servin regularization of the normal rows, regularize.c)
 *   3. solve it for nu = [gamma; lambda] (impulses), warm-started by contact key, by the
 *      plain solvers (plain_solvers.c, fast=off) or the fast ones (fast_*.c, fast=on); with
 *      friction=exact by De Saxce's fixed point around them (friction_exact.c, fast path)
 *   4. v(l+1) = v* + M^-1 D nu                                                     (Eq. 9)
 *   5. q(l+1) = q(l) + h L(q(l)) v(l+1)                                            (Eq. 5a)
 * Forces are reported as gamma_i / h [N] in the contact frame (n, u, w). */
#include <stdlib.h>
#include <string.h>

#include "ccp_fast.h"
#include "dvi_internal.h"
#include "plain.h"

/* the contact frame of contact i as a rotation: world = [n u w] local */
static clab_vec3 to_world(const clab_contact *c, const double *g)
{
    clab_vec3 tu, tw;
    clab_contact_frame(c, &tu, &tw);
    return clab_v3_add(clab_v3_add(clab_v3_scale(c->n, g[0]), clab_v3_scale(tu, g[1])), clab_v3_scale(tw, g[2]));
}

/* initial guess: the last step's impulse of the same contact key, in the new frame */
void clab_dvi_warm_guess(const clab_dvi *s, const clab_world *w, const clab_contacts *c, double *nu)
{
    const clab_ccp *P = &s->ccp;
    memset(nu, 0, P->n * sizeof *nu);
    if (!s->warm_start) return;
    for (size_t i = 0; i < P->ncontacts; i++) {
        const clab_vec3 *F = clab_warm_get(&s->warm, c->c[i].key);
        if (!F) continue;
        clab_vec3 tu, tw;
        clab_contact_frame(&c->c[i], &tu, &tw);
        nu[3 * i] = clab_v3_dot(*F, c->c[i].n);
        nu[3 * i + 1] = clab_v3_dot(*F, tu);
        nu[3 * i + 2] = clab_v3_dot(*F, tw);
    }
    if (s->warm.nlambda == P->njoint_rows && w->njoints > 0)
        memcpy(&nu[3 * P->ncontacts], s->warm.lambda, P->njoint_rows * sizeof *nu);
}

/* keep this step's impulses for the next one */
int clab_dvi_warm_store(clab_dvi *s, const clab_contacts *c)
{
    const clab_ccp *P = &s->ccp;
    if (clab_warm_reset(&s->warm, P->ncontacts) || clab_warm_joint_rows(&s->warm, P->njoint_rows)) return CLAB_ENOMEM;
    for (size_t i = 0; i < P->ncontacts; i++) clab_warm_put(&s->warm, c->c[i].key, to_world(&c->c[i], &s->nu[3 * i]));
    if (P->njoint_rows > 0) memcpy(s->warm.lambda, &s->nu[3 * P->ncontacts], P->njoint_rows * sizeof *s->nu);
    return CLAB_OK;
}

/* 1. v* = v(l) + M^-1 f(l) for every body, keeping v(l) in s->v_saved (restored on failure) */
void clab_dvi_free_velocity(clab_dvi *s, clab_world *w, double h)
{
    for (size_t k = 0; k < w->nbodies; k++) {
        clab_body *b = &w->bodies[k];
        double *v = &s->v_saved[6 * k];
        v[0] = b->rdot.x, v[1] = b->rdot.y, v[2] = b->rdot.z;
        v[3] = b->wbar.x, v[4] = b->wbar.y, v[5] = b->wbar.z;
        clab_vec3 F, taubar;
        clab_world_applied(w, k, &F, &taubar);
        clab_body_kick(b, F, taubar, h);
    }
}

/* 3. nu from the warm start; an iteration-limit hit is counted, not an error */
static int solve(clab_dvi *s, const clab_world *w, const clab_contacts *c, clab_error *err)
{
    const clab_ccp *P = &s->ccp;
    clab_dvi_warm_guess(s, w, c, s->nu);
    clab_error sub;
    clab_error_clear(&sub);
    int rc;
    /* friction=exact: De Saxce's fixed point around the same solver; a non-convex problem,
     * so its failures to converge are counted, not fatal (friction_exact.h) */
    if (s->exact.friction == CLAB_FRICTION_EXACT)
        rc = clab_exact_solve(&s->exact, &s->ccp, s->solver, &s->opt, s->nu, &s->work, &s->last, &sub);
    else
        rc = s->solver->solve(P, &s->opt, s->nu, &s->work, &s->last, &sub);
    s->solves++;
    s->total_iterations += s->last.iterations;
    if (rc == CLAB_EMAXITER) {
        s->maxiter_hits++;
        rc = CLAB_OK;
    } else if (rc) {
        clab_error_set(err, rc, "%s (step at t = %.9g s, %zu contacts, %zu joint rows)", sub.msg, w->t, P->ncontacts,
                       P->njoint_rows);
    }
    return rc;
}

/* 4. v(l+1) = v* + M^-1 D nu (Eq. 9), with d = N nu + p for the diagnostics */
static void update_velocity(clab_dvi *s, clab_world *w)
{
    const clab_ccp *P = &s->ccp;
    if (s->fast) {
        clab_ccp_minv_P(P, s->nu, s->u); /* rdot change, wbar change */
        clab_ccp_Pt(P, s->u, s->nu, s->d);
    } else {
        clab_ccp_plain_N(P, s->nu, s->u, s->d);
        clab_ccp_plain_dv(P, s->nu, s->u); /* rdot change, wbar change */
    }
    for (size_t k = 0; k < P->n; k++) s->d[k] += P->p[k];
    clab_ccp_diagnose(P, s->nu, s->d, &s->diag);
    for (size_t k = 0; k < w->nbodies; k++) {
        clab_body *b = &w->bodies[k];
        const double *du = &s->u[6 * k];
        if (b->fixed) continue;
        b->rdot = clab_v3_add(b->rdot, clab_v3(du[0], du[1], du[2]));
        b->wbar = clab_v3_add(b->wbar, clab_v3(du[3], du[4], du[5]));
    }
}

int clab_dvi_step(void *self, clab_world *w, const clab_contacts *c, double h, clab_error *err)
{
    clab_dvi *s = self;
    if (s->ranks) return clab_dvi_ranks_step(s, w, c, h, err); /* the rank's part (split_step.c) */
    size_t nb = w->nbodies;
    if (clab_ccp_grow(&s->u, &s->cap_u, 6 * nb) || clab_ccp_grow(&s->v_saved, &s->cap_v, 6 * nb))
        return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory (%zu bodies)", nb);
    clab_dvi_free_velocity(s, w, h);
    /* 2. the CCP of Eq. (10), regularized when asked (Lacoursiere-Servin, regularize.h) */
    int rc = clab_ccp_build(&s->ccp, w, c, h, s->recovery_speed, err);
    if (!rc) clab_dvi_reg_apply(&s->reg, &s->ccp, w, c, s->v_saved, h);
    const clab_ccp *P = &s->ccp;
    if (!rc && clab_ccp_grow(&s->nu, &s->cap_nu, P->n)) rc = clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory");
    if (!rc && clab_ccp_grow(&s->d, &s->cap_d, P->n)) rc = clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory");
    s->h = h;
    memset(&s->last, 0, sizeof s->last);
    memset(&s->diag, 0, sizeof s->diag);
    if (!rc && P->n > 0) rc = solve(s, w, c, err);
    if (rc) { /* leave the world as it was */
        for (size_t k = 0; k < nb; k++) {
            const double *v = &s->v_saved[6 * k];
            w->bodies[k].rdot = clab_v3(v[0], v[1], v[2]);
            w->bodies[k].wbar = clab_v3(v[3], v[4], v[5]);
        }
        return rc;
    }
    if (P->n > 0) update_velocity(s, w);
    /* 5. q(l+1) = q(l) + h L(q(l)) v(l+1) */
    for (size_t k = 0; k < nb; k++) clab_body_drift(&w->bodies[k], h);
    if (clab_dvi_warm_store(s, c)) return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory storing warm-start impulses");
    return CLAB_OK;
}
