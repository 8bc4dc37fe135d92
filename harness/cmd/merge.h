/* merge.h - `mmbench merge`: the shards' CSVs of a profile into one CSV per GPU folder. */
#ifndef MMB_CMD_MERGE_H
#define MMB_CMD_MERGE_H

int mmb_cmd_merge(int argc, char **argv);

#endif
