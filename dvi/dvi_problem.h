/* dvi_problem.h: the CCP of the DVI backend's last step, read-only, for the exporters (the
 * FCLIB writer, fclib/). Nothing is kept or copied for it: the backend holds the problem of
 * its last step anyway (clab_dvi.ccp), this only hands out pointers to it, so a run that
 * exports nothing pays nothing. Not installed. */
#ifndef CLAB_DVI_PROBLEM_H
#define CLAB_DVI_PROBLEM_H

#include "ccp.h"
#include "clab_sim.h"

typedef struct clab_dvi_problem {
    const clab_ccp *ccp;   /* the CCP of Eq. (10) of the last step: rows of D^T, mu, M^-1, blocks */
    const double *p;       /* [ccp->n] its p without the De Saxce shift (friction=exact solves with
                              p + [mu |v_T|, 0, 0]; this is the p0 they started from) [m/s] */
    const double *nu;      /* [ccp->n] the step's impulses [N s] */
    int exact;             /* 1: friction=exact (the step solved Coulomb's problem (E)) */
    double recovery_speed; /* the cap on -Phi/h the step used [m/s] */
} clab_dvi_problem;

/* The problem of s's last step. CLAB_EINVAL when s does not run the DVI backend, or no step
 * with contacts has been taken yet (ccp->n = 0: nothing to export). */
int clab_dvi_last_problem(const clab_sim *s, clab_dvi_problem *out, clab_error *err);

#endif
