/* test_sort.c: renumbering the bodies (clab_world_permute), their cell order
 * (clab_world_cell_order) and the sort of a running simulation (clab_sim_sort, sim option
 * sort).
 *
 * The sort changes only the order of the bodies and so of the contacts. Each contact then
 * gives the same force to the bit, negated where its two bodies swap order: the gap, the
 * normal, the relative velocity and (penalty) the history delta_t or (DVI) the warm-start
 * impulse all change sign exactly (IEEE negation and x - y = -(y - x)). What changes is the
 * order in which a body's contact forces are summed, a rounding difference of a few ulps of
 * a force, which a dense pile then amplifies. So: the step right after a sort agrees with the
 * unsorted run to rounding (1e-12 of the largest velocity), and runs that sort every 40 steps
 * follow the unsorted one within 1e-12 m: measured 7e-18 m (penalty, 600 steps) and at most
 * 3e-17 m (DVI, 80 steps); the bound leaves room for other compilers' rounding, which the
 * pile's collisions amplify, and is 1e-11 of a radius, where a wrong mapping of the history
 * or the warm start moves the spheres by 4e-3 to 9e-3 m (measured with the negation left out). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "clab_checkpoint.h"
#include "clab_sim.h"
#include "history.h"
#include "pile.h"
#include "fixed_jacobi.h"
#include "tap.h"

#include <gsl/gsl_randist.h>

/* ---- clab_world_permute ---- */

static void test_permute(void)
{
    clab_error err;
    clab_world *w = clab_world_create(NULL);
    for (int i = 0; i < 5; i++) {
        clab_body_def d = clab_default_body_def();
        if (i != 2) snprintf(d.name, sizeof d.name, "b%d", i); /* body 2 unnamed: "body2" */
        d.r = clab_v3(i, 0, 0);
        clab_world_add_body(w, &d, &err);
    }
    clab_joint j = {CLAB_JOINT_DISTANCE, 1, 3, {0, 0, 0}, {0, 0, 0}, 2.0};
    clab_world_add_joint(w, &j, &err);
    clab_world *w0 = clab_world_clone(w);

    const size_t bad1[5] = {0, 1, 2, 3, 5}, bad2[5] = {0, 1, 1, 3, 4};
    int rc1 = clab_world_permute(w, bad1, &err);
    tap_ok(rc1 == CLAB_EINVAL && strstr(err.msg, "entry 4") && strstr(err.msg, "out of range"),
           "permute: index 5 of 5 bodies refused: %s", err.msg);
    int rc2 = clab_world_permute(w, bad2, &err);
    tap_ok(rc2 == CLAB_EINVAL && strstr(err.msg, "entry 2") && strstr(err.msg, "given twice"),
           "permute: index 1 twice refused: %s", err.msg);
    tap_ok(memcmp(w->bodies, w0->bodies, 5 * sizeof(clab_body)) == 0 && w->joints[0].a == 1 && w->joints[0].b == 3,
           "permute: a refused order leaves the world unchanged");

    const size_t perm[5] = {4, 2, 0, 3, 1}; /* new k = old perm[k] */
    int rc = clab_world_permute(w, perm, &err);
    int bodies = rc == CLAB_OK;
    for (int k = 0; k < 5; k++) bodies &= w->bodies[k].r.x == (double)perm[k];
    tap_ok(bodies, "permute: body k is old body perm[k] (centers 4 2 0 3 1)");
    tap_ok(clab_world_find_body(w, "b4") == 0 && clab_world_find_body(w, "body2") == 1 &&
               clab_world_find_body(w, "b0") == 2 && clab_world_find_body(w, "b1") == 4 &&
               strcmp(clab_world_body_name(w, 3), "b3") == 0,
           "permute: names go with their bodies (the unnamed body keeps \"body2\")");
    tap_ok(w->joints[0].a == 4 && w->joints[0].b == 3, "permute: joint (1, 3) becomes (4, 3): got (%d, %d)",
           w->joints[0].a, w->joints[0].b);
    clab_world_destroy(w);
    clab_world_destroy(w0);
}

/* ---- clab_world_cell_order ---- */

static uint64_t morton(clab_vec3 r, clab_vec3 lo, double cell)
{
    const double d[3] = {r.x - lo.x, r.y - lo.y, r.z - lo.z};
    uint64_t code = 0;
    for (int k = 0; k < 3; k++) {
        uint64_t c = (uint64_t)floor(d[k] / cell);
        for (int bit = 0; bit < 21; bit++) code |= ((c >> bit) & 1u) << (3 * bit + k);
    }
    return code;
}

static void test_cell_order(void)
{
    clab_error err;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    clab_world *w = clab_world_create(NULL);
    /* 300 spheres of radius 0.5 at random in [0, 10)^3, a box at index 150 and a plane at 0 */
    clab_body_def g = clab_default_body_def();
    g.shape = clab_plane();
    g.fixed = 1;
    g.r = clab_v3(0, 0, -1);
    clab_world_add_body(w, &g, &err);
    for (int i = 0; i < 300; i++) {
        clab_body_def d = clab_default_body_def();
        d.shape = i == 149 ? clab_box(0.5, 0.5, 0.5) : clab_sphere(0.5);
        d.r = clab_v3(pile_unif(r, 0, 10), pile_unif(r, 0, 10), pile_unif(r, 0, 10));
        clab_world_add_body(w, &d, &err);
    }
    gsl_rng_free(r);
    size_t n = w->nbodies, moved = 0, *perm = malloc(n * sizeof *perm);
    int rc = clab_world_cell_order(w, 0.0, perm, &moved, &err);
    tap_ok(rc == CLAB_OK && perm[0] == 0 && perm[150] == 150 && moved > 250,
           "cell order: the plane (0) and the box (150) keep their index, %zu of 300 spheres move", moved);
    int runs = 1;
    for (size_t k = 1; k < 150; k++) runs &= perm[k] >= 1 && perm[k] < 150;
    for (size_t k = 151; k < n; k++) runs &= perm[k] > 150;
    tap_ok(runs, "cell order: spheres stay in their run (1..149, 151..300): none passes the box");
    /* the Morton code of a cell of a sphere diameter (1 m) from the smallest center */
    /* the expected code, bit by bit (the library spreads the bits with masks): cells of a
     * sphere diameter (1 m) from the smallest sphere center on each axis */
    clab_vec3 lo = clab_v3(INFINITY, INFINITY, INFINITY);
    for (size_t i = 0; i < n; i++)
        if (w->bodies[i].shape.type == CLAB_SHAPE_SPHERE)
            lo = clab_v3(fmin(lo.x, w->bodies[i].r.x), fmin(lo.y, w->bodies[i].r.y), fmin(lo.z, w->bodies[i].r.z));
    int mono = 1;
    for (size_t k = 152; k < n; k++) {
        uint64_t ca = morton(w->bodies[perm[k - 1]].r, lo, 1.0), cb = morton(w->bodies[perm[k]].r, lo, 1.0);
        mono &= ca < cb || (ca == cb && perm[k - 1] < perm[k]);
    }
    tap_ok(mono, "cell order: the run 151..300 in increasing Morton code (bits interleaved x, y, z), ties by index");
    rc = clab_world_permute(w, perm, &err);
    size_t moved2 = 1;
    rc = rc ? rc : clab_world_cell_order(w, 0.0, perm, &moved2, &err);
    tap_ok(rc == CLAB_OK && moved2 == 0, "cell order: a world in cell order stays (%zu bodies would move)", moved2);
    /* a non-finite center goes last in its run, and nothing breaks */
    w->bodies[5].r.x = NAN;
    rc = clab_world_cell_order(w, 0.0, perm, NULL, &err);
    tap_ok(rc == CLAB_OK && perm[149] == 5, "cell order: a NaN center goes to the end of its run (slot 149: %zu)",
           perm[149]);
    rc = clab_world_cell_order(w, -1.0, perm, NULL, &err);
    tap_ok(rc == CLAB_OK, "cell order: cell <= 0 means automatic");
    free(perm);
    clab_world_destroy(w);
}

/* ---- clab_history_permute ---- */

static void test_history(void)
{
    clab_error err;
    enum { NB = 500, NC = 3000 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 3);
    /* a generation of NC distinct keys in increasing order, delta_t = (a, b, feature) */
    clab_history h;
    clab_history_init(&h);
    clab_history_begin(&h, NC, &err);
    size_t n = 0;
    for (int a = 0; a < NB && n < NC; a++)
        for (int b = a + 1; b < NB && n < NC; b += 1 + (int)gsl_rng_uniform_int(r, 40), n++)
            clab_history_put(&h, clab_contact_key(a, b, (unsigned)(a + b) % 7), clab_v3(a, b, (a + b) % 7));
    clab_history_end(&h);
    size_t inv[NB], perm[NB];
    for (size_t i = 0; i < NB; i++) perm[i] = i;
    gsl_ran_shuffle(r, perm, NB, sizeof *perm);
    for (size_t k = 0; k < NB; k++) inv[perm[k]] = k;
    gsl_rng_free(r);
    int rc = clab_history_permute(&h, inv, NB, &err);
    int inc = rc == CLAB_OK && h.n == n, match = inc, swaps = 0;
    for (size_t i = 1; i < h.n && inc; i++) inc = h.key[i - 1] < h.key[i];
    for (size_t i = 0; i < h.n && match; i++) { /* each entry: the old pair's vector, negated when swapped */
        size_t a = (size_t)(h.key[i] >> 38), b = (size_t)((h.key[i] >> 12) & 0x3ffffffu);
        size_t oa = perm[a], ob = perm[b];
        int sw = oa > ob;
        swaps += sw;
        double s = sw ? -1.0 : 1.0, lo = (double)(sw ? ob : oa), hi = (double)(sw ? oa : ob);
        match = h.delta_t[i].x == s * lo && h.delta_t[i].y == s * hi && (h.key[i] & 0xfffu) == (oa + ob) % 7;
    }
    tap_ok(inc, "history permute: %zu entries sorted by their new keys (in-place heap sort)", h.n);
    tap_ok(match && swaps > 0,
           "history permute: every entry keeps its vector, negated for the %d pairs whose bodies swap order", swaps);
    size_t bad[NB];
    for (size_t k = 0; k < NB; k++) bad[k] = k;
    rc = clab_history_permute(&h, bad, NB - 1, &err);
    tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "beyond"), "history permute: a key beyond the bodies refused: %s",
           err.msg);
    clab_history_free(&h);
}

/* ---- clab_sim_sort ---- */

static clab_sim *make_sim(clab_world *w, const char *backend, const char *sort, clab_error *err)
{
    clab_options o;
    clab_options_init(&o);
    if (sort) clab_options_set(&o, "sort", sort, NULL);
    if (strcmp(backend, "dvi") == 0) { /* a fixed number of Jacobi sweeps: the same work in both runs */
        fixed_jacobi_options(&o, "40");
    }
    clab_sim *s = clab_sim_create(w, backend, strcmp(backend, "dvi") ? 2e-5 : 1e-3, &o, err);
    clab_options_free(&o);
    return s;
}

/* largest |x_sorted - x| over the bodies matched by name: position [m] and velocity [m/s];
 * vscale: the largest speed */
static void compare(const clab_world *a, const clab_world *b, double *dr, double *dv, double *vscale)
{
    *dr = *dv = *vscale = 0.0;
    for (size_t i = 0; i < a->nbodies; i++) {
        int k = clab_world_find_body(b, clab_world_body_name(a, i));
        if (k < 0) {
            *dr = *dv = INFINITY;
            return;
        }
        const clab_body *p = &a->bodies[i], *q = &b->bodies[k];
        *dr = fmax(*dr, clab_v3_norm(clab_v3_sub(p->r, q->r)));
        *dv = fmax(*dv, clab_v3_norm(clab_v3_sub(p->rdot, q->rdot)));
        *dv = fmax(*dv, clab_v3_norm(clab_v3_sub(p->wbar, q->wbar)) * p->shape.radius);
        *vscale = fmax(*vscale, clab_v3_norm(p->rdot));
    }
}

/* how many of the world's current contacts (between bodies i < j by index) swap order under
 * the cell order */
static size_t swapped_pairs(clab_sim *s)
{
    clab_world *w = s->world;
    size_t n = w->nbodies, *perm = malloc(n * sizeof *perm), *inv = malloc(n * sizeof *inv), sw = 0;
    clab_error err;
    clab_world_cell_order(w, 0.0, perm, NULL, &err);
    for (size_t k = 0; k < n; k++) inv[perm[k]] = k;
    clab_contacts c;
    clab_contacts_init(&c);
    clab_collider *cd = clab_collider_create();
    clab_collide(cd, w, s->envelope, &c, &err);
    for (size_t i = 0; i < c.n; i++) sw += inv[c.c[i].a] > inv[c.c[i].b];
    clab_collider_destroy(cd);
    clab_contacts_free(&c);
    free(perm);
    free(inv);
    return sw;
}

static void test_sim(const char *backend, int warm, int steps, double tol_run)
{
    clab_error err;
    /* lock-step: two identical runs from the start (contacts carry a history, penalty, or a
     * warm start, DVI, by then), B sorted once at step `warm` */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    clab_world *wa = pile_world(r, 60, 0); /* spheres on a floor: one run of 60 */
    gsl_rng_free(r);
    if (!wa) exit(99);
    { /* built layer by layer upward; numbered downward instead, so that the cell order
       * (upward in z, the slowest axis of the Morton code over the pile's few cells in x, y)
       * swaps most touching pairs */
        size_t n = wa->nbodies, *rev = malloc(n * sizeof *rev);
        rev[0] = 0; /* the floor */
        for (size_t k = 1; k < n; k++) rev[k] = n - k;
        if (clab_world_permute(wa, rev, &err)) exit(99);
        free(rev);
    }
    clab_world *wb = clab_world_clone(wa);
    clab_sim *sa = make_sim(wa, backend, NULL, &err), *sb = make_sim(wb, backend, NULL, &err);
    int rc = sa && sb ? CLAB_OK : CLAB_EINVAL;
    for (int k = 0; k < warm && !rc; k++) {
        rc = clab_sim_step(sa, &err);
        if (!rc) rc = clab_sim_step(sb, &err);
    }
    int same_before = !rc && memcmp(wa->bodies, wb->bodies, wa->nbodies * sizeof(clab_body)) == 0;
    size_t sw = rc ? 0 : swapped_pairs(sb);
    if (!rc) rc = clab_sim_sort(sb, &err);
    tap_ok(!rc && same_before && sb->sorts == 1,
           "%s: a 60-sphere pile after %d steps sorted (%zu of its contacts swap their bodies' order) (%s)", backend,
           warm, sw, rc ? err.msg : "ok");
    tap_ok(sw >= 10, "%s: the sort swaps the order of at least 10 touching pairs (%zu), so the mapping is exercised",
           backend, sw);
    if (!rc) rc = clab_sim_step(sa, &err);
    if (!rc) rc = clab_sim_step(sb, &err);
    double dr, dv, vs;
    compare(wa, wb, &dr, &dv, &vs);
    tap_ok(!rc && dr <= 1e-15 && dv <= 1e-12 * vs,
           "%s: the step after the sort as without it, to rounding: max |dr| %.3g m (tol 1e-15), max |dv| %.3g m/s "
           "(tol 1e-12 x %.3g m/s)",
           backend, dr, dv, vs);
    /* then the run with a sort every 40 steps against the plain run */
    sb->sort_every = 40;
    for (int k = 0; k < steps && !rc; k++) {
        rc = clab_sim_step(sa, &err);
        if (!rc) rc = clab_sim_step(sb, &err);
    }
    compare(wa, wb, &dr, &dv, &vs);
    tap_ok(!rc && dr <= tol_run && sb->sorts > 1,
           "%s: %d more steps sorting every 40 (%zu sorts) follow the unsorted run: max |dr| %.3g m <= %.3g m "
           "(rounding differences grown by the pile's collisions)",
           backend, steps, sb->sorts, dr, tol_run);
    clab_sim_destroy(sa);
    clab_sim_destroy(sb);
    clab_world_destroy(wa);
    clab_world_destroy(wb);
}

/* A checkpoint of a run that sorts (clab_checkpoint.h, version 3): written after sorts that
 * moved bodies, read into the scene freshly built (the order of adding) and into one
 * numbered otherwise, each continues as the run itself does, bit for bit (the same bodies
 * at the same indices: memcmp); the scene's fingerprint does not change with the sort. */
static void test_checkpoint(const char *backend, int before, int after)
{
    clab_error err;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    clab_world *w0 = pile_world(r, 60, 0); /* the scene as built: the order of adding */
    gsl_rng_free(r);
    if (!w0) exit(99);
    const size_t n = w0->nbodies;
    const uint32_t fp0 = clab_checkpoint_scene_fingerprint(w0);
    clab_world *wa = clab_world_clone(w0), *wf = clab_world_clone(w0), *wr = clab_world_clone(w0);
    size_t *rev = malloc(n * sizeof *rev), *order = malloc(n * sizeof *order);
    rev[0] = 0; /* the floor; the spheres numbered the other way round */
    for (size_t k = 1; k < n; k++) rev[k] = n - k;
    if (!wa || !wf || !wr || clab_world_permute(wr, rev, &err)) exit(99);
    clab_sim *sa = make_sim(wa, backend, "25", &err), *sf = make_sim(wf, backend, "25", &err),
             *sr = make_sim(wr, backend, "25", &err);
    int rc = sa && sf && sr ? CLAB_OK : CLAB_EINVAL;
    for (int k = 0; k < before && !rc; k++) rc = clab_sim_step(sa, &err);
    int sorted = !rc && clab_world_add_order(wa, order, &err) == 0;
    tap_ok(!rc && sa->sorts >= 2 && sorted,
           "%s: after %d steps sorting every 25 (%zu sorts that moved bodies) the bodies are not in the order of adding",
           backend, before, sa->sorts);
    tap_ok(clab_checkpoint_scene_fingerprint(wa) == fp0 && clab_checkpoint_scene_fingerprint(wr) == fp0,
           "%s: the scene's fingerprint is the same sorted, numbered the other way round and as built (0x%08x)",
           backend, (unsigned)fp0);
    clab_checkpoint_image img;
    clab_checkpoint_image_init(&img);
    if (!rc) rc = clab_checkpoint_encode(sa, NULL, &img, &err);
    int rf = rc ? rc : clab_checkpoint_decode(sf, img.data, img.len, "sorted.ckpt", NULL, &err);
    tap_ok(!rf, "%s: the sorted run's checkpoint read into the scene as built (%s)", backend, rf ? err.msg : "ok");
    int rr = rc ? rc : clab_checkpoint_decode(sr, img.data, img.len, "sorted.ckpt", NULL, &err);
    tap_ok(!rr, "%s: and into the scene numbered the other way round (%s)", backend, rr ? err.msg : "ok");
    int same_f = !rf && memcmp(wa->bodies, wf->bodies, n * sizeof(clab_body)) == 0;
    int same_r = !rr && memcmp(wa->bodies, wr->bodies, n * sizeof(clab_body)) == 0;
    tap_ok(same_f && same_r, "%s: both restored worlds hold the run's bodies at the run's indices (memcmp)", backend);
    for (int k = 0; k < after && !rc && !rf && !rr; k++) {
        rc = clab_sim_step(sa, &err);
        if (!rc) rc = clab_sim_step(sf, &err);
        if (!rc) rc = clab_sim_step(sr, &err);
    }
    same_f = !rc && !rf && memcmp(wa->bodies, wf->bodies, n * sizeof(clab_body)) == 0;
    same_r = !rc && !rr && memcmp(wa->bodies, wr->bodies, n * sizeof(clab_body)) == 0;
    tap_ok(same_f && same_r,
           "%s: %d more steps (sorting on) after each restart = the run itself, bit for bit (memcmp; %s)", backend,
           after, rc ? err.msg : "ok");
    clab_checkpoint_image_free(&img);
    clab_sim_destroy(sa);
    clab_sim_destroy(sf);
    clab_sim_destroy(sr);
    clab_world_destroy(w0);
    clab_world_destroy(wa);
    clab_world_destroy(wf);
    clab_world_destroy(wr);
    free(rev);
    free(order);
}

static void test_options(void)
{
    clab_error err;
    clab_world *w = clab_world_create(NULL);
    clab_sim *s = make_sim(w, "penalty", "-3", &err);
    tap_ok(!s && strstr(err.msg, "sort"), "option sort=-3 refused, naming it: %s", err.msg);
    s = make_sim(w, "penalty", "often", &err);
    tap_ok(!s && strstr(err.msg, "sort"), "option sort=often refused, naming it: %s", err.msg);
    s = make_sim(w, "penalty", "1000", &err);
    clab_options m;
    clab_options_init(&m);
    if (s) clab_sim_meta(s, &m);
    const char *v = s ? clab_options_get(&m, "sort_steps") : NULL;
    tap_ok(s && s->sort_every == 1000 && v && strcmp(v, "1000") == 0, "option sort=1000 read and in the metadata");
    /* clab_sim_sort_due: before step 0 and every 1000 steps, not again once done at that step */
    if (s) {
        int due0 = clab_sim_sort_due(s);
        int rc0 = clab_sim_sort(s, &err);
        int due1 = clab_sim_sort_due(s);
        w->step = 999;
        int due999 = clab_sim_sort_due(s);
        w->step = 2000;
        int due2000 = clab_sim_sort_due(s);
        w->step = 0;
        tap_ok(due0 && rc0 == CLAB_OK && !due1 && !due999 && due2000,
               "sort due before step 0 (%d), not after the sort at that step (%d), not at 999 (%d), at 2000 (%d)", due0,
               due1, due999, due2000);
    }
    /* a backend without permute: the sort is refused, nothing changes */
    if (s) {
        clab_backend_type t = *s->type;
        t.permute = NULL;
        const clab_backend_type *keep = s->type;
        s->type = &t;
        int rc = clab_sim_sort(s, &err);
        tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "cannot renumber"), "a backend without permute: %s", err.msg);
        s->type = keep;
    }
    clab_options_free(&m);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

int main(void)
{
    test_permute();
    test_cell_order();
    test_options();
    test_history();
    test_sim("penalty", 300, 600, 1e-12);
    test_sim("dvi", 20, 80, 1e-12);
    test_checkpoint("penalty", 200, 100);
    test_checkpoint("dvi", 60, 30);
    return tap_done();
}
