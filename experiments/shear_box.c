/* shear_box.c: the split box of the direct shear test (shear.h): its walls, the loading plate
 * and its servo, and what the sample puts on them. */
#include "config.h"

#include "shear.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* a box of half extents hx, hy, hz centered at (x, y, z); fixed (a wall of the frame) */
static long add_box(clab_world *w, const char *name, double x, double y, double z, double hx, double hy, double hz,
                    int mat, clab_error *err)
{
    clab_body_def d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "%s", name);
    d.shape = clab_box(hx, hy, hz);
    d.fixed = 1;
    d.material = mat;
    d.r = clab_v3(x, y, z);
    return clab_world_add_body(w, &d, err);
}

clab_world *sh_build(const gr_sample *smp, const gr_material *mat, double mu_wall, double max_shift, double sigma_n,
                     sh_geom *g, clab_error *err)
{
    clab_world *w = clab_world_create(NULL);
    if (!w) {
        clab_error_set(err, CLAB_ENOMEM, "shear: out of memory");
        return NULL;
    }
    memset(g, 0, sizeof *g);
    g->L = smp->hi[0] - smp->lo[0];
    g->W = smp->hi[1] - smp->lo[1];
    const double H = smp->hi[2], d = mat->d;
    g->zs = 0.5 * H;
    g->T = max_shift + 2.0 * d;
    g->plate_t = 2.0 * d;
    g->clearance = 0.05 * d;
    g->ztop = H + g->plate_t + 3.0 * d; /* room for the plate's rise (dilation: a few percent of H) */
    const double L2 = 0.5 * g->L, W2 = 0.5 * g->W, T = g->T, T2 = 0.5 * T;

    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "grain");
    m.mu = mat->mu;
    m.E = mat->E;
    m.nu = mat->nu;
    m.cor = mat->cor;
    int rough = clab_world_add_material(w, &m, err);
    snprintf(m.name, sizeof m.name, "frame");
    m.mu = mu_wall;
    int smooth = rough < 0 ? -1 : clab_world_add_material(w, &m, err);
    if (smooth < 0) goto fail;

    /* the floor: the half-space z < 0 */
    clab_body_def fl = clab_default_body_def();
    snprintf(fl.name, sizeof fl.name, "floor");
    fl.shape = clab_plane();
    fl.fixed = 1;
    fl.material = rough;
    long k = clab_world_add_body(w, &fl, err);
    if (k < 0) goto fail;
    g->floor = (size_t)k;
    /* the two halves: walls x = -+L/2 (long across y), then y = -+W/2 (long along x, over
     * the x walls' thickness and beyond by the largest shift) */
    const double zl = 0.5 * g->zs, hl = 0.5 * g->zs;
    const double zu = 0.5 * (g->zs + g->ztop), hu = 0.5 * (g->ztop - g->zs);
    static const char *const names[2][4] = {{"lower_xm", "lower_xp", "lower_ym", "lower_yp"},
                                            {"upper_xm", "upper_xp", "upper_ym", "upper_yp"}};
    for (int half = 0; half < 2; half++) {
        double zc = half ? zu : zl, hz = half ? hu : hl;
        size_t *idx = half ? g->upper : g->lower;
        long b[4] = {add_box(w, names[half][0], -L2 - T2, 0.0, zc, T2, W2 + T, hz, smooth, err),
                     add_box(w, names[half][1], L2 + T2, 0.0, zc, T2, W2 + T, hz, smooth, err),
                     add_box(w, names[half][2], 0.0, -W2 - T2, zc, L2 + T + max_shift, T2, hz, smooth, err),
                     add_box(w, names[half][3], 0.0, W2 + T2, zc, L2 + T + max_shift, T2, hz, smooth, err)};
        for (int i = 0; i < 4; i++) {
            if (b[i] < 0) goto fail;
            idx[i] = (size_t)b[i];
        }
    }
    /* the plate on the sample's top: free, loaded, its rotation blocked (a guided cap) */
    clab_body_def pd = clab_default_body_def();
    snprintf(pd.name, sizeof pd.name, "plate");
    pd.shape = clab_box(L2 - g->clearance, W2 - g->clearance, 0.5 * g->plate_t);
    pd.mass = mat->density * (g->L - 2.0 * g->clearance) * (g->W - 2.0 * g->clearance) * g->plate_t;
    pd.material = rough;
    pd.r = clab_v3(0.0, 0.0, H + 0.5 * g->plate_t);
    k = clab_world_add_body(w, &pd, err);
    if (k < 0) goto fail;
    g->plate = (size_t)k;
    w->bodies[k].J = clab_v3_scale(w->bodies[k].J, SH_PLATE_J);
    const double A = g->L * g->W, weight = -w->gravity.z * pd.mass;
    if (sigma_n * A <= weight) {
        clab_error_set(err, CLAB_EINVAL, "shear: sigma_n = %g Pa is below the plate's own weight over the box, %g Pa",
                       sigma_n, weight / A);
        goto fail;
    }
    if (clab_world_set_load(w, g->plate, clab_v3(0.0, 0.0, -(sigma_n * A - weight)), clab_v3(0, 0, 0), err))
        goto fail;
    g->plate_weight = weight;
    if (gr_sample_add(smp, mat, rough, w, &g->first, err)) goto fail;
    g->n = smp->n;

    /* frame walls: driven, at rest until the shear starts */
    for (int i = 0; i < 4; i++) {
        clab_motion mo = clab_motion_constant(clab_v3(0, 0, 0), clab_v3(0, 0, 0));
        if (clab_world_set_motion(w, g->upper[i], &mo, err)) goto fail;
    }
    return w;
fail:
    clab_world_destroy(w);
    return NULL;
}

int sh_set_shear_speed(clab_sim *s, const sh_geom *g, double v, clab_error *err)
{
    const clab_vec3 vel = clab_v3(v, 0.0, 0.0), zero = clab_v3(0.0, 0.0, 0.0);
    for (int i = 0; i < 4; i++)
        if (clab_sim_set_body_velocity(s, g->upper[i], vel, zero, err)) return -1;
    return 0;
}

int sh_measure(clab_sim *s, const sh_geom *g, clab_vec3 *F, sh_load *ld, clab_error *err)
{
    if (clab_sim_body_forces(s, F, NULL, err)) return -1;
    double fx = 0.0; /* the plate's push on the frame is among the frame's contacts */
    for (int i = 0; i < 4; i++) fx += F[g->upper[i]].x;
    ld->shear = -fx;
    ld->normal = F[g->plate].z;
    return 0;
}

double sh_upper_weight(const clab_world *w, const sh_geom *g)
{
    double m = 0.0;
    for (size_t i = 0; i < g->n; i++) {
        const clab_body *b = &w->bodies[g->first + i];
        if (b->r.z > g->zs) m += b->m;
    }
    return -w->gravity.z * m;
}
