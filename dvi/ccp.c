/* ccp.c: the CCP of Eq. (10) of seed 000 from the world and the contact records: the D_i and
 * G_j rows, the vector p, and the matrix-free product N nu = P^T M^-1 P nu. */
#include "ccp.h"

#include <stdlib.h>
#include <string.h>

#include "cone.h"

void clab_ccp_init(clab_ccp *P) { memset(P, 0, sizeof *P); }

void clab_ccp_free(clab_ccp *P)
{
    free(P->invm);
    free(P->invJ);
    free(P->rows);
    free(P->blocks);
    free(P->p);
    free(P->compliance);
    clab_ccp_init(P);
}

/* grow the arrays to nb bodies, n rows, nblk blocks (keeps them when large enough) */
static int reserve(clab_ccp *P, size_t nb, size_t n, size_t nblk)
{
    if (nb > P->cap_bodies) {
        double *m = realloc(P->invm, nb * sizeof *m);
        if (!m) return CLAB_ENOMEM;
        P->invm = m;
        double *J = realloc(P->invJ, 3 * nb * sizeof *J);
        if (!J) return CLAB_ENOMEM;
        P->invJ = J;
        P->cap_bodies = nb;
    }
    if (n > P->cap_rows) {
        size_t cap = n + n / 2 + 16;
        clab_ccp_row *r = realloc(P->rows, cap * sizeof *r);
        if (!r) return CLAB_ENOMEM;
        P->rows = r;
        double *p = realloc(P->p, cap * sizeof *p);
        if (!p) return CLAB_ENOMEM;
        P->p = p;
        double *c = realloc(P->compliance, cap * sizeof *c);
        if (!c) return CLAB_ENOMEM;
        P->compliance = c;
        P->cap_rows = cap;
    }
    if (nblk > P->cap_blocks) {
        size_t cap = nblk + nblk / 2 + 16;
        clab_ccp_block *b = realloc(P->blocks, cap * sizeof *b);
        if (!b) return CLAB_ENOMEM;
        P->blocks = b;
        P->cap_blocks = cap;
    }
    return CLAB_OK;
}

static void put3(double dst[3], clab_vec3 v)
{
    dst[0] = v.x;
    dst[1] = v.y;
    dst[2] = v.z;
}
static clab_vec3 get3(const double s[3]) { return clab_v3(s[0], s[1], s[2]); }

/* One row of P^T for the world direction t applied at body-frame points sbar_a of A and
 * sbar_b of B: lin = t, ang_a = -sbar_a x (A_A^T t), ang_b = sbar_b x (A_B^T t)
 * (the columns of D_i in seed 000, Sect. 2; also the rows of G_j^T). */
static void make_row(clab_ccp_row *r, const clab_body *A, const clab_body *B, int a, int b, clab_vec3 t,
                     clab_vec3 sbar_a, clab_vec3 sbar_b)
{
    r->a = a;
    r->b = b;
    put3(r->lin, t);
    put3(r->ang_a, clab_v3_neg(clab_v3_cross(sbar_a, clab_q_rotate_inv(A->e, t))));
    put3(r->ang_b, clab_v3_cross(sbar_b, clab_q_rotate_inv(B->e, t)));
}

/* (P^T v)_k for the bodies' current velocities: the relative velocity along row k */
static double row_velocity(const clab_ccp_row *r, const clab_body *A, const clab_body *B)
{
    clab_vec3 dv = clab_v3_sub(B->rdot, A->rdot);
    return clab_v3_dot(get3(r->lin), dv) + clab_v3_dot(get3(r->ang_a), A->wbar) + clab_v3_dot(get3(r->ang_b), B->wbar);
}

int clab_ccp_build(clab_ccp *P, const clab_world *w, const clab_contacts *c, double h, double recovery_speed,
                   clab_error *err)
{
    size_t nk = c ? c->n : 0, nb = w->nbodies;
    size_t nbil = 0;
    for (size_t j = 0; j < w->njoints; j++) nbil += (size_t)clab_joint_rows(w->joints[j].type);
    size_t n = 3 * nk + nbil;
    if (reserve(P, nb, n, nk + w->njoints))
        return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory building the CCP (%zu contacts, %zu joints)", nk,
                              w->njoints);
    P->nbodies = nb;
    P->ncontacts = nk;
    P->njoint_rows = nbil;
    P->n = n;
    P->nblocks = nk + w->njoints;
    P->h = h;

    /* M^-1, block diagonal: 1/m I and Jbar^-1 (zero for fixed bodies) */
    for (size_t k = 0; k < nb; k++) {
        const clab_body *B = &w->bodies[k];
        P->invm[k] = clab_body_invmass(B);
        put3(&P->invJ[3 * k], clab_body_invinertia(B));
    }

    /* contacts: D_i rows (n, u, w) and p_i = d_{i,0} + D_i^T v* */
    for (size_t i = 0; i < nk; i++) {
        const clab_contact *ct = &c->c[i];
        const clab_body *A = &w->bodies[ct->a], *B = &w->bodies[ct->b];
        clab_vec3 dir[3] = {ct->n, ct->u, ct->w};
        clab_ccp_block *bl = &P->blocks[i];
        bl->first = 3 * i;
        bl->size = 3;
        bl->kind = CLAB_CCP_CONE;
        bl->mu = clab_material_mix(&w->materials[A->material], &w->materials[B->material]).mu;
        for (int r = 0; r < 3; r++) {
            clab_ccp_row *row = &P->rows[3 * i + r];
            make_row(row, A, B, ct->a, ct->b, dir[r], ct->sa, ct->sb);
            P->p[3 * i + r] = row_velocity(row, A, B);
        }
        /* stabilization term Phi/h of Eq. (5d), capped from below (seed 000, Sect. 3) */
        double phi_h = ct->phi / h;
        if (phi_h < -recovery_speed) phi_h = -recovery_speed;
        P->p[3 * i] += phi_h;
    }

    /* joints: G_j rows and b_{j,0} = g_j/h + G_j^T v* of Eq. (5c) */
    size_t k = 3 * nk;
    for (size_t j = 0; j < w->njoints; j++) {
        const clab_joint *J = &w->joints[j];
        const clab_body *A = &w->bodies[J->a], *B = &w->bodies[J->b];
        if (A->fixed && B->fixed)
            return clab_error_set(err, CLAB_EINVAL, "dvi: joint %zu (%s) connects two fixed bodies (%s, %s)", j,
                                  clab_joint_name(J->type), w->names[J->a], w->names[J->b]);
        /* g = r_b + A_b sbar_b - r_a - A_a sbar_a (spherical: 3 rows along the world axes) */
        clab_vec3 delta = clab_v3_sub(clab_body_point(B, J->sb), clab_body_point(A, J->sa));
        clab_ccp_block *bl = &P->blocks[nk + j];
        bl->first = k;
        bl->kind = CLAB_CCP_FREE;
        bl->mu = 0.0;
        if (J->type == CLAB_JOINT_SPHERICAL) {
            bl->size = 3;
            clab_vec3 axis[3] = {clab_v3(1, 0, 0), clab_v3(0, 1, 0), clab_v3(0, 0, 1)};
            for (int r = 0; r < 3; r++, k++) {
                make_row(&P->rows[k], A, B, J->a, J->b, axis[r], J->sa, J->sb);
                P->p[k] = clab_v3_get(delta, r) / h + row_velocity(&P->rows[k], A, B);
            }
        } else { /* distance: g = |delta| - length along t = delta/|delta| */
            double len = clab_v3_norm(delta);
            if (!(len > 1e-12 * J->length))
                return clab_error_set(err, CLAB_EINVAL,
                                      "dvi: distance joint %zu (%s, %s): attachment points coincide, no direction", j,
                                      w->names[J->a], w->names[J->b]);
            bl->size = 1;
            make_row(&P->rows[k], A, B, J->a, J->b, clab_v3_scale(delta, 1.0 / len), J->sa, J->sb);
            P->p[k] = (len - J->length) / h + row_velocity(&P->rows[k], A, B);
            k++;
        }
    }
    for (size_t q = 0; q < n; q++) P->compliance[q] = 0.0;
    clab_ccp_update_blocks(P);
    return CLAB_OK;
}

/* N_kl for rows k, l: (row_k of P^T) M^-1 (row_l of P^T)^T */
static double n_entry(const clab_ccp *P, const clab_ccp_row *rk, const clab_ccp_row *rl)
{
    double s = 0.0;
    const double *lk = rk->lin, *ll = rl->lin;
    double lin = lk[0] * ll[0] + lk[1] * ll[1] + lk[2] * ll[2];
    /* body a of row k against both bodies of row l, then body b of row k */
    int bodies_k[2] = {rk->a, rk->b}, bodies_l[2] = {rl->a, rl->b};
    const double *angk[2] = {rk->ang_a, rk->ang_b}, *angl[2] = {rl->ang_a, rl->ang_b};
    double sgn[2] = {-1.0, 1.0};
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++) {
            int body = bodies_k[x];
            if (body != bodies_l[y]) continue;
            const double *iJ = &P->invJ[3 * body];
            s += sgn[x] * sgn[y] * P->invm[body] * lin;
            s += angk[x][0] * iJ[0] * angl[y][0] + angk[x][1] * iJ[1] * angl[y][1] + angk[x][2] * iJ[2] * angl[y][2];
        }
    return s;
}

void clab_ccp_update_blocks(clab_ccp *P)
{
    for (size_t i = 0; i < P->nblocks; i++) {
        clab_ccp_block *bl = &P->blocks[i];
        int m = bl->size;
        double tr = 0.0;
        for (int r = 0; r < m; r++)
            for (int s = 0; s < m; s++) {
                double v = n_entry(P, &P->rows[bl->first + r], &P->rows[bl->first + s]);
                if (r == s) v += P->compliance[bl->first + r];
                bl->Nii[r * m + s] = v;
                if (r == s) tr += v;
            }
        bl->t_res = tr > 0.0 ? m / tr : 0.0;
    }
}

void clab_ccp_minv_P(const clab_ccp *P, const double *nu, double *u)
{
    for (size_t q = 0; q < 6 * P->nbodies; q++) u[q] = 0.0;
    /* accumulate P nu per body (force impulse, body-frame torque impulse) */
    for (size_t k = 0; k < P->n; k++) {
        const clab_ccp_row *r = &P->rows[k];
        double x = nu[k];
        if (x == 0.0) continue;
        double *ua = &u[6 * r->a], *ub = &u[6 * r->b];
        for (int j = 0; j < 3; j++) {
            ua[j] -= r->lin[j] * x;
            ua[3 + j] += r->ang_a[j] * x;
            ub[j] += r->lin[j] * x;
            ub[3 + j] += r->ang_b[j] * x;
        }
    }
    /* then M^-1 per body */
    for (size_t b = 0; b < P->nbodies; b++) {
        double *ub = &u[6 * b];
        const double *iJ = &P->invJ[3 * b];
        for (int j = 0; j < 3; j++) {
            ub[j] *= P->invm[b];
            ub[3 + j] *= iJ[j];
        }
    }
}

void clab_ccp_Pt(const clab_ccp *P, const double *u, const double *nu, double *out)
{
    for (size_t k = 0; k < P->n; k++) {
        const clab_ccp_row *r = &P->rows[k];
        const double *ua = &u[6 * r->a], *ub = &u[6 * r->b];
        double s = 0.0;
        for (int j = 0; j < 3; j++)
            s += r->lin[j] * (ub[j] - ua[j]) + r->ang_a[j] * ua[3 + j] + r->ang_b[j] * ub[3 + j];
        out[k] = s + (nu ? P->compliance[k] * nu[k] : 0.0);
    }
}

void clab_ccp_apply_N(const clab_ccp *P, const double *nu, double *u, double *out)
{
    clab_ccp_minv_P(P, nu, u);
    clab_ccp_Pt(P, u, nu, out);
}

void clab_ccp_d(const clab_ccp *P, const double *nu, double *u, double *d)
{
    clab_ccp_apply_N(P, nu, u, d);
    for (size_t k = 0; k < P->n; k++) d[k] += P->p[k];
}

double clab_ccp_objective(const clab_ccp *P, const double *nu, const double *d)
{
    double f = 0.0;
    for (size_t k = 0; k < P->n; k++) f += nu[k] * (d[k] + P->p[k]);
    return 0.5 * f;
}

int clab_ccp_dense_N(const clab_ccp *P, double *Nd)
{
    size_t n = P->n, m = 6 * P->nbodies;
    size_t len = m * n > 0 ? m * n : 1;
    double *Pd = calloc(len, sizeof *Pd); /* P, 6 nb x n, column k = row k of P^T */
    if (!Pd) return CLAB_ENOMEM;
    for (size_t k = 0; k < n; k++) {
        const clab_ccp_row *r = &P->rows[k];
        for (int j = 0; j < 3; j++) {
            Pd[(6 * r->a + j) * n + k] += -r->lin[j];
            Pd[(6 * r->a + 3 + j) * n + k] += r->ang_a[j];
            Pd[(6 * r->b + j) * n + k] += r->lin[j];
            Pd[(6 * r->b + 3 + j) * n + k] += r->ang_b[j];
        }
    }
    for (size_t k = 0; k < n; k++)
        for (size_t l = 0; l < n; l++) {
            double s = 0.0;
            for (size_t b = 0; b < P->nbodies; b++)
                for (int j = 0; j < 6; j++) {
                    double minv = j < 3 ? P->invm[b] : P->invJ[3 * b + j - 3];
                    s += Pd[(6 * b + j) * n + k] * minv * Pd[(6 * b + j) * n + l];
                }
            Nd[k * n + l] = s + (k == l ? P->compliance[k] : 0.0);
        }
    free(Pd);
    return CLAB_OK;
}

void clab_ccp_project(const clab_ccp *P, double *nu)
{
    for (size_t i = 0; i < P->nblocks; i++)
        if (P->blocks[i].kind == CLAB_CCP_CONE) clab_cone_project(P->blocks[i].mu, &nu[P->blocks[i].first]);
}
