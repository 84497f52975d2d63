/* fclib_cmd.c: `contactlab fclib solve FILE.hdf5`: an FCLIB problem solved by contactlab's
 * CCP solvers (the Tasora-Anitescu relaxation) or De Saxce's fixed point (Coulomb's problem,
 * the one FCLIB states), with the errors in both conventions (fclib_xp.h, doc/fclib.md). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccp_solver.h"
#include "clab_clock.h"
#include "fclib_xp.h"
#include "friction_exact.h"
#include "xp.h"

void xp_fc_errors(const clab_fc_problem *fp, clab_ccp *P, const double *r, const double *u, xp_fc_run *out)
{
    size_t n = P->n;
    double *d = malloc((n ? n : 1) * sizeof *d), *w = malloc((6 * P->nbodies + 1) * sizeof *w);
    out->residual = out->residual_exact = NAN;
    if (d && w) {
        memcpy(P->p, fp->q, n * sizeof *P->p);
        clab_ccp_d(P, r, w, d);
        out->residual = clab_ccp_residual(P, r, d);
        out->residual_exact = clab_ccp_residual_exact(P, r, d);
    }
    free(d);
    free(w);
    out->err_siconos = clab_fc_error_siconos(fp, r, u);
    out->merit = clab_fc_merit_fclib(fp, r);
}

int xp_fc_solve(const clab_fc_problem *fp, clab_ccp *P, const char *solver, double tol, long max_iter, double *r,
                double *u, xp_fc_run *out, clab_error *err)
{
    memset(out, 0, sizeof *out);
    int exact = strncmp(solver, "exact", 5) == 0;
    const char *inner = exact ? (solver[5] == '-' ? solver + 6 : "apgd") : solver;
    const clab_ccp_solver_type *S = clab_ccp_solver_lookup(inner);
    if (!S || (exact && solver[5] && solver[5] != '-'))
        return clab_error_set(err, CLAB_EINVAL, "unknown solver '%s' (apgd, gs, jacobi, bb, exact, exact-<solver>)",
                              solver);
    clab_ccp_options o = clab_ccp_default_options(S);
    o.tol = tol;
    o.max_iter = max_iter;
    clab_ccp_work W;
    clab_ccp_work_init(&W);
    clab_ccp_result res;
    clab_error sub;
    clab_error_clear(&sub);
    memcpy(P->p, fp->q, P->n * sizeof *P->p);
    int rc;
    double t0 = clab_clock();
    if (exact) {
        clab_friction_exact x;
        clab_exact_init(&x);
        x.friction = CLAB_FRICTION_EXACT;
        x.tol = tol;
        x.max_outer = 200;
        rc = clab_exact_solve(&x, P, S, &o, r, &W, &res, &sub);
        out->outer = x.outer;
        out->converged = x.converged;
        clab_exact_free(&x);
    } else {
        rc = S->solve(P, &o, r, &W, &res, &sub);
        out->outer = 1;
        out->converged = res.converged;
    }
    out->seconds = clab_clock() - t0;
    out->iterations = res.iterations;
    clab_ccp_work_free(&W);
    if (rc && rc != CLAB_EMAXITER) return clab_error_set(err, rc, "%s", sub.msg);
    clab_fc_local_velocity(fp, r, u);
    xp_fc_errors(fp, P, r, u, out);
    return CLAB_OK;
}

static void solve_help(void)
{
    printf("usage: contactlab fclib solve FILE.hdf5 [options]\n\n"
           "Read a 3-D FCLIB frictional-contact problem (global M v = H r + f, u = H^T v + w, or local\n"
           "W r + q = u; doc/fclib.md) and solve it with contactlab's solvers, on the cone complementarity\n"
           "problem rebuilt from the global form (bodies from M, rows of D^T from H):\n"
           "  --solver S        apgd, gs, jacobi, bb: the Tasora-Anitescu CCP (Coulomb's problem without\n"
           "                    De Saxce's shift mu |u_T|, the Tasora-Anitescu relaxation); exact (= exact-apgd),\n"
           "                    exact-gs, ...: Coulomb's problem (the one FCLIB states) by De Saxce's fixed\n"
           "                    point around that solver. A list (apgd,exact) solves with each. Default exact\n"
           "  --tol X           contactlab's residual tolerance [m/s] (default 1e-8)\n"
           "  --max-iter N      iterations per CCP solve (default 100000)\n"
           "Printed: iterations, seconds, ns per (contact x iteration), contactlab's residuals (r of the\n"
           "CCP and r_E of Coulomb's problem, m/s, doc/dvi.md) and Coulomb's error in FCLIB/Siconos's\n"
           "convention (|F|_2/|q|_2 with the natural map F of rho = 1, and fclib_merit_local), for the\n"
           "file's guess (when it carries one) and for each solve.\n");
}

static void print_errors(const char *what, const xp_fc_run *e)
{
    printf("  %-26s r %.3e m/s  r_E %.3e m/s  Siconos %.3e  FCLIB merit %.3e\n", what, e->residual,
           e->residual_exact, e->err_siconos, e->merit);
}

static int solve_cmd(int argc, char **argv)
{
    static const struct option longopts[] = {{"solver", required_argument, 0, 's'},
                                             {"tol", required_argument, 0, 't'},
                                             {"max-iter", required_argument, 0, 'm'},
                                             {"help", no_argument, 0, 'h'},
                                             {0, 0, 0, 0}};
    char solvers[256] = "exact";
    double tol = 1e-8;
    long max_iter = 100000;
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (opt) {
        case 's': snprintf(solvers, sizeof solvers, "%s", optarg); break;
        case 't': xp_parse_double("tol", optarg, 0.0, 1e3, &tol); break;
        case 'm': xp_parse_long("max-iter", optarg, 1, 1000000000L, &max_iter); break;
        case 'h': solve_help(); return 0;
        default: xp_option_unknown(); break;
        }
    }
    if (optind != argc - 1) xp_option_error("contactlab fclib solve: give exactly one FCLIB file (%d given)\n", argc - optind);
    if (xp_option_errors("contactlab fclib solve")) return 2;
    if (!clab_fc_available()) {
        fprintf(stderr, "contactlab fclib solve: %s\n", clab_fc_missing());
        return 1;
    }
    const char *path = argv[optind];
    clab_error err;
    clab_fc_problem fp;
    if (clab_fc_read(path, &fp, &err)) {
        fprintf(stderr, "contactlab fclib solve: %s\n", err.msg);
        return 1;
    }
    int status = 0;
    clab_ccp P;
    size_t n = 3 * fp.nc;
    double *r = calloc(n + 1, sizeof *r), *u = calloc(n + 1, sizeof *u);
    printf("%s: %s\n  %zu contacts%s%s%s\n", path, fp.title[0] ? fp.title : "(no title)", fp.nc,
           fp.has_global ? ", global form" : "", fp.has_local ? ", local form" : "", fp.has_guess ? ", a guess" : "");
    if (clab_fc_to_ccp(&fp, &P, &err)) {
        fprintf(stderr, "contactlab fclib solve: %s: %s\n", path, err.msg);
        status = 1;
    } else if (!r || !u) {
        fprintf(stderr, "contactlab fclib solve: out of memory\n");
        status = 1;
    } else {
        printf("  %zu moving bodies, %zu unknowns\n", P.nbodies - 1, P.n);
        if (fp.has_guess) {
            xp_fc_run g;
            memset(&g, 0, sizeof g);
            xp_fc_errors(&fp, &P, fp.r, fp.u, &g);
            print_errors("the file's guess:", &g);
        }
        char *save = NULL, *tok = strtok_r(solvers, ",", &save);
        for (; tok; tok = strtok_r(NULL, ",", &save)) {
            memset(r, 0, n * sizeof *r);
            xp_fc_run e;
            if (xp_fc_solve(&fp, &P, tok, tol, max_iter, r, u, &e, &err)) {
                fprintf(stderr, "contactlab fclib solve: %s\n", err.msg);
                status = 1;
                continue;
            }
            double ns = e.iterations > 0 && fp.nc > 0 ? 1e9 * e.seconds / ((double)e.iterations * (double)fp.nc) : 0.0;
            int ex = strncmp(tok, "exact", 5) == 0;
            char outer[64] = "";
            if (ex) snprintf(outer, sizeof outer, " in %ld CCP solves", e.outer);
            printf("  %s (%s): %s after %ld iterations%s, %.3g s, %.1f ns per contact x iteration\n", tok,
                   ex ? "Coulomb, De Saxce fixed point" : "Tasora-Anitescu CCP", e.converged ? "converged" : "NOT converged",
                   e.iterations, outer, e.seconds, ns);
            print_errors("its solution:", &e);
        }
        clab_ccp_free(&P);
    }
    free(r);
    free(u);
    clab_fc_free(&fp);
    return status;
}

static void fclib_help(FILE *f)
{
    fprintf(f, "usage: contactlab fclib solve FILE.hdf5 [--solver S] [--tol X] [--max-iter N]\n"
               "       contactlab fclib check FILE.hdf5 [--tol X] [--sic-tol X] [--no-polish]   contactlab's exact\n"
               "         solution and Siconos's NSGS's cross-checked against Coulomb's conditions\n"
               "  (contactlab fclib solve --help; the export: contactlab run SCENE --backend dvi --fclib-dir DIR,\n"
               "  contactlab pile --fclib-dir DIR; Siconos side by side: contactlab bench fclib; doc/fclib.md)\n");
}

int xp_fclib(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        fclib_help(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "solve") == 0) return solve_cmd(argc - 1, argv + 1);
    if (strcmp(argv[1], "check") == 0) return xp_fclib_check(argc - 1, argv + 1);
    fprintf(stderr, "contactlab fclib: unknown subcommand '%s'\n", argv[1]);
    fclib_help(stderr);
    return 2;
}
