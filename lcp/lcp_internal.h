/* lcp_internal.h: the LCP backend, the Stewart-Trinkle / Anitescu-Potra velocity-level time
 * step with a polyhedral friction cone (Stewart 2000, SIAM Review 42(1), Sect. 4; doc/lcp.md).
 *
 * Contact i has the normal n_i and k edge directions of a regular k-gon in its tangent plane,
 *     d_{i,j} = cos(theta_j) u_i + sin(theta_j) w_i,   theta_j = 2 pi j / k,  j = 0 .. k-1,
 * and the unknowns c_n,i (normal impulse), beta_i (k friction impulses, one per edge) and
 * lambda_i (a slack: the sliding speed). The mixed LCP of a step (Stewart's Eq. (4.3)-(4.6)):
 *     M v+ = M v + h f + N c_n + D beta (+ G lambda_J for joints)
 *     0 <= c_n     perp  N^T v+ + Phi/h                >= 0   (Phi/h capped at -recovery_speed)
 *     0 <= beta    perp  lambda e + D^T v+             >= 0
 *     0 <= lambda  perp  mu c_n - e^T beta             >= 0
 *          G^T v+ + g/h = 0                                   (bilateral joints, free)
 * With v+ eliminated through M^-1 (the Schur complement) it is a standard LCP in
 * z = (c_n, beta, lambda). The code keeps, per contact, the three impulses of the DVI backend's
 * frame, gamma_i = T z_i = (c_n, sum_j beta_j cos theta_j, sum_j beta_j sin theta_j) in
 * (n, u, w), so the CCP data of dvi/ccp.h (rows n, u, w, p = D^T v* + Phi/h, N_ii) serve both.
 * Not installed. */
#ifndef CLAB_LCP_INTERNAL_H
#define CLAB_LCP_INTERNAL_H

#include "ccp.h"
#include "lemke.h"
#include "warmstart.h"

#define CLAB_LCP_MAX_DIRECTIONS 64

/* the polyhedral cone: k edge directions in (u, w) */
typedef struct clab_lcp_cone {
    int k;                            /* edges (>= 3) */
    double c[CLAB_LCP_MAX_DIRECTIONS]; /* cos theta_j */
    double s[CLAB_LCP_MAX_DIRECTIONS]; /* sin theta_j */
} clab_lcp_cone;

enum { CLAB_LCP_PGS = 0, CLAB_LCP_LEMKE = 1 };
enum { CLAB_LCP_START_COLD = 0, CLAB_LCP_START_PGS = 1 }; /* lemke_start */

typedef struct clab_lcp {
    /* options */
    clab_lcp_cone cone;
    int solver;                /* CLAB_LCP_PGS or CLAB_LCP_LEMKE */
    long max_iter;             /* pgs: sweeps per step at most */
    double tol;                /* pgs: natural-map residual [m/s] */
    long max_pivots;           /* lemke: pivot bound (0: 50 n + 100) */
    long max_unknowns;         /* lemke: largest LCP it accepts */
    double recovery_speed;     /* cap on -Phi/h [m/s] */
    int warm_start;            /* pgs: start from the last step's impulses */
    int lemke_start;           /* lemke: CLAB_LCP_START_COLD (z = 0, d = e) or _PGS (the basis of pgs' answer) */
    double lemke_reg;          /* lemke: eps of A + eps I on the (c_n, beta) rows, relative to their mean diagonal */
    /* per-step data, reused */
    clab_ccp ccp;              /* rows n, u, w per contact, joint rows, p, N_ii (dvi/ccp.h) */
    double *z;                 /* [m ncontacts] (c_n, beta_1..k, lambda) per contact, m = k + 2 */
    double *nu;                /* [ccp.n] gamma_i = T z_i per contact (n, u, w), then joint impulses [N s] */
    double *d;                 /* [ccp.n] N nu + p [m/s] (the second half of nu's allocation) */
    double *u;                 /* [6 nbodies] M^-1 P nu, world (pgs), or the velocity update */
    double *v_saved;           /* [6 nbodies] v(l), restored when a step fails */
    double *scratch;           /* solver scratch */
    size_t cap_z, cap_nu, cap_u, cap_v, cap_scratch;
    clab_lemke_work lemke;     /* tableau */
    unsigned char *start;      /* lemke_start=pgs: the guessed basis, 1 where z_i is basic */
    clab_warmstart warm;       /* impulses by contact key */
    double h;                  /* step of the last solve [s] */
    /* statistics */
    long solves, total_iterations, maxiter_hits;
    long iterations;           /* last solve: pgs sweeps or Lemke pivots */
    long local_pivots;         /* last solve (pgs): Lemke pivots of the local problems */
    long start_columns;        /* last solve (lemke_start=pgs): z columns of the warm basis (after the crash) */
    long start_dropped;        /* last solve (lemke_start=pgs): guessed z columns left out as dependent */
    long start_pivots;         /* last solve (lemke_start=pgs): pivots from the warm basis */
    int start_status;          /* last solve (lemke_start=pgs): the warm start's clab_lemke_status (-1: none) */
    double residual;           /* last solve: natural-map residual [m/s] */
    double outside_cone, outside_dual, complementarity; /* clab_solver_stats' diagnostics */
    double *history;           /* pgs residual per sweep */
    size_t nhistory, cap_history;
} clab_lcp;

/* the step (lcp_step.c) */
int clab_lcp_step(void *self, clab_world *w, const clab_contacts *c, double h, clab_error *err);

/* ---- the LCP as data (lcp_problem.c) ---- */
/* the regular k-gon: theta_j = 2 pi j / k */
void clab_lcp_cone_init(clab_lcp_cone *K, int k);
/* scale of contact i's unknowns, s = sqrt(3 / tr N_ii) [sqrt(kg)]: z = S z' with
 * S = diag(s, .., s, 1/s) makes the local matrix O(1) */
double clab_lcp_scale(const clab_ccp_block *bl);
/* The scaled local LCP of one contact (m = k + 2 unknowns), Nii its 3x3 block [1/kg], mu its
 * friction, r its 3 velocities without its own impulse (d_i - N_ii gamma_i) [m/s]:
 *     A = S [[T^T N_ii T, (0; e)], [(mu, -e^T), 0]] S,  q = S (T^T r, 0)   (m x m row major) */
void clab_lcp_local(const clab_lcp_cone *K, const double *Nii, double mu, double s, const double r[3], double *A,
                    double *q);
/* beta of a tangential impulse (f_u, f_w): f on the two edges around its direction,
 * f = a d_j + b d_{j+1}, a, b >= 0 (f lies in the polygon mu c_n conv(d) iff a + b <= mu c_n) */
void clab_lcp_split(const clab_lcp_cone *K, double fu, double fw, double *beta);
/* gamma = T z for one contact (z unscaled: c_n, beta, lambda) */
void clab_lcp_gamma(const clab_lcp_cone *K, const double *z, double gamma[3]);
/* lemke_reg: A + eps I on the c_n and beta rows of the LCP of nl = contacts m unknowns (A row
 * major nl x nl, m = k + 2 unknowns a contact, lambda last), eps = reg times those rows' mean
 * diagonal; returns eps */
double clab_lcp_regularize(double *A, size_t nl, int m, double reg);
/* The dense N = P^T M^-1 P of the CCP's rows (n x n row major), from the bodies' incidences. */
void clab_lcp_dense_N(const clab_ccp *P, double *Nd);
/* The natural-map residual [m/s] and the diagnostics of z, nu against d = N nu + p */
double clab_lcp_residual(const clab_lcp_cone *K, const clab_ccp *P, const double *z, const double *d,
                         double *outside_cone, double *outside_dual, double *complementarity);

/* ---- solvers (lcp_pgs.c, lcp_lemke_step.c): fill s->z and s->nu from the warm start or 0;
 * CLAB_OK, CLAB_EMAXITER (pgs: counted, not fatal), or an error with err set ---- */
int clab_lcp_pgs(clab_lcp *s, clab_error *err);
int clab_lcp_lemke(clab_lcp *s, clab_error *err);

#endif
