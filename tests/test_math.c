/* test_math: identities of the inline vec3, mat33 and Euler-parameter helpers.
 * Expected values are exact algebra; tolerances are a few ulps of the magnitudes (1e-14). */
#include "clab_math.h"
#include "tap.h"

#include <gsl/gsl_rng.h>

static clab_vec3 rand_v3(gsl_rng *r)
{
    return clab_v3(2 * gsl_rng_uniform(r) - 1, 2 * gsl_rng_uniform(r) - 1, 2 * gsl_rng_uniform(r) - 1);
}

int main(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 12345);
    const double tol = 1e-14;

    /* cross product: e_x x e_y = e_z, a . (a x b) = 0, Lagrange identity */
    clab_vec3 z = clab_v3_cross(clab_v3(1, 0, 0), clab_v3(0, 1, 0));
    tap_ok(z.x == 0 && z.y == 0 && z.z == 1, "e_x x e_y = e_z");
    double worst_orth = 0, worst_lagr = 0;
    for (int k = 0; k < 1000; k++) {
        clab_vec3 a = rand_v3(rng), b = rand_v3(rng);
        clab_vec3 c = clab_v3_cross(a, b);
        worst_orth = fmax(worst_orth, fabs(clab_v3_dot(a, c)) + fabs(clab_v3_dot(b, c)));
        double lhs = clab_v3_norm2(c), rhs = clab_v3_norm2(a) * clab_v3_norm2(b) - pow(clab_v3_dot(a, b), 2);
        worst_lagr = fmax(worst_lagr, fabs(lhs - rhs));
    }
    tap_close(worst_orth, 0, tol, "a x b is orthogonal to a and b (1000 random pairs)");
    tap_close(worst_lagr, 0, tol, "|a x b|^2 = |a|^2|b|^2 - (a.b)^2 (Lagrange identity)");

    /* tilde(a) b = a x b (seed 000's tilde operator) */
    clab_vec3 a = rand_v3(rng), b = rand_v3(rng);
    clab_vec3 t1 = clab_m33_mulv(clab_m33_tilde(a), b), t2 = clab_v3_cross(a, b);
    tap_close(clab_v3_norm(clab_v3_sub(t1, t2)), 0, tol, "tilde(a) b = a x b");

    /* frame: orthonormal and right-handed for random normals and the axes */
    double worst_frame = 0;
    for (int k = 0; k < 1003; k++) {
        clab_vec3 n = k < 3 ? clab_v3(k == 0, k == 1, k == 2) : clab_v3_normalize(rand_v3(rng));
        clab_vec3 u, w;
        clab_v3_frame(n, &u, &w);
        double e = fabs(clab_v3_norm(u) - 1) + fabs(clab_v3_norm(w) - 1) + fabs(clab_v3_dot(n, u)) +
                   fabs(clab_v3_dot(n, w)) + fabs(clab_v3_dot(u, w)) +
                   clab_v3_norm(clab_v3_sub(clab_v3_cross(n, u), w));
        worst_frame = fmax(worst_frame, e);
    }
    tap_close(worst_frame, 0, 1e-13, "clab_v3_frame: (n, u, w) orthonormal with n x u = w");

    /* Euler parameters: A(e) orthogonal with det +1, rotate = A(e) v, rotate_inv = A^T v,
     * A(p q) = A(p) A(q), and the axis-angle rotation of e_x by 90 deg about e_z is e_y */
    double worst_orthA = 0, worst_rot = 0, worst_comp = 0;
    for (int k = 0; k < 1000; k++) {
        clab_quat p = clab_q_axis_angle(rand_v3(rng), 6 * gsl_rng_uniform(rng));
        clab_quat q = clab_q_axis_angle(rand_v3(rng), 6 * gsl_rng_uniform(rng));
        clab_mat33 A = clab_q_to_A(p);
        clab_mat33 AtA = clab_m33_mul(clab_m33_transpose(A), A);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) worst_orthA = fmax(worst_orthA, fabs(AtA.a[i][j] - (i == j)));
        clab_vec3 v = rand_v3(rng);
        worst_rot = fmax(worst_rot, clab_v3_norm(clab_v3_sub(clab_q_rotate(p, v), clab_m33_mulv(A, v))));
        worst_rot = fmax(worst_rot, clab_v3_norm(clab_v3_sub(clab_q_rotate_inv(p, v), clab_m33_tmulv(A, v))));
        clab_mat33 Apq = clab_q_to_A(clab_q_mul(p, q)), ApAq = clab_m33_mul(A, clab_q_to_A(q));
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) worst_comp = fmax(worst_comp, fabs(Apq.a[i][j] - ApAq.a[i][j]));
    }
    tap_close(worst_orthA, 0, 1e-14, "A(e)^T A(e) = I");
    tap_close(worst_rot, 0, 1e-14, "clab_q_rotate(e, v) = A(e) v and rotate_inv = A(e)^T v");
    tap_close(worst_comp, 0, 1e-14, "A(p q) = A(p) A(q)");
    clab_vec3 ey = clab_q_rotate(clab_q_axis_angle(clab_v3(0, 0, 1), M_PI / 2), clab_v3(1, 0, 0));
    tap_close(clab_v3_norm(clab_v3_sub(ey, clab_v3(0, 1, 0))), 0, tol, "90 deg about z takes e_x to e_y");

    /* exponential-map update: constant wbar about a body axis for time T turns by |wbar| T */
    clab_quat e = clab_q_identity();
    clab_vec3 wbar = clab_v3(0, 0, 2.0);
    for (int k = 0; k < 1000; k++) e = clab_q_advance(e, wbar, 1e-3);
    clab_vec3 xr = clab_q_rotate(e, clab_v3(1, 0, 0));
    tap_close(atan2(xr.y, xr.x), 2.0, 1e-12, "clab_q_advance: 2 rad/s for 1 s turns e_x by 2 rad");
    tap_close(clab_q_norm(e), 1.0, 1e-15, "clab_q_advance keeps |e| = 1");

    gsl_rng_free(rng);
    return tap_done();
}
