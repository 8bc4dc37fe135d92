/* export.h - output for programs: `mmbench export --best` (the tuned configurations as
 * a C header or JSON) and `mmbench columns` (the column table as JSON). */
#ifndef MMB_CMD_EXPORT_H
#define MMB_CMD_EXPORT_H

int mmb_cmd_export(int argc, char **argv);
int mmb_cmd_columns(int argc, char **argv);

#endif
