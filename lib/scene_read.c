/* scene_read.c: checked readers of scene-file fields (see scene_internal.h) */
#include "scene_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* room kept free at the end of the message for the closing count line */
#define SCENE_MSG_RESERVE 96
#define SCENE_MAX_SHOWN 20  /* problem lines shown; the rest are counted ("N more not shown") */

void clab_scene_fail(clab_scene_ctx *c, unsigned line, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    c->nerr++;
    if (!c->err) return;
    /* keep whole lines: once the message is nearly full, only count */
    size_t used = strlen(c->err->msg);
    size_t need = strlen(c->file) + strlen(what) + 16;
    if (c->nerr - c->hidden > SCENE_MAX_SHOWN ||
        (c->nerr - c->hidden > 1 && used + need > CLAB_ERROR_LEN - SCENE_MSG_RESERVE)) {
        c->hidden++;
        c->err->status = CLAB_EINVAL;
        return;
    }
    if (line > 0) clab_error_append(c->err, CLAB_EINVAL, "%s:%u: %s", c->file, line, what);
    else clab_error_append(c->err, CLAB_EINVAL, "%s: %s", c->file, what);
}

void clab_scene_field(char *buf, size_t n, const char *path, const char *key)
{
    if (path && path[0]) snprintf(buf, n, "%s.%s", path, key);
    else snprintf(buf, n, "%s", key);
}

void clab_scene_double_text(double v, char *buf, size_t n)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v || !isfinite(v)) return;
    }
}

const char *clab_scene_type_text(const config_setting_t *s)
{
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_GROUP: return "a group { }";
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64: return "an integer";
    case CONFIG_TYPE_FLOAT: return "a number";
    case CONFIG_TYPE_STRING: return "a string";
    case CONFIG_TYPE_BOOL: return "a boolean";
    case CONFIG_TYPE_ARRAY: return "an array [ ]";
    case CONFIG_TYPE_LIST: return "a list ( )";
    default: return "an unknown type";
    }
}

unsigned clab_scene_line(const config_setting_t *s)
{
    for (; s; s = config_setting_parent(s))
        if (config_setting_source_line(s) > 0) return config_setting_source_line(s);
    return 0;
}

void clab_scene_value_text(const config_setting_t *s, char *buf, size_t n)
{
    if (n == 0) return;
    buf[0] = '\0';
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT: snprintf(buf, n, "%d", config_setting_get_int(s)); break;
    case CONFIG_TYPE_INT64: snprintf(buf, n, "%lld", config_setting_get_int64(s)); break;
    case CONFIG_TYPE_FLOAT: clab_scene_double_text(config_setting_get_float(s), buf, n); break;
    case CONFIG_TYPE_BOOL: snprintf(buf, n, "%s", config_setting_get_bool(s) ? "true" : "false"); break;
    case CONFIG_TYPE_STRING: {
        const char *v = config_setting_get_string(s);
        if (strlen(v) > 40) snprintf(buf, n, "\"%.40s...\"", v);
        else snprintf(buf, n, "\"%s\"", v);
        break;
    }
    case CONFIG_TYPE_ARRAY:
    case CONFIG_TYPE_LIST: {
        int len = config_setting_length(s);
        int arr = config_setting_type(s) == CONFIG_TYPE_ARRAY;
        size_t k = (size_t)snprintf(buf, n, "%s", arr ? "[" : "(");
        for (int i = 0; i < len && k < n; i++) {
            char item[64];
            if (i == 4) {
                snprintf(item, sizeof item, ", ...");
                k += (size_t)snprintf(buf + k, n - k, "%s", item);
                break;
            }
            clab_scene_value_text(config_setting_get_elem(s, (unsigned)i), item, sizeof item);
            k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", item);
        }
        if (k < n) snprintf(buf + k, n - k, "%s", arr ? "]" : ")");
        break;
    }
    case CONFIG_TYPE_GROUP: snprintf(buf, n, "{ ... }"); break;
    default: snprintf(buf, n, "?"); break;
    }
}

void clab_scene_check_keys(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *const *allowed)
{
    int len = config_setting_length(g);
    for (int i = 0; i < len; i++) {
        const config_setting_t *m = config_setting_get_elem(g, (unsigned)i);
        const char *name = config_setting_name(m);
        int known = 0;
        for (int k = 0; allowed[k] && !known; k++) known = strcmp(name, allowed[k]) == 0;
        if (known) continue;
        char field[160], list[400];
        size_t used = 0;
        list[0] = '\0';
        for (int k = 0; allowed[k] && used < sizeof list; k++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", allowed[k]);
        clab_scene_field(field, sizeof field, path, name);
        clab_scene_fail(c, clab_scene_line(m), "%s: unknown key; allowed keys here: %s", field, list);
    }
}

/* the numeric value of s, 0 when s is not a number */
static int setting_number(const config_setting_t *s, double *v)
{
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT: *v = config_setting_get_int(s); return 1;
    case CONFIG_TYPE_INT64: *v = (double)config_setting_get_int64(s); return 1;
    case CONFIG_TYPE_FLOAT: *v = config_setting_get_float(s); return 1;
    default: return 0;
    }
}

/* "x > 0", "-1 < x < 0.5", "0 < x <= 1", "x >= 0", "any finite number"; with the unit */
static void range_text(clab_scene_range r, const char *x, char *buf, size_t n)
{
    char lo[32], hi[32];
    clab_scene_double_text(r.lo, lo, sizeof lo);
    clab_scene_double_text(r.hi, hi, sizeof hi);
    int has_lo = isfinite(r.lo), has_hi = isfinite(r.hi);
    size_t k;
    if (has_lo && has_hi)
        k = (size_t)snprintf(buf, n, "%s %s %s %s %s", lo, r.lo_open ? "<" : "<=", x, r.hi_open ? "<" : "<=", hi);
    else if (has_lo) k = (size_t)snprintf(buf, n, "%s %s %s", x, r.lo_open ? ">" : ">=", lo);
    else if (has_hi) k = (size_t)snprintf(buf, n, "%s %s %s", x, r.hi_open ? "<" : "<=", hi);
    else k = (size_t)snprintf(buf, n, "any finite number");
    if (r.unit && r.unit[0] && k < n) snprintf(buf + k, n - k, " [%s]", r.unit);
}

static int in_range(double v, clab_scene_range r)
{
    if (!isfinite(v)) return 0;
    if (r.lo_open ? !(v > r.lo) : !(v >= r.lo)) return 0;
    if (r.hi_open ? !(v < r.hi) : !(v <= r.hi)) return 0;
    return 1;
}

int clab_scene_number(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *key, clab_scene_range r,
                 double *out)
{
    const config_setting_t *s = config_setting_get_member(g, key);
    if (!s) return 0;
    char field[160], value[160], allowed[160];
    clab_scene_field(field, sizeof field, path, key);
    clab_scene_value_text(s, value, sizeof value);
    range_text(r, key, allowed, sizeof allowed);
    double v;
    if (!setting_number(s, &v)) {
        clab_scene_fail(c, clab_scene_line(s), "%s = %s: wrong type (%s); allowed: a number, %s", field, value,
                   clab_scene_type_text(s), allowed);
        return -1;
    }
    if (!isfinite(v)) {
        clab_scene_fail(c, clab_scene_line(s), "%s = %s: not a finite number; allowed: %s", field, value, allowed);
        return -1;
    }
    if (!in_range(v, r)) {
        clab_scene_fail(c, clab_scene_line(s), "%s = %s: out of range; allowed: %s", field, value, allowed);
        return -1;
    }
    *out = v;
    return 1;
}

int clab_scene_long(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *key, long lo, long hi,
               long *out)
{
    const config_setting_t *s = config_setting_get_member(g, key);
    if (!s) return 0;
    char field[160], value[160];
    clab_scene_field(field, sizeof field, path, key);
    clab_scene_value_text(s, value, sizeof value);
    int t = config_setting_type(s);
    if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) {
        clab_scene_fail(c, clab_scene_line(s), "%s = %s: wrong type (%s); allowed: an integer, %ld <= %s <= %ld", field, value,
                   clab_scene_type_text(s), lo, key, hi);
        return -1;
    }
    long long v = t == CONFIG_TYPE_INT ? config_setting_get_int(s) : config_setting_get_int64(s);
    if (v < lo || v > hi) {
        clab_scene_fail(c, clab_scene_line(s), "%s = %s: out of range; allowed: an integer, %ld <= %s <= %ld", field, value, lo,
                   key, hi);
        return -1;
    }
    *out = (long)v;
    return 1;
}

int clab_scene_vec3(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *key, const char *unit,
               clab_vec3 *out)
{
    const config_setting_t *s = config_setting_get_member(g, key);
    if (!s) return 0;
    char field[160], value[200];
    clab_scene_field(field, sizeof field, path, key);
    clab_scene_value_text(s, value, sizeof value);
    int t = config_setting_type(s);
    double v[3];
    int ok = (t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST) && config_setting_length(s) == 3;
    for (int i = 0; ok && i < 3; i++) ok = setting_number(config_setting_get_elem(s, (unsigned)i), &v[i]);
    if (!ok) {
        clab_scene_fail(c, clab_scene_line(s), "%s = %s: wrong type or length (%s); allowed: three numbers [x, y, z] [%s]",
                   field, value, clab_scene_type_text(s), unit);
        return -1;
    }
    if (!(isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]))) {
        clab_scene_fail(c, clab_scene_line(s), "%s = %s: not finite; allowed: three finite numbers [x, y, z] [%s]", field,
                   value, unit);
        return -1;
    }
    *out = clab_v3(v[0], v[1], v[2]);
    return 1;
}

int clab_scene_bool(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *key, int *out)
{
    const config_setting_t *s = config_setting_get_member(g, key);
    if (!s) return 0;
    if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
        char field[160], value[160];
        clab_scene_field(field, sizeof field, path, key);
        clab_scene_value_text(s, value, sizeof value);
        clab_scene_fail(c, clab_scene_line(s), "%s = %s: wrong type (%s); allowed: true or false", field, value,
                   clab_scene_type_text(s));
        return -1;
    }
    *out = config_setting_get_bool(s) ? 1 : 0;
    return 1;
}

static int name_char(char ch) { return isalnum((unsigned char)ch) || ch == '_' || ch == '-' || ch == '.'; }

int clab_scene_string(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *key, int names, char *out,
                 size_t cap)
{
    const config_setting_t *s = config_setting_get_member(g, key);
    if (!s) return 0;
    char field[160], value[160];
    clab_scene_field(field, sizeof field, path, key);
    clab_scene_value_text(s, value, sizeof value);
    const char *what = names ? "a name of letters, digits, '_', '-', '.'" : "a string";
    if (config_setting_type(s) != CONFIG_TYPE_STRING) {
        clab_scene_fail(c, clab_scene_line(s), "%s = %s: wrong type (%s); allowed: %s", field, value, clab_scene_type_text(s), what);
        return -1;
    }
    const char *v = config_setting_get_string(s);
    size_t len = strlen(v);
    int bad = (len == 0 && names) || len >= cap;
    for (size_t i = 0; names && !bad && i < len; i++) bad = !name_char(v[i]);
    if (bad) {
        clab_scene_fail(c, clab_scene_line(s), "%s = %s: invalid; allowed: %s, 1 to %zu characters", field, value, what,
                   cap - 1);
        return -1;
    }
    memcpy(out, v, len + 1);
    return 1;
}

/* ---- pre-scan of the raw text ---- */

static int number_char(char ch) { return isalnum((unsigned char)ch) || ch == '.' || ch == '+' || ch == '-'; }

/* one number token tok[0..len): report a plain integer that a C int cannot hold */
static void check_integer(clab_scene_ctx *c, unsigned line, const char *tok, size_t len)
{
    char t[64];
    if (len >= sizeof t) len = sizeof t - 1;
    memcpy(t, tok, len);
    t[len] = '\0';
    const char *d = (t[0] == '-' || t[0] == '+') ? t + 1 : t;
    int hex = d[0] == '0' && (d[1] == 'x' || d[1] == 'X');
    if (len > 0 && (t[len - 1] == 'L' || t[len - 1] == 'l')) return; /* 64-bit integer */
    if (!hex && strpbrk(d, ".eE")) return;                             /* floating point */
    errno = 0;
    char *end;
    long long v = hex ? (long long)strtoull(d + 2, &end, 16) : strtoll(t, &end, 10);
    if (*end != '\0') return; /* not a well-formed integer: libconfig reports the syntax */
    int over = errno == ERANGE || (hex ? (unsigned long long)v > (unsigned long long)INT_MAX : (v > INT_MAX || v < INT_MIN));
    if (over)
        clab_scene_fail(c, line,
                   "integer %s is too large for the scene parser (32-bit integers, it would wrap); allowed: "
                   "|n| <= %d, or write it as a number (%s.0 or in e notation)",
                   t, INT_MAX, t);
}

/* what came before a token, for the string check */
enum { PREV_START, PREV_ASSIGN, PREV_OPEN_LIST, PREV_COMMA, PREV_STRING, PREV_OTHER };

#define SCENE_MAX_DEPTH 64

int clab_scene_prescan(clab_scene_ctx *c, const char *text)
{
    int before = c->nerr;
    unsigned line = 1;
    char open[SCENE_MAX_DEPTH]; /* brackets open at this point */
    int depth = 0, prev = PREV_START, too_deep = 0;
    const char *p = text;
    while (*p) {
        if (*p == '\n') {
            line++;
            p++;
        } else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') {
            p++;
        } else if (*p == '#' || (p[0] == '/' && p[1] == '/')) { /* line comment */
            while (*p && *p != '\n') p++;
        } else if (p[0] == '/' && p[1] == '*') { /* block comment */
            unsigned opened = line;
            p += 2;
            while (*p && !(p[0] == '*' && p[1] == '/')) line += *p++ == '\n';
            if (*p) p += 2;
            else /* libconfig would take the rest of the file as the comment, silently */
                clab_scene_fail(c, opened, "a /* comment is never closed: the rest of the file (lines %u to %u) would be "
                           "ignored; allowed: /* ... */ with its closing */", opened, line);
        } else if (*p == '"') {
            /* a string may only stand as a value: after '=' or ':', first in a list or array,
             * after ',' inside one, or after another string (concatenation). libconfig 1.5
             * leaks the text of a string it meets anywhere else, so that is caught here. */
            int in_list = depth > 0 && depth <= SCENE_MAX_DEPTH && (open[depth - 1] == '(' || open[depth - 1] == '[');
            if (!(prev == PREV_ASSIGN || prev == PREV_OPEN_LIST || prev == PREV_STRING ||
                  (prev == PREV_COMMA && in_list)))
                clab_scene_fail(c, line, "a string where no value may stand (syntax error); allowed: a string after "
                           "'=' or as an element of a list ( ) or array [ ]");
            p++;
            while (*p && *p != '"') { /* backslash escapes */
                if (*p == '\\' && p[1]) p++;
                line += *p++ == '\n';
            }
            if (*p) p++;
            prev = PREV_STRING;
        } else if (*p == '@') { /* directive: @include */
            clab_scene_fail(c, line, "directive '@...' is not allowed: a scene file is self-contained (no @include)");
            while (*p && *p != '\n') p++;
            prev = PREV_OTHER;
        } else if (isalpha((unsigned char)*p) || *p == '*') { /* setting name or true/false */
            while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '*')) p++;
            prev = PREV_OTHER;
        } else if (isdigit((unsigned char)*p) || ((*p == '-' || *p == '+' || *p == '.') && isdigit((unsigned char)p[1]))) {
            const char *tok = p;
            while (*p && number_char(*p)) p++;
            check_integer(c, line, tok, (size_t)(p - tok));
            prev = PREV_OTHER;
        } else {
            char ch = *p++;
            if (ch == '=' || ch == ':') prev = PREV_ASSIGN;
            else if (ch == ',') prev = PREV_COMMA;
            else prev = (ch == '(' || ch == '[') ? PREV_OPEN_LIST : PREV_OTHER;
            if (ch == '(' || ch == '[' || ch == '{') {
                if (depth < SCENE_MAX_DEPTH) open[depth] = ch;
                else if (!too_deep++)
                    clab_scene_fail(c, line, "groups, lists and arrays nested deeper than %d levels; allowed: at most %d",
                               SCENE_MAX_DEPTH, SCENE_MAX_DEPTH);
                depth++;
            } else if ((ch == ')' || ch == ']' || ch == '}') && depth > 0) {
                depth--;
            }
        }
    }
    return c->nerr - before;
}

int clab_scene_periodic(clab_scene_ctx *c, const config_setting_t *root, clab_periodic *out)
{
    static const char *const axes[] = {"x", "y", "z", NULL};
    const config_setting_t *g = config_setting_get_member(root, "periodic");
    if (!g) return 0;
    char value[200];
    if (config_setting_type(g) != CONFIG_TYPE_GROUP) {
        clab_scene_value_text(g, value, sizeof value);
        clab_scene_fail(c, clab_scene_line(g), "periodic = %s: wrong type (%s); allowed: a group { x = [lo, hi]; ... } [m]",
                   value, clab_scene_type_text(g));
        return -1;
    }
    int nerr = c->nerr;
    clab_scene_check_keys(c, g, "periodic", axes);
    clab_periodic p = {{0, 0, 0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    for (int k = 0; k < 3; k++) {
        const config_setting_t *s = config_setting_get_member(g, axes[k]);
        if (!s) continue;
        clab_scene_value_text(s, value, sizeof value);
        int t = config_setting_type(s);
        double v[2];
        int ok = (t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST) && config_setting_length(s) == 2;
        for (int i = 0; ok && i < 2; i++) ok = setting_number(config_setting_get_elem(s, (unsigned)i), &v[i]);
        if (!ok) {
            clab_scene_fail(c, clab_scene_line(s), "periodic.%s = %s: wrong type or length (%s); allowed: two numbers [lo, hi] [m]",
                       axes[k], value, clab_scene_type_text(s));
            continue;
        }
        if (!(isfinite(v[0]) && isfinite(v[1]) && v[0] < v[1])) {
            clab_scene_fail(c, clab_scene_line(s), "periodic.%s = %s: allowed: two finite numbers lo < hi [m]", axes[k], value);
            continue;
        }
        p.on[k] = 1;
        p.lo[k] = v[0];
        p.hi[k] = v[1];
    }
    if (c->nerr > nerr) return -1;
    *out = p;
    return 1;
}

/* ---- lists, groups and required fields ---- */

clab_scene_range clab_scene_make_range(double lo, int lo_open, double hi, int hi_open, const char *unit)
{
    clab_scene_range r = {lo, hi, lo_open, hi_open, unit};
    return r;
}

/* the list setting key of root, checked to be a list; NULL when absent or wrong */
const config_setting_t *clab_scene_get_list(clab_scene_ctx *c, const config_setting_t *root, const char *key, int required)
{
    const config_setting_t *s = config_setting_get_member(root, key);
    if (!s) {
        if (required)
            clab_scene_fail(c, 0, "%s: missing required list; allowed: %s = ( { ... }, { ... } );", key, key);
        return NULL;
    }
    if (config_setting_type(s) != CONFIG_TYPE_LIST) {
        char value[160];
        clab_scene_value_text(s, value, sizeof value);
        clab_scene_fail(c, clab_scene_line(s), "%s = %s: wrong type (%s); allowed: a list of groups ( { ... }, { ... } )", key,
                   value, clab_scene_type_text(s));
        return NULL;
    }
    return s;
}

/* element i of list s, checked to be a group; NULL when it is not */
const config_setting_t *clab_scene_get_group_elem(clab_scene_ctx *c, const config_setting_t *s, const char *key, int i)
{
    const config_setting_t *g = config_setting_get_elem(s, (unsigned)i);
    if (config_setting_type(g) != CONFIG_TYPE_GROUP) {
        char value[160];
        clab_scene_value_text(g, value, sizeof value);
        clab_scene_fail(c, clab_scene_line(g), "%s[%d] = %s: wrong type (%s); allowed: a group { ... }", key, i, value,
                   clab_scene_type_text(g));
        return NULL;
    }
    return g;
}

void clab_scene_missing(clab_scene_ctx *c, const config_setting_t *g, const char *path, const char *key, const char *allowed)
{
    clab_scene_fail(c, clab_scene_line(g), "%s.%s: missing required field; allowed: %s", path, key, allowed);
}
