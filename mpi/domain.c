/* domain.c: the bricks, who owns which body, the ghosts and the local world (clab_mpi.h).
 * Every rank computes the same assignment from the same global states (d->global after a
 * rebuild's gather), so the send list of rank p to rank q and q's receive list from p agree
 * without a message. */
#include "clab_mpi.h"
#include "mpi_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void clab_mpi_grid(int size, const double L[3], int grid[3])
{
    double best = INFINITY;
    grid[0] = size;
    grid[1] = grid[2] = 1;
    for (int px = 1; px <= size; px++) {
        if (size % px) continue;
        for (int py = 1; py <= size / px; py++) {
            if ((size / px) % py) continue;
            const int pz = size / px / py;
            const double a = L[0] / px, b = L[1] / py, c = L[2] / pz;
            const double surf = a * b + b * c + a * c; /* a brick's surface / 2 */
            if (surf < best * (1.0 - 1e-12)) {
                best = surf;
                grid[0] = px;
                grid[1] = py;
                grid[2] = pz;
            }
        }
    }
}

/* the brick index along axis k of coordinate x: the number of inner cuts at or below x */
static int brick_of(const clab_mpi_domain *d, int k, double x)
{
    int c = 0;
    while (c + 1 < d->grid[k] && x >= d->cut[k][c + 1]) c++;
    return c;
}

int clab_mpi_owner_of(const clab_mpi_domain *d, clab_vec3 r)
{
    const int cx = brick_of(d, 0, r.x), cy = brick_of(d, 1, r.y), cz = brick_of(d, 2, r.z);
    return cx + d->grid[0] * (cy + d->grid[1] * cz);
}

/* distance of x from [a, b] along axis k, through the nearest periodic image on a periodic axis */
static double axis_distance(const clab_periodic *p, int k, double x, double a, double b)
{
    double best = INFINITY;
    const double L = p->on[k] ? p->hi[k] - p->lo[k] : 0.0;
    for (int s = p->on[k] ? -1 : 0; s <= (p->on[k] ? 1 : 0); s++) {
        const double y = x + s * L, dd = y < a ? a - y : y > b ? y - b : 0.0;
        best = fmin(best, dd);
    }
    return best;
}

int clab_mpi_in_reach(const clab_mpi_domain *d, int q, const clab_body *b)
{
    const int c[3] = {q % d->grid[0], (q / d->grid[0]) % d->grid[1], q / (d->grid[0] * d->grid[1])};
    const double x[3] = {b->r.x, b->r.y, b->r.z};
    double s2 = 0.0;
    for (int k = 0; k < 3; k++) {
        const double dk = axis_distance(&d->global->periodic, k, x[k], d->cut[k][c[k]], d->cut[k][c[k] + 1]);
        s2 += dk * dk;
    }
    const double R = clab_shape_bound_radius(&b->shape) + d->reach;
    return s2 <= R * R;
}

/* the cuts: periodic axes evenly over [lo, hi); open axes evenly over the moving bodies'
 * centers, the end bricks open to infinity */
static void set_cuts(clab_mpi_domain *d, const double lo[3], const double hi[3])
{
    const clab_periodic *p = &d->global->periodic;
    for (int k = 0; k < 3; k++) {
        const int g = d->grid[k];
        for (int j = 0; j <= g; j++) d->cut[k][j] = lo[k] + (hi[k] - lo[k]) * j / g;
        if (!p->on[k]) {
            d->cut[k][0] = -INFINITY;
            d->cut[k][g] = INFINITY;
        }
    }
}

int clab_mpi_domain_create(clab_mpi_domain **out, MPI_Comm comm, clab_world *global, const int *grid, int balance,
                           double skin, double envelope, clab_error *err)
{
    *out = NULL;
    clab_mpi_domain *d = calloc(1, sizeof *d);
    if (!d) {
        clab_world_destroy(global);
        return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    }
    d->comm = comm;
    MPI_Comm_rank(comm, &d->rank);
    MPI_Comm_size(comm, &d->size);
    d->global = global;
    d->skin = skin;
    d->balance = balance != 0;
    d->envelope = envelope;
    clab_world *w = global;
    int rc = CLAB_OK;
    if (w->njoints) rc = clab_error_set(err, CLAB_EINVAL, "mpi: joints (%zu in the scene) are not supported across ranks", w->njoints);
    else if (w->ndriven)
        rc = clab_error_set(err, CLAB_EINVAL, "mpi: driven bodies (motion, servo: %zu in the scene) are not supported across ranks",
                            w->ndriven);
    else if (w->loads) rc = clab_error_set(err, CLAB_EINVAL, "mpi: loads (force, torque on a body) are not supported across ranks");
    else if (!(skin > 0.0 && isfinite(skin))) rc = clab_error_set(err, CLAB_EINVAL, "mpi: skin %g m: must be > 0", skin);
    /* the box: the moving bodies' centers, the periodic axes' periods; the largest bound */
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, Rmax = 0.0;
    for (size_t i = 0; i < w->nbodies && !rc; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->fixed) continue;
        const double R = clab_shape_bound_radius(&b->shape);
        if (!isfinite(R)) {
            rc = clab_error_set(err, CLAB_EINVAL, "mpi: body '%s' moves and has no bound (a free half-space): not "
                                "supported across ranks", clab_world_body_name(w, i));
            break;
        }
        Rmax = fmax(Rmax, R);
        const double x[3] = {b->r.x, b->r.y, b->r.z};
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], x[k]);
            hi[k] = fmax(hi[k], x[k]);
        }
    }
    double L[3];
    for (int k = 0; k < 3 && !rc; k++) {
        if (w->periodic.on[k]) {
            lo[k] = w->periodic.lo[k];
            hi[k] = w->periodic.hi[k];
        } else if (!(hi[k] > lo[k])) { /* no moving body, or all in one plane */
            lo[k] = isfinite(lo[k]) ? lo[k] : 0.0;
            hi[k] = lo[k] + 1.0;
        }
        L[k] = hi[k] - lo[k];
    }
    if (!rc) {
        if (grid && grid[0] > 0 && grid[1] > 0 && grid[2] > 0) {
            memcpy(d->grid, grid, sizeof d->grid);
            if ((long)grid[0] * grid[1] * grid[2] != d->size)
                rc = clab_error_set(err, CLAB_EINVAL, "mpi: grid %dx%dx%d is %d bricks for %d ranks", grid[0], grid[1],
                                    grid[2], grid[0] * grid[1] * grid[2], d->size);
        } else {
            clab_mpi_grid(d->size, L, d->grid);
        }
        for (int k = 0; k < 3 && !rc; k++)
            if (d->grid[k] > 64) rc = clab_error_set(err, CLAB_EINVAL, "mpi: %d ranks along an axis: at most 64", d->grid[k]);
    }
    if (!rc) {
        d->cell[0] = d->rank % d->grid[0];
        d->cell[1] = (d->rank / d->grid[0]) % d->grid[1];
        d->cell[2] = d->rank / (d->grid[0] * d->grid[1]);
        set_cuts(d, lo, hi);
        /* a pair in contact is at most R_a + R_b + envelope apart; between rebuilds each body
         * moves less than skin/2, so the pair came at most skin closer: an owned body (center
         * in the brick at the rebuild) meets only bodies within Rmax + envelope + skin of it */
        d->reach = Rmax + envelope + skin;
        const size_t n = w->nbodies;
        d->lid = malloc((n ? n : 1) * sizeof *d->lid);
        d->owner = malloc((n ? n : 1) * sizeof *d->owner);
        d->gid = malloc((n ? n : 1) * sizeof *d->gid);
        d->mine = malloc(n ? n : 1);
        d->r0 = malloc((n ? n : 1) * sizeof *d->r0);
        d->sdispl = calloc((size_t)d->size + 1, sizeof *d->sdispl);
        d->rdispl = calloc((size_t)d->size + 1, sizeof *d->rdispl);
        d->local = clab_world_clone(w);
        if (!d->lid || !d->owner || !d->gid || !d->mine || !d->r0 || !d->sdispl || !d->rdispl || !d->local)
            rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu bodies", n);
    }
    if (!rc) rc = clab_mpi_assign(d, err);
    rc = clab_mpi_agree(d, rc, NULL, err);
    if (rc) {
        clab_mpi_domain_destroy(d);
        return rc;
    }
    *out = d;
    return CLAB_OK;
}

void clab_mpi_domain_destroy(clab_mpi_domain *d)
{
    if (!d) return;
    clab_world_destroy(d->global);
    clab_world_destroy(d->local);
    free(d->gid);
    free(d->mine);
    free(d->lid);
    free(d->owner);
    free(d->r0);
    free(d->send);
    free(d->recv);
    free(d->sdispl);
    free(d->rdispl);
    free(d->sbuf);
    free(d->rbuf);
    free(d);
}

/* the forward exchange's lists from the owners: rank p sends q its owned bodies within reach
 * of q's brick; q receives from p p's bodies within reach of q's brick, both in global order */
static int plan(clab_mpi_domain *d, clab_error *err)
{
    const clab_world *g = d->global;
    const int P = d->size;
    size_t ns = 0, nr = 0;
    for (int pass = 0; pass < 2; pass++) {
        ns = nr = 0;
        for (int q = 0; q < P; q++) {
            d->sdispl[q] = (int)ns;
            d->rdispl[q] = (int)nr;
            if (q == d->rank) continue;
            for (size_t i = 0; i < g->nbodies; i++) {
                if (d->owner[i] == d->rank && clab_mpi_in_reach(d, q, &g->bodies[i])) {
                    if (pass) d->send[ns] = (size_t)d->lid[i];
                    ns++;
                } else if (d->owner[i] == q && d->lid[i] >= 0) {
                    if (pass) d->recv[nr] = (size_t)d->lid[i];
                    nr++;
                }
            }
        }
        d->sdispl[P] = (int)ns;
        d->rdispl[P] = (int)nr;
        if (pass) break;
        free(d->send);
        free(d->recv);
        free(d->sbuf);
        free(d->rbuf);
        d->send = malloc((ns ? ns : 1) * sizeof *d->send);
        d->recv = malloc((nr ? nr : 1) * sizeof *d->recv);
        d->sbuf = malloc((ns ? ns : 1) * CLAB_MPI_STATE * sizeof(double));
        d->rbuf = malloc((nr ? nr : 1) * CLAB_MPI_STATE * sizeof(double));
        if (!d->send || !d->recv || !d->sbuf || !d->rbuf)
            return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the exchange lists");
    }
    return CLAB_OK;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the inner cuts along each axis at the quantiles of the moving bodies' centers: slab j of g
 * starts at the center of rank j n / g in the sorted order, so each slab holds n/g of them
 * (ties aside); the outer faces stay */
static int balance_cuts(clab_mpi_domain *d, clab_error *err)
{
    const clab_world *g = d->global;
    double *x = malloc((g->nbodies ? g->nbodies : 1) * sizeof *x);
    if (!x) return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu bodies", g->nbodies);
    for (int k = 0; k < 3; k++) {
        if (d->grid[k] == 1) continue;
        size_t n = 0;
        for (size_t i = 0; i < g->nbodies; i++)
            if (!g->bodies[i].fixed) x[n++] = k == 0 ? g->bodies[i].r.x : k == 1 ? g->bodies[i].r.y : g->bodies[i].r.z;
        if (n < (size_t)d->grid[k]) continue; /* fewer bodies than slabs: the cuts stay */
        qsort(x, n, sizeof *x, cmp_double);
        for (int j = 1; j < d->grid[k]; j++) d->cut[k][j] = x[(size_t)j * n / (size_t)d->grid[k]];
    }
    free(x);
    return CLAB_OK;
}

int clab_mpi_assign(clab_mpi_domain *d, clab_error *err)
{
    const clab_world *g = d->global;
    clab_world *lw = d->local;
    size_t nl = 0;
    int rc;
    if (d->balance && (rc = balance_cuts(d, err))) return rc;
    /* owners first: a body in reach of this brick is a ghost only when another rank owns it */
    for (size_t i = 0; i < g->nbodies; i++) d->owner[i] = g->bodies[i].fixed ? -1 : clab_mpi_owner_of(d, g->bodies[i].r);
    for (size_t i = 0; i < g->nbodies; i++) {
        const clab_body *b = &g->bodies[i];
        const int keep = b->fixed || d->owner[i] == d->rank || clab_mpi_in_reach(d, d->rank, b);
        d->lid[i] = keep ? (long)nl : -1;
        if (!keep) continue;
        lw->bodies[nl] = *b;
        lw->name_off[nl] = g->name_off[i];
        d->gid[nl] = i;
        d->mine[nl] = d->owner[i] == d->rank;
        d->r0[nl] = b->r;
        nl++;
    }
    lw->nbodies = nl;
    lw->t = g->t;
    lw->step = g->step;
    return plan(d, err);
}
