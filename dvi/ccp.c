/* ccp.c: the CCP of Eq. (10) of seed 000 (Tasora-Anitescu) from the world and the contact
 * records: the D_i and G_j rows, the vector p, M^-1, the diagonal blocks N_ii. The products
 * with N are in plain_products.c (the plain path) and fast_ccp.c (the fast path). */
#include "ccp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccp_fast.h"
#include "cone.h"
#include "solver_internal.h"

void clab_ccp_init(clab_ccp *P) { memset(P, 0, sizeof *P); }

void clab_ccp_free(clab_ccp *P)
{
    free(P->invm);
    free(P->invJ);
    free(P->rows);
    free(P->blocks);
    free(P->p);
    free(P->compliance);
    free(P->items);
    free(P->minv);
    free(P->rot);
    free(P->inc_start);
    free(P->inc);
    free(P->inc_r);
    free(P->cone);
    free(P->sph);
    free(P->sph_chunk);
    clab_ccp_init(P);
}

/* grow the arrays to nb bodies, n rows, nblk blocks (keeps them when large enough) */
static int reserve(clab_ccp *P, size_t nb, size_t n, size_t nblk)
{
    if (nb > P->cap_bodies || !P->inc_start) {
        if (nb == 0) nb = 1; /* inc_start always has nbodies + 1 entries, also for an empty world */
        double *m = realloc(P->invm, nb * sizeof *m);
        if (!m) return CLAB_ENOMEM;
        P->invm = m;
        double *J = realloc(P->invJ, 3 * nb * sizeof *J);
        if (!J) return CLAB_ENOMEM;
        P->invJ = J;
        double *mi = realloc(P->minv, 8 * nb * sizeof *mi);
        if (!mi) return CLAB_ENOMEM;
        P->minv = mi;
        double *A = realloc(P->rot, 9 * nb * sizeof *A);
        if (!A) return CLAB_ENOMEM;
        P->rot = A;
        size_t *st = realloc(P->inc_start, (nb + 1) * sizeof *st);
        if (!st) return CLAB_ENOMEM;
        P->inc_start = st;
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
        /* the items are rebuilt from scratch: no realloc, which would lose the alignment */
        free(P->items);
        P->items = aligned_alloc(64, cap * sizeof *P->items); /* 128 bytes each: a multiple of 64 */
        if (!P->items) return CLAB_ENOMEM;
        uint32_t *inc = realloc(P->inc, 2 * cap * sizeof *inc);
        if (!inc) return CLAB_ENOMEM;
        P->inc = inc;
        double *ir = realloc(P->inc_r, 6 * cap * sizeof *ir);
        if (!ir) return CLAB_ENOMEM;
        P->inc_r = ir;
        double *cn = realloc(P->cone, 4 * cap * sizeof *cn);
        if (!cn) return CLAB_ENOMEM;
        P->cone = cn;
        clab_ccp_sph *sp = realloc(P->sph, cap * sizeof *sp);
        if (!sp) return CLAB_ENOMEM;
        P->sph = sp;
        unsigned char *sc = realloc(P->sph_chunk, clab_ccp_nchunks(cap) + 1);
        if (!sc) return CLAB_ENOMEM;
        P->sph_chunk = sc;
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

/* The world-frame item of a block: directions t_0..t_2 (rows of dir; nrows of them, the rest
 * 0) applied at body-frame points sbar_a of A and sbar_b of B (ccp.h, clab_ccp_item) */
static void make_item(clab_ccp_item *it, const clab_body *A, const clab_body *B, int a, int b, const clab_vec3 *dir,
                      int nrows, clab_vec3 sbar_a, clab_vec3 sbar_b)
{
    for (int q = 0; q < 3; q++) put3(&it->t[3 * q], q < nrows ? dir[q] : clab_v3(0.0, 0.0, 0.0));
    put3(&it->r[0], clab_q_rotate(A->e, sbar_a));
    put3(&it->r[3], clab_q_rotate(B->e, sbar_b));
    it->a = a;
    it->b = b;
}

/* body k's A(e) and world M^-1: minv[8 k] = 1/m, then A Jbar^-1 A^T (xx, xy, xz, yy, yz,
 * zz), 0 */
static void world_inverse_inertia(clab_ccp *P, const clab_body *B, size_t k)
{
    clab_mat33 A = clab_q_to_A(B->e);
    double *R = &P->rot[9 * k], *m = &P->minv[8 * k];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) R[3 * i + j] = A.a[i][j];
    const double *iJ = &P->invJ[3 * k];
    /* (A diag(iJ) A^T)_ij = sum_c A_ic iJ_c A_jc */
    static const int ij[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
    m[0] = P->invm[k];
    for (int e = 0; e < 6; e++) {
        int i = ij[e][0], j = ij[e][1];
        m[1 + e] = R[3 * i] * iJ[0] * R[3 * j] + R[3 * i + 1] * iJ[1] * R[3 * j + 1] + R[3 * i + 2] * iJ[2] * R[3 * j + 2];
    }
    m[7] = 0.0;
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

    /* M^-1, block diagonal: 1/m I and Jbar^-1 (zero for fixed bodies), and in the world
     * frame 1/m and A Jbar^-1 A^T with A = A(e) */
    for (size_t k = 0; k < nb; k++) {
        const clab_body *B = &w->bodies[k];
        P->invm[k] = clab_body_invmass(B);
        put3(&P->invJ[3 * k], clab_body_invinertia(B));
    }
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nb >= CLAB_CCP_PAR_BODIES)
#endif
    for (size_t k = 0; k < nb; k++) world_inverse_inertia(P, &w->bodies[k], k);

    /* contacts: D_i rows (n, u, w) and p_i = d_{i,0} + D_i^T v* (independent: in parallel) */
#ifdef _OPENMP
#pragma omp parallel for schedule(static, CLAB_CCP_CHUNK) if (nk >= CLAB_CCP_PAR_CHUNKS * CLAB_CCP_CHUNK)
#endif
    for (size_t i = 0; i < nk; i++) {
        const clab_contact *ct = &c->c[i];
        const clab_body *A = &w->bodies[ct->a], *B = &w->bodies[ct->b];
        clab_vec3 dir[3] = {ct->n}, sa, sb;
        clab_contact_frame(ct, &dir[1], &dir[2]);
        clab_contact_levers(ct, c->lv, w->bodies, &sa, &sb); /* sbar_A, sbar_B */
        clab_ccp_block *bl = &P->blocks[i];
        bl->first = 3 * i;
        bl->size = 3;
        bl->kind = CLAB_CCP_CONE;
        bl->mu = clab_material_mix(&w->materials[A->material], &w->materials[B->material]).mu;
        for (int r = 0; r < 3; r++) {
            clab_ccp_row *row = &P->rows[3 * i + r];
            make_row(row, A, B, ct->a, ct->b, dir[r], sa, sb);
            P->p[3 * i + r] = row_velocity(row, A, B);
        }
        make_item(&P->items[i], A, B, ct->a, ct->b, dir, 3, sa, sb);
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
                                  clab_joint_name(J->type), clab_world_body_name(w, (size_t)J->a), clab_world_body_name(w, (size_t)J->b));
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
            make_item(&P->items[nk + j], A, B, J->a, J->b, axis, 3, J->sa, J->sb);
        } else { /* distance: g = |delta| - length along t = delta/|delta| */
            double len = clab_v3_norm(delta);
            if (!(len > 1e-12 * J->length))
                return clab_error_set(err, CLAB_EINVAL,
                                      "dvi: distance joint %zu (%s, %s): attachment points coincide, no direction", j,
                                      clab_world_body_name(w, (size_t)J->a), clab_world_body_name(w, (size_t)J->b));
            bl->size = 1;
            clab_vec3 t = clab_v3_scale(delta, 1.0 / len);
            make_row(&P->rows[k], A, B, J->a, J->b, t, J->sa, J->sb);
            make_item(&P->items[nk + j], A, B, J->a, J->b, &t, 1, J->sa, J->sb);
            P->p[k] = (len - J->length) / h + row_velocity(&P->rows[k], A, B);
            k++;
        }
    }
    for (size_t q = 0; q < n; q++) P->compliance[q] = 0.0;
    clab_ccp_index(P, w); /* the fast products' indices (fast_ccp.c) */
    clab_ccp_update_blocks(P);
    return CLAB_OK;
}

/* N_kk of one block from its item (m rows): for each body, 1/m t_q . t_s + c_q . I^-1 c_s with
 * c_q = r x t_q and I^-1 the world inverse inertia (body a enters with -t and -c: the same) */
static void item_block(const clab_ccp *P, const clab_ccp_item *it, int m, double *Nii)
{
    for (int q = 0; q < m * m; q++) Nii[q] = 0.0;
    for (int side = 0; side < 2; side++) {
        const double *M = &P->minv[8 * (size_t)(side ? it->b : it->a)], *r = it->r + 3 * side;
        double c[3][3], Ic[3][3];
        for (int q = 0; q < m; q++) {
            const double *t = &it->t[3 * q];
            c[q][0] = r[1] * t[2] - r[2] * t[1];
            c[q][1] = r[2] * t[0] - r[0] * t[2];
            c[q][2] = r[0] * t[1] - r[1] * t[0];
            Ic[q][0] = M[1] * c[q][0] + M[2] * c[q][1] + M[3] * c[q][2];
            Ic[q][1] = M[2] * c[q][0] + M[4] * c[q][1] + M[5] * c[q][2];
            Ic[q][2] = M[3] * c[q][0] + M[5] * c[q][1] + M[6] * c[q][2];
        }
        for (int q = 0; q < m; q++)
            for (int s = 0; s < m; s++) {
                const double *tq = &it->t[3 * q], *ts = &it->t[3 * s];
                Nii[q * m + s] += M[0] * (tq[0] * ts[0] + tq[1] * ts[1] + tq[2] * ts[2]) + c[q][0] * Ic[s][0] +
                                  c[q][1] * Ic[s][1] + c[q][2] * Ic[s][2];
            }
    }
}

void clab_ccp_update_blocks(clab_ccp *P)
{
    const size_t nblk = P->nblocks;
    int comp = 0;
    for (size_t k = 0; k < P->n; k++)
        if (P->compliance[k] != 0.0) comp = 1;
    P->has_compliance = comp;
#ifdef _OPENMP
#pragma omp parallel for schedule(static, CLAB_CCP_CHUNK) if (nblk >= CLAB_CCP_PAR_CHUNKS * CLAB_CCP_CHUNK)
#endif
    for (size_t i = 0; i < nblk; i++) {
        clab_ccp_block *bl = &P->blocks[i];
        int m = bl->size;
        item_block(P, &P->items[i], m, bl->Nii);
        double tr = 0.0;
        for (int r = 0; r < m; r++) {
            bl->Nii[r * m + r] += P->compliance[bl->first + (size_t)r];
            tr += bl->Nii[r * m + r];
        }
        bl->t_res = tr > 0.0 ? m / tr : 0.0;
        if (i < P->ncontacts) {
            double *cn = &P->cone[4 * i];
            cn[0] = bl->mu;
            cn[1] = bl->t_res;
            cn[2] = clab_sym3_max_eigenvalue(bl->Nii);
            cn[3] = bl->t_res > 0.0 ? 1.0 / bl->t_res : 0.0;
        }
    }
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

int clab_ccp_grow(double **p, size_t *cap, size_t n)
{
    if (n <= *cap && *p) return CLAB_OK;
    size_t c = n + n / 2 + 16;
    double *q = realloc(*p, c * sizeof *q);
    if (!q) return CLAB_ENOMEM;
    *p = q;
    *cap = c;
    return CLAB_OK;
}
