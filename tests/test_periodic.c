/* test_periodic.c: periodic boundaries (clab_world_set_periodic, the minimum image in the
 * narrow phase, periodic images in the broad phase, wrapping in clab_sim_step, scene files).
 *
 * Checks and their references:
 *  - two bodies touching across the boundary give the record of the same two bodies touching
 *    in the middle of the box, moved by whole periods (n, u, w, Phi, sa, sb, P - r_a to 1e-12:
 *    only the rounding of the shifted coordinates differs);
 *  - a sphere crossing the upper boundary is wrapped: r_x = unwrapped - L (1e-12 m);
 *  - a penalty run in a box periodic on all axes with no gravity conserves the total momentum
 *    (forces come in equal and opposite pairs: drift below 1e-12 of sum m |v|);
 *  - on random periodic scenes the grid pairs are exactly the brute-force pairs of
 *    clab_broadphase_test (minimum image), and clab_collide returns exactly the records of the
 *    all-pairs narrow phase (bit for bit);
 *  - refusals: a plane normal to a periodic axis, a body wider than half the period, bad
 *    intervals in the API and in scene files (file:line);
 *  - the checkpoint fingerprint changes with the periodic settings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "clab_checkpoint.h"
#include "clab_collide.h"
#include "clab_scene.h"
#include "clab_sim.h"
#include "tap.h"
#include "add_body.h"


static double vdiff(clab_vec3 a, clab_vec3 b) { return clab_v3_norm(clab_v3_sub(a, b)); }

/* the worst difference between two records, for the fields that must agree */
static double record_diff(const clab_contacts *A, const clab_contacts *B, size_t k, const clab_body *ba,
                          const clab_body *bb)
{
    const clab_contact *a = &A->c[k], *b = &B->c[k];
    clab_vec3 saa, sba, sab, sbb; /* the levers of a's record, of b's */
    clab_contact_levers(a, A->lv, ba, &saa, &sba);
    clab_contact_levers(b, B->lv, bb, &sab, &sbb);
    double d = fabs(a->phi - b->phi);
    d = fmax(d, vdiff(a->n, b->n));
    clab_vec3 ua, wa, ub, wb; /* the frames the backends build from n */
    clab_contact_frame(a, &ua, &wa);
    clab_contact_frame(b, &ub, &wb);
    d = fmax(d, vdiff(ua, ub));
    d = fmax(d, vdiff(wa, wb));
    d = fmax(d, vdiff(saa, sab));
    d = fmax(d, vdiff(sba, sbb));
    /* P (clab_contact_point) near body a in both worlds: the same offset from a's center */
    d = fmax(d, vdiff(clab_v3_sub(clab_contact_point(A, k, ba), ba[a->a].r),
                      clab_v3_sub(clab_contact_point(B, k, bb), bb[b->a].r)));
    if (a->a != b->a || a->b != b->b || a->key != b->key) d = INFINITY;
    return d;
}

/* one pair touching across the boundary (periodic world) against in the middle (plain world) */
static void across_boundary(const char *what, clab_shape sa, clab_shape sb, clab_vec3 ra, clab_vec3 rb,
                            clab_vec3 shift_b, clab_quat ea, clab_quat eb)
{
    clab_error err;
    clab_world *wp = clab_world_create(NULL), *wm = clab_world_create(NULL);
    for (int k = 0; k < 3; k++) clab_world_set_periodic(wp, k, -0.5, 0.5, &err);
    /* middle: a at ra, b at rb (both near the origin); periodic: b moved by whole periods */
    add(wm, sa, ra, ea, 0);
    add(wm, sb, rb, eb, 0);
    add(wp, sa, ra, ea, 0);
    add(wp, sb, clab_v3_add(rb, shift_b), eb, 0);
    clab_collider *cd = clab_collider_create();
    clab_contacts cm, cp;
    clab_contacts_init(&cm);
    clab_contacts_init(&cp);
    int rc = clab_collide(cd, wm, 0.0, &cm, &err) | clab_collide(cd, wp, 0.0, &cp, &err);
    double worst = 0.0;
    int same = rc == CLAB_OK && cm.n == cp.n && cm.n > 0;
    for (size_t k = 0; same && k < cm.n; k++)
        worst = fmax(worst, record_diff(&cm, &cp, k, wm->bodies, wp->bodies));
    tap_ok(same && worst < 1e-12, "%s: %zu contact(s) across the boundary = in the middle (worst difference %.2g)",
           what, cp.n, worst);
    clab_contacts_free(&cm);
    clab_contacts_free(&cp);
    clab_collider_destroy(cd);
    clab_world_destroy(wm);
    clab_world_destroy(wp);
}

static clab_quat random_quat(gsl_rng *r)
{
    return clab_q_normalize(clab_q(gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1),
                                   gsl_ran_gaussian(r, 1)));
}

/* n spheres and boxes in the periodic box [0, L)^2 x [0, L] (x, y periodic; z periodic too when
 * zper), sizes in [smax/4, smax], many of them straddling the faces, edges and corners; a floor plane z = 0 when !zper */
static clab_world *random_scene(unsigned long seed, int n, double L, double smax, int zper)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    clab_world *w = clab_world_create(NULL);
    clab_error err;
    for (int k = 0; k < (zper ? 3 : 2); k++) clab_world_set_periodic(w, k, 0.0, L, &err);
    for (int k = 0; k < n; k++) {
        double s = smax * (0.25 + 0.75 * gsl_rng_uniform(r));
        clab_vec3 pos = clab_v3(L * gsl_rng_uniform(r), L * gsl_rng_uniform(r), L * gsl_rng_uniform(r));
        /* a third of the bodies pushed within s of a face (some beyond it: unwrapped input) */
        if (k % 3 == 0) pos.x = (gsl_rng_uniform(r) < 0.5 ? 0.0 : L) + s * (2.0 * gsl_rng_uniform(r) - 1.0);
        if (k % 6 == 0) pos.y = (gsl_rng_uniform(r) < 0.5 ? 0.0 : L) + s * (2.0 * gsl_rng_uniform(r) - 1.0);
        if (k % 12 == 0 && zper) pos.z = L + s * (2.0 * gsl_rng_uniform(r) - 1.0);
        clab_shape sh = gsl_rng_uniform(r) < 0.5 ? clab_sphere(s)
                                                 : clab_box(s, s * (0.3 + gsl_rng_uniform(r)), s * (0.3 + gsl_rng_uniform(r)));
        add(w, sh, pos, random_quat(r), gsl_rng_uniform(r) < 0.1);
    }
    if (!zper) add(w, clab_plane(), clab_v3(0.3, 0.2, 0.05), clab_q_identity(), 1);
    gsl_rng_free(r);
    return w;
}

/* record k of A and of B the same bytes, with the same stored levers (or none in both) */
static int same_contact(const clab_contacts *A, const clab_contacts *B, size_t k)
{
    const clab_contact *a = &A->c[k], *b = &B->c[k];
    const clab_lever *la = clab_contacts_lever_of(A, k), *lb = clab_contacts_lever_of(B, k);
    return a->a == b->a && a->b == b->b && memcmp(&a->n, &b->n, sizeof a->n) == 0 &&
           memcmp(&a->phi, &b->phi, sizeof a->phi) == 0 && a->key == b->key &&
           (la && lb ? memcmp(la, lb, sizeof *la) == 0 : !la && !lb);
}

static void check_random(unsigned long seed, int n, double L, double smax, int zper, double env)
{
    char what[96];
    snprintf(what, sizeof what, "random scene %lu (%d bodies, %s periodic, envelope %g)", seed, n,
             zper ? "x, y, z" : "x, y", env);
    clab_world *w = random_scene(seed, n, L, smax, zper);
    clab_collider *cd = clab_collider_create();
    clab_error err;
    const clab_pair *pairs;
    size_t np;
    int rc = clab_broadphase(cd, w, env, &pairs, &np, &err);
    tap_ok(rc == CLAB_OK, "%s: broad phase runs (%s)", what, rc ? err.msg : "ok");
    if (rc) goto done;
    /* brute force over every pair with the minimum-image predicate */
    size_t nb = 0, across = 0;
    long first_bad = -1;
    for (int i = 0; i < n + !zper; i++)
        for (int j = i + 1; j < n + !zper; j++) {
            if (!clab_broadphase_test(w, i, j, env)) continue;
            if (first_bad < 0 && (nb >= np || pairs[nb].i != i || pairs[nb].j != j)) first_bad = (long)nb;
            nb++;
            clab_vec3 d = clab_v3_sub(w->bodies[j].r, w->bodies[i].r);
            clab_vec3 dm = clab_world_min_image(&w->periodic, d);
            across += dm.x != d.x || dm.y != d.y || dm.z != d.z;
        }
    tap_ok(nb == np && first_bad < 0 && across > 10,
           "%s: grid pairs = brute-force minimum-image pairs (%zu vs %zu, %zu through a boundary, first difference "
           "%ld)",
           what, np, nb, across, first_bad);
    clab_contacts got, want;
    clab_contacts_init(&got);
    clab_contacts_init(&want);
    rc = clab_collide(cd, w, env, &got, &err);
    for (int i = 0; i < n + !zper && !rc; i++)
        for (int j = i + 1; j < n + !zper; j++)
            if (!(w->bodies[i].fixed && w->bodies[j].fixed)) rc |= clab_collide_pair(w, i, j, env, &want);
    int same = rc == CLAB_OK && got.n == want.n;
    for (size_t k = 0; same && k < got.n; k++) same &= same_contact(&got, &want, k);
    tap_ok(same && got.n > 0, "%s: clab_collide = all-pairs narrow phase, record for record (%zu vs %zu)", what,
           got.n, want.n);
    clab_contacts_free(&got);
    clab_contacts_free(&want);
done:
    clab_collider_destroy(cd);
    clab_world_destroy(w);
}

static clab_vec3 momentum(const clab_world *w, double *scale)
{
    clab_vec3 P = clab_v3(0, 0, 0);
    *scale = 0.0;
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        P = clab_v3_madd(P, b->m, b->rdot);
        *scale += b->m * clab_v3_norm(b->rdot);
    }
    return P;
}

int main(void)
{
    clab_error err;
    const clab_quat I = clab_q_identity();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 5);

    /* 1. contacts across faces, an edge and a corner of the box [-0.5, 0.5)^3 */
    across_boundary("spheres across x", clab_sphere(0.03), clab_sphere(0.03), clab_v3(0.48, 0.1, 0.0),
                    clab_v3(0.53, 0.1, 0.005), clab_v3(-1.0, 0.0, 0.0), I, I);
    across_boundary("spheres across x (b below a)", clab_sphere(0.03), clab_sphere(0.04), clab_v3(-0.49, 0.0, 0.0),
                    clab_v3(-0.55, 0.01, 0.0), clab_v3(1.0, 0.0, 0.0), I, I);
    across_boundary("sphere-box across the x-y edge", clab_sphere(0.05), clab_box(0.04, 0.03, 0.02),
                    clab_v3(0.47, 0.47, 0.0), clab_v3(0.53, 0.52, 0.01), clab_v3(-1.0, -1.0, 0.0), random_quat(r),
                    random_quat(r));
    across_boundary("boxes across the corner", clab_box(0.04, 0.03, 0.05), clab_box(0.04, 0.05, 0.03),
                    clab_v3(0.46, 0.47, 0.45), clab_v3(0.50, 0.51, 0.49), clab_v3(-1.0, -1.0, -1.0), random_quat(r),
                    random_quat(r));

    /* 2. wrapping: a sphere moving at 1 m/s in +x from 0.4995, h = 1e-3, no gravity */
    {
        clab_world_def wd = clab_default_world_def();
        wd.gravity = clab_v3(0, 0, 0);
        clab_world *w = clab_world_create(&wd);
        clab_world_set_periodic(w, 0, -0.5, 0.5, &err);
        int i = add(w, clab_sphere(0.05), clab_v3(0.4995, 0.2, 0.3), I, 0);
        w->bodies[i].rdot = clab_v3(1.0, 0.0, 0.0);
        clab_sim *s = clab_sim_create(w, "penalty", 1e-3, NULL, &err);
        int rc = s ? clab_sim_step(s, &err) : 1;
        /* x = 0.4995 + 1e-3 = 0.5005 -> 0.5005 - 1 = -0.4995; y, z untouched (not periodic) */
        tap_ok(rc == CLAB_OK && fabs(w->bodies[i].r.x - (-0.4995)) < 1e-12 && w->bodies[i].r.y == 0.2 &&
                   w->bodies[i].r.z == 0.3,
               "a sphere crossing x = 0.5 is wrapped to x = %.15g (expected -0.4995 to 1e-12 m)", w->bodies[i].r.x);
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }

    /* 3. momentum: 300 spheres in a box periodic on every axis, no gravity, Hertz */
    {
        clab_world_def wd = clab_default_world_def();
        wd.gravity = clab_v3(0, 0, 0);
        clab_world *w = clab_world_create(&wd);
        for (int k = 0; k < 3; k++) clab_world_set_periodic(w, k, 0.0, 0.5, &err);
        for (int k = 0; k < 300; k++) {
            clab_body_def d = clab_default_body_def();
            d.shape = clab_sphere(0.02 + 0.01 * gsl_rng_uniform(r));
            d.r = clab_v3(0.5 * gsl_rng_uniform(r), 0.5 * gsl_rng_uniform(r), 0.5 * gsl_rng_uniform(r));
            d.rdot = clab_v3(gsl_ran_gaussian(r, 1.0), gsl_ran_gaussian(r, 1.0), gsl_ran_gaussian(r, 1.0));
            d.omega = clab_v3(gsl_ran_gaussian(r, 5.0), gsl_ran_gaussian(r, 5.0), gsl_ran_gaussian(r, 5.0));
            if (clab_world_add_body(w, &d, &err) < 0) return 99;
        }
        clab_options o;
        clab_options_init(&o);
        clab_options_set(&o, "kn", "1e6", NULL);
        clab_sim *s = clab_sim_create(w, "penalty", 2e-5, &o, &err);
        double scale0;
        clab_vec3 P0 = momentum(w, &scale0);
        int rc = s ? CLAB_OK : 1;
        size_t across = 0, contacts = 0;
        for (int step = 0; step < 2000 && !rc; step++) {
            rc = clab_sim_step(s, &err);
            for (size_t k = 0; k < s->contacts.n; k++) {
                const clab_contact *c = &s->contacts.c[k];
                clab_vec3 d = clab_v3_sub(w->bodies[c->b].r, w->bodies[c->a].r);
                across += clab_v3_norm(d) > 0.25;
            }
            contacts += s->contacts.n;
        }
        double scale;
        clab_vec3 P = momentum(w, &scale);
        tap_ok(rc == CLAB_OK && across > 0 && vdiff(P, P0) < 1e-12 * scale0,
               "periodic penalty run, 2000 steps: |P - P0| = %.3g kg m/s (tolerance 1e-12 x %.4g), %zu of %zu "
               "contacts through a boundary",
               vdiff(P, P0), scale0, across, contacts);
        int inside = 1;
        for (size_t i = 0; i < w->nbodies; i++)
            for (int k = 0; k < 3; k++) {
                double x = clab_v3_get(w->bodies[i].r, k);
                inside &= x >= 0.0 && x < 0.5;
            }
        tap_ok(inside, "every center stays in [0, 0.5)^3 after the run");
        clab_sim_destroy(s);
        clab_options_free(&o);
        clab_world_destroy(w);
    }

    /* 4. grid against brute force, with images across faces, edges and corners */
    check_random(11, 1500, 1.0, 0.08, 0, 0.0);
    check_random(12, 1500, 0.7, 0.08, 1, 0.01);
    check_random(13, 400, 0.4, 0.05, 1, 0.0);

    /* 5. refusals */
    {
        clab_world *w = clab_world_create(NULL);
        tap_ok(clab_world_set_periodic(w, 0, 1.0, 1.0, &err) == CLAB_EINVAL && strstr(err.msg, "lo < hi"),
               "set_periodic refuses lo = hi: %s", err.msg);
        tap_ok(clab_world_set_periodic(w, 3, 0.0, 1.0, &err) == CLAB_EINVAL, "set_periodic refuses axis 3: %s",
               err.msg);
        tap_ok(clab_world_set_periodic(w, 1, 0.0, INFINITY, &err) == CLAB_EINVAL, "set_periodic refuses hi = inf");
        clab_world_set_periodic(w, 0, 0.0, 1.0, &err);
        add(w, clab_sphere(0.1), clab_v3(0.5, 0, 0.5), I, 0);
        int wall = add(w, clab_plane(), clab_v3(0, 0, 0), clab_q_axis_angle(clab_v3(0, 1, 0), M_PI / 2), 1);
        clab_contacts c;
        clab_contacts_init(&c);
        clab_collider *cd = clab_collider_create();
        int rc = clab_collide(cd, w, 0.0, &c, &err);
        tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "periodic axis x") && strstr(err.msg, "half-space"),
               "a plane normal to the periodic axis is refused: %s", err.msg);
        w->bodies[wall].e = clab_q_identity(); /* the floor: normal z, contains x */
        add(w, clab_box(0.3, 0.1, 0.1), clab_v3(0.2, 0, 0.5), I, 0);
        clab_world_body_name(w, 2);
        rc = clab_collide(cd, w, 0.0, &c, &err);
        tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "body 2") && strstr(err.msg, "half the period"),
               "a box 0.6 m wide in a 1 m period is refused, naming it: %s", err.msg);
        clab_collider_destroy(cd);
        clab_contacts_free(&c);
        clab_world_destroy(w);
    }

    /* 6. scene files */
    {
        clab_scene sc;
        const char *good = "periodic = { x = [0.0, 2.0]; y = [-1.0, 1.0]; };\n"
                           "bodies = ( { name = \"s\"; shape = \"sphere\"; radius = 0.1; mass = 1.0; position = [0.5, 0.0, 0.2]; } );\n"
                           "simulation = { backend = \"dvi\"; h = 1e-3; t_end = 1.0; };\n";
        int rc = clab_scene_load_string(good, "good.cfg", &sc, &err);
        tap_ok(rc == CLAB_OK && sc.world->periodic.on[0] && sc.world->periodic.on[1] && !sc.world->periodic.on[2] &&
                   sc.world->periodic.hi[0] == 2.0 && sc.world->periodic.lo[1] == -1.0,
               "scene: periodic = { x = [0, 2]; y = [-1, 1]; } read (%s)", rc ? err.msg : "ok");
        uint32_t f1 = rc ? 0 : clab_checkpoint_scene_fingerprint(sc.world);
        if (!rc) sc.world->periodic.hi[0] = 2.5;
        uint32_t f2 = rc ? 0 : clab_checkpoint_scene_fingerprint(sc.world);
        tap_ok(f1 != f2, "checkpoint scene fingerprint covers the period (%08x vs %08x)", f1, f2);
        clab_scene_free(&sc);
        const char *bad = "bodies = ( { shape = \"sphere\"; radius = 0.1; mass = 1.0; } );\n"
                          "periodic = {\n  x = [2.0, 1.0];\n  q = [0.0, 1.0];\n  z = [0.0];\n};\n"
                          "simulation = { backend = \"dvi\"; h = 1e-3; t_end = 1.0; };\n";
        rc = clab_scene_load_string(bad, "bad.cfg", &sc, &err);
        tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "bad.cfg:3: periodic.x") && strstr(err.msg, "bad.cfg:4") &&
                   strstr(err.msg, "q") && strstr(err.msg, "bad.cfg:5: periodic.z"),
               "scene: bad periodic intervals and keys reported with file:line");
        tap_diag("%s", err.msg);
        clab_scene_free(&sc);
    }
    gsl_rng_free(r);
    return tap_done();
}
