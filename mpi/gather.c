/* gather.c: the bodies of a range of the global order on one rank, chunk by chunk (mpi_internal.h):
 * how rank 0 writes the outputs of `run` and the checkpoints holding O(chunk + P) bodies, never
 * the whole world (clab_mpi_gather, which does, is bench's --check and --state).
 *
 * A range [g0, g1) of global indices: every rank sends the moving bodies it owns there (a
 * contiguous slice of its sorted d->gid with d->mine set), each with its global index, to the
 * root (MPI_Gatherv of the counts, then of the bodies); the root takes the fixed bodies of the
 * range from its replica (d->fixed, d->fixed_gid, sorted) and so has every body of the range
 * once, in global order. Every moving body has exactly one owner, so nothing is missing or
 * doubled. The root drives a session: it broadcasts each range (clab_mpi_chunks_get), the
 * other ranks answer until it broadcasts the end (clab_mpi_chunks_serve, clab_mpi_chunks_end),
 * so the root's writers (the VTK frames' passes among them) need not tell the others how many
 * ranges they take. */
#include "mpi_internal.h"
#include "clab_backend_keyed.h"

#include <stdlib.h>
#include <string.h>

int clab_mpi_gather_range(clab_mpi_domain *d, int root, uint64_t g0, uint64_t g1, clab_body *out, clab_error *err)
{
    const size_t rsz = sizeof(uint64_t) + sizeof(clab_body);
    const size_t nl = d->local->nbodies, k0 = clab_mpi_lower(d->gid, nl, g0), k1 = clab_mpi_lower(d->gid, nl, g1);
    size_t m = 0;
    for (size_t k = k0; k < k1; k++) m += d->mine[k];
    char *mine = malloc((m ? m : 1) * rsz);
    int rc = mine ? CLAB_OK : clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu bodies", m);
    for (size_t k = k0, j = 0; mine && k < k1; k++) {
        if (!d->mine[k]) continue;
        const uint64_t g = d->gid[k];
        memcpy(mine + j * rsz, &g, sizeof g);
        memcpy(mine + j++ * rsz + sizeof g, &d->local->bodies[k], sizeof(clab_body));
    }
    void *all = NULL;
    size_t nall = 0;
    const int rc2 = clab_mpi_gather_root(d, root, mine, rc ? 0 : m, rsz, &all, &nall, err);
    rc = rc ? rc : rc2;
    free(mine);
    if (!rc && d->rank == root) {
        for (size_t f = clab_mpi_lower(d->fixed_gid, d->nfixed, g0); f < d->nfixed && d->fixed_gid[f] < g1; f++)
            out[d->fixed_gid[f] - g0] = d->fixed[f];
        const char *r = all;
        for (size_t k = 0; k < nall; k++) {
            uint64_t g;
            memcpy(&g, r + k * rsz, sizeof g);
            memcpy(&out[g - g0], r + k * rsz + sizeof g, sizeof(clab_body));
        }
    }
    free(all);
    return rc;
}

int clab_mpi_chunks_init(clab_mpi_chunks *c, clab_mpi_domain *d, int root, size_t chunk, clab_error *err)
{
    memset(c, 0, sizeof *c);
    c->d = d;
    c->root = root;
    c->chunk = chunk ? chunk : CLAB_MPI_CHUNK;
    if (d->rank == root && !(c->buf = malloc(c->chunk * sizeof *c->buf)))
        return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu bodies", c->chunk);
    return CLAB_OK;
}

void clab_mpi_chunks_free(clab_mpi_chunks *c)
{
    free(c->buf);
    c->buf = NULL;
}

int clab_mpi_chunks_get(clab_mpi_chunks *c, uint64_t g0, uint64_t g1, const clab_body **b, clab_error *err)
{
    uint64_t r[2] = {g0, g1};
    if (g1 < g0 || g1 - g0 > c->chunk || g1 > c->d->nglobal)
        return clab_error_set(err, CLAB_EINVAL, "mpi: bodies %llu to %llu: not a range of at most %zu of the %zu bodies",
                              (unsigned long long)g0, (unsigned long long)g1, c->chunk, c->d->nglobal);
    MPI_Bcast(r, 2, MPI_UINT64_T, c->root, c->d->comm);
    *b = c->buf;
    const int rc = clab_mpi_gather_range(c->d, c->root, g0, g1, c->buf, err);
    if (rc && !c->rc) c->rc = rc;
    return rc;
}

int clab_mpi_chunks_end(clab_mpi_chunks *c)
{
    uint64_t r[2] = {UINT64_MAX, UINT64_MAX};
    MPI_Bcast(r, 2, MPI_UINT64_T, c->root, c->d->comm);
    return c->rc;
}

int clab_mpi_chunks_serve(clab_mpi_chunks *c, clab_error *err)
{
    int rc = CLAB_OK;
    for (;;) {
        uint64_t r[2];
        MPI_Bcast(r, 2, MPI_UINT64_T, c->root, c->d->comm);
        if (r[0] == UINT64_MAX) break;
        const int rc1 = clab_mpi_gather_range(c->d, c->root, r[0], r[1], NULL, err);
        rc = rc ? rc : rc1;
    }
    return rc;
}

/* ---- the keyed records by ranges of their body a ---- */

int clab_mpi_keyed_export(clab_mpi_sim *ms, char **rec, size_t *n, clab_error *err)
{
    const clab_mpi_domain *d = ms->d;
    const clab_backend_keyed *type = clab_backend_keyed_of(ms->sim->type);
    void *r = NULL;
    *rec = NULL;
    *n = 0;
    const int rc = type->export_state(ms->sim->self, d->gid, d->mine, d->local->nbodies, &r, n, err);
    if (rc) {
        free(r);
        *n = 0;
        return rc;
    }
    *rec = r;
    *n = r ? clab_mpi_sort_keyed(r, *n, type->size) : 0;
    return CLAB_OK;
}

int clab_mpi_keyed_range(clab_mpi_sim *ms, int root, const char *rec, size_t n, uint64_t g0, uint64_t g1, char **all,
                         size_t *nall, clab_error *err)
{
    const size_t sz = clab_backend_keyed_of(ms->sim->type)->size;
    /* the records with g0 <= key >> 38 < g1: a slice of the sorted keys */
    size_t lo[2];
    const uint64_t g[2] = {g0, g1};
    for (int e = 0; e < 2; e++) {
        size_t a = 0, b = n;
        while (a < b) {
            const size_t m = a + (b - a) / 2;
            uint64_t key;
            memcpy(&key, rec + m * sz, sizeof key);
            if ((key >> 38) < g[e]) a = m + 1;
            else b = m;
        }
        lo[e] = a;
    }
    void *a = NULL;
    size_t na = 0;
    const int rc = clab_mpi_gather_root(ms->d, root, rec ? rec + lo[0] * sz : NULL, lo[1] - lo[0], sz, &a, &na, err);
    *all = a;
    *nall = a ? clab_mpi_sort_keyed(a, na, sz) : 0;
    return rc;
}

/* ---- records in key order by chunks of the key range ---- */

int clab_mpi_stream_sorted(clab_mpi_domain *d, int root, const char *rec, size_t n, size_t size, size_t chunk,
                           clab_mpi_put_fn put, void *ctx, clab_error *err)
{
    /* each rank sends at most m records a round: m P <= chunk + P on root */
    const size_t P = (size_t)d->size, m = chunk > P ? (chunk + P - 1) / P : 1;
    int rc = CLAB_OK;
    size_t next = 0; /* this rank's first record not sent */
    for (;;) {
        /* T: the lowest over the ranks of the key of their m-th next record (UINT64_MAX where a
         * rank has fewer than m left: then every rank's rest goes) */
        uint64_t T = UINT64_MAX;
        if (n - next >= m) memcpy(&T, rec + (next + m - 1) * size, sizeof T);
        MPI_Allreduce(MPI_IN_PLACE, &T, 1, MPI_UINT64_T, MPI_MIN, d->comm);
        size_t end = next; /* the records with key <= T: at most m (keys increase) */
        while (end < n) {
            uint64_t k;
            memcpy(&k, rec + end * size, sizeof k);
            if (k > T) break;
            end++;
        }
        void *all = NULL;
        size_t nall = 0;
        const int rc1 = clab_mpi_gather_root(d, root, rec ? rec + next * size : NULL, end - next, size, &all, &nall,
                                             err);
        rc = rc ? rc : rc1;
        next = end;
        if (d->rank == root && !rc && nall) { /* the ranks' runs merged: keys distinct over the ranks */
            nall = clab_mpi_sort_keyed(all, nall, size); /* (no key twice: the count stays) */
            rc = put(ctx, all, nall, err);
        }
        free(all);
        if (T == UINT64_MAX) break; /* (the same on every rank: every record was sent) */
    }
    return rc;
}
