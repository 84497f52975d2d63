/* hopper_fit.c: the discharge count of contactlab hopper and its fits: the mass flow rate
 * of the steady part and Beverloo's law over the orifice sizes (hopper.h). */
#include <math.h>
#include <stdlib.h>

#include "hopper.h"

int hp_counter_init(hp_counter *k, size_t first, size_t n, double z_out, double slot)
{
    *k = (hp_counter){first, n, z_out, NULL, NULL, NULL, 0, 0.0, slot};
    k->t_out = malloc((n ? n : 1) * sizeof *k->t_out);
    k->m_cum = malloc((n ? n : 1) * sizeof *k->m_cum);
    k->t_cum = malloc((n ? n : 1) * sizeof *k->t_cum);
    if (!k->t_out || !k->m_cum || !k->t_cum) {
        hp_counter_free(k);
        return -1;
    }
    for (size_t i = 0; i < n; i++) k->t_out[i] = -1.0;
    return 0;
}

void hp_counter_free(hp_counter *k)
{
    free(k->t_out);
    free(k->m_cum);
    free(k->t_cum);
    k->t_out = k->m_cum = k->t_cum = NULL;
}

/* slot j of the freezing lattice: 32 x 32 a layer, from 20 slots below the discharge plane
 * down (the spheres count as frozen by t_out, not by where they are) */
static clab_vec3 slot_of(const hp_counter *k, size_t j)
{
    const double a = k->slot;
    return clab_v3(((double)(j % 32) - 15.5) * a, ((double)(j / 32 % 32) - 15.5) * a,
                   k->z_out - 20.0 * a - (double)(j / 1024) * a);
}

size_t hp_counter_step(hp_counter *k, clab_world *w, double t)
{
    size_t now = 0;
    for (size_t i = 0; i < k->n; i++) {
        if (k->t_out[i] >= 0.0) continue; /* counted once */
        clab_body *b = &w->bodies[k->first + i];
        if (!(b->r.z < k->z_out)) continue;
        k->t_out[i] = t;
        k->mass += b->m;
        k->t_cum[k->count] = t;
        k->m_cum[k->count] = k->mass;
        /* frozen: fixed, at rest, out of the way */
        b->fixed = 1;
        b->rdot = clab_v3(0.0, 0.0, 0.0);
        b->wbar = clab_v3(0.0, 0.0, 0.0);
        b->r = slot_of(k, k->count);
        k->count++;
        now++;
    }
    return now;
}

int hp_flow_rate(const double *t, const double *M, size_t n, double f_lo, double f_hi, double *W, double *r2)
{
    *W = NAN;
    *r2 = NAN;
    if (n < 3) return -1;
    const double Mend = M[n - 1], lo = f_lo * Mend, hi = f_hi * Mend;
    /* least squares M = W t + c over the window: centred sums (Press et al., Numerical Recipes,
     * Sect. 15.2) */
    double st = 0.0, sm = 0.0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (M[i] >= lo && M[i] <= hi) st += t[i], sm += M[i], m++;
    if (m < 3) return -1;
    const double tb = st / m, mb = sm / m;
    double stt = 0.0, stm = 0.0, smm = 0.0;
    for (size_t i = 0; i < n; i++)
        if (M[i] >= lo && M[i] <= hi) {
            const double dt = t[i] - tb, dm = M[i] - mb;
            stt += dt * dt, stm += dt * dm, smm += dm * dm;
        }
    if (!(stt > 0.0)) return -1;
    *W = stm / stt;
    *r2 = smm > 0.0 ? stm * stm / (stt * smm) : 1.0;
    return 0;
}

int hp_beverloo_fit(const double *D, const double *W, int n, double rho_b, double g, double d, hp_beverloo *fit)
{
    *fit = (hp_beverloo){NAN, NAN, NAN, NAN, NAN, 0};
    /* the line y = a D + b through (D_i, W_i^(2/5)), centred least squares */
    double sx = 0.0, sy = 0.0;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (W[i] > 0.0 && isfinite(W[i])) sx += D[i], sy += pow(W[i], 0.4), m++;
    fit->npoints = m;
    if (m < 2) return -1;
    const double xb = sx / m, yb = sy / m;
    double sxx = 0.0, sxy = 0.0, syy = 0.0;
    for (int i = 0; i < n; i++)
        if (W[i] > 0.0 && isfinite(W[i])) {
            const double dx = D[i] - xb, dy = pow(W[i], 0.4) - yb;
            sxx += dx * dx, sxy += dx * dy, syy += dy * dy;
        }
    if (!(sxx > 0.0)) return -1;
    fit->a = sxy / sxx;
    fit->b = yb - fit->a * xb;
    fit->r2 = syy > 0.0 ? sxy * sxy / (sxx * syy) : 1.0;
    if (!(fit->a > 0.0)) return -1;
    /* a = (C rho_b sqrt g)^(2/5), b = -k d a */
    fit->C = pow(fit->a, 2.5) / (rho_b * sqrt(g));
    fit->k = -fit->b / (fit->a * d);
    return 0;
}
