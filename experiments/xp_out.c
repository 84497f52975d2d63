/* xp_out.c: the output folder of an experiment (created, and its earlier results removed
 * under --force) and the gnuplot step that draws the figures there */
#include "config.h"

#include "xp.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int xp_out_dir(const xp_common *c)
{
    struct stat st;
    if (stat(c->out, &st) == 0 && !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "contactlab %s: --out %s is a file, not a folder: give a folder (it is created when "
                        "missing)\n", c->name, c->out);
        return -1;
    }
    errno = 0;
    if (xp_mkdir_p(c->out)) {
        fprintf(stderr, "contactlab %s: cannot create the output folder %s: %s\n", c->name, c->out,
                errno ? strerror(errno) : "a part of the path is a file");
        return -1;
    }
    return 0;
}

int xp_out_clean(const xp_common *c, int (*ours)(const char *file, const void *ctx), const void *ctx)
{
    DIR *d = opendir(c->out);
    if (!d) {
        fprintf(stderr, "contactlab %s: cannot read the output folder %s: %s\n", c->name, c->out, strerror(errno));
        return -1;
    }
    long removed = 0;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[2048];
        struct stat st;
        if (!ours(e->d_name, ctx)) continue;
        snprintf(path, sizeof path, "%s/%s", c->out, e->d_name);
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        if (unlink(path) != 0) {
            fprintf(stderr, "contactlab %s: --force: cannot remove %s: %s\n", c->name, path, strerror(errno));
            rc = -1;
            continue;
        }
        removed++;
    }
    closedir(d);
    if (removed)
        printf("contactlab %s: --force: removed %ld files of an earlier run from %s\n", c->name, removed, c->out);
    return rc;
}

/* an experiment's own files: <name>-*.{csv,png,pdf,txt,ckpt} and <name>.ckpt */
static int experiment_file(const char *file, const void *ctx)
{
    const char *name = ctx;
    size_t n = strlen(name), len = strlen(file);
    if (strncmp(file, name, n) != 0 || (file[n] != '-' && file[n] != '.')) return 0;
    static const char *const ext[] = {".csv", ".png", ".pdf", ".txt", ".ckpt"};
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t k = strlen(ext[i]);
        if (len > n + k && strcmp(file + len - k, ext[i]) == 0) return 1;
    }
    return 0;
}

int xp_out_prepare(const xp_common *c)
{
    if (xp_out_dir(c)) return -1;
    if (!c->force || c->restart[0]) return 0;
    return xp_out_clean(c, experiment_file, c->name);
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

int xp_plot_e(const xp_common *c, const char *script, const char *expr)
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
    char how[2600];
    if (expr) snprintf(how, sizeof how, "cd %s && gnuplot -e \"%s\" %s", c->out, expr, script);
    else snprintf(how, sizeof how, "cd %s && gnuplot %s", c->out, script);
    if (!c->plot) {
        printf("figures: not drawn (--no-plot); to draw them: %s\n", how);
        return 0;
    }
    if (!*gp || access(gp, X_OK) != 0) {
        printf("figures: gnuplot is not installed, so only the CSVs were written.\n"
               "  to draw the figures: apt-get install gnuplot-nox; %s\n", how);
        return 0;
    }
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        if (chdir(c->out) != 0) _exit(127);
        if (expr) execl(gp, "gnuplot", "-e", expr, script, (char *)NULL);
        else execl(gp, "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "contactlab: gnuplot failed on %s/%s (the CSVs are complete)\n", c->out, script);
        return 1;
    }
    return 0;
}

int xp_plot(const xp_common *c, const char *script) { return xp_plot_e(c, script, NULL); }

int xp_finish(const xp_common *c, int rc, clab_csv *sum, const char *spath, const char *series, const char *script,
              const char *figures)
{
    clab_error err;
    if (clab_csv_close(sum, &err) && rc == 0) {
        fprintf(stderr, "contactlab %s: %s\n", c->name, err.msg);
        rc = 1;
    }
    if (rc == 0) {
        printf("\nCSVs: %s/%s (summary: %s)\n", c->out, series, spath);
        if (xp_plot(c, script) == 0 && c->plot) printf("figures: %s/%s (and .pdf)\n", c->out, figures);
    }
    return rc;
}
