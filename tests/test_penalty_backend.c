/* test_penalty_backend: the penalty backend through the backend interface: options and
 * errors (each bad parameter named), joints refused, metadata naming the model, forces in
 * newtons in the contact frame, the stable-step estimate, both integrators, rolling
 * resistance, checkpoint/restart of the history, and step_wrap (the periodic wrap and the
 * state screen in the body loop) against step + clab_world_wrap + clab_world_check_state.
 * Expected values: free fall z(t) (exact for Verlet with a constant force; Euler's offset
 * g h t/2), static equilibria (sum of forces = m g), the rolling-resistance deceleration
 * a = 5/7 g mu_roll/R of a solid sphere (J = 2/5 m R^2), stated where used. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clab_backend_fast.h"
#include "clab_backends.h"
#include "clab_sim.h"
#include "contact_scene.h"
#include "tap.h"

static const double g = 9.81;

static clab_world *make_world(void)
{
    clab_world *w = clab_world_create(NULL);
    add_plane(w, clab_q_identity());
    return w;
}

/* a sphere of water's density (1000 kg/m^3) */
static int add_ball(clab_world *w, double R, clab_vec3 r, clab_vec3 v, clab_vec3 omega)
{
    return add_sphere(w, R, 1000.0, r, v, omega);
}

/* sim with options given as "k=v" strings; NULL with err filled on failure */
static clab_sim *make_sim(clab_world *w, double h, const char *const *opts, clab_error *err)
{
    clab_options o;
    clab_options_init(&o);
    for (int i = 0; opts && opts[i]; i++) clab_options_parse(&o, opts[i], "test", err);
    clab_sim *s = clab_sim_create(w, "penalty", h, &o, err);
    clab_options_free(&o);
    return s;
}

/* creating fails, and the message contains every word of want */
static void expect_error(clab_world *w, const char *const *opts, const char *want1, const char *want2, const char *what)
{
    clab_error err;
    clab_error_clear(&err);
    clab_sim *s = make_sim(w, 1e-4, opts, &err);
    int ok = s == NULL && err.status != CLAB_OK && strstr(err.msg, want1) && (!want2 || strstr(err.msg, want2));
    tap_ok(ok, "%s: refused with \"%s\"", what, err.msg);
    clab_sim_destroy(s);
}

static void options_and_errors(void)
{
    tap_ok(clab_backend_lookup("penalty") == &clab_backend_penalty, "registered under the name 'penalty'");
    tap_ok(clab_backend_penalty.default_envelope == 0.0, "contacts only while the bodies overlap (envelope 0)");
    clab_world *w = make_world();
    add_ball(w, 0.1, clab_v3(0, 0, 0.1), clab_v3(0, 0, 0), clab_v3(0, 0, 0));

    const char *const o1[] = {"model=hertzian", NULL};
    expect_error(w, o1, "model", "hooke, hertz", "unknown model");
    const char *const o2[] = {"kn=0", NULL};
    expect_error(w, o2, "kn = 0", "normal stiffness must be > 0", "kn = 0");
    const char *const o3[] = {"kt=-5", NULL};
    expect_error(w, o3, "kt = -5", "tangential stiffness", "negative kt");
    const char *const o4[] = {"gn=-1", NULL};
    expect_error(w, o4, "gn = -1", ">= 0", "negative gn");
    const char *const o5[] = {"vchar=0", NULL};
    expect_error(w, o5, "vchar", "> 0", "vchar = 0");
    const char *const o6[] = {"stiffness=3", NULL};
    expect_error(w, o6, "unknown option 'stiffness'", NULL, "misspelt option");
    const char *const o7[] = {"kn=abc", NULL};
    expect_error(w, o7, "kn", "not a finite number", "kn not a number");
    const char *const o8[] = {"integrator=rk4", NULL};
    expect_error(w, o8, "integrator", "euler, verlet", "unknown integrator");

    /* bad materials and bodies, changed behind the world's back (the backend checks again) */
    struct { double *field; double bad; const char *name; } cases[] = {
        {&w->materials[0].E, 0.0, "Young's modulus"},      {&w->materials[0].E, -2e8, "Young's modulus"},
        {&w->materials[0].nu, 0.5, "Poisson ratio"},       {&w->materials[0].nu, -1.0, "Poisson ratio"},
        {&w->materials[0].cor, 0.0, "restitution"},        {&w->materials[0].cor, 1.2, "restitution"},
        {&w->materials[0].mu, -0.1, "friction"},           {&w->materials[0].kn, -1.0, "kn"},
        {&w->bodies[1].m, 0.0, "mass"},                    {&w->bodies[1].m, -1.0, "mass"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double keep = *cases[i].field;
        *cases[i].field = cases[i].bad;
        char what[96];
        snprintf(what, sizeof what, "%s = %g", cases[i].name, cases[i].bad);
        expect_error(w, NULL, cases[i].name, NULL, what);
        *cases[i].field = keep;
    }

    /* joints: refused at create, and at a step when added later */
    clab_error err;
    clab_sim *s = make_sim(w, 1e-4, NULL, &err);
    tap_ok(s != NULL, "a valid world is accepted");
    add_ball(w, 0.1, clab_v3(1, 0, 0.1), clab_v3(0, 0, 0), clab_v3(0, 0, 0));
    clab_joint j = {CLAB_JOINT_DISTANCE, 1, 2, {0, 0, 0}, {0, 0, 0}, 1.0};
    clab_world_add_joint(w, &j, &err);
    int rc = clab_sim_step(s, &err);
    tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "joint"), "a joint added later stops the step: \"%s\"", err.msg);
    clab_sim_destroy(s);
    expect_error(w, NULL, "joint", "dvi", "a world with a joint");
    clab_world_destroy(w);
}

/* every parameter and the model in the metadata, no value cut short */
static void metadata(void)
{
    clab_world *w = make_world();
    add_ball(w, 0.1, clab_v3(0, 0, 0.1), clab_v3(0, 0, 0), clab_v3(0, 0, 0));
    clab_error err;
    const char *const opts[] = {"model=hooke", "kn=2e5", "gn=50", "gt=0", "integrator=verlet", NULL};
    clab_sim *s = make_sim(w, 1e-4, opts, &err);
    clab_options m;
    clab_options_init(&m);
    clab_sim_meta(s, &m);
    const char *want[][2] = {{"backend", "penalty"}, {"model", "hooke"},   {"integrator", "verlet"}, {"cap", "cone"},
                             {"clamp", "off"},       {"rolling", "off"},   {"kn", "200000"},         {"kt", "material"},
                             {"gn", "50"},           {"gt", "0"},          {"vchar", "1"}};
    int ok = 1;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *v = clab_options_get(&m, want[i][0]);
        if (!v || strcmp(v, want[i][1]) != 0) {
            tap_diag("meta %s = %s, want %s", want[i][0], v ? v : "(absent)", want[i][1]);
            ok = 0;
        }
    }
    tap_ok(ok, "metadata holds every option as given back (model=hooke, kn, gn, gt, integrator, ...)");
    const char *law = clab_options_get(&m, "penalty_normal_force");
    tap_ok(law && strstr(law, "16/15"), "metadata states the normal force law: %s", law ? law : "(absent)");
    const char *pair = clab_options_get(&m, "pair.default.default");
    tap_ok(pair && strstr(pair, "mu=0.5") && strstr(pair, "cor=0.5"), "metadata lists the material pair: %s",
           pair ? pair : "(absent)");
    int fits = 1;
    for (size_t i = 0; i < m.n; i++) fits &= strlen(m.o[i].val) < CLAB_OPT_LEN - 1;
    tap_ok(fits && clab_options_get(&m, "stable_step_s"), "every metadata value fits (%zu keys) and the stable step "
                                                          "is among them",
           m.n);
    clab_options_free(&m);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* free fall: Verlet is exact for a constant force, Euler is off by g h t/2 */
static void integrators(void)
{
    const double h = 1e-3;
    const int n = 500;
    const char *names[2] = {"integrator=euler", "integrator=verlet"};
    for (int k = 0; k < 2; k++) {
        clab_world *w = make_world();
        add_ball(w, 0.1, clab_v3(0, 0, 10.0), clab_v3(1.0, 0, 0), clab_v3(0, 0, 0));
        clab_error err;
        const char *const opts[] = {names[k], NULL};
        clab_sim *s = make_sim(w, h, opts, &err);
        for (int i = 0; i < n; i++) clab_sim_step(s, &err);
        double t = n * h, z = w->bodies[1].r.z;
        if (k == 0)
            tap_close(z, 10.0 - 0.5 * g * t * t - 0.5 * g * h * t, 1e-12,
                      "euler free fall: z = z0 - g t^2/2 - g h t/2 (semi-implicit Euler, exact for constant g)");
        else
            tap_close(z, 10.0 - 0.5 * g * t * t, 1e-12, "verlet free fall: z = z0 - g t^2/2 exactly");
        tap_close(w->bodies[1].r.x, 1.0 * t, 1e-12, "free flight: x = v t");
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }

    /* both integrators give the same Hooke restitution to O(h) */
    double e[2];
    for (int k = 0; k < 2; k++) {
        clab_world *w = make_world();
        w->gravity = clab_v3(0, 0, 0);
        w->materials[0].cor = 0.5;
        add_ball(w, 0.1, clab_v3(0, 0, 0.1 + 1e-6), clab_v3(0, 0, -1.0), clab_v3(0, 0, 0));
        clab_error err;
        const char *const opts[] = {names[k], "model=hooke", "kn=1e6", NULL};
        double m = w->bodies[1].m, Tc = M_PI * sqrt(m / 1e6);
        clab_sim *s = make_sim(w, Tc / 1000, opts, &err);
        while (w->bodies[1].r.z < 0.1 + 1e-3) clab_sim_step(s, &err);
        e[k] = w->bodies[1].rdot.z;
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }
    tap_rel(e[0], 0.5, 0.005, "euler: Hooke restitution = cor (0.5%, h = T_c/1000)");
    tap_rel(e[1], 0.5, 0.005, "verlet: Hooke restitution = cor (0.5%, h = T_c/1000)");
}

/* the stable-step estimate: T_c/10 for Hooke; stable there, unstable at ten times it */
static void stable_step(void)
{
    double E[2];
    double est = 0.0;
    for (int k = 0; k < 2; k++) {
        clab_world *w = make_world();
        w->gravity = clab_v3(0, 0, 0);
        w->materials[0].cor = 1.0;
        add_ball(w, 0.1, clab_v3(0, 0, 0.1), clab_v3(0, 0, -1.0), clab_v3(0, 0, 0));
        add_ball(w, 0.1, clab_v3(0, 0, 0.4), clab_v3(0, 0, 0), clab_v3(0, 0, 0)); /* bounces between */
        w->bodies[2].fixed = 1;
        clab_error err;
        const char *const opts[] = {"model=hooke", "kn=1e6", NULL};
        clab_sim *s = make_sim(w, 1e-5, opts, &err);
        est = s->type->stable_step(s->self, w);
        double m = w->bodies[1].m;
        if (k == 0) tap_rel(est, M_PI * sqrt(m / 1e6) / 10.0, 1e-12, "stable step = T_c/10, T_c = pi sqrt(m_eff/k_n)");
        clab_sim_destroy(s);
        /* 100 collisions at h = estimate (k = 0) or 10 x estimate (k = 1), no damping */
        s = make_sim(w, k == 0 ? est : 10.0 * est, opts, &err);
        double E0 = clab_world_kinetic_energy(w);
        int rc = 0;
        for (int i = 0; i < 20000 && !rc; i++) rc = clab_sim_step(s, &err);
        E[k] = rc ? INFINITY : clab_world_kinetic_energy(w) / E0;
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }
    tap_ok(fabs(E[0] - 1.0) < 0.05, "h = stable step: undamped bouncing keeps its energy (ratio %.4f after 20000 steps)",
           E[0]);
    tap_ok(!(E[1] < 2.0), "h = 10 x stable step (about T_c): the explicit scheme blows up (energy ratio %g)", E[1]);
}

/* forces in newtons, in the contact frame: a box at rest on an incline */
static void forces_in_frame(void)
{
    clab_world *w = clab_world_create(NULL);
    double th = 0.3;
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    d.e = clab_q_axis_angle(clab_v3(0, 1, 0), th);
    clab_world_add_body(w, &d, NULL);
    w->materials[0].mu = 0.8; /* > tan 0.3: the box sticks */
    clab_vec3 n = clab_q_rotate(d.e, clab_v3(0, 0, 1));
    clab_body_def b = clab_default_body_def();
    b.shape = clab_box(0.05, 0.05, 0.05);
    b.e = d.e;
    b.density = 1000.0;
    double m = 1.0, kn = 1e6;
    b.r = clab_v3_scale(n, 0.05 - m * g * cos(th) / (4 * kn));
    clab_world_add_body(w, &b, NULL);
    clab_error err;
    const char *const opts[] = {"model=hooke", "kn=1e6", NULL};
    clab_sim *s = make_sim(w, 1e-5, opts, &err);
    for (int i = 0; i < 30000; i++) clab_sim_step(s, &err);
    clab_vec3 f[8], sum = clab_v3(0, 0, 0);
    size_t nc = s->contacts.n;
    clab_sim_forces(s, f);
    for (size_t i = 0; i < nc && i < 8; i++) {
        const clab_contact *c = &s->contacts.c[i];
        clab_vec3 tu, tw;
        clab_contact_frame(c, &tu, &tw);
        clab_vec3 Fb = clab_v3_add(clab_v3_scale(c->n, f[i].x), clab_v3_add(clab_v3_scale(tu, f[i].y),
                                                                             clab_v3_scale(tw, f[i].z)));
        sum = clab_v3_add(sum, Fb);
    }
    /* at rest: the contact forces on the box (body b) carry its weight, F = -m g_vec */
    tap_ok(nc == 4, "box at rest on an incline: 4 contacts");
    tap_close(clab_v3_norm(clab_v3_sub(sum, clab_v3(0, 0, m * g))), 0.0, 1e-6 * m * g,
              "sum of (F_n n + F_u u + F_w w) [N] on the box = m g upward (1e-6 relative)");
    double Fn = 0;
    for (size_t i = 0; i < nc && i < 8; i++) Fn += f[i].x;
    tap_rel(Fn, m * g * cos(th), 1e-6, "sum of F_n = m g cos theta (1e-6): F_n > 0 pushes apart, in newtons");
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* rolling resistance: a rolling solid sphere decelerates at 5/7 g mu_roll/R and stops */
static void rolling_resistance(void)
{
    const double R = 0.05, v0 = 0.1, mu_roll = 1e-3, kn = 1e7, h = 1e-5;
    for (int on = 0; on < 2; on++) {
        clab_world *w = make_world();
        w->materials[0].mu_roll = mu_roll;
        double m = 1000.0 * 4.0 / 3.0 * M_PI * R * R * R, delta = m * g / kn;
        /* rolling: the contact point, midway through the overlap, at rest */
        add_ball(w, R, clab_v3(0, 0, R - delta), clab_v3(v0, 0, 0), clab_v3(0, v0 / (R - delta / 2), 0));
        clab_error err;
        const char *const opts[] = {"model=hooke", "kn=1e7", on ? "rolling=cdt" : "rolling=off", NULL};
        clab_sim *s = make_sim(w, h, opts, &err);
        while (w->t < 0.3 - 0.5 * h) clab_sim_step(s, &err);
        double v1 = w->bodies[1].rdot.x;
        if (!on) {
            tap_rel(v1, v0, 1e-6, "rolling=off (default): a rolling sphere keeps its speed over 0.3 s (1e-6)");
        } else {
            double a = 5.0 / 7.0 * g * mu_roll / R;
            tap_rel((v0 - v1) / 0.3, a, 0.01, "rolling=cdt: deceleration 5/7 g mu_roll/R (1%)");
            while (w->t < 1.0) clab_sim_step(s, &err); /* stops at v0/a = 0.71 s */
            double x1 = w->bodies[1].r.x;
            for (int i = 0; i < 20000; i++) clab_sim_step(s, &err);
            tap_ok(fabs(w->bodies[1].rdot.x) < 1e-6 && fabs(w->bodies[1].r.x - x1) < 1e-6,
                   "rolling=cdt: it stops and stays (v = %.3g m/s, drift %.3g m over 0.2 s)", w->bodies[1].rdot.x,
                   w->bodies[1].r.x - x1);
        }
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }
}

/* checkpoint: save after settling, restart on a copy, same trajectory; without the history it differs */
static void checkpoint(void)
{
    clab_world *w = clab_world_create(NULL);
    double th = atan(0.4);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    d.e = clab_q_axis_angle(clab_v3(0, 1, 0), th);
    clab_world_add_body(w, &d, NULL);
    clab_vec3 n = clab_q_rotate(d.e, clab_v3(0, 0, 1));
    clab_body_def b = clab_default_body_def();
    b.shape = clab_box(0.05, 0.05, 0.05);
    b.e = d.e;
    b.density = 1000.0;
    b.r = clab_v3_scale(n, 0.05);
    clab_world_add_body(w, &b, NULL);
    clab_error err;
    const char *const opts[] = {"model=hooke", "kn=1e6", NULL};
    clab_sim *s = make_sim(w, 1e-5, opts, &err);
    for (int i = 0; i < 20000; i++) clab_sim_step(s, &err);
    FILE *f = tmpfile();
    int rc = s->type->save(s->self, f, &err);
    tap_ok(rc == CLAB_OK, "save the backend state (4 histories)");
    clab_world *w2 = clab_world_clone(w), *w3 = clab_world_clone(w);
    for (int i = 0; i < 5000; i++) clab_sim_step(s, &err);
    clab_sim *s2 = make_sim(w2, 1e-5, opts, &err);
    rewind(f);
    rc = s2->type->load(s2->self, f, &err);
    tap_ok(rc == CLAB_OK, "load it into a new sim on a copy of the world");
    for (int i = 0; i < 5000; i++) clab_sim_step(s2, &err);
    clab_sim *s3 = make_sim(w3, 1e-5, opts, &err); /* restart without the history */
    for (int i = 0; i < 5000; i++) clab_sim_step(s3, &err);
    clab_vec3 r1 = w->bodies[1].r, r2 = w2->bodies[1].r, r3 = w3->bodies[1].r;
    tap_ok(r1.x == r2.x && r1.y == r2.y && r1.z == r2.z, "restart from the checkpoint continues bit for bit");
    tap_ok(clab_v3_norm(clab_v3_sub(r3, r1)) > 1e-7,
           "a restart without the history differs (the box slips %.3g m to rebuild it)", clab_v3_norm(clab_v3_sub(r3, r1)));
    rewind(f);
    fputs("XXXXXXXXXXXX", f);
    rewind(f);
    rc = s2->type->load(s2->self, f, &err);
    tap_ok(rc == CLAB_EIO, "a file that is not a checkpoint is refused: %s", err.msg);
    fclose(f);
    clab_sim_destroy(s);
    clab_sim_destroy(s2);
    clab_sim_destroy(s3);
    clab_world_destroy(w);
    clab_world_destroy(w2);
    clab_world_destroy(w3);
}

/* the history of a contact that ends is dropped (the checkpoint records 0 entries) */
static void history_dropped(void)
{
    clab_world *w = make_world();
    add_ball(w, 0.1, clab_v3(0, 0, 0.1 + 1e-6), clab_v3(1.0, 0, -1.0), clab_v3(0, 0, 0));
    clab_error err;
    const char *const opts[] = {"model=hooke", "kn=1e6", NULL};
    clab_sim *s = make_sim(w, 1e-5, opts, &err);
    long in_contact = 0;
    for (int i = 0; i < 3000; i++) {
        clab_sim_step(s, &err);
        in_contact += s->contacts.n > 0;
    }
    FILE *f = tmpfile();
    s->type->save(s->self, f, &err);
    /* layout: 8 magic + 4 started + 8 steps, then the history: 8 magic + 4 version + 8 count */
    uint64_t count = 99;
    fseek(f, 8 + 4 + 8 + 8 + 4, SEEK_SET);
    size_t got = fread(&count, sizeof count, 1, f);
    fclose(f);
    tap_ok(in_contact > 0 && w->bodies[1].r.z > 0.1 + 1e-3 && got == 1 && count == 0,
           "after a bounce (%ld steps in contact) the history holds %llu entries", in_contact,
           (unsigned long long)count);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* step_wrap (the step with the periodic wrap and the state screen in the body loop, and the
 * gather of the bodies inside the collider's skin test) against clab_collide, step, then
 * clab_world_wrap and clab_world_check_state, the driver's path for backends without them:
 * the same states to the bit, and the same guard messages */
static void step_wrap(void)
{
    tap_ok(clab_backend_penalty_fast.step_wrap != NULL, "penalty's fast path has step_wrap (its body loop wraps and screens)");
    clab_error err;
    clab_error_clear(&err);
    /* spheres sliding and colliding across the periodic faces x = 0/1, y = 0/1 */
    clab_world *w = make_world();
    clab_world_set_periodic(w, 0, 0.0, 1.0, &err);
    clab_world_set_periodic(w, 1, 0.0, 1.0, &err);
    for (int k = 0; k < 6; k++)
        add_ball(w, 0.05, clab_v3(0.05 + 0.17 * k, 0.9 - 0.15 * k, 0.0499), clab_v3(3.0 - k, 1.5 * k - 4.0, 0.0),
                   clab_v3(k, 0.0, 1.0));
    clab_world *w2 = clab_world_clone(w);
    clab_sim *s = make_sim(w, 1e-4, NULL, &err), *s2 = make_sim(w2, 1e-4, NULL, &err);
    int rc = s && s2 ? CLAB_OK : CLAB_EINVAL, same = 1, wrapped = 0;
    for (int n = 0; n < 3000 && rc == CLAB_OK; n++) {
        if (n == 2000) /* the state changed between steps (as a quench does): both paths see it */
            for (size_t i = 0; i < w->nbodies; i++) {
                w->bodies[i].rdot = clab_v3_scale(w->bodies[i].rdot, 0.5);
                w2->bodies[i].rdot = clab_v3_scale(w2->bodies[i].rdot, 0.5);
            }
        rc = clab_sim_step(s, &err);
        /* the driver's path without step_wrap (and without the gather in the collider's skin
         * test, clab_collide_with), by hand */
        if (rc == CLAB_OK) rc = clab_collide(s2->collider, w2, s2->envelope, &s2->contacts, &err);
        if (rc == CLAB_OK) rc = s2->type->step(s2->self, w2, &s2->contacts, s2->h, &err);
        if (rc == CLAB_OK) {
            clab_world_wrap(w2);
            w2->t += s2->h;
            w2->step++;
            rc = clab_world_check_state(w2, s2->vmax, &err);
        }
        same = same && memcmp(w->bodies, w2->bodies, w->nbodies * sizeof *w->bodies) == 0;
        for (size_t i = 1; i < w->nbodies; i++) wrapped += w->bodies[i].r.x < 0.01 || w->bodies[i].r.y > 0.99;
    }
    tap_ok(rc == CLAB_OK && same && wrapped > 0,
           "3000 steps across the periodic faces, velocities changed between two: step_wrap with the gather in the skin "
           "test = collide + step + clab_world_wrap + check, bit for bit (%d body-steps near a face)",
           wrapped);
    /* the guard: a non-finite velocity, then a speed above vmax (a fixed body's too), named as before */
    clab_world *w3 = clab_world_clone(w);
    w->bodies[3].rdot.y = NAN;
    clab_error_clear(&err);
    rc = clab_sim_step(s, &err);
    tap_ok(rc == CLAB_ENUMERIC && strstr(err.msg, "non-finite state at step"),
           "a NaN velocity is reported naming a body: \"%s\"", err.msg);
    clab_sim_destroy(s);
    clab_sim_destroy(s2);
    clab_world_destroy(w2);
    w2 = w3;
    w2->bodies[0].rdot = clab_v3(2e4, 0.0, 0.0); /* the fixed floor, faster than the default vmax 1e4 */
    s = make_sim(w2, 1e-4, NULL, &err);
    clab_error_clear(&err);
    rc = s ? clab_sim_step(s, &err) : CLAB_EINVAL;
    tap_ok(rc == CLAB_ENUMERIC && strstr(err.msg, "exceeds the bound") && strstr(err.msg, clab_world_body_name(w2, 0)),
           "a fixed body faster than vmax is reported as before: \"%s\"", err.msg);
    clab_sim_destroy(s);
    clab_world_destroy(w2);
    clab_world_destroy(w);
}

/* the step's timing breakdown (clab_sim_times, clab_broadphase_stats, clab_solver_stats): each
 * part is a difference of clock reads taken inside the interval of the part that holds it, so
 * the parts are >= 0 and sum to at most their whole, up to the rounding of the clock's seconds
 * in doubles (an ulp of 1e5 s is 1.5e-11 s; allowed: 1e-9 s a step); steps counted */
static void timing(void)
{
    clab_world *w = make_world();
    for (int i = 0; i < 20; i++)
        add_ball(w, 0.05, clab_v3(0.11 * (i % 5), 0.11 * (i / 5), 0.049), clab_v3(0.0, 0.0, 0.0),
                   clab_v3(0.0, 0.0, 0.0));
    clab_error err;
    clab_sim *s = make_sim(w, 1e-5, NULL, &err);
    int ok = s != NULL;
    for (int k = 0; ok && k < 50; k++) ok = clab_sim_step(s, &err) == CLAB_OK;
    clab_broadphase_stats bs;
    double t_contacts = 0.0, t_bodies = 0.0;
    if (ok) {
        clab_broadphase_stats_get(s->collider, &bs);
        clab_sim_backend_times(s, &t_contacts, &t_bodies);
    }
    const clab_sim_times *t = ok ? &s->times : NULL;
    const double eps = 50 * 1e-9;
    tap_ok(ok && t->steps == 50 && t->sort >= 0.0 && t->collide > 0.0 && t->backend > 0.0 && t->rest >= 0.0,
           "timing: 50 steps counted, every part >= 0");
    tap_ok(ok && bs.t_skin >= 0.0 && bs.t_build > 0.0 && bs.t_narrow > 0.0 &&
               bs.t_skin + bs.t_build + bs.t_narrow <= t->collide + eps,
           "timing: skin test %.3g + builds %.3g + narrow phase %.3g s <= clab_collide's %.3g s", ok ? bs.t_skin : 0.0,
           ok ? bs.t_build : 0.0, ok ? bs.t_narrow : 0.0, ok ? t->collide : 0.0);
    tap_ok(ok && t_contacts > 0.0 && t_bodies > 0.0 && t_contacts + t_bodies <= t->backend + eps,
           "timing: contacts %.3g + bodies %.3g s <= the backend's step %.3g s", t_contacts, t_bodies,
           ok ? t->backend : 0.0);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

int main(void)
{
    options_and_errors();
    metadata();
    integrators();
    stable_step();
    forces_in_frame();
    rolling_resistance();
    checkpoint();
    history_dropped();
    step_wrap();
    timing();
    return tap_done();
}
