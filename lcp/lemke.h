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
 * the LCP may have no solution; a ray met with z0 basic at no more than 1e-11 max |q| ends as a
 * solution instead: that basis solves the LCP to z0). An iteration bound guards against
 * rounding. Not installed. */
#ifndef CLAB_LEMKE_H
#define CLAB_LEMKE_H

#include <stddef.h>

typedef enum {
    CLAB_LEMKE_SOLVED = 0,   /* z solves the LCP */
    CLAB_LEMKE_RAY = 1,      /* ray termination: no positive entry in the entering column */
    CLAB_LEMKE_MAXPIVOT = 2, /* the pivot bound was reached */
    CLAB_LEMKE_CYCLE = 3     /* a basis came back (its hash repeated): rounding broke the lexicographic rule */
} clab_lemke_status;

/* scratch of one solve, reused between solves (grows only) */
typedef struct clab_lemke_work {
    double *T;          /* tableau [n x (3n + 2)] (cold start: n x (2n + 2)) */
    int *basic;         /* [n] the basic variable of each row: 0..n-1 w_i, n..2n-1 z_i, 2n z0 */
    size_t cap;         /* n the arrays hold */
    unsigned long long *seen; /* hashes of the bases visited (open addressing, 0 = empty) */
    size_t cap_seen;    /* slots of seen (a power of 2) */
    long crash_dropped; /* last warm start: z_i of the guess left out (dependent columns) */
} clab_lemke_work;

void clab_lemke_work_init(clab_lemke_work *W);
void clab_lemke_work_free(clab_lemke_work *W);

/* Solve LCP(q, M), M row major n x n, into z [n] (w = M z + q is the caller's to form).
 * max_pivots <= 0: the bound 50 n + 100. *pivots receives the pivots made. Returns the
 * status, or -1 when out of memory. On a ray or the pivot bound z holds the last basis'
 * values of the z variables (not a solution). */
int clab_lemke_solve(size_t n, const double *M, const double *q, double *z, long max_pivots, clab_lemke_work *W,
                     long *pivots);

/* Lemke's method warm-started from a complementary basis (Cottle, Pang and Stone, Sect. 4.4,
 * an arbitrary covering vector): start[i] != 0 asks for z_i basic (else w_i). The guessed
 * columns -M_i are brought in one by one by Gauss-Jordan pivots on their own row; one whose
 * pivot is below 1e-6 max(1, |M_ii|) (a column dependent on those already in) is left out
 * (counted in W->crash_dropped). With B the resulting basis the covering vector is d = B e,
 * so B^-1 d = e: the basic values are x = B^-1 q + z0 e, feasible from z0 = -min(B^-1 q), and
 * the method runs as from the cold start (z0 enters at the most negative x_i, the complement of
 * the variable leaving that row enters next). The lexicographic rule reads B^-1 B_0 (B_0 the
 * crash basis, kept in n more columns), so the anti-cycling argument holds from this start.
 * When x >= 0 already the basis solves the LCP (0 pivots after the crash). Same statuses and
 * bounds as clab_lemke_solve; a guess of all zeros is the cold start with d = e (but a wider
 * tableau: not bit-identical to clab_lemke_solve). */
int clab_lemke_solve_from(size_t n, const double *M, const double *q, const unsigned char *start, double *z,
                          long max_pivots, clab_lemke_work *W, long *pivots);

/* The hash of a basis (Zobrist: the XOR of one 64-bit key per basic variable, 0..2n), the one
 * the cycling test records every pivot; exposed for the tests. */
unsigned long long clab_lemke_basis_hash(size_t n, const int *basic);

/* The name of a status for messages: "solved", "ray termination", "pivot limit", "cycling". */
const char *clab_lemke_status_name(int status);

#endif
