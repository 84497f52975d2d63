/* test_servo: a servo wall holds a target normal stress on a static sample, and a loading
 * plate (a free body with an applied force) puts its load on it.
 *
 * The sample: a 3 x 3 layer of spheres (R = 1 cm, 2500 kg/m^3, 2.5 cm apart) on a fixed
 * floor, a plate (a box 10 x 10 x 1 cm) a little above them, mu = 0.3, no gravity on the
 * plate's stress (gravity is on: the spheres' weight goes to the floor, not the plate).
 *
 * 1. Servo plate (clab_motion.h, CLAB_MOTION_SERVO, axis -z): target sigma* = 9 kPa on
 *    area A = 0.01 m^2 (10 N a sphere). Each sphere is two contacts in series (plate-sphere,
 *    sphere-floor) of normal stiffness k = 1e5 N/m, so a plate displacement dz changes the
 *    stress by (k/2) N_c dz / A, and the plate-sphere dashpot c adds c N_c v / A at once: the
 *    gain alpha A / ((k h/2 + c) N_c) with alpha = 0.1 closes a tenth of the error a step
 *    (clab_servo_gain). Penalty: c = 2 zeta sqrt(k m) of the Hooke law at restitution e = 0.5,
 *    zeta = -ln e / sqrt(ln^2 e + pi^2) (m the sphere's mass: the plate is infinitely heavy);
 *    DVI: c = k tau, tau = 2 h (its default, regularize.h). vmax = 0.01 m/s. After the approach and a
 *    settling time the stress on the plate (clab_sim_body_force . axis / A) stays within 1% of
 *    sigma* over the last fifth of the run, and the plate has stopped (|v| < 1e-4 vmax):
 *      - penalty (Hooke, k_n = 1e5 N/m, h = 1e-5 s);
 *      - DVI with the Lacoursiere-Servin compliance (stiffness = 1e5 N/m, h = 1e-4 s): a
 *        kinematic wall cannot hold a stress on rigid contacts (a rigid packing does not give,
 *        so its force does not follow the wall's position), so the rigid DVI takes a loading
 *        plate instead (3).
 * 2. The servo's law: clab_servo_speed's sign, clamp and zero at the target; clab_servo_gain.
 * 3. Loading plate: the plate a free body (0.5 kg) under an applied force -90 N z (a load,
 *    clab_world_set_load): at rest the contacts push it up with its weight plus the load,
 *    m g + 90 N, within 1% (penalty h = 1e-5 s; rigid DVI h = 1e-3 s, solved to 1e-10 m/s). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clab_motion.h"
#include "clab_sim.h"
#include "contact_scene.h"
#include "tap.h"

static const double R = 0.01, rho = 2500.0, k = 1e5, A = 0.01, sigma_star = 9000.0, vmax = 0.01;

/* floor (body 0), the layer (bodies 1..9), the plate (body 10, a box, half height 5 mm) with
 * its bottom a gap above the spheres */
static clab_world *layer(double gap, double plate_mass)
{
    clab_world *w = clab_world_create(NULL);
    clab_material m = clab_default_material();
    m.mu = 0.3;
    m.cor = 0.5;
    m.E = 1e7;
    m.kn = k;
    clab_world_add_material(w, &m, NULL);
    add_plane(w, clab_q_identity());
    for (int i = 0; i < 9; i++)
        add_sphere(w, R, rho, clab_v3(0.025 * (i % 3 - 1), 0.025 * (i / 3 - 1), R), clab_v3(0, 0, 0),
                   clab_v3(0, 0, 0));
    clab_body_def d = clab_default_body_def();
    d.shape = clab_box(0.05, 0.05, 0.005);
    d.mass = plate_mass;
    d.r = clab_v3(0, 0, 2.0 * R + gap + 0.005);
    clab_world_add_body(w, &d, NULL);
    return w;
}

/* 1. the servo on backend with options opts at step h, run to t_end */
static void servo(const char *label, const char *backend, const char *const *opts, double h, double t_end, double c)
{
    clab_world *w = layer(1e-4, 1.0);
    clab_motion mo = clab_motion_constant(clab_v3(0, 0, 0), clab_v3(0, 0, 0));
    mo.kind = CLAB_MOTION_SERVO;
    mo.servo = (clab_servo){clab_v3(0, 0, -1), sigma_star, A, clab_servo_gain(A, 0.5 * k, c, 9.0, h, 0.1), vmax};
    clab_error err;
    if (clab_world_set_motion(w, 10, &mo, &err)) tap_diag("%s", err.msg);
    clab_sim *s = sim_with(w, backend, h, opts);
    if (!s) return;
    double smin = INFINITY, smax = -INFINITY, vlast = 0.0;
    long n = 0;
    while (w->t < t_end - 0.5 * h) {
        if (clab_sim_step(s, &err)) {
            tap_diag("%s: step %ld: %s (status %d)", label, w->step, err.msg, err.status);
            break;
        }
        if (w->t < 0.8 * t_end) continue;
        clab_vec3 F, T;
        clab_sim_body_force(s, 10, &F, &T, &err);
        const double sigma = -F.z * -1.0 / A; /* -F . axis / A, axis = -z */
        smin = fmin(smin, sigma), smax = fmax(smax, sigma);
        n++;
        vlast = w->bodies[10].rdot.z;
    }
    tap_ok(n > 0 && smin >= 0.99 * sigma_star && smax <= 1.01 * sigma_star,
           "%s: the servo holds sigma* = %g Pa within 1%% over the last fifth (%.6g .. %.6g Pa, %ld steps)", label,
           sigma_star, smin, smax, n);
    tap_ok(fabs(vlast) < 1e-4 * vmax, "%s: the plate has stopped (v = %.3g m/s)", label, vlast);
    tap_ok(w->bodies[10].r.z < 2.0 * R + 0.005, "%s: it moved into the sample (bottom at %.6g m, spheres' top %g m)",
           label, w->bodies[10].r.z - 0.005, 2.0 * R);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

static void law(void)
{
    const clab_servo sv = {clab_v3(0, 0, -1), 1000.0, 0.5, 1e-5, 0.002};
    /* the sample pushes the wall up (+z) with F: sigma = F_z / area */
    tap_close(clab_servo_speed(&sv, clab_v3(0, 0, 0)), 0.002, 0.0, "law: no force: in at vmax");
    tap_close(clab_servo_speed(&sv, clab_v3(0, 0, 450.0)), 1e-5 * (1000.0 - 900.0), 1e-18,
              "law: below the target: in at gain (sigma* - sigma)");
    tap_close(clab_servo_speed(&sv, clab_v3(0, 0, 500.0)), 0.0, 0.0, "law: at the target: still");
    tap_close(clab_servo_speed(&sv, clab_v3(0, 0, 1e6)), -0.002, 0.0, "law: far above: out at vmax");
    tap_close(clab_servo_gain(0.01, 5e4, 2.0, 9.0, 1e-5, 0.1), 0.1 * 0.01 / ((5e4 * 1e-5 + 2.0) * 9.0), 1e-18,
              "law: gain alpha A/((k h + c) N)");
}

/* 3. a loading plate: free, under a force */
static void loading_plate(const char *label, const char *backend, const char *const *opts, double h, double t_end)
{
    const double mp = 0.5, Fload = 90.0, g = 9.81;
    clab_world *w = layer(0.0, mp);
    clab_error err;
    if (clab_world_set_load(w, 10, clab_v3(0, 0, -Fload), clab_v3(0, 0, 0), &err)) tap_diag("%s", err.msg);
    clab_sim *s = sim_with(w, backend, h, opts);
    if (!s) return;
    while (w->t < t_end - 0.5 * h)
        if (clab_sim_step(s, &err)) {
            tap_diag("%s: %s", label, err.msg);
            break;
        }
    clab_vec3 F, T;
    clab_sim_body_force(s, 10, &F, &T, &err);
    tap_rel(F.z, mp * g + Fload, 0.01, label);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

int main(void)
{
    const char *const pen[] = {"model=hooke", "kn=1e5", NULL};
    const char *const reg[] = {"stiffness=1e5", "cor=0.5", NULL};
    const char *const rigid[] = {"tol=1e-10", NULL};
    const double m = rho * 4.0 / 3.0 * M_PI * R * R * R, le = log(0.5);
    const double c_pen = 2.0 * -le / sqrt(le * le + M_PI * M_PI) * sqrt(k * m);
    servo("penalty servo", "penalty", pen, 1e-5, 0.1, c_pen);
    servo("DVI servo, Lacoursiere-Servin compliance", "dvi", reg, 1e-4, 0.1, k * 2e-4);
    law();
    loading_plate("penalty loading plate: contact force = m g + load (1%)", "penalty", pen, 1e-5, 0.1);
    loading_plate("DVI loading plate: contact force = m g + load (1%)", "dvi", rigid, 1e-3, 0.1);
    return tap_done();
}
