/* wave_random.c: the random dense column of `contactlab wave` (wave.h).
 *
 * The spheres (radius R, n of them, n v = phi_g L^2 H, v = 4/3 pi R^3, L = nxr a, H = nz a,
 * a = 2R) are grown frictionless to the solid fraction phi_g in a box of side L and height H by
 * `contactlab prepare`'s radius growth (prepare_grow.c, xp_pack_grow: dense, no gravity). They
 * are then put in the column's frame (wave_frame: the same bottom plate and top plate as the
 * simple-cubic column, the side walls frictionless, the top plate's underside at the growth
 * box's top) with the wave's material, friction off (a state at rest that a new world can
 * start from: a frictional one rests on the tangential springs' history, which a new world
 * does not have; a frictionless equilibrium is one under any friction), and pressed by the top
 * plate loaded with p L^2: first at the highest pressure, then unloaded to each lower one in
 * turn, each starting from the last one's state (a frictionless column loaded from the grown
 * state at a low pressure creeps for hundreds of transits without coming to rest: it is not
 * yet jammed; unloaded from a jammed state it is at rest in about a hundred). Each is a
 * Hertz-Mindlin penalty run at restitution rcor (a strong dashpot, to come to rest sooner),
 * step T0/30 (T0 = sqrt(m/k_t) of the Hertz chain at p), until the largest mean vertical
 * velocity of a depth bin (one diameter thick) is below 1e-3 v_p and the RMS speed of the
 * spheres below 1e-2 v_p (v_p the pulse's peak at p), or for at most rtransits transits H/c
 * of the Hertz chain's speed c. Every eighth of a transit, the velocities are checked so and,
 * past a maximum of the kinetic energy, set to zero (a quench: the column's slowest modes, of
 * period about 4 H/c, lose most of their energy at each).
 * The growth's target phi_g stays below the jamming of the narrow walled box (about 0.55 at
 * 4 diameters wide: the walls keep the spheres' centres a radius away), so the grown spheres
 * barely touch and the pressing plate makes the load-carrying contacts.
 * The state at rest, the spheres' centers and the top plate's pose (centre and orientation:
 * the plate rests tilted on the column's uneven top), is what the wave runs at p start from
 * (at rest). Measured there (clab_measure over the box of the walls and the plate's
 * underside): the solid fraction, the coordination number Z (force-carrying contacts
 * per sphere, walls and plates counted) and the pressure; then the hold check (hold_check):
 * the state under the wave's friction and restitution, held without a pulse for a wave run's
 * time, must keep the depth bins' velocities well below the arrival threshold. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_measure.h"
#include "pile_scene.h"
#include "prepare.h"
#include "wave.h"

void wave_random_free(wave_random *r)
{
    for (int k = 0; k < MAXP; k++) free(r->pos[k]), r->pos[k] = NULL;
}

/* the column with the spheres at pos and the top plate at the pose (pr, pe): the plate's
 * whole pose, not only its height, since the pressed plate rests tilted on the column's uneven
 * top (by about 1e-3 rad over 4 diameters, ten Hertz overlaps at its edge: a level plate there
 * would strike the column) */
static clab_world *random_world_at(const wave_opts *o, const wave_random *r, const double *pos, clab_vec3 pr,
                                   clab_quat pe, clab_error *err)
{
    clab_world *w = wave_frame(o, r->L, pr.z - o->R, 1, err);
    if (!w) return NULL;
    w->bodies[5].r = pr;
    w->bodies[5].e = pe;
    for (long i = 0; i < r->n; i++) {
        clab_body_def d = clab_default_body_def();
        snprintf(d.name, sizeof d.name, "g%ld", i);
        d.shape = clab_sphere(o->R);
        d.density = o->rho;
        d.r = clab_v3(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
        if (clab_world_add_body(w, &d, err) < 0) {
            clab_world_destroy(w);
            return NULL;
        }
    }
    return w;
}

clab_world *wave_random_world(const wave_opts *o, const wave_random *r, int k, clab_error *err)
{
    return random_world_at(o, r, r->pos[k], r->plate_r[k], r->plate_e[k], err);
}

/* the largest |mean vertical velocity| of a depth bin (a thick) and the RMS speed of the spheres */
static void rest_speeds(const clab_world *w, double a, double *vbin, double *vrms)
{
    double sv[MAXL + 1] = {0}, s2 = 0.0;
    int nb[MAXL + 1] = {0};
    for (size_t i = WAVE_FIRST; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        int k = (int)fmin(fmax(floor(b->r.z / a), 0.0), MAXL);
        sv[k] += b->rdot.z, nb[k]++;
        s2 += clab_v3_norm2(b->rdot);
    }
    *vbin = 0.0;
    for (int k = 0; k <= MAXL; k++)
        if (nb[k]) *vbin = fmax(*vbin, fabs(sv[k] / nb[k]));
    *vrms = sqrt(s2 / (double)(w->nbodies - WAVE_FIRST));
}

/* press the column at pressure index k from the centers pos and the plate's pose (*pr, *pe);
 * all updated to the state at rest */
static int press(const wave_opts *o, wave_random *r, int k, double *pos, clab_vec3 *pr, clab_quat *pe, xp_progress *pb)
{
    clab_error err;
    wave_opts od = *o;
    od.cor = o->rcor;
    od.mu = 0.0;
    const double p = o->p[k], a = 2.0 * o->R, H = o->nz * a;
    const wave_theory t = wave_theory_at(o, p);
    clab_world *w = random_world_at(&od, r, pos, *pr, *pe, &err);
    clab_sim *s = NULL;
    clab_options opt;
    clab_options_init(&opt);
    int rc = -1;
    if (!w || clab_world_set_load(w, 5, clab_v3(0.0, 0.0, -p * r->L * r->L), clab_v3(0, 0, 0), &err)) goto done;
    clab_options_set(&opt, "allow_overlap", "1", NULL);
    const double h = xp_round125(t.T0 / 30.0), transit = H / t.c;
    if (!(s = clab_sim_create(w, "penalty", h, &opt, &err))) goto done;
    const long nmax = (long)ceil(o->rtransits * transit / h), every = (long)fmax(1.0, floor(0.125 * transit / h));
    double vbin = INFINITY, vrms = INFINITY;
    long j;
    double ke_last = 0.0;
    for (j = 1; j <= nmax; j++) {
        if (clab_sim_step(s, &err)) goto done;
        if (j % every) continue;
        rest_speeds(w, a, &vbin, &vrms);
        xp_progress_update(pb, ((double)(o->np - 1 - k) + (double)j / (double)nmax) / o->np);
        if (vbin < 1e-3 * t.vp && vrms < 1e-2 * t.vp) break;
        /* the quench: past a maximum of the kinetic energy, every velocity to zero */
        double ke = 0.0;
        for (size_t i = WAVE_FIRST - 1; i < w->nbodies; i++) ke += w->bodies[i].m * clab_v3_norm2(w->bodies[i].rdot);
        if (ke < ke_last) {
            for (size_t i = WAVE_FIRST - 1; i < w->nbodies; i++) w->bodies[i].rdot = w->bodies[i].wbar = clab_v3(0, 0, 0);
            ke = 0.0;
        }
        ke_last = ke;
    }
    rest_speeds(w, a, &vbin, &vrms);
    for (long i = 0; i < r->n; i++) {
        const clab_vec3 c = w->bodies[WAVE_FIRST + (size_t)i].r;
        pos[3 * i] = c.x, pos[3 * i + 1] = c.y, pos[3 * i + 2] = c.z;
    }
    *pr = r->plate_r[k] = w->bodies[5].r;
    *pe = r->plate_e[k] = w->bodies[5].e;
    const double ztop = pr->z - o->R;
    clab_measure_box box = {{0.0, 0.0, 0.0}, {r->L, r->L, ztop}};
    clab_measure_opts mo = clab_measure_default_opts();
    mo.box = &box;
    clab_measure ms;
    if (clab_measure_sim(s, &mo, &ms, &err)) goto done;
    r->phi[k] = ms.solid_fraction;
    r->Z[k] = ms.Z;
    r->rest[k] = vbin;
    r->ztop[k] = ztop;
    if (!(r->pos[k] = malloc(3 * (size_t)r->n * sizeof *pos))) {
        clab_error_set(&err, CLAB_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(r->pos[k], pos, 3 * (size_t)r->n * sizeof *pos);
    if (pb->on) fprintf(stderr, "\r%*s\r", 100, "");
    printf("random column at p = %g Pa: pressed for %.3g transits (%ld steps of %.2g s), solid fraction %.4f, Z %.2f, "
           "measured p %.4g Pa, rest: bins %.2g v_p, RMS %.2g v_p\n", p, (double)(j > nmax ? nmax : j) * h / transit,
           j > nmax ? nmax : j, h, ms.solid_fraction, ms.Z, ms.p, vbin / t.vp, vrms / t.vp);
    fflush(stdout);
    rc = 0;
done:
    if (rc) fprintf(stderr, "contactlab wave: pressing the random column at p = %g Pa: %s\n", p, err.msg);
    clab_options_free(&opt);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

/* The hold check: the wave run's world at pressure index k (the wave's friction and
 * restitution, the load p L^2, the force-law step) run without a pulse for as long as a wave
 * run (the pulse's 3 a / c and 1.5 transits H / c): the sigma_zz measured after the first step,
 * the largest |mean vertical velocity of a depth bin| and the plate's displacement over it. */
static int hold_check(const wave_opts *o, wave_random *r, int k)
{
    clab_error err;
    const double p = o->p[k], a = 2.0 * o->R, H = o->nz * a;
    const wave_theory t = wave_theory_at(o, p);
    clab_world *w = wave_random_world(o, r, k, &err);
    clab_sim *s = NULL;
    clab_options opt;
    clab_options_init(&opt);
    int rc = -1;
    char v[64];
    snprintf(v, sizeof v, "%.17g", 0.1 * o->R);
    clab_options_set(&opt, "envelope", v, NULL);
    if (!w || clab_world_set_load(w, 5, clab_v3(0.0, 0.0, -p * r->L * r->L), clab_v3(0, 0, 0), &err)) goto done;
    if (!(s = clab_sim_create(w, "penalty", o->hpen, &opt, &err))) goto done;
    const long nsteps = (long)ceil((3.0 * a + 1.5 * H) / t.c / o->hpen);
    const double z0 = w->bodies[5].r.z;
    double vmax = 0.0, vrms;
    for (long j = 1; j <= nsteps; j++) {
        if (clab_sim_step(s, &err)) goto done;
        if (j == 1) {
            clab_measure_box box = {{0.0, 0.0, 0.0}, {r->L, r->L, r->ztop[k]}};
            clab_measure_opts mo = clab_measure_default_opts();
            mo.box = &box;
            clab_measure ms;
            if (clab_measure_sim(s, &mo, &ms, &err)) goto done;
            r->szz0[k] = ms.sigma[2][2];
        }
        double vb;
        rest_speeds(w, a, &vb, &vrms);
        vmax = fmax(vmax, vb);
    }
    r->hold_v[k] = vmax;
    r->hold_dz[k] = w->bodies[5].r.z - z0;
    printf("random column at p = %g Pa held %ld steps (mu %g, restitution %g): sigma_zz %.4g Pa at the start, "
           "depth bins' velocity up to %.2g v_p, plate moved %.2g delta0\n", p, nsteps, o->mu, o->cor, r->szz0[k],
           vmax / t.vp, r->hold_dz[k] / t.delta0);
    fflush(stdout);
    rc = 0;
done:
    if (rc) fprintf(stderr, "contactlab wave: holding the random column at p = %g Pa: %s\n", p, err.msg);
    clab_options_free(&opt);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

int wave_random_make(const wave_opts *o, wave_random *r)
{
    const double t0 = xp_pile_now(), a = 2.0 * o->R, L = o->rnx * a, H = o->nz * a;
    const double vs = 4.0 / 3.0 * M_PI * pow(o->R, 3.0);
    xp_pack_params pp;
    xp_pack_defaults(&pp);
    pp.n = lround(o->rphi * L * L * H / vs);
    pp.rmin = pp.rmax = o->R;
    pp.phi = o->rphi;
    pp.mu = 0.0;
    pp.density = o->rho;
    pp.E = o->E;
    pp.seed = o->seed;
    pp.aspect = (double)o->nz / o->rnx;
    xp_pack_result pr;
    memset(&pr, 0, sizeof pr);
    clab_world *g = xp_pack_grow(&o->c, &pp, &pr);
    if (!g) return -1;
    r->n = pp.n;
    r->L = pr.L;
    r->phi_grown = pr.phi;
    double *pos = malloc(3 * (size_t)r->n * sizeof *pos);
    if (!pos) {
        clab_world_destroy(g);
        fprintf(stderr, "contactlab wave: out of memory\n");
        return -1;
    }
    long n = 0;
    for (size_t i = 0; i < g->nbodies && n < r->n; i++) {
        const clab_body *b = &g->bodies[i];
        if (b->fixed || b->shape.type != CLAB_SHAPE_SPHERE) continue;
        pos[3 * n] = b->r.x, pos[3 * n + 1] = b->r.y, pos[3 * n + 2] = b->r.z;
        n++;
    }
    clab_world_destroy(g);
    printf("random column: %ld spheres grown frictionless to solid fraction %.4f in %.3g x %.3g x %.3g m (largest "
           "overlap %.2g R, p %.3g Pa, RMS speed %.2g m/s; %.1f s)\n", r->n, pr.phi, pr.L, pr.L, pp.aspect * pr.L,
           pr.max_overlap / o->R, pr.p, pr.rms_speed, pr.wall);
    clab_vec3 plr = clab_v3(0.5 * pr.L, 0.5 * pr.L, pp.aspect * pr.L + o->R);
    clab_quat ple = clab_q_identity();
    xp_progress pb;
    xp_progress_begin(&pb, &o->c, "wave: pressing the random column");
    int rc = 0;
    for (int k = o->np - 1; k >= 0 && rc == 0; k--) rc = press(o, r, k, pos, &plr, &ple, &pb) || hold_check(o, r, k);
    xp_progress_end(&pb);
    free(pos);
    r->wall = xp_pile_now() - t0;
    return rc;
}

/* ---- the pressed column as a checkpoint's running values (a restart reuses it) ----
 * n, L, phi_grown, wall, then per pressure ztop, phi, Z, rest, plate_r (3), plate_e (4),
 * szz0, hold_v, hold_dz and the 3 n centers */
enum { WR_HEAD = 4, WR_PER = 14 };

size_t wave_random_nvalues(const wave_random *r, int np) { return WR_HEAD + (size_t)np * (WR_PER + 3 * (size_t)r->n); }

void wave_random_pack(const wave_random *r, int np, double *v)
{
    v[0] = (double)r->n, v[1] = r->L, v[2] = r->phi_grown, v[3] = r->wall;
    double *q = v + WR_HEAD;
    for (int k = 0; k < np; k++) {
        const double per[WR_PER] = {r->ztop[k],      r->phi[k],       r->Z[k],         r->rest[k],     r->plate_r[k].x,
                                    r->plate_r[k].y, r->plate_r[k].z, r->plate_e[k].e0, r->plate_e[k].e1, r->plate_e[k].e2,
                                    r->plate_e[k].e3, r->szz0[k],     r->hold_v[k],    r->hold_dz[k]};
        memcpy(q, per, sizeof per);
        memcpy(q + WR_PER, r->pos[k], 3 * (size_t)r->n * sizeof *q);
        q += WR_PER + 3 * (size_t)r->n;
    }
}

int wave_random_unpack(wave_random *r, int np, const double *v, size_t nv)
{
    if (nv < WR_HEAD || !(v[0] >= 1.0 && v[0] < 1e9)) return -1;
    r->n = (long)v[0], r->L = v[1], r->phi_grown = v[2], r->wall = v[3];
    if (wave_random_nvalues(r, np) > nv) return -1;
    const double *q = v + WR_HEAD;
    for (int k = 0; k < np; k++) {
        r->ztop[k] = q[0], r->phi[k] = q[1], r->Z[k] = q[2], r->rest[k] = q[3];
        r->plate_r[k] = clab_v3(q[4], q[5], q[6]);
        r->plate_e[k] = (clab_quat){q[7], q[8], q[9], q[10]};
        r->szz0[k] = q[11], r->hold_v[k] = q[12], r->hold_dz[k] = q[13];
        free(r->pos[k]);
        if (!(r->pos[k] = malloc(3 * (size_t)r->n * sizeof *r->pos[k]))) return -1;
        memcpy(r->pos[k], q + WR_PER, 3 * (size_t)r->n * sizeof *r->pos[k]);
        q += WR_PER + 3 * (size_t)r->n;
    }
    return 0;
}
