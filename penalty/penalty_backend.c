/* penalty_backend.c: the penalty (DEM) backend's type object, `clab_backend_penalty`: create
 * from options (options.h), the step (the plain one, step.c, or with fast=on the fast path,
 * fast_step.c, the same bits), forces, statistics, metadata, checkpoint, renumbering.
 *
 * One step (the spring-dashpot force law with Coulomb friction, the body update of the
 * Tasora-Anitescu paper's Eq. (5)):
 *   1. for every contact with overlap delta_n = -Phi > 0: relative velocity of the contact
 *      point, v = v_b(P) - v_a(P); last step's history delta_t rotated onto the current tangent
 *      plane and advanced by h v_t; the force law (force_law.h) with the Coulomb cap; the force
 *      F = F_n n + F_t on b and -F on a, torques (P - r) x F about each center;
 *   2. contacts that are gone (no longer reported, or delta_n <= 0) lose their history;
 *   3. explicit integration of every free body (integrator.h).
 * Options, formulas and sources: doc/penalty.md. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_backend_keyed.h"
#include "clab_backends.h"
#include "penalty.h"

static void penalty_destroy(void *self)
{
    penalty *p = self;
    if (!p) return;
    clab_history_free(&p->hist);
    free(p->pairs);
    free(p->mat);
    free(p->Fc);
    free(p->Mr);
    free(p->F);
    free(p->tau);
    clab_penalty_fast_free(&p->f);
    free(p);
}

static int penalty_create(const clab_world *w, clab_options *opt, void **self, clab_error *err)
{
    *self = NULL;
    penalty *p = calloc(1, sizeof *p);
    if (!p) return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory");
    clab_history_init(&p->hist);
    clab_penalty_def_init(&p->def);
    p->f.pre_step = -1; /* nothing gathered ahead */
    int rc = clab_penalty_def_read(opt, &p->def, err);
    if (!rc) rc = clab_penalty_check_world(p, w, err);
    if (!rc) rc = clab_penalty_build_pairs(p, w, err);
    if (rc) {
        penalty_destroy(p);
        return rc;
    }
    p->stable_step = clab_penalty_stable_step(p, w);
    *self = p;
    return CLAB_OK;
}

static int penalty_step(void *self, clab_world *w, const clab_contacts *c, double h, clab_error *err)
{
    penalty *p = self;
    return p->def.fast ? clab_penalty_fast_step(p, w, c, h, 0.0, NULL, err) : clab_penalty_plain_step(p, w, c, h, err);
}

/* the bodies are renumbered (clab_sim_sort): the history's keys follow them */
static int penalty_permute(void *self, const size_t *inv, size_t nbodies, clab_error *err)
{
    penalty *p = self;
    return clab_history_permute(&p->hist, inv, nbodies, err);
}

/* the keyed records of the MPI decomposition (clab_backend_keyed.h): (key, delta_t), 32 bytes */
typedef struct penalty_keyed {
    uint64_t key;
    clab_vec3 delta_t;
} penalty_keyed;

/* the history of the contacts touching a marked body, keys renumbered through map */
static int penalty_keyed_export(const void *self, const size_t *map, const unsigned char *mark, size_t nbodies,
                                void **rec, size_t *n, clab_error *err)
{
    const clab_history *h = &((const penalty *)self)->hist;
    *rec = NULL;
    *n = 0;
    size_t m = 0;
    for (size_t i = 0; i < h->n; i++) {
        const size_t a = (size_t)(h->key[i] >> 38), b = (size_t)((h->key[i] >> 12) & 0x3ffffffu);
        m += h->key[i] != CLAB_HISTORY_EMPTY && a < nbodies && b < nbodies && (mark[a] || mark[b]);
    }
    if (m == 0) return CLAB_OK;
    penalty_keyed *r = malloc(m * sizeof *r);
    if (!r) return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory for %zu history records", m);
    size_t k = 0;
    for (size_t i = 0; i < h->n; i++) {
        const size_t a = (size_t)(h->key[i] >> 38), b = (size_t)((h->key[i] >> 12) & 0x3ffffffu);
        if (h->key[i] == CLAB_HISTORY_EMPTY || a >= nbodies || b >= nbodies || !(mark[a] || mark[b])) continue;
        r[k].key = clab_contact_key((int)map[a], (int)map[b], (unsigned)(h->key[i] & 0xfffu));
        r[k++].delta_t = h->delta_t[i];
    }
    *rec = r;
    *n = m;
    return CLAB_OK;
}

/* the history becomes the records given (keys increasing) */
static int penalty_keyed_import(void *self, const void *rec, size_t n, clab_error *err)
{
    clab_history *h = &((penalty *)self)->hist;
    const penalty_keyed *r = rec;
    int rc = clab_history_begin(h, n, err);
    if (rc) return rc;
    for (size_t i = 0; i < n; i++) clab_history_put(h, r[i].key, r[i].delta_t);
    clab_history_end(h);
    return CLAB_OK;
}

/* the rest of the state: the first-step flag and the step count, as penalty_save writes them */
typedef struct penalty_head {
    int64_t started, steps;
} penalty_head;

static void penalty_get_head(const void *self, void *buf)
{
    const penalty *p = self;
    const penalty_head h = {p->started, p->steps};
    memcpy(buf, &h, sizeof h);
}

static void penalty_set_head(void *self, const void *buf)
{
    penalty *p = self;
    penalty_head h;
    memcpy(&h, buf, sizeof h);
    p->started = h.started != 0;
    p->steps = (long)h.steps;
    p->nforces = 0;
}

/* (F_n, F_u, F_w) of each contact: the force on b in the frame (n, u, w), F.n, F.u, F.w (the
 * force law's F_n and the tangential force's components, to rounding: a few ulps of |F|) */
static void penalty_forces(const void *self, const clab_contacts *c, clab_vec3 *f_nuw)
{
    const penalty *p = self;
    for (size_t i = 0; i < c->n; i++) {
        if (i >= p->nforces) {
            f_nuw[i] = clab_v3(0.0, 0.0, 0.0);
            continue;
        }
        const clab_contact *ci = &c->c[i];
        clab_vec3 tu, tw, F = p->Fc[i];
        clab_contact_frame(ci, &tu, &tw);
        f_nuw[i] = clab_v3(clab_v3_dot(F, ci->n), clab_v3_dot(F, tu), clab_v3_dot(F, tw));
    }
}

static void penalty_stats(const void *self, clab_solver_stats *s)
{
    const penalty *p = self;
    memset(s, 0, sizeof *s);
    s->solves = p->steps; /* no iterative solver: one force evaluation per step */
}

static double penalty_stable_step(const void *self, const clab_world *w) { return clab_penalty_stable_step(self, w); }

/* a material's own values (the mixing rule's inputs, clab_material.h) */
static void put_material(clab_options *m, const clab_material *mt)
{
    char key[CLAB_OPT_LEN];
    snprintf(key, sizeof key, "material.%s", mt->name);
    clab_penalty_put(m, key, "mu=%.6g mu_roll=%.6g E=%.6g nu=%.6g cor=%.6g kn=%.6g kt=%.6g gn=%.6g gt=%.6g", mt->mu,
                     mt->mu_roll, mt->E, mt->nu, mt->cor, mt->kn, mt->kt, mt->gn, mt->gt);
}

/* one material pair after the mixing rule: its coefficients, and which are explicit */
static void put_pair(clab_options *m, const char *a, const char *b, const clab_penalty_pair *pp)
{
    char key[CLAB_OPT_LEN];
    snprintf(key, sizeof key, "pair.%.48s.%.48s", a, b); /* (names of up to 48 bytes in full) */
    clab_penalty_put(m, key, "mu=%.6g mu_roll=%.6g cor=%.6g beta=%.6g Estar=%.6g Gstar=%.6g", pp->mu, pp->mu_roll,
                     pp->cor, pp->beta, pp->Estar, pp->Gstar);
    snprintf(key, sizeof key, "pair.%.48s.%.48s.explicit", a, b);
    char k[4][24];
    const double kv[4] = {pp->kn, pp->kt, pp->gn, pp->gt};
    for (int j = 0; j < 4; j++)
        if (kv[j] >= 0.0) snprintf(k[j], sizeof k[j], "%.6g", kv[j]);
        else snprintf(k[j], sizeof k[j], "derived");
    clab_penalty_put(m, key, "kn=%s kt=%s gn=%s gt=%s", k[0], k[1], k[2], k[3]);
}

/* The options, the stable step, every material's values and the CRC-32 of the pair table's
 * numbers (so the metadata, and the checkpoint's fingerprint of them, change with any pair
 * parameter); the pairs themselves while there are at most CLAB_PENALTY_META_PAIRS of them,
 * else one line saying they follow the mixing rule (n materials have n(n+1)/2 pairs: the
 * metadata stays O(n)) */
static void penalty_meta(const void *self, clab_options *m)
{
    const penalty *p = self;
    clab_penalty_def_meta(&p->def, m);
    clab_penalty_put(m, "stable_step_s", "%.17g", p->stable_step);
    const size_t n = p->nmat, npairs = n * (n + 1) / 2;
    for (size_t a = 0; a < n; a++) put_material(m, &p->mat[a]);
    if (npairs <= CLAB_PENALTY_META_PAIRS) {
        for (size_t a = 0; a < n; a++)
            for (size_t b = a; b < n; b++) put_pair(m, p->mat[a].name, p->mat[b].name, &p->pairs[a * n + b]);
    } else {
        clab_penalty_put(m, "pairs", "%zu material pairs, more than %d: not listed; each follows the mixing rule "
                                     "(clab_material.h) from the material.* values and the options kn kt gn gt",
                         npairs, CLAB_PENALTY_META_PAIRS);
    }
    clab_penalty_put(m, "pair_table_crc32", "%08" PRIx32, p->pairs_crc);
}

static const char save_magic[8] = {'C', 'L', 'A', 'B', 'P', 'E', 'N', '1'};

static int penalty_save(const void *self, FILE *f, clab_error *err)
{
    const penalty *p = self;
    int32_t started = p->started;
    int64_t steps = p->steps;
    if (fwrite(save_magic, 1, 8, f) != 8 || fwrite(&started, sizeof started, 1, f) != 1 ||
        fwrite(&steps, sizeof steps, 1, f) != 1)
        return clab_error_set(err, CLAB_EIO, "penalty backend: checkpoint write failed");
    return clab_history_save(&p->hist, f, err);
}

static int penalty_load(void *self, FILE *f, clab_error *err)
{
    penalty *p = self;
    char m[8];
    int32_t started;
    int64_t steps;
    if (fread(m, 1, 8, f) != 8 || memcmp(m, save_magic, 8) != 0)
        return clab_error_set(err, CLAB_EIO, "penalty backend: not a penalty checkpoint (bad magic)");
    if (fread(&started, sizeof started, 1, f) != 1 || fread(&steps, sizeof steps, 1, f) != 1)
        return clab_error_set(err, CLAB_EIO, "penalty backend: truncated checkpoint");
    int rc = clab_history_load(&p->hist, f, err);
    if (rc) return rc;
    p->started = started != 0;
    p->steps = steps;
    p->nforces = 0;
    return CLAB_OK;
}

const clab_backend_type clab_backend_penalty = {
    .name = "penalty",
    .summary = "penalty DEM: Hooke or Hertz-Mindlin spring-dashpots with tangential history, explicit integration",
    .options_help = clab_penalty_options_help,
    .default_envelope = 0.0,
    .create = penalty_create,
    .step = penalty_step,
    .forces = penalty_forces,
    .stats = penalty_stats,
    .meta = penalty_meta,
    .stable_step = penalty_stable_step,
    .save = penalty_save,
    .load = penalty_load,
    .permute = penalty_permute,
    .destroy = penalty_destroy,
};

const clab_backend_keyed clab_backend_penalty_keyed = {
    .type = &clab_backend_penalty,
    .size = sizeof(penalty_keyed),
    .export_state = penalty_keyed_export,
    .import_state = penalty_keyed_import,
    .head_size = sizeof(penalty_head),
    .get_head = penalty_get_head,
    .set_head = penalty_set_head,
};
