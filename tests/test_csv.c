/* test_csv: the CSV series writer and reader (lib/csv.c).
 * - metadata lines: the version from config.h, the shell-quoted command line, every
 *   parameter given; the header row;
 * - round trip: doubles written with %.17g read back bit-identical (memcmp), for special
 *   values (-0, subnormals, DBL_MIN, DBL_MAX, 0.1, 1/3, infinities) and 20,000 random bit patterns;
 * - rows reach the file as they are added (flush_every = 1) or in batches (flush_every = 3);
 * - an existing file is never overwritten unless asked; a full disk (/dev/full) is CLAB_EIO
 *   naming the path; a file ending in a partial line is read without it;
 * - a writer killed with SIGKILL in the middle of writing leaves only complete rows. */
#include "config.h"
#include "clab_csv.h"
#include "tap.h"

#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char tmpname[128];

/* a fresh file name in the current directory (the build tree under make check) */
static const char *fresh(const char *tag)
{
    snprintf(tmpname, sizeof tmpname, "test_csv_%s_%ld.csv", tag, (long)getpid());
    remove(tmpname);
    return tmpname;
}

/* splitmix64: a fixed sequence of 64-bit patterns */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void test_meta_header_roundtrip(void)
{
    const char *path = fresh("rt");
    char p1[160];
    snprintf(p1, sizeof p1, "%s", path);
    clab_error err;
    clab_csv *f = clab_csv_open(p1, 0, &err);
    if (!tap_ok(f != NULL, "open a new file")) {
        tap_diag("%s", err.msg);
        return;
    }
    clab_options params;
    clab_options_init(&params);
    clab_options_set(&params, "h_s", "0.001", NULL);
    clab_options_set(&params, "method", "dvi", NULL);
    char *argv[] = {"./bowling", "--h", "1e-3", "--title", "it's a test", NULL};
    int st = clab_csv_meta(f, &params, 5, argv, &err);
    st |= clab_csv_meta_kv(f, "note", "two\nlines", &err);
    const char *cols[3] = {"t_s", "z_m", "fn_N"};
    st |= clab_csv_header(f, cols, 3, &err);
    tap_ok(st == CLAB_OK, "metadata and header written");

    /* values: special cases, then random bit patterns (NaN patterns skipped: %.17g does not
     * keep a NaN's payload) */
    enum { NROWS = 6700 };
    static double want[NROWS * 3];
    double special[] = {0.0, -0.0, 0.1, 1.0 / 3.0, DBL_MIN, DBL_MAX, -DBL_MAX, 4.9406564584124654e-324,
                        2.2250738585072009e-308, 1e-300, 123456789.123456789, INFINITY, -INFINITY, 9.81, -1.5};
    size_t nspecial = sizeof special / sizeof special[0];
    uint64_t seed = 12345;
    for (size_t i = 0; i < (size_t)NROWS * 3; i++) {
        if (i < nspecial) {
            want[i] = special[i];
            continue;
        }
        double v;
        do {
            uint64_t u = next_u64(&seed);
            memcpy(&v, &u, sizeof v);
        } while (isnan(v));
        want[i] = v;
    }
    for (size_t r = 0; r < NROWS && st == CLAB_OK; r++) st = clab_csv_row(f, want + 3 * r, 3, &err);
    tap_ok(st == CLAB_OK && clab_csv_rows(f) == NROWS, "%d rows written", NROWS);
    tap_ok(clab_csv_row(f, want, 2, &err) == CLAB_EINVAL && strstr(err.msg, "2 values, the header 3 columns"),
           "a row of the wrong width is refused");
    tap_ok(clab_csv_meta_kv(f, "late", "x", &err) == CLAB_EINVAL, "metadata after the header is refused");
    tap_ok(clab_csv_close(f, &err) == CLAB_OK, "close");

    clab_csv_table t;
    st = clab_csv_read(p1, &t, &err);
    if (!tap_ok(st == CLAB_OK, "read back")) {
        tap_diag("%s", err.msg);
        clab_options_free(&params);
        return;
    }
    const char *ver = clab_csv_table_meta(&t, "contactlab_version");
    tap_ok(ver && strcmp(ver, PACKAGE_VERSION) == 0, "# contactlab_version = %s (config.h)", ver ? ver : "(none)");
    const char *cmd = clab_csv_table_meta(&t, "command");
    tap_ok(cmd && strcmp(cmd, "./bowling --h 1e-3 --title 'it'\\''s a test'") == 0,
           "# command = the command line, shell-quoted: %s", cmd ? cmd : "(none)");
    const char *h = clab_csv_table_meta(&t, "h_s"), *m = clab_csv_table_meta(&t, "method");
    tap_ok(h && m && strcmp(h, "0.001") == 0 && strcmp(m, "dvi") == 0, "every parameter as # key = value");
    const char *note = clab_csv_table_meta(&t, "note");
    tap_ok(note && strcmp(note, "two lines") == 0, "a newline in a value becomes a space (one line per key)");
    tap_ok(t.ncols == 3 && strcmp(t.names[0], "t_s") == 0 && strcmp(t.names[1], "z_m") == 0 &&
               strcmp(t.names[2], "fn_N") == 0 && clab_csv_table_column(&t, "fn_N") == 2,
           "header t_s,z_m,fn_N");
    tap_ok(t.nrows == NROWS && !t.partial_tail, "%zu rows read, no partial tail", t.nrows);
    tap_ok(t.nrows == NROWS && memcmp(t.v, want, sizeof want) == 0,
           "every value bit-identical after the round trip (%d values incl. -0, subnormals, +-inf)", NROWS * 3);
    clab_csv_table_free(&t);
    clab_options_free(&params);

    /* the header line as text */
    FILE *fp = fopen(p1, "r");
    char line[256];
    int found = 0;
    while (fp && fgets(line, sizeof line, fp))
        if (line[0] != '#') {
            found = strcmp(line, "t_s,z_m,fn_N\n") == 0;
            break;
        }
    if (fp) fclose(fp);
    tap_ok(found, "the first line after the metadata is exactly t_s,z_m,fn_N");

    /* refusing to overwrite: the finished file stays as it was */
    struct stat before, after;
    stat(p1, &before);
    f = clab_csv_open(p1, 0, &err);
    tap_ok(f == NULL && err.status == CLAB_EIO && strstr(err.msg, p1) && strstr(err.msg, "exists"),
           "an existing result file is refused (CLAB_EIO, names the path)");
    stat(p1, &after);
    tap_ok(after.st_size == before.st_size && after.st_size > 0, "and left untouched (%lld bytes)",
           (long long)after.st_size);
    f = clab_csv_open(p1, CLAB_CSV_OVERWRITE, &err);
    stat(p1, &after);
    tap_ok(f != NULL && after.st_size == 0, "CLAB_CSV_OVERWRITE replaces it when asked");
    clab_csv_close(f, &err);
    remove(p1);
}

/* rows on disk while the writer is still open */
static long rows_on_disk(const char *path)
{
    clab_csv_table t;
    clab_error err;
    if (clab_csv_read(path, &t, &err)) return -1;
    long n = (long)t.nrows;
    clab_csv_table_free(&t);
    return n;
}

static void test_flush_cadence(void)
{
    const char *path = fresh("flush");
    clab_error err;
    clab_csv *f = clab_csv_open(path, 0, &err);
    const char *cols[2] = {"t_s", "x_m"};
    clab_csv_header(f, cols, 2, &err);
    double v[2] = {0.5, 1.5};
    clab_csv_row(f, v, 2, &err);
    tap_ok(rows_on_disk(path) == 1, "flush_every 1: a row is in the file as soon as it is added");
    clab_csv_set_flush_every(f, 3);
    clab_csv_row(f, v, 2, &err);
    clab_csv_row(f, v, 2, &err);
    long mid = rows_on_disk(path);
    clab_csv_row(f, v, 2, &err);
    tap_ok(mid == 1 && rows_on_disk(path) == 4, "flush_every 3: rows 2-3 held (%ld on disk), written with row 4", mid);
    clab_csv_row(f, v, 2, &err);
    clab_csv_close(f, &err);
    tap_ok(rows_on_disk(path) == 5, "close writes the rest");
    remove(path);

    /* bad header names */
    f = clab_csv_open(path, 0, &err);
    const char *bad[2] = {"t s", "x_m"};
    tap_ok(clab_csv_header(f, bad, 2, &err) == CLAB_EINVAL, "a column name with a space is refused");
    const char *dup[2] = {"t_s", "t_s"};
    tap_ok(clab_csv_header(f, dup, 2, &err) == CLAB_EINVAL && strstr(err.msg, "twice"), "a repeated column is refused");
    tap_ok(clab_csv_row(f, v, 2, &err) == CLAB_EINVAL, "a row before the header is refused");
    clab_csv_close(f, &err);
    remove(path);
}

static void test_errors_and_partial(void)
{
    clab_error err;
    /* disk full: /dev/full accepts the open and fails every write with ENOSPC */
    if (access("/dev/full", W_OK) == 0) {
        clab_csv *f = clab_csv_open("/dev/full", CLAB_CSV_OVERWRITE, &err);
        const char *cols[1] = {"t_s"};
        int st = f ? clab_csv_header(f, cols, 1, &err) : -1;
        tap_ok(st == CLAB_EIO && strstr(err.msg, "/dev/full") && strstr(err.msg, "write failed"),
               "disk full: CLAB_EIO naming the path (%s)", err.msg);
        double v = 1.0;
        tap_ok(f && clab_csv_row(f, &v, 1, &err) == CLAB_EIO, "later rows report the same failure");
        tap_ok(clab_csv_close(f, &err) == CLAB_EIO, "and so does close");
    } else {
        tap_diag("no writable /dev/full: disk-full checks skipped");
    }
    tap_ok(clab_csv_open("no_such_dir/x.csv", 0, &err) == NULL && err.status == CLAB_EIO &&
               strstr(err.msg, "no_such_dir/x.csv: cannot create"),
           "unwritable path: CLAB_EIO naming it");

    /* a file cut inside a row (an interrupted write): the partial line is dropped */
    const char *path = fresh("partial");
    FILE *fp = fopen(path, "w");
    fputs("# contactlab_version = x\nt_s,z_m\n0,1\n0.5,2\n1,3.00", fp);
    fclose(fp);
    clab_csv_table t;
    int st = clab_csv_read(path, &t, &err);
    tap_ok(st == CLAB_OK && t.nrows == 2 && t.partial_tail == 1 && t.v[3] == 2.0,
           "reader: 2 complete rows, the unterminated third dropped and flagged");
    clab_csv_table_free(&t);
    fp = fopen(path, "w");
    fputs("t_s,z_m\n0,1\n0.5,abc\n", fp);
    fclose(fp);
    st = clab_csv_read(path, &t, &err);
    tap_ok(st == CLAB_EINVAL && strstr(err.msg, ":3: field 2 ('z_m')"), "reader: a bad field named by line and column");
    remove(path);
}

/* SIGKILL while a child writes as fast as it can: the file holds complete rows only,
 * rows k = 0, 1, ... with the values (k, k/7, -k) in order */
static void test_sigkill(void)
{
    const char *path = fresh("kill");
    char p[160];
    snprintf(p, sizeof p, "%s", path);
    pid_t pid = fork();
    if (pid == 0) {
        clab_error err;
        clab_csv *f = clab_csv_open(p, 0, &err);
        const char *cols[3] = {"k_1", "x_m", "y_m"};
        if (!f || clab_csv_header(f, cols, 3, &err)) _exit(2);
        for (long k = 0; k < 100000000L; k++) {
            double v[3] = {(double)k, k / 7.0, -(double)k};
            if (clab_csv_row(f, v, 3, &err)) _exit(3);
        }
        _exit(0);
    }
    /* wait until it has written some rows (at most 20 s, slow under valgrind), let it go
     * on a little, then kill it without warning */
    struct timespec ts = {0, 10 * 1000 * 1000};
    struct stat sb;
    for (int i = 0; i < 2000 && !(stat(p, &sb) == 0 && sb.st_size > 4096); i++) nanosleep(&ts, NULL);
    nanosleep(&ts, NULL);
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "writer killed by SIGKILL mid-run");
    clab_csv_table t;
    clab_error err;
    int st = clab_csv_read(p, &t, &err);
    int ordered = st == CLAB_OK && t.nrows > 0;
    for (size_t r = 0; ordered && r < t.nrows; r++)
        ordered = t.v[3 * r] == (double)r && t.v[3 * r + 1] == r / 7.0 && t.v[3 * r + 2] == -(double)r;
    tap_ok(ordered, "the file holds %zu complete rows, in order, with the exact values", st == CLAB_OK ? t.nrows : 0);
    if (st == CLAB_OK) {
        tap_diag("partial tail after SIGKILL: %d (expected 0, possible only for a kill inside write(2))",
                 t.partial_tail);
        clab_csv_table_free(&t);
    }
    remove(p);
}

int main(void)
{
    test_meta_header_roundtrip();
    test_flush_cadence();
    test_errors_and_partial();
    test_sigkill();
    return tap_done();
}
