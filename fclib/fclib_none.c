/* fclib_none.c: the build without FCLIB (clab_fclib.h): every call says what to install. */
#include <string.h>

#include "clab_fclib.h"

const char *clab_fc_missing(void)
{
    return "contactlab was built without FCLIB: install libfclib-dev (Debian/Ubuntu: apt-get install "
           "libfclib-dev, which brings libhdf5-dev), then re-run configure";
}

int clab_fc_available(void) { return 0; }

void clab_fc_init(clab_fc_problem *fp) { memset(fp, 0, sizeof *fp); }
void clab_fc_free(clab_fc_problem *fp) { clab_fc_init(fp); }

static int missing(clab_error *err) { return clab_error_set(err, CLAB_EINVAL, "%s", clab_fc_missing()); }

int clab_fc_from_sim(const clab_sim *s, clab_fc_problem *fp, clab_error *err)
{
    (void)s;
    clab_fc_init(fp);
    return missing(err);
}
int clab_fc_write(const clab_fc_problem *fp, const char *path, clab_error *err)
{
    (void)fp, (void)path;
    return missing(err);
}
int clab_fc_read(const char *path, clab_fc_problem *fp, clab_error *err)
{
    (void)path;
    clab_fc_init(fp);
    return missing(err);
}
int clab_fc_csc_alloc(clab_fc_csc *A, int m, int n, size_t nnz)
{
    (void)A, (void)m, (void)n, (void)nnz;
    return CLAB_ENOMEM;
}
int clab_fc_M_inverse(const clab_fc_csc *M, double *Minv, clab_error *err)
{
    (void)M, (void)Minv;
    return missing(err);
}
int clab_fc_form_W(const clab_fc_csc *H, const double *Minv, clab_fc_csc *W)
{
    (void)H, (void)Minv, (void)W;
    return CLAB_EINVAL;
}
void clab_fc_local_velocity(const clab_fc_problem *fp, const double *r, double *u) { (void)fp, (void)r, (void)u; }
double clab_fc_error_siconos(const clab_fc_problem *fp, const double *r, const double *u)
{
    (void)fp, (void)r, (void)u;
    return -1.0;
}
double clab_fc_merit_fclib(const clab_fc_problem *fp, const double *r)
{
    (void)fp, (void)r;
    return -1.0;
}
int clab_fc_to_ccp(const clab_fc_problem *fp, clab_ccp *P, clab_error *err)
{
    (void)fp;
    clab_ccp_init(P);
    return missing(err);
}
