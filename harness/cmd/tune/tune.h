/* tune.h - `mmbench tune PROFILE`: search the parameter spaces of a profile's kernels
 * on a GPU (brute_force, random, annealing, genetic), with compiles run ahead on
 * worker threads, resumable through the results CSV, with a summary against cuBLAS
 * and a T4 export. Options: `mmbench tune --help`. */
#ifndef MMB_CMD_TUNE_H
#define MMB_CMD_TUNE_H

/* Returns 0, 1 (the results could not be written), 2 (bad input), 69 (no GPU) or 130
 * (interrupted; every finished row is kept). */
int mmb_cmd_tune(int argc, char **argv);

#endif
