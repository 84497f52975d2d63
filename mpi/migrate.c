/* migrate.c: the rebuild of the decomposition in the manner of LAMMPS (doc/mpi.md, "How it
 * works"): from the cuts, which every rank knows, and its owned bodies only, each rank finds
 * the ranks whose new local world holds each owned body (its new owner and the ranks within
 * reach of it: clab_mpi_dest) and sends them the body (global index, clab_body, name; only the
 * global index to a rank that holds it as a ghost already) and the keyed records of its contacts (the penalty history, the DVI warm start). The counts go by one
 * MPI_Alltoall, the bytes point to point (clab_mpi_exchange); each rank merges what it receives
 * with the replicated fixed bodies in global order (clab_mpi_set_local). No rank holds or sends
 * O(N) data. Also --balance (a search on counts by bins) and the memory report of the bench. */
#include "clab_mpi.h"
#include "clab_backend_keyed.h"
#include "mpi_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the balanced cuts' search: rounds, each splitting every cut's bracket into bins (one
 * MPI_Allreduce of the counts below the bins' inner edges of every cut of every axis): the cut
 * within 64^-6 = 2^-36 of the centers' span of its count quantile after 6 rounds */
#define BALANCE_BINS 64
#define BALANCE_ROUNDS 6

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the number of the sorted x[0 .. n) below c */
static long below(const double *x, size_t n, double c)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t m = lo + (hi - lo) / 2;
        if (x[m] < c) lo = m + 1;
        else hi = m;
    }
    return (long)lo;
}

/* the inner edges of bin b = 1 .. BINS - 1 of [lo, hi] */
static double edge(double lo, double hi, int b) { return lo + (hi - lo) * b / BALANCE_BINS; }

/* Along each cut axis k (g slabs), inner cut j is the search's least c with #{x_k < c} >=
 * floor(j n / g) over all ranks' bodies (n moving bodies), c on the bins' edges within [min, max]
 * of the centers: each round keeps of a cut's bracket the bin where the count crosses its
 * target. The cuts of an axis come out in order (a larger target never picks an earlier bin). */
int clab_mpi_balance(clab_mpi_domain *d, const clab_vec3 *x, size_t n, clab_error *err)
{
    int nc = 0; /* the cuts searched, over the axes */
    for (int k = 0; k < 3; k++) nc += d->grid[k] - 1;
    if (nc == 0) return CLAB_OK;
    const size_t nb = BALANCE_BINS - 1;
    double *v = malloc((n ? 3 * n : 1) * sizeof *v), *lo = malloc((size_t)nc * sizeof *lo), *hi = malloc((size_t)nc * sizeof *hi);
    long *cnt = malloc((size_t)nc * nb * sizeof *cnt), tot = (long)n;
    int bad = !v || !lo || !hi || !cnt;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, d->comm);
    int rc = bad ? clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the balance") : CLAB_OK;
    double ext[6] = {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY}; /* min, -max of x, y, z */
    for (int k = 0; k < 3 && !rc; k++) {
        double *w = v + (size_t)k * n;
        for (size_t i = 0; i < n; i++) {
            w[i] = k == 0 ? x[i].x : k == 1 ? x[i].y : x[i].z;
            ext[2 * k] = fmin(ext[2 * k], w[i]);
            ext[2 * k + 1] = fmin(ext[2 * k + 1], -w[i]);
        }
        qsort(w, n, sizeof *w, cmp_double);
    }
    if (!rc) {
        MPI_Allreduce(MPI_IN_PLACE, ext, 6, MPI_DOUBLE, MPI_MIN, d->comm);
        MPI_Allreduce(MPI_IN_PLACE, &tot, 1, MPI_LONG, MPI_SUM, d->comm);
        d->traffic.re_messages += 2;
        d->traffic.re_bytes += 6 * sizeof(double) + sizeof(long);
        for (int k = 0, c = 0; k < 3; k++)
            for (int j = 1; j < d->grid[k]; j++, c++) {
                lo[c] = ext[2 * k];
                hi[c] = -ext[2 * k + 1];
            }
    }
    for (int round = 0; round < BALANCE_ROUNDS && !rc; round++) {
        for (int k = 0, c = 0; k < 3; k++)
            for (int j = 1; j < d->grid[k]; j++, c++)
                for (int b = 1; b < BALANCE_BINS; b++) cnt[(size_t)c * nb + (size_t)b - 1] = below(v + (size_t)k * n, n, edge(lo[c], hi[c], b));
        MPI_Allreduce(MPI_IN_PLACE, cnt, nc * (int)nb, MPI_LONG, MPI_SUM, d->comm);
        d->traffic.re_messages++;
        d->traffic.re_bytes += (double)nc * (double)nb * sizeof(long);
        for (int k = 0, c = 0; k < 3; k++)
            for (int j = 1; j < d->grid[k]; j++, c++) {
                const long t = (long)((size_t)j * (size_t)tot / (size_t)d->grid[k]);
                int b = 1;
                while (b < BALANCE_BINS && cnt[(size_t)c * nb + (size_t)b - 1] < t) b++;
                const double l = edge(lo[c], hi[c], b - 1), h = b < BALANCE_BINS ? edge(lo[c], hi[c], b) : hi[c];
                lo[c] = l;
                hi[c] = h;
            }
    }
    /* fewer bodies than slabs, or none: the cuts stay */
    for (int k = 0, c = 0; k < 3 && !rc; k++)
        for (int j = 1; j < d->grid[k]; j++, c++)
            if (tot >= d->grid[k] && ext[2 * k] <= -ext[2 * k + 1]) d->cut[k][j] = fmax(hi[c], d->cut[k][j - 1]);
    free(v);
    free(lo);
    free(hi);
    free(cnt);
    return rc;
}

/* a body on the wire: global index, the body, the name's length with its '\0' rounded up to 8
 * bytes, then the name; or, to a rank that holds the body as a ghost already, its global index
 * with HELD set, nothing more: the ghost's bytes there are the owner's (the forward exchange
 * after every step copies the state, r e rdot wbar, the rest of clab_body and the name came with
 * the body and do not change; a restart sets every local body from its file) */
#define BODY_HEAD (sizeof(uint64_t) + sizeof(clab_body) + sizeof(uint64_t))
#define HELD (UINT64_C(1) << 63)
static size_t name_room(const char *name) { return (strlen(name) + 1 + 7) / 8 * 8; }

/* 1 when rank r holds owned body k as a ghost: k is in the forward exchange's send list to r
 * (local indices, increasing) */
static int held_by(const clab_mpi_domain *d, int r, size_t k)
{
    const size_t *s = d->send + d->sdispl[r], n = (size_t)(d->sdispl[r + 1] - d->sdispl[r]), j = clab_mpi_lower(s, n, k);
    return j < n && s[j] == k;
}

/* what this rank sends at a rebuild: owned body j (local index own[j]) goes to the ranks
 * dest[dst[j] .. dst[j+1]); then the bytes for each rank */
typedef struct mig_plan {
    size_t nown, *own;      /* owned local indices */
    size_t *oidx;           /* [local nbodies] j of local body own[j], SIZE_MAX for the others */
    size_t *dst;            /* [nown + 1] */
    int *dest;
    size_t *sdispl;         /* [size + 1] bytes to each rank */
    char *sbuf;
} mig_plan;

static void plan_free(mig_plan *m)
{
    free(m->own);
    free(m->oidx);
    free(m->dst);
    free(m->dest);
    free(m->sdispl);
    free(m->sbuf);
}

/* the owned bodies' ranks (clab_mpi_dest) */
static int find_dests(const clab_mpi_domain *d, mig_plan *m, clab_error *err)
{
    const clab_world *lw = d->local;
    const int P = d->size;
    size_t n = 0, cap = 0;
    for (size_t k = 0; k < lw->nbodies; k++) n += d->mine[k];
    m->own = malloc((n ? n : 1) * sizeof *m->own);
    m->oidx = malloc((lw->nbodies ? lw->nbodies : 1) * sizeof *m->oidx);
    m->dst = malloc((n + 1) * sizeof *m->dst);
    int *q = malloc((size_t)P * sizeof *q);
    if (!m->own || !m->oidx || !m->dst || !q) {
        free(q);
        return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    }
    m->nown = 0;
    m->dst[0] = 0;
    for (size_t k = 0; k < lw->nbodies; k++) {
        m->oidx[k] = d->mine[k] ? m->nown : SIZE_MAX;
        if (!d->mine[k]) continue;
        const int c = clab_mpi_dest(d, &lw->bodies[k], q);
        const size_t at = m->dst[m->nown];
        if (at + (size_t)c > cap) {
            cap = 2 * (at + (size_t)c) + 16;
            int *p = realloc(m->dest, cap * sizeof *p);
            if (!p) {
                free(q);
                return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
            }
            m->dest = p;
        }
        memcpy(m->dest + at, q, (size_t)c * sizeof *q);
        m->own[m->nown++] = k;
        m->dst[m->nown] = at + (size_t)c;
    }
    free(q);
    return CLAB_OK;
}

/* the ranks a keyed record goes to: those of its owned bodies (owned indices ia, ib; SIZE_MAX:
 * not owned; each list increasing), once each, into q; their number */
static int record_dests(const mig_plan *m, size_t ia, size_t ib, int *q)
{
    const int *A = ia == SIZE_MAX ? NULL : m->dest + m->dst[ia], *B = ib == SIZE_MAX ? NULL : m->dest + m->dst[ib];
    const size_t na = A ? m->dst[ia + 1] - m->dst[ia] : 0, nb = B ? m->dst[ib + 1] - m->dst[ib] : 0;
    size_t i = 0, j = 0;
    int n = 0;
    while (i < na || j < nb) {
        if (j == nb || (i < na && A[i] < B[j])) q[n++] = A[i++];
        else if (i == na || B[j] < A[i]) q[n++] = B[j++];
        else {
            q[n++] = A[i++];
            j++;
        }
    }
    return n;
}

/* the send buffer: pass 0 counts the bytes for each rank, pass 1 writes them: to a rank that
 * gets any, the number of bodies (uint64), the bodies, the keyed records */
static int pack(clab_mpi_domain *d, mig_plan *m, const char *rec, size_t nrec, size_t rsz, clab_error *err)
{
    const clab_world *lw = d->local;
    const int P = d->size;
    size_t *at = calloc((size_t)P + 1, sizeof *at), *nb = calloc((size_t)P, sizeof *nb);
    int *q = malloc((size_t)P * sizeof *q);
    m->sdispl = calloc((size_t)P + 1, sizeof *m->sdispl);
    int rc = at && nb && q && m->sdispl ? CLAB_OK : clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    for (int pass = 0; pass < 2 && !rc; pass++) {
        for (size_t j = 0; j < m->nown; j++) { /* the bodies */
            const size_t k = m->own[j];
            const char *name = clab_world_body_name(lw, k);
            for (size_t e = m->dst[j]; e < m->dst[j + 1]; e++) {
                const int r = m->dest[e];
                if (r == d->rank) continue; /* (taken from the old local world: unpack) */
                const int held = held_by(d, r, k);
                const size_t sz = held ? sizeof(uint64_t) : BODY_HEAD + name_room(name);
                if (pass && held) {
                    const uint64_t g = d->gid[k] | HELD;
                    memcpy(m->sbuf + m->sdispl[r] + at[r], &g, sizeof g);
                } else if (pass) {
                    char *p = m->sbuf + m->sdispl[r] + at[r];
                    const uint64_t g = d->gid[k], room = name_room(name);
                    memset(p, 0, sz);
                    memcpy(p, &g, sizeof g);
                    memcpy(p + sizeof g, &lw->bodies[k], sizeof(clab_body));
                    memcpy(p + sizeof g + sizeof(clab_body), &room, sizeof room);
                    memcpy(p + BODY_HEAD, name, strlen(name) + 1);
                }
                at[r] += sz;
                nb[r] += !pass;
            }
        }
        for (size_t i = 0; i < nrec; i++) { /* the keyed records, renumbered to global keys */
            uint64_t key;
            memcpy(&key, rec + i * rsz, sizeof key);
            const size_t ka = (size_t)(key >> 38), kb = (size_t)((key >> 12) & 0x3ffffffu);
            const int n = record_dests(m, m->oidx[ka], m->oidx[kb], q);
            key = clab_contact_key((int)d->gid[ka], (int)d->gid[kb], (unsigned)(key & 0xfffu));
            for (int e = 0; e < n; e++) {
                if (pass) {
                    char *p = m->sbuf + m->sdispl[q[e]] + at[q[e]];
                    memcpy(p, rec + i * rsz, rsz);
                    memcpy(p, &key, sizeof key);
                }
                at[q[e]] += rsz;
            }
        }
        if (pass) break;
        for (int r = 0; r < P; r++) m->sdispl[r + 1] = m->sdispl[r] + (at[r] ? sizeof(uint64_t) + at[r] : 0);
        m->sbuf = malloc(m->sdispl[P] ? m->sdispl[P] : 1);
        if (!m->sbuf) rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu bytes", m->sdispl[P]);
        for (int r = 0; r < P && !rc; r++) {
            const uint64_t c = nb[r];
            if (at[r]) memcpy(m->sbuf + m->sdispl[r], &c, sizeof c);
            at[r] = at[r] ? sizeof c : 0;
        }
    }
    free(at);
    free(nb);
    free(q);
    return rc;
}

/* the keyed records of the owned bodies' contacts, in local keys (pack renumbers them) */
static int export_keyed(clab_mpi_sim *ms, char **rec, size_t *n, size_t *rsz, clab_error *err)
{
    const clab_mpi_domain *d = ms->d;
    const clab_backend_keyed *k = clab_backend_keyed_of(ms->sim->type);
    const size_t nb = d->local->nbodies;
    size_t *id = malloc((nb ? nb : 1) * sizeof *id);
    void *r = NULL;
    *rsz = k->size;
    *n = 0;
    if (!id) return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    for (size_t j = 0; j < nb; j++) id[j] = j;
    int rc = k->export_state(ms->sim->self, id, d->mine, nb, &r, n, err);
    free(id);
    *rec = r;
    if (rc) *n = 0;
    return rc;
}

static int cmp_gid(const void *a, const void *b)
{
    const uint64_t x = ((const clab_mpi_body *)a)->gid, y = ((const clab_mpi_body *)b)->gid;
    return (x > y) - (x < y);
}

/* the received bytes: the bodies (increasing gid) and the keyed records of each rank */
static int unpack(clab_mpi_sim *ms, const mig_plan *m, const char *rbuf, const size_t *rdispl, size_t rsz,
                  clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    const clab_world *lw = d->local;
    const int P = d->size;
    size_t n = 0, nk = 0;
    for (int pass = 0; pass < 2; pass++) { /* pass 0 counts, pass 1 fills */
        clab_mpi_body *mv = NULL;
        char *keyed = NULL;
        if (pass) {
            mv = malloc((n ? n : 1) * sizeof *mv);
            keyed = malloc((nk ? nk : 1) * rsz);
            if (!mv || !keyed) {
                free(mv);
                free(keyed);
                return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu bodies", n);
            }
        }
        n = nk = 0;
        for (size_t j = 0; j < m->nown; j++) /* the owned bodies this rank keeps, from the old world */
            for (size_t e = m->dst[j]; e < m->dst[j + 1]; e++) {
                if (m->dest[e] != d->rank) continue;
                const size_t k = m->own[j];
                if (pass) mv[n] = (clab_mpi_body){d->gid[k], &lw->bodies[k], clab_world_body_name(lw, k)};
                n++;
            }
        for (int r = 0; r < P; r++) {
            const char *p = rbuf + rdispl[r], *end = rbuf + rdispl[r + 1];
            uint64_t hdr[1];
            /* a rank's bytes (none, or): the number of bodies, the bodies, the records */
            memcpy(hdr, p, p < end ? sizeof hdr : 0);
            size_t nb = p < end ? (size_t)hdr[0] : 0;
            p += p < end ? sizeof hdr : 0;
            for (size_t j = 0; j < nb; j++) {
                uint64_t g, room;
                memcpy(&g, p, sizeof g);
                if (g & HELD) { /* a ghost of the old local world */
                    const size_t k = clab_mpi_local_index(d, g & ~HELD);
                    if (k == SIZE_MAX) {
                        if (pass) free(mv), free(keyed);
                        return clab_error_set(err, CLAB_EINVAL, "mpi: rank %d sent body %llu as held here, which it is not",
                                              r, (unsigned long long)(g & ~HELD));
                    }
                    if (pass) mv[n] = (clab_mpi_body){g & ~HELD, &lw->bodies[k], clab_world_body_name(lw, k)};
                    n++;
                    p += sizeof g;
                    continue;
                }
                memcpy(&room, p + sizeof g + sizeof(clab_body), sizeof room);
                if (pass) mv[n] = (clab_mpi_body){g, (const clab_body *)(const void *)(p + sizeof g), p + BODY_HEAD};
                n++;
                p += BODY_HEAD + room;
            }
            for (; p + rsz <= end; p += rsz) {
                if (pass) memcpy(keyed + nk * rsz, p, rsz);
                nk++;
            }
        }
        if (!pass) continue;
        int rc = CLAB_OK;
        size_t up = 1;
        while (up < n && mv[up - 1].gid < mv[up].gid) up++;
        if (up < n) qsort(mv, n, sizeof *mv, cmp_gid); /* the ranks' lists merged in global order */
        for (size_t j = 1; j < n && !rc; j++)
            if (mv[j - 1].gid == mv[j].gid)
                rc = clab_error_set(err, CLAB_EINVAL, "mpi: body %llu received twice", (unsigned long long)mv[j].gid);
        if (!rc) rc = clab_mpi_set_local(d, mv, n, err);
        free(mv);
        if (!rc) rc = clab_mpi_import_keyed(ms, keyed, clab_mpi_sort_keyed(keyed, nk, rsz), err);
        free(keyed);
        return rc;
    }
    return CLAB_OK;
}

int clab_mpi_migrate(clab_mpi_sim *ms, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    mig_plan m;
    memset(&m, 0, sizeof m);
    char *rec = NULL, *rbuf = NULL;
    size_t nrec = 0, rsz = 0;
    size_t *rdispl = calloc((size_t)d->size + 1, sizeof *rdispl);
    int rc = rdispl ? CLAB_OK : clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    if (!rc) rc = find_dests(d, &m, err);
    if (d->balance) { /* (collective: on failure too) */
        clab_vec3 *x = malloc((m.nown ? m.nown : 1) * sizeof *x);
        for (size_t j = 0; x && !rc && j < m.nown; j++) x[j] = d->local->bodies[m.own[j]].r;
        const int rc2 = clab_mpi_balance(d, x, x && !rc ? m.nown : 0, err);
        rc = rc ? rc : !x ? clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory") : rc2;
        free(x);
        if (!rc) { /* the ranks under the new cuts */
            free(m.own);
            free(m.oidx);
            free(m.dst);
            free(m.dest);
            m.own = m.oidx = m.dst = NULL;
            m.dest = NULL;
            rc = find_dests(d, &m, err);
        }
    }
    if (!rc) rc = export_keyed(ms, &rec, &nrec, &rsz, err);
    if (!rc) rc = pack(d, &m, rec, nrec, rsz, err);
    free(rec);
    int rc2 = clab_mpi_exchange(d, rc ? NULL : m.sbuf, rc ? NULL : m.sdispl, &rbuf, rdispl, err);
    rc = rc ? rc : rc2;
    if (!rc) rc = unpack(ms, &m, rbuf, rdispl, rsz, err);
    plan_free(&m);
    free(rbuf);
    free(rdispl);
    if (!rc) rc = clab_mpi_sim_parts(ms, err);
    if (!rc) clab_collider_invalidate(ms->sim->collider);
    d->traffic.rebuilds++;
    return rc;
}

/* a figure of /proc/self/status [bytes] (0 where unknown) */
static double status_bytes(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    const size_t n = strlen(key);
    double kb = 0.0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, n) && line[n] == ':') kb = atof(line + n + 1);
    if (f) fclose(f);
    return 1024.0 * kb;
}

double clab_mpi_rss(void) { return status_bytes("VmRSS"); }

double clab_mpi_peak_rss(void) { return status_bytes("VmHWM"); }

void clab_mpi_print_memory(clab_mpi_domain *d, double rss0)
{
    double owned = 0.0, mine[4];
    for (size_t k = 0; k < d->local->nbodies; k++) owned += d->mine[k];
    mine[0] = clab_mpi_rss() - rss0;
    mine[1] = (double)d->local->nbodies;
    mine[2] = owned;
    mine[3] = clab_mpi_peak_rss() - rss0;
    double *all = d->rank == 0 ? malloc(4 * (size_t)d->size * sizeof *all) : NULL;
    MPI_Gather(mine, 4, MPI_DOUBLE, all, 4, MPI_DOUBLE, 0, d->comm);
    for (int q = 0; all && q < d->size; q++) {
        const double *a = all + 4 * q;
        printf("  rank %d: memory: %.1f MB resident above the start, %.0f bytes a local body (%.0f), %.0f an owned one%s; "
               "peak %.1f MB above the start, %.0f bytes a local body\n",
               q, a[0] / 1e6, a[0] / fmax(a[1], 1.0), a[1], a[0] / fmax(a[2], 1.0),
               q == 0 && d->global ? " (with the whole world kept for the output)" : "", a[3] / 1e6,
               a[3] / fmax(a[1], 1.0));
    }
    free(all);
}
