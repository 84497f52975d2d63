/* test_sphere_list.c: the sphere cell list (lib/broadphase_spheres.c) against the general path.
 *
 * clab_broadphase_kept takes the cell list when every bounded body is a sphere of similar size;
 * its list must be the general path's (clab_broadphase, then the distance filter) exactly: the
 * same pairs in the same order, compared with memcmp (no tolerance: both apply the same
 * predicate with the same arithmetic). Scenes: random spheres (radii within 25 %, some fixed),
 * open or periodic along x y or x y z (centers also outside the period, and straddling its
 * faces), half-spaces first, among the spheres or last; envelopes 0 and 0.02 m, skins 0 and
 * automatic; pairs placed at the edge of the distance test (S (1 + delta), delta from -1e-13
 * to 2e-10, along an axis and a diagonal). Without a skin the list is also checked against
 * the documented predicate by brute force (clab_broadphase_test and the sphere distance).
 * Scenes the cell list must leave to the general path (radii a factor 4 apart, a box) are
 * checked to go there. With OpenMP: the list on 1, 2 and 3 threads, compared with memcmp.
 * The list comes by rows (clab_pair_list): its form is checked too (row starts, partners in
 * order, gen set exactly for rows with a body other than a sphere, Rmax, the zeros behind the
 * last pair). And the narrow phase over the rows (lib/narrow.c: narrow_rows) against its
 * reference, clab_collide_pair over every pair, record for record with memcmp: equal and mixed
 * radii, periodic in x y and x y z (pairs across the faces, centers a period away), half-spaces
 * and a box among the spheres, envelopes 0, 0.02 and -0.005, four calls with the spheres moved
 * under skin/2 and wrapped into the period between them (the kept list), 1 to 3 threads, and
 * a row of more pairs than one of the narrow phase's blocks, and more than 512 candidates
 * around a sphere (the cell list's candidate buffer emptied as it fills). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <gsl/gsl_rng.h>

#include "collide_internal.h"
#include "tap.h"

typedef struct {
    int n;           /* spheres */
    double rmin, rmax;
    unsigned per;    /* periodic axes (bit k: axis k) on [0, L) */
    int planes;      /* 0..2: the floor z >= 0.05 L, then (open x) a wall x >= 0.02 L */
    int plane_at;    /* 0: planes first, 1: among the spheres, 2: last */
    int box;         /* 1: one body is a box */
    double outside;  /* fraction of centers moved a period away along the periodic axes */
} scene_def;

static clab_world *scene(const scene_def *s, unsigned long seed, double *side)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    clab_world *w = clab_world_create(NULL);
    clab_error err;
    double rm = 0.5 * (s->rmin + s->rmax), L = cbrt(s->n * 4.0 / 3.0 * M_PI * rm * rm * rm / 0.3);
    *side = L;
    for (int k = 0; k < 3; k++)
        if (s->per & (1u << k)) clab_world_set_periodic(w, k, 0.0, L, &err);
    int nplanes_added = 0;
    for (int k = 0; k < s->n + s->planes; k++) {
        int plane_here = nplanes_added < s->planes &&
                         ((s->plane_at == 0 && k < s->planes) || (s->plane_at == 1 && k == (nplanes_added + 1) * s->n / 3) ||
                          (s->plane_at == 2 && k >= s->n));
        clab_body_def d = clab_default_body_def();
        d.mass = 1.0;
        if (plane_here) {
            d.shape = clab_plane();
            d.fixed = 1;
            if (nplanes_added == 0) {
                d.r = clab_v3(0.3 * L, 0.6 * L, 0.05 * L);
            } else {
                d.r = clab_v3(0.02 * L, 0.5 * L, 0.5 * L);
                d.e = clab_q_axis_angle(clab_v3(0, 1, 0), M_PI / 2); /* normal -x: the wall x <= 0.02 L */
            }
            nplanes_added++;
        } else {
            double R = s->rmin + (s->rmax - s->rmin) * gsl_rng_uniform(r);
            d.shape = s->box && k == s->n / 2 ? clab_box(R, 0.7 * R, 0.5 * R) : clab_sphere(R);
            d.fixed = gsl_rng_uniform(r) < 0.15;
            double x[3];
            for (int c = 0; c < 3; c++) {
                x[c] = L * gsl_rng_uniform(r);
                if ((s->per & (1u << c)) && gsl_rng_uniform(r) < s->outside) x[c] += gsl_rng_uniform(r) < 0.5 ? L : -L;
            }
            d.r = clab_v3(x[0], x[1], x[2]);
        }
        if (clab_world_add_body(w, &d, &err) < 0) {
            tap_diag("add_body: %s", err.msg);
            exit(99);
        }
    }
    gsl_rng_free(r);
    return w;
}

/* the rows of a pair list as (i, j) pairs (malloc); checks the form: rows from 0 to np,
 * non-decreasing, the zeros behind the last pair, gen[i] set exactly when body i or one of
 * its partners is not a sphere, Rmax the largest sphere radius (a failure is reported once a
 * list) */
static size_t rows_to_pairs(const clab_world *w, const clab_pair_list *p, clab_pair **out)
{
    size_t np = p->np, k = 0, bad = 0;
    double Rmax = 0.0;
    *out = malloc((np ? np : 1) * sizeof **out);
    if (p->n != w->nbodies || p->row[0] != 0 || p->row[p->n] != np) bad++;
    for (size_t i = 0; i < p->n && !bad; i++) {
        if (p->row[i + 1] < p->row[i]) {
            bad++;
            break;
        }
        int gen = w->bodies[i].shape.type != CLAB_SHAPE_SPHERE;
        if (!gen) Rmax = fmax(Rmax, w->bodies[i].shape.radius);
        for (size_t u = p->row[i]; u < p->row[i + 1]; u++) {
            uint32_t j = p->nbr[u];
            if (j >= w->nbodies || j <= i) {
                bad++;
                break;
            }
            if (w->bodies[j].shape.type != CLAB_SHAPE_SPHERE) gen = 1;
            (*out)[k].i = (int)i;
            (*out)[k++].j = (int)j;
        }
        if (gen != p->gen[i]) bad++;
    }
    if (!bad && Rmax != p->Rmax) bad++;
    for (size_t u = 0; u < CLAB_PREFETCH_AHEAD; u++)
        if (p->nbr[np + u] != 0) bad++;
    if (bad) {
        tap_ok(0, "the pair list's rows, marks, Rmax and padding are well formed (%zu faults)", bad);
        return 0;
    }
    return np;
}

/* the kept list of a fresh collider (general path or not) with the given skin; the pairs are
 * copied to *out (malloc), *fast tells which path built them */
static size_t kept(const clab_world *w, double env, double skin, int general, clab_pair **out, int *fast)
{
    clab_collider *cd = clab_collider_create();
    cd->general_only = general;
    clab_collider_set_skin(cd, skin);
    clab_pair_list p;
    clab_error err;
    if (clab_broadphase_kept(cd, w, env, &p, &err)) {
        tap_diag("clab_broadphase_kept: %s", err.msg);
        exit(99);
    }
    size_t np = rows_to_pairs(w, &p, out);
    clab_broadphase_stats st;
    clab_broadphase_stats_get(cd, &st);
    *fast = st.sphere_list;
    clab_collider_destroy(cd);
    return np;
}

/* the documented predicate by brute force: the bounds grown by M meet, and two spheres are
 * within R_i + R_j + M (minimum image) with the factor (1 + 2e-10) on the squares */
static size_t brute(const clab_world *w, double M, clab_pair **out)
{
    size_t n = w->nbodies, np = 0, cap = 1024;
    clab_pair *p = malloc(cap * sizeof *p);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (!clab_broadphase_test(w, (int)i, (int)j, M)) continue;
            const clab_body *A = &w->bodies[i], *B = &w->bodies[j];
            if (A->shape.type == CLAB_SHAPE_SPHERE && B->shape.type == CLAB_SHAPE_SPHERE) {
                clab_vec3 d = clab_world_min_image(&w->periodic, clab_v3_sub(B->r, A->r));
                double S = A->shape.radius + B->shape.radius + M;
                if (clab_v3_dot(d, d) > S * S * (1.0 + 2e-10)) continue;
            }
            if (np == cap) p = realloc(p, (cap *= 2) * sizeof *p);
            p[np].i = (int)i;
            p[np++].j = (int)j;
        }
    *out = p;
    return np;
}

static int same(const clab_pair *a, size_t na, const clab_pair *b, size_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

/* the cell list (expected: taken or not) against the general path for envelopes 0, 0.02 and
 * skins 0, automatic; without a skin also against brute force (small scenes) */
static void compare(const clab_world *w, const char *what, int expect_fast, int with_brute)
{
    const double envs[2] = {0.0, 0.02}, skins[2] = {0.0, -1.0};
    for (int e = 0; e < 2; e++)
        for (int s = 0; s < 2; s++) {
            clab_pair *a, *b;
            int fa, fb;
            size_t na = kept(w, envs[e], skins[s], 0, &a, &fa), nb = kept(w, envs[e], skins[s], 1, &b, &fb);
            tap_ok(fa == expect_fast && fb == 0, "%s, envelope %g, skin %s: %s (%d)", what, envs[e],
                   skins[s] == 0.0 ? "0" : "auto", expect_fast ? "the cell list is taken" : "the general path is taken",
                   fa);
            tap_ok(same(a, na, b, nb), "%s, envelope %g, skin %s: %zu pairs, the general path's %zu, identical", what,
                   envs[e], skins[s] == 0.0 ? "0" : "auto", na, nb);
            if (with_brute && skins[s] == 0.0) {
                clab_pair *c;
                size_t nc = brute(w, envs[e], &c);
                tap_ok(same(a, na, c, nc), "%s, envelope %g: %zu pairs, brute force %zu, identical", what, envs[e], na,
                       nc);
                free(c);
            }
            free(a);
            free(b);
        }
}

/* isolated pairs of spheres R = 0.5 at S (1 + delta), S = 1 + M, along x and along a
 * diagonal, around a row of spheres; periodic: the pairs straddle the face x = 0 */
static clab_world *edge_scene(double M, int periodic)
{
    static const double delta[] = {-1e-13, 0.0, 5e-11, 9.9e-11, 1e-10, 1.01e-10, 1.5e-10, 2e-10, 3e-10};
    const int nd = (int)(sizeof delta / sizeof delta[0]);
    clab_world *w = clab_world_create(NULL);
    clab_error err;
    double S = 1.0 + M;
    if (periodic) clab_world_set_periodic(w, 0, 0.0, 12.0, &err);
    for (int k = 0; k < nd; k++)
        for (int diag = 0; diag < 2; diag++) {
            double dist = S * (1.0 + delta[k]), u = diag ? dist / sqrt(3.0) : dist;
            clab_vec3 a = clab_v3(periodic ? 0.25 : 1.0, 8.0 * k + 0.3, diag ? 5.0 : 0.0);
            clab_vec3 b = diag ? clab_v3(a.x - u, a.y + u, a.z + u) : clab_v3(a.x - u, a.y, a.z);
            if (periodic && b.x < 0.0) b.x += 12.0;
            clab_vec3 rr[2] = {a, b};
            for (int m = 0; m < 2; m++) {
                clab_body_def d = clab_default_body_def();
                d.shape = clab_sphere(0.5);
                d.mass = 1.0;
                d.r = rr[m];
                if (clab_world_add_body(w, &d, &err) < 0) exit(99);
            }
        }
    return w;
}

/* clab_collide record for record (memcmp) against the all-pairs narrow phase (clab_collide_pair
 * over every pair not both fixed: the reference of the row loop's distance test and its
 * periodic shortcut), on a fresh collider (a build) and after the spheres moved by less than
 * skin/2 and were wrapped into the period (the kept list, pairs changing their image) */
static int collide_vs_all_pairs(clab_collider *cd, const clab_world *w, double env, size_t *nrec)
{
    clab_contacts got, want;
    clab_contacts_init(&got);
    clab_contacts_init(&want);
    clab_error err;
    int rc = clab_collide(cd, w, env, &got, &err);
    int n = (int)w->nbodies;
    for (int i = 0; i < n && !rc; i++)
        for (int j = i + 1; j < n; j++)
            if (!(w->bodies[i].fixed && w->bodies[j].fixed)) rc |= clab_collide_pair(w, i, j, env, &want);
    int same = rc == CLAB_OK && got.n == want.n && (got.n == 0 || memcmp(got.c, want.c, got.n * sizeof *got.c) == 0);
    *nrec = want.n;
    clab_contacts_free(&got);
    clab_contacts_free(&want);
    return same;
}

static void narrow_vs_all_pairs(const scene_def *def, unsigned long seed, const char *what)
{
    const double envs[3] = {0.0, 0.02, -0.005};
    for (int e = 0; e < 3; e++) {
        double L;
        clab_world *w = scene(def, seed, &L);
        clab_collider *cd = clab_collider_create();
        size_t nrec = 0;
        int ok = 1;
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(r, seed + 7);
        for (int step = 0; step < 4 && ok; step++) {
            ok = collide_vs_all_pairs(cd, w, envs[e], &nrec);
            /* move every sphere by up to 0.0008 per axis (the automatic skin/2 is 0.002 here:
             * the kept list serves a call or two, then a rebuild) and wrap the centers into
             * [0, L) (some cross a face: their pairs change image under the kept list) */
            for (size_t i = 0; i < w->nbodies; i++) {
                clab_body *b = &w->bodies[i];
                if (b->shape.type != CLAB_SHAPE_SPHERE || b->fixed) continue;
                for (int k = 0; k < 3; k++) {
                    double x = clab_v3_get(b->r, k) + 0.0008 * (2.0 * gsl_rng_uniform(r) - 1.0);
                    if (def->per & (1u << k)) x = clab_world_wrap_coord(x, 0.0, L);
                    if (k == 0) b->r.x = x;
                    else if (k == 1) b->r.y = x;
                    else b->r.z = x;
                }
            }
        }
        clab_broadphase_stats st;
        clab_broadphase_stats_get(cd, &st);
        tap_ok(ok && nrec > 0 && st.rebuilds < st.calls,
               "%s, envelope %g: clab_collide = all-pairs narrow phase, the same bytes, 4 calls (%zu rebuilds, %zu records)",
               what, envs[e], st.rebuilds, nrec);
        gsl_rng_free(r);
        clab_collider_destroy(cd);
        clab_world_destroy(w);
    }
}

int main(void)
{
    double L;
    /* narrow sizes: the cell list */
    const struct {
        scene_def d;
        const char *what;
    } cases[] = {
        {{1500, 0.04, 0.05, 0, 0, 0, 0, 0.0}, "open, spheres only"},
        {{1500, 0.04, 0.05, 0, 2, 0, 0, 0.0}, "open, floor and wall first"},
        {{1500, 0.04, 0.05, 0, 2, 1, 0, 0.0}, "open, floor and wall among the spheres"},
        {{1500, 0.04, 0.05, 0, 2, 2, 0, 0.0}, "open, floor and wall last"},
        {{1500, 0.03, 0.05, 3, 1, 1, 0, 0.0}, "periodic x y, floor among the spheres"},
        {{1500, 0.04, 0.05, 3, 1, 0, 0, 0.3}, "periodic x y, 30 % of the centers a period away"},
        {{1500, 0.04, 0.05, 7, 0, 0, 0, 0.2}, "periodic x y z"},
        {{400, 0.04, 0.05, 7, 0, 0, 0, 0.0}, "periodic x y z, small box (few cells a period)"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        clab_world *w = scene(&cases[c].d, 11 + c, &L);
        compare(w, cases[c].what, 1, 1);
        clab_world_destroy(w);
    }
    /* left to the general path */
    scene_def mixed = {1500, 0.01, 0.05, 3, 1, 0, 0, 0.0}, boxed = {1500, 0.04, 0.05, 0, 1, 0, 1, 0.0};
    clab_world *w = scene(&mixed, 31, &L);
    compare(w, "periodic x y, radii 0.01..0.05 (mixed)", 0, 1);
    clab_world_destroy(w);
    w = scene(&boxed, 32, &L);
    compare(w, "open, one box among the spheres", 0, 1);
    clab_world_destroy(w);
    /* the edge of the distance test */
    for (int k = 0; k < 4; k++) {
        int periodic = k & 1;
        double M = k < 2 ? 0.0 : 0.02;
        w = edge_scene(M, periodic);
        char what[96];
        snprintf(what, sizeof what, "pairs at S (1 + delta), M = %g%s", M, periodic ? ", across the periodic face" : "");
        compare(w, what, 1, 1);
        clab_pair *a;
        int f;
        size_t na = kept(w, M, 0.0, 0, &a, &f);
        tap_ok(na > 2 && na < 16, "%s: %zu of the 18 pairs kept (some at the edge in, some out)", what, na);
        /* the narrow phase at its own edge, S^2 (1 + 2e-10): across the face a pair takes
         * clab_image_far's shortcut (collide_internal.h) or the exact minimum image, the records as the
         * all-pairs narrow phase makes them */
        clab_collider *cd = clab_collider_create();
        size_t nrec = 0;
        const int same_records = collide_vs_all_pairs(cd, w, M, &nrec);
        tap_ok(same_records && nrec > 0 && nrec < 18,
               "%s: clab_collide = all-pairs narrow phase, the same bytes (%zu records of the 18 pairs)", what, nrec);
        clab_collider_destroy(cd);
        free(a);
        clab_world_destroy(w);
    }
    /* a large scene: the same list on 1, 2 and 3 threads (and the general path's) */
    scene_def big = {20000, 0.04, 0.05, 3, 1, 1, 0, 0.1};
    w = scene(&big, 41, &L);
    clab_pair *ref;
    int f;
    size_t nref = kept(w, 0.0, -1.0, 1, &ref, &f);
#ifdef _OPENMP
    int nt0 = omp_get_max_threads();
    for (int nt = 1; nt <= 3; nt++) {
        omp_set_num_threads(nt);
        clab_pair *a;
        size_t na = kept(w, 0.0, -1.0, 0, &a, &f);
        tap_ok(f == 1 && same(a, na, ref, nref), "20,000 spheres, %d thread(s): %zu pairs, the general path's %zu, identical",
               nt, na, nref);
        free(a);
    }
    omp_set_num_threads(nt0);
#else
    clab_pair *a;
    size_t na = kept(w, 0.0, -1.0, 0, &a, &f);
    tap_ok(f == 1 && same(a, na, ref, nref), "20,000 spheres: %zu pairs, the general path's %zu, identical", na, nref);
    free(a);
#endif
    free(ref);
    clab_world_destroy(w);
    /* the narrow phase over the rows against the all-pairs reference: spheres only (the rows
     * of spheres, pairs across the periodic faces), radii 0.03..0.05 (the row bound below the
     * partners' radii), half-spaces among the spheres (rows of the general path), 1 to 3 threads */
    {
        const struct {
            scene_def d;
            const char *what;
        } nc[] = {
            {{1200, 0.04, 0.04, 3, 0, 0, 0, 0.2}, "rows: equal spheres, periodic x y, 20 % a period away"},
            {{1200, 0.03, 0.05, 7, 0, 0, 0, 0.0}, "rows: radii 0.03..0.05, periodic x y z"},
            {{1200, 0.04, 0.05, 3, 1, 1, 0, 0.0}, "rows: a floor among the spheres, periodic x y"},
            {{1200, 0.04, 0.05, 0, 2, 1, 0, 0.0}, "rows: floor and wall among the spheres, open"},
            {{1200, 0.04, 0.05, 0, 2, 0, 1, 0.0}, "rows: a box among the spheres, open"},
        };
        for (size_t c = 0; c < sizeof nc / sizeof nc[0]; c++) narrow_vs_all_pairs(&nc[c].d, 51 + c, nc[c].what);
#ifdef _OPENMP
        /* a scene above the threads' threshold (4,096 pairs): the rows cut among 2 and 3 threads
         * (so, and with each thread's records in its buffer) */
        int nt0 = omp_get_max_threads();
        for (int nt = 2; nt <= 3; nt++) {
            omp_set_num_threads(nt);
            char what[64];
            snprintf(what, sizeof what, "rows: equal spheres, periodic x y, %d threads", nt);
            scene_def d = {2500, 0.04, 0.045, 3, 1, 1, 0, 0.0};
            narrow_vs_all_pairs(&d, 61, what);
        }
        omp_set_num_threads(nt0);
#endif
    }
    /* more than 512 candidates around a sphere (lib/broadphase_spheres.c: SL_CAND, the
     * candidate buffer, emptied whenever it fills): 700 spheres of radius 0.05 with centers in
     * a cube of side 0.05, among 1,300 spread over the unit cube; the cell list still taken */
    {
        w = clab_world_create(NULL);
        clab_error err;
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(r, 73);
        for (int k = 0; k < 2000; k++) {
            clab_body_def d = clab_default_body_def();
            d.shape = clab_sphere(0.05);
            double a = k < 700 ? 0.05 : 1.0, o = k < 700 ? 0.5 : 0.0;
            d.r = clab_v3(o + a * gsl_rng_uniform(r), o + a * gsl_rng_uniform(r), o + a * gsl_rng_uniform(r));
            if (clab_world_add_body(w, &d, &err) < 0) exit(99);
        }
        gsl_rng_free(r);
        compare(w, "700 spheres in a cube of side 0.05 among 1,300 (more than 512 slots around a sphere)", 1, 1);
        clab_world_destroy(w);
    }
    /* a row longer than a block of the narrow phase (lib/narrow.c: NARROW_BLOCK, 512 pairs):
     * a sphere of radius 0.45 first, 3,000 of radius 0.04 in the unit cube around it (about
     * 1,500 partners in its row, the general path's rows), envelopes 0 and 0.02 */
    for (int e = 0; e < 2; e++) {
        w = clab_world_create(NULL);
        clab_error err;
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(r, 71);
        for (int k = 0; k <= 3000; k++) {
            clab_body_def d = clab_default_body_def();
            d.shape = clab_sphere(k ? 0.04 : 0.45);
            d.r = k ? clab_v3(gsl_rng_uniform(r), gsl_rng_uniform(r), gsl_rng_uniform(r)) : clab_v3(0.5, 0.5, 0.5);
            if (clab_world_add_body(w, &d, &err) < 0) exit(99);
        }
        gsl_rng_free(r);
        clab_collider *cd = clab_collider_create();
        size_t nrec = 0, row0 = 0;
        int ok = collide_vs_all_pairs(cd, w, e ? 0.02 : 0.0, &nrec);
        clab_contacts cs;
        clab_contacts_init(&cs);
        if (clab_collide(cd, w, e ? 0.02 : 0.0, &cs, &err) == CLAB_OK)
            for (size_t q = 0; q < cs.n; q++) row0 += cs.c[q].a == 0;
        tap_ok(ok && row0 > 512,
               "a row of more pairs than a block, envelope %g: clab_collide = all-pairs narrow phase, the same bytes "
               "(%zu records, %zu of them the big sphere's)",
               e ? 0.02 : 0.0, nrec, row0);
        clab_contacts_free(&cs);
        clab_collider_destroy(cd);
        clab_world_destroy(w);
    }
    /* clab_collide twice (the second call runs the skin test, which gathers the hot records)
     * on an empty world and on one sphere */
    for (int nb = 0; nb < 2; nb++) {
        w = clab_world_create(NULL);
        clab_error err;
        if (nb) {
            clab_body_def d = clab_default_body_def();
            if (clab_world_add_body(w, &d, &err) < 0) exit(99);
        }
        clab_collider *cd = clab_collider_create();
        clab_contacts cs;
        clab_contacts_init(&cs);
        int rc = clab_collide(cd, w, 0.0, &cs, &err) || clab_collide(cd, w, 0.0, &cs, &err);
        tap_ok(rc == 0 && cs.n == 0, "clab_collide on %s: no error, no contacts", nb ? "one sphere" : "an empty world");
        clab_contacts_free(&cs);
        clab_collider_destroy(cd);
        clab_world_destroy(w);
    }
    return tap_done();
}
