/* checkpoint.c: binary checkpoints of a clab_sim, checked on reading (see clab_checkpoint.h) */
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

static const unsigned char ckpt_magic[8] = {'C', 'L', 'A', 'B', 'C', 'K', 'P', 'T'};
#define CKPT_BOM 0x01020304u   /* reads back as 0x04030201 on the other byte order */
#define CKPT_FLOAT_MARK -0.15625 /* exact in binary floating point: another format reads it wrong */
#define CKPT_HEADER_LEN 40
#define CKPT_NAME_LEN 64       /* fixed-width strings: backend name, tag */
#define CKPT_BODY_DOUBLES 13   /* r (3), e (4), rdot (3), wbar (3) */

/* ---- CRC-32 (zlib), in chunks its uInt length can hold ---- */

static uint32_t crc_add(uint32_t c, const void *p, size_t n)
{
    const unsigned char *q = p;
    while (n > 0) {
        uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
        c = (uint32_t)crc32(c, q, k);
        q += k;
        n -= k;
    }
    return c;
}

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

/* ---- a reader over bytes in memory ---- */

typedef struct ckpt_rd {
    const unsigned char *p;
    size_t len, pos;
    int bad; /* read past the end */
} ckpt_rd;

static void get(ckpt_rd *r, void *x, size_t n)
{
    if (r->bad || n > r->len - r->pos) {
        r->bad = 1;
        memset(x, 0, n);
        return;
    }
    memcpy(x, r->p + r->pos, n);
    r->pos += n;
}
static uint32_t get_u32(ckpt_rd *r)
{
    uint32_t v;
    get(r, &v, sizeof v);
    return v;
}
static int64_t get_i64(ckpt_rd *r)
{
    int64_t v;
    get(r, &v, sizeof v);
    return v;
}
static uint64_t get_u64(ckpt_rd *r)
{
    uint64_t v;
    get(r, &v, sizeof v);
    return v;
}
static double get_f64(ckpt_rd *r)
{
    double v;
    get(r, &v, sizeof v);
    return v;
}
static void get_name(ckpt_rd *r, char *out)
{
    get(r, out, CKPT_NAME_LEN);
    out[CKPT_NAME_LEN - 1] = '\0';
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
    /* out of memory: a fingerprint no scene has, so a restart is refused rather than wrong */
    uint32_t c = b.nomem ? 0xffffffffu : crc_add(0, b.p, b.len);
    free(b.p);
    free(order);
    free(rank);
    return c;
}

/* CRC-32 of the run's parameters: every key = value line of clab_sim_meta */
static uint32_t params_fingerprint(const clab_sim *s)
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
        img->params = params_fingerprint(s); /* once a run (clab_checkpoint_image) */
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

static void errtext(int e, char *buf, size_t n)
{
    if (strerror_r(e, buf, n) != 0) snprintf(buf, n, "error %d", e);
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

/* ---- reading ---- */

/* The header: what the file is, its version, length and checksum; on success r reads the
 * payload and *version says which format it has. */
static int check_header(const unsigned char *data, size_t len, const char *name, uint32_t *version, ckpt_rd *r,
                        clab_error *err)
{
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
                              "materials, joints or the gravity differ)", name);
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
    in.same_parameters = f.h == s->h && f.params == params_fingerprint(s);
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
