/* dvi_problem.c: the last step's CCP of the DVI backend, for the exporters (dvi_problem.h). */
#include "dvi_problem.h"

#include "clab_backends.h"
#include "dvi_internal.h"

int clab_dvi_last_problem(const clab_sim *s, clab_dvi_problem *out, clab_error *err)
{
    if (s->type != &clab_backend_dvi)
        return clab_error_set(err, CLAB_EINVAL, "the %s backend has no cone complementarity problem to export "
                                                "(the DVI backend has)", s->type->name);
    const clab_dvi *d = s->self;
    if (d->ccp.n == 0 || d->h <= 0.0)
        return clab_error_set(err, CLAB_EINVAL, "dvi: no step with contacts yet: no problem to export");
    out->ccp = &d->ccp;
    out->exact = d->exact.friction == CLAB_FRICTION_EXACT;
    /* friction=exact leaves p shifted by the last solve; p0 holds the unshifted one */
    out->p = out->exact ? d->exact.p0 : d->ccp.p;
    out->nu = d->nu;
    out->recovery_speed = d->recovery_speed;
    return CLAB_OK;
}
