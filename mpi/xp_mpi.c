/* xp_mpi.c: the contactlab command under mpirun (built with --with-mpi; doc/mpi.md):
 *
 *     mpirun -np P contactlab bench chute|pile [--quick] [--steps N] [--check] [--state FILE] ...
 *
 * runs the benchmark's world (built by rank 0 alone, which sends each rank its bodies:
 * clab_mpi_domain_create) across P ranks (clab_mpi.h) and prints, on rank 0, the time, the
 * exchange layer's traffic per step and rank, and the FNV-1a 64 hash of the end state (r, e,
 * rdot, wbar of every body in the global order); --check also runs the same steps on rank 0
 * alone with clab_sim (the one-process path of contactlab bench) and compares the two end
 * states bit for bit; --state FILE writes the end state's doubles (13 a body) for a checksum;
 * --csv FILE the run's figures a rank (contactlab bench --mpi, mpi/bench_mpi.c, reads them).
 * Every other command refuses to run on more than one rank, naming itself. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "chute_data.h"
#include "clab_lammps.h"
#include "clab_mpi.h"
#include "mpi_internal.h"
#include "pile_scene.h"
#include "xp_mpi.h"

/* `contactlab run ... --restart F` with F a checkpoint of a run across ranks (CLABMPI1): continued
 * by the decomposition on however many ranks this is, 1 (with or without mpirun) included */
static int run_restarts_mpi(int argc, char **argv)
{
    const char *f = NULL;
    for (int i = 2; argc >= 2 && !strcmp(argv[1], "run") && i < argc; i++) {
        if (!strcmp(argv[i], "--restart") && i + 1 < argc) f = argv[i + 1];
        else if (!strncmp(argv[i], "--restart=", 10)) f = argv[i] + 10;
    }
    char m[8];
    FILE *fp = f ? fopen(f, "rb") : NULL;
    const int mpi = fp && fread(m, 1, 8, fp) == 8 && !memcmp(m, "CLABMPI1", 8);
    if (fp) fclose(fp);
    return mpi;
}

int clab_xp_mpi_wanted(int argc, char **argv)
{
    const char *n = getenv("OMPI_COMM_WORLD_SIZE");
    if (!n) n = getenv("PMI_SIZE");
    if (!n) return run_restarts_mpi(argc, argv);
    return atoi(n) > 1 || (argc >= 2 && strcmp(argv[1], "bench") == 0) || run_restarts_mpi(argc, argv);
}

typedef struct mpi_opts {
    bench_ctx c;
    long steps;
    int check, grid[3], nx, balance;
    double skin;
    char state[1024], ckpt[1024], restart[1024], csv[1024];
    long ckpt_step;
    const char *backend;    /* penalty (default) or dvi */
    double h;               /* the step [s] (0: the benchmark's) */
    const char *kv[32];     /* --opt K=V, in order */
    int nkv;
} mpi_opts;

static void usage(FILE *f)
{
    fprintf(f, "usage: mpirun -np P contactlab bench chute|pile [options]   (doc/mpi.md)\n"
               "  --steps N        steps (default 1000; --quick 100)\n"
               "  --quick          the small chute (2,000 spheres) and pile (nx 4: 1,280 spheres)\n"
               "  --nx N           pile: N x N x 20 fcc cells (4 N^2 20 spheres; default 8, --quick 4)\n"
               "  --data PATH      chute: LAMMPS's data.chute (as bench chute --data)\n"
               "  --out DIR        chute: where the packing contactlab makes is kept (default out/bench)\n"
               "  --grid AxBxC     the ranks along x, y, z (default: the least brick surface)\n"
               "  --balance        at every rebuild, the cuts at the quantiles of the bodies' centers (equal\n"
               "                   counts a slab; default: even cuts)\n"
               "  --skin S         rebuild the decomposition when a body moved more than S/2 [m] (default: the\n"
               "                   collider's Verlet skin when the benchmark sets one, the chute's 0.1;\n"
               "                   else 0.1 x the largest radius)\n"
               "  --checkpoint F   write a checkpoint of the run to F (one file, any P restarts from it) after\n"
               "                   step --checkpoint-step N (default: the last)\n"
               "  --restart F      continue from such a checkpoint up to step --steps\n"
               "  --backend B      penalty (default) or dvi (solver=jacobi|apgd|gs, run with fast=off sums=exact)\n"
               "  --h S            the step [s] (default: chute 1e-5; pile: penalty's stable step, dvi 1e-3)\n"
               "  --opt K=V        a backend or sim option (repeatable), as contactlab run takes them\n"
               "  --check          also run the steps on rank 0 alone (clab_sim) and compare bit for bit\n"
               "  --state FILE     rank 0 writes the end state: 13 doubles a body (r, e, rdot, wbar), global order\n"
               "  --csv FILE       rank 0 writes the run's figures, a row a rank: time, hash, local bodies, traffic\n"
               "                   per step, time in exchanges, a rebuild's computing time, peak memory and its part\n"
               "                   above the start (bench --mpi reads it)\n");
}

static int parse(int argc, char **argv, mpi_opts *o, const char **which)
{
    memset(o, 0, sizeof *o);
    snprintf(o->c.out, sizeof o->c.out, "out/bench");
    o->steps = -1;
    o->backend = "penalty";
    static const struct option lo[] = {{"steps", required_argument, 0, 's'}, {"quick", no_argument, 0, 'q'},
                                       {"nx", required_argument, 0, 'n'},    {"data", required_argument, 0, 'd'},
                                       {"out", required_argument, 0, 'o'},   {"grid", required_argument, 0, 'g'},
                                       {"skin", required_argument, 0, 'k'},  {"check", no_argument, 0, 'c'},
                                       {"state", required_argument, 0, 'w'}, {"help", no_argument, 0, 'h'},
                                       {"balance", no_argument, 0, 'b'},     {"checkpoint", required_argument, 0, 'C'},
                                       {"checkpoint-step", required_argument, 0, 'S'},
                                       {"restart", required_argument, 0, 'R'},
                                       {"backend", required_argument, 0, 'B'}, {"h", required_argument, 0, 'H'},
                                       {"opt", required_argument, 0, 'O'},   {"csv", required_argument, 0, 'V'},
                                       {0, 0, 0, 0}};
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        char *end = NULL;
        switch (ch) {
        case 's': o->steps = strtol(optarg, &end, 10); if (*end || o->steps < 0) goto bad; break;
        case 'q': o->c.quick = 1; break;
        case 'n': o->nx = (int)strtol(optarg, &end, 10); if (*end || o->nx < 1 || o->nx > 200) goto bad; break;
        case 'd': snprintf(o->c.data_dir, sizeof o->c.data_dir, "%s", optarg); break;
        case 'o': snprintf(o->c.out, sizeof o->c.out, "%s", optarg); break;
        case 'g':
            if (sscanf(optarg, "%dx%dx%d", &o->grid[0], &o->grid[1], &o->grid[2]) != 3 || o->grid[0] < 1 ||
                o->grid[1] < 1 || o->grid[2] < 1)
                goto bad;
            break;
        case 'k': o->skin = strtod(optarg, &end); if (*end || !(o->skin > 0.0)) goto bad; break;
        case 'c': o->check = 1; break;
        case 'b': o->balance = 1; break;
        case 'C': snprintf(o->ckpt, sizeof o->ckpt, "%s", optarg); break;
        case 'S': o->ckpt_step = strtol(optarg, &end, 10); if (*end || o->ckpt_step < 0) goto bad; break;
        case 'R': snprintf(o->restart, sizeof o->restart, "%s", optarg); break;
        case 'w': snprintf(o->state, sizeof o->state, "%s", optarg); break;
        case 'V': snprintf(o->csv, sizeof o->csv, "%s", optarg); break;
        case 'B': o->backend = optarg; break;
        case 'H': o->h = strtod(optarg, &end); if (*end || !(o->h > 0.0 && o->h < 1.0)) goto bad; break;
        case 'O':
            if (o->nkv == 32) goto bad;
            o->kv[o->nkv++] = optarg;
            break;
        case 'h': return 1;
        default:
            fprintf(stderr, "contactlab bench (mpi): unknown option '%s' (--help lists them)\n", argv[optind - 1]);
            return -1;
        }
        continue;
    bad:
        fprintf(stderr, "contactlab bench (mpi): bad value '%s' for --%s (--help says what is allowed)\n", optarg,
                lo[0].name ? argv[optind - 1] + 2 : "");
        return -1;
    }
    if (optind >= argc) {
        fprintf(stderr, "contactlab bench (mpi): name the benchmark: chute or pile\n");
        return -1;
    }
    *which = argv[optind];
    if (optind + 1 < argc) {
        fprintf(stderr, "contactlab bench (mpi): one benchmark a run (got '%s' after '%s')\n", argv[optind + 1], *which);
        return -1;
    }
    if (strcmp(*which, "chute") && strcmp(*which, "pile")) {
        fprintf(stderr, "contactlab bench %s: not supported across MPI ranks (chute and pile are)\n", *which);
        return -1;
    }
    if (o->steps < 0) o->steps = o->c.quick ? 100 : 1000;
    if (o->nx == 0) o->nx = o->c.quick ? 4 : 8;
    return 0;
}

/* the benchmark's world, its backend options and step (not collective: the chute's data must
 * exist, or is made here; xp_mpi.h) */
clab_world *clab_xp_mpi_bench_world(const bench_ctx *c, const char *which, int nx, const char *backend, clab_options *opt,
                                    double *h, clab_error *err)
{
    clab_world *w = NULL;
    if (strcmp(which, "chute") == 0) {
        clab_lammps_info info;
        memset(&info, 0, sizeof info);
        w = bench_chute_world(c, &info, err);
        clab_lammps_info_free(&info);
        chute_law_options(opt);
        clab_options_set(opt, "sphere_orientation", "off", NULL);
        clab_options_set(opt, "skin", "0.1", NULL);
        *h = CHUTE_H;
    } else {
        w = bench_pile_world(nx, err);
        if (w && strcmp(backend, "penalty") != 0) *h = 1e-3; /* rigid contacts (pile_scene.h) */
        else if (w) { /* the pile's step, as bench pile takes it */
            clab_sim *s = clab_sim_create(w, "penalty", 1e-5, NULL, err);
            if (!s) {
                clab_world_destroy(w);
                return NULL;
            }
            *h = xp_pile_penalty_step(s);
            clab_sim_destroy(s);
        }
    }
    if (w) {
        /* into cell order once, as bench chute and pile sort before their timed steps */
        size_t *perm = malloc((w->nbodies ? w->nbodies : 1) * sizeof *perm);
        if (!perm || clab_world_cell_order(w, 0.0, perm, NULL, err) || clab_world_permute(w, perm, err)) {
            if (!perm) clab_error_set(err, CLAB_ENOMEM, "out of memory");
            free(perm);
            clab_world_destroy(w);
            return NULL;
        }
        free(perm);
    }
    return w;
}

/* rank 0: the benchmark's world (the chute's packing made first when not given); the other
 * ranks get their bodies from it (clab_mpi_domain_create) */
static clab_world *make_world(const mpi_opts *o, const char *which, clab_options *opt, double *h, clab_error *err)
{
    if (strcmp(which, "chute") == 0 && !o->c.data_dir[0]) {
        char dir[1200];
        if (chute_default_data(o->c.out, o->c.quick, dir, sizeof dir)) {
            clab_error_set(err, CLAB_EIO, "the chute's data could not be made");
            return NULL;
        }
    }
    return clab_xp_mpi_bench_world(&o->c, which, o->nx, o->backend, opt, h, err);
}

/* the solver's counts of a backend that solves (dvi), as its stats give them */
static void print_solver(const clab_sim *s, const char *what)
{
    clab_solver_stats st;
    memset(&st, 0, sizeof st);
    s->type->stats(s->self, &st);
    if (st.solves > 0)
        printf("  %s: %ld solves, %ld iterations, %ld at the limit; the last: %ld iterations, residual %.17g m/s\n", what,
               st.solves, st.total_iterations, st.maxiter_hits, st.iterations, st.residual);
    if (st.solves > 0) /* Eq. (7)-(8) at the last solve's gamma */
        printf("  %s, complementarity: gamma outside K %.17g N s, d outside K* %.17g m/s, |gamma.d| %.17g N m\n", what,
               st.gamma_outside_K, st.d_outside_polar, st.complementarity);
}

/* the one-rank run of the same steps (clab_sim, as bench chute runs it), its end state's hash */
static int reference(const clab_world *w0, const char *backend, clab_options *opt, double h, long steps, uint64_t *hash,
                     clab_error *err)
{
    clab_world *w = clab_world_clone(w0);
    if (!w) return clab_error_set(err, CLAB_ENOMEM, "out of memory");
    clab_options o;
    clab_options_init(&o);
    clab_options_merge(&o, opt);
    /* the energy bound off, as on the ranks (clab_mpi_sim_create): a check, not a change of state */
    if (!clab_options_get(&o, "guard_energy")) clab_options_set(&o, "guard_energy", "0", NULL);
    clab_sim *s = clab_sim_create(w, backend, h, &o, err);
    clab_options_free(&o);
    int rc = s ? CLAB_OK : CLAB_EINVAL;
    for (long k = 0; k < steps && !rc; k++) rc = clab_sim_step(s, err);
    if (!rc) *hash = clab_mpi_state_hash(w);
    if (!rc) print_solver(s, "solver, one-rank reference");
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

static int write_state(const char *path, const clab_world *w)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    for (size_t i = 0; i < w->nbodies; i++) {
        double s[CLAB_MPI_STATE];
        clab_mpi_pack(&w->bodies[i], s);
        fwrite(s, sizeof s, 1, f);
    }
    return fclose(f) ? -1 : 0;
}

/* what each rank measured, gathered on rank 0 (the columns of --csv) */
enum {
    F_FWD_BYTES, F_FWD_MSG, F_RE_BYTES, F_RE_MSG, F_T_EXCH, F_LOCAL, F_OWNED, F_CCP_BYTES, F_CCP_MSG, F_CCP_RED,
    F_CCP_RED_BYTES, F_FIXED, F_T_REBUILD, F_PEAK_RSS, F_PEAK_ABOVE, F_N
};

/* this rank's figures */
static void rank_figures(const clab_mpi_domain *d, double rss0, double *f)
{
    const clab_mpi_traffic *t = &d->traffic;
    double owned = 0.0, fixed = 0.0;
    for (size_t k = 0; k < d->local->nbodies; k++) {
        owned += d->mine[k];
        fixed += d->local->bodies[k].fixed != 0;
    }
    memset(f, 0, F_N * sizeof *f);
    f[F_FWD_BYTES] = t->fwd_bytes;
    f[F_FWD_MSG] = (double)t->fwd_messages;
    f[F_RE_BYTES] = t->re_bytes;
    f[F_RE_MSG] = (double)t->re_messages;
    f[F_T_EXCH] = t->t_exchange;
    f[F_LOCAL] = (double)d->local->nbodies;
    f[F_OWNED] = owned;
    f[F_CCP_BYTES] = t->ccp_bytes;
    f[F_CCP_MSG] = (double)t->ccp_messages;
    f[F_CCP_RED] = (double)t->ccp_reductions;
    f[F_CCP_RED_BYTES] = t->ccp_reduce_bytes;
    f[F_FIXED] = fixed;
    f[F_PEAK_RSS] = bench_peak_rss_bytes();
    f[F_PEAK_ABOVE] = clab_mpi_peak_rss() - rss0;
}

/* the wall time of the steps that rebuilt (1) and of the others (0), and of their exchanges */
typedef struct step_clock {
    double t[2], x[2];
    long n[2];
} step_clock;

/* what a rebuild computes besides its messages (owners, the local world, the exchange lists, the
 * keyed records): the mean step with a rebuild less the mean step without, exchanges out of
 * both [s]; NAN when the run had no step of one kind */
static double rebuild_compute(const step_clock *c)
{
    if (c->n[0] == 0 || c->n[1] == 0) return NAN;
    return fmax(0.0, (c->t[1] - c->x[1]) / c->n[1] - (c->t[0] - c->x[0]) / c->n[0]);
}

/* the traffic of every rank, per step, on rank 0 (all: F_N figures a rank) */
static void print_traffic(const double *all, int size, long steps)
{
    const double st = steps > 0 ? (double)steps : 1.0;
    for (int q = 0; q < size; q++) {
        const double *a = all + F_N * q;
        printf("  rank %d: %.0f owned, %.0f local bodies; per step: forward %.0f bytes in %.2f messages, rebuilds %.0f bytes in "
               "%.2f messages; %.3g s in exchanges\n",
               q, a[F_OWNED], a[F_LOCAL], a[F_FWD_BYTES] / st, a[F_FWD_MSG] / st, a[F_RE_BYTES] / st, a[F_RE_MSG] / st,
               a[F_T_EXCH]);
        if (a[F_CCP_RED] > 0.0)
            printf("  rank %d: the CCP solver per step: %.0f bytes of ghost velocities in %.2f messages, %.2f all-reduces "
                   "of %.0f bytes\n",
                   q, a[F_CCP_BYTES] / st, a[F_CCP_MSG] / st, a[F_CCP_RED] / st, a[F_CCP_RED_BYTES] / st);
    }
}

/* --csv FILE: the run's figures, one row a rank (the run's own columns repeated on each), for
 * contactlab bench --mpi (mpi/bench_mpi.c) to read */
static int write_csv(const char *path, const char *which, const mpi_opts *o, const clab_mpi_domain *d, long nb,
                     long moving, long ran, double sec, uint64_t hash, const double *all)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    const double st = ran > 0 ? (double)ran : 1.0;
    const clab_mpi_traffic *t = &d->traffic;
    fprintf(f, "# contactlab bench %s across MPI ranks (mpirun -np %d contactlab bench %s; doc/mpi.md)\n"
               "# backend = %s\n# steps = %ld\n# reach = %.17g m (a ghost's bounding sphere within reach of the brick)\n"
               "# skin = %.17g m\n# per step: the figures over the steps run; reductions: the agreement after every step "
               "and every rebuild (MPI_Allreduce of 3 ints)\n",
            which, d->size, which, o->backend, ran, d->reach, d->skin);
    fprintf(f, "benchmark,ranks,grid,bodies,moving,steps,seconds,ns_per_particle_step,rebuilds,hash,rank,owned,local,"
               "ghosts,replicated,fwd_bytes_per_step,fwd_messages_per_step,rebuild_bytes_per_step,"
               "rebuild_messages_per_step,reductions_per_step,ccp_bytes_per_step,ccp_messages_per_step,"
               "ccp_reductions_per_step,exchange_s,rebuild_compute_s,peak_rss_bytes,reach_m,peak_rss_above_start_bytes\n");
    for (int q = 0; q < d->size; q++) {
        const double *a = all + F_N * q;
        fprintf(f, "%s,%d,%dx%dx%d,%ld,%ld,%ld,%.9g,%.6g,%ld,%016llx,%d,%.0f,%.0f,%.0f,%.0f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,"
                   "%.9g,%.9g,%.9g,%.9g,%.0f,%.17g,%.0f\n",
                which, d->size, d->grid[0], d->grid[1], d->grid[2], nb, moving, ran, sec,
                1e9 * sec / ((double)moving * st), t->rebuilds, (unsigned long long)hash, q, a[F_OWNED], a[F_LOCAL],
                a[F_LOCAL] - a[F_OWNED] - a[F_FIXED], a[F_FIXED], a[F_FWD_BYTES] / st, a[F_FWD_MSG] / st,
                a[F_RE_BYTES] / st, a[F_RE_MSG] / st, 1.0 + (double)t->rebuilds / st, a[F_CCP_BYTES] / st,
                a[F_CCP_MSG] / st, a[F_CCP_RED] / st, a[F_T_EXCH], a[F_T_REBUILD], a[F_PEAK_RSS], d->reach, a[F_PEAK_ABOVE]);
    }
    const int bad = ferror(f);
    return fclose(f) || bad ? -1 : 0;
}

static int bench_mpi(int argc, char **argv)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mpi_opts o;
    const char *which = NULL;
    int p = parse(argc, argv, &o, &which);
    if (p) {
        if (p > 0 && rank == 0) usage(stdout);
        return p > 0 ? 0 : 2;
    }
    bench_set_threads(1); /* one thread a rank: the ranks are the parallelism */
    clab_error err;
    clab_error_clear(&err);
    clab_options opt;
    clab_options_init(&opt);
    double h = 0.0;
    const double rss0 = clab_mpi_rss(); /* the memory report's start (clab_mpi_print_memory) */
    /* rank 0 alone builds the world, its options and step, and runs --check's reference */
    clab_world *w = NULL;
    int rc = CLAB_OK;
    uint64_t ref = 0;
    double Rmax = 0.0;
    if (rank == 0) {
        w = make_world(&o, which, &opt, &h, &err);
        rc = w ? CLAB_OK : (err.status ? err.status : CLAB_EINVAL);
        if (o.h > 0.0) h = o.h;
        for (int k = 0; k < o.nkv && !rc; k++) rc = clab_options_parse(&opt, o.kv[k], "--opt", &err);
        if (!rc) rc = clab_mpi_rank_options(o.backend, &opt, &err); /* the one-process reference's too */
        if (!rc && o.check) rc = reference(w, o.backend, &opt, h, o.steps, &ref, &err);
        for (size_t i = 0; w && i < w->nbodies; i++)
            if (!w->bodies[i].fixed) Rmax = fmax(Rmax, clab_shape_bound_radius(&w->bodies[i].shape));
    }
    long cnt[2] = {w ? (long)w->nbodies : 0, 0}; /* bodies, moving ones */
    for (size_t i = 0; w && i < w->nbodies; i++) cnt[1] += !w->bodies[i].fixed;
    clab_mpi_domain *d = NULL;
    clab_mpi_sim *ms = NULL;
    int all = 0;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!all) { /* what the other ranks need of rank 0's making */
        double hr[2] = {h, Rmax};
        MPI_Bcast(hr, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Bcast(cnt, 2, MPI_LONG, 0, MPI_COMM_WORLD);
        h = hr[0], Rmax = hr[1];
        rc = clab_mpi_bcast_options(&opt, MPI_COMM_WORLD);
        if (rc) clab_error_set(&err, rc, "out of memory for the options");
        MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
    const size_t nb = (size_t)cnt[0];
    const long moving = cnt[1];
    if (!all) {
        /* the ghosts' reach covers the backend's envelope (the DVI's delta_K) */
        const clab_backend_type *type = clab_backend_lookup(o.backend);
        const char *env = clab_options_get(&opt, "envelope");
        const double envelope = fmax(type ? type->default_envelope : 0.0, env ? atof(env) : 0.0);
        /* the skin: the collider's, where set, so that the decomposition and the pair list are
         * rebuilt together (a rebuild of the decomposition rebuilds the list) */
        const char *vs = clab_options_get(&opt, "skin");
        const double skin = o.skin > 0.0 ? o.skin : vs && atof(vs) > 0.0 ? atof(vs) : 0.1 * Rmax;
        rc = clab_mpi_domain_create(&d, MPI_COMM_WORLD, w, o.grid, o.balance, skin, envelope, &err);
        w = NULL; /* the domain's */
        if (!rc) clab_mpi_domain_release(d); /* rank 0 too holds no whole world between outputs */
        if (!rc) rc = clab_mpi_sim_create(&ms, d, o.backend, h, &opt, &err);
        if (!rc && rank == 0)
            printf("  %s: %zu bodies (%ld moving) on %d rank(s), grid %dx%dx%d, %s backend, h %g, %ld steps\n", which, nb,
                   moving, size, d->grid[0], d->grid[1], d->grid[2], o.backend, h, o.steps);
        MPI_Barrier(MPI_COMM_WORLD);
        if (!rc && o.restart[0]) rc = clab_mpi_checkpoint_read(ms, o.restart, &err);
        if (!rc && o.restart[0] && rank == 0) printf("  restarted from %s at step %ld\n", o.restart, d->local->step);
        const long from = d ? d->local->step : 0, at = o.ckpt_step > 0 ? o.ckpt_step : o.steps;
        step_clock clk;
        memset(&clk, 0, sizeof clk);
        const double t0 = MPI_Wtime();
        while (!rc && d->local->step < o.steps) {
            const long r0 = d->traffic.rebuilds;
            const double s0 = MPI_Wtime(), x0 = d->traffic.t_exchange;
            rc = clab_mpi_sim_step(ms, &err);
            const int re = d->traffic.rebuilds != r0; /* the steps that rebuilt, timed apart */
            clk.t[re] += MPI_Wtime() - s0;
            clk.x[re] += d->traffic.t_exchange - x0;
            clk.n[re]++;
            if (!rc && o.ckpt[0] && d->local->step == at) rc = clab_mpi_checkpoint_write(ms, o.ckpt, &err);
        }
        if (!rc && o.ckpt[0] && from >= at) rc = clab_mpi_checkpoint_write(ms, o.ckpt, &err);
        const double sec = MPI_Wtime() - t0;
        const long ran = d ? d->local->step - from : 0;
        if (!rc) clab_mpi_print_memory(d, rss0); /* (resident and peak above rss0) */
        if (!rc) rc = clab_mpi_gather(d, 0, &err);
        if (!rc) {
            /* every rank's figures on rank 0 */
            double mine[F_N];
            rank_figures(d, rss0, mine);
            mine[F_T_REBUILD] = rebuild_compute(&clk);
            double *all = rank == 0 ? malloc(F_N * (size_t)size * sizeof *all) : NULL;
            MPI_Gather(mine, F_N, MPI_DOUBLE, all, F_N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
            if (rank == 0 && !all) rc = clab_error_set(&err, CLAB_ENOMEM, "out of memory");
            if (rank == 0 && all) {
                print_traffic(all, size, d->traffic.steps);
                const uint64_t hash = clab_mpi_state_hash(d->global);
                printf("  %ld steps in %.3f s: %.4g particle-steps/s, %.1f ns a particle-step; %ld rebuilds\n", ran,
                       sec, moving * (double)ran / sec, 1e9 * sec / (moving * (double)(ran > 0 ? ran : 1)),
                       d->traffic.rebuilds);
                printf("  end state hash (FNV-1a 64 of r e rdot wbar): %016llx\n", (unsigned long long)hash);
                print_solver(ms->sim, "solver, across ranks");
                if (o.check)
                    printf("  one-rank clab_sim reference: %016llx: %s\n", (unsigned long long)ref,
                           ref == hash ? "identical" : "DIFFERENT");
                if (o.check && ref != hash) rc = CLAB_EINVAL;
                if (o.state[0] && write_state(o.state, d->global)) {
                    fprintf(stderr, "contactlab bench %s (mpi): cannot write %s\n", which, o.state);
                    rc = CLAB_EIO;
                }
                if (o.csv[0] && write_csv(o.csv, which, &o, d, (long)nb, moving, ran, sec, hash, all)) {
                    fprintf(stderr, "contactlab bench %s (mpi): cannot write %s\n", which, o.csv);
                    rc = CLAB_EIO;
                }
            }
            free(all);
        }
    }
    if (rc && err.msg[0]) fprintf(stderr, "contactlab bench %s (mpi, rank %d): %s\n", which, rank, err.msg);
    clab_mpi_sim_destroy(ms);
    clab_mpi_domain_destroy(d);
    clab_world_destroy(w);
    clab_options_free(&opt);
    return rc ? 1 : 0;
}

int clab_xp_mpi_main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, status;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc >= 2 && strcmp(argv[1], "bench") == 0) {
        status = bench_mpi(argc - 1, argv + 1);
    } else if (argc >= 2 && strcmp(argv[1], "run") == 0) {
        status = clab_xp_mpi_run(argc - 1, argv + 1);
    } else {
        if (rank == 0)
            fprintf(stderr,
                    "contactlab %s: not supported across MPI ranks (mpirun -np %d); under mpirun contactlab runs "
                    "`run`, `bench chute` and `bench pile` (doc/mpi.md); run the others without mpirun\n",
                    argc >= 2 ? argv[1] : "", size);
        status = 2;
    }
    int worst = 0;
    MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return worst;
}
