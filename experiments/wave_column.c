/* wave_column.c: the columns of `contactlab wave` (wave.h): the frame (the plates and side
 * walls) that both packings share, and the simple-cubic column at its Hertz equilibrium (a
 * rigid one touching). */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "pile_scene.h"
#include "wave.h"

/* The column's frame: the material, the bottom plate (body 0), the side walls (1..4), the top
 * plate (5, a box of half height R whose underside is at ztop); the spheres come after. With
 * frictionless_walls the side walls get a frictionless copy of the material (the random
 * column: its spheres press on the walls, and walls that hold them by friction pin the
 * column's edge, so that a pulse dies out over a few diameters); else they share the spheres'
 * friction (the simple-cubic column, whose spheres touch the walls without force). */
clab_world *wave_frame(const wave_opts *o, double L, double ztop, int frictionless_walls, clab_error *err)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0.0, 0.0, 0.0);
    clab_world *w = clab_world_create(&wd);
    if (!w) return NULL;
    clab_material m = clab_default_material();
    m.E = o->E, m.nu = o->nu, m.mu = o->mu, m.cor = o->cor;
    clab_material mw = m;
    snprintf(mw.name, sizeof mw.name, "wall");
    mw.mu = 0.0;
    int iw = 0;
    if (clab_world_add_material(w, &m, err) < 0 || (frictionless_walls && (iw = clab_world_add_material(w, &mw, err)) < 0) ||
        xp_add_plane(w, "bottom", clab_v3(0, 0, 0), clab_v3(0, 0, 1), 0, err) ||
        xp_add_plane(w, "wall_xm", clab_v3(0, 0, 0), clab_v3(1, 0, 0), iw, err) ||
        xp_add_plane(w, "wall_xp", clab_v3(L, 0, 0), clab_v3(-1, 0, 0), iw, err) ||
        xp_add_plane(w, "wall_ym", clab_v3(0, 0, 0), clab_v3(0, 1, 0), iw, err) ||
        xp_add_plane(w, "wall_yp", clab_v3(0, L, 0), clab_v3(0, -1, 0), iw, err))
        goto fail;
    clab_body_def d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "top");
    const double hz = o->R, hx = 0.5 * L * (1.0 - 1e-3);
    d.shape = clab_box(hx, hx, hz);
    d.density = o->rho;
    d.r = clab_v3(0.5 * L, 0.5 * L, ztop + hz);
    if (clab_world_add_body(w, &d, err) < 0) goto fail;
    return w;
fail:
    clab_world_destroy(w);
    return NULL;
}

/* The simple-cubic column (compliant: at the Hertz equilibrium). */
clab_world *wave_world(const wave_opts *o, const wave_theory *t, int compliant, clab_error *err)
{
    const double a = t->a, L = o->nx * a, dw = compliant ? t->deltaw : 0.0, sp = compliant ? t->spacing : a;
    const double ztop = o->R - dw + (o->nz - 1) * sp + o->R - (compliant ? t->deltat : 0.0);
    clab_world *w = wave_frame(o, L, ztop, 0, err);
    if (!w) return NULL;
    for (int k = 0; k < o->nz; k++)
        for (int j = 0; j < o->nx; j++)
            for (int i = 0; i < o->nx; i++) {
                clab_body_def d = clab_default_body_def();
                snprintf(d.name, sizeof d.name, "s%d_%d_%d", k, j, i);
                d.shape = clab_sphere(o->R);
                d.density = o->rho;
                d.r = clab_v3(o->R + i * a, o->R + j * a, o->R - dw + k * sp);
                if (clab_world_add_body(w, &d, err) < 0) {
                    clab_world_destroy(w);
                    return NULL;
                }
            }
    return w;
}
