/* penalty_backend.c: the penalty (DEM) backend, `clab_backend_penalty`.
 *
 * One step (seed 002's force law, seed 000's body update):
 *   1. for every contact with overlap delta_n = -Phi > 0: relative velocity of the contact
 *      point, v = v_b(P) - v_a(P); last step's history delta_t rotated onto the current tangent
 *      plane and advanced by h v_t; the force law (force_law.h) with the Coulomb cap; the force
 *      F = F_n n + F_t on b and -F on a, torques (P - r) x F about each center;
 *   2. contacts that are gone (no longer reported, or delta_n <= 0) lose their history;
 *   3. explicit integration of every free body (integrator.h).
 * Options, formulas and sources: doc/penalty.md. */
#include <float.h>
#include <stdarg.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "clab_backends.h"
#include "clab_balance.h"
#include "clab_clock.h"
#include "clab_collide.h"
#include "clab_v2.h"
#include "force_law.h"
#include "history.h"
#include "integrator.h"

/* a body as the contact loop reads it (gathered once a step): 64 bytes, one cache line of an
 * array allocated 64-byte aligned. Not copied: the orientation (only contacts with a
 * non-sphere turn sbar by it, A(e) sbar, and they read it from the world's body), the
 * material (one pair for the whole step when every body has the same, pair1 of
 * penalty_advance, else read from the world's bodies), the flags (fixed: an infinite mass;
 * sphere: the sign of R; the body loop reads the world's body itself, and with
 * sphere_orientation=off the array still, a byte a body) */
typedef struct pen_body {
    clab_vec3 rdot;  /* velocity [m/s] */
    clab_vec3 omega; /* angular velocity, world frame A(e) wbar [rad/s] */
    double m;        /* mass [kg]; INFINITY for a fixed body (its mass is ignored) */
    double R;        /* a sphere: its radius R (sign bit clear); any other shape -Rc (sign bit
                      * set), Rc its radius for R* [m] (contact_radius: INFINITY when flat) */
} pen_body;
_Static_assert(sizeof(pen_body) == 64, "pen_body: one cache line");

/* body b is a sphere: its lever arms lie on the contact normals */
static inline int pen_sphere(const pen_body *b) { return !signbit(b->R); }
/* body b is fixed (clab_penalty_meff) */
static inline int pen_fixed(const pen_body *b) { return b->m == INFINITY; }
/* Rc [m] of body b for R* (clab_penalty_reff): a sphere's radius, INFINITY when flat */
static inline double pen_rc(const pen_body *b) { return fabs(b->R); }

/* a body's contact sums as one thread scatters them (contact_scatter): the force F (world)
 * and the torque tau (a sphere: world, turned once by the body loop; any other body: its own
 * frame), 48 bytes */
typedef struct pen_acc {
    clab_vec3 F, tau;
} pen_acc;

/* one side's share of a contact's force and torque (contact_terms, side_term), j the body: F
 * added to its force (sign +1, body b) or subtracted (-1, body a), s c added to its torque,
 * then M added or subtracted (rolling=cdt); term_add */
typedef struct pen_term {
    clab_vec3 F, c, M;
    double s;
    uint32_t j;
    int32_t sign;
} pen_term;

/* a term one thread of the split scatter leaves for body j's owner: side b (k2 odd) or a of
 * contact k2 / 2, formed again from the contact's kept force (side_term: the same bits) */
typedef struct pen_kept {
    uint32_t j, k2;
} pen_kept;

/* the terms one thread of the split scatter leaves for the others to add, in contact order */
typedef struct pen_side {
    pen_kept *e;
    size_t n, cap;
    int nomem; /* a term could not be kept */
} pen_side;

enum {
    PEN_TURNS = 0,         /* e advanced as usual */
    PEN_STILL = 1,         /* e kept */
    PEN_STILL_IDENTITY = 2 /* e kept, and the identity: A(e) turns nothing */
};

typedef struct penalty {
    /* the run's choices */
    clab_penalty_law law;
    clab_penalty_integrator integrator;
    int lever_surface; /* 1: lever arms to each body's surface point P -+ Phi/2 n (LAMMPS's radii) */
    int history_zero;  /* 1: the first step's contacts start with delta_t = 0 (LAMMPS's setup) */
    int history_project; /* 1: delta_t turned by plain projection, length not kept (LAMMPS) */
    int orientation_off; /* 1: spheres of isotropic inertia keep their Euler parameters (their motion
                          * does not depend on them; LAMMPS's atom_style sphere has none) */
    double kn, kt, gn, gt; /* explicit overrides for every pair; < 0 = from the materials */
    /* per material pair, rebuilt when materials are added */
    clab_penalty_pair *pairs;       /* [nmat * nmat], pairs[ma * nmat + mb] */
    char (*matname)[CLAB_NAME_LEN]; /* [nmat] for the metadata */
    size_t nmat;
    size_t nchecked; /* bodies already validated */
    /* tangential history, keyed by contact key */
    clab_history hist;
    /* per-step arrays, per body [cap_bodies] */
    pen_body *pb;               /* what the contact loop reads of the bodies (64-byte aligned) */
    pen_acc *acc;               /* [cap_acc] one thread: each body's contact sums (contact_scatter),
                                 * zero between steps when acc_zero (the body loop reads and clears them) */
    size_t cap_bodies, cap_acc;
    int acc_zero;
    /* per contact [cap_forces] */
    clab_vec3 *Fc;              /* force on b, world [N]; (F_n, F_u, F_w) = (Fc.n, Fc.u, Fc.w) for output */
    uint32_t *blist;            /* contact indices by body b, a segment a thread (by_b) */
    size_t nforces, cap_forces, cap_blist;
    /* the split scatter of two or more threads [nside]: each thread's terms left for others */
    pen_side *side;
    size_t nside;
    /* only when needed [cap_extra] */
    clab_vec3 *Mr;              /* rolling resistance couple on b, world [N m] (rolling=cdt) */
    uint32_t *alist;            /* contact indices by body a, when the contacts are not sorted by a */
    uint32_t *astart;           /* [bodies + 1] with alist: alist[astart[i] .. astart[i+1]) have i as a */
    uint32_t *brow;             /* [threads x (bodies + 1)] each thread's offsets of its segment of blist (by_b) */
    size_t *bbase;              /* [threads] where each thread's segment of blist starts (by_b) */
    unsigned char *still;       /* [bodies] sphere_orientation=off: still_of each body (gather_range) */
    size_t cap_mr, cap_alist, cap_astart, cap_brow, cap_bbase, cap_still;
    /* the gather done ahead of the step in the collider's pass (penalty_gather_begin,
     * penalty_gather): bodies gathered (pre_n, of pre_nb) at step pre_step, whether a
     * material other than body 0's (pre_m0) was seen */
    size_t pre_n, pre_nb;
    long pre_step;
    int pre_m0, pre_mixed;
    /* the split's cuts, by the threads' times (clab_balance.h): of the contacts (where the
     * contact loop's ranges of bodies a start, split_cut) and of the bodies (the body loop) */
    clab_balance bal_contacts, bal_bodies;
    /* bookkeeping */
    double t_contacts, t_bodies; /* wall time of the steps' passes (clab_solver_stats) [s] */
    int started;        /* verlet: a step has been taken (its closing half-kick is pending) */
    long steps;         /* steps taken */
    double stable_step; /* estimate for the world at create [s] */
} penalty;

static const char *const model_names[] = {"hooke", "hertz", NULL};
static const char *const integrator_names[] = {"euler", "verlet", NULL};
static const char *const cap_names[] = {"total", "spring", "lammps", NULL};
static const char *const clamp_names[] = {"off", "on", NULL};
static const char *const rolling_names[] = {"off", "cdt", NULL};
static const char *const lever_names[] = {"contact", "surface", NULL};
static const char *const history_start_names[] = {"slip", "zero", NULL};
static const char *const history_turn_names[] = {"keep", "project", NULL};
static const char *const orientation_names[] = {"integrate", "off", NULL};

/* ---- validation ---- */

/* Radius of a shape for R* [m]: spheres their radius; planes are flat (INFINITY); a box
 * touches with corners and edges, which we treat as rounded with its smallest half extent. */
static double contact_radius(const clab_shape *s)
{
    switch (s->type) {
    case CLAB_SHAPE_SPHERE: return s->radius;
    case CLAB_SHAPE_BOX: return fmin(s->half.x, fmin(s->half.y, s->half.z));
    default: return INFINITY;
    }
}

/* joints, materials and bodies the backend can run; bodies from p->nchecked on */
static int check_world(penalty *p, const clab_world *w, clab_error *err)
{
    if (w->njoints)
        return clab_error_set(err, CLAB_EINVAL,
                              "penalty backend: the world has %zu joint(s) (bilateral constraints), which the penalty "
                              "backend does not handle; use the dvi backend or remove the joints",
                              w->njoints);
    for (size_t i = 0; i < w->nmaterials; i++)
        if (clab_material_validate(&w->materials[i], err)) return err ? err->status : CLAB_EINVAL;
    for (size_t i = p->nchecked; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        const char *nm = clab_world_body_name(w, i);
        if (b->material < 0 || (size_t)b->material >= w->nmaterials)
            return clab_error_set(err, CLAB_EINVAL, "penalty backend: body '%s': material index %d does not exist", nm,
                                  b->material);
        if (b->fixed) continue;
        if (!(isfinite(b->m) && b->m > 0.0))
            return clab_error_set(err, CLAB_EINVAL, "penalty backend: body '%s': mass m = %g kg must be finite and > 0",
                                  nm, b->m);
        if (!(isfinite(b->J.x) && isfinite(b->J.y) && isfinite(b->J.z) && b->J.x > 0.0 && b->J.y > 0.0 &&
              b->J.z > 0.0))
            return clab_error_set(err, CLAB_EINVAL,
                                  "penalty backend: body '%s': inertia J = (%g, %g, %g) kg m^2 must be finite and > 0",
                                  nm, b->J.x, b->J.y, b->J.z);
    }
    p->nchecked = w->nbodies;
    return CLAB_OK;
}

/* the pair table from the world's materials and the run's overrides */
static int build_pairs(penalty *p, const clab_world *w, clab_error *err)
{
    size_t n = w->nmaterials;
    clab_penalty_pair *pairs = malloc(n * n * sizeof *pairs);
    char(*names)[CLAB_NAME_LEN] = malloc(n * sizeof *names);
    if (!pairs || !names) {
        free(pairs);
        free(names);
        return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory for %zu materials", n);
    }
    for (size_t a = 0; a < n; a++) {
        memcpy(names[a], w->materials[a].name, CLAB_NAME_LEN);
        for (size_t b = 0; b < n; b++) {
            clab_material_pair mp = clab_material_mix(&w->materials[a], &w->materials[b]);
            pairs[a * n + b] = clab_penalty_pair_make(&mp, p->kn, p->kt, p->gn, p->gt);
        }
    }
    free(p->pairs);
    free(p->matname);
    p->pairs = pairs;
    p->matname = names;
    p->nmat = n;
    return CLAB_OK;
}

/* ---- options ---- */

/* an optional number option that must be > 0 (positive) or >= 0; *out keeps its value when absent */
static int number_option(clab_options *opt, const char *key, int positive, const char *what, const char *unit,
                         double *out, clab_error *err)
{
    if (!clab_options_get(opt, key)) return CLAB_OK;
    double v = 0.0;
    int rc = clab_options_double(opt, key, -DBL_MAX, DBL_MAX, &v, err);
    if (rc) return rc;
    if (positive ? !(v > 0.0) : !(v >= 0.0)) {
        clab_options_refuse(opt, key); /* so every other problem is reported too (clab_sim_create) */
        return clab_error_set(err, CLAB_EINVAL, "%s: %s = %g %s: out of range; allowed: the %s must be %s",
                              clab_options_where(opt, key), key, v, unit, what, positive ? "> 0" : ">= 0");
    }
    *out = v;
    return CLAB_OK;
}

/* ---- the type object's functions ---- */

static void penalty_destroy(void *self)
{
    penalty *p = self;
    if (!p) return;
    clab_history_free(&p->hist);
    free(p->pairs);
    free(p->matname);
    free(p->pb);
    free(p->acc);
    free(p->Fc);
    free(p->Mr);
    free(p->alist);
    free(p->astart);
    free(p->brow);
    free(p->bbase);
    free(p->still);
    free(p->blist);
    for (size_t t = 0; t < p->nside; t++) free(p->side[t].e);
    free(p->side);
    free(p);
}

static double penalty_stable_step(const void *self, const clab_world *w);

static int penalty_create(const clab_world *w, clab_options *opt, void **self, clab_error *err)
{
    *self = NULL;
    penalty *p = calloc(1, sizeof *p);
    if (!p) return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory");
    clab_history_init(&p->hist);
    p->law.model = CLAB_PENALTY_HERTZ;
    p->law.cap = CLAB_PENALTY_CAP_TOTAL;
    p->law.rolling = CLAB_PENALTY_ROLL_OFF;
    p->law.clamp = 0;
    p->law.vchar = 1.0;
    p->integrator = CLAB_PENALTY_EULER;
    p->kn = p->kt = p->gn = p->gt = -1.0;
    p->pre_step = -1; /* nothing gathered ahead */

    int model = p->law.model, integ = p->integrator, cap = p->law.cap, clamp = p->law.clamp, roll = p->law.rolling;
    int rc = clab_options_choice(opt, "model", model_names, &model, err);
    if (!rc) rc = clab_options_choice(opt, "integrator", integrator_names, &integ, err);
    if (!rc) rc = clab_options_choice(opt, "cap", cap_names, &cap, err);
    if (!rc) rc = clab_options_choice(opt, "clamp", clamp_names, &clamp, err);
    if (!rc) rc = clab_options_choice(opt, "rolling", rolling_names, &roll, err);
    if (!rc) rc = clab_options_choice(opt, "lever", lever_names, &p->lever_surface, err);
    if (!rc) rc = clab_options_choice(opt, "history_start", history_start_names, &p->history_zero, err);
    if (!rc) rc = clab_options_choice(opt, "history_turn", history_turn_names, &p->history_project, err);
    if (!rc) rc = clab_options_choice(opt, "sphere_orientation", orientation_names, &p->orientation_off, err);
    if (!rc) rc = number_option(opt, "kn", 1, "normal stiffness", model == CLAB_PENALTY_HOOKE ? "N/m" : "N/m^1.5",
                                &p->kn, err);
    if (!rc) rc = number_option(opt, "kt", 1, "tangential stiffness", model == CLAB_PENALTY_HOOKE ? "N/m" : "N/m^1.5",
                                &p->kt, err);
    if (!rc) rc = number_option(opt, "gn", 0, "normal damping rate gamma_n", "1/s", &p->gn, err);
    if (!rc) rc = number_option(opt, "gt", 0, "tangential damping rate gamma_t", "1/s", &p->gt, err);
    if (!rc) rc = number_option(opt, "vchar", 1, "characteristic impact speed", "m/s", &p->law.vchar, err);
    p->law.model = (clab_penalty_model)model;
    p->integrator = (clab_penalty_integrator)integ;
    p->law.cap = (clab_penalty_cap)cap;
    p->law.clamp = clamp;
    p->law.rolling = (clab_penalty_rolling)roll;
    if (!rc) rc = check_world(p, w, err);
    if (!rc) rc = build_pairs(p, w, err);
    if (rc) {
        penalty_destroy(p);
        return rc;
    }
    p->stable_step = penalty_stable_step(p, w);
    *self = p;
    return CLAB_OK;
}

/* grow the array *a of elements of size sz to at least n (contents not kept); 0 on success */
static int grow(void *pa, size_t *cap, size_t n, size_t sz)
{
    if (n <= *cap) return 0;
    size_t c = *cap ? *cap : 64;
    while (c < n) c *= 2;
    void **a = pa;
    void *q = realloc(*a, c * sz);
    if (!q) return 1;
    *a = q;
    *cap = c;
    return 0;
}

/* the per-body arrays of the gather for nb bodies; 0 on success */
static int reserve_bodies(penalty *p, size_t nb)
{
    if (p->orientation_off && grow(&p->still, &p->cap_still, nb, 1)) return 1;
    if (nb > p->cap_bodies || !p->pb) {
        /* pen_body 64-byte aligned: one cache line each (contents not kept) */
        size_t cap = p->cap_bodies ? p->cap_bodies : 64;
        while (cap < nb) cap *= 2;
        free(p->pb);
        p->pb = aligned_alloc(64, cap * sizeof(pen_body));
        if (!p->pb) {
            p->cap_bodies = 0;
            return 1;
        }
        p->cap_bodies = cap;
    }
    return 0;
}

/* the lists by b (by_b) of nt threads for nb bodies and nc contacts; 0 on success */
static int reserve_lists(penalty *p, size_t nb, size_t nc, int nt)
{
    return grow(&p->blist, &p->cap_blist, nc, sizeof(uint32_t)) ||
           grow(&p->brow, &p->cap_brow, (size_t)nt * (nb + 1), sizeof(uint32_t)) ||
           grow(&p->bbase, &p->cap_bbase, (size_t)nt, sizeof(size_t));
}

/* the per-step arrays for nb bodies and nc contacts on nt threads; the sums a body by the
 * scatter (acc) when nt = 1 or split (then each thread's terms left for others), else the
 * lists by b (blist) */
static int reserve_step(penalty *p, size_t nb, size_t nc, int nt, int split)
{
    const int scatter = nt == 1 || split;
    if (reserve_bodies(p, nb)) return 1;
    if (split) {
        if ((size_t)nt > p->nside) {
            pen_side *s = realloc(p->side, (size_t)nt * sizeof *s);
            if (!s) return 1;
            for (size_t t = p->nside; t < (size_t)nt; t++) s[t] = (pen_side){NULL, 0, 0, 0};
            p->side = s;
            p->nside = (size_t)nt;
        }
    }
    if (grow(&p->Fc, &p->cap_forces, nc, sizeof(clab_vec3))) return 1;
    if (scatter) {
        pen_acc *old = p->acc;
        if (grow(&p->acc, &p->cap_acc, nb, sizeof(pen_acc))) return 1;
        if (p->acc != old) p->acc_zero = 0; /* new storage */
        if (!p->acc_zero) memset(p->acc, 0, p->cap_acc * sizeof(pen_acc));
        p->acc_zero = 1;
    } else if (reserve_lists(p, nb, nc, nt)) {
        return 1;
    }
    if (p->law.rolling == CLAB_PENALTY_ROLL_CDT && grow(&p->Mr, &p->cap_mr, nc, sizeof(clab_vec3))) return 1;
    return 0;
}

/* the inverse rotational inertia of body b about the world axis k [1/(kg m^2)] (0 when fixed) */
static double inv_inertia_about(const clab_body *b, clab_vec3 k)
{
    if (b->fixed) return 0.0;
    clab_vec3 kb = clab_q_rotate_inv(b->e, k);
    return kb.x * kb.x / b->J.x + kb.y * kb.y / b->J.y + kb.z * kb.z / b->J.z;
}

/* *dst = v; stream: with non-temporal stores (x86-64), which write past the caches without
 * reading the line first, for an array this step does not read back (the forces, kept for the
 * outputs, on one thread); the loop that streams ends with stream_end */
static CLAB_ALWAYS_INLINE void store_v3(clab_vec3 *dst, clab_vec3 v, int stream)
{
#if defined(__SSE2__) && defined(__x86_64__)
    if (stream) {
        long long q[3];
        memcpy(q, &v, sizeof q);
        _mm_stream_si64((long long *)dst, q[0]);
        _mm_stream_si64((long long *)dst + 1, q[1]);
        _mm_stream_si64((long long *)dst + 2, q[2]);
        return;
    }
#endif
    (void)stream;
    *dst = v;
}

/* the non-temporal stores of store_v3 ordered before any later store (and so before another
 * thread reads them) */
static inline void stream_end(void)
{
#if defined(__SSE2__) && defined(__x86_64__)
    _mm_sfence();
#endif
}

/* One contact i with overlap delta_n = -Phi > 0: relative velocity of the contact point
 * (lever arms l = A(e) sbar, never P - r), the history delta_t rotated onto the tangent plane
 * and advanced by h v_t, the force law of seed 002 with the Coulomb cap (the material pair:
 * pair1 when every body has the same material). Writes the force on
 * b (Fc, also returned), the rolling couple (Mr, rolling=cdt) and the new delta_t (history
 * entry i); the torques l x F follow per body (contact_scatter or body_sums). Contacts i are
 * independent: no shared writes. */
static CLAB_ALWAYS_INLINE clab_vec3 contact_force(penalty *p, const clab_world *w, const clab_contact *ci,
                                                   const clab_lever *lv, size_t i, const clab_vec3 *old,
                                                   const clab_penalty_pair *pair1, double h, int stream, int surface,
                                                   int rolling)
{
    const pen_body *A = &p->pb[ci->a], *B = &p->pb[ci->b];
    const clab_penalty_law *law = &p->law;
    const clab_penalty_pair *pp =
        pair1 ? pair1
              : &p->pairs[(size_t)w->bodies[ci->a].material * p->nmat + (size_t)w->bodies[ci->b].material];
    double delta_n = -ci->phi;
    double m_eff = clab_penalty_meff(A->m, pen_fixed(A), B->m, pen_fixed(B));
    /* clab_penalty_reff; Hooke with an explicit k_n does not read it */
    double R_eff = law->model == CLAB_PENALTY_HOOKE && pp->kn > 0.0 ? NAN : clab_penalty_reff(pen_rc(A), pen_rc(B));

    /* lever arms from the centers (world frame): to the contact point P, A(e) sbar (not P - r,
     * which is wrong through a periodic image), or (lever=surface) to each body's own surface
     * point P -+ Phi/2 n, LAMMPS's radii. A sphere touches anything on the line through its
     * center along n, with P midway between the two surfaces: A(e) sbar is (R_a + Phi/2) n as
     * a and -(R_b + Phi/2) n as b (R_a n and -R_b n to its surface point), taken so without
     * turning sbar by the orientation (equal to rounding; body_sums sums its torque
     * with the same levers). Another body's sbar: stored (clab_contact_levers; lv: the side
     * array), never derived, as one side is not a sphere */
    clab_vec3 la, lb, sa, sb;
    if (pen_sphere(A)) {
        la = clab_v3_scale(ci->n, surface ? A->R : A->R + 0.5 * ci->phi);
    } else {
        clab_contact_levers(ci, lv, w->bodies, &sa, &sb);
        la = clab_q_rotate(w->bodies[ci->a].e, sa);
        if (surface) la = clab_v3_madd(la, -0.5 * ci->phi, ci->n);
    }
    if (pen_sphere(B)) {
        lb = clab_v3_scale(ci->n, -(surface ? B->R : B->R + 0.5 * ci->phi));
    } else {
        clab_contact_levers(ci, lv, w->bodies, &sa, &sb);
        lb = clab_q_rotate(w->bodies[ci->b].e, sb);
        if (surface) lb = clab_v3_madd(lb, 0.5 * ci->phi, ci->n);
    }

    /* relative velocity of the contact point, b with respect to a: v = rdot + omega x l */
    clab_vec3 v = clab_v3_sub(clab_v3_add(B->rdot, clab_v3_cross(B->omega, lb)),
                              clab_v3_add(A->rdot, clab_v3_cross(A->omega, la)));
    double vn = clab_v3_dot(v, ci->n);
    clab_vec3 vt = clab_v3_madd(v, -vn, ci->n);

    /* history: last step's delta_t onto the current tangent plane, plus this step's slip
     * (none at the first step with history_start=zero: the initial state has no history) */
    clab_vec3 delta_t = !old                 ? clab_v3(0.0, 0.0, 0.0)
                        : p->history_project ? clab_penalty_project_history(*old, ci->n)
                                             : clab_penalty_rotate_history(*old, ci->n);
    if (!(p->history_zero && !p->started)) delta_t = clab_v3_madd(delta_t, h, vt);

    /* the force law of seed 002 with the Coulomb cap */
    clab_penalty_coef k = clab_penalty_coefficients(law, pp, delta_n, m_eff, R_eff);
    double Fn;
    clab_vec3 Ft;
    clab_penalty_contact_force(law, k, pp->mu, delta_n, vn, vt, &delta_t, &Fn, &Ft);
    clab_history_put_at(&p->hist, i, ci->key, delta_t);

    /* F on b, -F on a (torques l x F: summed per body, in its frame) */
    clab_vec3 Fb = clab_v3_madd(Ft, Fn, ci->n);

    /* optional rolling resistance: a pure couple */
    if (rolling && pp->mu_roll > 0.0) {
        const clab_body *BA = &w->bodies[ci->a], *BB = &w->bodies[ci->b];
        clab_vec3 wrel = clab_v3_sub(B->omega, A->omega);
        clab_vec3 axis = clab_v3_normalize(clab_v3_madd(wrel, -clab_v3_dot(wrel, ci->n), ci->n));
        clab_vec3 M = clab_penalty_rolling_torque(pp->mu_roll, Fn, wrel, ci->n, inv_inertia_about(BA, axis),
                                                  inv_inertia_about(BB, axis), h);
        p->Mr[i] = M;
    } else if (rolling) {
        p->Mr[i] = clab_v3(0.0, 0.0, 0.0);
    }
    store_v3(&p->Fc[i], Fb, stream);
    return Fb;
}

#ifdef CLAB_V2
/* contact_force of contacts i and i + 1 at once, both touching and between spheres, when the
 * step has one material pair pp, no rolling couples, no clamp, the cap total or lammps, and
 * Hertz or Hooke with an explicit k_n (pair_lanes): lane l the operations of contact_force
 * for contact i + l in the same order, its branches as lane selects of both sides (each side
 * formed as there), so the same bits; the history's entries, Fc, and the forces on b into F */
static CLAB_ALWAYS_INLINE void contact_force2(penalty *p, const clab_contact *c0, const clab_contact *c1, size_t i,
                                              const clab_penalty_pair *pp, double h, int surface, clab_vec3 F[2])
{
    const pen_body *A0 = &p->pb[c0->a], *B0 = &p->pb[c0->b], *A1 = &p->pb[c1->a], *B1 = &p->pb[c1->b];
    const clab_penalty_law *law = &p->law;
    const clab_v2d zero = clab_v2_set1(0.0), inf = clab_v2_set1(INFINITY);
    const clab_v2d phi = {c0->phi, c1->phi}, delta_n = -phi;
    const clab_v2v3 n = clab_v2v3_pair(c0->n, c1->n);
    /* clab_penalty_meff: a fixed a gives m_b, else a fixed b m_a */
    const clab_v2d ma = {A0->m, A1->m}, mb = {B0->m, B1->m};
    const clab_v2d m_eff = clab_v2_select(ma == inf, mb, clab_v2_select(mb == inf, ma, ma * mb / (ma + mb)));
    /* the lever arms of spheres, and the relative velocity of the contact point */
    const clab_v2d Ra = {A0->R, A1->R}, Rb = {B0->R, B1->R};
    const clab_v2v3 la = clab_v2v3_scale(n, surface ? Ra : Ra + 0.5 * phi);
    const clab_v2v3 lb = clab_v2v3_scale(n, -(surface ? Rb : Rb + 0.5 * phi));
    const clab_v2v3 v = clab_v2v3_sub(
        clab_v2v3_add(clab_v2v3_pair(B0->rdot, B1->rdot), clab_v2v3_cross(clab_v2v3_pair(B0->omega, B1->omega), lb)),
        clab_v2v3_add(clab_v2v3_pair(A0->rdot, A1->rdot), clab_v2v3_cross(clab_v2v3_pair(A0->omega, A1->omega), la)));
    const clab_v2d vn = clab_v2v3_dot(v, n);
    const clab_v2v3 vt = clab_v2v3_madd(v, -vn, n);
    /* the history onto the tangent plane (a new contact's lane holds +0, which both turns give
     * back as the +0 contact_force starts from), plus the slip */
    const clab_vec3 *o0 = clab_history_at(&p->hist, i), *o1 = clab_history_at(&p->hist, i + 1);
    const clab_vec3 z3 = clab_v3(0.0, 0.0, 0.0);
    clab_v2v3 delta_t = clab_v2v3_pair(o0 ? *o0 : z3, o1 ? *o1 : z3);
    if (p->history_project) { /* clab_penalty_project_history */
        delta_t = clab_v2v3_madd(delta_t, -clab_v2v3_dot(delta_t, n), n);
    } else { /* clab_penalty_rotate_history */
        const clab_v2d len2 = clab_v2v3_norm2(delta_t);
        const clab_v2v3 pt = clab_v2v3_madd(delta_t, -clab_v2v3_dot(delta_t, n), n);
        const clab_v2d p2 = clab_v2v3_norm2(pt);
        const clab_v2v3 turned = clab_v2v3_select(p2 > zero, clab_v2v3_scale(pt, clab_v2_sqrt(len2 / p2)),
                                                  (clab_v2v3){zero, zero, zero});
        delta_t = clab_v2v3_select(len2 == zero, delta_t, turned);
    }
    if (!(p->history_zero && !p->started)) delta_t = clab_v2v3_madd(delta_t, clab_v2_set1(h), vt);
    /* clab_penalty_coefficients */
    clab_v2d kn, kt, cn, ct;
    if (law->model == CLAB_PENALTY_HOOKE) { /* k_n explicit (pair_lanes) */
        kn = clab_v2_set1(pp->kn);
        kt = clab_v2_set1(pp->kt > 0.0 ? pp->kt : 2.0 / 7.0 * pp->kn);
        cn = pp->gn >= 0.0 ? pp->gn * m_eff : -2.0 * pp->beta * clab_v2_sqrt(kn * m_eff);
        ct = pp->gt >= 0.0 ? pp->gt * m_eff : -2.0 * pp->beta * clab_v2_sqrt(kt * m_eff);
    } else {
        const clab_v2d ra = Ra, rb = Rb, lo = clab_v2_select(ra < rb, ra, rb), hi = clab_v2_select(ra < rb, rb, ra);
        const clab_v2d R_eff = clab_v2_select(hi > clab_v2_set1(DBL_MAX), lo, ra * rb / (ra + rb)); /* clab_penalty_reff */
        const clab_v2d srd = clab_v2_sqrt(R_eff * delta_n);
        kn = pp->kn > 0.0 ? pp->kn * clab_v2_sqrt(delta_n) : 4.0 / 3.0 * pp->Estar * srd;
        kt = pp->kt > 0.0 ? pp->kt * clab_v2_sqrt(delta_n) : 8.0 * pp->Gstar * srd;
        const double c = -2.0 * sqrt(5.0 / 6.0) * pp->beta;
        const clab_v2d cnd = c * clab_v2_sqrt(1.5 * kn * m_eff);
        cn = pp->gn >= 0.0 ? pp->gn * m_eff * clab_v2_sqrt(delta_n / R_eff) : cnd;
        ct = pp->gt >= 0.0      ? pp->gt * m_eff * clab_v2_sqrt(delta_n / R_eff)
             : pp->st_sn >= 0.0 ? cnd * pp->st_sn
                                : c * clab_v2_sqrt(kt * m_eff);
    }
    /* clab_penalty_contact_force, cap total or lammps, no clamp */
    const clab_v2d fn = kn * delta_n - cn * vn;
    const clab_v2d Fmax =
        pp->mu * clab_v2_select(fn > zero, fn, law->cap == CLAB_PENALTY_CAP_LAMMPS ? -fn : zero);
    clab_v2v3 ft = clab_v2v3_add(clab_v2v3_scale(delta_t, -kt), clab_v2v3_scale(vt, -ct));
    const clab_v2d ftn = clab_v2v3_norm(ft);
    ft = clab_v2v3_scale(ft, clab_v2_min(Fmax / ftn, clab_v2_set1(1.0)));
    const clab_v2v3 dslide = clab_v2v3_select(kt > zero, clab_v2v3_scale(clab_v2v3_add(ft, clab_v2v3_scale(vt, ct)), -1.0 / kt),
                                              (clab_v2v3){zero, zero, zero});
    delta_t = clab_v2v3_select(ftn > Fmax, dslide, delta_t);
    clab_history_put_at(&p->hist, i, c0->key, clab_v2v3_lane(delta_t, 0));
    clab_history_put_at(&p->hist, i + 1, c1->key, clab_v2v3_lane(delta_t, 1));
    /* F on b */
    const clab_v2v3 Fb = clab_v2v3_madd(ft, fn, n);
    F[0] = clab_v2v3_lane(Fb, 0), F[1] = clab_v2v3_lane(Fb, 1);
    store_v3(&p->Fc[i], F[0], 1);
    store_v3(&p->Fc[i + 1], F[1], 1);
}

/* the step's contacts can go two at a time (contact_force2): one material pair, no rolling
 * couples, no clamp, the cap total or lammps, Hertz or Hooke with an explicit k_n */
static int pair_lanes(const penalty *p, const clab_penalty_pair *pair1, int rolling)
{
    return pair1 && !rolling && !p->law.clamp && p->law.cap != CLAB_PENALTY_CAP_SPRING &&
           (p->law.model == CLAB_PENALTY_HERTZ || pair1->kn > 0.0);
}

/* contacts i and i + 1 both touching, between spheres */
static inline int spheres_touching2(const pen_body *pb, const clab_contact *c0, const clab_contact *c1)
{
    return -c0->phi > 0.0 && -c1->phi > 0.0 && pen_sphere(&pb[c0->a]) && pen_sphere(&pb[c0->b]) &&
           pen_sphere(&pb[c1->a]) && pen_sphere(&pb[c1->b]);
}
#endif

/* The contacts by body b, one segment of blist a thread of the contact loop: thread u (of T)
 * took contacts [base[u], base[u + 1]), base[u] = nc u / T, and its contacts with b = i are
 * blist[base[u] + row_u[i] .. base[u] + row_u[i + 1]), row_u = brow + u (nb + 1); thread by
 * thread, in contact order. Each thread sorts its own contacts (place_by_b), no thread waits
 * for another's counts */
typedef struct by_b {
    const uint32_t *blist, *brow;
    const size_t *base;
    size_t nb;
    int T;
} by_b;

/* the contacts of body i as b, segment u: [*q0, *q1) of blist */
static inline void by_b_range(const by_b *L, size_t i, int u, size_t *q0, size_t *q1)
{
    const uint32_t *row = L->brow + (size_t)u * (L->nb + 1);
    *q0 = L->base[u] + row[i];
    *q1 = L->base[u] + row[i + 1];
}

/* the contacts before body i as b (all segments) */
static inline size_t by_b_before(const by_b *L, size_t i)
{
    size_t n = 0;
    for (int u = 0; u < L->T; u++) n += L->brow[(size_t)u * (L->nb + 1) + i];
    return n;
}

/* Thread t's contacts [k0, k1) sorted by b into blist[k0 .. k1), from the counts row[b + 1]
 * (row: nb + 1 entries, row[0] = 0): the counts turned into offsets, each contact's place,
 * the offsets shifted back to starts (by_b) */
static void place_by_b(const clab_contact *cc, size_t k0, size_t k1, size_t nb, uint32_t *row, uint32_t *blist)
{
    for (size_t j = 0; j < nb; j++) row[j + 1] += row[j];
    for (size_t k = k0; k < k1; k++) blist[k0 + row[cc[k].b]++] = (uint32_t)k;
    for (size_t j = nb; j > 0; j--) row[j] = row[j - 1];
    row[0] = 0;
}

/* The contact sums of body i, in contact order (as b: its segments of the lists by b, then as
 * a: [a0, a1) of the contacts, through alist when given): the force F and the torques l x F.
 * A sphere's lever to a contact point lies on the normal (every narrow-phase routine puts P
 * on the line through its center along n, Phi/2 outside its surface): l = -h n as b and
 * +h n as a, h = R + Phi/2 (or R, lever=surface), so both sides add -h (n x F), summed in the
 * world frame (the body loop turns it once, taubar = A^T tau). Any other body sums
 * lbar x (A^T F) in its own frame, lbar = sbar (or the surface point, lever=surface).
 * contact_scatter adds the same terms in the same order (contact order), one contact at a time. */
static CLAB_ALWAYS_INLINE void body_sums(const clab_world *w, size_t i, const pen_body *pi, const clab_contact *cc,
                                         const clab_lever *lv, const clab_vec3 *Fc, const clab_vec3 *Mr, const by_b *LB,
                                         const uint32_t *alist, uint32_t a0, uint32_t a1, int surface, int rolling,
                                         clab_vec3 *F_out, clab_vec3 *tau_out)
{
    clab_vec3 F = clab_v3(0.0, 0.0, 0.0), tau = F;
    const uint32_t *blist = LB->blist;
    if (pen_sphere(pi)) {
        const double R = pi->R;
        for (int u = 0; u < LB->T; u++) {
            size_t q0, q1;
            by_b_range(LB, i, u, &q0, &q1);
            for (size_t q = q0; q < q1; q++) {
                uint32_t k = blist[q];
                double hk = surface ? R : R + 0.5 * cc[k].phi;
                F = clab_v3_add(F, Fc[k]);
                tau = clab_v3_madd(tau, -hk, clab_v3_cross(cc[k].n, Fc[k]));
                if (rolling) tau = clab_v3_add(tau, Mr[k]);
            }
        }
        for (uint32_t q = a0; q < a1; q++) {
            uint32_t k = alist ? alist[q] : q;
            double hk = surface ? R : R + 0.5 * cc[k].phi;
            F = clab_v3_sub(F, Fc[k]);
            tau = clab_v3_madd(tau, -hk, clab_v3_cross(cc[k].n, Fc[k]));
            if (rolling) tau = clab_v3_sub(tau, Mr[k]);
        }
    } else {
        clab_mat33 A = clab_q_to_A(w->bodies[i].e);
        for (int u = 0; u < LB->T; u++) {
            size_t q0, q1;
            by_b_range(LB, i, u, &q0, &q1);
            for (size_t q = q0; q < q1; q++) {
                uint32_t k = blist[q];
                clab_vec3 Fbar = clab_m33_tmulv(A, Fc[k]), l, sa;
                clab_contact_levers(&cc[k], lv, w->bodies, &sa, &l); /* stored: body i is not a sphere */
                if (surface) l = clab_v3_madd(l, 0.5 * cc[k].phi, clab_m33_tmulv(A, cc[k].n));
                F = clab_v3_add(F, Fc[k]);
                tau = clab_v3_add(tau, clab_v3_cross(l, Fbar));
                if (rolling) tau = clab_v3_add(tau, clab_m33_tmulv(A, Mr[k]));
            }
        }
        for (uint32_t q = a0; q < a1; q++) {
            uint32_t k = alist ? alist[q] : q;
            clab_vec3 Fbar = clab_m33_tmulv(A, Fc[k]), l, sb;
            clab_contact_levers(&cc[k], lv, w->bodies, &l, &sb);
            if (surface) l = clab_v3_madd(l, -0.5 * cc[k].phi, clab_m33_tmulv(A, cc[k].n));
            F = clab_v3_sub(F, Fc[k]);
            tau = clab_v3_sub(tau, clab_v3_cross(l, Fbar));
            if (rolling) tau = clab_v3_sub(tau, clab_m33_tmulv(A, Mr[k]));
        }
    }
    *F_out = F;
    *tau_out = tau;
}

/* the term of side j (as_b: body b, else a) of contact ck when that body is not a sphere:
 * +-1 times lbar x (A^T F) in its own frame (the same bits as adding or subtracting it), lbar
 * its stored lever (moved to its surface point by -+Phi/2 n with lever=surface), and +-A^T M */
static CLAB_ALWAYS_INLINE void frame_term(const clab_world *w, const clab_contact *ck, const clab_lever *lv, int as_b,
                                          clab_vec3 F, clab_vec3 M, int surface, int rolling, pen_term *t)
{
    const clab_mat33 A = clab_q_to_A(w->bodies[as_b ? ck->b : ck->a].e);
    clab_vec3 la, lb;
    clab_contact_levers(ck, lv, w->bodies, &la, &lb); /* stored: this side is not a sphere */
    clab_vec3 l = as_b ? lb : la;
    if (surface) l = clab_v3_madd(l, (as_b ? 0.5 : -0.5) * ck->phi, clab_m33_tmulv(A, ck->n));
    t->s = as_b ? 1.0 : -1.0;
    t->c = clab_v3_cross(l, clab_m33_tmulv(A, F));
    if (rolling) t->M = clab_m33_tmulv(A, M);
}

/* the term of side j (as_b: body b, else a) of contact ck with force F and couple M, the term
 * of body_sums: a sphere adds -h (n x F), h = R + Phi/2 (R, lever=surface); any other body
 * frame_term. Reads no other body */
static CLAB_ALWAYS_INLINE void side_term(const pen_body *pb, const clab_world *w, const clab_contact *ck,
                                         const clab_lever *lv, int as_b, clab_vec3 F, clab_vec3 M, int surface,
                                         int rolling, pen_term *t)
{
    const pen_body *J = &pb[as_b ? ck->b : ck->a];
    *t = (pen_term){F, F, M, 0.0, (uint32_t)(as_b ? ck->b : ck->a), as_b ? 1 : -1};
    if (pen_sphere(J)) {
        t->s = -(surface ? J->R : J->R + 0.5 * ck->phi);
        t->c = clab_v3_cross(ck->n, F);
    } else {
        frame_term(w, ck, lv, as_b, F, M, surface, rolling, t);
    }
}

/* Contact k's force F (on b; -F on a) and rolling couple M as the terms of its two bodies'
 * sums (tb for b, ta for a): side_term's, with one cross product for both when both are
 * spheres. The couple M only with rolling */
static CLAB_ALWAYS_INLINE void contact_terms(const pen_body *pb, const clab_world *w, const clab_contact *ck,
                                             const clab_lever *lv, clab_vec3 F, clab_vec3 M, int surface, int rolling,
                                             pen_term *ta, pen_term *tb)
{
    const pen_body *A = &pb[ck->a], *B = &pb[ck->b];
    *tb = (pen_term){F, F, M, 0.0, (uint32_t)ck->b, 1};
    *ta = (pen_term){F, F, M, 0.0, (uint32_t)ck->a, -1};
    if (pen_sphere(A) && pen_sphere(B)) { /* the common case: one cross product for both */
        const clab_vec3 c = clab_v3_cross(ck->n, F);
        tb->c = ta->c = c;
        tb->s = -(surface ? B->R : B->R + 0.5 * ck->phi);
        ta->s = -(surface ? A->R : A->R + 0.5 * ck->phi);
        return;
    }
    side_term(pb, w, ck, lv, 1, F, M, surface, rolling, tb);
    side_term(pb, w, ck, lv, 0, F, M, surface, rolling, ta);
}

/* a term added to its body's sums: F + F_k or F - F_k, tau + s c (a sphere's -h (n x F); +-1
 * times another body's product: x + 1 y = x + y, x + (-1) y = x - y, exactly), then +-M */
static CLAB_ALWAYS_INLINE void term_add(pen_acc *x, const pen_term *e, int rolling)
{
    x->F = e->sign > 0 ? clab_v3_add(x->F, e->F) : clab_v3_sub(x->F, e->F);
    x->tau = clab_v3_madd(x->tau, e->s, e->c);
    if (rolling) x->tau = e->sign > 0 ? clab_v3_add(x->tau, e->M) : clab_v3_sub(x->tau, e->M);
}

/* Contact k's terms added to the sums of its two bodies (acc): on one thread, in contact order,
 * each body gets them in the order body_sums takes them when the contacts run by body a (a
 * body's contacts as b, whose a is lower, all come before its contacts as a), so the sums are
 * the same to the bit */
static CLAB_ALWAYS_INLINE void contact_scatter(pen_acc *acc, const pen_body *pb, const clab_world *w,
                                               const clab_contact *ck, const clab_lever *lv, clab_vec3 F,
                                               clab_vec3 M, int surface, int rolling)
{
    pen_term ta, tb;
    contact_terms(pb, w, ck, lv, F, M, surface, rolling, &ta, &tb);
    term_add(&acc[tb.j], &tb, rolling);
    term_add(&acc[ta.j], &ta, rolling);
}

/* one term of the split scatter (below): added to body j's sums at once, or kept (side, as
 * the contact and its side k2) for j's owner */
static CLAB_ALWAYS_INLINE void split_term(pen_acc *acc, pen_side *side, const uint32_t *low, uint32_t B0,
                                          uint32_t B1, const pen_term *e, size_t k2, int rolling)
{
    const uint32_t j = e->j;
    if (j >= B0 && j < B1 && low[j] >= B0) {
        term_add(&acc[j], e, rolling);
    } else if (side->n < side->cap || !grow(&side->e, &side->cap, side->n + 1, sizeof(pen_kept))) {
        side->e[side->n++] = (pen_kept){j, (uint32_t)k2};
    } else {
        side->nomem = 1;
    }
}

/* The split scatter of thread t, which takes the contacts of bodies a in [B0, B1) (the
 * contacts sorted by a): a term of a body j in [B0, B1) that no contact of a lower thread
 * touches (low[j] >= B0, clab_contacts.low) is added to its sums at once, as one thread adds
 * them; every other term is kept (side, in contact order) for the owner of j, which adds them
 * after the contact loop, thread by thread (split_add). Body j's sums are then formed in
 * contact order as on one thread: the same bits. Returns 1 when low is wrong for this contact
 * (low[b] > a: b's owner may have taken b for untouched by lower threads), 0 else; a term not
 * kept for want of memory sets side->nomem */
static CLAB_ALWAYS_INLINE int split_scatter(pen_acc *acc, pen_side *side, const uint32_t *low, uint32_t B0,
                                            uint32_t B1, const pen_body *pb, const clab_world *w,
                                            const clab_contact *ck, size_t k, const clab_lever *lv, clab_vec3 F,
                                            clab_vec3 M, int surface, int rolling)
{
    /* the two terms as separate locals, not an array walked by a loop: the compiler keeps
     * them in registers (as an array in memory, a 16-byte load of a term's couple right after
     * its two 8-byte stores stalled on the failed store forwarding, a sixth of the two-thread
     * contact loop) */
    pen_term ta, tb;
    contact_terms(pb, w, ck, lv, F, M, surface, rolling, &ta, &tb);
    split_term(acc, side, low, B0, B1, &ta, 2 * k, rolling);
    split_term(acc, side, low, B0, B1, &tb, 2 * k + 1, rolling);
    return low[ck->b] > (uint32_t)ck->a;
}

/* the loops that read bodies or contacts in random order ask for them (CLAB_PREFETCH,
 * clab_math.h) this many items ahead */
#define PEN_AHEAD 8

/* after the split scatter: the terms the threads kept for bodies [B0, B1), added thread by
 * thread, each thread's in contact order, each formed again from its contact's kept force Fc
 * and couple Mr (side_term reads only the body of its side, which is this thread's) */
static void split_add(pen_acc *acc, const pen_side *side, int T, uint32_t B0, uint32_t B1, const pen_body *pb,
                      const clab_world *w, const clab_contact *cc, const clab_lever *lv, const clab_vec3 *Fc,
                      const clab_vec3 *Mr, int surface, int rolling)
{
    const clab_vec3 zero = clab_v3(0.0, 0.0, 0.0);
    for (int u = 0; u < T; u++)
        for (size_t q = 0; q < side[u].n; q++) {
            const pen_kept *e = &side[u].e[q];
            if (q + PEN_AHEAD < side[u].n) { /* a later term's body and contact: random reads, started early */
                const pen_kept *f = &side[u].e[q + PEN_AHEAD];
                if (f->j >= B0 && f->j < B1) {
                    CLAB_PREFETCH(&pb[f->j]);
                    CLAB_PREFETCH(&acc[f->j]);
                    CLAB_PREFETCH(&cc[f->k2 / 2]);
                    CLAB_PREFETCH(&Fc[f->k2 / 2]);
                }
            }
            if (e->j < B0 || e->j >= B1) continue;
            const size_t k = e->k2 / 2;
            pen_term t;
            side_term(pb, w, &cc[k], lv, (int)(e->k2 & 1u), Fc[k], rolling ? Mr[k] : zero, surface, rolling, &t);
            term_add(&acc[e->j], &t, rolling);
        }
}

/* Body i's update from its contact sums F, tau (body_sums or contact_scatter): a sphere's
 * torque, summed in the world frame, turned into its own, taubar = A^T tau (not when it is
 * zero, e.g. a body without contacts, or the orientation is the identity); then the
 * explicit integration (integrator.h). still: PEN_TURNS, or (sphere_orientation=off) still_of
 * the body. */
static CLAB_ALWAYS_INLINE void body_integrate(clab_world *w, size_t i, unsigned char still, clab_vec3 F, clab_vec3 tau,
                                              double h, clab_penalty_integrator scheme, int first)
{
    const int turn_tau = still != PEN_STILL_IDENTITY && (tau.x != 0.0 || tau.y != 0.0 || tau.z != 0.0);
    if (turn_tau && w->bodies[i].shape.type == CLAB_SHAPE_SPHERE) tau = clab_q_rotate_inv(w->bodies[i].e, tau);
    clab_penalty_integrate_body_turn(w, i, F, tau, h, scheme, first, still == PEN_TURNS);
}

/* PEN_TURNS, or for a sphere of isotropic inertia (whose motion does not depend on e) under
 * sphere_orientation=off PEN_STILL (e is not advanced) or PEN_STILL_IDENTITY (and A(e) = 1) */
static inline unsigned char still_of(const clab_body *b)
{
    if (b->shape.type == CLAB_SHAPE_SPHERE && b->J.x == b->J.y && b->J.y == b->J.z)
        return clab_q_is_identity(b->e) ? PEN_STILL_IDENTITY : PEN_STILL;
    return PEN_TURNS;
}

/* 1. what the contact loop reads of bodies [i0, i1), in one array: the angular velocity in the
 *    world frame A(e) wbar once a body, not twice a contact (a still sphere at the identity,
 *    sphere_orientation=off, needs no turn: wbar; off: still_of each body into still). Returns
 *    1 when a body of the range has a material other than m0. off: a constant in each of the
 *    two copies below */
static CLAB_ALWAYS_INLINE int gather_range_of(const clab_world *w, pen_body *pb, unsigned char *still, int m0,
                                              size_t i0, size_t i1, const int off)
{
    int mixed = 0;
    for (size_t i = i0; i < i1; i++) {
        const clab_body *b = &w->bodies[i];
        int identity = 0;
        if (off) {
            still[i] = still_of(b);
            identity = still[i] == PEN_STILL_IDENTITY;
        }
        pb[i].rdot = b->rdot;
        pb[i].omega = identity ? b->wbar : clab_body_omega_world(b);
        pb[i].m = b->fixed ? INFINITY : b->m;
        const int sphere = b->shape.type == CLAB_SHAPE_SPHERE;
        pb[i].R = sphere ? b->shape.radius : -contact_radius(&b->shape);
        mixed |= b->material != m0;
    }
    return mixed;
}

static CLAB_NOINLINE int gather_range(const clab_world *w, pen_body *pb, int m0, size_t i0, size_t i1)
{
    return gather_range_of(w, pb, NULL, m0, i0, i1, 0);
}
static CLAB_NOINLINE int gather_range_still(const clab_world *w, pen_body *pb, unsigned char *still, int m0, size_t i0,
                                            size_t i1)
{
    return gather_range_of(w, pb, still, m0, i0, i1, 1);
}

/* the gather ahead of the step (clab_backend.h: gather_begin, gather): the arrays for the
 * world's bodies, then gather_range on each range the collider's skin test hands over */
static int penalty_gather_begin(void *self, const clab_world *w, clab_error *err)
{
    penalty *p = self;
    p->pre_n = 0;
    p->pre_step = -1; /* until ready */
    if (reserve_bodies(p, w->nbodies))
        return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory for %zu bodies", w->nbodies);
    p->pre_nb = w->nbodies;
    p->pre_step = w->step;
    p->pre_m0 = w->nbodies ? w->bodies[0].material : 0;
    p->pre_mixed = 0;
    return CLAB_OK;
}

static void penalty_gather(void *self, const clab_world *w, size_t i0, size_t i1)
{
    penalty *p = self;
    if (p->pre_step != w->step || i1 > p->pre_nb) return; /* not readied: the step gathers itself */
    const int mixed = p->orientation_off ? gather_range_still(w, p->pb, p->still, p->pre_m0, i0, i1)
                                         : gather_range(w, p->pb, p->pre_m0, i0, i1);
    if (mixed) {
#pragma omp atomic write
        p->pre_mixed = 1;
    }
#pragma omp atomic update
    p->pre_n += i1 - i0;
}

/* the bodies a and b of contact k as array indices (the sorts of step 3 read them from the
 * records, no copies) */
static inline uint32_t body_a(const clab_contact *cc, size_t k) { return (uint32_t)cc[k].a; }
static inline uint32_t body_b(const clab_contact *cc, size_t k) { return (uint32_t)cc[k].b; }

/* what the body loop reads (penalty_advance's locals) */
typedef struct body_loop {
    clab_world *w;
    const pen_body *pb;
    const unsigned char *still; /* sphere_orientation=off: still_of each body */
    const clab_contact *cc;
    const clab_lever *lv; /* the contacts' side array (levers of the sides other than spheres) */
    const clab_vec3 *Fc, *Mr;
    by_b lb;                        /* the lists by b (not with acc) */
    const uint32_t *alist, *astart; /* contacts not in order of a: lists by a; NULL when they are */
    pen_acc *acc; /* the sums contact_scatter (split_scatter and split_add) formed (cleared here as they
                   * are read, every body's); NULL: formed here from the lists */
    size_t nc;
    const clab_periodic *per;
    const double *wlo, *whi; /* the box along the periodic axes, all space along the others */
    double h, v2lim;
    clab_penalty_integrator scheme;
    int surface, rolling, first, wrap, screen;
} body_loop;

/* 4. each free body i in [i0, i1): its contact forces summed in contact order (as b, then as
 *    a) and their torques (body_sums; on one thread, contact_scatter did it already: acc),
 *    then the explicit integration (body_integrate); bodies are independent, and the sums do
 *    not depend on the thread count. The contacts in
 *    order of a (the narrow phase's, sorted by key) give each body's run as a from a cursor:
 *    the first contact with a >= i0 by binary search, then each body's run where the last one
 *    ended (no array a body); otherwise alist by astart. With screen,
 *    the same pass wraps the center (periodic axes, wrap) and screens the state: a sum of the
 *    13 numbers is finite when they all are (an overflow only makes the screen cautious), and
 *    the speed is compared squared with a margin, so clab_world_check_state, run when
 *    anything is suspect, has the last word. Returns 1 when some body is suspect. off: the
 *    option sphere_orientation=off (a constant in each of the two copies below, so the usual
 *    one has no test for it) */
static CLAB_ALWAYS_INLINE int body_range_of(const body_loop *L, size_t i0, size_t i1, const int off)
{
    clab_world *w = L->w;
    const pen_body *pb = L->pb;
    const clab_contact *cc = L->cc;
    const size_t nb = w->nbodies, nc = L->nc;
    int bad = 0;
    double ssum = 0.0, v2max = 0.0; /* the screen's sum of the states and largest squared speed */
    pen_acc *acc = L->acc;
    const clab_vec3 zero = clab_v3(0.0, 0.0, 0.0);
    /* the cursor: the first contact with a >= i0 */
    size_t ka = L->alist || acc ? 0 : clab_contacts_first_a(cc, nc, i0);
    for (size_t i = i0; i < i1; i++) {
        clab_body *bi = &w->bodies[i];
        uint32_t a0 = 0, a1 = 0;
        clab_vec3 F = zero, tau = zero;
        if (acc) { /* the sums are formed: read, and left zero for the next step */
            F = acc[i].F;
            tau = acc[i].tau;
            acc[i] = (pen_acc){zero, zero};
        } else if (L->alist) {
            a0 = L->astart[i];
            a1 = L->astart[i + 1];
        } else {
            a0 = (uint32_t)ka;
            while (ka < nc && body_a(cc, ka) == i) ka++;
            a1 = (uint32_t)ka;
        }
        if (!acc && i + PEN_AHEAD < nb) {
            /* a later body's first contact as b (random in the contact array): n, phi and its
             * force, started early (a record of 56 bytes spans at most two cache lines) */
            size_t q0, q1;
            by_b_range(&L->lb, i + PEN_AHEAD, 0, &q0, &q1);
            if (q0 == q1 && L->lb.T > 1) by_b_range(&L->lb, i + PEN_AHEAD, 1, &q0, &q1);
            if (q0 < q1) {
                uint32_t k = L->lb.blist[q0];
                CLAB_PREFETCH(&cc[k].n);
                CLAB_PREFETCH(&cc[k].phi);
                CLAB_PREFETCH(&L->Fc[k]);
            }
        }
        if (!bi->fixed) {
            /* off: a constant, so the usual copy has no test */
            const unsigned char still = off ? L->still[i] : PEN_TURNS;
            if (!acc) {
                body_sums(w, i, &pb[i], cc, L->lv, L->Fc, L->Mr, &L->lb, L->alist, a0, a1, L->surface, L->rolling,
                          &F, &tau);
            }
            body_integrate(w, i, still, F, tau, L->h, L->scheme, L->first);
            const double *lo = L->wlo, *hi = L->whi;
            /* inside: six compares and one branch (a NaN center is outside, as before) */
            if (L->wrap && !((bi->r.x >= lo[0]) & (bi->r.x < hi[0]) & (bi->r.y >= lo[1]) & (bi->r.y < hi[1]) &
                             (bi->r.z >= lo[2]) & (bi->r.z < hi[2])))
                clab_world_wrap_body(L->per, bi);
        }
        if (L->screen) {
            /* summed as a tree (four levels of additions, not a chain of twelve: the chain's
             * latency held back the next body), into the range's sum; the largest speed */
            double s = ((bi->r.x + bi->r.y) + (bi->r.z + bi->rdot.x)) +
                       ((bi->rdot.y + bi->rdot.z) + (bi->wbar.x + bi->wbar.y)) +
                       (((bi->wbar.z + bi->e.e0) + (bi->e.e1 + bi->e.e2)) + bi->e.e3);
            double v2 = clab_v3_norm2(bi->rdot);
            ssum += s;
            v2max = v2 > v2max ? v2 : v2max;
        }
    }
    /* the screen once a range, no branch a body: a NaN or an infinity anywhere makes the sum
     * non-finite (a NaN speed too: rdot is in it); a sum of finite values that overflows only
     * sends the range to the exact check (clab_world_check_state), as a suspect */
    if (L->screen) bad |= !isfinite(ssum) || !(v2max < L->v2lim && v2max < INFINITY);
    return bad;
}

/* two functions of their own (not inlined into the step: each gets the compiler's whole
 * inlining budget, and the body's update is inlined into them) */
static CLAB_NOINLINE int body_range(const body_loop *L, size_t i0, size_t i1) { return body_range_of(L, i0, i1, 0); }
static CLAB_NOINLINE int body_range_still(const body_loop *L, size_t i0, size_t i1)
{
    return body_range_of(L, i0, i1, 1);
}

/* the body loop's work on bodies [0, i): a body costs BODY_SIDES contact sides (its
 * kicks, drift, wrap and screen against one contact's sums, about 200 and 35 instructions on
 * the chute), plus its contacts as b (by_b) and as a (astart, or where the contacts sorted
 * by a reach body i) */
#define BODY_SIDES 6
static size_t body_work(const body_loop *L, size_t i)
{
    const size_t as_a = L->alist ? L->astart[i] : clab_contacts_first_a(L->cc, L->nc, i);
    return BODY_SIDES * i + by_b_before(&L->lb, i) + as_a;
}

/* the first body of thread t's share of the nb bodies when T threads share the body loop's
 * work about equally (the first body whose work from body 0 reaches t / T of the whole; t =
 * T: nb). The sums of a body do not depend on which thread takes it */
static size_t body_cut(const body_loop *L, size_t nb, int t, int T)
{
    if (t >= T) return nb;
    if (t <= 0) return 0;
    const size_t target = (size_t)((double)body_work(L, nb) * (double)t / (double)T);
    size_t lo = 0, hi = nb;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (body_work(L, mid) < target) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The split scatter's cut: the first body of thread t's contacts (sorted by a), the body of
 * record k_t (its contacts all go to thread t); t = T: nb. k_t is nc f_t, f_t the balance of
 * the last steps' times of the contact loop (bal, clab_balance.h); until there is one, where
 * the collider's thread t started its records when it ran on T threads (c->part: the
 * collider cut its rows for about as much work each), else nc t / T. Every thread finds
 * every cut itself */
static size_t split_cut(const clab_contacts *c, const clab_balance *bal, size_t nb, int t, int T)
{
    const size_t nc = c->n;
    if (t >= T) return nb;
    if (t <= 0) return 0;
    size_t k = nc * (size_t)t / (size_t)T;
    if (bal->T == T) k = (size_t)(clab_balance_at(bal, t, T) * (double)nc);
    else if (c->part && c->nparts == T) k = c->part[t];
    if (k >= nc) return nc == 0 ? nb * (size_t)t / (size_t)T : nb;
    return (size_t)c->c[k].a;
}

/* below this many items a loop runs on one thread (waking threads costs more) */
#define PAR_MIN 4096

/* body b of contact j < k1, a random read of the contact loop, started early (one cache line
 * of pb, one of the sums) */
static inline void prefetch_b(const clab_contact *cc, const pen_body *pb, const pen_acc *acc, size_t j, size_t k1)
{
    if (j < k1) {
        const size_t bk = (size_t)cc[j].b;
        CLAB_PREFETCH(&pb[bk]);
        CLAB_PREFETCH(&acc[bk]);
    }
}

/* The contact loop of one thread over contacts [k0, k1) (step 2 of penalty_advance): each
 * contact's force (contact_force), added to its bodies' sums on one thread (split = 0:
 * contact_scatter, every contact) or split among threads (split = 1: split_scatter, thread t's
 * side, bodies [B0, B1)). Returns whether the contacts run by body a as far as this loop can
 * tell (split: whether low held). Inline with constant split, surface and rolling where the
 * caller knows them, so the compiler drops their branches from the loop */
static CLAB_ALWAYS_INLINE int contact_loop(penalty *p, const clab_world *w, const clab_contacts *c, const pen_body *pb,
                                           pen_acc *acc, pen_side *side, const uint32_t *low, size_t B0, size_t B1,
                                           size_t k0, size_t k1, const clab_penalty_pair *pair1, double h,
                                           int *dropped, const int split, const int surface, const int rolling)
{
    const clab_contact *cc = c->c;
    const clab_vec3 zero = clab_v3(0.0, 0.0, 0.0);
    int by_a = 1, wrong = 0;
#ifdef CLAB_V2
    const int lanes = pair_lanes(p, pair1, rolling);
#endif
    for (size_t i = k0; i < k1; i++) {
        const clab_contact *ci = &cc[i];
        prefetch_b(cc, pb, acc, i + PEN_AHEAD, k1);
        if (!split && i > 0 && body_a(cc, i - 1) > body_a(cc, i)) by_a = 0;
#ifdef CLAB_V2
        if (lanes && i + 1 < k1 && spheres_touching2(pb, ci, ci + 1)) { /* contacts i and i + 1 at once */
            prefetch_b(cc, pb, acc, i + 1 + PEN_AHEAD, k1);
            if (!split && body_a(cc, i) > body_a(cc, i + 1)) by_a = 0;
            clab_vec3 F2[2];
            contact_force2(p, ci, ci + 1, i, pair1, h, surface, F2);
            for (int l = 0; l < 2; l++) {
                if (split)
                    wrong |= split_scatter(acc, side, low, (uint32_t)B0, (uint32_t)B1, pb, w, ci + l, i + (size_t)l,
                                           c->lv, F2[l], zero, surface, 0);
                else
                    contact_scatter(acc, pb, w, ci + l, c->lv, F2[l], zero, surface, 0);
            }
            i++;
            continue;
        }
#endif
        clab_vec3 F = zero;
        if (!(-ci->phi > 0.0)) { /* inside the envelope but not touching: no force, history dropped */
            clab_history_drop_at(&p->hist, i);
            p->Fc[i] = zero;
            if (rolling) p->Mr[i] = zero;
            *dropped = 1;
        } else {
            F = contact_force(p, w, ci, c->lv, i, clab_history_at(&p->hist, i), pair1, h, 1, surface, rolling);
        }
        if (split)
            wrong |= split_scatter(acc, side, low, (uint32_t)B0, (uint32_t)B1, pb, w, ci, i, c->lv, F,
                                   rolling ? p->Mr[i] : zero, surface, rolling);
        else
            contact_scatter(acc, pb, w, ci, c->lv, F, rolling ? p->Mr[i] : zero, surface, rolling);
    }
    stream_end();
    return split ? !wrong : by_a;
}

/* the threads of a step with nb bodies and the contacts c, and *split: two or more threads
 * split the scatter (split_scatter) when the contacts run by a and their bounds low are
 * known (clab_collide's), else they sort their contacts by b */
static int step_threads(const clab_contacts *c, size_t nb, int *split)
{
    int nt = 1;
#ifdef _OPENMP
    if (nb > PAR_MIN || c->n > PAR_MIN) nt = omp_get_max_threads();
#endif
    *split = nt > 1 && c->increasing && c->low;
    return nt;
}

/* clab_backend.h: prepare. The step's arrays for these bodies and contacts (reserve_step, the
 * history's room), each written once; the history kept. The forces and rolling couples of
 * the last step are zeroed (clab_sim_prepare empties the contact list they belonged to), and
 * nothing is left gathered ahead (the rows of pb are zeroed) */
static int penalty_prepare(void *self, const clab_world *w, const clab_contacts *c, clab_error *err)
{
    penalty *p = self;
    int rc = check_world(p, w, err);
    if (rc) return rc;
    if (w->nmaterials != p->nmat && (rc = build_pairs(p, w, err))) return rc;
    const size_t nb = w->nbodies, nc = c->n;
    int split;
    const int nt = step_threads(c, nb, &split);
    if (reserve_step(p, nb, nc, nt, split) || clab_history_prepare(&p->hist, nc, nt))
        return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory for %zu bodies, %zu contacts", nb, nc);
    p->pre_n = 0;
    p->pre_step = -1;
    memset(p->pb, 0, p->cap_bodies * sizeof *p->pb);
    if (p->still) memset(p->still, 0, p->cap_still);
    p->nforces = 0;
    if (p->Fc) memset(p->Fc, 0, p->cap_forces * sizeof *p->Fc);
    if (p->Mr) memset(p->Mr, 0, p->cap_mr * sizeof *p->Mr);
    if (p->blist) memset(p->blist, 0, p->cap_blist * sizeof *p->blist);
    if (p->brow) memset(p->brow, 0, p->cap_brow * sizeof *p->brow);
    return CLAB_OK;
}

/* the step; with suspect (step_wrap of the type object) the body loop also wraps the moved
 * centers into the periodic box and screens every body for clab_world_check_state with vmax */
static int penalty_advance(void *self, clab_world *w, const clab_contacts *c, double h, double vmax, int *suspect,
                           clab_error *err)
{
    penalty *p = self;
    /* the world may have grown since the last step */
    int rc = check_world(p, w, err);
    if (rc) return rc;
    if (w->nmaterials != p->nmat && (rc = build_pairs(p, w, err))) return rc;
    const size_t nb = w->nbodies, nc = c->n;
    if (nc > UINT32_MAX / 2 || nb > UINT32_MAX / 2)
        return clab_error_set(err, CLAB_EINVAL, "penalty backend: %zu bodies, %zu contacts: more than 2^31", nb, nc);
    /* the step is one parallel region (its start and end wake and wait for the threads; a
     * barrier inside costs less). The contact loop runs over one contiguous range of
     * contacts a thread, [k0, k1), and finds on its way whether the contacts run by body a
     * and the counts of its sort by b, so the records are read once for both; each thread
     * then sorts its own contacts by b (by_b), so one barrier separates the contact loop from
     * the body loop. On one thread it adds each force to its two bodies' sums instead
     * (contact_scatter), and there is no sort; on more threads, when the contacts run by a
     * and their bounds low are known, each thread takes the contacts of a range of bodies a
     * and splits the scatter (split_scatter, split_add), and there is no sort either */
    int split;
    const int nt = step_threads(c, nb, &split);
    if (reserve_step(p, nb, nc, nt, split))
        return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory for %zu bodies, %zu contacts", nb, nc);
    const double t0 = clab_clock();
    double t1 = t0; /* the end of the contact loop (the first thread's) */
    /* entry i of the history becomes contact i's (history.h: in place, one generation) */
    if ((rc = clab_history_align(&p->hist, c->c, nc, c->increasing, c->part, c->nparts, err))) return rc;
    const clab_contact *cc = c->c;
    pen_body *pb = p->pb;
    /* gathered ahead of the step (penalty_gather), for these bodies at this step: not again */
    const int pre = p->pre_step == w->step && p->pre_nb == nb && p->pre_n == nb &&
                    p->pre_m0 == (nb ? w->bodies[0].material : 0);
    p->pre_n = 0;
    p->pre_step = -1;
    pen_acc *acc = nt == 1 || split ? p->acc : NULL;
    if (acc) p->acc_zero = 0; /* until the body loop has cleared them all */
    const clab_vec3 zero = clab_v3(0.0, 0.0, 0.0);
    uint32_t *alist = NULL, *astart = NULL;
    const int m0 = nb ? w->bodies[0].material : 0; /* every body's material, unless mixed */
    const int first = !p->started, surface = p->lever_surface, rolling = p->law.rolling == CLAB_PENALTY_ROLL_CDT;
    const clab_penalty_integrator scheme = p->integrator;
    const clab_vec3 *Fc = p->Fc, *Mr = p->Mr;
    const clab_periodic *per = &w->periodic;
    const int screen = suspect != NULL, wrap = screen && (per->on[0] || per->on[1] || per->on[2]);
    const double v2lim = vmax > 0.0 ? vmax * vmax * (1.0 - 1e-9) : INFINITY;
    double wlo[3], whi[3]; /* the box along the periodic axes, all space along the others: one
                            * test of six compares for the common case of a center inside */
    for (int k = 0; k < 3; k++) {
        wlo[k] = per->on[k] ? per->lo[k] : -INFINITY;
        whi[k] = per->on[k] ? per->hi[k] : INFINITY;
    }
    const int orientation_off = p->orientation_off;
    int by_a = 1, mixed = pre ? p->pre_mixed : 0, nomem = 0, bad = 0, dropped = 0;
    const uint32_t *low = c->low;
    int one_list = 0; /* the lists by b made on one thread after a scatter (one segment) */
    int balance_T = 0; /* the body loop's split on this many threads was timed (bal_bodies) */
#pragma omp parallel num_threads(nt) if (nt > 1) reduction(| : bad)
    {
        int t = 0, T = 1;
#ifdef _OPENMP
        t = omp_get_thread_num();
        T = omp_get_num_threads();
#endif
        /* split: the bodies [B0, B1) and their contacts as a, [k0, k1) */
        const size_t B0 = acc && T > 1 ? split_cut(c, &p->bal_contacts, nb, t, T) : 0;
        const size_t B1 = acc && T > 1 ? split_cut(c, &p->bal_contacts, nb, t + 1, T) : nb;
        const size_t k0 = acc && T > 1 ? clab_contacts_first_a(cc, nc, B0) : nc * (size_t)t / (size_t)T;
        const size_t k1 = acc && T > 1 ? clab_contacts_first_a(cc, nc, B1) : nc * (size_t)(t + 1) / (size_t)T;
        pen_side *side = acc && T > 1 ? &p->side[t] : NULL;
        if (side) side->n = 0, side->nomem = 0;
        /* this thread's offsets of its list by b (by_b; its counts at row[b + 1] first) */
        uint32_t *row = acc ? NULL : p->brow + (size_t)t * (nb + 1);

        /* 1. what the contact loop reads of the bodies (gather_range), and whether they all
         *    have one material; not when gathered ahead (pre: the rows zeroed below are each
         *    thread's own, so no barrier is needed then) */
        if (!pre) {
            const size_t i0 = nb * (size_t)t / (size_t)T, i1 = nb * (size_t)(t + 1) / (size_t)T;
            if (orientation_off ? gather_range_still(w, pb, p->still, m0, i0, i1) : gather_range(w, pb, m0, i0, i1)) {
#pragma omp atomic write
                mixed = 1;
            }
#pragma omp barrier
        }
        if (!acc) {
            for (size_t j = 0; j <= nb; j++) row[j] = 0;
            p->bbase[t] = k0;
        }
        int mixed_seen;
#pragma omp atomic read
        mixed_seen = mixed;
        const clab_penalty_pair *pair1 = mixed_seen || !nb ? NULL : &p->pairs[(size_t)m0 * p->nmat + (size_t)m0];

        /* 2. every contact, independently (its history is entry i, aligned above): its force;
         *    on the way, whether the contacts run by body a, and the count by b or (one
         *    thread, or split) the sums a body */
        int mine_by_a = 1, mine_dropped = 0;
        const double s0 = side ? clab_clock() : 0.0; /* the split's times (bal_contacts, bal_bodies) */
        if (acc) {
            /* split: contacts [k0, k1), by a (increasing), else all. The common cases (one
             * material pair, no rolling couples) with their flags constant */
#define PEN_LOOP(SPLIT, S, R) \
    contact_loop(p, w, c, pb, acc, side, low, B0, B1, k0, k1, pair1, h, &mine_dropped, SPLIT, S, R)
            if (side) {
                if (pair1 && !rolling) mine_by_a = surface ? PEN_LOOP(1, 1, 0) : PEN_LOOP(1, 0, 0);
                else mine_by_a = PEN_LOOP(1, surface, rolling);
            } else {
                if (pair1 && !rolling) mine_by_a = surface ? PEN_LOOP(0, 1, 0) : PEN_LOOP(0, 0, 0);
                else mine_by_a = PEN_LOOP(0, surface, rolling);
            }
#undef PEN_LOOP
            if (side) clab_balance_note(&p->bal_contacts, t, nc ? (double)k0 / (double)nc : 0.0, clab_clock() - s0);
            if (side && side->nomem) { /* (mine_by_a = 0 when low is wrong: the lists below, as
                                        * for contacts out of order) */
#pragma omp atomic write
                nomem = 1;
            }
        } else {
            for (size_t i = k0; i < k1; i++) {
                const clab_contact *ci = &cc[i];
                if (i + PEN_AHEAD < k1) { /* body b of a later contact: a random read, started early */
                    CLAB_PREFETCH(&pb[cc[i + PEN_AHEAD].b]); /* one cache line */
                }
                const uint32_t ia = body_a(cc, i);
                if (i > 0 && body_a(cc, i - 1) > ia) mine_by_a = 0;
                row[body_b(cc, i) + 1]++;
                if (!(-ci->phi > 0.0)) { /* inside the envelope but not touching: no force, history dropped */
                    clab_history_drop_at(&p->hist, i);
                    p->Fc[i] = zero;
                    if (rolling) p->Mr[i] = zero;
                    mine_dropped = 1;
                    continue;
                }
                contact_force(p, w, ci, c->lv, i, clab_history_at(&p->hist, i), pair1, h, 0, surface, rolling);
            }
            /* 3. this thread's contacts sorted by b, its own segment of the lists */
            place_by_b(cc, k0, k1, nb, row, p->blist);
        }
        if (mine_dropped) {
#pragma omp atomic write
            dropped = 1;
        }
        if (!mine_by_a) {
#pragma omp atomic write
            by_a = 0;
        }
#pragma omp barrier
#pragma omp master
        {
            t1 = clab_clock();
            if (side) clab_balance_update(&p->bal_contacts, T); /* the next step's cut (read after this region) */
        }

        /* contacts not in order of a (not the narrow phase's output) get their lists by a
         * from a counting sort here, on one thread (by_a was set before the barrier: every
         * thread takes the same branch); their sums by contact_scatter would be in another
         * order than body_sums' (as b, then as a), so the lists by b are made too (acc = NULL) */
        if (!by_a) {
#pragma omp single
            { /* the counting sort by a: astart the offsets, alist the contacts */
                if (grow(&p->alist, &p->cap_alist, nc, sizeof(uint32_t)) ||
                    grow(&p->astart, &p->cap_astart, nb + 1, sizeof(uint32_t)) ||
                    (acc && reserve_lists(p, nb, nc, 1))) {
                    nomem = 1;
                } else {
                    alist = p->alist;
                    astart = p->astart;
                    for (size_t i = 0; i <= nb; i++) astart[i] = 0;
                    for (size_t i = 0; i < nc; i++) astart[body_a(cc, i) + 1]++;
                    for (size_t i = 0; i < nb; i++) astart[i + 1] += astart[i];
                    for (size_t i = 0; i < nc; i++) alist[astart[body_a(cc, i)]++] = (uint32_t)i;
                    for (size_t i = nb; i > 0; i--) astart[i] = astart[i - 1];
                    astart[0] = 0;
                    if (acc) { /* one thread: the list by b the scatter did not make */
                        uint32_t *row0 = p->brow;
                        for (size_t j = 0; j <= nb; j++) row0[j] = 0;
                        for (size_t i = 0; i < nc; i++) row0[body_b(cc, i) + 1]++;
                        place_by_b(cc, 0, nc, nb, row0, p->blist);
                        p->bbase[0] = 0;
                        acc = NULL;
                        one_list = 1;
                    }
                }
            }
            /* (the barrier at the end of single: alist, astart and nomem are seen by all) */
        }

        if (!nomem) {
            /* 4. the body loop (body_range) on one range of bodies a thread, about as much
             *    work each (body_cut); split: whole blocks of the skin test's
             *    (clab_thread_bodies: most of a thread's bodies are still in its cache), as
             *    many a thread as the last steps' times balance (bal_bodies), once the terms
             *    the threads kept for them are added */
            const by_b lb = {p->blist, p->brow, p->bbase, nb, one_list ? 1 : T};
            body_loop ctx = {w, pb, p->still, cc, c->lv, Fc, Mr, lb, alist, astart, acc, nc, per, wlo, whi, h, v2lim,
                             scheme, surface, rolling, first, wrap, screen};
            size_t i0, i1;
            const int split_bodies = acc && T > 1; /* (acc is set before the barrier above) */
            const double s1 = split_bodies ? clab_clock() : 0.0;
            if (split_bodies) {
                clab_balance_range(&p->bal_bodies, nb, CLAB_BODY_BLOCK, t, T, &i0, &i1);
                split_add(acc, p->side, T, (uint32_t)i0, (uint32_t)i1, pb, w, cc, c->lv, Fc, Mr, surface, rolling);
            } else {
                i0 = body_cut(&ctx, nb, t, T), i1 = body_cut(&ctx, nb, t + 1, T);
            }
            bad |= orientation_off ? body_range_still(&ctx, i0, i1) : body_range(&ctx, i0, i1);
            if (split_bodies) {
                clab_balance_note(&p->bal_bodies, t, clab_balance_at(&p->bal_bodies, t, T), clab_clock() - s1);
                if (t == 0) balance_T = T;
            }
        }

        /* the history's bookkeeping, for the next step (no loop of this one reads the
         * history any more): on the first thread done with its bodies, no barrier after it
         * but the region's end */
#pragma omp single nowait
        {
            /* the ones put stay (contact_force), the dropped go; the scans for whether any was
             * dropped and whether the keys increase are not needed when the loop and the
             * collider already tell */
            clab_history_close(&p->hist, nc, !dropped, c->increasing);
            p->nforces = nc;
        }
    }
    if (nomem) return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory for %zu contacts", nc);
    if (balance_T) clab_balance_update(&p->bal_bodies, balance_T); /* the next step's cut of the bodies */
    if (acc) p->acc_zero = 1; /* the body loop read and cleared every body's sums */
    p->t_contacts += t1 - t0;
    p->t_bodies += clab_clock() - t1;
    if (suspect) *suspect = bad;
    p->started = 1;
    p->steps++;
    return CLAB_OK;
}

/* the bodies are renumbered (clab_sim_sort): the history's keys follow them */
static int penalty_permute(void *self, const size_t *inv, size_t nbodies, clab_error *err)
{
    penalty *p = self;
    return clab_history_permute(&p->hist, inv, nbodies, err);
}

static int penalty_step(void *self, clab_world *w, const clab_contacts *c, double h, clab_error *err)
{
    return penalty_advance(self, w, c, h, 0.0, NULL, err);
}

static int penalty_step_wrap(void *self, clab_world *w, const clab_contacts *c, double h, double vmax, int *suspect,
                             clab_error *err)
{
    return penalty_advance(self, w, c, h, vmax, suspect, err);
}

/* (F_n, F_u, F_w) of each contact: the force on b in the frame (n, u, w), F.n, F.u, F.w (the
 * force law's F_n and the tangential force's components, to rounding: a few ulps of |F|) */
static void penalty_forces(const void *self, const clab_contacts *c, clab_vec3 *f_nuw)
{
    const penalty *p = self;
    for (size_t i = 0; i < c->n; i++) {
        if (i >= p->nforces) {
            f_nuw[i] = clab_v3(0.0, 0.0, 0.0);
            continue;
        }
        const clab_contact *ci = &c->c[i];
        clab_vec3 tu, tw, F = p->Fc[i];
        clab_contact_frame(ci, &tu, &tw);
        f_nuw[i] = clab_v3(clab_v3_dot(F, ci->n), clab_v3_dot(F, tu), clab_v3_dot(F, tw));
    }
}

static void penalty_stats(const void *self, clab_solver_stats *s)
{
    const penalty *p = self;
    memset(s, 0, sizeof *s);
    s->solves = p->steps; /* no iterative solver: one force evaluation per step */
    s->t_contacts = p->t_contacts;
    s->t_bodies = p->t_bodies;
}

/* The recommended largest step [s]: a tenth of the shortest collision the world's bodies can
 * have (clab_penalty_contact_time at vchar), over every free body and, for each material, its
 * lightest free partner and any fixed body, with the largest radius that material has (the
 * stiffest contact). Symplectic Euler's limit for an undamped contact is 2/omega = 0.64 T_c. */
static double penalty_stable_step(const void *self, const clab_world *w)
{
    const penalty *p = self;
    size_t nm = w->nmaterials;
    if (nm != p->nmat || nm == 0) return 0.0;
    /* per material: the two lightest free bodies (m1 at body i1, then m2), the largest radius,
     * whether a fixed body has it */
    double *m1 = malloc(nm * sizeof *m1), *m2 = malloc(nm * sizeof *m2), *rmax = malloc(nm * sizeof *rmax);
    size_t *i1 = malloc(nm * sizeof *i1);
    int *used = calloc(nm, sizeof *used), *hasfixed = calloc(nm, sizeof *hasfixed);
    double tmin = INFINITY;
    if (!m1 || !m2 || !rmax || !i1 || !used || !hasfixed) goto done;
    for (size_t m = 0; m < nm; m++) {
        m1[m] = m2[m] = INFINITY;
        rmax[m] = 0.0;
        i1[m] = SIZE_MAX;
    }
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        size_t m = (size_t)b->material;
        if (m >= nm) continue;
        used[m] = 1;
        rmax[m] = fmax(rmax[m], contact_radius(&b->shape));
        if (b->fixed) {
            hasfixed[m] = 1;
        } else if (b->m < m1[m]) {
            m2[m] = m1[m];
            m1[m] = b->m;
            i1[m] = i;
        } else if (b->m < m2[m]) {
            m2[m] = b->m;
        }
    }
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->fixed || (size_t)b->material >= nm) continue;
        double Ri = contact_radius(&b->shape);
        for (size_t m = 0; m < nm; m++) {
            if (!used[m]) continue;
            const clab_penalty_pair *pp = &p->pairs[(size_t)b->material * nm + m];
            double R_eff = clab_penalty_reff(Ri, rmax[m]);
            double mp = i1[m] == i ? m2[m] : m1[m]; /* lightest free partner other than b */
            if (isfinite(mp))
                tmin = fmin(tmin, clab_penalty_contact_time(&p->law, pp, clab_penalty_meff(b->m, 0, mp, 0), R_eff,
                                                            p->law.vchar));
            if (hasfixed[m]) tmin = fmin(tmin, clab_penalty_contact_time(&p->law, pp, b->m, R_eff, p->law.vchar));
        }
    }
done:
    free(m1);
    free(m2);
    free(rmax);
    free(i1);
    free(used);
    free(hasfixed);
    return isfinite(tmin) ? tmin / 10.0 : 0.0;
}

/* one key = value line of metadata */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void put(clab_options *m, const char *key, const char *fmt, ...)
{
    char v[CLAB_OPT_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    clab_options_set(m, key, v, NULL);
}

static void put_override(clab_options *m, const char *key, double v)
{
    if (v >= 0.0) put(m, key, "%.17g", v);
    else put(m, key, "material");
}

static void penalty_meta(const void *self, clab_options *m)
{
    const penalty *p = self;
    const int hooke = p->law.model == CLAB_PENALTY_HOOKE;
    /* the options, as they can be given back */
    put(m, "model", "%s", model_names[p->law.model]);
    put(m, "integrator", "%s", integrator_names[p->integrator]);
    put(m, "cap", "%s", cap_names[p->law.cap]);
    put(m, "clamp", "%s", clamp_names[p->law.clamp]);
    put(m, "rolling", "%s", rolling_names[p->law.rolling]);
    put(m, "lever", "%s", lever_names[p->lever_surface]);
    put(m, "history_start", "%s", history_start_names[p->history_zero]);
    put(m, "history_turn", "%s", history_turn_names[p->history_project]);
    if (p->orientation_off) /* only when on: the metadata of other runs stay as they were */
        put(m, "sphere_orientation", "%s", orientation_names[p->orientation_off]);
    put_override(m, "kn", p->kn);
    put_override(m, "kt", p->kt);
    put_override(m, "gn", p->gn);
    put_override(m, "gt", p->gt);
    put(m, "vchar", "%.17g", p->law.vchar);
    /* the laws in words, so a CSV says which model ran */
    put(m, "penalty_normal_force",
        hooke ? "F_n = k_n delta_n - c_n v_n; k_n = kn or 16/15 sqrt(R*) E* (15 m* vchar^2/(16 sqrt(R*) E*))^(1/5)"
              : "F_n = k_n delta_n - c_n v_n; k_n = kn sqrt(delta_n) or 4/3 E* sqrt(R* delta_n) (Hertz)");
    put(m, "penalty_tangential_force",
        hooke ? "F_t = -k_t delta_t - c_t v_t; k_t = kt or 2/7 k_n"
              : "F_t = -k_t delta_t - c_t v_t; k_t = kt sqrt(delta_n) or 8 G* sqrt(R* delta_n) (Mindlin)");
    put(m, "penalty_damping",
        hooke ? "c = gamma m* or c_n = -2 beta sqrt(k_n m*), c_t = -2 beta sqrt(k_t m*); beta = ln e/sqrt(ln^2 e + pi^2)"
              : "c = gamma m* sqrt(delta_n/R*) or c = -2 sqrt(5/6) beta sqrt(S m*), S_n = 3/2 k_n, S_t = k_t (Tsuji)");
    put(m, "penalty_cap",
        p->law.cap == CLAB_PENALTY_CAP_TOTAL    ? "|-k_t delta_t - c_t v_t| <= mu max(F_n, 0), delta_t rescaled (Chrono)"
        : p->law.cap == CLAB_PENALTY_CAP_LAMMPS ? "|-k_t delta_t - c_t v_t| <= mu |F_n|, delta_t rescaled (LAMMPS)"
                                                : "k_t |delta_t| <= mu max(F_n, 0), dashpot only while sticking (LIGGGHTS)");
    put(m, "penalty_history", p->history_project
                                  ? "delta_t += h v_t per contact key; projected on the tangent plane (LAMMPS)"
                                  : "delta_t += h v_t per contact key; projected on the tangent plane, length kept");
    put(m, "penalty_radius", "R* = R_a R_b/(R_a + R_b); sphere R, plane infinite, box smallest half extent");
    put(m, "stable_step_s", "%.17g", p->stable_step);
    /* every material pair, after the mixing rule */
    for (size_t a = 0; a < p->nmat; a++)
        for (size_t b = a; b < p->nmat; b++) {
            const clab_penalty_pair *pp = &p->pairs[a * p->nmat + b];
            char key[CLAB_OPT_LEN];
            snprintf(key, sizeof key, "pair.%s.%s", p->matname[a], p->matname[b]);
            put(m, key, "mu=%.6g mu_roll=%.6g cor=%.6g beta=%.6g Estar=%.6g Gstar=%.6g", pp->mu, pp->mu_roll, pp->cor,
                pp->beta, pp->Estar, pp->Gstar);
            snprintf(key, sizeof key, "pair.%s.%s.explicit", p->matname[a], p->matname[b]);
            char k[4][24];
            const double kv[4] = {pp->kn, pp->kt, pp->gn, pp->gt};
            for (int j = 0; j < 4; j++)
                if (kv[j] >= 0.0) snprintf(k[j], sizeof k[j], "%.6g", kv[j]);
                else snprintf(k[j], sizeof k[j], "derived");
            put(m, key, "kn=%s kt=%s gn=%s gt=%s", k[0], k[1], k[2], k[3]);
        }
}

static const char save_magic[8] = {'C', 'L', 'A', 'B', 'P', 'E', 'N', '1'};

static int penalty_save(const void *self, FILE *f, clab_error *err)
{
    const penalty *p = self;
    int32_t started = p->started;
    int64_t steps = p->steps;
    if (fwrite(save_magic, 1, 8, f) != 8 || fwrite(&started, sizeof started, 1, f) != 1 ||
        fwrite(&steps, sizeof steps, 1, f) != 1)
        return clab_error_set(err, CLAB_EIO, "penalty backend: checkpoint write failed");
    return clab_history_save(&p->hist, f, err);
}

static int penalty_load(void *self, FILE *f, clab_error *err)
{
    penalty *p = self;
    char m[8];
    int32_t started;
    int64_t steps;
    if (fread(m, 1, 8, f) != 8 || memcmp(m, save_magic, 8) != 0)
        return clab_error_set(err, CLAB_EIO, "penalty backend: not a penalty checkpoint (bad magic)");
    if (fread(&started, sizeof started, 1, f) != 1 || fread(&steps, sizeof steps, 1, f) != 1)
        return clab_error_set(err, CLAB_EIO, "penalty backend: truncated checkpoint");
    int rc = clab_history_load(&p->hist, f, err);
    if (rc) return rc;
    p->started = started != 0;
    p->steps = steps;
    p->nforces = 0;
    return CLAB_OK;
}

const clab_backend_type clab_backend_penalty = {
    .name = "penalty",
    .summary = "penalty DEM: Hooke or Hertz-Mindlin spring-dashpots with tangential history, explicit integration",
    .options_help =
        "  model=hertz|hooke       force law (default hertz): Hertz-Mindlin from E, nu, cor, or linear\n"
        "  integrator=euler|verlet semi-implicit Euler (default) or velocity Verlet (LAMMPS nve/sphere;\n"
        "                          velocities between steps are the half-step ones)\n"
        "  cap=total|spring|lammps Coulomb cap on spring + dashpot at mu max(F_n, 0) (default; Chrono),\n"
        "                          on the spring alone, dashpot only while sticking (LIGGGHTS), or on\n"
        "                          spring + dashpot at mu |F_n| (LAMMPS gran/*: friction while the\n"
        "                          dashpot pulls)\n"
        "  clamp=off|on            on: F_n >= 0 (no dashpot pull at separation; restitution then\n"
        "                          exceeds cor); default off, so cor is met exactly by Hooke\n"
        "  lever=contact|surface   lever arms of torques and contact-point velocities: to the contact\n"
        "                          point P midway through the overlap (default) or to each body's own\n"
        "                          surface point P -+ Phi/2 n (LAMMPS: the radii)\n"
        "  history_start=slip|zero contacts present at the first step start with delta_t = h v_t like\n"
        "                          any new contact (default) or 0 (LAMMPS: the initial state has no\n"
        "                          history, its setup force does not advance it)\n"
        "  history_turn=keep|project  delta_t turned onto the new tangent plane with its length kept\n"
        "                          (default) or plainly projected, shrinking by the cosine of the tilt\n"
        "                          (LAMMPS gran/hooke/history)\n"
        "  sphere_orientation=integrate|off  off: spheres of isotropic inertia keep their Euler\n"
        "                          parameters (their motion does not depend on them; LAMMPS's\n"
        "                          atom_style sphere has none); default integrate\n"
        "  rolling=off|cdt         rolling resistance: constant directional torque mu_roll F_n (material\n"
        "                          mu_roll [m]); default off\n"
        "  kn=K, kt=K              stiffness for every pair, > 0: hooke [N/m], hertz [N/m^1.5]\n"
        "                          (default: the materials' kn, kt, else from E*, G*)\n"
        "  gn=G, gt=G              damping rates gamma [1/s], >= 0, force gamma m_eff v (hertz: times\n"
        "                          sqrt(delta_n/R*)); default: the materials' gn, gt, else from cor\n"
        "  vchar=V                 characteristic impact speed [m/s] (default 1): hooke stiffness from\n"
        "                          E* and the stable-step estimate\n",
    .default_envelope = 0.0,
    .create = penalty_create,
    .step = penalty_step,
    .step_wrap = penalty_step_wrap,
    .forces = penalty_forces,
    .stats = penalty_stats,
    .meta = penalty_meta,
    .stable_step = penalty_stable_step,
    .save = penalty_save,
    .load = penalty_load,
    .destroy = penalty_destroy,
    .permute = penalty_permute,
    .gather_begin = penalty_gather_begin,
    .gather = penalty_gather,
    .prepare = penalty_prepare,
};
