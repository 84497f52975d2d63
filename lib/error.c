/* error.c: status messages */
#include "clab_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int clab_error_set(clab_error *err, int status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}

int clab_error_append(clab_error *err, int status, const char *fmt, ...)
{
    if (err) {
        size_t len = strlen(err->msg);
        if (len > 0 && len + 1 < sizeof err->msg) err->msg[len++] = '\n';
        err->msg[len] = '\0';
        if (len + 1 < sizeof err->msg) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err->msg + len, sizeof err->msg - len, fmt, ap);
            va_end(ap);
        }
        err->status = status;
    }
    return status;
}

void clab_error_clear(clab_error *err)
{
    if (err) {
        err->status = CLAB_OK;
        err->msg[0] = '\0';
    }
}

const char *clab_strerror(int status)
{
    switch (status) {
    case CLAB_OK: return "success";
    case CLAB_EINVAL: return "invalid input";
    case CLAB_ENOMEM: return "out of memory";
    case CLAB_EIO: return "input/output error";
    case CLAB_EMAXITER: return "iteration limit reached";
    case CLAB_ENUMERIC: return "non-finite or exploding state";
    case CLAB_ENOTFOUND: return "not found";
    default: return "unknown error";
    }
}
