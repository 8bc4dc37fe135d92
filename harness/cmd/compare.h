/* compare.h - `mmbench compare`: two runs (CSVs, folders, or GPU folders of the data),
 * configuration by configuration, with a verdict each (results/compare/compare.h). */
#ifndef MMB_CMD_COMPARE_H
#define MMB_CMD_COMPARE_H

int mmb_cmd_compare(int argc, char **argv);

#endif
