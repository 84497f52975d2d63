/* test_dvi_plain.c: the DVI backend's plain path (fast=off: plain_products.c, plain_solvers.c)
 * against its fast path (fast=on, the default: fast_ccp.c, fast_*.c). Each scene is stepped
 * twice from the same state with each solver, tol 0 and a fixed number of iterations (so both
 * runs do the same iterations whatever their residuals), and the bodies' states (r, e, rdot,
 * wbar) compared:
 *
 *   - the same bits where the two paths do the same operations in the same order: every
 *     solver on rigid scenes whose contacts are not all spheres' (the fast products then read
 *     the 128-byte items, as the plain ones do, one contact at a time or two in lanes with the
 *     same operations, and fewer than 512 contacts make one chunk, so the chunked sums are the
 *     sequential ones), except APGD; and Gauss-Seidel everywhere (it reads the items);
 *   - to a tolerance where the fast path reorders: the contacts of spheres read from their
 *     compact records (other roundings, 2e-16 relative per product), APGD's backtracking test
 *     summed over the bodies instead of the unknowns, and with compliance (the regularized
 *     rows) the term C gamma added after p. These differences are rounding, so after STEPS
 *     steps of ITER iterations the states agree to TOL_STATE of their scale (measured 5e-17;
 *     test_apgd_reference.c finds 1e-14-level differences after 100 APGD iterations).
 *
 * Scenes: a box resting on a plane (4 corner contacts), a box sliding down an incline, a pile
 * of spheres and boxes (tests/pile.h, settled for 0.4 s), a bowling ball sliding on a plane
 * (one sphere contact), a settled pile of spheres only, the bowling ball with the
 * Lacoursiere-Servin regularization (stiffness=, cor=); the box on a plane that slides and
 * turns under it, and both piles with their plane sliding and turning, a sphere driven
 * (spinning and moving) and two bodies loaded (clab_motion.h: a driven body's velocity enters
 * p = D^T v*, its M^-1 is 0). Then friction=exact with fast=off is refused with a message. The test
 * fails when the fast path changes an operation: checked by perturbing fast_jacobi.c's step
 * (omega / lambda_max scaled by 1 + 1e-15), which fails the bit comparisons, and fast_apgd.c's
 * decay of L (0.9 -> 0.9000001), which fails the APGD comparisons by 1e-10 to 1e-6. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clab_motion.h"
#include "clab_sim.h"
#include "contact_scene.h"
#include "pile.h"
#include "tap.h"

#define H 1e-3
#define STEPS 20
#define SETTLE 400 /* steps that settle a pile before the comparison */
#define ITER "8" /* few: the iterates are still far from converged, so a changed step shows */
#define TOL_STATE 1e-13 /* of the state's scale, where the paths round differently (measured: 5e-17) */

static const char *solvers[] = {"jacobi", "gs", "apgd", "bb"};

enum { BOX_PLANE, BOX_INCLINE, MIXED_PILE, BOWLING, SPHERE_PILE, BOWLING_REG, BOX_BELT, MIXED_PILE_DRIVEN,
       SPHERE_PILE_DRIVEN, NSCENES };
static const char *scene_names[] = {"box on a plane", "box on an incline", "pile of spheres and boxes",
                                    "bowling ball sliding", "pile of spheres", "bowling ball, regularized",
                                    "box on a turning belt", "pile of spheres and boxes, driven and loaded",
                                    "pile of spheres, driven and loaded"};

/* drive scene w: its plane (body 0) slides and turns about z, body 5 spins and moves along x
 * (driven), bodies 2 and 7 (when there) carry loads */
static void drive(clab_world *w)
{
    clab_error err;
    clab_motion belt = clab_motion_constant(clab_v3(0.3, 0.1, 0.0), clab_v3(0.0, 0.0, 1.0));
    if (clab_world_set_motion(w, 0, &belt, &err)) tap_diag("%s", err.msg);
    if (w->nbodies > 7) {
        clab_motion spin = clab_motion_constant(clab_v3(0.1, 0.0, 0.0), clab_v3(0.0, 2.0, 0.5));
        if (clab_world_set_motion(w, 5, &spin, &err)) tap_diag("%s", err.msg);
        if (clab_world_set_load(w, 2, clab_v3(1.0, 0.0, -2.0), clab_v3(0.0, 0.01, 0.0), &err) ||
            clab_world_set_load(w, 7, clab_v3(0.0, -1.0, 0.0), clab_v3(0.0, 0.0, 0.0), &err))
            tap_diag("%s", err.msg);
    }
}

static int add_material(clab_world *w, double mu)
{
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "mu%g", mu);
    m.mu = mu;
    return clab_world_add_material(w, &m, NULL);
}

/* the scene's world, the same every call */
static clab_world *scene(int id)
{
    if (id == BOX_BELT || id == MIXED_PILE_DRIVEN || id == SPHERE_PILE_DRIVEN) {
        clab_world *w = scene(id == BOX_BELT ? BOX_PLANE : id == MIXED_PILE_DRIVEN ? MIXED_PILE : SPHERE_PILE);
        drive(w);
        return w;
    }
    if (id == MIXED_PILE || id == SPHERE_PILE) {
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(r, 2031);
        clab_world *w = pile_world(r, 40, id == MIXED_PILE);
        gsl_rng_free(r);
        /* settled: SETTLE steps of the default (fast) path first, the same every call */
        clab_error err;
        clab_sim *s = clab_sim_create(w, "dvi", H, NULL, &err);
        for (int k = 0; s && k < SETTLE; k++)
            if (clab_sim_step(s, &err)) break;
        clab_sim_destroy(s);
        return w;
    }
    clab_world *w = clab_world_create(NULL);
    int m = add_material(w, id == BOX_INCLINE ? 0.2 : 0.3);
    clab_body_def d = clab_default_body_def();
    d.material = m;
    if (id == BOX_PLANE || id == BOX_INCLINE) {
        clab_quat e = id == BOX_INCLINE ? clab_q_axis_angle(clab_v3(0, 1, 0), 0.3) : clab_q_identity();
        add_plane_of(w, e, m);
        d.shape = clab_box(0.2, 0.15, 0.05);
        d.mass = 3.0;
        d.e = clab_q_mul(e, clab_q_axis_angle(clab_v3(1, 1, 0), 0.02));
        d.r = clab_v3_scale(clab_q_rotate(e, clab_v3(0, 0, 1)), 0.0545);
        d.rdot = clab_q_rotate(e, clab_v3(0.3, 0.1, 0.0));
    } else { /* the bowling ball: sliding at 3 m/s without spin */
        add_plane_of(w, clab_q_identity(), m);
        d.shape = clab_sphere(0.108);
        d.mass = 7.0;
        d.r = clab_v3(0, 0, 0.108);
        d.rdot = clab_v3(3.0, 0, 0);
    }
    clab_world_add_body(w, &d, NULL);
    return w;
}

/* step scene id STEPS steps with the solver and fast=on|off; the bodies' states into x (13
 * doubles a body), their count returned (0 on failure) */
static size_t run(int id, const char *solver, const char *fast, double *x, size_t cap)
{
    clab_error err;
    clab_world *w = scene(id);
    clab_options o;
    clab_options_init(&o);
    clab_options_set(&o, "solver", solver, NULL);
    clab_options_set(&o, "tol", "0", NULL);
    clab_options_set(&o, "max_iter", ITER, NULL);
    clab_options_set(&o, "fast", fast, NULL);
    if (id == BOWLING_REG) {
        clab_options_set(&o, "stiffness", "1e7", NULL);
        clab_options_set(&o, "cor", "0.5", NULL);
    }
    clab_sim *s = clab_sim_create(w, "dvi", H, &o, &err);
    clab_options_free(&o);
    size_t n = 0;
    if (!s) {
        tap_diag("%s: %s", scene_names[id], err.msg);
    } else {
        int bad = 0;
        for (int k = 0; k < STEPS && !bad; k++)
            if ((bad = clab_sim_step(s, &err))) tap_diag("%s, %s, fast=%s: %s", scene_names[id], solver, fast, err.msg);
        for (size_t k = 0; !bad && k < w->nbodies && 13 * (k + 1) <= cap; k++, n++) {
            const clab_body *b = &w->bodies[k];
            const double v[13] = {b->r.x,    b->r.y,    b->r.z,    b->e.e0,   b->e.e1,   b->e.e2,  b->e.e3,
                                  b->rdot.x, b->rdot.y, b->rdot.z, b->wbar.x, b->wbar.y, b->wbar.z};
            memcpy(&x[13 * k], v, sizeof v);
        }
    }
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return n;
}

/* does the fast path form the same operations as the plain one for this scene and solver? */
static int same_operations(int id, const char *solver)
{
    if (strcmp(solver, "gs") == 0) return 1;
    if (strcmp(solver, "apgd") == 0) return 0;
    return id == BOX_PLANE || id == BOX_INCLINE || id == MIXED_PILE || id == BOX_BELT || id == MIXED_PILE_DRIVEN;
}

int main(void)
{
    static double a[13 * 64], b[13 * 64];
    for (int id = 0; id < NSCENES; id++)
        for (int j = 0; j < 4; j++) {
            const char *sv = solvers[j];
            size_t na = run(id, sv, "on", a, 13 * 64), nb = run(id, sv, "off", b, 13 * 64);
            double dmax = 0.0, scale = 0.0;
            size_t nbits = 0;
            for (size_t k = 0; k < 13 * na && na == nb; k++) {
                dmax = fmax(dmax, fabs(a[k] - b[k]));
                scale = fmax(scale, fabs(a[k]));
                nbits += memcmp(&a[k], &b[k], sizeof a[k]) != 0;
            }
            const int ok_run = na > 0 && na == nb;
            if (same_operations(id, sv))
                tap_ok(ok_run && nbits == 0, "%s, %s: fast=on and fast=off the same bits after %d steps of %s "
                       "iterations (%zu of %zu numbers differ, max %.3g)", scene_names[id], sv, STEPS, ITER, nbits,
                       13 * na, dmax);
            else
                tap_ok(ok_run && dmax <= TOL_STATE * scale, "%s, %s: fast=on and fast=off agree to %.0e of the "
                       "state's scale %.3g after %d steps (max difference %.3g; %zu of %zu numbers differ)",
                       scene_names[id], sv, TOL_STATE, scale, STEPS, dmax, nbits, 13 * na);
        }
    /* friction=exact runs on the fast path only */
    clab_error err;
    clab_world *w = scene(BOWLING);
    clab_options o;
    clab_options_init(&o);
    clab_options_set(&o, "friction", "exact", NULL);
    clab_options_set(&o, "fast", "off", NULL);
    clab_error_clear(&err);
    clab_sim *s = clab_sim_create(w, "dvi", H, &o, &err);
    tap_ok(!s && err.status == CLAB_EINVAL && strstr(err.msg, "fast"), "friction=exact with fast=off refused: %s",
           err.msg);
    clab_sim_destroy(s);
    clab_options_free(&o);
    clab_world_destroy(w);
    return tap_done();
}
