/* test_experiments_b: the pile, convergence and scaling drivers (experiments/pile.c,
 * convergence.c, scaling.c, pile_scene.c) run end to end on small cases; each check reads
 * the CSVs they wrote.
 *
 * 1. pile, 30 spheres deposited in the box, 0.3 s, both methods:
 *    - frictionless walls: the time-averaged normal force on the floor equals the total
 *      weight within 3% (a pile at rest: momentum balance, nothing else holds it up; measured
 *      deviations <= 0.4%);
 *    - walls with mu = 0.5: the vertical force of floor and walls together equals the weight
 *      within 3% (measured <= 0.7%), while the floor alone may carry less (Janssen);
 *    - P(f/<f>) is a density: sum pdf * bin width + overflow/n_forces = 1 (to 1e-12), and
 *      the per-contact f_rel of the sphere-sphere contacts with fn > f_eps average to 1;
 *    - the same seed gives the same initial packing under both methods (metadata).
 * 2. convergence, 30 spheres settled under DVI for 0.1 s, every solver to tol = 1e-6 m/s with
 *    20000 iterations allowed: every residual history ends at or below 1e-6 (each solver
 *    converges on this small problem; measured 183..4054 iterations), its length equals the
 *    iteration count of the summary, and the residual the solver reports for the iterate it
 *    returns is the last and smallest of the history (exact: the same double).
 * 3. scaling, N = 20, 40: one summary row per (method, N), each series holds exactly the
 *    timed steps, and the fit file has one row per method with a finite exponent. */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clab_csv.h"
#include "tap.h"
#include "xp.h"

static char outdir[256];

/* run a subcommand as `contactlab <name> <args...> --out <dir>/<sub> --force --no-plot --no-progress` */
static int run(int (*cmd)(int, char **), const char *name, const char *sub, const char *const *args)
{
    char *argv[64];
    char out[512];
    int n = 0;
    argv[n++] = (char *)"contactlab";
    argv[n++] = (char *)name;
    for (int i = 0; args[i]; i++) argv[n++] = (char *)args[i];
    snprintf(out, sizeof out, "%s/%s", outdir, sub);
    argv[n++] = (char *)"--out";
    argv[n++] = out;
    argv[n++] = (char *)"--force";
    argv[n++] = (char *)"--no-plot";
    argv[n++] = (char *)"--no-progress";
    argv[n] = NULL;
    fflush(stdout);
    int rc = cmd(n - 1, argv + 1);
    fflush(stdout);
    return rc;
}

/* split a CSV line in place at commas, keeping empty cells; returns the number of cells */
static int split(char *line, char **cells, int max)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; n < max;) {
        cells[n++] = p;
        char *c = strchr(p, ',');
        if (!c) break;
        *c = '\0';
        p = c + 1;
    }
    return n;
}

/* a summary CSV: the value of column `col` in the row whose cells k1, k2 equal v1, v2
 * (k2 may be NULL); counts the data rows in *rows when rows is not NULL; NAN when absent */
static double summary(const char *sub, const char *file, const char *k1, const char *v1, const char *k2,
                      const char *v2, const char *col, int *rows)
{
    char path[512], line[8192];
    snprintf(path, sizeof path, "%s/%s/%s", outdir, sub, file);
    FILE *f = fopen(path, "r");
    if (rows) *rows = 0;
    if (!f) return NAN;
    int header = 1, i1 = -1, i2 = -1, ic = -1;
    double out = NAN;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char *cells[64];
        int nc = split(line, cells, 64);
        if (header) {
            for (int i = 0; i < nc; i++) {
                if (strcmp(cells[i], k1) == 0) i1 = i;
                if (k2 && strcmp(cells[i], k2) == 0) i2 = i;
                if (strcmp(cells[i], col) == 0) ic = i;
            }
            header = 0;
            continue;
        }
        if (rows) (*rows)++;
        if (i1 < 0 || ic < 0 || ic >= nc || i1 >= nc || (k2 && (i2 < 0 || i2 >= nc))) continue;
        if (strcmp(cells[i1], v1) != 0) continue;
        if (k2 && strtod(cells[i2], NULL) != strtod(v2, NULL) && strcmp(cells[i2], v2) != 0) continue;
        if (isnan(out)) out = cells[ic][0] ? strtod(cells[ic], NULL) : NAN;
    }
    fclose(f);
    return out;
}

static int read_table(const char *sub, const char *file, clab_csv_table *t)
{
    char path[512];
    clab_error err;
    snprintf(path, sizeof path, "%s/%s/%s", outdir, sub, file);
    if (clab_csv_read(path, t, &err)) {
        tap_diag("%s", err.msg);
        return -1;
    }
    return 0;
}

static void test_pile(void)
{
    static const char *const walls0[] = {"--n", "30", "--packing", "deposit", "--t-end", "0.3", NULL};
    static const char *const walls5[] = {"--n", "30", "--packing", "deposit", "--t-end", "0.3", "--mu-wall", "0.5",
                                         NULL};
    tap_ok(run(xp_pile, "pile", "pile0", walls0) == 0, "pile (frictionless walls) runs");
    tap_ok(run(xp_pile, "pile", "pile5", walls5) == 0, "pile (walls mu = 0.5) runs");
    const char *methods[] = {"penalty", "dvi"};
    for (int m = 0; m < 2; m++) {
        char what[160];
        snprintf(what, sizeof what, "%s: floor load / weight, frictionless walls (tol 3%%)", methods[m]);
        tap_close(summary("pile0", "pile-summary.csv", "method", methods[m], NULL, NULL, "floor_ratio", NULL), 1.0,
                  0.03, what);
        snprintf(what, sizeof what, "%s: (floor + wall) vertical load / weight, walls mu = 0.5 (tol 3%%)", methods[m]);
        tap_close(summary("pile5", "pile-summary.csv", "method", methods[m], NULL, NULL, "support_ratio", NULL), 1.0,
                  0.03, what);

        /* the histogram is a density */
        char file[128];
        snprintf(file, sizeof file, "pile-n_30-%s-pdf.csv", methods[m]);
        clab_csv_table t;
        if (read_table("pile0", file, &t) == 0) {
            long lo = clab_csv_table_column(&t, "f_rel_lo"), hi = clab_csv_table_column(&t, "f_rel_hi"),
                 pdf = clab_csv_table_column(&t, "pdf");
            double integral = 0.0;
            for (size_t r = 0; r < t.nrows; r++)
                integral += t.v[r * t.ncols + pdf] * (t.v[r * t.ncols + hi] - t.v[r * t.ncols + lo]);
            const char *ov = clab_csv_table_meta(&t, "overflow"), *nf = clab_csv_table_meta(&t, "n_forces");
            double n_forces = nf ? strtod(nf, NULL) : NAN;
            if (ov && n_forces > 0) integral += strtod(ov, NULL) / n_forces;
            snprintf(what, sizeof what, "%s: sum P(f/<f>) df + overflow share = 1 (tol 1e-12, %g forces)", methods[m],
                     n_forces);
            tap_close(integral, 1.0, 1e-12, what);
            clab_csv_table_free(&t);
        } else {
            tap_ok(0, "%s: histogram readable", methods[m]);
        }
        /* f_rel averages to 1 over the contacts it was normalised on */
        snprintf(file, sizeof file, "pile-n_30-%s-contacts.csv", methods[m]);
        if (read_table("pile0", file, &t) == 0) {
            long fr = clab_csv_table_column(&t, "f_rel"), ss = clab_csv_table_column(&t, "sphere_sphere"),
                 fn = clab_csv_table_column(&t, "fn_N");
            const char *fe = clab_csv_table_meta(&t, "f_eps_N");
            double f_eps = fe ? strtod(fe, NULL) : 0.0, sum = 0.0;
            long cnt = 0;
            for (size_t r = 0; r < t.nrows; r++)
                if (t.v[r * t.ncols + ss] == 1.0 && t.v[r * t.ncols + fn] > f_eps) sum += t.v[r * t.ncols + fr], cnt++;
            snprintf(what, sizeof what, "%s: mean f/<f> over %ld load-carrying sphere contacts = 1 (tol 1e-12)",
                     methods[m], cnt);
            tap_close(cnt ? sum / cnt : NAN, 1.0, 1e-12, what);
            clab_csv_table_free(&t);
        } else {
            tap_ok(0, "%s: contact list readable", methods[m]);
        }
    }
    /* same seed, same packing: the initial column top agrees exactly between the methods */
    clab_csv_table a, b;
    if (read_table("pile0", "pile-n_30-penalty.csv", &a) == 0) {
        if (read_table("pile0", "pile-n_30-dvi.csv", &b) == 0) {
            const char *ta = clab_csv_table_meta(&a, "initial_column_top_m"), *tb = clab_csv_table_meta(&b, "initial_column_top_m");
            const char *sa = clab_csv_table_meta(&a, "seed");
            tap_ok(ta && tb && sa && strcmp(ta, tb) == 0 && strcmp(sa, "1") == 0,
                   "same seed (%s), same packing under both methods (column top %s vs %s m)", sa ? sa : "?",
                   ta ? ta : "?", tb ? tb : "?");
            clab_csv_table_free(&b);
        }
        clab_csv_table_free(&a);
    }
}

static void test_convergence(void)
{
    static const char *const args[] = {"--n", "30", "--t-settle", "0.1", "--max-iter", "20000", "--tol", "1e-6", NULL};
    tap_ok(run(xp_convergence, "convergence", "conv", args) == 0, "convergence runs");
    const char *solvers[] = {"apgd", "gs", "jacobi", "bb"};
    for (int s = 0; s < 4; s++) {
        char file[128];
        snprintf(file, sizeof file, "convergence-settled_dvi-%s.csv", solvers[s]);
        clab_csv_table t;
        if (read_table("conv", file, &t) != 0 || t.nrows == 0) {
            tap_ok(0, "%s: residual history readable and not empty", solvers[s]);
            continue;
        }
        long rc = clab_csv_table_column(&t, "residual_m_s"), bc = clab_csv_table_column(&t, "best_residual_m_s");
        double last = t.v[(t.nrows - 1) * t.ncols + rc];
        tap_ok(last <= 1e-6, "%s: residual history ends at %.3g <= tol 1e-6 m/s after %zu iterations", solvers[s], last,
               t.nrows);
        double it = summary("conv", "convergence-summary.csv", "solver", solvers[s], NULL, NULL, "iterations", NULL);
        tap_ok(it == (double)t.nrows, "%s: history length %zu = summary iterations %g", solvers[s], t.nrows, it);
        /* a converged solve stops at the first r <= tol, so the returned iterate is the last one
         * and the smallest of the history */
        double fin = summary("conv", "convergence-summary.csv", "solver", solvers[s], NULL, NULL, "final_residual_m_s",
                             NULL);
        double best = t.v[(t.nrows - 1) * t.ncols + bc];
        tap_ok(fin == last && best == last, "%s: returned residual %.17g = last = smallest of the history (%.17g)",
               solvers[s], fin, best);
        clab_csv_table_free(&t);
    }
}

static void test_scaling(void)
{
    static const char *const args[] = {"--n", "20,40", "--steps-penalty", "20", "--steps-dvi", "3", "--t-end", "0.001",
                                       NULL};
    tap_ok(run(xp_scaling, "scaling", "scal", args) == 0, "scaling runs");
    int rows = 0;
    summary("scal", "scaling-summary.csv", "method", "dvi", NULL, NULL, "n", &rows);
    tap_ok(rows == 4, "scaling-summary.csv has one row per (method, N): %d rows, want 4", rows);
    const char *methods[] = {"penalty", "dvi"};
    const int ns[] = {20, 40};
    for (int m = 0; m < 2; m++) {
        for (int k = 0; k < 2; k++) {
            char file[128], nstr[16];
            snprintf(nstr, sizeof nstr, "%d", ns[k]);
            double cps = summary("scal", "scaling-summary.csv", "method", methods[m], "n", nstr, "cpu_s_per_step", NULL);
            tap_ok(cps > 0 && isfinite(cps), "%s N = %d: cpu_s_per_step = %g > 0", methods[m], ns[k], cps);
            snprintf(file, sizeof file, "scaling-n_%d-%s.csv", ns[k], methods[m]);
            clab_csv_table t;
            size_t want = m == 0 ? 20 : 3;
            if (read_table("scal", file, &t) == 0) {
                tap_ok(t.nrows == want, "%s: %zu timed steps, want %zu", file, t.nrows, want);
                clab_csv_table_free(&t);
            } else {
                tap_ok(0, "%s readable", file);
            }
        }
        double b = summary("scal", "scaling-fit.csv", "method", methods[m], NULL, NULL, "exponent_b", NULL);
        tap_ok(isfinite(b), "%s: fitted exponent b = %g is finite", methods[m], b);
    }
}

/* remove the output folders (two levels: <outdir>/<sub>/<file>) */
static void cleanup(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char path[1024];
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0 && depth > 0) cleanup(path, depth - 1);
    }
    closedir(d);
    rmdir(dir);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(outdir, sizeof outdir, "%s/clab-xpb-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(outdir)) {
        tap_ok(0, "temporary folder %s", outdir);
        return tap_done();
    }
    test_pile();
    test_convergence();
    test_scaling();
    cleanup(outdir, 1);
    return tap_done();
}
