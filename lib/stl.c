/* stl.c: the STL reader (clab_mesh.h): binary (80-byte header, little-endian uint32 triangle
 * count, then per triangle 12 float32 (normal, 3 vertices) and a uint16) and ASCII
 * ("solid name", facets "facet normal nx ny nz / outer loop / vertex x y z (3x) / endloop /
 * endfacet", "endsolid"). A file is binary when its size is 84 + 50 N for the count N in its
 * header (some exporters start binary files with "solid" too); else ASCII when it starts with
 * "solid"; else a broken binary file. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_mesh.h"

/* the largest file read (about 20 million binary triangles) */
#define STL_MAX_BYTES (1L << 30)

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static double get_f32(const unsigned char *p)
{
    uint32_t u = get_u32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return (double)f;
}

/* the checks of every triangle: finite coordinates, positive area (facet numbers from 1) */
static int check_triangles(const char *name, const double *xyz, size_t n, const unsigned *line, clab_error *err)
{
    for (size_t t = 0; t < n; t++) {
        char where[64] = "";
        if (line) snprintf(where, sizeof where, " (line %u)", line[t]);
        for (int k = 0; k < 9; k++)
            if (!isfinite(xyz[9 * t + (size_t)k]))
                return clab_error_set(err, CLAB_EINVAL, "%s: facet %zu%s has a non-finite coordinate; allowed: finite "
                                      "numbers", name, t + 1, where);
        if (clab_tri_degenerate(xyz + 9 * t))
            return clab_error_set(err, CLAB_EINVAL, "%s: facet %zu%s has zero area (its vertices are on a line or "
                                  "repeated); allowed: triangles of positive area (remove degenerate facets)", name,
                                  t + 1, where);
    }
    return CLAB_OK;
}

static int parse_binary(const unsigned char *b, size_t n, const char *name, double **xyz, size_t *ntri, clab_error *err)
{
    const uint64_t count = get_u32(b + 80), need = 84 + 50 * count;
    if (need != n)
        return clab_error_set(err, CLAB_EINVAL, "%s: binary STL with %llu triangles in its header needs %llu bytes, the "
                              "file has %zu (%s)", name, (unsigned long long)count, (unsigned long long)need, n,
                              n < need ? "truncated" : "the triangle count does not match the file size");
    if (count == 0) return clab_error_set(err, CLAB_EINVAL, "%s: binary STL with no triangles", name);
    double *v = malloc((size_t)count * 9 * sizeof *v);
    if (!v) return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory for %llu triangles", name,
                                  (unsigned long long)count);
    for (size_t t = 0; t < count; t++) {
        const unsigned char *p = b + 84 + 50 * t + 12; /* past the facet normal */
        for (int k = 0; k < 9; k++) v[9 * t + (size_t)k] = get_f32(p + 4 * k);
    }
    int rc = check_triangles(name, v, (size_t)count, NULL, err);
    if (rc) {
        free(v);
        return rc;
    }
    *xyz = v;
    *ntri = (size_t)count;
    return CLAB_OK;
}

/* ---- ASCII ---- */

typedef struct ascii_in {
    const char *p, *end;
    unsigned line;
    char tok[64];
} ascii_in;

/* the next whitespace-separated word into in->tok (its line in in->line); 0 at the end */
static int next_word(ascii_in *in)
{
    while (in->p < in->end && (*in->p == ' ' || *in->p == '\t' || *in->p == '\r' || *in->p == '\n')) {
        if (*in->p == '\n') in->line++;
        in->p++;
    }
    if (in->p >= in->end) return 0;
    size_t k = 0;
    while (in->p < in->end && !(*in->p == ' ' || *in->p == '\t' || *in->p == '\r' || *in->p == '\n')) {
        if (k + 1 < sizeof in->tok) in->tok[k++] = *in->p;
        in->p++;
    }
    in->tok[k] = '\0';
    return 1;
}

/* the rest of the current line skipped (the solid's name) */
static void skip_line(ascii_in *in)
{
    while (in->p < in->end && *in->p != '\n') in->p++;
}

static int expect(ascii_in *in, const char *word, const char *name, clab_error *err)
{
    if (!next_word(in))
        return clab_error_set(err, CLAB_EINVAL, "%s:%u: ASCII STL ends early; expected '%s'", name, in->line, word);
    if (strcmp(in->tok, word) != 0)
        return clab_error_set(err, CLAB_EINVAL, "%s:%u: ASCII STL syntax error: expected '%s', found '%s'", name,
                              in->line, word, in->tok);
    return CLAB_OK;
}

static int number(ascii_in *in, double *x, const char *name, clab_error *err)
{
    if (!next_word(in))
        return clab_error_set(err, CLAB_EINVAL, "%s:%u: ASCII STL ends early; expected a number", name, in->line);
    char *e;
    errno = 0;
    *x = strtod(in->tok, &e);
    if (e == in->tok || *e)
        return clab_error_set(err, CLAB_EINVAL, "%s:%u: ASCII STL syntax error: expected a number, found '%s'", name,
                              in->line, in->tok);
    return CLAB_OK;
}

static int parse_ascii(const char *buf, size_t n, const char *name, double **xyz, size_t *ntri, clab_error *err)
{
    ascii_in in = {buf, buf + n, 1, ""};
    double *v = NULL;
    unsigned *line = NULL;
    size_t cnt = 0, cap = 0;
    int rc = expect(&in, "solid", name, err);
    skip_line(&in);
    while (rc == CLAB_OK) {
        if (!next_word(&in)) {
            rc = clab_error_set(err, CLAB_EINVAL, "%s:%u: ASCII STL ends without 'endsolid'", name, in.line);
            break;
        }
        if (strcmp(in.tok, "endsolid") == 0) break;
        if (strcmp(in.tok, "facet") != 0) {
            rc = clab_error_set(err, CLAB_EINVAL, "%s:%u: ASCII STL syntax error: expected 'facet' or 'endsolid', "
                                "found '%s'", name, in.line, in.tok);
            break;
        }
        if (cnt == cap) {
            cap = cap ? 2 * cap : 64;
            double *nv = realloc(v, cap * 9 * sizeof *nv);
            unsigned *nl = nv ? realloc(line, cap * sizeof *nl) : NULL;
            if (nv) v = nv;
            if (nl) line = nl;
            if (!nv || !nl) {
                rc = clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", name);
                break;
            }
        }
        line[cnt] = in.line;
        double nrm;
        rc = expect(&in, "normal", name, err);
        for (int k = 0; k < 3 && rc == CLAB_OK; k++) rc = number(&in, &nrm, name, err);
        if (rc == CLAB_OK) rc = expect(&in, "outer", name, err);
        if (rc == CLAB_OK) rc = expect(&in, "loop", name, err);
        for (int q = 0; q < 3 && rc == CLAB_OK; q++) {
            rc = expect(&in, "vertex", name, err);
            for (int k = 0; k < 3 && rc == CLAB_OK; k++) rc = number(&in, &v[9 * cnt + 3 * (size_t)q + (size_t)k], name, err);
        }
        if (rc == CLAB_OK) rc = expect(&in, "endloop", name, err);
        if (rc == CLAB_OK) rc = expect(&in, "endfacet", name, err);
        if (rc == CLAB_OK) cnt++;
    }
    if (rc == CLAB_OK && cnt == 0) rc = clab_error_set(err, CLAB_EINVAL, "%s: ASCII STL with no facets", name);
    if (rc == CLAB_OK) rc = check_triangles(name, v, cnt, line, err);
    free(line);
    if (rc) {
        free(v);
        return rc;
    }
    *xyz = v;
    *ntri = cnt;
    return CLAB_OK;
}

int clab_stl_parse(const char *buf, size_t n, const char *name, double **xyz, size_t *ntri, clab_error *err)
{
    *xyz = NULL;
    *ntri = 0;
    if (n == 0) return clab_error_set(err, CLAB_EINVAL, "%s: empty file; allowed: an ASCII or binary STL file", name);
    const unsigned char *b = (const unsigned char *)buf;
    if (n >= 84 && 84 + 50 * (uint64_t)get_u32(b + 80) == n) return parse_binary(b, n, name, xyz, ntri, err);
    size_t k = 0;
    while (k < n && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\r' || buf[k] == '\n')) k++;
    if (n - k >= 5 && memcmp(buf + k, "solid", 5) == 0) return parse_ascii(buf, n, name, xyz, ntri, err);
    if (n < 84)
        return clab_error_set(err, CLAB_EINVAL, "%s: truncated binary STL (%zu bytes; a binary STL has at least 84: an "
                              "80-byte header and a triangle count) and not ASCII (no 'solid' at the start)", name, n);
    return parse_binary(b, n, name, xyz, ntri, err);
}

int clab_stl_read(const char *path, double **xyz, size_t *ntri, clab_error *err)
{
    *xyz = NULL;
    *ntri = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return clab_error_set(err, CLAB_EIO, "%s: cannot open the STL file: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    int rc = CLAB_OK;
    while (buf) {
        if (n == cap) {
            if (cap >= (size_t)STL_MAX_BYTES) {
                rc = clab_error_set(err, CLAB_EINVAL, "%s: larger than %ld bytes; allowed: an STL file below that size",
                                    path, STL_MAX_BYTES);
                break;
            }
            char *t = realloc(buf, 2 * cap);
            if (!t) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = t;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (!buf) rc = clab_error_set(err, CLAB_ENOMEM, "%s: out of memory reading the STL file", path);
    else if (rc == CLAB_OK && ferror(f)) rc = clab_error_set(err, CLAB_EIO, "%s: read error", path);
    fclose(f);
    if (rc == CLAB_OK) rc = clab_stl_parse(buf, n, path, xyz, ntri, err);
    free(buf);
    return rc;
}
