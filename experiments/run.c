/* run.c: `contactlab run SCENE`: any scene file under any backend.
 * Writes <name>-<backend>-bodies.csv (long format: one row per body and output step),
 * <name>-<backend>-steps.csv (one row per output step: energy, contacts, solver figures)
 * and optionally VTK frames of the spheres for ParaView. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_csv.h"
#include "clab_scene.h"
#include "clab_vtk.h"
#include "xp.h"

static void run_help(void)
{
    printf("usage: contactlab run SCENE.cfg [options]\n\n"
           "Run a scene file (format: doc/scene-format.md) under its backend, or the one given.\n"
           "Writes <scene>-<backend>-bodies.csv (t, body, position, velocity, angular velocity),\n"
           "<scene>-<backend>-steps.csv (t, kinetic energy, contacts, solver iterations and residual)\n"
           "and, with --vtk, ParaView frames of the spheres.\n\n"
           "Options:\n"
           "  --backend NAME    override simulation.backend (penalty, dvi)\n"
           "  --h S             override simulation.h [s]\n"
           "  --t-end S         override simulation.t_end [s]\n"
           "  --every N         override simulation.output_every [steps]\n"
           "  --opt K=V         backend option, overriding the scene's (repeatable)\n"
           "  --vtk N           write a VTK frame every N output rows (default 0: none)\n"
           "  --out DIR         output folder (default out/run)\n"
           "  --force           overwrite results already in the output folder\n"
           "  --no-progress     no progress bar\n");
}

static const char *base_name(const char *path, char *buf, size_t n)
{
    const char *b = strrchr(path, '/');
    snprintf(buf, n, "%s", b ? b + 1 : path);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf) *dot = '\0';
    return buf;
}

int xp_run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"backend", required_argument, 0, 'b'}, {"h", required_argument, 0, 'H'},
        {"t-end", required_argument, 0, 'T'},   {"every", required_argument, 0, 'e'},
        {"opt", required_argument, 0, 'O'},     {"vtk", required_argument, 0, 'v'},
        {"out", required_argument, 0, 'o'},     {"force", no_argument, 0, 'f'},
        {"no-progress", no_argument, 0, 'Q'},   {"help", no_argument, 0, '?' + 256},
        {0, 0, 0, 0}};
    xp_common c;
    xp_common_init(&c, "run", argc, argv);
    clab_options cli;
    clab_options_init(&cli);
    clab_scene sc;
    clab_scene_init(&sc);
    clab_error err;
    char backend[CLAB_NAME_LEN] = "";
    double h = 0.0, t_end = 0.0, every = 0.0, vtk = 0.0;
    int rc = 2, opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        int bad = 0;
        switch (opt) {
        case '?' + 256: run_help(); rc = 0; goto out;
        case 'b': snprintf(backend, sizeof backend, "%s", optarg); break;
        case 'H': bad = xp_parse_double("h", optarg, 1e-12, 10.0, &h); break;
        case 'T': bad = xp_parse_double("t-end", optarg, 1e-12, 1e9, &t_end); break;
        case 'e': bad = xp_parse_double("every", optarg, 1, 1e12, &every); break;
        case 'v': bad = xp_parse_double("vtk", optarg, 0, 1e12, &vtk); break;
        case 'O':
            if (clab_options_parse(&cli, optarg, "--opt", &err)) {
                fprintf(stderr, "contactlab run: %s\n", err.msg);
                bad = 1;
            }
            break;
        case 'o': case 'f': case 'Q':
            if (xp_common_option(&c, opt, optarg) < 0) bad = 1;
            break;
        default: fprintf(stderr, "contactlab run: see --help\n"); goto out;
        }
        if (bad) goto out;
    }
    if (optind != argc - 1) {
        fprintf(stderr, "contactlab run: give exactly one scene file (see --help)\n");
        goto out;
    }
    rc = 1;
    const char *path = argv[optind];
    if (clab_scene_load(path, &sc, &err)) {
        fprintf(stderr, "contactlab run: %s\n", err.msg);
        goto out;
    }
    if (backend[0]) snprintf(sc.backend, sizeof sc.backend, "%s", backend);
    if (h > 0) sc.h = h;
    if (t_end > 0) sc.t_end = t_end;
    if (every > 0) sc.output_every = (long)every;
    clab_options_merge(&sc.options, &cli);
    if (!(sc.h > 0.0) || !(sc.t_end > 0.0)) {
        fprintf(stderr, "contactlab run: %s: simulation.h and simulation.t_end must be set (or --h, --t-end)\n", path);
        goto out;
    }
    clab_sim *s = clab_sim_create(sc.world, sc.backend, sc.h, &sc.options, &err);
    if (!s) {
        fprintf(stderr, "contactlab run: %s: %s\n", path, err.msg);
        goto out;
    }
    if (s->type->stable_step) {
        double hs = s->type->stable_step(s->self, sc.world);
        if (hs > 0.0 && sc.h > 0.2 * hs)
            fprintf(stderr, "contactlab run: warning: h = %g s exceeds 0.2 x the %s backend's stable step %g s; "
                            "expect an inaccurate or exploding run\n", sc.h, s->type->name, hs);
    }
    if (xp_mkdir_p(c.out)) {
        fprintf(stderr, "contactlab run: cannot create the output folder %s\n", c.out);
        clab_sim_destroy(s);
        goto out;
    }

    char name[256], file[600], bpath[2048], spath[2048];
    base_name(path, name, sizeof name);
    snprintf(file, sizeof file, "%s-%s-bodies.csv", name, sc.backend);
    xp_path(&c, file, bpath, sizeof bpath);
    snprintf(file, sizeof file, "%s-%s-steps.csv", name, sc.backend);
    xp_path(&c, file, spath, sizeof spath);
    clab_options meta;
    clab_options_init(&meta);
    clab_scene_meta(&sc, &meta);
    clab_sim_meta(s, &meta);
    static const char *const bcols[] = {"t_s", "body", "x_m", "y_m", "z_m", "vx_m_s", "vy_m_s", "vz_m_s",
                                        "wx_rad_s", "wy_rad_s", "wz_rad_s", "e0", "e1", "e2", "e3"};
    static const char *const scols[] = {"t_s", "step", "kinetic_energy_J", "contacts", "max_penetration_m",
                                        "iterations", "residual", "maxiter_hits"};
    enum { NB = sizeof bcols / sizeof bcols[0], NS = sizeof scols / sizeof scols[0] };
    int flags = c.force ? CLAB_CSV_OVERWRITE : 0;
    clab_csv *fb = clab_csv_open(bpath, flags, &err);
    clab_csv *fs = fb ? clab_csv_open(spath, flags, &err) : NULL;
    if (!fb || !fs || clab_csv_meta(fb, &meta, c.argc, c.argv, &err) || clab_csv_header(fb, bcols, NB, &err) ||
        clab_csv_meta(fs, &meta, c.argc, c.argv, &err) || clab_csv_header(fs, scols, NS, &err)) {
        fprintf(stderr, "contactlab run: %s\n", err.msg);
        clab_csv_close(fb, NULL);
        clab_csv_close(fs, NULL);
        clab_options_free(&meta);
        clab_sim_destroy(s);
        goto out;
    }
    clab_options_free(&meta);
    clab_csv_set_flush_every(fb, (long)sc.world->nbodies); /* one write per output step */

    long nsteps = (long)ceil(sc.t_end / sc.h - 1e-9), nout = 0;
    long every_n = sc.output_every > 0 ? sc.output_every : 1;
    xp_progress pb;
    char label[400];
    snprintf(label, sizeof label, "run %s (%s)", name, sc.backend);
    xp_progress_begin(&pb, &c, label);
    rc = 0;
    for (long k = 0; k <= nsteps; k++) {
        if (k % every_n == 0 || k == nsteps) {
            clab_world *w = sc.world;
            for (size_t i = 0; i < w->nbodies && rc == 0; i++) {
                const clab_body *b = &w->bodies[i];
                clab_vec3 om = clab_body_omega_world(b);
                double row[NB] = {w->t, (double)i, b->r.x, b->r.y, b->r.z, b->rdot.x, b->rdot.y, b->rdot.z,
                                  om.x, om.y, om.z, b->e.e0, b->e.e1, b->e.e2, b->e.e3};
                if (clab_csv_row(fb, row, NB, &err)) rc = 1;
            }
            clab_solver_stats st;
            memset(&st, 0, sizeof st);
            if (s->type->stats) s->type->stats(s->self, &st);
            double pen = 0.0;
            for (size_t i = 0; i < s->contacts.n; i++) pen = fmax(pen, -s->contacts.c[i].phi);
            double srow[NS] = {w->t, (double)w->step, clab_world_kinetic_energy(w), (double)s->contacts.n, pen,
                               (double)st.iterations, st.residual, (double)st.maxiter_hits};
            if (rc == 0 && clab_csv_row(fs, srow, NS, &err)) rc = 1;
            if (rc == 0 && vtk > 0 && nout % (long)vtk == 0) {
                char vp[2048], prefix[400];
                snprintf(prefix, sizeof prefix, "%s-%s", name, sc.backend);
                if (clab_vtk_frame_path(vp, sizeof vp, c.out, prefix, nout / (long)vtk, &err) ||
                    clab_vtk_write_spheres(w, vp, c.force ? CLAB_VTK_OVERWRITE : 0, &err))
                    rc = 1;
            }
            nout++;
            if (rc) {
                fprintf(stderr, "contactlab run: %s\n", err.msg);
                break;
            }
            xp_progress_update(&pb, (double)k / (double)nsteps);
        }
        if (k == nsteps) break;
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "contactlab run: %s: step %ld: %s\n", path, k + 1, err.msg);
            rc = 1;
            break;
        }
    }
    xp_progress_end(&pb);
    if (clab_csv_close(fb, &err) && rc == 0) { fprintf(stderr, "contactlab run: %s\n", err.msg); rc = 1; }
    if (clab_csv_close(fs, &err) && rc == 0) { fprintf(stderr, "contactlab run: %s\n", err.msg); rc = 1; }
    if (rc == 0) printf("%s: %ld steps of %g s under %s; CSVs: %s, %s\n", path, nsteps, sc.h, sc.backend, bpath, spath);
    else printf("the rows written so far are complete: %s, %s\n", bpath, spath);
    clab_sim_destroy(s);
out:
    clab_scene_free(&sc);
    clab_options_free(&cli);
    xp_common_free(&c);
    return rc;
}
