/* analytic_painleve.c: Painleve's sliding rod (clab_analytic.h): the coefficients of the
 * contact point's normal acceleration a_n = A + B lambda_n and the region B < 0 where the
 * classical problem has no solution or two (Stewart 2000, SIAM Review 42(1), Sect. 1.3) */
#include "config.h"

#include "clab_analytic.h"

#include <math.h>

/* A = -g - pz theta'^2 (gravity and the centripetal acceleration of P),
 * B = 1/m + (px^2 - mu px pz)/J with J = m k2 (the normal force's own push, its torque
 * px lambda_n, and the friction torque -pz mu lambda_n) */
void clab_analytic_painleve_AB(double m, double k2, double px, double pz, double mu, double g, double thetadot,
                               double *A, double *B)
{
    *A = -g - pz * thetadot * thetadot;
    *B = (1.0 + (px * px - mu * px * pz) / k2) / m;
}

/* B = 0: k2 + px^2 = mu px pz */
double clab_analytic_painleve_mu_star(double k2, double px, double pz)
{
    double d = px * pz;
    return d > 0.0 ? (k2 + px * px) / d : INFINITY;
}

/* m B with k2 = l^2/3, px = -l cos theta, pz = -l sin theta */
double clab_analytic_painleve_rod_B(double theta, double mu)
{
    double c = cos(theta), s = sin(theta);
    return 1.0 + 3.0 * c * c - 3.0 * mu * s * c;
}

double clab_analytic_painleve_rod_mu_star(double theta)
{
    if (!(theta > 0.0 && theta < M_PI / 2)) return INFINITY; /* (cos(pi/2) rounds to 6e-17, not 0) */
    double c = cos(theta), s = sin(theta);
    return (1.0 + 3.0 * c * c) / (3.0 * s * c);
}

/* the box corner (-l, -w) of the body frame turned by theta */
void clab_analytic_painleve_box_corner(double l, double w, double theta, double *px, double *pz)
{
    double c = cos(theta), s = sin(theta);
    *px = -l * c + w * s;
    *pz = -l * s - w * c;
}

/* the linear complementarity problem 0 <= lambda_n  _|_  A + B lambda_n >= 0 in one unknown */
int clab_analytic_painleve_solutions(double A, double B, double lambda[2])
{
    if (B > 0.0) {
        lambda[0] = A >= 0.0 ? 0.0 : -A / B;
        return 1;
    }
    if (B < 0.0) {
        if (A < 0.0) return 0;
        lambda[0] = 0.0;
        if (A == 0.0) return 1;
        lambda[1] = -A / B;
        return 2;
    }
    if (A < 0.0) return 0;
    lambda[0] = 0.0;
    if (A > 0.0) return 1;
    lambda[1] = INFINITY;
    return 2;
}

/* P = -W^-1 v with W the 2 x 2 Delassus matrix of the point (rows t, n) */
void clab_analytic_painleve_stick_impulse(double m, double k2, double px, double pz, double vt, double vn, double *Pt,
                                          double *Pn)
{
    double J = m * k2;
    double Wtt = 1.0 / m + pz * pz / J, Wnn = 1.0 / m + px * px / J, Wtn = -px * pz / J;
    double det = Wtt * Wnn - Wtn * Wtn;
    *Pt = -(Wnn * vt - Wtn * vn) / det;
    *Pn = -(-Wtn * vt + Wtt * vn) / det;
}
