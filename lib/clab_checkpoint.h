/* clab_checkpoint.h: checkpoint and restart of a simulation.
 *
 * A checkpoint holds everything a clab_sim changes while it runs: the world's t and step,
 * every body's q = (r, e) and v = (rdot, wbar) bit for bit (a driven body's velocity too: the
 * one a driver set, clab_world_set_body_velocity, or a servo's for the next step), and the backend's own state
 * through its save/load hooks (penalty: the tangential history delta_t and the step count;
 * DVI: the warm-start impulses by contact key and the solver counters). The caller adds its
 * output bookkeeping (the length of each CSV series, rows written), so a restarted run can
 * cut its files back to the checkpoint and continue them byte for byte.
 *
 *     clab_checkpoint_output out = {...};                        // CSV lengths after a flush
 *     clab_checkpoint_write(sim, &out, "run.ckpt", &err);        // temporary file + rename
 *     ...
 *     clab_sim *s2 = clab_sim_create(world_from_the_same_scene, ...);
 *     clab_checkpoint_info info;
 *     clab_checkpoint_read(s2, "run.ckpt", &info, &err);         // s2 continues bit for bit
 *
 * File layout (native byte order; the header says which, and a foreign one is refused):
 *   header, 40 bytes: "CLABCKPT", uint32 format version, uint32 byte-order mark 0x01020304,
 *     double -0.15625 (floating-point format check), uint64 payload length, uint32 CRC-32 of
 *     the payload (zlib's crc32), uint32 0;
 *   payload: the scene fingerprint (body count, CRC-32 of every shape, mass, inertia, fixed
 *     flag, material index and name of the bodies in the order they were added, every
 *     material, joint and the gravity, and where there are some the driven bodies' motions and
 *     the loads), the backend's name, h and a CRC-32 of the run's
 *     parameters (clab_sim_meta); the state (t, step, 13 doubles a body); the order (version
 *     3: uint32 0 when the bodies are in the order they were added, else 1 and each body's
 *     place in that order, uint64 a body); the caller's output bookkeeping (tag, series
 *     lengths, output count, its running values); the backend's block.
 * A run that renumbers its bodies (sim option sort, clab_sim_sort) writes them in its order,
 * with their places; reading renumbers the world it restores into alike (the scene freshly
 * built, in the order of adding, or a world sorted otherwise), with the collider's pair list
 * forgotten, so the run continues bit for bit.
 * A file with another magic, version or byte order, a truncated or damaged one (length or
 * checksum), one written for another scene or another backend is refused with CLAB_EIO or
 * CLAB_EINVAL and a message that says which. Writing goes to "<path>.tmp", flushed to disk
 * (fsync) and renamed over path, so a crash mid-write leaves the previous checkpoint whole. */
#ifndef CLAB_CHECKPOINT_H
#define CLAB_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "clab_error.h"
#include "clab_sim.h"

#define CLAB_CHECKPOINT_VERSION 3 /* 2 added the caller's running values, 3 the bodies' order (version 2
                                   * files are read too) */
#define CLAB_CHECKPOINT_MAX_FILES 8 /* output series a checkpoint can record */
#define CLAB_CHECKPOINT_TAG_LEN 64

/* The caller's output bookkeeping, stored as given and returned on reading. */
typedef struct clab_checkpoint_output {
    char tag[CLAB_CHECKPOINT_TAG_LEN];       /* who wrote it and for what, e.g. "run bodies,steps";
                                                checked by the caller on restart */
    int nfiles;                              /* output series recorded (<= CLAB_CHECKPOINT_MAX_FILES) */
    int64_t bytes[CLAB_CHECKPOINT_MAX_FILES]; /* length of each file when the checkpoint was taken [bytes] */
    int64_t rows[CLAB_CHECKPOINT_MAX_FILES];  /* data rows in each by then */
    int64_t nout;                            /* output steps written so far (numbers VTK frames) */
    /* The caller's running quantities (sums, extrema, counters of a driver's measurements),
     * stored bit for bit so a restarted run goes on from the same values. Writing: values
     * points at nvalues doubles of the caller's (or is NULL). Reading (clab_checkpoint_read,
     * _decode, _peek with an info): values is a malloc'ed copy, NULL when nvalues is 0,
     * owned by the caller: release it with clab_checkpoint_info_free. */
    size_t nvalues;
    double *values;
} clab_checkpoint_output;

/* What a checkpoint says beyond the state it restores. */
typedef struct clab_checkpoint_info {
    char backend[64];             /* backend that wrote it */
    double t;                     /* simulated time of the state [s] */
    long step;                    /* steps taken */
    double h;                     /* step size the run had [s] */
    int same_parameters;          /* 1: h and every parameter of clab_sim_meta as in this sim */
    clab_checkpoint_output out;   /* the caller's bookkeeping */
} clab_checkpoint_info;

/* A checkpoint held in memory (the last good state of a run, written out when a later
 * step fails). An image serves one simulation: the fingerprint of its parameters (the CRC-32
 * of clab_sim_meta's lines, which a run cannot change) is computed at the first encode and
 * kept for the next ones, for as long as the simulation, its backend state and h are the
 * ones it was computed for; clab_checkpoint_image_init (or _free) forgets it. */
typedef struct clab_checkpoint_image {
    unsigned char *data; /* [len] the file's bytes */
    size_t len, cap;
    double t;            /* state it holds [s] */
    long step;
    const clab_sim *params_sim; /* the simulation params belongs to (NULL: none yet) */
    const void *params_self;    /* its backend state then */
    double params_h;            /* its step then [s] */
    uint32_t params;            /* the fingerprint */
} clab_checkpoint_image;

void clab_checkpoint_image_init(clab_checkpoint_image *img);
void clab_checkpoint_image_free(clab_checkpoint_image *img);

/* Encode the state of s (and out, may be NULL) into img, reusing its storage. */
int clab_checkpoint_encode(const clab_sim *s, const clab_checkpoint_output *out, clab_checkpoint_image *img,
                           clab_error *err);
/* Write img to path through "<path>.tmp", fsync and rename. CLAB_EIO naming the path. */
int clab_checkpoint_save_image(const clab_checkpoint_image *img, const char *path, clab_error *err);
/* Both in one. */
int clab_checkpoint_write(const clab_sim *s, const clab_checkpoint_output *out, const char *path, clab_error *err);

/* Check the file at path against s (same scene, same backend) and restore its state into s:
 * world t, step, every body's q and v, the backend's state. info (may be NULL) receives the
 * rest. On failure s is unchanged when the file was refused by its checks; when a backend's
 * own block is unreadable (CLAB_EIO), s must be discarded. */
int clab_checkpoint_read(clab_sim *s, const char *path, clab_checkpoint_info *info, clab_error *err);
/* The same from bytes in memory (name labels the messages). */
int clab_checkpoint_decode(clab_sim *s, const unsigned char *data, size_t len, const char *name,
                           clab_checkpoint_info *info, clab_error *err);

/* Check the file at path (signature, version, byte order, length, checksum) and read what
 * it says without a simulation: the backend, t, step, h and the caller's bookkeeping
 * (same_parameters is 0: nothing to compare with). For a driver that must know which of its
 * simulations a checkpoint belongs to (the tag) before it builds that one. */
int clab_checkpoint_peek(const char *path, clab_checkpoint_info *info, clab_error *err);

/* Release what reading put into info (the values); info may be reused after. */
void clab_checkpoint_info_free(clab_checkpoint_info *info);

/* CRC-32 of the scene of w: body count and every shape, mass, inertia, fixed flag,
 * material index and name, every material and joint, the gravity (not the state). */
uint32_t clab_checkpoint_scene_fingerprint(const clab_world *w);

#endif
