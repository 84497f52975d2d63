/* domain.c: the bricks, who owns which body, the ghosts and the local world (clab_mpi.h).
 * Rank 0 alone holds the whole world at the start: it makes the refusals and the box, and
 * sends the world out in chunks (mpi/scatter.c), each rank keeping the bodies of its first
 * local world; after that each rank holds only its local world and the replicated fixed
 * bodies, and the rebuilds (mpi/migrate.c) bring the bodies it needs from their owners. An
 * owner and a ghost's holder test the same states with the same function (clab_mpi_in_reach),
 * so the send list of rank p to rank q and q's receive list from p agree without a message. */
#include "clab_mpi.h"
#include "mpi_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* freed memory of the heap back to the system, so the resident set shows what the rank holds */
static void trim_heap(void)
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

/* glibc's threshold for allocations in their own mappings fixed at its default (128 kB): left
 * dynamic, freeing the start's whole world raises it to that world's arrays' size, and the
 * sim's large arrays then grow on the heap, whose freed blocks stay resident (a third more
 * memory a body in the 20,480-sphere pile). The command's process only: the library sets none. */
static void fix_mmap_threshold(void)
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

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
        const double dk = axis_distance(&d->local->periodic, k, x[k], d->cut[k][c[k]], d->cut[k][c[k] + 1]);
        s2 += dk * dk;
    }
    const double R = clab_shape_bound_radius(&b->shape) + d->reach;
    return s2 <= R * R;
}

int clab_mpi_dest(const clab_mpi_domain *d, const clab_body *b, int *q)
{
    const double x[3] = {b->r.x, b->r.y, b->r.z}, R = clab_shape_bound_radius(&b->shape) + d->reach;
    const clab_periodic *p = &d->local->periodic;
    int c[3][64], nc[3];
    double dd[3][64];
    for (int k = 0; k < 3; k++) { /* the slabs within reach along k */
        nc[k] = 0;
        for (int j = 0; j < d->grid[k]; j++) {
            const double t = axis_distance(p, k, x[k], d->cut[k][j], d->cut[k][j + 1]);
            if (t <= R) {
                c[k][nc[k]] = j;
                dd[k][nc[k]++] = t;
            }
        }
    }
    int n = 0;
    for (int a = 0; a < nc[2]; a++)
        for (int e = 0; e < nc[1]; e++)
            for (int f = 0; f < nc[0]; f++) { /* the test of clab_mpi_in_reach, the same sum */
                double s2 = 0.0;
                const double t[3] = {dd[0][f], dd[1][e], dd[2][a]};
                for (int k = 0; k < 3; k++) s2 += t[k] * t[k];
                if (s2 <= R * R) q[n++] = c[0][f] + d->grid[0] * (c[1][e] + d->grid[1] * c[2][a]);
            }
    return n;
}

/* the cuts: periodic axes evenly over [lo, hi); open axes evenly over the moving bodies'
 * centers, the end bricks open to infinity */
static void set_cuts(clab_mpi_domain *d, const clab_periodic *p, const double lo[3], const double hi[3])
{
    for (int k = 0; k < 3; k++) {
        const int g = d->grid[k];
        for (int j = 0; j <= g; j++) d->cut[k][j] = lo[k] + (hi[k] - lo[k]) * j / g;
        if (!p->on[k]) {
            d->cut[k][0] = -INFINITY;
            d->cut[k][g] = INFINITY;
        }
    }
}

/* what every rank needs of the whole world to cut the box, made on rank 0 */
typedef struct box_info {
    double lo[3], hi[3], Rmax; /* the box [m], the largest bound of a moving body [m] */
    clab_periodic periodic;
    uint64_t nbodies;
} box_info;

/* rank 0: the refusals and the box of w: the moving bodies' centers, the periodic axes'
 * periods; the largest bound */
static int survey(const clab_world *w, double skin, box_info *b, clab_error *err)
{
    memset(b, 0, sizeof *b);
    b->periodic = w->periodic;
    b->nbodies = w->nbodies;
    if (w->njoints) return clab_error_set(err, CLAB_EINVAL, "mpi: joints (%zu in the scene) are not supported across ranks", w->njoints);
    if (!(skin > 0.0 && isfinite(skin))) return clab_error_set(err, CLAB_EINVAL, "mpi: skin %g m: must be > 0", skin);
    double *lo = b->lo, *hi = b->hi;
    for (int k = 0; k < 3; k++) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
    }
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *bd = &w->bodies[i];
        if (bd->fixed) continue;
        const double R = clab_shape_bound_radius(&bd->shape);
        if (!isfinite(R))
            return clab_error_set(err, CLAB_EINVAL, "mpi: body '%s' moves and has no bound (a free half-space): not "
                                  "supported across ranks", clab_world_body_name(w, i));
        b->Rmax = fmax(b->Rmax, R);
        const double x[3] = {bd->r.x, bd->r.y, bd->r.z};
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], x[k]);
            hi[k] = fmax(hi[k], x[k]);
        }
    }
    for (int k = 0; k < 3; k++) {
        if (w->periodic.on[k]) {
            lo[k] = w->periodic.lo[k];
            hi[k] = w->periodic.hi[k];
        } else if (!(hi[k] > lo[k])) { /* no moving body, or all in one plane */
            lo[k] = isfinite(lo[k]) ? lo[k] : 0.0;
            hi[k] = lo[k] + 1.0;
        }
    }
    return CLAB_OK;
}

int clab_mpi_domain_create(clab_mpi_domain **out, MPI_Comm comm, clab_world *global, const int *grid, int balance,
                           double skin, double envelope, clab_error *err)
{
    *out = NULL;
    clab_mpi_domain *d = calloc(1, sizeof *d);
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank != 0) { /* the whole world is rank 0's (a world given here is not read) */
        clab_world_destroy(global);
        global = NULL;
    }
    int rc = d ? CLAB_OK : clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    if (!rc && rank == 0 && !global) rc = clab_error_set(err, CLAB_EINVAL, "mpi: no world given on rank 0");
    if (!d) { /* every rank takes part in the agreement, failed or not */
        clab_mpi_domain tmp = {.comm = comm, .rank = rank};
        MPI_Comm_size(comm, &tmp.size);
        clab_mpi_agree(&tmp, rc, NULL, err);
        clab_world_destroy(global);
        return rc;
    }
    fix_mmap_threshold();
    d->comm = comm;
    d->rank = rank;
    MPI_Comm_size(comm, &d->size);
    d->global = global;
    d->skin = skin;
    d->balance = balance != 0;
    d->envelope = envelope;
    box_info box;
    memset(&box, 0, sizeof box);
    if (!rc && rank == 0) rc = survey(global, skin, &box, err);
    rc = clab_mpi_agree(d, rc, NULL, err); /* rank 0's refusal on every rank */
    if (!rc) MPI_Bcast(&box, (int)sizeof box, MPI_BYTE, 0, comm);
    d->nglobal = (size_t)box.nbodies;
    double L[3];
    for (int k = 0; k < 3; k++) L[k] = box.hi[k] - box.lo[k];
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
        set_cuts(d, &box.periodic, box.lo, box.hi);
        /* a pair in contact is at most R_a + R_b + envelope apart; between rebuilds each body
         * moves less than skin/2, so the pair came at most skin closer: an owned body (center
         * in the brick at the rebuild) meets only bodies within Rmax + envelope + skin of it */
        d->reach = box.Rmax + envelope + skin;
        d->sdispl = calloc((size_t)d->size + 1, sizeof *d->sdispl);
        d->rdispl = calloc((size_t)d->size + 1, sizeof *d->rdispl);
        if (!d->sdispl || !d->rdispl) rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    }
    rc = clab_mpi_agree(d, rc, NULL, err);
    if (!rc) rc = clab_mpi_drives_init(d, global, err); /* (before the first local worlds take them) */
    if (!rc) rc = clab_mpi_scatter(d, global, err); /* the first local worlds (mpi/scatter.c) */
    if (!rc) trim_heap();
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
    free(d->lowner);
    free(d->r0);
    free(d->fixed_gid);
    free(d->fixed);
    free(d->fixed_names);
    clab_mpi_drives_free(d);
    free(d->send);
    free(d->recv);
    free(d->sdispl);
    free(d->rdispl);
    free(d->sbuf);
    free(d->rbuf);
    free(d);
}

void clab_mpi_domain_release(clab_mpi_domain *d)
{
    clab_world_destroy(d->global);
    d->global = NULL;
    trim_heap();
}

size_t clab_mpi_local_index(const clab_mpi_domain *d, uint64_t g)
{
    const size_t k = clab_mpi_lower(d->gid, d->local->nbodies, g);
    return k < d->local->nbodies && d->gid[k] == g ? k : SIZE_MAX;
}

/* the forward exchange's lists of the local world: rank p sends q its owned bodies within reach
 * of q's brick; q receives from p the ghosts p owns, both in global order */
static int plan(clab_mpi_domain *d, clab_error *err)
{
    const clab_world *lw = d->local;
    const int P = d->size;
    int *q = malloc((size_t)P * sizeof *q);
    if (!q) return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    memset(d->sdispl, 0, ((size_t)P + 1) * sizeof *d->sdispl);
    memset(d->rdispl, 0, ((size_t)P + 1) * sizeof *d->rdispl);
    for (size_t k = 0; k < lw->nbodies; k++) { /* the counts, at [q + 1] */
        if (d->mine[k]) {
            const int n = clab_mpi_dest(d, &lw->bodies[k], q);
            for (int j = 0; j < n; j++) d->sdispl[q[j] + 1] += q[j] != d->rank;
        } else if (d->lowner[k] >= 0) {
            d->rdispl[d->lowner[k] + 1]++;
        }
    }
    for (int r = 0; r < P; r++) {
        d->sdispl[r + 1] += d->sdispl[r];
        d->rdispl[r + 1] += d->rdispl[r];
    }
    const size_t ns = (size_t)d->sdispl[P], nr = (size_t)d->rdispl[P];
    free(d->send);
    free(d->recv);
    free(d->sbuf);
    free(d->rbuf);
    d->send = malloc((ns ? ns : 1) * sizeof *d->send);
    d->recv = malloc((nr ? nr : 1) * sizeof *d->recv);
    d->sbuf = malloc((ns ? ns : 1) * CLAB_MPI_STATE * sizeof(double));
    d->rbuf = malloc((nr ? nr : 1) * CLAB_MPI_STATE * sizeof(double));
    int *fs = calloc((size_t)P, sizeof *fs), *fr = calloc((size_t)P, sizeof *fr);
    int rc = CLAB_OK;
    if (!d->send || !d->recv || !d->sbuf || !d->rbuf || !fs || !fr)
        rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the exchange lists");
    for (size_t k = 0; k < lw->nbodies && !rc; k++) {
        if (d->mine[k]) {
            const int n = clab_mpi_dest(d, &lw->bodies[k], q);
            for (int j = 0; j < n; j++)
                if (q[j] != d->rank) d->send[d->sdispl[q[j]] + fs[q[j]]++] = k;
        } else if (d->lowner[k] >= 0) {
            d->recv[d->rdispl[d->lowner[k]] + fr[d->lowner[k]]++] = k;
        }
    }
    free(q);
    free(fs);
    free(fr);
    return rc;
}

/* the local world's arrays and the maps for n bodies and `names` bytes of names, new (the
 * merge reads the old ones: a body staying on the rank is not copied through a message) */
typedef struct local_arrays {
    clab_body *bodies;
    size_t *name_off, *gid;
    char *names;
    unsigned char *mine;
    int *lowner;
    clab_vec3 *r0;
} local_arrays;

static int new_arrays(local_arrays *a, size_t n, size_t names, clab_error *err)
{
    const size_t m = n ? n : 1;
    a->bodies = malloc(m * sizeof *a->bodies);
    a->name_off = malloc(m * sizeof *a->name_off);
    a->gid = malloc(m * sizeof *a->gid);
    a->names = malloc(names ? names : 1);
    a->mine = malloc(m);
    a->lowner = malloc(m * sizeof *a->lowner);
    a->r0 = malloc(m * sizeof *a->r0);
    if (a->bodies && a->name_off && a->gid && a->names && a->mine && a->lowner && a->r0) return CLAB_OK;
    free(a->bodies);
    free(a->name_off);
    free(a->gid);
    free(a->names);
    free(a->mine);
    free(a->lowner);
    free(a->r0);
    return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu local bodies", n);
}

/* the new arrays in, the old ones freed */
static void swap_arrays(clab_mpi_domain *d, const local_arrays *a, size_t n, size_t names)
{
    clab_world *lw = d->local;
    free(lw->bodies);
    free(lw->name_off);
    free(lw->name_pool);
    free(d->gid);
    free(d->mine);
    free(d->lowner);
    free(d->r0);
    lw->bodies = a->bodies;
    lw->name_off = a->name_off;
    lw->name_pool = a->names;
    d->gid = a->gid;
    d->mine = a->mine;
    d->lowner = a->lowner;
    d->r0 = a->r0;
    lw->nbodies = lw->cap_bodies = d->cap = n;
    lw->name_len = lw->name_cap = names;
}

int clab_mpi_set_local(clab_mpi_domain *d, const clab_mpi_body *mv, size_t n, clab_error *err)
{
    size_t names = 0;
    const char *fn = d->fixed_names;
    for (size_t j = 0; j < n; j++) names += strlen(mv[j].name) + 1;
    for (size_t j = 0; j < d->nfixed; j++) {
        const size_t l = strlen(fn) + 1;
        names += l;
        fn += l;
    }
    local_arrays A;
    int rc = new_arrays(&A, n + d->nfixed, names, err);
    if (rc) return rc;
    size_t a = 0, f = 0, k = 0, len = 0;
    fn = d->fixed_names;
    while (a < n || f < d->nfixed) { /* the merge in global order */
        const int fixed = f < d->nfixed && (a == n || d->fixed_gid[f] < mv[a].gid);
        const char *name = fixed ? fn : mv[a].name;
        const size_t l = strlen(name) + 1;
        A.bodies[k] = fixed ? d->fixed[f] : *mv[a].b;
        A.gid[k] = fixed ? d->fixed_gid[f] : mv[a].gid;
        A.lowner[k] = fixed ? -1 : clab_mpi_owner_of(d, A.bodies[k].r);
        A.mine[k] = A.lowner[k] == d->rank;
        A.r0[k] = A.bodies[k].r;
        memcpy(A.names + len, name, l);
        A.name_off[k++] = len;
        len += l;
        if (fixed) {
            f++;
            fn += l;
        } else {
            a++;
        }
    }
    swap_arrays(d, &A, k, names);
    rc = clab_mpi_drives_apply(d, err);
    return rc ? rc : plan(d, err);
}
