/* options.c: key = value option lists with checked, typed getters */
#include "clab_options.h"

#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clab_options_init(clab_options *op)
{
    op->o = NULL;
    op->n = op->cap = 0;
    op->slot = NULL;
    op->nslot = 0;
    op->asked = NULL;
    op->asked_len = op->asked_cap = 0;
    op->last_bad = -1;
}

void clab_options_free(clab_options *op)
{
    free(op->o);
    free(op->slot);
    free(op->asked);
    clab_options_init(op);
}

/* remember that a getter asked for key (the allowed keys of the unknown-key message) */
static void note_asked(clab_options *op, const char *key)
{
    size_t k = strlen(key);
    for (const char *p = op->asked; p && (p = strstr(p, key)); p += k)
        if ((p == op->asked || p[-1] == ' ') && (p[k] == ',' || p[k] == '\0')) return;
    size_t need = op->asked_len + k + 3;
    if (need > op->asked_cap) {
        size_t cap = op->asked_cap ? 2 * op->asked_cap : 128;
        while (cap < need) cap *= 2;
        char *a = realloc(op->asked, cap);
        if (!a) return; /* the message then lists fewer keys */
        op->asked = a;
        op->asked_cap = cap;
    }
    op->asked_len += (size_t)snprintf(op->asked + op->asked_len, op->asked_cap - op->asked_len, "%s%s",
                                      op->asked_len ? ", " : "", key);
}

/* FNV-1a of a key: the hash that places it in op->slot */
static size_t key_hash(const char *key)
{
    uint64_t h = 14695981039346656037u;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++) h = (h ^ *p) * 1099511628211u;
    return (size_t)h;
}

/* the slot of key: where it is, or the empty slot where it would go (linear probing; the
 * table is at most half full, so there is always an empty one) */
static size_t slot_of(const clab_options *op, const char *key)
{
    size_t mask = op->nslot - 1, s = key_hash(key) & mask;
    while (op->slot[s] && strcmp(op->o[op->slot[s] - 1].key, key) != 0) s = (s + 1) & mask;
    return s;
}

/* a table of nslot slots for the n entries (CLAB_ENOMEM leaves the old one) */
static int rehash(clab_options *op, size_t nslot)
{
    size_t *slot = calloc(nslot, sizeof *slot);
    if (!slot) return CLAB_ENOMEM;
    free(op->slot);
    op->slot = slot;
    op->nslot = nslot;
    for (size_t i = 0; i < op->n; i++) op->slot[slot_of(op, op->o[i].key)] = i + 1;
    return CLAB_OK;
}

static clab_option *find_any(const clab_options *op, const char *key)
{
    if (op->nslot == 0) return NULL;
    size_t s = op->slot[slot_of(op, key)];
    return s ? &op->o[s - 1] : NULL;
}

/* the entry of key the getters see: none once its value was refused and set aside */
static clab_option *find(const clab_options *op, const char *key)
{
    clab_option *o = find_any(op, key);
    return o && !o->refused ? o : NULL;
}

/* a getter refuses o's value: remember which (its message is in err) */
static int refuse(clab_options *op, clab_option *o) { return op->last_bad = (long)(o - op->o), CLAB_EINVAL; }

const char *clab_options_where(const clab_options *op, const char *key)
{
    const clab_option *o = find(op, key);
    return o && o->where[0] ? o->where : "option";
}

void clab_options_refuse(clab_options *op, const char *key)
{
    clab_option *o = find(op, key);
    if (o) refuse(op, o);
}

int clab_options_set_aside(clab_options *op)
{
    if (op->last_bad < 0 || (size_t)op->last_bad >= op->n) return -1;
    op->o[op->last_bad].refused = 1;
    op->o[op->last_bad].used = 1;
    op->last_bad = -1;
    return 0;
}

int clab_options_set(clab_options *op, const char *key, const char *val, const char *where)
{
    clab_option *o = find_any(op, key);
    if (!o) {
        if (op->n == op->cap) {
            size_t cap = op->cap ? 2 * op->cap : 16;
            clab_option *p = realloc(op->o, cap * sizeof *p);
            if (!p) return CLAB_ENOMEM;
            op->o = p;
            op->cap = cap;
        }
        if (2 * (op->n + 1) > op->nslot && rehash(op, op->nslot ? 2 * op->nslot : 32)) return CLAB_ENOMEM;
        o = &op->o[op->n];
        snprintf(o->key, sizeof o->key, "%s", key);
        op->slot[slot_of(op, o->key)] = ++op->n;
    }
    snprintf(o->val, sizeof o->val, "%s", val);
    snprintf(o->where, sizeof o->where, "%s", where ? where : "");
    o->used = 0;
    o->refused = 0;
    return CLAB_OK;
}

int clab_options_parse(clab_options *op, const char *kv, const char *where, clab_error *err)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv || eq[1] == '\0' || (size_t)(eq - kv) >= CLAB_OPT_LEN || strlen(eq + 1) >= CLAB_OPT_LEN)
        return clab_error_set(err, CLAB_EINVAL, "%s: option '%s' must have the form key=value", where ? where : "option",
                              kv);
    char key[CLAB_OPT_LEN];
    memcpy(key, kv, (size_t)(eq - kv));
    key[eq - kv] = '\0';
    if (clab_options_set(op, key, eq + 1, where)) return clab_error_set(err, CLAB_ENOMEM, "out of memory");
    return CLAB_OK;
}

int clab_options_merge(clab_options *dst, const clab_options *src)
{
    for (size_t i = 0; i < src->n; i++)
        if (clab_options_set(dst, src->o[i].key, src->o[i].val, src->o[i].where)) return CLAB_ENOMEM;
    return CLAB_OK;
}

const char *clab_options_get(clab_options *op, const char *key)
{
    note_asked(op, key);
    clab_option *o = find(op, key);
    if (!o) return NULL;
    o->used = 1;
    return o->val;
}

static const char *origin(const clab_option *o) { return o->where[0] ? o->where : "option"; }

int clab_options_double(clab_options *op, const char *key, double lo, double hi, double *out, clab_error *err)
{
    note_asked(op, key);
    clab_option *o = find(op, key);
    if (!o) return CLAB_OK;
    o->used = 1;
    char *end;
    errno = 0;
    double v = strtod(o->val, &end);
    if (end == o->val || *end != '\0' || errno == ERANGE || !isfinite(v)) {
        clab_error_set(err, CLAB_EINVAL, "%s: %s = '%s' is not a finite number; allowed: [%.10g, %.10g]", origin(o), key,
                       o->val, lo, hi);
        return refuse(op, o);
    }
    if (v < lo || v > hi) {
        clab_error_set(err, CLAB_EINVAL, "%s: %s = %.10g is outside the allowed range [%.10g, %.10g]", origin(o), key, v,
                       lo, hi);
        return refuse(op, o);
    }
    *out = v;
    return CLAB_OK;
}

int clab_options_int(clab_options *op, const char *key, long lo, long hi, long *out, clab_error *err)
{
    note_asked(op, key);
    clab_option *o = find(op, key);
    if (!o) return CLAB_OK;
    o->used = 1;
    char *end;
    errno = 0;
    long v = strtol(o->val, &end, 10);
    if (end == o->val || *end != '\0' || errno == ERANGE) {
        clab_error_set(err, CLAB_EINVAL, "%s: %s = '%s' is not an integer; allowed: %ld to %ld", origin(o), key, o->val,
                       lo, hi);
        return refuse(op, o);
    }
    if (v < lo || v > hi) {
        clab_error_set(err, CLAB_EINVAL, "%s: %s = %ld is outside the allowed range [%ld, %ld]", origin(o), key, v, lo,
                       hi);
        return refuse(op, o);
    }
    *out = v;
    return CLAB_OK;
}

int clab_options_choice(clab_options *op, const char *key, const char *const *choices, int *out, clab_error *err)
{
    note_asked(op, key);
    clab_option *o = find(op, key);
    if (!o) return CLAB_OK;
    o->used = 1;
    char list[512] = "";
    for (int i = 0; choices[i]; i++) {
        if (strcmp(o->val, choices[i]) == 0) {
            *out = i;
            return CLAB_OK;
        }
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", choices[i]);
    }
    clab_error_set(err, CLAB_EINVAL, "%s: %s = '%s' is not one of: %s", origin(o), key, o->val, list);
    return refuse(op, o);
}

int clab_options_check_unused(const clab_options *op, const char *owner, clab_error *err)
{
    int bad = 0;
    for (size_t i = 0; i < op->n; i++)
        if (!op->o[i].used) {
            if (!bad) clab_error_clear(err);
            if (!bad)
                clab_error_append(err, CLAB_EINVAL, "%s: unknown option '%s' for the %s; allowed: %s", origin(&op->o[i]),
                                  op->o[i].key, owner, op->asked_len ? op->asked : "none");
            else /* the list once */
                clab_error_append(err, CLAB_EINVAL, "%s: unknown option '%s' for the %s; allowed: as above",
                                  origin(&op->o[i]), op->o[i].key, owner);
            bad = 1;
        }
    return bad ? CLAB_EINVAL : CLAB_OK;
}
