/* test_experiments_a: the incline, drop and chain drivers (experiments/incline.c, drop.c,
 * chain.c) run end to end on short cases; each check reads the CSVs they wrote and tests one
 * physical property against its analytic value.
 *
 * 1. incline, mu = 0.3, tan theta / mu = 1.5 (slides) and 0.8 (sticks), both methods:
 *    acceleration within 1% of a = g (sin theta - mu cos theta) (Coulomb block on a slope;
 *    measured errors are ~1e-9, so 1% leaves room for solver tolerances), and a sticking box
 *    moves less than 0.1 mm with |a| < 1e-3 m/s^2.
 * 2. drop, H = 0.05 m: penalty contact time and max overlap within 2% of Hertz theory at the
 *    measured impact speed for an elastic material (cor = 1; Johnson 1985 Sect. 11.4,
 *    t_c = 2.9432 delta_max/v; measured ~0.3%), restitution within 2% of the material's cor
 *    for cor = 1 and 0.8 (the damping law is built for it); DVI restitution < 0.01 (no
 *    restitution term in Tasora-Anitescu's Eq. (5): inelastic).
 * 3. chain of 15 spheres: DVI moves every sphere in the first step (arrival = h, the Tasora-Anitescu
 *    rigid CCP couples the whole row); penalty arrival times increase strictly with position,
 *    and the Hertz wave speed is within 2% of Nesterenko's solitary-wave speed
 *    (16/25)^(1/5) c^(4/5) v_m^(1/5) (measured -0.8%: discrete chain vs long-wave limit).
 * 4. a method list with a variant (penalty,dvi-exact) and --opt METHOD:K=V: each option in the
 *    metadata of its own method's series only. */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clab_analytic.h"
#include "clab_csv.h"
#include "tap.h"
#include "xp.h"

static char outdir[256];

/* run a subcommand as `contactlab <args...> --out <dir>/<name> --force --no-plot --no-progress` */
static int run(int (*cmd)(int, char **), const char *name, const char *const *args)
{
    char *argv[64];
    char out[512];
    int n = 0;
    argv[n++] = (char *)"contactlab";
    argv[n++] = (char *)name;
    for (int i = 0; args[i]; i++) argv[n++] = (char *)args[i];
    snprintf(out, sizeof out, "%s/%s", outdir, name);
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

/* equal as text, or as numbers ("0.80000000000000004" is 0.8) */
static int same(const char *a, const char *b)
{
    if (strcmp(a, b) == 0) return 1;
    char *ea, *eb;
    double x = strtod(a, &ea), y = strtod(b, &eb);
    return ea != a && *ea == '\0' && eb != b && *eb == '\0' && x == y;
}

/* a summary CSV (text cells, no quoting needed): the value of column `col` in the first row
 * whose cells `k1` and `k2` equal v1 and v2 (k2 may be NULL); NAN when absent */
static double summary(const char *file, const char *k1, const char *v1, const char *k2, const char *v2,
                      const char *col)
{
    char path[512], line[8192];
    snprintf(path, sizeof path, "%s/%s", outdir, file);
    FILE *f = fopen(path, "r");
    if (!f) return NAN;
    int nn = 0, i1 = -1, i2 = -1, ic = -1;
    double out = NAN;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        line[strcspn(line, "\r\n")] = '\0';
        char *cells[64];
        int nc = 0;
        for (char *sv = NULL, *tok = strtok_r(line, ",", &sv); tok && nc < 64; tok = strtok_r(NULL, ",", &sv))
            cells[nc++] = tok;
        if (nn == 0) {
            for (int i = 0; i < nc; i++) {
                if (strcmp(cells[i], k1) == 0) i1 = i;
                if (k2 && strcmp(cells[i], k2) == 0) i2 = i;
                if (strcmp(cells[i], col) == 0) ic = i;
            }
            nn = nc;
            if (i1 < 0 || ic < 0 || (k2 && i2 < 0)) break;
            continue;
        }
        if (nc != nn || !same(cells[i1], v1)) continue;
        if (k2 && !same(cells[i2], v2)) continue;
        out = strtod(cells[ic], NULL);
        break;
    }
    fclose(f);
    return out;
}

static void test_incline(void)
{
    const char *args[] = {"--ratios", "1.5,0.8", "--t-end", "0.3", "--settle", "0.05", "--fit-from", "0.1", NULL};
    tap_ok(run(xp_incline, "incline", args) == 0, "incline runs (tan theta/mu = 1.5, 0.8; both methods)");
    const double g = 9.81, mu = 0.3, th = atan(1.5 * mu);
    const double a = clab_analytic_incline_accel(g, th, mu); /* Coulomb block on a slope */
    const char *methods[] = {"penalty", "dvi"};
    for (int i = 0; i < 2; i++) {
        char what[128];
        snprintf(what, sizeof what, "incline %s: sliding acceleration = g (sin - mu cos) within 1%%", methods[i]);
        tap_rel(summary("incline/incline-summary.csv", "method", methods[i], "tan_theta_over_mu", "1.5", "accel_m_s2"),
                a, 0.01, what);
        double as = summary("incline/incline-summary.csv", "method", methods[i], "tan_theta_over_mu", "0.8", "accel_m_s2");
        double ss = summary("incline/incline-summary.csv", "method", methods[i], "tan_theta_over_mu", "0.8",
                            "final_displacement_m");
        tap_ok(fabs(as) < 1e-3 && fabs(ss) < 1e-4, "incline %s: tan theta = 0.8 mu sticks: |a| = %.3g < 1e-3 m/s^2, |s| = %.3g < 1e-4 m",
               methods[i], as, ss);
    }
}

static void test_drop(void)
{
    const char *args[] = {"--heights", "0.05", "--cor", "1,0.8", "--t-end", "0.12", NULL};
    tap_ok(run(xp_drop, "drop", args) == 0, "drop runs (H = 0.05 m, cor = 1 and 0.8, both methods)");
    const char *f = "drop/drop-summary.csv";
    double tc = summary(f, "method", "penalty", "cor", "1", "contact_time_s");
    double tcH = summary(f, "method", "penalty", "cor", "1", "contact_time_hertz_s");
    tap_rel(tc, tcH, 0.02, "drop penalty, cor = 1: contact time within 2% of Hertz 2.9432 delta_max/v");
    tap_rel(summary(f, "method", "penalty", "cor", "1", "max_overlap_m"),
            summary(f, "method", "penalty", "cor", "1", "max_overlap_hertz_m"), 0.02,
            "drop penalty, cor = 1: max overlap within 2% of Hertz (5 m v^2/(4K))^(2/5)");
    tap_rel(summary(f, "method", "penalty", "cor", "1", "restitution"), 1.0, 0.02,
            "drop penalty, cor = 1: restitution 1 within 2%");
    tap_rel(summary(f, "method", "penalty", "cor", "0.8", "restitution"), 0.8, 0.02,
            "drop penalty, cor = 0.8: restitution 0.8 within 2%");
    double e = summary(f, "method", "dvi", "cor", "1", "restitution");
    tap_ok(e >= 0.0 && e < 0.01, "drop DVI: inelastic landing, restitution %.3g < 0.01", e);
}

/* a CSV that an experiment (sub: its output folder) wrote, by its name's start */
static int read_series(const char *sub, const char *prefix, clab_csv_table *t)
{
    char dir[512], path[1024];
    snprintf(dir, sizeof dir, "%s/%s", outdir, sub);
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *e;
    int rc = -1;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            clab_error err;
            rc = clab_csv_read(path, t, &err) ? -1 : 0;
            break;
        }
    closedir(d);
    return rc;
}

static void test_chain(void)
{
    const char *args[] = {"--n", "15", "--fit-from", "5", NULL};
    tap_ok(run(xp_chain, "chain", args) == 0, "chain runs (15 spheres, hertz and hooke, both methods)");
    const char *f = "chain/chain-summary.csv";
    double h = summary(f, "method", "dvi", NULL, NULL, "h_s");
    clab_csv_table t;
    if (read_series("chain", "chain-arrival-rigid-dvi-", &t) == 0) {
        long ia = clab_csv_table_column(&t, "arrival_s");
        int all = t.nrows == 15 && ia >= 0;
        for (size_t r = 0; all && r < t.nrows; r++) all = fabs(t.v[r * t.ncols + ia] - h) <= 1e-12 * h;
        tap_ok(all, "chain DVI: every one of the 15 spheres moves in the first step (arrival = h = %g s)", h);
        clab_csv_table_free(&t);
    } else {
        tap_ok(0, "chain DVI: arrival file readable");
    }
    const char *laws[] = {"hertz", "hooke"};
    for (int l = 0; l < 2; l++) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "chain-arrival-%s-penalty-", laws[l]);
        if (read_series("chain", prefix, &t) == 0) {
            long ia = clab_csv_table_column(&t, "arrival_s");
            int inc = t.nrows == 15 && ia >= 0;
            for (size_t r = 1; inc && r < t.nrows; r++) inc = t.v[r * t.ncols + ia] > t.v[(r - 1) * t.ncols + ia];
            tap_ok(inc, "chain penalty %s: arrival time increases strictly with position (finite wave speed)", laws[l]);
            clab_csv_table_free(&t);
        } else {
            tap_ok(0, "chain penalty %s: arrival file readable", laws[l]);
        }
    }
    tap_rel(summary(f, "method", "penalty", "contact_law", "hertz", "wave_speed_m_s"),
            summary(f, "method", "penalty", "contact_law", "hertz", "wave_speed_theory_m_s"), 0.02,
            "chain penalty hertz: wave speed within 2% of Nesterenko's solitary wave");
}

/* A method list with a named variant and options by method (--opt METHOD:K=V, the alias
 * --opt-penalty): each reaches its method's backend and no other, as the series' metadata
 * (clab_sim_meta: every parameter in force) shows. */
static void test_methods(void)
{
    const char *args[] = {"--method", "penalty,dvi-exact", "--opt", "dvi-exact:exact_tol=2e-7", "--opt-penalty",
                          "model=hooke", "--heights", "0.05", "--cor", "0.8", "--t-end", "0.02", NULL};
    tap_ok(run(xp_drop, "methods", args) == 0, "drop --method penalty,dvi-exact --opt dvi-exact:exact_tol=2e-7 "
                                                "--opt-penalty model=hooke runs");
    clab_csv_table t;
    if (read_series("methods", "drop-H_0.05-cor_0.8-dvi-exact-h_", &t) == 0) {
        const char *fr = clab_csv_table_meta(&t, "dvi_friction"), *et = clab_csv_table_meta(&t, "dvi_exact_tol_m_s");
        const char *ti = clab_csv_table_meta(&t, "method_title"), *be = clab_csv_table_meta(&t, "backend");
        tap_ok(be && strcmp(be, "dvi") == 0 && fr && strcmp(fr, "exact") == 0,
               "method dvi-exact: backend dvi with friction = exact (metadata: %s, %s)", be ? be : "?", fr ? fr : "?");
        tap_ok(et && strtod(et, NULL) == 2e-7, "--opt dvi-exact:exact_tol=2e-7 reaches it (metadata: %s)", et ? et : "?");
        tap_ok(ti && strstr(ti, "De Saxce"), "its title names its author: %s", ti ? ti : "?");
        tap_ok(clab_csv_table_meta(&t, "model") == NULL, "the penalty option model=hooke does not reach it");
        clab_csv_table_free(&t);
    } else {
        tap_ok(0, "method dvi-exact: series readable");
    }
    if (read_series("methods", "drop-H_0.05-cor_0.8-penalty-h_", &t) == 0) {
        const char *mo = clab_csv_table_meta(&t, "model"), *be = clab_csv_table_meta(&t, "backend");
        tap_ok(be && strcmp(be, "penalty") == 0 && mo && strcmp(mo, "hooke") == 0,
               "method penalty: --opt-penalty model=hooke reaches the penalty backend (metadata: %s, %s)",
               be ? be : "?", mo ? mo : "?");
        tap_ok(clab_csv_table_meta(&t, "dvi_exact_tol_m_s") == NULL, "the dvi-exact option exact_tol does not reach it");
        clab_csv_table_free(&t);
    } else {
        tap_ok(0, "method penalty: series readable");
    }
    tap_ok(isnan(summary("methods/drop-summary.csv", "method", "dvi", NULL, NULL, "h_s")),
           "no row of the method dvi, which the list leaves out");
}

/* remove the output folders (two levels: <outdir>/<experiment>/<files>) */
static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        remove(path);
        return;
    }
    struct dirent *e;
    char sub[1024];
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        remove_tree(sub);
    }
    closedir(d);
    rmdir(path);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(outdir, sizeof outdir, "%s/clab-test-experiments-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(outdir)) {
        tap_ok(0, "temporary folder %s", outdir);
        return tap_done();
    }
    tap_diag("output in %s (removed at the end)", outdir);
    test_incline();
    test_drop();
    test_chain();
    test_methods();
    remove_tree(outdir);
    return tap_done();
}
