/* validate.c: contactlab validate [TEST...] [--method M]: the Chung-Ooi benchmark tests
 * (validate_chung.c) and the single-contact analytic checks (validate_checks.c) under every
 * chosen method, printed as two tables (test, method, case, quantity, expected, obtained, error,
 * tolerance, verdict), written to validate-table.csv with the curve tests' CSVs and figures
 * (validate.gp); the exit status is 1 when any row fails. doc/validation.md. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "validate.h"

static void help(const xp_common *c)
{
    printf("usage: contactlab validate [TEST...] [options]\n\n"
           "The benchmark tests of Chung and Ooi (Granular Matter 13 (2011) 643-656) at their material data\n"
           "and impact conditions, each against its closed form, and the single-contact analytic checks,\n"
           "under every chosen method. TEST: 1..8 (Chung-Ooi), checks (slip to roll, incline threshold,\n"
           "resting contact, lift-off speed), or all (default).\n"
           "  1 elastic normal impact of two identical spheres (glass, limestone): Hertz t_c, delta_max, F_max\n"
           "  2 elastic normal impact of a sphere on a rigid plane (Al alloy, Mg alloy): Hertz\n"
           "  3 normal impact with restitution 0.2..1 (Al oxide, cast iron): e\n"
           "  4 oblique impact at 3.9 m/s, 5..85 deg (Al oxide, mu 0.092, e 0.98): tangential restitution\n"
           "    and rebound angle against the rigid-body solution (stick/slip at tan theta = 7/2 mu (1 + e))\n"
           "  5 oblique impact at v_n = 5 m/s, v_t 0.5..70 m/s (steel, polyethylene, mu 0.3, e 1)\n"
           "  6 a sphere spinning at 0.175..21 rad/s on a rigid plane, v_n = 0.2 m/s (Al alloy, nylon)\n"
           "  7 two identical spinning spheres, v_n = 0.2 m/s (Al alloy, copper)\n"
           "  8 a spinning sphere on a five times larger, heavy one (Al alloy, nylon)\n"
           "Rigid (CCP) methods: no overlap or contact time, restitution 0 at the velocity level; their\n"
           "oblique rows are checked against the CCP's one-step impulse. The exit status is 1 when a row\n"
           "fails. Writes validate-table.csv, validate-test<N>-<material>-<method>.csv and figures.\n\n"
           "Experiment options:\n"
           "  --quick                fewer cases and 200 steps a compliant contact (a smoke run)\n"
           "  --steps-per-contact N  compliant step h = Hertz t_c / N (default 1000; --quick 200)\n"
           "  --h-dvi S              step of the rigid-contact methods [s] (default 1e-4)\n\n");
    xp_common_help(c);
}

static const char *status_name(val_status s)
{
    return s == VAL_PASS ? "pass" : s == VAL_FAIL ? "FAIL" : s == VAL_NA ? "n/a" : "ref";
}

/* the rows of t whose test is (checks) or is not (!checks) a single-contact check */
static int is_check(const val_row *r)
{
    return r->test[0] < '0' || r->test[0] > '9';
}

static void print_table(const val_table *t, int checks, const char *title)
{
    printf("\n%s\n", title);
    printf("%-9s %-16s %-28s %-28s %12s %12s %9s %9s %s\n", "test", "method", "case", "quantity", "expected",
           "obtained", "error", "tol", "verdict");
    for (size_t i = 0; i < t->n; i++) {
        const val_row *r = &t->r[i];
        if (is_check(r) != checks) continue;
        char err[32] = "", tol[32] = "";
        if (isfinite(r->err)) snprintf(err, sizeof err, r->abs ? "%.2e" : "%.2e", r->err);
        if (isfinite(r->tol)) snprintf(tol, sizeof tol, r->abs ? "%.1e abs" : "%.1e", r->tol);
        printf("%-9s %-16s %-28s %-28s %12.5g %12.5g %9s %9s %s%s%s\n", r->test, r->method, r->what, r->quantity,
               r->expected, r->obtained, err, tol, status_name(r->status), r->status == VAL_PASS ? "" : ": ",
               r->status == VAL_PASS ? "" : r->note);
    }
}

static int write_table(const val_opts *o, const val_table *t)
{
    char path[2048];
    xp_path(&o->c, "validate-table.csv", path, sizeof path);
    clab_error err;
    clab_csv *f = clab_csv_open(path, CLAB_CSV_OVERWRITE, &err);
    static const char *const cols[] = {"test", "method", "case", "quantity", "expected", "obtained",
                                       "error", "tolerance", "tolerance_kind", "verdict", "note"};
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "validate", NULL);
    clab_options_set(&meta, "reference", "Chung and Ooi, Granular Matter 13 (2011) 643-656; doc/validation.md", NULL);
    int rc = !f || clab_csv_meta(f, &meta, o->c.argc, o->c.argv, &err) || clab_csv_header(f, cols, 11, &err);
    for (size_t i = 0; rc == 0 && i < t->n; i++) {
        const val_row *r = &t->r[i];
        char e[32], ob[32], er[32], tl[32];
        snprintf(e, sizeof e, "%.17g", r->expected);
        snprintf(ob, sizeof ob, "%.17g", r->obtained);
        snprintf(er, sizeof er, "%.6g", r->err);
        snprintf(tl, sizeof tl, "%.6g", r->tol);
        const char *cells[] = {r->test, r->method, r->what, r->quantity, e, ob, er, tl,
                               r->abs ? "absolute" : "relative", status_name(r->status), r->note};
        rc = clab_csv_text_row(f, cells, 11, &err);
    }
    if (f && clab_csv_close(f, &err)) rc = 1;
    clab_options_free(&meta);
    if (rc) fprintf(stderr, "contactlab validate: %s\n", err.msg);
    return rc ? -1 : 0;
}

/* TEST words into bits: 1..8, checks, all */
static int parse_tests(int argc, char **argv, unsigned *bits)
{
    int bad = 0;
    *bits = 0;
    for (int i = optind; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "all") == 0) *bits |= 0x1feu | 1u << VAL_CHECKS_BIT;
        else if (strcmp(a, "checks") == 0) *bits |= 1u << VAL_CHECKS_BIT;
        else if (a[0] >= '1' && a[0] <= '8' && a[1] == '\0') *bits |= 1u << (a[0] - '0');
        else {
            xp_option_error("contactlab validate: unknown test '%s'; allowed: 1..8, checks, all\n", a);
            bad = 1;
        }
    }
    if (!*bits) *bits = 0x1feu | 1u << VAL_CHECKS_BIT;
    return bad;
}

int xp_validate(int argc, char **argv)
{
    static const struct option longopts[] = {XP_COMMON_LONGOPTS,
                                             {"quick", no_argument, 0, 1000},
                                             {"steps-per-contact", required_argument, 0, 1001},
                                             {"h-dvi", required_argument, 0, 1002},
                                             {0, 0, 0, 0}};
    val_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "validate", argc, argv);
    xp_methods_choose(&o.c, "all");
    snprintf(o.c.method_default, sizeof o.c.method_default, "all");
    o.hdvi = 1e-4;
    long spc = 0;
    int rc = 2, opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        int r = xp_common_option(&o.c, opt, optarg);
        if (r != 0) continue;
        switch (opt) {
        case '?' + 256: help(&o.c); rc = 0; goto out;
        case 1000: o.quick = 1; break;
        case 1001: (void)xp_parse_long("steps-per-contact", optarg, 20, 1000000, &spc); break;
        case 1002: (void)xp_parse_double("h-dvi", optarg, 1e-9, 0.1, &o.hdvi); break;
        default: xp_option_unknown(); break;
        }
    }
    parse_tests(argc, argv, &o.tests);
    if (xp_option_errors("contactlab validate")) goto out;
    o.steps_per_contact = spc > 0 ? (int)spc : o.quick ? 200 : 1000;
    if (o.c.h > 0.0) o.hdvi = o.c.h;
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    val_table t = {NULL, 0, 0};
    xp_progress pb;
    xp_progress_begin(&pb, &o.c, "validate");
    rc = 0;
    for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++) {
        const xp_method *m = o.c.method[mi];
        fprintf(stderr, "contactlab validate: %s (%s)\n", m->name, m->title);
        if ((o.tests & 0x1feu) && val_chung_ooi(&o, m, &t, NULL)) rc = 1;
        if (rc == 0 && (o.tests & 1u << VAL_CHECKS_BIT) && val_checks(&o, m, &t)) rc = 1;
        xp_progress_update(&pb, (mi + 1.0) / o.c.nmethod);
    }
    xp_progress_end(&pb);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    size_t npass = 0, nfail = 0, nother = 0;
    for (size_t i = 0; i < t.n; i++)
        t.r[i].status == VAL_PASS ? npass++ : t.r[i].status == VAL_FAIL ? nfail++ : nother++;
    if (o.tests & 0x1feu)
        print_table(&t, 0, "Chung-Ooi benchmark tests (Granular Matter 13 (2011) 643-656)");
    if (o.tests & 1u << VAL_CHECKS_BIT) print_table(&t, 1, "Single-contact analytic checks");
    printf("\n%zu rows: %zu pass, %zu FAIL, %zu not checked (n/a or reference); %.1f s\n", t.n, npass, nfail, nother,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    if (rc == 0 && write_table(&o, &t)) rc = 1;
    free(t.r);
    if (rc == 0) {
        printf("\nCSVs: %s/validate-*.csv (the table: %s/validate-table.csv)\n", o.c.out, o.c.out);
        if (xp_plot(&o.c, "validate.gp") == 0 && o.c.plot)
            printf("figures: %s/validate-test4.png, validate-test5.png, validate-test6.png (and .pdf)\n", o.c.out);
    }
    if (rc == 0 && nfail > 0) rc = 1;
out:
    xp_common_free(&o.c);
    return rc;
}
