/* test_backends.c: the contract of a backend (doc/design.md, "The backend contract"), checked for every
 * backend clab_backend_all() lists, present and future, through the public API (clab_sim_*,
 * clab_checkpoint_*), each with its default options and h = 1e-4 s:
 *   - a sphere (m = 1 kg, R = 0.05 m) resting on a fixed plane under g = 9.81 m/s^2: after
 *     0.5 s the contact force is F_n = m g [N] in the frame (n, u, w) of the contact (n from the
 *     plane to the sphere, F_n > 0 pushing them apart), within 1e-3 relative: the penalty
 *     spring's oscillation has decayed far below it by then (cor 0.5: the amplitude falls by
 *     about 1/2 a period of about 2 ms), and an iterative solver stops within its tolerance
 *     (1e-6 and below); the tangential force is below 1e-6 m g (nothing pushes sideways);
 *   - a box sliding on the plane (mu = 0.3, gravity tilted past the friction angle): the
 *     tangential force, in newtons along u and w, points against the sliding and has the size
 *     mu F_n of Coulomb's law (within 2 %: the solver's tolerance; the penalty cap is exact);
 *   - stats callable, meta writes the backend's name and keys of its own;
 *   - a checkpoint (clab_checkpoint_encode, decode into a fresh sim) gives the same next steps
 *     to the bit as the run that wrote it;
 *   - permute (when the type has one): two spheres in contact renumbered mid-run by
 *     clab_sim_sort follow the same motion as without the renumbering, within 1e-12 m and
 *     1e-9 m/s (the reversed normal changes the contact frame, so rounding may differ);
 *   - determinism: two runs give the same bits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "add_body.h"
#include "clab_checkpoint.h"
#include "clab_sim.h"
#include "tap.h"

#define H 1e-4
#define G 9.81

static clab_world *world_g(double g)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0.0, 0.0, -g);
    return clab_world_create(&wd);
}

static clab_sim *sim(clab_world *w, const clab_backend_type *type)
{
    clab_error err;
    clab_sim *s = clab_sim_create(w, type->name, H, NULL, &err);
    if (!s) tap_diag("%s: create: %s", type->name, err.msg);
    return s;
}

static int steps(clab_sim *s, int n)
{
    clab_error err;
    for (int k = 0; k < n; k++)
        if (clab_sim_step(s, &err)) {
            tap_diag("%s: step %d: %s", s->type->name, k, err.msg);
            return 0;
        }
    return 1;
}

/* the sum of the contact forces (F_n, F_u, F_w) and of the tangential force in the world */
static void force_sums(const clab_sim *s, double *Fn, clab_vec3 *Ft_world, double *Ft_frame)
{
    const size_t n = s->contacts.n;
    clab_vec3 *f = malloc((n ? n : 1) * sizeof *f);
    clab_sim_forces(s, f);
    *Fn = *Ft_frame = 0.0;
    *Ft_world = clab_v3(0.0, 0.0, 0.0);
    for (size_t i = 0; i < n; i++) {
        clab_vec3 u, w;
        clab_contact_frame(&s->contacts.c[i], &u, &w);
        *Fn += f[i].x;
        *Ft_world = clab_v3_add(*Ft_world, clab_v3_add(clab_v3_scale(u, f[i].y), clab_v3_scale(w, f[i].z)));
        *Ft_frame += hypot(f[i].y, f[i].z);
    }
    free(f);
}

static void resting_sphere(const clab_backend_type *type)
{
    clab_world *w = world_g(G);
    add(w, clab_plane(), clab_v3(0.0, 0.0, 0.0), clab_q_identity(), 1);
    add(w, clab_sphere(0.05), clab_v3(0.0, 0.0, 0.05), clab_q_identity(), 0);
    clab_sim *s = sim(w, type);
    int ok = s && steps(s, 5000) && s->contacts.n >= 1;
    double Fn = 0.0, Ftf = 0.0;
    clab_vec3 Ft;
    if (ok) force_sums(s, &Fn, &Ft, &Ftf);
    const double mg = w->bodies[1].m * G;
    tap_ok(ok && s->contacts.c[0].n.z > 0.0 && Fn > 0.0 && fabs(Fn - mg) <= 1e-3 * mg,
           "%s: resting sphere, sum of F_n = %.9g N = m g = %.9g N within 1e-3, n from the plane up", type->name, Fn,
           mg);
    tap_ok(ok && Ftf <= 1e-6 * mg, "%s: resting sphere, tangential force %.3g N <= 1e-6 m g", type->name, Ftf);
    /* stats and meta */
    clab_solver_stats st;
    memset(&st, 0xff, sizeof st);
    if (ok) s->type->stats(s->self, &st);
    tap_ok(ok && st.solves >= 0 && st.iterations >= 0 && st.total_iterations >= 0,
           "%s: stats callable (solves %ld, iterations %ld)", type->name, ok ? st.solves : 0L,
           ok ? st.iterations : 0L);
    clab_options m;
    clab_options_init(&m);
    if (ok) clab_sim_meta(s, &m);
    const char *b = ok ? clab_options_get(&m, "backend") : NULL;
    tap_ok(ok && b && strcmp(b, type->name) == 0 && m.n > 5, "%s: meta writes %zu keys, backend = %s", type->name,
           m.n, b ? b : "(none)");
    clab_options_free(&m);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

static void sliding_box(const clab_backend_type *type)
{
    /* gravity tilted past the friction angle: g_x = 3.5 > mu g_z = 2.94 m/s^2, the box slides
     * along +x from rest, slowly (a CCP lifts a body sliding at speed v by about mu v) */
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(3.5, 0.0, -G);
    clab_world *w = clab_world_create(&wd);
    const double mu = 0.3;
    w->materials[0].mu = mu;
    add(w, clab_plane(), clab_v3(0.0, 0.0, 0.0), clab_q_identity(), 1);
    const int k = add(w, clab_box(0.1, 0.1, 0.05), clab_v3(0.0, 0.0, 0.05), clab_q_identity(), 0);
    clab_sim *s = sim(w, type);
    int ok = s && steps(s, 1000) && w->bodies[k].rdot.x > 0.0;
    double Fn = 0.0, Ftf = 0.0;
    clab_vec3 Ft = clab_v3(0.0, 0.0, 0.0);
    if (ok) force_sums(s, &Fn, &Ft, &Ftf);
    tap_ok(ok && Fn > 0.0 && Ft.x < 0.0 && fabs(-Ft.x - mu * Fn) <= 0.02 * mu * Fn && fabs(Ft.y) <= 1e-6 * Fn &&
               fabs(Ft.z) <= 1e-6 * Fn,
           "%s: sliding box (%zu contacts), tangential force (%.6g, %.3g, %.3g) N against the motion, |F_t| = mu F_n "
           "= %.6g N within 2 %%",
           type->name, ok ? s->contacts.n : 0, Ft.x, Ft.y, Ft.z, mu * Fn);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* three spheres on a plane with random-looking velocities and spins */
static clab_world *small_pile(void)
{
    clab_world *w = world_g(G);
    w->materials[0].mu = 0.4;
    add(w, clab_plane(), clab_v3(0.0, 0.0, 0.0), clab_q_identity(), 1);
    for (int i = 0; i < 3; i++) {
        const int k = add(w, clab_sphere(0.05), clab_v3(0.02 * i, 0.01 * i, 0.0499 + 0.0995 * i), clab_q_identity(), 0);
        w->bodies[k].rdot = clab_v3(0.1 * i - 0.1, 0.05, -0.2);
        w->bodies[k].wbar = clab_v3(1.0, -2.0 * i, 0.5);
    }
    return w;
}

static void checkpoint_and_determinism(const clab_backend_type *type)
{
    clab_error err;
    clab_world *w1 = small_pile(), *w2 = small_pile(), *w3 = small_pile();
    clab_sim *s1 = sim(w1, type), *s2 = sim(w2, type), *s3 = sim(w3, type);
    int ok = s1 && s2 && s3 && steps(s1, 300) && steps(s2, 300);
    tap_ok(ok && memcmp(w1->bodies, w2->bodies, w1->nbodies * sizeof(clab_body)) == 0,
           "%s: determinism, two runs of 300 steps bit for bit", type->name);
    clab_checkpoint_image img;
    clab_checkpoint_image_init(&img);
    ok = ok && clab_checkpoint_encode(s1, NULL, &img, &err) == CLAB_OK &&
         clab_checkpoint_decode(s3, img.data, img.len, "memory", NULL, &err) == CLAB_OK;
    if (!ok) tap_diag("%s: checkpoint: %s", type->name, err.msg);
    ok = ok && steps(s1, 100) && steps(s3, 100);
    tap_ok(ok && memcmp(w1->bodies, w3->bodies, w1->nbodies * sizeof(clab_body)) == 0 && w1->step == w3->step,
           "%s: checkpoint at step 300 decoded into a fresh sim: the next 100 steps bit for bit", type->name);
    clab_checkpoint_image_free(&img);
    clab_sim_destroy(s1);
    clab_sim_destroy(s2);
    clab_sim_destroy(s3);
    clab_world_destroy(w1);
    clab_world_destroy(w2);
    clab_world_destroy(w3);
}

/* two spheres, no gravity, colliding obliquely with spin; body 0 on the right so that the
 * cell order renumbers them */
static clab_world *two_spheres(void)
{
    clab_world *w = world_g(0.0);
    w->materials[0].mu = 0.5;
    const int a = add(w, clab_sphere(0.05), clab_v3(0.3, 0.0, 0.0), clab_q_identity(), 0);
    const int b = add(w, clab_sphere(0.05), clab_v3(0.0, 0.02, 0.01), clab_q_identity(), 0);
    w->bodies[a].rdot = clab_v3(-0.5, 0.0, 0.0);
    w->bodies[a].wbar = clab_v3(0.0, 0.0, 3.0);
    w->bodies[b].rdot = clab_v3(0.5, 0.0, 0.0);
    return w;
}

static void permute(const clab_backend_type *type)
{
    if (!type->permute) {
        tap_ok(1, "%s: no permute (clab_sim_sort refuses): skipped", type->name);
        return;
    }
    clab_error err;
    clab_world *w1 = two_spheres(), *w2 = two_spheres();
    clab_sim *s1 = sim(w1, type), *s2 = sim(w2, type);
    /* into contact (they meet after about 0.2 s), then renumber s2's bodies */
    int ok = s1 && s2 && steps(s1, 2050) && steps(s2, 2050) && s1->contacts.n == 1;
    if (ok) s2->sort_cell = 0.02; /* the two centers 0.1 m apart along x: five cells */
    ok = ok && clab_sim_sort(s2, &err) == CLAB_OK;
    const int swapped = ok && s2->sorts == 1 && w2->bodies[0].r.x == w1->bodies[1].r.x;
    ok = ok && swapped && steps(s1, 1000) && steps(s2, 1000);
    double dr = 0.0, dv = 0.0;
    for (size_t i = 0; ok && i < 2; i++) {
        const clab_body *x = &w1->bodies[i], *y = &w2->bodies[1 - i];
        dr = fmax(dr, clab_v3_norm(clab_v3_sub(x->r, y->r)));
        dv = fmax(dv, clab_v3_norm(clab_v3_sub(x->rdot, y->rdot)));
        dv = fmax(dv, clab_v3_norm(clab_v3_sub(clab_body_omega_world(x), clab_body_omega_world(y))));
    }
    tap_ok(ok && dr <= 1e-12 && dv <= 1e-9,
           "%s: two spheres in contact renumbered (swapped: %d): the same motion, |dr| %.2g m, |dv| %.2g m/s",
           type->name, swapped, dr, dv);
    clab_sim_destroy(s1);
    clab_sim_destroy(s2);
    clab_world_destroy(w1);
    clab_world_destroy(w2);
}

int main(void)
{
    const clab_backend_type *const *all = clab_backend_all();
    size_t n = 0;
    for (; all[n]; n++) {
        resting_sphere(all[n]);
        sliding_box(all[n]);
        checkpoint_and_determinism(all[n]);
        permute(all[n]);
    }
    tap_ok(n >= 2, "%zu backends registered", n);
    return tap_done();
}
