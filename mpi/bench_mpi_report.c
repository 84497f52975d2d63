/* bench_mpi_report.c: the figures of contactlab bench --mpi (bench_mpi.c): the scaling table,
 * each rank's traffic, and the projection to more ranks (bench_model.h), printed and written as
 * CSV rows. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bench_mpi_internal.h"

/* ---- the figures ---- */

static double mean_rank(const bm_mpi *m, size_t off)
{
    double s = 0.0;
    for (int q = 0; q < m->nrank; q++) s += *(const double *)((const char *)&m->r[q] + off);
    return m->nrank ? s / m->nrank : 0.0;
}

static double max_rank(const bm_mpi *m, size_t off)
{
    double s = 0.0;
    for (int q = 0; q < m->nrank; q++) s = fmax(s, *(const double *)((const char *)&m->r[q] + off));
    return s;
}

#define RMEAN(m, f) mean_rank(m, offsetof(bm_rank, f))
#define RMAX(m, f) max_rank(m, offsetof(bm_rank, f))

/* the model's inputs from the measured runs (the one-rank run and the largest P), bench_model.h */
static int measure(const bm_point *pt, int np, const clab_world *w, bench_mpi_measured *m)
{
    const bm_point *one = NULL, *big = NULL;
    for (int k = 0; k < np; k++) {
        if (pt[k].P == 1 && isfinite(pt[k].mpi)) one = &pt[k];
        if (pt[k].P > 1 && isfinite(pt[k].mpi) && (!big || pt[k].P > big->P)) big = &pt[k];
    }
    if (!one) return -1;
    memset(m, 0, sizeof *m);
    const bm_mpi *a = &one->best;
    m->N = (double)a->moving;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, Rmax = 0.0;
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->fixed) continue;
        const double x[3] = {b->r.x, b->r.y, b->r.z};
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], x[k]);
            hi[k] = fmax(hi[k], x[k]);
        }
        Rmax = fmax(Rmax, clab_shape_bound_radius(&b->shape));
    }
    for (int k = 0; k < 3; k++) {
        m->periodic[k] = w->periodic.on[k];
        m->L[k] = m->periodic[k] ? w->periodic.hi[k] - w->periodic.lo[k] : fmax(hi[k] - lo[k], 2.0 * Rmax);
    }
    m->width = a->r[0].reach + Rmax;
    const double steps = (double)a->steps;
    m->interval = a->rebuilds > 0 ? steps / (double)a->rebuilds : 0.0;
    m->reductions = a->r[0].reductions;
    /* a rebuild's computing, measured as the extra time of the steps that rebuilt (0: none in the run) */
    const double re1 = isfinite(a->r[0].rebuild) ? a->r[0].rebuild : 0.0;
    m->c = (a->seconds - a->r[0].exchange - (double)a->rebuilds * re1) / (steps * m->N);
    m->rebuild_body = re1 / m->N; /* one rank: every body is local */
    m->ghost_scale = 1.0;
    m->bytes_ghost = 13.0 * sizeof(double);
    m->rebuild_bytes_ghost = 112.0;
    if (!big) return 0;
    const bm_mpi *b = &big->best;
    const int P = big->P;
    double ghosts = 0.0, fwd = 0.0, re = 0.0;
    for (int q = 0; q < b->nrank; q++) {
        ghosts += b->r[q].ghosts;
        fwd += b->r[q].fwd_bytes;
        re += b->r[q].re_bytes;
    }
    double shell, nb;
    bench_mpi_shell(m->L, m->periodic, b->grid, m->width, &shell, &nb);
    const double model = shell * m->N / (m->L[0] * m->L[1] * m->L[2]) * P;
    if (model > 0.0 && ghosts > 0.0) m->ghost_scale = ghosts / model;
    if (ghosts > 0.0) m->bytes_ghost = fwd / ghosts;
    if (b->rebuilds > 0) {
        const double per_rebuild = (double)b->steps / (double)b->rebuilds;
        /* what a rank sends a rebuild over the ghosts it holds (the migration's measure) */
        if (ghosts > 0.0) m->rebuild_bytes_ghost = re * per_rebuild / ghosts;
    }
    return 0;
}

/* ---- one benchmark ---- */

static void print_row(FILE *csv, const char *which, const char *code, int P, long moving, long steps, double sec,
                      double sec1, double lmp, const char *hash, const bm_mpi *m)
{
    const double ps = (double)moving * (double)steps, ns = 1e9 * sec / ps;
    char rate[32] = "-";
    if (isfinite(lmp)) snprintf(rate, sizeof rate, "%.3g", lmp / sec);
    printf("  %-20s %3d  %10.1f  %8.3g  %8s  %s\n", code, P, ns, sec1 / sec, rate, hash);
    fprintf(csv, "%s,%s,%d,%ld,%ld,%.6g,%.6g,%.4g,%s,%s,", which, code, P, moving, steps, sec, ns, sec1 / sec,
            isfinite(lmp) ? rate : "", hash);
    if (m)
        fprintf(csv, "%.6g,%.4g,%.6g,%.4g,%.4g,%.4g,%.0f\n", RMEAN(m, fwd_bytes), RMEAN(m, fwd_msg), RMEAN(m, re_bytes),
                RMEAN(m, re_msg), RMEAN(m, reductions), RMAX(m, exchange), RMAX(m, rss));
    else fprintf(csv, ",,,,,,\n");
}

void bm_report_scaling(const bm_opts *o, const char *which, long moving, const bm_point *pt, FILE *csv)
{
    /* the table: ns a particle-step, speedup against the first P, rate against LAMMPS at the same P */
    printf("  %-20s %3s  %10s  %8s  %8s  %s\n", "code", "P", "ns/p-step", "speedup", "rate/lmp", "end-state hash");
    const long steps = o->steps;
    for (int k = 0; k < o->nranks; k++) {
        const bm_point *p = &pt[k];
        char hx[20];
        snprintf(hx, sizeof hx, "%016llx", (unsigned long long)p->omp_hash);
        print_row(csv, which, "contactlab-openmp", p->P, moving, steps, p->omp, pt[0].omp, p->lmp, hx, NULL);
        print_row(csv, which, "contactlab-mpi", p->P, moving, steps, p->mpi, pt[0].mpi, p->lmp, p->best.hash,
                  &p->best);
        if (isfinite(p->lmp))
            print_row(csv, which, "lammps-mpirun", p->P, moving, steps, p->lmp, isfinite(pt[0].lmp) ? pt[0].lmp : NAN,
                      NAN, "", NULL);
    }
    printf("  (speedup: against P = %d of the same code; rate/lmp: the code's particle-steps a second over LAMMPS's at "
           "the same P)\n", pt[0].P);
}

void bm_report_traffic(const bm_opts *o, const char *which, const bm_point *pt, FILE *csv)
{
    /* the traffic a rank */
    for (int k = 0; k < o->nranks; k++) {
        const bm_mpi *m = &pt[k].best;
        for (int q = 0; q < m->nrank; q++) {
            const bm_rank *a = &m->r[q];
            printf("  P = %d (grid %dx%dx%d), rank %d: %.0f owned, %.0f ghosts, %.0f replicated; a step: forward %.0f bytes "
                   "in %.2f messages, rebuilds %.0f bytes in %.2f messages, %.3g all-reduces; %.3g s in exchanges; "
                   "peak RSS %.1f MB\n",
                   pt[k].P, m->grid[0], m->grid[1], m->grid[2], q, a->owned, a->ghosts, a->replicated, a->fwd_bytes,
                   a->fwd_msg, a->re_bytes, a->re_msg, a->reductions, a->exchange, a->rss / 1e6);
            fprintf(csv, "%s,%d,%dx%dx%d,%d,%.0f,%.0f,%.0f,%.0f,%.6g,%.4g,%.6g,%.4g,%.4g,%.4g,%.4g,%.0f\n", which,
                    pt[k].P, m->grid[0], m->grid[1], m->grid[2], q, a->owned, a->local, a->ghosts, a->replicated,
                    a->fwd_bytes, a->fwd_msg, a->re_bytes, a->re_msg, a->reductions, a->exchange, a->rebuild, a->rss);
        }
    }
}

void bm_report_projection(const bm_opts *o, const char *which, const bm_point *pt, const clab_world *w, FILE *csv)
{
    /* the projection */
    bench_mpi_measured mm;
    if (measure(pt, o->nranks, w, &mm)) {
        printf("  projection: needs the one-rank run (--ranks 1,...)\n");
        return;
    }
    const double N = o->project_n > 0.0 ? o->project_n : mm.N;
    printf("  projection (a model: doc/mpi.md \"Projection\"): N = %.0f moving bodies; network alpha = %.3g s, beta = "
           "%.3g bytes/s\n"
           "    measured: c = %.1f ns a body a step (one rank, exchanges and rebuilds out), shell w = %.3g m (x %.3g "
           "to match the measured ghosts), %.0f bytes a ghost a step, %.3g all-reduces a step, a rebuild every %.1f "
           "steps (0: none in the run) sending %.0f bytes a ghost, computing %.3g ns a local body\n"
           "    T(P) = c (N/P + G) + m alpha + b_g G / beta + r 2 alpha ceil(log2 P) + T_rebuild / k\n",
           N, o->net.alpha, o->net.beta, 1e9 * mm.c, mm.width, mm.ghost_scale, mm.bytes_ghost, mm.reductions,
           mm.interval, mm.rebuild_bytes_ghost, 1e9 * mm.rebuild_body);
    printf("    %6s %-9s %10s %9s %6s %10s %10s %10s %10s %10s %8s %10s\n", "P", "grid", "owned", "ghosts", "msgs",
           "compute", "forward", "reduce", "rebuild", "total", "speedup", "measured");
    bench_mpi_point p1;
    bench_mpi_project(&mm, &o->net, N, 1, &p1);
    int list[BM_MAX_P + 8], nl = 0;
    for (int k = 0; k < o->nranks; k++) list[nl++] = o->ranks[k];
    for (int k = 0; k < o->nproject; k++) list[nl++] = o->project[k];
    for (int k = 0; k < nl; k++) {
        bench_mpi_point p;
        if (bench_mpi_project(&mm, &o->net, N, list[k], &p)) continue;
        double meas = NAN;
        for (int j = 0; j < o->nranks && N == mm.N; j++)
            if (pt[j].P == list[k] && k < o->nranks) meas = pt[j].mpi / (double)o->steps;
        char grid[32];
        snprintf(grid, sizeof grid, "%dx%dx%d", p.grid[0], p.grid[1], p.grid[2]);
        printf("    %6d %-9s %10.0f %9.0f %6.3g %8.3g s %8.3g s %8.3g s %8.3g s %8.3g s %8.3g", p.P, grid, p.owned,
               p.ghosts, p.neighbors, p.t_compute, p.t_forward, p.t_reduce, p.t_rebuild, p.t_total,
               p1.t_total / p.t_total);
        if (isfinite(meas)) printf(" %8.3g s", meas);
        printf("\n");
        fprintf(csv, "%s,%.0f,%d,%s,%.6g,%.6g,%.4g,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,", which, N, p.P, grid, p.owned,
                p.ghosts, p.neighbors, p.t_compute, p.t_forward, p.t_reduce, p.t_rebuild, p.t_total, p1.t_total / p.t_total);
        if (isfinite(meas)) fprintf(csv, "%.6g\n", meas);
        else fprintf(csv, "\n");
    }
}
