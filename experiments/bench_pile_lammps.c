/* bench_pile_lammps.c: the settled pile of `bench pile` beside LAMMPS, on the same particles.
 *
 * The settled pile is written as a LAMMPS data file (data.pile: atom_style sphere, with
 * velocities, all zero: the settling's quench once more) with a matching input (in.pile),
 * both codes read that file, and each runs N steps from it: contactlab's penalty backend under the option set that is LAMMPS's
 * gran/hertz/history law (doc/penalty.md, "Running LAMMPS's law exactly"), LAMMPS under
 * pair gran/hertz/history with the floor a fix wall/gran hertz/history plane z = 0. Timing
 * side by side, and the translational and rotational kinetic energy after N steps.
 *
 * The law. LAMMPS's Hertz-Mindlin with history (PairGranHertzHistory, FixWallGran), per
 * contact of overlap delta, R* = R_i R_j / (R_i + R_j) (the wall: R* = R, m_eff = m):
 *
 *   F_n = sqrt(delta R*) (K_n delta - m_eff gamma_n v_n)
 *   F_t = sqrt(delta R*) (-K_t s_t - m_eff gamma_t v_t),  |F_t| <= mu |F_n|
 *
 * contactlab's Hertz with the pile's materials derives k_n = 4/3 E* sqrt(R* delta) and
 * k_t = 8 G* sqrt(R* delta) (doc/penalty.md), which is LAMMPS's with K_n = 4/3 E* and
 * K_t = 8 G*, for the sphere pairs and the floor alike. Its explicit dashpot is
 * gn m_eff sqrt(delta / R*) (gt the same): LAMMPS's with gn = gamma_n R*. R* of a sphere
 * pair is R/2, of the floor R: with gn = gamma_n R/2 the pairs match, and LAMMPS's wall is
 * given gamma_n/2 and gamma_t/2, which makes the floor match too. The bench pile's own law
 * (Tsuji's dashpot, growing as delta^(1/4), fixed by the restitution cor) has no LAMMPS
 * counterpart; gamma_n and gamma_t here are chosen so that the dashpot equals Tsuji's at the
 * overlap DELTA_REF = 1e-4 m (R / 100). The rest of the law is LAMMPS's by the compatibility
 * options: integrator=verlet, clamp=off, cap=lammps, lever=surface, history_start=zero,
 * history_turn=project, sphere_orientation=off.
 *
 * Why at rest: LAMMPS computes the forces of its setup without advancing the history, so every
 * contact there has no shear displacement; where the tangential dashpot alone exceeds
 * mu |F_n| it then sets the tangential force to 0 (its "if (shrmag != 0.0) ... else fs = 0"),
 * where contactlab caps it to mu |F_n|. From the settled pile's own (small) velocities that one
 * difference of the first step gives 1.5e-7 in the kinetic energy and 3e-4 in the rotational
 * one after 20 steps (the 1,280-sphere pile); from rest the dashpot is zero at setup and the
 * two codes agree to rounding (1e-15 and 1e-14). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_lammps.h"
#include "bench_pile_lammps.h"
#include "clab_lammps.h"
#include "xp.h"

#define DELTA_REF 1e-4 /* [m]: the overlap at which the dashpot equals Tsuji's */

/* LAMMPS's coefficients for a material of spheres of radius R and density rho, and
 * contactlab's explicit dashpots */
typedef struct pile_law {
    double Kn, Kt;         /* LAMMPS: 4/3 E*, 8 G* [Pa] */
    double gamma_n, gamma_t; /* LAMMPS [1/(m s)] */
    double gn, gt;         /* contactlab: gamma R*, R* = R/2 [1/s] */
} pile_law;

static pile_law law_of(const clab_material *m, double R, double rho)
{
    pile_law L;
    /* one material: 1/E* = 2 (1 - nu^2)/E, 1/G* = 4 (2 - nu)(1 + nu)/E */
    const double Es = m->E / (2.0 * (1.0 - m->nu * m->nu)), Gs = m->E / (4.0 * (2.0 - m->nu) * (1.0 + m->nu));
    const double mass = rho * 4.0 / 3.0 * M_PI * R * R * R, meff = 0.5 * mass, Rs = 0.5 * R;
    const double lne = log(m->cor), beta = lne / sqrt(lne * lne + M_PI * M_PI);
    const double root = sqrt(Rs * DELTA_REF);
    /* Tsuji at DELTA_REF: c = -2 sqrt(5/6) beta sqrt(S m_eff), S_n = 2 E* root, S_t = 8 G* root */
    const double cn = -2.0 * sqrt(5.0 / 6.0) * beta * sqrt(2.0 * Es * root * meff);
    const double ct = -2.0 * sqrt(5.0 / 6.0) * beta * sqrt(8.0 * Gs * root * meff);
    L.Kn = 4.0 / 3.0 * Es;
    L.Kt = 8.0 * Gs;
    L.gamma_n = cn / (meff * root);
    L.gamma_t = ct / (meff * root);
    L.gn = L.gamma_n * Rs;
    L.gt = L.gamma_t * Rs;
    return L;
}

int pile_lammps_write(const char *dir, const clab_world *w, double R, double rho, double h, double skin)
{
    char path[1200];
    if (xp_mkdir_p(dir)) {
        fprintf(stderr, "contactlab bench pile: cannot create %s: %s\n", dir, strerror(errno));
        return -1;
    }
    double zmax = 0.0;
    for (size_t i = 0; i < w->nbodies; i++)
        if (w->bodies[i].shape.type == CLAB_SHAPE_SPHERE) zmax = fmax(zmax, w->bodies[i].r.z);
    const double lo[3] = {w->periodic.lo[0], w->periodic.lo[1], 0.0};
    const double hi[3] = {w->periodic.hi[0], w->periodic.hi[1], zmax + 4.0 * R};
    snprintf(path, sizeof path, "%s/data.pile", dir);
    char title[160];
    snprintf(title, sizeof title, "contactlab bench pile: the settled pile at rest, R %g m, density %g", R, rho);
    /* at rest: the settling's quench once more (see the top of this file) */
    clab_world *w0 = clab_world_clone(w);
    if (!w0) {
        fprintf(stderr, "contactlab bench pile: out of memory\n");
        return -1;
    }
    for (size_t i = 0; i < w0->nbodies; i++) w0->bodies[i].rdot = w0->bodies[i].wbar = clab_v3(0.0, 0.0, 0.0);
    const int bad = bench_write_lammps_data(path, title, w0, 1, rho, lo, hi);
    clab_world_destroy(w0);
    if (bad) {
        fprintf(stderr, "contactlab bench pile: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    const pile_law L = law_of(&w->materials[0], R, rho);
    const clab_material *m = &w->materials[0];
    snprintf(path, sizeof path, "%s/in.pile", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "contactlab bench pile: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f,
            "# contactlab bench pile: the settled pile under Hertz-Mindlin with history (bench_pile_lammps.c).\n"
            "# K_n = 4/3 E*, K_t = 8 G* (E = %g Pa, nu = %g); gamma_n, gamma_t: Tsuji's dashpot (cor %g) at overlap\n"
            "# %g m; the floor z = 0 a wall with half the pair dashpots (its R* is R, a pair's R/2). Run: lmp -in in.pile\n"
            "units           si\n"
            "atom_style      sphere\n"
            "boundary        p p fs\n"
            "newton          off\n"
            "comm_modify     vel yes\n"
            "read_data       data.pile\n"
            "pair_style      gran/hertz/history %.17g %.17g %.17g %.17g %.17g 1\n"
            "pair_coeff      * *\n"
            "neighbor        %.17g bin\n"
            "neigh_modify    every 1 delay 0\n"
            "timestep        %.17g\n"
            "fix             1 all gravity %.17g vector 0 0 -1\n"
            "fix             2 all nve/sphere\n"
            "fix             3 all wall/gran hertz/history %.17g %.17g %.17g %.17g %.17g 1 zplane 0.0 NULL\n"
            "compute         1 all erotate/sphere\n"
            "thermo_style    custom step atoms ke c_1 vol\n"
            "thermo_modify   norm no\n"
            "thermo          100\n"
            "run             100\n",
            m->E, m->nu, m->cor, DELTA_REF, L.Kn, L.Kt, L.gamma_n, L.gamma_t, m->mu, skin, h, -w->gravity.z, L.Kn, L.Kt,
            0.5 * L.gamma_n, 0.5 * L.gamma_t, m->mu);
    if (fclose(f) != 0) {
        fprintf(stderr, "contactlab bench pile: writing %s failed\n", path);
        return -1;
    }
    return 0;
}

/* contactlab's world read back from dir/data.pile: the pile's material, its floor, periodic x y */
static clab_world *peer_world(const char *dir, const clab_world *w0, clab_lammps_info *info, clab_error *err)
{
    clab_world_def wd = {w0->gravity};
    clab_world *w = clab_world_create(&wd);
    if (!w) {
        clab_error_set(err, CLAB_ENOMEM, "out of memory");
        return NULL;
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/data.pile", dir);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    snprintf(d.name, sizeof d.name, "floor");
    const int type_material[2] = {0, 0};
    clab_lammps_def def = clab_lammps_default_def();
    def.type_material = type_material;
    def.ntype_material = 2;
    def.periodic[0] = def.periodic[1] = 1;
    if (clab_world_add_material(w, &w0->materials[0], err) < 0 || clab_world_add_body(w, &d, err) < 0 ||
        clab_lammps_read_data(path, w, &def, info, err)) {
        clab_world_destroy(w);
        return NULL;
    }
    return w;
}

/* steps of LAMMPS's law from a copy of w0: wall seconds, and the kinetic energy at the last
 * full step */
static int peer_run(const clab_world *w0, const pile_law *L, double h, long sort, long steps, double *sec, double *cpu,
                    bench_ke *ke, clab_error *err)
{
    clab_world *w = clab_world_clone(w0);
    if (!w) return clab_error_set(err, CLAB_ENOMEM, "out of memory");
    clab_options o;
    clab_options_init(&o);
    char gn[64], gt[64], srt[32];
    snprintf(gn, sizeof gn, "%.17g", L->gn);
    snprintf(gt, sizeof gt, "%.17g", L->gt);
    snprintf(srt, sizeof srt, "%ld", sort);
    clab_options_set(&o, "model", "hertz", NULL);
    clab_options_set(&o, "integrator", "verlet", NULL);
    clab_options_set(&o, "gn", gn, NULL);
    clab_options_set(&o, "gt", gt, NULL);
    clab_options_set(&o, "clamp", "off", NULL);
    clab_options_set(&o, "cap", "lammps", NULL);
    clab_options_set(&o, "lever", "surface", NULL);
    clab_options_set(&o, "history_start", "zero", NULL);
    clab_options_set(&o, "history_turn", "project", NULL);
    clab_options_set(&o, "sphere_orientation", "off", NULL);
    clab_options_set(&o, "sort", srt, NULL);
    clab_sim *s = clab_sim_create(w, "penalty", h, &o, err);
    clab_options_free(&o);
    int rc = s ? CLAB_OK : CLAB_EINVAL;
    if (!rc && sort > 0) rc = clab_sim_sort(s, err);
    if (!rc) rc = clab_sim_prepare(s, err); /* the setup before the clock, as LAMMPS's loop time */
    double t0 = bench_now(), c0 = bench_cpu_now(1);
    for (long k = 0; k < steps && !rc; k++) rc = clab_sim_step(s, err);
    *sec = bench_now() - t0;
    *cpu = bench_cpu_now(1) - c0;
    if (!rc) rc = bench_ke_full_step(s, ke, err);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

static int physics_row(const bench_ctx *c, long n, long steps, bench_ke cl, bench_ke lm)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/pile-physics.csv", c->out);
    struct stat st;
    int fresh = stat(path, &st) != 0 || st.st_size == 0;
    FILE *f = fopen(path, "a");
    if (!f) return -1;
    if (fresh)
        fprintf(f, "bodies,steps,ke_contactlab,ke_lammps,ke_rel_diff,erot_contactlab,erot_lammps,erot_rel_diff\n");
    fprintf(f, "%ld,%ld,%.17g,%.17g,%.4g,%.17g,%.17g,%.4g\n", n, steps, cl.trans, lm.trans, bench_rel(cl.trans, lm.trans),
            cl.rot, lm.rot, bench_rel(cl.rot, lm.rot));
    printf("    physics after %ld steps: KE %.12g vs LAMMPS %.12g J (rel %+.3g); rotational KE %.12g vs %.12g J (rel "
           "%+.3g)\n",
           steps, cl.trans, lm.trans, bench_rel(cl.trans, lm.trans), cl.rot, lm.rot, bench_rel(cl.rot, lm.rot));
    return fclose(f) == 0 ? 0 : -1;
}

int pile_lammps_compare(const bench_ctx *c, const char *dir, const clab_world *w0, double R, double rho, double h)
{
    bench_lammps_caps lc;
    memset(&lc, 0, sizeof lc);
    if (c->lammps) bench_lammps_probe(dir, &lc);
    if (!lc.found) {
        printf("    LAMMPS %s: %s/data.pile and in.pile written for a later run (lmp -in in.pile)\n",
               c->lammps ? "(lmp) not found" : "not run (--no-lammps)", dir);
        return 0;
    }
    const pile_law L = law_of(&w0->materials[0], R, rho);
    const long steps = c->quick ? 20 : 100;
    const int repeats = c->repeat > 0 ? c->repeat : c->quick ? 1 : 3;
    const int nproc = c->threads[0];
    bench_set_threads(nproc);
    clab_error err;
    clab_error_clear(&err);
    clab_lammps_info info;
    clab_world *w = peer_world(dir, w0, &info, &err);
    if (!w) {
        fprintf(stderr, "contactlab bench pile: %s\n", err.msg);
        return 1;
    }
    const long n = info.natoms;
    clab_lammps_info_free(&info);
    char in[1200];
    snprintf(in, sizeof in, "%s/in.pile", dir);
    printf("    LAMMPS %s on the same particles (%s/data.pile, in.pile), %ld steps, %d thread(s)/process(es): "
           "gran/hertz/history K_n %.6g K_t %.6g gamma_n %.6g gamma_t %.6g; contactlab penalty model=hertz "
           "gn=%.6g gt=%.6g with LAMMPS's options\n",
           lc.version, dir, steps, nproc, L.Kn, L.Kt, L.gamma_n, L.gamma_t, L.gn, L.gt);
    double best = INFINITY, lbest = INFINITY, best_cpu = INFINITY, lbest_cpu = INFINITY;
    bench_ke ke = {0, 0}, lke = {0, 0};
    int status = 0, have = 0;
    for (int r = 0; r < repeats && !status; r++) {
        double sec = 0.0, cpu = 0.0;
        if (peer_run(w, &L, h, c->sort, steps, &sec, &cpu, &ke, &err)) {
            fprintf(stderr, "contactlab bench pile: LAMMPS's law: %s\n", err.msg);
            status = 1;
            break;
        }
        best = fmin(best, sec);
        best_cpu = fmin(best_cpu, cpu);
        bench_lammps_out lo;
        if (bench_lammps_run("pile", dir, in, &lc, steps, nproc, 1, &lo)) {
            status = 1;
            break;
        }
        lbest = fmin(lbest, lo.loop);
        if (lo.cpu_use > 0.0) lbest_cpu = fmin(lbest_cpu, lo.loop * lo.cpu_use * nproc);
        if (lo.have_ke && !have) {
            lke = lo.ke;
            have = 1;
        }
    }
    clab_world_destroy(w);
    if (status) return status;
    char name[64], note[200];
    snprintf(name, sizeof name, "pile-lammps-law-%ld", n);
    snprintf(note, sizeof note, "contactlab penalty with LAMMPS's gran/hertz/history law; best of %d; CPU %.4g s", repeats,
             best_cpu);
    bench_row row = {name, nproc, n, -1, steps, best, bench_peak_rss_bytes(), note};
    bench_summary_append(c, &row);
    snprintf(name, sizeof name, "pile-%ld-lammps", n);
    snprintf(note, sizeof note, "LAMMPS %s gran/hertz/history; best of %d; CPU %.4g s", lc.version, repeats, lbest_cpu);
    bench_row lrow = {name, nproc, n, -1, steps, lbest, 0.0, note};
    bench_summary_append(c, &lrow);
    const double ps = (double)n * (double)steps;
    printf("    ratio contactlab/LAMMPS (particle-steps per second), %ld steps, %d thread(s): %.3g; CPU time per "
           "particle-step (all threads): contactlab %.4g ns, LAMMPS %.4g ns, ratio LAMMPS/contactlab %.3g; load %.2f\n",
           steps, nproc, lbest / best, 1e9 * best_cpu / ps, 1e9 * lbest_cpu / ps, lbest_cpu / best_cpu, bench_load1());
    if (have) physics_row(c, n, steps, ke, lke);
    else printf("    (no kinetic energy in LAMMPS's log)\n");
    return 0;
}
