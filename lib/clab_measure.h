/* clab_measure.h: what a granular sample's state measures from its contacts (doc/measure.md):
 * the average stress tensor (Love-Weber), the solid fraction and void ratio, the coordination
 * number with and without rattlers.
 *
 *     clab_measure_box box;
 *     clab_measure_box_from_walls(world, &box, &err);    // or set box.lo, box.hi by hand
 *     clab_measure_opts o = clab_measure_default_opts();
 *     o.box = &box;
 *     clab_measure m;
 *     clab_measure_sim(sim, &o, &m, &err);                // the last step's contacts and forces
 *     printf("p = %g Pa, q = %g Pa, phi = %g, Z = %g\n", m.p, m.q, m.solid_fraction, m.Z);
 *
 * The sample: its particles are the moving spheres (not fixed) whose centers lie in the box
 * (every moving sphere without a box), or the bodies a caller marks (opts.sample). Every other
 * body (walls, a loading plate, a driven box) is a boundary. Along a periodic axis whose
 * period the box spans, every center is inside and no sphere is cut (the part beyond one end
 * is its image's part coming in at the other).
 *
 * Stress, compression positive (the sign of soil mechanics), the Love-Weber average over the
 * particles p of the sample and their contacts c:
 *     sigma_ij = (1/V) sum_p sum_c f_i^(c->p) (x_p - x^c)_j
 * f^(c->p) the force contact c puts on p, x_p its center, x^c the contact point. For a contact
 * between two particles the two terms add to f_i l_j, f the force on body b, l = x_b - x_a the
 * branch vector from a's center to b's (minimum image under periodic axes): computed so, the
 * contact point drops out. A contact between a particle and a boundary body gives the particle's
 * term alone, f on the particle and l from the contact point to its center: the boundary body
 * is not part of the volume V, so only the particle's share of the pair is (its center would
 * be the wrong end: a plane's origin is anywhere on it). With every particle in equilibrium
 * (sum_c f^(c->p) = 0 and no torque) sigma is symmetric and does not depend on where the
 * contact points are; under gravity sigma_zz is the height average of the weight above, the
 * hydrostatic value (doc/measure.md). The contacts and forces are the last step's: the contact
 * list of the configuration at the step's start, the centers of the world now (one step later;
 * a quasi-static sample moves a few nanometres in it). */
#ifndef CLAB_MEASURE_H
#define CLAB_MEASURE_H

#include <stddef.h>

#include "clab_contact.h"
#include "clab_error.h"
#include "clab_world.h"

struct clab_sim;

/* an axis-aligned box [lo, hi] [m] */
typedef struct clab_measure_box {
    double lo[3], hi[3];
} clab_measure_box;

typedef struct clab_measure_opts {
    const clab_measure_box *box; /* the region V: its volume and which particles are in it;
                                  * NULL: every moving sphere, V = volume (which must be > 0) */
    double volume;               /* V [m^3]; 0: the box's volume */
    const unsigned char *sample; /* [nbodies] 1 marks a particle of the sample (world index);
                                  * NULL: the moving spheres with their center in the box */
    double f_min;                /* a contact counts for Z when F_n > f_min [N] (default 0: any
                                  * pushing force; a DVI contact inside the envelope with gamma = 0
                                  * does not) */
    int rattler_min;             /* a particle with fewer force-carrying contacts is a rattler,
                                  * removed iteratively (default 2: Thornton's mechanical
                                  * coordination number; d + 1 = 4 for frictionless spheres) */
} clab_measure_opts;

/* defaults: no box, V = 0, sample NULL, f_min 0, rattler_min 2 */
clab_measure_opts clab_measure_default_opts(void);

typedef struct clab_measure {
    double sigma[3][3];     /* sigma[i][j] [Pa], compression positive */
    double p;               /* pressure tr(sigma)/3 [Pa] */
    double q;               /* deviatoric stress sqrt(3/2 s:s), s = sym(sigma) - p I [Pa]
                             * (sigma_1 - sigma_3 in an axisymmetric triaxial state) */
    double volume;          /* V [m^3] */
    double solid_volume;    /* volume of the spheres inside the box [m^3] (all of each sample
                             * sphere without a box) */
    double solid_fraction;  /* solid_volume / V */
    double void_ratio;      /* (V - solid_volume) / solid_volume */
    size_t particles;       /* N_p, particles of the sample */
    size_t contacts_pp;     /* force-carrying contacts between two particles */
    size_t contacts_pb;     /* force-carrying contacts between a particle and a boundary body */
    double Z;               /* (2 contacts_pp + contacts_pb) / N_p: force-carrying contacts per
                             * particle (2 N_c / N_p when there are no walls) */
    size_t rattlers;        /* particles removed by the iterative rule (rattler_min) */
    double Z_m;             /* the same over the particles left, counting only contacts
                             * between them and with boundaries (0 when none is left) */
} clab_measure;

/* The measures of world w from contacts c and their forces f_nuw (one (F_n, F_u, F_w) [N] per
 * record, frame n u w, force on body b: clab_backend's forces). CLAB_EINVAL when there is no
 * volume (no box and volume <= 0, an empty box), CLAB_ENOMEM; m untouched then. */
int clab_measure_contacts(const clab_world *w, const clab_contacts *c, const clab_vec3 *f_nuw,
                          const clab_measure_opts *o, clab_measure *m, clab_error *err);

/* The same for the last step of s (s->contacts and clab_sim_forces). */
int clab_measure_sim(const struct clab_sim *s, const clab_measure_opts *o, clab_measure *m, clab_error *err);

/* The box the walls of w enclose: along a periodic axis its period; along another, lo the
 * largest offset of the planes facing +axis (outward normal +e_k: the floor below the
 * sample), hi the smallest of those facing -axis. Planes tilted from every axis are ignored.
 * CLAB_EINVAL naming the axis that lacks a wall (or whose walls cross, lo >= hi). */
int clab_measure_box_from_walls(const clab_world *w, clab_measure_box *box, clab_error *err);

/* The volume of the sphere (center c, radius R) inside the box [m^3]: 0 outside, 4/3 pi R^3
 * inside, the cap formula pi h^2 (3R - h)/3 where one face cuts it, and where edges or corners
 * do, the integral over z of the disc-rectangle area (closed form in x, y) by GSL's adaptive
 * Gauss-Kronrod quadrature to a relative 1e-10. An axis of infinite extent (lo -INFINITY, hi
 * INFINITY) cuts nothing. */
double clab_measure_sphere_in_box(clab_vec3 c, double R, const clab_measure_box *box);

#endif
