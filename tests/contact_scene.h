/* contact_scene.h: the pieces the contact tests build their scenes from: a fixed plane, a
 * sphere of given density and motion, and a sim from a list of "key=value" options.
 * Header-only test helper. */
#ifndef CLAB_TEST_CONTACT_SCENE_H
#define CLAB_TEST_CONTACT_SCENE_H

#include "clab_sim.h"
#include "tap.h"

/* a fixed plane through the origin of material mat, its normal e applied to +z */
static inline int add_plane_of(clab_world *w, clab_quat e, int mat)
{
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    d.e = e;
    d.material = mat;
    return clab_world_add_body(w, &d, NULL);
}

/* the same of material 0 */
static inline int add_plane(clab_world *w, clab_quat e) { return add_plane_of(w, e, 0); }

/* a sphere of radius R [m] and density rho [kg/m^3] at r, moving at v, spinning at omega */
static inline clab_body_def sphere_def(double R, double rho, clab_vec3 r, clab_vec3 v, clab_vec3 omega)
{
    clab_body_def d = clab_default_body_def();
    d.shape = clab_sphere(R);
    d.density = rho;
    d.r = r;
    d.rdot = v;
    d.omega = omega;
    return d;
}

static inline int add_sphere(clab_world *w, double R, double rho, clab_vec3 r, clab_vec3 v, clab_vec3 omega)
{
    clab_body_def d = sphere_def(R, rho, r, v, omega);
    return clab_world_add_body(w, &d, NULL);
}

/* a sim of backend at step h with the options opts ("key=value", NULL-terminated); NULL, with
 * a diagnostic, on failure */
static inline clab_sim *sim_with(clab_world *w, const char *backend, double h, const char *const *opts)
{
    clab_error err;
    clab_options o;
    clab_options_init(&o);
    for (int i = 0; opts[i]; i++)
        if (clab_options_parse(&o, opts[i], "test", &err)) tap_diag("option %s: %s", opts[i], err.msg);
    clab_sim *s = clab_sim_create(w, backend, h, &o, &err);
    clab_options_free(&o);
    if (!s) tap_diag("sim create failed: %s", err.msg);
    return s;
}

#endif
