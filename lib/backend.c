/* backend.c: the registry of contact backends, a constant table */
#include "clab_backend.h"

#include <string.h>

#include "clab_backends.h"

static const clab_backend_type *const registry[] = {
    &clab_backend_penalty,
    &clab_backend_dvi,
    NULL};

const clab_backend_type *const *clab_backend_all(void) { return registry; }

const clab_backend_type *clab_backend_lookup(const char *name)
{
    for (size_t i = 0; registry[i]; i++)
        if (strcmp(registry[i]->name, name) == 0) return registry[i];
    return NULL;
}
