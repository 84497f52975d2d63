/* prepare.c: `contactlab prepare`: a dense or loose packing of N spheres in a cube by radius
 * growth (prepare_grow.c), saved for every method to start from (doc/measure.md):
 *   <out>/<name>.data   the spheres, a LAMMPS data file (atom_style sphere: id type diameter
 *                       density x y z), which LAMMPS reads too;
 *   <out>/<name>.cfg    a scene file: the material, the walls (planes) or periodic axes, the
 *                       spheres through lammps_data, a simulation group (penalty, half its
 *                       stable step): contactlab run <name>.cfg [--backend dvi ...];
 *   <out>/<name>-summary.csv  what was reached: solid fraction, largest overlap, p, Z, time. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prepare.h"

static void prepare_help(void)
{
    printf("usage: contactlab prepare [options]\n\n"
           "A packing of N spheres in a cube by radius growth: random non-overlapping small spheres,\n"
           "radii grown in stages to the target solid fraction while the penalty backend (Hertz-Mindlin,\n"
           "no gravity) relaxes them, then relaxed until the RMS speed is small. Friction off (--mu 0, the\n"
           "default) gives a dense sample (target 0.62-0.64), friction on a loose one (e.g. --mu 0.5\n"
           "--phi 0.57). Writes <out>/<name>.data (LAMMPS data file, atom_style sphere), <out>/<name>.cfg\n"
           "(a scene: walls or periodic axes, the spheres through lammps_data; contactlab run <name>.cfg\n"
           "under any backend starts every method from the same packing) and <out>/<name>-summary.csv,\n"
           "and prints the solid fraction reached, the largest overlap and the time.\n\n"
           "Options:\n"
           "  --n N            spheres (default 500)\n"
           "  --radius R       every radius [m] (default 0.0025: D = 5 mm)\n"
           "  --rmin R, --rmax R  radii uniform in [rmin, rmax] [m] instead\n"
           "  --phi X          target solid fraction, 0.05 to 0.70 (default 0.62)\n"
           "  --mu X           friction while growing (default 0: dense)\n"
           "  --density X      [kg/m^3] (default 2500)\n"
           "  --E X            Young's modulus [Pa] (default 1e8; nu 0.3, cor 0.3)\n"
           "  --periodic AXES  periodic axes instead of walls, e.g. xy (default none: six walls)\n"
           "  --seed N         seed of GSL's mt19937 for the radii and places (default 1)\n"
           "  --stages N       growth stages (default 40)\n"
           "  --relax-steps N  steps per stage (default 400)\n"
           "  --final-steps N  steps of the final relaxation at most (default 40000)\n"
           "  --vtol V         the final relaxation ends at an RMS speed below V [m/s] (default 1e-4)\n"
           "  --name NAME      file names (default packing)\n"
           "  --out DIR        output folder (default out/prepare)\n"
           "  --force          replace <name>.data, .cfg and -summary.csv\n"
           "  --no-progress    no progress bar\n");
}

/* the spheres as a LAMMPS data file */
static int write_data(const char *path, const clab_world *w, const xp_pack_params *p, double L, int force)
{
    FILE *f = fopen(path, force ? "w" : "wx");
    if (!f) {
        fprintf(stderr, "contactlab prepare: cannot write %s%s\n", path, force ? "" : " (exists? --force replaces it)");
        return -1;
    }
    fprintf(f, "contactlab prepare: %ld spheres, solid fraction target %.17g, seed %lu\n\n", p->n, p->phi, p->seed);
    fprintf(f, "%ld atoms\n1 atom types\n\n", p->n);
    fprintf(f, "0 %.17g xlo xhi\n0 %.17g ylo yhi\n0 %.17g zlo zhi\n\nAtoms # sphere\n\n", L, L, L);
    long id = 1;
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->fixed || b->shape.type != CLAB_SHAPE_SPHERE) continue;
        fprintf(f, "%ld 1 %.17g %.17g %.17g %.17g %.17g\n", id++, 2.0 * b->shape.radius, p->density, b->r.x, b->r.y,
                b->r.z);
    }
    return fclose(f) ? -1 : 0;
}

/* a float for libconfig: %.17g with a decimal point (a bare "0" is an integer there) */
static const char *num(char *buf, double x)
{
    snprintf(buf, 40, "%.17g", x);
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");
    return buf;
}

/* the scene: material, walls, the data file, a simulation group */
static int write_scene(const char *path, const char *data, const clab_world *w, const xp_pack_params *p,
                       const xp_pack_result *r, int force)
{
    FILE *f = fopen(path, force ? "w" : "wx");
    if (!f) {
        fprintf(stderr, "contactlab prepare: cannot write %s%s\n", path, force ? "" : " (exists? --force replaces it)");
        return -1;
    }
    fprintf(f, "# %s: a packing by contactlab prepare (radius growth, doc/measure.md): %ld spheres, radii\n"
               "# [%g, %g] m, cube side %.17g m, solid fraction %.6f (target %g), friction while growing %g,\n"
               "# seed %lu. The spheres are in %s.\n",
            path, p->n, p->rmin, p->rmax, r->L, r->phi, p->phi, p->mu, p->seed, data);
    fprintf(f, "description = \"%ld spheres packed to solid fraction %.4f by radius growth\";\n", p->n, r->phi);
    fprintf(f, "gravity = [0.0, 0.0, -9.81];\n\n");
    char v1[48], v2[48];
    fprintf(f, "materials = ( { name = \"grain\"; mu = %s; E = %s; nu = 0.3; cor = 0.3; } );\n\n",
            num(v1, p->mu > 0.0 ? p->mu : 0.5), num(v2, p->E));
    fprintf(f, "bodies = (\n");
    int first = 1;
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->shape.type != CLAB_SHAPE_PLANE) continue;
        char v[7][48];
        fprintf(f, "%s  { name = \"%s\"; shape = \"plane\"; fixed = true; material = \"grain\"; position = [%s, "
                   "%s, %s]; orientation = [%s, %s, %s, %s]; }",
                first ? "" : ",\n", clab_world_body_name(w, i), num(v[0], b->r.x), num(v[1], b->r.y),
                num(v[2], b->r.z), num(v[3], b->e.e0), num(v[4], b->e.e1), num(v[5], b->e.e2), num(v[6], b->e.e3));
        first = 0;
    }
    fprintf(f, "%s);\n\n", first ? "" : "\n");
    fprintf(f, "lammps_data = { file = \"%s\"; materials = [\"grain\"];", data);
    if (p->periodic[0] || p->periodic[1] || p->periodic[2]) {
        fprintf(f, " periodic = [");
        for (int k = 0, n = 0; k < 3; k++)
            if (p->periodic[k]) fprintf(f, "%s\"%c\"", n++ ? ", " : "", "xyz"[k]);
        fprintf(f, "];");
    }
    fprintf(f, " };\n\n");
    snprintf(v1, sizeof v1, "%.2e", r->h);
    fprintf(f, "simulation = { backend = \"penalty\"; h = %s; t_end = 0.01; output_every = 100; };\n", v1);
    return fclose(f) ? -1 : 0;
}

int xp_prepare(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"n", required_argument, 0, 'n'},          {"radius", required_argument, 0, 'r'},
        {"rmin", required_argument, 0, 'a'},       {"rmax", required_argument, 0, 'b'},
        {"phi", required_argument, 0, 'p'},        {"mu", required_argument, 0, 'u'},
        {"density", required_argument, 0, 'd'},   {"E", required_argument, 0, 'E'},
        {"periodic", required_argument, 0, 'P'},   {"seed", required_argument, 0, 's'},
        {"stages", required_argument, 0, 'g'},     {"relax-steps", required_argument, 0, 'x'},
        {"final-steps", required_argument, 0, 'F'}, {"vtol", required_argument, 0, 'v'},
        {"name", required_argument, 0, 'k'},       {"out", required_argument, 0, 'o'},
        {"force", no_argument, 0, 'f'},            {"no-progress", no_argument, 0, 'Q'},
        {"help", no_argument, 0, '?' + 256},       {0, 0, 0, 0}};
    xp_common c;
    xp_common_init(&c, "prepare", argc, argv);
    xp_pack_params p;
    xp_pack_defaults(&p);
    const char *name = "packing";
    int opt, rc = 2, rmin_given = 0, rmax_given = 0;
    long seed = 1;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (opt) {
        case '?' + 256: prepare_help(); rc = 0; goto out;
        case 'n': xp_parse_long("n", optarg, 2, 10000000L, &p.n); break;
        case 'r': if (!xp_parse_double("radius", optarg, 1e-9, 1e3, &p.rmin)) p.rmax = p.rmin; break;
        case 'a': rmin_given = !xp_parse_double("rmin", optarg, 1e-9, 1e3, &p.rmin); break;
        case 'b': rmax_given = !xp_parse_double("rmax", optarg, 1e-9, 1e3, &p.rmax); break;
        case 'p': xp_parse_double("phi", optarg, 0.05, 0.70, &p.phi); break;
        case 'u': xp_parse_double("mu", optarg, 0.0, 10.0, &p.mu); break;
        case 'd': xp_parse_double("density", optarg, 1e-6, 1e6, &p.density); break;
        case 'E': xp_parse_double("E", optarg, 1e3, 1e13, &p.E); break;
        case 's': if (!xp_parse_long("seed", optarg, 0, 4294967295L, &seed)) p.seed = (unsigned long)seed; break;
        case 'g': xp_parse_long("stages", optarg, 1, 100000, &p.stages); break;
        case 'x': xp_parse_long("relax-steps", optarg, 1, 100000000L, &p.relax_steps); break;
        case 'F': xp_parse_long("final-steps", optarg, 0, 1000000000L, &p.final_steps); break;
        case 'v': xp_parse_double("vtol", optarg, 0.0, 1e3, &p.vtol); break;
        case 'k':
            if (!optarg[0] || strpbrk(optarg, "/\"\\") || strlen(optarg) > 200)
                xp_option_error("contactlab prepare: --name '%s': give a file name without / or quotes\n", optarg);
            name = optarg;
            break;
        case 'P':
            for (const char *q = optarg; *q; q++) {
                if (*q < 'x' || *q > 'z') {
                    xp_option_error("contactlab prepare: --periodic '%s': give axes among x, y, z (e.g. xy)\n", optarg);
                    break;
                }
                p.periodic[*q - 'x'] = 1;
            }
            break;
        case 'o': case 'f': case 'Q': xp_common_option(&c, opt, optarg); break;
        default: xp_option_unknown(); break;
        }
    }
    if (rmin_given != rmax_given) xp_option_error("contactlab prepare: give --rmin and --rmax together\n");
    if (p.rmin > p.rmax) xp_option_error("contactlab prepare: --rmin %g > --rmax %g\n", p.rmin, p.rmax);
    if (optind != argc) xp_option_error("contactlab prepare: unexpected argument '%s'\n", argv[optind]);
    if (xp_option_errors("contactlab prepare")) goto out;
    rc = 1;
    if (xp_out_dir(&c)) goto out;
    char dpath[1300], spath[1300], sumpath[1300], file[300], dfile[300];
    snprintf(dfile, sizeof dfile, "%s.data", name);
    xp_path(&c, dfile, dpath, sizeof dpath);
    snprintf(file, sizeof file, "%s.cfg", name);
    xp_path(&c, file, spath, sizeof spath);
    snprintf(file, sizeof file, "%s-summary.csv", name);
    xp_path(&c, file, sumpath, sizeof sumpath);
    xp_pack_result r;
    memset(&r, 0, sizeof r);
    clab_world *w = xp_pack_grow(&c, &p, &r);
    if (!w) goto out;
    printf("prepare: %ld spheres, radii [%g, %g] m, cube side %.6g m, mu %g: solid fraction %.5f (target %.5f, "
           "%+.2f%%), largest overlap %.3g m (%.3g%% of the mean radius), p %.4g Pa, Z %.3f, Z_m %.3f, RMS speed "
           "%.2g m/s, %ld steps in %.1f s\n",
           p.n, p.rmin, p.rmax, r.L, p.mu, r.phi, p.phi, 100.0 * (r.phi - p.phi) / p.phi, r.max_overlap,
           100.0 * r.max_overlap / r.mean_radius, r.p, r.Z, r.Z_m, r.rms_speed, r.steps, r.wall);
    rc = write_data(dpath, w, &p, r.L, c.force) || write_scene(spath, dfile, w, &p, &r, c.force);
    if (!rc) {
        static const char *const cols[] = {"n", "rmin_m", "rmax_m", "mu", "seed", "side_m", "phi_target",
                                           "solid_fraction", "max_overlap_m", "p_Pa", "Z", "Z_m", "rms_speed_m_s",
                                           "steps", "wall_s"};
        enum { NCOL = sizeof cols / sizeof cols[0] };
        clab_options meta;
        clab_options_init(&meta);
        clab_options_set(&meta, "method", "radius growth with the penalty backend (Hertz-Mindlin), no gravity", NULL);
        clab_options_set(&meta, "Z", "force-carrying contacts per sphere; Z_m without rattlers (fewer than 4 "
                                     "contacts when mu = 0, else 2, removed iteratively)", NULL);
        clab_error err;
        clab_csv *f = clab_csv_open(sumpath, c.force ? CLAB_CSV_OVERWRITE : 0, &err);
        double row[NCOL] = {(double)p.n, p.rmin, p.rmax, p.mu, (double)p.seed, r.L, p.phi, r.phi, r.max_overlap,
                            r.p, r.Z, r.Z_m, r.rms_speed, (double)r.steps, r.wall};
        if (!f || clab_csv_meta(f, &meta, c.argc, c.argv, &err) || clab_csv_header(f, cols, NCOL, &err) ||
            clab_csv_row(f, row, NCOL, &err) || clab_csv_close(f, &err)) {
            fprintf(stderr, "contactlab prepare: %s\n", err.msg);
            rc = 1;
        }
        clab_options_free(&meta);
    }
    if (!rc) printf("prepare: wrote %s, %s, %s; run it with: contactlab run %s [--backend dvi]\n", dpath, spath, sumpath,
                    spath);
    clab_world_destroy(w);
out:
    xp_common_free(&c);
    return rc;
}
