/* checkpoint_read.c: reading and checking a checkpoint of a clab_sim (see clab_checkpoint.h) */
#include "clab_checkpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "checkpoint_internal.h"

/* ---- reading ---- */

/* The header: what the file is, its version, length and checksum; on success r reads the
 * payload and *version says which format it has. */
static int check_header(const unsigned char *data, size_t len, const char *name, uint32_t *version, ckpt_rd *r,
                        clab_error *err)
{
    if (len >= 8 && memcmp(data, "CLABMPI1", 8) == 0) /* mpi/checkpoint.c's */
        return clab_error_set(err, CLAB_EIO, "%s: a checkpoint of a run across MPI ranks (CLABMPI1, not CLABCKPT): "
                                             "the --with-mpi build's contactlab run continues it (doc/mpi.md)", name);
    if (len < 8 || memcmp(data, ckpt_magic, 8) != 0)
        return clab_error_set(err, CLAB_EIO, "%s: not a contactlab checkpoint (no CLABCKPT signature)", name);
    if (len < CKPT_HEADER_LEN)
        return clab_error_set(err, CLAB_EIO, "%s: truncated checkpoint (%zu bytes; the header alone has %d)", name,
                              len, CKPT_HEADER_LEN);
    uint32_t bom, crc;
    double mark;
    uint64_t plen;
    memcpy(version, data + 8, 4);
    memcpy(&bom, data + 12, 4);
    memcpy(&mark, data + 16, 8);
    memcpy(&plen, data + 24, 8);
    memcpy(&crc, data + 32, 4);
    if (bom != CKPT_BOM)
        return clab_error_set(err, CLAB_EIO, "%s: written on a machine with another byte order (mark 0x%08x, expected "
                              "0x%08x); restart on the machine that wrote it", name, (unsigned)bom, CKPT_BOM);
    if (*version != CLAB_CHECKPOINT_VERSION && *version != 2)
        return clab_error_set(err, CLAB_EIO, "%s: checkpoint format version %u; this contactlab reads versions 2 to %d",
                              name, (unsigned)*version, CLAB_CHECKPOINT_VERSION);
    if (mark != CKPT_FLOAT_MARK)
        return clab_error_set(err, CLAB_EIO, "%s: written with another floating-point format; restart on the machine "
                              "that wrote it", name);
    if (plen != (uint64_t)(len - CKPT_HEADER_LEN)) {
        if (plen > (uint64_t)(len - CKPT_HEADER_LEN))
            return clab_error_set(err, CLAB_EIO, "%s: truncated checkpoint (%zu of %llu bytes)", name, len,
                                  (unsigned long long)plen + CKPT_HEADER_LEN);
        return clab_error_set(err, CLAB_EIO, "%s: damaged checkpoint (%zu bytes where the header says %llu)", name,
                              len, (unsigned long long)plen + CKPT_HEADER_LEN);
    }
    uint32_t got = crc_add(0, data + CKPT_HEADER_LEN, (size_t)plen);
    if (got != crc)
        return clab_error_set(err, CLAB_EIO, "%s: damaged checkpoint (checksum 0x%08x, stored 0x%08x)", name,
                              (unsigned)got, (unsigned)crc);
    r->p = data + CKPT_HEADER_LEN;
    r->len = (size_t)plen;
    r->pos = 0;
    r->bad = 0;
    return CLAB_OK;
}

/* the front of the payload: what the file is for, and the state (q points at its doubles) */
typedef struct ckpt_front {
    uint64_t nbodies;
    uint32_t scene, params;
    char backend[CKPT_NAME_LEN];
    double h, t;
    int64_t step;
    const unsigned char *q; /* [nbodies * CKPT_BODY_DOUBLES] doubles, unaligned */
    const unsigned char *rank; /* [nbodies] uint64, unaligned: body i's place in the order of adding;
                                * NULL: they are in that order (version 2 files always) */
} ckpt_front;

static int read_target(ckpt_rd *r, const char *name, ckpt_front *f, clab_error *err)
{
    f->nbodies = get_u64(r);
    f->scene = get_u32(r);
    get_name(r, f->backend);
    f->h = get_f64(r);
    f->params = get_u32(r);
    if (r->bad) return clab_error_set(err, CLAB_EIO, "%s: damaged checkpoint (payload too short)", name);
    return CLAB_OK;
}

static int read_state(ckpt_rd *r, uint32_t version, const char *name, ckpt_front *f, clab_error *err)
{
    f->t = get_f64(r);
    f->step = get_i64(r);
    size_t nq = (size_t)f->nbodies * CKPT_BODY_DOUBLES;
    if (r->bad || nq / CKPT_BODY_DOUBLES != f->nbodies || nq * sizeof(double) > r->len - r->pos)
        return clab_error_set(err, CLAB_EIO, "%s: damaged checkpoint (payload too short for %llu bodies)", name,
                              (unsigned long long)f->nbodies);
    f->q = r->p + r->pos;
    r->pos += nq * sizeof(double);
    f->rank = NULL;
    if (version < 3) return CLAB_OK;
    uint32_t sorted = get_u32(r);
    if (r->bad || sorted > 1)
        return clab_error_set(err, CLAB_EIO, "%s: damaged checkpoint (order flag %u)", name, (unsigned)sorted);
    if (!sorted) return CLAB_OK;
    if (f->nbodies > (r->len - r->pos) / sizeof(uint64_t))
        return clab_error_set(err, CLAB_EIO, "%s: damaged checkpoint (payload too short for the order of %llu bodies)",
                              name, (unsigned long long)f->nbodies);
    f->rank = r->p + r->pos;
    r->pos += (size_t)f->nbodies * sizeof(uint64_t);
    return CLAB_OK;
}

/* body i's place in the order of adding, as the checkpoint has it */
static uint64_t front_rank(const ckpt_front *f, size_t i)
{
    uint64_t v = i;
    if (f->rank) memcpy(&v, f->rank + i * sizeof v, sizeof v);
    return v;
}

/* The caller's bookkeeping, then the backend block's length, which must be the rest of the
 * payload. The values are copied into out->values when want_values, else skipped. */
static int read_output(ckpt_rd *r, const char *name, int want_values, clab_checkpoint_output *out,
                       uint64_t *bklen, clab_error *err)
{
    memset(out, 0, sizeof *out);
    get_name(r, out->tag);
    uint32_t nfiles = get_u32(r);
    if (nfiles > CLAB_CHECKPOINT_MAX_FILES)
        return clab_error_set(err, CLAB_EIO, "%s: damaged checkpoint (%u output files; at most %d)", name,
                              (unsigned)nfiles, CLAB_CHECKPOINT_MAX_FILES);
    out->nfiles = (int)nfiles;
    for (uint32_t k = 0; k < nfiles; k++) {
        out->bytes[k] = get_i64(r);
        out->rows[k] = get_i64(r);
    }
    out->nout = get_i64(r);
    uint64_t nv = get_u64(r);
    if (r->bad || nv > (uint64_t)(r->len - r->pos) / sizeof(double))
        return clab_error_set(err, CLAB_EIO, "%s: damaged checkpoint (inconsistent lengths or state)", name);
    out->nvalues = (size_t)nv;
    if (want_values && nv > 0) {
        out->values = malloc((size_t)nv * sizeof(double));
        if (!out->values) return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", name);
        memcpy(out->values, r->p + r->pos, (size_t)nv * sizeof(double));
    }
    r->pos += (size_t)nv * sizeof(double);
    *bklen = get_u64(r);
    if (r->bad || *bklen != (uint64_t)(r->len - r->pos)) {
        free(out->values);
        out->values = NULL;
        return clab_error_set(err, CLAB_EIO, "%s: damaged checkpoint (inconsistent lengths or state)", name);
    }
    return CLAB_OK;
}

void clab_checkpoint_info_free(clab_checkpoint_info *info)
{
    if (!info) return;
    free(info->out.values);
    info->out.values = NULL;
    info->out.nvalues = 0;
}

int clab_checkpoint_decode(clab_sim *s, const unsigned char *data, size_t len, const char *name,
                           clab_checkpoint_info *info, clab_error *err)
{
    clab_world *w = s->world;
    if (!name) name = "<checkpoint>";
    uint32_t version;
    ckpt_rd r;
    int rc = check_header(data, len, name, &version, &r, err);
    if (rc) return rc;

    /* is it for this scene and this backend? */
    ckpt_front f;
    if ((rc = read_target(&r, name, &f, err))) return rc;
    if (f.nbodies != w->nbodies)
        return clab_error_set(err, CLAB_EINVAL, "%s: written for a scene of %llu bodies; this one has %zu", name,
                              (unsigned long long)f.nbodies, w->nbodies);
    if (f.scene != clab_checkpoint_scene_fingerprint(w))
        return clab_error_set(err, CLAB_EINVAL, "%s: written for another scene (the bodies' names, shapes, masses, "
                              "materials, joints, gravity, motions or loads differ)", name);
    if (strcmp(f.backend, s->type->name) != 0)
        return clab_error_set(err, CLAB_EINVAL, "%s: written by the %s backend; this run uses the %s backend", name,
                              f.backend, s->type->name);

    /* the state, checked before anything is changed */
    if ((rc = read_state(&r, version, name, &f, err))) return rc;
    /* the order: perm[k] = the body of this world to put at k, the one added as the
     * checkpoint's body k was (a permutation: each place once) */
    const size_t n = w->nbodies;
    size_t *perm = malloc((n ? n : 1) * sizeof *perm), *order = malloc((n ? n : 1) * sizeof *order);
    if (!perm || !order || clab_world_add_order(w, order, err) < 0) {
        free(perm);
        free(order);
        return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory for the order of %zu bodies", name, n);
    }
    int identity = 1;
    for (size_t k = 0; k < n; k++) perm[k] = SIZE_MAX;
    for (size_t k = 0; k < n && !rc; k++) {
        uint64_t q = front_rank(&f, k);
        if (q >= n || perm[q] != SIZE_MAX)
            rc = clab_error_set(err, CLAB_EIO, "%s: damaged checkpoint (body %zu's place in the order, %llu, %s)", name,
                                k, (unsigned long long)q, q >= n ? "out of range" : "given twice");
        else perm[q] = 0; /* seen */
    }
    for (size_t k = 0; k < n && !rc; k++) {
        perm[k] = order[front_rank(&f, k)];
        identity = identity && perm[k] == k;
    }
    free(order);
    const size_t nq = (size_t)f.nbodies * CKPT_BODY_DOUBLES;
    for (size_t k = 0; k < nq && !rc; k++) {
        double v;
        memcpy(&v, f.q + k * sizeof v, sizeof v);
        if (!isfinite(v))
            rc = clab_error_set(err, CLAB_EIO, "%s: damaged checkpoint (body %s holds a non-finite state)", name,
                                clab_world_body_name(w, perm[k / CKPT_BODY_DOUBLES]));
    }
    if (rc) {
        free(perm);
        return rc;
    }
    clab_checkpoint_info in;
    memset(&in, 0, sizeof in);
    uint64_t bklen;
    if ((rc = read_output(&r, name, info != NULL, &in.out, &bklen, err))) {
        free(perm);
        return rc;
    }
    if (!isfinite(f.t) || f.step < 0)
        rc = clab_error_set(err, CLAB_EIO, "%s: damaged checkpoint (inconsistent lengths or state)", name);
    else if (bklen > 0 && !s->type->load)
        rc = clab_error_set(err, CLAB_EINVAL, "%s: holds state of the %s backend, which cannot load it", name,
                            s->type->name);

    /* the world renumbered as the checkpoint's (clab_world_permute fails only when out of
     * memory), then the backend's state: its load is the one step that can still fail,
     * and undoes the renumbering when it does */
    size_t *inv = NULL;
    if (!rc && !identity) {
        inv = malloc(n * sizeof *inv);
        if (!inv) rc = clab_error_set(err, CLAB_ENOMEM, "%s: out of memory for the order of %zu bodies", name, n);
        else {
            for (size_t k = 0; k < n; k++) inv[perm[k]] = k;
            if (!(rc = clab_world_permute(w, perm, err))) clab_collider_invalidate(s->collider);
        }
    }
    if (!rc && bklen > 0) {
        FILE *fm = fmemopen((void *)(r.p + r.pos), (size_t)bklen, "rb");
        if (!fm) rc = clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", name);
        else {
            clab_error sub;
            clab_error_clear(&sub);
            int lrc = s->type->load(s->self, fm, &sub);
            fclose(fm);
            if (lrc) {
                rc = clab_error_set(err, lrc, "%s: %s", name, sub.msg);
                if (inv) clab_world_permute(w, inv, NULL); /* back (inv: where each body went) */
            }
        }
    }
    free(perm);
    free(inv);
    if (rc) {
        clab_checkpoint_info_free(&in);
        return rc;
    }

    /* the world */
    w->t = f.t;
    w->step = (long)f.step;
    for (size_t i = 0; i < w->nbodies; i++) {
        double v[CKPT_BODY_DOUBLES];
        memcpy(v, f.q + i * sizeof v, sizeof v);
        clab_body *bd = &w->bodies[i];
        bd->r = clab_v3(v[0], v[1], v[2]);
        bd->e.e0 = v[3], bd->e.e1 = v[4], bd->e.e2 = v[5], bd->e.e3 = v[6];
        bd->rdot = clab_v3(v[7], v[8], v[9]);
        bd->wbar = clab_v3(v[10], v[11], v[12]);
    }
    s->contacts.n = 0; /* the contacts of the next step are found from this state */
    snprintf(in.backend, sizeof in.backend, "%s", f.backend);
    in.t = f.t;
    in.step = (long)f.step;
    in.h = f.h;
    in.same_parameters = f.h == s->h && f.params == clab_ckpt_params_fingerprint(s);
    if (info) *info = in;
    return CLAB_OK;
}

/* the whole file in memory (a checkpoint is read once per run) */
static int read_file(const char *path, unsigned char **data, size_t *len, clab_error *err)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    char why[128];
    if (!f) {
        errtext(errno, why, sizeof why);
        return clab_error_set(err, CLAB_EIO, "%s: cannot open the checkpoint: %s", path, why);
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return clab_error_set(err, CLAB_EIO, "%s: not a regular file", path);
    }
    size_t n = (size_t)st.st_size;
    unsigned char *d = malloc(n ? n : 1);
    if (!d) {
        fclose(f);
        return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory reading %zu bytes", path, n);
    }
    size_t got = fread(d, 1, n, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(d);
        return clab_error_set(err, CLAB_EIO, "%s: read error", path);
    }
    *data = d;
    *len = got;
    return CLAB_OK;
}

int clab_checkpoint_peek(const char *path, clab_checkpoint_info *info, clab_error *err)
{
    unsigned char *data;
    size_t len;
    int rc = read_file(path, &data, &len, err);
    if (rc) return rc;
    uint32_t version;
    ckpt_rd r;
    ckpt_front f;
    clab_checkpoint_info in;
    memset(&in, 0, sizeof in);
    uint64_t bklen;
    if (!(rc = check_header(data, len, path, &version, &r, err)) && !(rc = read_target(&r, path, &f, err)) &&
        !(rc = read_state(&r, version, path, &f, err)) &&
        !(rc = read_output(&r, path, info != NULL, &in.out, &bklen, err))) {
        snprintf(in.backend, sizeof in.backend, "%s", f.backend);
        in.t = f.t;
        in.step = (long)f.step;
        in.h = f.h;
        if (info) *info = in;
    }
    free(data);
    return rc;
}

int clab_checkpoint_read(clab_sim *s, const char *path, clab_checkpoint_info *info, clab_error *err)
{
    unsigned char *data;
    size_t len;
    int rc = read_file(path, &data, &len, err);
    if (rc) return rc;
    rc = clab_checkpoint_decode(s, data, len, path, info, err);
    free(data);
    return rc;
}
