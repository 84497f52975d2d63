/* test_broadphase.c: the grid broad phase (lib/grid.c) against brute force.
 *
 * On random scenes of 2,000 mixed spheres and boxes (random sizes and orientations, some
 * fixed) plus 3 planes and 3 very large boxes, the grid must report exactly the pairs that
 * the all-pairs loop over clab_broadphase_test reports (compared as sorted arrays: exact, no
 * tolerance), and clab_collide must return exactly the records of the all-pairs narrow phase
 * (compared field by field, bit for bit: the same functions run on the same pairs, so any
 * difference is a missed or duplicated pair or a wrong order). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "clab_collide.h"
#include "tap.h"

/* a random unit quaternion (uniform: normalized Gaussian 4-vector) */
static clab_quat random_quat(gsl_rng *r)
{
    clab_quat q = clab_q(gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1),
                         gsl_ran_gaussian(r, 1));
    return clab_q_normalize(q);
}

/* n random bodies in the cube [0, L]^3: half spheres, half boxes, sizes log-uniform in
 * [smin, smax], 10 % fixed; then 3 planes (the floor and two tilted walls) and 3 very large
 * boxes (a fixed floor slab, a free wall, a free 1 m cube) */
static clab_world *random_scene(unsigned long seed, int n, double L, double smin, double smax)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    clab_world *w = clab_world_create(NULL);
    clab_error err;
    for (int k = 0; k < n + 6; k++) {
        clab_body_def d = clab_default_body_def();
        double s = smin * exp(gsl_rng_uniform(r) * log(smax / smin));
        d.r = clab_v3(L * gsl_rng_uniform(r), L * gsl_rng_uniform(r), L * gsl_rng_uniform(r));
        d.e = random_quat(r);
        d.fixed = gsl_rng_uniform(r) < 0.1;
        if (k < n) {
            if (gsl_rng_uniform(r) < 0.5) d.shape = clab_sphere(s);
            else d.shape = clab_box(s, s * (0.3 + gsl_rng_uniform(r)), s * (0.3 + gsl_rng_uniform(r)));
        } else if (k < n + 3) { /* planes, all fixed: the floor z = 0.1 L and two walls tilted
                                   1.3 rad about x and about y */
            static const double axis[3][3] = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}};
            static const double at[3][3] = {{0.5, 0.5, 0.1}, {0.5, 0.2, 0.5}, {0.8, 0.5, 0.5}};
            int m = k - n;
            d.shape = clab_plane();
            d.fixed = 1;
            d.r = clab_v3(at[m][0] * L, at[m][1] * L, at[m][2] * L);
            d.e = m == 0 ? clab_q_identity() : clab_q_axis_angle(clab_v3(axis[m][0], axis[m][1], axis[m][2]), 1.3);
        } else if (k == n + 3) {
            d.shape = clab_box(L, L, 0.05 * L);
            d.fixed = 1;
            d.r = clab_v3(0.5 * L, 0.5 * L, 0.3 * L);
        } else if (k == n + 4) {
            d.shape = clab_box(0.02 * L, 0.6 * L, 0.4 * L);
            d.fixed = 0;
        } else {
            d.shape = clab_box(0.3 * L, 0.3 * L, 0.3 * L);
            d.fixed = 0;
        }
        d.mass = 1.0;
        if (clab_world_add_body(w, &d, &err) < 0) {
            tap_diag("add_body: %s", err.msg);
            exit(99);
        }
    }
    gsl_rng_free(r);
    return w;
}

/* shuffle the body order (the large boxes and planes land among the others) */
static void shuffle(clab_world *w, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    gsl_ran_shuffle(r, w->bodies, w->nbodies, sizeof(clab_body));
    gsl_rng_free(r);
}

/* record k of A and of B the same to the bit, with the same stored levers (or none in both) */
static int same_contact(const clab_contacts *A, const clab_contacts *B, size_t k)
{
    const clab_contact *a = &A->c[k], *b = &B->c[k];
    const clab_lever *la = clab_contacts_lever_of(A, k), *lb = clab_contacts_lever_of(B, k);
    int levers = la && lb ? la->sa.x == lb->sa.x && la->sa.y == lb->sa.y && la->sa.z == lb->sa.z &&
                                la->sb.x == lb->sb.x && la->sb.y == lb->sb.y && la->sb.z == lb->sb.z
                          : !la && !lb;
    return a->a == b->a && a->b == b->b && a->key == b->key && a->phi == b->phi && a->n.x == b->n.x &&
           a->n.y == b->n.y && a->n.z == b->n.z && levers;
}

/* near[i n + j]: 0 when bodies i and j cannot be candidates (see check_scene) */
static char *far_filter(const clab_world *w, double env)
{
    size_t n = w->nbodies;
    char *near = malloc(n * n);
    if (!near) exit(99);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            const clab_body *A = &w->bodies[i], *B = &w->bodies[j];
            double R = clab_shape_bound_radius(&A->shape) + clab_shape_bound_radius(&B->shape) + env;
            near[i * n + j] = !(isfinite(R) && clab_v3_norm2(clab_v3_sub(A->r, B->r)) > 3.0 * R * R);
        }
    return near;
}

static void check_scene(clab_collider *cd, clab_world *w, double env, int dense, const char *what)
{
    clab_error err;
    const clab_pair *pairs;
    size_t np;
    int n = (int)w->nbodies;
    int rc = clab_broadphase(cd, w, env, &pairs, &np, &err);
    tap_ok(rc == CLAB_OK, "%s: broad phase runs (%s)", what, rc ? err.msg : "ok");
    if (rc) return;

    /* brute force, in (i, j) order. To keep the run short (also under valgrind) a pair is
     * skipped when its centers are farther apart than sqrt 3 (R_i + R_j + env), R the bounding
     * radius: each body's grown box lies within sqrt 3 (R + env/2) of its center, so such boxes
     * cannot overlap, and (below) no contact with Phi < env is possible either. Planes are
     * never skipped. This filter shares no code with the grid. */
    char *near = far_filter(w, env);
    size_t nb = 0, first_bad = (size_t)-1;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (!near[(size_t)i * n + j] || !clab_broadphase_test(w, i, j, env)) continue;
            if (first_bad == (size_t)-1 && (nb >= np || pairs[nb].i != i || pairs[nb].j != j)) first_bad = nb;
            nb++;
        }
    tap_ok(nb == np && first_bad == (size_t)-1,
           "%s: grid pairs = brute-force pairs (%zu vs %zu, first difference at %ld)", what, np, nb,
           first_bad == (size_t)-1 ? -1L : (long)first_bad);

    clab_broadphase_stats st;
    clab_broadphase_stats_get(cd, &st);
    tap_diag("%s: %d bodies: cell %.4g m, %d levels, %zu in the grid (%zu on coarse levels; %zu entries, %.2f a "
             "body), %zu large, %zu planes, %zu pairs",
             what, n, st.cell, st.levels, st.grid_bodies, st.coarse_bodies, st.entries,
             st.grid_bodies ? (double)st.entries / st.grid_bodies : 0.0, st.large_bodies, st.planes, st.pairs);
    /* the grid never blows up: every grid body covers at most 2 cells a side of its level, so at
     * most 8 entries; the 3 very large boxes are on coarse levels or kept out, the planes out */
    tap_ok(st.dense == dense, "%s: %s buckets, as expected for this scene", what, st.dense ? "dense" : "hashed");
    tap_ok(st.entries <= 8 * st.grid_bodies && st.coarse_bodies + st.large_bodies >= 3 && st.planes == 3 &&
               st.grid_bodies + st.large_bodies + st.planes == (size_t)n,
           "%s: %zu entries <= 8 x %zu grid bodies; very large boxes off level 0 (%zu coarse, %zu large); 3 planes "
           "kept out",
           what, st.entries, st.grid_bodies, st.coarse_bodies, st.large_bodies);

    /* contacts through the broad phase = all-pairs narrow phase */
    clab_contacts got, want;
    clab_contacts_init(&got);
    clab_contacts_init(&want);
    rc = clab_collide(cd, w, env, &got, &err);
    for (int i = 0; i < n && !rc; i++)
        for (int j = i + 1; j < n; j++)
            if (near[(size_t)i * n + j] && !(w->bodies[i].fixed && w->bodies[j].fixed))
                rc |= clab_collide_pair(w, i, j, env, &want);
    free(near);
    int same = rc == CLAB_OK && got.n == want.n, sorted = 1;
    for (size_t k = 0; same && k < got.n; k++) same &= same_contact(&got, &want, k);
    for (size_t k = 1; k < got.n; k++) sorted &= got.c[k].key > got.c[k - 1].key;
    tap_ok(same && got.n > 0, "%s: clab_collide = all-pairs narrow phase, record for record (%zu vs %zu contacts)",
           what, got.n, want.n);
    tap_ok(sorted, "%s: contacts ordered by (a, b, feature), keys distinct", what);
    clab_contacts_free(&got);
    clab_contacts_free(&want);
}

int main(void)
{
    clab_collider *cd = clab_collider_create();

    /* scene 1: 2,000 bodies of sizes 0.02..0.08 m in a 1.6 m cube (about 3 neighbours each) */
    clab_world *w = random_scene(1, 2000, 1.6, 0.02, 0.08);
    check_scene(cd, w, 0.0, 1, "scene 1, envelope 0");

    /* storage reused: the same scene again returns the same buffer */
    const clab_pair *p1, *p2;
    size_t n1, n2;
    clab_error err;
    clab_broadphase(cd, w, 0.01, &p1, &n1, &err);
    clab_broadphase(cd, w, 0.01, &p2, &n2, &err);
    tap_ok(p1 == p2 && n1 == n2, "second call on the same scene reuses the pair storage (%zu pairs)", n2);

    /* scene 2: sizes spread over 0.005..0.3 m (a wide mix), bodies shuffled so the planes and
     * the large boxes sit among the others */
    clab_world_destroy(w);
    w = random_scene(2, 2000, 2.0, 0.005, 0.3);
    shuffle(w, 7);
    check_scene(cd, w, 0.005, 1, "scene 2 (sizes 0.005..0.3 m, shuffled), envelope 0.005");
    clab_world_destroy(w);

    /* scene 3: sparse, so the cells are hashed: half the bodies moved 200 m away along x and
     * one body 1e12 m away (its cell coordinates are clamped) */
    w = random_scene(3, 2000, 1.6, 0.02, 0.08);
    for (size_t k = 0; k < 1000; k++) w->bodies[k].r.x += 200.0;
    w->bodies[1000].r = clab_v3(1e12, -1e12, 3e11);
    check_scene(cd, w, 0.01, 0, "scene 3 (two clusters 200 m apart, one body 1e12 m away), envelope 0.01");
    clab_world_destroy(w);

    /* small worlds: empty, one body, two planes only */
    w = clab_world_create(NULL);
    const clab_pair *p;
    size_t np = 1;
    int rc = clab_broadphase(cd, w, 0.0, &p, &np, &err);
    tap_ok(rc == CLAB_OK && np == 0, "empty world: no pairs");
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    clab_world_add_body(w, &d, &err);
    clab_world_add_body(w, &d, &err);
    rc = clab_broadphase(cd, w, 0.0, &p, &np, &err);
    tap_ok(rc == CLAB_OK && np == 0, "two planes only: no pairs");
    d = clab_default_body_def();
    d.r = clab_v3(0, 0, 0.05);
    clab_world_add_body(w, &d, &err);
    rc = clab_broadphase(cd, w, 0.0, &p, &np, &err);
    tap_ok(rc == CLAB_OK && np == 2 && p[0].i == 0 && p[0].j == 2 && p[1].i == 1 && p[1].j == 2,
           "two planes and a sphere in both: pairs (0, 2), (1, 2) (got %zu)", np);

    /* a non-finite position is an error naming the body */
    w->bodies[2].r.x = NAN;
    rc = clab_broadphase(cd, w, 0.0, &p, &np, &err);
    tap_ok(rc == CLAB_ENUMERIC && strstr(err.msg, "body 2") != NULL, "NaN position: CLAB_ENUMERIC, message '%s'",
           err.msg);
    clab_world_destroy(w);

    clab_collider_destroy(cd);
    return tap_done();
}
