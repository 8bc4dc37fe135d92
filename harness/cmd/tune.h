/* tune.h - `mmbench tune PROFILE`: search the parameter spaces of a profile's
 * kernels on a GPU (brute_force, random, annealing, genetic), with compiles run
 * ahead on worker threads, resumable through the results CSV, with a summary
 * against cuBLAS and a T4 export. Options: `mmbench tune --help`. */
#ifndef MMB_TUNE_H
#define MMB_TUNE_H

#include <sysexits.h>

/* Returned after a sticky GPU error: the CUDA context is gone for this process, the
 * results so far are in the CSV, and the same command in a new process goes on. */
#define MMB_TUNE_DEVICE_LOST EX_TEMPFAIL

/* Returns 0, 2 (bad input), 69 (no GPU), 130 (interrupted), MMB_TUNE_DEVICE_LOST, or
 * 1 (the results could not be written). */
int mmb_tune_main(int argc, char **argv);

#endif
