/* lcp_lemke.c: the whole Stewart-Trinkle LCP of a step by Lemke's method (lemke.c), dense.
 *   1. N = P^T M^-1 P over the rows n, u, w of every contact and the joint rows (dense);
 *   2. joints eliminated (their rows are equalities, G^T v+ + g/h = 0): with C the contact
 *      rows and J the joint rows, nu_J = -N_JJ^-1 (p_J + N_JC nu_C), so the contacts see
 *      N_CC - N_CJ N_JJ^-1 N_JC and p_C - N_CJ N_JJ^-1 p_J (Cholesky of N_JJ; dependent
 *      joint rows are refused);
 *   3. the LCP in z = (c_n, beta, lambda) per contact: the blocks S_i T_i^T N_ij T_j S_j and
 *      the lambda couplings of clab_lcp_local, q = S (T^T p, 0); solved from z = 0
 *      (lemke_start=cold), or (lemke_start=pgs) from the complementary basis of the pgs answer
 *      in s->z, z_i basic where z_i > w_i (clab_lemke_solve_from), falling back to z = 0 when
 *      that start ends on a ray, a cycle or the pivot bound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcp_internal.h"

static int reserve(double **p, size_t *cap, size_t n)
{
    if (n <= *cap && *p) return CLAB_OK;
    double *q = realloc(*p, (n ? n : 1) * sizeof *q);
    if (!q) return CLAB_ENOMEM;
    *p = q;
    *cap = n;
    return CLAB_OK;
}

/* in-place Cholesky L L^T of the n x n block A (row stride ld); -1 when not positive definite */
static int cholesky(double *A, size_t n, size_t ld)
{
    for (size_t j = 0; j < n; j++) {
        double d = A[j * ld + j];
        for (size_t k = 0; k < j; k++) d -= A[j * ld + k] * A[j * ld + k];
        if (!(d > 1e-14 * fabs(A[j * ld + j])) || !(d > 0.0)) return -1;
        const double l = sqrt(d);
        A[j * ld + j] = l;
        for (size_t i = j + 1; i < n; i++) {
            double v = A[i * ld + j];
            for (size_t k = 0; k < j; k++) v -= A[i * ld + k] * A[j * ld + k];
            A[i * ld + j] = v / l;
        }
    }
    return 0;
}

/* x <- A^-1 x with A = L L^T from cholesky() */
static void chol_solve(const double *L, size_t n, size_t ld, double *x)
{
    for (size_t i = 0; i < n; i++) {
        double v = x[i];
        for (size_t k = 0; k < i; k++) v -= L[i * ld + k] * x[k];
        x[i] = v / L[i * ld + i];
    }
    for (size_t i = n; i-- > 0;) {
        double v = x[i];
        for (size_t k = i + 1; k < n; k++) v -= L[k * ld + i] * x[k];
        x[i] = v / L[i * ld + i];
    }
}

/* column a of T (clab_lcp_local): the normal, or edge a - 1 */
static void t_col(const clab_lcp_cone *K, int a, double t[3])
{
    t[0] = a == 0 ? 1.0 : 0.0;
    t[1] = a == 0 ? 0.0 : K->c[a - 1];
    t[2] = a == 0 ? 0.0 : K->s[a - 1];
}

/* the scaled LCP (nl x nl) from the contacts' rows of N (stride n) and p_C */
static void assemble(const clab_lcp *s, const double *Nd, size_t n, const double *pc, double *A, double *q)
{
    const clab_lcp_cone *K = &s->cone;
    const clab_ccp *P = &s->ccp;
    const int k = K->k, m = k + 2;
    const size_t nk = P->ncontacts, nl = (size_t)m * nk;
    memset(A, 0, nl * nl * sizeof *A);
    for (size_t i = 0; i < nk; i++) {
        const double si = clab_lcp_scale(&P->blocks[i]);
        for (size_t j = 0; j < nk; j++) {
            const double *B = &Nd[3 * i * n + 3 * j], sj = clab_lcp_scale(&P->blocks[j]);
            if (B[0] == 0.0 && B[1] == 0.0 && B[2] == 0.0 && B[n] == 0.0 && B[n + 1] == 0.0 && B[n + 2] == 0.0 &&
                B[2 * n] == 0.0 && B[2 * n + 1] == 0.0 && B[2 * n + 2] == 0.0)
                continue; /* no body in common */
            for (int b = 0; b <= k; b++) {
                double tb[3], Bt[3];
                t_col(K, b, tb);
                for (int x = 0; x < 3; x++) Bt[x] = B[x * n] * tb[0] + B[x * n + 1] * tb[1] + B[x * n + 2] * tb[2];
                for (int a = 0; a <= k; a++) {
                    double ta[3];
                    t_col(K, a, ta);
                    A[(m * i + a) * nl + m * j + b] = si * sj * (ta[0] * Bt[0] + ta[1] * Bt[1] + ta[2] * Bt[2]);
                }
            }
        }
        /* lambda e in the beta rows, mu c_n - e^T beta in the lambda row (scaled as clab_lcp_local) */
        const size_t l = m * i + k + 1;
        for (int b = 1; b <= k; b++) {
            A[(m * i + b) * nl + l] = 1.0;
            A[l * nl + m * i + b] = -1.0;
        }
        A[l * nl + m * i] = P->blocks[i].mu;
        q[m * i] = si * pc[3 * i];
        for (int b = 1; b <= k; b++) q[m * i + b] = si * (K->c[b - 1] * pc[3 * i + 1] + K->s[b - 1] * pc[3 * i + 2]);
        q[l] = 0.0;
    }
}

/* lemke_start=pgs: the complementary basis of the pgs answer s->z (unscaled), z_i basic where
 * z'_i > w'_i for z' = S^-1 z and w' = A z' + q (scaled); zs is scratch */
static void guess_basis(const clab_lcp *s, const double *A, const double *q, double *zs, unsigned char *start)
{
    const clab_ccp *P = &s->ccp;
    const int k = s->cone.k, m = k + 2;
    const size_t nk = P->ncontacts, nl = (size_t)m * nk;
    for (size_t i = 0; i < nk; i++) {
        const double sc = clab_lcp_scale(&P->blocks[i]);
        const double *zi = &s->z[m * i];
        for (int a = 0; a <= k; a++) zs[m * i + a] = zi[a] / sc;
        zs[m * i + k + 1] = zi[k + 1] * sc;
    }
    for (size_t r = 0; r < nl; r++) {
        double w = q[r];
        for (size_t c = 0; c < nl; c++) w += A[r * nl + c] * zs[c];
        start[r] = zs[r] > w;
    }
}

int clab_lcp_lemke(clab_lcp *s, clab_error *err)
{
    const clab_ccp *P = &s->ccp;
    const clab_lcp_cone *K = &s->cone;
    const int k = K->k, m = k + 2;
    const size_t n = P->n, nk = P->ncontacts, nc = 3 * nk, nj = n - nc, nl = (size_t)m * nk;
    if ((long)nl > s->max_unknowns)
        return clab_error_set(err, CLAB_EINVAL,
                              "lcp: solver=lemke: %zu unknowns (%zu contacts x (directions + 2)) exceed "
                              "lemke_max_unknowns = %ld; use solver=pgs for large problems",
                              nl, nk, s->max_unknowns);
    /* scratch: N (n^2), X = N_JJ^-1 N_JC (nj nc), p_C (nc), N_JJ^-1 p_J and a column (2 nj), the LCP
     * and its solution (nl^2 + 2 nl) */
    if (reserve(&s->scratch, &s->cap_scratch, n * n + nj * nc + nc + 2 * nj + nl * nl + 2 * nl))
        return clab_error_set(err, CLAB_ENOMEM, "lcp: out of memory for the dense LCP (%zu unknowns)", nl);
    double *Nd = s->scratch, *X = Nd + n * n, *pc = X + nj * nc, *pj = pc + nc, *A = pj + nj, *q = A + nl * nl;
    double *zs = q + nl, *col = zs + nl;
    clab_lcp_dense_N(P, Nd);
    memcpy(pc, P->p, nc * sizeof *pc);
    if (nj > 0) { /* 2. the joints' Schur complement */
        double *L = &Nd[nc * n + nc];
        if (cholesky(L, nj, n))
            return clab_error_set(err, CLAB_EINVAL,
                                  "lcp: solver=lemke: the %zu joint rows are dependent (N_JJ is singular), they "
                                  "cannot be eliminated; use solver=pgs",
                                  nj);
        for (size_t c = 0; c < nc; c++) { /* column c of X = N_JJ^-1 N_JC */
            for (size_t r = 0; r < nj; r++) col[r] = Nd[(nc + r) * n + c];
            chol_solve(L, nj, n, col);
            for (size_t r = 0; r < nj; r++) X[r * nc + c] = col[r];
        }
        memcpy(pj, &P->p[nc], nj * sizeof *pj);
        chol_solve(L, nj, n, pj); /* N_JJ^-1 p_J */
        for (size_t a = 0; a < nc; a++) {
            for (size_t r = 0; r < nj; r++) {
                const double ncj = Nd[a * n + nc + r];
                if (ncj == 0.0) continue;
                pc[a] -= ncj * pj[r];
                for (size_t b = 0; b < nc; b++) Nd[a * n + b] -= ncj * X[r * nc + b];
            }
        }
    }
    assemble(s, Nd, n, pc, A, q);
    if (s->lemke_reg > 0.0) clab_lcp_regularize(A, nl, m, s->lemke_reg);
    long piv = 0;
    int st;
    s->start_status = -1;
    s->start_pivots = s->start_columns = s->start_dropped = 0;
    if (s->lemke_start == CLAB_LCP_START_PGS) {
        if (!(s->start = realloc(s->start, nl + 1)))
            return clab_error_set(err, CLAB_ENOMEM, "lcp: out of memory for Lemke's warm start");
        guess_basis(s, A, q, zs, s->start);
        st = clab_lemke_solve_from(nl, A, q, s->start, zs, s->max_pivots, &s->lemke, &piv);
        s->start_status = st;
        s->start_pivots = piv;
        s->start_dropped = s->lemke.crash_dropped;
        for (size_t r = 0; r < nl; r++) s->start_columns += s->start[r];
        s->start_columns -= s->start_dropped;
        if (st > 0) { /* ray, pivot bound or cycle: the cold start */
            long piv2 = 0;
            st = clab_lemke_solve(nl, A, q, zs, s->max_pivots, &s->lemke, &piv2);
            piv += piv2;
        }
    } else {
        st = clab_lemke_solve(nl, A, q, zs, s->max_pivots, &s->lemke, &piv);
    }
    s->iterations = piv;
    if (st != CLAB_LEMKE_SOLVED) {
        if (st == CLAB_LEMKE_MAXPIVOT) s->maxiter_hits++;
        char from[200] = "";
        if (s->start_status >= 0)
            snprintf(from, sizeof from,
                     " (the cold start after the warm start from pgs' basis of %ld z columns, %ld dependent ones "
                     "dropped, ended in %s after %ld pivots)",
                     s->start_columns, s->start_dropped, clab_lemke_status_name(s->start_status), s->start_pivots);
        return clab_error_set(err, st < 0 ? CLAB_ENOMEM : CLAB_ENUMERIC,
                              "lcp: solver=lemke: %s after %ld pivots%s (%zu unknowns, %zu contacts)%s",
                              clab_lemke_status_name(st), piv, from, nl, nk,
                              st == CLAB_LEMKE_RAY ? ": no solution reached from this LCP (a secondary ray)"
                              : st == CLAB_LEMKE_MAXPIVOT ? "; raise max_pivots"
                              : st == CLAB_LEMKE_CYCLE ? ": rounding broke the lexicographic rule" : "");
    }
    for (size_t i = 0; i < nk; i++) { /* z = S z', nu_i = T z_i */
        const double sc = clab_lcp_scale(&P->blocks[i]);
        double *zi = &s->z[m * i];
        for (int a = 0; a <= k; a++) zi[a] = sc * zs[m * i + a];
        zi[k + 1] = zs[m * i + k + 1] / sc;
        clab_lcp_gamma(K, zi, &s->nu[3 * i]);
    }
    for (size_t r = 0; r < nj; r++) { /* nu_J = -N_JJ^-1 p_J - X nu_C */
        double v = -pj[r];
        for (size_t c = 0; c < nc; c++) v -= X[r * nc + c] * s->nu[c];
        s->nu[nc + r] = v;
    }
    return CLAB_OK;
}
