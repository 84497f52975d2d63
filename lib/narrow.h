/* narrow.h: the narrow phase's private header, the layer above the broad phase
 * (broadphase.h: it reads the broad phase's rows and hot records) and below the driver
 * (collide.c). narrow.c: the table of the pair routines (narrow_pair.h), the sphere rows'
 * fast path over the hot records, and the threads' cut of the rows and record buffers. */
#ifndef CLAB_NARROW_H
#define CLAB_NARROW_H

#include "broadphase.h"
#include "clab_balance.h"
#include "narrow_pair.h"

/* blocks of bodies whose record counts cut the narrow phase's rows (narrow.c: row_cut) */
#define CLAB_CUT_BLOCKS 64

typedef struct clab_narrow {
    uint32_t *prow;             /* [cap_prow]: the row of each pair of the kept list (narrow.c: pair_rows),
                                 * for prow_np pairs of the list of build number prow_build */
    size_t cap_prow, prow_np, prow_build;
    /* with OpenMP: the contacts of threads 1.. [ntbuf], and where each thread's records start
     * in the output [ntbuf + 1] (the partition clab_narrow_rows reports) */
    size_t *part;
    clab_contacts *tbuf;
    size_t ntbuf;
    /* the last call's records of the bodies [0, n b / CLAB_CUT_BLOCKS), b = 0 .. CLAB_CUT_BLOCKS,
     * for n = cut_n bodies (0: none known): where the threads' rows are cut */
    size_t cut_rec[CLAB_CUT_BLOCKS + 1];
    clab_balance bal;           /* the cut of the rows, in cost (row_cut) */
    size_t cut_n;
} clab_narrow;

/* Note where the records of out (the last call's, sorted by a) fall among n bodies, for this
 * call's cut of the rows; before out is cleared (or lent to the broad phase). Only needed
 * when more than one thread may run. */
void clab_narrow_note_records(clab_narrow *nw, const clab_contacts *out, size_t n);

/* The contacts of the pairs of list L (build number `build` of the broad phase) with
 * Phi < envelope, appended to the empty out in (a, b, feature) order, from the bodies' hot
 * records hot (clab_skin_gathered). On more than one thread *nparts = T and nw->part[0 .. T]
 * where each thread's records start; else *nparts = 0. */
int clab_narrow_rows(clab_narrow *nw, const clab_world *w, const clab_hot_body *hot, clab_pair_list *L, size_t build,
                     double envelope, clab_contacts *out, int *nparts, clab_error *err);
void clab_narrow_free(clab_narrow *nw);

#endif
