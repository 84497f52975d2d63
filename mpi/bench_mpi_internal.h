/* bench_mpi_internal.h: what bench_mpi.c (the runs of contactlab bench --mpi) and
 * bench_mpi_report.c (its tables, CSVs and projection) share */
#ifndef CLAB_BENCH_MPI_INTERNAL_H
#define CLAB_BENCH_MPI_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "bench_model.h"
#include "clab_world.h"

#define BM_MAX_P 8   /* rank counts a run */
#define BM_MAX_RANK 64 /* ranks read from a CSV */

typedef struct bm_opts {
    bench_ctx c; /* out, quick, data_dir, repeat, lammps */
    int ranks[BM_MAX_P], nranks;
    long steps;
    int nx;
    bench_net net;
    double project_n; /* 0: the measured world's moving bodies */
    int project[8], nproject;
    int run[2]; /* chute, pile */
} bm_opts;

/* one rank's row of the MPI bench's --csv */
typedef struct bm_rank {
    double owned, local, ghosts, replicated, fwd_bytes, fwd_msg, re_bytes, re_msg, reductions, exchange,
        rebuild, /* a rebuild's computing [s] (NAN: no rebuild, or no step without one) */
        rss, reach;
} bm_rank;

/* one MPI run, as its CSV gives it */
typedef struct bm_mpi {
    double seconds;
    long steps, rebuilds, moving;
    int grid[3], nrank;
    char hash[20];
    bm_rank r[BM_MAX_RANK];
} bm_mpi;

/* the best runs of each code at one P */
typedef struct bm_point {
    int P;
    double omp, mpi, lmp; /* seconds, INFINITY: none */
    uint64_t omp_hash;
    bm_mpi best;          /* the fastest MPI run's figures */
} bm_point;

/* the table of ns a particle-step, speedups and rates against LAMMPS (rows into csv) */
void bm_report_scaling(const bm_opts *o, const char *which, long moving, const bm_point *pt, FILE *csv);
/* each rank's bodies and traffic of the fastest MPI run of each P (rows into csv) */
void bm_report_traffic(const bm_opts *o, const char *which, const bm_point *pt, FILE *csv);
/* the projection (bench_model.h) from the measured runs of world w to 1, the measured P and
 * o->project (rows into csv) */
void bm_report_projection(const bm_opts *o, const char *which, const bm_point *pt, const clab_world *w, FILE *csv);

#endif
