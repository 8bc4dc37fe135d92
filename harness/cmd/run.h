/* run.h - `mmbench run PROFILE.ini`: options in `mmbench run --help`. */
#ifndef MMB_CMD_RUN_H
#define MMB_CMD_RUN_H

/* Returns 0, 1 (results could not be written), 2 (bad input), 69 (no GPU) or 130
 * (interrupted; the rows written so far are kept). */
int mmb_cmd_run(int argc, char **argv);

#endif
