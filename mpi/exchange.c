/* exchange.c: the messages between ranks, each counted (clab_mpi_traffic): the per-step
 * forward exchange of ghost states, the rebuilds' gathers, the agreement on errors and
 * rebuilds. */
#include "clab_mpi.h"
#include "mpi_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

int clab_mpi_agree(clab_mpi_domain *d, int rc, int *rebuild, clab_error *err)
{
    const double t0 = MPI_Wtime();
    /* one reduction: a failure flag, the rebuild flag, and size - rank of a failed rank (the
     * maximum names the first failed rank) */
    int mine[3] = {rc != CLAB_OK, rebuild ? *rebuild : 0, rc != CLAB_OK ? d->size - d->rank : 0}, all[3];
    MPI_Allreduce(mine, all, 3, MPI_INT, MPI_MAX, d->comm);
    d->traffic.t_exchange += MPI_Wtime() - t0;
    if (rebuild) *rebuild = all[1];
    if (rc) return rc;
    if (all[0]) return clab_error_set(err, CLAB_EINVAL, "mpi: rank %d failed (its message on its stderr)", d->size - all[2]);
    return CLAB_OK;
}

int clab_mpi_allgather(clab_mpi_domain *d, const void *rec, size_t n, size_t size, void **all, size_t *nall,
                       clab_error *err)
{
    const double t0 = MPI_Wtime();
    const int P = d->size;
    *all = NULL;
    *nall = 0;
    if (n * size > INT_MAX) return clab_error_set(err, CLAB_EINVAL, "mpi: %zu records too many for one gather", n);
    int *cnt = malloc((size_t)P * sizeof *cnt), *dsp = malloc((size_t)P * sizeof *dsp);
    int rc = cnt && dsp ? CLAB_OK : clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    int my = (int)(n * size);
    /* every rank takes part in both collectives, failed or not (no rank waits forever) */
    if (rc) my = 0;
    int dummy[1];
    MPI_Allgather(&my, 1, MPI_INT, cnt ? cnt : dummy, 1, MPI_INT, d->comm);
    size_t total = 0;
    if (!rc)
        for (int q = 0; q < P; q++) {
            dsp[q] = (int)total;
            total += (size_t)cnt[q];
        }
    if (!rc && total > INT_MAX) rc = clab_error_set(err, CLAB_EINVAL, "mpi: %zu bytes too many for one gather", total);
    char *buf = rc ? NULL : malloc(total ? total : 1);
    if (!rc && !buf) rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu bytes", total);
    if (!rc) {
        MPI_Allgatherv(rec, my, MPI_BYTE, buf, cnt, dsp, MPI_BYTE, d->comm);
        d->traffic.re_messages += 2 * (P - 1);
        d->traffic.re_bytes += (double)(P - 1) * (my + (double)sizeof(int));
        *all = buf;
        *nall = size ? total / size : 0;
    }
    free(cnt);
    free(dsp);
    d->traffic.t_exchange += MPI_Wtime() - t0;
    return rc;
}

int clab_mpi_forward(clab_mpi_domain *d, clab_error *err)
{
    (void)err;
    const double t0 = MPI_Wtime();
    const int P = d->size;
    clab_world *lw = d->local;
    MPI_Request req[2 * 256], *rq = P <= 128 ? req : malloc(2 * (size_t)P * sizeof *rq);
    if (!rq) return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    int nreq = 0;
    for (int q = 0; q < P; q++) {
        const int n = d->rdispl[q + 1] - d->rdispl[q];
        if (n == 0) continue;
        MPI_Irecv(d->rbuf + (size_t)d->rdispl[q] * CLAB_MPI_STATE, n * CLAB_MPI_STATE, MPI_DOUBLE, q, 1, d->comm,
                  &rq[nreq++]);
    }
    for (int q = 0; q < P; q++) {
        const int n = d->sdispl[q + 1] - d->sdispl[q];
        if (n == 0) continue;
        double *s = d->sbuf + (size_t)d->sdispl[q] * CLAB_MPI_STATE;
        for (int k = 0; k < n; k++) clab_mpi_pack(&lw->bodies[d->send[d->sdispl[q] + k]], s + (size_t)k * CLAB_MPI_STATE);
        MPI_Isend(s, n * CLAB_MPI_STATE, MPI_DOUBLE, q, 1, d->comm, &rq[nreq++]);
        d->traffic.fwd_messages++;
        d->traffic.fwd_bytes += (double)n * CLAB_MPI_STATE * sizeof(double);
    }
    MPI_Waitall(nreq, rq, MPI_STATUSES_IGNORE);
    const size_t nr = (size_t)d->rdispl[P];
    for (size_t k = 0; k < nr; k++) clab_mpi_unpack(&lw->bodies[d->recv[k]], d->rbuf + k * CLAB_MPI_STATE);
    if (rq != req) free(rq);
    d->traffic.t_exchange += MPI_Wtime() - t0;
    return CLAB_OK;
}

uint64_t clab_mpi_state_hash(const clab_world *w)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < w->nbodies; i++) {
        double s[CLAB_MPI_STATE];
        clab_mpi_pack(&w->bodies[i], s);
        const unsigned char *p = (const unsigned char *)s;
        for (size_t k = 0; k < sizeof s; k++) h = (h ^ p[k]) * UINT64_C(0x100000001b3);
    }
    return h;
}
