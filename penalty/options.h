/* options.h: the penalty backend's definition, the run's choices, as a struct with defaults
 * (clab_penalty_def_init) filled from the option list (clab_penalty_def_read); its metadata
 * lines and help text. Every option, its unit and default: clab_penalty_options_help. */
#ifndef CLAB_PENALTY_OPTIONS_H
#define CLAB_PENALTY_OPTIONS_H

#include "clab_error.h"
#include "clab_options.h"
#include "force_law.h"
#include "integrator.h"

typedef struct clab_penalty_def {
    clab_penalty_law law;               /* model, Coulomb cap, clamp, rolling, vchar */
    clab_penalty_integrator integrator; /* euler or verlet */
    int lever_surface;   /* 1: lever arms to each body's surface point P -+ Phi/2 n (LAMMPS's radii) */
    int history_zero;    /* 1: the first step's contacts start with delta_t = 0 (LAMMPS's setup) */
    int history_project; /* 1: delta_t turned by plain projection, length not kept (LAMMPS) */
    int orientation_off; /* 1: spheres of isotropic inertia keep their Euler parameters (their motion
                          * does not depend on them; LAMMPS's atom_style sphere has none) */
    int fast;            /* 1: the fast path (fast_step.c: gather, scatter, lanes, threads); 0: the
                          * plain step (step.c), single-threaded, the same bits */
    double kn, kt, gn, gt; /* explicit overrides for every pair; < 0 = from the materials */
} clab_penalty_def;

/* the defaults: Hertz-Mindlin, Coulomb cap on spring + dashpot, the spring on the cone while
 * sliding (cone), tangential history on, no clamp, no rolling
 * resistance, vchar 1 m/s, semi-implicit Euler, levers to the contact point, history from the
 * first slip with its length kept, orientations integrated, the fast path, stiffness and
 * damping from the materials */
void clab_penalty_def_init(clab_penalty_def *d);

/* Read the options the penalty backend knows into d (the keys marked as read); the first
 * refused value gives CLAB_EINVAL with its message (clab_sim_create reads again for the rest). */
int clab_penalty_def_read(clab_options *opt, clab_penalty_def *d, clab_error *err);

/* d's options as they can be given back, then the force laws in words (output metadata) */
void clab_penalty_def_meta(const clab_penalty_def *d, clab_options *m);

/* one key = value line of metadata, printf style */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void clab_penalty_put(clab_options *m, const char *key, const char *fmt, ...);

/* every option, its unit and default (clab_backend_type.options_help) */
extern const char clab_penalty_options_help[];

#endif
