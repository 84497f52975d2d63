/* backend.c: the registry of contact backends, a constant table, and the fast hooks some of
 * them register (clab_backend_fast.h) */
#include "clab_backend.h"

#include <string.h>

#include "clab_backend_fast.h"
#include "clab_backend_keyed.h"
#include "clab_backends.h"

static const clab_backend_type *const registry[] = {
    &clab_backend_penalty,
    &clab_backend_dvi,
    &clab_backend_midpoint,
    &clab_backend_lcp,
    NULL};

/* the fast paths' hooks, each naming its backend type */
static const clab_backend_fast *const fast_registry[] = {
    &clab_backend_penalty_fast,
    NULL};

const clab_backend_type *const *clab_backend_all(void) { return registry; }

const clab_backend_type *clab_backend_lookup(const char *name)
{
    for (size_t i = 0; registry[i]; i++)
        if (strcmp(registry[i]->name, name) == 0) return registry[i];
    return NULL;
}

const clab_backend_fast *clab_backend_fast_of(const clab_backend_type *type, const void *self)
{
    for (size_t i = 0; fast_registry[i]; i++)
        if (fast_registry[i]->type == type) return fast_registry[i]->enabled(self) ? fast_registry[i] : NULL;
    return NULL;
}

const clab_backend_keyed *clab_backend_keyed_of(const clab_backend_type *type)
{
    if (type == clab_backend_dvi_keyed.type) return &clab_backend_dvi_keyed;
    return type == clab_backend_penalty_keyed.type ? &clab_backend_penalty_keyed : NULL;
}
