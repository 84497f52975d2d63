/* xp.c: options, output folders, progress bar and gnuplot step shared by the drivers */
#include "config.h"

#include "xp.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- command-line problems: every one reported (the first XP_MAX_ERRORS printed) ---- */

static int xp_nerrors, xp_nunknown; /* program state of the command line (the library has none) */

void xp_option_error(const char *fmt, ...)
{
    if (++xp_nerrors > XP_MAX_ERRORS) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

void xp_option_error_more(const char *fmt, ...)
{
    if (xp_nerrors > XP_MAX_ERRORS) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

void xp_option_unknown(void)
{
    xp_nerrors++;
    xp_nunknown++;
}

int xp_option_errors(const char *prefix)
{
    if (xp_nerrors > XP_MAX_ERRORS) fprintf(stderr, "%s: and %d more problems with the command line\n", prefix,
                                            xp_nerrors - XP_MAX_ERRORS);
    if (xp_nunknown) fprintf(stderr, "%s: see --help\n", prefix);
    return xp_nerrors;
}

/* The named variants; xp_common_init appends every other registered backend under its name. */
static const xp_method xp_variants[] = {
    {"penalty", "Hertz-Mindlin penalty (DEM)", "penalty", NULL, XP_KIND_PENALTY, 0},
    {"dvi", "Tasora-Anitescu CCP (relaxed Coulomb)", "dvi", "friction=relaxed", XP_KIND_CCP, 0},
    {"dvi-exact", "De Saxce fixed point (exact Coulomb)", "dvi", "friction=exact", XP_KIND_CCP, 0},
    {"dvi-regularized", "Lacoursiere-Servin regularized CCP", "dvi", "friction=relaxed",
     XP_KIND_CCP, 1},
};

void xp_common_help(const xp_common *c)
{
    printf("Methods (--method, a comma-separated list; default %s):\n", c->method_default);
    for (int k = 0; k < c->ntable; k++) {
        const xp_method *m = &c->table[k];
        printf("  %-16s %s\n", m->name, m->title);
        printf("  %-16s   backend %s%s%s%s\n", "", m->backend, m->options ? ", " : "", m->options ? m->options : "",
               m->regularized ? (c->gives_stiffness ? ", stiffness= and cor= from the experiment"
                                                    : ", needs --opt NAME:stiffness=K [N/m]")
                              : "");
    }
    printf("  %-16s penalty,dvi;  all: every method above%s\n\n", "both",
           c->gives_stiffness ? "" : " but those that need a stiffness");
    printf("Common options:\n"
           "  --method M          methods (above)\n"
           "  --h S               step size [s] for every method (default: per method, see above)\n"
           "  --t-end S           simulated time [s]\n"
           "  --out DIR           output folder (default out/<experiment>)\n"
           "  --opt [M:]K=V       backend option K=V of method or backend M, or of every method\n"
           "                      without M (repeatable; `contactlab list` shows each backend's)\n"
           "  --opt-penalty K=V   the same as --opt penalty:K=V\n"
           "  --opt-dvi K=V       the same as --opt dvi:K=V (every method on the DVI backend)\n"
           "  --force             overwrite results already in the output folder\n"
           "  --no-plot           write the CSVs only, no figures\n"
           "  --no-progress       no progress bar (it is shown only when stderr is a terminal)\n"
           "  --checkpoint-every N  a checkpoint every N steps of a simulation, in <out>/<experiment>.ckpt\n"
           "  --restart FILE      continue from a checkpoint with the same options: finished simulations\n"
           "                      are kept, the interrupted one continues byte-identically, the rest run\n"
           "  --stop-after N      stop after step N of a simulation as if interrupted (checkpoint, exit 3)\n"
           "                      (these three: pile, chain, drop, incline; SIGINT/SIGTERM stop those\n"
           "                      with a checkpoint and print the command to resume)\n"
           "  --help              this text\n");
}

/* the method table: the variants, then the registered backends no variant is named after
 * (a backend asking for no contact envelope is taken for a force law, one with an envelope
 * for rigid contacts) */
static void table_init(xp_common *c)
{
    c->ntable = 0;
    for (size_t k = 0; k < sizeof xp_variants / sizeof xp_variants[0]; k++) c->table[c->ntable++] = xp_variants[k];
    for (const clab_backend_type *const *b = clab_backend_all(); *b && c->ntable < XP_MAX_METHODS; b++) {
        int named = 0;
        for (int k = 0; k < c->ntable; k++) named |= strcmp(c->table[k].name, (*b)->name) == 0;
        if (named) continue;
        xp_method m = {(*b)->name, (*b)->summary, (*b)->name, NULL,
                       (*b)->default_envelope > 0.0 ? XP_KIND_CCP : XP_KIND_FORCE, 0};
        c->table[c->ntable++] = m;
    }
}

const xp_method *xp_method_find(const xp_common *c, const char *name)
{
    for (int k = 0; k < c->ntable; k++)
        if (strcmp(c->table[k].name, name) == 0) return &c->table[k];
    return NULL;
}

/* the chosen methods in table order */
static void methods_list(xp_common *c)
{
    c->nmethod = 0;
    for (int k = 0; k < c->ntable; k++)
        if (c->chosen & 1u << k) c->method[c->nmethod++] = &c->table[k];
}

int xp_methods_choose(xp_common *c, const char *list)
{
    char buf[256];
    unsigned set = 0;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const xp_method *m = xp_method_find(c, tok);
        if (m) {
            set |= 1u << (m - c->table);
        } else if (strcmp(tok, "both") == 0) {
            set |= 1u << (xp_method_find(c, "penalty") - c->table) | 1u << (xp_method_find(c, "dvi") - c->table);
        } else if (strcmp(tok, "all") == 0) {
            for (int k = 0; k < c->ntable; k++)
                if (!c->table[k].regularized || c->gives_stiffness) set |= 1u << k;
        } else {
            xp_option_error("contactlab %s: --method '%s' is not one of:", c->name, tok);
            for (int k = 0; k < c->ntable; k++) xp_option_error_more(" %s,", c->table[k].name);
            xp_option_error_more(" both, all (or a comma-separated list)\n");
            return -1;
        }
    }
    if (!set) {
        xp_option_error("contactlab %s: --method '%s' names no method\n", c->name, list);
        return -1;
    }
    c->chosen = set;
    methods_list(c);
    return 0;
}

void xp_methods_print(const xp_common *c)
{
    for (int k = 0; k < c->nmethod; k++) {
        const xp_method *m = c->method[k];
        printf("%-16s %s (backend %s%s%s)\n", m->name, m->title, m->backend, m->options ? ", " : "",
               m->options ? m->options : "");
    }
    printf("\n");
}

void xp_method_meta(const xp_method *m, clab_options *meta)
{
    clab_options_set(meta, "method", m->name, NULL);
    clab_options_set(meta, "method_title", m->title, NULL);
}

/* the user options of scope ("" every method, a backend, a method), created when missing */
static clab_options *scope_opts(xp_common *c, const char *scope)
{
    for (int i = 0; i < c->nopt; i++)
        if (strcmp(c->opt[i].scope, scope) == 0) return &c->opt[i].opt;
    if (c->nopt == XP_MAX_SCOPES) return NULL;
    xp_scope_opts *o = &c->opt[c->nopt++];
    snprintf(o->scope, sizeof o->scope, "%s", scope);
    clab_options_init(&o->opt);
    return &o->opt;
}

static const clab_options *scope_find(const xp_common *c, const char *scope)
{
    for (int i = 0; i < c->nopt; i++)
        if (strcmp(c->opt[i].scope, scope) == 0) return &c->opt[i].opt;
    return NULL;
}

const char *xp_user_option(const xp_common *c, const xp_method *m, const char *key)
{
    const char *scopes[3] = {m ? m->name : NULL, m ? m->backend : NULL, ""}, *v = NULL;
    for (int i = 0; i < 3 && !v; i++) {
        const clab_options *u = scopes[i] ? scope_find(c, scopes[i]) : NULL;
        if (u) v = clab_options_get((clab_options *)u, key);
    }
    return v;
}

/* --opt [SCOPE:]K=V (flag: the option's name for messages); SCOPE a method or a backend */
static int opt_option(xp_common *c, const char *arg, const char *scope, const char *flag)
{
    char sc[32] = "";
    const char *kv = arg, *colon = strchr(arg, ':'), *eq = strchr(arg, '=');
    if (scope) {
        snprintf(sc, sizeof sc, "%s", scope);
    } else if (colon && (!eq || colon < eq)) {
        if ((size_t)(colon - arg) >= sizeof sc) {
            xp_option_error("contactlab %s: %s '%s': the method name is too long\n", c->name, flag, arg);
            return -1;
        }
        memcpy(sc, arg, (size_t)(colon - arg));
        sc[colon - arg] = '\0';
        kv = colon + 1;
        int known = xp_method_find(c, sc) != NULL || clab_backend_lookup(sc) != NULL;
        if (!known) {
            xp_option_error("contactlab %s: %s '%s': '%s' is neither a method nor a backend (see --help)\n", c->name,
                            flag, arg, sc);
            return -1;
        }
    }
    clab_options *o = scope_opts(c, sc);
    clab_error err;
    if (!o) {
        xp_option_error("contactlab %s: %s: options of more than %d methods\n", c->name, flag, XP_MAX_SCOPES);
        return -1;
    }
    if (clab_options_parse(o, kv, flag, &err)) {
        xp_option_error("contactlab: %s\n", err.msg);
        return -1;
    }
    return 1;
}

void xp_common_init(xp_common *c, const char *name, int argc, char **argv)
{
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    table_init(c);
    xp_methods_choose(c, "both");
    snprintf(c->method_default, sizeof c->method_default, "both");
    snprintf(c->out, sizeof c->out, "out/%s", name);
    c->progress = isatty(2);
    c->plot = 1;
    c->resume_case = -1;
    /* drivers get main's argv + 1 (argv[0] is the subcommand): keep the whole command line */
    c->argc = c->argc_all = argc + 1;
    c->argv = c->argv_all = argv - 1;
    c->drop = calloc((size_t)c->argc_all + 1, 1);
    c->argv_meta = calloc((size_t)c->argc_all + 1, sizeof *c->argv_meta);
    if (c->drop && c->argv_meta) {
        memcpy(c->argv_meta, c->argv_all, (size_t)c->argc_all * sizeof *c->argv_meta);
        c->argv_meta[0] = (char *)"contactlab"; /* not the path it was started by */
        if (c->argc_all > 1) c->argv_meta[1] = c->name; /* main passes "contactlab NAME" for getopt */
        c->argv = c->argv_meta;
    }
}

void xp_common_free(xp_common *c)
{
    for (int i = 0; i < c->nopt; i++) clab_options_free(&c->opt[i].opt);
    c->nopt = 0;
    clab_checkpoint_info_free(&c->resume);
    free(c->drop);
    free(c->argv_meta);
    c->drop = NULL;
    c->argv_meta = NULL;
    c->argv = c->argv_all;
    c->argc = c->argc_all;
}

/* The option getopt just returned does not determine the results (kind 1), nor belongs in
 * the resume command (kind 2): mark its words (the option, and its argument when separate)
 * and rebuild the metadata's command line without them. */
static void drop_option(xp_common *c, const char *arg, unsigned char kind)
{
    if (!c->drop || !c->argv_meta) return;
    int last = optind; /* getopt's optind counts the driver's argv, which starts at argv_all + 1 */
    if (last < 1 || last >= c->argc_all) return;
    int first = (arg && last >= 2 && arg == c->argv_all[last]) ? last - 1 : last;
    for (int i = first; i <= last; i++) c->drop[i] = kind;
    c->argc = 0;
    for (int i = 0; i < c->argc_all; i++)
        if (!c->drop[i]) c->argv_meta[c->argc++] = i == 0 ? (char *)"contactlab" : i == 1 ? c->name : c->argv_all[i];
    c->argv_meta[c->argc] = NULL;
}

int xp_restart_supported(const char *name)
{
    static const char *const names[] = {"pile", "chain", "drop", "incline", "hopper", "cone", "wave"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0) return 1;
    return 0;
}

/* --checkpoint-every, --restart and --stop-after of an experiment */
static int restart_option(xp_common *c, int opt, const char *arg)
{
    const char *flag = opt == 'C' ? "--checkpoint-every" : opt == 'R' ? "--restart" : "--stop-after";
    if (!xp_restart_supported(c->name)) {
        xp_option_error("contactlab %s: %s: this experiment has no checkpoints (its simulations run for seconds; "
                        "run it again instead); they are in: contactlab run, pile, chain, drop, incline, hopper\n",
                        c->name, flag);
        return -1;
    }
    long v;
    switch (opt) {
    case 'C':
        if (xp_parse_long("checkpoint-every", arg, 1, 1000000000000L, &v)) return -1;
        c->checkpoint_every = v;
        drop_option(c, arg, 1);
        return 1;
    case 'S':
        if (xp_parse_long("stop-after", arg, 1, 1000000000000L, &v)) return -1;
        c->stop_after = v;
        drop_option(c, arg, 2);
        return 1;
    default:
        if (strlen(arg) >= sizeof c->restart) {
            xp_option_error("contactlab: --restart path of %zu characters is too long; allowed: at most %zu\n",
                            strlen(arg), sizeof c->restart - 1);
            return -1;
        }
        snprintf(c->restart, sizeof c->restart, "%s", arg);
        drop_option(c, arg, 2);
        return 1;
    }
}

int xp_parse_double(const char *opt, const char *arg, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (end == arg || *end != '\0' || errno == ERANGE || !isfinite(v)) {
        xp_option_error("contactlab: --%s '%s' is not a finite number; allowed: [%.10g, %.10g]\n", opt, arg, lo, hi);
        return -1;
    }
    if (v < lo || v > hi) {
        xp_option_error("contactlab: --%s %.10g is outside the allowed range [%.10g, %.10g]\n", opt, v, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int xp_list_check(const char *opt, const char *arg)
{
    /* an empty element: at the start, at the end, or two commas in a row */
    size_t n = strlen(arg);
    for (size_t i = 0; i <= n; i++) {
        int empty = (i == 0 && (n == 0 || arg[0] == ',')) || (i == n && n > 0 && arg[n - 1] == ',') ||
                    (i > 0 && i < n && arg[i] == ',' && arg[i - 1] == ',');
        if (empty) {
            xp_option_error("contactlab: --%s '%s' has an empty element (a list is values separated by single "
                            "commas, e.g. 0.05,0.1)\n", opt, arg);
            return -1;
        }
    }
    /* a word given twice: each names one case, whose files the second would collide with */
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", arg);
    const char *words[256];
    int nw = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && nw < 256; tok = strtok_r(NULL, ",", &save)) {
        for (int i = 0; i < nw; i++)
            if (strcmp(words[i], tok) == 0) {
                xp_option_error("contactlab: --%s '%s' gives '%s' twice; give each value once\n", opt, arg, tok);
                return -1;
            }
        words[nw++] = tok;
    }
    return 0;
}

int xp_parse_list(const char *opt, const char *arg, double lo, double hi, double *out, int max, int *n)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", arg);
    *n = 0;
    if (xp_list_check(opt, arg)) return -1;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == max) {
            xp_option_error("contactlab: --%s takes at most %d values\n", opt, max);
            return -1;
        }
        if (xp_parse_double(opt, tok, lo, hi, &out[*n])) return -1;
        for (int i = 0; i < *n; i++)
            if (out[i] == out[*n]) { /* the same number written twice (0.1 and 1e-1) */
                xp_option_error("contactlab: --%s '%s' gives the value %g twice; give each value once\n", opt, arg,
                                out[i]);
                return -1;
            }
        (*n)++;
    }
    if (*n == 0) {
        xp_option_error("contactlab: --%s needs at least one value\n", opt);
        return -1;
    }
    return 0;
}

int xp_common_option(xp_common *c, int opt, const char *arg)
{
    switch (opt) {
    case 'm': return xp_list_check("method", arg) || xp_methods_choose(c, arg) ? -1 : 1;
    case 'H': return xp_parse_double("h", arg, 1e-12, 10.0, &c->h) ? -1 : 1;
    case 'T': return xp_parse_double("t-end", arg, 1e-12, 1e9, &c->t_end) ? -1 : 1;
    case 'o':
        if (strlen(arg) >= sizeof c->out - 64) {
            xp_option_error("contactlab: --out path of %zu characters is too long; allowed: at most %zu\n", strlen(arg),
                    sizeof c->out - 65);
            return -1;
        }
        snprintf(c->out, sizeof c->out, "%s", arg);
        drop_option(c, arg, 1);
        return 1;
    case 'O': return opt_option(c, arg, NULL, "--opt");
    case 'P': return opt_option(c, arg, "penalty", "--opt-penalty");
    case 'D': return opt_option(c, arg, "dvi", "--opt-dvi");
    case 'f': c->force = 1; drop_option(c, NULL, 1); return 1;
    case 'N': c->plot = 0; drop_option(c, NULL, 1); return 1;
    case 'Q': c->progress = 0; drop_option(c, NULL, 1); return 1;
    case 'C':
    case 'R':
    case 'S': return restart_option(c, opt, arg);
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

clab_sim *xp_sim(const xp_common *c, clab_world *w, const xp_method *m, double h, const clab_options *extra)
{
    clab_options o;
    clab_error err;
    clab_options_init(&o);
    if (m->options) clab_options_parse(&o, m->options, "method", &err);
    if (extra) clab_options_merge(&o, extra);
    /* the user's: of every method, of the backend, of the method */
    const char *scopes[3] = {"", m->backend, strcmp(m->name, m->backend) != 0 ? m->name : NULL};
    for (int i = 0; i < 3; i++) {
        const clab_options *u = scopes[i] ? scope_find(c, scopes[i]) : NULL;
        if (u) clab_options_merge(&o, u);
    }
    if (m->regularized && !clab_options_get(&o, "stiffness") && !clab_options_get(&o, "compliance")) {
        fprintf(stderr, "contactlab %s: method %s needs the contact stiffness: --opt %s:stiffness=K [N/m]\n", c->name,
                m->name, m->name);
        clab_options_free(&o);
        return NULL;
    }
    clab_sim *s = clab_sim_create(w, m->backend, h, &o, &err);
    if (!s) fprintf(stderr, "contactlab: %s\n", err.msg);
    if (s && xp_sort_refused(s, "contactlab")) {
        clab_sim_destroy(s);
        s = NULL;
    }
    clab_options_free(&o);
    return s;
}

int xp_sort_refused(const clab_sim *s, const char *who)
{
    if (s->sort_every <= 0) return 0;
    fprintf(stderr,
            "%s: option sort = %ld: not available here: it renumbers the bodies, which this experiment's outputs "
            "follow by index; use it with contactlab run, through the library (clab_sim_sort) or contactlab bench\n",
            who, s->sort_every);
    return 1;
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

/* ---- reliability: integer options, stop signals, the runtime guard ---- */

int xp_parse_long(const char *opt, const char *arg, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (end == arg || *end != '\0' || errno == ERANGE) {
        xp_option_error("contactlab: --%s '%s' is not an integer; allowed: %ld to %ld\n", opt, arg, lo, hi);
        return -1;
    }
    if (v < lo || v > hi) {
        xp_option_error("contactlab: --%s %ld is outside the allowed range [%ld, %ld]\n", opt, v, lo, hi);
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
    g->out.values = g->values;
    g->out.nvalues = g->nvalues;
    return clab_checkpoint_encode(s, &g->out, &g->last, err) ? -1 : 0;
}

int xp_guard_checkpoint(xp_guard *g, const clab_sim *s, clab_error *err)
{
    if (xp_guard_flush(g, err)) return -1;
    g->out.values = g->values;
    g->out.nvalues = g->nvalues;
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
        clab_checkpoint_info_free(info);
        return -1;
    }
    if (info->out.nvalues != g->nvalues) {
        fprintf(stderr, "%s: cannot restart: %s holds %zu running values; this run keeps %zu\n", prefix, file,
                info->out.nvalues, g->nvalues);
        clab_checkpoint_info_free(info);
        return -1;
    }
    if (g->nvalues) memcpy(g->values, info->out.values, g->nvalues * sizeof *g->values);
    clab_checkpoint_info_free(info);
    g->out = info->out;
    g->out.values = g->values;
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
