/* contact.c: the growable contact array and its side array of stored levers */
#include "clab_contact.h"
#include "clab_partition.h"

#include <stdlib.h>

void clab_contacts_init(clab_contacts *cs)
{
    cs->c = NULL;
    cs->n = cs->cap = 0;
    cs->increasing = 1;
    cs->lv = NULL;
    cs->nlv = cs->caplv = 0;
    cs->partition = NULL;
}

void clab_contacts_free(clab_contacts *cs)
{
    free(cs->c);
    free(cs->lv);
    free(cs->partition);
    clab_contacts_init(cs);
}

/* the partition dropped (its record kept for the next one) */
static void drop_partition(clab_contacts *cs)
{
    if (cs->partition) *cs->partition = (clab_partition){NULL, NULL, 0};
}

void clab_contacts_clear(clab_contacts *cs)
{
    cs->n = cs->nlv = 0;
    cs->increasing = 1;
    drop_partition(cs);
}

/* the partition's record, allocated once; NULL when out of memory */
static clab_partition *partition_of(clab_contacts *cs)
{
    if (!cs->partition && (cs->partition = malloc(sizeof *cs->partition)))
        *cs->partition = (clab_partition){NULL, NULL, 0};
    return cs->partition;
}

void clab_contacts_set_low(clab_contacts *cs, const uint32_t *low)
{
    clab_partition *p = partition_of(cs);
    if (p) p->low = low;
}

void clab_contacts_set_parts(clab_contacts *cs, const size_t *part, int nparts)
{
    clab_partition *p = partition_of(cs);
    if (p) {
        p->part = part;
        p->nparts = part ? nparts : 0;
    }
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
    drop_partition(cs); /* the record need not come from the collider's pairs, nor its threads */
    clab_contact *d = &cs->c[cs->n++];
    *d = *c;
    d->lever = CLAB_LEVER_NONE;
    if (lv) {
        d->lever = (uint32_t)cs->nlv;
        cs->lv[cs->nlv++] = *lv;
    }
    return CLAB_OK;
}
