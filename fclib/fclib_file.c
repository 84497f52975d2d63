/* fclib_file.c: FCLIB files through libfclib (clab_fclib.h). libfclib stops the program on an
 * HDF5 error inside its readers, so every dataset they will read is checked first here, with
 * HDF5 alone (its automatic error printing off): existence, rank, length against the sizes
 * that libfclib allocates for. The guess goes to /guesses/1/{r,u,v} (number_of_guesses = 1),
 * written and read here with HDF5. */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fclib.h>

#include "clab_fclib.h"

const char *clab_fc_missing(void) { return ""; }
int clab_fc_available(void) { return 1; }

/* ---- writing ---- */

static struct fclib_matrix *to_fclib(const clab_fc_csc *A, struct fclib_matrix *F)
{
    memset(F, 0, sizeof *F);
    F->m = A->m;
    F->n = A->n;
    F->nz = -1; /* compressed columns */
    F->nzmax = A->p[A->n];
    F->p = A->p;
    F->i = A->i;
    F->x = A->x;
    return F;
}

static int write_vec(hid_t g, const char *name, const double *x, size_t n)
{
    hsize_t dim = n;
    hid_t sp = H5Screate_simple(1, &dim, NULL);
    if (sp < 0) return -1;
    hid_t ds = H5Dcreate2(g, name, H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int ok = ds >= 0 && H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) >= 0;
    if (ds >= 0) H5Dclose(ds);
    H5Sclose(sp);
    return ok ? 0 : -1;
}

static int write_guess(const clab_fc_problem *fp, const char *path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0) return -1;
    int ok = 0;
    hid_t g = H5Gcreate2(f, "/guesses", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g >= 0) {
        hsize_t one = 1;
        int count = 1;
        hid_t sp = H5Screate_simple(1, &one, NULL);
        hid_t ds = H5Dcreate2(g, "number_of_guesses", H5T_NATIVE_INT, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        ok = ds >= 0 && H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, &count) >= 0;
        if (ds >= 0) H5Dclose(ds);
        H5Sclose(sp);
        hid_t g1 = H5Gcreate2(g, "1", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        ok = ok && g1 >= 0 && write_vec(g1, "r", fp->r, 3 * fp->nc) == 0 && write_vec(g1, "u", fp->u, 3 * fp->nc) == 0;
        if (ok && fp->has_global && fp->v) ok = write_vec(g1, "v", fp->v, (size_t)fp->M.n) == 0;
        if (g1 >= 0) H5Gclose(g1);
        H5Gclose(g);
    }
    H5Fclose(f);
    return ok ? 0 : -1;
}

int clab_fc_write(const clab_fc_problem *fp, const char *path, clab_error *err)
{
    /* a clear error for a path that cannot be written (libfclib would stop the program) */
    FILE *t = fopen(path, "wb");
    if (!t) return clab_error_set(err, CLAB_EIO, "fclib: cannot write %s", path);
    fclose(t);
    remove(path);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    struct fclib_info info = {(char *)fp->title, (char *)fp->description,
                              "Coulomb friction (De Saxce's modified velocity); the Tasora-Anitescu CCP is the "
                              "same data without the shift mu |u_T|"};
    struct fclib_matrix Fw, Fm, Fh;
    if (fp->has_global) {
        struct fclib_global g;
        memset(&g, 0, sizeof g);
        g.M = to_fclib(&fp->M, &Fm);
        g.H = to_fclib(&fp->H, &Fh);
        g.mu = fp->mu;
        g.f = fp->f;
        g.w = fp->w;
        g.spacedim = 3;
        g.info = &info;
        if (!fclib_write_global(&g, path)) return clab_error_set(err, CLAB_EIO, "fclib: writing the global form to %s failed", path);
    }
    struct fclib_local l;
    memset(&l, 0, sizeof l);
    l.W = to_fclib(&fp->W, &Fw);
    l.q = fp->q;
    l.mu = fp->mu;
    l.spacedim = 3;
    l.info = &info;
    if (!fclib_write_local(&l, path)) return clab_error_set(err, CLAB_EIO, "fclib: writing the local form to %s failed", path);
    if (fp->has_guess && write_guess(fp, path))
        return clab_error_set(err, CLAB_EIO, "fclib: writing the guess to %s failed", path);
    return CLAB_OK;
}

/* ---- checking and reading ---- */

/* length of the 1-D dataset at path (-1: absent or not 1-D) */
static long ds_len(hid_t f, const char *path)
{
    if (H5Lexists(f, path, H5P_DEFAULT) <= 0) return -1;
    hid_t ds = H5Dopen2(f, path, H5P_DEFAULT);
    if (ds < 0) return -1;
    hid_t sp = H5Dget_space(ds);
    long n = -1;
    if (sp >= 0 && H5Sget_simple_extent_ndims(sp) == 1) n = (long)H5Sget_simple_extent_npoints(sp);
    if (sp >= 0) H5Sclose(sp);
    H5Dclose(ds);
    return n;
}

static int ds_read(hid_t f, const char *path, hid_t type, void *buf)
{
    hid_t ds = H5Dopen2(f, path, H5P_DEFAULT);
    if (ds < 0) return -1;
    int ok = H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0;
    H5Dclose(ds);
    return ok ? 0 : -1;
}

static int ds_int(hid_t f, const char *path, int *v) { return ds_len(f, path) == 1 ? ds_read(f, path, H5T_NATIVE_INT, v) : -1; }

static int has_group(hid_t f, const char *path) { return H5Lexists(f, path, H5P_DEFAULT) > 0; }

/* the matrix group g (e.g. /fclib_local/W): its sizes, and its arrays as libfclib will read them */
static int check_matrix(hid_t f, const char *file, const char *g, int *m, int *n, clab_error *err)
{
    char p[128];
    int nzmax, nz;
    const char *names[4] = {"nzmax", "m", "n", "nz"};
    int *vals[4] = {&nzmax, m, n, &nz};
    for (int k = 0; k < 4; k++) {
        snprintf(p, sizeof p, "%s/%s", g, names[k]);
        if (ds_int(f, p, vals[k]))
            return clab_error_set(err, CLAB_EINVAL, "%s: %s is missing or not one integer", file, p);
    }
    if (*m < 0 || *n < 0 || nzmax < 0 || nz < -2)
        return clab_error_set(err, CLAB_EINVAL, "%s: %s: bad sizes m %d, n %d, nzmax %d, nz %d", file, g, *m, *n,
                              nzmax, nz);
    long want_p = nz >= 0 ? nz : (nz == -1 ? (long)*n + 1 : (long)*m + 1), want_i = nz >= 0 ? nz : nzmax;
    struct { const char *name; long len; } arr[3] = {{"p", want_p}, {"i", want_i}, {"x", nzmax}};
    for (int k = 0; k < 3; k++) {
        snprintf(p, sizeof p, "%s/%s", g, arr[k].name);
        long len = ds_len(f, p);
        if (len != arr[k].len)
            return clab_error_set(err, CLAB_EINVAL, "%s: %s has %ld entries, the sizes say %ld", file, p, len, arr[k].len);
    }
    if (nz >= 0 && nz > nzmax)
        return clab_error_set(err, CLAB_EINVAL, "%s: %s: %d triplets but room for %d", file, g, nz, nzmax);
    return CLAB_OK;
}

static int check_vector(hid_t f, const char *file, const char *path, long len, clab_error *err)
{
    long n = ds_len(f, path);
    if (n != len) return clab_error_set(err, CLAB_EINVAL, "%s: %s has %ld entries, expected %ld", file, path, n, len);
    return CLAB_OK;
}

/* the layout libfclib's readers expect, for the forms present; *local, *global say which */
static int check_layout(hid_t f, const char *file, int *local, int *global, clab_error *err)
{
    *local = has_group(f, "/fclib_local");
    *global = has_group(f, "/fclib_global");
    if (!*local && !*global)
        return clab_error_set(err, CLAB_EINVAL, "%s: an HDF5 file without /fclib_local or /fclib_global: not an "
                                                "FCLIB problem", file);
    const char *grp[2] = {"/fclib_local", "/fclib_global"};
    for (int form = 0; form < 2; form++) {
        if (!(form ? *global : *local)) continue;
        char p[128];
        int dim, m, n, m2, n2;
        snprintf(p, sizeof p, "%s/spacedim", grp[form]);
        if (ds_int(f, p, &dim)) return clab_error_set(err, CLAB_EINVAL, "%s: %s is missing", file, p);
        if (dim != 3)
            return clab_error_set(err, CLAB_EINVAL, "%s: spacedim %d: only 3-D friction problems are solved here", file, dim);
        if (form == 0) {
            int rc = check_matrix(f, file, "/fclib_local/W", &m, &n, err);
            if (rc) return rc;
            if (m != n || m % 3)
                return clab_error_set(err, CLAB_EINVAL, "%s: W is %d x %d: not square of 3 rows a contact", file, m, n);
            if (has_group(f, "/fclib_local/V") || has_group(f, "/fclib_local/R"))
                return clab_error_set(err, CLAB_EINVAL, "%s: equality constraints (V, R) are not supported", file);
            if ((rc = check_vector(f, file, "/fclib_local/vectors/q", m, err)) ||
                (rc = check_vector(f, file, "/fclib_local/vectors/mu", m / 3, err)))
                return rc;
        } else {
            int rc = check_matrix(f, file, "/fclib_global/M", &m, &n, err);
            if (!rc) rc = check_matrix(f, file, "/fclib_global/H", &m2, &n2, err);
            if (rc) return rc;
            if (m != n || m2 != m || n2 % 3)
                return clab_error_set(err, CLAB_EINVAL, "%s: M %d x %d and H %d x %d do not fit", file, m, n, m2, n2);
            if (has_group(f, "/fclib_global/G"))
                return clab_error_set(err, CLAB_EINVAL, "%s: equality constraints (G, b) are not supported", file);
            if ((rc = check_vector(f, file, "/fclib_global/vectors/f", m, err)) ||
                (rc = check_vector(f, file, "/fclib_global/vectors/w", n2, err)) ||
                (rc = check_vector(f, file, "/fclib_global/vectors/mu", n2 / 3, err)))
                return rc;
        }
    }
    return CLAB_OK;
}

/* libfclib's matrix (triplet, CSC or CSR) into compressed columns; CLAB_EINVAL on an index
 * out of range. Triplets follow CSparse: i rows, p columns. */
static int from_fclib(const struct fclib_matrix *F, clab_fc_csc *A, const char *file, const char *name, clab_error *err)
{
    long ne = F->nz >= 0 ? F->nz : (F->nz == -1 ? F->p[F->n] : F->p[F->m]);
    if (F->nz < 0) {
        const int *ptr = F->p;
        int len = F->nz == -1 ? F->n : F->m;
        for (int c = 0; c < len; c++)
            if (ptr[c] > ptr[c + 1] || ptr[0] != 0) return clab_error_set(err, CLAB_EINVAL, "%s: %s: pointers not increasing", file, name);
        if (ne > F->nzmax) return clab_error_set(err, CLAB_EINVAL, "%s: %s: %ld entries > nzmax %d", file, name, ne, F->nzmax);
    }
    if (clab_fc_csc_alloc(A, F->m, F->n, (size_t)ne)) return clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory");
    /* (row, column, value) of entry e */
    for (int pass = 0; pass < 2; pass++) {
        int *fill = NULL;
        if (pass == 1) {
            for (int c = 0; c < F->n; c++) A->p[c + 1] += A->p[c];
            fill = malloc(((size_t)F->n + 1) * sizeof *fill);
            if (!fill) return clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory");
            memcpy(fill, A->p, (size_t)F->n * sizeof *fill);
        }
        int outer = F->nz == -1 ? F->n : (F->nz == -2 ? F->m : 1);
        for (int o = 0; o < outer; o++) {
            long e0 = F->nz >= 0 ? 0 : F->p[o], e1 = F->nz >= 0 ? ne : F->p[o + 1];
            for (long e = e0; e < e1; e++) {
                int r, c;
                if (F->nz == -1) r = F->i[e], c = o;
                else if (F->nz == -2) r = o, c = F->i[e];
                else r = F->i[e], c = F->p[e];
                if (r < 0 || r >= F->m || c < 0 || c >= F->n) {
                    free(fill);
                    return clab_error_set(err, CLAB_EINVAL, "%s: %s: entry (%d, %d) outside %d x %d", file, name, r, c,
                                          F->m, F->n);
                }
                if (pass == 0) A->p[c + 1]++;
                else {
                    int k = fill[c]++;
                    A->i[k] = r;
                    A->x[k] = F->x[e];
                }
            }
        }
        free(fill);
    }
    return CLAB_OK;
}

static void free_fclib_matrix(struct fclib_matrix *F)
{
    if (!F) return;
    free(F->p);
    free(F->i);
    free(F->x);
    if (F->info) free(F->info->comment);
    free(F->info);
    free(F);
}

static void take_info(struct fclib_info *info, clab_fc_problem *fp)
{
    if (!info) return;
    if (info->title) snprintf(fp->title, sizeof fp->title, "%s", info->title);
    if (info->description) snprintf(fp->description, sizeof fp->description, "%s", info->description);
    free(info->title);
    free(info->description);
    free(info->math_info);
    free(info);
}

static double *dup(const double *x, size_t n)
{
    double *y = malloc((n ? n : 1) * sizeof *y);
    if (y && n) memcpy(y, x, n * sizeof *y);
    return y;
}

static int read_local(const char *path, clab_fc_problem *fp, clab_error *err)
{
    struct fclib_local *l = fclib_read_local(path);
    if (!l) return clab_error_set(err, CLAB_EIO, "%s: libfclib could not read the local form", path);
    int rc = from_fclib(l->W, &fp->W, path, "W", err);
    fp->nc = (size_t)l->W->m / 3;
    if (!rc) {
        fp->q = dup(l->q, 3 * fp->nc);
        fp->mu = dup(l->mu, fp->nc);
        if (!fp->q || !fp->mu) rc = clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory");
    }
    fp->has_local = !rc;
    free_fclib_matrix(l->W);
    free(l->q);
    free(l->mu);
    take_info(l->info, fp);
    free(l);
    return rc;
}

static int read_global(const char *path, clab_fc_problem *fp, clab_error *err)
{
    struct fclib_global *g = fclib_read_global(path);
    if (!g) return clab_error_set(err, CLAB_EIO, "%s: libfclib could not read the global form", path);
    int rc = from_fclib(g->M, &fp->M, path, "M", err);
    if (!rc) rc = from_fclib(g->H, &fp->H, path, "H", err);
    size_t nc = (size_t)g->H->n / 3;
    if (!rc && fp->has_local && nc != fp->nc)
        rc = clab_error_set(err, CLAB_EINVAL, "%s: the global form has %zu contacts, the local %zu", path, nc, fp->nc);
    if (!rc) {
        fp->f = dup(g->f, (size_t)g->M->m);
        fp->w = dup(g->w, 3 * nc);
        if (!fp->has_local) {
            fp->nc = nc;
            fp->mu = dup(g->mu, nc);
        }
        if (!fp->f || !fp->w || !fp->mu) rc = clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory");
    }
    fp->has_global = !rc;
    free_fclib_matrix(g->M);
    free_fclib_matrix(g->H);
    free(g->f);
    free(g->w);
    free(g->mu);
    if (fp->has_local) take_info(g->info, &(clab_fc_problem){0});
    else take_info(g->info, fp);
    free(g);
    return rc;
}

/* the local form from the global one: W = H^T M^-1 H, q = H^T M^-1 f + w (rigid-body M) */
static int local_from_global(const char *path, clab_fc_problem *fp, clab_error *err)
{
    size_t ng = (size_t)fp->M.n / 6, n = 3 * fp->nc;
    double *Minv = malloc((10 * ng + 1) * sizeof *Minv), *vf = malloc(((size_t)fp->M.n + 1) * sizeof *vf);
    int rc = Minv && vf ? CLAB_OK : clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory");
    if (!rc && clab_fc_M_inverse(&fp->M, Minv, err))
        rc = clab_error_set(err, CLAB_EINVAL, "%s: global form only, and %s", path, err->msg);
    if (!rc && clab_fc_form_W(&fp->H, Minv, &fp->W)) rc = clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory");
    if (!rc && !(fp->q = malloc((n ? n : 1) * sizeof *fp->q))) rc = clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory");
    for (size_t g = 0; !rc && g < ng; g++) { /* v_free = M^-1 f */
        const double *X = &Minv[10 * g], *f = &fp->f[6 * g];
        double *v = &vf[6 * g];
        for (int c = 0; c < 3; c++) v[c] = X[0] * f[c];
        for (int r = 0; r < 3; r++) v[3 + r] = X[1 + 3 * r] * f[3] + X[2 + 3 * r] * f[4] + X[3 + 3 * r] * f[5];
    }
    for (size_t k = 0; !rc && k < n; k++) {
        double s = fp->w[k];
        for (int e = fp->H.p[k]; e < fp->H.p[k + 1]; e++) s += fp->H.x[e] * vf[fp->H.i[e]];
        fp->q[k] = s;
    }
    free(Minv);
    free(vf);
    return rc;
}

/* /guesses/1/{r,u,v} when present with the right lengths */
static int read_guess(hid_t f, clab_fc_problem *fp)
{
    size_t n = 3 * fp->nc;
    if (ds_len(f, "/guesses/1/r") != (long)n) return 0;
    fp->r = malloc((n ? n : 1) * sizeof *fp->r);
    fp->u = malloc((n ? n : 1) * sizeof *fp->u);
    if (!fp->r || !fp->u || ds_read(f, "/guesses/1/r", H5T_NATIVE_DOUBLE, fp->r)) return 0;
    if (ds_len(f, "/guesses/1/u") == (long)n) {
        if (ds_read(f, "/guesses/1/u", H5T_NATIVE_DOUBLE, fp->u)) return 0;
    } else {
        clab_fc_local_velocity(fp, fp->r, fp->u);
    }
    if (fp->has_global && ds_len(f, "/guesses/1/v") == (long)fp->M.n) {
        fp->v = malloc(((size_t)fp->M.n + 1) * sizeof *fp->v);
        if (fp->v) ds_read(f, "/guesses/1/v", H5T_NATIVE_DOUBLE, fp->v);
    }
    return 1;
}

int clab_fc_read(const char *path, clab_fc_problem *fp, clab_error *err)
{
    clab_fc_init(fp);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    FILE *t = fopen(path, "rb");
    if (!t) return clab_error_set(err, CLAB_EIO, "fclib: cannot open %s", path);
    fclose(t);
    if (H5Fis_hdf5(path) <= 0)
        return clab_error_set(err, CLAB_EIO, "%s: not an HDF5 file (an FCLIB problem is one)", path);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return clab_error_set(err, CLAB_EIO, "%s: HDF5 could not open it (damaged or truncated?)", path);
    int local, global;
    int rc = check_layout(f, path, &local, &global, err);
    H5Fclose(f);
    if (rc) return rc;
    if (local) rc = read_local(path, fp, err);
    if (!rc && global) rc = read_global(path, fp, err);
    if (!rc && !local) rc = local_from_global(path, fp, err);
    if (!rc) {
        f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        if (f >= 0) {
            fp->has_guess = read_guess(f, fp);
            H5Fclose(f);
        }
        if (!fp->has_guess) {
            free(fp->r), free(fp->u), free(fp->v);
            fp->r = fp->u = fp->v = NULL;
        }
    }
    if (rc) clab_fc_free(fp);
    return rc;
}

double clab_fc_merit_fclib(const clab_fc_problem *fp, const double *r)
{
    struct fclib_matrix Fw;
    struct fclib_local l;
    memset(&l, 0, sizeof l);
    l.W = to_fclib(&fp->W, &Fw);
    l.q = fp->q;
    l.mu = fp->mu;
    l.spacedim = 3;
    struct fclib_solution s = {NULL, NULL, (double *)r, NULL};
    return fclib_merit_local(&l, MERIT_1, &s);
}
