/* test_mpi_chunk.c: the outputs' gathers chunk by chunk (mpi/gather.c), run by
 * tests/test_mpi_chunk.sh under mpirun on 1 to 4 ranks; rank 0 prints unnumbered TAP lines.
 *
 * A layer of touching spheres (periodic along x, cut into P bricks along x) settles on a floor
 * plane placed in the middle of the global order (and a fixed sphere at three quarters), so the
 * fixed bodies of a range come from the replica and the moving ones from several owners. After 60 steps:
 * - the bodies of every range of the session (chunks of 1, 7 and 4,096 bodies, and ranges of
 *   1 to 7 bodies asked from the last backwards) equal clab_mpi_gather's whole world (made on rank 0
 *   from the same owners' bodies) BYTE FOR BYTE (memcmp of the clab_body structs, tolerance 0
 *   bytes: both copy the owner's bytes of each moving body and the replica's of each fixed one;
 *   any body missing, doubled, misplaced or taken from a ghost fails);
 * - the checkpoint written with chunks of 7 bodies (states and keyed records by the chunks of
 *   their body a, the sphere-sphere contacts' records spanning many chunks) is the file written
 *   with one chunk, byte for byte (the format does not depend on the chunk), and it holds
 *   keyed records (so the records' chunks were exercised). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_mpi.h"
#include "mpi_internal.h"

#include "mpi_check.h"

#define L 0.24   /* the period along x [m] */
#define R 0.01   /* sphere radius [m] */
#define H 1e-4   /* step [s] */
#define NX 12    /* spheres along x (they touch: 2 R apart, L = 2 R NX) */
#define NY 4     /* rows along y */
#define STEPS 60

/* NX x NY spheres slightly overlapping in a layer on a floor; the floor is added after half
 * the spheres, a fixed sphere after three quarters */
static clab_world *layer(void)
{
    clab_error err;
    clab_world *w = clab_world_create(NULL);
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "default");
    m.mu = 0.5;
    m.E = 1e6;
    m.nu = 0.3;
    m.cor = 0.5;
    clab_world_add_material(w, &m, &err);
    clab_world_set_periodic(w, 0, 0.0, L, &err);
    const int n = NX * NY;
    for (int k = 0; k < n; k++) {
        if (k == n / 2) {
            clab_body_def d = clab_default_body_def();
            d.shape = clab_plane();
            d.fixed = 1;
            clab_world_add_body(w, &d, &err);
        }
        clab_body_def d = clab_default_body_def();
        d.shape = clab_sphere(R);
        d.density = 2500.0;
        const int i = k % NX, j = k / NX;
        d.r = clab_v3(R + 2 * R * i - 1e-5 * i, 2 * R * j - 2e-5 * j, R - 1e-5);
        d.rdot = clab_v3(0.3 * (j % 2 ? 1 : -1), 0.0, 0.0);
        d.fixed = k == 3 * n / 4;
        if (clab_world_add_body(w, &d, &err) < 0) {
            fprintf(stderr, "%s\n", err.msg);
            exit(1);
        }
    }
    return w;
}

/* rank 0: the bodies of [g0, g1) through the session into out[g0 ..]; the others serve */
static int session(clab_mpi_domain *d, size_t chunk, const size_t (*ranges)[2], size_t nr, clab_body *out)
{
    clab_error err;
    clab_mpi_chunks c;
    int rc = clab_mpi_chunks_init(&c, d, 0, chunk, &err);
    if (d->rank != 0) {
        const int src = clab_mpi_chunks_serve(&c, &err);
        rc = rc ? rc : src;
    } else {
        for (size_t r = 0; r < nr && !rc; r++) {
            const clab_body *b = NULL;
            rc = clab_mpi_chunks_get(&c, ranges[r][0], ranges[r][1], &b, &err);
            if (!rc) memcpy(out + ranges[r][0], b, (ranges[r][1] - ranges[r][0]) * sizeof *b);
        }
        const int erc = clab_mpi_chunks_end(&c);
        rc = rc ? rc : erc;
    }
    clab_mpi_chunks_free(&c);
    return clab_mpi_agree(d, rc, NULL, &err);
}

static long file_bytes(const char *path, char **buf)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *buf = malloc(n > 0 ? (size_t)n : 1);
    const int ok = *buf && n >= 0 && fread(*buf, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    return ok ? n : -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int P;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    const char *dir = argc > 1 ? argv[1] : ".";
    clab_error err;
    clab_error_clear(&err);
    clab_mpi_domain *d = NULL;
    clab_mpi_sim *ms = NULL;
    const int grid[3] = {P, 1, 1};
    int rc = clab_mpi_domain_create(&d, MPI_COMM_WORLD, layer(), grid, 0, 0.1 * R, 0.0, &err);
    if (!rc) rc = clab_mpi_sim_create(&ms, d, "penalty", H, NULL, &err);
    for (int k = 0; k < STEPS && !rc; k++) rc = clab_mpi_sim_step(ms, &err);
    if (rc) {
        fprintf(stderr, "rank %d: %s\n", rank_, err.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const size_t N = d->nglobal;
    clab_mpi_domain_release(d); /* the whole world made anew by clab_mpi_gather, from the owners */
    rc = clab_mpi_gather(d, 0, &err);
    check(rc == 0 && (rank_ != 0 || (d->global && d->global->nbodies == N)),
          "%d ranks: clab_mpi_gather's whole world of %zu bodies on rank 0", P, N);
    clab_body *got = rank_ == 0 ? calloc(N, sizeof *got) : NULL;
    size_t(*ranges)[2] = malloc((N + 1) * sizeof *ranges);
    static const size_t chunks[] = {1, 7, 4096};
    for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
        size_t nr = 0;
        for (size_t g0 = 0; g0 < N; g0 += chunks[c], nr++) {
            ranges[nr][0] = g0;
            ranges[nr][1] = N - g0 < chunks[c] ? N : g0 + chunks[c];
        }
        if (got) memset(got, 0xa5, N * sizeof *got);
        rc = session(d, chunks[c], (const size_t(*)[2])ranges, nr, got);
        check(rc == 0 && (rank_ != 0 || memcmp(got, d->global->bodies, N * sizeof *got) == 0),
              "%d ranks, chunks of %zu bodies (%zu gathers): every body of the %zu equals clab_mpi_gather's, byte for "
              "byte",
              P, chunks[c], nr, N);
    }
    /* ranges of 1 to 7 bodies, asked backwards */
    size_t nr = 0;
    for (size_t g1 = N, len = 1; g1 > 0; len = len % 7 + 1, nr++) {
        ranges[nr][1] = g1;
        ranges[nr][0] = g1 > len ? g1 - len : 0;
        g1 = ranges[nr][0];
    }
    if (got) memset(got, 0x5a, N * sizeof *got);
    rc = session(d, 7, (const size_t(*)[2])ranges, nr, got);
    check(rc == 0 && (rank_ != 0 || memcmp(got, d->global->bodies, N * sizeof *got) == 0),
          "%d ranks, %zu ranges of 1 to 7 bodies asked from the last backwards: byte for byte clab_mpi_gather's", P, nr);
    /* a range longer than the chunk: refused, named, and the session still ends */
    if (rank_ == 0) {
        clab_mpi_chunks c;
        const clab_body *b = NULL;
        clab_mpi_chunks_init(&c, d, 0, 7, &err);
        const int r = clab_mpi_chunks_get(&c, 0, 8, &b, &err);
        clab_mpi_chunks_end(&c);
        clab_mpi_chunks_free(&c);
        check(r == CLAB_EINVAL && strstr(err.msg, "at most 7"), "a range of 8 bodies in chunks of 7 refused: %s",
              err.msg);
    } else {
        clab_mpi_chunks c;
        clab_mpi_chunks_init(&c, d, 0, 7, &err);
        clab_mpi_chunks_serve(&c, &err);
        clab_mpi_chunks_free(&c);
    }
    free(got);
    free(ranges);
    clab_mpi_domain_release(d);

    /* the checkpoint in chunks of 7 and in one */
    char p7[1024], p1[1024];
    snprintf(p7, sizeof p7, "%s/chunk7-%d.ckpt", dir, P);
    snprintf(p1, sizeof p1, "%s/chunk1-%d.ckpt", dir, P);
    rc = clab_mpi_checkpoint_write_chunked(ms, p7, 7, &err);
    if (!rc) rc = clab_mpi_checkpoint_write_chunked(ms, p1, N, &err);
    if (rank_ == 0) {
        char *a = NULL, *b = NULL;
        const long na = file_bytes(p7, &a), nb = file_bytes(p1, &b);
        uint64_t nrec = 0;
        const long at = 8 + 32 + 8 + 8 + 8 + (long)N * 13 * 8; /* the head's size, after the states */
        if (na > at + 8) {
            uint64_t hs = 0;
            memcpy(&hs, a + at, 8);
            if (at + 8 + (long)hs + 16 <= na) memcpy(&nrec, a + at + 8 + hs + 8, 8);
        }
        check(rc == 0 && na > 0 && na == nb && memcmp(a, b, (size_t)na) == 0 && nrec > (uint64_t)N / 2,
              "%d ranks: the checkpoint in chunks of 7 bodies is the one-chunk file, byte for byte (%ld bytes, %llu "
              "keyed records)",
              P, na, (unsigned long long)nrec);
        free(a);
        free(b);
    }
    /* and read back: every rank reads it through (the record count in its place), the same states */
    uint64_t h0 = 0, h1 = 1;
    if (!rc) rc = clab_mpi_gather(d, 0, &err);
    if (!rc && rank_ == 0) h0 = clab_mpi_state_hash(d->global);
    clab_mpi_domain_release(d);
    clab_mpi_sim_destroy(ms);
    ms = NULL;
    if (!rc) rc = clab_mpi_sim_create(&ms, d, "penalty", H, NULL, &err);
    if (!rc) rc = clab_mpi_checkpoint_read(ms, p7, &err);
    if (!rc) rc = clab_mpi_gather(d, 0, &err);
    if (!rc && rank_ == 0) h1 = clab_mpi_state_hash(d->global);
    check(rc == 0 && h0 == h1 && d->local->step == STEPS, "%d ranks: the chunked checkpoint read back: step %ld, "
          "state %016llx (written from %016llx)%s%s", P, d->local->step, (unsigned long long)h1,
          (unsigned long long)h0, rc ? ": " : "", rc ? err.msg : "");
    clab_mpi_sim_destroy(ms);
    clab_mpi_domain_destroy(d);
    if (rank_ == 0) printf("# %d ranks: %d failed\n", P, fails_);
    MPI_Finalize();
    return fails_ ? 1 : 0;
}
