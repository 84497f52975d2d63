/* cone_mesh.c: the penetrometer mesh and the force on a mesh (cone_mesh.h) */
#include "cone_mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void put(double *t, const double *a, const double *b, const double *c)
{
    memcpy(t, a, 3 * sizeof *t);
    memcpy(t + 3, b, 3 * sizeof *t);
    memcpy(t + 6, c, 3 * sizeof *t);
}

size_t xp_cone_mesh(double Rc, double alpha, double Ls, int nseg, double **xyz)
{
    *xyz = NULL;
    if (nseg < 3 || !(Rc > 0.0) || !(Ls > 0.0) || !(alpha > 0.0 && alpha < 0.5 * M_PI)) return 0;
    const double Hc = Rc / tan(alpha);
    const size_t n = (size_t)nseg, ntri = n + 2 * n + (n - 2);
    double *lo = malloc(3 * n * sizeof *lo), *hi = malloc(3 * n * sizeof *hi), *t = malloc(9 * ntri * sizeof *t);
    if (!lo || !hi || !t) {
        free(lo), free(hi), free(t);
        return 0;
    }
    for (size_t k = 0; k < n; k++) { /* the rings at the cone's base and the shaft's top */
        double ph = 2.0 * M_PI * (double)k / (double)n;
        lo[3 * k] = hi[3 * k] = Rc * cos(ph);
        lo[3 * k + 1] = hi[3 * k + 1] = Rc * sin(ph);
        lo[3 * k + 2] = Hc;
        hi[3 * k + 2] = Hc + Ls;
    }
    const double apex[3] = {0.0, 0.0, 0.0};
    size_t m = 0;
    for (size_t k = 0; k < n; k++) put(t + 9 * m++, apex, lo + 3 * k, lo + 3 * ((k + 1) % n));
    for (size_t k = 0; k < n; k++) {
        size_t j = (k + 1) % n;
        put(t + 9 * m++, lo + 3 * k, lo + 3 * j, hi + 3 * j);
        put(t + 9 * m++, lo + 3 * k, hi + 3 * j, hi + 3 * k);
    }
    for (size_t k = 1; k + 1 < n; k++) put(t + 9 * m++, hi, hi + 3 * k, hi + 3 * (k + 1));
    free(lo);
    free(hi);
    *xyz = t;
    return m;
}

int xp_mesh_force(clab_sim *s, size_t first, size_t n, clab_vec3 o, clab_vec3 *F, clab_vec3 *T, clab_error *err)
{
    const size_t nb = s->world->nbodies;
    if (first + n > nb)
        return clab_error_set(err, CLAB_EINVAL, "mesh force: bodies %zu .. %zu out of range (%zu bodies)", first,
                              first + n - 1, nb);
    clab_vec3 *f = malloc((nb ? nb : 1) * sizeof *f), *tq = malloc((nb ? nb : 1) * sizeof *tq);
    int rc = f && tq ? clab_sim_body_forces(s, f, tq, err)
                     : clab_error_set(err, CLAB_ENOMEM, "mesh force: out of memory for %zu bodies", nb);
    clab_vec3 Fs = clab_v3(0, 0, 0), Ts = clab_v3(0, 0, 0);
    for (size_t i = first; rc == CLAB_OK && i < first + n; i++) {
        Fs = clab_v3_add(Fs, f[i]);
        Ts = clab_v3_add(Ts, clab_v3_add(tq[i], clab_v3_cross(clab_v3_sub(s->world->bodies[i].r, o), f[i])));
    }
    free(f);
    free(tq);
    if (F) *F = Fs;
    if (T) *T = Ts;
    return rc;
}
