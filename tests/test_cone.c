/* test_cone.c: the friction-cone projections of dvi/cone.c.
 * Expected values: the definitions of K_i and K_i° in seed 000, Sect. 4, and Moreau's
 * decomposition x = Proj_K(x) + Proj_K°(x), Proj_K(x) . Proj_K°(x) = 0 (Moreau 1962).
 * Tolerances: 1e-12 relative to |x| (a few roundings of sqrt and division).
 * The one-contact CCP clab_cone_qp (cone_qp.c) is checked by its optimality conditions,
 * Eq. (7) of seed 000 for one contact: x in K, y = A x + r in K*, x . y = 0 (for this convex
 * problem they are necessary and sufficient), to 1e-10 of the data's scale. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#include "ccp_fast.h"
#include "cone.h"
#include "tap.h"

static double norm3(const double x[3]) { return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]); }

/* a random point of K_mu: x_n >= 0, |x_T| <= mu x_n */
static void random_cone_point(gsl_rng *r, double mu, double z[3])
{
    double xn = 3.0 * gsl_rng_uniform(r);
    double rad = mu * xn * sqrt(gsl_rng_uniform(r)), ang = 2.0 * M_PI * gsl_rng_uniform(r);
    z[0] = xn, z[1] = rad * cos(ang), z[2] = rad * sin(ang);
}

/* inverse of a 3x3 by cofactors */
static void inv3(const double A[9], double X[9])
{
    double c00 = A[4] * A[8] - A[5] * A[7], c01 = A[5] * A[6] - A[3] * A[8], c02 = A[3] * A[7] - A[4] * A[6];
    double id = 1.0 / (A[0] * c00 + A[1] * c01 + A[2] * c02);
    X[0] = c00 * id, X[1] = (A[2] * A[7] - A[1] * A[8]) * id, X[2] = (A[1] * A[5] - A[2] * A[4]) * id;
    X[3] = c01 * id, X[4] = (A[0] * A[8] - A[2] * A[6]) * id, X[5] = (A[2] * A[3] - A[0] * A[5]) * id;
    X[6] = c02 * id, X[7] = (A[1] * A[6] - A[0] * A[7]) * id, X[8] = (A[0] * A[4] - A[1] * A[3]) * id;
}

/* random one-contact problems: KKT of min 1/2 x.A x + r.x over K */
static void cone_qp_checks(gsl_rng *rng)
{
    int cases[4] = {0, 0, 0, 0};
    double worst_K = 0.0, worst_dual = 0.0, worst_comp = 0.0;
    for (int t = 0; t < 20000; t++) {
        double mu = (t % 5 == 0) ? 0.0 : 2.0 * gsl_rng_uniform(rng);
        /* A = B B^T + eps I, with a wide spread of conditioning */
        double B[9], A[9], Ai[9], r[3];
        double eps = pow(10.0, -3.0 * gsl_rng_uniform(rng));
        for (int k = 0; k < 9; k++) B[k] = 2.0 * gsl_rng_uniform(rng) - 1.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                A[3 * i + j] = B[3 * i] * B[3 * j] + B[3 * i + 1] * B[3 * j + 1] + B[3 * i + 2] * B[3 * j + 2] +
                               (i == j ? eps : 0.0);
        inv3(A, Ai);
        for (int k = 0; k < 3; k++) r[k] = 2.0 * gsl_rng_uniform(rng) - 1.0;
        double x[3] = {0.0, 0.0, 0.0};
        if (t % 2) random_cone_point(rng, mu, x); /* any hint in K */
        int c = clab_cone_qp(mu, A, Ai, A[0] + A[4] + A[8], r, x);
        cases[c]++;
        double y[3];
        for (int i = 0; i < 3; i++) y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2] + r[i];
        double sx = norm3(x) + norm3(r), sy = norm3(r) + 1e-300;
        worst_K = fmax(worst_K, clab_cone_dist(mu, x) / sx);
        worst_dual = fmax(worst_dual, clab_cone_dist_dual(mu, y) / sy);
        worst_comp = fmax(worst_comp, fabs(x[0] * y[0] + x[1] * y[1] + x[2] * y[2]) / (sx * sy));
    }
    tap_ok(cases[0] > 1000 && cases[1] > 1000 && cases[2] > 1000,
           "one-contact CCP: stick %d, open %d, slide %d (Newton), slide by the fallback %d of 20000", cases[0], cases[1],
           cases[2], cases[3]);
    tap_ok(cases[3] <= 20, "one-contact CCP: the sliding solver (Newton in the direction angle) needed its fallback %d times (<= 0.1%%)", cases[3]);
    tap_ok(worst_K <= 1e-12, "one-contact CCP: x in K (worst distance %.3g of the scale)", worst_K);
    tap_ok(worst_dual <= 1e-10, "one-contact CCP: A x + r in K* (worst distance %.3g of |r|)", worst_dual);
    tap_ok(worst_comp <= 1e-10, "one-contact CCP: x . (A x + r) = 0 (worst %.3g)", worst_comp);
}

/* The solvers' inline projection (clab_ccp_cone_project, ccp_fast.h) decides most points
 * inside K from |x_T|^2 < (1 - 1e-12)(mu x_n)^2, before the square root: it must return the
 * same bits as clab_cone_project on every point, also on those within rounding of the surface
 * |x_T| = mu x_n (relative offsets 1e-17 to 1e-10 either side), at every scale. Measured: with
 * the bound (1 + 1e-15)(mu x_n)^2, 4 % of these points come out different. */
static void solver_projection_checks(gsl_rng *r)
{
    const double mus[] = {0.0, 0.1, 0.3, 0.5, 1.0, 2.0};
    long differ = 0, n = 0, inside = 0;
    for (int m = 0; m < 6; m++)
        for (int k = 0; k < 100000; k++) {
            const double mu = mus[m], th = 2.0 * M_PI * gsl_rng_uniform(r);
            const double xn = (k % 7 == 0 ? -1.0 : 1.0) * exp(40.0 * gsl_rng_uniform(r) - 20.0);
            const double d = (gsl_rng_uniform(r) - 0.5) * pow(10.0, -10.0 - 7.0 * gsl_rng_uniform(r));
            const double s = k % 5 == 0 ? 2.0 * gsl_rng_uniform(r) * fabs(xn) : mu * fabs(xn) * (1.0 + d);
            double a[3] = {xn, s * cos(th), s * sin(th)}, b[3] = {a[0], a[1], a[2]};
            clab_cone_project(mu, a);
            clab_ccp_cone_project(mu, b);
            n++;
            differ += memcmp(a, b, sizeof a) != 0;
            inside += a[0] == xn && a[1] == s * cos(th) && a[2] == s * sin(th);
        }
    tap_ok(differ == 0 && inside > n / 4 && inside < 3 * n / 4,
           "the solvers' projection = clab_cone_project to the bit on %ld points at and near the surface "
           "(%ld differ; %ld inside)", n, differ, inside);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 12345);
    const double mus[] = {0.0, 0.1, 0.5, 1.0, 3.0};
    for (int m = 0; m < 5; m++) {
        double mu = mus[m];
        double worst_in = 0.0, worst_idem = 0.0, worst_near = -INFINITY, worst_orth = 0.0, worst_polar = 0.0;
        for (int t = 0; t < 2000; t++) {
            double x[3] = {gsl_rng_uniform(r) * 4 - 2, gsl_rng_uniform(r) * 4 - 2, gsl_rng_uniform(r) * 4 - 2};
            double s = norm3(x);
            double px[3] = {x[0], x[1], x[2]};
            clab_cone_project(mu, px);
            /* in K: distance of Proj_K(x) from K */
            double din = clab_cone_dist(mu, px) / s;
            if (px[0] < 0.0) din = fmax(din, -px[0] / s);
            worst_in = fmax(worst_in, din);
            /* idempotent */
            double ppx[3] = {px[0], px[1], px[2]};
            clab_cone_project(mu, ppx);
            double e[3] = {ppx[0] - px[0], ppx[1] - px[1], ppx[2] - px[2]};
            worst_idem = fmax(worst_idem, norm3(e) / s);
            /* nearest: no random cone point is closer than Proj_K(x) */
            double dp[3] = {x[0] - px[0], x[1] - px[1], x[2] - px[2]};
            double dist = norm3(dp);
            for (int k = 0; k < 50; k++) {
                double z[3];
                random_cone_point(r, mu, z);
                double dz[3] = {x[0] - z[0], x[1] - z[1], x[2] - z[2]};
                worst_near = fmax(worst_near, (dist - norm3(dz)) / s);
            }
            /* Moreau: x - Proj_K(x) lies in K° and is orthogonal to Proj_K(x) */
            worst_orth = fmax(worst_orth, fabs(dp[0] * px[0] + dp[1] * px[1] + dp[2] * px[2]) / (s * s));
            double q[3] = {dp[0], dp[1], dp[2]};
            clab_cone_project_polar(mu, q);
            double eq[3] = {q[0] - dp[0], q[1] - dp[1], q[2] - dp[2]};
            worst_polar = fmax(worst_polar, norm3(eq) / s);
        }
        tap_ok(worst_in <= 1e-12, "mu = %g: Proj_K(x) lies in K (worst distance %.3g |x| <= 1e-12 |x|)", mu, worst_in);
        tap_ok(worst_idem <= 1e-12, "mu = %g: projecting twice changes nothing (worst %.3g |x| <= 1e-12 |x|)", mu,
               worst_idem);
        tap_ok(worst_near <= 1e-12,
               "mu = %g: no random cone point is nearer than Proj_K(x) (100000 tries, worst margin %.3g |x|)", mu,
               worst_near);
        tap_ok(worst_orth <= 1e-12, "mu = %g: (x - Proj_K x) . Proj_K x = 0 (Moreau; worst %.3g |x|^2)", mu, worst_orth);
        tap_ok(worst_polar <= 1e-12, "mu = %g: x - Proj_K x is its own polar projection, in K° (worst %.3g |x|)", mu,
               worst_polar);
    }

    /* points inside K stay exactly; points of K° go exactly to the apex */
    {
        double x[3] = {1.0, 0.3, -0.2}; /* |x_T| = 0.36 < 0.5 */
        clab_cone_project(0.5, x);
        tap_ok(x[0] == 1.0 && x[1] == 0.3 && x[2] == -0.2, "a point inside K (mu = 0.5) is returned unchanged");
        double y[3] = {-1.0, 0.3, 0.4}; /* -y_n = 1 >= mu |y_T| = 0.25 */
        clab_cone_project(0.5, y);
        tap_ok(y[0] == 0.0 && y[1] == 0.0 && y[2] == 0.0, "a point of the polar cone goes to the apex 0");
        double b[3] = {1.0, 3.0, 4.0}; /* outside both: onto the boundary ray, (1 + 0.5*5)/1.25 (1, 0.5*(0.6, 0.8)) */
        clab_cone_project(0.5, b);
        double a = 3.5 / 1.25;
        tap_ok(fabs(b[0] - a) < 1e-15 && fabs(b[1] - 0.3 * a) < 1e-15 && fabs(b[2] - 0.4 * a) < 1e-15,
               "projection onto the boundary ray by the closed form (got %.17g %.17g %.17g)", b[0], b[1], b[2]);
    }
    /* mu = 0: K is the ray x_T = 0, x_n >= 0, K° the half-space x_n <= 0 */
    {
        double x[3] = {2.0, 1.0, -1.0};
        clab_cone_project(0.0, x);
        tap_ok(x[0] == 2.0 && x[1] == 0.0 && x[2] == 0.0, "mu = 0: (2, 1, -1) -> (2, 0, 0)");
        double y[3] = {-2.0, 1.0, -1.0};
        clab_cone_project(0.0, y);
        tap_ok(y[0] == 0.0 && y[1] == 0.0 && y[2] == 0.0, "mu = 0: (-2, 1, -1) -> 0");
        double z[3] = {0.0, 0.0, 0.0};
        clab_cone_project(0.0, z);
        tap_ok(z[0] == 0.0 && z[1] == 0.0 && z[2] == 0.0, "mu = 0: the apex stays");
    }
    /* dual cone K* = {y_n >= mu |y_T|}: distances (used for d_i in the diagnostics) */
    {
        double d1[3] = {1.0, 1.0, 0.0}; /* in K*_0.5: 1 >= 0.5 */
        tap_close(clab_cone_dist_dual(0.5, d1), 0.0, 0.0, "d = (1, 1, 0) lies in K* for mu = 0.5");
        double d2[3] = {0.0, 1.0, 0.0}; /* outside; nearest point of K* = {y_n >= 0.5|y_T|} is
                                           ((0 + 0.5)/(1.25)) (1, 2 * (1, 0)) /2 ... by formula: */
        /* dist(d2, K*) = |Proj_K(-d2)| = |Proj_K((0, -1, 0))| = (0 + 0.5*1)/1.25 * sqrt(1 + 0.25) */
        tap_close(clab_cone_dist_dual(0.5, d2), 0.5 / sqrt(1.25), 1e-15, "dist((0, 1, 0), K*) for mu = 0.5");
        double p[3] = {0.0, 1.0, 0.0};
        clab_cone_project_dual(0.5, p);
        tap_close(clab_cone_dist_dual(0.5, p), 0.0, 1e-15, "Proj_K*(x) lies in K*");
    }
    solver_projection_checks(r);
    cone_qp_checks(r);
    gsl_rng_free(r);
    return tap_done();
}
