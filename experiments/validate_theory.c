/* validate_theory.c: the rows of contactlab validate's tables, and the rigid-body impact of
 * two solid spheres (or a sphere and a fixed plane) that the oblique Chung-Ooi tests are
 * checked against (validate.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

static val_row *grow(val_table *t)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        val_row *r = realloc(t->r, cap * sizeof *r);
        if (!r) return NULL;
        t->r = r;
        t->cap = cap;
    }
    val_row *r = &t->r[t->n++];
    memset(r, 0, sizeof *r);
    return r;
}

static void fill(val_row *r, const char *test, const char *method, const char *what, const char *quantity,
                 double expected, double obtained, const char *note)
{
    snprintf(r->test, sizeof r->test, "%s", test);
    snprintf(r->method, sizeof r->method, "%s", method);
    snprintf(r->what, sizeof r->what, "%s", what);
    snprintf(r->quantity, sizeof r->quantity, "%s", quantity);
    snprintf(r->note, sizeof r->note, "%s", note ? note : "");
    r->expected = expected;
    r->obtained = obtained;
}

val_row *val_add(val_table *t, const char *test, const char *method, const char *what, const char *quantity,
                 double expected, double obtained, double tol, int abs, const char *note)
{
    val_row *r = grow(t);
    if (!r) return NULL;
    fill(r, test, method, what, quantity, expected, obtained, note);
    r->abs = abs;
    r->tol = tol;
    r->err = abs ? fabs(obtained - expected) : fabs(obtained - expected) / fabs(expected);
    r->status = isfinite(obtained) && r->err <= tol ? VAL_PASS : VAL_FAIL;
    return r;
}

val_row *val_add_note(val_table *t, const char *test, const char *method, const char *what, const char *quantity,
                      double expected, double obtained, val_status st, const char *note)
{
    val_row *r = grow(t);
    if (!r) return NULL;
    fill(r, test, method, what, quantity, expected, obtained, note);
    r->err = isfinite(expected) && isfinite(obtained) && fabs(expected) > 1e-9 ? fabs(obtained - expected) / fabs(expected)
                                                                              : NAN;
    r->tol = NAN;
    r->status = st;
    return r;
}

/* inverse mass and inverse inertia of a solid sphere (2/5 m R^2); 0 for a fixed body */
static void inverse(double m, double R, double *im, double *iI)
{
    *im = isfinite(m) ? 1.0 / m : 0.0;
    *iI = isfinite(m) && R > 0.0 ? 1.0 / (0.4 * m * R * R) : 0.0;
}

val_rigid val_rigid_impact(double m0, double R0, clab_vec3 v0, clab_vec3 w0, double m1, double R1, clab_vec3 v1,
                           clab_vec3 w1, double e, double mu, int ccp)
{
    const clab_vec3 z = clab_v3(0.0, 0.0, 1.0);
    const clab_vec3 l0 = clab_v3_scale(z, R0), l1 = clab_v3_scale(z, -R1); /* centers to the contact point */
    double im0, iI0, im1, iI1;
    inverse(m0, R0, &im0, &iI0);
    inverse(m1, R1, &im1, &iI1);
    const double mstar = 1.0 / (im0 + im1);
    /* B: the slip a unit tangential impulse removes, 1/m0 + 1/m1 + R0^2/I0 + R1^2/I1 */
    const double B = im0 + im1 + iI0 * R0 * R0 + iI1 * R1 * R1;
    /* relative velocity of the contact point, body 1 with respect to body 0 */
    const clab_vec3 u = clab_v3_sub(clab_v3_add(v1, clab_v3_cross(w1, l1)), clab_v3_add(v0, clab_v3_cross(w0, l0)));
    const double vn = -u.z; /* approach speed */
    const clab_vec3 s = clab_v3(u.x, u.y, 0.0);
    const double sn = clab_v3_norm(s);
    val_rigid r;
    r.slides = 0;
    clab_vec3 Pt;
    if (!ccp) {
        r.Jn = mstar * (1.0 + e) * vn; /* Newton */
        if (sn <= mu * r.Jn * B) {
            Pt = clab_v3_scale(s, -1.0 / B); /* the slip stops: rolling, or rest on a plane */
        } else {
            Pt = clab_v3_scale(s, -mu * r.Jn / sn);
            r.slides = 1;
        }
    } else if (sn <= mu * mstar * vn * B) { /* CCP: the approach stopped, the slip too */
        r.Jn = mstar * vn;
        Pt = clab_v3_scale(s, -1.0 / B);
    } else { /* CCP sliding: u_n' = mu |s'| (the relaxed cone), |P_t| = mu J_n */
        const double s1 = (sn - B * mu * mstar * vn) / (1.0 + B * mu * mu * mstar);
        r.Jn = mstar * (vn + mu * s1);
        Pt = clab_v3_scale(s, -mu * r.Jn / sn);
        r.slides = 1;
    }
    r.Jt = clab_v3_norm(Pt);
    const clab_vec3 P = clab_v3_madd(Pt, r.Jn, z); /* on body 1; -P on body 0 */
    r.v1 = clab_v3_madd(v1, im1, P);
    r.w1 = clab_v3_madd(w1, iI1, clab_v3_cross(l1, P));
    r.v0 = clab_v3_madd(v0, -im0, P);
    r.w0 = clab_v3_madd(w0, -iI0, clab_v3_cross(l0, P));
    return r;
}
