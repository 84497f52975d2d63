/* split_step.c: the DVI step of one MPI rank's part (doc/mpi.md, "The DVI backend across
 * ranks"): Eq. (5) of Negrut, Serban and Tasora as step.c takes it, on the rank's local world
 * (owned, ghost and fixed bodies), with the CCP of the contacts touching an owned body solved by
 * the split solver (split.h) over the ranks' communication.
 *
 * The local world's contacts are the global list restricted to its bodies, in the global order
 * (mpi/); those touching an owned moving body are the blocks the split solver's part holds, so
 * the part is built from their CCP with every block (clab_split_build_part). Projected Jacobi
 * and APGD then compute the plain solvers' iterates with sums=exact to the bit (split.h), the
 * velocity update of an owned body is the same sum in the same order as one process's, and the
 * warm start, kept by contact key, holds the impulses of this rank's blocks (a block shared
 * with another rank has the same bits on both). Gauss-Seidel runs as the split solver's
 * (Gauss-Seidel inside the rank, Jacobi across ranks: bits depending on P). After the solve the
 * complementarity diagnostics of Eq. (7)-(8) are computed across the ranks (one product, one
 * maximum), as step.c computes them. The ghosts' velocities are left at v* (their owners send
 * their states after the step). */
#include <stdlib.h>
#include <string.h>

#include "clab_backend_keyed.h"
#include "dvi_internal.h"
#include "plain.h"
#include "split.h"

struct clab_dvi_ranks {
    const clab_backend_ranks *r; /* the rank, the owners, the communication (the caller's) */
    clab_contacts sub;           /* the contacts touching an owned body (records copied; levers shared) */
    size_t *index;               /* [sub.n] their index in the sim's contacts */
    size_t cap;
    clab_split S;                /* this step's part */
    double *x, *dv;              /* [P.n] the part's impulses, [6 P.nbodies] its velocity changes */
    size_t cap_x, cap_dv;
};

void clab_dvi_ranks_free(clab_dvi *s)
{
    struct clab_dvi_ranks *R = s->ranks;
    if (!R) return;
    free(R->sub.c);
    free(R->index);
    clab_split_free(&R->S);
    free(R->x);
    free(R->dv);
    free(R);
    s->ranks = NULL;
}

int clab_dvi_set_ranks(void *self, const clab_backend_ranks *ranks, clab_error *err)
{
    clab_dvi *s = self;
    if (!ranks) {
        clab_dvi_ranks_free(s);
        return CLAB_OK;
    }
    const char *name = s->solver->name;
    if (strcmp(name, "jacobi") && strcmp(name, "apgd") && strcmp(name, "gs"))
        return clab_error_set(err, CLAB_EINVAL,
                              "dvi: solver=%s does not run across ranks (jacobi and apgd do, with the one-process "
                              "bits; gs, Gauss-Seidel inside a rank and Jacobi across, with bits depending on P)",
                              name);
    if (s->fast || s->sums != CLAB_SUMS_EXACT)
        return clab_error_set(err, CLAB_EINVAL, "dvi: across ranks only with fast=off sums=exact (the plain solvers, "
                                                "exactly rounded global sums)");
    if (s->exact.friction == CLAB_FRICTION_EXACT)
        return clab_error_set(err, CLAB_EINVAL, "dvi: friction=exact (De Saxce fixed point) does not run across ranks");
    if (s->reg.on)
        return clab_error_set(err, CLAB_EINVAL,
                              "dvi: the regularized normal rows (compliance=, stiffness=) do not run across ranks");
    if (!s->ranks && !(s->ranks = calloc(1, sizeof *s->ranks)))
        return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory");
    s->ranks->r = ranks;
    return CLAB_OK;
}

/* the sim's contacts touching a moving body this rank owns, in their order */
static int own_contacts(struct clab_dvi_ranks *R, const clab_contacts *c)
{
    if (c->n > R->cap) {
        clab_contact *cc = realloc(R->sub.c, c->n * sizeof *cc);
        if (cc) R->sub.c = cc;
        size_t *ix = realloc(R->index, c->n * sizeof *ix);
        if (ix) R->index = ix;
        if (!cc || !ix) return CLAB_ENOMEM;
        R->cap = c->n;
    }
    const int *owner = R->r->owner, me = R->r->rank;
    size_t m = 0;
    for (size_t i = 0; i < c->n; i++) {
        const clab_contact *k = &c->c[i];
        if (owner[k->a] != me && owner[k->b] != me) continue;
        R->sub.c[m] = *k;
        R->index[m++] = i;
    }
    R->sub.n = m;
    R->sub.increasing = c->increasing;
    R->sub.lv = c->lv, R->sub.nlv = c->nlv;
    R->sub.partition = NULL;
    return CLAB_OK;
}

/* the part's impulses x from the CCP's nu and back (every block is the part's) */
static void to_part(const struct clab_dvi_ranks *R, const double *nu, double *x, int back)
{
    const clab_split_part *p = &R->S.part[0];
    for (size_t b = 0; b < p->P.nblocks; b++) {
        const size_t len = (size_t)p->P.blocks[b].size * sizeof *nu;
        if (back) memcpy((double *)nu + p->block_row[b], &x[p->P.blocks[b].first], len);
        else memcpy(&x[p->P.blocks[b].first], &nu[p->block_row[b]], len);
    }
}

/* 3. the split solve from the warm start; 4. v(l+1) = v* + M^-1 D nu for the owned bodies */
static int solve_update(clab_dvi *s, clab_world *w, const clab_split_comm *comm, clab_error *err)
{
    struct clab_dvi_ranks *R = s->ranks;
    const clab_split_part *p = &R->S.part[0];
    clab_dvi_warm_guess(s, w, &R->sub, s->nu);
    to_part(R, s->nu, R->x, 0);
    double *const x[1] = {R->x};
    clab_error sub;
    clab_error_clear(&sub);
    int rc = clab_split_solve(s->solver->name, &R->S, comm, &s->opt, NULL, x, &s->last, &sub);
    s->solves++;
    s->total_iterations += s->last.iterations;
    if (rc == CLAB_EMAXITER) {
        s->maxiter_hits++;
        rc = CLAB_OK;
    }
    if (rc)
        return clab_error_set(err, rc, "%s (step at t = %.9g s, %zu contacts of this rank)", sub.msg, w->t,
                              s->ccp.ncontacts);
    to_part(R, s->nu, R->x, 1);
    double *const dv[1] = {R->dv}, *const d[1] = {s->d};
    if ((rc = clab_split_diagnose(&R->S, comm, x, dv, d, &s->diag, &sub))) /* d = N nu + p, as step.c's */
        return clab_error_set(err, rc, "%s", sub.msg);
    clab_ccp_plain_dv(&p->P, R->x, R->dv); /* owned slots: one process's sums (split.h) */
    for (size_t k = 0; k < p->nowned; k++) {
        clab_body *b = &w->bodies[p->body[k]];
        const double *du = &R->dv[6 * k];
        b->rdot = clab_v3_add(b->rdot, clab_v3(du[0], du[1], du[2]));
        b->wbar = clab_v3_add(b->wbar, clab_v3(du[3], du[4], du[5]));
    }
    return CLAB_OK;
}

int clab_dvi_ranks_step(clab_dvi *s, clab_world *w, const clab_contacts *c, double h, clab_error *err)
{
    struct clab_dvi_ranks *R = s->ranks;
    const clab_backend_ranks *rk = R->r;
    const clab_split_comm *comm = rk->comm;
    const size_t nb = w->nbodies;
    if (nb != rk->nbodies)
        return clab_error_set(err, CLAB_EINVAL, "dvi: %zu bodies, the ranks' part was set for %zu", nb, rk->nbodies);
    int rc = own_contacts(R, c);
    if (!rc && (clab_ccp_grow(&s->u, &s->cap_u, 6 * nb) || clab_ccp_grow(&s->v_saved, &s->cap_v, 6 * nb))) rc = CLAB_ENOMEM;
    if (rc) rc = clab_error_set(err, rc, "dvi: out of memory (%zu bodies)", nb);
    const int kicked = !rc; /* v(l) kept in s->v_saved */
    if (kicked) clab_dvi_free_velocity(s, w, h);
    /* 2. the CCP of Eq. (10) of this rank's contacts, and its part */
    if (!rc) rc = clab_ccp_build(&s->ccp, w, &R->sub, h, s->recovery_speed, err);
    clab_split_free(&R->S);
    if (!rc) rc = clab_split_build_part(&R->S, &s->ccp, rk->owner, rk->size, rk->rank, err);
    const size_t n = s->ccp.n;
    if (!rc && (clab_ccp_grow(&s->nu, &s->cap_nu, n) || clab_ccp_grow(&s->d, &s->cap_d, n) || clab_ccp_grow(&R->x, &R->cap_x, n) ||
                clab_ccp_grow(&R->dv, &R->cap_dv, 6 * (R->S.part ? R->S.part[0].P.nbodies : 0))))
        rc = clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory");
    s->h = h;
    memset(&s->last, 0, sizeof s->last);
    memset(&s->diag, 0, sizeof s->diag);
    /* every rank on: whether some rank failed, and whether the global CCP has rows (one process
     * solves only then) */
    double m[2] = {rc ? 1.0 : 0.0, (double)n};
    int rc2 = comm->max(comm->ctx, &R->S, m, 2);
    if (!rc && (rc2 || m[0] != 0.0))
        rc = rc2 ? clab_error_set(err, rc2, "dvi: the ranks' maximum failed")
                 : clab_error_set(err, CLAB_EINVAL, "dvi: another rank failed to build its CCP");
    R->S.n = (size_t)m[1]; /* the split solvers start (and join the collectives) when the global CCP has rows */
    if (!rc && m[1] > 0.0) rc = solve_update(s, w, comm, err);
    if (rc) { /* leave the world as it was */
        for (size_t k = 0; kicked && k < nb; k++) {
            const double *v = &s->v_saved[6 * k];
            w->bodies[k].rdot = clab_v3(v[0], v[1], v[2]);
            w->bodies[k].wbar = clab_v3(v[3], v[4], v[5]);
        }
        return rc;
    }
    /* 5. q(l+1) = q(l) + h L(q(l)) v(l+1) */
    for (size_t k = 0; k < nb; k++) clab_body_drift(&w->bodies[k], h);
    if (clab_dvi_warm_store(s, &R->sub))
        return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory storing warm-start impulses");
    return CLAB_OK;
}

void clab_dvi_ranks_forces(const clab_dvi *s, const clab_contacts *c, clab_vec3 *f_nuw)
{
    const struct clab_dvi_ranks *R = s->ranks;
    for (size_t i = 0; i < c->n; i++) f_nuw[i] = clab_v3(0.0, 0.0, 0.0);
    for (size_t i = 0; i < s->ccp.ncontacts && i < R->sub.n && s->h > 0.0; i++)
        if (R->index[i] < c->n)
            f_nuw[R->index[i]] = clab_v3(s->nu[3 * i] / s->h, s->nu[3 * i + 1] / s->h, s->nu[3 * i + 2] / s->h);
}
