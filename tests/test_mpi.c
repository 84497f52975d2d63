/* test_mpi.c: the penalty backend across MPI ranks (mpi/, doc/mpi.md), run by tests/test_mpi.sh
 * under mpirun on 1 to 4 ranks; rank 0 prints unnumbered TAP lines (the script numbers none and
 * writes the plan).
 *
 * A sphere slides with Coulomb friction on a floor across a periodic box cut into as many
 * bricks along x as there are ranks: it changes owner at every brick face, and its contact's
 * tangential history (capped at mu F_n while it slides, then the stick spring once it rolls:
 * it is launched sliding, v0 = 2 m/s, no spin, so it rolls after t = 2 v0 / (7 mu g)) moves with
 * it. Expected: the end state equal TO THE BIT to the one-process clab_sim run of the same
 * world (the decomposition's promise: the same contacts in the same order, the same sums);
 * the sphere owned by every rank in turn; and the same run with the history dropped at each
 * rebuild differing from it (the history matters here, so the first check can fail). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_backend_keyed.h"
#include "clab_mpi.h"
#include "mpi_internal.h"

#include "mpi_check.h"

#define L 0.2     /* the period along x [m] */
#define R 0.01    /* sphere radius [m] */
#define H 4e-4    /* step [s] */
#define STEPS 400

/* the floor and spheres sliding along x at 2 m/s, rows at y = 0.03 k (nrows of them) */
static clab_world *sliding(int nrows)
{
    clab_error err;
    clab_world *w = clab_world_create(NULL);
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "default");
    m.mu = 0.5;
    m.E = 1e6; /* soft: a step of 1e-4 s resolves the contact */
    m.nu = 0.3;
    m.cor = 0.5;
    clab_world_add_material(w, &m, &err);
    clab_world_set_periodic(w, 0, 0.0, L, &err);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    clab_world_add_body(w, &d, &err);
    for (int k = 0; k < nrows; k++) {
        d = clab_default_body_def();
        d.shape = clab_sphere(R);
        d.density = 2500.0;
        d.r = clab_v3(0.01 + 0.013 * k, 0.03 * k, R - 1e-5); /* resting: a small overlap */
        d.rdot = clab_v3(2.0 - 0.1 * k, 0.0, 0.0);
        if (clab_world_add_body(w, &d, &err) < 0) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
    }
    return w;
}

/* the one-process run */
static uint64_t one_rank(int nrows)
{
    clab_error err;
    clab_world *w = sliding(nrows);
    clab_sim *s = clab_sim_create(w, "penalty", H, NULL, &err);
    for (int k = 0; k < STEPS && s; k++)
        if (clab_sim_step(s, &err)) break;
    uint64_t h = clab_mpi_state_hash(w);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return h;
}

/* the run across the ranks: the end state's hash on rank 0, the ranks that owned sphere 1,
 * the rebuilds; drop: the history emptied after every rebuild */
static int across(int nrows, int drop, uint64_t *hash, int *owners, long *rebuilds)
{
    int P;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    clab_error err;
    clab_error_clear(&err);
    clab_mpi_domain *d = NULL;
    clab_mpi_sim *ms = NULL;
    const int grid[3] = {P, 1, 1};
    int rc = clab_mpi_domain_create(&d, MPI_COMM_WORLD, sliding(nrows), grid, 0, 0.1 * R, 0.0, &err);
    if (!rc) rc = clab_mpi_sim_create(&ms, d, "penalty", H, NULL, &err);
    unsigned owned = 0; /* bit q: rank q owned sphere 1 at some step */
    for (int k = 0; k < STEPS && !rc; k++) {
        const long before = d->traffic.rebuilds;
        rc = clab_mpi_sim_step(ms, &err);
        if (!rc && drop && d->traffic.rebuilds != before)
            clab_backend_keyed_of(ms->sim->type)->import_state(ms->sim->self, NULL, 0, &err);
        const size_t k1 = clab_mpi_local_index(d, 1);
        if (k1 != SIZE_MAX && d->mine[k1]) owned |= 1u << rank_;
    }
    if (!rc) rc = clab_mpi_gather(d, 0, &err);
    if (rc) fprintf(stderr, "rank %d: %s\n", rank_, err.msg);
    unsigned all = 0;
    MPI_Allreduce(&owned, &all, 1, MPI_UNSIGNED, MPI_BOR, MPI_COMM_WORLD);
    *owners = __builtin_popcount(all);
    *hash = rc || !d->global ? 0 : clab_mpi_state_hash(d->global); /* (rank 0's) */
    *rebuilds = d ? d->traffic.rebuilds : 0;
    clab_mpi_sim_destroy(ms);
    clab_mpi_domain_destroy(d);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int P;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    for (int nrows = 1; nrows <= 3; nrows += 2) {
        const uint64_t ref = one_rank(nrows);
        uint64_t h = 0, hd = 0;
        int owners = 0, od = 0;
        long rb = 0, rbd = 0;
        int rc = across(nrows, 0, &h, &owners, &rb);
        check(rc == 0 && h == ref,
              "%d ranks, %d sliding sphere(s), %d steps, %ld rebuilds: end state %016llx, one process %016llx (equal "
              "to the bit)",
              P, nrows, STEPS, rb, (unsigned long long)h, (unsigned long long)ref);
        check(owners == P, "%d ranks: sphere 1 owned by %d of them in turn (want all %d)", P, owners, P);
        rc = across(nrows, 1, &hd, &od, &rbd);
        check(rc == 0 && hd != ref, "%d ranks, %d sphere(s), the history dropped at each of %ld rebuilds: %016llx "
              "differs from %016llx (the history matters)", P, nrows, rbd, (unsigned long long)hd,
              (unsigned long long)ref);
    }
    /* refusals name what is not supported */
    {
        clab_error err;
        clab_error_clear(&err);
        clab_mpi_domain *d = NULL;
        clab_mpi_sim *ms = NULL;
        int rc = clab_mpi_domain_create(&d, MPI_COMM_WORLD, sliding(1), NULL, 0, 0.1 * R, 0.002, &err);
        /* the DVI variants that do not run across ranks, each named (jacobi and apgd do:
         * test_mpi.sh's DVI pile; gs: test_mpi_gs.sh) */
        static const char *const dvi_refused[][3] = {
            {"solver", "bb", "solver=bb"},
            {"friction", "exact", "friction=exact"}, {"compliance", "1e-6", "compliance="},
            {"fast", "on", "fast=off"},              {"sums", "sequential", "sums=exact"},
        };
        for (size_t k = 0; !rc && k < sizeof dvi_refused / sizeof dvi_refused[0]; k++) {
            clab_options o;
            clab_options_init(&o);
            clab_options_set(&o, dvi_refused[k][0], dvi_refused[k][1], NULL);
            if (strcmp(dvi_refused[k][0], "friction") == 0) clab_options_set(&o, "solver", "jacobi", NULL);
            int r = clab_mpi_sim_create(&ms, d, "dvi", 1e-3, &o, &err);
            check(r != 0 && ms == NULL && strstr(err.msg, dvi_refused[k][2]) && strstr(err.msg, "ranks"),
                  "dvi %s=%s refused across ranks: %s", dvi_refused[k][0], dvi_refused[k][1], err.msg);
            clab_options_free(&o);
            clab_mpi_sim_destroy(ms);
            ms = NULL;
        }
        if (!rc) rc = clab_mpi_sim_create(&ms, d, "lcp", 1e-3, NULL, &err);
        check(rc != 0 && strstr(err.msg, "lcp") && strstr(err.msg, "ranks"), "the lcp backend refused: %s", err.msg);
        clab_options o;
        clab_options_init(&o);
        clab_options_set(&o, "sort", "100", NULL);
        if (d) rc = clab_mpi_sim_create(&ms, d, "penalty", H, &o, &err);
        check(rc != 0 && strstr(err.msg, "sort"), "option sort refused: %s", err.msg);
        clab_options_free(&o);
        clab_mpi_domain_destroy(d);
        clab_world *w = sliding(1);
        clab_joint j;
        memset(&j, 0, sizeof j);
        j.type = CLAB_JOINT_SPHERICAL;
        j.a = 0;
        j.b = 1;
        clab_world_add_joint(w, &j, &err);
        rc = clab_mpi_domain_create(&d, MPI_COMM_WORLD, w, NULL, 0, 0.1 * R, 0.0, &err);
        check(rc != 0 && strstr(err.msg, "joints"), "joints refused: %s", err.msg);
    }
    if (rank_ == 0) printf("# %d ranks: %d failed\n", P, fails_);
    MPI_Finalize();
    return fails_ ? 1 : 0;
}
