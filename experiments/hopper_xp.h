/* hopper_xp.h: what the driver of contactlab hopper (hopper.c) shares with its cases
 * (hopper_case.c): the options, the settled fill, a discharge's result and the experiment's
 * running values that every checkpoint keeps.
 *
 * The cases run in a fixed order, per geometry: the fill ("fill flat"), then every method and
 * orifice ("flat dvi D_o=7"). Each is a case of the experiment's checkpoint and restart
 * (xp.h): SIGINT, SIGTERM, --stop-after or --checkpoint-every write <out>/hopper.ckpt, and the
 * same command with --restart continues the case it holds. The settled fill is saved as
 * <out>/hopper-<geometry>-fill.ckpt; a restart past the fill, or --fill-from DIR, loads it
 * instead of settling again (the same bits: a checkpoint restores the state exactly). */
#ifndef CLAB_HOPPER_XP_H
#define CLAB_HOPPER_XP_H

#include "hopper.h"
#include "xp.h"

#define HP_MAXD 12 /* orifices a run */

typedef struct hp_opts {
    xp_common c;
    hp_def def;
    int geom[2], ngeom;          /* the containers (HP_FLAT, HP_CONE) */
    int gi;                      /* index in geom of the one running */
    double Dod[HP_MAXD];         /* orifice diameters / d */
    int nD;
    double width_d, bottom_d;    /* box width and cone outlet in mean diameters */
    double angle_deg;            /* cone half-angle [deg] */
    double hpen, hdvi;           /* steps [s] (hpen 0: half the stable step, 1-2-5 rounded) */
    double t_settle;             /* settling time [s] */
    double t_stall;              /* stop when nothing left the hopper for so long [s] */
    double sample_dt;            /* output interval [s] */
    double stop_fraction;        /* stop when this fraction of the spheres has left */
    int quick, full;
    char fill_from[2048];        /* --fill-from: a folder holding hopper-<geometry>-fill.ckpt */
} hp_opts;

/* the settled fill of one geometry, shared by every orifice and method */
typedef struct hp_fill {
    clab_world *w;
    hp_info info;
    double rho_b, phi, ke, wall;
    const char *source; /* "settled", or the file it was loaded from */
    char path[2048];
} hp_fill;

/* one discharge: what the summary needs */
typedef struct hp_result {
    double W, r2, t_first, t_last, h, steps, t, wall;
    size_t discharged;
    const char *outcome;
} hp_result;

/* The experiment's running values, kept in every checkpoint (restored bit for bit by a
 * restart): the flow rates of the cases done (NAN: clogged or not run), the run time per
 * method, and each geometry's fill measures. Only doubles: it travels as an array. */
typedef struct hp_state {
    double W[2][XP_MAX_METHODS][HP_MAXD]; /* [geometry index][method][orifice] [kg/s] */
    double runtime[XP_MAX_METHODS];       /* wall time of the discharges per method [s] */
    double rho_b[2], phi[2], d_mean[2];   /* per geometry index */
} hp_state;
enum { HP_NX = sizeof(hp_state) / sizeof(double) };

/* The fill of the running geometry (o->gi): the case "fill <geometry>": settled with the
 * penalty method (checkpointed like a discharge), continued from --restart, or loaded from
 * <out> (a restart past it) or --fill-from; saved to <out>/hopper-<geometry>-fill.ckpt.
 * 0: done, 1: failed (printed), 2: stopped (*status: the exit status). */
int hp_fill_case(hp_opts *o, hp_state *x, clab_csv *sum, hp_fill *f, int *status);

/* The case of one discharge (method m, orifice Dod d) from the fill f: its series at path
 * (metadata meta), its result res. 0: done, 1: failed, 2: stopped (*status). */
int hp_discharge_case(hp_opts *o, hp_state *x, const hp_fill *f, const xp_method *m, double Dod, const char *path,
                      clab_options *meta, clab_csv *sum, hp_result *res, xp_progress *pb, double pb0, double pbspan,
                      int *status);

#endif
