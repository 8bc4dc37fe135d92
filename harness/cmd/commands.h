/* commands.h - the command line of the mmbench program, dispatched to its subcommand. */
#ifndef MMB_CMD_COMMANDS_H
#define MMB_CMD_COMMANDS_H

/* argv[0] is the program, argv[1] the command (run, tune, check, merge, devices,
 * report, export, columns, help) or --help / --version. Returns the exit code (common.h). */
int mmb_cmd_main(int argc, char **argv);

#endif
