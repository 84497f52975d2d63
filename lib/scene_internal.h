/* scene_internal.h: checked field readers shared by the scene loader (scene.c,
 * scene_read.c). Every reader reports a problem as one line
 * "file:line: field = value: what is wrong; allowed: range" and counts it, so the
 * loader can go on and report every problem of a file, not just the first. */
#ifndef CLAB_SCENE_INTERNAL_H
#define CLAB_SCENE_INTERNAL_H

#include <libconfig.h>
#include <stddef.h>

#include "clab_error.h"
#include "clab_math.h"
#include "clab_world.h"
#include "clab_world.h"

/* loader state for messages */
typedef struct clab_scene_ctx {
    const char *file; /* label of the text in messages */
    clab_error *err;  /* collects one line per problem (may be NULL) */
    int nerr;         /* problems found */
    int hidden;       /* problems counted but left out of err (message full) */
} clab_scene_ctx;

/* allowed interval of a number: lo < x or lo <= x, x < hi or x <= hi */
typedef struct clab_scene_range {
    double lo, hi;
    int lo_open, hi_open; /* 1: the bound itself is excluded */
    const char *unit;     /* shown after the range: "m", "kg", "" */
} clab_scene_range;

/* report one problem at line (formatted like printf) */
void clab_scene_fail(clab_scene_ctx *c, unsigned line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* "path.key", or "key" at the top level */
void clab_scene_field(char *buf, size_t n, const char *path, const char *key);
/* a setting's value as it would read in the file: 0.1, "text", true, [1, 2, 3], { ... } */
void clab_scene_value_text(const config_setting_t *s, char *buf, size_t n);
/* shortest decimal text that reads back as v (%.15g .. %.17g) */
void clab_scene_double_text(double v, char *buf, size_t n);
/* "a group", "a string", "an integer", ... */
const char *clab_scene_type_text(const config_setting_t *s);
/* the line of s, or of its nearest ancestor that has one */
unsigned clab_scene_line(const config_setting_t *s);

/* Report every member of group g whose name is not in allowed (NULL-terminated). */
void clab_scene_check_keys(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *const *allowed);

/* Typed readers of member key of group g. Return 1 when present and valid (*out set),
 * 0 when absent (*out untouched), -1 when present but invalid (reported). */
int clab_scene_number(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *key, clab_scene_range r,
                 double *out);
int clab_scene_long(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *key, long lo, long hi,
               long *out);
int clab_scene_vec3(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *key, const char *unit,
               clab_vec3 *out);
int clab_scene_bool(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *key, int *out);
/* a string of at most cap - 1 characters; names = 1 also restricts it to letters, digits,
 * '_', '-', '.' (names end up in messages and CSV column names) */
int clab_scene_string(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *key, int names,
                 char *out, size_t cap);

/* The optional top-level group periodic = { x = [lo, hi]; y = [lo, hi]; z = [lo, hi]; } [m]:
 * each axis given must be two finite numbers lo < hi. Returns 1 when present and valid (out
 * set; absent axes off), 0 when absent, -1 when invalid (reported). */
int clab_scene_periodic(clab_scene_ctx *c, const config_setting_t *root, clab_periodic *out);

/* lammps_data = { file = "..."; materials = [...]; fixed_types = [...]; periodic = [...]; }:
 * the atoms of a LAMMPS data file (scene_lammps.c, doc/lammps.md) */
#define CLAB_SCENE_LAMMPS_TYPES 64   /* atom types a scene can map */
#define CLAB_SCENE_LAMMPS_PATH 2200  /* the data file's path, scene folder included */
typedef struct clab_scene_lammps {
    int on;                                                 /* the key is present (a group) */
    unsigned line;                                          /* line of the group */
    char file[CLAB_SCENE_LAMMPS_PATH];                      /* resolved from the scene's folder */
    char materials[CLAB_SCENE_LAMMPS_TYPES][CLAB_NAME_LEN]; /* [nmaterials] material of type t + 1 */
    int nmaterials;
    int fixed[CLAB_SCENE_LAMMPS_TYPES + 1];                 /* fixed[t]: atoms of type t are fixed */
    int periodic[3];                                        /* axes periodic on the file's box */
} clab_scene_lammps;
/* Read the key (1 present, 0 absent, -1 invalid: reported). */
int clab_scene_lammps_read(clab_scene_ctx *c, const config_setting_t *root, clab_scene_lammps *out);
/* Add the file's atoms to w (materials by name already in w); reports and returns non-zero on failure. */
int clab_scene_lammps_build(clab_scene_ctx *c, const clab_scene_lammps *l, clab_world *w);

/* Check the raw text for what libconfig 1.5 gets wrong: decimal integer literals beyond
 * 32 bits (silently wrapped modulo 2^32), @include directives (they would read other
 * files), a string where the grammar allows none (libconfig leaks its text) and nesting
 * deeper than 64 levels. Returns the number of problems reported; the text is handed to
 * libconfig only when there is none. */
int clab_scene_prescan(clab_scene_ctx *c, const char *text);

/* ---- what scene.c and scene_joints.c read from a file, before the world exists ---- */

/* a body as read from the file, before the world exists */
typedef struct body_src {
    clab_body_def def;                /* everything but the material index */
    char material[CLAB_NAME_LEN];     /* material name ("default" when absent) */
    unsigned line, material_line;     /* lines of the body group and of its material key */
    int has_mass;                     /* mass or density given */
    int driven, loaded;               /* a motion or servo given; a force or torque given */
    clab_motion motion;               /* its motion (table: points at table) */
    double *table;                    /* the motion table read (owned), or NULL */
    clab_vec3 force, torque;          /* the load, world frame [N], [N m] */
} body_src;

/* a joint as read from the file */
typedef struct joint_src {
    clab_joint_type type;
    char body_a[CLAB_NAME_LEN], body_b[CLAB_NAME_LEN];
    clab_vec3 pa, pb;  /* attachment points, world frame at t = 0 [m] */
    double length;     /* distance joints: 0 = the initial distance */
    unsigned line;
} joint_src;

/* everything read from a file */
typedef struct scene_src {
    clab_vec3 gravity;
    clab_periodic periodic; /* periodic boundaries, all off unless given */
    clab_scene_lammps lammps;    /* lammps_data: atoms from a LAMMPS data file */
    clab_material *mat; /* [nmat] */
    unsigned *mat_line; /* [nmat] */
    int nmat;
    body_src *body;     /* [nbody] */
    int nbody;
    joint_src *joint;   /* [njoint] */
    int njoint;
} scene_src;

/* a clab_scene_range from its bounds (open or closed) and unit */
clab_scene_range clab_scene_make_range(double lo, int lo_open, double hi, int hi_open, const char *unit);
/* the list setting key of root, checked to be a list; NULL when absent or wrong (an error when
 * required) */
const config_setting_t *clab_scene_get_list(clab_scene_ctx *c, const config_setting_t *root, const char *key,
                                            int required);
/* element i of list s (named key in messages), checked to be a group; NULL when it is not */
const config_setting_t *clab_scene_get_group_elem(clab_scene_ctx *c, const config_setting_t *s, const char *key, int i);
/* the error of a required field key missing from group g at path */
void clab_scene_missing(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *key,
                        const char *allowed);
/* a body's motion, servo, force and torque from its group g into b (scene_motion.c); b->def.fixed
 * set for a driven body. Called before the body's rules across fields */
void clab_scene_read_drive(clab_scene_ctx *c, const config_setting_t *g, const char *path, body_src *b);
/* the same applied to body i of the built world: CLAB_OK or the world's error in e */
int clab_scene_build_drive(clab_world *w, size_t i, const body_src *b, clab_error *e);
/* the joints list of root into src (scene_joints.c) */
void clab_scene_read_joints(clab_scene_ctx *c, const config_setting_t *root, scene_src *src);

#endif
