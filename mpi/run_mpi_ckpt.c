/* run_mpi_ckpt.c: the checkpoints of `mpirun -np P contactlab run` (doc/mpi.md): the
 * decomposition's one file (clab_mpi_checkpoint_write: every body's state in the global order,
 * t, the step, the backend's keyed records and head), which a run on any number of ranks
 * restarts from, followed by the run's output bookkeeping, a trailer of fixed size written by
 * rank 0:
 *
 *   "CLABRUNM", the tag "contactlab run 1: bodies, steps" (64 bytes), int64 bytes[2] and rows[2]
 *   (the lengths of the bodies and steps CSVs at the checkpoint), int64 nout (output steps
 *   written: numbers the VTK frames), int64 every (the run's output interval), double h (its
 *   step [s]), "CLABRUNM".
 *
 * The decomposition's reader (clab_mpi_checkpoint_read) stops before the trailer. The file goes
 * to "<path>.tmp", is flushed to disk and renamed over path, so an interrupted write leaves the
 * previous checkpoint whole. A one-process checkpoint of contactlab run (CLABCKPT) is converted
 * on rank 0 into such a file, which every rank then reads. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clab_checkpoint.h"
#include "mpi_internal.h"
#include "run_mpi.h"

static const char tmagic[8] = {'C', 'L', 'A', 'B', 'R', 'U', 'N', 'M'};
enum { TAG_LEN = 64, TRAILER = 8 + TAG_LEN + 6 * 8 + 8 + 8 };

static void put_i64(unsigned char **p, int64_t v) { memcpy(*p, &v, 8), *p += 8; }
static int64_t get_i64(const unsigned char **p)
{
    int64_t v;
    memcpy(&v, *p, 8), *p += 8;
    return v;
}

/* rank 0: the trailer appended to the file at tmp, flushed to disk */
static int append_trailer(const char *tmp, const clab_run_mpi_book *b, clab_error *err)
{
    unsigned char t[TRAILER], *p = t;
    memset(t, 0, sizeof t);
    memcpy(p, tmagic, 8), p += 8;
    snprintf((char *)p, TAG_LEN, "%s", CLAB_RUN_MPI_TAG), p += TAG_LEN;
    for (int k = 0; k < 2; k++) put_i64(&p, b->bytes[k]);
    for (int k = 0; k < 2; k++) put_i64(&p, b->rows[k]);
    put_i64(&p, b->nout);
    put_i64(&p, b->every);
    memcpy(p, &b->h, 8), p += 8;
    memcpy(p, tmagic, 8);
    FILE *f = fopen(tmp, "ab");
    int bad = !f || fwrite(t, 1, sizeof t, f) != sizeof t || fflush(f) || fsync(fileno(f));
    if (f && fclose(f)) bad = 1;
    if (bad) return clab_error_set(err, CLAB_EIO, "checkpoint: writing %s failed", tmp);
    return CLAB_OK;
}

int clab_run_mpi_checkpoint_write(clab_mpi_sim *ms, const char *path, const clab_run_mpi_book *b, size_t chunk,
                                  clab_error *err)
{
    char tmp[2100];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return clab_mpi_agree(ms->d, clab_error_set(err, CLAB_EINVAL, "checkpoint path too long: %s", path), NULL, err);
    int rc = clab_mpi_checkpoint_write_chunked(ms, tmp, chunk, err); /* collective; rank 0 writes */
    if (rc) return rc;
    if (ms->d->rank == 0) rc = append_trailer(tmp, b, err);
    if (ms->d->rank == 0 && !rc && rename(tmp, path))
        rc = clab_error_set(err, CLAB_EIO, "checkpoint: cannot rename %s to %s", tmp, path);
    return clab_mpi_agree(ms->d, rc, NULL, err);
}

/* rank 0: the trailer of path into b; CLAB_EINVAL naming what the file is when it has none */
static int read_trailer(const char *path, clab_run_mpi_book *b, clab_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return clab_error_set(err, CLAB_EIO, "cannot read %s", path);
    unsigned char head[8], t[TRAILER];
    int ok = fread(head, 1, 8, f) == 8;
    ok = ok && fseek(f, -(long)TRAILER, SEEK_END) == 0 && fread(t, 1, sizeof t, f) == sizeof t;
    fclose(f);
    if (!ok || memcmp(head, "CLABMPI1", 8))
        return clab_error_set(err, CLAB_EINVAL, "%s is not a checkpoint of a run across MPI ranks", path);
    if (memcmp(t, tmagic, 8) || memcmp(t + TRAILER - 8, tmagic, 8) ||
        strncmp((const char *)t + 8, CLAB_RUN_MPI_TAG, TAG_LEN))
        return clab_error_set(err, CLAB_EINVAL, "%s is a checkpoint of the decomposition without contactlab run's "
                                                "outputs (written by contactlab bench --checkpoint?): run restarts "
                                                "from its own", path);
    const unsigned char *p = t + 8 + TAG_LEN;
    for (int k = 0; k < 2; k++) b->bytes[k] = get_i64(&p);
    for (int k = 0; k < 2; k++) b->rows[k] = get_i64(&p);
    b->nout = get_i64(&p);
    b->every = get_i64(&p);
    memcpy(&b->h, p, 8);
    return CLAB_OK;
}

/* rank 0: 1 when the file at path is a one-process checkpoint (CLABCKPT) */
static int one_process_file(const char *path)
{
    char m[8];
    FILE *f = fopen(path, "rb");
    const int one = f && fread(m, 1, 8, f) == 8 && !memcmp(m, "CLABCKPT", 8);
    if (f) fclose(f);
    return one;
}

/* rank 0: a one-process checkpoint of contactlab run (clab_checkpoint.h, its tag and two series)
 * as the decomposition's file at tmp with the trailer: read into a one-rank domain of the same
 * world (MPI_COMM_SELF, the same skin and envelope) and written from there, the keyed state
 * renumbered to global indices as every checkpoint of the ranks has it */
static int convert(const clab_mpi_sim *ms, clab_options *opt, const char *path, const char *tmp, clab_run_mpi_book *b,
                   clab_error *err)
{
    const clab_mpi_domain *d = ms->d;
    const int grid[3] = {1, 1, 1};
    clab_mpi_domain *d1 = NULL;
    clab_mpi_sim *m1 = NULL;
    clab_checkpoint_info info;
    memset(&info, 0, sizeof info);
    clab_world *g = clab_world_clone(d->global);
    int rc = g ? clab_mpi_domain_create(&d1, MPI_COMM_SELF, g, grid, 0, d->skin, d->envelope, err)
               : clab_error_set(err, CLAB_ENOMEM, "out of memory");
    if (!rc) rc = clab_mpi_sim_create(&m1, d1, ms->sim->type->name, ms->sim->h, opt, err);
    if (!rc) rc = clab_checkpoint_read(m1->sim, path, &info, err);
    if (!rc && (strncmp(info.out.tag, CLAB_RUN_MPI_TAG, sizeof info.out.tag) || info.out.nfiles != 2))
        rc = clab_error_set(err, CLAB_EINVAL, "%s is a checkpoint of '%s', not of contactlab run", path, info.out.tag);
    size_t *order = rc ? NULL : malloc((g->nbodies ? g->nbodies : 1) * sizeof *order);
    if (!rc && (!order || clab_world_add_order(d1->local, order, err) < 0))
        rc = clab_error_set(err, CLAB_ENOMEM, "out of memory");
    for (size_t k = 0; !rc && k < d1->local->nbodies; k++)
        if (order[k] != k)
            rc = clab_error_set(err, CLAB_EINVAL, "%s is of a run that renumbered its bodies (option sort), which does "
                                                  "not run across ranks", path);
    free(order);
    if (!rc) {
        for (int k = 0; k < 2; k++) b->bytes[k] = info.out.bytes[k], b->rows[k] = info.out.rows[k];
        b->nout = info.out.nout;
        b->h = info.h;
        rc = clab_mpi_checkpoint_write(m1, tmp, err);
    }
    if (!rc) rc = append_trailer(tmp, b, err);
    clab_checkpoint_info_free(&info);
    clab_mpi_sim_destroy(m1);
    clab_mpi_domain_destroy(d1);
    return rc;
}

int clab_run_mpi_checkpoint_read(clab_mpi_sim *ms, const char *path, clab_options *opt, clab_run_mpi_book *b,
                                 int *one_process, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    char tmp[2100];
    memset(b, 0, sizeof *b);
    int one = d->rank == 0 && one_process_file(path), rc = CLAB_OK;
    MPI_Bcast(&one, 1, MPI_INT, 0, d->comm);
    if (snprintf(tmp, sizeof tmp, "%s.mpi.tmp", path) >= (int)sizeof tmp)
        rc = clab_error_set(err, CLAB_EINVAL, "checkpoint path too long: %s", path);
    if (!rc && d->rank == 0) rc = one ? convert(ms, opt, path, tmp, b, err) : read_trailer(path, b, err);
    rc = clab_mpi_agree(d, rc, NULL, err);
    if (rc) {
        if (one && d->rank == 0) remove(tmp);
        return rc;
    }
    int64_t v[6] = {b->bytes[0], b->bytes[1], b->rows[0], b->rows[1], b->nout, b->every};
    MPI_Bcast(v, 6, MPI_INT64_T, 0, d->comm);
    MPI_Bcast(&b->h, 1, MPI_DOUBLE, 0, d->comm);
    b->bytes[0] = v[0], b->bytes[1] = v[1], b->rows[0] = v[2], b->rows[1] = v[3], b->nout = v[4], b->every = v[5];
    rc = clab_mpi_checkpoint_read(ms, one ? tmp : path, err);
    *one_process = one;
    if (one) {
        MPI_Barrier(d->comm); /* every rank has read it */
        if (d->rank == 0) remove(tmp);
    }
    return rc;
}

int clab_run_mpi_stop_signal(clab_mpi_domain *d)
{
    int s = xp_stop_signal(), all = 0;
    MPI_Allreduce(&s, &all, 1, MPI_INT, MPI_MAX, d->comm);
    return all;
}
