/* siconos_none.c: the build without Siconos numerics (clab_siconos.h): every call says so. */
#include <string.h>

#include "clab_siconos.h"

int clab_sic_available(void) { return 0; }

const char *clab_sic_missing(void)
{
    return "contactlab was built without Siconos numerics: install it (Debian/Ubuntu: apt-get install "
           "libsiconos-numerics-dev, or scripts/install-siconos-deps.sh), then re-run configure";
}

const char *const *clab_sic_solvers(void)
{
    static const char *const none[] = {NULL};
    return none;
}

int clab_sic_solve(const clab_fc_problem *fp, const char *solver, double tol, long max_iter, double *r, double *u,
                   clab_sic_result *res, clab_error *err)
{
    (void)fp, (void)solver, (void)tol, (void)max_iter, (void)r, (void)u;
    memset(res, 0, sizeof *res);
    return clab_error_set(err, CLAB_EINVAL, "%s", clab_sic_missing());
}

double clab_sic_error(const clab_fc_problem *fp, const double *r)
{
    (void)fp, (void)r;
    return -1.0;
}
