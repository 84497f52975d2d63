/* checkpoint.c: one checkpoint file of a run across ranks, which a run on any number of ranks
 * restarts from (clab_mpi.h). It holds what the one-process state is made of: every body's
 * state in the global order, the time and step, the backend's keyed records with global keys
 * and the rest of its state (clab_backend_keyed.h). Rank 0 writes it; every rank reads it.
 *
 * Layout (native byte order, for restarts on the same kind of machine): "CLABMPI1", the
 * backend's name (32 bytes), uint64 nbodies, int64 step, double t, nbodies x 13 doubles (r, e,
 * rdot, wbar), uint64 head_size and the head, uint64 record size, uint64 records, the records. */
#include "clab_mpi.h"
#include "clab_backend_keyed.h"
#include "mpi_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char magic[8] = {'C', 'L', 'A', 'B', 'M', 'P', 'I', '1'};

static int put(FILE *f, const void *p, size_t n) { return fwrite(p, 1, n, f) == n ? 0 : -1; }
static int get(FILE *f, void *p, size_t n) { return fread(p, 1, n, f) == n ? 0 : -1; }

int clab_mpi_checkpoint_write(clab_mpi_sim *ms, const char *path, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    const clab_backend_keyed *k = clab_backend_keyed_of(ms->sim->type);
    char *rec = NULL;
    size_t nrec = 0;
    int rc = clab_mpi_gather(d, 0, err);
    if (!rc) rc = clab_mpi_gather_keyed(ms, &rec, &nrec, err);
    if (!rc && d->rank == 0) {
        const clab_world *g = d->global;
        char name[32] = {0};
        snprintf(name, sizeof name, "%s", ms->sim->type->name);
        const uint64_t nb = g->nbodies, hs = k->head_size, rs = k->size, nr = nrec;
        const int64_t step = g->step;
        unsigned char head[256];
        if (hs > sizeof head) rc = clab_error_set(err, CLAB_EINVAL, "mpi checkpoint: backend head of %zu bytes", k->head_size);
        else k->get_head(ms->sim->self, head);
        FILE *f = rc ? NULL : fopen(path, "wb");
        if (!rc && !f) rc = clab_error_set(err, CLAB_EIO, "mpi checkpoint: cannot write %s", path);
        int bad = !f || put(f, magic, 8) || put(f, name, 32) || put(f, &nb, 8) || put(f, &step, 8) || put(f, &g->t, 8);
        for (size_t i = 0; i < g->nbodies && !bad; i++) {
            double s[CLAB_MPI_STATE];
            clab_mpi_pack(&g->bodies[i], s);
            bad = put(f, s, sizeof s);
        }
        bad = bad || put(f, &hs, 8) || put(f, head, (size_t)hs) || put(f, &rs, 8) || put(f, &nr, 8) ||
              (nrec && put(f, rec, nrec * k->size));
        if (f && fclose(f)) bad = 1;
        if (!rc && bad) rc = clab_error_set(err, CLAB_EIO, "mpi checkpoint: writing %s failed", path);
    }
    free(rec);
    return clab_mpi_agree(d, rc, NULL, err);
}

/* the file's contents into the domain's global world and *rec (every rank) */
static int read_file(clab_mpi_sim *ms, const char *path, unsigned char *head, char **rec, size_t *nrec, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    const clab_backend_keyed *k = clab_backend_keyed_of(ms->sim->type);
    clab_world *g = d->global;
    FILE *f = fopen(path, "rb");
    if (!f) return clab_error_set(err, CLAB_EIO, "mpi restart: cannot read %s", path);
    char m[8], name[32];
    uint64_t nb, hs, rs, nr;
    int64_t step;
    double t;
    int rc = CLAB_OK;
    if (get(f, m, 8) || memcmp(m, magic, 8) || get(f, name, 32) || get(f, &nb, 8) || get(f, &step, 8) || get(f, &t, 8))
        rc = clab_error_set(err, CLAB_EIO, "mpi restart: %s is not a checkpoint of a run across ranks", path);
    else if (strncmp(name, ms->sim->type->name, sizeof name) != 0)
        rc = clab_error_set(err, CLAB_EINVAL, "mpi restart: %s is of the %.32s backend, this run is %s", path, name,
                            ms->sim->type->name);
    else if (nb != g->nbodies)
        rc = clab_error_set(err, CLAB_EINVAL, "mpi restart: %s holds %llu bodies, this world %zu", path,
                            (unsigned long long)nb, g->nbodies);
    for (size_t i = 0; i < g->nbodies && !rc; i++) {
        double s[CLAB_MPI_STATE];
        if (get(f, s, sizeof s)) rc = clab_error_set(err, CLAB_EIO, "mpi restart: %s is truncated", path);
        else clab_mpi_unpack(&g->bodies[i], s);
    }
    if (!rc && (get(f, &hs, 8) || hs != k->head_size || get(f, head, (size_t)hs) || get(f, &rs, 8) || rs != k->size ||
                get(f, &nr, 8)))
        rc = clab_error_set(err, CLAB_EIO, "mpi restart: %s: the backend's state does not fit this build", path);
    char *r = NULL;
    if (!rc && nr > 0 && !(r = malloc((size_t)(nr * rs))))
        rc = clab_error_set(err, CLAB_ENOMEM, "mpi restart: out of memory for %llu records", (unsigned long long)nr);
    if (!rc && nr > 0 && get(f, r, (size_t)(nr * rs))) rc = clab_error_set(err, CLAB_EIO, "mpi restart: %s is truncated", path);
    fclose(f);
    if (rc) {
        free(r);
        return rc;
    }
    g->t = t;
    g->step = step;
    *rec = r;
    *nrec = (size_t)nr;
    return CLAB_OK;
}

int clab_mpi_checkpoint_read(clab_mpi_sim *ms, const char *path, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    const clab_backend_keyed *k = clab_backend_keyed_of(ms->sim->type);
    unsigned char head[256];
    char *rec = NULL;
    size_t nrec = 0;
    int rc = k->head_size <= sizeof head ? read_file(ms, path, head, &rec, &nrec, err)
                                         : clab_error_set(err, CLAB_EINVAL, "mpi restart: backend head too large");
    if (!rc) rc = clab_mpi_assign(d, err); /* the bricks and the local world of this P */
    if (!rc) {
        d->local->t = d->global->t;
        d->local->step = d->global->step;
        rc = clab_mpi_import_keyed(ms, rec, nrec, err);
    }
    if (!rc) rc = clab_mpi_sim_parts(ms, err);
    if (!rc) {
        k->set_head(ms->sim->self, head);
        clab_collider_invalidate(ms->sim->collider);
        ms->rebuild = 0;
    }
    free(rec);
    return clab_mpi_agree(d, rc, NULL, err);
}
