/* test_mesh_list.c: the sphere cell list with triangle-mesh walls (lib/broadphase_spheres.c,
 * sphere_pairs.c) against the general path (lib/grid.c and pairlist.c's distance filters).
 *
 * A world of spheres followed by fixed triangles (the order clab_world_add_mesh and scene
 * files give) takes the cell list; its kept list must be the general path's exactly: the same
 * pairs in the same order, compared with memcmp (no tolerance: both apply the same predicate,
 * the bounds by clab_collide_bounds, then clab_sphere_tri_far, with the same arithmetic).
 * Scenes: spheres (radii within 25 %, some fixed) in a box of mesh walls (a floor of 6 x 6
 * squares, four walls of two triangles, a ridge and a tilted panel inside), a plane before or
 * after the meshes; envelopes 0 and 0.02 m, skins 0 and automatic. The filter that drops a
 * sphere-triangle pair is held to its promise by the narrow phase itself: every pair whose
 * bounds meet and whose clab_collide_pair at envelope M reports a contact is in the list (no
 * shared arithmetic with the filter). clab_collide's records over 8 calls with the spheres
 * moving (kept lists and rebuilds) are compared record for record with memcmp between the
 * two paths. Worlds the cell list must leave to the general path (a triangle before a
 * sphere, a periodic world) are checked to go there and to give the same records. With
 * OpenMP: a world of 6,000 spheres (the parallel cell list) on 1, 2 and 3 threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <gsl/gsl_rng.h>

#include "clab_mesh.h"
#include "collide_internal.h"
#include "tap.h"

typedef struct {
    int n;              /* spheres */
    int plane;          /* 0: none, 1: a plane before the meshes, 2: after them */
    int tri_first;      /* 1: the meshes before the spheres */
    int periodic;       /* 1: periodic along x */
} scene_def;

static void add_mesh(clab_world *w, const char *name, const double *xyz, size_t ntri)
{
    clab_mesh_def d = clab_default_mesh_def();
    snprintf(d.name, sizeof d.name, "%s", name);
    d.xyz = xyz;
    d.ntri = ntri;
    clab_error err;
    if (clab_world_add_mesh(w, &d, &err) < 0) {
        tap_diag("add_mesh %s: %s", name, err.msg);
        exit(99);
    }
}

/* the walls of the box [0, L]^2 x [0, H]: a 6 x 6 floor, four walls, a ridge, a tilted panel */
static void add_walls(clab_world *w, double L, double H)
{
    double fl[6 * 6 * 18];
    size_t nt = 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double x0 = L * i / 6, x1 = L * (i + 1) / 6, y0 = L * j / 6, y1 = L * (j + 1) / 6;
            const double t[18] = {x0, y0, 0, x1, y0, 0, x1, y1, 0, x0, y0, 0, x1, y1, 0, x0, y1, 0};
            memcpy(fl + 9 * nt, t, sizeof t);
            nt += 2;
        }
    add_mesh(w, "floor", fl, nt);
    const double q[4][4][3] = {{{0, 0, 0}, {0, L, 0}, {0, L, H}, {0, 0, H}},
                               {{L, 0, 0}, {L, L, 0}, {L, L, H}, {L, 0, H}},
                               {{0, 0, 0}, {L, 0, 0}, {L, 0, H}, {0, 0, H}},
                               {{0, L, 0}, {L, L, 0}, {L, L, H}, {0, L, H}}};
    const int order[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < 4; k++) {
        double xyz[18];
        for (int v = 0; v < 6; v++) memcpy(xyz + 3 * v, q[k][order[v]], sizeof q[k][0]);
        char name[16];
        snprintf(name, sizeof name, "wall%d", k);
        add_mesh(w, name, xyz, 2);
    }
    const double ridge[18] = {0.25 * L, 0, 0, 0.5 * L, 0, 0.1 * L, 0.5 * L, L, 0.1 * L,
                              0.5 * L, 0, 0.1 * L, 0.75 * L, 0, 0, 0.5 * L, L, 0.1 * L};
    add_mesh(w, "ridge", ridge, 2);
    const double panel[9] = {0.1 * L, 0.2 * L, 0.5 * H, 0.9 * L, 0.3 * L, 0.3 * H, 0.4 * L, 0.9 * L, 0.7 * H};
    add_mesh(w, "panel", panel, 1);
}

static void add_plane(clab_world *w, double L)
{
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    d.r = clab_v3(0.0, 0.0, 0.02 * L); /* a floor a little above the mesh floor */
    clab_error err;
    if (clab_world_add_body(w, &d, &err) < 0) exit(99);
}

/* n spheres at random in the box (some touching the walls, the floor, the ridge and the
 * panel), radii 0.04..0.05 m, 15 % fixed */
static clab_world *scene(const scene_def *s, unsigned long seed, double *side)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    clab_world *w = clab_world_create(NULL);
    clab_error err;
    const double L = cbrt(s->n * 4.0 / 3.0 * M_PI * 0.045 * 0.045 * 0.045 / 0.3), H = L;
    *side = L;
    if (s->periodic) clab_world_set_periodic(w, 0, -L, 2.0 * L, &err); /* wider than twice the walls */
    if (s->tri_first) add_walls(w, L, H);
    for (int k = 0; k < s->n; k++) {
        clab_body_def d = clab_default_body_def();
        d.mass = 1.0;
        double R = 0.04 + 0.01 * gsl_rng_uniform(r);
        d.shape = clab_sphere(R);
        d.fixed = gsl_rng_uniform(r) < 0.15;
        d.r = clab_v3(L * gsl_rng_uniform(r), L * gsl_rng_uniform(r), H * gsl_rng_uniform(r));
        if (clab_world_add_body(w, &d, &err) < 0) exit(99);
    }
    if (s->plane == 1) add_plane(w, L);
    if (!s->tri_first) add_walls(w, L, H);
    if (s->plane == 2) add_plane(w, L);
    gsl_rng_free(r);
    return w;
}

/* the kept list of a collider as (i, j) pairs (malloc), *fast: the cell list built it */
static size_t kept(clab_collider *cd, const clab_world *w, double env, clab_pair **out, int *fast)
{
    clab_pair_list p;
    clab_error err;
    if (clab_broadphase_kept(cd, w, env, &p, &err)) {
        tap_diag("clab_broadphase_kept: %s", err.msg);
        exit(99);
    }
    *out = malloc((p.np ? p.np : 1) * sizeof **out);
    size_t k = 0;
    for (size_t i = 0; i < p.n; i++)
        for (size_t u = p.row[i]; u < p.row[i + 1]; u++) {
            (*out)[k].i = (int)i;
            (*out)[k++].j = (int)p.nbr[u];
        }
    clab_broadphase_stats st;
    clab_broadphase_stats_get(cd, &st);
    *fast = st.sphere_list;
    return k;
}

static clab_collider *collider(double skin, int general)
{
    clab_collider *cd = clab_collider_create();
    cd->general_only = general;
    clab_collider_set_skin(cd, skin);
    return cd;
}

static int in_list(const clab_pair *p, size_t np, int i, int j)
{
    for (size_t k = 0; k < np; k++)
        if (p[k].i == i && p[k].j == j) return 1;
    return 0;
}

/* the pairs of the kept list (skin 0: M = env) that the narrow phase needs: a sphere and a
 * triangle whose bounds meet and that have a contact at envelope M; how many are missing */
static size_t missing_contacts(const clab_world *w, double M, const clab_pair *p, size_t np, size_t *need)
{
    size_t miss = 0;
    *need = 0;
    clab_contacts c;
    clab_contacts_init(&c);
    for (size_t i = 0; i < w->nbodies; i++)
        for (size_t j = i + 1; j < w->nbodies; j++) {
            int ti = w->bodies[i].shape.type, tj = w->bodies[j].shape.type;
            if (!((ti == CLAB_SHAPE_SPHERE && tj == CLAB_SHAPE_TRIANGLE) ||
                  (ti == CLAB_SHAPE_TRIANGLE && tj == CLAB_SHAPE_SPHERE)))
                continue;
            if (!clab_broadphase_test(w, (int)i, (int)j, M)) continue;
            c.n = 0;
            if (clab_collide_pair(w, (int)i, (int)j, M, &c) || c.n == 0) continue;
            (*need)++;
            if (!in_list(p, np, (int)i, (int)j)) miss++;
        }
    clab_contacts_free(&c);
    return miss;
}

/* the two paths' lists for envelopes 0, 0.02 and skins 0, automatic */
static void compare_lists(const clab_world *w, const char *what, int expect_fast)
{
    const double envs[2] = {0.0, 0.02}, skins[2] = {0.0, -1.0};
    for (int e = 0; e < 2; e++)
        for (int s = 0; s < 2; s++) {
            clab_collider *ca = collider(skins[s], 0), *cb = collider(skins[s], 1);
            clab_pair *a, *b;
            int fa, fb;
            size_t na = kept(ca, w, envs[e], &a, &fa), nb = kept(cb, w, envs[e], &b, &fb);
            tap_ok(fa == expect_fast && fb == 0, "%s, envelope %g, skin %s: the %s is taken", what, envs[e],
                   skins[s] == 0.0 ? "0" : "auto", expect_fast ? "cell list" : "general path");
            tap_ok(na == nb && memcmp(a, b, na * sizeof *a) == 0,
                   "%s, envelope %g, skin %s: %zu pairs, the general path's %zu, identical", what, envs[e],
                   skins[s] == 0.0 ? "0" : "auto", na, nb);
            if (s == 0) {
                size_t need, miss = missing_contacts(w, envs[e], a, na, &need);
                tap_ok(miss == 0 && need > 0, "%s, envelope %g: all %zu sphere-triangle pairs with a contact at "
                       "the envelope are kept (%zu missing)", what, envs[e], need, miss);
            }
            free(a);
            free(b);
            clab_collider_destroy(ca);
            clab_collider_destroy(cb);
        }
}

/* clab_collide on both paths, record for record, over 8 calls with the moving spheres
 * displaced by up to 0.3 R a call (kept lists and rebuilds) */
static void compare_records(clab_world *w, const char *what, int expect_fast, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    clab_collider *ca = collider(-1.0, 0), *cb = collider(-1.0, 1);
    clab_contacts a, b;
    clab_contacts_init(&a);
    clab_contacts_init(&b);
    clab_error err;
    int same = 1, fast = 1;
    size_t nrec = 0, ntri = 0;
    for (int call = 0; call < 8 && same; call++) {
        same = clab_collide(ca, w, 0.005, &a, &err) == CLAB_OK && clab_collide(cb, w, 0.005, &b, &err) == CLAB_OK &&
               a.n == b.n && (a.n == 0 || memcmp(a.c, b.c, a.n * sizeof *a.c) == 0);
        clab_broadphase_stats st;
        clab_broadphase_stats_get(ca, &st);
        fast &= st.sphere_list == expect_fast;
        nrec += a.n;
        for (size_t k = 0; k < a.n; k++)
            ntri += w->bodies[a.c[k].a].shape.type == CLAB_SHAPE_TRIANGLE ||
                    w->bodies[a.c[k].b].shape.type == CLAB_SHAPE_TRIANGLE;
        for (size_t i = 0; i < w->nbodies; i++) {
            clab_body *bd = &w->bodies[i];
            if (bd->fixed) continue;
            double s = 0.3 * bd->shape.radius;
            bd->r = clab_v3_add(bd->r, clab_v3(s * (gsl_rng_uniform(r) - 0.5), s * (gsl_rng_uniform(r) - 0.5),
                                               s * (gsl_rng_uniform(r) - 0.5)));
        }
    }
    tap_ok(same && fast && ntri > 0, "%s: clab_collide's records on the %s and the general path identical over 8 "
           "calls (%zu records, %zu with a triangle)", what, expect_fast ? "cell list" : "general path", nrec, ntri);
    clab_contacts_free(&a);
    clab_contacts_free(&b);
    clab_collider_destroy(ca);
    clab_collider_destroy(cb);
    gsl_rng_free(r);
}

int main(void)
{
    double L;
    const struct {
        scene_def d;
        const char *what;
        int fast;
    } cases[] = {
        {{1500, 0, 0, 0}, "spheres then meshes", 1},
        {{1500, 1, 0, 0}, "spheres, a plane, then meshes", 1},
        {{1500, 2, 0, 0}, "spheres, meshes, then a plane", 1},
        {{1500, 0, 1, 0}, "meshes before the spheres", 0},
        {{1500, 0, 0, 1}, "periodic along x", 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        clab_world *w = scene(&cases[c].d, 7 + c, &L);
        compare_lists(w, cases[c].what, cases[c].fast);
        compare_records(w, cases[c].what, cases[c].fast, 17 + c);
        clab_world_destroy(w);
    }
#ifdef _OPENMP
    /* the parallel cell list: the same list on 1, 2 and 3 threads */
    const scene_def big = {6000, 2, 0, 0};
    clab_world *w = scene(&big, 41, &L);
    clab_pair *ref = NULL;
    size_t nref = 0;
    const int saved = omp_get_max_threads();
    for (int t = 1; t <= 3; t++) {
        omp_set_num_threads(t);
        clab_collider *cd = collider(-1.0, 0);
        clab_pair *a;
        int f;
        size_t na = kept(cd, w, 0.01, &a, &f);
        if (t == 1) {
            clab_collider *cg = collider(-1.0, 1);
            int fg;
            nref = kept(cg, w, 0.01, &ref, &fg);
            clab_collider_destroy(cg);
        }
        tap_ok(f == 1 && na == nref && memcmp(a, ref, na * sizeof *a) == 0,
               "6,000 spheres and meshes, %d thread(s): %zu pairs, the general path's %zu, identical", t, na, nref);
        free(a);
        clab_collider_destroy(cd);
    }
    omp_set_num_threads(saved);
    free(ref);
    clab_world_destroy(w);
#endif
    return tap_done();
}
