/* test_checkpoint.c: checkpoint and restart (lib/checkpoint.c) and resumed CSV series.
 *
 * Checks, with the expected values from the contract of clab_checkpoint.h:
 * - restart: for each backend, N steps straight and N/2 + checkpoint file + a fresh sim
 *   from the same scene + N/2 give the same t, step, q, v of every body and the same solver
 *   counters, bit for bit (memcmp: tolerance 0); the scenes keep contacts across the split,
 *   so the penalty history and the DVI warm start are in play, and dropping the backend's
 *   part of the state changes the continuation (the test can fail);
 * - refusals, each with its message and the sim left unchanged: not a checkpoint, truncated,
 *   one byte damaged (CRC-32), another format version, another byte order, another scene
 *   (one mass changed), another body count, another backend, a missing file;
 * - writing: no temporary file is left, and a write that fails leaves the earlier
 *   checkpoint whole and readable; the caller's bookkeeping reads back as written;
 * - clab_csv_resume: a series cut back to a checkpoint and continued equals the series
 *   written straight, byte for byte; a file too short or not cut at a line end is refused. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clab_checkpoint.h"
#include "clab_csv.h"
#include "clab_scene.h"
#include "tap.h"

/* penalty: a sphere launched sliding and spinning on the floor next to two resting ones and
 * a box, so tangential histories persist through the split */
static const char *penalty_scene =
    "materials = ( { name = \"m\"; mu = 0.4; E = 1.0e7; nu = 0.3; cor = 0.5; } );\n"
    "bodies = (\n"
    "  { name = \"floor\"; shape = \"plane\"; fixed = true; material = \"m\"; },\n"
    "  { name = \"a\"; shape = \"sphere\"; radius = 0.05; mass = 0.2; position = [0.0, 0.0, 0.0499];\n"
    "    velocity = [0.8, 0.1, 0.0]; omega = [0.0, 3.0, 1.0]; material = \"m\"; },\n"
    "  { name = \"b\"; shape = \"sphere\"; radius = 0.05; mass = 0.2; position = [0.3, 0.0, 0.0499]; material = \"m\"; },\n"
    "  { name = \"c\"; shape = \"sphere\"; radius = 0.05; mass = 0.2; position = [0.3, 0.0, 0.1497]; material = \"m\"; },\n"
    "  { name = \"d\"; shape = \"box\"; half = [0.05, 0.05, 0.05]; mass = 0.5; position = [-0.3, 0.0, 0.0499];\n"
    "    velocity = [-0.5, 0.0, 0.0]; material = \"m\"; }\n"
    ");\n"
    "simulation = { backend = \"penalty\"; h = 2.0e-5; t_end = 1.0; };\n";

/* dvi: a small pile (contacts all along), a tight tolerance and a low iteration limit, so
 * warm start matters and the limit is hit */
static const char *dvi_scene =
    "bodies = (\n"
    "  { name = \"floor\"; shape = \"plane\"; fixed = true; },\n"
    "  { name = \"a\"; shape = \"sphere\"; radius = 0.05; mass = 0.2; position = [0.0, 0.0, 0.05]; },\n"
    "  { name = \"b\"; shape = \"sphere\"; radius = 0.05; mass = 0.2; position = [0.1, 0.0, 0.05]; },\n"
    "  { name = \"c\"; shape = \"sphere\"; radius = 0.05; mass = 0.2; position = [0.05, 0.0, 0.1366]; },\n"
    "  { name = \"d\"; shape = \"box\"; half = [0.05, 0.05, 0.05]; mass = 0.5; position = [0.4, 0.0, 0.05];\n"
    "    velocity = [1.0, 0.0, 0.0]; }\n"
    ");\n"
    "simulation = { backend = \"dvi\"; h = 1.0e-3; t_end = 1.0;\n"
    "  options = { solver = \"apgd\"; tol = 1.0e-10; max_iter = 40; }; };\n";

typedef struct run {
    clab_scene sc;
    clab_sim *s;
} run;

static int run_open(run *r, const char *text, const char *name)
{
    clab_error err;
    r->s = NULL;
    if (clab_scene_load_string(text, name, &r->sc, &err)) {
        tap_diag("%s", err.msg);
        return -1;
    }
    r->s = clab_sim_create(r->sc.world, r->sc.backend, r->sc.h, &r->sc.options, &err);
    if (!r->s) tap_diag("%s", err.msg);
    return r->s ? 0 : -1;
}

static void run_close(run *r)
{
    clab_sim_destroy(r->s);
    clab_scene_free(&r->sc);
}

static int run_steps(run *r, long n)
{
    clab_error err;
    for (long k = 0; k < n; k++)
        if (clab_sim_step(r->s, &err)) {
            tap_diag("step %ld: %s", k, err.msg);
            return -1;
        }
    return 0;
}

/* the whole state and the counters, bit for bit */
static int same_state(const run *a, const run *b)
{
    const clab_world *wa = a->sc.world, *wb = b->sc.world;
    if (wa->nbodies != wb->nbodies || memcmp(&wa->t, &wb->t, sizeof wa->t) || wa->step != wb->step) return 0;
    for (size_t i = 0; i < wa->nbodies; i++) {
        const clab_body *x = &wa->bodies[i], *y = &wb->bodies[i];
        if (memcmp(&x->r, &y->r, sizeof x->r) || memcmp(&x->e, &y->e, sizeof x->e) ||
            memcmp(&x->rdot, &y->rdot, sizeof x->rdot) || memcmp(&x->wbar, &y->wbar, sizeof x->wbar))
            return 0;
    }
    clab_solver_stats sa, sb;
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    a->s->type->stats(a->s->self, &sa);
    b->s->type->stats(b->s->self, &sb);
    return sa.solves == sb.solves && sa.total_iterations == sb.total_iterations && sa.maxiter_hits == sb.maxiter_hits;
}

static char tmpdir[256];

static void path_in_tmp(char *buf, size_t n, const char *file) { snprintf(buf, n, "%s/%s", tmpdir, file); }

/* N straight against N/2 + checkpoint + restart + N/2 */
static void test_restart(const char *backend, const char *text, long N)
{
    run a, b, c, d;
    clab_error err;
    char ck[512];
    path_in_tmp(ck, sizeof ck, "restart.ckpt");
    if (!tap_ok(run_open(&a, text, backend) == 0 && run_open(&b, text, backend) == 0 &&
                    run_open(&c, text, backend) == 0 && run_open(&d, text, backend) == 0,
                "%s: four sims of the same scene", backend))
        return;
    run_steps(&a, N);
    run_steps(&b, N / 2);
    size_t contacts = b.s->contacts.n;
    clab_checkpoint_output out;
    memset(&out, 0, sizeof out);
    snprintf(out.tag, sizeof out.tag, "test %s", backend);
    out.nfiles = 2;
    out.bytes[0] = 123456789012LL, out.rows[0] = 42, out.bytes[1] = 7, out.rows[1] = 1;
    out.nout = 99;
    /* the caller's running values: bit patterns a text format would lose (-0, a subnormal, nan) */
    double values[5] = {-0.0, 4.9406564584124654e-324, 1.0 / 3.0, NAN, 1e300};
    out.values = values;
    out.nvalues = 5;
    int wr = clab_checkpoint_write(b.s, &out, ck, &err);
    tap_ok(wr == CLAB_OK && contacts > 0, "%s: checkpoint written at step %ld with %zu contacts in play", backend,
           N / 2, contacts);
    clab_checkpoint_info info;
    int rd = clab_checkpoint_read(c.s, ck, &info, &err);
    if (rd) tap_diag("%s", err.msg);
    tap_ok(rd == CLAB_OK && info.step == N / 2 && info.same_parameters == 1 && strcmp(info.out.tag, out.tag) == 0 &&
               info.out.nfiles == 2 && info.out.bytes[0] == out.bytes[0] && info.out.rows[0] == 42 &&
               info.out.bytes[1] == 7 && info.out.rows[1] == 1 && info.out.nout == 99,
           "%s: read back into a fresh sim: step %ld, same parameters, the caller's bookkeeping as written", backend,
           info.step);
    tap_ok(rd == CLAB_OK && info.out.nvalues == 5 && info.out.values &&
               memcmp(info.out.values, values, sizeof values) == 0,
           "%s: the caller's 5 running values read back bit for bit (memcmp)", backend);
    clab_checkpoint_info_free(&info);
    /* peek: the same without a sim */
    clab_checkpoint_info pk;
    int pr = clab_checkpoint_peek(ck, &pk, &err);
    tap_ok(pr == CLAB_OK && pk.step == N / 2 && strcmp(pk.backend, backend) == 0 && strcmp(pk.out.tag, out.tag) == 0 &&
               pk.out.nfiles == 2 && pk.out.bytes[0] == out.bytes[0] && pk.out.nvalues == 5 &&
               memcmp(pk.out.values, values, sizeof values) == 0,
           "%s: peek without a sim: backend, step %ld, tag, lengths and values as written", backend, pk.step);
    clab_checkpoint_info_free(&pk);
    run_steps(&c, N - N / 2);
    tap_ok(same_state(&a, &c), "%s: %ld straight = %ld + restart + %ld: t, step, q, v of every body and the solver "
           "counters bit for bit", backend, N, N / 2, N - N / 2);

    /* the backend's part matters: the world restored, the backend started fresh */
    rd = clab_checkpoint_read(d.s, ck, NULL, &err);
    d.s->type->destroy(d.s->self);
    d.s->self = NULL;
    clab_options o;
    clab_options_init(&o);
    clab_options_merge(&o, &d.sc.options);
    int cr = d.s->type->create(d.sc.world, &o, &d.s->self, &err);
    clab_options_free(&o);
    run_steps(&d, N - N / 2);
    tap_ok(rd == CLAB_OK && cr == CLAB_OK && !same_state(&a, &d),
           "%s: without the backend's state (history / warm start) the continuation differs", backend);
    clab_solver_stats st;
    a.s->type->stats(a.s->self, &st);
    if (strcmp(backend, "dvi") == 0)
        tap_ok(st.maxiter_hits > 0, "dvi: the iteration limit was hit (%ld of %ld solves) and the count restored",
               st.maxiter_hits, st.solves);
    run_close(&a);
    run_close(&b);
    run_close(&c);
    run_close(&d);
}

static unsigned char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    unsigned char *p = malloc((size_t)n + 1);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return p;
}

static void write_all(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(p, 1, n, f);
    fclose(f);
}

/* a refused file: the status, the message, and the sim unchanged */
static void refused(run *r, const char *path, int status, const char *msg, const char *what)
{
    clab_error err;
    clab_error_clear(&err);
    clab_world *w = r->sc.world;
    clab_vec3 r1 = w->bodies[1].r;
    long step = w->step;
    int rc = clab_checkpoint_read(r->s, path, NULL, &err);
    int unchanged = memcmp(&r1, &w->bodies[1].r, sizeof r1) == 0 && w->step == step;
    tap_ok(rc == status && strstr(err.msg, msg) != NULL && unchanged, "%s refused (status %d): %s", what, rc, err.msg);
}

static void test_refusals(void)
{
    run p, q, other, fewer, dvi;
    clab_error err;
    char ck[512], bad[512];
    path_in_tmp(ck, sizeof ck, "good.ckpt");
    path_in_tmp(bad, sizeof bad, "bad.ckpt");
    if (!tap_ok(run_open(&p, penalty_scene, "p") == 0 && run_open(&q, penalty_scene, "q") == 0,
                "penalty sims for the refusal checks"))
        return;
    run_steps(&p, 50);
    tap_ok(clab_checkpoint_write(p.s, NULL, ck, &err) == CLAB_OK, "checkpoint written");
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", ck);
    tap_ok(access(tmp, F_OK) != 0, "no temporary file left behind (%s)", tmp);
    size_t len;
    unsigned char *good = read_all(ck, &len);
    if (!tap_ok(good && len > 100, "checkpoint read back whole (%zu bytes)", len)) return;

    write_all(bad, "t_s,z_m\n0,1\n", 12);
    refused(&q, bad, CLAB_EIO, "not a contactlab checkpoint", "a CSV file");
    write_all(bad, good, len - 9);
    refused(&q, bad, CLAB_EIO, "truncated checkpoint", "a file cut 9 bytes short");
    write_all(bad, good, 20);
    refused(&q, bad, CLAB_EIO, "truncated checkpoint", "a file cut to 20 bytes (inside the header)");
    unsigned char *m = malloc(len);
    memcpy(m, good, len);
    m[len / 2] ^= 0x10;
    write_all(bad, m, len);
    refused(&q, bad, CLAB_EIO, "damaged checkpoint (checksum", "one flipped bit in the payload");
    clab_checkpoint_info pk;
    int pr = clab_checkpoint_peek(bad, &pk, &err);
    tap_ok(pr == CLAB_EIO && strstr(err.msg, "damaged checkpoint (checksum"), "peek refuses it too: %s", err.msg);
    memcpy(m, good, len);
    m[8] = CLAB_CHECKPOINT_VERSION + 1; /* the next version (the low byte comes first on x86) */
    write_all(bad, m, len);
    refused(&q, bad, CLAB_EIO, "checkpoint format version", "another format version");
    memcpy(m, good, len);
    const uint32_t swapped = 0x04030201u;
    memcpy(m + 12, &swapped, 4);
    write_all(bad, m, len);
    refused(&q, bad, CLAB_EIO, "another byte order", "another byte order");
    free(m);

    /* foreign: one mass changed; a body fewer; another backend */
    char *text = malloc(strlen(penalty_scene) + 64);
    strcpy(text, penalty_scene);
    char *mass = strstr(text, "mass = 0.5");
    mass[9] = '6';
    if (run_open(&other, text, "other") == 0) refused(&other, ck, CLAB_EINVAL, "written for another scene", "a scene with one mass changed");
    run_close(&other);
    strcpy(text, penalty_scene);
    char *last = strstr(text, ",\n  { name = \"d\"");
    strcpy(last, "\n);\nsimulation = { backend = \"penalty\"; h = 2.0e-5; t_end = 1.0; };\n");
    if (run_open(&fewer, text, "fewer") == 0) refused(&fewer, ck, CLAB_EINVAL, "written for a scene of 5 bodies; this one has 4", "a scene with a body fewer");
    run_close(&fewer);
    strcpy(text, penalty_scene);
    char *be = strstr(text, "\"penalty\"");
    memcpy(be, "\"dvi\"    ", 9);
    if (run_open(&dvi, text, "dvi") == 0) refused(&dvi, ck, CLAB_EINVAL, "written by the penalty backend; this run uses the dvi backend", "another backend");
    run_close(&dvi);
    free(text);
    char missing[512];
    path_in_tmp(missing, sizeof missing, "no_such.ckpt");
    refused(&q, missing, CLAB_EIO, "cannot open the checkpoint", "a missing file");

    /* a write that fails (its temporary name is taken by a folder) leaves the old file whole */
    tap_ok(mkdir(tmp, 0700) == 0, "block the temporary name %s", tmp);
    run_steps(&p, 10);
    int wr = clab_checkpoint_write(p.s, NULL, ck, &err);
    tap_ok(wr == CLAB_EIO && strstr(err.msg, "checkpoint not written") && strstr(err.msg, "earlier checkpoint"),
           "failed write reported: %s", err.msg);
    size_t len2;
    unsigned char *again = read_all(ck, &len2);
    tap_ok(again && len2 == len && memcmp(again, good, len) == 0 && clab_checkpoint_read(q.s, ck, NULL, &err) == 0 &&
               q.sc.world->step == 50,
           "the earlier checkpoint is unchanged and still restores step 50");
    rmdir(tmp);
    free(again);
    free(good);

    /* another step size: accepted, reported */
    run r;
    char *th = malloc(strlen(penalty_scene) + 1);
    strcpy(th, penalty_scene);
    memcpy(strstr(th, "h = 2.0e-5"), "h = 1.0e-5", 10);
    clab_checkpoint_info info;
    if (run_open(&r, th, "h") == 0) {
        int rc = clab_checkpoint_read(r.s, ck, &info, &err);
        tap_ok(rc == CLAB_OK && info.same_parameters == 0 && info.h == 2e-5,
               "another h is accepted and reported (same_parameters = 0, h = %g s)", info.h);
    }
    run_close(&r);
    free(th);
    run_close(&p);
    run_close(&q);
}

/* a series cut back to a checkpoint and continued = the series written straight */
static void test_csv_resume(void)
{
    char a[512], b[512];
    path_in_tmp(a, sizeof a, "straight.csv");
    path_in_tmp(b, sizeof b, "resumed.csv");
    const char *cols[] = {"t_s", "x_m"};
    clab_error err;
    clab_csv *fa = clab_csv_open(a, CLAB_CSV_OVERWRITE, &err), *fb = clab_csv_open(b, CLAB_CSV_OVERWRITE, &err);
    clab_csv_header(fa, cols, 2, &err);
    clab_csv_header(fb, cols, 2, &err);
    long long at = 0;
    long rows_at = 0;
    for (int i = 0; i < 10; i++) {
        double row[2] = {0.1 * i, 1.0 / (i + 1)};
        clab_csv_row(fa, row, 2, &err);
        clab_csv_row(fb, row, 2, &err);
        if (i == 3) {
            clab_csv_flush(fb, &err);
            at = clab_csv_bytes(fb);
            rows_at = clab_csv_rows(fb);
        }
    }
    clab_csv_close(fa, &err);
    clab_csv_close(fb, &err);
    clab_csv *fr = clab_csv_resume(b, at, rows_at, 2, &err);
    tap_ok(fr != NULL && clab_csv_rows(fr) == 4 && clab_csv_bytes(fr) == at, "resumed at %lld bytes, 4 rows", at);
    for (int i = 4; fr && i < 10; i++) {
        double row[2] = {0.1 * i, 1.0 / (i + 1)};
        clab_csv_row(fr, row, 2, &err);
    }
    clab_csv_close(fr, &err);
    size_t la, lb;
    unsigned char *pa = read_all(a, &la), *pb = read_all(b, &lb);
    tap_ok(pa && pb && la == lb && memcmp(pa, pb, la) == 0, "continued series = straight series, byte for byte (%zu bytes)",
           la);
    free(pa);
    free(pb);
    fr = clab_csv_resume(b, (long long)la + 10, 10, 2, &err);
    tap_ok(!fr && strstr(err.msg, "expects at least"), "a file shorter than the checkpoint is refused: %s", err.msg);
    fr = clab_csv_resume(b, at - 1, rows_at, 2, &err);
    tap_ok(!fr && strstr(err.msg, "complete row"), "a length not at a line end is refused");
    path_in_tmp(a, sizeof a, "absent.csv");
    fr = clab_csv_resume(a, 10, 1, 2, &err);
    tap_ok(!fr && strstr(err.msg, "cannot reopen"), "a missing file is refused: %s", err.msg);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "%s/clab-ckpt-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        tap_ok(0, "temporary folder");
        return tap_done();
    }
    test_restart("penalty", penalty_scene, 4000);
    test_restart("dvi", dvi_scene, 300);
    test_refusals();
    test_csv_resume();
    /* clean up */
    const char *files[] = {"restart.ckpt", "good.ckpt", "bad.ckpt", "straight.csv", "resumed.csv", NULL};
    for (int i = 0; files[i]; i++) {
        char p[512];
        path_in_tmp(p, sizeof p, files[i]);
        unlink(p);
    }
    rmdir(tmpdir);
    return tap_done();
}
