/* scene.c: scene files (libconfig) -> a checked clab_world plus simulation settings.
 * The format is documented in doc/scene-format.md. Loading runs in two passes: read and
 * check every field of the file, collecting every problem; then, only when there was
 * none, build the world through the ordinary clab_world_add_* calls. */
#include "clab_scene.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_backend.h"
#include "scene_internal.h"

/* largest scene file read [bytes] */
#define SCENE_MAX_BYTES (64L * 1024 * 1024)

static void src_free(scene_src *s)
{
    for (int i = 0; s->body && i < s->nbody; i++) free(s->body[i].table);
    free(s->mat);
    free(s->mat_line);
    free(s->body);
    free(s->joint);
}

/* ---- materials ---- */

static void read_materials(clab_scene_ctx *c, const config_setting_t *root, scene_src *src)
{
    static const char *const keys[] = {"name", "mu", "mu_roll", "E", "nu", "cor", "kn", "kt", "gn", "gt", NULL};
    const config_setting_t *list = clab_scene_get_list(c, root, "materials", 0);
    if (!list) return;
    int n = config_setting_length(list);
    src->mat = calloc((size_t)n + 1, sizeof *src->mat);
    src->mat_line = calloc((size_t)n + 1, sizeof *src->mat_line);
    if (!src->mat || !src->mat_line) {
        clab_scene_fail(c, 0, "out of memory reading %d materials", n);
        return;
    }
    for (int i = 0; i < n; i++) {
        const config_setting_t *g = clab_scene_get_group_elem(c, list, "materials", i);
        if (!g) continue;
        char path[48];
        snprintf(path, sizeof path, "materials[%d]", i);
        clab_scene_check_keys(c, g, path, keys);
        clab_material m = clab_default_material();
        m.name[0] = '\0';
        if (clab_scene_string(c, g, path, "name", 1, m.name, sizeof m.name) == 0)
            clab_scene_missing(c, g, path, "name", "a name, e.g. name = \"steel\";");
        clab_scene_number(c, g, path, "mu", clab_scene_make_range(0, 0, INFINITY, 0, ""), &m.mu);
        clab_scene_number(c, g, path, "mu_roll", clab_scene_make_range(0, 0, INFINITY, 0, "m"), &m.mu_roll);
        clab_scene_number(c, g, path, "E", clab_scene_make_range(0, 1, INFINITY, 0, "Pa"), &m.E);
        clab_scene_number(c, g, path, "nu", clab_scene_make_range(-1, 1, 0.5, 1, ""), &m.nu);
        clab_scene_number(c, g, path, "cor", clab_scene_make_range(0, 1, 1, 0, ""), &m.cor);
        clab_scene_number(c, g, path, "kn", clab_scene_make_range(0, 0, INFINITY, 0, "N/m or N/m^1.5, 0 = derive from E"), &m.kn);
        clab_scene_number(c, g, path, "kt", clab_scene_make_range(0, 0, INFINITY, 0, "N/m or N/m^1.5, 0 = derive from E"), &m.kt);
        clab_scene_number(c, g, path, "gn", clab_scene_make_range(0, 0, INFINITY, 0, "1/s, 0 = derive from cor"), &m.gn);
        clab_scene_number(c, g, path, "gt", clab_scene_make_range(0, 0, INFINITY, 0, "1/s, 0 = derive from cor"), &m.gt);
        /* duplicate names */
        for (int k = 0; k < src->nmat && m.name[0]; k++)
            if (strcmp(src->mat[k].name, m.name) == 0) {
                clab_scene_fail(c, clab_scene_line(g), "%s.name = \"%s\": duplicate name; first defined at %s:%u; allowed: a "
                           "name used by no other material", path, m.name, c->file, src->mat_line[k]);
                break;
            }
        src->mat_line[src->nmat] = clab_scene_line(g);
        src->mat[src->nmat++] = m;
    }
}

/* ---- bodies ---- */

/* "body<k>" is the name the world gives an unnamed body k: other bodies may not take it */
static int generated_name_index(const char *name)
{
    if (strncmp(name, "body", 4) != 0 || !name[4]) return -1;
    long k = 0;
    for (const char *p = name + 4; *p; p++) {
        if (*p < '0' || *p > '9' || k > 100000000) return -1;
        k = 10 * k + (*p - '0');
    }
    return (int)k;
}

static void read_body(clab_scene_ctx *c, const config_setting_t *g, int i, body_src *b)
{
    static const char *const keys[] = {"name", "shape", "radius", "half", "mass", "density", "position",
                                       "orientation", "axis", "angle_deg", "velocity", "omega", "fixed",
                                       "material", "motion", "servo", "force", "torque", NULL};
    char path[48], sh[16] = "";
    snprintf(path, sizeof path, "bodies[%d]", i);
    clab_scene_check_keys(c, g, path, keys);
    b->def = clab_default_body_def();
    b->line = clab_scene_line(g);
    snprintf(b->material, sizeof b->material, "default");

    clab_scene_string(c, g, path, "name", 1, b->def.name, sizeof b->def.name);

    /* shape and its size */
    int shape = -1;
    int got = clab_scene_string(c, g, path, "shape", 0, sh, sizeof sh);
    if (got == 0) clab_scene_missing(c, g, path, "shape", "shape = \"sphere\", \"plane\" or \"box\"");
    if (got == 1 && (shape = clab_shape_from_name(sh)) < 0)
        clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "shape")),
                   "%s.shape = \"%s\": unknown shape; allowed: \"sphere\", \"plane\" or \"box\"", path, sh);
    double radius = 0.0;
    clab_vec3 half = clab_v3(0, 0, 0);
    int has_radius = clab_scene_number(c, g, path, "radius", clab_scene_make_range(0, 1, INFINITY, 0, "m"), &radius);
    int has_half = 0;
    if (clab_scene_vec3(c, g, path, "half", "m", &half) == 1) {
        has_half = 1;
        if (!(half.x > 0 && half.y > 0 && half.z > 0)) {
            char value[160];
            clab_scene_value_text(config_setting_get_member(g, "half"), value, sizeof value);
            clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "half")),
                       "%s.half = %s: out of range; allowed: three half extents > 0 [m]", path, value);
            has_half = -1;
        }
    } else if (config_setting_get_member(g, "half")) {
        has_half = -1;
    }
    if (shape == CLAB_SHAPE_SPHERE) {
        if (has_radius == 0) clab_scene_missing(c, g, path, "radius", "radius > 0 [m] for a sphere");
        if (has_half) clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "half")),
                                 "%s.half: not used by a sphere; allowed: radius", path);
        b->def.shape = clab_sphere(radius > 0 ? radius : 1.0);
    } else if (shape == CLAB_SHAPE_BOX) {
        if (has_half == 0) clab_scene_missing(c, g, path, "half", "half = [hx, hy, hz], half extents > 0 [m] for a box");
        if (has_radius) clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "radius")),
                                   "%s.radius: not used by a box; allowed: half = [hx, hy, hz]", path);
        b->def.shape = has_half == 1 ? clab_box(half.x, half.y, half.z) : clab_box(1, 1, 1);
    } else if (shape == CLAB_SHAPE_PLANE) {
        const char *unused[] = {"radius", "half", "mass", "density"};
        for (int k = 0; k < 4; k++) {
            const config_setting_t *s = config_setting_get_member(g, unused[k]);
            if (!s) continue;
            char value[160];
            clab_scene_value_text(s, value, sizeof value);
            clab_scene_fail(c, clab_scene_line(s), "%s.%s = %s: not used by a plane (a fixed half-space); allowed: name, "
                       "shape, position, orientation or axis and angle_deg, fixed = true, material", path, unused[k],
                       value);
        }
        b->def.shape = clab_plane();
    }

    /* mass or density */
    double mass = 0.0, density = 0.0;
    int has_m = clab_scene_number(c, g, path, "mass", clab_scene_make_range(0, 1, INFINITY, 0, "kg"), &mass);
    int has_d = clab_scene_number(c, g, path, "density", clab_scene_make_range(0, 1, INFINITY, 0, "kg/m^3"), &density);
    if (has_m && has_d)
        clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "density")),
                   "%s: both mass and density given; allowed: one of them", path);
    if (has_m == 1) b->def.mass = mass;
    if (has_d == 1) b->def.density = density;
    b->has_mass = has_m || has_d;

    /* state */
    clab_scene_vec3(c, g, path, "position", "m", &b->def.r);
    clab_scene_vec3(c, g, path, "velocity", "m/s", &b->def.rdot);
    clab_scene_vec3(c, g, path, "omega", "rad/s, world frame", &b->def.omega);
    clab_scene_bool(c, g, path, "fixed", &b->def.fixed);

    /* orientation: Euler parameters, or an axis and an angle */
    const config_setting_t *so = config_setting_get_member(g, "orientation");
    const config_setting_t *sa = config_setting_get_member(g, "axis");
    const config_setting_t *sd = config_setting_get_member(g, "angle_deg");
    if (so && (sa || sd))
        clab_scene_fail(c, clab_scene_line(so), "%s: both orientation and axis/angle_deg given; allowed: one of them", path);
    if (so) {
        char value[200];
        clab_scene_value_text(so, value, sizeof value);
        double e[4];
        int ok = (config_setting_type(so) == CONFIG_TYPE_ARRAY || config_setting_type(so) == CONFIG_TYPE_LIST) &&
                 config_setting_length(so) == 4;
        for (int k = 0; ok && k < 4; k++) {
            const config_setting_t *ek = config_setting_get_elem(so, (unsigned)k);
            int t = config_setting_type(ek);
            ok = t == CONFIG_TYPE_FLOAT || t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
            if (ok) e[k] = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(ek)
                                                  : (double)config_setting_get_int64(ek);
        }
        double norm = ok ? sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3]) : 0.0;
        if (!ok)
            clab_scene_fail(c, clab_scene_line(so), "%s.orientation = %s: wrong type or length (%s); allowed: four Euler "
                       "parameters [e0, e1, e2, e3]", path, value, clab_scene_type_text(so));
        else if (!(isfinite(norm) && norm > 0.0))
            clab_scene_fail(c, clab_scene_line(so), "%s.orientation = %s: out of range; allowed: finite Euler parameters, "
                       "not all zero (normalized on loading)", path, value);
        else
            b->def.e = clab_q(e[0], e[1], e[2], e[3]);
    }
    if (sa || sd) {
        clab_vec3 axis = clab_v3(0, 0, 1);
        double deg = 0.0;
        int ga = clab_scene_vec3(c, g, path, "axis", "direction, any length", &axis);
        int gd = clab_scene_number(c, g, path, "angle_deg", clab_scene_make_range(-INFINITY, 0, INFINITY, 0, "deg"), &deg);
        if (ga == 0) clab_scene_missing(c, g, path, "axis", "axis = [x, y, z] (not zero) together with angle_deg");
        if (gd == 0) clab_scene_missing(c, g, path, "angle_deg", "angle_deg [degrees] together with axis");
        if (ga == 1 && !(clab_v3_norm(axis) > 0.0)) {
            clab_scene_fail(c, clab_scene_line(sa), "%s.axis = [0, 0, 0]: out of range; allowed: a non-zero vector", path);
            ga = -1;
        }
        if (ga == 1 && gd == 1 && !so) b->def.e = clab_q_axis_angle(axis, deg * M_PI / 180.0);
    }

    /* material */
    if (clab_scene_string(c, g, path, "material", 1, b->material, sizeof b->material) == 1)
        b->material_line = clab_scene_line(config_setting_get_member(g, "material"));
    else
        b->material_line = b->line;

    /* driven (motion, servo) and loaded (force, torque): scene_motion.c */
    clab_scene_read_drive(c, g, path, b);

    /* rules across fields */
    if (shape == CLAB_SHAPE_PLANE && !b->def.fixed)
        clab_scene_fail(c, b->line, "%s: a plane that is not fixed; allowed: fixed = true for a plane", path);
    if (shape >= 0 && shape != CLAB_SHAPE_PLANE && !b->def.fixed && !b->has_mass)
        clab_scene_missing(c, g, path, "mass", "mass [kg] or density [kg/m^3] > 0 for a body that is not fixed");
    if (b->def.fixed && (clab_v3_norm(b->def.rdot) > 0.0 || clab_v3_norm(b->def.omega) > 0.0))
        clab_scene_fail(c, b->line, "%s: a fixed body has velocity or omega; allowed: fixed bodies do not move (leave "
                   "velocity and omega out; a driven body's go in its motion = { ... })", path);
}

static void read_bodies(clab_scene_ctx *c, const config_setting_t *root, scene_src *src)
{
    const config_setting_t *list = clab_scene_get_list(c, root, "bodies", !src->lammps.on); /* optional with lammps_data */
    if (!list) return;
    int n = config_setting_length(list);
    if (n == 0 && !src->lammps.on) {
        clab_scene_fail(c, clab_scene_line(list), "bodies = (): empty; allowed: at least one body");
        return;
    }
    src->body = calloc((size_t)n, sizeof *src->body);
    if (!src->body) {
        clab_scene_fail(c, 0, "out of memory reading %d bodies", n);
        return;
    }
    for (int i = 0; i < n; i++) {
        const config_setting_t *g = clab_scene_get_group_elem(c, list, "bodies", i);
        body_src *b = &src->body[src->nbody];
        if (!g) continue;
        read_body(c, g, i, b);
        /* names: unique, and not the generated name of another body */
        if (!b->def.name[0]) snprintf(b->def.name, sizeof b->def.name, "body%d", src->nbody);
        int gi = generated_name_index(b->def.name);
        if (gi >= 0 && gi != src->nbody)
            clab_scene_fail(c, b->line, "bodies[%d].name = \"%s\": reserved; allowed: a name other than body<N> (body%d is "
                       "the name of the unnamed body number %d)", i, b->def.name, gi, gi);
        for (int k = 0; k < src->nbody; k++)
            if (strcmp(src->body[k].def.name, b->def.name) == 0) {
                clab_scene_fail(c, b->line, "bodies[%d].name = \"%s\": duplicate name; first defined at %s:%u; allowed: "
                           "a name used by no other body", i, b->def.name, c->file, src->body[k].line);
                break;
            }
        /* the material must exist */
        int found = strcmp(b->material, "default") == 0;
        for (int k = 0; k < src->nmat && !found; k++) found = strcmp(src->mat[k].name, b->material) == 0;
        if (!found) {
            char list_names[300] = "default";
            size_t used = strlen(list_names);
            for (int k = 0; k < src->nmat && used < sizeof list_names; k++)
                used += (size_t)snprintf(list_names + used, sizeof list_names - used, ", %s", src->mat[k].name);
            clab_scene_fail(c, b->material_line, "bodies[%d].material = \"%s\": unknown material; allowed: %s", i,
                       b->material, list_names);
        }
        src->nbody++;
    }
}

/* ---- joints ---- */

static void read_options(clab_scene_ctx *c, const config_setting_t *g, clab_options *opt)
{
    int n = config_setting_length(g);
    for (int i = 0; i < n; i++) {
        const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
        const char *key = config_setting_name(s);
        char val[CLAB_OPT_LEN], where[CLAB_OPT_LEN];
        switch (config_setting_type(s)) {
        case CONFIG_TYPE_INT: snprintf(val, sizeof val, "%d", config_setting_get_int(s)); break;
        case CONFIG_TYPE_INT64: snprintf(val, sizeof val, "%lld", config_setting_get_int64(s)); break;
        case CONFIG_TYPE_BOOL: snprintf(val, sizeof val, "%d", config_setting_get_bool(s) ? 1 : 0); break;
        case CONFIG_TYPE_FLOAT: {
            double v = config_setting_get_float(s);
            if (!isfinite(v)) {
                clab_scene_fail(c, clab_scene_line(s), "simulation.options.%s = %g: not a finite number; allowed: a finite "
                           "number", key, v);
                continue;
            }
            clab_scene_double_text(v, val, sizeof val);
            break;
        }
        case CONFIG_TYPE_STRING: {
            const char *v = config_setting_get_string(s);
            if (strlen(v) >= sizeof val) {
                clab_scene_fail(c, clab_scene_line(s), "simulation.options.%s = \"%.40s...\": too long; allowed: at most %zu "
                           "characters", key, v, sizeof val - 1);
                continue;
            }
            snprintf(val, sizeof val, "%s", v);
            break;
        }
        default: {
            char value[160];
            clab_scene_value_text(s, value, sizeof value);
            clab_scene_fail(c, clab_scene_line(s), "simulation.options.%s = %s: wrong type (%s); allowed: a number, string or "
                       "boolean", key, value, clab_scene_type_text(s));
            continue;
        }
        }
        if (strlen(key) >= CLAB_OPT_LEN) {
            clab_scene_fail(c, clab_scene_line(s), "simulation.options.%.40s...: key too long; allowed: at most %d characters",
                       key, CLAB_OPT_LEN - 1);
            continue;
        }
        snprintf(where, sizeof where, "%.100s:%u", c->file, clab_scene_line(s));
        if (clab_options_set(opt, key, val, where)) clab_scene_fail(c, 0, "out of memory reading simulation.options");
    }
}

static void read_simulation(clab_scene_ctx *c, const config_setting_t *root, clab_scene *sc)
{
    static const char *const keys[] = {"backend", "h", "t_end", "output_every", "options", NULL};
    const char *path = "simulation";
    const config_setting_t *g = config_setting_get_member(root, path);
    if (!g) {
        clab_scene_fail(c, 0, "simulation: missing required group; allowed: simulation = { backend = \"dvi\"; h = 1e-3; "
                   "t_end = 1.0; };");
        return;
    }
    if (config_setting_type(g) != CONFIG_TYPE_GROUP) {
        char value[160];
        clab_scene_value_text(g, value, sizeof value);
        clab_scene_fail(c, clab_scene_line(g), "simulation = %s: wrong type (%s); allowed: a group { ... }", value,
                   clab_scene_type_text(g));
        return;
    }
    clab_scene_check_keys(c, g, path, keys);
    int got = clab_scene_string(c, g, path, "backend", 1, sc->backend, sizeof sc->backend);
    if (got == 0) clab_scene_missing(c, g, path, "backend", "backend = \"penalty\" or \"dvi\"");
    /* the backend must be one the library has (a library built without any backend, as
     * during development, leaves the check to clab_sim_create) */
    const clab_backend_type *const *all = clab_backend_all();
    if (got == 1 && all[0] && !clab_backend_lookup(sc->backend)) {
        char names[200] = "";
        size_t used = 0;
        for (int k = 0; all[k] && used < sizeof names; k++)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s\"%s\"", k ? ", " : "", all[k]->name);
        clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "backend")),
                   "simulation.backend = \"%s\": unknown backend; allowed: %s", sc->backend, names);
    }
    if (clab_scene_number(c, g, path, "h", clab_scene_make_range(0, 1, INFINITY, 0, "s"), &sc->h) == 0)
        clab_scene_missing(c, g, path, "h", "the time step h > 0 [s]");
    int gt = clab_scene_number(c, g, path, "t_end", clab_scene_make_range(0, 1, INFINITY, 0, "s"), &sc->t_end);
    if (gt == 0) clab_scene_missing(c, g, path, "t_end", "the end time t_end > 0 [s]");
    if (gt == 1 && sc->h > 0.0 && sc->t_end < sc->h)
        clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "t_end")),
                   "simulation.t_end = %g: shorter than one step; allowed: t_end >= h = %g [s]", sc->t_end, sc->h);
    clab_scene_long(c, g, path, "output_every", 1, 1000000000L, &sc->output_every);
    const config_setting_t *o = config_setting_get_member(g, "options");
    if (o && config_setting_type(o) != CONFIG_TYPE_GROUP) {
        char value[160];
        clab_scene_value_text(o, value, sizeof value);
        clab_scene_fail(c, clab_scene_line(o), "simulation.options = %s: wrong type (%s); allowed: a group { key = value; ... }",
                   value, clab_scene_type_text(o));
    } else if (o) {
        read_options(c, o, &sc->options);
    }
}

/* ---- building the world ---- */

static int build_world(clab_scene_ctx *c, const scene_src *src, clab_scene *sc)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = src->gravity;
    clab_world *w = clab_world_create(&wd);
    if (!w) return clab_error_set(c->err, CLAB_ENOMEM, "%s: out of memory creating the world", c->file);
    clab_error e;
    clab_error_clear(&e);
    for (int k = 0; k < 3; k++)
        if (src->periodic.on[k] && clab_world_set_periodic(w, k, src->periodic.lo[k], src->periodic.hi[k], &e)) goto fail;
    /* a material called "default" replaces the built-in one: add it first */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < src->nmat; k++) {
            int is_default = strcmp(src->mat[k].name, "default") == 0;
            if (is_default != (pass == 0)) continue;
            if (clab_world_add_material(w, &src->mat[k], &e) < 0) goto fail;
        }
    for (int i = 0; i < src->nbody; i++) {
        clab_body_def d = src->body[i].def;
        d.material = clab_world_find_material(w, src->body[i].material);
        int k = clab_world_add_body(w, &d, &e);
        if (k < 0 || clab_scene_build_drive(w, (size_t)k, &src->body[i], &e)) goto fail;
    }
    if (src->lammps.on && clab_scene_lammps_build(c, &src->lammps, w)) {
        clab_world_destroy(w);
        return CLAB_EINVAL;
    }
    for (int k = 0; k < src->njoint; k++) {
        const joint_src *js = &src->joint[k];
        clab_joint j;
        memset(&j, 0, sizeof j);
        j.type = js->type;
        j.a = clab_world_find_body(w, js->body_a);
        j.b = clab_world_find_body(w, js->body_b);
        /* body-frame attachment points: sbar = A(e)^T (p - r) */
        const clab_body *ba = &w->bodies[j.a], *bb = &w->bodies[j.b];
        j.sa = clab_q_rotate_inv(ba->e, clab_v3_sub(js->pa, ba->r));
        j.sb = clab_q_rotate_inv(bb->e, clab_v3_sub(js->pb, bb->r));
        j.length = js->length;
        if (clab_world_add_joint(w, &j, &e) < 0) goto fail;
    }
    sc->world = w;
    return CLAB_OK;
fail:
    clab_world_destroy(w);
    return clab_error_append(c->err, e.status ? e.status : CLAB_EINVAL, "%s: %s", c->file, e.msg);
}

/* ---- entry points ---- */

void clab_scene_init(clab_scene *sc)
{
    memset(sc, 0, sizeof *sc);
    clab_options_init(&sc->options);
    sc->output_every = 1;
}

void clab_scene_free(clab_scene *sc)
{
    clab_world_destroy(sc->world);
    clab_options_free(&sc->options);
    clab_scene_init(sc);
}

/* check and build from the parsed configuration */
static int load_config(clab_scene_ctx *c, config_t *cfg, clab_scene *sc)
{
    static const char *const keys[] = {"description", "gravity", "materials", "bodies", "joints", "simulation",
                                       "periodic", "lammps_data", NULL};
    const config_setting_t *root = config_root_setting(cfg);
    scene_src src;
    memset(&src, 0, sizeof src);
    src.gravity = clab_default_world_def().gravity;

    clab_scene_check_keys(c, root, "", keys);
    clab_scene_string(c, root, "", "description", 0, sc->description, sizeof sc->description);
    clab_scene_vec3(c, root, "", "gravity", "m/s^2", &src.gravity);
    clab_scene_periodic(c, root, &src.periodic);
    clab_scene_lammps_read(c, root, &src.lammps);
    read_materials(c, root, &src);
    read_bodies(c, root, &src);
    clab_scene_read_joints(c, root, &src);
    read_simulation(c, root, sc);

    int status = CLAB_OK;
    if (c->nerr == 0) status = build_world(c, &src, sc);
    src_free(&src);
    return status;
}

int clab_scene_load_string(const char *text, const char *name, clab_scene *out, clab_error *err)
{
    clab_scene_init(out);
    clab_error_clear(err);
    if (!name) name = "<string>";
    if (!text) return clab_error_set(err, CLAB_EINVAL, "%s: no scene text", name);
    if (strlen(name) >= sizeof out->path)
        return clab_error_set(err, CLAB_EINVAL, "scene path too long (%zu characters; allowed: < %zu)", strlen(name),
                              sizeof out->path);
    snprintf(out->path, sizeof out->path, "%s", name);
    clab_scene_ctx c = {out->path, err, 0, 0};

    int status = CLAB_OK;
    /* what editors write and libconfig refuses with a bare "syntax error": a UTF-8 byte-order
     * mark is skipped, and a last line without its newline (a comment there) gets one */
    if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF) text += 3;
    size_t len = strlen(text);
    char *copy = NULL;
    if (len > 0 && text[len - 1] != '\n') {
        if (!(copy = malloc(len + 2))) return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", name);
        memcpy(copy, text, len);
        memcpy(copy + len, "\n", 2);
        text = copy;
    }
    if (clab_scene_prescan(&c, text) == 0) {
        config_t cfg;
        config_init(&cfg);
        if (!config_read_string(&cfg, text)) {
            const char *what = config_error_text(&cfg) ? config_error_text(&cfg) : "parse error";
            clab_scene_fail(&c, (unsigned)config_error_line(&cfg), "%s (libconfig)%s", what,
                       strstr(what, "mismatched")
                           ? "; allowed: arrays [ ] of one type: write every number with a decimal point, e.g. [0.0, "
                             "0.0, 1.0]"
                           : strstr(what, "duplicate setting")
                                 ? "; allowed: each key once in its group (the repeated key is on this line)"
                                 : "");
        } else {
            status = load_config(&c, &cfg, out);
        }
        config_destroy(&cfg);
    }
    free(copy);
    if (c.nerr > 0) {
        if (c.nerr > 1 || c.hidden > 0) {
            if (c.hidden)
                clab_error_append(err, CLAB_EINVAL, "%s: %d problems (%d more not shown)", c.file, c.nerr, c.hidden);
            else
                clab_error_append(err, CLAB_EINVAL, "%s: %d problems", c.file, c.nerr);
        }
        status = CLAB_EINVAL;
    }
    if (status != CLAB_OK) {
        char keep[CLAB_SCENE_PATH_LEN];
        memcpy(keep, out->path, sizeof keep);
        clab_scene_free(out);
        memcpy(out->path, keep, sizeof keep);
    }
    return status;
}

int clab_scene_load(const char *path, clab_scene *out, clab_error *err)
{
    clab_scene_init(out);
    clab_error_clear(err);
    FILE *f = fopen(path, "rb");
    if (!f) {
        char why[128];
        if (strerror_r(errno, why, sizeof why) != 0) snprintf(why, sizeof why, "error %d", errno);
        return clab_error_set(err, CLAB_EIO, "%s: cannot open the scene file: %s", path, why);
    }
    /* read it whole (a scene is small; the cap guards against /dev/zero and the like) */
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    int status = CLAB_OK;
    while (text) {
        if (n + 1 >= cap) {
            if (cap >= (size_t)SCENE_MAX_BYTES) {
                status = clab_error_set(err, CLAB_EINVAL, "%s: larger than %ld bytes; allowed: a scene file below "
                                        "that size", path, SCENE_MAX_BYTES);
                break;
            }
            char *t = realloc(text, 2 * cap);
            if (!t) break;
            text = t;
            cap *= 2;
        }
        size_t got = fread(text + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) break;
    }
    if (!text) status = clab_error_set(err, CLAB_ENOMEM, "%s: out of memory reading the scene file", path);
    else if (status == CLAB_OK && ferror(f))
        status = clab_error_set(err, CLAB_EIO, "%s: read error", path);
    fclose(f);
    if (status == CLAB_OK) {
        text[n] = '\0';
        if (strlen(text) != n) {
            unsigned line = 1;
            for (const char *p = text; *p; p++) line += *p == '\n';
            status = clab_error_set(err, CLAB_EINVAL, "%s:%u: a NUL byte in the file; allowed: a text file", path, line);
        } else {
            status = clab_scene_load_string(text, path, out, err);
        }
    }
    free(text);
    return status;
}

int clab_scene_meta(const clab_scene *sc, clab_options *m)
{
    char v[CLAB_OPT_LEN];
    int st = CLAB_OK;
    st |= clab_options_set(m, "scene", sc->path, NULL);
    st |= clab_options_set(m, "backend", sc->backend, NULL);
    clab_scene_double_text(sc->h, v, sizeof v);
    st |= clab_options_set(m, "h_s", v, NULL);
    clab_scene_double_text(sc->t_end, v, sizeof v);
    st |= clab_options_set(m, "t_end_s", v, NULL);
    snprintf(v, sizeof v, "%ld", sc->output_every);
    st |= clab_options_set(m, "output_every", v, NULL);
    for (size_t i = 0; i < sc->options.n; i++) {
        char key[CLAB_OPT_LEN];
        snprintf(key, sizeof key, "option.%.100s", sc->options.o[i].key);
        st |= clab_options_set(m, key, sc->options.o[i].val, NULL);
    }
    return st ? CLAB_ENOMEM : CLAB_OK;
}
