/* xp_case.c: the cases of an experiment: checkpoint and restart (xp.h, "checkpoint and
 * restart of an experiment"), the step loop a case runs (xp_case_run) and its summary row */
#include "config.h"

#include "xp.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- checkpoint and restart of an experiment ---- */

/* FNV-1a of the result-determining command line (the metadata's): a checkpoint is continued
 * only by the command that wrote it */
static uint32_t command_hash(const xp_common *c)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < c->argc; i++) {
        for (const unsigned char *p = (const unsigned char *)c->argv[i]; *p; p++) h = (h ^ *p) * 16777619u;
        h = (h ^ 0u) * 16777619u; /* word separator */
    }
    return h;
}

static void case_tag(const xp_common *c, int index, const char *label, char *buf, size_t n)
{
    snprintf(buf, n, "%.20s #%08x case %d (%.12s)", c->name, (unsigned)command_hash(c), index, label);
}

static void ckpt_path(const xp_common *c, char *buf, size_t n) { snprintf(buf, n, "%s/%s.ckpt", c->out, c->name); }

int xp_restart_begin(xp_common *c)
{
    xp_catch_signals();
    if (!c->restart[0]) return 0;
    clab_error err;
    const char *pre = c->name;
    if (clab_checkpoint_peek(c->restart, &c->resume, &err)) {
        fprintf(stderr, "contactlab %s: cannot restart: %s\n", pre, err.msg);
        return -1;
    }
    /* tag: "<experiment> #<command hash> case <i> (<label>)" */
    char name[32] = "";
    unsigned hash = 0;
    int index = -1;
    if (sscanf(c->resume.out.tag, "%31s #%8x case %d", name, &hash, &index) != 3 || strcmp(name, c->name) != 0) {
        fprintf(stderr, "contactlab %s: cannot restart: %s was not written by contactlab %s (its tag: '%s')\n", pre,
                c->restart, c->name, c->resume.out.tag);
        return -1;
    }
    if (hash != command_hash(c)) {
        fprintf(stderr, "contactlab %s: cannot restart: %s was written by contactlab %s with other options; give the "
                        "interrupted run's options (the '# command' line of its CSVs) and only --restart besides\n",
                pre, c->restart, c->name);
        return -1;
    }
    c->resume_case = index;
    return 0;
}

clab_csv *xp_summary_resume(xp_common *c, const char *path, size_t ncols, clab_error *err)
{
    if (c->resume.out.nfiles < 1) {
        clab_error_set(err, CLAB_EINVAL, "%s: the checkpoint %s records no summary", path, c->restart);
        return NULL;
    }
    return clab_csv_resume(path, (long long)c->resume.out.bytes[0], (long)c->resume.out.rows[0], ncols, err);
}

clab_csv *xp_summary_open(xp_common *c, const char *path, const clab_options *meta, const char *const *cols,
                          size_t ncols)
{
    clab_error err = {0};
    clab_csv *f = c->restart[0] ? xp_summary_resume(c, path, ncols, &err)
                                : clab_csv_open(path, c->force ? CLAB_CSV_OVERWRITE : 0, &err);
    if (f && !c->restart[0] &&
        (clab_csv_meta(f, meta, c->argc, c->argv, &err) || clab_csv_header(f, cols, ncols, &err))) {
        clab_csv_close(f, NULL);
        f = NULL;
    }
    if (!f) fprintf(stderr, "contactlab %s: %s%s\n", c->name, c->restart[0] ? "cannot restart: " : "", err.msg);
    return f;
}

clab_csv *xp_series_open(const xp_common *c, xp_guard *g, int resumed, const char *path, int flags,
                         const clab_options *meta, const char *const *cols, size_t ncols)
{
    clab_error err = {0};
    clab_csv *f;
    if (resumed) {
        f = xp_guard_resume(g, 1, path, ncols, &err);
    } else {
        f = clab_csv_open(path, flags, &err);
        if (f && (clab_csv_meta(f, meta, c->argc, c->argv, &err) || clab_csv_header(f, cols, ncols, &err))) {
            clab_csv_close(f, NULL);
            f = NULL;
        }
        if (f) xp_guard_add(g, f);
    }
    if (!f) fprintf(stderr, "contactlab %s: %s%s\n", c->name, resumed ? "cannot restart: " : "", err.msg);
    return f;
}

int xp_case_skip(xp_common *c, const char *label)
{
    int index = c->ncase++;
    snprintf(c->case_label, sizeof c->case_label, "%s", label);
    return c->resume_case >= 0 && index < c->resume_case;
}

int xp_case_begin(xp_common *c, xp_guard *g, clab_sim *s, clab_csv *summary, int nfiles, double *values,
                  size_t nvalues)
{
    char path[2048], tag[CLAB_CHECKPOINT_TAG_LEN];
    int index = c->ncase - 1;
    ckpt_path(c, path, sizeof path);
    case_tag(c, index, c->case_label, tag, sizeof tag);
    xp_guard_init(g, path, tag);
    g->values = values;
    g->nvalues = nvalues;
    if (c->resume_case != index) {
        xp_guard_add(g, summary);
        return 0;
    }
    char pre[64];
    snprintf(pre, sizeof pre, "contactlab %s", c->name);
    clab_checkpoint_info info;
    if (xp_guard_restore(g, s, c->restart, nfiles, &info, pre)) return -1;
    g->csv[0] = summary;
    c->resume_case = -1; /* the cases after it run from the start */
    printf("%s %s: restarting from %s at step %ld, t = %.9g s\n", pre, c->case_label, c->restart, info.step, info.t);
    fflush(stdout);
    return 1;
}

int xp_case_due(const xp_common *c, long k)
{
    return xp_stop_signal() || (c->stop_after > 0 && k == c->stop_after) ||
           (c->checkpoint_every > 0 && k % c->checkpoint_every == 0);
}

int xp_case_poll(xp_common *c, xp_guard *g, const clab_sim *s, long k)
{
    int stop = xp_stop_signal() || (c->stop_after > 0 && k == c->stop_after);
    if (!xp_case_due(c, k)) return 0;
    clab_error err;
    if (xp_guard_checkpoint(g, s, &err)) {
        fprintf(stderr, "contactlab %s: %s\n", c->name, err.msg);
        return -1;
    }
    return stop;
}

void xp_case_fail(xp_common *c, xp_guard *g, const clab_error *err)
{
    char pre[64];
    snprintf(pre, sizeof pre, "contactlab %s", c->name);
    fprintf(stderr, "%s: %s: %s\n", pre, c->case_label, err->msg);
    if (xp_guard_fail(g, pre) == 0)
        fprintf(stderr, "%s: (to inspect it: clab_checkpoint_read; a --restart with the same options would fail the "
                        "same way)\n", pre);
}

void xp_shell_word(FILE *f, const char *a)
{
    int plain = a[0] != '\0';
    for (const char *p = a; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-@%", *p) != NULL;
    if (plain) {
        fputs(a, f);
        return;
    }
    fputc('\'', f);
    for (const char *p = a; *p; p++)
        if (*p == '\'') fputs("'\\''", f);
        else fputc(*p, f);
    fputc('\'', f);
}

int xp_case_stopped(const xp_common *c, const clab_sim *s)
{
    int sig = xp_stop_signal();
    char path[2048];
    ckpt_path(c, path, sizeof path);
    if (sig)
        printf("contactlab %s: stopped by %s at step %ld of %s (t = %.9g s)", c->name,
               sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal", s->world->step, c->case_label,
               s->world->t);
    else
        printf("contactlab %s: stopped after step %ld of %s (t = %.9g s), as --stop-after asked", c->name,
               s->world->step, c->case_label, s->world->t);
    printf("; CSVs flushed (complete rows), checkpoint written: %s\nto resume: ", path);
    /* the same command without --restart and --stop-after, then --restart */
    for (int i = 0; i < c->argc_all; i++) {
        if (c->drop && c->drop[i] == 2) continue;
        if (i) putchar(' ');
        xp_shell_word(stdout, i == 0 ? "contactlab" : i == 1 ? c->name : c->argv_all[i]);
    }
    fputs(" --restart ", stdout);
    xp_shell_word(stdout, path);
    putchar('\n');
    fflush(stdout);
    return sig ? 128 + sig : XP_STOPPED;
}

/* ---- the step loop of a case, its forces and its summary row ---- */

clab_csv *xp_summary_begin(xp_common *c, const char *path, clab_options *meta, const char *const *cols, size_t ncols)
{
    clab_csv *f = xp_restart_begin(c) ? NULL : xp_summary_open(c, path, meta, cols, ncols);
    clab_options_free(meta);
    return f;
}

int xp_case_end(const xp_common *c, xp_guard *g, clab_csv *series, int rc)
{
    clab_error err;
    xp_guard_free(g);
    if (series && clab_csv_close(series, &err) && rc == 0) {
        fprintf(stderr, "contactlab %s: %s\n", c->name, err.msg);
        rc = 1;
    }
    return rc;
}

int xp_forces(const clab_sim *s, clab_vec3 **f, size_t *cap)
{
    if (s->contacts.n > *cap || !*f) {
        size_t n = 2 * s->contacts.n + 16;
        clab_vec3 *nf = realloc(*f, n * sizeof *nf);
        if (!nf) return -1;
        *f = nf;
        *cap = n;
    }
    clab_sim_forces(s, *f);
    return 0;
}

long xp_steps(const xp_common *c, double t_end, double h)
{
    long n;
    clab_error err;
    if (clab_sim_step_count(t_end, h, &n, &err)) {
        fprintf(stderr, "contactlab %s: %s\n", c->name, err.msg);
        return -1;
    }
    return n;
}

int xp_case_run(const xp_case_loop *L, int *status)
{
    clab_sim *s = L->s;
    clab_error err;
    const long k_start = s->world->step; /* 0, or the step a restart continues from */
    if (!L->resumed && clab_sim_check(s, &err)) { /* the guard on the initial state, before its row */
        if (L->pb->on) fprintf(stderr, "\n");
        xp_case_fail(L->c, L->g, &err);
        return 1;
    }
    for (long k = k_start; k <= L->nsteps; k++) {
        const int done_before = L->resumed && k == k_start; /* its measures and row are done */
        int due = L->at(L->ctx, k, done_before, L->row);
        if (due < 0) return 1;
        if (due && !done_before) {
            L->pack(L->ctx);
            if (clab_csv_row(L->csv, L->row, L->ncols, &err) || xp_guard_snapshot(L->g, s, &err)) {
                fprintf(stderr, "contactlab %s: %s\n", L->c->name, err.msg);
                return 1;
            }
            xp_progress_update(L->pb, L->pb0 + L->pbspan * (double)k / (double)L->nsteps);
        }
        if (k == L->nsteps) break;
        if (k > k_start && xp_case_due(L->c, k)) {
            L->pack(L->ctx);
            int r = xp_case_poll(L->c, L->g, s, k);
            if (r < 0) return 1;
            if (r > 0) {
                if (L->pb->on) fprintf(stderr, "\n");
                *status = xp_case_stopped(L->c, s);
                return 2;
            }
        }
        if (clab_sim_step(s, &err)) {
            if (L->pb->on) fprintf(stderr, "\n");
            xp_case_fail(L->c, L->g, &err);
            return 1;
        }
    }
    return 0;
}

int xp_summary_row(const xp_common *c, clab_csv *sum, const char *const *head, size_t nhead, const double *vals,
                   size_t nvals, const char *const *tail, size_t ntail)
{
    enum { MAXCELLS = 64 };
    const char *cells[MAXCELLS];
    char buf[MAXCELLS][32];
    clab_error err;
    if (nhead + nvals + ntail > MAXCELLS) {
        fprintf(stderr, "contactlab %s: a summary row of more than %d cells\n", c->name, MAXCELLS);
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i < nhead; i++) cells[n++] = head[i];
    for (size_t i = 0; i < nvals; i++) {
        snprintf(buf[i], sizeof buf[i], "%.17g", vals[i]);
        cells[n++] = buf[i];
    }
    for (size_t i = 0; i < ntail; i++) cells[n++] = tail[i];
    if (clab_csv_text_row(sum, cells, n, &err)) {
        fprintf(stderr, "contactlab %s: %s\n", c->name, err.msg);
        return -1;
    }
    return 0;
}
