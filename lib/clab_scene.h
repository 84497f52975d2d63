/* clab_scene.h: scene files, a text front end to the clab_world API.
 *
 * A scene file (libconfig syntax, documented in doc/scene-format.md) holds materials,
 * bodies, joints, gravity and a simulation group (backend, h, t_end, output_every and the
 * backend options). Loading checks every field (type, range, unknown keys, duplicate
 * names, references) and reports ALL problems found, one line each, as
 * "file:line: field = value: what is wrong; allowed: range". A scene builds the same
 * world as the equivalent clab_world_add_* calls, nothing more.
 *
 *     clab_scene sc;
 *     if (clab_scene_load("ball.cfg", &sc, &err)) { fprintf(stderr, "%s\n", err.msg); ... }
 *     clab_sim *s = clab_sim_create(sc.world, sc.backend, sc.h, &sc.options, &err);
 *     ...
 *     clab_scene_free(&sc);
 */
#ifndef CLAB_SCENE_H
#define CLAB_SCENE_H

#include "clab_error.h"
#include "clab_options.h"
#include "clab_world.h"

#define CLAB_SCENE_PATH_LEN 1024
#define CLAB_SCENE_TEXT_LEN 256

typedef struct clab_scene {
    clab_world *world;                 /* bodies, materials, joints, gravity (owned) */
    char backend[CLAB_NAME_LEN];       /* simulation.backend: "penalty", "dvi", ... */
    double h;                          /* simulation.h: time step [s] */
    double t_end;                      /* simulation.t_end: end time [s] */
    long output_every;                 /* simulation.output_every: steps between output rows (default 1) */
    clab_options options;              /* simulation.options, values as text, where = "file:line" */
    char path[CLAB_SCENE_PATH_LEN];    /* the file read, or the name given to clab_scene_load_string */
    char description[CLAB_SCENE_TEXT_LEN]; /* optional description = "..." ("" when absent) */
} clab_scene;

/* An empty scene (world NULL): safe to pass to clab_scene_free. */
void clab_scene_init(clab_scene *sc);

/* Read and check a scene file, and build its world. On success returns CLAB_OK and fills
 * *out (free it with clab_scene_free). On failure returns CLAB_EINVAL (bad scene: err lists
 * every problem found, one per line), CLAB_EIO (unreadable file) or CLAB_ENOMEM, and leaves
 * *out empty. */
int clab_scene_load(const char *path, clab_scene *out, clab_error *err);

/* The same from text in memory; name labels the messages ("name:line: ...") and is stored
 * in out->path (NULL: "<string>"). Used by tests and the fuzzer. */
int clab_scene_load_string(const char *text, const char *name, clab_scene *out, clab_error *err);

/* Release the world and the options; leaves an empty scene. */
void clab_scene_free(clab_scene *sc);

/* Add the scene's own parameters (scene path, backend, h, t_end, output_every and every
 * backend option as "option.<key>") to m, for output metadata. */
int clab_scene_meta(const clab_scene *sc, clab_options *m);

#endif
