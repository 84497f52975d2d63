/* fuzz_scene.c: libFuzzer harness over the scene parser and world construction.
 *
 * Each input is a scene file's text. It goes through clab_scene_load_string (the prescan,
 * libconfig, every field check, world construction); a scene that loads and is small (at
 * most FUZZ_MAX_BODIES bodies) is then run for a few steps under its backend and options
 * (collision, penalty or DVI step, runtime guard), and its state goes through a checkpoint
 * round trip in memory. Any crash, leak, sanitizer report or abort is a finding; refusals
 * with a message are the expected outcome for most inputs.
 *
 * Build: ./configure --enable-fuzz CC=clang && make tests/fuzz/fuzz_scene
 * Run:   make fuzz FUZZ_SECONDS=60   (seeds: experiments/scenes, tests/scenes, tests/fuzz/seeds;
 *        dictionary tests/fuzz/scene.dict) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_checkpoint.h"
#include "clab_scene.h"
#include "clab_sim.h"

#define FUZZ_MAX_BYTES 65536  /* longer inputs are skipped (time per input, not coverage) */
#define FUZZ_MAX_BODIES 64    /* worlds stepped */
#define FUZZ_STEPS 5          /* steps of each */
#define FUZZ_MAX_ITER 100     /* DVI iteration limit at most this: a world of hundreds of overlapping
                                 contacts then takes a second, not ten, under the sanitizers */

/* cap the DVI iteration limit at FUZZ_MAX_ITER, given or not (an out-of-range or malformed
 * value is kept, so its check still runs) */
static void bound_work(clab_scene *sc)
{
    if (strcmp(sc->backend, "dvi") != 0) return;
    const char *v = NULL;
    for (size_t i = 0; i < sc->options.n; i++)
        if (strcmp(sc->options.o[i].key, "max_iter") == 0) v = sc->options.o[i].val;
    char *end = NULL;
    long n = v ? strtol(v, &end, 10) : 1000;
    if (v && (end == v || *end)) return;
    if (n > FUZZ_MAX_ITER) {
        char cap[32];
        snprintf(cap, sizeof cap, "%d", FUZZ_MAX_ITER);
        clab_options_set(&sc->options, "max_iter", cap, NULL);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_BYTES) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    clab_scene sc;
    clab_error err;
    if (clab_scene_load_string(text, "fuzz", &sc, &err) == CLAB_OK && sc.world->nbodies <= FUZZ_MAX_BODIES) {
        bound_work(&sc);
        clab_sim *s = clab_sim_create(sc.world, sc.backend, sc.h, &sc.options, &err);
        if (s) {
            int ok = 1;
            for (int k = 0; k < FUZZ_STEPS && ok; k++) ok = clab_sim_step(s, &err) == CLAB_OK;
            if (ok) { /* a checkpoint of the state reads back into the same sim */
                clab_checkpoint_image img;
                clab_checkpoint_image_init(&img);
                if (clab_checkpoint_encode(s, NULL, &img, &err) == CLAB_OK &&
                    clab_checkpoint_decode(s, img.data, img.len, "fuzz", NULL, &err) != CLAB_OK)
                    abort(); /* a checkpoint this build wrote must read back */
                clab_checkpoint_image_free(&img);
            }
            clab_sim_destroy(s);
        }
    }
    clab_scene_free(&sc);
    free(text);
    return 0;
}
