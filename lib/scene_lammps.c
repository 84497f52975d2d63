/* scene_lammps.c: the scene key lammps_data, atoms of a LAMMPS data file (clab_lammps.h)
 * added to the scene's world:
 *
 *   lammps_data = {
 *       file = "data.chute";          # relative to the scene file's folder
 *       materials = ["glass", "steel"]; # material of atom types 1, 2, ... (default: lammps_type<t>)
 *       fixed_types = [2];            # atom types that do not move
 *       periodic = ["x", "y"];        # axes made periodic on the file's box
 *   };
 */
#include "scene_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_lammps.h"

/* a list or array of strings (names = 1: material-name characters); -1 when wrong (reported) */
static int string_list(clab_scene_ctx *c, const config_setting_t *g, const char *key, char (*out)[CLAB_NAME_LEN],
                       int cap, int *n)
{
    const config_setting_t *s = config_setting_get_member(g, key);
    *n = 0;
    if (!s) return 0;
    char value[200];
    clab_scene_value_text(s, value, sizeof value);
    int t = config_setting_type(s);
    int len = (t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST) ? config_setting_length(s) : -1;
    int ok = len >= 0 && len <= cap;
    for (int i = 0; ok && i < len; i++) {
        const char *v = config_setting_get_string(config_setting_get_elem(s, (unsigned)i));
        ok = v && v[0] && strlen(v) < CLAB_NAME_LEN;
        if (ok) snprintf(out[i], CLAB_NAME_LEN, "%s", v);
    }
    if (!ok) {
        clab_scene_fail(c, clab_scene_line(s), "lammps_data.%s = %s: wrong type (%s); allowed: a list of at most %d names "
                   "[\"a\", \"b\"]", key, value, clab_scene_type_text(s), cap);
        return -1;
    }
    *n = len;
    return 1;
}

int clab_scene_lammps_read(clab_scene_ctx *c, const config_setting_t *root, clab_scene_lammps *out)
{
    static const char *const keys[] = {"file", "materials", "fixed_types", "periodic", NULL};
    memset(out, 0, sizeof *out);
    const config_setting_t *g = config_setting_get_member(root, "lammps_data");
    if (!g) return 0;
    char value[200];
    if (config_setting_type(g) != CONFIG_TYPE_GROUP) {
        clab_scene_value_text(g, value, sizeof value);
        clab_scene_fail(c, clab_scene_line(g), "lammps_data = %s: wrong type (%s); allowed: a group { file = \"...\"; ... }",
                   value, clab_scene_type_text(g));
        return -1;
    }
    int nerr = c->nerr;
    out->on = 1; /* present: bodies become optional, also while its fields are wrong */
    out->line = clab_scene_line(g);
    clab_scene_check_keys(c, g, "lammps_data", keys);
    char file[1024] = "";
    if (clab_scene_string(c, g, "lammps_data", "file", 0, file, sizeof file) == 0)
        clab_scene_fail(c, out->line, "lammps_data.file: missing required field; allowed: the path of a LAMMPS data file "
                   "(atom_style sphere)");
    /* relative paths from the scene file's folder */
    const char *slash = strrchr(c->file, '/');
    int dir = slash ? (int)(slash - c->file) : 0;
    if (file[0] != '/' && slash && dir < 1024)
        snprintf(out->file, sizeof out->file, "%.*s/%s", dir, c->file, file);
    else
        snprintf(out->file, sizeof out->file, "%s", file);
    string_list(c, g, "materials", out->materials, CLAB_SCENE_LAMMPS_TYPES, &out->nmaterials);
    /* fixed_types: whole numbers 1..CLAB_SCENE_LAMMPS_TYPES */
    const config_setting_t *s = config_setting_get_member(g, "fixed_types");
    if (s) {
        clab_scene_value_text(s, value, sizeof value);
        int t = config_setting_type(s);
        int len = (t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST) ? config_setting_length(s) : -1;
        int ok = len >= 0;
        for (int i = 0; ok && i < len; i++) {
            const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
            long v = config_setting_type(e) == CONFIG_TYPE_INT ? config_setting_get_int(e) : -1;
            ok = v >= 1 && v <= CLAB_SCENE_LAMMPS_TYPES;
            if (ok) out->fixed[v] = 1;
        }
        if (!ok)
            clab_scene_fail(c, clab_scene_line(s), "lammps_data.fixed_types = %s: allowed: a list of atom types, whole numbers "
                       "1..%d", value, CLAB_SCENE_LAMMPS_TYPES);
    }
    /* periodic: axis names */
    char axes[3][CLAB_NAME_LEN];
    int naxes = 0;
    if (string_list(c, g, "periodic", axes, 3, &naxes) > 0)
        for (int i = 0; i < naxes; i++) {
            int k = strcmp(axes[i], "x") == 0 ? 0 : strcmp(axes[i], "y") == 0 ? 1 : strcmp(axes[i], "z") == 0 ? 2 : -1;
            if (k < 0)
                clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "periodic")),
                           "lammps_data.periodic: \"%s\": allowed: \"x\", \"y\", \"z\"", axes[i]);
            else
                out->periodic[k] = 1;
        }
    return c->nerr > nerr ? -1 : 1;
}

int clab_scene_lammps_build(clab_scene_ctx *c, const clab_scene_lammps *l, clab_world *w)
{
    int type_material[CLAB_SCENE_LAMMPS_TYPES + 1];
    type_material[0] = 0;
    for (int t = 1; t <= l->nmaterials; t++) {
        type_material[t] = clab_world_find_material(w, l->materials[t - 1]);
        if (type_material[t] < 0) {
            clab_scene_fail(c, l->line, "lammps_data.materials[%d] = \"%s\": unknown material (atom type %d)", t - 1,
                       l->materials[t - 1], t);
            return CLAB_EINVAL;
        }
    }
    clab_lammps_def def = clab_lammps_default_def();
    def.type_material = type_material;
    def.ntype_material = (size_t)l->nmaterials + 1;
    def.type_fixed = l->fixed;
    def.ntype_fixed = CLAB_SCENE_LAMMPS_TYPES + 1;
    memcpy(def.periodic, l->periodic, sizeof def.periodic);
    clab_error e;
    clab_error_clear(&e);
    int rc = clab_lammps_read_data(l->file, w, &def, NULL, &e);
    if (rc) clab_scene_fail(c, l->line, "lammps_data.file: %s", e.msg);
    return rc;
}
