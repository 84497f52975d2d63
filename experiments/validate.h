/* validate.h: what the parts of `contactlab validate` share: a row of the result tables, the
 * closed forms of the impacts (validate_theory.c), one impact run under any method
 * (validate_impact.c), the Chung-Ooi tests (validate_chung.c) and the single-contact checks
 * (validate_checks.c). */
#ifndef CLAB_VALIDATE_H
#define CLAB_VALIDATE_H

#include "clab_analytic.h"
#include "xp.h"

/* the verdict of a row */
typedef enum val_status { VAL_FAIL = 0, VAL_PASS = 1, VAL_NA = 2, VAL_REF = 3 } val_status;

/* one row of a table: test, case, quantity, expected, obtained, relative (or absolute) error,
 * tolerance, verdict; note: the reason for NA/REF, or what the expectation assumes */
typedef struct val_row {
    char test[24];
    char method[24];
    char what[64];     /* the case: material, angle, ... */
    char quantity[40]; /* with its unit */
    double expected, obtained, err, tol;
    int abs;           /* err and tol absolute (expected 0) */
    val_status status;
    char note[160];
} val_row;

/* the rows of a run, growing */
typedef struct val_table {
    val_row *r;
    size_t n, cap;
} val_table;

/* add a checked row (err from expected and obtained, status from tol; a non-finite obtained
 * fails); returns the row or NULL when out of memory */
val_row *val_add(val_table *t, const char *test, const char *method, const char *what, const char *quantity,
                 double expected, double obtained, double tol, int abs, const char *note);
/* add a row that is not checked: status VAL_NA or VAL_REF, with the reason */
val_row *val_add_note(val_table *t, const char *test, const char *method, const char *what, const char *quantity,
                      double expected, double obtained, val_status st, const char *note);

/* ---- closed forms (validate_theory.c) ---- */

/* A rigid impact of two solid spheres (or a sphere, body 1, on a fixed plane, body 0: m0 =
 * INFINITY), body 1 above body 0 along +z, contact normal z, touching at body 0's top (R0)
 * and body 1's bottom (R1): the velocities after (Newton restitution e on the normal, Coulomb
 * mu on the tangential impulse; Maw, Barber and Fawcett 1976 rigid limit, Brach 1991):
 *   J_n = m* (1 + e) v_n;  slip s of the contact point, B = 1/m0 + 1/m1 + R0^2/I0 + R1^2/I1
 *   (= 7/2 (1/m0 + 1/m1) for solid spheres, I = 2/5 m R^2), so the contact sticks when
 *   |s| <= mu (1 + e) v_n B m*, i.e. tan theta <= 7/2 mu (1 + e) on a plane: J_t = |s|/B;
 *   else it slides throughout: J_t = mu J_n.
 * ccp: the Tasora-Anitescu CCP's one-step impulse instead (velocity level, e = 0, relaxed
 * cone): a sliding contact leaves with normal speed mu |s'|, so J_n = m* (v_n + mu |s'|) and
 * s' = (|s| - B mu m* v_n)/(1 + B mu^2 m*). */
typedef struct val_rigid {
    clab_vec3 v0, w0, v1, w1; /* after */
    double Jn, Jt;            /* impulses [N s] */
    int slides;
} val_rigid;
val_rigid val_rigid_impact(double m0, double R0, clab_vec3 v0, clab_vec3 w0, double m1, double R1, clab_vec3 v1,
                           clab_vec3 w1, double e, double mu, int ccp);

/* ---- one impact under a method (validate_impact.c) ---- */

/* two bodies: body 0 a fixed plane z = 0 (R0 = 0) or a free sphere at the origin, body 1 a
 * sphere just above it; both no gravity */
typedef struct val_impact_def {
    clab_material mat0, mat1;
    double R0, rho0, R1, rho1;
    clab_vec3 v0, w0, v1, w1;
    double h;     /* step [s] */
    double t_max; /* simulated time after the first touch [s] */
} val_impact_def;

typedef struct val_impact {
    double t_contact;   /* overlap duration, crossings interpolated [s] */
    double max_overlap; /* [m] */
    double max_force;   /* largest normal force [N] */
    double Jn_plus;     /* int max(F_n, 0) dt [N s] */
    clab_vec3 v0, w0, v1, w1; /* after */
    double m0, m1;      /* masses [kg] (plane: INFINITY) */
    long steps;
    int ok;             /* ran, touched and (compliant) came apart */
} val_impact;

/* run d under method m of c (its options, then extra, "key=value" strings ending in NULL, may
 * be NULL); 0 on success, -1 (printed) when the simulation could not be made or a step failed */
int val_impact_run(const xp_common *c, const xp_method *m, const val_impact_def *d, const char *const *extra,
                   val_impact *out);

/* 1 when the sim's method declares the relaxed cone of the Tasora-Anitescu CCP (metadata
 * dvi_friction or friction = relaxed): a sliding contact leaves at normal speed mu |u_t| */
int val_sim_relaxed(const clab_sim *s);
/* the same for method m (a one-sphere sim made to read its metadata); 0 when none is made */
int val_method_relaxed(const xp_common *c, const xp_method *m);

/* ---- the tables ---- */

typedef struct val_opts {
    xp_common c;
    int quick;       /* --quick: fewer cases, coarser compliant steps */
    unsigned tests;  /* bit k: Chung-Ooi test k (1..8) chosen; bit 9: the single-contact checks */
    int steps_per_contact; /* compliant step h = t_c / this (Hertz contact time) */
    double hdvi;     /* rigid methods' step [s] */
} val_opts;

/* the Chung-Ooi tests of o->tests under method m into t; the curve tests' rows also go to
 * curves (CSV of test, case, incidence, closed form, obtained), may be NULL. -1 on failure */
int val_chung_ooi(const val_opts *o, const xp_method *m, val_table *t, clab_csv *curves);
/* the single-contact checks (slip to roll, incline threshold, resting contact, lift-off
 * speed) under method m into t; -1 on failure */
int val_checks(const val_opts *o, const xp_method *m, val_table *t);

#define VAL_CHECKS_BIT 9u

#endif
