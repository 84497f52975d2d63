/* pile_scene.h: the granular pile shared by `contactlab pile`, `convergence` and `scaling`.
 *
 * N spheres (radii uniform in R (1 - p, 1 + p), p the polydispersity) in a square box of
 * inner width L made of five fixed half-spaces: the floor z <= 0 and four walls, each plane
 * with its outward normal pointing into the box (a wall at x = -L/2 has normal +x, solid at
 * x < -L/2). The spheres start at rest in a random loose packing: random sequential
 * addition (positions drawn from gsl_rng_mt19937 with the given seed, a draw that overlaps
 * a sphere already placed is rejected) in a column of solid fraction phi0. Or, for drivers
 * that want a dense pile at once, a deposit: each sphere is dropped vertically at
 * XP_PILE_DROPS random (x, y) positions and stays at the lowest one where it first touches
 * the floor or a sphere already placed (a dense packing, each sphere resting on at least one
 * other, not yet in equilibrium). Body order: the floor (0), the walls (1..4), then the
 * spheres (XP_PILE_FIRST on).
 *
 * Also here: what the drivers measure on a pile (kinetic energy, contact counts, penetration,
 * load on the floor, per-contact normal forces) and the settling run the convergence and
 * scaling drivers start from. */
#ifndef CLAB_PILE_SCENE_H
#define CLAB_PILE_SCENE_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "xp.h"

#define XP_PILE_FIRST 5 /* index of the first sphere: floor + 4 walls come first */
enum { XP_PILE_LOOSE = 0, XP_PILE_DEPOSIT = 1 };
#define XP_PILE_DROPS 256 /* trial drops per sphere of the deposit */

typedef struct xp_pile_def {
    int n;                /* spheres */
    double radius;        /* mean radius R [m] */
    double poly;          /* polydispersity p in [0, 0.5): radii uniform in R (1 +- p) */
    double density;       /* [kg/m^3] */
    double mu;            /* friction sphere-sphere and sphere-floor */
    double mu_wall;       /* friction sphere-wall (0: frictionless walls, no Janssen effect) */
    double E, nu, cor;    /* Young's modulus [Pa], Poisson ratio, restitution (penalty law) */
    double width;         /* inner box width L [m]; 0 = from n (settled height about L/2) */
    int packing;          /* XP_PILE_LOOSE or XP_PILE_DEPOSIT */
    double phi0;          /* solid fraction of the initial loose packing, in (0, 0.35] */
    unsigned long seed;   /* gsl_rng_mt19937 seed */
} xp_pile_def;

/* R = 0.01 m, p = 0.1, 2500 kg/m^3 (glass), mu = 0.5, mu_wall = 0, E = 1e8 Pa, nu = 0.3,
 * cor = 0.5, loose packing, phi0 = 0.3, seed 1, n = 500, width from n. */
xp_pile_def xp_pile_default(void);

/* getopt_long entries of the pile's scene options (ids 900..911; each driver adds its own
 * --n), their help lines, and the handler: 1 when opt was one of them, 0 when not, -1 on a
 * bad value (message printed). */
#define XP_PILE_LONGOPTS                                                                      \
    {"seed", required_argument, 0, 900}, {"radius", required_argument, 0, 901},               \
    {"poly", required_argument, 0, 902}, {"density", required_argument, 0, 903},              \
    {"mu", required_argument, 0, 904}, {"mu-wall", required_argument, 0, 905},                \
    {"E", required_argument, 0, 906}, {"nu", required_argument, 0, 907},                      \
    {"cor", required_argument, 0, 908}, {"width", required_argument, 0, 909},                 \
    {"phi0", required_argument, 0, 910}, {"packing", required_argument, 0, 911}
extern const char xp_pile_help[];
int xp_pile_option(xp_pile_def *d, int opt, const char *arg);

/* The DVI options the pile experiments use unless --opt-dvi says otherwise: tol = 1e-4 m/s
 * (the backend's 1e-6 m/s costs about five times as many iterations on a settling pile). */
#define XP_PILE_DVI_TOL "1e-4"
void xp_pile_dvi_defaults(clab_options *extra);

/* What the builder chose. */
typedef struct xp_pile_info {
    double width;    /* inner box width L [m] */
    double height;   /* top of the initial column [m] */
    double weight;   /* total weight of the spheres sum m_i g [N] */
    double mass;     /* total mass [kg] */
    double rmin, rmax; /* smallest and largest radius drawn [m] */
} xp_pile_info;

/* The world; NULL with err set on bad parameters or allocation failure. */
clab_world *xp_pile_build(const xp_pile_def *d, xp_pile_info *info, clab_error *err);
/* a fixed half-space through r0 whose outward normal A(e) (0,0,1) is n_in (into the box), a
 * body of w named name; 0, or -1 with err set (the pile's, the hopper's and the wave column's walls) */
static inline int xp_add_plane(clab_world *w, const char *name, clab_vec3 r0, clab_vec3 n_in, int material, clab_error *err)
{
    clab_body_def d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "%s", name);
    d.shape = clab_plane();
    d.fixed = 1;
    d.material = material;
    d.r = r0;
    clab_vec3 z = clab_v3(0.0, 0.0, 1.0), axis = clab_v3_cross(z, n_in);
    double s = clab_v3_norm(axis), c = clab_v3_dot(z, n_in);
    d.e = s > 1e-12 ? clab_q_axis_angle(axis, atan2(s, c)) : clab_q_identity();
    return clab_world_add_body(w, &d, err) < 0 ? -1 : 0;
}

/* Put the pile's parameters into output metadata. */
void xp_pile_meta(const xp_pile_def *d, const xp_pile_info *info, clab_options *m);

/* The state of a pile simulation after its last step. */
typedef struct xp_pile_state {
    double ke;          /* kinetic energy of the spheres [J] */
    size_t contacts;    /* contact records (Phi < envelope) */
    size_t active;      /* of those, with F_n > f_eps (carrying load) */
    double max_pen;     /* largest penetration -Phi, 0 when none [m] */
    double floor_fn;    /* sum of F_n on the floor [N] */
    double support_z;   /* vertical force of floor and walls on the spheres [N] */
    long iterations;    /* solver iterations of the last step (0: penalty) */
    double residual;    /* solver residual of the last step [m/s] (0: penalty) */
} xp_pile_state;

/* Forces below this fraction of the mean sphere weight count as zero (open contacts of
 * DVI within the envelope, dashpot pulls of the penalty method). */
#define XP_PILE_FEPS 1e-6

/* Measure; forces is scratch reused between calls (*cap entries; grown with realloc).
 * Returns 0, or -1 when out of memory. */
int xp_pile_measure(const clab_sim *s, const xp_pile_info *info, clab_vec3 **forces, size_t *cap, xp_pile_state *st);

/* The penalty step used by default: half the backend's stable step (t_c/20), rounded down
 * to 1, 2 or 5 times a power of ten. */
double xp_pile_penalty_step(const clab_sim *s);

/* The pile of d under method m (a rigid-contact method with xp_pile_dvi_defaults): the world
 * built into *w (its info in *info) and a simulation of it with step h, or, when h <= 0,
 * xp_pile_penalty_step. NULL (and *w NULL) on failure, the message printed as
 * "contactlab NAME: ...". */
clab_sim *xp_pile_sim(const xp_common *c, const xp_pile_def *d, const xp_method *m, double h, clab_world **w,
                      xp_pile_info *info);

/* A 1-2-5 rounding down of x > 0. */
double xp_round125(double x);

/* Settle a pile: run method m with step h for t_end seconds, with the common options of c
 * and extra backend options (may be NULL); progress under label. h <= 0 picks the default
 * step (a force law: xp_pile_penalty_step; rigid contacts: 1e-3 s).
 * Returns the simulation (world stepped in place) or NULL (message printed). */
clab_sim *xp_pile_settle(const xp_common *c, clab_world *w, const xp_method *m, double h, double t_end,
                         const clab_options *extra, const char *label);

/* Wall-clock seconds (monotonic), and the CPU seconds of this process (the library is
 * single-threaded, so the CPU time of a run is its cost even on a loaded machine). */
double xp_pile_now(void);
double xp_pile_cpu(void);

#endif
