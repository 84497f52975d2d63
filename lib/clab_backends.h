/* clab_backends.h: the contact backends the library registers, as type objects. A program
 * usually picks one by name instead (clab_sim_create's backend, clab_backend_lookup) or walks
 * them all (clab_backend_all); a new backend defines its object in its own directory, declares
 * it here and adds it to the registry in lib/backend.c. */
#ifndef CLAB_BACKENDS_H
#define CLAB_BACKENDS_H

#include "clab_backend.h"

/* "penalty": Hertz-Mindlin (or Hooke) penalty DEM with the tangential history and the Coulomb
 * cap (penalty/penalty_backend.c) */
extern const clab_backend_type clab_backend_penalty;
/* "dvi": the Tasora-Anitescu cone complementarity (CCP) time stepper, with the
 * Lacoursiere-Servin regularization and De Saxce's exact Coulomb friction as options
 * (dvi/dvi_backend.c) */
extern const clab_backend_type clab_backend_dvi;
/* "midpoint": Solfec's constrained midpoint scheme with exact Coulomb friction (Alart-Curnier
 * local Newton, Gauss-Seidel over contacts) and Newton restitution (midpoint/midpoint_backend.c) */
extern const clab_backend_type clab_backend_midpoint;
/* "lcp": the Stewart-Trinkle / Anitescu-Potra LCP time stepper with a polyhedral friction cone
 * (lcp/lcp_backend.c) */
extern const clab_backend_type clab_backend_lcp;

#endif
