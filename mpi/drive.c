/* drive.c: driven bodies (prescribed motions, servo walls) and applied loads across ranks
 * (doc/mpi.md, "How it works").
 *
 * A driven body is fixed (infinite mass: lib/clab_motion.h), so it is replicated on every rank
 * like a wall, and each rank advances its copy with the same motion from the same state inside
 * clab_sim_step (clab_world_motion_begin, _drift): the same bits on every rank and as in one
 * process. What couples the ranks is a servo wall's velocity, set after each step from the
 * contact force on the wall. One process sums that force over the contacts touching the wall in
 * contact order (clab_sim_body_force); across ranks, each contact's term comes from the owner of
 * its moving body (a contact with a ghost is computed on two ranks: one counts it), every rank
 * gathers all the terms with their contacts' global keys (MPI_Allgatherv), orders them by key,
 * the one-process contact order, and adds them in that order: the one-process force to the bit,
 * and so the servo's velocity. Loads go by global index: a table of the loaded bodies, alike on
 * every rank (they are few: a loading plate, a piston), applied to the local world after each
 * rebuild. */
#include "clab_mpi.h"
#include "mpi_internal.h"

#include <stdlib.h>
#include <string.h>

void clab_mpi_drives_free(clab_mpi_domain *d)
{
    for (size_t k = 0; k < d->ndrive; k++) free((double *)d->drive_m[k].table);
    free(d->drive_gid);
    free(d->drive_m);
    free(d->load_gid);
    free(d->load);
    d->drive_gid = d->load_gid = NULL;
    d->drive_m = NULL;
    d->load = NULL;
    d->ndrive = d->nload = 0;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* rank 0: its world's driven bodies (by global index) and loads into d, the tables' rows
 * counted in *nrows */
static int take_root(clab_mpi_domain *d, const clab_world *w, size_t *nrows, clab_error *err)
{
    size_t nl = 0;
    for (size_t i = 0; w->loads && i < w->nbodies; i++)
        nl += clab_v3_norm2(w->loads[i].F) != 0.0 || clab_v3_norm2(w->loads[i].T) != 0.0;
    uint64_t *order = malloc((w->ndriven ? w->ndriven : 1) * sizeof *order);
    d->drive_gid = malloc((w->ndriven ? w->ndriven : 1) * sizeof *d->drive_gid);
    d->drive_m = calloc(w->ndriven ? w->ndriven : 1, sizeof *d->drive_m);
    d->load_gid = malloc((nl ? nl : 1) * sizeof *d->load_gid);
    d->load = malloc((nl ? nl : 1) * sizeof *d->load);
    if (!order || !d->drive_gid || !d->drive_m || !d->load_gid || !d->load) {
        free(order);
        return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the driven bodies");
    }
    /* the driven bodies in global order (the world keeps them in no order): body << 20 | k */
    for (size_t k = 0; k < w->ndriven; k++) order[k] = ((uint64_t)w->driven[k].body << 20) | k;
    if (w->ndriven >= (1u << 20)) {
        free(order);
        return clab_error_set(err, CLAB_EINVAL, "mpi: %zu driven bodies: at most 2^20", w->ndriven);
    }
    qsort(order, w->ndriven, sizeof *order, cmp_u64);
    *nrows = 0;
    for (size_t j = 0; j < w->ndriven; j++) {
        const clab_driven *dr = &w->driven[order[j] & 0xfffffu];
        d->drive_gid[j] = dr->body;
        d->drive_m[j] = dr->m;
        d->drive_m[j].table = NULL;
        *nrows += dr->m.kind == CLAB_MOTION_TABLE ? dr->m.nrows : 0;
    }
    d->ndrive = w->ndriven;
    for (size_t i = 0, j = 0; w->loads && i < w->nbodies; i++)
        if (clab_v3_norm2(w->loads[i].F) != 0.0 || clab_v3_norm2(w->loads[i].T) != 0.0) {
            d->load_gid[j] = i;
            d->load[j++] = w->loads[i];
        }
    d->nload = nl;
    free(order);
    return CLAB_OK;
}

int clab_mpi_drives_init(clab_mpi_domain *d, const clab_world *global, clab_error *err)
{
    size_t nrows = 0;
    int rc = d->rank == 0 ? take_root(d, global, &nrows, err) : CLAB_OK;
    /* the counts, with rank 0's status */
    uint64_t n[4] = {(uint64_t)rc, d->ndrive, d->nload, nrows};
    MPI_Bcast(n, 4, MPI_UINT64_T, 0, d->comm);
    if (n[0]) {
        clab_mpi_drives_free(d);
        return rc ? rc : clab_error_set(err, CLAB_EINVAL, "mpi: rank 0 failed (its message on its stderr)");
    }
    const size_t nd = (size_t)n[1], nl = (size_t)n[2], nr = (size_t)n[3];
    double *rows = malloc((nr ? nr : 1) * CLAB_MOTION_COLS * sizeof *rows);
    if (d->rank != 0) {
        d->ndrive = nd;
        d->nload = nl;
        d->drive_gid = malloc((nd ? nd : 1) * sizeof *d->drive_gid);
        d->drive_m = calloc(nd ? nd : 1, sizeof *d->drive_m);
        d->load_gid = malloc((nl ? nl : 1) * sizeof *d->load_gid);
        d->load = malloc((nl ? nl : 1) * sizeof *d->load);
    }
    int bad = !rows || !d->drive_gid || !d->drive_m || !d->load_gid || !d->load;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, d->comm);
    if (bad) {
        free(rows);
        clab_mpi_drives_free(d);
        return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the driven bodies");
    }
    if (d->rank == 0) /* the tables, one after the other */
        for (size_t k = 0, at = 0; k < nd; k++) {
            const clab_driven *dr = clab_world_motion(global, (size_t)d->drive_gid[k]);
            if (dr->m.kind != CLAB_MOTION_TABLE) continue;
            memcpy(rows + at, dr->m.table, dr->m.nrows * CLAB_MOTION_COLS * sizeof *rows);
            at += dr->m.nrows * CLAB_MOTION_COLS;
        }
    /* (the structs' bytes: every rank runs this binary) */
    MPI_Bcast(d->drive_gid, (int)nd, MPI_UINT64_T, 0, d->comm);
    MPI_Bcast(d->drive_m, (int)(nd * sizeof *d->drive_m), MPI_BYTE, 0, d->comm);
    MPI_Bcast(rows, (int)(nr * CLAB_MOTION_COLS), MPI_DOUBLE, 0, d->comm);
    MPI_Bcast(d->load_gid, (int)nl, MPI_UINT64_T, 0, d->comm);
    MPI_Bcast(d->load, (int)(nl * sizeof *d->load), MPI_BYTE, 0, d->comm);
    for (size_t k = 0, at = 0; k < nd && !rc; k++) {
        d->drive_m[k].table = NULL;
        if (d->drive_m[k].kind != CLAB_MOTION_TABLE) continue;
        const size_t len = d->drive_m[k].nrows * CLAB_MOTION_COLS;
        double *t = malloc(len * sizeof *t);
        if (!t) rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for a motion table");
        else memcpy(t, rows + at, len * sizeof *t);
        d->drive_m[k].table = t;
        at += len;
    }
    free(rows);
    return rc;
}

/* the local world's driven array and loads as of d's tables (after each clab_mpi_set_local: the
 * local indices change; the bodies' states stay as the local world has them) */
int clab_mpi_drives_apply(clab_mpi_domain *d, clab_error *err)
{
    clab_world *lw = d->local;
    for (size_t k = 0; k < lw->ndriven; k++) free((double *)lw->driven[k].m.table);
    free(lw->driven);
    free(lw->loads);
    lw->driven = NULL;
    lw->loads = NULL;
    lw->ndriven = lw->cap_driven = 0;
    if (d->ndrive) {
        lw->driven = calloc(d->ndrive, sizeof *lw->driven);
        if (!lw->driven) return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the driven bodies");
        lw->cap_driven = d->ndrive;
    }
    for (size_t k = 0; k < d->ndrive; k++) {
        const size_t li = clab_mpi_local_index(d, d->drive_gid[k]);
        if (li == SIZE_MAX) /* (a driven body is fixed: every rank holds it) */
            return clab_error_set(err, CLAB_EINVAL, "mpi: driven body %llu missing from the local world",
                                  (unsigned long long)d->drive_gid[k]);
        clab_driven *dr = &lw->driven[lw->ndriven++];
        dr->body = li;
        dr->m = d->drive_m[k];
        dr->m.table = NULL;
        if (d->drive_m[k].kind == CLAB_MOTION_TABLE) {
            const size_t len = d->drive_m[k].nrows * CLAB_MOTION_COLS * sizeof(double);
            double *t = malloc(len);
            if (!t) return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for a motion table");
            memcpy(t, d->drive_m[k].table, len);
            dr->m.table = t;
        }
    }
    if (d->nload) {
        lw->loads = calloc(lw->cap_bodies ? lw->cap_bodies : 1, sizeof *lw->loads);
        if (!lw->loads) return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the loads");
        for (size_t j = 0; j < d->nload; j++) {
            const size_t li = clab_mpi_local_index(d, d->load_gid[j]);
            if (li != SIZE_MAX) lw->loads[li] = d->load[j];
        }
    }
    return CLAB_OK;
}

/* a servo's force term on the wire: the servo (its place in d's driven bodies), the contact's
 * global key, the term */
typedef struct servo_term {
    uint64_t servo, key;
    clab_vec3 F;
} servo_term;

static int cmp_term(const void *a, const void *b)
{
    const servo_term *x = a, *y = b;
    if (x->servo != y->servo) return (x->servo > y->servo) - (x->servo < y->servo);
    return (x->key > y->key) - (x->key < y->key);
}

/* this rank's terms of the servos' forces: of each contact touching a servo, from the owner of
 * its other body (rank 0 for a fixed one); *out malloc'd */
static int my_terms(clab_mpi_sim *ms, servo_term **out, size_t *n, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    const clab_world *lw = d->local;
    const size_t nc = ms->sim->contacts.n;
    clab_vec3 *term = malloc((nc ? nc : 1) * sizeof *term);
    size_t *k = malloc((nc ? nc : 1) * sizeof *k), cap = 0;
    *out = NULL;
    *n = 0;
    int rc = term && k ? CLAB_OK : clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the servo forces");
    for (size_t s = 0; s < d->ndrive && !rc; s++) {
        if (d->drive_m[s].kind != CLAB_MOTION_SERVO) continue;
        const size_t li = clab_mpi_local_index(d, d->drive_gid[s]);
        size_t m = 0;
        rc = clab_sim_body_force_terms(ms->sim, li, term, k, &m, err);
        for (size_t j = 0; j < m && !rc; j++) {
            const clab_contact *ct = &ms->sim->contacts.c[k[j]];
            const size_t other = (size_t)ct->a == li ? (size_t)ct->b : (size_t)ct->a;
            if (lw->bodies[other].fixed ? d->rank != 0 : !d->mine[other]) continue;
            if (*n == cap) {
                cap = 2 * cap + 16;
                servo_term *p = realloc(*out, cap * sizeof *p);
                if (!p) {
                    rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the servo forces");
                    break;
                }
                *out = p;
            }
            const uint64_t key = clab_contact_key((int)d->gid[ct->a], (int)d->gid[ct->b], (unsigned)(ct->key & 0xfffu));
            (*out)[(*n)++] = (servo_term){s, key, term[j]};
        }
    }
    free(term);
    free(k);
    if (rc) *n = 0;
    return rc;
}

/* each servo's velocity for the next step from the force on it over all ranks (servo_update of
 * lib/sim.c with the ranks' terms in the one-process order) */
static int servo_velocities(clab_mpi_sim *ms, int rc, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    servo_term *mine = NULL;
    size_t n = 0;
    if (!rc) rc = my_terms(ms, &mine, &n, err);
    const int P = d->size;
    int *cnt = malloc((size_t)P * sizeof *cnt), *at = malloc((size_t)P * sizeof *at);
    int bad = !cnt || !at;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, d->comm);
    if (bad) {
        free(mine), free(cnt), free(at);
        return rc ? rc : clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the servo forces");
    }
    const int nb = (int)(n * sizeof *mine);
    MPI_Allgather(&nb, 1, MPI_INT, cnt, 1, MPI_INT, d->comm);
    size_t total = 0;
    for (int q = 0; q < P; q++) {
        at[q] = (int)total;
        total += (size_t)cnt[q];
    }
    servo_term *all = malloc(total ? total : 1);
    bad = !all;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, d->comm);
    if (!bad) MPI_Allgatherv(mine, nb, MPI_BYTE, all, cnt, at, MPI_BYTE, d->comm);
    else if (!rc) rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the servo forces");
    const size_t nt = total / sizeof *all;
    if (!rc) qsort(all, nt, sizeof *all, cmp_term);
    for (size_t s = 0, j = 0; s < d->ndrive && !rc; s++) {
        if (d->drive_m[s].kind != CLAB_MOTION_SERVO) continue;
        clab_vec3 F = clab_v3(0.0, 0.0, 0.0);
        while (j < nt && all[j].servo < s) j++;
        for (; j < nt && all[j].servo == s; j++) F = clab_v3_add(F, all[j].F);
        const clab_motion *m = &d->drive_m[s];
        clab_body *b = &d->local->bodies[clab_mpi_local_index(d, d->drive_gid[s])];
        b->rdot = clab_v3_madd(m->v, clab_servo_speed(&m->servo, F), m->servo.axis);
    }
    free(mine);
    free(all);
    free(cnt);
    free(at);
    return rc;
}

int clab_mpi_drives_step(clab_mpi_sim *ms, int rc, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    if (!d->ndrive) return rc;
    int servos = 0;
    for (size_t s = 0; s < d->ndrive; s++) servos |= d->drive_m[s].kind == CLAB_MOTION_SERVO;
    if (servos) rc = servo_velocities(ms, rc, err); /* (collective: on failure too) */
    /* the replicas the next local worlds, the outputs and the checkpoints take them from */
    for (size_t s = 0; s < d->ndrive && !rc; s++) {
        const size_t lo = clab_mpi_lower(d->fixed_gid, d->nfixed, d->drive_gid[s]);
        if (lo < d->nfixed && d->fixed_gid[lo] == d->drive_gid[s])
            d->fixed[lo] = d->local->bodies[clab_mpi_local_index(d, d->drive_gid[s])];
    }
    return rc;
}
