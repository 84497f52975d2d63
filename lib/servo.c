/* servo.c: the servo wall's law (clab_motion.h, clab_servo): the wall's speed along its axis
 * from the normal stress the sample puts on it, and the usual choice of its gain. */
#include <math.h>
#include <stdio.h>

#include "clab_motion.h"

int clab_servo_check(const clab_servo *s, char *why, size_t n)
{
    const clab_vec3 a = s->axis;
    if (!(isfinite(a.x) && isfinite(a.y) && isfinite(a.z)) || clab_v3_norm2(a) == 0.0) {
        snprintf(why, n, "axis = [%g, %g, %g]; allowed: a finite non-zero vector", a.x, a.y, a.z);
        return CLAB_EINVAL;
    }
    if (!isfinite(s->stress)) {
        snprintf(why, n, "stress = %g Pa; allowed: finite", s->stress);
        return CLAB_EINVAL;
    }
    const struct {
        const char *name, *unit;
        double v;
    } pos[] = {{"area", "m^2", s->area}, {"gain", "m/(s Pa)", s->gain}, {"vmax", "m/s", s->vmax}};
    for (int k = 0; k < 3; k++)
        if (!(isfinite(pos[k].v) && pos[k].v > 0.0)) {
            snprintf(why, n, "%s = %g %s; allowed: finite and > 0", pos[k].name, pos[k].v, pos[k].unit);
            return CLAB_EINVAL;
        }
    return CLAB_OK;
}

double clab_servo_speed(const clab_servo *s, clab_vec3 F)
{
    /* sigma = -F . axis / area (compressive positive), v = gain (sigma* - sigma), |v| <= vmax */
    const double sigma = -clab_v3_dot(F, s->axis) / s->area;
    const double v = s->gain * (s->stress - sigma);
    return v > s->vmax ? s->vmax : v < -s->vmax ? -s->vmax : v;
}

double clab_servo_gain(double area, double kn, double ncontacts, double h, double alpha)
{
    /* one step at speed v changes sigma by kn ncontacts v h / area: the fraction alpha of the
     * error closes in a step at gain = alpha area / (kn ncontacts h) */
    return alpha * area / (kn * ncontacts * h);
}
