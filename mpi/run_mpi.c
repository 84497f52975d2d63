/* run_mpi.c: `mpirun -np P contactlab run SCENE.cfg` (doc/mpi.md): a scene across P ranks.
 * Rank 0 writes <scene>-<backend>-bodies.csv, -steps.csv and -body-names.csv with the numeric
 * rows of the one-process `contactlab run` (the bodies in the scene's order, gathered chunk by
 * chunk of the global order, mpi/gather.c; the steps' contacts counted once each, by the owner
 * of body a, or of b when a is fixed; the deepest penetration over them; the kinetic energy
 * summed over the chunks in the scene's order) and the same metadata plus mpi_ranks and
 * mpi_grid; with --vtk the frames of the one-process run, byte for byte, written by rank 0 from
 * one pass of chunks a frame (the shapes' two). Rank 0 holds the whole world only at the start
 * (the names CSV) and O(chunk + P) bodies of it from then on. --checkpoint-every,
 * --restart, --stop-after and SIGINT/SIGTERM (on mpirun or on any rank) as contactlab run has them:
 * the ranks agree on a stop at the step boundary, rank 0 flushes the CSVs and the checkpoint is
 * one file (run_mpi_ckpt.c) that a run on any number of ranks continues, the CSVs cut back to it
 * and continued byte for byte. --contacts N: the one-process contacts CSV, its rows gathered in
 * key order (run_mpi_contacts.c). The options the decomposition does not run (--measure,
 * --rattler-min, FCLIB export) are refused, named. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_csv.h"
#include "clab_mpi.h"
#include "mpi_internal.h"
#include "clab_scene.h"
#include "mpi_internal.h"
#include "clab_vtk.h"
#include "run_mpi.h"
#include "run_mpi_contacts.h"
#include "xp.h"
#include "xp_mpi.h"

typedef struct run_opts {
    const char *scene, *backend, *out, *restart;
    double h, t_end;
    long every, vtk, ckpt_every, stop_after;
    long contacts; /* --contacts N: the contacts CSV every N output rows (run_mpi_contacts.c) */
    int force, grid[3], balance;
    clab_options cli;
} run_opts;

static int parse(int argc, char **argv, run_opts *o, int rank)
{
    static const struct option lo[] = {{"backend", required_argument, 0, 'b'}, {"h", required_argument, 0, 'H'},
                                       {"t-end", required_argument, 0, 'T'},   {"every", required_argument, 0, 'e'},
                                       {"opt", required_argument, 0, 'O'},     {"out", required_argument, 0, 'o'},
                                       {"force", no_argument, 0, 'f'},         {"no-plot", no_argument, 0, 'N'},
                                       {"no-progress", no_argument, 0, 'Q'},   {"grid", required_argument, 0, 'g'},
                                       {"balance", no_argument, 0, 'B'},       {"vtk", required_argument, 0, 'v'},
                                       {"checkpoint-every", required_argument, 0, 'C'},
                                       {"restart", required_argument, 0, 'R'}, {"stop-after", required_argument, 0, 'S'},
                                       {"contacts", required_argument, 0, 'K'}, {0, 0, 0, 0}};
    optind = 1;
    opterr = 0;
    int ch;
    clab_error err;
    while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        char *end = NULL;
        switch (ch) {
        case 'b': o->backend = optarg; break;
        case 'H': o->h = strtod(optarg, &end); if (*end || !(o->h > 0.0)) goto bad; break;
        case 'T': o->t_end = strtod(optarg, &end); if (*end || !(o->t_end > 0.0)) goto bad; break;
        case 'e': o->every = strtol(optarg, &end, 10); if (*end || o->every < 1) goto bad; break;
        case 'O':
            if (clab_options_parse(&o->cli, optarg, "command line", &err)) {
                if (rank == 0) fprintf(stderr, "contactlab run (mpi): --opt %s: %s\n", optarg, err.msg);
                return -1;
            }
            break;
        case 'o': o->out = optarg; break;
        case 'f': o->force = 1; break;
        case 'N': case 'Q': break; /* no figure, no bar: the MPI run draws neither */
        case 'g':
            if (sscanf(optarg, "%dx%dx%d", &o->grid[0], &o->grid[1], &o->grid[2]) != 3) goto bad;
            break;
        case 'B': o->balance = 1; break;
        case 'v': o->vtk = strtol(optarg, &end, 10); if (*end || o->vtk < 0) goto bad; break;
        case 'C': o->ckpt_every = strtol(optarg, &end, 10); if (*end || o->ckpt_every < 1) goto bad; break;
        case 'S': o->stop_after = strtol(optarg, &end, 10); if (*end || o->stop_after < 1) goto bad; break;
        case 'R': o->restart = optarg; break;
        case 'K': o->contacts = strtol(optarg, &end, 10); if (*end || o->contacts < 1 || o->contacts > 1000000000L) goto bad; break;
        default:
            if (rank == 0)
                fprintf(stderr, "contactlab run: option '%s' is not supported across MPI ranks (mpirun -np P); "
                                "supported there: --backend --h --t-end --every --opt --out --force --no-plot "
                                "--no-progress --vtk --contacts --checkpoint-every --restart --stop-after --grid --balance "
                                "(doc/mpi.md)\n", argv[optind - 1]);
            return -1;
        }
        continue;
    bad:
        if (rank == 0) fprintf(stderr, "contactlab run (mpi): bad value '%s' for %s\n", optarg, argv[optind - 1]);
        return -1;
    }
    if (optind != argc - 1) {
        if (rank == 0) fprintf(stderr, "contactlab run (mpi): give one scene file (contactlab run SCENE.cfg)\n");
        return -1;
    }
    o->scene = argv[optind];
    if (o->restart && o->contacts > 0) { /* as contactlab run (experiments/run.c) */
        if (rank == 0)
            fprintf(stderr, "contactlab run: --contacts and --measure do not continue a run: leave them out with "
                            "--restart\n");
        return -1;
    }
    return 0;
}

/* the contacts of the last step counted once over the ranks, and the deepest penetration */
static void step_contacts(const clab_mpi_sim *ms, double *n, double *pen)
{
    const clab_mpi_domain *d = ms->d;
    const clab_contacts *c = &ms->sim->contacts;
    double v[2] = {0.0, 0.0}, all[2];
    for (size_t i = 0; i < c->n; i++) {
        const clab_contact *ci = &c->c[i];
        const int fixed_a = d->local->bodies[ci->a].fixed;
        if (!(fixed_a ? d->mine[ci->b] : d->mine[ci->a])) continue;
        v[0] += 1.0;
        v[1] = fmax(v[1], -ci->phi);
    }
    MPI_Reduce(&v[0], &all[0], 1, MPI_DOUBLE, MPI_SUM, 0, d->comm);
    MPI_Reduce(&v[1], &all[1], 1, MPI_DOUBLE, MPI_MAX, 0, d->comm);
    *n = all[0];
    *pen = all[1];
}

/* rank 0: the step guard's refusals and the metadata of the one-process sim of the scene, made
 * on the scene's world itself (no copy: clab_sim_create, the backend's create, stable_step and
 * clab_sim_check only read it; no step is taken) and freed before the world is sent out */
static int one_process_meta(clab_scene *sc, const char *backend, clab_options *meta, long *nsteps, clab_error *err)
{
    clab_world *w = sc->world;
    clab_options o;
    clab_options_init(&o);
    clab_options_merge(&o, &sc->options);
    clab_sim *s = clab_sim_create(w, backend, sc->h, &o, err);
    clab_options_free(&o);
    int rc = s ? clab_sim_step_count(sc->t_end, sc->h, nsteps, err) : CLAB_EINVAL;
    if (!rc) {
        const double hs = s->type->stable_step ? s->type->stable_step(s->self, w) : 0.0;
        if (hs > 0.0 && sc->h > hs)
            rc = clab_error_set(err, CLAB_EINVAL, "h = %g s is above the %s backend's stable step %g s", sc->h,
                                backend, hs);
    }
    if (!rc) rc = clab_sim_check(s, err);
    if (!rc) {
        clab_scene_meta(sc, meta);
        clab_sim_meta(s, meta);
    }
    clab_sim_destroy(s);
    return rc;
}

static const char *const bcols[] = {"t_s", "body", "x_m", "y_m", "z_m", "vx_m_s", "vy_m_s", "vz_m_s",
                                    "wx_world_rad_s", "wy_world_rad_s", "wz_world_rad_s", "e0", "e1", "e2", "e3"};
/* the solver's columns for rigid contacts only, as contactlab run writes them (the same on every
 * rank: the solve is global) */
static const char *const scols[] = {"t_s",          "step",     "kinetic_energy_J",
                                    "contacts",     "max_penetration_m", "iterations",
                                    "residual_m_s", "maxiter_hits"};
enum { NB = sizeof bcols / sizeof bcols[0], NSMAX = sizeof scols / sizeof scols[0], NSFORCE = 5 };

/* rank 0's outputs */
typedef struct run_files {
    clab_csv *fb, *fs; /* bodies, steps */
    char **keep;       /* the command line as it determines the results */
    int nkeep;
    int ns;            /* steps columns: NSFORCE, or NSMAX with the solver's */
    char prefix[400];  /* <scene>-<backend> */
    char ckpt[2048];   /* <out>/<prefix>.ckpt */
    long nout;         /* output steps written (numbers the VTK frames) */
    size_t nshapes;    /* boxes and planes: the VTK frames' companion series */
    size_t chunk;      /* bodies a gather of the outputs (0: CLAB_MPI_CHUNK; a test's CLAB_MPI_CHUNK
                        * environment variable, rank 0's) */
    int argc;          /* the command line (run's) */
    char **argv;
    xp_run_extra x;    /* --contacts: the contacts CSV (rank 0's; run_mpi_contacts.c) */
} run_files;

/* the domain and the sim of the scene on every rank: rank 0's world handed to the domain (no
 * copy: sc->world is NULL after), which sends each rank its bodies */
static int start(clab_scene *sc, const run_opts *o, clab_mpi_domain **d, clab_mpi_sim **ms, clab_error *err)
{
    double Rmax = 0.0;
    for (size_t i = 0; sc->world && i < sc->world->nbodies; i++)
        if (!sc->world->bodies[i].fixed) Rmax = fmax(Rmax, clab_shape_bound_radius(&sc->world->bodies[i].shape));
    MPI_Bcast(&Rmax, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); /* rank 0's */
    const clab_backend_type *type = clab_backend_lookup(sc->backend);
    double envelope = type ? type->default_envelope : 0.0;
    const char *env = clab_options_get(&sc->options, "envelope");
    if (env) envelope = fmax(envelope, atof(env));
    clab_world *g = sc->world;
    sc->world = NULL;
    int rc = clab_mpi_domain_create(d, MPI_COMM_WORLD, g, o->grid, o->balance, 0.1 * fmax(Rmax, 1e-300), envelope, err);
    if (!rc) rc = clab_mpi_sim_create(ms, *d, sc->backend, sc->h, &sc->options, err);
    return rc;
}

/* rank 0's settings of the scene to the other ranks, which never read the scene file: the
 * backend, h, t_end, output_every, the merged options (keys, values, where) and the steps */
static int share_settings(clab_scene *sc, long *nsteps, int rank, clab_error *err)
{
    struct {
        char backend[CLAB_NAME_LEN];
        double h, t_end;
        long output_every, nsteps;
    } v;
    memset(&v, 0, sizeof v);
    if (rank == 0) {
        memcpy(v.backend, sc->backend, sizeof v.backend);
        v.h = sc->h, v.t_end = sc->t_end, v.output_every = sc->output_every, v.nsteps = *nsteps;
    }
    MPI_Bcast(&v, (int)sizeof v, MPI_BYTE, 0, MPI_COMM_WORLD);
    memcpy(sc->backend, v.backend, sizeof sc->backend);
    sc->h = v.h, sc->t_end = v.t_end, sc->output_every = v.output_every, *nsteps = v.nsteps;
    const int rc = clab_mpi_bcast_options(&sc->options, MPI_COMM_WORLD);
    return rc ? clab_error_set(err, rc, "out of memory for the scene's options") : CLAB_OK;
}

/* the command line as contactlab run writes it in the metadata: not --out, --force, --no-plot,
 * --no-progress, --vtk, --contacts, the checkpoint options, --grid, --balance */
static char **kept_args(int argc, char **argv, int *nkeep)
{
    static const char *const valued[] = {"--out",     "--grid",       "--vtk",     "--checkpoint-every",
                                         "--restart", "--stop-after", "--contacts"};
    static const char *const flags[] = {"--force", "--no-plot", "--no-progress", "--balance"};
    char **keep = calloc((size_t)argc + 2, sizeof *keep);
    *nkeep = 0;
    if (!keep) return NULL;
    keep[(*nkeep)++] = "contactlab";
    keep[(*nkeep)++] = "run";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int skip = 0;
        for (size_t k = 0; k < sizeof valued / sizeof *valued && !skip; k++) {
            const size_t n = strlen(valued[k]);
            if (!strcmp(a, valued[k])) skip = 2;
            else if (!strncmp(a, valued[k], n) && a[n] == '=') skip = 1;
        }
        for (size_t k = 0; k < sizeof flags / sizeof *flags && !skip; k++) skip = !strcmp(a, flags[k]);
        if (skip == 2) i++;
        if (!skip) keep[(*nkeep)++] = argv[i];
    }
    return keep;
}

/* rank 0: the three CSVs opened with their metadata and headers, or (b: a restart's
 * bookkeeping) the two series cut back to the checkpoint and continued, their metadata
 * rewritten when this run's differs (xp_run_restart_meta, as contactlab run does); the names
 * written, and the whole world released (clab_mpi_domain_release). *old_every: the interrupted
 * run's output interval. */
static int open_files(const clab_scene *sc, const run_opts *o, clab_mpi_domain *d, const char *name,
                      clab_options *meta, run_files *f, const clab_run_mpi_book *b, long *old_every, clab_error *err)
{
    char v[64], path[2400], spath[2400];
    snprintf(v, sizeof v, "%d", d->size);
    clab_options_set(meta, "mpi_ranks", v, NULL);
    snprintf(v, sizeof v, "%dx%dx%d", d->grid[0], d->grid[1], d->grid[2]);
    clab_options_set(meta, "mpi_grid", v, NULL);
    clab_options_set(meta, "body", "the body's index in the scene's order; names: <scene>-<backend>-body-names.csv",
                     NULL);
    clab_options_set(meta, "wx_world_rad_s", "wx, wy, wz: angular velocity about the world axes", NULL);
    clab_options_set(meta, "e0", "e0..e3: orientation quaternion, body frame to world frame", NULL);
    const clab_backend_type *type = clab_backend_lookup(sc->backend);
    f->ns = type && type->default_envelope > 0.0 ? NSMAX : NSFORCE;
    if (f->ns == NSMAX)
        clab_options_set(meta, "residual_m_s", "the last solve's residual: the natural map of the CCP scaled to a "
                                               "velocity (Tasora-Anitescu CCP)", NULL);
    const int flags = o->force ? CLAB_CSV_OVERWRITE : 0;
    if (!f->keep) return clab_error_set(err, CLAB_ENOMEM, "out of memory");
    if (xp_mkdir_p(o->out)) return clab_error_set(err, CLAB_EIO, "cannot create %s", o->out);
    if (o->force && !b) { /* this scene's and backend's earlier results go first, as in contactlab run */
        xp_common c;
        xp_common_init(&c, "run", f->argc, f->argv);
        snprintf(c.out, sizeof c.out, "%s", o->out);
        const int bad = xp_out_clean(&c, xp_run_own_file, f->prefix);
        xp_common_free(&c);
        if (bad) return clab_error_set(err, CLAB_EIO, "--force: cannot clean %s", o->out);
    }
    snprintf(path, sizeof path, "%s/%s-bodies.csv", o->out, f->prefix);
    snprintf(spath, sizeof spath, "%s/%s-steps.csv", o->out, f->prefix);
    if (b) {
        long long n[2] = {(long long)b->bytes[0], (long long)b->bytes[1]};
        long ev = 0;
        const double t = d->local->t;
        if (xp_run_restart_meta(path, &n[0], meta, f->nkeep, f->keep, bcols, NB, t, 0, &ev, err) < 0 ||
            xp_run_restart_meta(spath, &n[1], meta, f->nkeep, f->keep, scols, (size_t)f->ns, t, 1, old_every, err) < 0)
            return CLAB_EIO;
        if (!(f->fb = clab_csv_resume(path, n[0], (long)b->rows[0], NB, err))) return CLAB_EIO;
        if (!(f->fs = clab_csv_resume(spath, n[1], (long)b->rows[1], (size_t)f->ns, err))) return CLAB_EIO;
    } else {
        if (!(f->fb = clab_csv_open(path, flags, err))) return CLAB_EIO;
        if (!(f->fs = clab_csv_open(spath, flags, err))) return CLAB_EIO;
        if (clab_csv_meta(f->fb, meta, f->nkeep, f->keep, err) || clab_csv_header(f->fb, bcols, NB, err) ||
            clab_csv_meta(f->fs, meta, f->nkeep, f->keep, err) || clab_csv_header(f->fs, scols, (size_t)f->ns, err))
            return CLAB_EIO;
    }
    const char *ch = getenv("CLAB_MPI_CHUNK"); /* (tests only: several chunks on small worlds) */
    f->chunk = ch && atol(ch) > 0 ? (size_t)atol(ch) : CLAB_MPI_CHUNK;
    clab_csv_set_flush_every(f->fb, (long)f->chunk); /* one write a chunk: its rows, not N, held */
    if (o->contacts > 0 && clab_run_mpi_contacts_open(&f->x, o->out, f->prefix, meta, f->nkeep, f->keep, flags,
                                                      f->chunk, err))
        return CLAB_EIO;
    size_t *order = malloc((d->global->nbodies ? d->global->nbodies : 1) * sizeof *order);
    if (!order) return clab_error_set(err, CLAB_ENOMEM, "out of memory");
    for (size_t i = 0; i < d->global->nbodies; i++) order[i] = i; /* the global order is the scene's */
    snprintf(path, sizeof path, "%s/%s-%s-body-names.csv", o->out, name, sc->backend);
    int rc = xp_run_write_names(d->global, order, path, err) ? CLAB_EIO : CLAB_OK;
    free(order);
    clab_mpi_domain_release(d); /* from here on, the outputs are gathered chunk by chunk */
    return rc;
}

/* rank 0: the bodies of a range through the session's gather (a VTK frame's passes) */
static int fetch_range(void *ctx, size_t k0, size_t k1, const clab_body **b, clab_error *err)
{
    return clab_mpi_chunks_get(ctx, k0, k1, b, err);
}

/* rank 0: the VTK frame, the one-process run's file (the spheres, and the boxes and planes in
 * the companion series <prefix>_shapes), its bodies gathered chunk by chunk (lib/vtk.c's writers
 * over bodies by ranges) */
static int write_frame(clab_mpi_chunks *c, const run_opts *o, const run_files *f, clab_error *err)
{
    char vp[2048], shp[420];
    const int vflags = o->force || o->restart ? CLAB_VTK_OVERWRITE : 0; /* a restart writes its frames again */
    const long frame = f->nout / o->vtk;
    const clab_world *lw = c->d->local; /* t, step; the mesh store (replicated) */
    const clab_vtk_bodies s = {c->d->nglobal, c->chunk, lw->t, lw->step, lw, fetch_range, c};
    snprintf(shp, sizeof shp, "%s_shapes", f->prefix);
    if (clab_vtk_frame_path(vp, sizeof vp, o->out, f->prefix, frame, err) ||
        clab_vtk_write_spheres_by(&s, vp, vflags, err))
        return CLAB_EIO;
    if (f->nshapes && (clab_vtk_frame_path(vp, sizeof vp, o->out, shp, frame, err) ||
                       clab_vtk_write_shapes_by(&s, vp, vflags, err)))
        return CLAB_EIO;
    return CLAB_OK;
}

/* rank 0: the bodies' rows chunk by chunk in the scene's order, and their kinetic energy summed
 * in that order (clab_world_kinetic_energy's terms and order: the same bits) */
static int body_rows(clab_mpi_chunks *c, const run_files *f, double *ke, clab_error *err)
{
    const clab_world *lw = c->d->local;
    const size_t N = c->d->nglobal;
    double k = 0.0;
    int rc = CLAB_OK;
    for (size_t g0 = 0; g0 < N && !rc; g0 += c->chunk) {
        const size_t g1 = N - g0 < c->chunk ? N : g0 + c->chunk;
        const clab_body *bs = NULL;
        rc = clab_mpi_chunks_get(c, g0, g1, &bs, err);
        for (size_t i = g0; i < g1 && !rc; i++) {
            const clab_body *b = &bs[i - g0];
            const clab_vec3 om = clab_body_omega_world(b);
            const double row[NB] = {lw->t, (double)i, b->r.x,  b->r.y,  b->r.z,  b->rdot.x, b->rdot.y, b->rdot.z,
                                    om.x,  om.y,      om.z,    b->e.e0, b->e.e1, b->e.e2,   b->e.e3};
            rc = clab_csv_row(f->fb, row, NB, err);
            k += clab_body_kinetic_energy(b);
        }
    }
    *ke = k;
    return rc;
}

/* an output step: rank 0's rows of the bodies and of the step, its frame, from the bodies
 * gathered chunk by chunk (the other ranks serve the gathers) */
static int write_rows(clab_mpi_sim *ms, const run_opts *o, run_files *f, clab_error *err)
{
    clab_mpi_domain *d = ms->d;
    double nc = 0.0, pen = 0.0;
    step_contacts(ms, &nc, &pen);
    /* the contacts CSV's rows, streamed to rank 0 before the bodies' session (its own collectives) */
    const int crc = o->contacts > 0 && f->nout % o->contacts == 0 ? clab_run_mpi_contacts_rows(ms, &f->x, f->chunk, err)
                                                                 : CLAB_OK;
    clab_mpi_chunks c;
    int orc = clab_mpi_chunks_init(&c, d, 0, f->chunk, err);
    if (d->rank != 0) {
        const int src = clab_mpi_chunks_serve(&c, err);
        orc = orc ? orc : src;
    } else {
        const clab_world *lw = d->local;
        double ke = 0.0;
        if (!orc) orc = body_rows(&c, f, &ke, err);
        if (!orc) {
            clab_solver_stats st;
            memset(&st, 0, sizeof st);
            if (ms->sim->type->stats) ms->sim->type->stats(ms->sim->self, &st);
            const double srow[NSMAX] = {lw->t, (double)lw->step, ke, nc, pen,
                                        (double)st.iterations, st.residual, (double)st.maxiter_hits};
            orc = clab_csv_row(f->fs, srow, (size_t)f->ns, err);
        }
        if (!orc && o->vtk > 0 && f->nout % o->vtk == 0) orc = write_frame(&c, o, f, err);
        const int grc = clab_mpi_chunks_end(&c);
        orc = orc ? orc : grc;
    }
    clab_mpi_chunks_free(&c);
    orc = crc ? crc : orc;
    f->nout++;
    return clab_mpi_agree(d, orc, NULL, err);
}

/* a checkpoint now: rank 0's CSVs flushed, their lengths in the file's trailer */
static int checkpoint(clab_mpi_sim *ms, const run_files *f, long every, clab_error *err)
{
    clab_run_mpi_book b;
    memset(&b, 0, sizeof b);
    int rc = CLAB_OK;
    if (ms->d->rank == 0) {
        rc = clab_csv_flush(f->fb, err) || clab_csv_flush(f->fs, err) ? CLAB_EIO : CLAB_OK;
        b.bytes[0] = clab_csv_bytes(f->fb), b.rows[0] = clab_csv_rows(f->fb);
        b.bytes[1] = clab_csv_bytes(f->fs), b.rows[1] = clab_csv_rows(f->fs);
    }
    b.nout = f->nout;
    b.every = every;
    b.h = ms->sim->h;
    rc = clab_mpi_agree(ms->d, rc, NULL, err);
    return rc ? rc : clab_run_mpi_checkpoint_write(ms, f->ckpt, &b, f->chunk, err);
}

/* The steps from k_start to nsteps, as contactlab run takes them: the rows of every output step
 * (not k_start's when the interrupted run wrote them: start_row_done), then, once a step was
 * taken, a stop (a signal on any rank, --stop-after) or a periodic checkpoint, then the step.
 * *status: 0, or the exit status of a stop (128 + the signal, 3 for --stop-after). */
static int run_steps(clab_mpi_sim *ms, const run_opts *o, run_files *f, long every, long nsteps, int start_row_done,
                     int *sig, int *status, clab_error *err)
{
    const long k_start = ms->d->local->step;
    int rc = CLAB_OK;
    for (long k = k_start; !rc; k++) {
        if ((k % every == 0 || k == nsteps) && !(k == k_start && start_row_done)) rc = write_rows(ms, o, f, err);
        if (rc || k >= nsteps) break;
        if (k > k_start) {
            *sig = clab_run_mpi_stop_signal(ms->d); /* every rank: the same answer */
            const int stop = *sig || (o->stop_after > 0 && k == o->stop_after);
            if (stop || (o->ckpt_every > 0 && k % o->ckpt_every == 0)) rc = checkpoint(ms, f, every, err);
            if (stop && !rc) {
                *status = *sig ? 128 + *sig : 3;
                break;
            }
        }
        if (!rc) rc = clab_mpi_sim_step(ms, err);
    }
    return rc;
}

/* rank 0: how to continue a stopped run */
static void print_resume(const run_files *f, const run_opts *o, int size)
{
    printf("to resume: mpirun -np %d", size);
    for (int i = 0; i < f->nkeep; i++) {
        fputc(' ', stdout);
        xp_shell_word(stdout, f->keep[i]);
    }
    fputs(" --out ", stdout);
    xp_shell_word(stdout, o->out);
    if (o->ckpt_every > 0) printf(" --checkpoint-every %ld", o->ckpt_every);
    if (o->vtk > 0) printf(" --vtk %ld", o->vtk);
    fputs(" --restart ", stdout);
    xp_shell_word(stdout, f->ckpt);
    fputs("   (any number of ranks)\n", stdout);
}

/* a restart: the checkpoint's state on every rank, the steps the run has at this h */
static int restart(clab_mpi_sim *ms, const clab_scene *sc, const run_opts *o, clab_run_mpi_book *b, long *nsteps,
                   clab_error *err)
{
    int one = 0, rc = clab_run_mpi_checkpoint_read(ms, o->restart, (clab_options *)&sc->options, b, &one, err);
    const clab_world *w = ms->d->local;
    if (!rc && b->h != sc->h) { /* another step: the rest of the run at this one */
        long rest = 0;
        rc = clab_sim_step_count(fmax(sc->t_end - w->t, 0.0), sc->h, &rest, err);
        if (!rc) *nsteps = w->step + rest;
        if (!rc && ms->d->rank == 0)
            fprintf(stderr, "contactlab run: warning: %s was written with h = %g s; this run has h = %g s, so its "
                            "CSVs continue the interrupted run's but are not what one uninterrupted run would give\n",
                    o->restart, b->h, sc->h);
    }
    if (!rc && w->step >= *nsteps)
        rc = clab_error_set(err, CLAB_EINVAL, "cannot restart: %s holds step %ld (t = %.9g s), the end of this run or "
                                              "past it (t_end = %g s, step %ld): nothing to continue", o->restart,
                            w->step, w->t, sc->t_end, *nsteps);
    if (!rc && ms->d->rank == 0) {
        printf("%s: restarting from %s%s at step %ld, t = %.9g s, on %d rank(s)\n", o->scene, o->restart,
               one ? " (a one-process run's)" : "", w->step, w->t, ms->d->size);
        fflush(stdout);
    }
    return rc;
}

static const char *signal_name(int sig) { return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal"; }

int clab_xp_mpi_run(int argc, char **argv)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    run_opts o;
    memset(&o, 0, sizeof o);
    o.out = "out/run";
    clab_options_init(&o.cli);
    if (parse(argc, argv, &o, rank)) {
        clab_options_free(&o.cli);
        return 2;
    }
    clab_error err;
    clab_error_clear(&err);
    /* rank 0 alone reads the scene, makes its refusals and metadata, and sends the rest the
     * settings (share_settings) and the bodies (start: clab_mpi_domain_create) */
    clab_scene sc;
    clab_scene_init(&sc);
    clab_options meta;
    clab_options_init(&meta);
    long nsteps = 0;
    int rc = CLAB_OK;
    if (rank == 0) {
        rc = clab_scene_load(o.scene, &sc, &err);
        if (!rc) {
            if (o.backend) snprintf(sc.backend, sizeof sc.backend, "%s", o.backend);
            if (o.h > 0) sc.h = o.h;
            if (o.t_end > 0) sc.t_end = o.t_end;
            if (o.every > 0) sc.output_every = o.every;
            clab_options_merge(&sc.options, &o.cli);
            rc = clab_mpi_rank_options(sc.backend, &sc.options, &err); /* the dvi backend's fast=off sums=exact */
        }
        if (!rc) rc = one_process_meta(&sc, sc.backend, &meta, &nsteps, &err);
    }
    clab_mpi_domain *d = NULL;
    clab_mpi_sim *ms = NULL;
    run_files f;
    memset(&f, 0, sizeof f);
    f.ns = NSFORCE;
    xp_run_extra_init(&f.x);
    f.x.contacts_every = o.contacts;
    int all = 0;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!all) {
        rc = share_settings(&sc, &nsteps, rank, &err);
        MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
    if (!all) rc = start(&sc, &o, &d, &ms, &err);
    else if (!rc) rc = all; /* rank 0 (or another) refused the scene: its message is on its stderr */
    char name[256];
    const char *base = strrchr(o.scene, '/');
    snprintf(name, sizeof name, "%s", base ? base + 1 : o.scene);
    char *dot = strrchr(name, '.');
    if (dot) *dot = '\0';
    snprintf(f.prefix, sizeof f.prefix, "%s-%s", name, sc.backend);
    snprintf(f.ckpt, sizeof f.ckpt, "%s/%s.ckpt", o.out, f.prefix);
    f.keep = kept_args(argc, argv, &f.nkeep);
    f.argc = argc, f.argv = argv;
    clab_run_mpi_book book;
    memset(&book, 0, sizeof book);
    if (!rc && o.restart) rc = restart(ms, &sc, &o, &book, &nsteps, &err);
    long old_every = 0;
    if (!rc) {
        f.nout = (long)book.nout;
        /* rank 0 writes the frames; the others hold no whole world */
        f.nshapes = rank == 0 ? clab_vtk_count_shapes(d->global) : 0;
        const int orc = rank == 0 ? open_files(&sc, &o, d, name, &meta, &f, o.restart ? &book : NULL, &old_every, &err)
                                  : CLAB_OK;
        rc = clab_mpi_agree(d, orc, NULL, &err);
    }
    MPI_Bcast(&old_every, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    /* the rows of step 0, every output step and the last, as contactlab run writes them (a
     * restart: not the rows of its first step when the interrupted run wrote them) */
    const long every = sc.output_every > 0 ? sc.output_every : 1;
    int sig = 0, status = 0;
    if (!rc) {
        const long k0 = d->local->step;
        const int start_row_done = o.restart && k0 % (old_every > 0 ? old_every : every) == 0;
        xp_catch_signals();
        rc = run_steps(ms, &o, &f, every, nsteps, start_row_done, &sig, &status, &err);
    }
    if (f.fb && clab_csv_close(f.fb, rc ? NULL : &err) && !rc) rc = CLAB_EIO;
    if (f.fs && clab_csv_close(f.fs, rc ? NULL : &err) && !rc) rc = CLAB_EIO;
    if (xp_run_extra_close(&f.x, rc ? NULL : &err) && !rc) rc = CLAB_EIO;
    if (!rc && rank == 0 && status) {
        const clab_world *w = d->local; /* (every rank has the step and t) */
        if (sig) printf("contactlab run: stopped by %s after step %ld of %ld (t = %.9g s)", signal_name(sig), w->step,
                        nsteps, w->t);
        else printf("contactlab run: stopped after step %ld of %ld (t = %.9g s), as --stop-after asked", w->step,
                    nsteps, w->t);
        printf(" on %d rank(s); CSVs flushed (complete rows), checkpoint written: %s\n", size, f.ckpt);
        print_resume(&f, &o, size);
    } else if (!rc && rank == 0)
        printf("%s: %ld steps on %d rank(s) (grid %dx%dx%d), %ld rebuilds; %s/%s-{bodies,steps,body-names}.csv\n",
               o.scene, nsteps, size, d->grid[0], d->grid[1], d->grid[2], d->traffic.rebuilds, o.out, f.prefix);
    if (!rc && rank == 0) { /* iteration-limit hits are results too, as contactlab run says */
        clab_solver_stats st;
        memset(&st, 0, sizeof st);
        if (ms->sim->type->stats) ms->sim->type->stats(ms->sim->self, &st);
        if (st.maxiter_hits > 0)
            fprintf(stderr, "contactlab run: warning: %ld of %ld %s solves stopped at the iteration limit (max_iter) "
                            "without reaching the tolerance; the steps CSV counts them in column maxiter_hits\n",
                    st.maxiter_hits, st.solves, ms->sim->type->name);
    }
    fflush(stdout);
    if (rc && err.msg[0]) fprintf(stderr, "contactlab run (mpi, rank %d): %s: %s\n", rank, o.scene, err.msg);
    free(f.keep);
    clab_mpi_sim_destroy(ms);
    clab_mpi_domain_destroy(d);
    clab_options_free(&meta);
    clab_scene_free(&sc);
    clab_options_free(&o.cli);
    return rc ? 1 : status;
}
