/* ccp_comm.c: the DVI split solver's communication (dvi/split.h, clab_split_comm) across MPI
 * ranks, one part a rank (doc/mpi.md, "The DVI backend across ranks"), each message counted
 * (clab_mpi_traffic's ccp_*):
 *   exchange  the ghosts' entries of a body vector from their owners, through the forward
 *             exchange's lists (d->send, d->recv: every ghost of the local world, a superset of
 *             the part's ghosts, so no list changes hands as the contacts change); one message a
 *             neighbour rank;
 *   sum       exact partial sums (clab_xsum): clab_xsum_carry on each, then one MPI_Allreduce of
 *             their CLAB_XSUM_DIGITS int64 digits and three non-finite flags (+inf, -inf, NaN
 *             seen) with MPI_SUM: integer addition is associative, so every reduction tree gives
 *             the same digits and clab_xsum_round the same double on every rank;
 *   max       MPI_Allreduce with MPI_MAX, a NaN first replaced by +inf with a flag reduced
 *             alongside (MPI_MAX is not defined on NaN) and restored after. */
#include "clab_mpi.h"
#include "mpi_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "split.h"

struct clab_mpi_ccp_comm {
    clab_mpi_domain *d;
    size_t *slot;          /* [local nbodies] the part's slot of a local body, SIZE_MAX when not in it */
    size_t cap_slot;
    double *buf;           /* send then receive buffers */
    size_t cap_buf;
    int64_t *ibuf;         /* the sums' digits and flags */
    size_t cap_ibuf;
    double *mbuf;
    size_t cap_mbuf;
};

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap && *p) return CLAB_OK;
    void *q = realloc(*p, (n ? n : 1) * size);
    if (!q) return CLAB_ENOMEM;
    *p = q;
    *cap = n;
    return CLAB_OK;
}

static int ccp_exchange(void *ctx, const clab_split *S, double *const *v, int width)
{
    clab_mpi_ccp_comm *c = ctx;
    clab_mpi_domain *d = c->d;
    const double t0 = MPI_Wtime();
    const clab_split_part *p = &S->part[0];
    const size_t nb = d->local->nbodies, w = (size_t)width, P = (size_t)d->size;
    const size_t ns = (size_t)d->sdispl[P], nr = (size_t)d->rdispl[P];
    if (grow((void **)&c->slot, &c->cap_slot, nb, sizeof *c->slot) ||
        grow((void **)&c->buf, &c->cap_buf, w * (ns + nr), sizeof *c->buf))
        return CLAB_ENOMEM;
    for (size_t k = 0; k < nb; k++) c->slot[k] = SIZE_MAX;
    for (size_t j = 0; j < p->P.nbodies; j++) c->slot[p->body[j]] = j;
    double *sbuf = c->buf, *rbuf = c->buf + w * ns;
    MPI_Request req[2 * 256], *rq = P <= 128 ? req : malloc(2 * P * sizeof *rq);
    if (!rq) return CLAB_ENOMEM;
    int nreq = 0;
    for (int q = 0; q < d->size; q++) {
        const int n = d->rdispl[q + 1] - d->rdispl[q];
        if (n) MPI_Irecv(rbuf + w * (size_t)d->rdispl[q], n * width, MPI_DOUBLE, q, 2, d->comm, &rq[nreq++]);
    }
    for (int q = 0; q < d->size; q++) {
        const int n = d->sdispl[q + 1] - d->sdispl[q];
        if (n == 0) continue;
        double *s = sbuf + w * (size_t)d->sdispl[q];
        for (int k = 0; k < n; k++) /* every owned body is in the part (split.c) */
            memcpy(s + w * (size_t)k, &v[0][w * c->slot[d->send[d->sdispl[q] + k]]], w * sizeof *s);
        MPI_Isend(s, n * width, MPI_DOUBLE, q, 2, d->comm, &rq[nreq++]);
        d->traffic.ccp_messages++;
        d->traffic.ccp_bytes += (double)n * width * sizeof(double);
    }
    MPI_Waitall(nreq, rq, MPI_STATUSES_IGNORE);
    for (size_t k = 0; k < nr; k++) {
        const size_t j = c->slot[d->recv[k]];
        if (j != SIZE_MAX) memcpy(&v[0][w * j], rbuf + w * k, w * sizeof *rbuf);
    }
    if (rq != req) free(rq);
    d->traffic.ccp_exchanges++;
    d->traffic.t_exchange += MPI_Wtime() - t0;
    return CLAB_OK;
}

enum { FLAGS = 3 }; /* +inf, -inf, NaN seen */

static int ccp_sum(void *ctx, const clab_split *S, clab_xsum *acc, int count)
{
    (void)S;
    clab_mpi_ccp_comm *c = ctx;
    clab_mpi_domain *d = c->d;
    const double t0 = MPI_Wtime();
    const size_t per = CLAB_XSUM_DIGITS + FLAGS, n = per * (size_t)count;
    if (grow((void **)&c->ibuf, &c->cap_ibuf, 2 * n, sizeof *c->ibuf)) return CLAB_ENOMEM;
    int64_t *mine = c->ibuf, *all = c->ibuf + n;
    for (int j = 0; j < count; j++) {
        clab_xsum *a = &acc[j];
        int64_t *m = mine + per * (size_t)j;
        clab_xsum_carry(a); /* every digit in [0, 2^32) but the top one */
        memcpy(m, a->digit, sizeof a->digit);
        const double sp = a->special;
        m[CLAB_XSUM_DIGITS] = a->nonfinite && sp == INFINITY;
        m[CLAB_XSUM_DIGITS + 1] = a->nonfinite && sp == -INFINITY;
        m[CLAB_XSUM_DIGITS + 2] = a->nonfinite && isnan(sp);
    }
    MPI_Allreduce(mine, all, (int)n, MPI_INT64_T, MPI_SUM, d->comm);
    for (int j = 0; j < count; j++) {
        clab_xsum *a = &acc[j];
        const int64_t *t = all + per * (size_t)j;
        memcpy(a->digit, t, sizeof a->digit);
        a->pending = d->size; /* each digit below size 2^32: as after size additions */
        const int pos = t[CLAB_XSUM_DIGITS] > 0, neg = t[CLAB_XSUM_DIGITS + 1] > 0, nan = t[CLAB_XSUM_DIGITS + 2] > 0;
        a->nonfinite = pos || neg || nan;
        a->special = nan || (pos && neg) ? NAN : pos ? INFINITY : neg ? -INFINITY : 0.0;
    }
    d->traffic.ccp_reductions++;
    d->traffic.ccp_reduce_bytes += (double)n * sizeof(int64_t);
    d->traffic.t_exchange += MPI_Wtime() - t0;
    return CLAB_OK;
}

static int ccp_max(void *ctx, const clab_split *S, double *m, int count)
{
    (void)S;
    clab_mpi_ccp_comm *c = ctx;
    clab_mpi_domain *d = c->d;
    const double t0 = MPI_Wtime();
    const size_t n = 2 * (size_t)count;
    if (grow((void **)&c->mbuf, &c->cap_mbuf, 2 * n, sizeof *c->mbuf)) return CLAB_ENOMEM;
    double *mine = c->mbuf, *all = c->mbuf + n;
    for (int j = 0; j < count; j++) {
        mine[j] = isnan(m[j]) ? INFINITY : m[j];
        mine[count + j] = isnan(m[j]) ? 1.0 : 0.0;
    }
    MPI_Allreduce(mine, all, (int)n, MPI_DOUBLE, MPI_MAX, d->comm);
    for (int j = 0; j < count; j++) m[j] = all[count + j] > 0.0 ? NAN : all[j];
    d->traffic.ccp_reductions++;
    d->traffic.ccp_reduce_bytes += (double)n * sizeof(double);
    d->traffic.t_exchange += MPI_Wtime() - t0;
    return CLAB_OK;
}

int clab_mpi_ccp_comm_create(clab_mpi_ccp_comm **out, clab_mpi_domain *d, clab_split_comm *comm)
{
    clab_mpi_ccp_comm *c = calloc(1, sizeof *c);
    *out = c;
    if (!c) return CLAB_ENOMEM;
    c->d = d;
    *comm = (clab_split_comm){ccp_exchange, ccp_sum, ccp_max, c};
    return CLAB_OK;
}

void clab_mpi_ccp_comm_destroy(clab_mpi_ccp_comm *c)
{
    if (!c) return;
    free(c->slot);
    free(c->buf);
    free(c->ibuf);
    free(c->mbuf);
    free(c);
}
