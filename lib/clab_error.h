/* clab_error.h: status codes and error messages. Library functions never abort: a
 * function that can fail returns a status and, when given an error record, leaves a
 * message that says what is wrong and where (GSL style). */
#ifndef CLAB_ERROR_H
#define CLAB_ERROR_H

enum {
    CLAB_OK = 0,
    CLAB_EINVAL = 1,   /* invalid argument, parameter or input file */
    CLAB_ENOMEM = 2,   /* out of memory */
    CLAB_EIO = 3,      /* file could not be read or written */
    CLAB_EMAXITER = 4, /* iteration limit reached */
    CLAB_ENUMERIC = 5, /* NaN, infinity or an exploding state */
    CLAB_ENOTFOUND = 6 /* unknown name (backend, material, experiment) */
};

#define CLAB_ERROR_LEN 4096 /* room for a validator's list of every problem (scene files) */

typedef struct clab_error {
    int status;               /* last status set, CLAB_OK when none */
    char msg[CLAB_ERROR_LEN]; /* human-readable message, empty when none */
} clab_error;

/* Set err (when not NULL) to status and a printf-style message; returns status, so
 * `return clab_error_set(err, CLAB_EINVAL, "...")` reads naturally. */
int clab_error_set(clab_error *err, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Append a further line to err's message (for validators that report every problem). */
int clab_error_append(clab_error *err, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Clear err to CLAB_OK and an empty message. */
void clab_error_clear(clab_error *err);

/* A short name for a status code ("invalid input", ...). */
const char *clab_strerror(int status);

#endif
