/* plain_solvers.c: the solvers of the Tasora-Anitescu CCP (Eq. (10) of seed 000; the QP of
 * Eq. (11)) in their textbook form, on the plain products of plain_products.c: one block at
 * a time, single-threaded, sums in the order of the unknowns. The algorithms and their
 * constants are those of the fast solvers (whose headers in fast_*.c give the sources):
 *
 *   jacobi  projected Jacobi (Tasora-Anitescu 2011): gamma_i <- Proj_Ki(gamma_i - omega/L_i d_i),
 *           L_i = lambda_max(N_ii), joints x_j <- x_j - omega N_jj^-1 d_j; d = N gamma + p
 *   gs      projected Gauss-Seidel/SOR, block by block with the exact local solve of cone_qp.c
 *   apgd    Nesterov's accelerated projected gradient with backtracking and adaptive restart
 *           (Mazhar, Heyn, Tasora, Negrut 2015)
 *   bb      Barzilai-Borwein spectral projected gradient with a non-monotone line search
 *           (Birgin, Martinez, Raydan 2000, SPG2)
 *
 * Every solver stops when the residual r (residual.c) is at most tol, returns CLAB_EMAXITER
 * after max_iter iterations, CLAB_ENUMERIC on a non-finite residual.
 *
 * Sums (the option sums=, plain.h): the global sums (APGD's backtracking and restart tests
 * and its Lipschitz estimate, BB's dot products) are sequential in the order of the unknowns,
 * or with sums=exact exactly rounded (clab_xsum, the terms of sums.h), which the split solver
 * (split_solvers.c) reproduces on any partition. Jacobi and Gauss-Seidel have no global sum
 * (their residual is a maximum): sums= does not change them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_xsum.h"
#include "cone.h"
#include "plain.h"
#include "solver_internal.h"
#include "sums.h"

/* d = N x + p and the residual r of x; u scratch */
static double residual_of(const clab_ccp *P, const double *x, double *Nx, double *d, double *u)
{
    clab_ccp_plain_N(P, x, u, Nx);
    for (size_t k = 0; k < P->n; k++) d[k] = Nx[k] + P->p[k];
    return clab_ccp_residual(P, x, d);
}

/* the common start: result reset, scratch, and no De Saxce inner update (friction=exact runs
 * on the fast path only) */
static int begin(const char *name, const clab_ccp_options *o, clab_ccp_work *W, clab_ccp_result *res,
                 clab_error *err)
{
    if (clab_ccp_begin(o, W, res, err)) return err ? err->status : CLAB_ENOMEM;
    if (o->desaxce_p0)
        return clab_error_set(err, CLAB_EINVAL, "dvi: the plain %s solver has no De Saxce inner update", name);
    return CLAB_OK;
}

/* ---- projected Jacobi ---- */

void clab_ccp_plain_jacobi_block(const clab_ccp *P, size_t i, const double *fi, double omega, const double *d,
                                 double *x)
{
    const clab_ccp_block *bl = &P->blocks[i];
    const double *di = &d[bl->first];
    double *xi = &x[bl->first];
    if (bl->kind == CLAB_CCP_CONE) { /* gamma_i <- Proj_Ki(gamma_i - omega / L_i d_i) */
        const double eta = omega / fi[0];
        for (int q = 0; q < 3; q++) xi[q] = xi[q] - eta * di[q];
        clab_cone_project(bl->mu, xi);
    } else { /* a joint: x_j <- x_j - omega N_jj^-1 d_j */
        const int m = bl->size;
        for (int a = 0; a < m; a++) {
            double s = 0.0;
            for (int b = 0; b < m; b++) s += fi[1 + a * m + b] * di[b];
            xi[a] = xi[a] - omega * s;
        }
    }
}

static int jacobi(const clab_ccp_plain_control *ctl, const clab_ccp *P, const clab_ccp_options *o, double *x,
                  clab_ccp_work *W, clab_ccp_result *res, clab_error *err)
{
    int rc = begin("jacobi", o, W, res, err);
    if (rc || P->n == 0) return rc ? rc : clab_ccp_finish("jacobi", o, res, 0.0, err);
    double *Nx = clab_ccp_work_get(W, 0, P->n), *d = clab_ccp_work_get(W, 1, P->n);
    double *u = clab_ccp_work_get(W, 2, 6 * P->nbodies);
    double *f = clab_ccp_work_get(W, 3, CLAB_BLOCK_FACTORS * P->nblocks);
    if (!Nx || !d || !u || !f) return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory in the jacobi solver");
    if ((rc = clab_ccp_block_factors(P, f, err))) return rc;
    clab_ccp_project(P, x);
    double r = residual_of(P, x, Nx, d, u);
    res->body_passes = 1;
    while (r > o->tol && res->iterations < o->max_iter && isfinite(r)) {
        for (size_t i = 0; i < P->nblocks; i++) /* every block from the same d */
            clab_ccp_plain_jacobi_block(P, i, &f[CLAB_BLOCK_FACTORS * i], o->omega, d, x);
        r = residual_of(P, x, Nx, d, u);
        res->body_passes++;
        clab_ccp_record(W, res, r);
        if (ctl->observe) ctl->observe(ctl->ctx, res->iterations, x);
    }
    return clab_ccp_finish("jacobi", o, res, r, err);
}

/* ---- projected Gauss-Seidel / SOR ---- */

/* u_a, u_b += M^-1 D_i dx: the impulse F = t_n dx_n + (t_u dx_u + t_w dx_w) (grouped as the
 * fast solver groups it: the same bits), -F on a, +F on b, with their torques */
void clab_ccp_plain_gs_add_velocity(const clab_ccp *P, size_t i, int m, const double *dx, double *u)
{
    const clab_ccp_item *it = &P->items[i];
    const double *t = it->t;
    double F[3];
    for (int c = 0; c < 3; c++) F[c] = t[c] * dx[0] + (m == 3 ? t[3 + c] * dx[1] + t[6 + c] * dx[2] : 0.0);
    for (int side = 0; side < 2; side++) {
        const size_t k = (size_t)(side ? it->b : it->a);
        const double *M = &P->minv[8 * k], *r = it->r + 3 * side;
        const double T[3] = {r[1] * F[2] - r[2] * F[1], r[2] * F[0] - r[0] * F[2], r[0] * F[1] - r[1] * F[0]};
        const double du[6] = {M[0] * F[0], M[0] * F[1], M[0] * F[2], M[1] * T[0] + M[2] * T[1] + M[3] * T[2],
                              M[2] * T[0] + M[4] * T[1] + M[5] * T[2], M[3] * T[0] + M[5] * T[1] + M[6] * T[2]};
        double *uk = &u[6 * k];
        for (int q = 0; q < 6; q++) uk[q] = side ? uk[q] + du[q] : uk[q] - du[q];
    }
}

int clab_ccp_plain_local_step(const clab_ccp *P, size_t i, const double *fi, double omega, const double *d,
                              double *gamma, double *dx)
{
    const clab_ccp_block *bl = &P->blocks[i];
    const int m = bl->size;
    double *x = &gamma[bl->first], xn[3];
    if (bl->kind == CLAB_CCP_CONE) { /* the local CCP, exactly (cone_qp.c) */
        double rl[3];
        for (int k = 0; k < 3; k++) {
            rl[k] = d[k] - (bl->Nii[3 * k] * x[0] + bl->Nii[3 * k + 1] * x[1] + bl->Nii[3 * k + 2] * x[2]);
            xn[k] = x[k];
        }
        clab_cone_qp(bl->mu, bl->Nii, fi + 1, fi[0], rl, xn);
        for (int k = 0; k < 3; k++) xn[k] = x[k] + omega * (xn[k] - x[k]);
        if (omega > 1.0) clab_cone_project(bl->mu, xn);
    } else { /* a joint: x = -N_jj^-1 (d_j - N_jj x_j), relaxed */
        for (int a = 0; a < m; a++) {
            double s = 0.0;
            for (int b = 0; b < m; b++) s += fi[1 + a * m + b] * d[b];
            xn[a] = x[a] - omega * s;
        }
    }
    int moved = 0;
    for (int k = 0; k < m; k++) {
        dx[k] = xn[k] - x[k];
        moved |= dx[k] != 0.0;
        x[k] = xn[k];
    }
    return moved;
}

/* block i's gamma_i <- gamma_i + omega (argmin_{x in C_i} 1/2 x.N_ii x + (d_i - N_ii gamma_i).x - gamma_i) */
void clab_ccp_plain_gs_block(const clab_ccp *P, size_t i, const double *fi, double omega, double *u, double *gamma)
{
    double d[3], dx[3];
    clab_ccp_plain_d_block(P, i, u, gamma, d); /* d_i = (N gamma + p)_i */
    if (clab_ccp_plain_local_step(P, i, fi, omega, d, gamma, dx))
        clab_ccp_plain_gs_add_velocity(P, i, P->blocks[i].size, dx, u);
}

static int gs(const clab_ccp_plain_control *ctl, const clab_ccp *P, const clab_ccp_options *o, double *gamma,
              clab_ccp_work *W, clab_ccp_result *res, clab_error *err)
{
    int rc = begin("gs", o, W, res, err);
    if (rc || P->n == 0) return rc ? rc : clab_ccp_finish("gs", o, res, 0.0, err);
    double *Nx = clab_ccp_work_get(W, 0, P->n), *d = clab_ccp_work_get(W, 1, P->n);
    double *u = clab_ccp_work_get(W, 2, 6 * P->nbodies);
    double *f = clab_ccp_work_get(W, 3, CLAB_BLOCK_FACTORS * P->nblocks);
    if (!Nx || !d || !u || !f) return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory in the gs solver");
    if ((rc = clab_ccp_block_factors(P, f, err))) return rc;
    clab_ccp_project(P, gamma);
    double r = residual_of(P, gamma, Nx, d, u); /* leaves u = M^-1 D gamma */
    res->body_passes = 1;
    while (r > o->tol && res->iterations < o->max_iter && isfinite(r)) {
        for (size_t i = 0; i < P->nblocks; i++)
            clab_ccp_plain_gs_block(P, i, &f[CLAB_BLOCK_FACTORS * i], o->omega, u, gamma);
        if ((res->iterations + 1) % CLAB_PLAIN_GS_REFRESH == 0) {
            clab_ccp_plain_minv_D(P, gamma, u);
            res->body_passes++;
        }
        clab_ccp_plain_Dt(P, u, gamma, Nx);
        for (size_t k = 0; k < P->n; k++) d[k] = Nx[k] + P->p[k];
        r = clab_ccp_residual(P, gamma, d);
        clab_ccp_record(W, res, r);
        if (ctl->observe) ctl->observe(ctl->ctx, res->iterations, gamma);
    }
    return clab_ccp_finish("gs", o, res, r, err);
}

/* ---- APGD ---- */

/* xn = Proj_C(y - t (Ny + p)) */
static void apgd_step(const clab_ccp *P, double t, const double *y, const double *Ny, double *xn)
{
    for (size_t k = 0; k < P->n; k++) xn[k] = y[k] - t * (Ny[k] + P->p[k]);
    clab_ccp_project(P, xn);
}

/* the Lipschitz estimate |N (x - 1)| / |x - 1| of the start of APGD and BB, with the solve's sums */
static double lipschitz(const clab_ccp *P, int sums, const double *x, double *a, double *b, double *u)
{
    if (sums == CLAB_SUMS_SEQUENTIAL) return clab_ccp_plain_lipschitz(P, x, a, b, u);
    for (size_t k = 0; k < P->n; k++) a[k] = x[k] - 1.0;
    clab_ccp_plain_N(P, a, u, b);
    clab_xsum acc[2];
    clab_xsum_init(&acc[0]), clab_xsum_init(&acc[1]);
    clab_sums_lipschitz(acc, 0, P->n, a, b);
    return clab_sums_lipschitz_value(clab_xsum_round(&acc[0]), clab_xsum_round(&acc[1]), clab_ccp_plain_block_lmax(P));
}

/* APGD's backtracking test at xn: e.(N xn - N y) and e.e, e = xn - y */
static void backtrack_sums(int sums, size_t n, const double *xn, const double *y, const double *Nxn, const double *Ny,
                           double *eNe, double *ee)
{
    if (sums == CLAB_SUMS_EXACT) {
        clab_xsum acc[2];
        clab_xsum_init(&acc[0]), clab_xsum_init(&acc[1]);
        clab_sums_backtrack(acc, 0, n, xn, y, Nxn, Ny);
        *eNe = clab_xsum_round(&acc[0]), *ee = clab_xsum_round(&acc[1]);
        return;
    }
    *eNe = *ee = 0.0;
    for (size_t k = 0; k < n; k++) {
        const double e = xn[k] - y[k];
        *eNe += e * (Nxn[k] - Ny[k]);
        *ee += e * e;
    }
}

/* APGD's restart test g(y).(x_{k+1} - x_k) */
static double restart_sum(int sums, size_t n, const double *Ny, const double *p, const double *xn, const double *x)
{
    if (sums == CLAB_SUMS_EXACT) {
        clab_xsum acc;
        clab_xsum_init(&acc);
        clab_sums_restart(&acc, 0, n, Ny, p, xn, x);
        return clab_xsum_round(&acc);
    }
    double restart = 0.0;
    for (size_t k = 0; k < n; k++) restart += (Ny[k] + p[k]) * (xn[k] - x[k]);
    return restart;
}

/* The loop of Mazhar et al. 2015 (Algorithm APGD), as the header of fast_apgd.c writes it;
 * the one function keeps the algorithm in one place to read (about 70 lines). */
static int apgd(const clab_ccp_plain_control *ctl, const clab_ccp *P, const clab_ccp_options *o, double *nu,
                clab_ccp_work *W, clab_ccp_result *res, clab_error *err)
{
    int rc = begin("apgd", o, W, res, err);
    if (rc || P->n == 0) return rc ? rc : clab_ccp_finish("apgd", o, res, 0.0, err);
    const size_t n = P->n;
    double *x = clab_ccp_work_get(W, 0, n), *xn = clab_ccp_work_get(W, 1, n), *y = clab_ccp_work_get(W, 2, n);
    double *Nx = clab_ccp_work_get(W, 3, n), *Nxn = clab_ccp_work_get(W, 4, n), *Ny = clab_ccp_work_get(W, 5, n);
    double *d = clab_ccp_work_get(W, 6, n), *best = clab_ccp_work_get(W, 7, n);
    double *u = clab_ccp_work_get(W, 8, 6 * P->nbodies);
    if (!x || !xn || !y || !Nx || !Nxn || !Ny || !d || !best || !u)
        return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory in the apgd solver");
    clab_ccp_project(P, nu);
    memcpy(x, nu, n * sizeof *x);
    double r = residual_of(P, x, Nx, d, u), r_best = r;
    res->body_passes = 1;
    if (r <= o->tol) return clab_ccp_finish("apgd", o, res, r, err);
    memcpy(best, x, n * sizeof *x);
    double L = lipschitz(P, ctl->sums, x, y, Ny, u), theta = 1.0;
    res->body_passes++;
    memcpy(y, x, n * sizeof *x); /* y_0 = x_0 */
    memcpy(Ny, Nx, n * sizeof *x);
    apgd_step(P, 1.0 / L, y, Ny, xn);
    while (res->iterations < o->max_iter) {
        /* backtracking: f(x_{k+1}) <= f(y) + g(y).(x_{k+1} - y) + L/2 |x_{k+1} - y|^2, for the
         * quadratic f: (x_{k+1} - y).N (x_{k+1} - y) <= L |x_{k+1} - y|^2 */
        for (int bt = 0;; bt++) {
            clab_ccp_plain_N(P, xn, u, Nxn);
            res->body_passes++;
            double eNe, ee;
            backtrack_sums(ctl->sums, n, xn, y, Nxn, Ny, &eNe, &ee);
            if (eNe <= L * ee || bt == CLAB_PLAIN_APGD_MAX_BACKTRACK || !isfinite(eNe)) break;
            L *= 2.0;
            apgd_step(P, 1.0 / L, y, Ny, xn);
        }
        /* Nesterov momentum, restarted when g(y).(x_{k+1} - x_k) > 0 */
        double theta_n = 0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));
        double beta = theta * (1.0 - theta) / (theta * theta + theta_n);
        const double restart = restart_sum(ctl->sums, n, Ny, P->p, xn, x);
        if (restart > 0.0) beta = 0.0, theta_n = 1.0;
        theta = theta_n;
        L *= 0.9;
        /* the residual of x_{k+1}; the best iterate is kept */
        for (size_t k = 0; k < n; k++) d[k] = Nxn[k] + P->p[k];
        r = clab_ccp_residual(P, xn, d);
        clab_ccp_record(W, res, r);
        if (r < r_best) r_best = r, memcpy(best, xn, n * sizeof *xn);
        if (ctl->observe) ctl->observe(ctl->ctx, res->iterations, xn);
        /* y = x_{k+1} + beta (x_{k+1} - x_k), N y by linearity; x_k <- x_{k+1} */
        for (size_t k = 0; k < n; k++) {
            y[k] = xn[k] + beta * (xn[k] - x[k]);
            Ny[k] = Nxn[k] + beta * (Nxn[k] - Nx[k]);
        }
        memcpy(x, xn, n * sizeof *x);
        memcpy(Nx, Nxn, n * sizeof *x);
        if (r <= o->tol || !isfinite(r)) break;
        apgd_step(P, 1.0 / L, y, Ny, xn);
    }
    memcpy(nu, isfinite(r) ? best : x, n * sizeof *nu); /* a non-finite run returns its last iterate */
    return clab_ccp_finish("apgd", o, res, isfinite(r) ? r_best : r, err);
}

/* ---- Barzilai-Borwein ---- */

#define BB_MEMORY 10   /* M of the non-monotone line search */
#define BB_GAMMA 1e-4  /* sufficient decrease */
#define BB_REFRESH 50  /* iterations between recomputations of N x (round-off drift) */

/* at x (d = N x + p): the objective f = 1/2 x.(d + p) (returned), the residual *r, and the
 * direction s = Proj_C(x - alpha d) - x with gs = d.s and ss = s.s */
static double bb_direction(const clab_ccp *P, int sums, double alpha, const double *x, const double *Nx, double *d,
                           double *s, double *r, double *gs, double *ss)
{
    double xdp = 0.0;
    *gs = *ss = 0.0;
    for (size_t k = 0; k < P->n; k++) d[k] = Nx[k] + P->p[k];
    *r = clab_ccp_residual(P, x, d);
    for (size_t k = 0; k < P->n; k++) s[k] = x[k] - alpha * d[k];
    clab_ccp_project(P, s);
    /* the projection is the identity on a joint's rows: s = -alpha d there */
    for (size_t k = 0; k < P->n; k++) s[k] = k < 3 * P->ncontacts ? s[k] - x[k] : -alpha * d[k];
    if (sums == CLAB_SUMS_EXACT) {
        clab_xsum acc[3];
        for (int j = 0; j < 3; j++) clab_xsum_init(&acc[j]);
        for (size_t k = 0; k < P->n; k++) {
            clab_xsum_add(&acc[0], x[k] * (d[k] + P->p[k]));
            clab_xsum_add(&acc[1], d[k] * s[k]);
            clab_xsum_add(&acc[2], s[k] * s[k]);
        }
        *gs = clab_xsum_round(&acc[1]), *ss = clab_xsum_round(&acc[2]);
        return 0.5 * clab_xsum_round(&acc[0]);
    }
    for (size_t k = 0; k < P->n; k++) {
        xdp += x[k] * (d[k] + P->p[k]);
        *gs += d[k] * s[k];
        *ss += s[k] * s[k];
    }
    return 0.5 * xdp;
}

/* SPG2 of Birgin, Martinez, Raydan 2000 for the quadratic f of Eq. (11) (about 60 lines) */
static int bb(const clab_ccp_plain_control *ctl, const clab_ccp *P, const clab_ccp_options *o, double *x,
              clab_ccp_work *W, clab_ccp_result *res, clab_error *err)
{
    int rc = begin("bb", o, W, res, err);
    if (rc || P->n == 0) return rc ? rc : clab_ccp_finish("bb", o, res, 0.0, err);
    const size_t n = P->n;
    double *Nx = clab_ccp_work_get(W, 0, n), *d = clab_ccp_work_get(W, 1, n), *s = clab_ccp_work_get(W, 2, n);
    double *Ns = clab_ccp_work_get(W, 3, n), *best = clab_ccp_work_get(W, 4, n);
    double *u = clab_ccp_work_get(W, 5, 6 * P->nbodies);
    if (!Nx || !d || !s || !Ns || !best || !u) return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory in the bb solver");
    clab_ccp_project(P, x);
    double r = residual_of(P, x, Nx, d, u), r_best = r;
    res->body_passes = 1;
    if (r <= o->tol) return clab_ccp_finish("bb", o, res, r, err);
    memcpy(best, x, n * sizeof *x);
    const double L = lipschitz(P, ctl->sums, x, s, Ns, u);
    res->body_passes++;
    double alpha = 1.0 / L, alpha_min = 1e-10 / L, alpha_max = 1e10 / L, gs, ss, fhist[BB_MEMORY];
    double f = bb_direction(P, ctl->sums, alpha, x, Nx, d, s, &r, &gs, &ss);
    for (int j = 0; j < BB_MEMORY; j++) fhist[j] = f;
    while (res->iterations < o->max_iter) {
        clab_ccp_plain_N(P, s, u, Ns);
        res->body_passes++;
        double sNs = 0.0;
        if (ctl->sums == CLAB_SUMS_EXACT)
            sNs = clab_xsum_dot(s, Ns, (long)n);
        else
            for (size_t k = 0; k < n; k++) sNs += s[k] * Ns[k];
        /* non-monotone line search on lambda, f(x + lambda s) = f + lambda gs + lambda^2/2 sNs */
        double fmax = fhist[0];
        for (int j = 1; j < BB_MEMORY; j++) fmax = fmax > fhist[j] ? fmax : fhist[j];
        double lambda = 1.0, fn = f + gs + 0.5 * sNs;
        for (int ls = 0; ls < 60 && fn > fmax + BB_GAMMA * lambda * gs; ls++) {
            const double lt = -0.5 * lambda * lambda * gs / (fn - f - lambda * gs);
            lambda = (lt >= 0.1 * lambda && lt <= 0.5 * lambda) ? lt : 0.5 * lambda;
            fn = f + lambda * gs + 0.5 * lambda * lambda * sNs;
        }
        /* x_{k+1} = x_k + lambda s, N x_{k+1} = N x_k + lambda N s */
        for (size_t k = 0; k < n; k++) {
            x[k] = x[k] + lambda * s[k];
            Nx[k] += lambda * Ns[k];
        }
        if ((res->iterations + 1) % BB_REFRESH == 0) {
            clab_ccp_plain_N(P, x, u, Nx);
            res->body_passes++;
        }
        /* the BB1 step (dx.dx)/(dx.N dx), dx = lambda s, clamped */
        alpha = sNs > 0.0 ? ss / sNs : alpha_max;
        alpha = alpha < alpha_min ? alpha_min : (alpha > alpha_max ? alpha_max : alpha);
        f = bb_direction(P, ctl->sums, alpha, x, Nx, d, s, &r, &gs, &ss);
        for (int j = BB_MEMORY - 1; j > 0; j--) fhist[j] = fhist[j - 1];
        fhist[0] = f;
        clab_ccp_record(W, res, r);
        if (r < r_best) r_best = r, memcpy(best, x, n * sizeof *x);
        if (ctl->observe) ctl->observe(ctl->ctx, res->iterations, x);
        if (r <= o->tol || !isfinite(r)) break;
    }
    if (isfinite(r)) memcpy(x, best, n * sizeof *x); /* a non-finite run returns its last iterate */
    return clab_ccp_finish("bb", o, res, isfinite(r) ? r_best : r, err);
}

/* the lowest block eigenvalue bound of the Lipschitz estimate: max_k lambda_max(N_kk) */
double clab_ccp_plain_block_lmax(const clab_ccp *P)
{
    double floor = 0.0;
    for (size_t i = 0; i < P->nblocks; i++) {
        const clab_ccp_block *bl = &P->blocks[i];
        const double l = bl->size == 1 ? bl->Nii[0] : clab_sym3_max_eigenvalue(bl->Nii);
        if (l > floor) floor = l;
    }
    return floor;
}

/* ---- the type objects: sequential sums (the default) and exact ones (sums=exact) ---- */

typedef int (*plain_fn)(const clab_ccp_plain_control *, const clab_ccp *, const clab_ccp_options *, double *,
                        clab_ccp_work *, clab_ccp_result *, clab_error *);

static const clab_ccp_plain_control seq_ctl = {CLAB_SUMS_SEQUENTIAL, NULL, NULL};
static const clab_ccp_plain_control exact_ctl = {CLAB_SUMS_EXACT, NULL, NULL};

#define PLAIN_ENTRIES(fn)                                                                                              \
    static int fn##_seq(const clab_ccp *P, const clab_ccp_options *o, double *x, clab_ccp_work *W,                    \
                        clab_ccp_result *res, clab_error *err)                                                         \
    {                                                                                                                  \
        return fn(&seq_ctl, P, o, x, W, res, err);                                                                     \
    }                                                                                                                  \
    static int fn##_exact(const clab_ccp *P, const clab_ccp_options *o, double *x, clab_ccp_work *W,                  \
                          clab_ccp_result *res, clab_error *err)                                                       \
    {                                                                                                                  \
        return fn(&exact_ctl, P, o, x, W, res, err);                                                                   \
    }
PLAIN_ENTRIES(jacobi)
PLAIN_ENTRIES(gs)
PLAIN_ENTRIES(apgd)
PLAIN_ENTRIES(bb)

#define JACOBI_SUMMARY "projected Jacobi with block scaling and relaxation omega (default 0.3), plain"
#define GS_SUMMARY "projected Gauss-Seidel/SOR, block by block with exact local solves (omega default 1), plain"
#define APGD_SUMMARY                                                                                                   \
    "Nesterov accelerated projected gradient with adaptive step and restart (Mazhar et al. 2015), plain"
#define BB_SUMMARY                                                                                                     \
    "Barzilai-Borwein spectral projected gradient with non-monotone line search (Birgin et al. 2000), plain"

const clab_ccp_solver_type clab_ccp_plain_jacobi = {"jacobi", JACOBI_SUMMARY, 0.3, jacobi_seq};
const clab_ccp_solver_type clab_ccp_plain_gs = {"gs", GS_SUMMARY, 1.0, gs_seq};
const clab_ccp_solver_type clab_ccp_plain_apgd = {"apgd", APGD_SUMMARY, 0.0, apgd_seq};
const clab_ccp_solver_type clab_ccp_plain_bb = {"bb", BB_SUMMARY, 0.0, bb_seq};
static const clab_ccp_solver_type plain_jacobi_exact = {"jacobi", JACOBI_SUMMARY ", exact sums", 0.3, jacobi_exact};
static const clab_ccp_solver_type plain_gs_exact = {"gs", GS_SUMMARY ", exact sums", 1.0, gs_exact};
static const clab_ccp_solver_type plain_apgd_exact = {"apgd", APGD_SUMMARY ", exact sums", 0.0, apgd_exact};
static const clab_ccp_solver_type plain_bb_exact = {"bb", BB_SUMMARY ", exact sums", 0.0, bb_exact};

static const struct {
    const clab_ccp_solver_type *seq, *exact;
    plain_fn fn;
} plain_all[] = {{&clab_ccp_plain_apgd, &plain_apgd_exact, apgd},
                 {&clab_ccp_plain_gs, &plain_gs_exact, gs},
                 {&clab_ccp_plain_jacobi, &plain_jacobi_exact, jacobi},
                 {&clab_ccp_plain_bb, &plain_bb_exact, bb}};
#define NPLAIN (sizeof plain_all / sizeof *plain_all)

const clab_ccp_solver_type *clab_ccp_plain_solver_sums(const char *name, int sums)
{
    for (size_t i = 0; i < NPLAIN; i++)
        if (strcmp(plain_all[i].seq->name, name) == 0)
            return sums == CLAB_SUMS_EXACT ? plain_all[i].exact : plain_all[i].seq;
    return NULL;
}

const clab_ccp_solver_type *clab_ccp_plain_solver(const char *name)
{
    return clab_ccp_plain_solver_sums(name, CLAB_SUMS_SEQUENTIAL);
}

int clab_ccp_plain_solve(const char *name, const clab_ccp_plain_control *ctl, const clab_ccp *P,
                         const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res, clab_error *err)
{
    for (size_t i = 0; i < NPLAIN; i++)
        if (strcmp(plain_all[i].seq->name, name) == 0) return plain_all[i].fn(ctl, P, o, nu, W, res, err);
    return clab_error_set(err, CLAB_EINVAL, "dvi: no plain solver named '%s'", name);
}
