/* scene_motion.c: a body's motion, servo, force and torque in a scene file
 * (doc/scene-format.md, "Driven and loaded bodies"), read into its body_src and applied to
 * the built world. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_internal.h"

/* setting s as a number (int or float); 0 when it is not one */
static int number_of(const config_setting_t *s, double *v)
{
    const int t = config_setting_type(s);
    if (t == CONFIG_TYPE_FLOAT) *v = config_setting_get_float(s);
    else if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64) *v = (double)config_setting_get_int64(s);
    else return 0;
    return 1;
}

/* motion.table: a list of rows [t, vx, vy, vz, wx, wy, wz]; the rows into b->table */
static void read_table(clab_scene_ctx *c, const config_setting_t *s, const char *path, body_src *b)
{
    const int t = config_setting_type(s);
    const int n = t == CONFIG_TYPE_LIST || t == CONFIG_TYPE_ARRAY ? config_setting_length(s) : 0;
    if (n == 0) {
        clab_scene_fail(c, clab_scene_line(s), "%s.motion.table: %s; allowed: a list of rows ( [t, vx, vy, vz, wx, wy, wz], "
                        "... ), t [s] increasing, velocities [m/s] and [rad/s], world frame",
                        path, t == CONFIG_TYPE_LIST || t == CONFIG_TYPE_ARRAY ? "no rows" : clab_scene_type_text(s));
        return;
    }
    double *tab = malloc((size_t)n * CLAB_MOTION_COLS * sizeof *tab);
    if (!tab) {
        clab_scene_fail(c, clab_scene_line(s), "%s.motion.table: out of memory for %d rows", path, n);
        return;
    }
    int ok = 1;
    for (int r = 0; r < n; r++) {
        const config_setting_t *row = config_setting_get_elem(s, (unsigned)r);
        const int rt = config_setting_type(row);
        int good = (rt == CONFIG_TYPE_LIST || rt == CONFIG_TYPE_ARRAY) && config_setting_length(row) == CLAB_MOTION_COLS;
        for (int k = 0; good && k < CLAB_MOTION_COLS; k++)
            good = number_of(config_setting_get_elem(row, (unsigned)k), &tab[CLAB_MOTION_COLS * r + k]);
        if (!good) {
            char value[200];
            clab_scene_value_text(row, value, sizeof value);
            clab_scene_fail(c, clab_scene_line(row), "%s.motion.table[%d] = %s: wrong type or length (%s); allowed: seven "
                            "numbers [t, vx, vy, vz, wx, wy, wz]", path, r, value, clab_scene_type_text(row));
            ok = 0;
        }
    }
    char why[CLAB_ERROR_LEN / 2];
    if (ok && clab_motion_table_check(tab, (size_t)n, why, sizeof why)) {
        clab_scene_fail(c, clab_scene_line(s), "%s.motion.table: %s", path, why);
        ok = 0;
    }
    if (!ok) {
        free(tab);
        return;
    }
    b->table = tab;
    b->motion.kind = CLAB_MOTION_TABLE;
    b->motion.table = tab;
    b->motion.nrows = (size_t)n;
}

/* motion = { velocity = [..]; omega = [..]; } or { table = ( ... ); } */
static void read_motion(clab_scene_ctx *c, const config_setting_t *m, const char *path, body_src *b)
{
    static const char *const keys[] = {"velocity", "omega", "table", NULL};
    char mpath[64];
    snprintf(mpath, sizeof mpath, "%s.motion", path);
    clab_scene_check_keys(c, m, mpath, keys);
    const config_setting_t *tab = config_setting_get_member(m, "table");
    if (tab && (config_setting_get_member(m, "velocity") || config_setting_get_member(m, "omega"))) {
        clab_scene_fail(c, clab_scene_line(tab), "%s: both table and velocity/omega given; allowed: one of them", mpath);
        return;
    }
    if (tab) {
        read_table(c, tab, path, b);
        return;
    }
    b->motion.kind = CLAB_MOTION_CONSTANT;
    clab_scene_vec3(c, m, mpath, "velocity", "m/s", &b->motion.v);
    clab_scene_vec3(c, m, mpath, "omega", "rad/s, world frame", &b->motion.omega);
}

/* servo = { axis = [..]; stress = ..; area = ..; gain = ..; vmax = ..; velocity = [..]; } */
static void read_servo(clab_scene_ctx *c, const config_setting_t *s, const char *path, body_src *b)
{
    static const char *const keys[] = {"axis", "stress", "area", "gain", "vmax", "velocity", NULL};
    char spath[64];
    snprintf(spath, sizeof spath, "%s.servo", path);
    clab_scene_check_keys(c, s, spath, keys);
    clab_servo *sv = &b->motion.servo;
    b->motion.kind = CLAB_MOTION_SERVO;
    if (clab_scene_vec3(c, s, spath, "axis", "direction into the sample, any length", &sv->axis) == 0)
        clab_scene_missing(c, s, spath, "axis", "axis = [x, y, z]: the direction the wall moves into the sample");
    else if (clab_v3_norm2(sv->axis) == 0.0)
        clab_scene_fail(c, clab_scene_line(config_setting_get_member(s, "axis")),
                        "%s.axis = [0, 0, 0]: out of range; allowed: a non-zero vector", spath);
    const struct {
        const char *key, *hint;
        clab_scene_range r;
        double *out;
    } f[] = {
        {"stress", "stress [Pa]: the target normal stress, compressive positive",
         clab_scene_make_range(-INFINITY, 0, INFINITY, 0, "Pa"), &sv->stress},
        {"area", "area [m^2] > 0: the area the stress acts on", clab_scene_make_range(0, 1, INFINITY, 0, "m^2"),
         &sv->area},
        {"gain", "gain [m/(s Pa)] > 0 (doc/scene-format.md: alpha area/(k_n N_c h))",
         clab_scene_make_range(0, 1, INFINITY, 0, "m/(s Pa)"), &sv->gain},
        {"vmax", "vmax [m/s] > 0: the wall's speed limit", clab_scene_make_range(0, 1, INFINITY, 0, "m/s"), &sv->vmax},
    };
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
        if (clab_scene_number(c, s, spath, f[k].key, f[k].r, f[k].out) == 0) clab_scene_missing(c, s, spath, f[k].key, f[k].hint);
    clab_scene_vec3(c, s, spath, "velocity", "m/s, added to the servo's", &b->motion.v);
}

void clab_scene_read_drive(clab_scene_ctx *c, const config_setting_t *g, const char *path, body_src *b)
{
    const config_setting_t *m = config_setting_get_member(g, "motion"), *s = config_setting_get_member(g, "servo");
    b->motion = clab_motion_constant(clab_v3(0, 0, 0), clab_v3(0, 0, 0));
    if (m && s)
        clab_scene_fail(c, clab_scene_line(s), "%s: both motion and servo given; allowed: one of them (a servo's own "
                        "velocity = [..] adds a constant velocity)", path);
    const config_setting_t *d = m ? m : s;
    if (d && !config_setting_is_group(d))
        clab_scene_fail(c, clab_scene_line(d), "%s.%s: wrong type (%s); allowed: a group { ... }", path, m ? "motion" : "servo",
                        clab_scene_type_text(d));
    else if (m && !s)
        read_motion(c, m, path, b);
    else if (s && !m)
        read_servo(c, s, path, b);
    if (d) {
        int fixed = 1;
        if (clab_scene_bool(c, g, path, "fixed", &fixed) == 1 && !fixed)
            clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "fixed")),
                            "%s: fixed = false with a %s; allowed: a driven body is fixed (infinite mass): leave fixed "
                            "out or true", path, m ? "motion" : "servo");
        b->driven = 1;
        b->def.fixed = 1;
    }
    /* the loads */
    int gf = clab_scene_vec3(c, g, path, "force", "N, world frame", &b->force);
    int gt = clab_scene_vec3(c, g, path, "torque", "N m, world frame", &b->torque);
    b->loaded = gf == 1 || gt == 1;
    if ((gf || gt) && (b->def.fixed || d))
        clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, gf ? "force" : "torque")),
                        "%s: a force or torque on a fixed or driven body; allowed: loads on free bodies", path);
}

int clab_scene_build_drive(clab_world *w, size_t i, const body_src *b, clab_error *e)
{
    if (b->driven && clab_world_set_motion(w, i, &b->motion, e)) return e->status;
    if (b->loaded && clab_world_set_load(w, i, b->force, b->torque, e)) return e->status;
    return CLAB_OK;
}
