/* run_fclib.c: the FCLIB export of the drivers (fclib_xp.h): the DVI step's problem in both
 * FCLIB forms (fclib/clab_fclib.h) every N steps. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clab_fclib.h"
#include "fclib_xp.h"
#include "xp.h"

void xp_fclib_help(void)
{
    printf("  --fclib-dir DIR      write the DVI step's frictional-contact problem as FCLIB HDF5 files into DIR\n"
           "                       (global M v = H r + f and local W r + q = u forms, the step's impulses as\n"
           "                       the guess; doc/fclib.md): DIR/<name>-step<k>.hdf5%s\n"
           "  --fclib-every N      with --fclib-dir: every N steps (default 1)\n",
           clab_fc_available() ? "" : " (this build has no FCLIB)");
}

int xp_fclib_write_step(const clab_sim *s, const char *path, clab_error *err)
{
    clab_fc_problem fp;
    if (clab_fc_from_sim(s, &fp, err)) return -1;
    int rc = clab_fc_write(&fp, path, err);
    clab_fc_free(&fp);
    return rc ? -1 : 0;
}

int xp_fclib_after_step(xp_fclib_export *x, const clab_sim *s, clab_error *err)
{
    if (!x->dir) return 0;
    long k = s->world->step;
    if (x->every > 1 && k % x->every != 0) return 0;
    if (!clab_fc_available()) return clab_error_set(err, CLAB_EINVAL, "--fclib-dir: %s", clab_fc_missing()), -1;
    if (strcmp(s->type->name, "dvi") != 0)
        return clab_error_set(err, CLAB_EINVAL, "--fclib-dir: the %s backend has no cone complementarity problem to "
                                                "export (the DVI backend has: --backend dvi)", s->type->name), -1;
    if (x->written == 0 && x->skipped == 0 && xp_mkdir_p(x->dir))
        return clab_error_set(err, CLAB_EIO, "--fclib-dir: cannot create %s: %s", x->dir, strerror(errno)), -1;
    if (s->contacts.n == 0) { /* no contacts: no problem */
        x->skipped++;
        return 0;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-step%ld.hdf5", x->dir, x->name ? x->name : "dvi", k);
    if (xp_fclib_write_step(s, path, err)) return -1;
    x->written++;
    return 0;
}
