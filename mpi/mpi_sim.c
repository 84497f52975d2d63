/* mpi_sim.c: a simulation across ranks (clab_mpi.h): the local world's clab_sim, the step
 * (the rebuild, which moves bodies and their contacts' keyed state between ranks, is
 * mpi/migrate.c), and the gather of the whole world on one rank (clab_mpi_gather: O(N) there, for
 * bench's --check and --state; run's outputs and the checkpoints gather by chunks, mpi/gather.c). */
#include "clab_mpi.h"
#include "clab_backend_keyed.h"
#include "mpi_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "split.h"

int clab_mpi_rank_options(const char *backend, clab_options *opt, clab_error *err)
{
    const clab_backend_type *type = clab_backend_lookup(backend);
    const clab_backend_keyed *k = type ? clab_backend_keyed_of(type) : NULL;
    for (const char *const *o = k ? k->rank_options : NULL; o && o[0]; o += 2) {
        const char *given = clab_options_get(opt, o[0]);
        if (given && strcmp(given, o[1]))
            return clab_error_set(err, CLAB_EINVAL, "mpi: the %s backend runs across ranks with %s=%s only (%s=%s given)",
                                  backend, o[0], o[1], o[0], given);
        if (!given) clab_options_set(opt, o[0], o[1], NULL);
    }
    return CLAB_OK;
}

int clab_mpi_sim_parts(clab_mpi_sim *ms, clab_error *err)
{
    const clab_backend_keyed *k = clab_backend_keyed_of(ms->sim->type);
    if (!k->set_ranks) return CLAB_OK;
    const clab_mpi_domain *d = ms->d;
    *ms->ranks = (clab_backend_ranks){d->rank, d->size, d->lowner, d->local->nbodies, ms->split_comm};
    return k->set_ranks(ms->sim->self, ms->ranks, err);
}

/* the rank's part and its communication, for a backend whose step couples the ranks */
static int sim_ranks(clab_mpi_sim *ms, clab_error *err)
{
    const clab_backend_keyed *k = clab_backend_keyed_of(ms->sim->type);
    if (!k->set_ranks) return CLAB_OK;
    ms->ranks = calloc(1, sizeof *ms->ranks);
    ms->split_comm = calloc(1, sizeof(clab_split_comm));
    if (!ms->ranks || !ms->split_comm || clab_mpi_ccp_comm_create(&ms->ccp, ms->d, ms->split_comm))
        return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    return clab_mpi_sim_parts(ms, err);
}

int clab_mpi_sim_create(clab_mpi_sim **out, clab_mpi_domain *d, const char *backend, double h, clab_options *opt,
                        clab_error *err)
{
    *out = NULL;
    int rc = CLAB_OK;
    const clab_backend_type *type = clab_backend_lookup(backend);
    if (type && !clab_backend_keyed_of(type))
        rc = clab_error_set(err, CLAB_EINVAL, "mpi: the %s backend does not run across ranks (penalty and dvi do)",
                            backend);
    if (!rc && opt && clab_options_get(opt, "sort"))
        rc = clab_error_set(err, CLAB_EINVAL,
                            "mpi: option sort: not supported across ranks (the bodies keep their global order; sort "
                            "the world before the run)");
    clab_mpi_sim *ms = rc ? NULL : calloc(1, sizeof *ms);
    if (!rc && !ms) rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory");
    if (!rc) {
        clab_options o;
        clab_options_init(&o);
        if (opt) clab_options_merge(&o, opt);
        rc = clab_mpi_rank_options(backend, &o, err);
        if (!clab_options_get(&o, "guard_energy")) clab_options_set(&o, "guard_energy", "0", NULL);
        ms->d = d;
        ms->sim = rc ? NULL : clab_sim_create(d->local, backend, h, &o, err);
        clab_options_free(&o);
        if (!rc && !ms->sim) {
            rc = err->status ? err->status : CLAB_EINVAL;
            const clab_backend_keyed *k = clab_backend_keyed_of(type);
            if (k && k->rank_options) { /* say which options the ranks set */
                char m[sizeof err->msg], set[160] = "";
                snprintf(m, sizeof m, "%s", err->msg);
                for (const char *const *q = k->rank_options; q[0]; q += 2)
                    snprintf(set + strlen(set), sizeof set - strlen(set), "%s%s=%s", set[0] ? " " : "", q[0], q[1]);
                clab_error_set(err, rc, "mpi: the %s backend across ranks (%s): %s", backend, set, m);
            }
        } else if (!rc && ms->sim->envelope > d->envelope)
            rc = clab_error_set(err, CLAB_EINVAL,
                                "mpi: envelope %g m is more than the %g m the decomposition's ghosts were chosen for",
                                ms->sim->envelope, d->envelope);
        if (!rc) rc = sim_ranks(ms, err);
    }
    rc = clab_mpi_agree(d, rc, NULL, err);
    if (rc) {
        clab_mpi_sim_destroy(ms);
        return rc;
    }
    *out = ms;
    return CLAB_OK;
}

void clab_mpi_sim_destroy(clab_mpi_sim *ms)
{
    if (!ms) return;
    clab_sim_destroy(ms->sim);
    clab_mpi_ccp_comm_destroy(ms->ccp);
    free(ms->split_comm);
    free(ms->ranks);
    free(ms);
}

static int cmp_key(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

size_t clab_mpi_sort_keyed(char *c, size_t n, size_t sz)
{
    size_t up = 1;
    while (up < n && cmp_key(c + (up - 1) * sz, c + up * sz) < 0) up++;
    if (up < n) qsort(c, n, sz, cmp_key);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || memcmp(c + (m - 1) * sz, c + i * sz, sizeof(uint64_t)) != 0) memmove(c + m++ * sz, c + i * sz, sz);
    return m;
}

int clab_mpi_gather_keyed(clab_mpi_sim *ms, int root, char **all, size_t *nall, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    const clab_backend_keyed *type = clab_backend_keyed_of(ms->sim->type);
    const size_t sz = type->size;
    void *rec = NULL, *a = NULL;
    size_t n = 0, na = 0;
    int rc = type->export_state(ms->sim->self, d->gid, d->mine, d->local->nbodies, &rec, &n, err);
    if (rc) n = 0;
    int rc2 = clab_mpi_gather_root(d, root, rec, n, sz, &a, &na, err);
    free(rec);
    *all = a;
    *nall = a ? clab_mpi_sort_keyed(a, na, sz) : 0;
    return rc ? rc : rc2;
}

int clab_mpi_import_keyed(clab_mpi_sim *ms, char *all, size_t nall, clab_error *err)
{
    const clab_mpi_domain *d = ms->d;
    const clab_backend_keyed *type = clab_backend_keyed_of(ms->sim->type);
    const size_t sz = type->size;
    size_t m = 0, a = 0;
    const size_t nb = d->local->nbodies;
    for (size_t i = 0; i < nall; i++) {
        uint64_t key;
        memcpy(&key, all + i * sz, sizeof key);
        /* the keys increase: body a by a pointer moving up the gid array; b (> a) by a search
         * galloping up from a, then halving */
        while (a < nb && d->gid[a] < (key >> 38)) a++;
        if (a == nb || d->gid[a] != (key >> 38)) continue;
        const uint64_t gb = (key >> 12) & 0x3ffffffu;
        size_t lo = a + 1, hi = a + 1, s = 1;
        while (hi < nb && d->gid[hi] < gb) {
            lo = hi + 1;
            hi += s;
            s *= 2;
        }
        hi = hi < nb ? hi + 1 : nb; /* gb in gid[lo .. hi) if anywhere */
        while (lo < hi) {
            const size_t c = lo + (hi - lo) / 2;
            if (d->gid[c] < gb) lo = c + 1;
            else hi = c;
        }
        if (lo == nb || d->gid[lo] != gb) continue;
        const size_t b = lo;
        key = clab_contact_key((int)a, (int)b, (unsigned)(key & 0xfffu));
        memmove(all + m * sz, all + i * sz, sz);
        memcpy(all + m++ * sz, &key, sizeof key);
    }
    return type->import_state(ms->sim->self, all, m, err);
}

/* some owned body has moved more than skin/2 since the last rebuild (the displacement through
 * the minimum image: a wrap is not a move) */
static int moved_far(const clab_mpi_domain *d)
{
    const clab_world *lw = d->local;
    const double lim2 = 0.25 * d->skin * d->skin;
    for (size_t k = 0; k < lw->nbodies; k++) {
#if defined(__GNUC__)
        /* the bodies (184 bytes each) are not in cache after the step: this one pass over
         * their positions took 2 ms a step on the 32,000-sphere chute, 1.2 ms with the loads
         * asked for 32 bodies ahead */
        if (k + 32 < lw->nbodies) __builtin_prefetch(&lw->bodies[k + 32].r);
#endif
        if (!d->mine[k]) continue;
        const clab_vec3 dr = clab_world_min_image(&lw->periodic, clab_v3_sub(lw->bodies[k].r, d->r0[k]));
        if (!(clab_v3_dot(dr, dr) <= lim2)) return 1; /* (a NaN rebuilds too; the guard reports it) */
    }
    return 0;
}

int clab_mpi_sim_step(clab_mpi_sim *ms, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    int rc = CLAB_OK;
    if (ms->rebuild) {
        rc = clab_mpi_migrate(ms, err);
        rc = clab_mpi_agree(d, rc, NULL, err);
        if (rc) return rc;
        ms->rebuild = 0;
    }
    rc = clab_sim_step(ms->sim, err);
    rc = clab_mpi_drives_step(ms, rc, err); /* servos; the driven replicas (collective) */
    int rc2 = clab_mpi_forward(d, err); /* (after a failed step too: no rank waits for it) */
    rc = rc ? rc : rc2;
    int far = rc ? 0 : moved_far(d);
    rc = clab_mpi_agree(d, rc, &far, err);
    ms->rebuild = far;
    d->traffic.steps++;
    return rc;
}

/* a whole world on the root from the bodies its ranks own (with the fixed ones), in the global
 * order, without names: the local world's materials and the rest */
static clab_world *output_world(const clab_mpi_domain *d, const char *rec, size_t n, size_t rsz)
{
    clab_world *g = clab_world_clone(d->local);
    const size_t N = d->nglobal;
    void *p = NULL;
    if (g && (p = realloc(g->bodies, (N ? N : 1) * sizeof *g->bodies))) g->bodies = p;
    if (p && (p = realloc(g->name_off, (N ? N : 1) * sizeof *g->name_off))) g->name_off = p;
    if (p && (p = realloc(g->name_pool, g->name_len + 1))) g->name_pool = p;
    if (!p) {
        clab_world_destroy(g);
        return NULL;
    }
    g->name_pool[g->name_len] = '\0';
    g->nbodies = g->cap_bodies = N;
    g->name_cap = g->name_len + 1;
    for (size_t i = 0; i < N; i++) g->name_off[i] = g->name_len;
    for (size_t f = 0; f < d->nfixed; f++) g->bodies[d->fixed_gid[f]] = d->fixed[f];
    for (size_t k = 0; k < n; k++) {
        uint64_t i;
        memcpy(&i, rec + k * rsz, sizeof i);
        memcpy(&g->bodies[i], rec + k * rsz + sizeof i, sizeof(clab_body));
    }
    return g;
}

/* the whole world on the root, O(N) there: a check tool (bench --check, --state), not the outputs'
 * path (mpi/gather.c) */
int clab_mpi_gather(clab_mpi_domain *d, int root, clab_error *err)
{
    /* the root holds a whole world (then the states) or not (then the bodies) */
    int whole = d->rank == root && d->global != NULL;
    MPI_Bcast(&whole, 1, MPI_INT, root, d->comm);
    const size_t rsz = sizeof(uint64_t) + (whole ? CLAB_MPI_STATE * sizeof(double) : sizeof(clab_body));
    const clab_world *lw = d->local;
    size_t m = 0, nall = 0;
    for (size_t k = 0; k < lw->nbodies; k++) m += d->mine[k];
    char *mine = malloc((m ? m : 1) * rsz);
    void *all = NULL;
    int rc = mine ? CLAB_OK : clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu states", m);
    for (size_t k = 0, j = 0; mine && k < lw->nbodies; k++) {
        if (!d->mine[k]) continue;
        const uint64_t g = d->gid[k];
        char *p = mine + j++ * rsz;
        memcpy(p, &g, sizeof g);
        if (whole) clab_mpi_pack(&lw->bodies[k], (double *)(void *)(p + sizeof g));
        else memcpy(p + sizeof g, &lw->bodies[k], sizeof(clab_body));
    }
    int rc2 = clab_mpi_gather_root(d, root, mine, rc ? 0 : m, rsz, &all, &nall, err);
    rc = rc ? rc : rc2;
    free(mine);
    if (!rc && d->rank == root) {
        const char *r = all;
        if (!whole && !(d->global = output_world(d, r, nall, rsz)))
            rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the whole world");
        for (size_t f = 0; whole && f < d->nfixed; f++) /* (driven bodies move) */
            d->global->bodies[d->fixed_gid[f]] = d->fixed[f];
        for (size_t k = 0; whole && k < nall; k++) {
            uint64_t i;
            double s[CLAB_MPI_STATE];
            memcpy(&i, r + k * rsz, sizeof i);
            memcpy(s, r + k * rsz + sizeof i, sizeof s);
            clab_mpi_unpack(&d->global->bodies[i], s);
        }
        if (!rc) {
            d->global->t = d->local->t;
            d->global->step = d->local->step;
        }
    }
    free(all);
    return clab_mpi_agree(d, rc, NULL, err);
}
