/* test_many_materials: a penalty scene with 400 materials (400 spheres on a plane, each of
 * its own material) keeps its metadata and its checkpoints' cost linear in the materials.
 * - The metadata (clab_sim_meta) of 401 materials (the world's default one and 400) lists
 *   every material once and no pair: at most 512 bytes of key and value a material plus
 *   8 KiB for the rest (the measured size is about 100 bytes a material; all
 *   401 x 402 / 2 = 80,601 pairs of two lines each would take about 13 MB). A world of 10
 *   materials lists its 55 pairs, one of 11 (66 pairs) lists none and says so.
 * - The pair table's numbers are fingerprinted (pair_table_crc32): changing one material's
 *   E by a relative 1e-9 (invisible in the metadata's 6 digits) changes it.
 * - The checkpoint image computes the fingerprint of the run's parameters once: 50
 *   encodes of one simulation call the backend's metadata hook once (a counting copy of the
 *   penalty type stands in for it); the checkpoint restores into a fresh simulation of the
 *   same scene with same_parameters = 1, and into one with another kn with 0.
 * - 100 steps run (no time is asserted). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_backends.h"
#include "clab_checkpoint.h"
#include "clab_sim.h"
#include "tap.h"

enum { NMAT = 400 };

/* a plane and n spheres of radius 1 cm in a square grid, touching the plane, sphere i of
 * material i (mu growing with i, so every pair differs); material k's E scaled by Escale */
static clab_world *make_world(int n, int k, double Escale)
{
    clab_world *w = clab_world_create(NULL);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    clab_world_add_body(w, &d, NULL);
    for (int i = 0; i < n; i++) {
        clab_material m = clab_default_material();
        snprintf(m.name, sizeof m.name, "m%03d", i);
        m.mu = 0.3 + 0.001 * i;
        m.E = 1e8 * (i == k ? Escale : 1.0);
        int id = clab_world_add_material(w, &m, NULL);
        d = clab_default_body_def();
        d.shape = clab_sphere(0.01);
        d.density = 2500.0;
        d.material = id;
        d.r = clab_v3(0.03 * (i % 20), 0.03 * (i / 20), 0.0099);
        clab_world_add_body(w, &d, NULL);
    }
    return w;
}

static clab_sim *make_sim(clab_world *w, const char *opt)
{
    clab_options o;
    clab_options_init(&o);
    clab_error err;
    clab_error_clear(&err);
    if (opt) clab_options_parse(&o, opt, "test", &err);
    clab_sim *s = clab_sim_create(w, "penalty", 1e-5, &o, &err);
    clab_options_free(&o);
    if (!s) tap_diag("clab_sim_create: %s", err.msg);
    return s;
}

/* the metadata's size (keys and values) and its counts of material.* and pair.* keys */
static size_t meta_size(const clab_sim *s, size_t *nmaterial, size_t *npair, char *crc, size_t ncrc)
{
    clab_options m;
    clab_options_init(&m);
    clab_sim_meta(s, &m);
    size_t bytes = 0;
    *nmaterial = *npair = 0;
    crc[0] = '\0';
    for (size_t i = 0; i < m.n; i++) {
        bytes += strlen(m.o[i].key) + strlen(m.o[i].val);
        if (strncmp(m.o[i].key, "material.", 9) == 0) ++*nmaterial;
        if (strncmp(m.o[i].key, "pair.", 5) == 0) ++*npair;
        if (strcmp(m.o[i].key, "pair_table_crc32") == 0) snprintf(crc, ncrc, "%s", m.o[i].val);
    }
    clab_options_free(&m);
    return bytes;
}

static void metadata_bounded(void)
{
    clab_world *w = make_world(NMAT, -1, 1.0);
    clab_sim *s = make_sim(w, NULL);
    if (!s) return;
    size_t nm, np;
    char crc[32], crc2[32];
    size_t bytes = meta_size(s, &nm, &np, crc, sizeof crc);
    const size_t nmat = w->nmaterials, bound = 512 * nmat + 8192;
    tap_ok(bytes <= bound, "%zu materials: metadata of %zu bytes <= %zu (512 a material + 8 KiB)", nmat, bytes, bound);
    tap_ok(nm == nmat && np == 0, "every material listed once (%zu of %zu), no pair (%zu)", nm, nmat, np);
    tap_ok(strlen(crc) == 8, "pair_table_crc32 written (%s)", crc);

    /* one pair parameter changed below the metadata's 6 digits */
    clab_world *w2 = make_world(NMAT, 123, 1.0 + 1e-9);
    clab_sim *s2 = make_sim(w2, NULL);
    if (s2) {
        meta_size(s2, &nm, &np, crc2, sizeof crc2);
        tap_ok(strcmp(crc, crc2) != 0, "material m123's E x (1 + 1e-9): pair_table_crc32 %s -> %s", crc, crc2);
    }
    clab_sim_destroy(s2);
    clab_world_destroy(w2);

    /* the stated limit: pairs listed up to CLAB_PENALTY_META_PAIRS (10 materials: 55 pairs) */
    for (int n = 9; n <= 10; n++) { /* with the default material: 10 and 11 materials */
        clab_world *w3 = make_world(n, -1, 1.0);
        clab_sim *s3 = make_sim(w3, NULL);
        if (s3) {
            clab_options m;
            clab_options_init(&m);
            clab_sim_meta(s3, &m);
            meta_size(s3, &nm, &np, crc2, sizeof crc2);
            const size_t k = w3->nmaterials, pairs = k * (k + 1) / 2;
            if (pairs <= 64)
                tap_ok(np == 2 * pairs && !clab_options_get(&m, "pairs"), "%zu materials: all %zu pairs listed (%zu lines)",
                       k, pairs, np);
            else
                tap_ok(np == 0 && clab_options_get(&m, "pairs") && strstr(clab_options_get(&m, "pairs"), "mixing rule"),
                       "%zu materials (%zu pairs): none listed, the line 'pairs' says they follow the mixing rule", k,
                       pairs);
            clab_options_free(&m);
        }
        clab_sim_destroy(s3);
        clab_world_destroy(w3);
    }

    /* 100 steps */
    clab_error err;
    clab_error_clear(&err);
    int rc = clab_sim_step(s, &err);
    const size_t nc1 = s->contacts.n;
    for (int i = 1; i < 100 && !rc; i++) rc = clab_sim_step(s, &err);
    tap_ok(rc == CLAB_OK && nc1 == NMAT, "100 steps (%s); %zu contacts in the first (want %d: each sphere on the plane)",
           rc ? err.msg : "ok", nc1, NMAT);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* the penalty type with its metadata hook counted */
static int meta_calls;
static void counted_meta(const void *self, clab_options *m)
{
    meta_calls++;
    clab_backend_penalty.meta(self, m);
}

static void fingerprint_once(void)
{
    clab_world *w = make_world(NMAT, -1, 1.0);
    clab_sim *s = make_sim(w, NULL);
    if (!s) return;
    clab_backend_type counted = clab_backend_penalty;
    counted.meta = counted_meta;
    s->type = &counted;
    clab_checkpoint_image img;
    clab_checkpoint_image_init(&img);
    clab_error err;
    clab_error_clear(&err);
    int rc = 0;
    for (int i = 0; i < 50 && !rc; i++) {
        rc = clab_sim_step(s, &err);
        if (!rc) rc = clab_checkpoint_encode(s, NULL, &img, &err);
    }
    tap_ok(rc == CLAB_OK && meta_calls == 1, "50 steps, each encoded: the metadata hook ran %d time(s), want 1 (%s)",
           meta_calls, rc ? err.msg : "ok");
    s->type = &clab_backend_penalty;

    /* the image restores into a fresh simulation of the same scene, the parameters the same */
    clab_world *w2 = make_world(NMAT, -1, 1.0);
    clab_sim *s2 = make_sim(w2, NULL);
    clab_checkpoint_info info;
    memset(&info, 0, sizeof info);
    rc = s2 ? clab_checkpoint_decode(s2, img.data, img.len, "image", &info, &err) : CLAB_EINVAL;
    tap_ok(rc == CLAB_OK && info.same_parameters == 1 && w2->step == 50,
           "restored into a fresh simulation: same_parameters %d, step %ld (%s)", info.same_parameters, (long)w2->step,
           rc ? err.msg : "ok");
    clab_checkpoint_info_free(&info);
    clab_sim_destroy(s2);
    clab_world_destroy(w2);

    /* another explicit kn for every pair: other parameters */
    clab_world *w3 = make_world(NMAT, -1, 1.0);
    clab_sim *s3 = make_sim(w3, "kn=1e6");
    memset(&info, 0, sizeof info);
    rc = s3 ? clab_checkpoint_decode(s3, img.data, img.len, "image", &info, &err) : CLAB_EINVAL;
    tap_ok(rc == CLAB_OK && info.same_parameters == 0, "restored under kn = 1e6: same_parameters %d (want 0) (%s)",
           info.same_parameters, rc ? err.msg : "ok");
    clab_checkpoint_info_free(&info);
    clab_sim_destroy(s3);
    clab_world_destroy(w3);

    clab_checkpoint_image_free(&img);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

int main(void)
{
    metadata_bounded();
    fingerprint_once();
    return tap_done();
}
