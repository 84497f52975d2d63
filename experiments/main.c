/* main.c: the contactlab command: one subcommand per experiment, plus list and run */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "xp.h"

static int cmd_list(int argc, char **argv);

static const xp_experiment experiments[] = {
    {"bowling", "bowling ball launched sliding: the CCP lift-off artifact vs penalty and the analytic slip-to-roll",
     xp_bowling},
    {"run", "run any scene file under any backend (contactlab run SCENE.cfg)", xp_run},
    {"pile", "granular settling of N spheres in a box: kinetic energy, contacts, force distribution P(f/<f>)", xp_pile},
    {"convergence", "residual against iteration of every DVI solver on one settled-pile CCP", xp_convergence},
    {"scaling", "seconds per step against body count for both backends (log-log, fitted exponent)", xp_scaling},
    {"incline", "box on an incline swept through tan theta = mu: acceleration against g (sin - mu cos)", xp_incline},
    {"drop", "sphere dropped on a plane: penalty impact vs Hertz (contact time, overlap, cor), DVI lands inelastically", xp_drop},
    {"chain", "row of touching spheres struck at one end: penalty carries a wave (Nesterenko), DVI moves all at once", xp_chain},
    {"bench", "benchmarks (chute vs LAMMPS, pile, dvi-pile): particle-steps per second, memory, scaling", xp_bench},
    {"list", "list the experiments and the backends with their options", cmd_list},
};
static const size_t nexperiments = sizeof experiments / sizeof experiments[0];

static void usage(FILE *f)
{
    fprintf(f, "usage: contactlab COMMAND [options]   (contactlab COMMAND --help for its options)\n\ncommands:\n");
    for (size_t i = 0; i < nexperiments; i++) fprintf(f, "  %-12s %s\n", experiments[i].name, experiments[i].summary);
}

static int cmd_list(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    usage(stdout);
    printf("\nbackends:\n");
    const clab_backend_type *const *all = clab_backend_all();
    for (size_t i = 0; all[i]; i++)
        printf("  %-12s %s\n%s\n", all[i]->name, all[i]->summary, all[i]->options_help ? all[i]->options_help : "");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("contactlab %s\n", PACKAGE_VERSION);
        return 0;
    }
    for (size_t i = 0; i < nexperiments; i++)
        if (strcmp(argv[1], experiments[i].name) == 0) {
            /* a driver's argv[0] is its subcommand, which getopt puts before its messages:
             * "contactlab run: unrecognized option" (the metadata takes the name from xp_common) */
            char full[64];
            snprintf(full, sizeof full, "contactlab %s", experiments[i].name);
            argv[1] = full;
            return experiments[i].run(argc - 1, argv + 1);
        }
    fprintf(stderr, "contactlab: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
