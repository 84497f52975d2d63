/* fast_scatter.h: how the penalty fast path sums its contact forces on the bodies (included by
 * fast_step.c and fast_bodies.c only): each force added to its two bodies' sums as it is made
 * (contact_scatter, one thread), split among threads by ranges of bodies a (split_scatter,
 * the terms of bodies another thread owns kept for it), or summed a body from lists of its
 * contacts (by_b, body_sums). Every way adds the same terms in the same order (contact order
 * a body), so the sums are the same bits as the plain step's (step.c). */
#ifndef CLAB_PENALTY_FAST_SCATTER_H
#define CLAB_PENALTY_FAST_SCATTER_H

#include "fast_contact.h"

/* a body's contact sums as one thread scatters them (contact_scatter): the force F (world)
 * and the torque tau (a sphere: world, turned once by the body loop; any other body: its own
 * frame), 48 bytes */
typedef struct pen_acc {
    clab_vec3 F, tau;
} pen_acc;

/* one side's share of a contact's force and torque (contact_terms, side_term), j the body: F
 * added to its force (sign +1, body b) or subtracted (-1, body a), s c added to its torque,
 * then M added or subtracted (rolling=cdt); term_add */
typedef struct pen_term {
    clab_vec3 F, c, M;
    double s;
    uint32_t j;
    int32_t sign;
} pen_term;

/* a term one thread of the split scatter leaves for body j's owner: side b (k2 odd) or a of
 * contact k2 / 2, formed again from the contact's kept force (side_term: the same bits) */
typedef struct pen_kept {
    uint32_t j, k2;
} pen_kept;

/* the terms one thread of the split scatter leaves for the others to add, in contact order */
typedef struct pen_side {
    pen_kept *e;
    size_t n, cap;
    int nomem; /* a term could not be kept */
} pen_side;

/* the loops that read bodies or contacts in random order ask for them (CLAB_PREFETCH,
 * clab_simd.h) this many items ahead */
#define PEN_AHEAD 8

/* the bodies a and b of contact k as array indices (the sorts of step 3 read them from the
 * records, no copies) */
static inline uint32_t body_a(const clab_contact *cc, size_t k) { return (uint32_t)cc[k].a; }
static inline uint32_t body_b(const clab_contact *cc, size_t k) { return (uint32_t)cc[k].b; }

/* The contacts by body b, one segment of blist a thread of the contact loop: thread u (of T)
 * took contacts [base[u], base[u + 1]), base[u] = nc u / T, and its contacts with b = i are
 * blist[base[u] + row_u[i] .. base[u] + row_u[i + 1]), row_u = brow + u (nb + 1); thread by
 * thread, in contact order. Each thread sorts its own contacts (place_by_b), no thread waits
 * for another's counts */
typedef struct by_b {
    const uint32_t *blist, *brow;
    const size_t *base;
    size_t nb;
    int T;
} by_b;

/* the contacts of body i as b, segment u: [*q0, *q1) of blist */
static inline void by_b_range(const by_b *L, size_t i, int u, size_t *q0, size_t *q1)
{
    const uint32_t *row = L->brow + (size_t)u * (L->nb + 1);
    *q0 = L->base[u] + row[i];
    *q1 = L->base[u] + row[i + 1];
}

/* the contacts before body i as b (all segments) */
static inline size_t by_b_before(const by_b *L, size_t i)
{
    size_t n = 0;
    for (int u = 0; u < L->T; u++) n += L->brow[(size_t)u * (L->nb + 1) + i];
    return n;
}

/* The contact sums of body i, in contact order (as b: its segments of the lists by b, then as
 * a: [a0, a1) of the contacts, through alist when given): the force F and the torques l x F.
 * A sphere's lever to a contact point lies on the normal (every narrow-phase routine puts P
 * on the line through its center along n, Phi/2 outside its surface): l = -h n as b and
 * +h n as a, h = R + Phi/2 (or R, lever=surface), so both sides add -h (n x F), summed in the
 * world frame (the body loop turns it once, taubar = A^T tau). Any other body sums
 * lbar x (A^T F) in its own frame, lbar = sbar (or the surface point, lever=surface).
 * contact_scatter adds the same terms in the same order (contact order), one contact at a time. */
static CLAB_ALWAYS_INLINE void body_sums(const clab_world *w, size_t i, const pen_body *pi, const clab_contact *cc,
                                         const clab_lever *lv, const clab_vec3 *Fc, const clab_vec3 *Mr, const by_b *LB,
                                         const uint32_t *alist, uint32_t a0, uint32_t a1, int surface, int rolling,
                                         clab_vec3 *F_out, clab_vec3 *tau_out)
{
    clab_vec3 F = clab_v3(0.0, 0.0, 0.0), tau = F;
    const uint32_t *blist = LB->blist;
    if (pen_sphere(pi)) {
        const double R = pi->R;
        for (int u = 0; u < LB->T; u++) {
            size_t q0, q1;
            by_b_range(LB, i, u, &q0, &q1);
            for (size_t q = q0; q < q1; q++) {
                uint32_t k = blist[q];
                double hk = surface ? R : R + 0.5 * cc[k].phi;
                F = clab_v3_add(F, Fc[k]);
                tau = clab_v3_madd(tau, -hk, clab_v3_cross(cc[k].n, Fc[k]));
                if (rolling) tau = clab_v3_add(tau, Mr[k]);
            }
        }
        for (uint32_t q = a0; q < a1; q++) {
            uint32_t k = alist ? alist[q] : q;
            double hk = surface ? R : R + 0.5 * cc[k].phi;
            F = clab_v3_sub(F, Fc[k]);
            tau = clab_v3_madd(tau, -hk, clab_v3_cross(cc[k].n, Fc[k]));
            if (rolling) tau = clab_v3_sub(tau, Mr[k]);
        }
    } else {
        clab_mat33 A = clab_q_to_A(w->bodies[i].e);
        for (int u = 0; u < LB->T; u++) {
            size_t q0, q1;
            by_b_range(LB, i, u, &q0, &q1);
            for (size_t q = q0; q < q1; q++) {
                uint32_t k = blist[q];
                clab_vec3 Fbar = clab_m33_tmulv(A, Fc[k]), l, sa;
                clab_contact_levers(&cc[k], lv, w->bodies, &sa, &l); /* stored: body i is not a sphere */
                if (surface) l = clab_v3_madd(l, 0.5 * cc[k].phi, clab_m33_tmulv(A, cc[k].n));
                F = clab_v3_add(F, Fc[k]);
                tau = clab_v3_add(tau, clab_v3_cross(l, Fbar));
                if (rolling) tau = clab_v3_add(tau, clab_m33_tmulv(A, Mr[k]));
            }
        }
        for (uint32_t q = a0; q < a1; q++) {
            uint32_t k = alist ? alist[q] : q;
            clab_vec3 Fbar = clab_m33_tmulv(A, Fc[k]), l, sb;
            clab_contact_levers(&cc[k], lv, w->bodies, &l, &sb);
            if (surface) l = clab_v3_madd(l, -0.5 * cc[k].phi, clab_m33_tmulv(A, cc[k].n));
            F = clab_v3_sub(F, Fc[k]);
            tau = clab_v3_sub(tau, clab_v3_cross(l, Fbar));
            if (rolling) tau = clab_v3_sub(tau, clab_m33_tmulv(A, Mr[k]));
        }
    }
    *F_out = F;
    *tau_out = tau;
}

/* the term of side j (as_b: body b, else a) of contact ck when that body is not a sphere:
 * +-1 times lbar x (A^T F) in its own frame (the same bits as adding or subtracting it), lbar
 * its stored lever (moved to its surface point by -+Phi/2 n with lever=surface), and +-A^T M */
static CLAB_ALWAYS_INLINE void frame_term(const clab_world *w, const clab_contact *ck, const clab_lever *lv, int as_b,
                                          clab_vec3 F, clab_vec3 M, int surface, int rolling, pen_term *t)
{
    const clab_mat33 A = clab_q_to_A(w->bodies[as_b ? ck->b : ck->a].e);
    clab_vec3 la, lb;
    clab_contact_levers(ck, lv, w->bodies, &la, &lb); /* stored: this side is not a sphere */
    clab_vec3 l = as_b ? lb : la;
    if (surface) l = clab_v3_madd(l, (as_b ? 0.5 : -0.5) * ck->phi, clab_m33_tmulv(A, ck->n));
    t->s = as_b ? 1.0 : -1.0;
    t->c = clab_v3_cross(l, clab_m33_tmulv(A, F));
    if (rolling) t->M = clab_m33_tmulv(A, M);
}

/* the term of side j (as_b: body b, else a) of contact ck with force F and couple M, the term
 * of body_sums: a sphere adds -h (n x F), h = R + Phi/2 (R, lever=surface); any other body
 * frame_term. Reads no other body */
static CLAB_ALWAYS_INLINE void side_term(const pen_body *pb, const clab_world *w, const clab_contact *ck,
                                         const clab_lever *lv, int as_b, clab_vec3 F, clab_vec3 M, int surface,
                                         int rolling, pen_term *t)
{
    const pen_body *J = &pb[as_b ? ck->b : ck->a];
    *t = (pen_term){F, F, M, 0.0, (uint32_t)(as_b ? ck->b : ck->a), as_b ? 1 : -1};
    if (pen_sphere(J)) {
        t->s = -(surface ? J->R : J->R + 0.5 * ck->phi);
        t->c = clab_v3_cross(ck->n, F);
    } else {
        frame_term(w, ck, lv, as_b, F, M, surface, rolling, t);
    }
}

/* Contact k's force F (on b; -F on a) and rolling couple M as the terms of its two bodies'
 * sums (tb for b, ta for a): side_term's, with one cross product for both when both are
 * spheres. The couple M only with rolling */
static CLAB_ALWAYS_INLINE void contact_terms(const pen_body *pb, const clab_world *w, const clab_contact *ck,
                                             const clab_lever *lv, clab_vec3 F, clab_vec3 M, int surface, int rolling,
                                             pen_term *ta, pen_term *tb)
{
    const pen_body *A = &pb[ck->a], *B = &pb[ck->b];
    *tb = (pen_term){F, F, M, 0.0, (uint32_t)ck->b, 1};
    *ta = (pen_term){F, F, M, 0.0, (uint32_t)ck->a, -1};
    if (pen_sphere(A) && pen_sphere(B)) { /* the common case: one cross product for both */
        const clab_vec3 c = clab_v3_cross(ck->n, F);
        tb->c = ta->c = c;
        tb->s = -(surface ? B->R : B->R + 0.5 * ck->phi);
        ta->s = -(surface ? A->R : A->R + 0.5 * ck->phi);
        return;
    }
    side_term(pb, w, ck, lv, 1, F, M, surface, rolling, tb);
    side_term(pb, w, ck, lv, 0, F, M, surface, rolling, ta);
}

/* a term added to its body's sums: F + F_k or F - F_k, tau + s c (a sphere's -h (n x F); +-1
 * times another body's product: x + 1 y = x + y, x + (-1) y = x - y, exactly), then +-M */
static CLAB_ALWAYS_INLINE void term_add(pen_acc *x, const pen_term *e, int rolling)
{
    x->F = e->sign > 0 ? clab_v3_add(x->F, e->F) : clab_v3_sub(x->F, e->F);
    x->tau = clab_v3_madd(x->tau, e->s, e->c);
    if (rolling) x->tau = e->sign > 0 ? clab_v3_add(x->tau, e->M) : clab_v3_sub(x->tau, e->M);
}

/* Contact k's terms added to the sums of its two bodies (acc): on one thread, in contact order,
 * each body gets them in the order body_sums takes them when the contacts run by body a (a
 * body's contacts as b, whose a is lower, all come before its contacts as a), so the sums are
 * the same to the bit */
static CLAB_ALWAYS_INLINE void contact_scatter(pen_acc *acc, const pen_body *pb, const clab_world *w,
                                               const clab_contact *ck, const clab_lever *lv, clab_vec3 F,
                                               clab_vec3 M, int surface, int rolling)
{
    pen_term ta, tb;
    contact_terms(pb, w, ck, lv, F, M, surface, rolling, &ta, &tb);
    term_add(&acc[tb.j], &tb, rolling);
    term_add(&acc[ta.j], &ta, rolling);
}

/* one term of the split scatter (below): added to body j's sums at once, or kept (side, as
 * the contact and its side k2) for j's owner */
static CLAB_ALWAYS_INLINE void split_term(pen_acc *acc, pen_side *side, const uint32_t *low, uint32_t B0,
                                          uint32_t B1, const pen_term *e, size_t k2, int rolling)
{
    const uint32_t j = e->j;
    if (j >= B0 && j < B1 && low[j] >= B0) {
        term_add(&acc[j], e, rolling);
    } else if (side->n < side->cap || !clab_penalty_grow(&side->e, &side->cap, side->n + 1, sizeof(pen_kept))) {
        side->e[side->n++] = (pen_kept){j, (uint32_t)k2};
    } else {
        side->nomem = 1;
    }
}

/* The split scatter of thread t, which takes the contacts of bodies a in [B0, B1) (the
 * contacts sorted by a): a term of a body j in [B0, B1) that no contact of a lower thread
 * touches (low[j] >= B0, clab_contacts.low) is added to its sums at once, as one thread adds
 * them; every other term is kept (side, in contact order) for the owner of j, which adds them
 * after the contact loop, thread by thread (split_add). Body j's sums are then formed in
 * contact order as on one thread: the same bits. Returns 1 when low is wrong for this contact
 * (low[b] > a: b's owner may have taken b for untouched by lower threads), 0 else; a term not
 * kept for want of memory sets side->nomem */
static CLAB_ALWAYS_INLINE int split_scatter(pen_acc *acc, pen_side *side, const uint32_t *low, uint32_t B0,
                                            uint32_t B1, const pen_body *pb, const clab_world *w,
                                            const clab_contact *ck, size_t k, const clab_lever *lv, clab_vec3 F,
                                            clab_vec3 M, int surface, int rolling)
{
    /* the two terms as separate locals, not an array walked by a loop: the compiler keeps
     * them in registers (as an array in memory, a 16-byte load of a term's couple right after
     * its two 8-byte stores stalled on the failed store forwarding, a sixth of the two-thread
     * contact loop) */
    pen_term ta, tb;
    contact_terms(pb, w, ck, lv, F, M, surface, rolling, &ta, &tb);
    split_term(acc, side, low, B0, B1, &ta, 2 * k, rolling);
    split_term(acc, side, low, B0, B1, &tb, 2 * k + 1, rolling);
    return low[ck->b] > (uint32_t)ck->a;
}

#endif
