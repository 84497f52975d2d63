/* csv.c: CSV series writer (whole rows per write(2), no overwriting by accident) and reader */
#include "config.h"
#include "clab_csv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* longest %.17g text of a double: "-1.2345678901234567e-308" is 24 characters */
#define CSV_NUM_LEN 32

struct clab_csv {
    int fd;              /* open file, -1 after close */
    char *path;          /* for messages */
    char *buf;           /* complete lines not yet written [len], capacity cap */
    size_t len, cap;
    off_t committed;     /* bytes of the file known to be written whole */
    size_t ncols;        /* header width, 0 before the header */
    long rows;           /* rows added */
    long pending;        /* rows in buf */
    long flush_every;    /* rows kept before a write (>= 1) */
    int failed;          /* a write failed: the file holds `committed` bytes */
    char why[160];       /* the failure, for later calls */
};

static void errtext(int e, char *buf, size_t n)
{
    /* XSI strerror_r (thread-safe) */
    if (strerror_r(e, buf, n) != 0) snprintf(buf, n, "error %d", e);
}

static int reserve(clab_csv *f, size_t more)
{
    if (f->len + more <= f->cap) return CLAB_OK;
    size_t cap = f->cap ? f->cap : 4096;
    while (cap < f->len + more) cap *= 2;
    char *b = realloc(f->buf, cap);
    if (!b) return CLAB_ENOMEM;
    f->buf = b;
    f->cap = cap;
    return CLAB_OK;
}

/* write buf whole, or cut the file back to its last complete line */
static int write_out(clab_csv *f, clab_error *err)
{
    if (f->failed) return clab_error_set(err, CLAB_EIO, "%s", f->why);
    size_t done = 0;
    while (done < f->len) {
        ssize_t w = write(f->fd, f->buf + done, f->len - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            char e[96];
            errtext(w < 0 ? errno : EIO, e, sizeof e);
            /* keep only complete lines: drop what this call wrote of the block */
            if (ftruncate(f->fd, f->committed) == 0) (void)lseek(f->fd, f->committed, SEEK_SET);
            f->failed = 1;
            snprintf(f->why, sizeof f->why, "%.60s: write failed after %ld complete rows: %.60s", f->path,
                     f->rows - f->pending, e);
            return clab_error_set(err, CLAB_EIO, "%s", f->why);
        }
        done += (size_t)w;
    }
    f->committed += (off_t)f->len;
    f->len = 0;
    f->pending = 0;
    return CLAB_OK;
}

/* the writer of an open descriptor (closed on failure) */
static clab_csv *csv_new(const char *path, int fd, clab_error *err)
{
    clab_csv *f = calloc(1, sizeof *f);
    if (f) f->path = malloc(strlen(path) + 1);
    if (!f || !f->path) {
        if (f) free(f);
        close(fd);
        clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", path);
        return NULL;
    }
    strcpy(f->path, path);
    f->fd = fd;
    f->flush_every = 1;
    return f;
}

clab_csv *clab_csv_open(const char *path, int flags, clab_error *err)
{
    int oflags = O_WRONLY | O_CREAT | O_CLOEXEC | ((flags & CLAB_CSV_OVERWRITE) ? O_TRUNC : O_EXCL);
    int fd = open(path, oflags, 0644);
    if (fd < 0) {
        int e = errno;
        char why[96];
        errtext(e, why, sizeof why);
        if (e == EEXIST)
            clab_error_set(err, CLAB_EIO, "%s: the file exists; refusing to overwrite a result (remove it, choose "
                           "another output folder, or overwrite: --force on the contactlab command line, "
                           "CLAB_CSV_OVERWRITE in the library)", path);
        else
            clab_error_set(err, CLAB_EIO, "%s: cannot create: %s", path, why);
        return NULL;
    }
    return csv_new(path, fd, err);
}

long long clab_csv_bytes(const clab_csv *f) { return (long long)f->committed; }

clab_csv *clab_csv_resume(const char *path, long long bytes, long rows, size_t ncols, clab_error *err)
{
    char why[96];
    if (bytes < 1 || rows < 0 || ncols == 0) {
        clab_error_set(err, CLAB_EINVAL, "%s: cannot resume at %lld bytes, %ld rows, %zu columns", path, bytes, rows,
                       ncols);
        return NULL;
    }
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        errtext(errno, why, sizeof why);
        clab_error_set(err, CLAB_EIO, "%s: cannot reopen to continue it: %s", path, why);
        return NULL;
    }
    /* the file must reach the checkpoint, with a line end there */
    off_t size = lseek(fd, 0, SEEK_END);
    char last = 0;
    if (size < (off_t)bytes || pread(fd, &last, 1, (off_t)bytes - 1) != 1 || last != '\n') {
        clab_error_set(err, CLAB_EIO, "%s: %lld bytes, but the checkpoint expects at least %lld ending in a complete "
                       "row (is this the output of the checkpointed run?)", path, (long long)size, bytes);
        close(fd);
        return NULL;
    }
    if (ftruncate(fd, (off_t)bytes) != 0 || lseek(fd, (off_t)bytes, SEEK_SET) != (off_t)bytes) {
        errtext(errno, why, sizeof why);
        clab_error_set(err, CLAB_EIO, "%s: cannot cut it back to %lld bytes: %s", path, bytes, why);
        close(fd);
        return NULL;
    }
    clab_csv *f = csv_new(path, fd, err);
    if (!f) return NULL;
    f->committed = (off_t)bytes;
    f->rows = rows;
    f->ncols = ncols;
    return f;
}

void clab_csv_set_flush_every(clab_csv *f, long rows) { f->flush_every = rows >= 1 ? rows : 1; }
long clab_csv_rows(const clab_csv *f) { return f->rows; }
const char *clab_csv_path(const clab_csv *f) { return f->path; }

/* append text with newlines and carriage returns turned into spaces */
static void put_oneline(clab_csv *f, const char *s)
{
    for (; *s; s++) f->buf[f->len++] = (*s == '\n' || *s == '\r') ? ' ' : *s;
}

int clab_csv_meta_kv(clab_csv *f, const char *key, const char *value, clab_error *err)
{
    if (f->ncols) return clab_error_set(err, CLAB_EINVAL, "%s: metadata '%s' after the header row", f->path, key);
    if (reserve(f, strlen(key) + strlen(value) + 8)) return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", f->path);
    put_oneline(f, "# ");
    put_oneline(f, key);
    put_oneline(f, " = ");
    put_oneline(f, value);
    f->buf[f->len++] = '\n';
    return CLAB_OK;
}

/* append argument a to the command line in cmd, quoted for a POSIX shell when needed */
static int quote_arg(char **cmd, size_t *len, size_t *cap, const char *a)
{
    int plain = a[0] != '\0';
    for (const char *p = a; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-@%", *p) != NULL;
    size_t need = *len + 4 * strlen(a) + 4;
    if (need > *cap) {
        size_t c = *cap ? *cap : 256;
        while (c < need) c *= 2;
        char *p = realloc(*cmd, c);
        if (!p) return CLAB_ENOMEM;
        *cmd = p;
        *cap = c;
    }
    char *o = *cmd + *len;
    if (*len) *o++ = ' ';
    if (plain) {
        strcpy(o, a);
        o += strlen(a);
    } else { /* 'it'\''s' */
        *o++ = '\'';
        for (const char *p = a; *p; p++) {
            if (*p == '\'') {
                memcpy(o, "'\\''", 4);
                o += 4;
            } else {
                *o++ = *p;
            }
        }
        *o++ = '\'';
    }
    *o = '\0';
    *len = (size_t)(o - *cmd);
    return CLAB_OK;
}

int clab_csv_meta(clab_csv *f, const clab_options *params, int argc, char *const *argv, clab_error *err)
{
    int st = clab_csv_meta_kv(f, "contactlab_version", PACKAGE_VERSION, err);
    if (st) return st;
    if (argc > 0 && argv) {
        char *cmd = NULL;
        size_t len = 0, cap = 0;
        for (int i = 0; i < argc && !st; i++) st = quote_arg(&cmd, &len, &cap, argv[i] ? argv[i] : "");
        if (!st) st = clab_csv_meta_kv(f, "command", cmd, err);
        else clab_error_set(err, st, "%s: out of memory", f->path);
        free(cmd);
        if (st) return st;
    }
    for (size_t i = 0; params && i < params->n; i++)
        if ((st = clab_csv_meta_kv(f, params->o[i].key, params->o[i].val, err))) return st;
    return CLAB_OK;
}

int clab_csv_header(clab_csv *f, const char *const *names, size_t ncols, clab_error *err)
{
    if (f->ncols) return clab_error_set(err, CLAB_EINVAL, "%s: the header row is already written", f->path);
    if (ncols == 0) return clab_error_set(err, CLAB_EINVAL, "%s: a header needs at least one column", f->path);
    size_t total = 0;
    for (size_t i = 0; i < ncols; i++) {
        const char *s = names[i];
        if (!s || !s[0] || strpbrk(s, ",\"# \t\r\n"))
            return clab_error_set(err, CLAB_EINVAL, "%s: column %zu name '%s' is empty or holds one of , \" # or "
                                  "whitespace; allowed: names like t_s, z_m, fn_N", f->path, i, s ? s : "(null)");
        for (size_t k = 0; k < i; k++)
            if (strcmp(names[k], s) == 0)
                return clab_error_set(err, CLAB_EINVAL, "%s: column name '%s' appears twice (columns %zu and %zu)",
                                      f->path, s, k, i);
        total += strlen(s) + 1;
    }
    if (reserve(f, total + 1)) return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", f->path);
    for (size_t i = 0; i < ncols; i++) {
        if (i) f->buf[f->len++] = ',';
        memcpy(f->buf + f->len, names[i], strlen(names[i]));
        f->len += strlen(names[i]);
    }
    f->buf[f->len++] = '\n';
    f->ncols = ncols;
    return write_out(f, err);
}

int clab_csv_row(clab_csv *f, const double *v, size_t ncols, clab_error *err)
{
    if (f->failed) return clab_error_set(err, CLAB_EIO, "%s", f->why);
    if (!f->ncols) return clab_error_set(err, CLAB_EINVAL, "%s: a row before the header row", f->path);
    if (ncols != f->ncols)
        return clab_error_set(err, CLAB_EINVAL, "%s: row %ld has %zu values, the header %zu columns", f->path, f->rows,
                              ncols, f->ncols);
    if (reserve(f, ncols * CSV_NUM_LEN + 2)) return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", f->path);
    /* the row is formatted whole in memory, then written with the others in one call */
    for (size_t i = 0; i < ncols; i++)
        f->len += (size_t)snprintf(f->buf + f->len, CSV_NUM_LEN + 1, "%s%.17g", i ? "," : "", v[i]);
    f->buf[f->len++] = '\n';
    f->rows++;
    f->pending++;
    if (f->pending >= f->flush_every) return write_out(f, err);
    return CLAB_OK;
}

/* a text row (summary tables with a method name column): cells holding , " or a line
 * break are quoted as in RFC 4180 */
int clab_csv_text_row(clab_csv *f, const char *const *cells, size_t ncols, clab_error *err)
{
    if (f->failed) return clab_error_set(err, CLAB_EIO, "%s", f->why);
    if (!f->ncols) return clab_error_set(err, CLAB_EINVAL, "%s: a row before the header row", f->path);
    if (ncols != f->ncols)
        return clab_error_set(err, CLAB_EINVAL, "%s: row %ld has %zu values, the header %zu columns", f->path, f->rows,
                              ncols, f->ncols);
    size_t need = 2;
    for (size_t i = 0; i < ncols; i++) need += 2 * strlen(cells[i] ? cells[i] : "") + 3;
    if (reserve(f, need)) return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", f->path);
    for (size_t i = 0; i < ncols; i++) {
        const char *c = cells[i] ? cells[i] : "";
        int quote = strpbrk(c, ",\"\r\n") != NULL;
        if (i) f->buf[f->len++] = ',';
        if (quote) f->buf[f->len++] = '"';
        for (; *c; c++) {
            if (*c == '"') f->buf[f->len++] = '"';
            f->buf[f->len++] = *c;
        }
        if (quote) f->buf[f->len++] = '"';
    }
    f->buf[f->len++] = '\n';
    f->rows++;
    f->pending++;
    if (f->pending >= f->flush_every) return write_out(f, err);
    return CLAB_OK;
}

int clab_csv_flush(clab_csv *f, clab_error *err)
{
    if (f->failed) return clab_error_set(err, CLAB_EIO, "%s", f->why);
    return f->len ? write_out(f, err) : CLAB_OK;
}

int clab_csv_close(clab_csv *f, clab_error *err)
{
    if (!f) return CLAB_OK;
    int st = clab_csv_flush(f, err);
    if (close(f->fd) != 0 && st == CLAB_OK) {
        char e[96];
        errtext(errno, e, sizeof e);
        st = clab_error_set(err, CLAB_EIO, "%s: close failed: %s", f->path, e);
    }
    free(f->buf);
    free(f->path);
    free(f);
    return st;
}

/* ---- reader ---- */

static char *dup_range(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

void clab_csv_table_free(clab_csv_table *t)
{
    for (size_t i = 0; i < t->nmeta; i++) {
        free(t->meta_key[i]);
        free(t->meta_val[i]);
    }
    for (size_t i = 0; i < t->ncols; i++) free(t->names[i]);
    free(t->meta_key);
    free(t->meta_val);
    free(t->names);
    free(t->v);
    memset(t, 0, sizeof *t);
}

const char *clab_csv_table_meta(const clab_csv_table *t, const char *key)
{
    for (size_t i = 0; i < t->nmeta; i++)
        if (strcmp(t->meta_key[i], key) == 0) return t->meta_val[i];
    return NULL;
}

long clab_csv_table_column(const clab_csv_table *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (strcmp(t->names[i], name) == 0) return (long)i;
    return -1;
}

/* one "# key = value" line (without "# "), stored; other comments are skipped */
static int add_meta(clab_csv_table *t, const char *s, size_t n)
{
    const char *eq = NULL;
    for (size_t i = 0; i + 3 <= n && !eq; i++)
        if (memcmp(s + i, " = ", 3) == 0) eq = s + i;
    if (!eq) return CLAB_OK;
    char **k = realloc(t->meta_key, (t->nmeta + 1) * sizeof *k);
    if (!k) return CLAB_ENOMEM;
    t->meta_key = k;
    char **v = realloc(t->meta_val, (t->nmeta + 1) * sizeof *v);
    if (!v) return CLAB_ENOMEM;
    t->meta_val = v;
    k[t->nmeta] = dup_range(s, (size_t)(eq - s));
    v[t->nmeta] = dup_range(eq + 3, n - (size_t)(eq - s) - 3);
    if (!k[t->nmeta] || !v[t->nmeta]) {
        free(k[t->nmeta]);
        free(v[t->nmeta]);
        return CLAB_ENOMEM;
    }
    t->nmeta++;
    return CLAB_OK;
}

static int add_header(clab_csv_table *t, const char *s, size_t n)
{
    size_t cols = 1;
    for (size_t i = 0; i < n; i++) cols += s[i] == ',';
    t->names = calloc(cols, sizeof *t->names);
    if (!t->names) return CLAB_ENOMEM;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++)
        if (i == n || s[i] == ',') {
            if (!(t->names[t->ncols++] = dup_range(s + start, i - start))) return CLAB_ENOMEM;
            start = i + 1;
        }
    return CLAB_OK;
}

/* parse one row line (NUL-terminated) into t->v; returns 0 or the bad field's index + 1 */
static size_t add_row(clab_csv_table *t, char *s, size_t *cap_rows, int *nomem)
{
    if (t->nrows == *cap_rows) {
        size_t c = *cap_rows ? 2 * *cap_rows : 256;
        double *v = realloc(t->v, c * t->ncols * sizeof *v);
        if (!v) {
            *nomem = 1;
            return 1;
        }
        t->v = v;
        *cap_rows = c;
    }
    double *row = t->v + t->nrows * t->ncols;
    char *p = s;
    for (size_t c = 0; c < t->ncols; c++) {
        char *end;
        row[c] = strtod(p, &end);
        if (end == p || (c + 1 < t->ncols ? *end != ',' : *end != '\0')) return c + 1;
        p = end + 1;
    }
    t->nrows++;
    return 0;
}

int clab_csv_read(const char *path, clab_csv_table *t, clab_error *err)
{
    memset(t, 0, sizeof *t);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        char e[96];
        errtext(errno, e, sizeof e);
        return clab_error_set(err, CLAB_EIO, "%s: cannot open: %s", path, e);
    }
    /* the whole file in memory */
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    while (text) {
        if (n + 1 >= cap) {
            char *b = realloc(text, 2 * cap);
            if (!b) {
                free(text);
                text = NULL;
                break;
            }
            text = b;
            cap *= 2;
        }
        size_t got = fread(text + n, 1, cap - 1 - n, fp);
        if (got == 0) break;
        n += got;
    }
    int rerr = ferror(fp);
    fclose(fp);
    if (!text) return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", path);
    if (rerr) {
        free(text);
        return clab_error_set(err, CLAB_EIO, "%s: read error", path);
    }
    text[n] = '\0';

    int st = CLAB_OK;
    size_t cap_rows = 0, line = 0;
    char *p = text;
    while (st == CLAB_OK && p < text + n) {
        char *nl = memchr(p, '\n', (size_t)(text + n - p));
        line++;
        if (!nl) { /* no newline: an interrupted write, not a row */
            t->partial_tail = 1;
            break;
        }
        *nl = '\0';
        size_t len = (size_t)(nl - p);
        if (len && p[len - 1] == '\r') p[--len] = '\0';
        if (p[0] == '#') {
            if (!t->ncols && len >= 2 && p[1] == ' ' && add_meta(t, p + 2, len - 2))
                st = clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", path);
        } else if (!t->ncols) {
            if (add_header(t, p, len)) st = clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", path);
        } else if (len > 0) {
            int nomem = 0;
            size_t bad = add_row(t, p, &cap_rows, &nomem);
            if (nomem) st = clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", path);
            else if (bad)
                st = clab_error_set(err, CLAB_EINVAL, "%s:%zu: field %zu ('%s') is not a number or the row does not "
                                    "have %zu fields", path, line, bad, t->names[bad - 1], t->ncols);
        }
        p = nl + 1;
    }
    free(text);
    if (st == CLAB_OK && !t->ncols) st = clab_error_set(err, CLAB_EINVAL, "%s: no header row", path);
    if (st != CLAB_OK) clab_csv_table_free(t);
    return st;
}
