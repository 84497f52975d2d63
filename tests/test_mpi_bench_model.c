/* test_mpi_bench_model.c: the projection of contactlab bench --mpi (mpi/bench_model.h) against
 * values worked by hand from its formulas, on boxes where the shell is a slab:
 *
 *   shell: a 10 m cube periodic on every axis cut in 2 along one axis, w = 1 m: the brick 5 x 10 x
 *   10, two faces of 10 x 10 at 1 m: 200 m^3, one neighbour; the same cut in 4 along an open x:
 *   bricks 2.5 m wide with 2 (4-1)/4 = 1.5 faces on the mean: (2.5 + 1.5) 100 - 250 = 150 m^3,
 *   1 + 1.5 ceil(1 / 2.5) = 2.5 bricks within w, 1.5 neighbours;
 *   T(P): N = 1000 bodies in that cube (density 1 / m^3), c = 1 us, 104 bytes a ghost, 1
 *   all-reduce a step, a rebuild every 10 steps sending 112 bytes a ghost and computing 10 ns a
 *   local body, alpha = 1 us, beta = 1e9 bytes/s:
 *     P = 1: c N + N 10 ns / 10 = 1e-3 + 1e-6 s;
 *     P = 2: ghosts 200; c (500 + 200) = 7e-4; forward 1e-6 + 104 200 / 1e9 = 2.18e-5; all-reduce
 *     2 alpha log2 2 = 2e-6; rebuild (2 alpha 1 + alpha log2 2 + 200 112 / 1e9 + 700 10 ns) / 10
 *     = 3.24e-6 s; total 7.2704e-4 s;
 *   8,000 bodies: the periodic cube grown by 8^(1/3) = 2 to 20 m, the brick 10 x 20 x 20: 800
 *   ghosts; a shell of 20 m on 8 ranks: N - N/P = 875 ghosts (every other body).
 * Tolerance: 1e-12 relative (a few roundings of sums and products). */
#include "config.h"

#include <math.h>

#include "bench_model.h"
#include "tap.h"

static bench_mpi_measured cube(void)
{
    bench_mpi_measured m = {0};
    m.N = 1000.0;
    for (int k = 0; k < 3; k++) {
        m.L[k] = 10.0;
        m.periodic[k] = 1;
    }
    m.width = 1.0;
    m.c = 1e-6;
    m.ghost_scale = 1.0;
    m.bytes_ghost = 104.0;
    m.reductions = 1.0;
    m.interval = 10.0;
    m.rebuild_bytes_ghost = 112.0;
    m.rebuild_body = 1e-8;
    return m;
}

int main(void)
{
    const double tol = 1e-12;
    double V, nb;
    const double L[3] = {10.0, 10.0, 10.0};
    const int per[3] = {1, 1, 1}, open_x[3] = {0, 1, 1}, g2[3] = {2, 1, 1}, g4[3] = {4, 1, 1};
    bench_mpi_shell(L, per, g2, 1.0, &V, &nb);
    tap_rel(V, 200.0, tol, "shell of a periodic cube cut in 2, w = 1 [m^3]");
    tap_rel(nb, 1.0, tol, "its neighbour bricks");
    bench_mpi_shell(L, open_x, g4, 1.0, &V, &nb);
    tap_rel(V, 150.0, tol, "shell of a cube cut in 4 along an open axis, w = 1, the mean brick [m^3]");
    tap_rel(nb, 1.5, tol, "its neighbour bricks (mean)");

    const bench_mpi_measured m = cube();
    const bench_net net = {1e-6, 1e9};
    bench_mpi_point p;
    tap_ok(bench_mpi_project(&m, &net, 1000.0, 1, &p) == 0 && p.ghosts == 0.0, "P = 1: no ghosts (%g)", p.ghosts);
    tap_rel(p.t_total, 1e-3 + 1e-6, tol, "P = 1: T = c N + the rebuild's computing / k [s]");
    tap_ok(bench_mpi_project(&m, &net, 1000.0, 2, &p) == 0, "P = 2 projected");
    tap_rel(p.ghosts, 200.0, tol, "P = 2: ghosts");
    tap_rel(p.t_compute, 7e-4, tol, "P = 2: compute c (N/P + G) [s]");
    tap_rel(p.t_forward, 2.18e-5, tol, "P = 2: forward m alpha + b_g G / beta [s]");
    tap_rel(p.t_reduce, 2e-6, tol, "P = 2: all-reduce 2 alpha log2 P [s]");
    tap_rel(p.t_rebuild, 3.24e-6, tol, "P = 2: the rebuild / k [s]");
    tap_rel(p.t_total, 7.2704e-4, tol, "P = 2: total [s]");
    bench_mpi_project(&m, &net, 8000.0, 2, &p);
    tap_rel(p.ghosts, 800.0, tol, "N = 8,000: the box grown to 20 m, P = 2: ghosts");
    bench_mpi_measured wide = m;
    wide.width = 20.0; /* a shell wider than the box: every other body */
    bench_mpi_project(&wide, &net, 1000.0, 8, &p);
    tap_rel(p.ghosts, 1000.0 - 1000.0 / 8, tol, "w = 20 m, P = 8: ghosts at most N - N/P");
    tap_ok(bench_mpi_project(&m, &net, 1000.0, 0, &p) == -1, "P = 0 refused");
    return tap_done();
}
