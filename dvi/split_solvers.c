/* split_solvers.c: projected Jacobi, APGD and Gauss-Seidel on a CCP split into parts
 * (split.h), written as phases over the local parts with two communication points: the
 * exchange of the ghosts' velocities u = M^-1 D gamma after each part has computed those of
 * its owned bodies, and the global reductions (the residual's maximum; APGD's sums as exact
 * partial sums, clab_xsum, each block counted by one part).
 *
 * jacobi, apgd: the loops of plain_solvers.c with sums=exact, phase by phase. Every number
 * a part computes for a block or an owned body is the one-process number: u of an owned body
 * sums its blocks in the global order (split.h), d_i = (D^T u + C gamma + p)_i reads the u of
 * its two bodies, the block steps are those of plain.h, the residual is a maximum and the
 * sums are exactly rounded. So the iterates, the residual histories and the iteration counts
 * are those of one process (sums=exact) to the bit, for any partition
 * (tests/test_dvi_split.c).
 *
 * gs: Gauss-Seidel is sequential by nature (block i sees the updates of blocks 0 .. i-1).
 * Here each part sweeps its own blocks (those whose moving bodies it all owns) in the global
 * order as the plain solver does, while the blocks shared between two parts take Gauss-Seidel's
 * exact local solve from the velocities of the start of the sweep, which both holders know
 * alike, relaxed by 1 / (the most shared blocks on one of its bodies) (a Jacobi update: the
 * other part moves the same bodies at the same time; gs_shared_omega says why every sweep then
 * decreases the QP's objective): Gauss-Seidel inside a part, Jacobi across parts. On one part
 * it is the plain gs to the bit; on P parts its iterates depend on the partition (they
 * converge to a solution of the same CCP, whose velocities are unique). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cone.h"
#include "plain.h"
#include "solver_internal.h"
#include "split.h"
#include "sums.h"

enum { ROWS, BODIES, FACTORS }; /* lengths of a work slot: P.n, 6 P.nbodies, factors per block */
#define NSLOTS 10

/* one solve over the local parts */
typedef struct run {
    const clab_split *S;
    const clab_split_comm *comm;
    int nl;          /* local parts */
    double **a;      /* [NSLOTS * nl] slot s of part j at a[s * nl + j] */
    double *m;       /* [2 nl] max-reduce buffer */
    clab_xsum *acc;  /* [3 nl] sum-reduce buffer */
    clab_error *err;
} run;

static const clab_ccp *P_of(const run *R, int j) { return &R->S->part[j].P; }

/* slot s of every local part, of the given kind */
static double *const *slot(run *R, int s, int kind, int *rc)
{
    for (int j = 0; j < R->nl; j++) {
        const clab_ccp *P = P_of(R, j);
        const size_t len = kind == ROWS ? P->n : kind == BODIES ? 6 * P->nbodies : CLAB_BLOCK_FACTORS * P->nblocks;
        R->a[s * R->nl + j] = clab_ccp_work_get(&R->S->part[j].W, s, len);
        if (!R->a[s * R->nl + j]) *rc = CLAB_ENOMEM;
    }
    return R->a + s * R->nl;
}

/* every part's status (R->m[j]) made common: the largest code of any part (an MPI run must
 * not leave one rank in the loop); a part whose own status is OK gets a message naming it */
static int agree(run *R)
{
    int mine = 0;
    for (int j = 0; j < R->nl; j++) mine = R->m[j] > mine ? (int)R->m[j] : mine;
    int rc = R->comm->max(R->comm->ctx, R->S, R->m, 1);
    if (rc) return clab_error_set(R->err, rc, "dvi split: the all-reduce of the parts' status failed");
    rc = (int)R->m[0];
    if (rc && !mine) clab_error_set(R->err, rc, "dvi split: another part failed (code %d)", rc);
    return rc;
}

/* Nx = N x: u = M^-1 D x on every part (exact for its owned bodies), the ghosts' u from
 * their owners, then Nx = D^T u + C x */
static int products(run *R, double *const *x, double *const *u, double *const *Nx)
{
    for (int j = 0; j < R->nl; j++) clab_ccp_plain_minv_D(P_of(R, j), x[j], u[j]);
    int rc = R->comm->exchange(R->comm->ctx, R->S, u, 6);
    if (rc) return clab_error_set(R->err, rc, "dvi split: the ghost exchange failed");
    for (int j = 0; j < R->nl; j++) clab_ccp_plain_Dt(P_of(R, j), u[j], x[j], Nx[j]);
    return CLAB_OK;
}

/* d = Nx + p and the residual of x (ccp_solver.h): the maximum over the parts' blocks */
static int residual(run *R, double *const *x, double *const *Nx, double *const *d, double *r)
{
    for (int j = 0; j < R->nl; j++) {
        const clab_ccp *P = P_of(R, j);
        for (size_t k = 0; k < P->n; k++) d[j][k] = Nx[j][k] + P->p[k];
        R->m[j] = clab_ccp_residual(P, x[j], d[j]);
    }
    int rc = R->comm->max(R->comm->ctx, R->S, R->m, 1);
    if (rc) return clab_error_set(R->err, rc, "dvi split: the residual's all-reduce failed");
    *r = R->m[0];
    return CLAB_OK;
}

static int sum(run *R, int count)
{
    int rc = R->comm->sum(R->comm->ctx, R->S, R->acc, count);
    return rc ? clab_error_set(R->err, rc, "dvi split: the all-reduce of a sum failed") : CLAB_OK;
}

static void observe(run *R, const clab_split_control *ctl, long it, double *const *x)
{
    if (ctl && ctl->observe) ctl->observe(ctl->ctx, it, R->S, x);
}

/* the start of every solver, agreed by all parts: the scratch (rc: CLAB_ENOMEM when a slot
 * failed), the factors of the diagonal blocks (f NULL: none), x projected onto C */
static int start(run *R, int rc, double *const *f, double *const *x)
{
    if (rc) clab_error_set(R->err, rc, "dvi split: out of memory for the solver's scratch");
    for (int j = 0; j < R->nl; j++) {
        R->m[j] = rc ? rc : f ? clab_ccp_block_factors(P_of(R, j), f[j], R->err) : CLAB_OK;
        if (!rc) clab_ccp_project(P_of(R, j), x[j]);
    }
    return agree(R);
}

/* ---- projected Jacobi ---- */

static int jacobi(run *R, const clab_ccp_options *o, const clab_split_control *ctl, double *const *x,
                  clab_ccp_result *res)
{
    int rc = CLAB_OK;
    double *const *Nx = slot(R, 0, ROWS, &rc), *const *d = slot(R, 1, ROWS, &rc);
    double *const *u = slot(R, 2, BODIES, &rc), *const *f = slot(R, 3, FACTORS, &rc);
    double r;
    if ((rc = start(R, rc, f, x)) || (rc = products(R, x, u, Nx)) || (rc = residual(R, x, Nx, d, &r))) return rc;
    res->body_passes = 1;
    while (r > o->tol && res->iterations < o->max_iter && isfinite(r)) {
        for (int j = 0; j < R->nl; j++) /* every block from the same d */
            for (size_t i = 0; i < P_of(R, j)->nblocks; i++)
                clab_ccp_plain_jacobi_block(P_of(R, j), i, &f[j][CLAB_BLOCK_FACTORS * i], o->omega, d[j], x[j]);
        if ((rc = products(R, x, u, Nx)) || (rc = residual(R, x, Nx, d, &r))) return rc;
        res->body_passes++;
        clab_ccp_record(&R->S->part[0].W, res, r);
        observe(R, ctl, res->iterations, x);
    }
    return clab_ccp_finish("jacobi", o, res, r, R->err);
}

/* ---- Gauss-Seidel inside a part, Jacobi across parts ---- */

/* the relaxation of every shared block: omega_i = 1 / max(k_a, k_b), k_b the number of
 * shared blocks on moving body b (an owned body has all its blocks on its part, so its count
 * is local; a ghost's comes from its owner by one exchange of width 1, so both holders of a
 * block get the same omega_i). Then sum_{i on b} omega_i <= 1 for every body, and the
 * simultaneous update of the shared blocks is a convex combination of their exact local
 * solves: by Cauchy-Schwarz on each body, |sum_i omega_i M^-1 D_i dx_i|_M^2 <= sum_i omega_i
 * |M^-1 D_i dx_i|_M^2, so f(x + sum_i omega_i dx_i) - f(x) <= sum_i omega_i (f(x + dx_i) -
 * f(x)) <= 0 for the QP f of Eq. (11), and each block stays in its cone. Every sweep then
 * decreases f (the blocks inside a part are Gauss-Seidel's exact minimizations): no
 * divergence on any partition. k is a count of body slots in kk (scratch, 1 a body). */
static int gs_shared_omega(run *R, double *const *kk, double *const *om)
{
    for (int j = 0; j < R->nl; j++) {
        const clab_split_part *p = &R->S->part[j];
        const clab_ccp *P = &p->P;
        memset(kk[j], 0, P->nbodies * sizeof *kk[j]);
        for (size_t i = 0; i < P->nblocks; i++) {
            if (!p->shared[i]) continue;
            const size_t a = (size_t)P->items[i].a, b = (size_t)P->items[i].b;
            if (a < p->nowned) kk[j][a] += 1.0;
            if (b < p->nowned) kk[j][b] += 1.0;
        }
    }
    int rc = R->comm->exchange(R->comm->ctx, R->S, kk, 1);
    if (rc) return clab_error_set(R->err, rc, "dvi split: the ghost exchange failed");
    for (int j = 0; j < R->nl; j++) {
        const clab_split_part *p = &R->S->part[j];
        const clab_ccp *P = &p->P;
        for (size_t i = 0; i < P->nblocks; i++) {
            const int a = P->items[i].a, b = P->items[i].b;
            const double ka = P->invm[a] != 0.0 ? kk[j][a] : 0.0, kb = P->invm[b] != 0.0 ? kk[j][b] : 0.0;
            const double k = ka > kb ? ka : kb;
            om[j][i] = p->shared[i] && k > 0.0 ? 1.0 / k : 1.0;
        }
    }
    return CLAB_OK;
}

/* part j's sweep: the shared blocks by the exact local solve from d (the start of the sweep,
 * the same on both holders), relaxed by om (gs_shared_omega), then its own blocks by
 * Gauss-Seidel; u updated as the blocks move */
static void gs_sweep(run *R, int j, const double *f, const double *om, double omega, const double *d, double *u,
                     double *x)
{
    const clab_split_part *p = &R->S->part[j];
    const clab_ccp *P = &p->P;
    for (size_t i = 0; i < P->nblocks; i++) {
        if (!p->shared[i]) continue;
        double dx[3];
        if (clab_ccp_plain_local_step(P, i, &f[CLAB_BLOCK_FACTORS * i], om[i], &d[P->blocks[i].first], x, dx))
            clab_ccp_plain_gs_add_velocity(P, i, P->blocks[i].size, dx, u);
    }
    for (size_t i = 0; i < P->nblocks; i++)
        if (!p->shared[i]) clab_ccp_plain_gs_block(P, i, &f[CLAB_BLOCK_FACTORS * i], omega, u, x);
}

static int gs(run *R, const clab_ccp_options *o, const clab_split_control *ctl, double *const *x,
              clab_ccp_result *res)
{
    int rc = CLAB_OK;
    double *const *Nx = slot(R, 0, ROWS, &rc), *const *d = slot(R, 1, ROWS, &rc);
    double *const *u = slot(R, 2, BODIES, &rc), *const *f = slot(R, 3, FACTORS, &rc);
    double *const *om = slot(R, 4, FACTORS, &rc); /* one a block (FACTORS >= 1 a block) */
    double r;
    if ((rc = start(R, rc, f, x)) || (rc = gs_shared_omega(R, u, om)) || (rc = products(R, x, u, Nx)) ||
        (rc = residual(R, x, Nx, d, &r)))
        return rc;
    res->body_passes = 1;
    while (r > o->tol && res->iterations < o->max_iter && isfinite(r)) {
        for (int j = 0; j < R->nl; j++) gs_sweep(R, j, f[j], om[j], o->omega, d[j], u[j], x[j]);
        if ((res->iterations + 1) % CLAB_PLAIN_GS_REFRESH == 0) {
            for (int j = 0; j < R->nl; j++) clab_ccp_plain_minv_D(P_of(R, j), x[j], u[j]);
            res->body_passes++;
        }
        if ((rc = R->comm->exchange(R->comm->ctx, R->S, u, 6)))
            return clab_error_set(R->err, rc, "dvi split: the ghost exchange failed");
        for (int j = 0; j < R->nl; j++) clab_ccp_plain_Dt(P_of(R, j), u[j], x[j], Nx[j]);
        if ((rc = residual(R, x, Nx, d, &r))) return rc;
        clab_ccp_record(&R->S->part[0].W, res, r);
        observe(R, ctl, res->iterations, x);
    }
    return clab_ccp_finish("gs", o, res, r, R->err);
}

/* ---- APGD ---- */

/* xn = Proj_C(y - t (Ny + p)) on every part */
static void apgd_step(run *R, double t, double *const *y, double *const *Ny, double *const *xn)
{
    for (int j = 0; j < R->nl; j++) {
        const clab_ccp *P = P_of(R, j);
        for (size_t k = 0; k < P->n; k++) xn[j][k] = y[j][k] - t * (Ny[j][k] + P->p[k]);
        clab_ccp_project(P, xn[j]);
    }
}

/* |N (x - 1)| / |x - 1| floored by the largest block eigenvalue (plain_solvers.c's, exact
 * sums); a, b, u scratch */
static int lipschitz(run *R, double *const *x, double *const *a, double *const *b, double *const *u, double *L)
{
    for (int j = 0; j < R->nl; j++)
        for (size_t k = 0; k < P_of(R, j)->n; k++) a[j][k] = x[j][k] - 1.0;
    int rc = products(R, a, u, b);
    if (rc) return rc;
    for (int j = 0; j < R->nl; j++) {
        const clab_split_part *p = &R->S->part[j];
        clab_xsum *acc = &R->acc[2 * j];
        clab_xsum_init(&acc[0]), clab_xsum_init(&acc[1]);
        for (size_t i = 0; i < p->P.nblocks; i++) {
            const size_t k0 = p->P.blocks[i].first;
            if (p->counted[i]) clab_sums_lipschitz(acc, k0, k0 + (size_t)p->P.blocks[i].size, a[j], b[j]);
        }
        R->m[j] = clab_ccp_plain_block_lmax(&p->P);
    }
    if ((rc = sum(R, 2))) return rc;
    if ((rc = R->comm->max(R->comm->ctx, R->S, R->m, 1)))
        return clab_error_set(R->err, rc, "dvi split: the all-reduce of a maximum failed");
    *L = clab_sums_lipschitz_value(clab_xsum_round(&R->acc[0]), clab_xsum_round(&R->acc[1]), R->m[0]);
    return CLAB_OK;
}

/* the backtracking test's sums e.(N xn - N y), e.e and the restart test's g(y).(xn - x),
 * over the counted blocks of every part, reduced (sums.h: the terms of plain_solvers.c) */
static int apgd_sums(run *R, double *const *xn, double *const *y, double *const *x, double *const *Nxn,
                     double *const *Ny, double out[3])
{
    for (int j = 0; j < R->nl; j++) {
        const clab_split_part *p = &R->S->part[j];
        clab_xsum *acc = &R->acc[3 * j];
        for (int c = 0; c < 3; c++) clab_xsum_init(&acc[c]);
        for (size_t i = 0; i < p->P.nblocks; i++) {
            if (!p->counted[i]) continue;
            const size_t k0 = p->P.blocks[i].first, k1 = k0 + (size_t)p->P.blocks[i].size;
            clab_sums_backtrack(acc, k0, k1, xn[j], y[j], Nxn[j], Ny[j]);
            clab_sums_restart(&acc[2], k0, k1, Ny[j], p->P.p, xn[j], x[j]);
        }
    }
    int rc = sum(R, 3);
    for (int c = 0; c < 3 && !rc; c++) out[c] = clab_xsum_round(&R->acc[c]);
    return rc;
}

/* for every part: dst = src */
static void copy(run *R, double *const *dst, double *const *src)
{
    for (int j = 0; j < R->nl; j++) memcpy(dst[j], src[j], P_of(R, j)->n * sizeof *dst[j]);
}

/* plain_solvers.c's apgd, phase by phase (Mazhar et al. 2015; about 70 lines) */
static int apgd(run *R, const clab_ccp_options *o, const clab_split_control *ctl, double *const *nu,
                clab_ccp_result *res)
{
    int rc = CLAB_OK;
    double *const *x = slot(R, 0, ROWS, &rc), *const *xn = slot(R, 1, ROWS, &rc), *const *y = slot(R, 2, ROWS, &rc);
    double *const *Nx = slot(R, 3, ROWS, &rc), *const *Nxn = slot(R, 4, ROWS, &rc), *const *Ny = slot(R, 5, ROWS, &rc);
    double *const *d = slot(R, 6, ROWS, &rc), *const *best = slot(R, 7, ROWS, &rc);
    double *const *u = slot(R, 8, BODIES, &rc);
    if ((rc = start(R, rc, NULL, nu))) return rc;
    copy(R, x, nu);
    double r, L = 0.0, s[3], theta = 1.0;
    if ((rc = products(R, x, u, Nx)) || (rc = residual(R, x, Nx, d, &r))) return rc;
    double r_best = r;
    res->body_passes = 1;
    if (r <= o->tol) return clab_ccp_finish("apgd", o, res, r, R->err);
    copy(R, best, x);
    if ((rc = lipschitz(R, x, y, Ny, u, &L))) return rc;
    res->body_passes++;
    copy(R, y, x); /* y_0 = x_0 */
    copy(R, Ny, Nx);
    apgd_step(R, 1.0 / L, y, Ny, xn);
    while (res->iterations < o->max_iter) {
        for (int bt = 0;; bt++) { /* backtracking: (x_{k+1} - y).N (x_{k+1} - y) <= L |x_{k+1} - y|^2 */
            if ((rc = products(R, xn, u, Nxn)) || (rc = apgd_sums(R, xn, y, x, Nxn, Ny, s))) return rc;
            res->body_passes++;
            if (s[0] <= L * s[1] || bt == CLAB_PLAIN_APGD_MAX_BACKTRACK || !isfinite(s[0])) break;
            L *= 2.0;
            apgd_step(R, 1.0 / L, y, Ny, xn);
        }
        /* Nesterov momentum, restarted when g(y).(x_{k+1} - x_k) > 0 */
        double theta_n = 0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));
        double beta = theta * (1.0 - theta) / (theta * theta + theta_n);
        if (s[2] > 0.0) beta = 0.0, theta_n = 1.0;
        theta = theta_n;
        L *= 0.9;
        if ((rc = residual(R, xn, Nxn, d, &r))) return rc;
        clab_ccp_record(&R->S->part[0].W, res, r);
        if (r < r_best) r_best = r, copy(R, best, xn);
        observe(R, ctl, res->iterations, xn);
        for (int j = 0; j < R->nl; j++) /* y = x_{k+1} + beta (x_{k+1} - x_k), N y by linearity */
            for (size_t k = 0; k < P_of(R, j)->n; k++) {
                y[j][k] = xn[j][k] + beta * (xn[j][k] - x[j][k]);
                Ny[j][k] = Nxn[j][k] + beta * (Nxn[j][k] - Nx[j][k]);
            }
        copy(R, x, xn);
        copy(R, Nx, Nxn);
        if (r <= o->tol || !isfinite(r)) break;
        apgd_step(R, 1.0 / L, y, Ny, xn);
    }
    copy(R, nu, isfinite(r) ? best : x); /* a non-finite run returns its last iterate */
    return clab_ccp_finish("apgd", o, res, isfinite(r) ? r_best : r, R->err);
}

int clab_split_solve(const char *name, const clab_split *S, const clab_split_comm *comm, const clab_ccp_options *o,
                     const clab_split_control *ctl, double *const *x, clab_ccp_result *res, clab_error *err)
{
    int (*fn)(run *, const clab_ccp_options *, const clab_split_control *, double *const *, clab_ccp_result *) =
        strcmp(name, "jacobi") == 0 ? jacobi : strcmp(name, "apgd") == 0 ? apgd : strcmp(name, "gs") == 0 ? gs : NULL;
    if (!fn) return clab_error_set(err, CLAB_EINVAL, "dvi split: no split solver '%s' (jacobi, apgd, gs)", name);
    if (o->desaxce_p0)
        return clab_error_set(err, CLAB_EINVAL, "dvi split: the %s solver has no De Saxce inner update", name);
    if (S->nlocal < 1) return clab_error_set(err, CLAB_EINVAL, "dvi split: no local part");
    if (clab_ccp_begin(o, &S->part[0].W, res, err)) return err ? err->status : CLAB_ENOMEM;
    if (S->n == 0) return clab_ccp_finish(name, o, res, 0.0, err);
    run R = {S, comm, S->nlocal, calloc((size_t)NSLOTS * (size_t)S->nlocal, sizeof(double *)),
             calloc(2 * (size_t)S->nlocal, sizeof(double)), calloc(3 * (size_t)S->nlocal, sizeof(clab_xsum)), err};
    int rc = R.a && R.m && R.acc ? fn(&R, o, ctl, x, res)
                                 : clab_error_set(err, CLAB_ENOMEM, "dvi split: out of memory");
    free(R.a), free(R.m), free(R.acc);
    return rc;
}

/* the diagnostics of x (split.h): d = N x + p by one product (an exchange), each part's
 * clab_ccp_diagnose over its blocks, then a max all-reduce of the three (a block held by two
 * parts has the same numbers on both, so the maxima are one process's) */
int clab_split_diagnose(const clab_split *S, const clab_split_comm *comm, double *const *x, double *const *u,
                        double *const *d, clab_ccp_diagnostics *out, clab_error *err)
{
    const size_t nl = (size_t)S->nlocal;
    double *m = calloc(3 * (nl ? nl : 1), sizeof *m);
    if (!m) return clab_error_set(err, CLAB_ENOMEM, "dvi split: out of memory");
    run R = {S, comm, S->nlocal, NULL, m, NULL, err};
    int rc = products(&R, x, u, d);
    for (size_t j = 0; !rc && j < nl; j++) {
        const clab_ccp *P = &S->part[j].P;
        clab_ccp_diagnostics dg;
        for (size_t k = 0; k < P->n; k++) d[j][k] += P->p[k];
        clab_ccp_diagnose(P, x[j], d[j], &dg);
        m[3 * j] = dg.gamma_outside_K, m[3 * j + 1] = dg.d_outside_dual, m[3 * j + 2] = dg.complementarity;
    }
    if (!rc && (rc = comm->max(comm->ctx, S, m, 3)))
        clab_error_set(err, rc, "dvi split: the all-reduce of the diagnostics failed");
    if (!rc) out->gamma_outside_K = m[0], out->d_outside_dual = m[1], out->complementarity = m[2];
    free(m);
    return rc;
}
