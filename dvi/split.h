/* split.h: the DVI solvers over a partition of the bodies into parts, the same iterates as one
 * process (not installed).
 *
 * The bodies are split into P parts, an owner per moving body (a body with 1/m = 0, fixed or
 * driven, is inert: it takes no impulse, its velocity change is 0 on every part and nobody
 * owns it). Part r holds
 *   - the blocks (contacts, joints) with a moving body it owns, in the global order of the
 *     CCP's blocks (the contacts in (a, b, feature) order as clab_collide emits them, then
 *     the joints). "Newton off": a block between bodies of two parts is held by both and
 *     computed identically on both, so no impulse is ever sent; a block of inert bodies only
 *     is held by part 0;
 *   - its local bodies: the owned ones (global order), the ghosts (the other moving bodies of
 *     its blocks, grouped by owner part, global order in a group), then the inert bodies of
 *     its blocks;
 *   - the CCP of those blocks on those bodies (a clab_ccp, so the plain products and the
 *     residual of plain.h and ccp_solver.h run on it unchanged).
 * An owned body has all its blocks on its owner, in the global order, so u = M^-1 D gamma of
 * an owned body sums the same terms in the same order as the one-process product: the same
 * bits. The ghosts' u is then copied from their owners (the exchange). Each block is counted
 * in the global sums by exactly one part, the owner of its first moving body.
 *
 * Communication (clab_split_comm): two kinds only, behind three function pointers:
 *   exchange  the ghosts' entries of a body vector from their owners (each part sends the
 *             owned entries its neighbours need: send lists; receives its ghosts: recv lists);
 *   sum       an all-reduce of an array of clab_xsum (exact partial sums: merged, the rounded
 *             total does not depend on the parts nor the reduction order);
 *   max       an all-reduce of an array of doubles by maximum (the residual; error flags).
 * clab_split_loopback runs all P parts in one process, phase by phase, and counts the
 * messages and bytes an MPI run would send. An MPI implementation (one part per rank,
 * nlocal = 1): exchange = MPI_Isend/MPI_Irecv of width * count doubles per neighbour part
 * (send_slot packed, received into the ghost slots of recv_start), then MPI_Waitall; sum =
 * clab_xsum_carry on each accumulator, then MPI_Allreduce of its CLAB_XSUM_DIGITS int64 digits
 * with MPI_SUM (integer addition: associative, so any reduction tree gives the same digits)
 * and of its non-finite state (three flags, +inf, -inf, NaN seen, by MPI_MAX; the special
 * value is rebuilt from them); max = MPI_Allreduce with MPI_MAX, a NaN first mapped to +inf
 * plus a flag (MPI_MAX on NaN is not defined). doc/dvi.md, "The split solver". */
#ifndef CLAB_DVI_SPLIT_H
#define CLAB_DVI_SPLIT_H

#include <stddef.h>

#include "ccp_solver.h"
#include "clab_xsum.h"

/* One part: its CCP, bodies, blocks and exchange lists. */
typedef struct clab_split_part {
    int id;                 /* r in 0 .. nparts - 1 */
    clab_ccp P;             /* the CCP of the part's blocks on its local bodies */
    size_t nowned, nghost;  /* local bodies 0 .. nowned-1 owned, then nghost ghosts, then inert */
    size_t *body;           /* [P.nbodies] global index of each local body */
    size_t *block;          /* [P.nblocks] global index of each local block */
    size_t *block_row;      /* [P.nblocks] its first row in the global CCP */
    unsigned char *counted; /* [P.nblocks] 1: this part adds the block's rows to the global sums */
    unsigned char *shared;  /* [P.nblocks] 1: the block has a ghost (another part holds it too) */
    int nrecv;              /* parts the ghosts come from */
    int *recv_part;         /* [nrecv] increasing */
    size_t *recv_start;     /* [nrecv + 1] ghosts of recv_part[j]: local slots nowned + recv_start[j] .. */
    int nsend;              /* parts that hold ghosts of this part's bodies */
    int *send_part;         /* [nsend] increasing */
    size_t *send_start;     /* [nsend + 1] send_slot[send_start[j] ..): owned slots, in send_part[j]'s order */
    size_t *send_slot;
    clab_ccp_work W;        /* solver scratch */
} clab_split_part;

/* The parts held by this process: all P in the loopback, one under MPI. */
typedef struct clab_split {
    int nparts;             /* P */
    int nlocal;             /* parts in this process */
    clab_split_part *part;  /* [nlocal] */
    size_t nbodies, nblocks, n; /* of the global CCP (under MPI, n > 0: some part has rows) */
} clab_split;

/* The communication of the split solvers. Arrays of the local parts: v[j] part j's body
 * vector (width doubles per local body); acc, m flat, part j's count entries at j * count.
 * Each returns CLAB_OK or an error code (and is called by every part at the same point). */
typedef struct clab_split_comm {
    int (*exchange)(void *ctx, const clab_split *S, double *const *v, int width);
    int (*sum)(void *ctx, const clab_split *S, clab_xsum *acc, int count);
    int (*max)(void *ctx, const clab_split *S, double *m, int count);
    void *ctx;
} clab_split_comm;

/* Build all P parts (nlocal = P) from the global CCP P and owner[k] in 0 .. nparts - 1 for
 * every body (ignored for inert bodies). CLAB_EINVAL (an owner out of range), CLAB_ENOMEM. */
int clab_split_build(clab_split *S, const clab_ccp *P, const int *owner, int nparts, clab_error *err);
/* Part r alone (nlocal = 1; its recv lists, no send lists: the caller's communication knows
 * whom to send), as clab_split_build builds it: one part per process under MPI, from the CCP of
 * the process's contacts (the global order restricted to them) and owner of its bodies. */
int clab_split_build_part(clab_split *S, const clab_ccp *P, const int *owner, int nparts, int r, clab_error *err);
void clab_split_free(clab_split *S);

/* nu (global, [n]) to the parts' x[j] ([part j's P.n]), and back (each block from the part
 * that counts it) */
void clab_split_scatter(const clab_split *S, const double *nu, double *const *x);
void clab_split_gather(const clab_split *S, double *const *x, double *nu);

/* The velocity update v(l+1) - v* of Eq. (9) (plain.h, clab_ccp_plain_dv) of the owned bodies:
 * dv[j] of part j [6 P.nbodies] (owned slots valid, the others scratch); then to the global
 * dv_global [6 nbodies] (inert bodies 0). */
void clab_split_dv(const clab_split *S, double *const *x, double *const *dv, double *dv_global);

/* What one part sent: messages and bytes of the exchanges, and its all-reduces. */
typedef struct clab_split_counts {
    long exchanges;     /* exchange calls */
    long messages;      /* point-to-point messages sent (one a neighbour part an exchange) */
    long bytes;         /* their bytes */
    long reductions;    /* all-reduce calls (sum and max) */
    long reduce_bytes;  /* bytes this part contributes to them */
} clab_split_counts;

/* All parts in one process, one phase after another. */
typedef struct clab_split_loopback {
    clab_split_counts *counts; /* [nparts] */
    int nparts;
} clab_split_loopback;
int clab_split_loopback_init(clab_split_loopback *lb, int nparts);
void clab_split_loopback_free(clab_split_loopback *lb);
void clab_split_loopback_reset(clab_split_loopback *lb);
clab_split_comm clab_split_loopback_comm(clab_split_loopback *lb);
/* bytes of one clab_xsum in a sum: its digits and its three non-finite flags (int64 each) */
#define CLAB_SPLIT_XSUM_BYTES ((CLAB_XSUM_DIGITS + 3) * 8)

/* ---- split_solvers.c ---- */

/* An observer called after every iteration (iteration 1, 2, ..) with the parts' iterates
 * x[j] (jacobi, gs: the iterate; apgd: x_{k+1}, before the momentum). */
typedef struct clab_split_control {
    void (*observe)(void *ctx, long iteration, const clab_split *S, double *const *x);
    void *ctx;
} clab_split_control;

/* The split Gauss-Seidel relaxes a block shared between parts (a Jacobi update across them)
 * by 1 / max(k_a, k_b), k_b the number of shared blocks on its body b: every sweep then
 * decreases the QP's objective on any partition (split_solvers.c, gs_shared_omega). A fixed
 * 0.5 diverged on the pile of doc/mpi.md cut into bricks narrower than a sphere (--grid 4x1x1:
 * every contact shared, up to 12 on a body). */

/* Solve the CCP split over S with the solver of that name ("jacobi", "apgd": the iterates of
 * the plain solver with sums=exact, to the bit; "gs": Gauss-Seidel inside a part, Jacobi on
 * the shared blocks, whose iterates depend on the partition). x[j]: part j's
 * initial guess on entry, its solution on exit; res (the same on every part) keeps its
 * history in part 0's work. ctl may be NULL. CLAB_EINVAL for another name; otherwise the
 * codes of ccp_solver.h, the same on every part. */
int clab_split_solve(const char *name, const clab_split *S, const clab_split_comm *comm, const clab_ccp_options *o,
                     const clab_split_control *ctl, double *const *x, clab_ccp_result *res, clab_error *err);

/* The complementarity diagnostics of Eq. (7)-(8) of the parts' x (ccp_solver.h), one
 * process's numbers: d = N x + p by one product (u, d: body and row scratch of every part;
 * d left holding it), each part's maxima over its blocks, then a max all-reduce. Called by
 * every part. */
int clab_split_diagnose(const clab_split *S, const clab_split_comm *comm, double *const *x, double *const *u,
                        double *const *d, clab_ccp_diagnostics *out, clab_error *err);

#endif
