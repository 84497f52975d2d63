/* contact.c: the growable contact array */
#include "clab_contact.h"

#include <stdlib.h>

void clab_contacts_init(clab_contacts *cs)
{
    cs->c = NULL;
    cs->n = cs->cap = 0;
    cs->increasing = 1;
}

void clab_contacts_free(clab_contacts *cs)
{
    free(cs->c);
    clab_contacts_init(cs);
}

int clab_contacts_push(clab_contacts *cs, const clab_contact *c)
{
    if (cs->n == cs->cap) {
        size_t cap = cs->cap ? 2 * cs->cap : 64;
        clab_contact *p = realloc(cs->c, cap * sizeof *p);
        if (!p) return CLAB_ENOMEM;
        cs->c = p;
        cs->cap = cap;
    }
    if (cs->n && !(cs->c[cs->n - 1].key < c->key)) cs->increasing = 0;
    cs->c[cs->n++] = *c;
    return CLAB_OK;
}
