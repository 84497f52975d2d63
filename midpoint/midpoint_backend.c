/* midpoint_backend.c: the midpoint backend, Solfec's constrained midpoint scheme (Eq. (9)-(13)
 * of "Constraints", seed 004) with exact Coulomb friction and Newton's impact law per contact:
 * its options, statistics, metadata, checkpoints and type table. The step is step.c. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "clab_backends.h"
#include "midpoint.h"

static const char *const onoff[] = {"off", "on", NULL};

static void mp_destroy(void *self)
{
    clab_midpoint *s = self;
    if (!s) return;
    free(s->saved);
    free(s->row);
    free(s->offj);
    free(s->offW);
    free(s->bstart);
    free(s->blist);
    free(s->fnuw);
    clab_warm_free(&s->warm);
    clab_warm_free(&s->warm_next);
    free(s);
}

static int mp_create(const clab_world *w, clab_options *opt, void **self, clab_error *err)
{
    *self = NULL;
    clab_midpoint *s = calloc(1, sizeof *s);
    if (!s) return clab_error_set(err, CLAB_ENOMEM, "midpoint: out of memory");
    s->tol = 1e-9;
    s->max_iter = 1000;
    s->local.tol = 1e-12;
    s->local.max_iter = 50;
    s->local.rho = 1.0;
    s->cor = -1.0;
    s->gap_tol = 1e-9;
    int warm = 1;
    clab_warm_init(&s->warm);
    clab_warm_init(&s->warm_next);
    if (clab_options_double(opt, "tol", 0.0, 1e3, &s->tol, err) ||
        clab_options_int(opt, "max_iter", 1, 100000000, &s->max_iter, err) ||
        clab_options_double(opt, "local_tol", 0.0, 1e3, &s->local.tol, err) ||
        clab_options_int(opt, "local_max_iter", 1, 100000, &s->local.max_iter, err) ||
        clab_options_double(opt, "rho", 1e-6, 1e6, &s->local.rho, err) ||
        clab_options_double(opt, "cor", 0.0, 1.0, &s->cor, err) ||
        clab_options_double(opt, "gap_tol", 0.0, 1.0, &s->gap_tol, err) ||
        clab_options_choice(opt, "warm_start", onoff, &warm, err)) {
        mp_destroy(s);
        return CLAB_EINVAL;
    }
    s->warm_start = warm;
    if (w->njoints > 0) {
        clab_error_set(err, CLAB_EINVAL,
                       "midpoint: the scene has %zu joints (joint 0: %s); the midpoint backend solves contacts only "
                       "(use dvi for joints)",
                       w->njoints, clab_joint_name(w->joints[0].type));
        mp_destroy(s);
        return CLAB_EINVAL;
    }
    *self = s;
    return CLAB_OK;
}

static void mp_forces(const void *self, const clab_contacts *c, clab_vec3 *f_nuw)
{
    const clab_midpoint *s = self;
    for (size_t i = 0; i < c->n; i++) f_nuw[i] = i < s->nf ? s->fnuw[i] : clab_v3(0.0, 0.0, 0.0);
}

static void mp_stats(const void *self, clab_solver_stats *st)
{
    const clab_midpoint *s = self;
    memset(st, 0, sizeof *st);
    st->solves = s->solves;
    st->total_iterations = s->total_iterations;
    st->maxiter_hits = s->maxiter_hits;
    st->iterations = s->iterations;
    st->residual = s->residual;
    st->gamma_outside_K = s->outside_K;
    st->d_outside_polar = s->normal_violation;
    st->complementarity = s->complementarity;
}

static void mp_meta(const void *self, clab_options *m)
{
    const clab_midpoint *s = self;
    char v[64];
    snprintf(v, sizeof v, "%.17g", s->tol);
    clab_options_set(m, "midpoint_tol_m_s", v, NULL);
    snprintf(v, sizeof v, "%ld", s->max_iter);
    clab_options_set(m, "midpoint_max_iter", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->local.tol);
    clab_options_set(m, "midpoint_local_tol_m_s", v, NULL);
    snprintf(v, sizeof v, "%ld", s->local.max_iter);
    clab_options_set(m, "midpoint_local_max_iter", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->local.rho);
    clab_options_set(m, "midpoint_rho", v, NULL);
    if (s->cor >= 0.0) snprintf(v, sizeof v, "%.17g", s->cor);
    else snprintf(v, sizeof v, "material");
    clab_options_set(m, "midpoint_cor", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->gap_tol);
    clab_options_set(m, "midpoint_gap_tol_m", v, NULL);
    /* read by contactlab validate: an impact restitutes with the material pair's e */
    clab_options_set(m, "midpoint_restitution", "newton", NULL);
    clab_options_set(m, "midpoint_warm_start", onoff[s->warm_start], NULL);
    clab_options_set(m, "midpoint_method",
                     "Solfec midpoint scheme, Eq. (9)-(13) of 'Constraints': q at t+h/2, implicit velocity, "
                     "Signorini-Coulomb with Newton restitution U_n + e min(U_n^t, 0), Gauss-Seidel over contacts "
                     "with Alart-Curnier's local Newton",
                     NULL);
    clab_options_set(m, "midpoint_residual", "max_i |F_AC,i(R)|/rho_i, rho_i = rho 3/tr(W_ii) [m/s]", NULL);
    clab_options_set(m, "midpoint_forces", "R/h [N] in the contact frame (n, u, w)", NULL);
}

static double mp_stable_step(const void *self, const clab_world *w)
{
    (void)self;
    (void)w;
    return 0.0; /* rigid contacts: no stability limit of the explicit kind */
}

static int mp_permute(void *self, const size_t *inv, size_t nbodies, clab_error *err)
{
    clab_midpoint *s = self;
    return clab_warm_permute(&s->warm, inv, nbodies, err);
}

/* checkpoint: "midpoint 1", the counters, then the warm-start impulses by key (%.17g: exact) */
static int mp_save(const void *self, FILE *f, clab_error *err)
{
    const clab_midpoint *s = self;
    int bad = fprintf(f, "midpoint 1\nstats %ld %ld %ld %ld\nimpulses %zu\n", s->solves, s->total_iterations,
                      s->maxiter_hits, s->local_failures, s->warm.n) < 0;
    for (size_t i = 0; !bad && i < s->warm.cap; i++) {
        const clab_warm_entry *e = &s->warm.slots[i];
        if (e->key != CLAB_WARM_EMPTY)
            bad = fprintf(f, "%" PRIu64 " %.17g %.17g %.17g\n", e->key, e->F.x, e->F.y, e->F.z) < 0;
    }
    return bad ? clab_error_set(err, CLAB_EIO, "midpoint: could not write the checkpoint") : CLAB_OK;
}

static int mp_load(void *self, FILE *f, clab_error *err)
{
    clab_midpoint *s = self;
    long a, b, c, d;
    size_t n;
    if (fscanf(f, " midpoint 1 stats %ld %ld %ld %ld impulses %zu", &a, &b, &c, &d, &n) != 5 || a < 0 || b < 0 ||
        c < 0 || d < 0)
        return clab_error_set(err, CLAB_EIO,
                              "midpoint checkpoint: expected 'midpoint 1', 'stats <solves> <iterations> <hits> "
                              "<local failures>' and 'impulses <n>'");
    if (n > 100000000 || clab_warm_reset(&s->warm, n))
        return clab_error_set(err, CLAB_ENOMEM, "midpoint checkpoint: cannot hold %zu impulses", n);
    for (size_t i = 0; i < n; i++) {
        uint64_t key;
        clab_vec3 F;
        if (fscanf(f, " %" SCNu64 " %lf %lf %lf", &key, &F.x, &F.y, &F.z) != 4 || key == CLAB_WARM_EMPTY)
            return clab_error_set(err, CLAB_EIO, "midpoint checkpoint: impulse %zu of %zu unreadable", i + 1, n);
        clab_warm_put(&s->warm, key, F);
    }
    s->solves = a, s->total_iterations = b, s->maxiter_hits = c, s->local_failures = d;
    return CLAB_OK;
}

const clab_backend_type clab_backend_midpoint = {
    "midpoint",
    "Solfec midpoint scheme (exact Coulomb, Newton impact law)",
    "  tol=X                     Gauss-Seidel stops when the largest local residual |F_AC|/rho\n"
    "                            is <= X [m/s] (default 1e-9)\n"
    "  max_iter=N                Gauss-Seidel sweeps per step at most (default 1000); hits are counted\n"
    "  local_tol=X               Alart-Curnier Newton of one contact: stop at |F_AC|/rho <= X [m/s]\n"
    "                            (default 1e-12)\n"
    "  local_max_iter=N          Newton steps per local solve at most (default 50)\n"
    "  rho=X                     augmentation factor: rho_i = X 3/tr(W_ii) (default 1)\n"
    "  cor=X                     restitution e of Newton's law U_n + e min(U_n^t, 0), in [0, 1]\n"
    "                            (default: the material pair's cor, the minimum of the two)\n"
    "  gap_tol=X                 a contact is closed (enters the step) when its gap at t + h/2\n"
    "                            is <= X [m] (default 1e-9: touching to rounding)\n"
    "  warm_start=on|off         start from the last step's impulses by contact key (default on)\n"
    "  envelope=X                contacts with Phi < X are listed [m] (default 0.002): at least\n"
    "                            h |U_n|/2 to see an impact in the step it happens (doc/midpoint.md)\n",
    0.002,
    mp_create,
    clab_mp_step,
    mp_forces,
    mp_stats,
    mp_meta,
    mp_stable_step,
    mp_save,
    mp_load,
    mp_permute,
    mp_destroy,
};
