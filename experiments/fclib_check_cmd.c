/* fclib_check_cmd.c: `contactlab fclib check FILE.hdf5`: one FCLIB problem solved by
 * contactlab's exact-Coulomb solver (De Saxce's fixed point around apgd) and by Siconos's
 * NSGS, both from 0, then the cross-check of the two solutions that `bench fclib` prints after
 * its table (fclib_cross.c, doc/fclib.md), without the other solvers. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_siconos.h"
#include "fclib_xp.h"
#include "xp.h"

static void check_help(void)
{
    printf("usage: contactlab fclib check FILE.hdf5 [options]\n\n"
           "Solve the FCLIB problem's Coulomb problem with contactlab's exact solver (De Saxce's fixed point\n"
           "around apgd) and Siconos's NSGS, both from 0, and cross-check the two solutions: Coulomb's\n"
           "conditions contact by contact, their difference (contact and body velocities, slip pattern,\n"
           "reactions split into internal stresses and the part moving the bodies), the midpoint, and\n"
           "each solver restarted from the other's solution and from its own at a 100 times smaller\n"
           "tolerance (doc/fclib.md). Needs Siconos.\n"
           "  --tol X           contactlab's residual tolerance [m/s] (default 1e-6)\n"
           "  --max-iter N      iterations per CCP solve (default 20000)\n"
           "  --sic-tol X       Siconos's relative error (default 1e-6)\n"
           "  --sic-max-iter N  NSGS iterations (default 2000)\n"
           "  --no-polish       skip the restarts from their own solutions (large problems)\n");
}

static int cross(const clab_fc_problem *fp, clab_ccp *P, xp_fc_pair *x)
{
    size_t n = 3 * fp->nc;
    double *ra = calloc(n + 1, sizeof *ra), *ua = calloc(n + 1, sizeof *ua), *rb = calloc(n + 1, sizeof *rb),
           *ub = calloc(n + 1, sizeof *ub);
    clab_error err;
    int status = 1;
    xp_fc_run e;
    clab_sic_result res;
    if (!ra || !ua || !rb || !ub) {
        fprintf(stderr, "contactlab fclib check: out of memory\n");
    } else if (xp_fc_solve(fp, P, "exact", x->tol_a, x->iter_a, ra, ua, &e, &err)) {
        fprintf(stderr, "contactlab fclib check: %s\n", err.msg);
    } else {
        printf("  clab exact: %s after %ld iterations in %ld CCP solves, %.3g s; err Siconos %.3e, r_E %.3e m/s\n",
               e.converged ? "converged" : "NOT converged", e.iterations, e.outer, e.seconds, e.err_siconos,
               e.residual_exact);
        if (clab_sic_solve(fp, "nsgs", x->tol_b, x->iter_b, rb, ub, &res, &err)) {
            fprintf(stderr, "contactlab fclib check: %s\n", err.msg);
        } else {
            xp_fc_errors(fp, P, rb, ub, &e);
            printf("  siconos nsgs: %s after %ld iterations, %.3g s; err Siconos %.3e, r_E %.3e m/s\n",
                   res.info == 0 ? "converged" : "NOT converged", res.iterations, res.seconds, e.err_siconos,
                   e.residual_exact);
            x->ra = ra, x->ua = ua, x->rb = rb, x->ub = ub;
            status = xp_fc_cross(fp, P, x, NULL, "") ? 1 : 0;
        }
    }
    free(ra), free(ua), free(rb), free(ub);
    return status;
}

int xp_fclib_check(int argc, char **argv)
{
    static const struct option longopts[] = {{"tol", required_argument, 0, 't'},
                                             {"max-iter", required_argument, 0, 'm'},
                                             {"sic-tol", required_argument, 0, 's'},
                                             {"sic-max-iter", required_argument, 0, 'n'},
                                             {"no-polish", no_argument, 0, 'p'},
                                             {"help", no_argument, 0, 'h'},
                                             {0, 0, 0, 0}};
    xp_fc_pair x = {"clab exact", "siconos nsgs", "nsgs", NULL, NULL, NULL, NULL, 1e-6, 1e-6, 20000, 2000, 0};
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (opt) {
        case 't': xp_parse_double("tol", optarg, 0.0, 1e3, &x.tol_a); break;
        case 'm': xp_parse_long("max-iter", optarg, 1, 1000000000L, &x.iter_a); break;
        case 's': xp_parse_double("sic-tol", optarg, 0.0, 1.0, &x.tol_b); break;
        case 'n': xp_parse_long("sic-max-iter", optarg, 1, 1000000000L, &x.iter_b); break;
        case 'p': x.no_polish = 1; break;
        case 'h': check_help(); return 0;
        default: xp_option_unknown(); break;
        }
    }
    if (optind != argc - 1)
        xp_option_error("contactlab fclib check: give exactly one FCLIB file (%d given)\n", argc - optind);
    if (xp_option_errors("contactlab fclib check")) return 2;
    if (!clab_fc_available() || !clab_sic_available()) {
        fprintf(stderr, "contactlab fclib check: %s\n", clab_fc_available() ? clab_sic_missing() : clab_fc_missing());
        return 1;
    }
    const char *path = argv[optind];
    clab_error err;
    clab_fc_problem fp;
    if (clab_fc_read(path, &fp, &err)) {
        fprintf(stderr, "contactlab fclib check: %s\n", err.msg);
        return 1;
    }
    clab_ccp P;
    int status = 1;
    printf("%s: %zu contacts\n", path, fp.nc);
    if (clab_fc_to_ccp(&fp, &P, &err)) {
        fprintf(stderr, "contactlab fclib check: %s: %s\n", path, err.msg);
    } else {
        status = cross(&fp, &P, &x);
        clab_ccp_free(&P);
    }
    clab_fc_free(&fp);
    return status;
}
