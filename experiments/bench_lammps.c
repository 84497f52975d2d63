/* bench_lammps.c: running LAMMPS beside contactlab (bench_lammps.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_lammps.h"

/* the parts of LAMMPS's "MPI task timing breakdown", in bench_lammps_out.part's order */
const char *const bench_lammps_parts[6] = {"Pair", "Neigh", "Comm", "Output", "Modify", "Other"};

double bench_rel(double a, double b) { return b != 0.0 ? (a - b) / fabs(b) : a - b; }

bench_ke bench_world_ke(const clab_world *w)
{
    bench_ke k = {0.0, 0.0};
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->fixed) continue;
        k.trans += 0.5 * b->m * clab_v3_norm2(b->rdot);
        k.rot += 0.5 * (b->J.x * b->wbar.x * b->wbar.x + b->J.y * b->wbar.y * b->wbar.y +
                        b->J.z * b->wbar.z * b->wbar.z);
    }
    return k;
}

/* the mean of v(N - 1/2) and v(N + 1/2) is v(N) exactly (a sphere has no gyroscopic term) */
int bench_ke_full_step(clab_sim *s, bench_ke *out, clab_error *err)
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
    bench_ke k = {0.0, 0.0};
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
int bench_run_in(const char *dir, char *const argv[], const char *log)
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


void bench_lammps_probe(const char *tmp, bench_lammps_caps *lc)
{
    memset(lc, 0, sizeof *lc);
    char log[1400];
    snprintf(log, sizeof log, "%s/lmp-help.txt", tmp);
    char *argv[] = {"lmp", "-h", NULL};
    if (bench_run_in(tmp, argv, log) != 0) return;
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
        if (bench_run_in(tmp, av, log) != 0) lc->mpi = 0;
    }
}

int bench_lammps_input(const char *in, const char *out, long steps, int periodic)
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

int bench_lammps_parse(const char *log, long steps, bench_lammps_out *o)
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
            const size_t len = strlen(bench_lammps_parts[k]);
            double mn, avg;
            if (strncmp(line, bench_lammps_parts[k], len) != 0 || !strchr(line, '|')) continue;
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
        bench_ke k = {strtod(tok[col_ke], NULL), strtod(tok[col_rot], NULL)};
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

int bench_lammps_run(const char *name, const char *tmp, const char *in, const bench_lammps_caps *lc, long steps,
                     int nproc, int periodic, bench_lammps_out *o)
{
    char input[1400], log[1400], np[16];
    snprintf(input, sizeof input, "%s/in.%s-%ld", tmp, name, steps);
    snprintf(log, sizeof log, "%s/lammps-%ld-%d.log", tmp, steps, nproc);
    if (bench_lammps_input(in, input, steps, periodic)) {
        fprintf(stderr, "contactlab bench %s: cannot write %s from %s\n", name, input, in);
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
    int st = bench_run_in(tmp, argv, log);
    if (st != 0 || bench_lammps_parse(log, steps, o)) {
        fprintf(stderr, "contactlab bench %s: LAMMPS run failed (exit %d); its output: %s\n", name, st, log);
        return -1;
    }
    return 0;
}
/* x into [lo, hi) (one period L = hi - lo) */
static double wrap(double x, double lo, double hi)
{
    const double L = hi - lo;
    double y = fmod(x - lo, L);
    if (y < 0.0) y += L;
    y += lo;
    return y >= hi ? lo : y; /* rounding of y + lo */
}

int bench_write_lammps_data(const char *path, const char *title, const clab_world *w, int ntypes, double density,
                            const double lo[3], const double hi[3])
{
    long n = 0;
    for (size_t i = 0; i < w->nbodies; i++) n += w->bodies[i].shape.type == CLAB_SHAPE_SPHERE;
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "LAMMPS data file: %s\n\n%ld atoms\n\n%d atom types\n\n", title, n, ntypes);
    const char *ax[3] = {"x", "y", "z"};
    for (int k = 0; k < 3; k++) fprintf(f, "%.17g %.17g %slo %shi\n", lo[k], hi[k], ax[k], ax[k]);
    fprintf(f, "\nAtoms # sphere\n\n");
    long id = 0;
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->shape.type != CLAB_SHAPE_SPHERE) continue;
        const double d = 2.0 * b->shape.radius;
        double r[3] = {b->r.x, b->r.y, b->r.z};
        for (int k = 0; k < 3; k++)
            if (w->periodic.on[k]) r[k] = wrap(r[k], w->periodic.lo[k], w->periodic.hi[k]);
        fprintf(f, "%ld %d %.17g %.17g %.17g %.17g %.17g 0 0 0\n", ++id, b->fixed ? 2 : 1, d,
                density > 0.0 ? density : b->m / (M_PI * d * d * d / 6.0), r[0], r[1], r[2]);
    }
    fprintf(f, "\nVelocities\n\n");
    id = 0;
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->shape.type != CLAB_SHAPE_SPHERE) continue;
        const clab_vec3 om = clab_body_omega_world(b);
        fprintf(f, "%ld %.17g %.17g %.17g %.17g %.17g %.17g\n", ++id, b->rdot.x, b->rdot.y, b->rdot.z, om.x, om.y, om.z);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) return -1;
    return 0;
}
