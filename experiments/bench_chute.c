/* bench_chute.c: `contactlab bench chute`, the LAMMPS chute benchmark side by side with LAMMPS.
 *
 * The particles of LAMMPS's bench/data.chute (32,000 spheres of diameter 1 and density 1, the
 * 912 of type 2 a frozen rough base) are imported with clab_lammps_read_data and run with the
 * physics of bench/in.chute: Hookean normal force k_n delta - m_eff gamma_n v_n (k_n = 2e5,
 * gamma_n = 50), tangential spring with history k_t = 2/7 k_n, gamma_t = 0, Coulomb cap mu = 0.5
 * on the total tangential force, no clamp of an attractive normal force (LAMMPS's default,
 * limit_damping off), velocity Verlet with rotation, h = 1e-4, gravity of magnitude 1 tilted
 * 26 degrees from -z toward +x, periodic in x and y. Reduced (LJ) units: every number is
 * consistent, so contactlab's SI labels read as "reduced".
 *
 * Figures: particle-steps per second (moving particles x steps / wall seconds of the timed
 * steps, best of 3) for 100 and 1000 steps and each thread count, LAMMPS's the same way from
 * its "Loop time" in the same run, and the translational and rotational kinetic energy after
 * 0, 100 and 1000 steps against LAMMPS's thermo output (chute-physics.csv). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "clab_backend_fast.h"
#include "clab_lammps.h"
#include "clab_sim.h"

/* the physics of in.chute */
#define CHUTE_KN 2.0e5         /* k_n [reduced force/length] */
#define CHUTE_GN 50.0          /* gamma_n [1/time]: damping coefficient m_eff gamma_n */
#define CHUTE_MU 0.5           /* Coulomb coefficient */
#define CHUTE_H 1.0e-4         /* time step */
#define CHUTE_G 1.0            /* gravity magnitude */
#define CHUTE_ANGLE_DEG 26.0   /* tilt from -z toward +x (fix gravity ... chute 26.0) */
#define CHUTE_MAX_STEPS 2

typedef struct chute_ke {
    double trans; /* sum 1/2 m |v|^2 (LAMMPS thermo ke, norm no) */
    double rot;   /* sum 1/2 I |w|^2 with I = 2/5 m r^2 (compute erotate/sphere) */
} chute_ke;

/* one LAMMPS run's figures */
typedef struct lammps_out {
    double loop;      /* "Loop time of T" [s] */
    int procs;        /* "on P procs" */
    chute_ke ke0, ke; /* thermo at step 0 and at the last step */
    int have_ke;
    long neighbors, builds; /* "Total # of neighbors = N", "Neighbor list builds = N" (-1: absent) */
    double cpu_use;         /* "P% CPU use with ..." / 100: the share of the loop the process was on a core */
    double part[6];         /* its timing breakdown, average over the processes [s]: Pair, Neigh, Comm,
                               Output, Modify, Other (-1: absent) */
} lammps_out;

/* the parts of LAMMPS's "MPI task timing breakdown", in lammps_out.part's order */
static const char *const lammps_parts[6] = {"Pair", "Neigh", "Comm", "Output", "Modify", "Other"};

/* where contactlab's step spent its wall time (clab_sim_times, the collider's and the
 * backend's own parts) */
typedef struct chute_times {
    clab_sim_times sim;
    clab_broadphase_stats bs;
    double t_contacts, t_bodies; /* the backend's passes (clab_sim_backend_times) [s] */
} chute_times;

/* ---- files ---- */

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* dir/name into out (n bytes); -1 when it does not fit */
static int join(char *out, size_t n, const char *dir, const char *name)
{
    int len = snprintf(out, n, "%s/%s", dir, name);
    return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* data.chute and in.chute: --data names the file itself, a folder holding it, or (the
 * default) the peer-benchmark folder holding lammps-chute/ */
static int find_data(const bench_ctx *c, char *data, char *in, size_t n)
{
    char dir[2048];
    int bad = 0;
    if (is_file(c->data_dir)) {
        snprintf(data, n, "%s", c->data_dir);
        snprintf(dir, sizeof dir, "%s", c->data_dir);
        char *slash = strrchr(dir, '/');
        if (slash) *slash = '\0';
        else snprintf(dir, sizeof dir, ".");
    } else {
        bad |= join(data, n, c->data_dir, "data.chute");
        snprintf(dir, sizeof dir, "%s", c->data_dir);
        if (!is_file(data)) {
            bad |= join(dir, sizeof dir, c->data_dir, "lammps-chute");
            bad |= join(data, n, dir, "data.chute");
        }
    }
    bad |= join(in, n, dir, "in.chute");
    if (!bad && is_file(data)) return 0;
    fprintf(stderr,
            "contactlab bench chute: the LAMMPS chute data file is missing: looked for %s/data.chute and %s "
            "(bench/data.chute of the LAMMPS distribution, with in.chute beside it); give its folder or the file "
            "with --data\n",
            c->data_dir, data);
    return -1;
}

/* ---- contactlab ---- */

/* the chute's world: both atom types one material with mu = 0.5, type 2 fixed, tilted gravity */
static clab_world *chute_world(const char *data, int periodic, clab_lammps_info *info, clab_error *err)
{
    double a = CHUTE_ANGLE_DEG * M_PI / 180.0;
    /* LAMMPS fix gravity chute: theta = 180 - angle from +z, phi = 0: g (sin a, 0, -cos a) */
    clab_world_def wd = {{CHUTE_G * sin(a), 0.0, -CHUTE_G * cos(a)}};
    clab_world *w = clab_world_create(&wd);
    if (!w) {
        clab_error_set(err, CLAB_ENOMEM, "out of memory");
        return NULL;
    }
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "chute");
    m.mu = CHUTE_MU;
    int mi = clab_world_add_material(w, &m, err);
    const int type_material[3] = {0, mi, mi};
    const int type_fixed[3] = {0, 0, 1};
    clab_lammps_def def = clab_lammps_default_def();
    def.type_material = type_material;
    def.ntype_material = 3;
    def.type_fixed = type_fixed;
    def.ntype_fixed = 3;
    def.periodic[0] = def.periodic[1] = periodic;
    if (mi < 0 || clab_lammps_read_data(data, w, &def, info, err)) {
        clab_world_destroy(w);
        return NULL;
    }
    return w;
}

/* the penalty backend with in.chute's pair style gran/hooke/history 2e5 NULL 50 NULL 0.5 0 */
static clab_sim *chute_sim(clab_world *w, long sort, clab_error *err)
{
    clab_options o;
    clab_options_init(&o);
    char kt[64];
    snprintf(kt, sizeof kt, "%.17g", 2.0 / 7.0 * CHUTE_KN);
    clab_options_set(&o, "model", "hooke", NULL);
    clab_options_set(&o, "integrator", "verlet", NULL);
    clab_options_set(&o, "kn", "200000", NULL);
    clab_options_set(&o, "kt", kt, NULL);
    clab_options_set(&o, "gn", "50", NULL);
    clab_options_set(&o, "gt", "0", NULL); /* dampflag 0 */
    clab_options_set(&o, "clamp", "off", NULL);        /* LAMMPS limit_damping off: the dashpot may pull */
    clab_options_set(&o, "cap", "lammps", NULL);       /* |F_t| <= mu |F_n| */
    clab_options_set(&o, "lever", "surface", NULL);    /* lever arms: the radii */
    clab_options_set(&o, "history_start", "zero", NULL); /* setup does not advance the history */
    clab_options_set(&o, "history_turn", "project", NULL); /* shear -= (shear . n) n */
    /* atom_style sphere carries no orientation, and fix nve/sphere advances none; a sphere's
     * motion does not depend on it (doc/penalty.md), so contactlab does not advance it either
     * (CLAB_CHUTE_ORIENTATION=integrate: it does, to see the cost) */
    const char *orient = getenv("CLAB_CHUTE_ORIENTATION");
    clab_options_set(&o, "sphere_orientation", orient ? orient : "off", NULL);
    const char *skin = getenv("CLAB_CHUTE_SKIN");
    clab_options_set(&o, "skin", skin ? skin : "0.1", NULL); /* neighbor 0.1 bin: the same Verlet skin */
    char srt[32];
    snprintf(srt, sizeof srt, "%ld", sort);
    clab_options_set(&o, "sort", srt, NULL); /* LAMMPS sorts its atoms by bin every 1000 steps by default */
    clab_sim *s = clab_sim_create(w, "penalty", CHUTE_H, &o, err);
    clab_options_free(&o);
    return s;
}

static chute_ke world_ke(const clab_world *w)
{
    chute_ke k = {0.0, 0.0};
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->fixed) continue;
        k.trans += 0.5 * b->m * clab_v3_norm2(b->rdot);
        k.rot += 0.5 * (b->J.x * b->wbar.x * b->wbar.x + b->J.y * b->wbar.y * b->wbar.y +
                        b->J.z * b->wbar.z * b->wbar.z);
    }
    return k;
}

/* Kinetic energy at the full step N. contactlab's velocity Verlet keeps the half-step
 * velocities v(N - 1/2) between steps (its closing half-kick is merged into the next step),
 * LAMMPS reports v(N). One more step gives v(N + 1/2) = v(N - 1/2) + h a(N), so the mean of the
 * two is v(N) exactly; the same for wbar (body frame; a sphere has no gyroscopic term). */
static int ke_full_step(clab_sim *s, chute_ke *out, clab_error *err)
{
    clab_world *w = s->world;
    size_t n = w->nbodies;
    /* the velocities are kept by body index across one step: a sort due at that step is done
     * first (else the step would renumber the bodies between the two halves of the mean) */
    int rc = clab_sim_sort_due(s) ? clab_sim_sort(s, err) : CLAB_OK;
    if (rc) return rc;
    clab_vec3 *v = malloc(2 * n * sizeof *v);
    if (!v) return clab_error_set(err, CLAB_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        v[2 * i] = w->bodies[i].rdot;
        v[2 * i + 1] = w->bodies[i].wbar;
    }
    rc = clab_sim_step(s, err);
    chute_ke k = {0.0, 0.0};
    for (size_t i = 0; i < n && !rc; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->fixed) continue;
        clab_vec3 vm = clab_v3_scale(clab_v3_add(v[2 * i], b->rdot), 0.5);
        clab_vec3 wm = clab_v3_scale(clab_v3_add(v[2 * i + 1], b->wbar), 0.5);
        k.trans += 0.5 * b->m * clab_v3_norm2(vm);
        k.rot += 0.5 * (b->J.x * wm.x * wm.x + b->J.y * wm.y * wm.y + b->J.z * wm.z * wm.z);
    }
    free(v);
    *out = k;
    return rc;
}

/* where contactlab's wall time went (the fastest run), ns a particle-step (ps: particle-steps),
 * in parts that line up with LAMMPS's breakdown: the pair list's builds ~ Neigh; the skin test
 * (with the gather of the bodies for the forces), the narrow phase and the pass over the
 * contacts (history, forces) ~ Pair; the pass over the bodies ~ Modify; sorts, the rest ~ Other */
static void print_times(const chute_times *t, double ps, long steps, int threads)
{
    const double other = t->sim.backend - t->t_contacts - t->t_bodies;
    printf("  where contactlab's time went, %ld steps, %d thread(s) (ns a particle-step, fastest run): skin test "
           "and gather %.1f, pair-list builds %.1f, narrow phase %.1f, history and forces %.1f, bodies %.1f, sorts "
           "%.1f, rest %.1f\n",
           steps, threads, 1e9 * t->bs.t_skin / ps, 1e9 * t->bs.t_build / ps, 1e9 * t->bs.t_narrow / ps,
           1e9 * t->t_contacts / ps, 1e9 * t->t_bodies / ps, 1e9 * t->sim.sort / ps,
           1e9 * (t->sim.rest + other + t->sim.collide - t->bs.t_skin - t->bs.t_build - t->bs.t_narrow) / ps);
}

/* steps from a fresh copy of the imported world: wall seconds of the steps, contacts at the
 * end, and (when ke) the kinetic energy at the last full step */
static int run_contactlab(const clab_world *w0, long steps, long sort, double *seconds, double *cpu, long *contacts,
                          chute_ke *ke, chute_times *tm, clab_error *err)
{
    clab_world *w = clab_world_clone(w0);
    if (!w) return clab_error_set(err, CLAB_ENOMEM, "out of memory copying the world");
    clab_sim *s = chute_sim(w, sort, err);
    int rc = s ? CLAB_OK : CLAB_EINVAL;
    /* the first sort before the clock starts, as LAMMPS's setup sorts before its loop */
    if (!rc && sort > 0) rc = clab_sim_sort(s, err);
    /* the setup of the first step before the clock too (clab_sim_prepare: its pair list and the
     * backend's arrays), as LAMMPS's setup builds its neighbor list and allocates before its
     * loop (its "Neighbor list builds" and loop time leave those out); the steps compute the
     * same to the bit. The collider's counts and times of that call are taken off below */
    clab_broadphase_stats bs0;
    memset(&bs0, 0, sizeof bs0);
    if (!rc) rc = clab_sim_prepare(s, err);
    if (!rc) clab_broadphase_stats_get(s->collider, &bs0);
    double t0 = bench_now(), c0 = bench_cpu_now(1);
    for (long k = 0; k < steps && !rc; k++) rc = clab_sim_step(s, err);
    *seconds = bench_now() - t0;
    *cpu = bench_cpu_now(1) - c0;
    if (!rc) {
        *contacts = (long)s->contacts.n;
        tm->sim = s->times;
        clab_broadphase_stats_get(s->collider, &tm->bs);
        tm->bs.calls -= bs0.calls;
        tm->bs.rebuilds -= bs0.rebuilds;
        tm->bs.t_skin -= bs0.t_skin;
        tm->bs.t_build -= bs0.t_build;
        tm->bs.t_narrow -= bs0.t_narrow;
        clab_sim_backend_times(s, &tm->t_contacts, &tm->t_bodies);
        if (ke) rc = ke_full_step(s, ke, err);
    }
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

/* ---- LAMMPS ---- */

/* run argv in dir with stdout and stderr into log; the exit status, or -1 */
static int run_in(const char *dir, char *const argv[], const char *log)
{
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if (chdir(dir) != 0) _exit(126);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) _exit(126);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        if (geteuid() == 0) { /* Open MPI refuses root without these */
            setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
            setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
        }
        setenv("OMP_NUM_THREADS", "1", 0);
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* what the installed lmp can do: found, OPENMP package (-sf omp), MPI (mpirun -np) */
typedef struct lammps_caps {
    int found, omp, mpi;
    char version[128];
} lammps_caps;

static void lammps_probe(const char *tmp, lammps_caps *lc)
{
    memset(lc, 0, sizeof *lc);
    char log[1400];
    snprintf(log, sizeof log, "%s/lmp-help.txt", tmp);
    char *argv[] = {"lmp", "-h", NULL};
    if (run_in(tmp, argv, log) != 0) return;
    FILE *f = fopen(log, "r");
    if (!f) return;
    lc->found = 1;
    char line[512];
    int packages = 0;
    while (fgets(line, sizeof line, f)) {
        char *v = strstr(line, "Large-scale Atomic/Molecular Massively Parallel Simulator - ");
        if (v) { /* "... Simulator - 29 Sep 2021 - Update 2" */
            v += strlen("Large-scale Atomic/Molecular Massively Parallel Simulator - ");
            v[strcspn(v, "\n")] = '\0';
            snprintf(lc->version, sizeof lc->version, "%s", v);
        }
        if (strncmp(line, "MPI v", 5) == 0) lc->mpi = 1; /* "MPI STUBS" when built without MPI */
        if (strncmp(line, "Installed packages", 18) == 0) packages = 1;
        else if (packages && line[0] == '\n') packages = 0;
        else if (packages && (strstr(line, "OPENMP") || strstr(line, "USER-OMP"))) lc->omp = 1;
    }
    fclose(f);
    /* mpirun must exist for the MPI route */
    if (lc->mpi) {
        char *av[] = {"mpirun", "--version", NULL};
        snprintf(log, sizeof log, "%s/mpirun-version.txt", tmp);
        if (run_in(tmp, av, log) != 0) lc->mpi = 0;
    }
}

/* in.chute with run and thermo set to steps (and, when !periodic, boundary s s fs: shrink-wrapped
 * x and y, no periodic images, to compare with a non-periodic contactlab run) */
static int lammps_input(const char *in, const char *out, long steps, int periodic)
{
    FILE *f = fopen(in, "r");
    if (!f) return -1;
    FILE *g = fopen(out, "w");
    if (!g) {
        fclose(f);
        return -1;
    }
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char word[64] = "";
        sscanf(line, "%63s", word);
        if (strcmp(word, "run") == 0) fprintf(g, "run %ld\n", steps);
        else if (strcmp(word, "thermo") == 0) /* every digit, for the comparison */
            fprintf(g, "thermo %ld\nthermo_modify format float %%.17g\n", steps);
        else if (strcmp(word, "boundary") == 0 && !periodic) fprintf(g, "boundary s s fs\n");
        else fputs(line, g);
    }
    fclose(f);
    return fclose(g) == 0 ? 0 : -1;
}

/* the figures of a LAMMPS screen log */
static int lammps_parse(const char *log, long steps, lammps_out *o)
{
    FILE *f = fopen(log, "r");
    if (!f) return -1;
    memset(o, 0, sizeof *o);
    o->loop = -1.0;
    o->neighbors = o->builds = -1;
    o->cpu_use = -1.0;
    for (int k = 0; k < 6; k++) o->part[k] = -1.0;
    char line[1024];
    int col_ke = -1, col_rot = -1, have0 = 0;
    while (fgets(line, sizeof line, f)) {
        char *lt = strstr(line, "Loop time of ");
        if (lt) {
            long n = 0;
            if (sscanf(lt, "Loop time of %lf on %d procs for %ld steps", &o->loop, &o->procs, &n) != 3 || n != steps)
                o->loop = -1.0;
            continue;
        }
        if (sscanf(line, "Total # of neighbors = %ld", &o->neighbors) == 1) continue;
        double pct;
        if (strstr(line, "% CPU use with") && sscanf(line, "%lf", &pct) == 1) {
            o->cpu_use = pct / 100.0;
            continue;
        }
        if (sscanf(line, "Neighbor list builds = %ld", &o->builds) == 1) continue;
        for (int k = 0; k < 6; k++) { /* "Pair    | min | avg | max | %varavg | %total"; Other: "| | avg |" */
            const size_t len = strlen(lammps_parts[k]);
            double mn, avg;
            if (strncmp(line, lammps_parts[k], len) != 0 || !strchr(line, '|')) continue;
            if (sscanf(strchr(line, '|') + 1, "%lf | %lf", &mn, &avg) == 2) o->part[k] = avg;
            else if (sscanf(strchr(line, '|') + 1, " | %lf", &avg) == 1) o->part[k] = avg;
        }
        char *tok[16];
        int nt = 0;
        for (char *s = strtok(line, " \t\n"); s && nt < 16; s = strtok(NULL, " \t\n")) tok[nt++] = s;
        if (nt == 0) continue;
        if (strcmp(tok[0], "Step") == 0) {
            for (int k = 0; k < nt; k++) {
                if (strcmp(tok[k], "KinEng") == 0) col_ke = k;
                if (strcmp(tok[k], "c_1") == 0) col_rot = k;
            }
            continue;
        }
        if (col_ke < 0 || col_rot < 0 || nt <= col_ke || nt <= col_rot) continue;
        char *end;
        long step = strtol(tok[0], &end, 10);
        if (*end) continue;
        chute_ke k = {strtod(tok[col_ke], NULL), strtod(tok[col_rot], NULL)};
        if (step == 0) {
            o->ke0 = k;
            have0 = 1;
        }
        if (step == steps) {
            o->ke = k;
            o->have_ke = have0;
        }
    }
    fclose(f);
    return o->loop > 0.0 ? 0 : -1;
}

/* one LAMMPS run of steps on nproc processes (mpirun) in tmp */
static int run_lammps(const char *tmp, const char *in, const lammps_caps *lc, long steps, int nproc, int periodic,
                      lammps_out *o)
{
    char input[1400], log[1400], np[16];
    snprintf(input, sizeof input, "%s/in.chute-%ld", tmp, steps);
    snprintf(log, sizeof log, "%s/lammps-%ld-%d.log", tmp, steps, nproc);
    if (lammps_input(in, input, steps, periodic)) {
        fprintf(stderr, "contactlab bench chute: cannot write %s from %s\n", input, in);
        return -1;
    }
    snprintf(np, sizeof np, "%d", nproc);
    char *lmp1[] = {"lmp", "-in", input, "-log", "none", "-nocite", NULL};
    char *lmpomp[] = {"lmp", "-sf", "omp", "-pk", "omp", np, "-in", input, "-log", "none", "-nocite", NULL};
    char *lmpmpi[] = {"mpirun", "-np", np, "lmp", "-in", input, "-log", "none", "-nocite", NULL};
    /* with OMP_WAIT_POLICY=passive contactlab's idle threads sleep; Open MPI's ranks then yield too */
    char *lmpmpi_yield[] = {"mpirun", "--mca", "mpi_yield_when_idle", "1", "-np", np, "lmp", "-in", input,
                            "-log", "none", "-nocite", NULL};
    const char *wp = getenv("OMP_WAIT_POLICY");
    int passive = wp && (strcmp(wp, "passive") == 0 || strcmp(wp, "PASSIVE") == 0);
    char *const *argv = nproc == 1 ? lmp1 : lc->omp ? lmpomp : passive ? lmpmpi_yield : lmpmpi;
    int st = run_in(tmp, argv, log);
    if (st != 0 || lammps_parse(log, steps, o)) {
        fprintf(stderr, "contactlab bench chute: LAMMPS run failed (exit %d); its output: %s\n", st, log);
        return -1;
    }
    return 0;
}

/* ---- the benchmark ---- */

static double rel(double a, double b) { return b != 0.0 ? (a - b) / fabs(b) : a - b; }

static int physics_row(const bench_ctx *c, long steps, int periodic, chute_ke cl, const lammps_out *lo)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/chute-physics.csv", c->out);
    struct stat st;
    int fresh = stat(path, &st) != 0 || st.st_size == 0;
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "contactlab bench chute: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (fresh)
        fprintf(f, "steps,periodic_xy,ke_contactlab,ke_lammps,ke_rel_diff,erot_contactlab,erot_lammps,"
                   "erot_rel_diff\n");
    fprintf(f, "%ld,%s,%.17g,%.17g,%.4g,%.17g,%.17g,%.4g\n", steps, periodic ? "yes" : "no", cl.trans, lo->ke.trans,
            rel(cl.trans, lo->ke.trans), cl.rot, lo->ke.rot, rel(cl.rot, lo->ke.rot));
    printf("  physics after %4ld steps: KE %.12g vs LAMMPS %.12g (rel %+.3g); rotational KE %.12g vs %.12g "
           "(rel %+.3g)\n",
           steps, cl.trans, lo->ke.trans, rel(cl.trans, lo->ke.trans), cl.rot, lo->ke.rot, rel(cl.rot, lo->ke.rot));
    return fclose(f) == 0 ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the spread of n > 1 runs of each code, sec[r] and lsec[r] side by side (run r of LAMMPS right
 * after run r of contactlab), ps particle-steps a run: each code's fastest, median and
 * slowest run, and the ratio of the two runs of each pair (min / median / max), which a slow
 * spell of the host shifts less than the ratio of the two fastest runs */
static void print_spread(const double *sec, const double *lsec, int n, double ps)
{
    double a[BENCH_MAX_REPEAT], b[BENCH_MAX_REPEAT], q[BENCH_MAX_REPEAT];
    for (int r = 0; r < n; r++) {
        a[r] = 1e9 * sec[r] / ps;
        b[r] = 1e9 * lsec[r] / ps;
        q[r] = lsec[r] / sec[r];
    }
    qsort(a, (size_t)n, sizeof *a, cmp_double);
    qsort(b, (size_t)n, sizeof *b, cmp_double);
    qsort(q, (size_t)n, sizeof *q, cmp_double);
    const int m = n / 2; /* the median (the upper of the two middle runs when n is even) */
    printf("  the %d runs of each (ns a particle-step, fastest / median / slowest): contactlab %.1f / %.1f / %.1f, "
           "LAMMPS %.1f / %.1f / %.1f; ratio contactlab/LAMMPS within each pair of runs: %.3g / %.3g / %.3g\n",
           n, a[0], a[m], a[n - 1], b[0], b[m], b[n - 1], q[0], q[m], q[n - 1]);
}

int bench_chute(const bench_ctx *c)
{
    char data[1200], in[1200];
    if (find_data(c, data, in, sizeof data)) return 1;
    const int periodic = getenv("CLAB_CHUTE_SLAB") == NULL; /* set: a slab, both codes open in x and y */
    const long nsteps[CHUTE_MAX_STEPS] = {c->quick ? 10 : 100, c->quick ? 100 : 1000};
    const int repeats = c->repeat > 0 ? c->repeat : c->quick ? 1 : 3;
    clab_error err;
    clab_error_clear(&err);

    /* import */
    clab_lammps_info info;
    double t0 = bench_now();
    clab_world *w0 = chute_world(data, periodic, &info, &err);
    if (!w0) {
        fprintf(stderr, "contactlab bench chute: %s\n", err.msg);
        return 1;
    }
    const long moving = info.natoms - info.nfixed;
    chute_ke ke0 = world_ke(w0);
    printf("  %s: %ld atoms (%ld moving, %ld fixed), box %g..%g x %g..%g x %g..%g, read in %.3g s\n", data,
           info.natoms, moving, info.nfixed, info.lo[0], info.hi[0], info.lo[1], info.hi[1], info.lo[2], info.hi[2],
           bench_now() - t0);
    const char *wp = getenv("OMP_WAIT_POLICY");
    printf("  OMP_WAIT_POLICY: %s%s\n", wp ? wp : "unset (the runtime's default: idle threads spin)",
           wp ? "" : "; on a machine shared with other work, OMP_WAIT_POLICY=passive avoids spinning threads");
    const char *orient = getenv("CLAB_CHUTE_ORIENTATION");
    printf("  sphere orientations: %s\n", orient ? orient
                                                : "off (as LAMMPS's atom_style sphere; CLAB_CHUTE_ORIENTATION=integrate "
                                                  "advances them)");
    printf("  periodic in x and y: %s\n", periodic ? "yes"
                                                   : "NO (CLAB_CHUTE_SLAB: both codes run a slab with free x and y "
                                                     "edges, LAMMPS with boundary s s fs)");
    fflush(stdout);

    /* LAMMPS: found, and how it runs on 2 processes */
    char tmp[] = "/tmp/contactlab-chute-XXXXXX";
    lammps_caps lc;
    memset(&lc, 0, sizeof lc);
    int use_lammps = 0;
    if (c->lammps) {
        if (!mkdtemp(tmp)) {
            fprintf(stderr, "contactlab bench chute: cannot create a temporary folder: %s\n", strerror(errno));
        } else {
            lammps_probe(tmp, &lc);
            char link[1400];
            snprintf(link, sizeof link, "%s/data.chute", tmp);
            char abs[4096];
            if (lc.found && is_file(in) && realpath(data, abs) && symlink(abs, link) == 0) use_lammps = 1;
            if (!lc.found) printf("  LAMMPS (lmp) not found: contactlab figures only\n");
            else if (!is_file(in)) printf("  %s missing: LAMMPS not run\n", in);
            else
                printf("  LAMMPS %s: %s; runs in %s\n", lc.version,
                       lc.omp ? "OPENMP package (-sf omp)" : lc.mpi ? "no OPENMP package, MPI (mpirun -np)" :
                                                            "serial only",
                       tmp);
        }
    }
    fflush(stdout);

    int status = 0;
    for (int si = 0; si < CHUTE_MAX_STEPS && !status; si++) {
        long steps = nsteps[si];
        chute_ke ke_cl = {0, 0};
        int have_ke_cl = 0;
        lammps_out lo_ke;
        int have_ke_lmp = 0;
        double best0 = 0.0, lbest0 = INFINITY; /* the first thread count's fastest runs */
        int nth0 = 0;
        for (int ti = 0; ti < c->nthreads && !status; ti++) {
            int nth = bench_set_threads(c->threads[ti]);
            /* contactlab and LAMMPS alternately, run r of each side by side (a slow spell of a
             * shared host then falls on both codes' runs alike), best of repeats each */
            const int lmp_here = use_lammps && !(c->threads[ti] > 1 && !lc.omp && !lc.mpi);
            double best = INFINITY, best_cpu = INFINITY, lbest = INFINITY, lbest_cpu = INFINITY;
            double sec_r[BENCH_MAX_REPEAT], lsec_r[BENCH_MAX_REPEAT];
            int nl = 0; /* LAMMPS runs done */
            long contacts = -1;
            chute_times tbest;
            memset(&tbest, 0, sizeof tbest);
            lammps_out lo;
            memset(&lo, 0, sizeof lo);
            for (int r = 0; r < repeats; r++) {
                double sec = 0.0, cpu = 0.0;
                chute_ke ke = {0.0, 0.0};
                int want_ke = !have_ke_cl && ti == 0 && r == 0;
                chute_times tm;
                if (run_contactlab(w0, steps, c->sort, &sec, &cpu, &contacts, want_ke ? &ke : NULL, &tm, &err)) {
                    fprintf(stderr, "contactlab bench chute: %ld steps: %s\n", steps, err.msg);
                    status = 1;
                    break;
                }
                if (want_ke) {
                    ke_cl = ke;
                    have_ke_cl = 1;
                    printf("  contactlab, %ld steps: %ld contacts at the end, %zu candidate pairs, pair list built %zu "
                           "times in %zu steps (skin %g)\n",
                           steps, contacts, tm.bs.pairs, tm.bs.rebuilds, tm.bs.calls, tm.bs.skin);
                }
                if (sec < best) tbest = tm;
                best = fmin(best, sec);
                best_cpu = fmin(best_cpu, cpu);
                sec_r[r] = sec;
                if (!lmp_here || !use_lammps) continue;
                /* LAMMPS on as many processes */
                if (run_lammps(tmp, in, &lc, steps, c->threads[ti], periodic, &lo)) {
                    use_lammps = 0;
                    continue;
                }
                lsec_r[nl++] = lo.loop;
                lbest = fmin(lbest, lo.loop);
                if (lo.cpu_use > 0.0) lbest_cpu = fmin(lbest_cpu, lo.loop * lo.cpu_use * c->threads[ti]);
                if (!have_ke_lmp && lo.have_ke) {
                    lo_ke = lo;
                    have_ke_lmp = 1;
                    printf("  LAMMPS, %ld steps: %ld neighbor pairs (skin 0.1), list built %ld times\n", steps,
                           lo.neighbors, lo.builds);
                }
            }
            if (status) break;
            print_times(&tbest, (double)moving * (double)steps, steps, nth);
            char name[64], note[400];
            snprintf(name, sizeof name, "chute-%ld", steps);
            const char *wp = getenv("OMP_WAIT_POLICY");
            snprintf(note, sizeof note,
                     "contactlab penalty hooke verlet; periodic xy %s; best of %d; CPU %.4g s; OMP_WAIT_POLICY %s",
                     periodic ? "yes" : "no", repeats, best_cpu, wp ? wp : "unset");
            bench_row row = {name, nth, moving, contacts, steps, best, bench_peak_rss_bytes(), note};
            bench_summary_append(c, &row);
            /* the scaling: this thread count's rate against the first's (fastest runs each) */
            if (ti == 0) {
                best0 = best;
                lbest0 = lmp_here && use_lammps ? lbest : INFINITY;
                nth0 = nth;
            } else {
                printf("  scaling, %ld steps: %d thread(s) %.3gx the rate of %d (fastest runs)", steps, nth, best0 / best,
                       nth0);
                if (lmp_here && use_lammps && isfinite(lbest0) && isfinite(lbest))
                    printf("; LAMMPS on %d process(es) %.3gx its rate on %d", c->threads[ti], lbest0 / lbest, nth0);
                printf("\n");
            }
            if (!lmp_here) continue;
            if (!use_lammps) break;
            snprintf(name, sizeof name, "chute-%ld-lammps", steps);
            snprintf(note, sizeof note, "LAMMPS %s %s %d; periodic xy %s; best of %d; CPU %.4g s", lc.version,
                     c->threads[ti] == 1 ? "serial" : lc.omp ? "-sf omp" : "mpirun -np", c->threads[ti],
                     periodic ? "yes" : "no", repeats, lbest_cpu);
            bench_row lrow = {name, c->threads[ti], moving, -1, steps, lbest, 0.0, note};
            bench_summary_append(c, &lrow);
            if (lo.part[0] >= 0.0) {
                const double ps = (double)moving * (double)steps;
                printf("  where LAMMPS's time went, %ld steps, %d process(es) (ns a particle-step, its timing breakdown, "
                       "last run):", steps, c->threads[ti]);
                for (int k = 0; k < 6; k++)
                    if (lo.part[k] >= 0.0) printf(" %s %.1f", lammps_parts[k], 1e9 * lo.part[k] / ps);
                printf("\n");
            }
            printf("  ratio contactlab/LAMMPS (particle-steps per second), %ld steps, %d thread(s): %.3g  "
                   "[LAMMPS's own count, all %ld atoms: %.4g particle-steps/s]\n",
                   steps, c->threads[ti], lbest / best, info.natoms, (double)info.natoms * (double)steps / lbest);
            if (repeats > 1 && nl == repeats) print_spread(sec_r, lsec_r, repeats, (double)moving * (double)steps);
            /* CPU time: contactlab's process clock, LAMMPS's loop time x its "% CPU use" x processes */
            double ps = (double)moving * (double)steps;
            printf("  CPU time per particle-step (all threads), %ld steps, %d thread(s): contactlab %.4g ns, LAMMPS "
                   "%.4g ns, ratio LAMMPS/contactlab %.3g\n",
                   steps, c->threads[ti], 1e9 * best_cpu / ps, 1e9 * lbest_cpu / ps, lbest_cpu / best_cpu);
            fflush(stdout);
        }
        if (have_ke_cl && have_ke_lmp) {
            if (si == 0) {
                lammps_out z = lo_ke;
                z.ke = lo_ke.ke0;
                physics_row(c, 0, periodic, ke0, &z);
            }
            physics_row(c, steps, periodic, ke_cl, &lo_ke);
        } else if (have_ke_cl) {
            printf("  physics after %ld steps: KE %.10g, rotational KE %.10g (no LAMMPS figures to compare)\n", steps,
                   ke_cl.trans, ke_cl.rot);
        }
    }
    clab_lammps_info_free(&info);
    clab_world_destroy(w0);
    if (use_lammps || lc.found) printf("  LAMMPS inputs and logs: %s\n", tmp);
    return status;
}
