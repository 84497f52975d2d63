/* run_mpi_contacts.c: the contacts CSV of `mpirun -np P contactlab run SCENE --contacts N`
 * (doc/mpi.md, doc/measure.md): rank 0 writes the rows of the one-process run byte for byte.
 *
 * The one-process rows are in contact order, the order of the keys (clab_contact_key: a in
 * bits 63..38, b in 37..12, the feature in 11..0) in the scene's body indices. Each rank takes
 * the contacts it counts (the owner of body a, of b when a is fixed, as the steps CSV counts
 * them), computes their rows from its local world (the same contact record and the same body
 * bytes as one process: xp_run_contact_row, the one-process row code) with the global indices
 * of a and b, and keys them by the global key; the rows go to rank 0 in key order, a chunk at a
 * time (clab_mpi_stream_sorted), so rank 0 holds O(chunk + P) rows, never the contacts. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"
#include "run_mpi_contacts.h"

/* a row on the wire: its global key, then the CSV's doubles */
typedef struct contact_rec {
    uint64_t key;
    double row[XP_RUN_CONTACT_COLS];
} contact_rec;

int clab_run_mpi_contacts_open(xp_run_extra *x, const char *out, const char *prefix, const clab_options *meta,
                               int nkeep, char **keep, int flags, size_t chunk, clab_error *err)
{
    xp_common c;
    xp_common_init(&c, "run", nkeep - 1, keep + 1); /* (as main's argv + 1: keep[0] is "contactlab") */
    snprintf(c.out, sizeof c.out, "%s", out);
    const int rc = xp_run_extra_open(x, &c, prefix, meta, nkeep, keep, flags, err); /* (no --measure here) */
    xp_common_free(&c);
    if (!rc && x->fc) clab_csv_set_flush_every(x->fc, (long)chunk); /* one write a chunk */
    return rc;
}

static int cmp_rec(const void *p, const void *q)
{
    const contact_rec *x = p, *y = q;
    return (x->key > y->key) - (x->key < y->key);
}

/* rank 0: a round's rows, in key order, to the CSV */
static int put_rows(void *ctx, const char *rec, size_t n, clab_error *err)
{
    xp_run_extra *x = ctx;
    for (size_t k = 0; k < n; k++) {
        contact_rec r;
        memcpy(&r, rec + k * sizeof r, sizeof r);
        if (clab_csv_row(x->fc, r.row, XP_RUN_CONTACT_COLS, err)) return CLAB_EIO;
    }
    return CLAB_OK;
}

int clab_run_mpi_contacts_rows(clab_mpi_sim *ms, xp_run_extra *x, size_t chunk, clab_error *err)
{
    const clab_mpi_domain *d = ms->d;
    const clab_world *lw = d->local;
    const clab_contacts *cs = &ms->sim->contacts;
    const size_t nc = cs->n;
    clab_vec3 *f = malloc((nc ? nc : 1) * sizeof *f);
    contact_rec *r = malloc((nc ? nc : 1) * sizeof *r);
    int rc = f && r ? CLAB_OK : clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu contacts' rows", nc);
    size_t m = 0;
    if (!rc && nc) clab_sim_forces(ms->sim, f); /* (F_n, F_u, F_w) of each local contact */
    for (size_t i = 0; i < nc && !rc; i++) {
        const clab_contact *k = &cs->c[i];
        if (!(lw->bodies[k->a].fixed ? d->mine[k->b] : d->mine[k->a])) continue; /* counted elsewhere */
        const size_t a = d->gid[k->a], b = d->gid[k->b];
        r[m].key = clab_contact_key((int)a, (int)b, (unsigned)(k->key & 0xfffu));
        xp_run_contact_row(lw, cs, i, f[i], a, b, r[m++].row);
    }
    free(f);
    if (rc) m = 0;
    /* in key order: the local order is the global one (the local-to-global map increases), sorted
     * again so that the stream's precondition does not rest on it */
    if (m) qsort(r, m, sizeof *r, cmp_rec);
    unsigned long long ch = chunk; /* rank 0's */
    MPI_Bcast(&ch, 1, MPI_UNSIGNED_LONG_LONG, 0, d->comm);
    const int rc1 = clab_mpi_stream_sorted(ms->d, 0, r ? (const char *)r : NULL, m, sizeof *r, (size_t)ch, put_rows,
                                           x, err);
    free(r);
    return rc ? rc : rc1;
}
