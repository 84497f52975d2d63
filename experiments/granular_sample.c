/* granular_sample.c: the sample the quasi-static granular tests start from (granular.h):
 * prepared once (a loose random packing dropped into a square box with friction off,
 * settled under gravity by the Hertz-Mindlin penalty method), saved as text, and loaded by
 * every method so that all of them start from the same packing. */
#include "config.h"

#include "clab_analytic.h"
#include "clab_measure.h"
#include "granular.h"
#include "pile_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GR_SAMPLE_MAGIC "# contactlab granular sample v1"

void gr_sample_free(gr_sample *s)
{
    free(s->x);
    free(s->R);
    memset(s, 0, sizeof *s);
}

double gr_sample_solid_fraction(const gr_sample *s)
{
    double vs = 0.0;
    for (size_t i = 0; i < s->n; i++) vs += 4.0 / 3.0 * M_PI * pow(s->R[i], 3);
    return vs / ((s->hi[0] - s->lo[0]) * (s->hi[1] - s->lo[1]) * (s->hi[2] - s->lo[2]));
}

double gr_sample_bulk_fraction(const gr_sample *s, double margin)
{
    clab_measure_box b;
    for (int k = 0; k < 3; k++) b.lo[k] = s->lo[k] + margin, b.hi[k] = s->hi[k] - margin;
    double vs = 0.0;
    for (size_t i = 0; i < s->n; i++)
        vs += clab_measure_sphere_in_box(clab_v3(s->x[3 * i], s->x[3 * i + 1], s->x[3 * i + 2]), s->R[i], &b);
    return vs / ((b.hi[0] - b.lo[0]) * (b.hi[1] - b.lo[1]) * (b.hi[2] - b.lo[2]));
}

double gr_hertz_kn(const gr_material *m, double R, double F)
{
    /* F = K delta^(3/2), K = 4/3 E* sqrt(R): dF/ddelta = 3/2 K delta^(1/2) = 3/2 K^(2/3) F^(1/3) */
    double K = clab_analytic_hertz_K(clab_analytic_hertz_Estar(m->E, m->nu, m->E, m->nu), R);
    return 1.5 * pow(K, 2.0 / 3.0) * cbrt(F);
}

int gr_sample_add(const gr_sample *s, const gr_material *m, int mat, clab_world *w, size_t *first, clab_error *err)
{
    *first = w->nbodies;
    for (size_t i = 0; i < s->n; i++) {
        clab_body_def d = clab_default_body_def();
        d.shape = clab_sphere(s->R[i]);
        d.mass = m->density * 4.0 / 3.0 * M_PI * pow(s->R[i], 3);
        d.material = mat;
        d.r = clab_v3(s->x[3 * i], s->x[3 * i + 1], s->x[3 * i + 2]);
        if (clab_world_add_body(w, &d, err) < 0) return -1;
    }
    return 0;
}

/* the first line of a sample file: what it was made from */
static void sample_key(const gr_sample_def *def, const gr_material *m, double L, char *buf, size_t n)
{
    snprintf(buf, n, "%s n=%zu d=%.17g L=%.17g seed=%lu density=%.17g E=%.17g nu=%.17g cor=%.17g", GR_SAMPLE_MAGIC,
             def->n, m->d, L, def->seed, m->density, m->E, m->nu, m->cor);
}

/* read the sample at path when its first line is key; 1: not there or another sample */
static int sample_read(const char *path, const char *key, gr_sample *s)
{
    FILE *f = fopen(path, "r");
    if (!f) return 1;
    char line[512];
    int rc = 1;
    if (!fgets(line, sizeof line, f) || strncmp(line, key, strlen(key)) != 0 || line[strlen(key)] != '\n') goto done;
    if (!fgets(line, sizeof line, f) ||
        sscanf(line, "box %lf %lf %lf %lf %lf %lf", &s->lo[0], &s->lo[1], &s->lo[2], &s->hi[0], &s->hi[1],
               &s->hi[2]) != 6)
        goto done;
    for (size_t i = 0; i < s->n; i++)
        if (fscanf(f, "%lf %lf %lf %lf", &s->x[3 * i], &s->x[3 * i + 1], &s->x[3 * i + 2], &s->R[i]) != 4) goto done;
    rc = 0;
done:
    fclose(f);
    return rc;
}

static int sample_write(const char *path, const char *key, const gr_sample *s)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "%s\nbox %.17g %.17g %.17g %.17g %.17g %.17g\n", key, s->lo[0], s->lo[1], s->lo[2], s->hi[0], s->hi[1],
            s->hi[2]);
    for (size_t i = 0; i < s->n; i++)
        fprintf(f, "%.17g %.17g %.17g %.17g\n", s->x[3 * i], s->x[3 * i + 1], s->x[3 * i + 2], s->R[i]);
    return fclose(f) ? -1 : 0;
}

/* drop the loose packing with friction off and settle it under the penalty method */
static int sample_prepare(const xp_common *c, const gr_sample_def *def, const gr_material *m, double L, gr_sample *s)
{
    xp_pile_def pd = xp_pile_default();
    pd.n = (int)def->n;
    pd.radius = 0.5 * m->d;
    pd.poly = 0.0;
    pd.density = m->density;
    pd.mu = pd.mu_wall = 0.0;
    pd.E = m->E;
    pd.nu = m->nu;
    pd.cor = m->cor;
    pd.width = L;
    pd.packing = XP_PILE_LOOSE;
    pd.phi0 = 0.3;
    pd.seed = def->seed;
    const xp_method *pen = xp_method_find(c, "penalty");
    xp_pile_info info;
    clab_world *w = NULL;
    clab_sim *sim = xp_pile_sim(c, &pd, pen, 0.0, &w, &info);
    if (!sim) return -1;
    /* potential energy the drop releases: the loose column's center of mass falls from H/2
     * to about H phi0/(2 phi) */
    const double g = -w->gravity.z, epot = info.mass * g * 0.5 * info.height * (1.0 - pd.phi0 / 0.6);
    const long nmax = (long)ceil(def->t_max / sim->h), check = (long)fmax(1.0, 0.01 / sim->h);
    xp_progress pb;
    xp_progress_begin(&pb, c, "preparing the sample");
    clab_error err;
    int rc = -1;
    for (long k = 0; k < nmax; k++) {
        if (clab_sim_step(sim, &err)) {
            fprintf(stderr, "contactlab %s: preparing the sample: %s\n", c->name, err.msg);
            goto done;
        }
        xp_progress_update(&pb, (double)(k + 1) / nmax);
        if (k % check == 0 && xp_stop_signal()) {
            fprintf(stderr, "\ncontactlab %s: stopped by signal %d while preparing the sample\n", c->name,
                    xp_stop_signal());
            goto done;
        }
        /* settled: after the fall time of the column, kinetic energy below 1e-9 of epot */
        if (k % check == 0 && w->t > sqrt(2.0 * info.height / g) && clab_world_kinetic_energy(w) < 1e-9 * epot) break;
    }
    xp_progress_end(&pb);
    s->lo[0] = s->lo[1] = -0.5 * L;
    s->hi[0] = s->hi[1] = 0.5 * L;
    s->lo[2] = 0.0;
    s->hi[2] = 0.0;
    for (size_t i = 0; i < def->n; i++) {
        const clab_body *b = &w->bodies[XP_PILE_FIRST + i];
        s->x[3 * i] = b->r.x, s->x[3 * i + 1] = b->r.y, s->x[3 * i + 2] = b->r.z;
        s->R[i] = b->shape.radius;
        s->hi[2] = fmax(s->hi[2], b->r.z + b->shape.radius);
    }
    printf("sample: %zu spheres of d = %g m in %g x %g x %g m, solid fraction %.4f (%.4f a diameter from the walls "
           "and the top; friction off, settled in %.3g s with the penalty method)\n", def->n, m->d, L, L, s->hi[2],
           gr_sample_solid_fraction(s), gr_sample_bulk_fraction(s, m->d), w->t);
    rc = 0;
done:
    clab_sim_destroy(sim);
    clab_world_destroy(w);
    return rc;
}

int gr_sample_get(const xp_common *c, const gr_sample_def *def, const gr_material *m, const char *path,
                  gr_sample *s)
{
    memset(s, 0, sizeof *s);
    const double vs = M_PI / 6.0 * m->d * m->d * m->d;
    const double L = def->L > 0.0 ? def->L : cbrt(def->n * vs / 0.6);
    s->n = def->n;
    s->x = malloc(3 * def->n * sizeof *s->x);
    s->R = malloc(def->n * sizeof *s->R);
    if (!s->x || !s->R) {
        fprintf(stderr, "contactlab %s: out of memory for a sample of %zu spheres\n", c->name, def->n);
        gr_sample_free(s);
        return -1;
    }
    char key[400];
    sample_key(def, m, L, key, sizeof key);
    if (sample_read(path, key, s) == 0) {
        printf("sample: %zu spheres read from %s (solid fraction %.4f, %.4f a diameter from the walls and the top)\n",
               s->n, path, gr_sample_solid_fraction(s), gr_sample_bulk_fraction(s, m->d));
        return 0;
    }
    if (sample_prepare(c, def, m, L, s)) {
        gr_sample_free(s);
        return -1;
    }
    if (sample_write(path, key, s)) {
        fprintf(stderr, "contactlab %s: cannot write the sample to %s\n", c->name, path);
        gr_sample_free(s);
        return -1;
    }
    return 0;
}

int gr_exact_friction(const xp_method *im)
{
    return im->options && strstr(im->options, "friction=exact") != NULL;
}

void gr_method_options(clab_options *extra, const xp_method *im, const gr_material *m, double stress,
                       const char *where)
{
    char v[64], origin[64];
    snprintf(origin, sizeof origin, "%s default", where);
    if (im->kind == XP_KIND_CCP) {
        clab_options_set(extra, "tol", "1e-4", origin);
        clab_options_set(extra, "max_iter", "200", origin);
        /* contacts within a twentieth of a diameter enter the CCP: the boundaries move less
         * than a hundredth of one a step */
        snprintf(v, sizeof v, "%.17g", 0.05 * m->d);
        clab_options_set(extra, "envelope", v, origin);
        if (gr_exact_friction(im)) { /* 3 CCPs a step (each takes max_iter: the step's cost) */
            clab_options_set(extra, "exact_tol", "1e-4", origin);
            clab_options_set(extra, "exact_max_outer", "3", origin);
        }
    }
    if (im->regularized) {
        snprintf(v, sizeof v, "%.17g", gr_hertz_kn(m, 0.25 * m->d, stress * m->d * m->d));
        snprintf(origin, sizeof origin, "%s: Hertz's tangent stiffness at the stress times d^2", where);
        clab_options_set(extra, "stiffness", v, origin);
    }
}
