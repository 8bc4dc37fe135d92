/* csv_name.h - what a profile's results file is called, and which profiles are for
 * tuning: `run` writes <profile>.csv and `tune` writes tune-<profile>.csv, so that the
 * two never share a file, except that a tuning profile (one whose name starts with
 * "tune") keeps its own name. The tune and merge commands, the report (whose Tuning
 * section shows the rows of tuning profiles) and scripts/gpu/job.sh (through
 * `mmbench check --command`) all ask here. */
#ifndef MMB_RESULTS_CSV_NAME_H
#define MMB_RESULTS_CSV_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the profile of this name is a tuning profile. */
bool mmb_csv_name_tuning(const char *profile);

/* The results file's name without ".csv" for the profile, as `run` (tune false) or
 * `tune` writes it: "course", "tune-course", "tune-seed". -1 when it does not fit
 * out (len bytes). */
int mmb_csv_name_stem(const char *profile, bool tune, char *out, size_t len);

#endif
