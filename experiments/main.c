/* main.c: the contactlab command: one subcommand per experiment, plus list and run */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xp.h"
#include "prepare.h"
#include "fclib_xp.h"

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
    {"prepare", "dense or loose packing of N spheres by radius growth, saved for every method (LAMMPS data + scene)",
     xp_prepare},
    {"hopper", "hopper discharge through an orifice under every method: mass flow rate, Beverloo's C and k", xp_hopper},
    {"painleve", "Painleve's rod sliding on a rough plane: the (theta, mu) region, tangential impacts, penalty spikes", xp_painleve},
    {"validate", "Chung-Ooi benchmark tests and single-contact analytic checks, every method: one pass/fail table", xp_validate},
    {"cone", "cone penetrometer (a driven mesh) pushed into a settled bed: tip force against depth, slope per speed", xp_cone},
    {"wave", "pulse through a pressed column of spheres: wave speed vs p^(1/6) (penalty), vs iterations and h (DVI)", xp_wave},
    {"cone-error", "puck sliding between the edges of the Stewart-Trinkle LCP's friction polygon: deflection against k", xp_cone_error},
    {"shear", "direct shear test (split box, loading plate): peak and residual tau/sigma_n, Mohr-Coulomb friction angle", xp_shear},
    {"triaxial", "triaxial compression between servo walls: q/p and volumetric strain, critical-state friction angle",
     xp_triaxial},
    {"bench", "benchmarks (chute vs LAMMPS, pile, dvi-pile): particle-steps per second, memory, scaling", xp_bench},
    {"fclib", "FCLIB frictional-contact problems (HDF5): solve a file with contactlab's CCP and exact-Coulomb solvers",
     xp_fclib},
    {"list", "list the experiments and the backends with their options", cmd_list},
};
static const size_t nexperiments = sizeof experiments / sizeof experiments[0];

/* what controls the threads, after every command's --help */
static void threads_help(FILE *f)
{
    fprintf(f, "\nThreads (OpenMP): OMP_NUM_THREADS=N runs N (default: one a core; the results do not depend on\n"
               "it); contactlab bench --threads LIST runs each benchmark at those counts. Idle threads sleep\n"
               "(OMP_WAIT_POLICY=passive: when the variable is unset, contactlab sets it and runs itself again,\n"
               "once), except in contactlab bench, which keeps the runtime's default (threads spin a while\n"
               "before they sleep: faster on a machine with nothing else to do, which is where benchmarks\n"
               "belong). OMP_WAIT_POLICY=active makes them spin everywhere: many times slower on a host whose\n"
               "cores are busy with other work.\n");
}

static void usage(FILE *f)
{
    fprintf(f, "usage: contactlab COMMAND [options]   (contactlab COMMAND --help for its options)\n\ncommands:\n");
    for (size_t i = 0; i < nexperiments; i++) fprintf(f, "  %-12s %s\n", experiments[i].name, experiments[i].summary);
}

/* a command's arguments ask for its help */
static int asks_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0) return 1;
    return 0;
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

/* The threads' wait policy. An OpenMP thread that waits (at a barrier, for the next parallel
 * region) spins on its core for a while before it sleeps, unless OMP_WAIT_POLICY=passive;
 * on a host whose cores are busy with other processes the spinning threads take the time
 * slices of the threads they wait for (a 5,184-sphere DVI pile on a 2-core host loaded by
 * two busy loops: 66.6 s spinning, 10.0 s passive). The runtime reads the variable when it is loaded, before
 * main, so setting it here is too late: when the user has not set it, contactlab runs itself
 * again (execv of /proc/self/exe, the same arguments) with OMP_WAIT_POLICY=passive, once (the
 * second run finds it set). Not under valgrind (its tool would not follow), and not when
 * execv fails: the run goes on with the runtime's default. */
static void wait_policy_passive(char **argv)
{
#ifdef _OPENMP
    if (getenv("OMP_WAIT_POLICY")) return;
    /* the benchmarks time the threads as the runtime runs them by default (their figures
     * compare across builds and with LAMMPS's); they belong on a quiet machine */
    if (argv[1] && strcmp(argv[1], "bench") == 0) return;
    const char *pre = getenv("LD_PRELOAD");
    if (pre && strstr(pre, "vgpreload")) return;
    if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
    execv("/proc/self/exe", argv);
    unsetenv("OMP_WAIT_POLICY"); /* execv failed: this process, the runtime's default */
#else
    (void)argv;
#endif
}

int main(int argc, char **argv)
{
    wait_policy_passive(argv);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        threads_help(stdout);
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
            int rc = experiments[i].run(argc - 1, argv + 1);
            if (rc == 0 && asks_help(argc - 1, argv + 1)) threads_help(stdout);
            return rc;
        }
    fprintf(stderr, "contactlab: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
