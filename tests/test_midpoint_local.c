/* test_midpoint_local.c: the midpoint backend's local Coulomb solver (midpoint/local_solver.c,
 * Alart-Curnier's augmented Lagrangian by a semismooth Newton method) on single-contact
 * problems U = W R + B against their closed forms, and on general ones against the law itself.
 *
 * With W = diag(wn, wt, wt) (a sphere on a fixed plane: no coupling of normal and tangent) the
 * law has the closed form (Signorini-Coulomb, U_n >= 0 <= R_n complementary, |R_t| <= mu R_n,
 * sliding opposite to U_t):
 *   separating (B_n >= 0):                R = 0, U = B;
 *   sticking (B_n < 0, |B_t|/wt <= mu |B_n|/wn): R = (-B_n/wn, -B_t/wt), U = 0;
 *   sliding (B_n < 0, |B_t|/wt > mu |B_n|/wn): R_n = -B_n/wn, R_t = -mu R_n B_t/|B_t|,
 *                                          U_n = 0, U_t = B_t (1 - wt mu R_n/|B_t|).
 * Tolerances: 1e-12 relative to the scale of R and U (the solver's local_tol 1e-14 m/s; the
 * closed forms are a division or two). General problems (random symmetric positive definite
 * W, random B): the returned (U, R) obeys the law to 1e-10 of the problem's scale. */
#include <math.h>
#include <stdlib.h>

#include "local_solver.h"
#include "tap.h"

static const clab_mp_local_opt OPT = {1e-14, 50, 1.0};

static double rel3(const double a[3], const double b[3], double scale)
{
    double m = 0.0;
    for (int i = 0; i < 3; i++) m = fmax(m, fabs(a[i] - b[i]));
    return m / scale;
}

static void diag_case(const char *name, double wn, double wt, double mu, const double B[3])
{
    const double W[9] = {wn, 0, 0, 0, wt, 0, 0, 0, wt};
    double R[3] = {0, 0, 0}, U[3], Rx[3], Ux[3];
    const clab_mp_local_result r = clab_mp_local_solve(W, B, mu, &OPT, R, U);
    const double bt = hypot(B[1], B[2]);
    if (B[0] >= 0.0) { /* separating */
        Rx[0] = Rx[1] = Rx[2] = 0.0;
        Ux[0] = B[0], Ux[1] = B[1], Ux[2] = B[2];
    } else if (bt / wt <= mu * (-B[0] / wn)) { /* sticking */
        Rx[0] = -B[0] / wn, Rx[1] = -B[1] / wt, Rx[2] = -B[2] / wt;
        Ux[0] = Ux[1] = Ux[2] = 0.0;
    } else { /* sliding */
        Rx[0] = -B[0] / wn;
        Rx[1] = -mu * Rx[0] * B[1] / bt, Rx[2] = -mu * Rx[0] * B[2] / bt;
        const double k = 1.0 - wt * mu * Rx[0] / bt;
        Ux[0] = 0.0, Ux[1] = B[1] * k, Ux[2] = B[2] * k;
    }
    const double Bs = fmax(fabs(B[0]), bt), Rs = Bs / fmin(wn, wt);
    const double eR = rel3(R, Rx, Rs), eU = rel3(U, Ux, Bs);
    tap_ok(r.converged && eR <= 1e-12 && eU <= 1e-12,
           "local solver, %s: R = (%.6g, %.6g, %.6g), closed form (%.6g, %.6g, %.6g), rel err R %.2g U %.2g <= 1e-12 "
           "(%ld Newton steps)",
           name, R[0], R[1], R[2], Rx[0], Rx[1], Rx[2], eR, eU, r.iterations);
}

/* a random number in [-1, 1) from a fixed sequence */
static double rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return ((*s >> 8) & 0xffffff) / (double)0x800000 - 1.0;
}

/* the law itself on (U, R), scaled: 0 when it holds */
static double law_violation(const double U[3], const double R[3], double mu, double Us, double Rs)
{
    double v = fmax(0.0, -U[0] / Us);                                       /* U_n >= 0 */
    v = fmax(v, fmax(0.0, -R[0] / Rs));                                     /* R_n >= 0 */
    v = fmax(v, fabs(U[0] * R[0]) / (Us * Rs));                             /* U_n R_n = 0 */
    const double rt = hypot(R[1], R[2]), ut = hypot(U[1], U[2]);
    v = fmax(v, fmax(0.0, rt - mu * R[0]) / Rs);                            /* |R_t| <= mu R_n */
    if (ut > 1e-9 * Us) /* sliding: R_t = -mu R_n U_t/|U_t| */
        v = fmax(v, hypot(R[1] + mu * R[0] * U[1] / ut, R[2] + mu * R[0] * U[2] / ut) / Rs);
    return v;
}

static void random_cases(void)
{
    unsigned seed = 12345u;
    int bad = 0, n = 2000, fails = 0;
    double worst = 0.0;
    long steps = 0;
    for (int k = 0; k < n; k++) {
        /* W = A A^T + 0.1 I, entries of A in [-1, 1) */
        double A[9], W[9], B[3];
        for (int i = 0; i < 9; i++) A[i] = rnd(&seed);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                W[3 * i + j] = A[3 * i] * A[3 * j] + A[3 * i + 1] * A[3 * j + 1] + A[3 * i + 2] * A[3 * j + 2] +
                               (i == j ? 0.1 : 0.0);
        for (int i = 0; i < 3; i++) B[i] = rnd(&seed);
        const double mu = 0.05 + fabs(rnd(&seed));
        double R[3] = {0, 0, 0}, U[3];
        const clab_mp_local_result r = clab_mp_local_solve(W, B, mu, &OPT, R, U);
        steps += r.iterations;
        const double Us = fmax(fabs(B[0]), hypot(B[1], B[2])), Rs = Us / 0.1;
        const double v = law_violation(U, R, mu, Us, Rs);
        worst = fmax(worst, v);
        fails += !r.converged;
        bad += !(v <= 1e-10);
    }
    tap_ok(bad == 0 && fails == 0,
           "local solver, %d random problems (W = A A^T + 0.1 I, mu in [0.05, 1.05]): the law holds, worst scaled "
           "violation %.2g <= 1e-10, %d not converged, %.1f Newton steps a problem",
           n, worst, fails, (double)steps / n);
}

int main(void)
{
    const double sep[3] = {0.3, -0.2, 0.1}, stick[3] = {-1.0, 0.1, -0.05}, slide[3] = {-1.0, 2.0, -1.5};
    diag_case("separating (B_n > 0)", 2.0, 7.0, 0.4, sep);
    diag_case("sticking", 2.0, 7.0, 0.4, stick);
    diag_case("sliding", 2.0, 7.0, 0.4, slide);
    const double graze[3] = {0.0, 1.0, 0.0};
    diag_case("grazing (B_n = 0, sliding: no impulse)", 1.0, 3.5, 0.5, graze);
    /* sticking at the cone's edge: |B_t|/wt = mu |B_n|/wn exactly */
    const double edge[3] = {-1.0, 0.5 * 7.0 / 2.0 * 0.5, 0.0};
    diag_case("sticking on the cone's edge", 2.0, 7.0, 0.5, edge);
    /* the residual function is zero at the closed form */
    const double W[9] = {2, 0, 0, 0, 7, 0, 0, 0, 7};
    const double R[3] = {0.5, -0.4 * 0.5 * 2.0 / 2.5, 0.4 * 0.5 * 1.5 / 2.5};
    const double res = clab_mp_local_residual(W, slide, 0.4, 1.0, R);
    tap_ok(res <= 1e-15, "local residual at the sliding closed form: %.2g <= 1e-15 m/s", res);
    random_cases();
    return tap_done();
}
