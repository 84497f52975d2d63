/* domain.c: the bricks, who owns which body, the ghosts and the local world (clab_mpi.h).
 * The first local world is taken from the whole world, which every rank builds alike; after
 * that each rank holds only its local world and the replicated fixed bodies, and the rebuilds
 * (mpi/migrate.c) bring the bodies it needs from their owners. An owner and a ghost's holder
 * test the same states with the same function (clab_mpi_in_reach), so the send list of rank p
 * to rank q and q's receive list from p agree without a message. */
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

static int first_local(clab_mpi_domain *d, const clab_world *w, clab_error *err);
static int first_balance(clab_mpi_domain *d, const clab_world *w, clab_error *err);

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
static void set_cuts(clab_mpi_domain *d, const clab_world *global, const double lo[3], const double hi[3])
{
    const clab_periodic *p = &global->periodic;
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
    fix_mmap_threshold();
    d->comm = comm;
    MPI_Comm_rank(comm, &d->rank);
    MPI_Comm_size(comm, &d->size);
    d->global = global;
    d->nglobal = global->nbodies;
    d->skin = skin;
    d->balance = balance != 0;
    d->envelope = envelope;
    clab_world *w = global;
    int rc = CLAB_OK;
    if (w->njoints) rc = clab_error_set(err, CLAB_EINVAL, "mpi: joints (%zu in the scene) are not supported across ranks", w->njoints);
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
        set_cuts(d, w, lo, hi);
        /* a pair in contact is at most R_a + R_b + envelope apart; between rebuilds each body
         * moves less than skin/2, so the pair came at most skin closer: an owned body (center
         * in the brick at the rebuild) meets only bodies within Rmax + envelope + skin of it */
        d->reach = Rmax + envelope + skin;
        d->sdispl = calloc((size_t)d->size + 1, sizeof *d->sdispl);
        d->rdispl = calloc((size_t)d->size + 1, sizeof *d->rdispl);
        if (!d->sdispl || !d->rdispl) rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    }
    rc = clab_mpi_agree(d, rc, NULL, err);
    if (!rc) rc = clab_mpi_drives_init(d, w, err); /* (before the first local world takes them) */
    if (!rc) rc = first_local(d, w, err);
    rc = clab_mpi_agree(d, rc, NULL, err);
    if (!rc && d->balance) rc = first_balance(d, w, err);
    if (!rc && d->balance) rc = first_local(d, w, err);
    rc = clab_mpi_agree(d, rc, NULL, err);
    if (!rc && d->rank != 0) {
        clab_world_destroy(d->global); /* rank 0 keeps it for the output */
        d->global = NULL;
        trim_heap();
    }
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
    size_t lo = 0, hi = d->local->nbodies;
    while (lo < hi) {
        const size_t m = lo + (hi - lo) / 2;
        if (d->gid[m] < g) lo = m + 1;
        else hi = m;
    }
    return lo < d->local->nbodies && d->gid[lo] == g ? lo : SIZE_MAX;
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

/* the local world from the whole world w (every rank has it alike): the fixed bodies
 * replicated, the moving ones owned here or within reach of the brick */
static int first_local(clab_mpi_domain *d, const clab_world *w, clab_error *err)
{
    if (!d->local) { /* the local world: w's materials, meshes, periodic axes, no bodies yet */
        d->local = clab_world_clone(w);
        if (!d->local) return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
        free(d->local->bodies);
        free(d->local->name_off);
        free(d->local->name_pool);
        d->local->bodies = NULL;
        d->local->name_off = NULL;
        d->local->name_pool = NULL;
        d->local->nbodies = d->local->cap_bodies = d->local->name_len = d->local->name_cap = 0;
        size_t nf = 0, len = 0;
        for (size_t i = 0; i < w->nbodies; i++)
            if (w->bodies[i].fixed) {
                nf++;
                len += strlen(clab_world_body_name(w, i)) + 1;
            }
        d->fixed_gid = malloc((nf ? nf : 1) * sizeof *d->fixed_gid);
        d->fixed = malloc((nf ? nf : 1) * sizeof *d->fixed);
        d->fixed_names = malloc(len ? len : 1);
        if (!d->fixed_gid || !d->fixed || !d->fixed_names) return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
        len = 0;
        for (size_t i = 0; i < w->nbodies; i++)
            if (w->bodies[i].fixed) {
                const char *nm = clab_world_body_name(w, i);
                d->fixed_gid[d->nfixed] = i;
                d->fixed[d->nfixed++] = w->bodies[i];
                memcpy(d->fixed_names + len, nm, strlen(nm) + 1);
                len += strlen(nm) + 1;
            }
    }
    d->local->t = w->t;
    d->local->step = w->step;
    size_t n = 0;
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        n += !b->fixed && (clab_mpi_owner_of(d, b->r) == d->rank || clab_mpi_in_reach(d, d->rank, b));
    }
    clab_mpi_body *mv = malloc((n ? n : 1) * sizeof *mv);
    if (!mv) return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu bodies", n);
    n = 0;
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (!b->fixed && (clab_mpi_owner_of(d, b->r) == d->rank || clab_mpi_in_reach(d, d->rank, b)))
            mv[n++] = (clab_mpi_body){i, b, clab_world_body_name(w, i)};
    }
    int rc = clab_mpi_set_local(d, mv, n, err);
    free(mv);
    return rc;
}

/* --balance at the start: each rank gives the search every size-th moving body */
static int first_balance(clab_mpi_domain *d, const clab_world *w, clab_error *err)
{
    size_t n = 0;
    for (size_t i = (size_t)d->rank; i < w->nbodies; i += (size_t)d->size) n += !w->bodies[i].fixed;
    clab_vec3 *x = malloc((n ? n : 1) * sizeof *x);
    int rc = x ? CLAB_OK : clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    n = 0;
    for (size_t i = (size_t)d->rank; x && i < w->nbodies; i += (size_t)d->size)
        if (!w->bodies[i].fixed) x[n++] = w->bodies[i].r;
    int rc2 = clab_mpi_balance(d, x, rc ? 0 : n, err); /* (collective: called on failure too) */
    free(x);
    return rc ? rc : rc2;
}
