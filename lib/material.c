/* material.c: defaults, validation and the pair mixing rule (see clab_material.h) */
#include "clab_material.h"
#include "clab_error.h"

#include <math.h>
#include <string.h>

clab_material clab_default_material(void)
{
    clab_material m;
    memset(&m, 0, sizeof m);
    strcpy(m.name, "default");
    m.mu = 0.5;
    m.E = 2.0e8;
    m.nu = 0.3;
    m.cor = 0.5;
    return m;
}

int clab_material_validate(const clab_material *m, clab_error *err)
{
    const char *nm = m->name[0] ? m->name : "(unnamed)";
    if (!(isfinite(m->mu) && m->mu >= 0.0))
        return clab_error_set(err, CLAB_EINVAL, "material '%s': friction mu = %g must be finite and >= 0", nm, m->mu);
    if (!(isfinite(m->mu_roll) && m->mu_roll >= 0.0))
        return clab_error_set(err, CLAB_EINVAL, "material '%s': rolling resistance mu_roll = %g must be finite and >= 0", nm, m->mu_roll);
    if (!(isfinite(m->E) && m->E > 0.0))
        return clab_error_set(err, CLAB_EINVAL, "material '%s': Young's modulus E = %g Pa must be finite and > 0", nm, m->E);
    if (!(isfinite(m->nu) && m->nu > -1.0 && m->nu < 0.5))
        return clab_error_set(err, CLAB_EINVAL, "material '%s': Poisson ratio nu = %g must lie in (-1, 0.5)", nm, m->nu);
    if (!(isfinite(m->cor) && m->cor > 0.0 && m->cor <= 1.0))
        return clab_error_set(err, CLAB_EINVAL, "material '%s': restitution cor = %g must lie in (0, 1]", nm, m->cor);
    const double *k[4] = {&m->kn, &m->kt, &m->gn, &m->gt};
    const char *kname[4] = {"kn", "kt", "gn", "gt"};
    for (int i = 0; i < 4; i++)
        if (!(isfinite(*k[i]) && *k[i] >= 0.0))
            return clab_error_set(err, CLAB_EINVAL, "material '%s': %s = %g must be finite and >= 0 (0 = derive)", nm, kname[i], *k[i]);
    return CLAB_OK;
}

static double harmonic_or_zero(double a, double b) { return (a > 0.0 && b > 0.0) ? 2.0 * a * b / (a + b) : 0.0; }
static double mean_or_zero(double a, double b) { return (a > 0.0 && b > 0.0) ? 0.5 * (a + b) : 0.0; }

clab_material_pair clab_material_mix(const clab_material *a, const clab_material *b)
{
    clab_material_pair p;
    p.mu = fmin(a->mu, b->mu);
    p.mu_roll = fmin(a->mu_roll, b->mu_roll);
    p.cor = fmin(a->cor, b->cor);
    p.Estar = 1.0 / ((1.0 - a->nu * a->nu) / a->E + (1.0 - b->nu * b->nu) / b->E);
    p.Gstar = 1.0 / (2.0 * (2.0 - a->nu) * (1.0 + a->nu) / a->E + 2.0 * (2.0 - b->nu) * (1.0 + b->nu) / b->E);
    p.kn = harmonic_or_zero(a->kn, b->kn);
    p.kt = harmonic_or_zero(a->kt, b->kt);
    p.gn = mean_or_zero(a->gn, b->gn);
    p.gt = mean_or_zero(a->gt, b->gt);
    return p;
}
