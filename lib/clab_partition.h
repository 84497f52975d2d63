/* clab_partition.h (not installed): the collider's thread partition of a contact list, which a
 * backend's fast path may use to cut its own threads' work (the penalty step's split scatter,
 * penalty/fast_step.c; the history's alignment, penalty/history.c). The collider
 * (lib/collide.c) sets it on the list it writes; whoever writes records in place drops it
 * (clab_contacts_push and clab_contacts_clear do). A backend that does not use it needs none. */
#ifndef CLAB_PARTITION_H
#define CLAB_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#include "clab_contact.h"

typedef struct clab_partition {
    const uint32_t *low; /* NULL, or [bodies] a lower bound on the bodies that meet body j:
                          * low[j] <= a for every record with b = j (clab_collide when more than
                          * one thread may run: the lowest body sharing a candidate pair with j,
                          * j itself when none; the collider's array, valid until its next
                          * call). A thread that takes the records of bodies a >= i0 knows from
                          * it which bodies no record below i0 touches (the split scatter) */
    const size_t *part;  /* NULL, or [nparts + 1]: records part[t] .. part[t+1] were made by thread
                          * t of the collider's narrow phase, from a range of rows (bodies a) of
                          * its own, its cut balanced by the threads' times (about as much work
                          * each: a backend may cut its own threads' contacts there). The
                          * collider's array, valid until its next call; NULL (and nparts 0)
                          * like low */
    int nparts;
} clab_partition;

/* The partition of cs; all NULL and 0 when none was set since the records were last written. */
static inline clab_partition clab_contacts_partition(const clab_contacts *cs)
{
    return cs->partition ? *cs->partition : (clab_partition){NULL, NULL, 0};
}

/* Set the bounds low (see clab_partition; NULL: none) of cs, or the collider's shares part,
 * nparts: for the collider, after it wrote the records. The partition is a hint: when its
 * small record cannot be allocated, cs simply has none (the fast paths then cut their threads'
 * work another way, to the same bits). */
void clab_contacts_set_low(clab_contacts *cs, const uint32_t *low);
void clab_contacts_set_parts(clab_contacts *cs, const size_t *part, int nparts);

#endif
