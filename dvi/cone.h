/* cone.h: the friction cone of seed 000, Sect. 4, its polar and dual cones, and exact
 * Euclidean projections onto them. x = (x_n, x_u, x_w), x_T = (x_u, x_w):
 *     K   = {x : mu x_n >= |x_T|}          (friction cone K_i; mu = 0: the ray x_T = 0, x_n >= 0)
 *     K°  = {y : y . x <= 0 for all x in K} = {y : -y_n >= mu |y_T|}          (polar cone)
 *     K*  = -K° = {y : y_n >= mu |y_T|}                                        (dual cone)
 * The CCP of Eq. (7) asks gamma_i in K_i, d_i in K_i* (i.e. -d_i in K_i°), gamma_i . d_i = 0.
 * Moreau's decomposition x = Proj_K(x) + Proj_K°(x) with the two parts orthogonal gives the
 * polar projection and the distances below. */
#ifndef CLAB_CONE_H
#define CLAB_CONE_H

/* Proj_K(x) in place: x itself inside K; 0 inside K°; otherwise the nearest point of the
 * boundary ray through x_T, ((x_n + mu |x_T|)/(1 + mu^2)) (1, mu x_T/|x_T|). */
void clab_cone_project(double mu, double x[3]);
/* Proj_K°(x) in place: x - Proj_K(x) (Moreau). */
void clab_cone_project_polar(double mu, double x[3]);
/* Proj_K*(x) in place: -Proj_K°(-x) = x + Proj_K(-x). */
void clab_cone_project_dual(double mu, double x[3]);
/* Distance of x from K: |Proj_K°(x)|. */
double clab_cone_dist(double mu, const double x[3]);
/* Distance of x from the dual cone K*: |Proj_K(-x)| (for d_i: how far -d_i is from K°). */
double clab_cone_dist_dual(double mu, const double x[3]);

/* The one-contact CCP, min 1/2 x.A x + r.x over x in K_mu (A symmetric positive definite,
 * Ainv its inverse, L >= its largest eigenvalue), solved exactly (cone_qp.c): x holds a point
 * of K on entry (a hint) and the solution on exit. Returns which case it was. */
enum { CLAB_CONE_STICK = 0, CLAB_CONE_OPEN = 1, CLAB_CONE_SLIDE = 2, CLAB_CONE_SLIDE_FALLBACK = 3 };
int clab_cone_qp(double mu, const double A[9], const double Ainv[9], double L, const double r[3], double x[3]);

#endif
