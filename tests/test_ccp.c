/* test_ccp.c: the CCP data of dvi/ccp.c (Eq. (10) of seed 000): the D_i and G_j rows, the
 * vector p, the matrix-free N = P^T M^-1 P against the dense assembly, the diagonal blocks.
 * Expected values come from their definitions in seed 000: D_i^T v is the relative velocity
 * of B with respect to A at the contact point in (n, u, w) (Sect. 2), computed here
 * independently from clab_body_point_velocity; G_j^T v = dg_j/dt; p_i = d_{i,0} + D_i^T v*.
 * Tolerances: 1e-12 relative (round-off of sums of a few dozen terms). */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccp.h"
#include "ccp_fast.h"
#include "pile.h"
#include "tap.h"

static double relerr(double got, double want, double scale) { return fabs(got - want) / scale; }

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2024);
    clab_error err;
    clab_world *w = pile_world(r, 10, 1);
    /* joints: a spherical joint between bodies 1 and 2, a distance joint between 3 and 4 */
    clab_joint js = {CLAB_JOINT_SPHERICAL, 1, 2, clab_v3(0.05, 0.0, 0.02), clab_v3(-0.03, 0.01, 0.0), 0.0};
    clab_joint jd = {CLAB_JOINT_DISTANCE, 3, 4, clab_v3(0.0, 0.04, 0.0), clab_v3(0.02, 0.0, -0.01), 0.15};
    clab_world_add_joint(w, &js, &err);
    clab_world_add_joint(w, &jd, &err);
    clab_collider *cd = clab_collider_create();
    clab_contacts c;
    clab_contacts_init(&c);
    int rc = clab_collide(cd, w, 0.02, &c, &err);
    tap_ok(rc == 0 && c.n >= 10, "the pile has contacts (%zu, want >= 10)", c.n);

    double h = 1e-3, vrec = 0.5;
    clab_ccp P;
    clab_ccp_init(&P);
    rc = clab_ccp_build(&P, w, &c, h, vrec, &err);
    tap_ok(rc == 0 && P.n == 3 * c.n + 4 && P.nblocks == c.n + 2, "build: n = 3 N_K + N_B = %zu, %zu blocks", P.n,
           P.nblocks);

    /* D_i^T v: the relative velocity at the contact point, from the bodies' point velocities */
    double *u = calloc(6 * w->nbodies, sizeof *u), *out = calloc(P.n, sizeof *out);
    for (size_t k = 0; k < w->nbodies; k++) {
        const clab_body *b = &w->bodies[k];
        double v[6] = {b->rdot.x, b->rdot.y, b->rdot.z, b->wbar.x, b->wbar.y, b->wbar.z};
        memcpy(&u[6 * k], v, sizeof v);
    }
    clab_ccp_Pt(&P, u, NULL, out);
    double worst = 0.0, worst_p = 0.0, vscale = 10.0;
    for (size_t i = 0; i < c.n; i++) {
        const clab_contact *ct = &c.c[i];
        const clab_body *A = &w->bodies[ct->a], *B = &w->bodies[ct->b];
        clab_vec3 sa, sb;
        clab_contact_levers(ct, c.lv, w->bodies, &sa, &sb);
        clab_vec3 vrel = clab_v3_sub(clab_body_point_velocity(B, sb), clab_body_point_velocity(A, sa));
        clab_vec3 tu, tw;
        clab_contact_frame(ct, &tu, &tw);
        double want[3] = {clab_v3_dot(vrel, ct->n), clab_v3_dot(vrel, tu), clab_v3_dot(vrel, tw)};
        for (int k = 0; k < 3; k++) {
            worst = fmax(worst, relerr(out[3 * i + k], want[k], vscale));
            /* p_i = [max(Phi/h, -vrec), 0, 0] + D_i^T v (the world holds v* here) */
            double pw = want[k] + (k == 0 ? fmax(ct->phi / h, -vrec) : 0.0);
            worst_p = fmax(worst_p, relerr(P.p[3 * i + k], pw, vscale + vrec));
        }
    }
    tap_ok(worst <= 1e-12, "D_i^T v = A_i^T (v_B(P) - v_A(P)) for every contact (worst %.3g relative)", worst);
    tap_ok(worst_p <= 1e-12, "p_i = d_{i,0} + D_i^T v*, Phi/h capped at -recovery_speed (worst %.3g)", worst_p);

    /* G_j^T v = dg/dt: spherical joint, the relative velocity of the attachment points */
    {
        const clab_body *A = &w->bodies[1], *B = &w->bodies[2];
        clab_vec3 vrel = clab_v3_sub(clab_body_point_velocity(B, js.sb), clab_body_point_velocity(A, js.sa));
        clab_vec3 g = clab_v3_sub(clab_body_point(B, js.sb), clab_body_point(A, js.sa));
        size_t k = 3 * c.n;
        double e = 0.0, ep = 0.0;
        for (int a = 0; a < 3; a++) {
            e = fmax(e, fabs(out[k + a] - clab_v3_get(vrel, a)) / vscale);
            ep = fmax(ep, fabs(P.p[k + a] - clab_v3_get(g, a) / h - clab_v3_get(vrel, a)) / (vscale + 1e3));
        }
        tap_ok(e <= 1e-12, "spherical joint: G_j^T v = relative velocity of the attachment points (%.3g)", e);
        tap_ok(ep <= 1e-12, "spherical joint: b_{j,0} = g_j/h + G_j^T v* (%.3g)", ep);
        A = &w->bodies[3], B = &w->bodies[4];
        vrel = clab_v3_sub(clab_body_point_velocity(B, jd.sb), clab_body_point_velocity(A, jd.sa));
        g = clab_v3_sub(clab_body_point(B, jd.sb), clab_body_point(A, jd.sa));
        double len = clab_v3_norm(g);
        double rate = clab_v3_dot(vrel, g) / len; /* d|g|/dt */
        tap_close(out[k + 3], rate, 1e-12 * vscale, "distance joint: G_j^T v = d|delta|/dt");
        tap_close(P.p[k + 3], (len - jd.length) / h + rate, 1e-12 * (vscale + 1e3),
                  "distance joint: b_{j,0} = (|delta| - length)/h + G_j^T v*");
    }

    /* matrix-free N nu against the dense P^T M^-1 P, and symmetry */
    {
        size_t n = P.n;
        double *Nd = malloc(n * n * sizeof *Nd), *nu = malloc(n * sizeof *nu), *Nnu = malloc(n * sizeof *Nnu);
        tap_ok(clab_ccp_dense_N(&P, Nd) == 0, "dense N assembled (%zu x %zu)", n, n);
        double nmax = 0.0;
        for (size_t k = 0; k < n * n; k++) nmax = fmax(nmax, fabs(Nd[k]));
        double sym = 0.0;
        for (size_t k = 0; k < n; k++)
            for (size_t l = 0; l < n; l++) sym = fmax(sym, fabs(Nd[k * n + l] - Nd[l * n + k]) / nmax);
        tap_ok(sym <= 1e-14, "dense N is symmetric (worst %.3g of max |N|)", sym);
        double e = 0.0;
        for (int trial = 0; trial < 5; trial++) {
            for (size_t k = 0; k < n; k++) nu[k] = pile_unif(r, -1, 1);
            for (size_t k = 0; k < n; k++) P.compliance[k] = trial == 4 ? pile_unif(r, 0, 0.1) : 0.0;
            clab_ccp_update_blocks(&P);
            if (trial == 4) clab_ccp_dense_N(&P, Nd);
            clab_ccp_apply_N(&P, nu, u, Nnu);
            double s = 0.0, nn = 0.0;
            for (size_t k = 0; k < n; k++) nn += nu[k] * nu[k];
            for (size_t k = 0; k < n; k++) {
                double want = 0.0;
                for (size_t l = 0; l < n; l++) want += Nd[k * n + l] * nu[l];
                e = fmax(e, fabs(Nnu[k] - want) / (nmax * sqrt(nn)));
                s += nu[k] * Nnu[k];
            }
            if (trial < 4) tap_ok(s >= -1e-12 * nmax * nn, "nu . N nu = %.6g >= 0 (N is positive semi-definite)", s);
        }
        tap_ok(e <= 1e-13, "N nu matrix-free = dense N nu, with and without compliance (worst %.3g)", e);
        /* diagonal blocks equal the dense diagonal blocks (compliance of trial 4 included) */
        double eb = 0.0;
        for (size_t i = 0; i < P.nblocks; i++) {
            const clab_ccp_block *bl = &P.blocks[i];
            for (int a = 0; a < bl->size; a++)
                for (int b = 0; b < bl->size; b++)
                    eb = fmax(eb, fabs(bl->Nii[a * bl->size + b] - Nd[(bl->first + a) * n + bl->first + b]) / nmax);
        }
        tap_ok(eb <= 1e-14, "diagonal blocks N_kk (with compliance) = dense blocks (worst %.3g)", eb);
        free(Nd);
        free(nu);
        free(Nnu);
    }

    /* a joint between two fixed bodies is refused */
    {
        clab_world *w2 = clab_world_clone(w);
        w2->bodies[1].fixed = w2->bodies[2].fixed = 1;
        clab_ccp Q;
        clab_ccp_init(&Q);
        clab_error_clear(&err);
        rc = clab_ccp_build(&Q, w2, &c, h, vrec, &err);
        tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "two fixed bodies"), "joint between two fixed bodies: %s", err.msg);
        clab_ccp_free(&Q);
        clab_world_destroy(w2);
    }
    /* the compact records (ccp.h, clab_ccp_sph): set for a chunk of spheres on a plane, not for
     * one with boxes (their arms are off the normal); where set, the rows D_i^T u and the
     * impulses F_i equal the item's to round-off (1e-13 absolute for u of order 1), F to the bit */
    for (int boxes = 0; boxes < 2; boxes++) {
        clab_world *ws = pile_world(r, 12, boxes);
        clab_contacts cs;
        clab_contacts_init(&cs);
        clab_ccp Q;
        clab_ccp_init(&Q);
        rc = clab_collide(cd, ws, 0.02, &cs, &err) || clab_ccp_build(&Q, ws, &cs, h, vrec, &err);
        double *uq = malloc(6 * ws->nbodies * sizeof *uq);
        for (size_t k = 0; k < 6 * ws->nbodies; k++) uq[k] = gsl_rng_uniform(r) - 0.5;
        for (size_t k = 0; k < ws->nbodies; k++)
            if (ws->bodies[k].fixed)
                for (int q = 0; q < 6; q++) uq[6 * k + (size_t)q] = 0.0; /* fixed bodies never move */
        double worst = 0.0;
        int same_F = 1;
        for (size_t i = 0; rc == 0 && !boxes && i < Q.ncontacts; i++) {
            double o1[3], o2[3], v[3], x[3] = {0.3, -0.2, 0.1}, F1[3], F2[3];
            clab_ccp_item_vrel(&Q.items[i], uq, v);
            clab_ccp_item_rows(&Q.items[i], v, o1);
            double wq[3];
            clab_ccp_sph_w(&Q.sph[i], wq);
            clab_ccp_sph_rows(&Q.sph[i], wq, uq, o2);
            for (int q = 0; q < 3; q++) worst = fmax(worst, fabs(o1[q] - o2[q]));
            clab_ccp_item_force(&Q.items[i], x, F1);
            clab_ccp_sph_force(&Q.sph[i], wq, x, F2);
            same_F &= memcmp(F1, F2, sizeof F1) == 0;
        }
        if (boxes)
            tap_ok(rc == 0 && Q.ncontacts > 0 && Q.sph_chunk[0] == 0, "boxes in the chunk: no compact records (%zu contacts)",
                   Q.ncontacts);
        else
            tap_ok(rc == 0 && Q.ncontacts > 0 && Q.sph_chunk[0] == 1 && worst <= 1e-13 && same_F,
                   "spheres: compact records, rows = the item's (worst %.3g), F the same bits (%zu contacts)", worst,
                   Q.ncontacts);
        free(uq);
        clab_ccp_free(&Q);
        clab_contacts_free(&cs);
        clab_world_destroy(ws);
    }
    /* building again reuses the arrays (same contacts: same n) */
    {
        clab_ccp_row *rows = P.rows;
        rc = clab_ccp_build(&P, w, &c, h, vrec, &err);
        tap_ok(rc == 0 && P.rows == rows, "rebuilding with the same contacts allocates nothing new");
    }
    /* an empty world (no bodies, no contacts) builds and multiplies (the per-body arrays of
     * the fast products still get their one entry) */
    {
        clab_world *w0 = clab_world_create(NULL);
        clab_ccp Q;
        clab_ccp_init(&Q);
        rc = clab_ccp_build(&Q, w0, NULL, h, vrec, &err);
        double x = 0.0, y = 1.0, uu = 0.0;
        if (rc == 0) clab_ccp_apply_N(&Q, &x, &uu, &y);
        tap_ok(rc == 0 && Q.n == 0 && Q.nbodies == 0 && y == 1.0, "empty world: CCP with n = 0, nothing written");
        clab_ccp_free(&Q);
        clab_world_destroy(w0);
    }

    free(u);
    free(out);
    clab_ccp_free(&P);
    clab_contacts_free(&c);
    clab_collider_destroy(cd);
    clab_world_destroy(w);
    gsl_rng_free(r);
    return tap_done();
}
