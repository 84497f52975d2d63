/* clab_options.h: named options for backends and solvers, as key = value strings.
 * Scene files (backend group) and the command line (--opt key=value) fill the same list;
 * a backend reads its keys with the typed getters, which check type and range, and
 * refuses keys it does not know, so a misspelt option is an error, not a silent default. */
#ifndef CLAB_OPTIONS_H
#define CLAB_OPTIONS_H

#include <stddef.h>

#include "clab_error.h"

#define CLAB_OPT_LEN 128

typedef struct clab_option {
    char key[CLAB_OPT_LEN];
    char val[CLAB_OPT_LEN];
    char where[CLAB_OPT_LEN]; /* origin for messages: "scene.cfg:12" or "--opt" */
    int used;                 /* set by the getters */
    int refused;              /* its value was refused: the getters see it as absent from then on */
} clab_option;

typedef struct clab_options {
    clab_option *o; /* [n], in the order they were first set */
    size_t n, cap;
    size_t *slot;   /* [nslot] open-addressing hash of the keys: index into o plus 1, 0 = empty */
    size_t nslot;   /* a power of two, at least 2 cap (0 before the first set) */
    char *asked;    /* keys the getters asked for, "a, b, c" (for the unknown-key message) */
    size_t asked_len, asked_cap;
    long last_bad;  /* index of the option a getter (or clab_options_refuse) last refused, -1: none */
} clab_options;

void clab_options_init(clab_options *op);
void clab_options_free(clab_options *op);
/* Set key to val (replacing an earlier value); where may be NULL. */
int clab_options_set(clab_options *op, const char *key, const char *val, const char *where);
/* Parse "key=value" (as given to --opt). */
int clab_options_parse(clab_options *op, const char *kv, const char *where, clab_error *err);
/* Copy every entry of src into dst (later values win). */
int clab_options_merge(clab_options *dst, const clab_options *src);
/* The raw value, NULL when absent (marks the key used). */
const char *clab_options_get(clab_options *op, const char *key);

/* Typed getters: *out keeps its default when the key is absent; the value must parse
 * completely and lie in [lo, hi]; otherwise err names the key, value, origin and range. */
int clab_options_double(clab_options *op, const char *key, double lo, double hi, double *out, clab_error *err);
int clab_options_int(clab_options *op, const char *key, long lo, long hi, long *out, clab_error *err);
/* One of the words in choices (NULL-terminated); *out = its index. */
int clab_options_choice(clab_options *op, const char *key, const char *const *choices, int *out, clab_error *err);
/* A reader's own check refused key's value (its message is the reader's): record it like a
 * getter's refusal, so a caller that reports every problem (clab_sim_create) can set the key
 * aside and read the others. */
void clab_options_refuse(clab_options *op, const char *key);
/* Where key's value came from ("scene.cfg:12", "--opt"), "option" when unknown or absent. */
const char *clab_options_where(const clab_options *op, const char *key);
/* Set the last refused option aside (the getters then see it as absent, the unused-key check
 * passes it over); returns 0, or -1 when there was none. */
int clab_options_set_aside(clab_options *op);

/* CLAB_EINVAL naming every key no getter has asked for (owner: "penalty backend"), and
 * the keys the getters did ask for as the allowed ones. */
int clab_options_check_unused(const clab_options *op, const char *owner, clab_error *err);

#endif
