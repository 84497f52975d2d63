/* siconos.c: Siconos numerics' fc3d solvers on an FCLIB problem (clab_siconos.h). The local
 * form's W goes to a NumericsMatrix in sparse-block storage (3 x 3 blocks, from the triplets). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "SiconosConfig.h"
#include "FrictionContactProblem.h"
#include "Friction_cst.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "SparseBlockMatrix.h"
#include "fc3d_Solvers.h"
#include "fc3d_compute_error.h"

#include "clab_clock.h"
#include "clab_siconos.h"

int clab_sic_available(void) { return 1; }
const char *clab_sic_missing(void) { return ""; }

static const char *const names[] = {"nsgs", "prox", "vi-eg", "vi-fpp", "nsn-ac", NULL};
static const int ids[] = {SICONOS_FRICTION_3D_NSGS, SICONOS_FRICTION_3D_PROX, SICONOS_FRICTION_3D_VI_EG,
                          SICONOS_FRICTION_3D_VI_FPP, SICONOS_FRICTION_3D_NSN_AC};

const char *const *clab_sic_solvers(void) { return names; }

/* the problem with its own copies of q and mu (frictionContactProblem_free frees them); W in
 * sparse-block storage (3 x 3 blocks), the one the fc3d solvers work on without densifying */
static FrictionContactProblem *make_problem(const clab_fc_problem *fp)
{
    int n = (int)(3 * fp->nc);
    NumericsMatrix *T = NM_create(NM_SPARSE, n, n);
    if (!T) return NULL;
    NM_triplet_alloc(T, fp->W.p[fp->W.n]);
    for (int c = 0; c < fp->W.n; c++)
        for (int e = fp->W.p[c]; e < fp->W.p[c + 1]; e++) NM_entry(T, fp->W.i[e], c, fp->W.x[e]);
    SparseBlockStructuredMatrix *B = SBM_new();
    if (!B || SBM_from_csparse(3, NM_csc(T), B)) {
        NM_free(T);
        return NULL;
    }
    NM_free(T);
    NumericsMatrix *W = NM_new_SBM(n, n, B);
    double *q = malloc((size_t)(n ? n : 1) * sizeof *q), *mu = malloc((fp->nc ? fp->nc : 1) * sizeof *mu);
    if (!q || !mu) {
        free(q);
        free(mu);
        NM_free(W);
        return NULL;
    }
    memcpy(q, fp->q, (size_t)n * sizeof *q);
    memcpy(mu, fp->mu, fp->nc * sizeof *mu);
    return frictionContactProblem_new_with_data(3, (int)fp->nc, W, q, mu);
}

int clab_sic_solve(const clab_fc_problem *fp, const char *solver, double tol, long max_iter, double *r, double *u,
                   clab_sic_result *res, clab_error *err)
{
    memset(res, 0, sizeof *res);
    int k = 0;
    while (names[k] && strcmp(names[k], solver) != 0) k++;
    if (!names[k]) return clab_error_set(err, CLAB_EINVAL, "siconos: unknown solver '%s'", solver);
    FrictionContactProblem *pb = make_problem(fp);
    if (!pb) return clab_error_set(err, CLAB_ENOMEM, "siconos: out of memory for the problem");
    SolverOptions *o = solver_options_create(ids[k]);
    o->iparam[SICONOS_IPARAM_MAX_ITER] = (int)max_iter;
    o->dparam[SICONOS_DPARAM_TOL] = tol;
    double t0 = clab_clock();
    res->info = fc3d_driver(pb, r, u, o);
    res->seconds = clab_clock() - t0;
    res->iterations = o->iparam[SICONOS_IPARAM_ITER_DONE];
    res->error = o->dparam[SICONOS_DPARAM_RESIDU];
    solver_options_delete(o);
    frictionContactProblem_free(pb);
    clab_fc_local_velocity(fp, r, u);
    return CLAB_OK;
}

double clab_sic_error(const clab_fc_problem *fp, const double *r)
{
    FrictionContactProblem *pb = make_problem(fp);
    if (!pb) return -1.0;
    size_t n = 3 * fp->nc;
    double *z = malloc((n ? n : 1) * sizeof *z), *w = malloc((n ? n : 1) * sizeof *w), nq = 0.0, e = -1.0;
    if (z && w) {
        memcpy(z, r, n * sizeof *z);
        for (size_t k = 0; k < n; k++) nq += fp->q[k] * fp->q[k];
        SolverOptions *o = solver_options_create(SICONOS_FRICTION_3D_NSGS);
        fc3d_compute_error(pb, z, w, 0.0, o, sqrt(nq), &e);
        solver_options_delete(o);
    }
    free(z);
    free(w);
    frictionContactProblem_free(pb);
    return e;
}
