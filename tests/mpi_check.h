/* mpi_check.h: the TAP results of a C test under mpirun (tests/tap.sh's mpi_tap_ranks reads
 * them): rank 0 prints "ok - TEXT" or "not ok - TEXT" and counts the failures in fails_; the
 * test sets rank_ (MPI_Comm_rank) first. check takes rank 0's condition, check_all every rank's
 * (collective: all must hold). */
#ifndef CLAB_TESTS_MPI_CHECK_H
#define CLAB_TESTS_MPI_CHECK_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

static int rank_ = 0, fails_ = 0;

static inline void tap_vline(int cond, const char *fmt, va_list ap)
{
    if (rank_ != 0) return;
    fails_ += !cond;
    printf("%sok - ", cond ? "" : "not ");
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
}

static inline void check(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void check(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tap_vline(cond, fmt, ap);
    va_end(ap);
}

static inline void check_all(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void check_all(int cond, const char *fmt, ...)
{
    int all = 0;
    MPI_Allreduce(&cond, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    va_list ap;
    va_start(ap, fmt);
    tap_vline(all, fmt, ap);
    va_end(ap);
}

#endif
