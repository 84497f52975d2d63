/* scene_joints.c: the joints = ( ... ) list of a scene file (doc/scene-format.md): each joint's
 * type, its two bodies by name and its attachment points, checked before the world exists */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene_internal.h"

/* the index of the body called name among those read, -1 when none is */
static int body_index(const scene_src *src, const char *name)
{
    for (int k = 0; k < src->nbody; k++)
        if (strcmp(src->body[k].def.name, name) == 0) return k;
    return -1;
}

void clab_scene_read_joints(clab_scene_ctx *c, const config_setting_t *root, scene_src *src)
{
    static const char *const keys[] = {"name", "type", "body_a", "body_b", "point", "point_a", "point_b", "length",
                                       NULL};
    const config_setting_t *list = clab_scene_get_list(c, root, "joints", 0);
    if (!list) return;
    int n = config_setting_length(list);
    src->joint = calloc((size_t)n + 1, sizeof *src->joint);
    char(*names)[CLAB_NAME_LEN] = calloc((size_t)n + 1, sizeof *names); /* joint names seen, for duplicates */
    unsigned *name_line = calloc((size_t)n + 1, sizeof *name_line);
    if (!src->joint || !names || !name_line) {
        free(names);
        free(name_line);
        clab_scene_fail(c, 0, "out of memory reading %d joints", n);
        return;
    }
    int nnames = 0;
    for (int i = 0; i < n; i++) {
        const config_setting_t *g = clab_scene_get_group_elem(c, list, "joints", i);
        if (!g) continue;
        char path[48], ty[16] = "", name[CLAB_NAME_LEN];
        snprintf(path, sizeof path, "joints[%d]", i);
        clab_scene_check_keys(c, g, path, keys);
        joint_src j;
        memset(&j, 0, sizeof j);
        j.line = clab_scene_line(g);
        int ok = 1;
        if (clab_scene_string(c, g, path, "name", 1, name, sizeof name) == 1) {
            /* names: unique among the joints */
            int dup = -1;
            for (int k = 0; k < nnames && dup < 0; k++)
                if (strcmp(names[k], name) == 0) dup = k;
            if (dup >= 0)
                clab_scene_fail(c, j.line, "%s.name = \"%s\": duplicate name; first defined at %s:%u; allowed: a name "
                           "used by no other joint", path, name, c->file, name_line[dup]);
            memcpy(names[nnames], name, sizeof names[nnames]);
            name_line[nnames++] = j.line;
        }
        int type = -1;
        int got = clab_scene_string(c, g, path, "type", 0, ty, sizeof ty);
        if (got == 0) clab_scene_missing(c, g, path, "type", "type = \"spherical\" or \"distance\"");
        if (got == 1 && (type = clab_joint_from_name(ty)) < 0)
            clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "type")),
                       "%s.type = \"%s\": unknown joint type; allowed: \"spherical\" or \"distance\"", path, ty);
        ok = type >= 0;
        j.type = (clab_joint_type)(type >= 0 ? type : 0);

        /* the two bodies, by name */
        int ia = -1, ib = -1;
        const char *const ends[2] = {"body_a", "body_b"};
        char *bn[2] = {j.body_a, j.body_b};
        int *ix[2] = {&ia, &ib};
        for (int e = 0; e < 2; e++) {
            int r = clab_scene_string(c, g, path, ends[e], 1, bn[e], CLAB_NAME_LEN);
            if (r == 0) clab_scene_missing(c, g, path, ends[e], "the name of a body");
            if (r == 1 && (*ix[e] = body_index(src, bn[e])) < 0)
                clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, ends[e])),
                           "%s.%s = \"%s\": unknown body; allowed: the name of a body in bodies", path, ends[e], bn[e]);
            ok = ok && r == 1 && *ix[e] >= 0;
        }
        if (ia >= 0 && ia == ib) {
            clab_scene_fail(c, j.line, "%s: body_a = body_b = \"%s\"; allowed: two different bodies", path, j.body_a);
            ok = 0;
        }
        if (ia >= 0 && ib >= 0 && src->body[ia].def.fixed && src->body[ib].def.fixed) {
            clab_scene_fail(c, j.line, "%s: both bodies are fixed; allowed: at least one body that moves", path);
            ok = 0;
        }

        /* attachment points, in world coordinates at the initial configuration */
        if (type == CLAB_JOINT_SPHERICAL) {
            if (clab_scene_vec3(c, g, path, "point", "m, world frame", &j.pa) == 0) {
                clab_scene_missing(c, g, path, "point", "point = [x, y, z], the joint in world coordinates [m]");
                ok = 0;
            }
            j.pb = j.pa;
            const char *unused[] = {"point_a", "point_b", "length"};
            for (int k = 0; k < 3; k++) {
                const config_setting_t *s = config_setting_get_member(g, unused[k]);
                if (s) {
                    clab_scene_fail(c, clab_scene_line(s), "%s.%s: not used by a spherical joint; allowed: point", path, unused[k]);
                    ok = 0;
                }
            }
        } else if (type == CLAB_JOINT_DISTANCE) {
            int ra = clab_scene_vec3(c, g, path, "point_a", "m, world frame", &j.pa);
            int rb = clab_scene_vec3(c, g, path, "point_b", "m, world frame", &j.pb);
            if (ra == 0) clab_scene_missing(c, g, path, "point_a", "point_a = [x, y, z] on body_a, world coordinates [m]");
            if (rb == 0) clab_scene_missing(c, g, path, "point_b", "point_b = [x, y, z] on body_b, world coordinates [m]");
            int rl = clab_scene_number(c, g, path, "length", clab_scene_make_range(0, 1, INFINITY, 0, "m"), &j.length);
            if (config_setting_get_member(g, "point")) {
                clab_scene_fail(c, clab_scene_line(config_setting_get_member(g, "point")),
                           "%s.point: not used by a distance joint; allowed: point_a, point_b", path);
                ok = 0;
            }
            ok = ok && ra == 1 && rb == 1 && rl >= 0;
            if (ok && rl == 0) {
                j.length = clab_v3_norm(clab_v3_sub(j.pb, j.pa));
                if (!(j.length > 0.0)) {
                    clab_scene_fail(c, j.line, "%s: point_a = point_b, so the initial distance is 0; allowed: a length > 0 "
                               "[m] (give length or two different points)", path);
                    ok = 0;
                }
            }
        }
        if (ok) src->joint[src->njoint++] = j;
    }
    free(names);
    free(name_line);
}

/* ---- simulation ---- */
