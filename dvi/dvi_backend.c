/* dvi_backend.c: the DVI backend, the time stepper of Eq. (5) of seed 000.
 *
 * One step from (q(l), v(l)), given the contacts of q(l) with Phi < delta_K:
 *   1. free velocity v* = v(l) + M^-1 f(l), f(l) = h (gravity, -wbar x Jbar wbar)   (Eq. 5b, 9)
 *   2. the CCP of Eq. (10): D_i, G_j, p_i = d_{i,0} + D_i^T v*, b_{j,0} = g_j/h + G_j^T v*,
 *      d_{i,0} = [max(Phi_i/h, -recovery_speed), 0, 0]                            (ccp.c)
 *   3. solve it for nu = [gamma; lambda] (impulses), warm-started by contact key  (solver_*.c)
 *   4. v(l+1) = v* + M^-1 P nu                                                     (Eq. 9)
 *   5. q(l+1) = q(l) + h L(q(l)) v(l+1)                                            (Eq. 5a)
 * Forces are reported as gamma_i / h [N] in the contact frame (n, u, w). */
#include <stdlib.h>
#include <string.h>

#include "ccp_solver.h"
#include "clab_backends.h"
#include "regularize.h"
#include "friction_exact.h"
#include "warmstart.h"

typedef struct clab_dvi {
    /* options */
    const clab_ccp_solver_type *solver;
    clab_ccp_options opt;         /* max_iter, tol [m/s], omega */
    double recovery_speed;        /* cap on -Phi/h [m/s] */
    int warm_start;               /* 1: start from the last step's impulses */
    clab_dvi_reg reg;             /* regularized normal rows (seed 001), regularize.h */
    clab_friction_exact exact;    /* friction=exact: De Saxce fixed point (friction_exact.c) */
    /* per-step data, reused */
    clab_ccp ccp;                 /* the CCP of the last step */
    clab_ccp_work work;           /* solver scratch and residual history */
    double *nu;                   /* [cap_nu] impulses of the last step [N s] */
    double *d;                    /* [cap_d] d = N nu + p of the last step [m/s] */
    double *u;                    /* [cap_u] M^-1 P nu per body (6 per body) */
    double *v_saved;              /* [cap_v] v(l), restored when a step fails */
    size_t cap_nu, cap_d, cap_u, cap_v;
    clab_warmstart warm;          /* impulses by contact key */
    double h;                     /* step of the last solve [s] */
    /* statistics */
    long solves, total_iterations, maxiter_hits;
    clab_ccp_result last;         /* the last solve */
    clab_ccp_diagnostics diag;    /* its complementarity diagnostics */
} clab_dvi;

static const char *const onoff[] = {"off", "on", NULL};

static int grow(double **p, size_t *cap, size_t n)
{
    if (n <= *cap && *p) return CLAB_OK;
    size_t c = n + n / 2 + 16;
    double *q = realloc(*p, c * sizeof *q);
    if (!q) return CLAB_ENOMEM;
    *p = q;
    *cap = c;
    return CLAB_OK;
}

static void dvi_destroy(void *self)
{
    clab_dvi *s = self;
    if (!s) return;
    clab_ccp_free(&s->ccp);
    clab_ccp_work_free(&s->work);
    clab_warm_free(&s->warm);
    clab_exact_free(&s->exact);
    free(s->nu);
    free(s->d);
    free(s->u);
    free(s->v_saved);
    free(s);
}

static int dvi_create(const clab_world *w, clab_options *opt, void **self, clab_error *err)
{
    *self = NULL;
    /* solver names, in the order of the solver table */
    const clab_ccp_solver_type *const *all = clab_ccp_solvers();
    const char *names[8];
    int ns = 0;
    while (all[ns] && ns < 7) names[ns] = all[ns]->name, ns++;
    names[ns] = NULL;
    int solver = 0, warm = 1;
    if (clab_options_choice(opt, "solver", names, &solver, err)) return CLAB_EINVAL;

    clab_dvi *s = calloc(1, sizeof *s);
    if (!s) return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory");
    s->solver = all[solver];
    s->opt = clab_ccp_default_options(s->solver);
    s->recovery_speed = 1.0;
    clab_ccp_init(&s->ccp);
    clab_ccp_work_init(&s->work);
    clab_warm_init(&s->warm);
    clab_exact_init(&s->exact);
    if (clab_exact_options(&s->exact, opt, err) ||
        clab_options_int(opt, "max_iter", 1, 100000000, &s->opt.max_iter, err) ||
        clab_options_double(opt, "tol", 0.0, 1e3, &s->opt.tol, err) ||
        clab_options_double(opt, "omega", 1e-6, 2.0 - 1e-6, &s->opt.omega, err) ||
        clab_options_double(opt, "recovery_speed", 0.0, 1e300, &s->recovery_speed, err) ||
        clab_options_choice(opt, "warm_start", onoff, &warm, err) || clab_dvi_reg_options(opt, &s->reg, err)) {
        dvi_destroy(s);
        return CLAB_EINVAL;
    }
    s->warm_start = warm;
    /* joints: every kind is solvable, but not between two fixed bodies */
    for (size_t j = 0; j < w->njoints; j++) {
        const clab_joint *J = &w->joints[j];
        if (w->bodies[J->a].fixed && w->bodies[J->b].fixed) {
            clab_error_set(err, CLAB_EINVAL, "dvi: joint %zu (%s) connects two fixed bodies (%s, %s)", j,
                           clab_joint_name(J->type), clab_world_body_name(w, (size_t)J->a), clab_world_body_name(w, (size_t)J->b));
            dvi_destroy(s);
            return CLAB_EINVAL;
        }
    }
    *self = s;
    return CLAB_OK;
}

/* the contact frame of contact i as a rotation: world = [n u w] local */
static clab_vec3 to_world(const clab_contact *c, const double *g)
{
    clab_vec3 tu, tw;
    clab_contact_frame(c, &tu, &tw);
    return clab_v3_add(clab_v3_add(clab_v3_scale(c->n, g[0]), clab_v3_scale(tu, g[1])), clab_v3_scale(tw, g[2]));
}

/* initial guess: the last step's impulse of the same contact key, in the new frame */
static void warm_guess(const clab_dvi *s, const clab_world *w, const clab_contacts *c, double *nu)
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
static int warm_store(clab_dvi *s, const clab_contacts *c)
{
    const clab_ccp *P = &s->ccp;
    if (clab_warm_reset(&s->warm, P->ncontacts) || clab_warm_joint_rows(&s->warm, P->njoint_rows)) return CLAB_ENOMEM;
    for (size_t i = 0; i < P->ncontacts; i++) clab_warm_put(&s->warm, c->c[i].key, to_world(&c->c[i], &s->nu[3 * i]));
    if (P->njoint_rows > 0) memcpy(s->warm.lambda, &s->nu[3 * P->ncontacts], P->njoint_rows * sizeof *s->nu);
    return CLAB_OK;
}

static int dvi_step(void *self, clab_world *w, const clab_contacts *c, double h, clab_error *err)
{
    clab_dvi *s = self;
    size_t nb = w->nbodies;
    if (grow(&s->u, &s->cap_u, 6 * nb) || grow(&s->v_saved, &s->cap_v, 6 * nb))
        return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory (%zu bodies)", nb);
    /* 1. free velocity v* (Eq. 5b without the constraint impulses); v(l) kept for failures */
    for (size_t k = 0; k < nb; k++) {
        clab_body *b = &w->bodies[k];
        double *v = &s->v_saved[6 * k];
        v[0] = b->rdot.x, v[1] = b->rdot.y, v[2] = b->rdot.z;
        v[3] = b->wbar.x, v[4] = b->wbar.y, v[5] = b->wbar.z;
        clab_vec3 F, taubar;
        clab_world_applied(w, k, &F, &taubar);
        clab_body_kick(b, F, taubar, h);
    }
    /* 2. the CCP of Eq. (10) */
    int rc = clab_ccp_build(&s->ccp, w, c, h, s->recovery_speed, err);
    if (!rc) clab_dvi_reg_apply(&s->reg, &s->ccp, w, c, s->v_saved, h); /* seed 001 (regularize.h) */
    const clab_ccp *P = &s->ccp;
    if (!rc && grow(&s->nu, &s->cap_nu, P->n)) rc = clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory");
    if (!rc && grow(&s->d, &s->cap_d, P->n)) rc = clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory");
    s->h = h;
    memset(&s->last, 0, sizeof s->last);
    memset(&s->diag, 0, sizeof s->diag);
    /* 3. solve it */
    if (!rc && P->n > 0) {
        warm_guess(s, w, c, s->nu);
        clab_error sub;
        clab_error_clear(&sub);
        /* friction=exact: De Saxce's fixed point around the same solver; a non-convex problem,
         * so its failures to converge are counted, not fatal (friction_exact.h) */
        if (s->exact.friction == CLAB_FRICTION_EXACT)
            rc = clab_exact_solve(&s->exact, &s->ccp, s->solver, &s->opt, s->nu, &s->work, &s->last, &sub);
        else
            rc = s->solver->solve(P, &s->opt, s->nu, &s->work, &s->last, &sub);
        s->solves++;
        s->total_iterations += s->last.iterations;
        if (rc == CLAB_EMAXITER) { /* counted in the statistics, not an error */
            s->maxiter_hits++;
            rc = CLAB_OK;
        } else if (rc) {
            clab_error_set(err, rc, "%s (step at t = %.9g s, %zu contacts, %zu joint rows)", sub.msg, w->t,
                           P->ncontacts, P->njoint_rows);
        }
    }
    if (rc) { /* leave the world as it was */
        for (size_t k = 0; k < nb; k++) {
            const double *v = &s->v_saved[6 * k];
            w->bodies[k].rdot = clab_v3(v[0], v[1], v[2]);
            w->bodies[k].wbar = clab_v3(v[3], v[4], v[5]);
        }
        return rc;
    }
    /* 4. v(l+1) = v* + M^-1 P nu, with d = N nu + p for the diagnostics */
    if (P->n > 0) {
        clab_ccp_minv_P(P, s->nu, s->u);
        clab_ccp_Pt(P, s->u, s->nu, s->d);
        for (size_t k = 0; k < P->n; k++) s->d[k] += P->p[k];
        clab_ccp_diagnose(P, s->nu, s->d, &s->diag);
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
    if (warm_store(s, c)) return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory storing warm-start impulses");
    return CLAB_OK;
}

static void dvi_forces(const void *self, const clab_contacts *c, clab_vec3 *f_nuw)
{
    const clab_dvi *s = self;
    size_t nk = s->ccp.ncontacts;
    for (size_t i = 0; i < c->n; i++) {
        if (i < nk && s->h > 0.0)
            f_nuw[i] = clab_v3(s->nu[3 * i] / s->h, s->nu[3 * i + 1] / s->h, s->nu[3 * i + 2] / s->h);
        else
            f_nuw[i] = clab_v3(0.0, 0.0, 0.0);
    }
}

static void dvi_stats(const void *self, clab_solver_stats *st)
{
    const clab_dvi *s = self;
    st->solves = s->solves;
    st->total_iterations = s->total_iterations;
    st->maxiter_hits = s->maxiter_hits;
    st->iterations = s->last.iterations;
    st->residual = s->last.residual;
    st->gamma_outside_K = s->diag.gamma_outside_K;
    st->d_outside_polar = s->diag.d_outside_dual;
    st->complementarity = s->diag.complementarity;
    st->history = s->last.nhistory ? s->last.history : NULL;
    st->nhistory = s->last.nhistory;
    clab_exact_stats(&s->exact, st);
}

static void dvi_meta(const void *self, clab_options *m)
{
    const clab_dvi *s = self;
    char v[64];
    /* the options in force: dvi_<option>[_unit] (experiments' plot scripts read these keys) */
    clab_options_set(m, "dvi_solver", s->solver->name, NULL);
    snprintf(v, sizeof v, "%ld", s->opt.max_iter);
    clab_options_set(m, "dvi_max_iter", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->opt.tol);
    clab_options_set(m, "dvi_tol_m_s", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->opt.omega);
    clab_options_set(m, "dvi_omega", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->recovery_speed);
    clab_options_set(m, "dvi_recovery_speed_m_s", v, NULL);
    clab_options_set(m, "dvi_warm_start", onoff[s->warm_start], NULL);
    /* what the numbers mean */
    clab_options_set(m, "dvi_method", "seed 000 Eq. (5): CCP of Eq. (10), relaxed friction, stabilization Phi/h", NULL);
    clab_options_set(m, "dvi_residual",
                     "max_k |nu_k - Proj_Ck(nu_k - t_k d_k)|/t_k, t_k = size_k/tr(N_kk), d = N nu + p [m/s]", NULL);
    clab_options_set(m, "dvi_forces", "gamma/h [N] in the contact frame (n, u, w)", NULL);
    clab_dvi_reg_meta(&s->reg, m);
    clab_exact_meta(&s->exact, m);
}

static double dvi_stable_step(const void *self, const clab_world *w)
{
    (void)self;
    (void)w;
    return 0.0; /* no stiffness: no stability limit of the explicit kind */
}

/* the bodies are renumbered (clab_sim_sort): the warm-start keys follow them */
static int dvi_permute(void *self, const size_t *inv, size_t nbodies, clab_error *err)
{
    clab_dvi *s = self;
    return clab_warm_permute(&s->warm, inv, nbodies, err);
}

/* checkpoint: the warm-start impulses, then the solver counters of the statistics (so a
 * restarted run reports the same solves, iterations and iteration-limit hits) */
static int dvi_save(const void *self, FILE *f, clab_error *err)
{
    const clab_dvi *s = self;
    int rc = clab_warm_save(&s->warm, f, err);
    if (!rc && fprintf(f, "dvi-stats %ld %ld %ld\n", s->solves, s->total_iterations, s->maxiter_hits) < 0)
        rc = clab_error_set(err, CLAB_EIO, "dvi: could not write the solver counters to the checkpoint");
    if (!rc) rc = clab_exact_save(&s->exact, f, err);
    return rc;
}

static int dvi_load(void *self, FILE *f, clab_error *err)
{
    clab_dvi *s = self;
    int rc = clab_warm_load(&s->warm, f, err);
    if (rc) return rc;
    long solves, iterations, hits;
    if (fscanf(f, " dvi-stats %ld %ld %ld", &solves, &iterations, &hits) != 3 || solves < 0 || iterations < 0 ||
        hits < 0)
        return clab_error_set(err, CLAB_EIO, "dvi checkpoint: expected 'dvi-stats <solves> <iterations> <hits>'");
    s->solves = solves;
    s->total_iterations = iterations;
    s->maxiter_hits = hits;
    return clab_exact_load(&s->exact, f, err);
}

const clab_backend_type clab_backend_dvi = {
    "dvi",
    "rigid contact as a cone complementarity problem (Tasora-Anitescu, seed 000 Eq. (5), (10))",
    "  solver=apgd|gs|jacobi|bb  CCP solver (default apgd): accelerated projected gradient,\n"
    "                            projected Gauss-Seidel/SOR, projected Jacobi, Barzilai-Borwein\n"
    "  max_iter=N                iteration limit per step (default 1000); hits are counted\n"
    "  tol=X                     residual tolerance [m/s] (default 1e-6): natural map scaled to\n"
    "                            a velocity, max over contacts/joints (doc/dvi.md)\n"
    "  omega=X                   relaxation in (0, 2): jacobi step (default 0.3), gs SOR (default 1)\n"
    "  recovery_speed=X          cap on the penetration correction -Phi/h [m/s] (default 1)\n"
    "  warm_start=on|off         start from the last step's impulses by contact key (default on)\n"
    "  friction=relaxed|exact    relaxed: seed 000's CCP (a sliding contact separates at mu v_T);\n"
    "                            exact: Coulomb + Signorini by De Saxce's fixed point on\n"
    "                            s_i = mu_i |v_T,i| around the CCP (non-convex; doc/dvi.md)\n"
    "  exact_update=outer|inner  exact: refresh s after each CCP solve, or also inside the\n"
    "                            solver iterations (default outer)\n"
    "  exact_tol=X               exact: fixed point when max |change of s| <= X [m/s] (default\n"
    "                            1e-6), or when the exact-Coulomb residual <= tol\n"
    "  exact_max_outer=N         exact: CCP solves per step at most (default 100); a step that\n"
    "                            stops there keeps its last iterate and is counted\n"
    "  exact_omega=X             exact: under-relaxation of the s update, in (0, 1] (default 1)\n"
    "  envelope=X                delta_K: contacts with Phi < delta_K enter the CCP [m] (default 0.002)\n"
    CLAB_DVI_REG_HELP,
    0.002,
    dvi_create,
    dvi_step,
    dvi_forces,
    dvi_stats,
    dvi_meta,
    dvi_stable_step,
    dvi_save,
    dvi_load,
    dvi_permute,
    dvi_destroy,
};
