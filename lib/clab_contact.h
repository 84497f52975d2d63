/* clab_contact.h: the contact records one collision pass produces, shared by all backends.
 *
 * Contact event i between bodies A < B (seed 000, Sect. 2): a point P, an orthonormal
 * right-handed frame (n, u, w) with n pointing from A to B and n x u = w, the signed gap
 * Phi (negative = penetration), and P in each body's centroidal frame (sbar_A, sbar_B),
 * from which the D_i blocks follow. The record holds n; u and w follow from it
 * (clab_contact_frame), the same bits every time. P itself is not stored: no backend reads it
 * (lever arms come from sbar_A, sbar_B), and clab_contact_point gives it back from body a.
 * Backends index this array; they do not copy it. */
#ifndef CLAB_CONTACT_H
#define CLAB_CONTACT_H

#include <stddef.h>
#include <stdint.h>

#include "clab_body.h"
#include "clab_error.h"
#include "clab_math.h"

typedef struct clab_contact {
    int a, b;          /* body indices, a < b */
    clab_vec3 n;       /* contact normal, world: from a to b (the frame's u, w: clab_contact_frame) */
    double phi;        /* gap Phi [m]; < 0 is penetration (penalty overlap delta_n = -Phi) */
    clab_vec3 sa, sb;  /* the contact point P (midway between the two surfaces) in the body frames
                        * of a and b: sbar_{i,A}, sbar_{i,B} [m]; P itself: clab_contact_point */
    uint64_t key;      /* stable key (a, b, feature), the same while the contact persists */
} clab_contact;

/* The tangent directions u, w of the contact frame (n, u, w), n x u = w: a function of n alone
 * (clab_v3_frame), the same bits wherever it is called, so the record does not store them
 * (48 of its 168 bytes; 120 without them). */
static inline void clab_contact_frame(const clab_contact *c, clab_vec3 *u, clab_vec3 *w)
{
    clab_v3_frame(c->n, u, w);
}

/* The contact point P [m], world, midway between the two surfaces: r_a + A(e_a) sbar_A, seen
 * from body a (bodies: the world's body array). The narrow phase formed sbar_A from P, so this
 * is P to rounding (a few ulps of |r_a|); with periodic boundaries it lies near body a (b's
 * image may be a period away from b itself, so r_b + A(e_b) sbar_B can differ by a period).
 * Only outputs and tests need it: the record does not store it (24 of its 120 bytes). */
static inline clab_vec3 clab_contact_point(const clab_contact *c, const clab_body *bodies)
{
    return clab_body_point(&bodies[c->a], c->sa);
}

/* One array of contact records; grows as needed, reused step after step. */
typedef struct clab_contacts {
    clab_contact *c; /* [n] records */
    size_t n;        /* records in use */
    size_t cap;      /* records allocated */
    int increasing;  /* 1: the keys increase strictly (clab_collide's output; clab_contacts_push
                      * keeps it while they do); 0: no order known. Whoever writes records
                      * in place sets it */
} clab_contacts;

/* Key of a contact: body a in bits 63..38, body b in bits 37..12, feature in bits 11..0
 * (2^26 = 67 million bodies, 4096 features per pair, e.g. box vertex or edge ids). */
static inline uint64_t clab_contact_key(int a, int b, unsigned feature)
{
    return ((uint64_t)(unsigned)a << 38) | ((uint64_t)(unsigned)b << 12) | (uint64_t)(feature & 0xfffu);
}

/* The key of a contact after its bodies are renumbered (old body i becomes inv[i]): the
 * bodies in index order again, the feature kept; *swapped = 1 when they change order (the
 * normal, from a to b, is then reversed). Used by the backends' permute (clab_backend.h). */
static inline uint64_t clab_contact_key_permute(uint64_t key, const size_t *inv, int *swapped)
{
    size_t a = inv[(size_t)(key >> 38)], b = inv[(size_t)((key >> 12) & 0x3ffffffu)];
    *swapped = a > b;
    return *swapped ? clab_contact_key((int)b, (int)a, (unsigned)(key & 0xfffu))
                    : clab_contact_key((int)a, (int)b, (unsigned)(key & 0xfffu));
}

void clab_contacts_init(clab_contacts *cs);
void clab_contacts_free(clab_contacts *cs);
/* Append one record (copied); CLAB_ENOMEM on allocation failure. */
int clab_contacts_push(clab_contacts *cs, const clab_contact *c);
static inline void clab_contacts_clear(clab_contacts *cs)
{
    cs->n = 0;
    cs->increasing = 1;
}
/* The first of the n records c, sorted by body a (clab_collide's output), whose body a is
 * >= i (n when none): a binary search. Records in another order give some index in [0, n]. */
static inline size_t clab_contacts_first_a(const clab_contact *c, size_t n, size_t i)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((size_t)c[mid].a < i) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

#endif
