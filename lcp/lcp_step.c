/* lcp_step.c: one time step of the LCP backend, the Stewart-Trinkle / Anitescu-Potra stepper
 * (Stewart 2000, Sect. 4; lcp_internal.h), with the DVI backend's semi-implicit frame:
 *   1. free velocity v* = v(l) + h M^-1 f(l) (gravity, gyroscopic term), as dvi/step.c
 *   2. the rows n, u, w per contact and the joint rows, p = P^T v* + (max(Phi/h,
 *      -recovery_speed), 0, 0) and g/h for joints (clab_ccp_build of dvi/ccp.c: the
 *      stabilization of the DVI backend)
 *   3. the LCP in (c_n, beta, lambda) by pgs (lcp_pgs.c) or Lemke (lcp_lemke.c)
 *   4. v(l+1) = v* + M^-1 (N c_n + D beta + G lambda_J) = v* + M^-1 P nu
 *   5. q(l+1) = q(l) + h L(q(l)) v(l+1)
 * Forces are reported as nu_i / h = (c_n, (D beta).u, (D beta).w) / h [N]. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp_internal.h"
#include "plain.h"

/* the initial z, nu: the last step's impulses by contact key (pgs, or lemke with
 * lemke_start=pgs, with warm_start=on), else 0 */
static void initial_guess(clab_lcp *s, const clab_world *w, const clab_contacts *c)
{
    const clab_ccp *P = &s->ccp;
    const int k = s->cone.k, m = k + 2;
    memset(s->z, 0, (size_t)m * P->ncontacts * sizeof *s->z);
    memset(s->nu, 0, P->n * sizeof *s->nu);
    if (!s->warm_start || (s->solver != CLAB_LCP_PGS && s->lemke_start != CLAB_LCP_START_PGS)) return;
    for (size_t i = 0; i < P->ncontacts; i++) {
        const clab_vec3 *F = clab_warm_get(&s->warm, c->c[i].key);
        if (!F) continue;
        clab_vec3 tu, tw;
        clab_contact_frame(&c->c[i], &tu, &tw);
        double *zi = &s->z[(size_t)m * i];
        zi[0] = fmax(clab_v3_dot(*F, c->c[i].n), 0.0);
        clab_lcp_split(&s->cone, clab_v3_dot(*F, tu), clab_v3_dot(*F, tw), &zi[1]);
        double sum = 0.0, cap = P->blocks[i].mu * zi[0];
        for (int j = 0; j < k; j++) sum += zi[1 + j];
        if (sum > cap) /* into the polygon mu c_n conv(d_j) */
            for (int j = 0; j < k; j++) zi[1 + j] *= cap / sum;
        clab_lcp_gamma(&s->cone, zi, &s->nu[3 * i]);
    }
    if (s->warm.nlambda == P->njoint_rows && w->njoints > 0)
        memcpy(&s->nu[3 * P->ncontacts], s->warm.lambda, P->njoint_rows * sizeof *s->nu);
}

static int warm_store(clab_lcp *s, const clab_contacts *c)
{
    const clab_ccp *P = &s->ccp;
    if (clab_warm_reset(&s->warm, P->ncontacts) || clab_warm_joint_rows(&s->warm, P->njoint_rows)) return CLAB_ENOMEM;
    for (size_t i = 0; i < P->ncontacts; i++) {
        clab_vec3 tu, tw;
        const double *g = &s->nu[3 * i];
        clab_contact_frame(&c->c[i], &tu, &tw);
        clab_warm_put(&s->warm, c->c[i].key,
                      clab_v3_add(clab_v3_add(clab_v3_scale(c->c[i].n, g[0]), clab_v3_scale(tu, g[1])), clab_v3_scale(tw, g[2])));
    }
    if (P->njoint_rows > 0) memcpy(s->warm.lambda, &s->nu[3 * P->ncontacts], P->njoint_rows * sizeof *s->nu);
    return CLAB_OK;
}

/* 3. solve; the statistics; the diagnostics against d = N nu + p */
static int solve(clab_lcp *s, const clab_world *w, const clab_contacts *c, clab_error *err)
{
    const clab_ccp *P = &s->ccp;
    initial_guess(s, w, c);
    clab_error sub;
    clab_error_clear(&sub);
    int rc;
    if (s->solver == CLAB_LCP_LEMKE && s->lemke_start == CLAB_LCP_START_PGS) {
        /* the guess of Lemke's warm start: pgs' answer (to tol or max_iter sweeps) */
        rc = clab_lcp_pgs(s, &sub);
        if (rc == CLAB_EMAXITER) rc = CLAB_OK;
        if (!rc) rc = clab_lcp_lemke(s, &sub);
    } else {
        rc = s->solver == CLAB_LCP_PGS ? clab_lcp_pgs(s, &sub) : clab_lcp_lemke(s, &sub);
    }
    s->solves++;
    s->total_iterations += s->iterations;
    if (rc == CLAB_EMAXITER) {
        s->maxiter_hits++;
        rc = CLAB_OK;
    } else if (rc) {
        return clab_error_set(err, rc, "%s (step at t = %.9g s, %zu contacts, %zu joint rows)", sub.msg, w->t,
                              P->ncontacts, P->njoint_rows);
    }
    if (s->solver == CLAB_LCP_LEMKE) {
        clab_ccp_plain_N(P, s->nu, s->u, s->d);
        for (size_t q = 0; q < P->n; q++) s->d[q] += P->p[q];
        s->residual = clab_lcp_residual(&s->cone, P, s->z, s->d, &s->outside_cone, &s->outside_dual,
                                        &s->complementarity);
    }
    return rc;
}

int clab_lcp_step(void *self, clab_world *w, const clab_contacts *c, double h, clab_error *err)
{
    clab_lcp *s = self;
    const size_t nb = w->nbodies;
    if (clab_ccp_grow(&s->u, &s->cap_u, 6 * nb) || clab_ccp_grow(&s->v_saved, &s->cap_v, 6 * nb))
        return clab_error_set(err, CLAB_ENOMEM, "lcp: out of memory (%zu bodies)", nb);
    /* 1. v* = v(l) + h M^-1 f(l), keeping v(l) */
    for (size_t k = 0; k < nb; k++) {
        clab_body *b = &w->bodies[k];
        double *v = &s->v_saved[6 * k];
        v[0] = b->rdot.x, v[1] = b->rdot.y, v[2] = b->rdot.z;
        v[3] = b->wbar.x, v[4] = b->wbar.y, v[5] = b->wbar.z;
        clab_vec3 F, taubar;
        clab_world_applied(w, k, &F, &taubar);
        clab_body_kick(b, F, taubar, h);
    }
    /* 2. rows and p with the stabilization Phi/h (dvi/ccp.c) */
    int rc = clab_ccp_build(&s->ccp, w, c, h, s->recovery_speed, err);
    const clab_ccp *P = &s->ccp;
    const size_t m = (size_t)s->cone.k + 2;
    if (!rc && (clab_ccp_grow(&s->z, &s->cap_z, m * P->ncontacts + 1) || clab_ccp_grow(&s->nu, &s->cap_nu, 2 * P->n + 1)))
        rc = clab_error_set(err, CLAB_ENOMEM, "lcp: out of memory (%zu contacts)", P->ncontacts);
    s->d = s->nu + P->n;
    s->h = h;
    s->iterations = 0;
    s->residual = s->outside_cone = s->outside_dual = s->complementarity = 0.0;
    s->nhistory = 0;
    if (!rc && P->n > 0) rc = solve(s, w, c, err);
    if (rc) { /* leave the world as it was */
        for (size_t k = 0; k < nb; k++) {
            const double *v = &s->v_saved[6 * k];
            w->bodies[k].rdot = clab_v3(v[0], v[1], v[2]);
            w->bodies[k].wbar = clab_v3(v[3], v[4], v[5]);
        }
        return rc;
    }
    if (P->n > 0) { /* 4. v(l+1) = v* + M^-1 P nu */
        clab_ccp_plain_dv(P, s->nu, s->u);
        for (size_t k = 0; k < nb; k++) {
            clab_body *b = &w->bodies[k];
            const double *du = &s->u[6 * k];
            if (b->fixed) continue;
            b->rdot = clab_v3_add(b->rdot, clab_v3(du[0], du[1], du[2]));
            b->wbar = clab_v3_add(b->wbar, clab_v3(du[3], du[4], du[5]));
        }
    }
    /* 5. q(l+1) = q(l) + h L(q(l)) v(l+1) */
    for (size_t k = 0; k < nb; k++) clab_body_drift(&w->bodies[k], h);
    if (warm_store(s, c)) return clab_error_set(err, CLAB_ENOMEM, "lcp: out of memory storing warm-start impulses");
    return CLAB_OK;
}
