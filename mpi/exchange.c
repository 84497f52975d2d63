/* exchange.c: the messages between ranks, each counted (clab_mpi_traffic): the per-step
 * forward exchange of ghost states, the rebuilds' bodies and records (counts by MPI_Alltoall,
 * bytes point to point), the agreement on errors and rebuilds; and the gathers of the output
 * on one rank (not counted). */
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

int clab_mpi_exchange(clab_mpi_domain *d, const char *sbuf, const size_t *sdispl, char **rbuf, size_t *rdispl,
                      clab_error *err)
{
    const double t0 = MPI_Wtime();
    const int P = d->size;
    *rbuf = NULL;
    /* every rank takes part in the count exchange, failed (sbuf NULL: sends nothing) or not */
    int *sc = calloc((size_t)P, sizeof *sc), *rcnt = calloc((size_t)P, sizeof *rcnt);
    MPI_Request *rq = malloc(2 * (size_t)P * sizeof *rq);
    int rc = sc && rcnt && rq ? CLAB_OK : clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    for (int q = 0; q < P && !rc && sbuf; q++) {
        if (sdispl[q + 1] - sdispl[q] > INT_MAX) rc = clab_error_set(err, CLAB_EINVAL, "mpi: a rebuild message too long");
        else sc[q] = (int)(sdispl[q + 1] - sdispl[q]);
    }
    if (rc && sc) memset(sc, 0, (size_t)P * sizeof *sc);
    int one = 0;
    MPI_Alltoall(sc ? sc : &one, 1, MPI_INT, rcnt ? rcnt : &one, 1, MPI_INT, d->comm);
    d->traffic.re_messages += P - 1;
    d->traffic.re_bytes += (double)(P - 1) * sizeof(int);
    rdispl[0] = 0;
    for (int q = 0; q < P && rcnt; q++) rdispl[q + 1] = rdispl[q] + (size_t)(rc ? 0 : rcnt[q]);
    char *buf = rc ? NULL : malloc(rdispl[P] ? rdispl[P] : 1);
    if (!rc && !buf) rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu bytes", rdispl[P]);
    /* a rank that failed here still posts what the others send it (into no buffer: it
     * receives nothing, as its counts said) */
    int nreq = 0;
    for (int q = 0; q < P && buf; q++) {
        const int n = rcnt[q];
        if (n == 0) continue;
        if (q == d->rank) memcpy(buf + rdispl[q], sbuf + sdispl[q], (size_t)n);
        else MPI_Irecv(buf + rdispl[q], n, MPI_BYTE, q, 3, d->comm, &rq[nreq++]);
    }
    for (int q = 0; q < P && sbuf && rq; q++) {
        const int n = sc[q];
        if (n == 0 || q == d->rank) continue;
        MPI_Isend(sbuf + sdispl[q], n, MPI_BYTE, q, 3, d->comm, &rq[nreq++]);
        d->traffic.re_messages++;
        d->traffic.re_bytes += n;
    }
    if (rq) MPI_Waitall(nreq, rq, MPI_STATUSES_IGNORE);
    free(sc);
    free(rcnt);
    free(rq);
    *rbuf = buf;
    d->traffic.t_exchange += MPI_Wtime() - t0;
    return rc;
}

int clab_mpi_gather_root(clab_mpi_domain *d, int root, const void *rec, size_t n, size_t size, void **all,
                         size_t *nall, clab_error *err)
{
    const int P = d->size;
    *all = NULL;
    *nall = 0;
    int rc = n * size <= INT_MAX ? CLAB_OK : clab_error_set(err, CLAB_EINVAL, "mpi: %zu records too many for one gather", n);
    int my = rc ? 0 : (int)(n * size), *cnt = NULL, *dsp = NULL, dummy = 0;
    if (d->rank == root) {
        cnt = malloc((size_t)P * sizeof *cnt);
        dsp = malloc((size_t)P * sizeof *dsp);
        if (!cnt || !dsp) rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    }
    MPI_Gather(&my, 1, MPI_INT, cnt ? cnt : &dummy, 1, MPI_INT, root, d->comm);
    size_t total = 0;
    for (int q = 0; q < P && cnt && dsp; q++) {
        dsp[q] = (int)total;
        total += (size_t)cnt[q];
    }
    char *buf = NULL;
    if (d->rank == root && !rc && !(buf = malloc(total ? total : 1)))
        rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu bytes", total);
    if (d->rank == root && !buf && cnt) { /* (still in the gather, receiving nothing) */
        total = 0;
        memset(cnt, 0, (size_t)P * sizeof *cnt);
    }
    if (d->rank == root && total > INT_MAX) rc = clab_error_set(err, CLAB_EINVAL, "mpi: %zu bytes too many for one gather", total);
    MPI_Gatherv(rec, my, MPI_BYTE, buf, cnt, dsp, MPI_BYTE, root, d->comm);
    free(cnt);
    free(dsp);
    *all = buf;
    *nall = size ? total / size : 0;
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
