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
#include "bench_lammps.h"
#include "chute_data.h"
#include "clab_backend_fast.h"
#include "clab_lammps.h"
#include "clab_sim.h"

#define CHUTE_MAX_STEPS 2

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

/* data.chute and in.chute: --data names the file itself, a folder holding it, or a folder
 * holding lammps-chute/ (the peer-benchmark folder); without --data, the packing contactlab
 * makes in the output folder (chute_default_data) */
static int find_data(const bench_ctx *c, char *data, char *in, size_t n)
{
    char dir[2048];
    int bad = 0;
    if (!c->data_dir[0]) {
        if (chute_default_data(c->out, c->quick, dir, sizeof dir)) return -1;
        bad |= join(data, n, dir, "data.chute");
    } else if (is_file(c->data_dir)) {
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
    int mi;
    clab_world *w = chute_world_create(&mi, err);
    if (!w) return NULL;
    const int type_material[3] = {0, mi, mi};
    const int type_fixed[3] = {0, 0, 1};
    clab_lammps_def def = clab_lammps_default_def();
    def.type_material = type_material;
    def.ntype_material = 3;
    def.type_fixed = type_fixed;
    def.ntype_fixed = 3;
    def.periodic[0] = def.periodic[1] = periodic;
    if (clab_lammps_read_data(data, w, &def, info, err)) {
        clab_world_destroy(w);
        return NULL;
    }
    return w;
}

/* the chute's data file and world, for the MPI driver (mpi/xp_mpi.c) */
clab_world *bench_chute_world(const bench_ctx *c, clab_lammps_info *info, clab_error *err)
{
    char data[1200], in[1200];
    if (find_data(c, data, in, sizeof data)) return NULL;
    return chute_world(data, getenv("CLAB_CHUTE_SLAB") == NULL, info, err);
}

/* the penalty backend with in.chute's pair style gran/hooke/history 2e5 NULL 50 NULL 0.5 0 */
static clab_sim *chute_sim(clab_world *w, long sort, clab_error *err)
{
    clab_options o;
    clab_options_init(&o);
    chute_law_options(&o);
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
                          bench_ke *ke, chute_times *tm, clab_error *err)
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
        if (ke) rc = bench_ke_full_step(s, ke, err);
    }
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}


/* ---- the benchmark ---- */

static int physics_row(const bench_ctx *c, long steps, int periodic, bench_ke cl, const bench_lammps_out *lo)
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
            bench_rel(cl.trans, lo->ke.trans), cl.rot, lo->ke.rot, bench_rel(cl.rot, lo->ke.rot));
    printf("  physics after %4ld steps: KE %.12g vs LAMMPS %.12g (rel %+.3g); rotational KE %.12g vs %.12g "
           "(rel %+.3g)\n",
           steps, cl.trans, lo->ke.trans, bench_rel(cl.trans, lo->ke.trans), cl.rot, lo->ke.rot, bench_rel(cl.rot, lo->ke.rot));
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
    bench_ke ke0 = bench_world_ke(w0);
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
    bench_lammps_caps lc;
    memset(&lc, 0, sizeof lc);
    int use_lammps = 0;
    if (c->lammps) {
        if (!mkdtemp(tmp)) {
            fprintf(stderr, "contactlab bench chute: cannot create a temporary folder: %s\n", strerror(errno));
        } else {
            bench_lammps_probe(tmp, &lc);
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
        bench_ke ke_cl = {0, 0};
        int have_ke_cl = 0;
        bench_lammps_out lo_ke;
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
            bench_lammps_out lo;
            memset(&lo, 0, sizeof lo);
            for (int r = 0; r < repeats; r++) {
                double sec = 0.0, cpu = 0.0;
                bench_ke ke = {0.0, 0.0};
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
                if (bench_lammps_run("chute", tmp, in, &lc, steps, c->threads[ti], periodic, &lo)) {
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
                    if (lo.part[k] >= 0.0) printf(" %s %.1f", bench_lammps_parts[k], 1e9 * lo.part[k] / ps);
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
                bench_lammps_out z = lo_ke;
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
