/* local_solver.c: Alart and Curnier's augmented Lagrangian for one contact, solved by a
 * semismooth Newton method with a backtracking line search on |F|^2 (local_solver.h).
 * Reference: P. Alart, A. Curnier, "A mixed formulation for frictional contact problems prone
 * to Newton like solution methods", Comput. Methods Appl. Mech. Engrg. 92 (1991) 353-375. */
#include "local_solver.h"

#include <math.h>
#include <string.h>

/* U = W R + B */
static void local_velocity(const double W[9], const double B[3], const double R[3], double U[3])
{
    for (int r = 0; r < 3; r++) U[r] = W[3 * r] * R[0] + W[3 * r + 1] * R[1] + W[3 * r + 2] * R[2] + B[r];
}

/* F(R) of Alart-Curnier (local_solver.h); J (may be NULL) its generalized Jacobian dF/dR */
static void ac_function(const double W[9], const double B[3], double mu, double rho, const double R[3], double F[3],
                        double J[9])
{
    double U[3];
    local_velocity(W, B, R, U);
    const double tn = R[0] - rho * U[0];
    const double tu = R[1] - rho * U[1], tw = R[2] - rho * U[2];
    const double radius = mu * (tn > 0.0 ? tn : 0.0);
    const double tt = hypot(tu, tw);
    /* normal: F_n = R_n - [tau_n]_+ */
    F[0] = tn > 0.0 ? rho * U[0] : R[0];
    if (J) {
        for (int c = 0; c < 3; c++) J[c] = tn > 0.0 ? rho * W[c] : (c == 0 ? 1.0 : 0.0);
    }
    if (tt <= radius) { /* inside the disk: F_t = rho U_t (sticking) */
        F[1] = rho * U[1];
        F[2] = rho * U[2];
        if (J)
            for (int c = 0; c < 3; c++) J[3 + c] = rho * W[3 + c], J[6 + c] = rho * W[6 + c];
        return;
    }
    /* on the circle: F_t = R_t - radius s, s = tau_t/|tau_t| (sliding or open) */
    const double su = tu / tt, sw = tw / tt;
    F[1] = R[1] - radius * su;
    F[2] = R[2] - radius * sw;
    if (!J) return;
    /* d tau_t/dR = E_t - rho W_t, d radius/dR = mu [tau_n > 0] (e_n - rho W_n),
     * dF_t/dR = E_t - s (d radius/dR)^T - radius/|tau_t| (I - s s^T) d tau_t/dR */
    double dtau[2][3], drad[3];
    for (int c = 0; c < 3; c++) {
        dtau[0][c] = (c == 1 ? 1.0 : 0.0) - rho * W[3 + c];
        dtau[1][c] = (c == 2 ? 1.0 : 0.0) - rho * W[6 + c];
        drad[c] = tn > 0.0 ? mu * ((c == 0 ? 1.0 : 0.0) - rho * W[c]) : 0.0;
    }
    const double k = tt > 0.0 ? radius / tt : 0.0;
    const double P[2][2] = {{1.0 - su * su, -su * sw}, {-sw * su, 1.0 - sw * sw}};
    const double s[2] = {su, sw};
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 3; c++)
            J[3 * (r + 1) + c] = (c == r + 1 ? 1.0 : 0.0) - s[r] * drad[c] - k * (P[r][0] * dtau[0][c] + P[r][1] * dtau[1][c]);
}

static double norm3(const double x[3]) { return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]); }

/* x = J^-1 y by Gaussian elimination with partial pivoting; 0 when J is singular */
static int solve3(const double Jin[9], const double y[3], double x[3])
{
    double a[3][4];
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) a[r][c] = Jin[3 * r + c];
        a[r][3] = y[r];
    }
    for (int c = 0; c < 3; c++) {
        int p = c;
        for (int r = c + 1; r < 3; r++)
            if (fabs(a[r][c]) > fabs(a[p][c])) p = r;
        if (!(fabs(a[p][c]) > 1e-300)) return 0;
        if (p != c)
            for (int k = 0; k < 4; k++) {
                double t = a[c][k];
                a[c][k] = a[p][k];
                a[p][k] = t;
            }
        for (int r = c + 1; r < 3; r++) {
            const double f = a[r][c] / a[c][c];
            for (int k = c; k < 4; k++) a[r][k] -= f * a[c][k];
        }
    }
    for (int r = 2; r >= 0; r--) {
        double t = a[r][3];
        for (int k = r + 1; k < 3; k++) t -= a[r][k] * x[k];
        x[r] = t / a[r][r];
    }
    return isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]);
}

double clab_mp_local_rho(const double W[9], const clab_mp_local_opt *opt)
{
    const double tr = W[0] + W[4] + W[8];
    return tr > 0.0 ? opt->rho * 3.0 / tr : opt->rho;
}

double clab_mp_local_residual(const double W[9], const double B[3], double mu, double rho, const double R[3])
{
    double F[3];
    ac_function(W, B, mu, rho, R, F, NULL);
    return norm3(F) / rho;
}

/* sliding along s = (cos phi, sin phi): R = R_n (1, -mu s) with U_n = 0 gives *Rn (-1 when the
 * normal row cannot hold it); returns U_t x s, zero when U_t is parallel to s */
static double sliding_mismatch(const double W[9], const double B[3], double mu, double phi, double *Rn)
{
    const double c = cos(phi), sn = sin(phi);
    const double den = W[0] - mu * (W[1] * c + W[2] * sn);
    const double rn = den > 0.0 ? -B[0] / den : -1.0;
    const double Uu = rn * (W[3] - mu * (W[4] * c + W[5] * sn)) + B[1];
    const double Uw = rn * (W[6] - mu * (W[7] * c + W[8] * sn)) + B[2];
    *Rn = rn;
    return Uu * sn - Uw * c;
}

/* The fallback when Newton stops short: the law's three cases in turn, on the 3x3 problem.
 * Separating: R = 0 when B_n >= 0. Sticking: R = -W^-1 B when it lies in the cone. Sliding:
 * R = R_n (1, -mu cos phi, -mu sin phi) with U_n = 0, i.e. R_n = -B_n/(W_n . (1, -mu s)), and
 * U_t(phi) parallel to s = (cos phi, sin phi) with a positive factor: the zeros of
 * g(phi) = U_t x s, bracketed on 64 points of the circle and refined by bisection; the root with
 * the smallest residual wins. R is left alone when no case gives a smaller residual. */
static void enumerate_cases(const double W[9], const double B[3], double mu, double rho, double R[3])
{
    double best = clab_mp_local_residual(W, B, mu, rho, R), cand[3];
#define TRY(x, y, z)                                                                                                   \
    do {                                                                                                               \
        cand[0] = (x), cand[1] = (y), cand[2] = (z);                                                                   \
        const double r_ = clab_mp_local_residual(W, B, mu, rho, cand);                                                 \
        if (r_ < best) best = r_, memcpy(R, cand, sizeof cand);                                                        \
    } while (0)
    if (B[0] >= 0.0) TRY(0.0, 0.0, 0.0);
    double x[3];
    const double mB[3] = {-B[0], -B[1], -B[2]};
    if (solve3(W, mB, x) && x[0] >= 0.0 && hypot(x[1], x[2]) <= mu * x[0]) TRY(x[0], x[1], x[2]);
    if (B[0] >= 0.0 || mu <= 0.0) {
        if (B[0] < 0.0) TRY(-B[0] / W[0], 0.0, 0.0); /* frictionless */
        return;
    }
    const int N = 64;
    double gprev = 0.0, pprev = 0.0;
    for (int k = 0; k <= N; k++) {
        const double phi = 2.0 * M_PI * k / N;
        double rn;
        const double g = sliding_mismatch(W, B, mu, phi, &rn);
        if (k > 0 && (g == 0.0 || (gprev < 0.0) != (g < 0.0))) {
            double lo = pprev, hi = phi, glo = gprev;
            for (int it = 0; it < 60; it++) {
                const double mid = 0.5 * (lo + hi), gm = sliding_mismatch(W, B, mu, mid, &rn);
                if ((gm < 0.0) == (glo < 0.0)) lo = mid, glo = gm;
                else hi = mid;
            }
            const double m = 0.5 * (lo + hi);
            sliding_mismatch(W, B, mu, m, &rn);
            if (rn >= 0.0) TRY(rn, -mu * rn * cos(m), -mu * rn * sin(m));
        }
        gprev = g, pprev = phi;
    }
#undef TRY
}

clab_mp_local_result clab_mp_local_solve(const double W[9], const double B[3], double mu, const clab_mp_local_opt *opt,
                                         double R[3], double U[3])
{
    clab_mp_local_result res = {0, 0.0, 0};
    const double rho = clab_mp_local_rho(W, opt);
    double F[3], J[9], d[3];
    ac_function(W, B, mu, rho, R, F, J);
    double f = norm3(F);
    while (f / rho > opt->tol && res.iterations < opt->max_iter) {
        res.iterations++;
        const double mF[3] = {-F[0], -F[1], -F[2]};
        if (!solve3(J, mF, d)) /* a singular Jacobian: a step of the fixed point R <- R - F */
            memcpy(d, mF, sizeof d);
        /* backtracking on |F|^2 (Armijo, sufficient decrease 1e-4): the full step first */
        double alpha = 1.0, Rt[3], Ft[3], ft = f;
        for (int k = 0; k < 30; k++, alpha *= 0.5) {
            for (int r = 0; r < 3; r++) Rt[r] = R[r] + alpha * d[r];
            ac_function(W, B, mu, rho, Rt, Ft, NULL);
            ft = norm3(Ft);
            if (ft * ft <= (1.0 - 1e-4 * alpha) * f * f) break;
        }
        if (!(ft < f)) { /* no decrease along the Newton direction: one step of the fixed point
                          * R <- R - F(R) = (the projections of tau), Alart-Curnier's Uzawa form */
            for (int r = 0; r < 3; r++) Rt[r] = R[r] - F[r];
            ac_function(W, B, mu, rho, Rt, Ft, NULL);
            ft = norm3(Ft);
            if (!(ft < f)) break; /* neither decreases: stop with the best R */
        }
        memcpy(R, Rt, sizeof Rt);
        ac_function(W, B, mu, rho, R, F, J);
        f = norm3(F);
    }
    res.residual = f / rho;
    if (res.residual > opt->tol) { /* Newton stopped short: the cases of the law, exactly */
        enumerate_cases(W, B, mu, rho, R);
        res.residual = clab_mp_local_residual(W, B, mu, rho, R);
    }
    res.converged = res.residual <= opt->tol;
    if (U) local_velocity(W, B, R, U);
    return res;
}
