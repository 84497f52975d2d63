/* lemke.h: Lemke's complementary pivoting method for the linear complementarity problem
 *
 *     find z >= 0 with w = M z + q >= 0 and z^T w = 0            (LCP(q, M), n unknowns)
 *
 * dense, on a tableau of n rows (Cottle, Pang and Stone, "The Linear Complementarity
 * Problem", Sect. 4.4). The artificial variable z0 with the covering vector e = (1, .., 1)
 * makes w = M z + q + e z0 feasible at z = 0, z0 = -min q; each pivot brings in the
 * complement of the variable that just left the basis, the leaving one chosen by the minimum
 * ratio test with the lexicographic rule (rows of [B^-1 q, B^-1] divided by the pivot column:
 * no basis repeats, so no cycling, also on degenerate problems); the method ends when z0
 * leaves (a solution) or when the entering column has no positive entry (a secondary ray:
 * for a P-matrix or a copositive-plus M with a feasible LCP this does not happen, otherwise
 * the LCP may have no solution). An iteration bound guards against rounding. Not installed. */
#ifndef CLAB_LEMKE_H
#define CLAB_LEMKE_H

#include <stddef.h>

typedef enum {
    CLAB_LEMKE_SOLVED = 0,  /* z solves the LCP */
    CLAB_LEMKE_RAY = 1,     /* ray termination: no positive entry in the entering column */
    CLAB_LEMKE_MAXPIVOT = 2 /* the pivot bound was reached */
} clab_lemke_status;

/* scratch of one solve, reused between solves (grows only) */
typedef struct clab_lemke_work {
    double *T;      /* tableau [n x (2n + 2)] */
    int *basic;     /* [n] the basic variable of each row: 0..n-1 w_i, n..2n-1 z_i, 2n z0 */
    size_t cap;     /* n the arrays hold */
} clab_lemke_work;

void clab_lemke_work_init(clab_lemke_work *W);
void clab_lemke_work_free(clab_lemke_work *W);

/* Solve LCP(q, M), M row major n x n, into z [n] (w = M z + q is the caller's to form).
 * max_pivots <= 0: the bound 50 n + 100. *pivots receives the pivots made. Returns the
 * status, or -1 when out of memory. On a ray or the pivot bound z holds the last basis'
 * values of the z variables (not a solution). */
int clab_lemke_solve(size_t n, const double *M, const double *q, double *z, long max_pivots, clab_lemke_work *W,
                     long *pivots);

/* The name of a status for messages: "solved", "ray termination", "pivot limit". */
const char *clab_lemke_status_name(int status);

#endif
