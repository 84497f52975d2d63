/* test_guard.c: the physics guard of the step driver (clab_sim_guard, lib/guard.c) and the
 * step count (clab_sim_step_count): issue 25's cases 1-6 and 13 at the library's level.
 * The command's side (exit status, checkpoint, CSV rows): tests/test_run_guard.sh. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clab_sim.h"
#include "tap.h"

static clab_world *plane_world(void)
{
    clab_world *w = clab_world_create(NULL);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    snprintf(d.name, sizeof d.name, "floor");
    clab_world_add_body(w, &d, NULL);
    return w;
}

static int sphere(clab_world *w, const char *name, double R, clab_vec3 r, clab_vec3 v)
{
    clab_body_def d = clab_default_body_def();
    d.shape = clab_sphere(R);
    d.r = r;
    d.rdot = v;
    if (name) snprintf(d.name, sizeof d.name, "%s", name);
    clab_error err;
    int k = clab_world_add_body(w, &d, &err);
    if (k < 0) {
        tap_diag("add: %s", err.msg);
        exit(99);
    }
    return k;
}

static clab_sim *sim(clab_world *w, const char *backend, double h, const char *const *opts, clab_error *err)
{
    clab_options o;
    clab_options_init(&o);
    for (int i = 0; opts && opts[i]; i++) clab_options_parse(&o, opts[i], "test", NULL);
    clab_sim *s = clab_sim_create(w, backend, h, &o, err);
    clab_options_free(&o);
    return s;
}

/* steps until the guard (or anything) stops the run, at most n; returns the status */
static int run(clab_sim *s, long n, clab_error *err)
{
    for (long k = 0; k < n; k++) {
        int rc = clab_sim_step(s, err);
        if (rc) return rc;
    }
    return CLAB_OK;
}

/* cases 3, 4: the step count. Expected values: the decimal quotients t_end/h, exact. */
static void step_count(void)
{
    static const struct {
        double t_end, h;
        long want;
    } ok[] = {
        {12.9, 1e-7, 129000000L},     /* issue 25 case 4: the (long)ceil(t/h - 1e-9) gave one more */
        {123.456, 1e-6, 123456000L},  /* the same */
        {0.3, 0.1, 3},                /* 0.3/0.1 = 2.9999999999999996 */
        {0.7, 0.1, 7},                /* 0.7/0.1 = 6.999999999999999 */
        {1.0, 1e-3, 1000},
        {1e-3, 1e-3, 1},
        {0.25, 0.1, 3},               /* not a whole number of steps: the next one */
        {1.05, 0.1, 11},
        {0.0, 1e-3, 0},
        {1e9, 1e-3, 1000000000000L}, /* the limit itself */
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        long n = -1;
        clab_error err;
        int rc = clab_sim_step_count(ok[i].t_end, ok[i].h, &n, &err);
        tap_ok(rc == CLAB_OK && n == ok[i].want, "step count: t_end %.17g s, h %.17g s: %ld steps (want %ld)",
               ok[i].t_end, ok[i].h, n, ok[i].want);
    }
    static const struct {
        double t_end, h;
        const char *why;
    } bad[] = {
        {1e9, 1e-12, "more than the limit"},   /* issue 25 case 3: printed -9223372036854775808 steps */
        {1e300, 1e-3, "more than the limit"},
        {1.0000001e9, 1e-3, "more than the limit"},
        {NAN, 1e-3, "finite"},
        {INFINITY, 1e-3, "finite"},
        {-1.0, 1e-3, ">= 0"},
        {1.0, 0.0, "> 0"},
        {1.0, NAN, "finite"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        long n = -7;
        clab_error err;
        clab_error_clear(&err);
        int rc = clab_sim_step_count(bad[i].t_end, bad[i].h, &n, &err);
        tap_ok(rc == CLAB_EINVAL && n == -7 && strstr(err.msg, bad[i].why),
               "step count: t_end %g s, h %g s refused, n untouched: '%s'", bad[i].t_end, bad[i].h, err.msg);
    }
}

/* case 1: a penalty stack of spheres at ten times its stable step blows up; the energy guard
 * stops it long before the speed bound (1e4 m/s), naming a body, the step and the time; at the
 * stable step the same stack runs 2000 steps without a word */
static void energy_guard(void)
{
    double hs = 0.0;
    for (int k = 0; k < 2; k++) {
        clab_world *w = plane_world();
        char name[16];
        for (int i = 0; i < 4; i++) {
            snprintf(name, sizeof name, "ball%d", i);
            sphere(w, name, 0.05, clab_v3(0.0001 * i, 0, 0.05 + 0.1 * i), clab_v3(0, 0, 0));
        }
        clab_error err;
        const char *const opts[] = {"model=hooke", "kn=1e5", NULL};
        clab_sim *s = sim(w, "penalty", 1e-5, opts, &err);
        hs = s->type->stable_step(s->self, w);
        clab_sim_destroy(s);
        s = sim(w, "penalty", k == 0 ? hs : 10.0 * hs, opts, &err);
        clab_error_clear(&err);
        int rc = run(s, 2000, &err);
        double vmax = 0.0;
        for (size_t i = 0; i < w->nbodies; i++) vmax = fmax(vmax, clab_v3_norm(w->bodies[i].rdot));
        if (k == 0) {
            tap_ok(rc == CLAB_OK, "energy guard: a stack at the stable step %g s runs 2000 steps (rc %d: %s)", hs, rc,
                   err.msg);
        } else {
            tap_ok(rc == CLAB_ENUMERIC && strstr(err.msg, "the energy K + U") && strstr(err.msg, "ball") &&
                       strstr(err.msg, "at step ") && strstr(err.msg, ", t = "),
                   "energy guard: at 10 x the stable step it fires naming the body, the step and the time: '%s'",
                   err.msg);
            tap_ok(vmax < 1e4, "energy guard: it fires while the speeds are below the speed bound (%g m/s)", vmax);
        }
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }
}

/* case 1: penetration beyond half the radius. A soft Hooke contact (kn 1e3 N/m) under a ball of
 * 4.19 kg at 10 m/s gives an overlap of v sqrt(m/k) = 0.65 m against R = 0.1 m; the energy is
 * kept (undamped, h far below the stable step), so only the penetration guard can stop it */
static void penetration_guard(void)
{
    clab_world *w = plane_world();
    sphere(w, "ball", 0.1, clab_v3(0, 0, 0.1), clab_v3(0, 0, -10.0));
    w->materials[0].cor = 1.0;
    clab_error err;
    const char *const opts[] = {"model=hooke", "kn=1e3", NULL};
    clab_sim *s = sim(w, "penalty", 1e-4, opts, &err);
    clab_error_clear(&err);
    int rc = run(s, 2000, &err);
    tap_ok(rc == CLAB_ENUMERIC && strstr(err.msg, "floor and ball: penetration") && strstr(err.msg, "beyond the bound 0.5"),
           "penetration guard: an overlap beyond 0.5 R stops the run naming both bodies: '%s'", err.msg);
    tap_ok(w->t < 0.01, "penetration guard: within a few steps of it (t = %g s; 0.05 m at 10 m/s: 0.005 s)", w->t);
    clab_sim_destroy(s);
    /* off: guard_penetration=0 lets it run */
    clab_world_destroy(w);
    w = plane_world();
    sphere(w, "ball", 0.1, clab_v3(0, 0, 0.1), clab_v3(0, 0, -10.0));
    w->materials[0].cor = 1.0;
    const char *const off[] = {"model=hooke", "kn=1e3", "guard_penetration=0", NULL};
    s = sim(w, "penalty", 1e-4, off, &err);
    rc = run(s, 2000, &err);
    tap_ok(rc == CLAB_OK, "penetration guard: off with guard_penetration=0 (rc %d)", rc);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* cases 5 and 2: the initial state, and vmax = 0 */
static void initial_state(void)
{
    clab_world *w = plane_world();
    sphere(w, "rocket", 0.1, clab_v3(0, 0, 1.0), clab_v3(1e300, 0, 0));
    clab_error err;
    clab_sim *s = sim(w, "penalty", 1e-4, NULL, &err);
    clab_error_clear(&err);
    int rc = clab_sim_check(s, &err);
    tap_ok(rc == CLAB_ENUMERIC && strstr(err.msg, "rocket: speed 1e+300 m/s exceeds the bound"),
           "initial state: clab_sim_check refuses v = 1e300 m/s naming the body: '%s'", err.msg);
    clab_error_clear(&err);
    rc = clab_sim_step(s, &err);
    tap_ok(rc == CLAB_ENUMERIC && w->step == 0 && w->t == 0.0 && w->bodies[1].r.x == 0.0,
           "initial state: the first step refuses it too, the world unchanged (step %ld)", w->step);
    clab_sim_destroy(s);
    /* vmax = 0: no speed bound, and still no non-finite state nor an energy from nowhere */
    const char *const v0[] = {"vmax=0", NULL};
    s = sim(w, "penalty", 1e-4, v0, &err);
    tap_ok(s && s->vmax == 0.0 && clab_sim_check(s, &err) == CLAB_OK, "vmax=0: no speed bound (1e300 m/s accepted)");
    w->bodies[1].rdot.x = INFINITY;
    clab_error_clear(&err);
    rc = clab_sim_check(s, &err);
    tap_ok(rc == CLAB_ENUMERIC && strstr(err.msg, "rocket: non-finite state"),
           "vmax=0: a non-finite state is still refused: '%s'", err.msg);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* case 2: an exploding penalty run with vmax=0 is stopped by the energy guard before its
 * kinetic energy overflows (the run went on to z = 2.6e284 m and inf rows) */
static void vmax_off_explosion(void)
{
    clab_world *w = plane_world();
    sphere(w, "low", 0.05, clab_v3(0, 0, 0.05), clab_v3(0, 0, 0));
    sphere(w, "high", 0.05, clab_v3(0, 0, 0.15), clab_v3(0, 0, 0));
    clab_error err;
    const char *const opts[] = {"model=hooke", "kn=1e5", "vmax=0", NULL};
    clab_sim *s = sim(w, "penalty", 5e-3, opts, &err);
    clab_error_clear(&err);
    int rc = run(s, 100000, &err);
    double K = clab_world_kinetic_energy(w);
    tap_ok(rc == CLAB_ENUMERIC && strstr(err.msg, "energy") && isfinite(K) && K < 1e100,
           "vmax=0: the blow-up is stopped at step %ld with a finite kinetic energy %g J: '%s'", w->step, K, err.msg);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* case 6: a negative envelope is refused */
static void envelope(void)
{
    clab_world *w = plane_world();
    sphere(w, "ball", 0.1, clab_v3(0, 0, 0.1), clab_v3(0, 0, 0));
    static const char *const be[] = {"dvi", "penalty"};
    for (int i = 0; i < 2; i++) {
        const char *const opts[] = {"envelope=-1", NULL};
        clab_error err;
        clab_error_clear(&err);
        clab_sim *s = sim(w, be[i], 1e-3, opts, &err);
        tap_ok(!s && err.status == CLAB_EINVAL && strstr(err.msg, "envelope = -1 is outside the allowed range [0, 1000]"),
               "%s: envelope=-1 refused: '%s'", be[i], err.msg);
        clab_sim_destroy(s);
    }
    clab_world_destroy(w);
}

/* case 13: initial overlaps and crowding */
static void placement(void)
{
    /* two spheres of R = 0.1 m overlapping by 0.02 m (0.2 R): refused; by 0.005 m (0.05 R): fine */
    for (int k = 0; k < 3; k++) {
        clab_world *w = plane_world();
        double d = k == 1 ? 0.195 : 0.18;
        sphere(w, "left", 0.1, clab_v3(0, 0, 0.5), clab_v3(0, 0, 0));
        sphere(w, "right", 0.1, clab_v3(d, 0, 0.5), clab_v3(0, 0, 0));
        const char *const allow[] = {"allow_overlap=1", NULL};
        clab_error err;
        clab_sim *s = sim(w, "dvi", 1e-3, k == 2 ? allow : NULL, &err);
        clab_error_clear(&err);
        int rc = clab_sim_check(s, &err);
        if (k == 0) {
            tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "left and right overlap by 0.02 m at the start") &&
                       strstr(err.msg, "allow_overlap"),
                   "placement: 0.2 R overlap refused by clab_sim_check: '%s'", err.msg);
            clab_error_clear(&err);
            rc = run(s, 20, &err);
            tap_ok(rc == CLAB_OK, "placement: clab_sim_step alone accepts it (the driver's choice; rc %d: %s)", rc,
                   err.msg);
        } else {
            tap_ok(rc == CLAB_OK && run(s, 20, &err) == CLAB_OK, "placement: %s accepted",
                   k == 1 ? "0.05 R overlap" : "0.2 R with allow_overlap=1");
        }
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }
    /* 3000 spheres at one point (4.5 million contacts): refused at once, the crowding measured */
    clab_world *w = plane_world();
    char name[16];
    for (int i = 0; i < 3000; i++) {
        snprintf(name, sizeof name, "p%d", i);
        sphere(w, name, 0.01, clab_v3(0, 0, 1.0), clab_v3(0, 0, 0));
    }
    clab_error err;
    clab_sim *s = sim(w, "penalty", 1e-5, NULL, &err);
    clock_t c0 = clock();
    clab_error_clear(&err);
    int rc = clab_sim_check(s, &err);
    double sec = (double)(clock() - c0) / CLOCKS_PER_SEC;
    tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "overlap by 0.02 m at the start") && strstr(err.msg, "4498500 pairs"),
           "3000 spheres at one point: refused in %.2f s CPU: '%s'", sec, err.msg);
    tap_ok(s->guard.crowding > 2000.0 && s->guard.crowded_step == 0,
           "3000 spheres at one point: %.0f contacts per moving sphere flagged at step %ld (bound %g)",
           s->guard.crowding, s->guard.crowded_step, CLAB_GUARD_CROWDED);
    clab_sim_destroy(s);
    /* allowed: accepted, the crowding flagged for the driver's warning */
    const char *const allow[] = {"allow_overlap=1", NULL};
    s = sim(w, "penalty", 1e-5, allow, &err);
    clab_error_clear(&err);
    rc = clab_sim_check(s, &err);
    tap_ok(rc == CLAB_OK && s->guard.crowded_step == 0 && s->guard.crowding > 2000.0,
           "3000 spheres at one point, allow_overlap=1: accepted, %.0f contacts per moving sphere flagged (rc %d)",
           s->guard.crowding, rc);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* gravity along a periodic axis is a load: its work counts, so a sphere falling "along x"
 * forever (periodic x, no contacts) never trips the energy guard; its kinetic energy grows */
static void periodic_load(void)
{
    clab_world_def wd = {{2.0, 0.0, 0.0}};
    clab_world *w = clab_world_create(&wd);
    clab_world_set_periodic(w, 0, 0.0, 1.0, NULL);
    sphere(w, "slider", 0.1, clab_v3(0.5, 0, 0), clab_v3(0, 0, 0));
    clab_error err;
    clab_sim *s = sim(w, "penalty", 1e-3, NULL, &err);
    clab_error_clear(&err);
    int rc = run(s, 5000, &err);
    tap_ok(rc == CLAB_OK && clab_world_kinetic_energy(w) > 100.0,
           "periodic gravity: 5000 steps, kinetic energy %g J from gravity's work, no guard (rc %d: %s)",
           clab_world_kinetic_energy(w), rc, err.msg);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* the guard reads only: a pile stepped with it and with it off is the same to the bit */
static void same_bits(void)
{
    clab_world *wa = plane_world(), *wb = NULL;
    char name[16];
    for (int i = 0; i < 27; i++) {
        snprintf(name, sizeof name, "g%d", i);
        sphere(wa, name, 0.05, clab_v3(0.11 * (i % 3) + 0.001 * i, 0.11 * (i / 3 % 3), 0.06 + 0.11 * (i / 9)),
               clab_v3(0, 0, 0));
    }
    wb = clab_world_clone(wa);
    static const char *be[] = {"penalty", "dvi"};
    for (int k = 0; k < 2; k++) {
        clab_world *a = clab_world_clone(wa), *b = clab_world_clone(wb);
        const char *const off[] = {"guard_energy=0", "guard_penetration=0", NULL};
        clab_error err;
        clab_sim *sa = sim(a, be[k], k ? 1e-3 : 1e-5, NULL, &err), *sb = sim(b, be[k], k ? 1e-3 : 1e-5, off, &err);
        int rc = run(sa, 500, &err) | run(sb, 500, &err);
        tap_ok(rc == CLAB_OK && memcmp(a->bodies, b->bodies, a->nbodies * sizeof *a->bodies) == 0,
               "%s: 500 steps with the guard = without it, to the bit (memcmp of the bodies)", be[k]);
        clab_sim_destroy(sa);
        clab_sim_destroy(sb);
        clab_world_destroy(a);
        clab_world_destroy(b);
    }
    clab_world_destroy(wa);
    clab_world_destroy(wb);
}

int main(void)
{
    step_count();
    energy_guard();
    penetration_guard();
    initial_state();
    vmax_off_explosion();
    envelope();
    placement();
    periodic_load();
    same_bits();
    return tap_done();
}
