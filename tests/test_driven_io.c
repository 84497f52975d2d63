/* test_driven_io: driven and loaded bodies in scene files and checkpoints.
 *
 * 1. A scene with a belt (motion velocity/omega), a box following a table, a servo plate and
 *    a loaded sphere builds the world the clab_motion.h calls would: kinds, tables, servo
 *    fields (axis normalized), loads, the fixed flag, the velocities at t = 0.
 * 2. Each bad block is refused with CLAB_EINVAL and a message naming the field and its line:
 *    t not increasing, a row of six numbers, a table with a velocity, motion and servo
 *    together, a servo without area, a servo gain <= 0, a zero axis, a force on a fixed body,
 *    fixed = false with a motion, an unknown key in a motion, a motion that is not a group.
 * 3. Checkpoint round trip (penalty and DVI): a sphere between a floor and a servo plate, a
 *    box driven by a table, a belt whose velocity the driver sets between steps; run 2N steps
 *    in one go, and N steps, a checkpoint, a fresh world from the same scene restored from
 *    it, N steps more: every body the same bits. A scene whose table differs is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clab_checkpoint.h"
#include "clab_motion.h"
#include "clab_scene.h"
#include "clab_sim.h"
#include "tap.h"

static const char *good =
    "gravity = [0.0, 0.0, -9.81];\n"
    "materials = ( { name = \"grain\"; mu = 0.4; E = 1e7; cor = 0.5; } );\n"
    "bodies = (\n"
    "  { name = \"floor\"; shape = \"plane\"; fixed = true; material = \"grain\";\n"
    "    motion = { velocity = [0.1, 0.0, 0.0]; omega = [0.0, 0.0, 0.2]; }; },\n"
    "  { name = \"box\"; shape = \"box\"; half = [0.1, 0.1, 0.02]; position = [1.0, 0.0, 0.5];\n"
    "    motion = { table = ( [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.01, 0.5, 0.0, 0.0, 0.0, 0.0, 1.0],\n"
    "                         [0.02, 0.5, 0.0, 0.0, 0.0, 0.0, 1.0] ); }; },\n"
    "  { name = \"ball\"; shape = \"sphere\"; radius = 0.05; density = 1000.0; position = [0.0, 0.0, 0.05];\n"
    "    material = \"grain\"; force = [0.0, 0.0, -2.0]; torque = [0.0, 0.001, 0.0]; },\n"
    "  { name = \"plate\"; shape = \"box\"; half = [0.2, 0.2, 0.01]; position = [0.0, 0.0, 0.111];\n"
    "    material = \"grain\";\n"
    "    servo = { axis = [0.0, 0.0, -2.0]; stress = 1000.0; area = 0.16; gain = 1e-4; vmax = 0.05; }; }\n"
    ");\n"
    "simulation = { backend = \"%s\"; h = %s; t_end = 0.01; };\n";

static void build_good(void)
{
    char text[4096];
    snprintf(text, sizeof text, good, "penalty", "1e-5");
    clab_scene sc;
    clab_error err;
    clab_scene_init(&sc);
    if (!tap_ok(clab_scene_load_string(text, "good.cfg", &sc, &err) == CLAB_OK, "scene with motion, table, servo, "
                "force loads")) {
        tap_diag("%s", err.msg);
        return;
    }
    const clab_world *w = sc.world;
    const clab_driven *fl = clab_world_motion(w, 0), *bx = clab_world_motion(w, 1), *pl = clab_world_motion(w, 3);
    tap_ok(w->ndriven == 3 && fl && bx && pl && !clab_world_motion(w, 2), "three driven bodies, the ball not");
    tap_ok(fl && fl->m.kind == CLAB_MOTION_CONSTANT && w->bodies[0].rdot.x == 0.1 &&
               clab_body_omega_world(&w->bodies[0]).z == 0.2,
           "floor: constant motion, its velocity set");
    tap_ok(bx && bx->m.kind == CLAB_MOTION_TABLE && bx->m.nrows == 3 && bx->m.table[7 * 1 + 1] == 0.5 &&
               w->bodies[1].fixed && w->bodies[1].rdot.x == 0.0,
           "box: a table of 3 rows, fixed, at rest at t = 0 (the first row)");
    tap_ok(pl && pl->m.kind == CLAB_MOTION_SERVO && pl->m.servo.axis.z == -1.0 && pl->m.servo.stress == 1000.0 &&
               pl->m.servo.area == 0.16 && pl->m.servo.gain == 1e-4 && pl->m.servo.vmax == 0.05,
           "plate: a servo, axis normalized");
    tap_ok(w->loads && w->loads[2].F.z == -2.0 && w->loads[2].T.y == 0.001 && w->loads[0].F.z == 0.0,
           "ball: its force and torque");
    clab_scene_free(&sc);
}

/* a body list (one body group, or more) refused with a message holding want */
static void refused(const char *bodies, const char *want, const char *what)
{
    char text[4096];
    snprintf(text, sizeof text, "bodies = (\n%s\n);\nsimulation = { backend = \"penalty\"; h = 1e-4; t_end = 0.1; };\n",
             bodies);
    clab_scene sc;
    clab_error err;
    clab_scene_init(&sc);
    int rc = clab_scene_load_string(text, "bad.cfg", &sc, &err);
    tap_ok(rc == CLAB_EINVAL && strstr(err.msg, want) && strstr(err.msg, "bad.cfg:"), "refused: %s (%s)", what,
           rc ? err.msg : "loaded");
    clab_scene_free(&sc);
}

static void bad_blocks(void)
{
    const char *plate = "{ name = \"w\"; shape = \"box\"; half = [1.0, 1.0, 0.1]; ";
    char b[1024];
    snprintf(b, sizeof b, "%s motion = { table = ( [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0] ); }; }", plate);
    refused(b, "does not increase", "motion table whose t does not increase");
    snprintf(b, sizeof b, "%s motion = { table = ( [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0, 0.0, 0.0] ); }; }", plate);
    refused(b, "table[1]", "a table row of six numbers");
    snprintf(b, sizeof b, "%s motion = { table = ( [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0] ); velocity = [1.0, 0.0, 0.0]; }; }", plate);
    refused(b, "both table and velocity", "a table and a velocity");
    snprintf(b, sizeof b, "%s motion = { table = (); }; }", plate);
    refused(b, "no rows", "an empty table");
    snprintf(b, sizeof b,
             "%s motion = { velocity = [1.0, 0.0, 0.0]; }; servo = { axis = [0.0, 0.0, -1.0]; stress = 1.0; "
             "area = 1.0; gain = 1.0; vmax = 1.0; }; }",
             plate);
    refused(b, "both motion and servo", "motion and servo together");
    snprintf(b, sizeof b, "%s servo = { axis = [0.0, 0.0, -1.0]; stress = 1.0; gain = 1.0; vmax = 1.0; }; }", plate);
    refused(b, "servo.area", "a servo without area");
    snprintf(b, sizeof b, "%s servo = { axis = [0.0, 0.0, -1.0]; stress = 1.0; area = 1.0; gain = 0.0; vmax = 1.0; }; }",
             plate);
    refused(b, "servo.gain", "a servo gain of 0");
    snprintf(b, sizeof b, "%s servo = { axis = [0.0, 0.0, 0.0]; stress = 1.0; area = 1.0; gain = 1.0; vmax = 1.0; }; }",
             plate);
    refused(b, "servo.axis", "a zero servo axis");
    refused("{ name = \"p\"; shape = \"plane\"; fixed = true; force = [0.0, 0.0, 1.0]; }", "on a fixed or driven body",
            "a force on a fixed body");
    snprintf(b, sizeof b, "%s mass = 1.0; fixed = false; motion = { velocity = [1.0, 0.0, 0.0]; }; }", plate);
    refused(b, "fixed = false with a motion", "fixed = false with a motion");
    snprintf(b, sizeof b, "%s motion = { speed = [1.0, 0.0, 0.0]; }; }", plate);
    refused(b, "speed", "an unknown key in a motion");
    snprintf(b, sizeof b, "%s motion = [1.0, 0.0, 0.0]; }", plate);
    refused(b, "motion: wrong type", "a motion that is not a group");
    snprintf(b, sizeof b, "%s velocity = [1.0, 0.0, 0.0]; motion = { velocity = [1.0, 0.0, 0.0]; }; }", plate);
    refused(b, "a fixed body has velocity", "a driven body's velocity outside its motion");
}

/* the round-trip scene: a floor belt, a sphere, a servo plate on it, a box on a table */
static const char *ckpt_scene =
    "gravity = [0.0, 0.0, -9.81];\n"
    "materials = ( { name = \"grain\"; mu = 0.4; E = 1e7; cor = 0.5; } );\n"
    "bodies = (\n"
    "  { name = \"belt\"; shape = \"plane\"; material = \"grain\"; motion = { velocity = [0.1, 0.0, 0.0]; }; },\n"
    "  { name = \"ball\"; shape = \"sphere\"; radius = 0.05; density = 1000.0; position = [0.0, 0.0, 0.0499];\n"
    "    material = \"grain\"; force = [0.5, 0.0, 0.0]; },\n"
    "  { name = \"plate\"; shape = \"box\"; half = [0.2, 0.2, 0.01]; position = [0.0, 0.0, 0.1105];\n"
    "    material = \"grain\";\n"
    "    servo = { axis = [0.0, 0.0, -1.0]; stress = 200.0; area = 0.16; gain = 2e-5; vmax = 0.02; }; },\n"
    "  { name = \"box\"; shape = \"box\"; half = [0.05, 0.05, 0.05]; position = [0.5, 0.0, 0.0495];\n"
    "    material = \"grain\";\n"
    "    motion = { table = ( [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.003, -0.2, 0.0, 0.0, 0.0, 0.0, 3.0] ); }; }\n"
    ");\n"
    "simulation = { backend = \"%s\"; h = %s; t_end = 0.01; };\n";

/* a sim of the round-trip scene; the world in *sc */
static clab_sim *ckpt_sim(const char *backend, const char *h, clab_scene *sc)
{
    char text[4096];
    snprintf(text, sizeof text, ckpt_scene, backend, h);
    clab_error err;
    clab_scene_init(sc);
    if (clab_scene_load_string(text, "ckpt.cfg", sc, &err)) {
        tap_diag("%s", err.msg);
        return NULL;
    }
    clab_sim *s = clab_sim_create(sc->world, sc->backend, sc->h, &sc->options, &err);
    if (!s) tap_diag("%s", err.msg);
    return s;
}

/* n steps; at step 10 the driver sets the belt's velocity */
static int steps(clab_sim *s, int n)
{
    clab_error err;
    for (int k = 0; k < n; k++) {
        if (s->world->step == 10 && clab_sim_set_body_velocity(s, 0, clab_v3(-0.05, 0.02, 0.0), clab_v3(0, 0, 0), &err))
            return tap_diag("%s", err.msg), 1;
        if (clab_sim_step(s, &err)) return tap_diag("%s", err.msg), 1;
    }
    return 0;
}

static int same_bodies(const clab_world *a, const clab_world *b)
{
    if (a->nbodies != b->nbodies) return 0;
    for (size_t i = 0; i < a->nbodies; i++) {
        const clab_body *p = &a->bodies[i], *q = &b->bodies[i];
        if (memcmp(&p->r, &q->r, sizeof p->r) || memcmp(&p->e, &q->e, sizeof p->e) ||
            memcmp(&p->rdot, &q->rdot, sizeof p->rdot) || memcmp(&p->wbar, &q->wbar, sizeof p->wbar))
            return 0;
    }
    return 1;
}

static void round_trip(const char *backend, const char *h, int N)
{
    char path[64];
    snprintf(path, sizeof path, "test_driven_io_%s_%d.ckpt", backend, (int)getpid());
    clab_scene sa, sb, sc2;
    clab_sim *a = ckpt_sim(backend, h, &sa), *b = ckpt_sim(backend, h, &sb);
    clab_error err;
    if (!a || !b || steps(a, 2 * N) || steps(b, N)) goto done;
    if (clab_checkpoint_write(b, NULL, path, &err)) {
        tap_diag("%s", err.msg);
        goto done;
    }
    clab_sim *c = ckpt_sim(backend, h, &sc2);
    clab_checkpoint_info info;
    int rc = c ? clab_checkpoint_read(c, path, &info, &err) : -1;
    if (rc) tap_diag("restore: %s", rc > 0 ? err.msg : "no sim");
    if (!rc && !steps(c, N))
        tap_ok(same_bodies(a->world, c->world) && a->world->bodies[2].rdot.z != 0.0,
               "%s: %d steps, a checkpoint, a restart and %d more = %d steps in one go, every body the same bits "
               "(the servo plate moving at %.3g m/s)",
               backend, N, N, 2 * N, a->world->bodies[2].rdot.z);
    else
        tap_ok(0, "%s: round trip ran", backend);
    clab_sim_destroy(c);
    clab_scene_free(&sc2);
    /* another table: another scene */
    char text[4096];
    snprintf(text, sizeof text, ckpt_scene, backend, h);
    char *t = strstr(text, "[0.003, -0.2");
    if (t) t[9] = '3'; /* -0.2 -> -0.3 */
    clab_scene sd;
    clab_scene_init(&sd);
    if (!clab_scene_load_string(text, "other.cfg", &sd, &err)) {
        clab_sim *d = clab_sim_create(sd.world, sd.backend, sd.h, &sd.options, &err);
        rc = d ? clab_checkpoint_read(d, path, &info, &err) : CLAB_OK;
        tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "scene"), "%s: a scene with another motion table is refused (%s)",
               backend, rc ? err.msg : "read");
        clab_sim_destroy(d);
    }
    clab_scene_free(&sd);
done:
    unlink(path);
    clab_sim_destroy(a);
    clab_sim_destroy(b);
    clab_scene_free(&sa);
    clab_scene_free(&sb);
}

int main(void)
{
    build_good();
    bad_blocks();
    round_trip("penalty", "1e-5", 400);
    round_trip("dvi", "1e-4", 40);
    return tap_done();
}
