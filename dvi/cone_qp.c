/* cone_qp.c: the one-contact problem of the Gauss-Seidel solver,
 *     min 1/2 x.A x + r.x  subject to  x in K_mu,   A symmetric positive definite 3x3,
 * i.e. the CCP of Eq. (7) of seed 000 for one contact: x in K, y = A x + r in K*, x.y = 0.
 *
 * The three cases of the solution:
 *   stick: the unconstrained minimizer -A^-1 r lies in K;
 *   open:  r lies in K* (then x = 0 satisfies the CCP);
 *   slide: otherwise; x lies on the boundary of K, x != 0: x = s e(theta) with
 *          e = (1/mu, cos theta, sin theta), s > 0. For a fixed direction the best s is
 *          -a/b, a = r.e < 0, b = e.A e, and the objective is -a^2/(2b): the problem becomes
 *          the one-dimensional maximization of q(theta) = -a/sqrt(b) over the arc where
 *          a < 0, solved by Newton's method on q' = 0 (from the caller's hint, else from the
 *          best of 16 samples, bracketed). At s = -a/b, x.y = s e.y = 0 for y = A x + r, and
 *          at a maximum of q, y is normal to K at x, i.e. y in K*: the CCP holds, which is
 *          checked; should it fail, an accelerated projected gradient on the 3x3 problem
 *          takes over. mu = 0 is solved in closed form. */
#include <math.h>

#include "cone.h"

#define NEWTON_MAX 30
#define FISTA_MAX 500

static inline void mul3(const double A[9], const double x[3], double y[3])
{
    y[0] = A[0] * x[0] + A[1] * x[1] + A[2] * x[2];
    y[1] = A[3] * x[0] + A[4] * x[1] + A[5] * x[2];
    y[2] = A[6] * x[0] + A[7] * x[1] + A[8] * x[2];
}

/* accelerated projected gradient with restart, the fallback; x: start (in K) and result */
static void fista(const double A[9], double L, double mu, const double r[3], double x[3])
{
    double y[3] = {x[0], x[1], x[2]}, xn[3], g[3], theta = 1.0;
    for (int it = 0; it < FISTA_MAX; it++) {
        mul3(A, y, g);
        for (int k = 0; k < 3; k++) {
            g[k] += r[k];
            xn[k] = y[k] - g[k] / L;
        }
        clab_cone_project(mu, xn);
        double step2 = 0.0, size2 = 0.0, gdx = 0.0;
        for (int k = 0; k < 3; k++) {
            double dx = xn[k] - x[k];
            step2 += dx * dx;
            size2 += xn[k] * xn[k];
            gdx += g[k] * dx;
        }
        double theta_n = 0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));
        double beta = theta * (1.0 - theta) / (theta * theta + theta_n);
        if (gdx > 0.0) beta = 0.0, theta_n = 1.0; /* restart */
        for (int k = 0; k < 3; k++) {
            y[k] = xn[k] + beta * (xn[k] - x[k]);
            x[k] = xn[k];
        }
        theta = theta_n;
        if (step2 <= 1e-28 * size2) break;
    }
}

/* the sliding case along the boundary direction e(theta) = (1/mu, cos theta, sin theta):
 * x = s e with the best s = -a/b, a = r.e, b = e.A e, which leaves q(theta) = -a/sqrt(b) to
 * maximize where a < 0; F = -a' b + a b'/2 has the sign of q' (b^{3/2} q' = F) */
typedef struct slide_eval {
    double a, b, F, dF, q;
} slide_eval;

static slide_eval slide_at(const double A[9], double mu, const double r[3], double c, double sn)
{
    double e[3] = {1.0 / mu, c, sn}, de[3] = {0.0, -sn, c}, dde[3] = {0.0, -c, -sn};
    double Ae[3], Ade[3];
    mul3(A, e, Ae);
    mul3(A, de, Ade);
    slide_eval v;
    v.a = r[0] * e[0] + r[1] * c + r[2] * sn;
    double da = -r[1] * sn + r[2] * c, dda = -(r[1] * c + r[2] * sn);
    v.b = e[0] * Ae[0] + e[1] * Ae[1] + e[2] * Ae[2];
    double db = 2.0 * (de[0] * Ae[0] + de[1] * Ae[1] + de[2] * Ae[2]);
    double ddb = 2.0 * (dde[0] * Ae[0] + dde[1] * Ae[1] + dde[2] * Ae[2] + de[0] * Ade[0] + de[1] * Ade[1] + de[2] * Ade[2]);
    v.F = -da * v.b + 0.5 * v.a * db;
    v.dF = -dda * v.b - 0.5 * da * db + 0.5 * v.a * ddb;
    v.q = v.a < 0.0 ? -v.a / sqrt(v.b) : 0.0;
    return v;
}

static inline double norm2d(double a, double b) { return sqrt(a * a + b * b); }

/* x = s e(theta) at its best s, theta given by (cos, sin); 1 when A x + r lies in K* (a
 * maximum of q, not a minimum) */
static int slide_point(const double A[9], double mu, const double r[3], double c, double sn, double x[3])
{
    slide_eval v = slide_at(A, mu, r, c, sn);
    double s = v.a < 0.0 ? -v.a / v.b : 0.0;
    x[0] = s / mu, x[1] = s * c, x[2] = s * sn;
    double y[3];
    mul3(A, x, y);
    double scale = fabs(r[0]) + fabs(r[1]) + fabs(r[2]) + fabs(y[0]) + fabs(y[1]) + fabs(y[2]);
    for (int k = 0; k < 3; k++) y[k] += r[k];
    return s > 0.0 && y[0] - mu * norm2d(y[1], y[2]) >= -1e-10 * scale;
}

/* Newton on F(theta) = 0 from the direction (c, s) (a < 0 there), turning the direction by
 * the step without trigonometry: (c, s) + step (-s, c), normalized (a turn by atan(step),
 * which keeps Newton's quadratic convergence); 1 on convergence to a maximum of q */
static int slide_newton(const double A[9], double mu, const double r[3], double *c, double *s)
{
    double tc = *c, ts = *s;
    for (int it = 0; it < NEWTON_MAX; it++) {
        slide_eval v = slide_at(A, mu, r, tc, ts);
        if (!(v.a < 0.0 && v.dF < 0.0)) return 0; /* off the arc, or not heading for a maximum */
        double step = -v.F / v.dF;
        double nc = tc - step * ts, ns = ts + step * tc, l = norm2d(nc, ns);
        tc = nc / l, ts = ns / l;
        if (fabs(step) <= 1e-14) {
            *c = tc, *s = ts;
            return 1;
        }
    }
    return 0;
}

/* the sliding solution: Newton from the hint's direction (or the unconstrained minimizer's)
 * when it lies on the arc where a < 0, else from the best of 16 samples over the arc,
 * bracketed and refined by bisection with Newton steps (safeguarded); 1 on success */
static int slide_solve(const double A[9], double mu, const double r[3], const double hint[3], const double xu[3],
                       double x[3])
{
    double rT = norm2d(r[1], r[2]);
    double th_r = atan2(r[2], r[1]);
    /* a(theta) = r_n/mu + |r_T| cos(theta - th_r) < 0 on th_r + pi +- half */
    double c = rT > 0.0 ? r[0] / (mu * rT) : -INFINITY;
    double half = c <= -1.0 ? M_PI : acos(c);
    double lo = th_r + M_PI - half, hi = th_r + M_PI + half;
    /* from the hint's direction, else from that of the unconstrained minimizer */
    const double *start = norm2d(hint[1], hint[2]) > 0.0 ? hint : xu;
    double hn = norm2d(start[1], start[2]);
    if (hn > 0.0) {
        double hc = start[1] / hn, hs = start[2] / hn;
        if (slide_newton(A, mu, r, &hc, &hs) && slide_point(A, mu, r, hc, hs, x)) return 1;
    }
    /* from the best sample */
    enum { NS = 16 };
    double step = (hi - lo) / NS, best_q = -1.0, best = lo + 0.5 * step;
    for (int k = 0; k < NS; k++) {
        double th = lo + (k + 0.5) * step;
        slide_eval v = slide_at(A, mu, r, cos(th), sin(th));
        if (v.q > best_q) best_q = v.q, best = th;
    }
    double a = best - step, b = best + step; /* q(best) >= q at both: a maximum inside */
    if (half < M_PI) a = fmax(a, lo), b = fmin(b, hi);
    slide_eval va = slide_at(A, mu, r, cos(a), sin(a)), vb = slide_at(A, mu, r, cos(b), sin(b));
    if (va.F > 0.0 && vb.F < 0.0) {
        /* bracketed root of F: bisection, with a Newton step whenever it stays inside */
        double t = best;
        for (int it = 0; it < 200 && b - a > 1e-14; it++) {
            slide_eval v = slide_at(A, mu, r, cos(t), sin(t));
            if (v.F > 0.0) a = t;
            else b = t;
            double tn = v.dF < 0.0 ? t - v.F / v.dF : 0.5 * (a + b);
            if (!(tn > a && tn < b)) tn = 0.5 * (a + b);
            if (fabs(tn - t) <= 1e-15) {
                t = tn;
                break;
            }
            t = tn;
        }
        if (slide_point(A, mu, r, cos(t), sin(t), x)) return 1;
    }
    return 0;
}

int clab_cone_qp(double mu, const double A[9], const double Ainv[9], double L, const double r[3], double x[3])
{
    /* stick: the unconstrained minimizer inside K */
    double xu[3];
    mul3(Ainv, r, xu);
    xu[0] = -xu[0], xu[1] = -xu[1], xu[2] = -xu[2];
    if (xu[0] >= 0.0 && norm2d(xu[1], xu[2]) <= mu * xu[0]) {
        x[0] = xu[0], x[1] = xu[1], x[2] = xu[2];
        return CLAB_CONE_STICK;
    }
    /* open: r in K*, x = 0 */
    if (r[0] >= mu * norm2d(r[1], r[2])) {
        x[0] = x[1] = x[2] = 0.0;
        return CLAB_CONE_OPEN;
    }
    /* frictionless: the ray x_T = 0, x_n = -r_n / A_nn > 0 (r_n < 0 here) */
    if (mu == 0.0) {
        x[0] = -r[0] / A[0], x[1] = x[2] = 0.0;
        return CLAB_CONE_SLIDE;
    }
    /* slide: on the boundary of K, x != 0 */
    double xs[3];
    if (slide_solve(A, mu, r, x, xu, xs)) {
        x[0] = xs[0], x[1] = xs[1], x[2] = xs[2];
        return CLAB_CONE_SLIDE;
    }
    clab_cone_project(mu, x);
    fista(A, L, mu, r, x);
    return CLAB_CONE_SLIDE_FALLBACK;
}
