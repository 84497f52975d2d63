/* narrow.c: the narrow phase of the kept pair list. The dispatch table of the pair routines
 * (narrow_pair.h) and clab_collide_pair; the fast path of the rows of spheres over the bodies'
 * hot records (narrow_rows); with OpenMP, the rows cut into one contiguous range a thread
 * (about as much work each: pairs, and the last call's records weighted as RECORD_PAIRS
 * pairs; row_cut), thread 0 appending to out, the others to buffers of their own that are
 * then copied behind it in thread order, so the array is the same for any thread count. */
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "clab_clock.h"
#include "narrow.h"

/* narrow[ta][tb] for ta <= tb (sphere < plane < box); NULL: no contact between these shapes
 * (two half-spaces are both fixed); a triangle as b goes to clab_collide_triangle_pair */
static const clab_narrow_fn narrow[CLAB_SHAPE_TRIANGLE][CLAB_SHAPE_TRIANGLE] = {
    /*              sphere                      plane                       box  */
    /* sphere */ {clab_collide_sphere_sphere, clab_collide_sphere_plane, clab_collide_sphere_box},
    /* plane  */ {NULL, NULL, clab_collide_plane_box},
    /* box    */ {NULL, NULL, clab_collide_box_box},
};

int clab_collide_pair(const clab_world *w, int i, int j, double envelope, clab_contacts *out)
{
    const clab_body *A = &w->bodies[i], *B = &w->bodies[j];
    /* periodic axes: the higher-index body's image nearest the lower one's (minimum image),
     * so P lies near body a; half-spaces contain the periodic directions and need none */
    clab_body image;
    const clab_periodic *per = &w->periodic;
    if ((per->on[0] || per->on[1] || per->on[2]) && A->shape.type != CLAB_SHAPE_PLANE &&
        B->shape.type != CLAB_SHAPE_PLANE) {
        int lo = i < j ? i : j, hi = i < j ? j : i;
        const clab_body *Bl = &w->bodies[lo], *Bh = &w->bodies[hi];
        clab_vec3 d = clab_v3_sub(Bh->r, Bl->r), dm = clab_world_min_image(per, d);
        if (dm.x != d.x || dm.y != d.y || dm.z != d.z) {
            image = *Bh;
            image.r = clab_v3_add(Bh->r, clab_v3_sub(dm, d)); /* r_hi shifted by whole periods */
            if (hi == i) A = &image;
            else B = &image;
        }
    }
    if (A->shape.type > B->shape.type) {
        const clab_body *t = A; A = B; B = t;
        int k = i; i = j; j = k;
    }
    size_t first = out->n;
    int rc;
    if (B->shape.type == CLAB_SHAPE_TRIANGLE) { /* the triangle's vertices are in the world's store */
        rc = clab_collide_triangle_pair(w, A, B, i, j, envelope, out);
    } else {
        clab_narrow_fn f = narrow[A->shape.type][B->shape.type];
        if (!f) return CLAB_OK;
        rc = f(A, B, i, j, envelope, out);
    }
    if (rc) return rc;

    /* this pair's records by feature (insertion sort: 4 or fewer in practice) */
    for (size_t k = first + 1; k < out->n; k++) {
        clab_contact c = out->c[k];
        size_t p = k;
        while (p > first && out->c[p - 1].key > c.key) {
            out->c[p] = out->c[p - 1];
            p--;
        }
        out->c[p] = c;
    }
    return CLAB_OK;
}

/* the record of sphere i touching sphere j > i (radii Ri, Rj; centers ra and rb, rb at j's
 * minimum image; d2 = |rb - ra|^2): n and Phi by the operations of clab_collide_sphere_sphere
 * in the same order, so the same bits. No levers: P lies on the line of centers
 * (clab_contact_levers derives sbar_A, sbar_B from n, Phi and the radii). The centers come by
 * pointer and d = rb - ra is formed again here (the same subtraction as the caller's): passed
 * by value, the vectors went through the stack at every call */
#if defined(__GNUC__)
__attribute__((noinline)) /* the rare path (1 candidate pair in 7 on the chute): inlined, it made
                           * the compiler spill registers in every pair's distance test */
#endif
static int sphere_record(int i, int j, double Ri, double Rj, const double *ra, const double *rb, double d2, double env,
                         clab_contacts *out)
{
    double dist = sqrt(d2);
    double phi = dist - Ri - Rj;
    if (phi >= env) return CLAB_OK;
    if (out->n == out->cap && clab_contacts_reserve(out, out->n + 1, 0)) return CLAB_ENOMEM;
    clab_contact *c = &out->c[out->n++];
    const clab_vec3 d = clab_v3(rb[0] - ra[0], rb[1] - ra[1], rb[2] - ra[2]);
    c->a = i;
    c->b = j;
    c->n = dist > 0.0 ? clab_v3_scale(d, 1.0 / dist) : clab_v3(0.0, 0.0, 1.0);
    c->phi = phi;
    c->key = clab_contact_key(i, j, 0);
    c->lever = CLAB_LEVER_NONE;
    c->unused = 0;
    return CLAB_OK;
}

/* sphere i against sphere j > i from the gathered hot data: the minimum image of
 * clab_collide_pair (clab_world_min_image's d - L nearbyint(d/L) on a periodic axis k where
 * |d_k| > half[k] = L/2; half[k] is infinite on the other axes), then a
 * pair farther apart than (R_i + R_j + envelope)(1 + 1e-10) is dropped before the square
 * root (a margin far above the rounding of Phi); the rest goes to sphere_record. The exact
 * reference of narrow_rows' distance test, which takes it for the pairs it cannot decide */
#if defined(__GNUC__)
__attribute__((noinline)) /* rare: pairs across a periodic face, a negative envelope */
#endif
static int sphere_pair(const clab_hot_body *hi, const clab_hot_body *hj, int i, int j, double env,
                       const clab_periodic *per, const double half[3], clab_contacts *out)
{
    clab_vec3 ra = clab_v3(hi->r[0], hi->r[1], hi->r[2]), rb = clab_v3(hj->r[0], hj->r[1], hj->r[2]);
    clab_vec3 d = clab_v3_sub(rb, ra);
    double v[3] = {d.x, d.y, d.z}, m[3] = {d.x, d.y, d.z};
    int moved = 0;
    for (int k = 0; k < 3; k++)
        if (fabs(v[k]) > half[k]) { /* half[k] = 0.5 L_k (infinite off the periodic axes) */
            double L = per->hi[k] - per->lo[k];
            m[k] = v[k] - L * clab_near_int(v[k] / L);
            moved |= m[k] != v[k];
        }
    if (moved) {
        rb = clab_v3_add(rb, clab_v3_sub(clab_v3(m[0], m[1], m[2]), d));
        d = clab_v3_sub(rb, ra);
    }
    double d2 = clab_v3_dot(d, d), S = hi->R + hj->R + env;
    if (S > 0.0 && d2 > S * S * (1.0 + 2e-10)) return CLAB_OK;
    const double rbv[3] = {rb.x, rb.y, rb.z};
    return sphere_record(i, j, hi->R, hj->R, hi->r, rbv, d2, env, out);
}

/* pairs of a block of sphere rows at most (narrow_block's buffer, on the stack) */
#define NARROW_BLOCK 512

/* The distance test of narrow_rows for the pairs [kb, ke) of rows of spheres (gen 0; envelope
 * >= 0; at most NARROW_BLOCK pairs: whole rows, or a piece of a longer row), in two
 * passes so that neither the end of a row nor a pair's verdict is a branch of the scan: every
 * pair's d2 and the row bound (the pair's row from L->pi), the pairs that need more noted in
 * order without a branch; then those pairs in that order, the row's second test, the record
 * or the exact path. The records come in pair order. */
static int narrow_block(const clab_hot_body *hot, const clab_pair_list *L, size_t kb, size_t ke, double envelope,
                        double hmin2, const clab_periodic *per, const double half[3], clab_contacts *out)
{
    const size_t np = ke - kb;
    const uint32_t *nbr = L->nbr + kb, *ri = L->pi + kb;
    const double Rmax = L->Rmax, c2 = 1.0 + 2e-10;
    uint32_t cand[NARROW_BLOCK];
    /* 1. the scan: a pair goes on when it is not dropped at the row bound (d2 > far2 inside
     *    the smallest half period) */
    size_t m = 0;
    for (size_t k = 0; k < np; k++) {
        CLAB_PREFETCH(&hot[nbr[k + CLAB_PREFETCH_AHEAD]]);
        const clab_hot_body *hi = &hot[ri[k]], *hj = &hot[nbr[k]];
        const double dx = hj->r[0] - hi->r[0], dy = hj->r[1] - hi->r[1], dz = hj->r[2] - hi->r[2];
        const double d2 = dx * dx + dy * dy + dz * dz;
        const double Sb = (hi->R + envelope) + Rmax, far2 = Sb * Sb * c2;
        cand[m] = (uint32_t)k;
        m += (size_t)!((d2 > far2) & (d2 < hmin2));
    }
    /* 2. the pairs that went on, in order: the second test (with R_j); a pair across a
     *    periodic face (d2 >= hmin2) dropped when it is far beyond the row bound under every
     *    image (clab_image_far: most of them), else the record or the exact path */
    for (size_t q = 0; q < m; q++) {
        const size_t k = cand[q];
        const uint32_t i = ri[k], j = nbr[k];
        const clab_hot_body *hi = &hot[i], *hj = &hot[j];
        const double dx = hj->r[0] - hi->r[0], dy = hj->r[1] - hi->r[1], dz = hj->r[2] - hi->r[2];
        const double d2 = dx * dx + dy * dy + dz * dz;
        const double Rie = hi->R + envelope, Sb = Rie + Rmax, far2 = Sb * Sb * c2;
        if (!(d2 > far2)) {
            const double S = Rie + hj->R;
            if (d2 < hmin2 && d2 > S * S * c2) continue;
        } else if (clab_image_far(per, half, clab_v3(dx, dy, dz), Sb)) {
            continue;
        }
        /* a record, or the exact path for a pair that may straddle a periodic face */
        const int rc = d2 < hmin2 ? sphere_record((int)i, (int)j, hi->R, hj->R, hi->r, hj->r, d2, envelope, out)
                                  : sphere_pair(hi, hj, (int)i, (int)j, envelope, per, half, out);
        if (rc) return rc;
    }
    return CLAB_OK;
}

/* The narrow phase of the rows [i0, i1) of the list, appended to out.
 * A row of spheres (gen[i] = 0) reads body i's hot record once; each pair's distance test
 * reads body j's center and radius and gives sphere_pair's verdict without its minimum-image
 * compares: with d = r_j - r_i as stored and hmin the smallest half period (infinite when
 * nothing is periodic), d2 < hmin^2 means every |d_k| < hmin <= L_k/2 (the squares are rounded
 * monotonically and a sum of non-negative terms is at least each term), so the minimum image
 * would leave d as it is; the pair then is dropped (d2 > S^2 (1 + 2e-10)) or recorded with the
 * same d, d2 as sphere_pair would. Only a pair with d2 >= hmin^2 (one straddling a periodic
 * face) goes to sphere_pair itself. S is summed as (R_i + env) + R_j: an ulp from
 * sphere_pair's R_i + R_j + env, far inside the allowance 1e-10 of the test, which only drops
 * pairs whose gap Phi is above the envelope either way. Before it, the bound of the row,
 * S <= (R_i + env) + Rmax (rounding is monotone, S >= 0 for env >= 0), drops the pairs past it
 * without reading R_j (on a packing of equal spheres, every dropped pair). Consecutive sphere
 * rows go by blocks of at most NARROW_BLOCK pairs (narrow_block); a longer row, in pieces of
 * that many. A row with another shape (gen[i]), and every row for a negative envelope (S may
 * be <= 0, where sphere_pair keeps the pair), takes the pairs one by one: sphere_pair for two
 * spheres, clab_collide_pair otherwise. */
static int narrow_rows(const clab_world *w, const clab_hot_body *hot,
                       const clab_pair_list *L, size_t i0, size_t i1, double envelope, clab_contacts *out)
{
    const clab_periodic *per = &w->periodic;
    const size_t *row = L->row;
    const uint32_t *nbr = L->nbr;
    const int fast = envelope >= 0.0;
    int rc = CLAB_OK;
    double half[3];
    clab_world_half_periods(per, half);
    const double hmin = fmin(half[0], fmin(half[1], half[2])), hmin2 = hmin * hmin;
    const unsigned char *gen = L->gen;
    size_t b0 = i0; /* the block of sphere rows [b0, i) not yet done */
    for (size_t i = i0; i < i1 && rc == CLAB_OK; i++) {
        size_t k = row[i];
        const size_t e = row[i + 1];
        if (fast && !gen[i] && e - k <= NARROW_BLOCK) {
            if (e - row[b0] > NARROW_BLOCK) { /* row i starts the next block */
                rc = narrow_block(hot, L, row[b0], k, envelope, hmin2, per, half, out);
                b0 = i;
            }
            continue;
        }
        if (b0 < i) rc = narrow_block(hot, L, row[b0], k, envelope, hmin2, per, half, out);
        b0 = i + 1;
        if (fast && !gen[i]) { /* a sphere row longer than a block: in pieces */
            for (; k < e && rc == CLAB_OK; k += NARROW_BLOCK)
                rc = narrow_block(hot, L, k, e - k > NARROW_BLOCK ? k + NARROW_BLOCK : e, envelope, hmin2, per, half,
                                  out);
            continue;
        }
        const clab_hot_body *hi = &hot[i];
        for (; k < e && rc == CLAB_OK; k++) {
            const uint32_t j = nbr[k];
            CLAB_PREFETCH(&hot[nbr[k + CLAB_PREFETCH_AHEAD]]);
            if (hi->R >= 0.0 && hot[j].R >= 0.0) rc = sphere_pair(hi, &hot[j], (int)i, (int)j, envelope, per, half, out);
            else rc = clab_collide_pair(w, (int)i, (int)j, envelope, out);
        }
    }
    if (rc == CLAB_OK && b0 < i1) rc = narrow_block(hot, L, row[b0], row[i1], envelope, hmin2, per, half, out);
    return rc;
}

#ifdef _OPENMP
/* A record costs the narrow phase about as much as RECORD_PAIRS pairs of the distance scan
 * (measured on the chute, 2 threads, thread CPU time against each thread's pairs and
 * records: 4.9 ns a pair, 30 ns a record) */
#define RECORD_PAIRS 6

/* the last call's records before row i (nw->cut_rec, linear within a block): an estimate of
 * this call's, monotone in i */
static double records_before(const clab_narrow *nw, size_t i)
{
    const size_t n = nw->cut_n, B = CLAB_CUT_BLOCKS;
    if (i >= n) return (double)nw->cut_rec[B];
    size_t b = i * B / n; /* the block of i: n b / B <= i < n (b + 1) / B */
    while (b > 0 && n * b / B > i) b--;
    while (b + 1 < B && n * (b + 1) / B <= i) b++;
    const size_t s0 = n * b / B, s1 = n * (b + 1) / B;
    const double r0 = (double)nw->cut_rec[b], r1 = (double)nw->cut_rec[b + 1];
    return s1 > s0 ? r0 + (r1 - r0) * (double)(i - s0) / (double)(s1 - s0) : r0;
}

/* the estimated cost of rows [0, i): pairs, and records at RECORD_PAIRS pairs each when the
 * last call's are known for as many bodies */
static double rows_cost(const clab_narrow *nw, const clab_pair_list *L, size_t i)
{
    double c = (double)L->row[i];
    if (nw->cut_n == L->n) c += RECORD_PAIRS * records_before(nw, i);
    return c;
}

/* the first row of thread t's share of the rows when T threads cut the list at about
 * cost(n) f_t, f_t the balance of the last calls' times (nw->bal, clab_balance.h; t / T
 * at first): the first row whose cost from row 0 reaches that; t = T: every row. The cut
 * changes only which thread takes a row, never the output (thread order) */
static size_t row_cut(const clab_narrow *nw, const clab_pair_list *L, int t, int T)
{
    if (t >= T) return L->n;
    const double target = rows_cost(nw, L, L->n) * clab_balance_at(&nw->bal, t, T);
    size_t lo = 0, hi = L->n;
    while (lo < hi) { /* the first i with cost(i) >= target (cost is monotone) */
        size_t mid = lo + (hi - lo) / 2;
        if (rows_cost(nw, L, mid) < target) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}
#endif

/* the records out holds (the last call's, sorted by a) counted by blocks of the n bodies, by
 * binary search: nw->cut_rec. Records out of order give a poor cut, never a wrong result */
void clab_narrow_note_records(clab_narrow *nw, const clab_contacts *out, size_t n)
{
    const size_t B = CLAB_CUT_BLOCKS;
    nw->cut_n = 0;
    if (n < B || out->n == 0) return;
    for (size_t b = 0; b <= B; b++) {
        /* the records with a < n b / B */
        nw->cut_rec[b] = b == B ? out->n : clab_contacts_first_a(out->c, out->n, n * b / B);
    }
    for (size_t b = 1; b <= B; b++) /* keep the counts monotone whatever the order */
        if (nw->cut_rec[b] < nw->cut_rec[b - 1]) nw->cut_rec[b] = nw->cut_rec[b - 1];
    nw->cut_n = n;
}

#ifdef _OPENMP
/* thread t's share of the join of the narrow phase on T threads: of the records of threads
 * 1 .. T-1 (nw->tbuf, in thread order; out holds thread 0's and has room for all), the
 * t-th of T equal parts, copied behind thread 0's, each record's lever index moved by the
 * levers of the threads before its own */
static void copy_share(const clab_narrow *nw, clab_contacts *out, int t, int T)
{
    size_t m = 0;
    for (int k = 1; k < T; k++) m += nw->tbuf[k].n;
    const size_t q0 = m * (size_t)t / (size_t)T, q1 = m * (size_t)(t + 1) / (size_t)T;
    size_t base = 0, dst = out->n;   /* buffer k's first record among the m, and in out */
    uint32_t shift = (uint32_t)out->nlv; /* buffer k's first lever in out */
    for (int k = 1; k < T && base < q1; k++) {
        const clab_contacts *src = &nw->tbuf[k];
        const size_t a = q0 > base ? q0 - base : 0, b = q1 - base < src->n ? q1 - base : src->n;
        for (size_t q = a; q < b; q++) {
            clab_contact c = src->c[q];
            if (c.lever != CLAB_LEVER_NONE) c.lever += shift;
            out->c[dst + q] = c;
        }
        base += src->n;
        dst += src->n;
        shift += (uint32_t)src->nlv;
    }
}
#endif

/* the row of each pair of the list L (pair k of row i: pi[k] = i), made once a build (the list
 * is kept between builds): 4 bytes a pair, so that the narrow phase's scan needs no pass of
 * its own to find them; NULL when out of memory */
static const uint32_t *pair_rows(clab_narrow *nw, const clab_pair_list *L, size_t build)
{
    const size_t np = L->np;
    if (nw->prow && nw->prow_np == np && nw->prow_build == build) return nw->prow;
    if (np > nw->cap_prow || !nw->prow) {
        const size_t cap = np + np / 4 + 1024;
        uint32_t *pi = realloc(nw->prow, cap * sizeof *pi);
        if (!pi) return NULL;
        nw->prow = pi;
        nw->cap_prow = cap;
    }
    for (size_t i = 0; i < L->n; i++)
        for (size_t k = L->row[i]; k < L->row[i + 1]; k++) nw->prow[k] = (uint32_t)i;
    nw->prow_np = np;
    nw->prow_build = build;
    return nw->prow;
}
/* below this many pairs the narrow phase runs on one thread */
#define PAR_MIN 4096

void clab_narrow_free(clab_narrow *nw)
{
    for (size_t k = 0; k < nw->ntbuf; k++) clab_contacts_free(&nw->tbuf[k]);
    free(nw->tbuf);
    free(nw->part);
    free(nw->prow);
}

/* room for the records of nt threads: nw->tbuf[1 .. nt), nw->part[0 .. nt]; 0 on success */
static int reserve_threads(clab_narrow *nw, int nt)
{
    if (nt <= 1 || (size_t)nt <= nw->ntbuf) return 0;
    size_t *part = realloc(nw->part, ((size_t)nt + 1) * sizeof *part);
    if (part) nw->part = part;
    clab_contacts *t = part ? realloc(nw->tbuf, (size_t)nt * sizeof *t) : NULL;
    if (!t) return 1;
    for (size_t k = nw->ntbuf; k < (size_t)nt; k++) clab_contacts_init(&t[k]);
    nw->tbuf = t;
    nw->ntbuf = (size_t)nt;
    return 0;
}

#ifdef _OPENMP
/* The rows of L on nt threads, each its cut of the rows (row_cut) into its own records
 * (thread 0: out), timed for the next cut (nw->bal); then the records of threads 1 .. T-1
 * go behind thread 0's in thread order, a record's index into the levers moved by the levers
 * of the threads before its own; every thread copies an equal share of them (thread 0 would
 * wait otherwise: its own records are in place already), each its own levers (few: sides
 * other than spheres). nw->part[t]: where thread t's records start. *nparts = T. 1 when out
 * of memory. */
static int rows_threads(clab_narrow *nw, const clab_world *w, const clab_hot_body *hot, const clab_pair_list *L,
                        double envelope, clab_contacts *out, int nt, int *nparts)
{
    int failed = 0, nomem = 0;
    size_t total = 0, totlv = 0;
#pragma omp parallel num_threads(nt) reduction(| : failed)
    {
        int t = omp_get_thread_num(), T = omp_get_num_threads();
        size_t i0 = row_cut(nw, L, t, T), i1 = row_cut(nw, L, t + 1, T);
        clab_contacts *dst = t == 0 ? out : &nw->tbuf[t];
        clab_contacts_clear(dst);
        const double s0 = clab_clock();
        int myrc = narrow_rows(w, hot, L, i0, i1, envelope, dst);
        clab_balance_note(&nw->bal, t, clab_balance_at(&nw->bal, t, T), clab_clock() - s0);
#pragma omp barrier
#pragma omp single
        {
            clab_balance_update(&nw->bal, T); /* the next call's cut */
            total = out->n;
            totlv = out->nlv;
            for (int k = 1; k < T; k++) {
                total += nw->tbuf[k].n;
                totlv += nw->tbuf[k].nlv;
            }
            nomem = totlv >= CLAB_LEVER_NONE || clab_contacts_reserve(out, total, totlv) != CLAB_OK;
        }
        if (myrc || nomem) failed = 1;
        size_t off = out->n, offlv = out->nlv;
        for (int k = 1; k < t; k++) {
            off += nw->tbuf[k].n;
            offlv += nw->tbuf[k].nlv;
        }
        nw->part[t] = t == 0 ? 0 : off;
        if (t == T - 1) nw->part[T] = off + nw->tbuf[t].n; /* (t >= 1: T > 1 here) */
        if (!nomem) {
            copy_share(nw, out, t, T);
            if (t > 0)
                for (size_t q = 0; q < nw->tbuf[t].nlv; q++) out->lv[offlv + q] = nw->tbuf[t].lv[q];
        }
        if (t == 0) *nparts = T;
    }
    if (failed) return 1;
    out->n = total;
    out->nlv = totlv;
    return 0;
}
#endif

int clab_narrow_rows(clab_narrow *nw, const clab_world *w, const clab_hot_body *hot, clab_pair_list *L, size_t build,
                     double envelope, clab_contacts *out, int *nparts, clab_error *err)
{
    *nparts = 0;
    L->pi = pair_rows(nw, L, build);
    if (!L->pi) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the narrow phase");
    int nt = 1;
#ifdef _OPENMP
    if (L->np > PAR_MIN) nt = omp_get_max_threads();
#endif
    if (reserve_threads(nw, nt)) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the narrow phase");
    int rc = CLAB_OK;
    if (nt <= 1) rc = narrow_rows(w, hot, L, 0, L->n, envelope, out);
#ifdef _OPENMP
    else rc = rows_threads(nw, w, hot, L, envelope, out, nt, nparts);
#endif
    if (rc) return clab_error_set(err, CLAB_ENOMEM, "out of memory storing contacts");
    out->increasing = 1; /* by (a, b, feature): the key's order */
    return CLAB_OK;
}
