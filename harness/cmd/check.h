/* check.h - `mmbench check [--compile sm_XY] PROFILE.ini...`, no GPU needed. */
#ifndef MMB_CMD_CHECK_H
#define MMB_CMD_CHECK_H

/* Returns 0, 1 (a configuration did not compile) or 2 (bad input). */
int mmb_cmd_check(int argc, char **argv);

#endif
