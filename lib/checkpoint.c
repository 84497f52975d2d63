/* checkpoint.c: writing checkpoints of a clab_sim, and their fingerprints (clab_checkpoint.h) */
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

/* ---- a growable byte buffer for writing ---- */

typedef struct ckpt_buf {
    unsigned char *p;
    size_t len, cap;
    int nomem;
} ckpt_buf;

static void put(ckpt_buf *b, const void *x, size_t n)
{
    if (b->nomem) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n) cap *= 2;
        unsigned char *q = realloc(b->p, cap);
        if (!q) {
            b->nomem = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, x, n);
    b->len += n;
}
static void put_u32(ckpt_buf *b, uint32_t v) { put(b, &v, sizeof v); }
static void put_i64(ckpt_buf *b, int64_t v) { put(b, &v, sizeof v); }
static void put_u64(ckpt_buf *b, uint64_t v) { put(b, &v, sizeof v); }
static void put_f64(ckpt_buf *b, double v) { put(b, &v, sizeof v); }
static void put_v3(ckpt_buf *b, clab_vec3 v)
{
    put_f64(b, v.x);
    put_f64(b, v.y);
    put_f64(b, v.z);
}
/* a string as its length and bytes (fingerprints) */
static void put_str(ckpt_buf *b, const char *s)
{
    size_t n = strlen(s);
    put_u32(b, (uint32_t)n);
    put(b, s, n);
}
/* a string in a fixed field of CKPT_NAME_LEN bytes, zero padded */
static void put_name(ckpt_buf *b, const char *s)
{
    char f[CKPT_NAME_LEN];
    memset(f, 0, sizeof f);
    size_t n = strlen(s);
    memcpy(f, s, n < sizeof f - 1 ? n : sizeof f - 1);
    put(b, f, sizeof f);
}

/* ---- fingerprints ---- */

uint32_t clab_checkpoint_scene_fingerprint(const clab_world *w)
{
    /* the bodies in the order they were added (clab_world_add_order), so a run that sorts
     * them keeps its scene's fingerprint; rank[i]: body i's place in that order (joints) */
    const size_t n = w->nbodies;
    size_t *order = malloc((n ? n : 1) * sizeof *order), *rank = malloc((n ? n : 1) * sizeof *rank);
    if (!order || !rank || clab_world_add_order(w, order, NULL) < 0) {
        free(order);
        free(rank);
        return 0xffffffffu; /* out of memory: a fingerprint no scene has (see below) */
    }
    for (size_t k = 0; k < n; k++) rank[order[k]] = k;
    ckpt_buf b = {0};
    put_v3(&b, w->gravity);
    put_u64(&b, w->nmaterials);
    for (size_t k = 0; k < w->nmaterials; k++) {
        const clab_material *m = &w->materials[k];
        const double v[9] = {m->mu, m->mu_roll, m->E, m->nu, m->cor, m->kn, m->kt, m->gn, m->gt};
        put_str(&b, m->name);
        put(&b, v, sizeof v);
    }
    put_u64(&b, w->nbodies);
    for (size_t k = 0; k < n; k++) {
        const size_t i = order[k];
        const clab_body *bd = &w->bodies[i];
        put_str(&b, clab_world_body_name(w, i));
        put_u32(&b, (uint32_t)bd->shape.type);
        put_f64(&b, bd->shape.radius);
        put_v3(&b, bd->shape.half);
        put_f64(&b, bd->m);
        put_v3(&b, bd->J);
        put_u32(&b, (uint32_t)bd->fixed);
        put_u32(&b, (uint32_t)bd->material);
    }
    put_u64(&b, w->njoints);
    for (size_t j = 0; j < w->njoints; j++) {
        const clab_joint *J = &w->joints[j];
        put_u32(&b, (uint32_t)J->type);
        put_u32(&b, (uint32_t)rank[J->a]);
        put_u32(&b, (uint32_t)rank[J->b]);
        put_v3(&b, J->sa);
        put_v3(&b, J->sb);
        put_f64(&b, J->length);
    }
    /* periodic boundaries (only when some axis is on, so other scenes keep their fingerprint) */
    const clab_periodic *per = &w->periodic;
    if (per->on[0] || per->on[1] || per->on[2])
        for (int k = 0; k < 3; k++) {
            put_u32(&b, (uint32_t)per->on[k]);
            put_f64(&b, per->on[k] ? per->lo[k] : 0.0);
            put_f64(&b, per->on[k] ? per->hi[k] : 0.0);
        }
    /* driven bodies and loads (only when there are some, so other scenes keep their
     * fingerprint): each motion by the body's place, its kind, a table's or a servo's velocity,
     * table and servo */
    for (size_t k = 0; k < w->ndriven; k++) {
        const clab_driven *d = &w->driven[k];
        put_u32(&b, (uint32_t)rank[d->body]);
        put_u32(&b, (uint32_t)d->m.kind);
        if (d->m.kind != CLAB_MOTION_CONSTANT) { /* a constant velocity is state: in the body's record */
            put_v3(&b, d->m.v);
            put_v3(&b, d->m.omega);
        }
        put_u64(&b, d->m.nrows);
        if (d->m.nrows) put(&b, d->m.table, d->m.nrows * CLAB_MOTION_COLS * sizeof(double));
        const clab_servo *sv = &d->m.servo;
        const double v[7] = {sv->axis.x, sv->axis.y, sv->axis.z, sv->stress, sv->area, sv->gain, sv->vmax};
        if (d->m.kind == CLAB_MOTION_SERVO) put(&b, v, sizeof v);
    }
    if (w->loads)
        for (size_t k = 0; k < n; k++) {
            put_v3(&b, w->loads[order[k]].F);
            put_v3(&b, w->loads[order[k]].T);
        }
    /* out of memory: a fingerprint no scene has, so a restart is refused rather than wrong */
    uint32_t c = b.nomem ? 0xffffffffu : crc_add(0, b.p, b.len);
    free(b.p);
    free(order);
    free(rank);
    return c;
}

/* CRC-32 of the run's parameters: every key = value line of clab_sim_meta */
uint32_t clab_ckpt_params_fingerprint(const clab_sim *s)
{
    clab_options m;
    clab_options_init(&m);
    clab_sim_meta(s, &m);
    uint32_t c = 0;
    for (size_t i = 0; i < m.n; i++) {
        c = crc_add(c, m.o[i].key, strlen(m.o[i].key));
        c = crc_add(c, "=", 1);
        c = crc_add(c, m.o[i].val, strlen(m.o[i].val));
        c = crc_add(c, "\n", 1);
    }
    clab_options_free(&m);
    return c;
}

/* ---- writing ---- */

void clab_checkpoint_image_init(clab_checkpoint_image *img) { memset(img, 0, sizeof *img); }

void clab_checkpoint_image_free(clab_checkpoint_image *img)
{
    free(img->data);
    clab_checkpoint_image_init(img);
}

/* the backend's block: its save hook writing into memory */
static int backend_block(const clab_sim *s, char **data, size_t *len, clab_error *err)
{
    *data = NULL;
    *len = 0;
    if (!s->type->save) return CLAB_OK;
    FILE *m = open_memstream(data, len);
    if (!m) return clab_error_set(err, CLAB_ENOMEM, "checkpoint: out of memory for the %s backend's state", s->type->name);
    int rc = s->type->save(s->self, m, err);
    if (fclose(m) != 0 && rc == CLAB_OK)
        rc = clab_error_set(err, CLAB_ENOMEM, "checkpoint: out of memory for the %s backend's state", s->type->name);
    if (rc) {
        free(*data);
        *data = NULL;
        *len = 0;
    }
    return rc;
}

int clab_checkpoint_encode(const clab_sim *s, const clab_checkpoint_output *out, clab_checkpoint_image *img,
                           clab_error *err)
{
    const clab_world *w = s->world;
    clab_checkpoint_output none;
    memset(&none, 0, sizeof none);
    if (!out) out = &none;
    if (out->nfiles < 0 || out->nfiles > CLAB_CHECKPOINT_MAX_FILES)
        return clab_error_set(err, CLAB_EINVAL, "checkpoint: %d output files; allowed: 0 to %d", out->nfiles,
                              CLAB_CHECKPOINT_MAX_FILES);
    char *bk;
    size_t bklen;
    int rc = backend_block(s, &bk, &bklen, err);
    if (rc) return rc;

    /* the buffer is img's storage, reused */
    ckpt_buf b = {img->data, 0, img->cap, 0};
    unsigned char header[CKPT_HEADER_LEN];
    memset(header, 0, sizeof header);
    put(&b, header, sizeof header); /* filled in below */

    /* what the file is for: scene, backend, parameters */
    put_u64(&b, w->nbodies);
    put_u32(&b, clab_checkpoint_scene_fingerprint(w));
    put_name(&b, s->type->name);
    put_f64(&b, s->h);
    if (img->params_sim != s || img->params_self != s->self || img->params_h != s->h) {
        img->params = clab_ckpt_params_fingerprint(s); /* once a run (clab_checkpoint_image) */
        img->params_sim = s;
        img->params_self = s->self;
        img->params_h = s->h;
    }
    put_u32(&b, img->params);
    /* the state */
    put_f64(&b, w->t);
    put_i64(&b, w->step);
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *bd = &w->bodies[i];
        const double q[CKPT_BODY_DOUBLES] = {bd->r.x,    bd->r.y,    bd->r.z,    bd->e.e0,   bd->e.e1,
                                             bd->e.e2,   bd->e.e3,   bd->rdot.x, bd->rdot.y, bd->rdot.z,
                                             bd->wbar.x, bd->wbar.y, bd->wbar.z};
        put(&b, q, sizeof q);
    }
    /* the order (version 3): 0 when the bodies are in the order they were added, else 1 and
     * each body's place in that order, so a restart renumbers its freshly built world alike */
    {
        size_t *order = malloc((w->nbodies ? w->nbodies : 1) * sizeof *order);
        int id = order ? clab_world_add_order(w, order, err) : -1;
        if (id < 0) {
            free(order);
            free(bk);
            img->data = b.p;
            img->cap = b.cap;
            img->len = 0;
            return clab_error_set(err, CLAB_ENOMEM, "checkpoint: out of memory (%zu bodies)", w->nbodies);
        }
        put_u32(&b, id ? 0u : 1u);
        if (!id) {
            uint64_t *rank = malloc(w->nbodies * sizeof *rank);
            if (!rank) b.nomem = 1;
            else {
                for (size_t k = 0; k < w->nbodies; k++) rank[order[k]] = k;
                put(&b, rank, w->nbodies * sizeof *rank);
                free(rank);
            }
        }
        free(order);
    }
    /* the caller's output bookkeeping */
    put_name(&b, out->tag);
    put_u32(&b, (uint32_t)out->nfiles);
    for (int k = 0; k < out->nfiles; k++) {
        put_i64(&b, out->bytes[k]);
        put_i64(&b, out->rows[k]);
    }
    put_i64(&b, out->nout);
    put_u64(&b, out->values ? out->nvalues : 0);
    if (out->values) put(&b, out->values, out->nvalues * sizeof(double));
    /* the backend's own state */
    put_u64(&b, bklen);
    put(&b, bk, bklen);
    free(bk);
    img->data = b.p;
    img->cap = b.cap;
    if (b.nomem) {
        img->len = 0;
        return clab_error_set(err, CLAB_ENOMEM, "checkpoint: out of memory (%zu bodies)", w->nbodies);
    }

    /* header: magic, version, byte order, float format, payload length and checksum */
    uint64_t plen = b.len - CKPT_HEADER_LEN;
    uint32_t version = CLAB_CHECKPOINT_VERSION, bom = CKPT_BOM, crc = crc_add(0, b.p + CKPT_HEADER_LEN, plen);
    double mark = CKPT_FLOAT_MARK;
    memcpy(b.p, ckpt_magic, 8);
    memcpy(b.p + 8, &version, 4);
    memcpy(b.p + 12, &bom, 4);
    memcpy(b.p + 16, &mark, 8);
    memcpy(b.p + 24, &plen, 8);
    memcpy(b.p + 32, &crc, 4);
    img->len = b.len;
    img->t = w->t;
    img->step = w->step;
    return CLAB_OK;
}

/* fsync the folder holding path, so the rename itself is on disk (best effort) */
static void sync_dir(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == dir) slash[1] = '\0';
    else if (slash) *slash = '\0';
    else snprintf(dir, sizeof dir, ".");
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

int clab_checkpoint_save_image(const clab_checkpoint_image *img, const char *path, clab_error *err)
{
    if (!img->len) return clab_error_set(err, CLAB_EINVAL, "%s: no checkpoint to write (empty image)", path);
    size_t n = strlen(path);
    char *tmp = malloc(n + 5);
    if (!tmp) return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", path);
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmp", 5);
    char why[128];
    const char *stage = "cannot create";
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) goto fail;
    stage = "write failed";
    for (size_t done = 0; done < img->len;) {
        ssize_t w = write(fd, img->data + done, img->len - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (w == 0) errno = EIO;
            goto fail;
        }
        done += (size_t)w;
    }
    stage = "fsync failed";
    if (fsync(fd) != 0) goto fail;
    stage = "close failed";
    int c = close(fd);
    fd = -1;
    if (c != 0) goto fail;
    stage = "rename failed";
    if (rename(tmp, path) != 0) goto fail;
    sync_dir(path);
    free(tmp);
    return CLAB_OK;
fail:
    errtext(errno, why, sizeof why);
    if (fd >= 0) close(fd);
    unlink(tmp);
    clab_error_set(err, CLAB_EIO, "%s: checkpoint not written (%s %s: %s); an earlier checkpoint there is unchanged",
                   path, stage, tmp, why);
    free(tmp);
    return CLAB_EIO;
}

int clab_checkpoint_write(const clab_sim *s, const clab_checkpoint_output *out, const char *path, clab_error *err)
{
    clab_checkpoint_image img;
    clab_checkpoint_image_init(&img);
    int rc = clab_checkpoint_encode(s, out, &img, err);
    if (!rc) rc = clab_checkpoint_save_image(&img, path, err);
    clab_checkpoint_image_free(&img);
    return rc;
}

