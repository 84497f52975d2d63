/* dvi_backend.c: the DVI backend, the Tasora-Anitescu cone complementarity stepper of Eq. (5)
 * and (10) of seed 000: its options, statistics, metadata, checkpoints and type table. The
 * step itself is step.c; the CCP as data ccp.c; its products and solvers plain_*.c (fast=off)
 * and fast_*.c (fast=on, the default). */
#include <stdlib.h>
#include <string.h>

#include "clab_backend_keyed.h"
#include "clab_backends.h"
#include "dvi_internal.h"
#include "plain.h"



static const char *const onoff[] = {"off", "on", NULL};
static const char *const sums_names[] = {"sequential", "exact", NULL}; /* CLAB_SUMS_* */

static void dvi_destroy(void *self)
{
    clab_dvi *s = self;
    if (!s) return;
    clab_dvi_ranks_free(s);
    clab_ccp_free(&s->ccp);
    clab_ccp_work_free(&s->work);
    clab_warm_free(&s->warm);
    clab_exact_free(&s->exact);
    free(s->nu);
    free(s->d);
    free(s->u);
    free(s->v_saved);
    free(s);
}

static int dvi_create(const clab_world *w, clab_options *opt, void **self, clab_error *err)
{
    *self = NULL;
    /* solver names, in the order of the solver table */
    const clab_ccp_solver_type *const *all = clab_ccp_solvers();
    const char *names[8];
    int ns = 0;
    while (all[ns] && ns < 7) names[ns] = all[ns]->name, ns++;
    names[ns] = NULL;
    int solver = 0, warm = 1, fast = 1, sums = CLAB_SUMS_SEQUENTIAL;
    if (clab_options_choice(opt, "solver", names, &solver, err) ||
        clab_options_choice(opt, "fast", onoff, &fast, err) || clab_options_choice(opt, "sums", sums_names, &sums, err))
        return CLAB_EINVAL;
    if (fast && sums == CLAB_SUMS_EXACT)
        return clab_error_set(err, CLAB_EINVAL, "dvi: sums=exact (exactly rounded global sums) runs on the plain path "
                                                "only: add fast=off");

    clab_dvi *s = calloc(1, sizeof *s);
    if (!s) return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory");
    s->fast = fast;
    s->sums = sums;
    s->solver = fast ? all[solver] : clab_ccp_plain_solver_sums(all[solver]->name, sums);
    s->opt = clab_ccp_default_options(s->solver);
    s->recovery_speed = 1.0;
    clab_ccp_init(&s->ccp);
    clab_ccp_work_init(&s->work);
    clab_warm_init(&s->warm);
    clab_exact_init(&s->exact);
    if (clab_exact_options(&s->exact, opt, err) ||
        clab_options_int(opt, "max_iter", 1, 100000000, &s->opt.max_iter, err) ||
        clab_options_double(opt, "tol", 0.0, 1e3, &s->opt.tol, err) ||
        clab_options_double(opt, "omega", 1e-6, 2.0 - 1e-6, &s->opt.omega, err) ||
        clab_options_double(opt, "recovery_speed", 0.0, 1e300, &s->recovery_speed, err) ||
        clab_options_choice(opt, "warm_start", onoff, &warm, err) || clab_dvi_reg_options(opt, &s->reg, err)) {
        dvi_destroy(s);
        return CLAB_EINVAL;
    }
    s->warm_start = warm;
    if (!s->fast && s->exact.friction == CLAB_FRICTION_EXACT) {
        clab_error_set(err, CLAB_EINVAL, "dvi: friction=exact (De Saxce fixed point) runs on the fast path only: "
                                         "drop fast=off");
        dvi_destroy(s);
        return CLAB_EINVAL;
    }
    /* joints: every kind is solvable, but not between two fixed bodies */
    for (size_t j = 0; j < w->njoints; j++) {
        const clab_joint *J = &w->joints[j];
        if (w->bodies[J->a].fixed && w->bodies[J->b].fixed) {
            clab_error_set(err, CLAB_EINVAL, "dvi: joint %zu (%s) connects two fixed bodies (%s, %s)", j,
                           clab_joint_name(J->type), clab_world_body_name(w, (size_t)J->a), clab_world_body_name(w, (size_t)J->b));
            dvi_destroy(s);
            return CLAB_EINVAL;
        }
    }
    *self = s;
    return CLAB_OK;
}

static void dvi_forces(const void *self, const clab_contacts *c, clab_vec3 *f_nuw)
{
    const clab_dvi *s = self;
    if (s->ranks) {
        clab_dvi_ranks_forces(s, c, f_nuw);
        return;
    }
    size_t nk = s->ccp.ncontacts;
    for (size_t i = 0; i < c->n; i++) {
        if (i < nk && s->h > 0.0)
            f_nuw[i] = clab_v3(s->nu[3 * i] / s->h, s->nu[3 * i + 1] / s->h, s->nu[3 * i + 2] / s->h);
        else
            f_nuw[i] = clab_v3(0.0, 0.0, 0.0);
    }
}

static void dvi_stats(const void *self, clab_solver_stats *st)
{
    const clab_dvi *s = self;
    st->solves = s->solves;
    st->total_iterations = s->total_iterations;
    st->maxiter_hits = s->maxiter_hits;
    st->iterations = s->last.iterations;
    st->residual = s->last.residual;
    st->gamma_outside_K = s->diag.gamma_outside_K;
    st->d_outside_polar = s->diag.d_outside_dual;
    st->complementarity = s->diag.complementarity;
    st->history = s->last.nhistory ? s->last.history : NULL;
    st->nhistory = s->last.nhistory;
    clab_exact_stats(&s->exact, st);
}

static void dvi_meta(const void *self, clab_options *m)
{
    const clab_dvi *s = self;
    char v[64];
    /* the options in force: dvi_<option>[_unit] (experiments' plot scripts read these keys) */
    clab_options_set(m, "dvi_solver", s->solver->name, NULL);
    snprintf(v, sizeof v, "%ld", s->opt.max_iter);
    clab_options_set(m, "dvi_max_iter", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->opt.tol);
    clab_options_set(m, "dvi_tol_m_s", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->opt.omega);
    clab_options_set(m, "dvi_omega", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->recovery_speed);
    clab_options_set(m, "dvi_recovery_speed_m_s", v, NULL);
    clab_options_set(m, "dvi_warm_start", onoff[s->warm_start], NULL);
    clab_options_set(m, "dvi_fast", onoff[s->fast], NULL);
    clab_options_set(m, "dvi_sums", sums_names[s->sums], NULL);
    /* what the numbers mean */
    clab_options_set(m, "dvi_method", "Tasora-Anitescu CCP, Eq. (5) and (10): relaxed friction, stabilization Phi/h", NULL);
    clab_options_set(m, "dvi_residual",
                     "max_k |nu_k - Proj_Ck(nu_k - t_k d_k)|/t_k, t_k = size_k/tr(N_kk), d = N nu + p [m/s]", NULL);
    clab_options_set(m, "dvi_forces", "gamma/h [N] in the contact frame (n, u, w)", NULL);
    clab_dvi_reg_meta(&s->reg, m);
    clab_exact_meta(&s->exact, m);
}

static double dvi_stable_step(const void *self, const clab_world *w)
{
    (void)self;
    (void)w;
    return 0.0; /* no stiffness: no stability limit of the explicit kind */
}

/* the bodies are renumbered (clab_sim_sort): the warm-start keys follow them */
static int dvi_permute(void *self, const size_t *inv, size_t nbodies, clab_error *err)
{
    clab_dvi *s = self;
    return clab_warm_permute(&s->warm, inv, nbodies, err);
}

/* checkpoint: the warm-start impulses, then the solver counters of the statistics (so a
 * restarted run reports the same solves, iterations and iteration-limit hits) */
static int dvi_save(const void *self, FILE *f, clab_error *err)
{
    const clab_dvi *s = self;
    int rc = clab_warm_save(&s->warm, f, err);
    if (!rc && fprintf(f, "dvi-stats %ld %ld %ld\n", s->solves, s->total_iterations, s->maxiter_hits) < 0)
        rc = clab_error_set(err, CLAB_EIO, "dvi: could not write the solver counters to the checkpoint");
    if (!rc) rc = clab_exact_save(&s->exact, f, err);
    return rc;
}

static int dvi_load(void *self, FILE *f, clab_error *err)
{
    clab_dvi *s = self;
    int rc = clab_warm_load(&s->warm, f, err);
    if (rc) return rc;
    long solves, iterations, hits;
    if (fscanf(f, " dvi-stats %ld %ld %ld", &solves, &iterations, &hits) != 3 || solves < 0 || iterations < 0 ||
        hits < 0)
        return clab_error_set(err, CLAB_EIO, "dvi checkpoint: expected 'dvi-stats <solves> <iterations> <hits>'");
    s->solves = solves;
    s->total_iterations = iterations;
    s->maxiter_hits = hits;
    return clab_exact_load(&s->exact, f, err);
}

const clab_backend_type clab_backend_dvi = {
    "dvi",
    "rigid contact as a cone complementarity problem (Tasora-Anitescu CCP, Eq. (5), (10))",
    "  solver=apgd|gs|jacobi|bb  CCP solver (default apgd): accelerated projected gradient,\n"
    "                            projected Gauss-Seidel/SOR, projected Jacobi, Barzilai-Borwein\n"
    "  max_iter=N                iteration limit per step (default 1000); hits are counted\n"
    "  tol=X                     residual tolerance [m/s] (default 1e-6): natural map scaled to\n"
    "                            a velocity, max over contacts/joints (doc/dvi.md)\n"
    "  omega=X                   relaxation in (0, 2): jacobi step (default 0.3), gs SOR (default 1)\n"
    "  recovery_speed=X          cap on the penetration correction -Phi/h [m/s] (default 1)\n"
    "  warm_start=on|off         start from the last step's impulses by contact key (default on)\n"
    "  friction=relaxed|exact    relaxed: the Tasora-Anitescu CCP, Eq. (10) (a sliding contact\n"
    "                            separates at mu v_T); exact: Coulomb + Signorini by the De Saxce\n"
    "                            fixed point on s_i = mu_i |v_T,i| around the CCP (non-convex;\n"
    "                            doc/dvi.md; fast=on only)\n"
    "  exact_update=outer|inner  exact: refresh s after each CCP solve, or also inside the\n"
    "                            solver iterations (default outer)\n"
    "  exact_tol=X               exact: fixed point when max |change of s| <= X [m/s] (default\n"
    "                            1e-6), or when the exact-Coulomb residual <= tol\n"
    "  exact_max_outer=N         exact: CCP solves per step at most (default 100); a step that\n"
    "                            stops there keeps its last iterate and is counted\n"
    "  exact_omega=X             exact: under-relaxation of the s update, in (0, 1] (default 1)\n"
    "  envelope=X                delta_K: contacts with Phi < delta_K enter the CCP [m] (default 0.002)\n"
    "  fast=on|off               on (default): the fast products and solvers (two lanes, fused\n"
    "                            passes, OpenMP); off: the plain, single-threaded transcription of\n"
    "                            the same solvers (tests/test_dvi_plain.c holds the two together)\n"
    "  sums=sequential|exact     the plain solvers' global sums (APGD, BB): in the order of the\n"
    "                            unknowns (default), or exactly rounded, independent of order and\n"
    "                            of a split into parts (doc/dvi.md; fast=off only)\n"
    CLAB_DVI_REG_HELP,
    0.002,
    dvi_create,
    clab_dvi_step,
    dvi_forces,
    dvi_stats,
    dvi_meta,
    dvi_stable_step,
    dvi_save,
    dvi_load,
    dvi_permute,
    dvi_destroy,
};

/* ---- the keyed hooks of the MPI decomposition (clab_backend_keyed.h) ---- */

/* a warm-start record: the contact key and the world impulse F [N s], 32 bytes */
typedef struct dvi_keyed {
    uint64_t key;
    clab_vec3 F;
} dvi_keyed;

/* the warm start of the contacts touching a marked body, keys renumbered through map */
static int dvi_keyed_export(const void *self, const size_t *map, const unsigned char *mark, size_t nbodies, void **rec,
                            size_t *n, clab_error *err)
{
    const clab_warmstart *ws = &((const clab_dvi *)self)->warm;
    *rec = NULL;
    *n = 0;
    size_t m = 0;
    for (int pass = 0; pass < 2; pass++) {
        dvi_keyed *r = pass ? *rec : NULL;
        size_t k = 0;
        for (size_t i = 0; i < ws->cap; i++) {
            const uint64_t key = ws->slots[i].key;
            const size_t a = (size_t)(key >> 38), b = (size_t)((key >> 12) & 0x3ffffffu);
            if (key == CLAB_WARM_EMPTY || a >= nbodies || b >= nbodies || !(mark[a] || mark[b])) continue;
            if (r) r[k] = (dvi_keyed){clab_contact_key((int)map[a], (int)map[b], (unsigned)(key & 0xfffu)), ws->slots[i].F};
            k++;
        }
        if (!pass) {
            m = k;
            if (m == 0) return CLAB_OK;
            if (!(*rec = malloc(m * sizeof(dvi_keyed))))
                return clab_error_set(err, CLAB_ENOMEM, "dvi backend: out of memory for %zu warm-start records", m);
        }
    }
    *n = m;
    return CLAB_OK;
}

/* the warm start becomes the records given */
static int dvi_keyed_import(void *self, const void *rec, size_t n, clab_error *err)
{
    clab_warmstart *ws = &((clab_dvi *)self)->warm;
    const dvi_keyed *r = rec;
    if (clab_warm_reset(ws, n))
        return clab_error_set(err, CLAB_ENOMEM, "dvi backend: out of memory for %zu warm-start records", n);
    for (size_t i = 0; i < n; i++) clab_warm_put(ws, r[i].key, r[i].F);
    return CLAB_OK;
}

/* the rest of the state: the solver counters, as dvi_save writes them */
typedef struct dvi_head {
    int64_t solves, iterations, hits;
} dvi_head;

static void dvi_get_head(const void *self, void *buf)
{
    const clab_dvi *s = self;
    const dvi_head h = {s->solves, s->total_iterations, s->maxiter_hits};
    memcpy(buf, &h, sizeof h);
}

static void dvi_set_head(void *self, const void *buf)
{
    clab_dvi *s = self;
    dvi_head h;
    memcpy(&h, buf, sizeof h);
    s->solves = (long)h.solves;
    s->total_iterations = (long)h.iterations;
    s->maxiter_hits = (long)h.hits;
}

/* across ranks: the plain solvers with exactly rounded sums (split.h's promise) */
static const char *const dvi_rank_options[] = {"fast", "off", "sums", "exact", NULL};

const clab_backend_keyed clab_backend_dvi_keyed = {
    .type = &clab_backend_dvi,
    .size = sizeof(dvi_keyed),
    .export_state = dvi_keyed_export,
    .import_state = dvi_keyed_import,
    .head_size = sizeof(dvi_head),
    .get_head = dvi_get_head,
    .set_head = dvi_set_head,
    .rank_options = dvi_rank_options,
    .set_ranks = clab_dvi_set_ranks,
};
