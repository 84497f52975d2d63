/* scene_mesh.c: the meshes list of a scene file (doc/scene-format.md): mesh walls from an STL
 * file (path relative to the scene file) or an inline list of triangles, placed by position,
 * orientation (or axis and angle_deg) and scale */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_scene.h"
#include "scene_internal.h"

/* the file name p relative to the directory of the scene file (as given when absolute, or
 * when the scene has no directory) */
static void resolve(const char *scene, const char *p, char *out, size_t n)
{
    const char *slash = strrchr(scene, '/');
    if (p[0] == '/' || !slash) snprintf(out, n, "%s", p);
    else snprintf(out, n, "%.*s/%s", (int)(slash - scene), scene, p);
}

/* a list of arrays of 9 numbers into m->xyz */
static void read_triangles(clab_scene_ctx *c, const config_setting_t *s, const char *path, mesh_src *m)
{
    const int t = config_setting_type(s);
    const int n = (t == CONFIG_TYPE_LIST || t == CONFIG_TYPE_ARRAY) ? config_setting_length(s) : -1;
    if (n <= 0) {
        clab_scene_fail(c, clab_scene_line(s), "%s.triangles: %s; allowed: a list of triangles ( [x1, y1, z1, x2, y2, "
                        "z2, x3, y3, z3], ... ) [m]", path, n == 0 ? "empty" : "not a list");
        return;
    }
    if (!(m->xyz = malloc((size_t)n * 9 * sizeof *m->xyz))) {
        clab_scene_fail(c, clab_scene_line(s), "%s.triangles: out of memory", path);
        return;
    }
    for (int i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        const int te = config_setting_type(e);
        int ok = (te == CONFIG_TYPE_ARRAY || te == CONFIG_TYPE_LIST) && config_setting_length(e) == 9;
        for (int k = 0; ok && k < 9; k++) {
            const config_setting_t *x = config_setting_get_elem(e, (unsigned)k);
            const int tx = config_setting_type(x);
            ok = tx == CONFIG_TYPE_FLOAT || tx == CONFIG_TYPE_INT || tx == CONFIG_TYPE_INT64;
            if (ok) m->xyz[9 * i + k] = tx == CONFIG_TYPE_FLOAT ? config_setting_get_float(x)
                                                                : (double)config_setting_get_int64(x);
        }
        if (!ok) {
            clab_scene_fail(c, clab_scene_line(e), "%s.triangles[%d]: %s; allowed: nine numbers [x1, y1, z1, x2, y2, "
                            "z2, x3, y3, z3] [m]", path, i, clab_scene_type_text(e));
            return;
        }
        if (clab_tri_degenerate(m->xyz + 9 * i)) {
            clab_scene_fail(c, clab_scene_line(e), "%s.triangles[%d]: zero area (the vertices are on a line); allowed: "
                            "a triangle of positive area", path, i);
            return;
        }
    }
    m->def.ntri = (size_t)n;
}

/* orientation = [e0, e1, e2, e3], or axis = [x, y, z] with angle_deg */
static void read_orientation(clab_scene_ctx *c, const config_setting_t *g, const char *path, clab_quat *e)
{
    const config_setting_t *so = config_setting_get_member(g, "orientation");
    const config_setting_t *sa = config_setting_get_member(g, "axis"), *sd = config_setting_get_member(g, "angle_deg");
    if (so && (sa || sd)) {
        clab_scene_fail(c, clab_scene_line(so), "%s: both orientation and axis/angle_deg given; allowed: one of them",
                        path);
        return;
    }
    if (so) {
        int ok = (config_setting_type(so) == CONFIG_TYPE_ARRAY || config_setting_type(so) == CONFIG_TYPE_LIST) &&
                 config_setting_length(so) == 4;
        double q[4] = {0, 0, 0, 0};
        for (int k = 0; ok && k < 4; k++) {
            const config_setting_t *x = config_setting_get_elem(so, (unsigned)k);
            const int t = config_setting_type(x);
            ok = t == CONFIG_TYPE_FLOAT || t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
            if (ok) q[k] = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(x) : (double)config_setting_get_int64(x);
        }
        const double norm = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (!ok || !(isfinite(norm) && norm > 0.0))
            clab_scene_fail(c, clab_scene_line(so), "%s.orientation: allowed: four finite Euler parameters [e0, e1, e2, "
                            "e3], not all zero", path);
        else
            *e = clab_q(q[0], q[1], q[2], q[3]);
    }
    if (sa || sd) {
        clab_vec3 axis = clab_v3(0, 0, 1);
        double deg = 0.0;
        int ga = clab_scene_vec3(c, g, path, "axis", "direction, any length", &axis);
        int gd = clab_scene_number(c, g, path, "angle_deg", clab_scene_make_range(-INFINITY, 0, INFINITY, 0, "deg"), &deg);
        if (ga == 0) clab_scene_missing(c, g, path, "axis", "axis = [x, y, z] (not zero) together with angle_deg");
        if (gd == 0) clab_scene_missing(c, g, path, "angle_deg", "angle_deg [degrees] together with axis");
        if (ga == 1 && !(clab_v3_norm(axis) > 0.0))
            clab_scene_fail(c, clab_scene_line(sa), "%s.axis = [0, 0, 0]: out of range; allowed: a non-zero vector", path);
        else if (ga == 1 && gd == 1)
            *e = clab_q_axis_angle(axis, deg * M_PI / 180.0);
    }
}

static void read_mesh(clab_scene_ctx *c, const config_setting_t *g, int i, const scene_src *src, mesh_src *m)
{
    static const char *const keys[] = {"name", "mesh", "triangles", "position", "orientation", "axis", "angle_deg",
                                       "scale", "material", NULL};
    char path[48], file[CLAB_SCENE_PATH_LEN] = "";
    snprintf(path, sizeof path, "meshes[%d]", i);
    clab_scene_check_keys(c, g, path, keys);
    m->def = clab_default_mesh_def();
    m->line = clab_scene_line(g);
    snprintf(m->material, sizeof m->material, "default");
    if (clab_scene_string(c, g, path, "name", 1, m->def.name, sizeof m->def.name) == 0)
        clab_scene_missing(c, g, path, "name", "name = \"...\" (its triangles are the bodies <name>.<k>)");
    const config_setting_t *st = config_setting_get_member(g, "triangles");
    const int has_file = clab_scene_string(c, g, path, "mesh", 0, file, sizeof file);
    if (has_file == 1 && st)
        clab_scene_fail(c, m->line, "%s: both mesh and triangles given; allowed: one of them", path);
    else if (has_file == 0 && !st)
        clab_scene_missing(c, g, path, "mesh", "mesh = \"file.stl\" (relative to the scene file) or triangles = "
                           "( [x1, y1, z1, x2, y2, z2, x3, y3, z3], ... )");
    else if (st)
        read_triangles(c, st, path, m);
    else if (has_file == 1) {
        char full[2 * CLAB_SCENE_PATH_LEN];
        resolve(c->file, file, full, sizeof full);
        clab_error e;
        clab_error_clear(&e);
        if (clab_stl_read(full, &m->xyz, &m->def.ntri, &e))
            clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "mesh")), "%s.mesh = \"%s\": %s", path,
                            file, e.msg);
    }
    clab_scene_vec3(c, g, path, "position", "m", &m->def.r);
    clab_scene_number(c, g, path, "scale", clab_scene_make_range(0, 1, INFINITY, 1, ""), &m->def.scale);
    read_orientation(c, g, path, &m->def.e);
    if (clab_scene_string(c, g, path, "material", 1, m->material, sizeof m->material) == 1) {
        int found = strcmp(m->material, "default") == 0;
        for (int k = 0; k < src->nmat && !found; k++) found = strcmp(src->mat[k].name, m->material) == 0;
        if (!found)
            clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "material")),
                            "%s.material = \"%s\": unknown material; allowed: default or one of materials", path,
                            m->material);
    }
    m->def.xyz = m->xyz;
}

void clab_scene_read_meshes(clab_scene_ctx *c, const config_setting_t *root, scene_src *src)
{
    const config_setting_t *list = clab_scene_get_list(c, root, "meshes", 0);
    if (!list) return;
    const int n = config_setting_length(list);
    if (n == 0) return;
    if (!(src->mesh = calloc((size_t)n, sizeof *src->mesh))) {
        clab_scene_fail(c, clab_scene_line(list), "out of memory reading %d meshes", n);
        return;
    }
    for (int i = 0; i < n; i++) {
        const config_setting_t *g = clab_scene_get_group_elem(c, list, "meshes", i);
        if (!g) continue;
        mesh_src *m = &src->mesh[src->nmesh++];
        read_mesh(c, g, i, src, m);
        for (int k = 0; k + 1 < src->nmesh && m->def.name[0]; k++)
            if (strcmp(src->mesh[k].def.name, m->def.name) == 0)
                clab_scene_fail(c, m->line, "meshes[%d].name = \"%s\": duplicate name; first defined at %s:%u", i,
                                m->def.name, c->file, src->mesh[k].line);
    }
}

int clab_scene_build_meshes(const scene_src *src, clab_world *w, clab_error *e)
{
    for (int k = 0; k < src->nmesh; k++) {
        clab_mesh_def d = src->mesh[k].def;
        d.material = clab_world_find_material(w, src->mesh[k].material);
        if (clab_world_add_mesh(w, &d, e) < 0) return e->status ? e->status : CLAB_EINVAL;
    }
    return CLAB_OK;
}

void clab_scene_free_meshes(scene_src *src)
{
    for (int k = 0; k < src->nmesh; k++) free(src->mesh[k].xyz);
    free(src->mesh);
    src->mesh = NULL;
    src->nmesh = 0;
}
