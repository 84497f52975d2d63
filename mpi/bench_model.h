/* bench_model.h: the time a step of the decomposition (doc/mpi.md) projected to P ranks from the
 * figures `contactlab bench --mpi` measured on a few ranks, under a stated network model: a
 * message of n bytes costs alpha + n / beta (latency alpha [s], bandwidth beta [bytes/s]).
 *
 *   T(P) = c (N/P + G(P))                                compute: owned bodies and ghosts
 *        + m(P) alpha + b_g G(P) / beta                   forward exchange, every step
 *        + r 2 alpha log2 P                               all-reduces (r a step)
 *        + T_rebuild(P) / k                               a rebuild every k steps
 *
 * c: the one-rank compute time a moving body a step (measured: the run's time less its
 * exchanges and its rebuilds' computing); G(P): the ghosts of a brick, the shell of width w (the reach
 * plus the largest bounding radius) around a brick of the grid clab_mpi_grid chooses for P,
 * filled at the bodies' mean density, scaled by what was measured against the same shell on the
 * measured grid; m(P): the neighbour bricks within w; b_g: bytes a ghost a step (measured, 104);
 * r, k: measured; T_rebuild: the rebuild mpi/migrate.c does (bench_rebuild_time). A model, not a
 * measurement: the
 * figures it prints beside the measured runs show how close it comes where both exist. */
#ifndef CLAB_BENCH_MODEL_H
#define CLAB_BENCH_MODEL_H

/* what the measured runs give the model */
typedef struct bench_mpi_measured {
    double N;            /* moving bodies of the measured world */
    double L[3];         /* its box: the moving bodies' centers' extents, the periodic axes' periods [m] */
    int periodic[3];
    double width;        /* the ghost shell's width [m]: reach + the largest bounding radius */
    double c;            /* compute [s] a moving body a step on one rank */
    double ghost_scale;  /* measured ghosts / the shell model's on the measured grid (1: none measured) */
    double bytes_ghost;  /* forward exchange bytes a ghost a step */
    double reductions;   /* all-reduces a step */
    double interval;     /* steps between rebuilds (0: none) */
    double rebuild_bytes_ghost; /* bytes a rank sends a rebuild, a ghost it holds */
    double rebuild_body; /* a rebuild's computing a local body [s] (destinations, packing, merge,
                          * lists, the keyed records), measured on one rank */
} bench_mpi_measured;

/* the network: a message of n bytes costs alpha + n / beta */
typedef struct bench_net {
    double alpha; /* latency [s] */
    double beta;  /* bandwidth [bytes/s] */
} bench_net;

/* one projected point */
typedef struct bench_mpi_point {
    int P, grid[3];
    double N;                  /* moving bodies */
    double owned, ghosts;      /* a rank's: N / P, G(P) */
    double neighbors;          /* m(P): messages of the forward exchange a rank a step */
    double t_compute, t_forward, t_reduce, t_rebuild, t_total; /* [s] a step (t_rebuild: a rebuild / k) */
} bench_mpi_point;

/* the time [s] of one rebuild on a rank at point p (its grid, ghosts and neighbours set):
 * migration with the neighbours only, the counts (an all-to-all, alpha ceil(log2 P)), 2 messages
 * a neighbour, the shell's bodies and records (G rebuild_bytes_ghost), the local bodies' computing:
 * 2 m alpha + alpha ceil(log2 P) + G rebuild_bytes_ghost / beta + (N/P + G) rebuild_body */
double bench_rebuild_time(const bench_mpi_measured *m, const bench_net *net, const bench_mpi_point *p);

/* the shell of width w around a brick of grid g over the box L (periodic axes: two faces each;
 * open axes: 2 (p-1)/p faces, the end bricks having one): its volume [m^3] and the neighbour
 * bricks within w (a mean over the bricks on open axes) */
void bench_mpi_shell(const double L[3], const int periodic[3], const int grid[3], double w, double *volume,
                     double *neighbors);

/* The point at P ranks for a world of N moving bodies like the measured one (the box grown on
 * its periodic axes, or all three when none, to hold N at the same density). 0, or -1 when P < 1
 * or N <= 0. */
int bench_mpi_project(const bench_mpi_measured *m, const bench_net *net, double N, int P, bench_mpi_point *out);

#endif
