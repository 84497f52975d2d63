/* fclib_ccp.c: the CCP of Eq. (10) of seed 000 (ccp.h) rebuilt from an FCLIB global form, so
 * that contactlab's matrix-free solvers (ccp_solver.h) and De Saxce's fixed point
 * (friction_exact.h) run on a problem read from a file (clab_fclib.h, clab_fc_to_ccp).
 *
 * The bodies are the 6-column groups of M (v = (rdot, omega), world frame: A = I, the world
 * inverse inertia from M's inertia block), plus a fixed body 0. Row k of D^T is
 * column k of H: on the two bodies it touches, (lin, ang) with the linear parts opposite;
 * a contact on one moving body puts it on side b with lin = its linear part (the fixed side
 * has no velocity). The fast products read the world-frame items: t_q = lin of row q and the
 * arms r with r x t_q = ang_q, r = 1/2 sum_q t_q x ang_q for the orthonormal t_q (side b;
 * ang_a = -r_a x t_q on side a), so the rebuilt N equals H^T M^-1 H to rounding. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccp_fast.h"
#include "clab_fclib.h"

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* the group (body - 1) of column k's entries: up to two, with their 6 values; -1 on a column
 * spread over more than two groups */
static int column_groups(const clab_fc_csc *H, int k, int g[2], double val[2][6])
{
    int ng = 0;
    memset(val, 0, 2 * 6 * sizeof(double));
    for (int e = H->p[k]; e < H->p[k + 1]; e++) {
        int grp = H->i[e] / 6, s;
        for (s = 0; s < ng; s++)
            if (g[s] == grp) break;
        if (s == ng) {
            if (ng == 2) return -1;
            g[ng++] = grp;
        }
        val[s][H->i[e] % 6] += H->x[e];
    }
    if (ng == 2 && g[0] > g[1]) { /* side a first: the lower body */
        int t = g[0];
        g[0] = g[1], g[1] = t;
        for (int c = 0; c < 6; c++) {
            double x = val[0][c];
            val[0][c] = val[1][c], val[1][c] = x;
        }
    }
    return ng;
}

static int alloc_ccp(clab_ccp *P, size_t nb, size_t nc)
{
    size_t n = 3 * nc, nblk = nc ? nc : 1;
    P->invm = calloc(nb, sizeof *P->invm);
    P->invJ = calloc(3 * nb, sizeof *P->invJ);
    P->minv = calloc(8 * nb, sizeof *P->minv);
    P->rot = calloc(9 * nb, sizeof *P->rot);
    P->inc_start = calloc(nb + 1, sizeof *P->inc_start);
    P->rows = calloc(n + 1, sizeof *P->rows);
    P->p = calloc(n + 1, sizeof *P->p);
    P->compliance = calloc(n + 1, sizeof *P->compliance);
    P->blocks = calloc(nblk, sizeof *P->blocks);
    P->items = aligned_alloc(64, nblk * sizeof *P->items);
    P->inc = calloc(2 * nblk, sizeof *P->inc);
    P->inc_r = calloc(6 * nblk, sizeof *P->inc_r);
    P->cone = calloc(4 * nblk, sizeof *P->cone);
    P->sph = calloc(nblk, sizeof *P->sph);
    P->sph_chunk = calloc(clab_ccp_nchunks(nblk) + 1, 1);
    P->cap_bodies = nb;
    P->cap_rows = n + 1;
    P->cap_blocks = nblk;
    return P->invm && P->invJ && P->minv && P->rot && P->inc_start && P->rows && P->p && P->compliance &&
           P->blocks && P->items && P->inc && P->inc_r && P->cone && P->sph && P->sph_chunk;
}

/* body j + 1 from M's block j (clab_fc_M_inverse): 1/m and the world inverse inertia, A = I */
static int body_masses(const clab_fc_csc *M, clab_ccp *P, size_t nmov, clab_error *err)
{
    double *Minv = malloc((10 * nmov + 1) * sizeof *Minv);
    if (!Minv) return clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory");
    int rc = clab_fc_M_inverse(M, Minv, err);
    for (size_t j = 0; !rc && j < nmov; j++) {
        const double *X = &Minv[10 * j];
        size_t k = j + 1;
        double *mi = &P->minv[8 * k], *A = &P->rot[9 * k];
        P->invm[k] = X[0];
        P->invJ[3 * k] = X[1], P->invJ[3 * k + 1] = X[5], P->invJ[3 * k + 2] = X[9]; /* the plain path's (diagonal) */
        mi[0] = X[0];
        mi[1] = X[1], mi[2] = X[2], mi[3] = X[3], mi[4] = X[5], mi[5] = X[6], mi[6] = X[9], mi[7] = 0.0;
        A[0] = A[4] = A[8] = 1.0;
    }
    P->rot[0] = P->rot[4] = P->rot[8] = 1.0; /* the fixed body 0 */
    free(Minv);
    return rc;
}

/* rows 3i..3i+2 and the item of contact i */
static int contact_rows(const clab_fc_problem *fp, clab_ccp *P, size_t i, clab_error *err)
{
    int ga[3][2], ng[3];
    double val[3][2][6];
    for (int q = 0; q < 3; q++) {
        ng[q] = column_groups(&fp->H, (int)(3 * i) + q, ga[q], val[q]);
        if (ng[q] < 0)
            return clab_error_set(err, CLAB_EINVAL, "fclib: column %zu of H touches more than two bodies", 3 * i + q);
    }
    /* the bodies of the contact: the union over its three columns */
    int bodies[2] = {-1, -1}, nbod = 0;
    for (int q = 0; q < 3; q++)
        for (int s = 0; s < ng[q]; s++) {
            int k, g = ga[q][s];
            for (k = 0; k < nbod; k++)
                if (bodies[k] == g) break;
            if (k == nbod) {
                if (nbod == 2) return clab_error_set(err, CLAB_EINVAL, "fclib: contact %zu touches more than two bodies", i);
                bodies[nbod++] = g;
            }
        }
    if (nbod == 2 && bodies[0] > bodies[1]) {
        int t = bodies[0];
        bodies[0] = bodies[1], bodies[1] = t;
    }
    if (nbod == 0) return clab_error_set(err, CLAB_EINVAL, "fclib: contact %zu has an empty column in H", i);
    int a = nbod == 2 ? bodies[0] + 1 : 0, b = (nbod == 2 ? bodies[1] : bodies[0]) + 1;
    clab_ccp_item *it = &P->items[i];
    memset(it, 0, sizeof *it);
    it->a = a, it->b = b;
    for (int q = 0; q < 3; q++) {
        double ha[6] = {0}, hb[6] = {0};
        for (int s = 0; s < ng[q]; s++) {
            double *dst = (ga[q][s] + 1 == b) ? hb : ha;
            memcpy(dst, val[q][s], sizeof ha);
        }
        clab_ccp_row *R = &P->rows[3 * i + (size_t)q];
        R->a = a, R->b = b;
        for (int c = 0; c < 3; c++) {
            R->lin[c] = hb[c];
            R->ang_b[c] = hb[3 + c];
            R->ang_a[c] = ha[3 + c];
            if (a > 0 && ha[c] != -hb[c])
                return clab_error_set(err, CLAB_EINVAL, "fclib: contact %zu: the linear parts of H on its two bodies "
                                                        "are not opposite (row %d): not a rigid contact", i, q);
            it->t[3 * q + c] = hb[c];
        }
    }
    /* orthonormal directions, then the arms */
    for (int q = 0; q < 3; q++)
        for (int s = 0; s < 3; s++) {
            const double *tq = &it->t[3 * q], *ts = &it->t[3 * s];
            double d = tq[0] * ts[0] + tq[1] * ts[1] + tq[2] * ts[2];
            if (fabs(d - (q == s)) > 1e-12)
                return clab_error_set(err, CLAB_EINVAL, "fclib: contact %zu: its three directions (the linear parts "
                                                        "of H) are not orthonormal (%g)", i, d);
        }
    for (int side = 0; side < 2; side++) {
        double r[3] = {0, 0, 0}, c[3];
        for (int q = 0; q < 3; q++) {
            const clab_ccp_row *R = &P->rows[3 * i + (size_t)q];
            cross(&it->t[3 * q], side ? R->ang_b : R->ang_a, c);
            for (int k = 0; k < 3; k++) r[k] += (side ? 0.5 : -0.5) * c[k];
        }
        memcpy(&it->r[3 * side], r, sizeof r);
    }
    clab_ccp_block *bl = &P->blocks[i];
    bl->first = 3 * i;
    bl->size = 3;
    bl->kind = CLAB_CCP_CONE;
    bl->mu = fp->mu[i];
    return CLAB_OK;
}

int clab_fc_to_ccp(const clab_fc_problem *fp, clab_ccp *P, clab_error *err)
{
    clab_ccp_init(P);
    if (!fp->has_global)
        return clab_error_set(err, CLAB_EINVAL, "fclib: the file has the local form only (W, q): contactlab's "
                                                "solvers work on bodies and need the global form (M, H, f, w)");
    size_t nmov = (size_t)fp->M.n / 6, nb = nmov + 1, nc = fp->nc;
    if (!alloc_ccp(P, nb, nc)) {
        clab_ccp_free(P);
        return clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory for the CCP (%zu contacts)", nc);
    }
    P->nbodies = nb;
    P->ncontacts = nc;
    P->njoint_rows = 0;
    P->n = 3 * nc;
    P->nblocks = nc;
    P->h = 1.0; /* the file's q already holds Phi/h: the step length is not needed */
    int rc = body_masses(&fp->M, P, nmov, err);
    for (size_t i = 0; !rc && i < nc; i++) rc = contact_rows(fp, P, i, err);
    if (rc) {
        clab_ccp_free(P);
        return rc;
    }
    memcpy(P->p, fp->q, 3 * nc * sizeof *P->p);
    /* the indices read only which bodies are fixed: body 0 */
    clab_body *bodies = calloc(nb, sizeof *bodies);
    if (!bodies) {
        clab_ccp_free(P);
        return clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory");
    }
    bodies[0].fixed = 1;
    clab_world w;
    memset(&w, 0, sizeof w);
    w.bodies = bodies;
    w.nbodies = nb;
    clab_ccp_index(P, &w);
    clab_ccp_update_blocks(P);
    free(bodies);
    return CLAB_OK;
}
