/* run_out.c: the files of `contactlab run` besides its series: which files are the run's
 * (for --force), the bodies' names, the summary, and the metadata a restart with other
 * values rewrites (doc/reliability.md, "Restart with other values"). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clab_shape.h"
#include "xp.h"

/* ---- the run's own files: <prefix>-{bodies,steps,summary,body-names}.csv, -run.{png,pdf},
 * .ckpt and the frames <prefix>_NNNNNN.vtk, <prefix>_shapes_NNNNNN.vtk ---- */

static int six_digits_vtk(const char *s)
{
    for (int i = 0; i < 6; i++)
        if (s[i] < '0' || s[i] > '9') return 0;
    return strcmp(s + 6, ".vtk") == 0;
}

int xp_run_own_file(const char *file, const void *ctx)
{
    const char *prefix = ctx;
    size_t n = strlen(prefix);
    if (strncmp(file, prefix, n) != 0) return 0;
    const char *rest = file + n;
    static const char *const tails[] = {"-bodies.csv", "-steps.csv", "-summary.csv", "-body-names.csv",
                                        "-run.png",    "-run.pdf",   ".ckpt", "-contacts.csv", "-measure.csv"};
    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++)
        if (strcmp(rest, tails[i]) == 0) return 1;
    if (strncmp(rest, "_shapes_", 8) == 0) return six_digits_vtk(rest + 8);
    return rest[0] == '_' && six_digits_vtk(rest + 1);
}

/* ---- the bodies' names ---- */

int xp_run_write_names(const clab_world *w, const size_t *order, const char *path, clab_error *err)
{
    static const char *const cols[] = {"body", "name", "shape", "fixed"};
    clab_csv *f = clab_csv_open(path, CLAB_CSV_OVERWRITE, err); /* the scene's: the same for every run */
    if (!f || clab_csv_meta_kv(f, "body", "the index in the bodies CSV (the scene file's order)", err) ||
        clab_csv_header(f, cols, 4, err)) {
        clab_csv_close(f, NULL);
        return -1;
    }
    int rc = 0;
    for (size_t k = 0; k < w->nbodies && rc == 0; k++) {
        const clab_body *b = &w->bodies[order[k]];
        char idx[32];
        snprintf(idx, sizeof idx, "%zu", k);
        const char *cells[4] = {idx, clab_world_body_name(w, order[k]), clab_shape_name(b->shape.type),
                                b->fixed ? "1" : "0"};
        rc = clab_csv_text_row(f, cells, 4, err);
    }
    if (clab_csv_close(f, rc ? NULL : err)) rc = -1;
    return rc;
}

/* ---- the summary ---- */

int xp_run_write_summary(const char *path, const clab_options *meta, int argc, char *const *argv,
                         const xp_run_summary *r, clab_error *err)
{
    static const char *const cols[] = {"steps", "t_s", "wall_s", "final_kinetic_energy_J", "max_penetration_m",
                                       "contacts", "status", "message"};
    enum { N = sizeof cols / sizeof cols[0] };
    clab_csv *f = clab_csv_open(path, CLAB_CSV_OVERWRITE, err); /* this run's, written when it ends */
    if (!f || clab_csv_meta(f, meta, argc, argv, err) ||
        clab_csv_meta_kv(f, "final_kinetic_energy_J", "at the last step (a failed run: at its last good state, "
                         "the last output step)", err) ||
        clab_csv_meta_kv(f, "max_penetration_m", "the deepest contact penetration -Phi over the output steps",
                         err) ||
        clab_csv_meta_kv(f, "wall_s", "wall-clock time of this invocation (a restart counts its own)", err) ||
        clab_csv_header(f, cols, N, err)) {
        clab_csv_close(f, NULL);
        return -1;
    }
    char b[6][40];
    snprintf(b[0], sizeof b[0], "%ld", r->steps);
    snprintf(b[1], sizeof b[1], "%.17g", r->t);
    snprintf(b[2], sizeof b[2], "%.6g", r->wall);
    snprintf(b[3], sizeof b[3], "%.17g", r->kinetic_energy);
    snprintf(b[4], sizeof b[4], "%.17g", r->max_penetration);
    snprintf(b[5], sizeof b[5], "%zu", r->contacts);
    const char *cells[N] = {b[0], b[1], b[2], b[3], b[4], b[5], r->status, r->message};
    int rc = clab_csv_text_row(f, cells, N, err);
    if (clab_csv_close(f, rc ? NULL : err)) rc = -1;
    return rc;
}

/* ---- a restart with other values: the metadata rewritten ---- */

typedef struct meta_lines {
    char **key, **val;
    size_t n;
} meta_lines;

static void meta_lines_free(meta_lines *m)
{
    for (size_t i = 0; i < m->n; i++) free(m->key[i]), free(m->val[i]);
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

/* the "# key = value" lines of text (n bytes) */
static int meta_parse(const char *text, size_t n, meta_lines *m)
{
    memset(m, 0, sizeof *m);
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && text[e] != '\n') e++;
        if (text[i] == '#') {
            const char *eq = NULL;
            for (size_t j = i; j + 2 < e; j++)
                if (text[j] == ' ' && text[j + 1] == '=' && text[j + 2] == ' ') { eq = text + j; break; }
            size_t k0 = i + 1 + (i + 1 < e && text[i + 1] == ' ');
            if (eq) {
                char **nk = realloc(m->key, (m->n + 1) * sizeof *nk), **nv;
                if (!nk) return -1;
                m->key = nk;
                nv = realloc(m->val, (m->n + 1) * sizeof *nv);
                if (!nv) return -1;
                m->val = nv;
                m->key[m->n] = strndup(text + k0, (size_t)(eq - (text + k0)));
                m->val[m->n] = strndup(eq + 3, (size_t)(text + e - (eq + 3)));
                if (!m->key[m->n] || !m->val[m->n]) return -1;
                m->n++;
            }
        }
        i = e + 1;
    }
    return 0;
}

static const char *meta_get(const meta_lines *m, const char *key)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->key[i], key) == 0) return m->val[i];
    return NULL;
}

/* the metadata block and header of a fresh file with meta, the carried restart lines of old
 * and the lines of this restart, in memory (written through clab_csv to a scratch file, so it
 * is byte for byte what a fresh run writes) */
static char *fresh_block(const char *tmp, const clab_options *meta, int argc, char *const *argv,
                         const char *const *cols, size_t ncols, const meta_lines *old, const meta_lines *add,
                         size_t *len, clab_error *err)
{
    clab_csv *f = clab_csv_open(tmp, CLAB_CSV_OVERWRITE, err);
    int bad = !f || clab_csv_meta(f, meta, argc, argv, err);
    for (size_t i = 0; old && i < old->n && !bad; i++)
        if (strncmp(old->key[i], "restart.", 8) == 0) bad = clab_csv_meta_kv(f, old->key[i], old->val[i], err);
    for (size_t i = 0; add && i < add->n && !bad; i++) bad = clab_csv_meta_kv(f, add->key[i], add->val[i], err);
    if (!bad) bad = clab_csv_header(f, cols, ncols, err);
    if (clab_csv_close(f, bad ? NULL : err)) bad = 1;
    char *text = NULL;
    FILE *in = bad ? NULL : fopen(tmp, "rb");
    if (in) {
        struct stat st;
        if (fstat(fileno(in), &st) == 0 && (text = malloc((size_t)st.st_size + 1)) != NULL) {
            *len = fread(text, 1, (size_t)st.st_size, in);
            text[*len] = '\0';
        }
        fclose(in);
    }
    if (!text && !bad) clab_error_set(err, CLAB_EIO, "%s: cannot read back: %s", tmp, strerror(errno));
    return text;
}

static int add_line(meta_lines *m, const char *key, const char *val)
{
    char **nk = realloc(m->key, (m->n + 1) * sizeof *nk), **nv;
    if (!nk) return -1;
    m->key = nk;
    if (!(nv = realloc(m->val, (m->n + 1) * sizeof *nv))) return -1;
    m->val = nv;
    m->key[m->n] = strdup(key);
    m->val[m->n] = strdup(val);
    if (!m->key[m->n] || !m->val[m->n]) return -1;
    m->n++;
    return 0;
}

/* the command-line option that sets metadata key (for messages) */
static void key_option(const char *key, char *buf, size_t n)
{
    if (strcmp(key, "h_s") == 0) snprintf(buf, n, "--h");
    else if (strcmp(key, "t_end_s") == 0) snprintf(buf, n, "--t-end");
    else if (strcmp(key, "output_every") == 0) snprintf(buf, n, "--every");
    else if (strcmp(key, "backend") == 0) snprintf(buf, n, "--backend");
    else if (strncmp(key, "option.", 7) == 0) snprintf(buf, n, "--opt %s", key + 7);
    else if (strncmp(key, "mpi_", 4) == 0) snprintf(buf, n, "%s (the ranks: mpirun -np, --grid)", key);
    else snprintf(buf, n, "%s (a backend parameter: --opt or the scene)", key);
}

int xp_run_restart_meta(const char *path, long long *bytes, const clab_options *meta, int argc, char *const *argv,
                        const char *const *cols, size_t ncols, double t_restart, int say, long *old_every,
                        clab_error *err)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        clab_error_set(err, CLAB_EIO, "%s: %s", path, strerror(errno));
        return -1;
    }
    /* the old block: the lines up to and with the header (the first one without '#') */
    size_t cap = 4096, len = 0;
    char *old = malloc(cap);
    int c = 0, header = 0;
    while (old && (c = fgetc(in)) != EOF) {
        if (len + 1 >= cap && !(old = realloc(old, cap *= 2))) break;
        old[len++] = (char)c;
        if (c == '\n' && header) break;
        if (c != '\n' && (len == 1 || old[len - 2] == '\n')) header = c != '#';
    }
    if (!old) {
        fclose(in);
        clab_error_set(err, CLAB_ENOMEM, "%s: out of memory for its metadata", path);
        return -1;
    }
    old[len] = '\0';
    meta_lines om = {0}, nm = {0}, add = {0};
    char tmp[2100];
    snprintf(tmp, sizeof tmp, "%s.meta.tmp", path);
    size_t nlen = 0;
    char *fresh = NULL;
    int rc = -1;
    if (c != '\n' || (long long)len > *bytes) {
        clab_error_set(err, CLAB_EIO, "%s: no header line within the checkpoint's %lld bytes", path, *bytes);
        goto done;
    }
    if (meta_parse(old, len, &om) || !(fresh = fresh_block(tmp, meta, argc, argv, cols, ncols, &om, NULL, &nlen, err)))
        goto done;
    const char *oe = meta_get(&om, "output_every");
    *old_every = oe ? strtol(oe, NULL, 10) : 0;
    if (nlen == len && memcmp(fresh, old, len) == 0) { /* the same run: the file stays byte for byte */
        rc = 0;
        goto done;
    }
    /* restart number N: one more than the carried restart.N lines */
    int nr = 1;
    for (size_t i = 0; i < om.n; i++)
        if (strncmp(om.key[i], "restart.", 8) == 0 && atoi(om.key[i] + 8) >= nr) nr = atoi(om.key[i] + 8) + 1;
    if (meta_parse(fresh, nlen, &nm)) goto done;
    char key[300], val[300];
    snprintf(key, sizeof key, "restart.%d", nr);
    snprintf(val, sizeof val, "the rows with t_s <= %.17g were written with the values restart.%d.* (the other "
                              "lines as above); the rest with the values above", t_restart, nr);
    if (add_line(&add, key, val)) goto oom;
    for (size_t i = 0; i < nm.n; i++) { /* a value changed, or a key this run has and that one had not */
        if (strncmp(nm.key[i], "restart.", 8) == 0) continue;
        const char *ov = meta_get(&om, nm.key[i]);
        if (ov && strcmp(ov, nm.val[i]) == 0) continue;
        snprintf(key, sizeof key, "restart.%d.%s", nr, nm.key[i]);
        if (add_line(&add, key, ov ? ov : "(not given)")) goto oom;
        if (!say || strcmp(nm.key[i], "command") == 0 || strcmp(nm.key[i], "contactlab_version") == 0) continue;
        char opt[200];
        key_option(nm.key[i], opt, sizeof opt);
        fprintf(stderr, "contactlab run: restart with %s %s, the checkpoint's run had %s: continuing; the CSVs' "
                        "metadata now states %s = %s, and restart.%d.%s = %s for the rows up to t = %.9g s\n",
                opt, nm.val[i], ov ? ov : "(not given)", nm.key[i], nm.val[i], nr, nm.key[i],
                ov ? ov : "(not given)", t_restart);
    }
    for (size_t i = 0; i < om.n; i++) { /* a key that one had and this run has not */
        if (strncmp(om.key[i], "restart.", 8) == 0 || meta_get(&nm, om.key[i])) continue;
        snprintf(key, sizeof key, "restart.%d.%s", nr, om.key[i]);
        if (add_line(&add, key, om.val[i])) goto oom;
    }
    free(fresh);
    fresh = fresh_block(tmp, meta, argc, argv, cols, ncols, &om, &add, &nlen, err);
    if (!fresh) goto done;
    /* the new block, then the old rows up to the checkpoint, under the old name */
    FILE *out = fopen(tmp, "ab");
    if (!out) {
        clab_error_set(err, CLAB_EIO, "%s: %s", tmp, strerror(errno));
        goto done;
    }
    long long left = *bytes - (long long)len;
    char buf[65536];
    int bad = 0;
    while (left > 0 && !bad) {
        size_t k = fread(buf, 1, left < (long long)sizeof buf ? (size_t)left : sizeof buf, in);
        if (k == 0 || fwrite(buf, 1, k, out) != k) bad = 1;
        left -= (long long)k;
    }
    long long total = ftell(out);
    if (fclose(out) || bad) {
        clab_error_set(err, CLAB_EIO, "%s: cannot copy the rows of %s: %s", tmp, path, strerror(errno));
        goto done;
    }
    if (rename(tmp, path)) {
        clab_error_set(err, CLAB_EIO, "%s: cannot replace it: %s", path, strerror(errno));
        goto done;
    }
    *bytes = total;
    rc = 1;
    goto done;
oom:
    clab_error_set(err, CLAB_ENOMEM, "%s: out of memory for its metadata", path);
done:
    if (rc != 1) remove(tmp);
    fclose(in);
    free(old);
    free(fresh);
    meta_lines_free(&om);
    meta_lines_free(&nm);
    meta_lines_free(&add);
    return rc;
}
