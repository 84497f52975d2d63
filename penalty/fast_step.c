/* fast_step.c: the penalty backend's fast path (option fast=on, the default), the same bits as
 * the plain step (step.c; tests/test_penalty_plain.c holds them together). What it adds:
 *   - the bodies gathered once a step into one array (pen_body) inside the collider's pass
 *     over them (the fast hooks gather_begin, gather: lib/clab_backend_fast.h);
 *   - each force scattered to its bodies' sums as it is made (fast_scatter.h), on two or more
 *     OpenMP threads split by ranges of bodies a (the collider's partition, lib/clab_partition.h),
 *     the cuts following the threads' times (clab_balance.h), or summed a body from lists;
 *   - two contacts at a time in SSE2 lanes (fast_contact.h: contact_force2);
 *   - the driver's periodic wrap and state screen fused into its body loop (the fast hook
 *     step_wrap; fast_bodies.c);
 *   - its arrays sized and written ahead of a timed run (the fast hook prepare).
 * Options, formulas and sources: doc/penalty.md. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "clab_backend_fast.h"
#include "clab_backends.h"
#include "clab_clock.h"
#include "clab_collide.h"
#include "clab_partition.h"
#include "fast_bodies.h"

/* the per-body arrays of the gather for nb bodies; 0 on success */
static int reserve_bodies(penalty *p, size_t nb)
{
    if (p->def.orientation_off && clab_penalty_grow(&p->f.still, &p->f.cap_still, nb, 1)) return 1;
    if (nb > p->f.cap_bodies || !p->f.pb) {
        /* pen_body 64-byte aligned: one cache line each (contents not kept) */
        size_t cap = p->f.cap_bodies ? p->f.cap_bodies : 64;
        while (cap < nb) cap *= 2;
        free(p->f.pb);
        p->f.pb = aligned_alloc(64, cap * sizeof(pen_body));
        if (!p->f.pb) {
            p->f.cap_bodies = 0;
            return 1;
        }
        p->f.cap_bodies = cap;
    }
    return 0;
}

/* the lists by b (by_b) of nt threads for nb bodies and nc contacts; 0 on success */
static int reserve_lists(penalty *p, size_t nb, size_t nc, int nt)
{
    return clab_penalty_grow(&p->f.blist, &p->f.cap_blist, nc, sizeof(uint32_t)) ||
           clab_penalty_grow(&p->f.brow, &p->f.cap_brow, (size_t)nt * (nb + 1), sizeof(uint32_t)) ||
           clab_penalty_grow(&p->f.bbase, &p->f.cap_bbase, (size_t)nt, sizeof(size_t));
}

/* the per-step arrays for nb bodies and nc contacts on nt threads; the sums a body by the
 * scatter (acc) when nt = 1 or split (then each thread's terms left for others), else the
 * lists by b (blist) */
static int reserve_step(penalty *p, size_t nb, size_t nc, int nt, int split)
{
    const int scatter = nt == 1 || split;
    if (reserve_bodies(p, nb)) return 1;
    if (split) {
        if ((size_t)nt > p->f.nside) {
            pen_side *s = realloc(p->f.side, (size_t)nt * sizeof *s);
            if (!s) return 1;
            for (size_t t = p->f.nside; t < (size_t)nt; t++) s[t] = (pen_side){NULL, 0, 0, 0};
            p->f.side = s;
            p->f.nside = (size_t)nt;
        }
    }
    if (clab_penalty_grow(&p->Fc, &p->cap_forces, nc, sizeof(clab_vec3))) return 1;
    if (scatter) {
        pen_acc *old = p->f.acc;
        if (clab_penalty_grow(&p->f.acc, &p->f.cap_acc, nb, sizeof(pen_acc))) return 1;
        if (p->f.acc != old) p->f.acc_zero = 0; /* new storage */
        if (!p->f.acc_zero && p->f.acc) memset(p->f.acc, 0, p->f.cap_acc * sizeof(pen_acc));
        p->f.acc_zero = 1;
    } else if (reserve_lists(p, nb, nc, nt)) {
        return 1;
    }
    if (p->def.law.rolling == CLAB_PENALTY_ROLL_CDT && clab_penalty_grow(&p->Mr, &p->cap_mr, nc, sizeof(clab_vec3)))
        return 1;
    return 0;
}

/* Thread t's contacts [k0, k1) sorted by b into blist[k0 .. k1), from the counts row[b + 1]
 * (row: nb + 1 entries, row[0] = 0): the counts turned into offsets, each contact's place,
 * the offsets shifted back to starts (by_b) */
static void place_by_b(const clab_contact *cc, size_t k0, size_t k1, size_t nb, uint32_t *row, uint32_t *blist)
{
    for (size_t j = 0; j < nb; j++) row[j + 1] += row[j];
    for (size_t k = k0; k < k1; k++) blist[k0 + row[cc[k].b]++] = (uint32_t)k;
    for (size_t j = nb; j > 0; j--) row[j] = row[j - 1];
    row[0] = 0;
}

/* after the split scatter: the terms the threads kept for bodies [B0, B1), added thread by
 * thread, each thread's in contact order, each formed again from its contact's kept force Fc
 * and couple Mr (side_term reads only the body of its side, which is this thread's) */
static void split_add(pen_acc *acc, const pen_side *side, int T, uint32_t B0, uint32_t B1, const pen_body *pb,
                      const clab_world *w, const clab_contact *cc, const clab_lever *lv, const clab_vec3 *Fc,
                      const clab_vec3 *Mr, int surface, int rolling)
{
    const clab_vec3 zero = clab_v3(0.0, 0.0, 0.0);
    for (int u = 0; u < T; u++)
        for (size_t q = 0; q < side[u].n; q++) {
            const pen_kept *e = &side[u].e[q];
            if (q + PEN_AHEAD < side[u].n) { /* a later term's body and contact: random reads, started early */
                const pen_kept *f = &side[u].e[q + PEN_AHEAD];
                if (f->j >= B0 && f->j < B1) {
                    CLAB_PREFETCH(&pb[f->j]);
                    CLAB_PREFETCH(&acc[f->j]);
                    CLAB_PREFETCH(&cc[f->k2 / 2]);
                    CLAB_PREFETCH(&Fc[f->k2 / 2]);
                }
            }
            if (e->j < B0 || e->j >= B1) continue;
            const size_t k = e->k2 / 2;
            pen_term t;
            side_term(pb, w, &cc[k], lv, (int)(e->k2 & 1u), Fc[k], rolling ? Mr[k] : zero, surface, rolling, &t);
            term_add(&acc[e->j], &t, rolling);
        }
}

/* the gather ahead of the step (the fast hooks gather_begin, gather: clab_backend_fast.h): the arrays for the
 * world's bodies, then clab_penalty_fast_gather on each range the collider's skin test hands over */
static int penalty_gather_begin(void *self, const clab_world *w, clab_error *err)
{
    penalty *p = self;
    p->f.pre_n = 0;
    p->f.pre_step = -1; /* until ready */
    if (reserve_bodies(p, w->nbodies))
        return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory for %zu bodies", w->nbodies);
    p->f.pre_nb = w->nbodies;
    p->f.pre_step = w->step;
    p->f.pre_m0 = w->nbodies ? w->bodies[0].material : 0;
    p->f.pre_mixed = 0;
    return CLAB_OK;
}

static void penalty_gather(void *self, const clab_world *w, size_t i0, size_t i1)
{
    penalty *p = self;
    if (p->f.pre_step != w->step || i1 > p->f.pre_nb) return; /* not readied: the step gathers itself */
    const int mixed = p->def.orientation_off
                          ? clab_penalty_fast_gather_still(w, p->f.pb, p->f.still, p->f.pre_m0, i0, i1)
                                         : clab_penalty_fast_gather(w, p->f.pb, p->f.pre_m0, i0, i1);
    if (mixed) {
#pragma omp atomic write
        p->f.pre_mixed = 1;
    }
#pragma omp atomic update
    p->f.pre_n += i1 - i0;
}

/* The split scatter's cut: the first body of thread t's contacts (sorted by a), the body of
 * record k_t (its contacts all go to thread t); t = T: nb. k_t is nc f_t, f_t the balance of
 * the last steps' times of the contact loop (bal, clab_balance.h); until there is one, where
 * the collider's thread t started its records when it ran on T threads (its part: the
 * collider cut its rows for about as much work each), else nc t / T. Every thread finds
 * every cut itself */
static size_t split_cut(const clab_contacts *c, const clab_partition *cp, const clab_balance *bal, size_t nb, int t,
                        int T)
{
    const size_t nc = c->n;
    if (t >= T) return nb;
    if (t <= 0) return 0;
    size_t k = nc * (size_t)t / (size_t)T;
    if (bal->T == T) k = (size_t)(clab_balance_at(bal, t, T) * (double)nc);
    else if (cp->part && cp->nparts == T) k = cp->part[t];
    if (k >= nc) return nc == 0 ? nb * (size_t)t / (size_t)T : nb;
    return (size_t)c->c[k].a;
}

/* below this many items a loop runs on one thread (waking threads costs more) */
#define PAR_MIN 4096

/* body b of contact j < k1, a random read of the contact loop, started early (one cache line
 * of pb, one of the sums). Always inlined: left to itself GCC calls it out of line and emits no
 * prefetch at all in the contact loop (history and forces 95 against 45 ns a particle-step on
 * the chute) */
static CLAB_ALWAYS_INLINE void prefetch_b(const clab_contact *cc, const pen_body *pb, const pen_acc *acc, size_t j, size_t k1)
{
    if (j < k1) {
        const size_t bk = (size_t)cc[j].b;
        CLAB_PREFETCH(&pb[bk]);
        CLAB_PREFETCH(&acc[bk]);
    }
}

/* The contact loop of one thread over contacts [k0, k1) (step 2 of clab_penalty_fast_step): each
 * contact's force (contact_force), added to its bodies' sums on one thread (split = 0:
 * contact_scatter, every contact) or split among threads (split = 1: split_scatter, thread t's
 * side, bodies [B0, B1)). Returns whether the contacts run by body a as far as this loop can
 * tell (split: whether low held). Inline with constant split, surface and rolling where the
 * caller knows them, so the compiler drops their branches from the loop */
static CLAB_ALWAYS_INLINE int contact_loop(penalty *p, const clab_world *w, const clab_contacts *c, const pen_body *pb,
                                           pen_acc *acc, pen_side *side, const uint32_t *low, size_t B0, size_t B1,
                                           size_t k0, size_t k1, const clab_penalty_pair *pair1, double h,
                                           int *dropped, const int split, const int surface, const int rolling)
{
    const clab_contact *cc = c->c;
    const clab_vec3 zero = clab_v3(0.0, 0.0, 0.0);
    int by_a = 1, wrong = 0;
#ifdef CLAB_V2
    const int lanes = pair_lanes(p, pair1, rolling);
#endif
    for (size_t i = k0; i < k1; i++) {
        const clab_contact *ci = &cc[i];
        prefetch_b(cc, pb, acc, i + PEN_AHEAD, k1);
        if (!split && i > 0 && body_a(cc, i - 1) > body_a(cc, i)) by_a = 0;
#ifdef CLAB_V2
        if (lanes && i + 1 < k1 && spheres_touching2(pb, ci, ci + 1)) { /* contacts i and i + 1 at once */
            prefetch_b(cc, pb, acc, i + 1 + PEN_AHEAD, k1);
            if (!split && body_a(cc, i) > body_a(cc, i + 1)) by_a = 0;
            clab_vec3 F2[2];
            contact_force2(p, ci, ci + 1, i, pair1, h, surface, F2);
            for (int l = 0; l < 2; l++) {
                if (split)
                    wrong |= split_scatter(acc, side, low, (uint32_t)B0, (uint32_t)B1, pb, w, ci + l, i + (size_t)l,
                                           c->lv, F2[l], zero, surface, 0);
                else
                    contact_scatter(acc, pb, w, ci + l, c->lv, F2[l], zero, surface, 0);
            }
            i++;
            continue;
        }
#endif
        clab_vec3 F = zero;
        if (!(-ci->phi > 0.0)) { /* inside the envelope but not touching: no force, history dropped */
            clab_history_drop_at(&p->hist, i);
            p->Fc[i] = zero;
            if (rolling) p->Mr[i] = zero;
            *dropped = 1;
        } else {
            F = contact_force(p, w, ci, c->lv, i, clab_history_at(&p->hist, i), pair1, h, 1, surface, rolling);
        }
        if (split)
            wrong |= split_scatter(acc, side, low, (uint32_t)B0, (uint32_t)B1, pb, w, ci, i, c->lv, F,
                                   rolling ? p->Mr[i] : zero, surface, rolling);
        else
            contact_scatter(acc, pb, w, ci, c->lv, F, rolling ? p->Mr[i] : zero, surface, rolling);
    }
    stream_end();
    return split ? !wrong : by_a;
}

/* the threads of a step with nb bodies and the contacts c, and *split: two or more threads
 * split the scatter (split_scatter) when the contacts run by a and their bounds low are
 * known (clab_collide's), else they sort their contacts by b */
static int step_threads(const clab_contacts *c, const clab_partition *cp, size_t nb, int *split)
{
    int nt = 1;
#ifdef _OPENMP
    if (nb > PAR_MIN || c->n > PAR_MIN) nt = omp_get_max_threads();
#endif
    *split = nt > 1 && c->increasing && cp->low;
    return nt;
}

/* the fast hook prepare (clab_backend_fast.h). The step's arrays for these bodies and
 * contacts (reserve_step, the history's room), each written once; the history kept. The forces and rolling couples of
 * the last step are zeroed (clab_sim_prepare empties the contact list they belonged to), and
 * nothing is left gathered ahead (the rows of pb are zeroed) */
static int penalty_prepare(void *self, const clab_world *w, const clab_contacts *c, clab_error *err)
{
    penalty *p = self;
    int rc = clab_penalty_check_world(p, w, err);
    if (rc) return rc;
    if (w->nmaterials != p->nmat && (rc = clab_penalty_build_pairs(p, w, err))) return rc;
    const size_t nb = w->nbodies, nc = c->n;
    const clab_partition cp = clab_contacts_partition(c);
    int split;
    const int nt = step_threads(c, &cp, nb, &split);
    if (reserve_step(p, nb, nc, nt, split) || clab_history_prepare(&p->hist, nc, nt))
        return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory for %zu bodies, %zu contacts", nb, nc);
    p->f.pre_n = 0;
    p->f.pre_step = -1;
    memset(p->f.pb, 0, p->f.cap_bodies * sizeof *p->f.pb);
    if (p->f.still) memset(p->f.still, 0, p->f.cap_still);
    p->nforces = 0;
    if (p->Fc) memset(p->Fc, 0, p->cap_forces * sizeof *p->Fc);
    if (p->Mr) memset(p->Mr, 0, p->cap_mr * sizeof *p->Mr);
    if (p->f.blist) memset(p->f.blist, 0, p->f.cap_blist * sizeof *p->f.blist);
    if (p->f.brow) memset(p->f.brow, 0, p->f.cap_brow * sizeof *p->f.brow);
    return CLAB_OK;
}

/* The fast step; with suspect (the fast hook step_wrap) the body loop also wraps the moved
 * centers into the periodic box and screens every body for clab_world_check_state with vmax.
 * Long (about 250 lines) for a reason: it is one OpenMP parallel region whose phases (gather,
 * contact loop, sorts, body loop, the history's close) share the region's threads and
 * barriers; cut into functions, each phase would wake and wait for the threads again. */
int clab_penalty_fast_step(penalty *p, clab_world *w, const clab_contacts *c, double h, double vmax, int *suspect,
                           clab_error *err)
{
    int rc = clab_penalty_ready(p, w, c->n, err);
    if (rc) return rc;
    const size_t nb = w->nbodies, nc = c->n;
    if (nb == 0) { /* no bodies, so no contacts and no history: nothing to compute (the arrays
                    * a body below would be empty, their pointers NULL) */
        if (suspect) *suspect = 0;
        p->nforces = 0;
        p->started = 1;
        p->steps++;
        return CLAB_OK;
    }
    const clab_partition cp = clab_contacts_partition(c);
    /* the step is one parallel region (its start and end wake and wait for the threads; a
     * barrier inside costs less). The contact loop runs over one contiguous range of
     * contacts a thread, [k0, k1), and finds on its way whether the contacts run by body a
     * and the counts of its sort by b, so the records are read once for both; each thread
     * then sorts its own contacts by b (by_b), so one barrier separates the contact loop from
     * the body loop. On one thread it adds each force to its two bodies' sums instead
     * (contact_scatter), and there is no sort; on more threads, when the contacts run by a
     * and their bounds low are known, each thread takes the contacts of a range of bodies a
     * and splits the scatter (split_scatter, split_add), and there is no sort either */
    int split;
    const int nt = step_threads(c, &cp, nb, &split);
    if (reserve_step(p, nb, nc, nt, split))
        return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory for %zu bodies, %zu contacts", nb, nc);
    const double t0 = clab_clock();
    double t1 = t0; /* the end of the contact loop (the first thread's) */
    /* entry i of the history becomes contact i's (history.h: in place, one generation) */
    if ((rc = clab_history_align(&p->hist, c->c, nc, c->increasing, cp.part, cp.nparts, err))) return rc;
    const clab_contact *cc = c->c;
    pen_body *pb = p->f.pb;
    /* gathered ahead of the step (penalty_gather), for these bodies at this step: not again */
    const int pre = p->f.pre_step == w->step && p->f.pre_nb == nb && p->f.pre_n == nb &&
                    p->f.pre_m0 == (nb ? w->bodies[0].material : 0);
    p->f.pre_n = 0;
    p->f.pre_step = -1;
    pen_acc *acc = nt == 1 || split ? p->f.acc : NULL;
    if (acc) p->f.acc_zero = 0; /* until the body loop has cleared them all */
    const clab_vec3 zero = clab_v3(0.0, 0.0, 0.0);
    uint32_t *alist = NULL, *astart = NULL;
    const int m0 = nb ? w->bodies[0].material : 0; /* every body's material, unless mixed */
    const int first = !p->started, surface = p->def.lever_surface;
    const int rolling = p->def.law.rolling == CLAB_PENALTY_ROLL_CDT;
    const clab_penalty_integrator scheme = p->def.integrator;
    const clab_vec3 *Fc = p->Fc, *Mr = p->Mr;
    const clab_periodic *per = &w->periodic;
    const int screen = suspect != NULL, wrap = screen && (per->on[0] || per->on[1] || per->on[2]);
    const double v2lim = vmax > 0.0 ? vmax * vmax * (1.0 - 1e-9) : INFINITY;
    double wlo[3], whi[3]; /* the box along the periodic axes, all space along the others: one
                            * test of six compares for the common case of a center inside */
    for (int k = 0; k < 3; k++) {
        wlo[k] = per->on[k] ? per->lo[k] : -INFINITY;
        whi[k] = per->on[k] ? per->hi[k] : INFINITY;
    }
    const int orientation_off = p->def.orientation_off;
    int by_a = 1, mixed = pre ? p->f.pre_mixed : 0, nomem = 0, bad = 0, dropped = 0;
    const uint32_t *low = cp.low;
    int one_list = 0; /* the lists by b made on one thread after a scatter (one segment) */
    int balance_T = 0; /* the body loop's split on this many threads was timed (bal_bodies) */
#pragma omp parallel num_threads(nt) if (nt > 1) reduction(| : bad)
    {
        int t = 0, T = 1;
#ifdef _OPENMP
        t = omp_get_thread_num();
        T = omp_get_num_threads();
#endif
        /* split: the bodies [B0, B1) and their contacts as a, [k0, k1) */
        const size_t B0 = acc && T > 1 ? split_cut(c, &cp, &p->f.bal_contacts, nb, t, T) : 0;
        const size_t B1 = acc && T > 1 ? split_cut(c, &cp, &p->f.bal_contacts, nb, t + 1, T) : nb;
        const size_t k0 = acc && T > 1 ? clab_contacts_first_a(cc, nc, B0) : nc * (size_t)t / (size_t)T;
        const size_t k1 = acc && T > 1 ? clab_contacts_first_a(cc, nc, B1) : nc * (size_t)(t + 1) / (size_t)T;
        pen_side *side = acc && T > 1 ? &p->f.side[t] : NULL;
        if (side) side->n = 0, side->nomem = 0;
        /* this thread's offsets of its list by b (by_b; its counts at row[b + 1] first) */
        uint32_t *row = acc ? NULL : p->f.brow + (size_t)t * (nb + 1);

        /* 1. what the contact loop reads of the bodies (clab_penalty_fast_gather), and whether they all
         *    have one material; not when gathered ahead (pre: the rows zeroed below are each
         *    thread's own, so no barrier is needed then) */
        if (!pre) {
            const size_t i0 = nb * (size_t)t / (size_t)T, i1 = nb * (size_t)(t + 1) / (size_t)T;
            if (orientation_off ? clab_penalty_fast_gather_still(w, pb, p->f.still, m0, i0, i1)
                                : clab_penalty_fast_gather(w, pb, m0, i0, i1)) {
#pragma omp atomic write
                mixed = 1;
            }
#pragma omp barrier
        }
        if (!acc) {
            for (size_t j = 0; j <= nb; j++) row[j] = 0;
            p->f.bbase[t] = k0;
        }
        int mixed_seen;
#pragma omp atomic read
        mixed_seen = mixed;
        const clab_penalty_pair *pair1 = mixed_seen || !nb ? NULL : &p->pairs[(size_t)m0 * p->nmat + (size_t)m0];

        /* 2. every contact, independently (its history is entry i, aligned above): its force;
         *    on the way, whether the contacts run by body a, and the count by b or (one
         *    thread, or split) the sums a body */
        int mine_by_a = 1, mine_dropped = 0;
        const double s0 = side ? clab_clock() : 0.0; /* the split's times (bal_contacts, bal_bodies) */
        if (acc) {
            /* split: contacts [k0, k1), by a (increasing), else all. The common cases (one
             * material pair, no rolling couples) with their flags constant */
#define PEN_LOOP(SPLIT, S, R) \
    contact_loop(p, w, c, pb, acc, side, low, B0, B1, k0, k1, pair1, h, &mine_dropped, SPLIT, S, R)
            if (side) {
                if (pair1 && !rolling) mine_by_a = surface ? PEN_LOOP(1, 1, 0) : PEN_LOOP(1, 0, 0);
                else mine_by_a = PEN_LOOP(1, surface, rolling);
            } else {
                if (pair1 && !rolling) mine_by_a = surface ? PEN_LOOP(0, 1, 0) : PEN_LOOP(0, 0, 0);
                else mine_by_a = PEN_LOOP(0, surface, rolling);
            }
#undef PEN_LOOP
            if (side) clab_balance_note(&p->f.bal_contacts, t, nc ? (double)k0 / (double)nc : 0.0, clab_clock() - s0);
            if (side && side->nomem) { /* (mine_by_a = 0 when low is wrong: the lists below, as
                                        * for contacts out of order) */
#pragma omp atomic write
                nomem = 1;
            }
        } else {
            for (size_t i = k0; i < k1; i++) {
                const clab_contact *ci = &cc[i];
                if (i + PEN_AHEAD < k1) { /* body b of a later contact: a random read, started early */
                    CLAB_PREFETCH(&pb[cc[i + PEN_AHEAD].b]); /* one cache line */
                }
                const uint32_t ia = body_a(cc, i);
                if (i > 0 && body_a(cc, i - 1) > ia) mine_by_a = 0;
                row[body_b(cc, i) + 1]++;
                if (!(-ci->phi > 0.0)) { /* inside the envelope but not touching: no force, history dropped */
                    clab_history_drop_at(&p->hist, i);
                    p->Fc[i] = zero;
                    if (rolling) p->Mr[i] = zero;
                    mine_dropped = 1;
                    continue;
                }
                contact_force(p, w, ci, c->lv, i, clab_history_at(&p->hist, i), pair1, h, 0, surface, rolling);
            }
            /* 3. this thread's contacts sorted by b, its own segment of the lists */
            place_by_b(cc, k0, k1, nb, row, p->f.blist);
        }
        if (mine_dropped) {
#pragma omp atomic write
            dropped = 1;
        }
        if (!mine_by_a) {
#pragma omp atomic write
            by_a = 0;
        }
#pragma omp barrier
#pragma omp master
        {
            t1 = clab_clock();
            if (side) clab_balance_update(&p->f.bal_contacts, T); /* the next step's cut (read after this region) */
        }

        /* contacts not in order of a (not the narrow phase's output) get their lists by a
         * from a counting sort here, on one thread (by_a was set before the barrier: every
         * thread takes the same branch); their sums by contact_scatter would be in another
         * order than body_sums' (as b, then as a), so the lists by b are made too (acc = NULL) */
        if (!by_a) {
#pragma omp single
            { /* the counting sort by a: astart the offsets, alist the contacts */
                if (clab_penalty_grow(&p->f.alist, &p->f.cap_alist, nc, sizeof(uint32_t)) ||
                    clab_penalty_grow(&p->f.astart, &p->f.cap_astart, nb + 1, sizeof(uint32_t)) ||
                    (acc && reserve_lists(p, nb, nc, 1))) {
                    nomem = 1;
                } else {
                    alist = p->f.alist;
                    astart = p->f.astart;
                    for (size_t i = 0; i <= nb; i++) astart[i] = 0;
                    for (size_t i = 0; i < nc; i++) astart[body_a(cc, i) + 1]++;
                    for (size_t i = 0; i < nb; i++) astart[i + 1] += astart[i];
                    for (size_t i = 0; i < nc; i++) alist[astart[body_a(cc, i)]++] = (uint32_t)i;
                    for (size_t i = nb; i > 0; i--) astart[i] = astart[i - 1];
                    astart[0] = 0;
                    if (acc) { /* one thread: the list by b the scatter did not make */
                        uint32_t *row0 = p->f.brow;
                        for (size_t j = 0; j <= nb; j++) row0[j] = 0;
                        for (size_t i = 0; i < nc; i++) row0[body_b(cc, i) + 1]++;
                        place_by_b(cc, 0, nc, nb, row0, p->f.blist);
                        p->f.bbase[0] = 0;
                        acc = NULL;
                        one_list = 1;
                    }
                }
            }
            /* (the barrier at the end of single: alist, astart and nomem are seen by all) */
        }

        if (!nomem) {
            /* 4. the body loop (clab_penalty_fast_bodies) on one range of bodies a thread, about as much
             *    work each (clab_penalty_fast_body_cut); split: whole blocks of the skin test's
             *    (clab_thread_bodies: most of a thread's bodies are still in its cache), as
             *    many a thread as the last steps' times balance (bal_bodies), once the terms
             *    the threads kept for them are added */
            const by_b lb = {p->f.blist, p->f.brow, p->f.bbase, nb, one_list ? 1 : T};
            body_loop ctx = {w, pb, p->f.still, cc, c->lv, Fc, Mr, lb, alist, astart, acc, nc, per, wlo, whi, h, v2lim,
                             scheme, surface, rolling, first, wrap, screen};
            size_t i0, i1;
            const int split_bodies = acc && T > 1; /* (acc is set before the barrier above) */
            const double s1 = split_bodies ? clab_clock() : 0.0;
            if (split_bodies) {
                clab_balance_range(&p->f.bal_bodies, nb, CLAB_BODY_BLOCK, t, T, &i0, &i1);
                split_add(acc, p->f.side, T, (uint32_t)i0, (uint32_t)i1, pb, w, cc, c->lv, Fc, Mr, surface, rolling);
            } else {
                i0 = clab_penalty_fast_body_cut(&ctx, nb, t, T), i1 = clab_penalty_fast_body_cut(&ctx, nb, t + 1, T);
            }
            bad |= w->loads        ? clab_penalty_fast_bodies_loaded(&ctx, i0, i1)
                   : orientation_off ? clab_penalty_fast_bodies_still(&ctx, i0, i1)
                                     : clab_penalty_fast_bodies(&ctx, i0, i1);
            if (split_bodies) {
                clab_balance_note(&p->f.bal_bodies, t, clab_balance_at(&p->f.bal_bodies, t, T), clab_clock() - s1);
                if (t == 0) balance_T = T;
            }
        }

        /* the history's bookkeeping, for the next step (no loop of this one reads the
         * history any more): on the first thread done with its bodies, no barrier after it
         * but the region's end */
#pragma omp single nowait
        {
            /* the ones put stay (contact_force), the dropped go; the scans for whether any was
             * dropped and whether the keys increase are not needed when the loop and the
             * collider already tell */
            clab_history_close(&p->hist, nc, !dropped, c->increasing);
            p->nforces = nc;
        }
    }
    if (nomem) return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory for %zu contacts", nc);
    if (balance_T) clab_balance_update(&p->f.bal_bodies, balance_T); /* the next step's cut of the bodies */
    if (acc) p->f.acc_zero = 1; /* the body loop read and cleared every body's sums */
    p->f.t_contacts += t1 - t0;
    p->f.t_bodies += clab_clock() - t1;
    if (suspect) *suspect = bad;
    p->started = 1;
    p->steps++;
    return CLAB_OK;
}


static int fast_step_wrap(void *self, clab_world *w, const clab_contacts *c, double h, double vmax, int *suspect,
                          clab_error *err)
{
    return clab_penalty_fast_step(self, w, c, h, vmax, suspect, err);
}

static int fast_enabled(const void *self) { return ((const penalty *)self)->def.fast; }

static void fast_times(const void *self, double *t_contacts, double *t_bodies)
{
    const penalty *p = self;
    *t_contacts = p->f.t_contacts;
    *t_bodies = p->f.t_bodies;
}

void clab_penalty_fast_free(pen_fast *f)
{
    free(f->pb);
    free(f->acc);
    free(f->alist);
    free(f->astart);
    free(f->brow);
    free(f->bbase);
    free(f->still);
    free(f->blist);
    for (size_t t = 0; t < f->nside; t++) free(f->side[t].e);
    free(f->side);
}

const clab_backend_fast clab_backend_penalty_fast = {
    .type = &clab_backend_penalty,
    .enabled = fast_enabled,
    .step_wrap = fast_step_wrap,
    .gather_begin = penalty_gather_begin,
    .gather = penalty_gather,
    .prepare = penalty_prepare,
    .times = fast_times,
};
