/* xp.c: options, output folders, progress bar and gnuplot step shared by the drivers */
#include "config.h"

#include "xp.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char xp_common_help[] =
    "Common options:\n"
    "  --method M          penalty, dvi or both (default both)\n"
    "  --h S               step size [s] for every method (default: per method, see above)\n"
    "  --t-end S           simulated time [s]\n"
    "  --out DIR           output folder (default out/<experiment>)\n"
    "  --opt-penalty K=V   penalty backend option (repeatable; `contactlab list` shows them)\n"
    "  --opt-dvi K=V       DVI backend option (repeatable)\n"
    "  --force             overwrite results already in the output folder\n"
    "  --no-plot           write the CSVs only, no figures\n"
    "  --no-progress       no progress bar (it is shown only when stderr is a terminal)\n"
    "  --help              this text\n";

void xp_common_init(xp_common *c, const char *name, int argc, char **argv)
{
    memset(c, 0, sizeof *c);
    c->methods = XP_PENALTY | XP_DVI;
    snprintf(c->out, sizeof c->out, "out/%s", name);
    c->progress = isatty(2);
    c->plot = 1;
    clab_options_init(&c->opt_penalty);
    clab_options_init(&c->opt_dvi);
    /* drivers get main's argv + 1 (argv[0] is the subcommand): keep the whole command line */
    c->argc = argc + 1;
    c->argv = argv - 1;
}

void xp_common_free(xp_common *c)
{
    clab_options_free(&c->opt_penalty);
    clab_options_free(&c->opt_dvi);
}

int xp_parse_double(const char *opt, const char *arg, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (end == arg || *end != '\0' || errno == ERANGE || !isfinite(v)) {
        fprintf(stderr, "contactlab: --%s '%s' is not a finite number\n", opt, arg);
        return -1;
    }
    if (v < lo || v > hi) {
        fprintf(stderr, "contactlab: --%s %.10g is outside the allowed range [%.10g, %.10g]\n", opt, v, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int xp_parse_list(const char *opt, const char *arg, double lo, double hi, double *out, int max, int *n)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", arg);
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == max) {
            fprintf(stderr, "contactlab: --%s takes at most %d values\n", opt, max);
            return -1;
        }
        if (xp_parse_double(opt, tok, lo, hi, &out[*n])) return -1;
        (*n)++;
    }
    if (*n == 0) {
        fprintf(stderr, "contactlab: --%s needs at least one value\n", opt);
        return -1;
    }
    return 0;
}

int xp_common_option(xp_common *c, int opt, const char *arg)
{
    clab_error err;
    switch (opt) {
    case 'm':
        if (strcmp(arg, "penalty") == 0) c->methods = XP_PENALTY;
        else if (strcmp(arg, "dvi") == 0) c->methods = XP_DVI;
        else if (strcmp(arg, "both") == 0) c->methods = XP_PENALTY | XP_DVI;
        else {
            fprintf(stderr, "contactlab: --method '%s' is not one of: penalty, dvi, both\n", arg);
            return -1;
        }
        return 1;
    case 'H': return xp_parse_double("h", arg, 1e-12, 10.0, &c->h) ? -1 : 1;
    case 'T': return xp_parse_double("t-end", arg, 1e-12, 1e9, &c->t_end) ? -1 : 1;
    case 'o':
        if (strlen(arg) >= sizeof c->out - 64) {
            fprintf(stderr, "contactlab: --out path of %zu characters is too long; allowed: at most %zu\n", strlen(arg),
                    sizeof c->out - 65);
            return -1;
        }
        snprintf(c->out, sizeof c->out, "%s", arg);
        return 1;
    case 'P':
    case 'D':
        if (clab_options_parse(opt == 'P' ? &c->opt_penalty : &c->opt_dvi, arg,
                               opt == 'P' ? "--opt-penalty" : "--opt-dvi", &err)) {
            fprintf(stderr, "contactlab: %s\n", err.msg);
            return -1;
        }
        return 1;
    case 'f': c->force = 1; return 1;
    case 'N': c->plot = 0; return 1;
    case 'Q': c->progress = 0; return 1;
    default: return 0;
    }
}

int xp_mkdir_p(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) && errno != EEXIST) return -1;
    struct stat st;
    return (stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) ? 0 : -1;
}

void xp_path(const xp_common *c, const char *file, char *buf, size_t len) { snprintf(buf, len, "%s/%s", c->out, file); }

clab_sim *xp_sim(const xp_common *c, clab_world *w, const char *method, double h, const clab_options *extra)
{
    clab_options o;
    clab_error err;
    clab_options_init(&o);
    if (extra) clab_options_merge(&o, extra);
    clab_options_merge(&o, strcmp(method, "penalty") == 0 ? &c->opt_penalty : &c->opt_dvi);
    clab_sim *s = clab_sim_create(w, method, h, &o, &err);
    if (!s) fprintf(stderr, "contactlab: %s\n", err.msg);
    clab_options_free(&o);
    return s;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void xp_progress_begin(xp_progress *p, const xp_common *c, const char *label)
{
    p->on = c->progress;
    p->start = p->last = wall_now();
    snprintf(p->label, sizeof p->label, "%s", label);
}

void xp_progress_update(xp_progress *p, double fraction)
{
    if (!p->on) return;
    double now = wall_now();
    if (now - p->last < 0.2 && fraction < 1.0) return;
    p->last = now;
    const int width = 30;
    int filled = (int)(fraction * width + 0.5);
    if (filled > width) filled = width;
    double el = now - p->start;
    double eta = fraction > 1e-9 ? el * (1.0 - fraction) / fraction : 0.0;
    char bar[64];
    for (int i = 0; i < width; i++) bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r%-36.36s [%s] %3.0f%%  ETA %5.1fs ", p->label, bar, 100.0 * fraction, eta);
    fflush(stderr);
}

void xp_progress_end(xp_progress *p)
{
    if (!p->on) return;
    xp_progress_update(p, 1.0);
    fprintf(stderr, "\n");
}

/* where the gnuplot scripts are: the installed data folder, else the source tree */
static int find_script(const char *script, char *buf, size_t len)
{
    const char *dirs[] = {getenv("CONTACTLAB_DATADIR"), CLAB_SRCDIR "/experiments", CLAB_PKGDATADIR};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (!dirs[i]) continue;
        snprintf(buf, len, "%s/%s", dirs[i], script);
        if (access(buf, R_OK) == 0) return 0;
    }
    return -1;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in) return -1;
    FILE *out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return -1;
    }
    char buf[8192];
    size_t n;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n) rc = -1;
    fclose(in);
    if (fclose(out)) rc = -1;
    return rc;
}

int xp_plot(const xp_common *c, const char *script)
{
    char src[2048], dst[2048];
    if (find_script(script, src, sizeof src)) {
        fprintf(stderr, "contactlab: gnuplot script %s not found (set CONTACTLAB_DATADIR); CSVs are in %s\n", script,
                c->out);
        return 1;
    }
    xp_path(c, script, dst, sizeof dst);
    if (copy_file(src, dst)) {
        fprintf(stderr, "contactlab: cannot write %s\n", dst);
        return 1;
    }
    const char *gp = getenv("GNUPLOT");
    if (!gp || !*gp) gp = CLAB_GNUPLOT;
    if (!c->plot) {
        printf("figures: not drawn (--no-plot); to draw them: cd %s && gnuplot %s\n", c->out, script);
        return 0;
    }
    if (!*gp || access(gp, X_OK) != 0) {
        printf("figures: gnuplot is not installed, so only the CSVs were written.\n"
               "  to draw the figures: apt-get install gnuplot-nox; cd %s && gnuplot %s\n",
               c->out, script);
        return 0;
    }
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        if (chdir(c->out) != 0) _exit(127);
        execl(gp, "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "contactlab: gnuplot failed on %s/%s (the CSVs are complete)\n", c->out, script);
        return 1;
    }
    return 0;
}

/* ---- reliability: integer options, stop signals, the runtime guard ---- */

int xp_parse_long(const char *opt, const char *arg, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (end == arg || *end != '\0' || errno == ERANGE) {
        fprintf(stderr, "contactlab: --%s '%s' is not an integer; allowed: %ld to %ld\n", opt, arg, lo, hi);
        return -1;
    }
    if (v < lo || v > hi) {
        fprintf(stderr, "contactlab: --%s %ld is outside the allowed range [%ld, %ld]\n", opt, v, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* the program's one piece of signal state (the library has none) */
static volatile sig_atomic_t xp_signal_caught;

static void on_stop_signal(int sig) { xp_signal_caught = sig; }

void xp_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_RESTART; /* the second one ends the program */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int xp_stop_signal(void) { return (int)xp_signal_caught; }

void xp_guard_init(xp_guard *g, const char *path, const char *tag)
{
    memset(g, 0, sizeof *g);
    snprintf(g->path, sizeof g->path, "%s", path);
    snprintf(g->out.tag, sizeof g->out.tag, "%s", tag);
    clab_checkpoint_image_init(&g->last);
}

void xp_guard_free(xp_guard *g) { clab_checkpoint_image_free(&g->last); }

int xp_guard_add(xp_guard *g, clab_csv *f)
{
    if (g->out.nfiles >= CLAB_CHECKPOINT_MAX_FILES) return -1;
    g->csv[g->out.nfiles++] = f;
    return 0;
}

int xp_guard_flush(xp_guard *g, clab_error *err)
{
    for (int k = 0; k < g->out.nfiles; k++) {
        if (!g->csv[k]) continue;
        if (clab_csv_flush(g->csv[k], err)) return -1;
        g->out.bytes[k] = clab_csv_bytes(g->csv[k]);
        g->out.rows[k] = clab_csv_rows(g->csv[k]);
    }
    return 0;
}

int xp_guard_snapshot(xp_guard *g, const clab_sim *s, clab_error *err)
{
    if (xp_guard_flush(g, err)) return -1;
    return clab_checkpoint_encode(s, &g->out, &g->last, err) ? -1 : 0;
}

int xp_guard_checkpoint(xp_guard *g, const clab_sim *s, clab_error *err)
{
    if (xp_guard_flush(g, err)) return -1;
    return clab_checkpoint_write(s, &g->out, g->path, err) ? -1 : 0;
}

int xp_guard_fail(xp_guard *g, const char *prefix)
{
    clab_error err;
    int bad = 0;
    for (int k = 0; k < g->out.nfiles; k++)
        if (g->csv[k] && clab_csv_flush(g->csv[k], &err)) {
            fprintf(stderr, "%s: %s\n", prefix, err.msg);
            bad = 1;
        }
    if (!bad) fprintf(stderr, "%s: every CSV row written so far is complete\n", prefix);
    if (!g->last.len) {
        fprintf(stderr, "%s: no good state was kept, so no checkpoint was written\n", prefix);
        return -1;
    }
    if (clab_checkpoint_save_image(&g->last, g->path, &err)) {
        fprintf(stderr, "%s: %s\n", prefix, err.msg);
        return -1;
    }
    fprintf(stderr, "%s: last good state (step %ld, t = %.9g s) saved in %s\n", prefix, g->last.step, g->last.t,
            g->path);
    return 0;
}

int xp_guard_restore(xp_guard *g, clab_sim *s, const char *file, int nfiles, clab_checkpoint_info *info,
                     const char *prefix)
{
    clab_error err;
    if (clab_checkpoint_read(s, file, info, &err)) {
        fprintf(stderr, "%s: cannot restart: %s\n", prefix, err.msg);
        return -1;
    }
    if (strcmp(info->out.tag, g->out.tag) != 0 || info->out.nfiles != nfiles) {
        fprintf(stderr, "%s: cannot restart: %s was written by '%s' with %d output series; this run is '%s' with %d\n",
                prefix, file, info->out.tag, info->out.nfiles, g->out.tag, nfiles);
        return -1;
    }
    g->out = info->out;
    return 0;
}

clab_csv *xp_guard_resume(xp_guard *g, int k, const char *path, size_t ncols, clab_error *err)
{
    if (k < 0 || k >= g->out.nfiles) {
        clab_error_set(err, CLAB_EINVAL, "%s: series %d is not in the checkpoint", path, k);
        return NULL;
    }
    g->csv[k] = clab_csv_resume(path, (long long)g->out.bytes[k], (long)g->out.rows[k], ncols, err);
    return g->csv[k];
}
