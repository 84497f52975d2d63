/* scatter.c: the first local worlds from rank 0's whole world (clab_mpi_scatter,
 * mpi_internal.h). No rank but 0 ever holds the whole world: rank 0 sends, by MPI_Bcast,
 *
 *   1. the shell: gravity, t, step, the periodic axes, the counts; then the materials, the
 *      triangle store (triangles, region vectors, mesh names) and the replicated fixed bodies
 *      (global indices, bodies, names), which every rank keeps;
 *   2. the moving bodies in global order, in chunks of at most CHUNK bodies whose names fit in
 *      CHUNK * CLAB_NAME_LEN bytes: two broadcasts a chunk, its counts (bodies, name bytes) and
 *      its bytes (global indices as uint64, the clab_body bytes, the names one after the
 *      other). Each rank keeps the bodies it owns or holds within reach of its brick (the test
 *      every rebuild makes: clab_mpi_owner_of, clab_mpi_in_reach) and builds its local world
 *      from them (clab_mpi_set_local).
 *
 * The bytes are the whole world's own (the ranks run one build of one machine type, as every
 * message of mpi/ assumes), so a local body is the whole world's to the bit. --balance: a first
 * pass of the chunks gives each rank the centers of the moving bodies whose global index is
 * rank modulo size (O(N/P)) for clab_mpi_balance, a second pass the local world at the balanced
 * cuts. Memory on a rank other than 0: one chunk's buffer and its local world. */
#include "clab_mesh.h"
#include "clab_mpi.h"
#include "mpi_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 4096 };               /* moving bodies a chunk at most */
#define NAMES_CAP ((size_t)CHUNK * CLAB_NAME_LEN) /* name bytes a chunk at most */
#define CHUNK_BYTES ((size_t)CHUNK * (sizeof(uint64_t) + sizeof(clab_body)) + NAMES_CAP)

/* n bytes from rank 0 to every rank, in pieces an int counts */
static void bcast_bytes(void *p, size_t n, MPI_Comm comm)
{
    char *c = p;
    while (n > 0) {
        const size_t k = n < ((size_t)1 << 30) ? n : ((size_t)1 << 30);
        MPI_Bcast(c, (int)k, MPI_BYTE, 0, comm);
        c += k;
        n -= k;
    }
}

/* the shell's figures (rank 0's world) */
typedef struct shell_head {
    clab_vec3 gravity;
    double t;
    long step;
    clab_periodic periodic;
    uint64_t nmaterials, nmoving, nfixed, fixed_names; /* fixed_names: the bytes of their names */
    uint64_t meshes, ntri, ng, nmesh;                  /* meshes 1: a triangle store of these counts */
} shell_head;

static shell_head head_of(const clab_world *w)
{
    shell_head h;
    memset(&h, 0, sizeof h);
    h.gravity = w->gravity;
    h.t = w->t;
    h.step = w->step;
    h.periodic = w->periodic;
    h.nmaterials = w->nmaterials;
    for (size_t i = 0; i < w->nbodies; i++) {
        if (!w->bodies[i].fixed) {
            h.nmoving++;
            continue;
        }
        h.nfixed++;
        h.fixed_names += strlen(clab_world_body_name(w, i)) + 1;
    }
    if (w->meshes) {
        h.meshes = 1;
        h.ntri = w->meshes->n;
        h.ng = w->meshes->ng;
        h.nmesh = w->meshes->nmesh;
    }
    return h;
}

/* every rank: the local world without bodies and the fixed bodies' arrays, allocated for h */
static int shell_alloc(clab_mpi_domain *d, const shell_head *h)
{
    clab_world *lw = calloc(1, sizeof *lw);
    d->local = lw;
    if (!lw) return CLAB_ENOMEM;
    lw->gravity = h->gravity;
    lw->t = h->t;
    lw->step = h->step;
    lw->periodic = h->periodic;
    lw->materials = malloc((h->nmaterials ? h->nmaterials : 1) * sizeof *lw->materials);
    lw->nmaterials = lw->cap_materials = (size_t)h->nmaterials;
    if (h->meshes && (lw->meshes = calloc(1, sizeof *lw->meshes))) {
        clab_meshes *m = lw->meshes;
        m->t = malloc((h->ntri ? h->ntri : 1) * sizeof *m->t);
        m->g = malloc((h->ng ? h->ng : 1) * sizeof *m->g);
        m->name = malloc((h->nmesh ? h->nmesh : 1) * sizeof *m->name);
        m->n = m->cap = (size_t)h->ntri;
        m->ng = m->capg = (size_t)h->ng;
        m->nmesh = m->capm = (size_t)h->nmesh;
        if (!m->t || !m->g || !m->name) return CLAB_ENOMEM;
    }
    const size_t nf = (size_t)h->nfixed;
    d->fixed_gid = malloc((nf ? nf : 1) * sizeof *d->fixed_gid);
    d->fixed = malloc((nf ? nf : 1) * sizeof *d->fixed);
    d->fixed_names = malloc(h->fixed_names ? (size_t)h->fixed_names : 1);
    d->nfixed = nf;
    if (!lw->materials || (h->meshes && !lw->meshes) || !d->fixed_gid || !d->fixed || !d->fixed_names)
        return CLAB_ENOMEM;
    return CLAB_OK;
}

/* rank 0: the shell's arrays from w */
static void shell_fill(clab_mpi_domain *d, const clab_world *w)
{
    memcpy(d->local->materials, w->materials, w->nmaterials * sizeof *w->materials);
    if (w->meshes) {
        const clab_meshes *m = w->meshes;
        memcpy(d->local->meshes->t, m->t, m->n * sizeof *m->t);
        memcpy(d->local->meshes->g, m->g, m->ng * sizeof *m->g);
        memcpy(d->local->meshes->name, m->name, m->nmesh * sizeof *m->name);
    }
    size_t f = 0, len = 0;
    for (size_t i = 0; i < w->nbodies; i++) {
        if (!w->bodies[i].fixed) continue;
        const char *nm = clab_world_body_name(w, i);
        const size_t l = strlen(nm) + 1;
        d->fixed_gid[f] = i;
        d->fixed[f++] = w->bodies[i];
        memcpy(d->fixed_names + len, nm, l);
        len += l;
    }
}

/* 1. the shell on every rank */
static int shell(clab_mpi_domain *d, const clab_world *w, shell_head *h, clab_error *err)
{
    if (d->rank == 0) *h = head_of(w);
    MPI_Bcast(h, (int)sizeof *h, MPI_BYTE, 0, d->comm);
    int rc = shell_alloc(d, h) ? clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the world's shell (%zu "
                                                "fixed bodies)", (size_t)h->nfixed)
                               : CLAB_OK;
    rc = clab_mpi_agree(d, rc, NULL, err);
    if (rc) return rc;
    if (d->rank == 0) shell_fill(d, w);
    clab_world *lw = d->local;
    bcast_bytes(lw->materials, lw->nmaterials * sizeof *lw->materials, d->comm);
    if (lw->meshes) {
        bcast_bytes(lw->meshes->t, lw->meshes->n * sizeof *lw->meshes->t, d->comm);
        bcast_bytes(lw->meshes->g, lw->meshes->ng * sizeof *lw->meshes->g, d->comm);
        bcast_bytes(lw->meshes->name, lw->meshes->nmesh * sizeof *lw->meshes->name, d->comm);
    }
    bcast_bytes(d->fixed_gid, d->nfixed * sizeof *d->fixed_gid, d->comm);
    bcast_bytes(d->fixed, d->nfixed * sizeof *d->fixed, d->comm);
    bcast_bytes(d->fixed_names, (size_t)h->fixed_names, d->comm);
    return CLAB_OK;
}

/* rank 0: the moving bodies of w from global index *i on into buf: global indices, bodies,
 * names, packed one after the other; cnt[0] bodies, cnt[1] name bytes */
static int pack_chunk(const clab_world *w, size_t *i, char *buf, uint64_t cnt[2], clab_error *err)
{
    uint64_t *gid = (uint64_t *)buf;
    clab_body *b = (clab_body *)(buf + (size_t)CHUNK * sizeof *gid);
    char *names = buf + (size_t)CHUNK * (sizeof *gid + sizeof *b);
    size_t n = 0, len = 0;
    for (; *i < w->nbodies && n < CHUNK; ++*i) {
        if (w->bodies[*i].fixed) continue;
        const char *nm = clab_world_body_name(w, *i);
        const size_t l = strlen(nm) + 1;
        if (len + l > NAMES_CAP) break; /* the next chunk's */
        gid[n] = *i;
        b[n++] = w->bodies[*i];
        memcpy(names + len, nm, l);
        len += l;
    }
    if (n == 0) return clab_error_set(err, CLAB_EINVAL, "mpi: body %zu's name is too long to send", *i);
    memmove(buf + n * sizeof *gid, b, n * sizeof *b); /* packed */
    memmove(buf + n * (sizeof *gid + sizeof *b), names, len);
    cnt[0] = n;
    cnt[1] = len;
    return CLAB_OK;
}

/* what a rank keeps of the chunks: its share of the centers (the balance's pass) or the bodies
 * of its local world */
typedef struct kept {
    clab_vec3 *x;
    size_t nx, capx;
    uint64_t *gid;
    clab_body *b;
    size_t *off; /* [n] where body j's name starts in names */
    char *names;
    size_t n, cap, len, capn;
} kept;

static void kept_free(kept *k)
{
    free(k->x);
    free(k->gid);
    free(k->b);
    free(k->off);
    free(k->names);
    memset(k, 0, sizeof *k);
}

/* one more body, doubling the arrays when full; CLAB_ENOMEM */
static int keep_body(kept *k, uint64_t g, const clab_body *b, const char *nm)
{
    const size_t l = strlen(nm) + 1;
    if (k->n == k->cap) {
        const size_t c = k->cap ? 2 * k->cap : 1024;
        uint64_t *gid = realloc(k->gid, c * sizeof *gid);
        if (gid) k->gid = gid;
        clab_body *bb = realloc(k->b, c * sizeof *bb);
        if (bb) k->b = bb;
        size_t *off = realloc(k->off, c * sizeof *off);
        if (off) k->off = off;
        if (!gid || !bb || !off) return CLAB_ENOMEM;
        k->cap = c;
    }
    if (k->len + l > k->capn) {
        const size_t c = 2 * (k->len + l) + 4096;
        char *p = realloc(k->names, c);
        if (!p) return CLAB_ENOMEM;
        k->names = p;
        k->capn = c;
    }
    k->gid[k->n] = g;
    k->b[k->n] = *b;
    k->off[k->n++] = k->len;
    memcpy(k->names + k->len, nm, l);
    k->len += l;
    return CLAB_OK;
}

static int keep_center(kept *k, clab_vec3 x)
{
    if (k->nx == k->capx) {
        const size_t c = k->capx ? 2 * k->capx : 1024;
        clab_vec3 *p = realloc(k->x, c * sizeof *p);
        if (!p) return CLAB_ENOMEM;
        k->x = p;
        k->capx = c;
    }
    k->x[k->nx++] = x;
    return CLAB_OK;
}

/* 2. one pass of the chunks over every rank: centers (the balance's share) or bodies (those owned
 * here or within reach of the brick) into k */
static int stream(clab_mpi_domain *d, const clab_world *w, uint64_t nmoving, int centers, char *buf, kept *k,
                  clab_error *err)
{
    int rc = CLAB_OK, mem = CLAB_OK;
    size_t i = 0;
    for (uint64_t done = 0; done < nmoving;) {
        uint64_t cnt[3] = {0, 0, 0}; /* bodies, name bytes, rank 0's failure */
        if (d->rank == 0 && pack_chunk(w, &i, buf, cnt, err)) cnt[2] = 1;
        MPI_Bcast(cnt, 3, MPI_UINT64_T, 0, d->comm);
        if (cnt[2]) {
            rc = d->rank == 0 ? CLAB_EINVAL : clab_error_set(err, CLAB_EINVAL, "mpi: rank 0 failed (its message on its stderr)");
            break;
        }
        const size_t n = (size_t)cnt[0];
        bcast_bytes(buf, n * (sizeof(uint64_t) + sizeof(clab_body)) + (size_t)cnt[1], d->comm);
        const uint64_t *gid = (const uint64_t *)buf;
        const clab_body *b = (const clab_body *)(buf + n * sizeof *gid);
        const char *nm = buf + n * (sizeof *gid + sizeof *b);
        for (size_t j = 0; j < n && !mem; nm += strlen(nm) + 1, j++) {
            if (centers) {
                if (gid[j] % (uint64_t)d->size == (uint64_t)d->rank) mem = keep_center(k, b[j].r);
            } else if (clab_mpi_owner_of(d, b[j].r) == d->rank || clab_mpi_in_reach(d, d->rank, &b[j])) {
                mem = keep_body(k, gid[j], &b[j], nm);
            }
        }
        done += n;
    }
    if (mem && !rc) rc = clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for the bodies of the first local world");
    return clab_mpi_agree(d, rc, NULL, err);
}

/* the local world from the kept bodies */
static int build_local(clab_mpi_domain *d, const kept *k, clab_error *err)
{
    clab_mpi_body *mv = malloc((k->n ? k->n : 1) * sizeof *mv);
    if (!mv) return clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory for %zu bodies", k->n);
    for (size_t j = 0; j < k->n; j++) mv[j] = (clab_mpi_body){k->gid[j], &k->b[j], k->names + k->off[j]};
    const int rc = clab_mpi_set_local(d, mv, k->n, err);
    free(mv);
    return rc;
}

int clab_mpi_scatter(clab_mpi_domain *d, const clab_world *w, clab_error *err)
{
    shell_head h;
    int rc = shell(d, w, &h, err);
    if (rc) return rc;
    char *buf = malloc(CHUNK_BYTES);
    rc = clab_mpi_agree(d, buf ? CLAB_OK : clab_error_set(err, CLAB_ENOMEM, "mpi: out of memory"), NULL, err);
    kept k;
    memset(&k, 0, sizeof k);
    if (!rc && d->balance) { /* the cuts at the quantiles of the centers, each rank its share */
        rc = stream(d, w, h.nmoving, 1, buf, &k, err);
        if (!rc) rc = clab_mpi_balance(d, k.x, k.nx, err);
        rc = clab_mpi_agree(d, rc, NULL, err);
        kept_free(&k);
    }
    if (!rc) rc = stream(d, w, h.nmoving, 0, buf, &k, err);
    free(buf);
    if (!rc) rc = build_local(d, &k, err);
    kept_free(&k);
    return clab_mpi_agree(d, rc, NULL, err);
}

int clab_mpi_bcast_options(clab_options *o, MPI_Comm comm)
{
    int rank = 0, rc = CLAB_OK;
    MPI_Comm_rank(comm, &rank);
    uint64_t n = rank == 0 ? o->n : 0;
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm);
    if (rank != 0) { /* anew: rank 0's keys are distinct, option k lands at index k */
        clab_options_free(o);
        clab_options_init(o);
    }
    for (uint64_t k = 0; k < n; k++) { /* one option a message: a few tens of them */
        clab_option one;
        if (rank == 0) one = o->o[k];
        MPI_Bcast(&one, (int)sizeof one, MPI_BYTE, 0, comm);
        if (rank == 0 || rc) continue;
        rc = clab_options_set(o, one.key, one.val, one.where);
        if (!rc) {
            o->o[k].used = one.used;
            o->o[k].refused = one.refused;
        }
    }
    return rc;
}
