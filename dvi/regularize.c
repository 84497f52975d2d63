/* regularize.c: the regularized DVI of seed 001 on the normal rows of the CCP (regularize.h):
 * options, the SPOOK / implicit-Euler coefficients (R1)/(R2), and the row update. */
#include "regularize.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { GIVEN_COMPLIANCE = 1, GIVEN_STIFFNESS = 2, GIVEN_TAU = 4, GIVEN_DAMPING = 8, GIVEN_COR = 16 };

static const char *const schemes[] = {"spook", "euler", NULL};

double clab_dvi_reg_zeta(double e)
{
    double l = log(e);
    return -l / sqrt(l * l + M_PI * M_PI);
}

/* (R1): SPOOK, Sigma = 4 eps/(h^2 (1+4d)), a = 4/(h (1+4d)), Upsilon = 1/(1+4d), d = tau/h;
 * (R2): implicit Euler, Sigma = eps/(h (h+tau)), a = 1/(h+tau), Upsilon = 0 */
void clab_dvi_reg_coefficients(int scheme, double epsilon, double tau, double h, double *Sigma, double *a,
                               double *Upsilon)
{
    if (scheme == CLAB_DVI_REG_EULER) {
        *Sigma = epsilon / (h * (h + tau));
        *a = 1.0 / (h + tau);
        *Upsilon = 0.0;
    } else {
        double q = 1.0 + 4.0 * tau / h;
        *Sigma = 4.0 * epsilon / (h * h * q);
        *a = 4.0 / (h * q);
        *Upsilon = 1.0 / q;
    }
}

/* a value given? (the getter then parses and range-checks it) */
static int has(clab_options *opt, const char *key) { return clab_options_get(opt, key) != NULL; }

int clab_dvi_reg_options(clab_options *opt, clab_dvi_reg *r, clab_error *err)
{
    memset(r, 0, sizeof *r);
    r->tau = r->c = r->cor = -1.0;
    double eps = 0.0, k = 0.0, tau = 0.0, c = 0.0, e = 1.0;
    int g = 0;
    if (has(opt, "compliance")) g |= GIVEN_COMPLIANCE;
    if (has(opt, "stiffness")) g |= GIVEN_STIFFNESS;
    if (has(opt, "tau")) g |= GIVEN_TAU;
    if (has(opt, "damping")) g |= GIVEN_DAMPING;
    if (has(opt, "cor")) g |= GIVEN_COR;
    if (clab_options_double(opt, "compliance", 0.0, 1e300, &eps, err) ||
        clab_options_double(opt, "stiffness", 1e-300, 1e300, &k, err) ||
        clab_options_double(opt, "tau", 0.0, 1e300, &tau, err) ||
        clab_options_double(opt, "damping", 0.0, 1e300, &c, err) ||
        clab_options_double(opt, "cor", 1e-12, 1.0, &e, err) ||
        clab_options_choice(opt, "reg_scheme", schemes, &r->scheme, err))
        return CLAB_EINVAL;
    r->given = g;
    if ((g & GIVEN_COMPLIANCE) && (g & GIVEN_STIFFNESS))
        return clab_error_set(err, CLAB_EINVAL, "dvi: give compliance= or stiffness= (= 1/compliance), not both");
    int nd = !!(g & GIVEN_TAU) + !!(g & GIVEN_DAMPING) + !!(g & GIVEN_COR);
    if (nd > 1) return clab_error_set(err, CLAB_EINVAL, "dvi: give at most one of tau=, damping=, cor=");
    if (!(g & (GIVEN_COMPLIANCE | GIVEN_STIFFNESS))) {
        if (nd || has(opt, "reg_scheme"))
            return clab_error_set(err, CLAB_EINVAL,
                                  "dvi: tau=, damping=, cor= and reg_scheme= need compliance= or stiffness= "
                                  "(the Lacoursiere-Servin regularized DVI)");
        return CLAB_OK; /* rigid DVI */
    }
    r->on = 1;
    r->epsilon = (g & GIVEN_STIFFNESS) ? 1.0 / k : eps;
    r->k = r->epsilon > 0.0 ? 1.0 / r->epsilon : 0.0;
    if ((g & (GIVEN_DAMPING | GIVEN_COR)) && !(r->epsilon > 0.0))
        return clab_error_set(err, CLAB_EINVAL,
                              "dvi: damping= and cor= need a finite stiffness (compliance > 0); give tau= instead");
    r->tau = (g & GIVEN_TAU) ? tau : -1.0;
    r->c = (g & GIVEN_DAMPING) ? c : -1.0;
    r->cor = (g & GIVEN_COR) ? e : -1.0;
    return CLAB_OK;
}

/* tau [s] of one contact of effective mass m_eff [kg] for the step h (regularize.h) */
double clab_dvi_reg_tau(const clab_dvi_reg *r, double h, double m_eff)
{
    double tau;
    if (r->tau >= 0.0) return r->tau;                 /* given */
    if (r->c >= 0.0) tau = r->c * r->epsilon;         /* tau = c/k */
    else if (r->cor > 0.0)                            /* c = 2 zeta sqrt(k m_eff): tau = 2 zeta sqrt(m_eff/k) */
        tau = 2.0 * clab_dvi_reg_zeta(r->cor) * sqrt(m_eff * r->epsilon);
    else
        return r->scheme == CLAB_DVI_REG_SPOOK ? 2.0 * h : 0.0; /* default: critical for SPOOK at eps = 0 */
    return r->scheme == CLAB_DVI_REG_EULER ? fmax(0.0, tau - h) : tau; /* euler damps k h by itself */
}

/* relative velocity along row k for velocities v (6 per body: rdot, wbar) */
static double row_velocity(const clab_ccp_row *q, const double *v)
{
    const double *va = &v[6 * q->a], *vb = &v[6 * q->b];
    double s = 0.0;
    for (int j = 0; j < 3; j++) s += q->lin[j] * (vb[j] - va[j]) + q->ang_a[j] * va[3 + j] + q->ang_b[j] * vb[3 + j];
    return s;
}

/* the same for the bodies' current velocities */
static double row_velocity_world(const clab_ccp_row *q, const clab_world *w)
{
    const clab_body *A = &w->bodies[q->a], *B = &w->bodies[q->b];
    clab_vec3 dv = clab_v3_sub(B->rdot, A->rdot);
    return q->lin[0] * dv.x + q->lin[1] * dv.y + q->lin[2] * dv.z + q->ang_a[0] * A->wbar.x +
           q->ang_a[1] * A->wbar.y + q->ang_a[2] * A->wbar.z + q->ang_b[0] * B->wbar.x + q->ang_b[1] * B->wbar.y +
           q->ang_b[2] * B->wbar.z;
}

void clab_dvi_reg_apply(const clab_dvi_reg *r, clab_ccp *P, const clab_world *w, const clab_contacts *c,
                        const double *v_l, double h)
{
    if (!r->on) return;
    for (size_t i = 0; i < P->ncontacts; i++) {
        const clab_ccp_row *q = &P->rows[3 * i];
        double phi = c->c[i].phi;
        double Nnn = P->blocks[i].Nii[0]; /* rigid N_nn = 1/m_eff (compliance not yet added) */
        double tau = clab_dvi_reg_tau(r, h, Nnn > 0.0 ? 1.0 / Nnn : 0.0);
        double Sigma, a, Ups;
        if (phi > 0.0) /* open contact: (R2) with tau = 0, no dashpot before it touches (regularize.h) */
            clab_dvi_reg_coefficients(CLAB_DVI_REG_EULER, r->epsilon, 0.0, h, &Sigma, &a, &Ups);
        else
            clab_dvi_reg_coefficients(r->scheme, r->epsilon, tau, h, &Sigma, &a, &Ups);
        P->compliance[3 * i] = Sigma;
        P->p[3 * i] = row_velocity_world(q, w) + a * phi - Ups * row_velocity(q, v_l);
    }
    clab_ccp_update_blocks(P);
}

void clab_dvi_reg_meta(const clab_dvi_reg *r, clab_options *m)
{
    char v[160];
    if (!r->on) {
        clab_options_set(m, "dvi_regularization", "off (rigid contacts)", NULL);
        return;
    }
    clab_options_set(m, "dvi_reg_scheme", schemes[r->scheme], NULL);
    snprintf(v, sizeof v, "%.17g", r->epsilon);
    clab_options_set(m, "dvi_compliance_m_N", v, NULL);
    if (r->k > 0.0) {
        snprintf(v, sizeof v, "%.17g", r->k);
        clab_options_set(m, "dvi_stiffness_N_m", v, NULL);
    }
    if (r->tau >= 0.0) {
        snprintf(v, sizeof v, "%.17g", r->tau);
        clab_options_set(m, "dvi_tau_s", v, NULL);
        clab_options_set(m, "dvi_tau_rule", "given", NULL);
    } else if (r->c >= 0.0) {
        snprintf(v, sizeof v, "%.17g", r->c);
        clab_options_set(m, "dvi_damping_N_s_m", v, NULL);
        clab_options_set(m, "dvi_tau_rule", r->scheme == CLAB_DVI_REG_SPOOK ? "c/k" : "max(0, c/k - h)", NULL);
    } else if (r->cor > 0.0) {
        snprintf(v, sizeof v, "%.17g", r->cor);
        clab_options_set(m, "dvi_cor", v, NULL);
        clab_options_set(m, "dvi_tau_rule",
                         r->scheme == CLAB_DVI_REG_SPOOK ? "2 zeta sqrt(m_eff/k) per contact, zeta from cor"
                                                         : "max(0, 2 zeta sqrt(m_eff/k) - h) per contact, zeta from cor",
                         NULL);
    } else
        clab_options_set(m, "dvi_tau_rule", r->scheme == CLAB_DVI_REG_SPOOK ? "2 h (default)" : "0 (default)", NULL);
    /* what it means (values are at most 127 characters) */
    clab_options_set(m, "dvi_regularization",
                     r->scheme == CLAB_DVI_REG_SPOOK
                         ? "Lacoursiere-Servin regularization, SPOOK (R1): Sigma = 4 eps/(h^2 q), a = 4/(h q), Upsilon = 1/q, q = 1 + 4 tau/h"
                         : "Lacoursiere-Servin regularization, implicit Euler (R2): Sigma = eps/(h (h + tau)), a = 1/(h + tau), Upsilon = 0",
                     NULL);
    clab_options_set(m, "dvi_reg_row",
                     "v_n(l+1) + Sigma gamma_n + a Phi - Upsilon v_n(l) >= 0; (R2), tau = 0 while Phi > 0; friction rows rigid",
                     NULL);
}
