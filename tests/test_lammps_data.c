/* test_lammps_data.c: the LAMMPS atom_style sphere data-file importer (lib/lammps_data.c).
 * Expected values are the numbers written in the hand-made files below, and the LAMMPS
 * conventions of clab_lammps.h: m = density pi d^3/6, I = 2/5 m (d/2)^2. Every comparison of
 * a number read from the file is exact (strtod of the same text, the same formula). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clab_lammps.h"
#include "clab_scene.h"
#include "tap.h"

/* three atoms of two types, written out of id order, with comments, blank lines, a skipped
 * Masses section, image flags on two lines and none on the third */
static const char good[] =
    "LAMMPS data file written by hand   # title line, always skipped\n"
    "\n"
    "3 atoms\n"
    "2 atom types   # comment after a header line\n"
    "0 bonds\n"
    "\n"
    "-1.5 4.25 xlo xhi\n"
    "0 2 ylo yhi\n"
    "-0.125 7.5e1 zlo zhi\n"
    "\n"
    "Masses\n"
    "\n"
    "1 1.0\n"
    "2 3.0\n"
    "\n"
    "Atoms # sphere\n"
    "\n"
    "7 2 0.5 2500 1.25 -0.75 3.0e-1 0 0 0\n"
    "# a comment line inside a section\n"
    "2 1 1 1 0.1 0.2 0.3 1 -1 0\n"
    "\n"
    "5 1 2.0 0.75 -1 1.5 60\n"
    "\n"
    "Velocities\n"
    "\n"
    "5 0.5 -0.25 1e-3 -2 0.125 3\n"
    "2 7.36585 -0.294381 0.0381822 -0.298859 0.876624 -0.389997\n"
    "7 0 0 0 0 0 0\n";

static int fix_type2(long id, int type, void *ctx)
{
    (void)ctx;
    return type == 2 && id == 7;
}

static void check_good(clab_world *w, const clab_lammps_info *info, size_t first, const char *how)
{
    tap_ok(w->nbodies == first + 3 && info->natoms == 3 && info->ntypes == 2 && info->nvelocities == 3,
           "%s: 3 atoms of 2 types, 3 velocities (got %zu bodies, %ld atoms, %d types, %ld velocities)", how,
           w->nbodies - first, info->natoms, info->ntypes, info->nvelocities);
    tap_ok(info->first == first && info->id && info->id[0] == 2 && info->id[1] == 5 && info->id[2] == 7,
           "%s: bodies in increasing atom id 2, 5, 7", how);
    tap_ok(info->lo[0] == -1.5 && info->hi[0] == 4.25 && info->lo[1] == 0.0 && info->hi[1] == 2.0 &&
               info->lo[2] == -0.125 && info->hi[2] == 75.0,
           "%s: box bounds as written", how);
    /* (id, d, density, x, v, w) of each body, from the text above */
    const double d[3] = {1.0, 2.0, 0.5}, rho[3] = {1.0, 0.75, 2500.0};
    const double x[3][3] = {{0.1, 0.2, 0.3}, {-1.0, 1.5, 60.0}, {1.25, -0.75, 3.0e-1}};
    const double v[3][3] = {{7.36585, -0.294381, 0.0381822}, {0.5, -0.25, 1e-3}, {0, 0, 0}};
    const double om[3][3] = {{-0.298859, 0.876624, -0.389997}, {-2, 0.125, 3}, {0, 0, 0}};
    int ok_m = 1, ok_r = 1, ok_x = 1, ok_v = 1, ok_w = 1, ok_J = 1;
    for (int k = 0; k < 3; k++) {
        const clab_body *b = &w->bodies[first + (size_t)k];
        double m = rho[k] * M_PI * d[k] * d[k] * d[k] / 6.0;
        ok_m &= b->m == m;
        ok_r &= b->shape.type == CLAB_SHAPE_SPHERE && b->shape.radius == 0.5 * d[k];
        /* I = 2/5 m R^2, as LAMMPS compute erotate/sphere; 1 ulp-level from the product order */
        ok_J &= fabs(b->J.x - 0.4 * m * 0.25 * d[k] * d[k]) <= 1e-15 * b->J.x && b->J.x == b->J.y && b->J.y == b->J.z;
        ok_x &= b->r.x == x[k][0] && b->r.y == x[k][1] && b->r.z == x[k][2];
        ok_v &= b->rdot.x == v[k][0] && b->rdot.y == v[k][1] && b->rdot.z == v[k][2];
        clab_vec3 wv = clab_body_omega_world(b); /* identity orientation: wbar = omega exactly */
        ok_w &= wv.x == om[k][0] && wv.y == om[k][1] && wv.z == om[k][2];
    }
    tap_ok(ok_m, "%s: masses = density pi d^3/6 exactly", how);
    tap_ok(ok_r, "%s: spheres of radius d/2", how);
    tap_ok(ok_J, "%s: inertia 2/5 m (d/2)^2 (rel 1e-15)", how);
    tap_ok(ok_x, "%s: positions exactly as written (image flags not applied)", how);
    tap_ok(ok_v, "%s: velocities exactly as written", how);
    tap_ok(ok_w, "%s: angular velocities exactly as written", how);
}

/* the file must be refused with a message holding every one of the fragments */
static void refused(const char *text, const char *what, const char *frag1, const char *frag2)
{
    clab_world *w = clab_world_create(NULL);
    clab_error err;
    clab_error_clear(&err);
    clab_lammps_info info;
    int rc = clab_lammps_read_data_string(text, "bad.data", w, NULL, &info, &err);
    int ok = rc == CLAB_EINVAL && strstr(err.msg, frag1) && (!frag2 || strstr(err.msg, frag2));
    tap_ok(ok, "refused, %s: '%s'", what, err.msg);
    clab_lammps_info_free(&info);
    clab_world_destroy(w);
}

/* a small valid file with one line replaced */
static void refused_edit(const char *from, const char *to, const char *what, const char *frag1, const char *frag2)
{
    char text[sizeof good + 256];
    const char *at = strstr(good, from);
    if (!at) {
        tap_ok(0, "test setup: '%s' not in the good file", from);
        return;
    }
    size_t pre = (size_t)(at - good);
    snprintf(text, sizeof text, "%.*s%s%s", (int)pre, good, to, at + strlen(from));
    refused(text, what, frag1, frag2);
}

/* write text to dir/name */
static int write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

/* a scene with lammps_data = { ... } (scene_lammps.c): the file relative to the scene's folder,
 * materials by name, fixed types, periodic axes on the file's box */
static void scene_hook(void)
{
    char dir[] = "/tmp/test_lammps_sceneXXXXXX";
    if (!mkdtemp(dir) || write_file(dir, "packing.data", good)) {
        tap_ok(0, "scene test: temporary folder");
        return;
    }
    const char *scene = "materials = ( { name = \"glass\"; mu = 0.3; }, { name = \"steel\"; mu = 0.2; } );\n"
                        "bodies = ( { name = \"floor\"; shape = \"plane\"; fixed = true; position = [0.0, 0.0, -1.0]; } );\n"
                        "lammps_data = { file = \"packing.data\"; materials = [\"steel\", \"glass\"];\n"
                        "  fixed_types = [2]; periodic = [\"x\", \"y\"]; };\n"
                        "simulation = { backend = \"penalty\"; h = 1e-4; t_end = 1e-3; };\n";
    char path[512];
    snprintf(path, sizeof path, "%s/s.cfg", dir);
    write_file(dir, "s.cfg", scene);
    clab_scene sc;
    clab_error err;
    int rc = clab_scene_load(path, &sc, &err);
    tap_ok(rc == CLAB_OK, "scene with lammps_data loads (%s)", err.msg);
    if (rc == CLAB_OK) {
        const clab_world *w = sc.world;
        int glass = clab_world_find_material(w, "glass"), steel = clab_world_find_material(w, "steel");
        tap_ok(w->nbodies == 4 && w->bodies[1].m == 1.0 * M_PI / 6.0 && w->bodies[3].r.x == 1.25,
               "the floor, then atoms 2, 5, 7 in id order (%zu bodies)", w->nbodies);
        tap_ok(w->bodies[1].material == steel && w->bodies[2].material == steel && w->bodies[3].material == glass,
               "materials by name: type 1 steel, type 2 glass");
        tap_ok(!w->bodies[1].fixed && !w->bodies[2].fixed && w->bodies[3].fixed, "fixed_types = [2]");
        tap_ok(w->periodic.on[0] && w->periodic.on[1] && !w->periodic.on[2] && w->periodic.lo[0] == -1.5 &&
                   w->periodic.hi[0] == 4.25 && w->periodic.hi[1] == 2.0,
               "periodic x and y on the file's box");
        clab_scene_free(&sc);
    }
    /* errors name the scene line, and the data file's line through it */
    write_file(dir, "bad.data", "t\n1 atoms\n1 atom types\n\nAtoms\n\n1 1 0 1 0 0 0\n");
    write_file(dir, "b1.cfg", "bodies = ();\nlammps_data = { file = \"bad.data\"; };\n"
                              "simulation = { backend = \"penalty\"; h = 1e-4; t_end = 1e-3; };\n");
    snprintf(path, sizeof path, "%s/b1.cfg", dir);
    rc = clab_scene_load(path, &sc, &err);
    tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "b1.cfg:2: lammps_data.file: ") && strstr(err.msg, "bad.data:7: Atoms"),
           "a bad data file: scene line and data line (%s)", err.msg);
    write_file(dir, "b2.cfg", "lammps_data = { file = \"packing.data\"; materials = [\"wood\"];\n"
                              "  fixed_types = [0]; periodic = [\"w\"]; colour = 1; };\n"
                              "simulation = { backend = \"penalty\"; h = 1e-4; t_end = 1e-3; };\n");
    snprintf(path, sizeof path, "%s/b2.cfg", dir);
    rc = clab_scene_load(path, &sc, &err);
    tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "b2.cfg:2: lammps_data.fixed_types = [0]") &&
               strstr(err.msg, "b2.cfg:2: lammps_data.periodic: \"w\"") &&
               strstr(err.msg, "b2.cfg:2: lammps_data.colour: unknown key"),
           "bad fixed_types, periodic axis and key, every one reported (%s)", err.msg);
    write_file(dir, "b3.cfg", "lammps_data = { file = \"packing.data\"; materials = [\"wood\"]; };\n"
                              "simulation = { backend = \"penalty\"; h = 1e-4; t_end = 1e-3; };\n");
    snprintf(path, sizeof path, "%s/b3.cfg", dir);
    rc = clab_scene_load(path, &sc, &err);
    tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "b3.cfg:1: lammps_data.materials[0] = \"wood\": unknown material"),
           "unknown material name (%s)", err.msg);
    const char *names[] = {"packing.data", "bad.data", "s.cfg", "b1.cfg", "b2.cfg", "b3.cfg"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

int main(void)
{
    clab_error err;
    clab_error_clear(&err);

    /* defaults: a material per type, nothing fixed */
    {
        clab_world *w = clab_world_create(NULL);
        clab_lammps_info info;
        int rc = clab_lammps_read_data_string(good, "good.data", w, NULL, &info, &err);
        tap_ok(rc == CLAB_OK, "hand-written file read (%s)", err.msg);
        if (rc == CLAB_OK) {
            check_good(w, &info, 0, "defaults");
            int m1 = clab_world_find_material(w, "lammps_type1"), m2 = clab_world_find_material(w, "lammps_type2");
            tap_ok(m1 > 0 && m2 > 0 && w->bodies[0].material == m1 && w->bodies[1].material == m1 &&
                       w->bodies[2].material == m2,
                   "a material lammps_type<t> per atom type (%d, %d)", m1, m2);
            tap_ok(info.nfixed == 0 && !w->bodies[0].fixed && !w->bodies[1].fixed && !w->bodies[2].fixed,
                   "nothing fixed by default");
        }
        clab_lammps_info_free(&info);
        clab_world_destroy(w);
    }

    /* from a file, after a body already in the world; caller's materials and fixed types */
    {
        char path[] = "/tmp/test_lammps_dataXXXXXX";
        int fd = mkstemp(path);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (f) {
            fputs(good, f);
            fclose(f);
        }
        clab_world *w = clab_world_create(NULL);
        clab_body_def floor = clab_default_body_def();
        floor.shape = clab_plane();
        floor.fixed = 1;
        clab_world_add_body(w, &floor, NULL);
        clab_material glass = clab_default_material();
        snprintf(glass.name, sizeof glass.name, "glass");
        glass.mu = 0.25;
        int mg = clab_world_add_material(w, &glass, NULL);
        const int type_material[3] = {-1, mg, 0};
        const int type_fixed[3] = {0, 0, 1};
        clab_lammps_def def = clab_lammps_default_def();
        def.type_material = type_material;
        def.ntype_material = 3;
        def.type_fixed = type_fixed;
        def.ntype_fixed = 3;
        clab_lammps_info info;
        int rc = f ? clab_lammps_read_data(path, w, &def, &info, &err) : CLAB_EIO;
        tap_ok(rc == CLAB_OK, "file %s read (%s)", path, err.msg);
        if (rc == CLAB_OK) {
            check_good(w, &info, 1, "from a file");
            tap_ok(w->bodies[1].material == mg && w->bodies[2].material == mg && w->bodies[3].material == 0 &&
                       clab_world_find_material(w, "lammps_type1") < 0,
                   "caller's type -> material mapping used, no material added");
            tap_ok(info.nfixed == 1 && !w->bodies[1].fixed && !w->bodies[2].fixed && w->bodies[3].fixed,
                   "type 2 fixed by the type_fixed array");
        }
        clab_lammps_info_free(&info);
        clab_world_destroy(w);

        /* the fixed callback decides per atom */
        w = clab_world_create(NULL);
        def = clab_lammps_default_def();
        def.fixed = fix_type2;
        rc = clab_lammps_read_data(path, w, &def, &info, &err);
        tap_ok(rc == CLAB_OK && info.nfixed == 1 && w->bodies[2].fixed && !w->bodies[0].fixed,
               "fixed callback (id 7 of type 2)");
        clab_lammps_info_free(&info);
        clab_world_destroy(w);
        unlink(path);

        /* a missing file: CLAB_EIO naming it */
        w = clab_world_create(NULL);
        rc = clab_lammps_read_data(path, w, NULL, NULL, &err);
        tap_ok(rc == CLAB_EIO && strstr(err.msg, path), "missing file: '%s'", err.msg);
        clab_world_destroy(w);
    }

    /* no Velocities section: at rest */
    {
        clab_world *w = clab_world_create(NULL);
        clab_lammps_info info;
        const char *text = "title\n2 atoms\n1 atom types\n\nAtoms\n\n1 1 1 1 0 0 0\n2 1 1 1 2 0 0\n";
        int rc = clab_lammps_read_data_string(text, "rest.data", w, NULL, &info, &err);
        tap_ok(rc == CLAB_OK && w->nbodies == 2 && info.nvelocities == 0 && w->bodies[1].rdot.x == 0.0 &&
                   w->bodies[1].wbar.z == 0.0 && info.lo[0] == -0.5 && info.hi[2] == 0.5,
               "no Velocities section: bodies at rest; no box lines: LAMMPS's default box -0.5..0.5 (%s)", err.msg);
        clab_lammps_info_free(&info);
        clab_world_destroy(w);
    }

    /* malformed files: every message names the file and line and what is wrong */
    refused_edit("5 1 2.0 0.75 -1 1.5 60\n", "", "fewer atoms than the header", "bad.data:16: Atoms: 2 entries",
                 "header (line 3) says 3 atoms");
    refused_edit("3 atoms\n", "2 atoms\n", "more atoms than the header", "bad.data:22: Atoms: more entries than the 2",
                 NULL);
    refused_edit("-1 1.5 60\n", "-1 1.5.2 60\n", "bad number", "bad.data:22: Atoms: column 6 (y) = '1.5.2'",
                 "not a finite number");
    refused_edit("-1 1.5 60\n", "-1 1.5 nan\n", "NaN coordinate", "bad.data:22: Atoms: column 7 (z) = 'nan'", NULL);
    refused_edit("5 1 2.0", "7 1 2.0", "duplicate atom id", "bad.data:22: Atoms: atom id 7 appears twice",
                 "also at line 18");
    refused_edit("7 0 0 0 0 0 0\n", "2 0 0 0 0 0 0\n", "duplicate velocity id",
                 "bad.data:28: Velocities: atom id 2 appears twice", "also at line 27");
    refused_edit("7 0 0 0 0 0 0\n", "9 0 0 0 0 0 0\n", "velocity of an unknown atom",
                 "bad.data:28: Velocities: atom id 9 is not in the Atoms section", NULL);
    refused_edit("7 0 0 0 0 0 0\n", "", "fewer velocities than atoms", "bad.data:24: Velocities: 2 entries", NULL);
    refused_edit("7 0 0 0 0 0 0\n", "7 0 0 0 0 0\n", "velocity line short", "bad.data:28: Velocities: 6 columns",
                 NULL);
    refused_edit("7 2 0.5 2500", "7 2 0 2500", "point particle", "bad.data:18: Atoms: atom 7: diameter = 0",
                 "point particle");
    refused_edit("7 2 0.5 2500", "7 2 0.5 -1", "negative density", "bad.data:18: Atoms: atom 7: density = -1", NULL);
    refused_edit("7 2 0.5 2500", "7 3 0.5 2500", "type out of range", "bad.data:18: Atoms: atom 7: type = 3",
                 "allowed 1..2");
    refused_edit("7 2 0.5 2500", "7.5 2 0.5 2500", "fractional id", "bad.data:18: Atoms: column 1 (id) = '7.5'",
                 NULL);
    refused_edit(" 1 -1 0\n", " 1 -1\n", "9 columns", "bad.data:20: Atoms: 9 columns", NULL);
    refused_edit("Atoms # sphere", "Atoms # atomic", "another atom style", "bad.data:16: Atoms # atomic",
                 "only atom_style sphere");
    refused_edit("Masses", "Bonds", "unsupported section", "bad.data:11: section 'Bonds' is not supported", NULL);
    refused_edit("0 bonds\n", "4 bonds\n", "bonds in the header", "bad.data:5: header: 4 bonds", NULL);
    refused_edit("0 bonds\n", "0 0 0 xy xz yz\n", "triclinic box", "bad.data:5: header: a triclinic box", NULL);
    refused_edit("0 bonds\n", "3 widgets\n", "unknown header keyword", "bad.data:5: header: unknown keyword 'widgets'",
                 NULL);
    refused_edit("-1.5 4.25 xlo", "4.25 -1.5 xlo", "inverted bounds", "bad.data:7: header: xlo = 4.25, xhi = -1.5",
                 NULL);
    refused_edit("3 atoms\n", "", "no atom count", "bad.data:10: header: no \"N atoms\" line", NULL);
    refused("title\n1 atoms\n1 atom types\n\nVelocities\n\n1 0 0 0 0 0 0\n", "missing Atoms section",
            "bad.data:8: no Atoms section", "says 1 atoms");
    refused("title\n1 atoms\n1 atom types\n\nAtoms\n\n1 1 1 1 0 0 0\n\nAtoms\n\n2 1 1 1 0 0 0\n", "two Atoms sections",
            "bad.data:9: a second Atoms section", "line 5");
    refused("", "empty file", "bad.data: empty file", NULL);
    /* as a scene's bodies = (): a file with no atoms is refused, not run (it crashed the run) */
    refused("title\n0 atoms\n0 atom types\n", "0 atoms", "bad.data:2: header: 0 atoms", "at least one atom");
    scene_hook();
    return tap_done();
}
