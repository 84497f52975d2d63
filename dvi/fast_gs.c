/* fast_gs.c: projected (nonsmooth) Gauss-Seidel / SOR for the CCP of Eq. (10) of seed 000,
 * block by block (a contact, or a joint), with the body velocities u = M^-1 P nu kept up to
 * date so each block sees the latest impulses of the others (Tasora and Anitescu 2011):
 *
 *     for each block k:  nu_k* = argmin { 1/2 x.N_kk x + r_k.x : x in C_k },
 *                        r_k = d_k - N_kk nu_k,  d_k = P_k^T u + p_k (+ compliance),
 *                        nu_k <- nu_k + omega (nu_k* - nu_k)  (projected again when omega > 1)
 *
 * The local problem uses the block's own 3x3 N_kk: a free block is solved exactly,
 * x = -N_kk^-1 r_k; a cone block exactly too (clab_cone_qp, cone_qp.c): x = -N_kk^-1 r_k when
 * that lies in K (stick), x = 0 when r_k lies in the dual cone K* (open), otherwise a point
 * of the boundary of K found by Newton's method on the cone surface (slide).
 * With omega in (0, 2) each block step lowers the objective of Eq. (11): block coordinate
 * descent, convergent for the convex QP. One sweep costs about one product with N. */
#include <math.h>

#include "ccp_fast.h"
#include "cone.h"
#include "solver_internal.h"

#define REFRESH 25 /* sweeps between recomputations of u = M^-1 P nu */

/* y = A x, A 3x3 row major */
static inline void mul3(const double A[9], const double x[3], double y[3])
{
    y[0] = A[0] * x[0] + A[1] * x[1] + A[2] * x[2];
    y[1] = A[3] * x[0] + A[4] * x[1] + A[5] * x[2];
    y[2] = A[6] * x[0] + A[7] * x[1] + A[8] * x[2];
}

/* u_a, u_b += M^-1 (P column block) dx for the rows of one block (world frame, ccp_fast.h):
 * F = sum_q t_q dx_q, +F and torque r_b x F on b, -F and -r_a x F on a */
static void add_velocity(const clab_ccp *P, size_t i, int m, const double *dx, double *u)
{
    const clab_ccp_item *it = &P->items[i];
    const double *t = it->t;
    double F[3];
    for (int c = 0; c < 3; c++) F[c] = t[c] * dx[0] + (m == 3 ? t[3 + c] * dx[1] + t[6 + c] * dx[2] : 0.0);
    for (int side = 0; side < 2; side++) {
        const size_t body = (size_t)(side ? it->b : it->a);
        const double *M = &P->minv[8 * body], *r = it->r + 3 * side, sg = side ? 1.0 : -1.0;
        double *ub = &u[6 * body];
        double T0 = sg * (r[1] * F[2] - r[2] * F[1]), T1 = sg * (r[2] * F[0] - r[0] * F[2]),
               T2 = sg * (r[0] * F[1] - r[1] * F[0]);
        ub[0] += sg * M[0] * F[0], ub[1] += sg * M[0] * F[1], ub[2] += sg * M[0] * F[2];
        ub[3] += M[1] * T0 + M[2] * T1 + M[3] * T2;
        ub[4] += M[2] * T0 + M[4] * T1 + M[5] * T2;
        ub[5] += M[3] * T0 + M[5] * T1 + M[6] * T2;
    }
}

/* d_k = P_k^T u + compliance nu_k + p_k for the rows of one block (u world) */
static void block_d(const clab_ccp *P, size_t i, const clab_ccp_block *bl, const double *u, const double *nu,
                    double *g)
{
    double v[3], o[3];
    clab_ccp_item_vrel(&P->items[i], u, v);
    clab_ccp_item_rows(&P->items[i], v, o);
    for (int k = 0; k < bl->size; k++) {
        size_t q = bl->first + (size_t)k;
        g[k] = o[k] + P->p[q] + P->compliance[q] * nu[q];
    }
}

static int solve(const clab_ccp *P, const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res,
                 clab_error *err)
{
    if (clab_ccp_begin(o, W, res, err)) return err ? err->status : CLAB_ENOMEM;
    if (P->n == 0) return clab_ccp_finish("gs", o, res, 0.0, err); /* nothing to solve */
    size_t n = P->n;
    double *d = clab_ccp_work_get(W, 0, n);
    double *u = clab_ccp_work_get(W, 1, 6 * P->nbodies);
    double *f = clab_ccp_work_get(W, 2, CLAB_BLOCK_FACTORS * P->nblocks);
    if (!d || !u || !f) return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory in the gs solver");
    int rc = clab_ccp_block_factors(P, f, err);
    if (rc) return rc;
    double omega = o->omega;

    clab_ccp_project(P, nu);
    clab_ccp_body_pass(P, nu, u, 0); /* u = M^-1 P nu, world frame */
    res->body_passes = 1;
    clab_ccp_gather(P, u, nu, 1, d);
    if (o->desaxce_p0) clab_desaxce_all(P, o->desaxce_p0, d); /* exact friction, inner */
    double r = clab_ccp_residual(P, nu, d);
    while (r > o->tol && res->iterations < o->max_iter && isfinite(r)) {
        /* one sweep over the blocks, in order */
        for (size_t i = 0; i < P->nblocks; i++) {
            const clab_ccp_block *bl = &P->blocks[i];
            const double *fi = &f[CLAB_BLOCK_FACTORS * i];
            double *x = &nu[bl->first];
            double g[3], xn[3], dx[3];
            int m = bl->size;
            block_d(P, i, bl, u, nu, g);
            if (o->desaxce_p0) clab_desaxce_block(P, o->desaxce_p0, i, g); /* exact friction, inner */
            if (bl->kind == CLAB_CCP_CONE) {
                /* local problem in x: r = d_k - N_kk nu_k */
                double Nx[3], rl[3];
                mul3(bl->Nii, x, Nx);
                for (int k = 0; k < 3; k++) {
                    rl[k] = g[k] - Nx[k];
                    xn[k] = x[k];
                }
                clab_cone_qp(bl->mu, bl->Nii, fi + 1, fi[0], rl, xn);
                for (int k = 0; k < 3; k++) xn[k] = x[k] + omega * (xn[k] - x[k]);
                if (omega > 1.0) clab_cone_project(bl->mu, xn);
            } else {
                for (int a = 0; a < m; a++) {
                    double s = 0.0;
                    for (int b = 0; b < m; b++) s += fi[1 + a * m + b] * g[b];
                    xn[a] = x[a] - omega * s;
                }
            }
            int moved = 0;
            for (int k = 0; k < m; k++) {
                dx[k] = xn[k] - x[k];
                moved |= dx[k] != 0.0;
                x[k] = xn[k];
            }
            if (moved) add_velocity(P, i, m, dx, u);
        }
        /* u drifts by round-off under the incremental updates: rebuild it now and then */
        if ((res->iterations + 1) % REFRESH == 0) {
            clab_ccp_body_pass(P, nu, u, 0);
            res->body_passes++;
        }
        clab_ccp_gather(P, u, nu, 1, d);
        if (o->desaxce_p0) clab_desaxce_all(P, o->desaxce_p0, d); /* exact friction, inner */
        r = clab_ccp_residual(P, nu, d);
        clab_ccp_record(W, res, r);
    }
    return clab_ccp_finish("gs", o, res, r, err);
}

const clab_ccp_solver_type clab_ccp_solver_gs = {
    "gs", "projected Gauss-Seidel/SOR, block by block with exact local solves (omega default 1)", 1.0, solve};
