/* lcp_problem.c: the Stewart-Trinkle LCP of one step as data (lcp_internal.h): the polygon's
 * edges, a contact's local LCP (the block the Gauss-Seidel solves and the pattern of the
 * global matrix), the dense N = P^T M^-1 P for Lemke, and the natural-map residual. */
#include <math.h>
#include <string.h>

#include "lcp_internal.h"

void clab_lcp_cone_init(clab_lcp_cone *K, int k)
{
    K->k = k;
    for (int j = 0; j < k; j++) {
        const double th = 2.0 * M_PI * j / k;
        K->c[j] = cos(th);
        K->s[j] = sin(th);
    }
    /* exact zeros and ones where the angle is a multiple of pi/2 (edges along u and w) */
    for (int j = 0; j < k; j++) {
        if (4 * j % k) continue;
        const int quarter = 4 * j / k;
        K->c[j] = quarter == 0 ? 1.0 : quarter == 2 ? -1.0 : 0.0;
        K->s[j] = quarter == 1 ? 1.0 : quarter == 3 ? -1.0 : 0.0;
    }
}

double clab_lcp_scale(const clab_ccp_block *bl) { return sqrt(bl->t_res); }

/* column a of T: t_0 = (1, 0, 0) (the normal), t_j = (0, cos theta_j, sin theta_j) */
static void t_col(const clab_lcp_cone *K, int a, double t[3])
{
    t[0] = a == 0 ? 1.0 : 0.0;
    t[1] = a == 0 ? 0.0 : K->c[a - 1];
    t[2] = a == 0 ? 0.0 : K->s[a - 1];
}

void clab_lcp_local(const clab_lcp_cone *K, const double *Nii, double mu, double s, const double r[3], double *A,
                    double *q)
{
    const int k = K->k, m = k + 2;
    const double s2 = s * s;
    double Nt[CLAB_LCP_MAX_DIRECTIONS + 1][3];
    for (int b = 0; b <= k; b++) {
        double t[3];
        t_col(K, b, t);
        for (int i = 0; i < 3; i++) Nt[b][i] = Nii[3 * i] * t[0] + Nii[3 * i + 1] * t[1] + Nii[3 * i + 2] * t[2];
    }
    for (int a = 0; a <= k; a++) {
        double t[3];
        t_col(K, a, t);
        for (int b = 0; b <= k; b++) A[a * m + b] = s2 * (t[0] * Nt[b][0] + t[1] * Nt[b][1] + t[2] * Nt[b][2]);
        A[a * m + k + 1] = a == 0 ? 0.0 : 1.0; /* lambda e in the beta rows: s * 1 * (1/s) */
        q[a] = s * (t[0] * r[0] + t[1] * r[1] + t[2] * r[2]);
    }
    /* the lambda row: mu c_n - e^T beta (scaled: (1/s) mu s, (1/s)(-1) s) */
    A[(k + 1) * m] = mu;
    for (int b = 1; b <= k; b++) A[(k + 1) * m + b] = -1.0;
    A[(k + 1) * m + k + 1] = 0.0;
    q[k + 1] = 0.0;
}

void clab_lcp_gamma(const clab_lcp_cone *K, const double *z, double gamma[3])
{
    gamma[0] = z[0];
    gamma[1] = gamma[2] = 0.0;
    for (int j = 0; j < K->k; j++) {
        gamma[1] += K->c[j] * z[1 + j];
        gamma[2] += K->s[j] * z[1 + j];
    }
}

void clab_lcp_split(const clab_lcp_cone *K, double fu, double fw, double *beta)
{
    const int k = K->k;
    for (int j = 0; j < k; j++) beta[j] = 0.0;
    if (fu == 0.0 && fw == 0.0) return;
    double ang = atan2(fw, fu);
    if (ang < 0.0) ang += 2.0 * M_PI;
    int j = (int)floor(ang / (2.0 * M_PI / k));
    if (j < 0) j = 0;
    if (j >= k) j = k - 1;
    const int j1 = (j + 1) % k;
    /* [d_j d_j1] (a, b) = f by Cramer's rule */
    const double det = K->c[j] * K->s[j1] - K->s[j] * K->c[j1];
    const double a = (fu * K->s[j1] - fw * K->c[j1]) / det, b = (K->c[j] * fw - K->s[j] * fu) / det;
    beta[j] = fmax(a, 0.0);
    beta[j1] = fmax(b, 0.0);
}

/* the 6 coefficients of row q of the block of incidence e on its body: (sgn t, rho x t), rho
 * the signed arm (-r_a on side a, r_b on side b) */
static void incidence_row(const clab_ccp *P, size_t e, int q, double J[6])
{
    const uint32_t code = P->inc[e];
    const clab_ccp_item *it = &P->items[code >> 1];
    const double sgn = (code & 1u) ? 1.0 : -1.0;
    const double *t = &it->t[3 * q], *rho = &P->inc_r[3 * e];
    J[0] = sgn * t[0], J[1] = sgn * t[1], J[2] = sgn * t[2];
    J[3] = rho[1] * t[2] - rho[2] * t[1];
    J[4] = rho[2] * t[0] - rho[0] * t[2];
    J[5] = rho[0] * t[1] - rho[1] * t[0];
}

void clab_lcp_dense_N(const clab_ccp *P, double *Nd)
{
    const size_t n = P->n;
    memset(Nd, 0, n * n * sizeof *Nd);
    for (size_t b = 0; b < P->nbodies; b++) {
        const double *M = &P->minv[8 * b]; /* 1/m, then I^-1 world: xx xy xz yy yz zz */
        for (size_t e1 = P->inc_start[b]; e1 < P->inc_start[b + 1]; e1++) {
            const clab_ccp_block *b1 = &P->blocks[P->inc[e1] >> 1];
            for (size_t e2 = P->inc_start[b]; e2 < P->inc_start[b + 1]; e2++) {
                const clab_ccp_block *b2 = &P->blocks[P->inc[e2] >> 1];
                for (int q1 = 0; q1 < b1->size; q1++) {
                    double J1[6];
                    incidence_row(P, e1, q1, J1);
                    const double IJ[3] = {M[1] * J1[3] + M[2] * J1[4] + M[3] * J1[5],
                                          M[2] * J1[3] + M[4] * J1[4] + M[5] * J1[5],
                                          M[3] * J1[3] + M[5] * J1[4] + M[6] * J1[5]};
                    for (int q2 = 0; q2 < b2->size; q2++) {
                        double J2[6];
                        incidence_row(P, e2, q2, J2);
                        Nd[(b1->first + (size_t)q1) * n + b2->first + (size_t)q2] +=
                            M[0] * (J1[0] * J2[0] + J1[1] * J2[1] + J1[2] * J2[2]) + IJ[0] * J2[3] + IJ[1] * J2[4] +
                            IJ[2] * J2[5];
                    }
                }
            }
        }
    }
}

/* |min(a, b)| of the natural map */
static double nat(double a, double b) { return fabs(fmin(a, b)); }

double clab_lcp_residual(const clab_lcp_cone *K, const clab_ccp *P, const double *z, const double *d,
                         double *outside_cone, double *outside_dual, double *complementarity)
{
    const int k = K->k, m = k + 2;
    double r = 0.0, oc = 0.0, od = 0.0, cp = 0.0;
    for (size_t i = 0; i < P->ncontacts; i++) {
        const double *zi = &z[(size_t)m * i], *di = &d[3 * i];
        const double t = P->blocks[i].t_res, mu = P->blocks[i].mu; /* t [kg]: impulse -> velocity */
        const double lam = zi[k + 1];
        double sum = 0.0;
        r = fmax(r, nat(zi[0] / t, di[0]));
        oc = fmax(oc, -zi[0]);
        od = fmax(od, -di[0]);
        cp = fmax(cp, fabs(zi[0] * di[0]));
        for (int j = 0; j < k; j++) {
            const double wb = lam + K->c[j] * di[1] + K->s[j] * di[2]; /* lambda + d_j^T v+ */
            r = fmax(r, nat(zi[1 + j] / t, wb));
            oc = fmax(oc, -zi[1 + j]);
            od = fmax(od, -wb);
            cp = fmax(cp, fabs(zi[1 + j] * wb));
            sum += zi[1 + j];
        }
        const double wl = mu * zi[0] - sum; /* mu c_n - e^T beta [N s] */
        r = fmax(r, nat(lam, wl / t));
        oc = fmax(oc, -wl);
        cp = fmax(cp, fabs(lam * wl));
    }
    for (size_t q = 3 * P->ncontacts; q < P->n; q++) r = fmax(r, fabs(d[q])); /* joints: G^T v+ + g/h = 0 */
    *outside_cone = oc;
    *outside_dual = od;
    *complementarity = cp;
    return r;
}

/* A + eps I on the impulse rows (c_n, beta): the impulse block T^T N T becomes positive
 * definite, so the impulses are unique where N is rank deficient (a pile: more contact rows
 * than velocities), as in the regularized CCP. The lambda rows (the polygon, zero diagonal)
 * are left. With w_eps = A_eps z + q = 0 where z_r > 0, the unregularized w = w_eps - eps z:
 * z solves the original LCP up to a natural-map residual of eps max z. */
double clab_lcp_regularize(double *A, size_t nl, int m, double reg)
{
    double sum = 0.0;
    size_t cnt = 0;
    for (size_t r = 0; r < nl; r++)
        if ((int)(r % (size_t)m) != m - 1) {
            sum += A[r * nl + r];
            cnt++;
        }
    const double eps = reg * (cnt ? sum / (double)cnt : 1.0);
    for (size_t r = 0; r < nl; r++)
        if ((int)(r % (size_t)m) != m - 1) A[r * nl + r] += eps;
    return eps;
}
