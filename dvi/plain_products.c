/* plain_products.c: the products with N = D^T M^-1 D of the Tasora-Anitescu CCP (Eq. (10) of
 * seed 000) for the plain path, without assembling N: D gamma is a sum of impulses over the
 * blocks, M^-1 is block diagonal per body, D^T u reads the velocities of two bodies per block.
 * Each block i holds (ccp.h, clab_ccp_item) its directions t_q (n, u, w of a contact; the
 * rows of a joint) and its arms r_a, r_b from the centres of bodies a and b, world frame:
 *     (D_i^T v)_q = t_q . (v_b + omega_b x r_b - v_a - omega_a x r_a),
 *     D_i gamma_i:  impulse F_i = sum_q t_q gamma_q on b (torque r_b x F_i), -F_i on a. */
#include <math.h>
#include <string.h>

#include "plain.h"
#include "solver_internal.h" /* clab_sym3_max_eigenvalue */

/* the impulses of block i as three numbers (a distance joint has one row: the rest 0) */
static void block_gamma(const clab_ccp *P, size_t i, const double *gamma, double g[3])
{
    const clab_ccp_block *bl = &P->blocks[i];
    g[0] = gamma[bl->first];
    g[1] = bl->size == 3 ? gamma[bl->first + 1] : 0.0;
    g[2] = bl->size == 3 ? gamma[bl->first + 2] : 0.0;
}

/* a x b added to (sign +1) or taken from (sign -1) acc */
static void add_cross(double sign, const double *a, const double *b, double *acc)
{
    const double c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    for (int q = 0; q < 3; q++) acc[q] = sign > 0.0 ? acc[q] + c[q] : acc[q] - c[q];
}

void clab_ccp_plain_D(const clab_ccp *P, const double *gamma, double *f)
{
    memset(f, 0, 6 * P->nbodies * sizeof *f);
    for (size_t i = 0; i < P->nblocks; i++) {
        const clab_ccp_item *it = &P->items[i];
        const double *t = it->t;
        double g[3], F[3];
        block_gamma(P, i, gamma, g);
        for (int q = 0; q < 3; q++) F[q] = t[q] * g[0] + t[3 + q] * g[1] + t[6 + q] * g[2];
        /* -F_i on a (torque -r_a x F_i), +F_i on b (torque r_b x F_i) */
        for (int side = 0; side < 2; side++) {
            const size_t k = (size_t)(side ? it->b : it->a);
            const double sign = side ? 1.0 : -1.0;
            if (P->invm[k] == 0.0) continue; /* a fixed body */
            double *fk = &f[6 * k];
            for (int q = 0; q < 3; q++) fk[q] = side ? fk[q] + F[q] : fk[q] - F[q];
            add_cross(sign, it->r + 3 * side, F, fk + 3);
        }
    }
}

void clab_ccp_plain_minv_D(const clab_ccp *P, const double *gamma, double *u)
{
    clab_ccp_plain_D(P, gamma, u);
    for (size_t k = 0; k < P->nbodies; k++) {
        /* 1/m and the world inverse inertia I^-1 = A Jbar^-1 A^T (xx, xy, xz, yy, yz, zz) */
        const double *m = &P->minv[8 * k];
        double *uk = &u[6 * k];
        const double T[3] = {uk[3], uk[4], uk[5]};
        uk[0] = m[0] * uk[0], uk[1] = m[0] * uk[1], uk[2] = m[0] * uk[2];
        uk[3] = m[1] * T[0] + m[2] * T[1] + m[3] * T[2];
        uk[4] = m[2] * T[0] + m[4] * T[1] + m[5] * T[2];
        uk[5] = m[3] * T[0] + m[5] * T[1] + m[6] * T[2];
    }
}

void clab_ccp_plain_dv(const clab_ccp *P, const double *gamma, double *dv)
{
    clab_ccp_plain_D(P, gamma, dv);
    for (size_t k = 0; k < P->nbodies; k++) {
        /* rdot change F/m; wbar change Jbar^-1 A^T T (the torque in the body frame) */
        const double *R = &P->rot[9 * k], *iJ = &P->invJ[3 * k];
        double *d = &dv[6 * k];
        const double T[3] = {d[3], d[4], d[5]};
        d[0] = P->invm[k] * d[0], d[1] = P->invm[k] * d[1], d[2] = P->invm[k] * d[2];
        d[3] = iJ[0] * (R[0] * T[0] + R[3] * T[1] + R[6] * T[2]);
        d[4] = iJ[1] * (R[1] * T[0] + R[4] * T[1] + R[7] * T[2]);
        d[5] = iJ[2] * (R[2] * T[0] + R[5] * T[1] + R[8] * T[2]);
    }
}

/* the velocity of the point at arm r of a body moving with u = (v, omega): v + omega x r */
static void point_velocity(const double *u, const double *r, double out[3])
{
    out[0] = u[0] + u[4] * r[2] - u[5] * r[1];
    out[1] = u[1] + u[5] * r[0] - u[3] * r[2];
    out[2] = u[2] + u[3] * r[1] - u[4] * r[0];
}

/* the rows of block i: out_q = t_q . (v_b + omega_b x r_b - v_a - omega_a x r_a) */
static void block_rows(const clab_ccp *P, size_t i, const double *u, double out[3])
{
    const clab_ccp_item *it = &P->items[i];
    double va[3], vb[3], v[3];
    point_velocity(&u[6 * (size_t)it->a], it->r, va);
    point_velocity(&u[6 * (size_t)it->b], it->r + 3, vb);
    for (int q = 0; q < 3; q++) v[q] = vb[q] - va[q];
    for (int q = 0; q < P->blocks[i].size; q++) {
        const double *t = &it->t[3 * q];
        out[q] = t[0] * v[0] + t[1] * v[1] + t[2] * v[2];
    }
}

void clab_ccp_plain_Dt(const clab_ccp *P, const double *u, const double *gamma, double *out)
{
    for (size_t i = 0; i < P->nblocks; i++) {
        const clab_ccp_block *bl = &P->blocks[i];
        double o[3];
        block_rows(P, i, u, o);
        for (int q = 0; q < bl->size; q++) {
            const size_t k = bl->first + (size_t)q;
            out[k] = gamma ? o[q] + P->compliance[k] * gamma[k] : o[q];
        }
    }
}

void clab_ccp_plain_d_block(const clab_ccp *P, size_t i, const double *u, const double *gamma, double d[3])
{
    const clab_ccp_block *bl = &P->blocks[i];
    double o[3];
    block_rows(P, i, u, o);
    for (int q = 0; q < bl->size; q++) {
        const size_t k = bl->first + (size_t)q;
        d[q] = o[q] + P->compliance[k] * gamma[k] + P->p[k];
    }
}

void clab_ccp_plain_N(const clab_ccp *P, const double *gamma, double *u, double *out)
{
    clab_ccp_plain_minv_D(P, gamma, u);
    clab_ccp_plain_Dt(P, u, gamma, out);
}

double clab_ccp_plain_lipschitz(const clab_ccp *P, const double *x, double *a, double *b, double *u)
{
    double floor = 0.0;
    for (size_t i = 0; i < P->nblocks; i++) {
        const clab_ccp_block *bl = &P->blocks[i];
        const double l = bl->size == 1 ? bl->Nii[0] : clab_sym3_max_eigenvalue(bl->Nii);
        if (l > floor) floor = l;
    }
    double num = 0.0, den = 0.0;
    for (size_t k = 0; k < P->n; k++) a[k] = x[k] - 1.0;
    clab_ccp_plain_N(P, a, u, b);
    for (size_t k = 0; k < P->n; k++) {
        num += b[k] * b[k];
        den += a[k] * a[k];
    }
    const double L = den > 0.0 ? sqrt(num / den) : 0.0;
    return L > floor ? L : floor;
}
