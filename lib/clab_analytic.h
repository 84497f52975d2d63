/* clab_analytic.h: closed-form references the experiments and the tests check a simulation
 * against, each with the equation it evaluates. SI units throughout; no state. */
#ifndef CLAB_ANALYTIC_H
#define CLAB_ANALYTIC_H

/* ---- normal impact of a sphere on a rigid flat (the flat fixed: m_eff = m) ---- */

/* What an impact at speed v does: its duration t_c [s], the largest overlap delta_max [m],
 * the largest force [N] and the restitution e (speed out / speed in). */
typedef struct clab_analytic_impact {
    double contact_time;
    double max_overlap;
    double max_force;
    double restitution;
} clab_analytic_impact;

/* Hertz's contact constant of a sphere of radius R on a flat, F = K delta^(3/2):
 *     K = 4/3 E* sqrt(R),  1/E* = (1 - nu_1^2)/E_1 + (1 - nu_2^2)/E_2   [N/m^1.5]
 * (two spheres: R the effective radius R* = R_1 R_2/(R_1 + R_2)). */
double clab_analytic_hertz_K(double Estar, double R);
/* The effective modulus of two elastic bodies, 1/E* = (1 - nu_1^2)/E_1 + (1 - nu_2^2)/E_2 [Pa]. */
double clab_analytic_hertz_Estar(double E1, double nu1, double E2, double nu2);
/* The overlap under a steady load F (a body resting with F = m g): F = K delta^(3/2),
 *     delta = (F/K)^(2/3)   [m]. */
double clab_analytic_hertz_rest_overlap(double K, double F);

/* CLAB_ANALYTIC_HERTZ_TC: t_c = CLAB_ANALYTIC_HERTZ_TC delta_max / v, the integral
 * 2 int_0^1 (1 - x^(5/2))^(-1/2) dx = 2 sqrt(pi) Gamma(7/5)/Gamma(9/10) = 2.94327..., to the
 * four digits Johnson quotes (the experiments' summaries are written with this value). */
#define CLAB_ANALYTIC_HERTZ_TC 2.9432
/* The same integral to double precision: 2 sqrt(pi) Gamma(7/5)/Gamma(9/10) = 2.943275184... */
double clab_analytic_hertz_tc_factor(void);

/* Elastic Hertz impact (Johnson, Contact Mechanics, 1985, Sect. 11.4) of mass m at speed v,
 * F = K delta^(3/2):
 *     1/2 m v^2 = 2/5 K delta_max^(5/2)  ->  delta_max = (5 m v^2 / (4 K))^(2/5),
 *     F_max = K delta_max^(3/2),  t_c = 2.9432 delta_max / v,  e = 1. */
clab_analytic_impact clab_analytic_hertz_impact(double K, double m, double v);

/* Linear spring-dashpot impact (Hooke), F = k delta + c delta', of mass m at speed v:
 *     omega_0 = sqrt(k/m), zeta = c / (2 sqrt(k m)), omega_d = omega_0 sqrt(1 - zeta^2),
 *     delta(t) = v/omega_d exp(-zeta omega_0 t) sin(omega_d t),
 *     t_c = pi / omega_d,  e = exp(-pi zeta / sqrt(1 - zeta^2)),
 *     delta_max at tan(omega_d t) = omega_d / (zeta omega_0);
 * F_max, largest of k delta + c delta' over the contact, found on 1001 samples of [0, t_c].
 * (zeta is kept below 1: 1 - zeta^2 no smaller than 1e-12.) */
clab_analytic_impact clab_analytic_hooke_impact(double k, double c, double m, double v);
/* The restitution of the linear spring-dashpot at damping ratio zeta (as above):
 *     e = exp(-pi zeta / sqrt(1 - zeta^2)),
 * and its inverse, the damping ratio that gives restitution e (0 < e <= 1):
 *     zeta = -ln e / sqrt(ln^2 e + pi^2). */
double clab_analytic_hooke_restitution(double zeta);
double clab_analytic_hooke_zeta(double e);
/* The same impact when the force cannot pull (F = max(0, k delta + c delta'): a unilateral
 * contact, penalty clamp=on or a compliant DVI row with gamma_n >= 0). With delta(t) as above
 * the force vanishes at t_s, omega_d t_s = pi - atan(2 zeta sqrt(1 - zeta^2)/(1 - 2 zeta^2)),
 * while the overlap is still delta(t_s) > 0; the mass then leaves at delta'(t_s) and flies
 * freely over that overlap:
 *     e = -delta'(t_s)/v,  t_c = t_s + delta(t_s)/|delta'(t_s)|   (zeta < 1/sqrt 2);
 * delta_max and F_max are those of the two-sided impact (both come before t_s). */
clab_analytic_impact clab_analytic_hooke_impact_unilateral(double k, double c, double m, double v);

/* ---- a ball launched sliding without spin on a plane (slip to roll) ---- */

/* A solid sphere (J = 2/5 m R^2) at v0 with Coulomb friction mu: friction mu m g slows the
 * center, vx = v0 - mu g t, and spins the ball up, omega R = 5/2 mu g t, so the slip
 * vx - omega R = v0 - 7/2 mu g t vanishes at
 *     t* = 2 v0 / (7 mu g),
 * after which the ball rolls at 5 v0 / 7. */
double clab_analytic_roll_time(double v0, double mu, double g);
double clab_analytic_roll_speed(double v0);
/* vx(t) and slip(t) of the above (mu <= 0: no friction, vx = slip = v0). */
void clab_analytic_slip_to_roll(double v0, double mu, double g, double t, double *vx, double *slip);

/* ---- a ball rolling over a fixed sphere ---- */

/* A solid sphere (J = 2/5 m R^2) rolling without slip over a fixed sphere, its center at
 * distance L from the fixed one's and at angle theta from the top: the center moves on a
 * circle of radius L and the ball turns at L theta'/R, so 7/5 m L theta'' = m g sin theta:
 *     theta'' = 5/7 g sin theta / L;
 * started at rest from the top, L theta'^2 = 10/7 g (1 - cos theta), and the contact forces are
 *     F_n = m g cos theta - m L theta'^2 = m g (17/7 cos theta - 10/7),
 *     F_t = m g sin theta - m L theta'' = 2/7 m g sin theta   (friction, against the motion). */
double clab_analytic_roll_over_sphere_accel(double g, double L, double theta);
void clab_analytic_roll_over_sphere_forces(double m, double g, double theta, double *Fn, double *Ft);

/* ---- a block on an inclined plane ---- */

/* Rigid block, Coulomb friction mu, slope theta: it sticks while tan theta <= mu, else it
 * slides down with
 *     a = g (sin theta - mu cos theta);
 * returns a, 0 when it sticks. */
double clab_analytic_incline_accel(double g, double theta, double mu);

/* ---- a chain of equal spheres struck at one end ---- */

/* Nesterenko's solitary wave in a Hertzian chain without precompression (Nesterenko,
 * Dynamics of Heterogeneous Materials, 2001, Ch. 1; long-wave limit of
 * m u_i'' = F_(i-1,i) - F_(i,i+1), F = K delta^(3/2)), spheres of mass m at spacing a:
 *     u_tt = -c^2 [(-u_x)^(3/2)]_x,  c^2 = K a^(5/2) / m,
 *     V_s = (16/25)^(1/5) c^(4/5) v_m^(1/5),
 * v_m the wave's peak particle speed. */
double clab_analytic_nesterenko_speed(double K, double m, double a, double vm);
/* The linear (Hooke, F = k delta) chain's long-wave sound speed, the fastest group speed of
 * omega = 2 sqrt(k/m) sin(q a / 2):  c_0 = a sqrt(k/m). */
double clab_analytic_chain_sound_speed(double k, double m, double a);

/* ---- Painleve's rod: a body sliding on a rough plane on one point ---- */

/* A rigid body in the (x, z) plane, mass m, moment of inertia J = m k2 about its center
 * (k2 the squared radius of gyration [m^2]), touches the plane z = 0 at the point P, which
 * lies at p = (px, pz) from the center, and turns at theta' (its angle to the plane, theta,
 * grows as the body rises towards +x from P). P slides towards -x, so Coulomb friction
 * pushes it with F = +mu lambda_n. From m x'' = F, m z'' = lambda_n - m g and
 * J theta'' = px lambda_n - pz F, the normal acceleration of P,
 * z_P'' = z'' + px theta'' - pz theta'^2, is affine in the normal force (Stewart 2000, Sect. 1.3):
 *     z_P'' = A + B lambda_n,
 *     A = -g - pz theta'^2,   B = 1/m + (px^2 - mu px pz)/J.
 * A uniform rod of half-length l with its end on the plane (J = m l^2/3, p = -l (cos theta,
 * sin theta)): A = -g + l theta'^2 sin theta, m B = 1 + 3 cos^2 theta - 3 mu sin theta cos theta. */
void clab_analytic_painleve_AB(double m, double k2, double px, double pz, double mu, double g, double thetadot,
                               double *A, double *B);
/* The friction coefficient at which B changes sign, B < 0 for mu above it:
 *     mu* = (k2 + px^2) / (px pz),  INFINITY when px pz <= 0 (B > 0 for every mu). */
double clab_analytic_painleve_mu_star(double k2, double px, double pz);
/* The uniform rod's m B = 1 + 3 cos^2 theta - 3 mu sin theta cos theta (dimensionless). */
double clab_analytic_painleve_rod_B(double theta, double mu);
/* The uniform rod's mu*(theta) = (1 + 3 cos^2 theta) / (3 sin theta cos theta) = (4 + t^2)/(3 t),
 * t = tan theta, for 0 < theta < pi/2 (INFINITY elsewhere); its minimum is 4/3 at tan theta = 2. */
double clab_analytic_painleve_rod_mu_star(double theta);
/* The corner of a box of half extents (l, w) in the (x, z) plane that touches the plane when the
 * box is turned up by theta about its -x end: p = (-l cos theta + w sin theta,
 * -l sin theta - w cos theta); the box's k2 about the axis normal to the plane is (l^2 + w^2)/3. */
void clab_analytic_painleve_box_corner(double l, double w, double theta, double *px, double *pz);
/* The impulse (P_n, P_t) [N s] that brings the contact point of the body above (velocity
 * (v_t, v_n) before) to rest at once, perfectly inelastic and sticking, from the Delassus
 * matrix of the point (impulse to velocity change):
 *     W = [1/m + pz^2/J   -px pz/J ; -px pz/J   1/m + px^2/J]   (rows t, n),   P = -W^-1 (v_t, v_n).
 * The uniform rod sliding at v_t = -v0 (v_n = 0): det W = 4/m^2 and
 *     P_n = 3/4 m v0 sin theta cos theta,   P_t = 1/4 m v0 (1 + 3 cos^2 theta),
 * inside the friction cone (P_t <= mu P_n) exactly when mu >= mu*(theta): in the Painleve
 * region a tangential impact (impact without collision) stops the sliding in one step. */
void clab_analytic_painleve_stick_impulse(double m, double k2, double px, double pz, double vt, double vn, double *Pt,
                                          double *Pn);
/* The classical (acceleration-level) problem of the sliding contact: lambda_n >= 0,
 * a_n = A + B lambda_n >= 0, lambda_n a_n = 0. Its solutions, written to lambda[0..]:
 *     B > 0:  one, lambda_n = max(0, -A/B)                         (consistent)
 *     B < 0, A < 0:  none                                           (inconsistent)
 *     B < 0, A > 0:  two, lambda_n = 0 (lift-off) and -A/B (stays)  (indeterminate)
 *     B < 0, A = 0 or B = 0, A > 0: one, lambda_n = 0;  B = 0, A < 0: none;  B = A = 0: every
 *     lambda_n >= 0 (returned as 2, with 0 and INFINITY).
 * Returns the count. */
int clab_analytic_painleve_solutions(double A, double B, double lambda[2]);

#endif
