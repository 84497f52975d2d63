/* test_penalty_sliding: the penalty backend's friction in gross sliding, and the law without
 * tangential history (history=off).
 *
 * 1. Gross sliding. When the contact point slides throughout an impact, Coulomb's law gives a
 *    tangential impulse J_t = mu J_n+, J_n+ = int max(F_n, 0) dt the impulse of the compressive
 *    normal force (the cap's bound; the dashpot's pull at separation carries no friction). The
 *    default cap (cone) meets it within 1% (the tolerance; measured 1e-6 or better):
 *    a sphere spinning at R omega_0 = 5 v_n and 10 v_n dropped onto a plane, a sphere striking
 *    the plane obliquely at v_t = 5 v_n (tan theta = 5 > 3.5 mu (1 + e) = 2.1: sliding
 *    throughout, Maw, Barber and Fawcett 1976), and two equal spheres meeting obliquely; both
 *    paths (fast=on, off). Hertz-Mindlin, E = 1 GPa, nu = 0.3, cor 0.5, mu 0.4, R = 10 mm,
 *    v_n = 1 m/s, h = 2e-7 s (T_c/2000). J_t is read from the sphere's momentum (two spheres:
 *    from the backend's forces, as the line of centers turns), J_n+ from the backend's normal
 *    forces, step by step.
 *    cap=total (spring and dashpot together set onto the cone while sliding) falls short there:
 *    its history spring, set to c_t v_t - mu F_n against the slip while the dashpot alone exceeds
 *    the bound, grows with k_t faster than the dashpot and turns the friction round early in the
 *    impact (measured J_t = 0.88 mu J_n+ at 5 v_n): pinned below 0.95 as the reason for the
 *    default (doc/penalty.md).
 * 2. history=off (F_t = -c_t v_t, capped at mu F_n+; LAMMPS gran/hooke, LIGGGHTS no_history):
 *    one contact's force below and at the cap, the history left at zero; a cube on an incline
 *    (tan theta = 0.25 < mu = 0.5, Hooke k_n = 1e6 N/m per corner, damping from cor 0.5) creeps
 *    at the speed where the four dashpots carry the slope's pull, v = m g sin theta/(4 c_t),
 *    c_t = 2 zeta sqrt(k_t m) (force balance, within 1%; the moment balance of the cube loads
 *    the uphill corners with m g (cos theta - sin theta)/4, so each corner's c_t v stays below
 *    mu F_n while tan theta/(1 - tan theta) = 1/3 < mu), where with the history it sticks (moves
 *    less than 1 um in 1 s); at tan theta = 0.7 > mu it slides with a = g (sin theta - mu cos
 *    theta) once c_t v exceeds mu F_n (within 1%). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clab_analytic.h"
#include "clab_sim.h"
#include "contact_scene.h"
#include "force_law.h"
#include "tap.h"

static const double g = 9.81;

static clab_world *world_with(double mu, double cor, double E, clab_vec3 gravity)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = gravity;
    clab_world *w = clab_world_create(&wd);
    clab_material m = clab_default_material();
    m.E = E;
    m.nu = 0.3;
    m.cor = cor;
    m.mu = mu;
    clab_world_add_material(w, &m, NULL);
    return w;
}

typedef struct sliding {
    double Jt;     /* |tangential impulse| on the moving sphere [N s] */
    double Jc;     /* int max(F_n, 0) dt over the impact [N s] */
    double Jf;     /* int F_t . (-t) dt, t the tangential part of tdir: the friction impulse [N s] */
    int ok;
} sliding;

/* one impact of sphere body k against body 0 (plane or sphere), no gravity: run until the
 * contact has opened with the bodies apart; J_t from the momentum of body k along tdir */
static sliding impact(clab_world *w, int k, clab_vec3 tdir, const char *cap, const char *fast, double h)
{
    sliding r = {0.0, 0.0, 0.0, 0};
    const char *const opts[] = {cap, fast, NULL};
    clab_sim *s = sim_with(w, "penalty", h, opts);
    if (!s) return r;
    clab_body *b = &w->bodies[k];
    const double p0 = b->m * clab_v3_dot(b->rdot, tdir);
    clab_vec3 f[4];
    clab_error err;
    int touched = 0;
    for (long step = 0; step < 200000; step++) {
        if (clab_sim_step(s, &err)) {
            tap_diag("%s", err.msg);
            clab_sim_destroy(s);
            return r;
        }
        if (s->contacts.n > 1) break; /* one contact expected */
        double Fn = 0.0;
        if (s->contacts.n == 1) {
            clab_sim_forces(s, f);
            Fn = f[0].x;
            /* the friction on b along the slip direction's tangential part, signed: against it */
            clab_vec3 u, v, t = tdir;
            clab_contact_frame(&s->contacts.c[0], &u, &v);
            t = clab_v3_normalize(clab_v3_madd(t, -clab_v3_dot(t, s->contacts.c[0].n), s->contacts.c[0].n));
            r.Jf -= h * clab_v3_dot(clab_v3_add(clab_v3_scale(u, f[0].y), clab_v3_scale(v, f[0].z)), t);
        }
        if (Fn > 0.0) r.Jc += h * Fn, touched = 1;
        if (touched && s->contacts.n == 0) {
            r.ok = s->contacts.n == 0;
            break;
        }
    }
    r.Jt = fabs(b->m * clab_v3_dot(b->rdot, tdir) - p0);
    clab_sim_destroy(s);
    return r;
}

/* a sphere (R = 10 mm, 2500 kg/m^3) just above the plane z = 0 at v, spinning at omega, its
 * contact point slipping along slip */
static sliding on_plane(clab_vec3 v, clab_vec3 omega, clab_vec3 slip, const char *cap, const char *fast)
{
    clab_world *w = world_with(0.4, 0.5, 1e9, clab_v3(0, 0, 0));
    add_plane(w, clab_q_identity());
    add_sphere(w, 0.01, 2500.0, clab_v3(0, 0, 0.01 + 1e-9), v, omega);
    sliding r = impact(w, 1, slip, cap, fast, 2e-7);
    clab_world_destroy(w);
    return r;
}

static void gross_sliding(void)
{
    const double mu = 0.4, vn = 1.0, R = 0.01;
    const char *fasts[] = {"fast=on", "fast=off"};
    for (int f = 0; f < 2; f++) {
        for (int q = 5; q <= 10; q += 5) {
            /* omega_0 about +y: the contact point at -R z slips along -x */
            sliding r = on_plane(clab_v3(0, 0, -vn), clab_v3(0, q * vn / R, 0), clab_v3(-1, 0, 0), "cap=cone", fasts[f]);
            tap_ok(r.ok, "spinning impact, R omega_0 = %d v_n (%s): one contact, opened", q, fasts[f]);
            tap_rel(r.Jt, mu * r.Jc, 0.01, "spinning impact, default cap: J_t = mu int F_n+ dt (1%)");
            tap_rel(r.Jf, r.Jt, 1e-9, "spinning impact: the friction impulse from the forces is the momentum's");
        }
        sliding r = on_plane(clab_v3(5.0 * vn, 0, -vn), clab_v3(0, 0, 0), clab_v3(1, 0, 0), "cap=cone", fasts[f]);
        tap_ok(r.ok, "oblique impact, v_t = 5 v_n (%s): one contact, opened", fasts[f]);
        tap_rel(r.Jt, mu * r.Jc, 0.01, "oblique impact, tan theta = 5 > 3.5 mu (1 + e), default cap: J_t = mu int F_n+ dt (1%)");

        /* two equal spheres, the upper one moving down at v_n and sideways at 5 v_n */
        clab_world *w = world_with(mu, 0.5, 1e9, clab_v3(0, 0, 0));
        add_sphere(w, R, 2500.0, clab_v3(0, 0, 0), clab_v3(0, 0, 0), clab_v3(0, 0, 0));
        add_sphere(w, R, 2500.0, clab_v3(0, 0, 2.0 * R + 1e-9), clab_v3(5.0 * vn, 0, -vn), clab_v3(0, 0, 0));
        r = impact(w, 1, clab_v3(1, 0, 0), "cap=cone", fasts[f], 2e-7);
        tap_ok(r.ok, "two spheres, oblique, v_t = 5 v_n (%s): one contact, opened", fasts[f]);
        /* the line of centers turns during the impact: the friction impulse from the forces */
        tap_rel(r.Jf, mu * r.Jc, 0.01, "two spheres, oblique, default cap: int F_t dt = mu int F_n+ dt (1%)");
        clab_world_destroy(w);
    }
    sliding t = on_plane(clab_v3(0, 0, -vn), clab_v3(0, 5.0 * vn / R, 0), clab_v3(-1, 0, 0), "cap=total", "fast=on");
    tap_diag("cap=total, spinning impact at 5 v_n: J_t/(mu J_n+) = %.4f", t.Jt / (mu * t.Jc));
    tap_ok(t.ok && t.Jt < 0.95 * mu * t.Jc,
           "cap=total, spinning impact at 5 v_n: J_t = %.3f mu J_n+, short of Coulomb (why cone is the default)",
           t.Jt / (mu * t.Jc));
}

/* history=off on one contact (Hooke, k_n = 100 N/m, c_t = 2 N s/m, mu = 0.5) */
static void one_contact(void)
{
    clab_penalty_law law = {CLAB_PENALTY_HOOKE, CLAB_PENALTY_CAP_CONE, CLAB_PENALTY_ROLL_OFF, 0, 1.0, 1};
    const clab_penalty_coef k = {100.0, 30.0, 0.0, 2.0};
    clab_vec3 dt = clab_v3(0.01, 0.0, 0.0), Ft;
    double Fn;
    /* F_n = 10, bound 5; v_t = 1: -c_t v_t = -2 below the bound */
    clab_penalty_contact_force(&law, k, 0.5, 0.1, 0.0, clab_v3(1.0, 0.0, 0.0), &dt, &Fn, &Ft);
    tap_close(Ft.x, -2.0, 1e-12, "history=off, below the cap: F_t = -c_t v_t (no spring on delta_t)");
    tap_ok(dt.x == 0.0 && dt.y == 0.0 && dt.z == 0.0, "history=off: delta_t left at zero");
    /* v_t = 4: -c_t v_t = -8 beyond the bound 5 */
    dt = clab_v3(0.01, 0.0, 0.0);
    clab_penalty_contact_force(&law, k, 0.5, 0.1, 0.0, clab_v3(0.0, 4.0, 0.0), &dt, &Fn, &Ft);
    tap_close(Ft.y, -5.0, 1e-12, "history=off, sliding: F_t = -mu F_n v_t/|v_t|");
    tap_close(Ft.x, 0.0, 1e-15, "history=off, sliding: F_t along -v_t");
}

/* a box (1 kg, half edge 5 cm) face down on a plane tilted by atan(tan_th); returns the down-slope
 * travel from t1 = 0.2 s to t2 = 1.2 s and the speeds at t1, t2 */
static int box_incline(double tan_th, const char *history, double *ds, double *v1, double *v2)
{
    const double mu = 0.5, hb = 0.05, kn = 1e6, h = 2e-5, th = atan(tan_th), t1 = 0.2, t2 = 1.2;
    clab_world *w = world_with(mu, 0.5, 2e8, clab_v3(0, 0, -g));
    clab_quat e = clab_q_axis_angle(clab_v3(0, 1, 0), th);
    add_plane(w, e);
    clab_vec3 n = clab_q_rotate(e, clab_v3(0, 0, 1)), down = clab_q_rotate(e, clab_v3(1, 0, 0));
    clab_body_def d = clab_default_body_def();
    d.shape = clab_box(hb, hb, hb);
    d.density = 1000.0;
    d.e = e;
    const double m = 8.0 * hb * hb * hb * 1000.0;
    d.r = clab_v3_scale(n, hb - m * g * cos(th) / (4.0 * kn));
    clab_world_add_body(w, &d, NULL);
    const char *const opts[] = {"model=hooke", "kn=1e6", history, NULL};
    clab_sim *s = sim_with(w, "penalty", h, opts);
    if (!s) return 0;
    clab_error err;
    const clab_body *b = &w->bodies[1];
    double s1 = 0.0;
    int ok = 1;
    while (ok && w->t < t2 - 0.5 * h) {
        if (clab_sim_step(s, &err)) tap_diag("%s", err.msg), ok = 0;
        if (s->contacts.n != 4) ok = 0;
        if (fabs(w->t - t1) < 0.5 * h) s1 = clab_v3_dot(b->r, down), *v1 = clab_v3_dot(b->rdot, down);
    }
    *ds = clab_v3_dot(b->r, down) - s1;
    *v2 = clab_v3_dot(b->rdot, down);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return ok;
}

static void incline(void)
{
    const double kn = 1e6, m = 1.0, th = atan(0.25), mu = 0.5;
    double ds, v1, v2;
    int ok = box_incline(0.25, "history=off", &ds, &v1, &v2);
    const double c_t = 2.0 * clab_analytic_hooke_zeta(0.5) * sqrt(2.0 / 7.0 * kn * m); /* Hooke, k_t = 2/7 k_n */
    const double v_creep = m * g * sin(th) / (4.0 * c_t);
    tap_ok(ok, "history=off, box on incline: four corner contacts throughout");
    tap_rel(v2, v_creep, 0.01, "history=off, tan theta = 0.25 < mu: creeps at v = m g sin theta/(4 c_t) (1%)");
    tap_rel(ds, v_creep * 1.0, 0.01, "history=off, tan theta = 0.25: creeps v 1 s in 1 s (1%)");
    ok = box_incline(0.25, "history=on", &ds, &v1, &v2);
    tap_ok(ok && fabs(ds) < 1e-6, "history=on, tan theta = 0.25 < mu: sticks (%.3g m in 1 s < 1 um)", ds);
    ok = box_incline(0.7, "history=off", &ds, &v1, &v2);
    const double a = clab_analytic_incline_accel(g, atan(0.7), mu);
    tap_ok(ok, "history=off, box on incline, tan theta = 0.7: four corner contacts throughout");
    tap_rel(v2 - v1, a * 1.0, 0.01, "history=off, tan theta = 0.7 > mu: slides at a = g (sin theta - mu cos theta) (1%)");
}

int main(void)
{
    gross_sliding();
    one_contact();
    incline();
    return tap_done();
}
