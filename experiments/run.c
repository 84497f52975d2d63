/* run.c: `contactlab run SCENE`: any scene file under any backend.
 * Writes <name>-<backend>-bodies.csv (long format: one row per body and output step),
 * <name>-<backend>-body-names.csv (the bodies' names by index), <name>-<backend>-steps.csv
 * (one row per output step: energy, contacts and, for a rigid-contact backend, the solver's
 * figures), <name>-<backend>-summary.csv (how the run ended), a figure of the steps series
 * (run.gp) and optionally VTK frames of the spheres and of the other shapes for ParaView.
 *
 * Reliability (doc/reliability.md): the state is kept in memory at every output step; a
 * step that fails (a non-finite or too fast state, a solver failure) stops the run with the
 * CSVs flushed and that last good state written as a checkpoint. --checkpoint-every N
 * writes one every N steps; SIGINT or SIGTERM (and --stop-after) stop at the end of a step
 * with a checkpoint; --restart FILE cuts the CSVs back to the checkpoint and continues them,
 * byte-identical to an uninterrupted run. */
#include "config.h"

#include <math.h>
#include <signal.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "clab_checkpoint.h"
#include "clab_csv.h"
#include "clab_scene.h"
#include "clab_vtk.h"
#include "run_contacts.h"
#include "fclib_xp.h"
#include "xp.h"

#define RUN_TAG "contactlab run 1: bodies, steps" /* checkpoint tag: who wrote it, which series */
#define RUN_STOPPED 3                              /* exit status of --stop-after */

static void run_help(void)
{
    printf("usage: contactlab run SCENE.cfg [options]\n\n"
           "Run a scene file (format: doc/scene-format.md) under its backend, or the one given.\n"
           "Writes <scene>-<backend>-bodies.csv (t, body index, position, velocity, angular velocity in\n"
           "the world frame, orientation quaternion), <scene>-<backend>-body-names.csv (index, name and\n"
           "shape of each body), <scene>-<backend>-steps.csv (t, kinetic energy, contacts, deepest\n"
           "penetration; for a rigid-contact backend also the solver's iterations, residual [m/s] and\n"
           "the running count of solves stopped at the iteration limit), <scene>-<backend>-summary.csv\n"
           "(steps, wall time, final kinetic energy, deepest penetration, how the run ended; printed\n"
           "too), the figure <scene>-<backend>-run.png/.pdf of the steps series (gnuplot run.gp) and,\n"
           "with --vtk, ParaView frames: <scene>-<backend>_NNNNNN.vtk of the spheres and\n"
           "<scene>-<backend>_shapes_NNNNNN.vtk of the boxes and planes.\n\n"
           "Options:\n"
           "  --backend NAME        override simulation.backend (penalty, dvi)\n"
           "  --h S                 override simulation.h [s]\n"
           "  --t-end S             override simulation.t_end [s]\n"
           "  --every N             override simulation.output_every [steps]\n"
           "  --opt K=V             backend option, overriding the scene's (repeatable); vmax=V [m/s]\n"
           "                        is the speed bound of the runtime guard (default 1e4; 0: no speed\n"
           "                        bound, the energy, penetration and non-finite checks stay on);\n"
           "                        guard_energy, guard_penetration, guard_every tune the physics\n"
           "                        guard (doc/reliability.md); sort=N\n"
           "                        renumbers the bodies into cell order every N steps (locality for\n"
           "                        large scenes; the CSVs, VTK frames and checkpoints keep the scene's order)\n"
           "  --vtk N               write a VTK frame every N output rows (default 0: none)\n");
    xp_run_extra_help();
    xp_fclib_help();
    printf(
           "  --out DIR             output folder (default out/run)\n"
           "  --force               replace this scene's and backend's earlier results in the output\n"
           "                        folder (its CSVs, frames, figures and checkpoint are removed first)\n"
           "  --no-plot             no figure (the command to draw it is printed)\n"
           "  --no-progress         no progress bar\n"
           "  --checkpoint-every N  write a checkpoint every N steps to <out>/<scene>-<backend>.ckpt\n"
           "  --restart FILE        continue from a checkpoint: the CSVs are cut back to it and\n"
           "                        continued, byte-identical to an uninterrupted run when given the\n"
           "                        same scene, --out and options as the interrupted run; other values\n"
           "                        (--h, --t-end, --every, --opt) continue too, and the CSVs' metadata\n"
           "                        is rewritten to this run's, with the old values as restart.N.* lines\n"
           "  --stop-after N        stop after step N as if interrupted (checkpoint, exit status 3),\n"
           "                        e.g. to fit a batch queue's time limit\n"
           "  --allow-unstable      run a step above the backend's stable step (refused otherwise)\n"
           "  --allow-overlap       accept initial overlaps beyond 0.1 x the smaller radius (refused\n"
           "                        otherwise; the same as --opt allow_overlap=1)\n\n"
           "SIGINT (Ctrl-C) or SIGTERM stops the run at the end of the current step: the CSVs are\n"
           "flushed, a checkpoint is written and the command to resume is printed (a second one\n"
           "ends the program at once). The initial state is checked before any row is written. A\n"
           "step that fails (NaN, infinity, a speed above vmax, an energy gain no force can supply,\n"
           "a penetration beyond half the smaller radius, a solver failure) stops the run with a\n"
           "message naming the body, step and time; the last good state (the last output step) is\n"
           "saved as a checkpoint. A mean of more than 24 contacts per moving sphere is warned of.\n"
           "The metadata's command line records the options that determine the results (not --out,\n"
           "--force, --vtk, --no-plot, --no-progress or the checkpoint options), so runs compare byte\n"
           "for byte.\n\n"
           "Exit status: 0 done, 1 failed (a refused scene or step, the guard stopping the run),\n"
           "2 bad command line, 3 stopped by --stop-after, 128 + signal number when stopped by a\n"
           "signal (130 SIGINT, 143 SIGTERM).\n");
}

static const char *base_name(const char *path, char *buf, size_t n)
{
    const char *b = strrchr(path, '/');
    snprintf(buf, n, "%s", b ? b + 1 : path);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf) *dot = '\0';
    return buf;
}

/* how to continue: the result-determining command plus --out and --restart */
static void print_resume(FILE *f, const char *lead, char *const *keep, int nkeep, const char *out, int out_given,
                         long ckpt_every, const char *ckpt)
{
    fputs(lead, f);
    for (int i = 0; i < nkeep; i++) {
        if (i) fputc(' ', f);
        xp_shell_word(f, keep[i]);
    }
    if (out_given) {
        fputs(" --out ", f);
        xp_shell_word(f, out);
    }
    if (ckpt_every > 0) fprintf(f, " --checkpoint-every %ld", ckpt_every);
    fputs(" --restart ", f);
    xp_shell_word(f, ckpt);
    fputc('\n', f);
}

/* the options that determine the results, as the metadata records them */
static const char *result_flag(int opt)
{
    switch (opt) {
    case 'b': return "--backend";
    case 'H': return "--h";
    case 'T': return "--t-end";
    case 'e': return "--every";
    default: return "--opt";
    }
}

/* the guard's crowding warning, once a run */
static void run_crowding(const clab_sim *s, int *warned)
{
    if (*warned || s->guard.crowded_step < 0) return;
    *warned = 1;
    fprintf(stderr, "contactlab run: warning: %.1f contacts per moving sphere at step %ld, more than %g (twice "
                    "the kissing number 12 of equal spheres): the bodies overlap or crowd unphysically, and each "
                    "step costs as many contacts\n", s->guard.crowding, s->guard.crowded_step, CLAB_GUARD_CROWDED);
}

/* ---- the runtime guard before the run: the step count (clab_sim_step_count), a step above
 * the backend's stable step (refused unless --allow-unstable; a stable step suggested, rounded
 * down to two significant digits), the initial state and placement (clab_sim_check). Prints
 * what is wrong; 0 when the run may start. ---- */
static int run_guard_start(clab_sim *s, const char *path, double t_end, int allow_unstable, long *nsteps)
{
    clab_error err;
    if (clab_sim_step_count(t_end, s->h, nsteps, &err)) {
        fprintf(stderr, "contactlab run: %s: %s\n", path, err.msg);
        return 1;
    }
    double hs = s->type->stable_step ? s->type->stable_step(s->self, s->world) : 0.0;
    if (hs > 0.0 && s->h > hs) {
        double unit = pow(10.0, floor(log10(hs)) - 1.0), hint = floor(hs / unit) * unit;
        if (hint > hs) hint -= unit; /* rounding of the division */
        if (!allow_unstable) {
            fprintf(stderr, "contactlab run: %s: h = %g s is above the %s backend's stable step %g s: the run would "
                            "be inaccurate or blow up; use --h %.2g (or smaller), or --allow-unstable to run it "
                            "anyway\n", path, s->h, s->type->name, hs, hint);
            return 1;
        }
        fprintf(stderr, "contactlab run: warning: h = %g s is above the %s backend's stable step %g s (a stable step: "
                        "%.2g s); running it as --allow-unstable asks\n", s->h, s->type->name, hs, hint);
    }
    if (clab_sim_check(s, &err)) {
        fprintf(stderr, "contactlab run: %s: the initial state is refused: %s\n", path, err.msg);
        return 1;
    }
    int warned = 0;
    run_crowding(s, &warned);
    return 0;
}

static double run_wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *signal_name(int sig) { return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal"; }

int xp_run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"backend", required_argument, 0, 'b'},   {"h", required_argument, 0, 'H'},
        {"t-end", required_argument, 0, 'T'},     {"every", required_argument, 0, 'e'},
        {"opt", required_argument, 0, 'O'},       {"vtk", required_argument, 0, 'v'},
        {"out", required_argument, 0, 'o'},       {"force", no_argument, 0, 'f'},
        {"no-progress", no_argument, 0, 'Q'},     {"checkpoint-every", required_argument, 0, 'C'},
        {"restart", required_argument, 0, 'R'},   {"stop-after", required_argument, 0, 'S'},
        {"no-plot", no_argument, 0, 'N'},         {"allow-unstable", no_argument, 0, 'U'},
        {"allow-overlap", no_argument, 0, 'A'},  {"help", no_argument, 0, '?' + 256},
        XP_RUN_EXTRA_LONGOPTS,                    {"fclib-dir", required_argument, 0, 'F' + 512},
        {"fclib-every", required_argument, 0, 'E' + 512}, {0, 0, 0, 0}};
    xp_common c;
    xp_common_init(&c, "run", argc, argv);
    clab_options cli;
    clab_options_init(&cli);
    clab_scene sc;
    clab_scene_init(&sc);
    clab_error err;
    char backend[CLAB_NAME_LEN] = "";
    const char *restart = NULL;
    double h = 0.0, t_end = 0.0;
    long every = 0, vtk = 0, ckpt_every = 0, stop_after = 0;
    int rc = 2, opt, out_given = 0, allow_unstable = 0;
    xp_run_extra extra; /* --contacts, --measure (run_contacts.c) */
    xp_run_extra_init(&extra);
    xp_fclib_export fcx = {NULL, 1, "run", 0, 0}; /* --fclib-dir, --fclib-every (run_fclib.c) */
    /* the command line as it determines the results: contactlab run [options] SCENE */
    char **keep = calloc((size_t)argc + 4, sizeof *keep);
    int nkeep = 0;
    if (!keep) {
        fprintf(stderr, "contactlab run: out of memory\n");
        return 1;
    }
    keep[nkeep++] = "contactlab";
    keep[nkeep++] = "run";
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        int bad = 0, result = 1; /* result: the option changes what is computed or written */
        switch (opt) {
        case '?' + 256: run_help(); rc = 0; goto out;
        case 'b':
            if (strlen(optarg) >= sizeof backend || !optarg[0]) {
                xp_option_error("contactlab run: --backend '%.40s%s' is %s; allowed: penalty, dvi (or leave "
                                "--backend out for the scene's)\n", optarg, optarg[0] ? "..." : "",
                                optarg[0] ? "too long" : "empty");
                bad = 1;
            }
            snprintf(backend, sizeof backend, "%s", optarg);
            break;
        case 'H': bad = xp_parse_double("h", optarg, 1e-12, 10.0, &h); break;
        case 'T': bad = xp_parse_double("t-end", optarg, 1e-12, 1e9, &t_end); break;
        case 'e': bad = xp_parse_long("every", optarg, 1, 1000000000L, &every); break;
        case 'v': bad = xp_parse_long("vtk", optarg, 0, 1000000000L, &vtk), result = 0; break;
        case 'C': bad = xp_parse_long("checkpoint-every", optarg, 1, 1000000000000L, &ckpt_every), result = 0; break;
        case 'S': bad = xp_parse_long("stop-after", optarg, 1, 1000000000000L, &stop_after), result = 0; break;
        case 'R': restart = optarg, result = 0; break;
        case 'U': allow_unstable = 1; break; /* (the guard's flags: kept in the command line, no value) */
        case 'A':
            if (clab_options_parse(&cli, "allow_overlap=1", "--allow-overlap", &err)) bad = 1;
            break;
        case 'O':
            if (clab_options_parse(&cli, optarg, "--opt", &err)) {
                xp_option_error("contactlab run: %s\n", err.msg);
                bad = 1;
            }
            break;
        case 'o': case 'f': case 'Q': case 'N':
            if (xp_common_option(&c, opt, optarg) < 0) bad = 1;
            out_given |= opt == 'o';
            result = 0;
            break;
        case 'F' + 512: fcx.dir = optarg, result = 0; break;
        case 'E' + 512: bad = xp_parse_long("fclib-every", optarg, 1, 1000000000L, &fcx.every), result = 0; break;
        default:
            if ((bad = xp_run_extra_option(&extra, opt, optarg)) == 0) xp_option_unknown(), bad = 1;
            else bad = bad < 0, result = 0; /* (their own CSVs' metadata records them) */
            break;
        }
        if (bad) continue; /* reported and counted: every problem of the command line is */
        if (opt == 'U' || opt == 'A') keep[nkeep++] = opt == 'U' ? "--allow-unstable" : "--allow-overlap";
        else if (result) {
            keep[nkeep++] = (char *)result_flag(opt);
            keep[nkeep++] = optarg;
        }
    }
    if (optind != argc - 1)
        xp_option_error("contactlab run: give exactly one scene file (%d given; see --help)\n", argc - optind);
    if (restart && xp_run_extra_on(&extra))
        xp_option_error("contactlab run: --contacts and --measure do not continue a run: leave them out with "
                        "--restart\n");
    if (xp_option_errors("contactlab run")) goto out;
    rc = 1;
    const char *path = argv[optind];
    keep[nkeep++] = (char *)path;
    if (clab_scene_load(path, &sc, &err)) {
        fprintf(stderr, "contactlab run: %s\n", err.msg);
        goto out;
    }
    if (backend[0]) snprintf(sc.backend, sizeof sc.backend, "%s", backend);
    if (h > 0) sc.h = h;
    if (t_end > 0) sc.t_end = t_end;
    if (every > 0) sc.output_every = every;
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
    /* ---- the runtime guard's refusals before any output: the step count, a step above the
     * stable step, the initial state and placement (clab_sim_check) ---- */
    long nsteps = 0;
    if (run_guard_start(s, path, sc.t_end, allow_unstable, &nsteps)) {
        clab_sim_destroy(s);
        goto out;
    }
    if (xp_run_extra_check(&extra, sc.world, &err)) {
        fprintf(stderr, "contactlab run: %s: %s\n", path, err.msg);
        clab_sim_destroy(s);
        goto out;
    }
    if (xp_out_dir(&c)) {
        clab_sim_destroy(s);
        goto out;
    }

    char name[256], prefix[400], file[600], bpath[2048], spath[2048], cpath[2048], npath[2048], sumpath[2048];
    base_name(path, name, sizeof name);
    snprintf(prefix, sizeof prefix, "%s-%s", name, sc.backend);
    snprintf(file, sizeof file, "%s-bodies.csv", prefix);
    xp_path(&c, file, bpath, sizeof bpath);
    snprintf(file, sizeof file, "%s-steps.csv", prefix);
    xp_path(&c, file, spath, sizeof spath);
    snprintf(file, sizeof file, "%s.ckpt", prefix);
    xp_path(&c, file, cpath, sizeof cpath);
    snprintf(file, sizeof file, "%s-body-names.csv", prefix);
    xp_path(&c, file, npath, sizeof npath);
    snprintf(file, sizeof file, "%s-summary.csv", prefix);
    xp_path(&c, file, sumpath, sizeof sumpath);
    /* --force: this scene's and backend's earlier results go first, so no stale frame or series
     * stays beside this run's */
    if (c.force && !restart && xp_out_clean(&c, xp_run_own_file, prefix)) {
        clab_sim_destroy(s);
        goto out;
    }
    /* the angular velocity in the world frame (the body keeps it in its own: clab_body_omega_world) */
    static const char *const bcols[] = {"t_s", "body", "x_m", "y_m", "z_m", "vx_m_s", "vy_m_s", "vz_m_s",
                                        "wx_world_rad_s", "wy_world_rad_s", "wz_world_rad_s", "e0", "e1", "e2", "e3"};
    /* the solver's columns for rigid contacts only: a force law has no iterative solver */
    static const char *const scols[] = {"t_s", "step", "kinetic_energy_J", "contacts", "max_penetration_m",
                                        "iterations", "residual_m_s", "maxiter_hits"};
    const int solver_cols = s->type->default_envelope > 0.0;
    const size_t NS = solver_cols ? sizeof scols / sizeof scols[0] : 5;
    enum { NB = sizeof bcols / sizeof bcols[0], NSMAX = sizeof scols / sizeof scols[0] };
    clab_options meta;
    clab_options_init(&meta);
    clab_scene_meta(&sc, &meta);
    clab_sim_meta(s, &meta);
    clab_options_set(&meta, "body", "the body's index in the scene's order; names: <scene>-<backend>-body-names.csv",
                     NULL);
    clab_options_set(&meta, "wx_world_rad_s", "wx, wy, wz: angular velocity about the world axes", NULL);
    clab_options_set(&meta, "e0", "e0..e3: orientation quaternion, body frame to world frame", NULL);
    if (solver_cols)
        clab_options_set(&meta, "residual_m_s", "the last solve's residual: the natural map of the CCP scaled to a "
                                                "velocity (Tasora-Anitescu CCP)", NULL);
    xp_guard g;
    xp_guard_init(&g, cpath, RUN_TAG);
    double run_values[2] = {0.0, 0.0}; /* deepest penetration over the output steps, kinetic energy of the last */
    g.values = run_values;
    g.nvalues = 2;
    long old_every = 0; /* a restart: the interrupted run's output interval */
    clab_csv *fb = NULL, *fs = NULL;
    size_t *order = NULL; /* the outputs' order of the bodies (below) */
    clab_world *w = sc.world;

    if (restart) {
        /* continue a checkpointed run: its state, and its CSVs cut back to the checkpoint */
        clab_checkpoint_info info;
        if (xp_guard_restore(&g, s, restart, 2, &info, "contactlab run")) goto fail_open;
        if (!info.same_parameters) {
            fprintf(stderr, "contactlab run: warning: %s was written with %s (h = %g s); this run has h = %g s "
                            "and its own options, so its CSVs continue the interrupted run's but are not what one "
                            "uninterrupted run would give\n",
                    restart, info.h == sc.h ? "other backend options" : "another step size", info.h, sc.h);
            long rest = 0; /* (the step count's check: the rest of the run at the new step) */
            if (info.h != sc.h && clab_sim_step_count(fmax(sc.t_end - w->t, 0.0), sc.h, &rest, &err)) {
                fprintf(stderr, "contactlab run: cannot restart: %s\n", err.msg);
                goto fail_open;
            }
            if (info.h != sc.h) nsteps = w->step + rest;
        }
        if (w->step >= nsteps) {
            fprintf(stderr, "contactlab run: cannot restart: %s holds step %ld (t = %.9g s), the end of this run or "
                            "past it (t_end = %g s, step %ld): nothing to continue\n", restart, w->step, w->t,
                    sc.t_end, nsteps);
            goto fail_open;
        }
        /* other values than the interrupted run's: its metadata is rewritten to this run's, the
         * old values kept as restart.N.* (doc/reliability.md) */
        long long nbytes[2] = {(long long)g.out.bytes[0], (long long)g.out.bytes[1]};
        long ev = 0;
        int r0 = xp_run_restart_meta(bpath, &nbytes[0], &meta, nkeep, keep, bcols, NB, w->t, 0, &ev, &err);
        int r1 = r0 < 0 ? -1 : xp_run_restart_meta(spath, &nbytes[1], &meta, nkeep, keep, scols, NS, w->t, 1, &old_every,
                                                &err);
        if (r0 < 0 || r1 < 0) {
            fprintf(stderr, "contactlab run: cannot restart: %s\n", err.msg);
            goto fail_open;
        }
        g.out.bytes[0] = nbytes[0];
        g.out.bytes[1] = nbytes[1];
        fb = xp_guard_resume(&g, 0, bpath, NB, &err);
        fs = fb ? xp_guard_resume(&g, 1, spath, NS, &err) : NULL;
        if (!fb || !fs) {
            fprintf(stderr, "contactlab run: cannot restart: %s\n", err.msg);
            goto fail_open;
        }
        printf("%s: restarting from %s at step %ld, t = %.9g s\n", path, restart, w->step, w->t);
        fflush(stdout);
    } else {
        int flags = c.force ? CLAB_CSV_OVERWRITE : 0;
        fb = clab_csv_open(bpath, flags, &err);
        fs = fb ? clab_csv_open(spath, flags, &err) : NULL;
        int bad = !fb || !fs || clab_csv_meta(fb, &meta, nkeep, keep, &err) || clab_csv_header(fb, bcols, NB, &err) ||
                  clab_csv_meta(fs, &meta, nkeep, keep, &err) || clab_csv_header(fs, scols, NS, &err);
        if (bad) {
            fprintf(stderr, "contactlab run: %s\n", err.msg);
            goto fail_open;
        }
        xp_guard_add(&g, fb);
        xp_guard_add(&g, fs);
        if (xp_run_extra_on(&extra) && xp_run_extra_open(&extra, &c, prefix, &meta, nkeep, keep, flags, &err)) {
            fprintf(stderr, "contactlab run: %s\n", err.msg);
            goto fail_open;
        }
    }
    clab_csv_set_flush_every(fb, (long)w->nbodies); /* one write per output step */

    /* the outputs list the bodies in the order they were added (the scene's), whatever order
     * the run keeps them in (option sort, or a restart from a sorted run's checkpoint):
     * order[k] = the index now of the k-th, found again after each sort */
    size_t order_sorts = (size_t)-1;
    order = malloc((w->nbodies ? w->nbodies : 1) * sizeof *order);
    if (!order) {
        fprintf(stderr, "contactlab run: out of memory for %zu bodies\n", w->nbodies);
        goto fail_open;
    }
    if (clab_world_add_order(w, order, &err) < 0 || xp_run_write_names(w, order, npath, &err)) {
        fprintf(stderr, "contactlab run: %s\n", err.msg);
        goto fail_open;
    }
    long every_n = sc.output_every > 0 ? sc.output_every : 1, nout = g.out.nout, step_failed = 0;
    int sig = 0, stopped = 0, crowd_warned = s->guard.crowded_step >= 0; /* (warned before the run) */
    xp_progress pb;
    char label[400];
    snprintf(label, sizeof label, "run %s (%s)", name, sc.backend);
    xp_catch_signals();
    xp_progress_begin(&pb, &c, label);
    rc = 0;
    /* every checkpoint, and the last good state kept in memory, is taken at the top of an
     * iteration k (world at step k) after the rows of step k, when it is an output step: a
     * restart continues with the step after them */
    const long k_start = w->step;
    /* (the interrupted run wrote the row of the step it was restarted at, if it had one: an
     * output step of its own interval) */
    const int start_row_done = restart && k_start % (old_every > 0 ? old_every : every_n) == 0;
    const size_t nshapes = clab_vtk_count_shapes(w);
    const double wall0 = run_wall_now();
    for (long k = k_start;; k++) {
        if ((k % every_n == 0 || k == nsteps) && !(k == k_start && start_row_done)) {
            /* the guard on the state about to be written (the start's: run_guard_start) */
            if (k > k_start && clab_sim_check(s, &err)) {
                step_failed = k;
                rc = 1;
                break;
            }
            if (!crowd_warned && s->guard.crowded_step >= 0 && pb.on) fputc('\n', stderr); /* after the bar */
            run_crowding(s, &crowd_warned);
            if (order_sorts != s->sorts) {
                if (clab_world_add_order(w, order, &err) < 0) rc = 1;
                order_sorts = s->sorts;
            }
            for (size_t k = 0; k < w->nbodies && rc == 0; k++) {
                const clab_body *b = &w->bodies[order[k]];
                clab_vec3 om = clab_body_omega_world(b);
                double row[NB] = {w->t, (double)k, b->r.x, b->r.y, b->r.z, b->rdot.x, b->rdot.y, b->rdot.z,
                                  om.x, om.y, om.z, b->e.e0, b->e.e1, b->e.e2, b->e.e3};
                if (clab_csv_row(fb, row, NB, &err)) rc = 1;
            }
            clab_solver_stats st;
            memset(&st, 0, sizeof st);
            if (s->type->stats) s->type->stats(s->self, &st);
            double pen = 0.0;
            for (size_t i = 0; i < s->contacts.n; i++) pen = fmax(pen, -s->contacts.c[i].phi);
            double srow[NSMAX] = {w->t, (double)w->step, clab_world_kinetic_energy(w), (double)s->contacts.n, pen,
                                  (double)st.iterations, st.residual, (double)st.maxiter_hits};
            run_values[0] = fmax(run_values[0], pen);
            run_values[1] = srow[2];
            if (rc == 0 && clab_csv_row(fs, srow, NS, &err)) rc = 1;
            if (rc == 0 && xp_run_extra_on(&extra) && xp_run_extra_rows(&extra, s, order, nout, &err)) rc = 1;
            if (rc == 0 && vtk > 0 && nout % vtk == 0) {
                char vp[2048], shp[420];
                int vflags = c.force || restart ? CLAB_VTK_OVERWRITE : 0;
                /* a restart writes again the frames the interrupted run wrote after its checkpoint;
                 * the boxes and planes go to the companion series <prefix>_shapes_NNNNNN.vtk */
                snprintf(shp, sizeof shp, "%s_shapes", prefix);
                if (clab_vtk_frame_path(vp, sizeof vp, c.out, prefix, nout / vtk, &err) ||
                    clab_vtk_write_spheres_ordered(w, order, vp, vflags, &err))
                    rc = 1;
                else if (nshapes && (clab_vtk_frame_path(vp, sizeof vp, c.out, shp, nout / vtk, &err) ||
                                     clab_vtk_write_shapes_ordered(w, order, vp, vflags, &err)))
                    rc = 1;
            }
            nout++;
            g.out.nout = nout;
            if (rc == 0 && xp_guard_snapshot(&g, s, &err)) rc = 1; /* the last good state */
            if (rc) {
                fprintf(stderr, "contactlab run: %s\n", err.msg);
                break;
            }
            xp_progress_update(&pb, (double)k / (double)nsteps);
        }
        if (k >= nsteps) break;
        /* a stop asked for (signal, --stop-after) or a periodic checkpoint, once a step was taken */
        if (k > k_start) {
            sig = xp_stop_signal();
            stopped = sig || (stop_after > 0 && k == stop_after);
            if (stopped || (ckpt_every > 0 && k % ckpt_every == 0)) {
                g.out.nout = nout;
                if (xp_guard_checkpoint(&g, s, &err)) {
                    fprintf(stderr, "contactlab run: %s\n", err.msg);
                    stopped = 0;
                    rc = 1;
                    break;
                }
            }
            if (stopped) {
                rc = sig ? 128 + sig : RUN_STOPPED;
                break;
            }
        }
        if (clab_sim_step(s, &err)) {
            step_failed = k + 1;
            rc = 1;
            break;
        }
        if (xp_fclib_after_step(&fcx, s, &err)) {
            fprintf(stderr, "contactlab run: %s\n", err.msg);
            rc = 1;
            break;
        }
    }
    xp_progress_end(&pb);
    const double wall = run_wall_now() - wall0;
    char why[6400] = "";
    if (step_failed) {
        /* the runtime guard: CSVs flushed, the last good state saved */
        snprintf(why, sizeof why, "step %ld: %s", step_failed, err.msg);
        fprintf(stderr, "contactlab run: %s: step %ld: %s\n", path, step_failed, err.msg);
        if (xp_guard_fail(&g, "contactlab run") == 0) {
            print_resume(stderr, "contactlab run: to continue from it (e.g. with a smaller --h or other --opt): ", keep,
                         nkeep, c.out, out_given, ckpt_every, cpath);
        }
    } else if (stopped) {
        if (sig) printf("contactlab run: stopped by %s after step %ld of %ld (t = %.9g s)", signal_name(sig), w->step,
                        nsteps, w->t);
        else printf("contactlab run: stopped after step %ld of %ld (t = %.9g s), as --stop-after asked", w->step,
                    nsteps, w->t);
        printf("; CSVs flushed (complete rows), checkpoint written: %s\n", cpath);
        print_resume(stdout, "to resume: ", keep, nkeep, c.out, out_given, ckpt_every, cpath);
        fflush(stdout);
    }

    /* iteration-limit hits are results too: say so when there were any */
    clab_solver_stats st;
    memset(&st, 0, sizeof st);
    if (s->type->stats) s->type->stats(s->self, &st);
    if (st.maxiter_hits > 0)
        fprintf(stderr, "contactlab run: warning: %ld of %ld %s solves stopped at the iteration limit (max_iter) "
                        "without reaching the tolerance; the steps CSV counts them in column maxiter_hits\n",
                st.maxiter_hits, st.solves, s->type->name);
    if (st.fixed_point_failures > 0) /* dvi friction=exact: a non-convex problem (doc/dvi.md) */
        fprintf(stderr, "contactlab run: warning: %ld steps ended with the exact-friction fixed point unconverged "
                        "(exact_max_outer reached; the problem is non-convex); they kept their last iterate\n",
                st.fixed_point_failures);

    /* the summary: how the run ended, printed and written */
    {
        xp_run_summary r = {w->step, w->t, wall, clab_world_kinetic_energy(w), run_values[0], s->contacts.n, "done", ""};
        if (step_failed) { /* the state is the failed step's: report the last good one */
            r.steps = g.last.step;
            r.t = g.last.t;
            r.kinetic_energy = run_values[1];
            r.status = "failed";
            r.message = why;
        } else if (stopped) {
            snprintf(why, sizeof why, "stopped by %s; continue with --restart %s", sig ? signal_name(sig) : "--stop-after",
                     cpath);
            r.status = "stopped";
            r.message = why;
        } else if (rc) {
            r.status = "failed";
            r.message = "an output could not be written (see the message above)";
        }
        printf("summary: %s; %ld steps to t = %.9g s in %.3g s (wall); final kinetic energy %.6g J%s; deepest "
               "penetration %.3g m (output steps); guard: %s%s%s\n", r.status, r.steps, r.t, r.wall, r.kinetic_energy,
               step_failed ? " (last good state)" : "", r.max_penetration,
               step_failed ? "stopped the run at " : rc && !stopped ? "no step failed" : stopped ? "no step failed; " : "ok, no step failed",
               r.message, "");
        clab_error serr;
        if (xp_run_write_summary(sumpath, &meta, nkeep, keep, &r, &serr)) {
            fprintf(stderr, "contactlab run: %s\n", serr.msg);
            if (rc == 0) rc = 1;
        }
    }
fail_open:
    if (clab_csv_close(fb, &err) && rc == 0) { fprintf(stderr, "contactlab run: %s\n", err.msg); rc = 1; }
    if (clab_csv_close(fs, &err) && rc == 0) { fprintf(stderr, "contactlab run: %s\n", err.msg); rc = 1; }
    if (xp_run_extra_close(&extra, &err) && rc == 0) { fprintf(stderr, "contactlab run: %s\n", err.msg); rc = 1; }
    if (rc == 0) printf("%s: %ld steps of %g s under %s; CSVs: %s, %s, %s\n", path, nsteps, sc.h, sc.backend, bpath,
                        spath, sumpath);
    if (rc == 0 && s->sort_every > 0)
        printf("%s: the bodies renumbered into cell order %zu times (option sort = %ld); the outputs list them in the "
               "scene's order\n", path, s->sorts, s->sort_every);
    else if (rc == 1 && fb && fs) printf("the rows written so far are complete: %s, %s\n", bpath, spath);
    if (rc == 0) { /* the figure of the steps series (run.gp reads <prefix>-steps.csv) */
        char expr[500];
        snprintf(expr, sizeof expr, "prefix='%s'", prefix);
        if (strpbrk(prefix, "'\"\\")) printf("figures: not drawn: the file names hold a quote\n");
        else if (xp_plot_e(&c, "run.gp", expr) == 0 && c.plot) printf("figure: %s/%s-run.png (and .pdf)\n", c.out, prefix);
    }
    clab_options_free(&meta);
    xp_guard_free(&g);
    clab_sim_destroy(s);
    free(order);
out:
    clab_scene_free(&sc);
    clab_options_free(&cli);
    xp_common_free(&c);
    free(keep);
    return rc;
}
