/* lcp_backend.c: the LCP backend, the Stewart-Trinkle / Anitescu-Potra time step with a
 * polyhedral friction cone (Stewart 2000, SIAM Review 42(1), Sect. 4; doc/lcp.md): its options,
 * statistics, metadata, checkpoints and type table. The step is lcp_step.c, the LCP as data
 * lcp_problem.c, the solvers lcp_pgs.c and lcp_lemke.c (lemke.c the pivoting itself). */
#include <stdlib.h>
#include <string.h>

#include "clab_backends.h"
#include "lcp_internal.h"

static const char *const onoff[] = {"off", "on", NULL};
static const char *const solvers[] = {"pgs", "lemke", NULL};
static const char *const starts[] = {"cold", "pgs", NULL};

static void lcp_destroy(void *self)
{
    clab_lcp *s = self;
    if (!s) return;
    clab_ccp_free(&s->ccp);
    clab_lemke_work_free(&s->lemke);
    clab_warm_free(&s->warm);
    free(s->z);
    free(s->nu);
    free(s->u);
    free(s->v_saved);
    free(s->scratch);
    free(s->history);
    free(s->start);
    free(s);
}

static int lcp_create(const clab_world *w, clab_options *opt, void **self, clab_error *err)
{
    *self = NULL;
    long k = 8;
    int solver = CLAB_LCP_PGS, warm = 1, start = CLAB_LCP_START_COLD;
    clab_lcp *s = calloc(1, sizeof *s);
    if (!s) return clab_error_set(err, CLAB_ENOMEM, "lcp: out of memory");
    s->max_iter = 1000;
    s->tol = 1e-6;
    s->recovery_speed = 1.0;
    s->max_pivots = 0;
    s->max_unknowns = 3000;
    clab_ccp_init(&s->ccp);
    clab_lemke_work_init(&s->lemke);
    clab_warm_init(&s->warm);
    if (clab_options_int(opt, "directions", 3, CLAB_LCP_MAX_DIRECTIONS, &k, err) ||
        clab_options_choice(opt, "solver", solvers, &solver, err) ||
        clab_options_int(opt, "max_iter", 1, 100000000, &s->max_iter, err) ||
        clab_options_double(opt, "tol", 0.0, 1e3, &s->tol, err) ||
        clab_options_int(opt, "max_pivots", 0, 1000000000, &s->max_pivots, err) ||
        clab_options_int(opt, "lemke_max_unknowns", 1, 100000, &s->max_unknowns, err) ||
        clab_options_double(opt, "recovery_speed", 0.0, 1e300, &s->recovery_speed, err) ||
        clab_options_choice(opt, "warm_start", onoff, &warm, err) ||
        clab_options_choice(opt, "lemke_start", starts, &start, err) ||
        clab_options_double(opt, "lemke_reg", 0.0, 1.0, &s->lemke_reg, err)) {
        lcp_destroy(s);
        return CLAB_EINVAL;
    }
    s->solver = solver;
    s->warm_start = warm;
    s->lemke_start = start;
    s->start_status = -1;
    clab_lcp_cone_init(&s->cone, (int)k);
    /* joints: rows of the LCP (pgs) or eliminated (lemke), but not between two fixed bodies */
    for (size_t j = 0; j < w->njoints; j++) {
        const clab_joint *J = &w->joints[j];
        if (w->bodies[J->a].fixed && w->bodies[J->b].fixed) {
            clab_error_set(err, CLAB_EINVAL, "lcp: joint %zu (%s) connects two fixed bodies (%s, %s)", j,
                           clab_joint_name(J->type), clab_world_body_name(w, (size_t)J->a),
                           clab_world_body_name(w, (size_t)J->b));
            lcp_destroy(s);
            return CLAB_EINVAL;
        }
    }
    *self = s;
    return CLAB_OK;
}

static void lcp_forces(const void *self, const clab_contacts *c, clab_vec3 *f_nuw)
{
    const clab_lcp *s = self;
    const size_t nk = s->ccp.ncontacts;
    for (size_t i = 0; i < c->n; i++) {
        if (i < nk && s->h > 0.0)
            f_nuw[i] = clab_v3(s->nu[3 * i] / s->h, s->nu[3 * i + 1] / s->h, s->nu[3 * i + 2] / s->h);
        else
            f_nuw[i] = clab_v3(0.0, 0.0, 0.0);
    }
}

static void lcp_stats(const void *self, clab_solver_stats *st)
{
    const clab_lcp *s = self;
    memset(st, 0, sizeof *st);
    st->solves = s->solves;
    st->total_iterations = s->total_iterations;
    st->maxiter_hits = s->maxiter_hits;
    st->iterations = s->iterations;
    st->residual = s->residual;
    st->gamma_outside_K = s->outside_cone;
    st->d_outside_polar = s->outside_dual;
    st->complementarity = s->complementarity;
    st->history = s->nhistory ? s->history : NULL;
    st->nhistory = s->nhistory;
}

static void lcp_meta(const void *self, clab_options *m)
{
    const clab_lcp *s = self;
    char v[64];
    snprintf(v, sizeof v, "%d", s->cone.k);
    clab_options_set(m, "lcp_directions", v, NULL);
    clab_options_set(m, "lcp_solver", solvers[s->solver], NULL);
    snprintf(v, sizeof v, "%ld", s->max_iter);
    clab_options_set(m, "lcp_max_iter", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->tol);
    clab_options_set(m, "lcp_tol_m_s", v, NULL);
    snprintf(v, sizeof v, "%ld", s->max_pivots);
    clab_options_set(m, "lcp_max_pivots", v, NULL);
    snprintf(v, sizeof v, "%ld", s->max_unknowns);
    clab_options_set(m, "lcp_lemke_max_unknowns", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->recovery_speed);
    clab_options_set(m, "lcp_recovery_speed_m_s", v, NULL);
    clab_options_set(m, "lcp_warm_start", onoff[s->warm_start], NULL);
    if (s->solver == CLAB_LCP_LEMKE) clab_options_set(m, "lcp_lemke_start", starts[s->lemke_start], NULL);
    if (s->solver == CLAB_LCP_LEMKE && s->lemke_reg > 0.0) {
        snprintf(v, sizeof v, "%.17g", s->lemke_reg);
        clab_options_set(m, "lcp_lemke_reg", v, NULL);
    }
    clab_options_set(m, "lcp_method",
                     "Stewart-Trinkle / Anitescu-Potra LCP: polyhedral friction cone of k edges d_j = cos(2 pi j/k) u "
                     "+ sin(2 pi j/k) w, unknowns c_n, beta, lambda; stabilization Phi/h",
                     NULL);
    clab_options_set(m, "lcp_residual",
                     "natural map max |min(z, w)| with impulses scaled to velocities by 3/tr(N_ii) [m/s]", NULL);
    clab_options_set(m, "lcp_forces", "(c_n, (D beta).u, (D beta).w)/h [N] in the contact frame (n, u, w)", NULL);
}

static double lcp_stable_step(const void *self, const clab_world *w)
{
    (void)self;
    (void)w;
    return 0.0; /* rigid contacts: no stability limit of the explicit kind */
}

static int lcp_permute(void *self, const size_t *inv, size_t nbodies, clab_error *err)
{
    clab_lcp *s = self;
    return clab_warm_permute(&s->warm, inv, nbodies, err);
}

/* checkpoint: the warm-start impulses, then the solver counters */
static int lcp_save(const void *self, FILE *f, clab_error *err)
{
    const clab_lcp *s = self;
    int rc = clab_warm_save(&s->warm, f, err);
    if (!rc && fprintf(f, "lcp-stats %ld %ld %ld\n", s->solves, s->total_iterations, s->maxiter_hits) < 0)
        rc = clab_error_set(err, CLAB_EIO, "lcp: could not write the solver counters to the checkpoint");
    return rc;
}

static int lcp_load(void *self, FILE *f, clab_error *err)
{
    clab_lcp *s = self;
    int rc = clab_warm_load(&s->warm, f, err);
    if (rc) return rc;
    long solves, iterations, hits;
    if (fscanf(f, " lcp-stats %ld %ld %ld", &solves, &iterations, &hits) != 3 || solves < 0 || iterations < 0 ||
        hits < 0)
        return clab_error_set(err, CLAB_EIO, "lcp checkpoint: expected 'lcp-stats <solves> <iterations> <hits>'");
    s->solves = solves;
    s->total_iterations = iterations;
    s->maxiter_hits = hits;
    return CLAB_OK;
}

const clab_backend_type clab_backend_lcp = {
    "lcp",
    "Stewart-Trinkle LCP (polyhedral friction cone)",
    "  directions=K              edges of the polyhedral friction cone, a regular K-gon in the\n"
    "                            tangent plane from u (default 8, 3 .. 64)\n"
    "  solver=pgs|lemke          pgs (default): projected Gauss-Seidel by contact blocks, each\n"
    "                            contact's local LCP solved exactly; lemke: Lemke's complementary\n"
    "                            pivoting on the whole dense LCP (exact, small problems)\n"
    "  max_iter=N                pgs: sweeps per step at most (default 1000); hits are counted\n"
    "  tol=X                     pgs: natural-map residual tolerance [m/s] (default 1e-6)\n"
    "  max_pivots=N              lemke: pivot bound, the cycling guard (default 0: 50 n + 100)\n"
    "  lemke_max_unknowns=N      lemke: largest LCP accepted, n = contacts (K + 2) (default 3000)\n"
    "  recovery_speed=X          cap on the penetration correction -Phi/h [m/s] (default 1)\n"
    "  warm_start=on|off         pgs: start from the last step's impulses by contact key (default on)\n"
    "  lemke_start=cold|pgs      lemke: from z = 0 with covering vector e (default), or from the\n"
    "                            complementary basis of the pgs answer (pgs options apply, warm\n"
    "                            started as pgs), covering vector d = B e; cold start on failure\n"
    "  lemke_reg=X               lemke: solve with A + eps I on the c_n and beta rows, eps = X times\n"
    "                            their mean diagonal (default 0; 0 .. 1): a unique impulse on\n"
    "                            degenerate LCPs (piles), at a complementarity error of order eps\n"
    "  envelope=X                delta_K: contacts with Phi < delta_K enter the LCP [m] (default 0.002)\n",
    0.002,
    lcp_create,
    clab_lcp_step,
    lcp_forces,
    lcp_stats,
    lcp_meta,
    lcp_stable_step,
    lcp_save,
    lcp_load,
    lcp_permute,
    lcp_destroy,
};
