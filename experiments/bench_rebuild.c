/* bench_rebuild.c: time the pair-list rebuild and the skin test of clab_collide (a benchmark,
 * not a test).
 *
 *     bench_rebuild [--general] [--reps R] [--skin S] SCENE
 *
 * SCENE: a LAMMPS data file (read as `contactlab bench chute` reads data.chute: periodic in
 * x and y, type 2 fixed; skin 0.1 by default), or "pileNX": the fcc lattice of `bench pile`
 * (4 NX^2 20 spheres of radius 0.01 m in raster order on a floor plane, periodic in x and y;
 * skin 0.001 m). Times R rebuilds of the kept pair list (clab_broadphase_kept after
 * clab_collider_set_skin, which forgets the list) and 10 R skin tests (clab_broadphase_kept
 * on an unchanged world: the test and the kept list), after one warm-up build: CPU time
 * (CLOCK_PROCESS_CPUTIME_ID, all threads) and wall time per particle. --general: the general
 * grid and distance filter instead of the sphere cell list. Prints a hash of the pair list
 * (the same for every path and thread count). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clab_lammps.h"
#include "collide_internal.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static clab_world *pile(int nx, clab_error *err)
{
    const double R = 0.01, a = 2.0 * sqrt(2.0) * R;
    static const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    clab_world *w = clab_world_create(NULL);
    if (clab_world_set_periodic(w, 0, 0.0, nx * a, err) || clab_world_set_periodic(w, 1, 0.0, nx * a, err)) return NULL;
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    if (clab_world_add_body(w, &d, err) < 0) return NULL;
    d = clab_default_body_def();
    d.shape = clab_sphere(R);
    unsigned long s = 1;
    for (int k = 0; k < 20; k++)
        for (int j = 0; j < nx; j++)
            for (int i = 0; i < nx; i++)
                for (int b = 0; b < 4; b++) {
                    double jit[2];
                    for (int c = 0; c < 2; c++) { /* +-1e-4 R, a small LCG */
                        s = s * 6364136223846793005ul + 1442695040888963407ul;
                        jit[c] = 1e-4 * R * (2.0 * (double)(s >> 11) / 9007199254740992.0 - 1.0);
                    }
                    d.r = clab_v3((i + basis[b][0]) * a + jit[0], (j + basis[b][1]) * a + jit[1],
                                  R + (k + basis[b][2]) * a);
                    if (clab_world_add_body(w, &d, err) < 0) return NULL;
                }
    return w;
}

static clab_world *chute(const char *path, clab_error *err)
{
    clab_world *w = clab_world_create(NULL);
    const int type_fixed[3] = {0, 0, 1};
    clab_lammps_def def = clab_lammps_default_def();
    def.type_fixed = type_fixed;
    def.ntype_fixed = 3;
    def.periodic[0] = def.periodic[1] = 1;
    clab_lammps_info info;
    if (clab_lammps_read_data(path, w, &def, &info, err)) return NULL;
    return w;
}

int main(int argc, char **argv)
{
    int reps = 20, general = 0;
    double skin = -1.0;
    const char *scene = NULL;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--general")) general = 1;
        else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--skin") && a + 1 < argc) skin = atof(argv[++a]);
        else if (argv[a][0] != '-' && !scene) scene = argv[a];
        else {
            fprintf(stderr, "usage: bench_rebuild [--general] [--reps R] [--skin S] DATAFILE|pileNX\n");
            return 2;
        }
    }
    if (!scene) {
        fprintf(stderr, "usage: bench_rebuild [--general] [--reps R] [--skin S] DATAFILE|pileNX\n");
        return 2;
    }
    if (reps < 1) reps = 1;
    clab_error err;
    int is_pile = !strncmp(scene, "pile", 4);
    clab_world *w = is_pile ? pile(atoi(scene + 4) > 0 ? atoi(scene + 4) : 20, &err) : chute(scene, &err);
    if (!w) {
        fprintf(stderr, "bench_rebuild: %s\n", err.msg);
        return 1;
    }
    if (skin < 0.0) skin = is_pile ? 0.001 : 0.1;
    clab_collider *cd = clab_collider_create();
    cd->general_only = general;
    clab_pair_list p;
    size_t n = w->nbodies;
    clab_collider_set_skin(cd, skin);
    if (clab_broadphase_kept(cd, w, 0.0, &p, &err)) {
        fprintf(stderr, "bench_rebuild: %s\n", err.msg);
        return 1;
    }
    double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
    for (int r = 0; r < reps; r++) {
        clab_collider_set_skin(cd, skin);
        clab_broadphase_kept(cd, w, 0.0, &p, &err);
    }
    double c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID), w1 = clock_s(CLOCK_MONOTONIC);
    for (int r = 0; r < 10 * reps; r++) clab_broadphase_kept(cd, w, 0.0, &p, &err);
    double c2 = clock_s(CLOCK_PROCESS_CPUTIME_ID), w2 = clock_s(CLOCK_MONOTONIC);
    unsigned long h = 1469598103934665603ul; /* FNV-1a of the pairs */
    size_t np = p.np;
    for (size_t i = 0; i < p.n; i++)
        for (size_t k = p.row[i]; k < p.row[i + 1]; k++) {
            h = (h ^ (unsigned)i) * 1099511628211ul;
            h = (h ^ p.nbr[k]) * 1099511628211ul;
        }
    clab_broadphase_stats st;
    clab_broadphase_stats_get(cd, &st);
    double pn = 1e9 / (double)n;
    printf("%s: %zu bodies, %zu pairs (hash %016lx), %s, skin %g\n", scene, n, np, h,
           st.sphere_list ? "sphere cell list" : "general grid + distance filter", skin);
    printf("rebuild: CPU %.1f ns a particle, wall %.1f | skin test: CPU %.2f ns a particle, wall %.2f\n",
           (c1 - c0) / reps * pn, (w1 - w0) / reps * pn, (c2 - c1) / (10.0 * reps) * pn, (w2 - w1) / (10.0 * reps) * pn);
    clab_collider_destroy(cd);
    clab_world_destroy(w);
    return 0;
}
