/* clab_csv.h: CSV series for experiment output, and a small reader for tests and tools.
 *
 * A file holds `#` metadata lines ("# key = value": the contactlab version, the command
 * line, every parameter), one header row of column names that carry their unit (t_s,
 * z_m, fn_N), then rows of numbers printed with %.17g, so a value read back with strtod
 * is bit-identical to the one written.
 *
 *     clab_csv *f = clab_csv_open("out/ball_dvi.csv", 0, &err);     // refuses to overwrite
 *     clab_csv_meta(f, &params, argc, argv, &err);
 *     const char *cols[] = {"t_s", "z_m", "fn_N"};
 *     clab_csv_header(f, cols, 3, &err);
 *     double row[3] = {t, z, fn};
 *     clab_csv_row(f, row, 3, &err);                                  // once per output step
 *     clab_csv_close(f, &err);
 *
 * Crash safety: each row is formatted in memory and handed to the kernel with one
 * write(2) once it is complete, by default as soon as it is added (clab_csv_set_flush_every
 * batches rows). A run killed at any moment (even SIGKILL) leaves the rows written so far,
 * whole. The one exception is a kill inside that write call itself (the kernel may stop a
 * write at a page boundary on a fatal signal): the file then ends in a line without its
 * newline, which clab_csv_read drops (reporting partial_tail). A failed write (disk full)
 * is cut back to the last complete row and reported as CLAB_EIO with the path. */
#ifndef CLAB_CSV_H
#define CLAB_CSV_H

#include <stddef.h>

#include "clab_error.h"
#include "clab_options.h"

/* clab_csv_open flags */
#define CLAB_CSV_OVERWRITE 1 /* replace an existing file (default: refuse, CLAB_EIO) */

typedef struct clab_csv clab_csv;

/* Create path for writing. An existing file is refused with CLAB_EIO unless flags has
 * CLAB_CSV_OVERWRITE, so a finished result is never destroyed by accident.
 * Returns NULL with err set on failure. */
clab_csv *clab_csv_open(const char *path, int flags, clab_error *err);

/* Rows kept in memory between writes (>= 1; default 1: every row written when added).
 * Larger values save system calls for wide or frequent rows, at the price of losing up to
 * that many rows when the process is killed; clab_csv_flush and clab_csv_close write the
 * rest. */
void clab_csv_set_flush_every(clab_csv *f, long rows);

/* Metadata block: "# contactlab_version = <PACKAGE_VERSION>", "# command = <argv joined,
 * shell-quoted>" (when argc > 0), then "# key = value" for every entry of params (may be
 * NULL). Call before clab_csv_header. */
int clab_csv_meta(clab_csv *f, const clab_options *params, int argc, char *const *argv, clab_error *err);
/* One more "# key = value" line (newlines in either are replaced by spaces). */
int clab_csv_meta_kv(clab_csv *f, const char *key, const char *value, clab_error *err);

/* The header row: ncols names with their units (t_s, z_m, fn_N). Names may not be empty
 * or contain ',', '"', '#' or whitespace. Written once, before any row. */
int clab_csv_header(clab_csv *f, const char *const *names, size_t ncols, clab_error *err);

/* One row of exactly ncols values (as many as the header has), printed with %.17g. */
int clab_csv_row(clab_csv *f, const double *v, size_t ncols, clab_error *err);

/* One row of text cells (for summary tables with a name column, e.g. method); cells with
 * a comma, quote or line break are quoted as in RFC 4180. clab_csv_read reads numeric
 * files only. */
int clab_csv_text_row(clab_csv *f, const char *const *cells, size_t ncols, clab_error *err);

/* Write the rows held in memory now. */
int clab_csv_flush(clab_csv *f, clab_error *err);

/* Rows added so far. */
long clab_csv_rows(const clab_csv *f);
/* The file's path. */
const char *clab_csv_path(const clab_csv *f);

/* Bytes of the file written whole so far (after clab_csv_flush: the file's length). */
long long clab_csv_bytes(const clab_csv *f);

/* Continue a series that a checkpointed run wrote (clab_checkpoint.h): path must exist and
 * hold at least bytes bytes ending in a complete line; it is cut back to bytes (rows written
 * after the checkpoint go) and rows are appended from there. rows and ncols are the row count
 * and the header's width at that point. NULL with err set (CLAB_EIO naming the path) when the
 * file is missing, shorter than bytes or not cut at a line end. */
clab_csv *clab_csv_resume(const char *path, long long bytes, long rows, size_t ncols, clab_error *err);

/* Write what is left, close and free f (NULL is fine); returns the first error of the
 * file's life that was not yet reported, or of the final write and close. */
int clab_csv_close(clab_csv *f, clab_error *err);

/* ---- reading ---- */

typedef struct clab_csv_table {
    size_t nmeta;       /* metadata lines "# key = value" */
    char **meta_key;    /* [nmeta] */
    char **meta_val;    /* [nmeta] */
    size_t ncols;       /* columns of the header */
    char **names;       /* [ncols] */
    size_t nrows;       /* complete rows */
    double *v;          /* [nrows * ncols], row major: v[r * ncols + c] */
    int partial_tail;   /* 1: the file ended in a line without newline (an interrupted
                           write), which was dropped */
} clab_csv_table;

/* Read a file written by clab_csv: metadata, header and every complete row. Fails with
 * CLAB_EINVAL naming path:line for a row with the wrong number of fields or a field that
 * is not a number, CLAB_EIO when the file cannot be read. */
int clab_csv_read(const char *path, clab_csv_table *t, clab_error *err);
void clab_csv_table_free(clab_csv_table *t);
/* Value of metadata key, NULL when absent. */
const char *clab_csv_table_meta(const clab_csv_table *t, const char *key);
/* Index of a column, -1 when absent. */
long clab_csv_table_column(const clab_csv_table *t, const char *name);

#endif
