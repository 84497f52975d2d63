/* bench_fclib.c: `contactlab bench fclib [FILES]`: FCLIB problems solved side by side by
 * contactlab's solvers and, when contactlab was built with Siconos numerics, by Siconos's fc3d
 * solvers, in the same run (doc/fclib.md).
 *
 * Default problems (written into OUT/fclib/ by the export when absent): contactlab's own
 * piles of 1,000 and 8,000 spheres (--quick: 1,000 only), deposited (pile_scene.h) and
 * settled by SETTLE_STEPS DVI steps, and a stack of NBOX boxes on a floor; each file is the
 * problem of the step after. contactlab: apgd (the Tasora-Anitescu CCP, for reference) and
 * exact (Coulomb's problem, De Saxce around apgd). Per problem and solver: contacts, tolerance, iterations,
 * seconds (wall clock and the process's CPU time), ns per (contact x iteration) in CPU time, the error reached in the FCLIB/Siconos convention
 * (|F|_2/|q|_2, clab_fc_error_siconos, the same function for every solver) and contactlab's
 * exact-Coulomb residual r_E (m/s), and the agreement with the reference solution (of the
 * converged ones the one with the smallest error in Siconos's convention, else contactlab's
 * exact): max |u - u_ref| (contact velocities,
 * m/s) and max |r - r_ref| / max |r_ref| (reactions). The default problems are hyperstatic
 * (more contact unknowns than body velocities: the reactions are not unique), so only the
 * velocities and the errors must agree there; the reactions' difference is printed for
 * information. Siconos's PROX and NSN-AC (sparse factorizations through MUMPS) run on problems
 * of at most NEWTON_MAX_CONTACTS contacts: on the 1,000-sphere pile they exhaust the memory.
 * Rows go to OUT/fclib-bench.csv too. Then contactlab's exact solution and Siconos's NSGS's
 * (else the best converged Siconos solution) are cross-checked (fclib_cross.c: Coulomb's
 * conditions contact by contact, their difference, the fixed-point test), also into
 * OUT/fclib-crosscheck.csv. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "clab_siconos.h"
#include "fclib_xp.h"
#include "pile_scene.h"
#include "xp.h"

#define SETTLE_STEPS 150 /* DVI steps of 1 ms that settle a deposited pile before the export */
#define NBOX 10          /* boxes of the stack */
#define NEWTON_MAX_CONTACTS 1000 /* Siconos's PROX and NSN-AC above this: skipped (see below) */

/* settle the world under the DVI backend for nsteps, then write the next step's problem */
static int export_world(clab_world *w, long nsteps, const char *path, const char *label)
{
    clab_options o;
    clab_options_init(&o);
    clab_error err;
    clab_options_parse(&o, "tol=1e-5", "bench fclib", &err);
    clab_options_parse(&o, "max_iter=5000", "bench fclib", &err);
    clab_sim *s = clab_sim_create(w, "dvi", 1e-3, &o, &err);
    clab_options_free(&o);
    if (!s) {
        fprintf(stderr, "contactlab bench fclib: %s: %s\n", label, err.msg);
        return -1;
    }
    int rc = 0;
    double t0 = bench_now();
    for (long k = 0; k <= nsteps && !rc; k++) rc = clab_sim_step(s, &err);
    if (!rc) rc = xp_fclib_write_step(s, path, &err);
    if (rc) fprintf(stderr, "contactlab bench fclib: %s: %s\n", label, err.msg);
    else printf("  wrote %s (%s, %ld DVI steps of 1 ms, %zu contacts, kinetic energy %.3g J, %.1f s)\n", path, label,
                nsteps + 1, s->contacts.n, clab_world_kinetic_energy(w), bench_now() - t0);
    clab_sim_destroy(s);
    return rc ? -1 : 0;
}

static int make_pile(const char *path, int n)
{
    xp_pile_def d = xp_pile_default();
    d.n = n;
    d.packing = XP_PILE_DEPOSIT;
    xp_pile_info info;
    clab_error err;
    clab_world *w = xp_pile_build(&d, &info, &err);
    if (!w) {
        fprintf(stderr, "contactlab bench fclib: pile of %d: %s\n", n, err.msg);
        return -1;
    }
    char label[64];
    snprintf(label, sizeof label, "deposited pile of %d spheres", n);
    int rc = export_world(w, SETTLE_STEPS, path, label);
    clab_world_destroy(w);
    return rc;
}

/* NBOX cubes of 0.1 m (1 kg) stacked face to face on a floor: 4 contacts a face */
static int make_boxes(const char *path)
{
    clab_world_def wd = clab_default_world_def();
    clab_world *w = clab_world_create(&wd);
    clab_error err;
    clab_body_def f = clab_default_body_def();
    f.shape = clab_plane();
    f.fixed = 1;
    int rc = w && clab_world_add_body(w, &f, &err) >= 0 ? 0 : -1;
    for (int k = 0; k < NBOX && !rc; k++) {
        clab_body_def b = clab_default_body_def();
        b.shape = clab_box(0.05, 0.05, 0.05);
        b.mass = 1.0;
        b.r = clab_v3(0.0, 0.0, 0.05 + 0.1 * k);
        if (clab_world_add_body(w, &b, &err) < 0) rc = -1;
    }
    if (!rc) rc = export_world(w, 20, path, "stack of 10 boxes");
    else fprintf(stderr, "contactlab bench fclib: box stack: %s\n", w ? err.msg : "out of memory");
    clab_world_destroy(w);
    return rc;
}

static double max_abs_diff(const double *a, const double *b, size_t n)
{
    double m = 0.0;
    for (size_t k = 0; k < n; k++) m = fmax(m, fabs(a[k] - b[k]));
    return m;
}

/* contacts whose velocity (any of its 3 entries) differs by more than eps */
static size_t count_diff(const double *a, const double *b, size_t nc, double eps)
{
    size_t c = 0;
    for (size_t i = 0; i < nc; i++)
        if (fabs(a[3 * i] - b[3 * i]) > eps || fabs(a[3 * i + 1] - b[3 * i + 1]) > eps || fabs(a[3 * i + 2] - b[3 * i + 2]) > eps)
            c++;
    return c;
}

static double max_abs(const double *a, size_t n)
{
    double m = 0.0;
    for (size_t k = 0; k < n; k++) m = fmax(m, fabs(a[k]));
    return m;
}

typedef struct sol {
    char name[32];
    double tol;
    long iterations;
    double seconds, cpu, err_sic, r_exact, err_own; /* cpu: the process's CPU time of the solve [s] */
    int converged;
    double *r, *u;
} sol;

/* one problem: every solver, then the agreement with the reference */
static int bench_file(const bench_ctx *c, const char *path, FILE *csv, FILE *xcsv)
{
    clab_error err;
    clab_fc_problem fp;
    if (clab_fc_read(path, &fp, &err)) {
        fprintf(stderr, "contactlab bench fclib: %s\n", err.msg);
        return -1;
    }
    clab_ccp P;
    int have_ccp = clab_fc_to_ccp(&fp, &P, &err) == 0;
    if (!have_ccp) printf("  %s: contactlab's solvers skipped: %s\n", path, err.msg);
    size_t n = 3 * fp.nc;
    size_t ndof = fp.has_global ? (size_t)fp.M.n : 0;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    printf("\n%s: %zu contacts, %zu body velocities%s\n", base, fp.nc, ndof,
           n > ndof ? " (hyperstatic: 3 x contacts > velocities, reactions not unique: compare velocities and errors)" : "");
    /* Gauss-Seidel does not reach these tolerances on the piles (doc/performance.md): exact
     * around apgd only */
    const char *clab_solvers[] = {"apgd", "exact"};
    const char *const *sic = clab_sic_solvers();
    sol runs[16];
    int nr = 0;
    double ctol = c->quick ? 1e-6 : 1e-8, stol = c->quick ? 1e-6 : 1e-8;
    long citer = c->quick ? 20000 : 100000, siter = c->quick ? 2000 : 10000;
    for (int k = 0; have_ccp && k < 2; k++) {
        sol *S = &runs[nr];
        memset(S, 0, sizeof *S);
        S->r = calloc(n + 1, sizeof *S->r), S->u = calloc(n + 1, sizeof *S->u);
        fprintf(stderr, "  %s: contactlab %s ...\n", base, clab_solvers[k]);
        xp_fc_run e;
        const double c0 = bench_cpu_now(1);
        if (!S->r || !S->u || xp_fc_solve(&fp, &P, clab_solvers[k], ctol, citer, S->r, S->u, &e, &err)) {
            fprintf(stderr, "contactlab bench fclib: %s: %s\n", clab_solvers[k], err.msg);
            free(S->r), free(S->u);
            continue;
        }
        snprintf(S->name, sizeof S->name, "clab %s", clab_solvers[k]);
        S->cpu = bench_cpu_now(1) - c0;
        S->tol = ctol, S->iterations = e.iterations, S->seconds = e.seconds, S->converged = e.converged;
        S->err_sic = e.err_siconos, S->r_exact = e.residual_exact;
        S->err_own = k == 0 ? e.residual : e.residual_exact;
        nr++;
    }
    for (int k = 0; sic[k] && nr < 16; k++) {
        /* the Newton-based solvers factor W through MUMPS: out of memory on the piles (PROX
         * at 3,446 contacts under a 3 GB limit: "graphCoarsen3: out of memory"), so small
         * problems only */
        if ((strcmp(sic[k], "prox") == 0 || strcmp(sic[k], "nsn-ac") == 0) && fp.nc > NEWTON_MAX_CONTACTS) {
            printf("  siconos %-7s skipped: %zu contacts > %d (its sparse factorization runs out of memory)\n", sic[k],
                   fp.nc, NEWTON_MAX_CONTACTS);
            continue;
        }
        sol *S = &runs[nr];
        memset(S, 0, sizeof *S);
        S->r = calloc(n + 1, sizeof *S->r), S->u = calloc(n + 1, sizeof *S->u);
        clab_sic_result res;
        fprintf(stderr, "  %s: Siconos %s ...\n", base, sic[k]);
        long it = strcmp(sic[k], "nsn-ac") == 0 ? siter / 10 : siter;
        const double c0 = bench_cpu_now(1);
        if (!S->r || !S->u || clab_sic_solve(&fp, sic[k], stol, it, S->r, S->u, &res, &err)) {
            fprintf(stderr, "contactlab bench fclib: siconos %s: %s\n", sic[k], err.msg);
            free(S->r), free(S->u);
            continue;
        }
        snprintf(S->name, sizeof S->name, "siconos %s", sic[k]);
        S->cpu = bench_cpu_now(1) - c0;
        S->tol = stol, S->iterations = res.iterations, S->seconds = res.seconds, S->converged = res.info == 0;
        S->err_sic = clab_fc_error_siconos(&fp, S->r, S->u);
        S->err_own = res.error;
        if (have_ccp) {
            xp_fc_run e;
            xp_fc_errors(&fp, &P, S->r, S->u, &e);
            S->r_exact = e.residual_exact;
        } else {
            S->r_exact = NAN;
        }
        nr++;
    }
    /* the reference: of the converged solutions, the one with the smallest error in Siconos's
     * convention (the same function for every solver), else contactlab's exact */
    int ref = -1;
    for (int k = 0; k < nr; k++)
        if (runs[k].converged && isfinite(runs[k].err_sic) && (ref < 0 || runs[k].err_sic < runs[ref].err_sic)) ref = k;
    for (int k = 0; k < nr && ref < 0; k++)
        if (strcmp(runs[k].name, "clab exact") == 0) ref = k;
    printf("  %-16s %8s %9s %9s %11s %11s %11s %11s %11s %11s %11s %11s %s\n", "solver", "contacts", "tol", "iter",
           "seconds", "CPU s", "ns/(c x it)", "err Siconos", "own error", "r_E [m/s]", "du [m/s]", "dr/|r|", "n(du>1e-4)");
    for (int k = 0; k < nr; k++) {
        sol *S = &runs[k];
        /* per (contact x iteration) in CPU time: the wall clock of a shared host counts the others' work */
        double ns = S->iterations > 0 && fp.nc ? 1e9 * S->cpu / ((double)S->iterations * (double)fp.nc) : 0.0;
        double du = ref >= 0 ? max_abs_diff(S->u, runs[ref].u, n) : NAN;
        double rmax = ref >= 0 ? max_abs(runs[ref].r, n) : NAN;
        double dr = ref >= 0 && rmax > 0 ? max_abs_diff(S->r, runs[ref].r, n) / rmax : NAN;
        size_t ndu = ref >= 0 ? count_diff(S->u, runs[ref].u, fp.nc, 1e-4) : 0;
        printf("  %-16s %8zu %9.1e %9ld %11.4g %11.4g %11.1f %11.3e %11.3e %11.3e %11.3e %11.3e %11zu%s%s\n", S->name,
               fp.nc, S->tol, S->iterations, S->seconds, S->cpu, ns, S->err_sic, S->err_own, S->r_exact, du, dr, ndu,
               S->converged ? "" : "  (not converged)", k == ref ? "  (reference)" : "");
        if (csv)
            fprintf(csv, "%s,%zu,%s,%.3g,%ld,%.6g,%.6g,%.4g,%.6e,%.6e,%.6e,%.6e,%.6e,%zu,%d\n", base, fp.nc, S->name,
                    S->tol, S->iterations, S->seconds, S->cpu, ns, S->err_sic, S->err_own, S->r_exact, du, dr, ndu, S->converged);
    }
    /* the cross-check of contactlab's exact solution and the best converged Siconos solution */
    int a = -1, b = -1;
    for (int k = 0; k < nr; k++) {
        if (strcmp(runs[k].name, "clab exact") == 0) a = k;
        if (strncmp(runs[k].name, "siconos ", 8) == 0 && runs[k].converged && (b < 0 || runs[k].err_sic < runs[b].err_sic))
            b = k;
    }
    for (int k = 0; k < nr; k++) /* NSGS when it converged: the one whose difference is in question */
        if (strcmp(runs[k].name, "siconos nsgs") == 0 && runs[k].converged) b = k;
    if (a >= 0 && b >= 0) {
        xp_fc_pair x = {runs[a].name, runs[b].name, runs[b].name + 8, runs[a].r, runs[a].u, runs[b].r, runs[b].u,
                        ctol, stol, citer, siter, 0};
        xp_fc_cross(&fp, &P, &x, xcsv, base);
    }
    for (int k = 0; k < nr; k++) free(runs[k].r), free(runs[k].u);
    if (have_ccp) clab_ccp_free(&P);
    clab_fc_free(&fp);
    return 0;
}

int bench_fclib_export(const bench_ctx *c, const clab_sim *s, const char *name)
{
    xp_fclib_export x = {c->fclib_dir, 1, name, 0, 0};
    clab_error err;
    if (xp_fclib_after_step(&x, s, &err)) {
        fprintf(stderr, "contactlab bench: --fclib-dir: %s\n", err.msg);
        return -1;
    }
    if (x.written) printf("  FCLIB problem: %s/%s-step%ld.hdf5\n", c->fclib_dir, name, s->world->step);
    return 0;
}

int bench_fclib(const bench_ctx *c)
{
    if (!clab_fc_available()) {
        fprintf(stderr, "contactlab bench fclib: %s\n", clab_fc_missing());
        return 1;
    }
    if (!clab_sic_available()) printf("  (%s: contactlab's solvers only)\n", clab_sic_missing());
    char dir[1200], paths[3][1400];
    const char *files[64];
    int nfiles = 0;
    for (int k = 0; k < c->nfiles && nfiles < 64; k++) files[nfiles++] = c->files[k];
    if (nfiles == 0) { /* the defaults, made when absent */
        snprintf(dir, sizeof dir, "%s/fclib", c->out);
        if (xp_mkdir_p(dir)) {
            fprintf(stderr, "contactlab bench fclib: cannot create %s: %s\n", dir, strerror(errno));
            return 1;
        }
        snprintf(paths[0], sizeof paths[0], "%s/boxes-%d.hdf5", dir, NBOX);
        snprintf(paths[1], sizeof paths[1], "%s/pile-1000.hdf5", dir);
        snprintf(paths[2], sizeof paths[2], "%s/pile-8000.hdf5", dir);
        struct stat st;
        for (int k = 0; k < (c->quick ? 2 : 3); k++) {
            if (stat(paths[k], &st) != 0 && (k == 0 ? make_boxes(paths[k]) : make_pile(paths[k], k == 1 ? 1000 : 8000)))
                return 1;
            files[nfiles++] = paths[k];
        }
    }
    char cpath[1200];
    snprintf(cpath, sizeof cpath, "%s/fclib-bench.csv", c->out);
    FILE *csv = fopen(cpath, "w");
    if (csv)
        fprintf(csv, "# contactlab bench fclib: err_siconos = |F|_2/|q|_2 (natural map of Coulomb's problem, rho 1); "
                     "own_error = contactlab's residual [m/s] or Siconos's reported error; r_exact = contactlab's "
                     "exact-Coulomb residual [m/s]; du [m/s], dr relative to the reference's max |r|; seconds: wall clock, "
                     "cpu_seconds: the process's CPU time (all threads) of the solve, ns_per_contact_iteration from it\n"
                     "problem,contacts,solver,tol,iterations,seconds,cpu_seconds,ns_per_contact_iteration,err_siconos,own_error,"
                     "r_exact_m_s,du_m_s,dr_rel,contacts_du_above_1e-4_m_s,converged\n");
    char xpath[1200];
    snprintf(xpath, sizeof xpath, "%s/fclib-crosscheck.csv", c->out);
    FILE *xcsv = fopen(xpath, "w");
    if (xcsv)
        fprintf(xcsv, "# contactlab bench fclib: the cross-check of contactlab's exact solution (a) and the best "
                      "converged Siconos solution (b) of Coulomb's problem: conditions per solution, their difference, "
                      "the fixed-point test (doc/fclib.md)\nproblem,of,quantity,value\n");
    int status = 0;
    for (int k = 0; k < nfiles; k++)
        if (bench_file(c, files[k], csv, xcsv)) status = 1;
    if (csv) fclose(csv);
    if (xcsv) fclose(xcsv);
    printf("  table: %s\n  cross-check: %s\n", cpath, xpath);
    return status;
}
