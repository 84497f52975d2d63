/* convergence.c: residual against iteration of every DVI solver on one and the same CCP.
 *
 * A pile (pile_scene.h) is settled under a method; its final configuration is the snapshot.
 * From it we build the CCP of the next DVI step exactly as the DVI backend would (Eq. (5),
 * (10) of seed 000): free velocity v* = v + h M^-1 f (gravity, gyroscopic term), contacts
 * with Phi < delta_K, p_i = [max(Phi_i/h, -recovery_speed), 0, 0] + D_i^T v*. Each solver
 * (dvi/ccp_solver.h) then solves this same problem from a cold start (nu = 0) until its
 * residual (the natural map scaled to a velocity, dvi/ccp_solver.h) is below --tol or the
 * iteration limit is reached; the residual history of every iteration is written out.
 *
 * The settled DVI pile is the hard case of the paper's Sect. 4: a hyperstatic contact
 * network whose forces must be transmitted through many layers. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccp_solver.h"
#include "clab_csv.h"
#include "pile_scene.h"
#include "regularize.h"

#define MAXS 8

typedef struct conv_opts {
    xp_common c;
    xp_pile_def def;
    double t_settle;        /* settling time [s] */
    double recovery;        /* recovery speed cap of the snapshot CCP [m/s] */
    const clab_ccp_solver_type *solvers[MAXS];
    int nsolvers;
    long max_iter;
    double tol;             /* stop when r <= tol [m/s] */
    double omega_jacobi, omega_gs; /* 0 = the solver's default */
    double reg_eps[MAXS];   /* relative compliances eps m/h^2 of the regularized GS runs (seed 001) */
    int nreg;
    int reg_scheme;         /* CLAB_DVI_REG_EULER (default: only the diagonal differs) or _SPOOK */
    clab_csv *reg_sum;      /* convergence-regularized.csv, one row per (settle method, eps_rel) */
} conv_opts;

/* The CCP of one DVI step from the world's state (not changed: a clone takes the kick);
 * reg != NULL: with the regularized normal rows of seed 001 (dvi/regularize.h). */
static int snapshot_ccp(const clab_world *w0, double envelope, double h, double recovery, const clab_dvi_reg *reg,
                        clab_ccp *P, clab_contacts *cs, clab_error *err)
{
    clab_world *w = clab_world_clone(w0);
    clab_collider *cd = clab_collider_create();
    int rc = CLAB_ENOMEM;
    if (!w || !cd) {
        clab_error_set(err, CLAB_ENOMEM, "convergence: out of memory for the snapshot");
        goto done;
    }
    /* contacts of q(l), then v* = v(l) + M^-1 f(l) h (Eq. 5b without the impulses) */
    if ((rc = clab_collide(cd, w, envelope, cs, err))) goto done;
    for (size_t k = 0; k < w->nbodies; k++) {
        clab_vec3 F, taubar;
        clab_world_applied(w, k, &F, &taubar);
        clab_body_kick(&w->bodies[k], F, taubar, h);
    }
    rc = clab_ccp_build(P, w, cs, h, recovery, err);
    if (!rc && reg) { /* v(l) of the unkicked world, 6 per body (rdot, wbar) */
        double *v_l = malloc(6 * (w0->nbodies ? w0->nbodies : 1) * sizeof *v_l);
        if (!v_l) {
            rc = clab_error_set(err, CLAB_ENOMEM, "convergence: out of memory for the snapshot");
            goto done;
        }
        for (size_t k = 0; k < w0->nbodies; k++) {
            const clab_body *b = &w0->bodies[k];
            double v[6] = {b->rdot.x, b->rdot.y, b->rdot.z, b->wbar.x, b->wbar.y, b->wbar.z};
            memcpy(&v_l[6 * k], v, sizeof v);
        }
        clab_dvi_reg_apply(reg, P, w, cs, v_l, h);
        free(v_l);
    }
done:
    clab_collider_destroy(cd);
    clab_world_destroy(w);
    return rc;
}

/* first iteration (1-based) at which the history reaches r <= target, 0 when never */
static long reached(const double *hist, size_t n, double target)
{
    for (size_t k = 0; k < n; k++)
        if (hist[k] <= target) return (long)k + 1;
    return 0;
}

/* Gauss-Seidel on the regularized CCP of the same snapshot (seed 001, dvi/regularize.h):
 * compliance eps = eps_rel h^2 / m (m the mean sphere mass), tau = 0 with the euler scheme, so
 * that the CCP differs from the rigid one by the diagonal Sigma = eps/h^2 alone; eps_rel = 0
 * is the rigid CCP itself. Writes convergence-regularized_<method>-gs-eps_<eps_rel>.csv and a
 * row per eps_rel in convergence-regularized.csv. */
static int conv_regularized(conv_opts *o, const char *method, const clab_world *w, const xp_pile_info *info,
                            double envelope, double h)
{
    clab_error err;
    char file[512], v[64];
    clab_csv *sum = o->reg_sum;
    enum { NSC = 13 };
    double mass = 0.0;
    size_t nmov = 0;
    for (size_t k = 0; k < w->nbodies; k++)
        if (!w->bodies[k].fixed) mass += w->bodies[k].m, nmov++;
    mass = nmov ? mass / (double)nmov : 1.0;
    printf("\nLacoursiere-Servin regularized CCP (%s, tau = %s), Gauss-Seidel from a cold start:\n",
           o->reg_scheme == CLAB_DVI_REG_EULER ? "euler" : "spook", o->reg_scheme == CLAB_DVI_REG_EULER ? "0" : "2 h");
    printf("%-8s %9s %12s %8s %11s %9s %9s\n", "settle", "eps_rel", "eps_m_N", "iter", "residual", "it->1e-4",
           "it->1e-6");
    const clab_ccp_solver_type *S = &clab_ccp_solver_gs;
    clab_ccp P;
    clab_ccp_init(&P);
    clab_contacts cs;
    clab_contacts_init(&cs);
    clab_ccp_work W;
    clab_ccp_work_init(&W);
    double *nu = NULL;
    int rc = 1;
    for (int r = -1; r < o->nreg; r++) {
        double eps_rel = r < 0 ? 0.0 : o->reg_eps[r], eps = eps_rel * h * h / mass;
        clab_dvi_reg reg;
        memset(&reg, 0, sizeof reg);
        reg.on = 1;
        reg.scheme = o->reg_scheme;
        reg.epsilon = eps;
        reg.k = eps > 0.0 ? 1.0 / eps : 0.0;
        reg.tau = o->reg_scheme == CLAB_DVI_REG_EULER ? 0.0 : 2.0 * h;
        reg.c = reg.cor = -1.0;
        if (snapshot_ccp(w, envelope, h, o->recovery, r < 0 ? NULL : &reg, &P, &cs, &err)) {
            fprintf(stderr, "contactlab convergence: %s\n", err.msg);
            goto done;
        }
        double *nn = realloc(nu, (P.n ? P.n : 1) * sizeof *nu);
        if (!nn) {
            fprintf(stderr, "contactlab convergence: out of memory\n");
            goto done;
        }
        nu = nn;
        memset(nu, 0, (P.n ? P.n : 1) * sizeof *nu);
        clab_ccp_options so = clab_ccp_default_options(S);
        so.max_iter = o->max_iter;
        so.tol = o->tol;
        if (o->omega_gs > 0.0) so.omega = o->omega_gs;
        clab_ccp_result res;
        memset(&res, 0, sizeof res);
        clab_error serr;
        clab_error_clear(&serr);
        double c0 = xp_pile_cpu();
        int src = S->solve(&P, &so, nu, &W, &res, &serr);
        double cpu = xp_pile_cpu() - c0;
        if (src && src != CLAB_EMAXITER) {
            fprintf(stderr, "contactlab convergence: gs (eps_rel %g): %s\n", eps_rel, serr.msg);
            goto done;
        }
        snprintf(file, sizeof file, "convergence-regularized_%s-gs-eps_%g.csv", method, eps_rel);
        char spath[2048];
        xp_path(&o->c, file, spath, sizeof spath);
        clab_options m;
        clab_options_init(&m);
        clab_options_set(&m, "experiment", "convergence (Lacoursiere-Servin regularized CCP)", NULL);
        clab_options_set(&m, "settle_method", method, NULL);
        clab_options_set(&m, "solver", "gs", NULL);
        clab_options_set(&m, "start", "cold (nu = 0)", NULL);
        xp_pile_meta(&o->def, info, &m);
#define META(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(&m, k, v, NULL))
        META("eps_rel", eps_rel);
        META("mean_mass_kg", mass);
        META("h_s", h);
        META("contacts", P.ncontacts);
        META("unknowns", P.n);
        META("max_iter", so.max_iter);
        META("tol_m_s", so.tol);
        META("omega", so.omega);
        META("cpu_s", cpu);
#undef META
        if (r < 0) clab_options_set(&m, "regularization", "off: the rigid Tasora-Anitescu CCP", NULL);
        else clab_dvi_reg_meta(&reg, &m);
        static const char *const cols[] = {"iteration", "residual_m_s", "best_residual_m_s"};
        clab_csv *csv = clab_csv_open(spath, o->c.force ? CLAB_CSV_OVERWRITE : 0, &err);
        int bad = !csv || clab_csv_meta(csv, &m, o->c.argc, o->c.argv, &err) || clab_csv_header(csv, cols, 3, &err);
        clab_options_free(&m);
        if (csv) clab_csv_set_flush_every(csv, 4096);
        double best = INFINITY;
        for (size_t k = 0; k < res.nhistory && !bad; k++) {
            best = fmin(best, res.history[k]);
            double row[3] = {(double)(k + 1), res.history[k], best};
            bad = clab_csv_row(csv, row, 3, &err);
        }
        if (csv && clab_csv_close(csv, bad ? NULL : &err)) bad = 1;
        if (bad) {
            fprintf(stderr, "contactlab convergence: %s\n", err.msg);
            goto done;
        }
        long k4 = reached(res.history, res.nhistory, 1e-4), k6 = reached(res.history, res.nhistory, 1e-6);
        char cell[11][64];
        double vals[] = {eps_rel, eps, reg.k, 0, (double)P.ncontacts, (double)res.iterations, res.residual,
                         (double)res.converged, k4 ? (double)k4 : NAN, k6 ? (double)k6 : NAN, cpu};
        const char *cells[NSC];
        cells[0] = method;
        for (int q = 0; q < 11; q++) {
            if (isnan(vals[q]) || (q == 2 && r < 0)) cell[q][0] = '\0';
            else snprintf(cell[q], sizeof cell[q], "%.17g", vals[q]);
            cells[q + 1] = cell[q];
        }
        cells[4] = r < 0 ? "rigid" : (o->reg_scheme == CLAB_DVI_REG_EULER ? "euler" : "spook");
        cells[12] = file;
        if (clab_csv_text_row(sum, cells, NSC, &err)) {
            fprintf(stderr, "contactlab convergence: %s\n", err.msg);
            goto done;
        }
        char s4[32], s6[32]; /* "-": not reached, as in the solver table */
        if (k4) snprintf(s4, sizeof s4, "%ld", k4); else snprintf(s4, sizeof s4, "-");
        if (k6) snprintf(s6, sizeof s6, "%ld", k6); else snprintf(s6, sizeof s6, "-");
        printf("%-8s %9.3g %12.4e %8ld %11.3e %9s %9s\n", method, eps_rel, eps, res.iterations, res.residual, s4, s6);
    }
    rc = 0;
done:
    free(nu);
    clab_ccp_work_free(&W);
    clab_contacts_free(&cs);
    clab_ccp_free(&P);
    return rc;
}

/* one snapshot (settled under method): every solver on its CCP */
static int conv_case(conv_opts *o, const xp_method *cm, clab_csv *sum)
{
    clab_error err;
    xp_pile_info info;
    clab_world *w = xp_pile_build(&o->def, &info, &err);
    if (!w) {
        fprintf(stderr, "contactlab convergence: %s\n", err.msg);
        return 1;
    }
    const char *method = cm->name;
    const int is_pen = cm->kind != XP_KIND_CCP; /* a force law settles with its own default step */
    double h = o->c.h > 0.0 ? o->c.h : 1e-3; /* the DVI step of the snapshot CCP */
    clab_options extra;
    clab_options_init(&extra);
    if (!is_pen) xp_pile_dvi_defaults(&extra);
    char label[128];
    snprintf(label, sizeof label, "convergence: settle %s n=%d", method, o->def.n);
    double t0 = xp_pile_now();
    /* DVI settles with the snapshot's step; penalty with its own default step */
    clab_sim *s = xp_pile_settle(&o->c, w, cm, is_pen ? 0.0 : h, o->t_settle, &extra, label);
    clab_options_free(&extra);
    if (!s) {
        clab_world_destroy(w);
        return 1;
    }
    double t_settle_wall = xp_pile_now() - t0;
    double h_settle = s->h;
    clab_options meta;
    clab_options_init(&meta);
    clab_sim_meta(s, &meta); /* the settling run's parameters, prefixed below */
    clab_options smeta;
    clab_options_init(&smeta);
    for (size_t i = 0; i < meta.n; i++) {
        char k[CLAB_OPT_LEN + 16];
        snprintf(k, sizeof k, "settle_%s", meta.o[i].key);
        clab_options_set(&smeta, k, meta.o[i].val, NULL);
    }
    clab_options_free(&meta);
    clab_sim_destroy(s);

    /* the CCP of the next DVI step from the settled state */
    clab_ccp P;
    clab_ccp_init(&P);
    clab_contacts cs;
    clab_contacts_init(&cs);
    const clab_backend_type *dvi = clab_backend_lookup("dvi");
    double envelope = dvi ? dvi->default_envelope : 0.002;
    int rc = 1;
    double *nu = NULL;
    clab_ccp_work W;
    clab_ccp_work_init(&W);
    if (snapshot_ccp(w, envelope, h, o->recovery, NULL, &P, &cs, &err)) {
        fprintf(stderr, "contactlab convergence: %s\n", err.msg);
        goto done;
    }
    double min_phi = 0.0;
    for (size_t i = 0; i < cs.n; i++) min_phi = fmin(min_phi, cs.c[i].phi);
    nu = malloc((P.n ? P.n : 1) * sizeof *nu);
    if (!nu) {
        fprintf(stderr, "contactlab convergence: out of memory\n");
        goto done;
    }
    printf("snapshot settled under %s for %g s (%.1f s): %zu contacts, %zu unknowns, deepest penetration %.3g m\n",
           method, o->t_settle, t_settle_wall, P.ncontacts, P.n, -min_phi);
    printf("%-8s %-7s %7s %8s %11s %9s %9s %11s %9s\n", "settle", "solver", "omega", "iter", "residual", "it->1e-4",
           "it->1e-6", "cpu_s/iter", "cpu_s");

    for (int si = 0; si < o->nsolvers; si++) {
        const clab_ccp_solver_type *S = o->solvers[si];
        clab_ccp_options so = clab_ccp_default_options(S);
        so.max_iter = o->max_iter;
        so.tol = o->tol;
        if (strcmp(S->name, "jacobi") == 0 && o->omega_jacobi > 0.0) so.omega = o->omega_jacobi;
        if (strcmp(S->name, "gs") == 0 && o->omega_gs > 0.0) so.omega = o->omega_gs;
        memset(nu, 0, (P.n ? P.n : 1) * sizeof *nu); /* cold start */
        clab_ccp_result res;
        memset(&res, 0, sizeof res);
        clab_error serr;
        clab_error_clear(&serr);
        double c0 = xp_pile_cpu(), w0 = xp_pile_now();
        int src = S->solve(&P, &so, nu, &W, &res, &serr);
        double cpu = xp_pile_cpu() - c0, wall = xp_pile_now() - w0;
        if (src && src != CLAB_EMAXITER) {
            fprintf(stderr, "contactlab convergence: %s: %s\n", S->name, serr.msg);
            goto done;
        }
        /* the series: residual after each iteration */
        char file[512], path[2048], v[64];
        snprintf(file, sizeof file, "convergence-settled_%s-%s.csv", method, S->name);
        xp_path(&o->c, file, path, sizeof path);
        clab_options m;
        clab_options_init(&m);
        clab_options_set(&m, "experiment", "convergence", NULL);
        clab_options_set(&m, "settle_method", method, NULL);
        clab_options_set(&m, "solver", S->name, NULL);
        clab_options_set(&m, "solver_summary", S->summary, NULL);
        clab_options_set(&m, "start", "cold (nu = 0)", NULL);
        xp_pile_meta(&o->def, &info, &m);
#define META(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(&m, k, v, NULL))
        META("t_settle_s", o->t_settle);
        META("settle_h_s", h_settle);
        META("h_s", h);
        META("envelope_m", envelope);
        META("recovery_speed_m_s", o->recovery);
        META("contacts", P.ncontacts);
        META("unknowns", P.n);
        META("max_iter", so.max_iter);
        META("tol_m_s", so.tol);
        if (S->default_omega > 0.0) META("omega", so.omega);
        META("cpu_s", cpu);
        META("wall_s", wall);
        META("cpu_s_per_iteration", res.iterations ? cpu / res.iterations : NAN);
        META("final_residual_m_s", res.residual);
#undef META
        clab_options_set(&m, "residual_m_s",
                         "max_k |nu_k - Proj_Ck(nu_k - t_k d_k)|/t_k, t_k = size_k/tr(N_kk), d = N nu + p "
                         "(dvi/ccp_solver.h), after each iteration",
                         NULL);
        clab_options_set(&m, "best_residual_m_s", "smallest residual so far (apgd and bb return their best iterate)",
                         NULL);
        clab_options_merge(&m, &smeta);
        static const char *const cols[] = {"iteration", "residual_m_s", "best_residual_m_s"};
        clab_csv *csv = clab_csv_open(path, o->c.force ? CLAB_CSV_OVERWRITE : 0, &err);
        int bad = !csv || clab_csv_meta(csv, &m, o->c.argc, o->c.argv, &err) || clab_csv_header(csv, cols, 3, &err);
        clab_options_free(&m);
        if (csv) clab_csv_set_flush_every(csv, 4096);
        double best = INFINITY;
        for (size_t k = 0; k < res.nhistory && !bad; k++) {
            best = fmin(best, res.history[k]);
            double row[3] = {(double)(k + 1), res.history[k], best};
            bad = clab_csv_row(csv, row, 3, &err);
        }
        if (csv && clab_csv_close(csv, bad ? NULL : &err)) bad = 1;
        if (bad) {
            fprintf(stderr, "contactlab convergence: %s\n", err.msg);
            goto done;
        }
        /* the summary row */
        long k4 = reached(res.history, res.nhistory, 1e-4), k6 = reached(res.history, res.nhistory, 1e-6);
        double spi = res.iterations ? cpu / (double)res.iterations : NAN;
        enum { NV = 14 };
        double vals[NV] = {(double)P.ncontacts, (double)P.n, so.omega, so.tol, (double)res.iterations, res.residual,
                           (double)res.converged, k4 ? (double)k4 : NAN, k6 ? (double)k6 : NAN,
                           k4 ? k4 * spi : NAN, k6 ? k6 * spi : NAN, spi, cpu, wall};
        const char *cells[NV + 3];
        char buf[NV][64];
        cells[0] = method;
        cells[1] = S->name;
        for (int q = 0; q < NV; q++) {
            /* empty cells: omega of a solver without one, a target never reached */
            if (isnan(vals[q]) || (q == 2 && S->default_omega <= 0.0)) buf[q][0] = '\0';
            else snprintf(buf[q], sizeof buf[q], "%.17g", vals[q]);
            cells[q + 2] = buf[q];
        }
        cells[NV + 2] = file;
        if (clab_csv_text_row(sum, cells, NV + 3, &err)) {
            fprintf(stderr, "contactlab convergence: %s\n", err.msg);
            goto done;
        }
        char s4[32], s6[32];
        if (k4) snprintf(s4, sizeof s4, "%ld", k4); else snprintf(s4, sizeof s4, "-");
        if (k6) snprintf(s6, sizeof s6, "%ld", k6); else snprintf(s6, sizeof s6, "-");
        char som[32];
        if (S->default_omega > 0.0) snprintf(som, sizeof som, "%.3g", so.omega); else snprintf(som, sizeof som, "-");
        printf("%-8s %-7s %7s %8ld %11.3e %9s %9s %11.3e %9.3f\n", method, S->name, som, res.iterations,
               res.residual, s4, s6, spi, cpu);
    }
    rc = o->nreg > 0 ? conv_regularized(o, method, w, &info, envelope, h) : 0;
done:
    free(nu);
    clab_ccp_work_free(&W);
    clab_contacts_free(&cs);
    clab_ccp_free(&P);
    clab_options_free(&smeta);
    clab_world_destroy(w);
    return rc;
}

static void conv_help(const xp_common *c)
{
    printf("usage: contactlab convergence [options]\n\n"
           "Residual against iteration of every DVI solver on one CCP: a pile of N spheres is settled\n"
           "(the pile of `contactlab pile`), and the CCP of the next DVI step from that state\n"
           "(Tasora-Anitescu, Eq. (10)) is solved by each solver from a cold start (nu = 0). The residual is the CCP's\n"
           "natural map scaled to a velocity [m/s] (dvi/ccp_solver.h), the same for every solver.\n"
           "Writes convergence-settled_<method>-<solver>.csv (residual after each iteration),\n"
           "convergence-summary.csv (iterations and CPU seconds to reach 1e-4 and 1e-6 m/s, seconds per\n"
           "iteration) and figures.\n\n"
           "Experiment options:\n"
           "  --method M       the methods that settle the pile (below; default dvi): a force law's\n"
           "                   overlaps enter the CCP as Phi/h, capped by the recovery speed\n"
           "  --n N            number of spheres (default 500)\n"
           "  --t-settle S     settling time [s] (default 0.3; --t-end is the same)\n"
           "  --h S            step of a rigid-contact settling run and of the snapshot CCP [s]\n"
           "                   (default 1e-3); a force-law settling run uses its own default step\n"
           "  --solvers LIST   comma-separated, from apgd, gs, jacobi, bb (default all four)\n"
           "  --max-iter N     iteration limit of each solve (default 5000)\n"
           "  --tol X          stop a solve at residual <= X [m/s] (default 1e-8)\n"
           "  --omega-jacobi X Jacobi step factor (default: the solver's, 0.3)\n"
           "  --omega-gs X     Gauss-Seidel SOR factor (default: the solver's, 1)\n"
           "  --recovery-speed V  cap on -Phi/h in the snapshot CCP [m/s] (default 1, as the backend)\n"
           "  --reg-eps LIST   relative compliances eps m/h^2 of the Lacoursiere-Servin regularized CCP,\n"
           "                   solved by Gauss-Seidel as well (default 1e-4,1e-3,1e-2,0.1,1,10;\n"
           "                   0 = none): the extra series convergence-regularized_*.csv and figure\n"
           "  --reg-scheme S   euler (default: tau = 0, so only the diagonal Sigma = eps/h^2 differs\n"
           "                   from the rigid CCP) or spook (tau = 2 h)\n\n"
           "The pile defaults to --packing deposit here (dense at once, so it settles in 0.3 s). The\n"
           "DVI settling run uses tol=" XP_PILE_DVI_TOL " m/s unless --opt dvi:tol=X says otherwise.\n\n%s\n",
           xp_pile_help);
    xp_common_help(c);
}

int xp_convergence(int argc, char **argv)
{
    static const struct option longopts[] = {
        XP_COMMON_LONGOPTS,
        XP_PILE_LONGOPTS,
        {"n", required_argument, 0, 1000},
        {"t-settle", required_argument, 0, 1001},
        {"solvers", required_argument, 0, 1002},
        {"max-iter", required_argument, 0, 1003},
        {"tol", required_argument, 0, 1004},
        {"omega-jacobi", required_argument, 0, 1005},
        {"omega-gs", required_argument, 0, 1006},
        {"recovery-speed", required_argument, 0, 1007},
        {"reg-eps", required_argument, 0, 1008},
        {"reg-scheme", required_argument, 0, 1009},
        {0, 0, 0, 0}};
    conv_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "convergence", argc, argv);
    xp_methods_choose(&o.c, "dvi");
    snprintf(o.c.method_default, sizeof o.c.method_default, "dvi");
    o.def = xp_pile_default();
    o.def.packing = XP_PILE_DEPOSIT;
    o.t_settle = 0.0;
    o.recovery = 1.0;
    o.max_iter = 5000;
    o.tol = 1e-8;
    {
        const double e[] = {1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0};
        for (o.nreg = 0; o.nreg < 6; o.nreg++) o.reg_eps[o.nreg] = e[o.nreg];
        o.reg_scheme = CLAB_DVI_REG_EULER;
    }
    for (const clab_ccp_solver_type *const *all = clab_ccp_solvers(); *all && o.nsolvers < MAXS; all++)
        o.solvers[o.nsolvers++] = *all;
    int rc = 2, opt;
    double x;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        /* every problem of the command line is reported (xp_option_errors below) */
        int r = xp_common_option(&o.c, opt, optarg);
        if (r == 0) r = xp_pile_option(&o.def, opt, optarg);
        if (r != 0) continue;
        int bad = 0;
        switch (opt) {
        case '?' + 256: conv_help(&o.c); rc = 0; goto out;
        case 1000: if (!(bad = xp_parse_double("n", optarg, 1, 1e7, &x))) o.def.n = (int)x; break;
        case 1001: bad = xp_parse_double("t-settle", optarg, 0, 1e6, &o.t_settle); break;
        case 1002: {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", optarg);
            o.nsolvers = 0;
            if (xp_list_check("solvers", optarg)) {
                bad = 1;
                break;
            }
            for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
                const clab_ccp_solver_type *S = clab_ccp_solver_lookup(t);
                if (!S) {
                    xp_option_error("contactlab convergence: --solvers: unknown solver '%s' (apgd, gs, jacobi, bb)\n", t);
                    bad = 1;
                    continue;
                }
                if (o.nsolvers == MAXS) {
                    xp_option_error("contactlab convergence: --solvers takes at most %d names\n", MAXS);
                    bad = 1;
                    break;
                }
                o.solvers[o.nsolvers++] = S;
            }
            if (o.nsolvers == 0 && !bad) xp_option_error("contactlab convergence: --solvers needs at least one name\n");
            break;
        }
        case 1003: if (!(bad = xp_parse_double("max-iter", optarg, 1, 1e8, &x))) o.max_iter = (long)x; break;
        case 1004: bad = xp_parse_double("tol", optarg, 0, 1e3, &o.tol); break;
        case 1005: bad = xp_parse_double("omega-jacobi", optarg, 1e-6, 2.0 - 1e-6, &o.omega_jacobi); break;
        case 1006: bad = xp_parse_double("omega-gs", optarg, 1e-6, 2.0 - 1e-6, &o.omega_gs); break;
        case 1007: bad = xp_parse_double("recovery-speed", optarg, 0, 1e300, &o.recovery); break;
        case 1008:
            bad = xp_parse_list("reg-eps", optarg, 0, 1e12, o.reg_eps, MAXS, &o.nreg);
            if (!bad && o.nreg == 1 && o.reg_eps[0] == 0.0) o.nreg = 0;
            break;
        case 1009:
            if (strcmp(optarg, "euler") == 0) o.reg_scheme = CLAB_DVI_REG_EULER;
            else if (strcmp(optarg, "spook") == 0) o.reg_scheme = CLAB_DVI_REG_SPOOK;
            else {
                xp_option_error("contactlab convergence: --reg-scheme '%s' is not one of: euler, spook\n", optarg);
            }
            break;
        default: xp_option_unknown(); break;
        }
        (void)bad; /* reported and counted: go on with the next option */
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab convergence: unexpected argument '%s'\n", argv[i]);
    if (xp_option_errors("contactlab convergence")) goto out;
    if (o.t_settle <= 0.0) o.t_settle = o.c.t_end > 0.0 ? o.c.t_end : 0.3;
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }
    char spath[2048];
    clab_error err;
    xp_path(&o.c, "convergence-summary.csv", spath, sizeof spath);
    static const char *const scols[] = {
        "settle_method", "solver", "contacts", "unknowns", "omega", "tol_m_s", "iterations", "final_residual_m_s",
        "converged", "iterations_to_1e-4", "iterations_to_1e-6", "cpu_s_to_1e-4", "cpu_s_to_1e-6",
        "cpu_s_per_iteration", "cpu_s", "wall_s", "series_file"};
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "convergence", NULL);
    clab_options_set(&meta, "iterations_to_1e-4", "first iteration with residual <= 1e-4 m/s (empty: never)", NULL);
    clab_options_set(&meta, "cpu_s_to_1e-4", "iterations_to_1e-4 x cpu_s_per_iteration", NULL);
    clab_options_set(&meta, "cpu_s", "CPU time of the whole solve (single thread)", NULL);
    clab_csv *sum = clab_csv_open(spath, o.c.force ? CLAB_CSV_OVERWRITE : 0, &err);
    if (!sum || clab_csv_meta(sum, &meta, o.c.argc, o.c.argv, &err) ||
        clab_csv_header(sum, scols, sizeof scols / sizeof scols[0], &err)) {
        fprintf(stderr, "contactlab convergence: %s\n", err.msg);
        clab_options_free(&meta);
        if (sum) clab_csv_close(sum, NULL);
        rc = 1;
        goto out;
    }
    clab_options_free(&meta);
    if (o.nreg > 0) { /* the regularized GS runs' summary (seed 001) */
        static const char *const rcols[] = {"settle_method", "eps_rel", "compliance_m_N", "stiffness_N_m", "scheme",
                                            "contacts", "iterations", "final_residual_m_s", "converged",
                                            "iterations_to_1e-4", "iterations_to_1e-6", "cpu_s", "series_file"};
        char rpath[2048];
        xp_path(&o.c, "convergence-regularized.csv", rpath, sizeof rpath);
        clab_options_init(&meta);
        clab_options_set(&meta, "experiment", "convergence (Lacoursiere-Servin regularized CCP)", NULL);
        clab_options_set(&meta, "eps_rel", "eps m / h^2, m = mean sphere mass; 0 = the rigid Tasora-Anitescu CCP", NULL);
        clab_options_set(&meta, "solver", "gs (projected Gauss-Seidel), cold start", NULL);
        o.reg_sum = clab_csv_open(rpath, o.c.force ? CLAB_CSV_OVERWRITE : 0, &err);
        if (!o.reg_sum || clab_csv_meta(o.reg_sum, &meta, o.c.argc, o.c.argv, &err) ||
            clab_csv_header(o.reg_sum, rcols, sizeof rcols / sizeof rcols[0], &err)) {
            fprintf(stderr, "contactlab convergence: %s\n", err.msg);
            clab_options_free(&meta);
            if (o.reg_sum) clab_csv_close(o.reg_sum, NULL);
            clab_csv_close(sum, NULL);
            rc = 1;
            goto out;
        }
        clab_options_free(&meta);
    }
    rc = 0;
    for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++)
        if (conv_case(&o, o.c.method[mi], sum)) rc = 1;
    if (clab_csv_close(sum, &err)) {
        fprintf(stderr, "contactlab convergence: %s\n", err.msg);
        rc = 1;
    }
    if (o.reg_sum && clab_csv_close(o.reg_sum, &err)) {
        fprintf(stderr, "contactlab convergence: %s\n", err.msg);
        rc = 1;
    }
    if (rc == 0) {
        printf("\nCSVs: %s/convergence-settled_*.csv (summary: %s)\n", o.c.out, spath);
        if (xp_plot(&o.c, "convergence.gp") == 0 && o.c.plot)
            printf("figures: %s/convergence.png%s (and .pdf)\n", o.c.out,
                   o.nreg > 0 ? ", convergence-regularized.png" : "");
    }
out:
    xp_common_free(&o.c);
    return rc;
}
