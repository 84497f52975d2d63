/* wave.c: placeholder */
#include "xp.h"
int xp_wave(int argc, char **argv) { (void)argc; (void)argv; return 2; }
