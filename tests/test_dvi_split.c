/* test_dvi_split.c: the split DVI solvers (dvi/split.h) against the one-process plain ones.
 *
 * Scenes: a column of 120 spheres and boxes with a spherical and a distance joint (238
 * contacts), and one of 200 spheres (382 contacts) (tests/pile.h: jittered, overlapping, with
 * random velocities), each CCP solved from the same random initial impulses. Partitions of
 * the moving bodies into P = 1, 2, 3, 4 parts: slabs along z (layers: few ghosts), slabs along
 * x (the column cut lengthwise: most bodies are ghosts somewhere), and random owners.
 *
 *   - jacobi, apgd: every iteration's gamma (gathered from the parts, each block from the part
 *     that counts it), the residual history, the iteration count, the returned gamma and the
 *     velocity update M^-1 D gamma of every body equal the plain solver's with sums=exact TO
 *     THE BIT (split.h: the same operations in the same order), and a block held by two parts
 *     has the same bits on both. The test fails when the split changes an operation: checked
 *     by taking each part's contacts in reversed order (42 checks fail: every jacobi and apgd
 *     identity, gs on one part) and by counting a shared block in the sums on both of its
 *     parts (the 17 apgd identities with shared blocks fail).
 *   - gs (Gauss-Seidel inside a part, Jacobi across): P = 1 is the plain gs to the bit; for
 *     P > 1 it converges (residual <= TOL_GS) and its velocities agree with the one-process
 *     solution to TOL_V: the velocities of the CCP's solution set are unique (the QP of
 *     Eq. (11) is convex, N = D^T M^-1 D), so two solutions to TOL_GS differ in velocity by a
 *     few TOL_GS relative to N's conditioning (measured: at most 4.5e-8 m/s); its iterates,
 *     iteration counts and bits depend on the partition.
 *   - sums=exact against the default sequential sums, apgd and bb to TOL_A: apgd gives the
 *     same bits on these piles (its sums only decide the backtracking and restart tests, and
 *     the Lipschitz estimate is floored by the largest block eigenvalue here), bb not (its
 *     step lengths are quotients of sums): velocities within TOL_V (measured 1.1e-8 m/s).
 *   - the loopback's counts: each part sends 48 bytes (6 doubles) per ghost it serves at
 *     each exchange, receives 48 per ghost, one message per neighbour part.
 *   - the backend's option sums: exact with fast=off runs, with fast=on and an unknown value
 *     are refused with a message. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_sim.h"
#include "pile.h"
#include "plain.h"
#include "split.h"
#include "tap.h"

#define H 1e-3
#define MIXED_N 120    /* bodies of the piles */
#define SPHERES_N 200
#define MAX_ITER 400   /* jacobi, apgd */
#define TOL_A 1e-9     /* their tolerance [m/s] (apgd meets it on the mixed pile; the others stop at MAX_ITER) */
#define TOL_GS 1e-9    /* gs to convergence [m/s] */
#define MAX_GS 20000
#define TOL_V 1e-6     /* velocities of two solutions to 1e-9 m/s [m/s] (measured 4.6e-8) */
#define MAX_SUMS 20000 /* apgd, bb to TOL_A with exact and sequential sums */
#define TRACE_CAP 3000 /* iterates kept per solve */

/* every iterate of a solve, gathered to the global numbering */
typedef struct trace {
    double *x;       /* [cap * n] */
    long iters, cap;
    size_t n;
    long inconsistent; /* blocks whose two holders disagree */
    double *tmp;
} trace;

static void trace_init(trace *t, size_t n, long cap)
{
    t->n = n, t->cap = cap, t->iters = 0, t->inconsistent = 0;
    t->x = calloc((size_t)cap * (n ? n : 1), sizeof *t->x);
    t->tmp = calloc(n ? n : 1, sizeof *t->tmp);
}

static void trace_free(trace *t) { free(t->x), free(t->tmp); }

static void plain_observe(void *ctx, long it, const double *nu)
{
    trace *t = ctx;
    if (it <= t->cap) memcpy(&t->x[(size_t)(it - 1) * t->n], nu, t->n * sizeof *nu), t->iters = it;
}

/* the shared blocks' bits on every holder against the counting part's */
static long disagreements(const clab_split *S, double *const *x, const double *global)
{
    long bad = 0;
    for (int j = 0; j < S->nlocal; j++) {
        const clab_split_part *p = &S->part[j];
        for (size_t b = 0; b < p->P.nblocks; b++)
            bad += memcmp(&x[j][p->P.blocks[b].first], &global[p->block_row[b]],
                          (size_t)p->P.blocks[b].size * sizeof *global) != 0;
    }
    return bad;
}

static void split_observe(void *ctx, long it, const clab_split *S, double *const *x)
{
    trace *t = ctx;
    clab_split_gather(S, x, t->tmp);
    t->inconsistent += disagreements(S, x, t->tmp);
    if (it <= t->cap) memcpy(&t->x[(size_t)(it - 1) * t->n], t->tmp, t->n * sizeof *t->tmp), t->iters = it;
}

/* a pile's CCP and the initial guess of every solve */
typedef struct scene_ccp {
    pile_ccp pc;
    clab_world *w;
    clab_ccp P;   /* = pc.P */
    double *x0;   /* [P.n] impulses of the order of the weights' over h, any sign: projected by the solvers */
} scene_ccp;

/* a pile's CCP (world owned by pc) */
static void make_scene(scene_ccp *sc, int mixed)
{
    pile_ccp *pc = &sc->pc;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, mixed ? 2031 : 77);
    clab_world *w = pile_world(r, mixed ? MIXED_N : SPHERES_N, mixed);
    gsl_rng_free(r);
    if (mixed) pile_add_joints(w, 1, 10, 3, 14);
    pile_ccp_make(pc, w, H);
    sc->w = w, sc->P = pc->P;
    sc->x0 = calloc(pc->P.n + 1, sizeof *sc->x0);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 4242);
    for (size_t k = 0; k < pc->P.n; k++) sc->x0[k] = pile_unif(g, -0.5, 1.0) * 1e-3;
    gsl_rng_free(g);
}

enum { SLAB_Z, SLAB_X, RANDOM, NKINDS };
static const char *kind_names[] = {"z slabs", "x slabs", "random"};

/* owner of every body: the moving ones ranked along the axis and cut into P equal slabs, or
 * random; inert bodies -1 (ignored) */
static void partition(const clab_world *w, const clab_ccp *P, int kind, int nparts, int *owner)
{
    const size_t nb = P->nbodies;
    size_t nm = 0;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)(17 * nparts + kind));
    for (size_t k = 0; k < nb; k++) {
        owner[k] = -1;
        if (P->invm[k] == 0.0) continue;
        nm++;
        if (kind == RANDOM) owner[k] = (int)gsl_rng_uniform_int(r, (unsigned long)nparts);
    }
    gsl_rng_free(r);
    if (kind == RANDOM) return;
    for (size_t k = 0; k < nb; k++) { /* rank along the axis: bodies below, ties by index */
        if (P->invm[k] == 0.0) continue;
        const double zk = kind == SLAB_Z ? w->bodies[k].r.z : w->bodies[k].r.x;
        size_t rank = 0;
        for (size_t m = 0; m < nb; m++) {
            if (P->invm[m] == 0.0) continue;
            const double zm = kind == SLAB_Z ? w->bodies[m].r.z : w->bodies[m].r.x;
            rank += zm < zk || (zm == zk && m < k);
        }
        owner[k] = (int)(rank * (size_t)nparts / nm);
    }
}

/* the parts' x arrays (each part's P.n) */
static double **part_arrays(const clab_split *S, size_t per_body)
{
    double **x = calloc((size_t)S->nlocal, sizeof *x);
    for (int j = 0; j < S->nlocal; j++) {
        const clab_ccp *L = &S->part[j].P;
        x[j] = calloc((per_body ? per_body * L->nbodies : L->n) + 1, sizeof **x);
    }
    return x;
}

static void free_arrays(const clab_split *S, double **x)
{
    for (int j = 0; j < S->nlocal; j++) free(x[j]);
    free(x);
}

/* the one-process reference of a solver: iterates, result, gamma and velocities */
typedef struct reference {
    trace t;
    clab_ccp_result res;
    double *hist, *nu, *dv;
    int rc;
} reference;

static void reference_run(reference *ref, const clab_ccp *P, const double *x0, const char *solver,
                          const clab_ccp_options *o, int sums)
{
    clab_ccp_work W;
    clab_error err;
    clab_ccp_work_init(&W);
    trace_init(&ref->t, P->n, o->max_iter < TRACE_CAP ? o->max_iter : TRACE_CAP);
    ref->nu = calloc(P->n + 1, sizeof *ref->nu);
    ref->dv = calloc(6 * P->nbodies + 1, sizeof *ref->dv);
    memcpy(ref->nu, x0, P->n * sizeof *x0);
    clab_ccp_plain_control ctl = {sums, plain_observe, &ref->t};
    ref->rc = clab_ccp_plain_solve(solver, &ctl, P, o, ref->nu, &W, &ref->res, &err);
    ref->hist = calloc((size_t)ref->res.nhistory + 1, sizeof *ref->hist);
    memcpy(ref->hist, ref->res.history, ref->res.nhistory * sizeof *ref->hist);
    ref->res.history = ref->hist;
    clab_ccp_plain_dv(P, ref->nu, ref->dv);
    clab_ccp_work_free(&W);
}

static void reference_free(reference *ref)
{
    trace_free(&ref->t);
    free(ref->hist), free(ref->nu), free(ref->dv);
}

/* the split run of a solver: gathered gamma, velocities; the loopback's counts in lb */
static int split_run(const clab_split *S, clab_split_loopback *lb, const double *x0, const char *solver,
                     const clab_ccp_options *o, trace *t, clab_ccp_result *res, double *nu, double *dv)
{
    clab_error err;
    clab_error_clear(&err);
    double **x = part_arrays(S, 0), **u = part_arrays(S, 6);
    clab_split_scatter(S, x0, x);
    clab_split_comm comm = clab_split_loopback_comm(lb);
    clab_split_control ctl = {split_observe, t};
    clab_split_loopback_reset(lb);
    int rc = clab_split_solve(solver, S, &comm, o, &ctl, x, res, &err);
    if (rc && rc != CLAB_EMAXITER) tap_diag("split %s: %s", solver, err.msg);
    clab_split_gather(S, x, nu);
    t->inconsistent += disagreements(S, x, nu);
    clab_split_dv(S, x, u, dv);
    free_arrays(S, x), free_arrays(S, u);
    return rc;
}

/* bits of a and b that differ, over n doubles */
static long differ(const double *a, const double *b, size_t n) { return n ? memcmp(a, b, n * sizeof *a) != 0 : 0; }

static double max_diff(const double *a, const double *b, size_t n)
{
    double m = 0.0;
    for (size_t k = 0; k < n; k++) m = fmax(m, fabs(a[k] - b[k]));
    return m;
}

/* jacobi and apgd on P parts: the same bits as one process with exact sums */
static void check_identity(const char *scene, const scene_ccp *pc, const char *solver, const reference *ref,
                           int kind, int nparts, clab_split_loopback *lb)
{
    const clab_ccp *P = &pc->P;
    int *owner = calloc(P->nbodies, sizeof *owner);
    partition(pc->w, P, kind, nparts, owner);
    clab_split S;
    clab_error err;
    if (clab_split_build(&S, P, owner, nparts, &err)) {
        tap_ok(0, "%s: split build: %s", scene, err.msg);
        free(owner);
        return;
    }
    clab_ccp_options o = clab_ccp_default_options(clab_ccp_plain_solver(solver));
    o.max_iter = MAX_ITER, o.tol = TOL_A;
    trace t;
    trace_init(&t, P->n, o.max_iter);
    clab_ccp_result res;
    double *nu = calloc(P->n + 1, sizeof *nu), *dv = calloc(6 * P->nbodies + 1, sizeof *dv);
    int rc = split_run(&S, lb, pc->x0, solver, &o, &t, &res, nu, dv);
    long iter_bad = 0;
    for (long it = 0; it < t.iters && it < ref->t.iters; it++)
        iter_bad += differ(&t.x[(size_t)it * P->n], &ref->t.x[(size_t)it * P->n], P->n);
    size_t ghosts = 0, shared = 0;
    for (int j = 0; j < nparts; j++) {
        ghosts += S.part[j].nghost;
        for (size_t b = 0; b < S.part[j].P.nblocks; b++) shared += S.part[j].shared[b];
    }
    tap_ok(rc == ref->rc && res.iterations == ref->res.iterations && t.iters == ref->t.iters && iter_bad == 0 &&
               !differ(res.history, ref->res.history, (size_t)res.nhistory) && !differ(nu, ref->nu, P->n) &&
               !differ(dv, ref->dv, 6 * P->nbodies) && t.inconsistent == 0,
           "%s, %s, P = %d (%s; %zu ghosts, %zu shared block copies): %ld iterations (one process %ld), "
           "iterates differing %ld, history/gamma/velocities %s, shared blocks disagreeing %ld, status %d/%d",
           scene, solver, nparts, kind_names[kind], ghosts, shared, res.iterations, ref->res.iterations, iter_bad,
           !differ(res.history, ref->res.history, (size_t)res.nhistory) && !differ(nu, ref->nu, P->n) &&
                   !differ(dv, ref->dv, 6 * P->nbodies)
               ? "the same bits"
               : "DIFFERENT",
           t.inconsistent, rc, ref->rc);
    trace_free(&t);
    free(nu), free(dv), free(owner);
    clab_split_free(&S);
}

/* gs: one part is the plain gs to the bit; more parts converge to the one-process velocities */
static void check_gs(const char *scene, const scene_ccp *pc, const reference *ref, int kind, int nparts,
                     clab_split_loopback *lb)
{
    const clab_ccp *P = &pc->P;
    int *owner = calloc(P->nbodies, sizeof *owner);
    partition(pc->w, P, kind, nparts, owner);
    clab_split S;
    clab_error err;
    if (clab_split_build(&S, P, owner, nparts, &err)) {
        tap_ok(0, "%s: split build: %s", scene, err.msg);
        free(owner);
        return;
    }
    clab_ccp_options o = clab_ccp_default_options(clab_ccp_plain_solver("gs"));
    o.max_iter = MAX_GS, o.tol = TOL_GS;
    trace t;
    trace_init(&t, P->n, nparts == 1 ? TRACE_CAP : 1);
    clab_ccp_result res;
    double *nu = calloc(P->n + 1, sizeof *nu), *dv = calloc(6 * P->nbodies + 1, sizeof *dv);
    int rc = split_run(&S, lb, pc->x0, "gs", &o, &t, &res, nu, dv);
    const double dvmax = max_diff(dv, ref->dv, 6 * P->nbodies);
    if (nparts == 1) {
        long iter_bad = 0;
        for (long it = 0; it < t.iters && it < ref->t.iters; it++)
            iter_bad += differ(&t.x[(size_t)it * P->n], &ref->t.x[(size_t)it * P->n], P->n);
        tap_ok(rc == ref->rc && res.iterations == ref->res.iterations && iter_bad == 0 &&
                   !differ(nu, ref->nu, P->n) && !differ(dv, ref->dv, 6 * P->nbodies),
               "%s, gs, P = 1: the plain gs to the bit (%ld iterations, one process %ld; iterates differing %ld)",
               scene, res.iterations, ref->res.iterations, iter_bad);
    } else {
        tap_ok(rc == CLAB_OK && res.converged && dvmax <= TOL_V && t.inconsistent == 0,
               "%s, gs, P = %d (%s): converged to %.3g m/s in %ld iterations (one process %ld), velocities "
               "within %.3g <= %g m/s of one process's, shared blocks disagreeing %ld",
               scene, nparts, kind_names[kind], res.residual, res.iterations, ref->res.iterations, dvmax, TOL_V,
               t.inconsistent);
    }
    trace_free(&t);
    free(nu), free(dv), free(owner);
    clab_split_free(&S);
}

/* the loopback's counts of an apgd solve on P parts: 48 bytes a ghost served per exchange,
 * one message per neighbour; the totals sent and received agree */
static void check_counts(const char *scene, const scene_ccp *pc, int kind, int nparts, clab_split_loopback *lb)
{
    const clab_ccp *P = &pc->P;
    int *owner = calloc(P->nbodies, sizeof *owner);
    partition(pc->w, P, kind, nparts, owner);
    clab_split S;
    clab_error err;
    if (clab_split_build(&S, P, owner, nparts, &err)) {
        tap_ok(0, "%s: split build: %s", scene, err.msg);
        free(owner);
        return;
    }
    clab_ccp_options o = clab_ccp_default_options(NULL);
    o.max_iter = MAX_ITER, o.tol = TOL_A;
    trace t;
    trace_init(&t, P->n, 1);
    clab_ccp_result res;
    double *nu = calloc(P->n + 1, sizeof *nu), *dv = calloc(6 * P->nbodies + 1, sizeof *dv);
    split_run(&S, lb, pc->x0, "apgd", &o, &t, &res, nu, dv);
    int ok = 1;
    long sent = 0, received = 0;
    tap_diag("%s, apgd on %d parts (%s), %ld iterations, %ld products; per part:", scene, nparts, kind_names[kind],
             res.iterations, res.body_passes);
    for (int j = 0; j < nparts; j++) {
        const clab_split_part *p = &S.part[j];
        const clab_split_counts *c = &lb->counts[j];
        size_t served = p->send_start[p->nsend], shared = 0;
        for (size_t b = 0; b < p->P.nblocks; b++) shared += p->shared[b];
        ok &= c->bytes == c->exchanges * 48 * (long)served && c->messages == c->exchanges * p->nsend;
        sent += c->bytes;
        received += c->exchanges * 48 * (long)p->nghost;
        tap_diag("  part %d: %zu owned, %zu ghosts, %zu blocks (%zu shared), %d neighbours; an exchange sends %d "
                 "messages, %zu B; per iteration %.2f exchanges, %.2f all-reduces of %.0f B",
                 j, p->nowned, p->nghost, p->P.nblocks, shared, p->nsend, p->nsend, 48 * served,
                 (double)c->exchanges / (double)res.iterations, (double)c->reductions / (double)res.iterations,
                 (double)c->reduce_bytes / (double)c->reductions);
    }
    tap_ok(ok && sent == received, "%s, P = %d (%s): loopback counts 48 B per ghost served per exchange, one message "
           "a neighbour; sent %ld B = received %ld B", scene, nparts, kind_names[kind], sent, received);
    trace_free(&t);
    free(nu), free(dv), free(owner);
    clab_split_free(&S);
}

/* a plain solver with exact sums against the default sequential ones, both to TOL_A: the
 * sums change roundings, which the iteration may amplify before it converges, but both runs
 * end at solutions of the same CCP, whose velocities are unique */
static void check_sums(const char *scene, const scene_ccp *pc, const char *solver)
{
    clab_ccp_options o = clab_ccp_default_options(NULL);
    o.max_iter = MAX_SUMS, o.tol = TOL_A;
    reference seq, ex;
    reference_run(&seq, &pc->P, pc->x0, solver, &o, CLAB_SUMS_SEQUENTIAL);
    reference_run(&ex, &pc->P, pc->x0, solver, &o, CLAB_SUMS_EXACT);
    const double dv = max_diff(seq.dv, ex.dv, 6 * pc->P.nbodies);
    tap_ok(seq.res.converged && ex.res.converged && dv <= TOL_V,
           "%s, %s, sums=exact against sequential: %ld and %ld iterations to %g m/s, velocity updates within "
           "%.3g <= %g m/s%s", scene, solver, ex.res.iterations, seq.res.iterations, TOL_A, dv, TOL_V,
           dv == 0.0 && !differ(seq.nu, ex.nu, pc->P.n) ? ", the same bits" : "");
    reference_free(&seq), reference_free(&ex);
}

/* the option sums of the dvi backend */
static void check_option(void)
{
    const char *cases[][2] = {{"exact", "off"}, {"exact", "on"}, {"fast", "off"}};
    for (int c = 0; c < 3; c++) {
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(r, 5);
        clab_world *w = pile_world(r, 8, 0);
        gsl_rng_free(r);
        clab_options o;
        clab_error err;
        clab_error_clear(&err);
        clab_options_init(&o);
        clab_options_set(&o, "sums", cases[c][0], NULL);
        clab_options_set(&o, "fast", cases[c][1], NULL);
        clab_options_set(&o, "solver", "bb", NULL);
        clab_sim *s = clab_sim_create(w, "dvi", H, &o, &err);
        int stepped = s != NULL;
        for (int k = 0; s && k < 20; k++) stepped &= clab_sim_step(s, &err) == CLAB_OK;
        if (c == 0)
            tap_ok(stepped, "sums=exact fast=off (bb): 20 steps run%s%s", s ? "" : ": ", s ? "" : err.msg);
        else
            tap_ok(!s && err.status == CLAB_EINVAL && strstr(err.msg, "sums"), "sums=%s fast=%s refused: %s",
                   cases[c][0], cases[c][1], err.msg);
        clab_sim_destroy(s);
        clab_options_free(&o);
        clab_world_destroy(w);
    }
}

int main(void)
{
    const char *solvers[] = {"jacobi", "apgd"};
    clab_split_loopback lb;
    if (clab_split_loopback_init(&lb, 4)) return 1;
    for (int mixed = 1; mixed >= 0; mixed--) {
        const char *scene = mixed ? "pile of spheres and boxes with joints" : "pile of spheres";
        scene_ccp sc;
        make_scene(&sc, mixed);
        tap_diag("%s: %zu bodies, %zu contacts, %zu joint rows", scene, sc.P.nbodies, sc.P.ncontacts,
                 sc.P.njoint_rows);
        for (int s = 0; s < 2; s++) {
            clab_ccp_options o = clab_ccp_default_options(clab_ccp_plain_solver(solvers[s]));
            o.max_iter = MAX_ITER, o.tol = TOL_A;
            reference ref;
            reference_run(&ref, &sc.P, sc.x0, solvers[s], &o, CLAB_SUMS_EXACT);
            for (int nparts = 1; nparts <= 4; nparts++)
                for (int kind = 0; kind < (nparts == 1 ? 1 : NKINDS); kind++)
                    check_identity(scene, &sc, solvers[s], &ref, kind, nparts, &lb);
            reference_free(&ref);
        }
        clab_ccp_options o = clab_ccp_default_options(clab_ccp_plain_solver("gs"));
        o.max_iter = MAX_GS, o.tol = TOL_GS;
        reference ref;
        reference_run(&ref, &sc.P, sc.x0, "gs", &o, CLAB_SUMS_SEQUENTIAL);
        for (int nparts = 1; nparts <= 4; nparts++)
            for (int kind = 0; kind < (nparts == 1 ? 1 : NKINDS); kind++) check_gs(scene, &sc, &ref, kind, nparts, &lb);
        reference_free(&ref);
        check_sums(scene, &sc, "apgd");
        check_sums(scene, &sc, "bb");
        check_counts(scene, &sc, SLAB_Z, 4, &lb);
        check_counts(scene, &sc, RANDOM, 4, &lb);
        pile_ccp_free(&sc.pc);
        free(sc.x0);
    }
    check_option();
    clab_split_loopback_free(&lb);
    return tap_done();
}
