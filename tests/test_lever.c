/* test_lever.c: the contact levers sbar_A, sbar_B (clab_contact.h): derived for two spheres,
 * stored in the side array of clab_contacts for a contact with any other side.
 *
 * 1. Two spheres: clab_contact_levers (sbar_A = A(e_a)^T (R_a + Phi/2) n, sbar_B =
 *    -A(e_b)^T (R_b + Phi/2) n) against the levers formed as the narrow phase formed them
 *    before (P midway between r_a + R_a n and r_b - R_b n, then A(e)^T (P - r)), on random
 *    turned pairs up to |r| ~ 170 m. The two differ by the rounding of P's coordinates (a few
 *    ulps of |r|; the derived one is good to an ulp or two of R + Phi/2): tolerance
 *    8 eps (|r_a| + |r_b| + R_a + R_b).
 * 2. The assumption the derivation rests on, for every routine that has a sphere side
 *    (sphere-plane, sphere-box outside and inside, both index orders): the stored lever of the
 *    sphere side equals the derived formula, tolerance 8 eps (|r_s| + |r_o| + R + |h|) (r_s,
 *    r_o the centers of the sphere and the other body, h the box's half extents: P is formed
 *    from the coordinates; the rest is exact geometry, see lib/collide_box.c).
 * 3. A mixed world (spheres, every fifth a box, a floor plane; enough candidate pairs, more
 *    than PAR_MIN = 4096, that the narrow phase runs on every thread) collided on 1 and 2
 *    threads: the records and the side array the same bytes, levers stored in both halves of
 *    the record array (so thread 1's buffer held some), and every record's levers equal to the
 *    bit to those of the all-pairs narrow phase (clab_collide_pair) for its key: an index not
 *    offset by the levers ahead of a thread's buffer reads another contact's entry and fails.
 * 4. The readers: a tilted box on a plane behind two touching spheres (a record without
 *    levers first, so a record's index is not its lever's), with the side array permuted
 *    (entries reversed, indices remapped): the penalty step and the DVI rows give the same bits
 *    as with the array as collided; a lever read from another entry than the record's changes
 *    them. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "ccp.h"
#include "clab_collide.h"
#include "clab_sim.h"
#include "tap.h"
#include "add_body.h"


static clab_quat random_q(gsl_rng *r)
{
    return clab_q_normalize(
        clab_q(gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1)));
}

static clab_vec3 random_unit(gsl_rng *r)
{
    return clab_v3_normalize(clab_v3(gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1)));
}

static double vdiff(clab_vec3 a, clab_vec3 b) { return clab_v3_norm(clab_v3_sub(a, b)); }

/* the contacts of the pair (i, j) of w */
static void pair(const clab_world *w, int i, int j, double env, clab_contacts *cs)
{
    clab_contacts_clear(cs);
    if (clab_collide_pair(w, i, j, env, cs)) {
        tap_diag("clab_collide_pair failed");
        exit(99);
    }
}

/* 1. two spheres: derived against formed from P as before */
static void test_two_spheres(gsl_rng *r)
{
    clab_contacts cs;
    clab_contacts_init(&cs);
    double worst = 0.0, worst_eps = 0.0; /* worst |difference| [m], and over eps (|r_a| + |r_b|) */
    int n_ok = 1, none = 1, tested = 0;
    for (int t = 0; t < 2000; t++) {
        clab_world *w = clab_world_create(NULL);
        const double Ra = gsl_ran_flat(r, 0.01, 0.5), Rb = gsl_ran_flat(r, 0.01, 0.5);
        const double scale = t % 4 == 0 ? 1.0 : 100.0; /* near the origin, and far from it */
        clab_vec3 ra = clab_v3(gsl_ran_flat(r, -scale, scale), gsl_ran_flat(r, -scale, scale),
                               gsl_ran_flat(r, -scale, scale));
        const double dist = (Ra + Rb) * gsl_ran_flat(r, 0.9, 1.01);
        clab_vec3 rb = clab_v3_madd(ra, dist, random_unit(r));
        add(w, clab_sphere(Ra), ra, random_q(r), 0);
        add(w, clab_sphere(Rb), rb, random_q(r), 0);
        pair(w, 0, 1, 0.02 * (Ra + Rb), &cs);
        n_ok &= cs.n == 1;
        if (cs.n == 1) {
            const clab_contact *c = &cs.c[0];
            none &= c->lever == CLAB_LEVER_NONE && cs.nlv == 0;
            clab_vec3 sa, sb;
            clab_contact_levers(c, cs.lv, w->bodies, &sa, &sb);
            /* as the narrow phase formed them before: P midway between the two surfaces */
            const clab_body *A = &w->bodies[0], *B = &w->bodies[1];
            clab_vec3 pA = clab_v3_madd(A->r, Ra, c->n), pB = clab_v3_madd(B->r, -Rb, c->n);
            clab_vec3 P = clab_v3_scale(clab_v3_add(pA, pB), 0.5);
            clab_vec3 sa0 = clab_q_rotate_inv(A->e, clab_v3_sub(P, A->r));
            clab_vec3 sb0 = clab_q_rotate_inv(B->e, clab_v3_sub(P, B->r));
            const double d = fmax(vdiff(sa, sa0), vdiff(sb, sb0));
            const double tol = 8.0 * DBL_EPSILON * (clab_v3_norm(A->r) + clab_v3_norm(B->r) + Ra + Rb);
            worst = fmax(worst, d);
            worst_eps = fmax(worst_eps, d / (DBL_EPSILON * (clab_v3_norm(A->r) + clab_v3_norm(B->r))));
            if (d > tol && tested++ < 3) tap_diag("pair %d: levers differ by %.3g m > %.3g", t, d, tol);
        }
        clab_world_destroy(w);
    }
    tap_ok(n_ok && none, "two spheres: one record a pair, no stored levers (CLAB_LEVER_NONE, side array empty)");
    tap_ok(n_ok && tested == 0,
           "two spheres, 2000 random turned pairs up to |r| ~ 170 m: derived sbar_A, sbar_B = A(e)^T (P - r) with P "
           "formed as before, within 8 eps (|r_a| + |r_b| + R_a + R_b) (worst %.3g m, %.2f eps (|r_a| + |r_b|))",
           worst, worst_eps);
    clab_contacts_free(&cs);
}

/* the derived lever of a sphere (radius R, orientation e) as side a (sign +1) or b (-1) */
static clab_vec3 derived(const clab_body *s, const clab_contact *c, double sign)
{
    return clab_q_rotate_inv(s->e, clab_v3_scale(c->n, sign * (s->shape.radius + 0.5 * c->phi)));
}

/* 2. sphere-plane and sphere-box: the stored sphere side on the line of centers */
static void test_sphere_sides(gsl_rng *r)
{
    clab_contacts cs;
    clab_contacts_init(&cs);
    const char *names[] = {"sphere-plane", "sphere-box outside", "sphere-box inside"};
    for (int kind = 0; kind < 3; kind++) {
        double worst = 0.0;
        int records = 0, stored = 1, bad = 0;
        for (int t = 0; t < 400; t++) {
            const int sphere_first = t % 2 == 0; /* the sphere as body a, or as b */
            clab_world *w = clab_world_create(NULL);
            const double R = gsl_ran_flat(r, 0.05, 0.4), scale = t % 4 < 2 ? 1.0 : 50.0;
            clab_vec3 ro = clab_v3(gsl_ran_flat(r, -scale, scale), gsl_ran_flat(r, -scale, scale),
                                   gsl_ran_flat(r, -scale, scale));
            clab_quat eo = random_q(r), es = random_q(r);
            clab_shape other;
            clab_vec3 rs, h = clab_v3(0, 0, 0);
            if (kind == 0) { /* a sphere just touching the plane through ro, normal A(eo) z */
                other = clab_plane();
                clab_vec3 m = clab_q_rotate(eo, clab_v3(0, 0, 1));
                rs = clab_v3_madd(clab_v3_madd(ro, R * gsl_ran_flat(r, 0.9, 1.01), m), gsl_ran_flat(r, -1, 1),
                                  clab_v3_cross(m, random_unit(r)));
            } else {
                h = clab_v3(gsl_ran_flat(r, 0.1, 0.5), gsl_ran_flat(r, 0.1, 0.5), gsl_ran_flat(r, 0.1, 0.5));
                other = clab_box(h.x, h.y, h.z);
                clab_vec3 c; /* the center in the box frame */
                if (kind == 1) { /* outside: near a face, an edge or a corner */
                    c = clab_v3(gsl_ran_flat(r, -1.3, 1.3) * h.x, gsl_ran_flat(r, -1.3, 1.3) * h.y,
                                gsl_ran_flat(r, -1.3, 1.3) * h.z);
                    double q[3] = {fmax(-h.x, fmin(h.x, c.x)), fmax(-h.y, fmin(h.y, c.y)), fmax(-h.z, fmin(h.z, c.z))};
                    clab_vec3 d = clab_v3_sub(c, clab_v3(q[0], q[1], q[2]));
                    double dn = clab_v3_norm(d);
                    if (dn == 0.0) d = clab_v3(1, 0, 0), dn = 1.0, q[0] = h.x;
                    c = clab_v3_madd(clab_v3(q[0], q[1], q[2]), R * gsl_ran_flat(r, 0.9, 1.01) / dn, d);
                } else { /* inside */
                    c = clab_v3(gsl_ran_flat(r, -0.9, 0.9) * h.x, gsl_ran_flat(r, -0.9, 0.9) * h.y,
                                gsl_ran_flat(r, -0.9, 0.9) * h.z);
                }
                rs = clab_v3_add(ro, clab_q_rotate(eo, c));
            }
            int is;
            if (sphere_first) {
                is = add(w, clab_sphere(R), rs, es, 0);
                add(w, other, ro, eo, kind == 0);
            } else {
                add(w, other, ro, eo, kind == 0);
                is = add(w, clab_sphere(R), rs, es, 0);
            }
            pair(w, 0, 1, 0.05 * R, &cs);
            for (size_t k = 0; k < cs.n; k++) {
                const clab_contact *c = &cs.c[k];
                stored &= c->lever != CLAB_LEVER_NONE;
                clab_vec3 sa, sb;
                clab_contact_levers(c, cs.lv, w->bodies, &sa, &sb);
                const clab_body *S = &w->bodies[is];
                clab_vec3 got = is == c->a ? sa : sb, want = derived(S, c, is == c->a ? 1.0 : -1.0);
                double d = vdiff(got, want),
                       tol = 8.0 * DBL_EPSILON * (clab_v3_norm(rs) + clab_v3_norm(ro) + R + clab_v3_norm(h));
                worst = fmax(worst, d);
                if (d > tol && bad++ < 3)
                    tap_diag("%s %d: stored %.3g m from derived (> %.3g)", names[kind], t, d, tol);
                records++;
            }
            clab_world_destroy(w);
        }
        tap_ok(records > 200 && stored && bad == 0,
               "%s (%d records, the sphere as a and as b): the sphere side's stored lever = +-A(e)^T (R + Phi/2) n "
               "within 8 eps (|r_s| + |r_o| + R + |h|) (worst %.3g m)",
               names[kind], records, worst);
    }
    clab_contacts_free(&cs);
}

/* a packing of n bodies on a floor plane (body 0): spheres, every fifth a box, radii about
 * 0.05, on a lattice of spacing 0.095 with random offsets and orientations */
static clab_world *mixed_world(gsl_rng *r, int n)
{
    clab_world *w = clab_world_create(NULL);
    add(w, clab_plane(), clab_v3(0, 0, 0.045), clab_q_identity(), 1);
    const int m = 16;
    const double a = 0.095;
    for (int i = 0; i < n; i++) {
        int x = i % m, y = (i / m) % m, z = i / (m * m);
        double R = 0.05 * (0.9 + 0.2 * gsl_rng_uniform(r));
        clab_shape s = i % 5 == 4 ? clab_box(0.8 * R, 0.7 * R, 0.6 * R) : clab_sphere(R);
        clab_vec3 p = clab_v3((x + 0.1 * gsl_rng_uniform(r)) * a, (y + 0.1 * gsl_rng_uniform(r)) * a,
                              (z + 0.1 * gsl_rng_uniform(r)) * a + 0.05);
        add(w, s, p, random_q(r), 0);
    }
    return w;
}

/* record k's levers in cs equal to the bit to those of ref's record with the same key (both
 * stored or both derived) */
static int same_levers(const clab_world *w, const clab_contacts *cs, size_t k, const clab_contacts *ref)
{
    const clab_contact *c = &cs->c[k];
    for (size_t q = 0; q < ref->n; q++) {
        const clab_contact *d = &ref->c[q];
        if (d->key != c->key) continue;
        clab_vec3 sa, sb, ta, tb;
        clab_contact_levers(c, cs->lv, w->bodies, &sa, &sb);
        clab_contact_levers(d, ref->lv, w->bodies, &ta, &tb);
        return (c->lever == CLAB_LEVER_NONE) == (d->lever == CLAB_LEVER_NONE) && memcmp(&sa, &ta, sizeof sa) == 0 &&
               memcmp(&sb, &tb, sizeof sb) == 0;
    }
    return 0;
}

/* 3. the mixed world through 1 and 2 threads (without OpenMP: 1 thread twice) */
static void test_threads(gsl_rng *r)
{
    clab_world *w = mixed_world(r, 3000);
    clab_error err;
    clab_contacts one, two, ref;
    clab_contacts_init(&one);
    clab_contacts_init(&two);
    clab_contacts_init(&ref);
    const double env = 0.005;
    clab_collider *c1 = clab_collider_create(), *c2 = clab_collider_create();
#ifdef _OPENMP
    const int saved = omp_get_max_threads();
    omp_set_num_threads(1);
#endif
    int rc = clab_collide(c1, w, env, &one, &err);
#ifdef _OPENMP
    omp_set_num_threads(2);
#endif
    rc |= clab_collide(c2, w, env, &two, &err);
#ifdef _OPENMP
    omp_set_num_threads(saved);
#endif
    clab_broadphase_stats st;
    clab_broadphase_stats_get(c2, &st);
    tap_ok(rc == CLAB_OK && st.pairs > 4096 && one.n > 3000,
           "mixed world (3,000 bodies and a plane): %zu candidate pairs (> 4096: the narrow phase on every thread), "
           "%zu contacts, %zu with stored levers",
           st.pairs, one.n, one.nlv);
    size_t first_half = 0, second_half = 0;
    for (size_t k = 0; k < one.n; k++)
        if (one.c[k].lever != CLAB_LEVER_NONE) {
            if (k < one.n / 2) first_half++;
            else second_half++;
        }
    tap_ok(first_half > 50 && second_half > 50,
           "mixed world: stored levers in both halves of the records (%zu, %zu; thread 1 takes about the second)",
           first_half, second_half);
    int same = rc == CLAB_OK && one.n == two.n && one.nlv == two.nlv && one.nlv > 0 &&
               memcmp(one.c, two.c, one.n * sizeof *one.c) == 0 &&
               memcmp(one.lv, two.lv, one.nlv * sizeof *one.lv) == 0;
    tap_ok(same, "mixed world: 1 and 2 threads give the same records and side array (memcmp)");
    /* every record against the all-pairs narrow phase of its pair */
    size_t bad = 0, boxes = 0;
    for (size_t k = 0; k < two.n; k++) {
        const clab_contact *c = &two.c[k];
        if (k == 0 || c->a != two.c[k - 1].a || c->b != two.c[k - 1].b) pair(w, c->a, c->b, env, &ref);
        bad += !same_levers(w, &two, k, &ref);
        boxes += w->bodies[c->a].shape.type == CLAB_SHAPE_BOX || w->bodies[c->b].shape.type == CLAB_SHAPE_BOX;
    }
    tap_ok(bad == 0 && boxes > 100,
           "mixed world, 2 threads: every record's levers (%zu with a box) = the pair's narrow phase alone, to the bit "
           "(%zu differ)",
           boxes, bad);
    clab_collider_destroy(c1);
    clab_collider_destroy(c2);
    clab_contacts_free(&one);
    clab_contacts_free(&two);
    clab_contacts_free(&ref);
    clab_world_destroy(w);
}

/* cs with its side array reversed: entry q moves to nlv - 1 - q, the records follow */
static int reversed_levers(const clab_contacts *cs, clab_contacts *out)
{
    clab_contacts_clear(out);
    if (clab_contacts_reserve(out, cs->n, cs->nlv)) return 1;
    for (size_t k = 0; k < cs->n; k++) {
        out->c[k] = cs->c[k];
        if (cs->c[k].lever != CLAB_LEVER_NONE) out->c[k].lever = (uint32_t)(cs->nlv - 1 - cs->c[k].lever);
    }
    for (size_t q = 0; q < cs->nlv; q++) out->lv[cs->nlv - 1 - q] = cs->lv[q];
    out->n = cs->n;
    out->nlv = cs->nlv;
    out->increasing = cs->increasing; /* the records in the same order */
    return 0;
}

/* two touching spheres (0, 1), a tilted box (2) resting on a plane (3) */
static clab_world *box_scene(void)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0, 0, -9.81);
    clab_world *w = clab_world_create(&wd);
    add(w, clab_sphere(0.1), clab_v3(-1.0, 0, 0.5), clab_q_identity(), 0);
    add(w, clab_sphere(0.1), clab_v3(-0.81, 0, 0.5), clab_q_identity(), 0);
    /* half extents 0.2, 0.1, 0.05, turned a little about x and y: its 4 low corners at
     * different depths */
    clab_quat e = clab_q_mul(clab_q_axis_angle(clab_v3(1, 0, 0), 0.01), clab_q_axis_angle(clab_v3(0, 1, 0), 0.02));
    add(w, clab_box(0.2, 0.1, 0.05), clab_v3(0.5, 0.3, 0.04), e, 0);
    add(w, clab_plane(), clab_v3(0, 0, 0), clab_q_identity(), 1);
    return w;
}

/* 4. the readers take each record's own entry */
static void test_readers(void)
{
    clab_error err;
    clab_world *w1 = box_scene(), *w2 = box_scene();
    clab_contacts cs, rev;
    clab_contacts_init(&cs);
    clab_contacts_init(&rev);
    clab_collider *cd = clab_collider_create();
    int rc = clab_collide(cd, w1, 0.0, &cs, &err);
    rc |= reversed_levers(&cs, &rev);
    size_t order_differs = 0;
    for (size_t k = 0; k < cs.n; k++) order_differs += cs.c[k].lever != CLAB_LEVER_NONE && cs.c[k].lever != k;
    tap_ok(rc == CLAB_OK && cs.n == 5 && cs.c[0].lever == CLAB_LEVER_NONE && cs.nlv == 4 && order_differs == 4,
           "box scene: 5 contacts (the spheres' without levers first, then the box's 4 corners on the plane), levers "
           "at other indices than their records'");

    /* penalty: one step with each array; the box turns (its corners' levers make a torque) */
    clab_options o;
    clab_options_init(&o);
    clab_options_set(&o, "kn", "1e5", NULL);
    clab_options_set(&o, "model", "hooke", NULL);
    clab_sim *s1 = clab_sim_create(w1, "penalty", 1e-4, &o, &err), *s2 = clab_sim_create(w2, "penalty", 1e-4, &o, &err);
    clab_options_free(&o);
    rc = !s1 || !s2;
    if (!rc) rc = s1->type->step(s1->self, w1, &cs, 1e-4, &err) | s2->type->step(s2->self, w2, &rev, 1e-4, &err);
    const clab_body *b1 = &w1->bodies[2];
    int same = rc == CLAB_OK;
    for (size_t i = 0; same && i < w1->nbodies; i++) { /* the state, field by field (a shape has unused bytes) */
        const clab_body *x = &w1->bodies[i], *y = &w2->bodies[i];
        same = memcmp(&x->r, &y->r, sizeof x->r) == 0 && memcmp(&x->e, &y->e, sizeof x->e) == 0 &&
               memcmp(&x->rdot, &y->rdot, sizeof x->rdot) == 0 && memcmp(&x->wbar, &y->wbar, sizeof x->wbar) == 0;
    }
    tap_ok(same && clab_v3_norm(b1->wbar) > 1e-3,
           "penalty step: the side array reversed gives the same bodies to the bit (the box spins at %.3g rad/s)",
           clab_v3_norm(b1->wbar));

    /* DVI: the contact rows */
    clab_world *w3 = box_scene();
    clab_ccp P1, P2;
    clab_ccp_init(&P1);
    clab_ccp_init(&P2);
    rc = clab_ccp_build(&P1, w3, &cs, 1e-3, 0.5, &err) | clab_ccp_build(&P2, w3, &rev, 1e-3, 0.5, &err);
    int rows_same = rc == CLAB_OK && P1.n == P2.n && memcmp(P1.rows, P2.rows, P1.n * sizeof *P1.rows) == 0 &&
                    memcmp(P1.p, P2.p, P1.n * sizeof *P1.p) == 0;
    /* and a box row's angular part is sbar x t, with sbar its own corner (the stored entry) */
    double dmax = 0.0;
    for (size_t k = 1; k < cs.n && rc == CLAB_OK; k++) {
        clab_vec3 sa, sb;
        clab_contact_levers(&cs.c[k], cs.lv, w3->bodies, &sa, &sb);
        const clab_body *B = &w3->bodies[cs.c[k].a]; /* the box is body a (2 < 3) */
        clab_vec3 want = clab_v3_neg(clab_v3_cross(sa, clab_q_rotate_inv(B->e, cs.c[k].n))); /* -sbar_A x A^T n */
        const double *g = P1.rows[3 * k].ang_a;
        dmax = fmax(dmax, vdiff(clab_v3(g[0], g[1], g[2]), want));
        /* its corner: P = r + A(e) sbar lies within Phi/2 of a box vertex */
        double vd = INFINITY;
        for (unsigned v = 0; v < 8; v++) {
            const clab_vec3 hv = B->shape.half;
            clab_vec3 vbar = clab_v3(v & 1u ? hv.x : -hv.x, v & 2u ? hv.y : -hv.y, v & 4u ? hv.z : -hv.z);
            vd = fmin(vd, vdiff(clab_body_point(B, sa), clab_body_point(B, vbar)));
        }
        dmax = fmax(dmax, vd - fabs(0.5 * cs.c[k].phi) - 1e-15);
    }
    tap_ok(rows_same && dmax <= 1e-12,
           "DVI rows: the side array reversed gives the same rows and p to the bit; each box row's sbar is its own "
           "corner, within Phi/2 of a vertex (worst %.3g m)",
           dmax);
    clab_ccp_free(&P1);
    clab_ccp_free(&P2);
    clab_sim_destroy(s1);
    clab_sim_destroy(s2);
    clab_collider_destroy(cd);
    clab_contacts_free(&cs);
    clab_contacts_free(&rev);
    clab_world_destroy(w1);
    clab_world_destroy(w2);
    clab_world_destroy(w3);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 77);
    test_two_spheres(r);
    test_sphere_sides(r);
    test_threads(r);
    test_readers();
    gsl_rng_free(r);
    return tap_done();
}
