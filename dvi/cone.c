/* cone.c: exact Euclidean projections onto the friction cone K_i of seed 000 (Sect. 4),
 * its polar K_i° and its dual K_i*; see cone.h for the sets. */
#include "cone.h"

#include <math.h>

void clab_cone_project(double mu, double x[3])
{
    double xn = x[0];
    double s = sqrt(x[1] * x[1] + x[2] * x[2]); /* |x_T| */
    /* inside K: mu x_n >= |x_T| (x_n >= 0 also needed when mu = 0) */
    if (xn >= 0.0 && s <= mu * xn) return;
    /* inside the polar cone: -x_n >= mu |x_T|, the nearest point of K is the apex */
    if (mu * s <= -xn) {
        x[0] = x[1] = x[2] = 0.0;
        return;
    }
    /* otherwise onto the generator (1, mu x_T/|x_T|)/sqrt(1 + mu^2) of the boundary through
     * x_T (s > 0 here: s = 0 is always one of the two cases above) */
    double a = (xn + mu * s) / (1.0 + mu * mu);
    x[0] = a;
    x[1] *= mu * a / s;
    x[2] *= mu * a / s;
}

void clab_cone_project_polar(double mu, double x[3])
{
    double k[3] = {x[0], x[1], x[2]};
    clab_cone_project(mu, k);
    x[0] -= k[0];
    x[1] -= k[1];
    x[2] -= k[2];
}

void clab_cone_project_dual(double mu, double x[3])
{
    double k[3] = {-x[0], -x[1], -x[2]};
    clab_cone_project(mu, k);
    x[0] += k[0];
    x[1] += k[1];
    x[2] += k[2];
}

double clab_cone_dist(double mu, const double x[3])
{
    double y[3] = {x[0], x[1], x[2]};
    clab_cone_project_polar(mu, y);
    return sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
}

double clab_cone_dist_dual(double mu, const double x[3])
{
    double y[3] = {-x[0], -x[1], -x[2]};
    clab_cone_project(mu, y);
    return sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
}
