/* bench_mesh.c: `contactlab bench mesh`: the same sample of spheres in an open box whose five
 * walls are planes, then triangle-mesh walls (two triangles a wall), under penalty and DVI;
 * the time per step of each and their ratio (the mesh walls' cost over the planes'). The
 * spheres start on a jittered lattice and fall onto the floor; both worlds start from the
 * same state and take the same steps (untimed settling first, then the timed ones), runs
 * alternating between the two; CPU time of the timed steps (the machine may be shared). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "clab_mesh.h"
#include "clab_sim.h"

/* the box [0, L]^2 x [0, H] and the spheres of radius R on a lattice above its floor */
typedef struct mesh_sample {
    int n;
    double L, H, R;
} mesh_sample;

static void add_spheres(clab_world *w, const mesh_sample *s)
{
    const double a = 2.2 * s->R;
    const int m = (int)floor((s->L - 2.0 * s->R) / a);
    unsigned long long x = 12345; /* a fixed linear congruential jitter: both worlds alike */
    for (int i = 0; i < s->n; i++) {
        clab_body_def d = clab_default_body_def();
        d.shape = clab_sphere(s->R);
        d.density = 2500.0;
        double j[3];
        for (int k = 0; k < 3; k++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            j[k] = ((double)(x >> 11) / 9007199254740992.0 - 0.5) * 0.1 * s->R;
        }
        d.r = clab_v3(s->R * 1.1 + a * (i % m) + j[0], s->R * 1.1 + a * ((i / m) % m) + j[1],
                      s->R * 1.1 + a * (i / (m * m)) + j[2]);
        clab_world_add_body(w, &d, NULL);
    }
}

/* five walls: planes (mesh = 0) or meshes of two triangles each */
static clab_world *mesh_world(const mesh_sample *s, int mesh)
{
    clab_world *w = clab_world_create(NULL);
    add_spheres(w, s);
    const double L = s->L, H = s->H;
    if (!mesh) {
        const struct { clab_vec3 r, axis; double deg; } p[5] = {
            {{0, 0, 0}, {1, 0, 0}, 0}, {{0, 0, 0}, {0, 1, 0}, 90}, {{L, 0, 0}, {0, 1, 0}, -90},
            {{0, 0, 0}, {1, 0, 0}, -90}, {{0, L, 0}, {1, 0, 0}, 90}};
        for (int k = 0; k < 5; k++) {
            clab_body_def d = clab_default_body_def();
            d.shape = clab_plane();
            d.fixed = 1;
            d.r = p[k].r;
            d.e = clab_q_axis_angle(p[k].axis, p[k].deg * M_PI / 180.0);
            clab_world_add_body(w, &d, NULL);
        }
        return w;
    }
    /* the corners of each wall's rectangle, split along a diagonal */
    const double q[5][4][3] = {{{0, 0, 0}, {L, 0, 0}, {L, L, 0}, {0, L, 0}},
                               {{0, 0, 0}, {0, L, 0}, {0, L, H}, {0, 0, H}},
                               {{L, 0, 0}, {L, L, 0}, {L, L, H}, {L, 0, H}},
                               {{0, 0, 0}, {L, 0, 0}, {L, 0, H}, {0, 0, H}},
                               {{0, L, 0}, {L, L, 0}, {L, L, H}, {0, L, H}}};
    for (int k = 0; k < 5; k++) {
        double xyz[18];
        const int order[6] = {0, 1, 2, 0, 2, 3};
        for (int v = 0; v < 6; v++) memcpy(xyz + 3 * v, q[k][order[v]], sizeof q[k][0]);
        clab_mesh_def d = clab_default_mesh_def();
        snprintf(d.name, sizeof d.name, "wall%d", k);
        d.xyz = xyz;
        d.ntri = 2;
        clab_error err;
        if (clab_world_add_mesh(w, &d, &err) < 0) fprintf(stderr, "bench mesh: %s\n", err.msg);
    }
    return w;
}

/* the timed steps, a function of their own so that a profiler can count them alone:
 *   valgrind --tool=callgrind --toggle-collect=bench_mesh_timed --dump-after=bench_mesh_timed \
 *       contactlab bench mesh --quick --threads 1 --repeat 1
 * writes one profile a run, in the order penalty planes, penalty mesh, DVI planes, DVI mesh */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int bench_mesh_timed(clab_sim *sim, long steps, clab_error *err)
{
    for (long k = 0; k < steps; k++)
        if (clab_sim_step(sim, err)) return 1;
    return 0;
}

/* CPU seconds per step (of every thread when all) of `steps` steps after `settle` untimed
 * ones; -1 on failure */
static double time_steps(const mesh_sample *s, int mesh, const char *backend, double h, long settle, long steps,
                         int all, long *contacts)
{
    clab_world *w = mesh_world(s, mesh);
    clab_options o;
    clab_options_init(&o);
    clab_error err;
    clab_sim *sim = clab_sim_create(w, backend, h, &o, &err);
    double t = -1.0;
    if (!sim) {
        fprintf(stderr, "bench mesh: %s\n", err.msg);
        goto out;
    }
    for (long k = 0; k < settle; k++)
        if (clab_sim_step(sim, &err)) goto fail;
    if (clab_sim_prepare(sim, &err)) goto fail;
    const double t0 = bench_cpu_now(all);
    if (bench_mesh_timed(sim, steps, &err)) goto fail;
    t = (bench_cpu_now(all) - t0) / (double)steps;
    *contacts = (long)sim->contacts.n;
    goto done;
fail:
    fprintf(stderr, "bench mesh: %s\n", err.msg);
done:
    clab_sim_destroy(sim);
out:
    clab_options_free(&o);
    clab_world_destroy(w);
    return t;
}

int bench_mesh(const bench_ctx *c)
{
    const mesh_sample s = {c->quick ? 1000 : 8000, c->quick ? 0.25 : 0.5, 0.6, 0.01};
    const struct { const char *backend; double h; long settle, steps; } runs[2] = {
        {"penalty", 2e-5, c->quick ? 2500 : 10000, c->quick ? 500 : 2000},
        {"dvi", 1e-3, c->quick ? 20 : 100, c->quick ? 20 : 50}};
    const int reps = c->repeat > 0 ? c->repeat : (c->quick ? 1 : 3);
    int rc = 0;
    for (int ti = 0; ti < c->nthreads; ti++) {
        const int threads = bench_set_threads(c->threads[ti]);
        for (int r = 0; r < 2; r++) {
            double best[2] = {INFINITY, INFINITY};
            long nc[2] = {0, 0};
            for (int k = 0; k < reps; k++) /* planes and meshes taking turns; the best of each */
                for (int mesh = 0; mesh < 2; mesh++) {
                    double t = time_steps(&s, mesh, runs[r].backend, runs[r].h, runs[r].settle, runs[r].steps,
                                              threads > 1, &nc[mesh]);
                    if (t < 0.0) return 1;
                    if (t < best[mesh]) best[mesh] = t;
                }
            printf("mesh: %s, %d spheres, %d thread(s): %.4g ms CPU a step between planes (%ld contacts), %.4g ms between "
                   "mesh walls (%ld contacts): mesh/planes = %.3f (load %.2f)\n",
                   runs[r].backend, s.n, threads, 1e3 * best[0], nc[0], 1e3 * best[1], nc[1], best[1] / best[0],
                   bench_load1());
            for (int mesh = 0; mesh < 2; mesh++) {
                char name[64], note[96];
                snprintf(name, sizeof name, "mesh-%s-%s", runs[r].backend, mesh ? "triangles" : "planes");
                snprintf(note, sizeof note, "five walls as %s; mesh/planes %.3f", mesh ? "10 triangles" : "planes",
                         best[1] / best[0]);
                bench_row row = {name, threads, s.n, nc[mesh], runs[r].steps, best[mesh] * (double)runs[r].steps,
                                 bench_peak_rss_bytes(), note};
                if (bench_summary_append(c, &row)) rc = 1;
            }
        }
    }
    return rc;
}
