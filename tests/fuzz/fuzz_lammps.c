/* fuzz_lammps.c: libFuzzer harness over the LAMMPS data-file reader (lib/lammps_data.c).
 *
 * Each input is a data file's text. It goes through clab_lammps_read_data_string into an
 * empty world (header, Atoms, Velocities, the sections skipped); a file that reads and is
 * small (at most FUZZ_MAX_BODIES atoms) is then stepped a few times under the penalty
 * backend (the bench chute's reader and backend), so a world the reader accepts must also be
 * one the step survives. Any crash, leak, sanitizer report or abort is a finding; refusals
 * with a message are the expected outcome for most inputs.
 *
 * Build: ./configure --enable-fuzz CC=clang && make tests/fuzz/fuzz_lammps
 * Run:   make fuzz-lammps FUZZ_SECONDS=60   (seeds: tests/fuzz/lammps_seeds) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clab_lammps.h"
#include "clab_sim.h"

#define FUZZ_MAX_BYTES 65536 /* longer inputs are skipped (time per input, not coverage) */
#define FUZZ_MAX_BODIES 64   /* worlds stepped */
#define FUZZ_STEPS 3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_BYTES) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    clab_error err;
    clab_world *w = clab_world_create(NULL);
    clab_lammps_info info;
    if (w && clab_lammps_read_data_string(text, "fuzz", w, NULL, &info, &err) == CLAB_OK) {
        if (w->nbodies <= FUZZ_MAX_BODIES) {
            clab_sim *s = clab_sim_create(w, "penalty", 1e-5, NULL, &err);
            for (int k = 0; s && k < FUZZ_STEPS && clab_sim_step(s, &err) == CLAB_OK; k++) {}
            clab_sim_destroy(s);
        }
        clab_lammps_info_free(&info);
    }
    clab_world_destroy(w);
    free(text);
    return 0;
}
