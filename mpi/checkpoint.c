/* checkpoint.c: one checkpoint file of a run across ranks, which a run on any number of ranks
 * restarts from (clab_mpi.h). It holds what the one-process state is made of: every body's
 * state in the global order, the time and step, the backend's keyed records with global keys
 * and the rest of its state (clab_backend_keyed.h). Rank 0 writes it (the states and records
 * gathered there, chunk by chunk); every rank reads it through, keeping the states of the bodies it owns and
 * the records of its local world's contacts, and a rebuild sends the bodies to their owners
 * under this run's bricks.
 *
 * Layout (native byte order, for restarts on the same kind of machine): "CLABMPI1", the
 * backend's name (32 bytes), uint64 nbodies, int64 step, double t, nbodies x 13 doubles (r, e,
 * rdot, wbar), uint64 head_size and the head, uint64 record size, uint64 records, the records
 * (increasing keys, one of each). Rank 0 writes it chunk by chunk (mpi/gather.c): the states of
 * CLAB_MPI_CHUNK bodies of the global order at a time, the records of the contacts whose body
 * a is in such a chunk at a time, so it holds O(chunk) states and records, never O(N). */
#include "clab_mpi.h"
#include "clab_backend_keyed.h"
#include "mpi_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char magic[8] = {'C', 'L', 'A', 'B', 'M', 'P', 'I', '1'};

static int put(FILE *f, const void *p, size_t n) { return fwrite(p, 1, n, f) == n ? 0 : -1; }
static int get(FILE *f, void *p, size_t n) { return fread(p, 1, n, f) == n ? 0 : -1; }

/* rank 0: the states of every body, chunk by chunk of the global order (the other ranks serve
 * the gathers) */
static int write_states(clab_mpi_domain *d, FILE *f, size_t chunk, int *bad, clab_error *err)
{
    clab_mpi_chunks c;
    int rc = clab_mpi_chunks_init(&c, d, 0, chunk, err);
    if (d->rank != 0) {
        const int rc2 = clab_mpi_chunks_serve(&c, err);
        clab_mpi_chunks_free(&c);
        return rc ? rc : rc2;
    }
    for (uint64_t g0 = 0; !rc && g0 < d->nglobal; g0 += c.chunk) {
        const uint64_t g1 = d->nglobal - g0 < c.chunk ? d->nglobal : g0 + c.chunk;
        const clab_body *b = NULL;
        rc = clab_mpi_chunks_get(&c, g0, g1, &b, err);
        for (uint64_t g = g0; !rc && g < g1 && !*bad; g++) {
            double s[CLAB_MPI_STATE];
            clab_mpi_pack(&b[g - g0], s);
            *bad = put(f, s, sizeof s);
        }
    }
    clab_mpi_chunks_end(&c);
    clab_mpi_chunks_free(&c);
    return rc;
}

/* the backend's keyed records, chunk by chunk of their body a (key >> 38): each chunk's
 * records of every rank gathered on rank 0, sorted, one of each key, written; their count after
 * them, in its place before them (ftell/fseek) */
static int write_records(clab_mpi_sim *ms, FILE *f, size_t chunk, int *bad, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    const size_t sz = clab_backend_keyed_of(ms->sim->type)->size;
    char *rec = NULL;
    size_t n = 0;
    int rc = clab_mpi_keyed_export(ms, &rec, &n, err);
    rc = clab_mpi_agree(d, rc, NULL, err);
    if (rc) {
        free(rec);
        return rc;
    }
    const long at = d->rank == 0 && f ? ftell(f) : 0;
    uint64_t nr = 0;
    if (d->rank == 0) *bad = *bad || at < 0 || put(f, &nr, 8);
    for (uint64_t g0 = 0; g0 < d->nglobal; g0 += chunk) { /* (every rank every chunk: no early end) */
        const uint64_t g1 = d->nglobal - g0 < chunk ? d->nglobal : g0 + chunk;
        char *all = NULL;
        size_t nall = 0;
        const int rc1 = clab_mpi_keyed_range(ms, 0, rec, n, g0, g1, &all, &nall, err);
        rc = rc ? rc : rc1;
        if (!rc && d->rank == 0 && nall && !*bad) *bad = put(f, all, nall * sz);
        nr += nall;
        free(all);
    }
    free(rec);
    if (!rc && d->rank == 0 && !*bad)
        *bad = fseek(f, at, SEEK_SET) || put(f, &nr, 8) || fseek(f, 0, SEEK_END);
    return rc;
}

int clab_mpi_checkpoint_write_chunked(clab_mpi_sim *ms, const char *path, size_t chunk, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    const clab_backend_keyed *k = clab_backend_keyed_of(ms->sim->type);
    uint64_t ch = chunk ? chunk : CLAB_MPI_CHUNK;
    MPI_Bcast(&ch, 1, MPI_UINT64_T, 0, d->comm); /* rank 0's: the records' chunks are every rank's */
    chunk = (size_t)ch;
    int rc = CLAB_OK, bad = 0;
    FILE *f = NULL;
    unsigned char head[256];
    const uint64_t hs = k->head_size, rs = k->size;
    if (d->rank == 0) {
        char name[32] = {0};
        snprintf(name, sizeof name, "%s", ms->sim->type->name);
        const uint64_t nb = d->nglobal;
        const int64_t step = d->local->step;
        if (hs > sizeof head) rc = clab_error_set(err, CLAB_EINVAL, "mpi checkpoint: backend head of %zu bytes", k->head_size);
        else k->get_head(ms->sim->self, head);
        f = rc ? NULL : fopen(path, "wb");
        if (!rc && !f) rc = clab_error_set(err, CLAB_EIO, "mpi checkpoint: cannot write %s", path);
        bad = !f || put(f, magic, 8) || put(f, name, 32) || put(f, &nb, 8) || put(f, &step, 8) ||
              put(f, &d->local->t, 8);
    }
    rc = clab_mpi_agree(d, rc, NULL, err);
    if (!rc) rc = clab_mpi_agree(d, write_states(d, f, chunk, &bad, err), NULL, err);
    if (!rc && d->rank == 0) bad = bad || put(f, &hs, 8) || put(f, head, (size_t)hs) || put(f, &rs, 8);
    if (!rc) rc = write_records(ms, f, chunk, &bad, err);
    if (f && fclose(f)) bad = 1;
    if (!rc && bad) rc = clab_error_set(err, CLAB_EIO, "mpi checkpoint: writing %s failed", path);
    return clab_mpi_agree(d, rc, NULL, err);
}

int clab_mpi_checkpoint_write(clab_mpi_sim *ms, const char *path, clab_error *err)
{
    return clab_mpi_checkpoint_write_chunked(ms, path, CLAB_MPI_CHUNK, err);
}

/* the file's states of the bodies of this rank's local world (owned, ghosts, fixed) into it, the
 * time and step; then the head and the records whose two bodies the local world holds after
 * the rebuild (read_records) */
static int read_states(clab_mpi_sim *ms, FILE *f, const char *path, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    clab_world *lw = d->local;
    char m[8], name[32];
    uint64_t nb;
    int64_t step;
    double t;
    if (get(f, m, 8) || memcmp(m, magic, 8) || get(f, name, 32) || get(f, &nb, 8) || get(f, &step, 8) || get(f, &t, 8))
        return clab_error_set(err, CLAB_EIO, "mpi restart: %s is not a checkpoint of a run across ranks", path);
    if (strncmp(name, ms->sim->type->name, sizeof name) != 0)
        return clab_error_set(err, CLAB_EINVAL, "mpi restart: %s is of the %.32s backend, this run is %s", path, name,
                              ms->sim->type->name);
    if (nb != d->nglobal)
        return clab_error_set(err, CLAB_EINVAL, "mpi restart: %s holds %llu bodies, this world %zu", path,
                              (unsigned long long)nb, d->nglobal);
    size_t f_at = 0;
    for (size_t i = 0; i < d->nglobal; i++) {
        double s[CLAB_MPI_STATE];
        if (get(f, s, sizeof s)) return clab_error_set(err, CLAB_EIO, "mpi restart: %s is truncated", path);
        const size_t k = clab_mpi_local_index(d, i);
        if (k != SIZE_MAX) clab_mpi_unpack(&lw->bodies[k], s); /* owned, ghost or fixed: the owner's bytes */
        while (f_at < d->nfixed && d->fixed_gid[f_at] < i) f_at++;
        if (f_at < d->nfixed && d->fixed_gid[f_at] == i) clab_mpi_unpack(&d->fixed[f_at], s);
        if (d->global) clab_mpi_unpack(&d->global->bodies[i], s);
    }
    lw->t = t;
    lw->step = step;
    if (d->global) {
        d->global->t = t;
        d->global->step = step;
    }
    return CLAB_OK;
}

/* the backend's head and the records of the local world's contacts, renumbered (records are read
 * one at a time: the file's O(N) records are not held) */
static int read_records(clab_mpi_sim *ms, FILE *f, const char *path, unsigned char *head, clab_error *err)
{
    const clab_mpi_domain *d = ms->d;
    const clab_backend_keyed *k = clab_backend_keyed_of(ms->sim->type);
    uint64_t hs, rs, nr;
    if (get(f, &hs, 8) || hs != k->head_size || get(f, head, (size_t)hs) || get(f, &rs, 8) || rs != k->size || get(f, &nr, 8))
        return clab_error_set(err, CLAB_EIO, "mpi restart: %s: the backend's state does not fit this build", path);
    char *keep = NULL, one[512];
    size_t n = 0, cap = 0;
    if (rs > sizeof one) return clab_error_set(err, CLAB_EINVAL, "mpi restart: records of %llu bytes", (unsigned long long)rs);
    int rc = CLAB_OK;
    for (uint64_t i = 0; i < nr && !rc; i++) {
        uint64_t key;
        if (get(f, one, (size_t)rs)) {
            rc = clab_error_set(err, CLAB_EIO, "mpi restart: %s is truncated", path);
            break;
        }
        memcpy(&key, one, sizeof key);
        if (clab_mpi_local_index(d, key >> 38) == SIZE_MAX || clab_mpi_local_index(d, (key >> 12) & 0x3ffffffu) == SIZE_MAX)
            continue;
        if (n == cap) {
            cap = 2 * cap + 64;
            char *p = realloc(keep, cap * (size_t)rs);
            if (!p) {
                rc = clab_error_set(err, CLAB_ENOMEM, "mpi restart: out of memory");
                break;
            }
            keep = p;
        }
        memcpy(keep + n++ * (size_t)rs, one, (size_t)rs);
    }
    if (!rc) rc = clab_mpi_import_keyed(ms, keep, n, err);
    free(keep);
    return rc;
}

int clab_mpi_checkpoint_read(clab_mpi_sim *ms, const char *path, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    const clab_backend_keyed *k = clab_backend_keyed_of(ms->sim->type);
    unsigned char head[256];
    FILE *f = fopen(path, "rb");
    int rc = f ? CLAB_OK : clab_error_set(err, CLAB_EIO, "mpi restart: cannot read %s", path);
    if (!rc && k->head_size > sizeof head) rc = clab_error_set(err, CLAB_EINVAL, "mpi restart: backend head too large");
    if (!rc) rc = read_states(ms, f, path, err);
    rc = clab_mpi_agree(d, rc, NULL, err);
    /* the bodies to their owners under this run's bricks (the records follow from the file) */
    if (!rc) rc = clab_mpi_agree(d, clab_mpi_migrate(ms, err), NULL, err);
    if (!rc) rc = read_records(ms, f, path, head, err);
    if (f) fclose(f);
    if (!rc) {
        k->set_head(ms->sim->self, head);
        clab_collider_invalidate(ms->sim->collider);
        ms->rebuild = 0;
    }
    return clab_mpi_agree(d, rc, NULL, err);
}
