/* fast_jacobi.c: projected Jacobi for the CCP of Eq. (10) of seed 000 (the fixed-point
 * iteration of Tasora and Anitescu 2011, with block scaling):
 *
 *     nu_k <- Proj_Ck(nu_k - omega B_k d_k),   d = N nu + p,
 *
 * all blocks updated from the same d. B_k = I / lambda_max(N_kk) for a cone block (a scalar,
 * so a fixed point is a solution of the CCP with the Euclidean projection) and N_kk^-1 for a
 * free block (any metric is exact there). One product with N per iteration. Convergence needs
 * omega below 2 / lambda_max(B N), which grows with the number of contacts per body: the
 * default omega = 0.3 suits granular packings; if the history grows, lower omega.
 *
 * An iteration is two passes over memory (ccp_fast.h): the body pass u = M^-1 P nu, then one
 * pass over the contacts that forms d_i = (P^T u)_i + p_i, the residual of block i and the
 * next iterate nu_i' = Proj(nu_i - omega B_i d_i) into a second buffer (the iterate whose
 * residual met tol is the one returned) with its impulse F_i for the next body pass. Parallel and deterministic (ccp_fast.h). */
#include <math.h>
#include <string.h>

#include "ccp_fast.h"
#include "solver_internal.h"

/* d of the iterate x, its residual (returned), the next iterate xn and its blocks' impulses F;
 * u = M^-1 P x already */
static double sweep(const clab_ccp *P, double omega, const double *p0, const double *fj, const double *x, const double *u,
                    double *xn, double *F, double *part)
{
    const size_t nk = P->ncontacts, nch = clab_ccp_nchunks(nk);
    const int comp = P->has_compliance;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nch >= CLAB_CCP_PAR_CHUNKS)
#endif
    for (size_t c = 0; c < nch; c++) {
        size_t lo, hi;
        clab_ccp_chunk(c, nk, &lo, &hi);
        const int sph = P->sph_chunk[c];
        double e2max = 0.0;
        for (size_t i = lo; i < hi; i++) {
#ifdef CLAB_V2
            if (sph && !comp && !p0 && i + 1 < hi) { /* spheres, rigid, relaxed: contacts i, i + 1 at once */
                const size_t k = 3 * i;
                const double *cn0 = &P->cone[4 * i], *cn1 = cn0 + 4;
                clab_ccp_sph2 f;
                clab_v2d g[3], X[3], p[3], y[3];
                clab_ccp_sph_rows2(P, u, i, hi, &f, g);
                clab_v2_load3(&x[k], X);
                clab_v2_load3(&P->p[k], p);
                CLAB_UNROLL3
                for (int q = 0; q < 3; q++) g[q] += p[q];
                clab_ccp_cone_res2_2(cn0, cn1, X, g, &e2max);
                const clab_v2d eta = clab_v2_set1(omega) / (clab_v2d){cn0[2], cn1[2]};
                CLAB_UNROLL3
                for (int q = 0; q < 3; q++) y[q] = X[q] - eta * g[q];
                clab_ccp_cone_project2(cn0[0], cn1[0], y);
                clab_v2_store3(&xn[k], y);
                clab_ccp_sph_force2(&f, y, &F[k]);
                i++;
                continue;
            }
#endif
            const double *cn = &P->cone[4 * i], *xi = &x[3 * i], *pi = &P->p[3 * i];
            double g[3], w[3]; /* w: the record's third direction, formed once for rows and force */
            if (sph) {
                clab_ccp_sph_prefetch(P, u, i, hi);
                clab_ccp_sph_w(&P->sph[i], w);
                clab_ccp_sph_rows(&P->sph[i], w, u, g);
            } else {
                clab_ccp_rows(P, 0, i, u, g);
            }
            g[0] += pi[0], g[1] += pi[1], g[2] += pi[2];
            if (comp) {
                const double *ci = &P->compliance[3 * i];
                g[0] += ci[0] * xi[0], g[1] += ci[1] * xi[1], g[2] += ci[2] * xi[2];
            }
            if (p0) clab_desaxce_block(P, p0, i, g); /* exact friction, inner: moves p_n and g_n */
            e2max = clab_ccp_max_nan(e2max, clab_ccp_cone_res2(cn, xi, g));
            double eta = omega / cn[2], *y = &xn[3 * i];
            y[0] = xi[0] - eta * g[0], y[1] = xi[1] - eta * g[1], y[2] = xi[2] - eta * g[2];
            clab_ccp_cone_project(cn[0], y);
            if (sph) clab_ccp_sph_force(&P->sph[i], w, y, &F[3 * i]);
            else clab_ccp_force(P, 0, i, y, &F[3 * i]);
        }
        part[c] = e2max;
    }
    double e2 = 0.0;
    for (size_t c = 0; c < nch; c++) e2 = clab_ccp_max_nan(e2, part[c]);
    /* joints (free blocks): r_j = |b_j|, step -omega N_jj^-1 b_j */
    for (size_t i = nk; i < P->nblocks; i++) {
        const clab_ccp_block *bl = &P->blocks[i];
        const double *fi = &fj[CLAB_BLOCK_FACTORS * (i - nk)];
        const clab_ccp_item *it = &P->items[i];
        double v[3], o[3], g[3], s2 = 0.0;
        int m = bl->size;
        clab_ccp_item_vrel(it, u, v);
        clab_ccp_item_rows(it, v, o);
        for (int a = 0; a < m; a++) {
            size_t k = bl->first + (size_t)a;
            g[a] = o[a] + P->compliance[k] * x[k] + P->p[k];
            s2 += g[a] * g[a];
        }
        e2 = clab_ccp_max_nan(e2, s2);
        for (int a = 0; a < m; a++) {
            double s = 0.0;
            for (int b = 0; b < m; b++) s += fi[1 + a * m + b] * g[b];
            xn[bl->first + (size_t)a] = x[bl->first + (size_t)a] - omega * s;
        }
    }
    clab_ccp_joint_forces(P, xn, F);
    return sqrt(e2);
}

static int solve(const clab_ccp *P, const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res,
                 clab_error *err)
{
    if (clab_ccp_begin(o, W, res, err)) return err ? err->status : CLAB_ENOMEM;
    if (P->n == 0) return clab_ccp_finish("jacobi", o, res, 0.0, err); /* nothing to solve */
    size_t n = P->n, nk = P->ncontacts, nj = P->nblocks - nk;
    double *xb = clab_ccp_work_get(W, 0, n);
    double *u = clab_ccp_work_get(W, 1, 6 * P->nbodies);
    double *fj = clab_ccp_work_get(W, 2, CLAB_BLOCK_FACTORS * (nj + 1));
    double *part = clab_ccp_work_get(W, 3, clab_ccp_nchunks(nk) + 1);
    double *F = clab_ccp_work_get(W, 4, 3 * P->nblocks);
    if (!xb || !u || !fj || !part || !F) return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory in the jacobi solver");
    int rc = clab_ccp_joint_factors(P, fj, err);
    if (rc) return rc;

    double *x = nu, *xn = xb;
    clab_ccp_project(P, x);
    clab_ccp_forces(P, x, F); /* the body pass from F: the same bits as from x, fewer bytes */
    clab_ccp_body_pass_F(P, F, u);
    res->body_passes = 1;
    double r = sweep(P, o->omega, o->desaxce_p0, fj, x, u, xn, F, part);
    while (r > o->tol && res->iterations < o->max_iter && isfinite(r)) {
        double *t = x; /* the next iterate was formed by the sweep */
        x = xn, xn = t;
        clab_ccp_body_pass_F(P, F, u);
        res->body_passes++;
        r = sweep(P, o->omega, o->desaxce_p0, fj, x, u, xn, F, part);
        clab_ccp_record(W, res, r);
    }
    if (x != nu) memcpy(nu, x, n * sizeof *nu);
    return clab_ccp_finish("jacobi", o, res, r, err);
}

const clab_ccp_solver_type clab_ccp_solver_jacobi = {
    "jacobi", "projected Jacobi with block scaling and relaxation omega (default 0.3)", 0.3, solve};
