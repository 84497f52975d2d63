/* test_painleve: Painleve's sliding rod, the analytic part (lib/analytic_painleve.c).
 *
 * Expected values and where they come from:
 * - the uniform rod (J = m l^2/3, end at p = -l (cos theta, sin theta)): A = -g + l theta'^2
 *   sin theta, m B = 1 + 3 cos^2 theta - 3 mu sin theta cos theta (Newton-Euler in the plane,
 *   Stewart 2000, Sect. 1.3); the general coefficients must reduce to it (rounding: 1e-13);
 * - the boundary B = 0: mu*(theta) = (1 + 3 cos^2 theta)/(3 sin theta cos theta)
 *   = (4 + tan^2 theta)/(3 tan theta), whose derivative (3 t^2 - 12)/(9 t^2) vanishes at
 *   tan theta = 2, where mu* = 8/6 = 4/3: a grid of 1e-5 rad finds the minimum to O(dtheta^2)
 *   (tolerance 1e-9) and its place to one grid step (tan theta to 1e-4);
 * - the 3D box the experiment builds (contactlab painleve): its corner's acceleration from
 *   the vector Newton-Euler equations a_P = a + alpha x r + omega x (omega x r), with the
 *   library's box inertia and Euler-parameter rotation, gives the same A and B (1e-12
 *   relative): the planar sign convention is the driver's;
 * - the one-unknown LCP's solution counts: by cases (exact). */
#include <math.h>

#include "clab_analytic.h"
#include "clab_math.h"
#include "clab_shape.h"
#include "clab_world.h"
#include "tap.h"

/* the box (half extents l, w, w, mass m) turned up by theta about -y with its (-l, ., -w)
 * corner on z = 0, spinning at theta' (omega = -theta' e_y), pushed at that corner by
 * (mu lambda_n, 0, lambda_n) and pulled by gravity: the corner's vertical acceleration */
static double box_corner_az(double m, double l, double w, double theta, double thetadot, double mu, double g,
                            double lambda_n)
{
    clab_shape box = clab_box(l, w, w);
    clab_vec3 J = clab_v3_scale(clab_shape_unit_inertia(&box), m);
    clab_quat e = clab_q_axis_angle(clab_v3(0.0, 1.0, 0.0), -theta);
    clab_vec3 r = clab_q_rotate(e, clab_v3(-l, w, -w)); /* center to corner, world */
    clab_vec3 F = clab_v3(mu * lambda_n, 0.0, lambda_n - m * g);
    clab_vec3 Fc = clab_v3(mu * lambda_n, 0.0, lambda_n); /* the contact force alone makes the torque */
    clab_vec3 tau = clab_v3_cross(r, Fc);
    /* the rotation stays about y (a principal axis of the box turned about y): alpha = tau_y / J_y */
    clab_vec3 alpha = clab_v3(0.0, tau.y / J.y, 0.0), omega = clab_v3(0.0, -thetadot, 0.0);
    clab_vec3 a = clab_v3_scale(F, 1.0 / m);
    clab_vec3 aP = clab_v3_add(a, clab_v3_add(clab_v3_cross(alpha, r), clab_v3_cross(omega, clab_v3_cross(omega, r))));
    return aP.z;
}

int main(void)
{
    const double g = 9.81, m = 1.7, l = 0.5;

    /* the general coefficients reduce to the rod's closed form */
    double worst_A = 0.0, worst_B = 0.0;
    for (int i = 1; i < 90; i++)
        for (int j = 0; j <= 30; j++) {
            double th = i * M_PI / 180.0, mu = 0.1 * j, thd = 0.3 * (j - 15), A, B;
            clab_analytic_painleve_AB(m, l * l / 3.0, -l * cos(th), -l * sin(th), mu, g, thd, &A, &B);
            worst_A = fmax(worst_A, fabs(A - (-g + l * thd * thd * sin(th))));
            worst_B = fmax(worst_B, fabs(m * B - clab_analytic_painleve_rod_B(th, mu)));
        }
    tap_close(worst_A, 0.0, 1e-13, "rod: A = -g + l theta'^2 sin theta (89 angles x 31 mu, theta' in [-4.5, 4.5])");
    tap_close(worst_B, 0.0, 1e-13, "rod: m B = 1 + 3 cos^2 - 3 mu sin cos (89 angles x 31 mu)");

    /* B = 0 on the boundary; mu* = (4 + t^2)/(3 t) */
    double worst_zero = 0.0, worst_form = 0.0;
    for (int i = 1; i < 90; i++) {
        double th = i * M_PI / 180.0, ms = clab_analytic_painleve_rod_mu_star(th), t = tan(th);
        worst_zero = fmax(worst_zero, fabs(clab_analytic_painleve_rod_B(th, ms)) / (1.0 + ms));
        worst_form = fmax(worst_form, fabs(ms - (4.0 + t * t) / (3.0 * t)) / ms);
        double mg = clab_analytic_painleve_mu_star(l * l / 3.0, -l * cos(th), -l * sin(th));
        worst_form = fmax(worst_form, fabs(mg - ms) / ms);
    }
    tap_close(worst_zero, 0.0, 1e-14, "m B(theta, mu*(theta)) = 0 at 1, 2, ..., 89 degrees (relative to 1 + mu*)");
    tap_close(worst_form, 0.0, 1e-14, "mu* = (1 + 3 cos^2)/(3 sin cos) = (4 + tan^2)/(3 tan) = (k2 + px^2)/(px pz)");
    tap_ok(isinf(clab_analytic_painleve_rod_mu_star(0.0)) && isinf(clab_analytic_painleve_rod_mu_star(M_PI / 2)) &&
               isinf(clab_analytic_painleve_mu_star(1.0, 0.5, -0.5)),
           "mu* is infinite at theta = 0, pi/2 and when px pz <= 0 (B > 0 for every mu)");

    /* the smallest mu of the region: 4/3 at tan theta = 2 */
    double best = INFINITY, th_best = 0.0;
    for (double th = 1e-5; th < M_PI / 2; th += 1e-5) {
        double ms = clab_analytic_painleve_rod_mu_star(th);
        if (ms < best) best = ms, th_best = th;
    }
    tap_close(best, 4.0 / 3.0, 1e-9, "min over theta of mu*(theta) (grid 1e-5 rad) = 4/3");
    tap_close(tan(th_best), 2.0, 1e-4, "  at tan theta = 2 (theta = 63.435 deg)");
    tap_close(th_best * 180.0 / M_PI, atan(2.0) * 180.0 / M_PI, 1e-3, "  the angle [deg]");
    /* B > 0 everywhere below 4/3, B < 0 near tan theta = 2 above it */
    int pos = 1;
    for (int i = 1; i < 9000; i++) pos &= clab_analytic_painleve_rod_B(i * M_PI / 18000.0, 4.0 / 3.0 - 1e-9) > 0.0;
    tap_ok(pos, "mu = 4/3 - 1e-9: m B > 0 at every angle of a 0.01 degree grid (no Painleve region)");
    tap_ok(clab_analytic_painleve_rod_B(atan(2.0), 4.0 / 3.0 + 1e-6) < 0.0 &&
               clab_analytic_painleve_rod_B(atan(2.0), 4.0 / 3.0) > -1e-15,
           "mu = 4/3 + 1e-6: m B < 0 at tan theta = 2 (m B = %.3g); at mu = 4/3 it is 0 (%.3g)",
           clab_analytic_painleve_rod_B(atan(2.0), 4.0 / 3.0 + 1e-6), clab_analytic_painleve_rod_B(atan(2.0), 4.0 / 3.0));
    /* the run points of the experiment's defaults: (60 deg, 2) inside, (60 deg, 0.3) outside */
    tap_close(clab_analytic_painleve_rod_B(M_PI / 3, 2.0), 1.75 - 1.5 * sqrt(3.0), 1e-14,
              "m B(60 deg, mu = 2) = 7/4 - 3 sqrt(3)/2 = -0.848 (inside)");
    tap_close(clab_analytic_painleve_rod_B(M_PI / 3, 0.3), 1.75 - 0.225 * sqrt(3.0), 1e-14,
              "m B(60 deg, mu = 0.3) = 7/4 - 0.225 sqrt(3) = 1.36 (outside)");

    /* the thin box converges to the rod */
    double px, pz, wt = 1e-7 * l;
    clab_analytic_painleve_box_corner(l, wt, M_PI / 3, &px, &pz);
    tap_rel(clab_analytic_painleve_mu_star((l * l + wt * wt) / 3.0, px, pz),
            clab_analytic_painleve_rod_mu_star(M_PI / 3), 1e-6, "box of w = 1e-7 l: mu*(60 deg) -> the rod's");

    /* the 3D box: A, B from the vector equations at lambda_n = 0 and 1 */
    double worst3 = 0.0;
    for (int i = 5; i < 90; i += 5)
        for (int j = 0; j < 4; j++) {
            double th = i * M_PI / 180.0, mu = 0.7 * j, thd = 1.5 * j - 2.0, w = 0.02, A, B;
            clab_analytic_painleve_box_corner(l, w, th, &px, &pz);
            clab_analytic_painleve_AB(m, (l * l + w * w) / 3.0, px, pz, mu, g, thd, &A, &B);
            double a0 = box_corner_az(m, l, w, th, thd, mu, g, 0.0), a1 = box_corner_az(m, l, w, th, thd, mu, g, 1.0);
            worst3 = fmax(worst3, fabs(a0 - A) / (fabs(A) + 1.0));
            worst3 = fmax(worst3, fabs((a1 - a0) - B) / (fabs(B) + 1.0));
        }
    tap_close(worst3, 0.0, 1e-12, "the 3D box (clab_box inertia, turned about -y) gives A and B (17 angles x 4 mu, theta')");

    /* the sticking impulse of the rod: P_n = 3/4 m v0 sin cos, P_t = m v0 (1 + 3 cos^2)/4, in the
     * cone exactly when mu >= mu* */
    double worst_P = 0.0;
    int cone_ok = 1;
    for (int i = 1; i < 90; i++) {
        double th = i * M_PI / 180.0, v0 = 1.3, Pt, Pn, c = cos(th), s = sin(th);
        clab_analytic_painleve_stick_impulse(m, l * l / 3.0, -l * c, -l * s, -v0, 0.0, &Pt, &Pn);
        worst_P = fmax(worst_P, fabs(Pn - 0.75 * m * v0 * s * c) + fabs(Pt - 0.25 * m * v0 * (1.0 + 3.0 * c * c)));
        double ms = clab_analytic_painleve_rod_mu_star(th);
        cone_ok &= Pt <= (ms * (1.0 + 1e-12)) * Pn && Pt > (ms * (1.0 - 1e-12)) * Pn;
    }
    tap_close(worst_P, 0.0, 1e-14, "stick impulse: P_n = 3/4 m v0 sin cos, P_t = m v0 (1 + 3 cos^2)/4 (89 angles)");
    tap_ok(cone_ok, "P_t/P_n = mu*(theta) at every angle: the sticking impulse is in the cone iff mu >= mu*");

    /* the one-unknown LCP */
    double lam[2];
    int n1 = clab_analytic_painleve_solutions(-9.81, 2.0, lam);
    tap_ok(n1 == 1 && fabs(lam[0] - 4.905) < 1e-15, "B > 0, A < 0: one solution lambda = -A/B (%g)", lam[0]);
    int n2 = clab_analytic_painleve_solutions(3.0, 2.0, lam);
    tap_ok(n2 == 1 && lam[0] == 0.0, "B > 0, A > 0: one solution, lift-off lambda = 0");
    tap_ok(clab_analytic_painleve_solutions(-9.81, -0.5, lam) == 0, "B < 0, A < 0: none (inconsistent)");
    int n3 = clab_analytic_painleve_solutions(3.0, -0.5, lam);
    tap_ok(n3 == 2 && lam[0] == 0.0 && fabs(lam[1] - 6.0) < 1e-15, "B < 0, A > 0: two, 0 and -A/B = 6 (indeterminate)");
    return tap_done();
}
