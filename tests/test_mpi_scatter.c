/* test_mpi_scatter.c: the first local worlds sent out by rank 0 (mpi/scatter.c), run by
 * tests/test_mpi_scatter.sh under mpirun on 1 to 4 ranks; rank 0 prints unnumbered TAP lines.
 *
 * A chute-like world: periodic along x and y, a floor plane, a mesh wall of 8 triangles, 9,000
 * spheres (three chunks of the broadcast) with fixed spheres among them in the global order, t
 * and step not zero. Every rank builds it (the test's reference) but only rank 0 gives it to
 * clab_mpi_domain_create; the others give NULL. Expected, on every rank: the local world is the
 * one the whole-world path makes (the fixed bodies, and the moving bodies the rank owns or holds
 * within reach of its brick: clab_mpi_owner_of, clab_mpi_in_reach, at the domain's cuts), body
 * for body: the global index, the bytes of clab_body (no padding: 184 bytes of fields) and the
 * name equal; the shell (gravity, t, step, periodic axes, materials, the triangle store) equal
 * field by field. Tolerance: none, bytes equal, because the broadcast carries the whole world's
 * own bytes (one build, one machine type) and every later step's bits depend on them. With --balance the cuts equal those
 * clab_mpi_balance gives from the whole world's share (the moving bodies of global index rank
 * modulo P on rank P), the share the scatter takes from its chunks. A world rank 0 refuses
 * (a joint) gives an error on every rank, none left waiting. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_mesh.h"
#include "clab_mpi.h"
#include "mpi_internal.h"

#include "mpi_check.h"

static int size_ = 1;

#define NSPH 9000 /* spheres: three chunks of 4,096 */
#define RAD 0.005 /* their radius [m] */
#define LX 0.6    /* the periods along x and y [m] */
#define LY 0.3

static clab_world *chute(void)
{
    clab_error err;
    clab_world *w = clab_world_create(NULL);
    w->gravity = clab_v3(4.9, 0.0, -8.5);
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "glass");
    m.mu = 0.4;
    const int glass = clab_world_add_material(w, &m, &err);
    clab_world_set_periodic(w, 0, 0.0, LX, &err);
    clab_world_set_periodic(w, 1, 0.0, LY, &err);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    snprintf(d.name, sizeof d.name, "floor");
    clab_world_add_body(w, &d, &err);
    /* a mesh wall: a bumpy strip of 8 triangles across y at z 0.2, over x 0.1 .. 0.5 */
    double xyz[8 * 9];
    for (int k = 0; k < 4; k++) {
        const double x0 = 0.1 + 0.1 * k, x1 = x0 + 0.1, z = 0.2 + 0.01 * (k % 2);
        const double t[18] = {x0, 0.02, z, x1, 0.02, z, x1, 0.28, z, x0, 0.02, z, x1, 0.28, z, x0, 0.28, z};
        memcpy(xyz + 18 * k, t, sizeof t);
    }
    clab_mesh_def md = clab_default_mesh_def();
    snprintf(md.name, sizeof md.name, "bump");
    md.xyz = xyz;
    md.ntri = 8;
    if (clab_world_add_mesh(w, &md, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        exit(1);
    }
    for (int i = 0; i < NSPH; i++) { /* a loose lattice, some spheres frozen, names of varied length */
        d = clab_default_body_def();
        d.shape = clab_sphere(RAD * (1.0 + 0.1 * (i % 3)));
        d.material = i % 2 ? glass : 0;
        d.r = clab_v3(0.015 * (i % 40) + 0.003, 0.015 * ((i / 40) % 20) + 0.004, 0.01 + 0.015 * (i / 800));
        d.rdot = clab_v3(0.1 * (i % 7), -0.05 * (i % 5), 0.0);
        d.omega = clab_v3(0.0, 1.0 * (i % 3), 0.0);
        d.fixed = i % 97 == 0;
        if (i % 5 == 0) snprintf(d.name, sizeof d.name, "grain-%d-with-a-longer-name-%0*d", i, 20, i);
        else if (i % 5 == 1) snprintf(d.name, sizeof d.name, "g%d", i);
        if (clab_world_add_body(w, &d, &err) < 0) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
    }
    w->t = 0.125;
    w->step = 12500;
    return w;
}

/* the local world against the whole world W at the domain's cuts: 1 when equal */
static int same_local(const clab_mpi_domain *d, const clab_world *W, size_t *nlocal)
{
    const clab_world *lw = d->local;
    *nlocal = lw->nbodies;
    size_t k = 0;
    int ok = d->nglobal == W->nbodies;
    for (size_t i = 0; i < W->nbodies && ok; i++) {
        const clab_body *b = &W->bodies[i];
        if (!(b->fixed || clab_mpi_owner_of(d, b->r) == d->rank || clab_mpi_in_reach(d, d->rank, b))) continue;
        ok = k < lw->nbodies && d->gid[k] == i && !memcmp(&lw->bodies[k], b, sizeof *b) &&
             !strcmp(clab_world_body_name(lw, k), clab_world_body_name(W, i));
        k++;
    }
    ok = ok && k == lw->nbodies;
    /* the shell, field by field where a struct has padding or bytes past a name's '\0' (the
     * reference world on a rank other than 0 is that rank's own build: its padding is its own) */
    ok = ok && !memcmp(&lw->gravity, &W->gravity, sizeof W->gravity) && lw->t == W->t && lw->step == W->step &&
         !memcmp(&lw->periodic, &W->periodic, sizeof W->periodic) && lw->nmaterials == W->nmaterials;
    for (size_t j = 0; ok && j < W->nmaterials; j++) {
        const clab_material *p = &lw->materials[j], *q = &W->materials[j];
        ok = !strcmp(p->name, q->name) && !memcmp(&p->mu, &q->mu, sizeof *p - offsetof(clab_material, mu));
    }
    const clab_meshes *a = lw->meshes, *m = W->meshes;
    ok = ok && a && a->n == m->n && a->ng == m->ng && a->nmesh == m->nmesh && !memcmp(a->g, m->g, m->ng * sizeof *m->g);
    for (size_t j = 0; ok && j < m->nmesh; j++) ok = !strcmp(a->name[j], m->name[j]);
    for (size_t j = 0; ok && j < m->n; j++) {
        const clab_tri *p = &a->t[j], *q = &m->t[j];
        ok = !memcmp(p->w, q->w, sizeof p->w) && !memcmp(&p->n, &q->n, sizeof p->n) &&
             !memcmp(p->beta, q->beta, sizeof p->beta) && !memcmp(&p->r0, &q->r0, sizeof p->r0) && p->own == q->own &&
             !memcmp(p->anchor, q->anchor, sizeof p->anchor) && !memcmp(p->reg, q->reg, sizeof p->reg) &&
             p->mesh == q->mesh;
    }
    return ok;
}

/* the cuts clab_mpi_balance gives from the whole world's share, into cut */
static int whole_world_cuts(const clab_world *W, double skin, double cut[3][65], clab_error *err)
{
    clab_mpi_domain *d = NULL;
    int rc = clab_mpi_domain_create(&d, MPI_COMM_WORLD, rank_ == 0 ? clab_world_clone(W) : NULL, NULL, 0, skin, 0.0, err);
    clab_vec3 *x = malloc((W->nbodies / (size_t)size_ + 1) * sizeof *x);
    size_t n = 0;
    for (size_t i = (size_t)rank_; x && i < W->nbodies; i += (size_t)size_)
        if (!W->bodies[i].fixed) x[n++] = W->bodies[i].r;
    if (!rc) rc = clab_mpi_balance(d, x, n, err);
    if (!rc) memcpy(cut, d->cut, sizeof d->cut);
    free(x);
    clab_mpi_domain_destroy(d);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    clab_world *W = chute();
    const double skin = 0.1 * RAD;
    for (int balance = 0; balance <= 1; balance++) {
        clab_error err;
        clab_error_clear(&err);
        clab_mpi_domain *d = NULL;
        /* the world on rank 0 only */
        int rc = clab_mpi_domain_create(&d, MPI_COMM_WORLD, rank_ == 0 ? clab_world_clone(W) : NULL, NULL, balance, skin,
                                        0.0, &err);
        if (rc) fprintf(stderr, "rank %d: %s\n", rank_, err.msg);
        size_t nl = 0;
        const int same = !rc && same_local(d, W, &nl);
        long owned = 0, lsum = (long)nl;
        for (size_t k = 0; !rc && k < d->local->nbodies; k++) owned += d->mine[k];
        MPI_Allreduce(MPI_IN_PLACE, &owned, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, &lsum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        check_all(same, "%d rank(s)%s, the world on rank 0 only: every rank's local world the whole-world path's, body for "
              "body (global index, clab_body bytes, name) and its shell (materials, mesh store, periodic axes, t, "
              "step); %ld local bodies over the ranks", size_, balance ? ", --balance" : "", lsum);
        check_all(!rc && owned == NSPH - (NSPH + 96) / 97, "%d rank(s)%s: every moving body owned once (%ld owned, want %d)",
              size_, balance ? ", --balance" : "", owned, NSPH - (NSPH + 96) / 97);
        check_all(!rc && (rank_ == 0) == (d->global != NULL), "%d rank(s)%s: the whole world kept on rank 0 only", size_,
              balance ? ", --balance" : "");
        if (balance) {
            double cut[3][65];
            int r2 = whole_world_cuts(W, skin, cut, &err);
            check_all(!rc && !r2 && !memcmp(cut, d->cut, sizeof cut), "%d rank(s), --balance: the cuts those of the whole "
                  "world's share, bit for bit (grid %dx%dx%d)", size_, d ? d->grid[0] : 0, d ? d->grid[1] : 0,
                  d ? d->grid[2] : 0);
        }
        clab_mpi_domain_destroy(d);
    }
    { /* a world rank 0 refuses: an error on every rank */
        clab_error err;
        clab_error_clear(&err);
        clab_world *w = NULL;
        if (rank_ == 0) {
            w = clab_world_clone(W);
            clab_joint j;
            memset(&j, 0, sizeof j);
            j.type = CLAB_JOINT_SPHERICAL;
            j.a = 1;
            j.b = 20;
            clab_world_add_joint(w, &j, &err);
        }
        clab_mpi_domain *d = NULL;
        const int rc = clab_mpi_domain_create(&d, MPI_COMM_WORLD, w, NULL, 0, skin, 0.0, &err);
        check_all(rc != 0 && d == NULL && strstr(err.msg, rank_ == 0 ? "joints" : "rank 0 failed"),
              "%d rank(s): a joint refused by rank 0, an error on every rank (rank 0: %s)", size_,
              rank_ == 0 ? err.msg : "");
    }
    clab_world_destroy(W);
    if (rank_ == 0) printf("# %d ranks: %d failed\n", size_, fails_);
    MPI_Finalize();
    return fails_ ? 1 : 0;
}
