/* test_validation.c: every kind of invalid input is refused with a message that names where
 * (file:line, or the option's origin), the field, the value and what is allowed.
 *
 * Two tables: scene texts through clab_scene_load_string (each must fail with CLAB_EINVAL,
 * report exactly the expected number of problems, all of them, and hold every expected
 * fragment), and option lists through clab_sim_create on a valid scene (each must fail
 * with the expected status and fragments). The fragments are the contract of
 * clab_scene.h ("file:line: field = value: what is wrong; allowed: range") and of
 * clab_options.h (key, value, origin, range). A final check loads the valid base scene, so
 * a failure in the table is the field's, not the base's. */
#include <stdio.h>
#include <string.h>

#include "clab_scene.h"
#include "clab_sim.h"
#include "tap.h"

/* building blocks: one valid piece of each section */
#define SIM "simulation = { backend = \"dvi\"; h = 1.0e-3; t_end = 1.0; };\n"
#define BALL "{ name = \"ball\"; shape = \"sphere\"; radius = 0.1; mass = 1.0; position = [0.0, 0.0, 0.1]; }"
#define GROUND "{ name = \"ground\"; shape = \"plane\"; fixed = true; }"
#define BODIES(x) "bodies = ( " GROUND ", " x " );\n"
#define BASE BODIES(BALL) SIM
#define MAT(x) "materials = ( { name = \"m\"; " x " } );\n" BASE
#define JOINT(x) "bodies = ( " GROUND ", " BALL ", { name = \"bob\"; shape = \"sphere\"; radius = 0.1; mass = 1.0; " \
                 "position = [1.0, 0.0, 1.0]; } );\njoints = ( " x " );\n" SIM
#define SIMG(x) BODIES(BALL) "simulation = { " x " };\n"

typedef struct scene_case {
    const char *what;      /* the rule it breaks */
    const char *text;      /* the scene */
    int problems;          /* problems it must report */
    const char *expect[4]; /* fragments of the message (NULL-terminated) */
} scene_case;

static const scene_case scenes[] = {
    /* materials: type, range, finiteness, names, keys */
    {"friction mu >= 0", MAT("mu = -0.1;"), 1, {"v.cfg:1: materials[0].mu = -0.1: out of range; allowed: mu >= 0"}},
    {"mu is a number", MAT("mu = \"high\";"), 1, {"materials[0].mu = \"high\": wrong type (a string); allowed: a number"}},
    {"rolling friction >= 0", MAT("mu_roll = -1.0;"), 1, {"materials[0].mu_roll = -1: out of range; allowed: mu_roll >= 0 [m]"}},
    {"modulus E > 0", MAT("E = 0.0;"), 1, {"materials[0].E = 0: out of range; allowed: E > 0 [Pa]"}},
    {"modulus E finite", MAT("E = 1e999;"), 1, {"materials[0].E = inf: not a finite number; allowed: E > 0 [Pa]"}},
    {"Poisson ratio < 0.5", MAT("nu = 0.5;"), 1, {"materials[0].nu = 0.5: out of range; allowed: -1 < nu < 0.5"}},
    {"Poisson ratio > -1", MAT("nu = -1.0;"), 1, {"materials[0].nu = -1: out of range; allowed: -1 < nu < 0.5"}},
    {"restitution > 0", MAT("cor = 0.0;"), 1, {"materials[0].cor = 0: out of range; allowed: 0 < cor <= 1"}},
    {"restitution <= 1", MAT("cor = 1.5;"), 1, {"materials[0].cor = 1.5: out of range; allowed: 0 < cor <= 1"}},
    {"stiffness kn >= 0", MAT("kn = -1.0;"), 1, {"materials[0].kn = -1: out of range; allowed: kn >= 0"}},
    {"stiffness kt >= 0", MAT("kt = -2.0;"), 1, {"materials[0].kt = -2: out of range; allowed: kt >= 0"}},
    {"damping gn >= 0", MAT("gn = -3.0;"), 1, {"materials[0].gn = -3: out of range; allowed: gn >= 0"}},
    {"damping gt >= 0", MAT("gt = -4.0;"), 1, {"materials[0].gt = -4: out of range; allowed: gt >= 0"}},
    {"material name required", "materials = ( { mu = 0.3; } );\n" BASE, 1,
     {"v.cfg:1: materials[0].name: missing required field"}},
    {"material names unique", "materials = ( { name = \"m\"; }, { name = \"m\"; } );\n" BASE, 1,
     {"materials[1].name = \"m\": duplicate name; first defined at v.cfg:1"}},
    {"material keys known", MAT("colour = \"red\";"), 1,
     {"materials[0].colour: unknown key; allowed keys here: name, mu, mu_roll, E, nu, cor, kn, kt, gn, gt"}},
    {"material name characters", "materials = ( { name = \"a b\"; } );\n" BASE, 1,
     {"materials[0].name = \"a b\": invalid; allowed: a name of letters, digits"}},

    /* bodies: shapes and sizes */
    {"radius > 0", BODIES("{ shape = \"sphere\"; radius = 0.0; mass = 1.0; }") SIM, 1,
     {"bodies[1].radius = 0: out of range; allowed: radius > 0 [m]"}},
    {"radius is a number", BODIES("{ shape = \"sphere\"; radius = \"big\"; mass = 1.0; }") SIM, 1,
     {"bodies[1].radius = \"big\": wrong type (a string); allowed: a number, radius > 0 [m]"}},
    {"half extents > 0", BODIES("{ shape = \"box\"; half = [0.1, 0.0, 0.1]; mass = 1.0; }") SIM, 1,
     {"bodies[1].half = [0.1, 0, 0.1]: out of range; allowed: three half extents > 0 [m]"}},
    {"half extents: three", BODIES("{ shape = \"box\"; half = [0.1, 0.1]; mass = 1.0; }") SIM, 1,
     {"bodies[1].half = [0.1, 0.1]: wrong type or length (an array [ ]); allowed: three numbers [x, y, z] [m]"}},
    {"shape required", BODIES("{ radius = 0.1; mass = 1.0; }") SIM, 1, {"bodies[1].shape: missing required field"}},
    {"shape known", BODIES("{ shape = \"cylinder\"; radius = 0.1; mass = 1.0; }") SIM, 1,
     {"bodies[1].shape = \"cylinder\": unknown shape; allowed: \"sphere\", \"plane\" or \"box\""}},
    {"sphere needs a radius", BODIES("{ shape = \"sphere\"; mass = 1.0; }") SIM, 1,
     {"bodies[1].radius: missing required field; allowed: radius > 0 [m] for a sphere"}},
    {"box takes no radius", BODIES("{ shape = \"box\"; half = [0.1, 0.1, 0.1]; radius = 0.1; mass = 1.0; }") SIM, 1,
     {"bodies[1].radius: not used by a box"}},
    {"plane is fixed", "bodies = ( { shape = \"plane\"; } );\n" SIM, 1,
     {"bodies[0]: a plane that is not fixed; allowed: fixed = true for a plane"}},
    {"plane has no size", "bodies = ( { shape = \"plane\"; fixed = true; radius = 1.0; } );\n" SIM, 1,
     {"bodies[0].radius = 1: not used by a plane"}},

    /* bodies: mass */
    {"mass > 0", BODIES("{ shape = \"sphere\"; radius = 0.1; mass = 0.0; }") SIM, 1,
     {"bodies[1].mass = 0: out of range; allowed: mass > 0 [kg]"}},
    {"mass positive", BODIES("{ shape = \"sphere\"; radius = 0.1; mass = -2.0; }") SIM, 1,
     {"bodies[1].mass = -2: out of range; allowed: mass > 0 [kg]"}},
    {"density > 0", BODIES("{ shape = \"sphere\"; radius = 0.1; density = 0.0; }") SIM, 1,
     {"bodies[1].density = 0: out of range; allowed: density > 0 [kg/m^3]"}},
    {"mass or density, not both", BODIES("{ shape = \"sphere\"; radius = 0.1; mass = 1.0; density = 10.0; }") SIM, 1,
     {"bodies[1]: both mass and density given; allowed: one of them"}},
    {"a moving body has a mass", BODIES("{ shape = \"sphere\"; radius = 0.1; }") SIM, 1,
     {"bodies[1].mass: missing required field; allowed: mass [kg] or density [kg/m^3] > 0"}},

    /* bodies: state */
    {"position finite", BODIES("{ shape = \"sphere\"; radius = 0.1; mass = 1.0; position = [0.0, 1e400, 0.0]; }") SIM,
     1, {"bodies[1].position = [0, inf, 0]: not finite; allowed: three finite numbers [x, y, z] [m]"}},
    {"velocity is a vector", BODIES("{ shape = \"sphere\"; radius = 0.1; mass = 1.0; velocity = \"fast\"; }") SIM, 1,
     {"bodies[1].velocity = \"fast\": wrong type or length (a string); allowed: three numbers [x, y, z] [m/s]"}},
    {"omega finite", BODIES("{ shape = \"sphere\"; radius = 0.1; mass = 1.0; omega = [-1e999, 0.0, 0.0]; }") SIM, 1,
     {"bodies[1].omega = [-inf, 0, 0]: not finite"}},
    {"orientation not zero", BODIES("{ shape = \"box\"; half = [0.1, 0.1, 0.1]; mass = 1.0; orientation = [0.0, 0.0, 0.0, 0.0]; }") SIM,
     1, {"bodies[1].orientation = [0, 0, 0, 0]: out of range; allowed: finite Euler parameters, not all zero"}},
    {"orientation: four", BODIES("{ shape = \"box\"; half = [0.1, 0.1, 0.1]; mass = 1.0; orientation = [1.0, 0.0, 0.0]; }") SIM,
     1, {"bodies[1].orientation = [1, 0, 0]: wrong type or length (an array [ ]); allowed: four Euler parameters"}},
    {"axis not zero", BODIES("{ shape = \"box\"; half = [0.1, 0.1, 0.1]; mass = 1.0; axis = [0.0, 0.0, 0.0]; angle_deg = 10.0; }") SIM,
     1, {"bodies[1].axis = [0, 0, 0]: out of range; allowed: a non-zero vector"}},
    {"angle with an axis", BODIES("{ shape = \"box\"; half = [0.1, 0.1, 0.1]; mass = 1.0; angle_deg = 10.0; }") SIM, 1,
     {"bodies[1].axis: missing required field; allowed: axis = [x, y, z] (not zero) together with angle_deg"}},
    {"orientation one way", BODIES("{ shape = \"box\"; half = [0.1, 0.1, 0.1]; mass = 1.0; orientation = [1.0, 0.0, 0.0, 0.0]; axis = [0.0, 0.0, 1.0]; angle_deg = 5.0; }") SIM,
     1, {"bodies[1]: both orientation and axis/angle_deg given; allowed: one of them"}},
    {"fixed is a boolean", BODIES("{ shape = \"sphere\"; radius = 0.1; fixed = 1; }") SIM, 2,
     {"bodies[1].fixed = 1: wrong type (an integer); allowed: true or false", "bodies[1].mass: missing"}},
    {"fixed bodies rest", BODIES("{ shape = \"sphere\"; radius = 0.1; fixed = true; velocity = [1.0, 0.0, 0.0]; }") SIM,
     1, {"bodies[1]: a fixed body has velocity or omega"}},

    /* bodies: names, references, keys */
    {"material exists", BODIES("{ shape = \"sphere\"; radius = 0.1; mass = 1.0; material = \"gold\"; }") SIM, 1,
     {"bodies[1].material = \"gold\": unknown material; allowed: default"}},
    {"body names unique", BODIES(BALL ", " BALL) SIM, 1,
     {"bodies[2].name = \"ball\": duplicate name; first defined at v.cfg:1; allowed: a name used by no other body"}},
    {"generated names reserved", BODIES("{ name = \"body7\"; shape = \"sphere\"; radius = 0.1; mass = 1.0; }") SIM, 1,
     {"bodies[1].name = \"body7\": reserved"}},
    {"body keys known", BODIES("{ shape = \"sphere\"; radius = 0.1; mass = 1.0; colour = \"red\"; }") SIM, 1,
     {"bodies[1].colour: unknown key; allowed keys here: name, shape, radius"}},
    {"bodies not empty", "bodies = ( );\n" SIM, 1, {"bodies = (): empty; allowed: at least one body"}},
    {"bodies required", SIM, 1, {"bodies: missing required list"}},
    {"bodies is a list", "bodies = 3;\n" SIM, 1, {"bodies = 3: wrong type (an integer); allowed: a list of groups"}},
    {"a body is a group", "bodies = ( 1.5 );\n" SIM, 1,
     {"bodies[0] = 1.5: wrong type (a number); allowed: a group { ... }"}},

    /* joints */
    {"joint type known", JOINT("{ type = \"hinge\"; body_a = \"ball\"; body_b = \"bob\"; }"), 1,
     {"joints[0].type = \"hinge\": unknown joint type; allowed: \"spherical\" or \"distance\""}},
    {"joint bodies exist", JOINT("{ type = \"spherical\"; body_a = \"ball\"; body_b = \"ghost\"; point = [0.0, 0.0, 0.0]; }"),
     1, {"joints[0].body_b = \"ghost\": unknown body; allowed: the name of a body in bodies"}},
    {"joint: two bodies", JOINT("{ type = \"spherical\"; body_a = \"ball\"; body_b = \"ball\"; point = [0.0, 0.0, 0.0]; }"),
     1, {"joints[0]: body_a = body_b = \"ball\"; allowed: two different bodies"}},
    {"joint: one body moves", JOINT("{ type = \"spherical\"; body_a = \"ground\"; body_b = \"ground\"; point = [0.0, 0.0, 0.0]; }"),
     2, {"joints[0]: body_a = body_b = \"ground\"", "joints[0]: both bodies are fixed; allowed: at least one body that moves"}},
    {"spherical joint point", JOINT("{ type = \"spherical\"; body_a = \"ball\"; body_b = \"bob\"; }"), 1,
     {"joints[0].point: missing required field; allowed: point = [x, y, z]"}},
    {"distance length > 0", JOINT("{ type = \"distance\"; body_a = \"ball\"; body_b = \"bob\"; point_a = [0.0, 0.0, 0.1]; point_b = [1.0, 0.0, 1.0]; length = -1.0; }"),
     1, {"joints[0].length = -1: out of range; allowed: length > 0 [m]"}},
    {"distance: points apart", JOINT("{ type = \"distance\"; body_a = \"ball\"; body_b = \"bob\"; point_a = [0.5, 0.0, 0.5]; point_b = [0.5, 0.0, 0.5]; }"),
     1, {"joints[0]: point_a = point_b, so the initial distance is 0; allowed: a length > 0 [m]"}},
    {"joint names unique", JOINT("{ name = \"j\"; type = \"spherical\"; body_a = \"ball\"; body_b = \"bob\"; point = [0.0, 0.0, 0.0]; }, "
                                 "{ name = \"j\"; type = \"spherical\"; body_a = \"ball\"; body_b = \"bob\"; point = [1.0, 0.0, 0.0]; }"),
     1, {"joints[1].name = \"j\": duplicate name; first defined at v.cfg:2; allowed: a name used by no other joint"}},
    {"joint keys known", JOINT("{ type = \"spherical\"; body_a = \"ball\"; body_b = \"bob\"; point = [0.0, 0.0, 0.0]; stiffness = 3.0; }"),
     1, {"joints[0].stiffness: unknown key; allowed keys here: name, type, body_a, body_b, point"}},

    /* simulation */
    {"simulation required", BODIES(BALL), 1, {"simulation: missing required group"}},
    {"backend known", SIMG("backend = \"fem\"; h = 1.0e-3; t_end = 1.0;"), 1,
     {"v.cfg:2: simulation.backend = \"fem\": unknown backend; allowed: "}},
    {"step h > 0", SIMG("backend = \"dvi\"; h = 0.0; t_end = 1.0;"), 1,
     {"simulation.h = 0: out of range; allowed: h > 0 [s]"}},
    {"step h positive", SIMG("backend = \"dvi\"; h = -1.0e-3; t_end = 1.0;"), 1,
     {"simulation.h = -0.001: out of range; allowed: h > 0 [s]"}},
    {"t_end >= h", SIMG("backend = \"dvi\"; h = 1.0e-3; t_end = 1.0e-4;"), 1,
     {"simulation.t_end = 0.0001: shorter than one step; allowed: t_end >= h = 0.001 [s]"}},
    {"output_every >= 1", SIMG("backend = \"dvi\"; h = 1.0e-3; t_end = 1.0; output_every = 0;"), 1,
     {"simulation.output_every = 0: out of range; allowed: an integer, 1 <= output_every <= 1000000000"}},
    {"output_every integer", SIMG("backend = \"dvi\"; h = 1.0e-3; t_end = 1.0; output_every = 2.5;"), 1,
     {"simulation.output_every = 2.5: wrong type (a number); allowed: an integer"}},
    {"options flat", SIMG("backend = \"dvi\"; h = 1.0e-3; t_end = 1.0; options = { solver = { a = 1; }; };"), 1,
     {"simulation.options.solver = { ... }: wrong type (a group { }); allowed: a number, string or boolean"}},
    {"options finite", SIMG("backend = \"dvi\"; h = 1.0e-3; t_end = 1.0; options = { tol = 1e999; };"), 1,
     {"simulation.options.tol = inf: not a finite number"}},
    {"simulation keys known", SIMG("backend = \"dvi\"; h = 1.0e-3; t_end = 1.0; steps = 10;"), 1,
     {"simulation.steps: unknown key; allowed keys here: backend, h, t_end, output_every, options"}},

    /* the file as a whole */
    {"top-level keys known", "colour = \"red\";\n" BASE, 1,
     {"v.cfg:1: colour: unknown key; allowed keys here: description, gravity, materials, bodies, joints, simulation"}},
    {"gravity finite", "gravity = [0.0, 0.0, -1e999];\n" BASE, 1, {"gravity = [0, 0, -inf]: not finite"}},
    {"gravity: three", "gravity = -9.81;\n" BASE, 1, {"gravity = -9.81: wrong type or length (a number)"}},
    {"description text", "description = 5;\n" BASE, 1, {"description = 5: wrong type (an integer); allowed: a string"}},
    {"integers fit 32 bits", MAT("kn = 3000000000;"), 1, {"integer 3000000000 is too large for the scene parser"}},
    {"no @include", "@include \"other.cfg\"\n" BASE, 1, {"v.cfg:1: directive '@...' is not allowed"}},
    {"syntax", "bodies = ( { shape = ; } );\n" SIM, 1, {"v.cfg:1: syntax error (libconfig)"}},
    {"keys once per group", SIMG("backend = \"dvi\"; h = 1.0e-3; h = 2.0e-3; t_end = 1.0;"), 1,
     {"v.cfg:2: duplicate setting name (libconfig); allowed: each key once in its group"}},
    {"strings only as values", "bodies = ( { shape = \"sphere\"; \"radius\"; } );\n" SIM, 1,
     {"v.cfg:1: a string where no value may stand"}},
    {"arrays of one type", "gravity = [0, 0.0, -9.81];\n" BASE, 1,
     {"mismatched", "write every number with a decimal point"}},

    /* every problem of a file, not just the first */
    {"all problems reported",
     "materials = ( { name = \"m\"; mu = -1.0; nu = 0.7; } );\n"
     "bodies = ( { shape = \"sphere\"; radius = -0.1; mass = 0.0; material = \"x\"; },\n"
     "  { shape = \"plane\"; } );\n"
     "simulation = { backend = \"dvi\"; h = 0.0; t_end = -1.0; };\n",
     8,
     {"v.cfg:1: materials[0].mu = -1", "v.cfg:2: bodies[0].radius = -0.1", "v.cfg:4: simulation.t_end = -1",
      "v.cfg: 8 problems"}},
    {"three problems on three lines, each with its line",
     "materials = ( { name = \"m\"; nu = 0.7; } );\n"
     "bodies = ( " GROUND ", { name = \"ball\"; shape = \"sphere\"; radius = -0.1; mass = 1.0; } );\n"
     "simulation = { backend = \"dvi\"; h = 0.0; t_end = 1.0; };\n",
     3,
     {"v.cfg:1: materials[0].nu = 0.7: out of range; allowed: -1 < nu < 0.5",
      "v.cfg:2: bodies[1].radius = -0.1: out of range; allowed: radius > 0 [m]",
      "v.cfg:3: simulation.h = 0: out of range; allowed: h > 0 [s]", "v.cfg: 3 problems"}},
};

/* problem lines in a scene message: "v.cfg:<line>: ..." or "v.cfg: ..." (the closing
 * "v.cfg: N problems" is not one) */
static int count_problems(const char *msg)
{
    int n = 0;
    for (const char *p = msg; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        int total;
        char word[16];
        if (strncmp(p, "v.cfg:", 6) != 0) continue;
        if (sscanf(p + 6, " %d %15s", &total, word) == 2 && strncmp(word, "problems", 8) == 0) continue;
        n++;
    }
    return n;
}

static void test_scene_case(const scene_case *k)
{
    clab_scene sc;
    clab_error err;
    int rc = clab_scene_load_string(k->text, "v.cfg", &sc, &err);
    int ok = rc == CLAB_EINVAL && count_problems(err.msg) == k->problems;
    for (int i = 0; i < 4 && k->expect[i]; i++) ok = ok && strstr(err.msg, k->expect[i]) != NULL;
    if (!tap_ok(ok, "scene: %s: refused, %d problem(s), message as expected", k->what, k->problems))
        tap_diag("status %d, message:\n%s", rc, err.msg);
    clab_scene_free(&sc);
}

/* ---- backend and sim options ---- */

typedef struct option_case {
    const char *what;
    const char *backend;
    double h;
    const char *options;   /* "key=value key=value" */
    int status;
    const char *expect[3];
} option_case;

static const option_case options[] = {
    {"h > 0", "dvi", 0.0, "", CLAB_EINVAL, {"time step h = 0 s: out of range; allowed: 0 < h < 1000 [s]"}},
    {"h < 1000 s", "penalty", 1e5, "", CLAB_EINVAL, {"time step h = 100000 s: out of range; allowed: 0 < h < 1000"}},
    {"backend known", "fem", 1e-3, "", CLAB_ENOTFOUND, {"unknown backend 'fem' (available: ", "dvi"}},
    {"envelope range", "dvi", 1e-3, "envelope=-2", CLAB_EINVAL,
     {"o:1: envelope = -2 is outside the allowed range [0, 1000]"}},
    {"envelope a number", "dvi", 1e-3, "envelope=wide", CLAB_EINVAL, {"o:1: envelope = 'wide' is not a finite number"}},
    {"vmax >= 0", "penalty", 1e-5, "vmax=-1", CLAB_EINVAL, {"vmax = -1 is outside the allowed range [0, 1e+300]"}},
    {"vmax finite", "penalty", 1e-5, "vmax=inf", CLAB_EINVAL, {"vmax = 'inf' is not a finite number"}},
    {"dvi solver known", "dvi", 1e-3, "solver=newton", CLAB_EINVAL,
     {"solver = 'newton' is not one of: ", "apgd", "jacobi"}},
    {"dvi max_iter >= 1", "dvi", 1e-3, "max_iter=0", CLAB_EINVAL,
     {"max_iter = 0 is outside the allowed range [1, 100000000]"}},
    {"dvi max_iter integer", "dvi", 1e-3, "max_iter=2.5", CLAB_EINVAL, {"max_iter = '2.5' is not an integer"}},
    {"dvi tol >= 0", "dvi", 1e-3, "tol=-1e-6", CLAB_EINVAL, {"tol = -1e-06 is outside the allowed range [0, 1000]"}},
    {"dvi omega < 2", "dvi", 1e-3, "omega=2", CLAB_EINVAL, {"omega = 2 is outside the allowed range [1e-06, 1.999999]"}},
    {"dvi recovery_speed >= 0", "dvi", 1e-3, "recovery_speed=-1", CLAB_EINVAL,
     {"recovery_speed = -1 is outside the allowed range [0, 1e+300]"}},
    {"dvi warm_start on/off", "dvi", 1e-3, "warm_start=maybe", CLAB_EINVAL,
     {"warm_start = 'maybe' is not one of: off, on"}},
    {"dvi unknown key", "dvi", 1e-3, "maxiter=10", CLAB_EINVAL,
     {"o:1: unknown option 'maxiter' for the dvi backend; allowed: ", "max_iter", "warm_start"}},
    {"every unknown key", "dvi", 1e-3, "maxiter=10 tolerance=1", CLAB_EINVAL,
     {"unknown option 'maxiter'", "unknown option 'tolerance'"}},
    {"penalty model known", "penalty", 1e-5, "model=dem", CLAB_EINVAL, {"model = 'dem' is not one of: hooke, hertz"}},
    {"penalty integrator known", "penalty", 1e-5, "integrator=rk4", CLAB_EINVAL,
     {"integrator = 'rk4' is not one of: euler, verlet"}},
    {"penalty cap known", "penalty", 1e-5, "cap=both", CLAB_EINVAL, {"cap = 'both' is not one of: total, spring"}},
    {"penalty rolling known", "penalty", 1e-5, "rolling=yes", CLAB_EINVAL, {"rolling = 'yes' is not one of: off, cdt"}},
    {"penalty kn > 0", "penalty", 1e-5, "kn=0", CLAB_EINVAL, {"kn = 0", "must be > 0"}},
    {"penalty kt > 0", "penalty", 1e-5, "kt=-5", CLAB_EINVAL, {"kt = -5", "must be > 0"}},
    {"penalty gn >= 0", "penalty", 1e-5, "gn=-1", CLAB_EINVAL, {"gn = -1", "must be >= 0"}},
    {"penalty vchar > 0", "penalty", 1e-5, "vchar=0", CLAB_EINVAL, {"vchar = 0", "must be > 0"}},
    {"penalty kn finite", "penalty", 1e-5, "kn=1e999", CLAB_EINVAL, {"kn = '1e999' is not a finite number"}},
    {"penalty unknown key", "penalty", 1e-5, "stiffness=1e6", CLAB_EINVAL,
     {"unknown option 'stiffness' for the penalty backend; allowed: ", "kn", "integrator"}},
};

static void test_option_case(const option_case *k)
{
    clab_scene sc;
    clab_error err;
    clab_options o;
    clab_options_init(&o);
    clab_scene_load_string(BASE, "v.cfg", &sc, &err);
    /* "key=value key=value", each with origin "o:1" (as a scene line would give) */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", k->options);
    for (char *save = NULL, *kv = strtok_r(buf, " ", &save); kv; kv = strtok_r(NULL, " ", &save))
        clab_options_parse(&o, kv, "o:1", &err);
    clab_error_clear(&err);
    clab_sim *s = sc.world ? clab_sim_create(sc.world, k->backend, k->h, &o, &err) : NULL;
    int ok = s == NULL && err.status == k->status;
    for (int i = 0; i < 3 && k->expect[i]; i++) ok = ok && strstr(err.msg, k->expect[i]) != NULL;
    if (!tap_ok(ok, "options: %s: refused (%s %s), message as expected", k->what, k->backend, k->options))
        tap_diag("status %d, message: %s", err.status, err.msg);
    clab_sim_destroy(s);
    clab_options_free(&o);
    clab_scene_free(&sc);
}

/* the lines of a message */
static int count_lines(const char *msg)
{
    int n = *msg != '\0';
    for (const char *p = msg; *p; p++) n += *p == '\n' && p[1] != '\0';
    return n;
}

/* 25 problems in a scene: the first 20 shown with their lines, the other 5 counted */
static void test_scene_cap(void)
{
    char text[4096] = "materials = (\n";
    for (int i = 0; i < 25; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "  { name = \"m%d\"; mu = -%d.0; }%s\n", i, i + 1,
                 i < 24 ? "," : "");
    snprintf(text + strlen(text), sizeof text - strlen(text), ");\n%s", BASE);
    clab_scene sc;
    clab_error err;
    int rc = clab_scene_load_string(text, "v.cfg", &sc, &err);
    /* material i is on line i + 2 */
    int ok = rc == CLAB_EINVAL && count_problems(err.msg) == 20 && strstr(err.msg, "v.cfg:2: materials[0].mu = -1") &&
             strstr(err.msg, "v.cfg:21: materials[19].mu = -20") && !strstr(err.msg, "materials[20]") &&
             strstr(err.msg, "v.cfg: 25 problems (5 more not shown)");
    if (!tap_ok(ok, "scene: 25 problems: the first 20 shown with their lines, '25 problems (5 more not shown)'"))
        tap_diag("status %d, message:\n%s", rc, err.msg);
    clab_scene_free(&sc);
}

/* an option list with several problems: every one reported, one line each, then the count */
static void test_options_all(const char *what, const char *backend, const char *list, int nlines,
                             const char *const *expect)
{
    clab_scene sc;
    clab_error err;
    clab_options o;
    clab_options_init(&o);
    clab_scene_load_string(BASE, "v.cfg", &sc, &err);
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *kv = strtok_r(buf, " ", &save); kv; kv = strtok_r(NULL, " ", &save))
        clab_options_parse(&o, kv, "--opt", &err);
    clab_error_clear(&err);
    clab_sim *s = sc.world ? clab_sim_create(sc.world, backend, backend[0] == 'p' ? 1e-5 : 1e-3, &o, &err) : NULL;
    int ok = s == NULL && err.status == CLAB_EINVAL && count_lines(err.msg) == nlines;
    for (int i = 0; expect[i]; i++) ok = ok && strstr(err.msg, expect[i]) != NULL;
    if (!tap_ok(ok, "options: %s: every problem reported (%d lines)", what, nlines))
        tap_diag("status %d, %d lines, message:\n%s", err.status, count_lines(err.msg), err.msg);
    clab_sim_destroy(s);
    clab_options_free(&o);
    clab_scene_free(&sc);
}

static void test_options_every_problem(void)
{
    /* two values out of range and an unknown key: three problems and the count */
    static const char *const dvi3[] = {"--opt: tol = -1 is outside the allowed range [0, 1000]",
                                       "--opt: omega = 3 is outside the allowed range [1e-06, 1.999999]",
                                       "--opt: unknown option 'maxiter' for the dvi backend; allowed: ",
                                       "3 problems with the options of the dvi backend", NULL};
    test_options_all("dvi: tol=-1 omega=3 maxiter=10", "dvi", "tol=-1 omega=3 maxiter=10", 4, dvi3);
    /* a sim option, a word, the backend's own range check, an unknown key */
    static const char *const pen4[] = {"--opt: vmax = -1 is outside the allowed range",
                                       "--opt: model = 'dem' is not one of: hooke, hertz",
                                       "--opt: kn = 0 N/m^1.5: out of range; allowed: the normal stiffness must be > 0",
                                       "--opt: gn = -1 1/s: out of range; allowed: the normal damping rate gamma_n must be >= 0",
                                       "--opt: unknown option 'stifness' for the penalty backend; allowed: ",
                                       "5 problems with the options of the penalty backend", NULL};
    test_options_all("penalty: vmax=-1 model=dem kn=0 gn=-1 stifness=1", "penalty",
                     "vmax=-1 model=dem kn=0 gn=-1 stifness=1", 6, pen4);
    /* 25 unknown keys: 20 shown, 5 counted */
    char list[1024] = "";
    for (int i = 0; i < 25; i++) snprintf(list + strlen(list), sizeof list - strlen(list), "k%02d=1 ", i);
    static const char *const cap[] = {"unknown option 'k00'", "unknown option 'k19' for the dvi backend; allowed: as above",
                                      "25 problems with the options of the dvi backend (5 more not shown)", NULL};
    test_options_all("25 unknown keys: 20 shown, the rest counted", "dvi", list, 21, cap);
}

/* a command-line option without '=' names its origin and the form */
static void test_option_form(void)
{
    clab_options o;
    clab_error err;
    clab_options_init(&o);
    int rc = clab_options_parse(&o, "kn", "--opt", &err);
    tap_ok(rc == CLAB_EINVAL && strstr(err.msg, "--opt: option 'kn' must have the form key=value"),
           "options: --opt without '=': %s", err.msg);
    clab_options_free(&o);
}

int main(void)
{
    /* the base scene is valid, so each refusal below is its field's */
    clab_scene sc;
    clab_error err;
    int rc = clab_scene_load_string(BASE, "v.cfg", &sc, &err);
    clab_sim *s = rc ? NULL : clab_sim_create(sc.world, sc.backend, sc.h, &sc.options, &err);
    tap_ok(rc == CLAB_OK && s != NULL, "the base scene loads and runs under dvi");
    clab_sim_destroy(s);
    clab_scene_free(&sc);

    size_t ns = sizeof scenes / sizeof scenes[0], no = sizeof options / sizeof options[0];
    for (size_t i = 0; i < ns; i++) test_scene_case(&scenes[i]);
    for (size_t i = 0; i < no; i++) test_option_case(&options[i]);
    test_option_form();
    test_scene_cap();
    test_options_every_problem();
    tap_diag("%zu invalid scenes (and one with 25 problems), %zu invalid option lists (and 3 with several problems), "
             "1 malformed option", ns, no);
    return tap_done();
}
