/* checkpoint_internal.h (not installed): what the checkpoint writer (checkpoint.c) and reader
 * (checkpoint_read.c) share: the format's constants, the CRC-32, a reader over bytes in
 * memory, and the parameters' fingerprint. */
#ifndef CLAB_CHECKPOINT_INTERNAL_H
#define CLAB_CHECKPOINT_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "clab_checkpoint.h"

static const unsigned char ckpt_magic[8] = {'C', 'L', 'A', 'B', 'C', 'K', 'P', 'T'};
#define CKPT_BOM 0x01020304u   /* reads back as 0x04030201 on the other byte order */
#define CKPT_FLOAT_MARK -0.15625 /* exact in binary floating point: another format reads it wrong */
#define CKPT_HEADER_LEN 40
#define CKPT_NAME_LEN 64       /* fixed-width strings: backend name, tag */
#define CKPT_BODY_DOUBLES 13   /* r (3), e (4), rdot (3), wbar (3) */

/* ---- CRC-32 (zlib), in chunks its uInt length can hold ---- */

static inline uint32_t crc_add(uint32_t c, const void *p, size_t n)
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

/* ---- a reader over bytes in memory ---- */

typedef struct ckpt_rd {
    const unsigned char *p;
    size_t len, pos;
    int bad; /* read past the end */
} ckpt_rd;

static inline void get(ckpt_rd *r, void *x, size_t n)
{
    if (r->bad || n > r->len - r->pos) {
        r->bad = 1;
        memset(x, 0, n);
        return;
    }
    memcpy(x, r->p + r->pos, n);
    r->pos += n;
}
static inline uint32_t get_u32(ckpt_rd *r)
{
    uint32_t v;
    get(r, &v, sizeof v);
    return v;
}
static inline int64_t get_i64(ckpt_rd *r)
{
    int64_t v;
    get(r, &v, sizeof v);
    return v;
}
static inline uint64_t get_u64(ckpt_rd *r)
{
    uint64_t v;
    get(r, &v, sizeof v);
    return v;
}
static inline double get_f64(ckpt_rd *r)
{
    double v;
    get(r, &v, sizeof v);
    return v;
}
static inline void get_name(ckpt_rd *r, char *out)
{
    get(r, out, CKPT_NAME_LEN);
    out[CKPT_NAME_LEN - 1] = '\0';
}

/* the text of error number e */
static inline void errtext(int e, char *buf, size_t n)
{
    if (strerror_r(e, buf, n) != 0) snprintf(buf, n, "error %d", e);
}

/* CRC-32 of the run's parameters: every key = value line of clab_sim_meta (checkpoint.c) */
uint32_t clab_ckpt_params_fingerprint(const clab_sim *s);

#endif
