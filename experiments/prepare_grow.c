/* prepare_grow.c: a packing of N spheres in a cube by radius growth (doc/measure.md, "Sample
 * preparation"), the usual DEM recipe (e.g. Lubachevsky and Stillinger 1990 for the event-driven
 * form; Thornton 2000, Agnolin and Roux 2007 for the frictionless compression of DEM samples):
 *
 * 1. final radii r_i uniform in [rmin, rmax] (GSL's mt19937 with the given seed); the cube's
 *    side L from the target: sum (4/3) pi r_i^3 = phi L^3 (a column of height A L, A the
 *    aspect: sum (4/3) pi r_i^3 = phi A L^3);
 * 2. random sequential placement of the spheres at radii s0 r_i, s0 = (phi0/phi)^(1/3) with
 *    phi0 = min(0.2, phi/2): no two overlap, none crosses a wall;
 * 3. `stages` stages: the radii scaled to s_k r_i, s_k^3 = (phi0 + (phi - phi0) k/stages)/phi
 *    (the solid fraction grows linearly to the target), masses and inertia with them, the
 *    velocities set to zero, then `relax_steps` steps of the penalty backend (Hertz-Mindlin,
 *    E given, nu 0.3, cor 0.3, friction mu: 0 for a dense sample, the loose one's mu otherwise;
 *    no gravity; step 0.5 x the stage's stable step);
 * 4. the final relaxation at the full radii until the RMS speed is below vtol (or final_steps).
 *
 * The solid fraction reached is measured (clab_measure: the walls' box, the spheres the walls
 * cut counted exactly), with the largest overlap, the pressure and Z. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include <gsl/gsl_rng.h>

#include "clab_sim.h"
#include "prepare.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void xp_pack_defaults(xp_pack_params *p)
{
    p->n = 500;
    p->rmin = p->rmax = 0.0025;
    p->phi = 0.62;
    p->mu = 0.0;
    p->density = 2500.0;
    p->E = 1e8;
    p->periodic[0] = p->periodic[1] = p->periodic[2] = 0;
    p->seed = 1;
    p->stages = 40;
    p->relax_steps = 400;
    p->final_steps = 40000;
    p->vtol = 1e-4;
    p->aspect = 1.0;
}

static double pack_wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* a sphere's radius, with its mass and inertia (a solid sphere of the density) */
static void set_radius(clab_body *b, double r, double density)
{
    b->shape.radius = r;
    b->m = density * 4.0 / 3.0 * M_PI * r * r * r;
    double J = 0.4 * b->m * r * r;
    b->J = clab_v3(J, J, J);
}

/* the walls: two planes across each axis that is not periodic, normals into the box, whose
 * sides are L[0], L[1], L[2] */
static int add_walls(clab_world *w, const xp_pack_params *p, const double *L, clab_error *err)
{
    static const clab_vec3 axis_of[3][2] = {{{0, 1, 0}, {0, 1, 0}}, {{1, 0, 0}, {1, 0, 0}}, {{1, 0, 0}, {1, 0, 0}}};
    /* rotations taking the body z axis to +e_k (lo wall) and -e_k (hi wall) */
    static const double angle_of[3][2] = {{90.0, -90.0}, {-90.0, 90.0}, {0.0, 180.0}};
    static const char *const names[3][2] = {{"wall_x_lo", "wall_x_hi"}, {"wall_y_lo", "wall_y_hi"},
                                            {"wall_z_lo", "wall_z_hi"}};
    for (int k = 0; k < 3; k++) {
        if (p->periodic[k]) {
            if (clab_world_set_periodic(w, k, 0.0, L[k], err)) return -1;
            continue;
        }
        for (int side = 0; side < 2; side++) {
            clab_body_def d = clab_default_body_def();
            d.shape = clab_plane();
            d.fixed = 1;
            snprintf(d.name, sizeof d.name, "%s", names[k][side]);
            double pos[3] = {0.5 * L[0], 0.5 * L[1], 0.5 * L[2]};
            pos[k] = side ? L[k] : 0.0;
            d.r = clab_v3(pos[0], pos[1], pos[2]);
            d.e = angle_of[k][side] == 0.0 ? clab_q_identity()
                                           : clab_q_axis_angle(axis_of[k][side], angle_of[k][side] * M_PI / 180.0);
            if (clab_world_add_body(w, &d, err) < 0) return -1;
        }
    }
    return 0;
}

/* random sequential placement at radii s0 r_i: no overlap, inside the walls */
static int place(clab_world *w, const xp_pack_params *p, const double *r, double s0, const double *L, gsl_rng *rng,
                 size_t first)
{
    clab_error err;
    for (long i = 0; i < p->n; i++) {
        const double ri = s0 * r[i];
        long tries = 0;
        clab_vec3 x;
        for (;; tries++) {
            if (tries > 100000) {
                fprintf(stderr, "contactlab prepare: cannot place sphere %ld of %ld without overlap at the start "
                                "(solid fraction %.3g): lower --phi or raise --n\n", i + 1, p->n, p->phi);
                return -1;
            }
            double c[3];
            for (int k = 0; k < 3; k++)
                c[k] = p->periodic[k] ? L[k] * gsl_rng_uniform(rng) : ri + (L[k] - 2.0 * ri) * gsl_rng_uniform(rng);
            x = clab_v3(c[0], c[1], c[2]);
            int free_spot = 1;
            for (size_t j = first; j < w->nbodies && free_spot; j++) {
                clab_vec3 d = clab_world_min_image(&w->periodic, clab_v3_sub(w->bodies[j].r, x));
                double s = w->bodies[j].shape.radius + ri;
                free_spot = clab_v3_norm2(d) >= s * s;
            }
            if (free_spot) break;
        }
        clab_body_def d = clab_default_body_def();
        d.shape = clab_sphere(ri);
        d.density = p->density;
        d.r = x;
        snprintf(d.name, sizeof d.name, "grain%ld", i);
        if (clab_world_add_body(w, &d, &err) < 0) {
            fprintf(stderr, "contactlab prepare: %s\n", err.msg);
            return -1;
        }
    }
    return 0;
}

static double rms_speed(const clab_world *w, size_t first)
{
    double s = 0.0;
    for (size_t i = first; i < w->nbodies; i++) s += clab_v3_norm2(w->bodies[i].rdot);
    return w->nbodies > first ? sqrt(s / (double)(w->nbodies - first)) : 0.0;
}

static clab_sim *stage_sim(clab_world *w, double *h)
{
    clab_error err;
    clab_options o;
    clab_options_init(&o);
    /* growth makes overlaps and elastic energy on purpose: the guard's overlap and energy
     * checks off, the non-finite and speed checks kept */
    clab_options_set(&o, "allow_overlap", "1", NULL);
    clab_options_set(&o, "guard_energy", "0", NULL);
    clab_options_set(&o, "guard_penetration", "0", NULL);
    clab_sim *s = clab_sim_create(w, "penalty", 1e-6, &o, &err);
    if (s) {
        double hs = s->type->stable_step(s->self, w);
        clab_sim_destroy(s);
        *h = 0.5 * hs;
        s = clab_sim_create(w, "penalty", *h, &o, &err);
    }
    clab_options_free(&o);
    if (!s) fprintf(stderr, "contactlab prepare: %s\n", err.msg);
    return s;
}

clab_world *xp_pack_grow(const xp_common *c, const xp_pack_params *p, xp_pack_result *res)
{
    const double t0 = pack_wall_now();
    clab_error err;
    double *r = malloc((size_t)p->n * sizeof *r);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0.0, 0.0, 0.0);
    clab_world *w = clab_world_create(&wd);
    clab_sim *s = NULL;
    if (!r || !rng || !w) {
        fprintf(stderr, "contactlab prepare: out of memory for %ld spheres\n", p->n);
        goto fail;
    }
    gsl_rng_set(rng, p->seed);
    double Vs = 0.0, rsum = 0.0;
    for (long i = 0; i < p->n; i++) {
        r[i] = p->rmin + (p->rmax - p->rmin) * gsl_rng_uniform(rng);
        Vs += 4.0 / 3.0 * M_PI * r[i] * r[i] * r[i];
        rsum += r[i];
    }
    const double L = cbrt(Vs / (p->phi * p->aspect)), phi0 = fmin(0.2, 0.5 * p->phi), s0 = cbrt(phi0 / p->phi);
    const double Lk[3] = {L, L, p->aspect * L};
    res->L = L;
    res->mean_radius = rsum / (double)p->n;
    clab_material *m = &w->materials[0];
    m->mu = p->mu;
    m->E = p->E;
    m->nu = 0.3;
    m->cor = 0.3;
    if (add_walls(w, p, Lk, &err)) {
        fprintf(stderr, "contactlab prepare: %s\n", err.msg);
        goto fail;
    }
    const size_t first = w->nbodies;
    if (place(w, p, r, s0, Lk, rng, first)) goto fail;
    xp_progress pb;
    char label[160];
    snprintf(label, sizeof label, "prepare %ld spheres to phi %.3g (mu %.3g)", p->n, p->phi, p->mu);
    xp_progress_begin(&pb, c, label);
    const double total = (double)(p->stages * p->relax_steps + p->final_steps);
    long steps = 0;
    for (long k = 1; k <= p->stages; k++) {
        const double sk = cbrt((phi0 + (p->phi - phi0) * (double)k / (double)p->stages) / p->phi);
        for (long i = 0; i < p->n; i++) {
            clab_body *b = &w->bodies[first + (size_t)i];
            set_radius(b, sk * r[i], p->density);
            b->rdot = b->wbar = clab_v3(0.0, 0.0, 0.0);
        }
        clab_sim_destroy(s);
        if (!(s = stage_sim(w, &res->h))) goto fail_bar;
        for (long j = 0; j < p->relax_steps; j++, steps++)
            if (clab_sim_step(s, &err)) {
                fprintf(stderr, "\ncontactlab prepare: stage %ld: %s\n", k, err.msg);
                goto fail_bar;
            }
        xp_progress_update(&pb, (double)steps / total);
    }
    for (long j = 0; j < p->final_steps; j++, steps++) {
        if (j % 100 == 0) {
            if (rms_speed(w, first) < p->vtol) break;
            xp_progress_update(&pb, (double)steps / total);
        }
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "\ncontactlab prepare: relaxation: %s\n", err.msg);
            goto fail_bar;
        }
    }
    xp_progress_end(&pb);
    res->steps = steps;
    res->rms_speed = rms_speed(w, first);
    res->max_overlap = 0.0;
    for (size_t i = 0; i < s->contacts.n; i++) res->max_overlap = fmax(res->max_overlap, -s->contacts.c[i].phi);
    clab_measure_box box;
    clab_measure_opts o = clab_measure_default_opts();
    o.box = &box;
    o.rattler_min = p->mu > 0.0 ? 2 : 4;
    clab_measure ms;
    if (clab_measure_box_from_walls(w, &box, &err) || clab_measure_sim(s, &o, &ms, &err)) {
        fprintf(stderr, "contactlab prepare: %s\n", err.msg);
        goto fail;
    }
    res->phi = ms.solid_fraction;
    res->p = ms.p;
    res->Z = ms.Z;
    res->Z_m = ms.Z_m;
    for (size_t i = first; i < w->nbodies; i++) w->bodies[i].rdot = w->bodies[i].wbar = clab_v3(0.0, 0.0, 0.0);
    w->t = 0.0;
    w->step = 0;
    clab_sim_destroy(s);
    gsl_rng_free(rng);
    free(r);
    res->wall = pack_wall_now() - t0;
    return w;
fail_bar:
    xp_progress_end(&pb);
fail:
    clab_sim_destroy(s);
    clab_world_destroy(w);
    gsl_rng_free(rng);
    free(r);
    return NULL;
}
