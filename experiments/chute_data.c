/* chute_data.c: the chute's physics as contactlab options, and a packing of the chute's kind
 * made by contactlab itself (chute_data.h).
 *
 * LAMMPS's bench/data.chute is a restart of a long chute flow (Silbert, Ertas, Grest, Halsey,
 * Levine, Plimpton, PRE 64 (2001) 051302): 31,088 spheres of diameter 1 and density 1 flowing
 * on a rough base of 912 frozen ones, floor 40 x 20 periodic in x and y, packing fraction about
 * 0.57, a Bagnold velocity profile (surface speed 14.5, fluctuations 0.2-0.4 a component).
 * The packing made here is of that kind, from a seed, in four steps:
 *
 *   1. the rough base: a jittered grid of frozen spheres (type 2), 38 x 24 over 40 x 20 (the
 *      file's 912 a 800 area), each moved by up to 10 % of its cell in x and y and set at a
 *      height z uniform in [0, 0.3): no gap wide enough to let a sphere of diameter 1 through;
 *   2. the flowing spheres (type 1), dropped one by one onto what is there: their (x, y) the
 *      sites of triangular layers (nx columns a period, ny rows, odd rows shifted half a
 *      column; each layer shifted by (ax/2, ay/3) over the one below), moved by up to 2e-5;
 *      each sphere's height the lowest at which every sphere already placed is at least
 *      1 + g away (g = 1e-4): it rests, a gap g above, on the highest sphere under it. No
 *      two spheres overlap; the last layer's sites a random subset;
 *   3. settling: 2,000 steps (0.2 time units) of the chute itself under contactlab's penalty
 *      backend with in.chute's law and gravity, h = 1e-4, bodies in their built order (no
 *      sort), the velocities zeroed every 100 steps (quenched, as bench pile settles): the
 *      gaps close and the weight loads the contacts;
 *   4. velocities: Bagnold's profile of a steady chute flow (Silbert et al. 2001),
 *      v_x = U (1 - (1 - zeta)^(3/2)), zeta = (z - z_min + 1/2) / (z_max - z_min + 1) over
 *      the flowing spheres, U = 14.5 (the surface speed of LAMMPS's file), plus Gaussian
 *      fluctuations of 0.25 in each component (the file's are 0.2 to 0.4); angular velocity
 *      half the shear rate about y (rolling with the shear) plus Gaussian fluctuations of 1 in
 *      each component.
 *
 * The state is written with the positions wrapped into the box (z from 0 to the top sphere
 * plus 1, rounded up) and no tangential history, as LAMMPS's file. Beside LAMMPS's file
 * (bench chute, 100 steps): box height 38 against 37.3, 0.60 contacts a moving sphere against
 * 0.48, 2.9 candidate pairs a sphere against 3.6, 3 pair-list builds against 2.
 *
 * Every random number comes from GSL's MT19937 with seed 1, and the steps' results do not
 * depend on the thread count (doc/penalty.md), so the file is the same on every run. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "bench_lammps.h"
#include "chute_data.h"
#include "clab_sim.h"
#include "xp.h"

#define GEN_SEED 1UL
#define GEN_GAP 1e-4      /* g: the gap between nearest neighbours of the lattice */
#define GEN_JITTER 2e-5   /* largest move of a lattice coordinate */
#define GEN_BASE_Z 0.3    /* base spheres' heights: uniform in [0, GEN_BASE_Z) */
#define GEN_U 14.5        /* Bagnold profile's surface speed */
#define GEN_SIGMA_V 0.25  /* velocity fluctuations, each component */
#define GEN_SIGMA_W 1.0   /* angular velocity fluctuations, each component */
#define GEN_STEPS 2000L   /* settling steps under the chute's law and gravity */
#define GEN_QUENCH 100    /* settling: velocities zeroed every GEN_QUENCH steps */
/* the generator's name in the data file's title (at most 16 words in all, as clab_lammps_read_data
 * reads a line): a file with another title is not reused */
#define GEN_TITLE "contactlab chute packing 1: seed 1, dropped, 2000 quenched steps, Bagnold velocities"

clab_world *chute_world_create(int *material, clab_error *err)
{
    double a = CHUTE_ANGLE_DEG * M_PI / 180.0;
    /* LAMMPS fix gravity chute: theta = 180 - angle from +z, phi = 0: g (sin a, 0, -cos a) */
    clab_world_def wd = {{CHUTE_G * sin(a), 0.0, -CHUTE_G * cos(a)}};
    clab_world *w = clab_world_create(&wd);
    if (!w) {
        clab_error_set(err, CLAB_ENOMEM, "out of memory");
        return NULL;
    }
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "chute");
    m.mu = CHUTE_MU;
    *material = clab_world_add_material(w, &m, err);
    if (*material < 0) {
        clab_world_destroy(w);
        return NULL;
    }
    return w;
}

void chute_law_options(clab_options *o)
{
    char kt[64];
    snprintf(kt, sizeof kt, "%.17g", 2.0 / 7.0 * CHUTE_KN);
    clab_options_set(o, "model", "hooke", NULL);
    clab_options_set(o, "integrator", "verlet", NULL);
    clab_options_set(o, "kn", "200000", NULL);
    clab_options_set(o, "kt", kt, NULL);
    clab_options_set(o, "gn", "50", NULL);
    clab_options_set(o, "gt", "0", NULL); /* dampflag 0 */
    clab_options_set(o, "clamp", "off", NULL);        /* LAMMPS limit_damping off: the dashpot may pull */
    clab_options_set(o, "cap", "lammps", NULL);       /* |F_t| <= mu |F_n| */
    clab_options_set(o, "lever", "surface", NULL);    /* lever arms: the radii */
    clab_options_set(o, "history_start", "zero", NULL); /* setup does not advance the history */
    clab_options_set(o, "history_turn", "project", NULL); /* shear -= (shear . n) n */
}

/* the sizes of a packing: the floor Lx x Ly and the spheres in all */
typedef struct gen_size {
    double Lx, Ly;
    long ntotal;
} gen_size;

/* step 1: the rough base, nbx x nby frozen spheres */
static int add_base(clab_world *w, int mat, const gen_size *g, gsl_rng *r, long *nbase, clab_error *err)
{
    const long nbx = lround(g->Lx * 38.0 / 40.0), nby = lround(g->Ly * 24.0 / 20.0);
    const double bx = g->Lx / (double)nbx, by = g->Ly / (double)nby;
    clab_body_def d = clab_default_body_def();
    d.shape = clab_sphere(0.5);
    d.density = 1.0;
    d.fixed = 1;
    d.material = mat;
    for (long j = 0; j < nby; j++)
        for (long i = 0; i < nbx; i++) {
            const double x = ((double)i + 0.5 + 0.2 * (gsl_rng_uniform(r) - 0.5)) * bx;
            const double y = ((double)j + 0.5 + 0.2 * (gsl_rng_uniform(r) - 0.5)) * by;
            d.r = clab_v3(x, y, GEN_BASE_Z * gsl_rng_uniform(r));
            if (clab_world_add_body(w, &d, err) < 0) return -1;
        }
    *nbase = nbx * nby;
    return 0;
}

/* the deposition of step 2: columns of the floor a cell each (at least 1 + g wide), the
 * spheres placed so far in each, and the periodic floor */
typedef struct gen_bins {
    long ncx, ncy;
    double cx, cy, Lx, Ly;
    long *head, *next; /* [ncx ncy], [spheres]: each column's spheres as a list, -1 ends */
    clab_vec3 *p;      /* [spheres] positions */
    long n;
} gen_bins;

/* the lowest height at which a sphere at (x, y) is at least 1 + g from every sphere placed so
 * far (each a diameter 1): over those whose horizontal distance rho is below 1 + g, the
 * largest z_j + sqrt((1 + g)^2 - rho^2) */
static double gen_drop(const gen_bins *b, double x, double y)
{
    const double reach = 1.0 + GEN_GAP;
    const long i0 = (long)(x / b->cx), j0 = (long)(y / b->cy);
    double z = 0.0;
    for (long dj = -1; dj <= 1; dj++)
        for (long di = -1; di <= 1; di++) {
            const long i = (i0 + di + b->ncx) % b->ncx, j = (j0 + dj + b->ncy) % b->ncy;
            for (long q = b->head[j * b->ncx + i]; q >= 0; q = b->next[q]) {
                double dx = b->p[q].x - x, dy = b->p[q].y - y;
                dx -= b->Lx * round(dx / b->Lx); /* minimum image */
                dy -= b->Ly * round(dy / b->Ly);
                const double rho2 = dx * dx + dy * dy;
                if (rho2 < reach * reach) z = fmax(z, b->p[q].z + sqrt(reach * reach - rho2));
            }
        }
    return z;
}

static void gen_put(gen_bins *b, clab_vec3 p)
{
    long i = (long)(p.x / b->cx), j = (long)(p.y / b->cy);
    if (i >= b->ncx) i = b->ncx - 1;
    if (j >= b->ncy) j = b->ncy - 1;
    b->p[b->n] = p;
    b->next[b->n] = b->head[j * b->ncx + i];
    b->head[j * b->ncx + i] = b->n++;
}

/* step 2: nflow spheres dropped onto the base over the stacked triangular layers' sites */
static int add_flow(clab_world *w, int mat, const gen_size *g, long nflow, gsl_rng *r, clab_error *err)
{
    const long nx = lround(g->Lx / 1.2), ny = 2 * lround(g->Ly / 2.0);
    const double ax = g->Lx / (double)nx, ay = g->Ly / (double)ny;
    /* in-plane neighbours at ax and hypot(ax/2, ay): a layer's spheres never touch */
    const double margin = 1.0 + GEN_GAP + 4.0 * GEN_JITTER;
    if (ax < margin || hypot(0.5 * ax, ay) < margin)
        return clab_error_set(err, CLAB_EINVAL, "chute packing: floor %g x %g too small for its layers", g->Lx, g->Ly);
    const long per = nx * ny, layers = (nflow + per - 1) / per, last = nflow - (layers - 1) * per;
    const size_t nbase = w->nbodies, ntot = nbase + (size_t)nflow;
    gen_bins b = {(long)(g->Lx / (1.0 + GEN_GAP)), (long)(g->Ly / (1.0 + GEN_GAP)), 0, 0, g->Lx, g->Ly,
                  NULL, NULL, NULL, 0};
    b.cx = g->Lx / (double)b.ncx;
    b.cy = g->Ly / (double)b.ncy;
    b.head = malloc((size_t)(b.ncx * b.ncy) * sizeof *b.head);
    b.next = malloc(ntot * sizeof *b.next);
    b.p = malloc(ntot * sizeof *b.p);
    long *pick = malloc((size_t)per * sizeof *pick);
    char *used = calloc((size_t)per, 1);
    int rc = 0;
    if (!b.head || !b.next || !b.p || !pick || !used) {
        rc = clab_error_set(err, CLAB_ENOMEM, "out of memory");
        goto done;
    }
    for (long q = 0; q < b.ncx * b.ncy; q++) b.head[q] = -1;
    for (size_t k = 0; k < nbase; k++) gen_put(&b, w->bodies[k].r);
    /* the sites of the last layer: a random subset */
    for (long q = 0; q < per; q++) pick[q] = q;
    gsl_ran_shuffle(r, pick, (size_t)per, sizeof *pick);
    for (long q = 0; q < last; q++) used[pick[q]] = 1;
    for (long k = 0; k < layers; k++)
        for (long q = 0; q < per; q++) {
            if (k == layers - 1 && !used[q]) continue;
            const long i = q % nx, j = q / nx;
            double x = ((double)i + 0.5 * (double)(j & 1) + 0.5 * (double)k) * ax;
            double y = ((double)j + (double)k / 3.0) * ay;
            x = fmod(x + GEN_JITTER * (2.0 * gsl_rng_uniform(r) - 1.0) + 2.0 * g->Lx, g->Lx);
            y = fmod(y + GEN_JITTER * (2.0 * gsl_rng_uniform(r) - 1.0) + 2.0 * g->Ly, g->Ly);
            gen_put(&b, clab_v3(x, y, gen_drop(&b, x, y)));
        }
    clab_body_def d = clab_default_body_def();
    d.shape = clab_sphere(0.5);
    d.density = 1.0;
    d.material = mat;
    for (size_t q = nbase; q < ntot && !rc; q++) {
        d.r = b.p[q];
        if (clab_world_add_body(w, &d, err) < 0) rc = -1;
    }
done:
    free(b.head);
    free(b.next);
    free(b.p);
    free(pick);
    free(used);
    return rc;
}

/* step 4: the velocities of the moving bodies (from body nbase on) */
static void set_velocities(clab_world *w, size_t nbase, gsl_rng *r)
{
    double z0 = INFINITY, z1 = -INFINITY;
    for (size_t q = nbase; q < w->nbodies; q++) {
        z0 = fmin(z0, w->bodies[q].r.z);
        z1 = fmax(z1, w->bodies[q].r.z);
    }
    const double H = z1 - z0 + 1.0; /* zeta = (z - z0 + 1/2) / H, in (0, 1) */
    for (size_t q = nbase; q < w->nbodies; q++) {
        clab_body *b = &w->bodies[q];
        /* Bagnold: v_x = U (1 - (1 - zeta)^(3/2)), dv_x/dz = 3/2 U (1 - zeta)^(1/2) / H */
        const double zeta = (b->r.z - z0 + 0.5) / H;
        const double shear = 1.5 * GEN_U * sqrt(1.0 - zeta) / H;
        b->rdot = clab_v3(GEN_U * (1.0 - pow(1.0 - zeta, 1.5)) + gsl_ran_gaussian(r, GEN_SIGMA_V),
                          gsl_ran_gaussian(r, GEN_SIGMA_V), gsl_ran_gaussian(r, GEN_SIGMA_V));
        /* world frame; A(e) is the identity (sphere_orientation=off keeps e as added) */
        const clab_vec3 om = clab_v3(gsl_ran_gaussian(r, GEN_SIGMA_W), 0.5 * shear + gsl_ran_gaussian(r, GEN_SIGMA_W),
                                     gsl_ran_gaussian(r, GEN_SIGMA_W));
        b->wbar = clab_q_rotate_inv(b->e, om);
    }
}

/* in.chute for the data file beside it: LAMMPS's bench/in.chute */
static const char chute_input[] =
    "# Granular chute flow on a 26 degree incline (LAMMPS's bench/in.chute), on data.chute made by\n"
    "# contactlab bench chute (doc/lammps.md). Hookean contacts with tangential history; reduced units.\n"
    "units           lj\n"
    "atom_style      sphere\n"
    "boundary        p p fs\n"
    "newton          off\n"
    "comm_modify     vel yes\n"
    "read_data       data.chute\n"
    "pair_style      gran/hooke/history 200000.0 NULL 50.0 NULL 0.5 0\n"
    "pair_coeff      * *\n"
    "neighbor        0.1 bin\n"
    "neigh_modify    every 1 delay 0\n"
    "timestep        0.0001\n"
    "group           bottom type 2\n"
    "group           active subtract all bottom\n"
    "neigh_modify    exclude group bottom bottom\n"
    "fix             1 all gravity 1.0 chute 26.0\n"
    "fix             2 bottom freeze\n"
    "fix             3 active nve/sphere\n"
    "compute         1 all erotate/sphere\n"
    "thermo_style    custom step atoms ke c_1 vol\n"
    "thermo_modify   norm no\n"
    "thermo          100\n"
    "run             100\n";

/* step 3: the settling, quenched */
static int run_chute(clab_world *w, clab_error *err)
{
    clab_options o;
    clab_options_init(&o);
    chute_law_options(&o);
    clab_options_set(&o, "sphere_orientation", "off", NULL);
    clab_options_set(&o, "skin", "0.1", NULL);
    clab_options_set(&o, "sort", "0", NULL);
    clab_sim *s = clab_sim_create(w, "penalty", CHUTE_H, &o, err);
    clab_options_free(&o);
    if (!s) return -1;
    int rc = 0;
    for (long k = 0; k < GEN_STEPS && !rc; k++) {
        rc = clab_sim_step(s, err);
        if ((k + 1) % GEN_QUENCH == 0)
            for (size_t i = 0; i < w->nbodies; i++) w->bodies[i].rdot = w->bodies[i].wbar = clab_v3(0.0, 0.0, 0.0);
    }
    clab_sim_destroy(s);
    return rc;
}

int chute_make_data(const char *dir, int quick)
{
    const gen_size g = quick ? (gen_size){10.0, 5.0, 2000} : (gen_size){40.0, 20.0, 32000};
    char data[1200], in[1200];
    if (snprintf(data, sizeof data, "%s/data.chute", dir) >= (int)sizeof data ||
        snprintf(in, sizeof in, "%s/in.chute", dir) >= (int)sizeof in) {
        fprintf(stderr, "contactlab bench chute: folder name too long: %s\n", dir);
        return -1;
    }
    if (xp_mkdir_p(dir)) {
        fprintf(stderr, "contactlab bench chute: cannot create %s: %s\n", dir, strerror(errno));
        return -1;
    }
    clab_error err;
    clab_error_clear(&err);
    int mat;
    clab_world *w = chute_world_create(&mat, &err);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    long nbase = 0;
    int rc = w && r ? 0 : -1;
    if (r) gsl_rng_set(r, GEN_SEED);
    if (!rc) rc = clab_world_set_periodic(w, 0, 0.0, g.Lx, &err) || clab_world_set_periodic(w, 1, 0.0, g.Ly, &err);
    if (!rc) rc = add_base(w, mat, &g, r, &nbase, &err);
    if (!rc) rc = add_flow(w, mat, &g, g.ntotal - nbase, r, &err);
    printf("  making the chute's data in %s: %ld spheres (%ld frozen), floor %g x %g, %ld steps of the chute...\n",
           dir, g.ntotal, nbase, g.Lx, g.Ly, GEN_STEPS);
    fflush(stdout);
    if (!rc) rc = run_chute(w, &err);
    if (!rc) set_velocities(w, (size_t)nbase, r);
    if (r) gsl_rng_free(r);
    if (rc) {
        fprintf(stderr, "contactlab bench chute: making the chute's data: %s\n", err.msg[0] ? err.msg : "out of memory");
        clab_world_destroy(w);
        return -1;
    }
    double zmax = 0.0;
    for (size_t i = 0; i < w->nbodies; i++) zmax = fmax(zmax, w->bodies[i].r.z);
    const double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {g.Lx, g.Ly, ceil(zmax + 1.0)};
    rc = bench_write_lammps_data(data, GEN_TITLE, w, 2, 1.0, lo, hi);
    clab_world_destroy(w);
    FILE *f = rc ? NULL : fopen(in, "w");
    if (f) {
        fputs(chute_input, f);
        rc = fclose(f) == 0 ? 0 : -1;
    }
    if (rc || !f) {
        fprintf(stderr, "contactlab bench chute: cannot write %s or %s: %s\n", data, in, strerror(errno));
        return -1;
    }
    printf("  wrote %s and %s\n", data, in);
    return 0;
}

/* 1 when path's first line is this generator's title */
static int ours(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[256];
    int yes = fgets(line, sizeof line, f) && strcmp(line, "LAMMPS data file: " GEN_TITLE "\n") == 0;
    fclose(f);
    return yes;
}

int chute_default_data(const char *out, int quick, char *dir, size_t n)
{
    if (snprintf(dir, n, "%s/chute-data%s", out, quick ? "-quick" : "") >= (int)n) {
        fprintf(stderr, "contactlab bench chute: folder name too long: %s\n", out);
        return -1;
    }
    char data[1200], in[1200];
    snprintf(data, sizeof data, "%s/data.chute", dir);
    snprintf(in, sizeof in, "%s/in.chute", dir);
    FILE *f = fopen(in, "r");
    if (f) fclose(f);
    if (f && ours(data)) {
        printf("  the chute's data: %s (made by contactlab, reused)\n", data);
        return 0;
    }
    return chute_make_data(dir, quick);
}
