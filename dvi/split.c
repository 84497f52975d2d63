/* split.c: the parts of a split CCP (split.h) built from the global one, the moves of impulses
 * and velocities between the parts and the global arrays, and the loopback communication
 * that runs all parts in one process. */
#include "split.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plain.h"

#define NONE SIZE_MAX

static int moving(const clab_ccp *P, int k) { return P->invm[k] != 0.0; }

/* the part that counts block i: the owner of its first moving body (part 0 for none) */
static int counter_of(const clab_ccp *P, const int *owner, size_t i)
{
    const clab_ccp_item *it = &P->items[i];
    return moving(P, it->a) ? owner[it->a] : moving(P, it->b) ? owner[it->b] : 0;
}

/* part r holds block i: it owns one of its moving bodies (part 0: a block of inert bodies) */
static int holds(const clab_ccp *P, const int *owner, size_t i, int r)
{
    const clab_ccp_item *it = &P->items[i];
    const int ma = moving(P, it->a), mb = moving(P, it->b);
    return (ma && owner[it->a] == r) || (mb && owner[it->b] == r) || (!ma && !mb && r == 0);
}

static void *alloc0(size_t n, size_t size) { return calloc(n ? n : 1, size); }

/* the local arrays of part p: nb bodies, nbl blocks, n rows */
static int part_alloc(clab_split_part *p, size_t nb, size_t nbl, size_t n)
{
    clab_ccp *L = &p->P;
    L->invm = alloc0(nb, sizeof *L->invm);
    L->invJ = alloc0(3 * nb, sizeof *L->invJ);
    L->minv = alloc0(8 * nb, sizeof *L->minv);
    L->rot = alloc0(9 * nb, sizeof *L->rot);
    L->rows = alloc0(n, sizeof *L->rows);
    L->blocks = alloc0(nbl, sizeof *L->blocks);
    L->items = alloc0(nbl, sizeof *L->items);
    L->p = alloc0(n, sizeof *L->p);
    L->compliance = alloc0(n, sizeof *L->compliance);
    L->cone = alloc0(4 * nbl, sizeof *L->cone);
    p->body = alloc0(nb, sizeof *p->body);
    p->block = alloc0(nbl, sizeof *p->block);
    p->block_row = alloc0(nbl, sizeof *p->block_row);
    p->counted = alloc0(nbl, 1);
    p->shared = alloc0(nbl, 1);
    return L->invm && L->invJ && L->minv && L->rot && L->rows && L->blocks && L->items && L->p && L->compliance &&
                   L->cone && p->body && p->block && p->block_row && p->counted && p->shared
               ? CLAB_OK
               : CLAB_ENOMEM;
}

/* part r's local bodies: p->body (owned, ghosts by owner part, inert; global order in each
 * group) and loc (global -> local) */
static int part_bodies(clab_split_part *p, const clab_ccp *P, const int *owner, int nparts, size_t *loc)
{
    const int r = p->id;
    size_t nb = 0;
    size_t *list = alloc0(P->nbodies, sizeof *list);
    unsigned char *in = alloc0(P->nbodies, 1); /* the bodies of the part's blocks */
    if (!list || !in) {
        free(list), free(in);
        return CLAB_ENOMEM;
    }
    for (size_t i = 0; i < P->nblocks; i++)
        if (holds(P, owner, i, r)) in[P->items[i].a] = in[P->items[i].b] = 1;
    for (size_t k = 0; k < P->nbodies; k++)
        if (moving(P, (int)k) && owner[k] == r) list[nb++] = k;
    p->nowned = nb;
    for (int s = 0; s < nparts; s++)
        for (size_t k = 0; k < P->nbodies && s != r; k++)
            if (in[k] && moving(P, (int)k) && owner[k] == s) list[nb++] = k;
    p->nghost = nb - p->nowned;
    for (size_t k = 0; k < P->nbodies; k++)
        if (in[k] && !moving(P, (int)k)) list[nb++] = k;
    for (size_t j = 0; j < nb; j++) loc[list[j]] = j;
    free(in);
    p->P.nbodies = nb;
    p->body = list;
    return CLAB_OK;
}

/* copy body k of P to local slot j and block i to local block jb with its rows from row */
static void copy_body(clab_ccp *L, size_t j, const clab_ccp *P, size_t k)
{
    L->invm[j] = P->invm[k];
    memcpy(&L->invJ[3 * j], &P->invJ[3 * k], 3 * sizeof *L->invJ);
    memcpy(&L->minv[8 * j], &P->minv[8 * k], 8 * sizeof *L->minv);
    memcpy(&L->rot[9 * j], &P->rot[9 * k], 9 * sizeof *L->rot);
}

static void copy_block(clab_ccp *L, size_t jb, size_t row, const clab_ccp *P, size_t i, const size_t *loc)
{
    const clab_ccp_block *bl = &P->blocks[i];
    L->blocks[jb] = *bl;
    L->blocks[jb].first = row;
    L->items[jb] = P->items[i];
    L->items[jb].a = (int32_t)loc[P->items[i].a];
    L->items[jb].b = (int32_t)loc[P->items[i].b];
    if (i < P->ncontacts) memcpy(&L->cone[4 * jb], &P->cone[4 * i], 4 * sizeof *L->cone);
    for (int q = 0; q < bl->size; q++) {
        const size_t k = bl->first + (size_t)q;
        L->rows[row + (size_t)q] = P->rows[k];
        L->rows[row + (size_t)q].a = (int)loc[P->rows[k].a];
        L->rows[row + (size_t)q].b = (int)loc[P->rows[k].b];
        L->p[row + (size_t)q] = P->p[k];
        L->compliance[row + (size_t)q] = P->compliance[k];
    }
}

/* part r: bodies, blocks, local CCP; loc scratch [nbodies] of NONE (left so) */
static int part_build(clab_split_part *p, const clab_ccp *P, const int *owner, int nparts, size_t *loc)
{
    clab_ccp *L = &p->P;
    size_t nbl = 0, n = 0, ncontacts = 0;
    for (size_t i = 0; i < P->nblocks; i++)
        if (holds(P, owner, i, p->id)) nbl++, n += (size_t)P->blocks[i].size, ncontacts += i < P->ncontacts;
    size_t *body = NULL;
    if (part_bodies(p, P, owner, nparts, loc)) return CLAB_ENOMEM;
    body = p->body;
    p->body = NULL;
    int rc = part_alloc(p, L->nbodies, nbl, n);
    if (rc) {
        free(body);
        return rc;
    }
    memcpy(p->body, body, L->nbodies * sizeof *body);
    free(body);
    for (size_t j = 0; j < L->nbodies; j++) copy_body(L, j, P, p->body[j]);
    size_t jb = 0, row = 0;
    for (size_t i = 0; i < P->nblocks; i++) {
        if (!holds(P, owner, i, p->id)) continue;
        copy_block(L, jb, row, P, i, loc);
        p->block[jb] = i;
        p->block_row[jb] = P->blocks[i].first;
        p->counted[jb] = counter_of(P, owner, i) == p->id;
        p->shared[jb] = (size_t)L->items[jb].a >= p->nowned && (size_t)L->items[jb].a < p->nowned + p->nghost;
        p->shared[jb] |= (size_t)L->items[jb].b >= p->nowned && (size_t)L->items[jb].b < p->nowned + p->nghost;
        row += (size_t)P->blocks[i].size;
        jb++;
    }
    L->nblocks = nbl;
    L->ncontacts = ncontacts;
    L->n = n;
    L->njoint_rows = n - 3 * ncontacts;
    L->h = P->h;
    L->has_compliance = P->has_compliance;
    L->cap_bodies = L->nbodies, L->cap_rows = n, L->cap_blocks = nbl;
    for (size_t j = 0; j < L->nbodies; j++) loc[p->body[j]] = NONE;
    return CLAB_OK;
}

/* the recv lists of part p (its ghosts are grouped by owner) */
static int part_recv(clab_split_part *p, const int *owner)
{
    p->recv_part = alloc0(p->nghost, sizeof *p->recv_part);
    p->recv_start = alloc0(p->nghost + 1, sizeof *p->recv_start);
    if (!p->recv_part || !p->recv_start) return CLAB_ENOMEM;
    p->nrecv = 0;
    for (size_t g = 0; g < p->nghost; g++) {
        const int s = owner[p->body[p->nowned + g]];
        if (p->nrecv == 0 || p->recv_part[p->nrecv - 1] != s) p->recv_start[p->nrecv] = g, p->recv_part[p->nrecv++] = s;
    }
    p->recv_start[p->nrecv] = p->nghost;
    return CLAB_OK;
}

/* the send lists of every part: part s sends to r the owned slots of r's ghosts from s */
static int all_send(clab_split *S, const size_t *owned_slot)
{
    for (int s = 0; s < S->nparts; s++) {
        clab_split_part *p = &S->part[s];
        size_t total = 0;
        int nsend = 0;
        for (int r = 0; r < S->nparts; r++)
            for (int j = 0; j < S->part[r].nrecv; j++)
                if (S->part[r].recv_part[j] == s)
                    nsend++, total += S->part[r].recv_start[j + 1] - S->part[r].recv_start[j];
        p->send_part = alloc0((size_t)nsend, sizeof *p->send_part);
        p->send_start = alloc0((size_t)nsend + 1, sizeof *p->send_start);
        p->send_slot = alloc0(total, sizeof *p->send_slot);
        if (!p->send_part || !p->send_start || !p->send_slot) return CLAB_ENOMEM;
        size_t m = 0;
        p->nsend = 0;
        for (int r = 0; r < S->nparts; r++) {
            const clab_split_part *q = &S->part[r];
            for (int j = 0; j < q->nrecv; j++) {
                if (q->recv_part[j] != s) continue;
                p->send_part[p->nsend] = r;
                p->send_start[p->nsend++] = m;
                for (size_t g = q->recv_start[j]; g < q->recv_start[j + 1]; g++)
                    p->send_slot[m++] = owned_slot[q->body[q->nowned + g]];
            }
        }
        p->send_start[p->nsend] = m;
    }
    return CLAB_OK;
}

int clab_split_build(clab_split *S, const clab_ccp *P, const int *owner, int nparts, clab_error *err)
{
    memset(S, 0, sizeof *S);
    if (nparts < 1) return clab_error_set(err, CLAB_EINVAL, "dvi split: %d parts (at least 1)", nparts);
    for (size_t k = 0; k < P->nbodies; k++)
        if (moving(P, (int)k) && (owner[k] < 0 || owner[k] >= nparts))
            return clab_error_set(err, CLAB_EINVAL, "dvi split: body %zu has owner %d, not in 0 .. %d", k, owner[k],
                                  nparts - 1);
    S->nparts = S->nlocal = nparts;
    S->nbodies = P->nbodies, S->nblocks = P->nblocks, S->n = P->n;
    S->part = alloc0((size_t)nparts, sizeof *S->part);
    size_t *loc = alloc0(P->nbodies, sizeof *loc), *owned_slot = alloc0(P->nbodies, sizeof *owned_slot);
    int rc = S->part && loc && owned_slot ? CLAB_OK : CLAB_ENOMEM;
    for (size_t k = 0; loc && k < P->nbodies; k++) loc[k] = NONE;
    for (int r = 0; !rc && r < nparts; r++) {
        clab_split_part *p = &S->part[r];
        p->id = r;
        clab_ccp_init(&p->P);
        clab_ccp_work_init(&p->W);
        rc = part_build(p, P, owner, nparts, loc);
        if (!rc) rc = part_recv(p, owner);
        for (size_t j = 0; !rc && j < p->nowned; j++) owned_slot[p->body[j]] = j;
    }
    if (!rc) rc = all_send(S, owned_slot);
    free(loc);
    free(owned_slot);
    if (rc) {
        clab_split_free(S);
        return clab_error_set(err, rc, "dvi split: out of memory building %d parts", nparts);
    }
    return CLAB_OK;
}

int clab_split_build_part(clab_split *S, const clab_ccp *P, const int *owner, int nparts, int r, clab_error *err)
{
    memset(S, 0, sizeof *S);
    if (r < 0 || r >= nparts) return clab_error_set(err, CLAB_EINVAL, "dvi split: part %d of %d", r, nparts);
    for (size_t k = 0; k < P->nbodies; k++)
        if (moving(P, (int)k) && (owner[k] < 0 || owner[k] >= nparts))
            return clab_error_set(err, CLAB_EINVAL, "dvi split: body %zu has owner %d, not in 0 .. %d", k, owner[k],
                                  nparts - 1);
    S->nparts = nparts;
    S->nlocal = 1;
    S->nbodies = P->nbodies, S->nblocks = P->nblocks, S->n = P->n;
    S->part = alloc0(1, sizeof *S->part);
    size_t *loc = alloc0(P->nbodies, sizeof *loc);
    int rc = S->part && loc ? CLAB_OK : CLAB_ENOMEM;
    for (size_t k = 0; loc && k < P->nbodies; k++) loc[k] = NONE;
    if (!rc) {
        clab_split_part *p = &S->part[0];
        p->id = r;
        clab_ccp_init(&p->P);
        clab_ccp_work_init(&p->W);
        rc = part_build(p, P, owner, nparts, loc);
        if (!rc) rc = part_recv(p, owner);
    }
    free(loc);
    if (rc) {
        clab_split_free(S);
        return clab_error_set(err, rc, "dvi split: out of memory building part %d", r);
    }
    return CLAB_OK;
}

void clab_split_free(clab_split *S)
{
    for (int r = 0; S->part && r < S->nlocal; r++) {
        clab_split_part *p = &S->part[r];
        clab_ccp_free(&p->P); /* the arrays allocated above; the others NULL */
        clab_ccp_work_free(&p->W);
        free(p->body);
        free(p->block);
        free(p->block_row);
        free(p->counted);
        free(p->shared);
        free(p->recv_part);
        free(p->recv_start);
        free(p->send_part);
        free(p->send_start);
        free(p->send_slot);
    }
    free(S->part);
    memset(S, 0, sizeof *S);
}

void clab_split_scatter(const clab_split *S, const double *nu, double *const *x)
{
    for (int j = 0; j < S->nlocal; j++) {
        const clab_split_part *p = &S->part[j];
        for (size_t b = 0; b < p->P.nblocks; b++)
            memcpy(&x[j][p->P.blocks[b].first], &nu[p->block_row[b]], (size_t)p->P.blocks[b].size * sizeof *nu);
    }
}

void clab_split_gather(const clab_split *S, double *const *x, double *nu)
{
    for (int j = 0; j < S->nlocal; j++) {
        const clab_split_part *p = &S->part[j];
        for (size_t b = 0; b < p->P.nblocks; b++)
            if (p->counted[b])
                memcpy(&nu[p->block_row[b]], &x[j][p->P.blocks[b].first], (size_t)p->P.blocks[b].size * sizeof *nu);
    }
}

void clab_split_dv(const clab_split *S, double *const *x, double *const *dv, double *dv_global)
{
    memset(dv_global, 0, 6 * S->nbodies * sizeof *dv_global);
    for (int j = 0; j < S->nlocal; j++) {
        const clab_split_part *p = &S->part[j];
        clab_ccp_plain_dv(&p->P, x[j], dv[j]);
        for (size_t k = 0; k < p->nowned; k++) memcpy(&dv_global[6 * p->body[k]], &dv[j][6 * k], 6 * sizeof *dv_global);
    }
}

/* ---- the loopback: all parts in this process ---- */

int clab_split_loopback_init(clab_split_loopback *lb, int nparts)
{
    lb->nparts = nparts;
    lb->counts = alloc0((size_t)nparts, sizeof *lb->counts);
    return lb->counts ? CLAB_OK : CLAB_ENOMEM;
}

void clab_split_loopback_free(clab_split_loopback *lb)
{
    free(lb->counts);
    lb->counts = NULL;
}

void clab_split_loopback_reset(clab_split_loopback *lb)
{
    memset(lb->counts, 0, (size_t)lb->nparts * sizeof *lb->counts);
}

/* every part sends each neighbour the owned entries it holds as ghosts: one message each */
static int lb_exchange(void *ctx, const clab_split *S, double *const *v, int width)
{
    clab_split_loopback *lb = ctx;
    const size_t w = (size_t)width;
    for (int s = 0; s < S->nlocal; s++) {
        const clab_split_part *p = &S->part[s];
        lb->counts[s].exchanges++;
        for (int j = 0; j < p->nsend; j++) {
            const clab_split_part *q = &S->part[p->send_part[j]];
            int g = 0; /* the receiver's group of ghosts from s */
            while (q->recv_part[g] != s) g++;
            double *dst = &v[q->id][w * (q->nowned + q->recv_start[g])];
            for (size_t m = p->send_start[j]; m < p->send_start[j + 1]; m++, dst += w)
                memcpy(dst, &v[s][w * p->send_slot[m]], w * sizeof *dst);
            lb->counts[s].messages++;
            lb->counts[s].bytes += (long)(w * sizeof *dst * (p->send_start[j + 1] - p->send_start[j]));
        }
    }
    return CLAB_OK;
}

static int lb_sum(void *ctx, const clab_split *S, clab_xsum *acc, int count)
{
    clab_split_loopback *lb = ctx;
    for (int c = 0; c < count; c++) {
        clab_xsum total = acc[c];
        for (int j = 1; j < S->nlocal; j++) clab_xsum_merge(&total, &acc[(size_t)j * (size_t)count + (size_t)c]);
        for (int j = 0; j < S->nlocal; j++) acc[(size_t)j * (size_t)count + (size_t)c] = total;
    }
    for (int j = 0; j < S->nlocal; j++)
        lb->counts[j].reductions++, lb->counts[j].reduce_bytes += count * CLAB_SPLIT_XSUM_BYTES;
    return CLAB_OK;
}

/* the maximum, a NaN anywhere giving NaN */
static int lb_max(void *ctx, const clab_split *S, double *m, int count)
{
    clab_split_loopback *lb = ctx;
    for (int c = 0; c < count; c++) {
        double r = m[c];
        for (int j = 1; j < S->nlocal; j++) {
            const double e = m[(size_t)j * (size_t)count + (size_t)c];
            if (isnan(e) || (!isnan(r) && e > r)) r = e;
        }
        for (int j = 0; j < S->nlocal; j++) m[(size_t)j * (size_t)count + (size_t)c] = r;
    }
    for (int j = 0; j < S->nlocal; j++) lb->counts[j].reductions++, lb->counts[j].reduce_bytes += count * 8;
    return CLAB_OK;
}

clab_split_comm clab_split_loopback_comm(clab_split_loopback *lb)
{
    clab_split_comm c = {lb_exchange, lb_sum, lb_max, lb};
    return c;
}
