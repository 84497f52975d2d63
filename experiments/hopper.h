/* hopper.h: contactlab hopper, the discharge of a hopper through an orifice (hopper.c drives
 * it, hopper_scene.c builds it, hopper_fit.c counts and fits).
 *
 * Two containers, both open at the top, their floor at z = 0:
 *  - flat: a square box of inner width L (four fixed half-spaces) whose floor is a triangle
 *    mesh with a circular orifice of diameter D_o at its centre;
 *  - cone: a conical frustum of triangles (half-angle theta from the vertical, lower
 *    diameter D_b) standing on an annular mesh floor with the orifice D_o <= D_b (D_o = D_b:
 *    the cone's own outlet), walls and floor one mesh.
 * The orifice is a regular polygon of HP_NSEG sides with the circle's area. The spheres are
 * filled in loose (a jittered lattice, solid fraction about 0.3) over a closed floor and
 * settled once with the Hertz-Mindlin penalty method (the gate: a half-space z <= 0 in place
 * of the floor mesh, so one fill serves every orifice); every method and orifice starts from
 * this settled fill, with the floor mesh and its orifice in place of the gate at t = 0.
 *
 * A sphere is discharged once, when its center first passes below the plane z_out = -2 d; it
 * is then frozen: made fixed, its velocity zeroed and moved to a slot of a lattice further
 * below (two fixed bodies never touch), so the backends keep their bodies and the broad phase
 * forgets it. */
#ifndef CLAB_HOPPER_H
#define CLAB_HOPPER_H

#include <stddef.h>

#include "clab_world.h"

#define HP_NSEG 48 /* sides of the orifice polygon and of the cone's rings (a multiple of 8) */
enum { HP_FLAT = 0, HP_CONE = 1 };
/* the floor of a build: the settling gate (half-space), the mesh with the orifice, or the
 * mesh with its orifice closed by a fan of triangles (the leak test) */
enum { HP_GATE = 0, HP_OPEN = 1, HP_CLOSED = 2 };

typedef struct hp_def {
    int geometry;        /* HP_FLAT or HP_CONE */
    int n;               /* spheres */
    double radius, poly; /* mean radius R [m], radii uniform in R (1 +- poly) */
    double density;      /* [kg/m^3] */
    double mu, mu_wall;  /* friction sphere-sphere and sphere-floor, sphere-wall */
    double E, nu, cor;   /* penalty law: Young's modulus [Pa], Poisson ratio, restitution */
    double width;        /* flat: inner width L [m] */
    double half_angle;   /* cone: half-angle from the vertical [rad] */
    double bottom;       /* cone: lower diameter D_b [m] */
    unsigned long seed;  /* the fill's jitter and radii (gsl_rng_mt19937) */
} hp_def;

/* what a build chose */
typedef struct hp_info {
    size_t first;    /* index of the first sphere (walls and mesh come first) */
    double height;   /* walls' height [m] */
    double mass;     /* total mass of the spheres [kg] */
    double d_mean;   /* mean diameter of the spheres drawn [m] */
} hp_info;

/* The world: the container with the floor `floor` (orifice D_o for HP_OPEN, HP_CLOSED) and
 * the spheres: from `from` (the settled fill: its spheres from from_first on, state copied)
 * or, when from is NULL, the loose lattice fill at rest. NULL with err set on bad
 * parameters (the orifice wider than the floor, too few lattice sites). */
clab_world *hp_build(const hp_def *d, double D_o, int floor, const clab_world *from, size_t from_first, hp_info *info,
                     clab_error *err);

/* The triangles of the mesh of a build (floor with orifice D_o, closed or open, and the cone's
 * walls): *xyz gets 9 *ntri coordinates (malloc'd). -1 with err set. */
int hp_mesh(const hp_def *d, double D_o, int closed, double height, double **xyz, size_t *ntri, clab_error *err);

/* The bulk density rho_b [kg/m^3] of the settled fill: the solid fraction of the spheres in a
 * box well inside the bed (the flat box's whole width, the cone's square inscribed in its lower
 * circle; from 1 d above the floor to 2 d below the bed's top, the top the 95th percentile of
 * the centers' heights) times the spheres' density. *phi gets the solid fraction. */
double hp_bulk_density(const hp_def *d, const clab_world *w, size_t first, double *phi);

/* ---- the discharge count (hopper_fit.c) ---- */
typedef struct hp_counter {
    size_t first, n;  /* the spheres are bodies first .. first + n - 1 */
    double z_out;     /* the discharge plane [m] */
    double *t_out;    /* [n] time each sphere was discharged, -1 while inside */
    double *m_cum;    /* [count] the discharged mass after each exit, in exit order [kg] */
    double *t_cum;    /* [count] the exit times, in order [s] */
    size_t count;     /* spheres discharged */
    double mass;      /* their mass [kg] */
    double slot;      /* spacing of the freezing lattice [m] */
} hp_counter;

int hp_counter_init(hp_counter *k, size_t first, size_t n, double z_out, double slot);
void hp_counter_free(hp_counter *k);
/* Count and freeze the spheres whose centers are below z_out at time t (each sphere once;
 * a frozen sphere is fixed and never counted again). Returns the number counted now. */
size_t hp_counter_step(hp_counter *k, clab_world *w, double t);

/* ---- fits (hopper_fit.c) ---- */
/* The mass flow rate W [kg/s]: the least-squares slope of the discharged mass against time
 * over the exits (t_i, M_i) with f_lo M_end <= M_i <= f_hi M_end (M_end = M_{n-1}). -1 when
 * fewer than 3 exits fall in the window. *r2: the fit's coefficient of determination. */
int hp_flow_rate(const double *t, const double *M, size_t n, double f_lo, double f_hi, double *W, double *r2);

/* Beverloo, Leniger and van de Velde (1961): W = C rho_b sqrt(g) (D_o - k d)^(5/2). W^(2/5)
 * is linear in D_o, W^(2/5) = a D_o + b with a = (C rho_b sqrt g)^(2/5) and b = -k d a; the
 * least-squares line over the n points (D_i, W_i^(2/5)) gives C = a^(5/2)/(rho_b sqrt g) and
 * k = -b/(a d). -1 when fewer than 2 points have W > 0 or the slope is not positive. */
typedef struct hp_beverloo {
    double C, k;    /* the law's constants */
    double a, b;    /* the line: W^(2/5) [kg^0.4 s^-0.4] = a D_o + b */
    double r2;      /* its coefficient of determination */
    int npoints;    /* points used (W > 0) */
} hp_beverloo;
int hp_beverloo_fit(const double *D, const double *W, int n, double rho_b, double g, double d, hp_beverloo *fit);

#endif
