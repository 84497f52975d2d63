/* lammps_data.c: the LAMMPS atom_style sphere data-file importer (clab_lammps.h).
 * Two passes over the text in memory: parse (header, sections, every number checked and
 * kept with its line), then build (sort by id, match velocities, add materials and bodies). */
#include "clab_lammps.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define LINE_MAX_LEN 4096
#define MAX_TOKENS 16

/* one Atoms line */
typedef struct atom_rec {
    long id;
    int type;
    double d, density;
    double x[3];
    double v[3], w[3]; /* from Velocities, zero when absent */
    long line;         /* line of the Atoms entry */
    long vline;        /* line of its Velocities entry, 0 when none */
} atom_rec;

/* one Velocities line, before it is matched to its atom */
typedef struct vel_rec {
    long id;
    double v[3], w[3];
    long line;
} vel_rec;

typedef struct parser {
    const char *name; /* file name for messages */
    const char *p;    /* next character of the text */
    long line;        /* number of the current line */
    char buf[LINE_MAX_LEN];
    char *tok[MAX_TOKENS];
    int ntok;
    char comment[LINE_MAX_LEN]; /* text after '#' on the current line */
    clab_error *err;
} parser;

clab_lammps_def clab_lammps_default_def(void)
{
    clab_lammps_def d;
    memset(&d, 0, sizeof d);
    return d;
}

void clab_lammps_info_free(clab_lammps_info *info)
{
    if (!info) return;
    free(info->id);
    info->id = NULL;
}

/* ---- lines and tokens ---- */

/* Read the next line into buf, comment cut off into comment, split into tokens; 0 at the end
 * of the text, -1 when the line is too long (err set). */
static int next_line(parser *ps)
{
    if (!*ps->p) return 0;
    const char *e = strchr(ps->p, '\n');
    size_t len = e ? (size_t)(e - ps->p) : strlen(ps->p);
    ps->line++;
    if (len >= LINE_MAX_LEN) {
        clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: line longer than %d characters", ps->name, ps->line,
                       LINE_MAX_LEN - 1);
        return -1;
    }
    memcpy(ps->buf, ps->p, len);
    ps->buf[len] = '\0';
    ps->p += len + (e ? 1 : 0);
    /* comment */
    ps->comment[0] = '\0';
    char *hash = strchr(ps->buf, '#');
    if (hash) {
        snprintf(ps->comment, sizeof ps->comment, "%s", hash + 1);
        *hash = '\0';
    }
    /* tokens */
    ps->ntok = 0;
    char *s = ps->buf;
    while (*s) {
        while (*s && isspace((unsigned char)*s)) *s++ = '\0';
        if (!*s) break;
        if (ps->ntok == MAX_TOKENS) {
            clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: more than %d words on a line", ps->name, ps->line,
                           MAX_TOKENS);
            return -1;
        }
        ps->tok[ps->ntok++] = s;
        while (*s && !isspace((unsigned char)*s)) s++;
    }
    return 1;
}

/* a line that starts a section (or is a header keyword line): its first word starts with a letter */
static int is_keyword_line(const parser *ps) { return ps->ntok > 0 && isalpha((unsigned char)ps->tok[0][0]); }

/* the line's words from k on, joined by single spaces */
static void words_from(const parser *ps, int k, char *out, size_t size)
{
    out[0] = '\0';
    size_t len = 0;
    for (int i = k; i < ps->ntok && len + 1 < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%s%s", i > k ? " " : "", ps->tok[i]);
}

static int parse_double(parser *ps, const char *section, int col, const char *what, double *out)
{
    const char *s = ps->tok[col];
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(v))
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: %s: column %d (%s) = '%s' is not a finite number",
                              ps->name, ps->line, section, col + 1, what, s);
    *out = v;
    return CLAB_OK;
}

static int parse_long(parser *ps, const char *section, int col, const char *what, long *out)
{
    const char *s = ps->tok[col];
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE)
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: %s: column %d (%s) = '%s' is not a whole number",
                              ps->name, ps->line, section, col + 1, what, s);
    *out = v;
    return CLAB_OK;
}

/* ---- header ---- */

typedef struct header {
    long natoms, natoms_line; /* count and its line (0: not given) */
    long ntypes, ntypes_line;
    double lo[3], hi[3];
} header;

/* counts that must be zero for atom_style sphere */
static const char *const zero_counts[] = {"bonds",          "angles",         "dihedrals",          "impropers",
                                          "bond types",     "angle types",    "dihedral types",     "improper types",
                                          "ellipsoids",     "lines",          "triangles",          "bodies",
                                          "extra bond per atom", "extra angle per atom", "extra dihedral per atom",
                                          "extra improper per atom", "extra special per atom", NULL};

/* One header line: "N keyword(s)" or "lo hi xlo xhi" (and y, z); triclinic refused. */
static int header_line(parser *ps, header *hd)
{
    char kw[256];
    static const char *const axes[3][2] = {{"xlo", "xhi"}, {"ylo", "yhi"}, {"zlo", "zhi"}};
    for (int k = 0; k < 3; k++)
        if (ps->ntok == 4 && strcmp(ps->tok[2], axes[k][0]) == 0 && strcmp(ps->tok[3], axes[k][1]) == 0) {
            double lo, hi;
            if (parse_double(ps, "header", 0, axes[k][0], &lo) || parse_double(ps, "header", 1, axes[k][1], &hi))
                return CLAB_EINVAL;
            if (!(lo < hi))
                return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: header: %s = %g, %s = %g: need %s < %s", ps->name,
                                      ps->line, axes[k][0], lo, axes[k][1], hi, axes[k][0], axes[k][1]);
            hd->lo[k] = lo;
            hd->hi[k] = hi;
            return CLAB_OK;
        }
    if (ps->ntok == 6 && strcmp(ps->tok[3], "xy") == 0)
        return clab_error_set(ps->err, CLAB_EINVAL,
                              "%s:%ld: header: a triclinic box (xy xz yz) is not supported; only orthogonal boxes",
                              ps->name, ps->line);
    long n;
    if (ps->ntok < 2) {
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: header: '%s' is not a header line (\"N atoms\", "
                              "\"N atom types\", \"lo hi xlo xhi\", ...)", ps->name, ps->line, ps->tok[0]);
    }
    if (parse_long(ps, "header", 0, "count", &n)) return CLAB_EINVAL;
    words_from(ps, 1, kw, sizeof kw);
    if (n < 0)
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: header: %ld %s: a count must be >= 0", ps->name, ps->line,
                              n, kw);
    if (strcmp(kw, "atoms") == 0) {
        hd->natoms = n;
        hd->natoms_line = ps->line;
        return CLAB_OK;
    }
    if (strcmp(kw, "atom types") == 0) {
        if (n > 1000000)
            return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: header: %ld atom types: at most 1000000", ps->name,
                                  ps->line, n);
        hd->ntypes = n;
        hd->ntypes_line = ps->line;
        return CLAB_OK;
    }
    for (size_t i = 0; zero_counts[i]; i++)
        if (strcmp(kw, zero_counts[i]) == 0) {
            if (n == 0) return CLAB_OK;
            return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: header: %ld %s: atom_style sphere has none (only "
                                  "atoms and atom types are read)", ps->name, ps->line, n, kw);
        }
    return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: header: unknown keyword '%s' (known: atoms, atom types, "
                          "xlo xhi, ylo yhi, zlo zhi, and zero counts of bonds, angles, ...)", ps->name, ps->line, kw);
}

/* ---- sections ---- */

typedef struct data {
    header hd;
    atom_rec *atoms;
    long natoms, cap_atoms;
    vel_rec *vels;
    long nvels, cap_vels;
    long atoms_line, vels_line; /* lines of the section keywords, 0 when absent */
} data;

static int grow(void **p, long n, long *cap, size_t sz)
{
    if (n < *cap) return CLAB_OK;
    long c = *cap ? 2 * *cap : 1024;
    void *q = realloc(*p, (size_t)c * sz);
    if (!q) return CLAB_ENOMEM;
    *p = q;
    *cap = c;
    return CLAB_OK;
}

/* Atoms: id type diameter density x y z [ix iy iz] */
static int atoms_line(parser *ps, data *dt)
{
    static const char *sec = "Atoms";
    if (ps->ntok != 7 && ps->ntok != 10)
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Atoms: %d columns; atom_style sphere has 7 (id type "
                              "diameter density x y z) or 10 (with image flags ix iy iz)", ps->name, ps->line, ps->ntok);
    if (dt->natoms == dt->hd.natoms)
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Atoms: more entries than the %ld atoms of the header "
                              "(line %ld)", ps->name, ps->line, dt->hd.natoms, dt->hd.natoms_line);
    if (grow((void **)&dt->atoms, dt->natoms, &dt->cap_atoms, sizeof *dt->atoms))
        return clab_error_set(ps->err, CLAB_ENOMEM, "%s:%ld: out of memory for %ld atoms", ps->name, ps->line,
                              dt->natoms + 1);
    atom_rec *a = &dt->atoms[dt->natoms];
    memset(a, 0, sizeof *a);
    long type, img;
    static const char *const xs[3] = {"x", "y", "z"}, *const is[3] = {"ix", "iy", "iz"};
    if (parse_long(ps, sec, 0, "id", &a->id) || parse_long(ps, sec, 1, "type", &type) ||
        parse_double(ps, sec, 2, "diameter", &a->d) || parse_double(ps, sec, 3, "density", &a->density))
        return CLAB_EINVAL;
    for (int k = 0; k < 3; k++)
        if (parse_double(ps, sec, 4 + k, xs[k], &a->x[k])) return CLAB_EINVAL;
    if (ps->ntok == 10)
        for (int k = 0; k < 3; k++)
            if (parse_long(ps, sec, 7 + k, is[k], &img)) return CLAB_EINVAL;
    if (a->id < 1)
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Atoms: id = %ld: atom ids must be >= 1", ps->name,
                              ps->line, a->id);
    if (type < 1 || type > dt->hd.ntypes)
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Atoms: atom %ld: type = %ld: allowed 1..%ld (the "
                              "header's atom types)", ps->name, ps->line, a->id, type, dt->hd.ntypes);
    if (a->d == 0.0)
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Atoms: atom %ld: diameter = 0 is a point particle "
                              "(its density column would be a mass); contactlab needs spheres of diameter > 0",
                              ps->name, ps->line, a->id);
    if (!(a->d > 0.0))
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Atoms: atom %ld: diameter = %g must be > 0", ps->name,
                              ps->line, a->id, a->d);
    if (!(a->density > 0.0))
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Atoms: atom %ld: density = %g must be > 0", ps->name,
                              ps->line, a->id, a->density);
    a->type = (int)type;
    a->line = ps->line;
    dt->natoms++;
    return CLAB_OK;
}

/* Velocities: id vx vy vz wx wy wz */
static int velocities_line(parser *ps, data *dt)
{
    static const char *sec = "Velocities";
    static const char *const names[6] = {"vx", "vy", "vz", "wx", "wy", "wz"};
    if (ps->ntok != 7)
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Velocities: %d columns; atom_style sphere has 7 (id vx "
                              "vy vz wx wy wz)", ps->name, ps->line, ps->ntok);
    if (dt->nvels == dt->hd.natoms)
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Velocities: more entries than the %ld atoms of the "
                              "header (line %ld)", ps->name, ps->line, dt->hd.natoms, dt->hd.natoms_line);
    if (grow((void **)&dt->vels, dt->nvels, &dt->cap_vels, sizeof *dt->vels))
        return clab_error_set(ps->err, CLAB_ENOMEM, "%s:%ld: out of memory", ps->name, ps->line);
    vel_rec *v = &dt->vels[dt->nvels];
    if (parse_long(ps, sec, 0, "id", &v->id)) return CLAB_EINVAL;
    for (int k = 0; k < 6; k++)
        if (parse_double(ps, sec, 1 + k, names[k], k < 3 ? &v->v[k] : &v->w[k - 3])) return CLAB_EINVAL;
    v->line = ps->line;
    dt->nvels++;
    return CLAB_OK;
}

/* the number of entries a finished section must have */
static int check_count(parser *ps, const char *section, long sline, long got, const header *hd)
{
    if (got == hd->natoms) return CLAB_OK;
    return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: %s: %ld entries, but the header (line %ld) says %ld atoms",
                          ps->name, sline, section, got, hd->natoms_line, hd->natoms);
}

/* Parse the whole text into dt. */
static int parse(parser *ps, data *dt)
{
    int r;
    /* the first line is the title, always skipped */
    if ((r = next_line(ps)) <= 0)
        return r < 0 ? CLAB_EINVAL
                     : clab_error_set(ps->err, CLAB_EINVAL, "%s: empty file (a LAMMPS data file starts with a title "
                                      "line and a header)", ps->name);
    /* header: until the first section keyword */
    while ((r = next_line(ps)) > 0) {
        if (ps->ntok == 0) continue;
        if (is_keyword_line(ps)) break;
        if (header_line(ps, &dt->hd)) return CLAB_EINVAL;
    }
    if (r < 0) return CLAB_EINVAL;
    if (dt->hd.natoms_line == 0)
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: header: no \"N atoms\" line before the first section",
                              ps->name, ps->line);
    if (dt->hd.natoms == 0) /* as a scene's bodies = (): nothing to simulate */
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: header: 0 atoms; allowed: at least one atom", ps->name,
                              dt->hd.natoms_line);
    if (dt->hd.natoms > 0 && dt->hd.ntypes < 1)
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: header: no \"N atom types\" line (N >= 1)", ps->name,
                              ps->line);
    /* sections: r > 0 here means the current line is a section keyword */
    enum { NONE, ATOMS, VELOCITIES, SKIP } sec = NONE;
    const char *secname = "";
    char kw[256];
    long sline = 0;
    while (r > 0) {
        if (ps->ntok == 0) {
            r = next_line(ps);
            continue;
        }
        if (is_keyword_line(ps)) {
            /* close the section before */
            if (sec == ATOMS && check_count(ps, "Atoms", sline, dt->natoms, &dt->hd)) return CLAB_EINVAL;
            if (sec == VELOCITIES && check_count(ps, "Velocities", sline, dt->nvels, &dt->hd)) return CLAB_EINVAL;
            words_from(ps, 0, kw, sizeof kw);
            sline = ps->line;
            if (strcmp(kw, "Atoms") == 0) {
                char style[64] = "";
                sscanf(ps->comment, "%63s", style);
                if (style[0] && strcmp(style, "sphere") != 0)
                    return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Atoms # %s: only atom_style sphere (id type "
                                          "diameter density x y z) can be read", ps->name, ps->line, style);
                if (dt->atoms_line)
                    return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: a second Atoms section (the first at line "
                                          "%ld)", ps->name, ps->line, dt->atoms_line);
                dt->atoms_line = ps->line;
                sec = ATOMS;
                secname = "Atoms";
            } else if (strcmp(kw, "Velocities") == 0) {
                if (dt->vels_line)
                    return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: a second Velocities section (the first at "
                                          "line %ld)", ps->name, ps->line, dt->vels_line);
                dt->vels_line = ps->line;
                sec = VELOCITIES;
                secname = "Velocities";
            } else if (strcmp(kw, "Masses") == 0 || strcmp(kw, "Pair Coeffs") == 0 ||
                       strcmp(kw, "PairIJ Coeffs") == 0) {
                sec = SKIP; /* sphere masses come from diameter and density; forces from the backend */
                secname = "skipped";
            } else {
                return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: section '%s' is not supported (atom_style "
                                      "sphere: Atoms and Velocities are read, Masses and Pair Coeffs skipped)",
                                      ps->name, ps->line, kw);
            }
        } else if (sec == ATOMS) {
            if (atoms_line(ps, dt)) return CLAB_EINVAL;
        } else if (sec == VELOCITIES) {
            if (velocities_line(ps, dt)) return CLAB_EINVAL;
        } else if (sec == NONE) {
            return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: data line outside any section", ps->name, ps->line);
        }
        (void)secname;
        r = next_line(ps);
    }
    if (r < 0) return CLAB_EINVAL;
    ps->line++; /* messages about the end point past the last line */
    if (sec == ATOMS && check_count(ps, "Atoms", sline, dt->natoms, &dt->hd)) return CLAB_EINVAL;
    if (sec == VELOCITIES && check_count(ps, "Velocities", sline, dt->nvels, &dt->hd)) return CLAB_EINVAL;
    if (!dt->atoms_line && dt->hd.natoms > 0)
        return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: no Atoms section (the header, line %ld, says %ld atoms)",
                              ps->name, ps->line, dt->hd.natoms_line, dt->hd.natoms);
    return CLAB_OK;
}

/* ---- build ---- */

static int by_id(const void *a, const void *b)
{
    long x = ((const atom_rec *)a)->id, y = ((const atom_rec *)b)->id;
    return (x > y) - (x < y);
}

static atom_rec *find_atom(data *dt, long id)
{
    long lo = 0, hi = dt->natoms - 1;
    while (lo <= hi) {
        long mid = lo + (hi - lo) / 2;
        if (dt->atoms[mid].id == id) return &dt->atoms[mid];
        if (dt->atoms[mid].id < id) lo = mid + 1;
        else hi = mid - 1;
    }
    return NULL;
}

/* material index of every type 1..ntypes that has atoms; mat[t] */
static int type_materials(parser *ps, clab_world *w, const clab_lammps_def *def, const data *dt, int *mat)
{
    char *used = calloc((size_t)dt->hd.ntypes + 1, 1);
    if (!used) return clab_error_set(ps->err, CLAB_ENOMEM, "%s: out of memory", ps->name);
    for (long i = 0; i < dt->natoms; i++) used[dt->atoms[i].type] = 1;
    int rc = CLAB_OK;
    for (long t = 1; t <= dt->hd.ntypes && !rc; t++) {
        mat[t] = 0;
        if (!used[t]) continue;
        if (def->type_material && (size_t)t < def->ntype_material) {
            int m = def->type_material[t];
            if (m < 0 || (size_t)m >= w->nmaterials)
                rc = clab_error_set(ps->err, CLAB_EINVAL, "%s: atom type %ld is mapped to material index %d, which "
                                    "does not exist (%zu materials)", ps->name, t, m, w->nmaterials);
            mat[t] = m;
            continue;
        }
        clab_material m = def->material ? *def->material : clab_default_material();
        snprintf(m.name, sizeof m.name, "lammps_type%ld", t);
        int idx = clab_world_find_material(w, m.name);
        if (idx < 0) idx = clab_world_add_material(w, &m, ps->err);
        if (idx < 0) rc = ps->err ? ps->err->status : CLAB_EINVAL;
        mat[t] = idx;
    }
    free(used);
    return rc;
}

static int build(parser *ps, data *dt, clab_world *w, const clab_lammps_def *def, clab_lammps_info *info)
{
    /* atoms in increasing id; duplicate ids are neighbours then */
    qsort(dt->atoms, (size_t)dt->natoms, sizeof *dt->atoms, by_id);
    for (long i = 1; i < dt->natoms; i++)
        if (dt->atoms[i].id == dt->atoms[i - 1].id) {
            long l1 = dt->atoms[i - 1].line, l2 = dt->atoms[i].line;
            return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Atoms: atom id %ld appears twice (also at line %ld)",
                                  ps->name, l1 > l2 ? l1 : l2, dt->atoms[i].id, l1 < l2 ? l1 : l2);
        }
    /* velocities onto their atoms */
    for (long i = 0; i < dt->nvels; i++) {
        const vel_rec *v = &dt->vels[i];
        atom_rec *a = find_atom(dt, v->id);
        if (!a)
            return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Velocities: atom id %ld is not in the Atoms section",
                                  ps->name, v->line, v->id);
        if (a->vline)
            return clab_error_set(ps->err, CLAB_EINVAL, "%s:%ld: Velocities: atom id %ld appears twice (also at line "
                                  "%ld)", ps->name, v->line, v->id, a->vline);
        memcpy(a->v, v->v, sizeof a->v);
        memcpy(a->w, v->w, sizeof a->w);
        a->vline = v->line;
    }
    /* materials per type */
    int *mat = malloc(((size_t)dt->hd.ntypes + 1) * sizeof *mat);
    long *ids = malloc(((size_t)dt->natoms + 1) * sizeof *ids);
    if (!mat || !ids) {
        free(mat);
        free(ids);
        return clab_error_set(ps->err, CLAB_ENOMEM, "%s: out of memory for %ld atoms", ps->name, dt->natoms);
    }
    int rc = type_materials(ps, w, def, dt, mat);
    /* periodic axes on the box bounds */
    for (int k = 0; k < 3 && !rc; k++)
        if (def->periodic[k] && clab_world_set_periodic(w, k, dt->hd.lo[k], dt->hd.hi[k], ps->err))
            rc = ps->err ? ps->err->status : CLAB_EINVAL;
    /* one sphere per atom */
    size_t first = w->nbodies;
    long nfixed = 0;
    for (long i = 0; i < dt->natoms && !rc; i++) {
        const atom_rec *a = &dt->atoms[i];
        clab_body_def b = clab_default_body_def();
        b.shape = clab_sphere(0.5 * a->d);
        b.mass = a->density * M_PI * a->d * a->d * a->d / 6.0; /* LAMMPS: rho 4/3 pi (d/2)^3 */
        b.r = clab_v3(a->x[0], a->x[1], a->x[2]);
        b.rdot = clab_v3(a->v[0], a->v[1], a->v[2]);
        b.omega = clab_v3(a->w[0], a->w[1], a->w[2]);
        b.material = mat[a->type];
        if (def->fixed) b.fixed = def->fixed(a->id, a->type, def->ctx) != 0;
        else b.fixed = def->type_fixed && (size_t)a->type < def->ntype_fixed && def->type_fixed[a->type] != 0;
        nfixed += b.fixed;
        if (clab_world_add_body(w, &b, ps->err) < 0) {
            rc = ps->err ? ps->err->status : CLAB_EINVAL;
            if (ps->err) {
                char msg[CLAB_ERROR_LEN];
                snprintf(msg, sizeof msg, "%s", ps->err->msg);
                clab_error_set(ps->err, rc, "%s:%ld: Atoms: atom %ld: %s", ps->name, a->line, a->id, msg);
            }
            break;
        }
        ids[i] = a->id;
    }
    free(mat);
    if (rc || !info) {
        free(ids);
        return rc;
    }
    for (int k = 0; k < 3; k++) {
        info->lo[k] = dt->hd.lo[k];
        info->hi[k] = dt->hd.hi[k];
    }
    info->natoms = dt->natoms;
    info->ntypes = (int)dt->hd.ntypes;
    info->nvelocities = dt->nvels;
    info->nfixed = nfixed;
    info->first = first;
    info->id = ids;
    return CLAB_OK;
}

int clab_lammps_read_data_string(const char *text, const char *name, clab_world *w, const clab_lammps_def *def,
                                 clab_lammps_info *info, clab_error *err)
{
    clab_lammps_def d0 = clab_lammps_default_def();
    if (!def) def = &d0;
    if (info) memset(info, 0, sizeof *info);
    parser *ps = calloc(1, sizeof *ps);
    if (!ps) return clab_error_set(err, CLAB_ENOMEM, "out of memory");
    ps->name = name ? name : "<string>";
    ps->p = text;
    ps->err = err;
    data dt;
    memset(&dt, 0, sizeof dt);
    for (int k = 0; k < 3; k++) { /* LAMMPS's default box */
        dt.hd.lo[k] = -0.5;
        dt.hd.hi[k] = 0.5;
    }
    int rc = parse(ps, &dt);
    if (!rc) rc = build(ps, &dt, w, def, info);
    free(dt.atoms);
    free(dt.vels);
    free(ps);
    return rc;
}

int clab_lammps_read_data(const char *path, clab_world *w, const clab_lammps_def *def, clab_lammps_info *info,
                          clab_error *err)
{
    if (info) memset(info, 0, sizeof *info);
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        char why[256];
        if (strerror_r(e, why, sizeof why) != 0) snprintf(why, sizeof why, "error %d", e);
        return clab_error_set(err, CLAB_EIO, "%s: cannot open the LAMMPS data file: %s", path, why);
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 65536) {
            size_t c = cap ? 2 * cap : 1 << 20;
            char *q = realloc(text, c + 1);
            if (!q) {
                free(text);
                fclose(f);
                return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory reading the file", path);
            }
            text = q;
            cap = c;
        }
        size_t n = fread(text + len, 1, cap - len, f);
        len += n;
        if (n == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        return clab_error_set(err, CLAB_EIO, "%s: read error", path);
    }
    text[len] = '\0';
    if (memchr(text, '\0', len)) {
        free(text);
        return clab_error_set(err, CLAB_EINVAL, "%s: not a text file (contains NUL bytes)", path);
    }
    int rc = clab_lammps_read_data_string(text, path, w, def, info, err);
    free(text);
    return rc;
}
