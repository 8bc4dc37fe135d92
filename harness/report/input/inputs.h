/* inputs.h - the CSV files a report or an export reads: each file named, and every
 * *.csv under each folder named (recursively, in name order; hidden entries and bench/
 * folders passed over, a shard's file left out where its merged CSV is there too),
 * <root>/data when none is named. Anything else named is refused with what it is. */
#ifndef MMB_REPORT_INPUTS_H
#define MMB_REPORT_INPUTS_H

#include <stddef.h>

#include "report/input/data.h"

struct mmb_report_inputs {
    char **paths;
    size_t n, cap;
};

/* Collects the CSV files of args (none: <root>/data). Returns 0, or -1 with err
 * "PATH: what was expected" (a missing input, a device or FIFO, a folder without a
 * CSV, two files of one shard). */
int mmb_report_inputs_collect(char *const *args, size_t nargs, const char *root, struct mmb_report_inputs *out,
                              char *err, size_t errlen);
void mmb_report_inputs_free(struct mmb_report_inputs *in);

/* The path a document shows: relative to root when under it. */
const char *mmb_report_inputs_shown(const char *path, const char *root);

/* Collects the inputs and reads every row of them into d (mmb_report_data_add_csv).
 * Returns 0, or -1 with err ("file:line: ..." for a bad row). */
int mmb_report_inputs_read(char *const *args, size_t nargs, const char *root, struct mmb_report_data *d, char *err,
                           size_t errlen);

#endif
