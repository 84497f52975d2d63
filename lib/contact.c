/* contact.c: the growable contact array and its side array of stored levers */
#include "clab_contact.h"

#include <stdlib.h>

void clab_contacts_init(clab_contacts *cs)
{
    cs->c = NULL;
    cs->n = cs->cap = 0;
    cs->increasing = 1;
    cs->lv = NULL;
    cs->nlv = cs->caplv = 0;
    cs->low = NULL;
    cs->part = NULL;
    cs->nparts = 0;
}

void clab_contacts_free(clab_contacts *cs)
{
    free(cs->c);
    free(cs->lv);
    clab_contacts_init(cs);
}

/* the capacity for n items of size sz, doubling from cap (64 when 0); 0 when it would overflow */
static size_t grown(size_t cap, size_t n, size_t sz)
{
    size_t c = cap ? cap : 64;
    while (c < n) {
        if (c > SIZE_MAX / 2 / sz) return 0;
        c *= 2;
    }
    return c;
}

/* the array *pa of *cap items of size sz with room for n (contents kept); CLAB_OK or CLAB_ENOMEM */
static int reserve_array(void *pa, size_t *cap, size_t n, size_t sz)
{
    if (n <= *cap) return CLAB_OK;
    void **a = pa;
    size_t c = grown(*cap, n, sz);
    void *p = c ? realloc(*a, c * sz) : NULL;
    if (!p) return CLAB_ENOMEM;
    *a = p;
    *cap = c;
    return CLAB_OK;
}

int clab_contacts_reserve(clab_contacts *cs, size_t n, size_t nlv)
{
    if (reserve_array(&cs->c, &cs->cap, n, sizeof *cs->c)) return CLAB_ENOMEM;
    return reserve_array(&cs->lv, &cs->caplv, nlv, sizeof *cs->lv);
}

int clab_contacts_push(clab_contacts *cs, const clab_contact *c, const clab_lever *lv)
{
    if (lv && cs->nlv >= CLAB_LEVER_NONE) return CLAB_ENOMEM; /* the index would not fit */
    if (clab_contacts_reserve(cs, cs->n + 1, cs->nlv + (lv ? 1 : 0))) return CLAB_ENOMEM;
    if (cs->n && !(cs->c[cs->n - 1].key < c->key)) cs->increasing = 0;
    cs->low = NULL; /* the record need not come from the collider's pairs, nor its threads */
    cs->part = NULL;
    cs->nparts = 0;
    clab_contact *d = &cs->c[cs->n++];
    *d = *c;
    d->lever = CLAB_LEVER_NONE;
    if (lv) {
        d->lever = (uint32_t)cs->nlv;
        cs->lv[cs->nlv++] = *lv;
    }
    return CLAB_OK;
}
