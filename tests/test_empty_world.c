/* test_empty_world: worlds with nothing to do step cleanly under both backends and both
 * paths (fast=off, fast=on): no bodies at all, only fixed bodies (a plane and a fixed
 * sphere), and free bodies without contacts (a sphere in free fall, far from anything).
 * Each runs create, prepare, ten steps, the forces, the metadata and a checkpoint round trip
 * (clab_checkpoint_write/read) and must end with t = 10 h and the free sphere's free-fall
 * state. Run it under the sanitizer build (scripts/check.sh --sanitizers) or valgrind: an
 * empty array passed on as a NULL pointer (memcpy, qsort, a row pointer) is the fault this
 * guards against; in the plain build, the penalty fast path on two threads with no bodies
 * wrote through a NULL row pointer. Expected values: t = 10 h exactly (the step adds h ten
 * times to t = 0; compared to the same sum); a free sphere's v_z = -g t (symplectic Euler,
 * the DVI step) or -g (t - h/2) (velocity Verlet keeps the half-step velocity), to 1e-12 m/s
 * (exact in exact arithmetic; the tolerance covers ten additions). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clab_checkpoint.h"
#include "clab_sim.h"
#include "tap.h"

static const double g = 9.81;

enum scene { EMPTY, FIXED_ONLY, NO_CONTACTS };
static const char *const scene_name[] = {"no bodies", "only fixed bodies", "free bodies without contacts"};

static clab_world *make_world(enum scene sc)
{
    clab_world *w = clab_world_create(NULL);
    clab_body_def d = clab_default_body_def();
    if (sc == FIXED_ONLY) {
        d.shape = clab_plane();
        d.fixed = 1;
        clab_world_add_body(w, &d, NULL);
        d.shape = clab_sphere(0.1);
        d.r = clab_v3(0, 0, 0.05); /* overlaps the plane: fixed pairs are never contacts */
        clab_world_add_body(w, &d, NULL);
    } else if (sc == NO_CONTACTS) {
        d.shape = clab_sphere(0.1);
        d.density = 1000.0;
        d.r = clab_v3(0, 0, 10.0);
        clab_world_add_body(w, &d, NULL);
        d.r = clab_v3(5.0, 0, 10.0);
        clab_world_add_body(w, &d, NULL);
    }
    return w;
}

/* opts: space-separated "k=v" options */
static void run(const char *backend, const char *opts, enum scene sc)
{
    const double h = 1e-3;
    clab_world *w = make_world(sc);
    clab_options o;
    clab_options_init(&o);
    clab_error err;
    clab_error_clear(&err);
    char kv[160];
    snprintf(kv, sizeof kv, "%s", opts);
    for (char *tok = strtok(kv, " "); tok; tok = strtok(NULL, " ")) clab_options_parse(&o, tok, "test", &err);
    char what[200];
    snprintf(what, sizeof what, "%s %s, %s", backend, opts, scene_name[sc]);
    clab_sim *s = clab_sim_create(w, backend, h, &o, &err);
    clab_options_free(&o);
    if (!tap_ok(s != NULL, "%s: created (%s)", what, s ? "ok" : err.msg)) {
        clab_world_destroy(w);
        return;
    }
    int rc = clab_sim_prepare(s, &err);
    double t = 0.0;
    for (int k = 0; k < 10 && !rc; k++) {
        rc = clab_sim_step(s, &err);
        t += h;
    }
    tap_ok(rc == CLAB_OK, "%s: prepare and 10 steps (%s)", what, rc ? err.msg : "ok");
    tap_ok(w->t == t && w->step == 10, "%s: t = %.17g s after 10 steps (want %.17g), step %ld", what, w->t, t,
           (long)w->step);
    tap_ok(s->contacts.n == 0, "%s: no contacts (%zu)", what, s->contacts.n);
    clab_vec3 f_none[1];
    clab_sim_forces(s, f_none); /* no contacts: nothing written */
    if (sc == NO_CONTACTS) { /* velocity Verlet keeps the half-step velocity v(l+1/2) */
        const int half = strstr(opts, "verlet") != NULL;
        tap_close(w->bodies[0].rdot.z, -g * (half ? t - h / 2 : t), 1e-12,
                  half ? "free sphere: v_z = -g (t - h/2) [m/s]" : "free sphere: v_z = -g t [m/s]");
    }

    clab_options m;
    clab_options_init(&m);
    clab_sim_meta(s, &m);
    tap_ok(m.n > 0, "%s: metadata written (%zu keys)", what, m.n);
    clab_options_free(&m);

    /* a checkpoint of this state reads back into a fresh sim of the same world */
    char path[] = "/tmp/clab_empty_XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) close(fd);
    rc = fd < 0 ? CLAB_EIO : clab_checkpoint_write(s, NULL, path, &err);
    if (!rc) rc = clab_checkpoint_read(s, path, NULL, &err);
    tap_ok(rc == CLAB_OK && w->step == 10, "%s: checkpoint written and read back (%s)", what, rc ? err.msg : "ok");
    if (fd >= 0) unlink(path);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

int main(void)
{
    /* both paths of each backend, and the variants with their own arrays */
    static const struct {
        const char *backend, *opts;
    } runs[] = {
        {"penalty", "fast=off"},
        {"penalty", "fast=on"},
        {"penalty", "fast=off model=hertz rolling=cdt integrator=verlet"},
        {"penalty", "fast=on model=hertz rolling=cdt integrator=verlet"},
        {"penalty", "fast=on sort=1"},
        {"dvi", "fast=off"},
        {"dvi", "fast=on"},
        {"dvi", "fast=on friction=exact"},
        {"dvi", "fast=off compliance=1e-8 warm_start=off"},
        {"dvi", "fast=on solver=apgd sort=1"},
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
        for (int sc = EMPTY; sc <= NO_CONTACTS; sc++) run(runs[r].backend, runs[r].opts, (enum scene)sc);
    return tap_done();
}
