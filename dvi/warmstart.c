/* warmstart.c: the previous step's impulses by contact key (see warmstart.h) */
#include "warmstart.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void clab_warm_init(clab_warmstart *ws) { memset(ws, 0, sizeof *ws); }

void clab_warm_free(clab_warmstart *ws)
{
    free(ws->slots);
    free(ws->lambda);
    clab_warm_init(ws);
}

/* 64-bit mix (the finalizer of splitmix64) so nearby keys spread over the table */
static inline size_t slot_of(uint64_t key, size_t cap)
{
    key ^= key >> 30;
    key *= 0xbf58476d1ce4e5b9ULL;
    key ^= key >> 27;
    key *= 0x94d049bb133111ebULL;
    key ^= key >> 31;
    return (size_t)key & (cap - 1);
}

int clab_warm_reset(clab_warmstart *ws, size_t n)
{
    size_t need = 16;
    while (need < 2 * n) need *= 2;
    if (need > ws->cap) {
        clab_warm_entry *s = realloc(ws->slots, need * sizeof *s);
        if (!s) return CLAB_ENOMEM;
        ws->slots = s;
        ws->cap = need;
    }
    for (size_t i = 0; i < ws->cap; i++) ws->slots[i].key = CLAB_WARM_EMPTY;
    ws->n = 0;
    return CLAB_OK;
}

void clab_warm_put(clab_warmstart *ws, uint64_t key, clab_vec3 F)
{
    if (!ws->cap || 2 * (ws->n + 1) > ws->cap || key == CLAB_WARM_EMPTY) return; /* no room: reset first */
    size_t mask = ws->cap - 1;
    for (size_t i = slot_of(key, ws->cap);; i = (i + 1) & mask) {
        clab_warm_entry *e = &ws->slots[i];
        if (e->key == key) {
            e->F = F;
            return;
        }
        if (e->key == CLAB_WARM_EMPTY) {
            e->key = key;
            e->F = F;
            ws->n++;
            return;
        }
    }
}

const clab_vec3 *clab_warm_get(const clab_warmstart *ws, uint64_t key)
{
    if (!ws->cap || key == CLAB_WARM_EMPTY) return NULL;
    size_t mask = ws->cap - 1;
    for (size_t i = slot_of(key, ws->cap);; i = (i + 1) & mask) {
        const clab_warm_entry *e = &ws->slots[i];
        if (e->key == key) return &e->F;
        if (e->key == CLAB_WARM_EMPTY) return NULL;
    }
}

int clab_warm_joint_rows(clab_warmstart *ws, size_t m)
{
    if (m > ws->cap_lambda) {
        double *l = realloc(ws->lambda, m * sizeof *l);
        if (!l) return CLAB_ENOMEM;
        ws->lambda = l;
        ws->cap_lambda = m;
    }
    for (size_t j = ws->nlambda; j < m; j++) ws->lambda[j] = 0.0;
    ws->nlambda = m;
    return CLAB_OK;
}

int clab_warm_permute(clab_warmstart *ws, const size_t *inv, size_t nbodies, clab_error *err)
{
    if (ws->n == 0) return CLAB_OK;
    clab_warm_entry *e = malloc(ws->n * sizeof *e);
    if (!e) return clab_error_set(err, CLAB_ENOMEM, "dvi warm start: out of memory renumbering %zu contacts", ws->n);
    size_t m = 0;
    for (size_t i = 0; i < ws->cap; i++) {
        uint64_t key = ws->slots[i].key;
        if (key == CLAB_WARM_EMPTY) continue;
        if ((key >> 38) >= nbodies || ((key >> 12) & 0x3ffffffu) >= nbodies) {
            free(e);
            return clab_error_set(err, CLAB_EINVAL,
                                  "dvi warm start: a contact key names a body beyond the world's %zu bodies", nbodies);
        }
        int swapped;
        e[m].key = clab_contact_key_permute(key, inv, &swapped);
        e[m].F = swapped ? clab_v3_scale(ws->slots[i].F, -1.0) : ws->slots[i].F;
        m++;
    }
    for (size_t i = 0; i < ws->cap; i++) ws->slots[i].key = CLAB_WARM_EMPTY; /* the same room */
    ws->n = 0;
    for (size_t i = 0; i < m; i++) clab_warm_put(ws, e[i].key, e[i].F);
    free(e);
    return CLAB_OK;
}

int clab_warm_save(const clab_warmstart *ws, FILE *f, clab_error *err)
{
    int bad = fprintf(f, "dvi-warmstart 1\ncontacts %zu\n", ws->n) < 0;
    for (size_t i = 0; i < ws->cap && !bad; i++) {
        const clab_warm_entry *e = &ws->slots[i];
        if (e->key == CLAB_WARM_EMPTY) continue;
        bad = fprintf(f, "%" PRIu64 " %.17g %.17g %.17g\n", e->key, e->F.x, e->F.y, e->F.z) < 0;
    }
    if (!bad) bad = fprintf(f, "joint_rows %zu\n", ws->nlambda) < 0;
    for (size_t j = 0; j < ws->nlambda && !bad; j++) bad = fprintf(f, "%.17g\n", ws->lambda[j]) < 0;
    if (bad) return clab_error_set(err, CLAB_EIO, "dvi: could not write the warm-start impulses to the checkpoint");
    return CLAB_OK;
}

int clab_warm_load(clab_warmstart *ws, FILE *f, clab_error *err)
{
    int version = 0;
    size_t n = 0, m = 0;
    if (fscanf(f, " dvi-warmstart %d contacts %zu", &version, &n) != 2 || version != 1)
        return clab_error_set(err, CLAB_EIO, "dvi checkpoint: expected 'dvi-warmstart 1' and 'contacts <n>'");
    if (clab_warm_reset(ws, n)) return clab_error_set(err, CLAB_ENOMEM, "dvi checkpoint: out of memory (%zu contacts)", n);
    for (size_t i = 0; i < n; i++) {
        uint64_t key;
        clab_vec3 F;
        if (fscanf(f, " %" SCNu64 " %lf %lf %lf", &key, &F.x, &F.y, &F.z) != 4)
            return clab_error_set(err, CLAB_EIO, "dvi checkpoint: contact impulse %zu of %zu unreadable", i + 1, n);
        clab_warm_put(ws, key, F);
    }
    if (fscanf(f, " joint_rows %zu", &m) != 1)
        return clab_error_set(err, CLAB_EIO, "dvi checkpoint: expected 'joint_rows <m>'");
    ws->nlambda = 0;
    if (clab_warm_joint_rows(ws, m)) return clab_error_set(err, CLAB_ENOMEM, "dvi checkpoint: out of memory");
    for (size_t j = 0; j < m; j++)
        if (fscanf(f, " %lf", &ws->lambda[j]) != 1)
            return clab_error_set(err, CLAB_EIO, "dvi checkpoint: joint impulse %zu of %zu unreadable", j + 1, m);
    return CLAB_OK;
}
