/* motion.c: driven bodies and applied loads of a world (clab_motion.h): the tables, the
 * world's list of driven bodies, the step driver's passes over them, the loads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_world.h"
#include "motion_internal.h"

/* ---- tables ---- */

int clab_motion_table_check(const double *table, size_t nrows, char *why, size_t n)
{
    if (nrows == 0 || !table) {
        snprintf(why, n, "the table has no rows; allowed: rows [t, vx, vy, vz, wx, wy, wz], t increasing");
        return CLAB_EINVAL;
    }
    for (size_t r = 0; r < nrows; r++) {
        const double *row = table + CLAB_MOTION_COLS * r;
        for (int k = 0; k < CLAB_MOTION_COLS; k++)
            if (!isfinite(row[k])) {
                snprintf(why, n, "row %zu, entry %d is %g; allowed: finite numbers", r, k, row[k]);
                return CLAB_EINVAL;
            }
        if (r > 0 && !(row[0] > row[-CLAB_MOTION_COLS])) {
            snprintf(why, n, "row %zu: t = %g s does not increase (row %zu has t = %g s); allowed: t strictly increasing",
                     r, row[0], r - 1, row[-CLAB_MOTION_COLS]);
            return CLAB_EINVAL;
        }
    }
    return CLAB_OK;
}

/* the segment [t_k, t_k+1] holding t: the last row with t_k <= t (binary search), -1 before
 * the first row */
static long segment_of(const double *table, size_t nrows, double t)
{
    if (t < table[0]) return -1;
    size_t lo = 0, hi = nrows; /* t_lo <= t < t_hi (t_nrows = infinity) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (table[CLAB_MOTION_COLS * mid] <= t) lo = mid;
        else hi = mid;
    }
    return (long)lo;
}

void clab_motion_table_at(const double *table, size_t nrows, double t, double out[6])
{
    long k = segment_of(table, nrows, t);
    if (k < 0 || (size_t)k + 1 >= nrows) { /* before the first row or after the last: held */
        const double *row = table + CLAB_MOTION_COLS * (size_t)(k < 0 ? 0 : k);
        for (int c = 0; c < 6; c++) out[c] = row[1 + c];
        return;
    }
    const double *a = table + CLAB_MOTION_COLS * (size_t)k, *b = a + CLAB_MOTION_COLS;
    const double s = (t - a[0]) / (b[0] - a[0]); /* linear in between */
    for (int c = 0; c < 6; c++) out[c] = a[1 + c] + s * (b[1 + c] - a[1 + c]);
}

/* the integral of the table's velocity from t0 to t1 (t0 < t1) by pieces on which it is linear
 * (the trapezoid rule is exact there) */
static void table_integral(const double *table, size_t nrows, double t0, double t1, double out[6])
{
    for (int c = 0; c < 6; c++) out[c] = 0.0;
    double ta = t0, va[6];
    clab_motion_table_at(table, nrows, ta, va);
    long k = segment_of(table, nrows, t0);
    for (size_t r = (size_t)(k + 1);; r++) { /* the breakpoints inside (t0, t1), then t1 */
        const double tb = r < nrows && table[CLAB_MOTION_COLS * r] < t1 ? table[CLAB_MOTION_COLS * r] : t1;
        double vb[6];
        clab_motion_table_at(table, nrows, tb, vb);
        for (int c = 0; c < 6; c++) out[c] += 0.5 * (tb - ta) * (va[c] + vb[c]);
        if (tb == t1) break;
        ta = tb;
        for (int c = 0; c < 6; c++) va[c] = vb[c];
    }
}

void clab_motion_table_mean(const double *table, size_t nrows, double t0, double t1, double out[6])
{
    table_integral(table, nrows, t0, t1, out);
    for (int c = 0; c < 6; c++) out[c] /= t1 - t0;
}

/* ---- the world's driven bodies ---- */

static clab_driven *find(const clab_world *w, size_t i)
{
    for (size_t k = 0; k < w->ndriven; k++)
        if (w->driven[k].body == i) return &w->driven[k];
    return NULL;
}

const clab_driven *clab_world_motion(const clab_world *w, size_t i) { return find(w, i); }

static void set_velocity(clab_body *b, clab_vec3 v, clab_vec3 omega)
{
    b->rdot = v;
    b->wbar = clab_q_rotate_inv(b->e, omega); /* the body frame's angular velocity */
}

static int bad_vec(clab_vec3 v) { return !(isfinite(v.x) && isfinite(v.y) && isfinite(v.z)); }

int clab_world_set_motion(clab_world *w, size_t i, const clab_motion *m, clab_error *err)
{
    if (i >= w->nbodies)
        return clab_error_set(err, CLAB_EINVAL, "motion: body %zu does not exist (%zu bodies)", i, w->nbodies);
    const char *name = clab_world_body_name(w, i);
    char why[CLAB_ERROR_LEN / 2];
    if (m->kind != CLAB_MOTION_CONSTANT && m->kind != CLAB_MOTION_TABLE && m->kind != CLAB_MOTION_SERVO)
        return clab_error_set(err, CLAB_EINVAL, "body '%s': motion kind %d; allowed: constant, table, servo", name,
                              (int)m->kind);
    if (bad_vec(m->v) || bad_vec(m->omega))
        return clab_error_set(err, CLAB_EINVAL, "body '%s': motion velocity and omega must be finite", name);
    if (m->kind == CLAB_MOTION_TABLE && clab_motion_table_check(m->table, m->nrows, why, sizeof why))
        return clab_error_set(err, CLAB_EINVAL, "body '%s': motion table: %s", name, why);
    if (m->kind == CLAB_MOTION_SERVO && clab_servo_check(&m->servo, why, sizeof why))
        return clab_error_set(err, CLAB_EINVAL, "body '%s': servo: %s", name, why);
    if (w->loads && (clab_v3_norm2(w->loads[i].F) > 0.0 || clab_v3_norm2(w->loads[i].T) > 0.0))
        return clab_error_set(err, CLAB_EINVAL, "body '%s': a driven body takes no load (it has one)", name);
    double *table = NULL;
    if (m->kind == CLAB_MOTION_TABLE) {
        table = malloc(m->nrows * CLAB_MOTION_COLS * sizeof *table);
        if (!table) return clab_error_set(err, CLAB_ENOMEM, "body '%s': out of memory for its motion table", name);
        memcpy(table, m->table, m->nrows * CLAB_MOTION_COLS * sizeof *table);
    }
    clab_driven *d = find(w, i);
    if (!d) {
        if (w->ndriven == w->cap_driven) {
            size_t cap = w->cap_driven ? 2 * w->cap_driven : 4;
            clab_driven *p = realloc(w->driven, cap * sizeof *p);
            if (!p) {
                free(table);
                return clab_error_set(err, CLAB_ENOMEM, "body '%s': out of memory for its motion", name);
            }
            w->driven = p;
            w->cap_driven = cap;
        }
        d = &w->driven[w->ndriven++];
    } else {
        free((double *)d->m.table);
    }
    d->body = i;
    d->m = *m;
    d->m.table = table;
    if (m->kind != CLAB_MOTION_TABLE) d->m.nrows = 0;
    if (m->kind == CLAB_MOTION_SERVO) d->m.servo.axis = clab_v3_normalize(m->servo.axis);
    clab_body *b = &w->bodies[i];
    b->fixed = 1; /* infinite mass */
    if (m->kind == CLAB_MOTION_TABLE) {
        double v[6];
        clab_motion_table_at(table, m->nrows, w->t, v);
        set_velocity(b, clab_v3(v[0], v[1], v[2]), clab_v3(v[3], v[4], v[5]));
    } else {
        set_velocity(b, m->v, m->omega);
    }
    return CLAB_OK;
}

int clab_world_set_body_velocity(clab_world *w, size_t i, clab_vec3 v, clab_vec3 omega, clab_error *err)
{
    clab_driven *d = i < w->nbodies ? find(w, i) : NULL;
    if (!d)
        return clab_error_set(err, CLAB_EINVAL, "set velocity: body %zu (%s) is not driven (clab_world_set_motion)", i,
                              i < w->nbodies ? clab_world_body_name(w, i) : "no such body");
    if (d->m.kind == CLAB_MOTION_TABLE)
        return clab_error_set(err, CLAB_EINVAL, "set velocity: body '%s' follows its motion table",
                              clab_world_body_name(w, i));
    if (bad_vec(v) || bad_vec(omega))
        return clab_error_set(err, CLAB_EINVAL, "set velocity: body '%s': velocity and omega must be finite",
                              clab_world_body_name(w, i));
    d->m.v = v;
    d->m.omega = omega;
    /* a servo's speed along its axis stays until the next step sets it */
    clab_body *b = &w->bodies[i];
    if (d->m.kind == CLAB_MOTION_SERVO) {
        const clab_vec3 a = d->m.servo.axis;
        set_velocity(b, clab_v3_madd(v, clab_v3_dot(b->rdot, a) - clab_v3_dot(v, a), a), omega);
    } else {
        set_velocity(b, v, omega);
    }
    return CLAB_OK;
}

void clab_world_motion_begin(clab_world *w, double h)
{
    for (size_t k = 0; k < w->ndriven; k++) {
        const clab_driven *d = &w->driven[k];
        if (d->m.kind != CLAB_MOTION_TABLE) continue;
        double v[6];
        clab_motion_table_mean(d->m.table, d->m.nrows, w->t, w->t + h, v);
        set_velocity(&w->bodies[d->body], clab_v3(v[0], v[1], v[2]), clab_v3(v[3], v[4], v[5]));
    }
}

void clab_world_motion_drift(clab_world *w, double h)
{
    for (size_t k = 0; k < w->ndriven; k++) {
        clab_body *b = &w->bodies[w->driven[k].body];
        /* Eq. (5a) of seed 000 (clab_body_drift, which leaves fixed bodies alone) */
        b->r = clab_v3_madd(b->r, h, b->rdot);
        if (b->wbar.x != 0.0 || b->wbar.y != 0.0 || b->wbar.z != 0.0) b->e = clab_q_advance(b->e, b->wbar, h);
    }
}

int clab_drives_copy(clab_world *c, const clab_world *w)
{
    c->driven = NULL;
    c->ndriven = c->cap_driven = 0;
    c->loads = NULL;
    if (w->loads) {
        c->loads = malloc((w->cap_bodies ? w->cap_bodies : 1) * sizeof *c->loads);
        if (!c->loads) return CLAB_ENOMEM;
        if (w->nbodies) memcpy(c->loads, w->loads, w->nbodies * sizeof *c->loads);
    }
    if (!w->ndriven) return CLAB_OK;
    c->driven = calloc(w->ndriven, sizeof *c->driven);
    if (!c->driven) return CLAB_ENOMEM;
    c->cap_driven = w->ndriven;
    for (size_t k = 0; k < w->ndriven; k++) {
        c->driven[k] = w->driven[k];
        c->driven[k].m.table = NULL;
        c->ndriven = k + 1;
        if (w->driven[k].m.kind == CLAB_MOTION_TABLE) {
            size_t len = w->driven[k].m.nrows * CLAB_MOTION_COLS * sizeof(double);
            double *t = malloc(len);
            if (!t) return CLAB_ENOMEM;
            memcpy(t, w->driven[k].m.table, len);
            c->driven[k].m.table = t;
        }
    }
    return CLAB_OK;
}

/* ---- loads ---- */

int clab_world_set_load(clab_world *w, size_t i, clab_vec3 F, clab_vec3 T, clab_error *err)
{
    if (i >= w->nbodies)
        return clab_error_set(err, CLAB_EINVAL, "load: body %zu does not exist (%zu bodies)", i, w->nbodies);
    const char *name = clab_world_body_name(w, i);
    if (bad_vec(F) || bad_vec(T))
        return clab_error_set(err, CLAB_EINVAL, "body '%s': load force and torque must be finite", name);
    const int zero = clab_v3_norm2(F) == 0.0 && clab_v3_norm2(T) == 0.0;
    if (w->bodies[i].fixed && !zero)
        return clab_error_set(err, CLAB_EINVAL, "body '%s': a fixed or driven body takes no load", name);
    if (!w->loads) {
        if (zero) return CLAB_OK;
        w->loads = calloc(w->cap_bodies ? w->cap_bodies : 1, sizeof *w->loads);
        if (!w->loads) return clab_error_set(err, CLAB_ENOMEM, "body '%s': out of memory for the loads", name);
    }
    w->loads[i].F = F;
    w->loads[i].T = T;
    return CLAB_OK;
}
