/* test_dvi_backend.c: the DVI backend's interface (dvi/dvi_backend.c, dvi/warmstart.c):
 * registration, options (defaults, ranges, unknown values refused), metadata, statistics
 * (solves, iterations, iteration-limit hits counted and reported, residual history,
 * complementarity diagnostics), forces in newtons, warm start by contact key, and the
 * checkpoint of the warm-start impulses (save, load, identical continuation).
 * Expected values: the interface contract in lib/clab_backend.h; forces F = gamma/h; a
 * continued run from a checkpoint must match the uninterrupted run bit for bit, since the
 * state (q, v, warm-start impulses) is restored exactly (%.17g round trip). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_backends.h"
#include "clab_sim.h"
#include "tap.h"
#include "warmstart.h"

#define H 1e-3

/* a small square pyramid of spheres (R = 0.05 m) on a floor between four walls: 3 x 3
 * touching on the floor, 2 x 2 in their pockets, 1 on top (14 spheres; each upper sphere
 * touches 4 below; the walls keep the base from rolling apart, spheres having no rolling
 * resistance) */
static clab_world *pile(void)
{
    const double R = 0.05, s2 = sqrt(2.0);
    clab_world *w = clab_world_create(NULL);
    clab_body_def g = clab_default_body_def();
    g.shape = clab_plane();
    g.fixed = 1;
    clab_world_add_body(w, &g, NULL);
    /* walls x = -R, x = 5R, y = -R, y = 5R, normals inward */
    const double ang[4] = {M_PI / 2, -M_PI / 2, -M_PI / 2, M_PI / 2};
    const clab_vec3 axis[4] = {{0, 1, 0}, {0, 1, 0}, {1, 0, 0}, {1, 0, 0}};
    const clab_vec3 at[4] = {{-R, 0, 0}, {5 * R, 0, 0}, {0, -R, 0}, {0, 5 * R, 0}};
    for (int k = 0; k < 4; k++) {
        g.e = clab_q_axis_angle(axis[k], ang[k]);
        g.r = at[k];
        clab_world_add_body(w, &g, NULL);
    }
    for (int layer = 0; layer < 3; layer++) {
        int m = 3 - layer;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++) {
                clab_body_def d = clab_default_body_def();
                d.shape = clab_sphere(R);
                d.r = clab_v3(R * layer + 2 * R * i, R * layer + 2 * R * j, R + s2 * R * layer);
                clab_world_add_body(w, &d, NULL);
            }
    }
    return w;
}

static clab_sim *sim(clab_world *w, const char *opts, clab_error *err)
{
    clab_options o;
    clab_options_init(&o);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", opts ? opts : "");
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) clab_options_parse(&o, tok, "test", err);
    clab_sim *s = clab_sim_create(w, "dvi", H, &o, err);
    clab_options_free(&o);
    return s;
}

static int steps(clab_sim *s, int n)
{
    clab_error err;
    for (int k = 0; k < n; k++)
        if (clab_sim_step(s, &err)) {
            tap_diag("%s", err.msg);
            return 1;
        }
    return 0;
}

int main(void)
{
    clab_error err;
    const clab_backend_type *t = clab_backend_lookup("dvi");
    tap_ok(t == &clab_backend_dvi && t->default_envelope > 0.0 && t->save && t->load,
           "backend 'dvi' registered, default envelope delta_K = %g m > 0, save/load present", t ? t->default_envelope : 0);

    /* options: bad values are refused with the key named */
    const char *bad[] = {"solver=newton", "omega=2.5", "tol=-1", "max_iter=0", "warm_start=maybe", "recovery_speed=-1",
                         "colour=red"};
    for (int k = 0; k < 7; k++) {
        clab_world *w = pile();
        clab_error_clear(&err);
        clab_sim *s = sim(w, bad[k], &err);
        char key[32];
        snprintf(key, sizeof key, "%s", bad[k]);
        *strchr(key, '=') = '\0';
        tap_ok(!s && err.status == CLAB_EINVAL && strstr(err.msg, key), "option %s refused: %s", bad[k], err.msg);
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }

    /* metadata: every option in force (keys dvi_<option>[_unit]) */
    {
        clab_world *w = pile();
        clab_sim *s = sim(w, "solver=gs omega=1.2 tol=1e-7 max_iter=50 recovery_speed=0.5 warm_start=off", &err);
        clab_options m;
        clab_options_init(&m);
        clab_sim_meta(s, &m);
        const char *want[][2] = {{"dvi_solver", "gs"},
                                 {"dvi_omega", "1.2"},
                                 {"dvi_tol_m_s", "9.9999999999999995e-08"},
                                 {"dvi_max_iter", "50"},
                                 {"dvi_recovery_speed_m_s", "0.5"},
                                 {"dvi_warm_start", "off"}};
        int ok = 1;
        for (int k = 0; k < 6; k++) {
            const char *v = clab_options_get(&m, want[k][0]);
            if (!v || strcmp(v, want[k][1])) ok = 0, tap_diag("%s = %s, want %s", want[k][0], v ? v : "(none)", want[k][1]);
        }
        tap_ok(ok && clab_options_get(&m, "dvi_residual"), "meta: solver, omega, tol, max_iter, recovery, warm start, residual");
        clab_options_free(&m);
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }

    /* statistics and forces */
    {
        clab_world *w = pile();
        clab_sim *s = sim(w, "tol=1e-9", &err);
        int bad_step = steps(s, 300);
        clab_solver_stats st;
        s->type->stats(s->self, &st);
        tap_ok(!bad_step && st.solves == 300 && st.total_iterations >= st.iterations && st.iterations > 0 &&
                   st.nhistory == (size_t)st.iterations && st.history && st.history[st.nhistory - 1] == st.residual &&
                   st.residual <= 1e-9,
               "stats: %ld solves, last %ld iterations, residual %.3g m/s = last history entry", st.solves, st.iterations,
               st.residual);
        tap_ok(st.gamma_outside_K <= 1e-15 && st.d_outside_polar <= 1e-8 && st.complementarity <= 1e-9,
               "stats: gamma outside K %.2g N s, -d outside the polar cone %.2g m/s, |gamma.d| %.2g", st.gamma_outside_K,
               st.d_outside_polar, st.complementarity);
        /* forces: gamma/h; the vertical forces from the floor and the walls (bodies 0..4, always
         * body a of their contacts) carry the weight of the resting pile */
        size_t nc = s->contacts.n;
        clab_vec3 *f = malloc(nc * sizeof *f);
        clab_sim_forces(s, f);
        double fz_floor = 0.0, wsum = 0.0;
        for (size_t i = 0; i < nc; i++) {
            clab_vec3 tu, tw;
            clab_contact_frame(&s->contacts.c[i], &tu, &tw);
            if (s->contacts.c[i].a <= 4) fz_floor += f[i].x * s->contacts.c[i].n.z + f[i].y * tu.z + f[i].z * tw.z;
        }
        for (size_t k = 5; k < w->nbodies; k++) wsum += w->bodies[k].m * 9.81;
        double ke = clab_world_kinetic_energy(w);
        tap_ok(ke < 1e-8, "pile at rest after 0.3 s (kinetic energy %.3g J)", ke);
        tap_rel(fz_floor, wsum, 1e-5, "floor and wall contact forces carry the weight of the pile [N] (rel 1e-5)");
        free(f);
        /* iteration limit: counted, never an error */
        clab_sim *s2 = sim(w, "max_iter=2 tol=1e-14 warm_start=off", &err);
        int r2 = steps(s2, 5);
        s2->type->stats(s2->self, &st);
        tap_ok(!r2 && st.maxiter_hits == 5 && st.iterations == 2 && st.residual > 1e-14,
               "max_iter=2: 5 steps done, %ld iteration-limit hits reported, residual %.3g", st.maxiter_hits,
               st.residual);
        clab_sim_destroy(s2);
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }

    /* warm start: on a resting pile it needs far fewer iterations */
    {
        long it[2];
        for (int on = 0; on < 2; on++) {
            clab_world *w = pile();
            clab_sim *s = sim(w, on ? "solver=apgd tol=1e-8 warm_start=on" : "solver=apgd tol=1e-8 warm_start=off", &err);
            steps(s, 300);
            clab_solver_stats a, b;
            s->type->stats(s->self, &a);
            steps(s, 20);
            s->type->stats(s->self, &b);
            it[on] = b.total_iterations - a.total_iterations;
            clab_sim_destroy(s);
            clab_world_destroy(w);
        }
        tap_ok(it[1] * 2 < it[0], "warm start on a resting pile: %ld iterations in 20 steps, cold %ld", it[1], it[0]);
    }

    /* warm-start table: lookups, growth, key CLAB_WARM_EMPTY ignored */
    {
        clab_warmstart ws;
        clab_warm_init(&ws);
        int ok = clab_warm_reset(&ws, 1000) == 0;
        clab_warm_entry *slots = ws.slots;
        for (uint64_t k = 0; k < 1000; k++) clab_warm_put(&ws, clab_contact_key((int)k, (int)k + 1, 3), clab_v3((double)k, 0, 0));
        for (uint64_t k = 0; k < 1000 && ok; k++) {
            const clab_vec3 *F = clab_warm_get(&ws, clab_contact_key((int)k, (int)k + 1, 3));
            ok = F && F->x == (double)k;
        }
        ok = ok && !clab_warm_get(&ws, clab_contact_key(5, 7, 0)) && ws.n == 1000;
        ok = ok && clab_warm_reset(&ws, 900) == 0 && ws.slots == slots && ws.n == 0;
        tap_ok(ok, "warm-start table: 1000 keys stored and found, absent key not found, reset reuses the slots");
        clab_warm_free(&ws);
    }

    /* checkpoint: save after 200 steps, load into a fresh backend on a copy of the world; the
     * next 50 steps agree bit for bit with the uninterrupted run */
    {
        clab_world *w = pile();
        clab_sim *s = sim(w, "solver=gs tol=1e-7", &err);
        steps(s, 200);
        FILE *f = tmpfile();
        int rs = s->type->save(s->self, f, &err);
        clab_world *w2 = clab_world_clone(w), *w3 = clab_world_clone(w);
        clab_sim *s2 = sim(w2, "solver=gs tol=1e-7", &err), *s3 = sim(w3, "solver=gs tol=1e-7", &err);
        rewind(f);
        int rl = s2->type->load(s2->self, f, &err);
        fclose(f);
        steps(s, 50);
        steps(s2, 50);
        steps(s3, 50); /* the same world without the checkpoint: starts cold */
        int same = 1, same3 = 1;
        for (size_t k = 0; k < w->nbodies; k++) {
            same &= memcmp(&w->bodies[k].r, &w2->bodies[k].r, sizeof(clab_vec3)) == 0 &&
                    memcmp(&w->bodies[k].rdot, &w2->bodies[k].rdot, sizeof(clab_vec3)) == 0 &&
                    memcmp(&w->bodies[k].wbar, &w2->bodies[k].wbar, sizeof(clab_vec3)) == 0;
            same3 &= memcmp(&w->bodies[k].rdot, &w3->bodies[k].rdot, sizeof(clab_vec3)) == 0;
        }
        tap_ok(!rs && !rl && same, "checkpoint: saved, loaded, and the 50 steps after it are bit-identical");
        tap_ok(!same3, "without the checkpoint (cold start) the same 50 steps differ in the last bits");
        clab_sim_destroy(s3);
        clab_sim_destroy(s2);
        clab_sim_destroy(s);
        clab_world_destroy(w);
        clab_world_destroy(w2);
        clab_world_destroy(w3);
        /* a damaged checkpoint is refused */
        clab_world *w4 = pile();
        clab_sim *s4 = sim(w4, NULL, &err);
        FILE *g = tmpfile();
        fputs("dvi-warmstart 1\ncontacts 3\n12 0 0 0\n", g);
        rewind(g);
        clab_error_clear(&err);
        int rb = s4->type->load(s4->self, g, &err);
        fclose(g);
        tap_ok(rb == CLAB_EIO && strstr(err.msg, "2 of 3"), "truncated checkpoint refused: %s", err.msg);
        clab_sim_destroy(s4);
        clab_world_destroy(w4);
    }
    return tap_done();
}
