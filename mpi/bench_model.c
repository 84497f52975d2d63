/* bench_model.c: the projection of the decomposition's time a step to P ranks (bench_model.h). */
#include "config.h"

#include <math.h>

#include "bench_model.h"
#include "clab_mpi.h"

static double log2_ceil(int P)
{
    int k = 0;
    while ((1 << k) < P) k++;
    return (double)k;
}

void bench_mpi_shell(const double L[3], const int periodic[3], const int grid[3], double w, double *volume,
                     double *neighbors)
{
    double inner = 1.0, outer = 1.0, nb = 1.0;
    for (int k = 0; k < 3; k++) {
        const int p = grid[k];
        const double a = L[k] / p; /* the brick's edge */
        inner *= a;
        if (p == 1) { /* not cut: no neighbour along k (a periodic axis wraps onto the rank itself) */
            outer *= a;
            continue;
        }
        /* faces with a neighbour: 2 on a periodic axis; on an open one the end bricks have 1 */
        const double faces = periodic[k] ? 2.0 : 2.0 * (p - 1) / p;
        outer *= a + fmin(faces * w, L[k] - a);
        /* the bricks within w along k, this one included: 1 + 2 ceil(w / a) (1 + faces ceil(w/a) on
         * an open axis, a mean), at most p */
        nb *= fmin((double)p, 1.0 + faces * ceil(w / a));
    }
    *volume = outer - inner;
    *neighbors = nb - 1.0;
}

double bench_rebuild_time(const bench_mpi_measured *m, const bench_net *net, const bench_mpi_point *p)
{
    const double assign = (p->owned + p->ghosts) * m->rebuild_body;
    if (p->P == 1) return assign;
    return (2.0 * p->neighbors + log2_ceil(p->P)) * net->alpha + p->ghosts * m->rebuild_bytes_ghost / net->beta + assign;
}

int bench_mpi_project(const bench_mpi_measured *m, const bench_net *net, double N, int P, bench_mpi_point *out)
{
    if (P < 1 || !(N > 0.0) || !(m->N > 0.0)) return -1;
    /* the box holding N at the measured density: grown along the periodic axes (the chute's and
     * the pile's floor, as LAMMPS's benchmarks replicate them), along all three when none is */
    int np = 0;
    for (int k = 0; k < 3; k++) np += m->periodic[k] != 0;
    const double grow = pow(N / m->N, 1.0 / (np ? np : 3));
    double L[3], V = 1.0;
    for (int k = 0; k < 3; k++) {
        L[k] = m->L[k] * (np == 0 || m->periodic[k] ? grow : 1.0);
        V *= L[k];
    }
    bench_mpi_point *p = out;
    p->P = P;
    p->N = N;
    clab_mpi_grid(P, L, p->grid);
    double shell = 0.0;
    bench_mpi_shell(L, m->periodic, p->grid, m->width, &shell, &p->neighbors);
    p->owned = N / P;
    /* the ghosts: the shell at the mean density, as measured against it, at most every other body */
    p->ghosts = fmin(m->ghost_scale * shell * N / V, N - p->owned);
    p->t_compute = m->c * (p->owned + p->ghosts);
    p->t_forward = P > 1 ? p->neighbors * net->alpha + m->bytes_ghost * p->ghosts / net->beta : 0.0;
    p->t_reduce = P > 1 ? m->reductions * 2.0 * net->alpha * log2_ceil(P) : 0.0;
    p->t_rebuild = m->interval > 0.0 ? bench_rebuild_time(m, net, p) / m->interval : 0.0;
    p->t_total = p->t_compute + p->t_forward + p->t_reduce + p->t_rebuild;
    return 0;
}
