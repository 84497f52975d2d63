/* painleve.h: what contactlab painleve's two files share (painleve.c: options, region, summary;
 * painleve_case.c: one simulation of the sliding rod and the tangential-impact detector) */
#ifndef CLAB_PAINLEVE_H
#define CLAB_PAINLEVE_H

#include "xp.h"

#define PL_MAXP 16 /* run points (theta, mu) */
#define PL_MAXE 8  /* penalty stiffnesses (Young's moduli) */

typedef struct pl_opts {
    xp_common c;
    double theta[PL_MAXP], mu[PL_MAXP]; /* the run points [rad], friction coefficients */
    int npoint;
    double v0;          /* the contact end's sliding speed at t = 0, towards -x [m/s] */
    double thetadot;    /* the rod's angular velocity at t = 0 (theta grows when > 0) [rad/s] */
    double l, w;        /* half-length, half-thickness [m] */
    int corner;         /* --end corner: the rod rolled 45 deg about its axis, one corner on the plane */
    double mass;        /* [kg] */
    double E[PL_MAXE];  /* Young's moduli of the force-law runs [Pa]: one run each */
    int nE;
    double nu, cor;     /* penalty material */
    double hpen, hdvi;  /* steps [s]; hpen 0: a tenth of the stable step, 1-2-5 rounded */
    double sample_dt;   /* output interval [s] (every step while the normal force is large) */
    double region_thetadot; /* the theta' of the region figure's second panel [rad/s] */
    double big;         /* a normal force above big m g is impulsive [1] */
    double lift_tol;    /* the end lifts off when it rises above lift_tol [m] */
    int quick;
} pl_opts;

/* what one run shows */
typedef struct pl_result {
    double h;            /* its step [s] */
    double t_stop;       /* first time the end's sliding speed fell below 1 % of v0 [s]; NAN: never */
    double t_event;      /* start of the impulsive event (normal force > big m g) that stopped it [s] */
    double event_dt;     /* its duration [s] */
    double imp_n, imp_t; /* normal and tangential impulse over it [N s] */
    double fn_peak;      /* largest normal force of a step [N] */
    double t_peak;       /* its time [s] */
    double max_height;   /* highest the end rose [m] */
    double min_height;   /* deepest it sank (penalty overlap: negative) [m] */
    double vt_final;     /* the end's tangential velocity at t_end [m/s] */
    double steps, wall;
    const char *outcome; /* "tangential impact", "stops", "lifts off", "slides" */
} pl_result;

/* Run method m at point p (stiffness E: Young's modulus of the force-law runs, 0 for the rigid
 * ones) for t_end, write its series into file (a name in the output folder). 0 or 1 (printed). */
int pl_case(const pl_opts *o, const xp_method *m, int p, double E, double t_end, char *file, size_t filelen,
            pl_result *res, xp_progress *pb, double pb0, double pbspan);

/* the contact corner of the rod at angle theta, relative to its center, in the (x, z) plane:
 * the end's bottom edge (w below the axis), or with --end corner its lowest corner (w sqrt 2) */
void pl_corner(const pl_opts *o, double theta, double *px, double *pz);

/* the body-frame point the series track: the bottom edge's midpoint (-l, 0, -w), or the corner
 * (-l, -w, -w) that the 45 deg roll puts lowest */
clab_vec3 pl_end_point(const pl_opts *o);

#endif
