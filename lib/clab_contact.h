/* clab_contact.h: the contact records one collision pass produces, shared by all backends.
 *
 * Contact event i between bodies A < B (seed 000, Sect. 2): a point P, an orthonormal
 * right-handed frame (n, u, w) with n pointing from A to B and n x u = w, the signed gap
 * Phi (negative = penetration), and P in each body's centroidal frame (sbar_A, sbar_B),
 * from which the D_i blocks follow. The record holds n; u and w follow from it
 * (clab_contact_frame), the same bits every time. P itself is not stored: no backend reads it
 * (lever arms come from sbar_A, sbar_B), and clab_contact_point gives it back from body a.
 *
 * sbar_A, sbar_B are stored only for a contact with a side other than a sphere, in a side
 * array of the container (clab_lever, indexed by the record's lever). A sphere's side needs
 * none: every narrow-phase routine puts P on the line through the sphere's center along n,
 * Phi/2 outside its surface (P = r_A + (R_A + Phi/2) n for a sphere as body a,
 * P = r_B - (R_B + Phi/2) n as body b), so sbar follows from n, Phi, R and e
 * (clab_contact_levers). Two spheres, most contacts of a granular scene, keep no levers.
 * Backends index this array; they do not copy it. */
#ifndef CLAB_CONTACT_H
#define CLAB_CONTACT_H

#include <stddef.h>
#include <stdint.h>

#include "clab_body.h"
#include "clab_error.h"
#include "clab_math.h"

/* the record's lever of a contact between two spheres: no stored levers */
#define CLAB_LEVER_NONE UINT32_MAX

typedef struct clab_contact {
    int a, b;          /* body indices, a < b */
    clab_vec3 n;       /* contact normal, world: from a to b (the frame's u, w: clab_contact_frame) */
    double phi;        /* gap Phi [m]; < 0 is penetration (penalty overlap delta_n = -Phi) */
    uint64_t key;      /* stable key (a, b, feature), the same while the contact persists */
    uint32_t lever;    /* the stored sbar_A, sbar_B: clab_contacts.lv[lever] (a side other than a
                        * sphere), or CLAB_LEVER_NONE (two spheres: derived, clab_contact_levers) */
    uint32_t unused;   /* 0: the record has no padding bytes (records compare with memcmp) */
} clab_contact;
/* 56 bytes (96 with sbar_A, sbar_B in the record; 168 with u, w too) */
_Static_assert(sizeof(clab_contact) == 56, "clab_contact: 56 bytes, no padding");

/* The contact point P in the body frames of a and b, sbar_{i,A} and sbar_{i,B} [m], stored for
 * a contact with a side other than a sphere. */
typedef struct clab_lever {
    clab_vec3 sa, sb;
} clab_lever;

/* The tangent directions u, w of the contact frame (n, u, w), n x u = w: a function of n alone
 * (clab_v3_frame), the same bits wherever it is called, so the record does not store them. */
static inline void clab_contact_frame(const clab_contact *c, clab_vec3 *u, clab_vec3 *w)
{
    clab_v3_frame(c->n, u, w);
}

/* sbar_A, sbar_B [m] of record c: the stored levers lv[c->lever] (lv: its container's side
 * array), or for two spheres (c->lever = CLAB_LEVER_NONE; bodies: the world's body array, as
 * the narrow phase saw it) P - r in each sphere's frame from P on the line of centers,
 *     sbar_A = A(e_a)^T (R_a + Phi/2) n,    sbar_B = -A(e_b)^T (R_b + Phi/2) n,
 * which is what the narrow phase formed from P before (r_a + R_a n and r_b - R_b n to the two
 * surfaces, P midway) up to rounding: that P - r lost a few ulps of |r| to the subtraction, this
 * one is good to an ulp or two of R + Phi/2. Periodic images change neither (only n, Phi). */
static inline void clab_contact_levers(const clab_contact *c, const clab_lever *lv, const clab_body *bodies,
                                       clab_vec3 *sa, clab_vec3 *sb)
{
    if (c->lever != CLAB_LEVER_NONE) {
        *sa = lv[c->lever].sa;
        *sb = lv[c->lever].sb;
        return;
    }
    const clab_body *A = &bodies[c->a], *B = &bodies[c->b];
    const double half = 0.5 * c->phi;
    *sa = clab_q_rotate_inv(A->e, clab_v3_scale(c->n, A->shape.radius + half));
    *sb = clab_q_rotate_inv(B->e, clab_v3_scale(c->n, -(B->shape.radius + half)));
}

/* One array of contact records; grows as needed, reused step after step. */
typedef struct clab_contacts {
    clab_contact *c; /* [n] records */
    size_t n;        /* records in use */
    size_t cap;      /* records allocated */
    int increasing;  /* 1: the keys increase strictly (clab_collide's output; clab_contacts_push
                      * keeps it while they do); 0: no order known. Whoever writes records
                      * in place sets it */
    clab_lever *lv;  /* [nlv] the side array: the stored levers, indexed by the records' lever */
    size_t nlv;      /* levers in use */
    size_t caplv;    /* levers allocated */
    struct clab_partition *partition; /* private (lib/clab_partition.h, not installed): the
                          * collider's thread partition of these records, for a backend's fast
                          * path; NULL until one is set. Owned; whoever writes records in place
                          * drops it (clab_contacts_push and _clear do) */
} clab_contacts;

/* The contact point P [m], world, midway between the two surfaces: r_a + A(e_a) sbar_A of
 * record i of cs, seen from body a (bodies: the world's body array). P to rounding (a few ulps
 * of |r_a|); with periodic boundaries it lies near body a (b's image may be a period away from
 * b itself, so r_b + A(e_b) sbar_B can differ by a period). Only outputs and tests need it. */
static inline clab_vec3 clab_contact_point(const clab_contacts *cs, size_t i, const clab_body *bodies)
{
    clab_vec3 sa, sb;
    clab_contact_levers(&cs->c[i], cs->lv, bodies, &sa, &sb);
    return clab_body_point(&bodies[cs->c[i].a], sa);
}

/* the stored levers of record i of cs, NULL for two spheres (for clab_contacts_push of a copy) */
static inline const clab_lever *clab_contacts_lever_of(const clab_contacts *cs, size_t i)
{
    return cs->c[i].lever == CLAB_LEVER_NONE ? NULL : &cs->lv[cs->c[i].lever];
}

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
/* Append one record (copied) with its levers: lv NULL for two spheres (the copy's lever is
 * CLAB_LEVER_NONE), else *lv is appended to the side array and the copy indexes it (c->lever
 * itself is not read). Keeps increasing while the keys increase. CLAB_ENOMEM on allocation
 * failure. */
int clab_contacts_push(clab_contacts *cs, const clab_contact *c, const clab_lever *lv);
/* room for n records and nlv levers (contents kept; capacities grow by doubling); CLAB_OK or
 * CLAB_ENOMEM */
int clab_contacts_reserve(clab_contacts *cs, size_t n, size_t nlv);
/* empty the list (its storage kept), keys increasing, no partition */
void clab_contacts_clear(clab_contacts *cs);
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
