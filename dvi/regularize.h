/* regularize.h: the regularized (compliant, damped) DVI of seed 001 (Lacoursiere and Servin
 * 2011) on the normal rows of the CCP of Eq. (10) of seed 000.
 *
 * Seed 001, Eq. (1), adds to the Lagrangian the potential (epsilon/2) lambda^T lambda and to
 * the dissipation function the terms (epsilon tau/2) lambda'^T lambda' + tau lambda'^T G q':
 * the constraint becomes a spring of compliance epsilon [m/N] (stiffness k = 1/epsilon) with
 * a dissipation time tau [s] (damping c = tau/epsilon = k tau). In the limit epsilon -> 0 the
 * constraint is rigid again. Discretized (SPOOK, Lacoursiere 2007; derivation in doc/dvi.md),
 * the normal row of contact i becomes, with the impulse gamma_n [N s] and d = tau/h,
 *
 *     v_n(l+1) + Sigma gamma_n + a Phi - Upsilon v_n(l)  >= 0   (and in the cone, Eq. (10)),
 *     Sigma = 4 epsilon / (h^2 (1 + 4 d)),  a = 4 / (h (1 + 4 d)),  Upsilon = 1 / (1 + 4 d),  (R1)
 *
 * i.e. a diagonal Sigma added to N (ccp.h's compliance[]) and the stabilization term Phi/h of
 * Eq. (5d) of seed 000 replaced by a Phi - Upsilon v_n(l). The alternative scheme "euler"
 * (implicit Euler of the same law) uses
 *
 *     Sigma = epsilon / (h (h + tau)),  a = 1 / (h + tau),  Upsilon = 0,                    (R2)
 *
 * which is exactly seed 000's row (Phi/h) at epsilon = tau = 0.
 *
 * Contacts still open at q(l) (Phi > 0) use (R2) with tau = 0 under either scheme: no dashpot
 * before the bodies touch, as in the penalty law (else it brakes an approaching body from
 * Phi = tau |v_n| on, removing a fraction 4 zeta^2 of its kinetic energy before it touches),
 * and the step that closes the contact pushes on the predicted overlap Phi + h v_n(l+1)
 * (implicit), so a coarse step cannot gain energy as an explicit penalty step does; at
 * epsilon = 0 that row is seed 000's Phi/h. No recovery_speed
 * cap on the regularized rows: the compliance bounds the correction force (k |Phi|).
 * The friction rows (u, w) keep seed 000's rigid cone complementarity. */
#ifndef CLAB_DVI_REGULARIZE_H
#define CLAB_DVI_REGULARIZE_H

#include "ccp.h"
#include "clab_options.h"

enum { CLAB_DVI_REG_SPOOK = 0, CLAB_DVI_REG_EULER = 1 };

/* Parameters of the regularization, as given (options). tau of a contact follows from them and
 * the step (clab_dvi_reg_tau). */
typedef struct clab_dvi_reg {
    int on;         /* 1 when compliance= or stiffness= was given */
    int scheme;     /* CLAB_DVI_REG_SPOOK (R1) or CLAB_DVI_REG_EULER (R2) */
    double epsilon; /* compliance [m/N] (= 1/stiffness) */
    double k;       /* stiffness 1/epsilon [N/m] (0 when epsilon = 0) */
    double tau;     /* dissipation time as given [s], < 0 when not given */
    double c;       /* damping as given [N s/m], < 0 when not given */
    double cor;     /* restitution as given, < 0 when not given */
    int given;      /* bit mask of the options given: 1 compliance, 2 stiffness, 4 tau, 8 damping, 16 cor */
} clab_dvi_reg;

/* Read the options compliance=, stiffness=, tau=, damping=, cor=, reg_scheme= (see
 * CLAB_DVI_REG_HELP). r->on = 0 when none is given (rigid DVI). CLAB_EINVAL on conflicting or
 * incomplete options (the message names them). */
int clab_dvi_reg_options(clab_options *opt, clab_dvi_reg *r, clab_error *err);

/* tau [s] of a contact of effective mass m_eff = 1/N_nn [kg] at step h [s]:
 *     tau given:       tau
 *     damping c:       tau = c/k                         (spook: c_eff -> c as h -> 0)
 *                      tau = max(0, c/k - h)              (euler: the scheme itself damps k h)
 *     restitution e:   c = 2 zeta sqrt(k m_eff), zeta = -ln e / sqrt(ln^2 e + pi^2), then as c
 *     none:            2 h (spook: critically damped at epsilon = 0), 0 (euler: seed 000)
 * with epsilon = 1/k (both schemes: k_eff -> k as h -> 0; doc/dvi.md derives both). */
double clab_dvi_reg_tau(const clab_dvi_reg *r, double h, double m_eff);

/* Regularize the normal rows of P, built by clab_ccp_build from contacts c: for contact i
 *     compliance[3i] = Sigma,   p[3i] = v*_n + a Phi_i - Upsilon v_n(l),
 * with v*_n the normal velocity of the bodies' current (free) velocities and v_n(l) that of
 * v_l (6 per body: rdot, wbar, as dvi_backend.c keeps them); then clab_ccp_update_blocks. */
void clab_dvi_reg_apply(const clab_dvi_reg *r, clab_ccp *P, const clab_world *w, const clab_contacts *c,
                        const double *v_l, double h);

/* The coefficients (R1)/(R2) for one contact: compliance epsilon [m/N], tau [s], step h [s]. */
void clab_dvi_reg_coefficients(int scheme, double epsilon, double tau, double h, double *Sigma, double *a,
                               double *Upsilon);

/* Damping ratio of a restitution coefficient, zeta = -ln e / sqrt(ln^2 e + pi^2), inverse of
 * e = exp(-pi zeta / sqrt(1 - zeta^2)) (linear spring-dashpot). */
double clab_dvi_reg_zeta(double e);

/* Metadata: dvi_reg_* keys (the options in force and what they mean). */
void clab_dvi_reg_meta(const clab_dvi_reg *r, clab_options *m);

#define CLAB_DVI_REG_HELP                                                                            \
    "  compliance=X              Lacoursiere-Servin regularized DVI: normal compliance eps [m/N]\n" \
    "  stiffness=X               or its inverse, the contact stiffness k = 1/epsilon [N/m]\n"        \
    "  tau=X                     dissipation time tau [s] (default 2 h, critical for epsilon = 0)\n" \
    "  damping=X                 or a dashpot c [N s/m]: tau = c/k (euler: c/k - h)\n"               \
    "  cor=X                     or a restitution e: c = 2 zeta sqrt(k m_eff) per contact\n"         \
    "  reg_scheme=spook|euler    discretization (default spook; euler at epsilon = tau = 0 is the\n" \
    "                            rigid Tasora-Anitescu CCP)\n"

#endif
