/* gauss_seidel.c: the local dynamics U = W R + B of the active contacts, C(U, R) = 0, solved
 * by Gauss-Seidel over the contacts as Solfec does: for each contact i in turn, its local
 * free velocity B_i + sum_{j != i} W_ij R_j with the latest R_j, then the exact local law on
 * the 3x3 problem (Alart-Curnier's Newton, local_solver.h). A sweep ends with the residual,
 * max_i |F_i(R)|/rho_i over the contacts with every R_j of that sweep [m/s]; the iteration
 * stops when it is at most tol, or after max_iter sweeps (counted). */
#include <math.h>

#include "midpoint.h"

/* B_i + sum_j W_ij R_j */
static void local_free(const clab_midpoint *s, const clab_mp_row *r, double b[3])
{
    b[0] = r->B[0], b[1] = r->B[1], b[2] = r->B[2];
    for (size_t q = r->off; q < r->off + r->noff; q++) {
        const double *Wij = &s->offW[9 * q], *Rj = s->row[s->offj[q]].R;
        for (int p = 0; p < 3; p++) b[p] += Wij[3 * p] * Rj[0] + Wij[3 * p + 1] * Rj[1] + Wij[3 * p + 2] * Rj[2];
    }
}

/* the diagnostics of the solution: R outside K, U_n < 0, |R_n U_n| */
static void diagnose(clab_midpoint *s)
{
    s->outside_K = s->normal_violation = s->complementarity = 0.0;
    for (size_t i = 0; i < s->nrow; i++) {
        const clab_mp_row *r = &s->row[i];
        if (!r->active) continue;
        double b[3];
        local_free(s, r, b);
        const double Un = r->W[0] * r->R[0] + r->W[1] * r->R[1] + r->W[2] * r->R[2] + b[0];
        const double out = fmax(-r->R[0], hypot(r->R[1], r->R[2]) - r->mu * fmax(r->R[0], 0.0));
        s->outside_K = fmax(s->outside_K, out);
        s->normal_violation = fmax(s->normal_violation, -Un);
        s->complementarity = fmax(s->complementarity, fabs(r->R[0] * Un));
    }
}

void clab_mp_gauss_seidel(clab_midpoint *s)
{
    s->iterations = 0;
    s->residual = 0.0;
    size_t nactive = 0;
    for (size_t i = 0; i < s->nrow; i++) nactive += s->row[i].active;
    if (nactive == 0) {
        diagnose(s);
        return;
    }
    for (;;) {
        s->iterations++;
        for (size_t i = 0; i < s->nrow; i++) {
            clab_mp_row *r = &s->row[i];
            if (!r->active) continue;
            double b[3];
            local_free(s, r, b);
            const clab_mp_local_result lr = clab_mp_local_solve(r->W, b, r->mu, &s->local, r->R, NULL);
            if (!lr.converged) s->local_failures++;
        }
        double res = 0.0;
        for (size_t i = 0; i < s->nrow; i++) {
            const clab_mp_row *r = &s->row[i];
            if (!r->active) continue;
            double b[3];
            local_free(s, r, b);
            res = fmax(res, clab_mp_local_residual(r->W, b, r->mu, clab_mp_local_rho(r->W, &s->local), r->R));
        }
        s->residual = res;
        if (res <= s->tol) break;
        if (s->iterations >= s->max_iter) {
            s->maxiter_hits++;
            break;
        }
    }
    s->solves++;
    s->total_iterations += s->iterations;
    diagnose(s);
}
