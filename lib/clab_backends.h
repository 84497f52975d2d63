/* clab_backends.h: the backend type objects defined in penalty/ and dvi/. */
#ifndef CLAB_BACKENDS_H
#define CLAB_BACKENDS_H

#include "clab_backend.h"

extern const clab_backend_type clab_backend_penalty; /* penalty/penalty_backend.c */
extern const clab_backend_type clab_backend_dvi;     /* dvi/dvi_backend.c */

#endif
