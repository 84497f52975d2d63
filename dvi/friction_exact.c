/* friction_exact.c: exact Coulomb friction for the DVI backend, De Saxce's fixed point around
 * the CCP of Eq. (10) of seed 000 (see friction_exact.h for the problem (E), the iteration
 * and why it is not convex). */
#include "friction_exact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cone.h"

static const char *const friction_names[] = {"relaxed", "exact", NULL};
static const char *const update_names[] = {"outer", "inner", NULL};

void clab_exact_init(clab_friction_exact *x)
{
    memset(x, 0, sizeof *x);
    x->friction = CLAB_FRICTION_RELAXED;
    x->update = CLAB_EXACT_OUTER;
    x->tol = 1e-6;
    x->max_outer = 100;
    x->omega = 1.0;
}

void clab_exact_free(clab_friction_exact *x)
{
    free(x->p0);
    free(x->d);
    free(x->u);
    free(x->history);
    clab_exact_init(x);
}

int clab_exact_options(clab_friction_exact *x, clab_options *opt, clab_error *err)
{
    if (clab_options_choice(opt, "friction", friction_names, &x->friction, err) ||
        clab_options_choice(opt, "exact_update", update_names, &x->update, err) ||
        clab_options_double(opt, "exact_tol", 0.0, 1e3, &x->tol, err) ||
        clab_options_int(opt, "exact_max_outer", 1, 1000000, &x->max_outer, err) ||
        clab_options_double(opt, "exact_omega", 1e-3, 1.0, &x->omega, err))
        return CLAB_EINVAL;
    return CLAB_OK;
}

/* mu_i |d_T,i|: the De Saxce shift of contact block i for composite velocity g */
static inline double shift_of(double mu, const double g[3]) { return mu * sqrt(g[1] * g[1] + g[2] * g[2]); }

void clab_desaxce_block(const clab_ccp *P, const double *p0, size_t i, double g[3])
{
    const clab_ccp_block *bl = &P->blocks[i];
    if (bl->kind != CLAB_CCP_CONE) return;
    size_t q = bl->first;
    double pn = p0[q] + shift_of(bl->mu, g);
    g[0] += pn - P->p[q];
    P->p[q] = pn; /* P is const, its arrays are not: the one documented write of a solve */
}

void clab_desaxce_all(const clab_ccp *P, const double *p0, double *d)
{
    for (size_t i = 0; i < P->ncontacts; i++) clab_desaxce_block(P, p0, i, &d[P->blocks[i].first]);
}

/* the natural map of (E) per block, scaled by t_k as in residual.c */
double clab_ccp_residual_exact(const clab_ccp *P, const double *nu, const double *d)
{
    double r = 0.0;
    for (size_t i = 0; i < P->nblocks; i++) {
        const clab_ccp_block *bl = &P->blocks[i];
        const double *x = &nu[bl->first], *g = &d[bl->first];
        double e2 = 0.0;
        if (bl->kind == CLAB_CCP_FREE || !(bl->t_res > 0.0)) {
            for (int k = 0; k < bl->size; k++) e2 += g[k] * g[k];
        } else {
            /* modified velocity y = d_i + [mu |d_T|, 0, 0], then gamma - Proj_K(gamma - t y) */
            double t = bl->t_res;
            double y0 = g[0] + shift_of(bl->mu, g);
            double z[3] = {x[0] - t * y0, x[1] - t * g[1], x[2] - t * g[2]};
            clab_cone_project(bl->mu, z);
            for (int k = 0; k < 3; k++) {
                double e = (x[k] - z[k]) / t;
                e2 += e * e;
            }
        }
        double e = sqrt(e2);
        if (!(e <= r)) r = e; /* NaN propagates */
    }
    return r;
}

/* append a solve's residual history to the step's */
static int append_history(clab_friction_exact *x, const clab_ccp_result *sub)
{
    if (sub->nhistory == 0) return CLAB_OK;
    if (clab_ccp_grow(&x->history, &x->cap_history, x->nhistory + sub->nhistory)) return CLAB_ENOMEM;
    memcpy(&x->history[x->nhistory], sub->history, sub->nhistory * sizeof *x->history);
    x->nhistory += sub->nhistory;
    return CLAB_OK;
}

/* Outer De Saxce fixed point on s (friction_exact.h): s^0 from the guess, then one CCP solve
 * per outer iteration, each started from the previous one's impulses. */
int clab_exact_solve(clab_friction_exact *x, clab_ccp *P, const clab_ccp_solver_type *solver,
                     const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res, clab_error *err)
{
    size_t n = P->n;
    memset(res, 0, sizeof *res);
    x->outer = 0;
    x->nhistory = 0;
    x->change = 0.0;
    x->residual = 0.0;
    x->converged = 1;
    if (clab_ccp_grow(&x->p0, &x->cap_p0, n) || clab_ccp_grow(&x->d, &x->cap_d, n) || clab_ccp_grow(&x->u, &x->cap_u, 6 * P->nbodies))
        return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory for exact friction (%zu unknowns)", n);
    memcpy(x->p0, P->p, n * sizeof *P->p);

    /* s^0 = mu |d_T| at the guess (projected onto C, as every solver does first) */
    clab_ccp_project(P, nu);
    clab_ccp_d(P, nu, x->u, x->d);
    for (size_t i = 0; i < P->ncontacts; i++) {
        const clab_ccp_block *bl = &P->blocks[i];
        P->p[bl->first] = x->p0[bl->first] + shift_of(bl->mu, &x->d[bl->first]);
    }

    clab_ccp_options oi = *o;
    oi.desaxce_p0 = x->update == CLAB_EXACT_INNER ? x->p0 : NULL;
    int rc = CLAB_OK;
    clab_ccp_result sub;
    for (long k = 1; k <= x->max_outer; k++) {
        clab_error e;
        clab_error_clear(&e);
        rc = solver->solve(P, &oi, nu, W, &sub, &e);
        x->outer = k;
        res->iterations += sub.iterations;
        res->residual = sub.residual;
        res->converged = sub.converged;
        if (append_history(x, &sub)) return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory for a history");
        if (rc && rc != CLAB_EMAXITER) {
            clab_error_set(err, rc, "%s (exact friction, outer iteration %ld)", e.msg, k);
            break;
        }
        if (rc == CLAB_EMAXITER && err) *err = e;
        /* s^k = mu |d_T| of the new impulses against the shift they were solved with, and the
         * exact residual of (E) with d unshifted (d_T does not depend on the shift) */
        clab_ccp_d(P, nu, x->u, x->d);
        double change = 0.0;
        for (size_t i = 0; i < P->ncontacts; i++) {
            const clab_ccp_block *bl = &P->blocks[i];
            double shift = P->p[bl->first] - x->p0[bl->first];
            x->d[bl->first] -= shift;
            double dc = fabs(shift_of(bl->mu, &x->d[bl->first]) - shift);
            if (!(dc <= change)) change = dc; /* NaN propagates */
        }
        x->change = change;
        x->residual = clab_ccp_residual_exact(P, nu, x->d);
        /* a solution of (E): s has stopped changing, or nu already solves (E) to the solver's
         * tolerance (with exact_update=inner the returned iterate, e.g. APGD's and BB's best
         * one, need not be the one the last shift was taken from) */
        x->converged = change <= x->tol || x->residual <= o->tol;
        if (x->converged || k == x->max_outer || !isfinite(change)) break;
        /* not there: shift by the new s (under-relaxed by omega) and solve again from these
         * impulses */
        for (size_t i = 0; i < P->ncontacts; i++) {
            const clab_ccp_block *bl = &P->blocks[i];
            double s_old = P->p[bl->first] - x->p0[bl->first];
            P->p[bl->first] = x->p0[bl->first] + s_old + x->omega * (shift_of(bl->mu, &x->d[bl->first]) - s_old);
        }
    }
    res->history = x->history;
    res->nhistory = x->nhistory;
    if (rc && rc != CLAB_EMAXITER) return rc;
    if (!x->converged) x->failures++;
    x->total_outer += x->outer;
    return rc;
}

void clab_exact_stats(const clab_friction_exact *x, clab_solver_stats *st)
{
    int on = x->friction == CLAB_FRICTION_EXACT;
    st->outer_iterations = on ? x->outer : 0;
    st->total_outer_iterations = on ? x->total_outer : 0;
    st->fixed_point_failures = on ? x->failures : 0;
    st->exact_residual = on ? x->residual : 0.0;
}

void clab_exact_meta(const clab_friction_exact *x, clab_options *m)
{
    char v[64];
    clab_options_set(m, "dvi_friction", friction_names[x->friction], NULL);
    if (x->friction != CLAB_FRICTION_EXACT) return;
    clab_options_set(m, "dvi_exact_update", update_names[x->update], NULL);
    snprintf(v, sizeof v, "%.17g", x->tol);
    clab_options_set(m, "dvi_exact_tol_m_s", v, NULL);
    snprintf(v, sizeof v, "%ld", x->max_outer);
    clab_options_set(m, "dvi_exact_max_outer", v, NULL);
    snprintf(v, sizeof v, "%.17g", x->omega);
    clab_options_set(m, "dvi_exact_omega", v, NULL);
    /* values stay under CLAB_OPT_LEN (128) characters */
    clab_options_set(m, "dvi_method", "exact Coulomb: De Saxce fixed point, p_{i,n} + mu_i |v_T,i| in the Tasora-Anitescu CCP, Eq. (10)",
                     NULL);
    clab_options_set(m, "dvi_exact_residual",
                     "max_i |gamma_i - Proj_K(gamma_i - t_i (d_i + [mu_i |d_T,i|, 0, 0]))|/t_i, d unshifted [m/s]", NULL);
    clab_options_set(m, "dvi_exact_nonconvex",
                     "no existence/uniqueness guarantee; unconverged steps keep the last iterate, counted", NULL);
}

/* checkpoint: the run's counters (written only with friction=exact, the last line of the
 * backend's block; a relaxed run ignores it, an exact run without it starts from 0) */
int clab_exact_save(const clab_friction_exact *x, FILE *f, clab_error *err)
{
    if (x->friction != CLAB_FRICTION_EXACT) return CLAB_OK;
    if (fprintf(f, "dvi-exact %ld %ld\n", x->total_outer, x->failures) < 0)
        return clab_error_set(err, CLAB_EIO, "dvi: could not write the exact-friction counters to the checkpoint");
    return CLAB_OK;
}

int clab_exact_load(clab_friction_exact *x, FILE *f, clab_error *err)
{
    if (x->friction != CLAB_FRICTION_EXACT) return CLAB_OK;
    long outer = 0, failures = 0;
    int k = fscanf(f, " dvi-exact %ld %ld", &outer, &failures);
    if (k == EOF) { /* a checkpoint of a relaxed run, continued with exact friction: counters from 0 */
        x->total_outer = x->failures = 0;
        return CLAB_OK;
    }
    if (k != 2 || outer < 0 || failures < 0)
        return clab_error_set(err, CLAB_EIO,
                              "dvi checkpoint: expected 'dvi-exact <outer iterations> <failures>' (friction=exact)");
    x->total_outer = outer;
    x->failures = failures;
    return CLAB_OK;
}
