/* fast_bodies.c: the penalty fast path's passes over the bodies (fast_bodies.h): the gather of
 * what the contact loop reads (pen_body), and the body loop: each body's contact sums (formed
 * by the scatter, or here from the lists by body), its update (the plain step's, step.c), and
 * in the same pass the driver's periodic wrap and a screen for clab_world_check_state. */
#include <math.h>

#include "fast_bodies.h"

/* 1. what the contact loop reads of bodies [i0, i1), in one array: the angular velocity in the
 *    world frame A(e) wbar once a body, not twice a contact (a still sphere at the identity,
 *    sphere_orientation=off, needs no turn: wbar; off: still_of each body into still). Returns
 *    1 when a body of the range has a material other than m0. off: a constant in each of the
 *    two copies below */
static CLAB_ALWAYS_INLINE int gather_range_of(const clab_world *w, pen_body *pb, unsigned char *still, int m0,
                                              size_t i0, size_t i1, const int off)
{
    int mixed = 0;
    for (size_t i = i0; i < i1; i++) {
        const clab_body *b = &w->bodies[i];
        int identity = 0;
        if (off) {
            still[i] = clab_penalty_still_of(b);
            identity = still[i] == PEN_STILL_IDENTITY;
        }
        pb[i].rdot = b->rdot;
        pb[i].omega = identity ? b->wbar : clab_body_omega_world(b);
        pb[i].m = b->fixed ? INFINITY : b->m;
        const int sphere = b->shape.type == CLAB_SHAPE_SPHERE;
        pb[i].R = sphere ? b->shape.radius : -clab_penalty_contact_radius(&b->shape);
        mixed |= b->material != m0;
    }
    return mixed;
}

int clab_penalty_fast_gather(const clab_world *w, pen_body *pb, int m0, size_t i0, size_t i1)
{
    return gather_range_of(w, pb, NULL, m0, i0, i1, 0);
}
int clab_penalty_fast_gather_still(const clab_world *w, pen_body *pb, unsigned char *still, int m0, size_t i0,
                                            size_t i1)
{
    return gather_range_of(w, pb, still, m0, i0, i1, 1);
}

/* 4. each free body i in [i0, i1): its contact forces summed in contact order (as b, then as
 *    a) and their torques (body_sums; on one thread, contact_scatter did it already: acc),
 *    then the explicit integration (clab_penalty_body_update); bodies are independent, and the sums do
 *    not depend on the thread count. The contacts in
 *    order of a (the narrow phase's, sorted by key) give each body's run as a from a cursor:
 *    the first contact with a >= i0 by binary search, then each body's run where the last one
 *    ended (no array a body); otherwise alist by astart. With screen,
 *    the same pass wraps the center (periodic axes, wrap) and screens the state: a sum of the
 *    13 numbers is finite when they all are (an overflow only makes the screen cautious), and
 *    the speed is compared squared with a margin, so clab_world_check_state, run when
 *    anything is suspect, has the last word. Returns 1 when some body is suspect. off: the
 *    option sphere_orientation=off (a constant in each of the two copies below, so the usual
 *    one has no test for it) */
static CLAB_ALWAYS_INLINE int body_range_of(const body_loop *L, size_t i0, size_t i1, const int off)
{
    clab_world *w = L->w;
    const pen_body *pb = L->pb;
    const clab_contact *cc = L->cc;
    const size_t nb = w->nbodies, nc = L->nc;
    int bad = 0;
    double ssum = 0.0, v2max = 0.0; /* the screen's sum of the states and largest squared speed */
    pen_acc *acc = L->acc;
    const clab_vec3 zero = clab_v3(0.0, 0.0, 0.0);
    /* the cursor: the first contact with a >= i0 */
    size_t ka = L->alist || acc ? 0 : clab_contacts_first_a(cc, nc, i0);
    for (size_t i = i0; i < i1; i++) {
        clab_body *bi = &w->bodies[i];
        uint32_t a0 = 0, a1 = 0;
        clab_vec3 F = zero, tau = zero;
        if (acc) { /* the sums are formed: read, and left zero for the next step */
            F = acc[i].F;
            tau = acc[i].tau;
            acc[i] = (pen_acc){zero, zero};
        } else if (L->alist) {
            a0 = L->astart[i];
            a1 = L->astart[i + 1];
        } else {
            a0 = (uint32_t)ka;
            while (ka < nc && body_a(cc, ka) == i) ka++;
            a1 = (uint32_t)ka;
        }
        if (!acc && i + PEN_AHEAD < nb) {
            /* a later body's first contact as b (random in the contact array): n, phi and its
             * force, started early (a record of 56 bytes spans at most two cache lines) */
            size_t q0, q1;
            by_b_range(&L->lb, i + PEN_AHEAD, 0, &q0, &q1);
            if (q0 == q1 && L->lb.T > 1) by_b_range(&L->lb, i + PEN_AHEAD, 1, &q0, &q1);
            if (q0 < q1) {
                uint32_t k = L->lb.blist[q0];
                CLAB_PREFETCH(&cc[k].n);
                CLAB_PREFETCH(&cc[k].phi);
                CLAB_PREFETCH(&L->Fc[k]);
            }
        }
        if (!bi->fixed) {
            /* off: a constant, so the usual copy has no test */
            const unsigned char still = off ? L->still[i] : PEN_TURNS;
            if (!acc) {
                body_sums(w, i, &pb[i], cc, L->lv, L->Fc, L->Mr, &L->lb, L->alist, a0, a1, L->surface, L->rolling,
                          &F, &tau);
            }
            clab_penalty_body_update(w, i, still, F, tau, L->h, L->scheme, L->first);
            const double *lo = L->wlo, *hi = L->whi;
            /* inside: six compares and one branch (a NaN center is outside, as before) */
            if (L->wrap && !((bi->r.x >= lo[0]) & (bi->r.x < hi[0]) & (bi->r.y >= lo[1]) & (bi->r.y < hi[1]) &
                             (bi->r.z >= lo[2]) & (bi->r.z < hi[2])))
                clab_world_wrap_body(L->per, bi);
        }
        if (L->screen) {
            /* summed as a tree (four levels of additions, not a chain of twelve: the chain's
             * latency held back the next body), into the range's sum; the largest speed */
            double s = ((bi->r.x + bi->r.y) + (bi->r.z + bi->rdot.x)) +
                       ((bi->rdot.y + bi->rdot.z) + (bi->wbar.x + bi->wbar.y)) +
                       (((bi->wbar.z + bi->e.e0) + (bi->e.e1 + bi->e.e2)) + bi->e.e3);
            double v2 = clab_v3_norm2(bi->rdot);
            ssum += s;
            v2max = v2 > v2max ? v2 : v2max;
        }
    }
    /* the screen once a range, no branch a body: a NaN or an infinity anywhere makes the sum
     * non-finite (a NaN speed too: rdot is in it); a sum of finite values that overflows only
     * sends the range to the exact check (clab_world_check_state), as a suspect */
    if (L->screen) bad |= !isfinite(ssum) || !(v2max < L->v2lim && v2max < INFINITY);
    return bad;
}

/* two functions of their own (not inlined into the step: each gets the compiler's whole
 * inlining budget, and the body's update is inlined into them) */
int clab_penalty_fast_bodies(const body_loop *L, size_t i0, size_t i1) { return body_range_of(L, i0, i1, 0); }
int clab_penalty_fast_bodies_still(const body_loop *L, size_t i0, size_t i1)
{
    return body_range_of(L, i0, i1, 1);
}

/* a world with loads: their kicks on [i0, i1) (clab_penalty_load_kick, as the plain step),
 * then the body loop; apart, so the two above test nothing more a body */
int clab_penalty_fast_bodies_loaded(const body_loop *L, size_t i0, size_t i1)
{
    for (size_t i = i0; i < i1; i++) clab_penalty_load_kick(L->w, i, L->h, L->scheme, L->first);
    return L->still ? clab_penalty_fast_bodies_still(L, i0, i1) : clab_penalty_fast_bodies(L, i0, i1);
}

/* the body loop's work on bodies [0, i): a body costs BODY_SIDES contact sides (its
 * kicks, drift, wrap and screen against one contact's sums, about 200 and 35 instructions on
 * the chute), plus its contacts as b (by_b) and as a (astart, or where the contacts sorted
 * by a reach body i) */
#define BODY_SIDES 6
static size_t body_work(const body_loop *L, size_t i)
{
    const size_t as_a = L->alist ? L->astart[i] : clab_contacts_first_a(L->cc, L->nc, i);
    return BODY_SIDES * i + by_b_before(&L->lb, i) + as_a;
}

/* the first body of thread t's share of the nb bodies when T threads share the body loop's
 * work about equally (the first body whose work from body 0 reaches t / T of the whole; t =
 * T: nb). The sums of a body do not depend on which thread takes it */
size_t clab_penalty_fast_body_cut(const body_loop *L, size_t nb, int t, int T)
{
    if (t >= T) return nb;
    if (t <= 0) return 0;
    const size_t target = (size_t)((double)body_work(L, nb) * (double)t / (double)T);
    size_t lo = 0, hi = nb;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (body_work(L, mid) < target) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

