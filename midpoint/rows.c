/* rows.c: the constraint rows of the midpoint backend at q^{t+h/2}: the map H of Eq. (1)-(3) of
 * Solfec's "Constraints" (seed 004), U = H u with U in the contact frame, for rigid bodies
 *     H = {a_i}^T [ Lambda (hat(Xbar) - hat(X))   I ]       (3)
 * written on this library's velocities (rdot world, wbar body frame): the point velocity of
 * side k is rdot + A(e) (wbar x sbar) = rdot + omega x s (s = A sbar, the lever in the world),
 * and U is that of b minus that of a, so per side (sigma = -1 for a, +1 for b)
 *     L_k = sigma [n u w]^T,   G_k row r = sigma A(e)^T (s x f_r)   (f_r = n, u, w);
 * the Delassus blocks W_ij = H_i M^-1 H_j^T = sum over shared free bodies k of
 *     L_ik L_jk^T / m_k + G_ik Jbar_k^-1 G_jk^T;
 * and the gap at the midpoint (doc/midpoint.md, "The half step"). Each side's lever reaches
 * its own surface point P_k = P + sigma_k (Phi/2) n (P the record's point, midway between the
 * surfaces), where a rigid body takes the impulse, not P itself, whose lever is off by half
 * the penetration (up to h |U_n|/4 when an impact is caught at the midpoint). */
#include <stdlib.h>
#include <string.h>

#include "midpoint.h"

/* y = M x for a 3x3 row-major M */
static void mulv(const double M[9], clab_vec3 x, double y[3])
{
    for (int r = 0; r < 3; r++) y[r] = M[3 * r] * x.x + M[3 * r + 1] * x.y + M[3 * r + 2] * x.z;
}

/* M^T y */
static clab_vec3 tmulv(const double M[9], const double y[3])
{
    return clab_v3(M[0] * y[0] + M[3] * y[1] + M[6] * y[2], M[1] * y[0] + M[4] * y[1] + M[7] * y[2],
                   M[2] * y[0] + M[5] * y[1] + M[8] * y[2]);
}

/* U_k = L_k rdot + G_k wbar of one side, added to U */
static void side_velocity(const clab_mp_row *r, int k, const clab_body *b, double U[3])
{
    double x[3], y[3];
    mulv(r->L[k], b->rdot, x);
    mulv(r->G[k], b->wbar, y);
    for (int i = 0; i < 3; i++) U[i] += x[i] + y[i];
}

static void row_velocity(const clab_mp_row *r, const clab_world *w, double U[3])
{
    U[0] = U[1] = U[2] = 0.0;
    for (int k = 0; k < 2; k++)
        if (r->body[k] >= 0) side_velocity(r, k, &w->bodies[r->body[k]], U);
}

/* the H blocks of side k (sigma) with world lever s, body orientation e (t + h/2) */
static void side_blocks(clab_mp_row *r, int k, double sigma, clab_vec3 s, clab_quat e)
{
    const clab_vec3 f[3] = {r->n, r->u, r->w};
    for (int i = 0; i < 3; i++) {
        const clab_vec3 g = clab_q_rotate_inv(e, clab_v3_cross(s, f[i]));
        r->L[k][3 * i] = sigma * f[i].x, r->L[k][3 * i + 1] = sigma * f[i].y, r->L[k][3 * i + 2] = sigma * f[i].z;
        r->G[k][3 * i] = sigma * g.x, r->G[k][3 * i + 1] = sigma * g.y, r->G[k][3 * i + 2] = sigma * g.z;
    }
}

/* The gap and frame at t + h/2 of record ct (bodies at t: t0, at t + h/2: w's), and the world
 * levers s[2] there, each to its side's own surface point:
 *   two spheres: the centers' distance d = (R_a + R_b + Phi) n + (h/2)(rdot_b - rdot_a), exact
 *     (and free of periodic images): n' = d/|d|, Phi' = |d| - R_a - R_b;
 *   otherwise: Phi' = Phi + n . (dp_b - dp_a), n kept, dp the displacement of each side's
 *     feature over the half step: the center for a sphere (its surface point along n stays
 *     on the line through the center), the material surface point for a box or a plane,
 *     sbar_k + sigma_k (Phi/2) A(e^t)^T n (sbar_k the record's lever to P); exact for a
 *     sphere or a box vertex against a fixed plane, first order in the rotation of a box's
 *     face or edge.
 * A sphere's lever is R n' as a, -R n' as b: a rigid sphere takes the impulse on its surface,
 * so the sticking law U_t = 0 acts on the surface points' slip, as in the rigid-body impact
 * theory (a sphere without spin sticking on a plane leaves at v_t' = 5/7 v_t). */
static void midpoint_geometry(clab_mp_row *r, const clab_contact *ct, const clab_lever *lv, const clab_body *t0,
                              const clab_world *w, double h, clab_vec3 s[2])
{
    const clab_body *A = &w->bodies[ct->a], *B = &w->bodies[ct->b];
    const int sa = A->shape.type == CLAB_SHAPE_SPHERE, sb = B->shape.type == CLAB_SHAPE_SPHERE;
    if (sa && sb) {
        const double Rs = A->shape.radius + B->shape.radius;
        const clab_vec3 d = clab_v3_madd(clab_v3_scale(ct->n, Rs + ct->phi), 0.5 * h,
                                         clab_v3_sub(t0[ct->b].rdot, t0[ct->a].rdot));
        const double l = clab_v3_norm(d);
        r->n = l > 0.0 ? clab_v3_scale(d, 1.0 / l) : ct->n;
        r->phi = l - Rs;
    } else {
        clab_vec3 dp[2];
        const clab_body *side[2] = {A, B};
        const int sph[2] = {sa, sb};
        const int id[2] = {ct->a, ct->b};
        for (int k = 0; k < 2; k++) {
            dp[k] = clab_v3_scale(t0[id[k]].rdot, 0.5 * h);
            if (!sph[k]) { /* the material surface point: (h/2) rdot + (A(e') - A(e)) sbar_surf */
                const double sigma = k == 0 ? -1.0 : 1.0;
                const clab_vec3 sbar = k == 0 ? lv[ct->lever].sa : lv[ct->lever].sb;
                const clab_vec3 surf = clab_v3_madd(sbar, sigma * 0.5 * ct->phi, clab_q_rotate_inv(t0[id[k]].e, ct->n));
                s[k] = clab_q_rotate(side[k]->e, surf);
                dp[k] = clab_v3_add(dp[k], clab_v3_sub(s[k], clab_q_rotate(t0[id[k]].e, surf)));
            }
        }
        r->n = ct->n;
        r->phi = ct->phi + clab_v3_dot(ct->n, clab_v3_sub(dp[1], dp[0]));
    }
    /* a sphere's lever: its surface point on the line of centers */
    if (sa) s[0] = clab_v3_scale(r->n, A->shape.radius);
    if (sb) s[1] = clab_v3_scale(r->n, -B->shape.radius);
}

void clab_mp_rows(clab_midpoint *s, const clab_world *w, const clab_contacts *c, double h)
{
    s->nrow = c->n;
    for (size_t i = 0; i < c->n; i++) {
        const clab_contact *ct = &c->c[i];
        clab_mp_row *r = &s->row[i];
        clab_vec3 lev[2];
        midpoint_geometry(r, ct, c->lv, s->saved, w, h, lev);
        clab_v3_frame(r->n, &r->u, &r->w);
        const clab_body *A = &w->bodies[ct->a], *B = &w->bodies[ct->b];
        r->body[0] = A->fixed ? -1 : ct->a;
        r->body[1] = B->fixed ? -1 : ct->b;
        side_blocks(r, 0, -1.0, lev[0], A->e);
        side_blocks(r, 1, 1.0, lev[1], B->e);
        const clab_material_pair mp = clab_material_mix(&w->materials[A->material], &w->materials[B->material]);
        r->mu = mp.mu;
        r->e = s->cor >= 0.0 ? s->cor : mp.cor;
        r->active = r->phi <= s->gap_tol && (r->body[0] >= 0 || r->body[1] >= 0);
        /* U^t = H(q^{t+h/2}) u^t: the bodies at t hold u^t */
        double U[3] = {0.0, 0.0, 0.0};
        for (int k = 0; k < 2; k++)
            if (r->body[k] >= 0) side_velocity(r, k, &s->saved[r->body[k]], U);
        r->Un0 = U[0];
        r->R[0] = r->R[1] = r->R[2] = 0.0;
        r->noff = r->off = 0;
    }
}

void clab_mp_free_velocity(clab_midpoint *s, const clab_world *w)
{
    for (size_t i = 0; i < s->nrow; i++) {
        clab_mp_row *r = &s->row[i];
        if (!r->active) continue;
        row_velocity(r, w, r->B);
        /* Newton's impact law: the normal target U_n^{t+h} + e min(U_n^t, 0) >= 0 */
        r->B[0] += r->e * (r->Un0 < 0.0 ? r->Un0 : 0.0);
    }
}

/* W += H_ik M_k^-1 H_jk^T for body b on side ki of row ri and side kj of row rj */
static void add_block(double W[9], const clab_mp_row *ri, int ki, const clab_mp_row *rj, int kj, const clab_body *b)
{
    const double im = clab_body_invmass(b);
    const clab_vec3 iJ = clab_body_invinertia(b);
    const double *Li = ri->L[ki], *Lj = rj->L[kj], *Gi = ri->G[ki], *Gj = rj->G[kj];
    for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++)
            W[3 * p + q] += im * (Li[3 * p] * Lj[3 * q] + Li[3 * p + 1] * Lj[3 * q + 1] + Li[3 * p + 2] * Lj[3 * q + 2]) +
                            Gi[3 * p] * iJ.x * Gj[3 * q] + Gi[3 * p + 1] * iJ.y * Gj[3 * q + 1] +
                            Gi[3 * p + 2] * iJ.z * Gj[3 * q + 2];
}

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap && *p) return 0;
    size_t c = n + n / 2 + 16;
    void *q = realloc(*p, c * size);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

int clab_mp_delassus(clab_midpoint *s, const clab_world *w, clab_error *err)
{
    const size_t nb = w->nbodies;
    if (grow((void **)&s->bstart, &s->cap_bstart, nb + 1, sizeof *s->bstart))
        return clab_error_set(err, CLAB_ENOMEM, "midpoint: out of memory (%zu bodies)", nb);
    /* the active rows by free body, in row order (CSR) */
    memset(s->bstart, 0, (nb + 1) * sizeof *s->bstart);
    size_t nentries = 0;
    for (size_t i = 0; i < s->nrow; i++)
        for (int k = 0; k < 2; k++)
            if (s->row[i].active && s->row[i].body[k] >= 0) s->bstart[s->row[i].body[k] + 1]++, nentries++;
    for (size_t k = 0; k < nb; k++) s->bstart[k + 1] += s->bstart[k];
    if (grow((void **)&s->blist, &s->cap_blist, nentries + 1, sizeof *s->blist))
        return clab_error_set(err, CLAB_ENOMEM, "midpoint: out of memory (%zu contact sides)", nentries);
    size_t noff = 0;
    for (size_t i = 0; i < s->nrow; i++)
        for (int k = 0; k < 2; k++)
            if (s->row[i].active && s->row[i].body[k] >= 0) {
                const size_t b = (size_t)s->row[i].body[k];
                s->blist[s->bstart[b]++] = i;
            }
    for (size_t k = nb; k > 0; k--) s->bstart[k] = s->bstart[k - 1]; /* undo the fill's advance */
    s->bstart[0] = 0;
    for (size_t k = 0; k < nb; k++) {
        const size_t m = s->bstart[k + 1] - s->bstart[k];
        noff += m * (m - 1);
    }
    const size_t had = s->cap_off;
    if (grow((void **)&s->offj, &s->cap_off, noff + 1, sizeof *s->offj))
        return clab_error_set(err, CLAB_ENOMEM, "midpoint: out of memory (%zu coupling blocks)", noff);
    if (s->cap_off != had || !s->offW) {
        double *p = realloc(s->offW, s->cap_off * 9 * sizeof *p);
        if (!p) {
            s->cap_off = had < s->cap_off ? had : s->cap_off; /* offW still holds had blocks */
            return clab_error_set(err, CLAB_ENOMEM, "midpoint: out of memory (%zu coupling blocks)", noff);
        }
        s->offW = p;
    }
    /* row i's blocks: for each of its free bodies, every other active row on that body, merged
     * by j (two rows may share both bodies), in increasing j */
    size_t pos = 0;
    for (size_t i = 0; i < s->nrow; i++) {
        clab_mp_row *r = &s->row[i];
        if (!r->active) continue;
        memset(r->W, 0, sizeof r->W);
        r->off = pos;
        for (int k = 0; k < 2; k++) {
            if (r->body[k] < 0) continue;
            const size_t b = (size_t)r->body[k];
            add_block(r->W, r, k, r, k, &w->bodies[b]);
            for (size_t q = s->bstart[b]; q < s->bstart[b + 1]; q++) {
                const size_t j = s->blist[q];
                if (j == i) continue;
                const clab_mp_row *rj = &s->row[j];
                const int kj = rj->body[0] == (int)b ? 0 : 1;
                size_t at = r->off; /* the block of j if present, else a new one kept in j order */
                while (at < pos && s->offj[at] < j) at++;
                if (at == pos || s->offj[at] != j) {
                    memmove(&s->offj[at + 1], &s->offj[at], (pos - at) * sizeof *s->offj);
                    memmove(&s->offW[9 * (at + 1)], &s->offW[9 * at], 9 * (pos - at) * sizeof *s->offW);
                    s->offj[at] = j;
                    memset(&s->offW[9 * at], 0, 9 * sizeof *s->offW);
                    pos++;
                }
                add_block(&s->offW[9 * at], r, k, rj, kj, &w->bodies[b]);
            }
        }
        r->noff = pos - r->off;
    }
    return CLAB_OK;
}

void clab_mp_apply_impulses(const clab_midpoint *s, clab_world *w)
{
    for (size_t i = 0; i < s->nrow; i++) {
        const clab_mp_row *r = &s->row[i];
        if (!r->active) continue;
        for (int k = 0; k < 2; k++) {
            if (r->body[k] < 0) continue;
            clab_body *b = &w->bodies[r->body[k]];
            const clab_vec3 iJ = clab_body_invinertia(b);
            b->rdot = clab_v3_madd(b->rdot, clab_body_invmass(b), tmulv(r->L[k], r->R));
            b->wbar = clab_v3_add(b->wbar, clab_v3_mul(iJ, tmulv(r->G[k], r->R)));
        }
    }
}
