/* warmstart.h: the impulses of the previous step, by contact key, for warm-starting the CCP
 * solvers. Each contact's impulse is kept as a world vector F = gamma_n n + gamma_u u + gamma_w w
 * [N s], so a contact whose frame turned between steps is started from F expressed in its new
 * frame (then projected onto K). An open-addressing hash table (linear probing, load <= 1/2):
 * O(1) lookups, and no allocation in steady state (it grows only when the number of contacts
 * does). Joint impulses are kept by joint row. */
#ifndef CLAB_WARMSTART_H
#define CLAB_WARMSTART_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clab_contact.h"
#include "clab_error.h"
#include "clab_math.h"

typedef struct clab_warm_entry {
    uint64_t key;  /* contact key, CLAB_WARM_EMPTY when unused */
    clab_vec3 F;   /* world impulse of the last step [N s] */
} clab_warm_entry;

#define CLAB_WARM_EMPTY UINT64_MAX

typedef struct clab_warmstart {
    clab_warm_entry *slots; /* [cap], cap a power of two */
    size_t cap, n;          /* slots, entries in use */
    double *lambda;         /* [nlambda] bilateral impulses by joint row [N s] */
    size_t nlambda, cap_lambda;
} clab_warmstart;

void clab_warm_init(clab_warmstart *ws);
void clab_warm_free(clab_warmstart *ws);
/* Forget every contact entry and make room for n of them (allocates only to grow). */
int clab_warm_reset(clab_warmstart *ws, size_t n);
/* Store F under key (after clab_warm_reset with enough room: never allocates). */
void clab_warm_put(clab_warmstart *ws, uint64_t key, clab_vec3 F);
/* The impulse stored under key, or NULL. */
const clab_vec3 *clab_warm_get(const clab_warmstart *ws, uint64_t key);
/* Make room for m joint rows (new rows start at 0). */
int clab_warm_joint_rows(clab_warmstart *ws, size_t m);

/* The bodies are renumbered, old body i becoming inv[i] (nbodies entries): every entry's key
 * maps (clab_contact_key_permute); F, b's impulse, changes sign where a and b swap order.
 * CLAB_EINVAL when a key names a body >= nbodies, CLAB_ENOMEM; unchanged on failure. */
int clab_warm_permute(clab_warmstart *ws, const size_t *inv, size_t nbodies, clab_error *err);

/* Checkpoint: a text block "dvi-warmstart 1", then "contacts <n>" and n lines "key Fx Fy Fz",
 * then "joint_rows <m>" and m values, exact to the last bit (%.17g). */
int clab_warm_save(const clab_warmstart *ws, FILE *f, clab_error *err);
int clab_warm_load(clab_warmstart *ws, FILE *f, clab_error *err);

#endif
