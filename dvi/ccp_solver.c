/* ccp_solver.c: the solver table, options, scratch arrays and helpers shared by the solvers */
#include "ccp_solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccp_fast.h"
#include "solver_internal.h"

static const clab_ccp_solver_type *const solvers[] = {&clab_ccp_solver_apgd, &clab_ccp_solver_gs,
                                                      &clab_ccp_solver_jacobi, &clab_ccp_solver_bb, NULL};

const clab_ccp_solver_type *const *clab_ccp_solvers(void) { return solvers; }

const clab_ccp_solver_type *clab_ccp_solver_lookup(const char *name)
{
    for (size_t i = 0; solvers[i]; i++)
        if (strcmp(solvers[i]->name, name) == 0) return solvers[i];
    return NULL;
}

clab_ccp_options clab_ccp_default_options(const clab_ccp_solver_type *solver)
{
    clab_ccp_options o;
    o.max_iter = 1000;
    o.tol = 1e-6;
    o.omega = solver && solver->default_omega > 0.0 ? solver->default_omega : 1.0;
    o.desaxce_p0 = NULL;
    return o;
}

void clab_ccp_work_init(clab_ccp_work *W) { memset(W, 0, sizeof *W); }

void clab_ccp_work_free(clab_ccp_work *W)
{
    for (int i = 0; i < CLAB_CCP_WORK_SLOTS; i++) free(W->slot[i]);
    free(W->history);
    clab_ccp_work_init(W);
}

double *clab_ccp_work_get(clab_ccp_work *W, int i, size_t len)
{
    if (i < 0 || i >= CLAB_CCP_WORK_SLOTS) return NULL;
    if (len > W->cap[i] || !W->slot[i]) {
        size_t cap = len + len / 2 + 16;
        double *p = realloc(W->slot[i], cap * sizeof *p);
        if (!p) return NULL;
        W->slot[i] = p;
        W->cap[i] = cap;
    }
    return W->slot[i];
}

double clab_sym3_max_eigenvalue(const double A[9])
{
    /* closed form for symmetric 3x3 (Smith 1961): eigenvalues q + 2 p cos(phi + 2 pi k/3) */
    double p1 = A[1] * A[1] + A[2] * A[2] + A[5] * A[5];
    double a0 = A[0], a1 = A[4], a2 = A[8];
    if (p1 == 0.0) return fmax(a0, fmax(a1, a2));
    double q = (a0 + a1 + a2) / 3.0;
    double p2 = (a0 - q) * (a0 - q) + (a1 - q) * (a1 - q) + (a2 - q) * (a2 - q) + 2.0 * p1;
    double p = sqrt(p2 / 6.0);
    double b0 = (a0 - q) / p, b1 = (a1 - q) / p, b2 = (a2 - q) / p;
    double b01 = A[1] / p, b02 = A[2] / p, b12 = A[5] / p;
    double detB = b0 * (b1 * b2 - b12 * b12) - b01 * (b01 * b2 - b12 * b02) + b02 * (b01 * b12 - b1 * b02);
    double r = 0.5 * detB;
    double phi = r <= -1.0 ? M_PI / 3.0 : (r >= 1.0 ? 0.0 : acos(r) / 3.0);
    return q + 2.0 * p * cos(phi);
}

/* the error for a singular diagonal block i */
static int singular(const clab_ccp *P, size_t i, clab_error *err)
{
    const clab_ccp_block *bl = &P->blocks[i];
    return clab_error_set(err, CLAB_ENUMERIC,
                          "dvi: singular diagonal block of N for %s %zu (rows %zu..%zu): no body can move",
                          bl->kind == CLAB_CCP_CONE ? "contact" : "joint",
                          bl->kind == CLAB_CCP_CONE ? i : i - P->ncontacts, bl->first,
                          bl->first + (size_t)bl->size - 1);
}

/* inverse of a symmetric 3x3 by cofactors; returns 0 when singular */
static int sym3_inverse(const double A[9], double X[9])
{
    double c00 = A[4] * A[8] - A[5] * A[7], c01 = A[5] * A[6] - A[3] * A[8], c02 = A[3] * A[7] - A[4] * A[6];
    double det = A[0] * c00 + A[1] * c01 + A[2] * c02;
    double scale = fabs(A[0]) + fabs(A[4]) + fabs(A[8]);
    if (!(fabs(det) > 1e-14 * scale * scale * scale)) return 0;
    double id = 1.0 / det;
    X[0] = c00 * id;
    X[1] = (A[2] * A[7] - A[1] * A[8]) * id;
    X[2] = (A[1] * A[5] - A[2] * A[4]) * id;
    X[3] = c01 * id;
    X[4] = (A[0] * A[8] - A[2] * A[6]) * id;
    X[5] = (A[2] * A[3] - A[0] * A[5]) * id;
    X[6] = c02 * id;
    X[7] = (A[1] * A[6] - A[0] * A[7]) * id;
    X[8] = (A[0] * A[4] - A[1] * A[3]) * id;
    return 1;
}

/* lambda_max and inverse of block i into fi; CLAB_ENUMERIC when singular */
static int block_factor(const clab_ccp *P, size_t i, double *fi, clab_error *err)
{
    const clab_ccp_block *bl = &P->blocks[i];
    int ok;
    if (bl->size == 1) {
        fi[0] = bl->Nii[0];
        ok = bl->Nii[0] > 0.0;
        fi[1] = ok ? 1.0 / bl->Nii[0] : 0.0;
    } else {
        /* contacts: lambda_max kept by clab_ccp_update_blocks */
        fi[0] = i < P->ncontacts ? P->cone[4 * i + 2] : clab_sym3_max_eigenvalue(bl->Nii);
        ok = sym3_inverse(bl->Nii, fi + 1);
    }
    if (!ok || !(fi[0] > 0.0) || !isfinite(fi[0])) return singular(P, i, err);
    return CLAB_OK;
}

int clab_ccp_block_factors(const clab_ccp *P, double *f, clab_error *err)
{
    for (size_t i = 0; i < P->nblocks; i++) {
        int rc = block_factor(P, i, &f[CLAB_BLOCK_FACTORS * i], err);
        if (rc) return rc;
    }
    return CLAB_OK;
}

int clab_ccp_joint_factors(const clab_ccp *P, double *f, clab_error *err)
{
    for (size_t i = 0; i < P->ncontacts; i++) {
        double l = P->cone[4 * i + 2];
        if (!(l > 0.0) || !isfinite(l)) return singular(P, i, err);
    }
    for (size_t i = P->ncontacts; i < P->nblocks; i++) {
        int rc = block_factor(P, i, &f[CLAB_BLOCK_FACTORS * (i - P->ncontacts)], err);
        if (rc) return rc;
    }
    return CLAB_OK;
}

int clab_ccp_begin(const clab_ccp_options *o, clab_ccp_work *W, clab_ccp_result *res, clab_error *err)
{
    memset(res, 0, sizeof *res);
    size_t need = (size_t)(o->max_iter > 0 ? o->max_iter : 1);
    if (need > W->cap_history || !W->history) {
        double *h = realloc(W->history, need * sizeof *h);
        if (!h) return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory for a residual history of %zu", need);
        W->history = h;
        W->cap_history = need;
    }
    res->history = W->history;
    return CLAB_OK;
}

int clab_ccp_finish(const char *solver, const clab_ccp_options *o, clab_ccp_result *res, double r, clab_error *err)
{
    res->residual = r;
    res->converged = r <= o->tol;
    if (!isfinite(r))
        return clab_error_set(err, CLAB_ENUMERIC, "dvi: %s solver produced a non-finite residual after %ld iterations",
                              solver, res->iterations);
    if (!res->converged)
        return clab_error_set(err, CLAB_EMAXITER, "dvi: %s solver stopped at %ld iterations with residual %g m/s > tol %g",
                              solver, res->iterations, r, o->tol);
    return CLAB_OK;
}

double clab_ccp_lipschitz_guess(const clab_ccp *P, const double *x, double *a, double *b, double *u, double *F)
{
    double floor = 0.0;
    for (size_t i = 0; i < P->ncontacts; i++)
        if (P->cone[4 * i + 2] > floor) floor = P->cone[4 * i + 2];
    for (size_t i = P->ncontacts; i < P->nblocks; i++) {
        const clab_ccp_block *bl = &P->blocks[i];
        double l = bl->size == 1 ? bl->Nii[0] : clab_sym3_max_eigenvalue(bl->Nii);
        if (l > floor) floor = l;
    }
    double num = 0.0, den = 0.0;
    for (size_t k = 0; k < P->n; k++) a[k] = x[k] - 1.0;
    clab_ccp_apply_N_F(P, a, F, u, b);
    for (size_t k = 0; k < P->n; k++) {
        num += b[k] * b[k];
        den += a[k] * a[k];
    }
    double L = den > 0.0 ? sqrt(num / den) : 0.0;
    return L > floor ? L : floor;
}
