/* fast_ccp.c: the fast path's matrix-free products with N = P^T M^-1 P of the CCP of Eq. (10)
 * of seed 000 (Tasora-Anitescu), and the indices they read (ccp_fast.h): per body the list of
 * its blocks (incidences), per sphere contact the compact record. Parallel with OpenMP,
 * deterministic for any number of threads. The plain path's products are plain_products.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccp_fast.h"
#include "solver_internal.h"

/* The compact record of contact i from its item (ccp.h, clab_ccp_sph); 0 when an arm of a
 * moving body is off the normal (by more than 1e-13 |r|, far above the rounding of the
 * rotations) or the third direction is not n x u: such a contact keeps the item. */
static int make_sph(clab_ccp_sph *s, const clab_ccp_item *it, const clab_world *w)
{
    const double *n = it->t, *t = it->t + 3, *tw = it->t + 6;
    const double w0 = n[1] * t[2] - n[2] * t[1], w1 = n[2] * t[0] - n[0] * t[2], w2 = n[0] * t[1] - n[1] * t[0];
    int ok = fabs(w0 - tw[0]) <= 1e-13 && fabs(w1 - tw[1]) <= 1e-13 && fabs(w2 - tw[2]) <= 1e-13;
    double rho[2] = {0.0, 0.0};
    for (int side = 0; side < 2; side++) {
        if (w->bodies[side ? it->b : it->a].fixed) continue; /* no velocity: the arm is never used */
        const double *r = it->r + 3 * side;
        double l = r[0] * n[0] + r[1] * n[1] + r[2] * n[2];
        double e0 = r[0] - l * n[0], e1 = r[1] - l * n[1], e2 = r[2] - l * n[2];
        double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
        if (!(e0 * e0 + e1 * e1 + e2 * e2 <= 1e-26 * r2)) ok = 0;
        rho[side] = l;
    }
    for (int c = 0; c < 3; c++) s->n[c] = n[c], s->u[c] = t[c];
    s->ra = rho[0];
    s->rb = rho[1];
    s->a = it->a;
    s->b = it->b;
    return ok;
}

/* the compact records (and per chunk whether all of its contacts have one) and the incidence
 * lists of the moving bodies, each in increasing block order (counting sort) */
void clab_ccp_index(clab_ccp *P, const clab_world *w)
{
    const size_t nb = P->nbodies, nk = P->ncontacts, nch = clab_ccp_nchunks(nk);
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nch >= CLAB_CCP_PAR_CHUNKS)
#endif
    for (size_t ch = 0; ch < nch; ch++) {
        size_t lo, hi;
        clab_ccp_chunk(ch, nk, &lo, &hi);
        int all = 1;
        for (size_t i = lo; i < hi; i++) all &= make_sph(&P->sph[i], &P->items[i], w);
        P->sph_chunk[ch] = (unsigned char)all;
    }
    size_t *st = P->inc_start;
    for (size_t k = 0; k <= nb; k++) st[k] = 0;
    for (size_t i = 0; i < P->nblocks; i++) {
        const clab_ccp_item *it = &P->items[i];
        if (!w->bodies[it->a].fixed) st[it->a + 1]++;
        if (!w->bodies[it->b].fixed) st[it->b + 1]++;
    }
    for (size_t k = 0; k < nb; k++) st[k + 1] += st[k];
    /* fill: st[k] walks forward, then is shifted back */
    for (size_t i = 0; i < P->nblocks; i++) {
        const clab_ccp_item *it = &P->items[i];
        for (int side = 0; side < 2; side++) {
            const int body = side ? it->b : it->a;
            if (w->bodies[body].fixed) continue;
            size_t j = st[body]++;
            P->inc[j] = (uint32_t)(2 * i + (size_t)side);
            for (int c = 0; c < 3; c++) P->inc_r[3 * j + (size_t)c] = side ? it->r[3 + c] : -it->r[c];
        }
    }
    for (size_t k = nb; k > 0; k--) st[k] = st[k - 1];
    st[0] = 0;
}

/* Eq. (9)'s M^-1 P nu, body by body over its incidence list (see ccp_fast.h): force
 * F = sum_q t_q nu_q of each block, +F on b and -F on a, torque r x (+-F) */
void clab_ccp_body_pass(const clab_ccp *P, const double *nu, double *u, int body_frame)
{
    const size_t nb = P->nbodies, nk = P->ncontacts;
    const clab_ccp_item *items = P->items;
    const size_t *st = P->inc_start;
    const uint32_t *inc = P->inc;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nb >= CLAB_CCP_PAR_BODIES)
#endif
    for (size_t k = 0; k < nb; k++) {
        double F0 = 0.0, F1 = 0.0, F2 = 0.0, T0 = 0.0, T1 = 0.0, T2 = 0.0;
        for (size_t j = st[k]; j < st[k + 1]; j++) {
            const uint32_t code = inc[j];
            const size_t i = code >> 1;
            const clab_ccp_item *it = &items[i];
            double g0, g1, g2;
            if (i < nk) {
                const double *x = nu + 3 * i;
                g0 = x[0], g1 = x[1], g2 = x[2];
            } else { /* a joint: 1 or 3 rows */
                const clab_ccp_block *bl = &P->blocks[i];
                g0 = nu[bl->first];
                g1 = bl->size == 3 ? nu[bl->first + 1] : 0.0;
                g2 = bl->size == 3 ? nu[bl->first + 2] : 0.0;
            }
            /* +F on b (side 1), -F on a (side 0) */
            const double sg = (double)(2 * (int)(code & 1u) - 1);
            const double *t = it->t, *r = it->r + 3 * (code & 1u);
            double f0 = sg * (t[0] * g0 + t[3] * g1 + t[6] * g2);
            double f1 = sg * (t[1] * g0 + t[4] * g1 + t[7] * g2);
            double f2 = sg * (t[2] * g0 + t[5] * g1 + t[8] * g2);
            F0 += f0, F1 += f1, F2 += f2;
            T0 += r[1] * f2 - r[2] * f1;
            T1 += r[2] * f0 - r[0] * f2;
            T2 += r[0] * f1 - r[1] * f0;
        }
        const double *m = &P->minv[8 * k];
        double *uk = &u[6 * k];
        uk[0] = m[0] * F0, uk[1] = m[0] * F1, uk[2] = m[0] * F2;
        if (body_frame) { /* wbar change: Jbar^-1 A^T T */
            const double *R = &P->rot[9 * k], *iJ = &P->invJ[3 * k];
            uk[3] = iJ[0] * (R[0] * T0 + R[3] * T1 + R[6] * T2);
            uk[4] = iJ[1] * (R[1] * T0 + R[4] * T1 + R[7] * T2);
            uk[5] = iJ[2] * (R[2] * T0 + R[5] * T1 + R[8] * T2);
        } else { /* world angular velocity change: A Jbar^-1 A^T T */
            uk[3] = m[1] * T0 + m[2] * T1 + m[3] * T2;
            uk[4] = m[2] * T0 + m[4] * T1 + m[5] * T2;
            uk[5] = m[3] * T0 + m[5] * T1 + m[6] * T2;
        }
    }
}

/* the world impulse F_i = sum_q t_q x_q of every block */
void clab_ccp_forces(const clab_ccp *P, const double *x, double *F)
{
    const size_t nk = P->ncontacts, nch = clab_ccp_nchunks(nk);
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nch >= CLAB_CCP_PAR_CHUNKS)
#endif
    for (size_t c = 0; c < nch; c++) {
        size_t lo, hi;
        clab_ccp_chunk(c, nk, &lo, &hi);
        const int sph = P->sph_chunk[c];
        for (size_t i = lo; i < hi; i++) clab_ccp_force(P, sph, i, &x[3 * i], &F[3 * i]);
    }
    clab_ccp_joint_forces(P, x, F);
}

/* N nu through the impulses: F of nu (sequential, from the compact records where they are),
 * the body pass from F (sequential incidences, F read per incidence) and the gather; the same
 * bits as clab_ccp_apply_N, whose body pass reads a 128-byte item per incidence instead */
void clab_ccp_apply_N_F(const clab_ccp *P, const double *nu, double *F, double *u, double *out)
{
    clab_ccp_forces(P, nu, F);
    clab_ccp_body_pass_F(P, F, u);
    clab_ccp_gather(P, u, nu, 0, out);
}

void clab_ccp_joint_forces(const clab_ccp *P, const double *x, double *F)
{
    for (size_t i = P->ncontacts; i < P->nblocks; i++) {
        const clab_ccp_block *bl = &P->blocks[i];
        double g[3] = {x[bl->first], 0.0, 0.0};
        if (bl->size == 3) g[1] = x[bl->first + 1], g[2] = x[bl->first + 2];
        clab_ccp_item_force(&P->items[i], g, &F[3 * i]);
    }
}

/* the body pass from the blocks' impulses F (clab_ccp_forces): the same operations, so the
 * same bits, as clab_ccp_body_pass from nu */
void clab_ccp_body_pass_F(const clab_ccp *P, const double *F, double *u)
{
    const size_t nb = P->nbodies;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nb >= CLAB_CCP_PAR_BODIES)
#endif
    for (size_t k = 0; k < nb; k++) {
        double f[6];
        clab_ccp_body_sums(P, F, k, f);
        clab_ccp_body_minv(&P->minv[8 * k], f, &u[6 * k]);
    }
}

void clab_ccp_gather_joints(const clab_ccp *P, const double *u, const double *nu, double *out)
{
    for (size_t i = P->ncontacts; i < P->nblocks; i++) {
        const clab_ccp_block *bl = &P->blocks[i];
        double v[3], o[3];
        clab_ccp_item_vrel(&P->items[i], u, v);
        clab_ccp_item_rows(&P->items[i], v, o);
        for (int q = 0; q < bl->size; q++) {
            size_t k = bl->first + (size_t)q;
            out[k] = o[q] + (nu ? P->compliance[k] * nu[k] : 0.0);
        }
    }
}

void clab_ccp_minv_P(const clab_ccp *P, const double *nu, double *u) { clab_ccp_body_pass(P, nu, u, 1); }

void clab_ccp_gather(const clab_ccp *P, const double *u, const double *nu, int add_p, double *out)
{
    const size_t nk = P->ncontacts, nch = clab_ccp_nchunks(nk);
    const int comp = nu && P->has_compliance;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nch >= CLAB_CCP_PAR_CHUNKS)
#endif
    for (size_t c = 0; c < nch; c++) {
        size_t end = (c + 1) * CLAB_CCP_CHUNK < nk ? (c + 1) * CLAB_CCP_CHUNK : nk;
        for (size_t i = c * CLAB_CCP_CHUNK; i < end; i++) {
            double v[3], o[3];
            clab_ccp_item_vrel(&P->items[i], u, v);
            clab_ccp_item_rows(&P->items[i], v, o);
            for (int q = 0; q < 3; q++) {
                size_t k = 3 * i + (size_t)q;
                out[k] = o[q] + (comp ? P->compliance[k] * nu[k] : 0.0) + (add_p ? P->p[k] : 0.0);
            }
        }
    }
    clab_ccp_gather_joints(P, u, nu, out);
    if (add_p)
        for (size_t k = 3 * nk; k < P->n; k++) out[k] += P->p[k];
}

/* P^T u for the bodies' (rdot, wbar): wbar turned to the world (omega = A wbar) per block */
void clab_ccp_Pt(const clab_ccp *P, const double *u, const double *nu, double *out)
{
    for (size_t i = 0; i < P->nblocks; i++) {
        const clab_ccp_item *it = &P->items[i];
        double uw[12], v[3], o[3];
        const int body[2] = {it->a, it->b};
        for (int s = 0; s < 2; s++) {
            const double *ub = &u[6 * (size_t)body[s]], *R = &P->rot[9 * (size_t)body[s]];
            double *x = &uw[6 * s];
            x[0] = ub[0], x[1] = ub[1], x[2] = ub[2];
            x[3] = R[0] * ub[3] + R[1] * ub[4] + R[2] * ub[5];
            x[4] = R[3] * ub[3] + R[4] * ub[4] + R[5] * ub[5];
            x[5] = R[6] * ub[3] + R[7] * ub[4] + R[8] * ub[5];
        }
        /* the item with bodies 0 and 1 of uw */
        clab_ccp_item loc = *it;
        loc.a = 0, loc.b = 1;
        clab_ccp_item_vrel(&loc, uw, v);
        clab_ccp_item_rows(it, v, o);
        const clab_ccp_block *bl = &P->blocks[i];
        for (int q = 0; q < bl->size; q++) {
            size_t k = bl->first + (size_t)q;
            out[k] = o[q] + (nu ? P->compliance[k] * nu[k] : 0.0);
        }
    }
}

void clab_ccp_apply_N(const clab_ccp *P, const double *nu, double *u, double *out)
{
    clab_ccp_body_pass(P, nu, u, 0);
    clab_ccp_gather(P, u, nu, 0, out);
}

void clab_ccp_d(const clab_ccp *P, const double *nu, double *u, double *d)
{
    clab_ccp_body_pass(P, nu, u, 0);
    clab_ccp_gather(P, u, nu, 1, d);
}

